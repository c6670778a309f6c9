"""A game nobody here wrote, from the guide alone: Kalah (tests/newgames/kalah.py), with a
``Params`` class written without ``@dataclass``. It must check, play, refuse with its own rules,
take its parameters and run in the lab like the kit's own games."""

from __future__ import annotations

import dataclasses

import pytest

import playtest
from playtest import DeclarationError, Params, param
from newgames import kalah  # tests/newgames (tests/ is on the path, as for old_style_game)


def test_an_undecorated_params_class_declares_its_parameters():
    assert dataclasses.is_dataclass(kalah.KalahParams)
    game = playtest.load("kalah_newuser", pits=4, seeds=3)
    assert (game.params.pits, game.params.seeds) == (4, 3)
    assert game.initial_state().pits == (3,) * 8
    with pytest.raises(ValueError, match="kalah_newuser parameter pits=40 is not allowed"):
        playtest.load("kalah_newuser", pits=40)
    with pytest.raises(dataclasses.FrozenInstanceError):
        game.params.pits = 5                                    # type: ignore[misc]


def test_a_broken_undecorated_params_class_is_refused_at_class_creation():
    with pytest.raises(DeclarationError, match=r"Bad.seeds: the default 0 contradicts"):
        class Bad(Params):
            seeds: int = param(0, "seeds per pit", min=1, max=9)


def test_the_new_game_passes_check_game_and_plays():
    playtest.check_game("kalah_newuser", examples=6).assert_ok()
    session = playtest.Session(playtest.load("kalah_newuser"), seed=2)
    session.play(kalah.Sow(2))                      # four seeds from pit 2: the last lands in the store
    assert session.state.stores == (1, 0) and session.to_move == 0      # so South sows again
    with pytest.raises(playtest.IllegalAction, match=r"that pit is empty \(rule K2\)"):
        session.play(kalah.Sow(2))
    with pytest.raises(playtest.IllegalAction, match=r"sow from your own side \(rule K1\)|North"):
        session.play(kalah.Sow(7))


def test_the_new_game_runs_in_the_lab():
    from playtest.lab import simulate
    result = simulate("kalah_newuser", games=12, seed=1, progress=False, pits=4)
    assert len(result.games) == 12 and result.summary() is not None


def test_a_game_without_a_board_yet_plays_on_a_text_board():
    """A designer's first draft writes no view(): the table shows the position as text (each seat
    reads only what it may know) and the legal actions as buttons, and check_game holds it to the
    same properties as a drawn board."""
    from playtest import Action, Game, GameType, Outcome, State, field, register

    class Hands(State):
        step: int = 0
        hands: tuple[int, ...] = field((3, 5), visible="owner", min=0, max=9)

    class Tap(Action):
        pass

    @register(listed=False)
    class Draft(Game):
        name, seat_names, state_type, action_types = "draft_without_board", ("A", "B"), Hands, (Tap,)
        game_type = GameType(information="imperfect", max_length=4)

        def to_move(self, s): return None if s.step >= 4 else s.step % 2
        def candidates(self, s, seat): return [Tap()]
        def effect(self, s, a): return s.replace(step=s.step + 1)
        def outcome(self, s): return Outcome((), "four taps") if s.step >= 4 else None

    game = playtest.load("draft_without_board")
    start = game.initial_state()
    assert game.view(start, 0)["panels"] == [{"title": "Position", "rows": [["step", "0"], ["hands", "[3, null]"]]}]
    assert game.view(start, None)["panels"][0]["rows"][1] == ["hands", "[null, null]"]
    assert [b["action"] for b in game.view(start, 0)["buttons"]] == [{"kind": "tap"}]
    playtest.check_game(game, examples=3).assert_ok()
    session = playtest.Session(game, seed=1)
    table = playtest.Table(session)
    assert table.board.curtain          # secrets: the seat to act lifts the curtain first, as the page does
    table.board._handle_custom_msg({"type": "command", "name": "reveal", "seat": 0}, [])
    assert table.board.scene["panels"][0]["rows"][1] == ["hands", "[3, null]"]     # A's own hand, not B's
    table.board._handle_custom_msg({"type": "action", "action": {"kind": "tap"}}, [])   # the button, as the page sends it
    assert session.state.step == 1 and table.board.error == ""


def test_check_game_names_an_effect_that_returns_something_else_than_the_state():
    from playtest import Action, Game, GameType, Outcome, State, register

    class Count(State):
        n: int = 0

    class Up(Action):
        pass

    @register(listed=False)
    class Slip(Game):
        name, seat_names, state_type, action_types = "slip_returns_dict", ("A", "B"), Count, (Up,)
        game_type = GameType(max_length=3)

        def to_move(self, s): return None if self.outcome(s) else 0
        def candidates(self, s, seat): return [Up()]
        def effect(self, s, a): return {"n": s.n + 1}          # the slip: a dict, not the state
        def outcome(self, s): return Outcome((), "three") if getattr(s, "n", 0) >= 3 else None

    report = playtest.check_game("slip_returns_dict", examples=2)
    assert not report.ok
    assert "led to a dict, not a Count (the declared state_type)" in str(report)
