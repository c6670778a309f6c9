"""Three-hand Whist, a trick-taking game for three seats, written from docs/adding_a_game.md alone by a
fourth newcomer: a chance deal card by card, hands each seat sees alone (one deck shared by the hands and
the undealt cards), the rule to follow suit, and a parameter for the number of tricks.

W1 The deck holds the cards of four suits, ``ranks`` cards in each; each seat is dealt ``tricks`` cards,
   one at a time, by chance. The cards not dealt stay face down.
W2 North leads the first trick; the winner of a trick leads the next one. Each seat in turn plays one card.
W3 You must follow the suit led if you can; if you cannot, you may play any card.
W4 The highest card of the suit led wins the trick; with ``trumps``, a spade beats every other suit.
W5 After ``tricks`` tricks, whoever won the most tricks wins (an equal most shares the win); each seat scores
   the tricks it won.
"""
from playtest import CHANCE, Action, Game, GameType, Outcome, Params, Refusal, State, field, param, register
from playtest.boards import Deck, Hand, board_view

SUITS = ("♠", "♥", "♦", "♣")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
MOST = 4 * 8                        # the largest deck (ranks=8)


class Deal(Action):                 # the chance step: the card a seat is dealt
    seat: int
    card: int


class Play(Action):
    card: int


class WhistParams(Params):
    tricks: int = param(4, "tricks in a hand (cards dealt to each seat)", min=1, max=8, live=False, rule="W1")
    ranks: int = param(6, "cards in each suit (the highest ones: 6 is 9 to A)", min=3, max=8, live=False, rule="W1")
    trumps: bool = param(False, "spades are trumps", choices=(False, True), rule="W4")

    def check(self):
        if 3 * self.tricks > 4 * self.ranks:
            raise ValueError(f"{self.tricks} tricks deal {3 * self.tricks} cards, more than the deck's {4 * self.ranks} (rule W1)")


class Whist(State):
    hands: tuple[tuple[int, ...], ...] = field(((), (), ()), visible="owner", pool="deck", min=0, max=MOST - 1,
                                               length="seats")
    deck: tuple[int, ...] = field(tuple(range(24)), visible="none", pool="deck", min=0, max=MOST - 1)
    trick: tuple[int, ...] = field((), min=0, max=MOST - 1)      # this trick's cards, from its leader on
    gone: tuple[int, ...] = field((), min=0, max=MOST - 1)       # the cards of the tricks played, in order
    leader: int = field(0, min=0, max=2)
    won: tuple[int, ...] = field((0, 0, 0), min=0, max=8, length="seats")


@register(listed=False)
class ThreeHandWhist(Game):
    name, title, seat_names = "three_hand_whist", "Three-hand Whist", ("North", "East", "West")
    Params, state_type, action_types = WhistParams, Whist, (Deal, Play)
    game_type = GameType(chance=True, information="imperfect", utility="constant_sum", max_length=8 * 3 * 2)

    # -- cards ---------------------------------------------------------------------------------------
    def suit(self, card): return card // self.params.ranks

    def card_name(self, card):
        return RANKS[len(RANKS) - self.params.ranks + card % self.params.ranks] + SUITS[self.suit(card)]

    def beats(self, card, best):
        if self.suit(card) == self.suit(best):
            return card > best
        return self.params.trumps and self.suit(card) == 0

    # -- the rules -----------------------------------------------------------------------------------
    def initial_state(self):
        return Whist(deck=tuple(range(4 * self.params.ranks)))

    def check_state(self, s):
        p = self.params
        cards = [c for hand in s.hands for c in hand] + list(s.deck) + list(s.trick) + list(s.gone)
        if any(c >= 4 * p.ranks for c in cards):
            raise ValueError(f"three_hand_whist: card {max(cards)} is not in a deck of {4 * p.ranks}")
        if len(set(cards)) != len(cards):
            twice = next(c for c in cards if cards.count(c) > 1)
            raise ValueError(f"three_hand_whist: the card {self.card_name(twice)} is held twice")
        if len(cards) != 4 * p.ranks:
            raise ValueError(f"three_hand_whist: {4 * p.ranks - len(cards)} cards of the deck are missing")
        if len(s.gone) % 3 or len(s.gone) // 3 != sum(s.won) or sum(s.won) > p.tricks:
            raise ValueError("three_hand_whist.won does not match the tricks played (gone)")
        dealt = 4 * p.ranks - len(s.deck)
        if dealt > 3 * p.tricks:
            raise ValueError(f"three_hand_whist.deck: {dealt} cards dealt, more than {3 * p.tricks}")
        for k, hand in enumerate(s.hands):
            if dealt < 3 * p.tricks:
                size = dealt // 3 + (1 if k < dealt % 3 else 0)
            else:
                size = p.tricks - sum(s.won) - (1 if (k - s.leader) % 3 < len(s.trick) else 0)
            if len(hand) != size:
                raise ValueError(f"three_hand_whist.hands[{k}] holds {len(hand)} cards, not {size}")
        if (s.trick or s.gone) and dealt < 3 * p.tricks:
            raise ValueError("three_hand_whist.trick: a card is played before the deal is over")

    def dealing(self, s): return len(s.deck) > 4 * self.params.ranks - 3 * self.params.tricks

    def to_move(self, s):
        if self.dealing(s):
            return CHANCE
        if sum(s.won) == self.params.tricks:
            return None
        return (s.leader + len(s.trick)) % 3

    def chance_outcomes(self, s):
        seat = (4 * self.params.ranks - len(s.deck)) % 3
        return [(Deal(seat, c), 1 / len(s.deck)) for c in sorted(s.deck)]

    def candidates(self, s, seat):
        if self.dealing(s):
            return [a for a, _ in self.chance_outcomes(s)]
        return [Play(c) for c in s.hands[seat]]

    def why_not(self, s, a, seat):
        if isinstance(a, Deal):
            return None if self.dealing(s) else Refusal("the cards are dealt by chance, before the first trick", "W1")
        mover = self.to_move(s)
        hand = s.hands[mover]
        if a.card not in hand:
            return Refusal("you do not hold that card", "W2")
        if s.trick:
            led = self.suit(s.trick[0])
            if self.suit(a.card) != led and any(self.suit(c) == led for c in hand):
                return Refusal(f"you must follow suit ({SUITS[led]})", "W3")
        return None

    def effect(self, s, a):
        if isinstance(a, Deal):
            hands = tuple(tuple(sorted(h + (a.card,))) if k == a.seat else h for k, h in enumerate(s.hands))
            return s.replace(hands=hands, deck=tuple(c for c in s.deck if c != a.card))
        mover = self.to_move(s)
        hands = tuple(tuple(c for c in h if c != a.card) if k == mover else h for k, h in enumerate(s.hands))
        trick = s.trick + (a.card,)
        if len(trick) < 3:
            return s.replace(hands=hands, trick=trick)
        best = 0
        for i in (1, 2):
            if self.beats(trick[i], trick[best]):
                best = i
        winner = (s.leader + best) % 3
        won = tuple(n + (k == winner) for k, n in enumerate(s.won))
        return s.replace(hands=hands, trick=(), gone=s.gone + trick, leader=winner, won=won)

    def outcome(self, s):
        if self.dealing(s) or sum(s.won) < self.params.tricks:
            return None
        most = max(s.won)
        winners = tuple(k for k in range(3) if s.won[k] == most)
        return Outcome(winners, f"the most tricks ({most})", payoffs=tuple(float(n) for n in s.won))

    def returns_range(self): return (0.0, float(self.params.tricks))

    def running_scores(self, s): return tuple(float(n) for n in s.won)

    def notation(self, state, action, viewer):
        if isinstance(action, Deal):
            who = self.seat_names[action.seat]
            return f"{who} is dealt {self.card_name(action.card)}" if viewer == action.seat else f"{who} is dealt a card"
        return f"{self.seat_names[self.to_move(state)]} plays {self.card_name(action.card)}"

    def view(self, s, seat=None):
        boards = [Hand([self.card_name(c) for c in s.hands[k]], owner=k, viewer=seat, name=f"hand{k}",
                       title=self.seat_names[k]) for k in range(3)]
        shown, title = (s.trick, "the trick") if s.trick or not s.gone else (s.gone[-3:], "the last trick")
        boards.append(Hand([self.card_name(c) for c in shown], owner=0, viewer=seat, revealed=True,
                           name="trick", title=title))
        boards.append(Deck(len(s.deck), name="deck", title="not dealt"))
        def at(a):                 # a card is clicked in the hand that holds it
            holder = next((k for k in range(3) if isinstance(a, Play) and a.card in s.hands[k]), None)
            return None if holder is None else (f"hand{holder}", (s.hands[holder].index(a.card), 0))
        won = [(self.seat_names[k], s.won[k]) for k in range(3)]
        return board_view(self, s, seat, *boards, at=at, panels=[("tricks won", won)])
