"""Speed of the Corner Rush rules, on one core.

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
* the greedy bots, for reference (no target).

Target (issue 10): at least 200 random 4-player games/s, as the lab plays them.

Run: ``.venv/bin/python benchmarks/bench_corner_rush.py [--games N]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import playtest
from playtest.bots import RandomBot
from playtest.games.corner_rush import GreedyBot
from playtest.lab import play_game


def random_games(game, games: int, seed: int, rules_only: bool = False) -> tuple[float, float, list, int]:
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
    return f"{statistics.median(times):8.1f} µs median  (p90 {q[89]:.1f} µs, max {max(times):.1f} µs; {len(times)} positions)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="random games to time")
    parser.add_argument("--batches", type=int, default=5, help="batches the games are timed in")
    parser.add_argument("--positions", type=int, default=3000, help="positions to time")
    parser.add_argument("--greedy", type=int, default=50, help="greedy-bot games to time (0: skip)")
    args = parser.parse_args()

    game = playtest.load("corner_rush", num_players=4)
    random_games(game, 5, seed=99)  # warm up the tables
    batch = max(1, args.games // args.batches)
    for rules_only in (False, True):
        rates, total, total_cpu, steps, reasons = [], 0.0, 0.0, 0, {"draw": 0, "won": 0}
        for b in range(args.batches):
            seconds, cpu, outcomes, n = random_games(game, batch, seed=1 + b, rules_only=rules_only)
            rates.append(batch / seconds)
            total += seconds
            total_cpu += cpu
            steps += n
            for o in outcomes:
                reasons["draw" if o.is_draw else "won"] += 1
        games = batch * args.batches
        label = "rules alone (true state):" if rules_only else "random 4-player games:    "
        target = "" if rules_only else "   target >= 200"
        print(f"{label} {games / total_cpu:8.1f} games/s of CPU time ({games / total:.1f}/s wall clock, "
              f"best batch {max(rates):.1f}/s; {games} games, {steps / games:.0f} steps a game; {reasons}){target}")

    states = positions(game, args.positions, seed=2)
    print(f"legal actions:             {describe(time_each(states, game.legal_actions))}")
    rng = random.Random(5)
    print(f"determinize for the mover: {describe(time_each(states, lambda s: game.determinize(s, s.mover, rng)))}")

    if args.greedy:
        rng = random.Random(3)
        t0 = time.perf_counter()
        results = {"draw": 0}
        for _ in range(args.greedy):
            state, _ = play_game(game, lambda: GreedyBot(seed=1), rng)
            o = game.outcome(state)
            key = "draw" if o.is_draw else game.seats()[o.winners[0]].name
            results[key] = results.get(key, 0) + 1
        dt = time.perf_counter() - t0
        print(f"greedy bots (reference):   {args.greedy / dt:8.1f} games/s  ({args.greedy} games; results {results})")


if __name__ == "__main__":
    main()
