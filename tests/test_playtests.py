"""Issue 26: what playtests record (times, refused attempts, seats, feedback) and what they say
(playtest.playtests: tables, exports, plots, a test), with bad input refused or skipped and counted."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import playtest
from playtest import Session, SessionFileError
from playtest.bots import MCTSBot, RandomBot
from playtest.session.feedback import FeedbackForm

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "notebooks" / "sample_playtests"
T0 = 1_767_225_600.0          # 2026-01-01T00:00:00Z


class Clock:
    """A clock the test moves by hand (seconds since 1970, UTC)."""

    def __init__(self, now: float = T0):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def wait(self, seconds: float) -> None:
        self.now += seconds


def lines(path: Path) -> list:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def node_of(records: list, k: int) -> dict:
    """The record of node ``k`` (1: the first after the root)."""
    return [r["node"] for r in records if "node" in r][k - 1]


def write(path: Path, records: list) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def played(tmp_path: Path, name: str = "eat_thyself", moves: int = 4, waits=(5.0,)) -> tuple[Session, Clock]:
    clock = Clock()
    session = Session(name, seed=1, path=tmp_path / f"{name}.playtest.json", clock=clock)
    session.author = "Alice"
    for k in range(moves):
        clock.wait(waits[k % len(waits)])
        session.play(session.legal_actions()[0])
    return session, clock


# ------------------------------------------------------------------ times in the file

def test_every_move_and_note_is_stamped_in_seconds_from_one_utc_start(tmp_path):
    session, clock = played(tmp_path, waits=(2.5, 7.25))
    clock.wait(1)
    session.note("the second king is confusing")
    header, *records = lines(session.path)
    assert header["started"] == "2026-01-01T00:00:00.000Z"
    times = [r["node"]["t"] for r in records if "node" in r]
    assert times == [2.5, 9.75, 12.25, 19.5]
    assert [r["note"] for r in records if "note" in r] == [
        {"node": 4, "text": "the second king is confusing", "t": 20.5, "author": "Alice"}]
    assert session.time_of(2) == "2026-01-01T00:00:09.750Z"
    again = Session.load(session.path)
    assert [n.t for n in again._nodes] == [0.0, 2.5, 9.75, 12.25, 19.5]
    assert again.notes[0].t == 20.5 and again.notes[0].time == "2026-01-01T00:00:20.500Z"


def test_a_clock_set_back_never_puts_a_move_before_its_position(tmp_path):
    session, clock = played(tmp_path, moves=1)
    clock.wait(-3600)
    session.play(session.legal_actions()[0])
    assert session._nodes[2].t == session._nodes[1].t
    Session.load(session.path)      # still in order


def test_a_file_written_before_times_loads_and_gets_a_start_with_its_first_new_move(tmp_path):
    path = tmp_path / "old.playtest.json"
    old, _ = played(tmp_path, moves=2)
    records = lines(old.path)
    del records[0]["started"]
    for record in records:
        if "node" in record:
            del record["node"]["t"]
    write(path, records)
    session = Session.load(path)
    assert session.started is None and [n.t for n in session._nodes] == [None, None, None]
    session.clock = Clock(T0 + 99)
    session.play(session.legal_actions()[0])
    header, *rest = lines(path)
    assert header["started"] == "2026-01-01T00:01:39.000Z"
    assert [r["node"].get("t") for r in rest if "node" in r] == [None, None, 0.0]
    report = playtest.playtests(path)
    assert report.problems["moves without a time"] == 3 and report.moves["think"].isna().all()


@pytest.mark.parametrize("change, message", [
    (lambda rs: node_of(rs, 2).__setitem__("t", 1.0), "times out of order"),
    (lambda rs: node_of(rs, 1).__setitem__("t", -4), "before the session started"),
    (lambda rs: node_of(rs, 1).__setitem__("t", "5"), "'t' must be a number"),
    (lambda rs: node_of(rs, 1).__setitem__("t", 3.0e9), "lies in the future"),
    (lambda rs: rs[0].__setitem__("started", "2150-01-01T00:00:00.000Z"), "in the future"),
    (lambda rs: rs[0].__setitem__("started", "1999-01-01T00:00:00.000Z"), "before 2000"),
    (lambda rs: rs[0].__setitem__("started", "yesterday"), "'started' must be a UTC time"),
    (lambda rs: rs[0].pop("started"), "no 'started' time"),
    (lambda rs: rs.append({"note": {"node": 2, "text": "x", "t": 0.5}}), "times out of order"),
])
def test_timestamps_out_of_order_missing_or_absurd_are_refused_naming_the_record(tmp_path, change, message):
    session, _ = played(tmp_path, moves=3)
    records = lines(session.path)
    change(records)
    path = write(tmp_path / "bad.playtest.json", records)
    before = path.read_bytes()
    with pytest.raises(SessionFileError, match=message):
        Session.load(path)
    assert path.read_bytes() == before


# ------------------------------------------------------------------ refused attempts

def test_the_table_keeps_refused_attempts_as_children_of_their_position(tmp_path):
    clock = Clock()
    session = Session("then_there_was_one", seed=2011, path=tmp_path / "t.playtest.json", clock=clock)
    session.author = "Ben"
    table = playtest.Table(session)
    for _ in range(3):                                       # the three token players choose start circles
        table.board.receive({"type": "action", "action": session.legal_actions()[0].to_json()})
    scene = table.board.scene
    item, reason = next(iter(scene["reasons"].items()))
    clock.wait(4)
    table.board.receive({"type": "refused", "item": item, "version": table.board.version})
    table.board.receive({"type": "refused", "item": item, "version": table.board.version - 1})   # stale: not kept
    table.board.receive({"type": "refused", "item": "nonsense", "version": table.board.version})  # no such item
    a, b = (list(map(int, p.split(","))) for p in item[5:].split(":"))
    table.board.receive({"type": "action", "action": {"kind": "build", "a": a, "b": b}})       # the rules refuse
    table.board.receive({"type": "action", "action": {"kind": "build", "a": "x"}})            # garbage: not kept
    refusals = session.refusals
    assert [(r.item, r.action is not None, r.seat, r.author) for r in refusals] == [
        (item, False, 0, "Ben"), (None, True, 0, "Ben")]
    assert refusals[0].reason == reason and refusals[0].rule == refusals[1].rule != ""
    assert refusals[0].t == 4.0 and refusals[0].node == session.node
    assert [e["notation"] for e in session.history()][-1].startswith("Green")    # never part of the line
    loaded = Session.load(session.path)
    assert loaded.refusals == refusals and loaded.positions() == session.positions()


@pytest.mark.parametrize("change, message", [
    ({"seat": 9}, "'seat' must be a seat of then_there_was_one"),
    ({"node": 999}, "'node' must be a position id"),
    ({"rule": "<script>"}, "'rule' must be a rule number"),
    ({"action": {"kind": "roll", "value": 3}, "item": None}, "not an action of then_there_was_one"),
    ({"reason": 7}, "'reason' must be a text"),
    ({"surprise": 1}, "has no field 'surprise'"),
])
def test_refusal_records_that_do_not_match_the_game_are_refused(tmp_path, change, message):
    session = Session("then_there_was_one", seed=2011, path=tmp_path / "t.playtest.json", clock=Clock())
    session.record_refusal({"item": "edge:0,0:1,0"}, "no (rule A.1 §14.3)", seat=0)
    records = lines(session.path)
    refusal = next(r["refusal"] for r in records if "refusal" in r)
    for key, value in change.items():
        if value is None:
            refusal.pop(key)
        else:
            refusal[key] = value
    with pytest.raises(SessionFileError, match=message):
        Session.load(write(tmp_path / "bad.playtest.json", records))


def test_refusals_at_one_position_are_bounded(tmp_path):
    session = Session("source", clock=Clock())
    kept = [session.record_refusal({"item": "pt:0,0"}, "no") for _ in range(150)]
    assert sum(k is not None for k in kept) == 100


# ------------------------------------------------------------------ seats

def test_bot_seats_come_back_after_a_kernel_restart(tmp_path):
    path = tmp_path / "bots.playtest.json"
    session = Session.open(path, "then_there_was_one", seed=1)
    table = playtest.Table(session)
    table.seat_pickers[2].value = "greedy_token"
    table.set_bots({**table.bots, 3: MCTSBot(iterations=40, seed=7)})
    del session, table
    from playtest.session.files import _OPEN
    _OPEN.clear()                                          # what a kernel restart forgets
    resumed = Session.load(path)
    assert resumed.players[2] == {"bot": "greedy_token", "settings": {}}
    assert resumed.players[3]["settings"]["iterations"] == 40
    again = playtest.Table(resumed)                       # the table seats them again
    assert sorted(again.bots) == [2, 3] and again.bots[3].iterations == 40 and again.bots[3].seed == 7
    assert again.seat_pickers[3].value == "mcts" and again.seat_pickers[1].value == "person"


def test_who_played_each_move_is_kept(tmp_path):
    session = Session("eat_thyself", seed=1, path=tmp_path / "e.playtest.json", clock=Clock())
    session.author = "Chloé"
    session.set_players({0: "Dana"})
    session.play(session.legal_actions()[0])
    session.play_bot(RandomBot(seed=1))
    loaded = Session.load(session.path)
    assert [(n.player, n.bot) for n in loaded._nodes[1:]] == [("Dana", None), (None, "random")]
    moves = playtest.playtests(loaded).moves
    assert moves[["player", "human", "author"]].values.tolist() == [["Dana", True, "Chloé"],
                                                                   ["random", False, "Chloé"]]


def test_bad_seating_records_are_refused(tmp_path):
    session = Session("source", path=tmp_path / "s.playtest.json", clock=Clock())
    session.set_players({1: RandomBot(seed=2)})
    records = lines(session.path)
    next(r for r in records if "players" in r)["players"]["seats"][1] = {"bot": "random", "settings": {"x": [[1]]}}
    with pytest.raises(SessionFileError, match="plain values"):
        Session.load(write(tmp_path / "bad.playtest.json", records))


# ------------------------------------------------------------------ feedback

def test_feedback_is_saved_with_its_author_and_form(tmp_path):
    session = Session("source", path=tmp_path / "f.playtest.json", clock=Clock())
    session.author = "Ana"
    session.feedback_form = [{"name": "fun", "ask": "Fun?", "scale": [1, 5]},
                             {"name": "again", "ask": "Again?", "choices": ["no", "yes"]}]
    table = playtest.Table(session)
    table.feedback.controls["fun"].value = "5"
    table.feedback.controls["again"].value = "yes"
    assert table.feedback.send() and "2 answers saved" in table.feedback.message.value
    loaded = Session.load(session.path)
    assert loaded.feedback_form == session.feedback_form
    assert [(f.author, f.answers) for f in loaded.feedback] == [("Ana", {"fun": 5, "again": "yes"})]
    with pytest.raises(ValueError, match="whole number from 1 to 5"):
        session.give_feedback({"fun": 6})
    with pytest.raises(ValueError, match="no question 'colour'"):
        session.give_feedback({"colour": "red"})
    assert table.feedback.send() is False and "no answer given" in table.feedback.message.value


def test_the_feedback_form_opens_when_a_game_ends():
    session = Session("eat_thyself", seed=3)
    table = playtest.Table(session, bots={0: RandomBot(1), 1: RandomBot(2)})
    assert session.is_over and table.feedback_panel.selected_index == 0


@pytest.mark.parametrize("answers, message", [
    ({"fun": "4"}, "whole number from 1 to 5"),
    ({"length": "medium"}, "one of 'too short'"),
    ({"confused": 3}, "is a text"),
    ({"fun": 4.0}, "whole number"),
    ({"fun": True}, "whole number"),
])
def test_feedback_fields_of_the_wrong_type_are_refused_by_the_loader(tmp_path, answers, message):
    session = Session("source", path=tmp_path / "f.playtest.json", clock=Clock())
    session.give_feedback({"fun": 3})
    records = lines(session.path)
    next(r for r in records if "feedback" in r)["feedback"]["answers"] = answers
    with pytest.raises(SessionFileError, match=message):
        Session.load(write(tmp_path / "bad.playtest.json", records))


def test_a_bad_feedback_form_is_the_designers_error():
    with pytest.raises(ValueError, match="exactly one of"):
        FeedbackForm([{"name": "fun", "ask": "?", "scale": [1, 5], "text": True}])
    with pytest.raises(ValueError, match="a name of its own"):
        FeedbackForm([{"name": "a", "text": True}, {"name": "a", "text": True}])
    with pytest.raises(ValueError, match="lowest first"):
        playtest.TesterView("source", feedback=[{"name": "fun", "scale": [5, 1]}])


def test_the_tester_sees_exactly_what_send_back_sends(tmp_path):
    view = playtest.TesterView("source", directory=tmp_path, feedback=[{"name": "fun", "ask": "Fun?",
                                                                        "scale": [1, 5]}])
    view.name.value = "Zoë"
    view.start_button.click()
    view.session.play(view.session.legal_actions()[0])
    view.sent_button.value = True
    assert view.sent.value == view.session.to_bytes().decode() and view.sent.layout.display == "block"
    sent = view.sent.value
    assert '"by":"Zoë"' in sent and str(tmp_path) not in sent and '"questions"' in sent
    view.feedback_button.click()
    assert view.table.feedback_panel.selected_index == 0
    assert list(view.table.feedback.controls) == ["fun"]


# ------------------------------------------------------------------ privacy

def test_no_login_name_and_no_machine_path_in_a_session_file(tmp_path, monkeypatch):
    import getpass
    monkeypatch.delenv("PLAYTEST_AUTHOR", raising=False)
    monkeypatch.setattr(getpass, "getuser", lambda: "root")
    session = Session("source", path=tmp_path / "p.playtest.json")
    session.play(session.legal_actions()[0])
    session.note("hello")
    text = session.path.read_text()
    assert session.author == "designer" and "root" not in text and str(tmp_path) not in text
    assert '"created":"' in text and "+0" not in text          # UTC, no time zone of the machine
    monkeypatch.setenv("PLAYTEST_AUTHOR", "Dr. Designer")
    assert Session("source").author == "Dr. Designer"


# ------------------------------------------------------------------ merging

def test_merging_keeps_times_true(tmp_path):
    early, clock_a = played(tmp_path / "a" if (tmp_path / "a").mkdir() is None else tmp_path, moves=3)
    late_clock = Clock(T0 + 3600)
    late = Session("eat_thyself", seed=1, path=tmp_path / "late.playtest.json", clock=late_clock)
    late.author = "Ben"
    for _ in range(2):
        late_clock.wait(10)
        late.play(late.legal_actions()[0])        # the same two first moves as early's, an hour later
    late.undo()
    late_clock.wait(10)
    late.play(late.legal_actions()[1])            # a line of its own
    early.record_refusal({"item": "slot:1"}, "no (rule E.1 §8)")
    early.give_feedback({"fun": 2})
    added = late.merge(early)
    assert added == {"positions": 1, "notes": 0}
    assert late.started == T0                                      # the earlier start
    assert [n.t for n in late._nodes[:3]] == [0.0, 5.0, 10.0]       # shared positions: the earlier times
    assert late._nodes[3].t == 3620.0 + 10                          # Ben's own line, moved to the new start
    assert all(n.t >= n.parent.t for n in late._nodes[1:])
    assert [(r.author, r.node) for r in late.refusals] == [("Alice", 3)] or late.refusals[0].author == "Alice"
    assert late.feedback[0].answers == {"fun": 2}
    reloaded = Session.load(late.path)                             # the file was written anew, in order
    assert [n.t for n in reloaded._nodes] == [n.t for n in late._nodes]


# ------------------------------------------------------------------ the tables

def test_think_time_counts_from_the_position_or_the_curtain_and_leaves_pauses_out(tmp_path):
    clock = Clock()
    session = Session("back_to_the_wall", seed=1, clock=clock)
    seat = session.game.pending_seats(session.state)[0] if session.to_move == playtest.SIMULTANEOUS \
        else session.to_move
    clock.wait(30)
    session.record_reveal(seat)                    # the curtain lifts 30 s after the position: passing, not thinking
    clock.wait(4)
    session.play(session.legal_actions(seat)[0])
    clock.wait(400)                                # a break
    nxt = session.game.pending_seats(session.state)[0] if session.to_move == playtest.SIMULTANEOUS \
        else session.to_move
    session.play(session.legal_actions(nxt)[0])
    report = playtest.playtests(session)
    assert report.moves["think"].tolist()[0] == 4.0
    assert report.moves["idle"].tolist() == [False, True] and report.problems["moves past the idle limit"] == 1
    assert playtest.playtests(session, idle=1000).moves["think"].tolist()[1] == 400.0
    with pytest.raises(ValueError, match="idle"):
        playtest.playtests(session, idle=0)


def test_games_are_lines_from_a_start_to_where_play_stopped():
    clock = Clock()
    session = Session("eat_thyself", seed=1, clock=clock)
    for _ in range(4):
        clock.wait(1)
        session.play(session.legal_actions()[0])
    session.undo()
    clock.wait(1)
    session.play(session.legal_actions()[1])             # a branch: a second game line
    session.set_params(num_players=3)                    # a new game
    for _ in range(3):
        clock.wait(2)
        session.play(session.legal_actions()[0])
    report = playtest.playtests(session)
    games = report.games
    assert games["moves"].tolist() == [4, 4, 3]
    assert games["params"].tolist() == ["num_players=2", "num_players=2", "num_players=3"]
    assert games["finished"].tolist() == [False, False, False]
    assert len(report.moves) == 4 + 1 + 3                 # every move once
    # a move belongs to the game its line goes on to: the first branch keeps its last move only
    assert report.moves.groupby("game_no").size().tolist() == [1, 4, 3]
    assert set(report.moves["phase"]) <= {"opening", "middle", "end"}
    assert "num_players" in report.moves.columns


def test_the_sample_playtests_are_real_session_files_of_several_testers_and_two_parameter_sets():
    report = playtest.playtests(SAMPLES)
    assert report.sessions == 6 and not report.skipped
    assert set(report.games["authors"]) == {"Ana", "Ben", "Chloé"}
    assert set(report.moves["wall_budget"]) == {8, 12}
    assert len(report.refusals) > 10 and len(report.notes) > 0
    assert set(report.feedback["question"]) >= {"fun", "clarity", "length"}
    assert report.moves["think"].notna().mean() > 0.95
    assert set(report.moves["human"]) == {True, False}


def test_refused_files_are_skipped_counted_and_named(tmp_path):
    session, _ = played(tmp_path, moves=2)
    (tmp_path / "broken.playtest.json").write_text('{"format": "playtest-session", "version": 2, "game": 5}\n')
    with pytest.warns(UserWarning, match="1 session file"):
        report = playtest.playtests(tmp_path)
    assert report.sessions == 1 and report.problems["files refused"] == 1
    assert report.skipped[0][0] == "broken.playtest.json" and str(tmp_path) not in report.skipped[0][1]
    with pytest.raises(FileNotFoundError):
        playtest.playtests(tmp_path / "nothing-here")
    with pytest.raises(TypeError):
        playtest.playtests([3])


def test_the_tables_export_to_csv_and_parquet(tmp_path):
    import pandas as pd
    report = playtest.playtests(SAMPLES)
    for path in report.to_parquet(tmp_path / "pq"):
        assert pd.read_parquet(path).shape == report.table(path.stem).shape
    for path in report.to_csv(tmp_path / "csv"):
        assert len(pd.read_csv(path)) == len(report.table(path.stem))


# ------------------------------------------------------------------ plots and the test

def test_every_plot_is_a_picture_with_a_title_naming_its_sessions():
    report = playtest.playtests(SAMPLES)
    charts = [report.think_time(), report.think_time(by="phase"), report.think_time(by="params", who="all"),
              report.game_length(), report.rule_confusion(), report.heatmap(), report.humans_and_bots(),
              report.feedback_by_params()]
    for chart in charts:
        png = chart._repr_png_()
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5000
        assert "6 sessions" in chart.title
    confusion = report.rule_confusion()
    labels = [t.get_text() for t in confusion.figure.axes[0].get_yticklabels()]
    assert any("A.1 §14" in label and "Clearance" in label or "budget" in label for label in labels)


def test_a_plot_with_nothing_to_show_says_so():
    empty = playtest.playtests([])
    assert "0 sessions" in empty.rule_confusion().title and empty.think_time()._repr_png_()[:4] == b"\x89PNG"
    with pytest.raises(ValueError, match="name one"):
        empty.heatmap()


@pytest.mark.parametrize("game", ["eat_thyself", "source", "corner_rush"])
def test_the_heatmap_draws_any_game_with_a_board(game):
    clock = Clock()
    session = Session(game, seed=1, clock=clock)
    import random
    rng = random.Random(1)
    for _ in range(12):
        if session.is_over:
            break
        clock.wait(1)
        session.play(session.game.random_action(session.state, rng))
    session.play_bot(RandomBot(seed=2)) if not session.is_over else None
    chart = playtest.playtests(session).heatmap()
    assert chart._repr_png_()[:4] == b"\x89PNG" and "places touched by people" in chart.title


def test_the_touched_places_are_the_items_that_offered_the_move():
    from playtest.analytics.heatmap import touched
    game = playtest.load("then_there_was_one")
    session = Session(game, seed=2011)
    start = session.legal_actions()[0]
    places = touched(game, session.state, start, game.apply(session.state, start), 1)
    assert places == [("board", "place", tuple(start.at))]


def test_compare_think_time_answers_with_p_values():
    report = playtest.playtests(SAMPLES)
    answer = report.compare_think_time("wall_budget", 8, 12)
    assert 0 <= answer.p_moves <= 1 and 0 <= answer.p_sessions <= 1
    assert answer.sessions_a == answer.sessions_b == 3 and answer.moves_a > 50
    assert "p =" in answer._repr_markdown_()
    with pytest.raises(ValueError, match="does not vary"):
        report.compare_think_time("move_length", 6, 5)
    with pytest.raises(ValueError, match="no timed moves"):
        report.compare_think_time("wall_budget", 8, 99)


def test_import_playtest_stays_light():
    code = "import sys, playtest; print('pandas' in sys.modules, 'matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.split() == ["False", "False"]
    assert callable(playtest.playtests)


def test_the_report_notebook_runs_and_shows_its_plots_as_pictures():
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    path = ROOT / "notebooks" / "playtest_report.ipynb"
    notebook = nbformat.read(path, as_version=4)
    assert all(not c.get("outputs") for c in notebook.cells if c.cell_type == "code")   # committed clean
    before = {p: p.read_bytes() for p in SAMPLES.glob("*.playtest.json")}
    import os
    env_path = os.environ.get("PYTHONPATH", "")
    os.environ["PYTHONPATH"] = str(ROOT) + (os.pathsep + env_path if env_path else "")
    try:
        nbclient.NotebookClient(notebook, timeout=600, resources={"metadata": {"path": str(path.parent)}}).execute()
    finally:
        os.environ["PYTHONPATH"] = env_path
    plots = [c for c in notebook.cells if c.cell_type == "code" and
             any(f"report.{name}(" in c.source for name in ("think_time", "game_length", "rule_confusion",
                                                           "heatmap", "humans_and_bots", "feedback_by_params"))]
    assert len(plots) == 7
    for cell in plots:
        assert any("image/png" in o.get("data", {}) for o in cell.outputs), cell.source
        assert not any("<Figure" in str(o.get("data", {}).get("text/plain", "")) for o in cell.outputs)
    assert {p: p.read_bytes() for p in SAMPLES.glob("*.playtest.json")} == before     # only read
