"""Eat Thyself's play-out shortcuts are the long way's answers (issue 27).

``random_action`` draws through ``rng._randbelow`` for a plain ``random.Random`` (the number
``randrange`` draws), in the order ``candidates`` lists the actions; ``_end_turn`` keeps the running
scores and the next mover's kings for the state it makes (``running_scores`` and ``random_action``
read them there, by identity); a turn's last state is made by ``_position``. Each is held here to
the slow path it replaces, and the games to a digest of the rules as they played before the
shortcuts (commit 91c4ea0): the same positions, listings, running scores, draws and outcomes.
"""

from __future__ import annotations

import hashlib
import random

import pytest

import playtest
from playtest.games.eat_thyself import Discard, KeepPawns, Move, Pass, PlaceInGap, PlaceOnTile, RemovePawn, State, Take
from playtest.games.eat_thyself.position import _position

VARIANTS = [
    {},
    {"num_players": 3},
    {"count_empty_tiles": False, "opponent_pawn_return": "may"},
    {"allow_both_directions": False, "own_king_bonus_removals": 2, "opponent_king_extra_pieces": 3},
    {"num_players": 3, "win_condition": "one_king_left", "simultaneous_win": "shared", "turn_order": "reverse"},
    # a ring of six: some counts come back to their king (the rejection draw), and no king can move (Pass)
    {"kings_per_player": 1, "pawns_per_player": 1, "setup_sequence_2p": "▲ △ □ ● ○ □",
     "setup_sequence_3p": "▲ △ ● ○ ◆ ◇", "card_types": ("1&2", "1&3", "2&4", "4&8"), "card_pair": ("2&4", "4&8"),
     "initial_faces": (2, 4), "max_turns": 40},
]

#: digest(game) for each variant, computed with the rules of commit 91c4ea0 (before these shortcuts)
BEFORE = ["bd90b59c3c1e92803502", "249fde8488743db16b97", "9ec402aa4e62733e8a47", "00563c164a4ac86c2361",
          "b2b6df687ad609c53944", "59da445ed33b7200a2a8"]


class Subclassed(random.Random):
    """A generator random_action does not draw from by its bits: it calls randrange and choice."""


def digest(game, games: int = 12) -> str:
    """Every position, listing, running score and random draw of some seeded random games, and how they end."""
    h = hashlib.sha256()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.initial_state()
        while game.to_move(state) is not None:
            legal = game.legal_actions(state)
            action = game.random_action(state, rng)
            h.update(repr((state.to_json(), game.running_scores(state), legal, action)).encode())
            state = game.effect(state, action)
        h.update(repr((state.to_json(), game.outcome(state))).encode())
    return h.hexdigest()[:20]


def positions(game, games: int = 6):
    """Every position of some seeded random games where a seat is to move."""
    for seed in range(games):
        rng = random.Random(100 + seed)
        state = game.initial_state()
        while game.to_move(state) is not None:
            yield state
            state = game.effect(state, game.random_action(state, rng))


def drawn_the_long_way(game, state, rng: random.Random):
    """What random_action promises, from the listing: ``rng.choice`` over the candidates, except a
    placement (a piece of the hand, then one of its places) and a move when some counts come back to
    their king (the moves drawn without replacement until a legal one)."""
    listed = game.candidates(state, state.to_move)
    if state.phase == "place":
        piece = state.hand[rng.randrange(len(state.hand))]
        options = [a for a in listed if a.piece == piece]
        return options[rng.randrange(len(options))]
    if state.phase == "move":
        kings = [i for i, (_, q) in enumerate(state.ring) if q == state.to_move * 2]
        every = [Move(slot, card, d) for slot in kings for card in (0, 1) for d in game._directions]
        if listed == every:
            return rng.choice(listed)
        while every:
            move = every.pop(rng.randrange(len(every)))
            if move in listed:
                return move
        return Pass()
    return rng.choice(listed)


@pytest.mark.parametrize("params,before", list(zip(VARIANTS, BEFORE)))
def test_the_games_play_as_before_the_shortcuts(params, before):
    assert digest(playtest.load("eat_thyself", **params)) == before


@pytest.mark.parametrize("params", VARIANTS)
def test_random_action_draws_as_the_listing_and_randrange_draw(params):
    game = playtest.load("eat_thyself", **params)
    kinds = set()
    for k, state in enumerate(positions(game)):
        plain, long_way, subclassed = random.Random(k), random.Random(k), Subclassed(k)
        action = game.random_action(state, plain)
        assert action == drawn_the_long_way(game, state, long_way)
        assert action == game.random_action(state, subclassed)
        assert plain.getstate() == long_way.getstate() == subclassed.getstate()    # the same numbers drawn
        assert game.why_not(state, action, state.to_move) is None
        kinds.add(type(action))
    expected = {Move, Take, PlaceInGap, PlaceOnTile, RemovePawn, KeepPawns}
    if params.get("opponent_pawn_return") == "may":
        expected.add(Discard)
    if params.get("max_turns") == 40:       # the ring of six, one king each: passes, no bonus
        expected = {Move, Pass, Take, PlaceInGap, PlaceOnTile}
    assert kinds >= expected


@pytest.mark.parametrize("params", VARIANTS)
def test_what_end_turn_keeps_is_what_the_ring_says(params):
    """running_scores and random_action answer alike for a state _end_turn made (read from what it kept)
    and for an equal state it did not make (counted again)."""
    game = playtest.load("eat_thyself", **params)
    for k, state in enumerate(positions(game, games=3)):
        copy = State.from_json(state.to_json())
        copy = copy.replace(last=state.last)
        assert copy == state and copy is not state
        assert game.running_scores(state) == game.running_scores(copy)
        pieces = [p for _, p in state.ring] + list(state.hand)
        counts = [pieces.count(code) for code in range(6)]
        players = game.params.num_players
        by_pieces = game.params.win_condition == "one_piece_left"
        assert game.running_scores(state) == tuple(-(counts[2 * p] + counts[2 * p + 1] * by_pieces)
                                                   for p in range(players))
        assert game.random_action(state, random.Random(k)) == game.random_action(copy, random.Random(k))


def test_position_makes_the_declared_state():
    fields = tuple(spec.name for spec in State._fields)
    game = playtest.load("eat_thyself")
    ring = game.initial_state().ring
    values = (ring, ((2, 4), (1, 2)), 1, "place", (1, 3), 0, 1, 0, 7, (), "", (3, 4))
    made = _position(*values)
    declared = State(**dict(zip(fields, values)))
    assert made == declared and type(made) is State
    assert made.to_json() == declared.to_json() and made.last == declared.last
    assert made.replace(turn=8) == declared.replace(turn=8)
    assert hash(made) == hash(declared)


def test_randbelow_draws_what_randrange_draws():
    """random_action asks a plain random.Random for its numbers through ``_randbelow``, the method
    its ``randrange(m)`` ends in: the same numbers, the same state after."""
    for seed in range(20):
        fast, slow = random.Random(seed), random.Random(seed)
        for m in list(range(1, 70)) + [127, 128, 129, 1000, 2 ** 31 + 1]:
            assert fast._randbelow(m) == slow.randrange(m)
        assert fast.getstate() == slow.getstate()


def test_a_game_that_kept_its_tables_pickles_and_plays_the_same():
    """The lab ships games to its workers pickled: the kept set-up, actions and turned cards travel too."""
    import pickle

    game = playtest.load("eat_thyself", num_players=3)
    before = digest(game, games=4)               # fills the tables
    copy = pickle.loads(pickle.dumps(game))
    kept = copy._actions_by_slot[PlaceInGap, 1]                 # the kept actions travel
    assert kept == [PlaceInGap(1, gap) for gap in range(len(kept))] and len(kept) > 16
    assert digest(copy, games=4) == before == digest(playtest.load("eat_thyself", num_players=3), games=4)


def test_kept_scores_hold_for_the_rule_they_were_counted_by():
    """A state ``_end_turn`` made keeps its running scores for its game's scoring rule only: the same
    state scored by a game with another win_condition (a live parameter) is counted again."""
    by_pieces = playtest.load("eat_thyself")
    by_kings = by_pieces.with_params(win_condition="one_king_left")
    rng, state = random.Random(1), by_pieces.initial_state()
    while state.turn < 3 or state.phase != "move":
        state = by_pieces.effect(state, by_pieces.random_action(state, rng))
    counts = [state.count(p) for p in range(2)]
    assert by_pieces.running_scores(state) == tuple(-(k + pawns) for k, pawns in counts)
    assert by_kings.running_scores(state) == tuple(-k for k, _ in counts)
    assert by_pieces.running_scores(state) == tuple(-(k + pawns) for k, pawns in counts)
