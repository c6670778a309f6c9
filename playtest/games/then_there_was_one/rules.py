"""Then There Was One's rules: the :class:`ThenThereWasOne` game, its legality, effects and end.

The rules summary and the position format are in the package docstring. Every
legality decision is one ``_check_*`` method raising :class:`IllegalAction`
with the rule's number; ``legal_actions`` and the public queries the board and
the bots use (``token_moves``, ``step_reason``, ``build_edges``, ``why_not``,
...) are built on the same tables, so they never disagree.
"""

from __future__ import annotations

import random
from typing import Any

from ...geometry import bits, popcount
from ...rules import (CHANCE, Action, EndTurn, Game, IllegalAction, Outcome, Seat, UncountedChance, register)
from .actions import Build, Buy, Choose, Jump, PlaceObstacle, Remove, Scatter, Start, Step, cell_text
from .board import board
from .params import ThenThereWasOneParams
from .paths import TokenPaths, TokenTurn
from .position import WALL, State, jsonable, read_position, replace
from .view import View

__all__ = ["ThenThereWasOne"]

SEAT_NAMES = ("Wall", "Red", "Blue", "Green", "Gold")
SEAT_SYMBOLS = ("■", "●", "▲", "◆", "⬢")
SEAT_COLORS = ("#4a4a4a", "#d1495b", "#2e86ab", "#3b9c4b", "#e09f3e")
SEAT_SHAPES = ("square", "circle", "triangle", "diamond", "hexagon")


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
        self.B = board(*self._key)
        self.paths = TokenPaths(self.B)
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
            return self._after_obstacles(replace(state, obstacles=mask))
        if p.initial_obstacles == 0:
            return self._after_obstacles(state)
        if p.obstacle_setup == "players_place_in_turn":
            return replace(state, phase="place", mover=0)
        return state

    def _after_obstacles(self, state: State) -> State:
        return replace(state, phase="start", mover=1)

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

    def running_scores(self, state: State) -> tuple[float, ...]:
        """Each side's way to its win threshold (A.1 §19-20), the wall player first, then every token
        seat with its team's one number; 1 is the threshold.

        Tokens: ``(arrived + the best partial progress of as many tokens in play as are still
        needed) / token_win_threshold``; a token's partial progress is ``(L - 1 - d) / L``
        for ``d`` the breadth-first steps from its tile to the goal row around obstacles and
        walls (jumps and tokens ignored; 0 when cut off or not yet on the board), ``L`` the
        board's length, so it stays below 1. Wall: ``(eliminated + the same sum over how
        trapped the tokens are) / wall_win_threshold``; a token cut off from the goal row is
        0.5 + 0.4 x min(1, (move_length + 1) / the tiles it can still reach) trapped, one
        with a way to the goal not at all. A side that can no longer reach its threshold
        (too few tokens left) scores 0. Before a win neither side reaches 1; a win puts
        its side at 1 or more, so winners are never behind. The distances of the last board
        (obstacles and walls) are kept: a token's turn changes neither.

        >>> import playtest
        >>> game = playtest.load("then_there_was_one")
        >>> state = game.state_from_json({"to_move": 1, "round": 2, "arrived": [3],
        ...                               "tokens": {"1": [5, 12], "2": [0, 0]}})
        >>> [round(x, 3) for x in game.running_scores(state)]    # one of two arrived, Red 1 step away
        [0.0, 0.929, 0.929, 0.929]
        """
        p, B = self.params, self.B
        n = self.tokens_n
        need_tokens = p.token_win_threshold[n - 2]
        need_wall = p.wall_win_threshold[n - 2]
        arrived, eliminated = len(state.arrived), len(state.eliminated)
        done = set(state.arrived) | {seat for seat, _ in state.eliminated}
        waiting = sum(1 for k, t in enumerate(state.tokens) if t < 0 and k + 1 not in done)
        cells = [t for k, t in enumerate(state.tokens) if t >= 0 and k + 1 not in done]
        free = B.all & ~state.obstacles
        walls = state.walls | state.built
        kept = getattr(self, "_goal_layers", None)  # the last board's: tokens' turns change no wall
        if kept is None or kept[0] != (free, walls):
            kept = self._goal_layers = ((free, walls), B.layers(B.goal, free, walls), {})
        layers, steps = kept[1], kept[2]          # steps: the tiles looked up so far
        length = B.rows
        ahead, trapped = [0.0] * waiting, [0.0] * waiting
        for t in cells:
            d = steps.get(t, -1)
            if d == -1:
                d = steps[t] = next((k for k, layer in enumerate(layers) if layer >> t & 1), None)
            if d is not None:
                ahead.append(max(0, length - 1 - d) / length)
                trapped.append(0.0)
            else:
                ahead.append(0.0)
                area = popcount(B.reach(1 << t, free, walls))
                trapped.append(0.5 + 0.4 * min(1.0, (p.move_length + 1) / max(1, area)))
        left = len(ahead)

        def side(done_count: int, need: int, partial: list[float]) -> float:
            if done_count >= need:
                return done_count / need
            if done_count + left < need:
                return 0.0
            return (done_count + sum(sorted(partial, reverse=True)[:need - done_count])) / need

        tokens = side(arrived, need_tokens, ahead)
        return (side(eliminated, need_wall, trapped),) + (tokens,) * n

    def describe_state(self, state: State) -> str:
        phase = state.phase
        if phase == "over":
            return f"Game over: {state.reason}"
        if phase == "scatter":
            return f"Chance: the {self.params.initial_obstacles} obstacles are scattered"
        name = self.seats()[state.mover].name
        if phase == "place":
            return f"{name} places an obstacle ({popcount(state.obstacles) + 1} of {self.params.initial_obstacles})"
        if phase == "start":
            return f"{name} puts their token on a start circle"
        if phase == "order":
            return f"{name} picks the token that moves next (round {state.round})"
        if phase == "wall":
            used, budget = self.points_used(state), state.rules.wall_budget
            return f"{name} to build, round {state.round}: {used} of {budget} points used"
        left = state.rules.move_length - state.steps_taken
        return f"{name} to move, round {state.round}: {left} of {state.rules.move_length} steps left"

    # ---- queries on positions (the board and the bots use these)
    def points_used(self, state: State) -> int:
        """Budget points used in the wall turn: standing walls, this turn's walls, this turn's obstacles.

        >>> import playtest
        >>> game = playtest.load("then_there_was_one")
        >>> state = game.state_from_json({"tokens": {"1": [2, 0], "2": [5, 0], "3": [8, 0]}, "round": 2,
        ...                               "walls": [[[4, 6], [4, 7]]], "obstacles": [[3, 3]],
        ...                               "bought_this_turn": [[3, 3]]})
        >>> game.points_used(state)       # a standing wall (1) and an obstacle bought this turn (2)
        3
        """
        return (popcount(state.walls) + popcount(state.built)
                + state.rules.obstacle_cost * popcount(state.bought))

    def in_play(self, state: State) -> list[int]:
        """Token seats still in play (on the board, not arrived, not eliminated)."""
        done = set(state.arrived) | {seat for seat, _ in state.eliminated}
        return [k + 1 for k, t in enumerate(state.tokens) if t >= 0 and k + 1 not in done]

    def token_turn(self, state: State) -> TokenTurn:
        """The token to move: its tile, the walls and tiles that bound it, its steps and jumps left.

        >>> import playtest
        >>> game = playtest.load("then_there_was_one")
        >>> state = game.state_from_json({"to_move": 1, "round": 2, "path": [[5, 0], [5, 1]],
        ...                               "tokens": {"1": [5, 1], "2": [0, 0], "3": [9, 0]}})
        >>> turn = game.token_turn(state)
        >>> game.B.label(turn.pos), turn.steps_left, [game.B.label(i) for i in bits(turn.visited)]
        ('f2', 5, ['f1', 'f2'])
        """
        return TokenTurn(*self.paths.context(state))

    def allowed_steps(self, state: State) -> list[tuple[int, bool]]:
        """Steps the board allows the token to move (walls, occupied tiles, the jump rule), landing twice
        included, as ``(cell, is_jump)``: what :meth:`legal_token_moves` chooses from."""
        return self.paths.candidates(state, self.paths.context(state))

    def token_moves(self, state: State) -> tuple[list[tuple[int, bool]], list[tuple[int, bool]]]:
        """(clean, other): steps that keep a clean completion of the turn, and the other allowed steps
        (landing twice, or into a dead end), as ``(cell, is_jump)``.

        >>> import playtest
        >>> game = playtest.load("then_there_was_one")
        >>> state = game.state_from_json({"obstacles": [[4, 5], [5, 6]], "to_move": 1, "round": 2,
        ...                               "tokens": {"1": [5, 5], "2": [0, 0], "3": [9, 0]}})
        >>> clean, other = game.token_moves(state)
        >>> [(game.B.label(cell), jump) for cell, jump in clean], other
        ([('g6', False), ('f5', False), ('e7', True)], [])
        """
        return self.paths.token_moves(state)

    def legal_token_moves(self, state: State) -> list[tuple[int, bool]]:
        """The steps the token to move may take now, as ``(cell, is_jump)``: the clean ones while one exists
        (``allow_voluntary_revisit`` off), else every allowed step."""
        clean, other = self.paths.token_moves(state)
        if clean and not state.rules.allow_voluntary_revisit:
            return clean
        return clean + other

    def has_clean_path(self, state: State) -> bool:
        """Whether the token to move can still complete its turn without landing twice (A.1 §17)."""
        return self.paths.has_clean_path(state)

    def step_reason(self, state: State, to: int, jump: bool | None = None) -> tuple[str, str]:
        """Why the token to move cannot step (or jump, a diagonal by default) onto cell ``to``: (reason, rule).

        >>> import playtest
        >>> game = playtest.load("then_there_was_one")
        >>> state = game.state_from_json({"obstacles": [[4, 5], [5, 6]], "to_move": 1, "round": 2,
        ...                               "tokens": {"1": [5, 5], "2": [0, 0], "3": [9, 0]}})
        >>> game.step_reason(state, game.B.index((5, 6)))
        ('occupied by an obstacle', 'A.1 §15')
        """
        return self.paths.step_reason(state, to, jump, self._name)

    def wall_action(self, kind: type, e: int) -> Action:
        """``kind`` (:class:`Build` or :class:`Remove`) on edge bit ``e``.

        >>> import playtest
        >>> game = playtest.load("then_there_was_one")
        >>> str(game.wall_action(Build, game.B.edge_bit(0, 10)))
        'wall a1|a2'
        """
        i, j = self.B.edge_ends(e)
        return kind(self.B.cell(i), self.B.cell(j))

    def step_action(self, cell: int, jump: bool) -> Action:
        """The action that moves the token to cell index ``cell``: a :class:`Jump` or a :class:`Step`.

        >>> import playtest
        >>> game = playtest.load("then_there_was_one")
        >>> game.step_action(game.B.index((4, 6)), True)
        Jump(to=(4, 6))
        """
        at = self.B.cell(cell)
        return Jump(at) if jump else Step(at)

    # ---- wall-turn queries
    def clearance_edges(self, state: State) -> int:
        """Edges (a mask) where no new wall may lie because of a token: its tile's edges, and its corners'
        with ``wall_token_clearance = "edge_or_corner"`` (A.1 §14.3)."""
        table = self.B.corner_edges if state.rules.wall_token_clearance == "edge_or_corner" else self.B.cell_edges
        mask = 0
        for t in state.tokens:
            if t >= 0:
                mask |= table[t]
        return mask

    def closed_edges(self, state: State) -> int:
        """Edges (a mask) where no new wall may go this turn whatever the budget: :meth:`clearance_edges`,
        and behind the black line on the wall player's first turn (A.1 §14.4)."""
        mask = self.clearance_edges(state)
        if state.first_wall_turn and state.rules.first_turn_black_line_ban:
            mask |= self.B.zone_edges
        return mask

    def _build_mask(self, state: State) -> int:
        """Edges where a wall may be built now, before the open-corridor check."""
        if self.points_used(state) + 1 > state.rules.wall_budget:
            return 0
        return self.B.inner & ~(state.walls | state.built) & ~self.closed_edges(state)

    def _buy_mask(self, state: State) -> int:
        """Tiles where an obstacle may be bought now, before the open-corridor check."""
        rules = state.rules
        if (self.points_used(state) + rules.obstacle_cost > rules.wall_budget
                or popcount(state.bought) >= rules.max_obstacles_per_turn
                or state.bought_total >= rules.max_bought_obstacles_per_game):
            return 0
        tokens = self.paths.token_cells(state)
        mask = self.B.all & ~state.obstacles & ~tokens
        if state.first_wall_turn and rules.first_turn_black_line_ban and rules.first_turn_ban_applies_to_obstacles:
            mask &= ~self.B.zone
        if not rules.bought_obstacle_may_border_token:
            table = self.B.adj8 if rules.wall_token_clearance == "edge_or_corner" else self.B.adj4
            for t in bits(tokens):
                mask &= ~table[t]
        return mask

    def build_edges(self, state: State) -> int:
        """Edges (a mask) where the wall player may build a wall now: every rule of A.1 §14 applied.

        >>> import playtest
        >>> game = playtest.load("then_there_was_one")
        >>> state = game.state_from_json({"tokens": {"1": [2, 0], "2": [5, 0], "3": [8, 0]}, "round": 2})
        >>> e = game.B.edge_bit(game.B.index((2, 0)), game.B.index((2, 1)))
        >>> bool(game.build_edges(state) >> e & 1)     # on Red's tile: never
        False
        """
        build = self._build_mask(state)
        if not state.rules.require_open_corridor:
            return build
        walls = state.walls | state.built
        return sum(1 << e for e in bits(build) if self._keeps_corridor(state, walls | 1 << e, state.obstacles))

    def buy_tiles(self, state: State) -> int:
        """Tiles (a mask) where the wall player may buy an obstacle now: every rule of A.1 §14 applied."""
        buy = self._buy_mask(state)
        if not state.rules.require_open_corridor:
            return buy
        walls = state.walls | state.built
        return sum(1 << i for i in bits(buy) if self._keeps_corridor(state, walls, state.obstacles | 1 << i))

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

    def why_not(self, state: State, action: Action) -> str:
        """Why ``action`` is illegal in ``state``, naming the rule (``""`` when it is legal).

        >>> import playtest
        >>> game = playtest.load("then_there_was_one")
        >>> state = game.state_from_json({"tokens": {"1": [2, 0], "2": [5, 0], "3": [8, 0]}})
        >>> game.why_not(state, Buy((4, 1)))
        "nothing is built behind the black line on the wall player's first turn (e2) (rule A.1 §14.4)"
        >>> game.why_not(state, Buy((4, 5)))
        ''
        """
        try:
            self._check(state, action)
        except IllegalAction as err:
            return str(err)
        return ""

    # ---- legal actions
    def legal_actions(self, state: State, seat: int | None = None) -> list[Action]:
        if seat is not None and seat != self.to_move(state):
            return []
        phase = state.phase
        B = self.B
        if phase == "token":
            return [self.step_action(n, j) for n, j in self.legal_token_moves(state)]
        if phase == "wall":
            actions: list[Action] = [self.wall_action(Remove, e) for e in bits(state.walls | state.built)]
            actions += [self.wall_action(Build, e) for e in bits(self.build_edges(state))]
            actions += [Buy(B.cell(i)) for i in bits(self.buy_tiles(state))]
            if self.points_used(state) <= state.rules.wall_budget:
                actions.append(EndTurn())
            return actions
        if phase == "start":
            taken = self.paths.token_cells(state) | state.obstacles
            return [Start((c, 0)) for c in B.start if not taken >> c & 1]
        if phase == "order":
            return [Choose(seat) for seat in self._pending(state)]
        if phase == "place":
            return [PlaceObstacle(B.cell(i)) for i in bits(self._place_mask(state))]
        return []

    def _place_mask(self, state: State) -> int:
        """Tiles for the next placed obstacle: in front of the line, free, and (ensure_path_after_setup)
        keeping the goal reachable, unless no tile can (then any free tile will do)."""
        B = self.B
        free = B.all & ~B.zone & ~state.obstacles
        if not self.params.ensure_path_after_setup:
            return free
        keeps = sum(1 << i for i in bits(free) if self.goal_reachable_from_start(state.obstacles | 1 << i))
        return keeps or free

    def random_action(self, state: State, rng: random.Random) -> Action:
        """A random legal action, sampled fast: the wall player builds at random and ends its turn
        with probability 1/4 at each action (so a turn averages four actions); a token picks
        uniformly among its legal next steps."""
        phase = state.phase
        if phase == "token":
            return self.step_action(*self.paths.random_step(state, rng))
        if phase == "wall":
            B = self.B
            rules = state.rules
            standing = state.walls | state.built
            left = rules.wall_budget - self.points_used(state)
            if left < 0:  # over budget (the budget went down): pick up walls first
                return self.wall_action(Remove, rng.choice(list(bits(standing))))
            roll = rng.random()
            if roll < 0.25:
                return EndTurn()
            if roll < 0.35 and standing:
                return self.wall_action(Remove, rng.choice(list(bits(standing))))
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
                        return self.wall_action(Build, e)
            return EndTurn()
        if phase == "place":
            mask = self._place_mask(state)
            return PlaceObstacle(self.B.cell(rng.choice(list(bits(mask)))))
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
                c, r = rng.randrange(-1, B.cols + 1), rng.randrange(-1, B.rows + 1)
                if not (0 <= c < B.cols and 0 <= r < B.rows):
                    continue  # off the board: thrown again
                i = r * B.cols + c
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
        tiles, edges = self._touched(state, action)
        return replace(self._resolve(state, action), last_tiles=tiles, last_edges=edges)

    def _touched(self, state: State, action: Action) -> tuple[tuple, int]:
        """What ``action`` touches, for the board's last-move mark: ``(tiles, edge mask)``.

        A step shows the token's path this turn so far; the end of a wall turn shows that
        turn's new walls and bought obstacles (until then the board draws them apart anyway).
        """
        kind, B = action.kind, self.B
        if kind == "step" or kind == "jump":
            return state.path + (B.index(action.to),), 0  # type: ignore[attr-defined]
        if kind == "build" or kind == "remove":
            return (), 1 << B.edge_bit(B.index(action.a), B.index(action.b))  # type: ignore[attr-defined]
        if kind in ("buy", "start", "place_obstacle"):
            return (B.index(action.at),), 0  # type: ignore[attr-defined]
        if kind == "end_turn":
            return tuple(bits(state.bought)), state.built
        return (), 0

    def _resolve(self, state: State, action: Action) -> State:
        """The state after the (checked) ``action``."""
        kind = action.kind
        B = self.B
        if kind == "step" or kind == "jump":
            return self._apply_step(state, B.index(action.to), kind == "jump")  # type: ignore[attr-defined]
        if kind == "build":
            e = B.edge_bit(B.index(action.a), B.index(action.b))  # type: ignore[attr-defined]
            return replace(state, built=state.built | 1 << e)
        if kind == "remove":
            bit = 1 << B.edge_bit(B.index(action.a), B.index(action.b))  # type: ignore[attr-defined]
            return replace(state, walls=state.walls & ~bit, built=state.built & ~bit)
        if kind == "buy":
            bit = 1 << B.index(action.at)  # type: ignore[attr-defined]
            return replace(state, obstacles=state.obstacles | bit, bought=state.bought | bit,
                            bought_total=state.bought_total + 1)
        if kind == "end_turn":
            done = replace(state, walls=state.walls | state.built, built=0, bought=0, first_wall_turn=False)
            return self._next_turn(done, after_wall=True)
        if kind == "choose":
            return self._begin_token_turn(state, action.seat)  # type: ignore[attr-defined]
        if kind == "start":
            tokens = list(state.tokens)
            tokens[state.mover - 1] = B.index(action.at)  # type: ignore[attr-defined]
            state = replace(state, tokens=tuple(tokens))
            if state.mover < self.tokens_n:
                return replace(state, mover=state.mover + 1)
            return self._begin_wall_turn(replace(state, round=1, first_wall_turn=True, moved=()))
        if kind == "scatter":
            mask = 0
            for cell in action.cells:  # type: ignore[attr-defined]
                mask |= 1 << B.index(cell)
            return self._after_obstacles(replace(state, obstacles=mask))
        if kind == "place_obstacle":
            obstacles = state.obstacles | 1 << B.index(action.at)  # type: ignore[attr-defined]
            placed = popcount(obstacles)
            if placed >= self.params.initial_obstacles:
                return self._after_obstacles(replace(state, obstacles=obstacles))
            return replace(state, obstacles=obstacles, mover=placed % self.params.num_players)
        raise IllegalAction(f"{action!r} is not a Then There Was One action")

    def _apply_step(self, state: State, to: int, jump: bool) -> State:
        rules = state.rules
        seat = state.mover
        if self.paths.visited(state) >> to & 1:  # a double landing (rule A.1 §16)
            return self._eliminate(state, seat, "landed twice")
        steps = state.steps_taken + (rules.jump_step_cost if jump else 1)
        tokens = list(state.tokens)
        tokens[seat - 1] = to
        state = replace(state, tokens=tuple(tokens), path=state.path + (to,), steps_taken=steps,
                         jumps_used=state.jumps_used + jump)
        if self.B.goal >> to & 1 and (rules.goal_on_entry or steps >= rules.move_length):
            if rules.finished_token_leaves_board:
                tokens[seat - 1] = -1
            done = replace(state, tokens=tuple(tokens), arrived=state.arrived + (seat,))
            return self._end_token_turn(done)
        if steps >= rules.move_length:
            return self._end_token_turn(state)
        if not self.paths.can_step(state, to):  # stuck mid-turn
            if rules.eliminate_when_no_path:
                return self._eliminate(state, seat, "trapped")
            return self._end_token_turn(state)
        return state

    def _eliminate(self, state: State, seat: int, how: str) -> State:
        tokens = list(state.tokens)
        tokens[seat - 1] = -1
        return self._end_token_turn(replace(state, tokens=tuple(tokens),
                                             eliminated=state.eliminated + ((seat, how),)))

    def _end_token_turn(self, state: State) -> State:
        state = replace(state, moved=state.moved + (state.mover,), path=(), steps_taken=0, jumps_used=0)
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
            return replace(state, phase="over", mover=-1, path=(), winners=tuple(range(1, n + 1)),
                            reason=f"the tokens win: {arrived} of {n} tokens reached the goal row")
        if eliminated >= p.wall_win_threshold[n - 2]:
            return replace(state, phase="over", mover=-1, path=(), winners=(WALL,),
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
            return replace(state, phase="order", mover=pending[0])
        return self._begin_token_turn(state, pending[0])

    def _end_round(self, state: State) -> State:
        p = self.params
        if not self.in_play(state):
            return replace(state, phase="over", mover=-1, winners=(),
                            reason="a draw: no token is left in play and no side reached its threshold")
        if state.round >= p.max_rounds:
            return replace(state, phase="over", mover=-1, winners=(),
                            reason=f"a draw: no winner after {state.round} rounds (max_rounds)")
        return self._begin_wall_turn(replace(state, round=state.round + 1, moved=()))

    def _begin_wall_turn(self, state: State) -> State:
        return replace(state, phase="wall", mover=WALL, rules=self.params, built=0, bought=0, path=(),
                        steps_taken=0, jumps_used=0)

    def _begin_token_turn(self, state: State, seat: int) -> State:
        """Start ``seat``'s turn; a token with no clean path is eliminated at once (A.1 §17)."""
        pos = state.tokens[seat - 1]
        state = replace(state, phase="token", mover=seat, rules=self.params, path=(pos,), steps_taken=0,
                         jumps_used=0)
        rules = state.rules
        if rules.eliminate_when_no_path:
            if not self.has_clean_path(state):
                return self._eliminate(state, seat, "trapped")
        elif not self.allowed_steps(state):
            return self._end_token_turn(state)  # cannot move at all: the turn passes
        return state

    # ---- legality with reasons
    def _cell_of(self, value: Any, what: str) -> int:
        B = self.B
        if not (isinstance(value, tuple) and len(value) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            raise IllegalAction(f"{what} must be a tile [col, row], not {value!r}")
        c, r = value
        if not (0 <= c < B.cols and 0 <= r < B.rows):
            raise IllegalAction(f"{what} {list(value)} is not a tile of the {B.cols} x {B.rows} board",
                                rule="A.1 §1")
        return r * B.cols + c

    def _edge_of(self, action: Action) -> int:
        a, b = action.a, action.b  # type: ignore[attr-defined]
        i = self._cell_of(a, "a wall's first tile")
        j = self._cell_of(b, "a wall's second tile")
        if not self.B.adjacent(i, j):
            raise IllegalAction(f"walls lie between two orthogonally adjacent tiles; {cell_text(a)} and "
                                f"{cell_text(b)} are not", rule="A.1 §4")
        return self.B.edge_bit(i, j)

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
                raise IllegalAction(f"an obstacle on {cell_text(cell)} is behind the black line: it must be "
                                    "thrown again", rule="A.1 §9")
            if mask >> i & 1:
                raise IllegalAction(f"two obstacles on {cell_text(cell)}: it must be thrown again",
                                    rule="A.1 §9")
            mask |= 1 << i
        if p.ensure_path_after_setup and not self.goal_reachable_from_start(mask):
            raise IllegalAction("this scatter cuts the goal row off from the start row: it must be redrawn "
                                "(ensure_path_after_setup)", rule="A7")

    def _check_place_obstacle(self, state: State, action: PlaceObstacle) -> None:
        i = self._cell_of(action.at, "an obstacle")
        if self.B.zone >> i & 1:
            raise IllegalAction(f"{cell_text(action.at)} is behind the black line", rule="A.1 §9")
        if state.obstacles >> i & 1:
            raise IllegalAction(f"{cell_text(action.at)} already holds an obstacle", rule="A.1 §9")
        if not self._place_mask(state) >> i & 1:
            raise IllegalAction(f"an obstacle on {cell_text(action.at)} cuts the goal row off from the start "
                                "row (ensure_path_after_setup)", rule="A7")

    def _check_start(self, state: State, action: Start) -> None:
        i = self._cell_of(action.at, "a start circle")
        if i >= self.B.cols or not self.B.start_mask >> i & 1:
            raise IllegalAction(f"{cell_text(action.at)} is not a start circle (start_cells)", rule="A.1 §10")
        if (self.paths.token_cells(state) | state.obstacles) >> i & 1:
            raise IllegalAction(f"the start circle {cell_text(action.at)} is taken", rule="A.1 §10")

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
        if self.clearance_edges(state) & bit:
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
        where = cell_text(action.at)
        if state.obstacles >> i & 1:
            raise IllegalAction(f"{where} already holds an obstacle", rule="A.1 §14.2")
        tokens = self.paths.token_cells(state)
        if tokens >> i & 1:
            raise IllegalAction(f"a token stands on {where}", rule="A.1 §14.2")
        bought = popcount(state.bought)
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
            if any(table[t] >> i & 1 for t in bits(tokens)):
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
        legal = self.legal_token_moves(state)
        if (i, jump) in legal:
            return
        why, rule = self.step_reason(state, i, jump)
        raise IllegalAction(why, rule=rule)

    _check_jump = _check_step

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
            text = f"{len(action.cells)} obstacles: " + " ".join(cell_text(c) for c in action.cells)  # type: ignore
        elif kind == "step" or kind == "jump":
            arrow = "⤢" if kind == "jump" else "→"
            text = f"{self._name(mover)} {B.label(state.path[-1])}{arrow}{cell_text(action.to)}"  # type: ignore
            if kind == "jump":
                text += " jump"
        elif kind in ("build", "buy", "end_turn"):
            used = self.points_used(after) if kind != "end_turn" else self.points_used(state)
            if kind == "build":
                what = f"wall {cell_text(action.a)}|{cell_text(action.b)}"  # type: ignore[attr-defined]
            elif kind == "buy":
                what = f"buys obstacle {cell_text(action.at)}"  # type: ignore[attr-defined]
            else:
                what = "ends turn"
            text = f"{self._name(WALL)} {what} ({used}/{state.rules.wall_budget})"
        elif kind == "remove":
            e = B.edge_bit(B.index(action.a), B.index(action.b))  # type: ignore[attr-defined]
            verb = "takes back" if state.built >> e & 1 else "picks up"
            text = f"{self._name(WALL)} {verb} {B.edge_label(e)}"
        elif kind == "choose":
            text = f"team: {self._name(action.seat)} moves next"  # type: ignore[attr-defined]
        elif kind == "start":
            text = f"{self._name(mover)} starts on {cell_text(action.at)}"  # type: ignore[attr-defined]
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
                                 f"not {jsonable(action.cells)!r}")
            return action
        for name in ("at", "a", "b", "to"):
            if hasattr(action, name) and not is_tile(getattr(action, name)):
                raise ValueError(f"malformed {action.kind} action: {name} must be a tile [col, row], "
                                 f"not {jsonable(getattr(action, name))!r}")
        return action

    def state_from_json(self, data: Any) -> State:
        return read_position(self, data)

    def adapt_state(self, state: State, old: Game) -> State:
        """After a live change: the turn being played keeps its rules (``state.rules``); the new
        values apply from the next turn. Win thresholds apply at once."""
        if state.phase in ("over", "scatter"):
            return state
        if state.phase not in ("wall", "token"):
            state = replace(state, rules=self.params)
        over = self._decided(state)
        return over if over is not None else state

    # ---- the scene
    def view(self, state: State, seat: int | None = None) -> dict:
        return View(self, state, seat).build()

