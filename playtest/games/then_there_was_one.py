"""Then There Was One (Global Game Jam 2011), for 3 to 5 players: one wall player against 2 to 4 tokens.

Rules: ``shared/rules/RULES.md`` section A, from the seed text. Seat 0 is the
wall (barrier) player; seats 1.. are the token players, one token each. The
tokens try to cross the board from row 0 to the goal row; the wall player
builds walls on the edges between tiles and buys obstacles to stop them, and
wins by trapping tokens into landing on a tile twice.

Coordinates
-----------
Tiles are ``[col, row]`` (0-based, as in JSON and in scene ids ``cell:c,r``);
row 0 is the token start row (drawn at the bottom), row ``board_length-1`` the
goal row. The move log writes tiles chess-style: ``a1`` is ``[0, 0]``, ``d5``
is ``[3, 4]``; ``d5|d6`` is the edge between two tiles. The *black line* runs
between row ``start_zone_rows-1`` and row ``start_zone_rows``.

How a game runs
---------------
1. **Setup scatter** (A.1 §9): a chance step (``to_move`` is ``CHANCE``) whose
   one outcome, :class:`Scatter`, lists every obstacle tile. It is drawn by
   :meth:`ThenThereWasOne.chance_outcome` as throws at a one-tile-wider area
   around the board: a throw off the board, behind the black line or onto an
   obstacle is thrown again; the whole scatter is redrawn if the goal row
   cannot be reached from row 0 (``ensure_path_after_setup``). A designer may
   force a scatter (``session.resolve_chance(Scatter(...))`` with
   ``auto_chance=False``, or by playing it), and it is validated by the same
   rules. With ``obstacle_setup = "players_place_in_turn"`` the players place
   the obstacles one at a time instead (:class:`PlaceObstacle`, seat order
   starting with the wall player, so 15 split as evenly as possible); with
   ``"fixed_layout"`` the tiles of ``obstacle_layout`` are used and there is no
   chance step.
2. **Start circles** (A.1 §10): each token player, in seat order, clicks the
   start circle of their token (:class:`Start`).
3. **Rounds** (A.1 §12): the wall player's turn, then each token in play in
   seat order (``wall_turns = "before_each_token"`` gives the wall player a
   turn before every token; ``token_turn_order = "team_chooses_order"`` lets
   the team pick the next token with :class:`Choose`, spoken by the
   lowest-numbered token player still to move).

A wall turn is a sequence of atomic actions ended by :class:`EndTurn`:
:class:`Build` (a wall segment on an edge, 1 point), :class:`Remove` (pick up a
standing wall, or take back one built this turn), :class:`Buy` (an obstacle,
``obstacle_cost`` points this turn only). A token turn is exactly
``move_length`` atomic :class:`Step` / :class:`Jump` actions (fewer if it
reaches the goal row); the last one ends the turn by itself.

Automatic events. When the turn passes to a token that has no clean path
(no self-avoiding path of ``move_length`` steps, nor a shorter one into the goal
row), it is eliminated at once (``eliminate_when_no_path``): this happens inside
the action that passed the turn (the wall player's end of turn, or the previous
token's last step), the token is listed in ``eliminated`` as ``"trapped"``, and
the move log says so ("… ; Blue ▲ trapped: eliminated"). A token that lands on
a tile twice is listed as ``"landed twice"``. While a clean path exists the
token must keep to one (``allow_voluntary_revisit = false``): the legal steps
are those after which a clean completion still exists. With
``eliminate_when_no_path = false`` a trapped token walks instead, until it lands
twice; a token that cannot step at all ends its turn where it stands.

Live parameter changes take effect at the start of the next turn: the state
keeps ``rules``, the parameters in force for the turn being played, so a
``wall_budget`` changed during the wall player's turn applies from its next turn
(and the board says so). Win thresholds and ``max_rounds`` apply at once.

Not offered: ``wall_unit = "straight_piece"`` (and so ``max_wall_length``, which
must stay 0 = null), ``walls_on_boundary = true``, ``board_edge_is_wall_for_jumps
= true`` (a diagonal between two tiles of the board always has both flanking
tiles on the board, so the board edge can never close a jump side) and
``tokens_per_player > 1`` (the seed gives no turn rule for several tokens).

Board and bots
--------------
``view`` draws the grid with row 0 at the bottom, the black line, the tinted
start zone and goal row, obstacles, tokens and walls (``"wall"`` for this
turn's, ``"old"`` for walls left standing). The wall player clicks an empty
edge slot to build, a wall to pick it up, and the obstacle supply beside the
board then a tile to buy; a token player clicks one of the lit tiles (a
diagonal one is a jump), and the other neighbours say why not.
:class:`GreedyTokenBot` and :class:`GreedyWallBot` play one side each:
``playtest.Table(session, bots={0: GreedyWallBot()})``.

Position JSON
-------------
``state.to_json()`` gives, and ``game.state_from_json`` reads (every field but
``tokens`` is optional)::

    {"board": [10, 14],                        # width, length (checked if given)
     "phase": "wall",                          # scatter|place|start|order|wall|token|over
     "to_move": 0,                             # seat: 0 the wall player, 1.. tokens
     "round": 1, "first_wall_turn": true,      # the black-line ban is on (default: true on
                                               # the wall player's turn in round 1)
     "obstacles": [[2, 3], [3, 4]],            # every obstacle tile (setup and bought)
     "bought_this_turn": [], "bought_in_game": 0,
     "walls": [[[4, 6], [4, 7]]],              # standing from earlier turns
     "built_this_turn": [[[5, 6], [5, 7]]],    # built during this wall turn
     "tokens": {"1": [4, 0], "2": [6, 0], "3": [8, 0]},   # tokens on the board
     "arrived": [], "eliminated": [],          # seats; eliminated may be [[2, "trapped"]]
     "moved": [],                              # token seats that had their turn this round
     "path": [[4, 0], [4, 1]],                 # token turn: tiles this turn, start first
     "steps_taken": 1, "jumps_used": 0,        # token turn (derived from path if left out)
     "rules": {"wall_budget": 10}}             # live parameters of this turn that differ
                                               # from the defaults; leave out = the game's

>>> import playtest
>>> game = playtest.load("then_there_was_one")
>>> [seat.name for seat in game.seats()]
['Wall ■', 'Red ●', 'Blue ▲', 'Green ◆']
>>> session = playtest.Session(game, seed=7)
>>> session.state.phase, len(session.state.to_json()["obstacles"])
('start', 15)

A hand-written position: Red's turn, between two diagonal obstacles (e6 and f7), so
Red may jump from f6 to e7 between them:

>>> state = game.state_from_json({"obstacles": [[4, 5], [5, 6]], "to_move": 1, "round": 2,
...                               "tokens": {"1": [5, 5], "2": [0, 0], "3": [9, 0]}})
>>> [game.notation(state, a) for a in game.legal_actions(state)]
['Red ● f6→g6', 'Red ● f6→f5', 'Red ● f6⤢e7 jump']
>>> game.apply(state, Step((5, 6)))
Traceback (most recent call last):
...
playtest.rules.IllegalAction: occupied by an obstacle (rule A.1 §15)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter
from typing import Any, ClassVar

from ..bots import Bot, register_bot
from ..geometry import Grid
from ..rules import (CHANCE, Action, EndTurn, Game, IllegalAction, Outcome, Params, Seat, UncountedChance,
                     param, register)
from ..scene import Scene, cell_id

__all__ = ["ThenThereWasOne", "ThenThereWasOneParams", "State", "Scatter", "PlaceObstacle", "Start",
           "Choose", "Build", "Remove", "Buy", "EndTurn", "Step", "Jump", "GreedyTokenBot",
           "GreedyWallBot"]

WALL = 0
SEAT_NAMES = ("Wall", "Red", "Blue", "Green", "Gold")
SEAT_SYMBOLS = ("■", "●", "▲", "◆", "⬢")
SEAT_COLORS = ("#4a4a4a", "#d1495b", "#2e86ab", "#3b9c4b", "#e09f3e")
SEAT_SHAPES = ("square", "circle", "triangle", "diamond", "hexagon")
LETTERS = "abcdefghijklmnopqrstuvwxyz"

SUPPLY = "supply:obstacle"   # scene id of the obstacle supply the wall player buys from
TILE_FILL = "#f7f2e7"
ZONE_FILL = "#dbe7f3"
GOAL_FILL = "#d8eed2"
OBSTACLE_COLOR = "#7a5c3e"
FAR = 10 ** 6  # "unreachable" in distance tables
MEMO_FROM = 3  # the clean-path search remembers failed subtrees of at least this many steps

#: a layout for obstacle_setup = "fixed_layout" on the default 10 x 14 board (5 diagonal pairs)
DEFAULT_LAYOUT = ((2, 3), (3, 4), (7, 3), (6, 4), (0, 6), (4, 6), (5, 7), (9, 6), (2, 9), (3, 10),
                  (7, 9), (6, 10), (1, 12), (5, 12), (8, 12))

PHASES = ("scatter", "place", "start", "order", "wall", "token", "over")


# --------------------------------------------------------------------------- parameters

@dataclass(frozen=True)
class ThenThereWasOneParams(Params):
    """Rule parameters of Then There Was One (RULES.md table A.3, plus ``num_players``)."""

    num_players: int = param(4, "players: one wall player and 2 to 4 token players", source="seed",
                             live=False, min=3, max=5, rule="A.0")
    board_width: int = param(10, "columns of the board", live=False, min=2, max=26, rule="A1")
    board_length: int = param(14, "rows from the start row to the goal row", live=False, min=3, max=40,
                              rule="A1")
    start_zone_rows: int = param(2, "rows behind the black line (the start zone)", live=False, min=1,
                                 max=38, rule="A2")
    start_cells: tuple = param((), "columns of row 0 with a start circle; empty = all of row 0",
                               live=False, rule="A3")
    initial_obstacles: int = param(15, "obstacles scattered at setup", source="seed", live=False,
                                   min=0, max=400, rule="A5")
    obstacle_setup: str = param("uniform_random", "how the setup obstacles get on the board: a seeded "
                                "scatter, placed by the players in turn, or obstacle_layout",
                                live=False, choices=("uniform_random", "players_place_in_turn", "fixed_layout"),
                                rule="A5")
    obstacle_layout: tuple = param(DEFAULT_LAYOUT, "the tiles [col, row] used by obstacle_setup = "
                                   "\"fixed_layout\"", live=False, rule="A5")
    ensure_path_after_setup: bool = param(True, "redraw the scatter (or refuse a placement) if the goal "
                                          "row is cut off from row 0", live=False, rule="A7")
    move_length: int = param(6, "exact steps per token turn", source="seed", min=1, max=20, rule="A9")
    jump_step_cost: int = param(1, "steps a jump uses", min=1, max=4, rule="A9")
    max_jumps_per_turn: int = param(1, "jumps per token turn", source="seed", min=0, max=20, rule="A11")
    jump_allow_obstacle_wall: bool = param(True, "a jump may pass an obstacle and a wall, not only two "
                                           "obstacles", source="seed", rule="A10")
    max_walls_at_jump_corner: int = param(1, "more wall segments than this ending at the corner point "
                                          "block a jump", min=0, max=4, rule="A12")
    board_edge_is_wall_for_jumps: bool = param(False, "the board edge can close a jump side (true is not "
                                               "offered: it never applies to a diagonal between two tiles)",
                                               choices=(False,), rule="A11")
    tokens_block_tokens: bool = param(True, "tokens occupy their tiles for other tokens", rule="A13")
    start_tile_counts: bool = param(True, "the start tile counts as landed on (the path is self-avoiding)",
                                    rule="A15")
    allow_voluntary_revisit: bool = param(False, "a token may walk into a double landing even when a "
                                          "clean path exists", rule="A16")
    eliminate_when_no_path: bool = param(True, "a token with no clean path at the start of its turn "
                                         "(or stuck mid-turn) is eliminated at once", rule="A16")
    goal_on_entry: bool = param(True, "entering the goal row ends the move and arrives (false: only a "
                                "move that ends on it)", rule="A17")
    finished_token_leaves_board: bool = param(True, "arrived tokens leave the board and stop blocking",
                                              rule="A17")
    wall_budget: int = param(12, "points per wall turn, walls left standing included", source="seed",
                             min=0, max=400, rule="A20")
    wall_unit: str = param("segment", "a wall piece is one edge segment of cost 1 (straight pieces are "
                           "not offered)", choices=("segment",), rule="A19")
    max_wall_length: int = param(0, "longest straight piece; 0 = null (only for straight pieces, which "
                                 "are not offered)", min=0, max=0, rule="A19")
    walls_on_boundary: bool = param(False, "walls on the board boundary (true is not offered)",
                                    choices=(False,), rule="A19")
    obstacle_cost: int = param(2, "budget points per bought obstacle, in the turn of purchase only",
                               source="seed", min=0, max=400, rule="A21")
    max_obstacles_per_turn: int = param(2, "obstacles the wall player may buy per turn", source="seed",
                                        min=0, max=400, rule="A22")
    max_bought_obstacles_per_game: int = param(8, "obstacles the wall player may buy per game",
                                               source="seed", min=0, max=400, rule="A22")
    bought_obstacle_may_border_token: bool = param(True, "a bought obstacle may go next to a token "
                                                   "(false: not on a tile touching a token's tile)",
                                                   rule="A23")
    wall_token_clearance: str = param("edge", "a new wall may not lie on an edge of a token's tile "
                                      "(edge_or_corner: nor touch its corners)",
                                      choices=("edge", "edge_or_corner"), rule="A24")
    first_turn_black_line_ban: bool = param(True, "nothing is built behind the black line on the wall "
                                            "player's first turn", source="seed", rule="A26")
    first_turn_ban_applies_to_obstacles: bool = param(True, "the first-turn ban covers bought obstacles",
                                                      rule="A23")
    require_open_corridor: bool = param(False, "variant: walls and obstacles may not cut the goal row off "
                                        "from the front of the black line", rule="A28")
    token_turn_order: str = param("seat_order", "tokens move in seat order, or the team picks who is next",
                                  choices=("seat_order", "team_chooses_order"), rule="A18")
    wall_turns: str = param("once_per_round", "the wall player moves once a round, or before every token",
                            choices=("once_per_round", "before_each_token"), rule="A18")
    tokens_per_player: int = param(1, "tokens per token player (only 1 is offered)", live=False, min=1,
                                   max=1, rule="A29")
    token_win_threshold: tuple = param((1, 2, 2), "arrivals that win for the tokens, with 2, 3, 4 token "
                                       "players", source="seed", rule="A27")
    wall_win_threshold: tuple = param((1, 2, 2), "eliminations that win for the wall player, with 2, 3, 4 "
                                      "token players", source="seed", rule="A27")
    max_rounds: int = param(40, "rounds before the game is a draw", min=1, max=10000, rule="A28")
    rng_seed: int = param(-1, "seed of the setup scatter; -1 = the session's seed (engine-supplied)",
                          live=False, min=-1, max=2 ** 31, rule="A.4")

    def check(self) -> None:
        name = "then_there_was_one parameter"
        W, L, S = self.board_width, self.board_length, self.start_zone_rows
        tokens = self.num_players - 1
        if S > L - 1:
            raise ValueError(f"{name} start_zone_rows={S} is not allowed: the goal row must lie in front "
                             f"of the black line (at most board_length-1 = {L - 1}) (rule A2)")
        cols = self.start_cells
        if any(not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < W for c in cols) \
                or len(set(cols)) != len(cols):
            raise ValueError(f"{name} start_cells={list(cols)} is not allowed: it must list different "
                             f"columns from 0 to {W - 1} (rule A3)")
        circles = len(cols) if cols else W
        if circles < tokens:
            raise ValueError(f"{name} start_cells={list(cols)} is not allowed: {tokens} token players "
                             f"need at least {tokens} start circles (rule A3)")
        front = W * (L - S)
        if self.initial_obstacles > front:
            raise ValueError(f"{name} initial_obstacles={self.initial_obstacles} is not allowed: only "
                             f"{front} tiles lie in front of the black line (rule A7)")
        if self.obstacle_setup == "fixed_layout":
            layout = self.obstacle_layout
            for cell in layout:
                if not (isinstance(cell, tuple) and len(cell) == 2 and all(
                        isinstance(v, int) and not isinstance(v, bool) for v in cell)
                        and 0 <= cell[0] < W and S <= cell[1] < L):
                    raise ValueError(f"{name} obstacle_layout is not allowed: {_show(cell)} is not a tile "
                                     f"[col, row] of the board in front of the black line (rule A5)")
            if len(set(layout)) != len(layout) or len(layout) != self.initial_obstacles:
                raise ValueError(f"{name} obstacle_layout is not allowed: it must list "
                                 f"initial_obstacles={self.initial_obstacles} different tiles, "
                                 f"not {len(layout)} (rule A5)")
        if self.max_jumps_per_turn > self.move_length:
            raise ValueError(f"{name} max_jumps_per_turn={self.max_jumps_per_turn} is not allowed: "
                             f"at most move_length={self.move_length} (rule A11)")
        for pname in ("token_win_threshold", "wall_win_threshold"):
            values = getattr(self, pname)
            if len(values) != 3 or any(not 1 <= v <= n for v, n in zip(values, (2, 3, 4))):
                raise ValueError(f"{name} {pname}={list(values)} is not allowed: it must be three "
                                 "counts, for 2, 3 and 4 token players, each from 1 to that number "
                                 "(rule A27)")


def _show(value: Any) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return str(value)


# --------------------------------------------------------------------------- board tables

class _Board:
    """Precomputed tables for one board size: neighbours, edges as bits, jump geometry.

    Cells are indices ``row * W + col``. An edge is a bit: the edge east of
    cell ``i`` (between ``i`` and ``i+1``) is bit ``i``; the edge north of
    ``i`` (between ``i`` and ``i+W``) is bit ``size + i``. Sets of cells and of
    edges are Python ints used as bitmasks, so flood fills are a few shifts.
    """

    def __init__(self, W: int, L: int, S: int, start_cols: tuple):
        self.W, self.L, self.S = W, L, S
        self.grid = Grid(W, L)
        size = self.size = W * L
        self.all = (1 << size) - 1
        self.east = sum(1 << i for i in range(size) if i % W < W - 1)
        self.north = sum(1 << i for i in range(size) if i // W < L - 1)
        self.inner = self.east | (self.north << size)
        self.goal = sum(1 << i for i in range(size) if i // W == L - 1)
        self.zone = sum(1 << i for i in range(size) if i // W < S)
        self.row0 = sum(1 << i for i in range(W))
        self.front_row = sum(1 << (S * W + c) for c in range(W))
        self.start = tuple(sorted(start_cols)) if start_cols else tuple(range(W))
        self.start_mask = sum(1 << c for c in self.start)
        ortho, diag, adj4, adj8, cell_edges, corner_edges = [], [], [], [], [], []
        for i in range(size):
            c, r = i % W, i // W
            nbrs = []
            for dc, dr in ((0, 1), (1, 0), (-1, 0), (0, -1)):  # north first: towards the goal
                if 0 <= c + dc < W and 0 <= r + dr < L:
                    n = i + dc + dr * W
                    nbrs.append((n, 1 << self.edge(i, n)))
            ortho.append(tuple(nbrs))
            adj4.append(sum(1 << n for n, _ in nbrs))
            cell_edges.append(sum(bit for _, bit in nbrs))
            jumps, around = [], 0
            for dc in (-1, 0, 1):
                for dr in (-1, 0, 1):
                    if (dc or dr) and 0 <= c + dc < W and 0 <= r + dr < L:
                        around |= 1 << (i + dc + dr * W)
            adj8.append(around)
            for dc, dr in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
                if 0 <= c + dc < W and 0 <= r + dr < L:
                    d = i + dc + dr * W
                    b = i + dc          # the tile beside A, in D's column
                    cc = i + dr * W     # the tile beside A, in D's row
                    side_b = (1 << self.edge(i, b)) | (1 << self.edge(b, d))
                    side_c = (1 << self.edge(i, cc)) | (1 << self.edge(cc, d))
                    jumps.append((d, b, cc, side_b, side_c, side_b | side_c))
            diag.append(tuple(jumps))
            corners = 0
            for point in ((c, r), (c + 1, r), (c, r + 1), (c + 1, r + 1)):
                for a, b in self.grid.edges_at_point(point):
                    corners |= 1 << self.edge(a, b)
            corner_edges.append(corners)
        self.ortho, self.diag, self.adj4, self.adj8 = tuple(ortho), tuple(diag), tuple(adj4), tuple(adj8)
        self.cell_edges, self.corner_edges = tuple(cell_edges), tuple(corner_edges)
        self.zone_edges = 0
        for i in range(size):
            if self.zone >> i & 1:
                self.zone_edges |= cell_edges[i]
        self.edge_ids = tuple(e for e in range(2 * size) if self.inner >> e & 1)

    # coordinates and names
    def index(self, cell: tuple) -> int:
        return cell[1] * self.W + cell[0]

    def cell(self, i: int) -> tuple[int, int]:
        return (i % self.W, i // self.W)

    def label(self, i: int) -> str:
        return f"{LETTERS[i % self.W]}{i // self.W + 1}"

    def edge(self, i: int, j: int) -> int:
        """Bit number of the edge between orthogonally adjacent cells ``i`` and ``j``."""
        if i > j:
            i, j = j, i
        return i if j == i + 1 else self.size + i

    def edge_cells(self, e: int) -> tuple[int, int]:
        if e < self.size:
            return e, e + 1
        return e - self.size, e - self.size + self.W

    def edge_label(self, e: int) -> str:
        i, j = self.edge_cells(e)
        return f"{self.label(i)}|{self.label(j)}"

    # flood fills on bitmasks
    def reach(self, seeds: int, free: int, walls: int) -> int:
        """Cells reachable from ``seeds`` by orthogonal steps through ``free`` cells, never across ``walls``."""
        W = self.W
        e_open = self.east & ~walls
        n_open = self.north & ~(walls >> self.size)
        reached = frontier = seeds & free
        while frontier:
            nxt = (((frontier & e_open) << 1) | ((frontier >> 1) & e_open)
                   | ((frontier & n_open) << W) | ((frontier >> W) & n_open)) & free & ~reached
            reached |= nxt
            frontier = nxt
        return reached

    def layers(self, seeds: int, free: int, walls: int) -> list[int]:
        """Breadth-first layers from ``seeds``: layer ``k`` holds the cells at distance ``k``."""
        W = self.W
        e_open = self.east & ~walls
        n_open = self.north & ~(walls >> self.size)
        reached = frontier = seeds & free
        out = []
        while frontier:
            out.append(frontier)
            nxt = (((frontier & e_open) << 1) | ((frontier >> 1) & e_open)
                   | ((frontier & n_open) << W) | ((frontier >> W) & n_open)) & free & ~reached
            reached |= nxt
            frontier = nxt
        return out

    def distances(self, seeds: int, free: int, walls: int) -> list[int]:
        """Distance of every cell from ``seeds`` (``FAR`` if unreachable)."""
        dist = [FAR] * self.size
        for k, layer in enumerate(self.layers(seeds, free, walls)):
            for i in _bits(layer):
                dist[i] = k
        return dist


@lru_cache(maxsize=32)
def _board(W: int, L: int, S: int, start_cols: tuple) -> _Board:
    return _Board(W, L, S, start_cols)


def _bits(mask: int):
    """The set bit numbers of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _popcount(mask: int) -> int:
    return mask.bit_count()


# --------------------------------------------------------------------------- actions

def _pair(value: Any) -> tuple:
    return tuple(value) if isinstance(value, list) else value


@dataclass(frozen=True, slots=True)
class Scatter(Action):
    """The setup scatter (the chance outcome): every obstacle tile ``[col, row]``."""

    kind: ClassVar[str] = "scatter"
    cells: tuple

    def __post_init__(self) -> None:
        if isinstance(self.cells, (list, tuple)):
            object.__setattr__(self, "cells", tuple(_pair(c) for c in self.cells))

    def __str__(self) -> str:
        return "scatter " + " ".join(_cell_text(c) for c in self.cells)


@dataclass(frozen=True, slots=True)
class PlaceObstacle(Action):
    """Setup with ``obstacle_setup = "players_place_in_turn"``: put an obstacle on ``at``."""

    kind: ClassVar[str] = "place_obstacle"
    at: tuple

    def __post_init__(self) -> None:
        object.__setattr__(self, "at", _pair(self.at))

    def __str__(self) -> str:
        return f"place {_cell_text(self.at)}"


@dataclass(frozen=True, slots=True)
class Start(Action):
    """A token player puts their token on the start circle ``at``."""

    kind: ClassVar[str] = "start"
    at: tuple

    def __post_init__(self) -> None:
        object.__setattr__(self, "at", _pair(self.at))

    def __str__(self) -> str:
        return f"start {_cell_text(self.at)}"


@dataclass(frozen=True, slots=True)
class Choose(Action):
    """With ``token_turn_order = "team_chooses_order"``: token seat ``seat`` moves next."""

    kind: ClassVar[str] = "choose"
    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat} next"


def _sorted_pair(a: Any, b: Any) -> tuple:
    a, b = _pair(a), _pair(b)
    try:
        return (a, b) if a <= b else (b, a)
    except TypeError:
        return (a, b)


@dataclass(frozen=True, slots=True)
class Build(Action):
    """The wall player builds a wall segment on the edge between tiles ``a`` and ``b``."""

    kind: ClassVar[str] = "build"
    a: tuple
    b: tuple

    def __post_init__(self) -> None:
        a, b = _sorted_pair(self.a, self.b)
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)

    def __str__(self) -> str:
        return f"wall {_cell_text(self.a)}|{_cell_text(self.b)}"


@dataclass(frozen=True, slots=True)
class Remove(Action):
    """The wall player picks up the wall between ``a`` and ``b`` (standing, or built this turn)."""

    kind: ClassVar[str] = "remove"
    a: tuple
    b: tuple

    def __post_init__(self) -> None:
        a, b = _sorted_pair(self.a, self.b)
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)

    def __str__(self) -> str:
        return f"remove {_cell_text(self.a)}|{_cell_text(self.b)}"


@dataclass(frozen=True, slots=True)
class Buy(Action):
    """The wall player buys an obstacle and puts it on ``at`` (permanent)."""

    kind: ClassVar[str] = "buy"
    at: tuple

    def __post_init__(self) -> None:
        object.__setattr__(self, "at", _pair(self.at))

    def __str__(self) -> str:
        return f"buy {_cell_text(self.at)}"


@dataclass(frozen=True, slots=True)
class Step(Action):
    """The token to move steps orthogonally onto ``to``."""

    kind: ClassVar[str] = "step"
    to: tuple

    def __post_init__(self) -> None:
        object.__setattr__(self, "to", _pair(self.to))

    def __str__(self) -> str:
        return f"→{_cell_text(self.to)}"


@dataclass(frozen=True, slots=True)
class Jump(Action):
    """The token to move jumps diagonally onto ``to`` (between two obstacles, or an obstacle and a wall)."""

    kind: ClassVar[str] = "jump"
    to: tuple

    def __post_init__(self) -> None:
        object.__setattr__(self, "to", _pair(self.to))

    def __str__(self) -> str:
        return f"⤢{_cell_text(self.to)}"


def _cell_text(cell: Any) -> str:
    """``[3, 4]`` as ``d5`` (chess-style); anything malformed as it is."""
    try:
        c, r = cell
        if isinstance(c, int) and isinstance(r, int) and 0 <= c < 26 and r >= 0:
            return f"{LETTERS[c]}{r + 1}"
    except (TypeError, ValueError):
        pass
    return repr(cell)


# --------------------------------------------------------------------------- state

@dataclass(frozen=True, slots=True)
class State:
    """A position of Then There Was One (an immutable value; JSON form in the module docstring).

    Cells are indices ``row * board_width + col``; ``obstacles``, ``bought``,
    ``walls`` and ``built`` are bitmasks (see ``_Board``); ``tokens[k]`` is the
    tile of seat ``k+1``'s token, or -1 when it is not on the board.
    """

    phase: str
    mover: int
    rules: Params                 # the parameters in force for the turn being played
    board: tuple                  # (width, length, start_zone_rows, start columns)
    obstacles: int = 0
    bought: int = 0               # obstacles bought this wall turn
    bought_total: int = 0
    walls: int = 0                # standing walls from earlier turns
    built: int = 0                # walls built this wall turn
    tokens: tuple = ()
    arrived: tuple = ()           # seats, in order of arrival
    eliminated: tuple = ()        # ((seat, "trapped" | "landed twice"), ...)
    moved: tuple = ()             # token seats that had their turn this round
    round: int = 1
    first_wall_turn: bool = True
    path: tuple = ()              # token turn: cells landed on, start first
    steps_taken: int = 0
    jumps_used: int = 0
    winners: tuple | None = None
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        """The hand-writable JSON form (see the module docstring)."""
        B = _board(*self.board)
        cells = lambda mask: [list(B.cell(i)) for i in _bits(mask)]  # noqa: E731
        edges = lambda mask: [[list(B.cell(i)) for i in B.edge_cells(e)] for e in _bits(mask)]  # noqa: E731
        defaults = {s.name: s.default for s in self.rules.specs() if s.live}
        data: dict[str, Any] = {
            "board": [B.W, B.L], "phase": self.phase,
            "to_move": None if self.phase in ("over", "scatter") else self.mover,
            "round": self.round, "first_wall_turn": self.first_wall_turn,
            "obstacles": cells(self.obstacles), "bought_this_turn": cells(self.bought),
            "bought_in_game": self.bought_total,
            "walls": edges(self.walls), "built_this_turn": edges(self.built),
            "tokens": {str(k + 1): list(B.cell(t)) for k, t in enumerate(self.tokens) if t >= 0},
            "arrived": list(self.arrived), "eliminated": [[seat, how] for seat, how in self.eliminated],
            "moved": list(self.moved),
            "path": [list(B.cell(i)) for i in self.path],
            "steps_taken": self.steps_taken, "jumps_used": self.jumps_used,
            "rules": {name: _jsonable(getattr(self.rules, name)) for name, default in defaults.items()
                      if getattr(self.rules, name) != default},
        }
        if self.winners is not None:
            data["winners"] = list(self.winners)
            data["reason"] = self.reason
        return data


def _jsonable(value: Any) -> Any:
    return [_jsonable(v) for v in value] if isinstance(value, tuple) else value


_FIELDS = tuple(f for f in State.__dataclass_fields__)
_FIELD_INDEX = {name: k for k, name in enumerate(_FIELDS)}
_VALUES = attrgetter(*_FIELDS)


def _replace(state: State, **changes: Any) -> State:
    """A copy of ``state`` with some fields changed (faster than dataclasses.replace)."""
    values = list(_VALUES(state))
    for name, value in changes.items():
        values[_FIELD_INDEX[name]] = value
    return State(*values)


# --------------------------------------------------------------------------- the game

@register
class ThenThereWasOne(Game):
    """Then There Was One: tokens cross the board, the wall player walls them in.

    >>> import playtest
    >>> game = playtest.load("then_there_was_one", num_players=3, wall_budget=10)
    >>> len(game.seats()), game.params.wall_budget
    (3, 10)
    """

    name = "then_there_was_one"
    title = "Then There Was One"
    credit = ("Then There Was One, a Global Game Jam 2011 board game; play testing by Jon Whetzel, "
              "Ryan Salaway and other jammers.")
    Params = ThenThereWasOneParams
    action_types = (Scatter, PlaceObstacle, Start, Choose, Build, Remove, Buy, EndTurn, Step, Jump)

    def __init__(self, params: ThenThereWasOneParams | None = None, **values: Any):
        super().__init__(params, **values)
        p = self.params
        self._key = (p.board_width, p.board_length, p.start_zone_rows, tuple(p.start_cells))
        self.B = _board(*self._key)
        self.tokens_n = p.num_players - 1

    # ---- seats and setup
    def seats(self) -> list[Seat]:
        return [Seat(f"{SEAT_NAMES[i]} {SEAT_SYMBOLS[i]}", SEAT_COLORS[i], SEAT_SHAPES[i])
                for i in range(self.params.num_players)]

    def initial_state(self) -> State:
        p = self.params
        state = State(phase="scatter", mover=CHANCE, rules=p, board=self._key,
                      tokens=(-1,) * self.tokens_n)
        if p.obstacle_setup == "fixed_layout":
            mask = sum(1 << self.B.index(c) for c in p.obstacle_layout)
            return self._after_obstacles(_replace(state, obstacles=mask))
        if p.initial_obstacles == 0:
            return self._after_obstacles(state)
        if p.obstacle_setup == "players_place_in_turn":
            return _replace(state, phase="place", mover=0)
        return state

    def _after_obstacles(self, state: State) -> State:
        return _replace(state, phase="start", mover=1)

    # ---- the protocol
    def to_move(self, state: State) -> int | None:
        phase = state.phase
        if phase == "over":
            return None
        if phase == "scatter":
            return CHANCE
        return state.mover

    def outcome(self, state: State) -> Outcome | None:
        if state.winners is None:
            return None
        return Outcome(tuple(state.winners), state.reason)

    def describe_state(self, state: State) -> str:
        phase = state.phase
        if phase == "over":
            return f"Game over: {state.reason}"
        if phase == "scatter":
            return f"Chance: the {self.params.initial_obstacles} obstacles are scattered"
        name = self.seats()[state.mover].name
        if phase == "place":
            return f"{name} places an obstacle ({_popcount(state.obstacles) + 1} of {self.params.initial_obstacles})"
        if phase == "start":
            return f"{name} puts their token on a start circle"
        if phase == "order":
            return f"{name} picks the token that moves next (round {state.round})"
        if phase == "wall":
            used, budget = self.points_used(state), state.rules.wall_budget
            return f"{name} to build, round {state.round}: {used} of {budget} points used"
        left = state.rules.move_length - state.steps_taken
        return f"{name} to move, round {state.round}: {left} of {state.rules.move_length} steps left"

    # ---- helpers on positions
    def points_used(self, state: State) -> int:
        """Budget points used in the wall turn: standing walls, this turn's walls, this turn's obstacles."""
        return (_popcount(state.walls) + _popcount(state.built)
                + state.rules.obstacle_cost * _popcount(state.bought))

    def in_play(self, state: State) -> list[int]:
        """Token seats still in play (on the board, not arrived, not eliminated)."""
        done = set(state.arrived) | {seat for seat, _ in state.eliminated}
        return [k + 1 for k, t in enumerate(state.tokens) if t >= 0 and k + 1 not in done]

    def _token_cells(self, state: State, exclude: int = -1) -> int:
        mask = 0
        for k, t in enumerate(state.tokens):
            if t >= 0 and k + 1 != exclude:
                mask |= 1 << t
        return mask

    def _visited(self, state: State) -> int:
        path = state.path
        mask = 1 << path[0] if state.rules.start_tile_counts else 0
        for i in path[1:]:
            mask |= 1 << i
        return mask

    @staticmethod
    def _jump_ok(entry: tuple, walls: int, obstacles: int, rules: Params) -> bool:
        """The jump of ``entry`` (see ``_Board.diag``) as rule A.1 §15 has it, ignoring the landing tile."""
        _, b, c, side_b, side_c, corner = entry
        ob = obstacles >> b & 1
        oc = obstacles >> c & 1
        if not (ob or oc):
            return False
        if rules.jump_allow_obstacle_wall:
            if not ((ob or walls & side_b) and (oc or walls & side_c)):
                return False
        elif not (ob and oc):
            return False
        return (walls & corner).bit_count() <= rules.max_walls_at_jump_corner

    def _finisher(self, walls: int, obstacles: int, rules: Params):
        """``finish(cell, k, jumps, blocked)``: can a clean path of exactly ``k`` more steps go on from ``cell``?

        ``blocked`` holds occupied and already landed-on tiles. Entering the
        goal row finishes at once with ``goal_on_entry``. Failures are
        memoised for the position (the key includes ``blocked``).
        """
        B = self.B
        ortho, diag = B.ortho, B.diag
        goal = B.goal if rules.goal_on_entry else 0
        jcost = rules.jump_step_cost
        jump_ok = self._jump_ok
        failed: set = set()

        def finish(cell: int, k: int, jumps: int, blocked: int) -> bool:
            if k <= 0:
                return True
            if k >= MEMO_FROM:  # big subtrees: remember the ones that fail (the same tiles reached another way)
                key = (cell, k, jumps, blocked)
                if key in failed:
                    return False
            for n, bit in ortho[cell]:
                if walls & bit or blocked >> n & 1:
                    continue
                if k == 1 or goal >> n & 1:
                    return True
                if finish(n, k - 1, jumps, blocked | 1 << n):
                    return True
            if jumps > 0 and k >= jcost:
                for entry in diag[cell]:
                    d = entry[0]
                    if blocked >> d & 1 or not jump_ok(entry, walls, obstacles, rules):
                        continue
                    if k == jcost or goal >> d & 1:
                        return True
                    if finish(d, k - jcost, jumps - 1, blocked | 1 << d):
                        return True
            if k >= MEMO_FROM:
                failed.add(key)
            return False

        return finish

    def _token_context(self, state: State) -> tuple:
        """(pos, walls, obstacles, occupied, visited, steps left, jumps left) of the token to move."""
        rules = state.rules
        occupied = state.obstacles
        if rules.tokens_block_tokens:
            occupied |= self._token_cells(state, exclude=state.mover)
        return (state.path[-1], state.walls | state.built, state.obstacles, occupied, self._visited(state),
                rules.move_length - state.steps_taken, rules.max_jumps_per_turn - state.jumps_used)

    def _candidates(self, state: State, ctx: tuple) -> list[tuple[int, bool]]:
        """Steps the board allows from the token's tile (walls, occupancy, jump rule), revisits included."""
        pos, walls, obstacles, occupied, _, k, jumps = ctx
        rules = state.rules
        out = [(n, False) for n, bit in self.B.ortho[pos] if not (walls & bit or occupied >> n & 1)]
        if jumps > 0 and k >= rules.jump_step_cost:
            for entry in self.B.diag[pos]:
                d = entry[0]
                if not occupied >> d & 1 and self._jump_ok(entry, walls, obstacles, rules):
                    out.append((d, True))
        return out

    def _can_step(self, state: State, pos: int) -> bool:
        """Whether the token to move (on ``pos``) has any step the board allows, revisits included."""
        rules = state.rules
        walls = state.walls | state.built
        occupied = state.obstacles
        if rules.tokens_block_tokens:
            occupied |= self._token_cells(state, exclude=state.mover)
        for n, bit in self.B.ortho[pos]:
            if not (walls & bit or occupied >> n & 1):
                return True
        return bool(self._candidates(state, self._token_context(state)))

    def token_moves(self, state: State) -> tuple[list[tuple[int, bool]], list[tuple[int, bool]]]:
        """(clean, other): steps that keep a clean completion of the turn, and the other allowed steps
        (landing twice, or into a dead end), as ``(cell, is_jump)``."""
        ctx = self._token_context(state)
        pos, walls, obstacles, occupied, visited, k, jumps = ctx
        rules = state.rules
        goal = self.B.goal if rules.goal_on_entry else 0
        jcost = rules.jump_step_cost
        finish = self._finisher(walls, obstacles, rules)
        clean, other = [], []
        for n, jump in self._candidates(state, ctx):
            if visited >> n & 1:
                other.append((n, jump))
                continue
            cost = jcost if jump else 1
            if k == cost or goal >> n & 1 or finish(n, k - cost, jumps - jump, occupied | visited | 1 << n):
                clean.append((n, jump))
            else:
                other.append((n, jump))
        return clean, other

    def _legal_token_moves(self, state: State) -> list[tuple[int, bool]]:
        clean, other = self.token_moves(state)
        if clean and not state.rules.allow_voluntary_revisit:
            return clean
        return clean + other

    def has_clean_path(self, state: State) -> bool:
        """Whether the token to move can still complete its turn without landing twice (A.1 §17)."""
        pos, walls, obstacles, occupied, visited, k, jumps = self._token_context(state)
        finish = self._finisher(walls, obstacles, state.rules)
        return finish(pos, k, jumps, occupied | visited)

    def _step_action(self, cell: int, jump: bool) -> Action:
        at = self.B.cell(cell)
        return Jump(at) if jump else Step(at)

    # ---- wall-turn helpers
    def _clearance_mask(self, state: State, rules: Params) -> int:
        table = self.B.corner_edges if rules.wall_token_clearance == "edge_or_corner" else self.B.cell_edges
        mask = 0
        for t in state.tokens:
            if t >= 0:
                mask |= table[t]
        return mask

    def _build_mask(self, state: State) -> int:
        """Edges where a wall may be built now, before the open-corridor check."""
        rules = state.rules
        if self.points_used(state) + 1 > rules.wall_budget:
            return 0
        mask = self.B.inner & ~(state.walls | state.built) & ~self._clearance_mask(state, rules)
        if state.first_wall_turn and rules.first_turn_black_line_ban:
            mask &= ~self.B.zone_edges
        return mask

    def _buy_mask(self, state: State) -> int:
        """Tiles where an obstacle may be bought now, before the open-corridor check."""
        rules = state.rules
        if (self.points_used(state) + rules.obstacle_cost > rules.wall_budget
                or _popcount(state.bought) >= rules.max_obstacles_per_turn
                or state.bought_total >= rules.max_bought_obstacles_per_game):
            return 0
        tokens = self._token_cells(state)
        mask = self.B.all & ~state.obstacles & ~tokens
        if state.first_wall_turn and rules.first_turn_black_line_ban and rules.first_turn_ban_applies_to_obstacles:
            mask &= ~self.B.zone
        if not rules.bought_obstacle_may_border_token:
            table = self.B.adj8 if rules.wall_token_clearance == "edge_or_corner" else self.B.adj4
            for t in _bits(tokens):
                mask &= ~table[t]
        return mask

    def corridor_open(self, walls: int, obstacles: int) -> bool:
        """Whether the goal row is reachable from the first row in front of the black line (A.1 §14.5)."""
        B = self.B
        free = B.all & ~obstacles
        return bool(B.reach(B.front_row, free, walls) & B.goal)

    def _keeps_corridor(self, state: State, walls: int, obstacles: int) -> bool:
        if not state.rules.require_open_corridor:
            return True
        if self.corridor_open(walls, obstacles):
            return True
        return not self.corridor_open(state.walls | state.built, state.obstacles)  # already closed before

    def goal_reachable_from_start(self, obstacles: int) -> bool:
        """Whether row 0 reaches the goal row around ``obstacles`` (no walls): the setup check (A7)."""
        B = self.B
        return bool(B.reach(B.row0, B.all & ~obstacles, 0) & B.goal)

    # ---- legal actions
    def legal_actions(self, state: State, seat: int | None = None) -> list[Action]:
        if seat is not None and seat != self.to_move(state):
            return []
        phase = state.phase
        B = self.B
        if phase == "token":
            return [self._step_action(n, j) for n, j in self._legal_token_moves(state)]
        if phase == "wall":
            actions: list[Action] = []
            for e in _bits(state.walls | state.built):
                i, j = B.edge_cells(e)
                actions.append(Remove(B.cell(i), B.cell(j)))
            walls, obstacles = state.walls | state.built, state.obstacles
            for e in _bits(self._build_mask(state)):
                if self._keeps_corridor(state, walls | 1 << e, obstacles):
                    i, j = B.edge_cells(e)
                    actions.append(Build(B.cell(i), B.cell(j)))
            for i in _bits(self._buy_mask(state)):
                if self._keeps_corridor(state, walls, obstacles | 1 << i):
                    actions.append(Buy(B.cell(i)))
            if self.points_used(state) <= state.rules.wall_budget:
                actions.append(EndTurn())
            return actions
        if phase == "start":
            taken = self._token_cells(state) | state.obstacles
            return [Start((c, 0)) for c in B.start if not taken >> c & 1]
        if phase == "order":
            return [Choose(seat) for seat in self._pending(state)]
        if phase == "place":
            return [PlaceObstacle(B.cell(i)) for i in _bits(self._place_mask(state))]
        return []

    def _place_mask(self, state: State) -> int:
        """Tiles for the next placed obstacle: in front of the line, free, and (ensure_path_after_setup)
        keeping the goal reachable, unless no tile can (then any free tile will do)."""
        B = self.B
        free = B.all & ~B.zone & ~state.obstacles
        if not self.params.ensure_path_after_setup:
            return free
        keeps = sum(1 << i for i in _bits(free) if self.goal_reachable_from_start(state.obstacles | 1 << i))
        return keeps or free

    def random_action(self, state: State, rng: random.Random) -> Action:
        """A random legal action, sampled fast: the wall player builds at random and ends its turn
        with probability 1/4 at each action (so a turn averages four actions); a token picks
        uniformly among its legal next steps."""
        phase = state.phase
        if phase == "token":
            rules = state.rules
            ctx = self._token_context(state)
            cands = self._candidates(state, ctx)
            if not rules.allow_voluntary_revisit:
                pos, walls, obstacles, occupied, visited, k, jumps = ctx
                goal = self.B.goal if rules.goal_on_entry else 0
                finish = None
                pool = list(cands)
                while pool:  # draw without replacement until a clean step: uniform among the clean ones
                    pick = rng.randrange(len(pool))
                    pool[pick], pool[-1] = pool[-1], pool[pick]
                    n, jump = pool.pop()
                    if visited >> n & 1:
                        continue
                    cost = rules.jump_step_cost if jump else 1
                    if k == cost or goal >> n & 1:
                        return self._step_action(n, jump)
                    if finish is None:
                        finish = self._finisher(walls, obstacles, rules)
                    if finish(n, k - cost, jumps - jump, occupied | visited | 1 << n):
                        return self._step_action(n, jump)
            return self._step_action(*rng.choice(cands))
        if phase == "wall":
            B = self.B
            rules = state.rules
            standing = state.walls | state.built
            left = rules.wall_budget - self.points_used(state)
            if left < 0:  # over budget (the budget went down): pick up walls first
                e = rng.choice(list(_bits(standing)))
                i, j = B.edge_cells(e)
                return Remove(B.cell(i), B.cell(j))
            roll = rng.random()
            if roll < 0.25:
                return EndTurn()
            if roll < 0.35 and standing:
                e = rng.choice(list(_bits(standing)))
                i, j = B.edge_cells(e)
                return Remove(B.cell(i), B.cell(j))
            if roll < 0.45:
                buy = self._buy_mask(state)
                if buy:
                    for _ in range(8):
                        i = rng.randrange(B.size)
                        if buy >> i & 1 and self._keeps_corridor(state, standing, state.obstacles | 1 << i):
                            return Buy(B.cell(i))
            build = self._build_mask(state)
            if build:
                for _ in range(12):
                    e = rng.choice(B.edge_ids)
                    if build >> e & 1 and self._keeps_corridor(state, standing | 1 << e, state.obstacles):
                        i, j = B.edge_cells(e)
                        return Build(B.cell(i), B.cell(j))
            return EndTurn()
        if phase == "place":
            mask = self._place_mask(state)
            return PlaceObstacle(self.B.cell(rng.choice(list(_bits(mask)))))
        return rng.choice(self.legal_actions(state))

    # ---- chance
    def chance_outcomes(self, state: State) -> UncountedChance:
        """The setup scatter: far too many orderings of 15 throws to list, so it is sampled
        (:meth:`chance_outcome`) and a forced scatter is checked by the rules (A.1 §9, A7)."""
        return UncountedChance(lambda rng: self.chance_outcome(state, rng),
                               lambda outcome: self._check(state, outcome),
                               "obstacles thrown one by one; off-board, behind-the-line and doubled "
                               "throws are thrown again")

    def chance_outcome(self, state: State, rng: random.Random) -> Action:
        """The setup scatter: throws with re-throws (A.1 §9), redrawn until the goal is reachable (A7)."""
        p = self.params
        if p.rng_seed >= 0:
            rng = random.Random(p.rng_seed)
        B = self.B
        for _ in range(10000):
            obstacles = 0
            cells = []
            while len(cells) < p.initial_obstacles:
                # a throw lands anywhere on the board or up to one tile off it
                c, r = rng.randrange(-1, B.W + 1), rng.randrange(-1, B.L + 1)
                if not (0 <= c < B.W and 0 <= r < B.L):
                    continue  # off the board: thrown again
                i = r * B.W + c
                if B.zone >> i & 1 or obstacles >> i & 1:
                    continue  # behind the black line, or onto an obstacle: thrown again
                obstacles |= 1 << i
                cells.append((c, r))
            if not p.ensure_path_after_setup or self.goal_reachable_from_start(obstacles):
                return Scatter(tuple(cells))
        raise ValueError(f"no scatter of {p.initial_obstacles} obstacles leaves the goal row reachable "
                         "after 10000 tries: use fewer obstacles or a bigger board (rule A7)")

    # ---- applying actions
    def apply(self, state: State, action: Action, check: bool = True) -> State:
        if check:
            self._check(state, action)
        kind = action.kind
        B = self.B
        if kind == "step" or kind == "jump":
            return self._apply_step(state, B.index(action.to), kind == "jump")  # type: ignore[attr-defined]
        if kind == "build":
            e = B.edge(B.index(action.a), B.index(action.b))  # type: ignore[attr-defined]
            return _replace(state, built=state.built | 1 << e)
        if kind == "remove":
            bit = 1 << B.edge(B.index(action.a), B.index(action.b))  # type: ignore[attr-defined]
            return _replace(state, walls=state.walls & ~bit, built=state.built & ~bit)
        if kind == "buy":
            bit = 1 << B.index(action.at)  # type: ignore[attr-defined]
            return _replace(state, obstacles=state.obstacles | bit, bought=state.bought | bit,
                            bought_total=state.bought_total + 1)
        if kind == "end_turn":
            done = _replace(state, walls=state.walls | state.built, built=0, bought=0, first_wall_turn=False)
            return self._next_turn(done, after_wall=True)
        if kind == "choose":
            return self._begin_token_turn(state, action.seat)  # type: ignore[attr-defined]
        if kind == "start":
            tokens = list(state.tokens)
            tokens[state.mover - 1] = B.index(action.at)  # type: ignore[attr-defined]
            state = _replace(state, tokens=tuple(tokens))
            if state.mover < self.tokens_n:
                return _replace(state, mover=state.mover + 1)
            return self._begin_wall_turn(_replace(state, round=1, first_wall_turn=True, moved=()))
        if kind == "scatter":
            mask = 0
            for cell in action.cells:  # type: ignore[attr-defined]
                mask |= 1 << B.index(cell)
            return self._after_obstacles(_replace(state, obstacles=mask))
        if kind == "place_obstacle":
            obstacles = state.obstacles | 1 << B.index(action.at)  # type: ignore[attr-defined]
            placed = _popcount(obstacles)
            if placed >= self.params.initial_obstacles:
                return self._after_obstacles(_replace(state, obstacles=obstacles))
            return _replace(state, obstacles=obstacles, mover=placed % self.params.num_players)
        raise IllegalAction(f"{action!r} is not a Then There Was One action")

    def _apply_step(self, state: State, to: int, jump: bool) -> State:
        rules = state.rules
        seat = state.mover
        if self._visited(state) >> to & 1:  # a double landing (rule A.1 §16)
            return self._eliminate(state, seat, "landed twice")
        steps = state.steps_taken + (rules.jump_step_cost if jump else 1)
        tokens = list(state.tokens)
        tokens[seat - 1] = to
        state = _replace(state, tokens=tuple(tokens), path=state.path + (to,), steps_taken=steps,
                         jumps_used=state.jumps_used + jump)
        if self.B.goal >> to & 1 and (rules.goal_on_entry or steps >= rules.move_length):
            if rules.finished_token_leaves_board:
                tokens[seat - 1] = -1
            done = _replace(state, tokens=tuple(tokens), arrived=state.arrived + (seat,))
            return self._end_token_turn(done)
        if steps >= rules.move_length:
            return self._end_token_turn(state)
        if not self._can_step(state, to):  # stuck mid-turn
            if rules.eliminate_when_no_path:
                return self._eliminate(state, seat, "trapped")
            return self._end_token_turn(state)
        return state

    def _eliminate(self, state: State, seat: int, how: str) -> State:
        tokens = list(state.tokens)
        tokens[seat - 1] = -1
        return self._end_token_turn(_replace(state, tokens=tuple(tokens),
                                             eliminated=state.eliminated + ((seat, how),)))

    def _end_token_turn(self, state: State) -> State:
        state = _replace(state, moved=state.moved + (state.mover,), path=(), steps_taken=0, jumps_used=0)
        over = self._decided(state)
        if over is not None:
            return over
        return self._next_turn(state, after_wall=False)

    def _decided(self, state: State) -> State | None:
        """The finished state if a win threshold is reached (A.1 §19-20), else None."""
        p = self.params
        n = self.tokens_n
        arrived, eliminated = len(state.arrived), len(state.eliminated)
        if arrived >= p.token_win_threshold[n - 2]:
            return _replace(state, phase="over", mover=-1, path=(), winners=tuple(range(1, n + 1)),
                            reason=f"the tokens win: {arrived} of {n} tokens reached the goal row")
        if eliminated >= p.wall_win_threshold[n - 2]:
            return _replace(state, phase="over", mover=-1, path=(), winners=(WALL,),
                            reason=f"the wall player wins: {eliminated} of {n} tokens eliminated")
        return None

    def _pending(self, state: State) -> list[int]:
        moved = state.moved
        return [seat for seat in self.in_play(state) if seat not in moved]

    def _next_turn(self, state: State, after_wall: bool) -> State:
        """Pass the turn on after a finished turn (A.1 §12)."""
        pending = self._pending(state)
        if not pending:
            return self._end_round(state)
        if not after_wall and self.params.wall_turns == "before_each_token":
            return self._begin_wall_turn(state)
        if self.params.token_turn_order == "team_chooses_order" and len(pending) > 1:
            return _replace(state, phase="order", mover=pending[0])
        return self._begin_token_turn(state, pending[0])

    def _end_round(self, state: State) -> State:
        p = self.params
        if not self.in_play(state):
            return _replace(state, phase="over", mover=-1, winners=(),
                            reason="a draw: no token is left in play and no side reached its threshold")
        if state.round >= p.max_rounds:
            return _replace(state, phase="over", mover=-1, winners=(),
                            reason=f"a draw: no winner after {state.round} rounds (max_rounds)")
        return self._begin_wall_turn(_replace(state, round=state.round + 1, moved=()))

    def _begin_wall_turn(self, state: State) -> State:
        return _replace(state, phase="wall", mover=WALL, rules=self.params, built=0, bought=0, path=(),
                        steps_taken=0, jumps_used=0)

    def _begin_token_turn(self, state: State, seat: int) -> State:
        """Start ``seat``'s turn; a token with no clean path is eliminated at once (A.1 §17)."""
        pos = state.tokens[seat - 1]
        state = _replace(state, phase="token", mover=seat, rules=self.params, path=(pos,), steps_taken=0,
                         jumps_used=0)
        rules = state.rules
        if rules.eliminate_when_no_path:
            if not self.has_clean_path(state):
                return self._eliminate(state, seat, "trapped")
        elif not self._candidates(state, self._token_context(state)):
            return self._end_token_turn(state)  # cannot move at all: the turn passes
        return state

    # ---- legality with reasons
    def _cell_of(self, value: Any, what: str) -> int:
        B = self.B
        if not (isinstance(value, tuple) and len(value) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            raise IllegalAction(f"{what} must be a tile [col, row], not {value!r}")
        c, r = value
        if not (0 <= c < B.W and 0 <= r < B.L):
            raise IllegalAction(f"{what} {list(value)} is not a tile of the {B.W} x {B.L} board", rule="A.1 §1")
        return r * B.W + c

    def _edge_of(self, action: Action) -> int:
        a, b = action.a, action.b  # type: ignore[attr-defined]
        i = self._cell_of(a, "a wall's first tile")
        j = self._cell_of(b, "a wall's second tile")
        if j not in (i + 1, i - 1, i + self.B.W, i - self.B.W) or abs(i % self.B.W - j % self.B.W) > 1:
            raise IllegalAction(f"walls lie between two orthogonally adjacent tiles; {_cell_text(a)} and "
                                f"{_cell_text(b)} are not", rule="A.1 §4")
        return self.B.edge(i, j)

    def _check(self, state: State, action: Action) -> None:
        """Raise :class:`IllegalAction` naming the rule unless ``action`` is legal here."""
        if not isinstance(action, self.action_types):
            raise IllegalAction(f"{action!r} is not a Then There Was One action")
        phase = state.phase
        kind = action.kind
        if phase == "over":
            raise IllegalAction(f"the game is over ({state.reason})", rule="A.1 §19")
        wanted = {"scatter": "scatter", "place_obstacle": "place", "start": "start", "choose": "order",
                  "build": "wall", "remove": "wall", "buy": "wall", "end_turn": "wall",
                  "step": "token", "jump": "token"}[kind]
        if wanted != phase:
            doing = {"scatter": "the obstacles are scattered (a chance step)",
                     "place": f"{self._name(state.mover)} places an obstacle",
                     "start": f"{self._name(state.mover)} puts their token on a start circle",
                     "order": f"the token team picks who moves next ({self._name(state.mover)} speaks)",
                     "wall": f"it is the turn of {self._name(WALL)}",
                     "token": f"it is the turn of {self._name(state.mover)}"}[phase]
            raise IllegalAction(f"a {kind.replace('_', ' ')} action is not possible now: {doing}",
                                rule="A.1 §12")
        getattr(self, f"_check_{kind}")(state, action)

    def _name(self, seat: int) -> str:
        return self.seats()[seat].name

    def _check_scatter(self, state: State, action: Scatter) -> None:
        p, B = self.params, self.B
        cells = action.cells
        if not isinstance(cells, tuple):
            raise IllegalAction(f"a scatter lists obstacle tiles, not {cells!r}")
        if len(cells) != p.initial_obstacles:
            raise IllegalAction(f"the scatter must place initial_obstacles={p.initial_obstacles} obstacles, "
                                f"not {len(cells)}", rule="A.1 §9")
        mask = 0
        for cell in cells:
            i = self._cell_of(cell, "an obstacle")
            if B.zone >> i & 1:
                raise IllegalAction(f"an obstacle on {_cell_text(cell)} is behind the black line: it must be "
                                    "thrown again", rule="A.1 §9")
            if mask >> i & 1:
                raise IllegalAction(f"two obstacles on {_cell_text(cell)}: it must be thrown again",
                                    rule="A.1 §9")
            mask |= 1 << i
        if p.ensure_path_after_setup and not self.goal_reachable_from_start(mask):
            raise IllegalAction("this scatter cuts the goal row off from the start row: it must be redrawn "
                                "(ensure_path_after_setup)", rule="A7")

    def _check_place_obstacle(self, state: State, action: PlaceObstacle) -> None:
        i = self._cell_of(action.at, "an obstacle")
        if self.B.zone >> i & 1:
            raise IllegalAction(f"{_cell_text(action.at)} is behind the black line", rule="A.1 §9")
        if state.obstacles >> i & 1:
            raise IllegalAction(f"{_cell_text(action.at)} already holds an obstacle", rule="A.1 §9")
        if not self._place_mask(state) >> i & 1:
            raise IllegalAction(f"an obstacle on {_cell_text(action.at)} cuts the goal row off from the start "
                                "row (ensure_path_after_setup)", rule="A7")

    def _check_start(self, state: State, action: Start) -> None:
        i = self._cell_of(action.at, "a start circle")
        if i >= self.B.W or not self.B.start_mask >> i & 1:
            raise IllegalAction(f"{_cell_text(action.at)} is not a start circle (start_cells)", rule="A.1 §10")
        if (self._token_cells(state) | state.obstacles) >> i & 1:
            raise IllegalAction(f"the start circle {_cell_text(action.at)} is taken", rule="A.1 §10")

    def _check_choose(self, state: State, action: Choose) -> None:
        if action.seat not in self._pending(state):
            raise IllegalAction(f"seat {action.seat} is not a token still to move this round", rule="A18")

    def _check_build(self, state: State, action: Build) -> None:
        rules, B = state.rules, self.B
        e = self._edge_of(action)
        bit = 1 << e
        where = B.edge_label(e)
        if (state.walls | state.built) & bit:
            raise IllegalAction(f"there is already a wall on {where}", rule="A.1 §14")
        used = self.points_used(state)
        if used + 1 > rules.wall_budget:
            raise IllegalAction(f"the budget is spent: {used} of {rules.wall_budget} points used, walls left "
                                "standing included", rule="A.1 §14.1")
        if self._clearance_mask(state, rules) & bit:
            extra = " or touch its corners" if rules.wall_token_clearance == "edge_or_corner" else ""
            raise IllegalAction(f"a wall may not lie on an edge of a token's tile{extra} ({where})",
                                rule="A.1 §14.3")
        if state.first_wall_turn and rules.first_turn_black_line_ban and B.zone_edges & bit:
            raise IllegalAction(f"nothing is built behind the black line on the wall player's first turn "
                                f"({where})", rule="A.1 §14.4")
        walls = state.walls | state.built
        if not self._keeps_corridor(state, walls | bit, state.obstacles):
            raise IllegalAction(f"a wall on {where} would cut the goal row off (require_open_corridor)",
                                rule="A.1 §14.5")

    def _check_remove(self, state: State, action: Remove) -> None:
        e = self._edge_of(action)
        if not (state.walls | state.built) >> e & 1:
            raise IllegalAction(f"there is no wall on {self.B.edge_label(e)} to pick up", rule="A.1 §13")

    def _check_buy(self, state: State, action: Buy) -> None:
        rules, B = state.rules, self.B
        i = self._cell_of(action.at, "an obstacle")
        where = _cell_text(action.at)
        if state.obstacles >> i & 1:
            raise IllegalAction(f"{where} already holds an obstacle", rule="A.1 §14.2")
        tokens = self._token_cells(state)
        if tokens >> i & 1:
            raise IllegalAction(f"a token stands on {where}", rule="A.1 §14.2")
        bought = _popcount(state.bought)
        if bought >= rules.max_obstacles_per_turn:
            raise IllegalAction(f"{bought} obstacles were bought this turn already "
                                f"(max_obstacles_per_turn = {rules.max_obstacles_per_turn})", rule="A.1 §14.2")
        if state.bought_total >= rules.max_bought_obstacles_per_game:
            raise IllegalAction(f"{state.bought_total} obstacles were bought in this game already "
                                f"(max_bought_obstacles_per_game = {rules.max_bought_obstacles_per_game})",
                                rule="A.1 §14.2")
        used = self.points_used(state)
        if used + rules.obstacle_cost > rules.wall_budget:
            raise IllegalAction(f"an obstacle costs {rules.obstacle_cost} points and only "
                                f"{rules.wall_budget - used} are left", rule="A.1 §14.1")
        if (state.first_wall_turn and rules.first_turn_black_line_ban
                and rules.first_turn_ban_applies_to_obstacles and B.zone >> i & 1):
            raise IllegalAction(f"nothing is built behind the black line on the wall player's first turn "
                                f"({where})", rule="A.1 §14.4")
        if not rules.bought_obstacle_may_border_token:
            table = B.adj8 if rules.wall_token_clearance == "edge_or_corner" else B.adj4
            if any(table[t] >> i & 1 for t in _bits(tokens)):
                raise IllegalAction(f"a bought obstacle may not border a token ({where}; "
                                    "bought_obstacle_may_border_token)", rule="A23")
        if not self._keeps_corridor(state, state.walls | state.built, state.obstacles | 1 << i):
            raise IllegalAction(f"an obstacle on {where} would cut the goal row off (require_open_corridor)",
                                rule="A.1 §14.5")

    def _check_end_turn(self, state: State, action: EndTurn) -> None:
        used = self.points_used(state)
        if used > state.rules.wall_budget:
            raise IllegalAction(f"{used} points are used but the budget is {state.rules.wall_budget}: pick "
                                "up walls first (walls left standing count)", rule="A.1 §14.1")

    def _check_step(self, state: State, action: Action) -> None:
        i = self._cell_of(action.to, "a step's tile")  # type: ignore[attr-defined]
        jump = action.kind == "jump"
        legal = self._legal_token_moves(state)
        if (i, jump) in legal:
            return
        why, rule = self.step_reason(state, i, jump)
        raise IllegalAction(why, rule=rule)

    _check_jump = _check_step

    def step_reason(self, state: State, to: int, jump: bool | None = None) -> tuple[str, str]:
        """Why the token to move cannot step (or jump) onto cell ``to`` now: (reason, rule)."""
        B = self.B
        rules = state.rules
        ctx = self._token_context(state)
        pos, walls, obstacles, occupied, visited, k, jumps = ctx
        pc, pr = pos % B.W, pos // B.W
        tc, tr = to % B.W, to // B.W
        dist = abs(pc - tc) + abs(pr - tr)
        diagonal = abs(pc - tc) == 1 and abs(pr - tr) == 1
        if jump is None:
            jump = diagonal
        if not jump and dist != 1:
            return (f"{B.label(to)} is not next to the token: a step goes to an orthogonally adjacent tile",
                    "A.1 §15")
        if jump and not diagonal:
            return f"a jump goes to a diagonal neighbour, and {B.label(to)} is not one", "A.1 §15"
        if obstacles >> to & 1:
            return "occupied by an obstacle", "A.1 §15"
        if occupied >> to & 1:
            owner = next(k + 1 for k, t in enumerate(state.tokens) if t == to)
            return f"occupied by {self._name(owner)}'s token (tokens_block_tokens)", "A.1 §15"
        if jump:
            if jumps <= 0:
                return f"only {rules.max_jumps_per_turn} jump(s) per turn", "A.1 §15"
            if k < rules.jump_step_cost:
                return f"a jump uses {rules.jump_step_cost} steps and only {k} are left", "A9"
            entry = next(e for e in B.diag[pos] if e[0] == to)
            if (walls & entry[5]).bit_count() > rules.max_walls_at_jump_corner:
                return "two walls meet at this corner: it cannot be jumped", "A.1 §15"
            if not self._jump_ok(entry, walls, obstacles, rules):
                if rules.jump_allow_obstacle_wall:
                    return ("a diagonal move is a jump, only between two obstacles or an obstacle and a wall",
                            "A.1 §15")
                return ("a diagonal move is a jump, only between two obstacles (jump_allow_obstacle_wall is off)",
                        "A.1 §15")
        else:
            if walls & (1 << B.edge(pos, to)):
                return "a wall blocks this side", "A.1 §15"
        if visited >> to & 1:
            return "would land on a tile twice", "A.1 §16"
        return (f"no clean path of {rules.move_length} steps from there (a clean one exists elsewhere)",
                "A.1 §17")

    # ---- notation and JSON
    def notation(self, state: State, action: Action, viewer: int | None = None) -> str:
        B = self.B
        kind = action.kind
        mover = state.mover
        try:
            after = self.apply(state, action, check=False)
        except Exception:  # malformed: write it as it is
            return str(action)
        if kind == "scatter":
            text = f"{len(action.cells)} obstacles: " + " ".join(_cell_text(c) for c in action.cells)  # type: ignore
        elif kind == "step" or kind == "jump":
            arrow = "⤢" if kind == "jump" else "→"
            text = f"{self._name(mover)} {B.label(state.path[-1])}{arrow}{_cell_text(action.to)}"  # type: ignore
            if kind == "jump":
                text += " jump"
        elif kind in ("build", "buy", "end_turn"):
            used = self.points_used(after) if kind != "end_turn" else self.points_used(state)
            if kind == "build":
                what = f"wall {_cell_text(action.a)}|{_cell_text(action.b)}"  # type: ignore[attr-defined]
            elif kind == "buy":
                what = f"buys obstacle {_cell_text(action.at)}"  # type: ignore[attr-defined]
            else:
                what = "ends turn"
            text = f"{self._name(WALL)} {what} ({used}/{state.rules.wall_budget})"
        elif kind == "remove":
            e = B.edge(B.index(action.a), B.index(action.b))  # type: ignore[attr-defined]
            verb = "takes back" if state.built >> e & 1 else "picks up"
            text = f"{self._name(WALL)} {verb} {B.edge_label(e)}"
        elif kind == "choose":
            text = f"team: {self._name(action.seat)} moves next"  # type: ignore[attr-defined]
        elif kind == "start":
            text = f"{self._name(mover)} starts on {_cell_text(action.at)}"  # type: ignore[attr-defined]
        else:
            text = f"{self._name(mover)} {action}"
        events = []
        for seat in after.arrived[len(state.arrived):]:
            events.append(f"{self._name(seat)} arrives")
        for seat, how in after.eliminated[len(state.eliminated):]:
            events.append(f"{self._name(seat)} {how}: eliminated")
        if after.phase == "over" and state.phase != "over":
            events.append(after.reason)
        return "; ".join([text] + events)

    def action_from_json(self, data: Any) -> Action:
        action = super().action_from_json(data)
        is_tile = lambda v: (isinstance(v, tuple) and len(v) == 2  # noqa: E731
                             and all(isinstance(x, int) and not isinstance(x, bool) for x in v))
        if isinstance(action, Scatter):
            if not isinstance(action.cells, tuple) or not all(is_tile(v) for v in action.cells):
                raise ValueError(f"malformed scatter action: cells must be a list of tiles [col, row], "
                                 f"not {_jsonable(action.cells)!r}")
            return action
        for name in ("at", "a", "b", "to"):
            if hasattr(action, name) and not is_tile(getattr(action, name)):
                raise ValueError(f"malformed {action.kind} action: {name} must be a tile [col, row], "
                                 f"not {_jsonable(getattr(action, name))!r}")
        return action

    def state_from_json(self, data: Any) -> State:
        return _StateReader(self).read(data)

    def adapt_state(self, state: State, old: Game) -> State:
        """After a live change: the turn being played keeps its rules (``state.rules``); the new
        values apply from the next turn. Win thresholds apply at once."""
        if state.phase in ("over", "scatter"):
            return state
        if state.phase not in ("wall", "token"):
            state = _replace(state, rules=self.params)
        over = self._decided(state)
        return over if over is not None else state

    # ---- the scene
    def view(self, state: State, seat: int | None = None) -> dict:
        return _View(self, state, seat).build()


# --------------------------------------------------------------------------- reading positions

class _StateReader:
    """``state_from_json``: a position from its hand-written JSON, validated with clear messages."""

    FIELDS = {"board", "phase", "to_move", "round", "first_wall_turn", "obstacles", "bought_this_turn",
              "bought_in_game", "walls", "built_this_turn", "tokens", "arrived", "eliminated", "moved", "path",
              "steps_taken", "jumps_used", "rules", "winners", "reason"}

    def __init__(self, game: ThenThereWasOne):
        self.game = game
        self.B = game.B
        self.p = game.params

    def cell(self, value: Any, what: str) -> int:
        B = self.B
        if not (isinstance(value, (list, tuple)) and len(value) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            raise ValueError(f"{what}: a tile is [col, row], not {value!r}")
        c, r = value
        if not (0 <= c < B.W and 0 <= r < B.L):
            raise ValueError(f"{what}: {list(value)} is not on the {B.W} x {B.L} board "
                             f"(columns 0-{B.W - 1}, rows 0-{B.L - 1})")
        return r * B.W + c

    def cells(self, data: dict, key: str) -> int:
        values = data.get(key, [])
        if not isinstance(values, list):
            raise ValueError(f"{key} must be a list of tiles [col, row]")
        mask = 0
        for v in values:
            i = self.cell(v, key)
            if mask >> i & 1:
                raise ValueError(f"{key}: {list(v)} is listed twice")
            mask |= 1 << i
        return mask

    def edges(self, data: dict, key: str) -> int:
        values = data.get(key, [])
        if not isinstance(values, list):
            raise ValueError(f"{key} must be a list of edges [[col, row], [col, row]]")
        mask = 0
        for v in values:
            if not (isinstance(v, (list, tuple)) and len(v) == 2):
                raise ValueError(f"{key}: an edge is a pair of adjacent tiles [[col, row], [col, row]], not {v!r}")
            i, j = self.cell(v[0], key), self.cell(v[1], key)
            if j not in (i + 1, i - 1, i + self.B.W, i - self.B.W) or abs(i % self.B.W - j % self.B.W) > 1:
                raise ValueError(f"{key}: {v} are not two orthogonally adjacent tiles (walls lie between "
                                 "tiles; walls_on_boundary is false)")
            e = self.B.edge(i, j)
            if mask >> e & 1:
                raise ValueError(f"{key}: the edge {v} is listed twice")
            mask |= 1 << e
        return mask

    def seats(self, values: Any, key: str) -> list[int]:
        n = self.game.tokens_n
        if not isinstance(values, list) or any(isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= n
                                               for s in values):
            raise ValueError(f"{key} must be a list of token seats from 1 to {n}")
        if len(set(values)) != len(values):
            raise ValueError(f"{key} lists a seat twice")
        return values

    def integer(self, data: dict, key: str, default: int, low: int = 0) -> int:
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ValueError(f"{key} must be a whole number of at least {low}, not {value!r}")
        return value

    def read(self, data: Any) -> State:
        game, p, B = self.game, self.p, self.B
        names = lambda seat: game.seats()[seat].name  # noqa: E731
        if not isinstance(data, dict):
            raise ValueError("a Then There Was One position is an object with 'tokens', 'obstacles', 'walls', ... "
                             "(see the module docstring)")
        unknown = set(data) - self.FIELDS
        if unknown:
            raise ValueError(f"unknown fields in a Then There Was One position: {sorted(unknown)}; the fields are "
                             f"{sorted(self.FIELDS)}")
        if "board" in data and data["board"] not in ([B.W, B.L], (B.W, B.L)):
            raise ValueError(f"board: this position is for a {data['board']} board, but the game's board is "
                             f"[{B.W}, {B.L}] (board_width, board_length)")
        n = game.tokens_n
        # the rules in force for this turn
        rules = p
        if "rules" in data:
            if not isinstance(data["rules"], dict):
                raise ValueError("rules must be an object of live parameter values")
            live = {s.name for s in p.specs() if s.live}
            bad = [k for k in data["rules"] if k not in live]
            if bad:
                raise ValueError(f"rules: {bad} are not live parameters of then_there_was_one")
            base = {s.name: (getattr(p, s.name) if not s.live else s.default) for s in p.specs()}
            rules = type(p).create(**{**base, **data["rules"]})
        obstacles = self.cells(data, "obstacles")
        bought = self.cells(data, "bought_this_turn")
        bought_total = self.integer(data, "bought_in_game", _popcount(bought))
        walls = self.edges(data, "walls")
        built = self.edges(data, "built_this_turn")
        if walls & built:
            raise ValueError("an edge is listed in both walls and built_this_turn")
        # tokens
        raw_tokens = data.get("tokens", {})
        if not isinstance(raw_tokens, dict):
            raise ValueError('tokens must be an object {"seat": [col, row]} for the tokens on the board')
        tokens = [-1] * n
        for key, at in raw_tokens.items():
            try:
                seat = int(key)
            except (TypeError, ValueError):
                seat = -1
            if not 1 <= seat <= n:
                raise ValueError(f"tokens: {key!r} is not a token seat (1 to {n} with num_players={p.num_players})")
            i = self.cell(at, f"tokens {seat}")
            if obstacles >> i & 1:
                raise ValueError(f"tokens: {names(seat)}'s token is on an obstacle at {list(at)}")
            if i in tokens and p.tokens_block_tokens and rules.tokens_block_tokens:
                raise ValueError(f"tokens: two tokens on {list(at)} (tokens_block_tokens)")
            tokens[seat - 1] = i
        arrived = self.seats(data.get("arrived", []), "arrived")
        raw_elim = data.get("eliminated", [])
        if not isinstance(raw_elim, list):
            raise ValueError('eliminated must be a list of seats, or of [seat, "trapped" | "landed twice"]')
        eliminated = []
        for entry in raw_elim:
            if isinstance(entry, list):
                if len(entry) != 2 or entry[1] not in ("trapped", "landed twice"):
                    raise ValueError(f'eliminated: {entry!r} must be a seat or [seat, "trapped" | "landed twice"]')
                seat, how = entry
            else:
                seat, how = entry, "trapped"
            eliminated.append((seat, how))
        self.seats([s for s, _ in eliminated], "eliminated")
        if set(arrived) & {s for s, _ in eliminated}:
            raise ValueError("a token cannot be both arrived and eliminated")
        for seat, _ in eliminated:
            if tokens[seat - 1] >= 0:
                raise ValueError(f"{names(seat)} is eliminated, so its token is not on the board")
        for seat in arrived:
            if tokens[seat - 1] >= 0 and (p.finished_token_leaves_board or not B.goal >> tokens[seat - 1] & 1):
                raise ValueError(f"{names(seat)} has arrived, so its token has left the board "
                                 "(finished_token_leaves_board)")
        done = set(arrived) | {s for s, _ in eliminated}
        unplaced = [seat for seat in range(1, n + 1) if tokens[seat - 1] < 0 and seat not in done]
        # phase and mover
        to_move = data.get("to_move", 0)
        if to_move is not None and (isinstance(to_move, bool) or not isinstance(to_move, int)
                                    or not 0 <= to_move <= n):
            raise ValueError(f"to_move must be a seat from 0 (the wall player) to {n}")
        phase = data.get("phase", "wall" if to_move == 0 else "token")  # setup phases are written out
        if phase not in PHASES:
            raise ValueError(f"phase must be one of {', '.join(PHASES)}, not {phase!r}")
        round_ = self.integer(data, "round", 1, low=1)
        moved = self.seats(data.get("moved", []), "moved")
        first = data.get("first_wall_turn", round_ == 1 and phase == "wall" and not moved)
        if not isinstance(first, bool):
            raise ValueError("first_wall_turn must be true or false")
        if phase in ("scatter", "place", "start"):
            if phase in ("scatter", "place") and (tokens != [-1] * n or arrived or eliminated):
                raise ValueError(f"phase {phase}: the tokens are placed after the obstacles (rule A.1 §10)")
            if phase == "scatter" and obstacles:
                raise ValueError("phase scatter: the obstacles are not on the board yet")
            if phase == "place" and _popcount(obstacles) >= p.initial_obstacles:
                raise ValueError(f"phase place: all {p.initial_obstacles} obstacles are placed already")
            if walls or built or bought or bought_total:
                raise ValueError(f"phase {phase}: no wall or bought obstacle before the first wall turn")
            if phase == "start":
                placed = [s for s in range(1, n + 1) if tokens[s - 1] >= 0]
                if placed != list(range(1, len(placed) + 1)) or not unplaced:
                    raise ValueError("phase start: tokens are placed in seat order, and one still has to be placed")
                for seat in placed:
                    if tokens[seat - 1] >= B.W or not B.start_mask >> tokens[seat - 1] & 1:
                        raise ValueError(f"phase start: {names(seat)}'s token must be on a start circle")
                mover = unplaced[0]
            elif phase == "place":
                mover = _popcount(obstacles) % p.num_players
            else:
                mover = CHANCE
            return State(phase=phase, mover=mover, rules=rules, board=game._key, obstacles=obstacles,
                         tokens=tuple(tokens))
        if unplaced:
            raise ValueError(f"tokens: {', '.join(names(s) for s in unplaced)} not on the board; list each token "
                             "seat in tokens, arrived or eliminated")
        if _popcount(obstacles) > p.initial_obstacles + bought_total:
            raise ValueError(f"obstacles: {_popcount(obstacles)} obstacles, but only initial_obstacles="
                             f"{p.initial_obstacles} plus bought_in_game={bought_total} exist")
        if bought & ~obstacles:
            raise ValueError("bought_this_turn: every bought obstacle must also be listed in obstacles")
        if bought_total > rules.max_bought_obstacles_per_game:
            raise ValueError(f"bought_in_game={bought_total} is more than max_bought_obstacles_per_game="
                             f"{rules.max_bought_obstacles_per_game}")
        if _popcount(bought) > min(bought_total, rules.max_obstacles_per_turn):
            raise ValueError(f"bought_this_turn: {_popcount(bought)} obstacles, more than bought_in_game or "
                             f"max_obstacles_per_turn={rules.max_obstacles_per_turn}")
        if round_ > max(p.max_rounds, 1) and phase != "over":
            raise ValueError(f"round {round_} is past max_rounds={p.max_rounds}")
        if phase != "wall" and (built or bought):
            raise ValueError("built_this_turn and bought_this_turn exist only during the wall player's turn")
        if phase == "over":
            winners = data.get("winners", [])
            if not isinstance(winners, list) or any(not isinstance(w, int) for w in winners):
                raise ValueError("winners must be a list of seats")
            return State(phase="over", mover=-1, rules=rules, board=game._key, obstacles=obstacles,
                         bought_total=bought_total, walls=walls, tokens=tuple(tokens), arrived=tuple(arrived),
                         eliminated=tuple(eliminated), moved=tuple(moved), round=round_, first_wall_turn=first,
                         winners=tuple(winners), reason=str(data.get("reason", "")))
        in_play = [s for s in range(1, n + 1) if s not in done]
        if len(arrived) >= p.token_win_threshold[n - 2]:
            raise ValueError(f"{len(arrived)} tokens have arrived: the tokens have won (write phase \"over\")")
        if len(eliminated) >= p.wall_win_threshold[n - 2]:
            raise ValueError(f"{len(eliminated)} tokens are eliminated: the wall player has won "
                             "(write phase \"over\")")
        if not in_play:
            raise ValueError("no token is left in play: the game is over (write phase \"over\")")
        for seat in in_play:
            if rules.goal_on_entry and B.goal >> tokens[seat - 1] & 1 and not (phase == "token" and seat == to_move):
                raise ValueError(f"{names(seat)} is on the goal row, so it has arrived (goal_on_entry): "
                                 "list it in arrived")
        if phase == "wall":
            if to_move not in (0, None):
                raise ValueError("phase wall: to_move is 0, the wall player")
            if data.get("path") or data.get("steps_taken") or data.get("jumps_used"):
                raise ValueError("path, steps_taken and jumps_used belong to a token's turn")
            state = State(phase="wall", mover=WALL, rules=rules, board=game._key, obstacles=obstacles,
                          bought=bought, bought_total=bought_total, walls=walls, built=built, tokens=tuple(tokens),
                          arrived=tuple(arrived), eliminated=tuple(eliminated), moved=tuple(moved),
                          round=round_, first_wall_turn=first)
            used = game.points_used(state)
            if (built or bought) and used > rules.wall_budget:
                raise ValueError(f"the wall player uses {used} points, more than the budget of {rules.wall_budget} "
                                 "(walls left standing count; obstacles cost obstacle_cost this turn)")
            if built & game._clearance_mask(state, rules):
                raise ValueError("built_this_turn: a new wall lies on an edge of a token's tile (rule A.1 §14.3)")
            if first and rules.first_turn_black_line_ban and built & B.zone_edges:
                raise ValueError("built_this_turn: nothing is built behind the black line on the first wall turn "
                                 "(rule A.1 §14.4)")
            if p.wall_turns == "once_per_round" and moved:
                raise ValueError("moved: with wall_turns once_per_round the wall player moves before every token")
            return state
        if phase not in ("token", "order"):
            raise ValueError(f"phase {phase} does not fit a game in progress")
        if to_move not in in_play or to_move in moved:
            raise ValueError(f"to_move={to_move} must be a token in play that has not moved this round "
                             f"(in play: {in_play}, moved: {moved})")
        if phase == "order":
            if p.token_turn_order != "team_chooses_order":
                raise ValueError("phase order exists only with token_turn_order = team_chooses_order")
            return State(phase="order", mover=to_move, rules=rules, board=game._key, obstacles=obstacles,
                         bought_total=bought_total, walls=walls, tokens=tuple(tokens), arrived=tuple(arrived),
                         eliminated=tuple(eliminated), moved=tuple(moved), round=round_, first_wall_turn=first)
        pos = tokens[to_move - 1]
        raw_path = data.get("path", [list(B.cell(pos))])
        if not isinstance(raw_path, list) or not raw_path:
            raise ValueError("path must be a list of tiles, the start tile first")
        path = [self.cell(v, "path") for v in raw_path]
        if path[-1] != pos:
            raise ValueError(f"path must end on {names(to_move)}'s tile {list(B.cell(pos))}")
        jumps = 0
        landed = set([path[0]] if rules.start_tile_counts else [])
        for a, b in zip(path, path[1:]):
            dc, dr = abs(a % B.W - b % B.W), abs(a // B.W - b // B.W)
            if (dc, dr) == (1, 1):
                jumps += 1
            elif dc + dr != 1:
                raise ValueError(f"path: {list(B.cell(a))} to {list(B.cell(b))} is neither a step nor a jump")
            if (walls >> B.edge(a, b) & 1) if dc + dr == 1 else False:
                raise ValueError(f"path: a wall lies between {list(B.cell(a))} and {list(B.cell(b))}")
            if obstacles >> b & 1:
                raise ValueError(f"path: {list(B.cell(b))} holds an obstacle")
            if b in landed:
                raise ValueError(f"path: {list(B.cell(b))} is landed on twice, which eliminates the token "
                                 "(list it in eliminated)")
            landed.add(b)
        steps = len(path) - 1 + jumps * (rules.jump_step_cost - 1)
        if data.get("steps_taken", steps) != steps or data.get("jumps_used", jumps) != jumps:
            raise ValueError(f"steps_taken and jumps_used must match the path ({steps} steps, {jumps} jumps)")
        if jumps > rules.max_jumps_per_turn:
            raise ValueError(f"path: {jumps} jumps, more than max_jumps_per_turn={rules.max_jumps_per_turn}")
        if steps >= rules.move_length:
            raise ValueError(f"path: {steps} steps taken, so the turn is over (move_length={rules.move_length})")
        if rules.goal_on_entry and B.goal >> pos & 1:
            raise ValueError(f"{names(to_move)} is on the goal row, so it has arrived (goal_on_entry)")
        state = State(phase="token", mover=to_move, rules=rules, board=game._key, obstacles=obstacles,
                      bought_total=bought_total, walls=walls, tokens=tuple(tokens), arrived=tuple(arrived),
                      eliminated=tuple(eliminated), moved=tuple(moved), round=round_, first_wall_turn=first,
                      path=tuple(path), steps_taken=steps, jumps_used=jumps)
        if steps == 0 and rules.eliminate_when_no_path and not game.has_clean_path(state):
            raise ValueError(f"{names(to_move)} has no clean path of {rules.move_length} steps at the start of "
                             "its turn, so it is eliminated at once (rule A.1 §17): list it in eliminated, or "
                             "write the position before (the wall player's turn)")
        if not game._candidates(state, game._token_context(state)):
            raise ValueError(f"{names(to_move)} cannot make a single step, so its turn "
                             + ("has passed" if steps == 0 else "is over (it is eliminated, rule A.1 §17)"))
        return state


# --------------------------------------------------------------------------- the scene

class _View:
    """Builds the scene of a position (see :mod:`playtest.scene`)."""

    def __init__(self, game: ThenThereWasOne, state: State, seat: int | None):
        self.game, self.state, self.seat = game, state, seat
        self.B = game.B
        self.s = Scene()

    def build(self) -> dict:
        game, state, B, s = self.game, self.state, self.B, self.s
        seats = game.seats()
        s.board("board", "grid", title=f"{game.title}: round {state.round}", cols=B.W, rows=B.L, cell=34,
                flip=True)
        tokens_at = {t: k + 1 for k, t in enumerate(state.tokens) if t >= 0}
        for i in range(B.size):
            fill = GOAL_FILL if B.goal >> i & 1 else ZONE_FILL if B.zone >> i & 1 else TILE_FILL
            start = i < B.W and B.start_mask >> i & 1
            title = f"{B.label(i)} {list(B.cell(i))}" + (" start circle" if start else "") + \
                (" goal row" if B.goal >> i & 1 else "")
            s.cell("board", B.cell(i), fill=fill, text="○" if start and i not in tokens_at else None, title=title)
        s.line("board", [(0, B.S), (B.W, B.S)], color="#111", width=4)
        for i in _bits(state.obstacles):
            bought = state.bought >> i & 1
            s.piece("board", B.cell(i), "square", OBSTACLE_COLOR, size=0.84,
                    outline="#f2b134" if bought else None,
                    title="obstacle bought this turn" if bought else "obstacle")
        mover = game.to_move(state)
        acting = state.phase not in ("over", "scatter") and (self.seat is None or self.seat == mover)
        wall_turn = state.phase == "wall" and acting
        for e in _bits(state.walls | state.built):
            i, j = B.edge_cells(e)
            style = "wall" if state.built >> e & 1 else "old"
            eid = s.edge("board", B.cell(i), B.cell(j), style=style,
                         title="built this turn" if style == "wall" else "left standing from an earlier turn")
            if wall_turn:
                verb = "take back this wall" if style == "wall" else "pick up this wall"
                s.move(eid, verb, Remove(B.cell(i), B.cell(j)).to_json())
        if state.phase == "token" and state.path:
            color = SEAT_COLORS[state.mover]
            points = [(i % B.W + 0.5, i // B.W + 0.5) for i in state.path]
            if len(points) >= 2:
                s.line("board", points, color=color, width=3, dash=True)
        for seat, t in enumerate(state.tokens, start=1):
            if t < 0:
                continue
            dim = seat in state.arrived
            moving = state.phase == "token" and seat == state.mover
            if moving:  # the token on the move shows its steps left
                left = state.rules.move_length - state.steps_taken
                text, title = str(left), f"{seats[seat].name}'s token: {left} step{'s' if left != 1 else ''} left"
            else:
                text, title = str(seat), f"{seats[seat].name}'s token (seat {seat})" + (" (arrived)" if dim else "")
            s.piece("board", B.cell(t), SEAT_SHAPES[seat], SEAT_COLORS[seat], size=0.72, text=text, dim=dim,
                    title=title, outline="#111" if moving else None)
        self.status()
        self.panels()
        if acting:
            getattr(self, f"interact_{state.phase}")()
        elif state.phase == "over":
            s.hint("The game is over. Undo, or jump back in the history to try another line.")
        elif state.phase == "scatter":
            s.hint("The obstacles are about to be scattered (a chance step).")
        else:
            s.hint(f"Waiting for {seats[mover].name}.")
        return s.to_json()

    def status(self) -> None:
        game, state, s = self.game, self.state, self.s
        if state.phase == "over":
            s.status(f"Game over: {state.reason}")
            return
        if state.phase == "scatter":
            s.status(game.describe_state(state))
            return
        seat = game.seats()[state.mover]
        s.status(game.describe_state(state), seat.color, seat.shape)

    def panels(self) -> None:
        game, state, s, B = self.game, self.state, self.s, self.B
        p = game.params
        rules = state.rules
        seats = game.seats()
        n = game.tokens_n
        standing = _popcount(state.walls | state.built)
        if state.phase == "wall":
            used = game.points_used(state)
            rows = [["points used", f"{used} of {rules.wall_budget}"],
                    ["points left", str(rules.wall_budget - used)],
                    ["walls standing", f"{_popcount(state.walls)} (+{_popcount(state.built)} built this turn)"],
                    ["obstacles bought", f"{_popcount(state.bought)} this turn (max {rules.max_obstacles_per_turn}), "
                                         f"{state.bought_total} of {rules.max_bought_obstacles_per_game} this game"],
                    ["obstacle cost", f"{rules.obstacle_cost} points, this turn only"]]
            if state.first_wall_turn and rules.first_turn_black_line_ban:
                rows.append(["first turn", "nothing behind the black line"])
        else:
            rows = [["walls standing", f"{standing} (count towards the next wall turn)"],
                    ["budget", f"{p.wall_budget} points a wall turn"],
                    ["obstacles bought", f"{state.bought_total} of {p.max_bought_obstacles_per_game} this game"]]
        if state.phase == "wall" and p.wall_budget != rules.wall_budget:
            rows.append(["next turn", f"budget {p.wall_budget} from the wall player's next turn"])
        s.panel("Wall budget", rows)
        token_rows = []
        for seat in range(1, n + 1):
            t = state.tokens[seat - 1]
            how = dict(state.eliminated).get(seat)
            if how:
                where = f"eliminated ({how})"
            elif seat in state.arrived:
                where = "arrived" + (f" on {B.label(t)}" if t >= 0 else "")
            elif t >= 0:
                where = f"on {B.label(t)}" + (" (moved this round)" if seat in state.moved else "")
            else:
                where = "not placed yet"
            token_rows.append([seats[seat].name, where])
        s.panel("Tokens", token_rows)
        s.panel("Game", [["round", f"{state.round} of {p.max_rounds}"],
                         ["arrived", f"{len(state.arrived)} (the tokens win at {p.token_win_threshold[n - 2]})"],
                         ["eliminated", f"{len(state.eliminated)} (the wall player wins at "
                                        f"{p.wall_win_threshold[n - 2]})"]])
        if state.phase == "token":
            s.panel("This turn", [["steps", f"{state.steps_taken} of {rules.move_length}"],
                                  ["jumps", f"{state.jumps_used} of {rules.max_jumps_per_turn}"]])
        if state.phase in ("wall", "token"):
            changed = [[spec.name, f"{_show(getattr(p, spec.name))} from the next turn "
                                   f"(now {_show(getattr(rules, spec.name))})"]
                       for spec in p.specs() if spec.live and getattr(p, spec.name) != getattr(rules, spec.name)]
            if changed:
                s.panel("Changed rules", changed)

    # one method per phase: the player to move's clickable options
    def interact_wall(self) -> None:
        game, state, s, B = self.game, self.state, self.s, self.B
        rules = state.rules
        walls = state.walls | state.built
        build = game._build_mask(state)
        for e in _bits(build):
            if game._keeps_corridor(state, walls | 1 << e, state.obstacles):
                i, j = B.edge_cells(e)
                eid = s.edge("board", B.cell(i), B.cell(j), style="slot")
                s.move(eid, "build a wall here (1 point)", Build(B.cell(i), B.cell(j)).to_json())
        # buying is two clicks: the obstacle supply beside the board, then a tile (so the tiles are
        # not all lit up while the player builds walls)
        s.board("supply", "grid", title="Buy", cols=1, rows=1, cell=40)
        s.cell("supply", (0, 0), fill="#fffdf8", id="supply:cell")
        supply = s.piece("supply", (0, 0), "square", OBSTACLE_COLOR, size=0.8, id=SUPPLY,
                         title=f"an obstacle: {rules.obstacle_cost} points this turn, permanent")
        buy = game._buy_mask(state)
        used = game.points_used(state)
        buyable = 0
        for i in range(B.size):
            cid = cell_id(B.cell(i))
            if buy >> i & 1 and game._keeps_corridor(state, walls, state.obstacles | 1 << i):
                s.select(supply, cid, f"buy an obstacle here ({rules.obstacle_cost} points, permanent)",
                         Buy(B.cell(i)).to_json())
                buyable += 1
                continue
            try:
                game._check_buy(state, Buy(B.cell(i)))
            except IllegalAction as err:
                s.reason(cid, str(err))
        if not buyable:
            if _popcount(state.bought) >= rules.max_obstacles_per_turn:
                why = (f"{_popcount(state.bought)} obstacles were bought this turn already "
                       f"(max_obstacles_per_turn) (rule A.1 §14.2)")
            elif state.bought_total >= rules.max_bought_obstacles_per_game:
                why = (f"{state.bought_total} obstacles were bought in this game already "
                       f"(max_bought_obstacles_per_game) (rule A.1 §14.2)")
            elif used + rules.obstacle_cost > rules.wall_budget:
                why = (f"an obstacle costs {rules.obstacle_cost} points and only {rules.wall_budget - used} are "
                       "left (rule A.1 §14.1)")
            else:
                why = "no tile can take an obstacle now"
            s.reason(supply, why)
        if used <= rules.wall_budget:
            s.button("End wall turn", EndTurn().to_json())
            s.hint(f"Click an empty edge to build a wall (1 point) or a wall to pick it up; to buy an obstacle "
                   f"({rules.obstacle_cost} points) click the supply, then a tile. {rules.wall_budget - used} "
                   "points left. Then End wall turn.")
        else:
            s.hint(f"{used} points are used but the budget is {rules.wall_budget}: pick up "
                   f"{used - rules.wall_budget} wall(s) first (rule A.1 §14.1).")

    def interact_token(self) -> None:
        game, state, s, B = self.game, self.state, self.s, self.B
        rules = state.rules
        legal = game._legal_token_moves(state)
        visited = game._visited(state)
        pos = state.path[-1]
        left = rules.move_length - state.steps_taken
        seen = set()
        for n, jump in legal:
            cid = cell_id(B.cell(n))
            if visited >> n & 1:
                label = "step here: lands twice, eliminated!"
            elif jump:
                label = f"jump here ({rules.jump_step_cost} step{'s' if rules.jump_step_cost > 1 else ''})"
            else:
                label = "step here"
            if B.goal >> n & 1 and rules.goal_on_entry:
                label += ": reaches the goal row"
            s.move(cid, label, game._step_action(n, jump).to_json())
            seen.add(n)
        for n in _bits(B.adj8[pos]):
            if n in seen:
                continue
            diagonal = not B.adj4[pos] >> n & 1
            why, rule = game.step_reason(state, n, diagonal)
            s.reason(cell_id(B.cell(n)), f"{why} (rule {rule})")
        name = game.seats()[state.mover].name
        s.hint(f"{name}: {left} step{'s' if left != 1 else ''} left. Click a highlighted tile to step there "
               f"(a diagonal is a jump, {rules.max_jumps_per_turn - state.jumps_used} left).")

    def interact_start(self) -> None:
        game, state, s = self.game, self.state, self.s
        for action in game.legal_actions(state):
            s.move(cell_id(action.at), "start here", action.to_json())  # type: ignore[attr-defined]
        s.hint(f"{game.seats()[state.mover].name}: click a start circle ○ in row 1 for your token.")

    def interact_order(self) -> None:
        game, state, s = self.game, self.state, self.s
        for action in game.legal_actions(state):
            s.button(f"{game.seats()[action.seat].name} moves next", action.to_json())  # type: ignore
        s.hint("The token team picks which token moves next.")

    def interact_place(self) -> None:
        game, state, s = self.game, self.state, self.s
        for action in game.legal_actions(state):
            s.move(cell_id(action.at), "place an obstacle here", action.to_json())  # type: ignore
        s.hint(f"{game.seats()[state.mover].name}: click a tile in front of the black line for an obstacle.")


# --------------------------------------------------------------------------- bots

def _goal_distances(game: ThenThereWasOne, state: State) -> list[int]:
    """BFS steps from every tile to the goal row, around obstacles and walls (tokens ignored)."""
    B = game.B
    return B.distances(B.goal, B.all & ~state.obstacles, state.walls | state.built)


@register_bot("then_there_was_one", "greedy_token")
class GreedyTokenBot(Bot):
    """Token players head for the goal: the clean path of this turn that ends nearest the goal row.

    It plays the token seats only (and their setup choices); seat it per seat,
    e.g. ``Table(session, bots={1: GreedyTokenBot(), 2: GreedyTokenBot()})``
    or ``simulate(game, {0: GreedyWallBot(), 1: GreedyTokenBot(), ...})``.
    Distances are breadth-first steps to the goal row around obstacles and
    walls; the search looks at every clean path of the turn (branch and bound).
    """

    name = "greedy_token"
    NODES = 4000   # search nodes per step, so a token in a large walled-off area decides quickly

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose(self, game: ThenThereWasOne, state: State) -> Action:
        phase = state.phase
        if phase == "token":
            return self._step(game, state)
        if phase == "start":
            dist = _goal_distances(game, state)
            options = game.legal_actions(state)
            # the start circle nearest the goal, the middle of the row breaking ties
            mid = (game.B.W - 1) / 2
            return min(options, key=lambda a: (dist[game.B.index(a.at)], abs(a.at[0] - mid)))  # type: ignore
        if phase == "order":
            dist = _goal_distances(game, state)
            return min(game.legal_actions(state), key=lambda a: dist[state.tokens[a.seat - 1]])  # type: ignore
        if phase == "place":
            return game.random_action(state, self.rng)
        raise ValueError("GreedyTokenBot plays token seats only; seat a wall bot at seat 0 "
                         "(bots={0: GreedyWallBot(), 1: GreedyTokenBot(), ...})")

    def _step(self, game: ThenThereWasOne, state: State) -> Action:
        B = game.B
        rules = state.rules
        pos, walls, obstacles, occupied, visited, k, jumps = game._token_context(state)
        dist = _goal_distances(game, state)
        if dist[pos] >= FAR:  # walled off from the goal: press towards it anyway (walls may be picked up)
            dist = B.distances(B.goal, B.all & ~obstacles, 0)
            if dist[pos] >= FAR:
                dist = [0] * B.size
        legal = game._legal_token_moves(state)
        clean, _ = game.token_moves(state)
        if not clean:
            # no clean path: least bad step (stay alive if possible, then nearest the goal)
            return game._step_action(*min(legal, key=lambda m: (visited >> m[0] & 1, dist[m[0]])))
        goal = B.goal if rules.goal_on_entry else 0
        jcost = rules.jump_step_cost
        ortho, diag = B.ortho, B.diag
        jump_ok = game._jump_ok
        best = [FAR + 1]
        budget = [self.NODES]

        def search(cell: int, k: int, jumps: int, blocked: int) -> int | None:
            """Best end distance reachable with exactly k more clean steps (None: no clean finish)."""
            if k <= 0:
                return dist[cell]
            budget[0] -= 1
            if dist[cell] - k - jumps >= best[0] or budget[0] < 0:  # cannot beat the best found, or enough
                return None
            moves = [(n, False) for n, bit in ortho[cell] if not (walls & bit or blocked >> n & 1)]
            if jumps > 0 and k >= jcost:
                moves += [(e[0], True) for e in diag[cell]
                          if not blocked >> e[0] & 1 and jump_ok(e, walls, obstacles, rules)]
            moves.sort(key=lambda m: dist[m[0]])
            result = None
            for n, jump in moves:
                if goal >> n & 1:
                    value = -k  # arriving early is best
                else:
                    value = search(n, k - (jcost if jump else 1), jumps - jump, blocked | 1 << n)
                if value is not None and (result is None or value < result):
                    result = value
                    best[0] = min(best[0], value)
            return result

        scored = []
        for n, jump in clean:
            if goal >> n & 1:
                value = -k
            else:
                cost = jcost if jump else 1
                value = search(n, k - cost, jumps - jump, occupied | visited | 1 << n)
            if value is None:
                value = FAR if budget[0] >= 0 else FAR - 1   # unexplored beats proven dead
            scored.append((value, dist[n], n, jump))
        value, _, n, jump = min(scored)
        return game._step_action(n, jump)


@register_bot("then_there_was_one", "greedy_wall")
class GreedyWallBot(Bot):
    """The wall player lengthens the tokens' shortest paths to the goal row, greedily.

    Each action it takes the affordable wall segment (or obstacle) that most
    increases the sum of the tokens' breadth-first distances to the goal row
    per point spent, counting a token cut off from the goal as far away, and
    one with fewer than ``move_length`` free tiles around it as trapped. It
    picks up standing walls that no longer help when it needs the points, and
    ends its turn when nothing helps. It plays seat 0 only: seat it with
    ``Table(session, bots={0: GreedyWallBot()})``.
    """

    name = "greedy_wall"
    CUT_OFF = 40     # a token cut off from the goal counts this far away,
    SHRINK = 2       # plus this much for every tile its area is smaller than 40,
    TRAPPED = 200    # plus this much when it is boxed into move_length tiles or fewer

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose(self, game: ThenThereWasOne, state: State) -> Action:
        if state.phase == "place":
            return game.random_action(state, self.rng)
        if state.phase != "wall":
            raise ValueError("GreedyWallBot plays the wall player (seat 0) only; seat token bots at seats 1..")
        B = game.B
        rules = state.rules
        walls = state.walls | state.built
        used = game.points_used(state)
        left = rules.wall_budget - used
        token_cells = [state.tokens[s - 1] for s in game.in_play(state)]
        score = lambda w, o: self._score(game, state, w, o, token_cells)  # noqa: E731
        base = score(walls, state.obstacles)
        if left < 0:  # over budget: drop the wall that helps least
            e = max(_bits(walls), key=lambda e: score(walls & ~(1 << e), state.obstacles))
            i, j = B.edge_cells(e)
            return Remove(B.cell(i), B.cell(j))
        relevant = self._relevant_cells(game, state, walls, token_cells)
        best, best_gain = None, 0.0
        if left >= 1:
            build = game._build_mask(state)
            edges = 0
            for i in _bits(relevant):
                edges |= B.cell_edges[i]
            for e in _bits(build & edges):
                w = walls | 1 << e
                if not game._keeps_corridor(state, w, state.obstacles):
                    continue
                gain = score(w, state.obstacles) - base
                if gain > best_gain:
                    best, best_gain = ("build", e), gain
        buy = game._buy_mask(state) & relevant
        if buy and rules.obstacle_cost <= left:
            cost = max(1, rules.obstacle_cost)
            for i in _bits(buy):
                o = state.obstacles | 1 << i
                if not game._keeps_corridor(state, walls, o):
                    continue
                gain = (score(walls, o) - base) / cost
                if gain > best_gain * 1.001:
                    best, best_gain = ("buy", i), gain
        if best is not None:
            if best[0] == "build":
                i, j = B.edge_cells(best[1])
                return Build(B.cell(i), B.cell(j))
            return Buy(B.cell(best[1]))
        # nothing affordable helps: free points held by standing walls that no longer help
        if left < max(1, rules.obstacle_cost):
            for e in _bits(state.walls):
                if score(walls & ~(1 << e), state.obstacles) >= base and self._would_help(
                        game, state, walls & ~(1 << e), relevant, base):
                    i, j = B.edge_cells(e)
                    return Remove(B.cell(i), B.cell(j))
        return EndTurn()

    def _would_help(self, game: ThenThereWasOne, state: State, walls: int, relevant: int, base: float) -> bool:
        """Whether one new wall (with the point freed) would raise the score: no pointless pick-ups."""
        B = game.B
        token_cells = [state.tokens[s - 1] for s in game.in_play(state)]
        edges = 0
        for i in _bits(relevant):
            edges |= B.cell_edges[i]
        free_edges = edges & B.inner & ~walls & ~game._clearance_mask(state, state.rules)
        if state.first_wall_turn and state.rules.first_turn_black_line_ban:
            free_edges &= ~B.zone_edges
        for e in _bits(free_edges):
            if self._score(game, state, walls | 1 << e, state.obstacles, token_cells) > base:
                return True
        return False

    def _relevant_cells(self, game: ThenThereWasOne, state: State, walls: int, token_cells: list[int]) -> int:
        """Tiles on some shortest path from a token to the goal row (where a wall can lengthen it)."""
        B = game.B
        free = B.all & ~state.obstacles
        to_goal = B.layers(B.goal, free, walls)
        relevant = 0
        for t in token_cells:
            if not any(layer >> t & 1 for layer in to_goal):
                for layer in B.layers(1 << t, free, walls)[:4]:  # cut off: walls near it shrink its area
                    relevant |= layer
                continue
            from_token = B.layers(1 << t, free, walls)
            d = next(k for k, layer in enumerate(to_goal) if layer >> t & 1)
            for k in range(d + 1):
                if k < len(from_token):
                    relevant |= from_token[k] & to_goal[d - k]
        return relevant

    def _score(self, game: ThenThereWasOne, state: State, walls: int, obstacles: int, token_cells: list[int]) -> float:
        B = game.B
        free = B.all & ~obstacles
        layers = B.layers(B.goal, free, walls)
        total = 0.0
        move = state.rules.move_length
        blockers = 0
        for t in token_cells:
            blockers |= 1 << t
        for t in token_cells:
            for k, layer in enumerate(layers):
                if layer >> t & 1:
                    total += k
                    break
            else:
                size = B.reach(1 << t, free & ~(blockers & ~(1 << t)), walls).bit_count()
                total += self.CUT_OFF + self.SHRINK * max(0, 40 - size)
                if size <= move:
                    total += self.TRAPPED
        return total
