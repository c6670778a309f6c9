"""A position of Back to the Wall: the :class:`State` value, its orders, and its JSON form both ways.

``State.to_json`` writes the hand-writable form of the package docstring;
:func:`read_position` reads it back (``game.state_from_json``), checking every
field with a :class:`playtest.position.PositionReader` and refusing positions
the rules could not reach, with a message that names the field.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from ...geometry import bits
from ...position import PositionReader
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


class Order(NamedTuple):
    """One seat's order for the round: its parts, and whether it is submitted.

    ``walls[b]`` is a sorted tuple of cell indices of board ``b``;
    ``directions[b][k][p]`` the direction (0 up, 1 right, 2 down, 3 left; -1 none)
    of piece ``k`` on board ``b`` in phase ``p + 1``; ``garnet[b]`` the secret
    garnet-bonus flag of board ``b``.
    """

    walls: tuple
    directions: tuple
    garnet: tuple
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


class State(NamedTuple):
    """A position (an immutable value; its JSON form is in the package docstring).

    Per board ``b``: ``walls[b]`` is a cell mask, ``owned[b][seat]`` the cells
    that seat owns, ``pieces[b][seat]`` its pieces' cells (in the order they
    were placed). ``orders[seat]`` is the seat's order this round (``None``:
    nothing set). ``flags[seat][b]`` holds the rounds in which the seat used its
    secret garnet bonus on board ``b``; ``placed[seat][b][r - 1]`` the walls it
    placed there in round ``r``. ``last`` is the last round's wall results, as
    ``(board, cell, seats, result)``. ``rules`` are the parameters in force.
    """

    phase: str
    round: int
    walls: tuple
    owned: tuple
    pieces: tuple
    orders: tuple
    flags: tuple
    placed: tuple
    last: tuple
    rules: BackToTheWallParams

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

class _Reader(PositionReader):
    """The shared field reader, plus this game's boards, seats and cells."""

    __slots__ = ("p", "names", "tables")

    def __init__(self, game: BackToTheWall, data: Any):
        super().__init__("Back to the Wall", data, FIELDS, "'round', 'boards', 'orders', ... (see the module "
                         "docstring of playtest.games.back_to_the_wall)")
        self.p = game.params
        self.names = seat_names(self.p)
        self.tables = [board_tables(self.p, b) for b in range(3)]

    def seat(self, key: Any, where: str) -> int:
        if key not in self.names:
            raise ValueError(f"{where}: {key!r} is not a seat; the seats are {', '.join(self.names)}")
        return self.names.index(key)

    def board(self, key: Any, where: str) -> int:
        names = self.p.board_names
        if key not in names:
            raise ValueError(f"{where}: {key!r} is not a board; the boards are {', '.join(names)}")
        return names.index(key)

    def cell(self, b: int, value: Any, where: str) -> int:
        cell = self.tables[b].cell_of(value)
        if cell is None:
            t = self.tables[b]
            raise ValueError(f"{where}: {value!r} is not a cell of {t.name} (a1 to "
                             f"{t.label(t.size - 1)}, or [col, row])")
        return cell

    def per_seat(self, key: str, what: str) -> dict[int, Any]:
        """Field ``key``, an object by seat name, as ``{seat: value}``."""
        return self.per_seat_in(self.data.get(key, {}), key, what)

    def per_seat_in(self, value: Any, where: str, what: str) -> dict[int, Any]:
        if not isinstance(value, dict):
            raise ValueError(f"{where} must be an object by seat name ({', '.join(self.names)}): {what}")
        return {self.seat(k, where): v for k, v in value.items()}

    def per_board(self, value: Any, where: str, what: str) -> dict[int, Any]:
        if not isinstance(value, dict):
            raise ValueError(f"{where} must be an object by board name ({', '.join(self.p.board_names)}): {what}")
        return {self.board(k, where): v for k, v in value.items()}


def read_position(game: BackToTheWall, data: Any) -> State:
    """The :class:`State` a JSON position describes; ``ValueError`` naming the field otherwise."""
    r = _Reader(game, data)
    p, names, tables = r.p, r.names, r.tables
    n = p.num_players
    phase = r.choice("phase", "orders", PHASES, "one of")
    rnd = r.integer("round", p.rounds if phase != "orders" else 1, 1, p.rounds)
    if phase == "garnets" and (p.garnet_decision_time != "at_end" or not p.garnet_bonus_enabled):
        raise ValueError('phase "garnets" (the garnet bonus chosen after the last round) needs '
                         'garnet_decision_time = "at_end" and garnet_bonus_enabled')
    if phase != "orders" and rnd != p.rounds:
        raise ValueError(f"phase {phase!r} comes after the last round: round must be {p.rounds}")
    count = pieces_in_round(p, rnd)
    boards = r.per_board(r.get("boards", {}), "boards", '{"rows": [...], "pieces": {...}}')
    walls, owned, pieces = [], [], []
    for b, t in enumerate(tables):
        entry = boards.get(b, {})
        where = f"boards.{p.board_names[b]}"
        if not isinstance(entry, dict) or set(entry) - {"rows", "pieces"}:
            raise ValueError(f"{where} must be an object with rows and pieces")
        wall, own = _read_rows(r, b, entry.get("rows"), where)
        if wall & t.corner_mask:
            raise ValueError(f"{where}.rows: a corner cannot be a wall")
        if not t.corners_connected(wall, p.corner_rule):
            raise ValueError(f"{where}.rows: the walls cut a corner off ({p.corner_rule}, rule B.1 §9.3)")
        if p.wall_erases_ownership and any(m & wall for m in own):
            raise ValueError(f"{where}.rows: a wall cell cannot be owned (wall_erases_ownership)")
        given = r.per_seat_in(entry.get("pieces"), f"{where}.pieces", "lists of cells") \
            if "pieces" in entry else {}
        seats = []
        for s in range(n):
            if s in given:
                cells = given[s]
                if not isinstance(cells, list):
                    raise ValueError(f"{where}.pieces.{names[s]} must be a list of cells")
                cells = tuple(r.cell(b, c, f"{where}.pieces.{names[s]}") for c in cells)
            else:
                cells = (t.corners[t.corner_of[s]],) * count
            if len(cells) != count:
                raise ValueError(f"{where}.pieces.{names[s]}: {names[s]} has {count} piece(s) on each board in "
                                 f"round {rnd}, not {len(cells)} (pieces_initial, pieces_gain_per_round)")
            if any(wall >> c & 1 for c in cells):
                raise ValueError(f"{where}.pieces.{names[s]}: a piece cannot stand on a wall")
            seats.append(cells)
        walls.append(wall)
        owned.append(own)
        pieces.append(tuple(seats))
    flags = _read_flags(r, rnd, phase)
    placed = _read_placed(r, rnd, phase)
    state = State(phase, rnd, tuple(walls), tuple(owned), tuple(pieces), (None,) * n, flags, placed,
                  _read_last(r), p)
    orders = _read_orders(r, game, state)
    state = state._replace(orders=orders)
    if phase != "over" and all(o is not None and o.submitted for o in orders):
        raise ValueError("orders: when every seat has submitted, the round is resolved")
    if phase == "over" and any(o is not None for o in orders):
        raise ValueError("orders: the game is over, there are no orders")
    for s in range(n):
        problem = game.order_problem(state, s, orders[s])
        if problem:
            raise ValueError(f"orders.{names[s]}: {problem}")
    return state


def _read_rows(r: _Reader, b: int, rows: Any, where: str) -> tuple[int, tuple]:
    t = r.tables[b]
    letters = [name[0] for name in r.names]
    if rows is None:
        return t.preplaced, (0,) * len(letters)
    if not isinstance(rows, list) or len(rows) != t.rows or any(
            not isinstance(row, str) or len(row) != t.cols for row in rows):
        raise ValueError(f"{where}.rows must be {t.rows} text rows of {t.cols} characters: '.' unowned, '#' a "
                         f"wall, {'/'.join(letters)} the owner (lower case: an owned wall)")
    wall = 0
    own = [0] * len(letters)
    for row_no, row in enumerate(rows):
        for col, ch in enumerate(row):
            i = row_no * t.cols + col
            if ch == ".":
                continue
            if ch == "#":
                wall |= 1 << i
            elif ch in letters:
                own[letters.index(ch)] |= 1 << i
            elif ch.upper() in letters and ch.islower():
                own[letters.index(ch.upper())] |= 1 << i
                wall |= 1 << i
            else:
                raise ValueError(f"{where}.rows: {ch!r} at {t.label(i)} is not '.', '#' or a seat's initial "
                                 f"({'/'.join(letters)})")
    return wall, tuple(own)


def _read_flags(r: _Reader, rnd: int, phase: str) -> tuple:
    p = r.p
    flags = [[(), (), ()] for _ in r.names]
    done = rnd - 1 if phase == "orders" else p.rounds      # rounds whose flags are recorded
    for s, per in r.per_seat("flags", "{board: [rounds with the garnet bonus]}").items():
        for b, rounds in r.per_board(per, f"flags.{r.names[s]}", "[rounds]").items():
            where = f"flags.{r.names[s]}.{p.board_names[b]}"
            if not isinstance(rounds, list) or any(type(x) is not int or not 1 <= x <= done for x in rounds) \
                    or len(set(rounds)) != len(rounds):
                raise ValueError(f"{where} must list different rounds already played (1 to {done})")
            if len(rounds) > p.garnet_bonus_max_per_board:
                raise ValueError(f"{where}: at most garnet_bonus_max_per_board = "
                                 f"{p.garnet_bonus_max_per_board} bonus per board")
            flags[s][b] = tuple(sorted(rounds))
    for s, per in enumerate(flags):
        used = sum(len(x) for x in per) * p.garnet_bonus_cost
        if used > p.starting_garnets:
            raise ValueError(f"flags.{r.names[s]}: {used} garnets spent but only {p.starting_garnets} held")
        if used and not p.garnet_bonus_enabled:
            raise ValueError(f"flags.{r.names[s]}: the garnet bonus is off (garnet_bonus_enabled)")
    return tuple(tuple(per) for per in flags)


def _read_placed(r: _Reader, rnd: int, phase: str) -> tuple:
    p = r.p
    done = rnd - 1 if phase == "orders" else p.rounds
    placed = [[[0] * p.rounds for _ in range(3)] for _ in r.names]
    for s, per in r.per_seat("placed", "{board: [walls placed in each round]}").items():
        for b, counts in r.per_board(per, f"placed.{r.names[s]}", "[counts]").items():
            where = f"placed.{r.names[s]}.{p.board_names[b]}"
            if not isinstance(counts, list) or len(counts) != p.rounds or any(
                    type(x) is not int or x < 0 for x in counts):
                raise ValueError(f"{where} must list the walls placed in each of the {p.rounds} rounds")
            if any(counts[done:]):
                raise ValueError(f"{where}: no walls are placed in rounds not played yet")
            placed[s][b] = counts
    return tuple(tuple(tuple(c) for c in per) for per in placed)


def _read_last(r: _Reader) -> tuple:
    last = []
    for k, entry in enumerate(r.items("last", "wall results {board, cell, by, result}")):
        where = f"last[{k}]"
        if not isinstance(entry, dict) or set(entry) != {"board", "cell", "by", "result"}:
            raise ValueError(f"{where} must be an object with board, cell, by and result")
        b = r.board(entry["board"], where)
        cell = r.cell(b, entry["cell"], where)
        if not isinstance(entry["by"], list) or not entry["by"]:
            raise ValueError(f"{where}.by must list the seats that submitted the wall")
        seats = tuple(sorted({r.seat(x, where + ".by") for x in entry["by"]}))
        result = entry["result"]
        if not isinstance(result, str) or len(result) > 400:
            raise ValueError(f"{where}.result must be text (at most 400 characters)")
        last.append((b, cell, seats, result))
    return tuple(last)


def _read_orders(r: _Reader, game: BackToTheWall, state: State) -> tuple:
    p = r.p
    orders: list[Order | None] = [None] * len(r.names)
    count = pieces_in_round(p, state.round) if state.phase == "orders" else 0
    phases = p.directions_per_round
    for s, entry in r.per_seat("orders", "{walls, directions, garnet, submitted}").items():
        where = f"orders.{r.names[s]}"
        if entry is None:
            continue
        if not isinstance(entry, dict) or set(entry) - {"walls", "directions", "garnet", "submitted"}:
            raise ValueError(f"{where} must be null or an object with walls, directions, garnet and submitted")
        walls = [(), (), ()]
        for b, cells in r.per_board(entry.get("walls", {}), f"{where}.walls", "[cells]").items():
            if not isinstance(cells, list):
                raise ValueError(f"{where}.walls.{p.board_names[b]} must be a list of cells")
            found = [r.cell(b, c, f"{where}.walls.{p.board_names[b]}") for c in cells]
            if len(set(found)) != len(found):
                raise ValueError(f"{where}.walls.{p.board_names[b]}: a cell is listed twice (rule B.1 §9.1)")
            walls[b] = tuple(sorted(found))
        directions = [((-1,) * phases,) * count for _ in range(3)]
        for b, lists in r.per_board(entry.get("directions", {}), f"{where}.directions",
                                    '["URD", "L.U", ...] per piece').items():
            w = f"{where}.directions.{p.board_names[b]}"
            if not isinstance(lists, list) or len(lists) != count or any(
                    not isinstance(x, str) or len(x) != phases or set(x) - set(LETTERS + NO_DIRECTION)
                    for x in lists):
                raise ValueError(f"{w} must give each of the {count} piece(s) a text of {phases} letters: "
                                 f"U, R, D, L or '.' (none)")
            directions[b] = tuple(tuple(LETTERS.index(ch) if ch != NO_DIRECTION else -1 for ch in x)
                                  for x in lists)
        garnet = [False, False, False]
        chosen = entry.get("garnet", [])
        if not isinstance(chosen, list):
            raise ValueError(f"{where}.garnet must list board names")
        for name in chosen:
            garnet[r.board(name, f"{where}.garnet")] = True
        submitted = entry.get("submitted", False)
        if not isinstance(submitted, bool):
            raise ValueError(f"{where}.submitted must be true or false")
        order = Order(tuple(walls), tuple(directions), tuple(garnet), submitted)
        if not submitted and order.is_empty():
            continue
        orders[s] = order
    return tuple(orders)
