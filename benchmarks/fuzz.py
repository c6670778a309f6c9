"""Hostile input, the long run: the fuzzers of tests/test_hostile_input.py with many more examples,
and 10 MB session files of many shapes, each loaded or refused within bounded time and memory.

    python benchmarks/fuzz.py [--quick] [--examples 400]

Targets (issue 9): every file of any shape up to 10 MB loads or is refused with SessionFileError
within seconds and a few hundred MB; the fuzzers find nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from common import parser, report  # noqa: E402

HEADER = {"format": "playtest-session", "version": 2, "game": "source", "params": {}, "seed": 1,
          "start": None, "created": ""}
MB = 1024 * 1024


def shapes(size: int) -> dict[str, bytes]:
    """Files of about ``size`` bytes, each hostile in its own way."""
    head = json.dumps(HEADER) + "\n"
    sibling = json.dumps({"node": {"parent": 0, "params": {"pass_limit": 5}}}) + "\n"
    undo = json.dumps({"current": 0}) + "\n"
    return {
        "one huge note": (head + json.dumps({"note": {"node": 0, "text": "x" * size}}) + "\n").encode(),
        "deep nesting": (head + "[" * (size // 2) + "]" * (size // 2) + "\n").encode(),
        "many lines of garbage": (head + "{]\n" * (size // 3)).encode(),
        "the same child again and again": (head + (sibling + undo) * (size // (len(sibling) + len(undo)))).encode(),
        "many current records": (head + undo * (size // len(undo))).encode(),
        "a 5,000-digit seed": (json.dumps({**HEADER, "seed": 0}).replace('"seed": 0', '"seed": ' + "9" * 5000)
                               + "\n").encode(),
        "binary noise": os.urandom(size),
        "one long line of numbers": (head + "[" + ",".join(["1"] * (size // 2)) + "]\n").encode(),
    }


LOAD = r"""
import resource, sys, time, warnings
import playtest
start = time.perf_counter()
try:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        playtest.Session.load(sys.argv[1])
    what = "loaded"
except playtest.SessionFileError as err:
    what = "refused: " + str(err)[:80].replace("|", "/")
print(f"{time.perf_counter() - start:.2f}|{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f}|{what}")
"""


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--examples", type=int, default=400, help="hypothesis examples per fuzzer")
    args = ap.parse_args()
    size = MB if args.quick else 10 * MB
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in shapes(size).items():
            path = Path(tmp) / "hostile.playtest.json"
            path.write_bytes(data)
            out = subprocess.run([sys.executable, "-c", LOAD, str(path)], capture_output=True, text=True,
                                 timeout=600)
            if out.returncode != 0:
                rows.append((f"{name} ({len(data) / MB:.1f} MB)", "crashed: " + out.stderr[-200:], "", False))
                continue
            seconds, rss, what = out.stdout.strip().splitlines()[-1].split("|", 2)
            ok = float(seconds) < 10 and float(rss) < 600
            rows.append((f"{name} ({len(data) / MB:.1f} MB)", f"{what}; {seconds} s, {rss} MB",
                         "< 10 s, < 600 MB", ok))
    examples = 60 if args.quick else args.examples
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(HERE.parent / "tests" / "test_hostile_input.py")],
                          env={**os.environ, "PLAYTEST_FUZZ_EXAMPLES": str(examples)},
                          capture_output=True, text=True, cwd=HERE.parent)
    last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr[-200:]
    rows.append((f"fuzzers, {examples} examples each", f"{last} ({time.perf_counter() - start:.0f} s)",
                 "nothing found", done.returncode == 0))
    report(rows, "Hostile input, the long run")


if __name__ == "__main__":
    main()
