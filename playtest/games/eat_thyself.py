"""Eat Thyself, by Martin Grider (Global Game Jam 2012), for 2 or 3 players.

Rules: ``shared/rules/RULES.md`` section E, from the seed text. Kings move
around a ring of slots by the value of a double-sided card and eat what they
land on; a player who has one piece left wins.

The ring
--------
The board is a cyclic sequence of *slots*. A slot is a bare piece, or an
"empty space" tile □ with at most one piece on top. When a king leaves a bare
slot, the slot disappears; pieces put back "between any two pieces" become new
bare slots in a *gap*. Gap ``i`` is the place before slot ``i``.

A turn is a sequence of atomic actions, so board, bots and undo share them:

* :class:`Move` — a king moves by a card's face-up value, clockwise (+1) or
  counter-clockwise (-1), and the card turns over. What it lands on decides
  what follows:
* :class:`Pass` — only when no king can move at all (a ring so short that
  every count comes back to the king's own slot; assumed, the seed never
  meets it);
* :class:`RemovePawn` / :class:`KeepPawns` — after eating your own king, the
  optional removal of one of your pawns (``own_king_bonus_removals``);
* :class:`Take` — after eating an opponent's king, pick that opponent's extra
  pieces to put back (``opponent_king_extra_pieces``);
* :class:`PlaceInGap` / :class:`PlaceOnTile` — put a piece from your hand back
  on the ring; :class:`Discard` drops an eaten pawn instead (only with
  ``opponent_pawn_return = "may"``).

Position JSON
-------------
``state.to_json()`` gives, and ``game.state_from_json`` reads::

    {"ring": ["□", "▲", "○", "△", "□●", ...],  # slot 0 first, clockwise
     "cards": [[1, 2], [1, 2]],   # per player: the face-up value of each card in card_pair
     "to_move": 0,                # seat index
     "phase": "move",             # move | bonus | take | place | over
     "hand": [],                  # pieces to put back, e.g. ["●", "○"]
     "take_from": null, "takes_left": 0, "bonus_left": 0,
     "turn": 0,                   # completed turns, for max_turns
     "last": [5]}                 # slots the last turn's pieces landed on (outlined on the
                                  # board; no part of the position's equality)

Pieces are ``▲ ● ◆`` (kings of seats 0, 1, 2) and ``△ ○ ◇`` (their pawns);
``□`` is an empty tile and ``□●`` a tile with a piece on it. ASCII works too:
``A B C`` kings, ``a b c`` pawns, ``_`` a tile (``_B`` = ``□●``). The ring may
also be one string: slots separated by spaces (``"□ ▲ □● ○"``), or one
character per slot when there are no spaces (``"_AbaC"``).

>>> import playtest
>>> game = playtest.load("eat_thyself")
>>> state = game.initial_state()
>>> " ".join(state.to_json()["ring"])
'□ ▲ ○ △ □ ● △ ○ □ ▲ ○ △ □ ● △ ○'
>>> [game.notation(state, a) for a in game.legal_actions(state)][:3]
['▲1↻1→2 eats ○', '▲1↺1→0', '▲1↻2→3 eats △']
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

from ..rules import Action, Game, IllegalAction, Outcome, Params, Seat, param, register
from ..position import PositionReader
from ..scene import Scene, gap_id, slot_id

__all__ = ["EatThyself", "EatThyselfParams", "State", "Move", "Pass", "RemovePawn", "KeepPawns",
           "Take", "PlaceInGap", "PlaceOnTile", "Discard"]

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


def _piece_counts(state: State) -> list[int]:
    """Pieces on the ring and in hand, by code: ``player * 2 + (king 0 | pawn 1)``."""
    counts = [0] * 6
    for _, piece in state.ring:
        if piece is not None:
            counts[piece] += 1
    for piece in state.hand:
        counts[piece] += 1
    return counts


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


def _parse_ring(text: str | list, what: str) -> tuple[tuple[bool, int | None], ...]:
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
    slots = []
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


# --------------------------------------------------------------------------- actions

CW, CCW = 1, -1


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Move the king on ``slot`` by the face-up value of card ``card`` (0 or 1) in ``direction``."""

    kind: ClassVar[str] = "move"
    slot: int
    card: int
    direction: int
    # the face-up value, filled in by legal_actions for the notation; not part of the action's identity
    value: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"K{self.slot}{'+' if self.direction == CW else '-'}c{self.card}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "slot": self.slot, "card": self.card, "direction": self.direction}


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """No king can move (every count comes back to its own slot): the turn passes."""

    kind: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class RemovePawn(Action):
    """Bonus after eating your own king: remove your pawn on ``slot``."""

    kind: ClassVar[str] = "remove"
    slot: int

    def __str__(self) -> str:
        return f"x{self.slot}"


@dataclass(frozen=True, slots=True)
class KeepPawns(Action):
    """Decline the bonus removal."""

    kind: ClassVar[str] = "keep"

    def __str__(self) -> str:
        return "keep"


@dataclass(frozen=True, slots=True)
class Take(Action):
    """After eating an opponent's king: take their piece on ``slot`` in hand."""

    kind: ClassVar[str] = "take"
    slot: int

    def __str__(self) -> str:
        return f"take{self.slot}"


@dataclass(frozen=True, slots=True)
class PlaceInGap(Action):
    """Put ``piece`` from your hand into gap ``gap`` (before slot ``gap``)."""

    kind: ClassVar[str] = "place_gap"
    piece: int
    gap: int

    def __str__(self) -> str:
        return f"{piece_symbol(self.piece)}>{self.gap}"


@dataclass(frozen=True, slots=True)
class PlaceOnTile(Action):
    """Put ``piece`` from your hand on the unoccupied tile at ``slot``."""

    kind: ClassVar[str] = "place_tile"
    piece: int
    slot: int

    def __str__(self) -> str:
        return f"{piece_symbol(self.piece)}>□{self.slot}"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Do not put the eaten pawn back (only with ``opponent_pawn_return = "may"``)."""

    kind: ClassVar[str] = "discard"
    piece: int

    def __str__(self) -> str:
        return f"drop{piece_symbol(self.piece)}"


# --------------------------------------------------------------------------- state

Slot = tuple  # (is_tile: bool, piece: int | None)


class State(NamedTuple):
    """A position of Eat Thyself (an immutable value; see the module docstring)."""

    ring: tuple
    faces: tuple            # per player: (face of card 0, face of card 1)
    mover: int
    phase: str = "move"     # move | bonus | take | place | over
    hand: tuple = ()        # sorted pieces to put back
    take_from: int | None = None
    takes_left: int = 0
    bonus_left: int = 0
    turn: int = 0
    winners: tuple | None = None
    reason: str = ""
    #: the slots the last turn's pieces landed on, in today's numbering (the board's last-move mark);
    #: no part of the position, so it takes no part in equality
    last: tuple = ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self[:-1] == other[:-1]

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self[:-1])

    def to_json(self) -> dict[str, Any]:
        """The hand-writable JSON form (see the module docstring)."""
        ring = [(TILE if tile else "") + (piece_symbol(p) if p is not None else "") for tile, p in self.ring]
        data = {"ring": ring, "cards": [list(f) for f in self.faces], "to_move": self.mover,
                "phase": self.phase, "hand": [piece_symbol(p) for p in self.hand],
                "take_from": self.take_from, "takes_left": self.takes_left,
                "bonus_left": self.bonus_left, "turn": self.turn}
        if self.winners is not None:
            data["winners"] = list(self.winners)
            data["reason"] = self.reason
        if self.last:
            data["last"] = list(self.last)
        return data

    def count(self, player: int) -> tuple[int, int]:
        """(kings, pawns) of ``player`` on the ring and in hand."""
        kings = pawns = 0
        for _, p in self.ring:
            if p is not None and p >> 1 == player:
                if p & 1:
                    pawns += 1
                else:
                    kings += 1
        for p in self.hand:
            if p >> 1 == player:
                if p & 1:
                    pawns += 1
                else:
                    kings += 1
        return kings, pawns


_PHASE_OF = {"move": "move", "pass": "move", "remove": "bonus", "keep": "bonus", "take": "take",
             "place_gap": "place", "place_tile": "place", "discard": "place"}   # the phase each action belongs to
_FIELD_INDEX = {name: i for i, name in enumerate(State._fields)}


def _replace(self: State, **changes: Any) -> State:
    """A copy of a position with ``changes``: what NamedTuple's ``_replace`` does, in about half the
    time (a session load replays every move through the rules). NamedTuple refuses it in the class."""
    values = list(self)
    for name, value in changes.items():
        values[_FIELD_INDEX[name]] = value
    return tuple.__new__(State, values)


State._replace = _replace  # type: ignore[method-assign]


def _after_lift(last: tuple, ring: list, slot: int) -> tuple:
    """The last-move mark ``last`` (slot indices) once the piece on ``slot`` is lifted off ``ring``:
    a bare slot disappears, so the slots after it move down one."""
    if ring[slot][0]:
        return last
    return tuple(i - 1 if i > slot else i for i in last if i != slot)


# --------------------------------------------------------------------------- the game

@register
class EatThyself(Game):
    """Eat Thyself: kings eat their own pawns around a ring; one piece left wins.

    >>> import playtest
    >>> game = playtest.load("eat_thyself", num_players=3)
    >>> len(game.initial_state().ring)
    24
    """

    name = "eat_thyself"
    title = "Eat Thyself"
    credit = ("Eat Thyself by Martin Grider, art by August Brown, made for the Global Game Jam "
              "(2012); released under CC BY-NC-SA 3.0 Unported.")
    Params = EatThyselfParams
    action_types = (Move, Pass, RemovePawn, KeepPawns, Take, PlaceInGap, PlaceOnTile, Discard)

    def __init__(self, params: EatThyselfParams | None = None, **values: Any):
        super().__init__(params, **values)
        p = self.params
        self._cards = tuple(_card_faces(c) for c in p.card_pair)
        self._order = tuple(range(p.num_players)) if p.turn_order == "setup_order" \
            else tuple(reversed(range(p.num_players)))

    # ---- seats and setup
    def seats(self) -> list[Seat]:
        return [Seat(f"{SEAT_NAMES[i]} {KING_SYMBOLS[i]}", SEAT_COLORS[i], SEAT_SHAPES[i])
                for i in range(self.params.num_players)]

    def initial_state(self) -> State:
        p = self.params
        text = p.setup_sequence_2p if p.num_players == 2 else p.setup_sequence_3p
        faces = tuple(tuple(p.initial_faces) for _ in range(p.num_players))
        return State(ring=_parse_ring(text, "setup sequence"), faces=faces, mover=p.first_player)

    def _next_player(self, player: int) -> int:
        order = self._order
        return order[(order.index(player) + 1) % len(order)]

    # ---- the protocol
    def to_move(self, state: State) -> int | None:
        return None if state.phase == "over" else state.mover

    def outcome(self, state: State) -> Outcome | None:
        if state.winners is None:
            return None
        return Outcome(tuple(state.winners), state.reason)

    def running_scores(self, state: State) -> tuple[int, ...]:
        """Minus the pieces each player still has (on the ring and in hand), or minus its kings with
        ``win_condition = "one_king_left"``: the goal is to get down to one, so fewer is ahead.

        A winner is at one, and nobody ever goes below one. With ``simultaneous_win = "mover"``
        no loser is at one either: one turn cannot bring two players there (the mover loses
        pieces only by eating its own, another player at most one pawn, by a discard), so
        winners are never behind.

        >>> import playtest
        >>> game = playtest.load("eat_thyself")
        >>> game.running_scores(game.state_from_json({"ring": "▲△△□●○", "cards": [[1, 2], [1, 2]]}))
        (-3, -2)
        """
        counts = _piece_counts(state)
        if self.params.win_condition == "one_piece_left":
            return tuple(-(counts[2 * pl] + counts[2 * pl + 1]) for pl in range(self.params.num_players))
        return tuple(-counts[2 * pl] for pl in range(self.params.num_players))

    def target(self, state: State, slot: int, card: int, direction: int) -> int | None:
        """Index of the slot a king on ``slot`` reaches with ``card`` (rule E.1 §9), or None.

        None means the count comes back to the king's own slot: not a legal move.
        This is the one decision on a move's count that ``legal_actions``,
        ``apply``, ``random_action``, the notation and the board all use.

        >>> import playtest
        >>> game = playtest.load("eat_thyself", count_empty_tiles=False)
        >>> state = game.state_from_json({"ring": ["▲", "□", "●", "△", "○"], "cards": [[1, 4], [1, 2]]})
        >>> game.target(state, 0, 0, +1), game.target(state, 0, 1, +1)   # 4 of 4 pieces: back to ▲
        (2, None)
        """
        ring = state.ring
        n = len(ring)
        value = state.faces[state.mover][card]
        if self.params.count_empty_tiles:
            t = (slot + direction * value) % n
            return None if t == slot else t
        # E2 alternative: only slots with a piece count, the king's own slot among
        # them when the count wraps, so a ring with no unoccupied tile moves the same
        i, steps = slot, 0
        while True:
            i = (i + direction) % n
            if ring[i][1] is not None:
                steps += 1
                if steps == value:
                    return None if i == slot else i

    def legal_actions(self, state: State, seat: int | None = None) -> list[Action]:
        if seat is not None and seat != self.to_move(state):
            return []
        phase = state.phase
        me = state.mover
        ring = state.ring
        if phase == "move":
            actions = []
            directions = (CW, CCW) if self.params.allow_both_directions else (CW,)
            for slot, (_, piece) in enumerate(ring):
                if piece is None or piece != me * 2:
                    continue
                for card in (0, 1):
                    value = state.faces[me][card]
                    for d in directions:
                        if self.target(state, slot, card, d) is not None:
                            actions.append(Move(slot, card, d, value))
            return actions or [Pass()]
        if phase == "bonus":
            own_pawn = me * 2 + PAWN
            actions = [RemovePawn(i) for i, (_, p) in enumerate(ring) if p == own_pawn]
            actions.append(KeepPawns())
            return actions
        if phase == "take":
            return [Take(i) for i, (_, p) in enumerate(ring)
                    if p is not None and p >> 1 == state.take_from]
        if phase == "place":
            actions = []
            free_tiles = [i for i, (tile, p) in enumerate(ring) if tile and p is None]
            for piece in sorted(set(state.hand)):
                actions.extend(PlaceInGap(piece, g) for g in range(len(ring)))
                actions.extend(PlaceOnTile(piece, i) for i in free_tiles)
                if self.params.opponent_pawn_return == "may" and piece & 1 and state.take_from is None:
                    actions.append(Discard(piece))
            return actions
        return []

    def random_action(self, state: State, rng: random.Random) -> Action:
        if state.phase == "place":  # sample without listing every gap for every piece
            ring = state.ring
            piece = rng.choice(state.hand)
            free_tiles = [i for i, (tile, p) in enumerate(ring) if tile and p is None]
            may_drop = self.params.opponent_pawn_return == "may" and piece & 1 and state.take_from is None
            k = rng.randrange(len(ring) + len(free_tiles) + (1 if may_drop else 0))
            if k < len(ring):
                return PlaceInGap(piece, k)
            if k - len(ring) < len(free_tiles):
                return PlaceOnTile(piece, free_tiles[k - len(ring)])
            return Discard(piece)
        if state.phase == "move":  # rejection sampling over (king, card, direction)
            me = state.mover * 2
            kings = [i for i, (_, p) in enumerate(state.ring) if p == me]
            directions = (CW, CCW) if self.params.allow_both_directions else (CW,)
            choices = [(k, c, d) for k in kings for c in (0, 1) for d in directions]
            while choices:
                k, c, d = choices.pop(rng.randrange(len(choices)))
                if self.target(state, k, c, d) is not None:
                    return Move(k, c, d, state.faces[state.mover][c])
            return Pass()
        return rng.choice(self.legal_actions(state))

    # ---- applying actions
    def apply(self, state: State, action: Action, check: bool = True) -> State:
        if check:
            self._check(state, action)
        kind = action.kind
        if kind == "move":
            return self._apply_move(state, action)  # type: ignore[arg-type]
        ring = list(state.ring)
        if kind == "remove":
            state = state._replace(last=_after_lift(state.last, ring, action.slot))  # type: ignore[attr-defined]
            self._lift(ring, action.slot)  # type: ignore[attr-defined]
            bonus_left = state.bonus_left - 1
            if bonus_left > 0 and any(p == state.mover * 2 + PAWN for _, p in ring):
                return state._replace(ring=tuple(ring), bonus_left=bonus_left)
            return self._end_turn(state, tuple(ring))
        if kind == "keep":
            return self._end_turn(state, state.ring)
        if kind == "pass":
            return self._end_turn(state._replace(last=()), state.ring)
        if kind == "take":
            piece = ring[action.slot][1]  # type: ignore[attr-defined]
            last = _after_lift(state.last, ring, action.slot)  # type: ignore[attr-defined]
            self._lift(ring, action.slot)  # type: ignore[attr-defined]
            hand = tuple(sorted(state.hand + (piece,)))
            takes_left = state.takes_left - 1
            if takes_left > 0 and any(p is not None and p >> 1 == state.take_from for _, p in ring):
                return state._replace(ring=tuple(ring), hand=hand, takes_left=takes_left, last=last)
            return state._replace(ring=tuple(ring), hand=hand, takes_left=0, phase="place", last=last)
        if kind in ("place_gap", "place_tile", "discard"):
            piece = action.piece  # type: ignore[attr-defined]
            hand = list(state.hand)
            hand.remove(piece)
            last = state.last
            if kind == "place_gap":
                gap = action.gap  # type: ignore[attr-defined]
                ring.insert(gap, (False, piece))
                last = tuple(i + 1 if i >= gap else i for i in last) + (gap,)
            elif kind == "place_tile":
                ring[action.slot] = (True, piece)  # type: ignore[attr-defined]
                last += (action.slot,)  # type: ignore[attr-defined]
            if hand:
                return state._replace(ring=tuple(ring), hand=tuple(hand), last=last)
            return self._end_turn(state._replace(hand=(), last=last), tuple(ring))
        raise IllegalAction(f"{action!r} is not an Eat Thyself action")

    @staticmethod
    def _lift(ring: list, slot: int) -> None:  # (the last-move mark follows with _after_lift)
        """Take the piece on ``slot`` off the ring: a bare slot disappears, a tile stays empty."""
        if ring[slot][0]:
            ring[slot] = (True, None)
        else:
            del ring[slot]

    def _apply_move(self, state: State, move: Move) -> State:
        me = state.mover
        p = self.params
        ring = list(state.ring)
        src = move.slot
        dst = self.target(state, src, move.card, move.direction)
        king = ring[src][1]
        eaten = ring[dst][1]
        tile = ring[dst][0]
        faces = list(state.faces)
        low, high = self._cards[move.card]
        mine = list(faces[me])
        mine[move.card] = high if mine[move.card] == low else low
        faces[me] = tuple(mine)
        ring[dst] = (tile, king)
        # the last-move mark: where the king lands, once its old slot is gone (a bare slot disappears)
        landed = dst - 1 if dst > src and not ring[src][0] else dst
        self._lift(ring, src)
        new = state._replace(faces=tuple(faces), last=(landed,))
        if eaten is None or eaten == me * 2 + PAWN:  # an empty tile, or own pawn: removed from the game
            return self._end_turn(new, tuple(ring))
        owner = eaten >> 1
        if owner == me:  # own king: removed; optional bonus removal of own pawns
            if p.own_king_bonus_removals > 0 and any(q == me * 2 + PAWN for _, q in ring):
                return new._replace(ring=tuple(ring), phase="bonus", bonus_left=p.own_king_bonus_removals)
            return self._end_turn(new, tuple(ring))
        if eaten & 1:  # opponent's pawn: in hand, to be put back
            return new._replace(ring=tuple(ring), phase="place", hand=(eaten,), take_from=None)
        # opponent's king: in hand with extra pieces of that opponent
        if p.opponent_king_extra_pieces > 0 and any(q is not None and q >> 1 == owner for _, q in ring):
            return new._replace(ring=tuple(ring), phase="take", hand=(eaten,), take_from=owner,
                            takes_left=p.opponent_king_extra_pieces)
        return new._replace(ring=tuple(ring), phase="place", hand=(eaten,), take_from=owner)

    def _end_turn(self, state: State, ring: tuple) -> State:
        """Resolve the end of a fully resolved move: a win, a draw at the turn cap, or the next player."""
        p = self.params
        turn = state.turn + 1
        done = State(ring, state.faces, state.mover, "move", (), None, 0, 0, turn, None, "", state.last)
        winners = self._winners(done)
        if winners:
            if len(winners) > 1 and p.simultaneous_win == "mover":
                winners = [state.mover] if state.mover in winners else [
                    next(s for s in self._rotation(state.mover) if s in winners)]
            what = "one piece left" if p.win_condition == "one_piece_left" else "one king left"
            names = " and ".join(self.seats()[w].name for w in winners)
            return done._replace(phase="over", winners=tuple(winners), reason=f"{names} has {what}")
        if turn >= p.max_turns:
            return done._replace(phase="over", winners=(), reason=f"draw after {turn} turns (max_turns)")
        return done._replace(mover=self._next_player(state.mover))

    def _winners(self, state: State) -> list[int]:
        """The players who meet the win condition in ``state`` (rule E.1 §12, E1)."""
        p = self.params
        counts = _piece_counts(state)
        if p.win_condition == "one_piece_left":
            return [pl for pl in range(p.num_players) if counts[2 * pl] + counts[2 * pl + 1] == 1]
        return [pl for pl in range(p.num_players) if counts[2 * pl] == 1]

    def _rotation(self, start: int) -> list[int]:
        seats, player = [], start
        for _ in range(self.params.num_players):
            player = self._next_player(player)
            seats.append(player)
        return seats

    def _check(self, state: State, action: Action) -> None:
        """Raise :class:`IllegalAction` naming the rule unless ``action`` is legal here."""
        if state.phase == "over":
            raise IllegalAction("the game is over", rule="E.1 §12")
        if not isinstance(action, self.action_types):
            raise IllegalAction(f"{action!r} is not an Eat Thyself action")
        wanted = _PHASE_OF[action.kind]
        if wanted != state.phase:
            doing = {"move": "move a king", "bonus": "choose whether to remove one of your pawns",
                     "take": "take the eaten king's extra pieces in hand",
                     "place": "put the pieces in hand back on the ring"}[state.phase]
            raise IllegalAction(f"now {self.seats()[state.mover].name} must {doing}", rule="E.1 §11")
        ring = state.ring
        me = state.mover
        if action.kind == "move":
            slot, card, d = action.slot, action.card, action.direction  # type: ignore[attr-defined]
            if not 0 <= slot < len(ring) or ring[slot][1] != me * 2:
                raise IllegalAction("move one of your own kings", rule="E.1 §8")
            if card not in (0, 1):
                raise IllegalAction("choose one of your two cards (0 or 1)", rule="E.1 §7")
            if d not in (CW, CCW) or (d == CCW and not self.params.allow_both_directions):
                raise IllegalAction("a king moves clockwise (+1)" +
                                    (" or counter-clockwise (-1)" if self.params.allow_both_directions else ""),
                                    rule="E3")
            if self.target(state, slot, card, d) is None:
                raise IllegalAction("this move would come back to the king's own slot", rule="E.1 §9")
            return
        if action.kind == "pass":
            if any(a.kind == "move" for a in self.legal_actions(state)):
                raise IllegalAction("a player may pass only when no move is possible: moving is mandatory",
                                    rule="E12")
            return
        if action.kind == "keep":
            return
        if action.kind == "remove":
            if not 0 <= action.slot < len(ring) or ring[action.slot][1] != me * 2 + PAWN:  # type: ignore
                raise IllegalAction("the bonus removes one of your own pawns", rule="E7")
            return
        if action.kind == "take":
            if not 0 <= action.slot < len(ring) or ring[action.slot][1] is None or \
                    ring[action.slot][1] >> 1 != state.take_from:  # type: ignore[attr-defined]
                raise IllegalAction("take pieces of the player whose king you ate", rule="E8")
            return
        piece = action.piece  # type: ignore[attr-defined]
        if piece not in state.hand:
            raise IllegalAction(f"{piece_symbol(piece) if 0 <= piece < 6 else piece} is not in your hand",
                                rule="E.1 §11")
        if action.kind == "place_gap" and not 0 <= action.gap < len(ring):  # type: ignore
            raise IllegalAction(f"gap {action.gap} is not between two slots of the ring", rule="E9")  # type: ignore
        if action.kind == "place_tile":
            slot = action.slot  # type: ignore[attr-defined]
            if not 0 <= slot < len(ring) or not ring[slot][0] or ring[slot][1] is not None:
                raise IllegalAction("a piece goes between two pieces or on an unoccupied □", rule="E9")
        if action.kind == "discard" and not (self.params.opponent_pawn_return == "may" and piece & 1
                                             and state.take_from is None):
            raise IllegalAction("an eaten opponent pawn must be put back (opponent_pawn_return = \"must\")",
                                rule="E6")

    # ---- notation and JSON
    def notation(self, state: State, action: Action, viewer: int | None = None) -> str:
        if action.kind == "move":
            sym = piece_symbol(state.mover * 2)
            target = self.target(state, action.slot, action.card, action.direction)  # type: ignore
            value = state.faces[state.mover][action.card]  # type: ignore[attr-defined]
            arrow = "↻" if action.direction == CW else "↺"  # type: ignore[attr-defined]
            landed = state.ring[target][1] if target is not None else None
            eats = f" eats {piece_symbol(landed)}" if landed is not None else ""
            # both cards showing the same value: name the card, so every move has its own notation
            faces = state.faces[state.mover]
            card = f"({self.params.card_pair[action.card]})" if faces[0] == faces[1] else ""  # type: ignore
            return f"{sym}{action.slot}{arrow}{value}{card}→{target}{eats}"  # type: ignore[attr-defined]
        if action.kind == "remove":
            return f"removes {piece_symbol(state.mover * 2 + PAWN)}{action.slot}"  # type: ignore
        if action.kind == "take":
            return f"takes {piece_symbol(state.ring[action.slot][1])}{action.slot}"  # type: ignore
        return str(action)

    def log_lines(self, state: State, action: Action, viewer: int | None = None) -> list[str] | None:
        """The table's move log (an optional hook): a move's notation numbers the slots as they were
        before it; where the ring then closed up, the row unfolds into where the king stands now."""
        if action.kind != "move":
            return None
        try:
            after = self.apply(state, action)
        except (IllegalAction, ValueError):
            return None
        target = self.target(state, action.slot, action.card, action.direction)  # type: ignore[attr-defined]
        if not after.last or after.last[0] == target:
            return None
        return [self.notation(state, action, viewer),
                f"slots as numbered before this move: the ring closed up to {len(after.ring)} slots, and "
                f"the king now stands on slot {after.last[0]}"]

    def action_from_json(self, data: Any) -> Action:
        if isinstance(data, dict) and data.get("kind") == "move" and "value" not in data:
            data = {**data, "value": 0}   # the value is for notation only: the rules read the card
        return super().action_from_json(data)

    def state_from_json(self, data: Any) -> State:
        p = self.params
        read = PositionReader("Eat Thyself", data, ("ring", "cards", "to_move", "phase", "hand", "take_from",
                                                    "takes_left", "bonus_left", "turn", "winners", "reason",
                                                    "last"), shape="'ring', 'cards' and 'to_move'")
        ring = _parse_ring(read.get("ring"), "ring")
        n = p.num_players
        for _, piece in ring:
            if piece is not None and piece >> 1 >= n:
                raise ValueError(f"ring: {piece_symbol(piece)} belongs to a seat that is not playing "
                                 f"(num_players={n})")
        hand_symbols = read.items("hand", "pieces such as \"●\"")
        if any(type(x) is not str for x in hand_symbols):
            raise ValueError("hand: pieces are written as symbols such as \"●\" or \"○\"")
        hand = tuple(sorted(_piece_from_symbol(x) for x in hand_symbols))
        cards = read.get("cards", [list(p.initial_faces)] * n)
        if not isinstance(cards, list) or len(cards) != n:
            raise ValueError(f"cards: one pair of face-up values per player ({n} players)")
        faces = []
        for player, pair in enumerate(cards):
            if not isinstance(pair, list) or len(pair) != 2 or any(
                    type(v) is not int or v not in faces_of for v, faces_of in zip(pair, self._cards)):
                raise ValueError(f"cards: player {player}'s face-up values must be faces of "
                                 f"{list(p.card_pair)}")
            faces.append(tuple(pair))
        mover = read.integer("to_move", p.first_player, 0, n - 1)
        phase = read.choice("phase", "move", ("move", "bonus", "take", "place", "over"), "a phase")
        take_from = None if read.get("take_from") is None else read.integer("take_from", None, 0, n - 1)
        takes_left = read.integer("takes_left", 0, 0, 100)
        bonus_left = read.integer("bonus_left", 0, 0, 100)
        turn = read.integer("turn", 0, 0, 10 ** 6)
        state = State(ring=ring, faces=tuple(faces), mover=mover, phase=phase, hand=hand,
                      take_from=take_from, takes_left=takes_left, bonus_left=bonus_left, turn=turn)
        for player in range(n):
            kings, pawns = state.count(player)
            if kings > p.kings_per_player or pawns > p.pawns_per_player:
                raise ValueError(f"player {player} has {kings} kings and {pawns} pawns, more than "
                                 f"kings_per_player={p.kings_per_player}, pawns_per_player={p.pawns_per_player}")
            if kings == 0:
                raise ValueError(f"player {player} has no king left: a king is never removed by an "
                                 "opponent, so this position cannot happen")
        if (phase in ("place", "take")) != bool(hand):
            raise ValueError("pieces are in hand exactly when the phase is 'place' or 'take' (the eaten king "
                             "is in hand while its owner's extra pieces are taken)")
        if phase == "take" and state.take_from not in range(n):
            raise ValueError("phase 'take' needs take_from, the seat whose king was eaten")
        if phase != "over" and "winners" not in read and self._winners(state):
            raise ValueError("a player in this position has already won; write \"phase\": \"over\" "
                             "with \"winners\" for a finished game")
        if phase == "over" or "winners" in data:
            winners = read.items("winners", "seats")
            if any(type(w) is not int or not 0 <= w < n for w in winners) or len(set(winners)) != len(winners):
                raise ValueError(f"winners: different seats from 0 to {n - 1}")
            state = state._replace(phase="over", winners=tuple(winners),
                                   reason=read.text("reason", "", "the reason the game ended")[:300])
        last = read.get("last", [])
        if not isinstance(last, list) or any(type(i) is not int or not 0 <= i < len(ring) for i in last):
            raise ValueError(f"last: the slots the last turn's pieces landed on, numbers from 0 to {len(ring) - 1}")
        return state._replace(last=tuple(last)) if last else state

    # ---- the scene
    def view(self, state: State, seat: int | None = None) -> dict:
        seats = self.seats()
        s = Scene()
        ring = state.ring
        n = len(ring)
        # slot numbers as the move log writes them (▲1↻2→3: the king on slot 1 moves 2 to slot 3)
        s.board("ring", "ring", title=f"The ring ({n} slots)", slots=n, slot=34,
                labels={"slots": [str(i) for i in range(n)]})
        s.last(*(slot_id(i) for i in state.last))
        for i, (tile, piece) in enumerate(ring):
            if tile:
                s.cell("ring", i, fill="#f4efe6", id=False if piece is not None else slot_id(i),
                       title="empty space □" if piece is None else None)
            if piece is not None:
                player, kind = divmod(piece, 2)
                s.piece("ring", i, SEAT_SHAPES[player], SEAT_COLORS[player], id=slot_id(i),
                        size=0.62 if tile else 0.72, hollow=bool(kind == PAWN),
                        text="K" if kind == KING else "", title=piece_symbol(piece))
        me = state.mover
        mover_seat = seats[me]
        if state.phase == "over":
            outcome = self.outcome(state)
            s.status(f"Game over: {outcome.reason if outcome else ''}")
            s.hint("The game is over. Undo, or jump back in the history to try another line.")
        else:
            s.status(f"{mover_seat.name} to move", mover_seat.color, mover_seat.shape)
        # the cards of every player
        s.panel("Cards (face up)", [[seats[pl].name] + [f"{self.params.card_pair[c]}: {state.faces[pl][c]}"
                                                        for c in (0, 1)] for pl in range(self.params.num_players)])
        counts = []
        for pl in range(self.params.num_players):
            k, pw = state.count(pl)
            counts.append([seats[pl].name, _count(k, "king"), _count(pw, "pawn"), _count(k + pw, "piece")])
        s.panel("Pieces left", counts)
        first = seats[state.mover if 0 <= state.mover < len(seats) else 0]
        s.legend("a king (K), filled in its seat's colour", "piece", shape=first.shape, color=first.color,
                 size=0.72, text="K")
        s.legend("a pawn, hollow", "piece", shape=first.shape, color=first.color, size=0.72, hollow=True)
        if any(tile for tile, _ in ring):
            s.legend("a tile: an empty space □ on the ring, a piece may stand on it", "cell", fill="#f4efe6")
        s.legend("the move log's ▲1↻2→3: the king on slot 1 moves 2 clockwise (↺: counter-clockwise) to "
                 "slot 3, slots numbered as before that move (where the ring then closed up, the row's ▸ says "
                 "where the king stands)")
        if state.phase == "over":
            return s.to_json()
        actions = self.legal_actions(state)
        if state.phase == "move":
            for a in actions:
                if not isinstance(a, Move):
                    continue
                target = self.target(state, a.slot, a.card, a.direction)
                arrow = "clockwise ↻" if a.direction == CW else "counter-clockwise ↺"  # type: ignore
                label = f"card {self.params.card_pair[a.card]} showing {a.value}, {arrow}"  # type: ignore
                s.select(slot_id(a.slot), slot_id(target), label, a.to_json())  # type: ignore
            if actions == [Pass()]:
                s.button("Pass (no king can move)", Pass().to_json())
            s.hint(f"{mover_seat.name}: click one of your kings (K), then the slot it moves to.")
            for i, (_, piece) in enumerate(ring):
                if piece is not None and piece != me * 2:
                    s.reason(slot_id(i), f"only {mover_seat.name}'s kings move now (rule E.1 §8)")
        elif state.phase == "bonus":
            for a in actions:
                if isinstance(a, RemovePawn):
                    s.move(slot_id(a.slot), "remove this pawn (bonus)", a.to_json())
            s.button("Keep my pawns", KeepPawns().to_json())
            s.hint(f"{mover_seat.name} ate their own king: you may remove one of your pawns too.")
        elif state.phase == "take":
            for a in actions:
                s.move(slot_id(a.slot), "take in hand", a.to_json())  # type: ignore[attr-defined]
            s.hint(f"Take {_count(state.takes_left, 'more piece')} of {seats[state.take_from].name} in hand.")
        elif state.phase == "place":
            s.board("hand", "grid", title="In hand", cols=max(1, len(state.hand)), rows=1, cell=40)
            for i, piece in enumerate(state.hand):
                player, kind = divmod(piece, 2)
                s.cell("hand", (i, 0), fill="#fff", id=f"hand:{i}")
                s.piece("hand", (i, 0), SEAT_SHAPES[player], SEAT_COLORS[player], hollow=kind == PAWN,
                        text="K" if kind == KING else "")
            for g in range(n):
                s.gap("ring", g)
            for a in actions:
                hand_ids = [f"hand:{i}" for i, q in enumerate(state.hand) if q == a.piece]  # type: ignore
                for hid in hand_ids:
                    if isinstance(a, PlaceInGap):
                        s.select(hid, gap_id(a.gap), "put it here", a.to_json())
                    elif isinstance(a, PlaceOnTile):
                        s.select(hid, slot_id(a.slot), "put it on this □", a.to_json())
            for piece in sorted(set(state.hand)):
                if any(isinstance(a, Discard) and a.piece == piece for a in actions):
                    s.button(f"Do not put {piece_symbol(piece)} back", Discard(piece).to_json())
            s.hint("Click a piece in hand, then a gap between slots or an unoccupied □.")
        s.cite_rules(self.name)
        return s.to_json()


def _count(n: int, word: str) -> str:
    """``1 king``, ``2 kings``."""
    return f"{n} {word}{'s' if n != 1 else ''}"
