"""Tic-tac-toe: the 26-line game of ``docs/adding_a_game.md`` (rules, board and all).

>>> import playtest
>>> game = playtest.load("tic_tac_toe")
>>> playtest.check_game(game, examples=5).ok
True
"""
from playtest import Action, Game, GameType, Outcome, Refusal, State, field, per_seat, register
from playtest.boards import Grid, board_view

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class Mark(Action):
    cell: int                                                    # 0..8, row by row


class Board(State):
    cells: tuple[int, ...] = field((-1,) * 9, min=-1, max=1, length=9)   # -1 empty, else the seat
    turn: int = field(0, min=0, max=9)


@register(listed=False)
class TicTacToe(Game):
    name, title, seat_names = "tic_tac_toe", "Tic-tac-toe", ("X", "O")
    state_type, action_types, game_type = Board, (Mark,), GameType(max_length=9)

    def to_move(self, s): return None if self.outcome(s) else s.turn % 2
    def candidates(self, s, seat): return [Mark(i) for i in range(9)]
    def why_not(self, s, a, seat):                               # (-1 would read the last cell: refuse it)
        return Refusal("no such cell", "T1") if not 0 <= a.cell < 9 else Refusal("that cell is taken", "T2") if s.cells[a.cell] >= 0 else None
    def effect(self, s, a): return s.replace(cells=per_seat(s.cells, a.cell, s.turn % 2), turn=s.turn + 1)

    def outcome(self, s):
        won = [s.cells[a] for a, b, c in LINES if s.cells[a] >= 0 and s.cells[a] == s.cells[b] == s.cells[c]]
        return Outcome((won[0],), "three in a row") if won else Outcome((), "a full board") if s.turn == 9 else None

    def view(self, s, seat=None):
        grid = Grid(3, 3)
        for i, v in enumerate(s.cells):
            if v >= 0:
                grid.piece((i % 3, i // 3), ("cross", "ring")[v], seat=v)
        return board_view(self, s, seat, grid, at=lambda a: (a.cell % 3, a.cell // 3))
