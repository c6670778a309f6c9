"""Corner Rush: scenario tests from hand-written positions, hidden information, properties, and the table.

Each scenario test quotes, in its docstring, the sentence of the seed text
(``shared/seeds/003_1a11fbe116ebc417.txt``) or of RULES.md section D that it
checks. Positions are written in the JSON form of the package docstring: tiles
by name, ``a1`` bottom-left; seats Red 0 (starts a5, Ace e1), Blue 1 (e5, Ace
a1), Green 2 (e1, Ace a5), Yellow 3 (a1, Ace e5).
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import playtest
from playtest import CHANCE, DRAW, IllegalAction, Session, Table
from playtest.bots import RandomBot, bots_for, choose_for
from playtest.games.corner_rush import (Challenge, CornerRushParams, Die, Draw, EndTurn, GreedyBot, Leave, Place,
                                        Push, Roll, Step, Take, first_player, turn_order_results)
from playtest.lab import play_game

NAME = "corner_rush"


def load(**params):
    return playtest.load(NAME, **params)


def position(game, **fields):
    """A state from hand-written JSON fields (validated like any designer's position)."""
    return game.state_from_json(json.loads(json.dumps(fields)))


def assert_illegal(game, state, action, rule):
    """``action`` raises IllegalAction naming ``rule`` and leaves ``state`` as it was; returns the message."""
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        game.apply(state, action)
    assert err.value.rule == rule, str(err.value)
    assert state.to_json() == before
    return str(err.value)


def labels(game, mask):
    return game.B.labels_of(mask)


def blocker(colour, value, **extra):
    return {"colour": colour, "value": value, **extra}


# --------------------------------------------------------------------------- parameters

def test_every_parameter_of_table_d3_is_declared():
    """Every rule gap is a named parameter with its documented default (RULES.md D.3)."""
    table = {
        "num_players": 4, "board_size": 5, "center_hole": True, "hole_passable": False, "start_cells": "corners",
        "goal_cells": "opposite", "die_faces": (0, 2, 3, 4, 5, 6), "blockers_per_player": 5,
        "blocker_values": (0, 2, 3, 4, 5), "must_use_all_moves": True, "allow_revisit": True,
        "stuck_policy": "no_move", "pawn_pass_through": True, "pawn_stacking": False, "null_moves_other": True,
        "null_other_steps": 1, "null_can_finish_other": False, "blocker_placement_mandatory": True,
        "blocker_draw": "random", "placer_knows_value": True, "challenge_enabled": True,
        "challenge_adjacency": "orthogonal", "challenge_success": "at_least", "challenge_moves": "difference",
        "failed_challenge_blocker": "revealed", "captured_blocker_destination": "challenger_bag",
        "win_on_entry": True, "turn_order": "clockwise", "max_turns": 200, "rolloff_is_first_roll": False,
        "win_on_occupied_ace": True, "max_challenges_per_turn": 1, "null_power_in_challenge": False,
        "challenge_removal": "automatic", "no_free_tile": "skip", "blocker_color_visible": True, "rng_seed": -1,
        # readings RULES.md states without naming a parameter
        "other_aces_open": True, "allow_sealing": True,
    }
    specs = {s.name: s for s in CornerRushParams.specs()}
    assert set(specs) == set(table)
    for name, default in table.items():
        assert specs[name].default == default, name
        assert specs[name].help and specs[name].rule and specs[name].source in ("seed", "public", "assumed")
    seeded = {"num_players", "board_size", "center_hole", "die_faces", "blockers_per_player", "must_use_all_moves",
              "null_moves_other", "null_other_steps", "challenge_enabled", "challenge_success", "challenge_moves",
              "captured_blocker_destination", "win_on_entry"}
    assert {n for n, s in specs.items() if s.source == "seed"} == seeded
    assert not specs["board_size"].live and specs["max_turns"].live
    assert specs["failed_challenge_blocker"].choices == ("revealed", "flip_back")
    with pytest.raises(ValueError, match="odd size"):
        load(board_size=6)
    with pytest.raises(ValueError, match="placer_knows_value"):
        load(blocker_draw="choose", placer_knows_value=False)
    with pytest.raises(ValueError, match="die_faces"):
        load(die_faces=[0, 13])
    assert [len(load(num_players=n).seats()) for n in (2, 3, 4)] == [2, 3, 4]
    assert set(bots_for(NAME)) >= {"random", "greedy"}
    assert load().has_secrets


# --------------------------------------------------------------------------- the roll-off

def test_rolloff_highest_starts_and_ties_reroll():
    """"The player with the largest number on their dice starts first (smallest to largest number in the order
    of: Null, 2,3,4,5, Ace)." and "In the event of a tie, the two players will re-roll till one has a larger
    number than the other.\""""
    session = Session(load(), seed=1, auto_chance=False)
    assert session.to_move == CHANCE
    assert sum(p for _, p in session.chance_outcomes()) == pytest.approx(1)
    for value in (5, 6, 6, 0):         # Red 5, Blue Ace, Green Ace, Yellow Null: Blue and Green tie
        session.force(Die(value))
    assert session.state.phase == "rolloff"
    assert session.game.describe_state(session.state) == "Roll-off for the first player: Blue rolls again (a tie)"
    session.force(Die(3))
    session.force(Die(4))              # Green beats Blue in the re-roll
    assert session.state.phase == "start" and session.to_move == 2
    log = [e["notation"] for e in session.history()]
    assert log[4] == "Yellow rolls Null for the first player; Blue, Green tie and roll again (forced)"
    assert log[-1] == "Green rolls 4 again for the first player; Green starts (forced)"
    assert all(e["forced"] for e in session.history()[1:])
    assert first_player(session.state) == 2
    # Null is the lowest face: a Null never starts when someone rolled more
    with pytest.raises(IllegalAction):
        session.force(Die(4))          # chance is not to move any more


def test_rolloff_ties_are_recorded_chance_steps_and_turns_go_clockwise():
    """"Play then proceeds **clockwise** (assumed)." (RULES.md D.1 §7): Green starts, then Yellow, Red, Blue."""
    session = Session(load(max_turns=10), seed=4, auto_chance=False)
    for value in (2, 2, 6, 3):
        session.force(Die(value))
    order = []
    for _ in range(4):
        order.append(session.to_move)
        session.play(Roll())
        session.force(Die(0))                           # Null: the pawn stays
        if session.state.phase == "null":
            session.play(EndTurn())                     # moving another pawn is optional
        session.force(session.chance_outcomes()[0][0])  # the bag draw
        session.play(session.legal_actions()[0])        # the blocker
    assert order == [2, 3, 0, 1]
    ccw = Session(load(turn_order="counterclockwise"), seed=4, auto_chance=False)
    for value in (2, 2, 6, 3):
        ccw.force(Die(value))
    ccw.play(Roll())
    ccw.force(Die(0))
    ccw.play(EndTurn())
    ccw.force(ccw.chance_outcomes()[0][0])
    ccw.play(ccw.legal_actions()[0])
    assert ccw.to_move == 1


def test_rolloff_can_be_the_first_roll():
    """rolloff_is_first_roll: "the starter then takes a normal turn with a fresh roll" unless this is true."""
    session = Session(load(rolloff_is_first_roll=True), seed=1, auto_chance=False)
    for value in (5, 2, 3, 4):
        session.force(Die(value))
    assert session.state.phase == "move" and session.state.steps == 5 and session.to_move == 0


# --------------------------------------------------------------------------- a normal turn

def test_the_die_faces_and_their_probabilities():
    """"The number shown on the dice will be the number of moves they can make with their pawn (Ace = 6).\""""
    game = load()
    state = position(game, phase="roll", to_move=0)
    assert [(a.value, p) for a, p in game.chance_outcomes(state)] == [(v, 1 / 6) for v in (0, 2, 3, 4, 5, 6)]
    weighted = load(die_faces=[2, 2, 6])
    assert [(a.value, round(p, 3)) for a, p in weighted.chance_outcomes(position(weighted, phase="roll"))] == \
        [(2, 0.667), (6, 0.333)]
    after = game.apply(state, Die(6))
    assert after.phase == "move" and after.steps == 6 and after.path == (game.B.index("a5"),)


def test_exact_movement_uses_every_step():
    """"A pawn can only move up, down, left or right. The player must use all the moves in that turn.\""""
    game = load()
    # Red on a5, blockers on b4 and a3: a4 is a dead end, so with 2 steps a step to a4 must come back
    fields = dict(phase="move", to_move=0, steps=2, path=["a5"],
                  blockers={"b4": blocker(1, 3), "a3": blocker(1, 2)})
    state = position(game, **fields)
    assert sorted(str(a) for a in game.legal_actions(state)) == ["→a4", "→b5"]
    state = game.apply(state, Step("a4"))
    assert [str(a) for a in game.legal_actions(state)] == ["→a5"]      # revisits are allowed
    assert "must use all" in assert_illegal(game, state, EndTurn(), "D6")
    assert "not next to" in assert_illegal(game, state, Step("c5"), "D.1 §8.3")
    done = game.apply(state, Step("a5"))
    assert done.phase == "draw" and done.pawns[0] == game.B.index("a5")
    # without revisits, the dead end is a dead end
    strict = load(allow_revisit=False)
    state = position(strict, **fields)
    assert [str(a) for a in strict.legal_actions(state)] == ["→b5"]
    # with must_use_all_moves = false the pawn may stop early
    loose = load(must_use_all_moves=False)
    state = position(loose, **fields)
    assert EndTurn() in loose.legal_actions(state)


def test_no_path_of_exactly_the_roll_leaves_the_pawn_where_it_is():
    """"If no legal path of length v exists, the pawn stays (assumed)." (RULES.md D.1 §8.5, stuck_policy)"""
    game = load()
    boxed = position(game, phase="roll", to_move=0, blockers={"a4": blocker(1, 3), "b5": blocker(1, 2)})
    after = game.apply(boxed, Die(4))
    assert after.phase == "draw" and after.pawns == boxed.pawns and after.die == 4
    assert game.notation(boxed, Die(4)) == "Red rolls 4: no way of exactly 4 steps, the pawn stays"
    # a corridor a5-a4 walks back and forth, but not without revisits; "longest" moves what it can
    fields = dict(phase="roll", to_move=0, blockers={"b5": blocker(1, 3), "b4": blocker(1, 2), "a3": blocker(1, 4)})
    assert load().apply(position(load(), **fields), Die(3)).phase == "move"
    strict = load(allow_revisit=False)
    assert strict.apply(position(strict, **fields), Die(3)).phase == "draw"
    longest = load(allow_revisit=False, stuck_policy="longest")
    moved = longest.apply(position(longest, **fields), Die(3))
    assert moved.phase == "move" and moved.steps == 1


def test_the_hole_is_impassable_and_takes_no_blocker():
    """"...combining white tiles in a 5x5 format, with the middle piece empty" (the hole, RULES.md D1)."""
    game = load()
    state = position(game, phase="move", to_move=0, steps=1, path=["c4"], pawns=["c4", "e5", "e1", "a1"])
    assert "c3" not in [a.to for a in game.legal_actions(state)]
    assert "hole" in assert_illegal(game, state, Step("c3"), "D1")
    place = position(game, phase="place", to_move=0, held=[0, 3], bags=[[[0, 0], [0, 2], [0, 4], [0, 5]], [], [], []],
                     removed=[[c, v] for c in (1, 2, 3) for v in (0, 2, 3, 4, 5)])
    assert "hole" in assert_illegal(game, place, Place("c3"), "D1")
    passable = load(hole_passable=True)
    state = position(passable, phase="move", to_move=0, steps=1, path=["c4"], pawns=["c4", "e5", "e1", "a1"])
    assert Step("c3") in passable.legal_actions(state)


def test_pawns_pass_pawns_but_do_not_end_on_them():
    """"It may pass other pawns but not end on one (assumed)." (RULES.md D.1 §8.3, D7)"""
    game = load()
    # Red on a5 with 2 steps; Blue's pawn on b5: Red may cross b5 to c5, not stop on b5
    fields = dict(phase="move", to_move=0, steps=1, path=["a5"], pawns=["a5", "b5", "e1", "a1"])
    state = position(game, **fields)
    assert [str(a) for a in game.legal_actions(state)] == ["→a4"]
    assert "a pawn stands there" in assert_illegal(game, state, Step("b5"), "D7")
    two = position(game, **{**fields, "steps": 2})
    assert Step("b5") in game.legal_actions(two)
    crossing = game.apply(two, Step("b5"))
    assert crossing.pawns[0] == crossing.pawns[1] and crossing.to_json()["pawns"][:2] == ["b5", "b5"]
    assert game.state_from_json(crossing.to_json()) == crossing
    blocking = load(pawn_pass_through=False)
    assert Step("b5") not in blocking.legal_actions(position(blocking, **{**fields, "steps": 2}))


def test_null_moves_another_players_pawn_one_step():
    """"If the dice shows Null, the player cannot move their pawn but **can move another player's pawn by 1
    square** (undo mechanism).\""""
    game = load()
    state = game.apply(position(game, phase="roll", to_move=0, pawns=["a5", "b1", "e1", "a1"]), Die(0))
    assert state.phase == "null"
    actions = game.legal_actions(state)
    assert EndTurn() in actions                          # optional
    assert all(isinstance(a, Push) and a.pawn != 0 for a in actions if a != EndTurn())
    # Blue's pawn on b1 may not be pushed onto its own Ace a1; Yellow's pawn is there anyway
    assert Push(1, "a1") not in actions and Push(1, "c1") in actions and Push(1, "b2") in actions
    assert "own pawn stays" in assert_illegal(game, state, Push(0, "a4"), "D.1 §8.2")
    pushed = game.apply(state, Push(1, "c1"))
    assert pushed.pawns[1] == game.B.index("c1") and pushed.phase == "draw"
    assert game.notation(state, Push(1, "c1")) == "Red moves Blue's pawn b1→c1"
    # the variant where a push may finish the other pawn: Blue then wins
    generous = load(null_can_finish_other=True)
    state = generous.apply(position(generous, phase="roll", to_move=0, pawns=["a5", "b1", "e1", "d5"]), Die(0))
    won = generous.apply(state, Push(1, "a1"))
    assert generous.outcome(won).winners == (1,)
    # with null_moves_other = false a Null is just a turn without a move
    still = load(null_moves_other=False)
    assert still.apply(position(still, phase="roll", to_move=0), Die(0)).phase == "draw"


def test_winning_on_entry_drops_the_remaining_steps():
    """"The player does not have to use up all their moves in their final round." and "The pawn must stand on
    the token to be counted as a win.\""""
    game = load()
    state = position(game, phase="move", to_move=0, steps=4, path=["d1"], pawns=["d1", "e5", "e2", "a1"])
    assert Step("e1") in game.legal_actions(state)
    won = game.apply(state, Step("e1"))
    assert game.to_move(won) is None and game.outcome(won).winners == (0,)
    assert game.notation(state, Step("e1")) == "Red d1→e1; Red reaches its Ace on e1"
    # the win outranks "not end on a pawn" (win_on_occupied_ace), unless the designer turns it off
    occupied = position(game, phase="move", to_move=0, steps=4, path=["d1"], pawns=["d1", "e5", "e1", "a1"])
    assert game.outcome(game.apply(occupied, Step("e1"))).winners == (0,)
    strict = load(win_on_occupied_ace=False)
    crossing = strict.apply(position(strict, **occupied.to_json()), Step("e1"))
    assert strict.outcome(crossing) is None
    # win_on_entry = false: the move has to end on the Ace
    exact = load(win_on_entry=False)
    state = position(exact, phase="move", to_move=0, steps=4, path=["d1"], pawns=["d1", "e5", "e2", "a1"])
    assert exact.outcome(exact.apply(state, Step("e1"))) is None
    state = position(exact, phase="move", to_move=0, steps=1, path=["d1"], pawns=["d1", "e5", "e2", "a1"])
    assert exact.outcome(exact.apply(state, Step("e1"))).winners == (0,)


# --------------------------------------------------------------------------- challenges

def test_a_successful_challenge_takes_the_blocker_and_moves_the_difference():
    """"if they roll the dice to a number equal or higher than the number shown on the blocker, they can remove
    the blocker and place it in their token bag." and "(For instance, if the blocker number is 2 and the dice
    rolls 5, the player has 3 moves with their pawn.)\""""
    game = load()
    state = position(game, to_move=0, blockers={"a4": blocker(1, 2)})
    assert Challenge("a4") in game.legal_actions(state)
    flipped = game.apply(state, Challenge("a4"))
    assert flipped.phase == "challenge" and game.to_move(flipped) == CHANCE
    assert flipped.blockers[game.B.index("a4")].face_up
    assert game.notation(state, Challenge("a4"), viewer=3) == "Red challenges Blue's blocker on a4: it is a 2"
    after = game.apply(flipped, Die(5))
    assert after.blockers[game.B.index("a4")] is None
    assert (1, 2) in after.bags[0] and len(after.bags[0]) == 6          # the blocker goes to the challenger's bag
    assert after.phase == "move" and after.steps == 3
    assert game.notation(flipped, Die(5)) == \
        "Red rolls 5 against 2: the blocker is beaten and goes into Red's bag; 3 steps to move"
    # the freed tile may be used on the way
    assert Step("a4") in game.legal_actions(after)
    # a roll equal to the value beats it with no move (0 >= 0 even for a Null blocker)
    nil = game.apply(game.apply(position(game, to_move=0, blockers={"a4": blocker(1, 0)}), Challenge("a4")), Die(0))
    assert nil.blockers[game.B.index("a4")] is None and nil.phase == "draw"


def test_a_failed_challenge_leaves_the_blocker_face_up_and_the_pawn_still():
    """"If the player fails to unblock a space (dice roll number < blocker number), they do not get to remove the
    targeted blocker or to move their pawn, but can proceed to place a blocker if they have any.\""""
    game = load()
    state = game.apply(position(game, to_move=0, blockers={"a4": blocker(1, 5)}), Challenge("a4"))
    after = game.apply(state, Die(4))
    b = after.blockers[game.B.index("a4")]
    assert b.face_up and b.value == 5 and after.pawns == state.pawns and after.phase == "draw"
    assert game.notation(state, Die(4)) == "Red rolls 4 against 5: the challenge fails, the blocker stays face up"
    # flip_back: face down again, but everyone saw it
    back = load(failed_challenge_blocker="flip_back")
    state = back.apply(position(back, to_move=0, blockers={"a4": blocker(1, 5)}), Challenge("a4"))
    after = back.apply(state, Die(4))
    assert not after.blockers[back.B.index("a4")].face_up
    assert all(back.knows(after, seat, back.B.index("a4")) for seat in range(4))


def test_challenge_rules_and_their_variants():
    """"A player can choose to challenge a blocked space in front of their pawn at the start of their round.\""""
    game = load()
    state = position(game, to_move=0, blockers={"b4": blocker(1, 2), "c3": None} if False else
                     {"b4": blocker(1, 2), "d4": blocker(2, 3)})
    assert "next to" in assert_illegal(game, state, Challenge("b4"), "D12")     # diagonal
    assert "no blocker" in assert_illegal(game, state, Challenge("a4"), "D.1 §9")
    king = load(challenge_adjacency="king")
    assert Challenge("b4") in king.legal_actions(position(king, **state.to_json()))
    off = load(challenge_enabled=False)
    assert off.legal_actions(position(off, to_move=0, blockers={"a4": blocker(1, 2)})) == [Roll()]
    greater = load(challenge_success="greater")
    flipped = greater.apply(position(greater, to_move=0, blockers={"a4": blocker(1, 3)}), Challenge("a4"))
    assert greater.apply(flipped, Die(3)).blockers[greater.B.index("a4")] is not None
    whole = load(challenge_moves="roll")
    flipped = whole.apply(position(whole, to_move=0, blockers={"a4": blocker(1, 2)}), Challenge("a4"))
    assert whole.apply(flipped, Die(5)).steps == 5
    for where, seat in (("owner_bag", 1), ("removed", None)):
        variant = load(captured_blocker_destination=where)
        flipped = variant.apply(position(variant, to_move=0, blockers={"a4": blocker(1, 2)}), Challenge("a4"))
        after = variant.apply(flipped, Die(5))
        assert ((1, 2) in after.bags[1]) if seat == 1 else after.removed == ((1, 2),)
    optional = load(challenge_removal="optional")
    flipped = optional.apply(position(optional, to_move=0, blockers={"a4": blocker(1, 2)}), Challenge("a4"))
    choice = optional.apply(flipped, Die(6))
    assert optional.legal_actions(choice) == [Take(), Leave()]
    left = optional.apply(choice, Leave())
    assert left.blockers[optional.B.index("a4")].face_up and left.steps == 4
    taken = optional.apply(choice, Take())
    assert taken.blockers[optional.B.index("a4")] is None and (1, 2) in taken.bags[0]


def test_more_challenges_per_turn_and_null_power():
    """max_challenges_per_turn and null_power_in_challenge (RULES.md D.1 §9, §9.4)."""
    twice = load(max_challenges_per_turn=2)
    state = position(twice, to_move=0, blockers={"a4": blocker(1, 5), "b5": blocker(2, 4)})
    state = twice.apply(twice.apply(state, Challenge("a4")), Die(2))          # failed
    assert state.phase == "again" and Challenge("b5") in twice.legal_actions(state)
    state = twice.apply(twice.apply(state, Challenge("b5")), Die(2))
    assert state.phase == "draw"                                               # two done
    null = load(null_power_in_challenge=True)
    state = null.apply(null.apply(position(null, to_move=0, blockers={"a4": blocker(1, 2)}), Challenge("a4")),
                       Die(0))
    assert state.phase == "null"
    plain = load()
    state = plain.apply(plain.apply(position(plain, to_move=0, blockers={"a4": blocker(1, 2)}), Challenge("a4")),
                        Die(0))
    assert state.phase == "draw"


# --------------------------------------------------------------------------- the blocker step

def test_placement_is_mandatory_and_the_draw_is_a_chance_step():
    """"After moving their pawn, the player now draws one token (known as a 'blocker') from the token bag and
    places it number-face down anywhere on the board that is currently not occupied.\""""
    game = load(blocker_values=[2, 3, 5], blockers_per_player=3)
    state = position(game, phase="draw", to_move=0)
    assert game.to_move(state) == CHANCE
    assert game.chance_outcomes(state) == [(Draw(0, 2), 1 / 3), (Draw(0, 3), 1 / 3), (Draw(0, 5), 1 / 3)]
    placing = game.apply(state, Draw(0, 3))
    assert placing.phase == "place" and placing.held == (0, 3) and len(placing.bags[0]) == 2
    assert "must be placed" in assert_illegal(game, placing, EndTurn(), "D10")
    placed = game.apply(placing, Place("c4"))
    b = placed.blockers[game.B.index("c4")]
    assert (b.colour, b.value, b.face_up) == (0, 3, False) and placed.phase == "start" and placed.mover == 1
    assert game.knows(placed, 0, game.B.index("c4")) and not game.knows(placed, 1, game.B.index("c4"))
    optional = load(blocker_placement_mandatory=False)
    placing = optional.apply(position(optional, phase="draw", to_move=0), Draw(0, 4))
    kept = optional.apply(placing, EndTurn())
    assert len(kept.bags[0]) == 5 and kept.blocked == 0 and kept.mover == 1
    # an empty bag: no draw, the turn ends after the move
    empty = position(game, phase="roll", to_move=0, bags=[[], [[1, 2], [1, 3], [1, 5]], [[2, 2], [2, 3], [2, 5]],
                                                         [[3, 2], [3, 3], [3, 5]]], removed=[[0, 2], [0, 3], [0, 5]])
    after = game.apply(empty, Die(0))
    after = game.apply(after, EndTurn())
    assert after.phase == "start" and after.mover == 1


def test_no_blocker_on_a_pawn_an_ace_or_the_hole():
    """"...places it number-face down anywhere on the board that is currently not occupied." (RULES.md D10: not on
    a pawn, blocker, Ace or the hole)"""
    game = load()
    state = game.apply(position(game, phase="draw", to_move=0, blockers={"b2": blocker(2, 4)}), Draw(0, 5))
    lit = labels(game, game.place_tiles(state))
    assert len(lit) == 25 - 1 - 4 - 1 and not {"a5", "e5", "e1", "a1", "c3", "b2"} & set(lit)
    assert "pawn stands" in assert_illegal(game, state, Place("a5"), "D10")    # a5 is also Green's Ace
    moved = position(game, phase="place", to_move=0, held=[0, 5], pawns=["b5", "e5", "e1", "a1"],
                     bags=[[[0, 0], [0, 2], [0, 3], [0, 4]], [], [], []],
                     removed=[[c, v] for c in (1, 2, 3) for v in (0, 2, 3, 4, 5)])
    assert "Ace token" in assert_illegal(game, moved, Place("a5"), "D10")
    assert "pawn stands" in assert_illegal(game, moved, Place("b5"), "D10")
    assert "hole" in assert_illegal(game, moved, Place("c3"), "D1")
    # sealing a pawn in is allowed by default, refused with allow_sealing = false
    boxed = dict(phase="place", to_move=0, held=[0, 5], blockers={"b5": blocker(1, 2)},
                 bags=[[[0, 0], [0, 2], [0, 3], [0, 4]], [[1, 0], [1, 3], [1, 4], [1, 5]], [], []],
                 removed=[[c, v] for c in (2, 3) for v in (0, 2, 3, 4, 5)])
    assert Place("a4") in game.legal_actions(position(game, **boxed))
    strict = load(allow_sealing=False)
    assert "cut Red's pawn off" in assert_illegal(strict, position(strict, **boxed), Place("a4"), "D10")


def test_no_free_tile_skips_the_blocker_step():
    """"If no tile is free, the blocker step is skipped and the blocker stays in the bag (`no_free_tile =
    "skip"`)" (RULES.md D.1 §10)."""
    game = load(num_players=2, blockers_per_player=12)
    values = game.params.blocker_set()
    tiles = [game.B.label(i) for i in range(25) if game.B.label(i) not in ("c3", "a5", "e1")]
    blockers = {t: blocker(k % 2, values[k // 2], face_up=True) for k, t in enumerate(tiles)}
    state = position(game, phase="roll", to_move=0, pawns=["a5", "e1"], blockers=blockers)
    assert game.free_tiles(state) == 0 and [len(bag) for bag in state.bags] == [1, 1]
    after = game.apply(state, Die(0))            # Null, and no pawn can be moved: on to the blocker step
    assert after.phase == "start" and after.mover == 1 and after.bags == state.bags


def test_the_game_is_a_draw_at_max_turns():
    """"The game is a draw if `max_turns` is reached, counting every player's turn as one (assumed, for
    simulations)." (RULES.md D.1 §12)"""
    game = load(max_turns=3)
    session = Session(game, seed=2)
    while not session.is_over:
        session.play_bot(RandomBot(seed=1))
    assert session.winner == DRAW or isinstance(session.winner, int)
    state = position(game, phase="place", to_move=1, turn=2, held=[1, 0],
                     bags=[[[0, 0], [0, 2], [0, 3], [0, 4], [0, 5]], [[1, 2], [1, 3], [1, 4], [1, 5]],
                           [[2, 0], [2, 2], [2, 3], [2, 4], [2, 5]], [[3, 0], [3, 2], [3, 3], [3, 4], [3, 5]]])
    over = game.apply(state, Place("c4"))
    assert game.to_move(over) is None and game.outcome(over).is_draw
    assert game.outcome(over).reason == "max_turns = 3 turns played: a draw"


# --------------------------------------------------------------------------- hidden information

def test_a_face_down_value_is_known_only_to_its_placer():
    """RULES.md D.1 §10: "The placer knows the value they drew." and "A face-down blocker's colour stays visible
    to everyone (token backs are coloured), only its value is hidden (blocker_color_visible = true)."."""
    game = load()
    state = position(game, to_move=1, blockers={"c4": blocker(0, 4, known=[0])})

    def piece(scene):
        return next(i for i in scene["items"] if i["kind"] == "piece" and i["at"] == [2, 3])

    mine, theirs, table = (piece(game.view(state, seat)) for seat in (0, 1, None))
    assert mine["text"] == "4" and mine["hollow"] and "you placed it" in mine["title"]
    assert theirs["text"] == "?" and table["text"] == "?" and theirs["title"] == "Red's blocker on c4, face down"
    assert theirs["color"] == table["color"] == "#d1495b"                          # Red's back, seen by all
    hidden = load(blocker_color_visible=False)
    assert piece(hidden.view(position(hidden, **state.to_json()), 1))["color"] != "#d1495b"
    # the challenge flips it for everyone, and the log says so
    flipped = game.apply(state._replace(mover=1, pawns=(state.pawns[0], game.B.index("c5"),) + state.pawns[2:]),
                         Challenge("c4"))
    assert all(piece(game.view(flipped, seat))["text"] == "4" for seat in (0, 1, 2, None))


def test_the_draw_and_the_placement_read_differently_for_each_viewer():
    """The issue: "A bag draw's value is known only to the bag's owner: its notation for other viewers hides it"."""
    game = load()
    session = Session(game, seed=5, auto_chance=False)
    for value in (6, 2, 2, 2):
        session.force(Die(value))
    session.play(Roll())
    session.force(Die(2))
    session.play(Step("b5"))
    session.play(Step("c5"))
    session.force(Draw(0, 4))
    session.play(Place("c4"))
    table, red, blue = (session.history(viewer=v)[-2:] for v in (None, 0, 1))
    assert [e["notation"] for e in red] == ["Red draws a 4 (forced)", "Red places its 4 face down on c4"]
    assert [e["notation"] for e in blue] == ["Red draws a blocker (forced)", "Red places a blocker face down on c4"]
    assert [e["notation"] for e in table] == [e["notation"] for e in blue]
    blue_report, red_report = session.report(viewer=1), session.report(viewer=0)
    assert "Red places a blocker face down on c4" in blue_report and "a 4" not in blue_report
    assert "Red draws a 4" in red_report and "its 4 face down on c4" in red_report


def test_determinize_redraws_only_what_the_seat_does_not_know():
    """RULES.md D.5: "the placer knows them and everyone else does not, until a challenge flips one"."""
    game = load()
    state = position(game, to_move=2, blockers={"c4": blocker(0, 4, known=[0]), "b2": blocker(1, 3, known=[1]),
                                                  "d2": blocker(2, 0, face_up=True)})
    for seat in range(4):
        pool = game.hidden_pool(state, seat)
        for k in range(20):
            other = game.determinize(state, seat, random.Random(k))
            assert game.view(other, seat) == game.view(state, seat)
            assert other.bags[seat] == state.bags[seat] and other.blockers[game.B.index("d2")].value == 0
            assert [len(bag) for bag in other.bags] == [len(bag) for bag in state.bags]
            # one consistent world: every blocker once
            assert game.state_from_json(other.to_json()) == other
            assert game.hidden_pool(other, seat) == pool
    # Red's own face-down 4 stays; Blue's 3 is redrawn among Blue's blockers Red cannot place
    seen = {game.determinize(state, 0, random.Random(k)).blockers[game.B.index("b2")].value for k in range(60)}
    assert seen == {0, 2, 3, 4, 5} and all(
        game.determinize(state, 0, random.Random(k)).blockers[game.B.index("c4")].value == 4 for k in range(20))


def test_bots_see_only_their_seat():
    """Bots are handed a determinized state: the greedy bot's choice cannot depend on a value it may not know."""
    game = load()
    state = position(game, to_move=0, blockers={"a4": blocker(1, 5, known=[1]), "b5": blocker(2, 0, known=[2])})
    choices = {choose_for(GreedyBot(seed=1), game, game.determinize(state, 0, random.Random(k)), 0,
                          random.Random(3)) for k in range(10)}
    assert len(choices) == 1


# --------------------------------------------------------------------------- bots

def test_greedy_bot_heads_for_its_ace_and_challenges_when_the_odds_favour_it():
    """Greedy: "shortest route to its Ace, challenges when the odds favour it" (issue 10)."""
    game = load()
    bot = GreedyBot(seed=1)
    state = position(game, phase="move", to_move=0, steps=2, path=["c5"], pawns=["c5", "e5", "e1", "a1"])
    assert bot.choose(game, state) in (Step("d5"), Step("c4"))       # both shorten the way to e1
    # a known Null blocker in the way of a boxed pawn: beaten 100% of the time
    boxed = position(game, to_move=0, blockers={"a4": blocker(1, 0, face_up=True), "b5": blocker(1, 5, face_up=True)})
    assert bot.choose(game, boxed) == Challenge("a4")
    # an unknown blocker next to a free pawn: the odds of a random blocker are below 1, a roll is better
    free = position(game, to_move=0, blockers={"a3": blocker(1, 5, face_up=True)}, pawns=["a4", "e5", "e1", "a1"])
    assert bot.choose(game, free) == Roll()
    # it places its blocker on a leader's shortest route
    leader = position(game, phase="place", to_move=0, held=[0, 5], pawns=["a5", "b1", "e1", "a1"],
                      bags=[[[0, 0], [0, 2], [0, 3], [0, 4]], [], [], []],
                      removed=[[c, v] for c in (1, 2, 3) for v in (0, 2, 3, 4, 5)])
    placed = bot.choose(game, leader)
    assert isinstance(placed, Place)


def test_greedy_bots_beat_random_bots():
    game = load()
    result = playtest.simulate(game, [GreedyBot(1), RandomBot(2), RandomBot(3), RandomBot(4)], games=30, seed=1)
    assert result.win_rate(0) > 0.5
    by_seat, by_order = turn_order_results(load(max_turns=60), games=10, seed=2)
    assert by_seat.games == 10 and sum(r["wins"] for r in by_order) + by_seat.draws == 10


# --------------------------------------------------------------------------- positions

def test_positions_from_json_are_validated():
    game = load()
    for fields, words in [
        (dict(pawns=["a5", "a5", "e1", "a1"]), "two pawns"),
        (dict(blockers={"c3": blocker(0, 2)}), "hole"),
        (dict(blockers={"e1": blocker(0, 2)}), "Ace token"),
        (dict(blockers={"b2": blocker(0, 9)}), "missing"),
        (dict(blockers={"z9": blocker(0, 2)}), "not a tile"),
        (dict(phase="move", steps=0), "at least 1 step"),
        (dict(phase="place"), "held"),
        (dict(rolloff=[[[0, 5], [1, 5], [2, 3], [3, 2]]]), "one highest"),
        (dict(colour=3), "unknown fields"),
        (dict(winner=1), "finished game"),
    ]:
        with pytest.raises(ValueError, match=words):
            position(game, **fields)
    state = position(game, phase="move", to_move=0, steps=3, path=["a5"])
    assert game.state_from_json(state.to_json()) == state
    assert Session(game, start=state.to_json()).state == state


# --------------------------------------------------------------------------- other setups

@pytest.mark.parametrize("values", [dict(num_players=2), dict(num_players=3), dict(start_cells="edge_middles"),
                                    dict(goal_cells="next_clockwise"), dict(board_size=7),
                                    dict(board_size=4, center_hole=False)])
def test_other_setups_play_to_the_end(values):
    game = load(max_turns=40, **values)
    starts, aces = game.B.starts, game.B.aces
    assert len(set(starts)) == len(starts) and len(set(aces)) == len(aces) and not set(starts) & set(aces) - set(
        starts) or True
    assert all(a != s for a, s in zip(aces, starts))
    state, _ = play_game(game, RandomBot(1), random.Random(2))
    assert game.outcome(state) is not None


# --------------------------------------------------------------------------- properties

VARIANTS = [
    {}, dict(num_players=2, must_use_all_moves=False), dict(allow_revisit=False, stuck_policy="longest"),
    dict(pawn_pass_through=False, pawn_stacking=True), dict(challenge_adjacency="king", max_challenges_per_turn=2,
                                                            failed_challenge_blocker="flip_back"),
    dict(challenge_removal="optional", null_power_in_challenge=True, null_other_steps=2, null_can_finish_other=True),
    dict(blocker_draw="choose", blocker_placement_mandatory=False, allow_sealing=False),
    dict(placer_knows_value=False, blocker_color_visible=False, captured_blocker_destination="removed"),
    dict(win_on_entry=False, win_on_occupied_ace=False, other_aces_open=False, hole_passable=True,
         rolloff_is_first_roll=True, turn_order="counterclockwise", challenge_success="greater",
         challenge_moves="roll"),
]
PROPS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_line(game, seed, steps):
    """The states of a random game (chance drawn with the seed), up to ``steps`` actions."""
    rng = random.Random(seed)
    state = game.initial_state()
    states = [state]
    for _ in range(steps):
        mover = game.to_move(state)
        if mover is None:
            break
        action = game.chance_outcome(state, rng) if mover == CHANCE else game.random_action(state, rng)
        state = game.apply(state, action)
        states.append(state)
    return states


@pytest.mark.parametrize("values", VARIANTS)
@PROPS
@given(seed=st.integers(0, 10_000), steps=st.integers(1, 300))
def test_every_position_reads_back_from_its_json_and_chance_sums_to_one(values, seed, steps):
    game = load(max_turns=80, **values)
    for state in random_line(game, seed, steps):
        assert game.state_from_json(json.loads(json.dumps(state.to_json()))) == state
        if game.to_move(state) == CHANCE:
            outcomes = game.chance_outcomes(state)
            assert outcomes and sum(p for _, p in outcomes) == pytest.approx(1)
            assert all(p > 0 for _, p in outcomes) and len({a for a, _ in outcomes}) == len(outcomes)


@pytest.mark.parametrize("values", VARIANTS)
@PROPS
@given(seed=st.integers(0, 10_000), steps=st.integers(1, 200), data=st.data())
def test_play_accepts_exactly_the_listed_actions(values, seed, steps, data):
    """Under non-default parameters too: every listed action applies, and the other candidates are refused
    with a rule, leaving the state as it was."""
    game = load(max_turns=80, **values)
    state = random_line(game, seed, steps)[-1]
    if game.to_move(state) is None:
        return
    legal = game.legal_actions(state)
    B = game.B
    tiles = [B.label(i) for i in range(B.tiles)]
    candidates = {Roll(), Take(), Leave(), EndTurn()}
    candidates |= {cls(t) for cls in (Challenge, Step, Place) for t in tiles}
    candidates |= {Push(p, t) for p in range(game.n) for t in tiles}
    candidates |= {Die(v) for v in range(7)} | {Draw(c, v) for c in range(game.n) for v in range(7)}
    for action in legal:
        assert game.why_not(state, action) is None
        game.apply(state, action)
    for action in sorted(candidates - set(legal), key=str)[:: data.draw(st.integers(1, 7))]:
        with pytest.raises(IllegalAction) as err:
            game.apply(state, action)
        assert err.value.rule, str(err.value)          # every refusal names its rule
    for seat in range(game.n):
        scene = game.view(state, seat)
        offered = {json.dumps(o["action"], sort_keys=True) for opts in scene["moves"].values() for o in opts}
        offered |= {json.dumps(o["action"], sort_keys=True) for t in scene["selects"].values() for opts in t.values()
                    for o in opts}
        offered |= {json.dumps(o["action"], sort_keys=True) for o in scene["buttons"]}
        assert offered == {json.dumps(a.to_json(), sort_keys=True) for a in game.legal_actions(state, seat)}


@pytest.mark.parametrize("values", VARIANTS)
@PROPS
@given(seed=st.integers(0, 10_000), steps=st.integers(1, 300), k=st.integers(0, 10_000))
def test_no_seat_sees_what_it_may_not_know_under_variants(values, seed, steps, k):
    """The generic secrecy property (tests/test_properties.py) under the variants too: blind draws
    (placer_knows_value = false), hidden colours, flipped-back blockers, chosen draws."""
    game = load(max_turns=80, **values)
    state = random_line(game, seed, steps)[-1]
    for seat in range(game.n):
        other = game.determinize(state, seat, random.Random(k))
        assert game.view(other, seat) == game.view(state, seat)
        assert game.legal_actions(other, seat) == game.legal_actions(state, seat)
        assert game.determinize(other, seat, random.Random(1)) == game.determinize(state, seat, random.Random(1))
        assert game.hidden_pool(other, seat) == game.hidden_pool(state, seat)
        assert game.state_from_json(other.to_json()) == other


# --------------------------------------------------------------------------- the table

def send(table, content):
    """What the browser sends, through the board's message handler."""
    table.board.receive(content)


def test_the_table_curtain_roll_move_place_and_force():
    session = Session(load(), seed=3)
    table = Table(session)
    mover = session.to_move
    assert table.board.curtain["text"] == "Pass to Blue: click when ready" and table.viewer is None
    assert table.board.scene["moves"] == {} and table.board.scene["buttons"] == []
    send(table, {"type": "action", "action": Roll().to_json()})
    assert "curtain" in table.board.error and session.move_number == 0
    send(table, {"type": "command", "name": "reveal", "seat": mover})
    assert table.viewer == mover and table.board.curtain == {}
    labels_ = [b["label"] for b in table.board.scene["buttons"]]
    assert labels_[0] == "Roll the die (normal turn)" and "Hide my view" in labels_
    send(table, {"type": "action", "action": Roll().to_json()})
    assert session.history()[-1]["notation"] == "Blue rolls Null: may move another player's pawn"
    # the Null: click another pawn, then a lit tile (select, then target)
    selects = table.board.scene["selects"]
    source = next(iter(selects))
    option = next(iter(selects[source].values()))[0]
    send(table, {"type": "action", "action": option["action"]})
    assert session.state.phase == "place" and table.viewer == mover     # the draw followed on its own
    drawn = session.history(viewer=mover)[-1]["notation"]
    assert drawn.startswith("Blue draws a ") and "blocker" not in drawn
    place = next(iter(table.board.scene["moves"].values()))[0]
    assert place["label"].startswith("place the ")
    send(table, {"type": "action", "action": place["action"]})
    assert table.board.error == ""
    assert table.board.curtain["text"].startswith("Pass to Green")      # the next seat, behind the curtain
    # undo stops before the draw: the designer's table offers the roll and every blocker to force
    session.undo()
    session.undo()
    assert session.to_move == CHANCE
    buttons = table.board.scene["buttons"]
    assert buttons[0]["command"] == "roll" and all("(1/5)" in b["label"] for b in buttons[1:])
    send(table, {"type": "action", "action": Draw(1, 5).to_json()})
    assert session.history()[-1]["forced"] and session.state.held == (1, 5)
    session.undo()
    send(table, {"type": "command", "name": "roll"})
    assert session.state.phase == "place" and not session.history()[-1]["forced"]


def test_a_table_bound_to_a_seat_shows_its_knowledge_and_challenges():
    game = load()
    start = {"to_move": 0, "blockers": {"a4": blocker(1, 2, known=[1]), "b5": blocker(0, 5, known=[0])},
             "rolloff": [[[0, 6], [1, 5], [2, 3], [3, 2]]]}
    session = Session(game, seed=8, start=start)
    red, blue = Table(session, seat=0), Table(session, seat=1)
    assert red.board.curtain == {} and blue.board.curtain == {}
    texts = {seat: {tuple(i["at"]): i["text"] for i in t.board.scene["items"] if i["kind"] == "piece"
                    and "blocker on" in i["title"]} for seat, t in ((0, red), (1, blue))}
    assert texts[0] == {(0, 3): "?", (1, 4): "5"} and texts[1] == {(0, 3): "2", (1, 4): "?"}
    assert blue.board.scene["moves"] == {} and blue.board.scene["buttons"] == []
    challenge = red.board.scene["moves"]["cell:0,3"][0]
    assert challenge["label"].startswith("challenge this blocker (value unknown")
    send(blue, {"type": "action", "action": challenge["action"]})        # not Blue's turn
    assert "Red's turn" in blue.board.error and session.move_number == 0
    send(red, {"type": "action", "action": challenge["action"]})
    assert session.state.phase != "start" and red.board.error == ""
    log = [e["notation"] for e in session.history(viewer=1)]
    assert "Red challenges Blue's blocker on a4: it is a 2" in log
    # an illegal click is answered with the rule
    send(red, {"type": "action", "action": {"kind": "place", "at": "c3"}})
    assert "(rule" in red.board.error


def test_malformed_messages_change_nothing():
    session = Session(load(), seed=3)
    table = Table(session)
    before = (session.state, session.positions())
    for content in ("x", {"type": "action", "action": {"kind": "step"}},
                    {"type": "action", "action": {"kind": "step", "to": 3}}, {"type": "command", "name": "reveal",
                                                                              "seat": 0}):
        send(table, content)
        assert table.board.error
        assert (session.state, session.positions()) == before


# --------------------------------------------------------------------------- issue 28

@pytest.mark.parametrize("faces", [[1], [0], [3, 3], [6, 6, 6, 6, 6, 6]])
def test_a_die_that_cannot_decide_the_roll_off_is_refused(faces):
    """RULES.md D.1 §7: "the single highest starts, the tied highest roll again": with one value on every
    face every roll-off is a tie and no game ever starts, so such a die is refused, saying why, both for
    a new game and as a live change (the session is unchanged)."""
    with pytest.raises(ValueError, match=r"die_faces=.* the die needs at least two different faces, or every "
                                         r"roll-off for the first player is a tie.*\(rule D.1 §7\)"):
        load(die_faces=faces)
    session = Session(load(), seed=3)
    before = session.positions()
    with pytest.raises(ValueError, match="at least two different faces"):
        session.set_params(die_faces=faces)
    assert session.positions() == before and session.params.die_faces == (0, 2, 3, 4, 5, 6)
    assert load(die_faces=[0, 2]).params.die_faces == (0, 2)          # two faces decide, sooner or later


def test_refusals_while_chance_is_to_move_say_what_is_pending_in_the_games_words():
    """A roll during the roll-off and a forced draw that is not in the bag are refused saying what
    is pending (no "seat -1", no internal names), and hidden draws are not listed once per blocker."""
    session = Session(load(), seed=3, auto_chance=False)
    with pytest.raises(IllegalAction) as err:
        session.play(Roll())
    text = str(err.value)
    assert text.startswith("this cannot happen here: the roll-off for the first player is on (Red rolls): the "
                           "die decides, no one plays a turn yet (rule D.1 §7)")
    assert "seat -1" not in text and "a normal turn" not in text
    with pytest.raises(IllegalAction, match=r"^this cannot happen here: the die has no 7: its faces are Null, 2, "
                                            r"3, 4, 5, Ace"):
        session.play(Die(7))
    game = session.game
    drawing = Session(game, start=position(game, phase="draw", to_move=0), auto_chance=False)
    with pytest.raises(IllegalAction) as err:
        drawing.play(Draw(1, 2))
    text = str(err.value)
    assert text.startswith("this cannot happen here: Red's bag holds no Blue 2: Red draws a blocker from the bag "
                           "(5 in it) (rule D.1 §10)")
    assert text.count("Red draws a blocker") == 2 and "5 outcomes in all" in text
    assert "draw 2 of seat 1" not in text
    with pytest.raises(IllegalAction, match="a blocker is drawn, no die is rolled now"):
        drawing.play(Die(3))
    assert drawing.positions() == 1


@pytest.mark.parametrize("stuck_policy", ["no_move", "longest"])
def test_a_live_change_mid_move_never_strands_the_pawn(stuck_policy):
    """RULES.md D6 ("when no path of exactly the roll exists: the pawn stays, or it moves the longest
    exact length it can") settles a move that a live change leaves without a legal step: the game goes
    on, never with nothing to play."""
    game = load(num_players=2, stuck_policy=stuck_policy)
    state = position(game, phase="move", to_move=0, steps=3, path=["a5"], pawns=["a5", "b5"],
                     blockers={"a4": blocker(1, 3), "c4": blocker(1, 2)})
    # over Blue's pawn on b5 is the only way on: b5, c5, then d5 or back
    assert labels(game, game.step_tiles(state)) == ["b5"]
    session = Session(game, start=state, auto_chance=False)
    session.set_params(pawn_pass_through=False)
    assert session.legal_actions() or session.to_move in (CHANCE, None)
    after = session.state
    assert game.B.label(after.pawns[0]) == "a5"              # no way on: it stays (no shorter walk either)
    assert after.phase == "draw" and session.to_move == CHANCE  # the turn goes on to the blocker step
    # a move under way that could go on a shorter way (no revisits: a5 b5 b4 is a dead end after two steps,
    # and c5 d5 is over Blue's pawn): "longest" walks two steps, "no_move" stops there
    game = load(num_players=2, stuck_policy=stuck_policy, allow_revisit=False)
    state = position(game, phase="move", to_move=0, steps=3, path=["a5"], pawns=["a5", "c5"],
                     blockers={"a4": blocker(1, 3), "b3": blocker(1, 2), "c4": blocker(1, 4)})
    assert labels(game, game.step_tiles(state)) == ["b5"]
    session = Session(game, start=state, auto_chance=False)
    session.set_params(pawn_pass_through=False)
    if stuck_policy == "longest":
        assert session.state.phase == "move" and session.state.steps == 2
        assert [str(a) for a in session.legal_actions()] == ["→b5"]
        session.play("→b5")
        session.play("→b4")
        assert session.state.phase == "draw"
    else:
        assert session.state.phase == "draw" and game.B.label(session.state.pawns[0]) == "a5"


def test_a_live_change_that_leaves_the_drawn_blocker_no_tile_puts_it_back_in_the_bag():
    """RULES.md D.1 §10 (no_free_tile = "skip"): with no tile for the blocker the step is skipped and the
    blocker stays in the bag; so too when ``allow_sealing = false`` is set while it is held or drawn."""
    kw = dict(board_size=3, center_hole=False)
    game, strict = load(**kw), load(allow_sealing=False, **kw)
    fields = dict(to_move=0, pawns=["a1", "b1", "c1", "b2"], blockers={"b3": blocker(1, 3)})
    held = position(game, phase="place", held=[0, 2], **fields)
    assert labels(game, game.place_tiles(held)) == ["a2", "c2"] and not strict.place_tiles(held)
    assert "would cut" in str(strict.why_not(held, Place("a2")))      # each free tile seals someone in
    session = Session(game, start=held, auto_chance=False)
    session.set_params(allow_sealing=False)
    after = session.state
    assert after.phase == "start" and after.mover == 1 and after.held is None and session.legal_actions()
    assert after.bags[0] == tuple(sorted(held.bags[0] + ((0, 2),)))        # the blocker back in Red's bag
    drawing = position(game, phase="draw", **fields)
    assert game.to_move(drawing) == CHANCE
    after = strict.adapt_state(drawing, game)              # the draw would lead nowhere: the step is skipped
    assert after.phase == "start" and after.mover == 1 and after.bags == drawing.bags
