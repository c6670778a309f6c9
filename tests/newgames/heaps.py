"""Heaps: Nim with several heaps, a turn of one stone at a time (a third newcomer's game, from the guide).

Rules
-----
N1. There are ``heaps`` heaps; heap ``i`` starts with ``size + i`` stones.
N2. On your turn you take stones one at a time (``take``), all from the same heap.
N3. You must take at least one stone and at most ``most`` stones; after the ``most``-th the turn
    ends by itself, before it you may end it (``end turn``).
N4. Whoever takes the last stone wins (with ``misere``: loses).
"""
from __future__ import annotations

from dataclasses import dataclass

from playtest import EndTurn, Action, Game, GameType, Outcome, Params, Refusal, State, field, param, register
from playtest.boards import Grid, board_view


@dataclass(frozen=True)
class HeapsParams(Params):
    heaps: int = param(3, "number of heaps", live=False, min=1, max=6, rule="N1")
    size: int = param(3, "stones in the first heap (each next heap one more)", live=False, min=1, max=8, rule="N1")
    most: int = param(3, "most stones taken in one turn", min=1, max=5, rule="N3")
    misere: bool = param(False, "whoever takes the last stone loses", choices=(False, True), rule="N4")


class Take(Action):
    heap: int


class Pile(State):
    heaps: tuple[int, ...] = field(default=(3, 4, 5), min=0, max=13, length=lambda game: game.params.heaps)
    mover: int = field(default=0, min=0, max=1)
    taken: int = field(default=0, min=0, max=5)        # stones taken this turn
    heap: int = field(default=-1, min=-1, max=5)       # the heap this turn takes from (-1: none yet)
    last: int = field(default=-1, min=-1, max=1)       # who took the last stone so far


@register(listed=False)
class Heaps(Game):
    name, title, seat_names = "heaps", "Heaps", ("First", "Second")
    Params, state_type, action_types = HeapsParams, Pile, (Take, EndTurn)
    game_type = GameType(max_length=2 * 6 * 13)

    def initial_state(self):
        p = self.params
        return Pile(heaps=tuple(p.size + i for i in range(p.heaps)))

    def check_state(self, s):
        if s.heap >= len(s.heaps):
            raise ValueError(f"heaps.heap {s.heap} is not a heap (there are {len(s.heaps)})")
        if s.taken > self.params.most:
            raise ValueError(f"heaps.taken {s.taken} is more than a turn may take ({self.params.most})")

    def to_move(self, s): return None if not any(s.heaps) else s.mover

    def candidates(self, s, seat):
        takes = [Take(h) for h in range(len(s.heaps))]
        return takes + [EndTurn()]

    def why_not(self, s, a, seat):
        if isinstance(a, EndTurn):
            return Refusal("take a stone first", "N3") if s.taken == 0 else None
        if not 0 <= a.heap < len(s.heaps):
            return Refusal("no such heap", "N1")
        if s.heaps[a.heap] == 0:
            return Refusal("that heap is empty", "N2")
        if s.heap >= 0 and a.heap != s.heap:
            return Refusal("this turn takes from another heap", "N2")
        return None

    def effect(self, s, a):
        if isinstance(a, EndTurn):
            return s.replace(mover=1 - s.mover, taken=0, heap=-1)
        heaps = tuple(n - 1 if i == a.heap else n for i, n in enumerate(s.heaps))
        s = s.replace(heaps=heaps, taken=s.taken + 1, heap=a.heap, last=s.mover)
        if s.taken == self.params.most:
            return s.replace(mover=1 - s.mover, taken=0, heap=-1)
        return s

    def outcome(self, s):
        if any(s.heaps):
            return None
        winner = 1 - s.last if self.params.misere else s.last
        return Outcome((winner,), "took the last stone" if not self.params.misere else "left the last stone to the other")

    def running_scores(self, s):
        return (0.0, 0.0)

    def view(self, s, seat=None):
        grid = Grid(len(s.heaps), max(s.heaps + (1,)))
        for h, n in enumerate(s.heaps):
            for k in range(n):
                grid.piece((h, k), "ring", seat=s.mover)
        return board_view(self, s, seat, grid,
                          at=lambda a: None if isinstance(a, EndTurn) else (a.heap, s.heaps[a.heap] - 1))
