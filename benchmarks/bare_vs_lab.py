"""Random games through the lab against a bare reading of the same rules, as a ratio measured in one run.

    python benchmarks/bare_vs_lab.py [--quick] [--seconds 5] [--games back_to_the_wall ...]

For each game with a bare reading here (``benchmarks/bare_<game>.py``: plain tuples, whole orders,
the rules and nothing else, written apart from the kit), batches of random games are played
alternately by the lab's runner (``playtest.lab._play.play_one``: the random bot in every seat,
every step as ``simulate`` plays it) and by the bare reading, until ``--seconds`` of CPU time have
passed for each (at least three batches); games per second of this process's CPU time, and the
ratio lab / bare. Alternating batches keeps a busy machine from favouring either side.

Targets (issue 27): Back to the Wall x0.5 (against a reading that submits whole orders; the lab's
random bot builds its orders part by part, as a player does), Corner Rush x1.0, Then There Was
One x0.25, Eat Thyself x0.6. A game without a bare reading here is listed as not measured.
"""

from __future__ import annotations

import importlib
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from common import parser, report  # noqa: E402

import playtest  # noqa: E402
from playtest.lab._play import Job, play_one  # noqa: E402

TARGETS = {"back_to_the_wall": 0.5, "corner_rush": 1.0, "then_there_was_one": 0.25, "eat_thyself": 0.6}


def lab_batch(game, start: int, count: int) -> float:
    job = Job(game, "random", seed=1)
    cpu = time.process_time()
    for index in range(start, start + count):
        play_one(job, index)
    return time.process_time() - cpu


def bare_batch(module, start: int, count: int) -> float:
    cpu = time.process_time()
    for index in range(start, start + count):
        module.play(random.Random(index))
    return time.process_time() - cpu


def compare(name: str, seconds: float, batch: int) -> tuple[float, float]:
    """(lab games/s, bare games/s), CPU time, batches alternated."""
    module = importlib.import_module(f"bare_{name}")
    game = playtest.load(name)
    lab_time = bare_time = 0.0
    lab_games = bare_games = 0
    rounds = 0
    while rounds < 3 or min(lab_time, bare_time) < seconds:
        lab_time += lab_batch(game, lab_games, batch)
        lab_games += batch
        bare_time += bare_batch(module, bare_games, batch * 4)
        bare_games += batch * 4
        rounds += 1
    return lab_games / lab_time, bare_games / bare_time


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--games", nargs="*", default=list(TARGETS), help="games (default: the four with targets)")
    ap.add_argument("--batch", type=int, default=5, help="lab games per batch (the bare reading plays 4x as many)")
    args = ap.parse_args()
    if args.quick:
        args.seconds, args.batch = 0.5, 1
    rows = []
    for name in args.games:
        target = TARGETS.get(name)
        wanted = f">= x{target}" if target is not None else "(reported)"
        if not (HERE / f"bare_{name}.py").exists():
            rows.append((f"{name}: lab / bare reading", "no bare reading written yet: not measured", wanted, None))
            continue
        lab, bare = compare(name, args.seconds, args.batch)
        ratio = lab / bare
        rows.append((f"{name}: lab / bare reading",
                     f"x{ratio:.2f} (lab {lab:.1f} games/s, bare {bare:.1f} games/s, CPU time)", wanted,
                     ratio >= target if target is not None else None))
        print(f"{name}: lab {lab:.1f}/s, bare {bare:.1f}/s, x{ratio:.2f}", file=sys.stderr, flush=True)
    report(rows, "Random games through the lab against bare readings (one run)")


if __name__ == "__main__":
    main()
