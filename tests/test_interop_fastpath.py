"""The OpenSpiel adapter's fast steps (an id of the listing just made, a chance outcome just
listed, every seat's listed id at a simultaneous node) play what the checked path plays, and
anything else still goes to the checked path and is refused with the reason."""

import random

import pytest

pytest.importorskip("pyspiel")

from playtest.interop.core import CHANCE_ID, SIM, TERMINAL, KitPlay, KitShape  # noqa: E402
from playtest.interop.openspiel import register, kit_state  # noqa: E402

import playtest  # noqa: E402

GAMES = ["eat_thyself", "corner_rush", "goofspiel", "source", "kuhn_poker", "secret_bid", "then_there_was_one"]


def _sample(outcomes, z):
    total = 0.0
    for action, p in outcomes:
        total += p
        if total > z:
            return action
    return outcomes[-1][0]


@pytest.mark.parametrize("name", GAMES)
def test_fast_steps_play_what_the_checked_path_plays(name):
    game = playtest.load(name)
    spiel = register(game)
    shape = KitShape.of(game)
    rng = random.Random(7)
    for _ in range(3 if name in ("corner_rush", "then_there_was_one") else 10):
        state = spiel.new_initial_state()
        slow = KitPlay(shape)
        steps = 0
        while not state.is_terminal() and steps < 400:
            if state.is_chance_node():
                code = _sample(state.chance_outcomes(), rng.random())
                state.apply_action(code)
                slow._legal, slow._chance = {}, None          # nothing listed: the checked path
                slow.step(CHANCE_ID, code)
            elif state.is_simultaneous_node():
                codes = [rng.choice(state.legal_actions(p)) for p in range(spiel.num_players())]
                state.apply_actions(codes)
                slow._legal = {}
                slow.step_joint(list(codes))
            else:
                seat = state.current_player()
                code = rng.choice(state.legal_actions())
                state.apply_action(code)
                slow._legal = {}
                slow.step(seat, code)
            assert kit_state(state) == slow.state and state.play.ids == slow.ids
            steps += 1
        assert state.is_terminal() == (slow.current() == TERMINAL) or steps == 400


def test_an_unlisted_or_illegal_id_is_refused_and_loses_nothing():
    spiel = register("eat_thyself")
    state = spiel.new_initial_state()
    legal = state.legal_actions()
    bad = next(i for i in range(spiel.num_distinct_actions()) if i not in legal)
    before = kit_state(state)
    with pytest.raises(Exception, match="not legal"):
        state.apply_action(bad)
    assert kit_state(state) is before and state.legal_actions() == legal


def test_a_chance_id_not_among_the_outcomes_is_refused():
    spiel = register("kuhn_poker")
    state = spiel.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])     # a card dealt: it cannot be dealt again
    dealt = state.play.ids[-1]
    assert state.is_chance_node() and dealt not in [c for c, _ in state.chance_outcomes()]
    with pytest.raises(Exception, match="not a chance outcome"):
        state.apply_action(dealt)


def test_simultaneous_ids_are_checked_seat_by_seat():
    spiel = register("goofspiel", cards=4)
    state = spiel.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    assert state.play.current() == SIM
    left, right = state.legal_actions(0), state.legal_actions(1)
    before = kit_state(state)
    with pytest.raises(Exception, match="not legal"):
        state.apply_actions([left[0], spiel.num_distinct_actions() - 1])    # the pass id: seat 1 has bids
    with pytest.raises(Exception, match="one id per seat"):
        state.apply_actions([left[0]])
    assert kit_state(state) is before
    state.apply_actions([left[0], right[-1]])
    assert kit_state(state) is not before and not state.is_simultaneous_node()


@pytest.mark.parametrize("name", ["kuhn_poker", "secret_bid", "goofspiel", "back_to_the_wall", "eat_thyself"])
def test_information_states_are_the_same_read_at_every_step_or_only_at_the_end(name):
    """A play keeps no earlier position until one is asked for (then replays them): the
    information states read at the end are the ones read step by step."""
    spiel = register(name)
    rng = random.Random(11)
    watched, unread = spiel.new_initial_state(), spiel.new_initial_state()
    players = range(spiel.num_players())
    steps = 0
    while not watched.is_terminal() and steps < 300:
        for p in players:
            watched.information_state_string(p)
        if watched.is_chance_node():
            code = _sample(watched.chance_outcomes(), rng.random())
            watched.apply_action(code)
            unread.apply_action(code)
        elif watched.is_simultaneous_node():
            codes = [rng.choice(watched.legal_actions(p)) for p in players]
            watched.apply_actions(codes)
            unread.apply_actions(codes)
        else:
            code = rng.choice(watched.legal_actions())
            watched.apply_action(code)
            unread.apply_action(code)
        steps += 1
        if steps == 2:                       # a clone made before anything was read reads the same too
            copy = unread.clone()
            expected = [watched.information_state_string(p) for p in players]
    assert unread.play._befores is None and watched.play._befores is not None
    for p in players:
        assert unread.information_state_string(p) == watched.information_state_string(p)
    assert unread.play.history == watched.play.history
    assert [copy.information_state_string(p) for p in players] == expected
