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
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from common import parser, random_games, report  # noqa: E402

import playtest  # noqa: E402
from playtest.games.then_there_was_one import GreedyTokenBot, GreedyWallBot  # noqa: E402
from playtest.lab import play_game  # noqa: E402

GAMES_TARGET = 25  # random 4-player games/s
LISTING_TARGET = 100  # µs to list a token's legal next steps


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


def result(o) -> str:
    return "draw" if o.is_draw else ("tokens" if 0 not in o.winners else "wall")


def counts(tally: dict) -> str:
    return ", ".join(f"{key} {n}" for key, n in tally.items())


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
    # several batches, so a busy machine shows as spread rather than as a slow rules engine
    batch = max(1, args.games // args.batches)
    rates, reasons, total, total_cpu = [], {}, 0.0, 0.0
    for b in range(args.batches):
        if b and total >= args.seconds:
            break
        seconds, cpu, outcomes = random_games(game, batch, seed=1 + b)
        rates.append(batch / seconds)
        total += seconds
        total_cpu += cpu
        for o in outcomes:
            reasons[result(o)] = reasons.get(result(o), 0) + 1
    games = batch * len(rates)
    rows = [("random 4-player games", f"{games / total_cpu:.1f} games/s of CPU time ({games / total:.1f}/s wall clock, "
             f"best batch {max(rates):.1f}/s; {games} games; results {counts(reasons)})",
             f">= {GAMES_TARGET} games/s", games / total_cpu >= GAMES_TARGET)]

    states = token_positions(game, args.positions, seed=2)
    times = time_listing(game, states)
    q = statistics.quantiles(times, n=100)
    median = statistics.median(times)
    rows.append(("token legal next steps", f"{median:.1f} µs median (p90 {q[89]:.1f} µs, p99 {q[98]:.1f} µs, "
                 f"max {max(times):.1f} µs; {len(times)} positions)",
                 f"< {LISTING_TARGET} µs", median < LISTING_TARGET))

    if args.greedy:
        bots = {0: GreedyWallBot(), 1: GreedyTokenBot(), 2: GreedyTokenBot(), 3: GreedyTokenBot()}
        rng = random.Random(3)
        t0 = time.perf_counter()
        results: dict[str, int] = {}
        played = 0
        while played < args.greedy and (played == 0 or time.perf_counter() - t0 < args.seconds):
            state, _ = play_game(game, bots, rng)
            key = result(game.outcome(state))
            results[key] = results.get(key, 0) + 1
            played += 1
        dt = time.perf_counter() - t0
        rows.append(("greedy bots (reference)",
                     f"{played / dt:.1f} games/s ({played} games; results {counts(results)})", "", None))
    report(rows, "Then There Was One, random games"
           + (" (--quick: a smoke run, not a measurement)" if args.quick else ""))


if __name__ == "__main__":
    main()
