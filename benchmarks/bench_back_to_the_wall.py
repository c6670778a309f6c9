"""Speed of the Back to the Wall rules, on one core.

    python benchmarks/bench_back_to_the_wall.py [--quick] [--seconds 5] [--games 60] [--batches 3]
        [--positions 2000] [--rounds 200] [--greedy 2]

Prints:

* random 4-player games per second (the core's ``RandomBot`` for every seat: each
  order is a walk of uniformly random parts until Submit comes up, about a
  hundred actions a seat a round), played the way the lab plays them
  (``playtest.lab.play_game``: every step hands the bot a determinized state,
  unchecked applies), per second of this process's CPU time (the one-core
  figure, fair on a busy machine) and per second of wall-clock time;
* the time to list one seat's legal parts of an order (``game.legal_actions(state,
  seat)``), the median over positions met in random games, in µs;
* the time to resolve a round (walls and three movement phases on the three
  boards, with the log the playback needs), median, in ms;
* the greedy bot, for reference (no target).

The game loops stop after their games or after ``--seconds`` of wall-clock time
each, whichever comes first (at least one batch, one greedy game).

Targets (this benchmark's own): at least 3 random 4-player games/s; listing a
seat's parts under 200 µs; resolving a round under 5 ms.
"""

from __future__ import annotations

import itertools
import random
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from common import counts, games_within, parser, random_game_rate, random_games, report, spread  # noqa: E402

import playtest  # noqa: E402
from playtest import SIMULTANEOUS  # noqa: E402
from playtest.bots import RandomBot  # noqa: E402
from playtest.games.back_to_the_wall import GreedyBot  # noqa: E402
from playtest.lab import play_game  # noqa: E402

GAMES_TARGET = 3  # random 4-player games/s
PARTS_TARGET = 200  # µs to list a seat's legal parts
RESOLVE_TARGET = 5  # ms to resolve a round


def order_positions(game, count: int, seed: int) -> list:
    """(state, seat) pairs met along random games, while that seat is building its order."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.initial_state()
        while game.to_move(state) == SIMULTANEOUS and len(found) < count:
            seat = game.pending_seats(state)[0]
            found.append((state, seat))
            state = game.apply(state, rng.choice(game.legal_actions(state, seat)), check=False)
    return found


def resolving_states(game, count: int, seed: int) -> list:
    """Positions where every order is in: seeded random orders for every seat, in every round."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.initial_state()
        while game.to_move(state) is not None and len(found) < count:
            orders = tuple(game.random_order(state, s, rng)._replace(submitted=True) for s in range(4))
            full = state._replace(orders=orders)
            found.append(full)
            state = game.resolve(full, record=False).after
    return found


def cpu_best_of(call, repeat: int = 3) -> float:
    """The best of ``repeat`` runs of ``call``, in seconds of this process's CPU time
    (not common.best_of, a median of wall-clock times)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        call()
        best = min(best, time.process_time() - t0)
    return best


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--games", type=int, default=60, help="random games to time")
    ap.add_argument("--batches", type=int, default=3, help="batches the games are timed in")
    ap.add_argument("--positions", type=int, default=2000, help="order positions to time")
    ap.add_argument("--rounds", type=int, default=200, help="round resolutions to time")
    ap.add_argument("--greedy", type=int, default=2, help="games of one greedy bot against three random "
                    "ones to time (0: skip)")
    args = ap.parse_args()
    if args.quick:
        args.games, args.batches, args.positions, args.rounds, args.greedy, args.seconds = 2, 2, 200, 20, 1, 1.0

    game = playtest.load("back_to_the_wall")
    random_games(game, 1 if args.quick else 2, seed=99)  # warm up the tables
    rate, figure = random_game_rate(game, args.games, args.batches, args.seconds,
                                    lambda o: "+".join(game.seats()[w].name for w in o.winners) or "no winner")
    rows = [("random 4-player games", figure, f">= {GAMES_TARGET} games/s", rate >= GAMES_TARGET)]

    positions = order_positions(game, args.positions, seed=2)
    times = [cpu_best_of(lambda: game.legal_actions(state, seat)) * 1e6 for state, seat in positions]
    rows.append(("a seat's legal parts", spread(times, "µs", "positions"), f"< {PARTS_TARGET} µs",
                 statistics.median(times) < PARTS_TARGET))

    states = resolving_states(game, args.rounds, seed=3)
    times = [cpu_best_of(lambda: game.resolve(state), repeat=2) * 1e3 for state in states]
    rows.append(("resolving a round", spread(times, "ms", "rounds", digits=2), f"< {RESOLVE_TARGET} ms",
                 statistics.median(times) < RESOLVE_TARGET))

    if args.greedy:
        rng, seeds = random.Random(3), itertools.count()
        played, cpu, results = games_within(
            lambda: game.outcome(play_game(game, [GreedyBot(next(seeds)), RandomBot(1), RandomBot(2), RandomBot(3)],
                                           rng)[0]),
            args.greedy, args.seconds, lambda o: "the greedy seat won" if 0 in o.winners else "it lost")
        rows.append(("greedy vs 3 random (reference)",
                     f"{played / cpu:.2f} games/s of CPU time ({played} games; {counts(results)})", "", None))
    report(rows, "Back to the Wall, random games"
           + (" (--quick: a smoke run, not a measurement)" if args.quick else ""))


if __name__ == "__main__":
    main()
