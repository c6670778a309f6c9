"""A position of Then There Was One: the declared :class:`State`, and its hand-writable JSON form.

The state is declared field by field (:class:`State`): bit masks of tiles and edges, the
parameters in force for the turn, the tokens' tiles. Its JSON form (the package docstring) names
tiles ``[col, row]`` instead, so it is declared too, as :class:`Position`: the kernel reads it
with exact types and bounds and messages naming the field, and :func:`read_position` turns it
into a state, refusing positions the rules could not reach, with a message that says why.

>>> Position.from_json({"round": 0})
Traceback (most recent call last):
...
ValueError: Position.round must be a whole number of at least 1, not 0
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Literal

from ...geometry import bits, popcount
from ...kernel import CHANCE, State as Declared, field
from ...kernel.values import shown, to_json_value
from .board import Board, board
from .params import ThenThereWasOneParams

if TYPE_CHECKING:
    from .rules import ThenThereWasOne

__all__ = ["State", "Position", "PHASES", "WALL", "read_position", "copied"]

WALL = 0  # the wall player's seat
PHASES = ("scatter", "place", "start", "order", "wall", "token", "over")
Tile = tuple[int, int]
Edge = tuple[Tile, Tile]
Elimination = tuple[int, Literal["trapped", "landed twice"]]


class State(Declared):
    """A position of Then There Was One (an immutable value; JSON form in the package docstring).

    Cells are indices ``row * board_width + col``; ``obstacles``, ``bought``,
    ``walls`` and ``built`` are bit masks (see :class:`~.board.Board`); ``tokens[k]`` is the
    tile of seat ``k+1``'s token, or -1 when it is not on the board.
    ``last_tiles`` and ``last_edges`` are what the last action touched, for
    the board's last-move mark; they take no part in equality.
    """

    phase: str = field(choices=PHASES)
    mover: int = field(min=CHANCE, max=4)                     # the seat to move; CHANCE, or -1 when over
    rules: ThenThereWasOneParams                              # the parameters in force for the turn being played
    board: tuple[int, int, int, tuple[int, ...]]              # width, length, start_zone_rows, start columns
    obstacles: int = field(default=0, min=0)                  # cell mask
    bought: int = field(default=0, min=0)                     # obstacles bought this wall turn (cell mask)
    bought_total: int = field(default=0, min=0)
    walls: int = field(default=0, min=0)                      # standing walls from earlier turns (edge mask)
    built: int = field(default=0, min=0)                      # walls built this wall turn (edge mask)
    tokens: tuple[int, ...] = field(default=(), min=-1)
    arrived: tuple[int, ...] = field(default=(), min=1, max=4)  # seats, in order of arrival
    eliminated: tuple[Elimination, ...] = ()                  # ((seat, "trapped" | "landed twice"), ...)
    moved: tuple[int, ...] = field(default=(), min=1, max=4)  # token seats that had their turn this round
    round: int = field(default=1, min=1)
    first_wall_turn: bool = True
    path: tuple[int, ...] = field(default=(), min=0)          # token turn: cells landed on, start first
    steps_taken: int = field(default=0, min=0)
    jumps_used: int = field(default=0, min=0)
    winners: tuple[int, ...] | None = None
    reason: str = ""
    #: the last action's tiles (a token's path this turn, start first; a wall turn's bought obstacles)
    last_tiles: tuple[int, ...] = field(default=(), compare=False)
    #: the last action's edges (a mask: the wall built or picked up; a finished wall turn's walls)
    last_edges: int = field(default=0, compare=False)

    def to_json(self) -> dict[str, Any]:
        """The hand-writable JSON form (see the package docstring): the :class:`Position` of this state."""
        B = board(*self.board)

        def tiles(cells: Iterable[int]) -> tuple[Tile, ...]:
            return tuple(B.cell(i) for i in cells)

        def edges(mask: int) -> tuple[Edge, ...]:
            return tuple((B.cell(i), B.cell(j)) for i, j in map(B.edge_ends, bits(mask)))
        rules = {s.name: to_json_value(getattr(self.rules, s.name)) for s in self.rules.specs()
                 if s.live and getattr(self.rules, s.name) != s.default}
        last = Last(tiles(self.last_tiles), edges(self.last_edges)) if self.last_tiles or self.last_edges else None
        return Position(
            board=(B.cols, B.rows), phase=self.phase, to_move=None if self.phase in ("over", "scatter") else self.mover,
            round=self.round, first_wall_turn=self.first_wall_turn, obstacles=tiles(bits(self.obstacles)),
            bought_this_turn=tiles(bits(self.bought)), bought_in_game=self.bought_total, walls=edges(self.walls),
            built_this_turn=edges(self.built), tokens={str(k + 1): B.cell(t) for k, t in enumerate(self.tokens) if t >= 0},
            arrived=self.arrived, eliminated=self.eliminated, moved=self.moved, path=tiles(self.path),
            steps_taken=self.steps_taken, jumps_used=self.jumps_used, rules=rules, winners=self.winners,
            reason=None if self.winners is None else self.reason, last=last).to_json()

    @classmethod
    def from_json(cls, data: Any, where: str | None = None, context: Any = None) -> Any:
        """Positions are read by the game, which knows the board: ``game.state_from_json(data)``."""
        raise TypeError("a Then There Was One position is read by its game: game.state_from_json(data)")


def copied(state: State, data: dict[str, Any]) -> State:
    """``state.replace(**changes)`` for ``data``, a copy of ``state.__dict__`` with the changes written on it
    (every key a field of its): what ``replace`` makes, without reading keywords. The rules' hot path,
    a token's step, writes six fields this way.

    >>> import playtest
    >>> state = playtest.load("then_there_was_one").initial_state()
    >>> data = state.__dict__.copy()
    >>> data["round"] = 3
    >>> copied(state, data) == state.replace(round=3), state.round
    (True, 1)
    """
    made = _new(type(state))
    _set_dict(made, "__dict__", data)
    return made


_new = object.__new__
_set_dict = object.__setattr__      # (State.__setattr__ refuses: states are values)


# --------------------------------------------------------------------------- the JSON form, declared

class Last(Declared):
    """What the last move touched, outlined on the board (no part of the position's equality)."""

    tiles: tuple[Tile, ...] = ()
    edges: tuple[Edge, ...] = ()


class Position(Declared):
    """The hand-writable JSON form of a position, declared field by field (see the package docstring).

    Left out: ``board`` is not checked, ``phase`` is ``wall`` with ``to_move`` 0 else ``token``,
    ``first_wall_turn`` is true on the wall player's turn in round 1, ``bought_in_game`` counts
    ``bought_this_turn``, ``path`` is the token's tile, and the steps and jumps follow the path.
    """

    board: tuple[int, int] | None = None
    phase: str | None = field(default=None, choices=PHASES)
    to_move: int | None = field(default=0, min=0, max=4)
    round: int = field(default=1, min=1)
    first_wall_turn: bool | None = None
    obstacles: tuple[Tile, ...] = ()
    bought_this_turn: tuple[Tile, ...] = ()
    bought_in_game: int | None = field(default=None, min=0)
    walls: tuple[Edge, ...] = ()
    built_this_turn: tuple[Edge, ...] = ()
    tokens: dict[str, Tile] = field(default={}, words='an object {"seat": [col, row]} for the tokens on the board')
    arrived: tuple[int, ...] = field(default=(), min=1, max=4)
    eliminated: tuple[int | Elimination, ...] = field(default=(), min=1, max=4)
    moved: tuple[int, ...] = field(default=(), min=1, max=4)
    path: tuple[Tile, ...] | None = None
    steps_taken: int | None = field(default=None, min=0)
    jumps_used: int | None = field(default=None, min=0)
    rules: dict[str, int | bool | str | float | tuple] = field(default={}, words="an object of live parameter values")
    winners: tuple[int, ...] | None = field(default=None, min=0, max=4, omit_default=True, words="a list of seats")
    reason: str | None = field(default=None, omit_default=True)
    last: Last | None = field(default=None, omit_default=True, words='an object {"tiles": [[col, row], ...], '
                                                                    '"edges": [[[col, row], [col, row]], ...]} '
                                                                    '(what the last move touched)')


# --------------------------------------------------------------------------- tiles and edges of one board

def _cell(B: Board, value: Tile, what: str) -> int:
    """The index of tile ``value``, refused when it is off the board."""
    c, r = value
    if not (0 <= c < B.cols and 0 <= r < B.rows):
        raise ValueError(f"{what}: {list(value)} is not on the {B.cols} x {B.rows} board "
                         f"(columns 0-{B.cols - 1}, rows 0-{B.rows - 1})")
    return r * B.cols + c


def _cells(B: Board, tiles: tuple[Tile, ...], key: str) -> int:
    """Different tiles as a cell mask."""
    mask = 0
    for v in tiles:
        i = _cell(B, v, key)
        if mask >> i & 1:
            raise ValueError(f"{key}: {list(v)} is listed twice")
        mask |= 1 << i
    return mask


def _edges(B: Board, pairs: tuple[Edge, ...], key: str) -> int:
    """Different walls ``[[col, row], [col, row]]`` as an edge mask."""
    mask = 0
    for v in pairs:
        i, j = _cell(B, v[0], key), _cell(B, v[1], key)
        if not B.adjacent(i, j):
            raise ValueError(f"{key}: {to_json_value(v)} are not two orthogonally adjacent tiles (walls lie between "
                             "tiles; walls_on_boundary is false)")
        e = B.edge_bit(i, j)
        if mask >> e & 1:
            raise ValueError(f"{key}: the edge {to_json_value(v)} is listed twice")
        mask |= 1 << e
    return mask


def _seats(values: tuple[int, ...], key: str, n: int) -> list[int]:
    """Different token seats, 1 to ``n``."""
    if any(not 1 <= s <= n for s in values):
        raise ValueError(f"{key} must be a list of token seats from 1 to {n}")
    if len(set(values)) != len(values):
        raise ValueError(f"{key} lists a seat twice")
    return list(values)


# --------------------------------------------------------------------------- reading positions

def read_position(game: ThenThereWasOne, data: Any) -> State:
    """``game.state_from_json``: a position from its hand-written JSON, validated with clear messages."""
    pos = Position.from_json(data, where=game.name)
    state = _read_position(game, pos)
    if pos.last is None:
        return state
    B = game.B
    return state.replace(last_tiles=tuple(_cell(B, v, "last") for v in pos.last.tiles),
                         last_edges=_edges(B, pos.last.edges, "last"))


def _read_position(game: ThenThereWasOne, pos: Position) -> State:
    """The state of a declared position: what the types cannot say is checked here (rules A.1)."""
    p, B = game.params, game.B
    names = lambda seat: game.seats()[seat].name  # noqa: E731
    if pos.board is not None and pos.board != (B.cols, B.rows):
        raise ValueError(f"board: this position is for a {list(pos.board)} board, but the game's board is "
                         f"[{B.cols}, {B.rows}] (board_width, board_length)")
    n = game.tokens_n
    # the rules in force for this turn
    rules = p
    if pos.rules:
        live = {s.name for s in p.specs() if s.live}
        bad = [k for k in pos.rules if k not in live]
        if bad:
            raise ValueError(f"rules: {shown(bad)} are not live parameters of then_there_was_one")
        fixed = {s.name: (getattr(p, s.name) if not s.live else s.default) for s in p.specs()}
        rules = type(p).create(**{**fixed, **pos.rules})  # type: ignore[assignment]
    obstacles = _cells(B, pos.obstacles, "obstacles")
    bought = _cells(B, pos.bought_this_turn, "bought_this_turn")
    bought_total = popcount(bought) if pos.bought_in_game is None else pos.bought_in_game
    walls = _edges(B, pos.walls, "walls")
    built = _edges(B, pos.built_this_turn, "built_this_turn")
    if walls & built:
        raise ValueError("an edge is listed in both walls and built_this_turn")
    # tokens
    tokens = [-1] * n
    for key, at in pos.tokens.items():
        try:
            seat = int(key)
        except (TypeError, ValueError):
            seat = -1
        if not 1 <= seat <= n:
            raise ValueError(f"tokens: {shown(key)} is not a token seat (1 to {n} with num_players={p.num_players})")
        i = _cell(B, at, f"tokens {seat}")
        if obstacles >> i & 1:
            raise ValueError(f"tokens: {names(seat)}'s token is on an obstacle at {list(at)}")
        if i in tokens and p.tokens_block_tokens and rules.tokens_block_tokens:
            raise ValueError(f"tokens: two tokens on {list(at)} (tokens_block_tokens)")
        tokens[seat - 1] = i
    arrived = _seats(pos.arrived, "arrived", n)
    eliminated: list[Elimination] = [(e, "trapped") if isinstance(e, int) else e for e in pos.eliminated]
    _seats(tuple(s for s, _ in eliminated), "eliminated", n)
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
    to_move = pos.to_move
    if to_move is not None and to_move > n:
        raise ValueError(f"to_move must be a seat from 0 (the wall player) to {n}")
    phase = pos.phase if pos.phase is not None else "wall" if to_move == 0 else "token"
    round_ = pos.round
    moved = _seats(pos.moved, "moved", n)
    first = (pos.first_wall_turn if pos.first_wall_turn is not None
             else round_ == 1 and phase == "wall" and not moved)
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
    base = State(phase="wall", mover=WALL, rules=rules, board=game._key, obstacles=obstacles,
                 bought_total=bought_total, walls=walls, tokens=tuple(tokens), arrived=tuple(arrived),
                 eliminated=tuple(eliminated), moved=tuple(moved), round=round_, first_wall_turn=first)
    if phase == "over":
        return base.replace(phase="over", mover=-1, winners=pos.winners or (), reason=pos.reason or "")
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
        return _wall_turn(game, pos, base.replace(bought=bought, built=built))
    if phase not in ("token", "order"):
        raise ValueError(f"phase {phase} does not fit a game in progress")
    if to_move not in in_play or to_move in moved:
        raise ValueError(f"to_move={to_move} must be a token in play that has not moved this round "
                         f"(in play: {in_play}, moved: {moved})")
    assert to_move is not None
    if phase == "order":
        if p.token_turn_order != "team_chooses_order":
            raise ValueError("phase order exists only with token_turn_order = team_chooses_order")
        return base.replace(phase="order", mover=to_move)
    return _token_turn(game, pos, base.replace(phase="token", mover=to_move))


def _wall_turn(game: ThenThereWasOne, pos: Position, state: State) -> State:
    """The wall player's turn: its walls and obstacles within the rules of A.1 §14."""
    rules, B = state.rules, game.B
    if pos.to_move not in (0, None):
        raise ValueError("phase wall: to_move is 0, the wall player")
    if pos.path or pos.steps_taken or pos.jumps_used:
        raise ValueError("path, steps_taken and jumps_used belong to a token's turn")
    used = game.points_used(state)
    if (state.built or state.bought) and used > rules.wall_budget:
        raise ValueError(f"the wall player uses {used} points, more than the budget of {rules.wall_budget} "
                         "(walls left standing count; obstacles cost obstacle_cost this turn)")
    if state.built & game.clearance_edges(state):
        raise ValueError("built_this_turn: a new wall lies on an edge of a token's tile (rule A.1 §14.3)")
    if state.first_wall_turn and rules.first_turn_black_line_ban and state.built & B.zone_edges:
        raise ValueError("built_this_turn: nothing is built behind the black line on the first wall turn "
                         "(rule A.1 §14.4)")
    if game.params.wall_turns == "once_per_round" and state.moved:
        raise ValueError("moved: with wall_turns once_per_round the wall player moves before every token")
    return state


def _token_turn(game: ThenThereWasOne, pos: Position, state: State) -> State:
    """A token's turn: its path so far (steps, jumps, no tile landed on twice) and a step left to take."""
    rules, B = state.rules, game.B
    seat = state.mover
    name = game.seats()[seat].name
    at = state.tokens[seat - 1]
    raw_path = pos.path if pos.path is not None else (B.cell(at),)
    if not raw_path:
        raise ValueError("path must be a list of tiles, the start tile first")
    path = [_cell(B, v, "path") for v in raw_path]
    if path[-1] != at:
        raise ValueError(f"path must end on {name}'s tile {list(B.cell(at))}")
    jumps = 0
    landed = set([path[0]] if rules.start_tile_counts else [])
    for a, b in zip(path, path[1:]):
        dc, dr = abs(a % B.cols - b % B.cols), abs(a // B.cols - b // B.cols)
        if (dc, dr) == (1, 1):
            jumps += 1
        elif dc + dr != 1:
            raise ValueError(f"path: {list(B.cell(a))} to {list(B.cell(b))} is neither a step nor a jump")
        if (state.walls >> B.edge_bit(a, b) & 1) if dc + dr == 1 else False:
            raise ValueError(f"path: a wall lies between {list(B.cell(a))} and {list(B.cell(b))}")
        if state.obstacles >> b & 1:
            raise ValueError(f"path: {list(B.cell(b))} holds an obstacle")
        if b in landed:
            raise ValueError(f"path: {list(B.cell(b))} is landed on twice, which eliminates the token "
                             "(list it in eliminated)")
        landed.add(b)
    steps = len(path) - 1 + jumps * (rules.jump_step_cost - 1)
    if pos.steps_taken not in (None, steps) or pos.jumps_used not in (None, jumps):
        raise ValueError(f"steps_taken and jumps_used must match the path ({steps} steps, {jumps} jumps)")
    if jumps > rules.max_jumps_per_turn:
        raise ValueError(f"path: {jumps} jumps, more than max_jumps_per_turn={rules.max_jumps_per_turn}")
    if steps >= rules.move_length:
        raise ValueError(f"path: {steps} steps taken, so the turn is over (move_length={rules.move_length})")
    if rules.goal_on_entry and B.goal >> at & 1:
        raise ValueError(f"{name} is on the goal row, so it has arrived (goal_on_entry)")
    state = state.replace(path=tuple(path), steps_taken=steps, jumps_used=jumps)
    if steps == 0 and rules.eliminate_when_no_path and not game.has_clean_path(state):
        raise ValueError(f"{name} has no clean path of {rules.move_length} steps at the start of "
                         "its turn, so it is eliminated at once (rule A.1 §17): list it in eliminated, or "
                         "write the position before (the wall player's turn)")
    if not game.allowed_steps(state):
        raise ValueError(f"{name} cannot make a single step, so its turn "
                         + ("has passed" if steps == 0 else "is over (it is eliminated, rule A.1 §17)"))
    return state
