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


def deliberate(entry: dict, viewer: int | None, names: list[str]) -> dict:
    """The one deliberate change since b5379ed: a move log never tells a seat more than its board
    (``playtest.check_game``'s "secrecy: log"), so another seat's cleared order reads as any other
    change of that order ("North changes their order"), not "North clears their order"."""
    words = entry.get("notation", "")
    if words.endswith(" clears their order") and words[:-len(" clears their order")] in names:
        name = words[:-len(" clears their order")]
        if viewer is None or names[viewer] != name:
            return {**entry, "notation": f"{name} changes their order"}
    return entry


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
    names = [seat.name for seat in session.game.seats()]
    for viewer, history in expected["history"].items():
        seen_by = None if viewer == "None" else int(viewer)
        assert session.history(seen_by) == [deliberate(entry, seen_by, names) for entry in history], viewer
    winner = session.winner if not isinstance(session.winner, tuple) else list(session.winner)
    assert winner == expected["winner"]
    assert path.read_bytes() == before            # loading never writes the file
