"""Widgets in Python: drive the board and the table with the messages the browser sends."""

from __future__ import annotations

import json

import pytest

import playtest
from playtest import Session, Table
from playtest.bots import RandomBot
from playtest.widgets.board import Board


def first_option(scene):
    """The first committable option of a scene, as the browser would send it."""
    for opts in scene["moves"].values():
        return opts[0]["action"]
    for targets in scene["selects"].values():
        for opts in targets.values():
            return opts[0]["action"]
    return scene["buttons"][0]["action"]


def send(table, content):
    """What the browser sends: a custom message through the widget's comm handler."""
    table.board._handle_custom_msg(content, [])


@pytest.fixture(params=playtest.games())
def table(request):
    return Table(Session(playtest.load(request.param), seed=3))


def test_a_committed_action_from_the_browser_plays_it(table):
    if table.board.curtain:             # a game with secrets: the seat to act lifts the curtain first
        send(table, {"type": "command", "name": "reveal", "seat": table.board.curtain["seats"][0][1]})
    before = table.session.move_number
    version = table.board.scene["version"]
    send(table, {"type": "action", "action": first_option(table.board.scene)})
    assert table.session.move_number == before + 1
    assert table.board.scene["version"] > version
    assert table.board.error == ""


@pytest.mark.parametrize("content", [
    "just text", 17, None, [], {"no": "type"}, {"type": "rm -rf"}, {"type": "action"},
    {"type": "action", "action": "move"}, {"type": "action", "action": {"slot": 1}},
    {"type": "action", "action": {"kind": "teleport"}},
    {"type": "action", "action": {"kind": "move", "slot": [1], "card": 0, "direction": 1}},
])
def test_malformed_messages_show_an_error_and_change_nothing(table, content):
    session = table.session
    before = (session.state, session.positions(), session.node)
    send(table, content)
    assert table.board.error
    assert (session.state, session.positions(), session.node) == before


def test_an_illegal_action_names_the_rule_and_changes_nothing():
    table = Table(Session(playtest.load("eat_thyself")))
    before = table.session.state
    send(table, {"type": "action", "action": {"kind": "move", "slot": 5, "card": 0, "direction": 1}})
    assert "rule E.1 §8" in table.board.error
    assert table.session.state == before
    send(table, {"type": "action", "action": first_option(table.board.scene)})
    assert table.board.error == ""                 # the next good action clears it


def test_undo_redo_buttons_and_the_move_log():
    session = Session(playtest.load("eat_thyself"))
    table = Table(session)
    assert table.undo_button.disabled and table.redo_button.disabled
    for _ in range(3):
        send(table, {"type": "action", "action": first_option(table.board.scene)})
    table.undo_button.click()
    assert session.move_number == 2 and not table.redo_button.disabled
    table.redo_button.click()
    assert session.move_number == 3
    labels = [label for label, _ in table.move_log.options]
    assert labels[0] == "start" and len(labels) == session.positions()
    table.move_log.value = table.move_log.options[1][1]     # jump by picking a log entry
    assert session.move_number == 1
    assert table.move_log.value == session.node


def test_branch_switcher():
    session = Session(playtest.load("eat_thyself"))
    table = Table(session)
    send(table, {"type": "action", "action": first_option(table.board.scene)})
    send(table, {"type": "action", "action": first_option(table.board.scene)})
    end_of_first = session.node
    table.undo_button.click()
    table.undo_button.click()
    options = [o for targets in table.board.scene["selects"].values() for opts in targets.values() for o in opts]
    send(table, {"type": "action", "action": options[-1]["action"]})
    assert len(table.branches.options) == 2 and not table.branches.disabled
    other = next(value for _, value in table.branches.options if value != table.branches.value)
    table.branches.value = other
    assert session.node == end_of_first


def test_notes_box_adds_a_note_shown_on_the_board():
    session = Session(playtest.load("eat_thyself"))
    table = Table(session)
    table.note_box.value = "<img src=x onerror=alert(1)>"
    table.note_button.click()
    assert session.notes[0].text == "<img src=x onerror=alert(1)>"
    assert table.note_box.value == ""
    panel = table.board.scene["panels"][-1]
    # drawn with textContent by the board renderer; the author (the designer's name by default) beside it
    assert panel["rows"] == [[session.author, "<img src=x onerror=alert(1)>"]]
    table.note_box.value = "   "
    table.note_button.click()
    assert "needs some text" in table.board.error


def test_live_parameter_from_the_panel_applies_when_entered():
    session = Session(playtest.load("eat_thyself"))
    table = Table(session)
    table.param_widgets["max_turns"].value = "77"          # typed: checked, not yet a step
    assert session.params.max_turns == 300
    table.param_widgets["max_turns"]._handle_custom_msg({"event": "submit"}, [])   # Enter, as the page sends it
    assert session.params.max_turns == 77
    assert "changed at this position" in table.notice.value
    table.undo_button.click()
    assert session.params.max_turns == 300 and table.param_widgets["max_turns"].value == "300"


def test_setup_parameters_wait_for_new_game():
    session = Session(playtest.load("eat_thyself"))
    table = Table(session)
    table.param_widgets["num_players"].value = 3
    assert session.params.num_players == 2                  # staged, not applied
    assert not table.new_game_button.disabled and "New game" in table.notice.value
    table.new_game_button.click()
    assert session.params.num_players == 3 and session.is_new_game()
    assert "New game" in table.notice.value
    assert [p.description for p in table.seat_pickers.values()] == ["Triangle ▲", "Circle ●", "Diamond ◆"]


def test_a_bad_setup_combination_is_refused_with_the_rule():
    session = Session(playtest.load("eat_thyself"))
    table = Table(session)
    table.param_widgets["card_pair"].value = "[\"1&2\", \"1&3\"]"
    table.new_game_button.click()
    assert "initial_faces" in table.board.error and session.params.card_pair == ("1&2", "2&4")
    table.param_widgets["initial_faces"].value = "not json"
    assert "JSON list" in table.board.error


def test_a_bot_takes_a_seat():
    session = Session(playtest.load("eat_thyself"))
    table = Table(session, bots={1: RandomBot(seed=1)})
    send(table, {"type": "action", "action": first_option(table.board.scene)})
    while session.to_move == 0 and session.state.phase != "move":
        send(table, {"type": "action", "action": first_option(table.board.scene)})
    assert session.to_move in (0, None)                     # the bot answered at once
    table.seat_pickers[0].value = "random"                  # now bots play both seats to the end
    assert session.is_over


def test_bot_turn_plays_a_whole_turn_and_bot_step_one_step():
    """Then There Was One's token turn is several steps (one per square, then an end): "Bot turn"
    plays all of them for the seat to act, "Bot step" one, to watch (issue 28, item 8)."""
    session = Session(playtest.load("then_there_was_one"), seed=2)
    table = Table(session)
    while session.to_move == playtest.CHANCE or session.state.phase != "token":
        table.bot_button.click()
        assert table.board.error == ""
    seat, moves = session.to_move, session.move_number
    table.bot_step_button.click()
    assert session.to_move == seat and session.move_number == moves + 1     # one step, same turn
    table.bot_button.click()
    assert session.to_move != seat and session.move_number > moves + 2      # the rest of the turn
    assert table.board.error == ""
    eat = Session(playtest.load("eat_thyself"))
    Table(eat).bot_button.click()
    assert eat.move_number >= 1 and eat.to_move == 1                        # Triangle's turn, all of it


def test_displaying_a_session_shows_its_table():
    session = Session(playtest.load("eat_thyself"))
    bundle = session._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert "application/vnd.jupyter.widget-view+json" in data
    assert data["text/plain"] == "Table(eat_thyself: move 0, Triangle ▲ to move)"


def test_board_repr_and_scene_are_json(table):
    assert repr(table.board).startswith("Board(")
    json.dumps(table.board.scene)


def test_board_alone():
    board = Board({"boards": [], "items": []})
    got = []
    board.on_action(got.append)
    board.receive({"type": "action", "action": {"kind": "x"}})
    assert got == [{"kind": "x"}] and board.scene["version"] == 1


def test_the_scene_travels_as_json_text_with_its_version_first(table):
    """What the browser parses is the scene Python holds, version included, for every game."""
    sent = json.loads(table.board.scene_json)
    assert sent == table.board.scene and next(iter(sent)) == "version"
    before = sent["version"]
    table.board.show({"boards": [], "items": [], "version": 99})     # a stale version is replaced
    assert json.loads(table.board.scene_json) == {"version": before + 1, "boards": [], "items": []}
    table.board.show({})
    assert json.loads(table.board.scene_json) == {"version": before + 2}


def test_tables_of_one_session_share_one_encoding_per_change():
    session = Session(playtest.load("eat_thyself"), seed=2)
    tables = [Table(session) for _ in range(3)]
    send(tables[0], {"type": "action", "action": first_option(tables[0].board.scene)})
    logs = {id(t.move_log.items) for t in tables}
    assert len(logs) == 1 and tables[0].move_log.options is tables[1].move_log.options
    bodies = {t.board.scene_json.split(",", 1)[1] for t in tables}   # all but the version
    assert len(bodies) == 1


def test_the_move_log_picks_by_message_and_refuses_anything_else():
    """The log and branch menu are pickers: the page sends ``{"type": "pick", "value": id}``;
    a value that is not one of the entries (a bool, a text, a huge number) changes nothing
    and the board says why."""
    session = Session(playtest.load("eat_thyself"), seed=2)
    table = Table(session)
    for _ in range(3):
        send(table, {"type": "action", "action": first_option(table.board.scene)})
    first = table.move_log.options[1][1]
    table.move_log._handle_custom_msg({"type": "pick", "value": first}, [])
    assert session.node == first and table.move_log.value == first
    for bad in ({"type": "pick", "value": True}, {"type": "pick", "value": "3"},
                {"type": "pick", "value": 10 ** 30}, {"type": "pick"}, {"type": "nope", "value": 1}, [1],
                {"type": "pick", "value": 999}):
        table.board.error = ""
        table.move_log._handle_custom_msg(bad, [])
        assert session.node == first and "nothing was changed" in table.board.error
    table.branches._handle_custom_msg({"type": "pick", "value": 2}, [])     # one line: menu disabled
    assert session.node == first and table.branches.disabled


def test_a_picker_refuses_options_that_are_not_label_and_number_pairs():
    from playtest.widgets.picker import Picker

    picker = Picker([("start", 0)])
    for bad in ([("a", "1")], [("a", True)], [(1, 2)], [("a", 1, 2)], ["a"]):
        with pytest.raises(TypeError, match="label, whole number"):
            picker.options = bad
        assert picker.options == (("start", 0),)


@pytest.mark.parametrize("name", ["eat_thyself", "secret_bid"])
def test_the_move_log_says_what_the_history_says(name):
    """The log's labels are made once per position and viewer; they always read as the session's
    history does (move number or ⚙/🎲, the notation for the table's viewer, 📝 where notes are),
    through moves, undos, notes, forced chance and jumps."""
    import random

    def expected(session, viewer):
        prefix = {"root": "", "params": "⚙ ", "chance": "🎲 "}
        return tuple((prefix.get(e["kind"], f"{e['move']}. ") + e["notation"] + (" 📝" if e["notes"] else ""),
                      e["node"]) for e in session.history(viewer))

    session = Session(playtest.load(name), seed=5)
    tables = [Table(session), Table(session, seat=0)]
    rng = random.Random(5)
    for step in range(60):
        roll = rng.random()
        if session.is_over or (roll < 0.15 and session.can_undo):
            session.undo()
        elif roll < 0.2:
            session.note(f"note {step}")
        elif roll < 0.25:
            session.goto(rng.randrange(session.positions()))
        elif session.to_move == playtest.CHANCE:
            session.roll()
        else:
            action = rng.choice(session.legal_actions())
            seat = session.game.seat_of(session.state, action) if session.to_move == playtest.SIMULTANEOUS else None
            session.play(action, seat=seat)
        for table in tables:
            assert table.move_log.options == expected(session, table.viewer)
