"""Corner Rush's actions: small immutable values with a readable notation and a JSON form.

Tiles are written chess-style, as on the board and in the move log: ``a1`` is
the bottom-left tile (column a, row 1), ``a5`` the top-left one on the 5x5
board. A turn is a few atomic actions: the choice of a normal turn
(:class:`Roll`) or a :class:`Challenge`, the die (:class:`Die`, a chance step),
one :class:`Step` per tile walked, then the bag draw (:class:`Draw`, a chance
step) and the :class:`Place` of the drawn blocker. The shared
:class:`playtest.EndTurn` stops what is optional (a Null's pawn move, an early
stop when moves need not all be used, a placement that is not mandatory).

Each is declared (:class:`playtest.Action`): its fields with their types; the kind is its name.

>>> str(Step("b5")), Step("b5").to_json()
('→b5', {'kind': 'step', 'to': 'b5'})
>>> str(Die(6)), str(Draw(colour=1, value=4)), str(Push(pawn=2, to="d1"))
('die Ace', 'draw 4 of seat 1', 'push seat 2 →d1')
"""

from __future__ import annotations

from ...kernel import Action
from .params import face_name

__all__ = ["Roll", "Challenge", "Die", "Step", "Push", "Take", "Leave", "Draw", "Place"]


class Roll(Action):
    """The player to move takes a normal turn: the die is rolled next (D.1 §8.1)."""
    notation = "roll the die"


class Challenge(Action):
    """The player to move challenges the blocker on ``at`` instead of a normal turn: it is flipped (D.1 §9.1)."""
    notation = "challenge {at}"
    at: str


class Die(Action):
    """Chance: the die shows ``value`` (0 is Null, 6 is Ace): for the roll-off, a move or a challenge."""

    value: int

    def __str__(self) -> str:
        return f"die {face_name(self.value)}"


class Step(Action):
    """The pawn to move steps orthogonally onto ``to`` (one step of the roll)."""
    notation = "→{to}"
    to: str


class Push(Action):
    """After a Null: the pawn of seat ``pawn`` (another player's) steps onto ``to`` (D.1 §8.2)."""
    notation = "push seat {pawn} →{to}"
    pawn: int
    to: str


class Take(Action):
    """With ``challenge_removal = "optional"``: the challenger takes the beaten blocker."""
    notation = "take the blocker"


class Leave(Action):
    """With ``challenge_removal = "optional"``: the challenger leaves the beaten blocker (face up)."""
    notation = "leave the blocker"


class Draw(Action):
    """The blocker drawn from the bag of the player to move: ``value``, with the back of seat ``colour``.

    A chance step (``blocker_draw = "random"``), or the owner's choice (``"choose"``).
    """
    colour: int
    value: int

    def __str__(self) -> str:
        return f"draw {face_name(self.value)} of seat {self.colour}"


class Place(Action):
    """The player to move places the blocker drawn face down on ``at`` (D.1 §10)."""
    notation = "place {at}"
    at: str
