"""The lab's runner picks the kit's random bot's action itself in a game with secrets (from the
listing it makes for the seat, as the bot's ``choose_from`` would): the same games as a bot that
picks through its own ``choose_from`` call, and a bot that cannot act is still reported."""

from __future__ import annotations

import pytest

import playtest
from playtest.bots import RandomBot
from playtest.lab import BotError, Job
from playtest.lab._play import play_chunk


class CallingRandomBot(RandomBot):
    """The kit's random bot, but not exactly that class: the runner asks its choose_from."""
    calls = 0

    def choose_from(self, actions):
        type(self).calls += 1
        return super().choose_from(actions)


@pytest.mark.parametrize("name", ["corner_rush", "back_to_the_wall"])
def test_the_runners_own_pick_plays_the_games_the_bots_choose_from_plays(name):
    game = playtest.load(name, **({"rounds": 1} if name == "back_to_the_wall" else {}))
    assert game.has_secrets
    CallingRandomBot.calls = 0
    kit = play_chunk(Job(game, "random", seed=3), [0, 1, 2])
    calling = play_chunk(Job(game, CallingRandomBot, seed=3), [0, 1, 2])
    assert kit == calling
    if name == "corner_rush":         # (Back to the Wall's seats give whole orders: no pick from a listing)
        assert CallingRandomBot.calls > 0


def test_a_seat_with_nothing_to_do_is_still_reported_through_the_fast_pick(monkeypatch):
    game = playtest.load("corner_rush")
    job = Job(game, "random", seed=1)
    play_chunk(job, [0])
    original = type(game).legal_actions
    state_seen = []

    def empty_after_a_while(self, state, seat=None):
        state_seen.append(1)
        return [] if len(state_seen) > 40 else original(self, state, seat)

    monkeypatch.setattr(type(game), "legal_actions", empty_after_a_while)
    # (the game's own random playout would play the game without the runner's pick: the rules step by step)
    monkeypatch.setattr(type(game), "random_playout", playtest.Game.random_playout)
    with pytest.raises(BotError, match="the bot raised ValueError: seat [0-9] has nothing to do in this position"):
        play_chunk(Job(game, "random", seed=1), [0])
