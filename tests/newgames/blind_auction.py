"""Blind auction for three, written from docs/adding_a_game.md alone by a newcomer: simultaneous secret
offers (visible="owner", who has submitted public), general-sum payoffs, no view() (the text board), and
its own determinize (an offer never above its purse, guide section 9)."""
from playtest import SIMULTANEOUS, Action, Game, GameType, Outcome, Params, Refusal, State, field, param, per_seat, register

PRIZES = (3, 1, 4, 2, 5)

class Offer(Action):
    seat: int
    coins: int

class AuctionParams(Params):
    purse: int = param(10, "coins each seat starts with", min=1, max=30, live=False, rule="A1")

class Auction(State):
    purse: tuple[int, ...] = field((10, 10, 10), min=0, max=30)
    offers: tuple[int | None, ...] = field((None, None, None), visible="owner", min=0, max=30)
    submitted: tuple[bool, ...] = (False, False, False)
    won: tuple[int, ...] = field((0, 0, 0), min=0, max=15)
    lot: int = field(0, min=0, max=5)

@register(listed=False)
class BlindAuction(Game):
    name, title, seat_names = "blind_auction", "Blind auction", ("North", "East", "West")
    Params = AuctionParams
    state_type, action_types = Auction, (Offer,)
    game_type = GameType(dynamics="simultaneous", utility="general_sum", max_length=15)

    def initial_state(self):
        p = self.params.purse
        return Auction(purse=(p, p, p))

    def to_move(self, s): return None if s.lot == len(PRIZES) else SIMULTANEOUS
    def pending_seats(self, s): return tuple(i for i in range(3) if not s.submitted[i]) if s.lot < len(PRIZES) else ()
    def candidates(self, s, seat): return [Offer(seat, c) for c in range(s.purse[seat] + 1)]
    def why_not(self, s, a, seat):
        if s.submitted[a.seat]:
            return Refusal("you have made your offer for this lot", "A3")
        if not 0 <= a.coins <= s.purse[a.seat]:
            return Refusal("you cannot offer more coins than you hold", "A2")
        return None
    def effect(self, s, a):
        s = s.replace(offers=per_seat(s.offers, a.seat, a.coins), submitted=per_seat(s.submitted, a.seat, True))
        if not all(s.submitted):
            return s
        top = max(s.offers)
        winners = [i for i, o in enumerate(s.offers) if o == top]
        purse, won = s.purse, s.won
        if len(winners) == 1:
            w = winners[0]
            purse = per_seat(purse, w, purse[w] - top)
            won = per_seat(won, w, won[w] + PRIZES[s.lot])
        return s.replace(purse=purse, won=won, offers=(None, None, None), submitted=(False, False, False), lot=s.lot + 1)
    def outcome(self, s):
        if s.lot < len(PRIZES):
            return None
        best = max(s.won)
        return Outcome(tuple(i for i in range(3) if s.won[i] == best), "most points", payoffs=tuple(float(w) for w in s.won))
    def returns_range(self): return (0.0, 15.0)
    def running_scores(self, s): return tuple(float(w) for w in s.won)

    def determinize(self, s, seat, rng):          # another's secret offer: what its purse allows
        return s.replace(offers=tuple(o if o is None or i == seat else rng.randint(0, s.purse[i])
                                      for i, o in enumerate(s.offers)))
