"""The properties of what a position lists and accepts: **listed actions are accepted**,
**illegal actions are refused** (actions legal elsewhere, and listed ones set off their range),
and **seats' lists** (a seat is offered only its own actions)."""

from __future__ import annotations

import json
import random
from typing import Any

from ..kernel import CHANCE, SIMULTANEOUS, Game, IllegalAction
from .messages import _one_line
from .positions import _legal, _sample
from .report import CheckFailure, CheckReport, _count, _Stop


def _listed_accepted(game: Game[Any, Any, Any], state: Any, report: CheckReport, rng: random.Random,
                     seen: list[Any]) -> None:
    legal = _legal(game, state)
    for action in _sample(legal, 12, rng):
        _count(report, "listed actions are accepted")
        try:
            game.apply(state, action)
        except IllegalAction as exc:
            raise _Stop(CheckFailure("listed actions are accepted",
                                     f"legal_actions lists {action} but apply refuses it: {exc}")) from None


_listed_accepted.property = "listed actions are accepted"  # type: ignore[attr-defined]


def _illegal_refused(game: Game[Any, Any, Any], state: Any, report: CheckReport, rng: random.Random,
                     seen: list[Any]) -> None:
    if game.to_move(state) in (None, CHANCE):
        return
    listed = _legal(game, state)
    legal = set(listed)
    before = json.dumps(state.to_json(), sort_keys=True) if hasattr(state, "to_json") else None
    off = [a for a in _off_range(_sample(listed, 3, rng), seen) if a not in legal]
    for action in _sample([a for a in seen if a not in legal], 8, rng) + _sample(off, 4, rng):
        _count(report, "illegal actions are refused")
        try:
            game.apply(state, action)
        except IllegalAction:
            pass
        except Exception as exc:
            raise _Stop(CheckFailure("illegal actions are refused",
                                     f"{action} is not legal here, and apply raised {_one_line(exc)} "
                                     f"instead of IllegalAction")) from None
        else:
            raise _Stop(CheckFailure("illegal actions are refused",
                                     f"{action} is not listed by legal_actions, but apply accepts it: "
                                     f"why_not must refuse it, citing the rule (a chance result at a "
                                     f"seat's turn, a value no position lists...)"))
        if before is not None and json.dumps(state.to_json(), sort_keys=True) != before:
            raise _Stop(CheckFailure("illegal actions are refused", f"refusing {action} changed the position"))


_illegal_refused.property = "illegal actions are refused"  # type: ignore[attr-defined]


def _off_range(actions: list[Any], seen: list[Any]) -> list[Any]:
    """Actions no position lists: a listed action with one whole-number field set to -1, to one past
    the largest value that field takes in any listed action, or to a million (a cell off the board,
    a card that is not in the deck: what a hand-edited file or a browser message may send)."""
    import dataclasses
    out: list[Any] = []
    for action in actions:
        if not dataclasses.is_dataclass(action) or isinstance(action, type):
            continue
        for spec in dataclasses.fields(action):
            value = getattr(action, spec.name, None)
            if type(value) is not int or not spec.init:
                continue
            top = max((getattr(a, spec.name) for a in seen
                       if type(a) is type(action) and type(getattr(a, spec.name, None)) is int), default=value)
            for bad in (-1, top + 1, 10 ** 6):
                try:
                    out.append(dataclasses.replace(action, **{spec.name: bad}))
                except Exception:       # noqa: BLE001 (an action class that checks its own values)
                    continue
    return out


def _seats_lists(game: Game[Any, Any, Any], state: Any, report: CheckReport, rng: random.Random,
                 seen: list[Any]) -> None:
    mover = game.to_move(state)
    if mover is None or mover == CHANCE:
        return
    everyone = set(game.legal_actions(state))
    for seat in range(len(game.seats())):
        _count(report, "seats' lists")
        own = game.legal_actions(state, seat)
        if mover != SIMULTANEOUS and seat != mover and own:
            raise _Stop(CheckFailure("seats' lists", f"it is seat {mover}'s turn, but seat {seat} is offered "
                                                     f"{own[0]}", seat))
        stray = [a for a in own if a not in everyone or game.seat_of(state, a) != seat]
        if stray:
            raise _Stop(CheckFailure("seats' lists", f"seat {seat} is offered {stray[0]}, which is not its own "
                                                     f"legal action", seat))


_seats_lists.property = "seats' lists"  # type: ignore[attr-defined]
