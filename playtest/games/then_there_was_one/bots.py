"""Then There Was One's bots: a greedy token player and a greedy wall player.

They play through the game's public queries (``token_turn``, ``token_moves``,
``build_edges``, ``buy_tiles``, ``closed_edges``, ...) and the jump rule of
:mod:`.paths`, like any player: no rule is written twice.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ...bots import Bot, register_bot
from ...geometry import FAR, bits
from ...rules import Action, EndTurn
from .actions import Build, Buy, Remove
from .paths import jump_allowed
from .position import State

if TYPE_CHECKING:
    from .rules import ThenThereWasOne

__all__ = ["GreedyTokenBot", "GreedyWallBot"]


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

    def plays(self, game: ThenThereWasOne, seat: int) -> bool:
        """The token seats (1..), never the wall player's seat 0."""
        return seat >= 1

    def choose(self, game: ThenThereWasOne, state: State, seat: int | None = None) -> Action:
        phase = state.phase
        if phase == "token":
            return self._step(game, state)
        if phase == "start":
            dist = _goal_distances(game, state)
            options = game.legal_actions(state)
            # the start circle nearest the goal, the middle of the row breaking ties
            mid = (game.B.cols - 1) / 2
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
        pos, walls, obstacles, occupied, visited, k, jumps = game.token_turn(state)
        dist = _goal_distances(game, state)
        if dist[pos] >= FAR:  # walled off from the goal: press towards it anyway (walls may be picked up)
            dist = B.distances(B.goal, B.all & ~obstacles, 0)
            if dist[pos] >= FAR:
                dist = [0] * B.size
        legal = game.legal_token_moves(state)
        clean, _ = game.token_moves(state)
        if not clean:
            # no clean path: least bad step (stay alive if possible, then nearest the goal)
            return game.step_action(*min(legal, key=lambda m: (visited >> m[0] & 1, dist[m[0]])))
        goal = B.goal if rules.goal_on_entry else 0
        jcost = rules.jump_step_cost
        ortho, diag = B.ortho, B.diag
        jump_ok = jump_allowed
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
                value: int | None
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
            value: int | None
            if goal >> n & 1:
                value = -k
            else:
                cost = jcost if jump else 1
                value = search(n, k - cost, jumps - jump, occupied | visited | 1 << n)
            if value is None:
                value = FAR if budget[0] >= 0 else FAR - 1   # unexplored beats proven dead
            scored.append((value, dist[n], n, jump))
        value, _, n, jump = min(scored)
        return game.step_action(n, jump)


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

    def plays(self, game: ThenThereWasOne, seat: int) -> bool:
        """The wall player's seat 0 only."""
        return seat == 0

    def choose(self, game: ThenThereWasOne, state: State, seat: int | None = None) -> Action:
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
            e = max(bits(walls), key=lambda e: score(walls & ~(1 << e), state.obstacles))
            return game.wall_action(Remove, e)
        relevant = self._relevant_cells(game, state, walls, token_cells)
        best, best_gain = None, 0.0
        if left >= 1:
            edges = 0
            for i in bits(relevant):
                edges |= B.cell_edges[i]
            for e in bits(game.build_edges(state) & edges):
                gain = score(walls | 1 << e, state.obstacles) - base
                if gain > best_gain:
                    best, best_gain = ("build", e), gain
        buy = game.buy_tiles(state) & relevant
        if buy and rules.obstacle_cost <= left:
            cost = max(1, rules.obstacle_cost)
            for i in bits(buy):
                gain = (score(walls, state.obstacles | 1 << i) - base) / cost
                if gain > best_gain * 1.001:
                    best, best_gain = ("buy", i), gain
        if best is not None:
            if best[0] == "build":
                return game.wall_action(Build, best[1])
            return Buy(B.cell(best[1]))
        # nothing affordable helps: free points held by standing walls that no longer help
        if left < max(1, rules.obstacle_cost):
            for e in bits(state.walls):
                if score(walls & ~(1 << e), state.obstacles) >= base and self._would_help(
                        game, state, walls & ~(1 << e), relevant, base):
                    return game.wall_action(Remove, e)
        return EndTurn()

    def _would_help(self, game: ThenThereWasOne, state: State, walls: int, relevant: int, base: float) -> bool:
        """Whether one new wall (with the point freed) would raise the score: no pointless pick-ups."""
        B = game.B
        token_cells = [state.tokens[s - 1] for s in game.in_play(state)]
        edges = 0
        for i in bits(relevant):
            edges |= B.cell_edges[i]
        free_edges = edges & B.inner & ~walls & ~game.closed_edges(state)
        for e in bits(free_edges):
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
