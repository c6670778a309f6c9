"""Random games of Source per second, on one core.

    python benchmarks/bench_source.py [--quick] [--seconds 5] [--games 1000]

It plays random games the way :func:`playtest.simulate` does (a
:class:`~playtest.bots.RandomBot` per seat, ``apply(..., check=False)``) and
prints games and actions per second: with the default parameters, then with
three other parameter sets (a fifth of the games each, at least 50), then the
actions per second through the checked path (``legal_actions`` and ``apply``
with its check, a twentieth of the games, at least 20). Each loop stops after
its games or after ``--seconds``, whichever comes first; rates are per second
of wall-clock time (CPU time beside it).

Target: at least 200 random games per second with the default parameters.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from common import parser, report  # noqa: E402

import playtest  # noqa: E402
from playtest.bots import RandomBot  # noqa: E402
from playtest.lab import play_game  # noqa: E402

TARGET = 200
PARAMETER_SETS = ({"territory_mode": "region"}, {"connection_through_partner": True},
                  {"ap_per_turn": 3, "end_timing": "end_of_round"})


def bench(games: int, seconds: float, **params) -> tuple[int, float, float, float]:
    """Random games until ``games`` are played or ``seconds`` have passed (at least one):
    (games played, wall seconds, CPU seconds, actions)."""
    game = playtest.load("source", **params)
    bots = [RandomBot(1), RandomBot(2)]
    rng = random.Random(0)
    played = steps = 0
    started, cpu = time.perf_counter(), time.process_time()
    while played < games and (played == 0 or time.perf_counter() - started < seconds):
        _, n = play_game(game, bots, rng)
        steps += n
        played += 1
    return played, time.perf_counter() - started, time.process_time() - cpu, steps


def bench_check(games: int, seconds: float) -> tuple[int, float]:
    """Actions through the checked path (legal_actions + apply with check): (games played, actions/s)."""
    game = playtest.load("source")
    rng = random.Random(0)
    played = steps = 0
    started = time.perf_counter()
    while played < games and (played == 0 or time.perf_counter() - started < seconds):
        state = game.initial_state()
        while game.to_move(state) is not None:
            state = game.apply(state, rng.choice(game.legal_actions(state)))
            steps += 1
        played += 1
    return played, steps / (time.perf_counter() - started)


def rates(games: int, wall: float, cpu: float, steps: int) -> str:
    return (f"{games / wall:,.0f} games/s ({games / cpu:,.0f}/s of CPU time), {steps / wall:,.0f} actions/s; "
            f"{steps / games:.1f} actions a game, {games:,} games")


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--games", type=int, default=1000, help="random games with the default parameters")
    args = ap.parse_args()
    games = 100 if args.quick else args.games
    seconds = 0.5 if args.quick else args.seconds
    others = max(10 if args.quick else 50, games // 5)
    checked = max(5 if args.quick else 20, games // 20)

    bench(10 if args.quick else 50, seconds)  # warm up
    rows = []
    played, wall, cpu, steps = bench(games, seconds)
    rate = played / wall
    rows.append(("random games, default rules", rates(played, wall, cpu, steps),
                 f">= {TARGET} games/s", rate >= TARGET))
    for params in PARAMETER_SETS:
        shown = ", ".join(f"{k}={v}" for k, v in params.items())
        rows.append((f"random games, {shown}", rates(*bench(others, seconds, **params)), "", None))
    played, per_second = bench_check(checked, seconds)
    rows.append(("checked path (legal_actions + apply with check)",
                 f"{per_second:,.0f} actions/s ({played:,} games)", "", None))
    report(rows, "Source, random games" + (" (--quick: a smoke run, not a measurement)" if args.quick else ""))


if __name__ == "__main__":
    main()
