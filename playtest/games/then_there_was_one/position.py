"""A position of Then There Was One: the :class:`State` value, and its JSON form both ways.

``State.to_json`` writes the hand-writable form the package docstring shows;
:func:`read_position` reads it back (``game.state_from_json``), checking every
field with a :class:`playtest.position.PositionReader` and refusing positions
the rules could not reach, with a message that says why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from ...geometry import bits, popcount
from ...position import PositionReader
from ...rules import CHANCE, Params
from .board import board

if TYPE_CHECKING:
    from .rules import ThenThereWasOne

__all__ = ["State", "PHASES", "WALL", "replace", "read_position", "jsonable"]

WALL = 0  # the wall player's seat
PHASES = ("scatter", "place", "start", "order", "wall", "token", "over")
FIELDS = ("board", "phase", "to_move", "round", "first_wall_turn", "obstacles", "bought_this_turn",
          "bought_in_game", "walls", "built_this_turn", "tokens", "arrived", "eliminated", "moved", "path",
          "steps_taken", "jumps_used", "rules", "winners", "reason", "last")


@dataclass(frozen=True, slots=True)
class State:
    """A position of Then There Was One (an immutable value; JSON form in the module docstring).

    Cells are indices ``row * board_width + col``; ``obstacles``, ``bought``,
    ``walls`` and ``built`` are bit masks (see :class:`~.board.Board`); ``tokens[k]`` is the
    tile of seat ``k+1``'s token, or -1 when it is not on the board.
    ``last_tiles`` and ``last_edges`` are what the last action touched, for
    the board's last-move mark; they take no part in equality.
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
    #: the last action's tiles (a token's path this turn, start first; a wall turn's bought obstacles)
    last_tiles: tuple = field(default=(), compare=False)
    #: the last action's edges (a mask: the wall built or picked up; a finished wall turn's walls)
    last_edges: int = field(default=0, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The hand-writable JSON form (see the module docstring)."""
        B = board(*self.board)
        cells = lambda mask: [list(B.cell(i)) for i in bits(mask)]  # noqa: E731
        edges = lambda mask: [[list(B.cell(i)) for i in B.edge_ends(e)] for e in bits(mask)]  # noqa: E731
        defaults = {s.name: s.default for s in self.rules.specs() if s.live}
        data: dict[str, Any] = {
            "board": [B.cols, B.rows], "phase": self.phase,
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
            "rules": {name: jsonable(getattr(self.rules, name)) for name, default in defaults.items()
                      if getattr(self.rules, name) != default},
        }
        if self.winners is not None:
            data["winners"] = list(self.winners)
            data["reason"] = self.reason
        if self.last_tiles or self.last_edges:
            data["last"] = {"tiles": [list(B.cell(i)) for i in self.last_tiles], "edges": edges(self.last_edges)}
        return data


def jsonable(value: Any) -> Any:
    """A value with its tuples as lists, for JSON."""
    return [jsonable(v) for v in value] if isinstance(value, tuple) else value


_FIELDS = tuple(f for f in State.__dataclass_fields__)
_FIELD_INDEX = {name: k for k, name in enumerate(_FIELDS)}
_VALUES = attrgetter(*_FIELDS)


def replace(state: State, **changes: Any) -> State:
    """A copy of ``state`` with some fields changed (faster than dataclasses.replace)."""
    values = list(_VALUES(state))
    for name, value in changes.items():
        values[_FIELD_INDEX[name]] = value
    return State(*values)


# --------------------------------------------------------------------------- reading positions

class _Reader(PositionReader):
    """The shared field reader, plus tiles, edges and seats of this game's board."""

    __slots__ = ("B", "tokens_n")

    def __init__(self, game: ThenThereWasOne, data: Any):
        super().__init__("Then There Was One", data, FIELDS,
                         "'tokens', 'obstacles', 'walls', ... (see the module docstring)")
        self.B = game.B
        self.tokens_n = game.tokens_n

    def cell(self, value: Any, what: str) -> int:
        """The index of tile ``value`` (``[col, row]``), named ``what`` in messages."""
        B = self.B
        if not (isinstance(value, (list, tuple)) and len(value) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            raise ValueError(f"{what}: a tile is [col, row], not {value!r}")
        c, r = value
        if not (0 <= c < B.cols and 0 <= r < B.rows):
            raise ValueError(f"{what}: {list(value)} is not on the {B.cols} x {B.rows} board "
                             f"(columns 0-{B.cols - 1}, rows 0-{B.rows - 1})")
        return r * B.cols + c

    def cells(self, key: str) -> int:
        """Field ``key``, a list of different tiles, as a cell mask."""
        mask = 0
        for v in self.items(key, "tiles [col, row]"):
            i = self.cell(v, key)
            if mask >> i & 1:
                raise ValueError(f"{key}: {list(v)} is listed twice")
            mask |= 1 << i
        return mask

    def edges(self, key: str) -> int:
        """Field ``key``, a list of different walls ``[[col, row], [col, row]]``, as an edge mask."""
        mask = 0
        for v in self.items(key, "edges [[col, row], [col, row]]"):
            if not (isinstance(v, (list, tuple)) and len(v) == 2):
                raise ValueError(f"{key}: an edge is a pair of adjacent tiles [[col, row], [col, row]], not {v!r}")
            i, j = self.cell(v[0], key), self.cell(v[1], key)
            if not self.B.adjacent(i, j):
                raise ValueError(f"{key}: {v} are not two orthogonally adjacent tiles (walls lie between "
                                 "tiles; walls_on_boundary is false)")
            e = self.B.edge_bit(i, j)
            if mask >> e & 1:
                raise ValueError(f"{key}: the edge {v} is listed twice")
            mask |= 1 << e
        return mask

    def seats(self, values: Any, key: str) -> list[int]:
        """``values`` checked as a list of different token seats (field ``key``)."""
        n = self.tokens_n
        if not isinstance(values, list) or any(isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= n
                                               for s in values):
            raise ValueError(f"{key} must be a list of token seats from 1 to {n}")
        if len(set(values)) != len(values):
            raise ValueError(f"{key} lists a seat twice")
        return values


def read_position(game: ThenThereWasOne, data: Any) -> State:
    """``game.state_from_json``: a position from its hand-written JSON, validated with clear messages."""
    state = _read_position(game, data)
    if "last" not in data:
        return state
    return replace(state, **_read_last(game, _Reader(game, data)))


def _read_last(game: ThenThereWasOne, reader: _Reader) -> dict[str, Any]:
    """The ``last`` field: ``{"tiles": [[col, row], ...], "edges": [[[col, row], [col, row]], ...]}``."""
    last = reader.mapping("last", '{"tiles": [[col, row], ...], "edges": [[[col, row], [col, row]], ...]} '
                                  "(what the last move touched)", keys=("tiles", "edges"))
    tiles = last.get("tiles", [])
    if not isinstance(tiles, list):
        raise ValueError("last: tiles must be a list of tiles [col, row]")
    edges = _Reader(game, {"last": last.get("edges", [])}).edges("last")
    return {"last_tiles": tuple(reader.cell(v, "last") for v in tiles), "last_edges": edges}


def _read_position(game: ThenThereWasOne, data: Any) -> State:
    reader = _Reader(game, data)
    p, B = game.params, game.B
    names = lambda seat: game.seats()[seat].name  # noqa: E731
    if "board" in reader and reader.get("board") not in ([B.cols, B.rows], (B.cols, B.rows)):
        raise ValueError(f"board: this position is for a {reader.get('board')} board, but the game's board is "
                         f"[{B.cols}, {B.rows}] (board_width, board_length)")
    n = game.tokens_n
    # the rules in force for this turn
    rules = p
    if "rules" in reader:
        changes = reader.mapping("rules", "of live parameter values")
        live = {s.name for s in p.specs() if s.live}
        bad = [k for k in changes if k not in live]
        if bad:
            raise ValueError(f"rules: {bad} are not live parameters of then_there_was_one")
        base = {s.name: (getattr(p, s.name) if not s.live else s.default) for s in p.specs()}
        rules = type(p).create(**{**base, **changes})
    obstacles = reader.cells("obstacles")
    bought = reader.cells("bought_this_turn")
    bought_total = reader.integer("bought_in_game", popcount(bought))
    walls = reader.edges("walls")
    built = reader.edges("built_this_turn")
    if walls & built:
        raise ValueError("an edge is listed in both walls and built_this_turn")
    # tokens
    raw_tokens = reader.mapping("tokens", '{"seat": [col, row]} for the tokens on the board')
    tokens = [-1] * n
    for key, at in raw_tokens.items():
        try:
            seat = int(key)
        except (TypeError, ValueError):
            seat = -1
        if not 1 <= seat <= n:
            raise ValueError(f"tokens: {key!r} is not a token seat (1 to {n} with num_players={p.num_players})")
        i = reader.cell(at, f"tokens {seat}")
        if obstacles >> i & 1:
            raise ValueError(f"tokens: {names(seat)}'s token is on an obstacle at {list(at)}")
        if i in tokens and p.tokens_block_tokens and rules.tokens_block_tokens:
            raise ValueError(f"tokens: two tokens on {list(at)} (tokens_block_tokens)")
        tokens[seat - 1] = i
    arrived = reader.seats(reader.get("arrived", []), "arrived")
    raw_elim = reader.items("eliminated", 'seats, or of [seat, "trapped" | "landed twice"]')
    eliminated = []
    for entry in raw_elim:
        if isinstance(entry, list):
            if len(entry) != 2 or entry[1] not in ("trapped", "landed twice"):
                raise ValueError(f'eliminated: {entry!r} must be a seat or [seat, "trapped" | "landed twice"]')
            seat, how = entry
        else:
            seat, how = entry, "trapped"
        eliminated.append((seat, how))
    reader.seats([s for s, _ in eliminated], "eliminated")
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
    to_move = reader.get("to_move", 0)
    if to_move is not None and (isinstance(to_move, bool) or not isinstance(to_move, int)
                                or not 0 <= to_move <= n):
        raise ValueError(f"to_move must be a seat from 0 (the wall player) to {n}")
    phase = reader.choice("phase", "wall" if to_move == 0 else "token", PHASES)  # setup phases are written out
    round_ = reader.integer("round", 1, low=1)
    moved = reader.seats(reader.get("moved", []), "moved")
    first = reader.boolean("first_wall_turn", round_ == 1 and phase == "wall" and not moved)
    if phase in ("scatter", "place", "start"):
        if phase in ("scatter", "place") and (tokens != [-1] * n or arrived or eliminated):
            raise ValueError(f"phase {phase}: the tokens are placed after the obstacles (rule A.1 §10)")
        if phase == "scatter" and obstacles:
            raise ValueError("phase scatter: the obstacles are not on the board yet")
        if phase == "place" and popcount(obstacles) >= p.initial_obstacles:
            raise ValueError(f"phase place: all {p.initial_obstacles} obstacles are placed already")
        if walls or built or bought or bought_total:
            raise ValueError(f"phase {phase}: no wall or bought obstacle before the first wall turn")
        if phase == "start":
            placed = [s for s in range(1, n + 1) if tokens[s - 1] >= 0]
            if placed != list(range(1, len(placed) + 1)) or not unplaced:
                raise ValueError("phase start: tokens are placed in seat order, and one still has to be placed")
            for seat in placed:
                if tokens[seat - 1] >= B.cols or not B.start_mask >> tokens[seat - 1] & 1:
                    raise ValueError(f"phase start: {names(seat)}'s token must be on a start circle")
            mover = unplaced[0]
        elif phase == "place":
            mover = popcount(obstacles) % p.num_players
        else:
            mover = CHANCE
        return State(phase=phase, mover=mover, rules=rules, board=game._key, obstacles=obstacles,
                     tokens=tuple(tokens))
    if unplaced:
        raise ValueError(f"tokens: {', '.join(names(s) for s in unplaced)} not on the board; list each token "
                         "seat in tokens, arrived or eliminated")
    if popcount(obstacles) > p.initial_obstacles + bought_total:
        raise ValueError(f"obstacles: {popcount(obstacles)} obstacles, but only initial_obstacles="
                         f"{p.initial_obstacles} plus bought_in_game={bought_total} exist")
    if bought & ~obstacles:
        raise ValueError("bought_this_turn: every bought obstacle must also be listed in obstacles")
    if bought_total > rules.max_bought_obstacles_per_game:
        raise ValueError(f"bought_in_game={bought_total} is more than max_bought_obstacles_per_game="
                         f"{rules.max_bought_obstacles_per_game}")
    if popcount(bought) > min(bought_total, rules.max_obstacles_per_turn):
        raise ValueError(f"bought_this_turn: {popcount(bought)} obstacles, more than bought_in_game or "
                         f"max_obstacles_per_turn={rules.max_obstacles_per_turn}")
    if round_ > max(p.max_rounds, 1) and phase != "over":
        raise ValueError(f"round {round_} is past max_rounds={p.max_rounds}")
    if phase != "wall" and (built or bought):
        raise ValueError("built_this_turn and bought_this_turn exist only during the wall player's turn")
    if phase == "over":
        winners = reader.get("winners", [])
        if not isinstance(winners, list) or any(not isinstance(w, int) for w in winners):
            raise ValueError("winners must be a list of seats")
        return State(phase="over", mover=-1, rules=rules, board=game._key, obstacles=obstacles,
                     bought_total=bought_total, walls=walls, tokens=tuple(tokens), arrived=tuple(arrived),
                     eliminated=tuple(eliminated), moved=tuple(moved), round=round_, first_wall_turn=first,
                     winners=tuple(winners), reason=str(reader.get("reason", "")))
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
        if reader.get("path") or reader.get("steps_taken") or reader.get("jumps_used"):
            raise ValueError("path, steps_taken and jumps_used belong to a token's turn")
        state = State(phase="wall", mover=WALL, rules=rules, board=game._key, obstacles=obstacles,
                      bought=bought, bought_total=bought_total, walls=walls, built=built, tokens=tuple(tokens),
                      arrived=tuple(arrived), eliminated=tuple(eliminated), moved=tuple(moved),
                      round=round_, first_wall_turn=first)
        used = game.points_used(state)
        if (built or bought) and used > rules.wall_budget:
            raise ValueError(f"the wall player uses {used} points, more than the budget of {rules.wall_budget} "
                             "(walls left standing count; obstacles cost obstacle_cost this turn)")
        if built & game.clearance_edges(state):
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
    raw_path = reader.get("path", [list(B.cell(pos))])
    if not isinstance(raw_path, list) or not raw_path:
        raise ValueError("path must be a list of tiles, the start tile first")
    path = [reader.cell(v, "path") for v in raw_path]
    if path[-1] != pos:
        raise ValueError(f"path must end on {names(to_move)}'s tile {list(B.cell(pos))}")
    jumps = 0
    landed = set([path[0]] if rules.start_tile_counts else [])
    for a, b in zip(path, path[1:]):
        dc, dr = abs(a % B.cols - b % B.cols), abs(a // B.cols - b // B.cols)
        if (dc, dr) == (1, 1):
            jumps += 1
        elif dc + dr != 1:
            raise ValueError(f"path: {list(B.cell(a))} to {list(B.cell(b))} is neither a step nor a jump")
        if (walls >> B.edge_bit(a, b) & 1) if dc + dr == 1 else False:
            raise ValueError(f"path: a wall lies between {list(B.cell(a))} and {list(B.cell(b))}")
        if obstacles >> b & 1:
            raise ValueError(f"path: {list(B.cell(b))} holds an obstacle")
        if b in landed:
            raise ValueError(f"path: {list(B.cell(b))} is landed on twice, which eliminates the token "
                             "(list it in eliminated)")
        landed.add(b)
    steps = len(path) - 1 + jumps * (rules.jump_step_cost - 1)
    if reader.get("steps_taken", steps) != steps or reader.get("jumps_used", jumps) != jumps:
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
    if not game.allowed_steps(state):
        raise ValueError(f"{names(to_move)} cannot make a single step, so its turn "
                         + ("has passed" if steps == 0 else "is over (it is eliminated, rule A.1 §17)"))
    return state

