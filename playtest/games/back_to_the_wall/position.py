"""A position of Back to the Wall: the declared :class:`State` and :class:`Order`, and the JSON form both ways.

The state is declared field by field (types, bounds, who may see what: a seat's order and its
garnet flags are its own); the kernel derives equality, hashing and ``replace`` from it.
``State.to_json`` writes the hand-writable form of the package docstring, a diagram (text rows,
objects by board and seat name) rather than the fields one by one, so :func:`read_position`
keeps a small conversion back (names to indices, rows to cell masks; ``phase`` and ``round`` go
through their declared checks), and ``BackToTheWall.check_state`` refuses positions the rules
could not reach, with a message that names the field.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...geometry import bits
from ...kernel import State as Declared
from ...kernel import field
from ...kernel.values import shown as _shown
from .boards import board_tables
from .params import LETTERS, BackToTheWallParams

if TYPE_CHECKING:
    from .rules import BackToTheWall

__all__ = ["Order", "State", "read_position", "SEAT_NAMES", "seat_names", "pieces_in_round"]

SEAT_NAMES = {2: ("North", "South"), 3: ("North", "East", "South"), 4: ("North", "East", "South", "West")}
PHASES = ("orders", "garnets", "over")
FIELDS = ("round", "phase", "boards", "orders", "flags", "placed", "last")
NO_DIRECTION = "."


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
    """

    phase: str = field(default="orders", choices=PHASES)
    round: int = field(default=1, min=1, max=9)
    walls: tuple[int, ...] = field(default=(), min=0)
    owned: tuple[tuple[int, ...], ...] = field(default=(), min=0)
    pieces: tuple[tuple[tuple[int, ...], ...], ...] = field(default=(), min=0, max=675)
    orders: tuple[Order | None, ...] = field(default=(), visible="owner")
    flags: tuple[tuple[tuple[int, ...], ...], ...] = field(default=(), visible="owner", min=1, max=9)
    placed: tuple[tuple[tuple[int, ...], ...], ...] = field(default=(), min=0)
    last: tuple[tuple[int, int, tuple[int, ...], str], ...] = ()
    rules: BackToTheWallParams = field(default=BackToTheWallParams(), json=False)

    def to_json(self) -> dict[str, Any]:
        """The hand-writable JSON form (see the package docstring)."""
        p = self.rules
        names = seat_names(p)
        tables = [board_tables(p, b) for b in range(3)]
        boards = {}
        for b, t in enumerate(tables):
            boards[p.board_names[b]] = {
                "rows": board_rows(t, self.walls[b], self.owned[b], p),
                "pieces": {names[s]: [t.label(c) for c in self.pieces[b][s]] for s in range(len(names))},
            }
        data: dict[str, Any] = {"round": self.round, "phase": self.phase, "boards": boards}
        orders = {}
        for s, order in enumerate(self.orders):
            if order is None:
                continue
            entry: dict[str, Any] = {
                "walls": {p.board_names[b]: [tables[b].label(c) for c in cells]
                          for b, cells in enumerate(order.walls) if cells},
                "directions": {p.board_names[b]: ["".join(LETTERS[d] if d >= 0 else NO_DIRECTION for d in piece)
                                                  for piece in board]
                               for b, board in enumerate(order.directions) if board},
                "garnet": [p.board_names[b] for b, on in enumerate(order.garnet) if on],
                "submitted": order.submitted}
            orders[names[s]] = entry
        data["orders"] = orders
        data["flags"] = {names[s]: {p.board_names[b]: list(rounds) for b, rounds in enumerate(per) if rounds}
                         for s, per in enumerate(self.flags) if any(per)}
        data["placed"] = {names[s]: {p.board_names[b]: list(counts) for b, counts in enumerate(per) if any(counts)}
                          for s, per in enumerate(self.placed) if any(any(c) for c in per)}
        data["last"] = [{"board": p.board_names[b], "cell": tables[b].label(cell), "by": [names[s] for s in seats],
                         "result": result} for b, cell, seats, result in self.last]
        return data

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


# --------------------------------------------------------------------------- reading positions

_SPECS = {spec.name: spec for spec in State._fields}


class _Names:
    """The seats, boards and cells of one game's positions, by the names the JSON form uses."""

    __slots__ = ("p", "names", "tables")

    def __init__(self, game: BackToTheWall):
        self.p, self.names, self.tables = game.params, game.names, game.tables

    def index(self, key: Any, where: str, noun: str = "seat") -> int:
        """The index of the seat (or board) named ``key``."""
        names = self.names if noun == "seat" else self.p.board_names
        if key not in names:
            raise ValueError(f"{where}: {key!r} is not a {noun}; the {noun}s are {', '.join(names)}")
        return names.index(key)

    def cell(self, b: int, value: Any, where: str) -> int:
        cell = self.tables[b].cell_of(value)
        if cell is None:
            t = self.tables[b]
            raise ValueError(f"{where}: {_shown(value)} is not a cell of {t.name} (a1 to "
                             f"{t.label(t.size - 1)}, or [col, row])")
        return cell

    def by(self, value: Any, where: str, what: str, noun: str = "seat") -> dict[int, Any]:
        """An object by seat (or board) name, as ``{index: value}``."""
        if not isinstance(value, dict):
            names = self.names if noun == "seat" else self.p.board_names
            raise ValueError(f"{where} must be an object by {noun} name ({', '.join(names)}): {what}, "
                             f"not {_shown(value)}")
        return {self.index(k, where, noun): v for k, v in value.items()}

    def table(self, data: dict[str, Any], key: str, what: str, inner: str, empty: Any,
              read: Any) -> tuple[tuple[Any, ...], ...]:
        """``data[key]``, an object by seat name of objects by board name, as a tuple per seat of a
        value per board: ``read(value, where)`` for those given, ``empty`` for the others."""
        table = [[empty] * 3 for _ in self.names]
        for s, per in self.by(data.get(key, {}), key, what).items():
            for b, value in self.by(per, f"{key}.{self.names[s]}", inner, "board").items():
                table[s][b] = read(value, f"{key}.{self.names[s]}.{self.p.board_names[b]}")
        return tuple(tuple(per) for per in table)


def read_position(game: BackToTheWall, data: Any) -> State:
    """The :class:`State` a JSON position describes (names and diagrams turned into the declared
    fields); ``game.check_state`` then refuses what the rules could not reach."""
    if not isinstance(data, dict):
        raise ValueError("a Back to the Wall position is an object with 'round', 'boards', 'orders', ... (see the "
                         "module docstring of playtest.games.back_to_the_wall)")
    unknown = set(data) - set(FIELDS)
    if unknown:
        raise ValueError(f"unknown fields in a Back to the Wall position: {sorted(map(str, unknown))[:10]}; the "
                         f"fields are {', '.join(sorted(FIELDS))}")
    r = _Names(game)
    p, names = r.p, r.names
    phase = _SPECS["phase"].read_json(data.get("phase", "orders"), "phase", None)
    rnd = _SPECS["round"].read_json(data.get("round", p.rounds if phase != "orders" else 1), "round", None)
    if rnd > p.rounds:
        raise ValueError(f"round must be a whole number from 1 to {p.rounds}, not {rnd}")
    count = pieces_in_round(p, rnd)
    boards = r.by(data.get("boards", {}), "boards", '{"rows": [...], "pieces": {...}}', "board")
    walls, owned, pieces = [], [], []
    for b, t in enumerate(r.tables):
        entry = boards.get(b, {})
        where = f"boards.{p.board_names[b]}"
        if not isinstance(entry, dict) or set(entry) - {"rows", "pieces"}:
            raise ValueError(f"{where} must be an object with rows and pieces, not {_shown(entry)}")
        wall, own = _read_rows(r, b, entry.get("rows"), where)
        given = r.by(entry["pieces"], f"{where}.pieces", "lists of cells") if "pieces" in entry else {}
        seats = []
        for s in range(len(names)):
            cells = given.get(s, [t.label(t.corners[t.corner_of[s]])] * count)
            if not isinstance(cells, list):
                raise ValueError(f"{where}.pieces.{names[s]} must be a list of cells, not {_shown(cells)}")
            seats.append(tuple(r.cell(b, c, f"{where}.pieces.{names[s]}") for c in cells))
        walls.append(wall)
        owned.append(own)
        pieces.append(tuple(seats))
    done = rnd - 1 if phase == "orders" else p.rounds      # rounds already played

    def rounds(value: Any, where: str) -> tuple[int, ...]:
        if not isinstance(value, list) or any(type(x) is not int or not 1 <= x <= done for x in value) \
                or len(set(value)) != len(value):
            raise ValueError(f"{where} must list different rounds already played (1 to {done}), not {_shown(value)}")
        return tuple(sorted(value))

    def counts(value: Any, where: str) -> tuple[int, ...]:
        if not isinstance(value, list) or len(value) != p.rounds or any(type(x) is not int or x < 0 for x in value):
            raise ValueError(f"{where} must list the walls placed in each of the {p.rounds} rounds, "
                             f"not {_shown(value)}")
        return tuple(value)
    flags = r.table(data, "flags", "{board: [rounds with the garnet bonus]}", "[rounds]", (), rounds)
    placed = r.table(data, "placed", "{board: [walls placed in each round]}", "[counts]", (0,) * p.rounds, counts)
    state = State(phase=phase, round=rnd, walls=tuple(walls), owned=tuple(owned), pieces=tuple(pieces),
                  orders=(None,) * len(names), flags=flags, placed=placed, last=_read_last(r, data.get("last", [])),
                  rules=p)
    return state.replace(orders=_read_orders(r, state, data.get("orders", {})))


def _read_rows(r: _Names, b: int, rows: Any, where: str) -> tuple[int, tuple]:
    t = r.tables[b]
    letters = [name[0] for name in r.names]
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


def _read_last(r: _Names, entries: Any) -> tuple:
    if not isinstance(entries, list):
        raise ValueError(f"last must be a list of wall results {{board, cell, by, result}}, not {_shown(entries)}")
    last = []
    for k, entry in enumerate(entries):
        where = f"last[{k}]"
        if not isinstance(entry, dict) or set(entry) != {"board", "cell", "by", "result"}:
            raise ValueError(f"{where} must be an object with board, cell, by and result, not {_shown(entry)}")
        b = r.index(entry["board"], where, "board")
        cell = r.cell(b, entry["cell"], where)
        if not isinstance(entry["by"], list) or not entry["by"]:
            raise ValueError(f"{where}.by must list the seats that submitted the wall, not {_shown(entry['by'])}")
        seats = tuple(sorted({r.index(x, where + ".by") for x in entry["by"]}))
        result = entry["result"]
        if not isinstance(result, str) or len(result) > 400:
            raise ValueError(f"{where}.result must be text (at most 400 characters), not {_shown(result)}")
        last.append((b, cell, seats, result))
    return tuple(last)


def _read_orders(r: _Names, state: State, given: Any) -> tuple:
    p = r.p
    orders: list[Order | None] = [None] * len(r.names)
    count = pieces_in_round(p, state.round) if state.phase == "orders" else 0
    phases = p.directions_per_round
    for s, entry in r.by(given, "orders", "{walls, directions, garnet, submitted}").items():
        where = f"orders.{r.names[s]}"
        if entry is None:
            continue
        if not isinstance(entry, dict) or set(entry) - {"walls", "directions", "garnet", "submitted"}:
            raise ValueError(f"{where} must be null or an object with walls, directions, garnet and submitted, "
                             f"not {_shown(entry)}")
        walls: list[tuple[int, ...]] = [(), (), ()]
        for b, cells in r.by(entry.get("walls", {}), f"{where}.walls", "[cells]", "board").items():
            if not isinstance(cells, list):
                raise ValueError(f"{where}.walls.{p.board_names[b]} must be a list of cells, not {_shown(cells)}")
            found = [r.cell(b, c, f"{where}.walls.{p.board_names[b]}") for c in cells]
            if len(set(found)) != len(found):
                raise ValueError(f"{where}.walls.{p.board_names[b]}: a cell is listed twice (rule B.1 §9.1)")
            walls[b] = tuple(sorted(found))
        directions = [((-1,) * phases,) * count for _ in range(3)]
        for b, lists in r.by(entry.get("directions", {}), f"{where}.directions", '["URD", "L.U", ...] per piece',
                             "board").items():
            w = f"{where}.directions.{p.board_names[b]}"
            if not isinstance(lists, list) or len(lists) != count or any(
                    not isinstance(x, str) or len(x) != phases or set(x) - set(LETTERS + NO_DIRECTION)
                    for x in lists):
                raise ValueError(f"{w} must give each of the {count} piece(s) a text of {phases} letters: "
                                 f"U, R, D, L or '.' (none), not {_shown(lists)}")
            directions[b] = tuple(tuple(LETTERS.index(ch) if ch != NO_DIRECTION else -1 for ch in x)
                                  for x in lists)
        garnet = [False, False, False]
        chosen = entry.get("garnet", [])
        if not isinstance(chosen, list):
            raise ValueError(f"{where}.garnet must list board names, not {_shown(chosen)}")
        for name in chosen:
            garnet[r.index(name, f"{where}.garnet", "board")] = True
        submitted = entry.get("submitted", False)
        if not isinstance(submitted, bool):
            raise ValueError(f"{where}.submitted must be true or false, not {_shown(submitted)}")
        order = Order(tuple(walls), tuple(directions), tuple(garnet), submitted)
        if not submitted and order.is_empty():
            continue
        orders[s] = order
    return tuple(orders)
