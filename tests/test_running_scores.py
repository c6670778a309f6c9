"""Running scores (``Game.running_scores``): every game says who is ahead, in a way that agrees with
the outcome, and the lab and the search bot use it.

Random games are seeded, played through the public protocol on small boards, with parameters that
change the win condition as well as the defaults.
"""

from __future__ import annotations

import math
import random

import pytest

import playtest
from playtest import CHANCE, SIMULTANEOUS
from playtest.examples.secret_bid import SecretBid
from playtest.games.eat_thyself import SEED_2P, SEED_3P
from playtest.lab._play import Job, play_one
from playtest.mcts import returns
from playtest.rules import Game, draw_outcome

SMALL_TTWO = dict(num_players=3, board_width=5, board_length=7, initial_obstacles=3, max_rounds=10,
                  move_length=4, wall_budget=6)
SMALL_SOURCE = dict(board_size=7, tokens_per_color=8)

#: (game, parameters, games): defaults, and parameters that change what winning means
CASES = [
    ("eat_thyself", {}, 6),
    ("eat_thyself", {"win_condition": "one_king_left"}, 6),
    ("eat_thyself", {"num_players": 3, "simultaneous_win": "shared", "opponent_pawn_return": "may"}, 6),
    ("eat_thyself", {"num_players": 3, "win_condition": "one_king_left", "opponent_pawn_return": "may"}, 6),
    ("then_there_was_one", SMALL_TTWO, 5),
    ("then_there_was_one", dict(SMALL_TTWO, token_win_threshold=(2, 3, 4), wall_win_threshold=(1, 1, 1)), 5),
    ("then_there_was_one", dict(SMALL_TTWO, token_win_threshold=(1, 1, 1), wall_win_threshold=(2, 3, 4)), 3),
    ("then_there_was_one", dict(SMALL_TTWO, num_players=5, board_width=6, token_win_threshold=(1, 1, 2),
                                wall_win_threshold=(1, 1, 1)), 3),
    ("source", SMALL_SOURCE, 5),
    ("source", dict(SMALL_SOURCE, tiebreak="center_connected", end_trigger="board_empty"), 5),
    ("source", dict(board_size=5, tokens_per_color=4, tiebreak="draw", player_colors="red+blue/yellow+green"), 5),
    ("corner_rush", {}, 3),
    ("corner_rush", {"num_players": 2, "win_on_entry": False, "null_can_finish_other": True}, 4),
    ("corner_rush", {"num_players": 3, "goal_cells": "next_clockwise", "other_aces_open": False,
                     "pawn_pass_through": False}, 4),
    ("back_to_the_wall", {"rounds": 1}, 2),
    ("back_to_the_wall", {"rounds": 2, "num_players": 3, "final_tie_policy": "seat_order",
                          "tie_points": "lowest"}, 1),
    ("back_to_the_wall", {"rounds": 1, "garnet_decision_time": "at_end"}, 1),
    ("secret_bid", {}, 6),
    ("secret_bid", {"num_players": 4, "rounds": 3, "deck": (1, 2, 3, 4, 5)}, 4),
]


def random_game(game: Game, rng: random.Random, cap: int = 5000):
    """Every position of one random game (the first and the last included)."""
    state = game.initial_state()
    states = [state]
    while len(states) < cap:
        mover = game.to_move(state)
        if mover is None:
            break
        if mover == CHANCE:
            action = draw_outcome(game.chance_outcomes(state), rng)
        elif mover == SIMULTANEOUS:
            action = rng.choice(game.legal_actions(state, game.pending_seats(state)[0]))
        else:
            action = game.random_action(state, rng)
        state = game.apply(state, action, check=False)
        states.append(state)
    return states


def test_every_game_is_covered():
    assert {name for name, _, _ in CASES} == set(playtest.games()) | {"secret_bid"}


@pytest.mark.parametrize("name, params, games", CASES,
                         ids=[f"{name}-{k}" for k, (name, _, _) in enumerate(CASES)])
def test_random_play_gives_finite_scores_that_agree_with_the_outcome(name, params, games):
    game = playtest.load(name, **params)
    seats = len(game.seats())
    rng = random.Random(f"{name}:{sorted(params.items())}")
    decided = 0
    for _ in range(games):
        states = random_game(game, rng)
        for state in states:
            scores = game.running_scores(state)
            assert isinstance(scores, tuple) and len(scores) == seats, (name, scores)
            assert all(isinstance(x, (int, float)) and math.isfinite(x) for x in scores), (name, scores)
        outcome = game.outcome(states[-1])
        if outcome is not None and outcome.winners:
            decided += 1
            won = set(outcome.winners)
            scores = game.running_scores(states[-1])
            assert min(scores[s] for s in won) >= max(scores[s] for s in range(seats) if s not in won), \
                (name, params, outcome.reason, scores)
    assert decided > 0, (name, params)


def test_teammates_share_their_score():
    """Then There Was One's token seats win together, so they are ahead or behind together."""
    game = playtest.load("then_there_was_one", **SMALL_TTWO)
    for state in random_game(game, random.Random(3)):
        scores = game.running_scores(state)
        assert len(set(scores[1:])) == 1


# ------------------------------------------------------------------ who is ahead, by hand

def test_eat_thyself_fewer_pieces_or_fewer_kings_is_ahead():
    """E1: "win with one piece left, or with one king left": the goal decides who is nearer."""
    three_kings = dict(kings_per_player=3, setup_sequence_2p=SEED_2P + " ▲ ●",
                       setup_sequence_3p=SEED_3P + " ▲ ● ◆")
    position = {"ring": "□ ▲ △ △ □ ● ○ ▲ △ ● □ ●", "cards": [[1, 2], [2, 4]]}  # ▲ 2 kings + 3, ● 3 kings + 1
    pieces = playtest.load("eat_thyself", **three_kings)
    kings = playtest.load("eat_thyself", win_condition="one_king_left", **three_kings)
    assert pieces.running_scores(pieces.state_from_json(position)) == (-5, -4)      # Circle has fewer pieces
    assert kings.running_scores(kings.state_from_json(position)) == (-2, -3)        # Triangle has fewer kings


def test_then_there_was_one_the_thresholds_decide_who_is_ahead():
    """A.1 §19-20 with A27's thresholds: one token arrived, one eliminated, Red a step from the goal row."""
    position = {"to_move": 1, "round": 3, "arrived": [3], "eliminated": [[2, "trapped"]], "tokens": {"1": [5, 12]}}
    game = playtest.load("then_there_was_one")                      # 2 of 3 arrivals win for the tokens
    wall, *tokens = game.running_scores(game.state_from_json(position))
    assert tokens == [tokens[0]] * 3 and tokens[0] > wall
    assert tokens[0] == pytest.approx((1 + 12 / 14) / 2) and wall == 0.5
    every_token = game.with_params(token_win_threshold=(1, 3, 2))     # all 3 must arrive: no longer possible
    wall, *tokens = every_token.running_scores(every_token.state_from_json(position))
    assert tokens == [0.0] * 3 and wall > tokens[0]


def test_then_there_was_one_a_walled_in_token_puts_the_wall_player_ahead():
    game = playtest.load("then_there_was_one")
    box = [[[2, 4], [2, 5]], [[2, 4], [2, 3]], [[2, 4], [1, 4]], [[2, 4], [3, 4]]]     # walls round c5
    open_board = game.state_from_json({"to_move": 0, "round": 3, "tokens": {"1": [2, 4], "2": [5, 2], "3": [8, 3]}})
    walled = game.state_from_json({"to_move": 0, "round": 3, "walls": box,
                                   "tokens": {"1": [2, 4], "2": [5, 2], "3": [8, 3]}})
    before, after = game.running_scores(open_board), game.running_scores(walled)
    assert before[1] > before[0] and after[0] > after[1]
    assert after[0] == pytest.approx(0.9 / 2)      # one token as good as trapped, of the 2 the wall needs


def test_source_points_then_the_centre_tiebreak():
    """C.1 §17 and C20: the most points wins; a tie goes to the player on the centre."""
    game = playtest.load("source")
    ahead = game.state_from_json({"board": ["rr......b", "r........"] + ["........."] * 6 + ["g.......y"]})
    assert game.running_scores(ahead) == (8, 4)
    tied = {"board": ["r.......b", ".........", ".........", ".........", "....r....", ".........",
                      "......b..", ".........", "g.......y"]}     # 5-5, red (A) on the centre, not connected
    assert game.running_scores(game.state_from_json(tied)) == (5.5, 5)
    for rule in ("center_connected", "draw"):
        other = game.with_params(tiebreak=rule)
        assert other.running_scores(other.state_from_json(tied)) == (5, 5)


def test_corner_rush_nearer_the_ace_is_ahead_and_blockers_count():
    """D.1 §12: the first pawn on its Ace wins; a pawn walled off by blockers is far behind."""
    game = playtest.load("corner_rush", num_players=2)
    near = {"phase": "start", "to_move": 0, "pawns": ["c4", "d1"]}
    assert game.running_scores(game.state_from_json(near)) == (-5, -7)        # Red is nearer e1 than Blue a5
    detour = dict(near, blockers={"d4": {"colour": 1, "value": 3}})            # round the blocker and the hole
    assert game.running_scores(game.state_from_json(detour)) == (-7, -7)
    sealed = dict(near, blockers={"d4": {"colour": 1, "value": 3}, "c5": {"colour": 1, "value": 2},
                                  "b4": {"colour": 1, "value": 4}})            # Red is boxed in on c4
    red, blue = game.running_scores(game.state_from_json(sealed))
    assert red == -(5 + 5) and blue == -7 and blue > red


def test_back_to_the_wall_points_with_the_tiebreaks():
    """B.1 §13-15 and B26: North first on Once, East on Twice: equal totals, and East wins the tie-break
    (equal best boards and Thrice, more on Twice)."""
    game = playtest.load("back_to_the_wall")
    once = ["NNNNN...", "........", "........", "..#.....", ".....#..", "........", "........", "........"]
    twice = ["........."] * 8 + ["......EEE"]
    state = game.state_from_json({"boards": {"Once": {"rows": once}, "Twice": {"rows": twice}}})
    north, east, south, west = game.running_scores(state)
    assert east > north > south == west
    assert game.scores(state).totals[0] == game.scores(state).totals[1]


def test_secret_bid_points_are_the_running_score():
    game = SecretBid()
    assert game.running_scores(game.state_from_json({"round": 2, "points": [1, 4]})) == (1, 4)


# ------------------------------------------------------------------ the lab and the search bot use it

def test_the_lab_now_measures_lead_changes_and_decisiveness():
    result = playtest.simulate("eat_thyself", games=20, seed=1, progress=False)
    assert result.games["lead_changes"].notna().any() and result.games["decisiveness"].notna().any()


def test_a_game_without_running_scores_has_no_leader_and_rollouts_are_draws():
    """The protocol's default is None: the lab's columns stay missing and the search bot's cut-short
    rollouts count as draws, as before."""
    class Plain(SecretBid):
        def running_scores(self, state):
            return Game.running_scores(self, state)

    game = Plain()
    assert game.running_scores(game.initial_state()) is None
    row = play_one(Job(game, "random", seed=2), 0)
    assert row["lead_changes"] is None and row["decisiveness"] is None
    state = game.state_from_json({"round": 2, "points": [4, 1]})
    assert returns(game, state, game.running_scores) == [0.5, 0.5]
    assert returns(SecretBid(), state, SecretBid().running_scores) == [1.0, 0.0]


def test_a_cut_short_rollout_of_then_there_was_one_is_no_longer_a_draw():
    game = playtest.load("then_there_was_one")
    state = game.state_from_json({"to_move": 1, "round": 3, "arrived": [3], "tokens": {"1": [5, 12], "2": [0, 0]}})
    assert returns(game, state, game.running_scores) == [0.0, 1.0, 1.0, 1.0]
