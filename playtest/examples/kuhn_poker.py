"""Kuhn poker: chance deals, a hidden card each, chip payoffs (the guide's game with secrets).

Three cards (J, Q, K); each seat antes 1 chip and is dealt one card. First may pass or bet 1;
then Second; a bet must be called (bet) or folded (pass); an unanswered bet wins the pot, else
the higher card wins it. Same rules and payoffs as OpenSpiel's ``kuhn_poker``.

>>> import playtest
>>> playtest.check_game("kuhn_poker", examples=4).ok
True
"""
from playtest import CHANCE, Action, Game, GameType, Outcome, State, field, per_seat, register
from playtest.boards import Deck, Hand, board_view

CARDS, ENDS = "JQK", ("pp", "bp", "bb", "pbp", "pbb")


class Deal(Action):
    seat: int
    card: int

    def __str__(self): return f"{CARDS[self.card]} is dealt to seat {self.seat}"


class Pass(Action): pass     # noqa: E701  (check, or fold to a bet)
class Bet(Action): pass      # noqa: E701  (bet, or call a bet)


MOVES = (Pass(), Bet())


class Table(State):
    cards: tuple[int | None, ...] = field((None, None), visible="owner", pool="deck", revealed="showdown", min=0, max=2)
    deck: tuple[int, ...] = field((0, 1, 2), visible="none", pool="deck", min=0, max=2)
    bets: str = ""                                  # "p" a pass, "b" a bet, in turn
    showdown: bool = False


@register(listed=False)
class KuhnPoker(Game):
    name, title, seat_names, state_type = "kuhn_poker", "Kuhn poker", ("First", "Second"), Table
    action_types, game_type = (Deal, Pass, Bet), GameType(chance=True, information="imperfect", max_length=5)

    def to_move(self, s): return CHANCE if None in s.cards else None if s.bets in ENDS else len(s.bets) % 2
    def chance_outcomes(self, s): return [(Deal(s.cards.index(None), c), 1 / len(s.deck)) for c in s.deck]
    def candidates(self, s, seat): return list(MOVES)     # (made once: numbering libraries know them again)
    def returns_range(self): return (-2.0, 2.0)

    def effect(self, s, a):
        if isinstance(a, Deal):
            return s.replace(cards=per_seat(s.cards, a.seat, a.card), deck=tuple(c for c in s.deck if c != a.card))
        bets = s.bets + ("b" if isinstance(a, Bet) else "p")
        return s.replace(bets=bets, showdown=bets in ("pp", "bb", "pbb"))

    def outcome(self, s):
        if s.bets not in ENDS:
            return None
        high = 0 if s.cards[0] > s.cards[1] else 1
        winner, why = ((0, "Second folds") if s.bets == "bp" else (1, "First folds") if s.bets == "pbp"
                       else (high, f"{CARDS[s.cards[high]]} is the higher card"))
        stake = 2 if s.showdown and "b" in s.bets else 1
        return Outcome((winner,), why, payoffs=(stake, -stake) if winner == 0 else (-stake, stake))

    def view(self, s, seat=None):
        hands = [Hand([CARDS[c]] if c is not None else [], owner=i, viewer=seat, revealed=s.showdown,
                      name=f"hand{i}", title=self.seat_names[i]) for i, c in enumerate(s.cards)]
        pot = 2 + s.bets.count("b")
        return board_view(self, s, seat, *hands, Deck(len(s.deck)), panels=[("Pot", [[f"{pot} chips"]])])
