"""Then There Was One's random playout (``playtest/games/then_there_was_one/playout.py``) plays exactly what
stepping its rules plays (:func:`playtest.check.playout_by_rules`): a digest of hundreds of playouts from
seeded mid-game positions (after the scatter, placed obstacles, start circles, inside wall and token turns,
after a live parameter change) under several parameter sets, one generator or one a seat, with step and
turn caps, the options asked at every decision or at some only (``PlayoutLog.at``), each with

* the position reached, as JSON (``json.dumps``, the last move's marks included) and equal to the rules',
* the steps played, the options, the decisions, the running scores at turn ends, the first decider,
* the generators' states afterwards (the same numbers drawn),

is the same both ways, and the same as the rules of this revision made it (``RULES``: a later change to
the rules that plays another game shows here). check_game's playout property passes under several
parameter sets, the lab's rows and the search bot's choices are the same with and without the playout.
"""

from __future__ import annotations

import hashlib
import json
import random
from concurrent.futures import ThreadPoolExecutor

import pytest

import playtest
from playtest.check import playout_by_rules
from playtest.games.then_there_was_one import ThenThereWasOne
from playtest.kernel import Game
from playtest.kernel.game import PlayoutLog
from playtest.lab._play import Job, play_one
from test_playout import searches_alike


class RulesOnly(ThenThereWasOne):
    """Then There Was One without its playout: the rules step by step (the reference)."""

    random_playout = Game.random_playout  # type: ignore[assignment]


class OwnScores(ThenThereWasOne):
    """A designer's variant with running scores of its own: the playout leaves it to the rules."""

    def running_scores(self, state):
        return tuple(float(len(state.arrived)) for _ in range(self.params.num_players))


VARIANTS = [
    {},
    {"num_players": 3},
    {"num_players": 5, "max_jumps_per_turn": 0, "wall_budget": 6},
    {"require_open_corridor": True, "bought_obstacle_may_border_token": False,
     "wall_token_clearance": "edge_or_corner", "max_obstacles_per_turn": 3},
    {"wall_turns": "before_each_token", "token_turn_order": "team_chooses_order", "max_rounds": 12},
    {"obstacle_setup": "players_place_in_turn", "num_players": 3, "board_width": 7, "board_length": 9,
     "initial_obstacles": 8, "move_length": 4},
    {"eliminate_when_no_path": False, "allow_voluntary_revisit": True, "start_tile_counts": False,
     "jump_step_cost": 2, "max_jumps_per_turn": 3, "jump_allow_obstacle_wall": False, "max_walls_at_jump_corner": 0},
    {"goal_on_entry": False, "finished_token_leaves_board": False, "tokens_block_tokens": False,
     "obstacle_setup": "fixed_layout", "first_turn_black_line_ban": False, "token_win_threshold": (1, 3, 3)},
]

#: digest(variant) made by stepping the rules (playout_by_rules) at the revision that added the playout
RULES = ["e126844c84b6bd55e075", "ea5c549583a096399714", "9e6223b97ed9785fc611", "ccbde806c87a1b0b4344",
         "59b7ae1af5c5861957fe", "cc78468168d8a62cc3c7", "98487de8f6522f776a79", "8ebc30989e389909eb03"]

#: hand-written positions (JSON) played out from under the default parameters
POSITIONS = [
    {"obstacles": [[4, 5], [5, 6]], "to_move": 1, "round": 2, "tokens": {"1": [5, 5], "2": [0, 0], "3": [9, 0]}},
    {"to_move": 0, "round": 3, "first_wall_turn": False, "obstacles": [[3, 3], [6, 8]], "bought_this_turn": [[6, 8]],
     "walls": [[[4, 6], [4, 7]], [[5, 6], [5, 7]]], "built_this_turn": [[[1, 6], [1, 7]]],
     "tokens": {"1": [4, 5], "2": [6, 2], "3": [8, 9]}, "moved": []},
    {"to_move": 2, "round": 4, "path": [[6, 2], [6, 3], [7, 3]], "obstacles": [[7, 5], [8, 4]],
     "tokens": {"1": [4, 5], "2": [7, 3], "3": [8, 9]}, "moved": [1], "arrived": [], "eliminated": []},
]


def _playouts(game, start, rng: random.Random):
    """Both ways from ``start`` with the same drawn caps: [(result, log, generator states)] (playout, rules)."""
    seats = game.seat_count()
    max_turns = rng.choice([None, None, 1, 2, 5])
    max_steps = rng.choice([1_000_000, 1_000_000, 0, 7, 60])
    per_seat = rng.random() < 0.5
    at = sorted(rng.sample(range(80), rng.randrange(0, 12))) if rng.random() < 0.5 else None
    scores = rng.random() < 0.8
    seed = rng.random()
    runs = []
    for way in (game.random_playout, lambda *a, **k: playout_by_rules(game, *a, **k)):
        chance = random.Random(seed)
        seat_rngs = [random.Random(f"{seed}:{s}") for s in range(seats)] if per_seat else None
        log = PlayoutLog(scores=scores, at=None if at is None else iter(at))
        result = way(start, chance, seat_rngs, max_steps=max_steps, max_turns=max_turns, log=log)
        runs.append((result, log, chance.getstate(), [r.getstate() for r in seat_rngs or ()]))
    return runs


def _written(result, log) -> bytes:
    state, steps = result
    return json.dumps([state.to_json(), steps, log.options, log.decisions, log.scores, log.first]).encode()


def digest(params: dict, games: int = 40) -> tuple[str, str, int]:
    """(the playout's digest, the rules' digest, playouts compared) from seeded positions of ``params``."""
    game = playtest.load("then_there_was_one", **params)
    h_fast, h_rules = hashlib.sha256(), hashlib.sha256()
    compared = 0
    for seed in range(games):
        rng = random.Random(seed)
        start, _ = playout_by_rules(game, game.initial_state(), random.Random(seed + 500),
                                    max_steps=rng.choice([0, 1, 3, 20, 80, 200, 400]))
        played = game
        if seed % 6 == 5 and start.phase not in ("scatter", "over"):     # a live change in the middle of a turn
            played = game.with_params(wall_budget=max(0, game.params.wall_budget - 7), move_length=4,
                                      max_jumps_per_turn=0)
            start = played.adapt_state(start, game)
        for _ in range(3):
            (fast, fast_log, *fast_rngs), (rules, rules_log, *rules_rngs) = _playouts(played, start, rng)
            assert fast is not None, (params, seed)
            assert fast[0] == rules[0] and fast[1] == rules[1], (params, seed)
            assert fast[0].last_tiles == rules[0].last_tiles and fast[0].last_edges == rules[0].last_edges
            assert fast_log == rules_log and fast_rngs == rules_rngs, (params, seed)
            h_fast.update(_written(fast, fast_log) + repr(fast_rngs).encode())
            h_rules.update(_written(rules, rules_log) + repr(rules_rngs).encode())
            compared += 1
    return h_fast.hexdigest()[:20], h_rules.hexdigest()[:20], compared


@pytest.mark.parametrize("index", range(len(VARIANTS)))
def test_the_playout_plays_the_rules(index):
    fast, rules, compared = digest(VARIANTS[index])
    assert compared >= 100
    assert fast == rules
    assert rules == RULES[index]


def test_the_playout_plays_the_rules_from_hand_written_positions():
    game = playtest.load("then_there_was_one")
    for k, data in enumerate(POSITIONS):
        start = game.state_from_json(data)
        for seed in range(12):
            (fast, fast_log, *fast_rngs), (rules, rules_log, *rules_rngs) = _playouts(game, start, random.Random(seed))
            assert fast == rules and fast_log == rules_log and fast_rngs == rules_rngs, (k, seed)
            assert fast[0].to_json() == rules[0].to_json()


def test_the_options_at_some_decisions_are_those_at_every_decision():
    game = playtest.load("then_there_was_one", num_players=3, require_open_corridor=True)
    for seed in range(6):
        at = list(range(seed % 3, 400, 5))
        every, some = PlayoutLog(), PlayoutLog(at=iter(at))
        a = game.random_playout(game.initial_state(), random.Random(seed), log=every)
        b = game.random_playout(game.initial_state(), random.Random(seed), log=some)
        assert a == b and every.decisions is None
        assert some.decisions == len(every.options)
        assert some.options == [every.options[i] for i in at if i < len(every.options)] and some.options


def test_what_the_playout_leaves_to_the_rules():
    game = playtest.load("then_there_was_one")
    state = game.initial_state()

    class Drawn(random.Random):
        pass

    for rng, seat_rngs, kind in ((Drawn(1), None, game), (random.Random(1), [random.Random(2), Drawn(3)] + [
            random.Random(4)] * 2, game), (random.Random(1), None, OwnScores())):
        before = rng.getstate()
        assert kind.random_playout(state, rng, seat_rngs) is None
        assert rng.getstate() == before              # nothing drawn
    assert RulesOnly().random_playout(state, random.Random(1)) is None


@pytest.mark.parametrize("params", [{}, {"num_players": 3, "max_jumps_per_turn": 0},
                                    {"num_players": 5, "wall_budget": 4, "require_open_corridor": True},
                                    {"wall_turns": "before_each_token", "token_turn_order": "team_chooses_order",
                                     "obstacle_setup": "players_place_in_turn"}],
                         ids=lambda p: ",".join(p) or "defaults")
def test_check_game_checks_the_playout(params):
    report = playtest.check_game(playtest.load("then_there_was_one", **params), examples=2, positions=10)
    assert report.ok, report.failures
    assert report.checked["playout"] >= 10


def test_check_game_catches_a_wrong_count_of_decisions():
    class Miscounted(ThenThereWasOne):
        def random_playout(self, state, rng, seat_rngs=None, max_steps=1_000_000, max_turns=None, log=None):
            played = super().random_playout(state, rng, seat_rngs, max_steps, max_turns, log)
            if log is not None and log.decisions is not None:
                log.decisions += 1
            return played

    report = playtest.check_game(Miscounted(), examples=2, positions=12)
    failures = [f for f in report.failures if f.property == "playout"]
    assert failures and "decisions" in failures[0].message


@pytest.mark.parametrize("params", [{}, {"num_players": 3, "max_rounds": 8},
                                    {"require_open_corridor": True, "token_turn_order": "team_chooses_order"}],
                         ids=lambda p: ",".join(p) or "defaults")
def test_lab_rows_are_the_same_with_and_without_the_playout(params):
    fast = playtest.load("then_there_was_one", **params)
    slow = RulesOnly(**params)
    for seed, max_steps in ((11, 10_000), ("x", 40), (5, 400)):
        job_fast, job_slow = Job(fast, "random", seed=seed, max_steps=max_steps), Job(slow, "random", seed=seed,
                                                                                   max_steps=max_steps)
        for index in range(30):
            assert play_one(job_fast, index) == play_one(job_slow, index), (params, seed, index)


def test_lab_rows_are_the_same_through_simulate():
    results = []
    for game in (playtest.load("then_there_was_one", num_players=3), RulesOnly(num_players=3)):
        with ThreadPoolExecutor(1) as pool:
            results.append(playtest.simulate(game, games=24, seed=4, executor=pool, progress=False).games)
    assert len(results[0]) == 24 and results[0].equals(results[1])


def test_mcts_choices_are_the_same_with_and_without_the_playout():
    fast, slow = playtest.load("then_there_was_one"), RulesOnly()
    assert searches_alike(fast, slow, range(8), lambda seed: 4 + 9 * seed, iterations=30) >= 8
