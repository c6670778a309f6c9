"""Kill test: SIGKILL an autosaving process at random moments; every file must load with every
returned call in it, and no temporary file may be left that the next open does not clean up.

    python benchmarks/kill_test.py [--kills 50] [--games eat_thyself,source,...] [--quick]

A child process opens a session file with ``Session.open`` (resuming what earlier children
wrote), then plays random actions, notes and undos, printing the number of positions and notes
after each call returns. The parent kills it after a random delay, reads the last line it
printed (what the child was told was saved), then opens the file itself: the positions and
notes must all be there. Targets (issues 8 and 9): at least 50 kills per game, every file loads,
no returned call lost.
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from common import parser, report  # noqa: E402

import playtest  # noqa: E402

CHILD = r"""
import random, sys
import playtest
path, game, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
session = playtest.Session.open(path, game, seed=seed)
print(session.positions(), len(session.notes), flush=True)      # opened: the parent's clock starts
rng = random.Random(seed)
while True:
    r = rng.random()
    if session.is_over or (r < 0.05 and session.can_undo):
        session.undo()
    elif r < 0.08:
        session.note(f"note {rng.random()}")
    elif session.to_move == playtest.CHANCE:
        session.roll()
    else:
        session.play(session.game.random_action(session.state, rng))
    print(session.positions(), len(session.notes), flush=True)
"""


def kill_once(path: Path, game: str, seed: int, rng: random.Random) -> tuple[bool, int, int]:
    """One child, one SIGKILL: (the file loaded, positions lost, notes lost)."""
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(path), game, str(seed)],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    first = child.stdout.readline()            # the session is open; now it plays
    time.sleep(rng.uniform(0.0, 0.4))
    child.send_signal(signal.SIGKILL)
    out, _ = child.communicate()
    lines = [line.split() for line in (first + out).splitlines() if len(line.split()) == 2]
    told_positions, told_notes = (int(lines[-1][0]), int(lines[-1][1])) if lines else (0, 0)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            session = playtest.Session.load(path)
    except playtest.SessionFileError:
        return False, told_positions, told_notes
    lost_positions = max(0, told_positions - session.positions())
    lost_notes = max(0, told_notes - len(session.notes))
    del session
    return True, lost_positions, lost_notes


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--kills", type=int, default=50, help="kills per game")
    ap.add_argument("--games", default=",".join(playtest.games() + ["secret_bid"]))
    args = ap.parse_args()
    kills = 5 if args.quick else args.kills
    rows = []
    rng = random.Random(2026)
    for game in args.games.split(","):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / f"{game}.playtest.json"
            loaded = lost = 0
            start = time.perf_counter()
            for k in range(kills):
                ok, lost_positions, lost_notes = kill_once(path, game, k, rng)
                loaded += ok
                lost += lost_positions + lost_notes
            playtest.Session.load(path)            # the next open cleans up after the last kill
            left = [p.name for p in Path(tmp).iterdir() if p.name.endswith(".tmp")]
            positions = playtest.Session.load(path).positions()
        rows.append((f"{game}: files that load after {kills} kills", f"{loaded}/{kills}", "all", loaded == kills))
        rows.append((f"{game}: returned calls lost", str(lost), "0", lost == 0))
        rows.append((f"{game}: temporary files left", str(len(left)), "0", not left))
        rows.append((f"{game}: positions recorded, time", f"{positions:,}, {time.perf_counter() - start:.0f} s",
                     "", None))
    report(rows, "Kill test (SIGKILL while autosaving)")


if __name__ == "__main__":
    main()
