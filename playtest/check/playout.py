"""The **playout** property: a game's own ``random_playout`` plays what the rules play step by step
(:func:`playout_by_rules`, the reference) with the same generators: the same state, steps, log
and draws."""

from __future__ import annotations

import functools
import random
from typing import Any, Sequence, cast

from ..kernel import CHANCE, SIMULTANEOUS, Game
from ..kernel.game import PlayoutLog
from .messages import _NOBODY
from .report import CheckFailure, CheckReport, _count, _Stop


def playout_by_rules(game: Game[Any, Any, Any], state: Any, rng: random.Random,
                     seat_rngs: Sequence[random.Random] | None = None, max_steps: int = 1_000_000,
                     max_turns: int | None = None, log: PlayoutLog | None = None) -> tuple[Any, int]:
    """What :meth:`playtest.Game.random_playout` must return, played step by step through the rules
    (``to_move``, ``random_action``, ``chance_outcome``, ``apply``; ``legal_actions`` counted for
    ``log``): the reference a game's own playout is checked against (the "playout" property of
    :func:`check_game`). With ``log.at`` it lists the legal actions at those decisions only, and
    sets ``log.decisions``.

    >>> import random, playtest
    >>> from playtest.kernel.game import PlayoutLog
    >>> game = playtest.load("corner_rush")
    >>> state, steps = playout_by_rules(game, game.initial_state(), random.Random(1), max_turns=3)
    >>> state.turn, steps > 3
    (3, True)
    >>> every, some = PlayoutLog(), PlayoutLog(at=[1, 2, 5])
    >>> _ = playout_by_rules(game, game.initial_state(), random.Random(1), max_turns=3, log=every)
    >>> _ = playout_by_rules(game, game.initial_state(), random.Random(1), max_turns=3, log=some)
    >>> some.options == [every.options[i] for i in (1, 2, 5)], some.decisions == len(every.options)
    (True, True)
    """
    to_move, legal_actions, chance = game.to_move, game.legal_actions, game.chance_outcome
    random_action = game.random_action
    scores = log.scores if log is not None else None
    steps = turns = decisions = 0
    wanted = iter(log.at) if log is not None and log.at is not None else None    # None: count every decision
    want = next(wanted, -1) if wanted is not None else 0
    last: Any = _NOBODY
    while True:
        mover = to_move(state)
        if mover == SIMULTANEOUS:
            raise ValueError(f"{game.name}: a random playout plays sequential steps only (a simultaneous "
                             "step is the rules' and the bots' own)")
        if mover != CHANCE and mover != last:        # a turn ends: the game ends, or another seat decides
            if scores is not None and steps:
                scores.append(game.running_scores(state))
            if mover is None:
                break
            if log is not None and log.first is None:
                log.first = mover
            turns += 1
            if max_turns is not None and turns > max_turns:
                break
            last = mover
        if steps == max_steps:
            break
        if mover == CHANCE:
            action = chance(state, rng)
        else:
            if log is not None and (wanted is None or decisions == want):
                log.options.append(len(legal_actions(state, mover)))
                if wanted is not None:
                    want = next(wanted, -1)
            decisions += 1
            action = random_action(state, seat_rngs[cast(int, mover)] if seat_rngs is not None else rng)
        state = game.apply(state, action, check=False)
        steps += 1
    if log is not None and wanted is not None:
        log.decisions = decisions
    return state, steps


def _playout(game: Game[Any, Any, Any], state: Any, report: CheckReport, rng: random.Random,
             seen: list[Any]) -> None:
    """The "playout" property (:mod:`playtest.check` and this module's docstring)."""
    name = "playout"
    mover = game.to_move(state)
    if mover == SIMULTANEOUS:
        return
    if mover is not None and mover != CHANCE and game.has_secrets:
        # (the lab's random bot picks from its listing in a game with secrets: random_action must draw alike)
        seed = rng.random()
        own, listed = random.Random(seed), random.Random(seed)
        drawn, expected = game.random_action(state, own), listed.choice(game.legal_actions(state, mover))
        if drawn != expected or own.getstate() != listed.getstate():
            raise _Stop(CheckFailure(name, f"random_action drew {drawn} where rng.choice of the legal actions gives "
                                           f"{expected}{'' if drawn != expected else ' but used the generator differently'}"
                                           ": in a game with secrets that writes random_playout they must draw "
                                           "alike (the lab's random bot picks from its listing there)", mover))
    seats = game.seat_count()
    whole = rng.random() < 0.1
    max_turns = None if whole else rng.choice((1, 2, 4))
    max_steps = rng.choice((1_000_000, 1_000_000, 1_000_000, rng.randrange(0, 30)))
    seeds = [rng.random() for _ in range(seats + 1)]
    per_seat = rng.random() < 0.5
    # half the time only some decisions' options are asked for (log.at: the lab's runner asks one in 32)
    at = sorted(rng.sample(range(40), rng.randrange(0, 8))) + [rng.randrange(40, 400)] \
        if rng.random() < 0.5 else None
    runs = []
    for way in (game.random_playout, functools.partial(playout_by_rules, game)):
        chance = random.Random(seeds[0])
        seat_rngs = [random.Random(x) for x in seeds[1:]] if per_seat else None
        log = PlayoutLog(scores=True, at=None if at is None else iter(at))
        result = way(state, chance, seat_rngs, max_steps=max_steps, max_turns=max_turns, log=log)
        if result is None:          # not written for these parameters or this position
            return
        runs.append((result, log, chance.getstate(), [r.getstate() for r in seat_rngs or ()]))
    _count(report, name)
    (got, got_log, got_chance, got_seats), (want, want_log, want_chance, want_seats) = runs
    how = (f"from this position (max_turns={max_turns}, max_steps={max_steps}, "
           f"{'a generator per seat' if per_seat else 'one generator'}"
           f"{'' if at is None else f', options wanted at decisions {at}'}), random_playout ")
    if not isinstance(got, tuple) or len(got) != 2:
        raise _Stop(CheckFailure(name, how + f"returned {str(got)[:80]}, not (state, steps)"))
    if got[1] != want[1]:
        raise _Stop(CheckFailure(name, how + f"played {got[1]} steps where the rules play {want[1]}"))
    if got[0] != want[0]:
        raise _Stop(CheckFailure(name, how + f"reached another state than the rules: {_state_difference(got[0], want[0])}"))
    if at is not None and got_log.decisions is None:     # a playout that counts every decision (allowed)
        got_log.options, got_log.decisions = got_log.wanted(at)
    for what in ("options", "decisions", "scores", "first"):
        a, b = getattr(got_log, what), getattr(want_log, what)
        if a != b:
            first = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b))) \
                if isinstance(a, list) and isinstance(b, list) else None
            where = f" (first difference at entry {first}: {str(a[first:first + 1])[:80]} against " \
                    f"{str(b[first:first + 1])[:80]})" if first is not None else f": {a!r} against {b!r}"
            raise _Stop(CheckFailure(name, how + f"logged other {what} than the rules{where}"))
    if got_chance != want_chance or got_seats != want_seats:
        raise _Stop(CheckFailure(name, how + "left the generators in another state than the rules (other draws)"))


_playout.property = "playout"  # type: ignore[attr-defined]


def _state_difference(a: Any, b: Any) -> str:
    """The first field in which two states differ, in words."""
    fields = getattr(a, "__dict__", None)
    other = getattr(b, "__dict__", None)
    if isinstance(fields, dict) and isinstance(other, dict):
        for key, value in fields.items():
            if other.get(key, _NOBODY) != value:
                return f"{key} is {str(value)[:80]}, the rules give {str(other.get(key))[:80]}"
    return f"{str(a)[:80]} against {str(b)[:80]}"
