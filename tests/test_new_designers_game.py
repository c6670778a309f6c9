"""A game nobody here wrote, from the guide alone: Kalah (tests/newgames/kalah.py), with a
``Params`` class written without ``@dataclass``. It must check, play, refuse with its own rules,
take its parameters and run in the lab like the kit's own games."""

from __future__ import annotations

import dataclasses

import pytest

import playtest
from playtest import DeclarationError, Params, param
from tests.newgames import kalah


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
