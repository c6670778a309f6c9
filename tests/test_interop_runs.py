"""Listing by bit masks (``legal_runs``, :mod:`playtest.interop.core`): the runs a game hands the
adapter select exactly the actions its listing gives, and the adapter numbers them exactly as it
numbers the listing. Proved digest-style over thousands of positions of seeded random games
(several parameter sets): each position's listing is compared with the one the rules gave before
these runs existed (the reference listing below is that code), and the adapter's ids with runs
with its ids without them, along OpenSpiel's own random simulations (staged decisions included).
"""

from __future__ import annotations

import hashlib
import random

import pytest

import playtest
from playtest.games.then_there_was_one.actions import Start
from playtest.games.then_there_was_one.rules import END_TURN
from playtest.geometry import select
from playtest.kernel.encoding import ActionEncoding

TTWO_VARIANTS = [
    {},
    {"num_players": 3},
    {"allow_voluntary_revisit": True},
    {"require_open_corridor": True},
    {"wall_token_clearance": "edge_or_corner", "max_jumps_per_turn": 3, "jump_allow_obstacle_wall": True},
    {"num_players": 5, "board_width": 8, "board_length": 10, "wall_budget": 6},
]
ET_VARIANTS = [{}, {"num_players": 3}, {"allow_both_directions": False},
               {"count_empty_tiles": False, "opponent_pawn_return": "may"}]


def _reference_listing(game, state):
    """Then There Was One's legal actions as its rules listed them before ``legal_runs`` (that code)."""
    from playtest.games.then_there_was_one.actions import Build, Buy, Remove
    phase = state.phase
    if phase == "token":
        steps, jumps = game._steps, game._jumps
        return [jumps[n] if j else steps[n] for n, j in game.legal_token_moves(state)]
    if phase == "wall":
        actions = select(game._made_actions(Remove), state.walls | state.built)
        actions += select(game._made_actions(Build), game.build_edges(state))
        actions += select(game._made_actions(Buy), game.buy_tiles(state))
        if game._why_not_end_turn(state) is None:
            actions.append(END_TURN)
        return actions
    if phase == "start":
        return [a for a in (Start((c, 0)) for c in game.B.start) if game._why_not_start(state, a) is None]
    return None


def _positions(game, games, seed=0):
    """The positions of ``games`` seeded random games (half the steps uniform over the listing,
    half the game's own sampler, so both kinds of play are met)."""
    for g in range(games):
        rng = random.Random(seed + g)
        state = game.initial_state()
        while game.to_move(state) is not None:
            yield state
            if game.to_move(state) == playtest.CHANCE:
                state = game.apply(state, game.chance_outcome(state, rng))
                continue
            legal = game.legal_actions(state)
            state = game.apply(state, rng.choice(legal) if rng.random() < 0.5 else game.random_action(state, rng))


@pytest.mark.parametrize("index", range(len(TTWO_VARIANTS)))
def test_then_there_was_one_runs_select_its_listing(index):
    game = playtest.load("then_there_was_one", **TTWO_VARIANTS[index])
    before, after = hashlib.sha256(), hashlib.sha256()
    counted = {"token": 0, "wall": 0, "start": 0}
    for state in _positions(game, 12):
        if game.to_move(state) == playtest.CHANCE:
            continue
        legal = game.legal_actions(state)
        reference = _reference_listing(game, state)
        runs = game.legal_runs(state)
        if reference is None:
            assert runs is None
            continue
        assert legal == reference                 # the listing itself: as before
        counted[state.phase] += 1
        for table, mask in runs:
            assert len({type(a) for a in table}) == 1          # each table one kind
        selected = [a for table, mask in runs for a in select(table, mask)]
        if state.phase == "token":
            # a token's steps, then its jumps, by tile (the listing goes north first): the same actions
            assert sorted(selected, key=repr) == sorted(legal, key=repr) and len(selected) == len(set(selected))
            assert [type(a).__name__ for a in selected] == sorted((type(a).__name__ for a in legal), reverse=True)
        else:
            assert selected == legal              # a wall turn's and a start's: the same objects in order
        before.update(repr(sorted(map(repr, reference))).encode())
        after.update(repr(sorted(map(repr, selected))).encode())
    assert before.hexdigest() == after.hexdigest()
    assert counted["token"] > 80 and counted["wall"] > 50 and counted["start"] > 10, counted


@pytest.mark.parametrize("params", [{"max_jumps_per_turn": 2}, {"allow_voluntary_revisit": True, "max_jumps_per_turn": 2},
                                    {"jump_allow_obstacle_wall": False, "goal_on_entry": False}])
def test_move_masks_are_the_legal_token_moves(params):
    game = playtest.load("then_there_was_one", **params)
    checked = 0
    for state in _positions(game, 30, seed=50):
        if state.phase != "token":
            continue
        steps, jumps = game.paths.move_masks(state)
        moves = game.legal_token_moves(state)
        assert steps == sum(1 << n for n, j in moves if not j) and jumps == sum(1 << n for n, j in moves if j)
        checked += 1
    assert checked > 200


@pytest.mark.parametrize("index", range(len(ET_VARIANTS)))
def test_eat_thyself_runs_are_its_candidates(index):
    game = playtest.load("eat_thyself", **ET_VARIANTS[index])
    moves = 0
    for state in _positions(game, 40):
        runs = game.legal_runs(state)
        if state.phase != "move" or not game.params.count_empty_tiles:
            assert runs is None
            continue
        [(listing, mask)] = runs
        assert list(listing) == game.candidates(state, state.to_move) == game.legal_actions(state)
        assert mask == (1 << len(listing)) - 1
        moves += 1
    assert moves > 300 or not game.params.count_empty_tiles


def _sample(outcomes, z):
    total = 0.0
    for action, p in outcomes:
        total += p
        if total > z:
            return action
    return outcomes[-1][0]


@pytest.mark.parametrize("name, params", [("then_there_was_one", {}), ("then_there_was_one", {"num_players": 3}),
                                          ("eat_thyself", {}), ("eat_thyself", {"num_players": 3})])
def test_the_adapter_numbers_runs_as_it_numbers_the_listing(name, params):
    pytest.importorskip("pyspiel", reason="open_spiel is not installed (the interop extra)")
    from playtest.interop.core import KitPlay
    from playtest.interop.openspiel import register
    spiel = register(name, **params)
    shape = spiel.shape
    assert shape.runner() is not None
    rng = random.Random(3)
    with_runs, without = hashlib.sha256(), hashlib.sha256()
    steps = 0
    for _ in range(8 if name == "then_there_was_one" else 40):
        state = spiel.new_initial_state()
        plain = KitPlay(shape)
        plain._runner = None                       # the same play, listed the usual way
        while not state.is_terminal():
            if state.is_chance_node():
                code = _sample(state.chance_outcomes(), rng.random())
                plain.step(-1, code)
                state.apply_action(code)
                continue
            legal = state.legal_actions()
            who = state.current_player()
            listed = plain.legal_ids(who)
            with_runs.update(repr(legal).encode())
            without.update(repr(listed).encode())
            assert legal == listed
            code = rng.choice(legal)
            state.apply_action(code)
            plain.step(who, code)
            assert plain.state == state.play.state
            steps += 1
    assert with_runs.hexdigest() == without.hexdigest()
    assert steps > 1000


def test_a_spare_id_is_numbered_in_listing_order():
    """Where a selected action would take a spare id, select_ids answers None and the adapter
    lists the position the usual way (spare ids go in the order the listing meets them)."""
    pytest.importorskip("pyspiel", reason="open_spiel is not installed (the interop extra)")
    from playtest.interop.core import KitPlay
    from playtest.interop.openspiel import register
    shape = register("then_there_was_one").shape
    play, plain = KitPlay(shape), KitPlay(shape)
    plain._runner = None
    play._select_ids = lambda table, mask, ordered=False: None      # every selection refused
    rng = random.Random(5)
    for _ in range(300):
        who = play.current()
        if who < 0:
            if who == -4:
                break
            code = _sample(play.chance_outcomes(), rng.random())
        else:
            assert play.legal_ids(who) == plain.legal_ids(who)
            code = rng.choice(play.legal_ids(who))
        play.step(who, code)
        plain.step(who, code)
    game = playtest.load("tic_tac_toe")
    enc = ActionEncoding(game, [game.action_types[0](i) for i in range(4)], spare=4)   # cells 0-3 met only
    table = tuple(game.action_types[0](i) for i in range(9))
    assert enc.select_ids(table, 0b1111, True) == [0, 1, 2, 3]
    assert enc.select_ids(table, 0b110000) is None          # cells 4 and 5 would take spare ids
    assert enc.ids([table[5], table[4]]) == [4, 5]          # ... in the order a listing meets them
    assert enc.select_ids(table, 0b110000, True) == [4, 5]  # (known from then on)


def test_a_table_may_grow():
    game = playtest.load("tic_tac_toe")
    enc = ActionEncoding.for_game(game)
    table = [game.action_types[0](i) for i in range(3)]
    assert enc.select_ids(table, 0b111, True) == [0, 1, 2]
    table += [game.action_types[0](i) for i in range(3, 9)]
    assert enc.select_ids(table, 0b111000111, True) == [0, 1, 2, 6, 7, 8]


def test_a_subclass_that_changes_the_listing_is_listed_as_usual():
    pytest.importorskip("pyspiel", reason="open_spiel is not installed (the interop extra)")
    from playtest.games.then_there_was_one import ThenThereWasOne
    from playtest.interop.core import KitShape

    class NoBuying(ThenThereWasOne):
        name = "then_there_was_one_no_buying"

        def legal_actions(self, state, seat=None):
            return [a for a in super().legal_actions(state, seat) if a.kind != "buy"]

    assert KitShape.of(NoBuying(), explore_games=2).runner() is None
    assert KitShape.of(playtest.load("then_there_was_one")).runner() is not None


class _DropsOne(playtest.games.then_there_was_one.rules.ThenThereWasOne):
    """Runs that leave out one legal action (the lowest of the first non-empty run)."""

    def legal_runs(self, state):
        runs = super().legal_runs(state)
        if runs is None:
            return None
        for k, (table, mask) in enumerate(runs):
            if mask:
                return runs[:k] + [(table, mask & (mask - 1))] + runs[k + 1:]
        return runs


class _MixesKinds(playtest.games.eat_thyself.rules.EatThyself):
    """Runs whose one table holds two kinds of action: the move listing and an end of turn."""

    def legal_runs(self, state):
        runs = super().legal_runs(state)
        if not runs:
            return runs
        (table, mask), = runs
        return [(table + (playtest.EndTurn(),), mask | 1 << len(table))]


@pytest.mark.parametrize("broken, words", [(_DropsOne, "legal_runs selects"), (_MixesKinds, "mixes kinds")])
def test_check_game_holds_runs_to_the_listing(broken, words):
    """check_game's "runs" property: a game whose runs the adapter would number wrong is named, with
    what its runs select beside what it lists (the five games' runs pass: tests/test_check_game.py)."""
    report = playtest.check_game(broken(), examples=2, seed=5)
    failures = [f for f in report.failures if f.property == "runs"]
    assert failures and words in failures[0].message, report
    assert report.checked["runs"] >= 1
