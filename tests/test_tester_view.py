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
