"""A bare reading of Corner Rush (RULES.md D.1, default parameters, four players): ints and bit masks, the rules only.

Written apart from ``playtest/games/corner_rush`` (it imports nothing from the kit): no legality
checks, no logs, no views, no hidden values (nobody reads them in a random game). The board is
5 x 5 with the centre a hole; pawns start on the corners (seat 0 top-left, then clockwise), each
seat's Ace lies on the diagonally opposite corner. The die has faces 0 (Null), 2, 3, 4, 5, 6 (Ace).

The random player plays as the kit's random bot does (a uniformly random legal action at every
decision, the same decisions as the kit's): at the start of a turn it rolls or challenges one of
the blockers orthogonally next to its pawn (uniformly among those choices); a move is walked step
by step, each step uniformly among the tiles from which exactly the steps left can still be
taken (revisits allowed, passing pawns but not ending on one, entering the own Ace wins at once);
no such walk: the pawn stays. Null: move another pawn one step (not onto its own Ace) or not,
uniformly among those choices. A challenge succeeds on a roll at least the blocker's value: the
blocker goes to the challenger's bag and the pawn walks the difference. Then, with a blocker in
the bag and a free tile (no pawn, blocker, Ace tile or hole), a random blocker is drawn and placed
on a uniformly random free tile. The first player comes from a roll-off (ties roll again); the
game is a draw after ``max_turns`` = 200 turns.

    >>> import random
    >>> winner, turns = play(random.Random(1))
    >>> winner in (-1, 0, 1, 2, 3) and 0 < turns <= MAX_TURNS
    True
"""

from __future__ import annotations

import random

N, SIZE, MAX_TURNS = 4, 5, 200
FACES = (0, 2, 3, 4, 5, 6)
VALUES = (0, 2, 3, 4, 5)
TILES = SIZE * SIZE
HOLE = 1 << (2 * SIZE + 2)
ALL = (1 << TILES) - 1
START = (0, SIZE - 1, TILES - 1, TILES - SIZE)              # top-left, top-right, bottom-right, bottom-left
ACE = (TILES - 1, TILES - SIZE, 0, SIZE - 1)               # the diagonally opposite corner
ACES = sum(1 << a for a in ACE)
ADJ = tuple(sum(1 << ((r + dr) * SIZE + c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE) for r in range(SIZE) for c in range(SIZE))


def touch(mask: int) -> int:
    """Tiles orthogonally next to a tile of ``mask``."""
    out = 0
    while mask:
        low = mask & -mask
        out |= ADJ[low.bit_length() - 1]
        mask ^= low
    return out


def tiles(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def steps_from(pawns: list, seat: int, blocked: int, left: int) -> int:
    """The tiles the pawn of ``seat`` may step onto with ``left`` steps to take (this one included)."""
    others = 0
    for s, t in enumerate(pawns):
        if s != seat:
            others |= 1 << t
    walk = ALL & ~blocked & ~HOLE
    win = 1 << ACE[seat]
    layer = (walk & ~others) | win                 # where the last step may end
    for _ in range(left - 1):
        layer = win | (walk & touch(layer))
    return ADJ[pawns[seat]] & layer


def walk(pawns: list, seat: int, blocked: int, k: int, rng: random.Random) -> bool:
    """Walk ``k`` steps at random, step by step; True when the pawn enters its Ace (a win)."""
    while k:
        options = tiles(steps_from(pawns, seat, blocked, k))
        if not options:
            return False                           # only possible before the first step: the pawn stays
        pawns[seat] = options[rng.randrange(len(options))]
        if pawns[seat] == ACE[seat]:
            return True
        k -= 1
    return False


def first_player(rng: random.Random) -> int:
    contenders = list(range(N))
    while True:
        rolls = [FACES[rng.randrange(6)] for _ in contenders]
        best = max(rolls)
        top = [s for s, v in zip(contenders, rolls) if v == best]
        if len(top) == 1:
            return top[0]
        contenders = top


def play(rng: random.Random) -> tuple[int, int]:
    """One random game: (the winner or -1 for a draw, turns played before it ended)."""
    pawns = list(START)
    blockers: dict[int, int] = {}                  # tile -> value
    bags = [list(VALUES) for _ in range(N)]
    blocked = 0
    mover = first_player(rng)
    for turn in range(MAX_TURNS):
        pos = pawns[mover]
        near = tiles(ADJ[pos] & blocked)
        k = rng.randrange(len(near) + 1)           # roll, or challenge one of the blockers next to the pawn
        roll = FACES[rng.randrange(6)]
        if k < len(near):                          # a challenge
            tile = near[k]
            value = blockers[tile]
            if roll >= value:
                del blockers[tile]
                blocked &= ~(1 << tile)
                bags[mover].append(value)
                if roll > value and walk(pawns, mover, blocked, roll - value, rng):
                    return mover, turn
        elif roll == 0:                            # Null: another pawn one step, or none
            taken = 0
            for t in pawns:
                taken |= 1 << t
            free = ALL & ~blocked & ~HOLE & ~taken
            pushes = [(q, t) for q in range(N) if q != mover for t in tiles(ADJ[pawns[q]] & free & ~(1 << ACE[q]))]
            if pushes:
                j = rng.randrange(len(pushes) + 1)
                if j < len(pushes):
                    q, t = pushes[j]
                    pawns[q] = t
        elif walk(pawns, mover, blocked, roll, rng):
            return mover, turn
        bag = bags[mover]
        if bag:
            taken = 0
            for t in pawns:
                taken |= 1 << t
            free = tiles(ALL & ~blocked & ~taken & ~ACES & ~HOLE)
            if free:
                value = bag.pop(rng.randrange(len(bag)))
                tile = free[rng.randrange(len(free))]
                blockers[tile] = value
                blocked |= 1 << tile
        mover = (mover + 1) % N
    return -1, MAX_TURNS


#: what :func:`measure` gives, to check that this reading plays the kit's random policy (``bare_vs_lab.py``)
MEASURE = "turns a game"


def measure(rng: random.Random) -> float:
    """The turns of one random game (completed turns: the winning turn is not one)."""
    return play(rng)[1]


def kit_measure(state) -> float:
    """The same in a final state of the kit's game (its ``turn``: completed turns)."""
    return state.turn


if __name__ == "__main__":
    import sys
    import time
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import playtest
    from playtest.lab._play import Job, play_one

    n = 2000
    t = time.process_time()
    results = [play(random.Random(i)) for i in range(n)]
    rate = n / (time.process_time() - t)
    job = Job(playtest.load("corner_rush"), "random", seed=1)
    kit = [play_one(job, i, record=True) for i in range(300)]

    def shares(winners: list, turns: list) -> str:
        wins = ", ".join(f"P{s + 1} {sum(w == s for w in winners) / len(winners):.0%}" for s in range(N))
        return f"{wins}, draws {sum(w < 0 for w in winners) / len(winners):.0%}, {sum(turns) / len(turns):.1f} turns"

    print(f"{rate:.0f} games/s; bare: {shares([w for w, _ in results], [t for _, t in results])}; kit's random "
          f"games: {shares([r['winners'][0] if r['winners'] else -1 for r in kit], [r['final'].turn for r in kit])}")
