"""The properties of what a position lists and accepts: **listed actions are accepted** (and
playing one leaves the position it was played from as it was), **illegal actions are refused**
(actions legal elsewhere, listed ones set off their range, and actions no listing offers: every
field-less kind, listed ones with a field changed), and **seats' lists** (a seat is offered only
its own actions)."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

from ..kernel import CHANCE, SIMULTANEOUS, Game, IllegalAction
from ..kernel.game import _overrides
from .messages import _first_difference, _one_line
from .positions import _legal, _sample
from .report import CheckFailure, CheckReport, _count, _Stop


def _listed_accepted(game: Game[Any, Any, Any], state: Any, report: CheckReport, rng: random.Random,
                     seen: list[Any]) -> None:
    legal = _legal(game, state)
    tried = _sample(legal, 12, rng)
    before = _snapshot(state) if tried else None
    for action in tried:
        _count(report, "listed actions are accepted")
        try:
            game.apply(state, action)
        except IllegalAction as exc:
            raise _Stop(CheckFailure("listed actions are accepted",
                                     f"legal_actions lists {action} but apply refuses it: {exc}")) from None
    if before is not None and _snapshot(state) != before:
        raise _Stop(_changed(game, before, state, _culprit(game, before, tried)))


def _snapshot(state: Any) -> str | None:
    """A position's JSON form as one text, to tell whether playing from it changed it (``None``: it
    has none, or the game cannot write it, which "json" reports)."""
    try:
        return json.dumps(state.to_json(), sort_keys=True)
    except Exception:       # noqa: BLE001 (no JSON form: not this property's to say)
        return None


def _changed(game: Game[Any, Any, Any], before: str, state: Any, action: Any) -> CheckFailure:
    """The failure of an ``effect`` that changed the state it was given (a dict or list field assigned
    into): the fields that changed, before and after, and the fix."""
    old, new = json.loads(before), json.loads(_snapshot(state) or "null")
    if not (isinstance(old, dict) and isinstance(new, dict)):
        old, new = {"state": old}, {"state": new}
    keys = [k for k in old if old[k] != new.get(k)] + [k for k in new if k not in old]
    shown = []
    for key in keys[:3]:
        where, one, two = _first_difference(old.get(key), new.get(key), key)
        shown.append(f"{where}: before {one}, after {two}")
    more = f" and {len(keys) - 3} more" if len(keys) > 3 else ""
    who = "effect()" if not _overrides(type(game), "apply") else "apply()"
    playing = f"playing {action}, " if action is not None else ""
    return CheckFailure("listed actions are accepted",
                        f"{who} changed the state it was given ({playing}field{'s' if len(keys) > 1 else ''} "
                        f"{'; '.join(shown)}{more}): return state.replace(...) with new values instead (a dict "
                        f"or list inside the state is shared with its copies: build a new one, never assign into it)")


def _culprit(game: Game[Any, Any, Any], before: str, tried: list[Any]) -> Any:
    """Which of ``tried`` changed the position it was played from, played again on a fresh copy of
    the position (``None`` when that cannot tell)."""
    try:
        fresh = game.state_from_json(json.loads(before))
        for action in tried:
            game.apply(fresh, action, check=False)
            if _snapshot(fresh) != before:
                return action
    except Exception:       # noqa: BLE001 (only to name the action in the message)
        pass
    return None


def _replayed(game: Game[Any, Any, Any], actions: list[Any], watch: set[int],
              report: CheckReport) -> tuple[list[Any], tuple[int, CheckFailure] | None]:
    """A random game's positions replayed (as :func:`~.positions._states`), each step in ``watch``
    (the positions the properties are checked at) checked to leave the position it was played
    from as it was: ``(states, None)``, or with the step where ``effect`` changed it and the failure
    (the positions are then not to be trusted)."""
    states = [game.initial_state()]
    for index, action in enumerate(actions):
        before = _snapshot(states[-1]) if index in watch else None
        states.append(game.apply(states[-1], action, check=False))
        if before is not None:
            _count(report, "listed actions are accepted")
            if _snapshot(states[-2]) != before:
                return states, (index, _changed(game, before, states[-2], action))
    return states, None


_listed_accepted.property = "listed actions are accepted"  # type: ignore[attr-defined]


def _illegal_refused(game: Game[Any, Any, Any], state: Any, report: CheckReport, rng: random.Random,
                     seen: list[Any]) -> None:
    if game.to_move(state) in (None, CHANCE):
        return
    listed = _legal(game, state)
    legal = set(listed)
    before = json.dumps(state.to_json(), sort_keys=True) if hasattr(state, "to_json") else None
    few = _sample(listed, 3, rng)
    off = [(a, next_up) for a, next_up in _off_range(few, seen) if a not in legal]
    probes = [(a, False) for a in _sample([a for a in seen if a not in legal], 8, rng)] + _sample(off, 4, rng)
    # actions no listing offers, which a listing may have left out (one past the largest value listed
    # too): every kind without fields, listed ones with a field changed
    unlisted = [a for a in _fieldless(game) + _sample(_neighbours(few, listed + seen), 6, rng) if a not in legal]
    for action, offered in probes + [(a, True) for a in dict.fromkeys(unlisted)]:
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
            if offered and _overrides(type(game), "candidates") and not _overrides(type(game), "legal_actions"):
                raise _Stop(CheckFailure("illegal actions are refused",
                                         f"why_not allows {action}, which candidates() does not list: the table "
                                         f"never offers it (add it to candidates, or refuse it in why_not)"))
            if offered:
                refuser = "why_not" if _overrides(type(game), "why_not") and not _overrides(type(game), "apply") \
                    else "apply"
                raise _Stop(CheckFailure("illegal actions are refused",
                                         f"apply accepts {action}, which legal_actions does not list: the table "
                                         f"never offers it (list it in legal_actions, or refuse it in {refuser})"))
            raise _Stop(CheckFailure("illegal actions are refused",
                                     f"{action} is not listed by legal_actions, but apply accepts it: "
                                     f"why_not must refuse it, citing the rule (a chance result at a "
                                     f"seat's turn, a value no position lists...)"))
        if before is not None and json.dumps(state.to_json(), sort_keys=True) != before:
            raise _Stop(CheckFailure("illegal actions are refused", f"refusing {action} changed the position"))


_illegal_refused.property = "illegal actions are refused"  # type: ignore[attr-defined]


def _off_range(actions: list[Any], seen: list[Any]) -> list[tuple[Any, bool]]:
    """Actions no position lists: a listed action with one whole-number field set to -1, to one past
    the largest value that field takes in any listed action, or to a million (a cell off the board,
    a card that is not in the deck: what a hand-edited file or a browser message may send); each
    with whether it is the one past the largest (which a listing's loop may have stopped short of)."""
    out: list[tuple[Any, bool]] = []
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
                    out.append((dataclasses.replace(action, **{spec.name: bad}), bad == top + 1))
                except Exception:       # noqa: BLE001 (an action class that checks its own values)
                    continue
    return out


def _fieldless(game: Game[Any, Any, Any]) -> list[Any]:
    """One action of each of the game's kinds that has no fields (a pass, a swap, a stop)."""
    out = []
    for kind in getattr(game, "action_types", ()) or ():
        if isinstance(kind, type) and dataclasses.is_dataclass(kind) and not dataclasses.fields(kind):
            try:
                out.append(kind())
            except Exception:       # noqa: BLE001 (a kind that cannot be made without values)
                continue
    return out


def _neighbours(actions: list[Any], known: list[Any]) -> list[Any]:
    """Listed actions with one field changed: a whole number one up and one down, a flag turned, any
    other value to one that field takes in another known action of the kind (a move a listing may
    have left out: the corner a loop stopped short of, the other colour)."""
    out: list[Any] = []
    for action in actions:
        if not dataclasses.is_dataclass(action) or isinstance(action, type):
            continue
        for spec in dataclasses.fields(action):
            if not spec.init:
                continue
            value = getattr(action, spec.name, None)
            if type(value) is bool:
                values: list[Any] = [not value]
            elif type(value) is int:
                values = [value - 1, value + 1]
            else:
                values = []
                for other in known:
                    if type(other) is type(action):
                        changed = getattr(other, spec.name, value)
                        if changed != value and changed not in values:
                            values.append(changed)
                            if len(values) == 2:
                                break
            for new in values:
                try:
                    out.append(dataclasses.replace(action, **{spec.name: new}))
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
