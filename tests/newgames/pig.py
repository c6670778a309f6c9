"""Pig for three or four seats, written from docs/adding_a_game.md alone by a newcomer: push your luck
with a die (each roll a chance step), the number of seats and the target score as parameters.

P1 Seats take turns in order, the first seat first.
P2 On your turn, roll the die as often as you like: each roll adds its face to your turn total.
P3 A 1 ends your turn, and you lose the turn total.
P4 Hold to bank your turn total (it must not be 0) into your score; your turn ends.
P5 The moment your score and your turn total reach the target, you win.
"""
from playtest import CHANCE, Action, Game, GameType, Outcome, Params, Refusal, Seat, State, field, param, register
from playtest.boards import Dice, Track, board_view

NAMES = ("North", "East", "South", "West")
COLOURS = ("#c0392b", "#2471a3", "#1e8449", "#b9770e")


class Roll(Action):
    pass


class Hold(Action):
    pass


class Die(Action):                 # the chance step: the face rolled
    face: int


class PigParams(Params):
    seats: int = param(3, "seats at the table", min=3, max=4, live=False, rule="P1")
    target: int = param(50, "the score that wins", min=10, max=200, live=False, rule="P5")


class Pot(State):
    scores: tuple[int, ...] = field((0, 0, 0), min=0, max=199)
    total: int = field(0, min=0, max=205)      # the turn total (P2)
    mover: int = field(0, min=0, max=3)
    rolling: bool = False                      # a roll asked for, the die not cast yet
    last: int | None = field(None, min=1, max=6)   # the last face rolled, for the board


@register(listed=False)
class Pig(Game):
    name, title, credit = "pig", "Pig", "a folk dice game (John Scarne's rules, 1945)"
    Params = PigParams
    state_type, action_types = Pot, (Roll, Hold, Die)
    game_type = GameType(chance=True, max_length=None)
    candidates_are_legal = False

    def seats(self):
        return [Seat(NAMES[i], COLOURS[i], "circle") for i in range(self.params.seats)]

    def initial_state(self):
        return Pot(scores=(0,) * self.params.seats)

    def check_state(self, s):
        if len(s.scores) != self.params.seats:
            return f"scores must hold one score per seat ({self.params.seats}), not {len(s.scores)}"
        if s.mover >= self.params.seats:
            return f"mover must be a seat, 0 to {self.params.seats - 1}"
        if any(v >= self.params.target for v in s.scores):
            return "a score at the target would have ended the game (P5)"
        return None

    def to_move(self, s):
        if self.outcome(s):
            return None
        return CHANCE if s.rolling else s.mover

    def chance_outcomes(self, s):
        return [(Die(f), 1 / 6) for f in range(1, 7)]

    def candidates(self, s, seat):
        return [Roll(), Hold()]

    def why_not(self, s, a, seat):
        if isinstance(a, Die):
            return Refusal("the die is rolled by chance, not played", "P2")
        if isinstance(a, Hold) and s.total == 0:
            return Refusal("there is nothing to bank yet: roll first", "P4")
        return None

    def effect(self, s, a):
        if isinstance(a, Roll):
            return s.replace(rolling=True)
        if isinstance(a, Die):
            if a.face == 1:
                return s.replace(rolling=False, total=0, last=1, mover=(s.mover + 1) % len(s.scores))
            return s.replace(rolling=False, total=s.total + a.face, last=a.face)
        scores = list(s.scores)
        scores[s.mover] += s.total
        return s.replace(scores=tuple(scores), total=0, mover=(s.mover + 1) % len(s.scores))

    def outcome(self, s):
        if s.scores[s.mover] + s.total >= self.params.target:
            return Outcome((s.mover,), f"{self.seats()[s.mover].name} reaches {self.params.target} (P5)",
                           scores=tuple(v + (s.total if i == s.mover else 0) for i, v in enumerate(s.scores)))
        return None

    def running_scores(self, s):
        return tuple(float(v + (s.total if i == s.mover else 0)) for i, v in enumerate(s.scores))

    def view(self, s, seat=None):
        track = Track(self.params.target + 1, per_row=10, title="Scores")
        for i, v in enumerate(s.scores):
            track.piece(v, "circle", seat=i, text=str(i + 1))
        die = Dice([s.last], title="Die")
        return board_view(self, s, seat, track, die, at=lambda a: None,
                          panels=[("Turn", [["turn total", s.total]])])
