"""Corner Rush's running scores: each pawn's steps to its own Ace, kept seat by seat between calls.

A part of :class:`.rules.CornerRush` (a mixin: it reads the game's parameters and board), kept
apart so the rules module stays one concern: what is legal and what it does. The lab reads the
running scores at every turn end, so a seat's search is redone only when its pawn moved or the
blockers changed where its route could go (``tests/test_corner_rush_speed.py`` checks the kept
answers against scores worked out from scratch).
"""

from __future__ import annotations

from typing import Callable

from ...geometry import FAR, bits
from .board import Board
from .params import CornerRushParams
from .position import State

__all__ = ["CornerRushScores"]


class CornerRushScores:
    """The running scores (mixed into the game class; its ``__init__`` sets the kept values)."""

    params: CornerRushParams
    B: Board
    _running: tuple[int, tuple[int, ...], tuple[int, ...]] | None
    _seat_running: list[tuple[int, int, int, int, int, int] | None]
    _open: int
    _closed: tuple[int, ...]
    _far: tuple[list[int], ...]
    _pawn_steps: dict[int, list[int]]
    _through_kept: dict[int, list[int]]

    def running_scores(self, state: State) -> tuple[int, ...]:
        """Minus each pawn's steps to its own Ace over the tiles it may cross (as :meth:`walk_masks` and
        :meth:`ace_distances` have them: around blockers, the hole and closed tiles): the first pawn
        on its Ace wins, so nearer is ahead. A pawn the blockers cut off (most pawns, once the
        bags are emptied) counts its steps with the blockers lifted, plus ``board_size``: a
        blocker in the way can be beaten in a challenge. The winner stands on its Ace (0);
        every other pawn is off its own Ace, so it is behind.

        >>> import playtest
        >>> game = playtest.load("corner_rush", num_players=2)
        >>> game.running_scores(game.state_from_json({"phase": "start", "to_move": 0, "pawns": ["c4", "d1"],
        ...                                           "blockers": {"d4": {"colour": 1, "value": 3}}}))
        (-7, -7)
        """
        blocked, pawns = state.blocked, state.pawns
        kept = self._running            # the last answer: most turn ends move no pawn and no blocker
        if kept is not None and kept[0] == blocked and kept[1] == pawns:
            return kept[2]
        known = self._seat_running
        touch4 = self.B.touch4
        out = []
        for seat, tile in enumerate(pawns):
            was = known[seat]
            if was is not None and was[1] == tile:
                # the same pawn tile, and the blockers changed only where the last search from this Ace
                # never looked: none put on a tile it went over, none taken from a tile next to one
                # (its frontiers are then the same, tile by tile, and so is the score)
                # ... or put on tiles no route of its length crosses, the blockers lifted (or the pawn
                # was cut off: more blockers keep it so)
                before = was[0]
                if before == blocked or (not before & ~blocked & was[3] and (was[5] >= FAR or not (
                        added := blocked & ~before) & was[2] or self._off_route(seat, tile, added, was[5]))):
                    out.append(was[4])
                    continue
            score, reach, route = self._ace_steps(seat, tile, blocked)
            known[seat] = (blocked, tile, reach, reach | touch4(reach), score, route)
            out.append(score)
        result = tuple(out)
        self._running = (blocked, pawns, result)
        return result

    def _ace_steps(self, seat: int, tile: int, blocked: int) -> tuple[int, int, int]:
        """:meth:`running_scores`' score of ``seat``'s pawn on ``tile`` with these blockers, the tiles the
        search from its Ace went over (a blocker put anywhere else leaves the score as it is), and the
        length of the route it found (:data:`~playtest.geometry.FAR`: cut off; -1: the pawn stands on
        a tile closed to it)."""
        p, B = self.params, self.B
        grid = B.grid
        cols, not_first, not_last = grid.cols, grid.not_first_col, grid.not_last_col
        allowed = self._open & ~self._closed[seat] & ~blocked      # pawns are passed, or may move off
        target, extra = (1 << tile, 0) if allowed >> tile & 1 else (B.adj4[tile], 1)  # (a closed Ace)
        reach = frontier = 1 << B.aces[seat]
        steps = 0
        while frontier and not reach & target:     # breadth first from the Ace, up to the pawn (touch4)
            frontier = (((frontier << 1) & not_first) | ((frontier >> 1) & not_last) | (frontier << cols)
                        | (frontier >> cols)) & allowed & ~reach
            reach |= frontier
            steps += 1
        if reach & target:
            return -(steps + extra), reach, -1 if extra else steps
        far = self._far[seat]
        d = far[tile] if extra == 0 else 1 + min(far[t] for t in bits(target))
        return -(min(d, 2 * B.tiles) + p.board_size), reach, FAR   # cut off by blockers

    def _cut_scores(self) -> list[list[int]]:
        """For each seat and tile, :meth:`running_scores`' score of a pawn on that tile cut off from its Ace
        (:meth:`_ace_steps`' last line: it depends on the tile alone), worked out once."""
        def cut(far: list[int], lifted: int, tile: int) -> int:
            d = far[tile] if lifted >> tile & 1 else 1 + min(far[t] for t in bits(self.B.adj4[tile]))
            return -(min(d, 2 * self.B.tiles) + self.params.board_size)
        return self._per_seat_tile("_cut_kept", cut)

    def _corridors(self) -> list[list[int]]:
        """For each seat and tile, the tiles of every shortest route from the seat's Ace to that tile with the
        blockers lifted (:meth:`_ace_steps` finds that length when no blocker stands on one of them),
        worked out once."""
        def corridor(far: list[int], lifted: int, tile: int) -> int:
            if not lifted >> tile & 1 or far[tile] >= FAR:
                return 0
            back = self.B.grid.distances(1 << tile, lifted)
            return sum(1 << t for t in range(self.B.tiles) if far[t] + back[t] == far[tile])
        return self._per_seat_tile("_corridors_kept", corridor)

    def _per_seat_tile(self, key: str, cell: Callable[[list[int], int, int], int]) -> list[list[int]]:
        """``cell(far, lifted, tile)`` for each seat and tile (``far``: the seat's steps from its Ace with the
        blockers lifted; ``lifted``: the tiles it may cross so), worked out once and kept under ``key``."""
        kept = self.__dict__.get(key)
        if kept is None:
            kept = [[cell(self._far[seat], self._open & ~self._closed[seat], tile) for tile in range(self.B.tiles)]
                    for seat in range(len(self.B.aces))]
            self.__dict__[key] = kept
        return kept

    def _off_route(self, seat: int, tile: int, added: int, route: int) -> bool:
        """Whether blockers ``added`` leave ``seat``'s route from its Ace to its pawn on ``tile`` as long as it
        was (``route`` steps, :meth:`_ace_steps`; the pawn not cut off): no route of that length crosses them
        even with every blocker lifted (the steps from the Ace to a tile and from the tile to the pawn add up
        to more), so the route found still stands and none is shorter."""
        if route < 0:
            return False
        from_ace, from_pawn = self._far[seat], self._from_pawn(seat, tile)
        return all(from_ace[t] + from_pawn[t] > route for t in bits(added))

    def _no_shortcut(self, seat: int, tile: int, lifted: int, route: int) -> bool:
        """Whether blockers taken from tiles ``lifted`` leave ``seat``'s route from its Ace to its pawn on
        ``tile`` (``route`` steps, as :meth:`_off_route` has it) the shortest: every route over one of those
        tiles takes at least ``route`` steps even with every blocker lifted."""
        if route < 0:
            return False
        from_ace, from_pawn = self._far[seat], self._from_pawn(seat, tile)
        return all(from_ace[t] + from_pawn[t] >= route for t in bits(lifted))

    def _through(self, seat: int, tile: int) -> list[int]:
        """For every tile, the fewest steps of a route from ``seat``'s Ace over it to ``tile``, blockers lifted
        (what :meth:`_off_route` and :meth:`_no_shortcut` compare with a route's length), kept."""
        key = seat * self.B.tiles + tile
        found = self._through_kept.get(key)
        if found is None:
            found = self._through_kept[key] = [a + b for a, b in zip(self._far[seat], self._from_pawn(seat, tile))]
        return found

    def _from_pawn(self, seat: int, tile: int) -> list[int]:
        """The steps from ``tile`` to every tile over the tiles ``seat``'s pawn may cross, blockers lifted, kept."""
        key = seat * self.B.tiles + tile
        from_pawn = self._pawn_steps.get(key)
        if from_pawn is None:
            lifted = self._open & ~self._closed[seat]
            from_pawn = self._pawn_steps[key] = self.B.grid.distances(1 << tile, lifted)
        return from_pawn
