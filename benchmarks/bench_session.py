"""Session files and tables: save + load, the cost of one autosaved move, tables of one session.

    python benchmarks/bench_session.py [--quick] [--seconds 5] [--positions 10000]

Targets (issue 8):
* save plus load of a 10,000-position session under 0.3 s (load replays every action through
  the rules);
* one autosaved move at 10,000 positions costs at most 1.5x what it costs at 100 positions
  (the journal appends one line: constant time);
* with 5 tables of one session open, all on screen, a move costs at most 2x what it costs with
  one. Tables share one scene, log and branch menu per change, each encoded once as JSON text
  that every table sends as it is; a table with no view left on screen (its cell was run again,
  its output cleared) rests until a view opens, and that figure is printed too.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from common import best_of, parser, report  # noqa: E402

import playtest  # noqa: E402


def build(positions: int, path: Path | None = None) -> playtest.Session:
    """A session of random Eat Thyself play with branches, notes and parameter changes."""
    session = playtest.Session(playtest.load("eat_thyself", max_turns=100000), seed=1, path=path)
    rng = random.Random(1)
    while session.positions() < positions:
        if session.is_over or rng.random() < 0.02:
            for _ in range(rng.randint(1, min(20, session.move_number))):
                session.undo()
        session.play(session.game.random_action(session.state, rng))
        if rng.random() < 0.01:
            session.note(f"note at move {session.move_number}")
    return session


def on_screen(table: "playtest.Table") -> None:
    """What the browser says when it draws a view of the board (as the board renderer does)."""
    table.board.receive({"type": "view", "open": True})


def move_cost(session: playtest.Session, seconds: float) -> float:
    """Median seconds of one play + undo pair (each autosaved, each redrawing the tables)."""
    rng = random.Random(2)
    times = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end or len(times) < 20:
        action = session.game.random_action(session.state, rng)
        start = time.perf_counter()
        session.play(action)
        session.undo()
        times.append(time.perf_counter() - start)
    times.sort()
    return times[len(times) // 2]


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--positions", type=int, default=10_000)
    args = ap.parse_args()
    positions = 1_000 if args.quick else args.positions
    seconds = 1.0 if args.quick else args.seconds
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        big = build(positions, tmp / "big.playtest.json")
        copy = tmp / "copy.playtest.json"

        def save_and_load() -> None:
            copy.unlink(missing_ok=True)
            big.save(copy)
            loaded = playtest.Session.load(copy)
            assert loaded.positions() == big.positions()

        both = best_of(3, save_and_load)
        size = copy.stat().st_size
        save = best_of(3, lambda: big.save())
        rows.append((f"save + load, {big.positions():,} positions ({size / 1e6:.2f} MB)",
                     f"{both * 1000:.0f} ms (save {save * 1000:.0f} ms)", "< 300 ms", both < 0.3))

        small = build(100, tmp / "small.playtest.json")
        cost_small, cost_big = move_cost(small, seconds), move_cost(big, seconds)
        ratio = cost_big / cost_small
        rows.append((f"autosaved move at {big.positions():,} vs 100 positions",
                     f"{cost_big * 1e3:.2f} ms vs {cost_small * 1e3:.2f} ms (x{ratio:.2f})", "<= x1.5",
                     ratio <= 1.5))

        session = build(500)
        one = playtest.Table(session)
        on_screen(one)
        cost_one = move_cost(session, seconds)
        more = [playtest.Table(session) for _ in range(4)]
        for table in more:
            on_screen(table)
        cost_all = move_cost(session, seconds)
        ratio = cost_all / cost_one
        rows.append(("a move with 5 tables of one session, all on screen, vs 1",
                     f"{cost_all * 1e3:.2f} ms vs {cost_one * 1e3:.2f} ms (x{ratio:.2f})", "<= x2", ratio <= 2))
        for table in more:               # displayed once, then their cells were run again
            table.board.receive({"type": "view", "open": False})
        cost_resting = move_cost(session, seconds)
        rows.append(("a move with 5 tables (1 on screen, 4 whose cells ran again) vs 1",
                     f"{cost_resting * 1e3:.2f} ms vs {cost_one * 1e3:.2f} ms (x{cost_resting / cost_one:.2f})",
                     "", None))
        for table in [one, *more]:
            table.close()
        closed = move_cost(session, seconds)
        rows.append(("a move after closing every table", f"{closed * 1e3:.2f} ms", "", None))
    report(rows, "Session files and tables")


if __name__ == "__main__":
    main()
