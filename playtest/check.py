"""``check_game``: the conformance suite a game must pass, runnable from a notebook cell (a
readable report) and from pytest (one call per game, failing with the property, the seat and a
minimal history).

>>> import playtest
>>> report = playtest.check_game("secret_bid", examples=3, seed=1)
>>> report.ok, report.failures
(True, [])

First the **declarations**: what ``register`` refuses in a declared game (kernel rule K4: a number
parameter without its range, a ``Params`` field written without ``param()``) and only warns of in a
game written the older way, which registers as it did before K4. Then, over random games (chance
drawn with a seeded generator), it checks as it plays (**plays**) that
``to_move`` names a seat of the game, ``CHANCE``, ``SIMULTANEOUS`` or ``None``; that a chance step
lists each outcome once with probabilities from 0 to 1 adding up to 1; and that a finished game's
``outcome`` names different seats as winners, its payoffs (one finite number per seat) stay within
``returns_range()`` and its ``running_scores`` give one finite number per seat. Then, position by
position:

* **json**: a position reads back from its own JSON form;
* **listed actions are accepted**: ``apply`` takes every action ``legal_actions`` lists;
* **illegal actions are refused**: actions legal elsewhere but not here, and listed actions with a
  whole number set off its range (-1, one past the largest listed, a million), raise
  ``IllegalAction`` (never another error) and change nothing;
* **random action is legal**: the rules' own samplers draw only what the rules allow:
  ``random_action`` (the kit's random bot plays it, and the lab takes its word) gives an action
  ``check`` accepts, and in a simultaneous step ``random_order_parts`` (when the game writes it)
  gives parts each accepted after the ones before, the last one submitting the seat's order;
* **playout** (a game that writes :meth:`playtest.Game.random_playout`): from the position, the
  game's own playout plays what :func:`playout_by_rules` plays with the same generators (a few
  turns, now and then to the end; with and without a generator per seat, a step cap now and
  then; half the time with the options wanted at some decisions only, ``PlayoutLog.at``): the
  same state reached, the same steps, the same report (each wanted decision's number of legal
  actions, the decisions played, the running scores at turn ends, the first decider), the
  generators left in the same state; and, in a game with secrets, ``random_action`` draws as ``rng.choice`` of the
  legal actions does (the lab's random bot picks from its listing there);
* **runs** (a game that writes ``legal_runs``, read by :mod:`playtest.interop`): the runs
  ``[(table, mask), ...]`` select exactly the actions ``legal_actions`` lists, each once, the same
  objects, each table one kind of action, the kinds in the listing's order;
* **seats' lists**: a seat is offered only its own actions (none when another seat is to move);
* **scene**: every viewer's board offers exactly its legal actions, each id drawn once;
* **notation**: no two legal actions share a notation for a viewer;
* **secrecy** (games with secrets): two positions a seat cannot tell apart (``determinize``)
  give it the same board, the same choices, the same ``determinize``, and the same move from
  every bot: the random bot at every position, and every other bot registered for the game
  (greedy bots, the search bot with a few iterations, a designer's own) at one position in
  :data:`BOT_SAMPLE`;
  **a log never tells a seat more than its board**: two actions whose results look the same to
  a seat must read the same to it in the move log (it may tell less: a log line may say only
  "North gives an order" while the board shows nothing at all);
* **perfect information**: a game declaring perfect information shows the same board to every
  seat that cannot act (each seat seeing something of its own is hidden information);

and over whole games: **undo/redo** restores every position, **save/load** replays every
position, and random play **ends** within the game's declared longest game. The random games are
played as the lab's random player plays them: a uniform pick among the legal actions, chance drawn
by its probabilities, and in a simultaneous step of a game that writes ``random_order_parts`` the
first pending seat's whole order drawn at once, its parts played one step each (each checked).
"""

from __future__ import annotations

import functools
import html
import json
import math
import random
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence, cast

from .kernel import CHANCE, SIMULTANEOUS, Game, IllegalAction, UncountedChance, draw_outcome, load
from .geometry import select
from .kernel.game import PlayoutLog, _overrides
from .kernel.registry import params_problem
from .kernel.values import shown

__all__ = ["check_game", "CheckReport", "CheckFailure", "GameCheckFailed", "PROPERTIES"]

PROPERTIES = ("declarations", "plays", "json", "listed actions are accepted", "illegal actions are refused", "random action is legal",
              "playout", "runs", "seats' lists", "scene",
              "notation", "secrecy: board", "secrecy: choices", "secrecy: determinize", "secrecy: bots",
              "secrecy: log", "perfect information", "undo/redo", "save/load", "ends")


class GameCheckFailed(AssertionError):
    """A game failed :func:`check_game`; the message names the property, the seat and the history."""


GameCheckFailed.__module__ = "playtest"


@dataclass
class CheckFailure:
    """One property that failed: where (a minimal history from the start, as notation and as
    JSON actions you can replay), for which seat, and what was seen."""

    property: str
    message: str
    seat: int | None = None
    history: list[str] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)

    def __str__(self) -> str:
        who = "" if self.seat is None else f" (seat {self.seat})"
        moves = " / ".join(self.history) if self.history else "the start"
        return f"{self.property}{who}: {self.message}\n    after {len(self.history)} steps: {moves}"


@dataclass
class CheckReport:
    """What :func:`check_game` found: ``ok``, the ``failures`` (one per property at most, each at
    its shortest history), and how many positions and games each property was checked on."""

    game: str
    params: dict[str, Any]
    examples: int
    checked: dict[str, int] = field(default_factory=dict)
    failures: list[CheckFailure] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when every property held."""
        return not self.failures

    def assert_ok(self) -> None:
        """Raise :class:`GameCheckFailed` naming every failed property (for pytest)."""
        if self.failures:
            raise GameCheckFailed(str(self))

    def __str__(self) -> str:
        head = (f"check_game({self.game!r}): {'every property holds' if self.ok else f'{len(self.failures)} failed'}"
                f" over {self.examples} random games")
        lines = [head]
        for name in PROPERTIES:
            if name in self.checked:
                failed = [f for f in self.failures if f.property == name]
                lines.append(f"  {'FAIL' if failed else 'ok  '} {name} ({self.checked[name]} checks)")
        lines += [str(f) for f in self.failures]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        # every text here comes from the game (names, notation, messages): escaped, never live HTML
        rows = []
        for name in PROPERTIES:
            if name not in self.checked:
                continue
            failed = [f for f in self.failures if f.property == name]
            mark = "&#x2717;" if failed else "&#x2713;"
            colour = "#b03a2e" if failed else "#1e8449"
            detail = "<br>".join(html.escape(str(f)).replace("\n", "<br>") for f in failed)
            rows.append(f"<tr><td style='color:{colour}'>{mark}</td><td>{html.escape(name)}</td>"
                        f"<td>{self.checked[name]}</td><td style='text-align:left'>{detail}</td></tr>")
        title = html.escape(f"check_game({self.game!r}) over {self.examples} random games: "
                            + ("every property holds" if self.ok else f"{len(self.failures)} failed"))
        return (f"<div><b>{title}</b><table><tr><th></th><th>property</th><th>checks</th><th></th></tr>"
                + "".join(rows) + "</table></div>")


class _Stop(Exception):
    """A property failed; carries the failure (internal)."""

    def __init__(self, failure: CheckFailure):
        super().__init__(failure.message)
        self.failure = failure


def check_game(game_or_name: Game[Any, Any, Any] | str | type, examples: int = 20, seed: int = 0,
               max_steps: int | None = None, positions: int = 40, **params: Any) -> CheckReport:
    """Run the conformance suite (module docstring) on a game over ``examples`` random games.

    ``game_or_name`` is a game, its class, or a registered name (``params`` then set its
    parameters). Every game is played to its end; the position properties are checked at
    ``positions`` positions of each (the first ones and an even spread of the rest). Returns a :class:`CheckReport` (it displays as a table in a notebook); call
    ``.assert_ok()`` in a test. The game's own errors become failures naming the property and a
    minimal history, never a traceback from inside the kit.
    """
    if isinstance(game_or_name, str):
        game = load(game_or_name, **params)
    elif isinstance(game_or_name, type) and issubclass(game_or_name, Game):
        game = game_or_name(**params)
    elif isinstance(game_or_name, Game):
        game = game_or_name.with_params(**params) if params else game_or_name
    else:
        raise ValueError(f"check_game takes a game, a game class or a game's name, not {type(game_or_name).__name__}")
    if type(examples) is not int or examples < 1:
        raise ValueError(f"examples must be a whole number of at least 1, not {examples!r}")
    if type(positions) is not int or positions < 1:
        raise ValueError(f"positions must be a whole number of at least 1, not {positions!r}")
    if max_steps is not None and (type(max_steps) is not int or max_steps < 1):
        raise ValueError(f"max_steps must be a whole number of at least 1 (or None), not {max_steps!r}")
    cap = max_steps or (game.game_type.max_length if game.game_type and game.game_type.max_length else 20_000)
    report = CheckReport(game.name, game.params.to_json(), examples)
    failed: dict[str, CheckFailure] = {}
    # what register refuses in a declared game it only warns of in one written the older way (K4)
    problem = params_problem(type(game), f"game {type(game).__name__}")
    _count(report, "declarations")
    if problem is not None:
        _keep(failed, CheckFailure("declarations", problem))
    rng = random.Random(seed)
    histories = []
    for example in range(examples):
        histories.append(_random_history(game, random.Random(rng.random()), cap, report, failed))
        _count(report, "plays")
    seen_legal: list[Any] = []
    try:
        seen_legal += [a for actions, _ in histories for state in _states(game, actions)[::7]
                       for a in _legal(game, state)[:20]]
        # chance's outcomes too (a die, a deal): at a seat's turn they must be refused like any other
        seen_legal += [a for actions, _ in histories for state in _states(game, actions)
                       if game.to_move(state) == CHANCE for a in _chance_listed(game, state)[:6]][:200]
    except Exception:       # the game raised at a position a history reached: "plays" has said so
        pass
    checkers: list[Callable[..., None]] = [_json, _listed_accepted, _sampled_legal, _seats_lists, _scene, _notation]
    if _overrides(type(game), "random_playout"):
        checkers.append(_playout)
    if callable(getattr(game, "legal_runs", None)):
        checkers.append(_runs)
    if game.has_secrets:
        checkers += [_secrecy, _log]
    elif game.game_type is not None and not game.game_type.secret:
        checkers.append(_perfect)
    for actions, _ in histories:
        states = _states(game, actions)
        for index in _spread(len(states), positions):
            state = states[index]
            for checker in checkers + [_illegal_refused]:
                try:
                    checker(game, state, report, random.Random(index), seen_legal)
                except _Stop as stop:
                    first, failure = _earliest(checker, game, states, index, stop.failure, seen_legal)
                    failure.history, failure.actions = _written(game, states, actions[:first])
                    _keep(failed, failure)
                except Exception as exc:       # the game itself raised: that is a failure to report
                    name = getattr(checker, "property", checker.__name__)
                    failure = CheckFailure(name, f"the game raised {_one_line(exc)}")
                    failure.history, failure.actions = _written(game, states, actions[:index])
                    _keep(failed, failure)
        for checker in (_undo_redo, _save_load):
            try:
                checker(game, actions, report)
            except _Stop as stop:
                stop.failure.history, stop.failure.actions = _written(game, states, actions)
                _keep(failed, stop.failure)
            except Exception as exc:
                failure = CheckFailure(getattr(checker, "property", ""), f"raised {_one_line(exc)}")
                failure.history, failure.actions = _written(game, states, actions)
                _keep(failed, failure)
    report.failures = sorted(failed.values(), key=lambda f: PROPERTIES.index(f.property)
                             if f.property in PROPERTIES else 99)
    return report


def _earliest(checker: Callable[..., None], game: Game[Any, Any, Any], states: list[Any], index: int,
              failure: CheckFailure, seen: list[Any], seconds: float = 10.0) -> tuple[int, CheckFailure]:
    """The first position of the game (before ``index``) where ``checker`` fails too: the
    shortest history to show (looked for within ``seconds``)."""
    deadline = time.monotonic() + seconds
    scratch = CheckReport("", {}, 0)
    for earlier in range(index):
        if time.monotonic() > deadline:
            break
        try:
            checker(game, states[earlier], scratch, random.Random(earlier), seen)
        except _Stop as stop:
            if stop.failure.property == failure.property:
                return earlier, stop.failure
        except Exception:
            continue
    return index, failure


def _spread(count: int, most: int) -> list[int]:
    """At most ``most`` indices of ``range(count)``: the first ten, then evenly spread, the last included."""
    if count <= most:
        return list(range(count))
    if most <= 10:                  # (fewer than eleven: the first ones and the last)
        return list(range(most - 1)) + [count - 1]
    head = list(range(10))
    rest = most - len(head)
    step = (count - 1 - head[-1]) / rest
    return head + sorted({head[-1] + round(step * (k + 1)) for k in range(rest)})


def _keep(failed: dict[str, CheckFailure], failure: CheckFailure) -> None:
    """One failure per property: the one with the shortest history."""
    known = failed.get(failure.property)
    if known is None or len(failure.history) < len(known.history):
        failed[failure.property] = failure


def _one_line(exc: BaseException) -> str:
    """The error in one line, at the innermost line of the game's own code (not the standard
    library's, an installed package's nor the kit's), with the line that raised when that is
    elsewhere; an error with no line of the game's own names the kit's line it came through."""
    frames = traceback.extract_tb(exc.__traceback__) if exc.__traceback__ else []
    if not frames:
        return f"{type(exc).__name__}: {str(exc)[:200]}"
    where = frames[-1]
    own = next((f for f in reversed(frames) if _origin(f.filename) == "game"), None)
    kit = next((f for f in reversed(frames) if _origin(f.filename) == "kit"), None)
    chosen = own or kit or where
    at = f" at {Path(chosen.filename).name}:{chosen.lineno}"
    if chosen is not where:
        at += f" (raised in {Path(where.filename).name}:{where.lineno})"
    if own is None and kit is not None:
        at += " in the kit's code, not the game's"
    return f"{type(exc).__name__}: {str(exc)[:400]}{at}"


@functools.lru_cache(maxsize=256)
def _origin(filename: str) -> str:
    """Whose code ``filename`` is: ``"kit"`` (playtest's), ``"library"`` (the standard library's or
    an installed package's) or ``"game"`` (anything else: a notebook cell, the designer's module)."""
    import sysconfig
    if filename.startswith("<frozen"):
        return "library"
    path = Path(filename).resolve() if not filename.startswith("<") else Path(filename)
    if Path(__file__).resolve().parent in path.parents:
        return "kit"
    roots = {Path(p).resolve() for k, p in sysconfig.get_paths().items()
             if k in ("stdlib", "platstdlib", "purelib", "platlib") and p}
    return "library" if any(r in path.parents for r in roots) else "game"


def _count(report: CheckReport, name: str, n: int = 1) -> None:
    report.checked[name] = report.checked.get(name, 0) + n


def _legal(game: Game[Any, Any, Any], state: Any) -> list[Any]:
    mover = game.to_move(state)
    if mover is None or mover == CHANCE:
        return []
    return list(game.legal_actions(state))


def _chance_listed(game: Game[Any, Any, Any], state: Any) -> list[Any]:
    outcomes = game.chance_outcomes(state)
    return [] if isinstance(outcomes, UncountedChance) else [a for a, _ in outcomes]


def _states(game: Game[Any, Any, Any], actions: list[Any]) -> list[Any]:
    states = [game.initial_state()]
    for action in actions:
        states.append(game.apply(states[-1], action, check=False))
    return states


def _written(game: Game[Any, Any, Any], states: list[Any], actions: list[Any]) -> tuple[list[str], list[dict[str, Any]]]:
    words = []
    for state, action in zip(states, actions):
        try:
            words.append(game.notation(state, action, None))
        except Exception:
            words.append(str(action))
    return words, [a.to_json() for a in actions]


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



def _repr(value: Any) -> str:
    """A value the game's Python code returned, as Python writes it (cut short)."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


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
    from .kernel import Refusal
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
    from .kernel import Outcome
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


# ------------------------------------------------------------------ position properties

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


_json.property = "json"  # type: ignore[attr-defined]


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


_NOBODY = object()


def _playout(game: Game[Any, Any, Any], state: Any, report: CheckReport, rng: random.Random,
             seen: list[Any]) -> None:
    """The "playout" property (module docstring)."""
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


def _runs(game: Game[Any, Any, Any], state: Any, report: CheckReport, rng: random.Random, seen: list[Any]) -> None:
    """The "runs" property (module docstring): what the OpenSpiel adapter numbers without listing."""
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


def _viewers(game: Game[Any, Any, Any], state: Any) -> list[tuple[int | None, list[Any]]]:
    mover = game.to_move(state)
    if mover in (None, CHANCE) or (mover != SIMULTANEOUS and not game.has_secrets):
        return [(None, game.legal_actions(state) if mover not in (None, CHANCE) else [])]
    return [(seat, game.legal_actions(state, seat)) for seat in range(len(game.seats()))] + [(None, [])]


def _options(scene: dict[str, Any]) -> set[str]:
    options = [o for opts in scene.get("moves", {}).values() for o in opts]
    options += [o for targets in scene.get("selects", {}).values() for opts in targets.values() for o in opts]
    options += scene.get("buttons", [])
    return {json.dumps(o["action"], sort_keys=True) for o in options}


def _scene(game: Game[Any, Any, Any], state: Any, report: CheckReport, rng: random.Random, seen: list[Any]) -> None:
    for viewer, actions in _viewers(game, state):
        _count(report, "scene")
        scene = game.view(state, viewer)
        if not isinstance(scene, dict):
            raise _Stop(CheckFailure("scene", f"view() returned {_repr(scene)}, not a scene: a dict, as "
                                              "board_view(self, state, seat, ...) or Scene() make it", viewer))
        json.dumps(scene)
        offered = _options(scene)
        legal = {json.dumps(a.to_json(), sort_keys=True) for a in actions}
        if offered != legal:
            extra = sorted(offered - legal)[:1]
            missing = sorted(legal - offered)[:1]
            what = f"offers {extra[0]}, which is not legal" if extra else f"does not offer the legal {missing[0]}"
            raise _Stop(CheckFailure("scene", f"the board {what}", viewer))
        for action in actions:
            if game.action_from_json(json.loads(json.dumps(action.to_json()))) != action:
                raise _Stop(CheckFailure("scene", f"{action}'s JSON does not read back as the same action", viewer))
        ids = [item["id"] for item in scene.get("items", []) if "id" in item]
        if len(ids) != len(set(ids)):
            raise _Stop(CheckFailure("scene", "two items of the board share an id", viewer))


_scene.property = "scene"  # type: ignore[attr-defined]


def _notation(game: Game[Any, Any, Any], state: Any, report: CheckReport, rng: random.Random,
              seen: list[Any]) -> None:
    for viewer, actions in _viewers(game, state):
        _count(report, "notation")
        written = [game.notation(state, action, viewer) for action in actions]
        if len(set(written)) != len(written):
            twice = next(w for w in written if written.count(w) > 1)
            raise _Stop(CheckFailure("notation", f"two legal actions are both written {twice!r}", viewer))


_notation.property = "notation"  # type: ignore[attr-defined]


def _secrecy(game: Game[Any, Any, Any], state: Any, report: CheckReport, rng: random.Random,
             seen: list[Any]) -> None:
    from .bots import RandomBot, choose_for
    for seat in range(len(game.seats())):
        other = game.determinize(state, seat, random.Random(rng.random()))
        _count(report, "secrecy: board")
        board, redrawn = game.view(state, seat), game.view(other, seat)
        if board != redrawn:
            where, one, two = _first_difference(board, redrawn)
            hint = ""
            if game.to_move(state) != game.to_move(other):
                hint = (f"; redrawing what it may not see changed whose turn it is ({_who(game, state)} / "
                        f"{_who(game, other)}): a hidden value that means 'not drawn yet' should be None, "
                        f"which determinize leaves alone")
            raise _Stop(CheckFailure("secrecy: board", "two positions this seat cannot tell apart look different "
                                                       f"on its board: it shows something the seat may not know "
                                                       f"({where}: {one} / {two}){hint}", seat))
        _count(report, "secrecy: choices")
        if game.legal_actions(state, seat) != game.legal_actions(other, seat):
            raise _Stop(CheckFailure("secrecy: choices", "two positions this seat cannot tell apart offer it "
                                                         "different actions", seat))
        _count(report, "secrecy: determinize")
        if game.determinize(state, seat, random.Random(1)) != game.determinize(other, seat, random.Random(1)):
            raise _Stop(CheckFailure("secrecy: determinize", "determinize depends on what the seat may not see",
                                     seat))
        mover = game.to_move(state)
        if mover == seat or (mover == SIMULTANEOUS and game.legal_actions(state, seat)):
            # the random bot at every position; every other bot registered for the game (greedy
            # bots, the search bot with a few iterations, a designer's own) at one in BOT_SAMPLE
            makers: list[Callable[[], Any]] = [lambda: RandomBot(seed=2)]
            if rng.random() < 1 / BOT_SAMPLE:
                makers += _registered_bots(game, seat)
            for make in makers:
                _count(report, "secrecy: bots")
                bots = [make(), make()]      # two fresh bots: the same seed, the same generator state
                try:
                    choices = [choose_for(bot, game, s, seat, random.Random(3)) for bot, s in zip(bots, (state, other))]
                except Exception as exc:     # a bot stopped by the game (a world the rules cannot reach...)
                    name = getattr(bots[0], "name", None) or type(bots[0]).__name__
                    raise _Stop(CheckFailure("secrecy: bots", f"the bot {name!r} raised, choosing for this seat: "
                                                              f"{_one_line(exc)}", seat)) from None
                if choices[0] != choices[1]:
                    name = getattr(bots[0], "name", None) or type(bots[0]).__name__
                    raise _Stop(CheckFailure("secrecy: bots", f"the bot {name!r} chose {choices[0]} and "
                                                              f"{choices[1]} in two positions its seat cannot "
                                                              "tell apart: it reads what the seat may not know",
                                             seat))


def _first_difference(a: Any, b: Any, path: str = "view") -> tuple[str, str, str]:
    """Where two JSON-like values first differ: the path and both values, shortened."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if a.get(key) != b.get(key):
                return _first_difference(a.get(key), b.get(key), f"{path}[{key!r}]")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return path, repr(a)[:80], repr(b)[:80]


def _who(game: Game[Any, Any, Any], state: Any) -> str:
    mover = game.to_move(state)
    return {None: "over", CHANCE: "chance", SIMULTANEOUS: "orders"}.get(mover, f"seat {mover}")


#: the bots registered for a game besides the random bot are checked at one secrecy position in this many
#: (on average)
BOT_SAMPLE = 8


def _registered_bots(game: Game[Any, Any, Any], seat: int) -> list[Callable[[], Any]]:
    """Makers of every bot registered for ``game`` that plays ``seat``, but the random bot, each
    made cheaply and seeded (the search bot with 4 iterations)."""
    from .bots import RandomBot, bots_for
    makers: list[Callable[[], Any]] = []
    for name, maker in bots_for(game).items():
        if maker is RandomBot:
            continue
        for options in ({"iterations": 4, "seed": 2}, {"seed": 2}, {}):
            try:
                maker(**options)
            except (TypeError, ValueError):
                continue
            if maker(**options).plays(game, seat):
                makers.append(functools.partial(maker, **options))
            break
    return makers


_secrecy.property = "secrecy: board"  # type: ignore[attr-defined]


def _log(game: Game[Any, Any, Any], state: Any, report: CheckReport, rng: random.Random, seen: list[Any]) -> None:
    """A log never tells a seat more than its board: two actions (of one actor, or two chance
    results) whose results look the same to a seat read the same to it."""
    mover = game.to_move(state)
    if mover is None:
        return
    if mover == CHANCE:
        outcomes = game.chance_outcomes(state)
        if isinstance(outcomes, UncountedChance):
            return
        actions = [a for a, _ in outcomes][:16]
    else:
        actions = _sample(_legal(game, state), 10, rng)
    afters = {}
    for action in actions:
        afters[action] = game.apply(state, action, check=False)
    for seat in range(len(game.seats())):
        groups: dict[str, list[Any]] = {}
        for action in actions:
            if mover != CHANCE and game.seat_of(state, action) == seat:
                continue
            after = afters[action]
            key = json.dumps([game.view(after, seat),
                              [a.to_json() for a in game.legal_actions(after, seat)]
                              if game.to_move(after) not in (None, CHANCE) else []], sort_keys=True)
            groups.setdefault(key + f"|{game.seat_of(state, action)}", []).append(action)
        for group in groups.values():
            _count(report, "secrecy: log")
            written = {game.notation(state, action, seat) for action in group}
            if len(written) > 1:
                shown = sorted(written)[:2]
                raise _Stop(CheckFailure("secrecy: log", f"the move log tells this seat more than its board: "
                                                         f"{shown[0]!r} and {shown[1]!r} look the same on its board",
                                         seat))


_log.property = "secrecy: log"  # type: ignore[attr-defined]


def _perfect(game: Game[Any, Any, Any], state: Any, report: CheckReport, rng: random.Random,
             seen: list[Any]) -> None:
    """A game that declares perfect information shows every seat that cannot act now the same
    board (the seat that acts may also see its targets): no seat sees a secret of its own."""
    if game.to_move(state) is None:
        return
    idle = [seat for seat in range(len(game.seats())) if not game.legal_actions(state, seat)]
    if len(idle) < 2:
        return
    _count(report, "perfect information")
    first = _shown_items(game.view(state, idle[0]))
    for seat in idle[1:]:
        if _shown_items(game.view(state, seat)) != first:
            raise _Stop(CheckFailure("perfect information", f"the game declares perfect information, but seats "
                                                            f"{idle[0]} and {seat} see different boards: declare "
                                                            f"GameType(information='imperfect')", seat))


_perfect.property = "perfect information"  # type: ignore[attr-defined]


def _shown_items(scene: dict[str, Any]) -> list[Any]:
    keep = ("kind", "board", "at", "text", "fill", "shape", "color", "label", "title")
    return [{k: item.get(k) for k in keep} for item in scene.get("items", [])]


def _sample(items: list[Any], k: int, rng: random.Random) -> list[Any]:
    return items if len(items) <= k else rng.sample(items, k)


# ------------------------------------------------------------------ whole-game properties

def _undo_redo(game: Game[Any, Any, Any], actions: list[Any], report: CheckReport) -> None:
    from .session import Session
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
    from .kernel.registry import _REGISTRY
    from .session import Session
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


def _unused(*_: Iterable[Any]) -> None:
    """(keeps linters quiet about re-exported helpers)"""
