"""Three games a third newcomer wrote from docs/adding_a_game.md alone (tests/newgames/): Heaps (Nim with
several heaps, a turn of one stone at a time ended by ``end turn`` or by the ``most``-th stone: a variable
number of actions a turn, a yes/no ``misere`` parameter), Land Grab (every seat claims a cell of a grid at
once, in secret: 2 to 4 seats, the board's size a parameter, payoffs) and Mole Hunt (one hidden saboteur
among 3 to 5 seats, made by chance, a leader picking a team, secret simultaneous cards by the team only;
no ``view()``: it plays on the text board). Each is checked, played at the table through the browser's
messages, saved and loaded, run in the lab (random and search bots, a sweep), through OpenSpiel and
PettingZoo when installed, and by a tester; hostile input is refused by name and changes nothing."""

from __future__ import annotations

import json
import random

import pytest

import playtest
from playtest import SIMULTANEOUS, Session, SessionFileError, Table
from playtest.bots import RandomBot
from playtest.mcts import MCTSBot
from newgames import heaps, land_grab, mole_hunt  # noqa: F401  (registers them)
from newgames import takes_interop

GAMES = {"heaps": {"heaps": 2, "size": 2}, "land_grab": {"cols": 3, "rows": 2},
         "mole_hunt": {"num_players": 5, "team": 3}}


@pytest.mark.parametrize("name, params", [
    ("heaps", {}), ("heaps", {"heaps": 1, "size": 1, "most": 1, "misere": True}), ("heaps", {"heaps": 4, "most": 5}),
    ("land_grab", {}), ("land_grab", {"num_players": 4, "cols": 2, "rows": 2}), ("land_grab", {"num_players": 2, "cols": 5}),
    ("mole_hunt", {}), ("mole_hunt", {"num_players": 5, "team": 3, "need": 3}), ("mole_hunt", {"num_players": 3, "team": 1}),
])
def test_each_game_passes_check_game(name, params):
    playtest.check_game(name, examples=4, **params).assert_ok()


def _clickable(scene):
    """What the page offers: the actions of the lit places and the buttons, as the browser sends them."""
    return [o["action"] for opts in scene["moves"].values() for o in opts] + \
        [b["action"] for b in scene["buttons"] if "action" in b]


def _play_at_the_table(table, rng, clicks):
    session = table.session
    for _ in range(clicks):
        if session.is_over:
            return
        if table.board.curtain:                      # hot-seat with secrets: the seat to act lifts it
            assert _clickable(table.board.scene) == []
            table.board.receive({"type": "command", "name": "reveal", "seat": table.board.curtain["seats"][0][1]})
        scene = table.board.scene
        before = session.positions()
        table.board.receive({"type": "action", "action": rng.choice(_clickable(scene)), "version": scene["version"]})
        assert table.board.error == "" and session.positions() > before


@pytest.mark.parametrize("name", GAMES)
def test_the_table_plays_them_to_the_end_through_the_browsers_messages_and_refuses_bad_ones(name):
    session = Session(playtest.load(name, **GAMES[name]), seed=3)
    table = Table(session)
    _play_at_the_table(table, random.Random(1), 200)
    assert session.is_over and session.winner is not None
    session.undo()
    for bad in ({"type": "action", "action": {"kind": "take", "heap": 10 ** 30}},
                {"type": "action", "action": {"kind": "take", "heap": -1}},
                {"type": "action", "action": {"kind": "claim", "seat": 0, "cell": 99}},
                {"type": "action", "action": {"kind": "claim", "seat": 7, "cell": 0}},
                {"type": "action", "action": {"kind": "unmask", "mole": 0}},
                {"type": "action", "action": {"kind": "pick", "member": "0"}},
                {"type": "action", "action": {"kind": "play", "seat": 0, "sabotage": 1}},
                {"type": "action", "action": {"kind": "end_turn", "x": 1}},
                {"type": "action", "action": {"kind": "take", "heap": [[[[[]]]]]}},
                {"type": "action", "action": {"kind": "__class__"}},
                {"type": "command", "name": "reveal", "seat": 99}, {"type": "command", "name": "<b>x</b>"},
                {"type": "preview", "n": "x"}, {"type": "action", "action": None}, {}, None, 3.5, "text", [1, 2]):
        state, positions = session.state, session.positions()
        table.board.receive(bad)
        assert table.board.error, bad
        assert (session.state, session.positions()) == (state, positions)
    table.note_box.value = "<img src=x onerror=alert(1)>"
    table.note_button.click()
    assert session.notes[-1].text == "<img src=x onerror=alert(1)>"
    assert "<img" not in session.report()


def test_heaps_a_turn_is_one_stone_at_a_time_from_one_heap_until_end_turn_or_the_most_th():
    session = Session(playtest.load("heaps", most=2), seed=1)
    assert session.state.heaps == (3, 4, 5)
    with pytest.raises(playtest.IllegalAction, match=r"take a stone first \(rule N3\)"):
        session.play("end turn")
    session.play("take 1")
    with pytest.raises(playtest.IllegalAction, match=r"this turn takes from another heap \(rule N2\)"):
        session.play("take 0")
    session.play("take 1")                                  # the second stone ends the turn by itself
    assert session.to_move == 1 and session.state.heaps == (3, 2, 5)
    session.play("take 0")
    session.play("end turn")
    assert session.to_move == 0
    table = Table(session)
    scene = table.board.scene
    assert scene["boards"][0]["kind"] == "grid" and sorted(scene["moves"]) == ["board:0,1", "board:1,1", "board:2,4"]
    assert scene["buttons"] == []                           # end turn only once a stone is taken
    option, = scene["moves"]["board:2,4"]
    table.board.receive({"type": "action", "action": option["action"], "version": scene["version"]})
    assert [b["label"] for b in table.board.scene["buttons"]] == ["end turn"]
    won = Session(playtest.load("heaps", heaps=1, size=1, misere=True))
    won.play("take 0")
    assert won.winner == 1 and won.game.outcome(won.state).reason == "left the last stone to the other"


def test_land_grab_claims_are_secret_until_all_are_in_and_a_shared_cell_is_scorched():
    session = Session(playtest.load("land_grab", cols=3, rows=2), seed=1)
    assert session.to_move == SIMULTANEOUS and session.game.pending_seats(session.state) == (0, 1, 2)
    session.play({"kind": "claim", "seat": 0, "cell": 4}, seat=0)
    assert session.history(viewer=1)[-1]["notation"] == "North gives an order"
    assert session.state.redact(1)["picks"] == [None, None, None] and session.state.redact(0)["picks"][0] == 4
    with pytest.raises(playtest.IllegalAction, match=r"you have chosen this round already \(rule L2\)"):
        session.play({"kind": "claim", "seat": 0, "cell": 5}, seat=0)
    with pytest.raises(playtest.IllegalAction, match=r"this is North's order"):
        session.play({"kind": "claim", "seat": 0, "cell": 5}, seat=1)
    session.play({"kind": "claim", "seat": 1, "cell": 4}, seat=1)
    session.play({"kind": "claim", "seat": 2, "cell": 0}, seat=2)
    assert session.state.cells == (2, -1, -1, -1, -2, -1) and session.state.picks == (None, None, None)
    table = Table(session, seat=0)
    scene = table.board.scene
    assert sorted(scene["moves"]) == ["board:0,1", "board:1,0", "board:2,0", "board:2,1"]   # the empty cells
    scorched = [i for i in scene["items"] if i.get("id") == "board:1,1"]
    assert scorched and scorched[0].get("text") == "x"
    assert session.game.check(session.state, land_grab.Claim(0, 4), 0).text == "that cell is not empty"
    with pytest.raises(ValueError, match="land_grab parameter cols=9 is not allowed: it must be a whole number from 2 to 8"):
        playtest.load("land_grab", cols=9)
    assert len(playtest.load("land_grab", cols=8, rows=8, num_players=4).initial_state().cells) == 64


def test_mole_hunt_only_the_mole_knows_and_only_the_mole_may_sabotage():
    session = Session(playtest.load("mole_hunt", num_players=4), seed=4)
    mole = session.state.roles.index(1)
    loyal = next(k for k in range(4) if k != mole)
    assert session.history(viewer=mole)[1]["notation"] == f"unmask {mole}"
    assert {session.history(viewer=k)[1]["notation"] for k in range(4) if k != mole} == {"a hidden draw"}
    assert session.history(viewer=None)[1]["notation"] == "a hidden draw"
    assert session.state.redact(loyal)["roles"] == [0 if k == loyal else None for k in range(4)]
    for seat in sorted({mole, loyal}):
        session.play(f"pick {seat}")
    assert session.to_move == SIMULTANEOUS and session.game.pending_seats(session.state) == tuple(sorted({mole, loyal}))
    assert [str(a) for a in session.legal_actions(loyal)] == [f"play {loyal} no"]
    assert len(session.legal_actions(mole)) == 2
    with pytest.raises(playtest.IllegalAction, match=r"a loyal seat must play pass \(rule M3\)"):
        session.play({"kind": "play", "seat": loyal, "sabotage": True}, seat=loyal)
    outsider = next(k for k in range(4) if k not in (mole, loyal))
    with pytest.raises(playtest.IllegalAction, match=r"only the team plays cards \(rule M3\)"):
        session.play({"kind": "play", "seat": outsider, "sabotage": False}, seat=outsider)
    session.play({"kind": "play", "seat": mole, "sabotage": True}, seat=mole)
    session.play({"kind": "play", "seat": loyal, "sabotage": False}, seat=loyal)
    assert session.state.results == (1,) and session.state.team == ()
    assert session.history(viewer=outsider)[-1]["notation"].endswith("gives an order")
    world = session.game.determinize(session.state, outsider, random.Random(2))
    assert world.roles[outsider] == 0 and sum(world.roles) == 1
    with pytest.raises(ValueError, match=r"a team of 3 leaves nobody out of 3 seats \(rule M2\)"):
        playtest.load("mole_hunt", num_players=3, team=3)
    with pytest.raises(playtest.IllegalAction, match=r"the mole is chosen by chance \(rule M1\)"):
        session.play({"kind": "unmask", "mole": 0})


def test_mole_hunt_on_its_text_board_hides_the_roles_until_the_end():
    session = Session(playtest.load("mole_hunt", num_players=3, team=1, need=1), seed=5)
    mole = session.state.roles.index(1)
    loyal = (mole + 1) % 3
    scene = session.game.view(session.state, loyal)
    rows = dict(scene["panels"][0]["rows"])
    assert json.loads(rows["roles"]) == [0 if k == loyal else None for k in range(3)]
    session.play(f"pick {mole}")
    session.play({"kind": "play", "seat": mole, "sabotage": True}, seat=mole)
    assert session.winner == mole
    rows = dict(session.game.view(session.state, loyal)["panels"][0]["rows"])
    assert json.loads(rows["roles"]) == [int(k == mole) for k in range(3)]      # revealed="over"


@pytest.mark.parametrize("name", GAMES)
def test_a_session_branches_notes_saves_loads_and_exports_a_seat(name, tmp_path):
    session = Session(playtest.load(name, **GAMES[name]), seed=4)
    rng = random.Random(2)
    for _ in range(5):
        if session.is_over:
            break
        mover = session.to_move
        seat = rng.choice(session.game.pending_seats(session.state)) if mover == SIMULTANEOUS else None
        session.play(rng.choice(session.legal_actions(seat)), seat=seat)
    session.undo()
    session.note("a <b>bold</b> [link](http://example.com) note")
    path = tmp_path / f"{name}.playtest.json"
    session.save(path)
    back = Session.load(path)
    assert back.state == session.state and back.game == session.game
    assert [n.text for n in back.notes] == ["a <b>bold</b> [link](http://example.com) note"]
    assert "<b>" not in back.report()
    session.save(tmp_path / "seat.json", seat=0)
    export = (tmp_path / "seat.json").read_text(encoding="utf-8")
    if name == "mole_hunt":           # the draw and the others' roles stay out, unless seat 0 is the mole
        rows = dict(json.loads(export)["view"]["panels"][0]["rows"])
        assert json.loads(rows["roles"])[1:] == [None] * 4
        assert ("unmask" in export) == (session.state.roles[0] == 1)
    with pytest.raises(SessionFileError, match="an export for one seat"):
        Session.load(tmp_path / "seat.json")


def test_hostile_session_files_of_mole_hunt_are_refused_by_name_and_left_as_they_were(tmp_path):
    session = Session(playtest.load("mole_hunt"), seed=4)
    mole = session.state.roles.index(1)
    session.play(f"pick {mole}")
    session.play(f"pick {(mole + 1) % 4}")
    session.note("<script>alert('x')</script>")
    good = tmp_path / "m.playtest.json"
    session.save(good)
    text = good.read_text(encoding="utf-8")
    cases = [
        (text.replace('"num_players":4', '"num_players":"4"'), 'num_players="4" is not allowed'),
        (text.replace('"num_players":4', '"num_players":1e308'), "not a float"),
        (text.replace('"num_players":4', '"num_players":3').replace('"team":2', '"team":3'),
         r"a team of 3 leaves nobody out of 3 seats \(rule M2\)"),
        (text.replace('"seed":4', '"seed":' + "9" * 5000), "thousands of digits"),
        (text.replace('"game":"mole_hunt"', '"game":"land_grab"'), "land_grab has no parameter 'team'"),
        (text.replace('"game":"mole_hunt"', '"game":"<img src=x onerror=alert(1)>"'), "unknown game"),
        (text.replace(f'"member":{mole}', f'"member":"{mole}"'), "member must be a whole number, not str"),
        (text.replace('"start":null', '"start":{"roles":[1,1,0,0]}'), "exactly one seat is the mole"),
        (text.replace('"start":null', '"start":{"roles":[1,0,0]}'), r"roles holds 4 entries \(one per seat\), not 3"),
        (text.replace('"start":null', '"start":' + "[" * 5000 + "]" * 5000), "nested more than"),
        (text.replace('"start":null', '"start":{"roles":[1,0,0,0]}'), "a chance result where a player moves"),
        (text.replace(f'"mole":{mole}', '"mole":7'), "unmask"),
    ]
    for k, (bad, message) in enumerate(cases):
        assert bad != text, message
        path = tmp_path / f"bad{k}.playtest.json"
        path.write_text(bad, encoding="utf-8")
        with pytest.raises(SessionFileError, match=message):
            Session.load(path)
        assert path.read_text(encoding="utf-8") == bad                  # nothing written to a refused file


@pytest.mark.parametrize("name", GAMES)
def test_the_lab_plays_them_with_random_and_search_bots(name):
    game = playtest.load(name, **GAMES[name])
    seats = game.seat_count()
    result = playtest.simulate(game, games=6, seed=1, progress=False, executor=None)
    assert len(result.games) == 6
    bots = [MCTSBot(iterations=10, seed=1)] + [RandomBot(seed=s) for s in range(1, seats)]
    searched = playtest.simulate(game, bots, games=2, seed=1, progress=False, executor=None)
    assert len(searched.games) == 2


def test_sweeps_over_land_grabs_board_and_heaps_misere():
    pytest.importorskip("pandas")
    grab = playtest.sweep("land_grab", {"cols": [2, 4]}, games=4, progress=False, executor=None)
    assert grab.values == [(2,), (4,)] or grab.values == [2, 4]
    assert list(grab.table().columns)[:3] == ["North", "East", "South"]
    nim = playtest.sweep("heaps", {"misere": [False, True]}, games=4, progress=False, executor=None)
    assert len(nim.table()) == 2


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_and_pettingzoo_take_them(name):
    takes_interop(name, GAMES[name])


def test_a_tester_plays_mole_hunt_against_bots_and_sends_it_back(tmp_path):
    view = playtest.TesterView("mole_hunt", directory=tmp_path)
    view.name.value = "Zoë <b>"
    view.seat.value = 1
    view.start_button.click()
    session = view.session
    assert "Ann: the mcts bot" in view.message.value
    rng = random.Random(2)
    for _ in range(60):
        if session.is_over:
            break
        actions = session.legal_actions(1)
        assert actions, "the bots left the tester waiting"
        view.table.board.receive({"type": "action", "action": rng.choice(actions).to_json()})
        assert view.table.board.error == ""
    assert session.is_over
    session.note("the leader should not pick itself")
    sent = []
    view.table.board.send = lambda content, buffers=None: sent.append((content, buffers))
    view.send_button.click()
    back = Session.from_records_bytes(sent[-1][1][0])
    designer = Session(playtest.load("mole_hunt"), seed=9)
    designer.merge(back)
    assert "the leader should not pick itself" in designer.report()
    page = playtest.write_tester_notebook(mole_hunt.MoleHunt, directory=tmp_path)
    cells = json.loads(page.read_text(encoding="utf-8"))["cells"]
    assert any("import newgames.mole_hunt" in "".join(c["source"]) for c in cells)
