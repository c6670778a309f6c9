"""Dice bluff (a two-seat Liar's dice), written from docs/adding_a_game.md alone by a newcomer: chance
(each die rolled by a chance step), hidden cups (visible="owner", revealed when called) and a bid ladder."""
from playtest import CHANCE, Action, Game, GameType, Outcome, Params, Refusal, State, field, param, per_seat, register
from playtest.boards import Hand, board_view

class Roll(Action):
    seat: int
    face: int

class Bid(Action):
    count: int
    face: int

class Call(Action):
    pass

class BluffParams(Params):
    dice: int = param(2, "dice in each cup", min=1, max=4, live=False, rule="B1")

class Cups(State):
    dice: tuple[tuple[int | None, ...], ...] = field(((None, None), (None, None)), visible="owner", revealed="called", min=1, max=6)
    bid: tuple[int, int] | None = None                 # (count, face) of the last bid
    bidder: int = field(0, min=0, max=1)
    mover: int = field(0, min=0, max=1)
    called: bool = False

@register(listed=False)
class DiceBluff(Game):
    name, title, seat_names = "dice_bluff", "Dice bluff", ("Ann", "Bob")
    Params = BluffParams
    state_type, action_types = Cups, (Roll, Bid, Call)
    game_type = GameType(chance=True, information="imperfect", max_length=60)

    def initial_state(self):
        n = self.params.dice
        return Cups(dice=((None,) * n, (None,) * n))

    def to_move(self, s):
        if any(None in cup for cup in s.dice):
            return CHANCE
        return None if s.called else s.mover

    def chance_outcomes(self, s):
        seat = 0 if None in s.dice[0] else 1
        return [(Roll(seat, f), 1 / 6) for f in range(1, 7)]

    def candidates(self, s, seat):
        total = 2 * self.params.dice
        out = [Bid(c, f) for c in range(1, total + 1) for f in range(1, 7)]
        return out + [Call()]

    def why_not(self, s, a, seat):
        if isinstance(a, Roll):                   # (guide, section 2: a chance action at a seat's turn)
            return Refusal("the dice are rolled by chance, not played", "B1")
        if isinstance(a, Call):
            return Refusal("there is no bid to call", "B3") if s.bid is None else None
        total = 2 * self.params.dice
        if not (1 <= a.count <= total and 1 <= a.face <= 6):
            return Refusal("no such bid", "B2")
        if s.bid is not None and (a.count, a.face) <= s.bid:
            return Refusal("a bid must raise the count, or keep it and raise the face", "B2")
        return None

    def effect(self, s, a):
        if isinstance(a, Roll):
            cup = s.dice[a.seat]
            i = cup.index(None)
            return s.replace(dice=per_seat(s.dice, a.seat, per_seat(cup, i, a.face)))
        if isinstance(a, Call):
            return s.replace(called=True)
        return s.replace(bid=(a.count, a.face), bidder=s.mover, mover=1 - s.mover)

    def outcome(self, s):
        if not s.called:
            return None
        count, face = s.bid
        there = sum(d == face for cup in s.dice for d in cup)
        if there >= count:
            return Outcome((s.bidder,), f"there are {there} {face}s: the bid stands")
        return Outcome((1 - s.bidder,), f"there are only {there} {face}s: the bid was a bluff")

    def view(self, s, seat=None):
        cups = [Hand([str(d) for d in cup if d is not None], owner=i, viewer=seat, revealed=s.called,
                     name=f"cup{i}", title=self.seat_names[i], what="die") for i, cup in enumerate(s.dice)]
        bid = "no bid yet" if s.bid is None else f"{s.bid[0]} x {s.bid[1]}"
        return board_view(self, s, seat, *cups, panels=[("Bid", [[bid]])])
