"""playtest: playtest board games in Jupyter.

>>> import playtest
>>> game = playtest.load("eat_thyself")
>>> session = playtest.Session(game, seed=1)
>>> session.play(session.legal_actions()[0])
>>> session.undo()
>>> session.redo()
"""

from . import games  # registers every game; the package is callable: playtest.games() lists them
from .rules import (CHANCE, DRAW, SIMULTANEOUS, Action, EndTurn, Game, IllegalAction, MalformedAction,
                    Outcome, Params, ParamSpec, Seat, load, register)
from .session import Session, SessionFileError, SessionSaveError
from .testers import tester_link
from .rulebook import rule_text, rules_page
from . import bots

__all__ = ["CHANCE", "DRAW", "SIMULTANEOUS", "Action", "EndTurn", "Game", "register", "IllegalAction",
           "MalformedAction", "Outcome", "Params", "ParamSpec", "Seat", "games", "load", "Session",
           "SessionFileError", "SessionSaveError", "Table", "TesterView", "bots", "simulate", "sweep", "compare", "probe",
           "tester_link", "rules_page", "rule_text", "playtests"]
__version__ = "0.1.0"


def __getattr__(name: str):
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
    if name in ("simulate", "sweep", "compare", "probe"):
        from . import lab
        return getattr(lab, name)
    raise AttributeError(f"module 'playtest' has no attribute {name!r}")
