"""What a fourth newcomer's pass found (two games written from docs/adding_a_game.md alone,
tests/newgames/tricks.py and tests/newgames/draughts.py, then hostile input): each test failed before
its fix and passes after it."""

from __future__ import annotations

import math
import warnings

import pytest

import playtest
from playtest import (Action, DeclarationError, Game, GameType, Outcome, Params, RegistrationError, Session,
                      SessionFileError, State, Table, field, param, register)
from playtest.session import SessionFileWarning
from newgames import draughts, tricks  # noqa: F401  (registers them)


# -- a notation written as the guide's table writes it, notation(state, action, viewer) ------------------

def test_a_notation_whose_viewer_has_no_default_serves_the_move_log_and_the_forced_outcome_message():
    """The guide's table: ``notation(state, action, viewer)``. Three-hand Whist writes it so, without a
    default for ``viewer``; ``check_game`` passed, but the session's history (the move log, the report)
    called ``game.notation(state, action)`` with two arguments and raised TypeError, and so did the
    message for a forced chance result that cannot happen."""
    game = playtest.load("three_hand_whist", tricks=2)
    session = Session(game, seed=3)
    session.play(session.legal_actions()[0])
    assert session.history()[-1]["notation"].startswith("North plays ")
    assert session.history(viewer=0)[1]["notation"].startswith("North is dealt ")
    assert "North plays" in session.report()
    while session.to_move != playtest.CHANCE:            # back to the last chance step of the deal
        session.undo()
    held = session.state.hands[0][0]
    with pytest.raises(playtest.IllegalAction, match=r"the possible outcomes are: West is dealt a card"):
        session.force(tricks.Deal(2, held))               # a card North holds: it cannot be dealt again
    assert Table(session).board.error == ""


# -- a key written twice in a session file ------------------------------------------------------------------

def test_a_session_file_that_writes_a_key_twice_is_refused_naming_the_key_and_the_line(tmp_path):
    """JSON readers differ on a key written twice (Python's keeps the last value, others the first), so a
    stranger's file could show one move in an editor and replay another: it was read silently, the last
    value winning. It is refused now, naming the key and the line, and the file is left as it was."""
    session = Session(playtest.load("small_draughts"), seed=1)
    session.play("a5-b4")
    session.note("first")
    good = tmp_path / "d.playtest.json"
    session.save(good)
    text = good.read_text(encoding="utf-8")
    cases = [(text.replace('"frm":6', '"frm":8,"frm":6'), r"line 2: not valid JSON \(the key 'frm' is written twice"),
             (text.replace('"seed":1', '"seed":1,"seed":2'), r"the key 'seed' is written twice"),
             (text.replace('"quiet":20', '"quiet":20,"quiet":4'), r"the key 'quiet' is written twice"),
             (text.replace('"text":"first"', '"text":"first","text":"second"'), r"the key 'text' is written twice")]
    for k, (bad, message) in enumerate(cases):
        assert bad != text
        path = tmp_path / f"bad{k}.playtest.json"
        path.write_text(bad, encoding="utf-8")
        with pytest.raises(SessionFileError, match=message):
            Session.load(path)
        assert path.read_text(encoding="utf-8") == bad
    assert Session.load(good).state == session.state          # one key once: read as before


# -- a game's own error on a click ----------------------------------------------------------------------------

class Count(State):
    n: int = field(0, min=0, max=9)


class Add(Action):
    k: int


def _counting_game(name: str, **methods):
    namespace = dict(name=name, seat_names=("Odd", "Even"), state_type=Count, action_types=(Add,),
                     game_type=GameType(max_length=9),
                     to_move=lambda self, s: None if s.n >= 9 else s.n % 2,
                     candidates=lambda self, s, seat: [Add(1)],
                     why_not=lambda self, s, a, seat: None,
                     effect=lambda self, s, a: s.replace(n=s.n + a.k),
                     outcome=lambda self, s: Outcome((0,), "nine") if s.n >= 9 else None)
    namespace.update(methods)
    return register(type("Counting", (Game,), namespace), listed=False)()


def _boom(self, *args):
    raise RuntimeError("the rules are unfinished")


@pytest.mark.parametrize("method", ["why_not", "effect"])
def test_a_game_whose_own_code_raises_on_a_click_says_so_on_the_board_and_changes_nothing(method):
    """README: a game's own bug is shown on the board with the game's file and line. A click whose
    ``effect`` (or ``why_not``, once the board was drawn) raised anything but the few errors the table
    expected (a RuntimeError, a KeyError...) escaped the board's message handler: in the browser that
    traceback reaches no one, and the click seemed to do nothing."""
    game = _counting_game(f"counting_{method}")
    session = Session(game, seed=1)
    table = Table(session)
    setattr(type(game), method, _boom)
    before = (session.state, session.positions())
    table.board.receive({"type": "action", "action": {"kind": "add", "k": 1}, "version": table.board.version})
    assert table.board.error.startswith(f"counting_{method} could not play that: its code raised RuntimeError: "
                                        f"the rules are unfinished at test_newcomer4_findings.py:")
    assert (session.state, session.positions()) == before


# -- NaN: no bound holds it, no JSON writes it ----------------------------------------------------------------

class Speed(Params):
    speed: float = param(1.0, "squares a turn", min=0.0, max=3.0)


class Drift(State):
    x: float = field(0.5, min=0.0, max=1.0)


def test_nan_is_refused_as_a_parameter_and_as_a_field_value_naming_them():
    """``float('nan')`` compares false with every bound, so it passed ``min``/``max``: a parameter set to
    NaN (a sweep's ``np.nan``, a hand-made call) or a position holding one was taken, and its session
    file, which JSON cannot write NaN into, was then refused by the very loader that reads it."""
    with pytest.raises(ValueError, match=r"parameter speed=nan\.* is not allowed: it must be a number from 0.0 to 3.0"):
        Speed.create(speed=math.nan)
    with pytest.raises(ValueError, match=r"Drift.x must be a number, not nan"):
        Drift.from_json({"x": math.nan})
    with pytest.raises(ValueError, match=r"Drift.x must be a number, not inf"):
        Drift.from_json({"x": math.inf})
    assert Speed.create(speed=2.5).speed == 2.5 and Drift.from_json({"x": 0.25}).x == 0.25


def test_a_declared_nan_default_or_bound_is_refused_when_the_class_is_made():
    with pytest.raises(DeclarationError, match=r"P.speed: the default nan\.* contradicts its own declaration"):
        type("P", (Params,), {"__annotations__": {"speed": float},
                              "speed": param(math.nan, "squares a turn", min=0.0, max=3.0)})
    with pytest.raises(DeclarationError, match=r"P.speed: a bound of nan allows every value"):
        type("P", (Params,), {"__annotations__": {"speed": float},
                              "speed": param(1.0, "squares a turn", min=math.nan, max=3.0)})
    with pytest.raises(DeclarationError, match=r"state S.x: the default nan\.* contradicts its declaration"):
        type("S", (State,), {"__annotations__": {"x": float}, "x": field(math.nan, min=0.0, max=1.0)})
    with pytest.raises(DeclarationError, match=r"state S.x: a bound of nan allows every value"):
        type("S", (State,), {"__annotations__": {"x": float}, "x": field(0.5, min=0.0, max=math.nan)})


# -- seats told apart by name ----------------------------------------------------------------------------------

def test_seat_names_given_twice_are_refused_at_register():
    """Two seats called "North" were registered: the curtain's "I am North" buttons, the seat menus, the move
    log and a seat's notes could not tell them apart."""
    with pytest.raises(RegistrationError, match=r'seat_names \["North", "North"\] must be texts, a name of its own '
                                                r"for each seat.*\(kernel rule K3\)"):
        _counting_game("twins", seat_names=("North", "North"))
    with pytest.raises(RegistrationError, match=r"must be texts, a name of its own"):
        _counting_game("blank_seat", seat_names=("North", " "))
    assert _counting_game("two_seats", seat_names=("North", "South")).seat_count() == 2


# -- Session.open with other parameters than the file's --------------------------------------------------------

def test_session_open_with_other_parameters_than_the_files_says_which_it_plays(tmp_path):
    """A designer changes ``playtest.load("three_hand_whist", tricks=3)`` to ``tricks=5`` in the cell and
    runs it again: ``Session.open`` resumed the file, with its 3 tricks, without a word. It still resumes
    the file (nothing is lost), and now says so, naming the parameters."""
    path = tmp_path / "w.playtest.json"
    first = Session.open(path, playtest.load("three_hand_whist", tricks=3), seed=1)
    first.play(first.legal_actions()[0])
    with pytest.warns(SessionFileWarning, match=r"holds a session started with tricks=3; the game given has tricks=5: "
                                                r"Session.open resumes the file as it is"):
        again = Session.open(path, playtest.load("three_hand_whist", tricks=5), seed=1)
    assert again is first and again.game.params.tricks == 3 and again.move_number == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert Session.open(path, playtest.load("three_hand_whist", tricks=3), seed=1) is first
    assert Session.load(path).game.params.tricks == 3             # (after a restart: the file, as it was)
    first.set_params(trumps=True)               # a live change, as a later cell of the notebook makes it
    with warnings.catch_warnings():             # Run All again: the cell's game is the one the session started with
        warnings.simplefilter("error")
        assert Session.open(path, playtest.load("three_hand_whist", tricks=3), seed=1) is first
    assert first.game.params.trumps is True


# -- what an entry of a list must be, and a tuple given for a list ------------------------------------------------

def test_a_wrong_entry_of_a_bounded_list_says_what_the_entry_must_be():
    """A start whose ``cells[3]`` was a text, a float or a nested list said "small_draughts.cells[3] must be a
    list of whole numbers from -2 to 2": the entry's place with the whole field's words."""
    game = playtest.load("small_draughts")
    for wrong, shown in (("x", "'x'"), (1.5, "1.5"), ([[1]], r"\[\[1\]\]")):
        cells = [0] * 36
        cells[3] = wrong
        with pytest.raises(ValueError, match=rf"small_draughts.cells\[3\] must be a whole number from -2 to 2, not {shown}$"):
            game.state_from_json({"cells": cells})
    with pytest.raises(ValueError, match=r"three_hand_whist.hands\[0\]\[1\] must be a whole number from 0 to 31, not 'x'"):
        playtest.load("three_hand_whist").state_from_json({"hands": [[0, "x"], [], []]})
    with pytest.raises(ValueError, match=r"small_draughts.cells must be a list of whole numbers from -2 to 2, not 5"):
        game.state_from_json({"cells": 5})


def test_a_tuple_given_for_a_list_is_named_a_tuple_not_shown_as_the_list_it_must_be():
    """``Session(game, start={"cells": (0,) * 36})`` from Python said "cells must be a list ..., not [0, 0, ...]",
    which contradicts itself (the tuple was shown as the list JSON writes)."""
    with pytest.raises(ValueError, match=r"small_draughts.cells must be a list of whole numbers from -2 to 2, not a "
                                         r"tuple \[0, 0, .*\(the JSON form writes a list: list\(...\)\)"):
        Session(playtest.load("small_draughts"), start={"cells": (0,) * 36})


# -- a piece that cannot move says why ---------------------------------------------------------------------------

def test_with_select_a_piece_none_of_whose_moves_is_legal_says_why_it_cannot_move():
    """board_view(..., select=...) for moves from a place to another: a click on a piece that cannot move
    showed the refusal of some other piece's move onto its square ("that square is taken (rule D2)": Draughts'
    man on a5, when a capture elsewhere is forced), not why that piece cannot move."""
    session = Session(playtest.load("small_draughts"), seed=1)
    session.play("c5-d4")
    session.play("b2-c3")                       # Dark must take c3 with d4 (rule D4)
    scene = Table(session).board.scene
    assert list(scene["selects"]) == ["board:3,2"]
    assert scene["reasons"]["board:0,1"] == "a capture must be taken (rule D4)"       # the man on a5
    assert scene["reasons"]["board:2,3"] == "that square is taken (rule D2)"          # a target, as before


# -- a designer's game named like one of the kit's, before the kit's games are loaded ---------------------------

def test_a_game_named_like_a_kit_example_is_refused_at_register_even_before_the_kits_games_load():
    """The kit loads its games lazily. A notebook cell registering its own ``connect_four`` (or ``tic_tac_toe``,
    as the guide's first example is named) before anything asked for a game was registered; the first
    ``playtest.games()`` then raised a RegistrationError telling the kit's own ConnectFour to choose another
    name, and Hex, Kuhn poker, Goofspiel, Secret Bid and Tic-tac-toe stayed unknown for the kernel's life.
    Run in a fresh interpreter, where nothing has loaded the kit's games yet."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    code = """
import playtest
from playtest import Action, Game, GameType, Outcome, State, field, register
class S(State):
    n: int = field(0, min=0, max=9)
class A(Action):
    k: int
class Mine(Game):
    name, seat_names, state_type, action_types, game_type = "connect_four", ("a", "b"), S, (A,), GameType(max_length=9)
    def to_move(self, s): return None if s.n else 0
    def candidates(self, s, seat): return [A(1)]
    def effect(self, s, a): return s.replace(n=1)
    def outcome(self, s): return Outcome((0,), "done") if s.n else None
try:
    register(Mine)
except playtest.RegistrationError as err:
    print("refused:", err)
print(sorted(n for n in ("hex", "kuhn_poker", "tic_tac_toe", "goofspiel") if playtest.load(n)))
print(type(playtest.load("connect_four")).__module__, playtest.games()[:2], playtest.broken_games())
"""
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    assert lines[0] == ("refused: game Mine: the name 'connect_four' is already playtest.examples.connect_four."
                        "ConnectFour's; choose another (it is written in session files) (kernel rule K3)")
    assert lines[1] == "['goofspiel', 'hex', 'kuhn_poker', 'tic_tac_toe']"
    assert lines[2] == "playtest.examples.connect_four ['back_to_the_wall', 'corner_rush'] {}"


# ---------------------------------------------------------------------------------------------- left by the pass
def test_a_notation_template_reads_no_private_attribute_and_asks_no_huge_width():
    """Found by the pass, fixed after it: a template could read ``{to.__class__}`` and ask a width of a
    billion (``{to:>1000000000}``: a gigabyte a move-log line). Both are refused when the class is made;
    fields, their items and short widths still work."""
    with pytest.raises(DeclarationError, match=r"notation 'go \{to.__class__\}' reads 'to.__class__'"):
        class Peek(Action):
            notation = "go {to.__class__}"
            to: tuple[int, int]
    with pytest.raises(DeclarationError, match="width or precision over 80"):
        class Wide(Action):
            notation = "go {n:>1000000000}"
            n: int

    class Fine(Action):
        notation = "go {to[0]}-{n:>3}"
        to: tuple[int, int]
        n: int
    assert str(Fine((4, 5), 7)) == "go 4-  7"


def test_a_notation_that_matches_nothing_cites_no_rule():
    """A typed move that matches no legal action is no rule of the game: the refusal cites none (it
    said "(rule notation)")."""
    session = playtest.Session(playtest.load("tic_tac_toe"))
    with pytest.raises(playtest.IllegalAction) as refused:
        session.play("castle")
    assert refused.value.rule is None and "(rule" not in str(refused.value)


def test_a_parameter_named_like_a_measure_keeps_its_column_in_the_lab():
    """Found by the pass, fixed after it: a game's ``length`` parameter (or ``reason``, ``seed``...) was
    overwritten in ``simulate().games`` by the measure of that name: ``length=9`` read as the game's 5
    steps. The parameter's column is now ``"length (parameter)"``; the measure keeps its name."""
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class RaceParams(Params):
        length: int = param(3, "steps to the finish", min=1, max=9, rule="R1")

    class Track(State):
        at: tuple[int, ...] = field((0, 0), min=0, max=9, length=2)
        turn: int = field(0, min=0, max=99)

    class Go(Action):
        seat: int

    @register(listed=False)
    class MeasuredRace(Game):
        name, seat_names, Params = "measured_race_n4", ("A", "B"), RaceParams
        state_type, action_types, game_type = Track, (Go,), GameType(max_length=40)

        def to_move(self, s):
            return None if max(s.at) >= self.params.length else s.turn % 2

        def candidates(self, s, seat):
            return [Go(seat)]

        def effect(self, s, a):
            at = list(s.at)
            at[a.seat] += 1
            return s.replace(at=tuple(at), turn=s.turn + 1)

        def outcome(self, s):
            if max(s.at) < self.params.length:
                return None
            return Outcome((s.at.index(max(s.at)),), "reached the finish")

    result = playtest.simulate(MeasuredRace(length=9), games=3, seed=1, progress=False)
    rows = result.games
    assert list(rows["length (parameter)"]) == [9, 9, 9]
    assert list(rows["length"]) == [17, 17, 17]          # A reaches 9 on the 17th step
    assert "length (parameter)" not in playtest.simulate(MeasuredRace(), games=1, progress=False).games


def test_a_run_of_more_games_than_the_lab_can_keep_rows_for_is_refused_by_name():
    """Found by the pass, fixed after it: ``simulate(games=10**12)`` raised MemoryError."""
    with pytest.raises(ValueError, match=r"games must be at most 10,000,000 in one run"):
        playtest.simulate("tic_tac_toe", games=10 ** 12, progress=False)
    with pytest.raises(ValueError, match=r"games must be at most"):
        playtest.sweep("connect_four", {"connect": [3, 4]}, games=10 ** 8, progress=False)
