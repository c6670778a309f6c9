"""A bare reading of Eat Thyself (RULES.md E.1, default parameters, two players): a list of slots, the rules only.

Written apart from ``playtest/games/eat_thyself/`` (it imports nothing from the kit). A slot is
``(tile, piece)``: ``tile`` whether it is an empty-space tile □, ``piece`` ``None`` or
``player * 2 + pawn``. The random player plays as the kit's random bot does, step by step: a
uniformly random legal move (king, card, direction), passing only when none is legal; after its
own king is eaten, remove one of its pawns or keep them (uniformly among those choices); after an
opponent's king, take two more of that opponent's pieces (uniformly); then put the pieces in hand
back one at a time (a piece of the hand, then a gap or an unoccupied □, uniformly). One piece left
wins; a draw after ``max_turns`` = 300 turns.

    >>> import random
    >>> winners, turns = play(random.Random(1))
    >>> len(winners) <= 1 and 0 < turns <= MAX_TURNS
    True
"""

from __future__ import annotations

import random

PLAYERS, MAX_TURNS = 2, 300
SETUP = "□ ▲ ○ △ □ ● △ ○ □ ▲ ○ △ □ ● △ ○"
PIECES = {"▲": 0, "△": 1, "●": 2, "○": 3}
CARDS = ((1, 2), (2, 4))                       # card_pair 1&2, 2&4; initial faces 1 and 2


def new_ring() -> list:
    return [(True, None) if s == "□" else (False, PIECES[s]) for s in SETUP.split()]


def lift(ring: list, slot: int) -> None:
    if ring[slot][0]:
        ring[slot] = (True, None)
    else:
        del ring[slot]


def put_back(ring: list, hand: list, rng: random.Random) -> None:
    while hand:
        piece = hand.pop(rng.randrange(len(hand)))
        free = [i for i, (tile, p) in enumerate(ring) if tile and p is None]
        k = rng.randrange(len(ring) + len(free))
        if k < len(ring):
            ring.insert(k, (False, piece))
        else:
            ring[free[k - len(ring)]] = (True, piece)


def play(rng: random.Random) -> tuple[tuple[int, ...], int]:
    """One random game: (the winners, turns played)."""
    ring = new_ring()
    faces = [[CARDS[0][0], CARDS[1][0]] for _ in range(PLAYERS)]
    me = 0
    for turn in range(1, MAX_TURNS + 1):
        king = me * 2
        n = len(ring)
        moves = [(slot, card, d) for slot, (_, p) in enumerate(ring) if p == king for card in (0, 1) for d in (1, -1)
                 if (slot + d * faces[me][card]) % n != slot]
        if moves:
            slot, card, d = moves[rng.randrange(len(moves))]
            dst = (slot + d * faces[me][card]) % n
            low, high = CARDS[card]
            faces[me][card] = high if faces[me][card] == low else low
            tile, eaten = ring[dst]
            ring[dst] = (tile, king)
            lift(ring, slot)
            if eaten is not None and eaten >> 1 == me and not eaten & 1:          # own king: a pawn may go
                pawns = [i for i, (_, p) in enumerate(ring) if p == king + 1]
                if pawns:
                    k = rng.randrange(len(pawns) + 1)
                    if k < len(pawns):
                        lift(ring, pawns[k])
            elif eaten is not None and eaten >> 1 != me:
                hand = [eaten]
                if not eaten & 1:                                          # opponent's king: two more
                    owner = eaten >> 1
                    for _ in range(2):
                        theirs = [i for i, (_, p) in enumerate(ring) if p is not None and p >> 1 == owner]
                        if not theirs:
                            break
                        i = theirs[rng.randrange(len(theirs))]
                        hand.append(ring[i][1])
                        lift(ring, i)
                put_back(ring, hand, rng)
        counts = [0] * PLAYERS
        for _, p in ring:
            if p is not None:
                counts[p >> 1] += 1
        won = tuple(pl for pl in range(PLAYERS) if counts[pl] == 1)
        if won:
            return (won if len(won) == 1 else (me,)), turn
        me = (me + 1) % PLAYERS
    return (), MAX_TURNS


#: what :func:`measure` gives, to check that this reading plays the kit's random policy (``bare_vs_lab.py``)
MEASURE = "turns a game"


def measure(rng: random.Random) -> float:
    """The turns of one random game."""
    return play(rng)[1]


def kit_measure(state) -> float:
    """The same in a final state of the kit's game: its completed turns (the winning turn is one)."""
    return state.turn


if __name__ == "__main__":
    import sys
    import time
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import playtest
    from playtest.bots import RandomBot
    from playtest.lab import play_game

    n = 2000
    t = time.process_time()
    results = [play(random.Random(i)) for i in range(n)]
    rate = n / (time.process_time() - t)
    game = playtest.load("eat_thyself")
    kit = []
    for i in range(500):
        state, _ = play_game(game, [RandomBot(2 * i), RandomBot(2 * i + 1)], random.Random(i))
        kit.append((tuple(game.outcome(state).winners), state.turn))
    def shares(rows: list) -> str:
        wins = [sum(w == (s,) for w, _ in rows) / len(rows) for s in range(PLAYERS)]
        return f"P1 {wins[0]:.0%}, P2 {wins[1]:.0%}, draws {sum(not w for w, _ in rows) / len(rows):.0%}, " \
               f"{sum(t for _, t in rows) / len(rows):.1f} turns a game"
    print(f"{rate:.0f} games/s; bare: {shares(results)}; kit's random games: {shares(kit)}")
