"""Speed of the Then There Was One rules, on one core.

Prints:

* random 4-player games per second (random bots for every seat, round cap 40),
  played the way the lab plays them (``playtest.lab.play_game``, unchecked applies),
  per second of this process's CPU time (the one-core figure, fair on a busy
  machine) and per second of wall-clock time;
* the time to list the legal next steps of a token (``game.legal_actions`` in a
  token's turn): the median over many positions met in random games, in µs;
* the same for the greedy bots, for reference (no target).

Targets (issue 3): at least 25 random 4-player games/s; listing a token's legal
next steps under 100 µs.

Run: ``.venv/bin/python benchmarks/bench_then_there_was_one.py [--games N]``
"""

from __future__ import annotations

import argparse
import random
import sys
import statistics
import time
from pathlib import Path

import playtest
from playtest.bots import RandomBot
from playtest.games.then_there_was_one import GreedyTokenBot, GreedyWallBot
from playtest.lab import play_game

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import random_games  # noqa: E402  (the shared benchmark helpers)


def token_positions(game, count: int, seed: int) -> list:
    """Positions in a token's turn, met along random games."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.initial_state()
        while game.to_move(state) is not None and len(found) < count:
            mover = game.to_move(state)
            if mover == playtest.CHANCE:
                action = game.chance_outcome(state, rng)
            else:
                if state.phase == "token":
                    found.append(state)
                action = game.random_action(state, rng)
            state = game.apply(state, action, check=False)
    return found


def time_listing(game, states: list, repeat: int = 3) -> list[float]:
    times = []
    for state in states:
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter()
            game.legal_actions(state)
            best = min(best, time.perf_counter() - t0)
        times.append(best * 1e6)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="random games to time")
    parser.add_argument("--batches", type=int, default=5, help="batches the games are timed in")
    parser.add_argument("--positions", type=int, default=3000, help="token positions to time")
    parser.add_argument("--greedy", type=int, default=10, help="greedy-bot games to time (0: skip)")
    args = parser.parse_args()

    game = playtest.load("then_there_was_one", num_players=4, max_rounds=40)
    random_games(game, 5, seed=99)  # warm up the tables
    # several batches, so a busy machine shows as spread rather than as a slow rules engine
    batch = max(1, args.games // args.batches)
    rates, cpu_rates, reasons, total, total_cpu = [], [], {}, 0.0, 0.0
    for b in range(args.batches):
        seconds, cpu, outcomes = random_games(game, batch, seed=1 + b)
        rates.append(batch / seconds)
        cpu_rates.append(batch / cpu)
        total += seconds
        total_cpu += cpu
        for o in outcomes:
            key = "draw" if o.is_draw else ("tokens" if 0 not in o.winners else "wall")
            reasons[key] = reasons.get(key, 0) + 1
    games = batch * args.batches
    print(f"random 4-player games:      {games / total_cpu:8.1f} games/s of CPU time "
          f"({games / total:.1f}/s wall clock, best batch {max(rates):.1f}/s; {games} games; results {reasons})"
          "   target >= 25")

    states = token_positions(game, args.positions, seed=2)
    times = time_listing(game, states)
    q = statistics.quantiles(times, n=100)
    print(f"token legal next steps:     {statistics.median(times):8.1f} µs median  "
          f"(p90 {q[89]:.1f} µs, p99 {q[98]:.1f} µs, max {max(times):.1f} µs; {len(times)} positions)"
          "   target < 100")

    if args.greedy:
        bots = {0: GreedyWallBot(), 1: GreedyTokenBot(), 2: GreedyTokenBot(), 3: GreedyTokenBot()}
        rng = random.Random(3)
        t0 = time.perf_counter()
        results: dict[str, int] = {}
        for _ in range(args.greedy):
            state, _ = play_game(game, bots, rng)
            o = game.outcome(state)
            key = "draw" if o.is_draw else ("tokens" if 0 not in o.winners else "wall")
            results[key] = results.get(key, 0) + 1
        dt = time.perf_counter() - t0
        print(f"greedy bots (reference):    {args.greedy / dt:8.1f} games/s  ({args.greedy} games; results {results})")


if __name__ == "__main__":
    main()
