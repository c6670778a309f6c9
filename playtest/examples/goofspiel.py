"""Goofspiel: secret simultaneous bids for prize cards (the guide's game with simultaneous orders).

Each seat holds the cards 1..``cards``; a shuffled prize deck of the same cards is turned up one
card at a time. Both seats bid a card from their hand in secret; the higher bid wins the prize's
points (a tie: nobody); bids are discarded; the last card of each hand plays itself for the last
prize. After the last prize, the most points wins. Same rules as OpenSpiel's ``goofspiel``
(random points order, win/loss returns).

>>> import playtest
>>> playtest.check_game("goofspiel", examples=3, cards=5).ok
True
"""
import random
from dataclasses import dataclass

from playtest import (CHANCE, SIMULTANEOUS, Action, Game, GameType, Outcome, Params, Refusal, State, field, param,
                      per_seat, register)
from playtest.boards import Hand, board_view


@dataclass(frozen=True)
class GoofParams(Params):
    cards: int = param(13, "cards in each hand and in the prize deck", live=False, min=2, max=13, rule="G1")


class Reveal(Action):
    card: int                                               # chance: the prize card turned up


class Bid(Action):
    seat: int
    card: int

    def __str__(self): return f"bid {self.card}"


BIDS = tuple({c: Bid(seat, c) for c in range(1, 14)} for seat in (0, 1))   # every bid (at most 13 cards)
REVEALS = {c: Reveal(c) for c in range(1, 14)}


class Round(State):
    prize: int | None = None                                # the prize on offer (None: to be turned up)
    prizes: tuple[int, ...] = ()                            # the prize deck left (what, not in which order)
    hands: tuple[tuple[int, ...], ...] = field(default=(), length="seats")
    bids: tuple[int | None, ...] = field(default=(None, None), visible="owner", min=1, max=13)
    points: tuple[int, ...] = field(default=(0, 0), length="seats")
    played: tuple[tuple[int, int, int], ...] = ()           # (prize, first's bid, second's bid), public


@register(listed=False)
class Goofspiel(Game):
    name, title, seat_names, Params, state_type = "goofspiel", "Goofspiel", ("Left", "Right"), GoofParams, Round
    action_types = (Reveal, Bid)
    game_type = GameType(dynamics="simultaneous", chance=True, max_length=39)

    def initial_state(self):
        cards = tuple(range(1, self.params.cards + 1))
        return Round(prizes=cards, hands=(cards, cards))

    def to_move(self, s): return None if not s.hands[0] else CHANCE if s.prize is None else SIMULTANEOUS
    def pending_seats(self, s): return tuple(i for i, b in enumerate(s.bids) if b is None) if s.prize else ()
    def chance_outcomes(self, s): return [(REVEALS.get(c) or Reveal(c), 1 / len(s.prizes)) for c in s.prizes]
    # a seat that has bid has nothing to add, so every candidate is legal (the kernel asks no why_not);
    # the bids are made once, so numbering libraries (playtest.interop) know them again
    candidates_are_legal = True

    def candidates(self, s, seat):
        made = BIDS[seat] if s.bids[seat] is None else {}
        return [made[c] if c in made else Bid(seat, c) for c in s.hands[seat]] if made else []

    def why_not(self, s, a, seat):
        if s.bids[seat] is not None:
            return Refusal(f"{self.seat_names[seat]} has bid already", "G3")
        return None if a.card in s.hands[seat] else Refusal(f"{a.card} is not in the hand", "G2")

    def effect(self, s, a):
        if isinstance(a, Reveal):
            return s.replace(prize=a.card, prizes=tuple(c for c in s.prizes if c != a.card))
        s = s.replace(bids=per_seat(s.bids, a.seat, a.card))
        return s if None in s.bids else self.resolve(s)

    def resolve(self, s):                   # both bids are in; the last card of each hand plays itself (as OpenSpiel)
        left, right = s.bids
        won = (s.prize if left > right else 0, s.prize if right > left else 0)
        s = s.replace(prize=None, bids=(None, None), points=tuple(p + w for p, w in zip(s.points, won)),
                      hands=tuple(tuple(c for c in h if c != b) for h, b in zip(s.hands, s.bids)),
                      played=s.played + ((s.prize, left, right),))
        return self.resolve(s.replace(prize=s.prizes[0], prizes=(), bids=(s.hands[0][0], s.hands[1][0]))) if len(s.hands[0]) == 1 else s

    def determinize(self, s, seat, rng: random.Random):    # the other's secret bid: a card of its hand
        return s.replace(bids=tuple(b if b is None or i == seat else rng.choice(s.hands[i]) for i, b in enumerate(s.bids)))

    def outcome(self, s):
        if s.hands[0]:
            return None
        left, right = s.points
        return Outcome((), "equal points") if left == right else Outcome((0 if left > right else 1,), "more points")

    def view(self, s, seat=None):
        hands = [Hand([str(c) for c in s.hands[i]], owner=i, viewer=seat, revealed=True, name=f"hand{i}",
                      title=f"{n}: {s.points[i]} points" + (", bid given" if s.bids[i] else "")) for i, n in enumerate(self.seat_names)]
        prize = Hand([str(s.prize or "")], owner=0, viewer=0, name="prize", title="prize")
        return board_view(self, s, seat, prize, *hands, at=lambda a: (f"hand{a.seat}", (s.hands[a.seat].index(a.card), 0)),
                          panels=[("Played (prize: bids)", [[f"{p}: {b0} / {b1}"] for p, b0, b1 in s.played])])
