"""Seats, outcomes with payoffs, and chance: the small values every game shares.

>>> Outcome((0,), "three in a row").returns(2)
(1.0, -1.0)
>>> Outcome((), "a full board").returns(2)
(0.0, 0.0)
>>> Outcome((1,), "South has more chips", payoffs=(-2.0, 2.0)).returns(2)
(-2.0, 2.0)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Sequence

__all__ = ["CHANCE", "SIMULTANEOUS", "DRAW", "Outcome", "Seat", "UncountedChance", "draw_outcome",
           "SEAT_COLORS", "SEAT_SHAPES"]

#: ``to_move`` value when the next step is chance (dice, a shuffle, a random setup).
CHANCE = -1
#: ``to_move`` value when several seats submit at once (see :meth:`Game.pending_seats`).
SIMULTANEOUS = -2
#: What :attr:`playtest.Session.winner` is when the game ended in a draw.
DRAW = "draw"

#: colours and shapes handed to seats a game names without choosing them
SEAT_COLORS = ("#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98", "#117a65", "#a04000", "#2e4053")
SEAT_SHAPES = ("circle", "square", "triangle", "diamond", "circle", "square", "triangle", "diamond")


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winners`` holds the winning seats (several for a team), empty for a draw; ``reason``
    says why in words; ``scores`` is per seat when the game keeps a score (shown, not a payoff);
    ``payoffs`` is what each seat gains when the game pays out more than win or lose (chips,
    points): bots and the lab read :attr:`returns`.
    """

    winners: tuple[int, ...]
    reason: str
    scores: tuple[float, ...] | None = None
    payoffs: tuple[float, ...] | None = None

    def __post_init__(self) -> None:
        """A seat given alone (``Outcome(1, ...)``) is the tuple of that seat, a list a tuple; anything
        else is refused here, not read later as a draw."""
        winners: Any = self.winners
        if type(winners) is tuple:
            return
        if isinstance(winners, int) and not isinstance(winners, bool):
            object.__setattr__(self, "winners", (winners,))
        elif isinstance(winners, list):
            object.__setattr__(self, "winners", tuple(winners))
        else:
            raise TypeError(f"Outcome's winners are a tuple of seats ((0,) for seat 0 alone, (0, 2) for a team, () "
                            f"for a draw), not {repr(winners)[:60]}")

    @property
    def is_draw(self) -> bool:
        """True when nobody won."""
        return not self.winners

    @property
    def winner(self) -> int | tuple[int, ...] | str:
        """One seat, a tuple of seats (a team), or :data:`DRAW`."""
        if not self.winners:
            return DRAW
        return self.winners[0] if len(self.winners) == 1 else self.winners

    def returns(self, seats: int) -> tuple[float, ...]:
        """What each of ``seats`` seats gains: the payoffs when the game gives them, otherwise +1
        shared among the winners and -1 shared among the others (0 each for a draw): they sum to 0."""
        if self.payoffs is not None:
            return tuple(float(p) for p in self.payoffs)
        n = max(seats, max(self.winners, default=-1) + 1)
        if not self.winners or len(self.winners) == n:
            return (0.0,) * n
        win, lose = 1.0 / len(self.winners), -1.0 / (n - len(self.winners))
        return tuple(win if s in self.winners else lose for s in range(n))

    def to_json(self) -> dict[str, Any]:
        """The outcome as JSON-ready data (``payoffs`` only when the game gives them)."""
        data: dict[str, Any] = {"winners": list(self.winners), "reason": self.reason,
                                "scores": list(self.scores) if self.scores is not None else None}
        if self.payoffs is not None:
            data["payoffs"] = list(self.payoffs)
        return data


@dataclass(frozen=True)
class Seat:
    """A place at the table: its name, colour and the shape of its pieces."""

    name: str
    color: str
    shape: str


class UncountedChance:
    """The outcomes of a chance step too many to list: sampled and checked, not enumerated.

    ``sample(rng)`` draws one outcome; ``check(outcome)`` raises
    :class:`IllegalAction` for an outcome that cannot happen. ``describe`` says
    in words how outcomes are drawn (for the table and the docs).

    >>> import random
    >>> dice = UncountedChance(lambda rng: rng.randint(1, 6), lambda o: None, "a die")
    >>> 1 <= dice.sample(random.Random(1)) <= 6
    True
    """

    __slots__ = ("sample", "check", "describe")

    def __init__(self, sample: Callable[[random.Random], Any], check: Callable[[Any], None], describe: str):
        self.sample = sample
        self.check = check
        self.describe = describe

    def __repr__(self) -> str:
        return f"UncountedChance({self.describe!r})"


def draw_outcome(outcomes: "Sequence[tuple[Any, float]] | UncountedChance", rng: random.Random) -> Any:
    """One outcome drawn from :meth:`Game.chance_outcomes` with ``rng``.

    >>> import random
    >>> draw_outcome([("heads", 0.5), ("tails", 0.5)], random.Random(3))
    'heads'
    """
    if isinstance(outcomes, UncountedChance):
        return outcomes.sample(rng)
    if not outcomes:
        raise ValueError("a chance step with no outcome")
    x = rng.random()
    total = 0.0
    for outcome, probability in outcomes:
        total += probability
        if x < total:
            return outcome
    return outcomes[-1][0]
