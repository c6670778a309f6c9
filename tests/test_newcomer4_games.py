"""Two games a fourth newcomer wrote from docs/adding_a_game.md alone (tests/newgames/): Three-hand Whist
(a trick-taking game for three seats: a chance deal card by card, hands each seat sees alone, one deck
shared by the hands and the undealt cards, the rule to follow suit, the number of tricks and trumps as
parameters, notation per viewer, payoffs) and small Draughts (pieces moved from one square to another,
a piece selected and then its target; captures that must be taken and go on jump after jump within one
turn; kings; a draw after a run of quiet moves; the board's size a parameter). Each is checked, played
through the Session and through the browser's messages, saved and loaded, run in the lab with random
and search bots, and by a tester; hostile files and messages are refused by name and change nothing."""

from __future__ import annotations

import json
import random

import pytest

import playtest
from playtest import IllegalAction, Session, SessionFileError, Table
from playtest.bots import RandomBot
from playtest.mcts import MCTSBot
from newgames import draughts, tricks  # noqa: F401  (registers them)
from newgames import takes_interop

GAMES = {"three_hand_whist": {"tricks": 3}, "small_draughts": {}}


@pytest.mark.parametrize("name, params", [
    ("three_hand_whist", {}), ("three_hand_whist", {"tricks": 8, "ranks": 8, "trumps": True}),
    ("three_hand_whist", {"tricks": 1, "ranks": 3}),
    ("small_draughts", {}), ("small_draughts", {"size": 8, "forced": False}), ("small_draughts", {"quiet": 4}),
])
def test_each_game_passes_check_game(name, params):
    playtest.check_game(name, examples=4, **params).assert_ok()


# -- Three-hand Whist -----------------------------------------------------------------------------------------

def _whist(trumps=False):
    """North holds 9♠ 10♥, East 10♠ 9♦, West J♥ 10♣ (ranks 6: each suit 9 10 J Q K A), two tricks."""
    game = playtest.load("three_hand_whist", tricks=2, trumps=trumps)
    held = {0, 7, 1, 12, 8, 19}
    return Session(game, start={"hands": [[0, 7], [1, 12], [8, 19]], "deck": [c for c in range(24) if c not in held]})


def test_w1_each_seat_is_dealt_its_cards_one_at_a_time_by_chance_and_sees_only_its_own():
    """W1: "each seat is dealt ``tricks`` cards, one at a time, by chance. The cards not dealt stay face down."""
    session = Session(playtest.load("three_hand_whist", tricks=3), seed=7)
    assert [len(h) for h in session.state.hands] == [3, 3, 3] and len(session.state.deck) == 24 - 9
    deals = session.history(viewer=1)[1:10]
    assert [d["kind"] for d in deals] == ["chance"] * 9
    assert [d["notation"] for d in deals[::3]] == ["North is dealt a card"] * 3
    assert [d["notation"] for d in deals[2::3]] == ["West is dealt a card"] * 3
    own = {f"East is dealt {session.game.card_name(c)}" for c in session.state.hands[1]}
    assert {d["notation"] for d in deals[1::3]} == own                 # East reads its own cards by name
    mine = session.state.redact(1)
    assert mine["hands"][0] is None and mine["hands"][2] is None and mine["hands"][1] == list(session.state.hands[1])
    assert set(mine["deck"]) == {None}
    assert session.history(viewer=None)[2]["notation"] == "East is dealt a card"     # the table: nobody's cards
    world = session.game.determinize(session.state, 1, random.Random(3))
    assert world.hands[1] == session.state.hands[1] and [len(h) for h in world.hands] == [3, 3, 3]
    assert sorted(world.hands[0] + world.hands[2] + world.deck) == sorted(
        session.state.hands[0] + session.state.hands[2] + session.state.deck)
    with pytest.raises(ValueError, match=r"8 tricks deal 24 cards, more than the deck's 12 \(rule W1\)"):
        playtest.load("three_hand_whist", tricks=8, ranks=3)


def test_w3_you_must_follow_the_suit_led_if_you_can_and_the_seats_table_says_why_on_the_card():
    """W3: "You must follow the suit led if you can; if you cannot, you may play any card."""
    session = _whist()
    session.play("North plays 9♠")
    with pytest.raises(IllegalAction, match=r"you must follow suit \(♠\) \(rule W3\)"):
        session.play("East plays 9♦")
    with pytest.raises(IllegalAction, match=r"you do not hold that card \(rule W2\)"):
        session.play({"kind": "play", "card": 8})                 # West's J♥
    east = Table(session, seat=1)
    scene = east.board.scene
    assert sorted(scene["moves"]) == ["hand1:0"]                   # 10♠ lit, 9♦ explained
    assert scene["reasons"] == {"hand1:1": "you must follow suit (♠) (rule W3)"}
    option, = scene["moves"]["hand1:0"]
    east.board.receive({"type": "action", "action": option["action"], "version": scene["version"]})
    assert east.board.error == "" and session.state.trick == (0, 1)
    session.play("West plays 10♣")                                # West has no spade: any card
    assert session.state.won == (0, 1, 0) and session.state.leader == 1 and session.to_move == 1


@pytest.mark.parametrize("trumps, winner", [(False, 2), (True, 1)])
def test_w4_the_highest_card_of_the_suit_led_wins_unless_a_spade_trumps_it(trumps, winner):
    """W4: "The highest card of the suit led wins the trick; with ``trumps``, a spade beats every other suit."""
    session = _whist(trumps)
    session.play("North plays 10♥")
    session.play("East plays 10♠")                                # void in hearts: any card
    session.play("West plays J♥")
    assert session.state.won[winner] == 1 and session.state.leader == winner
    table = Table(session, seat=0)
    trick = [i for i in table.board.scene["items"] if str(i.get("id", "")).startswith("trick:")]
    assert [i.get("text") for i in trick] == ["10♥", "10♠", "J♥"]     # the last trick stays on the board


def test_w5_whoever_won_the_most_tricks_wins_and_each_seat_scores_its_tricks():
    """W5: "After ``tricks`` tricks, whoever won the most tricks wins ...; each seat scores the tricks it won."""
    session = _whist()
    for words in ("North plays 9♠", "East plays 10♠", "West plays 10♣", "East plays 9♦", "West plays J♥",
                  "North plays 10♥"):
        session.play(words)
    assert session.is_over and session.winner == 1
    assert session.game.outcome(session.state).reason == "the most tricks (2)"
    assert session.game.returns(session.state) == (0.0, 2.0, 0.0)
    with pytest.raises(IllegalAction, match="the game is over"):
        session.play({"kind": "play", "card": 0})


# -- Draughts -------------------------------------------------------------------------------------------------

def _draughts(cells, **params):
    board = [0] * 36
    for square, piece in cells.items():
        board[square] = piece
    return Session(playtest.load("small_draughts", **params), start={"cells": board})


def test_d1_d2_men_start_on_the_dark_squares_and_step_forward_only_chosen_piece_then_target():
    """D1: "pieces stand on the dark squares ... Dark at the top ... Dark moves first." D2: "A man steps one
    square diagonally forward onto an empty square"."""
    session = Session(playtest.load("small_draughts"), seed=1)
    cells = session.state.cells
    assert [i for i, p in enumerate(cells) if p == 1] == [1, 3, 5, 6, 8, 10]
    assert [i for i, p in enumerate(cells) if p == -1] == [25, 27, 29, 30, 32, 34]
    scene = Table(session).board.scene
    assert scene["moves"] == {}                                   # a piece is selected first, then its target
    assert sorted(scene["selects"]) == ["board:0,1", "board:2,1", "board:4,1"]
    assert [o["label"] for o in scene["selects"]["board:2,1"]["board:3,2"]] == ["c5-d4"]
    with pytest.raises(IllegalAction, match=r"that is not your piece \(rule D2\)"):
        session.play({"kind": "move", "frm": 25, "to": 20})
    with pytest.raises(IllegalAction, match=r"that square is taken \(rule D2\)"):
        session.play({"kind": "move", "frm": 1, "to": 6})
    with pytest.raises(IllegalAction, match=r"a piece moves one square diagonally, or jumps over one \(rule D2\)"):
        session.play({"kind": "move", "frm": 6, "to": 18})
    with pytest.raises(IllegalAction, match=r"no such square \(rule D1\)"):
        session.play({"kind": "move", "frm": 6, "to": -1})
    session.play("c5-d4")
    session.play("b2-c3")
    with pytest.raises(IllegalAction, match=r"a man moves forward only \(rule D2\)"):
        session.play({"kind": "move", "frm": 15, "to": 8})


def test_d3_d4_a_capture_must_be_taken_and_goes_on_jump_after_jump_in_the_same_turn():
    """D3: "A piece captures by jumping diagonally over an enemy piece next to it onto the empty square beyond
    it". D4: "After a capture, a piece that can capture again must go on jumping, in the same turn. With
    ``forced``, a side that can capture must."""
    session = _draughts({1: 1, 5: 1, 8: -1, 20: -1, 29: -1})
    with pytest.raises(IllegalAction, match=r"a capture must be taken \(rule D4\)"):
        session.play({"kind": "move", "frm": 1, "to": 6})
    with pytest.raises(IllegalAction, match=r"a jump goes over an enemy piece \(rule D3\)"):
        session.play({"kind": "move", "frm": 5, "to": 15})
    assert [str(a) for a in session.legal_actions()] == ["move 1 15"]
    session.play("b6xd4")
    assert session.state.cells[8] == 0 and session.state.chain == 15 and session.to_move == 0
    with pytest.raises(IllegalAction, match=r"the capturing piece must jump on \(rule D4\)"):
        session.play({"kind": "move", "frm": 5, "to": 10})
    session.play("d4xb2")                                         # the second jump, the same turn
    assert session.state.cells[20] == 0 and session.state.chain == -1 and session.to_move == 1
    free = _draughts({1: 1, 8: -1, 29: -1}, forced=False)
    free.play({"kind": "move", "frm": 1, "to": 6})                # without forced, a step is allowed
    assert free.to_move == 1


def test_d5_a_man_reaching_the_far_row_is_crowned_and_its_turn_ends_there():
    """D5: "A man that reaches the far row is crowned a king, and its turn ends." A king steps back (D2)."""
    session = _draughts({25: 1, 29: -1, 10: -1})
    session.play("b2-a1")
    assert session.state.cells[30] == 2 and session.to_move == 1
    scene = Table(session).board.scene
    king, = [i for i in scene["items"] if i["kind"] == "piece" and i["at"] == [0, 5]]
    assert king["double"] is True and king["title"] == "a king"          # drawn crowned
    session.play("f2-e3")
    session.play("a1-b2")                                         # a king steps backwards
    assert session.state.cells[25] == 2


def test_d6_d7_no_piece_loses_and_a_run_of_quiet_moves_draws():
    """D6: "A side with no piece, or no move, on its turn loses." D7: "After ``quiet`` moves in a row without a
    capture and without a man moving, the game is drawn."""
    session = _draughts({8: 1, 15: -1})
    session.play({"kind": "move", "frm": 8, "to": 22})           # jumps the last Light piece
    assert session.is_over and session.winner == 0
    assert session.game.outcome(session.state).reason == "Light has no piece left"
    kings = _draughts({1: 2, 34: -2}, quiet=6)
    for words in ("b6-a5", "e1-f2", "a5-b6", "f2-e1", "b6-a5"):
        kings.play(words)
    assert kings.state.quiet == 5 and not kings.is_over
    with pytest.raises(ValueError, match=r"small_draughts.quiet 5 is past the draw at 4 \(rule D7\)"):
        kings.set_params(quiet=4)                                 # a live change the position refuses
    assert kings.game.params.quiet == 6 and kings.state.quiet == 5
    kings.play("e1-f2")
    assert kings.is_over and kings.winner == playtest.DRAW and kings.game.outcome(kings.state).reason == "6 quiet moves"


# -- both games through the session and the table --------------------------------------------------------------

def _clickable(scene):
    """What the page offers: the lit places' and selected pieces' actions and the buttons."""
    return [o["action"] for opts in scene["moves"].values() for o in opts] + \
        [o["action"] for targets in scene["selects"].values() for opts in targets.values() for o in opts] + \
        [b["action"] for b in scene["buttons"] if "action" in b]


@pytest.mark.parametrize("name", GAMES)
def test_the_table_plays_them_to_the_end_through_the_browsers_messages_and_refuses_bad_ones(name):
    session = Session(playtest.load(name, **GAMES[name]), seed=3)
    table = Table(session)
    rng = random.Random(1)
    for _ in range(400):
        if session.is_over:
            break
        if table.board.curtain:                      # hot-seat whist: the seat to act lifts the curtain
            assert _clickable(table.board.scene) == []
            table.board.receive({"type": "command", "name": "reveal", "seat": table.board.curtain["seats"][0][1]})
        scene = table.board.scene
        before = session.positions()
        table.board.receive({"type": "action", "action": rng.choice(_clickable(scene)), "version": scene["version"]})
        assert table.board.error == "" and session.positions() > before
    assert session.is_over and session.winner is not None
    session.undo()
    for bad in ({"type": "action", "action": {"kind": "move", "frm": 6, "to": 10 ** 30}},
                {"type": "action", "action": {"kind": "move", "frm": -1, "to": 13}},
                {"type": "action", "action": {"kind": "move", "frm": 6.0, "to": 13}},
                {"type": "action", "action": {"kind": "play", "card": 99}},
                {"type": "action", "action": {"kind": "play", "card": True}},
                {"type": "action", "action": {"kind": "deal", "seat": 0, "card": 1}},
                {"type": "action", "action": {"kind": "play", "card": 0, "seat": 0}},
                {"type": "action", "action": {"kind": "move", "frm": 6, "to": 13}, "version": "<b>1</b>"},
                {"type": "action", "action": {"kind": "__init__"}},
                {"type": "command", "name": "reveal", "seat": 7}, {"type": "command", "name": "force"},
                {"type": "refused", "item": "<img src=x onerror=alert(1)>"}, {"type": "preview"},
                {"type": "action", "action": {"kind": "play", "card": json.loads("[" * 40 + "]" * 40)}},
                {}, None, float("nan"), "play 0", [1, 2]):
        state, positions = session.state, session.positions()
        table.board.receive(bad)
        assert (session.state, session.positions()) == (state, positions), bad
        assert table.board.error or bad.get("type") == "refused", bad
    table.note_box.value = "<img src=x onerror=alert(1)> [link](javascript:alert(1))"
    table.note_button.click()
    assert session.notes[-1].text.startswith("<img")
    assert "<img" not in session.report() and "](javascript:" not in session.report()


@pytest.mark.parametrize("name", GAMES)
def test_a_session_plays_undoes_redoes_branches_notes_saves_opens_and_exports_a_seat(name, tmp_path):
    path = tmp_path / f"{name}.playtest.json"
    session = Session.open(path, playtest.load(name, **GAMES[name]), seed=4)
    rng = random.Random(2)
    for _ in range(6):
        session.play(rng.choice(session.legal_actions()))
    state = session.state
    session.undo()
    session.redo()
    assert session.state == state
    session.undo()
    others = [a for a in session.legal_actions() if session.game.apply(session.state, a) != state]
    if others:
        session.play(others[0])
        assert len(session.branches()) == 2
    session.note("a <b>bold</b> note")
    back = Session.load(path)                                    # every change is in the file already
    assert back.state == session.state and [n.text for n in back.notes] == ["a <b>bold</b> note"]
    assert len(back.branches()) == len(session.branches())
    session.save(tmp_path / "seat.json", seat=1)
    export = json.loads((tmp_path / "seat.json").read_text(encoding="utf-8"))
    if name == "three_hand_whist":                            # the others' cards stay out of seat 1's export
        names = {session.game.card_name(c) for k in (0, 2) for c in session.state.hands[k]}
        assert not any(n in json.dumps(export, ensure_ascii=False) for n in names)
    with pytest.raises(SessionFileError, match="an export for one seat"):
        Session.load(tmp_path / "seat.json")


def test_hostile_session_files_of_both_games_are_refused_by_name_and_left_as_they_were(tmp_path):
    whist = _whist()
    whist.play("North plays 9♠")
    whist.note("<script>alert(1)</script>")
    good = tmp_path / "w.playtest.json"
    whist.save(good)
    text = good.read_text(encoding="utf-8")
    draught = Session(playtest.load("small_draughts"), seed=1)
    draught.play("a5-b4")
    dgood = tmp_path / "d.playtest.json"
    draught.save(dgood)
    dtext = dgood.read_text(encoding="utf-8")
    cases = [
        (text.replace('"card":0}', '"card":12}'), r"you do not hold that card \(rule W2\)"),
        (text.replace('"card":0}', '"card":"0"}'), "card must be a whole number, not str"),
        (text.replace('"card":0}', '"card":0,"card":1}'), "the key 'card' is written twice"),
        (text.replace('"hands":[[0,7]', '"hands":[[1,7]'), r"the card 10♠ is held twice"),
        (text.replace('"hands":[[0,7]', '"hands":[[0,7,2]').replace('"deck":[2,', '"deck":['),
         r"three_hand_whist.deck: 7 cards dealt, more than 6"),
        (text.replace('"tricks":2', '"tricks":9'), "tricks=9 is not allowed: it must be a whole number from 1 to 8"),
        (text.replace('"trumps":false', '"trumps":0'), "trumps=0 is not allowed"),
        (text.replace('"game":"three_hand_whist"', '"game":"small_draughts"'), "small_draughts has no parameter 'tricks'"),
        (text.replace('"start":{', '"start":{"x":' + "[" * 3000 + "]" * 3000 + ','), "nested more than"),
        (text.replace('"card":0}', '"card":' + "9" * 5000 + "}"), "thousands of digits"),
        (text.replace('"card":0}', '"card":NaN}'), "NaN is not a JSON number"),
        (dtext.replace('"to":13', '"to":12'), r"a piece moves one square diagonally, or jumps over one \(rule D2\)"),
        (dtext.replace('"frm":6', '"frm":25'), r"that is not your piece \(rule D2\)"),
        (dtext.replace('"quiet":20', '"quiet":20.5'), "quiet=20.5 is not allowed"),
        (dtext.replace('"size":6', '"size":7'), "size=7 is not allowed: it must be one of 6, 8"),
    ]
    for k, (bad, message) in enumerate(cases):
        assert bad not in (text, dtext), message
        path = tmp_path / f"bad{k}.playtest.json"
        path.write_text(bad, encoding="utf-8")
        with pytest.raises(SessionFileError, match=message):
            Session.load(path)
        assert path.read_text(encoding="utf-8") == bad
    assert Session.load(good).state == whist.state and Session.load(dgood).state == draught.state


# -- the lab and testers ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", GAMES)
def test_the_lab_plays_them_with_random_and_search_bots(name):
    game = playtest.load(name, **GAMES[name])
    result = playtest.simulate(game, games=6, seed=1, progress=False, executor=None)
    assert len(result.games) == 6
    bots = [MCTSBot(iterations=10, seed=1)] + [RandomBot(seed=s) for s in range(1, game.seat_count())]
    searched = playtest.simulate(game, bots, games=2, seed=1, progress=False, executor=None)
    assert len(searched.games) == 2


def test_a_search_bot_is_never_handed_the_other_hands():
    """A bot is handed a world redrawn for its seat (guide section 14): in Three-hand Whist the other hands and
    the undealt cards are shuffled together (one ``pool``), its own hand kept."""
    from playtest.bots import choose_for
    session = Session(playtest.load("three_hand_whist", tricks=4), seed=2)
    state, seen = session.state, []

    class Peek(RandomBot):
        needs_world = True

        def choose(self, game, state, seat=None):
            seen.append(state)
            return super().choose(game, state, seat)
    for k in range(6):
        choose_for(Peek(seed=1), session.game, state, 0, random.Random(k))
    hidden = sorted(state.hands[1] + state.hands[2] + state.deck)
    for world in seen:
        assert world.hands[0] == state.hands[0] and [len(h) for h in world.hands] == [4, 4, 4]
        assert sorted(world.hands[1] + world.hands[2] + world.deck) == hidden
    assert any(world.hands[1:] != state.hands[1:] for world in seen)
    assert MCTSBot(iterations=20, seed=1).choose(session.game, seen[0], 0) in session.legal_actions()


def test_a_tester_plays_whist_against_bots_and_sends_it_back(tmp_path):
    view = playtest.TesterView("three_hand_whist", directory=tmp_path)
    view.name.value = "Zoë"
    view.seat.value = 1
    view.start_button.click()
    session = view.session
    rng = random.Random(2)
    for _ in range(60):
        if session.is_over:
            break
        actions = session.legal_actions(1)
        assert actions, "the bots left the tester waiting"
        view.table.board.receive({"type": "action", "action": rng.choice(actions).to_json()})
        assert view.table.board.error == ""
    assert session.is_over
    assert "W3 Following suit" in view.how_to_play.children[0].value          # the rules page, beside the module
    session.note("following suit was clear")
    sent = []
    view.table.board.send = lambda content, buffers=None: sent.append((content, buffers))
    view.send_button.click()
    back = Session.from_records_bytes(sent[-1][1][0])
    designer = Session(playtest.load("three_hand_whist"), seed=9)
    designer.merge(back)
    assert "following suit was clear" in designer.report()
    page = playtest.write_tester_notebook(tricks.ThreeHandWhist, directory=tmp_path)
    cells = json.loads(page.read_text(encoding="utf-8"))["cells"]
    assert any("import newgames.tricks" in "".join(c["source"]) for c in cells)


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_and_pettingzoo_take_them(name):
    takes_interop(name, GAMES[name])