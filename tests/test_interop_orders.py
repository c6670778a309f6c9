"""Orders built part by part as OpenSpiel's simultaneous node over complete orders (issue 24,
point 1): Secret Bid maps to a simultaneous OpenSpiel game that passes ``random_sim_test``, CFR
on its turn-based form converges, other seats' parts stay hidden, and a game whose orders pass
the bound keeps the sequential-with-hidden-orders form. Plus the adapter's fast paths (the
encoding's ``ids``, the lazily drawn chance steps) agree with the slow ones.
Skipped, with the reason, where ``open_spiel`` is not installed (the ``interop`` extra).
"""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is in the interop extra (CPython 3.11+)")

import playtest  # noqa: E402
from playtest.interop import orders as orders_module  # noqa: E402
from playtest.interop.core import KitPlay, KitShape  # noqa: E402
from playtest.interop.openspiel import kit_state, register  # noqa: E402
from playtest.interop.orders import complete_orders  # noqa: E402
from playtest.kernel.encoding import ActionEncoding  # noqa: E402

SMALL = dict(rounds=1, deck=(1, 2), die_faces=2, max_bid=1, coins=1)


def _to_orders(state):
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def test_secret_bid_is_a_simultaneous_game_over_complete_orders():
    game = register("secret_bid")
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    state = _to_orders(game.new_initial_state())
    assert state.is_simultaneous_node()
    mine, theirs = state.legal_actions(0), state.legal_actions(1)
    assert len(mine) == len(theirs) == 8                     # bids 0-3, card staked or not
    names = [state.action_to_string(0, a) for a in mine]
    assert len(set(names)) == 8 and all(n.endswith("submit 0") for n in names)
    assert "bid 0 2, stake 0 yes, submit 0" in names
    # one joint action resolves the round: every part of both orders is played
    before = kit_state(state)
    state.apply_actions([mine[0], theirs[-1]])
    after = kit_state(state)
    assert after.round == before.round + 1 and after.last is not None
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def test_other_seats_parts_are_not_in_the_information_state():
    game = register("secret_bid")
    state = _to_orders(game.new_initial_state())
    names = {state.action_to_string(1, a): a for a in state.legal_actions(1)}
    state.apply_actions([state.legal_actions(0)[0], names["bid 1 3, stake 1 yes, submit 1"]])
    north, south = state.information_state_string(0), state.information_state_string(1)
    assert "South changes their order" not in north and "South submitted" in north     # its completing part only
    assert "South bids 3" in south and "South stakes their card" in south              # its own parts, all
    assert "North changes their order" not in south


def test_a_bad_joint_action_is_refused():
    game = register("secret_bid")
    state = _to_orders(game.new_initial_state())
    with pytest.raises(Exception, match="not legal for seat 1"):
        state.apply_actions([state.legal_actions(0)[0], state.legal_actions(0)[0]])   # seat 0's order for seat 1


def test_cfr_on_the_turn_based_form_converges():
    from open_spiel.python import policy
    from open_spiel.python.algorithms import cfr, exploitability, expected_game_score
    game = register("secret_bid", **SMALL)
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    turns = pyspiel.convert_to_turn_based(game)
    uniform = exploitability.nash_conv(turns, policy.UniformRandomPolicy(turns))
    solver = cfr.CFRSolver(turns)
    for _ in range(30):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    assert exploitability.nash_conv(turns, average) < min(0.1, uniform / 10)
    # the seats are alike and the game is zero-sum: its value is 0 for each
    value = expected_game_score.policy_value(turns.new_initial_state(), [average, average])
    assert value[0] == pytest.approx(0.0, abs=0.02) and sum(value) == pytest.approx(0.0, abs=1e-9)


def test_orders_past_the_bound_keep_the_hidden_orders_form(monkeypatch):
    game = playtest.load("secret_bid", coins=4)         # parameters of its own: explored afresh
    state = game.state_from_json({"prize": 2, "cards": [1, 2], "coins": [4, 4]})
    assert complete_orders(game, state, 0, limit=5) is None              # the search's bound
    monkeypatch.setattr(orders_module, "MAX_JOINT_ORDERS", 63)           # 8 x 8 joint orders is past it
    shape = KitShape.of(game)
    assert shape.form == "hidden_orders" and shape.orders is None and shape.completing == {"submit"}
    monkeypatch.undo()
    assert KitShape.of(game, seed=1).form == "orders"


def test_back_to_the_wall_keeps_hidden_orders():
    shape = KitShape.of(playtest.load("back_to_the_wall"))
    assert shape.form == "hidden_orders" and shape.completing == {"submit"}


def test_encoding_ids_agree_with_encode():
    rng = random.Random(2)
    for name in ("source", "eat_thyself", "secret_bid", "goofspiel"):
        game = playtest.load(name)
        fast, slow = ActionEncoding.for_game(game), ActionEncoding.for_game(game, games=3)
        state = game.initial_state()
        for _ in range(40):
            mover = game.to_move(state)
            if mover is None:
                break
            if mover == playtest.CHANCE:
                state = game.apply(state, game.chance_outcome(state, rng))
                continue
            listed = game.legal_actions(state)
            assert fast.ids(listed) == [fast.encode(a) for a in listed]
            assert slow.ids(iter(listed)) == [slow.encode(a) for a in listed]      # spare ids too
            state = game.apply(state, rng.choice(listed))


def test_uncounted_chance_is_drawn_lazily_and_replays():
    game = register("then_there_was_one")
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 32 and sum(p for _, p in outcomes) == pytest.approx(1.0)
    names = [state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a, _ in outcomes[:3]]
    assert len(set(names)) == 3 and names[0].startswith("draw 1 of 32: ")
    first = state.clone()
    first.apply_action(outcomes[5][0])
    again = game.new_initial_state()
    again.apply_action(outcomes[5][0])
    assert kit_state(first) == kit_state(again)


def test_clones_share_the_set_up():
    game = register("secret_bid")
    one, two = game.new_initial_state(), game.new_initial_state()
    assert kit_state(one) is kit_state(two) is kit_state(one.clone())
    play = KitPlay(KitShape.of(playtest.load("secret_bid")))
    assert play.state is kit_state(one)


@pytest.mark.parametrize("name", ["kuhn_poker", "goofspiel", "secret_bid", "source"])
def test_python_queries_answer_as_openspiel_does(name):
    """The state answers ``legal_actions``, ``is_chance_node``... in Python; OpenSpiel's own C++
    path (called on the base class) gives the same answers at every step of a random game."""
    game = register(name)
    rng = random.Random(4)
    base = pyspiel.State
    state = game.new_initial_state()
    players = range(game.num_players())
    while True:
        assert state.legal_actions() == base.legal_actions(state)
        for p in players:
            assert state.legal_actions(p) == base.legal_actions(state, p)
        for query in ("is_chance_node", "is_simultaneous_node", "is_player_node", "is_terminal", "current_player"):
            assert getattr(state, query)() == getattr(base, query)(state), query
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in players])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    for ask in (state.legal_actions, lambda p: base.legal_actions(state, p)):
        with pytest.raises(Exception, match="pseudo-player"):
            ask(-3)                                         # OpenSpiel's own refusal, both ways


def test_the_last_seats_order_is_complete_though_the_next_round_has_every_seat_pending():
    """The last order in resolves the round; in Back to the Wall the next round has every seat
    pending again, so "the seat is no longer pending" alone missed that its order was complete."""
    game = playtest.load("back_to_the_wall")
    rng = random.Random(3)
    state = game.initial_state()
    while game.to_move(state) == playtest.CHANCE:
        state = game.apply(state, game.chance_outcome(state, rng) if hasattr(game, "chance_outcome")
                           else rng.choice([o for o, _ in game.chance_outcomes(state)]))
    assert game.to_move(state) == playtest.SIMULTANEOUS
    *first, last = game.pending_seats(state)
    for seat in first:
        for part in game.random_order_parts(state, seat, rng):
            before, state = state, game.apply(state, part)
        assert orders_module.order_done(game, before, state, seat)
    parts = game.random_order_parts(state, last, rng)
    for i, part in enumerate(parts):
        before, state = state, game.apply(state, part)
        assert orders_module.order_done(game, before, state, last) == (i == len(parts) - 1)
    assert game.to_move(state) == playtest.SIMULTANEOUS and last in game.pending_seats(state)
