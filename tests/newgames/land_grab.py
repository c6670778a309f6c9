"""Land Grab: every seat claims a cell of a small grid at once, in secret (a third newcomer's game).

Rules
-----
L1. The board is ``cols`` x ``rows`` cells, all empty at the start; 2 to 4 seats play.
L2. Each round every seat secretly chooses an empty cell. When all have chosen, the choices are
    revealed: a cell chosen by one seat alone becomes that seat's; a cell chosen by several is
    scorched (nobody may claim it).
L3. The game ends when no empty cell is left. A seat scores the size of its largest group of
    cells joined side by side; the highest score wins (equal highest scores share the win).
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from playtest import SIMULTANEOUS, Action, Game, GameType, Outcome, Params, Refusal, State, field, param, register
from playtest.boards import Grid, board_view

SCORCHED = -2


@dataclass(frozen=True)
class GrabParams(Params):
    num_players: int = param(3, "seats", live=False, min=2, max=4, rule="L1")
    cols: int = param(4, "columns", live=False, min=2, max=8, rule="L1")
    rows: int = param(3, "rows", live=False, min=2, max=8, rule="L1")


class Claim(Action):
    seat: int
    cell: int


class Field(State):
    cells: tuple[int, ...] = field(default=(-1,) * 12, min=-2, max=3,
                                   length=lambda game: game.params.cols * game.params.rows)  # -1 empty, -2 scorched
    picks: tuple[int | None, ...] = field(default=(None, None, None), visible="owner", min=0, max=63, length="seats")
    chose: tuple[bool, ...] = field(default=(False, False, False), length="seats")   # public: who has chosen
    rounds: int = field(default=0, min=0, max=64)


def largest_group(cells, seat, cols):
    seen, best = set(), 0
    for start, owner in enumerate(cells):
        if owner != seat or start in seen:
            continue
        stack, size = [start], 0
        seen.add(start)
        while stack:
            c = stack.pop()
            size += 1
            x, y = c % cols, c // cols
            for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                n = ny * cols + nx
                if 0 <= nx < cols and 0 <= n < len(cells) and n not in seen and cells[n] == seat:
                    seen.add(n)
                    stack.append(n)
        best = max(best, size)
    return best


@register(listed=False)
class LandGrab(Game):
    name, title = "land_grab", "Land Grab"
    seat_names = {2: ("North", "South"), 3: ("North", "East", "South"), 4: ("North", "East", "South", "West")}
    Params, state_type, action_types = GrabParams, Field, (Claim,)
    game_type = GameType(dynamics="simultaneous", utility="general_sum", max_length=4 * 64)

    def initial_state(self):
        p, n = self.params, self.params.num_players
        return Field(cells=(-1,) * (p.cols * p.rows), picks=(None,) * n, chose=(False,) * n)

    def check_state(self, s):
        for seat, pick in enumerate(s.picks):
            if pick is not None and (pick >= len(s.cells) or s.cells[pick] != -1):
                raise ValueError(f"land_grab.picks[{seat}]: cell {pick} is not an empty cell")
            if (pick is not None) != s.chose[seat]:
                raise ValueError(f"land_grab.chose[{seat}] must say whether the seat has a pick")

    def to_move(self, s): return SIMULTANEOUS if -1 in s.cells else None
    def pending_seats(self, s): return tuple(i for i, c in enumerate(s.chose) if not c) if -1 in s.cells else ()

    def candidates(self, s, seat):
        return [Claim(seat, c) for c, v in enumerate(s.cells) if v == -1]

    def why_not(self, s, a, seat):
        if not 0 <= a.cell < len(s.cells):
            return Refusal("no such cell", "L1")
        if s.cells[a.cell] != -1:
            return Refusal("that cell is not empty", "L2")
        if s.chose[a.seat]:
            return Refusal("you have chosen this round already", "L2")
        return None

    def effect(self, s, a):
        picks = tuple(a.cell if i == a.seat else p for i, p in enumerate(s.picks))
        chose = tuple(True if i == a.seat else c for i, c in enumerate(s.chose))
        if not all(chose):
            return s.replace(picks=picks, chose=chose)
        cells = list(s.cells)
        for seat, cell in enumerate(picks):
            cells[cell] = seat if picks.count(cell) == 1 else SCORCHED
        n = len(picks)
        return Field(cells=tuple(cells), picks=(None,) * n, chose=(False,) * n, rounds=s.rounds + 1)

    def determinize(self, s, seat, rng: random.Random):
        empty = [c for c, v in enumerate(s.cells) if v == -1]
        return s.replace(picks=tuple(p if p is None or i == seat else rng.choice(empty) for i, p in enumerate(s.picks)))

    def scores(self, s):
        return tuple(largest_group(s.cells, seat, self.params.cols) for seat in range(len(s.picks)))

    def outcome(self, s):
        if -1 in s.cells:
            return None
        scores = self.scores(s)
        best = max(scores)
        return Outcome(tuple(i for i, v in enumerate(scores) if v == best), f"the largest group ({best})",
                       payoffs=tuple(float(v) for v in scores))

    def returns_range(self):
        return (0.0, float(self.params.cols * self.params.rows))

    def running_scores(self, s):
        return tuple(float(v) for v in self.scores(s))

    def view(self, s, seat=None):
        cols = self.params.cols
        grid = Grid(cols, self.params.rows)
        for c, v in enumerate(s.cells):
            if v >= 0:
                grid.piece((c % cols, c // cols), "square", seat=v)
            elif v == SCORCHED:
                grid.cell((c % cols, c // cols), fill="#555", text="x")
        return board_view(self, s, seat, grid, at=lambda a: (a.cell % cols, a.cell // cols))
