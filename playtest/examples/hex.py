"""Hex on a rhombus of hexagonal cells, with the board's size as a parameter: the guide's game drawn
on a hex board (``playtest.boards.Hex``), whose clicks are axial coordinates ``(q, r)``.

Red joins the top row to the bottom one, Blue the left column to the right one; a cell touches six
others. A game of Hex cannot end in a draw.

>>> import playtest
>>> game = playtest.load("hex", size=3)
>>> playtest.check_game(game, examples=5).ok
True
>>> game.view(game.initial_state(), None)["boards"][0]["kind"]
'hex'
"""
from playtest import Action, Game, GameType, Outcome, Params, Refusal, State, field, param, per_seat, register
from playtest.boards import Hex as HexBoard
from playtest.boards import board_view

NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


class HexParams(Params):
    size: int = param(5, "cells along each side of the rhombus", live=False, min=2, max=11, rule="X1")


class Place(Action):
    q: int                                           # the column, 0 at the left
    r: int                                           # the row, 0 at the top


class Cells(State):
    cells: tuple[int, ...] = field((-1,) * 25, min=-1, max=1,      # row by row: -1 empty, else the seat
                                   length=lambda game: game.params.size ** 2)
    turn: int = field(0, min=0, max=121)


@register(listed=False)
class Hex(Game):
    name, title, seat_names, Params = "hex", "Hex", ("Red", "Blue"), HexParams
    state_type, action_types, game_type = Cells, (Place,), GameType(max_length=121)

    def initial_state(self): return Cells(cells=(-1,) * self.params.size ** 2)
    def to_move(self, s): return None if self.outcome(s) else s.turn % 2
    def candidates(self, s, seat): return [Place(q, r) for r in range(self.params.size) for q in range(self.params.size)]

    def why_not(self, s, a, seat):                   # off the board first: -1 would read the last cell
        n = self.params.size
        if not (0 <= a.q < n and 0 <= a.r < n):
            return Refusal("that cell is off the board", "X1")
        return Refusal("that cell is taken", "X3") if s.cells[a.r * n + a.q] >= 0 else None

    def effect(self, s, a): return s.replace(cells=per_seat(s.cells, a.r * self.params.size + a.q, s.turn % 2), turn=s.turn + 1)

    def joined(self, s, seat):                       # a chain of the seat's cells from one of its sides to the other
        n, far = self.params.size, self.params.size - 1
        todo = [(q, r) for q in range(n) for r in range(n) if (r, q)[seat] == 0 and s.cells[r * n + q] == seat]
        seen = set(todo)
        while todo:
            q, r = todo.pop()
            if (r, q)[seat] == far:
                return True
            for c in ((q + dq, r + dr) for dq, dr in NEIGHBOURS):
                if 0 <= c[0] < n and 0 <= c[1] < n and c not in seen and s.cells[c[1] * n + c[0]] == seat:
                    seen.add(c)
                    todo.append(c)
        return False

    def outcome(self, s):
        won = [seat for seat in (0, 1) if self.joined(s, seat)]
        return Outcome((won[0],), "joined its sides (rule X4)") if won else None

    def view(self, s, seat=None):
        n = self.params.size
        board = HexBoard(None, cells=[(q, r) for r in range(n) for q in range(n)])
        for i, v in enumerate(s.cells):
            if v >= 0:
                board.piece((i % n, i // n), "hexagon", seat=v)
        return board_view(self, s, seat, board, at=lambda a: (a.q, a.r))
