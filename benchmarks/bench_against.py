"""Today's kit against an earlier revision, game by game, as ratios measured in one run.

    python benchmarks/bench_against.py [--quick] [--seconds 3] [--against b5379ed] [--games ...]
        [--measures rules lab session mcts]

Issue 22 (the declared kernel) asks that the declared machinery not slow the games: random
playouts and session save + load within 10% of the revision before it, and MCTS iterations/s
likewise. This script checks that. It unpacks the package at ``--against`` (default ``b5379ed``,
the last revision before the declared kernel) from git into a temporary folder and starts two
worker processes (``_against_worker.py``), one importing today's ``playtest`` and one the old,
which run the same measuring code through the API both share. Batches go to the two workers in
turn until each has spent ``--seconds`` of CPU time (at least three batches each), so a busy
machine slows both alike; each figure is work per CPU second of the worker, and the ratio is
today / then (above 1: faster today).

Measures, for each game:

* ``rules``: random games through the rules alone (``random_action``, then ``apply`` unchecked,
  until the game ends);
* ``lab``: random games as the lab plays them (``playtest.lab.play_game``, a ``RandomBot`` a
  seat; today a game's own ``random_playout`` where it has one);
* ``session``: save + load of a session of ``--moves`` random moves (load replays every action
  through the rules); each side saves its own file, and today's holds more (a time a move, added
  after the declared kernel, for the analytics);
* ``load``: both sides load the same file, written by the earlier revision (the rules' and the
  replay's share of ``session``, without today's extra fields);
* ``mcts``: MCTS decisions of ``--iterations`` iterations from positions met in random play.

Both sides play the same policy only if their random choices are the same: the rows print the
mean moves a game on each side (``rules`` and ``lab``), which should be close.

Target (issue 22): every ratio at least x0.9.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from common import parser, report  # noqa: E402

GAMES = ("eat_thyself", "source", "then_there_was_one", "corner_rush", "back_to_the_wall", "secret_bid")
MEASURES = ("rules", "lab", "session", "load", "mcts")
TARGET = 0.9


def unpack(revision: str, into: Path) -> Path:
    """The package at ``revision``, unpacked into ``into`` (``git archive``: nothing is checked out)."""
    data = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", revision, "playtest"],
                          check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


class Worker:
    """A child process measuring the ``playtest`` under ``root``."""

    def __init__(self, root: Path):
        env = {"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0"}
        self.process = subprocess.Popen([sys.executable, str(HERE / "_against_worker.py")], cwd=str(root),
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)

    def ask(self, **request: object) -> tuple[float, float]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the worker stopped on {request}")
        answer = json.loads(line)
        return answer["cpu"], answer["figure"]

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=30)


def measure(workers: dict[str, Worker], seconds: float, **request: object) -> dict[str, tuple[float, float]]:
    """Batches in turn on each side until both spent ``seconds`` (at least three each): per side
    (work per CPU second, the mean policy figure)."""
    count = int(request.pop("count"))  # type: ignore[call-overload]
    for worker in workers.values():     # a first batch each, not timed: imports, caches, the session built
        worker.ask(count=1, start=10_000, **request)
    spent = {side: 0.0 for side in workers}
    done = {side: 0 for side in workers}
    figures: dict[str, list[float]] = {side: [] for side in workers}
    start, batches = 0, 0
    while batches < 3 or min(spent.values()) < seconds:
        for side, worker in workers.items():
            cpu, figure = worker.ask(count=count, start=start, **request)
            spent[side] += cpu
            done[side] += count
            figures[side].append(figure)
        start += count
        batches += 1
    return {side: (done[side] / spent[side], sum(figures[side]) / len(figures[side])) for side in workers}


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--against", default="b5379ed", help="the earlier revision (default b5379ed)")
    ap.add_argument("--games", nargs="*", default=list(GAMES), help="games to time (default: all six)")
    ap.add_argument("--measures", nargs="*", default=list(MEASURES), choices=MEASURES)
    ap.add_argument("--moves", type=int, default=300, help="moves in the saved session (default 300)")
    ap.add_argument("--iterations", type=int, default=100, help="MCTS iterations a decision (default 100)")
    args = ap.parse_args()
    seconds = 0.3 if args.quick else args.seconds
    with tempfile.TemporaryDirectory(prefix="bench-against-") as tmp:
        old = unpack(args.against, Path(tmp))
        workers = {"today": Worker(ROOT), "then": Worker(old)}
        rows = []
        try:
            for name in args.games:
                for what in args.measures:
                    request: dict[str, object] = {"measure": what, "game": name}
                    if what in ("rules", "lab"):
                        request["count"] = 2 if name == "back_to_the_wall" else 10
                        unit, shown = "games", "moves a game"
                    elif what == "session":
                        request.update(count=1, moves=40 if args.quick else args.moves)
                        unit, shown = "save+loads", "positions"
                    elif what == "load":
                        path = str(Path(tmp) / f"{name}-then.json")
                        workers["then"].ask(measure="write", game=name, count=0, start=0, path=path,
                                            moves=40 if args.quick else args.moves)
                        request.update(count=1, path=path)
                        unit, shown = "loads", "positions"
                    else:
                        request.update(count=1, iterations=20 if args.quick else args.iterations)
                        unit, shown = "decisions", "iterations"
                    got = measure(workers, seconds, **request)
                    (today, f_today), (then, f_then) = got["today"], got["then"]
                    ratio = today / then
                    per = (f"{today * f_today:,.0f} vs {then * f_then:,.0f} iterations/s" if what == "mcts" else
                           f"{today:,.1f} vs {then:,.1f} {unit}/s")
                    policy = f"; {shown}: {f_today:.1f} vs {f_then:.1f}" if what in ("rules", "lab") else ""
                    rows.append((f"{name}: {what}", f"x{ratio:.2f} ({per}{policy})", f">= x{TARGET}",
                                 ratio >= TARGET))
                    print(f"{name} {what}: x{ratio:.2f} ({per}{policy})", flush=True)
        finally:
            for worker in workers.values():
                worker.close()
    report(rows, title=f"Today against {args.against} (one run, CPU time per worker)")


if __name__ == "__main__":
    main()
