"""Eat Thyself: scenario tests from the seed's own sentences (RULES.md section E)."""

from __future__ import annotations

import random

import pytest

import playtest
from playtest import IllegalAction
from playtest.games.eat_thyself import (CCW, CW, Discard, KeepPawns, Move, Pass, PlaceInGap,
                                        PlaceOnTile, RemovePawn, Take)


def position(game, ring, **fields):
    """A position from the hand-writable JSON form."""
    return game.state_from_json({"ring": ring, **fields})


def ring_of(state):
    return state.to_json()["ring"]


@pytest.fixture
def game():
    return playtest.load("eat_thyself")


def test_two_player_setup(game):
    """"For a two player game, put the pieces on the gameboard circle in this sequence:
    □, ▲, ○, △, □, ●, △, ○, □, ▲, ○, △, □, ●, △, ○" """
    assert ring_of(game.initial_state()) == "□ ▲ ○ △ □ ● △ ○ □ ▲ ○ △ □ ● △ ○".split()


def test_three_player_setup():
    """"For a three player game, put the pieces on the board in this sequence:
    □, ▲, ○, ◇, □, ●, ◇, △, □, ◆, △, ○, □, ▲, ○, ◇, □, ●, ◇, △, □, ◆, △, ○," """
    game = playtest.load("eat_thyself", num_players=3)
    assert ring_of(game.initial_state()) == "□ ▲ ○ ◇ □ ● ◇ △ □ ◆ △ ○ □ ▲ ○ ◇ □ ● ◇ △ □ ◆ △ ○".split()
    assert [s.name for s in game.seats()] == ["Triangle ▲", "Circle ●", "Diamond ◆"]


def test_cards_show_the_same_sides(game):
    """"Choose which two of the three cards to play with, and place a set of those cards in front
    of each player. Make sure that every player shows the same sides facing upward." """
    state = game.initial_state()
    assert state.faces == ((1, 2), (1, 2))
    other = playtest.load("eat_thyself", card_pair=("1&3", "2&4"), initial_faces=(3, 4))
    assert other.initial_state().faces == ((3, 4), (3, 4))
    with pytest.raises(ValueError, match="initial_faces"):
        playtest.load("eat_thyself", card_pair=("1&2", "1&3"), initial_faces=(1, 2))
    with pytest.raises(ValueError, match="card_pair"):
        playtest.load("eat_thyself", card_pair=("1&2", "5&6"))


def test_move_by_card_value_and_turn_card_over(game):
    """"On your turn, you choose which of your two cards you would like to use, move one of your
    "king" pieces that number of spaces, and turn the card over to its opposite side." """
    state = position(game, ["▲", "□", "□", "□", "△", "●", "○"], cards=[[1, 2], [1, 2]])
    after = game.apply(state, Move(slot=0, card=1, direction=CW))   # card 2&4 shows 2
    assert ring_of(after) == ["□", "□▲", "□", "△", "●", "○"]      # bare slot 0 disappears
    assert after.faces[0] == (1, 4)                                  # the 2&4 card turned over
    assert after.mover == 1


def test_either_direction(game):
    """"The piece can move either direction, and may land on any of the other types of pieces." """
    state = position(game, ["▲", "□", "△", "●", "○", "□"], cards=[[1, 2], [1, 2]])
    moves = game.legal_actions(state)
    assert {(m.card, m.direction) for m in moves} == {(0, CW), (0, CCW), (1, CW), (1, CCW)}
    one_way = playtest.load("eat_thyself", allow_both_directions=False)
    assert {m.direction for m in one_way.legal_actions(state)} == {CW}
    with pytest.raises(IllegalAction, match="E3"):
        one_way.apply(state, Move(0, 0, CCW))


def test_own_pawn_is_removed(game):
    """"Your own "pawn" piece: Remove the pawn from the game. It goes back in the box and will not
    be needed again." """
    state = position(game, ["▲", "△", "△", "●", "○", "□"])
    after = game.apply(state, Move(0, 0, CW))          # card 1&2 shows 1: lands on △
    assert ring_of(after) == ["▲", "△", "●", "○", "□"]
    assert after.count(0) == (1, 1)


def test_opponent_pawn_goes_back_between_pieces_or_on_empty_space(game):
    """"Your opponent's "pawn" piece: You take the "pawn" in hand, and may place it back on the
    gameboard between any two pieces, or on top of any unoccupied "empty space" pieces." """
    state = position(game, ["▲", "○", "△", "●", "□", "△"])
    in_hand = game.apply(state, Move(0, 0, CW))
    assert in_hand.phase == "place" and in_hand.to_json()["hand"] == ["○"]
    assert in_hand.mover == 0                           # the mover still has to put it back
    options = game.legal_actions(in_hand)
    assert PlaceOnTile(3, 3) in options and PlaceInGap(3, 0) in options
    assert Discard(3) not in options                    # "must" by default (E6)
    on_tile = game.apply(in_hand, PlaceOnTile(3, 3))
    assert ring_of(on_tile) == ["▲", "△", "●", "□○", "△"] and on_tile.mover == 1
    in_gap = game.apply(in_hand, PlaceInGap(3, 2))
    assert ring_of(in_gap) == ["▲", "△", "○", "●", "□", "△"]
    with pytest.raises(IllegalAction, match="E6"):
        game.apply(in_hand, Discard(3))
    may = playtest.load("eat_thyself", opponent_pawn_return="may")
    dropped = may.apply(may.apply(state, Move(0, 0, CW)), Discard(3))
    assert dropped.count(1) == (1, 0)


def test_own_king_removed_with_optional_pawn(game):
    """"Your own "king" piece: Remove the "king" from the game. You are also allowed to remove one
    of your other "pawn" pieces from the game." """
    state = position(game, ["▲", "▲", "△", "△", "●", "○", "○"])
    after = game.apply(state, Move(0, 0, CW))
    assert after.phase == "bonus" and after.count(0) == (1, 2)
    assert set(game.legal_actions(after)) == {RemovePawn(1), RemovePawn(2), KeepPawns()}
    removed = game.apply(after, RemovePawn(2))
    assert removed.count(0) == (1, 1) and removed.mover == 1
    kept = game.apply(after, KeepPawns())
    assert kept.count(0) == (1, 2)
    none = playtest.load("eat_thyself", own_king_bonus_removals=0)
    assert none.apply(state, Move(0, 0, CW)).mover == 1


def test_opponent_king_and_two_pieces_put_back_one_at_a_time(game):
    """"Your opponent's "king" piece: Take the "king" in hand, as well as two of their other pieces.
    You then put them back on the gameboard one at a time (in any order) between any two other
    pieces, or on top of any unoccupied "empty space" pieces." """
    state = position(game, ["▲", "●", "○", "□", "●", "△", "□○"])
    taking = game.apply(state, Move(0, 0, CW))
    assert taking.phase == "take" and taking.takes_left == 2 and taking.to_json()["hand"] == ["●"]
    assert set(game.legal_actions(taking)) == {Take(1), Take(3), Take(5)}
    taking = game.apply(taking, Take(5))               # the pawn on the tile: the tile stays
    assert ring_of(taking)[5] == "□"
    placing = game.apply(taking, Take(3))              # the other king
    assert placing.phase == "place" and sorted(placing.to_json()["hand"]) == ["○", "●", "●"]
    king, pawn = 2, 3
    placing = game.apply(placing, PlaceInGap(pawn, 0))   # any order: the pawn first
    placing = game.apply(placing, PlaceOnTile(king, 3))
    assert placing.mover == 0
    done = game.apply(placing, PlaceInGap(king, 1))
    assert done.mover == 1 and done.count(1) == (2, 2)


def test_empty_space(game):
    """"An unoccupied "empty space" piece: Place your king on the "empty space" piece. Nothing
    else happens." """
    state = position(game, ["□▲", "□", "△", "●", "○"])
    after = game.apply(state, Move(0, 0, CW))
    assert ring_of(after) == ["□", "□▲", "△", "●", "○"]
    assert after.count(0) == state.count(0) and after.count(1) == state.count(1)


def test_one_piece_left_wins(game):
    """"When you have only one piece remaining, you win the game!" """
    state = position(game, ["▲", "△", "●", "○", "□"])
    after = game.apply(state, Move(0, 0, CW))
    assert game.to_move(after) is None
    assert game.outcome(after).winner == 0
    session = playtest.Session(game, start=state)
    assert session.winner is None
    session.play(Move(0, 0, CW))
    assert session.winner == 0 and session.is_over


def test_one_king_left_reading():
    """"You win when you are the first player to remove all but one of your "king" pieces from the
    game." (the Goal section; it contradicts the Overview, so it is win_condition="one_king_left") """
    literal = playtest.load("eat_thyself", win_condition="one_king_left")
    state = position(literal, ["▲", "▲", "△", "●", "○", "●"])
    after = literal.apply(literal.apply(state, Move(0, 0, CW)), KeepPawns())
    assert literal.outcome(after).winner == 0
    default = playtest.load("eat_thyself")
    assert default.outcome(default.apply(default.apply(state, Move(0, 0, CW)), KeepPawns())) is None


def test_turn_cap_is_a_draw():
    """RULES.md E14: endless play ends in a draw after max_turns (the seed has no end for it)."""
    game = playtest.load("eat_thyself", max_turns=1)
    state = game.apply(game.initial_state(), game.legal_actions(game.initial_state())[1])
    assert game.outcome(state).is_draw
    assert playtest.Session(game, start=state).winner == playtest.DRAW


def test_only_your_own_kings_move(game):
    """"On your turn, you choose which of your two cards ..., move one of your "king" pieces" """
    state = game.initial_state()
    with pytest.raises(IllegalAction, match="E.1 §8") as err:
        game.apply(state, Move(slot=5, card=0, direction=CW))    # ● belongs to the other player
    assert "own kings" in str(err.value)
    session = playtest.Session(game)
    before = (session.state, session.positions())
    with pytest.raises(IllegalAction):
        session.play({"kind": "move", "slot": 5, "card": 0, "direction": 1})
    assert (session.state, session.positions()) == before


def test_a_move_back_to_its_own_slot_is_illegal(game):
    """RULES.md E.1 §9: a count that comes back to the king's own slot is not a move; a player
    with no move at all passes (an assumed rule: the seed never meets this tiny ring)."""
    state = position(game, ["▲", "△", "●", "○", "□"], cards=[[1, 2], [1, 2]])
    fours = playtest.load("eat_thyself", card_types=("2&4", "4&8"), card_pair=("2&4", "4&8"),
                          initial_faces=(4, 4))
    tiny = fours.state_from_json({"ring": ["▲", "△", "●", "○"]})
    with pytest.raises(IllegalAction, match="E.1 §9"):
        fours.apply(tiny, Move(0, 0, CW))
    assert fours.legal_actions(tiny) == [Pass()]
    assert fours.apply(tiny, Pass()).mover == 1
    with pytest.raises(IllegalAction, match="no move"):
        game.apply(state, Pass())


def test_a_count_back_to_its_own_slot_is_illegal_without_counting_empty_tiles_too():
    """RULES.md E.1 §9: "A move whose count comes back to the king's own slot (a ring so short that
    v is a multiple of its length) is not a legal move" — with count_empty_tiles=False as well: the
    king's own slot counts when the count wraps past it, so on a ring with no unoccupied tile the
    parameter changes nothing (issue 14, point 3)."""
    start = {"ring": ["□▲", "□●", "□△", "□○"], "cards": [[2, 4], [1, 2]], "to_move": 0}
    by_count = {}
    for counting in (True, False):
        game = playtest.load("eat_thyself", count_empty_tiles=counting)
        session = playtest.Session(game, start=start)
        by_count[counting] = [game.notation(session.state, a) for a in session.legal_actions()]
        with pytest.raises(IllegalAction, match="E.1 §9"):
            session.play(Move(0, 1, CW))                 # 4 on a ring of 4 pieces: back to slot 0
        rng = random.Random(14)
        assert all(game.random_action(session.state, rng) in session.legal_actions() for _ in range(50))
        scene = game.view(session.state)
        assert set(scene["selects"]["slot:0"]) == {"slot:2"}
    assert by_count[False] == by_count[True] == ["▲0↻2→2 eats △", "▲0↺2→2 eats △"]
    # where an unoccupied tile is skipped the count wraps sooner: 4 on ▲ □ ● △ ○ comes back to ▲
    short = {"ring": ["▲", "□", "●", "△", "○"], "cards": [[1, 4], [1, 2]]}
    counting = playtest.load("eat_thyself")
    assert Move(0, 1, CW) in counting.legal_actions(counting.state_from_json(short))
    skipping = playtest.load("eat_thyself", count_empty_tiles=False)
    state = skipping.state_from_json(short)
    assert [skipping.notation(state, a) for a in skipping.legal_actions(state)] == [
        "▲0↻1→2 eats ●", "▲0↺1→4 eats ○"]
    with pytest.raises(IllegalAction, match="E.1 §9"):
        skipping.apply(state, Move(0, 1, CCW))


def test_one_king_left_needs_two_kings_each():
    """"You win when you are the first player to remove all but one of your "king" pieces from the
    game." With one king each that goal is met before anyone moves, so win_condition="one_king_left"
    with kings_per_player=1 is refused when the game is loaded (issue 14, point 4)."""
    with pytest.raises(ValueError, match=r"win_condition.*kings_per_player=1") as err:
        playtest.load("eat_thyself", win_condition="one_king_left", kings_per_player=1,
                      setup_sequence_2p="□ ▲ ○ △ □ ● △ ○ □ ○ △ □ △ ○",
                      setup_sequence_3p="□ ▲ ○ ◇ □ ● ◇ △ □ ◆ △ ○ □ ○ ◇ □ ◇ △ □ △ ○")
    assert "one_king_left" in str(err.value)
    assert "kings_per_player" in playtest.games.eat_thyself.EatThyselfParams.spec("win_condition").help
    one_king = playtest.load("eat_thyself", kings_per_player=1,
                             setup_sequence_2p="□ ▲ ○ △ □ ● △ ○ □ ○ △ □ △ ○",
                             setup_sequence_3p="□ ▲ ○ ◇ □ ● ◇ △ □ ◆ △ ○ □ ○ ◇ □ ◇ △ □ △ ○")
    session = playtest.Session(one_king)
    with pytest.raises(ValueError, match="kings_per_player"):   # nor as a change in mid-game
        session.set_params(win_condition="one_king_left")
    assert session.game.params.win_condition == "one_piece_left"
    assert playtest.load("eat_thyself", win_condition="one_king_left").params.kings_per_player == 2


def test_positions_refuse_the_impossible(game):
    """A hand-written position that cannot happen is refused with a clear message."""
    with pytest.raises(ValueError, match="no king"):
        position(game, ["△", "●", "○"])
    with pytest.raises(ValueError, match="not playing"):
        position(game, ["▲", "●", "◆"])
    with pytest.raises(ValueError, match="unknown piece"):
        position(game, ["▲", "●", "X"])
    with pytest.raises(ValueError, match="more than"):
        position(game, ["▲", "▲", "▲", "●"])
    with pytest.raises(ValueError, match="already won"):
        position(game, ["▲", "●", "○"])


def test_state_json_round_trip(game):
    state = game.initial_state()
    for action in game.legal_actions(state)[:4]:
        after = game.apply(state, action)
        assert game.state_from_json(after.to_json()) == after


def test_parameters_are_validated():
    with pytest.raises(ValueError, match="num_players=4"):
        playtest.load("eat_thyself", num_players=4)
    with pytest.raises(ValueError, match="no parameter 'wall_budget'"):
        playtest.load("eat_thyself", wall_budget=3)
    with pytest.raises(ValueError, match="unknown game"):
        playtest.load("chess")
    with pytest.raises(ValueError, match="setup_sequence_2p"):
        playtest.load("eat_thyself", kings_per_player=3)
