"""A position of Back to the Wall: the declared :class:`State` and :class:`Order`, with their JSON form.

The state is declared field by field (types, bounds, who may see what: a seat's order and its
garnet flags are its own), and so is its hand-writable JSON form (the package docstring): objects
by seat and board name (:class:`~playtest.kernel.ByName`), the boards drawn as text rows (one key
read into three fields), cells by label. :func:`read_position` reads it against a :class:`Reading`
(the names, and the round the counts depend on); ``BackToTheWall.check_state`` then refuses
positions the rules could not reach, with a message that names the field.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...geometry import bits
from ...kernel import ByName, blank, field
from ...kernel import State as Declared
from ...kernel.values import shown as _shown
from .boards import board_tables
from .params import LETTERS, BackToTheWallParams

if TYPE_CHECKING:
    from .rules import BackToTheWall

__all__ = ["Order", "State", "read_position", "SEAT_NAMES", "seat_names", "pieces_in_round"]

SEAT_NAMES = {2: ("North", "South"), 3: ("North", "East", "South"), 4: ("North", "East", "South", "West")}
PHASES = ("orders", "garnets", "over")
NO_DIRECTION = "."
MASK = (1 << 676) - 1       # a cell mask of the largest board
AT_CORNER = object()        # a seat's pieces, left out: all on its corner
NOT_GIVEN = object()        # a board's directions, left out: none given yet


def seat_names(params: BackToTheWallParams) -> tuple[str, ...]:
    return SEAT_NAMES[params.num_players]


def pieces_in_round(params: BackToTheWallParams, round_: int) -> int:
    """Pieces each player has on each board in round ``round_`` (B12)."""
    return params.pieces_initial + params.pieces_gain_per_round * (round_ - 1)


class Order(Declared):
    """One seat's order for the round: its parts, and whether it is submitted.

    ``walls[b]`` is a sorted tuple of cell indices of board ``b``;
    ``directions[b][k][p]`` the direction (0 up, 1 right, 2 down, 3 left; -1 none)
    of piece ``k`` on board ``b`` in phase ``p + 1``; ``garnet[b]`` the secret
    garnet-bonus flag of board ``b``.

    >>> order = Order.empty(1, 3)
    >>> order.missing(), order.replace(garnet=(True, False, False)).is_empty()
    (9, False)
    """

    walls: tuple[tuple[int, ...], ...] = field(((), (), ()), min=0)
    directions: tuple[tuple[tuple[int, ...], ...], ...] = field(((), (), ()), min=-1, max=3)
    garnet: tuple[bool, ...] = (False, False, False)
    submitted: bool = False

    @classmethod
    def empty(cls, pieces: int, phases: int) -> "Order":
        """An order with nothing set, for ``pieces`` pieces per board and ``phases`` phases."""
        return cls(((), (), ()), (((-1,) * phases,) * pieces,) * 3, (False, False, False))

    def is_empty(self) -> bool:
        return (not any(self.walls) and not any(self.garnet)
                and all(d < 0 for board in self.directions for piece in board for d in piece))

    def missing(self) -> int:
        """Directions not given yet."""
        return sum(d < 0 for board in self.directions for piece in board for d in piece)


# --------------------------------------------------------------------------- the JSON form's names and cells

class Reading:
    """What a position is read against: the game's names and boards, and the round (the pieces per
    board and the rounds already played depend on it). The context of ``State.from_json``."""

    __slots__ = ("rules", "tables", "round", "count", "done")

    def __init__(self, game: BackToTheWall, phase: str, round_: int):
        self.rules, self.tables, self.round = game.params, game.tables, round_
        self.count = pieces_in_round(game.params, round_) if phase == "orders" else 0   # an order's pieces
        self.done = round_ - 1 if phase == "orders" else game.params.rounds              # rounds played

    def cell(self, b: int, value: Any, where: str) -> int:
        """The cell of board ``b`` that ``value`` names (``"d5"`` or ``[col, row]``)."""
        t, cell = self.tables[b], self.tables[b].cell_of(value)
        if cell is None:
            raise ValueError(f"{where}: {_shown(value)} is not a cell of {t.name} (a1 to "
                             f"{t.label(t.size - 1)}, or [col, row])")
        return cell

    def cells(self, b: int, value: Any, where: str) -> list[int]:
        if not isinstance(value, list):
            raise ValueError(f"{where} must be a list of cells, not {_shown(value)}")
        return [self.cell(b, c, where) for c in value]


def _seat_names(source: Any) -> tuple[str, ...]:
    return SEAT_NAMES[source.rules.num_players]


def _board_names(source: Any) -> Any:
    return source.rules.board_names


def _board(where: str, r: Reading) -> int:
    """The board a path ``....<board name>`` names."""
    return r.rules.board_names.index(where.rsplit(".", 1)[1])


def _rounds(value: Any, where: str, r: Reading) -> list[int]:
    if not isinstance(value, list) or any(type(x) is not int or not 1 <= x <= r.done for x in value) \
            or len(set(value)) != len(value):
        raise ValueError(f"{where} must list different rounds already played (1 to {r.done}), not {_shown(value)}")
    return sorted(value)


def _counts(value: Any, where: str, r: Reading) -> Any:
    if not isinstance(value, list) or len(value) != r.rules.rounds or any(type(x) is not int or x < 0 for x in value):
        raise ValueError(f"{where} must list the walls placed in each of the {r.rules.rounds} rounds, "
                         f"not {_shown(value)}")
    return value


def _wall_cells(value: Any, where: str, r: Reading) -> list[int]:
    found = r.cells(_board(where, r), value, where)
    if len(set(found)) != len(found):
        raise ValueError(f"{where}: a cell is listed twice (rule B.1 §9.1)")
    return sorted(found)


def _direction_texts(value: Any, where: str, r: Reading) -> list[list[int]]:
    phases = r.rules.directions_per_round
    if value is NOT_GIVEN:                       # a board left out: no direction given yet
        return [[-1] * phases] * r.count
    if not isinstance(value, list) or len(value) != r.count or any(
            not isinstance(x, str) or len(x) != phases or set(x) - set(LETTERS + NO_DIRECTION) for x in value):
        raise ValueError(f"{where} must give each of the {r.count} piece(s) a text of {phases} letters: "
                         f"U, R, D, L or '.' (none), not {_shown(value)}")
    return [[LETTERS.index(ch) if ch != NO_DIRECTION else -1 for ch in x] for x in value]


_BOARD_WALLS = ByName(_board_names, noun="board", what="[cells]", missing=[], omit=blank, item_read=_wall_cells)
_BOARD_DIRECTIONS = ByName(_board_names, noun="board", what='["URD", "L.U", ...] per piece', missing=NOT_GIVEN,
                           item_read=_direction_texts)
_GARNET = ByName(_board_names, noun="board")


def _read_order(entry: Any, where: str, r: Reading) -> Any:
    """One seat's order (``null`` or left out: none; an empty one not submitted: none either)."""
    if entry is None:
        return None
    if not isinstance(entry, dict) or set(entry) - {"walls", "directions", "garnet", "submitted"}:
        raise ValueError(f"{where} must be null or an object with walls, directions, garnet and submitted, "
                         f"not {_shown(entry)}")
    walls = _BOARD_WALLS.read(entry.get("walls", {}), f"{where}.walls", r)
    directions = _BOARD_DIRECTIONS.read(entry.get("directions", {}), f"{where}.directions", r)
    chosen = entry.get("garnet", [])
    if not isinstance(chosen, list):
        raise ValueError(f"{where}.garnet must list board names, not {_shown(chosen)}")
    garnet = [False, False, False]
    for name in chosen:
        garnet[_GARNET.index(name, f"{where}.garnet", r)] = True
    submitted = entry.get("submitted", False)
    if not isinstance(submitted, bool):
        raise ValueError(f"{where}.submitted must be true or false, not {_shown(submitted)}")
    if not submitted and not any(walls) and not any(garnet) and all(d < 0 for b in directions for p in b for d in p):
        return None
    return {"walls": walls, "directions": directions, "garnet": garnet, "submitted": submitted}


def _write_order(order: Order, state: State) -> dict[str, Any]:
    p = state.rules
    return {"walls": {p.board_names[b]: [board_tables(p, b).label(c) for c in cells]
                      for b, cells in enumerate(order.walls) if cells},
            "directions": {p.board_names[b]: ["".join(LETTERS[d] if d >= 0 else NO_DIRECTION for d in piece)
                                              for piece in board]
                           for b, board in enumerate(order.directions) if board},
            "garnet": [p.board_names[b] for b, on in enumerate(order.garnet) if on],
            "submitted": order.submitted}


def _per_board(what: str, short: str, missing: Any, item: Any) -> ByName:
    """An object by seat name of objects by board name: a tuple per seat of a value per board."""
    boards = ByName(_board_names, noun="board", what=short, missing=missing, omit=blank, item_read=item)
    return ByName(_seat_names, what=f"{{board: {what}}}", missing={}, omit=blank, item_read=boards.read,
                  item_write=boards.write)


_ORDERS = ByName(_seat_names, what="{walls, directions, garnet, submitted}", missing=None, omit=blank,
                 item_read=_read_order, item_write=_write_order)
_FLAGS = _per_board("[rounds with the garnet bonus]", "[rounds]", [], _rounds)
_PLACED = _per_board("[walls placed in each round]", "[counts]", lambda r: [0] * r.rules.rounds, _counts)
_PIECES = ByName(_seat_names, what="lists of cells", missing=AT_CORNER)


class State(Declared):
    """A position (an immutable value; its JSON form is in the package docstring).

    Per board ``b``: ``walls[b]`` is a cell mask, ``owned[b][seat]`` the cells
    that seat owns, ``pieces[b][seat]`` its pieces' cells (in the order they
    were placed). ``orders[seat]`` is the seat's order this round (``None``:
    nothing set), seen by that seat only. ``flags[seat][b]`` holds the rounds in
    which the seat used its secret garnet bonus on board ``b`` (its own until the
    end); ``placed[seat][b][r - 1]`` the walls it placed there in round ``r``.
    ``last`` is the last round's wall results, as ``(board, cell, seats, result)``.
    ``rules`` are the parameters in force (not part of the JSON form: the game gives them).

    The JSON form is declared with the fields: objects by seat and board name (:class:`ByName`),
    the boards drawn as text rows (``walls``, ``owned`` and ``pieces`` are read from ``boards``),
    cells by label; the game reads it with a :class:`Reading` as context (the names, and the round
    the counts depend on), and ``BackToTheWall.check_state`` refuses what the rules could not reach.
    """

    round: int = field(default=1, min=1, max=9)
    phase: str = field(default="orders", choices=PHASES)
    walls: tuple[int, ...] = field(default=(), min=0, max=MASK, json="boards", joint=("owned", "pieces"), absent={},
                                   read=lambda v, where, r: _read_boards(v, where, r),
                                   write=lambda v, state: _write_boards(state))
    owned: tuple[tuple[int, ...], ...] = field(default=(), min=0, max=MASK, json=False)
    pieces: tuple[tuple[tuple[int, ...], ...], ...] = field(default=(), min=0, max=675, json=False)
    orders: tuple[Order | None, ...] = field(default=(), visible="owner", absent={}, read=_ORDERS.read,
                                             write=_ORDERS.write)
    flags: tuple[tuple[tuple[int, ...], ...], ...] = field(default=(), visible="owner", min=1, max=9, absent={},
                                                           read=_FLAGS.read, write=_FLAGS.write)
    placed: tuple[tuple[tuple[int, ...], ...], ...] = field(default=(), min=0, absent={}, read=_PLACED.read,
                                                            write=_PLACED.write)
    last: tuple[tuple[int, int, tuple[int, ...], str], ...] = field(
        default=(), read=lambda v, where, r: _read_last(v, where, r), write=lambda v, state: _write_last(state),
        words="a list of wall results {board, cell, by, result}")
    rules: BackToTheWallParams = field(default=BackToTheWallParams(), json=False)

    def redact(self, viewer: int | None) -> dict[str, Any]:
        """The JSON form as ``viewer`` (a seat, or ``None`` for the table) may read it: another seat's
        order shows only whether it is submitted, and its garnet flags are left out until the end.

        >>> import playtest
        >>> from playtest.games.back_to_the_wall import AddWall
        >>> game = playtest.load("back_to_the_wall")
        >>> state = game.apply(game.initial_state(), AddWall(1, 1, (3, 4)))
        >>> state.redact(1)["orders"]["East"]["walls"], state.redact(0)["orders"]
        ({'Twice': ['d5']}, {'East': {'submitted': False}})
        """
        data = self.to_json()
        names = seat_names(self.rules)
        mine = names[viewer] if viewer is not None and 0 <= viewer < len(names) else None
        data["orders"] = {name: entry if name == mine else {"submitted": entry["submitted"]}
                          for name, entry in data["orders"].items()}
        if self.phase != "over":
            data["flags"] = {name: flags for name, flags in data["flags"].items() if name == mine}
        return data


def board_rows(t: Any, walls: int, owned: tuple, p: BackToTheWallParams) -> list[str]:
    """One text row per board row: ``.`` unowned, ``#`` wall, the owner's initial (lower case on a wall)."""
    letters = [n[0] for n in seat_names(p)]
    chars = ["."] * t.size
    for i in bits(walls):
        chars[i] = "#"
    for s, mask in enumerate(owned):
        for i in bits(mask):
            chars[i] = letters[s].lower() if walls >> i & 1 else letters[s]
    return ["".join(chars[r * t.cols:(r + 1) * t.cols]) for r in range(t.rows)]


# --------------------------------------------------------------------------- boards and last, both ways

def _read_boards(value: Any, where: str, r: Reading) -> tuple[list[int], list[Any], list[Any]]:
    """``boards`` (rows and pieces by board name) as the values of walls, owned and pieces."""
    boards = ByName(_board_names, noun="board", what='{"rows": [...], "pieces": {...}}', missing={})
    walls, owned, pieces = [], [], []
    for b, entry in enumerate(boards.read(value, where, r)):
        t, at = r.tables[b], f"{where}.{r.rules.board_names[b]}"
        if not isinstance(entry, dict) or set(entry) - {"rows", "pieces"}:
            raise ValueError(f"{at} must be an object with rows and pieces, not {_shown(entry)}")
        wall, own = _read_rows(r, b, entry.get("rows"), at)
        corner = lambda s: [t.label(t.corners[t.corner_of[s]])] * pieces_in_round(r.rules, r.round)  # noqa: E731
        given = _PIECES.read(entry.get("pieces", {}), f"{at}.pieces", r)
        names = _seat_names(r)
        walls.append(wall)
        owned.append(list(own))
        pieces.append([r.cells(b, corner(s) if cells is AT_CORNER else cells, f"{at}.pieces.{names[s]}")
                       for s, cells in enumerate(given)])
    return walls, owned, pieces


def _write_boards(state: State) -> dict[str, Any]:
    p, names = state.rules, seat_names(state.rules)
    boards = {}
    for b in range(3):
        t = board_tables(p, b)
        boards[p.board_names[b]] = {
            "rows": board_rows(t, state.walls[b], state.owned[b], p),
            "pieces": {names[s]: [t.label(c) for c in state.pieces[b][s]] for s in range(len(names))}}
    return boards


def _read_rows(r: Reading, b: int, rows: Any, where: str) -> tuple[int, tuple[int, ...]]:
    t = r.tables[b]
    letters = [name[0] for name in _seat_names(r)]
    if rows is None:
        return t.preplaced, (0,) * len(letters)
    if not isinstance(rows, list) or len(rows) != t.rows or any(
            not isinstance(row, str) or len(row) != t.cols for row in rows):
        raise ValueError(f"{where}.rows must be {t.rows} text rows of {t.cols} characters: '.' unowned, '#' a "
                         f"wall, {'/'.join(letters)} the owner (lower case: an owned wall), not {_shown(rows)}")
    marks = {".": (0, -1), "#": (1, -1), **{c: (0, s) for s, c in enumerate(letters)},
             **{c.lower(): (1, s) for s, c in enumerate(letters)}}      # a character: (a wall, its owner)
    wall, own = 0, [0] * len(letters)
    for i, ch in enumerate("".join(rows)):
        if ch not in marks:
            raise ValueError(f"{where}.rows: {ch!r} at {t.label(i)} is not '.', '#' or a seat's initial "
                             f"({'/'.join(letters)})")
        walled, seat = marks[ch]
        wall |= walled << i
        if seat >= 0:
            own[seat] |= 1 << i
    return wall, tuple(own)


def _read_last(entries: Any, where: str, r: Reading) -> list[Any]:
    if not isinstance(entries, list):
        raise ValueError(f"{where} must be a list of wall results {{board, cell, by, result}}, not {_shown(entries)}")
    last = []
    for k, entry in enumerate(entries):
        at = f"{where}[{k}]"
        if not isinstance(entry, dict) or set(entry) != {"board", "cell", "by", "result"}:
            raise ValueError(f"{at} must be an object with board, cell, by and result, not {_shown(entry)}")
        b = _GARNET.index(entry["board"], at, r)
        cell = r.cell(b, entry["cell"], at)
        if not isinstance(entry["by"], list) or not entry["by"]:
            raise ValueError(f"{at}.by must list the seats that submitted the wall, not {_shown(entry['by'])}")
        seats = sorted({_ORDERS.index(x, at + ".by", r) for x in entry["by"]})
        result = entry["result"]
        if not isinstance(result, str) or len(result) > 400:
            raise ValueError(f"{at}.result must be text (at most 400 characters), not {_shown(result)}")
        last.append([b, cell, seats, result])
    return last


def _write_last(state: State) -> list[dict[str, Any]]:
    p, names = state.rules, seat_names(state.rules)
    return [{"board": p.board_names[b], "cell": board_tables(p, b).label(cell), "by": [names[s] for s in seats],
             "result": result} for b, cell, seats, result in state.last]


def read_position(game: BackToTheWall, data: Any) -> State:
    """The :class:`State` a JSON position describes (``game.state_from_json``; ``game.check_state`` then
    refuses what the rules could not reach): the declaration reads it, against a :class:`Reading`."""
    phase, round_ = "orders", 1
    if isinstance(data, dict):                   # the phase and round the rest is read against
        phase = State._specs["phase"].read_json(data.get("phase", "orders"), f"{game.name}.phase", None)
        round_ = State._specs["round"].read_json(data.get("round", game.params.rounds if phase != "orders" else 1),
                                           f"{game.name}.round", None)
        if round_ > game.params.rounds:
            raise ValueError(f"{game.name}.round must be a whole number from 1 to {game.params.rounds}, not {round_}")
        data = {"round": round_, **data}
    state: State = State.from_json(data, where=game.name, context=Reading(game, phase, round_))
    return state.replace(rules=game.params)

