"""The lab trusts no bot and no argument (issue 27): an illegal, stale or malformed bot action, a
bot returning None, a raising bot or hook stop the run naming the bot, the seat, the position and
the rule; bad arguments raise ValueError naming them."""

from __future__ import annotations

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
