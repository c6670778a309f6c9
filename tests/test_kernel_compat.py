"""Session files written before the games moved onto the declared kernel still load and replay
identically: every position's JSON at the end, the move log as each viewer reads it, the winner.

The files in ``tests/golden/sessions/`` were written by the kit at revision b5379ed (before the
kernel) with ``tests/golden/sessions/make.py``; each ``.expected.json`` is what that revision said.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import playtest

FOLDER = Path(__file__).parent / "golden" / "sessions"
RECORDED = sorted(p.name.split(".")[0] for p in FOLDER.glob("*.playtest.json"))


def test_every_game_of_the_time_has_a_recorded_session():
    assert set(RECORDED) >= set(playtest.games()) - {"tic_tac_toe", "connect_four"}
    assert "secret_bid" in RECORDED


@pytest.mark.parametrize("name", RECORDED)
def test_an_old_session_file_replays_identically(name, tmp_path):
    original = FOLDER / f"{name}.playtest.json"
    path = tmp_path / original.name
    shutil.copy(original, path)
    before = path.read_bytes()
    session = playtest.Session.load(path)
    expected = json.loads((FOLDER / f"{name}.expected.json").read_text(encoding="utf-8"))
    assert json.loads(json.dumps(session.state.to_json())) == expected["final"]
    for viewer, history in expected["history"].items():
        assert session.history(None if viewer == "None" else int(viewer)) == history, viewer
    winner = session.winner if not isinstance(session.winner, tuple) else list(session.winner)
    assert winner == expected["winner"]
    assert path.read_bytes() == before            # loading never writes the file
