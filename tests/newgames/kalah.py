"""Kalah, written from docs/adding_a_game.md by someone who had not read the kit's source: the
test of the door for a designer's own game (its Params class is not decorated, as a notebook's
need not be)."""
from playtest import Action, Game, GameType, Outcome, Params, Refusal, State, field, param, register
from playtest.boards import Grid, board_view


class Sow(Action):
    pit: int


class Board(State):
    pits: tuple[int, ...] = field((4,) * 12, min=0, max=72)
    stores: tuple[int, ...] = field((0, 0), min=0, max=72)
    turn: int = field(0, min=0, max=1)


class KalahParams(Params):
    pits: int = param(6, "pits per side", min=3, max=8, live=False)
    seeds: int = param(4, "seeds per pit at the start", min=1, max=9, live=False)


@register(listed=False)
class Kalah(Game):
    name, title, seat_names = "kalah_newuser", "Kalah", ("South", "North")
    Params = KalahParams
    state_type, action_types, game_type = Board, (Sow,), GameType(max_length=400)

    def initial_state(self):
        n = self.params.pits
        return Board(pits=(self.params.seeds,) * (2 * n), stores=(0, 0), turn=0)

    def to_move(self, s):
        return None if self.outcome(s) else s.turn

    def candidates(self, s, seat):
        n = self.params.pits
        return [Sow(i) for i in range(seat * n, seat * n + n)]

    def why_not(self, s, a, seat):
        n = self.params.pits
        if not seat * n <= a.pit < seat * n + n:
            return Refusal("sow from your own side", "K1")
        if s.pits[a.pit] == 0:
            return Refusal("that pit is empty", "K2")
        return None

    def effect(self, s, a):
        n = self.params.pits
        pits, stores, seat = list(s.pits), list(s.stores), s.turn
        seeds, pits[a.pit] = pits[a.pit], 0
        # ring: pits 0..n-1 (south), store S, pits n..2n-1 (north), store N
        order = list(range(n)) + ["S"] + list(range(n, 2 * n)) + ["N"]
        pos = order.index(a.pit)
        last = None
        while seeds:
            pos = (pos + 1) % len(order)
            slot = order[pos]
            if slot == ("N" if seat == 0 else "S"):
                continue
            if slot in ("S", "N"):
                stores[0 if slot == "S" else 1] += 1
            else:
                pits[slot] += 1
            seeds -= 1
            last = slot
        again = last == ("S" if seat == 0 else "N")
        if isinstance(last, int) and seat * n <= last < seat * n + n and pits[last] == 1:
            opposite = 2 * n - 1 - last
            if pits[opposite]:
                stores[seat] += pits[opposite] + 1
                pits[opposite] = pits[last] = 0
        if sum(pits[:n]) == 0 or sum(pits[n:]) == 0:
            stores[0] += sum(pits[:n]); stores[1] += sum(pits[n:])
            pits = [0] * (2 * n)
        return s.replace(pits=tuple(pits), stores=tuple(stores), turn=seat if again else 1 - seat)

    def outcome(self, s):
        if any(s.pits):
            return None
        a, b = s.stores
        if a == b:
            return Outcome((), "equal stores")
        return Outcome((0,) if a > b else (1,), f"{max(a, b)} seeds to {min(a, b)}")

    def view(self, s, seat=None):
        n = self.params.pits
        grid = Grid(n + 2, 2)
        for i, v in enumerate(s.pits):
            x, y = (i + 1, 1) if i < n else (2 * n - i, 0)
            if v:
                grid.piece((x, y), "circle", seat=0 if i < n else 1, label=str(v))
        return board_view(self, s, seat, grid, at=lambda a: (a.pit + 1, 1) if a.pit < n else (2 * n - a.pit, 0))
