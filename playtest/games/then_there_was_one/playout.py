"""Then There Was One's random playout: the rules on plain ints and lists, for the search bot's rollouts
and the lab's random games (:meth:`playtest.Game.random_playout`).

It plays exactly what stepping the rules plays (``to_move``, ``random_action``, ``chance_outcome``,
``effect``): a token's step drawn as :meth:`~.paths.TokenPaths.random_step` draws it (the allowed
steps drawn from without replacement until a clean one comes up), a wall action as
:meth:`ThenThereWasOne.random_action` draws it (a roll, then tries at random tiles and edges), a start
circle, a token picked by the team or a placed obstacle as ``rng.choice`` of the listing, the scatter
by :meth:`ThenThereWasOne.chance_outcome` itself; the same effects (arrivals, double landings, trapped
tokens, the end of a round, the thresholds), and the same state at the end, field for field, the
last move's marks included (``check_game``'s "playout" property, ``tests/test_playout.py`` and
``tests/test_ttwo_playout.py`` compare the two). The number of legal actions, which the lab's runner
reads at one decision in 32 (``PlayoutLog.at``), is worked out at the wanted decisions only: a token's
costs a clean-path search per step, a wall turn's with ``require_open_corridor`` a flood per edge.

The position is unpacked once into local ints and lists (masks of tiles and edges, the tokens'
tiles, the path) and packed into a :class:`~.position.State` at the end. The searches are the rules'
own (the board's allowed steps by surroundings, ``TokenPaths.steps_from``; the clean-path search,
``TokenPaths.finisher``; the corridor, ``corridor_open``), so what they remember serves both.

It covers every parameter set; it answers ``None`` (the rules play) for a subclass that changes one
of the rules' hooks, and for deciding generators that are not exactly ``random.Random`` (its draws
are ``Random``'s own ``_randbelow``, which ``choice`` and ``randrange`` draw with).

>>> import random, playtest
>>> from playtest.check import playout_by_rules
>>> game = playtest.load("then_there_was_one")
>>> game.random_playout(game.initial_state(), random.Random(2)) == playout_by_rules(
...     game, game.initial_state(), random.Random(2))
True
"""

from __future__ import annotations

import random
from typing import Any, Literal, Sequence, cast

from ...geometry import bits
from ...kernel import CHANCE
from ...kernel.game import PlayoutLog
from .actions import Scatter
from .position import WALL, Elimination, State
from .rules import ThenThereWasOne

__all__ = ["random_playout"]

_NOBODY = -99        # no decision yet (no seat has this number)
#: the rules' hooks the playout stands for: a subclass that writes one of its own plays another game
_HOOKS = ("to_move", "legal_actions", "random_action", "chance_outcome", "effect", "apply", "running_scores",
          "_apply_step", "_next_turn", "_begin_token_turn", "_end_token_turn", "_decided", "_end_round")
_FAITHFUL: dict[type, bool] = {}


class _Standing:
    """The fields ``running_scores`` reads, without packing a state at every turn end."""

    __slots__ = ("obstacles", "walls", "built", "tokens", "arrived", "eliminated")
    obstacles: int
    walls: int
    built: int
    tokens: list[int]
    arrived: tuple[int, ...]
    eliminated: tuple[Elimination, ...]


def _faithful(kind: type) -> bool:
    """Whether ``kind`` plays Then There Was One's own rules (no hook of :data:`_HOOKS` written anew)."""
    known = _FAITHFUL.get(kind)
    if known is None:
        known = _FAITHFUL[kind] = all(getattr(kind, name, None) is getattr(ThenThereWasOne, name, None)
                                      for name in _HOOKS)
    return known


def random_playout(self: ThenThereWasOne, state: State, rng: random.Random,
                   seat_rngs: Sequence[random.Random] | None = None, max_steps: int = 1_000_000,
                   max_turns: int | None = None, log: PlayoutLog | None = None) -> tuple[State, int] | None:
    """Random play from ``state`` on plain ints and lists (the contract: :meth:`playtest.Game.random_playout`).

    >>> import random, playtest
    >>> from playtest.check import playout_by_rules
    >>> game = playtest.load("then_there_was_one", num_players=3, max_jumps_per_turn=0)
    >>> state = game.state_from_json({"to_move": 1, "round": 2, "path": [[5, 0], [5, 1]],
    ...                               "tokens": {"1": [5, 1], "2": [0, 0]}})
    >>> fast = game.random_playout(state, random.Random(7), max_turns=3)
    >>> fast == playout_by_rules(game, state, random.Random(7), max_turns=3)
    True
    >>> fast[0].round, fast[0].phase      # Red, Blue, the wall: stopped before Red moves again
    (3, 'token')
    """
    p = self.params
    choosers = list(seat_rngs) if seat_rngs is not None else [rng] * p.num_players
    if not _faithful(type(self)) or any(type(r) is not random.Random for r in choosers):
        return None
    B, paths = self.B, self.paths
    steps_from, finisher, corridor_open = paths.steps_from, paths.finisher, self.corridor_open
    belows = [r._randbelow for r in choosers]         # type: ignore[attr-defined]
    rolls = [r.random for r in choosers]
    n_tokens = self.tokens_n
    need_tokens, need_wall = self._thresholds
    before_each = p.wall_turns == "before_each_token"
    team_order = p.token_turn_order == "team_chooses_order"
    goal_row, size, inner, every = B.goal, B.size, B.inner, B.all
    edge_ids = B.edge_ids
    n_edges = len(edge_ids)

    # ---------------------------------------------------------------- the position, unpacked
    phase, me, R = state.phase, state.mover, state.rules
    obstacles, bought, bought_total = state.obstacles, state.bought, state.bought_total
    walls, built = state.walls, state.built
    tokens = list(state.tokens)
    arrived, eliminated, moved = state.arrived, state.eliminated, state.moved
    round_, first_wall_turn = state.round, state.first_wall_turn
    path = list(state.path)
    steps_taken, jumps_used = state.steps_taken, state.jumps_used
    winners, reason = state.winners, state.reason
    last_tiles: Any = state.last_tiles
    last_edges = state.last_edges
    occupied = visited = 0         # the token to move's: tiles it may not enter, tiles it landed on this turn
    if phase == "token" and path:  # (TokenPaths.masks)
        occupied = obstacles
        if R.tokens_block_tokens:
            for k, t in enumerate(tokens):
                if t >= 0 and k + 1 != me:
                    occupied |= 1 << t
        visited = 1 << path[0] if R.start_tile_counts else 0
        for i in path[1:]:
            visited |= 1 << i

    # ---------------------------------------------------------------- the effects (rules.py's, on the locals)
    def in_play() -> list[int]:   # ThenThereWasOne.in_play (kept as ``alive``, changed as tokens go)
        if not arrived and not eliminated:
            return [k + 1 for k, t in enumerate(tokens) if t >= 0]
        done = set(arrived) | {seat for seat, _ in eliminated}
        return [k + 1 for k, t in enumerate(tokens) if t >= 0 and k + 1 not in done]

    alive = in_play()

    def over(won: tuple[int, ...], why: str) -> None:
        nonlocal phase, me, path, winners, reason
        phase, me, path, winners, reason = "over", -1, [], won, why

    def begin_wall_turn() -> None:
        nonlocal phase, me, R, built, bought, path, steps_taken, jumps_used
        phase, me, R, built, bought, path, steps_taken, jumps_used = "wall", WALL, p, 0, 0, [], 0, 0

    def begin_token_turn(seat: int) -> None:
        """A token with no clean path is eliminated at once (A.1 §17)."""
        nonlocal phase, me, R, path, steps_taken, jumps_used, occupied, visited
        pos = tokens[seat - 1]
        phase, me, R, path, steps_taken, jumps_used = "token", seat, p, [pos], 0, 0
        occupied = obstacles
        if p.tokens_block_tokens:
            for k, t in enumerate(tokens):
                if t >= 0 and k + 1 != seat:
                    occupied |= 1 << t
        visited = 1 << pos if p.start_tile_counts else 0
        standing = walls | built
        if p.eliminate_when_no_path:
            if not finisher(standing, obstacles, p)(pos, p.move_length, p.max_jumps_per_turn, occupied | visited):
                eliminate(seat, "trapped")
        elif not steps_from(pos, standing, obstacles, occupied,
                            p.max_jumps_per_turn > 0 and p.move_length >= p.jump_step_cost, p):
            end_token_turn()          # cannot move at all: the turn passes

    def next_turn(after_wall: bool) -> None:
        pending = [seat for seat in alive if seat not in moved] if moved else alive[:]
        if not pending:
            end_round()
        elif not after_wall and before_each:
            begin_wall_turn()
        elif team_order and len(pending) > 1:
            nonlocal phase, me
            phase, me = "order", pending[0]
        else:
            begin_token_turn(pending[0])

    def end_round() -> None:
        nonlocal round_, moved
        if not alive:
            over((), "a draw: no token is left in play and no side reached its threshold")
        elif round_ >= p.max_rounds:
            over((), f"a draw: no winner after {round_} rounds (max_rounds)")
        else:
            round_, moved = round_ + 1, ()
            begin_wall_turn()

    def eliminate(seat: int, how: Literal["trapped", "landed twice"]) -> None:
        nonlocal eliminated
        tokens[seat - 1] = -1
        eliminated = eliminated + ((seat, how),)
        if seat in alive:
            alive.remove(seat)
        end_token_turn()

    def end_token_turn() -> None:
        nonlocal moved, path, steps_taken, jumps_used
        moved = moved + (me,)
        path, steps_taken, jumps_used = [], 0, 0
        if len(arrived) >= need_tokens:
            over(tuple(range(1, n_tokens + 1)), f"the tokens win: {len(arrived)} of {n_tokens} tokens reached "
                                                "the goal row")
        elif len(eliminated) >= need_wall:
            over((WALL,), f"the wall player wins: {len(eliminated)} of {n_tokens} tokens eliminated")
        else:
            next_turn(False)

    # ---------------------------------------------------------------- the wall turn's masks (rules.py's)
    def token_cells() -> int:
        mask = 0
        for t in tokens:
            if t >= 0:
                mask |= 1 << t
        return mask

    def build_mask(standing: int, used: int) -> int:
        banned = standing
        if used + 1 > R.wall_budget:
            banned |= inner
        table = B.corner_edges if R.wall_token_clearance == "edge_or_corner" else B.cell_edges
        for t in tokens:
            if t >= 0:
                banned |= table[t]
        if first_wall_turn and R.first_turn_black_line_ban:
            banned |= B.zone_edges
        return inner & ~banned

    def buy_mask(used: int) -> int:
        cells = token_cells()
        banned = obstacles | cells
        if (bought.bit_count() >= R.max_obstacles_per_turn or bought_total >= R.max_bought_obstacles_per_game
                or used + R.obstacle_cost > R.wall_budget):
            return 0
        if first_wall_turn and R.first_turn_black_line_ban and R.first_turn_ban_applies_to_obstacles:
            banned |= B.zone
        if not R.bought_obstacle_may_border_token:
            table = B.adj8 if R.wall_token_clearance == "edge_or_corner" else B.adj4
            for t in bits(cells):
                banned |= table[t]
        return every & ~banned

    def wall_options(standing: int, used: int) -> int:
        """len(legal_actions) in a wall turn: walls to pick up, to build, obstacles to buy, the end."""
        build, buy = build_mask(standing, used), buy_mask(used)
        if R.require_open_corridor and corridor_open(standing, obstacles):    # else nothing can close it
            count = (sum(corridor_open(standing | 1 << e, obstacles) for e in bits(build))
                     + sum(corridor_open(standing, obstacles | 1 << i) for i in bits(buy)))
        else:
            count = build.bit_count() + buy.bit_count()
        return standing.bit_count() + count + (used <= R.wall_budget)

    def place_mask() -> int:        # ThenThereWasOne._place_mask
        free = every & ~B.zone & ~obstacles
        if not p.ensure_path_after_setup:
            return free
        keeps = 0
        for i in bits(free):
            if self.goal_reachable_from_start(obstacles | 1 << i):
                keeps |= 1 << i
        return keeps or free

    # ---------------------------------------------------------------- the loop (the contract's)
    options = log.options if log is not None else None
    wanted = iter(log.at) if log is not None and log.at is not None else None
    want = next(wanted, -1) if wanted is not None else 0
    read = log is not None and log.scores is not None
    standing_view = _Standing()
    scores_of = self._scores
    played = turns = decisions = 0
    turn_cap = max_turns if max_turns is not None else -1
    decider = _NOBODY
    while True:
        mover = None if phase == "over" else CHANCE if phase == "scatter" else me
        if mover != CHANCE and mover != decider:        # a turn ends: the game, or another seat decides
            if read and played:
                view = standing_view
                view.obstacles, view.walls, view.built, view.tokens = obstacles, walls, built, tokens
                view.arrived, view.eliminated = arrived, eliminated
                log.scores.append(scores_of(view))  # type: ignore[union-attr]
            if mover is None:
                break
            if log is not None and log.first is None:
                log.first = mover
            turns += 1
            if turns > turn_cap >= 0:
                break
            decider = mover
        if played == max_steps:
            break
        played += 1
        if mover == CHANCE:               # the setup scatter, drawn by the rules themselves
            scatter = cast(Scatter, self.chance_outcome(state, rng))
            obstacles = 0
            for cell in set(scatter.cells):
                obstacles |= 1 << B.index(cell)
            phase, me, last_tiles, last_edges = "start", 1, (), 0
            continue
        below = belows[me]
        if phase == "token":              # the token's steps, one after another until its turn ends:
            # TokenPaths.random_step, then ThenThereWasOne._apply_step (the turn's walls, obstacles, tiles
            # it may not enter and rules stay the same: read once)
            standing = walls | built
            move_length, most_jumps, jcost = R.move_length, R.max_jumps_per_turn, R.jump_step_cost
            goal = goal_row if R.goal_on_entry else 0
            on_entry, revisit = R.goal_on_entry, R.allow_voluntary_revisit
            finish: Any = None
            turn_rules = R
            while True:
                counting = options is not None and (wanted is None or decisions == want)
                decisions += 1
                pos = path[-1]
                k, jumps = move_length - steps_taken, most_jumps - jumps_used
                cands = steps_from(pos, standing, obstacles, occupied, jumps > 0 and k >= jcost, turn_rules)
                if counting:              # len(legal_token_moves): clean steps, or every allowed one
                    clean = other = 0
                    for n, jump in cands:
                        cost = jcost if jump else 1
                        if visited >> n & 1:
                            other += 1
                        elif k == cost or goal >> n & 1:
                            clean += 1
                        else:
                            finish = finish or finisher(standing, obstacles, turn_rules)
                            if finish(n, k - cost, jumps - jump, occupied | visited | 1 << n):
                                clean += 1
                            else:
                                other += 1
                    options.append(clean + other if other and (revisit or not clean)  # type: ignore[union-attr]
                                   else clean)
                    want = next(wanted, -1) if wanted is not None else 0
                step: Any = None
                if not revisit and cands:
                    # drawn without replacement until a clean step (random_step's pool: a copy of the
                    # steps, each drawn one swapped with the last and dropped; the copy is made only
                    # when the first one drawn is not clean, which is seldom)
                    pool: Any = cands
                    pick = below(len(cands))
                    while True:
                        candidate = pool[pick]
                        n, jump = candidate
                        if not visited >> n & 1:
                            cost = jcost if jump else 1
                            if k == cost or goal >> n & 1:
                                step = candidate
                                break
                            finish = finish or finisher(standing, obstacles, turn_rules)
                            if finish(n, k - cost, jumps - jump, occupied | visited | 1 << n):
                                step = candidate
                                break
                        if pool is cands:
                            pool = list(cands)
                        pool[pick] = pool[-1]
                        pool.pop()
                        if not pool:
                            break
                        pick = below(len(pool))
                if step is None:
                    if not cands:
                        raise IndexError("Cannot choose from an empty sequence")
                    step = cands[below(len(cands))]
                to, jump = step
                if visited >> to & 1:     # a double landing (rule A.1 §16)
                    last_tiles, last_edges = path + [to], 0
                    eliminate(me, "landed twice")
                    break
                steps_taken += jcost if jump else 1
                jumps_used += jump
                tokens[me - 1] = to
                path.append(to)
                visited |= 1 << to
                last_tiles, last_edges = path, 0
                if goal_row >> to & 1 and (on_entry or steps_taken >= move_length):
                    if turn_rules.finished_token_leaves_board:
                        tokens[me - 1] = -1
                    arrived = arrived + (me,)
                    if me in alive:
                        alive.remove(me)
                    end_token_turn()
                    break
                if steps_taken >= move_length:
                    end_token_turn()
                    break
                if jump and not steps_from(to, standing, obstacles, occupied, most_jumps - jumps_used > 0
                                           and move_length - steps_taken >= jcost, turn_rules):
                    if turn_rules.eliminate_when_no_path:     # stuck after a jump
                        eliminate(me, "trapped")
                    else:
                        end_token_turn()
                    break
                if played == max_steps:   # (the turn goes on: the same seat decides, no turn ends)
                    break
                played += 1
            continue
        counting = options is not None and (wanted is None or decisions == want)
        decisions += 1
        if phase == "wall":               # ThenThereWasOne.random_action's wall turn, then effect
            standing = walls | built
            used = walls.bit_count() + built.bit_count() + R.obstacle_cost * bought.bit_count()
            if counting:
                options.append(wall_options(standing, used))  # type: ignore[union-attr]
                want = next(wanted, -1) if wanted is not None else 0
            edge = tile = -1              # the wall to pick up or build, the obstacle to buy; else the end
            remove = False
            if R.wall_budget - used < 0:  # over budget (the budget went down): pick up walls first
                up = bits(standing)
                if not up:
                    raise IndexError("Cannot choose from an empty sequence")
                edge, remove = up[below(len(up))], True
            else:
                roll = rolls[me]()
                if roll < 0.25:
                    pass
                elif roll < 0.35 and standing:
                    up = bits(standing)
                    edge, remove = up[below(len(up))], True
                else:
                    if roll < 0.45:
                        buy = buy_mask(used)
                        if buy:
                            closed = None
                            for _ in range(8):
                                i = below(size)
                                if buy >> i & 1:
                                    if not R.require_open_corridor or corridor_open(standing, obstacles | 1 << i):
                                        tile = i
                                        break
                                    if closed is None:
                                        closed = not corridor_open(standing, obstacles)
                                    if closed:
                                        tile = i
                                        break
                    if tile < 0:
                        build = build_mask(standing, used)
                        if build:
                            closed = None
                            for _ in range(12):
                                e = edge_ids[below(n_edges)]
                                if build >> e & 1:
                                    if not R.require_open_corridor or corridor_open(standing | 1 << e, obstacles):
                                        edge = e
                                        break
                                    if closed is None:
                                        closed = not corridor_open(standing, obstacles)
                                    if closed:
                                        edge = e
                                        break
            if edge >= 0:
                bit = 1 << edge
                if remove:
                    walls &= ~bit
                    built &= ~bit
                else:
                    built |= bit
                last_tiles, last_edges = (), bit
            elif tile >= 0:
                obstacles |= 1 << tile
                bought |= 1 << tile
                bought_total += 1
                last_tiles, last_edges = (tile,), 0
            else:                         # the end of the turn: its walls and obstacles are marked
                last_tiles, last_edges = tuple(bits(bought)), built
                walls, built, bought, first_wall_turn = walls | built, 0, 0, False
                next_turn(True)
        elif phase == "start":            # rng.choice of the free start circles
            taken = token_cells() | obstacles
            free = [c for c in B.start if not taken >> c & 1]
            if counting:
                options.append(len(free))  # type: ignore[union-attr]
                want = next(wanted, -1) if wanted is not None else 0
            if not free:
                raise IndexError("Cannot choose from an empty sequence")
            at = free[below(len(free))]
            tokens[me - 1] = at
            alive = in_play()
            last_tiles, last_edges = (at,), 0
            if me < n_tokens:
                me += 1
            else:
                round_, first_wall_turn, moved = 1, True, ()
                begin_wall_turn()
        elif phase == "order":            # rng.choice of the tokens still to move
            pending = [seat for seat in alive if seat not in moved]
            if counting:
                options.append(len(pending))  # type: ignore[union-attr]
                want = next(wanted, -1) if wanted is not None else 0
            if not pending:
                raise IndexError("Cannot choose from an empty sequence")
            begin_token_turn(pending[below(len(pending))])
            last_tiles, last_edges = (), 0
        elif phase == "place":            # rng.choice of the tiles for the next placed obstacle
            tiles = bits(place_mask())
            if counting:
                options.append(len(tiles))  # type: ignore[union-attr]
                want = next(wanted, -1) if wanted is not None else 0
            if not tiles:
                raise IndexError("Cannot choose from an empty sequence")
            i = tiles[below(len(tiles))]
            obstacles |= 1 << i
            placed = obstacles.bit_count()
            if placed >= p.initial_obstacles:
                phase, me = "start", 1
            else:
                me = placed % p.num_players
            last_tiles, last_edges = (i,), 0
        else:
            raise ValueError(f"a Then There Was One position in an unknown phase {phase!r}")

    if log is not None and wanted is not None:
        log.decisions = decisions
    return state.replace(phase=phase, mover=me, rules=R, obstacles=obstacles, bought=bought,
                         bought_total=bought_total, walls=walls, built=built, tokens=tuple(tokens), arrived=arrived,
                         eliminated=eliminated, moved=moved, round=round_, first_wall_turn=first_wall_turn,
                         path=tuple(path), steps_taken=steps_taken, jumps_used=jumps_used, winners=winners,
                         reason=reason, last_tiles=tuple(last_tiles), last_edges=last_edges), played


ThenThereWasOne.random_playout = random_playout  # type: ignore[assignment]
