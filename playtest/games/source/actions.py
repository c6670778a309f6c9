"""Source's actions: one per kind of click on a point, plus the shared :class:`EndTurn`.

>>> str(Capture(4, 4)), Place(2, 0).to_json()
('capture e5', {'kind': 'place', 'col': 2, 'row': 0})
"""

from __future__ import annotations

from ...geometry import LETTERS
from ...rules import Action, EndTurn

__all__ = ["Place", "Fortify", "RemoveFortification", "Capture", "POINT_ACTIONS", "END_TURN", "point_name"]


def point_name(col: int, row: int) -> str:
    """``e5`` for column 4, row 4: a column letter and a row number counted from the top.

    >>> point_name(0, 0), point_name(8, 8)
    ('a1', 'i9')
    """
    return f"{LETTERS[col]}{row + 1}"


class _OnPoint(Action):
    """An action on the point ``(col, row)``, written ``{kind in words} e5``."""
    col: int
    row: int

    def __str__(self) -> str:
        return f"{self.kind.replace('_', ' ')} {point_name(self.col, self.row)}"


class Place(_OnPoint):
    """Put a token of the active colour on the empty point ``(col, row)``."""


class Fortify(_OnPoint):
    """Put a supply token on top of the active colour's connected token at ``(col, row)``."""


class RemoveFortification(_OnPoint):
    """Take the fortification off an opponent's connected stack at ``(col, row)``."""


class Capture(_OnPoint):
    """Remove an opponent's token (or unconnected stack) at ``(col, row)`` from the game."""


#: the point actions, in the order legal_actions lists them
POINT_ACTIONS = (Place, Fortify, RemoveFortification, Capture)
END_TURN = EndTurn()
