"""A bare reading of Back to the Wall (RULES.md B.1, default parameters): plain tuples and ints, whole orders.

Written apart from ``playtest/games/back_to_the_wall`` (it imports nothing from the kit): the
rules and nothing else, no legality checks, no logs, no views. A random game: every round each
seat submits a random whole order (walls up to the quota on open cells, three random
directions a piece, sometimes a garnet flag), then the round resolves: walls (void, adjacency,
corner rule with the Death Match's minimal subsets), ownership erased under new walls, three
movement phases (redirect, ticks, capture), spawn; after round 3 the board scores, places,
points and the overall winner(s) with the tie-breaks.

It is the yardstick the lab's random games are measured against (``bare_vs_lab.py``), and
``same_as_kit`` checks that it resolves the same orders to the same result as the kit. Its random
orders are the kit's random player's (``RandomBot`` plays the game's ``random_order_parts``: walls
up to a random count within the quota on random open cells, a random direction every phase, a
garnet flag with probability 0.2 where allowed); ``measure`` and ``kit_measure`` let
``bare_vs_lab.py`` check that the two play the same policy (the walls built a game).

    >>> import random
    >>> winners, rounds = play(random.Random(1))
    >>> rounds, all(0 <= w < 4 for w in winners)
    (3, True)
"""

from __future__ import annotations

import random
from itertools import combinations

SEATS, ROUNDS, PHASES = 4, 3, 3
SIZES = ((8, 8), (9, 9), (10, 10))
PREPLACED = (((2, 3), (5, 4)), ((2, 4), (6, 4)), ((3, 4), (6, 5)))
ASSIGN = ((0, 1, 2, 3), (0, 2, 1, 3), (0, 1, 3, 2))      # corner (TL, TR, BR, BL) of each seat, per board
QUOTA = (1, 2, 3)
ADJ = ("king", "orthogonal", "none")
GARNETS, RANK_POINTS = 3, (6, 4, 2, 1)
TOWARD = ((0, 3), (0, 1), (2, 1), (2, 3))               # directions toward corner TL, TR, BR, BL (0 up 1 right 2 down 3 left)


class Board:
    """One board's geometry: neighbours, corners, adjacency masks."""

    def __init__(self, b: int):
        cols, rows = SIZES[b]
        self.size = cols * rows
        self.all = (1 << self.size) - 1
        self.corners = (0, cols - 1, cols * rows - 1, cols * (rows - 1))
        self.corner_mask = sum(1 << c for c in self.corners)
        self.seat_corner = tuple(ASSIGN[b][s] for s in range(SEATS))
        self.walls0 = sum(1 << (r * cols + c) for c, r in PREPLACED[b])
        nxt = []
        for dc, dr in ((0, -1), (1, 0), (0, 1), (-1, 0)):
            nxt.append(tuple((r + dr) * cols + c + dc if 0 <= c + dc < cols and 0 <= r + dr < rows else -1
                             for r in range(rows) for c in range(cols)))
        self.nxt = nxt
        self.adj4 = [sum(1 << n[i] for n in nxt if n[i] >= 0) for i in range(self.size)]
        self.adj8 = [sum(1 << ((r + dr) * cols + c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                         if (dr or dc) and 0 <= c + dc < cols and 0 <= r + dr < rows)
                     for r in range(rows) for c in range(cols)]
        self.adjacency = None if ADJ[b] == "none" else (self.adj8 if ADJ[b] == "king" else self.adj4)

    def slide(self, start: int, d: int, walls: int) -> list[int]:
        path, nxt = [], self.nxt[d]
        cell = nxt[start]
        while cell >= 0 and not walls >> cell & 1:
            path.append(cell)
            cell = nxt[cell]
        return path

    def reach(self, start: int, free: int) -> int:
        seen, frontier = 1 << start, [start]
        while frontier:
            cell = frontier.pop()
            for n in self.nxt:
                m = n[cell]
                if m >= 0 and free >> m & 1 and not seen >> m & 1:
                    seen |= 1 << m
                    frontier.append(m)
        return seen

    def corners_ok(self, walls: int) -> bool:
        """Every corner 4-connected to at least one other corner through non-wall cells."""
        free = self.all & ~walls
        for corner in self.corners:
            if self.reach(corner, free) & self.corner_mask == 1 << corner:
                return False
        return True


BOARDS = tuple(Board(b) for b in range(3))


def new_game() -> dict:
    return {"round": 1, "walls": [bd.walls0 for bd in BOARDS], "owned": [[0] * SEATS for _ in BOARDS],
            "pieces": [[[bd.corners[bd.seat_corner[s]]] for s in range(SEATS)] for bd in BOARDS],
            "flags": [[None] * 3 for _ in range(SEATS)],            # the round flagged, per seat and board
            "placed": [[[0] * ROUNDS for _ in range(3)] for _ in range(SEATS)]}


def random_order(g: dict, seat: int, rng: random.Random) -> tuple:
    """(walls per board, directions per board and piece, garnet flags): whole, at random."""
    walls, dirs = [], []
    for b, bd in enumerate(BOARDS):
        occupied = 0
        for cells in g["pieces"][b]:
            for c in cells:
                occupied |= 1 << c
        open_mask = bd.all & ~bd.corner_mask & ~g["walls"][b] & ~occupied
        allowed = [c for c in range(bd.size) if open_mask >> c & 1]
        k = min(rng.randint(0, QUOTA[b]), len(allowed))
        walls.append(tuple(sorted(rng.sample(allowed, k))))
        dirs.append(tuple(tuple(rng.getrandbits(2) for _ in range(PHASES)) for _ in g["pieces"][b][seat]))
    used = sum(f is not None for f in g["flags"][seat])
    garnet = []
    for b in range(3):
        ok = g["flags"][seat][b] is None and used < GARNETS and rng.random() < 0.2
        used += ok
        garnet.append(ok)
    return tuple(walls), tuple(dirs), tuple(garnet)


def resolve_walls(bd: Board, walls: int, occupied: int, subs: list) -> tuple[int, dict]:
    by_cell: dict[int, list[int]] = {}
    for s, cells in enumerate(subs):
        for c in cells:
            by_cell.setdefault(c, []).append(s)
    pool = [c for c in by_cell if not (walls | bd.corner_mask | occupied) >> c & 1]
    pool_mask = sum(1 << c for c in pool)
    void = 0
    if bd.adjacency is not None:
        for c in pool:
            if bd.adjacency[c] & pool_mask:
                void |= 1 << c
    removed = 0
    if pool and not bd.corners_ok(walls | pool_mask):
        for k in range(1, len(pool) + 1):
            for subset in combinations(pool, k):
                mask = sum(1 << c for c in subset)
                if bd.corners_ok(walls | (pool_mask & ~mask)):
                    removed |= mask
            if removed:
                break
        else:
            removed = pool_mask
    placed = pool_mask & ~void & ~removed
    return placed, by_cell


def move(bd: Board, walls: int, owned: list, pieces: list, dirs: list, seat_corner: tuple) -> None:
    """Three phases on one board: ``owned`` and ``pieces`` change in place."""
    for i in range(PHASES):
        taken = 0
        for m in owned:
            taken |= m
        movers = []                       # (seat, piece, path)
        for s in range(SEATS):
            for k, start in enumerate(pieces[s]):
                d = dirs[s][k][i]
                path = bd.slide(start, d, walls)
                if not path:              # redirect: most unowned cells, perpendicular, toward own corner
                    best = None
                    for e in range(4):
                        if e == d:
                            continue
                        p = bd.slide(start, e, walls)
                        if not p:
                            continue
                        key = (sum(1 for c in p if not taken >> c & 1), (e - d) % 2, e in TOWARD[seat_corner[s]])
                        if best is None or key > best[0]:
                            best = (key, p)
                    path = best[1] if best else []
                movers.append((s, k, path))
        length = max(len(p) for _, _, p in movers)
        for tick in range(1, length + 1):
            on: dict[int, set] = {}          # cell -> seats present at this tick
            entered: dict[int, int] = {}     # cell -> seat that entered it (the last one seen)
            for s, k, path in movers:
                if not path:
                    cell = pieces[s][k]
                elif tick <= len(path):
                    cell = path[tick - 1]
                    entered[cell] = s
                else:
                    cell = path[-1]
                on.setdefault(cell, set()).add(s)
            for cell, s in entered.items():
                if len(on[cell]) == 1:
                    bit = 1 << cell
                    for o in range(SEATS):
                        owned[o] &= ~bit
                    owned[s] |= bit
        for s, k, path in movers:
            if path:
                pieces[s][k] = path[-1]


def play_round(g: dict, orders: list) -> None:
    r = g["round"]
    for b, bd in enumerate(BOARDS):
        occupied = 0
        for cells in g["pieces"][b]:
            for c in cells:
                occupied |= 1 << c
        placed, by_cell = resolve_walls(bd, g["walls"][b], occupied, [o[0][b] for o in orders])
        for c, seats in by_cell.items():
            if placed >> c & 1:
                for s in seats:
                    g["placed"][s][b][r - 1] += 1
        g["walls"][b] |= placed
        g["owned"][b] = [m & ~placed for m in g["owned"][b]]
        move(bd, g["walls"][b], g["owned"][b], g["pieces"][b], [o[1][b] for o in orders], bd.seat_corner)
    for s, o in enumerate(orders):
        for b in range(3):
            if o[2][b]:
                g["flags"][s][b] = r
    if r < ROUNDS:
        g["round"] = r + 1
        for b, bd in enumerate(BOARDS):
            for s in range(SEATS):
                g["pieces"][b][s].append(bd.corners[bd.seat_corner[s]])


def points(scores: list) -> list[float]:
    order = sorted(range(SEATS), key=lambda s: -scores[s])
    out = [0.0] * SEATS
    i = 0
    while i < SEATS:
        j = i
        while j + 1 < SEATS and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        share = sum(RANK_POINTS[i:j + 1]) / (j + 1 - i)
        for k in range(i, j + 1):
            out[order[k]] = share
        i = j + 1
    return out


def winners(g: dict) -> tuple[int, ...]:
    per_board = []
    for b in range(3):
        scores = []
        for s in range(SEATS):
            bonus = g["placed"][s][b][g["flags"][s][b] - 1] if g["flags"][s][b] else 0
            scores.append(bin(g["owned"][b][s]).count("1") + bonus)
        per_board.append(points(scores))
    key = [(sum(pb[s] for pb in per_board), max(pb[s] for pb in per_board), per_board[2][s], per_board[1][s],
            per_board[0][s]) for s in range(SEATS)]
    top = max(key)
    return tuple(s for s in range(SEATS) if key[s] == top)


def play(rng: random.Random, orders_out: list | None = None) -> tuple[tuple[int, ...], int]:
    """One random game: (the winners, rounds played). ``orders_out`` collects every round's orders."""
    g = new_game()
    rounds = 0
    while True:
        orders = [random_order(g, s, rng) for s in range(SEATS)]
        if orders_out is not None:
            orders_out.append(orders)
        play_round(g, orders)
        rounds += 1
        if rounds == ROUNDS:
            return winners(g), rounds


#: what :func:`measure` gives, to check that this reading plays the kit's random policy (``bare_vs_lab.py``)
MEASURE = "walls built a game"


def measure(rng: random.Random) -> float:
    """The walls built in one random game (the policy's footprint: how many walls its orders hold)."""
    g = new_game()
    for _ in range(ROUNDS):
        play_round(g, [random_order(g, s, rng) for s in range(SEATS)])
    return sum(bin(g["walls"][b] & ~BOARDS[b].walls0).count("1") for b in range(3))


def kit_measure(state) -> float:
    """The same in a final state of the kit's game (its ``walls`` by board, preplaced walls aside)."""
    return sum(bin(state.walls[b] & ~BOARDS[b].walls0).count("1") for b in range(3))


def same_as_kit(games: int, seed: int) -> int:
    """Play ``games`` random games here and the same orders through the kit (``submit_order``); the number
    of games whose winners and final board points agree (the reading checked against the kit)."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))     # this checkout's kit
    import playtest

    kit = playtest.load("back_to_the_wall")
    agree = 0
    for k in range(games):
        log: list = []
        mine, _ = play(random.Random(seed + k), log)
        state = kit.initial_state()
        for orders in log:
            for s, (walls, dirs, garnet) in enumerate(orders):
                empty = kit.empty_order(state)
                order = empty.replace(walls=walls, directions=dirs, garnet=garnet)
                state = kit.submit_order(state, s, order)
        agree += tuple(kit.outcome(state).winners) == mine
    return agree


if __name__ == "__main__":
    import time
    t = time.process_time()
    n = 200
    for i in range(n):
        play(random.Random(i))
    print(f"{n / (time.process_time() - t):.1f} games/s; agree with the kit on {same_as_kit(50, 1000)} of 50")
