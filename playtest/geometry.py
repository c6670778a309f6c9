"""Board geometry shared by games: square grids, the edges between cells, corner points.

Cells are ``(col, row)`` tuples, also numbered ``index = row * cols + col``
for fast tables. An *edge* is the side shared by two orthogonally adjacent
cells, written as the sorted pair of their indices. A *corner point* is a
lattice point ``(x, y)`` with ``0 <= x <= cols``, ``0 <= y <= rows``; cell
``(c, r)`` has corners ``(c, r)``, ``(c+1, r)``, ``(c, r+1)``, ``(c+1, r+1)``.

>>> g = Grid(3, 2)
>>> g.index((2, 1))
5
>>> g.cell(5)
(2, 1)
>>> sorted(g.cell(i) for i in g.neighbours[g.index((0, 0))])
[(0, 1), (1, 0)]
>>> g.edge((0, 0), (1, 0))
(0, 1)
>>> g.edges_at_point((1, 1))            # the four edges that end at an inner point
[(0, 1), (0, 3), (1, 4), (3, 4)]
"""

from __future__ import annotations

from functools import cached_property
from typing import Iterable

__all__ = ["Grid", "ORTHOGONAL", "DIAGONAL"]

ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))

Cell = tuple[int, int]
Edge = tuple[int, int]


class Grid:
    """A ``cols`` x ``rows`` grid of cells (or of intersection points) with precomputed tables."""

    __slots__ = ("cols", "rows", "size", "neighbours", "__dict__")

    def __init__(self, cols: int, rows: int):
        if cols < 1 or rows < 1:
            raise ValueError("a grid needs at least one column and one row")
        self.cols = cols
        self.rows = rows
        self.size = cols * rows
        #: orthogonal neighbour indices of every cell index
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.index((c + dc, r + dr)) for dc, dr in ORTHOGONAL if self.inside((c + dc, r + dr)))
            for r in range(rows) for c in range(cols))

    def __repr__(self) -> str:
        return f"Grid({self.cols}, {self.rows})"

    def inside(self, cell: Cell) -> bool:
        c, r = cell
        return 0 <= c < self.cols and 0 <= r < self.rows

    def index(self, cell: Cell) -> int:
        return cell[1] * self.cols + cell[0]

    def cell(self, index: int) -> Cell:
        r, c = divmod(index, self.cols)
        return (c, r)

    def cells(self) -> Iterable[Cell]:
        return ((c, r) for r in range(self.rows) for c in range(self.cols))

    def edge(self, a: Cell, b: Cell) -> Edge:
        """The edge between orthogonally adjacent cells ``a`` and ``b`` (``ValueError`` otherwise)."""
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1 or not self.inside(a) or not self.inside(b):
            raise ValueError(f"cells {a} and {b} are not orthogonally adjacent cells of the board")
        i, j = self.index(a), self.index(b)
        return (i, j) if i < j else (j, i)

    def edge_cells(self, edge: Edge) -> tuple[Cell, Cell]:
        return self.cell(edge[0]), self.cell(edge[1])

    @cached_property
    def all_edges(self) -> tuple[Edge, ...]:
        """Every inner edge, in index order."""
        return tuple(sorted({(min(i, j), max(i, j)) for i in range(self.size) for j in self.neighbours[i]}))

    def edges_of_cell(self, cell: Cell) -> list[Edge]:
        """The inner edges around ``cell`` (2 to 4)."""
        i = self.index(cell)
        return sorted((min(i, j), max(i, j)) for j in self.neighbours[i])

    def edges_at_point(self, point: tuple[int, int]) -> list[Edge]:
        """The inner edges that end at corner point ``(x, y)`` (0 to 4)."""
        x, y = point
        edges = set()
        # vertical edges (between (x-1, r) and (x, r)) for r = y-1, y; horizontal ones likewise
        for r in (y - 1, y):
            a, b = (x - 1, r), (x, r)
            if self.inside(a) and self.inside(b):
                edges.add(self.edge(a, b))
        for c in (x - 1, x):
            a, b = (c, y - 1), (c, y)
            if self.inside(a) and self.inside(b):
                edges.add(self.edge(a, b))
        return sorted(edges)

    def shared_point(self, a: Cell, d: Cell) -> tuple[int, int]:
        """The corner point shared by two diagonal neighbours ``a`` and ``d``."""
        if abs(a[0] - d[0]) != 1 or abs(a[1] - d[1]) != 1:
            raise ValueError(f"cells {a} and {d} are not diagonal neighbours")
        return (max(a[0], d[0]), max(a[1], d[1]))
