"""Defects a newcomer (a designer bringing a game of their own) and a hostile reviewer found, each
pinned by a test: tests/test_newcomer_games.py holds the games they wrote."""

from __future__ import annotations

import re

import pytest

import playtest
from newgames import blind_auction, dice_bluff, othello_small  # noqa: F401  (registers them)


def test_a_report_of_a_game_without_credit_has_no_stray_emphasis():
    """A game that says no ``credit`` (every newcomer's first draft) printed a line "**" under the title."""
    report = playtest.Session(playtest.load("othello_small"), seed=1).report()
    assert "\n**\n" not in report and "\n\n\n" not in report
    assert report.splitlines()[:3] == ["# Othello (small): playtest report", "", "## Parameters"]
    source = playtest.load("source")
    assert playtest.Session(source).report().splitlines()[2].startswith("*Source, from")      # a credit stays


def test_a_testers_name_is_drawn_as_written_on_a_chart_never_as_matplotlib_maths(tmp_path):
    """A tester's name like ``$\\frac{$`` made ``think_time(by="author")`` fail to draw (matplotlib read it
    as maths: ValueError from its parser), and ``$x^2$`` would have been set as a formula."""

    pytest.importorskip("matplotlib")
    pytest.importorskip("pandas")
    from matplotlib.text import Text
    for k, who in enumerate([r"$\frac{1}{$x", r"Ann $x^2$"]):
        session = playtest.Session(playtest.load("othello_small"), seed=k)
        session.author = who
        for _ in range(3):
            session.play(session.legal_actions()[0])
        session.save(tmp_path / f"{k}.playtest.json")
    report = playtest.playtests(tmp_path)
    for by in ("author", "player"):
        chart = report.think_time(by=by, who="all")
        assert chart.png()[:4] == b"\x89PNG"
        texts = [t.get_text() for t in chart.figure.findobj(Text)]
        assert any(r"$\frac{1}{$x" in t for t in texts) and all(not t._parse_math for t in chart.figure.findobj(Text))


def test_notes_and_names_exported_to_csv_never_open_as_spreadsheet_formulas(tmp_path):
    """A note ``=HYPERLINK("http://…","click")`` in a tester's file became a live link (and any
    formula ran) when the designer opened ``report.to_csv``'s notes.csv in a spreadsheet."""
    import csv


    pytest.importorskip("pandas")
    session = playtest.Session(playtest.load("othello_small"), seed=1)
    session.author = "@SUM(1+1)"
    session.play(session.legal_actions()[0])
    session.note('=HYPERLINK("http://evil.example","click")')
    session.note("-2+3")
    session.note("a plain note, = inside")
    session.save(tmp_path / "s.playtest.json")
    report = playtest.playtests(tmp_path / "s.playtest.json")
    assert report.notes["text"].iloc[0].startswith("=HYPERLINK")      # the table itself keeps the text
    report.to_csv(tmp_path / "out")
    with open(tmp_path / "out" / "notes.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [r["text"] for r in rows] == ["'=HYPERLINK(\"http://evil.example\",\"click\")", "'-2+3",
                                         "a plain note, = inside"]
    assert {r["author"] for r in rows} == {"'@SUM(1+1)"}
    with open(tmp_path / "out" / "moves.csv", newline="", encoding="utf-8") as f:
        assert all(not cell.startswith(("=", "@")) for row in csv.reader(f) for cell in row)


# ------------------------------------------------------------------ check_game: mistakes it let through

from playtest import Outcome, per_seat, register                      # noqa: E402
from playtest.examples.tic_tac_toe import TicTacToe                   # noqa: E402
from newgames.dice_bluff import DiceBluff, Roll                  # noqa: E402


def _bluff_rolling(name, listing):
    def chance_outcomes(self, s):
        return listing(0 if None in s.dice[0] else 1)
    return register(type(name.title().replace("_", ""), (DiceBluff,), {"name": name, "chance_outcomes": chance_outcomes}),
                    listed=False)()


def _ttt_ending(name, **methods):
    return register(type(name.title().replace("_", ""), (TicTacToe,), {"name": name, **methods}), listed=False)()


def _finished(self, s, winners=(0,), payoffs=None):
    return Outcome(winners, "x", payoffs=payoffs) if TicTacToe.outcome(self, s) else None


@pytest.mark.parametrize("game, message", [
    (lambda: _bluff_rolling("qa_sixths", lambda seat: [(Roll(seat, f), 1 / 7) for f in range(1, 7)]),
     "chance_outcomes' probabilities add up to 0.857143, not 1"),
    (lambda: _bluff_rolling("qa_negative", lambda seat: [(Roll(seat, 1), -1.0), (Roll(seat, 2), 2.0)]),
     "chance_outcomes gives roll 0 1 the probability -1.0: a probability is a number from 0 to 1"),
    (lambda: _bluff_rolling("qa_twice", lambda seat: [(Roll(seat, 1), 0.5), (Roll(seat, 1), 0.5)]),
     "chance_outcomes lists roll 0 1 twice"),
    (lambda: _bluff_rolling("qa_none", lambda seat: []), "chance_outcomes lists no outcome"),
    (lambda: _ttt_ending("qa_seat5", outcome=lambda self, s: _finished(self, s, (5,))),
     r"outcome\(\) names the winners \[5\]: a tuple of different seats, each from 0 to 1"),
    (lambda: _ttt_ending("qa_pay1", outcome=lambda self, s: _finished(self, s, payoffs=(1.0,))),
     r"outcome\(\)'s payoffs are \[1.0\]: one finite number per seat \(2\)"),
    (lambda: _ttt_ending("qa_paynan", outcome=lambda self, s: _finished(self, s, payoffs=(float("nan"), 0.0))),
     "one finite number per seat"),
    (lambda: _ttt_ending("qa_payrange", outcome=lambda self, s: _finished(self, s, payoffs=(5.0, -5.0))),
     r"leave returns_range\(\) \(-1.0, 1.0\)"),
    (lambda: _ttt_ending("qa_scores", running_scores=lambda self, s: (1.0,)),
     r"running_scores\(\) gives \[1.0\]: one finite number per seat \(2\), or None"),
    (lambda: _ttt_ending("qa_seat7", to_move=lambda self, s: None if self.outcome(s) else 7),
     "to_move gives 7, which is no seat of the game"),
    (lambda: _ttt_ending("qa_noend", outcome=lambda self, s: None, to_move=lambda self, s: None if s.turn == 9 else s.turn % 2),
     r"to_move gives None \(the game is over\) but outcome\(\) gives None"),
])
def test_check_game_refuses_a_broken_chance_listing_outcome_or_seat_naming_it(game, message):
    """Each of these passed check_game before (a chance listing adding up to 6/7, a winner who is no seat,
    payoffs of the wrong length or outside returns_range, running scores of the wrong length, to_move
    naming seat 7 failed only deep in the board drawing): now "plays" names the mistake."""
    report = playtest.check_game(game(), examples=4)
    failure = next(f for f in report.failures if f.property == "plays")
    assert re.search(message, failure.message), failure.message


def test_check_game_names_the_field_a_rule_stored_wrongly_and_does_not_crash():
    """An effect() that stored a str in an int field crashed check_game itself (TypeError from the
    kit's listing of legal actions); one that stored a list in a tuple field said only "does not
    read back", without the field."""
    def wrong_type(self, s, a):
        return s.replace(cells=per_seat(s.cells, a.cell, s.turn % 2), turn="x" if s.turn == 3 else s.turn + 1)
    report = playtest.check_game(_ttt_ending("qa_strturn", effect=wrong_type), examples=3)
    assert any("breaks its declaration" in f.message and "turn must be a whole number from 0 to 9, not 'x'"
               in f.message for f in report.failures), report

    def a_list(self, s, a):
        return s.replace(cells=list(per_seat(s.cells, a.cell, s.turn % 2)), turn=s.turn + 1)
    report = playtest.check_game(_ttt_ending("qa_listcells", effect=a_list), examples=3)
    failure = next(f for f in report.failures if f.property == "json")
    assert "cells is [" in failure.message and "(a list) and reads back as" in failure.message and "(a tuple)" in failure.message

    def too_far(self, s, a):
        return s.replace(cells=per_seat(s.cells, a.cell, s.turn % 2), turn=s.turn + (21 if s.turn == 3 else 1))
    report = playtest.check_game(_ttt_ending("qa_farturn", effect=too_far), examples=3)
    failure = next(f for f in report.failures if f.property == "json")
    assert "breaks its declaration" in failure.message and "not 24" in failure.message


def test_a_determinize_that_draws_worlds_the_rules_cannot_reach_is_explained_whole():
    """The blind auction without its own determinize (an offer redrawn from 0..30 whatever the purse):
    check_game cut the search bot's explanation at 200 characters, in the middle of "pending_seats and
    legal_actions disagree", before the advice, and filed it under "secrecy: board"; now it is the bots'
    property, naming the bot, and the message says the cause and the fix."""
    from playtest import Game
    from newgames.blind_auction import BlindAuction
    careless = register(type("QaAuction", (BlindAuction,), {"name": "qa_auction", "determinize": Game.determinize}),
                        listed=False)
    report = playtest.check_game(careless(), examples=10)
    failure = next(f for f in report.failures if "determinize" in f.message)
    assert failure.property == "secrecy: bots" and "the bot 'mcts' raised, choosing for this seat" in failure.message
    message = failure.message
    assert "the drawn world may break a rule between values" in message
    assert "write the game's own determinize (guide, section 9)" in message
    playtest.check_game("blind_auction", examples=10).assert_ok()                 # with its own: fine


def test_a_bug_in_the_games_own_why_not_is_not_reported_as_malformed_input():
    """``session.play("mark 1")`` with a why_not that raises ValueError("oops") said
    ``MalformedAction: oops``: the designer's text was blamed for the designer's rules."""
    def why_not(self, s, a, seat):
        raise ValueError("oops")
    session = playtest.Session(_ttt_ending("qa_oops", why_not=why_not), seed=1)
    with pytest.raises(RuntimeError, match=r"qa_oops's own code raised ValueError: oops while listing the legal "
                                           r"actions .* to read 'mark 1': the rules have a bug") as raised:
        session.play("mark 1")
    assert not isinstance(raised.value, ValueError) and isinstance(raised.value.__cause__, ValueError)
    assert session.move_number == 0
    with pytest.raises(playtest.MalformedAction, match="cell must be a whole number"):     # bad input still is
        session.play({"kind": "mark", "cell": "1"})


def test_a_tester_link_for_an_unlisted_game_says_what_to_do_not_unknown_game():
    """``tester_link(game="othello_small")`` (registered with listed=False, as the guide's examples are)
    said "unknown game 'othello_small'" although playtest.load("othello_small") works."""
    with pytest.raises(ValueError, match=r"notebooks/testers/othello_small.ipynb does not exist"):
        playtest.tester_link(game="othello_small", via="local")
    with pytest.raises(ValueError, match=r"'othello_small' is registered with listed=False.*notebooks/testers/"
                                         r"othello_small.ipynb"):
        playtest.tester_link(game="othello_small", view="lab", via="local")
    with pytest.raises(ValueError, match="unknown game 'no_such_game'"):
        playtest.tester_link(game="no_such_game", via="local")


def test_register_refuses_a_number_parameter_without_a_range_and_a_params_field_without_param():
    """``size: int = param(6, "...")`` registered, and ``playtest.load(..., size=10**9)`` (or a session
    file saying so) then built whatever the rules build for it; ``size: int = 6`` in Params registered
    as no parameter at all (the panel did not show it, ``load(size=8)`` said it had no such parameter)."""
    from playtest import Params, RegistrationError, param

    class Unbounded(Params):
        size: int = param(6, "the board is size x size", min=4)

    class Plain(Params):
        size: int = 6

    for params, message in ((Unbounded, r"parameter size has no max= \(kernel rule K4"),
                            (Plain, r"Plain.size is not declared with param\(\).*\(kernel rule K4\)")):
        with pytest.raises(RegistrationError, match=message):
            register(type("QaSized", (othello_small.Othello,), {"name": "qa_sized", "Params": params}), listed=False)
    assert "qa_sized" not in playtest.kernel.registry._REGISTRY


def test_a_game_written_the_older_way_with_an_unbounded_parameter_still_registers_and_check_game_says_so():
    """K4 came after designers wrote games against the older protocol (no game_type): those keep
    registering (issue 22: existing games keep working), with a warning in K4's words, and
    ``check_game`` fails its "declarations" property with the same words."""
    import old_style_game
    from playtest import param

    class Unbounded(old_style_game.SecretBidParams):
        rounds: int = param(2, "rounds in a game", live=False, min=1)

    older = type("QaOlderSized", (old_style_game.SecretBid,), {"name": "qa_older_sized", "Params": Unbounded})
    assert older.game_type is None
    with pytest.warns(UserWarning, match=r"parameter rounds has no max= \(kernel rule K4"):
        register(older, listed=False)
    try:
        report = playtest.check_game("qa_older_sized", examples=1)
        [failure] = [f for f in report.failures if f.property == "declarations"]
        assert "parameter rounds has no max=" in failure.message
        assert playtest.check_game("secret_bid", examples=1).checked["declarations"] == 1
    finally:
        playtest.kernel.registry._REGISTRY.pop("qa_older_sized", None)


def test_a_click_made_on_an_earlier_board_is_not_played_on_the_new_position():
    """In hot-seat Othello a double click on a target sent the action twice; when the second was legal
    for the next seat too it was played for that seat. Clicks now carry the scene version they were
    made on, and one made before the position changed is refused, changing nothing."""
    from playtest import Table
    session = playtest.Session(playtest.load("othello_small"), seed=1)
    table = Table(session)

    def send(content):
        table.board._handle_custom_msg(content, [])
    first = session.legal_actions()[0]
    version = table.board.version
    send({"type": "action", "action": first.to_json(), "version": version})
    assert session.move_number == 1 and table.board.error == ""
    reply = session.legal_actions()[0]
    send({"type": "action", "action": reply.to_json(), "version": version})          # the stale second click
    assert session.move_number == 1 and "earlier board" in table.board.error
    table.note_box.value = "a note redraws the board, the position stays"
    table.note_button.click()
    drawn = table.board.version
    table.note_box.value = "another"
    table.note_button.click()
    assert table.board.version > drawn
    send({"type": "action", "action": reply.to_json(), "version": drawn})            # same position: played
    assert session.move_number == 2 and table.board.error == ""
    for bad in (-1, "3", 2**60, 1.5):
        send({"type": "action", "action": session.legal_actions()[0].to_json(), "version": bad})
        assert session.move_number == 2 and "scene version" in table.board.error
    send({"type": "action", "action": session.legal_actions()[0].to_json()})         # not said: as before
    assert session.move_number == 3


def test_a_malformed_actions_message_names_only_what_is_wrong():
    """It said "missing [], unexpected ['evil']" (an empty list for what was not wrong)."""
    from newgames.othello_small import Place
    game = playtest.load("othello_small")
    with pytest.raises(playtest.MalformedAction) as raised:
        game.action_from_json({"kind": "place", "col": 2, "row": 1, "evil": 1})
    assert str(raised.value) == "malformed place action: unexpected 'evil' (its fields are col, row)"
    with pytest.raises(playtest.MalformedAction) as raised:
        game.action_from_json({"kind": "place", "col": 2})
    assert str(raised.value) == "malformed place action: missing row (its fields are col, row)"
    with pytest.raises(playtest.MalformedAction, match="its kind is 'place', not 'pass'"):
        Place.from_json({"kind": "pass", "col": 1, "row": 1})


def _rock_paper(name, **methods):
    from playtest import SIMULTANEOUS, Action, Game, GameType, State, field

    class Throw(Action):
        player: int
        hand: int

    class Hands(State):
        hands: tuple[int | None, ...] = field((None, None), min=0, max=2, visible="owner")

    body = dict(name=name, seat_names=("A", "B"), state_type=Hands, action_types=(Throw,),
                game_type=GameType(dynamics="simultaneous", max_length=2),
                to_move=lambda self, s: None if None not in s.hands else SIMULTANEOUS,
                pending_seats=lambda self, s: tuple(i for i, h in enumerate(s.hands) if h is None),
                candidates=lambda self, s, seat: [Throw(seat, h) for h in range(3)] if s.hands[seat] is None else [],
                effect=lambda self, s, a: s.replace(hands=per_seat(s.hands, a.player, a.hand)),
                outcome=lambda self, s: None if None in s.hands else Outcome((), "a draw"))
    body.update(methods)
    return type(name.title().replace("_", ""), (Game,), body)


def test_a_simultaneous_game_needs_a_seat_field_and_pending_seats_said_at_register():
    """An order whose seat field was called ``player`` registered, then every order was refused with
    "in a simultaneous step an action names the seat that submits it" (and "this is seat None's order"
    at the table); a game without pending_seats() registered and check_game met IndexError in the kit."""
    from playtest import RegistrationError
    with pytest.raises(RegistrationError, match="none of its actions has a field called seat"):
        register(_rock_paper("qa_rps_player"), listed=False)
    seat_of = lambda self, s, a: a.player        # noqa: E731  (its own seat_of: fine)
    unpending = _rock_paper("qa_rps_pending", seat_of=seat_of)
    del unpending.pending_seats
    with pytest.raises(RegistrationError, match=r"writes no pending_seats\(\)"):
        register(unpending, listed=False)
    game = register(_rock_paper("qa_rps_seat_of", seat_of=seat_of), listed=False)()
    session = playtest.Session(game)
    session.play({"kind": "throw", "player": 1, "hand": 2}, seat=1)
    assert session.move_number == 1


def test_an_order_without_a_seat_is_refused_naming_the_seat_field():
    from playtest import SIMULTANEOUS
    from playtest.examples.goofspiel import Reveal
    goof = playtest.load("goofspiel", cards=3)
    state = goof.apply(goof.initial_state(), Reveal(2))
    assert goof.to_move(state) == SIMULTANEOUS
    refusal = goof.check(state, Reveal(1))
    assert "in a field called seat (reveal 1 has none" in refusal.text


def test_a_game_that_outruns_its_max_length_shows_the_steps_it_took():
    """"ends" said "after 0 steps: the start" of a game that had played max_length steps."""
    from playtest import GameType
    short = register(type("QaShort", (TicTacToe,), {"name": "qa_short", "game_type": GameType(max_length=3)}),
                     listed=False)
    failure = next(f for f in playtest.check_game(short(), examples=2).failures if f.property == "ends")
    assert len(failure.history) == 3 and len(failure.actions) == 3 and "after 3 steps: mark" in str(failure)


def test_a_number_of_a_hundred_thousand_digits_in_a_file_is_said_in_the_files_words(tmp_path):
    """It said "not valid JSON (Exceeds the limit (4300 digits) for integer string conversion ...; use
    sys.set_int_max_str_digits())": advice to change Python's limits, to whoever opened a stranger's file."""
    session = playtest.Session(playtest.load("othello_small"), seed=5)
    path = tmp_path / "s.playtest.json"
    session.save(path)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('"seed":5', '"seed":' + "9" * 100_000), encoding="utf-8")
    with pytest.raises(playtest.SessionFileError, match="a number in it has thousands of digits") as raised:
        playtest.Session.load(path)
    assert "set_int_max_str_digits" not in str(raised.value)


def test_two_sessions_writing_one_file_never_interleave_their_records(tmp_path):
    """``a.save(path)``, then ``b = Session.load(path)`` in the same kernel (a second cell) and a move
    in each: both appended to the file, which then failed to load ("node 5 ... cannot be replayed: it
    repeats position 4"), losing every later record. Now the second writer's change is refused,
    naming the cause, and the file keeps what the first wrote."""
    path = tmp_path / "a.playtest.json"
    a = playtest.Session(playtest.load("othello_small"), seed=1)
    a.play(a.legal_actions()[0])
    a.save(path)
    b = playtest.Session.load(path)
    b.play(b.legal_actions()[0])                       # b writes first: the file is b's line now
    before = path.read_bytes()
    with pytest.raises(playtest.SessionSaveError, match="was changed by someone else since this session last "
                                                        "wrote it.*the change was not made"):
        a.play(a.legal_actions()[-1])
    assert a.move_number == 1 and path.read_bytes() == before         # rolled back, nothing written
    with pytest.raises(playtest.SessionSaveError, match="changed by someone else"):
        a.save()                                                       # nor compacted over b's move
    assert path.read_bytes() == before
    again = playtest.Session.load(path)
    assert again.move_number == 2 and again.state == b.state
    b.note("b keeps writing")                                          # the file's own writer goes on
    assert [n.text for n in playtest.Session.load(path).notes] == ["b keeps writing"]


def test_a_cup_of_hidden_dice_says_die_not_card():
    """The dice bluff had only Hand for dice its owner alone sees, and its tooltips said "a face-down
    card" / "card 5"."""
    game = playtest.load("dice_bluff")
    state = game.state_from_json({"dice": [[3, 5], [1, 1]]})
    titles = {item.get("title") for item in game.view(state, 1)["items"] if item.get("board") == "cup0"}
    assert titles == {"a face-down die"}
    assert {item.get("title") for item in game.view(state, 0)["items"] if item.get("board") == "cup0"} == {"die 3", "die 5"}


def _loose_tic_tac_toe():
    """Tic-tac-toe with its cells' number left undeclared (no length=, no check_state): a draft."""
    from playtest.examples.tic_tac_toe import TicTacToe
    from playtest.kernel.registry import game_class

    class LooseBoard(playtest.State):
        cells: tuple[int, ...] = playtest.field((-1,) * 9, min=-1, max=1)
        turn: int = playtest.field(0, min=0, max=9)

    try:
        return playtest.load(game_class("loose_tic_tac_toe").name)
    except (KeyError, ValueError):
        pass

    class LooseTicTacToe(TicTacToe):
        name, state_type = "loose_tic_tac_toe", LooseBoard

    playtest.register(LooseTicTacToe, listed=False)
    return playtest.load("loose_tic_tac_toe")


def test_a_start_position_the_rules_cannot_read_is_refused_when_the_session_is_made(tmp_path):
    """``Session(othello_4x4, start={"cells": [-1, -1, -1]})`` was accepted, and the first call on the
    session raised IndexError from inside the game's rules."""
    game = playtest.load("othello_small", size=4)
    loose = _loose_tic_tac_toe()          # (the kit's own tic-tac-toe declares its 9 cells now: length=9)
    with pytest.raises(ValueError, match=r"bad start position: the game raised IndexError: .* check_state may "
                                         r"refuse it by name"):
        playtest.Session(loose, start={"cells": [-1, -1, -1]})
    with pytest.raises(ValueError, match=r"tic_tac_toe.cells holds 9 entries, not 3"):
        playtest.Session(playtest.load("tic_tac_toe"), start={"cells": [-1, -1, -1]})
    with pytest.raises(ValueError, match="othello_small.cells has 3 cells; a 4 x 4 board has 16"):
        playtest.Session(game, start={"cells": [-1, -1, -1]})           # the game's own check_state
    with pytest.raises(ValueError, match="othello_small.mover must be a whole number from 0 to 1, not 5"):
        playtest.Session(game, start={"mover": 5})          # what the declaration refuses, as before
    path = tmp_path / "s.playtest.json"
    playtest.Session(loose, seed=1).save(path)
    text = path.read_text(encoding="utf-8").replace('"start":null', '"start":{"cells":[-1,-1,-1]}')
    path.write_text(text, encoding="utf-8")
    with pytest.raises(playtest.SessionFileError, match=r"s.playtest.json: bad start position: the game raised "
                                                         r"IndexError"):
        playtest.Session.load(path)


def test_a_name_the_file_could_not_read_back_is_refused_when_it_is_set(tmp_path):
    """``session.author = "x" * 150`` (or a name with a NUL or a terminal escape) was taken, written
    with every move, and the file then failed to load ("node 1: 'by' must be a short name"): the
    session wrote what its own loader refuses. Control characters are refused everywhere a name is read."""
    session = playtest.Session(playtest.load("tic_tac_toe"), path=tmp_path / "s.playtest.json")
    for bad, message in (("x" * 150, "at most 100 characters"), ("a\x1b[31mb", "no control characters"),
                         ("a\x00b", "no control characters")):
        with pytest.raises(ValueError, match=message):
            session.author = bad
    session.author = "  Ana   María "
    session.play("mark 0")
    assert playtest.Session.load(tmp_path / "s.playtest.json").move_number == 1
    text = (tmp_path / "s.playtest.json").read_text(encoding="utf-8")
    assert '"by":"Ana María"' in text
    (tmp_path / "t.playtest.json").write_text(text.replace('"by":"Ana María"', '"by":"a\\u001bb"'), encoding="utf-8")
    with pytest.raises(playtest.SessionFileError, match="'by' must be a short name"):
        playtest.Session.load(tmp_path / "t.playtest.json")
    view = playtest.TesterView("othello_small", directory=tmp_path)
    view.name.value = "Eve\x1b[2J"
    view.start_button.click()
    assert view.session is None and "control character" in view.message.value


def test_a_games_own_error_in_the_lab_says_which_game_of_the_run_it_was():
    """A designer's effect() raising in the lab came out as a bare ZeroDivisionError (from a worker
    process: its traceback in another process), with nothing of which game or seed to replay."""
    import sys

    from playtest.bots import RandomBot

    def effect(self, s, a):
        if s.turn == 5:
            raise ZeroDivisionError("a designer's bug at turn 5")
        return TicTacToe.effect(self, s, a)
    crashy = _ttt_ending("qa_crashy", effect=effect)
    with pytest.raises(ZeroDivisionError, match="a designer's bug at turn 5") as raised:
        playtest.simulate(crashy, [RandomBot(1), RandomBot(2)], games=3, seed=1, executor=None)
    if sys.version_info >= (3, 11):
        assert re.search(r"in qa_crashy, game \d+ of the lab's run, its seed \d+", " ".join(raised.value.__notes__))


@pytest.mark.parametrize("methods, where, message", [
    ({"why_not": lambda self, s, a, seat: s.cells[a.cell] >= 0}, "plays",
     r"qa_boolwhy's why_not returned False for mark 0: it returns Refusal\(text, rule\) or None \(legal\) "
     r"\(False is not None: it refuses\)"),
    ({"view": lambda self, s, seat=None: None}, "scene", r"view\(\) returned None, not a scene: a dict"),
    ({"outcome": lambda self, s: "X wins" if s.turn == 9 else None}, "plays",
     r"outcome\(\) returned 'X wins': it returns Outcome\(winners, reason\)"),
    ({"candidates": lambda self, s, seat: None}, "plays", r"candidates\(\) returned None for seat 0: it returns a list"),
])
def test_check_game_says_which_method_returned_the_wrong_kind_of_value(methods, where, message):
    """A why_not returning a bool (every action refused) said "random action is legal: IndexError: Cannot
    choose from an empty sequence"; a view returning None, "AttributeError: 'NoneType' object has no
    attribute 'get' at check.py"; an outcome returning a str, "AttributeError ... 'reason'"."""
    name = {"why_not": "qa_boolwhy", "view": "qa_noview", "outcome": "qa_strout", "candidates": "qa_nocands"}[
        next(iter(methods))]
    report = playtest.check_game(_ttt_ending(name, **methods), examples=2)
    failure = next(f for f in report.failures if f.property == where)
    assert re.search(message, failure.message), failure.message


def test_a_why_not_that_returns_a_string_is_named_not_an_attribute_error():
    """``return "that cell is taken"`` (a str, not a Refusal) made session.play raise AttributeError:
    'str' object has no attribute 'text'."""
    from playtest import Refusal

    def why_not(self, s, a, seat):
        return Refusal("no such cell", "T1") if not 0 <= a.cell < 9 else "taken" if s.cells[a.cell] >= 0 else None
    session = playtest.Session(_ttt_ending("qa_strwhy", why_not=why_not))
    session.play("mark 0")
    with pytest.raises(TypeError, match=r"qa_strwhy's why_not returned 'taken' for mark 0: it returns "
                                         r"Refusal\(text, rule\) or None"):
        session.play({"kind": "mark", "cell": 0})
    assert session.move_number == 1


def test_a_session_file_of_a_game_not_registered_says_so_when_written_and_when_read(tmp_path):
    """A notebook's game without @register played and saved at once, and its file then failed to load
    with "unknown game 'x'; the games are: ..." (nothing said why, nor that it would)."""
    from playtest.session import SessionFileWarning
    unregistered = type("QaUnregistered", (TicTacToe,), {"name": "qa_unregistered"})
    path = tmp_path / "s.playtest.json"
    with pytest.warns(SessionFileWarning, match=r"QaUnregistered \('qa_unregistered'\) is not registered, so this "
                                                r"file cannot be loaded .* decorate the class with @register"):
        session = playtest.Session(unregistered(), path=path)
    session.play("mark 4")
    with pytest.raises(playtest.SessionFileError,
                       match=r"unknown game 'qa_unregistered' \(a game of your own .* decorated with @register, has run"):
        playtest.Session.load(path)
    register(unregistered, listed=False)                         # the cell run with @register: it loads
    assert playtest.Session.load(path).move_number == 1


def test_a_mean_returns_interval_stays_within_the_payoffs_the_game_can_give():
    """Two blind auctions (payoffs 0 to 15, returns_range) gave North's mean return the interval
    -29.3 to 34.3: a Student-t interval over two games, past anything a game pays."""
    from playtest.bots import RandomBot
    result = playtest.simulate("blind_auction", [RandomBot(1), RandomBot(2), RandomBot(3)], games=2, seed=1)
    table = result.summary()
    returns = table[table["metric"] == "mean return"]
    assert len(returns) == 3
    assert (returns["low"] >= 0).all() and (returns["high"] <= 15).all()
    assert ((returns["low"] <= returns["value"]) & (returns["value"] <= returns["high"])).all()


def test_the_labs_figures_draw_names_as_written_never_as_matplotlib_maths():
    """A seat or bot called ``a $\\frac{$`` made the lab's interval plot fail to draw (as the playtests'
    charts did for a tester's name)."""
    pytest.importorskip("matplotlib")
    from playtest.lab.plots import interval_plot
    name = r"a $\frac{$"
    figure = interval_plot({name: 0.1}, low={name: 0.0}, high={name: 0.2}, xlabel="advantage")
    assert figure._repr_png_()[:4] == b"\x89PNG"


def test_a_report_of_a_game_without_parameters_says_so_not_an_empty_table():
    report = playtest.Session(playtest.load("tic_tac_toe")).report()
    assert "The game has no parameters." in report and "| parameter |" not in report
    assert "| `size` | 6 | 6 |" in playtest.Session(playtest.load("othello_small")).report()
