"""Corner Rush's board: the tiles, the hole, the start places and Ace tiles, and exact-length walks.

Tiles are numbered ``row * size + col`` (bit ``i`` of a tile mask) and named
chess-style, ``a1`` the bottom-left tile; the board is drawn with row 1 at the
bottom, so seat 0 starts top-left (``a5``) and the seats go clockwise.

>>> b = board(5, True, "corners", "opposite", 4)
>>> [b.label(i) for i in b.starts], [b.label(i) for i in b.aces], b.label(b.hole)
(['a5', 'e5', 'e1', 'a1'], ['e1', 'a1', 'a5', 'e5'], 'c3')
>>> b.index("c3"), b.index("z9"), b.index(3)
(12, -1, -1)
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ...geometry import bit_grid, bits

__all__ = ["Board", "board"]

#: which of the four start places (clockwise from top-left) each player count uses
PLACES = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}


class Board:
    """The fixed geometry of one parameter set (built once per set, shared by every state)."""

    def __init__(self, size: int, center_hole: bool, start_cells: str, goal_cells: str, players: int):
        g = self.grid = bit_grid(size, size)
        self.size = size
        self.tiles = size * size
        self.all = g.all
        top, mid = size - 1, size // 2
        self.hole = g.index((mid, mid)) if center_hole else -1
        self.hole_mask = 1 << self.hole if center_hole else 0
        if start_cells == "corners":   # clockwise as drawn (row 1 at the bottom): top-left first
            places = [(0, top), (top, top), (top, 0), (0, 0)]
        else:
            places = [(mid, top), (top, mid), (mid, 0), (0, mid)]
        used = PLACES[players]
        self.starts = tuple(g.index(places[k]) for k in used)
        if goal_cells == "opposite":
            self.aces = tuple(g.index((top - places[k][0], top - places[k][1])) for k in used)
        else:
            self.aces = tuple(g.index(places[(k + 1) % 4]) for k in used)
        self.ace_mask = sum(1 << a for a in self.aces)
        self.labels = g.labels
        self.tile_of = {label: i for i, label in enumerate(self.labels)}   #: each tile by its name
        self.adj4 = g.adj4
        self.adj8 = g.adj8
        self.touch4 = g.touch4

    def label(self, i: int) -> str:
        """Tile ``i`` written chess-style (``a1``)."""
        return self.labels[i]

    def index(self, label: Any) -> int:
        """The tile named ``label`` (``"c3"``), or -1 when it is not a tile of this board."""
        return self.tile_of.get(label, -1) if isinstance(label, str) else -1

    def labels_of(self, mask: int) -> list[str]:
        """The tiles of a mask, by name, in index order."""
        return [self.labels[i] for i in bits(mask)]

    def exact_walks(self, walk: int, end: int, win: int, k: int, may_stop: bool) -> list[int]:
        """``f[j]``: the tiles a pawn may step onto with ``j`` more steps to take after that step and still
        finish its move legally, for ``j`` from 0 to ``k - 1``.

        ``walk`` are the tiles it may cross, ``end`` those it may end on, ``win`` its own Ace when
        entering it wins at once (then the rest of the move is dropped). With ``may_stop`` the move may
        end early on any ``end`` tile. Revisits are allowed (a walk, not a path).

        >>> b = board(5, True, "corners", "opposite", 4)
        >>> f = b.exact_walks(b.all & ~b.hole_mask, b.all & ~b.hole_mask, 0, 2, False)
        >>> b.labels_of(f[1] & b.adj4[b.index("b3")])     # from b3, a first step that can take a second
        ['b2', 'a3', 'b4']
        """
        f = [0] * k
        if k <= 0:
            return f
        layer = end | win
        f[0] = layer
        stop = end if may_stop else 0
        touch4 = self.touch4
        for j in range(1, k):
            layer = win | stop | (walk & touch4(layer))
            f[j] = layer
        return f


@lru_cache(maxsize=64)
def board(size: int, center_hole: bool, start_cells: str, goal_cells: str, players: int) -> Board:
    """The :class:`Board` of these setup parameters, built once."""
    return Board(size, center_hole, start_cells, goal_cells, players)
