"""Secret Bid: the worked example of the game protocol (``docs/adding_a_game.md``).

A small game that uses every part of the core a real game may need, so the
core is tested on its own, independently of any shipped game:

* **chance with a distribution**: a die sets each round's prize (1/6 each), and
  every seat is dealt a face-down card from a small deck, drawn without
  replacement (the probabilities change as cards leave the deck);
* **hidden information**: a dealt card is known only to its seat until the
  round is resolved; orders are secret until everyone has submitted;
* **simultaneous orders built part by part**: every seat sets a bid and
  whether it stakes its card, can clear the parts, submits, and may withdraw a
  submitted order while another seat still has to submit;
* **frames**: the resolution reveals the orders one seat at a time, then the
  result, and the table plays those scenes back with a slider.

Rules
-----
Each of ``rounds`` rounds: a die is rolled for the prize; each seat is dealt a
card from ``deck``; then every seat secretly bids coins (at most ``max_bid``
and at most what it has) and says whether it stakes its card. When all have
submitted, every seat pays its bid (all-pay); a seat's total is its bid plus
its card when staked; the single highest total wins the prize in points (a tie
wins nothing). After the last round the most points wins; equal points draw.

Position JSON
-------------
The state is declared (:class:`BidState`): ``state.to_json()`` gives, and ``game.state_from_json``
reads (a field left out takes its value at the start of the game)::

    {"round": 1, "prize": 4, "cards": [3, null], "coins": [5, 5], "points": [0, 0],
     "orders": [{"bid": 2, "stake": true, "submitted": false}, null], "last": null}

``null`` for the prize or a card means it is still to be drawn; ``null`` for
an order means nothing is set yet.

>>> import playtest
>>> from playtest.examples.secret_bid import SecretBid
>>> game = SecretBid()
>>> session = playtest.Session(game, seed=3)      # the die and the deal are drawn at once
>>> session.to_move == playtest.SIMULTANEOUS
True
>>> session.play({"kind": "bid", "seat": 0, "amount": 2}, seat=0)
>>> session.history(viewer=1)[-1]["notation"]     # South cannot see North's order
'North changes their order'
>>> session.history(viewer=0)[-1]["notation"]
'North bids 2'
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..kernel import (CHANCE, SIMULTANEOUS, Action, Game, GameType, Outcome, Params, Refusal, State, field,
                      param, per_seat, register)
from ..scene import Scene, cell_id

__all__ = ["SecretBid", "SecretBidParams", "BidState", "Order", "Result", "Roll", "Deal", "Bid", "Stake",
           "Clear", "Submit", "Withdraw"]

SEAT_NAMES = {2: ("North", "South"), 3: ("North", "East", "South"), 4: ("North", "East", "South", "West")}


# --------------------------------------------------------------------------- parameters

@dataclass(frozen=True)
class SecretBidParams(Params):
    """Rule parameters of Secret Bid."""

    num_players: int = param(2, "number of seats", live=False, min=2, max=4, rule="SB1")
    rounds: int = param(2, "rounds in a game", live=False, min=1, max=9, rule="SB1")
    coins: int = param(5, "coins each seat starts with", live=False, min=0, max=20, rule="SB1")
    max_bid: int = param(3, "highest bid in one round", min=0, max=9, rule="SB3")
    die_faces: int = param(6, "faces of the prize die (prizes 1 to die_faces)", min=1, max=12, rule="SB2")
    deck: tuple = param((1, 1, 2, 2, 3, 3), "the card values dealt from each round (one per seat)",
                        live=False, rule="SB2")

    def check(self) -> None:
        if len(self.deck) < self.num_players or any(
                type(v) is not int or not 0 <= v <= 99 for v in self.deck):
            raise ValueError(f"secret_bid parameter deck={list(self.deck)} must hold at least num_players="
                             f"{self.num_players} cards, each a whole number from 0 to 99")


# --------------------------------------------------------------------------- actions: a line or two each

class Roll(Action):
    """Chance: the die sets this round's prize."""
    notation = "prize {prize}"
    prize: int


class Deal(Action):
    """Chance: ``seat`` is dealt a face-down card of value ``card``."""
    notation = "deal {card} to seat {seat}"
    seat: int
    card: int


class Bid(Action):
    """A part of ``seat``'s order: bid ``amount`` coins."""
    seat: int
    amount: int


class Stake(Action):
    """A part of ``seat``'s order: add the face-down card to the bid (or not)."""
    seat: int
    on: bool


class Clear(Action):
    """Withdraw the parts of ``seat``'s order set so far (before submitting)."""
    seat: int


class Submit(Action):
    """``seat`` submits its order; the last submission resolves the round."""
    seat: int


class Withdraw(Action):
    """``seat`` takes back its submitted order while another seat still has to submit."""
    seat: int


# --------------------------------------------------------------------------- state: declared once

class Order(State):
    """One seat's order: its parts, and whether it is submitted."""
    bid: int | None = field(default=None, min=0, max=99)
    stake: bool = False
    submitted: bool = False


class Result(State):
    """The last resolution, public: per seat ``[bid, stake, card, total]``, and the winner."""
    orders: tuple[tuple[int, bool, int, int], ...] = ()
    winner: int | None = field(default=None, min=0, max=3)


class BidState(State):
    """A position: ``None`` marks what chance has still to draw (the prize, a card); a seat's card
    and order are its own until the round is resolved."""
    round: int = field(default=1, min=1, max=10)
    prize: int | None = field(default=None, min=1, max=12)
    cards: tuple[int | None, ...] = field(default=(None, None), visible="owner", min=0, max=99, length="seats")
    coins: tuple[int, ...] = field(default=(5, 5), min=0, max=10_000, length="seats")
    points: tuple[int, ...] = field(default=(0, 0), min=0, max=10_000, length="seats")
    orders: tuple[Order | None, ...] = field(default=(None, None), visible="owner", length="seats")
    last: Result | None = None
    over: bool = False


# --------------------------------------------------------------------------- the game

@register(listed=False)
class SecretBid(Game[SecretBidParams, BidState, Action]):
    """A die sets a prize; every seat is dealt a secret card and bids for the prize at once."""

    name = "secret_bid"
    title = "Secret Bid"
    credit = "the worked example of playtest's game protocol"
    Params = SecretBidParams
    state_type = BidState
    action_types = (Roll, Deal, Bid, Stake, Clear, Submit, Withdraw)
    game_type = GameType(dynamics="simultaneous", chance=True, information="imperfect")
    end_rule = "SB4"
    seat_names = SEAT_NAMES          # by num_players; colours and shapes are the kernel's
    candidates_are_legal = True      # candidates() lists what why_not allows, read off the same order

    def _name(self, seat: int) -> str:
        return SEAT_NAMES[self.params.num_players][seat]

    def initial_state(self) -> BidState:
        n = self.params.num_players
        return BidState(cards=(None,) * n, coins=(self.params.coins,) * n, points=(0,) * n, orders=(None,) * n)

    # ---- whose turn
    def to_move(self, state: BidState) -> int | None:
        if state.over:
            return None
        if state.prize is None or None in state.cards:
            return CHANCE
        return SIMULTANEOUS

    def pending_seats(self, state: BidState) -> tuple[int, ...]:
        if self.to_move(state) != SIMULTANEOUS:
            return ()
        return tuple(s for s, o in enumerate(state.orders) if o is None or not o.submitted)

    def outcome(self, state: BidState) -> Outcome | None:
        if not state.over:
            return None
        best = max(state.points)
        leaders = tuple(s for s, p in enumerate(state.points) if p == best)
        if len(leaders) > 1:
            return Outcome((), "equal points", scores=tuple(state.points))
        return Outcome(leaders, f"{self._name(leaders[0])} has the most points", scores=tuple(state.points))

    def running_scores(self, state: BidState) -> tuple[int, ...]:
        """The points won so far: the most points wins at the end, so they are who is ahead.

        >>> SecretBid().running_scores(SecretBid().state_from_json({"round": 2, "points": [4, 1]}))
        (4, 1)
        """
        return tuple(state.points)

    # ---- chance
    def _deck_left(self, state: BidState) -> list[int]:
        deck = list(self.params.deck)
        for card in state.cards:
            if card is not None:
                deck.remove(card)
        return deck

    def chance_outcomes(self, state: BidState) -> list[tuple[Action, float]]:
        """The die (each face 1/die_faces), then one card per seat drawn from what is left of the deck.

        >>> game = SecretBid()
        >>> rolled = game.apply(game.initial_state(), Roll(4))
        >>> game.chance_outcomes(rolled)
        [(Deal(seat=0, card=1), 0.3333333333333333), (Deal(seat=0, card=2), 0.3333333333333333), (Deal(seat=0, card=3), 0.3333333333333333)]
        >>> game.chance_outcomes(game.apply(rolled, Deal(0, 1)))[0]     # one 1 is gone
        (Deal(seat=1, card=1), 0.2)
        """
        if state.prize is None:
            faces = self.params.die_faces
            return [(Roll(p), 1 / faces) for p in range(1, faces + 1)]
        seat = state.cards.index(None)
        left = self._deck_left(state)
        return [(Deal(seat, v), left.count(v) / len(left)) for v in sorted(set(left))]

    # ---- legality: candidates, one decision (why_not) and the effect; the kernel writes the rest
    def candidates(self, state: BidState, seat: int) -> list[Action]:
        """A seat's order actions (rule SB3), exactly the legal ones."""
        order = state.orders[seat] or Order()
        if order.submitted:
            others_pending = any(o is None or not o.submitted for s, o in enumerate(state.orders) if s != seat)
            return [Withdraw(seat)] if others_pending else []
        top = min(self.params.max_bid, state.coins[seat])
        actions: list[Action] = [Bid(seat, a) for a in range(top + 1) if a != order.bid]
        actions.append(Stake(seat, not order.stake))
        if state.orders[seat] is not None:
            actions.append(Clear(seat))
        if order.bid is not None:
            actions.append(Submit(seat))
        return actions

    def all_orders(self, state: BidState, seat: int) -> list[tuple[Action, ...]] | None:
        """A seat's complete orders at the start of its order (nothing set yet), for the OpenSpiel
        adapter: each bid then submit, then each bid, stake, submit (the search's order: fewest
        parts first). ``None`` elsewhere: the kit's search lists them.

        >>> game = SecretBid()
        >>> orders = game.all_orders(game.state_from_json({"prize": 4, "cards": [3, 1]}), 0)
        >>> len(orders), orders[-1]
        (8, (Bid(seat=0, amount=3), Stake(seat=0, on=True), Submit(seat=0)))
        """
        if state.orders[seat] is not None or self.to_move(state) != SIMULTANEOUS:
            return None
        bids = [Bid(seat, a) for a in range(min(self.params.max_bid, state.coins[seat]) + 1)]
        submit, stake = Submit(seat), Stake(seat, True)
        return [(bid, submit) for bid in bids] + [(bid, stake, submit) for bid in bids]

    def why_not(self, state: BidState, action: Action, seat: int) -> Refusal | None:
        """Why ``seat`` may not give ``action`` now (rules SB1-SB3), or ``None``.

        >>> game = SecretBid()
        >>> state = game.state_from_json({"prize": 4, "cards": [3, 1]})
        >>> game.why_not(state, Bid(0, 7), 0)
        Refusal(text='North may bid from 0 to 3 (max_bid 3, 5 coins)', rule='SB3')
        """
        if isinstance(action, (Roll, Deal)):
            return Refusal("the die and the deal are chance steps, done before the orders", "SB2")
        if not 0 <= seat < self.params.num_players:
            return Refusal(f"there is no seat {seat}", "SB1")
        order = state.orders[seat] or Order()
        name = self._name(seat)
        if isinstance(action, Withdraw):
            if not order.submitted:
                return Refusal(f"{name} has no submitted order to withdraw", "SB3")
            if all(o is not None and o.submitted for o in state.orders):
                return Refusal("every seat has submitted: the round is resolved", "SB3")
            return None
        if order.submitted:
            return Refusal(f"{name} has already submitted; withdraw the order to change it", "SB3")
        match action:
            case Bid(_, amount) if not 0 <= amount <= min(self.params.max_bid, state.coins[seat]):
                return Refusal(f"{name} may bid from 0 to {min(self.params.max_bid, state.coins[seat])} "
                               f"(max_bid {self.params.max_bid}, {state.coins[seat]} coins)", "SB3")
            case Submit() if order.bid is None:
                return Refusal(f"{name} must choose a bid before submitting", "SB3")
            case Clear() if state.orders[seat] is None:
                return Refusal(f"{name}'s order has nothing to clear", "SB3")
            case Bid(_, amount) if amount == order.bid:
                return Refusal(f"{name}'s order already says that", "SB3")
            case Stake(_, on) if on == order.stake:
                return Refusal(f"{name}'s order already says that", "SB3")
        return None

    def effect(self, state: BidState, action: Action) -> BidState:
        match action:
            case Roll(prize):
                return state.replace(prize=prize)
            case Deal(seat, card):
                return state.replace(cards=per_seat(state.cards, seat, card))
            case Clear(seat):
                return state.replace(orders=per_seat(state.orders, seat, None))
        if not isinstance(action, (Bid, Stake, Submit, Withdraw)):
            raise ValueError(f"{action!r} is not a Secret Bid action")
        seat = action.seat
        order = state.orders[seat] or Order()
        match action:
            case Bid(_, amount):
                order = order.replace(bid=amount)
            case Stake(_, on):
                order = order.replace(stake=on)
            case Withdraw():
                order = order.replace(submitted=False)
            case Submit():
                order = order.replace(submitted=True)
        state = state.replace(orders=per_seat(state.orders, seat, order))
        if isinstance(action, Submit) and not self.pending_seats(state):
            return self._resolve(state)
        return state

    def _resolve(self, state: BidState) -> BidState:
        """Everyone has submitted: all pay, the single highest total wins the prize (rule SB4)."""
        prize = state.prize
        if prize is None:
            raise ValueError("a round is resolved once its prize is rolled (rule SB4)")
        rows: list[tuple[int, bool, int, int]] = []
        for seat, (o, card) in enumerate(zip(state.orders, state.cards)):
            if o is None or o.bid is None or card is None:
                raise ValueError(f"a round is resolved once every seat has a card and a bid; "
                                 f"seat {seat} has not (rule SB4)")
            rows.append((o.bid, o.stake, card, o.bid + (card if o.stake else 0)))
        best = max(r[3] for r in rows)
        leaders = [s for s, r in enumerate(rows) if r[3] == best]
        winner = leaders[0] if len(leaders) == 1 else None
        coins = tuple(c - r[0] for c, r in zip(state.coins, rows))
        points = tuple(p + (prize if s == winner else 0) for s, p in enumerate(state.points))
        n = self.params.num_players
        return BidState(round=state.round + 1, prize=None, cards=(None,) * n, coins=coins, points=points,
                        orders=(None,) * n, last=Result(tuple(rows), winner), over=state.round >= self.params.rounds)

    # ---- what each seat may know
    def determinize(self, state: BidState, seat: int | None, rng: random.Random) -> BidState:
        """Redraw the other seats' face-down cards from what the deck may still hold (the declared
        default would only shuffle the dealt cards) and their orders (a submitted order stays
        submitted); ``seat``'s own card and order stay."""
        cards = list(state.cards)
        left = list(self.params.deck)
        if seat is not None and cards[seat] is not None:
            left.remove(cards[seat])
        rng.shuffle(left)
        orders = list(state.orders)
        for s in range(self.params.num_players):
            if s == seat:
                continue
            if cards[s] is not None:
                cards[s] = left.pop()
            order = orders[s]
            if order is not None:
                top = min(self.params.max_bid, state.coins[s])
                orders[s] = Order(rng.randint(0, top), rng.random() < 0.5, True) if order.submitted else None
        return state.replace(cards=tuple(cards), orders=tuple(orders))

    def notation(self, state: BidState, action: Action, viewer: int | None = None) -> str:
        """The move log's words, as ``viewer`` may read them (secrets are written only for their seat).

        >>> game = SecretBid()
        >>> state = game.apply(game.initial_state(), Roll(4))
        >>> game.notation(state, Deal(0, 3), viewer=0), game.notation(state, Deal(0, 3), viewer=1)
        ('North is dealt a 3', 'North is dealt a card')
        """
        if isinstance(action, Roll):
            return f"the die shows {action.prize}: round {state.round} is for {action.prize} points"
        if not isinstance(action, (Deal, Bid, Stake, Clear, Submit, Withdraw)):
            raise ValueError(f"{action!r} is not a Secret Bid action")
        name = self._name(action.seat) if 0 <= action.seat < self.params.num_players else "?"
        mine = viewer == action.seat
        if isinstance(action, Deal):
            return f"{name} is dealt a {action.card}" if mine else f"{name} is dealt a card"
        if isinstance(action, Bid):
            return f"{name} bids {action.amount}" if mine else f"{name} changes their order"
        if isinstance(action, Stake):
            return (f"{name} {'stakes' if action.on else 'keeps'} their card" if mine
                    else f"{name} changes their order")
        if isinstance(action, Clear):      # another seat's board shows nothing of it: its log says no more
            return f"{name} clears their order" if mine else f"{name} changes their order"
        if isinstance(action, Withdraw):
            return f"{name} withdraws their order"
        after = self.apply(state, action, check=False)
        if after.last is None or after.round == state.round:
            return f"{name} submitted"
        rows, winner = after.last.orders, after.last.winner    # the last submission reveals every order (rule SB4)
        shown = ", ".join(f"{self._name(s)} {_order_words(r)}" for s, r in enumerate(rows))
        result = f"{self._name(winner)} wins {state.prize}" if winner is not None else "a tie: nobody wins"
        return f"{name} submitted; revealed: {shown}; {result}"

    # ---- the scene
    def view(self, state: BidState, seat: int | None = None) -> dict[str, Any]:
        return self._scene(state, seat, revealed=()).to_json()

    def frames(self, state: BidState, action: Action, seat: int | None = None) -> list[dict[str, Any]]:
        """The last submission plays back: each seat's order revealed in turn, then the result."""
        if not isinstance(action, Submit) or self.pending_seats(state) != (action.seat,):
            return []
        full = state.replace(orders=per_seat(state.orders, action.seat,
                                             (state.orders[action.seat] or Order()).replace(submitted=True)))
        scenes = []
        for k in range(1, self.params.num_players + 1):
            scene = self._scene(full, seat, revealed=tuple(range(k)))
            scene.hint(f"Revealing the orders: {k} of {self.params.num_players}")
            scenes.append(scene.to_json())
        after = self.apply(state, action, check=False)
        result = self._scene(after, seat, revealed=())
        result.hint("The round is resolved.")
        scenes.append(result.to_json())
        return scenes

    def _scene(self, state: BidState, viewer: int | None, revealed: tuple) -> Scene:
        n = self.params.num_players
        seats = self.seats()
        s = Scene()
        s.board("orders", "grid", title=f"Round {min(state.round, self.params.rounds)}: "
                f"prize {'?' if state.prize is None else state.prize}", cols=4, rows=n, cell=58)
        for col, head in enumerate(("card", "bid", "stake", "order")):
            s.text("orders", (col + 0.5, -0.25), head, size=11)
        for who in range(n):
            order = state.orders[who]
            sees = who == viewer or who in revealed
            card = state.cards[who]
            if card is None:
                card_text = ""
            elif sees:
                card_text = str(card)
            else:
                card_text = "?"
            s.cell("orders", (0, who), fill="#fff8e6" if card_text == "?" else "#ffffff", text=card_text,
                   title=f"{seats[who].name}'s card" + (" (face down)" if card_text == "?" else ""))
            bid_text = stake_text = ""
            if order is not None and sees:
                bid_text = "–" if order.bid is None else str(order.bid)
                stake_text = "stake" if order.stake else "keep"
            s.cell("orders", (1, who), fill="#ffffff", text=bid_text)
            s.cell("orders", (2, who), fill="#ffffff", text=stake_text)
            status = "submitted" if order is not None and order.submitted else "preparing"
            if self.to_move(state) != SIMULTANEOUS:
                status = ""
            s.cell("orders", (3, who), fill="#eef6ee" if status == "submitted" else "#ffffff", text=status)
            s.piece("orders", (-0.0, who), seats[who].shape, seats[who].color, size=0.25, id=None)
        s.panel("Seats", [[seats[w].name, f"{state.coins[w]} coins", f"{state.points[w]} points"]
                          for w in range(n)])
        if state.last is not None:
            rows, winner = state.last.orders, state.last.winner
            s.panel("Last round (revealed)", [[seats[w].name, _order_words(r)] for w, r in enumerate(rows)] +
                    [["winner", seats[winner].name if winner is not None else "nobody (a tie)"]])
        mover = self.to_move(state)
        if mover is None:
            outcome = self.outcome(state)
            s.status(f"Game over: {outcome.reason if outcome else ''}")
            s.hint("The game is over.")
            return s
        if mover == CHANCE:
            s.status("Chance: " + ("the die sets the prize" if state.prize is None else "a card is dealt"))
            s.hint("Roll, or force an outcome.")
            return s
        waiting = ", ".join(seats[w].name for w in self.pending_seats(state))
        s.status(f"Orders: waiting for {waiting}")
        if viewer is None or revealed:
            s.hint("Each seat enters its order in private.")
            return s
        me = seats[viewer].name
        for action in self.candidates(state, viewer):
            if isinstance(action, Bid):
                s.move(cell_id((1, viewer)), f"bid {action.amount}", action.to_json())
            elif isinstance(action, Stake):
                s.move(cell_id((2, viewer)), "stake the card" if action.on else "keep the card", action.to_json())
            elif isinstance(action, Clear):
                s.button("Clear my order", action.to_json())
            elif isinstance(action, Submit):
                s.button("Submit my order", action.to_json())
            elif isinstance(action, Withdraw):
                s.button("Withdraw my order", action.to_json())
        for who in range(n):
            if who != viewer:
                for col in range(4):
                    s.reason(cell_id((col, who)), f"that is {seats[who].name}'s order, not {me}'s")
        order = state.orders[viewer]
        if order is not None and order.submitted:
            s.hint(f"{me}: submitted. You may withdraw it until everyone has submitted.")
        else:
            s.hint(f"{me}: click your bid, choose to stake your card or not, then submit.")
        return s

    # ---- positions: read by the declaration; what the types cannot say is checked here
    def state_from_json(self, data: Any) -> BidState:
        """A position from its JSON form (fields left out take their value at the start)."""
        if isinstance(data, dict):
            data = {**self.initial_state().to_json(), **data}
        return super().state_from_json(data)

    def check_state(self, state: BidState) -> None:
        n, p = self.params.num_players, self.params       # (the per-seat lengths are declared: length="seats")
        if not state.round <= p.rounds + 1:
            raise ValueError(f"secret_bid position: round must be a whole number from 1 to {p.rounds + 1}")
        if state.prize is not None and state.prize > p.die_faces:
            raise ValueError(f"secret_bid position: prize must be a whole number from 1 to {p.die_faces}")
        deck = list(p.deck)
        for card in state.cards:
            if card is not None:
                if card not in deck:
                    raise ValueError(f"secret_bid position: cards {list(state.cards)} are not all in the deck "
                                     f"{list(p.deck)}")
                deck.remove(card)
        if state.prize is None and any(c is not None for c in state.cards):
            raise ValueError("secret_bid position: cards are dealt only after the die is rolled")
        if any(o is not None for o in state.orders) and (state.prize is None or None in state.cards):
            raise ValueError("secret_bid position: orders are given only after the die and the deal")
        for s, o in enumerate(state.orders):
            if o is not None and o.bid is not None and o.bid > min(p.max_bid, state.coins[s]):
                raise ValueError(f"secret_bid position: orders[{s}].bid {o.bid} is more than allowed")
            if o is not None and o.submitted and o.bid is None:
                raise ValueError(f"secret_bid position: orders[{s}] is submitted without a bid")
        if all(o is not None and o.submitted for o in state.orders):
            raise ValueError("secret_bid position: when every order is submitted the round is resolved")
        if state.last is not None and (len(state.last.orders) != n or (
                state.last.winner is not None and state.last.winner >= n)):
            raise ValueError(f"secret_bid position: last.orders must hold {n} rows of [bid, stake, card, total] "
                             f"and last.winner a seat or null")


def _order_words(row: tuple[int, bool, int, int]) -> str:
    bid, stake, card, total = row
    return f"bid {bid} + card {card} = {total}" if stake else f"bid {bid} (card {card} kept) = {total}"
