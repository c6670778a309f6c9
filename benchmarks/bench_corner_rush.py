"""Speed of the Corner Rush rules, on one core.

    python benchmarks/bench_corner_rush.py [--quick] [--seconds 5] [--games 300] [--positions 3000] [--greedy 50]

Prints:

* random 4-player games per second (random bots for every seat, the default
  ``max_turns`` of 200), played the way the lab plays them
  (``playtest.lab.play_game``, unchecked applies; every bot decision is handed a
  state redrawn from its seat's knowledge by ``determinize``), per second of
  this process's CPU time (the one-core figure, fair on a busy machine) and per
  second of wall-clock time;
* the same games with the rules alone: random players on the true state (a
  random player reads nothing hidden), to show what determinization costs;
* the time to list the legal actions of the player to move, and to determinize
  a position for the seat to move: medians over positions met in random games;
* the greedy bots, for reference.

The game loops stop after their games or after ``--seconds`` of wall-clock time
each, whichever comes first (at least one batch, one greedy game).

No target in the issues: the figures are reported. 200 random 4-player games/s,
as the lab plays them, was our own aim, not an issue's (and not met: a random
game is about 600 steps, half of them to ``max_turns``; see the README).
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

from common import parser, report  # noqa: E402

import playtest  # noqa: E402
from playtest.bots import RandomBot  # noqa: E402
from playtest.games.corner_rush import GreedyBot  # noqa: E402
from playtest.lab import play_game  # noqa: E402


def random_games(game, games: int, seed: int, rules_only: bool = False) -> tuple[float, float, list, int]:
    """common.random_games, counting the steps a game too, or with the rules alone (no determinization):
    (wall seconds, CPU seconds, outcomes, steps)."""
    rng = random.Random(seed)
    bots = [RandomBot(seed * 100 + s) for s in range(len(game.seats()))]
    outcomes, steps = [], 0
    started, cpu = time.perf_counter(), time.process_time()
    for _ in range(games):
        if rules_only:
            state, n = rules_only_game(game, rng)
        else:
            state, n = play_game(game, bots, rng)
        outcomes.append(game.outcome(state))
        steps += n
    return time.perf_counter() - started, time.process_time() - cpu, outcomes, steps


def rules_only_game(game, rng: random.Random) -> tuple:
    """A random game on the true state: what the rules cost without determinization."""
    state, steps = game.initial_state(), 0
    to_move, apply, chance, pick = game.to_move, game.apply, game.chance_outcome, game.random_action
    while (mover := to_move(state)) is not None:
        action = chance(state, rng) if mover == playtest.CHANCE else pick(state, rng)
        state = apply(state, action, check=False)
        steps += 1
    return state, steps


def positions(game, count: int, seed: int) -> list:
    """Positions where a seat is to move, met along random games."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.initial_state()
        while game.to_move(state) is not None and len(found) < count:
            mover = game.to_move(state)
            if mover == playtest.CHANCE:
                action = game.chance_outcome(state, rng)
            else:
                found.append(state)
                action = game.random_action(state, rng)
            state = game.apply(state, action, check=False)
    return found


def time_each(states: list, call, repeat: int = 3) -> list[float]:
    times = []
    for state in states:
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter()
            call(state)
            best = min(best, time.perf_counter() - t0)
        times.append(best * 1e6)
    return times


def describe(times: list[float]) -> str:
    q = statistics.quantiles(times, n=100)
    return (f"{statistics.median(times):.1f} µs median "
            f"(p90 {q[89]:.1f} µs, max {max(times):.1f} µs; {len(times)} positions)")


def counts(tally: dict) -> str:
    return ", ".join(f"{key} {n}" for key, n in tally.items())


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--games", type=int, default=300, help="random games to time")
    ap.add_argument("--batches", type=int, default=5, help="batches the games are timed in")
    ap.add_argument("--positions", type=int, default=3000, help="positions to time")
    ap.add_argument("--greedy", type=int, default=50, help="greedy-bot games to time (0: skip)")
    args = ap.parse_args()
    if args.quick:
        args.games, args.batches, args.positions, args.greedy, args.seconds = 10, 2, 200, 2, 1.0

    game = playtest.load("corner_rush", num_players=4)
    random_games(game, 2 if args.quick else 5, seed=99)  # warm up the tables
    batch = max(1, args.games // args.batches)
    rows = []
    for rules_only in (False, True):
        rates, total, total_cpu, steps, reasons = [], 0.0, 0.0, 0, {"draw": 0, "won": 0}
        for b in range(args.batches):
            if b and total >= args.seconds:
                break
            seconds, cpu, outcomes, n = random_games(game, batch, seed=1 + b, rules_only=rules_only)
            rates.append(batch / seconds)
            total += seconds
            total_cpu += cpu
            steps += n
            for o in outcomes:
                reasons["draw" if o.is_draw else "won"] += 1
        games = batch * len(rates)
        label = ("random 4-player games, rules alone (true state)" if rules_only
                 else "random 4-player games, as the lab plays them")
        rows.append((label, f"{games / total_cpu:.1f} games/s of CPU time ({games / total:.1f}/s wall clock, "
                     f"best batch {max(rates):.1f}/s; {games} games, {steps / games:.0f} steps a game; "
                     f"{counts(reasons)})", "", None))

    states = positions(game, args.positions, seed=2)
    rows.append(("legal actions of the player to move", describe(time_each(states, game.legal_actions)), "", None))
    rng = random.Random(5)
    rows.append(("determinize for the mover",
                 describe(time_each(states, lambda s: game.determinize(s, s.mover, rng))), "", None))

    if args.greedy:
        rng = random.Random(3)
        t0 = time.perf_counter()
        results = {"draw": 0}
        played = 0
        while played < args.greedy and (played == 0 or time.perf_counter() - t0 < args.seconds):
            state, _ = play_game(game, lambda: GreedyBot(seed=1), rng)
            o = game.outcome(state)
            key = "draw" if o.is_draw else game.seats()[o.winners[0]].name
            results[key] = results.get(key, 0) + 1
            played += 1
        dt = time.perf_counter() - t0
        rows.append(("greedy bots (reference)", f"{played / dt:.1f} games/s ({played} games; {counts(results)})",
                     "", None))
    report(rows, "Corner Rush, random games" + (" (--quick: a smoke run, not a measurement)" if args.quick else ""))


if __name__ == "__main__":
    main()
