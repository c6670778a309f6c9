"""What a third newcomer tripped on while writing Heaps, Land Grab and Mole Hunt (tests/newgames/) from
docs/adding_a_game.md alone: each test failed before its fix in the kit and passes after. Ranked in the
report by how badly each would hurt a newcomer; the games themselves are played in
tests/test_newcomer3_games.py."""

from __future__ import annotations

import json

import pytest

import playtest
from playtest import DeclarationError, Params, Session, SessionFileError, Table, param
from newgames import heaps, land_grab, mole_hunt  # noqa: F401  (registers them)


# ---------------------------------------------------------------- a live change that breaks the position

def test_a_live_change_that_leaves_a_position_the_game_refuses_is_refused_naming_the_field(tmp_path):
    """Heaps' ``most`` (stones a turn may take) is live. Lowered to 1 after the mover had taken 2 this
    turn, the kit accepted it and play went on from a position Heaps' own check_state refuses
    ("taken 2 is more than a turn may take (1)"): the turn could no longer end by itself (3 taken, never
    equal to 1 again). The change is now refused, naming the field and adapt_state; nothing changes."""
    path = tmp_path / "heaps.playtest.json"
    session = Session.open(path, playtest.load("heaps"), seed=1)
    session.play("take 2")
    session.play("take 2")
    before = (session.state, session.positions(), session.game.params, path.read_text(encoding="utf-8"))
    with pytest.raises(ValueError, match=r"set most=1 is refused at this position: .*heaps.taken 2 is more than a "
                                         r"turn may take \(1\).*adapt_state\(state, old_game\)"):
        session.set_params(most=1)
    assert (session.state, session.positions(), session.game.params, path.read_text(encoding="utf-8")) == before
    session.play("end turn")
    session.set_params(most=1)                                        # at a turn's start it fits: applied
    assert session.game.params.most == 1
    session.play("take 0")
    assert session.state.mover == 0 and session.state.taken == 0       # the one stone ended the turn


def test_the_table_says_why_a_live_change_is_refused_and_old_files_with_one_still_load(tmp_path):
    session = Session(playtest.load("heaps"), seed=1)
    session.play("take 1")
    session.play("take 1")
    table = Table(session)
    positions = session.positions()
    table.param_widgets["most"].value = 1                   # the live slider of the parameter panel
    assert "set most=1 is refused at this position" in table.param_errors["most"].value
    assert session.game.params.most == 3 and session.positions() == positions
    # a file written before the check (such a change recorded) replays as it was played
    lines = [json.dumps({"format": "playtest-session", "version": 2, "game": "heaps",
                         "params": {"heaps": 3, "size": 3, "most": 3, "misere": False}, "seed": 1, "start": None}),
             json.dumps({"node": {"parent": 0, "move": {"kind": "take", "heap": 2}}}),
             json.dumps({"node": {"parent": 1, "move": {"kind": "take", "heap": 2}}}),
             json.dumps({"node": {"parent": 2, "params": {"most": 1}}}),
             json.dumps({"current": 3})]
    old = tmp_path / "old.playtest.json"
    old.write_text("\n".join(lines) + "\n", encoding="utf-8")
    back = Session.load(old)
    assert back.game.params.most == 1 and back.state.taken == 2


# ---------------------------------------------------------------- parameters declared at odds with themselves

def test_a_parameter_whose_default_contradicts_its_type_is_refused_naming_it():
    """``speed: float = param(1, ..., min=0, max=3)`` made a whole-number parameter: 2.5 was refused as
    "must be a whole number" although the annotation says float; ``n: int = param(5.5, ...)`` made a
    float one. A min that is no number, or bounds on a text default, raised a bare TypeError
    ("'>' not supported between instances of 'str' and 'int'") naming nothing."""
    with pytest.raises(DeclarationError, match=r"SpeedParams.speed is declared float but its default 1 is int "
                                               r"\(write 1.0\)"):
        class SpeedParams(Params):
            speed: float = param(1, "how fast", min=0, max=3)
    with pytest.raises(DeclarationError, match=r"CountParams.n is declared int but its default 5.5 is float"):
        class CountParams(Params):
            n: int = param(5.5, "how many", min=1, max=9)
    with pytest.raises(DeclarationError, match=r'BoundParams.n: min must be a number, not "1"'):
        class BoundParams(Params):
            n: int = param(5, "how many", min="1", max=9)
    with pytest.raises(DeclarationError, match=r'WordParams.word: min and max bound a number, but the default "a"'):
        class WordParams(Params):
            word: str = param("a", "a word", min=1, max=9)

    class Fine(Params):
        speed: float = param(1.0, "how fast", min=0, max=3)
        n: int = param(5, "how many", min=1, max=9)
    assert Fine.create(speed=2.5).speed == 2.5


def test_a_yes_no_parameter_takes_true_and_false_only_not_1_or_0(tmp_path):
    """Heaps' ``misere`` is ``param(False, ..., choices=(False, True))``: ``misere=1`` was accepted (1 ==
    True in Python) and written to the file as 1, where a whole-number parameter refuses ``true``."""
    with pytest.raises(ValueError, match="heaps parameter misere=1 is not allowed: it must be one of false, true"):
        playtest.load("heaps", misere=1)
    assert playtest.load("heaps", misere=True).params.misere is True

    class Sizes(Params):
        size: int = param(3, "board size", choices=(3, 5, 7))
    with pytest.raises(ValueError, match=r"size=5.0 is not allowed: it must be one of 3, 5, 7"):
        Sizes.create(size=5.0)
    session = Session(playtest.load("heaps"), seed=1)
    session.save(tmp_path / "h.playtest.json")
    bad = tmp_path / "bad.playtest.json"
    bad.write_text((tmp_path / "h.playtest.json").read_text(encoding="utf-8").replace('"misere":false', '"misere":0'),
                   encoding="utf-8")
    with pytest.raises(SessionFileError, match="misere=0 is not allowed"):
        Session.load(bad)


# ---------------------------------------------------------------- a field left out of a position

def test_a_field_left_out_of_a_position_whose_default_does_not_fit_the_game_is_refused_naming_it(tmp_path):
    """The guide: "a session file's start or a hand-written position of another size is refused, naming
    the field". Land Grab's cells are ``length=lambda game: cols * rows``; a start that left them out
    took the declared default, 12 cells, on a 2 x 2 board, without a word (the table then drew cells
    off the board)."""
    game = playtest.load("land_grab", cols=2, rows=2)
    with pytest.raises(ValueError, match=r"land_grab.cells is left out, and its default does not fit this game: "
                                         r"land_grab.cells holds 4 entries, not 12; write it"):
        Session(game, start={"rounds": 1})
    assert game.state_from_json({"cells": [-1] * 4}).cells == (-1,) * 4      # given, it reads; the rest default
    session = Session(game, start={"cells": [0, -1, -1, 1]})
    session.save(tmp_path / "g.playtest.json")
    bad = tmp_path / "bad.playtest.json"
    bad.write_text((tmp_path / "g.playtest.json").read_text(encoding="utf-8").replace(
        '"start":{"cells":[0,-1,-1,1],', '"start":{'), encoding="utf-8")      # (no key written twice)
    with pytest.raises(SessionFileError, match="land_grab.cells is left out"):
        Session.load(bad)


# ---------------------------------------------------------------- what the board tells a seat to do

def test_the_hint_says_buttons_when_a_draft_board_has_only_buttons():
    """A game without a view plays on the text board, its actions as buttons; the hint said "Ann: click a
    lit place." where there is no place to click."""
    session = Session(playtest.load("mole_hunt"), seed=2)
    table = Table(session)
    table.board.receive({"type": "command", "name": "reveal", "seat": 0})
    scene = table.board.scene
    assert scene["moves"] == {} and [b["label"] for b in scene["buttons"]][:2] == ["pick 0", "pick 1"]
    assert scene["hint"] == "Ann: click a button."
    heap = Table(Session(playtest.load("heaps"), seed=1))
    assert heap.board.scene["hint"] == "First: click a lit place."          # end turn is not legal yet
    heap.session.play("take 0")
    assert heap.board.scene["hint"] == "First: click a lit place or a button."


def test_a_seat_with_no_order_to_give_is_not_told_your_order():
    """In a simultaneous step the board told every seat "<seat>: your order.", a seat that had given its
    order (and could not change it) and a seat with no part in the step (not on Mole Hunt's mission)
    included; its seat export said so too."""
    session = Session(playtest.load("land_grab"), seed=1)
    east = Table(session, seat=1)
    assert east.board.scene["hint"] == "East: your order."
    session.play({"kind": "claim", "seat": 1, "cell": 3}, seat=1)
    assert east.board.scene["hint"] == "East: nothing to order now; wait for the others."
    hunt = Session(playtest.load("mole_hunt"), seed=4)
    hunt.play("pick 1")
    hunt.play("pick 2")
    assert hunt.game.pending_seats(hunt.state) == (1, 2)
    assert Table(hunt, seat=0).board.scene["hint"] == "Ann: nothing to order now; wait for the others."
    assert Table(hunt, seat=1).board.scene["hint"] == "Ben: your order."


# ---------------------------------------------------------------- the tester link's advice

def test_a_tester_link_for_an_unlisted_game_points_at_write_tester_notebook_as_the_guide_does():
    """The guide (section 13) says to write a tester's page with playtest.write_tester_notebook; the
    refusal of a link for a listed=False game said to "save a copy of notebooks/testers/source.ipynb"."""
    with pytest.raises(ValueError, match=r"notebooks/testers/mole_hunt.ipynb does not exist.*"
                                         r"playtest.write_tester_notebook\('mole_hunt'") as refused:
        playtest.tester_link(game="mole_hunt", via="local")
    assert "save a copy" not in str(refused.value)
    with pytest.raises(ValueError, match=r"'mole_hunt' is registered with listed=False.*"
                                         r"write it with playtest.write_tester_notebook\(YourGame\)"):
        playtest.tester_link(game="mole_hunt", view="lab", via="local")


def test_a_game_kept_unlisted_gets_its_tester_link_once_its_page_is_written(tmp_path, monkeypatch):
    """write_tester_notebook writes the page of a game registered with listed=False (kept out of the
    kit's own test runs), so tester_link gives that page's address rather than refusing the game."""
    import playtest.testers as testers
    monkeypatch.setattr(testers, "TESTER_NOTEBOOKS", tmp_path)
    with pytest.raises(ValueError, match="does not exist"):
        playtest.tester_link(game="mole_hunt", via="local")
    page = playtest.write_tester_notebook("mole_hunt", setup="from newgames import mole_hunt")
    assert page == tmp_path / "mole_hunt.ipynb"
    assert playtest.tester_link(game="mole_hunt", via="local") == \
        "http://localhost:8888/voila/render/testers/mole_hunt.ipynb"
    assert playtest.tester_link("me/my-fork", game="mole_hunt").endswith(
        "voila%2Frender%2Fnotebooks%2Ftesters%2Fmole_hunt.ipynb")
    with pytest.raises(ValueError, match="serverless site carries the listed games only"):
        playtest.tester_link(game="mole_hunt", via="lite", base_url="https://me.github.io/kit/")


# ---------------------------------------------------------------- a rules page for a game of one's own

def test_a_game_of_ones_own_keeps_its_rules_page_beside_its_module():
    """The guide (section 13) asks for a rules page at playtest/rules_pages/<game>.md: inside the kit,
    where a game in a package or a folder of one's own cannot put it ("A game may live anywhere"), so
    its refusals' rules were never shown and its tester's "How to play" said it had none. A page in
    ``rules_pages/<game>.md`` beside the module that defines the game is its page now."""
    assert playtest.rule_text("heaps", "N3").splitlines()[0] == "N3 How many"
    session = Session(playtest.load("heaps"), seed=1)
    session.play("take 1")
    scene = Table(session).board.scene
    assert scene["reasons"]["board:0,2"] == "this turn takes from another heap (rule N2)"
    assert scene["rules"]["N2"].startswith("N2 A turn takes from one heap")
    with pytest.raises(KeyError, match=r"rules_pages/tic_tac_toe_x.md beside the module"):
        playtest.rules_page("tic_tac_toe_x")


def test_a_testers_how_to_play_shows_every_rule_of_a_page_numbered_flatly():
    """A tester's "How to play" took the page's section numbered like "A.1" (the shipped games' pages)
    and otherwise only the page's last section: Hex, Kuhn poker, Secret Bid... (rules X1 to X4) showed
    their last rule alone."""
    from playtest.widgets.tester_view import how_to_play
    shown = how_to_play(playtest.load("hex"))
    assert all(f"X{k} " in shown for k in (1, 2, 3, 4))
    hunt = how_to_play(playtest.load("mole_hunt"))
    assert all(f"M{k} " in hunt for k in (1, 2, 3, 4)) and "Mole Hunt: the rules" not in hunt
    assert "### C.1 §1 The board" in how_to_play(playtest.load("source"))      # a page with sections, as before


# ---------------------------------------------------------------- EndTurn listed but not declared

def test_a_kind_the_rules_list_but_action_types_leaves_out_is_named_with_the_fix():
    """The guide said a turn of several choices ends with ``playtest.EndTurn``, not that it is declared in
    ``action_types`` like the game's own kinds. Left out, the table offered "end turn" and refused it,
    and check_game said only "EndTurn() is not a Heaps action"."""
    from newgames.heaps import Heaps, Take

    @playtest.register(listed=False)
    class Undeclared(Heaps):
        name = "heaps_without_end_turn"
        action_types = (Take,)

    report = playtest.check_game(Undeclared(), examples=2)
    assert not report.ok
    assert ("EndTurn() is not a Heaps action (its action_types: Take; a kind its rules list must be declared "
            "there too: add EndTurn)") in str(report)
    session = Session(Undeclared(), seed=1)
    session.play("take 0")
    with pytest.raises(playtest.MalformedAction, match=r"EndTurn is not an action of heaps_without_end_turn "
                                                         r"\(its action_types: Take\)"):
        session.play(playtest.EndTurn())


def test_a_length_declared_on_a_field_that_holds_no_tuple_is_refused_naming_it():
    """``x: int = field(0, length="seats")`` was accepted and the length never checked."""
    from playtest import State, field
    with pytest.raises(DeclarationError, match=r"state Count.x: length= counts a tuple's entries, and this field "
                                               r"holds int \(its default 0\)"):
        class Count(State):
            x: int = field(0, length="seats")

    class Fine(State):
        xs: tuple[int, ...] | None = field(default=None, length="seats")
    assert Fine().xs is None


def test_a_game_whose_default_parameters_its_own_check_refuses_is_refused_at_register():
    """Mole Hunt's ``Params.check`` refuses a team as large as the table. Defaults that broke it (3 seats,
    a team of 3) registered without a word; then ``playtest.load(name)``, ``check_game(name)`` and the
    table's parameter panel all failed on the defaults."""
    from newgames.mole_hunt import MoleHunt, MoleParams

    class Crowded(MoleParams):
        num_players: int = param(3, "seats", live=False, min=3, max=5, rule="M1")
        team: int = param(3, "seats on each mission", live=False, min=1, max=3, rule="M2")

    with pytest.raises(playtest.RegistrationError, match=r"game CrowdedHunt: its default parameters are refused by "
                                                         r"its own Params.check \(a team of 3 leaves nobody out of 3 "
                                                         r"seats \(rule M2\)\), so playtest.load\('crowded_hunt'\)"):
        @playtest.register(listed=False)
        class CrowdedHunt(MoleHunt):
            name = "crowded_hunt"
            Params = Crowded
    assert "crowded_hunt" not in playtest.rules._REGISTRY


def test_a_notation_typed_in_a_simultaneous_step_is_answered_with_orders_one_can_type():
    """From Python, without a seat, a notation that matched nothing in a simultaneous step listed the
    legal actions in the table's words, which hide every order: "the legal actions are 'Ann gives an
    order', 'Ann gives an order', 'Ben gives an order'"."""
    session = Session(playtest.load("land_grab", cols=2, rows=2, num_players=2), seed=1)
    with pytest.raises(playtest.IllegalAction, match=r"the legal actions are 'claim 0 0 \(North\)', 'claim 0 1 "
                                                     r"\(North\)', .*'claim 1 0 \(South\)'"):
        session.play("claim 0 9")
    with pytest.raises(playtest.IllegalAction, match=r"the legal actions are 'claim 1 0', 'claim 1 1'"):
        session.play("claim 1 9", seat=1)                  # a seat's own words, as before
    session.play("claim 0 3")
    assert session.state.chose == (True, False)


def test_a_seats_table_at_a_chance_step_is_not_told_to_force_an_outcome():
    """A table bound to a seat (a tester's) may roll but not force ("Only the designer's table forces
    chance outcomes"); its hint said "Roll, or force an outcome."."""
    session = Session(playtest.load("mole_hunt"), seed=4, auto_chance=False)
    assert Table(session).board.scene["hint"] == "Roll, or force an outcome."
    seat = Table(session, seat=1)
    assert seat.board.scene["hint"] == "Roll: chance decides (a seat's table forces no outcome)."
    assert [b["label"] for b in seat.board.scene["buttons"]] == ["🎲 Roll"]


# ---------------------------------------------------------------- a determinize that hands bots the truth

def test_check_game_fails_a_determinize_that_gives_back_the_true_position():
    """check_game's secrecy properties compared a position with a world ``determinize`` drew from it, so
    ``def determinize(self, s, seat, rng): return s`` (every bot reads the mole's name, Land Grab's other
    claims) passed "secrecy: determinize", "board", "choices" and "bots" alike. Two positions met in
    the random games that a seat cannot tell apart are now held to the same worlds too."""
    from newgames.land_grab import LandGrab
    from newgames.mole_hunt import MoleHunt

    @playtest.register(listed=False)
    class TellingHunt(MoleHunt):
        name = "telling_hunt"

        def determinize(self, s, seat, rng):
            return s

    @playtest.register(listed=False)
    class TellingGrab(LandGrab):
        name = "telling_grab"

        def determinize(self, s, seat, rng):         # East's bot alone reads the others' claims
            return s if seat == 1 else LandGrab.determinize(self, s, seat, rng)

    for game, seat in ((TellingHunt(), None), (TellingGrab(), 1)):
        report = playtest.check_game(game, examples=8)
        failure, = report.failures
        assert failure.property == "secrecy: determinize" and (seat is None or failure.seat == seat)
        assert "cannot tell apart" in failure.message and "gives back the state it was handed" in failure.message
    assert playtest.check_game("mole_hunt", examples=8).ok and playtest.check_game("land_grab", examples=8).ok


def test_an_outcome_naming_one_seat_alone_is_that_seats_win_not_a_draw():
    """``Outcome(1, "took the last stone")`` (a seat, not a tuple of seats) was read as a draw by the
    session and its report ("Draw: took the last stone."); only check_game said the winners were not a
    tuple. A seat alone is its win now, and what is no seat at all is refused where it is made."""
    from playtest import Outcome
    from newgames.heaps import Heaps
    assert Outcome(1, "x").winners == (1,) and Outcome([0, 2], "x").winners == (0, 2)
    with pytest.raises(TypeError, match=r"Outcome's winners are a tuple of seats .*not None"):
        Outcome(None, "nobody")

    @playtest.register(listed=False)
    class OneSeat(Heaps):
        name = "heaps_one_seat_outcome"

        def outcome(self, s):
            said = Heaps.outcome(self, s)
            return None if said is None else Outcome(said.winners[0], said.reason)

    session = Session(OneSeat(heaps=1, size=1))
    session.play("take 0")
    assert session.winner == 0 and "Won by First" in session.report()
    assert playtest.check_game(OneSeat(), examples=3).ok


def test_session_open_warns_when_the_games_rules_changed_since_it_was_opened_in_this_kernel(tmp_path):
    """Run All in the same kernel returns the session already open (its table keeps working). A designer
    who changed a rule in the cell and ran it again got that session back silently, playing the old
    rules (a move the new rule refuses still played at the table). It still returns it, and says so."""
    import warnings

    from playtest import Refusal
    from playtest.session.files import SessionFileWarning
    from newgames.heaps import Heaps, Take

    def define(closed):            # the notebook cell: the same class, written again
        class MyHeaps(Heaps):
            name = "my_heaps_cell"
            CLOSED = closed

            def why_not(self, s, a, seat):
                said = Heaps.why_not(self, s, a, seat)
                if said is None and isinstance(a, Take) and a.heap == self.CLOSED:
                    return Refusal("that heap is closed now", "N9")
                return said
        MyHeaps.__qualname__ = "MyHeaps"
        return playtest.register(MyHeaps, listed=False)

    path = tmp_path / "mine.playtest.json"
    first = Session.open(path, define(-1)(), seed=1)
    first.play("take 2")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert Session.open(path, define(-1)(), seed=1) is first          # the same cell again: no word
    with pytest.warns(SessionFileWarning, match=r"rules differ .* restart the kernel"):
        again = Session.open(path, define(2)(), seed=1)                    # a rule changed
    assert again is first and again.move_number == 1
