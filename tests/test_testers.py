"""Remote testers (issue 13): notes with authors, sessions sent back and merged, tester links."""

from __future__ import annotations

import json

import random

import pytest

import playtest
from playtest import Session


def line(session: Session, moves: int, seed: int) -> Session:
    rng = random.Random(seed)
    for _ in range(moves):
        if session.is_over:
            break
        session.play(session.game.random_action(session.state, rng))
    return session


@pytest.fixture
def designer(tmp_path):
    session = Session(playtest.load("source"), seed=1, path=tmp_path / "designer.playtest.json")
    session.author = "Dana (designer)"
    line(session, 6, seed=1)
    session.note("my own note")
    return session


def a_tester(name: str, designer: Session, shared: int, extra: int, seed: int, tmp_path) -> tuple[Session, str]:
    """A tester who replays the designer's first ``shared`` steps, then plays their own."""
    session = Session(playtest.load("source"), seed=1)
    session.author = name
    for entry in designer.to_json()["nodes"][:shared]:
        session.play(entry["move"])
    line(session, extra, seed)
    session.note(f"{name} was here")
    path = tmp_path / f"{name}.playtest.json"
    session.save(path)
    return session, path


def test_notes_carry_their_author_everywhere(designer, tmp_path):
    assert designer.notes[0].author == "Dana (designer)"
    note = designer.note("a second voice", author="Sam")
    assert note.author == "Sam"
    reopened = Session.load(designer.path)
    assert [(n.author, n.text) for n in reopened.notes] == [("Dana (designer)", "my own note"), ("Sam", "a second voice")]
    assert "**Sam**: a second voice" in designer.report()
    table = playtest.Table(designer)
    panel = next(p for p in table.board.scene["panels"] if p["title"].startswith("Notes at move"))
    assert ["Sam", "a second voice"] in panel["rows"]


def test_merge_shares_identical_lines_and_keeps_diverging_ones(designer, tmp_path):
    alice, alice_path = a_tester("Alice", designer, shared=3, extra=4, seed=7, tmp_path=tmp_path)
    bob, bob_path = a_tester("Bob", designer, shared=6, extra=0, seed=8, tmp_path=tmp_path)
    before = designer.positions()
    alice_file = alice_path.read_bytes()
    added = designer.merge(alice_path)
    # the start and the 3 shared moves are not copied; Alice's own moves are (unless one is the designer's too)
    assert 1 <= added["positions"] <= alice.positions() - 4 and added["notes"] == 1
    assert alice_path.read_bytes() == alice_file                          # the other file is never changed
    assert designer.merge(bob) == {"positions": 0, "notes": 1}           # Bob's line is the designer's
    assert designer.merge(alice_path) == {"positions": 0, "notes": 0}    # merging twice adds nothing
    assert designer.positions() == before + added["positions"]
    authors = {n.author for n in designer.notes}
    assert authors == {"Dana (designer)", "Alice", "Bob"}
    # every note keeps its position: Bob's is at the designer's current position
    bob_note = next(n for n in designer.notes if n.author == "Bob")
    assert designer.position(bob_note.node) == bob.state
    alice_note = next(n for n in designer.notes if n.author == "Alice")
    assert designer.position(alice_note.node) == alice.state
    report = designer.report()
    assert "## By author" in report and "### Alice" in report and "### Bob" in report
    reopened = Session.load(designer.path)                                # the merge is saved
    assert reopened.positions() == designer.positions() and len(reopened.notes) == 3


def test_a_different_parameter_history_is_kept_as_its_own_branch(designer, tmp_path):
    carol = Session(playtest.load("source"), seed=1)
    carol.author = "Carol"
    for entry in designer.to_json()["nodes"][:2]:
        carol.play(entry["move"])
    carol.set_params(ap_per_turn=3)
    line(carol, 3, seed=3)
    designer.merge(carol)
    params_nodes = [{k: v for k, v in e.items() if k != "t"} for e in designer.to_json()["nodes"] if "params" in e]
    assert params_nodes == [{"parent": 2, "params": {"ap_per_turn": 3}, "by": "Carol"}]
    assert len(designer.branches()) == 2


def test_merge_refuses_another_game_or_start(designer):
    with pytest.raises(ValueError, match="cannot merge a eat_thyself session into a source session"):
        designer.merge(Session(playtest.load("eat_thyself")))
    with pytest.raises(ValueError, match="other parameters .*ap_per_turn"):
        designer.merge(Session(playtest.load("source", ap_per_turn=3)))
    other_start = Session(playtest.load("source"), start={"board": ["r.......b"] + ["." * 9] * 7 + ["g.......y"],
                                                          "to_move": "blue", "turn": 1})
    with pytest.raises(ValueError, match="starts from another position"):
        designer.merge(other_start)
    with pytest.raises(playtest.SessionFileError):
        designer.merge(designer.path.parent / "missing.playtest.json")


def test_the_tester_link_builds_binder_addresses():
    lab = playtest.tester_link("someone/my-fork", game="source", view="lab")
    assert lab == ("https://mybinder.org/v2/gh/someone/my-fork/HEAD"
                   "?urlpath=lab%2Ftree%2Fnotebooks%2Fsource.ipynb")
    tester_view = playtest.tester_link("someone/my-fork", game="source")
    assert tester_view == ("https://mybinder.org/v2/gh/someone/my-fork/HEAD"
                           "?urlpath=voila%2Frender%2Fnotebooks%2Ftesters%2Fsource.ipynb")
    assert playtest.tester_link("someone/my-fork").endswith("notebooks%2F00_start_here.ipynb")
    for bad in ("no-slash", "a/b/c", "a/b?x=1", ""):
        with pytest.raises(ValueError, match="OWNER/REPO"):
            playtest.tester_link(bad)
    with pytest.raises(ValueError, match="unknown game"):
        playtest.tester_link("a/b", game="chess")


def test_the_table_hands_the_browser_the_session_file_and_takes_one_back(designer, tmp_path):
    alice, alice_path = a_tester("Alice", designer, shared=3, extra=2, seed=5, tmp_path=tmp_path)
    table = playtest.Table(designer)
    sent = []
    table.board.send = lambda content, buffers=None: sent.append((content, buffers))
    table.download_button.click()
    content, buffers = sent[-1]
    assert content["type"] == "download" and content["name"] == "designer.playtest.json"
    assert Session.from_records_bytes(buffers[0]).positions() == designer.positions()
    upload = {"name": "Alice.playtest.json", "content": memoryview(alice_path.read_bytes())}
    table._on_upload({"new": (upload,)})
    assert "Alice" in table.notice.value and any(n.author == "Alice" for n in designer.notes)
    table._on_upload({"new": ({"name": "evil.json", "content": memoryview(b"[[[[")},)})
    assert "not" in table.board.error and len(table.board.error) < 700


def test_a_tester_link_to_a_page_that_does_not_exist_is_refused_and_write_tester_notebook_makes_it(
        tmp_path, monkeypatch):
    """A listed game with no notebooks/testers/<game>.ipynb gave a link to a missing page; the page
    is one call away, and then the link is given."""
    import playtest.testers as testers
    pages = tmp_path / "notebooks" / "testers"
    pages.mkdir(parents=True)
    monkeypatch.setattr(testers, "TESTER_NOTEBOOKS", pages)
    with pytest.raises(ValueError, match=r"notebooks/testers/source.ipynb does not exist.*write_tester_notebook"):
        playtest.tester_link("someone/my-fork", game="source")
    with pytest.raises(ValueError, match="does not exist"):
        playtest.tester_link(game="source", via="local")
    path = playtest.write_tester_notebook("source")
    assert path == pages / "source.ipynb"
    notebook = json.loads(path.read_text(encoding="utf-8"))
    assert notebook["cells"][0]["source"].startswith("# Source: play it and send it back")
    assert notebook["cells"][1]["source"].endswith('playtest.TesterView("source", directory="../sessions/testers")')
    assert all(not cell.get("outputs") for cell in notebook["cells"])
    assert playtest.tester_link(game="source", via="local").endswith("/voila/render/testers/source.ipynb")
    path.write_text("mine", encoding="utf-8")
    with pytest.raises(ValueError, match="exists already.*kept.*replace=True"):
        playtest.write_tester_notebook("source")
    assert path.read_text(encoding="utf-8") == "mine"
    assert playtest.write_tester_notebook("source", replace=True) == path


def test_write_tester_notebook_imports_a_game_from_its_module_and_refuses_what_a_tester_cannot_run(tmp_path):
    from newgames import pig

    path = playtest.write_tester_notebook(pig.Pig, directory=tmp_path)
    code = json.loads(path.read_text(encoding="utf-8"))["cells"][1]["source"]
    assert code.startswith("import sys\n\nsys.path.insert(0, \"..\")") and "\nimport newgames.pig\nimport playtest\n" in code
    notebook_cell = type("CellGame", (pig.Pig,), {"__module__": "__main__", "name": "cell_game"})
    with pytest.raises(ValueError, match="not registered"):
        playtest.write_tester_notebook(notebook_cell, directory=tmp_path)
    with pytest.raises(ValueError, match="unknown game 'nosuch'"):
        playtest.write_tester_notebook("nosuch", directory=tmp_path)
    with pytest.raises(ValueError, match="name or the game"):
        playtest.write_tester_notebook(42, directory=tmp_path)          # type: ignore[arg-type]
    with pytest.raises(ValueError, match="setup is the code"):
        playtest.write_tester_notebook(pig.Pig, setup=["import x"], directory=tmp_path, replace=True)  # type: ignore[arg-type]


def test_the_written_tester_page_runs_in_a_fresh_kernel(tmp_path, monkeypatch):
    """The page runs as a tester's kernel runs it: the game imported by its setup, the tester view shown."""
    nbclient = pytest.importorskip("nbclient")
    import os
    from pathlib import Path

    import nbformat
    from newgames import pig

    pages = tmp_path / "notebooks" / "testers"
    path = playtest.write_tester_notebook(pig.Pig, directory=pages)
    here, repo = Path(__file__).resolve().parent, Path(playtest.__file__).resolve().parent.parent
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(here), str(repo), os.environ.get("PYTHONPATH", "")]))
    notebook = nbformat.read(path, as_version=4)
    nbclient.NotebookClient(notebook, timeout=120, resources={"metadata": {"path": str(pages)}}).execute()
    outputs = notebook.cells[1].outputs
    assert not [o for o in outputs if o.get("output_type") == "error"]
    assert any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in outputs)
