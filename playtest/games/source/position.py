"""A position of Source: the :class:`State` value, its fortification layers, and its JSON form both ways.

``State.to_json`` writes the hand-writable form the package docstring shows;
:func:`read_position` reads it back (``game.state_from_json``), each field
checked by a :class:`playtest.position.PositionReader`, and refuses positions
the box could not hold (too many tokens, a missing source, ...).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...geometry import LETTERS as LETTERS_AZ
from ...position import PositionReader
from .params import COLORS, LETTERS, R_SETUP

if TYPE_CHECKING:
    from .rules import Source

__all__ = ["State", "read_position", "set_item", "add_layer", "remove_layer", "clear_layers"]

FIELDS = ("board", "supply", "to_move", "ap_left", "acted", "passes", "turn", "over", "last")


@dataclass(frozen=True, slots=True)
class State:
    """A position of Source (an immutable value; see the module docstring for its JSON form).

    ``stones[c]`` is a bit mask of the points holding colour ``c``'s token
    (colours in :data:`COLORS` order; bit ``row * size + col``), ``forts[k]``
    the points with more than ``k`` fortification tokens. ``connected`` and
    ``tally`` are derived from the rest (and the parameters) and kept up to
    date action by action; ``last`` holds the points the last colour's turn
    touched (for the board's last-move mark). They take no part in equality.
    """

    size: int               # points per side
    stones: tuple
    forts: tuple
    supply: tuple
    active: int             # the active colour's index
    ap_left: int
    acted: bool = False
    passes: int = 0
    turn: int = 0
    over: str = ""
    #: bit mask of each colour's connected tokens
    connected: tuple = field(default=(0, 0, 0, 0), compare=False)
    #: per colour: (connected, unconnected, centre, surrounded) points, updated per action
    tally: tuple = field(default=((0, 0, 0, 0),) * 4, compare=False)
    #: the points the current colour's turn touched so far, or the previous turn's before it acts
    last: tuple = field(default=(), compare=False)

    def layers(self, index: int) -> int:
        """Fortification tokens on point ``index``."""
        bit = 1 << index
        return sum(1 for f in self.forts if f & bit)

    def color_at(self, index: int) -> int:
        """The colour index of the token on point ``index``, or -1 when it is empty."""
        bit = 1 << index
        for c in range(4):
            if self.stones[c] & bit:
                return c
        return -1

    def diagram(self) -> list[str]:
        """The board as text lines, the top row first (see the module docstring)."""
        n = self.size
        spaced = any(self.forts[1:])
        rows = []
        for r in range(n):
            cells = []
            for c in range(n):
                i = r * n + c
                colour = self.color_at(i)
                if colour < 0:
                    cells.append(".")
                    continue
                layers = self.layers(i)
                letter = LETTERS[colour].upper() if layers else LETTERS[colour]
                cells.append(letter + (str(layers) if spaced and layers > 1 else ""))
            rows.append((" " if spaced else "").join(cells))
        return rows

    def to_json(self) -> dict[str, Any]:
        """The hand-writable JSON form (see the module docstring)."""
        data = {"board": self.diagram(), "supply": dict(zip(COLORS, self.supply)),
                "to_move": COLORS[self.active], "ap_left": self.ap_left, "acted": self.acted,
                "passes": self.passes, "turn": self.turn, "over": self.over}
        if self.last:
            n = self.size
            data["last"] = [f"{LETTERS_AZ[i % n]}{i // n + 1}" for i in self.last]
        return data

    def __str__(self) -> str:
        return "\n".join(self.diagram())




def set_item(values: tuple, index: int, value: Any) -> tuple:
    """``values`` with item ``index`` replaced."""
    changed = list(values)
    changed[index] = value
    return tuple(changed)


def add_layer(forts: tuple, bit: int) -> tuple:
    """``forts`` with one more fortification token on the point ``bit``."""
    layers = list(forts)
    for k, f in enumerate(layers):
        if not f & bit:
            layers[k] = f | bit
            return tuple(layers)
    layers.append(bit)
    return tuple(layers)


def _trim(layers: list) -> tuple:
    # no empty top layers, so equal positions compare equal
    while layers and not layers[-1]:
        layers.pop()
    return tuple(layers)


def remove_layer(forts: tuple, bit: int) -> tuple:
    """``forts`` with the top fortification token of the point ``bit`` taken off."""
    layers = list(forts)
    for k in range(len(layers) - 1, -1, -1):
        if layers[k] & bit:
            layers[k] &= ~bit
            break
    return _trim(layers)


def clear_layers(forts: tuple, bit: int) -> tuple:
    """``forts`` with every fortification token of the point ``bit`` gone."""
    return _trim([f & ~bit for f in forts])


def read_position(game: Source, data: Any) -> State:
    """``game.state_from_json``: a position from its hand-written JSON, validated with clear messages."""
    reader = PositionReader("Source", data, FIELDS, "at least a 'board' (a list of text rows)")
    p, b = game.params, game.board
    n = b.cols
    board = reader.get("board")
    if isinstance(board, str):
        board = [line for line in board.strip().splitlines()]
    if not isinstance(board, (list, tuple)) or len(board) != n:
        raise ValueError(f"board: {n} text rows of {n} points are needed (board_size = {n})")
    stones = [0, 0, 0, 0]
    layers_at: dict[int, int] = {}
    for r, line in enumerate(board):
        if not isinstance(line, str):
            raise ValueError(f"board row {r + 1} must be text such as 'r.......b', not {line!r}")
        text = line.strip()
        tokens = text.split() if any(ch.isspace() for ch in text) else list(text)
        if len(tokens) != n:
            raise ValueError(f"board row {r + 1} ({line!r}) has {len(tokens)} points, not {n}")
        for col, token in enumerate(tokens):
            i = r * n + col
            if token in (".", "+", "·"):
                continue
            letter, rest = token[0], token[1:]
            if letter.lower() not in LETTERS or (rest and not (letter.isupper() and rest.isdigit()
                                                               and int(rest) >= 1)):
                raise ValueError(f"board point {b.labels[i]}: {token!r} is not a point; write . for empty, "
                                 "r b y g for a token, R B Y G for a fortified one (R2: two fortifications)")
            stones[LETTERS.index(letter.lower())] |= 1 << i
            if letter.isupper():
                layers_at[i] = int(rest) if rest else 1
    for c in range(4):
        corner = game.sources[c]
        if not stones[c] >> corner & 1 and not p.source_capturable:
            raise ValueError(f"the {COLORS[c]} source is missing: corner {b.labels[corner]} must hold a "
                             f"{COLORS[c]} token ('{LETTERS[c]}'), since a source cannot be captured "
                             f"(source_capturable = false; rule {R_SETUP})")
    for i, k in sorted(layers_at.items()):
        if k > p.max_fortify_layers:
            raise ValueError(f"{b.labels[i]} holds {k} fortification token{'s' if k > 1 else ''}, more than "
                             f"max_fortify_layers = {p.max_fortify_layers} (rule C8)")
        if i == game.centre and not p.center_fortifiable:
            raise ValueError(f"the centre {b.labels[i]} is fortified, but center_fortifiable = false "
                             "(rule C8)")
    forts = _trim([sum(1 << i for i, k in layers_at.items() if k > level)
                   for level in range(max(layers_at.values(), default=0))])
    supply_data = reader.mapping("supply", f"such as {{\"red\": 24, \"blue\": 24}}, with colour names "
                                           f"{', '.join(COLORS)}", keys=COLORS)
    supply = []
    for c, name in enumerate(COLORS):
        on_board = stones[c].bit_count() + sum((f & stones[c]).bit_count() for f in forts)
        extra_source = 1 if not p.source_from_supply and stones[c] >> game.sources[c] & 1 else 0
        budget = p.tokens_per_color + extra_source
        if name in supply_data:
            value = supply_data[name]
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"supply of {name} must be a whole number of at least 0, not {value!r}")
        else:
            value = budget - on_board
        if on_board + value > budget:
            note = " (the source token is one of them: source_from_supply = true)" \
                if p.source_from_supply else " (plus the source token: source_from_supply = false)"
            raise ValueError(f"{name} has {on_board} tokens on the board (fortifications included) and "
                             f"{value} in supply: {on_board + value} is more than tokens_per_color = "
                             f"{p.tokens_per_color}{note} (rule C1)")
        supply.append(value)
    to_move = reader.choice("to_move", p.first_color, COLORS, "a colour")
    turn = reader.integer("turn", 0)
    allowance = game._allowance(turn)
    over = reader.text("over", "", "the reason the game ended (text, \"\" while it goes on)")
    ap_left = reader.integer("ap_left", allowance)
    if not over and not 1 <= ap_left <= allowance:
        which = "first_turn_ap" if turn == 0 else "ap_per_turn"
        raise ValueError(f"ap_left must be from 1 to {allowance} ({which} = {allowance}), not {ap_left}")
    acted = reader.boolean("acted", ap_left < allowance)
    if not over and not acted and ap_left < allowance:
        raise ValueError(f"ap_left = {ap_left} is less than a full turn ({allowance}), so the colour has "
                         "acted: set \"acted\": true")
    passes = reader.integer("passes", 0)
    if passes >= p.pass_limit and not over:
        raise ValueError(f"passes = {passes} would have ended the game (pass_limit = {p.pass_limit})")
    if not over and p.end_timing == "immediate":
        over = game._trigger(tuple(stones), tuple(supply))
    last = []
    for name in reader.items("last", "point names such as \"e5\" (what the last move touched)"):
        if name not in b.labels:
            raise ValueError(f"last: {name!r} is not a point of the {n}x{n} board (a1 to "
                             f"{b.labels[-1]})")
        last.append(b.labels.index(name))
    state = State(n, tuple(stones), forts, tuple(supply), COLORS.index(to_move), ap_left, acted,
                  passes, turn, over, last=tuple(last))
    return game._derive(state)
