"""The properties of the rules' own samplers and listings in short: **random action is legal**
(``random_action``, ``random_order_parts``, a game's own ``chance_outcome`` drawing as the
listing does), **runs** (``legal_runs`` selects exactly what ``legal_actions`` lists) and
**orders** (``all_orders`` lists exactly the complete orders the kit's search finds)."""

from __future__ import annotations

import random
from typing import Any

from ..geometry import select
from ..kernel import CHANCE, SIMULTANEOUS, Game, draw_outcome
from ..kernel.game import _overrides
from .messages import _one_line
from .report import CheckFailure, CheckReport, _count, _Stop


def _sampled_legal(game: Game[Any, Any, Any], state: Any, report: CheckReport, rng: random.Random,
                   seen: list[Any]) -> None:
    name = "random action is legal"
    mover = game.to_move(state)
    if mover == CHANCE and _overrides(type(game), "chance_outcome"):
        _chance_sampler(game, state, report, rng)
    if mover is None or mover == CHANCE:
        return
    for _ in range(3):
        _count(report, name)
        action = game.random_action(state, rng)
        refusal = game.check(state, action)
        if refusal is not None:
            raise _Stop(CheckFailure(name, f"random_action drew {action}, which the rules refuse: {refusal}",
                                     None if mover == SIMULTANEOUS else mover))
    if mover != SIMULTANEOUS or not _overrides(type(game), "random_order_parts"):
        return
    for seat in game.pending_seats(state):
        parts = game.random_order_parts(state, seat, rng)
        if parts is None:
            continue
        _count(report, name)
        after = before_last = state
        for k, part in enumerate(parts):
            refusal = game.check(after, part, seat)
            if refusal is not None:
                raise _Stop(CheckFailure(name, f"random_order_parts gives {part} after {k} part(s) before it, "
                                               f"which the rules refuse: {refusal}", seat))
            before_last, after = after, game.apply(after, part, check=False)
        # still pending: unsubmitted, unless its submission was the last and resolved the round (a new
        # round then has more seats pending than were left before it)
        if game.to_move(after) == SIMULTANEOUS and seat in game.pending_seats(after) and not (
                game.to_move(before_last) == SIMULTANEOUS
                and set(game.pending_seats(after)) > set(game.pending_seats(before_last))):
            raise _Stop(CheckFailure(name, f"the parts random_order_parts gives ({len(parts)}) leave seat {seat}'s "
                                           f"order unsubmitted", seat))


_sampled_legal.property = "random action is legal"  # type: ignore[attr-defined]


def _chance_sampler(game: Game[Any, Any, Any], state: Any, report: CheckReport, rng: random.Random) -> None:
    """A game's own ``chance_outcome`` (a faster sampler) must draw what ``chance_outcomes`` lists,
    with the same draws: the lab and the search bots use it, a session's chance steps the listing."""
    for _ in range(3):
        _count(report, "random action is legal")
        seed = rng.random()
        own, listed = random.Random(seed), random.Random(seed)
        drawn, expected = game.chance_outcome(state, own), draw_outcome(game.chance_outcomes(state), listed)
        if drawn != expected or own.getstate() != listed.getstate():
            how = (f"drew {drawn} where a draw from chance_outcomes with the same generator gives {expected}"
                   if drawn != expected else f"drew {drawn} as chance_outcomes does, but used its generator "
                                              f"differently (the draws after it change)")
            raise _Stop(CheckFailure("random action is legal", f"chance_outcome {how}: the lab and the search "
                                     f"bots draw chance with chance_outcome, so it must make the same draws "
                                     f"(or leave it to the kernel)", None))


def _runs(game: Game[Any, Any, Any], state: Any, report: CheckReport, rng: random.Random, seen: list[Any]) -> None:
    """The "runs" property (:mod:`playtest.check`): what the OpenSpiel adapter numbers without listing."""
    name = "runs"
    mover = game.to_move(state)
    if mover is None or mover == CHANCE or mover == SIMULTANEOUS:
        return
    runs = game.legal_runs(state)  # type: ignore[attr-defined]
    if runs is None:                   # listed the usual way here
        return
    _count(report, name)
    listed = game.legal_actions(state, mover)
    selected: list[Any] = []
    kinds: list[type] = []
    try:
        for table, mask in runs:
            if type(mask) is not int or mask < 0 or mask.bit_length() > len(table):
                raise _Stop(CheckFailure(name, f"legal_runs gives a mask ({str(mask)[:40]}) that is not a whole number "
                                               f"selecting among its table's {len(table)} actions", mover))
            chosen = select(table, mask)
            types = {type(a) for a in chosen}
            if len(types) > 1:
                raise _Stop(CheckFailure(name, "legal_runs mixes kinds of action in one table ("
                                               + ", ".join(sorted(t.__name__ for t in types)) + ")", mover))
            if chosen and (not kinds or kinds[-1] is not type(chosen[0])):
                kinds.append(type(chosen[0]))
            selected += chosen
    except (TypeError, ValueError) as exc:
        raise _Stop(CheckFailure(name, f"legal_runs gives something that is not runs (table, mask): {_one_line(exc)}",
                                 mover)) from exc
    by_id = {id(a) for a in listed}
    stray = [a for a in selected if id(a) not in by_id]
    if stray or len(selected) != len(listed) or len({id(a) for a in selected}) != len(selected):
        missing = [a for a in listed if all(a is not b for b in selected)]
        what = (f"selects {stray[0]}, which legal_actions does not list (or lists as another object)" if stray else
                f"leaves out {missing[0]}, which legal_actions lists" if missing else "selects an action twice")
        raise _Stop(CheckFailure(name, f"legal_runs selects {len(selected)} actions where legal_actions lists "
                                       f"{len(listed)}: it {what}", mover))
    order: list[type] = []
    for action in listed:
        if not order or order[-1] is not type(action):
            order.append(type(action))
    if order != kinds:
        raise _Stop(CheckFailure(name, "legal_runs gives the kinds in another order than legal_actions lists them ("
                                       + ", ".join(k.__name__ for k in kinds) + " against "
                                       + ", ".join(k.__name__ for k in order) + ")", mover))


_runs.property = "runs"  # type: ignore[attr-defined]


def _orders(game: Game[Any, Any, Any], state: Any, report: CheckReport, rng: random.Random, seen: list[Any]) -> None:
    """The "orders" property (:mod:`playtest.check`): a game's own listing of a seat's complete
    orders (:meth:`playtest.Game.all_orders`, which the OpenSpiel adapter offers instead of
    searching) gives parts legal in turn, each order completed by its last part only, and is the
    search's listing (:func:`playtest.interop.orders.complete_orders`): the same orders, in the same order."""
    if game.to_move(state) != SIMULTANEOUS:
        return
    from ..interop.orders import listing_differs, order_done     # (imported here: ``import playtest`` leaves interop out)
    name = "orders"
    for seat in game.pending_seats(state):
        listed = game.all_orders(state, seat)
        if listed is None:
            continue
        _count(report, name)
        for i, order in enumerate(listed):
            after = state
            for k, part in enumerate(order):
                refusal = game.check(after, part, seat)
                if refusal is not None:
                    raise _Stop(CheckFailure(name, f"all_orders gives as order {i} parts of which part {k} ({part}) "
                                                   f"the rules refuse after the ones before it: {refusal}", seat))
                before, after = after, game.apply(after, part, check=False)
                if order_done(game, before, after, seat) != (k == len(order) - 1):
                    where = "before its last part" if k < len(order) - 1 else "not even after its last part"
                    raise _Stop(CheckFailure(name, f"all_orders gives as order {i} parts that complete the seat's "
                                                   f"order {where} ({part})", seat))
        differs = listing_differs(game, state, seat)
        if differs is not None:
            raise _Stop(CheckFailure(name, f"{differs} (the OpenSpiel adapter offers the game's listing "
                                           f"instead of searching: they must agree)", seat))


_orders.property = "orders"  # type: ignore[attr-defined]
