"""Board geometry shared by games: square grids, the edges between cells, corner points, bit boards.

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

A :class:`BitGrid` is the same grid with sets of cells (and of edges) as
Python ints used as bit masks, so that a flood fill or a breadth-first search
is a few shifts per step: see its docstring.
"""

from __future__ import annotations

from functools import cached_property, lru_cache
from itertools import compress
from typing import Iterable, Sequence, TypeVar

__all__ = ["Grid", "BitGrid", "bit_grid", "bits", "select", "popcount", "ORTHOGONAL", "DIAGONAL", "FAR"]

ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))

Cell = tuple[int, int]
T = TypeVar("T")
Edge = tuple[int, int]

#: the distance :meth:`BitGrid.distances` gives a cell that cannot be reached
FAR = 10 ** 6
#: column letters of cell labels (``a1``): a labelled grid has at most 26 columns
LETTERS = "abcdefghijklmnopqrstuvwxyz"


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


# --------------------------------------------------------------------------- bit boards

#: ``bin(mask)``'s digits as selector bytes (``"0"`` -> 0, ``"1"`` -> 1) for :func:`select`
_DIGITS = bytes.maketrans(b"01", b"\x00\x01")
#: the numbers :func:`bits` selects from a dense mask (a longer mask takes a range of its own)
_NUMBERS = range(1 << 12)


def select(items: Sequence[T], mask: int) -> list[T]:
    """The items at the set bits of ``mask``, lowest bit first: ``[items[i] for i in bits(mask)]``
    without a Python step per bit (the mask's binary digits select the items in C), so a game can
    keep one prebuilt object per cell or edge and list the ones a mask holds. ``mask`` may not
    reach past ``items`` (``ValueError``).

    >>> select("abcdef", 0b10110)
    ['b', 'c', 'e']
    >>> select(["x"], 0b10)
    Traceback (most recent call last):
    ...
    ValueError: mask 0b10 has bits past the 1 items to select from
    """
    if mask < 0 or mask.bit_length() > len(items):
        raise ValueError(f"mask {bin(mask)[:40]} has bits past the {len(items)} items to select from")
    return list(compress(items, bin(mask)[:1:-1].encode().translate(_DIGITS)))


def bits(mask: int) -> list[int]:
    """The numbers of the set bits of ``mask``, lowest first (a non-negative mask).

    A sparse mask is read bit by bit; a dense one (a wall turn's buildable edges) by
    :func:`select` over the bit numbers, in C.

    >>> bits(0b10110)
    [1, 2, 4]
    >>> bits((1 << 70) - 1) == list(range(70)), bits(0)
    (True, [])
    """
    if mask < 0:
        raise ValueError(f"a bit mask is not negative, got {mask}")
    count = mask.bit_count()
    if count > 8 and count * 32 > mask.bit_length():
        numbers = _NUMBERS if mask.bit_length() <= len(_NUMBERS) else range(mask.bit_length())
        return list(compress(numbers, bin(mask)[:1:-1].encode().translate(_DIGITS)))
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


#: how many bits of a mask are set: ``popcount(0b1011) == 3`` (``int.bit_count`` itself, so no call overhead)
popcount = int.bit_count


class BitGrid(Grid):
    """A :class:`Grid` whose sets of cells and of edges are Python ints used as bit masks.

    Cell ``index = row * cols + col`` is bit ``index`` of a cell mask. Edges
    are bits of an edge mask: the edge *east* of cell ``i`` (between ``i`` and
    ``i + 1``) is bit ``i``; the edge *north* of ``i`` (between ``i`` and
    ``i + cols``, the next row) is bit ``size + i``. Flood fills, reach and
    breadth-first layers work on whole masks, a few shifts per step.

    >>> g = BitGrid(4, 3)
    >>> g.label(g.index((1, 2)))                 # column letter, row number from 1
    'b3'
    >>> [g.label(i) for i in bits(g.adj4[g.index((0, 0))])]
    ['b1', 'a2']
    >>> g.edge_label(g.edge_bit(0, 4))           # the edge between a1 and a2
    'a1|a2'
    >>> wall = sum(1 << g.edge_bit(g.index((1, r)), g.index((2, r))) for r in range(3))
    >>> [g.label(i) for i in bits(g.reach(1, g.all, wall))]     # a wall splits the grid in two
    ['a1', 'b1', 'a2', 'b2', 'a3', 'b3']
    >>> g.distances(1, g.all, wall)[g.index((1, 2))], g.distances(1, g.all, wall)[g.index((3, 0))] == FAR
    (3, True)
    >>> popcount(g.touch8(1 << g.index((1, 1))))
    8
    """

    def __init__(self, cols: int, rows: int):
        super().__init__(cols, rows)
        size = self.size
        self.all = (1 << size) - 1
        first_col = sum(1 << (r * cols) for r in range(rows))
        #: cells with a neighbour to the east (not in the last column), also the east edges' bits
        self.not_last_col = self.all & ~(first_col << (cols - 1))
        #: cells not in the first column
        self.not_first_col = self.all & ~first_col
        #: cells with a neighbour to the north (not in the last row); shifted by ``size``: the north edges
        self.not_last_row = (1 << (size - cols)) - 1
        #: every edge between two cells of the grid
        self.inner = self.not_last_col | (self.not_last_row << size)
        #: cells on the grid's boundary
        self.border = sum(1 << self.index(p) for p in self.cells()
                          if p[0] in (0, cols - 1) or p[1] in (0, rows - 1))
        #: the four corner cells, clockwise from cell 0 (``(0, 0)``, ``(cols-1, 0)``, the last, ``(0, rows-1)``)
        self.corners = (0, cols - 1, size - 1, size - cols)
        #: the king (8) neighbours of every cell, orthogonal ones first
        self.neighbours8: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.index((c + dc, r + dr)) for dc, dr in ORTHOGONAL + DIAGONAL if self.inside((c + dc, r + dr)))
            for r in range(rows) for c in range(cols))
        #: bit mask of the orthogonal (4) neighbours of every cell
        self.adj4 = tuple(sum(1 << j for j in nb) for nb in self.neighbours)
        #: bit mask of the king (8) neighbours of every cell
        self.adj8 = tuple(sum(1 << j for j in nb) for nb in self.neighbours8)
        #: edge mask of the (2 to 4) inner edges around every cell
        self.cell_edges = tuple(sum(1 << self.edge_bit(i, j) for j in nb) for i, nb in enumerate(self.neighbours))
        #: edge mask of the inner edges that end at any of the four corner points of every cell
        self.corner_edges = tuple(self._corner_edges((c, r)) for r in range(rows) for c in range(cols))
        #: the bit numbers of the inner edges, in order
        self.edge_ids = tuple(bits(self.inner))

    def __repr__(self) -> str:
        return f"BitGrid({self.cols}, {self.rows})"

    def _corner_edges(self, cell: Cell) -> int:
        c, r = cell
        mask = 0
        for point in ((c, r), (c + 1, r), (c, r + 1), (c + 1, r + 1)):
            for i, j in self.edges_at_point(point):
                mask |= 1 << self.edge_bit(i, j)
        return mask

    # ---- names and edges
    def label(self, i: int) -> str:
        """Cell ``i`` written chess-style: its column letter and its row counted from 1 (``a1`` is cell 0)."""
        return f"{LETTERS[i % self.cols]}{i // self.cols + 1}"

    @cached_property
    def labels(self) -> tuple[str, ...]:
        """The :meth:`label` of every cell, by index."""
        return tuple(self.label(i) for i in range(self.size))

    def edge_bit(self, i: int, j: int) -> int:
        """The bit of the edge between orthogonally adjacent cells ``i`` and ``j`` (indices)."""
        if i > j:
            i, j = j, i
        return i if j == i + 1 else self.size + i

    def edge_ends(self, e: int) -> tuple[int, int]:
        """The two cell indices on either side of edge bit ``e``, lower first."""
        if e < self.size:
            return e, e + 1
        return e - self.size, e - self.size + self.cols

    def edge_label(self, e: int) -> str:
        """Edge bit ``e`` written ``a1|a2``."""
        i, j = self.edge_ends(e)
        return f"{self.label(i)}|{self.label(j)}"

    def adjacent(self, i: int, j: int) -> bool:
        """Whether cells ``i`` and ``j`` (indices) are orthogonal neighbours."""
        return bool(self.adj4[i] >> j & 1)

    # ---- whole-mask steps
    def touch4(self, m: int) -> int:
        """Cells with an orthogonal neighbour in ``m``."""
        n = self.cols
        return (((m << 1) & self.not_first_col) | ((m >> 1) & self.not_last_col) | (m << n) | (m >> n)) & self.all

    def touch8(self, m: int) -> int:
        """Cells with a king (8) neighbour in ``m``."""
        n, not_first, not_last = self.cols, self.not_first_col, self.not_last_col
        return (self.touch4(m) | ((m << (n + 1)) & not_first) | ((m >> (n - 1)) & not_first)
                | ((m << (n - 1)) & not_last) | ((m >> (n + 1)) & not_last)) & self.all

    def flood(self, seeds: int, allowed: int) -> int:
        """The cells of ``allowed`` orthogonally connected to ``seeds`` through ``allowed`` (no walls)."""
        reach = frontier = seeds & allowed
        n, not_first, not_last = self.cols, self.not_first_col, self.not_last_col
        while frontier:
            grow = (((frontier << 1) & not_first) | ((frontier >> 1) & not_last)
                    | (frontier << n) | (frontier >> n)) & allowed & ~reach
            reach |= grow
            frontier = grow
        return reach

    def reach(self, seeds: int, free: int, walls: int) -> int:
        """Cells reachable from ``seeds`` by orthogonal steps through ``free`` cells, never across ``walls``
        (an edge mask)."""
        n = self.cols
        e_open, n_open = self._open(walls)
        reached = frontier = seeds & free
        while frontier:   # one breadth-first step: shift the frontier each way, through open edges only
            frontier = (((frontier & e_open) << 1) | ((frontier >> 1) & e_open)
                        | ((frontier & n_open) << n) | ((frontier >> n) & n_open)) & free & ~reached
            reached |= frontier
        return reached

    def layers(self, seeds: int, free: int, walls: int = 0) -> list[int]:
        """Breadth-first layers from ``seeds`` through ``free`` cells, not across ``walls``: layer ``k``
        holds the cells at distance ``k``."""
        n = self.cols
        e_open, n_open = self._open(walls)
        reached = frontier = seeds & free
        out = []
        while frontier:   # reach's loop, keeping each frontier (inline, not shared: the bots call it a lot)
            out.append(frontier)
            frontier = (((frontier & e_open) << 1) | ((frontier >> 1) & e_open)
                        | ((frontier & n_open) << n) | ((frontier >> n) & n_open)) & free & ~reached
            reached |= frontier
        return out

    def distances(self, seeds: int, free: int, walls: int = 0) -> list[int]:
        """Steps from ``seeds`` to every cell, as :meth:`layers` counts them (:data:`FAR`: unreachable)."""
        dist = [FAR] * self.size
        for k, layer in enumerate(self.layers(seeds, free, walls)):
            for i in bits(layer):
                dist[i] = k
        return dist

    def _open(self, walls: int) -> tuple[int, int]:
        # cells whose east edge, and whose north edge, no wall closes
        return self.not_last_col & ~walls, self.not_last_row & ~(walls >> self.size)


@lru_cache(maxsize=64)
def bit_grid(cols: int, rows: int) -> BitGrid:
    """The :class:`BitGrid` of ``cols`` x ``rows``, built once per size (the tables are shared)."""
    return BitGrid(cols, rows)
