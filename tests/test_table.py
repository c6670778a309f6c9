"""The table's cost (issue 8): one cached table per session, tables that rest when no view of them
is left, one scene per change shared by every table, nothing sent that did not change."""

from __future__ import annotations

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
