"""The properties of a position written down and played back: **json** (a position reads back
from its own JSON form), **undo/redo** and **save/load** (over whole games, through a session)."""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path
from typing import Any

from ..kernel import Game
from ..kernel.game import _overrides
from ..kernel.values import shown
from .messages import _NOBODY
from .report import CheckFailure, CheckReport, _count, _Stop


def _json(game: Game[Any, Any, Any], state: Any, report: CheckReport, rng: random.Random, seen: list[Any]) -> None:
    if not (_overrides(type(game), "state_from_json") or game.state_type is not None) or not hasattr(state, "to_json"):
        return
    _count(report, "json")
    data = json.loads(json.dumps(state.to_json()))
    try:
        back = game.state_from_json(data)
    except ValueError as exc:
        raise _Stop(CheckFailure("json", f"the position the rules reached breaks its declaration: {exc} "
                                         "(effect() stored a value its field does not allow)")) from None
    if back != state:
        raise _Stop(CheckFailure("json", "the position does not read back from its own JSON form: "
                                         + _read_back_difference(state, back)))


_json.property = "json"  # type: ignore[attr-defined]


def _read_back_difference(state: Any, back: Any) -> str:
    """The first field a position and its JSON form read back differ in, with the values' types
    (a list stored where the field is a tuple reads back as a tuple)."""
    fields, other = getattr(state, "__dict__", None), getattr(back, "__dict__", None)
    if isinstance(fields, dict) and isinstance(other, dict):
        for key, value in fields.items():
            again = other.get(key, _NOBODY)
            if again != value or type(again) is not type(value):
                return (f"{key} is {shown(value)} (a {type(value).__name__}) and reads back as {shown(again)} "
                        f"(a {type(again).__name__}): effect() must store each field as declared (tuples, not "
                        "lists), and a field's write= and read= must undo each other")
    return f"{shown(state)} reads back as {shown(back)}"


def _declaration_problem(game: Game[Any, Any, Any], state: Any) -> str | None:
    """How ``state`` breaks its declared fields, when it is a declared state that does (for a message)."""
    if game.state_type is None or not hasattr(state, "to_json"):
        return None
    try:
        game.state_from_json(json.loads(json.dumps(state.to_json())))
    except Exception as exc:
        return str(exc)[:200]
    return None


def _undo_redo(game: Game[Any, Any, Any], actions: list[Any], report: CheckReport) -> None:
    from ..session import Session
    session = Session(game, seed=0, auto_chance=False)
    states = [session.state]
    for action in actions:
        session.play(action)
        states.append(session.state)
    for back in range(len(actions), 0, -1):
        session.undo()
        _count(report, "undo/redo")
        if session.state != states[back - 1]:
            raise _Stop(CheckFailure("undo/redo", f"undo from move {back} does not give back the position before it"))
    for forward in range(1, len(actions) + 1):
        session.redo()
        if session.state != states[forward]:
            raise _Stop(CheckFailure("undo/redo", f"redo to move {forward} does not give back its position"))


_undo_redo.property = "undo/redo"  # type: ignore[attr-defined]


def _save_load(game: Game[Any, Any, Any], actions: list[Any], report: CheckReport) -> None:
    from ..kernel.registry import _REGISTRY
    from ..session import Session
    if game.name not in _REGISTRY and not game.name.startswith("openspiel:"):
        raise _Stop(CheckFailure("save/load", f"{type(game).__name__} is not registered, so a session file naming "
                                              f"{game.name!r} cannot be loaded: decorate the class with @register "
                                              f"(@register(listed=False) keeps it out of playtest.games())"))
    session = Session(game, seed=0, auto_chance=False)
    for action in actions:
        session.play(action)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "check.playtest.json"
        session.save(path)
        loaded = Session.load(path)
    _count(report, "save/load")
    if loaded.line() != session.line() or any(loaded.position(n) != session.position(n) for n in session.line()):
        raise _Stop(CheckFailure("save/load", "a saved session does not load back to the same positions"))


_save_load.property = "save/load"  # type: ignore[attr-defined]
