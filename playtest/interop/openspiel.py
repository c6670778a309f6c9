"""Kit game -> OpenSpiel: ``register(name_or_game, **params)`` gives a ``pyspiel`` game.

The kit game is registered with ``pyspiel.register_game`` as the Python game
``playtest_<name>`` (its parameters are OpenSpiel game parameters, a list parameter written as
its numbers separated by spaces), and loaded with the parameters given; parameters that change
its game type (another number of players) or other exploration options register it under a name
of its own, ``playtest_<name>__<the changed values>`` (see :func:`register`). What OpenSpiel sees
comes from :class:`playtest.interop.core.KitShape`:

* **type**: the declared ``game_type`` (dynamics, chance, information, utility, longest game);
  a game that declares none gets them inferred from seeded random games (simultaneous steps
  met, secrets declared with ``has_secrets``, the sum of the returns met, three times the
  longest game met plus 20 as its longest game: an estimate, not a bound);
* **actions**: the stable :class:`playtest.kernel.encoding.ActionEncoding`; Goofspiel-like
  one-action orders make a simultaneous node; orders built part by part make a simultaneous
  node over the complete orders when they can be listed (Secret Bid: at most
  :data:`playtest.interop.orders.MAX_JOINT_ORDERS` joint orders a step, numbered by an
  :class:`~playtest.interop.orders.OrderTable`; an action's name is its parts, ``bid 0 2, stake
  0 yes, submit 0``), and otherwise the documented sequential-with-hidden-orders form (Back to
  the Wall; see :mod:`playtest.interop.core` for the four forms); a decision among several kinds
  of action whose listings are large (Then There Was One's wall turn, Back to the Wall's parts)
  is *staged*: the kind first (``kind build``), then which one (``stages`` of :func:`register`);
* **chance**: the listed outcomes with their probabilities; an uncounted chance step as
  equally likely seeded draws;
* **information state / observation strings**: the seat's move log in the game's notation
  for that seat, then its redacted position (or its own board, for a game without a declared
  state); the public observer reads the table's (``seat=None``) view;
* **observation tensor**: the planes of :mod:`playtest.interop.board` when the game draws a
  board, none otherwise;
* serialization: OpenSpiel's own (the history of ids; seeded draws replay identically).

>>> import pyspiel
>>> from playtest.interop.openspiel import register
>>> game = register("kuhn_poker")
>>> game.get_type().short_name, game.num_distinct_actions(), game.max_game_length()
('playtest_kuhn_poker', 18, 5)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), state.chance_outcomes()[0][1]
(True, 0.3333333333333333)
"""

from __future__ import annotations

import hashlib
import json
import re
from bisect import bisect_left
from typing import Any, cast

from ..kernel import Game
from ._require import need
from .board import board_spec, board_tensor
from .core import CHANCE_ID, SIM, TERMINAL, KitPlay, KitShape, observation_text, resolve_game
from .runs import _run_ids, one_live_run

pyspiel = need("pyspiel")
import numpy as np  # noqa: E402  (numpy comes with open_spiel)

__all__ = ["register", "short_name", "kit_state"]

_GameBase: Any = pyspiel.Game
_StateBase: Any = pyspiel.State

# per registered name: the kit class, the exploration options, the kit parameters a load without
# them gets (those of a name of its own), and the form OpenSpiel's registry holds
_CLASSES: dict[str, type[Game[Any, Any, Any]]] = {}
_OPTIONS: dict[str, dict[str, Any]] = {}
_DEFAULTS: dict[str, dict[str, Any]] = {}
_FORMS: dict[str, dict[str, Any]] = {}
_SPECS: dict[str, dict[str, Any]] = {}
# the kit's pseudo-seats are OpenSpiel's player ids (KitSpielState.current_player returns them as they are)
if (TERMINAL, CHANCE_ID, SIM) != (pyspiel.PlayerId.TERMINAL, pyspiel.PlayerId.CHANCE, pyspiel.PlayerId.SIMULTANEOUS):
    raise ImportError("this open_spiel numbers its pseudo-players differently from the kit's adapter")


def short_name(game: Game[Any, Any, Any]) -> str:
    """The OpenSpiel name a kit game registers under: ``playtest_<name>``."""
    return "playtest_" + game.name.replace(":", "_").replace("-", "_")


def _spec_value(value: Any) -> Any:
    # OpenSpiel writes parameters as name=value,...: a list is its JSON items separated by spaces
    if isinstance(value, tuple):
        return " ".join(json.dumps(v) for v in value)
    return value


def _flat(value: Any) -> bool:
    return not isinstance(value, tuple) or all(isinstance(v, (bool, int, float)) for v in value)


def _param_spec(game: Game[Any, Any, Any]) -> dict[str, Any]:
    """The kit parameters OpenSpiel can carry (numbers, true/false, text, flat lists of numbers),
    with ``game``'s values as their defaults."""
    out: dict[str, Any] = {}
    for spec in game.Params.specs():
        if isinstance(spec.default, (bool, int, float, str, tuple)) and _flat(spec.default):
            value = getattr(game.params, spec.name)
            if isinstance(value, (bool, int, float, str, tuple)) and _flat(value):
                out[spec.name] = _spec_value(value)
    return out


def _kit_params(cls: type[Game[Any, Any, Any]], params: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for spec in cls.Params.specs():
        if spec.name in params:
            value = params[spec.name]
            if isinstance(spec.default, tuple) and isinstance(value, str):
                try:
                    value = tuple(json.loads(v) for v in value.split())
                except ValueError:
                    raise ValueError(f"{cls.name} parameter {spec.name}: {value[:60]!r} is not a list of "
                                     f"numbers separated by spaces") from None
            out[spec.name] = value
    return out


def register(name_or_game: Any, *, explore_games: int = 20, seed: int = 0, draws: int = 32,
             max_parts: int = 12, stages: str = "auto", **params: Any) -> Any:
    """Register a kit game with OpenSpiel and return it loaded with ``params`` (a ``pyspiel.Game``).

    ``name_or_game`` is a kit game's name, class or object. ``explore_games`` and ``seed`` set
    the exploration the action encoding (and an undeclared type) come from; ``draws`` how many
    seeded draws stand for an uncounted chance step; ``max_parts`` after how many parts of an
    order built part by part only the completing actions are offered; ``stages`` whether a
    decision among several kinds of action is made in two steps (``"kinds"``: first the kind,
    then which one; ``"none"``; ``"auto"``, the default: staged when such decisions offer 32
    actions or more on average, see :class:`playtest.interop.core.KitShape`). Registering again
    is cheap.

    OpenSpiel registers a name once, with one game type (players, dynamics, chance,
    information, utility, tensor). The game with its default parameters and options takes
    ``playtest_<name>``, and so do parameters that keep its type (a loaded game's numbers of
    actions and longest game follow its parameters). Parameters that change the type (another
    number of players), parameters OpenSpiel cannot carry, or other options get a name of their
    own, ``playtest_<name>__<the changed values>``, registered with those values as its
    defaults; the returned game's ``get_type().short_name`` is that name. A class redefined
    under a registered name with another type is refused (``ValueError`` naming what changed).

    >>> two, three = register("eat_thyself"), register("eat_thyself", num_players=3)
    >>> two.get_type().short_name, three.get_type().short_name, three.num_players()
    ('playtest_eat_thyself', 'playtest_eat_thyself__num_players_3', 3)
    >>> pyspiel.load_game("playtest_eat_thyself__num_players_3").num_players()
    3
    """
    game = resolve_game(name_or_game, **params)
    cls = type(game)
    options = {"explore_games": explore_games, "seed": seed, "draws": draws, "max_parts": max_parts,
               "stages": stages}
    shape = KitShape.of(game, explore_games, seed, draws, max_parts, stages)
    form = _form(game, shape)
    name = short_name(game)
    changed = game.params.changed()
    carried = _param_spec(game)
    own = options != DEFAULT_OPTIONS or any(k not in carried for k in changed)
    if changed and not own:
        plain = cls()
        own = form != _form(plain, KitShape.of(plain, **DEFAULT_OPTIONS))
    if own:
        name, defaults = _own_name(name, changed, options), changed
        registered_as = game
    else:
        defaults = {}
        registered_as = cls() if changed else game
    known = _FORMS.get(name)
    if known is None:
        registered_shape = shape if registered_as is game else KitShape.of(registered_as, **DEFAULT_OPTIONS)
        _SPECS[name] = _param_spec(registered_as)
        pyspiel.register_game(_game_type(name, registered_as, registered_shape, _SPECS[name]), _factory(name))
        _FORMS[name] = known = form           # (the form of registered_as: the same, or the name is its own)
    elif known != form:
        what = ", ".join(f"{k} {known[k]} -> {form[k]}" for k in known if known[k] != form[k])
        raise ValueError(f"{game.name}: OpenSpiel registers a name once, and {name} is registered with another "
                         f"game type ({what}): a class redefined with another form needs a new kernel or another name")
    _CLASSES[name], _OPTIONS[name], _DEFAULTS[name] = cls, options, defaults
    spiel_params = {k: _spec_value(v) for k, v in game.params.to_json(native=True).items() if k in carried}
    return pyspiel.load_game(name, spiel_params)


#: the options :func:`register` explores with unless told otherwise
DEFAULT_OPTIONS: dict[str, Any] = {"explore_games": 20, "seed": 0, "draws": 32, "max_parts": 12, "stages": "auto"}


def _form(game: Game[Any, Any, Any], shape: KitShape) -> dict[str, Any]:
    """What OpenSpiel's registry holds of a game's type, by name (see :func:`_game_type`)."""
    return {"players": shape.num_players, "form": shape.form, "chance": shape.chance,
            "information": shape.information, "utility": shape.utility,
            "observation tensor": board_spec(game) is not None}


def _own_name(base: str, changed: dict[str, Any], options: dict[str, Any]) -> str:
    """``base__<changed values>``, the name of a registration with other parameters or options:
    readable when short, else (or when another registration took the readable one) with a
    digest of the values."""
    values = {**changed, **{k: v for k, v in options.items() if v != DEFAULT_OPTIONS[k]}}

    def text(value: Any) -> str:
        if isinstance(value, (tuple, list)):
            return "_".join(text(v) for v in value)
        return str(value).lower() if isinstance(value, bool) else str(value)

    readable = re.sub(r"[^A-Za-z0-9]+", "_", "_".join(f"{k}_{text(v)}" for k, v in sorted(values.items()))).strip("_")
    digest = hashlib.blake2b(json.dumps(values, sort_keys=True, default=repr).encode(), digest_size=4).hexdigest()
    name = f"{base}__{readable}"
    taken = name in _DEFAULTS and (_DEFAULTS[name], _OPTIONS[name]) != (changed, options)
    if len(readable) > 48 or taken:
        name = f"{base}__{readable[:40]}_{digest}"
    return name


def _factory(name: str) -> type:
    # a class, as OpenSpiel's own Python games register (a closure here crashes the interpreter's exit)
    def init(self: KitSpielGame, params: dict[str, Any] | None = None) -> None:
        KitSpielGame.__init__(self, name, params or {})
    return type(f"KitSpielGame_{name}", (KitSpielGame,), {"__init__": init, "__module__": __name__})


def _game_type(name: str, game: Game[Any, Any, Any], shape: KitShape, spec: dict[str, Any]) -> Any:
    GT = pyspiel.GameType
    return GT(
        short_name=name, long_name=f"playtest {game.title or game.name}",
        dynamics=GT.Dynamics.SIMULTANEOUS if shape.form in ("simultaneous", "orders") else GT.Dynamics.SEQUENTIAL,
        chance_mode=GT.ChanceMode.EXPLICIT_STOCHASTIC if shape.chance else GT.ChanceMode.DETERMINISTIC,
        information=(GT.Information.IMPERFECT_INFORMATION if shape.information == "imperfect"
                     else GT.Information.PERFECT_INFORMATION),
        utility={"zero_sum": GT.Utility.ZERO_SUM, "constant_sum": GT.Utility.CONSTANT_SUM,
                 "general_sum": GT.Utility.GENERAL_SUM}[shape.utility],
        reward_model=GT.RewardModel.TERMINAL,
        max_num_players=shape.num_players, min_num_players=shape.num_players,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=board_spec(game) is not None,
        parameter_specification=spec)


class KitSpielGame(_GameBase):
    """A kit game as a ``pyspiel.Game`` (made by :func:`register`)."""

    def __init__(self, name: str, params: dict[str, Any]):
        cls = _CLASSES[name]
        options = _OPTIONS[name]
        self.kit = cls(**{**_DEFAULTS[name], **_kit_params(cls, params)})
        self.shape = KitShape.of(self.kit, options["explore_games"], options["seed"], options["draws"],
                                 options["max_parts"], options["stages"])
        form = _form(self.kit, self.shape)
        if form != _FORMS[name]:
            known = _FORMS[name]
            what = ", ".join(f"{k} {known[k]} -> {form[k]}" for k in known if known[k] != form[k])
            changed = ", ".join(f"{k}={v!r}" for k, v in self.kit.params.changed().items())
            raise ValueError(f"{name} is registered with another game type than these parameters give ({what}; "
                             f"parameters {changed}): register the game with them "
                             f"(playtest.interop.openspiel.register) for a name of its own")
        self.board = board_spec(self.kit)
        shape = self.shape
        info = pyspiel.GameInfo(
            num_distinct_actions=shape.num_actions,
            max_chance_outcomes=shape.num_chance_outcomes if shape.chance else 0,
            num_players=shape.num_players, min_utility=shape.min_utility, max_utility=shape.max_utility,
            utility_sum=shape.utility_sum, max_game_length=shape.max_length)
        super().__init__(_game_type(name, self.kit, shape, _SPECS[name]), info, params)

    def new_initial_state(self) -> "KitSpielState":
        return KitSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "KitObserver":
        if params:
            raise ValueError(f"{self.kit.name}: observation parameters are not supported, got {params}")
        return KitObserver(self, iig_obs_type)


class KitSpielState(_StateBase):
    """A position of a kit game as a ``pyspiel.State``; ``kit_state(state)`` is the kit's."""

    def __init__(self, game: KitSpielGame, play: KitPlay | None = None):
        super().__init__(game)
        self.play = play if play is not None else KitPlay(game.shape)

    def current_player(self) -> int:
        # OpenSpiel asks several times a step: the kit's answer is cached on the play, and the
        # kit's TERMINAL, CHANCE_ID and SIM are OpenSpiel's own player ids
        who = self.play._current
        return self.play.current() if who is None else who

    def _legal_actions(self, player: int) -> list[int]:
        return self.play.legal_ids(player)

    # OpenSpiel's C++ answers the next queries by calling back into Python (who moves, is it
    # over) four or five times each; a Python caller (MCTS, CFR, an RL loop) gets the same
    # answers here directly. C++ callers still take OpenSpiel's own path.
    def legal_actions(self, player: int | None = None) -> list[int]:
        """OpenSpiel's ``legal_actions`` (the same answer, without the round trips)."""
        play = self.play
        who = play._current
        if who is None:
            who = play.current()
        if who >= 0 and player is None:              # the usual call: the seat to move's
            cached = play._legal.get(who)
            if cached is None:
                if play._plain and not play._memo.on:     # (legal_ids's usual step, inline)
                    runs = play._runner(play.state) if play._runner is not None else None
                    if runs is None or (cached := _run_ids(play._run_memo, play._select_ids, runs,
                                                                 play._run_near)) is None:
                        cached = play._encode(play._list(play.state, who))     # (sorted)
                    play._legal[who] = cached
                elif play._staged and play.stage < 0 and play._runner is not None:   # (legal_ids's staged first step)
                    runs = play._runner(play.state)
                    live = one_live_run(runs)
                    hit = play._run_memo.get((id(live[0]), live[1])) if live is not None else None
                    if hit is not None and hit[0] is live[0]:     # type: ignore[index]
                        cached = play._legal[who] = list(hit[1])
                    else:
                        cached = play._staged_first(who, runs, live)
                else:
                    cached = play.legal_ids(who)
            return cached[:]
        if who == SIM and player is not None and player >= 0:    # a seat's ids at a simultaneous node
            cached = play._legal.get(player)
            return (cached if cached is not None else play.legal_ids(player))[:]
        if who == TERMINAL:
            return []
        if who == CHANCE_ID:
            return [code for code, _ in play.chance_outcomes()]
        if player is None or player == who or (player >= 0 and who == SIM):
            return list(play.legal_ids(who if player is None else player))
        if player < 0:
            return cast("list[int]", super().legal_actions(player))   # OpenSpiel's own error
        return []

    def is_chance_node(self) -> bool:
        who = self.play._current
        return (self.play.current() if who is None else who) == CHANCE_ID

    def is_simultaneous_node(self) -> bool:
        who = self.play._current
        return (self.play.current() if who is None else who) == SIM

    def is_player_node(self) -> bool:
        who = self.play._current
        return (self.play.current() if who is None else who) >= 0

    def chance_outcomes(self) -> list[tuple[int, float]]:
        play = self.play
        got = play._chance       # (listed once per position)
        return list(got if got is not None else play.chance_outcomes())

    def _apply_action(self, action: int) -> None:
        play = self.play
        who = play._current           # (known: OpenSpiel asked who moves just before)
        if who is None:
            who = play.current()
        legal = play._legal.get(who)
        if legal is not None:
            at = bisect_left(legal, action)
            if at < len(legal) and legal[at] == action:     # the usual step: an id of the listing just made
                if action >= play._kind_base:
                    play._chosen(who, action)     # staged: a kind of action
                    return
                got = play._by_id(action)
                if got is not None:
                    if play._groups is None and play._befores is None and not play._hidden:
                        # (KitPlay._play, inline: nothing staged, no positions kept, no parts counted)
                        play.state = play._effect(play.state, got)
                        play._acts.append(got)
                        play._seats.append(who)
                        play.ids.append(action)
                        play._legal = {}
                        play._current = play._chance = None
                    else:
                        play._play(who, action, got)
                    return
        elif who == CHANCE_ID and play._chance is not None:    # one of the chance outcomes just listed
            got = play._chance_actions.get(action)
            if got is not None:
                if play._groups is None and play._befores is None and not play._hidden:   # (_play, inline)
                    play.state = play._effect(play.state, got)
                    play._acts.append(got)
                    play._seats.append(who)
                    play.ids.append(action)
                    if play._legal:
                        play._legal = {}
                    play._current = play._chance = None
                else:
                    play._play(who, action, got)
                return
        play.step(who, action)       # everything else, checked (and refused with the reason)

    def _apply_actions(self, actions: list[int]) -> None:
        self.play.step_joint(actions)          # (ids from OpenSpiel: whole numbers; step_joint names anything else)

    def _action_to_string(self, player: int, action: int) -> str:
        play = self.play
        try:
            if player == pyspiel.PlayerId.CHANCE:
                base = play.shape.chance_encoding.capacity
                if action >= base:        # a seeded draw: its number keeps the names of equal draws apart
                    return f"draw {action - base + 1} of {play.shape.draws}: {play.chance_action(int(action))}"
                return str(play.chance_action(int(action)))
            kind = play.shape.kind_of(int(action))
            if kind is not None:                     # staged: the first step of a decision
                return f"kind {kind}"
            if action == play.shape.pass_id and play.shape.form in ("simultaneous", "orders"):
                return "no order"
            if play.shape.orders is not None:        # a complete order: its parts
                return ", ".join(map(str, play.shape.orders.decode(int(action))))
            return str(play.shape.encoding.decode(int(action)))
        except ValueError:
            return f"action {action}"

    def is_terminal(self) -> bool:
        who = self.play._current
        return (self.play.current() if who is None else who) == TERMINAL

    def returns(self) -> list[float]:
        return self.play.returns()

    def __str__(self) -> str:
        state = self.play.state
        text = json.dumps(state.to_json(), sort_keys=True, default=str) if hasattr(state, "to_json") else repr(state)
        if self.play.shape.form == "hidden_orders":
            text += f"\nparts {self.play.parts[0]} {self.play.parts[1]}"
        if self.play.stage >= 0:
            text += f"\nchoosing {self.play.shape.encoding.types[self.play.stage].kind}"
        return text


class KitObserver:
    """OpenSpiel's observer of a kit game: strings per seat (information state with perfect
    recall, observation without) and the board planes as the tensor."""

    def __init__(self, game: KitSpielGame, iig_obs_type: Any):
        self.game = game
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        private = iig_obs_type.private_info if iig_obs_type is not None else pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.private = private
        spec = game.board
        self.tensor = np.zeros(spec.size if spec is not None else 0, np.float32)
        self.dict = {"board": self.tensor.reshape(spec.shape)} if spec is not None else {}

    def _viewer(self, player: int) -> int | None:
        return None if self.private == pyspiel.PrivateInfoType.NONE else player

    def set_from(self, state: KitSpielState, player: int) -> None:
        if self.game.board is None:
            return
        # a game without secrets shows every seat the same pieces: one view serves them all
        viewer = self._viewer(player) if self.game.shape.information == "imperfect" else None
        play = state.play
        cache = play.tensors
        if cache.get("at") is not play.state:
            cache.clear()
            cache["at"] = play.state
        got = cache.get(viewer)
        if got is None:
            got = cache[viewer] = board_tensor(self.game.kit, self.game.board, play.state, viewer)
        self.tensor[:] = got

    def string_from(self, state: KitSpielState, player: int) -> str:
        play = state.play
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            return str(state)
        viewer = self._viewer(player)
        if self.perfect_recall:
            return play.information_state(viewer)
        return play.observation(viewer)


def kit_state(state: Any) -> Any:
    """The kit position behind a state of a registered kit game."""
    return state.play.state


# for readers of observation strings
_ = observation_text
