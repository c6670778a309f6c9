"""Then There Was One's running scores, worked out cheaply: :class:`GoalScores`.

``ThenThereWasOne.running_scores`` (the rules' words for what the scores mean are in its
docstring) asks this at every turn end of every game the lab plays, so it keeps what it
found:

* the breadth-first layers from the goal row of the last board (obstacles and walls: a
  token's turn changes neither), grown lazily, only as far as the tokens looked up need;
* each tile's (how far along, how trapped) on that board;
* the scores of each (arrivals, eliminations, the tokens' progress in seat order): the
  progress figures take few values (a token's distance to the goal row), so the same ones
  come back turn after turn, game after game, and the sums and sorts are done once.

Every number is computed by the same expressions, in the same order, as the rules'
original reading (kept in ``tests/test_ttwo_scores.py``, which compares them over thousands
of random positions), so the values are identical to the last bit.
"""

from __future__ import annotations

from typing import Any

from ...geometry import popcount
from .board import Board

__all__ = ["GoalScores"]

KEPT_SCORES = 8192   #: the scores of at most this many progress patterns are kept (then afresh)
NOT_PLACED = (0.0, 0.0)


class GoalScores:
    """``scores(state)``: each side's way to its win threshold, as ``running_scores`` defines it.

    >>> import playtest
    >>> game = playtest.load("then_there_was_one")
    >>> scores = GoalScores(game.B, game.params.move_length, game._thresholds, game.tokens_n)
    >>> state = game.state_from_json({"to_move": 1, "round": 2, "arrived": [3],
    ...                               "tokens": {"1": [5, 12], "2": [0, 0]}})
    >>> [round(x, 3) for x in scores(state)]
    [0.0, 0.929, 0.929, 0.929]
    """

    def __init__(self, board: Board, move_length: int, thresholds: tuple[int, int], tokens_n: int):
        self.B = board
        self.move_length = move_length
        self.need_tokens, self.need_wall = thresholds
        self.tokens_n = tokens_n
        self._tables()
        self._forget()

    def _tables(self) -> None:
        """What depends on the board's size alone: each distance's (how far along, 0.0) (the same
        division as ever, made once)."""
        size, length = self.B.size, self.B.rows
        self.along = tuple((max(0, length - 1 - d) / length, 0.0) for d in range(size + 1))

    def _forget(self) -> None:
        #: the board the layers are of
        self.obstacles = self.walls = -1
        #: the goal row's breadth-first search so far: its layers (layer d: the tiles d steps away), the
        #: tiles they hold and the next layer, reached but not kept yet
        self.reached = self.frontier = 0
        self.layers: list[int] = []
        self.free = 0
        #: tile -> (how far along, how trapped) on this board (-1: a token not placed yet)
        self.looked_up: dict[int, tuple[float, float]] = {-1: NOT_PLACED}
        #: (arrived, eliminated, progress in seat order) -> the scores (any board: they depend on no tile)
        self.memo: dict[tuple[int, int, tuple[tuple[float, float], ...]], tuple[float, ...]] = {}

    def __getstate__(self) -> dict[str, Any]:
        """The board and the rules' numbers: what was found is found again on demand (a small pickle).

        >>> import pickle, playtest
        >>> game = playtest.load("then_there_was_one")
        >>> _ = game.running_scores(game.initial_state())
        >>> pickle.loads(pickle.dumps(game._scores)).memo
        {}
        """
        return {"B": self.B, "move_length": self.move_length, "need_tokens": self.need_tokens,
                "need_wall": self.need_wall, "tokens_n": self.tokens_n}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._tables()
        self._forget()

    def __call__(self, state: Any) -> tuple[float, ...]:
        obstacles, walls = state.obstacles, state.walls | state.built
        if walls != self.walls or obstacles != self.obstacles:
            self._board(obstacles, walls)
        arrived, out = state.arrived, state.eliminated
        tokens = state.tokens
        if out:
            gone = arrived + tuple(seat for seat, _ in out)
            tokens = tuple(t for seat, t in enumerate(tokens, 1) if seat not in gone)
        elif arrived:
            tokens = tuple(t for seat, t in enumerate(tokens, 1) if seat not in arrived)
        looked_up = self.looked_up      # (most calls meet a tile not looked up yet: a token has moved)
        progress = tuple([looked_up[t] if t in looked_up else self._look_up(t) for t in tokens])
        key = (len(arrived), len(out), progress)
        memo = self.memo
        known = memo.get(key)
        if known is None:
            if len(memo) >= KEPT_SCORES:
                memo.clear()
            along = _toward(key[0], self.need_tokens, len(progress), [p[0] for p in progress])
            known = memo[key] = ((_toward(key[1], self.need_wall, len(progress), [p[1] for p in progress]),)
                                 + (along,) * self.tokens_n)
        return known

    def _board(self, obstacles: int, walls: int) -> None:
        """Start on a new board: no layer found yet."""
        B = self.B
        self.obstacles, self.walls = obstacles, walls
        self.free = B.all & ~obstacles
        self.reached = self.frontier = B.goal & self.free
        self.layers = []
        self.looked_up = {-1: NOT_PLACED}

    def _look_up(self, t: int) -> tuple[float, float]:
        """(how far along, how trapped) the token on tile ``t`` is: ``(L - 1 - d) / L`` along for ``d`` its
        breadth-first distance to the goal row (``L`` the board's length), else trapped 0.5 + 0.4 x
        min(1, (move_length + 1) / the tiles it can still reach)."""
        tile = 1 << t          # (``mask & tile`` is mostly 0, a number Python does not make anew)
        if not self.reached & tile and self.frontier:
            self._grow(tile)
        if self.reached & tile:
            if self.frontier & tile:        # the layer not kept yet
                found = self.along[len(self.layers)]
            else:
                for d, layer in enumerate(self.layers):
                    if layer & tile:
                        found = self.along[d]
                        break
        else:
            B = self.B
            area = popcount(B.reach(tile, self.free, self.walls))
            found = 0.0, 0.5 + 0.4 * min(1.0, (self.move_length + 1) / max(1, area))
        self.looked_up[t] = found
        return found

    def _grow(self, tile: int) -> None:
        """Go on with the breadth-first search from the goal row (``BitGrid.layers``' step, resumed) until
        ``tile`` (a one-bit mask) is reached or no tile is left."""
        B = self.B
        n = B.cols
        e_open, n_open = B._open(self.walls)
        free, reached, frontier, layers = self.free, self.reached, self.frontier, self.layers
        while frontier:
            layers.append(frontier)
            frontier = (((frontier & e_open) << 1) | ((frontier >> 1) & e_open)
                        | ((frontier & n_open) << n) | ((frontier >> n) & n_open)) & free & ~reached
            reached |= frontier
            if frontier & tile:
                break
        self.reached, self.frontier = reached, frontier


def _toward(done: int, need: int, left: int, partial: list[float]) -> float:
    """A side's progress toward ``need`` (arrivals for the tokens, eliminations for the wall): what it
    has ``done``, plus the best partial progress of the tokens still on the board that it still needs;
    0 once too few tokens are ``left`` to get there."""
    if done >= need:
        return done / need
    if done + left < need:
        return 0.0
    return (done + sum(sorted(partial, reverse=True)[:need - done])) / need
