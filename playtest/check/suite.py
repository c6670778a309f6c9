"""``check_game``: the conformance suite's driver. It plays the random games, runs each property
at a spread of their positions (in :data:`~playtest.check.PROPERTIES` order) and over the whole
games, and keeps one failure per property at its shortest history."""

from __future__ import annotations

import random
import time
from typing import Any, Callable

from ..kernel import CHANCE, Game, load
from ..kernel.game import _overrides
from ..kernel.registry import params_problem
from .actions import _illegal_refused, _listed_accepted, _replayed, _seats_lists
from .messages import _one_line, _written
from .playout import _playout
from .plays import _random_history
from .positions import _chance_listed, _legal, _spread, _states
from .records import _json, _save_load, _undo_redo
from .report import PROPERTIES, CheckFailure, CheckReport, _count, _keep, _Stop
from .secrecy import _log, _perfect, _secrecy
from .shortcuts import _orders, _runs, _sampled_legal
from .views import _notation, _scene


def check_game(game_or_name: Game[Any, Any, Any] | str | type, examples: int = 20, seed: int = 0,
               max_steps: int | None = None, positions: int = 40, **params: Any) -> CheckReport:
    """Run the conformance suite on a game over ``examples`` random games (:mod:`playtest.check`
    lists the properties).

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
    if _overrides(type(game), "all_orders"):
        checkers.append(_orders)
    if game.has_secrets:
        checkers += [_secrecy, _log]
    elif game.game_type is not None and not game.game_type.secret:
        checkers.append(_perfect)
    for actions, _ in histories:
        spread = _spread(len(actions) + 1, positions)
        try:
            states, changed = _replayed(game, actions, set(spread), report)
        except Exception as exc:        # the game raised replaying a history it played through once
            _keep(failed, CheckFailure("plays", f"the game raised replaying a random game it had played "
                                                f"(the same actions from the start): {_one_line(exc)}"))
            continue
        if changed is not None:         # an effect changed the position it was played from: the
            first, failure = changed    # positions replayed are not to be trusted, nor their checks
            failure.history, failure.actions = _written(game, states, actions[:first])
            _keep(failed, failure)
            continue
        for index in spread:
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
