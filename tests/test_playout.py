"""Game.random_playout, the optional hook for random play on a game's compact form: Corner Rush's, Eat
Thyself's, Source's and Then There Was One's play exactly what stepping their rules plays, the lab's rows and the
search bot's choices are the same with and without it, and check_game catches a playout that plays another
game. ``PlayoutLog.at`` (the options wanted at some decisions only) serves playouts written before it too."""

from __future__ import annotations

import random

import pytest

import playtest
from playtest.check import playout_by_rules
from playtest.games.corner_rush.rules import CornerRush
from playtest.games.eat_thyself.rules import EatThyself
from playtest.kernel import Game
from playtest.kernel.game import PlayoutLog
from playtest.lab._play import Job, play_one
from playtest.mcts import MCTSBot


class RulesOnly(CornerRush):
    """Corner Rush without its playout: the rules step by step (the reference)."""

    random_playout = Game.random_playout  # type: ignore[assignment]


class EatThyselfRulesOnly(EatThyself):
    """Eat Thyself without its playout."""

    random_playout = Game.random_playout  # type: ignore[assignment]


class OffByOne(CornerRush):
    """A designer's wrong playout: its last decision drawn from one action too many."""

    def random_playout(self, state, rng, seat_rngs=None, max_steps=1_000_000, max_turns=None, log=None):
        played = super().random_playout(state, rng, seat_rngs, max_steps, max_turns, log)
        if played is None or log is None or not log.options:
            return played
        log.options[-1] += 1
        return played


CONFIGS = [
    {},
    {"num_players": 2},
    {"num_players": 3, "turn_order": "counterclockwise"},
    {"challenge_removal": "optional", "max_challenges_per_turn": 2},
    {"blocker_draw": "choose", "blocker_placement_mandatory": False},
    {"failed_challenge_blocker": "flip_back", "captured_blocker_destination": "removed"},
    {"null_other_steps": 3, "null_can_finish_other": True, "other_aces_open": False, "hole_passable": True},
    {"stuck_policy": "longest", "pawn_pass_through": False, "win_on_entry": False, "win_on_occupied_ace": False},
    {"rolloff_is_first_roll": True, "null_power_in_challenge": True, "challenge_moves": "roll",
     "challenge_success": "greater"},
    {"pawn_stacking": True, "pawn_pass_through": False, "challenge_adjacency": "king",
     "captured_blocker_destination": "owner_bag", "placer_knows_value": False, "board_size": 7,
     "start_cells": "edge_middles", "goal_cells": "next_clockwise"},
    {"null_moves_other": False, "challenge_moves": "none", "max_turns": 30},
]


ET_CONFIGS = [
    {},
    {"num_players": 3},
    {"allow_both_directions": False},
    {"count_empty_tiles": False},
    {"opponent_pawn_return": "may", "own_king_bonus_removals": 2, "opponent_king_extra_pieces": 0},
    {"win_condition": "one_king_left", "kings_per_player": 2},
    {"simultaneous_win": "shared", "num_players": 3},
    {"turn_order": "reverse", "max_turns": 20, "num_players": 3},
]


@pytest.mark.parametrize("name, params", [("corner_rush", p) for p in CONFIGS] + [("eat_thyself", p) for p in ET_CONFIGS],
                         ids=lambda p: p if isinstance(p, str) else ",".join(p) or "defaults")
def test_the_playout_plays_the_rules(name, params):
    game = playtest.load(name, **params)
    seats = game.seat_count()
    for seed in range(12):
        draw = random.Random(seed)
        start, _ = playout_by_rules(game, game.initial_state(), random.Random(seed + 1000),
                                    max_steps=draw.randrange(0, 150))
        max_turns = draw.choice([None, 1, 3, 10])
        max_steps = draw.choice([1_000_000, 5, 50])
        per_seat = draw.random() < 0.5
        runs = []
        for way in (game.random_playout, lambda *a, **k: playout_by_rules(game, *a, **k)):
            rng = random.Random(seed)
            seat_rngs = [random.Random(f"{seed}:{s}") for s in range(seats)] if per_seat else None
            log = PlayoutLog(scores=True)
            result = way(start, rng, seat_rngs, max_steps=max_steps, max_turns=max_turns, log=log)
            runs.append((result, log, rng.getstate(), [r.getstate() for r in seat_rngs or ()]))
        assert runs[0][0] is not None
        assert runs[0] == runs[1], (params, seed)


def test_corner_rush_leaves_three_readings_to_its_rules():
    for params in ({"must_use_all_moves": False}, {"allow_revisit": False}, {"allow_sealing": False}):
        game = playtest.load("corner_rush", **params)
        rng = random.Random(1)
        before = rng.getstate()
        assert game.random_playout(game.initial_state(), rng) is None
        assert rng.getstate() == before              # nothing drawn


@pytest.mark.parametrize("name, params", [("corner_rush", {}), ("corner_rush", {"num_players": 2, "max_turns": 25}),
                                          ("eat_thyself", {}), ("eat_thyself", {"num_players": 3, "max_turns": 15})])
def test_lab_rows_are_the_same_with_and_without_the_playout(name, params):
    fast = playtest.load(name, **params)
    slow = (RulesOnly if name == "corner_rush" else EatThyselfRulesOnly)(**params)
    for job_fast, job_slow in ((Job(fast, "random", seed=11), Job(slow, "random", seed=11)),
                               (Job(fast, "random", seed="x", max_steps=40), Job(slow, "random", seed="x", max_steps=40))):
        for index in range(60):
            assert play_one(job_fast, index) == play_one(job_slow, index), (params, index)


def test_lab_rows_with_the_playout_keep_the_recorded_games():
    game = playtest.load("corner_rush", num_players=2)
    job = Job(game, "random", seed=3)
    for index in range(5):
        recorded = play_one(job, index, record=True)
        row = play_one(job, index)
        assert {k: v for k, v in recorded.items() if k not in ("actions", "final")} == row
        assert recorded["final"] == game.random_playout(game.initial_state(), random.Random(row["seed"]),
                                                        [random.Random(f"3:{index}:{s}:None:rng") for s in range(2)])[0]


def searches_alike(fast, slow, seeds, steps, iterations: int) -> int:
    """The search bot with ``fast`` (a game with its playout) and ``slow`` (the same rules without it)
    chooses the same and leaves its generator in the same state, from positions ``steps(seed)`` steps
    into random games, with a long and a two-turn rollout limit; the number of searches compared.
    (Shared by the playouts' tests: ``test_source_playout.py``, ``test_ttwo_playout.py``.)"""
    checked = 0
    for seed in seeds:
        state, _ = playout_by_rules(fast, fast.initial_state(), random.Random(seed), max_steps=steps(seed))
        if fast.to_move(state) is None or fast.to_move(state) < 0 or len(fast.legal_actions(state)) < 2:
            continue
        for limit in (100, 2):
            a = MCTSBot(iterations=iterations, seed=seed, rollout_limit=limit)
            b = MCTSBot(iterations=iterations, seed=seed, rollout_limit=limit)
            assert a.choose(fast, state) == b.choose(slow, state)
            assert a.rng.getstate() == b.rng.getstate()
            checked += 1
    return checked


@pytest.mark.parametrize("name", ["corner_rush", "eat_thyself"])
def test_mcts_choices_are_the_same_with_and_without_the_playout(name):
    slow = RulesOnly() if name == "corner_rush" else EatThyselfRulesOnly()
    assert searches_alike(playtest.load(name), slow, range(8), lambda seed: 3 + 5 * seed, iterations=40) >= 4


def test_check_game_checks_the_playout_and_catches_a_wrong_one():
    good = playtest.check_game("corner_rush", examples=2, positions=12)
    assert good.ok and good.checked["playout"] > 0
    bad = playtest.check_game(OffByOne(), examples=2, positions=12)
    failures = [f for f in bad.failures if f.property == "playout"]
    assert failures and "options" in failures[0].message
    assert "playout" not in playtest.check_game(EatThyselfRulesOnly(), examples=1, positions=3).checked
    assert playtest.check_game("eat_thyself", examples=2, positions=12).checked["playout"] > 0


@pytest.mark.parametrize("name", ["corner_rush", "eat_thyself", "then_there_was_one"])
def test_options_wanted_at_some_decisions(name):
    """``PlayoutLog.at``: the rules list the legal actions at those decisions only and report the decisions
    played; a playout that counts every decision (Corner Rush's, Eat Thyself's: written before ``at``)
    leaves ``decisions`` unset, and ``PlayoutLog.wanted`` picks the same entries out of its counts."""
    game = playtest.load(name)
    for seed in range(6):
        at = sorted(random.Random(seed).sample(range(120), 9))
        every = PlayoutLog(scores=True)
        by_rules, own = PlayoutLog(scores=True, at=iter(at)), PlayoutLog(scores=True, at=iter(at))
        reference = playout_by_rules(game, game.initial_state(), random.Random(seed), log=every)
        assert playout_by_rules(game, game.initial_state(), random.Random(seed), log=by_rules) == reference
        assert game.random_playout(game.initial_state(), random.Random(seed), log=own) == reference
        assert every.decisions is None and by_rules.decisions == len(every.options)
        assert by_rules.options == [every.options[i] for i in at if i < len(every.options)]
        assert by_rules.scores == every.scores and by_rules.first == every.first
        assert own.wanted(at) == (by_rules.options, by_rules.decisions)
        assert (own.decisions is None) == (name != "then_there_was_one")
