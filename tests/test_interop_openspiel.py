"""Kit games as OpenSpiel games (issue 24, point 1): every registered game passes OpenSpiel's own
``random_sim_test`` with serialization, round-trips through ``serialize_game_and_state``, keeps
its secrets in its information states, and CFR on Kuhn poker finds OpenSpiel's own answer.
Skipped, with the reason, where ``open_spiel`` is not installed (the ``interop`` extra).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is in the interop extra (CPython 3.11+)")

import playtest  # noqa: E402
from playtest.interop.openspiel import kit_state, register  # noqa: E402

EXAMPLES = ["tic_tac_toe", "connect_four", "kuhn_poker", "goofspiel", "secret_bid"]
SHORT = ["eat_thyself", "source"]
LONG = ["corner_rush", "then_there_was_one", "back_to_the_wall"]


@pytest.mark.parametrize("name", EXAMPLES + SHORT + LONG)
def test_random_sim_test(name):
    game = register(name)
    # the long games (hundreds to thousands of steps) run one game, without OpenSpiel's
    # serialization at every step (it replays the history each time); test_serialize_round_trip
    # and test_long_games_serialize cover it
    pyspiel.random_sim_test(game, num_sims=1 if name in LONG else 3, serialize=name not in LONG, verbose=False)


@pytest.mark.parametrize("name", LONG)
def test_long_games_serialize(name):
    game = register(name)
    rng = random.Random(5)
    state = game.new_initial_state()
    for _ in range(60):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    game2, state2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(state2) == str(state) and kit_state(state2) == kit_state(state)


@pytest.mark.parametrize("name", EXAMPLES + SHORT)
def test_serialize_round_trip(name):
    game = register(name)
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        text = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(state2) == str(state) and state2.history() == state.history()
        assert kit_state(state2) == kit_state(state)
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_game_types_are_declared_or_inferred():
    kuhn, goof, bid, ttt = (register(n) for n in ("kuhn_poker", "goofspiel", "secret_bid", "tic_tac_toe"))
    GT = pyspiel.GameType
    assert kuhn.get_type().information == GT.Information.IMPERFECT_INFORMATION
    assert kuhn.get_type().chance_mode == GT.ChanceMode.EXPLICIT_STOCHASTIC
    assert kuhn.max_game_length() == 5 and kuhn.min_utility() == -2 and kuhn.max_utility() == 2
    assert goof.get_type().dynamics == GT.Dynamics.SIMULTANEOUS          # one-action orders
    assert bid.get_type().dynamics == GT.Dynamics.SIMULTANEOUS            # complete orders, listed
    assert bid.get_type().information == GT.Information.IMPERFECT_INFORMATION
    assert ttt.get_type().information == GT.Information.PERFECT_INFORMATION
    assert ttt.get_type().provides_observation_tensor and ttt.observation_tensor_shape() == [4, 3, 3]
    corner = register("corner_rush")                                      # old-style: has_secrets, no game_type
    assert corner.get_type().information == GT.Information.IMPERFECT_INFORMATION


def test_parameters_pass_through():
    game = register("connect_four", cols=5, rows=4)
    assert game.num_distinct_actions() >= 5
    assert kit_state(game.new_initial_state()).columns == ((),) * 5
    bid = register("secret_bid", rounds=3, deck=(1, 2, 3))
    assert pyspiel.load_game(str(bid)).get_parameters()["deck"] == "1 2 3"


def test_information_states_carry_only_what_the_seat_may_know():
    game = register("kuhn_poker")
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[2][0])     # seat 0 gets the king
    state.apply_action(state.chance_outcomes()[0][0])     # seat 1 the jack
    first, second = state.information_state_string(0), state.information_state_string(1)
    assert "K is dealt to seat 0" in first and "K" not in second.replace("kind", "")
    other = game.new_initial_state()
    other.apply_action(other.chance_outcomes()[2][0])
    other.apply_action(other.chance_outcomes()[1][0])     # seat 1 the queen: seat 0 cannot tell
    assert other.information_state_string(0) == first and other.information_state_string(1) != second
    assert state.observation_string(1) != state.observation_string(0)


def test_goofspiel_bids_are_secret_until_revealed():
    game = register("goofspiel", cards=4)
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    assert state.is_simultaneous_node()
    a, b = game.new_initial_state(), None
    a = state.clone()
    a.apply_actions([state.legal_actions(0)[0], state.legal_actions(1)[0]])
    b = state.clone()
    b.apply_actions([state.legal_actions(0)[0], state.legal_actions(1)[1]])
    assert a.information_state_string(0) != b.information_state_string(0)   # revealed once resolved


def test_action_ids_are_stable_across_runs():
    code = ("import json, playtest; from playtest.kernel.encoding import ActionEncoding; "
            "g = playtest.load('source'); e = ActionEncoding.for_game(g); "
            "s = g.initial_state(); print(json.dumps([e.size] + [e.encode(a) for a in g.legal_actions(s)]))")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
            for _ in range(2)]
    assert runs[0] == runs[1] and len(json.loads(runs[0])) > 2


def test_cfr_solves_kuhn_poker():
    from open_spiel.python.algorithms import cfr, exploitability, expected_game_score
    game = register("kuhn_poker")
    solver = cfr.CFRSolver(game)
    for _ in range(60):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    reference = cfr.CFRSolver(pyspiel.load_game("kuhn_poker"))
    for _ in range(60):
        reference.evaluate_and_update_policy()
    ours = exploitability.exploitability(game, policy)
    assert ours == pytest.approx(exploitability.exploitability(pyspiel.load_game("kuhn_poker"),
                                                               reference.average_policy()), abs=1e-9)
    assert ours < 0.02
    value = expected_game_score.policy_value(game.new_initial_state(), [policy, policy])[0]
    assert value == pytest.approx(-1 / 18, abs=0.01)


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="nosuch"):
        register("nosuch")
    with pytest.raises(ValueError, match="cols"):
        register("connect_four", cols=99)
    game = register("tic_tac_toe")
    state = game.new_initial_state()
    state.apply_action(4)
    with pytest.raises(Exception, match="not legal"):
        state.apply_action(4)


def test_import_playtest_imports_no_interop():
    code = "import sys, playtest; playtest.load('tic_tac_toe'); print('pyspiel' in sys.modules, 'playtest.interop' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]
