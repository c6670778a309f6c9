"""Speed of the Back to the Wall rules, on one core.

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

Targets (this benchmark's own): at least 3 random 4-player games/s; listing a
seat's parts under 200 µs; resolving a round under 5 ms.

Run: ``.venv/bin/python benchmarks/bench_back_to_the_wall.py [--games N]``
"""

from __future__ import annotations

import argparse
import random
import sys
import statistics
import time
from pathlib import Path

import playtest
from playtest import SIMULTANEOUS
from playtest.bots import RandomBot
from playtest.games.back_to_the_wall import GreedyBot
from playtest.lab import play_game

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import random_games  # noqa: E402  (the shared benchmark helpers)


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


def best_of(call, repeat: int = 3) -> float:
    """The best of ``repeat`` runs of ``call``, in seconds of this process's CPU time."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        call()
        best = min(best, time.process_time() - t0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="random games to time")
    parser.add_argument("--batches", type=int, default=3, help="batches the games are timed in")
    parser.add_argument("--positions", type=int, default=2000, help="order positions to time")
    parser.add_argument("--rounds", type=int, default=200, help="round resolutions to time")
    parser.add_argument("--greedy", type=int, default=2, help="games of one greedy bot against three random "
                        "ones to time (0: skip)")
    args = parser.parse_args()

    game = playtest.load("back_to_the_wall")
    random_games(game, 2, seed=99)  # warm up the tables
    batch = max(1, args.games // args.batches)
    rates, cpu_rates, total, total_cpu, winners = [], [], 0.0, 0.0, {}
    for b in range(args.batches):
        seconds, cpu, outcomes = random_games(game, batch, seed=1 + b)
        rates.append(batch / seconds)
        cpu_rates.append(batch / cpu)
        total += seconds
        total_cpu += cpu
        for o in outcomes:
            key = "+".join(game.seats()[w].name for w in o.winners)
            winners[key] = winners.get(key, 0) + 1
    games = batch * args.batches
    print(f"random 4-player games:      {games / total_cpu:8.2f} games/s of CPU time "
          f"({games / total:.2f}/s wall clock, best batch {max(rates):.2f}/s; {games} games; winners {winners})"
          "   target >= 3")

    positions = order_positions(game, args.positions, seed=2)
    times = [best_of(lambda: game.legal_actions(state, seat)) * 1e6 for state, seat in positions]
    q = statistics.quantiles(times, n=100)
    print(f"a seat's legal parts:       {statistics.median(times):8.1f} µs median  "
          f"(p90 {q[89]:.1f} µs, max {max(times):.1f} µs; {len(times)} positions)   target < 200")

    states = resolving_states(game, args.rounds, seed=3)
    times = [best_of(lambda: game.resolve(state), repeat=2) * 1e3 for state in states]
    q = statistics.quantiles(times, n=100)
    print(f"resolving a round:          {statistics.median(times):8.2f} ms median  "
          f"(p90 {q[89]:.2f} ms, max {max(times):.2f} ms; {len(times)} rounds)   target < 5")

    if args.greedy:
        rng = random.Random(3)
        t0 = time.process_time()
        won = 0
        for k in range(args.greedy):
            state, _ = play_game(game, [GreedyBot(k), RandomBot(1), RandomBot(2), RandomBot(3)], rng)
            won += 0 in game.outcome(state).winners
        dt = time.process_time() - t0
        print(f"greedy vs 3 random (ref.):  {args.greedy / dt:8.2f} games/s of CPU time  "
              f"({args.greedy} games; the greedy seat won {won})")


if __name__ == "__main__":
    main()
