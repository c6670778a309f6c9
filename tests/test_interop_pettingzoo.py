"""Kit games as PettingZoo environments (issue 24, point 2): every game passes PettingZoo's own
``api_test`` and ``seed_test`` (few cycles for the long ones), and the simultaneous games its
``parallel_api_test``. Skipped, with the reason, where ``pettingzoo`` is not installed.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="pettingzoo is in the interop extra")

from pettingzoo.test import api_test, parallel_api_test, seed_test  # noqa: E402

from playtest.interop.pettingzoo import env, parallel_env  # noqa: E402

GAMES = ["tic_tac_toe", "connect_four", "kuhn_poker", "goofspiel", "secret_bid", "eat_thyself", "source",
         "corner_rush", "then_there_was_one", "back_to_the_wall"]
LONG = {"corner_rush", "then_there_was_one", "back_to_the_wall"}


@pytest.mark.parametrize("name", GAMES)
def test_api_and_seed(name):
    cycles = 8 if name in LONG else 40
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(name), num_cycles=cycles, verbose_progress=False)
        seed_test(lambda: env(name), num_cycles=cycles)


@pytest.mark.parametrize("name", ["goofspiel", "secret_bid", "back_to_the_wall"])
def test_parallel_api(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_api_test(parallel_env(name), num_cycles=8 if name in LONG else 40)


def test_masks_and_observations_follow_the_rules():
    e = env("kuhn_poker")
    e.reset(seed=4)
    seat = e.agent_selection
    obs = e.observe(seat)
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].sum() == 2
    other = [a for a in e.agents if a != seat][0]
    assert e.observe(other)["action_mask"].sum() == 0
    mine = bytes(obs["observation"]).rstrip(b"\0").decode()
    theirs = bytes(e.observe(other)["observation"]).rstrip(b"\0").decode()
    assert mine != theirs                      # each sees its own card only
    with pytest.raises(ValueError, match="not legal"):
        e.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))


def test_a_whole_game_pays_the_returns():
    e = env("tic_tac_toe")
    e.reset(seed=2)
    rng = np.random.default_rng(2)
    total = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        _, reward, term, trunc, _ = e.last()
        total[agent] += reward
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(e.observe(agent)["action_mask"]))))
    assert sum(total.values()) == 0.0


def test_parallel_needs_simultaneous_steps():
    with pytest.raises(ValueError, match="no simultaneous steps"):
        parallel_env("tic_tac_toe")


@pytest.mark.parametrize("name", ["goofspiel", "secret_bid", "back_to_the_wall"])
def test_parallel_seed(name):
    from pettingzoo.test.seed_test import parallel_seed_test
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_seed_test(lambda: parallel_env(name), num_cycles=8 if name in LONG else 40)


def test_back_to_the_wall_parallel_steps_whole_orders():
    """Issue 24, point 2: in the parallel form an agent's action is its whole order; Back to the
    Wall's orders are too many to number, so an order is the vector of its parts' ids."""
    from playtest.games.back_to_the_wall import AddWall, Direct, Submit
    par = parallel_env("back_to_the_wall", order_parts=6)
    space = par.action_space("seat_0")
    none = par.shape.encoding.capacity
    assert list(space.nvec) == [none + 1] * 6 and par.action_space("seat_0") is space
    obs, _ = par.reset(seed=5)
    masks = obs["seat_0"]["action_mask"]
    encode = par.shape.encoding.encode
    wall, second = encode(AddWall(0, 1, (3, 4))), encode(AddWall(0, 0, (2, 2)))
    assert len(masks) == 6 and masks[0][none] == 1 and masks[0][wall] == 1
    assert masks[0][encode(Submit(1))] == 0                          # another seat's part: not North's
    north = [wall, encode(AddWall(0, 0, (1, 1))), second,            # Once takes 1 wall: the second is skipped
             encode(Direct(0, 0, 0, 1, "right")), encode(Submit(2)), none]
    _, rewards, terms, _, _ = par.step({"seat_0": north})            # the others give nothing: completed
    state = par.play.state
    assert state.round == 2 and not any(terms.values())             # every order given: the round resolved
    results = {(par.game.params.board_names[b], par.game.tables[b].label(c)): seats
               for b, c, seats, _ in state.last}
    assert results == {("Twice", "d5"): (0,), ("Once", "b2"): (0,)}
    moved = par.play.history
    assert [a for _, a, s, _ in moved if s == 0][:4] == [AddWall(0, 1, (3, 4)), AddWall(0, 0, (1, 1)),
                                                         Direct(0, 0, 0, 1, "right"), Submit(0)]
    assert sum(1 for _, a, s, _ in moved if isinstance(a, Submit)) == 4
    with pytest.raises(ValueError, match="order_parts"):
        parallel_env("back_to_the_wall", order_parts=0)


def test_an_action_id_must_be_a_whole_number():
    """A float, a text or a flag is not an id: refused by name, and nothing is played."""
    from playtest.interop.pettingzoo import env

    e = env("eat_thyself")
    e.reset(seed=0)
    agent = e.agent_selection
    legal = [int(i) for i in np.flatnonzero(e.observe(agent)["action_mask"])]
    for bad in (float(legal[0]), str(legal[0]), True):
        with pytest.raises(ValueError, match="whole-number id"):
            e.step(bad)
        assert e.agent_selection == agent
    e.step(np.int64(legal[0]))
    assert e.agent_selection != agent
