"""Back to the Wall's greedy bot: the order that captures the most cells against random opponents.

It plays through the game's public queries (``open_cells``, ``random_order``,
``order_of``, ``why_not``) and the resolution functions of
:mod:`.resolution`, like any player: no rule is written twice. It sees only
what its seat may know (the core hands it a determinized state); its plan
depends only on public information, its own order and its own seed.
"""

from __future__ import annotations

import random
from itertools import product
from typing import TYPE_CHECKING, Any

from ...bots import Bot, register_bot
from ...geometry import bits, popcount
from ...kernel import per_seat
from ...rules import Action
from .actions import AddWall, Direct, Garnet, Submit  # noqa: F401  (AddWall, Direct, Submit: the doctest)
from .position import Order, State
from .resolution import move_pieces, resolve_walls

if TYPE_CHECKING:
    from .rules import BackToTheWall

__all__ = ["GreedyBot"]


@register_bot("back_to_the_wall", "greedy")
class GreedyBot(Bot):
    """Each round, on each board: the directions, then the walls, that capture the most cells on average
    against ``SAMPLES`` random opponents' orders (drawn from public information with the bot's seed).

    Pieces are planned one at a time, in order: every combination of its
    directions (64 for three phases; phase by phase beyond that) is tried with
    the pieces planned before it, and the first best one kept (directions in
    the order up, right, down, left). Then each wall slot takes the cell that
    raises the expected capture most (lowest cell first among equals), a
    placed wall counting one more in the round it flags the garnet bonus: the
    last round, on every board its garnets allow (after the last round with
    ``garnet_decision_time = "at_end"``: the boards where it placed walls).
    The order is entered part by part, then submitted.

    >>> import playtest
    >>> game = playtest.load("back_to_the_wall", rounds=1)
    >>> state = game.initial_state()
    >>> bot = GreedyBot(seed=1)
    >>> isinstance(bot.choose(game, state, seat=0), (AddWall, Direct, Submit))
    True
    """

    name = "greedy"
    SAMPLES = 3
    CANDIDATES = 24      # wall cells tried per slot: those on or beside the slides seen first, then others

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self._plans: dict[Any, Order] = {}

    def __repr__(self) -> str:
        return f"GreedyBot(seed={self.seed!r})"

    def choose(self, game: BackToTheWall, state: State, seat: int | None = None) -> Action:
        if seat is None:
            seat = game.pending_seats(state)[0]
        return game.step_toward(state, seat, self.plan(game, state, seat))

    def plan(self, game: BackToTheWall, state: State, seat: int) -> Order:
        """The whole order this bot wants for ``seat`` (cached per public position)."""
        key = (game.params, seat, state.phase, state.round, state.walls, state.owned, state.pieces,
               state.flags[seat], state.placed)
        plan = self._plans.get(key)
        if plan is None:
            if len(self._plans) > 32:
                self._plans.clear()
            plan = self._plans[key] = self._make_plan(game, state, seat)
        return plan

    def _make_plan(self, game: BackToTheWall, state: State, seat: int) -> Order:
        p = game.params
        empty = game.empty_order(state)
        if state.phase == "garnets":
            placed = state.placed[seat]
            return empty.replace(garnet=_flags(game, state, seat, [b for b in sorted(range(3), key=lambda b: -max(
                placed[b])) if max(placed[b])]))
        rng = random.Random(f"{self.seed}|{seat}|{state.round}|{state.walls}|{state.owned}|{state.pieces}")
        public = state._replace(orders=(None,) * len(state.orders))
        samples = [[game.random_order(public, s, rng) if s != seat else None for s in range(len(state.orders))]
                   for _ in range(self.SAMPLES)]
        last = p.garnet_bonus_enabled and p.garnet_decision_time == "during_round" and state.round == p.rounds
        garnet = _flags(game, state, seat, range(3) if last else [])
        walls, directions = [], []
        for b in range(3):
            w, d = self._plan_board(game, state, seat, b, samples, garnet[b])
            walls.append(w)
            directions.append(d)
        return Order(tuple(walls), tuple(directions), tuple(garnet))

    def _plan_board(self, game: BackToTheWall, state: State, seat: int, b: int, samples: list[list[Any]],
                    flag: bool) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
        p, t = game.params, game.tables[b]
        names = game.names
        n = len(names)
        phases = p.directions_per_round
        pieces = state.pieces[b]
        occupied = game.piece_cells(state, b)
        opponents = [({s: sample[s].walls[b] for s in range(n) if s != seat},
                      [sample[s].directions[b] if s != seat else () for s in range(n)]) for sample in samples]

        def outcome(own_walls: tuple[int, ...], own_dirs: list[tuple[int, ...]],
                    touched: list[int] | None = None) -> float:
            total = 0.0
            for subs, dirs in opponents:
                subs = dict(subs)
                subs[seat] = own_walls
                new, verdicts = resolve_walls(t, state.walls[b], occupied, subs, p, b, names)
                walls = state.walls[b] | new
                owned = [m & ~new for m in state.owned[b]] if p.wall_erases_ownership else list(state.owned[b])
                dirs = list(dirs)
                dirs[seat] = own_dirs
                owned, _, log = move_pieces(t, walls, owned, pieces, dirs, p, record=touched is not None)
                total += popcount(owned[seat])
                if flag:
                    total += sum(1 for v in verdicts if v.placed and seat in v.seats)
                if touched is not None:
                    for phase in log:
                        for m in phase.moves:
                            touched.extend(m.path)
            return total / len(opponents)

        # directions: each piece in turn, every combination (phase by phase when there are too many)
        plans = [(-1,) * phases for _ in pieces[seat]]
        for k in range(len(plans)):
            if 4 ** phases <= 64:
                best, best_value = None, -1.0
                for combo in product(range(4), repeat=phases):
                    plans[k] = combo
                    value = outcome((), plans)
                    if value > best_value:
                        best, best_value = combo, value
                plans[k] = best                                     # type: ignore[assignment]
            else:
                for i in range(phases):
                    best_d, best_value = 0, -1.0
                    for d in range(4):
                        plans[k] = plans[k][:i] + (d,) + plans[k][i + 1:]
                        value = outcome((), plans)
                        if value > best_value:
                            best_d, best_value = d, value
                    plans[k] = plans[k][:i] + (best_d,) + plans[k][i + 1:]
        # walls: each slot takes the cell that helps most, if any helps
        chosen: list[int] = []
        touched: list[int] = []
        base = outcome((), plans, touched)
        near = 0
        for c in touched:
            near |= (1 << c) | t.adj4[c]
        rule = p.adjacency_rules[b]
        for _slot in range(p.walls_per_round[b]):
            allowed = game.open_cells(state, b)     # a void wall would only use up a slot
            for c in chosen:
                allowed &= ~(1 << c)
                if rule != "none":       # an own wall touching another would void both
                    allowed &= ~(t.adj8[c] if rule == "king" else t.adj4[c])
            free = [c for c in bits(allowed & near)] + [c for c in bits(allowed & ~near)]
            best_cell, best_value = None, base
            for c in free[:self.CANDIDATES]:
                value = outcome(tuple(sorted(chosen + [c])), plans)
                if value > best_value:
                    best_cell, best_value = c, value
            if best_cell is None:
                break
            chosen.append(best_cell)
            base = best_value
        return tuple(sorted(chosen)), tuple(plans)


def _flags(game: BackToTheWall, state: State, seat: int, boards: Any) -> tuple[bool, ...]:
    """The garnet flags of ``seat``'s order on ``boards``, in that order, each while the rules allow one more."""
    garnet = [False, False, False]
    empty = game.empty_order(state)
    for b in boards:
        probe = state.replace(orders=per_seat(state.orders, seat, empty.replace(garnet=tuple(garnet))))
        if game.why_not(probe, Garnet(seat, b, True)) is None:
            garnet[b] = True
    return tuple(garnet)
