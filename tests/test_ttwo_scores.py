"""Then There Was One's running scores (``playtest/games/then_there_was_one/scores.py``) give exactly the
numbers of the rules' original reading, kept here: the breadth-first layers from the goal row made
afresh for every position, each token looked up in them, the sides' sums made every time (issue 27).

The positions are every turn end of random games under several parameter sets (the order the lab
asks them in, so the kept board and the kept scores are exercised as the lab uses them), then the
same positions shuffled (the board changes at nearly every call), then read by a game that was
pickled in between. The values are compared exactly (``repr`` of each float: the same bits).
"""

from __future__ import annotations

import pickle
import random
import zlib

import pytest

import playtest
from playtest import CHANCE
from playtest.geometry import popcount

VARIANTS = [
    {},
    {"num_players": 3},
    {"num_players": 5, "board_width": 6, "board_length": 8, "initial_obstacles": 12, "wall_budget": 24},
    {"move_length": 3, "wall_budget": 16, "tokens_block_tokens": False},
    {"eliminate_when_no_path": False, "board_width": 5, "board_length": 7, "initial_obstacles": 9},
    {"goal_on_entry": False, "move_length": 9, "max_jumps_per_turn": 2},
]


CUT_OFF: list = []   # the wall's scores above 0 met by the test above


def reference_scores(game, state):
    """The original ``running_scores``, with nothing kept from one call to the next."""
    B = game.B
    obstacles, walls = state.obstacles, state.walls | state.built
    layers = B.layers(B.goal, B.all & ~obstacles, walls)

    def progress_of(t):
        if t < 0:
            return 0.0, 0.0
        length = B.rows
        for d, layer in enumerate(layers):
            if layer >> t & 1:
                return max(0, length - 1 - d) / length, 0.0
        area = popcount(B.reach(1 << t, B.all & ~obstacles, walls))
        return 0.0, 0.5 + 0.4 * min(1.0, (game.params.move_length + 1) / max(1, area))

    def toward(done, need, left, partial):
        if done >= need:
            return done / need
        if done + left < need:
            return 0.0
        return (done + sum(sorted(partial, reverse=True)[:need - done])) / need

    arrived, out = state.arrived, state.eliminated
    gone = arrived + tuple(seat for seat, _ in out) if out else arrived
    progress = [progress_of(t) for seat, t in enumerate(state.tokens, 1) if not (gone and seat in gone)]
    need_tokens, need_wall = game._thresholds
    tokens = toward(len(arrived), need_tokens, len(progress), [p[0] for p in progress])
    return (toward(len(out), need_wall, len(progress), [p[1] for p in progress]),) + (tokens,) * game.tokens_n


def turn_ends(game, rng, games):
    """The positions at every turn end (where the lab reads the scores) of ``games`` random games."""
    out = []
    for _ in range(games):
        state, actor = game.initial_state(), None
        while True:
            mover = game.to_move(state)
            if mover != actor and mover != CHANCE:
                out.append(state)
                actor = mover
            if mover is None:
                break
            action = game.chance_outcome(state, rng) if mover == CHANCE else game.random_action(state, rng)
            state = game.apply(state, action, check=False)
    return out


def shown(scores):
    return [repr(x) for x in scores]


@pytest.mark.parametrize("values", VARIANTS, ids=lambda v: ",".join(f"{k}={x}" for k, x in v.items()) or "default")
def test_running_scores_are_the_original_readings(values):
    game = playtest.load("then_there_was_one", **values)
    rng = random.Random(zlib.crc32(repr(values).encode()))
    positions = turn_ends(game, rng, 20)
    assert len(positions) > 300
    expected = [shown(reference_scores(game, s)) for s in positions]
    assert [shown(game.running_scores(s)) for s in positions] == expected           # the lab's order
    order = list(range(len(positions)))
    rng.shuffle(order)
    assert [shown(game.running_scores(positions[i])) for i in order] == [expected[i] for i in order]
    again = pickle.loads(pickle.dumps(game))                                          # what a worker gets
    assert [shown(again.running_scores(s)) for s in positions[::7]] == expected[::7]
    assert any(s.phase == "over" for s in positions)
    CUT_OFF.extend(x for x in expected if float(x[0]) > 0 and x[0] != x[1])
    if values.get("num_players") == 5 or "eliminate_when_no_path" in values:
        assert any(s.eliminated for s in positions) and any(s.arrived for s in positions)


def test_tokens_cut_off_were_among_them():
    """The positions above held tokens cut off from the goal row (the wall's score above 0 with none
    eliminated or some): the reading's every branch was compared."""
    assert len(CUT_OFF) > 20


def test_a_token_cut_off_and_tokens_not_yet_placed():
    game = playtest.load("then_there_was_one")
    state = game.state_from_json({"to_move": 1, "round": 2, "arrived": [3],
                                  "tokens": {"1": [5, 12], "2": [0, 0]}})
    assert shown(game.running_scores(state)) == shown(reference_scores(game, state))
    # a wall of walls around b1: the token there is cut off from the goal row
    boxed = game.state_from_json({"to_move": 0, "round": 2,
                                  "tokens": {"1": [1, 0], "2": [5, 3], "3": [8, 0]},
                                  "walls": [[[1, 0], [0, 0]], [[1, 0], [2, 0]], [[1, 0], [1, 1]]]})
    assert shown(game.running_scores(boxed)) == shown(reference_scores(game, boxed))
    assert game.running_scores(boxed)[0] > 0
    fresh = game.initial_state()
    assert shown(game.running_scores(fresh)) == shown(reference_scores(game, fresh))
