"""The OpenSpiel adapter's per-position memo (:class:`playtest.interop.core.StateMemo`): what a
play lists at a position is remembered for the next play that meets it, exactly (the same ids
and outcomes as listing afresh), only for positions that compare every field, and it turns
itself off where it does not pay. Skipped, with the reason, where ``open_spiel`` is not installed."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (the interop extra)")

import playtest  # noqa: E402
from playtest.interop.core import MEMO_TRIAL, KitPlay, KitShape  # noqa: E402
from playtest.interop.openspiel import kit_state, register  # noqa: E402


def _random_states(game, games, seed=0):
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            yield state
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            elif state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
            else:
                state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", ["kuhn_poker", "tic_tac_toe", "goofspiel"])
def test_remembered_listings_are_the_listings(name):
    game = register(name)
    for state in _random_states(game, 60):
        fresh = KitPlay(KitShape.of(playtest.load(name), stages="none"), kit_state(state))   # its own shape: no memo
        if state.is_chance_node():
            assert state.chance_outcomes() == fresh.chance_outcomes()
        elif state.is_simultaneous_node():
            for seat in range(game.num_players()):
                assert state.legal_actions(seat) == fresh.legal_ids(seat)
        else:
            assert state.legal_actions() == fresh.legal_ids(state.current_player())
    assert game.shape.state_memo.hits > 0


def test_a_caller_that_changes_a_listing_changes_no_other_state():
    game = register("kuhn_poker")
    for _ in range(3):
        state = game.new_initial_state()
        state.chance_outcomes().clear()
        state.apply_action(0)
        state.apply_action(state.chance_outcomes()[0][0])
        state.legal_actions().clear()
        assert state.legal_actions() == [game.shape.encoding.encode(a) for a in game.shape.game.legal_actions(
            kit_state(state))]
    assert game.new_initial_state().chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]


def test_the_memo_is_off_where_it_could_be_wrong_or_does_not_pay():
    # Eat Thyself's position has a field that equality does not compare: never remembered
    game = register("eat_thyself")
    for _ in zip(range(200), _random_states(game, 5)):
        pass
    assert not game.shape.state_memo.on and not game.shape.state_memo.table
    # Goofspiel's random games rarely meet a position twice: off after the trial
    game = register("goofspiel")
    for _ in zip(range(MEMO_TRIAL * 4), _random_states(game, 1000)):
        pass
    assert not game.shape.state_memo.on
    # Corner Rush lists the same die objects: its chance listings are numbered once
    game = register("corner_rush")
    for _ in zip(range(400), _random_states(game, 5)):
        pass
    assert game.shape.outcome_memo.on and game.shape.outcome_memo.hits > 0
