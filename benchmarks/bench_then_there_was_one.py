"""Speed of the Then There Was One rules, on one core.

    python benchmarks/bench_then_there_was_one.py [--quick] [--seconds 5] [--games 300] [--batches 5]
        [--positions 3000] [--greedy 10]

Prints:

* random 4-player games per second (random bots for every seat, round cap 40),
  played the way the lab plays them (``playtest.lab.play_game``, unchecked applies),
  per second of this process's CPU time (the one-core figure, fair on a busy
  machine) and per second of wall-clock time;
* the time to list the legal next steps of a token (``game.legal_actions`` in a
  token's turn): the median over many positions met in random games, in µs;
* the same for the greedy bots, for reference (no target).

The game loops stop after their games or after ``--seconds`` of wall-clock time
each, whichever comes first (at least one batch, one greedy game).

Targets (issue 3): at least 25 random 4-player games/s; listing a token's legal
next steps under 100 µs.
"""

from __future__ import annotations

import random
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from common import (counts, games_within, parser, positions_met, random_game_rate, random_games,  # noqa: E402
                    report, spread, time_each)

import playtest  # noqa: E402
from playtest.games.then_there_was_one import GreedyTokenBot, GreedyWallBot  # noqa: E402
from playtest.lab import play_game  # noqa: E402

GAMES_TARGET = 25  # random 4-player games/s
LISTING_TARGET = 100  # µs to list a token's legal next steps


def result(o) -> str:
    return "draw" if o.is_draw else ("tokens" if 0 not in o.winners else "wall")


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--games", type=int, default=300, help="random games to time")
    ap.add_argument("--batches", type=int, default=5, help="batches the games are timed in")
    ap.add_argument("--positions", type=int, default=3000, help="token positions to time")
    ap.add_argument("--greedy", type=int, default=10, help="greedy-bot games to time (0: skip)")
    args = ap.parse_args()
    if args.quick:
        args.games, args.batches, args.positions, args.greedy, args.seconds = 10, 2, 200, 2, 1.0

    game = playtest.load("then_there_was_one", num_players=4, max_rounds=40)
    random_games(game, 2 if args.quick else 5, seed=99)  # warm up the tables
    rate, figure = random_game_rate(game, args.games, args.batches, args.seconds, result)
    rows = [("random 4-player games", figure, f">= {GAMES_TARGET} games/s", rate >= GAMES_TARGET)]

    times = time_each(positions_met(game, args.positions, seed=2, keep=lambda s: s.phase == "token"),
                      game.legal_actions)
    median = statistics.median(times)
    rows.append(("token legal next steps", spread(times, "µs", "positions", p99=True),
                 f"< {LISTING_TARGET} µs", median < LISTING_TARGET))

    if args.greedy:
        bots = {0: GreedyWallBot(), 1: GreedyTokenBot(), 2: GreedyTokenBot(), 3: GreedyTokenBot()}
        rng = random.Random(3)
        played, cpu, results = games_within(lambda: game.outcome(play_game(game, bots, rng)[0]),
                                            args.greedy, args.seconds, result)
        rows.append(("greedy bots (reference)",
                     f"{played / cpu:.1f} games/s of CPU time ({played} games; {counts(results)})", "", None))
    report(rows, "Then There Was One, random games"
           + (" (--quick: a smoke run, not a measurement)" if args.quick else ""))


if __name__ == "__main__":
    main()
