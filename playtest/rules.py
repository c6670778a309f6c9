"""The game protocol, as the games and older code import it: every name lives in
:mod:`playtest.kernel` (one concern per file) and is re-exported here, so
``from playtest.rules import Game, Action, param`` keeps working.

Every game in :mod:`playtest.games` is a subclass of :class:`Game` whose rules
are pure Python: no widgets, files or notebooks. The session, the widgets and
the bots all drive a game through the same few methods::

    state = game.initial_state()
    while game.to_move(state) is not None:        # None: the game is over
        action = random.choice(game.legal_actions(state))
        state = game.apply(state, action)          # a new state; the old one is untouched
    game.outcome(state)

Parameters are declared once per game, as a frozen dataclass whose fields are
made with :func:`param`; validation, the table's parameter panel and the
README's tables are all generated from that declaration.
"""

from __future__ import annotations

from typing import Any, Sequence

from .kernel import (CHANCE, DRAW, SIMULTANEOUS, Action, DeclarationError, EndTurn, Game, GameType,
                     IllegalAction, MalformedAction, Outcome, Params, ParamSpec, Refusal, RegistrationError,
                     Seat, State, UncountedChance, action_fields, broken_games, check_action_types,
                     draw_outcome, field, game_class, games, load, param, per_seat, refuse, register,
                     show_value)
from .kernel.registry import _REGISTRY, _UNLISTED, _import_games
from .kernel.values import from_json_value as _from_json_value
from .kernel.values import to_json_value as _to_json_value

__all__ = [
    "CHANCE", "SIMULTANEOUS", "DRAW", "IllegalAction", "MalformedAction", "Action", "EndTurn", "Outcome", "Seat",
    "Params", "ParamSpec", "param", "Game", "UncountedChance", "register", "games", "load",
    "game_class", "GameType", "State", "field", "Refusal", "refuse", "DeclarationError", "RegistrationError",
    "broken_games", "per_seat", "action_fields", "check_action_types", "draw_outcome", "show_value",
]


def _ensure_loaded() -> None:
    """Import every game (the kit's, the examples, installed entry points)."""
    _import_games()


def check_sequence(value: Sequence[Any], what: str) -> None:
    """Raise ``ValueError`` unless ``value`` is a list or tuple (for state loaders)."""
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"{what} must be a list, not {value!r}")


_ = (_REGISTRY, _UNLISTED, _from_json_value, _to_json_value)
