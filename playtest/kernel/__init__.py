"""The kernel: the game protocol and the declarations a game is made of. It knows no game and
no widget; everything else (sessions, tables, the lab, analytics, interop) drives games through it.

* :mod:`.values`: JSON values, bounded; :mod:`.fieldtypes`: declared field types;
* :mod:`.refusal`: :class:`Refusal` and the errors that carry it;
* :mod:`.actions`: declared actions; :mod:`.state`: declared state; :mod:`.keyed`: fields written
  as objects by seat or board name; :mod:`.params`: parameters;
* :mod:`.gametype`: the declared game type; :mod:`.outcome`: seats, outcomes, chance;
* :mod:`.game`: the :class:`Game` base with the legality template;
* :mod:`.registry`: ``register``, ``load`` and the checks that keep secrets safe.
"""

from .actions import Action, EndTurn, action_fields, check_action_types, snake_case
from .fieldtypes import DeclarationError
from .game import Game
from .keyed import ByName, blank
from .gametype import GameType
from .outcome import (CHANCE, DRAW, SIMULTANEOUS, Outcome, Seat, UncountedChance, draw_outcome)
from .params import Params, ParamSpec, param
from .refusal import IllegalAction, MalformedAction, Refusal, refuse
from .registry import RegistrationError, broken_games, game_class, games, load, register
from .state import State, field, per_seat
from .values import show_value

__all__ = ["Action", "EndTurn", "action_fields", "check_action_types", "snake_case", "DeclarationError",
           "Game", "GameType", "CHANCE", "DRAW", "SIMULTANEOUS", "Outcome", "Seat", "UncountedChance",
           "draw_outcome", "Params", "ParamSpec", "param", "IllegalAction", "MalformedAction", "Refusal",
           "refuse", "RegistrationError", "broken_games", "game_class", "games", "load", "register", "State",
           "field", "per_seat", "show_value", "ByName", "blank"]
