"""playtest: playtest board games in Jupyter.

Everything an author of a game needs comes from here (``from playtest import ...``):

* declaring a game: ``Game``, ``GameType``, ``State``, ``field``, ``Action``, ``EndTurn``,
  ``Params``, ``param``, ``Refusal``, ``refuse``, ``Outcome``, ``Seat``, ``per_seat``,
  ``UncountedChance``, ``CHANCE``, ``SIMULTANEOUS``, ``DRAW``, ``register``;
* drawing it: ``Grid``, ``Points``, ``Ring``, ``Hex``, ``Track``, ``Hand``, ``Deck``, ``Dice``,
  ``board_view``, and ``Scene`` for a view built by hand;
* checking it: ``check_game`` (``CheckReport``, ``GameCheckFailed``), ``broken_games``;
* playing it: ``load``, ``games``, ``Session``, ``Table``, ``TesterView``, ``bots``;
* testers' sessions: ``tester_link``, ``replay`` (a recorded session, read-only, step by step),
  ``replay_link`` and ``replay_page`` (the same from a link: "look at move 23"),
  ``RefereeView`` (every seat's secrets, for the designer);
* the lab: ``simulate``, ``sweep``, ``compare``, ``probe``;
* errors: ``IllegalAction``, ``MalformedAction``, ``DeclarationError``, ``RegistrationError``,
  ``SessionFileError``, ``SessionSaveError``.

>>> import playtest
>>> game = playtest.load("eat_thyself")
>>> session = playtest.Session(game, seed=1)
>>> session.play(session.legal_actions()[0])
>>> session.undo()
>>> session.redo()
"""

from typing import Any as _Any

from . import games  # registers every game; the package is callable: playtest.games() lists them
from .kernel import (CHANCE, DRAW, SIMULTANEOUS, Action, DeclarationError, EndTurn, Game, GameType,
                     IllegalAction, MalformedAction, Outcome, Params, ParamSpec, Refusal, RegistrationError, Seat,
                     State, UncountedChance, broken_games, field, load, param, per_seat, refuse, register)
from .session import Session, SessionFileError, SessionSaveError
from .check import CheckReport, GameCheckFailed, check_game
from .boards import Deck, Dice, Grid, Hand, Hex, Points, Ring, Track, board_view
from .scene import Scene
from .testers import replay_link, tester_link, write_tester_notebook
from .rulebook import rule_text, rules_page
from . import bots

__all__ = ["CHANCE", "DRAW", "SIMULTANEOUS", "Action", "EndTurn", "Game", "GameType", "State", "field", "param",
           "Refusal", "refuse", "per_seat", "UncountedChance", "DeclarationError", "RegistrationError",
           "broken_games", "check_game", "CheckReport", "GameCheckFailed", "register", "IllegalAction",
           "MalformedAction", "Outcome", "Params", "ParamSpec", "Seat", "games", "load", "Session",
           "SessionFileError", "SessionSaveError", "Table", "TesterView", "bots", "simulate", "sweep", "compare", "probe",
           "tester_link", "write_tester_notebook", "replay_link", "replay", "replay_page", "RefereeView", "rules_page", "rule_text", "playtests", "Grid", "Points", "Ring",
           "Hex", "Track", "Hand", "Deck", "Dice", "board_view", "Scene"]
__version__ = "0.1.0"


def __getattr__(name: str) -> _Any:
    # widgets and the lab are imported on first use, so pure-rules use stays light
    if name == "Table":
        from .widgets.table import Table
        return Table
    if name == "TesterView":
        from .widgets.tester import TesterView
        return TesterView
    if name == "playtests":             # pandas and matplotlib load only when playtests are read
        from .analytics import playtests
        return playtests
    if name in ("replay", "replay_page", "RefereeView"):
        from .widgets import replay
        return getattr(replay, name)
    if name in ("simulate", "sweep", "compare", "probe"):
        from . import lab
        return getattr(lab, name)
    raise AttributeError(f"module 'playtest' has no attribute {name!r}")
