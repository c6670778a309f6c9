"""A game written against the protocol of before the declared kernel (revision b5379ed's Secret
Bid, unchanged but for its name and absolute imports): hand-written actions with ``@dataclass``
and ``kind``, a NamedTuple state with its own ``to_json``/``state_from_json``, ``why_not``
returning text, ``apply`` parsing its rule back out, and its own ``determinize``. Designers'
existing games look like this; ``tests/test_kernel.py`` checks that it still registers and plays.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from playtest.position import PositionReader
from playtest.rules import (CHANCE, SIMULTANEOUS, Action, Game, IllegalAction, Outcome, Params, Seat, param,
                     register)
from playtest.scene import Scene, cell_id

__all__ = ["SecretBid", "SecretBidParams", "BidState", "Order", "Roll", "Deal", "Bid", "Stake",
           "Clear", "Submit", "Withdraw"]

SEAT_NAMES = {2: ("North", "South"), 3: ("North", "East", "South"), 4: ("North", "East", "South", "West")}
SEAT_COLORS = ("#c0392b", "#2471a3", "#1e8449", "#b9770e")
SEAT_SHAPES = ("circle", "square", "triangle", "diamond")


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


# --------------------------------------------------------------------------- actions

@dataclass(frozen=True, slots=True)
class Roll(Action):
    """Chance: the die sets this round's prize."""

    kind: ClassVar[str] = "roll"
    prize: int

    def __str__(self) -> str:
        return f"prize {self.prize}"


@dataclass(frozen=True, slots=True)
class Deal(Action):
    """Chance: ``seat`` is dealt a face-down card of value ``card``."""

    kind: ClassVar[str] = "deal"
    seat: int
    card: int

    def __str__(self) -> str:
        return f"deal {self.card} to seat {self.seat}"


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """A part of ``seat``'s order: bid ``amount`` coins."""

    kind: ClassVar[str] = "bid"
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class Stake(Action):
    """A part of ``seat``'s order: add the face-down card to the bid (or not)."""

    kind: ClassVar[str] = "stake"
    seat: int
    on: bool


@dataclass(frozen=True, slots=True)
class Clear(Action):
    """Withdraw the parts of ``seat``'s order set so far (before submitting)."""

    kind: ClassVar[str] = "clear"
    seat: int


@dataclass(frozen=True, slots=True)
class Submit(Action):
    """``seat`` submits its order; the last submission resolves the round."""

    kind: ClassVar[str] = "submit"
    seat: int


@dataclass(frozen=True, slots=True)
class Withdraw(Action):
    """``seat`` takes back its submitted order while another seat still has to submit."""

    kind: ClassVar[str] = "withdraw"
    seat: int


# --------------------------------------------------------------------------- state

class Order(NamedTuple):
    """One seat's order: its parts, and whether it is submitted."""

    bid: int | None = None
    stake: bool = False
    submitted: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"bid": self.bid, "stake": self.stake, "submitted": self.submitted}


class BidState(NamedTuple):
    """A position: ``None`` marks what chance has still to draw (the prize, a card)."""

    round: int
    prize: int | None
    cards: tuple            # per seat: the face-down card, or None before the deal
    coins: tuple
    points: tuple
    orders: tuple           # per seat: an Order, or None when nothing is set
    last: tuple | None      # the last resolution, public: ((bid, stake, card, total), ...) and winner
    over: bool = False

    def to_json(self) -> dict[str, Any]:
        last = None
        if self.last is not None:
            rows, winner = self.last
            last = {"orders": [list(r) for r in rows], "winner": winner}
        return {"round": self.round, "prize": self.prize, "cards": list(self.cards),
                "coins": list(self.coins), "points": list(self.points),
                "orders": [o.to_json() if o is not None else None for o in self.orders],
                "last": last, "over": self.over}


# --------------------------------------------------------------------------- the game

@register(listed=False)
class SecretBid(Game):
    """A die sets a prize; every seat is dealt a secret card and bids for the prize at once."""

    name = "old_style_secret_bid"
    title = "Secret Bid"
    credit = "the worked example of playtest's game protocol"
    Params = SecretBidParams
    action_types = (Roll, Deal, Bid, Stake, Clear, Submit, Withdraw)
    has_secrets = True

    def seats(self) -> list[Seat]:
        n = self.params.num_players
        return [Seat(name, SEAT_COLORS[i], SEAT_SHAPES[i]) for i, name in enumerate(SEAT_NAMES[n])]

    def _name(self, seat: int) -> str:
        return SEAT_NAMES[self.params.num_players][seat]

    def initial_state(self) -> BidState:
        n = self.params.num_players
        return BidState(round=1, prize=None, cards=(None,) * n, coins=(self.params.coins,) * n,
                        points=(0,) * n, orders=(None,) * n, last=None)

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

    # ---- legality: one decision for legal_actions, apply and the board's reasons
    def legal_actions(self, state: BidState, seat: int | None = None) -> list[Action]:
        mover = self.to_move(state)
        if mover == CHANCE:
            return [a for a, _ in self.chance_outcomes(state)] if seat is None or seat == CHANCE else []
        if mover is None:
            return []
        seats = range(self.params.num_players) if seat is None else [seat]
        actions: list[Action] = []
        for s in seats:
            if 0 <= s < self.params.num_players:
                actions += self._order_actions(state, s)
        return actions

    def _order_actions(self, state: BidState, seat: int) -> list[Action]:
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

    def why_not(self, state: BidState, action: Action) -> str | None:
        """Why ``action`` is illegal in ``state`` (with its rule), or ``None`` when it is legal."""
        mover = self.to_move(state)
        if mover is None:
            return "the game is over (rule SB4)"
        if not isinstance(action, self.action_types):
            return f"{action!r} is not a Secret Bid action"
        if mover == CHANCE:
            if action not in [a for a, _ in self.chance_outcomes(state)]:
                return f"{action} cannot be drawn now (rule SB2)"
            return None
        if isinstance(action, (Roll, Deal)):
            return "the die and the deal are chance steps, done before the orders (rule SB2)"
        seat = action.seat
        if not 0 <= seat < self.params.num_players:
            return f"there is no seat {seat} (rule SB1)"
        if action in self._order_actions(state, seat):
            return None
        order = state.orders[seat] or Order()
        name = self._name(seat)
        if isinstance(action, Withdraw):
            return (f"{name} has no submitted order to withdraw (rule SB3)" if not order.submitted else
                    "every seat has submitted: the round is resolved (rule SB3)")
        if order.submitted:
            return f"{name} has already submitted; withdraw the order to change it (rule SB3)"
        if isinstance(action, Bid):
            return (f"{name} may bid from 0 to {min(self.params.max_bid, state.coins[seat])} "
                    f"(max_bid {self.params.max_bid}, {state.coins[seat]} coins) (rule SB3)")
        if isinstance(action, Submit):
            return f"{name} must choose a bid before submitting (rule SB3)"
        if isinstance(action, Clear):
            return f"{name}'s order has nothing to clear (rule SB3)"
        return f"{name}'s order already says that (rule SB3)"

    def apply(self, state: BidState, action: Action, check: bool = True) -> BidState:
        if check:
            problem = self.why_not(state, action)
            if problem is not None:
                message, _, rule = problem.rpartition(" (rule ")
                raise IllegalAction(message or problem, rule=rule.rstrip(")") if message else None)
        if isinstance(action, Roll):
            return state._replace(prize=action.prize)
        if isinstance(action, Deal):
            return state._replace(cards=_put(state.cards, action.seat, action.card))
        seat = action.seat
        order = state.orders[seat] or Order()
        if isinstance(action, Bid):
            return state._replace(orders=_put(state.orders, seat, order._replace(bid=action.amount)))
        if isinstance(action, Stake):
            return state._replace(orders=_put(state.orders, seat, order._replace(stake=action.on)))
        if isinstance(action, Clear):
            return state._replace(orders=_put(state.orders, seat, None))
        if isinstance(action, Withdraw):
            return state._replace(orders=_put(state.orders, seat, order._replace(submitted=False)))
        state = state._replace(orders=_put(state.orders, seat, order._replace(submitted=True)))
        if self.pending_seats(state):
            return state
        return self._resolve(state)

    def _resolve(self, state: BidState) -> BidState:
        """Everyone has submitted: all pay, the single highest total wins the prize (rule SB4)."""
        rows = tuple((o.bid, o.stake, card, o.bid + (card if o.stake else 0))
                     for o, card in zip(state.orders, state.cards))
        best = max(r[3] for r in rows)
        leaders = [s for s, r in enumerate(rows) if r[3] == best]
        winner = leaders[0] if len(leaders) == 1 else None
        coins = tuple(c - r[0] for c, r in zip(state.coins, rows))
        points = tuple(p + (state.prize if s == winner else 0) for s, p in enumerate(state.points))
        n = self.params.num_players
        return BidState(round=state.round + 1, prize=None, cards=(None,) * n, coins=coins, points=points,
                        orders=(None,) * n, last=(rows, winner), over=state.round >= self.params.rounds)

    # ---- what each seat may know
    def determinize(self, state: BidState, seat: int | None, rng: random.Random) -> BidState:
        """Redraw the other seats' face-down cards (from what the deck may still hold) and their
        orders (a submitted order stays submitted); ``seat``'s own card and order stay."""
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
            if orders[s] is not None:
                submitted = orders[s].submitted
                top = min(self.params.max_bid, state.coins[s])
                orders[s] = Order(rng.randint(0, top), rng.random() < 0.5, submitted) if submitted else None
        return state._replace(cards=tuple(cards), orders=tuple(orders))

    def notation(self, state: BidState, action: Action, viewer: int | None = None) -> str:
        """The move log's words, as ``viewer`` may read them (secrets are written only for their seat).

        >>> game = SecretBid()
        >>> state = game.apply(game.initial_state(), Roll(4))
        >>> game.notation(state, Deal(0, 3), viewer=0), game.notation(state, Deal(0, 3), viewer=1)
        ('North is dealt a 3', 'North is dealt a card')
        """
        if isinstance(action, Roll):
            return f"the die shows {action.prize}: round {state.round} is for {action.prize} points"
        name = self._name(action.seat) if 0 <= action.seat < self.params.num_players else "?"
        mine = viewer == action.seat
        if isinstance(action, Deal):
            return f"{name} is dealt a {action.card}" if mine else f"{name} is dealt a card"
        if isinstance(action, Bid):
            return f"{name} bids {action.amount}" if mine else f"{name} changes their order"
        if isinstance(action, Stake):
            return (f"{name} {'stakes' if action.on else 'keeps'} their card" if mine
                    else f"{name} changes their order")
        if isinstance(action, Clear):
            return f"{name} clears their order"
        if isinstance(action, Withdraw):
            return f"{name} withdraws their order"
        after = self.apply(state, action, check=False)
        if after.last is None or after.round == state.round:
            return f"{name} submitted"
        rows, winner = after.last        # the last submission reveals every order (rule SB4)
        shown = ", ".join(f"{self._name(s)} {_order_words(r)}" for s, r in enumerate(rows))
        result = f"{self._name(winner)} wins {state.prize}" if winner is not None else "a tie: nobody wins"
        return f"{name} submitted; revealed: {shown}; {result}"

    # ---- the scene
    def view(self, state: BidState, seat: int | None = None) -> dict:
        return self._scene(state, seat, revealed=()).to_json()

    def frames(self, state: BidState, action: Action, seat: int | None = None) -> list[dict]:
        """The last submission plays back: each seat's order revealed in turn, then the result."""
        if not isinstance(action, Submit) or self.pending_seats(state) != (action.seat,):
            return []
        full = state._replace(orders=_put(state.orders, action.seat,
                                          (state.orders[action.seat] or Order())._replace(submitted=True)))
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
            rows, winner = state.last
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
        for action in self._order_actions(state, viewer):
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

    # ---- positions from JSON
    def state_from_json(self, data: Any) -> BidState:
        n = self.params.num_players
        read = PositionReader("secret_bid", data, ("round", "prize", "cards", "coins", "points", "orders",
                                                   "last", "over"))
        rnd = read.integer("round", 1, low=1, high=self.params.rounds + 1)
        prize = None if read.get("prize") is None else read.integer("prize", None, 1, self.params.die_faces)
        cards = tuple(None if v is None else _whole(v, f"cards[{i}]", 0, 99)
                      for i, v in enumerate(_per_seat(read, "cards", n, None)))
        coins = tuple(_whole(v, f"coins[{i}]", 0, 10_000)
                      for i, v in enumerate(_per_seat(read, "coins", n, self.params.coins)))
        points = tuple(_whole(v, f"points[{i}]", 0, 10_000) for i, v in enumerate(_per_seat(read, "points", n, 0)))
        orders = tuple(_read_order(v, f"orders[{i}]") for i, v in enumerate(_per_seat(read, "orders", n, None)))
        over = read.boolean("over", rnd > self.params.rounds)
        deck = list(self.params.deck)
        for card in cards:
            if card is not None:
                if card not in deck:
                    raise ValueError(f"secret_bid position: cards {list(cards)} are not all in the deck "
                                     f"{list(self.params.deck)}")
                deck.remove(card)
        if prize is None and any(c is not None for c in cards):
            raise ValueError("secret_bid position: cards are dealt only after the die is rolled")
        if any(o is not None for o in orders) and (prize is None or None in cards):
            raise ValueError("secret_bid position: orders are given only after the die and the deal")
        for s, o in enumerate(orders):
            if o is not None and o.bid is not None and o.bid > min(self.params.max_bid, coins[s]):
                raise ValueError(f"secret_bid position: orders[{s}].bid {o.bid} is more than allowed")
            if o is not None and o.submitted and o.bid is None:
                raise ValueError(f"secret_bid position: orders[{s}] is submitted without a bid")
        if all(o is not None and o.submitted for o in orders):
            raise ValueError("secret_bid position: when every order is submitted the round is resolved")
        last = read.get("last")
        if last is not None:
            last = _read_last(last, n)
        return BidState(rnd, prize, cards, coins, points, orders, last, over)


def _put(values: tuple, index: int, value: Any) -> tuple:
    return values[:index] + (value,) + values[index + 1:]


def _whole(value: Any, where: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise ValueError(f"secret_bid position: {where} must be a whole number from {low} to {high}, "
                         f"not {str(value)[:40]}")
    return value


def _per_seat(read: PositionReader, key: str, n: int, default: Any) -> list:
    """A list with one entry per seat (``default`` for each when the field is left out)."""
    if key not in read:
        return [default] * n
    values = read.items(key, "values, one per seat")
    if len(values) != n:
        raise ValueError(f"secret_bid position: {key} must hold {n} entries, one per seat")
    return values


def _order_words(row: tuple) -> str:
    bid, stake, card, total = row
    return f"bid {bid} + card {card} = {total}" if stake else f"bid {bid} (card {card} kept) = {total}"


def _read_order(value: Any, where: str) -> Order | None:
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) - {"bid", "stake", "submitted"}:
        raise ValueError(f"{where} must be null or an object with bid, stake and submitted")
    bid = value.get("bid")
    if bid is not None and (type(bid) is not int or not 0 <= bid <= 99):
        raise ValueError(f"{where}.bid must be null or a whole number from 0 to 99")
    stake, submitted = value.get("stake", False), value.get("submitted", False)
    if type(stake) is not bool or type(submitted) is not bool:
        raise ValueError(f"{where}.stake and {where}.submitted must be true or false")
    return Order(bid, stake, submitted)


def _read_last(value: Any, n: int) -> tuple:
    if not isinstance(value, dict) or set(value) != {"orders", "winner"}:
        raise ValueError("last must be null or {\"orders\": [...], \"winner\": seat or null}")
    rows = value["orders"]
    if not isinstance(rows, list) or len(rows) != n or any(
            not isinstance(r, list) or len(r) != 4 or type(r[1]) is not bool
            or any(type(x) is not int for x in (r[0], r[2], r[3])) for r in rows):
        raise ValueError(f"last.orders must hold {n} rows of [bid, stake, card, total]")
    winner = value["winner"]
    if winner is not None and (type(winner) is not int or not 0 <= winner < n):
        raise ValueError("last.winner must be a seat or null")
    return tuple(tuple(r) for r in rows), winner
