"""Connect Four with ``cols``, ``rows`` and ``connect`` as parameters (the guide's second game).

>>> import playtest
>>> game = playtest.load("connect_four", cols=5, rows=4, connect=3)
>>> playtest.check_game(game, examples=3).ok
True
"""
from dataclasses import dataclass

from playtest import Action, Game, GameType, Outcome, Params, Refusal, State, field, param, register
from playtest.boards import Grid, board_view


@dataclass(frozen=True)
class ConnectParams(Params):
    cols: int = param(7, "columns", live=False, min=3, max=12, rule="C1")
    rows: int = param(6, "rows", live=False, min=3, max=12, rule="C1")
    connect: int = param(4, "pieces in a line that win", min=3, max=6, rule="C3")


class Drop(Action):
    col: int


class Columns(State):
    columns: tuple[tuple[int, ...], ...] = field(default=(), min=0, max=1, length=lambda game: game.params.cols)  # per column, its pieces' seats, bottom up
    turn: int = 0


@register(listed=False)
class ConnectFour(Game):
    name, title, seat_names, Params = "connect_four", "Connect Four", ("Red", "Yellow"), ConnectParams
    state_type, action_types, game_type = Columns, (Drop,), GameType(max_length=144)

    def initial_state(self): return Columns(columns=((),) * self.params.cols)
    def to_move(self, s): return None if self.outcome(s) else s.turn % 2
    def candidates(self, s, seat): return [Drop(c) for c in range(self.params.cols)]
    def why_not(self, s, a, seat):
        return Refusal("no such column", "C1") if not 0 <= a.col < self.params.cols else Refusal("that column is full", "C2") if len(s.columns[a.col]) >= self.params.rows else None
    def at(self, s, c, r): return s.columns[c][r] if 0 <= c < self.params.cols and 0 <= r < len(s.columns[c]) else -1

    def effect(self, s, a):
        return s.replace(columns=tuple(c + (s.turn % 2,) * (i == a.col) for i, c in enumerate(s.columns)), turn=s.turn + 1)

    def outcome(self, s):
        n, p = self.params.connect, self.params
        won = [who for c, column in enumerate(s.columns) for r, who in enumerate(column) if any(all(
            self.at(s, c + k * dc, r + k * dr) == who for k in range(n)) for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)))]
        return Outcome((won[0],), f"{n} in a line") if won else Outcome((), "a full board") if s.turn == p.cols * p.rows else None

    def view(self, s, seat=None):
        grid = Grid(self.params.cols, self.params.rows, flip=True, labels="numbers")
        for c, column in enumerate(s.columns):
            for r, who in enumerate(column):
                grid.piece((c, r), "circle", seat=who)
        return board_view(self, s, seat, grid, at=lambda a: (a.col, min(len(s.columns[a.col]), self.params.rows - 1)))
