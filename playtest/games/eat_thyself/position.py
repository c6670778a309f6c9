"""A position of Eat Thyself: the declared :class:`State` (its JSON form is the package docstring's) and
the ring's small helpers."""

from __future__ import annotations

import functools
from typing import Any, Sequence

from ... import kernel
from ...kernel import field
from ...kernel.values import shown
from .params import TILE, Slot, _parse_ring, _piece_from_symbol, piece_symbol

# --------------------------------------------------------------------------- state: declared once

PHASES = ("move", "bonus", "take", "place", "over")


def _read_hand(hand: Any, where: str, _: Any) -> list[int]:
    if not isinstance(hand, list):
        raise ValueError(f"hand must be a list of pieces such as \"●\", not {shown(hand)}")
    if any(type(x) is not str for x in hand):
        raise ValueError("hand: pieces are written as symbols such as \"●\" or \"○\"")
    return sorted(_piece_from_symbol(x) for x in hand)


class State(kernel.State):
    """A position of Eat Thyself (an immutable value; its JSON form is in the module docstring).

    The fields are those of the JSON form, by the same names; ``ring`` and ``hand`` hold piece
    codes (``player * 2 + (king 0 | pawn 1)``) where the JSON writes symbols. ``winners`` and
    ``reason`` say how a finished game (phase ``over``) ended; ``last`` marks the board's
    last move and takes no part in equality.
    """
    ring: tuple[tuple[bool, int | None], ...] = field(min=0, max=5, write=lambda ring, _: [
        (TILE if tile else "") + (piece_symbol(p) if p is not None else "") for tile, p in ring],
        read=lambda text, where, _: [list(slot) for slot in _parse_ring(text, "ring")])
    cards: tuple[tuple[int, int], ...] = field(default=((1, 2), (1, 2)), min=1)
    to_move: int = field(default=0, min=0, max=2)
    phase: str = field(default="move", choices=PHASES)
    #: sorted pieces to put back (JSON: their symbols)
    hand: tuple[int, ...] = field(default=(), min=0, max=5, read=_read_hand,
                                  write=lambda hand, _: [piece_symbol(p) for p in hand])
    take_from: int | None = field(default=None, min=0, max=2)
    takes_left: int = field(default=0, min=0, max=100)
    bonus_left: int = field(default=0, min=0, max=100)
    turn: int = field(default=0, min=0, max=10 ** 6)                 # completed turns, for max_turns
    winners: tuple[int, ...] = field(default=(), min=0, max=2)
    reason: str = ""
    #: the slots the last turn's pieces landed on, in today's numbering (the board's last-move mark)
    last: tuple[int, ...] = field(default=(), min=0, compare=False, omit_default=True)

    @property
    def mover(self) -> int:
        """The seat whose turn it is (``to_move``)."""
        return self.to_move

    @property
    def faces(self) -> tuple[tuple[int, int], ...]:
        """Per player: the face-up value of card 0 and of card 1 (``cards``)."""
        return self.cards

    def to_json(self) -> dict[str, Any]:
        """The hand-writable JSON form (see the module docstring): how it ended, once it has."""
        data = super().to_json()
        if self.phase != "over":
            del data["winners"], data["reason"]
        return data

    def count(self, player: int) -> tuple[int, int]:
        """(kings, pawns) of ``player`` on the ring and in hand."""
        pieces = [p for _, p in self.ring] + list(self.hand)
        return pieces.count(2 * player), pieces.count(2 * player + 1)


_FREE_TILE: Slot = (True, None)


def _piece_counts(ring: tuple[Slot, ...], hand: tuple[int, ...]) -> list[int]:
    """Pieces on the ring and in hand, by code (``player * 2 + (king 0 | pawn 1)``; code 6: none)."""
    counts = [0] * 7
    for _, piece in ring:
        if piece is not None:
            counts[piece] += 1
    for piece in hand:
        counts[piece] += 1
    return counts


def _has(ring: Sequence[Slot], piece: int) -> bool:
    """Whether ``piece`` (a piece code) stands on the ring, bare or on a tile."""
    return (False, piece) in ring or (True, piece) in ring


def _owns(ring: Sequence[Slot], player: int) -> bool:
    """Whether ``player`` has a piece on the ring."""
    for _, piece in ring:
        if piece is not None and piece >> 1 == player:
            return True
    return False


def _lifted(ring: tuple[Slot, ...], last: tuple[int, ...], slot: int) -> tuple[tuple[Slot, ...], tuple[int, ...]]:
    """``ring`` without the piece on ``slot`` (a bare slot disappears, a tile stays empty), and the
    last-move mark ``last`` (slot indices) as the slots are numbered then."""
    if ring[slot][0]:
        return ring[:slot] + (_FREE_TILE,) + ring[slot + 1:], last
    return ring[:slot] + ring[slot + 1:], tuple([i - 1 if i > slot else i for i in last if i != slot])


@functools.lru_cache(maxsize=16)
def _setup_ring(text: str) -> tuple[Slot, ...]:
    """The set-up ring of ``text`` (an immutable tuple, so one parse serves every game)."""
    return _parse_ring(text, "setup sequence")


_new, _set = object.__new__, object.__setattr__


def _position(ring: tuple[Slot, ...], cards: tuple[tuple[int, int], ...], to_move: int, phase: str,
              hand: tuple[int, ...], take_from: int | None, takes_left: int, bonus_left: int, turn: int,
              winners: tuple[int, ...], reason: str, last: tuple[int, ...]) -> State:
    """``State(ring=ring, cards=cards, ...)``, every field given, made as ``State.replace`` makes a
    state (the fields' dict at once, not the dataclass's field-by-field ``__init__``, nor a copy
    of another state's dict updated): the position every turn of every game ends with.

    >>> ring = _setup_ring("□ ▲ ● □")
    >>> _position(ring, ((1, 2), (1, 2)), 1, "move", (), None, 0, 0, 3, (), "", (2,)) == State(
    ...     ring=ring, cards=((1, 2), (1, 2)), to_move=1, turn=3, last=(2,))
    True
    """
    new = _new(State)
    _set(new, "__dict__", {"ring": ring, "cards": cards, "to_move": to_move, "phase": phase, "hand": hand,
                           "take_from": take_from, "takes_left": takes_left, "bonus_left": bonus_left,
                           "turn": turn, "winners": winners, "reason": reason, "last": last})
    return new

def _free_tiles(ring: tuple[Slot, ...]) -> list[int]:
    """The unoccupied □ tiles, by slot."""
    return [i for i, (tile, p) in enumerate(ring) if tile and p is None]
