"""The registry: games by name, checked when they register, loaded from anywhere.

A game registers with the :func:`register` decorator; the kit's games live in
:mod:`playtest.games`, its worked examples in :mod:`playtest.examples`, and an installed
package may add games through the ``playtest.games`` entry point group (``pip install my-game``
makes ``playtest.load("my_game")`` work). One broken game module is reported, never the end of
``import playtest`` for the others.

``register`` refuses a game whose secrets could leak, naming the kernel rule it breaks:

* **K1** simultaneous orders are secret until revealed unless declared public;
* **K2** a game with hidden information needs declared hidden fields or its own ``determinize``
  (otherwise bots would be handed the true state);
* **K3** a registered game needs a name, seats and the rule methods.
"""

from __future__ import annotations

import dataclasses
import random
import re
import warnings
from typing import Any, TypeVar

from .fieldtypes import DeclarationError
from .game import Game, _overrides
from .outcome import CHANCE, SIMULTANEOUS, UncountedChance
from .params import Params, _declared
from .values import show_value

__all__ = ["register", "games", "game_class", "load", "broken_games", "RegistrationError"]

_REGISTRY: dict[str, type[Game[Any, Any, Any]]] = {}
_UNLISTED: set[str] = set()
#: modules or entry points that failed to import: name -> the error in one line
_BROKEN: dict[str, str] = {}
_LOADED = False

G = TypeVar("G", bound=type)


class RegistrationError(DeclarationError):
    """A game ``register`` refuses; the message names the game and the kernel rule it breaks."""


RegistrationError.__module__ = "playtest"


def register(cls: Any = None, *, listed: bool = True) -> Any:
    """Class decorator that makes a game available to :func:`load` (and session files).

    ``listed=False`` keeps an example or test game out of :func:`games`. The game is checked
    first (see the module docstring); a game that fails is refused with the rule it breaks.
    """
    def wrap(cls: G) -> G:
        _check(cls)
        # a designer's game: the kit's own games first (once, ~0.05 s), so that one named like a kit game
        # is refused here, naming it, instead of breaking the kit's lazy import later (which blamed the
        # kit's game for the name and left the examples after it unknown); the kit's own modules register
        # while playtest itself is being imported, and are imported by _import_games anyway
        if not str(getattr(cls, "__module__", "")).startswith("playtest."):
            _import_games()
        _name_free(cls)
        _own_params(cls)
        _REGISTRY[cls.name] = cls  # type: ignore[attr-defined]
        (_UNLISTED.discard if listed else _UNLISTED.add)(cls.name)  # type: ignore[attr-defined]
        return cls
    return wrap if cls is None else wrap(cls)


def _name_free(cls: Any) -> None:
    """K3: a name already taken by another game is refused (a designer's game named ``source`` would
    otherwise replace the kit's, and the kit's session files would replay under other rules). The
    same class defined again (a notebook cell run twice, a module reloaded) replaces itself."""
    old = _REGISTRY.get(cls.name)
    if old is None or old is cls or (old.__module__, old.__qualname__) == (cls.__module__, cls.__qualname__):
        return
    raise RegistrationError(f"game {cls.__name__}: the name {cls.name!r} is already {old.__module__}."
                            f"{old.__qualname__}'s; choose another (it is written in session files) "
                            f"(kernel rule K3)")


def _own_params(cls: Any) -> None:
    """Give the game a Params class of its own, so naming it in messages touches no other game.

    (A game that reuses a shared Params class, e.g. the bare base for a game without
    parameters, gets a subclass; before, ``register`` wrote the name onto the shared class.)
    """
    params = cls.Params
    if isinstance(params, type) and issubclass(params, Params):
        _declared(params)           # (a Params written without @dataclass is one from here on)
    owner = params.__dict__.get("_playtest_owner")
    if params is not Params and (owner is None or owner is cls or getattr(owner, "name", None) == cls.name):
        params._playtest_owner = cls
        params.game_name = cls.name
        return
    sub: Any = dataclasses.dataclass(frozen=True)(type(f"{cls.__name__}Params", (params,), {
        "__module__": cls.__module__, "__qualname__": f"{cls.__qualname__}.Params"}))
    sub._playtest_owner = cls
    sub.game_name = cls.name
    cls.Params = sub


def _check(cls: Any) -> None:
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise RegistrationError(f"register takes a Game subclass, not {cls!r}")
    name = cls.__dict__.get("name") or getattr(cls, "name", "")
    where = f"game {cls.__name__}"
    if not name or not isinstance(name, str):
        raise RegistrationError(f"{where}: a registered game needs a name (kernel rule K3)")
    if not re.fullmatch(r"[a-z][a-z0-9_:\-]{0,63}", name):
        raise RegistrationError(f"{where}: name {name!r} must be lower-case letters, digits and _ "
                                f"(it is written in session files) (kernel rule K3)")
    if not (_overrides(cls, "seats") or cls.seat_names):
        raise RegistrationError(f"{where}: declare seat_names or write seats() (kernel rule K3)")
    declared = cls.seat_names
    for seat_names in (declared.values() if isinstance(declared, dict) else (declared,)) if declared else ():
        if not all(isinstance(n, str) and n.strip() for n in seat_names) or len(set(seat_names)) != len(seat_names):
            raise RegistrationError(f"{where}: seat_names {show_value(tuple(seat_names), 120)} must be texts, a name "
                                    f"of its own for each seat: the table's seat menus and curtain, the move "
                                    f"log and notes tell seats apart by name (kernel rule K3)")
    for method, alternative in (("to_move", None), ("outcome", None),
                                ("legal_actions", "candidates"), ("apply", "effect")):
        if not _overrides(cls, method) and not (alternative and _overrides(cls, alternative)):
            need = f"{method}()" + (f" or {alternative}()" if alternative else "")
            raise RegistrationError(f"{where}: it must write {need} (kernel rule K3)")
    game_type = cls.game_type
    _check_params_bounded(cls, where, strict=game_type is not None)
    params = getattr(cls, "Params", None)
    if game_type is not None and isinstance(params, type) and issubclass(params, Params):
        try:                        # playtest.load(name) with no parameters makes these
            params.create()
        except ValueError as err:
            raise RegistrationError(f"{where}: its default parameters are refused by its own Params.check "
                                    f"({str(err)[:200]}), so playtest.load({name!r}) would fail: make the "
                                    f"defaults agree") from None
    if game_type is not None and game_type.dynamics == "simultaneous":
        if not _overrides(cls, "pending_seats"):
            raise RegistrationError(f"{where}: it gives simultaneous orders but writes no pending_seats() (the "
                                    f"seats that still have to give their order when to_move gives SIMULTANEOUS) "
                                    f"(kernel rule K3)")
        if (not _overrides(cls, "seat_of") and isinstance(cls.action_types, tuple) and cls.action_types
                and not any("seat" in getattr(kind, "__annotations__", {}) or hasattr(kind, "seat")
                            for kind in cls.action_types)):
            raise RegistrationError(
                f"{where}: it gives simultaneous orders, but none of its actions has a field called seat (an "
                f"order names the seat that gives it: `seat: int` in the action, or write seat_of()) (kernel rule K3)")
    own_determinize = _overrides(cls, "determinize")
    hidden = cls.state_type is not None and bool(cls.state_type._hidden)
    if game_type is not None:
        if game_type.secret and not (hidden or own_determinize):
            what = ("hidden information" if game_type.information == "imperfect"
                    else "secret simultaneous orders")
            raise RegistrationError(
                f"{where}: it has {what} but declares no hidden state field and writes no determinize(), "
                f"so bots would be handed the true state (kernel rule K2: a game with hidden information needs "
                f"declared hidden fields, e.g. field(..., visible='owner'), or its own determinize)")
        declared_state = cls.state_type
        if hidden and not game_type.secret and declared_state is not None:
            names = ", ".join(f"{declared_state.__name__}.{spec.name}" for spec in declared_state._hidden)
            raise RegistrationError(
                f"{where}: it declares hidden state ({names}) but its game type has no secrets (perfect "
                f"information{', public orders' if game_type.dynamics == 'simultaneous' else ''}), so the table "
                f"and the bots would see it (kernel rule K2: declare GameType(information='imperfect'), or make "
                f"the fields visible='all')")
        _check_redrawable(cls, where, own_determinize)
        return
    # a game written against the older protocol: no game type to read, so look at what it does
    if cls.has_secrets and not own_determinize and not hidden:
        raise RegistrationError(
            f"{where}: has_secrets = True but the default determinize hands bots the true state "
            f"(kernel rule K2: a game with hidden information needs declared hidden fields or its own "
            f"determinize)")
    if not cls.has_secrets and _plays_simultaneously(cls):
        raise RegistrationError(
            f"{where}: it has simultaneous steps but declares no secrets, so a seat's bot would read the "
            f"other seats' orders (kernel rule K1: simultaneous orders are secret until revealed unless "
            f"declared public). Declare game_type = GameType(dynamics='simultaneous') (secret orders, with "
            f"hidden fields or a determinize), or GameType(dynamics='simultaneous', public_orders=True)")


def _check_params_bounded(cls: Any, where: str, strict: bool = True) -> None:
    """K4: a number parameter says its range. A session file, a tester's link or the parameter panel
    may set any value a declaration allows, and a board of 10**9 cells costs the kernel what it costs.

    A game written against the older protocol (no ``game_type``) registered without K4 before it
    existed, so there (``strict=False``) the kernel warns instead of refusing: designers' existing
    games keep working, and ``check_game`` reports the same words as a failure."""
    problem = params_problem(cls, where)
    if problem is None:
        return
    if strict:
        raise RegistrationError(problem)
    warnings.warn(f"playtest: {problem}", UserWarning, stacklevel=4)


def params_problem(cls: Any, where: str) -> str | None:
    """What breaks kernel rule K4 in ``cls``'s parameters (the words ``register`` refuses or warns
    with), or ``None``."""
    params = getattr(cls, "Params", None)
    if not (isinstance(params, type) and issubclass(params, Params)):
        return None
    if getattr(params, "ranges_checked_by", None):    # another library checks the values (OpenSpiel's games)
        return None
    declared = {spec.name for spec in params.specs()}
    for plain in dataclasses.fields(params):
        if plain.name not in declared:
            return (
                f"{where}: {params.__name__}.{plain.name} is not declared with param(): write "
                f"`{plain.name}: ... = param(default, help, min=..., max=...)` to make it a rule parameter (the "
                f"table's panel, validation and session files read only those), or ClassVar for a constant "
                f"(kernel rule K4)")
    for spec in params.specs():
        number = isinstance(spec.default, (int, float)) and not isinstance(spec.default, bool)
        if number and spec.choices is None and (spec.min is None or spec.max is None):
            missing = " and ".join(b for b, v in (("min=", spec.min), ("max=", spec.max)) if v is None)
            return (
                f"{where}: parameter {spec.name} has no {missing} (kernel rule K4: a number parameter declares "
                f"the range its rules make sense for, e.g. param({show_value(spec.default)}, ..., min=..., "
                f"max=...), or its choices=; a session file or the parameter panel may set any value it allows)")
    return None


def _check_redrawable(cls: Any, where: str, own_determinize: bool) -> None:
    """K2, second half: the default determinize must be able to redraw every hidden field."""
    if own_determinize or cls.state_type is None:
        return
    for spec in cls.state_type._hidden:
        problem = spec.redraw_problem()
        if problem:
            raise RegistrationError(
                f"{where}: {problem}, so the default determinize cannot give its bots a world (kernel rule K2: "
                f"a hidden field is redrawn from its pool, choices or min..max; or write determinize())")


def _plays_simultaneously(cls: Any, steps: int = 300) -> bool:
    """Whether a short random game of ``cls`` (default parameters) reaches a simultaneous step."""
    try:
        game = cls()
        state = game.initial_state()
        rng = random.Random(0)
        for _ in range(steps):
            mover = game.to_move(state)
            if mover is None:
                return False
            if mover == SIMULTANEOUS:
                return True
            if mover == CHANCE:
                outcomes = game.chance_outcomes(state)
                action = outcomes.sample(rng) if isinstance(outcomes, UncountedChance) else rng.choice(outcomes)[0]
            else:
                actions = game.legal_actions(state)
                if not actions:
                    return False
                action = rng.choice(actions)
            state = game.apply(state, action)
    except Exception:        # a game that cannot even play is check_game's to report, not register's
        return False
    return False


def _import_games() -> None:
    """Import every module of :mod:`playtest.games` and :mod:`playtest.examples`, and the
    installed ``playtest.games`` entry points; a module that fails is reported, not fatal."""
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    import playtest.examples  # noqa: F401  (the worked examples, unlisted)
    import playtest.games  # noqa: F401  (importing registers every game)
    found: Any
    try:
        from importlib.metadata import entry_points
        found = entry_points(group="playtest.games")
    except Exception:        # pragma: no cover (a broken metadata install)
        found = ()
    for entry in found:
        if entry.name in _REGISTRY:
            continue
        try:
            loaded = entry.load()
            if isinstance(loaded, type) and issubclass(loaded, Game) and loaded.name not in _REGISTRY:
                register(loaded)
        except Exception as exc:
            report_broken(f"entry point {entry.name} ({entry.value})", exc)


def report_broken(what: str, exc: BaseException) -> None:
    """Note a game module that failed to load, and warn once; the other games load on."""
    line = f"{type(exc).__name__}: {exc}".splitlines()[0][:300]
    if what not in _BROKEN:
        _BROKEN[what] = line
        warnings.warn(f"playtest: the game module {what} failed to load and is left out: {line}",
                      RuntimeWarning, stacklevel=3)


def broken_games() -> dict[str, str]:
    """The game modules that failed to load, each with its error in one line.

    >>> isinstance(broken_games(), dict)
    True
    """
    _import_games()
    return dict(_BROKEN)


def games() -> list[str]:
    """The names of the available games.

    >>> "eat_thyself" in games()
    True
    """
    _import_games()
    return sorted(name for name in _REGISTRY if name not in _UNLISTED)


def game_class(name: str) -> type[Game[Any, Any, Any]]:
    """The class of the game called ``name``."""
    if not isinstance(name, str):
        raise ValueError(f"a game is named by text, not {type(name).__name__}")
    if name.startswith("openspiel:") and name not in _REGISTRY:   # OpenSpiel's games (imported on use)
        from ..interop.spiel_game import spiel_game_class
        return spiel_game_class(name)
    if name not in _REGISTRY:
        _import_games()
    if name not in _REGISTRY:
        shown = name if len(name) <= 60 else name[:57] + "..."
        raise ValueError(f"unknown game {shown!r} (a game of your own is known once the code that defines it, "
                         f"decorated with @register, has run); the games are: {', '.join(sorted(_REGISTRY))}")
    return _REGISTRY[name]


def load(name: str, **params: Any) -> Game[Any, Any, Any]:
    """The game called ``name`` with these parameter values (validated).

    >>> game = load("eat_thyself", num_players=3)
    >>> game.params.num_players
    3
    >>> load("eat_thyself", num_players=5)
    Traceback (most recent call last):
    ...
    ValueError: eat_thyself parameter num_players=5 is not allowed: it must be a whole number from 2 to 3
    """
    return game_class(name)(**params)

