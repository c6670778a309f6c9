"""A game lists a seat's complete orders itself (``Game.all_orders``, issue 24 "Speed"): Secret
Bid's listing is the kit's search's, order for order, wherever it gives one; the adapter offers
it instead of searching and numbers and plays exactly as with the search (the same OpenSpiel
ids, names and games); a listing that differs from the search is named by ``check_game``'s
"orders" property and refused by the adapter's exploration, naming the position.
The OpenSpiel part is skipped, with the reason, where ``open_spiel`` is not installed.
"""

from __future__ import annotations

import random

import pytest

import playtest
from playtest.examples.secret_bid import Bid, SecretBid, Stake, Submit
from playtest.interop.core import KitPlay, KitShape
from playtest.interop.orders import complete_orders, game_orders, listing_differs


class SearchedBid(SecretBid):
    """Secret Bid that leaves its orders to the search (the kernel's default)."""
    name = "secret_bid_searched"

    def all_orders(self, state, seat):
        return None


class ReversedBid(SecretBid):
    """A listing with the search's orders in another order."""
    name = "secret_bid_reversed"

    def all_orders(self, state, seat):
        listed = super().all_orders(state, seat)
        return None if listed is None else listed[::-1]


class ShortBid(SecretBid):
    """A listing that leaves out the staked orders."""
    name = "secret_bid_short"

    def all_orders(self, state, seat):
        listed = super().all_orders(state, seat)
        return None if listed is None else [order for order in listed if len(order) == 2]


class OverBid(SecretBid):
    """A listing with an order the rules refuse (a bid past max_bid)."""
    name = "secret_bid_over"

    def all_orders(self, state, seat):
        listed = super().all_orders(state, seat)
        return None if listed is None else listed + [(Bid(seat, 9), Submit(seat))]


class EarlyBid(SecretBid):
    """A listing whose order goes on after the part that completed it (submits, then a stake)."""
    name = "secret_bid_early"

    def all_orders(self, state, seat):
        listed = super().all_orders(state, seat)
        return None if listed is None else [(Bid(seat, 0), Submit(seat), Stake(seat, True))] + listed[1:]


PARAMS = [{}, {"num_players": 3, "coins": 2}, {"num_players": 4, "max_bid": 0}, {"max_bid": 5, "coins": 4}]


def _simultaneous_positions(game, games=6, seed=1):
    """The positions at the simultaneous steps of random games played part by part."""
    rng = random.Random(seed)
    for _ in range(games):
        state = game.initial_state()
        while (mover := game.to_move(state)) is not None:
            if mover == playtest.CHANCE:
                state = game.apply(state, game.chance_outcome(state, rng))
                continue
            yield state
            state = game.apply(state, rng.choice(game.legal_actions(state)))


@pytest.mark.parametrize("params", PARAMS)
def test_secret_bids_listing_is_the_searchs_wherever_it_gives_one(params):
    game = playtest.load("secret_bid", **params)
    given = fresh = 0
    for state in _simultaneous_positions(game):
        for seat in game.pending_seats(state):
            listed = game.all_orders(state, seat)
            if state.orders[seat] is None:
                fresh += 1
                assert listed == complete_orders(game, state, seat)
                assert listing_differs(game, state, seat) is None
                given += 1
            else:                       # an order begun: left to the search
                assert listed is None and game_orders(game, state, seat) is None
    assert given == fresh > 5


def test_an_order_longer_than_max_parts_is_left_to_the_search():
    game = playtest.load("secret_bid")
    state = game.state_from_json({"prize": 4, "cards": [3, 1]})
    assert len(game_orders(game, state, 0)) == 8
    assert game_orders(game, state, 0, max_parts=2) is None          # the staked orders have 3 parts
    assert complete_orders(game, state, 0, max_parts=2) == game.all_orders(state, 0)[:4]
    # registered with max_parts=2 the adapter searches (its listing is not asked there) and is not refused:
    # each seat's four orders of two parts
    short, searched = KitShape.of(game, max_parts=2), KitShape.of(SearchedBid(), max_parts=2)
    assert short.form == searched.form == "orders" and short.orders.orders == searched.orders.orders
    assert len(short.orders.orders) == 8 and KitPlay(short, state).legal_ids(0) == KitPlay(searched, state).legal_ids(0)


@pytest.mark.parametrize("params", PARAMS[:3])
def test_the_adapter_lists_and_plays_as_with_the_search(params):
    listed, searched = playtest.load("secret_bid", **params), SearchedBid(**params)
    one, two = KitShape.of(listed), KitShape.of(searched)
    assert one.form == two.form == "orders" and one.lists_orders      # (two: its listing gives None, searched)
    assert one.orders.orders == two.orders.orders and one.num_actions == two.num_actions
    rng_one, rng_two = random.Random(5), random.Random(5)
    for _ in range(15):
        a, b = KitPlay(one), KitPlay(two)
        while a.current() != -4:
            assert a.current() == b.current()
            if a.current() == -1:
                outcomes = a.chance_outcomes()
                assert outcomes == b.chance_outcomes()
                code = rng_one.choice(outcomes)[0]
                assert rng_two.choice(b.chance_outcomes())[0] == code
                a.step(-1, code)
                b.step(-1, code)
                continue
            seats = range(one.num_players)
            ids = [a.legal_ids(s) for s in seats]
            assert ids == [b.legal_ids(s) for s in seats]
            joint = [rng_one.choice(i) for i in ids]
            assert joint == [rng_two.choice(i) for i in ids]
            a.step_joint(joint)
            b.step_joint(joint)
            assert a.state == b.state
        assert a.ids == b.ids and a.returns() == b.returns()
        assert a.log(0) == b.log(0) and a.log(None) == b.log(None)


@pytest.mark.parametrize("bad, words", [
    (ReversedBid, "is the search's order 7"),
    (ShortBid, "all_orders lists 4 orders, the search 8"),
    (OverBid, "part 0 (bid 0 9) the rules refuse"),
    (EarlyBid, "complete the seat's order before its last part"),
])
def test_a_listing_other_than_the_searchs_is_named_by_check_game(bad, words):
    report = playtest.check_game(bad(), examples=4, seed=1)
    failures = [f for f in report.failures if f.property == "orders"]
    assert len(failures) == 1 and words in failures[0].message, report
    assert failures[0].seat == 0 and failures[0].history           # the seat, and how the position was reached
    assert playtest.check_game("secret_bid", examples=4, seed=1).checked["orders"] > 10


@pytest.mark.parametrize("bad", [ReversedBid, ShortBid, OverBid, EarlyBid])
def test_a_listing_other_than_the_searchs_is_refused_by_the_adapter(bad):
    with pytest.raises(ValueError, match=r"^secret_bid_\w+: the game's listing of seat 0's complete orders "
                                         r"differs from the search's at the position \{"):
        KitShape.of(bad())


def test_the_openspiel_game_is_numbered_and_played_as_with_the_search():
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is in the interop extra (CPython 3.11+)")
    from playtest.interop.openspiel import register
    listed, searched = register("secret_bid"), register(SearchedBid())
    assert listed.num_distinct_actions() == searched.num_distinct_actions()
    for seed in range(4):
        rng = random.Random(seed)
        a, b = listed.new_initial_state(), searched.new_initial_state()
        while not a.is_terminal():
            if a.is_chance_node():
                code = rng.choice(a.chance_outcomes())[0]
                a.apply_action(code)
                b.apply_action(code)
                continue
            ids = [a.legal_actions(p) for p in range(2)]
            assert ids == [b.legal_actions(p) for p in range(2)]
            assert ([a.action_to_string(p, i) for p in range(2) for i in ids[p]]
                    == [b.action_to_string(p, i) for p in range(2) for i in ids[p]])
            joint = [rng.choice(i) for i in ids]
            a.apply_actions(joint)
            b.apply_actions(joint)
        assert b.is_terminal() and a.history() == b.history() and a.returns() == b.returns()
        assert a.information_state_string(1) == b.information_state_string(1)
    pyspiel.random_sim_test(listed, num_sims=5, serialize=True, verbose=False)
