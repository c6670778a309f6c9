"""The lab's Corner Rush games, pinned: for a few seeds and parameter sets, the rows of the lab's random
games (``play_one`` with a job as ``simulate`` makes it: winners, lengths, branching, lead changes,
decisiveness, scores...), the rows ``simulate`` reports (the same), and what the game's random playout
reports to the lab (every decision's number of options, the running scores at every turn end, the first
seat, the final state and steps). Digests recorded before the lab's Corner Rush games were made faster:
a change of speed must leave every figure as it was."""

from __future__ import annotations

import hashlib
import random

import pytest

import playtest
from playtest.kernel.game import PlayoutLog
from playtest.lab._play import Job, game_seed, play_one
from playtest.lab.result import SimulationResult

GAMES = 30

#: (parameters, run seed) -> (digest of the rows, digest of the playouts' logs)
PINNED = [
    ({}, 0, '412bcb268cf3869f', '6a39150bde52c5ef'),
    ({}, 7, '03016cc06007df5e', '60ef4ae29f35fbf9'),
    ({'num_players': 2, 'max_turns': 60}, 1, '5172223e0b59f9c5', '38da531fae9c372f'),
    ({'failed_challenge_blocker': 'flip_back', 'captured_blocker_destination': 'owner_bag'}, 3, '3d1b52335733e2be',
     '04f91e7c8b57208b'),
    ({'win_on_entry': False, 'pawn_pass_through': False, 'pawn_stacking': True}, 4, '9293b234d91fffa6',
     '10b437f1e04260b8'),
    ({'board_size': 7, 'start_cells': 'edge_middles', 'goal_cells': 'next_clockwise'}, 5, '3cd07e187ae8168d',
     '9396993662bd1357'),
    ({'challenge_removal': 'optional'}, 6, 'e961aa7fd036306e', '00bd88fd4c194398'),   # (left to the step by step loop)
]


def digest(value: object) -> str:
    return hashlib.sha256(repr(value).encode()).hexdigest()[:16]


def lab_rows(params: dict, seed: int) -> list[dict]:
    game = playtest.load("corner_rush", **params)
    job = Job(game, "random", seed, columns=tuple(game.params.changed().items()))
    return [play_one(job, index) for index in range(GAMES)]


def playout_logs(params: dict, seed: int) -> list[tuple]:
    game = playtest.load("corner_rush", **params)
    logs = []
    for index in range(GAMES):
        log = PlayoutLog(scores=True)
        played = game.random_playout(game.initial_state(), random.Random(game_seed(seed, index)),
                                     [random.Random(f"{seed}:{index}:{s}:None:rng") for s in range(game.seat_count())],
                                     log=log)
        logs.append((played, log.options, log.scores, log.first))
    return logs


@pytest.mark.parametrize("params, seed, rows, logs", PINNED, ids=lambda p: repr(p) if isinstance(p, dict) else None)
def test_lab_rows_and_playout_logs_are_as_pinned(params, seed, rows, logs):
    made = lab_rows(params, seed)
    assert digest(made) == rows
    assert digest(playout_logs(params, seed)) == logs
    game = playtest.load("corner_rush", **params)
    result = playtest.simulate(game, "random", games=GAMES, seed=seed, executor=None, progress=False)
    assert result.games.equals(SimulationResult.from_rows(game, made).games)


def test_random_bots_given_as_objects_or_by_name_play_out_as_they_step():
    """A game played out with only the seats' generators (every seat the kit's random bot) has the row of the
    same game stepped through the rules with the bots themselves (a recorded game), whichever way the bots
    were given; a subclass of the random bot is stepped, as before."""
    from playtest.bots import RandomBot
    from playtest.lab._play import _plan, _random_seat_tails

    class OwnRandom(RandomBot):
        pass

    game = playtest.load("corner_rush")
    for bots in ("random", [RandomBot(s) for s in range(4)], RandomBot(9), OwnRandom(1)):
        job = Job(game, bots, seed=5)
        for index in range(3):
            recorded = play_one(job, index, record=True)
            assert play_one(job, index) == {k: v for k, v in recorded.items() if k not in ("actions", "final")}
        assert (_plan(job).tails is None) == isinstance(bots, OwnRandom)
        assert (_random_seat_tails(job) is None) == isinstance(bots, OwnRandom)
