"""Complete orders of a simultaneous step built part by part, listed so that a numbering library
can offer them at one simultaneous node (issue 24: OpenSpiel's simultaneous node over complete
orders when they can be listed).

A kit game may build a seat's order part by part (Secret Bid: a bid, whether to stake the card,
then submit; parts may be changed or cleared before submitting). A *complete order* is a
sequence of one seat's parts, from the position where the step begins, whose last part
completes the seat's order (the seat is no longer pending, or the step ends). Two sequences
that leave the same position are the same order; the one listed is the first met in a
breadth-first search over the seat's legal parts (fewest parts, then the game's listing
order), so Secret Bid's seat has 8 orders (bids 0-3, staked or not) however they are built.

The orders can be listed when, at every simultaneous step met in seeded random games
(:func:`explore_orders`),

* each pending seat's search stays within :data:`MAX_ORDER_STEPS` applied parts and
  ``max_parts`` parts an order (positions must be hashable, to know one met before);
* the product over the pending seats of their numbers of orders is at most
  :data:`MAX_JOINT_ORDERS` (the joint actions a simultaneous node offers);
* the seats' orders do not interfere: given one seat after another in seat order, every part
  is still legal and completes its order exactly at its last part.

A game may list a seat's complete orders itself (:meth:`playtest.Game.all_orders`, optional):
the search costs Secret Bid's adapter four fifths of its steps, the game's listing a few list
items. Its listing must be the search's, order for order (:func:`listing_differs`): the
exploration compares them at every simultaneous step it meets and refuses the game, naming the
position, where they differ (``check_game``'s "orders" property does the same for an author),
and the adapter then asks the game (:func:`game_orders`) instead of searching.

Otherwise the adapter keeps the sequential-with-hidden-orders form (see
:mod:`playtest.interop.core`). Orders are numbered by :class:`OrderTable`: those met in the
exploration sorted by their parts' stable ids (the same numbers in every run for the same
parameters), then spare ids for orders met later (stable within a process).

>>> import playtest
>>> game = playtest.load("secret_bid")
>>> state = game.state_from_json({"prize": 4, "cards": [3, 1]})
>>> orders = complete_orders(game, state, 0)
>>> len(orders), [str(a) for a in orders[-1]]
(8, ['bid 0 3', 'stake 0 yes', 'submit 0'])
"""

from __future__ import annotations

import json
import random
from typing import Any

from ..kernel import CHANCE, SIMULTANEOUS, Game, UncountedChance
from ..kernel.encoding import ActionEncoding
from ..kernel.game import _overrides
from ..kernel.outcome import draw_outcome

__all__ = ["MAX_JOINT_ORDERS", "MAX_ORDER_STEPS", "complete_orders", "explore_orders", "OrderTable",
           "completing_kinds", "game_orders", "listing_differs"]

#: the most joint orders (the product over the pending seats of each one's complete orders) a
#: simultaneous step may offer for the game to be a simultaneous node over complete orders
MAX_JOINT_ORDERS = 4096
#: the most parts one seat's search for its complete orders may apply (per position)
MAX_ORDER_STEPS = 2048

Order = tuple[Any, ...]


def order_done(game: Game, before: Any, after: Any, seat: int) -> bool:
    """Whether the part that led from ``before`` to ``after`` completed ``seat``'s order: the
    simultaneous step is over, the seat is no longer pending, or the pending seats changed (the
    last order in resolves the round, and the next round may have every seat pending again)."""
    if game.to_move(after) != SIMULTANEOUS:
        return True
    pending = game.pending_seats(after)
    return seat not in pending or pending != game.pending_seats(before)


def complete_orders(game: Game, state: Any, seat: int, max_parts: int = 12,
                    limit: int = MAX_ORDER_STEPS) -> list[Order] | None:
    """``seat``'s complete orders from ``state`` (see the module docstring), or ``None`` when
    the search passes ``limit`` applied parts or meets an unhashable position."""
    frontier: list[tuple[Any, Order]] = [(state, ())]
    try:
        seen = {state}
    except TypeError:
        return None
    done: set[Any] = set()
    orders: list[Order] = []
    applied = 0
    legal, apply = game.legal_actions, game.apply
    while frontier:
        deeper: list[tuple[Any, Order]] = []
        for here, path in frontier:
            for action in legal(here, seat):
                applied += 1
                if applied > limit:
                    return None
                after = apply(here, action, check=False)
                order = path + (action,)
                try:
                    if order_done(game, here, after, seat):
                        if after not in done:
                            done.add(after)
                            orders.append(order)
                    elif len(order) < max_parts and after not in seen:
                        seen.add(after)
                        deeper.append((after, order))
                except TypeError:
                    return None
        frontier = deeper
    return orders


def game_orders(game: Game, state: Any, seat: int, max_parts: int = 12) -> list[Order] | None:
    """``seat``'s complete orders from ``state`` as the game lists them
    (:meth:`playtest.Game.all_orders`), or ``None`` where it does not (or gives an order longer
    than ``max_parts`` parts, which the search would not list): then search
    (:func:`complete_orders`)."""
    listed = game.all_orders(state, seat)
    if listed is None or any(len(order) > max_parts for order in listed):
        return None
    return [tuple(order) for order in listed]


def listing_differs(game: Game, state: Any, seat: int, max_parts: int = 12,
                    searched: list[Order] | None = None) -> str | None:
    """How the game's own listing of ``seat``'s complete orders at ``state``
    (:meth:`playtest.Game.all_orders`) differs from the search's (:func:`complete_orders`, or
    ``searched`` when already made), in words naming the first difference; ``None`` when they
    agree, or the game does not list them here, or lists an order longer than ``max_parts`` parts
    (then the adapter searches, see :func:`game_orders`), or the search cannot list them (past its
    bound: the adapter then keeps the sequential-with-hidden-orders form and asks for no listing).

    >>> import playtest
    >>> game = playtest.load("secret_bid")
    >>> listing_differs(game, game.state_from_json({"prize": 4, "cards": [3, 1]}), 1) is None
    True
    """
    try:
        listed = game_orders(game, state, seat, max_parts)
    except TypeError:
        return (f"all_orders gives something that is not a list of orders (tuples of actions): "
                f"{str(game.all_orders(state, seat))[:120]}")
    if listed is None:
        return None
    if searched is None:
        searched = complete_orders(game, state, seat, max_parts)
    if searched is None:      # too many to list: the adapter keeps the sequential form there, and asks no listing
        return None
    if listed == searched:
        return None
    for i, (mine, found) in enumerate(zip(listed, searched)):
        if mine != found:
            where = "is not one of the search's" if mine not in searched else f"is the search's order {searched.index(mine)}"
            return (f"all_orders gives as order {i} ({', '.join(map(str, mine))[:160]}), which {where}; "
                    f"the search's order {i} is ({', '.join(map(str, found))[:160]})")
    longer, which = (listed, "all_orders") if len(listed) > len(searched) else (searched, "the search")
    return (f"all_orders lists {len(listed)} orders, the search {len(searched)}: {which}'s order {min(len(listed), len(searched))} "
            f"({', '.join(map(str, longer[min(len(listed), len(searched))]))[:160]}) is not in the other")


class OrderTable:
    """Complete orders numbered ``0..capacity-1`` (see the module docstring).

    >>> import playtest
    >>> from playtest.interop.core import KitShape
    >>> table = KitShape.of(playtest.load("secret_bid")).orders
    >>> table.size, [str(a) for a in table.decode(0)]
    (16, ['bid 0 0', 'stake 0 yes', 'submit 0'])
    >>> table.encode(table.decode(5))
    5
    """

    def __init__(self, encoding: ActionEncoding, met: set[Order]):
        self.game_name = encoding.game_name
        self.orders: list[Order] = sorted(met, key=lambda order: tuple(encoding.encode(a) for a in order))
        self.size = len(self.orders)
        self.capacity = self.size + max(16, self.size // 4)
        self.index = {order: i for i, order in enumerate(self.orders)}

    def encode(self, order: Order) -> int:
        """The id of ``order``; one met for the first time takes the next spare id."""
        code = self.index.get(order)
        if code is None:
            if len(self.orders) >= self.capacity:
                raise ValueError(f"{self.game_name}: the order {', '.join(map(str, order))[:120]!r} has no id: "
                                 f"the {self.capacity - self.size} spare order ids are used up "
                                 "(explore more games)")
            code = self.index[order] = len(self.orders)
            self.orders.append(order)
        return code

    def decode(self, code: int) -> Order:
        """The order numbered ``code`` (``ValueError`` for a number no order has)."""
        if not 0 <= code < len(self.orders):
            raise ValueError(f"{self.game_name}: no order has the id {code}")
        return self.orders[code]


def explore_orders(game: Game, encoding: ActionEncoding, games: int = 20, seed: int = 0, max_parts: int = 12,
                   max_steps: int = 20_000) -> tuple[OrderTable, int] | None:
    """Play ``games`` seeded random games giving complete orders at the simultaneous steps:
    ``(the table of the orders met, the longest game in steps)``, or ``None`` when the orders
    cannot be listed (see the module docstring). A game that lists its orders itself
    (:meth:`playtest.Game.all_orders`) and lists them otherwise than the search does at a step
    met is refused (``ValueError`` naming the position and the first difference)."""
    rng = random.Random(seed)
    met: set[Order] = set()
    longest = 0
    own = _overrides(type(game), "all_orders")
    for _ in range(games):
        state, steps = game.initial_state(), 0
        while steps < max_steps:
            mover = game.to_move(state)
            if mover is None:
                break
            if mover == CHANCE:
                outcomes = game.chance_outcomes(state)
                action = (outcomes.sample(rng) if isinstance(outcomes, UncountedChance)
                          else draw_outcome(outcomes, rng))
                state = game.apply(state, action, check=False)
            elif mover == SIMULTANEOUS:
                pending = game.pending_seats(state)
                if not pending:
                    return None
                listed: dict[int, list[Order]] = {}
                joint = 1
                for seat in pending:
                    orders = complete_orders(game, state, seat, max_parts)
                    differs = listing_differs(game, state, seat, max_parts, orders) if own and orders else None
                    if differs is not None:
                        raise ValueError(f"{game.name}: the game's listing of seat {seat}'s complete orders "
                                         f"differs from the search's at {_position(game, state)}: {differs}")
                    if not orders:
                        return None
                    joint *= len(orders)
                    if joint > MAX_JOINT_ORDERS:
                        return None
                    listed[seat] = orders
                for seat in pending:
                    order = rng.choice(listed[seat])
                    met.add(order)
                    for i, action in enumerate(order):
                        if game.check(state, action, seat) is not None:
                            return None             # an earlier seat's order changed what this one may do
                        state, before = game.apply(state, action, check=False), state
                        if order_done(game, before, state, seat) != (i == len(order) - 1):
                            return None
            else:
                state = game.apply(state, rng.choice(game.legal_actions(state)), check=False)
            steps += 1
        longest = max(longest, steps)
    return OrderTable(encoding, met), longest


def _position(game: Game, state: Any) -> str:
    """A position in words for a message: its JSON form (shortened) where it has one."""
    try:
        return "the position " + json.dumps(state.to_json(), separators=(",", ":"), default=str)[:300]
    except Exception:
        return f"the position {str(state)[:300]}"


def completing_kinds(game: Game, games: int = 3, positions: int = 6, seed: int = 0,
                     max_steps: int = 2_000) -> frozenset[str]:
    """The kinds of the actions that complete a seat's order (Secret Bid's and Back to the Wall's
    ``submit``), found by trying every part of the first pending seat at the first ``positions``
    simultaneous steps of ``games`` seeded random games (parts chosen at random in between).

    The sequential-with-hidden-orders form offers a seat that has given ``max_parts`` parts only
    its actions of these kinds that complete its order: trying those few instead of every part
    keeps that step as cheap as the others.

    >>> import playtest
    >>> sorted(completing_kinds(playtest.load("secret_bid")))
    ['submit']
    """
    rng = random.Random(seed)
    kinds: set[str] = set()
    for _ in range(games):
        state, met = game.initial_state(), 0
        for _ in range(max_steps):
            mover = game.to_move(state)
            if mover is None or met >= positions:
                break
            if mover == CHANCE:
                outcomes = game.chance_outcomes(state)
                action = (outcomes.sample(rng) if isinstance(outcomes, UncountedChance)
                          else draw_outcome(outcomes, rng))
            elif mover == SIMULTANEOUS:
                pending = game.pending_seats(state)
                seat = pending[0] if pending else 0
                listed = game.legal_actions(state, seat)
                if not listed:
                    break
                met += 1
                for part in listed:
                    if order_done(game, state, game.apply(state, part, check=False), seat):
                        kinds.add(getattr(part, "kind", type(part).__name__))
                action = rng.choice(listed)
            else:
                action = rng.choice(game.legal_actions(state))
            state = game.apply(state, action, check=False)
    return frozenset(kinds)
