"""Then There Was One's speed-ups for the OpenSpiel adapter (issue 24) keep the rules' answers.

The clean-path search is an object (:class:`CleanSearch`), not a closure that calls itself: a
search dropped (the walls changed) leaves no reference cycle for the garbage collector. A token
step's listing asks the search past the straight runs it has just looked at (``beyond``): the same
answer as the whole search. (That ``move_masks`` lists the legal token moves is held in
``test_interop_speedups.py`` and ``test_interop_runs.py``.)
"""

from __future__ import annotations

import gc
import random

import pytest

import playtest
from playtest import CHANCE
from playtest.games.then_there_was_one.paths import CleanSearch


def _token_states(game, games: int, seed: int):
    """Positions of random games (a uniform pick over the listing) where a token is to move."""
    rng = random.Random(seed)
    for _ in range(games):
        state = game.initial_state()
        while game.to_move(state) is not None:
            if game.to_move(state) == CHANCE:
                action = game.chance_outcome(state, rng)
            else:
                if state.phase == "token":
                    yield state
                action = rng.choice(game.legal_actions(state))
            state = game.apply(state, action, check=False)


def test_play_through_the_listing_leaves_no_reference_cycles():
    """Listing runs and stepping (what the adapter asks) over whole games: nothing for the collector."""
    game = playtest.load("then_there_was_one")
    rng = random.Random(5)
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        steps = 0
        for _ in range(4):
            state = game.initial_state()
            while game.to_move(state) is not None:
                if game.to_move(state) == CHANCE:
                    action = game.chance_outcome(state, rng)
                else:
                    game.legal_runs(state)
                    action = rng.choice(game.legal_actions(state))
                state = game.effect(state, action)
                steps += 1
        gc.collect()
        left = [type(o).__name__ for o in gc.garbage]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()
    assert steps > 200
    assert left == []


@pytest.mark.parametrize("params", [{}, {"max_jumps_per_turn": 2, "jump_step_cost": 2}, {"goal_on_entry": False}])
def test_the_search_past_its_straight_runs_answers_as_the_whole_search(params):
    game = playtest.load("then_there_was_one", **params)
    asked = 0
    for state in _token_states(game, 3, seed=11):
        rules = state.rules
        walls = state.walls | state.built
        occupied, visited = game.paths.masks(state)
        k = rules.move_length - state.steps_taken
        jumps = rules.max_jumps_per_turn - state.jumps_used
        runs = game.B.runs(rules.goal_on_entry, rules.move_length)
        for n, bit in game.B.ortho[state.path[-1]]:
            left, blocked = k - 1, occupied | visited | 1 << n
            if left < 1 or any(not (t & blocked or e & walls) for t, e in runs[n][left]):
                continue
            fresh = CleanSearch(game.B, walls, state.obstacles, rules)   # (nothing remembered)
            assert fresh.beyond(n, left, jumps, blocked) == CleanSearch(game.B, walls, state.obstacles, rules)(
                n, left, jumps, blocked)
            asked += 1
    assert asked > 20
