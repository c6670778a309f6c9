"""Then There Was One's board tables for one size: the goal row, the start zone, start circles and jump geometry.

The grid itself (cells and edges as bits, reach, breadth-first layers, labels)
is a :class:`playtest.geometry.BitGrid`; this adds what the rules name: row 0 is
the token start row, the last row the goal row, and the first
``start_zone_rows`` rows lie behind the black line.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ...geometry import BitGrid, bits

__all__ = ["Board", "board"]


class Board(BitGrid):
    """A :class:`~playtest.geometry.BitGrid` with Then There Was One's rows and jump tables.

    >>> b = board(10, 14, 2, ())
    >>> b.label(b.index((3, 13))), bool(b.goal >> b.index((3, 13)) & 1), bool(b.zone >> 15 & 1)
    ('d14', True, True)
    >>> [b.label(i) for i, _ in b.ortho[b.index((0, 0))]]   # north (towards the goal) first
    ['a2', 'b1']
    """

    def __init__(self, cols: int, rows: int, zone_rows: int, start_cols: tuple):
        super().__init__(cols, rows)
        self._key = (cols, rows, zone_rows, start_cols)
        size = self.size
        #: rows behind the black line (the start zone)
        self.zone_rows = zone_rows
        #: the goal row, the start zone, row 0 and the first row in front of the black line (cell masks)
        self.goal = self.all & ~((1 << (size - cols)) - 1)
        self.zone = (1 << (zone_rows * cols)) - 1
        self.row0 = (1 << cols) - 1
        self.front_row = self.row0 << (zone_rows * cols)
        #: columns of row 0 with a start circle, and the same as a cell mask
        self.start = tuple(sorted(start_cols)) if start_cols else tuple(range(cols))
        self.start_mask = sum(1 << c for c in self.start)
        #: the edges that touch a start-zone tile
        self.zone_edges = 0
        for i in bits(self.zone):
            self.zone_edges |= self.cell_edges[i]
        #: per cell: ``(neighbour, edge bit)`` for each orthogonal neighbour, north (towards the goal) first
        self.ortho = tuple(self._steps(i) for i in range(size))
        #: per cell: ``(d, b, c, side_b, side_c, corner)`` for each diagonal neighbour ``d``: the tiles ``b``
        #: (in d's column) and ``c`` (in d's row) beside the jump, the edges closing each side, and both sides'
        #: edges (those that end at the corner point)
        self.diag = tuple(self._jumps(i) for i in range(size))
        self._runs: dict[tuple[bool, int], tuple[tuple[tuple[tuple[int, int], ...], ...], ...]] = {}

    def __repr__(self) -> str:
        return f"Board({self.cols}, {self.rows}, {self.zone_rows}, {self.start})"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as its size: a pickled game carries no tables, and is given the one board of its size.

        >>> import pickle
        >>> pickle.loads(pickle.dumps(board(10, 14, 2, ()))) is board(10, 14, 2, ())
        True
        """
        return board, self._key

    def runs(self, goal_on_entry: bool, longest: int) -> tuple[tuple[tuple[tuple[int, int], ...], ...], ...]:
        """``runs(goal_on_entry, longest)[cell][k]``: the straight runs of ``k`` (up to ``longest``) orthogonal
        steps from ``cell`` that stay on the board, as ``(tiles entered, edges crossed)`` masks, one per
        direction; with ``goal_on_entry`` a run that enters the goal row stops there (a token that enters it
        is done). Made once per board.

        >>> b = board(4, 5, 1, ())
        >>> [[b.label(i) for i in bits(tiles)] for tiles, _ in b.runs(True, 6)[b.index((1, 2))][2]]
        [['b4', 'b5'], ['c3', 'd3'], ['b1', 'b2']]
        >>> [[b.label(i) for i in bits(tiles)] for tiles, _ in b.runs(True, 6)[b.index((1, 3))][2]]   # b5 is the goal
        [['b5'], ['c4', 'd4'], ['b2', 'b3']]
        """
        made = self._runs.get((goal_on_entry, longest))
        if made is None:
            table = []
            for i in range(self.size):
                c, r = self.cell(i)
                by_length: list[tuple[tuple[int, int], ...]] = [()]
                for k in range(1, longest + 1):
                    runs = []
                    for dc, dr in ((0, 1), (1, 0), (-1, 0), (0, -1)):
                        tiles = edges = 0
                        at = i
                        for step in range(1, k + 1):
                            if not self.inside((c + dc * step, r + dr * step)):
                                break
                            nxt = at + dc + dr * self.cols
                            tiles |= 1 << nxt
                            edges |= 1 << self.edge_bit(at, nxt)
                            at = nxt
                            if goal_on_entry and self.goal >> nxt & 1:
                                break
                        else:
                            runs.append((tiles, edges))
                            continue
                        if goal_on_entry and self.goal >> at & 1 and at != i:
                            runs.append((tiles, edges))
                    by_length.append(tuple(runs))
                table.append(tuple(by_length))
            made = self._runs[(goal_on_entry, longest)] = tuple(table)
        return made

    def _steps(self, i: int) -> tuple:
        c, r = self.cell(i)
        return tuple((i + dc + dr * self.cols, 1 << self.edge_bit(i, i + dc + dr * self.cols))
                     for dc, dr in ((0, 1), (1, 0), (-1, 0), (0, -1)) if self.inside((c + dc, r + dr)))

    def _jumps(self, i: int) -> tuple:
        c, r = self.cell(i)
        jumps = []
        for dc, dr in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
            if self.inside((c + dc, r + dr)):
                d = i + dc + dr * self.cols
                b = i + dc                  # the tile beside the jump, in d's column
                cc = i + dr * self.cols     # the tile beside the jump, in d's row
                side_b = (1 << self.edge_bit(i, b)) | (1 << self.edge_bit(b, d))
                side_c = (1 << self.edge_bit(i, cc)) | (1 << self.edge_bit(cc, d))
                jumps.append((d, b, cc, side_b, side_c, side_b | side_c))
        return tuple(jumps)


@lru_cache(maxsize=32)
def board(cols: int, rows: int, zone_rows: int, start_cols: tuple) -> Board:
    """The :class:`Board` of one size, built once (states keep this key, not the tables)."""
    return Board(cols, rows, zone_rows, start_cols)
