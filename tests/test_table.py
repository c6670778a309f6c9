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
