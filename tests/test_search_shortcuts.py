"""The shortcuts the search bot's play-outs take are the long way's answers (issue 27).

Corner Rush draws its random actions and chance outcomes itself (as the kernel's defaults draw
them, the same outcome for the same generator), keeps its last walk masks and step tiles, and
writes several changes in one copy; Then There Was One keeps its clean-path search across calls
and skips the stuck check after an orthogonal step; MCTS play-outs call ``effect`` directly. Each
is held here to the slow path it replaces, along random games under several parameter sets.
"""

from __future__ import annotations

import random

import pytest

import playtest
from playtest import CHANCE
from playtest.games.then_there_was_one.paths import clean_finisher
from playtest.kernel import Game, draw_outcome
from playtest.mcts import _player

CORNER_RUSH_VARIANTS = [
    {},
    {"num_players": 2, "must_use_all_moves": False, "allow_revisit": False},
    {"blocker_placement_mandatory": False, "challenge_removal": "optional",
     "captured_blocker_destination": "removed", "blocker_values": [2, 2, 5], "blockers_per_player": 3},
    {"blocker_draw": "choose", "num_players": 3},
]

TTWO_VARIANTS = [
    {},
    {"tokens_block_tokens": False, "start_tile_counts": False},
    {"allow_voluntary_revisit": True, "max_jumps_per_turn": 2},
    {"eliminate_when_no_path": False, "jump_allow_obstacle_wall": False},
]


def random_states(game, seed: int, games: int = 3, cap: int = 3000):
    """Every position of a few random games (chance drawn by the game), with the generator's seed for each."""
    rng = random.Random(seed)
    for _ in range(games):
        state = game.initial_state()
        for _ in range(cap):
            mover = game.to_move(state)
            if mover is None:
                break
            yield state
            action = game.chance_outcome(state, rng) if mover == CHANCE else rng.choice(game.legal_actions(state))
            state = game.apply(state, action)


@pytest.mark.parametrize("params", CORNER_RUSH_VARIANTS)
def test_corner_rush_draws_as_the_kernel_defaults_draw(params):
    game = playtest.load("corner_rush", **params)
    for k, state in enumerate(random_states(game, seed=len(params))):
        mover = game.to_move(state)
        if mover == CHANCE:
            fast = game.chance_outcome(state, random.Random(k))
            assert fast == draw_outcome(game.chance_outcomes(state), random.Random(k))
        else:
            assert game.random_action(state, random.Random(k)) == random.Random(k).choice(game.legal_actions(state))


@pytest.mark.parametrize("params", CORNER_RUSH_VARIANTS)
def test_corner_rush_kept_tables_answer_as_fresh_ones(params):
    game = playtest.load("corner_rush", **params)
    fresh = playtest.load("corner_rush", **params)
    for state in random_states(game, seed=7):
        if game.to_move(state) is None or game.to_move(state) < 0:
            continue
        for _ in range(2):                      # asked twice: the second answer is the kept one
            assert game.step_tiles(state) == fresh._step_tiles(state, state.steps)
            assert game.walk_masks(state, state.mover) == fresh._walk_masks(state, state.mover)
        assert game.legal_actions(state) == [a for a in fresh.candidates(state, state.mover)
                                             if fresh.why_not(state, a) is None]


@pytest.mark.parametrize("params", TTWO_VARIANTS)
def test_then_there_was_one_kept_search_and_stuck_shortcut(params):
    game = playtest.load("then_there_was_one", **params)
    paths = game.paths
    steps = 0
    for state in random_states(game, seed=3, games=2):
        if state.phase != "token":
            continue
        clean, other = paths.token_moves(state)
        ctx = paths.context(state)
        pos, walls, obstacles, occupied, visited, k, jumps = ctx
        finish = clean_finisher(game.B, walls, obstacles, state.rules)   # a fresh search, nothing kept
        goal = game.B.goal if state.rules.goal_on_entry else 0
        fresh = [(n, j) for n, j in paths.candidates(state, ctx) if not visited >> n & 1 and (
            k == (state.rules.jump_step_cost if j else 1) or goal >> n & 1
            or finish(n, k - (state.rules.jump_step_cost if j else 1), jumps - j, occupied | visited | 1 << n))]
        assert clean == fresh
        assert paths.has_clean_path(state) == finish(pos, k, jumps, occupied | visited)
        for n, jump in game.legal_token_moves(state):
            if jump:
                continue
            after = game.apply(state, game.step_action(n, jump))
            if after.phase == "token" and after.mover == state.mover:      # the turn goes on
                assert paths.can_step(after, n), "an orthogonal step can always go back"
                steps += 1
    assert steps > 0


def test_play_outs_call_effect_only_where_apply_is_the_kernels():
    game = playtest.load("corner_rush")
    assert _player(game) == game.effect
    import old_style_game  # noqa: F401  (tests/ is on the path: registers old_style_secret_bid)
    old = playtest.load("old_style_secret_bid")
    assert type(old).apply is not Game.apply
    play = _player(old)
    state = old.initial_state()
    action = old.chance_outcome(state, random.Random(1)) if old.to_move(state) == CHANCE else \
        old.legal_actions(state)[0]
    assert play(state, action) == old.apply(state, action)


def test_a_game_that_kept_a_search_still_pickles():
    """The lab and OpenSpiel's serialisation pickle games: what the shortcuts keep must not stop that."""
    import pickle

    for name in ("then_there_was_one", "corner_rush"):
        game = playtest.load(name)
        for state in random_states(game, seed=1, games=1, cap=200):
            if game.to_move(state) is not None and game.to_move(state) >= 0:
                game.random_action(state, random.Random(0))
        copy = pickle.loads(pickle.dumps(game))
        state = copy.initial_state()
        assert copy.chance_outcome(state, random.Random(2)) == game.chance_outcome(state, random.Random(2))
