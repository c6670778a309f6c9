"""Replay links (issue 25, point 5): "look at move 23" sent as an address that opens the recorded
session read-only at that move, under Voila, on Binder and on the serverless site; the address
and the file it names are a stranger's input."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

import playtest
from playtest import Session
from playtest.lite import build as lite_build
from playtest.widgets.replay import ReplayLinkError, ReplayRefused, ReplayView, read_replay_query, replay_page

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "notebooks" / "sample_playtests" / "then_there_was_one-ana-wall_budget_12.playtest.json"


@pytest.fixture
def notebooks(tmp_path):
    """A notebooks folder with a tester's recorded session of 30 moves, under sessions/testers/."""
    folder = tmp_path / "notebooks" / "sessions" / "testers"
    path = folder / "source-alice-1234abcd.playtest.json"
    session = Session("source", seed=1, path=path)
    session.author = "Alice"
    for _ in range(30):
        if session.is_over:
            break
        session.play(session.legal_actions()[0])
    session.note("<script>alert(1)</script> look here", author="Alice")
    return tmp_path / "notebooks", path


def query_of(address: str) -> str:
    return urlparse(address).query


def test_a_local_link_opens_the_file_read_only_at_its_move(notebooks):
    root, path = notebooks
    recorded = path.read_bytes()
    address = playtest.replay_link(path, move=23)
    assert address.startswith("http://localhost:8888/voila/render/testers/replay.ipynb?")
    assert parse_qs(query_of(address)) == {"file": ["sessions/testers/source-alice-1234abcd.playtest.json"],
                                           "move": ["23"]}
    view = replay_page(query_of(address), root=root)
    assert isinstance(view, ReplayView)
    assert view.session.move_number == 23 and view.slider.value == 23
    assert view.label.value.endswith(", move 23")
    view.next_button.click()
    assert view.session.move_number == 24
    assert path.read_bytes() == recorded                  # read-only: nothing written
    assert view.session.path is None


def test_the_page_reads_voilas_query_string(notebooks, monkeypatch):
    root, path = notebooks
    monkeypatch.setenv("QUERY_STRING", query_of(playtest.replay_link(path, move=5, seat=1)))
    view = replay_page(root=root)
    assert isinstance(view, ReplayView) and view.session.move_number == 5 and view.table.seat == 1


def test_binder_and_lite_links(notebooks):
    root, path = notebooks
    binder = playtest.replay_link(path, move=23, via="binder", repo="owner/kit")
    assert binder.startswith("https://mybinder.org/v2/gh/owner/kit/HEAD?urlpath=")
    inner = parse_qs(urlparse(binder).query)["urlpath"][0]
    assert inner == ("voila/render/notebooks/testers/replay.ipynb?file=sessions%2Ftesters%2F"
                     "source-alice-1234abcd.playtest.json&move=23")
    lite = playtest.replay_link(path, move=23, via="lite", base_url="https://me.github.io/kit/")
    assert lite.startswith("https://me.github.io/kit/repl/index.html?kernel=python&showBanner=0&hideCodeInput=1&code=")
    code = parse_qs(urlparse(lite).query)["code"][0]
    assert code == ("import playtest\nplaytest.replay_page('file=replays%2Fsource-alice-1234abcd.playtest"
                    "&move=23', root='.')")
    # the site's root holds the file once shipped (./dev.sh lite --replay FILE): the same code shows move 23
    site = root.parent / "site"
    (site / "files").mkdir(parents=True)
    (site / "api" / "contents").mkdir(parents=True)
    (site / "api" / "contents" / "all.json").write_text(json.dumps({"content": [], "path": ""}))
    assert lite_build.add_replays(site, [path]) == ["replays/source-alice-1234abcd.playtest"]
    listing = json.loads((site / "api" / "contents" / "replays" / "all.json").read_text())
    assert [(e["path"], e["mimetype"]) for e in listing["content"]] == [
        ("replays/source-alice-1234abcd.playtest", "text/plain")]     # served as text, not parsed as JSON
    assert [e["name"] for e in json.loads((site / "api" / "contents" / "all.json").read_text())["content"]] == \
        ["replays"]
    namespace: dict = {}
    exec(code.replace("root='.'", f"root={str(site / 'files')!r}").split("\n", 1)[1].replace(
        "playtest.replay_page", "shown = playtest.replay_page"), {"playtest": playtest}, namespace)
    assert namespace["shown"].session.move_number == 23


def test_the_link_maker_refuses_what_the_page_would(notebooks, tmp_path):
    root, path = notebooks
    with pytest.raises(ValueError, match="move must be from 0 to"):
        playtest.replay_link(path, move=999)
    with pytest.raises(ValueError, match="move must be"):
        playtest.replay_link(path, move="23")
    with pytest.raises(ValueError, match="seat must be"):
        playtest.replay_link(path, seat=7)
    with pytest.raises(ValueError, match="via is"):
        playtest.replay_link(path, via="ftp")
    with pytest.raises(ValueError, match="repo must be"):
        playtest.replay_link(path, via="binder")
    with pytest.raises(ValueError, match="base_url"):
        playtest.replay_link(path, via="lite")
    with pytest.raises(ValueError, match="base_url"):
        playtest.replay_link(path, via="local", base_url="javascript:alert(1)")
    elsewhere = tmp_path / "elsewhere.playtest.json"
    shutil.copy(path, elsewhere)
    with pytest.raises(ValueError, match="notebooks folder"):
        playtest.replay_link(elsewhere)
    odd = root / "sessions" / "my game (1).playtest.json"
    shutil.copy(path, odd)
    with pytest.raises(ValueError, match="rename"):
        playtest.replay_link(odd)
    with pytest.raises(ValueError, match="has no file"):
        playtest.replay_link(Session("source", seed=1))
    with pytest.raises(TypeError):
        playtest.replay_link(42)
    tampered = root / "sessions" / "tampered.playtest.json"
    tampered.write_bytes(path.read_bytes().replace(b'"col":1', b'"col":42', 1))
    with pytest.raises(playtest.SessionFileError):
        playtest.replay_link(tampered)


@pytest.mark.parametrize("query, said", [
    ("", "names no session file"),
    ("move=3", "names no session file"),
    ("file=../../etc/passwd.playtest.json&move=1", "no '..'"),
    ("file=%2E%2E/%2E%2E/x.playtest.json", "no '..'"),
    ("file=/etc/x.playtest.json", "no absolute path"),
    ("file=sessions\\..\\x.playtest.json", "plain names"),
    ("file=sessions/a.json", "NAME.playtest.json"),
    ("file=a.playtest.json%00.png", "plain names"),
    ("file=.hidden.playtest.json", "plain names"),
    ("file=a.playtest.json&file=b.playtest.json", "twice"),
    ("file=a.playtest.json&move=-1", "move number"),
    ("file=a.playtest.json&move=1e3", "move number"),
    ("file=a.playtest.json&move=%EF%BC%92%EF%BC%93", "move number"),       # full-width "２３"
    ("file=a.playtest.json&move=99999999999", "move number"),
    ("file=a.playtest.json&move=", "move number"),
    ("file=a.playtest.json&seat=x", "seat number"),
    ("file=" + "a" * 700 + ".playtest.json", "too long"),
    ("file=a.playtest.json&%ZZ", "malformed"),
    ("file=%FF.playtest.json", "malformed"),
])
def test_a_hostile_query_is_refused_with_a_clear_message(notebooks, query, said):
    root, _path = notebooks
    with pytest.raises(ReplayLinkError, match=said):
        read_replay_query(query)
    shown = replay_page(query, root=root)
    assert isinstance(shown, ReplayRefused) and shown.message.startswith("Cannot show this replay: ")
    assert "<" not in shown.value.split(">", 1)[1].rsplit("<", 1)[0]        # the message is inert text


def test_the_query_may_carry_other_parts_like_voilas_token(notebooks):
    root, path = notebooks
    asked = read_replay_query("token=abc&file=sessions/testers/" + path.name + "&move=2&voila-template=lab")
    assert asked.move == 2 and asked.seat is None


def test_the_page_refuses_files_it_may_not_read_or_that_are_not_sessions(notebooks, tmp_path):
    root, path = notebooks
    def refused(query):
        shown = replay_page(query, root=root)
        assert isinstance(shown, ReplayRefused), query
        return shown.message
    assert "no session file" in refused("file=sessions/testers/nobody.playtest.json")
    outside = tmp_path / "secret.playtest.json"
    shutil.copy(path, outside)
    os.symlink(outside, root / "sessions" / "link.playtest.json")
    assert "leads outside" in refused("file=sessions/link.playtest.json&move=1")
    os.symlink(tmp_path, root / "sessions" / "up")
    assert "leads outside" in refused("file=sessions/up/secret.playtest.json")
    (root / "sessions" / "dir.playtest.json").mkdir()
    assert "no session file" in refused("file=sessions/dir.playtest.json")
    tampered = root / "sessions" / "tampered.playtest.json"
    tampered.write_bytes(path.read_bytes().replace(b'"col":1', b'"col":42', 1))
    message = refused("file=sessions/tampered.playtest.json&move=1")
    assert "was refused" in message and str(tmp_path) not in message and "sessions/tampered" in message
    (root / "sessions" / "foreign.playtest.json").write_text('{"format": "something-else"}\n')
    assert "was refused" in refused("file=sessions/foreign.playtest.json")
    (root / "sessions" / "huge.playtest.json").write_bytes(b" " * (64 * 1024 * 1024 + 1))
    assert "was refused" in refused("file=sessions/huge.playtest.json")
    assert "past the end" in refused(f"file=sessions/testers/{path.name}&move=31")
    assert "not a seat" in refused(f"file=sessions/testers/{path.name}&seat=2")


def test_a_replayed_note_stays_inert_text(notebooks):
    root, path = notebooks
    view = replay_page(f"file=sessions/testers/{path.name}&move=30", root=root)
    assert isinstance(view, ReplayView)
    assert [n.text for n in view.session.notes] == ["<script>alert(1)</script> look here"]
    assert "<script>" not in view.table.notes_html.value if hasattr(view.table, "notes_html") else True


def test_a_committed_sample_replays_at_move_23_from_its_link():
    address = playtest.replay_link(SAMPLE, move=23)
    assert "file=sample_playtests%2F" in address
    view = replay_page(query_of(address), root=REPO / "notebooks")
    assert isinstance(view, ReplayView) and view.session.move_number == 23      # the move the table shows
    assert view.slider.value == 24 and view.label.value == "position 24 of 91, move 23"   # a chance step first
    view.back_button.click()
    assert view.session.move_number == 22


def test_shipping_a_file_with_the_site_refuses_a_tampered_one(notebooks, tmp_path):
    root, path = notebooks
    site = tmp_path / "site"
    with pytest.raises(lite_build.LiteBuildError, match="not a built site"):
        lite_build.add_replays(site, [path])
    (site / "files").mkdir(parents=True)
    (site / "api" / "contents").mkdir(parents=True)
    (site / "api" / "contents" / "all.json").write_text(json.dumps({"content": [], "path": ""}))
    tampered = tmp_path / "tampered.playtest.json"
    tampered.write_bytes(path.read_bytes().replace(b'"col":1', b'"col":42', 1))
    with pytest.raises(playtest.SessionFileError):
        lite_build.add_replays(site, [path, tampered])
    assert not (site / "files" / "replays").exists()          # nothing shipped unless all are good
    odd = tmp_path / "x y.playtest.json"
    shutil.copy(path, odd)
    with pytest.raises(lite_build.LiteBuildError, match="rename"):
        lite_build.add_replays(site, [odd])
    assert lite_build.main(["--no-build", "--out", str(site), "--replay", str(tampered)]) == 1
    assert lite_build.main(["--no-build", "--out", str(site), "--replay", str(path)]) == 0
    assert (site / "files" / "replays" / "source-alice-1234abcd.playtest").read_bytes() == path.read_bytes()
