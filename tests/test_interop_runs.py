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
    counted = {"move": 0, "place": 0, "take": 0, "bonus": 0}
    for state in _positions(game, 40):
        runs = game.legal_runs(state)
        listed = game.candidates(state, state.to_move)
        assert listed == game.legal_actions(state)
        if state.phase == "move" and not game.params.count_empty_tiles:
            assert runs is None
            continue
        for table, mask in runs:
            assert len({type(a) for a in select(table, mask)}) <= 1        # each table one kind
        selected = [a for table, mask in runs for a in select(table, mask)]
        if state.phase == "move":
            [(listing, mask)] = runs
            assert list(listing) == listed and mask == (1 << len(listing)) - 1
        else:        # a placement's, a take's and a bonus's: the same objects in the listing's order
            assert list(map(id, selected)) == list(map(id, listed))
        counted[state.phase] += 1
    assert counted["place"] > 200 and counted["take"] > 50 and counted["bonus"] > 5, counted
    assert counted["move"] > 300 or not game.params.count_empty_tiles


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
    play._run_memo = {}                                             # (and none remembered)
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


def test_run_ids_remembers_a_run_by_its_table_and_mask():
    """The adapter's memo of runs (KitShape.run_memo): a run met again is numbered without asking
    select_ids, runs out of id order are sorted, and a run that would take a spare id is not
    remembered (None, listed as usual)."""
    from playtest.interop.runs import _run_ids
    game = playtest.load("tic_tac_toe")
    enc = ActionEncoding.for_game(game)
    table = tuple(game.action_types[0](i) for i in range(9))
    asked = []

    def select_ids(table, mask, ordered=False):
        asked.append(mask)
        return enc.select_ids(table, mask, ordered)

    memo = {}
    assert _run_ids(memo, select_ids, [(table, 0b100010010)]) == [1, 4, 8] and asked == [0b100010010]
    assert _run_ids(memo, select_ids, [(table, 0b100010010)]) == [1, 4, 8] and len(asked) == 1
    high, low = table[5:], table[:5]                       # two runs, the higher ids first: sorted
    assert _run_ids(memo, select_ids, [(high, 0b11), (low, 0b101), (table, 0)]) == [0, 2, 5, 6]
    assert _run_ids(memo, select_ids, []) == [] and _run_ids(memo, select_ids, [(table, 0)]) == []
    spare = ActionEncoding(game, list(table[:4]), spare=4)
    kept = len(memo)
    assert _run_ids(memo, spare.select_ids, [(table, 0b110000)]) is None and len(memo) == kept


def test_a_large_tables_selection_is_sorted_through_its_id_order():
    """select_ids on a table of ID_ORDER_FROM actions or more picks a dense selection's ids through
    the table's id order: the same sorted ids as selecting and sorting, over seeded random masks of
    Then There Was One's wall tables (their ids are not in table order), a table that grows, and a
    table holding an action without an id (a selection of it answers None, as before)."""
    from playtest.games.then_there_was_one.actions import Build, Buy, Remove
    from playtest.kernel.encoding import ID_ORDER_FROM
    game = playtest.load("then_there_was_one")
    enc = ActionEncoding.for_game(game)
    rng = random.Random(9)
    checked = 0
    for cls in (Build, Remove, Buy):
        table = game._made_actions(cls)
        assert len(table) >= ID_ORDER_FROM
        known = [i for i, a in enumerate(table) if enc.kinds[enc._by_type[cls]].encode(a) is not None]
        assert [enc.encode(table[i]) for i in known] != sorted(enc.encode(table[i]) for i in known)
        for _ in range(200):
            mask = sum(1 << i for i in known if rng.random() < rng.choice((0.1, 0.5, 0.9)))
            if mask.bit_count() <= 6:
                continue
            got = enc.select_ids(table, mask, True)
            assert got == sorted(enc.encode(a) for a in select(table, mask))
            assert enc.select_ids(table, mask, True) == got          # (remembered)
            checked += 1
        stray = set(range(len(table))) - set(known)
        if stray:           # an action the encoding has no id for: None, as before
            fresh = ActionEncoding.for_game(game)
            assert fresh.select_ids(table, (1 << len(table)) - 1, True) is None
    assert checked > 300
    table = list(game._made_actions(Buy))                 # a table that grows: read again at its new length
    growing = table[:ID_ORDER_FROM]
    mask = (1 << ID_ORDER_FROM) - 1 - 0b1010
    assert enc.select_ids(growing, mask, True) == sorted(enc.encode(a) for a in select(growing, mask))
    growing += table[ID_ORDER_FROM:]
    mask |= 0b111 << ID_ORDER_FROM
    assert enc.select_ids(growing, mask, True) == sorted(enc.encode(a) for a in select(growing, mask))
