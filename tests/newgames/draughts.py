"""Draughts on a small board, written from docs/adding_a_game.md alone by a fourth newcomer: pieces that
move from one square to another (a piece selected, then its target), captures that must be taken and go
on jump after jump within one turn, men crowned kings, and a draw after a run of quiet moves.

D1 The board is ``size`` x ``size`` squares; pieces stand on the dark squares (column + row odd). Each side
   starts with men on the dark squares of its first (size - 2) / 2 rows: Dark at the top, Light at the
   bottom. Dark moves first.
D2 A man steps one square diagonally forward onto an empty square; a king steps one square diagonally
   either way.
D3 A piece captures by jumping diagonally over an enemy piece next to it onto the empty square beyond it
   (a man forward only); the piece jumped over is taken off.
D4 After a capture, a piece that can capture again must go on jumping, in the same turn. With ``forced``,
   a side that can capture must.
D5 A man that reaches the far row is crowned a king, and its turn ends.
D6 A side with no piece, or no move, on its turn loses.
D7 After ``quiet`` moves in a row without a capture and without a man moving, the game is drawn.
"""
from playtest import Action, Game, GameType, Outcome, Params, Refusal, State, field, param, register
from playtest.boards import Grid, board_view

DIAGONALS = ((1, 1), (-1, 1), (1, -1), (-1, -1))


class Move(Action):
    frm: int                 # squares are numbered row by row from the top left, 0 to size * size - 1
    to: int


class DraughtsParams(Params):
    size: int = param(6, "the board is size x size", choices=(6, 8), live=False, rule="D1")
    forced: bool = param(True, "a side that can capture must", choices=(True, False), rule="D4")
    quiet: int = param(20, "quiet moves (no capture, no man moving) that draw the game", min=4, max=50, rule="D7")


class Draughts(State):
    # 0 empty; 1 a Dark man, 2 a Dark king; -1 a Light man, -2 a Light king
    cells: tuple[int, ...] = field((0,) * 36, min=-2, max=2, length=lambda game: game.params.size ** 2)
    mover: int = field(0, min=0, max=1)
    chain: int = field(-1, min=-1, max=63)      # the piece that must jump on (-1: none)
    quiet: int = field(0, min=0, max=50)


def owner(piece):
    return None if piece == 0 else 0 if piece > 0 else 1


@register(listed=False)
class SmallDraughts(Game):
    name, title, seat_names = "small_draughts", "Draughts (small)", ("Dark", "Light")
    Params, state_type, action_types = DraughtsParams, Draughts, (Move,)
    game_type = GameType(max_length=10_000)

    def initial_state(self):
        n = self.params.size
        rows = (n - 2) // 2
        cells = [0] * (n * n)
        for r in range(n):
            for c in range(n):
                if (c + r) % 2:
                    cells[r * n + c] = 1 if r < rows else -1 if r >= n - rows else 0
        return Draughts(cells=tuple(cells))

    def check_state(self, s):
        n = self.params.size
        for i, piece in enumerate(s.cells):
            if piece and not (i % n + i // n) % 2:
                raise ValueError(f"small_draughts.cells[{i}]: a piece on a light square (rule D1)")
            if piece == 1 and i // n == n - 1 or piece == -1 and i // n == 0:
                raise ValueError(f"small_draughts.cells[{i}]: a man on the far row is a king (rule D5)")
        if s.chain >= n * n or s.chain >= 0 and owner(s.cells[s.chain]) != s.mover:
            raise ValueError(f"small_draughts.chain {s.chain} is not a piece of the side to move")
        if s.quiet > self.params.quiet:
            raise ValueError(f"small_draughts.quiet {s.quiet} is past the draw at {self.params.quiet} (rule D7)")

    # -- the moves -------------------------------------------------------------------------------------
    def _candidates(self, s):
        n = self.params.size
        for i, piece in enumerate(s.cells):
            if owner(piece) != s.mover:
                continue
            c, r = i % n, i // n
            for dist in (1, 2):
                for dc, dr in DIAGONALS:
                    if 0 <= c + dc * dist < n and 0 <= r + dr * dist < n:
                        yield Move(i, (r + dr * dist) * n + c + dc * dist)

    def _can_jump(self, s, i):
        n = self.params.size
        return any(self._refuse(s, Move(i, (i // n + 2 * dr) * n + i % n + 2 * dc)) is None
                   for dc, dr in DIAGONALS if 0 <= i % n + 2 * dc < n and 0 <= i // n + 2 * dr < n)

    def _must_capture(self, s):
        return self.params.forced and any(self._can_jump(s, i) for i, p in enumerate(s.cells) if owner(p) == s.mover)

    def _refuse(self, s, a, steps=True):
        n = self.params.size
        if not (0 <= a.frm < n * n and 0 <= a.to < n * n):
            return Refusal("no such square", "D1")
        piece = s.cells[a.frm]
        if owner(piece) != s.mover:
            return Refusal("that is not your piece", "D2")
        if s.chain >= 0 and a.frm != s.chain:
            return Refusal("the capturing piece must jump on", "D4")
        dc, dr = a.to % n - a.frm % n, a.to // n - a.frm // n
        if abs(dc) != abs(dr) or abs(dc) not in (1, 2):
            return Refusal("a piece moves one square diagonally, or jumps over one", "D2")
        if s.cells[a.to]:
            return Refusal("that square is taken", "D2")
        forward = 1 if s.mover == 0 else -1
        if abs(piece) == 1 and dr * forward < 0:
            return Refusal("a man moves forward only", "D2")
        if abs(dc) == 2:
            middle = s.cells[(a.frm // n + dr // 2) * n + a.frm % n + dc // 2]
            if owner(middle) != 1 - s.mover:
                return Refusal("a jump goes over an enemy piece", "D3")
            return None
        if s.chain >= 0:
            return Refusal("the capturing piece must jump on", "D4")
        if steps and self._must_capture(s):
            return Refusal("a capture must be taken", "D4")
        return None

    def _has_move(self, s):
        return any(self._refuse(s, a) is None for a in self._candidates(s))

    # -- the rules -------------------------------------------------------------------------------------
    def to_move(self, s): return None if self.outcome(s) else s.mover

    def candidates(self, s, seat): return list(self._candidates(s)) if seat == s.mover else []

    def why_not(self, s, a, seat): return self._refuse(s, a)

    def effect(self, s, a):
        n = self.params.size
        cells = list(s.cells)
        piece = cells[a.frm]
        cells[a.frm], cells[a.to] = 0, piece
        jumped = abs(a.to // n - a.frm // n) == 2
        if jumped:
            cells[(a.frm + a.to) // 2] = 0
        crowned = abs(piece) == 1 and a.to // n == (n - 1 if piece > 0 else 0)
        if crowned:
            cells[a.to] = 2 * piece
        quiet = 0 if jumped or abs(piece) == 1 else s.quiet + 1
        after = s.replace(cells=tuple(cells), quiet=quiet, chain=-1)
        if jumped and not crowned and self._can_jump(after.replace(chain=a.to), a.to):
            return after.replace(chain=a.to)
        return after.replace(mover=1 - s.mover)

    def outcome(self, s):
        if s.quiet >= self.params.quiet:
            return Outcome((), f"{self.params.quiet} quiet moves")
        if not self._has_move(s):
            loser = self.seat_names[s.mover]
            left = any(owner(p) == s.mover for p in s.cells)
            return Outcome((1 - s.mover,), f"{loser} has no move" if left else f"{loser} has no piece left")
        return None

    def running_scores(self, s):
        return tuple(float(sum(abs(p) for p in s.cells if owner(p) == k)) for k in (0, 1))

    def notation(self, state, action, viewer):
        n = self.params.size

        def square(i):
            return f"{'abcdefgh'[i % n]}{n - i // n}" if 0 <= i < n * n else str(i)
        jump = abs(action.to // n - action.frm // n) == 2
        return f"{square(action.frm)}{'x' if jump else '-'}{square(action.to)}"

    def view(self, s, seat=None):
        n = self.params.size
        grid = Grid(n, n)
        for i, piece in enumerate(s.cells):
            if (i % n + i // n) % 2:
                grid.cell((i % n, i // n), fill="#b58863")
            if piece:
                grid.piece((i % n, i // n), "circle", seat=owner(piece), double=abs(piece) == 2,
                           title="a king" if abs(piece) == 2 else "a man")
        return board_view(self, s, seat, grid, at=lambda a: (a.to % n, a.to // n),
                          select=lambda a: (a.frm % n, a.frm // n))
