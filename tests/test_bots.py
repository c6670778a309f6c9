"""Bots declare what they read (``Bot.needs_world``); ``choose_for`` draws a world only for those that need one."""

from __future__ import annotations

import random

import pytest

import playtest
from playtest import SIMULTANEOUS
from playtest.bots import Bot, MCTSBot, RandomBot, choose_for
from playtest.lab import play_game


class Counting:
    """Counts ``determinize`` calls of one game object (an instance attribute shadows the method)."""

    def __init__(self, game):
        self.calls = 0
        real = game.determinize

        def determinize(state, seat, rng):
            self.calls += 1
            return real(state, seat, rng)
        game.determinize = determinize


class ActionsOnly(Bot):
    """Declares that it reads only its legal actions; records what it was handed."""

    needs_world = False

    def __init__(self):
        self.handed: list[list] = []

    def choose(self, game, state, seat=None):
        raise AssertionError("a bot that needs no world is never handed a state in a game with secrets")

    def choose_from(self, actions):
        self.handed.append(list(actions))
        return actions[0]


class Reader:
    """A duck-typed bot (no ``needs_world``): it reads the state, so it must get a redrawn world."""

    def __init__(self):
        self.seen: list = []

    def choose(self, game, state, seat=None):
        self.seen.append(state)
        return game.legal_actions(state, seat)[0] if seat is not None else game.legal_actions(state)[0]


def test_the_property_is_declared_on_the_bots():
    assert RandomBot.needs_world is False
    assert MCTSBot.needs_world is True
    assert Bot.needs_world is True
    for name in playtest.games():
        for maker in playtest.bots.bots_for(name).values():
            assert isinstance(maker.needs_world, bool), maker


@pytest.mark.parametrize("name", ["back_to_the_wall", "corner_rush", "secret_bid"])
def test_random_games_draw_no_world(name):
    game = playtest.load(name)
    counting = Counting(game)
    state, steps = play_game(game, [RandomBot(s) for s in range(len(game.seats()))], random.Random(1),
                             max_steps=200_000)
    assert game.to_move(state) is None and steps > 0
    assert counting.calls == 0


@pytest.mark.parametrize("name", ["back_to_the_wall", "corner_rush"])
def test_a_bot_that_needs_no_world_is_handed_only_its_legal_actions(name):
    game = playtest.load(name)
    rng = random.Random(4)
    state = game.initial_state()
    bot = ActionsOnly()
    checked = 0
    for _ in range(300):
        mover = game.to_move(state)
        if mover is None:
            break
        if mover == playtest.CHANCE:
            state = game.apply(state, game.chance_outcome(state, rng))
            continue
        seat = game.pending_seats(state)[0] if mover == SIMULTANEOUS else mover
        action = choose_for(bot, game, state, seat, rng)
        assert bot.handed[-1] == game.legal_actions(state, seat)
        # the same in a position the seat cannot tell apart: nothing hidden reaches the bot
        other = game.determinize(state, seat, random.Random(rng.random()))
        choose_for(bot, game, other, seat, rng)
        assert bot.handed[-1] == bot.handed[-2]
        checked += 1
        state = game.apply(state, rng.choice(game.legal_actions(state, seat)) if checked % 2 else action)
    assert checked > 20


def test_a_bot_that_does_not_say_gets_a_world():
    game = playtest.load("back_to_the_wall", rounds=1)
    state = game.initial_state()
    for seat in (1, 2, 3):       # three seats submit; seat 0's view must not hold their orders
        state = game.finish_order(state, seat, random.Random(seat))
    bot = Reader()
    counting = Counting(game)
    choose_for(bot, game, state, 0, random.Random(9))
    assert counting.calls == 1
    seen = bot.seen[-1]
    assert seen == game.determinize(state, 0, random.Random(9))
    assert seen.orders[1:] != state.orders[1:]        # the others' orders were redrawn


def test_a_game_without_secrets_hands_the_state_itself():
    game = playtest.load("eat_thyself")
    bot = Reader()
    state = game.initial_state()
    choose_for(bot, game, state, 0, random.Random(1))
    assert bot.seen[-1] is state


def test_random_bot_choices_do_not_depend_on_hidden_values():
    game = playtest.load("corner_rush")
    rng = random.Random(2)
    state = game.initial_state()
    compared = 0
    while game.to_move(state) is not None and compared < 40:
        mover = game.to_move(state)
        if mover == playtest.CHANCE:
            state = game.apply(state, game.chance_outcome(state, rng))
            continue
        other = game.determinize(state, mover, random.Random(rng.random()))
        picks = [choose_for(RandomBot(seed=7), game, s, mover, random.Random(3)) for s in (state, other)]
        assert picks[0] == picks[1]
        compared += 1
        state = game.apply(state, picks[0])
    assert compared == 40


def test_a_bot_that_declares_no_world_without_choose_from_is_refused_clearly():
    class Lazy(Bot):
        needs_world = False

    game = playtest.load("back_to_the_wall", rounds=1)
    with pytest.raises(NotImplementedError, match="needs_world = False but has no choose_from"):
        choose_for(Lazy(), game, game.initial_state(), 0, random.Random(1))


# ---- whole orders: a random player writes its order whole in a game that draws them

def test_the_random_bot_gives_whole_orders_where_the_game_draws_them():
    from playtest.bots import order_for
    game = playtest.load("back_to_the_wall", rounds=1)
    state = game.initial_state()
    bot = RandomBot(seed=4)
    for seat in game.pending_seats(state):
        parts = order_for(bot, game, state, seat)
        assert parts and str(parts[-1]) == f"seat {seat} submit"
        for part in parts:
            assert game.check(state, part, seat) is None          # each part legal after the ones before
            state = game.apply(state, part)
    assert game.to_move(state) is None                             # every seat submitted: the round resolved
    assert order_for(bot, playtest.load("eat_thyself"), playtest.load("eat_thyself").initial_state(), 0) is None
    assert order_for(ActionsOnly(), game, game.initial_state(), 0) is None    # a bot that does not declare it


def test_a_whole_order_is_drawn_from_what_the_seat_may_know():
    """Two positions seat 0 cannot tell apart (the others' orders redrawn) give it the same order."""
    from playtest.bots import order_for
    game = playtest.load("back_to_the_wall")
    state = game.initial_state()
    for seat in (1, 2, 3):
        state = game.finish_order(state, seat, random.Random(seat))
    other = game.determinize(state, 0, random.Random(5))
    assert other.orders != state.orders
    assert order_for(RandomBot(2), game, state, 0) == order_for(RandomBot(2), game, other, 0)


def test_random_games_of_whole_orders_are_short_and_the_same_whatever_plays_them():
    from concurrent.futures import ThreadPoolExecutor
    game = playtest.load("back_to_the_wall")
    here = playtest.simulate(game, "random", games=4, seed=3, progress=False)
    with ThreadPoolExecutor(2) as pool:
        threads = playtest.simulate(game, "random", games=4, seed=3, executor=pool, progress=False)
    assert threads.games.equals(here.games)
    assert here.games["length"].max() < 600          # twelve orders of a few dozen parts, not ~1,200 wandering parts
    state, steps = play_game(game, RandomBot(1), random.Random(1))
    assert game.outcome(state) is not None and steps < 600
