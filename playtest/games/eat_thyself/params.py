"""Eat Thyself's pieces, symbols and parameters (rules E.1 §1-§6, E1-E12 of RULES.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...kernel import Params, param

KING, PAWN = 0, 1
KING_SYMBOLS = "▲●◆"
PAWN_SYMBOLS = "△○◇"
TILE = "□"
ASCII = {"A": "▲", "B": "●", "C": "◆", "a": "△", "b": "○", "c": "◇", "_": "□"}
SEAT_COLORS = ("#d1495b", "#2e86ab", "#3b9c4b")
SEAT_SHAPES = ("triangle", "circle", "diamond")
SEAT_NAMES = ("Triangle", "Circle", "Diamond")

SEED_2P = "□ ▲ ○ △ □ ● △ ○ □ ▲ ○ △ □ ● △ ○"
SEED_3P = "□ ▲ ○ ◇ □ ● ◇ △ □ ◆ △ ○ □ ▲ ○ ◇ □ ● ◇ △ □ ◆ △ ○"
CARD_TYPES = ("1&2", "1&3", "2&4")

Slot = tuple[bool, "int | None"]     # a slot of the ring: (is a □ tile, the piece on it or None)


def piece_symbol(piece: int) -> str:
    """``▲`` for seat 0's king, ``○`` for seat 1's pawn, ..."""
    player, kind = divmod(piece, 2)
    return (KING_SYMBOLS if kind == KING else PAWN_SYMBOLS)[player]


def _piece_from_symbol(symbol: str) -> int:
    if symbol in KING_SYMBOLS:
        return KING_SYMBOLS.index(symbol) * 2 + KING
    if symbol in PAWN_SYMBOLS:
        return PAWN_SYMBOLS.index(symbol) * 2 + PAWN
    raise ValueError(f"unknown piece {symbol!r}: pieces are {KING_SYMBOLS} (kings) and {PAWN_SYMBOLS} (pawns)")


def _card_faces(card: str) -> tuple[int, int]:
    try:
        low, high = (int(x) for x in card.split("&"))
    except ValueError:
        raise ValueError(f"a card is written like 1&2, not {card!r}") from None
    if low < 1 or high < 1:
        raise ValueError(f"card {card!r}: faces are positive numbers")
    return low, high


# --------------------------------------------------------------------------- parameters

@dataclass(frozen=True)
class EatThyselfParams(Params):
    """Rule parameters of Eat Thyself (RULES.md table E.3)."""

    num_players: int = param(2, "number of players (2 or 3)", source="seed", live=False,
                             min=2, max=3, rule="E.1 §2")
    setup_sequence_2p: str = param(SEED_2P, "starting ring for 2 players, slot 0 first", source="seed",
                                   live=False, rule="E.1 §4")
    setup_sequence_3p: str = param(SEED_3P, "starting ring for 3 players, slot 0 first", source="seed",
                                   live=False, rule="E.1 §4")
    kings_per_player: int = param(2, "kings each player starts with (must match the ring)",
                                  source="seed", live=False, min=1, max=6, rule="E.1 §2")
    pawns_per_player: int = param(4, "pawns each player starts with (must match the ring)",
                                  source="seed", live=False, min=0, max=12, rule="E.1 §2")
    card_types: tuple = param(CARD_TYPES, "the double-sided cards in the box", source="seed",
                              live=False, rule="E.1 §2")
    card_pair: tuple = param(("1&2", "2&4"), "the two card types every player uses", live=False,
                             rule="E10")
    initial_faces: tuple = param((1, 2), "face-up value of each card of card_pair at the start",
                                 live=False, rule="E10")
    allow_both_directions: bool = param(True, "a king may move clockwise or counter-clockwise",
                                        source="seed", rule="E3")
    count_empty_tiles: bool = param(True, "unoccupied □ tiles count as spaces when moving",
                                    rule="E2")
    own_pawn_effect: str = param("remove", "landing on your own pawn removes it from the game",
                                 source="seed", choices=("remove",), rule="E.1 §11")
    opponent_pawn_return: str = param("must", "an eaten opponent pawn must (or may) be put back",
                                      choices=("must", "may"), rule="E6")
    own_king_bonus_removals: int = param(1, "own pawns you may also remove after eating your own king",
                                         source="seed", min=0, max=4, rule="E7")
    opponent_king_extra_pieces: int = param(2, "extra pieces of the opponent you put back with their king",
                                            source="seed", min=0, max=6, rule="E8")
    win_condition: str = param("one_piece_left", "win with one piece left, or with one king left "
                               "(the seed's two contradictory goals); one_king_left needs kings_per_player "
                               "of 2 or more", choices=("one_piece_left", "one_king_left"), rule="E1")
    simultaneous_win: str = param("mover", "who wins when one move leaves several players at one piece",
                                  choices=("mover", "shared"), rule="E.1 §12")
    first_player: int = param(0, "seat that moves first", live=False, min=0, max=2, rule="E11")
    turn_order: str = param("setup_order", "seats move in setup order (▲ ● ◆) or the reverse",
                            live=False, choices=("setup_order", "reverse"), rule="E11")
    max_turns: int = param(300, "turns before the game is a draw", min=1, max=100000, rule="E14")

    def check(self) -> None:
        if self.first_player >= self.num_players:
            raise ValueError(f"eat_thyself parameter first_player={self.first_player} is not allowed: "
                             f"it must be a seat from 0 to {self.num_players - 1}")
        if self.win_condition == "one_king_left" and self.kings_per_player < 2:
            # the goal would be met before anyone moves, so it could never decide the game
            raise ValueError(f"eat_thyself parameters win_condition=\"one_king_left\" and kings_per_player="
                             f"{self.kings_per_player} are not allowed together: with one king each, "
                             "every player already has one king left (rule E1); use kings_per_player of "
                             "2 or more, or win_condition=\"one_piece_left\"")
        for card in self.card_types:
            _card_faces(card)
        if len(self.card_pair) != 2 or len(set(self.card_pair)) != 2 or \
                any(c not in self.card_types for c in self.card_pair):
            raise ValueError(f"eat_thyself parameter card_pair={list(self.card_pair)} is not allowed: "
                             f"it must be two different cards of card_types {list(self.card_types)} (rule E10)")
        if len(self.initial_faces) != 2 or any(
                face not in _card_faces(card) for face, card in zip(self.initial_faces, self.card_pair)):
            raise ValueError(f"eat_thyself parameter initial_faces={list(self.initial_faces)} is not allowed: "
                             f"each must be a face of its card in card_pair {list(self.card_pair)} (rule E10)")
        for players, name in ((2, "setup_sequence_2p"), (3, "setup_sequence_3p")):
            ring = _parse_ring(getattr(self, name), name)
            for seat in range(3):
                kings = sum(1 for _, p in ring if p == seat * 2 + KING)
                pawns = sum(1 for _, p in ring if p == seat * 2 + PAWN)
                expected = (self.kings_per_player, self.pawns_per_player) if seat < players else (0, 0)
                if (kings, pawns) != expected:
                    raise ValueError(
                        f"eat_thyself parameter {name} is not allowed: it gives {piece_symbol(seat * 2)} "
                        f"{kings} kings and {pawns} pawns, but kings_per_player={self.kings_per_player} "
                        f"and pawns_per_player={self.pawns_per_player} (rule E.1 §4)")


def _parse_ring(text: Any, what: str) -> tuple[Slot, ...]:
    """Slots from ``"□▲○"`` or ``["□", "▲", "□○"]`` (ASCII letters allowed)."""
    tokens: list[str] = []
    if isinstance(text, str):
        if any(c.isspace() or c == "," for c in text):   # "□ ▲ □● ...": one token per slot
            tokens = [t for t in text.replace(",", " ").split()]
        else:                                           # "□▲○": one character per slot
            tokens = list(text)
        tokens = ["".join(ASCII.get(c, c) for c in t) for t in tokens]
    elif isinstance(text, (list, tuple)):
        for entry in text:
            if not isinstance(entry, str):
                raise ValueError(f"{what}: every slot is text such as '□', '▲' or '□●', not {entry!r}")
            tokens.append("".join(ASCII.get(c, c) for c in entry.strip()))
    else:
        raise ValueError(f"{what} must be text or a list of slots")
    slots: list[Slot] = []
    for token in tokens:
        try:
            if token == TILE:
                slots.append((True, None))
            elif token.startswith(TILE) and len(token) == 2:
                slots.append((True, _piece_from_symbol(token[1])))
            elif len(token) == 1:
                slots.append((False, _piece_from_symbol(token)))
            else:
                raise ValueError(f"a slot is one piece, '□', or '□' with one piece on it, not {token!r}")
        except ValueError as err:
            raise ValueError(f"{what}: {err}") from None
    if len(slots) < 2:
        raise ValueError(f"{what}: the ring needs at least 2 slots")
    return tuple(slots)
