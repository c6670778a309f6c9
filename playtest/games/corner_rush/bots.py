"""Corner Rush's greedy bot, and a count of wins by turn order.

The greedy bot plays through the game's public queries (``ace_distances``,
``step_tiles``, ``challengeable``, ``challenge_odds``, ``push_tiles``,
``place_tiles``) and, like every bot, is handed a state redrawn from its own
seat's knowledge: it never reads a face-down value it may not know (the odds
of a challenge come from ``challenge_odds``, what the seat knows, not from the
redrawn value).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ...bots import Bot, register_bot
from ...geometry import FAR, bits
from ...rules import Action, EndTurn
from .actions import Challenge, Place, Push, Roll, Step, Take
from .position import State, first_player

if TYPE_CHECKING:
    from ...lab import SimulationResult
    from .rules import CornerRush

__all__ = ["GreedyBot", "first_player", "turn_order_results"]


@register_bot("corner_rush", "greedy")
class GreedyBot(Bot):
    """Heads for its Ace by the shortest route, challenges a blocker in the way when the odds favour it,
    pushes the leading opponent back on a Null, and drops its blockers on the leaders' routes.

    ``odds`` is the least chance of beating a blocker that makes it challenge (0.5: when the odds
    favour it). Seat it anywhere: ``playtest.simulate(game, {0: GreedyBot(), 1: RandomBot(), ...})``.
    """

    name = "greedy"

    def __init__(self, seed: int | None = None, odds: float = 0.5):
        self.rng = random.Random(seed)
        self.odds = odds

    def choose(self, game: CornerRush, state: State, seat: int | None = None) -> Action:
        phase = state.phase
        if phase in ("start", "again"):
            return self._start(game, state)
        if phase == "move":
            return self._step(game, state)
        if phase == "null":
            return self._push(game, state)
        if phase == "take":
            return Take()
        if phase == "draw":      # blocker_draw = "choose": the hardest blocker to beat
            return max(game.legal_actions(state), key=lambda a: (a.value, -a.colour))  # type: ignore
        if phase == "place":
            return self._place(game, state)
        return game.random_action(state, self.rng)

    # ------------------------------------------------------------------ a turn's first choice
    def _start(self, game: CornerRush, state: State) -> Action:
        me = state.mover
        pos = state.pawns[me]
        here = game.ace_distances(state, me)[pos]
        boxed = not game.step_tiles(state.replace(phase="move", steps=1), 1)
        best, best_score = None, 0.0
        for tile in bits(game.challengeable(state)):
            odds = game.challenge_odds(state, me, tile)     # what this seat knows, never the redrawn value
            if odds < self.odds and not (boxed and odds > 0):
                continue
            after = game.ace_distances(state, me, state.blocked & ~(1 << tile))[pos]
            gain = (here if here < FAR else 12) - after
            if gain <= 0 and not boxed:
                continue
            score = odds * (gain + (4 if boxed else 0))
            if score > best_score:
                best, best_score = Challenge(game.B.label(tile)), score
        if best is not None:
            return best
        return Roll() if state.phase == "start" else EndTurn()

    # ------------------------------------------------------------------ moving
    def _step(self, game: CornerRush, state: State) -> Action:
        me = state.mover
        B = game.B
        dist = game.ace_distances(state, me)
        walk, end, win = game.walk_masks(state, me)
        lit = game.step_tiles(state)
        left = state.steps - 1
        choices = []
        for tile in bits(lit):
            if win >> tile & 1:
                return Step(B.label(tile))
            layer, score = 1 << tile, None
            for _ in range(left):
                layer = B.touch4(layer) & (walk | win)
                if layer & win:
                    score = -1
                    break
                layer &= walk
            if score is None:
                ends = [dist[c] for c in bits(layer & end)]
                score = min(ends) if ends else FAR
            choices.append((score, dist[tile], self.rng.random(), tile))
        if game.may_stop(state) and (not choices or dist[state.pawns[me]] <= min(choices)[0]):
            return EndTurn()
        return Step(B.label(min(choices)[3]))

    def _push(self, game: CornerRush, state: State) -> Action:
        best, best_score = None, 0.0
        for pawn in range(game.n):
            targets = game.push_tiles(state, pawn)
            if not targets:
                continue
            dist = game.ace_distances(state, pawn)
            now = dist[state.pawns[pawn]]
            for tile in bits(targets):
                gain = min(dist[tile], 12) - min(now, 12)
                score = gain * 10 / (1 + min(now, 12))     # pushing back the leader counts most
                if score > best_score:
                    best, best_score = Push(pawn, game.B.label(tile)), score
        return best if best is not None else EndTurn()

    # ------------------------------------------------------------------ the blocker
    def _place(self, game: CornerRush, state: State) -> Action:
        """On a tile of a shortest route of the opponents nearest their Ace, off its own route."""
        B = game.B
        me = state.mover
        free = B.all & ~state.blocked
        scores: dict[int, float] = {}
        for seat in range(game.n):
            to_ace = game.ace_distances(state, seat)
            pos = state.pawns[seat]
            length = to_ace[pos]
            if length >= FAR:
                continue
            from_pawn = B.grid.distances(1 << pos, free)
            weight = (-3.0 if seat == me else 1.0) * 10 / (1 + length)
            for tile in range(B.tiles):
                if from_pawn[tile] + to_ace[tile] == length and 0 < from_pawn[tile]:
                    scores[tile] = scores.get(tile, 0.0) + weight * (B.tiles - from_pawn[tile])
        options = list(bits(game.place_tiles(state)))
        if not options:
            return EndTurn()
        tile = max(options, key=lambda t: (scores.get(t, 0.0), self.rng.random()))
        return Place(B.label(tile))


# --------------------------------------------------------------------------- wins by turn order

def turn_order_results(game: CornerRush, bots: Any = None, games: int = 200,
                       seed: int | None = 0) -> tuple[SimulationResult, list[dict[str, Any]]]:
    """Let bots play ``games`` games; the results by seat, and the rows of wins by turn order
    (1st = the roll-off winner, then in ``turn_order``), each with its 95% interval.

    >>> import playtest
    >>> by_seat, by_order = turn_order_results(playtest.load("corner_rush", max_turns=40), games=4, seed=1)
    >>> by_seat.games, [row["turn order"] for row in by_order]
    (4, ['1st', '2nd', '3rd', '4th'])
    """
    from ...bots import RandomBot
    from ...lab import SimulationResult, play_game     # on use: importing a game never imports the lab
    n = game.n
    if bots is None:
        bots = [RandomBot(None if seed is None else seed * 1000 + s) for s in range(n)]
    rng = random.Random(seed)
    by_seat = SimulationResult(game=game, games=games, wins={}, draws=0)
    by_order = SimulationResult(game=game, games=games, wins={}, draws=0)
    step = 1 if game.params.turn_order == "clockwise" else -1
    for _ in range(games):
        state, steps = play_game(game, bots, rng)
        outcome = game.outcome(state)
        assert outcome is not None       # play_game plays to the end
        by_seat.steps.append(steps)
        by_seat.reasons[outcome.reason] = by_seat.reasons.get(outcome.reason, 0) + 1
        if outcome.is_draw:
            by_seat.draws += 1
            by_order.draws += 1
        first = first_player(state)
        for seat in outcome.winners:
            by_seat.wins[seat] = by_seat.wins.get(seat, 0) + 1
            place = ((seat - first) * step) % n
            by_order.wins[place] = by_order.wins.get(place, 0) + 1
    rows = []
    for row in by_order.rows():
        place = row["seat"]
        rows.append({"turn order": ("1st", "2nd", "3rd", "4th")[place], "wins": row["wins"],
                     "win_rate": row["win_rate"], "low": row["low"], "high": row["high"]})
    return by_seat, rows

