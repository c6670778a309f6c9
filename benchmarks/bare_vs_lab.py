"""Random games through the lab against a bare reading of the same rules, as a ratio measured in one run.

    python benchmarks/bare_vs_lab.py [--quick] [--seconds 5] [--games back_to_the_wall ...]

For each game with a bare reading here (``benchmarks/bare_<game>.py``: plain tuples, whole orders,
the rules and nothing else, written apart from the kit), batches of random games are played
alternately by the lab's runner (``playtest.lab._play.play_one``: the random bot in every seat,
every step as ``simulate`` plays it; in a game that writes ``Game.random_playout``, Corner Rush and
Eat Thyself, that is the game's own random play on its compact form, the same games and rows; one
``Job`` for the whole run, as ``simulate`` makes one: the bots' recipe and the game's plan are worked
out once, not once a batch) and by the bare reading, until ``--seconds`` of CPU time have
passed for each (at least three batches); games per second of this process's CPU time, and the
ratio lab / bare. Alternating batches keeps a busy machine from favouring either side.

Targets (issue 27): Back to the Wall x0.5 (against a reading that submits whole orders; the lab's
random bot writes whole orders too, the game's ``random_order_parts``, entered one part a step,
as a player does), Corner Rush x1.0, Then There Was One x0.25, Eat Thyself x0.6. A game without
a bare reading here is listed as not measured.

A ratio means something only if both sides play the same random policy. So each game is first
played ``--policy-games`` times (default 300) on each side, and a policy-dependent measure
compared (the bare module's ``MEASURE``: turns a game, walls built...): its mean on each side
with standard errors; the row says "same policy" when the two means are within three
combined standard errors, and "POLICIES DIFFER" (the ratio then meaningless) otherwise.
"""

from __future__ import annotations

import importlib
import math
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
from playtest.lab._play import Job, play_one  # noqa: E402

TARGETS = {"back_to_the_wall": 0.5, "corner_rush": 1.0, "then_there_was_one": 0.25, "eat_thyself": 0.6}


def lab_batch(job: Job, start: int, count: int) -> float:
    cpu = time.process_time()
    for index in range(start, start + count):
        play_one(job, index)
    return time.process_time() - cpu


def bare_batch(module, start: int, count: int) -> float:
    cpu = time.process_time()
    for index in range(start, start + count):
        module.play(random.Random(index))
    return time.process_time() - cpu


def policy(name: str, module, games: int) -> tuple[str, bool]:
    """The bare module's measure over ``games`` random games on each side: (the figure in words, agree)."""
    game = playtest.load(name)
    job = Job(game, "random", seed=2)
    lab = [module.kit_measure(play_one(job, i, record=True)["final"]) for i in range(games)]
    bare = [module.measure(random.Random(10_000 + i)) for i in range(games)]
    (m1, s1), (m2, s2) = [(statistics.fmean(x), statistics.stdev(x) / math.sqrt(len(x))) for x in (lab, bare)]
    agree = abs(m1 - m2) <= 3 * math.hypot(s1, s2)
    return (f"{module.MEASURE}: lab {m1:.1f} ± {s1:.1f}, bare {m2:.1f} ± {s2:.1f} over {games} games each, "
            f"{'same policy' if agree else 'POLICIES DIFFER'}"), agree


def compare(name: str, seconds: float, batch: int) -> tuple[float, float]:
    """(lab games/s, bare games/s), CPU time, batches alternated."""
    module = importlib.import_module(f"bare_{name}")
    game = playtest.load(name)
    job = Job(game, "random", seed=1)           # one job for the run, as simulate makes it
    lab_time = bare_time = 0.0
    lab_games = bare_games = 0
    rounds = 0
    while rounds < 3 or min(lab_time, bare_time) < seconds:
        lab_time += lab_batch(job, lab_games, batch)
        lab_games += batch
        bare_time += bare_batch(module, bare_games, batch * 4)
        bare_games += batch * 4
        rounds += 1
    return lab_games / lab_time, bare_games / bare_time


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--games", nargs="*", default=list(TARGETS), help="games (default: the four with targets)")
    ap.add_argument("--batch", type=int, default=5, help="lab games per batch (the bare reading plays 4x as many)")
    ap.add_argument("--policy-games", type=int, default=300, help="games a side for the policy check")
    args = ap.parse_args()
    if args.quick:
        args.seconds, args.batch, args.policy_games = 0.5, 1, 20
    rows = []
    for name in args.games:
        target = TARGETS.get(name)
        wanted = f">= x{target}" if target is not None else "(reported)"
        if not (HERE / f"bare_{name}.py").exists():
            rows.append((f"{name}: lab / bare reading", "no bare reading written yet: not measured", wanted, None))
            continue
        module = importlib.import_module(f"bare_{name}")
        same, agree = policy(name, module, args.policy_games)
        lab, bare = compare(name, args.seconds, args.batch)
        ratio = lab / bare
        rows.append((f"{name}: lab / bare reading",
                     f"x{ratio:.2f} (lab {lab:.1f} games/s, bare {bare:.1f} games/s, CPU time; {same})", wanted,
                     ratio >= target and agree if target is not None else None))
        print(f"{name}: lab {lab:.1f}/s, bare {bare:.1f}/s, x{ratio:.2f}", file=sys.stderr, flush=True)
    report(rows, "Random games through the lab against bare readings (one run)")


if __name__ == "__main__":
    main()
