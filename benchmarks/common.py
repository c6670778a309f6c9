"""The shared shape of the benchmark scripts: the same options, a table of figures beside targets.

Every script takes ``--quick`` (smaller sizes, for a smoke run) and ``--seconds`` (how long a
timed loop runs), and prints a Markdown table ``| measure | measured | target | met |``. Targets
come from the issues; a benchmark checks them, never a timed unit test. Where two figures are
compared they are measured in one run, as a ratio, since these machines are noisy.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Callable, Iterable

__all__ = ["parser", "report", "best_of", "load_note", "random_games", "random_game_rate", "counts",
           "spread", "games_within", "positions_met", "time_each"]


def parser(doc: str | None) -> argparse.ArgumentParser:
    """The common options; a script adds its own."""
    first = (doc or "").strip().splitlines()[0] if doc else ""
    ap = argparse.ArgumentParser(description=first)
    ap.add_argument("--quick", action="store_true", help="smaller sizes: a smoke run, not a measurement")
    ap.add_argument("--seconds", type=float, default=5.0, help="how long each timed loop runs")
    return ap


def best_of(repeat: int, work: Callable[[], object]) -> float:
    """The median of ``repeat`` timings of ``work`` (seconds)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def load_note() -> str:
    """The machine's load while measuring (figures on a loaded machine run slow)."""
    try:
        one, _, _ = os.getloadavg()
    except OSError:
        return ""
    return f"load average {one:.1f} on {os.cpu_count()} cores"


def report(rows: Iterable[tuple[str, str, str, bool | None]], title: str = "") -> None:
    """Print ``(measure, measured, target, met)`` rows as a Markdown table (met None: no target)."""
    if title:
        print(f"### {title}\n")
    print("| measure | measured | target | met |")
    print("| --- | --- | --- | --- |")
    for measure, measured, target, met in rows:
        mark = "" if met is None else ("yes" if met else "**no**")
        print(f"| {measure} | {measured} | {target} | {mark} |")
    note = load_note()
    if note:
        print(f"\n({note})")


def random_games(game, games: int, seed: int, play=None) -> tuple[float, float, list, int]:
    """Play ``games`` random games as the lab plays them (one ``RandomBot`` a seat), or with
    ``play(game, rng) -> (state, steps)``: (wall seconds, CPU seconds, outcomes, steps)."""
    import random

    from playtest.bots import RandomBot
    from playtest.lab import play_game

    rng = random.Random(seed)
    bots = [RandomBot(seed * 100 + s) for s in range(len(game.seats()))]
    outcomes, steps = [], 0
    started, cpu = time.perf_counter(), time.process_time()
    for _ in range(games):
        state, n = play(game, rng) if play is not None else play_game(game, bots, rng)
        outcomes.append(game.outcome(state))
        steps += n
    return time.perf_counter() - started, time.process_time() - cpu, outcomes, steps


def counts(tally: dict) -> str:
    """``{"draw": 3, "won": 7}`` as ``draw 3, won 7``."""
    return ", ".join(f"{key} {n}" for key, n in tally.items())


def random_game_rate(game, games: int, batches: int, seconds: float, tally, play=None) -> tuple[float, str]:
    """Random games in ``batches`` batches (seeds 1, 2, ...), stopping once ``seconds`` have passed
    (after one batch at least): a busy machine shows as a spread of batch rates, not as slow rules.
    ``tally(outcome)`` names an outcome. Returns (games per CPU second, the figure in words)."""
    batch = max(1, games // batches)
    rates, wall, cpu, steps, tallied = [], 0.0, 0.0, 0, {}
    for b in range(batches):
        if b and wall >= seconds:
            break
        seconds_b, cpu_b, outcomes, steps_b = random_games(game, batch, seed=1 + b, play=play)
        rates.append(batch / seconds_b)
        wall, cpu, steps = wall + seconds_b, cpu + cpu_b, steps + steps_b
        for outcome in outcomes:
            key = tally(outcome)
            tallied[key] = tallied.get(key, 0) + 1
    played = batch * len(rates)
    rate = played / cpu

    def shown(x: float) -> str:
        return f"{x:.2f}" if x < 10 else f"{x:.1f}"

    return rate, (f"{shown(rate)} games/s of CPU time ({shown(played / wall)}/s wall clock, best batch "
                  f"{shown(max(rates))}/s; {played} games, {steps / played:.0f} steps a game; {counts(tallied)})")


def spread(times: list[float], unit: str, what: str, digits: int = 1, p99: bool = False) -> str:
    """Timings as ``median (p90, [p99,] max; n what)``."""
    q = statistics.quantiles(times, n=100)
    extra = f", p99 {q[98]:.{digits}f} {unit}" if p99 else ""
    return (f"{statistics.median(times):.{digits}f} {unit} median (p90 {q[89]:.{digits}f} {unit}{extra}, "
            f"max {max(times):.{digits}f} {unit}; {len(times)} {what})")


def games_within(play_one, games: int, seconds: float, tally) -> tuple[int, float, dict]:
    """Play ``play_one()`` (it returns an outcome) up to ``games`` times or until ``seconds`` of
    wall-clock time have passed (one game at least): (games played, CPU seconds, ``tally(outcome)`` counts)."""
    started, cpu = time.perf_counter(), time.process_time()
    played, tallied = 0, {}
    while played < games and (played == 0 or time.perf_counter() - started < seconds):
        key = tally(play_one())
        tallied[key] = tallied.get(key, 0) + 1
        played += 1
    return played, time.process_time() - cpu, tallied


def positions_met(game, count: int, seed: int, keep=None) -> list:
    """``count`` positions where a seat is to move (and ``keep(state)`` holds), met along seeded
    random games."""
    import random

    from playtest.rules import CHANCE

    rng = random.Random(seed)
    found: list = []
    while len(found) < count:
        state = game.initial_state()
        while game.to_move(state) is not None and len(found) < count:
            if game.to_move(state) == CHANCE:
                action = game.chance_outcome(state, rng)
            else:
                if keep is None or keep(state):
                    found.append(state)
                action = game.random_action(state, rng)
            state = game.apply(state, action, check=False)
    return found


def time_each(states: list, call, repeat: int = 3) -> list[float]:
    """Microseconds of ``call(state)`` for each state, the best of ``repeat`` runs."""
    times = []
    for state in states:
        best = float("inf")
        for _ in range(repeat):
            started = time.perf_counter()
            call(state)
            best = min(best, time.perf_counter() - started)
        times.append(best * 1e6)
    return times
