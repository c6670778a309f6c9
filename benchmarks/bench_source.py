"""Benchmark: random games of Source per second on one core.

Run: ``.venv/bin/python benchmarks/bench_source.py [games]``. It plays random
games the way :func:`playtest.simulate` does (a :class:`~playtest.bots.RandomBot`
per seat, ``apply(..., check=False)``) and prints games and actions per second.
Target: at least 200 random games per second with the default parameters.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import playtest  # noqa: E402
from playtest.bots import RandomBot  # noqa: E402
from playtest.lab import play_game  # noqa: E402

TARGET = 200


def bench(games: int, **params) -> tuple[float, float, float]:
    """(games per second, actions per second, mean actions per game)."""
    game = playtest.load("source", **params)
    bots = [RandomBot(1), RandomBot(2)]
    rng = random.Random(0)
    steps = 0
    started = time.perf_counter()
    for _ in range(games):
        _, n = play_game(game, bots, rng)
        steps += n
    seconds = time.perf_counter() - started
    return games / seconds, steps / seconds, steps / games


def bench_check(games: int) -> float:
    """Actions per second through the checked path (legal_actions + apply with check)."""
    game = playtest.load("source")
    rng = random.Random(0)
    steps = 0
    started = time.perf_counter()
    for _ in range(games):
        state = game.initial_state()
        while game.to_move(state) is not None:
            state = game.apply(state, rng.choice(game.legal_actions(state)))
            steps += 1
    return steps / (time.perf_counter() - started)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    bench(50)  # warm up
    rate, moves, length = bench(games)
    print(f"source, default rules: {rate:.0f} random games/s, {moves:.0f} actions/s "
          f"({length:.1f} actions per game, {games} games)")
    for params in ({"territory_mode": "region"}, {"connection_through_partner": True},
                   {"ap_per_turn": 3, "end_timing": "end_of_round"}):
        r, m, ln = bench(max(50, games // 5), **params)
        shown = ", ".join(f"{k}={v}" for k, v in params.items())
        print(f"source, {shown}: {r:.0f} games/s, {m:.0f} actions/s ({ln:.1f} actions per game)")
    print(f"checked path (legal_actions + apply with check): {bench_check(max(20, games // 20)):.0f} actions/s")
    print("target: >= %d random games/s: %s" % (TARGET, "met" if rate >= TARGET else "NOT met"))


if __name__ == "__main__":
    main()
