"""MCTS iterations per second, game by game (the search bot of playtest.bots, default settings but the iterations).

    python benchmarks/bench_mcts.py [--iterations 50] [--positions 20] [--seconds 10] [--games eat_thyself ...]

For each game, decision positions are met along random games (only those where
the bot has to search: more than one action worth trying); the bot searches
each and the iterations are counted. Figures are per second of this process's
CPU time (the one-core figure, fair on a busy machine) and of wall-clock time.
An iteration is one walk down the tree plus one random play-out (capped at
``rollout_limit`` turns), so games with long play-outs are slower.

Target: none set by the issue (for reference).
"""

from __future__ import annotations

import argparse
import os
import random
import time

import playtest
from playtest import CHANCE, SIMULTANEOUS
from playtest.bots import MCTSBot


def positions(game, count: int, seed: int) -> list[tuple[object, int]]:
    """(state, seat) pairs where a seat decides, met along random games."""
    rng = random.Random(seed)
    found: list[tuple[object, int]] = []
    while len(found) < count:
        state = game.initial_state()
        step = 0
        while game.to_move(state) is not None and len(found) < count:
            mover = game.to_move(state)
            if mover == CHANCE:
                action = game.chance_outcome(state, rng)
            else:
                seat = game.pending_seats(state)[0] if mover == SIMULTANEOUS else mover
                if step % 7 == 3 and len(game.legal_actions(state, seat)) > 1:
                    found.append((game.determinize(state, seat, rng), seat))
                action = game.random_action(state, rng)
            state = game.apply(state, action, check=False)
            step += 1
    return found


def measure(name: str, iterations: int, count: int, seconds: float) -> tuple[float, float, int, int]:
    """Iterations per CPU second and per wall-clock second, iterations timed, positions searched."""
    game = playtest.load(name)
    spots = positions(game, count, seed=1)
    searched = done = 0
    cpu, wall = time.process_time(), time.perf_counter()
    for k, (state, seat) in enumerate(spots):
        bot = MCTSBot(iterations=iterations, seed=k)
        bot.choose(game, state, seat=seat)
        searched += bot.iterations_run
        done += 1
        if time.perf_counter() - wall > seconds:
            break
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return searched / cpu, searched / wall, searched, done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=50, help="iterations per decision")
    parser.add_argument("--positions", type=int, default=20, help="decision positions per game")
    parser.add_argument("--seconds", type=float, default=10.0, help="stop a game's positions after this long")
    parser.add_argument("--games", nargs="*", default=None, help="games to time (default: all, and secret_bid)")
    args = parser.parse_args()
    names = args.games or playtest.games() + ["secret_bid"]
    print(f"load average at the start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print("| game | iterations/s (CPU) | iterations/s (wall clock) | iterations timed (positions) | target |")
    print("| --- | --- | --- | --- | --- |")
    for name in names:
        per_cpu, per_wall, total, done = measure(name, args.iterations, args.positions, args.seconds)
        print(f"| {name} | {per_cpu:,.0f} | {per_wall:,.0f} | {total:,} ({done}) | none (reference) |", flush=True)
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
