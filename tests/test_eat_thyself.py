"""Eat Thyself: scenarios quoting the seed (RULES.md section E) and properties over random play."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import playtest
from playtest import IllegalAction
from playtest.games.eat_thyself import (CCW, CW, SEED_2P, SEED_3P, Discard, KeepPawns, Move, Pass,
                                        PlaceInGap, PlaceOnTile, RemovePawn, Take)


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


# --------------------------------------------------------------------------- properties
# Random positions reached by random play (hypothesis picks the seed and the length of the walk).

PROPERTY_SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# the seed's rings, with every □ occupied by the piece after it, or with no □ at all; and short
# rings of one king and two pawns each, where counts wrap round the ring
SETUPS = {"seed": (SEED_2P, SEED_3P, 2, 4),
          "occupied": (SEED_2P.replace("□ ", "□"), SEED_3P.replace("□ ", "□"), 2, 4),
          "tile_free": (SEED_2P.replace("□ ", ""), SEED_3P.replace("□ ", ""), 2, 4),
          "short": ("□▲ ○ △ □● △ ○", "□▲ ○ ◇ □● ◇ △ □◆ △ ○", 1, 2),
          "short_tile_free": ("▲ ○ △ ● △ ○", "▲ ○ ◇ ● ◇ △ ◆ △ ○", 1, 2)}


def load(players=2, setup="seed", **params):
    two, three, kings, pawns = SETUPS[setup]
    return playtest.load("eat_thyself", num_players=players, setup_sequence_2p=two, setup_sequence_3p=three,
                         kings_per_player=kings, pawns_per_player=pawns, **params)


def random_positions(game, seed, steps):
    """The positions of one random game (random_action must pick a listed action)."""
    rng = random.Random(seed)
    state = game.initial_state()
    yield state
    for _ in range(steps):
        if game.to_move(state) is None:
            return
        action = game.random_action(state, rng)
        assert action in game.legal_actions(state), "random_action picks only listed actions"
        state = game.apply(state, action)
        yield state


def has_unoccupied_tile(state):
    return any(tile and piece is None for tile, piece in state.ring)


@PROPERTY_SETTINGS
@given(players=st.sampled_from([2, 3]), setup=st.sampled_from(sorted(SETUPS)), drive_counting=st.booleans(),
       seed=st.integers(0, 10_000), steps=st.integers(0, 200))
def test_count_empty_tiles_cannot_matter_without_an_unoccupied_tile(players, setup, drive_counting, seed, steps):
    """count_empty_tiles only says whether unoccupied □ count: on a ring without one, the legal
    actions and every move's result are the same either way; outside the move phase it never matters."""
    counting = load(players, setup, count_empty_tiles=True)
    skipping = load(players, setup, count_empty_tiles=False)
    compared = 0
    for state in random_positions(counting if drive_counting else skipping, seed, steps):
        listed = counting.legal_actions(state)
        if state.phase == "move" and has_unoccupied_tile(state):
            continue
        assert skipping.legal_actions(state) == listed
        for action in listed:
            if isinstance(action, Move):
                assert counting.apply(state, action) == skipping.apply(state, action)
        compared += 1
    assert compared or setup in ("seed", "short")       # the tile-free rings compare every position


@PROPERTY_SETTINGS
@given(players=st.sampled_from([2, 3]), setup=st.sampled_from(sorted(SETUPS)), counting=st.booleans(),
       seed=st.integers(0, 10_000), steps=st.integers(0, 200))
def test_one_direction_only_removes_counter_clockwise_moves(players, setup, counting, seed, steps):
    """allow_both_directions=False (RULES.md E3) takes away exactly the counter-clockwise moves; a
    player left with none passes."""
    both = load(players, setup, count_empty_tiles=counting)
    one_way = load(players, setup, count_empty_tiles=counting, allow_both_directions=False)
    for state in random_positions(both, seed, steps):
        listed = both.legal_actions(state)
        if state.phase == "move":
            clockwise = [a for a in listed if isinstance(a, Move) and a.direction == CW]
            assert one_way.legal_actions(state) == (clockwise or [Pass()])
        else:
            assert one_way.legal_actions(state) == listed


@PROPERTY_SETTINGS
@given(players=st.sampled_from([2, 3]), counting=st.booleans(), seed=st.integers(0, 10_000),
       steps=st.integers(0, 200), bonus=st.integers(0, 4), extra=st.integers(0, 6),
       goal=st.sampled_from(["one_piece_left", "one_king_left"]), ties=st.sampled_from(["mover", "shared"]),
       max_turns=st.integers(1, 500))
def test_rules_of_resolution_and_end_do_not_change_the_choices(players, counting, seed, steps, bonus, extra,
                                                               goal, ties, max_turns):
    """own_king_bonus_removals, opponent_king_extra_pieces, win_condition, simultaneous_win and
    max_turns decide what happens after a choice, never which choices a position offers;
    opponent_pawn_return="may" (E6) only adds dropping an eaten pawn."""
    game = load(players, count_empty_tiles=counting)
    other = load(players, count_empty_tiles=counting, own_king_bonus_removals=bonus,
                 opponent_king_extra_pieces=extra, win_condition=goal, simultaneous_win=ties,
                 max_turns=max_turns)
    may = load(players, count_empty_tiles=counting, opponent_pawn_return="may")
    for state in random_positions(game, seed, steps):
        listed = game.legal_actions(state)
        assert other.legal_actions(state) == listed
        drops = {Discard(p) for p in state.hand if p & 1 and state.take_from is None}
        assert set(may.legal_actions(state)) == set(listed) | drops


def rotated(state, shift):
    """The same position with slot i renumbered (i + shift) % n."""
    n = len(state.ring)
    return state.replace(ring=tuple(state.ring[(j - shift) % n] for j in range(n)))


def mirrored(state):
    """The same position read counter-clockwise: slot i becomes n - 1 - i."""
    return state.replace(ring=tuple(reversed(state.ring)))


def renumber(action, slot, gap, flip):
    if isinstance(action, Move):
        return Move(slot(action.slot), action.card, -action.direction if flip else action.direction)
    if isinstance(action, (RemovePawn, Take)):
        return type(action)(slot(action.slot))
    if isinstance(action, PlaceOnTile):
        return PlaceOnTile(action.piece, slot(action.slot))
    if isinstance(action, PlaceInGap):
        return PlaceInGap(action.piece, gap(action.gap))
    return action


@PROPERTY_SETTINGS
@given(players=st.sampled_from([2, 3]), setup=st.sampled_from(sorted(SETUPS)), counting=st.booleans(),
       seed=st.integers(0, 10_000), steps=st.integers(0, 200), shift=st.integers(0, 30))
def test_the_ring_has_no_start_and_no_preferred_direction(players, setup, counting, seed, steps, shift):
    """The ring is a cycle (RULES.md E.1 §1) and a king "can move either direction" (E3): renumbering
    the slots from another start, or reading the ring the other way round, renumbers the legal
    actions the same way, clockwise and counter-clockwise swapping."""
    game = load(players, setup, count_empty_tiles=counting)
    for state in random_positions(game, seed, steps):
        n = len(state.ring)
        listed = set(game.legal_actions(state))
        turn = shift % n
        assert set(game.legal_actions(rotated(state, turn))) == {
            renumber(a, lambda i: (i + turn) % n, lambda g: (g + turn) % n, False) for a in listed}
        assert set(game.legal_actions(mirrored(state))) == {
            renumber(a, lambda i: n - 1 - i, lambda g: (n - g) % n, True) for a in listed}


def candidate_actions(game, state):
    """Every action of every kind on every slot and gap (one past the end too), every piece."""
    n = len(state.ring)
    pieces = range(2 * game.params.num_players)
    candidates = [Pass(), KeepPawns()]
    for slot in range(n + 1):
        candidates += [Move(slot, card, d) for card in (0, 1) for d in (CW, CCW)]
        candidates += [RemovePawn(slot), Take(slot)] + [PlaceOnTile(p, slot) for p in pieces]
        candidates += [PlaceInGap(p, slot) for p in pieces]
    return candidates + [Discard(p) for p in pieces]


PARAMETER_SETS = [
    {"num_players": 3, "count_empty_tiles": False, "opponent_pawn_return": "may", "allow_both_directions": False},
    {"num_players": 3, "count_empty_tiles": False, "opponent_pawn_return": "may"},
    {"num_players": 2, "count_empty_tiles": False, "opponent_pawn_return": "may", "own_king_bonus_removals": 2,
     "opponent_king_extra_pieces": 4},
    {},
]


@settings(PROPERTY_SETTINGS, max_examples=15)
@given(params=st.sampled_from(PARAMETER_SETS), seed=st.integers(0, 10_000), steps=st.integers(0, 200))
def test_apply_accepts_exactly_what_legal_actions_lists(params, seed, steps):
    """One legality decision: every listed action is accepted, every other candidate is refused
    with IllegalAction (and the position is a value, so a refusal changes nothing)."""
    game = playtest.load("eat_thyself", **params)
    for state in random_positions(game, seed, steps):
        listed = set(game.legal_actions(state))
        for action in listed:
            game.apply(state, action)
        for action in candidate_actions(game, state):
            if action not in listed:
                with pytest.raises(IllegalAction):
                    game.apply(state, action)
