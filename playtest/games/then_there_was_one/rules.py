"""Then There Was One's rules: the :class:`ThenThereWasOne` game, its legality, effects and end.

The rules summary and the position format are in the package docstring. The game is written
on the declared kernel: :meth:`ThenThereWasOne.why_not` is the one legality decision (a
:class:`playtest.Refusal` naming the rule, or ``None``), :meth:`~ThenThereWasOne.effect` what a
legal action does, and the kernel's ``check`` and ``apply`` are built on them. The decision and
``legal_actions`` read the same masks (``build_edges``, ``buy_tiles``, ``legal_token_moves``, ...),
which the board and the bots ask too, so they never disagree.
"""

from __future__ import annotations

import random
from typing import Any, Literal

from ...geometry import bits, popcount, select
from ...kernel import (CHANCE, Action, EndTurn, Game, GameType, IllegalAction, Outcome, Refusal, Seat,
                       UncountedChance, per_seat, register)
from .actions import Build, Buy, Choose, Jump, PlaceObstacle, Remove, Scatter, Start, Step, Tile, cell_text
from .board import board
from .params import ThenThereWasOneParams
from .paths import TokenPaths, TokenTurn
from .position import WALL, State, copied, read_position
from .scores import GoalScores
from .view import View

__all__ = ["ThenThereWasOne"]

SEAT_NAMES = ("Wall", "Red", "Blue", "Green", "Gold")
SEAT_SYMBOLS = ("■", "●", "▲", "◆", "⬢")
SEAT_COLORS = ("#4a4a4a", "#d1495b", "#2e86ab", "#3b9c4b", "#e09f3e")
SEAT_SHAPES = ("square", "circle", "triangle", "diamond", "hexagon")


END_TURN = EndTurn()
#: the most (tokens, first wall turn, rules) whose turn-long bans a game keeps (then it starts again)
TURN_KEPT = 1024
#: the phase in which each kind of action may be played
PHASE_OF = {"scatter": "scatter", "place_obstacle": "place", "start": "start", "choose": "order",
            "build": "wall", "remove": "wall", "buy": "wall", "end_turn": "wall", "step": "token", "jump": "token"}


@register
class ThenThereWasOne(Game[ThenThereWasOneParams, State, Action]):
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
    state_type = State
    action_types = (Scatter, PlaceObstacle, Start, Choose, Build, Remove, Buy, EndTurn, Step, Jump)
    # one side at a time; the setup scatter is chance; everything is on the table; one side wins. A wall
    # turn may build and pick up walls without end, so no game length is bounded.
    game_type = GameType(dynamics="sequential", chance=True, information="perfect", utility="zero_sum")
    end_rule = "A.1 §19"

    def __init__(self, params: ThenThereWasOneParams | None = None, **values: Any):
        super().__init__(params, **values)
        p = self.params
        self._key = (p.board_width, p.board_length, p.start_zone_rows, tuple(p.start_cells))
        self.B = board(*self._key)
        self.paths = TokenPaths(self.B)
        self.tokens_n = p.num_players - 1
        self._cols = self.B.cols
        #: the win thresholds with this many tokens (A27): arrivals, eliminations
        self._thresholds = (p.token_win_threshold[self.tokens_n - 2], p.wall_win_threshold[self.tokens_n - 2])
        #: running_scores, with what it found (the last board's layers from the goal row, each tile's progress)
        self._scores = GoalScores(self.B, p.move_length, self._thresholds, self.tokens_n)
        #: actions are values: each edge's wall action and each cell's step is made once per game
        self._made: dict[type, tuple[Action, ...]] = {}
        self._steps = tuple(Step(self.B.cell(i)) for i in range(self.B.size))
        self._jumps = tuple(Jump(self.B.cell(i)) for i in range(self.B.size))
        #: a start circle's action by column (row 0's cell indices), and the end of a wall turn as a table of one
        self._starts = tuple(Start((c, 0)) for c in range(self.B.cols))
        self._end_turns = (END_TURN,)
        self._wall_tables: tuple[tuple[Action, ...], ...] = ()
        #: the bans a wall turn cannot change, by what decides them (:meth:`_turn_masks`)
        self._turn_kept: dict[tuple[Any, ...], tuple[Any, int, int]] = {}

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
            return state.replace(obstacles=mask, phase="start", mover=1)
        if p.initial_obstacles == 0:
            return state.replace(phase="start", mover=1)
        if p.obstacle_setup == "players_place_in_turn":
            return state.replace(phase="place", mover=0)
        return state


    # ---- the protocol
    def to_move(self, state: State) -> int | None:
        phase = state.phase
        return None if phase == "over" else CHANCE if phase == "scatter" else state.mover

    def outcome(self, state: State) -> Outcome | None:
        return None if state.winners is None else Outcome(tuple(state.winners), state.reason)

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
        (obstacles and walls) are kept: a token's turn changes neither (see :mod:`.scores`).

        >>> import playtest
        >>> game = playtest.load("then_there_was_one")
        >>> state = game.state_from_json({"to_move": 1, "round": 2, "arrived": [3],
        ...                               "tokens": {"1": [5, 12], "2": [0, 0]}})
        >>> [round(x, 3) for x in game.running_scores(state)]    # one of two arrived, Red 1 step away
        [0.0, 0.929, 0.929, 0.929]
        """
        return self._scores(state)

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
        if not state.arrived and not state.eliminated:
            return [k + 1 for k, t in enumerate(state.tokens) if t >= 0]
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
        return clean + other if other and (state.rules.allow_voluntary_revisit or not clean) else clean

    def has_clean_path(self, state: State) -> bool:
        """Whether the token to move can still complete its turn without landing twice (A.1 §17)."""
        return self.paths.has_clean_path(state)

    def step_reason(self, state: State, to: int, jump: bool | None = None) -> Refusal:
        """Why the token to move cannot step (or jump, a diagonal by default) onto cell ``to``, asked
        when it cannot (:meth:`legal_token_moves` decides).

        >>> import playtest
        >>> game = playtest.load("then_there_was_one")
        >>> state = game.state_from_json({"obstacles": [[4, 5], [5, 6]], "to_move": 1, "round": 2,
        ...                               "tokens": {"1": [5, 5], "2": [0, 0], "3": [9, 0]}})
        >>> game.step_reason(state, game.B.index((5, 6)))
        Refusal(text='occupied by an obstacle', rule='A.1 §15')
        """
        return self.paths.step_reason(state, to, jump, self._name)

    def wall_action(self, kind: type, e: int) -> Action:
        """``kind`` (:class:`Build` or :class:`Remove`) on edge bit ``e``.

        >>> import playtest
        >>> game = playtest.load("then_there_was_one")
        >>> str(game.wall_action(Build, game.B.edge_bit(0, 10)))
        'wall a1|a2'
        """
        return self._made_actions(kind)[e]

    def _made_actions(self, kind: type) -> tuple[Action, ...]:
        """The wall turn's actions of ``kind``, made once per game: by edge bit (:class:`Build`,
        :class:`Remove`) or cell (:class:`Buy`). Listings select from them with the masks, so a
        listing makes no object and the same action is the same object every time."""
        made = self._made.get(kind)
        if made is None:
            B = self.B
            made = self._made[kind] = (tuple(Buy(B.cell(i)) for i in range(B.size)) if kind is Buy else
                                       tuple(kind(*map(B.cell, B.edge_ends(e))) for e in range(B.inner.bit_length())))
        return made

    def step_action(self, cell: int, jump: bool) -> Action:
        """The action that moves the token to cell index ``cell``: a :class:`Jump` or a :class:`Step`.

        >>> import playtest
        >>> game = playtest.load("then_there_was_one")
        >>> game.step_action(game.B.index((4, 6)), True)
        Jump(to=(4, 6))
        """
        return (self._jumps if jump else self._steps)[cell]

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

    def _wall_bans(self, state: State, texts: bool = True) -> list[tuple[int, str, str]]:
        """What keeps a new wall off an edge now (A.1 §14), in the order a refusal names it: per rule, the
        edges it bans (a mask), what it says (``{}`` is the edge; empty without ``texts``: a listing needs
        only the masks) and its number. The open corridor is checked apart, edge by edge
        (:meth:`_keeps_corridor`). Those that the turn's walls change first (:meth:`_wall_bans_now`),
        then those that only the tokens and the turn decide (:meth:`_turn_bans`)."""
        return self._wall_bans_now(state, texts) + self._turn_bans(state, texts)[0]

    def _wall_bans_now(self, state: State, texts: bool = True) -> list[tuple[int, str, str]]:
        """:meth:`_wall_bans` that the walls and obstacles of the turn change: a wall standing, the budget."""
        rules = state.rules
        bans = [(state.walls | state.built, "there is already a wall on {}", "A.1 §14")]
        used = self.points_used(state)
        if used + 1 > rules.wall_budget:
            bans.append((self.B.inner, f"the budget is spent: {used} of {rules.wall_budget} points used, walls "
                                       "left standing included" if texts else "", "A.1 §14.1"))
        return bans

    def _buy_bans(self, state: State, texts: bool = True) -> list[tuple[int, str, str]]:
        """What keeps a bought obstacle off a tile now (A.1 §14, A23), as :meth:`_wall_bans` (tile masks):
        :meth:`_buy_bans_now` and the obstacles' part of :meth:`_turn_bans`, the tokens' tiles second."""
        now, turn = self._buy_bans_now(state, texts), self._turn_bans(state, texts)[1]
        return now[:1] + turn[:1] + now[1:] + turn[1:]

    def _buy_bans_now(self, state: State, texts: bool = True) -> list[tuple[int, str, str]]:
        """:meth:`_buy_bans` that the walls and obstacles of the turn change: a tile's obstacle, the
        obstacles bought this turn and this game, the budget."""
        rules, B = state.rules, self.B
        bans = [(state.obstacles, "{} already holds an obstacle", "A.1 §14.2")]
        bought, used = popcount(state.bought), self.points_used(state)
        if bought >= rules.max_obstacles_per_turn:
            bans.append((B.all, f"{bought} obstacles were bought this turn already "
                                f"(max_obstacles_per_turn = {rules.max_obstacles_per_turn})" if texts else "",
                         "A.1 §14.2"))
        if state.bought_total >= rules.max_bought_obstacles_per_game:
            bans.append((B.all, f"{state.bought_total} obstacles were bought in this game already "
                                f"(max_bought_obstacles_per_game = {rules.max_bought_obstacles_per_game})"
                         if texts else "", "A.1 §14.2"))
        if used + rules.obstacle_cost > rules.wall_budget:
            bans.append((B.all, f"an obstacle costs {rules.obstacle_cost} points and only "
                                f"{rules.wall_budget - used} are left" if texts else "", "A.1 §14.1"))
        return bans

    def _turn_bans(self, state: State, texts: bool = True) -> tuple[list[tuple[int, str, str]],
                                                                    list[tuple[int, str, str]]]:
        """The bans of :meth:`_wall_bans` and of :meth:`_buy_bans` that only the tokens' tiles, the first
        wall turn and the rules decide (nothing built or bought in a wall turn changes them), as those
        list them: (the walls' bans: a token's edges, the black line; the obstacles': a token's tile, the
        black line, a token's border)."""
        rules, B = state.rules, self.B
        extra = " or touch its corners" if rules.wall_token_clearance == "edge_or_corner" else ""
        walls = [(self.clearance_edges(state), f"a wall may not lie on an edge of a token's tile{extra} ({{}})"
                  if texts else "", "A.1 §14.3")]
        if state.first_wall_turn and rules.first_turn_black_line_ban:
            walls.append((B.zone_edges, "nothing is built behind the black line on the wall player's first turn "
                                        "({})", "A.1 §14.4"))
        tokens = self.paths.token_cells(state)
        buys = [(tokens, "a token stands on {}", "A.1 §14.2")]
        if state.first_wall_turn and rules.first_turn_black_line_ban and rules.first_turn_ban_applies_to_obstacles:
            buys.append((B.zone, "nothing is built behind the black line on the wall player's first turn ({})",
                         "A.1 §14.4"))
        if not rules.bought_obstacle_may_border_token:
            table = B.adj8 if rules.wall_token_clearance == "edge_or_corner" else B.adj4
            border = 0
            for t in bits(tokens):
                border |= table[t]
            buys.append((border, "a bought obstacle may not border a token ({}; bought_obstacle_may_border_token)",
                         "A23"))
        return walls, buys

    def _turn_masks(self, state: State) -> tuple[Any, int, int]:
        """``(rules, edges, tiles)``: the edges and the tiles that :meth:`_turn_bans` bans, kept by what
        decides them (the tokens' tiles, the first wall turn, the rules object), since a wall turn's
        listings ask again after every wall and obstacle."""
        rules = state.rules
        key = (state.tokens, state.first_wall_turn, id(rules))
        got = self._turn_kept.get(key)
        if got is None or got[0] is not rules:
            walls, buys = self._turn_bans(state, texts=False)
            edges = tiles = 0
            for mask, _, _ in walls:
                edges |= mask
            for mask, _, _ in buys:
                tiles |= mask
            if len(self._turn_kept) >= TURN_KEPT:
                self._turn_kept.clear()
            got = self._turn_kept[key] = (rules, edges, tiles)
        return got

    def _build_mask(self, state: State) -> int:
        """Edges where a wall may be built now, before the open-corridor check: every ban of
        :meth:`_wall_bans` or'ed (none at all once the budget is spent), read without listing them."""
        if self.points_used(state) + 1 > state.rules.wall_budget:
            return 0
        return self.B.inner & ~(self._turn_masks(state)[1] | state.walls | state.built)

    def _buy_mask(self, state: State) -> int:
        """Tiles where an obstacle may be bought now, before the open-corridor check: every ban of
        :meth:`_buy_bans` or'ed (none at all past a limit or the budget), read without listing them."""
        rules = state.rules
        if (popcount(state.bought) >= rules.max_obstacles_per_turn
                or state.bought_total >= rules.max_bought_obstacles_per_game
                or self.points_used(state) + rules.obstacle_cost > rules.wall_budget):
            return 0
        return self.B.all & ~(self._turn_masks(state)[2] | state.obstacles)

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

    # ---- legal actions: listed from the same masks why_not decides with
    def legal_actions(self, state: State, seat: int | None = None) -> list[Action]:
        """Every legal action of the seat to move, in a fixed order: walls to pick up, walls to build,
        obstacles to buy, the end of the turn; a token's steps; the start circles; the tokens still
        to move; the tiles for a placed obstacle.

        They are listed from the masks :meth:`why_not` decides with (:meth:`build_edges`,
        :meth:`buy_tiles`, :meth:`legal_token_moves`, ...), a whole turn's at once, rather than
        by asking it about every edge and tile of the board: the same decision, faster.
        """
        if seat is not None and seat != self.to_move(state):
            return []
        phase = state.phase
        B = self.B
        if phase == "token":
            steps, jumps = self._steps, self._jumps
            return [jumps[n] if j else steps[n] for n, j in self.legal_token_moves(state)]
        if phase == "wall" or phase == "start":
            actions = []
            for table, mask in self._runs(state):
                if mask:
                    actions += select(table, mask)
            return actions
        if phase == "order":
            return [Choose(seat) for seat in self._pending(state)]
        if phase == "place":
            return [PlaceObstacle(B.cell(i)) for i in bits(self._place_mask(state))]
        return []

    def legal_runs(self, state: State) -> list[tuple[tuple[Action, ...], int]] | None:
        """The legal actions of a wall turn, a start or a token's step as the adapters for
        numbering libraries read them (:mod:`playtest.interop.core`): runs ``(table, mask)`` of
        the prebuilt actions, one per edge, cell or start column, and the masks that select the
        legal ones. A wall turn's and a start's in the order :meth:`legal_actions` lists them (it
        lists them from these runs: walls to pick up, walls to build, obstacles to buy, the end of
        the turn; the start circles); a token's steps, then its jumps (left out when there are
        none), each by tile (:meth:`TokenPaths.move_masks`: the same moves as
        :meth:`legal_token_moves`, which lists them north first); ``None`` in the other phases,
        which are listed as usual.

        >>> import playtest
        >>> from playtest.geometry import select
        >>> game = playtest.load("then_there_was_one")
        >>> state = game.state_from_json({"tokens": {"1": [2, 0], "2": [5, 0], "3": [8, 0]}, "round": 2})
        >>> [a for table, mask in game.legal_runs(state) for a in select(table, mask)] == game.legal_actions(state)
        True
        >>> [type(table[0]).__name__ for table, mask in game.legal_runs(state) if mask]    # no wall stands yet
        ['Build', 'Buy', 'EndTurn']
        """
        phase = state.phase
        if phase == "token":
            steps, jumps = self.paths.move_masks(state)
            return [(self._steps, steps), (self._jumps, jumps)] if jumps else [(self._steps, steps)]
        return self._runs(state) if phase == "wall" or phase == "start" else None

    def _runs(self, state: State) -> list[tuple[tuple[Action, ...], int]]:
        """:meth:`legal_runs` of a wall turn or a start (the masks :meth:`why_not` decides with)."""
        if state.phase == "start":
            # row 0's cell indices are its columns: the start circles not taken by a token or an obstacle
            B = self.B
            return [(self._starts, B.start_mask & B.row0 & ~(self.paths.token_cells(state) | state.obstacles))]
        remove, build, buy = self._wall_tables or self._make_wall_tables()
        # (build_edges, buy_tiles and the end of the turn, inline: the points used and the turn's bans read once)
        rules, B = state.rules, self.B
        standing, bought = state.walls | state.built, state.bought
        used = popcount(state.walls) + popcount(state.built) + rules.obstacle_cost * popcount(bought)
        budget = rules.wall_budget
        _, turn_edges, turn_tiles = self._turn_masks(state)
        walls = 0 if used + 1 > budget else B.inner & ~(turn_edges | standing)
        tiles = (0 if (popcount(bought) >= rules.max_obstacles_per_turn
                       or state.bought_total >= rules.max_bought_obstacles_per_game
                       or used + rules.obstacle_cost > budget) else B.all & ~(turn_tiles | state.obstacles))
        if rules.require_open_corridor:
            obstacles, keeps = state.obstacles, self._keeps_corridor
            walls = sum(1 << e for e in bits(walls) if keeps(state, standing | 1 << e, obstacles))
            tiles = sum(1 << i for i in bits(tiles) if keeps(state, standing, obstacles | 1 << i))
        return [(remove, standing), (build, walls), (buy, tiles), (self._end_turns, 1 if used <= budget else 0)]

    def _make_wall_tables(self) -> tuple[tuple[Action, ...], ...]:
        """The wall turn's prebuilt actions (:meth:`_made_actions`) of Remove, Build and Buy, kept together."""
        self._wall_tables = (self._made_actions(Remove), self._made_actions(Build), self._made_actions(Buy))
        return self._wall_tables

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
            n, jump = self.paths.random_step(state, rng)
            return (self._jumps if jump else self._steps)[n]
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
        def check(outcome: Any) -> None:
            refusal = (self.why_not(state, outcome) if isinstance(outcome, self.action_types)
                       else Refusal(f"{outcome!r} is not a Then There Was One action"))
            if refusal is not None:
                raise IllegalAction.of(refusal)

        return UncountedChance(lambda rng: self.chance_outcome(state, rng), check,
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
            cells: list[Tile] = []
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

    # ---- applying actions (the kernel's apply checks with why_not, then calls effect)
    def effect(self, state: State, action: Action) -> State:
        """The state after a legal ``action``, with what it touched kept for the board's last-move mark:
        a step shows the token's path this turn so far; the end of a wall turn shows that turn's new
        walls and bought obstacles (until then the board draws them apart anyway)."""
        kind = type(action)
        if kind is Step or kind is Jump:         # most of a game's actions: asked first, marked by _apply_step
            to = action.to                        # type: ignore[attr-defined]
            return self._apply_step(state, to[1] * self._cols + to[0], kind is Jump)
        if isinstance(action, (Step, Jump)):
            return self._apply_step(state, self.B.index(action.to), isinstance(action, Jump))
        B = self.B
        tiles: tuple[int, ...] = ()
        edges = 0
        match action:
            case Build(a, b):         # (a wall turn's actions: one copy, with their marks)
                edges = 1 << B.edge_bit(B.index(a), B.index(b))
                return state.replace(built=state.built | edges, last_tiles=(), last_edges=edges)
            case Remove(a, b):
                edges = 1 << B.edge_bit(B.index(a), B.index(b))
                return state.replace(walls=state.walls & ~edges, built=state.built & ~edges, last_tiles=(),
                                     last_edges=edges)
            case Buy(at):
                i = B.index(at)
                return state.replace(obstacles=state.obstacles | 1 << i, bought=state.bought | 1 << i,
                                     bought_total=state.bought_total + 1, last_tiles=(i,), last_edges=0)
            case EndTurn():     # the turn's walls and obstacles are marked in the first copy, which the rest keep
                return self._next_turn(state, after_wall=True, changes={
                    "walls": state.walls | state.built, "built": 0, "bought": 0, "first_wall_turn": False,
                    "last_tiles": tuple(bits(state.bought)), "last_edges": state.built})
            case Choose(seat):
                after = self._begin_token_turn(state, seat)
            case Start(at):
                i = B.index(at)
                after = state.replace(tokens=per_seat(state.tokens, state.mover - 1, i))
                if state.mover < self.tokens_n:
                    after = after.replace(mover=state.mover + 1)
                else:
                    after = self._begin_wall_turn(after.replace(round=1, first_wall_turn=True, moved=()))
                tiles = (i,)
            case Scatter(cells):
                after = state.replace(obstacles=sum(1 << B.index(c) for c in set(cells)), phase="start", mover=1)
            case PlaceObstacle(at):
                i = B.index(at)
                obstacles = state.obstacles | 1 << i
                placed = popcount(obstacles)
                if placed >= self.params.initial_obstacles:
                    after = state.replace(obstacles=obstacles, phase="start", mover=1)
                else:
                    after = state.replace(obstacles=obstacles, mover=placed % self.params.num_players)
                tiles = (i,)
            case _:
                raise IllegalAction(f"{action!r} is not a Then There Was One action")
        return after.replace(last_tiles=tiles, last_edges=edges)

    def _apply_step(self, state: State, to: int, jump: bool) -> State:
        """The token to move steps (or jumps) onto cell ``to``: the state after it, marked as :meth:`effect`
        marks a step (``last_tiles`` the path so far, with ``to``; no edges)."""
        rules = state.rules
        seat = state.mover
        path = state.path
        tiles = path + (to,)
        if to in (path if rules.start_tile_counts else path[1:]):  # a double landing (rule A.1 §16)
            return self._eliminate(state, seat, "landed twice").replace(last_tiles=tiles, last_edges=0)
        steps = state.steps_taken + (rules.jump_step_cost if jump else 1)
        tokens = state.tokens
        tokens = tokens[:seat - 1] + (to,) + tokens[seat:]
        # state.replace(tokens=..., path=tiles, steps_taken=steps, jumps_used=..., last_tiles=tiles, last_edges=0),
        # written field by field on one copy: most of a game's actions are a step
        data = state.__dict__.copy()
        data["tokens"], data["path"], data["steps_taken"] = tokens, tiles, steps
        data["jumps_used"] = state.jumps_used + jump
        data["last_tiles"], data["last_edges"] = tiles, 0
        after = copied(state, data)
        if self.B.goal >> to & 1 and (rules.goal_on_entry or steps >= rules.move_length):
            if rules.finished_token_leaves_board:
                tokens = tokens[:seat - 1] + (-1,) + tokens[seat:]
            return self._end_token_turn(after.replace(tokens=tokens, arrived=after.arrived + (seat,)))
        if steps >= rules.move_length:
            return self._end_token_turn(after)
        # stuck mid-turn? Never after a legal orthogonal step: the way back (a revisit, still a step the
        # board allows) crosses the edge just crossed onto the tile just left. After a jump it may be.
        if jump and not self.paths.can_step(after, to):
            if rules.eliminate_when_no_path:
                return self._eliminate(after, seat, "trapped")
            return self._end_token_turn(after)
        paths = self.paths
        here = paths.here    # the turn goes on: what random_step worked out holds, one more tile landed on
        if here is not None and here[0] is state:
            paths.here = (after, here[1], here[2] | 1 << to)
        return after       # (the copies after a step keep its marks)

    def _eliminate(self, state: State, seat: int, how: Literal["trapped", "landed twice"]) -> State:
        tokens = list(state.tokens)
        tokens[seat - 1] = -1
        return self._end_token_turn(state.replace(tokens=tuple(tokens),
                                                  eliminated=state.eliminated + ((seat, how),)))

    def _end_token_turn(self, state: State) -> State:
        # the turn's end and what follows are written in one copy: ``changes`` are the fields still to
        # write (none that the checks on the way read)
        changes = {"moved": state.moved + (state.mover,), "path": (), "steps_taken": 0, "jumps_used": 0}
        over = self._decided(state, changes)
        if over is not None:
            return over
        return self._next_turn(state, after_wall=False, changes=changes)

    def _decided(self, state: State, changes: dict[str, Any] | None = None) -> State | None:
        """The finished state if a win threshold is reached (A.1 §19-20), else None (``changes``: fields
        to write as well)."""
        n, (arrived, eliminated) = self.tokens_n, (len(state.arrived), len(state.eliminated))
        if arrived >= self._thresholds[0]:
            return self._over(state, changes, tuple(range(1, n + 1)),
                              f"the tokens win: {arrived} of {n} tokens reached the goal row")
        if eliminated >= self._thresholds[1]:
            return self._over(state, changes, (WALL,), f"the wall player wins: {eliminated} of {n} tokens eliminated")
        return None

    def _over(self, state: State, changes: dict[str, Any] | None, winners: tuple[int, ...], reason: str) -> State:
        """The game over: ``winners`` and the ``reason``, with ``changes`` written as well."""
        return state.replace(**{**(changes or {}), "phase": "over", "mover": -1, "path": (), "winners": winners,
                                "reason": reason})

    def _pending(self, state: State, moved: tuple[int, ...] | None = None) -> list[int]:
        if moved is None:
            moved = state.moved
        return [seat for seat in self.in_play(state) if seat not in moved]

    def _next_turn(self, state: State, after_wall: bool, changes: dict[str, Any] | None = None) -> State:
        """Pass the turn on after a finished turn (A.1 §12); ``changes`` are fields to write as well (the
        finished turn's: ``moved`` among them is read here)."""
        changes = changes or {}
        pending = self._pending(state, changes.get("moved"))
        if not pending:
            return self._end_round(state, changes)
        if not after_wall and self.params.wall_turns == "before_each_token":
            return self._begin_wall_turn(state, changes)
        if self.params.token_turn_order == "team_chooses_order" and len(pending) > 1:
            return state.replace(**{**changes, "phase": "order", "mover": pending[0]})
        return self._begin_token_turn(state, pending[0], changes)

    def _end_round(self, state: State, changes: dict[str, Any] | None = None) -> State:
        if not self.in_play(state):
            return self._over(state, changes, (), "a draw: no token is left in play and no side reached its threshold")
        if state.round >= self.params.max_rounds:
            return self._over(state, changes, (), f"a draw: no winner after {state.round} rounds (max_rounds)")
        return self._begin_wall_turn(state, {**(changes or {}), "round": state.round + 1, "moved": ()})

    def _begin_wall_turn(self, state: State, changes: dict[str, Any] | None = None) -> State:
        return state.replace(**{**(changes or {}), "phase": "wall", "mover": WALL, "rules": self.params, "built": 0,
                                "bought": 0, "path": (), "steps_taken": 0, "jumps_used": 0})

    def _begin_token_turn(self, state: State, seat: int, changes: dict[str, Any] | None = None) -> State:
        """Start ``seat``'s turn; a token with no clean path is eliminated at once (A.1 §17)."""
        pos = state.tokens[seat - 1]
        data = state.__dict__.copy()        # (state.replace(**changes, phase=..., ...), on one copy)
        if changes:
            data.update(changes)
        data["phase"], data["mover"], data["rules"] = "token", seat, self.params
        data["path"], data["steps_taken"], data["jumps_used"] = (pos,), 0, 0
        state = copied(state, data)
        rules = state.rules
        if rules.eliminate_when_no_path:
            if not self.has_clean_path(state):
                return self._eliminate(state, seat, "trapped")
        elif not self.allowed_steps(state):
            return self._end_token_turn(state)  # cannot move at all: the turn passes
        return state

    # ---- legality: one decision, with the rule it cites
    def why_not(self, state: State, action: Action, seat: int | None = None) -> Refusal | None:
        """Why ``action`` may not be played in ``state`` (a :class:`playtest.Refusal` naming the rule), or
        ``None`` when it may. The kernel's ``check`` asks it after its own checks, and ``apply`` raises it.

        It reads what :meth:`legal_actions` lists from: a wall or a bought obstacle is refused by the
        first of the rules' bans (:meth:`_wall_bans`, :meth:`_buy_bans`) that holds its edge or tile,
        or by the open corridor; a step or a placed obstacle is allowed when
        :meth:`legal_token_moves` or :meth:`_place_mask` has it, and only then is the reason looked for.

        >>> import playtest
        >>> game = playtest.load("then_there_was_one")
        >>> state = game.state_from_json({"tokens": {"1": [2, 0], "2": [5, 0], "3": [8, 0]}})
        >>> str(game.why_not(state, Buy((4, 1))))
        "nothing is built behind the black line on the wall player's first turn (e2) (rule A.1 §14.4)"
        >>> game.why_not(state, Buy((4, 5))) is None
        True
        """
        phase = state.phase
        if phase == "over":
            return Refusal(f"the game is over ({state.reason})", "A.1 §19")
        if PHASE_OF.get(action.kind) != phase:
            doing = {"scatter": "the obstacles are scattered (a chance step)",
                     "place": f"{self._name(state.mover)} places an obstacle",
                     "start": f"{self._name(state.mover)} puts their token on a start circle",
                     "order": f"the token team picks who moves next ({self._name(state.mover)} speaks)",
                     "wall": f"it is the turn of {self._name(WALL)}",
                     "token": f"it is the turn of {self._name(state.mover)}"}[phase]
            return Refusal(f"a {action.kind.replace('_', ' ')} action is not possible now: {doing}", "A.1 §12")
        match action:
            case Step(to) | Jump(to):
                i = self._tile(to, "a step's tile")
                if isinstance(i, Refusal):
                    return i
                jump = isinstance(action, Jump)
                return None if (i, jump) in self.legal_token_moves(state) else self.step_reason(state, i, jump)
            case Build() | Remove():
                return self._why_not_wall(state, action)
            case Buy(at):
                return self._why_not_buy(state, at)
            case EndTurn():
                return self._why_not_end_turn(state)
            case Start():
                return self._why_not_start(state, action)
            case Choose(seat):
                if seat not in self._pending(state):
                    return Refusal(f"seat {seat} is not a token still to move this round", "A18")
                return None
            case PlaceObstacle(at):
                return self._why_not_place(state, at)
            case Scatter(cells):
                return self._why_not_scatter(cells)
        return Refusal(f"{action!r} is not a Then There Was One action")

    def _name(self, seat: int) -> str:
        return self.seats()[seat].name

    def _tile(self, value: Any, what: str) -> int | Refusal:
        """The cell index of tile ``value``, or why it is not a tile of the board."""
        B = self.B
        if not (isinstance(value, tuple) and len(value) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            return Refusal(f"{what} must be a tile [col, row], not {value!r}")
        c, r = value
        if not (0 <= c < B.cols and 0 <= r < B.rows):
            return Refusal(f"{what} {list(value)} is not a tile of the {B.cols} x {B.rows} board", "A.1 §1")
        return r * B.cols + c

    def _why_not_wall(self, state: State, action: Build | Remove) -> Refusal | None:
        """Building a wall (every rule of A.1 §14) or picking one up (A.1 §13)."""
        i, j = self._tile(action.a, "a wall's first tile"), self._tile(action.b, "a wall's second tile")
        if isinstance(i, Refusal) or isinstance(j, Refusal):
            return i if isinstance(i, Refusal) else j  # type: ignore[return-value]
        B = self.B
        if not B.adjacent(i, j):
            return Refusal(f"walls lie between two orthogonally adjacent tiles; {cell_text(action.a)} and "
                           f"{cell_text(action.b)} are not", "A.1 §4")
        e = B.edge_bit(i, j)
        bit = 1 << e
        where = B.edge_label(e)
        standing = state.walls | state.built
        if isinstance(action, Remove):
            return None if standing & bit else Refusal(f"there is no wall on {where} to pick up", "A.1 §13")
        for mask, text, rule in self._wall_bans(state):
            if mask & bit:
                return Refusal(text.format(where), rule)
        if not self._keeps_corridor(state, standing | bit, state.obstacles):
            return Refusal(f"a wall on {where} would cut the goal row off (require_open_corridor)", "A.1 §14.5")
        return None

    def _why_not_buy(self, state: State, at: Tile) -> Refusal | None:
        """Buying an obstacle for ``at`` (A.1 §14, A23)."""
        i = self._tile(at, "an obstacle")
        if isinstance(i, Refusal):
            return i
        where = cell_text(at)
        for mask, text, rule in self._buy_bans(state):
            if mask >> i & 1:
                return Refusal(text.format(where), rule)
        if not self._keeps_corridor(state, state.walls | state.built, state.obstacles | 1 << i):
            return Refusal(f"an obstacle on {where} would cut the goal row off (require_open_corridor)", "A.1 §14.5")
        return None

    def _why_not_end_turn(self, state: State) -> Refusal | None:
        used = self.points_used(state)
        if used > state.rules.wall_budget:
            return Refusal(f"{used} points are used but the budget is {state.rules.wall_budget}: pick "
                           "up walls first (walls left standing count)", "A.1 §14.1")
        return None

    def _why_not_start(self, state: State, action: Start) -> Refusal | None:
        i = self._tile(action.at, "a start circle")
        if isinstance(i, Refusal):
            return i
        if i >= self.B.cols or not self.B.start_mask >> i & 1:
            return Refusal(f"{cell_text(action.at)} is not a start circle (start_cells)", "A.1 §10")
        if (self.paths.token_cells(state) | state.obstacles) >> i & 1:
            return Refusal(f"the start circle {cell_text(action.at)} is taken", "A.1 §10")
        return None

    def _why_not_place(self, state: State, at: Tile) -> Refusal | None:
        i = self._tile(at, "an obstacle")
        if isinstance(i, Refusal):
            return i
        if self._place_mask(state) >> i & 1:
            return None
        if self.B.zone >> i & 1:
            return Refusal(f"{cell_text(at)} is behind the black line", "A.1 §9")
        if state.obstacles >> i & 1:
            return Refusal(f"{cell_text(at)} already holds an obstacle", "A.1 §9")
        return Refusal(f"an obstacle on {cell_text(at)} cuts the goal row off from the start row "
                       "(ensure_path_after_setup)", "A7")

    def _why_not_scatter(self, cells: Any) -> Refusal | None:
        p, B = self.params, self.B
        if not isinstance(cells, tuple):
            return Refusal(f"a scatter lists obstacle tiles, not {cells!r}")
        if len(cells) != p.initial_obstacles:
            return Refusal(f"the scatter must place initial_obstacles={p.initial_obstacles} obstacles, "
                           f"not {len(cells)}", "A.1 §9")
        mask = 0
        for cell in cells:
            i = self._tile(cell, "an obstacle")
            if isinstance(i, Refusal):
                return i
            if B.zone >> i & 1:
                return Refusal(f"an obstacle on {cell_text(cell)} is behind the black line: it must be "
                               "thrown again", "A.1 §9")
            if mask >> i & 1:
                return Refusal(f"two obstacles on {cell_text(cell)}: it must be thrown again", "A.1 §9")
            mask |= 1 << i
        if p.ensure_path_after_setup and not self.goal_reachable_from_start(mask):
            return Refusal("this scatter cuts the goal row off from the start row: it must be redrawn "
                           "(ensure_path_after_setup)", "A7")
        return None

    # ---- notation and JSON
    def notation(self, state: State, action: Action, viewer: int | None = None) -> str:
        """The move log's words: who does what, where, and what followed (arrivals, eliminations, the end)."""
        B = self.B
        mover = state.mover
        try:
            after = self.apply(state, action, check=False)
        except Exception:  # malformed: write it as it is
            return str(action)
        wall, budget = self._name(WALL), state.rules.wall_budget
        match action:
            case Scatter(cells):
                text = f"{len(cells)} obstacles: " + " ".join(cell_text(c) for c in cells)
            case Step(to):
                text = f"{self._name(mover)} {B.label(state.path[-1])}→{cell_text(to)}"
            case Jump(to):
                text = f"{self._name(mover)} {B.label(state.path[-1])}⤢{cell_text(to)} jump"
            case Build(a, b):
                text = f"{wall} wall {cell_text(a)}|{cell_text(b)} ({self.points_used(after)}/{budget})"
            case Buy(at):
                text = f"{wall} buys obstacle {cell_text(at)} ({self.points_used(after)}/{budget})"
            case EndTurn():
                text = f"{wall} ends turn ({self.points_used(state)}/{budget})"
            case Remove(a, b):
                e = B.edge_bit(B.index(a), B.index(b))
                text = f"{wall} {'takes back' if state.built >> e & 1 else 'picks up'} {B.edge_label(e)}"
            case Choose(seat):
                text = f"team: {self._name(seat)} moves next"
            case Start(at):
                text = f"{self._name(mover)} starts on {cell_text(at)}"
            case _:
                text = f"{self._name(mover)} {action}"
        events = []
        for seat in after.arrived[len(state.arrived):]:
            events.append(f"{self._name(seat)} arrives")
        for seat, how in after.eliminated[len(state.eliminated):]:
            events.append(f"{self._name(seat)} {how}: eliminated")
        if after.phase == "over" and state.phase != "over":
            events.append(after.reason)
        return "; ".join([text] + events)

    def state_from_json(self, data: Any) -> State:
        return read_position(self, data)

    def adapt_state(self, state: State, old: Game) -> State:
        """After a live change: the turn being played keeps its rules (``state.rules``); the new
        values apply from the next turn. Win thresholds apply at once."""
        if state.phase in ("over", "scatter"):
            return state
        if state.phase not in ("wall", "token"):
            state = state.replace(rules=self.params)
        over = self._decided(state)
        return over if over is not None else state

    # ---- the scene
    def view(self, state: State, seat: int | None = None) -> dict:
        return View(self, state, seat).build()
