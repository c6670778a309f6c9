"""tools/game_lines.py: the games' sizes that issue 22's report quotes."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import game_lines  # noqa: E402


def test_code_lines_leave_out_docstrings_comments_and_blank_lines():
    source = 'def f(x):\n    """Doc\n    more."""\n    # why\n\n    return {"a": """not a docstring"""}\n'
    assert game_lines.code_lines(source) == 2


def test_every_game_is_counted_in_the_working_tree():
    for name in game_lines.GAMES + game_lines.EXAMPLES:
        lines, code = game_lines.counts(name, None)
        assert 0 < code < lines, name


def test_the_table_compares_with_a_revision(capsys):
    try:
        subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    assert game_lines.main(["--against", "HEAD"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert len(rows) == 2 + len(game_lines.GAMES) + len(game_lines.EXAMPLES) + 1
    assert rows[-1].startswith("| the five games |")
