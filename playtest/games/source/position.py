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
from ...kernel import ByName, field
from ...kernel.values import shown
from .params import COLORS, LETTERS, R_SETUP

if TYPE_CHECKING:
    from .rules import Source

__all__ = ["State", "read_position", "add_layer", "remove_layer", "clear_layers"]

MASK = (1 << 361) - 1                      # a point mask of the largest board (19x19)
FROM_BOARD = object()                      # a colour's supply, left out: what the board leaves of its tokens


def _colour(value: Any, where: str) -> int:
    if type(value) is not str or value not in COLORS:
        raise ValueError(f"{where} must be a colour ({', '.join(COLORS)}), not {shown(value)}")
    return COLORS.index(value)


def _supply(value: Any, where: str, game: Source) -> int:
    if value is FROM_BOARD:
        return -1
    if type(value) is not int or value < 0:
        raise ValueError(f"{where} must be a whole number of at least 0, not {shown(value)}")
    return value


_SUPPLY = ByName(COLORS, noun="colour", what='whole numbers, such as {"red": 24, "blue": 24}', missing=FROM_BOARD,
                 item_read=_supply)


class State(kernel.State):
    """A position of Source (an immutable value; see the module docstring for its JSON form).

    ``stones[c]`` is a bit mask of the points holding colour ``c``'s token
    (colours in :data:`COLORS` order; bit ``row * size + col``), ``forts[k]``
    the points with more than ``k`` fortification tokens. ``connected`` and
    ``tally`` are derived from the rest (and the parameters) and kept up to
    date action by action; ``last`` holds the points the last colour's turn
    touched (for the board's last-move mark). They take no part in equality.
    """

    size: int = field(default=9, min=5, max=19, json=False)         # points per side (the game's board)
    # the bit boards are drawn as the JSON form's diagram (one key read into both fields)
    stones: tuple[int, ...] = field(default=(0, 0, 0, 0), min=0, max=MASK, json="board", joint=("forts",),
                                    read=lambda v, where, game: _read_board(v, where, game),
                                    write=lambda v, state: state.diagram(), absent=None)
    forts: tuple[int, ...] = field(default=(), min=0, max=MASK, json=False)
    #: per colour: tokens in supply (-1 only while a position is read: the board decides)
    supply: tuple[int, ...] = field(default=(0, 0, 0, 0), min=-1, absent={}, read=_SUPPLY.read, write=_SUPPLY.write)
    #: the active colour's index (JSON: its name)
    active: int = field(default=0, min=0, max=3, json="to_move", words=f"a colour ({', '.join(COLORS)})",
                        read=lambda v, where, game: _colour(v, where),
                        write=lambda v, state: COLORS[v])
    ap_left: int = field(default=2, min=0, max=20)
    acted: bool = False
    passes: int = field(default=0, min=0)
    turn: int = field(default=0, min=0)
    over: str = ""
    #: bit mask of each colour's connected tokens
    connected: tuple[int, ...] = field(default=(0, 0, 0, 0), compare=False, json=False)
    #: per colour: (connected, unconnected, centre, surrounded) points, updated per action
    tally: tuple[tuple[int, int, int, int], ...] = field(default=((0, 0, 0, 0),) * 4, compare=False, json=False)
    #: the points the current colour's turn touched so far, or the previous turn's before it acts (JSON: names)
    last: tuple[int, ...] = field(default=(), min=0, compare=False, omit_default=True,
                                  words='a list of point names such as "e5" (what the last move touched)',
                                  read=lambda v, where, game: _read_last(v, where, game),
                                  write=lambda v, state: [f"{LETTERS_AZ[i % state.size]}{i // state.size + 1}"
                                                          for i in v])

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


def _read_board(board: Any, where: str, game: Source) -> tuple[list[int], list[int]]:
    """The diagram (text rows, or one text) as the stones of each colour and the fortification layers."""
    p, b = game.params, game.board
    n = b.cols
    if isinstance(board, str):
        board = board.strip().splitlines()
    if not isinstance(board, list) or len(board) != n:
        raise ValueError(f"{where}: {n} text rows of {n} points are needed (board_size = {n})")
    stones, layers_at = [0, 0, 0, 0], {}
    for r, line in enumerate(board):
        if not isinstance(line, str):
            raise ValueError(f"{where} row {r + 1} must be text such as 'r.......b', not {shown(line)}")
        text = line.strip()
        tokens = text.split() if any(ch.isspace() for ch in text) else list(text)
        if len(tokens) != n:
            raise ValueError(f"{where} row {r + 1} ({shown(line)}) has {len(tokens)} points, not {n}")
        for col, token in enumerate(tokens):
            i = r * n + col
            if token in (".", "+", "·"):
                continue
            letter, rest = token[0], token[1:]
            if letter.lower() not in LETTERS or (rest and not (letter.isupper() and rest.isdigit() and int(rest) >= 1)):
                raise ValueError(f"{where} point {b.labels[i]}: {shown(token)} is not a point; write . for empty, "
                                 "r b y g for a token, R B Y G for a fortified one (R2: two fortifications)")
            stones[LETTERS.index(letter.lower())] |= 1 << i
            if letter.isupper():
                layers_at[i] = int(rest) if rest else 1
    for i, k in sorted(layers_at.items()):
        if k > p.max_fortify_layers:
            raise ValueError(f"{b.labels[i]} holds {k} fortification token{'s' if k > 1 else ''}, more than "
                             f"max_fortify_layers = {p.max_fortify_layers} (rule C8)")
    forts = _trim([sum(1 << i for i, k in layers_at.items() if k > level)
                   for level in range(max(layers_at.values(), default=0))])
    return stones, list(forts)


def _read_last(last: Any, where: str, game: Source) -> list[int]:
    labels = game.board.labels
    if not isinstance(last, list) or any(name not in labels for name in last):
        raise ValueError(f"{where} must be a list of point names such as \"e5\" (what the last move touched), "
                         f"points of the {game.board.cols}x{game.board.cols} board (a1 to {labels[-1]}), "
                         f"not {shown(last)}")
    return [labels.index(name) for name in last]


def read_position(game: Source, data: Any) -> State:
    """``game.state_from_json``: a position from its hand-written JSON (the declaration reads it; what
    a position leaves out is filled in from the rest), refusing positions the box could not hold."""
    p, b = game.params, game.board
    if not isinstance(data, dict):
        raise ValueError(f"a Source position is an object with at least a 'board' (a list of text rows), "
                         f"not {shown(data)}")
    allowance = game._allowance(data.get("turn", 0))
    ap_left = data.get("ap_left", allowance)           # acted, left out: whether some of the turn's AP is used
    state: State = State.from_json({"to_move": p.first_color, "ap_left": allowance, "acted": type(ap_left) is int
                                    and ap_left < allowance, **data}, where=game.name, context=game)
    stones, forts = state.stones, state.forts
    for c in range(4):
        if not stones[c] >> game.sources[c] & 1 and not p.source_capturable:
            raise ValueError(f"the {COLORS[c]} source is missing: corner {b.labels[game.sources[c]]} must hold a "
                             f"{COLORS[c]} token ('{LETTERS[c]}'), since a source cannot be captured "
                             f"(source_capturable = false; rule {R_SETUP})")
    if forts and forts[0] >> game.centre & 1 and not p.center_fortifiable:
        raise ValueError(f"the centre {b.labels[game.centre]} is fortified, but center_fortifiable = false (rule C8)")
    supply = []
    for c, name in enumerate(COLORS):
        on_board = stones[c].bit_count() + sum((f & stones[c]).bit_count() for f in forts)
        budget = p.tokens_per_color + (1 if not p.source_from_supply and stones[c] >> game.sources[c] & 1 else 0)
        value = budget - on_board if state.supply[c] < 0 else state.supply[c]
        if on_board + value > budget:
            note = " (the source token is one of them: source_from_supply = true)" \
                if p.source_from_supply else " (plus the source token: source_from_supply = false)"
            raise ValueError(f"{name} has {on_board} tokens on the board (fortifications included) and "
                             f"{value} in supply: {on_board + value} is more than tokens_per_color = "
                             f"{p.tokens_per_color}{note} (rule C1)")
        supply.append(value)
    over, ap_left, acted = state.over, state.ap_left, state.acted
    state = state.replace(size=b.cols, supply=tuple(supply))
    if not over and not 1 <= ap_left <= allowance:
        which = "first_turn_ap" if state.turn == 0 else "ap_per_turn"
        raise ValueError(f"ap_left must be from 1 to {allowance} ({which} = {allowance}), not {ap_left}")
    if not over and not acted and ap_left < allowance:
        raise ValueError(f"ap_left = {ap_left} is less than a full turn ({allowance}), so the colour has "
                         "acted: set \"acted\": true")
    if state.passes >= p.pass_limit and not over:
        raise ValueError(f"passes = {state.passes} would have ended the game (pass_limit = {p.pass_limit})")
    if not over and p.end_timing == "immediate":
        state = state.replace(over=game._trigger(state.stones, state.supply))
    return game._derive(state)
