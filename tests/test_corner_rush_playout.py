"""Corner Rush's random playout plays its whole turns inline on the common readings (a whole turn per
step of its loop, each seat's running score kept with what it depends on): whole games from the set-up,
many seeds, every reading the inline turns cover, compared with stepping the rules (the same state, steps,
options, running scores at every turn end, first seat and generators); readings it leaves to its step by
step loop, and generators of another kind, too. The lab reads the running scores a playout hands over in
one pass (a reading repeated as the same object counted, not read again) and gets the same lead changes and
decisiveness as reading them one by one."""

from __future__ import annotations

import random

import pytest

import playtest
from playtest.check import playout_by_rules
from playtest.kernel.game import PlayoutLog
from playtest.lab import metrics
from playtest.lab._play import Job, play_one
from playtest.lab._standings import read_standings, reading_measures

#: readings the inline turns play (one challenge a turn, automatic removal, the bag drawn by chance, placement
#: mandatory, no longest move), with every other parameter they read set off its default somewhere
INLINE = [
    {},
    {"num_players": 2, "max_turns": 60},
    {"num_players": 3, "turn_order": "counterclockwise", "challenge_adjacency": "king"},
    {"failed_challenge_blocker": "flip_back", "captured_blocker_destination": "owner_bag", "placer_knows_value": False},
    {"captured_blocker_destination": "removed", "challenge_moves": "roll", "challenge_success": "greater"},
    {"null_power_in_challenge": True, "challenge_moves": "none", "null_other_steps": 2},
    {"other_aces_open": False, "hole_passable": True, "null_can_finish_other": True},
    {"win_on_entry": False, "win_on_occupied_ace": False, "pawn_pass_through": False, "pawn_stacking": True},
    {"board_size": 7, "start_cells": "edge_middles", "goal_cells": "next_clockwise", "challenge_enabled": False},
    {"null_moves_other": False, "die_faces": [0, 2, 2, 6], "blocker_values": [0, 5], "blockers_per_player": 3},
]

#: readings left to the step by step loop
STEPWISE = [
    {"max_challenges_per_turn": 2},
    {"challenge_removal": "optional"},
    {"blocker_draw": "choose"},
    {"blocker_placement_mandatory": False},
    {"stuck_policy": "longest"},
]


def same_play(game, start, seed: int, per_seat: bool, rng_type: type = random.Random, **caps):
    """The playout and the rules from ``start`` with the same generators: everything they report and leave."""
    runs = []
    for way in (game.random_playout, lambda *a, **k: playout_by_rules(game, *a, **k)):
        rng = random.Random(seed)
        seat_rngs = [rng_type(f"{seed}:{s}") for s in range(game.seat_count())] if per_seat else None
        log = PlayoutLog(scores=True)
        result = way(start, rng, seat_rngs, log=log, **caps)
        runs.append((result, log.options, log.scores, log.first, rng.getstate(),
                     [r.getstate() for r in seat_rngs or ()]))
    assert runs[0][0] is not None
    assert runs[0] == runs[1]
    return runs[0][0]


@pytest.mark.parametrize("params", INLINE + STEPWISE, ids=lambda p: ",".join(p) or "defaults")
def test_whole_games_from_the_set_up_play_the_rules(params):
    game = playtest.load("corner_rush", **params)
    ends = set()
    for seed in range(25):
        state, _ = same_play(game, game.initial_state(), seed, per_seat=seed % 5 != 0)
        assert state.phase == "over"
        ends.add(state.winner >= 0)
    assert True in ends                     # games are won (not only drawn at the turn cap)


@pytest.mark.parametrize("params", INLINE[:4], ids=lambda p: ",".join(p) or "defaults")
def test_from_positions_in_play_and_with_caps(params):
    """From positions part way into a game (mid-turn ones too), with step and turn caps that end a playout
    inside a turn or at its end."""
    game = playtest.load("corner_rush", **params)
    for seed in range(30):
        draw = random.Random(seed)
        start, _ = playout_by_rules(game, game.initial_state(), random.Random(seed + 500),
                                    max_steps=draw.randrange(0, 400))
        caps = draw.choice([{}, {"max_steps": draw.randrange(1, 40)}, {"max_turns": draw.randrange(1, 12)},
                            {"max_steps": draw.randrange(1, 60), "max_turns": draw.randrange(1, 6)}])
        same_play(game, start, seed, per_seat=draw.random() < 0.7, **caps)


class OwnRandom(random.Random):
    """A generator of another kind (its choice drawn its own way): the playout steps through its turns."""

    def _randbelow(self, n: int) -> int:        # type: ignore[override]
        return int(self.random() * n)


def test_generators_of_another_kind_play_the_rules():
    game = playtest.load("corner_rush")
    for seed in range(10):
        same_play(game, game.initial_state(), seed, per_seat=True, rng_type=OwnRandom)


def test_lab_games_by_the_playout_replay_through_the_rules():
    """The lab's rows from the playout are the rows of its recorded games (played step by step), whose
    every action the rules accept again, and the playout's final state is the recorded game's."""
    game = playtest.load("corner_rush")
    job = Job(game, "random", seed=8)
    for index in range(8):
        recorded = play_one(job, index, record=True)
        assert play_one(job, index) == {k: v for k, v in recorded.items() if k not in ("actions", "final")}
        state = game.initial_state()
        for _, action in recorded["actions"]:
            state = game.apply(state, action)           # checked: the rules refuse an illegal one
        assert state == recorded["final"]
        final, _ = game.random_playout(game.initial_state(), random.Random(recorded["seed"]),
                                       [random.Random(f"8:{index}:{s}:None:rng") for s in range(4)])
        assert final == state


def test_reading_measures_give_the_same_measures_as_each_reading():
    rng = random.Random(4)
    for _ in range(600):
        seats = rng.choice([2, 3, 4])
        pool = [tuple(rng.randrange(-3, 1) for _ in range(seats)) for _ in range(4)] + [None]
        readings: list = []
        for _ in range(rng.randrange(0, 30)):
            pick = rng.choice(pool)
            # repeats as the same object and as an equal copy, as playouts append them
            readings.append(pick if pick is None or rng.random() < 0.5 else tuple(pick))
        tops: list = []
        leaders: list = []
        read_standings(readings, tops, leaders)
        winners = rng.choice([(), (0,), (1,), (0, 1)])
        expected = ((metrics.lead_changes(leaders), metrics.decisiveness(tops, winners, seats)) if tops
                    else (None, None))
        assert reading_measures(readings, winners, seats) == expected
