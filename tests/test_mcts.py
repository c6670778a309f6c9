"""The search bot in games of simultaneous orders: whole orders in play-outs, seat by seat, limits in rounds."""

from __future__ import annotations

import random

import pytest

import playtest
from playtest.bots import MCTSBot
from playtest.games.back_to_the_wall.actions import Withdraw
from playtest.mcts import _Search


def _mid_order(game, seat: int, parts: int, rng: random.Random):
    """A position where ``seat`` has set ``parts`` random parts of its order (nothing submitted)."""
    state = game.initial_state()
    for _ in range(parts):
        choices = [a for a in game.legal_actions(state, seat) if type(a).__name__ not in ("Submit", "Clear")]
        state = game.apply(state, rng.choice(choices))
    return state


@pytest.mark.parametrize("seed", range(12))
def test_finish_order_keeps_the_parts_and_is_legal(seed):
    game = playtest.load("back_to_the_wall", **({"missing_direction": "refuse"} if seed % 2 else {}))
    rng = random.Random(seed)
    state = _mid_order(game, 1, rng.randint(0, 8), rng)
    before = game.order_of(state, 1)
    after = game.finish_order(state, 1, rng)
    order = after.orders[1]
    assert order.submitted and game.pending_seats(after) == (0, 2, 3)
    assert game.order_problem(after, 1, order) is None
    assert set(before.walls[0]) <= set(order.walls[0]) and set(before.walls[2]) <= set(order.walls[2])
    for b in range(3):
        for plan, kept in zip(before.directions[b], order.directions[b]):
            assert all(d == k for d, k in zip(plan, kept) if d >= 0)
            assert all(k >= 0 for k in kept)
    assert all(g or not w for w, g in zip(before.garnet, order.garnet))


def test_finish_order_by_every_seat_resolves_the_round():
    game = playtest.load("back_to_the_wall")
    state, rng = game.initial_state(), random.Random(3)
    for seat in range(4):
        state = game.finish_order(state, seat, rng)
    assert state.round == 2 and state.orders == (None,) * 4 and game.pending_seats(state) == (0, 1, 2, 3)


def test_rollouts_submit_whole_orders_and_count_rounds():
    game = playtest.load("back_to_the_wall")
    applied = []
    real = game.apply

    def apply(state, action, check=True):
        applied.append(action)
        return real(state, action, check)
    game.apply = apply
    state = _mid_order(game, 2, 3, random.Random(1))
    applied.clear()
    for limit, rounds in ((0, 1), (1, 2), (2, 3)):
        end = _Search(game, 2, MCTSBot(iterations=1, seed=1, rollout_limit=limit))._rollout(state)
        assert end.round == rounds and game.to_move(end) is not None
        assert (end is state) == (limit == 0)
    end = _Search(game, 2, MCTSBot(iterations=1, seed=1, rollout_limit=3))._rollout(state)
    assert game.to_move(end) is None                         # three rounds: the game is over
    assert applied == []                                     # no part-by-part steps, no Withdraw, no Clear


def test_a_simultaneous_game_without_finish_order_is_played_out_seat_by_seat_in_rounds():
    game = playtest.load("goofspiel")
    assert not hasattr(game, "finish_order")
    rng = random.Random(2)
    state = game.initial_state()
    state = game.apply(state, game.chance_outcome(state, rng))
    for limit in (1, 2, 3):
        end = _Search(game, 0, MCTSBot(iterations=1, seed=limit, rollout_limit=limit))._rollout(state)
        assert len(end.played) == len(state.played) + limit


def test_the_search_on_orders_never_withdraws_or_clears_in_play_outs():
    game = playtest.load("back_to_the_wall", rounds=1)
    seen = []
    real = game.apply

    def apply(state, action, check=True):
        seen.append(action)
        return real(state, action, check)
    state = _mid_order(game, 0, 2, random.Random(5))
    game.apply = apply
    bot = MCTSBot(iterations=40, seed=3)
    action = bot.choose(game, game.determinize(state, 0, random.Random(1)), seat=0)
    assert action in game.legal_actions(state, 0)
    assert seen and all(a.seat == 0 for a in seen)           # the others' orders only ever came whole
    assert not any(isinstance(a, Withdraw) for a in seen)


def test_the_search_plays_a_whole_game_of_orders_in_the_lab():
    result = playtest.simulate("back_to_the_wall", [MCTSBot(iterations=8, seed=1), "random", "random", "random"],
                               games=1, seed=2, progress=False, executor=None, rounds=1)
    assert len(result.games) == 1 and not result.games.iloc[0]["timeout"]


def test_the_search_is_repeatable_for_a_seed():
    game = playtest.load("back_to_the_wall")
    state = game.determinize(_mid_order(game, 1, 4, random.Random(8)), 1, random.Random(2))
    picks = {MCTSBot(iterations=30, seed=4).choose(game, state, seat=1) for _ in range(2)}
    assert len(picks) == 1


def test_a_reseeded_bot_plays_as_a_fresh_one():
    game = playtest.load("back_to_the_wall", rounds=1)
    state = game.initial_state()
    used = MCTSBot(iterations=10, seed=1)
    state = game.apply(state, used.choose(game, state, seat=0))      # it holds a plan for this position now
    used.reseed("k")
    fresh = MCTSBot(iterations=10, seed=1)
    fresh.reseed("k")
    assert used._plan is None
    assert [used.choose(game, state, seat=0) for _ in range(1)] == [fresh.choose(game, state, seat=0)]
    assert used._plan == fresh._plan


def test_the_search_on_whole_orders_searches_once_a_round():
    game = playtest.load("back_to_the_wall", rounds=2)
    bot = MCTSBot(iterations=6, seed=2)
    from playtest.bots import RandomBot
    from playtest.lab import play_game
    state, _ = play_game(game, [bot, RandomBot(1), RandomBot(2), RandomBot(3)], random.Random(4))
    assert game.to_move(state) is None
    assert bot.iterations_run == 2 * 6          # one search per round, its order entered part by part


def test_a_pending_seat_without_a_legal_action_is_named_not_an_empty_randrange():
    """A seat a simultaneous step waits for that has nothing to do (a game defect, or a world its
    determinize drew that breaks a rule) stops the search with the seat and the hint, not
    ``ValueError: empty range for randrange()``."""
    from playtest import SIMULTANEOUS, Action, Game, GameType, Outcome, State
    from playtest.bots import build

    class Send(Action):
        seat: int
        n: int

    class Sent(State):
        sent: tuple[int | None, ...] = (None, None)

    class Stuck(Game):
        name, title, seat_names = "stuck_sim", "Stuck", ("A", "B")
        state_type, action_types = Sent, (Send,)
        game_type = GameType(dynamics="simultaneous", public_orders=True, max_length=4)
        def to_move(self, s): return None if None not in s.sent else SIMULTANEOUS
        def pending_seats(self, s): return tuple(i for i, x in enumerate(s.sent) if x is None)
        def candidates(self, s, seat): return [Send(seat, 1), Send(seat, 2)] if seat == 0 else []
        def effect(self, s, a): return s.replace(sent=tuple(a.n if i == a.seat else x for i, x in enumerate(s.sent)))
        def outcome(self, s): return Outcome((0,), "sent") if None not in s.sent else None

    bot = build(Stuck(), "mcts", iterations=10, seed=1)
    with pytest.raises(RuntimeError, match="seat 1 is pending in a simultaneous step but has no legal action"):
        bot.choose(Stuck(), Stuck().initial_state(), 0)
