"""The three boards' tables: cells, corners and who sits in each, pre-placed walls, slides, connectivity.

Each board is a :class:`playtest.geometry.BitGrid` (cell ``index = row * cols +
col``, sets of cells as bit masks) with what Back to the Wall adds: the four
corners (clockwise from the top left) and the seat in each, the pre-placed
walls, the next cell in each direction, and the corner rule.

>>> from .params import BackToTheWallParams
>>> once = board_tables(BackToTheWallParams(), 0)
>>> [once.label(c) for c in once.corners], once.seat_at_corner
(['a1', 'h1', 'h8', 'a8'], (0, 1, 2, 3))
>>> [once.label(i) for i in once.slide(once.index((0, 3)), 1, once.preplaced)]   # right from a4, to the wall c4
['b4']
>>> once.cell_of("c4"), once.cell_of([2, 3]), once.cell_of("z9")
(26, 26, None)
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ...geometry import BitGrid, bit_grid, bits
from .params import STEPS, BackToTheWallParams

__all__ = ["BoardTables", "board_tables"]


class BoardTables:
    """One board's fixed tables (built once per parameter set and board)."""

    __slots__ = ("name", "grid", "cols", "rows", "size", "all", "corners", "corner_mask", "seat_at_corner",
                 "corner_of", "preplaced", "nxt", "adj4", "adj8", "labels", "_slides")

    def __init__(self, name: str, cols: int, rows: int, preplaced: tuple[tuple[int, int], ...],
                 corner_seats: tuple[int, ...], players: int):
        self.name = name
        grid: BitGrid = bit_grid(cols, rows)
        self.grid = grid
        self.cols, self.rows, self.size, self.all = cols, rows, grid.size, grid.all
        #: corner cells clockwise from the top left (TL, TR, BR, BL)
        self.corners = grid.corners
        self.corner_mask = sum(1 << c for c in self.corners)
        #: the seat in each corner (-1: empty); ``corner_of[seat]`` is the corner's position 0..3
        self.seat_at_corner = tuple(s if 0 <= s < players else -1 for s in corner_seats)
        self.corner_of = tuple(self.seat_at_corner.index(s) for s in range(players))
        self.preplaced = sum(1 << grid.index(c) for c in preplaced)
        #: ``nxt[d][cell]``: the neighbouring cell in direction ``d``, or -1 off the board
        self.nxt = tuple(tuple(grid.index((c + dc, r + dr)) if grid.inside((c + dc, r + dr)) else -1
                               for r in range(rows) for c in range(cols)) for dc, dr in STEPS)
        self.adj4, self.adj8 = grid.adj4, grid.adj8
        self.labels = grid.labels
        self._slides: dict[int, _SlideTable] = {}

    def __repr__(self) -> str:
        return f"BoardTables({self.name!r}, {self.cols} x {self.rows})"

    def index(self, cell: tuple[int, int]) -> int:
        return cell[1] * self.cols + cell[0]

    def cell(self, index: int) -> tuple[int, int]:
        return (index % self.cols, index // self.cols)

    def label(self, index: int) -> str:
        """Cell ``index`` as the board's coordinates show it: column letter, row from the top (``a1``)."""
        return self.labels[index]

    def cell_of(self, value: Any) -> int | None:
        """The index of a cell written ``"c4"`` or ``[2, 3]`` (``None`` when it is not on this board)."""
        if isinstance(value, str):
            text = value.strip().lower()
            if len(text) >= 2 and text[0].isalpha() and text[1:].isdigit():
                c, r = ord(text[0]) - ord("a"), int(text[1:]) - 1
                if 0 <= c < self.cols and 0 <= r < self.rows:
                    return r * self.cols + c
            return None
        if (isinstance(value, (list, tuple)) and len(value) == 2 and all(type(v) is int for v in value)
                and 0 <= value[0] < self.cols and 0 <= value[1] < self.rows):
            index: int = value[1] * self.cols + value[0]
            return index
        return None

    def slide(self, start: int, direction: int, walls: int) -> list[int]:
        """The cells a piece crosses sliding from ``start`` in ``direction`` until a wall or the border."""
        nxt = self.nxt[direction]
        path = []
        cell = nxt[start]
        while cell >= 0 and not walls >> cell & 1:
            path.append(cell)
            cell = nxt[cell]
        return path

    def slides(self, walls: int) -> dict[int, tuple[tuple[int, ...], int]]:
        """For ``walls``: ``slides(walls)[start * 4 + direction]`` is ``(cells, mask)`` of that slide, filled in
        as asked (kept for the last few wall masks: a round, and the bots' trials, reuse them)."""
        table = self._slides.get(walls)
        if table is None:
            if len(self._slides) >= 48:
                self._slides.clear()
            table = self._slides[walls] = _SlideTable(self, walls)
        return table

    def cut_off(self, walls: int, rule: str) -> list[int]:
        """The corners (cells) that ``walls`` cut off: from every other corner (``each_reaches_one``),
        or from some other corner (``all_pairs``). Corners are never walls; pieces are ignored."""
        free = self.all & ~walls
        flood = self.grid.flood
        cut = []
        for corner in self.corners:
            reach = flood(1 << corner, free) & self.corner_mask
            if rule == "all_pairs":
                if reach != self.corner_mask:
                    cut.append(corner)
            elif reach == 1 << corner:
                cut.append(corner)
        return cut

    def corners_connected(self, walls: int, rule: str) -> bool:
        """Whether ``walls`` keep the corner rule (B.1 §9.3)."""
        free = self.all & ~walls
        flood = self.grid.flood
        if rule == "all_pairs":
            return flood(1 << self.corners[0], free) & self.corner_mask == self.corner_mask
        seen = 0
        for corner in self.corners:
            if seen >> corner & 1:
                continue
            reach = flood(1 << corner, free) & self.corner_mask
            if reach == 1 << corner:
                return False
            seen |= reach
        return True

    def cells(self, mask: int) -> list[str]:
        """The labels of the cells of ``mask``, in index order."""
        return [self.labels[i] for i in bits(mask)]


class _SlideTable(dict[int, tuple[tuple[int, ...], int]]):
    """Slides for one wall mask, computed on first use (a dict keyed ``start * 4 + direction``)."""

    __slots__ = ("tables", "walls")

    def __init__(self, tables: BoardTables, walls: int):
        super().__init__()
        self.tables, self.walls = tables, walls

    def __missing__(self, key: int) -> tuple[tuple[int, ...], int]:
        path = tuple(self.tables.slide(key >> 2, key & 3, self.walls))
        mask = 0
        for c in path:
            mask |= 1 << c
        self[key] = value = (path, mask)
        return value


@lru_cache(maxsize=64)
def _tables(name: str, cols: int, rows: int, preplaced: tuple[tuple[int, int], ...], corners: tuple[int, ...],
            players: int) -> BoardTables:
    return BoardTables(name, cols, rows, preplaced, corners, players)


def board_tables(params: BackToTheWallParams, k: int) -> BoardTables:
    """The tables of board ``k`` (0 = the first, smallest board) for ``params`` (built once)."""
    cols, rows = params.board_sizes[k]
    return _tables(params.board_names[k], cols, rows, tuple(params.preplaced_walls[k]),
                   tuple(params.corner_assignment[k]), params.num_players)
