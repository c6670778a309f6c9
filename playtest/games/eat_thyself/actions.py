"""Eat Thyself's actions: a line or two each (the turn's atomic steps; the package docstring)."""

from __future__ import annotations

from typing import ClassVar

from ...kernel import Action
from .params import piece_symbol

# --------------------------------------------------------------------------- actions: a line or two each

CW, CCW = 1, -1


class Move(Action):
    """Move the king on ``slot`` by the face-up value of card ``card`` (0 or 1) in ``direction``."""
    slot: int
    card: int
    direction: int

    def __str__(self) -> str:
        return f"K{self.slot}{'+' if self.direction == CW else '-'}c{self.card}"


class Pass(Action):
    """No king can move (every count comes back to its own slot): the turn passes."""


class RemovePawn(Action):
    """Bonus after eating your own king: remove your pawn on ``slot``."""
    kind: ClassVar[str] = "remove"
    notation = "x{slot}"
    slot: int


class KeepPawns(Action):
    """Decline the bonus removal."""
    kind: ClassVar[str] = "keep"


class Take(Action):
    """After eating an opponent's king: take their piece on ``slot`` in hand."""
    notation = "take{slot}"
    slot: int


class PlaceInGap(Action):
    """Put ``piece`` from your hand into gap ``gap`` (before slot ``gap``)."""
    kind: ClassVar[str] = "place_gap"
    piece: int
    gap: int

    def __str__(self) -> str:
        return f"{piece_symbol(self.piece)}>{self.gap}"


class PlaceOnTile(Action):
    """Put ``piece`` from your hand on the unoccupied tile at ``slot``."""
    kind: ClassVar[str] = "place_tile"
    piece: int
    slot: int

    def __str__(self) -> str:
        return f"{piece_symbol(self.piece)}>□{self.slot}"


class Discard(Action):
    """Do not put the eaten pawn back (only with ``opponent_pawn_return = "may"``)."""
    piece: int

    def __str__(self) -> str:
        return f"drop{piece_symbol(self.piece)}"


#: the phase each action belongs to
_PHASE_OF: dict[type, str] = {Move: "move", Pass: "move", RemovePawn: "bonus", KeepPawns: "bonus",
                              Take: "take", PlaceInGap: "place", PlaceOnTile: "place", Discard: "place"}
_DOING = {"move": "move a king", "bonus": "choose whether to remove one of your pawns",
          "take": "take the eaten king's extra pieces in hand", "place": "put the pieces in hand back on the ring"}
