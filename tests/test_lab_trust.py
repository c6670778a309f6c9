"""The lab trusts no bot and no argument (issue 27): an illegal, stale or malformed bot action, a
bot returning None, a raising bot or hook stop the run naming the bot, the seat, the position and
the rule; bad arguments raise ValueError naming them."""

from __future__ import annotations

import random

import pytest

import playtest
from playtest.bots import Bot, RandomBot
from playtest.lab import BotError


class Stale(Bot):
    """Replays the first move it ever made, whatever the position."""

    def __init__(self):
        self.first = None

    def choose(self, game, state, seat=None):
        if self.first is None:
            self.first = game.legal_actions(state)[0]
        return self.first


class Nothing(Bot):
    def choose(self, game, state, seat=None):
        return None


class Broken(Bot):
    def choose(self, game, state, seat=None):
        raise KeyError("a bug in the bot")


def test_a_bot_replaying_a_stale_move_stops_the_run_with_the_rule():
    with pytest.raises(BotError) as err:
        playtest.simulate("source", [Stale(), RandomBot(1)], games=2, seed=1, progress=False)
    text = str(err.value)
    assert "source, game 0" in text and "seat 0" in text and "rules refuse" in text and "(rule " in text


def test_a_bot_returning_none_or_raising_is_named():
    with pytest.raises(BotError, match="returned None"):
        playtest.simulate("tic_tac_toe", [Nothing(), "random"], games=1, progress=False)
    with pytest.raises(BotError, match="the bot raised KeyError"):
        playtest.simulate("tic_tac_toe", [Broken(), "random"], games=1, progress=False)


def test_a_raising_running_scores_hook_is_named():
    def hook(game, state):
        raise ZeroDivisionError("no scores")
    with pytest.raises(BotError, match="running_scores raised ZeroDivisionError"):
        playtest.simulate("tic_tac_toe", "random", games=1, progress=False, running_scores=hook)


@pytest.mark.parametrize("steps", [0, -1, 1.5, True])
def test_max_steps_must_be_a_whole_number_of_at_least_one(steps):
    with pytest.raises(ValueError, match="max_steps must be a whole number"):
        playtest.simulate("tic_tac_toe", games=1, progress=False, max_steps=steps)


def test_an_executor_must_be_an_executor():
    with pytest.raises(ValueError, match="executor must be a concurrent.futures Executor"):
        playtest.simulate("tic_tac_toe", games=2, progress=False, executor="processes")


# ---- what the runner takes on the rules' word, and what it checks (playtest/lab/_play.py's docstring)

def _lying_tic_tac_toe():
    """Tic-tac-toe whose own sampler marks the first cell whatever the board holds."""
    from playtest.examples.tic_tac_toe import Mark, TicTacToe

    class Lying(TicTacToe):
        name = "lying_tic_tac_toe"

        def random_action(self, state, rng):
            return Mark(0)

    return Lying()


def test_a_sampler_that_lies_fails_check_game():
    report = playtest.check_game(_lying_tic_tac_toe(), examples=2, seed=1)
    failure = next(f for f in report.failures if f.property == "random action is legal")
    assert "random_action drew" in failure.message and "taken" in failure.message


def test_a_sampler_that_lies_stops_a_run_too():
    """The kit's random bot plays the game's sampler, taken on its word at most decisions and put to
    the proof at the counted ones: a lying sampler is caught within a few games."""
    with pytest.raises(BotError, match="rules refuse: that cell is taken"):
        playtest.simulate(_lying_tic_tac_toe(), "random", games=20, seed=1, progress=False)


def test_the_kits_samplers_pass_check_game():
    for name in ("tic_tac_toe", "secret_bid"):
        report = playtest.check_game(name, examples=2, seed=1)
        assert report.ok and report.checked["random action is legal"] > 0


class StaleRandom(RandomBot):
    """A subclass of the kit's random bot: a stranger's code, checked like any other bot."""

    def choose(self, game, state, seat=None):
        return game.legal_actions(game.initial_state())[0]


def test_a_subclass_of_the_random_bot_is_checked_every_move():
    with pytest.raises(BotError, match="StaleRandom|random"):
        playtest.simulate("tic_tac_toe", StaleRandom(), games=1, seed=1, progress=False)


class Impostor(Bot):
    """Reads only its legal actions, but answers with a look-alike of one (equal, not the listed one) or
    with an object that says it equals everything."""

    needs_world = False

    def __init__(self, equal_to_all=False):
        self.equal_to_all = equal_to_all
        self.rng = random.Random(0)

    def choose_from(self, actions):
        if self.equal_to_all:
            class Anything:
                def __eq__(self, other):
                    return True
                __hash__ = object.__hash__
            return Anything()
        chosen = self.rng.choice(actions)
        return type(chosen).from_json(chosen.to_json())


def test_an_action_handed_back_is_proved_by_identity_not_equality():
    """In a game with secrets the runner lists the seat's actions and hands them over; an equal copy
    of a listed action is legal all the same (game.check says so), an object that claims to equal
    everything is not an action of the game."""
    result = playtest.simulate("secret_bid", Impostor(), games=2, seed=1, progress=False)
    assert len(result.games) == 2 and not result.games["stalled"].any()
    with pytest.raises(BotError, match="not an action of this game|rules refuse"):
        playtest.simulate("secret_bid", Impostor(equal_to_all=True), games=1, seed=1, progress=False)


class BadOrders(Bot):
    """Declares it gives whole orders, and gives one whose second part is repeated."""

    needs_world = False
    random_orders = True

    def choose_from(self, actions):
        return actions[0]

    def choose_order(self, draw):
        parts = draw(random.Random(1))
        return [parts[0], parts[0]] + parts[1:]


def test_every_part_of_a_strangers_whole_order_is_checked():
    with pytest.raises(BotError, match=r"move 1: bot \(seat 0.*rules refuse"):
        playtest.simulate(playtest.load("back_to_the_wall", rounds=1), BadOrders(), games=1, seed=1, progress=False)
