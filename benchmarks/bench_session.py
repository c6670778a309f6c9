"""Session files: save plus load of a 10,000-position session (load replays every action).

    python benchmarks/bench_session.py [--positions 10000] [--repeat 5]

Target (issue 2): save + load under 1 s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

import playtest


def build(positions: int) -> playtest.Session:
    """A session of random Eat Thyself play with branches, notes and parameter changes."""
    session = playtest.Session(playtest.load("eat_thyself", max_turns=100000))
    rng = random.Random(1)
    while session.positions() < positions:
        if session.is_over or rng.random() < 0.02:
            for _ in range(rng.randint(1, min(20, session.move_number))):
                session.undo()
        session.play(session.game.random_action(session.state, rng))
        if rng.random() < 0.01:
            session.note(f"note at move {session.move_number}")
    return session


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    session = build(args.positions)
    saves, loads = [], []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.playtest.json"
        for _ in range(args.repeat):
            start = time.perf_counter()
            session.save(path)
            saves.append(time.perf_counter() - start)
            start = time.perf_counter()
            loaded = playtest.Session.load(path)
            loads.append(time.perf_counter() - start)
        size = path.stat().st_size
    assert loaded.positions() == session.positions() and loaded.state == session.state
    save, load = statistics.median(saves), statistics.median(loads)
    print(f"| positions | file | save | load (replay) | save + load |")
    print(f"| --- | --- | --- | --- | --- |")
    print(f"| {session.positions():,} | {size / 1e6:.2f} MB | {save * 1000:.0f} ms | {load * 1000:.0f} ms | "
          f"{(save + load) * 1000:.0f} ms |")


if __name__ == "__main__":
    main()
