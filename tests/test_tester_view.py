"""The tester's view and seat-bound tables, second pass (issue 25, points 4 and 6)."""

from __future__ import annotations

import json

import pytest

import playtest
from playtest import Session
from playtest.journal import EXPORT_FORMAT
from playtest.widgets.tester_view import best_bot, seat_bots, session_file_for


def sent_of(table):
    sent = []
    table.board.send = lambda content, buffers=None: sent.append((content, buffers))
    return sent


def start(view, name, seat=None):
    view.name.value = name
    view.seat.value = -1 if seat is None else seat
    view.start_button.click()


def test_one_file_per_tester_whatever_the_name(tmp_path):
    names = ["ALICE", "alice", "Alice", "山田", "王芳", "  Ana   María "]
    files = {session_file_for(tmp_path, "source", n) for n in names}
    assert len(files) == len(names) - 0        # every tester has a file of their own
    assert session_file_for(tmp_path, "source", "Ana María") == session_file_for(tmp_path, "source", " Ana  María")
    view_a, view_b = playtest.TesterView("source", directory=tmp_path), playtest.TesterView("source", directory=tmp_path)
    start(view_a, "ALICE")
    view_a.session.play(view_a.session.legal_actions()[0])
    start(view_b, "alice")
    assert view_b.session.path != view_a.session.path and view_b.session.move_number == 0
    assert all(p.parent == tmp_path for p in (view_a.session.path, view_b.session.path))   # one clear folder


def test_a_new_tester_is_not_told_of_positions_they_never_played(tmp_path):
    view = playtest.TesterView("eat_thyself", directory=tmp_path)      # its setup makes positions of its own
    start(view, "Newcomer")
    assert "resumed" not in view.message.value
    view.session.play(view.session.legal_actions()[0])
    again = playtest.TesterView("eat_thyself", directory=tmp_path)
    view.table.close()
    view.session._journal.close()
    from playtest.session import files
    files._OPEN.clear()
    start(again, "Newcomer")
    assert "resumed at move 1" in again.message.value


def test_the_other_seats_are_played_by_bots_said_on_screen(tmp_path):
    view = playtest.TesterView("source", directory=tmp_path)
    start(view, "Bea", seat=0)
    assert view.table.seat == 0 and set(view.table.bots) == {1}
    assert best_bot(view.game, 1) == "greedy"
    assert "the greedy bot (the game's best available bot)" in view.message.value
    chosen = playtest.TesterView("source", directory=tmp_path, bots={1: "random"})
    start(chosen, "Cy", seat=0)
    assert "the random bot (the designer's choice)" in chosen.message.value
    hot = playtest.TesterView("source", directory=tmp_path)
    start(hot, "Dee")
    assert hot.table.bots == {} and "Played by bots" not in hot.message.value
    with pytest.raises(ValueError, match="by seat"):
        playtest.TesterView("source", bots={5: "random"})
    with pytest.raises(ValueError, match="no bot called"):
        playtest.TesterView("source", bots={1: "cleverest"})
    assert seat_bots(view.game, None, None) == {}


def test_a_seated_tester_is_never_stranded(tmp_path):
    view = playtest.TesterView("eat_thyself", directory=tmp_path)
    start(view, "Eve", seat=1)
    session = view.session
    for _ in range(6):                           # the tester plays seat 1; the bot answers for seat 0
        if session.is_over:
            break
        if session.to_move == 1:
            view.table.board.receive({"type": "action", "action": session.legal_actions(1)[0].to_json()})
            assert view.table.board.error == ""
        assert session.to_move in (1, None), "the other seat was left waiting for nobody"


def test_the_tester_gets_no_designer_controls_unless_allowed(tmp_path):
    view = playtest.TesterView("source", directory=tmp_path)
    start(view, "Fay")
    table = view.table
    for widget in (table.param_panel, table.save_path, table.upload, table.download_button):
        assert widget.layout.display == "none"
    spec = table.session.params.specs()[0]
    before = table.session.params
    table._on_param(spec, spec.default)
    table._on_param(spec, (spec.choices or [spec.max or spec.default])[-1])
    assert table.session.params == before and "designer" in table.board.error
    table._on_upload({"new": ({"name": "x.json", "content": memoryview(b"{}")},)})
    assert "designer" in table.board.error
    allowed = playtest.TesterView("source", directory=tmp_path, allow_params=True)
    start(allowed, "Gus")
    assert allowed.table.param_panel.layout.display != "none"
    allowed.table._on_param(allowed.table.session.params.spec("ap_per_turn"), 3)
    assert allowed.session.params.ap_per_turn == 3


def test_send_back_sends_the_whole_file_and_says_so_beside_the_button(tmp_path):
    view = playtest.TesterView("source", directory=tmp_path)
    start(view, "Hal", seat=0)
    view.session.note("a <b>bold</b> claim")
    sent = sent_of(view.table)
    view.send_button.click()
    content, buffers = sent[-1]
    assert content["type"] == "download" and content["name"] == view.session.path.name
    back = Session.from_records_bytes(buffers[0])
    assert [n.text for n in back.notes] == ["a <b>bold</b> claim"]
    assert "Sent" in view.sent_note.value and content["name"] in view.sent_note.value
    row = view.children[0]
    assert view.sent_note in row.children and row.children.index(view.sent_note) == \
        row.children.index(view.send_button) + 1


@pytest.mark.parametrize("game", ["corner_rush", "back_to_the_wall"])
def test_a_seat_bound_table_gives_only_its_seat_and_changes_nothing_shared(game):
    import random
    session = Session(game, seed=3)
    rng = random.Random(3)
    for _ in range(12):
        if session.is_over:
            break
        mover = session.to_move
        if mover == playtest.CHANCE:
            session.roll()
        elif mover == playtest.SIMULTANEOUS:
            seat = session.game.pending_seats(session.state)[0]
            session.play(rng.choice(session.legal_actions(seat)), seat=seat)
        else:
            session.play(rng.choice(session.legal_actions()))
    table = playtest.Table(session, seat=0)
    sent = sent_of(table)
    table.download_button.click()
    content, buffers = sent[-1]
    export = json.loads(buffers[0])
    assert export["format"] == EXPORT_FORMAT and export["seat"] == 0
    assert export == {**session.export(0), "saved": export["saved"]}
    with pytest.raises(playtest.SessionFileError):
        Session.from_records_bytes(buffers[0])          # never the replayable file, with every secret
    node, params, positions = session.node, session.params, session.positions()
    table.undo_button.click()
    table.redo_button.click()
    table._on_log_pick({"new": 0})
    table._on_branch_pick({"new": 0})
    spec = session.params.specs()[0]
    table._on_param(spec, spec.default)
    table._apply_staged()
    table._on_seat_pick(1, "random")
    if session.to_move not in (0, None, playtest.CHANCE, playtest.SIMULTANEOUS):
        table.bot_button.click()
    assert (session.node, session.params, session.positions()) == (node, params, positions)
    assert table.move_log.value == session.node
    assert table.branches.layout.display == "none" and table.param_panel.layout.display == "none"
    assert "designer" in table.board.error or "plays for" in table.board.error


def test_replay_is_read_only_with_step_controls_and_refuses_a_tampered_file(tmp_path):
    path = tmp_path / "tester.playtest.json"
    session = Session("source", seed=1, path=path)
    session.author = "Alice"
    for _ in range(4):
        session.play(session.legal_actions()[0])
    session.note("look at move 2", author="Alice")
    recorded = path.read_bytes()
    view = playtest.replay(path, move=2)
    assert view.session.move_number == 2 and view.slider.value == 2
    view.next_button.click()
    assert view.session.move_number == 3
    view.first_button.click()
    assert view.session.move_number == 0 and "position 0 of 4" in view.label.value
    view.last_button.click()
    view.back_button.click()
    assert view.session.move_number == 3
    table = view.table
    positions = view.session.positions()
    table.board.receive({"type": "action", "action": view.session.legal_actions()[0].to_json()})
    table.note_box.value = "a note in a replay"
    table._add_note()
    table.undo_button.click()
    assert view.session.positions() == positions and len(view.session.notes) == 1
    assert "designer" in table.board.error or "view does not offer" in table.board.error
    assert path.read_bytes() == recorded                 # nothing written, ever
    assert playtest.replay(recorded).session.positions() == positions        # the bytes of a download
    with pytest.raises(ValueError, match="move must be"):
        playtest.replay(path, move=99)
    tampered = recorded.replace(b'"col":1', b'"col":42', 1)
    with pytest.raises(playtest.SessionFileError):
        playtest.replay(tampered)
    foreign = tmp_path / "foreign.json"
    foreign.write_text('{"format": "something-else"}\n')
    with pytest.raises(playtest.SessionFileError):
        playtest.replay(foreign)
    with pytest.raises(TypeError):
        playtest.replay(12)


def test_the_referee_view_shows_every_seat_its_secrets():
    session = Session("corner_rush", seed=2)
    import random
    rng = random.Random(2)
    for _ in range(6):
        if session.to_move == playtest.CHANCE:
            session.roll()
        elif session.to_move is not None:
            mover = session.to_move
            seat = session.game.pending_seats(session.state)[0] if mover == playtest.SIMULTANEOUS else None
            session.play(rng.choice(session.legal_actions(seat)), seat=seat)
    referee = playtest.RefereeView(session)
    assert len(referee.boards) == len(session.game.seats())
    for seat, board in enumerate(referee.boards):
        shown = {k: v for k, v in board.scene.items() if k != "version"}
        assert shown == session.game.view(session.state, seat)
    views = [json.dumps(session.game.view(session.state, s), sort_keys=True) for s in range(2)]
    assert views[0] != views[1]                 # each seat's own secrets: not one view for all
    referee.close()


def test_the_merged_report_lists_each_authors_moves_and_notes():
    designer = Session("source", seed=1)
    designer.author = "Dana"
    designer.play(designer.legal_actions()[0])
    tester = Session("source", seed=1)
    tester.author = "Alice"
    tester.play(tester.legal_actions()[-1])
    tester.play(tester.legal_actions()[0])
    tester.note("*bold* [x](http://a.b)")
    designer.merge(tester)
    report = designer.report()
    alice = report[report.index("### Alice"):report.index("### Dana")]
    assert "moves first played by them (2)" in alice and "📝" in alice and "\\[x\\]" in alice
    assert "moves first played by them (1)" in report[report.index("### Dana"):]


def test_the_designer_is_asked_for_a_name_once_and_it_is_kept(tmp_path, monkeypatch):
    monkeypatch.delenv("PLAYTEST_AUTHOR", raising=False)
    path = tmp_path / "mine.playtest.json"
    session = Session("source", seed=1, path=path)
    assert session.author == "designer"           # never the machine's login name
    table = playtest.Table(session)
    side = table._side_column()
    assert table.author_row in side.children and side.children[0] is table.author_row
    table.author_box.value = "   "
    table.author_button.click()
    assert "name" in table.board.error and session.author == "designer"
    table.author_box.value = "Dana  Designer"
    table.author_button.click()
    assert session.author == "Dana Designer" and table.author_row not in side.children
    session.play(session.legal_actions()[0])
    session.note("my note")
    again = Session.read(path)
    assert again.author == "Dana Designer" and again.notes[0].author == "Dana Designer"
    again_table = playtest.Table(again)
    assert again_table.author_row not in again_table._side_column().children       # asked once
    assert json.loads(path.read_text().splitlines()[0])["author"] == "Dana Designer"
    bad = path.read_text().splitlines()
    header = json.loads(bad[0])
    header["author"] = ["not", "a", "name"]
    (tmp_path / "bad.playtest.json").write_text("\n".join([json.dumps(header), *bad[1:]]) + "\n")
    with pytest.raises(playtest.SessionFileError, match="author"):
        Session.read(tmp_path / "bad.playtest.json")


def test_a_seated_tester_sees_no_bot_secret_before_sending_and_the_designer_can_replay(tmp_path):
    view = playtest.TesterView("corner_rush", directory=tmp_path)
    start(view, "Ida", seat=0)
    session = view.session
    assert view.hides_secrets()
    view.sent_button.value = True
    shown = view.sent.value
    assert shown.startswith("Send back sends your whole session file: it also holds the other seats' hidden")
    assert json.loads(shown.split("\n\n", 1)[1]) == {**session.export(0), "saved": json.loads(
        shown.split("\n\n", 1)[1])["saved"]}                  # the seat's export, not the file
    assert session.to_bytes().decode() not in shown
    sent = sent_of(view.table)
    view.send_button.click()                    # the game is in progress: asked again first, nothing sent
    assert sent == [] and "not over" in view.sent_note.value
    assert view.send_anyway.layout.display != "none"
    row = view.children[0].children
    assert row.index(view.send_anyway) == row.index(view.sent_note) + 1       # beside the button
    view.send_anyway.click()
    content, buffers = sent[-1]
    assert content["type"] == "download" and "Sent" in view.sent_note.value
    assert view.send_anyway.layout.display == "none"
    back = Session.from_records_bytes(buffers[0])          # the whole file: the designer replays it
    assert back.positions() == session.positions()
    assert back.notes[-1].author == "Ida" and back.notes[-1].text.startswith(
        f"(sent back at move {session.move_number}, before the game was over")
    assert playtest.replay(buffers[0]).session.positions() == session.positions()


@pytest.mark.parametrize("game, seat", [("source", 0), ("corner_rush", None)])
def test_send_back_is_at_once_where_nothing_is_hidden_from_the_tester(tmp_path, game, seat):
    view = playtest.TesterView(game, directory=tmp_path)
    start(view, "Jo", seat=seat)
    assert not view.hides_secrets()
    sent = sent_of(view.table)
    view.send_button.click()
    assert len(sent) == 1 and view.send_anyway.layout.display == "none"
    assert Session.from_records_bytes(sent[0][1][0]).notes == []
    view.sent_button.value = True
    assert view.sent.value == view.session.to_bytes().decode()
