"""Corner Rush's fast paths answer as the long way does (issue 27).

The game keeps what it worked out (each seat's running score with the tiles its search went over,
a bag's draws, a move's walk masks and exact walks) and draws a random action without listing. Each
shortcut is held here to the slow path it replaces, along random games under several parameter
sets, with the positions also visited out of order (so a kept answer meets positions it was not
worked out for: blockers taken away, pawns pushed back, another game's position).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import playtest
from playtest import CHANCE
from playtest.games.corner_rush.actions import Draw
from playtest.kernel import Game

VARIANTS = [
    {},
    {"num_players": 2, "must_use_all_moves": False, "allow_revisit": False},
    {"blocker_placement_mandatory": False, "challenge_removal": "optional", "other_aces_open": False,
     "captured_blocker_destination": "removed", "blocker_values": [2, 2, 5], "blockers_per_player": 3},
    {"blocker_draw": "choose", "num_players": 3, "hole_passable": True, "pawn_pass_through": False},
    {"board_size": 7, "start_cells": "edge_middles", "goal_cells": "next_clockwise", "pawn_stacking": True,
     "captured_blocker_destination": "owner_bag", "null_can_finish_other": True},
]


def positions(game, seed: int, games: int = 4, cap: int = 3000) -> list:
    """Every position of a few random games (chance drawn by the game)."""
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        state = game.initial_state()
        for _ in range(cap):
            mover = game.to_move(state)
            found.append(state)
            if mover is None:
                break
            action = game.chance_outcome(state, rng) if mover == CHANCE else game.random_action(state, rng)
            state = game.apply(state, action)
    return found


def scores_from_scratch(game, state) -> tuple[int, ...]:
    """Each seat's running score worked out anew (no kept answer)."""
    return tuple(game._ace_steps(seat, tile, state.blocked)[0] for seat, tile in enumerate(state.pawns))


@pytest.mark.parametrize("params", VARIANTS)
def test_kept_running_scores_are_worked_out_scores(params):
    game = playtest.load("corner_rush", **params)
    states = positions(game, seed=len(params))
    shuffled = states[:]
    random.Random(1).shuffle(shuffled)
    fresh = playtest.load("corner_rush", **params)
    for state in states + shuffled + states[::-1]:
        assert game.running_scores(state) == scores_from_scratch(fresh, state)


def test_running_scores_of_a_blocked_pawn_and_a_closed_tile():
    """Two seats, other Aces closed: Red (a5) heads for e1, Blue (e1) for a5. Blue standing on Red's Ace,
    a tile closed to it, counts one step off it; a pawn the blockers cut off counts its steps with the
    blockers lifted plus the board's size. Asked in turn on one game (each answer from the one before:
    a blocker added, then another) and on a fresh one, the same figures (those the game gave before
    its scores were kept)."""
    game = playtest.load("corner_rush", num_players=2, other_aces_open=False)
    open_board = game.state_from_json({"phase": "start", "to_move": 0, "pawns": ["b4", "e1"]})
    one = game.state_from_json({"phase": "start", "to_move": 0, "pawns": ["b4", "e1"],
                                "blockers": {"d1": {"colour": 1, "value": 3}}})
    walled = game.state_from_json({"phase": "start", "to_move": 0, "pawns": ["a5", "e1"], "blockers": {
        "d1": {"colour": 1, "value": 3}, "e2": {"colour": 1, "value": 2}}})
    expected = [(-6, -8), (-6, -8), (-13, -13)]      # b4 to e1: 6; a5 to d1 or e2: 7, + 1; cut off: 8 + 5
    assert [game.running_scores(s) for s in (open_board, one, walled)] == expected
    fresh = playtest.load("corner_rush", num_players=2, other_aces_open=False)
    assert [fresh.running_scores(s) for s in (walled, one, open_board)] == expected[::-1]


@pytest.mark.parametrize("params", VARIANTS)
def test_listing_is_the_kernels(params):
    game = playtest.load("corner_rush", **params)
    seats = [None, CHANCE, *range(game.n), game.n]
    for state in positions(game, seed=3, games=2):
        for seat in seats:
            assert game.legal_actions(state, seat) == Game.legal_actions(game, state, seat)


@pytest.mark.parametrize("params", VARIANTS)
def test_kept_bag_draws_are_the_bags(params):
    game = playtest.load("corner_rush", **params)
    for state in positions(game, seed=5, games=2):
        if state.phase != "draw":
            continue
        bag = state.bags[state.mover]
        expected = [(Draw(c, v), k / len(bag)) for (c, v), k in sorted(Counter(bag).items())]
        if game.to_move(state) == CHANCE:
            assert game.chance_outcomes(state) == expected
        else:                                  # blocker_draw = "choose": the owner picks one of each kind
            assert game.legal_actions(state) == [a for a, _ in expected]


def test_the_kept_answers_survive_a_pickle():
    import pickle

    game = playtest.load("corner_rush")
    states = positions(game, seed=2, games=1)
    for state in states:
        game.running_scores(state)
        game.legal_actions(state)
    copy = pickle.loads(pickle.dumps(game))
    assert [copy.running_scores(s) for s in states[::-1]] == [scores_from_scratch(game, s) for s in states[::-1]]


class LastPick(random.Random):
    """A generator whose choice reads the listing itself (the last action): the sampler must list."""

    def choice(self, seq):
        return seq[-1]


@pytest.mark.parametrize("params", VARIANTS)
def test_random_actions_are_the_listings_draws(params):
    """A plain generator's draw from the tables is its draw from the listing; any other generator is
    handed the listing itself."""
    game = playtest.load("corner_rush", **params)
    for k, state in enumerate(positions(game, seed=11, games=2)):
        if game.to_move(state) is None or game.to_move(state) < 0:
            continue
        listed = game.legal_actions(state)
        assert game.random_action(state, random.Random(k)) == random.Random(k).choice(listed)
        assert game.random_action(state, LastPick(k)) == listed[-1]
