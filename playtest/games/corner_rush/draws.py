"""Corner Rush's draws: chance's die and bag, and a random player's action, drawn fast and exactly as
the kernel's defaults draw them (the same outcome for the same generator).

A part of :class:`.rules.CornerRush` (a mixin: it reads the game's die, its tables of actions and
its legal actions), kept apart so the rules module stays one concern: what is legal and what it does.
Search bots and the lab draw millions of these.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections import Counter
from functools import lru_cache
from typing import TYPE_CHECKING

from ...geometry import bits
from ...kernel import Action, EndTurn, draw_outcome
from .actions import Die, Draw, Roll
from .position import State

__all__ = ["CornerRushDraws", "CHANCE_PHASES", "near"]

CHANCE_PHASES = ("rolloff", "roll", "challenge")
_ROLL, _END = Roll(), EndTurn()
#: the tiles of a small mask (a pawn's neighbours it may step onto, the blockers it may challenge), kept:
#: the same few hundred come back all game (the lists are shared: never changed)
near = lru_cache(maxsize=1024)(bits)


class CornerRushDraws:
    """Chance's outcomes and a random player's action (mixed into the game class)."""

    n: int
    _die: list[tuple[Die, float]]
    _die_faces: list[Die]
    _die_totals: list[float]
    _draws: dict[tuple[int, int], Draw]
    _all_moves: bool
    _must_place: bool
    _step_of: tuple[Action, ...]
    _challenge_of: tuple[Action, ...]
    _place_of: tuple[Action, ...]
    _bag_outcomes: dict[tuple[tuple[int, int], ...], tuple[tuple[Action, float], ...]]

    if TYPE_CHECKING:       # the game's (rules.py and the kernel's Game)
        def legal_actions(self, state: State, seat: int | None = None) -> list[Action]: ...
        def step_tiles(self, state: State, k: int | None = None) -> int: ...
        def challengeable(self, state: State) -> int: ...
        def place_tiles(self, state: State) -> int: ...

    def chance_outcomes(self, state: State) -> list[tuple[Action, float]]:
        """The die (each face ``1/len(die_faces)``, equal values grouped), or the bag draw (each blocker
        in the bag equally likely, equal blockers grouped).

        >>> import playtest
        >>> game = playtest.load("corner_rush", blocker_values=[2, 2, 5], blockers_per_player=3)
        >>> state = game.state_from_json({"phase": "draw", "to_move": 0, "bags": [[[0, 2], [0, 2], [0, 5]],
        ...                               [[1, 2], [1, 2], [1, 5]], [[2, 2], [2, 2], [2, 5]], [[3, 2], [3, 2], [3, 5]]]})
        >>> [(str(a), round(p, 3)) for a, p in game.chance_outcomes(state)]
        [('draw 2 of seat 0', 0.667), ('draw 5 of seat 0', 0.333)]
        """
        phase = state.phase
        if phase in CHANCE_PHASES:
            return list(self._die)
        if phase == "draw":
            return list(self._bag_outcomes_of(state.bags[state.mover]))
        return []

    def _bag_outcomes_of(self, bag: tuple[tuple[int, int], ...]) -> tuple[tuple[Action, float], ...]:
        """A bag's draws with their probabilities (equal blockers grouped), kept: a bag is a sorted tuple,
        and the same bags come back game after game."""
        found = self._bag_outcomes.get(bag)
        if found is None:
            if len(self._bag_outcomes) > 4096:
                self._bag_outcomes.clear()
            counts = Counter(bag)
            found = self._bag_outcomes[bag] = tuple((self._draw(token), k / len(bag))
                                                    for token, k in sorted(counts.items()))
        return found

    def random_action(self, state: State, rng: random.Random) -> Action:
        """A uniformly random legal action: what the kernel's default draws (the same draw from the same
        listing, so the same action for the same generator), without its checks on the way.

        >>> import random, playtest
        >>> game = playtest.load("corner_rush")
        >>> state = game.state_from_json({"phase": "start", "to_move": 0})
        >>> game.random_action(state, random.Random(1)) == random.Random(1).choice(game.legal_actions(state))
        True
        """
        phase = state.phase
        if type(rng) is random.Random:
            # A plain generator's choice draws an index from the listing's length alone: the moves, a
            # turn's choices and the placements are drawn from their tables, in the listing's order,
            # without making the listing (candidates: a step per tile of step_tiles, the roll then the
            # challenges, a placement per tile of place_tiles then the end of the turn when optional).
            if phase == "move" and self._all_moves:
                return self._step_of[rng.choice(near(self.step_tiles(state)))]
            if phase == "start":
                tiles = near(self.challengeable(state))
                k = rng.choice(range(len(tiles) + 1))
                return self._challenge_of[tiles[k - 1]] if k else _ROLL
            if phase == "place":
                tiles = bits(self.place_tiles(state))
                if self._must_place:
                    return self._place_of[rng.choice(tiles)]
                k = rng.choice(range(len(tiles) + 1))
                return self._place_of[tiles[k]] if k < len(tiles) else _END
        return rng.choice(self.legal_actions(state))       # (the kernel's default)

    def chance_outcome(self, state: State, rng: random.Random) -> Action:
        """The die, drawn as :func:`playtest.draw_outcome` draws it from :meth:`chance_outcomes` (one
        ``rng.random()`` against the same running sums), without listing the faces again; a bag draw
        from its outcomes.

        >>> import random, playtest
        >>> from playtest.rules import draw_outcome
        >>> game = playtest.load("corner_rush")
        >>> state = game.initial_state()
        >>> game.chance_outcome(state, random.Random(2)) == draw_outcome(game.chance_outcomes(state), random.Random(2))
        True
        """
        phase = state.phase
        if phase in CHANCE_PHASES:      # the first face whose running total passes the draw
            return self._die_faces[bisect_right(self._die_totals, rng.random())]
        bag = state.bags[state.mover] if phase == "draw" and 0 <= state.mover < self.n else ()
        return draw_outcome(self._bag_outcomes_of(bag) if bag else self.chance_outcomes(state), rng)

    def _draw(self, token: tuple[int, int]) -> Draw:
        made = self._draws.get(token)
        if made is None:
            made = self._draws[token] = Draw(*token)
        return made
