"""Then There Was One's play-out shortcuts give the long way's answers and draws (issue 27).

The clean-path search tries straight runs first, the steps from a tile are kept by what lies
around it, and ``random_step`` carries its masks from one step to the next. Each is held here to a
plain reading written in this file: every allowed step listed afresh, a depth-first search with
no runs and no memo, and the draw without replacement with ``randrange`` (the same numbers the
game's ``rng.choice`` draws), along random games under several parameter sets.
"""

from __future__ import annotations

import random

import pytest

import playtest
from playtest import CHANCE
from playtest.games.then_there_was_one.paths import jump_allowed

VARIANTS = [
    {},
    {"tokens_block_tokens": False, "start_tile_counts": False},
    {"allow_voluntary_revisit": True, "max_jumps_per_turn": 2},
    {"eliminate_when_no_path": False, "jump_allow_obstacle_wall": False},
    {"goal_on_entry": False, "jump_step_cost": 2, "move_length": 8, "max_walls_at_jump_corner": 0},
    {"board_width": 5, "board_length": 7, "initial_obstacles": 9, "num_players": 5, "wall_budget": 20},
]


def plain_allowed(game, state):
    """Every step the board allows, listed from the rules (A.1 §15), north first, then the jumps."""
    B, rules = game.B, state.rules
    pos = state.path[-1]
    walls = state.walls | state.built
    occupied = state.obstacles
    if rules.tokens_block_tokens:
        for seat, t in enumerate(state.tokens, 1):
            if t >= 0 and seat != state.mover:
                occupied |= 1 << t
    out = [(n, False) for n, bit in B.ortho[pos] if not (walls & bit or occupied >> n & 1)]
    if rules.max_jumps_per_turn - state.jumps_used > 0 and \
            rules.move_length - state.steps_taken >= rules.jump_step_cost:
        out += [(e[0], True) for e in B.diag[pos]
                if not occupied >> e[0] & 1 and jump_allowed(e, walls, state.obstacles, rules)]
    return out, walls, occupied


def plain_clean(game, state, cell, k, jumps, blocked, walls):
    """A clean path of exactly ``k`` more steps from ``cell``: depth-first, nothing kept."""
    B, rules = game.B, state.rules
    goal = B.goal if rules.goal_on_entry else 0
    if k <= 0:
        return True
    for n, bit in B.ortho[cell]:
        if not (walls & bit or blocked >> n & 1) and (
                k == 1 or goal >> n & 1 or plain_clean(game, state, n, k - 1, jumps, blocked | 1 << n, walls)):
            return True
    if jumps > 0 and k >= rules.jump_step_cost:
        for e in B.diag[cell]:
            d = e[0]
            if not blocked >> d & 1 and jump_allowed(e, walls, state.obstacles, rules) and (
                    k == rules.jump_step_cost or goal >> d & 1
                    or plain_clean(game, state, d, k - rules.jump_step_cost, jumps - 1, blocked | 1 << d, walls)):
                return True
    return False


def plain_clean_steps(game, state):
    rules = state.rules
    allowed, walls, occupied = plain_allowed(game, state)
    visited = 1 << state.path[0] if rules.start_tile_counts else 0
    for i in state.path[1:]:
        visited |= 1 << i
    k = rules.move_length - state.steps_taken
    jumps = rules.max_jumps_per_turn - state.jumps_used
    goal = game.B.goal if rules.goal_on_entry else 0
    clean = []
    for n, jump in allowed:
        cost = rules.jump_step_cost if jump else 1
        if not visited >> n & 1 and (k == cost or goal >> n & 1 or plain_clean(
                game, state, n, k - cost, jumps - jump, occupied | visited | 1 << n, walls)):
            clean.append((n, jump))
    start = plain_clean(game, state, state.path[-1], k, jumps, occupied | visited, walls)
    return allowed, clean, start


def plain_random_step(game, state, rng):
    """Uniform among the clean steps: drawn without replacement from the allowed ones (randrange, swap, pop)."""
    allowed, clean, _ = plain_clean_steps(game, state)
    if state.rules.allow_voluntary_revisit:
        return rng.choice(allowed)
    pool = list(allowed)
    while pool:
        pick = rng.randrange(len(pool))
        pool[pick], pool[-1] = pool[-1], pool[pick]
        step = pool.pop()
        if step in clean:
            return step
    return rng.choice(allowed)


@pytest.mark.parametrize("params", VARIANTS)
def test_shortcuts_answer_and_draw_as_the_plain_reading(params):
    game = playtest.load("then_there_was_one", **params)
    rng = random.Random(len(params))
    asked = 0
    for _ in range(3):
        state = game.initial_state()
        for step in range(2500):
            mover = game.to_move(state)
            if mover is None:
                break
            if mover == CHANCE:
                action = game.chance_outcome(state, rng)
            else:
                if state.phase == "token":
                    allowed, clean, start = plain_clean_steps(game, state)
                    seed = rng.random()
                    assert game.paths.random_step(state, random.Random(seed)) == \
                        plain_random_step(game, state, random.Random(seed))
                    assert game.allowed_steps(state) == allowed
                    assert game.token_moves(state)[0] == clean
                    if not state.path[1:]:
                        assert game.has_clean_path(state) == start
                    asked += 1
                action = game.random_action(state, rng)      # the kept masks carry on to the next step
            state = game.effect(state, action)
    assert asked > 20
