"""Position readers on the kernel's declared fields: valid positions read back to the same state
and write the same JSON (random positions of every game these readers serve), and malformed ones
are refused with messages naming the field (issue 22)."""

from __future__ import annotations

import json
import random

import pytest

import playtest
from playtest import CHANCE

VARIANTS = [("back_to_the_wall", {}), ("back_to_the_wall", {"num_players": 2}),
            ("back_to_the_wall", {"num_players": 4, "garnet_decision_time": "at_end"}),
            ("source", {}), ("source", {"board_size": 7, "source_capturable": True}),
            ("then_there_was_one", {}), ("then_there_was_one", {"num_players": 3, "max_jumps_per_turn": 2}),
            ("corner_rush", {"num_players": 2})]


def random_states(game, seed: int, count: int):
    """``count`` positions of random games (chance drawn by the game), finished ones included."""
    rng = random.Random(seed)
    while True:
        state = game.initial_state()
        for _ in range(400):
            yield state
            count -= 1
            if count <= 0:
                return
            mover = game.to_move(state)
            if mover is None:
                break
            action = game.chance_outcome(state, rng) if mover == CHANCE else rng.choice(game.legal_actions(state))
            state = game.apply(state, action)


@pytest.mark.parametrize("name, params", VARIANTS)
def test_valid_positions_read_back_the_same(name, params):
    game = playtest.load(name, **params)
    for state in random_states(game, seed=len(params), count=150):
        text = json.dumps(state.to_json(), ensure_ascii=False)
        back = game.state_from_json(json.loads(text))
        assert back == state
        assert json.dumps(back.to_json(), ensure_ascii=False) == text
        for viewer in [None, *range(game.seat_count())]:
            assert back.redact(viewer) == state.redact(viewer)


TTWO_OVER = {"tokens": {"1": [2, 0], "2": [5, 0], "3": [8, 0]}, "phase": "over"}


@pytest.mark.parametrize("data, message", [
    ({"tokens": None}, 'then_there_was_one.tokens must be an object {"seat": [col, row]} for the tokens on the '
                       'board, not null'),
    ({"tokens": [[1, 2]]}, 'then_there_was_one.tokens must be an object {"seat": [col, row]} for the tokens on '
                           'the board, not [[1, 2]]'),
    ({"rules": None}, "then_there_was_one.rules must be an object of live parameter values, not null"),
    ({"rules": 3}, "then_there_was_one.rules must be an object of live parameter values, not 3"),
    ({**TTWO_OVER, "winners": None}, "then_there_was_one.winners must be a list of seats (or left out), not null"),
    ({**TTWO_OVER, "winners": "all"}, "then_there_was_one.winners must be a list of seats, not 'all'"),
    ({**TTWO_OVER, "reason": None}, "then_there_was_one.reason must be text (or left out), not null"),
    ({"last": None}, 'then_there_was_one.last must be an object {"tiles": [[col, row], ...], "edges": '
                     '[[[col, row], [col, row]], ...]} (what the last move touched) (or left out), not null'),
    ({"tokens": {"x" * 300: [1, 1]}}, "tokens: 'xxxxxxxxxxxxxxxx"),
])
def test_then_there_was_one_refuses_null_and_malformed_fields_naming_them(data, message):
    game = playtest.load("then_there_was_one")
    with pytest.raises(ValueError) as caught:
        game.state_from_json(data)
    assert str(caught.value).startswith(message)
    assert len(str(caught.value)) < 300


def test_then_there_was_one_names_a_long_token_key_as_no_seat():
    game = playtest.load("then_there_was_one")
    with pytest.raises(ValueError, match=r"is not a token seat \(1 to 3 with num_players=4\)"):
        game.state_from_json({"tokens": {"x" * 300: [1, 1]}})


@pytest.mark.parametrize("data, message", [
    ({"boards": {"Once": {"pieces": {"North": None}}}},
     "back_to_the_wall.boards.Once.pieces.North must be a list of cells, not null"),
    ({"boards": {"Once": {"pieces": {"Nowhere": ["a1"]}}}},
     "back_to_the_wall.boards.Once.pieces: 'Nowhere' is not a seat; the seats are North, East, South, West"),
    ({"orders": {"North": {"directions": {"Once": None}}}},
     "back_to_the_wall.orders.North.directions.Once must give each of the 1 piece(s) a text of 3 letters"),
    ({"orders": {"North": {"garnet": [{"x": 1}]}}},
     'back_to_the_wall.orders.North.garnet: {"x": 1} is not a board; the boards are Once, Twice, Thrice'),
    ({"last": None}, "back_to_the_wall.last must be a list of wall results {board, cell, by, result}, not null"),
    ({"placed": {"East": {"Twice": [0, 0]}}},
     "back_to_the_wall.placed.East.Twice must list the walls placed in each of the 3 rounds, not [0, 0]"),
    ({"round": 4}, "back_to_the_wall.round must be a whole number from 1 to 3, not 4"),
    ({"flags": {"North": {"Once": [1]}}, "phase": "over"}, None),
])
def test_back_to_the_wall_names_the_path_by_seat_and_board(data, message):
    game = playtest.load("back_to_the_wall")
    if message is None:
        state = game.state_from_json(data)
        assert state.flags[0][0] == (1,) and game.state_from_json(state.to_json()) == state
        return
    with pytest.raises(ValueError) as caught:
        game.state_from_json(data)
    assert str(caught.value).startswith(message)


ROW = "r.......b"


@pytest.mark.parametrize("data, message", [
    ({"board": [ROW] + ["........."] * 7 + ["g.......y"], "supply": {"red": None}},
     "source.supply.red must be a whole number of at least 0, not null"),
    ({"board": [ROW] + ["........."] * 7 + ["g.......y"], "supply": {"purple": 3}},
     "source.supply: 'purple' is not a colour; the colours are red, blue, yellow, green"),
    ({"board": [{"row": 1}] + ["........."] * 8}, "source.board row 1 must be text such as 'r.......b', not {\"row\": 1}"),
    ({"board": [ROW] + ["........."] * 7 + ["g.......y"], "to_move": 1},
     "source.to_move must be a colour (red, blue, yellow, green), not 1"),
    ({"supply": {}}, "source.board: 9 text rows of 9 points are needed (board_size = 9)"),
])
def test_source_names_the_colour_and_the_row(data, message):
    with pytest.raises(ValueError) as caught:
        playtest.load("source").state_from_json(data)
    assert str(caught.value).startswith(message)


def test_source_fills_in_the_supply_a_position_leaves_out():
    game = playtest.load("source")
    state = game.state_from_json({"board": ["rR......b"] + ["........."] * 7 + ["g.......y"], "supply": {"blue": 3}})
    assert state.supply == (22, 3, 24, 24)                  # red: 25 - two tokens and one fortification
