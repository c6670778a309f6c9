"""Random-vs-random Eat Thyself on one core: games and moves per second, 2 and 3 players.

    python benchmarks/bench_eat_thyself.py [--quick] [--seconds 5]

For each number of players, random games (one ``RandomBot`` for every seat) are
played the way the lab plays them (``playtest.lab.play_game``) for ``--seconds``
of wall-clock time; it prints games per second, actions per second and turns a
game.

Target (issue 2): at least 1,000 two-player games per second.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from common import parser, report  # noqa: E402

import playtest  # noqa: E402
from playtest.bots import RandomBot  # noqa: E402
from playtest.lab import play_game  # noqa: E402

TARGET = 1000


def measure(players: int, seconds: float) -> tuple[float, float, float, int]:
    """(games/s, actions/s, turns a game, games played), over ``seconds`` of random games."""
    game = playtest.load("eat_thyself", num_players=players)
    bot, rng = RandomBot(seed=players), random.Random(players)
    games = steps = 0
    turns = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, n = play_game(game, bot, rng)
        games += 1
        steps += n
        turns += state.turn
    elapsed = time.perf_counter() - start
    return games / elapsed, steps / elapsed, turns / games, games


def main() -> None:
    ap = parser(__doc__)
    args = ap.parse_args()
    seconds = 0.5 if args.quick else args.seconds
    rows = []
    for players, target in ((2, TARGET), (3, None)):  # the target is for two players
        games, steps, turns, played = measure(players, seconds)
        rows.append((f"random vs random, {players} players",
                     f"{games:,.0f} games/s, {steps:,.0f} actions/s; {turns:.1f} turns a game, {played:,} games",
                     f">= {target:,} games/s" if target else "", games >= target if target else None))
    report(rows, "Eat Thyself, random games" + (" (--quick: a smoke run, not a measurement)" if args.quick else ""))


if __name__ == "__main__":
    main()
