"""Three games a second newcomer wrote from docs/adding_a_game.md alone (tests/newgames/): Pig for three or
four seats (push your luck, a die rolled by chance, a ``seats`` parameter), Expeditions (a tiny Lost Cities:
a shuffled deck drawn by chance, hands each seat sees alone, a public discard pile) and Hex with the pie rule
(a bounded ``size``, ``swap`` a yes/no parameter, cells clicked on the hex board). Each is checked, played at
the table through the browser's messages, saved and loaded, run in the lab (random and search bots, a
sweep), through OpenSpiel and PettingZoo when installed, and by a tester; hostile input is refused by name."""

from __future__ import annotations

import json
import random

import pytest

import playtest
from playtest import CHANCE, Session, SessionFileError, Table
from playtest.bots import RandomBot
from playtest.mcts import MCTSBot
from newgames import expeditions, hex_pie, pig  # noqa: F401  (registers them)
from newgames.hex_pie import Place, Swap
from newgames import takes_interop

GAMES = {"pig": {"seats": 4, "target": 20}, "expeditions": {}, "hex_pie": {"size": 4}}


@pytest.mark.parametrize("name, params", [
    ("pig", {}), ("pig", {"seats": 4, "target": 15}), ("expeditions", {}), ("expeditions", {"colours": 2, "hand": 5}),
    ("expeditions", {"colours": 4, "hand": 2, "cost": 0}), ("hex_pie", {}), ("hex_pie", {"size": 3, "swap": False}),
])
def test_each_game_passes_check_game(name, params):
    playtest.check_game(name, examples=5, **params).assert_ok()


def _send(table, content):
    table.board.receive(content)


def _clickable(scene):
    """What the page offers: the actions of the lit places and the buttons, as the browser sends them."""
    found = [o["action"] for opts in scene["moves"].values() for o in opts]
    return found + [b["action"] for b in scene["buttons"] if "action" in b]


def _play_at_the_table(table, rng, clicks):
    session = table.session
    for _ in range(clicks):
        if session.is_over:
            return
        if table.board.curtain:                      # hot-seat with secrets: the seat to act lifts it
            assert _clickable(table.board.scene) == []
            _send(table, {"type": "command", "name": "reveal", "seat": table.board.curtain["seats"][0][1]})
        scene = table.board.scene
        before = session.positions()
        _send(table, {"type": "action", "action": rng.choice(_clickable(scene)), "version": scene["version"]})
        assert table.board.error == "" and session.positions() > before


@pytest.mark.parametrize("name", GAMES)
def test_the_table_plays_them_through_the_browsers_messages_and_refuses_bad_ones(name):
    session = Session(playtest.load(name, **GAMES[name]), seed=3)
    table = Table(session)
    _play_at_the_table(table, random.Random(1), 6)
    for bad in ({"type": "action", "action": {"kind": "place", "q": 99, "r": 0}},
                {"type": "action", "action": {"kind": "place", "q": -1, "r": 0}},
                {"type": "action", "action": {"kind": "play", "card": 10 ** 30}},
                {"type": "action", "action": {"kind": "deal", "seat": 0, "card": 3}},
                {"type": "action", "action": {"kind": "die", "face": 6}},
                {"type": "action", "action": {"kind": "swap", "seat": 1}},
                {"type": "action", "action": {"kind": "hold", "extra": True}},
                {"type": "action", "action": {"kind": "roll"}, "version": -5},
                {"type": "command", "name": "reveal", "seat": "0"}, {"type": "preview", "n": "x"},
                {"type": "action"}, {"type": 3}, "text", [1, 2]):
        state, positions = session.state, session.positions()
        _send(table, bad)
        assert table.board.error, bad
        assert (session.state, session.positions()) == (state, positions)
    table.note_box.value = "<img src=x onerror=alert(1)>"
    table.note_button.click()
    assert session.notes[-1].text == "<img src=x onerror=alert(1)>"


def test_hex_cells_are_clicked_on_the_hex_board_and_the_pie_rule_is_a_button():
    session = Session(playtest.load("hex_pie", size=5), seed=1)
    table = Table(session)
    scene = table.board.scene
    assert scene["boards"][0]["kind"] == "hex" and len(scene["moves"]) == 25
    assert scene["buttons"] == []                                       # no swap before Red's first stone
    (option,) = scene["moves"]["board:3,1"]
    _send(table, {"type": "action", "action": option["action"], "version": scene["version"]})
    assert session.state.cells[1 * 5 + 3] == 0
    scene = table.board.scene
    assert scene["reasons"]["board:3,1"] == "that cell is taken (rule H2)"
    swap = [b for b in scene["buttons"] if b.get("action") == {"kind": "swap"}]
    assert len(swap) == 1
    _send(table, {"type": "action", "action": swap[0]["action"], "version": scene["version"]})
    assert session.state.cells[3 * 5 + 1] == 1 and session.state.cells.count(-1) == 24   # mirrored, Blue's
    assert session.to_move == 0 and not [b for b in table.board.scene["buttons"] if "action" in b]
    with pytest.raises(playtest.IllegalAction, match=r"only Blue's first move may be a swap \(rule H3\)"):
        session.play(Swap())
    plain = Session(playtest.load("hex_pie", size=3, swap=False))
    plain.play(Place(0, 0))
    with pytest.raises(playtest.IllegalAction, match=r"without the swap rule \(rule H3\)"):
        plain.play(Swap())


def test_pig_seats_and_target_are_parameters_and_a_one_loses_the_turn():
    game = playtest.load("pig", seats=4, target=20)
    assert [s.name for s in game.seats()] == ["North", "East", "South", "West"]
    session = Session(game, seed=2, auto_chance=False)
    with pytest.raises(playtest.IllegalAction, match=r"nothing to bank yet: roll first \(rule P4\)"):
        session.play("hold")
    session.play("roll")
    assert session.to_move == CHANCE
    session.play({"kind": "die", "face": 5})
    session.play("roll")
    session.play({"kind": "die", "face": 1})
    assert session.state.total == 0 and session.to_move == 1 and session.state.scores == (0, 0, 0, 0)
    with pytest.raises(playtest.IllegalAction, match=r"rolled by chance, not played \(rule P2\)"):
        session.play({"kind": "die", "face": 6})
    with pytest.raises(ValueError, match="pig parameter seats=5 is not allowed: it must be a whole number from 3 to 4"):
        playtest.load("pig", seats=5)
    with pytest.raises(ValueError, match=r"scores must hold one score per seat \(4\), not 2"):
        game.state_from_json({"scores": [1, 2]})


def test_expeditions_hands_stay_with_their_seats():
    session = Session(playtest.load("expeditions"), seed=4)
    assert session.to_move == 0                         # dealt by chance, four cards each
    hands = session.state.hands
    assert [len(h) for h in hands] == [4, 4] and session.state.redact(0)["hands"][1] is None
    assert [h["notation"] for h in session.history(viewer=1)][1:5] == ["a hidden draw"] * 4
    assert session.history(viewer=0)[1]["notation"].startswith("seat 0 draws ")
    world = session.game.determinize(session.state, 1, random.Random(3))
    assert world.hands[1] == hands[1] and len(world.hands[0]) == 4 and len(world.deck) == len(session.state.deck)
    with pytest.raises(playtest.IllegalAction, match=r"take a card first \(rule E2\)"):
        session.play({"kind": "play", "card": hands[0][0]})
    session.play("draw")
    mine = session.state.hands[0]
    missing = next(c for c in range(18) if c not in mine)
    with pytest.raises(playtest.IllegalAction, match=r"that card is not in your hand \(rule E3\)"):
        session.play({"kind": "discard", "card": missing})
    session.play({"kind": "discard", "card": mine[-1]})
    assert session.state.discards == (mine[-1],) and len(session.state.hands[0]) == 4


@pytest.mark.parametrize("name", GAMES)
def test_a_session_branches_notes_saves_and_loads(name, tmp_path):
    session = Session(playtest.load(name, **GAMES[name]), seed=4)
    rng = random.Random(2)
    for _ in range(5):
        session.play(rng.choice(session.legal_actions()))
    session.undo()
    session.play(session.legal_actions()[-1])          # a branch, or the same line again
    session.note("a <b>bold</b> [link](http://example.com) note")
    path = tmp_path / f"{name}.playtest.json"
    session.save(path)
    back = Session.load(path)
    assert back.state == session.state and back.game == session.game
    assert [n.text for n in back.notes] == ["a <b>bold</b> [link](http://example.com) note"]
    assert "<b>" not in back.report()


def test_hostile_session_files_of_hex_are_refused_by_name_and_left_as_they_were(tmp_path):
    session = Session(playtest.load("hex_pie", size=4), seed=1)
    for move in ("place 1,1", "swap", "place 0,0"):
        session.play(move)
    good = tmp_path / "hex.playtest.json"
    session.save(good)
    text = good.read_text(encoding="utf-8")
    cases = [
        (text.replace('"size":4', '"size":1000000000'), "size=1000000000 is not allowed: it must be a whole number from 2 to 13"),
        (text.replace('"swap":true', '"swap":"yes"'), 'swap="yes" is not allowed: it must be true or false'),
        (text.replace('"swap":true', '"swap":false'), r"without the swap rule \(rule H3\)"),
        (text.replace('"q":0,"r":0', '"q":-1,"r":0'), r"that cell is off the board \(rule H1\)"),
        (text.replace('"start":null', '"start":{"cells":[-1,-1,-1],"turn":0}'), "hex_pie.cells has 3 cells; a 4 x 4 board has 16"),
        (text.replace('"game":"hex_pie"', '"game":"pig"'), "pig has no parameter 'size'"),
        (text.replace('"game":"hex_pie"', '"game":"__import__"'), "unknown game '__import__'"),
        (text.split("\n")[0] + "\n" + "[" * 10000 + "]" * 10000 + "\n", "nested more than"),
        (text + json.dumps({"note": {"node": 3, "text": "x" * 2_000_000, "t": 1, "author": "a"}}) + "\n",
         "longer than 1,048,576 characters"),
    ]
    for k, (bad, message) in enumerate(cases):
        path = tmp_path / f"bad{k}.playtest.json"
        path.write_text(bad, encoding="utf-8")
        with pytest.raises(SessionFileError, match=message):
            Session.load(path)
        assert path.read_text(encoding="utf-8") == bad                  # nothing written to a refused file
    exp = Session(playtest.load("expeditions"), seed=2)
    saved = tmp_path / "exp.playtest.json"
    exp.save(saved)
    doubled = tmp_path / "exp-bad.playtest.json"
    doubled.write_text(saved.read_text(encoding="utf-8").replace(
        '"start":null', '"start":' + json.dumps({"deck": list(range(17)) + [23]})), encoding="utf-8")
    with pytest.raises(SessionFileError, match="must hold each of the 18 cards once"):
        Session.load(doubled)


@pytest.mark.parametrize("name", GAMES)
def test_the_lab_plays_them_with_random_and_search_bots(name):
    game = playtest.load(name, **GAMES[name])
    seats = game.seat_count()
    result = playtest.simulate(game, games=6, seed=1, progress=False, executor=None)
    assert len(result.games) == 6 and sum(result.wins.values()) + result.draws == 6
    bots = [MCTSBot(iterations=10, seed=1)] + [RandomBot(seed=s) for s in range(1, seats)]
    searched = playtest.simulate(game, bots, games=2, seed=1, progress=False, executor=None)
    assert len(searched.games) == 2


def test_a_sweep_over_pigs_seats_and_target():
    pytest.importorskip("pandas")
    result = playtest.sweep("pig", {"seats": [3, 4], "target": [10, 20]}, games=4, progress=False, executor=None)
    assert result.values == [(3, 10), (3, 20), (4, 10), (4, 20)]
    table = result.table()
    assert list(table.columns)[:3] == ["North", "East", "South"]


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_and_pettingzoo_take_them(name):
    takes_interop(name, GAMES[name])


def test_a_tester_plays_expeditions_against_a_bot_and_sends_it_back(tmp_path):
    view = playtest.TesterView("expeditions", directory=tmp_path)
    view.name.value = "Zoë <b>"
    view.seat.value = 0
    view.start_button.click()
    session = view.session
    assert "Ben: the mcts bot" in view.message.value
    rng = random.Random(2)
    for _ in range(40):
        if session.is_over:
            break
        assert session.to_move in (0, None), "the bot left the tester waiting"
        view.table.board.receive({"type": "action", "action": rng.choice(session.legal_actions(0)).to_json()})
        assert view.table.board.error == ""
    session.note("the discard rule is confusing")
    sent = []
    view.table.board.send = lambda content, buffers=None: sent.append((content, buffers))
    view.send_button.click()
    back = Session.from_records_bytes(sent[-1][1][0])
    designer = Session(playtest.load("expeditions"), seed=9)
    designer.merge(back)
    assert "the discard rule is confusing" in designer.report()
