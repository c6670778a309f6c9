"""Back to the Wall: scenario tests from hand-written positions, golden games, properties, the table.

Each scenario test quotes, in its docstring, the sentence of the seed text
(``shared/seeds/001_b7ba08f6e9aa3b39.txt``) that it checks, or the RULES.md
entry when the seed is silent. Positions are written in the JSON form of the
package docstring: cells are labelled like the board (``a1`` top left; the
column letter, then the row counted from the top), rows are text with ``.``
unowned, ``#`` a wall and N/E/S/W the owner. Seats: 0 North, 1 East, 2 South,
3 West. Boards: 0 Once (8 x 8), 1 Twice (9 x 9), 2 Thrice (10 x 10).

Golden transcripts of whole games are in ``tests/golden/back_to_the_wall_*.json``;
``PLAYTEST_WRITE_GOLDEN=1`` rewrites them (then read the diff before committing).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import playtest
from playtest import SIMULTANEOUS, IllegalAction
from playtest.bots import RandomBot, bots_for, choose_for
from playtest.games.back_to_the_wall import (STAY, AddWall, BackToTheWallParams, Clear, Direct, Garnet, GreedyBot,
                                             RemoveWall, Submit, Withdraw)
from playtest.games.back_to_the_wall.params import DIRECTIONS
from playtest.games.back_to_the_wall.score import place_points
from playtest.lab import play_game

NAME = "back_to_the_wall"
GOLDEN = Path(__file__).resolve().parent / "golden"
NORTH, EAST, SOUTH, WEST = range(4)
ONCE, TWICE, THRICE = range(3)
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def load(**params):
    return playtest.load(NAME, **params)


def position(game, **fields):
    """A state from hand-written JSON fields (validated like any designer's position)."""
    return game.state_from_json(json.loads(json.dumps(fields)))


def at(game, board, label):
    """The (col, row) of a labelled cell: ``at(game, TWICE, "d5") == (3, 4)``."""
    t = game.tables[board]
    return t.cell(t.cell_of(label))


def resolve(game, state, orders):
    """Every seat enters its order (``{seat: {"walls": ..., "directions": ..., "garnet": ...}}``, missing
    seats submit nothing) through ``apply``; returns the state after the round and its resolution log."""
    for seat in range(len(game.seats())):
        for action in game.order(seat, **orders.get(seat, {}), submit=False):
            state = game.apply(state, action)
    log = None
    for seat in range(len(game.seats())):
        if game.pending_seats(state) == (seat,):
            full = state._replace(orders=tuple(
                (o or game.empty_order(state))._replace(submitted=True) if s == seat else o
                for s, o in enumerate(state.orders)))
            log = game.resolve(full)
        state = game.apply(state, Submit(seat))
    assert log is not None and log.after == state
    return state, log


def verdicts(game, log, board):
    """``{cell label: result}`` of one board's submitted walls."""
    t = game.tables[board]
    return {t.label(v.cell): v.text for v in log.boards[board].verdicts}


def owned_cells(game, state, board, seat):
    return game.tables[board].cells(state.owned[board][seat])


def rows_with(game, board, cells):
    """The rows of ``board`` (its pre-placed walls) with ``cells`` = {label: char} written in."""
    t = game.tables[board]
    chars = ["#" if t.preplaced >> i & 1 else "." for i in range(t.size)]
    for label, ch in cells.items():
        chars[t.cell_of(label)] = ch
    return ["".join(chars[r * t.cols:(r + 1) * t.cols]) for r in range(t.rows)]


def assert_illegal(game, state, action, rule):
    """``action`` raises IllegalAction naming ``rule`` and leaves ``state`` as it was."""
    with pytest.raises(IllegalAction) as err:
        game.apply(state, action)
    assert err.value.rule == rule, str(err.value)
    return str(err.value)


# --------------------------------------------------------------------------- parameters and setup

def test_every_parameter_of_table_b3_is_declared():
    """Every rule gap is a named parameter with its documented default (RULES.md B.3)."""
    table = {
        "num_players": 4, "rounds": 3, "board_names": ("Once", "Twice", "Thrice"),
        "board_sizes": ((8, 8), (9, 9), (10, 10)),
        "preplaced_walls": (((2, 3), (5, 4)), ((2, 4), (6, 4)), ((3, 4), (6, 5))),
        "corner_assignment": ((0, 1, 2, 3), (0, 2, 1, 3), (0, 1, 3, 2)), "walls_per_round": (1, 2, 3),
        "adjacency_rules": ("king", "orthogonal", "none"), "adjacency_scope": "submissions",
        "corner_rule": "each_reaches_one", "corner_violation_resolution": "dm_minimal_subsets",
        "wall_rule_order": "independent_on_submissions", "wall_on_piece": "void",
        "duplicate_wall": "place_once_credit_all", "wall_erases_ownership": True, "forbid_piece_enclosure": False,
        "pieces_initial": 1, "pieces_gain_per_round": 1, "directions_per_round": 3, "spawn_captures": False,
        "redirect_metric": "unowned_cells", "corner_tiebreak": "toward_own_corner", "contested_capture": "no_change",
        "same_owner_contest": False, "missing_direction": "stay", "rank_points": (6, 4, 2, 1),
        "tie_points": "average", "garnet_for_sole_first": 1, "garnet_bonus_enabled": True, "garnet_bonus_cost": 1,
        "garnet_bonus_max_per_board": 1, "garnet_decision_time": "during_round", "starting_garnets": 3,
        "final_tiebreak": ("max_board", "Thrice", "Twice", "Once"), "final_tie_policy": "shared",
        "refuse_void_walls": False,     # B10, B.1 §9.1: accepted, uses up its slot, dropped at the resolution
    }
    specs = {s.name: s for s in BackToTheWallParams.specs()}
    for name, default in table.items():
        assert name in specs, name
        assert specs[name].default == default, name
        assert specs[name].help and specs[name].source in ("seed", "public", "assumed") and specs[name].rule
    # the readings this package adds are parameters too
    assert {"refuse_void_walls", "stopped_pieces_contest", "garnet_paid_without_walls"} <= set(specs)
    assert specs["walls_per_round"].source == "seed" and specs["corner_violation_resolution"].source == "public"
    assert specs["board_sizes"].source == "assumed" and not specs["board_sizes"].live
    assert specs["corner_rule"].choices == ("each_reaches_one", "all_pairs")
    with pytest.raises(ValueError, match="cut a corner off"):
        load(preplaced_walls=(((1, 0), (0, 1)), ((2, 4), (6, 4)), ((3, 4), (6, 5))))
    with pytest.raises(ValueError, match="exactly one corner"):
        load(corner_assignment=((0, 0, 2, 3), (0, 2, 1, 3), (0, 1, 3, 2)))
    with pytest.raises(ValueError, match="final_tiebreak"):
        load(board_names=("One", "Two", "Three"))            # the tie-break names the boards
    assert load(board_names=("One", "Two", "Three"), final_tiebreak=("max_board", "Three")).params.board_names[0] == "One"
    assert [len(load(num_players=n).seats()) for n in (2, 3, 4)] == [2, 3, 4]
    assert set(bots_for(NAME)) >= {"random", "greedy"}


def test_three_boards_of_increasing_size_with_two_preplaced_walls():
    """"This game is played across 3 boards of increasing size, named “Once”, “Twice” and “Thrice”." /
    "Each board will have some 2 pre-placed walls and will be slightly different sizes.\""""
    game = load()
    state = game.initial_state()
    assert [(t.name, t.cols, t.rows) for t in game.tables] == [("Once", 8, 8), ("Twice", 9, 9), ("Thrice", 10, 10)]
    assert [game.tables[b].cells(state.walls[b]) for b in range(3)] == [["c4", "f5"], ["c5", "g5"], ["d5", "g6"]]
    assert game.to_move(state) == SIMULTANEOUS and game.pending_seats(state) == (0, 1, 2, 3)


def test_each_player_faces_a_different_opponent_on_each_board():
    """"In each board, players will start in different corners of the board." /
    "You will opposite a different player on each of the 3 boards.\""""
    game = load()
    state = game.initial_state()
    opposite = {}
    for b, t in enumerate(game.tables):
        assert sorted(t.seat_at_corner) == [0, 1, 2, 3]
        for seat in range(4):
            corner = t.corners[t.corner_of[seat]]
            assert state.pieces[b][seat] == (corner,)         # "Players start with 1 piece on each board"
            facing = t.seat_at_corner[(t.corner_of[seat] + 2) % 4]
            opposite.setdefault(seat, []).append(facing)
    for seat, faced in opposite.items():
        assert len(set(faced)) == 3 and seat not in faced


def test_a_piece_is_gained_each_round_on_the_own_corner():
    """"They gain 1 piece each round, which spawns on their corner square.\""""
    game = load()
    state, _ = resolve(game, game.initial_state(), {NORTH: {"directions": {"Once": ["D.."]}}})
    assert state.round == 2
    assert state.pieces[ONCE][NORTH] == (game.tables[ONCE].cell_of("a8"), game.tables[ONCE].cell_of("a1"))
    assert all(len(cells) == 2 for board in state.pieces for cells in board)
    assert len(game.empty_order(state).directions[THRICE]) == 2       # two pieces to direct now


# --------------------------------------------------------------------------- orders

def test_wall_quota_per_board():
    """"Each player attempt to place 1 wall on Once, 2 walls on Twice, and 3 walls on Thrice.\""""
    game = load()
    state = game.initial_state()
    state = game.apply(state, AddWall(NORTH, ONCE, at(game, ONCE, "d2")))
    message = assert_illegal(game, state, AddWall(NORTH, ONCE, at(game, ONCE, "f2")), "B.1 §8")
    assert "North may submit 1 wall a round on Once" in message
    for label in ("b2", "h2"):
        state = game.apply(state, AddWall(NORTH, TWICE, at(game, TWICE, label)))
    assert_illegal(game, state, AddWall(NORTH, TWICE, at(game, TWICE, "d8")), "B.1 §8")
    for label in ("b2", "e2", "h2"):
        state = game.apply(state, AddWall(NORTH, THRICE, at(game, THRICE, label)))
    assert_illegal(game, state, AddWall(NORTH, THRICE, at(game, THRICE, "d8")), "B.1 §8")
    # fewer are allowed, and a wall can be taken back
    state = game.apply(state, RemoveWall(NORTH, THRICE, at(game, THRICE, "e2")))
    assert game.why_not(state, AddWall(NORTH, THRICE, at(game, THRICE, "d8"))) is None
    assert "already in North's order" in assert_illegal(game, state, AddWall(NORTH, TWICE, at(game, TWICE, "b2")),
                                                        "B.1 §9.1")


def test_walls_that_would_be_void_are_accepted_use_a_slot_and_are_dropped():
    """RULES.md B10 and B.1 §9.1 (the seed: "walls will not be placed if ..."): a submission on a piece, a
    corner or a wall is accepted when it is entered, uses up one of the round's wall slots, and is dropped
    at the resolution; the player does not get to choose again. The table warns while accepting it."""
    game = load()
    assert game.params.refuse_void_walls is False
    state = position(game, boards={"Once": {"pieces": {"North": ["d4"]}}})
    for cell, why in (("a1", "walls never go on a corner (this is North's corner)"), ("c4", "a wall stands here already"),
                      ("d4", "a piece stands here")):
        action = AddWall(EAST, ONCE, at(game, ONCE, cell))
        assert game.why_not(state, action) is None and action in game.legal_actions(state, EAST)
        entered = game.apply(state, action)
        assert game.void_reason(entered, ONCE, game.tables[ONCE].cell_of(cell)) == why
        # the slot is used: Once takes one wall a round, so a second one is refused until this one is taken back
        assert "may submit 1 wall a round on Once" in assert_illegal(
            game, entered, AddWall(EAST, ONCE, at(game, ONCE, "f6")), "B.1 §8")
        scene = game.view(entered, EAST)
        mark = next(c for c in scene["items"] if c.get("id") == f"b0:{cell}")
        assert f"East's wall, in this round's order: this wall will be void: {why}" in mark["title"]
        assert f"Your wall on Once {cell} ({why}) will be void: it uses up a slot and is not placed" in scene["hint"]
    # the menu of a cell where a wall would be void says so before it is entered
    scene = game.view(state, EAST)
    assert scene["moves"]["b0:d4"][0]["label"] == "wall here (1 of 1 on Once) — this wall will be void: a piece stands here"
    assert scene["moves"]["b0:e5"][0]["label"] == "wall here (1 of 1 on Once)"
    # the resolution drops it: the cell stays as it was, and nothing is credited to East
    after, log = resolve(game, state, {EAST: {"walls": {"Once": ["d4"]}}})
    assert verdicts(game, log, ONCE) == {"d4": "void: a piece stands there"}
    assert after.walls[ONCE] == state.walls[ONCE] and after.placed[EAST][ONCE][0] == 0
    # the bots and random orders never waste a slot on a void cell
    rng = random.Random(3)
    for _ in range(50):
        order = game.random_order(state, EAST, rng)
        assert all(game.void_reason(state, b, c) is None for b in range(3) for c in order.walls[b])


def test_walls_that_would_be_void_are_refused_with_the_reason_in_the_variant():
    """The variant ``refuse_void_walls = true``: a wall on a piece, a corner or a wall is refused when
    entered, naming the rule, and the player chooses again."""
    game = load(refuse_void_walls=True)
    state = game.initial_state()
    assert "walls never go on a corner (Once a1 is North's corner)" in assert_illegal(
        game, state, AddWall(EAST, ONCE, (0, 0)), "B.1 §9.1")
    assert "already a wall" in assert_illegal(game, state, AddWall(EAST, ONCE, at(game, ONCE, "c4")), "B.1 §9.1")
    moved = position(game, boards={"Once": {"pieces": {"North": ["d4"]}}})
    assert "a piece stands on Once d4" in assert_illegal(game, moved, AddWall(EAST, ONCE, at(game, ONCE, "d4")),
                                                         "B.1 §9.1")
    assert "not a cell of Once" in str(game.why_not(state, AddWall(EAST, ONCE, (8, 0))))


def test_void_submissions_are_dropped_before_the_other_rules():
    """RULES.md B.1 §9.1: "Void submissions are dropped before the adjacency and corner rules and count for
    neither" (with ``refuse_void_walls = false`` they are accepted and voided at the resolution)."""
    game = load(refuse_void_walls=False)
    state = position(game, boards={"Once": {"pieces": {"North": ["d2"]}}})
    state, log = resolve(game, state, {NORTH: {"walls": {"Once": ["c4"]}}, EAST: {"walls": {"Once": ["c5"]}},
                                       SOUTH: {"walls": {"Once": ["h8"]}}, WEST: {"walls": {"Once": ["d2"]}}})
    assert verdicts(game, log, ONCE) == {"c4": "void: already a wall", "c5": "placed",
                                         "d2": "void: a piece stands there",
                                         "h8": "void: walls never go on a corner"}
    assert state.placed[EAST][ONCE][0] == 1 and state.placed[WEST][ONCE][0] == 0
    # the same c5 against the standing wall c4, when the adjacency rule also looks at standing walls
    game = load(adjacency_scope="submissions_and_walls")
    _, log = resolve(game, game.initial_state(), {EAST: {"walls": {"Once": ["c5"]}}})
    assert verdicts(game, log, ONCE) == {"c5": "rejected: orthogonally adjacent to the standing wall c4 on Once"}


def test_duplicate_walls_are_placed_once_and_credited_to_all():
    """RULES.md B10: "Duplicate submissions (the same cell from several players) are placed once and credited
    to every submitter"."""
    game = load()
    state, log = resolve(game, game.initial_state(), {NORTH: {"walls": {"Thrice": ["e8"]}},
                                                      SOUTH: {"walls": {"Thrice": ["e8"]}}})
    assert verdicts(game, log, THRICE) == {"e8": "placed, credited to North and South"}
    assert [state.placed[s][THRICE][0] for s in range(4)] == [1, 0, 1, 0]
    voided = load(duplicate_wall="void")
    _, log = resolve(voided, voided.initial_state(), {NORTH: {"walls": {"Thrice": ["e8"]}},
                                                      SOUTH: {"walls": {"Thrice": ["e8"]}}})
    assert verdicts(voided, log, THRICE)["e8"].startswith("void: submitted by North and South")


# --------------------------------------------------------------------------- the adjacency rules

def test_walls_touching_on_once_are_all_void():
    """"2 walls would be placed diagonally or orthogonally adjacent on “once”.\""""
    game = load()
    state, log = resolve(game, game.initial_state(), {NORTH: {"walls": {"Once": ["c6"]}},
                                                      EAST: {"walls": {"Once": ["d7"]}},
                                                      SOUTH: {"walls": {"Once": ["f7"]}}})
    assert verdicts(game, log, ONCE) == {
        "c6": "rejected: diagonally adjacent to East's wall d7 on Once",
        "d7": "rejected: diagonally adjacent to North's wall c6 on Once",
        "f7": "placed"}
    assert game.tables[ONCE].cells(state.walls[ONCE]) == ["c4", "f5", "f7"]
    # the reasons are kept in the position and shown in its scene, in a panel
    panel = next(p for p in game.view(state, None)["panels"] if p["title"] == "Walls of round 1")
    assert ["Once c6", "North", "rejected: diagonally adjacent to East's wall d7 on Once"] in panel["rows"]


def test_walls_side_by_side_on_twice_are_void_even_a_players_own():
    """"2 walls would be placed orthogonally adjacent on “twice”." (RULES.md B8: "This includes a player's
    own two walls on Twice.")"""
    game = load()
    _, log = resolve(game, game.initial_state(), {NORTH: {"walls": {"Twice": ["d2", "d3"]}},
                                                  EAST: {"walls": {"Twice": ["f7", "g8"]}},
                                                  SOUTH: {"walls": {"Twice": ["b7"]}},
                                                  WEST: {"walls": {"Twice": ["b8"]}}})
    assert verdicts(game, log, TWICE) == {
        "b7": "rejected: orthogonally adjacent to West's wall b8 on Twice",
        "b8": "rejected: orthogonally adjacent to South's wall b7 on Twice",
        "d2": "rejected: orthogonally adjacent to North's wall d3 on Twice",
        "d3": "rejected: orthogonally adjacent to North's wall d2 on Twice",
        "f7": "placed", "g8": "placed"}                 # diagonal neighbours are fine on Twice


def test_thrice_has_no_adjacency_rule():
    """The seed names the adjacency rules for “once” and “twice” only: on Thrice touching walls stand."""
    game = load()
    _, log = resolve(game, game.initial_state(), {NORTH: {"walls": {"Thrice": ["d8", "e8"]}},
                                                  EAST: {"walls": {"Thrice": ["e9"]}}})
    assert set(verdicts(game, log, THRICE).values()) == {"placed"}


# --------------------------------------------------------------------------- the corner rule

def test_a_wall_pair_that_cuts_off_a_corner_is_removed():
    """"Walls close off a corner from being connected to any other corner on all boards." (RULES.md B.1 §9.3:
    for k = 1, 2, ... the union of every k-subset whose removal restores the rule is removed.)"""
    game = load()
    state, log = resolve(game, game.initial_state(), {NORTH: {"walls": {"Thrice": ["b1", "a2", "h8"]}}})
    cut = "rejected: it would cut off a corner (a1, North's corner)"
    assert verdicts(game, log, THRICE) == {"a2": cut, "b1": cut, "h8": "placed"}
    t = game.tables[THRICE]
    assert t.corners_connected(state.walls[THRICE], "each_reaches_one")


def test_the_smallest_removal_sets_win_and_their_union_goes():
    """RULES.md B.1 §9.3: "at the first k where any exist, remove the union of those subsets"."""
    game = load()
    # a1 walled in twice over: b1 a2 inside, c1 b2 a3 outside; no single removal opens it
    _, log = resolve(game, game.initial_state(), {NORTH: {"walls": {"Thrice": ["b1", "a2", "j5"]}},
                                                  EAST: {"walls": {"Thrice": ["c1", "b2", "a3"]}}})
    results = verdicts(game, log, THRICE)
    assert results["j5"] == "placed"
    assert {label for label, text in results.items() if "cut off a corner" in text} == {"b1", "a2", "c1", "b2", "a3"}
    # only the outer ring: any one of its three walls opens the pocket, so all three go
    _, log = resolve(game, game.initial_state(), {EAST: {"walls": {"Thrice": ["c1", "b2", "a3"]}}})
    assert all("cut off a corner" in text for text in verdicts(game, log, THRICE).values())


def test_the_stricter_corner_rule_keeps_every_corner_connected_to_all():
    """RULES.md B6: "any other corner" read as "each corner reaches at least one" (default) or all of them."""
    column = [f"d{r}" for r in (1, 2, 3, 4, 6, 7, 8, 9, 10)]    # with the pre-placed d5: a wall across Thrice
    orders = {NORTH: {"walls": {"Thrice": column[:3]}}, EAST: {"walls": {"Thrice": column[3:6]}},
              SOUTH: {"walls": {"Thrice": column[6:]}}}
    game = load()
    state, log = resolve(game, game.initial_state(), orders)
    assert set(verdicts(game, log, THRICE).values()) == {"placed"}      # a1 still reaches a10, j1 reaches j10
    strict = load(corner_rule="all_pairs")
    state, log = resolve(strict, strict.initial_state(), orders)
    assert all(text.startswith("rejected: it would cut off a corner") for text in verdicts(strict, log, THRICE).values())


def test_corner_rule_variants_choose_other_walls():
    """RULES.md B7: other resolutions of a corner violation: every new wall goes, or seat order decides."""
    orders = {NORTH: {"walls": {"Thrice": ["b1", "h8"]}}, EAST: {"walls": {"Thrice": ["a2"]}}}
    game = load(corner_violation_resolution="reject_all_new")
    _, log = resolve(game, game.initial_state(), orders)
    assert not any(v.placed for v in log.boards[THRICE].verdicts)
    game = load(corner_violation_resolution="reject_by_seat_priority")
    _, log = resolve(game, game.initial_state(), orders)
    assert verdicts(game, log, THRICE) == {"b1": "placed", "h8": "placed",
                                           "a2": "rejected: it would cut off a corner (a1, North's corner)"}


def test_both_rules_judge_the_raw_submissions():
    """RULES.md B9: by default the corner rule also counts walls the adjacency rule voids (the Death Match
    reading); ``adjacency_then_corner`` applies it to the survivors only."""
    orders = {NORTH: {"walls": {"Twice": ["b1", "c1"]}}, EAST: {"walls": {"Twice": ["a2"]}}}
    game = load()
    _, log = resolve(game, game.initial_state(), orders)
    results = verdicts(game, log, TWICE)
    assert results["b1"] == ("rejected: orthogonally adjacent to North's wall c1 on Twice; "
                             "rejected: it would cut off a corner (a1, North's corner)")
    assert results["a2"] == "rejected: it would cut off a corner (a1, North's corner)"
    game = load(wall_rule_order="adjacency_then_corner")
    _, log = resolve(game, game.initial_state(), orders)
    assert verdicts(game, log, TWICE)["a2"] == "placed"


def test_the_death_match_rule_against_walling_in_a_piece():
    """RULES.md B28 (Death Match only, off by default): "walls are not placed if all squares next to a piece
    would become walls"."""
    orders = {NORTH: {"walls": {"Thrice": ["e4", "f5"]}}, EAST: {"walls": {"Thrice": ["e6"]}}}
    fields = dict(boards={"Thrice": {"pieces": {"South": ["e5"]}}})
    game = load()
    state, _ = resolve(game, position(game, **fields), orders)
    assert game.tables[THRICE].cells(state.walls[THRICE]) == ["e4", "d5", "f5", "e6", "g6"]
    game = load(forbid_piece_enclosure=True)
    _, log = resolve(game, position(game, **fields), orders)
    assert verdicts(game, log, THRICE)["e6"] == "rejected: it would wall in South's piece on e5 (forbid_piece_enclosure)"


def test_a_new_wall_erases_the_cells_owner():
    """RULES.md B11: "Ownership of a cell that becomes a wall is erased" (``wall_erases_ownership``)."""
    fields = dict(boards={"Twice": {"rows": rows_with(load(), TWICE, {"e3": "N", "e4": "N"})}})
    game = load()
    state, _ = resolve(game, position(game, **fields), {EAST: {"walls": {"Twice": ["e3"]}}})
    assert owned_cells(game, state, TWICE, NORTH) == ["e4"]
    assert all(not (state.walls[b] & state.owned[b][s]) for b in range(3) for s in range(4))
    keep = load(wall_erases_ownership=False)
    state, _ = resolve(keep, position(keep, **fields), {EAST: {"walls": {"Twice": ["e3"]}}})
    assert owned_cells(keep, state, TWICE, NORTH) == ["e3", "e4"]
    assert state.to_json()["boards"]["Twice"]["rows"][2] == "....n...."      # an owned wall, lower case


# --------------------------------------------------------------------------- movement

def test_pieces_slide_until_a_wall_or_the_border_and_capture_what_they_cross():
    """"Move all pieces simultaneously, travelling 1 square at a time until they hit a wall or the border." /
    "When a piece goes over a square, it captures it.\""""
    game = load()
    state, log = resolve(game, game.initial_state(), {NORTH: {"directions": {"Once": ["D.."]}},
                                                      SOUTH: {"directions": {"Once": ["L.."]}}})
    assert owned_cells(game, state, ONCE, NORTH) == ["a2", "a3", "a4", "a5", "a6", "a7"]   # a8: West stands there
    assert owned_cells(game, state, ONCE, SOUTH) == ["b8", "c8", "d8", "e8", "f8", "g8"]
    ticks = log.boards[ONCE].phases[0].ticks
    assert len(ticks) == 7 and ticks[0].captured == ((8, NORTH), (62, SOUTH))       # a2 and g8 at tick 1
    assert ticks[6].contested == (56,)              # a8: both enter it at tick 7, and West stands there
    # pieces never block: North ends on a8 too; its start cell a1 is not captured (spawn_captures = false)
    assert game.tables[ONCE].label(state.pieces[ONCE][NORTH][0]) == "a8" and not state.owned[ONCE][NORTH] & 1


def test_squares_can_be_recaptured():
    """"Squares can be recaptured.\""""
    game = load()
    fields = dict(boards={"Twice": {"rows": rows_with(game, TWICE, {f"{c}1": "E" for c in "bcdefgh"})}})
    state, _ = resolve(game, position(game, **fields), {NORTH: {"directions": {"Twice": ["R.."]}}})
    assert owned_cells(game, state, TWICE, NORTH) == ["b1", "c1", "d1", "e1", "f1", "g1", "h1"]
    assert owned_cells(game, state, TWICE, EAST) == []


def test_pieces_on_the_same_path_go_through_each_other():
    """"If 2 pieces are on the same path but opposite directions, they go through each other.\""""
    game = load()
    state, log = resolve(game, game.initial_state(), {NORTH: {"directions": {"Once": ["R.."]}},
                                                      EAST: {"directions": {"Once": ["L.."]}}})
    # they swap cells between ticks 3 and 4, never share one, and each recaptures what the other took
    assert owned_cells(game, state, ONCE, NORTH) == ["e1", "f1", "g1", "h1"]
    assert owned_cells(game, state, ONCE, EAST) == ["a1", "b1", "c1", "d1"]
    assert [game.tables[ONCE].label(state.pieces[ONCE][s][0]) for s in (NORTH, EAST)] == ["h1", "a1"]
    assert all(not tick.contested for tick in log.boards[ONCE].phases[0].ticks)


def test_a_square_occupied_by_two_players_at_once_is_not_captured():
    """"If they would occupy the same square during this process, that square isn't captured.\""""
    game = load()
    fields = dict(boards={"Once": {"pieces": {"East": ["g1"]},
                                   "rows": rows_with(game, ONCE, {"d1": "S"})}})
    state, log = resolve(game, position(game, **fields), {NORTH: {"directions": {"Once": ["R.."]}},
                                                          EAST: {"directions": {"Once": ["L.."]}}})
    ticks = log.boards[ONCE].phases[0].ticks
    assert ticks[2].contested == (game.tables[ONCE].cell_of("d1"),)     # both enter d1 at tick 3
    assert owned_cells(game, state, ONCE, SOUTH) == ["d1"]               # it keeps its owner (no_change)
    neutral = load(contested_capture="neutralise")
    state, _ = resolve(neutral, position(neutral, **fields), {NORTH: {"directions": {"Once": ["R.."]}},
                                                              EAST: {"directions": {"Once": ["L.."]}}})
    assert owned_cells(neutral, state, ONCE, SOUTH) == []


def test_a_standing_piece_keeps_others_from_capturing_its_cell():
    """RULES.md B21: "every piece on that cell at that tick (moving or stopped)" counts
    (``stopped_pieces_contest``); pieces of one player never contest each other (``same_owner_contest``)."""
    game = load()
    fields = dict(boards={"Once": {"pieces": {"East": ["e1"]}}})
    state, _ = resolve(game, position(game, **fields), {NORTH: {"directions": {"Once": ["R.."]}}})
    assert owned_cells(game, state, ONCE, NORTH) == ["b1", "c1", "d1", "f1", "g1", "h1"]
    loose = load(stopped_pieces_contest=False)
    state, _ = resolve(loose, position(loose, **fields), {NORTH: {"directions": {"Once": ["R.."]}}})
    assert "e1" in owned_cells(loose, state, ONCE, NORTH)
    # two of North's own pieces on one cell: captured, unless same_owner_contest
    round2 = dict(round=2, boards={"Once": {"pieces": {"North": ["a1", "e1"]}}})
    state, _ = resolve(game, position(game, **round2), {NORTH: {"directions": {"Once": ["R..", "..."]}}})
    assert "e1" in owned_cells(game, state, ONCE, NORTH)
    strict = load(same_owner_contest=True)
    state, _ = resolve(strict, position(strict, **round2), {NORTH: {"directions": {"Once": ["R..", "..."]}}})
    assert "e1" not in owned_cells(strict, state, ONCE, NORTH)


def test_a_blocked_piece_turns_to_the_most_uncaptured_squares():
    """"If the direction a players piece cannot move in the direction they submitted, it will move in the
    direction that makes it travel the furthest on uncaptured squares.\""""
    game = load()
    # North on a1 is sent up (off the board): right crosses 7 cells, 5 of them East's; down crosses 7 free
    fields = dict(boards={"Once": {"rows": rows_with(game, ONCE, {f"{c}1": "E" for c in "bcdef"})}})
    state, log = resolve(game, position(game, **fields), {NORTH: {"directions": {"Once": ["U.."]}}})
    move = log.boards[ONCE].phases[0].moves[0]
    assert (DIRECTIONS[move.intended], DIRECTIONS[move.taken]) == ("up", "down")
    assert game.tables[ONCE].label(state.pieces[ONCE][NORTH][0]) == "a8"     # West stands on a8: not captured
    assert "a8" not in owned_cells(game, state, ONCE, NORTH)
    # "distance" counts every cell: then right (7 cells, a perpendicular) beats down (7 cells, the opposite)
    far = load(redirect_metric="distance")
    _, log = resolve(far, position(far, **fields), {NORTH: {"directions": {"Once": ["U.."]}}})
    assert DIRECTIONS[log.boards[ONCE].phases[0].moves[0].taken] == "right"


def test_a_tie_goes_to_the_direction_closer_to_the_intended_one():
    """"If this is a tie, it will go to whichever direction is closer to the intended direction.\""""
    game = load()
    # North on d3 is sent left into a wall at c3: up (d2 d1) and down (d4) and right (e3..h3) are open;
    # owners make up, down and right cross 2 unowned cells each: right (the opposite) loses to up
    fields = dict(boards={"Once": {"pieces": {"North": ["d3"]},
                                   "rows": rows_with(game, ONCE, {"c3": "#", "d5": "#", "d4": ".",
                                                                  "g3": "E", "h3": "E", "e3": ".", "f3": "."})}})
    state = position(game, **fields)
    _, log = resolve(game, state, {NORTH: {"directions": {"Once": ["L.."]}}})
    move = log.boards[ONCE].phases[0].moves[0]
    assert DIRECTIONS[move.taken] == "up"


def test_a_remaining_tie_goes_toward_the_own_corner():
    """"If this is a tie, goes towards the direction which is closest to your starting corner direction."
    (RULES.md B17: toward the player's own corner on that board: top left, up or left; top right, up or
    right.)"""
    game = load()
    # North and East both on d1, sent up (off the board); down is a wall (d2); left crosses c1 b1 a1 and
    # right e1 f1 g1 h1 with one owned: 3 unowned cells each way
    fields = dict(boards={"Once": {"pieces": {"North": ["d1"], "East": ["d1"]},
                                   "rows": rows_with(game, ONCE, {"d2": "#", "g1": "S"})}})
    orders = {NORTH: {"directions": {"Once": ["U.."]}}, EAST: {"directions": {"Once": ["U.."]}}}
    _, log = resolve(game, position(game, **fields), orders)
    taken = {m.seat: DIRECTIONS[m.taken] for m in log.boards[ONCE].phases[0].moves if m.intended >= 0}
    assert taken == {NORTH: "left", EAST: "right"}
    away = load(corner_tiebreak="away_from_own_corner")
    _, log = resolve(away, position(away, **fields), orders)
    taken = {m.seat: DIRECTIONS[m.taken] for m in log.boards[ONCE].phases[0].moves if m.intended >= 0}
    assert taken == {NORTH: "right", EAST: "left"}


def test_a_piece_with_no_way_out_stays():
    """RULES.md B18: "If no direction has travel ≥ 1, the piece stays"; and a phase without a direction
    (B22: ``missing_direction = "stay"``) leaves the piece where it is."""
    game = load()
    fields = dict(boards={"Thrice": {"pieces": {"South": ["e5"]},
                                     "rows": rows_with(game, THRICE, {"e4": "#", "f5": "#", "e6": "#"})}})
    state, log = resolve(game, position(game, **fields), {SOUTH: {"directions": {"Thrice": ["R.D"]}}})
    moves = [m for phase in log.boards[THRICE].phases for m in phase.moves if m.seat == SOUTH]
    assert [(m.intended, m.taken) for m in moves] == [(1, -1), (-1, -1), (2, -1)]
    assert game.tables[THRICE].label(state.pieces[THRICE][SOUTH][0]) == "e5"


def test_three_phases_one_after_the_other():
    """"After all pieces have stopped moving with their first direction, this repeats for their second
    direction. (then third)\""""
    game = load()
    state, log = resolve(game, game.initial_state(), {NORTH: {"directions": {"Twice": ["RDL"]}}})
    t = game.tables[TWICE]
    ends = [t.label(phase.moves[0].path[-1]) for phase in log.boards[TWICE].phases]
    assert ends == ["i1", "i9", "a9"]         # through South's corner i1 and East's i9 (pieces never block)
    assert len(log.boards[TWICE].phases) == 3 and t.label(state.pieces[TWICE][NORTH][0]) == "a9"


# --------------------------------------------------------------------------- scoring and the end

def test_tied_players_share_the_average_points():
    """"If there is a tie, players will gain the average points of the tied placed points." (the seed's four
    examples)"""
    points = (6, 4, 2, 1)
    assert place_points([9, 9, 3, 1], points, "average")[1][:2] == [5.0, 5.0]
    assert place_points([9, 5, 5, 1], points, "average")[1][1:3] == [3.0, 3.0]
    assert place_points([9, 5, 2, 2], points, "average")[1][2:] == [1.5, 1.5]
    assert place_points([4, 4, 4, 1], points, "average")[1] == [4.0, 4.0, 4.0, 1.0]


def final_position(game):
    """After round 3: North 6/1/2 (9), East 4/4/1 (9), South 2/6/4 (12), West 1/2/6 (9)."""
    def rows(board, counts):
        letters = "".join(ch * n for ch, n in counts)
        cells = {f"{'abcdefghij'[k % 8]}{2 + k // 8}": ch for k, ch in enumerate(letters)}
        return rows_with(game, board, cells)
    return position(game, round=3, phase="over", boards={
        "Once": {"rows": rows(ONCE, [("N", 4), ("E", 3), ("S", 2), ("W", 1)])},
        "Twice": {"rows": rows(TWICE, [("S", 4), ("E", 3), ("W", 2), ("N", 1)])},
        "Thrice": {"rows": rows(THRICE, [("W", 4), ("S", 3), ("N", 2), ("E", 1)])}})


def test_the_ranking_and_its_tie_breaks():
    """"If there is a tie, we resolve based on who got the highest amount of points on any individual board.
    e.g. 4, 4, 1 is worse than 6, 2, 1." / "If there is still a tie, whoever placed better on “Thrice” is ranked
    higher.\""""
    game = load()
    result = game.scores(final_position(game))
    assert [bs.points for bs in result.boards] == [(6, 4, 2, 1), (1, 4, 6, 2), (2, 1, 4, 6)]
    assert result.totals == (9, 9, 12, 9)
    assert result.places == (3, 4, 1, 2)      # West's 6 on Thrice beats North's 6 on Once; East's best is 4
    assert result.winners == (SOUTH,) and result.candidates == (EAST,)


def test_the_winner_and_the_elimination_candidate():
    """"The player with the most points wins and earns a Token of Life." / "The player with the least points is
    our loser and Elimination Candidate.\""""
    game = load()
    outcome = game.outcome(final_position(game))
    assert outcome.winner == SOUTH and outcome.scores == (9, 9, 12, 9)
    assert outcome.reason.startswith("South wins the Token of Life with 12 points; Elimination Candidate: East")
    tied = game.outcome(position(game, round=3, phase="over"))       # nobody owns a cell: all share first
    assert tied.winners == (0, 1, 2, 3) and "(shared)" in tied.reason
    ordered = load(final_tie_policy="seat_order")
    assert ordered.outcome(position(ordered, round=3, phase="over")).winners == (NORTH,)


def test_a_garnet_for_each_board_won_alone():
    """"Players gain 1 Garnet for every board they got 1st place (alone).\""""
    game = load()
    result = game.scores(final_position(game))
    assert result.garnets == (4, 3, 4, 4)       # North on Once, South on Twice, West on Thrice; none spent


def test_the_garnet_bonus_is_secret_and_adds_the_walls_placed_that_round():
    """"You may spend 1 garnet to gain “capture” added to your total for a board, equal to the number of walls
    you place on that board in a round. (max 1 per board) (announced at end of MM)\""""
    game = load(rounds=2)
    state = game.initial_state()
    state = game.apply(state, Garnet(NORTH, TWICE, True))
    assert game.notation(state, Garnet(NORTH, TWICE, True), viewer=EAST) == "North changes their order"
    assert "North's order" not in json.dumps(game.view(state, EAST))
    state, log = resolve(game, state, {NORTH: {"walls": {"Twice": ["d2", "f8"]}}, EAST: {"walls": {"Twice": ["f2"]}}})
    assert "garnet" not in game.round_words(log)       # the reveal leaves the flags out
    assert state.flags[NORTH][TWICE] == (1,) and state.placed[NORTH][TWICE] == (2, 0)
    assert "(round 1)" not in json.dumps(game.view(state, EAST)) and "(round 1)" not in json.dumps(game.view(state, None))
    assert "Twice (round 1)" in json.dumps(game.view(state, NORTH), ensure_ascii=False)
    # at most one bonus per board
    assert "has used the garnet bonus on Twice already" in assert_illegal(
        game, state, Garnet(NORTH, TWICE, True), "B.1 §16")
    state, log = resolve(game, state, {})
    result = game.scores(state)
    assert result.boards[TWICE].bonus[NORTH] == 2 and result.boards[TWICE].score[NORTH] == 2
    assert result.garnets[NORTH] == 3 - 1 + 1                      # paid one, first alone on Twice
    assert "garnet bonuses: North +2 on Twice" in game.round_words(log)


def test_garnet_flags_may_not_promise_more_garnets_than_held():
    """RULES.md B.1 §16: "a player's flags over the whole game may never exceed the garnets they hold"."""
    game = load(starting_garnets=1)
    state = game.apply(game.initial_state(), Garnet(WEST, ONCE, True))
    assert "holds 1 garnets and 1 are promised already" in assert_illegal(game, state, Garnet(WEST, THRICE, True),
                                                                          "B.1 §16")
    off = load(garnet_bonus_enabled=False)
    assert "garnet bonus is off" in str(off.why_not(off.initial_state(), Garnet(WEST, ONCE, True)))


def test_the_garnet_bonus_chosen_after_the_last_round():
    """RULES.md B23, ``garnet_decision_time = "at_end"``: after the last round each seat picks its boards in a
    last secret order; the best round's placed walls count."""
    game = load(rounds=1, garnet_decision_time="at_end")
    assert "chosen after the last round" in str(game.why_not(game.initial_state(), Garnet(NORTH, ONCE, True)))
    state, _ = resolve(game, game.initial_state(), {EAST: {"walls": {"Thrice": ["d2", "g2", "e8"]}}})
    assert state.phase == "garnets" and game.to_move(state) == SIMULTANEOUS
    assert [type(a).__name__ for a in game.legal_actions(state, EAST)] == ["Garnet", "Garnet", "Garnet", "Submit"]
    state, _ = resolve(game, state, {EAST: {"garnet": ["Thrice"]}})
    assert state.phase == "over" and state.flags[EAST][THRICE] == (1,)
    assert game.scores(state).boards[THRICE].bonus[EAST] == 3


# --------------------------------------------------------------------------- simultaneous secret orders

def test_each_seat_sees_only_its_own_order():
    """RULES.md B.4: "wall squares and direction lists are submitted secretly and simultaneously"."""
    game = load()
    state = game.initial_state()
    for action in game.order(NORTH, walls={"Twice": ["d5"]}, directions={"Once": ["RDL"]}, submit=False):
        state = game.apply(state, action)
    north, east, table = (json.dumps(game.view(state, s), ensure_ascii=False) for s in (NORTH, EAST, None))
    assert "North's order (secret)" in north and "→↓←" in north and "▦" in north
    for other in (east, table):
        assert "→↓←" not in other and "▦" not in other and "North's order" not in other
    assert [game.notation(state, Direct(NORTH, ONCE, 0, 1, "right"), v) for v in (NORTH, EAST, None)] == [
        "North: Once piece 1, phase 1: right →", "North changes their order", "North changes their order"]
    # a submitted order is shown as submitted, and may be withdrawn while others still have to submit
    state = game.apply(state, Submit(NORTH))
    assert game.view(state, EAST)["panels"][0]["rows"][0] == ["North", "submitted"]
    assert "withdraw the order to change it" in assert_illegal(game, state, AddWall(NORTH, ONCE, (3, 3)), "B.1 §8")
    state = game.apply(state, Withdraw(NORTH))
    state = game.apply(state, Clear(NORTH))
    assert state.orders[NORTH] is None


def test_the_last_submission_reveals_every_order_and_explains_each_rejection():
    """RULES.md B29: "other players' submissions [are] revealed after each round, except the garnet flags"."""
    session = playtest.Session(load(), seed=1)
    game = session.game
    plans = {NORTH: dict(walls={"Twice": ["d5"]}, directions={"Once": ["RDL"]}, garnet=["Once"]),
             EAST: dict(walls={"Twice": ["e5"]}), SOUTH: {}, WEST: {}}
    for seat, plan in plans.items():
        for action in game.order(seat, **plan):
            session.play(action, seat=seat)
    last = session.history(viewer=None)[-1]["notation"]
    assert last.startswith("West submitted; round 1 revealed: North: walls Twice d5; pieces Once →↓←, Twice ···, "
                           "Thrice ···; East: walls Twice e5;")
    assert ("not placed: Twice d5 (North): rejected: orthogonally adjacent to East's wall e5 on Twice; "
            "Twice e5 (East): rejected: orthogonally adjacent to North's wall d5 on Twice") in last
    assert "garnet" not in last
    assert session.history(viewer=EAST)[-1]["notation"] == last


def test_resolution_does_not_depend_on_who_submitted_first():
    """RULES.md B.5: the resolution "has to be order-independent"."""
    game = load()
    rng = random.Random(4)
    state = game.initial_state()
    orders = [game.random_order(state, s, rng) for s in range(4)]
    results = {enter_orders(game, state, orders, sequence) for sequence in ([0, 1, 2, 3], [3, 1, 0, 2], [2, 3, 1, 0])}
    assert len(results) == 1


def order_actions(game, seat, order):
    """The part actions (then Submit) that enter ``order`` for ``seat`` from nothing."""
    actions = []
    for b, cells in enumerate(order.walls):
        actions += [AddWall(seat, b, game.tables[b].cell(c)) for c in cells]
    for b, per in enumerate(order.directions):
        for k, plan in enumerate(per):
            actions += [Direct(seat, b, k, i + 1, DIRECTIONS[d]) for i, d in enumerate(plan) if d >= 0]
    actions += [Garnet(seat, b, True) for b in range(3) if order.garnet[b]]
    return actions + [Submit(seat)]


def enter_orders(game, state, orders, sequence):
    """The state after each seat of ``sequence`` enters its order part by part and submits it."""
    for seat in sequence:
        for action in order_actions(game, seat, orders[seat]):
            state = game.apply(state, action)
    return state


def test_all_directions_required_when_missing_directions_are_refused():
    """RULES.md B22 with ``missing_direction = "refuse"``: Submit waits for every direction; no "stay"."""
    game = load(missing_direction="refuse")
    state = game.initial_state()
    assert Submit(NORTH) not in game.legal_actions(state, NORTH)
    assert "9 missing" in assert_illegal(game, state, Submit(NORTH), "B22")
    for action in game.order(NORTH, directions={"Once": ["UUU"], "Twice": ["DDD"], "Thrice": ["LLL"]}, submit=False):
        state = game.apply(state, action)
    assert Submit(NORTH) in game.legal_actions(state, NORTH)
    assert not any(isinstance(a, Direct) and a.direction == STAY for a in game.legal_actions(state, NORTH))


def test_a_live_rule_change_drops_orders_it_no_longer_allows():
    """A live parameter applies at once; an order with more walls than the new quota is dropped."""
    session = playtest.Session(load(), seed=1)
    for action in session.game.order(SOUTH, walls={"Thrice": ["b3", "e3", "h3"]}, submit=False):
        session.play(action, seat=SOUTH)
    session.play(AddWall(NORTH, THRICE, (1, 8)), seat=NORTH)
    session.set_params(walls_per_round=(1, 2, 2))
    assert session.state.orders[SOUTH] is None and session.state.orders[NORTH] is not None
    assert session.state.rules.walls_per_round == (1, 2, 2)


def test_two_and_three_players():
    """RULES.md B27: other player counts: the corners of missing seats stay empty."""
    for n in (2, 3):
        game = load(num_players=n)
        state, _ = play_game(game, RandomBot(n), random.Random(n))
        assert game.outcome(state) is not None and len(game.scores(state).totals) == n
        assert game.tables[ONCE].seat_at_corner[n:] == (-1,) * (4 - n)


# --------------------------------------------------------------------------- positions

def test_positions_are_checked_field_by_field():
    game = load()
    cases = {
        "rows must be 8 text rows": {"boards": {"Once": {"rows": ["........"]}}},
        "'X' at a1 is not": {"boards": {"Once": {"rows": ["X......."] + ["........"] * 7}}},
        "a corner cannot be a wall": {"boards": {"Once": {"rows": ["#......."] + ["........"] * 7}}},
        "cut a corner off": {"boards": {"Once": {"rows": [".#......", "#......."] + ["........"] * 6}}},
        "has 1 piece(s) on each board in round 1, not 2": {"boards": {"Once": {"pieces": {"North": ["a1", "b1"]}}}},
        "'Nord' is not a seat": {"orders": {"Nord": {}}},
        "at most 1 (walls_per_round)": {"orders": {"North": {"walls": {"Once": ["d2", "f2"]}}}},
        "when every seat has submitted": {"orders": {s: {"submitted": True} for s in ("North", "East", "South",
                                                                                         "West")}},
        "unknown fields": {"colour": "red"},
        "flags.North.Once must list different rounds already played": {"flags": {"North": {"Once": [1]}}},
    }
    for message, fields in cases.items():
        with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
            game.state_from_json(fields)


@SETTINGS
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 400))
def test_every_position_reads_back_from_its_own_json(seed, steps):
    game = load()
    state = random_position(game, seed, steps)
    assert game.state_from_json(json.loads(json.dumps(state.to_json()))) == state


def random_position(game, seed, steps):
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(steps):
        if game.to_move(state) is None:
            break
        state = game.apply(state, game.random_action(state, rng))
    return state


# --------------------------------------------------------------------------- properties

@SETTINGS
@given(seed=st.integers(0, 10_000), rounds=st.integers(1, 3))
def test_resolution_is_independent_of_the_submission_order(seed, rounds):
    game = load(rounds=rounds)
    rng = random.Random(seed)
    state = game.initial_state()
    while game.to_move(state) is not None:
        orders = [game.random_order(state, s, rng) for s in range(4)]
        finals = {enter_orders(game, state, orders, rng.sample(range(4), 4)) for _ in range(2)}
        assert len(finals) == 1
        state = finals.pop()


@SETTINGS
@given(seed=st.integers(0, 10_000), rule=st.sampled_from(["each_reaches_one", "all_pairs"]),
       how=st.sampled_from(["dm_minimal_subsets", "reject_all_new", "reject_by_seat_priority"]),
       walls=st.tuples(st.integers(0, 4), st.integers(0, 6), st.integers(0, 12)))
def test_after_resolution_no_wall_is_owned_and_the_corner_rule_holds(seed, rule, how, walls):
    game = load(corner_rule=rule, corner_violation_resolution=how, walls_per_round=walls,
                adjacency_rules=("none", "none", "none"))
    rng = random.Random(seed)
    state = game.initial_state()
    while game.to_move(state) is not None:
        for seat in range(4):
            order = game.random_order(state, seat, rng)
            # many walls near the corners, to meet the corner rule often
            crowd = []
            for b, t in enumerate(game.tables):
                near = [c for c in range(t.size) if game.wall_cells(state, b) >> c & 1
                        and min(abs(c % t.cols - x % t.cols) + abs(c // t.cols - x // t.cols) for x in t.corners) <= 2]
                crowd.append(tuple(sorted(rng.sample(near, min(len(near), walls[b])))))
            order = order._replace(walls=tuple(crowd))
            for action in order_actions(game, seat, order):
                state = game.apply(state, action)
        for b, t in enumerate(game.tables):
            assert t.corners_connected(state.walls[b], rule)
            assert all(not state.walls[b] & m for m in state.owned[b])
            owners = [m for m in state.owned[b]]
            assert all(not (owners[i] & owners[j]) for i in range(4) for j in range(i))


def candidate_actions(game, state):
    """A superset of the legal actions: every part on every cell, piece, phase and direction, and the rest."""
    actions = []
    for seat in range(4):
        for b, t in enumerate(game.tables):
            for c in range(t.size):
                actions += [AddWall(seat, b, t.cell(c)), RemoveWall(seat, b, t.cell(c))]
            for k in range(4):
                for phase in range(1, 4):
                    actions += [Direct(seat, b, k, phase, d) for d in DIRECTIONS + (STAY,)]
            actions += [Garnet(seat, b, True), Garnet(seat, b, False)]
        actions += [Clear(seat), Submit(seat), Withdraw(seat)]
    return actions


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 600),
       variant=st.sampled_from([{}, {"missing_direction": "refuse"}, {"refuse_void_walls": False},
                                {"garnet_decision_time": "at_end", "rounds": 1}]))
def test_play_accepts_exactly_what_legal_actions_lists(seed, steps, variant):
    game = load(**variant)
    state = random_position(game, seed, steps)
    legal = set(game.legal_actions(state))
    for seat in range(4):
        assert set(game.legal_actions(state, seat)) <= legal
    for action in candidate_actions(game, state):
        why = game.why_not(state, action)
        assert (why is None) == (action in legal), (action, why)
        if why is not None:
            with pytest.raises(IllegalAction):
                game.apply(state, action)


def test_a_malformed_action_is_refused_with_a_message():
    game = load()
    with pytest.raises(ValueError, match="malformed wall action: at must be"):
        game.action_from_json({"kind": "wall", "seat": 0, "board": 0, "at": "d4"})
    session = playtest.Session(game, seed=1)
    with pytest.raises(IllegalAction, match="there is no board 5"):
        session.play({"kind": "wall", "seat": 0, "board": 5, "at": [3, 3]}, seat=0)
    with pytest.raises(IllegalAction, match="a direction is up, right, down or left"):
        session.play({"kind": "direct", "seat": 0, "board": 0, "piece": 0, "phase": 1, "direction": "north"}, seat=0)
    assert session.move_number == 0


# --------------------------------------------------------------------------- golden games

def golden_game(game, seed):
    """A whole game from seeded random orders, each entered part by part and submitted in a seeded seat
    order: every submission, every wall's result, every phase's moves and ticks, and the final ranking."""
    rng = random.Random(seed)
    state = game.initial_state()
    rounds = []
    names = game.names
    while game.to_move(state) is not None:
        orders = [game.random_order(state, s, rng) for s in range(len(names))]
        sequence = rng.sample(range(len(names)), len(names))
        full = state._replace(orders=tuple(o._replace(submitted=True) for o in orders))
        log = game.resolve(full)
        entry = log.to_json(game)
        entry["submitted_in_order"] = [names[s] for s in sequence]
        entry["garnet"] = {names[s]: [game.params.board_names[b] for b in range(3) if o.garnet[b]]
                           for s, o in enumerate(orders) if any(o.garnet)}
        rounds.append(entry)
        state = enter_orders(game, state, orders, sequence)
        assert state == log.after
    result = game.scores(state)
    final = {"boards": {game.params.board_names[b]: {names[s]: {"cells": bs.cells[s], "bonus": bs.bonus[s],
                                                                 "place": bs.places[s], "points": bs.points[s]}
                                                      for s in range(len(names))}
                        for b, bs in enumerate(result.boards)},
             "ranking": [{"seat": names[s], "place": result.places[s], "points": result.totals[s],
                          "garnets": result.garnets[s]} for s in sorted(range(len(names)),
                                                                        key=lambda s: (result.places[s], s))],
             "token_of_life": [names[s] for s in result.winners],
             "elimination_candidate": [names[s] for s in result.candidates],
             "outcome": game.outcome(state).reason}
    return {"game": NAME, "params": {k: list(v) if isinstance(v, tuple) else v
                                     for k, v in game.params.changed().items()},
            "seed": seed, "rounds": rounds, "final": final}


GOLDEN_GAMES = {
    "default": ({}, 1),
    "variants": ({"corner_rule": "all_pairs", "forbid_piece_enclosure": True, "contested_capture": "neutralise",
                  "redirect_metric": "not_own_cells", "walls_per_round": (2, 3, 4), "adjacency_rules":
                  ("orthogonal", "none", "king")}, 2),
    "at_end": ({"garnet_decision_time": "at_end", "spawn_captures": True, "tie_points": "lowest"}, 3),
}


@pytest.mark.parametrize("name", sorted(GOLDEN_GAMES))
def test_golden_transcripts(name):
    params, seed = GOLDEN_GAMES[name]
    game = load(**params)
    transcript = json.loads(json.dumps(golden_game(game, seed)))
    path = GOLDEN / f"back_to_the_wall_{name}.json"
    if os.environ.get("PLAYTEST_WRITE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(transcript, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    expected = json.loads(path.read_text(encoding="utf-8"))
    for k, (got, want) in enumerate(zip(transcript["rounds"], expected["rounds"])):
        assert got == want, f"round {k + 1} differs from {path.name}"
    assert transcript == expected


def test_the_golden_games_meet_the_rules_they_pin():
    """The pinned games are worth pinning: they hold rejected walls, contested cells and redirects."""
    texts = json.dumps([json.loads((GOLDEN / f"back_to_the_wall_{n}.json").read_text(encoding="utf-8"))
                        for n in GOLDEN_GAMES], ensure_ascii=False)
    for needle in ("rejected: orthogonally adjacent", "rejected: diagonally adjacent", "cut off a corner",
                   "\"contested\": [\"", "->", "credited to"):
        assert needle in texts, needle


# --------------------------------------------------------------------------- bots

def test_random_bots_end_their_orders_and_the_game():
    """RandomBot picks uniformly among a seat's parts and Submit, so every order and the game ends."""
    game = load()
    state, steps = play_game(game, RandomBot(5), random.Random(5))
    assert game.to_move(state) is None and steps < 20_000


def test_the_greedy_bot_captures_more_than_random_opponents():
    # random players write random whole orders (the game's random_order_parts): ten games, not three,
    # for the greedy seat's lead (about 300 cells to 250) to stand clear of the noise
    game = load(rounds=1)
    totals = [0, 0, 0, 0]
    for k in range(10):
        bots = [GreedyBot(seed=k), RandomBot(10 + k), RandomBot(20 + k), RandomBot(30 + k)]
        state, _ = play_game(game, bots, random.Random(k))
        for seat in range(4):
            totals[seat] += sum(bin(state.owned[b][seat]).count("1") for b in range(3))
    assert totals[0] > max(totals[1:])


def test_the_greedy_bot_sees_only_what_its_seat_knows():
    game = load()
    state = game.initial_state()
    for action in game.order(EAST, walls={"Thrice": ["b2"]}, directions={"Once": ["LLL"]}):
        state = game.apply(state, action)
    for seat in (NORTH, SOUTH):
        other = game.determinize(state, seat, random.Random(7))
        choices = {repr(choose_for(GreedyBot(seed=1), game, s, seat, random.Random(3))) for s in (state, other)}
        assert len(choices) == 1
    # it builds a whole order, then submits it
    bot, current = GreedyBot(seed=2), state
    for _ in range(60):
        action = choose_for(bot, game, current, NORTH, random.Random(1))
        current = game.apply(current, action)
        if isinstance(action, Submit):
            break
    assert current.orders[NORTH].submitted and current.orders[NORTH].missing() == 0


# --------------------------------------------------------------------------- the table

def options(scene, item_id):
    return {o["label"]: o["action"] for o in scene["moves"].get(item_id, [])}


def click(table, action):
    table.board.receive({"type": "action", "action": action})
    assert table.board.error == "", table.board.error


def test_the_table_plays_a_round_behind_the_curtain_and_plays_it_back():
    session = playtest.Session(load(rounds=1), seed=1)
    table = playtest.Table(session)
    assert table.board.curtain["text"] == "Pass to North: click when ready"
    click_parts = {NORTH: ("b1:d5", "b0:p0.0", "phase 1: → right"), EAST: ("b1:e5", "b0:p1.0", "phase 1: ← left"),
                   SOUTH: ("b2:e8", "b2:p2.0", "phase 1: ↑ up"), WEST: (None, None, None)}
    for seat, (cell, piece, arrow) in click_parts.items():
        table.board.receive({"type": "command", "name": "reveal", "seat": seat})
        assert table.viewer == seat and table.board.curtain == {}
        scene = table.board.scene
        if cell:
            (label, action), = options(scene, cell).items()
            assert label.startswith("wall here")
            click(table, action)
            assert options(table.board.scene, cell) == {"take this wall back out of the order": {
                "kind": "unwall", **{k: v for k, v in action.items() if k != "kind"}}}
            menu = options(table.board.scene, piece)
            assert len(menu) == 12 and arrow in menu
            click(table, menu[arrow])
        buttons = {b["label"]: b.get("action") for b in table.board.scene["buttons"]}
        assert "Garnet bonus on Once" in buttons and "Clear my order" in buttons or not cell
        click(table, buttons["Submit my order"])
        if seat != WEST:
            assert table.board.curtain["text"].startswith("Pass to ")
            assert "d5" not in " ".join(label for label, _ in table.move_log.options)
    assert session.is_over
    frames = session.playback(None)
    assert len(frames) >= 3 and table.playback_slider.max == len(frames)
    table.board.receive({"type": "command", "name": "reveal", "seat": NORTH}) if table.board.curtain else None
    table.playback_slider.value = 1
    hint = table.board.scene["hint"]
    assert "Twice d5 (North): rejected: orthogonally adjacent to East's wall e5 on Twice" in hint
    walls = next(p for p in table.board.scene["panels"] if p["title"] == "Walls of round 1")
    assert ["Twice e5", "East", "rejected: orthogonally adjacent to North's wall d5 on Twice"] in walls["rows"]
    table.playback_slider.value = 2
    assert table.board.scene["hint"].startswith("Phase 1, tick 1: captured Once b1 North")


def test_a_click_that_cannot_be_played_says_which_rule():
    session = playtest.Session(load(refuse_void_walls=True), seed=1)
    table = playtest.Table(session, seat=EAST)
    scene = table.board.scene
    assert scene["reasons"]["b0:a1"] == "walls never go on a corner (Once a1 is North's corner) (rule B.1 §9.1)"
    assert scene["reasons"]["b0:p0.0"].startswith("that is North's piece: each seat directs its own pieces")
    assert "b0:p1.0" in scene["moves"] and "b0:p0.0" not in scene["moves"]
    table.board.receive({"type": "action", "action": AddWall(NORTH, ONCE, (3, 3)).to_json()})
    assert "this table plays for East" in table.board.error and session.move_number == 0
    table.board.receive({"type": "action", "action": AddWall(EAST, ONCE, (0, 0)).to_json()})
    assert "walls never go on a corner" in table.board.error and session.move_number == 0


def test_the_board_shows_three_boards_with_coordinates_and_the_score():
    game = load()
    scene = game.view(game.initial_state(), NORTH)
    assert [b["title"] for b in scene["boards"]] == ["Once (8 × 8)", "Twice (9 × 9)", "Thrice (10 × 10)"]
    assert scene["boards"][0]["labels"] == {"cols": list("abcdefgh"), "rows": [str(r) for r in range(1, 9)]}
    assert scene["boards"][2]["labels"]["rows"][-1] == "10" and scene["boards"][1]["labels"]["cols"][-1] == "i"
    panels = {p["title"]: p["rows"] for p in scene["panels"]}
    assert panels["Captured cells (place) so far"][:2] == [["", "Once", "Twice", "Thrice"],
                                                           ["North", "0 (1st)", "0 (1st)", "0 (1st)"]]
    assert panels["Points (6 / 4 / 2 / 1 a board, if it ended now)"][1] == ["North", "3.25", "3.25", "3.25", "9.75"]
    assert json.loads(json.dumps(scene)) == scene


@pytest.mark.parametrize("data, message", [
    ({"flags": {"North": {"Once": [5]}}}, "flags.North.Once must list different rounds already played (1 to 0), not [5]"),
    ({"placed": {"North": {"Once": [1]}}}, "placed.North.Once must list the walls placed in each of the 3 rounds, not [1]"),
    ({"orders": {"North": {"submitted": "yes"}}}, "orders.North.submitted must be true or false, not 'yes'"),
    ({"orders": {"North": {"walls": {"Once": "a1"}}}}, "orders.North.walls.Once must be a list of cells, not 'a1'"),
    ({"flags": 7}, "flags must be an object by seat name (North, East, South, West): "
                   "{board: [rounds with the garnet bonus]}, not 7"),
    ({"boards": {"Once": {"pieces": {"North": "a1"}}}}, "boards.Once.pieces.North must be a list of cells, not 'a1'"),
])
def test_a_position_readers_message_names_the_field_and_what_it_was_given(data, message):
    """As the kernel's declared checks word it: the game, the field's path, what it must be, and the value given."""
    with pytest.raises(ValueError) as raised:
        playtest.load("back_to_the_wall").state_from_json(data)
    assert str(raised.value) == "back_to_the_wall." + message
