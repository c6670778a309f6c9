"""Hex with the pie rule, written from docs/adding_a_game.md alone by a newcomer: an n x n rhombus of hexagons,
the size a bounded parameter, the swap rule a yes/no parameter; drawn on the hex board, cells clicked.

H1 The board is a rhombus of ``size`` x ``size`` hexagonal cells; a cell touches six others.
H2 Red and Blue take turns placing a stone of their colour on an empty cell, Red first.
H3 With ``swap``, Blue's first move may instead be to swap: Red's stone is replaced by a Blue one
   on the cell mirrored across the long diagonal, and Red moves next.
H4 Red wins by joining the top row to the bottom row with a chain of red stones; Blue joins the left
   column to the right one. There are no draws.
"""
from playtest import Action, Game, GameType, Outcome, Params, Refusal, State, field, param, per_seat, register
from playtest.boards import Hex, board_view

STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


class Place(Action):
    q: int                         # column, 0 at the left
    r: int                         # row, 0 at the top
    notation = "place {q},{r}"


class Swap(Action):
    pass


class HexPieParams(Params):
    size: int = param(7, "cells along a side", min=2, max=13, live=False, rule="H1")
    swap: bool = param(True, "Blue may swap instead of its first move", live=False, rule="H3")


class Stones(State):
    cells: tuple[int, ...] = field((-1,) * 49, min=-1, max=1)    # row by row: -1 empty, 0 Red, 1 Blue
    turn: int = field(0, min=0, max=169)
    swapped: bool = False


@register(listed=False)
class HexPie(Game):
    name, title, seat_names = "hex_pie", "Hex with the pie rule", ("Red", "Blue")
    credit = "Piet Hein (1942) and John Nash (1948)"
    Params = HexPieParams
    state_type, action_types = Stones, (Place, Swap)
    game_type = GameType(max_length=170)

    def initial_state(self):
        return Stones(cells=(-1,) * self.params.size ** 2)

    def check_state(self, s):
        n = self.params.size
        if len(s.cells) != n * n:
            raise ValueError(f"hex_pie.cells has {len(s.cells)} cells; a {n} x {n} board has {n * n}")

    def to_move(self, s):
        return None if self.outcome(s) else s.turn % 2

    def candidates(self, s, seat):
        n = self.params.size
        return [Place(q, r) for r in range(n) for q in range(n)] + [Swap()]

    def why_not(self, s, a, seat):
        n = self.params.size
        if isinstance(a, Swap):
            if not self.params.swap:
                return Refusal("this game is played without the swap rule", "H3")
            if s.turn != 1:
                return Refusal("only Blue's first move may be a swap", "H3")
            return None
        if not (0 <= a.q < n and 0 <= a.r < n):
            return Refusal("that cell is off the board", "H1")
        if s.cells[a.r * n + a.q] >= 0:
            return Refusal("that cell is taken", "H2")
        return None

    def effect(self, s, a):
        n = self.params.size
        if isinstance(a, Swap):
            red = s.cells.index(0)
            q, r = red % n, red // n
            cells = per_seat(per_seat(s.cells, red, -1), q * n + r, 1)
            return s.replace(cells=cells, turn=s.turn + 1, swapped=True)
        return s.replace(cells=per_seat(s.cells, a.r * n + a.q, s.turn % 2), turn=s.turn + 1)

    def joined(self, s, seat):
        n = self.params.size
        along = (lambda q, r: r) if seat == 0 else (lambda q, r: q)
        todo = [(q, r) for r in range(n) for q in range(n) if along(q, r) == 0 and s.cells[r * n + q] == seat]
        seen = set(todo)
        while todo:
            q, r = todo.pop()
            if along(q, r) == n - 1:
                return True
            for dq, dr in STEPS:
                c = (q + dq, r + dr)
                if 0 <= c[0] < n and 0 <= c[1] < n and c not in seen and s.cells[c[1] * n + c[0]] == seat:
                    seen.add(c)
                    todo.append(c)
        return False

    def outcome(self, s):
        for seat in (0, 1):
            if self.joined(s, seat):
                return Outcome((seat,), f"{self.seat_names[seat]} joins its sides (H4)")
        return None

    def view(self, s, seat=None):
        n = self.params.size
        board = Hex(None, cells=[(q, r) for r in range(n) for q in range(n)])
        for i, v in enumerate(s.cells):
            if v >= 0:
                board.piece((i % n, i // n), "hexagon", seat=v)
        return board_view(self, s, seat, board, at=lambda a: (a.q, a.r) if isinstance(a, Place) else None)
