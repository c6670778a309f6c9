"""Othello on a small board (6 x 6 by default), written from docs/adding_a_game.md alone by a newcomer:
a perfect-information grid game with a pass, a parameter that sizes the board, and running scores."""
from playtest import Action, Game, GameType, Outcome, Params, Refusal, State, field, param, register
from playtest.boards import Grid, board_view

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]

class Place(Action):
    col: int
    row: int

class Pass(Action):
    pass

class OthelloParams(Params):
    size: int = param(6, "the board is size x size", min=4, max=8, live=False)

class Disc(State):
    cells: tuple[int, ...] = field((-1,) * 36, min=-1, max=1)
    mover: int = field(0, min=0, max=1)
    passes: int = field(0, min=0, max=2)

@register(listed=False)
class Othello(Game):
    name, title, seat_names = "othello_small", "Othello (small)", ("Black", "White")
    Params = OthelloParams
    state_type, action_types, game_type = Disc, (Place, Pass), GameType(max_length=200)

    def initial_state(self):
        n = self.params.size
        cells = [-1] * (n * n)
        m = n // 2
        cells[(m - 1) * n + m - 1] = cells[m * n + m] = 1
        cells[(m - 1) * n + m] = cells[m * n + m - 1] = 0
        return Disc(cells=tuple(cells))

    def check_state(self, s):                     # what the types cannot say (guide, section 4)
        if len(s.cells) != self.params.size ** 2:
            raise ValueError(f"othello_small.cells has {len(s.cells)} cells; a {self.params.size} x "
                             f"{self.params.size} board has {self.params.size ** 2}")

    def flips(self, s, col, row, seat):
        n = self.params.size
        out = []
        for dc, dr in DIRS:
            c, r, run = col + dc, row + dr, []
            while 0 <= c < n and 0 <= r < n and s.cells[r * n + c] == 1 - seat:
                run.append(r * n + c); c += dc; r += dr
            if run and 0 <= c < n and 0 <= r < n and s.cells[r * n + c] == seat:
                out += run
        return out

    def to_move(self, s): return None if self.outcome(s) else s.mover
    def candidates(self, s, seat):
        n = self.params.size
        return [Place(c, r) for r in range(n) for c in range(n)] + [Pass()]
    def why_not(self, s, a, seat):
        n = self.params.size
        if isinstance(a, Pass):
            if any(self.flips(s, c, r, seat) for r in range(n) for c in range(n) if s.cells[r * n + c] < 0):
                return Refusal("you may pass only when no placement flips a disc", "O3")
            return None
        if not (0 <= a.col < n and 0 <= a.row < n):
            return Refusal("no such cell", "O1")
        if s.cells[a.row * n + a.col] >= 0:
            return Refusal("that cell is taken", "O1")
        if not self.flips(s, a.col, a.row, seat):
            return Refusal("a disc must flip at least one of the other's", "O2")
        return None
    def effect(self, s, a):
        if isinstance(a, Pass):
            return s.replace(mover=1 - s.mover, passes=s.passes + 1)
        n = self.params.size
        cells = list(s.cells)
        for i in self.flips(s, a.col, a.row, s.mover) + [a.row * n + a.col]:
            cells[i] = s.mover
        return s.replace(cells=tuple(cells), mover=1 - s.mover, passes=0)
    def outcome(self, s):
        if s.passes < 2 and -1 in s.cells:
            return None
        b, w = s.cells.count(0), s.cells.count(1)
        return Outcome((), "equal discs") if b == w else Outcome((0 if b > w else 1,), "more discs")
    def running_scores(self, s): return (float(s.cells.count(0)), float(s.cells.count(1)))
    def view(self, s, seat=None):
        n = self.params.size
        grid = Grid(n, n)
        for i, v in enumerate(s.cells):
            if v >= 0:
                grid.piece((i % n, i // n), ("cross", "ring")[v], seat=v)
        return board_view(self, s, seat, grid, at=lambda a: (a.col, a.row) if isinstance(a, Place) else None)
