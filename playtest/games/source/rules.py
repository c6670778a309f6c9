"""Source, from "The Crossroads Challenge" week 1 (junksalongames.com, May 2012), for 2 players.

Rules: ``shared/rules/RULES.md`` section C, from the seed text. Four colours grow
chains of tokens from their *source* corners on the points of a 9x9 grid.
Player A plays red + yellow, player B blue + green; the colours take turns
clockwise (red, blue, yellow, green) with 2 action points each. A token is
*connected* when an orthogonal chain of its colour links it to its source;
connection decides where a colour may place, what it may fortify, what a
capture costs and what a token scores, so it is recomputed after every action.
The game ends when a colour's supply runs out; connected tokens score 2,
unconnected ones 1, a connected centre 10, and an empty point enclosed by one
colour (the board edge is a wall) 3.

A turn is a sequence of atomic actions, so board, bots and undo share them:

* :class:`Place` (1 AP) — a supply token on an empty point next to a connected
  token of the active colour;
* :class:`Fortify` (1 AP) — a supply token on top of a connected token of the
  active colour (not on the centre);
* :class:`RemoveFortification` (1 AP + 1 supply token) — take the fortification
  off an opponent's connected stack;
* :class:`Capture` — an opponent's token: 2 AP when connected, 1 when not, and 1
  for an unconnected fortified stack (both tokens go);
* :class:`EndTurn` — pass the remaining points. A turn also ends by itself when
  its points are spent.

Points are named like ``e5``: a column letter (``a`` on the left) and a row
number counted **from the top** (row 1 is the top line of the diagram), so
``a1`` is the top-left corner, red's source.

Position JSON
-------------
``state.to_json()`` gives, and ``game.state_from_json`` reads::

    {"board": ["r.......b",      # one text line per row, the top row first
               ".........",      # . empty, r b y g a token of red, blue,
               "....R....",      #   yellow, green; upper case: fortified
               ...,
               "g.......y"],
     "supply": {"red": 24, "blue": 24, "yellow": 24, "green": 24},
     "to_move": "red",           # the active colour
     "ap_left": 2,               # its action points left
     "acted": false,             # has it acted this turn (a turn without action is a pass)
     "passes": 0,                # colour turns in a row that passed
     "turn": 0,                  # colour turns completed (turn 0 gets first_turn_ap)
     "over": ""}                 # why the game ended, "" while it goes on

Only ``board`` is required: ``supply`` defaults to the tokens not on the
board, ``to_move`` to ``first_color`` and ``ap_left`` to a full turn. A row
may also be written with spaces between points (``"r . . R2 . . . . b"``);
then ``R2`` is a red stack with 2 fortification tokens (``max_fortify_layers``).

>>> import playtest
>>> game = playtest.load("source")
>>> state = game.state_from_json({"board": [
...     "rr......b",
...     "r........",
...     ".........",
...     ".........",
...     ".........",
...     ".........",
...     ".........",
...     ".........",
...     "g.......y"]})
>>> state.supply
(22, 24, 24, 24)
>>> [str(a) for a in game.legal_actions(state)][:4]
['place c1', 'place b2', 'place a3', 'fortify a1']
>>> state = game.apply(state, game.action_from_json({"kind": "place", "col": 4, "row": 4}))
Traceback (most recent call last):
...
playtest.rules.IllegalAction: e5 is not next to a connected red token (rule C.1 §8)
>>> state = game.apply(state, game.action_from_json({"kind": "place", "col": 2, "row": 0}))
>>> state.to_json()["board"][0], state.ap_left
('rrr.....b', 1)
>>> game.score(state).players
(10, 4)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar, Iterator

from ...bots import Bot, register_bot
from ...geometry import DIAGONAL, ORTHOGONAL, Grid
from ...rules import Action, EndTurn, Game, IllegalAction, Outcome, Params, Seat, param, register
from ...scene import Scene, point_id

__all__ = ["Source", "SourceParams", "State", "Place", "Fortify", "RemoveFortification", "Capture",
           "EndTurn", "ColorScore", "Score", "GreedyBot", "point_name"]

#: The four colours, in the index order used everywhere in this module.
COLORS = ("red", "blue", "yellow", "green")
LETTERS = "rbyg"
CSS = {"red": "#d1495b", "blue": "#2f6fce", "yellow": "#e8b820", "green": "#2f9e44"}
TINT = {"red": "#f4c7cd", "blue": "#c5d6f3", "yellow": "#f8e7b0", "green": "#c6e8cd"}
SEAT_SHAPES = ("circle", "square")
PLAYER_NAMES = ("A", "B")
COLUMN_LETTERS = "abcdefghijklmnopqrs"
PLAYER_COLOR_CHOICES = ("red+yellow/blue+green", "red+blue/yellow+green", "red+green/blue+yellow")

#: Rule ids quoted in error messages (RULES.md section C).
R_BOARD, R_SETUP, R_TURN, R_PLACE, R_FORTIFY, R_REMOVE = "C.1 §1", "C.1 §6", "C.1 §7", "C.1 §8", "C.1 §9", "C.1 §10"
R_CAP_CONN, R_CAP_UNCONN, R_CAP_FORT, R_RANGE, R_NOT_ALLOWED, R_END = \
    "C.1 §11", "C.1 §12", "C.1 §13", "C.1 §14", "C.1 §15", "C.1 §16"


def point_name(col: int, row: int) -> str:
    """``e5`` for column 4, row 4: a column letter and a row number counted from the top.

    >>> point_name(0, 0), point_name(8, 8)
    ('a1', 'i9')
    """
    return f"{COLUMN_LETTERS[col]}{row + 1}"


# --------------------------------------------------------------------------- parameters

@dataclass(frozen=True)
class SourceParams(Params):
    """Rule parameters of Source (RULES.md table C.3)."""

    board_size: int = param(9, "points per side of the square board (odd, so that there is a centre)",
                            source="seed", live=False, min=5, max=19, rule="C2")
    colors_clockwise: tuple = param(COLORS, "the sources' colours clockwise from the top-left corner; "
                                    "turns go round in this order", source="seed", live=False, rule="C3")
    player_colors: str = param("red+yellow/blue+green", "the colours of player A / player B",
                               source="seed", live=False, choices=PLAYER_COLOR_CHOICES, rule="C.1 §3")
    tokens_per_color: int = param(25, "tokens of each colour in the box", source="public", live=False,
                                  min=2, max=400, rule="C1")
    source_from_supply: bool = param(True, "the source token is one of the colour's tokens "
                                     "(else it is extra and the supply starts full)", live=False, rule="C1")
    first_color: str = param("red", "the colour that takes the first turn", live=False, choices=COLORS,
                             rule="C4")
    ap_per_turn: int = param(2, "action points of a colour's turn (unused points are lost)",
                             source="seed", min=1, max=20, rule="C13")
    first_turn_ap: int = param(2, "action points of the game's very first turn (a balancing knob)",
                               min=1, max=20, rule="C4")
    cost_place: int = param(1, "action points to place a token", source="seed", min=0, max=20,
                            rule="C.1 §8")
    cost_fortify: int = param(1, "action points to fortify a connected token of your colour",
                              source="seed", min=0, max=20, rule="C.1 §9")
    cost_remove_fortification: int = param(1, "action points to remove an opponent's connected fortification",
                                           source="seed", min=0, max=20, rule="C.1 §10")
    remove_fortification_tokens: int = param(1, "unused tokens of the active colour that a fortification "
                                             "removal also costs (they leave the game)", source="seed",
                                             min=0, max=10, rule="C10")
    cost_capture_connected: int = param(2, "action points to capture an opponent's connected token",
                                        source="seed", min=0, max=20, rule="C.1 §11")
    cost_capture_unconnected: int = param(1, "action points to capture an opponent's unconnected token",
                                          source="seed", min=0, max=20, rule="C.1 §12")
    cost_capture_unconnected_fortified: int = param(1, "action points to capture an unconnected fortified "
                                                    "stack (all its tokens go)", source="seed", min=0,
                                                    max=20, rule="C.1 §13")
    capture_connected_fortified_cost: int = param(0, "action points to capture a connected fortified stack "
                                                  "directly (all its tokens go); 0: not allowed, remove the "
                                                  "fortification first", min=0, max=20, rule="C11")
    max_fortify_layers: int = param(1, "fortification tokens one point may hold (0: no fortifying)",
                                    min=0, max=9, rule="C8")
    center_fortifiable: bool = param(False, "the centre point may be fortified", source="public", rule="C8")
    source_capturable: bool = param(False, "a source token may be captured", rule="C7")
    action_range: str = param("adjacent_to_connected", "captures and fortification removals target points "
                              "next to a connected token of the active colour, or anywhere",
                              choices=("adjacent_to_connected", "global"), rule="C6")
    connection_through_partner: bool = param(False, "the partner colour's tokens also carry a colour's "
                                             "connection to its source (a placement still goes next to an "
                                             "own connected token)", rule="C5")
    end_trigger: str = param("supply_empty", "the end comes when a colour's supply is empty, or when a colour "
                             "has no token left on the board", source="seed",
                             choices=("supply_empty", "board_empty"), rule="C14")
    end_timing: str = param("immediate", "the game ends right after the triggering action, at the end of "
                            "that turn, or at the end of that round (equal turns)",
                            choices=("immediate", "end_of_turn", "end_of_round"), rule="C14")
    pass_limit: int = param(4, "the game ends after this many colour turns in a row without an action",
                            min=1, max=100, rule="C15")
    score_connected: int = param(2, "points for each connected token", source="seed", min=0, max=100,
                                 rule="C.1 §17")
    score_unconnected: int = param(1, "points for each unconnected token", source="seed", min=0, max=100,
                                   rule="C.1 §17")
    center_connected_value: int = param(10, "points for a connected token on the centre", source="seed",
                                        min=0, max=100, rule="C16")
    center_mode: str = param("replace", "the centre value replaces score_connected, or is added to it",
                             choices=("replace", "add"), rule="C16")
    fortification_scores: bool = param(False, "fortification tokens score like their base token",
                                       source="public", rule="C17")
    territory_value: int = param(3, "points for each surrounded point", source="seed", min=0, max=100,
                                 rule="C18")
    territory_mode: str = param("single_point", "what scores as surrounded: single empty points, or whole "
                                "empty regions", choices=("single_point", "region"), rule="C18")
    territory_neighbourhood: str = param("orthogonal", "the neighbours that must enclose a point: 4 "
                                         "(orthogonal) or 8 (king)", choices=("orthogonal", "king"),
                                         rule="C18")
    territory_color_rule: str = param("single_color", "the enclosing tokens are of one colour, or of one "
                                      "player's two colours", source="seed",
                                      choices=("single_color", "same_player"), rule="C19")
    territory_requires_empty: bool = param(True, "only empty points are surrounded points (false: a point "
                                           "holding another colour's token counts too; single_point mode)",
                                           rule="C18")
    edge_counts_as_wall: bool = param(True, "the board edge encloses like a wall of tokens", source="seed",
                                      rule="C18")
    tiebreak: str = param("center_control", "a tie goes to the player with a token on the centre, with a "
                          "connected token there, or is a draw",
                          choices=("center_control", "center_connected", "draw"), rule="C20")

    def check(self) -> None:
        if self.board_size % 2 == 0:
            raise ValueError(f"source parameter board_size={self.board_size} is not allowed: it must be odd, "
                             "so that the board has a centre point (rule C.1 §1)")
        if sorted(self.colors_clockwise) != sorted(COLORS):
            raise ValueError(f"source parameter colors_clockwise={list(self.colors_clockwise)} is not allowed: "
                             f"it must name each of {', '.join(COLORS)} once (rule C3)")


# --------------------------------------------------------------------------- board geometry

class _Board:
    """Bit-board tables for an ``n`` x ``n`` board of points: bit ``row * n + col`` is a point."""

    def __init__(self, n: int):
        grid = Grid(n, n)
        self.n = n
        self.size = n * n
        self.grid = grid
        self.all = (1 << self.size) - 1
        col0 = sum(1 << (r * n) for r in range(n))
        self.not_col0 = self.all & ~col0
        self.not_last = self.all & ~(col0 << (n - 1))
        self.border = sum(1 << grid.index(p) for p in grid.cells()
                          if p[0] in (0, n - 1) or p[1] in (0, n - 1))
        self.centre = grid.index((n // 2, n // 2))
        self.corners = (0, n - 1, n * n - 1, n * (n - 1))   # clockwise from the top-left
        self.names = tuple(point_name(*grid.cell(i)) for i in range(self.size))
        self.neighbours4 = grid.neighbours
        self.neighbours8 = tuple(
            tuple(grid.index((c + dc, r + dr)) for dc, dr in ORTHOGONAL + DIAGONAL
                  if grid.inside((c + dc, r + dr)))
            for c, r in (grid.cell(i) for i in range(self.size)))
        self.mask4 = tuple(sum(1 << j for j in nb) for nb in self.neighbours4)
        self.mask8 = tuple(sum(1 << j for j in nb) for nb in self.neighbours8)

    def touch4(self, m: int) -> int:
        """Points with an orthogonal neighbour in ``m``."""
        n = self.n
        return (((m << 1) & self.not_col0) | ((m >> 1) & self.not_last) | (m << n) | (m >> n)) & self.all

    def touch8(self, m: int) -> int:
        """Points with a king-neighbour in ``m``."""
        n = self.n
        return (self.touch4(m) | ((m << (n + 1)) & self.not_col0) | ((m >> (n - 1)) & self.not_col0)
                | ((m << (n - 1)) & self.not_last) | ((m >> (n + 1)) & self.not_last)) & self.all

    def flood(self, seed: int, allowed: int) -> int:
        """The points of ``allowed`` orthogonally connected to ``seed`` (within ``allowed``)."""
        reach = seed & allowed
        frontier = reach
        n, not_col0, not_last = self.n, self.not_col0, self.not_last
        while frontier:
            grow = (((frontier << 1) & not_col0) | ((frontier >> 1) & not_last)
                    | (frontier << n) | (frontier >> n)) & allowed & ~reach
            reach |= grow
            frontier = grow
        return reach


@lru_cache(maxsize=None)
def _board(n: int) -> _Board:
    return _Board(n)


def _bits(mask: int) -> Iterator[int]:
    """Indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# --------------------------------------------------------------------------- actions

@dataclass(frozen=True, slots=True)
class Place(Action):
    """Put a token of the active colour on the empty point ``(col, row)``."""

    kind: ClassVar[str] = "place"
    col: int
    row: int

    def __str__(self) -> str:
        return f"place {point_name(self.col, self.row)}"


@dataclass(frozen=True, slots=True)
class Fortify(Action):
    """Put a supply token on top of the active colour's connected token at ``(col, row)``."""

    kind: ClassVar[str] = "fortify"
    col: int
    row: int

    def __str__(self) -> str:
        return f"fortify {point_name(self.col, self.row)}"


@dataclass(frozen=True, slots=True)
class RemoveFortification(Action):
    """Take the fortification off an opponent's connected stack at ``(col, row)``."""

    kind: ClassVar[str] = "remove_fortification"
    col: int
    row: int

    def __str__(self) -> str:
        return f"remove fortification {point_name(self.col, self.row)}"


@dataclass(frozen=True, slots=True)
class Capture(Action):
    """Remove an opponent's token (or unconnected stack) at ``(col, row)`` from the game."""

    kind: ClassVar[str] = "capture"
    col: int
    row: int

    def __str__(self) -> str:
        return f"capture {point_name(self.col, self.row)}"


POINT_ACTIONS = (Place, Fortify, RemoveFortification, Capture)
END_TURN = EndTurn()


# --------------------------------------------------------------------------- state and score

@dataclass(frozen=True, slots=True)
class State:
    """A position of Source (an immutable value; see the module docstring for its JSON form).

    ``stones[c]`` is a bit mask of the points holding colour ``c``'s token
    (colours in :data:`COLORS` order; bit ``row * size + col``), ``forts[k]``
    the points with more than ``k`` fortification tokens. ``connected`` and
    ``tally`` are derived from the rest (and the parameters) and kept up to
    date action by action; they take no part in equality.
    """

    size: int               # points per side
    stones: tuple
    forts: tuple
    supply: tuple
    active: int             # the active colour's index
    ap_left: int
    acted: bool = False
    passes: int = 0
    turn: int = 0
    over: str = ""
    #: bit mask of each colour's connected tokens
    connected: tuple = field(default=(0, 0, 0, 0), compare=False)
    #: per colour: (connected, unconnected, centre, surrounded) points, updated per action
    tally: tuple = field(default=((0, 0, 0, 0),) * 4, compare=False)

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

    def to_json(self) -> dict[str, Any]:
        """The hand-writable JSON form (see the module docstring)."""
        return {"board": self.diagram(), "supply": dict(zip(COLORS, self.supply)),
                "to_move": COLORS[self.active], "ap_left": self.ap_left, "acted": self.acted,
                "passes": self.passes, "turn": self.turn, "over": self.over}

    def __str__(self) -> str:
        return "\n".join(self.diagram())


@dataclass(frozen=True)
class ColorScore:
    """One colour's points: its tokens (connected, unconnected, the centre) and surrounded points."""

    connected: int
    unconnected: int
    centre: int
    surrounded: int

    @property
    def total(self) -> int:
        return self.connected + self.unconnected + self.centre + self.surrounded

    def to_json(self) -> dict[str, int]:
        return {"connected": self.connected, "unconnected": self.unconnected, "centre": self.centre,
                "surrounded": self.surrounded, "total": self.total}


@dataclass(frozen=True)
class Score:
    """The score of a position: a breakdown per colour and the two players' totals.

    ``players`` is ``(player A, player B)``; ``colors`` maps a colour name to
    its :class:`ColorScore`.
    """

    colors: dict
    players: tuple
    player_colors: tuple

    def __getitem__(self, color: str) -> ColorScore:
        return self.colors[color]

    def to_json(self) -> dict[str, Any]:
        return {"colors": {name: s.to_json() for name, s in self.colors.items()},
                "players": {PLAYER_NAMES[i]: self.players[i] for i in range(2)}}

    def rows(self) -> list[list[str]]:
        """A small table: a header, one row per colour, one per player."""
        out = [["", "connected", "unconnected", "centre", "surrounded", "total"]]
        for seat, colours in enumerate(self.player_colors):
            for name in colours:
                s = self.colors[name]
                out.append([f"{name} ({PLAYER_NAMES[seat]})", str(s.connected), str(s.unconnected),
                            str(s.centre), str(s.surrounded), str(s.total)])
        for seat, colours in enumerate(self.player_colors):
            parts = [self.colors[name] for name in colours]
            out.append([f"player {PLAYER_NAMES[seat]}"] + [str(sum(getattr(s, k) for s in parts)) for k in
                                                        ("connected", "unconnected", "centre", "surrounded")]
                       + [str(self.players[seat])])
        return out

    def _repr_markdown_(self) -> str:
        rows = self.rows()
        lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * len(rows[0])]
        lines += ["| " + " | ".join(row) + " |" for row in rows[1:]]
        return "\n".join(lines)

    def __str__(self) -> str:
        rows = self.rows()
        widths = [max(len(row[k]) for row in rows) for k in range(len(rows[0]))]
        return "\n".join("  ".join(cell.rjust(w) if k else cell.ljust(w) for k, (cell, w) in
                                   enumerate(zip(row, widths))).rstrip() for row in rows)


def _set(values: tuple, index: int, value: Any) -> tuple:
    changed = list(values)
    changed[index] = value
    return tuple(changed)


def _add_layer(forts: tuple, bit: int) -> tuple:
    layers = list(forts)
    for k, f in enumerate(layers):
        if not f & bit:
            layers[k] = f | bit
            return tuple(layers)
    layers.append(bit)
    return tuple(layers)


def _trim(layers: list) -> tuple:
    while layers and not layers[-1]:
        layers.pop()
    return tuple(layers)


def _remove_layer(forts: tuple, bit: int) -> tuple:
    layers = list(forts)
    for k in range(len(layers) - 1, -1, -1):
        if layers[k] & bit:
            layers[k] &= ~bit
            break
    return _trim(layers)


def _clear(forts: tuple, bit: int) -> tuple:
    return _trim([f & ~bit for f in forts])


# --------------------------------------------------------------------------- the game

@register
class Source(Game):
    """Source: four colours grow chains from their corner sources; connection is everything.

    >>> import playtest
    >>> game = playtest.load("source")
    >>> state = game.initial_state()
    >>> game.describe_state(state)
    'red (player A) to act: 2 AP left'
    >>> [s.name for s in game.seats()]
    ['A (red+yellow)', 'B (blue+green)']
    """

    name = "source"
    title = "Source"
    credit = ("Source, from \"The Crossroads Challenge\" week 1 (junksalongames.com, May 2012); "
              "rules read from the designer's blog posts.")
    Params = SourceParams
    action_types = (Place, Fortify, RemoveFortification, Capture, EndTurn)

    def __init__(self, params: SourceParams | None = None, **values: Any):
        super().__init__(params, **values)
        p = self.params
        b = self._b = _board(p.board_size)
        clockwise = tuple(COLORS.index(name) for name in p.colors_clockwise)
        corner = [0] * 4
        for k, c in enumerate(clockwise):
            corner[c] = b.corners[k]
        self._corner = tuple(corner)
        self._corner_bit = tuple(1 << i for i in corner)
        self._next = {clockwise[k]: clockwise[(k + 1) % 4] for k in range(4)}
        first = COLORS.index(p.first_color)
        self._first = first
        self._round_last = clockwise[(clockwise.index(first) - 1) % 4]
        pairs = tuple(tuple(COLORS.index(x) for x in half.split("+")) for half in p.player_colors.split("/"))
        self._player_colors = pairs
        seat_of = [0] * 4
        partner = [0] * 4
        for seat, (c1, c2) in enumerate(pairs):
            seat_of[c1] = seat_of[c2] = seat
            partner[c1], partner[c2] = c2, c1
        self._seat_of = tuple(seat_of)
        self._partner = tuple(partner)
        self._opponents = tuple(pairs[1 - seat_of[c]] for c in range(4))
        self._groups = tuple((c,) for c in range(4)) if p.territory_color_rule == "single_color" else pairs
        self._touch = b.touch4 if p.territory_neighbourhood == "orthogonal" else b.touch8
        self._nmask = b.mask4 if p.territory_neighbourhood == "orthogonal" else b.mask8
        self._fortifiable = b.all if p.center_fortifiable else b.all & ~(1 << b.centre)
        # one action object per point and kind, shared by legal_actions and random_action
        self._acts = tuple(tuple(cls(*b.grid.cell(i)) for i in range(b.size)) for cls in POINT_ACTIONS)

    # ---- seats and setup
    def seats(self) -> list[Seat]:
        return [Seat(f"{PLAYER_NAMES[seat]} ({'+'.join(COLORS[c] for c in pair)})", CSS[COLORS[pair[0]]],
                     SEAT_SHAPES[seat]) for seat, pair in enumerate(self._player_colors)]

    def color_name(self, color: int) -> str:
        """``"red (player A)"``: a colour with its player."""
        return f"{COLORS[color]} (player {PLAYER_NAMES[self._seat_of[color]]})"

    def initial_state(self) -> State:
        p = self.params
        stones = self._corner_bit
        start = p.tokens_per_color - (1 if p.source_from_supply else 0)
        return self._derive(State(p.board_size, stones, (), (start,) * 4, self._first, p.first_turn_ap))

    def _allowance(self, turn: int) -> int:
        return self.params.first_turn_ap if turn == 0 else self.params.ap_per_turn

    # ---- connection and score (incremental pieces)
    def _connect(self, stones: tuple, c: int) -> int:
        """Colour ``c``'s connected tokens: flood fill from its source token."""
        allowed = stones[c]
        if self.params.connection_through_partner:
            allowed |= stones[self._partner[c]]
        return self._b.flood(self._corner_bit[c] & stones[c], allowed) & stones[c]

    def _token_points(self, c: int, mine: int, connected: int, forts: tuple) -> tuple[int, int, int]:
        """(connected, unconnected, centre) points of colour ``c``'s tokens."""
        p = self.params
        n_connected = connected.bit_count()
        conn_pts = p.score_connected * n_connected
        unconn_pts = p.score_unconnected * (mine.bit_count() - n_connected)
        centre_pts = 0
        if connected >> self._b.centre & 1:
            centre_pts = p.center_connected_value
            if p.center_mode == "replace":
                conn_pts -= p.score_connected
        if p.fortification_scores:
            for f in forts:
                conn_pts += p.score_connected * (f & connected).bit_count()
                unconn_pts += p.score_unconnected * (f & mine & ~connected).bit_count()
        return conn_pts, unconn_pts, centre_pts

    def _territory(self, stones: tuple) -> tuple[int, int, int, int]:
        """Bit masks of the surrounded points that score for each colour."""
        p, b = self.params, self._b
        empty = b.all & ~(stones[0] | stones[1] | stones[2] | stones[3])
        out = [0, 0, 0, 0]
        touch = self._touch
        if p.territory_mode == "single_point":
            for group in self._groups:
                s = 0
                for c in group:
                    s |= stones[c]
                if not s:
                    continue
                candidates = empty if p.territory_requires_empty else b.all & ~s
                enclosed = candidates & ~touch(b.all & ~s)
                if not p.edge_counts_as_wall:
                    enclosed &= ~b.border
                if not enclosed:
                    continue
                if len(group) == 1:
                    out[group[0]] = enclosed
                else:
                    c1, c2 = group
                    for i in _bits(enclosed):
                        near = self._nmask[i]
                        if (near & stones[c1]).bit_count() >= (near & stones[c2]).bit_count():
                            out[c1] |= 1 << i
                        else:
                            out[c2] |= 1 << i
            return tuple(out)
        remaining = empty
        while remaining:
            region = b.flood(remaining & -remaining, empty)
            remaining &= ~region
            if not p.edge_counts_as_wall and region & b.border:
                continue
            wall = touch(region) & ~region
            if not wall or wall & empty:
                continue
            for group in self._groups:
                s = 0
                for c in group:
                    s |= stones[c]
                if wall & ~s:
                    continue
                if len(group) == 1:
                    out[group[0]] |= region
                else:
                    c1, c2 = group
                    big = c1 if (wall & stones[c1]).bit_count() >= (wall & stones[c2]).bit_count() else c2
                    out[big] |= region
                break
        return tuple(out)

    def _derive(self, state: State) -> State:
        """``state`` with ``connected`` and ``tally`` computed afresh (bit boards)."""
        stones, forts = state.stones, state.forts
        connected = tuple(self._connect(stones, c) for c in range(4))
        territory = self._territory(stones)
        tv = self.params.territory_value
        tally = tuple(self._token_points(c, stones[c], connected[c], forts) + (territory[c].bit_count() * tv,)
                      for c in range(4))
        return State(state.size, stones, forts, state.supply, state.active, state.ap_left, state.acted,
                     state.passes, state.turn, state.over, connected, tally)

    def _trigger(self, stones: tuple, supply: tuple) -> str:
        """Why the end is triggered (``end_trigger``), or ``""``."""
        if self.params.end_trigger == "supply_empty":
            for c in range(4):
                if supply[c] <= 0:
                    return f"{COLORS[c]}'s supply ran out"
        else:
            for c in range(4):
                if not stones[c]:
                    return f"{COLORS[c]} has no token left on the board"
        return ""

    # ---- the protocol
    def to_move(self, state: State) -> int | None:
        return None if state.over else self._seat_of[state.active]

    def outcome(self, state: State) -> Outcome | None:
        if not state.over:
            return None
        a, b = self._players(state.tally)
        scores = (a, b)
        if a != b:
            seat = 0 if a > b else 1
            return Outcome((seat,), f"player {PLAYER_NAMES[seat]} wins {max(a, b)}–{min(a, b)} ({state.over})",
                           scores)
        holder = state.color_at(self._b.centre)
        rule = self.params.tiebreak
        if holder >= 0 and (rule == "center_control" or
                            (rule == "center_connected" and state.connected[holder] >> self._b.centre & 1)):
            seat = self._seat_of[holder]
            how = "holds" if rule == "center_control" else "holds a connected token on"
            return Outcome((seat,), f"tied {a}–{b}; player {PLAYER_NAMES[seat]} {how} the centre "
                                    f"({state.over})", scores)
        return Outcome((), f"draw {a}–{b} ({state.over})", scores)

    def _players(self, tally: tuple) -> tuple[int, int]:
        return tuple(sum(sum(tally[c]) for c in pair) for pair in self._player_colors)  # type: ignore

    def score(self, state: State) -> Score:
        """The score of ``state``, kept up to date action by action.

        >>> import playtest
        >>> game = playtest.load("source")
        >>> print(game.score(game.initial_state()))
                    connected  unconnected  centre  surrounded  total
        red (A)             2            0       0           0      2
        yellow (A)          2            0       0           0      2
        blue (B)            2            0       0           0      2
        green (B)           2            0       0           0      2
        player A            4            0       0           0      4
        player B            4            0       0           0      4
        """
        return self._score_from_tally(state.tally)

    def _score_from_tally(self, tally: tuple) -> Score:
        colors = {COLORS[c]: ColorScore(*tally[c]) for c in range(4)}
        return Score(colors, self._players(tally),
                     tuple(tuple(COLORS[c] for c in pair) for pair in self._player_colors))

    def score_from_scratch(self, state: State) -> Score:
        """The score of ``state`` computed from nothing, point by point (the reference for :meth:`score`)."""
        p, b = self.params, self._b
        size = b.size
        colour = [state.color_at(i) for i in range(size)]
        layers = [state.layers(i) for i in range(size)]
        connected = [False] * size
        for c in range(4):
            src = self._corner[c]
            if colour[src] != c:
                continue
            allowed = {c, self._partner[c]} if p.connection_through_partner else {c}
            seen, todo = {src}, [src]
            while todo:
                i = todo.pop()
                for j in b.neighbours4[i]:
                    if j not in seen and colour[j] in allowed:
                        seen.add(j)
                        todo.append(j)
            for i in seen:
                if colour[i] == c:
                    connected[i] = True
        parts = [[0, 0, 0, 0] for _ in range(4)]
        for i in range(size):
            c = colour[i]
            if c < 0:
                continue
            part = parts[c]
            if connected[i]:
                if i == b.centre:
                    part[2] += p.center_connected_value
                    if p.center_mode == "add":
                        part[0] += p.score_connected
                else:
                    part[0] += p.score_connected
                if p.fortification_scores:
                    part[0] += p.score_connected * layers[i]
            else:
                part[1] += p.score_unconnected
                if p.fortification_scores:
                    part[1] += p.score_unconnected * layers[i]
        for i, owner in enumerate(self._surrounded_from_scratch(colour)):
            if owner >= 0:
                parts[owner][3] += p.territory_value
        return self._score_from_tally(tuple(tuple(part) for part in parts))

    def _surrounded_from_scratch(self, colour: list[int]) -> list[int]:
        """For every point, the colour it scores for as a surrounded point, or -1."""
        p, b = self.params, self._b
        n = b.n
        near = b.neighbours4 if p.territory_neighbourhood == "orthogonal" else b.neighbours8
        single = p.territory_color_rule == "single_color"

        def on_edge(i: int) -> bool:
            col, row = b.grid.cell(i)
            return col in (0, n - 1) or row in (0, n - 1)

        def owner_of(around: list[int]) -> int:
            if not around or min(around) < 0:
                return -1
            if single:
                return around[0] if all(x == around[0] for x in around) else -1
            seat = self._seat_of[around[0]]
            if any(self._seat_of[x] != seat for x in around):
                return -1
            c1, c2 = self._player_colors[seat]
            return c1 if around.count(c1) >= around.count(c2) else c2

        owners = [-1] * b.size
        if p.territory_mode == "single_point":
            for i in range(b.size):
                if (colour[i] >= 0 and p.territory_requires_empty) or (on_edge(i) and not p.edge_counts_as_wall):
                    continue
                owner = owner_of([colour[j] for j in near[i]])
                if owner < 0 or (colour[i] >= 0 and (colour[i] == owner if single else
                                                     self._seat_of[colour[i]] == self._seat_of[owner])):
                    continue
                owners[i] = owner
            return owners
        seen: set[int] = set()
        for start in range(b.size):
            if colour[start] >= 0 or start in seen:
                continue
            region, todo = {start}, [start]
            while todo:
                i = todo.pop()
                for j in b.neighbours4[i]:
                    if colour[j] < 0 and j not in region:
                        region.add(j)
                        todo.append(j)
            seen |= region
            if not p.edge_counts_as_wall and any(on_edge(i) for i in region):
                continue
            wall = sorted({j for i in region for j in near[i] if j not in region})
            owner = owner_of([colour[j] for j in wall])
            if owner >= 0:
                for i in region:
                    owners[i] = owner
        return owners

    def unconnected(self, state: State) -> dict[str, list[str]]:
        """The points of every colour's unconnected tokens, by colour name."""
        return {COLORS[c]: [self._b.names[i] for i in _bits(state.stones[c] & ~state.connected[c])]
                for c in range(4)}

    def is_connected(self, state: State, point: str | tuple[int, int]) -> bool:
        """Whether the token on ``point`` (``"e5"`` or ``(col, row)``) is connected to its source."""
        i = self._index(point)
        c = state.color_at(i)
        if c < 0:
            raise ValueError(f"there is no token on {self._b.names[i]}")
        return bool(state.connected[c] >> i & 1)

    def _index(self, point: str | tuple[int, int]) -> int:
        b = self._b
        if isinstance(point, str):
            if point not in b.names:
                raise ValueError(f"{point!r} is not a point of the {b.n}x{b.n} board (a1 to "
                                 f"{b.names[-1]})")
            return b.names.index(point)
        col, row = point
        if not (0 <= col < b.n and 0 <= row < b.n):
            raise ValueError(f"({col}, {row}) is not a point of the {b.n}x{b.n} board")
        return row * b.n + col

    # ---- what may be done
    def _option_masks(self, state: State) -> tuple[int, int, int, int]:
        """Bit masks of the points where Place, Fortify, RemoveFortification and Capture are legal."""
        if state.over:
            return 0, 0, 0, 0
        p, b = self.params, self._b
        c = state.active
        ap = state.ap_left
        supply = state.supply[c]
        stones, connected, forts = state.stones, state.connected, state.forts
        mine = connected[c]
        near = b.touch4(mine)
        occupied = stones[0] | stones[1] | stones[2] | stones[3]
        place = near & ~occupied if supply >= 1 and ap >= p.cost_place else 0
        fortify = 0
        if p.max_fortify_layers and supply >= 1 and ap >= p.cost_fortify:
            full = forts[p.max_fortify_layers - 1] if len(forts) >= p.max_fortify_layers else 0
            fortify = mine & ~full & self._fortifiable
        o1, o2 = self._opponents[c]
        targets = stones[o1] | stones[o2]
        if not p.source_capturable:
            targets &= ~((self._corner_bit[o1] & stones[o1]) | (self._corner_bit[o2] & stones[o2]))
        if p.action_range == "adjacent_to_connected":
            targets &= near
        if not targets:
            return place, fortify, 0, 0
        theirs = connected[o1] | connected[o2]
        fortified = forts[0] if forts else 0
        remove = 0
        if ap >= p.cost_remove_fortification and supply >= p.remove_fortification_tokens:
            remove = targets & fortified & theirs
        capture = 0
        if ap >= p.cost_capture_connected:
            capture |= targets & theirs & ~fortified
        if ap >= p.cost_capture_unconnected:
            capture |= targets & ~theirs & ~fortified
        if ap >= p.cost_capture_unconnected_fortified:
            capture |= targets & ~theirs & fortified
        if p.capture_connected_fortified_cost and ap >= p.capture_connected_fortified_cost:
            capture |= targets & theirs & fortified
        return place, fortify, remove, capture

    def legal_actions(self, state: State, seat: int | None = None) -> list[Action]:
        """Places, fortifications, removals, captures (each by point, row by row from a1), then End turn."""
        if seat is not None and seat != self.to_move(state):
            return []
        if state.over:
            return []
        actions: list[Action] = []
        for acts, mask in zip(self._acts, self._option_masks(state)):
            while mask:
                low = mask & -mask
                actions.append(acts[low.bit_length() - 1])
                mask ^= low
        actions.append(END_TURN)
        return actions

    def random_action(self, state: State, rng: random.Random) -> Action:
        """A uniformly random legal action, drawn from the bit masks without listing them all."""
        masks = self._option_masks(state)
        counts = [m.bit_count() for m in masks]
        k = rng.randrange(sum(counts) + 1)
        for acts, mask, count in zip(self._acts, masks, counts):
            if k < count:
                for _ in range(k):
                    mask &= mask - 1
                return acts[(mask & -mask).bit_length() - 1]
            k -= count
        return END_TURN

    def _capture_cost(self, state: State, target: int, bit: int) -> tuple[int, str, str]:
        """(cost, what it is, rule) of capturing the ``target`` colour's token at ``bit``; cost 0: not allowed."""
        p = self.params
        fortified = bool(state.forts and state.forts[0] & bit)
        connected = bool(state.connected[target] & bit)
        if connected and fortified:
            return p.capture_connected_fortified_cost, "a connected fortified stack", R_NOT_ALLOWED
        if connected:
            return p.cost_capture_connected, "a connected token", R_CAP_CONN
        if fortified:
            return p.cost_capture_unconnected_fortified, "an unconnected fortified stack", R_CAP_FORT
        return p.cost_capture_unconnected, "an unconnected token", R_CAP_UNCONN

    def _problem(self, state: State, kind: str, i: int) -> tuple[str, str] | None:
        """Why action ``kind`` on point ``i`` is illegal, as (message, rule), or None when it is legal."""
        p, b = self.params, self._b
        c = state.active
        name = COLORS[c]
        where = b.names[i]
        bit = 1 << i
        owner = state.color_at(i)
        ap = state.ap_left
        supply = state.supply[c]
        near = bool(b.touch4(state.connected[c]) & bit)
        if kind == "place":
            if owner >= 0:
                return f"{where} is not empty", R_PLACE
            if not near:
                return f"{where} is not next to a connected {name} token", R_PLACE
            if supply < 1:
                return f"{name} has no tokens left in supply", R_PLACE
            if ap < p.cost_place:
                return f"placing costs {p.cost_place} AP; {name} has {ap} left", R_TURN
            return None
        if kind == "fortify":
            if owner < 0:
                return f"there is no token to fortify on {where}", R_FORTIFY
            if owner != c:
                return f"{name} fortifies only its own tokens, and {where} is {COLORS[owner]}", R_FORTIFY
            if not p.max_fortify_layers:
                return "fortifying is switched off (max_fortify_layers = 0)", "C8"
            layers = state.layers(i)
            if layers >= p.max_fortify_layers:
                return (f"{where} already holds {layers} fortification token{'s' if layers > 1 else ''}, "
                        f"the most allowed (max_fortify_layers = {p.max_fortify_layers})"), "C8"
            if i == b.centre and not p.center_fortifiable:
                return "the centre cannot be fortified (center_fortifiable = false)", "C8"
            if not state.connected[c] & bit:
                return f"{where} is not connected to the {name} source: only a connected token is fortified", \
                    R_FORTIFY
            if supply < 1:
                return f"{name} has no tokens left in supply to fortify with", R_FORTIFY
            if ap < p.cost_fortify:
                return f"fortifying costs {p.cost_fortify} AP; {name} has {ap} left", R_TURN
            return None
        # removal and capture target an opponent's token
        if owner < 0:
            return f"there is no token on {where}", R_REMOVE if kind == "remove_fortification" else R_CAP_CONN
        if owner == c:
            return f"{name} cannot capture or unfortify its own token", R_NOT_ALLOWED
        if owner == self._partner[c]:
            return f"{COLORS[owner]} is {name}'s partner colour: partners are never captured", R_NOT_ALLOWED
        if kind == "remove_fortification":
            if not (state.forts and state.forts[0] & bit):
                return f"the {COLORS[owner]} token on {where} is not fortified", R_REMOVE
            if not state.connected[owner] & bit:
                cost = p.cost_capture_unconnected_fortified
                return (f"the {COLORS[owner]} stack on {where} is not connected: capture it whole instead "
                        f"({cost} AP, rule {R_CAP_FORT})"), R_REMOVE
            if p.action_range == "adjacent_to_connected" and not near:
                return f"{where} is not next to a connected {name} token", R_RANGE
            if supply < p.remove_fortification_tokens:
                return (f"removing a fortification also costs {p.remove_fortification_tokens} of {name}'s "
                        f"unused tokens, and {name} has {supply} in supply"), R_REMOVE
            if ap < p.cost_remove_fortification:
                return f"removing a fortification costs {p.cost_remove_fortification} AP; {name} has {ap} left", \
                    R_REMOVE
            return None
        if i == self._corner[owner] and not p.source_capturable:
            return (f"{where} is the {COLORS[owner]} source: a source token cannot be captured "
                    "(source_capturable = false)"), R_NOT_ALLOWED
        if p.action_range == "adjacent_to_connected" and not near:
            return f"{where} is not next to a connected {name} token", R_RANGE
        cost, what, rule = self._capture_cost(state, owner, bit)
        if cost == 0 and rule == R_NOT_ALLOWED:
            return "capturing a connected fortified token needs its fortification removed first", R_NOT_ALLOWED
        if ap < cost:
            return f"capturing {what} costs {cost} AP; {name} has {ap} left", rule
        return None

    def _check(self, state: State, action: Action) -> None:
        """Raise :class:`IllegalAction` naming the rule unless ``action`` is legal in ``state``."""
        if state.over:
            raise IllegalAction(f"the game is over ({state.over})", rule=R_END)
        if not isinstance(action, self.action_types):
            raise IllegalAction(f"{action!r} is not a Source action")
        if isinstance(action, EndTurn):
            return
        n = self._b.n
        col, row = action.col, action.row  # type: ignore[attr-defined]
        if not (isinstance(col, int) and isinstance(row, int) and 0 <= col < n and 0 <= row < n):
            raise IllegalAction(f"({col!r}, {row!r}) is not a point of the {n}x{n} board", rule=R_BOARD)
        problem = self._problem(state, action.kind, row * n + col)
        if problem:
            raise IllegalAction(problem[0], rule=problem[1])

    # ---- applying actions
    def apply(self, state: State, action: Action, check: bool = True) -> State:
        """The state after ``action`` (a new value; ``state`` is untouched).

        Connection is recomputed for the colours the action touches, and the
        score (``state.tally``) is updated from the previous one.
        """
        if check:
            self._check(state, action)
        if action.kind == "end_turn":
            return self._end_turn(state, state.stones, state.forts, state.supply, state.connected,
                                  state.tally, state.acted)
        p, b = self.params, self._b
        i = action.row * b.n + action.col  # type: ignore[attr-defined]
        bit = 1 << i
        c = state.active
        stones, forts, supply, connected = state.stones, state.forts, state.supply, state.connected
        through = p.connection_through_partner
        kind = action.kind
        occupancy = False
        if kind == "place":
            cost = p.cost_place
            stones = _set(stones, c, stones[c] | bit)
            supply = _set(supply, c, supply[c] - 1)
            if through:
                changed: tuple = (c, self._partner[c])
            else:  # the new token joins the chain, with any stranded tokens it touches
                connected = _set(connected, c, connected[c] | b.flood(bit, stones[c] & ~connected[c]))
                changed = (c,)
            occupancy = True
        elif kind == "fortify":
            cost = p.cost_fortify
            supply = _set(supply, c, supply[c] - 1)
            forts = _add_layer(forts, bit)
            changed = (c,) if p.fortification_scores else ()
        elif kind == "remove_fortification":
            cost = p.cost_remove_fortification
            supply = _set(supply, c, supply[c] - p.remove_fortification_tokens)
            forts = _remove_layer(forts, bit)
            changed = (state.color_at(i),) if p.fortification_scores else ()
        else:  # capture: the token (or the whole stack) leaves the game
            target = state.color_at(i)
            cost = self._capture_cost(state, target, bit)[0]
            stones = _set(stones, target, stones[target] & ~bit)
            if forts and forts[0] & bit:
                forts = _clear(forts, bit)
            if through:
                changed = (target, self._partner[target])
            elif connected[target] & bit:   # a chain may be cut: recompute that colour
                changed = (target,)
            else:
                connected = _set(connected, target, connected[target] & ~bit)
                changed = (target,)
            occupancy = True
        if through or (kind == "capture" and state.connected[changed[0]] & bit):
            connected = list(connected)
            for d in changed:
                connected[d] = self._connect(stones, d)
            connected = tuple(connected)
        tally = state.tally
        if changed or occupancy:
            tally = list(tally)
            for d in changed:
                tally[d] = self._token_points(d, stones[d], connected[d], forts) + (tally[d][3],)
            if occupancy:
                tv = p.territory_value
                for d, enclosed in enumerate(self._territory(stones)):
                    t = tally[d]
                    tally[d] = (t[0], t[1], t[2], enclosed.bit_count() * tv)
            tally = tuple(tally)
        ap_left = state.ap_left - cost
        if p.end_timing == "immediate":
            over = self._trigger(stones, supply)
            if over:
                return State(state.size, stones, forts, supply, c, max(ap_left, 0), True, state.passes, state.turn,
                             over, connected, tally)
        if ap_left <= 0:
            return self._end_turn(state, stones, forts, supply, connected, tally, True)
        return State(state.size, stones, forts, supply, c, ap_left, True, state.passes, state.turn, "",
                     connected, tally)

    def _end_turn(self, state: State, stones: tuple, forts: tuple, supply: tuple, connected: tuple,
                  tally: tuple, acted: bool) -> State:
        """The turn of ``state.active`` ends: the game may end (rule C.1 §16), else the next colour starts."""
        p = self.params
        passes = 0 if acted else state.passes + 1
        turn = state.turn + 1
        c = state.active
        over = ""
        if passes >= p.pass_limit:
            over = f"{passes} turns in a row without an action (pass_limit = {p.pass_limit})"
        elif p.end_timing != "immediate":
            reason = self._trigger(stones, supply)
            if reason and (p.end_timing == "end_of_turn" or c == self._round_last):
                over = reason + (" (end of the turn)" if p.end_timing == "end_of_turn" else " (end of the round)")
        if over:
            return State(state.size, stones, forts, supply, c, 0, acted, passes, turn, over, connected, tally)
        return State(state.size, stones, forts, supply, self._next[c], p.ap_per_turn, False, passes, turn, "",
                     connected, tally)

    def adapt_state(self, state: State, old: Game) -> State:
        """After a live parameter change: connection and score are recomputed; a turn that has not acted
        yet gets the new number of action points (one that has keeps at most that many); and the game
        ends if the new end rules say it is over."""
        p = self.params
        ap_left, over = state.ap_left, state.over
        if not over:
            allowance = self._allowance(state.turn)
            ap_left = min(ap_left, allowance) if state.acted else allowance
            if state.passes >= p.pass_limit:
                over = f"{state.passes} turns in a row without an action (pass_limit = {p.pass_limit})"
            elif p.end_timing == "immediate":
                over = self._trigger(state.stones, state.supply)
        return self._derive(State(state.size, state.stones, state.forts, state.supply, state.active, ap_left,
                                  state.acted, state.passes, state.turn, over))

    # ---- notation and JSON
    def notation(self, state: State, action: Action, viewer: int | None = None) -> str:
        name = COLORS[state.active]
        if action.kind == "end_turn":
            if not state.acted:
                return f"{name}: pass"
            return f"{name}: end turn" + (f" ({state.ap_left} AP unused)" if state.ap_left else "")
        try:
            i = self._index((action.col, action.row))  # type: ignore[attr-defined]
        except (ValueError, TypeError):
            return f"{name}: {action}"
        where = self._b.names[i]
        owner = state.color_at(i)
        if action.kind == "place":
            return f"{name}: place {where}"
        if action.kind == "fortify":
            return f"{name}: fortify {where}"
        other = COLORS[owner] if owner >= 0 else "?"
        if action.kind == "remove_fortification":
            return f"{name}: remove {other}'s fortification on {where}"
        if owner < 0:
            return f"{name}: capture {where}"
        cost, what, _ = self._capture_cost(state, owner, 1 << i)
        stack = " stack" if "stack" in what else ""
        return f"{name}: capture {other}{stack} {where} ({cost} AP)"

    def describe_state(self, state: State) -> str:
        if state.over:
            outcome = self.outcome(state)
            return f"Game over: {outcome.reason}" if outcome else "Game over"
        return f"{self.color_name(state.active)} to act: {state.ap_left} AP left"

    def state_from_json(self, data: Any) -> State:
        p, b = self.params, self._b
        n = b.n
        if not isinstance(data, dict):
            raise ValueError("a Source position is an object with at least a 'board' (a list of text rows)")
        known = {"board", "supply", "to_move", "ap_left", "acted", "passes", "turn", "over"}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown fields in a Source position: {sorted(unknown)}; the fields are "
                             f"{', '.join(sorted(known))}")
        board = data.get("board")
        if isinstance(board, str):
            board = [line for line in board.strip().splitlines()]
        if not isinstance(board, (list, tuple)) or len(board) != n:
            raise ValueError(f"board: {n} text rows of {n} points are needed (board_size = {n})")
        stones = [0, 0, 0, 0]
        layers_at: dict[int, int] = {}
        for r, line in enumerate(board):
            if not isinstance(line, str):
                raise ValueError(f"board row {r + 1} must be text such as 'r.......b', not {line!r}")
            text = line.strip()
            tokens = text.split() if any(ch.isspace() for ch in text) else list(text)
            if len(tokens) != n:
                raise ValueError(f"board row {r + 1} ({line!r}) has {len(tokens)} points, not {n}")
            for col, token in enumerate(tokens):
                i = r * n + col
                if token in (".", "+", "·"):
                    continue
                letter, rest = token[0], token[1:]
                if letter.lower() not in LETTERS or (rest and not (letter.isupper() and rest.isdigit()
                                                                   and int(rest) >= 1)):
                    raise ValueError(f"board point {b.names[i]}: {token!r} is not a point; write . for empty, "
                                     "r b y g for a token, R B Y G for a fortified one (R2: two fortifications)")
                stones[LETTERS.index(letter.lower())] |= 1 << i
                if letter.isupper():
                    layers_at[i] = int(rest) if rest else 1
        for c in range(4):
            corner = self._corner[c]
            if not stones[c] >> corner & 1 and not p.source_capturable:
                raise ValueError(f"the {COLORS[c]} source is missing: corner {b.names[corner]} must hold a "
                                 f"{COLORS[c]} token ('{LETTERS[c]}'), since a source cannot be captured "
                                 f"(source_capturable = false; rule {R_SETUP})")
        for i, k in sorted(layers_at.items()):
            if k > p.max_fortify_layers:
                raise ValueError(f"{b.names[i]} holds {k} fortification token{'s' if k > 1 else ''}, more than "
                                 f"max_fortify_layers = {p.max_fortify_layers} (rule C8)")
            if i == b.centre and not p.center_fortifiable:
                raise ValueError(f"the centre {b.names[i]} is fortified, but center_fortifiable = false "
                                 "(rule C8)")
        forts = _trim([sum(1 << i for i, k in layers_at.items() if k > level)
                       for level in range(max(layers_at.values(), default=0))])
        supply_data = data.get("supply", {})
        if not isinstance(supply_data, dict) or set(supply_data) - set(COLORS):
            raise ValueError(f"supply must be an object such as {{\"red\": 24, \"blue\": 24}}, with colour "
                             f"names {', '.join(COLORS)}")
        supply = []
        for c, name in enumerate(COLORS):
            on_board = stones[c].bit_count() + sum((f & stones[c]).bit_count() for f in forts)
            extra_source = 1 if not p.source_from_supply and stones[c] >> self._corner[c] & 1 else 0
            budget = p.tokens_per_color + extra_source
            if name in supply_data:
                value = supply_data[name]
                if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                    raise ValueError(f"supply of {name} must be a whole number of at least 0, not {value!r}")
            else:
                value = budget - on_board
            if on_board + value > budget:
                note = " (the source token is one of them: source_from_supply = true)" \
                    if p.source_from_supply else " (plus the source token: source_from_supply = false)"
                raise ValueError(f"{name} has {on_board} tokens on the board (fortifications included) and "
                                 f"{value} in supply: {on_board + value} is more than tokens_per_color = "
                                 f"{p.tokens_per_color}{note} (rule C1)")
            supply.append(value)
        to_move = data.get("to_move", p.first_color)
        if to_move not in COLORS:
            raise ValueError(f"to_move must be a colour: {', '.join(COLORS)}; not {to_move!r}")
        turn = _whole(data.get("turn", 0), "turn", 0)
        allowance = self._allowance(turn)
        over = data.get("over", "")
        if not isinstance(over, str):
            raise ValueError(f"over is the reason the game ended (text, \"\" while it goes on), not {over!r}")
        ap_left = _whole(data.get("ap_left", allowance), "ap_left", 0)
        if not over and not 1 <= ap_left <= allowance:
            which = "first_turn_ap" if turn == 0 else "ap_per_turn"
            raise ValueError(f"ap_left must be from 1 to {allowance} ({which} = {allowance}), not {ap_left}")
        acted = data.get("acted", ap_left < allowance)
        if not isinstance(acted, bool):
            raise ValueError(f"acted must be true or false, not {acted!r}")
        if not over and not acted and ap_left < allowance:
            raise ValueError(f"ap_left = {ap_left} is less than a full turn ({allowance}), so the colour has "
                             "acted: set \"acted\": true")
        passes = _whole(data.get("passes", 0), "passes", 0)
        if passes >= p.pass_limit and not over:
            raise ValueError(f"passes = {passes} would have ended the game (pass_limit = {p.pass_limit})")
        if not over and p.end_timing == "immediate":
            over = self._trigger(tuple(stones), tuple(supply))
        state = State(n, tuple(stones), forts, tuple(supply), COLORS.index(to_move), ap_left, acted,
                      passes, turn, over)
        return self._derive(state)

    # ---- the scene
    def view(self, state: State, seat: int | None = None) -> dict:
        p, b = self.params, self._b
        n = b.n
        s = Scene()
        s.board("board", "points", title=f"Source {n}×{n}", cols=n, rows=n, spacing=40, pad=0.9)
        for k in range(n):
            s.text("board", (k, -0.66), COLUMN_LETTERS[k], size=10, color="#8a7b66")
            s.text("board", (-0.66, k), str(k + 1), size=10, color="#8a7b66")
        sources = {self._corner[c]: c for c in range(4)}
        cell_of = b.grid.cell
        for i in range(b.size):
            # an empty point is clicked on its mark; an occupied one on its piece (ids are unique)
            pid = point_id(cell_of(i)) if state.color_at(i) < 0 else False
            if i in sources:
                name = COLORS[sources[i]]
                s.cell("board", cell_of(i), fill=TINT[name], id=pid, title=f"{name} source")
            elif i == b.centre:
                s.cell("board", cell_of(i), fill="#f3d36b", id=pid, text="★" if pid else None,
                       title=f"centre: {p.center_connected_value} points for a connected token")
            elif pid:
                s.cell("board", cell_of(i), fill="transparent", id=pid)
        for c in range(4):
            name = COLORS[c]
            shape = SEAT_SHAPES[self._seat_of[c]]
            for i in _bits(state.stones[c]):
                layers = state.layers(i)
                linked = bool(state.connected[c] >> i & 1)
                extra: dict[str, Any] = {}
                if layers:
                    extra["double"] = True
                if not linked:
                    extra["dim"] = True
                words = [f"{name} token", "connected" if linked else "not connected"]
                if layers:
                    words.append(f"fortified ×{layers}" if layers > 1 else "fortified")
                if i == self._corner[c]:       # a source: a dark outline
                    words.insert(0, "source:")
                    extra["outline"] = "#3a2e26"
                text = LETTERS[c].upper() + (str(layers) if layers > 1 else "")
                if i == b.centre:
                    words.insert(0, "centre:")
                    text += "★"
                s.piece("board", cell_of(i), shape, CSS[name], id=point_id(cell_of(i)), size=0.72, text=text,
                        title=" ".join(words), **extra)
        score = self.score(state)
        s.panel("Score", score.rows())
        active = state.active
        s.panel("Supply", [[f"{COLORS[c]} ({PLAYER_NAMES[self._seat_of[c]]})", f"{state.supply[c]} tokens"]
                           for pair in self._player_colors for c in pair]
                + [["turn", str(state.turn + 1)], ["passes in a row", f"{state.passes} of {p.pass_limit}"]])
        if state.over:
            outcome = self.outcome(state)
            s.status(f"Game over: {outcome.reason if outcome else state.over}")
            s.hint("The game is over. Undo, or jump back in the history to try another line.")
            return s.to_json()
        mover = self.color_name(active)
        s.status(f"{mover} to act: {state.ap_left} AP left", CSS[COLORS[active]], SEAT_SHAPES[self._seat_of[active]])
        masks = self._option_masks(state)
        for i in range(b.size):
            pid = point_id(cell_of(i))
            options = self._point_options(state, i, masks)
            for label, action in options:
                s.move(pid, label, action.to_json())
            if not options:
                s.reason(pid, self._reason(state, i))
        s.button("End turn", END_TURN.to_json())
        s.hint(f"{mover}, {state.ap_left} AP left: place next to your connected chain, fortify a connected "
               "token, capture or unfortify next to it; End turn passes the rest.")
        return s.to_json()

    def _point_options(self, state: State, i: int, masks: tuple) -> list[tuple[str, Action]]:
        """(label with its cost, action) for everything a click on point ``i`` may do."""
        p = self.params
        bit = 1 << i
        place, fortify, remove, capture = masks
        options: list[tuple[str, Action]] = []
        if place & bit:
            options.append((f"Place ({p.cost_place} AP)", self._acts[0][i]))
        if fortify & bit:
            options.append((f"Fortify ({p.cost_fortify} AP)", self._acts[1][i]))
        if remove & bit:
            tokens = p.remove_fortification_tokens
            options.append((f"Remove fortification ({p.cost_remove_fortification} AP + {tokens} "
                            f"token{'s' if tokens != 1 else ''})", self._acts[2][i]))
        if capture & bit:
            cost, what, _ = self._capture_cost(state, state.color_at(i), bit)
            label = {"a connected token": "Capture", "an unconnected token": "Capture unconnected token",
                     "an unconnected fortified stack": "Capture unconnected stack, both tokens",
                     "a connected fortified stack": "Capture fortified stack, both tokens"}[what]
            options.append((f"{label} ({cost} AP)", self._acts[3][i]))
        return options

    def options(self, state: State, point: str | tuple[int, int]) -> list[str]:
        """What a click on ``point`` offers now, with costs (empty: see :meth:`why`).

        >>> import playtest
        >>> game = playtest.load("source")
        >>> game.options(game.initial_state(), "a1"), game.options(game.initial_state(), "b1")
        (['Fortify (1 AP)'], ['Place (1 AP)'])
        """
        i = self._index(point)
        return [label for label, _ in self._point_options(state, i, self._option_masks(state))]

    def why(self, state: State, point: str | tuple[int, int]) -> str:
        """Why nothing can be done on ``point`` now, naming the rules (``""`` when something can).

        >>> import playtest
        >>> game = playtest.load("source")
        >>> game.why(game.initial_state(), "e5")
        'e5 is not next to a connected red token (rule C.1 §8)'
        >>> game.why(game.initial_state(), "i1")
        'i1 is the blue source: a source token cannot be captured (source_capturable = false) (rule C.1 §15)'
        """
        i = self._index(point)
        if state.over:
            return f"the game is over ({state.over}) (rule {R_END})"
        return "" if self.options(state, point) else self._reason(state, i)

    def _reason(self, state: State, i: int) -> str:
        """Why nothing can be done on point ``i`` now, naming the rules."""
        owner = state.color_at(i)
        c = state.active
        if owner < 0:
            kinds = ("place",)
        elif owner == c:
            kinds = ("fortify",)
        elif owner == self._partner[c]:
            kinds = ("capture",)
        elif state.forts and state.forts[0] >> i & 1 and state.connected[owner] >> i & 1:
            kinds = ("capture", "remove_fortification")
        else:
            kinds = ("capture",)
        found: list[str] = []
        for kind in kinds:
            problem = self._problem(state, kind, i)
            if problem:
                text = f"{problem[0]} (rule {problem[1]})"
                if text not in found:
                    found.append(text)
        return "; ".join(found)


def _whole(value: Any, what: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"{what} must be a whole number of at least {low}, not {value!r}")
    return value


# --------------------------------------------------------------------------- bots

@register_bot("source", "greedy")
class GreedyBot(Bot):
    """Plays the action after which its player's score lead is largest.

    It plays whichever colour is active. The value of an action is, after it,
    (own player's score - the other player's score), or only the own score
    with ``margin=False``. Ties go to the first action in
    :meth:`Source.legal_actions` order: place before fortify before remove a
    fortification before capture, each from the lowest point index (row by row
    from a1), and End turn last — so it ends a turn only when every action
    would lower its value.

    >>> import playtest
    >>> game = playtest.load("source")
    >>> str(GreedyBot().choose(game, game.initial_state()))
    'place b1'
    """

    name = "greedy"

    def __init__(self, margin: bool = True):
        self.margin = margin

    def choose(self, game: Source, state: State) -> Action:
        seat = game.to_move(state)
        best, best_value = None, None
        for action in game.legal_actions(state):
            after = game.apply(state, action, check=False)
            players = game._players(after.tally)
            value = players[seat] - players[1 - seat] if self.margin else players[seat]
            if best_value is None or value > best_value:
                best, best_value = action, value
        return best  # type: ignore[return-value]

    def __repr__(self) -> str:
        return f"GreedyBot(margin={self.margin})"
