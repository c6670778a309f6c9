"""Three games a newcomer wrote from docs/adding_a_game.md and the README alone (tests/newgames/):
Othello on a small board (perfect information, a grid), a dice bluff (chance, hidden cups revealed
when called) and a blind auction for three (simultaneous secret offers, no view). Each is checked,
played through a session, at the table through the browser's messages, in the lab (the default
executor, and a spawn pool with the game defined in ``__main__`` as a notebook cell defines it), by
the search bot and, when installed, through OpenSpiel and PettingZoo."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import playtest
from playtest import SIMULTANEOUS, Session, SessionFileError, Table
from playtest.bots import RandomBot
from playtest.mcts import MCTSBot
from newgames import blind_auction, dice_bluff, othello_small  # noqa: F401  (registers them)
from newgames.othello_small import Pass, Place
from newgames import takes_interop

NEWGAMES = Path(__file__).parent / "newgames"
GAMES = ["othello_small", "dice_bluff", "blind_auction"]


@pytest.mark.parametrize("name, params", [
    ("othello_small", {}), ("othello_small", {"size": 4}), ("dice_bluff", {}), ("dice_bluff", {"dice": 1}),
    ("blind_auction", {}), ("blind_auction", {"purse": 3}),
])
def test_each_game_passes_check_game(name, params):
    playtest.check_game(name, examples=6, **params).assert_ok()


def _play_some(session, steps):
    for _ in range(steps):
        if session.is_over:
            return
        if session.to_move == SIMULTANEOUS:
            seat = session.game.pending_seats(session.state)[0]
            session.play(session.legal_actions(seat)[-1], seat=seat)
        else:
            session.play(session.legal_actions()[0])


@pytest.mark.parametrize("name", GAMES)
def test_a_session_plays_undoes_branches_notes_saves_and_loads(name, tmp_path):
    session = Session(playtest.load(name), seed=4)
    _play_some(session, 3)
    end_of_first = session.node
    session.undo()
    session.redo()
    assert session.node == end_of_first
    session.undo()
    if session.to_move == SIMULTANEOUS:
        seat = session.game.pending_seats(session.state)[0]
        session.play(session.legal_actions(seat)[0], seat=seat)
    else:
        session.play(session.legal_actions()[-1])
    assert len(session.branches()) == 2
    session.note("<b>not bold</b> [not a link](http://example.com)")
    path = tmp_path / f"{name}.playtest.json"
    session.save(path)
    back = Session.load(path)
    assert back.state == session.state and len(back.branches()) == 2
    assert back.notes[0].text == "<b>not bold</b> [not a link](http://example.com)"
    report = back.report()
    assert "<b>" not in report and "[not a link](" not in report        # inert Markdown


def test_othello_refuses_by_rule_and_reads_its_notation():
    session = Session(playtest.load("othello_small"), seed=1)
    with pytest.raises(playtest.IllegalAction, match="rule O1"):
        session.play(Place(9, 9))
    with pytest.raises(playtest.IllegalAction, match="rule O3"):
        session.play(Pass())
    with pytest.raises(playtest.MalformedAction, match="col must be a whole number, not str"):
        session.play({"kind": "place", "col": "0", "row": 0})
    session.play(str(session.legal_actions()[0]))          # its own notation plays
    assert session.move_number == 1


def test_the_dice_stay_hidden_from_the_other_seat_until_called():
    session = Session(playtest.load("dice_bluff"), seed=2)
    assert [h["notation"] for h in session.history(viewer=1)][1:3] == ["a hidden draw", "a hidden draw"]
    assert session.state.redact(1)["dice"][0] is None
    with pytest.raises(playtest.IllegalAction, match=r"rolled by chance, not played \(rule B1\)"):
        session.play({"kind": "roll", "seat": 0, "face": 6})
    session.play("bid 2 3")
    session.play("call")
    assert session.is_over and None not in session.state.redact(1)["dice"][0]   # revealed="called"


def test_the_auctions_offers_are_secret_until_the_lot_resolves():
    session = Session(playtest.load("blind_auction"), seed=1)
    session.play({"kind": "offer", "seat": 0, "coins": 4}, seat=0)
    assert session.history(viewer=1)[-1]["notation"] == "North gives an order"
    assert session.history(viewer=0)[-1]["notation"] == "offer 0 4"
    with pytest.raises(playtest.IllegalAction, match="rule A3"):
        session.play({"kind": "offer", "seat": 0, "coins": 1}, seat=0)
    with pytest.raises(playtest.IllegalAction, match="rule A2"):
        session.play({"kind": "offer", "seat": 1, "coins": 11}, seat=1)


def _send(table, content):
    table.board._handle_custom_msg(content, [])


def _options(scene):
    found = [o["action"] for opts in scene["moves"].values() for o in opts]
    found += [o["action"] for targets in scene["selects"].values() for opts in targets.values() for o in opts]
    return found + [b["action"] for b in scene["buttons"] if "action" in b]


@pytest.mark.parametrize("name", GAMES)
def test_the_table_plays_through_the_browsers_messages(name):
    session = Session(playtest.load(name), seed=3)
    table = Table(session)
    for _ in range(4):
        if table.board.curtain:
            assert _options(table.board.scene) == []                  # nothing offered behind it
            seat = table.board.curtain["seats"][0][1]
            _send(table, {"type": "action", "action": session.legal_actions(seat)[0].to_json()})
            assert "curtain" in table.board.error                     # nor played
            _send(table, {"type": "command", "name": "reveal", "seat": table.board.curtain["seats"][0][1]})
        before = session.move_number
        _send(table, {"type": "action", "action": _options(table.board.scene)[0]})
        assert table.board.error == "" and session.move_number == before + 1
    for bad in ({"type": "action", "action": {"kind": "place", "col": 99, "row": 0}},
                {"type": "action", "action": {"kind": "offer", "seat": "0", "coins": 1}},
                {"type": "action", "action": {"kind": "bid", "count": 10 ** 30, "face": 1}},
                {"type": "action"}, {"type": 3}, "text"):
        state = session.state
        _send(table, bad)
        assert table.board.error and session.state == state
    table.undo_button.click()
    assert session.move_number == 3
    table.note_box.value = "<img src=x onerror=alert(1)>"
    table.note_button.click()
    assert session.notes[-1].text == "<img src=x onerror=alert(1)>"


@pytest.mark.parametrize("name, seats", [("othello_small", 2), ("dice_bluff", 2), ("blind_auction", 3)])
def test_the_lab_and_the_search_bot_play_them(name, seats):
    bots = [MCTSBot(iterations=10, seed=1)] + [RandomBot(seed=s) for s in range(1, seats)]
    result = playtest.simulate(name, bots, games=3, seed=1)
    assert len(result.games) == 3
    game = playtest.load(name)
    session = Session(game, seed=1)
    _play_some(session, 1)
    if not session.is_over and session.to_move != SIMULTANEOUS:
        choice = MCTSBot(iterations=20, seed=1).choose(game, game.determinize(session.state, session.to_move,
                                                                               __import__("random").Random(1)))
        assert choice in game.legal_actions(session.state)


def test_games_defined_in_main_run_in_a_spawn_pool(tmp_path):
    """A notebook cell's game lives in ``__main__``: the lab's spawned workers get it by value."""
    cells = "\n".join((NEWGAMES / f"{name}.py").read_text(encoding="utf-8") for name in ("dice_bluff",))
    script = tmp_path / "cell.py"
    script.write_text(cells + textwrap.dedent("""
        import multiprocessing, json
        from concurrent.futures import ProcessPoolExecutor
        import playtest
        from playtest.bots import RandomBot
        if __name__ == "__main__":
            serial = playtest.simulate("dice_bluff", [RandomBot(1), RandomBot(2)], games=4, seed=3, executor=None)
            with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
                spawned = playtest.simulate("dice_bluff", [RandomBot(1), RandomBot(2)], games=4, seed=3, executor=pool)
            print(json.dumps([list(serial.games["reason"]), list(spawned.games["reason"])]))
    """), encoding="utf-8")
    root = Path(__file__).parent.parent
    env = {**os.environ, "PYTHONPATH": str(root)}       # this checkout's playtest, in the workers too
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=root, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    serial, spawned = json.loads(done.stdout.strip().splitlines()[-1])
    assert serial == spawned and len(serial) == 4


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_and_pettingzoo_take_them(name):
    takes_interop(name)


def test_a_file_of_one_newcomer_game_is_refused_as_another(tmp_path):
    session = Session(playtest.load("dice_bluff"), seed=5)
    session.play("bid 1 2")
    path = tmp_path / "bluff.playtest.json"
    session.save(path)
    text = path.read_text(encoding="utf-8")
    foreign = tmp_path / "foreign.playtest.json"
    foreign.write_text(text.replace('"game":"dice_bluff"', '"game":"othello_small"'), encoding="utf-8")
    with pytest.raises(SessionFileError, match="othello_small has no parameter 'dice'"):
        Session.load(foreign)
