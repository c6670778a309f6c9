"""A tester's and an analyst's pass: the designer's link and page, a stranger's name, what the analytics say.

Each test names what it found; it failed before the fix and passes after.
"""

from __future__ import annotations

import json
import re
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import playtest
from playtest import Session

ROOT = Path(__file__).resolve().parent.parent
T0 = 1_780_000_000          # 2026-05-28: a start a session file accepts


def _clock(step: int):
    return iter(range(T0, T0 + 10 ** 7, step)).__next__


# ---------------------------------------------------------------- a name no one sees, a name that turns text around

@pytest.mark.parametrize("name", ["\u200b", "\u200b\u200d\u2060", " \u00ad ", "\ufeff"])
def test_a_tester_name_of_only_invisible_characters_is_refused(tmp_path, name):
    """The tester view took a name made of zero-width characters only: the notes went under an author
    no one could see ("Playing as ​, every seat")."""
    view = playtest.TesterView("source", directory=tmp_path)
    view.name.value = name
    view.start_button.click()
    assert view.session is None and view.message.value.startswith("Type your name first")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["\u202eecila", "ann\u2066x", "\u202bBen"])
def test_a_tester_name_with_a_right_to_left_override_is_refused(tmp_path, name):
    """A name holding a bidirectional override turned the text shown after it around: the view said
    "Playing as \u202eecila, every seat. Notes go under your name..." (reading "alice" and the rest of
    the line backwards), and every report line after the name the same."""
    view = playtest.TesterView("source", directory=tmp_path)
    view.name.value = name
    view.start_button.click()
    assert view.session is None and "control character" in view.message.value
    session = Session("source", seed=1)
    with pytest.raises(ValueError, match="right-to-left override"):
        session.author = name
    with pytest.raises(ValueError, match="control characters"):
        session.note("fine", author=name)


def test_right_to_left_names_without_overrides_still_play(tmp_path):
    """Hebrew and Arabic names (and the marks U+200E, U+200F they may carry) are names like any other."""
    for name in ("דנה", "\u200fسارا"):
        view = playtest.TesterView("source", directory=tmp_path)
        view.name.value = name
        view.start_button.click()
        assert view.session is not None and view.session.author == name


def test_a_file_whose_author_turns_text_around_is_refused_by_name_and_the_good_files_are_read(tmp_path):
    """A stranger's file naming its author "\u202e..." loaded, and the name reversed what followed it in
    the designer's report; now the loader refuses it naming the record, and playtests() reads the
    good file beside it and names the bad one in .skipped."""
    good = Session("source", seed=1, path=tmp_path / "good.playtest.json", clock=_clock(3))
    good.author = "ann"
    good.play(good.legal_actions()[0])
    lines = (tmp_path / "good.playtest.json").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    records[2]["node"]["by"] = "\u202eecila"
    (tmp_path / "bad.playtest.json").write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    with pytest.raises(playtest.SessionFileError, match=r"'by' must be a short name \(no control characters\)"):
        Session.read(tmp_path / "bad.playtest.json")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = playtest.playtests(tmp_path)
    assert [name for name, _ in report.skipped] == ["bad.playtest.json"]
    assert report.sessions == 1 and report.moves["author"].tolist() == ["ann"]


# ---------------------------------------------------------------- the designer's own game: which links work

def test_a_lite_link_for_a_designers_own_game_is_refused_not_a_page_that_cannot_know_it():
    """tester_link(game="heaps", via="lite") gave a site address whose console runs
    TesterView("heaps"): the site's browser kernel has the kit's wheel only, so the tester saw an
    unknown game. A game of the designer's own (listed, here registered again as listed) is refused
    with what to send instead; the kit's games still get their address."""
    from playtest.kernel.registry import _UNLISTED, register
    from newgames import heaps
    was_unlisted = "heaps" in _UNLISTED
    register(heaps.Heaps)                      # listed, as a designer's @register makes it
    try:
        assert "heaps" in playtest.games()
        with pytest.raises(ValueError, match=r"'heaps' is your own game .*the serverless site carries the kit's "
                                             r"games only.*via='local' or a Binder link"):
            playtest.tester_link(game="heaps", via="lite", base_url="https://me.github.io/kit/")
    finally:
        if was_unlisted:
            _UNLISTED.add("heaps")
    assert "TesterView%28%27source%27" in playtest.tester_link(game="source", via="lite",
                                                               base_url="https://me.github.io/kit/")


def test_a_testers_page_imports_the_game_module_beside_the_notebooks(tmp_path):
    """write_tester_notebook (and the guide) say: put the class in a module beside the notebooks and
    pass setup="import my_game". The page is written in notebooks/testers/ and runs there (Voila and
    Binder start its kernel in its own folder: its sessions go to "../sessions/testers"), where
    notebooks/my_game.py is not on the path: the page stopped at ModuleNotFoundError. It now puts
    the notebooks folder on the path before the setup; a kit game's page is unchanged."""
    from newgames import heaps
    notebooks = tmp_path / "notebooks"
    (notebooks / "testers").mkdir(parents=True)
    shutil.copy(heaps.__file__, notebooks / "my_heaps.py")
    page = playtest.write_tester_notebook(heaps.Heaps, setup="import my_heaps", directory=notebooks / "testers")
    code = json.loads(page.read_text(encoding="utf-8"))["cells"][1]["source"]
    run = code + "\nview = _\nview.name.value = 'Ann'\nview.start_button.click()\nprint(view.session.path)\n"
    run = run.replace('playtest.TesterView("heaps"', '_ = playtest.TesterView("heaps"')
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", run], cwd=notebooks / "testers", env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-600:]
    assert (notebooks / "sessions" / "testers").is_dir() and done.stdout.strip().endswith(".playtest.json")
    kit_page = playtest.write_tester_notebook("source", directory=tmp_path)
    assert "sys.path" not in json.loads(kit_page.read_text(encoding="utf-8"))["cells"][1]["source"]


# ---------------------------------------------------------------- what the analytics say, checked

def _six_testers(folder: Path) -> list[Session]:
    """Six testers of Source: tester k places k stones then passes to the end (known winners), one
    move every k + 1 seconds, then a note and the feedback (fun and length)."""
    sessions = []
    for k, name in enumerate(["ann", "ben", "chloe", "dan", "eve", "fay"]):
        s = Session("source", seed=1, path=folder / f"{name}.playtest.json", clock=_clock(k + 1))
        s.author = name
        for _ in range(k):
            s.play(s.legal_actions()[0])
        while not s.is_over:
            s.play(s.legal_actions()[-1])
        s.note(f"{name} thinks <b>{k}</b> $x$")        # (written after the last move: no move's thinking)
        s.give_feedback({"fun": 1 + k % 5, "length": ["too short", "right", "too long"][k % 3]})
        sessions.append(s)
    return sessions


def test_the_analytics_of_six_testers_say_what_was_played(tmp_path):
    sessions = _six_testers(tmp_path)
    report = playtest.playtests(tmp_path)
    assert report.sessions == 6 and report.skipped == []
    games = report.games.set_index("session").sort_index()
    expected_moves = {s.path.stem.split(".")[0]: s.move_number for s in sessions}
    assert games["moves"].to_dict() == expected_moves
    assert len(report.moves) == sum(expected_moves.values())
    # the winners are the rules' outcome: player A four times, two draws; per seat: A 4 of 6, B 0 of 6
    winners = games["winner"].to_dict()
    assert winners == {"ann": "draw", "ben": "A (red+yellow)", "chloe": "A (red+yellow)", "dan": "A (red+yellow)",
                       "eve": "draw", "fay": "A (red+yellow)"}
    assert games["finished"].all()
    # think time: tester k moved every k + 1 seconds; the game's length in minutes follows
    for k, name in enumerate(["ann", "ben", "chloe", "dan", "eve", "fay"]):
        rows = report.moves[report.moves["session"] == name]
        assert rows["think"].tolist() == [float(k + 1)] * expected_moves[name]
        assert set(rows["author"]) == {name} and rows["human"].all()
        assert games.loc[name, "minutes"] == pytest.approx(expected_moves[name] * (k + 1) / 60)
    # notes and feedback, inert text, each under its author
    assert sorted(report.notes["author"]) == ["ann", "ben", "chloe", "dan", "eve", "fay"]
    assert report.notes.set_index("author").loc["chloe", "text"] == "chloe thinks <b>2</b> $x$"
    fun = report.feedback[report.feedback["question"] == "fun"].set_index("author")["value"]
    assert fun.to_dict() == {"ann": 1.0, "ben": 2.0, "chloe": 3.0, "dan": 4.0, "eve": 5.0, "fay": 1.0}
    length = report.feedback[report.feedback["question"] == "length"]
    assert length["answer"].value_counts().to_dict() == {"too short": 2, "right": 2, "too long": 2}
    # no tester's text is HTML in the tables' pictures
    html = report.notes._repr_html_() + report.feedback._repr_html_()
    assert "<b>2</b>" not in html and "&lt;b&gt;2&lt;/b&gt;" in html
    chart = report.think_time(by="author")
    assert sum(expected_moves.values()) == 42
    assert chart.title.startswith("Think time per author (people: 42 timed moves, 6 sessions")
    assert chart.png().startswith(b"\x89PNG")


def test_a_testers_file_merged_twice_adds_nothing_the_second_time_and_two_testers_notes_both_stay(tmp_path):
    sessions = _six_testers(tmp_path)
    designer = Session("source", seed=1)
    first = designer.merge(sessions[1].path)
    assert first["notes"] == 1 and designer.merge(sessions[1].path) == {"positions": 0, "notes": 0}
    twin = Session("source", seed=1, path=tmp_path / "twin.playtest.json", clock=_clock(2))
    twin.author = "gus"
    twin.play(twin.legal_actions()[0])
    twin.note("ben thinks <b>1</b> $x$")          # the same words as ben's, at the same position, by another
    assert designer.merge(twin.path)["notes"] == 1
    assert sorted((n.author, n.text) for n in designer.notes) == [("ben", "ben thinks <b>1</b> $x$"),
                                                                  ("gus", "ben thinks <b>1</b> $x$")]
    assert [f.author for f in designer.feedback] == ["ben"]


# ---------------------------------------------------------------- the other names a file carries

def _with_seat_names(folder: Path, person: str, player: str) -> Path:
    good = Session("source", seed=1, path=folder / "good.playtest.json", clock=_clock(2))
    good.author = "ann"
    good.set_players({1: "bob"})
    for _ in range(3):
        good.play(good.legal_actions()[0])
    records = [json.loads(line) for line in (folder / "good.playtest.json").read_text(encoding="utf-8").splitlines()]
    for record in records:
        if "players" in record:
            record["players"]["seats"][1]["person"] = person
        if "node" in record and "player" in record["node"]:
            record["node"]["player"] = player
    bad = folder / "bad.playtest.json"
    bad.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\n", encoding="utf-8")
    return bad


@pytest.mark.parametrize("person, player, field", [
    ("\x1b[31mbob", "bob", "a person's name is a short text"),
    ("bob\u202e", "bob", "a person's name is a short text"),
    ("bob", "\x1b[2Jbob", "'player' is a short name"),
    ("bob", "\u202ebob", "'player' is a short name")])
def test_a_seated_persons_name_in_a_file_holds_no_control_character(tmp_path, person, player, field):
    """The author, a move's 'by', a note's and a refusal's author were checked for control characters,
    but not the names a file gives the seated people (its seating, and a move's 'player'): a stranger's
    file put a terminal escape ("\\x1b[2J" clears the screen a table is printed on) or a right-to-left
    override into report.moves' player column, the games' players and the think-time plot by player.
    The loader now refuses them, naming the record; playtests() reads the good file beside it."""
    bad = _with_seat_names(tmp_path, person, player)
    with pytest.raises(playtest.SessionFileError, match=re.escape(field) + r".*no control characters"):
        Session.read(bad)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = playtest.playtests(tmp_path)
    assert [name for name, _ in report.skipped] == ["bad.playtest.json"]
    assert report.moves["player"].tolist() == ["ann", "ann", "bob"]
    session = Session("source", seed=1)
    with pytest.raises(ValueError, match="a person's name is a short text"):
        session.set_players({1: "\x1b[31mbob"})
    assert session.players == [{"person": session.author}] * 2


def test_one_feedback_answer_is_thanked_in_the_singular():
    from playtest.widgets.feedback import FeedbackPanel
    panel = FeedbackPanel(Session("source", seed=1))
    panel.controls["fun"].value = "4"
    panel.send_button.click()
    assert panel.message.value.startswith("Thank you: 1 answer saved in the session")
    panel.controls["fun"].value = "3"
    panel.controls["clarity"].value = "5"
    panel.send_button.click()
    assert panel.message.value.startswith("Thank you: 2 answers saved in the session")


# ---------------------------------------------------------------- a tester who sends back twice

def test_a_session_sent_back_twice_counts_once_and_the_browsers_renamed_copy_is_read(tmp_path):
    """A tester sends back, plays on, and sends back again: the browser saves the second file as
    "NAME.playtest (1).json". playtests(folder) read only "*.playtest.json" (the earlier file: the later
    moves, notes and feedback were silently not read), and the same file saved under two names counted
    every move twice (the games, the think times, the feedback). Now the renamed download is read,
    the earlier copy is left out and named in .skipped, and the tables count each move once."""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    s = Session("source", seed=1, path=tmp_path / "source-ann.playtest.json", clock=_clock(2))
    s.author = "ann"
    for _ in range(3):
        s.play(s.legal_actions()[0])
    s.note("first send")
    shutil.copy(s.path, inbox / "source-ann.playtest.json")             # the first Send back
    s.play(s.legal_actions()[0])
    s.give_feedback({"fun": 5})
    shutil.copy(s.path, inbox / "source-ann.playtest (1).json")         # the second, renamed by the browser
    other = Session("source", seed=1, path=inbox / "source-bob.playtest.json", clock=_clock(3))
    other.author = "bob"
    other.play(other.legal_actions()[0])
    with pytest.warns(UserWarning, match="given twice: the earlier copies were left out"):
        report = playtest.playtests(inbox)
    assert report.sessions == 2
    assert sorted(report.moves.groupby("session").size().to_dict().items()) == \
        [("source-ann (1)", 4), ("source-bob", 1)]
    assert report.skipped == [("source-ann", "an earlier copy of source-ann (1) (the same session, which holds "
                                             "all of it): left out, so that its moves, notes and feedback "
                                             "count once")]
    assert report.problems["earlier copies left out"] == 1 and report.problems["files refused"] == 0
    assert repr(report).endswith("; 1 earlier copy left out>")
    assert report.feedback["value"].tolist() == [5.0] and report.notes["text"].tolist() == ["first send"]
    # the same file under two names: counted once; two testers' different sessions: both kept
    shutil.copy(inbox / "source-bob.playtest.json", inbox / "bob-again.playtest.json")
    with pytest.warns(UserWarning):
        twice = playtest.playtests([inbox / "source-bob.playtest.json", inbox / "bob-again.playtest.json"])
    assert twice.sessions == 1 and len(twice.moves) == 1 and [n for n, _ in twice.skipped] == ["bob-again"]


def test_the_designers_name_box_refuses_a_name_of_only_invisible_characters(tmp_path, monkeypatch):
    """The table's "Your name" box (asked once) took a zero-width space as the designer's name, and
    kept it in the file's header: every note of the designer then had an author no one could see."""
    monkeypatch.delenv("PLAYTEST_AUTHOR", raising=False)
    session = Session("source", seed=1, path=tmp_path / "mine.playtest.json")
    table = playtest.Table(session)
    table.author_box.value = "\u200b\u2060"
    table.author_button.click()
    assert "type a name" in table.board.error and session.author == "designer"
    assert table.author_row in table._side_column().children


# ---------------------------------------------------------------- another game's file in the folder

def test_a_file_of_another_game_is_never_drawn_as_this_games_seat_or_parameter_set():
    """A folder holding another game's file (a stranger's file claiming another game) was read with the
    rest, and the plots grouped by seat number and parameter label alone: Eat Thyself's seat 0 moves
    were drawn in Source's "A (red+yellow)" box, and both games' lengths and feedback in one "defaults"
    box. Seats and parameter sets are now grouped per game, each label naming its game."""
    from playtest.analytics.plots import _groups
    source = Session("source", seed=1, clock=_clock(2))
    source.author = "ann"
    eat = Session("eat_thyself", seed=1, clock=_clock(9))
    eat.author = "bob"
    for s in (source, eat):
        for _ in range(4):
            s.play(s.legal_actions()[0])
    source.give_feedback({"fun": 1})
    eat.give_feedback({"fun": 5})
    report = playtest.playtests([source, eat])
    seats = {label: rows["think"].tolist() for label, rows in _groups(report.moves, "seat")}
    eat_seats = [s.name for s in eat.game.seats()]
    assert seats == {"eat_thyself: " + eat_seats[0]: [9.0, 9.0], "eat_thyself: " + eat_seats[1]: [9.0, 9.0],
                     "source: A (red+yellow)": [2.0, 2.0], "source: B (blue+green)": [2.0, 2.0]}
    assert [(label, len(rows)) for label, rows in _groups(report.games, "params")] == \
        [("eat_thyself: defaults", 1), ("source: defaults", 1)]
    fun = {label: rows["value"].tolist() for label, rows in _groups(report.feedback, "params")}
    assert fun == {"eat_thyself: defaults": [5.0], "source: defaults": [1.0]}
    for chart in (report.think_time(by="seat"), report.game_length(), report.feedback_by_params()):
        assert chart.png().startswith(b"\x89PNG")
    alone = playtest.playtests([source])          # one game: the labels as they were
    assert [label for label, _ in _groups(alone.moves, "seat")] == ["A (red+yellow)", "B (blue+green)"]


def test_the_start_page_says_how_to_send_a_game_to_testers_and_its_calls_work():
    """A newcomer's start page said nothing of testers (the kit's other half): it now says how, and
    the calls it names give what it says."""
    cells = json.loads((ROOT / "notebooks" / "00_start_here.ipynb").read_text(encoding="utf-8"))["cells"]
    text = next("".join(c["source"]) for c in cells if c.get("id") == "testers-start")
    assert 'playtest.tester_link(game="eat_thyself", via="local")' in text
    assert playtest.tester_link(game="eat_thyself", via="local") == \
        "http://localhost:8888/voila/render/testers/eat_thyself.ipynb"
    assert (ROOT / "notebooks" / "testers" / "eat_thyself.ipynb").is_file()
    for name in ("playtest_report.ipynb",):
        assert name in text and (ROOT / "notebooks" / name).is_file()


def test_a_returning_tester_is_told_their_game_goes_on_with_the_rules_it_started_with(tmp_path):
    """The designer changes the page's parameters for a new round (TesterView("source", ap_per_turn=3));
    a tester who comes back resumes their file, whose game started with ap_per_turn=2, and plays it
    on under those rules. Only a warning in the kernel's log said so (with the file's place on the
    server); the tester's screen said "resumed at move 1" alone. The view now says which rules go on."""
    first = playtest.TesterView("source", directory=tmp_path)
    first.name.value = "Ann"
    first.start_button.click()
    first.session.play(first.session.legal_actions()[0])
    again = playtest.TesterView("source", directory=tmp_path, ap_per_turn=3)
    again.name.value = "Ann"
    with warnings.catch_warnings():
        warnings.simplefilter("error")              # nothing to the log, with the server's path in it
        again.start_button.click()
    assert again.session is not None and again.session.params.ap_per_turn == 2
    assert "(resumed at move 1) with the rules your game started with (ap_per_turn=2; this page's are " \
           "ap_per_turn=3)" in again.message.value
    assert str(tmp_path) not in again.message.value


def test_a_tester_typing_their_accented_name_another_way_comes_back_to_their_own_file(tmp_path):
    """"Chloé" typed with a composed é and with an e and a combining accent looked the same on screen
    but opened two files under two authors: a tester coming back from another keyboard lost their game,
    and the reports showed two "Chloé"s. Names are taken in one (composed) form."""
    first = playtest.TesterView("source", directory=tmp_path)
    first.name.value = "Chlo\u00e9"
    first.start_button.click()
    first.session.play(first.session.legal_actions()[0])
    again = playtest.TesterView("source", directory=tmp_path)
    again.name.value = "Chloe\u0301"
    again.start_button.click()
    assert again.session.path == first.session.path and again.session.author == "Chlo\u00e9"
    assert "(resumed at move 1)" in again.message.value
    assert len(list(tmp_path.iterdir())) == 1
