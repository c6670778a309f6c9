"""Back to the Wall's actions: the parts of a seat's secret order, and submitting it.

Every action names its seat (the round's orders are simultaneous). Boards are
numbered 0, 1, 2 (Once, Twice, Thrice by default); cells are ``(col, row)``
with row 0 the top row; phases are numbered from 1; a piece is numbered by
its seat's pieces on that board, 0 first (the order they were placed in).
The move log writes them with the board's and seat's names
(``game.notation``); ``str`` is the short form.

>>> AddWall(1, 1, (3, 4)).to_json()
{'kind': 'wall', 'seat': 1, 'board': 1, 'at': [3, 4]}
>>> str(AddWall(1, 1, (3, 4))), str(Direct(0, 2, 1, 3, "left")), str(Garnet(2, 0, True))
('seat 1 wall 1:d5', 'seat 0 piece 2:1 phase 3 left', 'seat 2 garnet 0 on')
"""

from __future__ import annotations

from typing import Any, ClassVar

from ...geometry import LETTERS as COLUMN_LETTERS
from ...kernel import Action

__all__ = ["AddWall", "RemoveWall", "Direct", "Garnet", "Clear", "Submit", "Withdraw", "STAY", "ORDER_PARTS"]

#: the ``direction`` of :class:`Direct` that takes a direction back: the piece stays in that phase
STAY = "stay"


def _cell(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def cell_text(cell: Any) -> str:
    """``(3, 4)`` as ``d5``; anything malformed as it is."""
    if isinstance(cell, tuple) and len(cell) == 2 and all(type(v) is int for v in cell) \
            and 0 <= cell[0] < 26 and cell[1] >= 0:
        return f"{COLUMN_LETTERS[cell[0]]}{cell[1] + 1}"
    return repr(cell)


class _WallPart(Action):
    """A part of ``seat``'s order about cell ``at`` (``(col, row)``) of board ``board``."""
    seat: int
    board: int
    at: tuple[int, int]

    def __post_init__(self) -> None:
        object.__setattr__(self, "at", _cell(self.at))

    def __str__(self) -> str:
        return f"seat {self.seat} {self.kind} {self.board}:{cell_text(self.at)}"


class AddWall(_WallPart):
    """A part of ``seat``'s order: a wall on cell ``at`` of board ``board``."""
    kind: ClassVar[str] = "wall"


class RemoveWall(_WallPart):
    """A part of ``seat``'s order: take the wall on cell ``at`` of board ``board`` back out of it."""
    kind: ClassVar[str] = "unwall"


class Direct(Action):
    """A part of ``seat``'s order: piece ``piece`` on board ``board`` goes ``direction`` in ``phase``.

    ``direction`` is ``up``, ``right``, ``down`` or ``left``; :data:`STAY` takes a
    direction given earlier back (the piece then stays in that phase).
    """
    seat: int
    board: int
    piece: int
    phase: int
    direction: str

    def __str__(self) -> str:
        return f"seat {self.seat} piece {self.board}:{self.piece} phase {self.phase} {self.direction}"


class Garnet(Action):
    """A part of ``seat``'s order: use (``on``) or not the secret garnet bonus on board ``board``."""
    seat: int
    board: int
    on: bool

    def __str__(self) -> str:
        return f"seat {self.seat} garnet {self.board} {'on' if self.on else 'off'}"


class _SeatStep(Action):
    """A step of ``seat``'s order as a whole (``str``: ``seat 2 submit``)."""
    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat} {self.kind}"


class Clear(_SeatStep):
    """``seat`` clears every part of its order (before submitting it)."""


class Submit(_SeatStep):
    """``seat`` submits its order; the last submission resolves the round."""


class Withdraw(_SeatStep):
    """``seat`` takes its submitted order back while another seat still has to submit."""


#: the actions that build an order part by part
ORDER_PARTS = (AddWall, RemoveWall, Direct, Garnet)
