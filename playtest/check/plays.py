"""The random games ``check_game`` plays, played as the lab's random player plays them, and the
**plays** and **ends** properties checked as they go: whose turn it is, a chance step's listing,
a finished game's outcome, payoffs and running scores, and that random play ends."""

from __future__ import annotations

import math
import random
from typing import Any

from ..kernel import CHANCE, SIMULTANEOUS, Game, IllegalAction, UncountedChance, draw_outcome
from ..kernel.game import _overrides
from ..kernel.values import shown
from .messages import _one_line, _repr, _written
from .positions import _states
from .records import _declaration_problem
from .report import CheckFailure, CheckReport, _count, _keep, _Stop


def _random_history(game: Game[Any, Any, Any], rng: random.Random, cap: int, report: CheckReport,
                    failed: dict[str, CheckFailure]) -> tuple[list[Any], Any]:
    state = game.initial_state()
    actions: list[Any] = []
    # a game that draws random whole orders (random_order_parts) is played as the lab's random player
    # plays it: the first pending seat's whole order at once, its parts one step each
    draws = _overrides(type(game), "random_order_parts")
    queued: list[Any] = []           # the parts of the order being played, last first
    queued_seat: int | None = None
    for _ in range(cap):
        try:
            mover = game.to_move(state)
            if mover is None:
                problem = _end_problem(game, state)
                if problem:
                    raise _Stop(CheckFailure("plays", problem))
                _count(report, "ends")
                return actions, state
            if mover != CHANCE and mover != SIMULTANEOUS and not (
                    isinstance(mover, int) and not isinstance(mover, bool) and 0 <= mover < game.seat_count()):
                raise _Stop(CheckFailure("plays", f"to_move gives {shown(mover)}, which is no seat of the game "
                                                  f"(seats 0 to {game.seat_count() - 1}), CHANCE, SIMULTANEOUS "
                                                  "or None (the game is over)"))
            declared = getattr(game, "game_type", None)
            if declared is not None and ((mover == CHANCE and not declared.chance) or (
                    mover == SIMULTANEOUS and declared.dynamics != "simultaneous")):
                what = "chance" if mover == CHANCE else "a simultaneous step"
                fix = "chance=True" if mover == CHANCE else "dynamics='simultaneous'"
                raise _Stop(CheckFailure("plays", f"to_move gives {what}, which its game type does not declare "
                                                  f"(declare GameType({fix}): bots, the lab and OpenSpiel read it)"))
            drawn = False                # the action is a part of an order random_order_parts drew
            if mover == CHANCE:
                outcomes = game.chance_outcomes(state)
                problem = _chance_problem(outcomes)
                if problem:
                    raise _Stop(CheckFailure("plays", problem))
                action = draw_outcome(outcomes, rng)          # (samples an UncountedChance too)
            else:
                pending = game.pending_seats(state) if draws and mover == SIMULTANEOUS else ()
                seat = pending[0] if pending else None
                if seat is None or seat != queued_seat:
                    queued, queued_seat = [], seat
                if seat is not None and not queued:
                    parts = game.random_order_parts(state, seat, rng)
                    if parts:
                        queued = list(reversed(list(parts)))
                if queued:
                    action, drawn = queued.pop(), True
                else:
                    legal = game.legal_actions(state)
                    if not legal:
                        wrong = _why_not_type(game, state, mover)
                        if wrong:
                            raise _Stop(CheckFailure("plays", wrong))
                        raise _Stop(CheckFailure("ends", f"nobody can move, yet the game is not over "
                                                         f"({game.describe_state(state)})"))
                    action = rng.choice(legal)
            try:
                state = game.apply(state, action)
            except IllegalAction as exc:
                if drawn:
                    raise _Stop(CheckFailure("random action is legal", f"random_order_parts gives {action}, which "
                                             f"apply refuses: {exc}", queued_seat)) from None
                raise _Stop(CheckFailure("listed actions are accepted",
                                         f"legal_actions lists {action} but apply refuses it: {exc}")) from None
            declared = getattr(game, "state_type", None)
            if isinstance(declared, type) and not isinstance(state, declared):
                raise _Stop(CheckFailure("plays", f"{action} led to a {type(state).__name__}, not a "
                                                  f"{declared.__name__} (the declared state_type): effect() "
                                                  "must return the state, e.g. state.replace(...)"))
        except _Stop as stop:
            stop.failure.history, stop.failure.actions = _written(game, _states(game, actions), actions)
            _keep(failed, stop.failure)
            return actions, state
        except Exception as exc:        # the game's own code raised while playing: a failure, not a traceback
            history, written = _written(game, _states(game, actions), actions)
            broken = _declaration_problem(game, state)
            why = f"; the position it met breaks its declaration: {broken}" if broken else _listing_problem(game, state)
            _keep(failed, CheckFailure("plays", f"the game raised {_one_line(exc)}{why}", None, history, written))
            return actions, state
        actions.append(action)
    if game.to_move(state) is None:
        problem = _end_problem(game, state)
        if problem:
            _keep(failed, CheckFailure("plays", problem, None, *_written(game, _states(game, actions), actions)))
        _count(report, "ends")
        return actions, state
    game_type = getattr(game, "game_type", None)
    declared = game_type.max_length if game_type is not None else None
    why = (f"the longest game its game type declares (max_length={declared}); a random player picking each "
           f"action among the legal ones (a whole order at a time from random_order_parts where the game draws "
           f"them, else every part of an order too) went further: the rules do not bound "
           f"a game to that (a part that can be undone again and again, say), or the bound is too low"
           if declared == cap else "declare GameType(max_length=...) if the rules bound it")
    _keep(failed, CheckFailure("ends", f"a random game did not end within {cap} steps ({why})", None,
                               *_written(game, _states(game, actions), actions)))
    return actions, state


def _listing_problem(game: Game[Any, Any, Any], state: Any) -> str:
    """``"; candidates() returned None ..."`` when the game's candidates give no list (for a message)."""
    try:
        mover = game.to_move(state)
        seats = game.pending_seats(state) if mover == SIMULTANEOUS else (mover,) if mover is not None and mover >= 0 else ()
        for seat in seats:
            listed = game.candidates(state, seat)
            if not isinstance(listed, (list, tuple)):
                return (f"; candidates() returned {_repr(listed)} for seat {seat}: it returns a list of actions "
                        "(empty when the seat has none)")
    except Exception:        # noqa: BLE001 (only a hint for the message)
        pass
    return ""


def _why_not_type(game: Game[Any, Any, Any], state: Any, mover: Any) -> str | None:
    """When no action is legal: a ``why_not`` that returns something else than a Refusal or None (a
    ``False`` refuses everything) is the reason, in words (``None``: it is not that)."""
    if not _overrides(type(game), "why_not") or not _overrides(type(game), "candidates"):
        return None
    from ..kernel import Refusal
    seats = game.pending_seats(state) if mover == SIMULTANEOUS else (mover,)
    for seat in seats:
        for action in list(game.candidates(state, seat))[:20]:
            try:
                refusal = game.why_not(state, action, seat)
            except Exception:        # noqa: BLE001 (a refusal of that value: not this question)
                continue
            if refusal is not None and not isinstance(refusal, Refusal):
                return game._why_not_returned(action, refusal)
    return None


def _chance_problem(outcomes: Any) -> str | None:
    """What is wrong with a chance step's listing, in words (``None``: nothing): each outcome once,
    as an (action, probability) pair, the probabilities finite, not below 0, adding up to 1."""
    if isinstance(outcomes, UncountedChance):
        return None
    pairs = list(outcomes)
    if not pairs:
        return "chance_outcomes lists no outcome at a chance step (to_move gives CHANCE)"
    total, seen = 0.0, set()
    for pair in pairs:
        if not (isinstance(pair, tuple) and len(pair) == 2):
            return f"chance_outcomes lists {shown(pair)}: it lists (action, probability) pairs"
        action, p = pair
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not math.isfinite(p) or p < 0:
            return (f"chance_outcomes gives {action} the probability {shown(p)}: a probability is a "
                    "number from 0 to 1")
        try:
            if action in seen:
                return f"chance_outcomes lists {action} twice: list each outcome once, with its whole probability"
            seen.add(action)
        except TypeError:              # an action that does not hash: no check of repeats
            pass
        total += p
    if abs(total - 1) > 1e-6:
        return f"chance_outcomes' probabilities add up to {total:.6g}, not 1 ({len(pairs)} outcomes)"
    return None


def _end_problem(game: Game[Any, Any, Any], state: Any) -> str | None:
    """What is wrong with a finished game's outcome, payoffs or running scores (``None``: nothing)."""
    seats = game.seat_count()
    outcome = game.outcome(state)
    if outcome is None:
        return "to_move gives None (the game is over) but outcome() gives None: say who won, or that nobody did"
    from ..kernel import Outcome
    if not isinstance(outcome, Outcome):
        return (f"outcome() returned {_repr(outcome)}: it returns Outcome(winners, reason) at the end, and None "
                "while the game goes on")
    winners = getattr(outcome, "winners", None)
    if not isinstance(winners, tuple) or any(isinstance(w, bool) or not isinstance(w, int) or not 0 <= w < seats
                                             for w in winners) or len(set(winners)) != len(winners):
        return (f"outcome() names the winners {shown(winners)}: a tuple of different seats, each from 0 to "
                f"{seats - 1} (an empty tuple for a draw)")
    payoffs = getattr(outcome, "payoffs", None)
    if payoffs is not None:
        if (not isinstance(payoffs, (tuple, list)) or len(payoffs) != seats or any(
                isinstance(p, bool) or not isinstance(p, (int, float)) or not math.isfinite(p) for p in payoffs)):
            return f"outcome()'s payoffs are {shown(payoffs)}: one finite number per seat ({seats})"
        low, high = game.returns_range()
        if any(p < low - 1e-9 or p > high + 1e-9 for p in payoffs):
            return (f"outcome()'s payoffs {shown(tuple(payoffs))} leave returns_range() {(low, high)}: write "
                    "returns_range() to give the lowest and highest payoff (the search bot scales by it)")
    if _overrides(type(game), "running_scores"):
        scores = game.running_scores(state)
        if scores is not None and (not isinstance(scores, (tuple, list)) or len(scores) != seats or any(
                isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x) for x in scores)):
            return f"running_scores() gives {shown(scores)}: one finite number per seat ({seats}), or None"
    return None
