"""The table's cost (issue 8): one cached table per session, tables that rest when no view of them
is left, one scene per change shared by every table, nothing sent that did not change."""

from __future__ import annotations

import pytest

import playtest
from playtest.bots import RandomBot


def test_a_session_shows_one_cached_table_and_bots_join_it():
    session = playtest.Session("eat_thyself", seed=1)
    table = session.table()
    assert session.table() is table
    assert session.table(bots={1: RandomBot(seed=1)}) is table and 1 in table.bots
    table.close()
    assert session.table() is not table


def test_a_closed_table_stops_following_the_session():
    session = playtest.Session("eat_thyself", seed=1)
    table = playtest.Table(session)
    version = table.board.scene["version"]
    table.close()
    session.play(session.legal_actions()[0])
    assert table.board.scene["version"] == version and session._listeners == []


def test_a_table_with_no_view_left_rests_and_catches_up():
    session = playtest.Session("eat_thyself", seed=1)
    table = playtest.Table(session)
    table.board.receive({"type": "view", "open": True})        # drawn in a browser
    table.board.receive({"type": "view", "open": False})       # its cell was run again
    version = table.board.scene["version"]
    session.play(session.legal_actions()[0])
    assert table.resting and table.board.scene["version"] == version
    table.board.receive({"type": "view", "open": True})        # shown again: it redraws once
    assert not table.resting and table.board.scene["version"] == version + 1
    assert table.move_log.value == session.node


def test_tables_of_one_session_share_one_scene_per_change():
    session = playtest.Session("source", seed=1)
    calls = []
    view = session.game.view

    def counting_view(state, seat=None):
        calls.append(seat)
        return view(state, seat)

    session.game.view = counting_view
    tables = [playtest.Table(session) for _ in range(5)]
    calls.clear()
    session.play(session.legal_actions()[0])
    assert len(calls) == 1 and all(t.board.scene["version"] > 1 for t in tables)


def test_a_bot_that_fails_is_named_on_the_board_and_play_goes_on():
    from playtest.bots import Bot

    class Broken(Bot):
        def choose(self, game, state, seat=None):
            raise KeyError("oops")

    session = playtest.Session("eat_thyself", seed=1)
    table = playtest.Table(session, bots={0: Broken()})
    assert "the bot for Triangle ▲ (Broken) failed: KeyError" in table.board.error
    assert session.move_number == 0


class _FakeIOPub:
    """ipykernel's IOPub thread as the table sees it: ``schedule(f)`` queues ``f`` for a thread
    of its own (``thread``), which runs the queue in order."""

    def __init__(self, stuck: bool = False):
        import queue
        import threading
        self.ran: list[str] = []
        self._queue: queue.Queue = queue.Queue()
        self._stuck = stuck
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while True:
            f = self._queue.get()
            if f is None:
                return
            if not self._stuck:
                self.ran.append("sent")
                f()

    def schedule(self, f) -> None:
        self._queue.put(f)

    def stop(self) -> None:
        self._queue.put(None)
        self.thread.join(5)


def _fake_kernel(monkeypatch, iopub: _FakeIOPub) -> None:
    import sys
    import types

    class Kernel:
        @staticmethod
        def initialized() -> bool:
            return True

        @staticmethod
        def instance():
            return types.SimpleNamespace(iopub_thread=iopub)

    monkeypatch.setitem(sys.modules, "ipykernel.kernelbase", types.SimpleNamespace(Kernel=Kernel))


def test_in_a_kernel_the_boards_message_leaves_before_the_table_updates_the_rest(monkeypatch):
    """A click's board update is handed to the kernel's IOPub thread and sent before the table
    goes on to the move log and menus, so the page draws the board while the kernel finishes."""
    from playtest.widgets.board import send_now
    iopub = _FakeIOPub()
    _fake_kernel(monkeypatch, iopub)
    try:
        assert send_now() is True and iopub.ran == ["sent"]
        session = playtest.Session("eat_thyself", seed=1)
        table = playtest.Table(session)
        order: list[str] = []
        set_options = table.move_log.set_options
        monkeypatch.setattr(table.move_log, "set_options",
                            lambda *a, **k: (order.append(f"log after {len(iopub.ran)} sends"), set_options(*a, **k)))
        session.play(session.legal_actions()[0])          # no view in a browser: nothing to hurry
        assert order == ["log after 1 sends"]
        table.board.receive({"type": "view", "open": True})
        session.play(session.legal_actions()[0])
        assert order[-1] == "log after 2 sends" and table.move_log.value == session.node
    finally:
        iopub.stop()


def test_a_stuck_iopub_thread_delays_a_click_by_the_timeout_and_loses_nothing(monkeypatch):
    from playtest.widgets.board import send_now
    iopub = _FakeIOPub(stuck=True)
    _fake_kernel(monkeypatch, iopub)
    try:
        assert send_now(timeout=0.01) is False
        session = playtest.Session("eat_thyself", seed=1)
        table = playtest.Table(session)
        table.board.receive({"type": "view", "open": True})
        action = session.legal_actions()[0]
        table.board.receive({"type": "action", "action": action.to_json()})
        assert table.board.error == "" and session.move_number == 1 and table.move_log.value == session.node
    finally:
        iopub.stop()


# ------------------------------------------------------------------ previews (clicks that draw at once)

def _previews(table) -> list:
    """The board's answers to the page's preview requests (what ``Board.send`` would send)."""
    answers: list = []
    table.board.send = lambda content, buffers=None: answers.append(content)
    return answers


@pytest.mark.parametrize("name", ["eat_thyself", "then_there_was_one", "source"])
def test_a_preview_is_exactly_the_scene_the_move_then_draws(name):
    """Along random play, for each legal action (up to eight a position): the scene its preview
    promised is the scene the table draws once it is played (played, compared, undone)."""
    import json
    import random

    session = playtest.Session(name, seed=3)
    table = playtest.Table(session)
    answers = _previews(table)
    rng = random.Random(3)
    compared = 0
    for _ in range(10):
        if session.is_over:
            break
        if session.to_move == playtest.CHANCE:
            session.roll()
            continue
        actions = session.legal_actions()[:8]
        for n, action in enumerate(actions):
            table.board.receive({"type": "preview", "n": n, "version": table.board.version,
                                 "actions": [action.to_json()]})
            promised = answers[-1]
            assert promised["n"] == n and promised["scenes"][0] is not None   # no chance, no secrets here
            table.board.receive({"type": "action", "action": action.to_json()})
            drawn = json.loads(table.board.scene_json)
            drawn.pop("version")
            assert json.loads(promised["scenes"][0]) == drawn, session.history()[-1]["notation"]
            compared += 1
            session.undo()
        session.play(rng.choice(actions))
    assert compared >= 30 and table.board.error == ""


def test_no_preview_where_it_could_tell_a_secret_or_chance(monkeypatch):
    session = playtest.Session("corner_rush", seed=1)            # a game with secrets
    table = playtest.Table(session, seat=session.to_move)
    answers = _previews(table)
    action = session.legal_actions(session.to_move)[0].to_json()
    table.board.receive({"type": "preview", "n": 4, "version": table.board.version, "actions": [action]})
    assert answers == [{"type": "preview", "n": 4, "scenes": [None]}]
    # chance moves next: what it draws is not known before the move is made
    session = playtest.Session("eat_thyself", seed=1)
    table = playtest.Table(session)
    answers = _previews(table)
    now, to_move = session.state, session.game.to_move
    monkeypatch.setattr(session.game, "to_move", lambda state: to_move(state) if state is now else playtest.CHANCE)
    table.board.receive({"type": "preview", "n": 5, "version": table.board.version,
                         "actions": [session.legal_actions()[0].to_json()]})
    assert answers == [{"type": "preview", "n": 5, "scenes": [None]}]


def test_a_preview_for_an_old_scene_another_seat_or_a_bots_seat_is_none():
    session = playtest.Session("eat_thyself", seed=1)
    mover = session.to_move
    action = session.legal_actions()[0].to_json()
    table = playtest.Table(session)
    answers = _previews(table)
    table.board.receive({"type": "preview", "n": 1, "version": table.board.version - 1, "actions": [action]})
    other = playtest.Table(session, seat=1 - mover)             # a tester's table for the other seat
    other_answers = _previews(other)
    other.board.receive({"type": "preview", "n": 2, "version": other.board.version, "actions": [action]})
    table.bots = {mover: RandomBot(seed=1)}                     # that seat is a bot's now
    table.board.receive({"type": "preview", "n": 3, "version": table.board.version, "actions": [action]})
    assert answers == [{"type": "preview", "n": 1, "scenes": [None]}, {"type": "preview", "n": 3, "scenes": [None]}]
    assert other_answers == [{"type": "preview", "n": 2, "scenes": [None]}]


def test_preview_requests_never_change_the_session_and_bad_ones_are_named():
    session = playtest.Session("then_there_was_one", seed=2)
    table = playtest.Table(session)
    answers = _previews(table)
    before = (session.state, session.node, session.positions())
    garbage = [{"kind": "place", "at": "z99"}, {"kind": "wall"}, {"kind": "nonsense", "x": [[1]]},
               {"kind": "place", "at": float("nan")}]
    legal = session.legal_actions()[0].to_json()
    table.board.receive({"type": "preview", "n": 1, "version": table.board.version, "actions": [*garbage, legal]})
    assert answers[-1]["n"] == 1 and answers[-1]["scenes"][:4] == [None] * 4 and answers[-1]["scenes"][4]
    assert table.board.error == ""
    for bad, field in (({"type": "preview", "version": 1, "actions": [{"kind": "x"}]}, "'n'"),
                       ({"type": "preview", "n": -1, "version": 1, "actions": [{"kind": "x"}]}, "'n'"),
                       ({"type": "preview", "n": 1, "version": True, "actions": [{"kind": "x"}]}, "'version'"),
                       ({"type": "preview", "n": 1, "version": 1, "actions": [[1]]}, "'kind'"),
                       ({"type": "preview", "n": 1, "version": 1, "actions": []}, "'actions'"),
                       ({"type": "preview", "n": 1, "version": 1, "actions": [legal] * 17}, "1 to 16"),
                       ({"type": "preview", "n": 1, "version": 1, "action": legal}, "'actions'")):
        table.board.error = ""
        table.board.receive(bad)
        assert field in table.board.error and "nothing was changed" in table.board.error
    assert (session.state, session.node, session.positions()) == before


def test_a_preview_request_costs_the_kernel_a_bounded_time(monkeypatch):
    """A click waits behind a preview request, so one request stops making scenes once its time
    is spent (the first is always made); the page asks for the rest again when it needs them."""
    import time

    session = playtest.Session("then_there_was_one", seed=2)
    table = playtest.Table(session)
    answers = _previews(table)
    make = table._preview_scene

    def slow(action):
        time.sleep(0.005)
        return make(action)

    monkeypatch.setattr(table, "_preview_scene", slow)
    actions = [a.to_json() for a in session.legal_actions()[:16]]
    assert len(actions) >= 6
    started = time.perf_counter()
    table.board.receive({"type": "preview", "n": 1, "version": table.board.version, "actions": actions})
    assert time.perf_counter() - started < table.board.PREVIEW_SECONDS + 0.05
    scenes = answers[-1]["scenes"]
    assert 1 <= len(scenes) < len(actions) and all(scenes)
    table.board.receive({"type": "preview", "n": 2, "version": table.board.version, "actions": actions[-1:]})
    assert answers[-1]["scenes"][0]                     # asked again alone: made


# ---------------------------------------------------------------------- issue 28: the table a designer meets

def _btw(**params):
    return playtest.load("back_to_the_wall", **params)


def _submit_as(table, seat, actions=()):
    """Lift the curtain as ``seat`` and click its order: the parts, then Submit."""
    from playtest.games.back_to_the_wall import Submit
    if table.board.curtain:
        table.board.receive({"type": "command", "name": "reveal", "seat": seat})
    for action in (*actions, Submit(seat)):
        table.board.receive({"type": "action", "action": action.to_json()})
        assert table.board.error == "", table.board.error


def test_a_round_resolved_with_bots_seated_plays_back_before_the_curtain_and_the_bots():
    """North is a person, the others bots: when North submits last the round resolves, and the table
    plays the resolution at its own level (no seat's secrets) with the curtain down and the bots
    waiting; Continue raises the curtain for North and lets the bots enter the next round."""
    from playtest.games.back_to_the_wall import AddWall
    session = playtest.Session(_btw(rounds=2), seed=1)
    table = playtest.Table(session, bots={1: RandomBot(seed=1), 2: RandomBot(seed=2), 3: RandomBot(seed=3)})
    assert session.game.pending_seats(session.state) == (0,)      # the bots submitted at once
    _submit_as(table, 0, [AddWall(0, 1, (3, 4))])
    frames = session.playback(None)
    assert frames and table.held and table.viewer is None and table.board.curtain == {}
    assert session.state.round == 2 and all(o is None for o in session.state.orders)   # bots wait
    assert table.playback.layout.display == "flex" and table.continue_button.layout.display == ""
    assert table.playback_slider.value == 0 and table.playback_play.playing     # it plays from its start
    assert table.board.scene["hint"] == frames[0]["hint"]
    assert "Continue" in table.playback_label.value and "North" in table.playback_label.value
    table.board.receive({"type": "action", "action": AddWall(0, 0, (3, 3)).to_json()})
    assert "press Continue" in table.board.error and session.state.orders[0] is None
    table.playback_slider.value = 2
    assert table.board.scene["hint"] == frames[2]["hint"]
    table.continue_button.click()
    assert not table.held and table.board.curtain["text"] == "Pass to North: click when ready"
    assert session.game.pending_seats(session.state) == (0,)      # the bots entered round 2
    assert table.continue_button.layout.display == "none"


def test_a_table_bound_to_a_seat_holds_the_resolution_before_its_bots_play_on():
    session = playtest.Session(_btw(rounds=2), seed=1)
    table = playtest.Table(session, seat=0, bots={1: RandomBot(seed=1), 2: RandomBot(seed=2), 3: RandomBot(seed=3)})
    _submit_as(table, 0)
    assert table.held and table._frames == session.playback(0) and session.state.orders[1] is None
    table.continue_button.click()
    assert session.game.pending_seats(session.state) == (0,)


def test_no_hold_when_the_game_is_over_or_nothing_would_follow_at_once():
    session = playtest.Session(_btw(rounds=1), seed=1)
    table = playtest.Table(session)
    for seat in range(4):
        _submit_as(table, seat)
    assert session.is_over and not table.held
    assert table.playback_slider.value == table.playback_slider.max       # the live board, as before
    two = playtest.Session("eat_thyself", seed=1)
    eat = playtest.Table(two, bots={1: RandomBot(seed=1)})
    eat.bot_button.click()
    assert not eat.held and two.to_move == 0


def test_the_log_shows_a_seats_order_as_one_row_that_unfolds_and_the_resolution_board_by_board():
    from playtest.games.back_to_the_wall import AddWall, Direct
    session = playtest.Session(_btw(rounds=1), seed=1)
    table = playtest.Table(session)
    north = [AddWall(0, 1, (3, 4)), AddWall(0, 2, (4, 4)), Direct(0, 0, 0, 1, "right")]
    _submit_as(table, 0, north)
    labels = [label for label, _ in table.move_log.options]
    assert labels == ["start", "1–4. North's order (4 steps)"]
    row = table.move_log.options[1][1]
    members = table.move_log.details[row]["members"]
    assert [label for label, _ in members] == [f"{k}. North changes their order" for k in (1, 2, 3)] + [
        "4. North submitted"]
    assert row == session.node == members[-1][1]
    table.move_log.receive({"type": "pick", "value": members[0][1]})    # a step inside the row
    assert session.node == members[0][1] and table.board.error == ""
    table.move_log.receive({"type": "pick", "value": row})
    for seat in (1, 2, 3):
        _submit_as(table, seat)
    label, last = table.move_log.options[-1]
    assert label == "7. West submitted: round 1 resolves" and len(label) < 60
    lines = table.move_log.details[last]["lines"]
    assert lines[0].startswith("North's order: walls Twice d5, Thrice e5; pieces Once →")
    assert [line.split(":")[0] for line in lines[4:7]] == ["Once", "Twice", "Thrice"]
    assert "cells N" in lines[4] and lines[-1].startswith("garnet bonuses:")
    assert session.history()[-1]["notation"].startswith("West submitted; round 1 revealed")  # the record stays
    # the bound table of North reads its own parts in the unfolded row
    bound = playtest.Table(session, seat=0)
    first = bound.move_log.details[bound.move_log.options[1][1]]["members"]
    assert first[0][0] == "1. North: wall Twice d5"


def test_a_game_without_log_hooks_keeps_one_row_per_step_and_a_failing_hook_is_ignored():
    session = playtest.Session("source", seed=1)
    table = playtest.Table(session)
    session.play(session.legal_actions()[0])
    assert len(table.move_log.options) == 2 and table.move_log.details == {}

    def broken(state, action, viewer=None):
        raise RuntimeError("a designer's bug")

    session.game.log_group = broken
    session.game.log_lines = broken
    session.play(session.legal_actions()[0])
    assert len(table.move_log.options) == 3 and table.board.error == ""


def test_a_new_game_value_is_checked_as_it_is_typed_and_the_error_stays_at_the_field():
    session = playtest.Session("eat_thyself", seed=1)
    table = playtest.Table(session)
    faces = table.param_widgets["initial_faces"]
    assert faces.continuous_update                       # the page sends every key
    faces.value = '[2, 4'                                 # half typed
    error = table.param_errors["initial_faces"]
    assert "JSON list" in error.value and error.layout.display == ""
    assert "pt-param-refused" in faces._dom_classes
    assert table.new_game_button.disabled and "initial_faces" in table.new_game_error.value
    faces.value = '[2, 4]'
    assert error.layout.display == "none" and not table.new_game_button.disabled
    assert table.new_game_error.layout.display == "none" and "pt-param-refused" not in faces._dom_classes
    table.param_widgets["card_pair"].value = '["1&2", "1&3"]'      # fine alone, not with the faces
    assert "initial_faces" in table.param_errors["card_pair"].value and table.new_game_button.disabled
    table.new_game_button.click()                                   # (Python can press a disabled button)
    assert session.params.card_pair == ("1&2", "2&4") and "Not yet" in table.board.error
    table.param_widgets["card_pair"].value = '["1&2", "2&4"]'
    assert table.param_errors["card_pair"].layout.display == "none"
    table.new_game_button.click()
    assert session.params.initial_faces == (2, 4) and session.is_new_game()
    assert session.params.card_pair == ("1&2", "2&4") and not table._staged


def test_a_live_value_is_checked_as_it_is_typed_and_applied_when_entered():
    session = playtest.Session("eat_thyself", seed=1)
    table = playtest.Table(session)
    turns = table.param_widgets["max_turns"]
    apply = table.param_apply["max_turns"]
    assert turns.continuous_update                 # the page sends every key: each is checked at once
    turns.value = "1000000"                         # out of range as typed: named at the field
    assert session.params.max_turns == 300 and "max_turns" in table.param_errors["max_turns"].value
    assert "from 1 to 100000" in table.param_errors["max_turns"].value and "pt-param-refused" in turns._dom_classes
    assert "max_turns" in table.board.error         # and the board points there
    assert apply.layout.display == "none"           # nothing to apply
    turns._handle_custom_msg({"event": "submit"}, [])          # Enter on a refused value changes nothing
    assert session.params.max_turns == 300 and "max_turns" in table.board.error
    turns.value = "12a"
    assert "whole number" in table.param_errors["max_turns"].value
    turns.value = "120"                             # good: waits for Enter or Apply (typing "12" played nothing)
    assert session.params.max_turns == 300 and table.param_errors["max_turns"].layout.display == "none"
    assert table.board.error == "" and apply.layout.display == "" and apply.description == "Apply max_turns = 120"
    before = len(session.history())
    apply.click()
    assert session.params.max_turns == 120 and apply.layout.display == "none"
    assert len(session.history()) == before + 1     # one step for the change, none for the keys
    turns.value = "300"
    turns._handle_custom_msg({"event": "submit"}, [])
    assert session.params.max_turns == 300
    turns._handle_custom_msg({"event": "elsewhere"}, [])        # any other message: nothing
    turns._handle_custom_msg("garbage", [])
    assert session.params.max_turns == 300


def test_the_panel_separates_live_from_new_game_parameters_and_hides_fixed_ones():
    session = playtest.Session("then_there_was_one", seed=1)
    table = playtest.Table(session)
    rows = table.param_panel.children[0].children
    titles = [r.value for r in rows if isinstance(r, __import__("ipywidgets").HTML)]
    assert "<b>Live</b>" in titles[0] and "<b>New game</b>" in titles[1]
    names = [next(c for c in r._dom_classes if c.startswith("pt-param-"))[9:] for r in rows
             if "pt-param" in getattr(r, "_dom_classes", ())]
    specs = {s.name: s for s in session.params.specs()}
    first_setup = next(i for i, n in enumerate(names) if not specs[n].live)
    assert all(specs[n].live for n in names[:first_setup]) and not any(specs[n].live for n in names[first_setup:])
    fixed = [r for r in rows if "pt-param-wall_unit" in getattr(r, "_dom_classes", ())]
    assert fixed[0].layout.display == "none" and "<b>wall_unit</b> = " in titles[-1]
    shown = [r for r in rows if "pt-param" in getattr(r, "_dom_classes", ()) and r.layout.display != "none"]
    assert all(not table.param_widgets[n].disabled for n in names if
               any(f"pt-param-{n}" in r._dom_classes for r in shown))


@pytest.mark.parametrize("name", ["eat_thyself", "source", "then_there_was_one", "corner_rush", "back_to_the_wall"])
def test_every_game_says_what_its_marks_mean(name):
    import json
    game = playtest.load(name)
    session = playtest.Session(game, seed=3)
    scene = playtest.Table(session).board.scene
    legend = scene.get("legend") or []
    assert legend and all(entry["text"] for entry in legend)
    assert json.loads(json.dumps(legend)) == legend
    kinds = {entry.get("item", {}).get("kind") for entry in legend}
    assert kinds <= {None, "piece", "cell", "edge", "line", "gap"}


def test_eat_thyselfs_log_says_where_a_king_stands_once_the_ring_closed_up():
    import random
    session = playtest.Session("eat_thyself", seed=3)
    table = playtest.Table(session)
    rng = random.Random(3)
    for _ in range(6):
        session.play(rng.choice(session.legal_actions()))
    labels = dict((value, label) for label, value in table.move_log.options)
    assert labels[1] == "1. ▲1↺2→15 eats ○"                      # the notation, as the history says
    assert table.move_log.details[1]["lines"] == (
        "slots as numbered before this move: the ring closed up to 15 slots, and the king now stands on slot 14",)
    assert 4 not in table.move_log.details                         # ▲13↺1→12: the king is on 12 after it too
    legend = " ".join(e["text"] for e in table.board.scene["legend"])
    assert "numbered as before that move" in legend
