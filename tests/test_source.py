"""Source (RULES.md section C): scenario tests from hand-written positions, then properties.

Each scenario test quotes in its docstring the seed sentence it checks. Points
are named like ``e5``: column letter, row number counted from the top, so the
diagrams below read like the board (``a1`` top-left is red's source, ``i1``
blue's, ``i9`` yellow's, ``a9`` green's).
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import playtest
from playtest import IllegalAction
from playtest.games.source import (COLORS, Capture, EndTurn, Fortify, GreedyBot, Place, RemoveFortification,
                                   Source, SourceParams)
from playtest.lab import play_game

EMPTY = "........."


def board(*rows: str) -> list[str]:
    """Nine rows: the given ones from the top, then empty rows, with the bottom corners' sources."""
    rows = list(rows) + [EMPTY] * (9 - len(rows))
    if rows[8] == EMPTY:
        rows[8] = "g.......y"
    return rows


def load(**params) -> Source:
    return playtest.load("source", **params)  # type: ignore[return-value]


def at(name: str) -> tuple[int, int]:
    return "abcdefghi".index(name[0]), int(name[1:]) - 1


def place(name: str) -> Place:
    return Place(*at(name))


def fortify(name: str) -> Fortify:
    return Fortify(*at(name))


def unfortify(name: str) -> RemoveFortification:
    return RemoveFortification(*at(name))


def capture(name: str) -> Capture:
    return Capture(*at(name))


def position(game: Source, *rows: str, **fields):
    return game.state_from_json({"board": board(*rows), **fields})


def tokens_of(state, color: str) -> int:
    """Tokens of ``color`` on the board (fortifications included) plus its supply."""
    c = COLORS.index(color)
    on_board = state.stones[c].bit_count() + sum((f & state.stones[c]).bit_count() for f in state.forts)
    return on_board + state.supply[c]


def illegal(game: Source, state, action, rule: str, words: str) -> None:
    """``action`` raises IllegalAction naming ``rule`` and saying ``words``; ``state`` is unchanged."""
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction) as err:
        game.apply(state, action)
    assert err.value.rule == rule, str(err.value)
    assert words in str(err.value)
    assert json.dumps(state.to_json(), sort_keys=True) == before


def labels(game: Source, state, name: str) -> list[str]:
    pid = "pt:{},{}".format(*at(name))
    return [o["label"] for o in game.view(state)["moves"].get(pid, [])]


def reason(game: Source, state, name: str) -> str:
    return game.view(state)["reasons"]["pt:{},{}".format(*at(name))]


# --------------------------------------------------------------------------- set-up and turns

def test_setup_sources_supplies_and_players():
    """"Going clockwise around the board, place a red token in one corner, then a blue token in the next,
    then a yellow token in the next, and finally a green token in the last corner." and "One player will
    control red and yellow, while the other controls blue and green." """
    game = load()
    state = game.initial_state()
    assert state.to_json()["board"] == board("r.......b")
    assert state.supply == (24, 24, 24, 24)            # the source is one of the 25
    assert [s.name for s in game.seats()] == ["A (red+yellow)", "B (blue+green)"]
    assert game.to_move(state) == 0
    assert load(source_from_supply=False).initial_state().supply == (25, 25, 25, 25)
    assert load(colors_clockwise=["blue", "yellow", "green", "red"]).initial_state().to_json()["board"][0] \
        == "b.......y"


def test_colours_move_clockwise_with_two_action_points():
    """"Play moves around the board clockwise. Each color has a discrete turn, so each player gets 2 turns
    per round. During a turn, a player has 2 action points that they can spend." """
    game = load()
    state = game.initial_state()
    order = []
    for _ in range(5):
        order.append(COLORS[state.active])
        assert state.ap_left == 2
        state = game.apply(state, game.legal_actions(state)[0])   # 1 AP
        assert state.ap_left == 1 and COLORS[state.active] == order[-1]
        state = game.apply(state, game.legal_actions(state)[0])   # the turn ends by itself
    assert order == ["red", "blue", "yellow", "green", "red"]
    assert [game.to_move(game.state_from_json({"board": board("r.......b"), "to_move": c})) for c in COLORS] \
        == [0, 1, 0, 1]


def test_end_turn_passes_the_remaining_points():
    """"During a turn, a player has 2 action points that they can spend." Unused points are lost (C13)."""
    game = load()
    state = game.apply(game.initial_state(), place("b1"))
    assert game.notation(state, EndTurn()) == "red: end turn (1 AP unused)"
    state = game.apply(state, EndTurn())
    assert COLORS[state.active] == "blue" and state.ap_left == 2 and state.passes == 0


def test_first_turn_ap_and_live_ap_change():
    """"During a turn, a player has 2 action points" — first_turn_ap balances the first turn (C4)."""
    game = load(first_turn_ap=1)
    state = game.apply(game.initial_state(), place("b1"))
    assert COLORS[state.active] == "blue" and state.ap_left == 2
    session = playtest.Session(load())
    session.set_params(ap_per_turn=3)     # live: the next turns get 3; this one had not acted (turn 0: first_turn_ap)
    session.play(place("b1"))
    session.play(place("c1"))
    assert COLORS[session.state.active] == "blue" and session.state.ap_left == 3


# --------------------------------------------------------------------------- placing

def test_place_next_to_a_connected_token_costs_one():
    """"When you place any token on the board, it must be adjacent (on a side, not diagonal) to a token
    that is connected to that colors source." and "Placing a token costs 1 action point." """
    game = load()
    state = position(game, "rr......b", EMPTY, EMPTY, EMPTY, "....r....")   # e5 is cut off
    assert not game.is_connected(state, "e5") and game.is_connected(state, "b1")
    after = game.apply(state, place("c1"))
    assert after.ap_left == 1 and after.supply[0] == state.supply[0] - 1
    illegal(game, state, place("e4"), "C.1 §8", "e4 is not next to a connected red token")
    illegal(game, state, place("c2"), "C.1 §8", "not next to a connected red")   # only diagonal to b1
    illegal(game, state, place("b1"), "C.1 §8", "b1 is not empty")
    assert labels(game, state, "c1") == ["Place (1 AP)"]
    assert reason(game, state, "e4") == "e4 is not next to a connected red token (rule C.1 §8)"


def test_placing_reconnects_stranded_tokens():
    """"A token is connected to the source if it is part of an unbroken chain of tokens that lead back to
    the source." A placement that bridges the gap reconnects the stranded tokens."""
    game = load()
    state = position(game, "r.rr....b")
    assert game.unconnected(state)["red"] == ["c1", "d1"]
    state = game.apply(state, place("b1"))
    assert game.unconnected(state)["red"] == []
    assert game.score(state)["red"].connected == 8


def test_partner_tokens_do_not_carry_connection_unless_the_parameter_says_so():
    """"A token is connected to the source if it is part of an unbroken chain of tokens that lead back to
    the source." — a chain of the same colour (C5: connection_through_partner)."""
    rows = ("ryr.....b",)
    assert not load().is_connected(position(load(), *rows), "c1")
    through = load(connection_through_partner=True)
    assert through.is_connected(position(through, *rows), "c1")


# --------------------------------------------------------------------------- fortifying

def test_fortify_a_connected_token_only():
    """"Fortifying a space costs 1 action point. Place an additional token on the fortified space.
    Fortified spaces must by connected to their source at time of placement." """
    game = load()
    state = position(game, "rr......b", EMPTY, "....r....")
    after = game.apply(state, fortify("b1"))
    assert after.ap_left == 1 and after.supply[0] == state.supply[0] - 1 and after.layers(1) == 1
    assert after.to_json()["board"][0] == "rR......b"
    assert game.apply(state, fortify("a1")).layers(0) == 1          # the source may be fortified (C8)
    illegal(game, state, fortify("e3"), "C.1 §9", "e3 is not connected to the red source")
    illegal(game, after, fortify("b1"), "C8", "max_fortify_layers = 1")
    illegal(game, state, fortify("i1"), "C.1 §9", "red fortifies only its own tokens")
    two = load(max_fortify_layers=2)
    stacked = two.apply(two.apply(position(two, "rr......b"), fortify("b1")), fortify("b1"))
    assert stacked.layers(1) == 2 and stacked.to_json()["board"][0] == "r R2 . . . . . . b"
    assert two.state_from_json(stacked.to_json()) == stacked


def test_the_centre_cannot_be_fortified():
    """"Fortifying a space costs 1 action point." — but Day 5: the centre square may not be fortified
    (center_fortifiable = false)."""
    rows = ("rrrrr...b", "....r....", "....r....", "....r....", "....r....")
    game = load()
    state = position(game, *rows)
    assert game.is_connected(state, "e5")
    illegal(game, state, fortify("e5"), "C8", "the centre cannot be fortified")
    assert "centre cannot be fortified" in reason(game, state, "e5")
    open_centre = load(center_fortifiable=True)
    assert open_centre.apply(position(open_centre, *rows), fortify("e5")).layers(40) == 1


# --------------------------------------------------------------------------- removing fortifications

def test_remove_a_connected_fortification_costs_one_point_and_an_unused_token():
    """"Removing an opponent's connected fortification costs 1 action point. Remove the fortification piece
    and 1 of your unused tokens from the game." """
    game = load()
    state = position(game, "rrrrrrBBb")
    assert labels(game, state, "g1") == ["Remove fortification (1 AP + 1 token)"]
    after = game.apply(state, unfortify("g1"))
    assert after.to_json()["board"][0] == "rrrrrrbBb"                     # the base stays
    assert after.ap_left == 1
    assert after.supply[0] == state.supply[0] - 1 and tokens_of(after, "red") == tokens_of(state, "red") - 1
    assert tokens_of(after, "blue") == tokens_of(state, "blue") - 1      # the fortification left the game
    # the now unfortified connected token still costs 2 to capture: 1 AP is not enough
    illegal(game, after, capture("g1"), "C.1 §11", "capturing a connected token costs 2 AP; red has 1 left")


def test_remove_fortification_needs_a_supply_token_and_a_connected_target():
    """"Removing an opponent's connected fortification costs 1 action point. Remove the fortification piece
    and 1 of your unused tokens from the game." (C10: no unused token, no removal.)"""
    game = load(end_timing="end_of_turn")
    state = position(game, "rrrrrrBBb", supply={"red": 0})
    illegal(game, state, unfortify("g1"), "C.1 §10", "1 of red's unused tokens, and red has 0 in supply")
    state = position(game, "rrrrrrB.b")                                  # g1 is cut off from i1
    illegal(game, state, unfortify("g1"), "C.1 §10", "is not connected: capture it whole instead")
    illegal(game, state, unfortify("f1"), "C.1 §15", "cannot capture or unfortify its own token")


def test_a_fortified_source_can_lose_its_fortification_though_never_be_captured():
    """RULES.md C.1 §10: "Remove a connected fortification ... Target: an opponent's fortified point that is
    connected." and §15: "Not allowed: ... capturing a source token (source_capturable = false)" — C8 lets
    a source be fortified, so its fortification may be removed; only the capture is forbidden."""
    session = playtest.Session(load(action_range="global"))
    session.play("fortify a1")
    session.play("end turn")
    game, state = session.game, session.state
    assert RemoveFortification(0, 0) in game.legal_actions(state) and Capture(0, 0) not in game.legal_actions(state)
    assert game.options(state, "a1") == ["Remove fortification (1 AP + 1 token)"] and game.why(state, "a1") == ""
    assert labels(game, state, "a1") == ["Remove fortification (1 AP + 1 token)"]
    assert game.notation(state, unfortify("a1")) == "blue: remove red's fortification on a1"
    session.play("remove fortification a1")                              # the notation is accepted
    assert session.state.to_json()["board"][0] == "r.......b" and session.state.ap_left == 1
    illegal(game, session.state, capture("a1"), "C.1 §15", "a1 is the red source: a source token cannot be captured")
    assert "a source token cannot be captured" in reason(game, session.state, "a1")
    # next to the chain (the default range) the same holds
    near = load()
    state = position(near, "Rbbbbbbbb", to_move="blue")
    assert labels(near, state, "a1") == ["Remove fortification (1 AP + 1 token)"]


# --------------------------------------------------------------------------- capturing

def test_capture_a_connected_token_costs_two():
    """"Capturing an opponent's token that is connected to the source costs 2 points. Remove that token
    from the game." """
    game = load()
    state = position(game, "rrrrrrbbb")
    assert labels(game, state, "g1") == ["Capture (2 AP)"]
    after = game.apply(state, capture("g1"))
    assert after.to_json()["board"][0] == "rrrrrr.bb"
    assert tokens_of(after, "blue") == tokens_of(state, "blue") - 1      # removed from the game, no supply back
    assert COLORS[after.active] == "blue"                                 # both points spent: the turn ended
    assert game.notation(state, capture("g1")) == "red: capture blue g1 (2 AP)"


def test_capture_an_unconnected_token_costs_one():
    """"Capturing an opponent's token that is not connected to the source costs 1 point. Remove that token
    from the game." """
    game = load()
    state = position(game, "r.......b", "r........", "b........")       # a3 is blue, far from i1
    assert labels(game, state, "a3") == ["Capture unconnected token (1 AP)"]
    after = game.apply(state, capture("a3"))
    assert after.ap_left == 1 and after.to_json()["board"][2] == EMPTY


def test_capture_an_unconnected_fortified_stack_costs_one_and_removes_both():
    """"Capturing an opponent's fortified token that is not connected to the source costs 1 point. Remove
    both of your opponent's tokens from the game." """
    game = load()
    state = position(game, "r.......b", "r........", "B........")
    after = game.apply(state, capture("a3"))
    assert after.ap_left == 1 and after.to_json()["board"][2] == EMPTY and after.forts == ()
    assert tokens_of(after, "blue") == tokens_of(state, "blue") - 2


def test_partners_sources_and_connected_fortified_tokens_are_not_captured():
    """"Capturing an opponent's token…" — only an opponent's: not the partner colour, not a source (C7),
    and not a connected fortified token directly (C11: remove the fortification first)."""
    game = load()
    state = position(game, "rrrrrrrBb", "y........")
    illegal(game, state, capture("a2"), "C.1 §15", "yellow is red's partner colour")
    illegal(game, state, capture("h1"), "C.1 §15",
            "capturing a connected fortified token needs its fortification removed first")
    state = position(game, "rrrrrrrrb")
    illegal(game, state, capture("i1"), "C.1 §15", "i1 is the blue source: a source token cannot be captured")
    # the designer's alternatives
    direct = load(capture_connected_fortified_cost=2)
    s2 = position(direct, "rrrrrrrBb")
    assert labels(direct, s2, "h1") == ["Remove fortification (1 AP + 1 token)",
                                        "Capture fortified stack, both tokens (2 AP)"]
    assert direct.apply(s2, capture("h1")).to_json()["board"][0] == "rrrrrrr.b"
    free = load(source_capturable=True)
    s3 = free.apply(position(free, "rrrrrrrrb", "........b"), capture("i1"))
    assert free.unconnected(s3)["blue"] == ["i2"]


def test_captures_must_be_next_to_the_connected_chain():
    """"All moves are considered placing a token on the board." — read as a range rule (C6): a capture
    targets a point next to a connected token of the active colour; action_range = "global" lifts it."""
    game = load()
    state = position(game, "r.......b", EMPTY, EMPTY, EMPTY, "....b....")
    illegal(game, state, capture("e5"), "C.1 §14", "e5 is not next to a connected red token")
    anywhere = load(action_range="global")
    assert anywhere.apply(position(anywhere, "r.......b", EMPTY, EMPTY, EMPTY, "....b...."),
                          capture("e5")).to_json()["board"][4] == EMPTY


CUT = ("r.......b",
       "r.......b",
       "rrrrrrrrb",
       "........b",
       "........y",
       "........y",
       "........y",
       "........y",
       "g.......y")


def test_a_cut_makes_the_stranded_token_cheaper_on_the_partners_turn():
    """"Capturing an opponent's token that is connected to the source costs 2 points." then "…not connected
    to the source costs 1 point." — connection is judged at each action (C12): red cuts blue's chain, and
    on yellow's turn the stranded token costs 1."""
    game = load()
    state = game.state_from_json({"board": list(CUT), "to_move": "red", "turn": 4})
    assert labels(game, game.state_from_json({"board": list(CUT), "to_move": "yellow", "turn": 6}), "i4") \
        == ["Capture (2 AP)"]                                          # before the cut: connected, 2 AP
    state = game.apply(state, capture("i3"))                            # red: 2 AP, the turn ends
    assert not game.is_connected(state, "i4")
    state = game.apply(state, EndTurn())                                # blue passes
    assert COLORS[state.active] == "yellow"
    assert labels(game, state, "i4") == ["Capture unconnected token (1 AP)"]
    state = game.apply(state, capture("i4"))
    assert state.ap_left == 1 and COLORS[state.active] == "yellow" and not state.stones[1] >> 35 & 1


def test_a_cut_and_the_cheaper_capture_within_one_turn_with_three_points():
    """"Capturing an opponent's token that is connected to the source costs 2 points." — with ap_per_turn
    = 3 the cut (2 AP) and the capture of the stranded token (1 AP) fit in one turn (C12)."""
    game = load(ap_per_turn=3)
    rows = list(CUT)
    rows[3] = ".......rb"
    state = game.state_from_json({"board": rows, "to_move": "red", "turn": 4})
    assert state.ap_left == 3
    state = game.apply(state, capture("i3"))
    assert state.ap_left == 1
    state = game.apply(state, capture("i4"))
    assert state.to_json()["board"][3] == ".......r."
    assert COLORS[state.active] == "blue"                               # 3 points spent: the turn ended


# --------------------------------------------------------------------------- the end

def test_the_game_ends_when_a_colour_runs_out_of_tokens():
    """"6) The game ends when any color runs out of tokens." — immediately, by default (C14)."""
    game = load()
    state = position(game, "rr......b", supply={"red": 1})
    state = game.apply(state, place("c1"))
    assert state.over == "red's supply ran out" and game.to_move(state) is None
    assert game.legal_actions(state) == []
    outcome = game.outcome(state)
    assert outcome.winners == (0,) and outcome.scores == (8, 4)
    illegal(game, state, EndTurn(), "C.1 §16", "the game is over")


def test_end_timing_end_of_turn_and_end_of_round():
    """"6) The game ends when any color runs out of tokens." — or at the end of that turn, or of that round
    so that every colour has had as many turns (end_timing)."""
    game = load(end_timing="end_of_turn")
    state = game.apply(position(game, "rr......b", supply={"red": 1}), place("c1"))
    assert not state.over and state.ap_left == 1
    illegal(game, state, place("d1"), "C.1 §8", "red has no tokens left in supply")
    state = game.apply(state, EndTurn())
    assert state.over.startswith("red's supply ran out")
    game = load(end_timing="end_of_round")
    state = game.apply(position(game, "rr......b", supply={"red": 1}), place("c1"))
    state = game.apply(state, EndTurn())
    for colour in ("blue", "yellow", "green"):
        assert not state.over and COLORS[state.active] == colour
        state = game.apply(state, EndTurn())
    assert state.over.startswith("red's supply ran out")


def test_the_board_empty_trigger():
    """"6) The game ends when any color runs out of tokens." — read as "has no token left on the board"
    (end_trigger = "board_empty"; only possible when sources can be captured)."""
    game = load(end_trigger="board_empty", source_capturable=True, action_range="global")
    state = position(game, "rr......b", supply={"red": 0})
    assert not state.over
    state = game.apply(state, capture("i1"))
    assert state.over == "blue has no token left on the board"


def test_four_passes_in_a_row_end_the_game():
    """(no text) C15: the game ends after pass_limit = 4 colour turns in a row without an action."""
    game = load()
    state = game.initial_state()
    for _ in range(3):
        state = game.apply(state, EndTurn())
    assert state.passes == 3 and not state.over
    assert game.notation(state, EndTurn()) == "green: pass"
    state = game.apply(state, EndTurn())
    assert state.over == "4 turns in a row without an action (pass_limit = 4)"
    assert game.outcome(state).is_draw                                   # 4–4, nobody on the centre
    # an action resets the count
    state = game.apply(game.apply(game.apply(game.initial_state(), EndTurn()), place("h1")), EndTurn())
    assert state.passes == 0


def test_a_pass_is_a_turn_without_an_action_even_a_free_one():
    """RULES.md C.1 §7: "Unused AP are lost, and a turn in which the colour takes no action is a pass (a turn of
    free actions, possible only when a cost is set to 0, is not a pass)." """
    game = load(cost_place=0, pass_limit=2)
    state = game.apply(game.initial_state(), place("b1"))               # red: a free placement
    assert state.ap_left == 2 and state.acted
    assert game.notation(state, EndTurn()) == "red: end turn (2 AP unused)"
    state = game.apply(state, EndTurn())
    assert state.passes == 0 and COLORS[state.active] == "blue"          # not a pass
    assert game.notation(state, EndTurn()) == "blue: pass"
    state = game.apply(state, EndTurn())                                 # blue takes no action: a pass
    assert state.passes == 1 and not state.over
    state = game.apply(game.apply(state, place("h9")), EndTurn())      # yellow acts for free: the count restarts
    assert state.passes == 0 and not state.over
    state = game.apply(game.apply(state, EndTurn()), EndTurn())         # green and red pass: pass_limit = 2
    assert state.over == "2 turns in a row without an action (pass_limit = 2)"
    reread = game.state_from_json(game.apply(game.initial_state(), place("b1")).to_json())
    assert reread.acted and game.apply(reread, EndTurn()).passes == 0   # the JSON keeps "acted"


# --------------------------------------------------------------------------- scoring

def test_connected_tokens_score_two_and_unconnected_one():
    """"Every token connected to the source is worth 2 points. Every token not connected to the source is
    only worth 1 point." — the source token itself is connected and scores 2."""
    game = load()
    score = game.score(position(game, "rr......b", EMPTY, "..r......"))
    assert (score["red"].connected, score["red"].unconnected, score["red"].total) == (4, 1, 5)
    assert score["blue"].total == 2 and score.players == (7, 4)
    assert game.score(game.initial_state())["green"].connected == 2


def test_a_connected_centre_scores_ten():
    """"If the token on the center space is connected, it is worth 10 points." — instead of 2 (center_mode
    = "replace"); unconnected it scores 1."""
    rows = ("rrrrr...b", "....r....", "....r....", "....r....", "....r....")
    game = load()
    red = game.score(position(game, *rows))["red"]
    assert (red.connected, red.centre, red.total) == (16, 10, 26)      # 8 tokens at 2, the centre at 10
    cut = list(rows)
    cut[3] = EMPTY
    red = game.score(position(game, *cut))["red"]
    assert (red.connected, red.unconnected, red.centre) == (14, 1, 0)   # the centre e5 is cut off: 1 point
    added = load(center_mode="add")
    assert added.score(position(added, *rows))["red"].total == 28
    session = playtest.Session(game, start={"board": board(*rows)})
    session.set_params(center_connected_value=20)                      # live: the score follows
    assert session.game.score(session.state)["red"].centre == 20


def test_a_surrounded_point_on_the_edge_scores_three():
    """"Every space that is completely surrounded by tokens of a single color and/or a wall is worth 3 point
    to that color." — the board edge is a wall."""
    game = load()
    state = position(game, "rr.r....b", "rrr......")                  # c1: red on three sides, the edge above
    assert game.score(state)["red"].surrounded == 3
    assert game.score_from_scratch(state) == game.score(state)
    no_wall = load(edge_counts_as_wall=False)
    assert no_wall.score(position(no_wall, "rr.r....b", "rrr......"))["red"].surrounded == 0


def test_surrounded_points_need_a_single_colour():
    """"…completely surrounded by tokens of a single color and/or a wall…" — red and yellow together do not
    count (territory_color_rule = "single_color"); with "same_player" they do, for the colour with more
    of the surrounding tokens."""
    rows = ("rr.y....b", "rrr......")
    game = load()
    assert game.score(position(game, *rows))["red"].surrounded == 0
    both = load(territory_color_rule="same_player")
    score = both.score(position(both, *rows))
    assert score["red"].surrounded == 3 and score["yellow"].surrounded == 0
    assert both.score_from_scratch(position(both, *rows)) == score
    assert load().score(position(load(), "rr.b....b", "rrr......"))["red"].surrounded == 0


def test_a_point_enclosed_by_both_of_a_players_colours_goes_to_the_one_with_more_tokens_next_to_it():
    """RULES.md C19, territory_color_rule = "same_player": "a point enclosed by both of a player's colours is
    credited to the colour with more tokens next to it, ties to the one earlier in turn order"."""
    game = load(territory_color_rule="same_player")
    state = position(game, "rr.y....b", "..y......")                   # c1: red b1, yellow d1 and c2
    assert (game.score(state)["yellow"].surrounded, game.score(state)["red"].surrounded) == (3, 0)
    state = position(game, "rr.y....b", "..r......")                   # c1: red b1 and c2, yellow d1
    assert (game.score(state)["yellow"].surrounded, game.score(state)["red"].surrounded) == (0, 3)
    tie = ("rrr.....b", "rr.y.....", "..y......")                       # c2: red c1 b2, yellow d2 c3
    for first, earlier in (("red", "red"), ("blue", "yellow"), ("yellow", "yellow"), ("green", "red")):
        for mode in ("single_point", "region"):
            g = load(territory_color_rule="same_player", territory_mode=mode, first_color=first)
            state = position(g, *tie)
            assert g.score(state)[earlier].surrounded == 3, (first, mode)
            assert g.score(state).players[0] == g.score(state)[earlier].total + g.score(state)[
                "yellow" if earlier == "red" else "red"].total
            assert g.score_from_scratch(state) == g.score(state)


def test_territory_variants_region_king_and_occupied():
    """"Every space that is completely surrounded by tokens of a single color and/or a wall is worth 3 point
    to that color." — as whole regions (territory_mode), with diagonal neighbours (king), or counting a
    surrounded enemy token (territory_requires_empty = false)."""
    rows = ("r..r....b", "rrr......")                                  # b1 and c1: a two-point region
    assert load().score(position(load(), *rows))["red"].surrounded == 0
    region = load(territory_mode="region")
    assert region.score(position(region, *rows))["red"].surrounded == 6
    king = load(territory_neighbourhood="king")
    square = ("r.r.....b", "rr.......")                                # b1: orthogonal yes; c2 is empty
    assert load().score(position(load(), *square))["red"].surrounded == 3
    assert king.score(position(king, *square))["red"].surrounded == 0
    prisoner = load(territory_requires_empty=False)
    assert prisoner.score(position(prisoner, "rrbr....b", "rrr......"))["red"].surrounded == 3


def test_a_tie_goes_to_the_centre_else_a_draw():
    """"Add up the points for both colors that each player controls and the highest score wins. Tie goes to
    the player that controls the center space." """
    held = board("r.......b", EMPTY, EMPTY, EMPTY, "....y....", EMPTY, "..b......")
    game = load()
    state = game.state_from_json({"board": held, "over": "test"})
    outcome = game.outcome(state)
    assert outcome.scores == (5, 5) and outcome.winners == (0,)
    assert "player A holds the centre" in outcome.reason
    assert load(tiebreak="center_connected").outcome(
        load(tiebreak="center_connected").state_from_json({"board": held, "over": "test"})).is_draw
    assert load(tiebreak="draw").outcome(load(tiebreak="draw").state_from_json(
        {"board": held, "over": "test"})).is_draw
    empty_centre = game.state_from_json({"board": board("r.......b"), "over": "test"})
    assert game.outcome(empty_centre).is_draw and game.outcome(empty_centre).reason == "draw 4–4 (test)"


def test_incremental_and_from_scratch_scores_agree_on_a_scenario():
    """"Add up the points for both colors that each player controls" — the score kept action by action
    equals the score computed from nothing."""
    game = load()
    state = game.state_from_json({"board": list(CUT), "to_move": "red", "turn": 4})
    for action in (capture("i3"), EndTurn(), capture("i4"), place("i4")):
        state = game.apply(state, action)
        assert game.score(state) == game.score_from_scratch(state)


# --------------------------------------------------------------------------- bad input

def test_an_illegal_action_names_the_rule_and_changes_nothing():
    """"When you place any token on the board, it must be adjacent (on a side, not diagonal) to a token
    that is connected to that colors source." — a session refuses anything else and stays as it was."""
    session = playtest.Session(load())
    session.play(place("b1"))
    before = (session.state, session.node, session.positions(), json.dumps(session.to_json()["nodes"]))
    with pytest.raises(IllegalAction, match=r"not next to a connected red token \(rule C.1 §8\)"):
        session.play(place("e5"))
    with pytest.raises(IllegalAction, match=r"not a point of the 9x9 board"):
        session.play({"kind": "place", "col": 9, "row": 0})
    with pytest.raises(ValueError):
        session.play({"kind": "place", "col": "b", "row": 0})
    with pytest.raises(ValueError):
        session.play({"kind": "teleport"})
    assert (session.state, session.node, session.positions(),
            json.dumps(session.to_json()["nodes"])) == before
    session.play("place c1")                                            # notation works too
    assert COLORS[session.state.active] == "blue"


@pytest.mark.parametrize("data, message", [
    ({"board": board(".......b")}, "board row 1"),
    ({"board": board("........b")}, "the red source is missing"),
    ({"board": board("x.......b")}, "'x' is not a point"),
    ({"board": board("r.......b"), "supply": {"red": 25}}, "more than tokens_per_color = 25"),
    ({"board": board("r.......b"), "supply": {"purple": 3}}, "'purple' is not a colour; the colours are red, blue"),
    ({"board": board("r.......b"), "to_move": "pink"}, "to_move must be a colour"),
    ({"board": board("r.......b"), "ap_left": 3}, "ap_left must be from 1 to 2"),
    ({"board": board("r.......b"), "ap_left": 1, "acted": False}, "set \"acted\": true"),
    ({"board": board("r.......b"), "passes": 4}, "pass_limit = 4"),
    ({"board": board("rR......b")}, None),
    ({"board": board("rR2.....b")}, "is not a point"),
    ({"board": board("r R2 . . . . . . b")}, "more than max_fortify_layers = 1"),
    ({"board": board("rrrrr...b", "....r....", "....r....", "....r....", "....R....")}, "center_fortifiable"),
    ({"board": board("r.......b"), "colour": "red"}, "unknown fields"),
    ({"board": "r.......b"}, "9 text rows"),
    ("r.......b", "an object"),
])
def test_state_from_json_refuses_impossible_positions(data, message):
    """"You also need 25 tokens in four different colors." and "Each corner is the source for one of the
    colors of tokens." — a hand-written position must be possible."""
    game = load()
    if message is None:
        state = game.state_from_json(data)
        assert game.state_from_json(state.to_json()) == state
        return
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        game.state_from_json(data)


def test_parameters_cover_table_c3():
    """RULES.md table C.3: every parameter declared with its default, help, source and live/setup."""
    expected = {
        "board_size": 9, "colors_clockwise": ("red", "blue", "yellow", "green"),
        "player_colors": "red+yellow/blue+green", "tokens_per_color": 25, "source_from_supply": True,
        "first_color": "red", "ap_per_turn": 2, "first_turn_ap": 2, "cost_place": 1, "cost_fortify": 1,
        "cost_remove_fortification": 1, "cost_capture_connected": 2, "cost_capture_unconnected": 1,
        "cost_capture_unconnected_fortified": 1, "capture_connected_fortified_cost": 0,
        "max_fortify_layers": 1, "center_fortifiable": False, "source_capturable": False,
        "action_range": "adjacent_to_connected", "connection_through_partner": False,
        "end_trigger": "supply_empty", "end_timing": "immediate", "pass_limit": 4, "score_connected": 2,
        "score_unconnected": 1, "center_connected_value": 10, "center_mode": "replace",
        "fortification_scores": False, "territory_value": 3, "territory_mode": "single_point",
        "territory_neighbourhood": "orthogonal", "territory_color_rule": "single_color",
        "edge_counts_as_wall": True, "tiebreak": "center_control",
    }
    specs = {s.name: s for s in SourceParams.specs()}
    for name, default in expected.items():
        assert specs[name].default == default, name
        assert specs[name].help and specs[name].source in ("seed", "public", "assumed") and specs[name].rule
    assert specs["end_timing"].choices == ("immediate", "end_of_turn", "end_of_round")
    assert specs["territory_mode"].choices == ("single_point", "region")
    assert specs["action_range"].choices == ("adjacent_to_connected", "global")
    assert not specs["board_size"].live and specs["center_connected_value"].live
    with pytest.raises(ValueError, match="must be odd"):
        load(board_size=8)
    with pytest.raises(ValueError, match="each of red, blue, yellow, green once"):
        load(colors_clockwise=["red", "red", "yellow", "green"])
    small = load(board_size=5)
    assert small.initial_state().to_json()["board"] == ["r...b", ".....", ".....", ".....", "g...y"]


# --------------------------------------------------------------------------- the scene

def test_the_scene_draws_stacks_connection_and_offers_the_rules():
    """"Fortifying a space costs 1 action point. Place an additional token on the fortified space." — the
    board shows stacks doubled, cut-off tokens faded, and every click's options with their costs."""
    game = load()
    state = position(game, "rrrrrrrBb", "y........", "..r......")
    scene = game.view(state)
    pieces = {tuple(i["at"]): i for i in scene["items"] if i["kind"] == "piece"}
    assert pieces[(7, 0)]["double"] is True and pieces[(7, 0)]["shape"] == "square"
    assert pieces[(2, 2)].get("dim") is True and not pieces[(1, 0)].get("dim")
    assert pieces[(0, 1)]["shape"] == pieces[(0, 0)]["shape"] == "circle"      # red and yellow: player A
    assert scene["buttons"] == [{"label": "End turn", "action": {"kind": "end_turn"}}]
    assert scene["status"]["text"] == "red (player A) to act: 2 AP left"
    assert scene["moves"]["pt:7,0"][0]["label"] == "Remove fortification (1 AP + 1 token)"
    assert scene["reasons"]["pt:0,1"] == "yellow is red's partner colour: partners are never captured (rule C.1 §15)"
    assert "capturing a connected fortified token needs its fortification removed first" not in \
        scene["reasons"].get("pt:7,0", "")
    no_supply = game.view(position(game, "rrrrrrrBb", supply={"red": 0}))
    assert no_supply["status"]["text"].startswith("Game over")
    broke = load(end_timing="end_of_turn")
    why = broke.view(position(broke, "rrrrrrrBb", supply={"red": 0}))["reasons"]["pt:7,0"]
    assert "capturing a connected fortified token needs its fortification removed first (rule C.1 §15)" in why
    assert "red has 0 in supply (rule C.1 §10)" in why
    panel = {p["title"]: p["rows"] for p in scene["panels"]}["Score"]
    assert panel[0] == ["", "connected", "unconnected", "centre", "surrounded", "total"]
    assert panel[1][0] == "red (A)" and panel[-2][0] == "player A"
    assert any(i["kind"] == "cell" and i["at"] == [4, 4] for i in scene["items"])   # the centre is marked


# --------------------------------------------------------------------------- bots

def test_greedy_bot_prefers_the_largest_lead():
    """"Add up the points for both colors that each player controls and the highest score wins." — the greedy
    bot picks the action that most improves its player's lead; ties go to the first legal action."""
    game = load()
    bot = GreedyBot()
    assert str(bot.choose(game, game.initial_state())) == "place b1"
    # capturing g2 (2 AP) cuts g3 and g4 off: blue loses 2 + 1 + 1, more than a placement's +2
    state = position(game, "rrrrrr..b", ".....rbbb", "......b..", "......b..")
    assert game.is_connected(state, "g4")
    choice = bot.choose(game, state)
    assert str(choice) == "capture g2"
    assert "greedy" in playtest.bots.bots_for("source")
    result = playtest.simulate(game, [GreedyBot(), playtest.bots.RandomBot(1)], games=3, seed=1)
    assert result.wins.get(0, 0) == 3


# --------------------------------------------------------------------------- properties

VARIANTS = [
    {},
    {"territory_mode": "region", "territory_color_rule": "same_player"},
    {"territory_neighbourhood": "king", "territory_requires_empty": False, "edge_counts_as_wall": False},
    {"connection_through_partner": True, "fortification_scores": True, "center_mode": "add"},
    {"max_fortify_layers": 2, "capture_connected_fortified_cost": 2, "center_fortifiable": True},
    {"action_range": "global", "source_capturable": True, "end_trigger": "board_empty", "pass_limit": 2},
    {"ap_per_turn": 3, "first_turn_ap": 1, "end_timing": "end_of_round", "territory_mode": "region"},
    {"end_timing": "end_of_turn", "player_colors": "red+blue/yellow+green", "first_color": "yellow",
     "board_size": 7, "tokens_per_color": 12},
]
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_session(params: dict, seed: int, steps: int) -> playtest.Session:
    session = playtest.Session(load(**params), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if session.is_over:
            break
        session.play(session.game.random_action(session.state, rng))
    return session


def assert_apply_accepts_exactly(game: Source, state, legal: list) -> None:
    """apply accepts every listed action, and refuses every other point action with a rule's IllegalAction."""
    listed = set(legal)
    n = game.params.board_size
    for action in legal:
        game.apply(state, action)
    for kind in (Place, Fortify, RemoveFortification, Capture):
        for i in range(n * n):
            action = kind(i % n, i // n)
            if action not in listed:
                with pytest.raises(IllegalAction) as err:
                    game.apply(state, action)
                assert err.value.rule, action


def options(scene: dict) -> set[str]:
    found = [o for opts in scene["moves"].values() for o in opts] + scene["buttons"]
    return {json.dumps(o["action"], sort_keys=True) for o in found}


@SETTINGS
@given(params=st.sampled_from(VARIANTS), seed=st.integers(0, 100_000))
def test_random_play_keeps_every_invariant(params, seed):
    """Random legal play to the end: the incremental score equals the from-scratch score, the scene offers
    exactly the legal actions, apply accepts exactly the legal actions, and the game ends."""
    game = load(**params)
    rng = random.Random(seed)
    state = game.initial_state()
    for step in range(2000):
        assert game.score(state) == game.score_from_scratch(state)
        assert state == game.state_from_json(json.loads(json.dumps(state.to_json())))
        if game.to_move(state) is None:
            break
        legal = game.legal_actions(state)
        assert options(game.view(state)) == {json.dumps(a.to_json(), sort_keys=True) for a in legal}
        if step % 7 == 0:   # every point and kind: apply accepts it iff it is listed
            assert_apply_accepts_exactly(game, state, legal)
        state = game.apply(state, game.random_action(state, rng))
    assert game.to_move(state) is None and game.outcome(state) is not None


@SETTINGS
@given(params=st.sampled_from(VARIANTS[:4]), seed=st.integers(0, 100_000), steps=st.integers(1, 80))
def test_sessions_undo_redo_and_replay(params, seed, steps):
    """Undo then redo restores the state; Session.to_json -> Session.from_json replays to the same states
    at every position; an illegal action changes nothing."""
    session = random_session(params, seed, steps)
    rng = random.Random(seed)
    for _ in range(rng.randint(1, 4)):
        before = (session.state, session.node)
        session.undo()
        session.redo()
        assert (session.state, session.node) == before
    for _ in range(rng.randint(0, min(10, session.move_number))):
        session.undo()
    if not session.is_over:
        session.play(session.game.random_action(session.state, rng))      # a branch
    if not session.is_over and rng.random() < 0.5:   # a live rule change mid-game keeps a valid position
        session.set_params(ap_per_turn=rng.randint(1, 4), pass_limit=rng.randint(1, 5),
                           end_timing=rng.choice(("immediate", "end_of_turn")),
                           territory_mode=rng.choice(("single_point", "region")))
        state = session.state
        assert session.game.score(state) == session.game.score_from_scratch(state)
        assert session.game.state_from_json(state.to_json()) == state
    copy = playtest.Session.from_json(json.loads(json.dumps(session.to_json())))
    assert copy.positions() == session.positions()
    for node in range(session.positions()):
        assert copy.position(node) == session.position(node)
        assert copy.game.score(copy.position(node)) == session.game.score(session.position(node))
    if not session.is_over:
        before = (session.state, session.node, session.positions())
        legal = set(session.legal_actions())
        for i in rng.sample(range(81), 20):
            action = rng.choice((Place, Fortify, RemoveFortification, Capture))(i % 9, i // 9)
            if action not in legal:
                with pytest.raises(IllegalAction):
                    session.play(action)
                assert (session.state, session.node, session.positions()) == before


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 100_000))
def test_bots_finish_games(seed):
    """Random play ends (supply, passes), and so do greedy games on any colour."""
    game = load()
    state, steps = play_game(game, [GreedyBot(), playtest.bots.RandomBot(seed)], random.Random(seed))
    assert game.outcome(state) is not None and steps < 1000
    state, _ = play_game(game, playtest.bots.RandomBot(seed), random.Random(seed))
    assert game.outcome(state) is not None


#: the parameters that decide which opponent points may be targeted: drawn in every example
TARGETING_PARAMS = {
    "action_range": st.sampled_from(("adjacent_to_connected", "global")),
    "source_capturable": st.booleans(),
    "max_fortify_layers": st.integers(0, 2),
}
#: every other parameter that changes what may be done, with values worth mixing (costs of 0 included)
LEGALITY_PARAMS = {
    "board_size": st.sampled_from((5, 7, 9)),
    "tokens_per_color": st.integers(4, 25),
    "source_from_supply": st.booleans(),
    "first_color": st.sampled_from(COLORS),
    "player_colors": st.sampled_from(("red+yellow/blue+green", "red+blue/yellow+green", "red+green/blue+yellow")),
    "ap_per_turn": st.integers(1, 4),
    "first_turn_ap": st.integers(1, 3),
    "cost_place": st.integers(0, 2),
    "cost_fortify": st.integers(0, 2),
    "cost_remove_fortification": st.integers(0, 2),
    "remove_fortification_tokens": st.integers(0, 2),
    "cost_capture_connected": st.integers(0, 3),
    "cost_capture_unconnected": st.integers(0, 2),
    "cost_capture_unconnected_fortified": st.integers(0, 2),
    "capture_connected_fortified_cost": st.integers(0, 3),
    "center_fortifiable": st.booleans(),
    "connection_through_partner": st.booleans(),
    "end_trigger": st.sampled_from(("supply_empty", "board_empty")),
    "end_timing": st.sampled_from(("immediate", "end_of_turn", "end_of_round")),
    "pass_limit": st.integers(1, 6),
}


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(params=st.fixed_dictionaries(TARGETING_PARAMS, optional=LEGALITY_PARAMS), seed=st.integers(0, 100_000),
       steps=st.integers(0, 150))
def test_apply_accepts_exactly_the_listed_actions_under_any_parameters(params, seed, steps):
    """"Each color has a discrete turn ... They can spend these in a following ways." — whatever the
    parameters (range, capturable sources, costs of 0, ...), in a random position apply accepts every action
    legal_actions lists, and refuses with IllegalAction every Place, Fortify, RemoveFortification and
    Capture on every point that it does not list."""
    game = load(**params)
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(steps):   # a random position: random legal play, each kind of action as likely as another
        if game.to_move(state) is None:
            return
        by_kind: dict[str, list] = {}
        for action in game.legal_actions(state):
            by_kind.setdefault(action.kind, []).append(action)
        state = game.apply(state, rng.choice(rng.choice(list(by_kind.values()))))
    if game.to_move(state) is not None:
        assert_apply_accepts_exactly(game, state, game.legal_actions(state))
