"""Every game OpenSpiel lists, at the kit's table: which load and play, and why the others are refused.

    python tools/openspiel_sweep.py [--moves 40] [--timeout 60] [--games go breakthrough ...]

Each game runs in a process of its own (an OpenSpiel game that crashes or hangs takes only its own
process): ``playtest.load("openspiel:<name>")`` with the default parameters, a session saved to a
file, ``--moves`` uniformly random legal moves (seeded), every seat's view and the table's, the file
loaded again and compared. A line a game: ``ok`` with the time, ``refused`` with the kit's reason,
or ``FAILED`` with what went wrong; then the tally. Needs the ``interop`` extra.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter

ONE = r"""
import os, random, sys, tempfile, time
import playtest
name, moves = sys.argv[1], int(sys.argv[2])
start = time.process_time()
try:
    game = playtest.load("openspiel:" + name)
except ValueError as exc:
    print("refused", str(exc).replace("\n", " ")[:220])
    sys.exit(0)
path = os.path.join(tempfile.mkdtemp(), "sweep.playtest.json")
session = playtest.Session.open(path, game, seed=1)
rng = random.Random(1)
for _ in range(moves):
    actions = session.legal_actions()
    if not actions:
        break
    session.play(rng.choice(actions))
for seat in list(range(len(game.seats()))) + [None]:
    game.view(session.state, seat)
assert playtest.Session.open(path, game).state == session.state, "the file loads another position"
print("ok", f"{time.process_time() - start:.2f} s CPU")
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--games", nargs="*", default=None)
    args = parser.parse_args()
    import pyspiel

    names = args.games or sorted(t.short_name for t in pyspiel.registered_games())
    tally: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as folder:
        script = os.path.join(folder, "one.py")
        with open(script, "w", encoding="utf-8") as f:
            f.write(ONE)
        for name in names:
            began = time.monotonic()
            try:
                done = subprocess.run([sys.executable, script, name, str(args.moves)], capture_output=True,
                                      text=True, timeout=args.timeout)
                lines = done.stdout.strip().splitlines()
                said = lines[-1] if lines and done.returncode == 0 else \
                    f"FAILED (exit {done.returncode}) {(done.stderr.strip().splitlines() or [''])[-1][:200]}"
            except subprocess.TimeoutExpired:
                said = f"FAILED (no answer in {args.timeout:g} s)"
            tally[said.split()[0]] += 1
            print(f"{name}: {said}  [{time.monotonic() - began:.1f} s]", flush=True)
    print(", ".join(f"{count} {what}" for what, count in sorted(tally.items())), f"of {len(names)} games")
    return 1 if tally["FAILED"] else 0


if __name__ == "__main__":
    sys.exit(main())
