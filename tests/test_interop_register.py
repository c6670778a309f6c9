"""Registering a kit game with OpenSpiel more than once (issue 24): ``pyspiel.register_game``
takes a name once, with one game type, so a registration whose parameters change the type (the
number of players) or whose options change the encoding gets a name of its own, with those
values as its defaults; each registration plays with its own shape, in the registry too. A load
of a name with parameters that would change its registered type, and a class redefined under a
registered name with another form, are refused with ``ValueError`` naming what changed.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is in the interop extra (CPython 3.11+)")

import playtest  # noqa: E402
from playtest.interop.core import KitShape  # noqa: E402
from playtest.interop.openspiel import kit_state, register  # noqa: E402


def play_out(game, seed=0):
    """A random game to its end: (the seats that moved, the steps)."""
    rng, state, movers, steps = random.Random(seed), game.new_initial_state(), set(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        elif state.is_simultaneous_node():
            movers.update(range(game.num_players()))
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
        else:
            movers.add(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    assert len(state.returns()) == game.num_players()
    return movers, steps


def registry():
    return {t.short_name: t for t in pyspiel.registered_games()}


def test_a_second_registration_with_more_players_gets_its_own_name():
    two = register("eat_thyself")
    three = register("eat_thyself", num_players=3)
    assert two.get_type().short_name == "playtest_eat_thyself"
    name = three.get_type().short_name
    assert name == "playtest_eat_thyself__num_players_3"
    # the registry holds each name's own type
    assert (registry()["playtest_eat_thyself"].max_num_players, registry()[name].max_num_players) == (2, 3)
    # each plays with its own shape: players, actions, longest game, the kit position behind it
    for game, seats in ((two, 2), (three, 3)):
        shape = KitShape.of(playtest.load("eat_thyself", num_players=seats))
        assert game.num_players() == game.get_type().max_num_players == seats
        assert (game.num_distinct_actions(), game.max_game_length()) == (shape.num_actions, shape.max_length)
        assert len(kit_state(game.new_initial_state()).cards) == seats
        movers, _ = play_out(game)
        assert movers == set(range(seats))
    assert two.num_distinct_actions() != three.num_distinct_actions()
    # the first registration is untouched by the second: loaded by name, each gets its own defaults
    assert pyspiel.load_game("playtest_eat_thyself").num_players() == 2
    assert pyspiel.load_game(name).num_players() == 3
    pyspiel.random_sim_test(three, num_sims=2, serialize=True, verbose=False)
    pyspiel.random_sim_test(register("eat_thyself"), num_sims=2, serialize=True, verbose=False)


def test_registering_again_with_the_same_values_gives_the_same_name():
    first, again = register("then_there_was_one", num_players=3), register("then_there_was_one", num_players=3)
    assert first.get_type().short_name == again.get_type().short_name == "playtest_then_there_was_one__num_players_3"
    assert register("then_there_was_one").get_type().short_name == "playtest_then_there_was_one"
    assert first.num_players() == 3 and register("then_there_was_one").num_players() == 4


def test_parameters_that_keep_the_type_share_the_name():
    small = register("connect_four", cols=5, rows=4)
    plain = register("connect_four")
    assert small.get_type().short_name == plain.get_type().short_name == "playtest_connect_four"
    # one name, but each loaded game has its own numbers of actions (and longest game, which
    # Connect Four declares as 144 whatever the board)
    assert small.num_distinct_actions() < plain.num_distinct_actions()
    for game, kit in ((small, playtest.load("connect_four", cols=5, rows=4)), (plain, playtest.load("connect_four"))):
        shape = KitShape.of(kit)
        assert (game.num_distinct_actions(), game.max_game_length()) == (shape.num_actions, shape.max_length)
    assert len(kit_state(small.new_initial_state()).columns) == 5
    play_out(small)
    play_out(plain)


def test_other_options_get_their_own_name_and_leave_the_first_alone():
    plain = register("goofspiel", cards=4)
    fewer = register("goofspiel", cards=4, explore_games=2, seed=7)
    assert plain.get_type().short_name == "playtest_goofspiel"
    assert fewer.get_type().short_name == "playtest_goofspiel__cards_4_explore_games_2_seed_7"
    again = register("goofspiel", cards=4)
    assert again.num_distinct_actions() == plain.num_distinct_actions()
    play_out(fewer)
    play_out(again)


def test_loading_a_name_with_parameters_that_change_its_type_is_refused():
    register("eat_thyself")
    with pytest.raises(Exception, match="num_players=3"):
        pyspiel.load_game("playtest_eat_thyself", {"num_players": 3})


def test_a_class_redefined_with_another_form_is_refused():
    base = type(playtest.load("tic_tac_toe"))
    first = type("Redefined", (base,), {"name": "interop_redefined", "__module__": __name__})
    assert register(first).get_type().short_name == "playtest_interop_redefined"
    # the notebook cell run again with another declaration: the registry cannot follow
    other = type("Redefined", (base,), {"name": "interop_redefined", "__module__": __name__,
                                        "game_type": dataclasses.replace(base.game_type, utility="general_sum")})
    with pytest.raises(ValueError, match="interop_redefined is registered with another game type .*utility"):
        register(other)
