"""Source's random playout (``playtest/games/source/playout.py``, issue 27) plays exactly what stepping
its rules plays: a digest of many seeded playouts from positions in the middle of games, under
parameter sets that between them change every parameter, each run with

* the state reached, as its JSON form and with the fields equality leaves out (``connected``,
  ``tally``, ``last``: the board, the score and the last-move mark read them), and the steps played,
* the log: the number of legal actions at each decision, the running scores at each turn end, the
  first decider,
* the generators' states afterwards (the same numbers drawn),

made once by the playout and once by :func:`playtest.check.playout_by_rules` (the rules step by step),
must be the same; so must the lab's rows (``simulate``) and the search bot's choices with and without
the playout, and ``check_game``'s "playout" property holds for several parameter sets.
"""

from __future__ import annotations

import hashlib
import random
from concurrent.futures import ThreadPoolExecutor

import pytest

import playtest
from playtest.check import playout_by_rules
from playtest.games.source.rules import Source
from playtest.kernel import Game
from playtest.kernel.game import PlayoutLog
from test_playout import searches_alike

#: between them, every parameter of Source away from its default at least once
VARIANTS = [
    {},
    {"player_colors": "red+blue/yellow+green", "first_color": "yellow",
     "colors_clockwise": ("blue", "red", "green", "yellow")},
    {"player_colors": "red+green/blue+yellow", "board_size": 7, "tokens_per_color": 12, "source_from_supply": False},
    {"ap_per_turn": 4, "first_turn_ap": 1, "cost_capture_connected": 3, "capture_connected_fortified_cost": 2,
     "max_fortify_layers": 3, "center_fortifiable": True, "fortification_scores": True, "territory_value": 4},
    {"action_range": "global", "source_capturable": True, "connection_through_partner": True,
     "remove_fortification_tokens": 2},
    {"cost_place": 0, "cost_fortify": 0, "pass_limit": 2, "end_trigger": "board_empty", "board_size": 5,
     "tokens_per_color": 8},
    {"end_timing": "end_of_turn", "territory_mode": "region", "territory_neighbourhood": "king",
     "tiebreak": "center_connected", "ap_per_turn": 3},
    {"end_timing": "end_of_round", "territory_color_rule": "same_player", "territory_requires_empty": False,
     "edge_counts_as_wall": False, "tiebreak": "draw", "center_mode": "add", "score_connected": 3,
     "score_unconnected": 2, "center_connected_value": 7, "territory_value": 5},
    {"cost_remove_fortification": 2, "cost_capture_unconnected": 2, "cost_capture_unconnected_fortified": 2,
     "max_fortify_layers": 0, "territory_color_rule": "same_player", "territory_mode": "region",
     "connection_through_partner": True, "end_trigger": "board_empty", "end_timing": "end_of_turn",
     "tokens_per_color": 10, "pass_limit": 8, "cost_capture_connected": 1},
]


def test_the_variants_change_every_parameter():
    changed = {name for variant in VARIANTS for name in variant}
    assert changed == set(playtest.load("source").params.to_json())


class RulesOnly(Source):
    """Source without its playout: the lab and the search bot step the rules."""

    random_playout = Game.random_playout  # type: ignore[assignment]


def _run(way, start, seed, seat_rngs, max_steps, max_turns):
    """One playout's full record: what it reached, its log, and the generators afterwards."""
    rng = random.Random(seed)
    rngs = [random.Random(f"{seed}:{s}") for s in range(2)] if seat_rngs else None
    log = PlayoutLog(scores=True)
    state, steps = way(start, rng, rngs, max_steps=max_steps, max_turns=max_turns, log=log)
    return (state.to_json(), state, state.connected, state.tally, state.last, steps, log.options, log.scores,
            log.first, rng.getstate(), [r.getstate() for r in rngs or ()])


def digests(game, runs: int = 60) -> tuple[str, str, dict[str, int]]:
    """(the playout's digest, the rules' digest, what the runs covered) of ``runs`` playouts of ``game``
    from positions reached by random play (the start, the middle of a turn, the end)."""
    fast, slow = hashlib.sha256(), hashlib.sha256()
    seen = {"whole games": 0, "capped": 0, "mid-turn starts": 0, "decisions": 0, "finished starts": 0}
    for seed in range(runs):
        draw = random.Random(seed)
        start, _ = playout_by_rules(game, game.initial_state(), random.Random(seed + 1000),
                                    max_steps=draw.choice([0, draw.randrange(1, 40), draw.randrange(1, 40),
                                                              draw.randrange(40, 150), 1_000_000]))
        max_turns = draw.choice([None, None, 1, 2, 5])
        max_steps = draw.choice([1_000_000, 1_000_000, 0, 3, draw.randrange(1, 60)])
        per_seat = draw.random() < 0.5
        mine = _run(game.random_playout, start, seed, per_seat, max_steps, max_turns)
        rules = _run(lambda *a, **k: playout_by_rules(game, *a, **k), start, seed, per_seat, max_steps, max_turns)
        assert mine == rules, (game.params.changed(), seed, [k for k, (x, y) in enumerate(zip(mine, rules)) if x != y])
        fast.update(repr(mine).encode())
        slow.update(repr(rules).encode())
        seen["whole games"] += game.to_move(mine[1]) is None
        seen["capped"] += game.to_move(mine[1]) is not None
        seen["mid-turn starts"] += start.acted and not start.over
        seen["finished starts"] += game.to_move(start) is None
        seen["decisions"] += len(mine[6])
    return fast.hexdigest(), slow.hexdigest(), seen


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: ",".join(v) or "defaults")
def test_the_playout_plays_the_rules(variant):
    game = playtest.load("source", **variant)
    mine, rules, seen = digests(game)
    assert mine == rules
    assert seen["whole games"] >= 5 and seen["capped"] >= 5 and seen["finished starts"] >= 3, seen
    assert seen["mid-turn starts"] >= 5, seen
    assert seen["decisions"] >= 200, seen


#: hand-written positions: a turn half played, a two-layer stack, a supply run out with the end at the
#: end of the round, a finished game
POSITIONS = [
    ({}, {"board": ["rrr.....b", "r..R....b", "........b", "....Y....", ".........", ".........", "....g....",
                    "g.......y", "gg.....yy"],
          "to_move": "blue", "ap_left": 1, "acted": True, "passes": 0, "turn": 9, "last": ["i2"]}),
    ({"max_fortify_layers": 2, "ap_per_turn": 3},
     {"board": ["r R2 r . . . . . b", "r . . . . . . B b", ". . . . . . . . .", ". . . . . . . . .",
                ". . . . . . . . .", ". . . . . . . . .", ". . . . . . . . .", "g . . . . . . . y",
                "G2 g . . . . . y y"],
      "to_move": "yellow", "passes": 3, "turn": 22}),
    ({"end_timing": "end_of_round", "tokens_per_color": 6},
     {"board": ["rrrrrr..b", ".........", ".........", ".........", ".........", ".........", ".........",
                ".........", "g.......y"], "to_move": "blue", "turn": 13}),
    ({}, {"board": ["rrr.....b", ".........", ".........", ".........", ".........", ".........", ".........",
                    ".........", "g.......y"], "over": "red's supply ran out", "ap_left": 0, "acted": True}),
]


@pytest.mark.parametrize("variant, position", POSITIONS)
def test_the_playout_plays_the_rules_from_hand_written_positions(variant, position):
    game = playtest.load("source", **variant)
    start = game.state_from_json(position)
    for seed in range(12):
        for max_turns in (None, 1, 3):
            per_seat = seed % 2 == 0
            mine = _run(game.random_playout, start, seed, per_seat, 1_000_000, max_turns)
            rules = _run(lambda *a, **k: playout_by_rules(game, *a, **k), start, seed, per_seat, 1_000_000, max_turns)
            assert mine == rules, (variant, seed, max_turns)


def test_a_finished_game_or_no_steps_draws_nothing_and_gives_the_position_back():
    game = playtest.load("source")
    over = game.state_from_json(POSITIONS[3][1])
    start = game.initial_state()
    for state, max_steps in ((over, 1_000_000), (start, 0)):
        rng = random.Random(4)
        before = rng.getstate()
        log = PlayoutLog(scores=True)
        assert game.random_playout(state, rng, max_steps=max_steps, log=log) == (state, 0)
        assert rng.getstate() == before and log.options == [] and log.scores == []
    log = PlayoutLog(scores=True)
    game.random_playout(start, random.Random(1), max_steps=0, log=log)
    assert log.first == 0                            # red's player decides first, even when nothing is played


@pytest.mark.parametrize("variant", [{}, VARIANTS[1], VARIANTS[4], VARIANTS[7]],
                         ids=lambda v: ",".join(v) or "defaults")
def test_check_game_checks_sources_playout(variant):
    report = playtest.check_game("source", examples=2, seed=5, positions=15, **variant)
    report.assert_ok()
    assert report.checked["playout"] >= 10


@pytest.mark.parametrize("variant", [{}, {"player_colors": "red+blue/yellow+green", "board_size": 7,
                                          "tokens_per_color": 10, "end_timing": "end_of_round"}],
                         ids=["defaults", "pairs in a row"])
def test_simulate_gives_the_same_rows_with_and_without_the_playout(variant, monkeypatch):
    calls = []
    playout = Source.random_playout

    def counted(self, *args, **kwargs):
        calls.append(1)
        return playout(self, *args, **kwargs)

    with ThreadPoolExecutor(1) as pool:           # (in this process: the patches below reach the games)
        monkeypatch.setattr(Source, "random_playout", counted)
        fast = playtest.simulate("source", "random", games=40, seed=7, executor=pool, progress=False, **variant)
        assert len(calls) == 40                   # every game went through the playout
        monkeypatch.setattr(Source, "random_playout", Game.random_playout)
        slow = playtest.simulate("source", "random", games=40, seed=7, executor=pool, progress=False, **variant)
    assert len(calls) == 40
    assert fast.games.equals(slow.games)
    assert fast.games["length"].sum() > 40 * 20
    capped = playtest.simulate("source", "random", games=5, seed=7, max_steps=30, executor=None, progress=False,
                               **variant)
    monkeypatch.setattr(Source, "random_playout", playout)
    again = playtest.simulate("source", "random", games=5, seed=7, max_steps=30, executor=None, progress=False,
                              **variant)
    assert capped.games.equals(again.games)


def test_the_search_bot_chooses_the_same_with_and_without_the_playout():
    fast, slow = playtest.load("source", board_size=7, tokens_per_color=10), RulesOnly(board_size=7,
                                                                                        tokens_per_color=10)
    assert searches_alike(fast, slow, range(6), lambda seed: 2 + 7 * seed, iterations=30) >= 8


class Counted(random.Random):
    """A generator of another class than ``random.Random``: the playout draws through its ``randrange``."""

    def __init__(self, seed):
        super().__init__(seed)
        self.calls = 0

    def randrange(self, *args, **kwargs):
        self.calls += 1
        return super().randrange(*args, **kwargs)


def test_a_generator_of_another_class_is_drawn_through_its_randrange():
    game = playtest.load("source", board_size=7, tokens_per_color=10)
    runs = []
    for way in (game.random_playout, lambda *a, **k: playout_by_rules(game, *a, **k)):
        rngs = [Counted(1), Counted(2)]
        log = PlayoutLog(scores=True)
        state, steps = way(game.initial_state(), random.Random(0), rngs, log=log)
        runs.append((state, steps, log, [r.calls for r in rngs], [r.getstate() for r in rngs]))
    assert runs[0] == runs[1]
    assert sum(runs[0][3]) == runs[0][1] > 20               # one draw a step, every step a decision
