"""A bare reading of Then There Was One (RULES.md A.1, default parameters, four players): ints and bit masks, the rules only.

Written apart from ``playtest/games/then_there_was_one`` (it imports nothing from the kit): no
legality checks, no logs, no views, no live parameters. The board is 10 x 14, tile ``r * 10 + c``
is bit ``r * 10 + c`` of a tile mask; row 0 is the token start row, row 13 the goal row, rows 0-1
lie behind the black line. A wall lies on an edge: the edge east of tile ``i`` is bit ``i`` of an
edge mask, the edge north of it bit ``140 + i``. Seat 0 is the wall player, seats 1-3 the tokens.

The rules played (A.1 with the defaults of A.3): 15 obstacles are thrown at the board and one tile
around it, a throw off the board, behind the line or onto an obstacle thrown again, the whole
scatter redrawn while the goal row cannot be reached from row 0 (§9, A7); each token takes a free
start circle of row 0 (§10); then rounds (§12): the wall player's turn, then each token in play in
seat order. A wall turn builds walls on free edges (1 point each) and buys obstacles (2 points,
this turn only; at most 2 a turn, 8 a game) within 12 points, walls standing included; no new wall
on an edge of a token's tile, no obstacle on a token or an obstacle, nothing behind the black line
on the first wall turn; walls may be picked up (§13-14). A token turn is exactly 6 steps, each an
orthogonal step (on the board, no wall crossed, onto a tile with no obstacle and no token) or, once
a turn, a jump to a diagonal tile through a corner point whose two side tiles are each closed (an
obstacle, or a wall on one of its two edges at the point), one by an obstacle, with at most one
wall ending at the point (§15); a token must keep to a path that lands on no tile twice (its start
tile included) while one exists, and a token with none at the start of its turn is eliminated
(§16-17); entering the goal row arrives and leaves the board (§18). Two arrivals win for the tokens,
two eliminations for the wall player; a draw after 40 rounds (§19-21).

The random player plays as the kit's random bot does (``game.random_action``): the scatter and the
start circles as above (a start circle uniformly among the free ones); a wall action at a time,
drawing ``u`` uniform in [0, 1): below 0.25 the turn ends; below 0.35, with a wall standing, a
uniformly random standing wall is picked up; below 0.45 up to 8 uniformly random tiles are tried
for a bought obstacle (the first one allowed is bought); otherwise (or if no tile was found) up to
12 uniformly random edges are tried for a wall, and the turn ends if none is allowed. A token step
is uniform among the steps that keep a clean path (drawn without replacement from the allowed
steps until one keeps a clean path). It draws its numbers in the kit's order, so with the same
generators it plays the kit's random games move for move (``tests/test_bare_then_there_was_one.py``).

    >>> import random
    >>> winner, rounds = play(random.Random(1))
    >>> winner in ("tokens", "wall", "draw") and 1 <= rounds <= MAX_ROUNDS
    True
"""

from __future__ import annotations

import random

W, L, ZONE_ROWS = 10, 14, 2
SIZE = W * L
TOKENS, OBSTACLES, MOVE, BUDGET = 3, 15, 6, 12
OBSTACLE_COST, BUY_PER_TURN, BUY_PER_GAME = 2, 2, 8
NEED_ARRIVED = NEED_ELIMINATED = 2               # with 3 token players (A27)
MAX_ROUNDS = 40

ALL = (1 << SIZE) - 1
ZONE = (1 << (ZONE_ROWS * W)) - 1
ROW0 = (1 << W) - 1
GOAL = ROW0 << (SIZE - W)
FIRST_COL = sum(1 << (r * W) for r in range(L))
NOT_LAST_COL = ALL & ~(FIRST_COL << (W - 1))     # tiles with an east neighbour: also the east edges' bits
NOT_LAST_ROW = (1 << (SIZE - W)) - 1             # tiles with a north neighbour: the north edges' bits, shifted


def edge(i: int, j: int) -> int:
    """The edge bit between orthogonal neighbours ``i`` and ``j``."""
    i, j = min(i, j), max(i, j)
    return i if j == i + 1 else SIZE + i


INNER = NOT_LAST_COL | (NOT_LAST_ROW << SIZE)
EDGES = tuple(e for e in range(2 * SIZE) if INNER >> e & 1)
TILE_EDGES = [0] * SIZE                          # the edges of each tile (clearance, §14.3)
ZONE_EDGES = 0                                   # the edges touching a start-zone tile (§14.4)
STEPS: list[tuple[tuple[int, int], ...]] = []    # per tile: (neighbour, edge bit), north first
JUMPS: list[tuple[tuple[int, int, int, int, int, int], ...]] = []  # per tile: (d, b, c, side b, side c, at P)
for _i in range(SIZE):
    _c, _r = _i % W, _i // W
    _steps = []
    for _dc, _dr in ((0, 1), (1, 0), (-1, 0), (0, -1)):
        if 0 <= _c + _dc < W and 0 <= _r + _dr < L:
            _n = _i + _dc + _dr * W
            _steps.append((_n, 1 << edge(_i, _n)))
            TILE_EDGES[_i] |= 1 << edge(_i, _n)
    STEPS.append(tuple(_steps))
    _jumps = []
    for _dc, _dr in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
        if 0 <= _c + _dc < W and 0 <= _r + _dr < L:
            _d, _b, _cc = _i + _dc + _dr * W, _i + _dc, _i + _dr * W
            _sb = 1 << edge(_i, _b) | 1 << edge(_b, _d)
            _sc = 1 << edge(_i, _cc) | 1 << edge(_cc, _d)
            _jumps.append((_d, _b, _cc, _sb, _sc, _sb | _sc))
    JUMPS.append(tuple(_jumps))
    if ZONE >> _i & 1:
        ZONE_EDGES |= TILE_EDGES[_i]


def reaches_goal(seeds: int, free: int) -> bool:
    """Whether a tile of ``seeds`` reaches the goal row through ``free`` tiles (no walls: the setup check)."""
    seen = frontier = seeds & free
    while frontier:
        frontier = ((((frontier & NOT_LAST_COL) << 1) | ((frontier >> 1) & NOT_LAST_COL)
                     | (frontier << W) | (frontier >> W)) & free & ~seen)
        seen |= frontier
        if seen & GOAL:
            return True
    return bool(seen & GOAL)


def scatter(rng: random.Random) -> int:
    while True:
        obstacles = placed = 0
        while placed < OBSTACLES:
            c, r = rng.randrange(-1, W + 1), rng.randrange(-1, L + 1)
            if not (0 <= c < W and 0 <= r < L):
                continue
            i = r * W + c
            if ZONE >> i & 1 or obstacles >> i & 1:
                continue
            obstacles |= 1 << i
            placed += 1
        if reaches_goal(ROW0, ALL & ~obstacles):
            return obstacles


def jump_open(entry: tuple, walls: int, obstacles: int) -> bool:
    _, b, c, side_b, side_c, at_p = entry
    ob, oc = obstacles >> b & 1, obstacles >> c & 1
    return bool((ob or oc) and (ob or walls & side_b) and (oc or walls & side_c)
                and (walls & at_p).bit_count() <= 1)


def clean(cell: int, k: int, jump: int, blocked: int, walls: int, obstacles: int) -> bool:
    """Can a path of ``k`` more steps go on from ``cell`` without entering ``blocked`` (goal row: at once)?"""
    for n, bit in STEPS[cell]:
        if not (walls & bit or blocked >> n & 1):
            if k == 1 or GOAL >> n & 1 or clean(n, k - 1, jump, blocked | 1 << n, walls, obstacles):
                return True
    if jump:
        for entry in JUMPS[cell]:
            d = entry[0]
            if (obstacles >> entry[1] & 1 or obstacles >> entry[2] & 1) and not blocked >> d & 1 \
                    and jump_open(entry, walls, obstacles):
                if k == 1 or GOAL >> d & 1 or clean(d, k - 1, 0, blocked | 1 << d, walls, obstacles):
                    return True
    return False


def play(rng: random.Random, seats: list | None = None) -> tuple[str, int]:
    """One random game: (``"tokens"``, ``"wall"`` or ``"draw"``, the round it ended in). The scatter
    draws from ``rng``, each seat from ``seats[seat]`` (default: ``rng`` too)."""
    return play_out(rng, seats)[:2]


def play_out(rng: random.Random, seats: list | None = None) -> tuple:
    """:func:`play`, with the end position: (result, round, obstacles, walls, tokens' tiles, arrived,
    eliminated); tiles and edges as above, a token not on the board -1."""
    draw = seats or [rng] * (TOKENS + 1)
    obstacles = scatter(rng)
    tokens = [-1] * TOKENS
    for k in range(TOKENS):
        free = [c for c in range(W) if c not in tokens]
        tokens[k] = draw[k + 1].choice(free)
    walls = bought_total = 0
    arrived = eliminated = 0
    wall = draw[0]
    for rnd in range(1, MAX_ROUNDS + 1):
        # ---- the wall player's turn
        first = rnd == 1
        bought = 0
        on_board = 0
        for t in tokens:
            if t >= 0:
                on_board |= 1 << t
        while True:
            used = walls.bit_count() + OBSTACLE_COST * bought
            u = wall.random()
            if u < 0.25:
                break
            if u < 0.35 and walls:
                walls &= ~(1 << wall.choice([e for e in EDGES if walls >> e & 1]))
                continue
            if u < 0.45 and bought < BUY_PER_TURN and bought_total < BUY_PER_GAME \
                    and used + OBSTACLE_COST <= BUDGET:
                allowed = ALL & ~obstacles & ~on_board & (~ZONE if first else ALL)
                tries = 8 if allowed else 0
                while tries:
                    i = wall.randrange(SIZE)
                    if allowed >> i & 1:
                        break
                    tries -= 1
                if tries:
                    obstacles |= 1 << i
                    bought += 1
                    bought_total += 1
                    continue
            if used + 1 > BUDGET:
                break
            closed = walls | (ZONE_EDGES if first else 0)
            for t in tokens:
                if t >= 0:
                    closed |= TILE_EDGES[t]
            allowed = INNER & ~closed
            if not allowed:
                break
            for _ in range(12):
                e = wall.choice(EDGES)
                if allowed >> e & 1:
                    walls |= 1 << e
                    break
            else:
                break
        # ---- the tokens' turns, in seat order
        for k in range(TOKENS):
            pos = tokens[k]
            if pos < 0:
                continue
            rng_k = draw[k + 1]
            occupied = obstacles
            for j, t in enumerate(tokens):
                if t >= 0 and j != k:
                    occupied |= 1 << t
            visited = 1 << pos
            if not clean(pos, MOVE, 1, occupied | visited, walls, obstacles):
                tokens[k] = -1                         # trapped: eliminated
                eliminated += 1
                if eliminated >= NEED_ELIMINATED:
                    return "wall", rnd, obstacles, walls, tuple(tokens), arrived, eliminated
                continue
            steps, jump = 0, 1
            while True:
                left = MOVE - steps
                options = [(n, 0) for n, bit in STEPS[pos] if not (walls & bit or occupied >> n & 1)]
                if jump:
                    for entry in JUMPS[pos]:
                        if (obstacles >> entry[1] & 1 or obstacles >> entry[2] & 1) \
                                and not occupied >> entry[0] & 1 and jump_open(entry, walls, obstacles):
                            options.append((entry[0], 1))
                while True:                            # without replacement, until a step keeps a clean path
                    pick = rng_k.randrange(len(options))
                    options[pick], options[-1] = options[-1], options[pick]
                    n, jumped = options.pop()
                    if visited >> n & 1:
                        continue
                    if left == 1 or GOAL >> n & 1 or clean(n, left - 1, jump - jumped,
                                                           occupied | visited | 1 << n, walls, obstacles):
                        break
                pos = n
                visited |= 1 << n
                steps += 1
                jump -= jumped
                if GOAL >> n & 1:
                    break
                if steps == MOVE:
                    break
            if GOAL >> pos & 1:
                tokens[k] = -1                         # arrived: it leaves the board
                arrived += 1
                if arrived >= NEED_ARRIVED:
                    return "tokens", rnd, obstacles, walls, tuple(tokens), arrived, eliminated
            else:
                tokens[k] = pos
    return "draw", MAX_ROUNDS, obstacles, walls, tuple(tokens), arrived, eliminated


#: what :func:`measure` gives, to check that this reading plays the kit's random policy (``bare_vs_lab.py``)
MEASURE = "rounds a game"


def measure(rng: random.Random) -> float:
    """The round one random game ended in."""
    return play(rng)[1]


def kit_measure(state) -> float:
    """The same in a final state of the kit's game (its ``round``)."""
    return state.round


if __name__ == "__main__":
    import sys
    import time
    from collections import Counter
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import playtest
    from playtest.lab._play import Job, play_one

    n = 1000
    t = time.process_time()
    results = [play(random.Random(i)) for i in range(n)]
    rate = n / (time.process_time() - t)
    job = Job(playtest.load("then_there_was_one"), "random", seed=1)
    kit = [play_one(job, i, record=True) for i in range(300)]

    def shares(rows: list) -> str:
        won = Counter(w for w, _ in rows)
        return (", ".join(f"{k} {won[k] / len(rows):.0%}" for k in ("tokens", "wall", "draw"))
                + f", {sum(r for _, r in rows) / len(rows):.1f} rounds")

    kit_rows = [("draw" if not r["winners"] else "wall" if 0 in r["winners"] else "tokens", r["final"].round)
                for r in kit]
    print(f"{rate:.0f} games/s; bare: {shares(results)}; kit's random games: {shares(kit_rows)}")
