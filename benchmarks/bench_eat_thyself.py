"""Random-vs-random Eat Thyself on one core: games and moves per second, 2 and 3 players.

    python benchmarks/bench_eat_thyself.py [--seconds 5]

Target (issue 2): at least 1,000 two-player games per second.
"""

from __future__ import annotations

import argparse
import random
import time

import playtest
from playtest.bots import RandomBot
from playtest.lab import play_game


def measure(players: int, seconds: float) -> tuple[float, float, float]:
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
    return games / elapsed, steps / elapsed, turns / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    print("| players | games/s | actions/s | turns/game |")
    print("| --- | --- | --- | --- |")
    for players in (2, 3):
        games, steps, turns = measure(players, args.seconds)
        print(f"| {players} | {games:,.0f} | {steps:,.0f} | {turns:.1f} |")


if __name__ == "__main__":
    main()
