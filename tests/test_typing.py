"""Types: the kernel passes ``mypy --strict``; the whole package's mypy error count, recorded in
``tests/mypy_errors.txt``, may only go down (lower the record when it does).

Run by hand: ``.venv/bin/mypy`` (settings in pyproject.toml).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RECORD = Path(__file__).parent / "mypy_errors.txt"
#: held to --strict with no error
STRICT = ["playtest/kernel", "playtest/rules.py", "playtest/journal.py", "playtest/session", "playtest/scene.py", "playtest/boards.py",
          "playtest/check", "playtest/bots.py", "playtest/mcts.py", "playtest/analytics", "playtest/rulebook.py",
          "playtest/docs.py", "playtest/server.py",
          "playtest/games/back_to_the_wall/params.py", "playtest/games/corner_rush/params.py",
          "playtest/games/source/params.py", "playtest/games/then_there_was_one/params.py",
          "playtest/games/corner_rush/board.py", "playtest/games/corner_rush/words.py",
          "playtest/games/corner_rush/bots.py", "playtest/games/source/bots.py",
          "playtest/games/back_to_the_wall/view.py", "playtest/games/corner_rush/view.py",
          "playtest/games/source/view.py", "playtest/games/then_there_was_one/view.py",
          "playtest/testers.py", "playtest/position.py", "playtest/__init__.py",
          "playtest/games/back_to_the_wall/boards.py", "playtest/games/back_to_the_wall/bots.py",
          "playtest/games/back_to_the_wall/resolution.py", "playtest/games/back_to_the_wall/score.py",
          "playtest/games/back_to_the_wall/words.py", "playtest/games/source/score.py",
          "playtest/games/source/rules.py", "playtest/games/back_to_the_wall/rules.py",
          "playtest/games/corner_rush/rules.py", "playtest/games/corner_rush/scores.py", "playtest/widgets/board.py", "playtest/widgets/move_log.py",
          "playtest/widgets/picker.py"]

pytest.importorskip("mypy", reason="mypy is in the test extra")


def mypy(*args: str) -> tuple[int, str]:
    run = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary", "--cache-dir",
                          str(ROOT / ".mypy_cache"), *args], cwd=ROOT, capture_output=True, text=True)
    errors = [line for line in run.stdout.splitlines() if re.search(r": error: ", line)]
    return len(errors), "\n".join(errors[:40])


def test_the_kernel_is_strictly_typed():
    count, errors = mypy("--strict", "--follow-imports=silent", *STRICT)
    assert count == 0, errors


def test_the_package_error_count_only_goes_down():
    recorded = int(RECORD.read_text().split()[0])
    count, errors = mypy()
    assert count <= recorded, f"mypy found {count} errors, more than the {recorded} recorded:\n{errors}"
    if count < recorded:
        print(f"mypy: {count} errors, fewer than the {recorded} recorded: lower tests/mypy_errors.txt")
