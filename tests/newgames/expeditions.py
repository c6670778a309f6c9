"""Expeditions, a two-seat Lost Cities in miniature, written from docs/adding_a_game.md alone by a newcomer:
a shuffled deck (each card drawn by a chance step), a hand each seat sees alone, a public discard pile,
sequential turns and scores at the end.

E1 The deck holds the cards 1 to 6 in each colour (``colours`` colours); each seat is dealt ``hand`` cards.
E2 On your turn, first take a card: draw the deck's top card, or take the top card of the discard pile if you
   can play it on your own expedition at once (you then play it, and your turn ends).
E3 After drawing, play a card from your hand on your expedition of its colour, higher than the last card
   there, or put it on the discard pile.
E4 When the deck is empty after a turn, the game ends.
E5 Each expedition you started scores the sum of its cards less ``cost``; the higher total wins.
"""
from playtest import CHANCE, Action, Game, GameType, Outcome, Params, Refusal, State, field, param, register
from playtest.boards import Deck, Hand, board_view

COLOURS = ("red", "green", "blue", "white")
VALUES = 6


def card_name(card):
    return f"{COLOURS[card // VALUES]} {card % VALUES + 1}"


class Deal(Action):                # the chance step: the card a seat draws
    seat: int
    card: int

    def __str__(self):
        return f"seat {self.seat} draws {card_name(self.card)}"


class Draw(Action):                # E2: draw from the deck
    pass


class Take(Action):                # E2: take the top discard and play it
    pass


class Play(Action):                # E3
    card: int

    def __str__(self):
        return f"play {card_name(self.card)}"


class Discard(Action):             # E3
    card: int

    def __str__(self):
        return f"discard {card_name(self.card)}"


class ExpeditionParams(Params):
    colours: int = param(3, "colours in the deck", min=2, max=4, live=False, rule="E1")
    hand: int = param(4, "cards in a hand", min=2, max=5, live=False, rule="E1")
    cost: int = param(8, "what starting an expedition costs", min=0, max=21, rule="E5")


class Camp(State):
    hands: tuple[tuple[int, ...], ...] = field(((), ()), visible="owner", pool="deck", min=0, max=23)
    deck: tuple[int, ...] = field(tuple(range(18)), visible="none", pool="deck", min=0, max=23)
    discards: tuple[int, ...] = field((), min=0, max=23)                 # the top card last
    expeditions: tuple[tuple[int, ...], ...] = field(((), ()), min=0, max=23)   # the cards each seat played
    mover: int = field(0, min=0, max=1)
    drawn: bool = False                # the mover has taken its card (E2) and must play or discard (E3)


@register(listed=False)
class Expeditions(Game):
    name, title, seat_names = "expeditions", "Expeditions", ("Ana", "Ben")
    credit = "after Reiner Knizia's Lost Cities"
    Params = ExpeditionParams
    state_type, action_types = Camp, (Deal, Draw, Take, Play, Discard)
    game_type = GameType(chance=True, information="imperfect", utility="general_sum", max_length=200)

    def initial_state(self):
        return Camp(deck=tuple(range(self.params.colours * VALUES)))

    def check_state(self, s):          # what the types cannot say (guide, section 4): each card once, in this deck
        cards = [c for h in s.hands for c in h] + list(s.deck) + list(s.discards) + [c for e in s.expeditions for c in e]
        every = self.params.colours * VALUES
        if sorted(cards) != list(range(every)):
            raise ValueError(f"expeditions: the hands, deck, discard pile and expeditions must hold each of the "
                             f"{every} cards once (cards 0 to {every - 1})")
        if len(s.expeditions) != 2:
            raise ValueError("expeditions.expeditions holds one expedition per seat (2)")
        for seat, played in enumerate(s.expeditions):
            for colour in range(self.params.colours):
                mine = [c for c in played if c // VALUES == colour]
                if mine != sorted(mine):
                    raise ValueError(f"expeditions.expeditions[{seat}]: a card below the last one of its colour (E3)")
        if any(len(h) > self.params.hand + (s.drawn and i == s.mover) for i, h in enumerate(s.hands)):
            raise ValueError(f"expeditions.hands: a hand holds at most {self.params.hand} cards")

    def dealing(self, s):              # the seat still to be dealt a card, or None
        for seat in (0, 1):
            if len(s.hands[seat]) < self.params.hand and not s.drawn and not s.expeditions[seat] and not s.discards:
                return seat
        return None

    def to_move(self, s):
        if self.dealing(s) is not None:
            return CHANCE
        if not s.deck and not s.drawn:
            return None
        if s.drawn and len(s.hands[s.mover]) == self.params.hand:   # drew, the card not dealt yet
            return CHANCE
        return s.mover

    def chance_outcomes(self, s):
        seat = self.dealing(s)
        seat = s.mover if seat is None else seat
        return [(Deal(seat, c), 1 / len(s.deck)) for c in s.deck]

    def top(self, s, seat, card):      # the top card of seat's expedition of card's colour
        mine = [c for c in s.expeditions[seat] if c // VALUES == card // VALUES]
        return mine[-1] if mine else None

    def playable(self, s, seat, card):
        top = self.top(s, seat, card)
        return top is None or card > top

    def candidates(self, s, seat):
        if not s.drawn:
            return [Draw(), Take()]
        return [Play(c) for c in s.hands[seat]] + [Discard(c) for c in s.hands[seat]]

    def why_not(self, s, a, seat):
        if isinstance(a, Deal):
            return Refusal("cards are drawn by chance, not played", "E2")
        if isinstance(a, (Draw, Take)):
            if s.drawn:
                return Refusal("you have taken your card: play or discard one", "E3")
            if isinstance(a, Take):
                if not s.discards:
                    return Refusal("the discard pile is empty", "E2")
                if not self.playable(s, seat, s.discards[-1]):
                    return Refusal("you can take the top discard only to play it at once", "E2")
            return None
        if not s.drawn:
            return Refusal("take a card first", "E2")
        if a.card not in s.hands[seat]:
            return Refusal("that card is not in your hand", "E3")
        if isinstance(a, Play) and not self.playable(s, seat, a.card):
            return Refusal("a card must be higher than the last one on its expedition", "E3")
        return None

    def effect(self, s, a):
        if isinstance(a, Deal):
            hands = list(s.hands)
            hands[a.seat] = tuple(sorted(hands[a.seat] + (a.card,)))
            return s.replace(hands=tuple(hands), deck=tuple(c for c in s.deck if c != a.card))
        if isinstance(a, Draw):
            return s.replace(drawn=True)
        if isinstance(a, Take):
            exps = list(s.expeditions)
            exps[s.mover] = exps[s.mover] + (s.discards[-1],)
            return s.replace(expeditions=tuple(exps), discards=s.discards[:-1], mover=1 - s.mover)
        hands = list(s.hands)
        hands[s.mover] = tuple(c for c in hands[s.mover] if c != a.card)
        if isinstance(a, Play):
            exps = list(s.expeditions)
            exps[s.mover] = exps[s.mover] + (a.card,)
            return s.replace(hands=tuple(hands), expeditions=tuple(exps), drawn=False, mover=1 - s.mover)
        return s.replace(hands=tuple(hands), discards=s.discards + (a.card,), drawn=False, mover=1 - s.mover)

    def score(self, s, seat):
        total = 0
        for colour in range(self.params.colours):
            cards = [c % VALUES + 1 for c in s.expeditions[seat] if c // VALUES == colour]
            if cards:
                total += sum(cards) - self.params.cost
        return total

    def outcome(self, s):
        if s.deck or s.drawn or self.dealing(s) is not None:
            return None
        scores = (self.score(s, 0), self.score(s, 1))
        if scores[0] == scores[1]:
            return Outcome((), f"a tie at {scores[0]}", scores=scores, payoffs=scores)
        best = 0 if scores[0] > scores[1] else 1
        return Outcome((best,), f"{self.seat_names[best]} scores {scores[best]} to {scores[1 - best]}",
                       scores=scores, payoffs=scores)

    def returns_range(self):
        n, cost = self.params.colours, self.params.cost
        return (n * min(0, 1 - cost), n * max(0, 21 - cost))

    def running_scores(self, s):
        return (float(self.score(s, 0)), float(self.score(s, 1)))

    def view(self, s, seat=None):
        hands = [Hand([card_name(c) for c in h], owner=i, viewer=seat, name=f"hand{i}", title=self.seat_names[i])
                 for i, h in enumerate(s.hands)]
        exps = [[self.seat_names[i], " ".join(card_name(c) for c in e) or "-"] for i, e in enumerate(s.expeditions)]
        top = card_name(s.discards[-1]) if s.discards else "none"
        return board_view(self, s, seat, *hands, Deck(len(s.deck)), at=lambda a: None,
                          panels=[("Expeditions", exps), ("Discard pile", [["top", top], ["cards", len(s.discards)]])])
