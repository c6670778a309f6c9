"""A position of Source: the :class:`State` value, its fortification layers, and its JSON form both ways.

The state is declared field by field (:class:`State`), but its JSON form is another shape (a
board diagram, supply by colour name, the colour to move by name): ``State.to_json`` writes the
hand-writable form the package docstring shows and :func:`read_position` reads it back
(``game.state_from_json``): it converts what is drawn or named, lets the declaration check the
fields' types and bounds, and refuses positions the box could not hold (too many tokens, a missing
source, ...).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ... import kernel
from ...geometry import LETTERS as LETTERS_AZ
from ...kernel import field
from ...kernel.values import shown
from .params import COLORS, LETTERS, R_SETUP

if TYPE_CHECKING:
    from .rules import Source

__all__ = ["State", "read_position", "add_layer", "remove_layer", "clear_layers"]

FIELDS = ("board", "supply", "to_move", "ap_left", "acted", "passes", "turn", "over", "last")


class State(kernel.State):
    """A position of Source (an immutable value; see the module docstring for its JSON form).

    ``stones[c]`` is a bit mask of the points holding colour ``c``'s token
    (colours in :data:`COLORS` order; bit ``row * size + col``), ``forts[k]``
    the points with more than ``k`` fortification tokens. ``connected`` and
    ``tally`` are derived from the rest (and the parameters) and kept up to
    date action by action; ``last`` holds the points the last colour's turn
    touched (for the board's last-move mark). They take no part in equality.
    """

    size: int = field(default=9, min=5, max=19)                   # points per side
    # the bit boards are drawn as the JSON form's diagram, not written as numbers (json=False)
    stones: tuple[int, ...] = field(default=(0, 0, 0, 0), min=0, json=False)
    forts: tuple[int, ...] = field(default=(), min=0, json=False)
    supply: tuple[int, ...] = field(default=(0, 0, 0, 0), min=0)
    active: int = field(default=0, min=0, max=3)                  # the active colour's index
    ap_left: int = field(default=2, min=0, max=20)
    acted: bool = False
    passes: int = field(default=0, min=0)
    turn: int = field(default=0, min=0)
    over: str = ""
    #: bit mask of each colour's connected tokens
    connected: tuple[int, ...] = field(default=(0, 0, 0, 0), compare=False, json=False)
    #: per colour: (connected, unconnected, centre, surrounded) points, updated per action
    tally: tuple[tuple[int, int, int, int], ...] = field(default=((0, 0, 0, 0),) * 4, compare=False, json=False)
    #: the points the current colour's turn touched so far, or the previous turn's before it acts
    last: tuple[int, ...] = field(default=(), min=0, compare=False)

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
    if not isinstance(data, dict):
        raise ValueError(f"a Source position is an object with at least a 'board' (a list of text rows), "
                         f"not {shown(data)}")
    unknown = sorted(str(k)[:40] for k in data if k not in FIELDS)
    if unknown:
        raise ValueError(f"unknown fields in a Source position: {unknown[:10]}; the fields are "
                         f"{', '.join(sorted(FIELDS))}")
    p, b = game.params, game.board
    n = b.cols
    board = data.get("board")
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
    supply_data = data.get("supply", {})
    if not isinstance(supply_data, dict) or not supply_data.keys() <= set(COLORS):
        raise ValueError(f"supply must be an object such as {{\"red\": 24, \"blue\": 24}}, with colour names "
                         f"{', '.join(COLORS)}")
    supply = []
    for c, name in enumerate(COLORS):
        on_board = stones[c].bit_count() + sum((f & stones[c]).bit_count() for f in forts)
        extra_source = 1 if not p.source_from_supply and stones[c] >> game.sources[c] & 1 else 0
        budget = p.tokens_per_color + extra_source
        if name in supply_data:
            value = supply_data[name]
            if type(value) is not int or value < 0:
                raise ValueError(f"supply of {name} must be a whole number of at least 0, not {shown(value)}")
        else:
            value = budget - on_board
        if on_board + value > budget:
            note = " (the source token is one of them: source_from_supply = true)" \
                if p.source_from_supply else " (plus the source token: source_from_supply = false)"
            raise ValueError(f"{name} has {on_board} tokens on the board (fortifications included) and "
                             f"{value} in supply: {on_board + value} is more than tokens_per_color = "
                             f"{p.tokens_per_color}{note} (rule C1)")
        supply.append(value)
    to_move = data.get("to_move", p.first_color)
    if type(to_move) is not str or to_move not in COLORS:
        raise ValueError(f"to_move must be a colour: {', '.join(COLORS)}; not {shown(to_move)}")
    last = data.get("last", [])
    if not isinstance(last, list) or any(name not in b.labels for name in last):
        raise ValueError(f"last must be a list of point names such as \"e5\" (what the last move touched), "
                         f"points of the {n}x{n} board (a1 to {b.labels[-1]}), not {shown(last)}")
    # the declaration reads the fields written as they are (exact types and bounds, named in messages)
    allowance = game._allowance(data.get("turn", 0))
    state: State = State.from_json({
        "size": n, "supply": supply, "active": COLORS.index(to_move), "ap_left": data.get("ap_left", allowance),
        "acted": data.get("acted", False), "passes": data.get("passes", 0), "turn": data.get("turn", 0),
        "over": data.get("over", ""), "last": [b.labels.index(name) for name in last]}, where="source")
    state = state.replace(stones=tuple(stones), forts=forts)
    over, ap_left = state.over, state.ap_left
    if "acted" not in data:
        state = state.replace(acted=ap_left < allowance)
    if not over and not 1 <= ap_left <= allowance:
        which = "first_turn_ap" if state.turn == 0 else "ap_per_turn"
        raise ValueError(f"ap_left must be from 1 to {allowance} ({which} = {allowance}), not {ap_left}")
    if not over and not state.acted and ap_left < allowance:
        raise ValueError(f"ap_left = {ap_left} is less than a full turn ({allowance}), so the colour has "
                         "acted: set \"acted\": true")
    if state.passes >= p.pass_limit and not over:
        raise ValueError(f"passes = {state.passes} would have ended the game (pass_limit = {p.pass_limit})")
    if not over and p.end_timing == "immediate":
        state = state.replace(over=game._trigger(state.stones, state.supply))
    return game._derive(state)
