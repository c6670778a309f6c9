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

__all__ = ["parser", "report", "best_of", "load_note", "random_games"]


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


def random_games(game, games: int, seed: int) -> tuple[float, float, list]:
    """Play ``games`` random games as the lab plays them: (wall seconds, CPU seconds, outcomes)."""
    import random

    from playtest.bots import RandomBot
    from playtest.lab import play_game

    rng = random.Random(seed)
    bots = [RandomBot(seed * 100 + s) for s in range(len(game.seats()))]
    outcomes = []
    started, cpu = time.perf_counter(), time.process_time()
    for _ in range(games):
        state, _steps = play_game(game, bots, rng)
        outcomes.append(game.outcome(state))
    return time.perf_counter() - started, time.process_time() - cpu, outcomes
