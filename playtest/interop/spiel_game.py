"""OpenSpiel game -> the kit: ``playtest.load("openspiel:breakthrough", **params)``.

Any game OpenSpiel lists becomes a kit :class:`playtest.Game` whose position is its action
history (a declared :class:`playtest.State`), so sessions save, load, undo and branch it like
any kit game; its parameters are OpenSpiel's game parameters (live: changing one replays the
history when it is still legal, else starts again), and the kit's bots, OpenSpiel's MCTS
(``openspiel_mcts``) and the lab play it.

* a sequential game's actions are :class:`SpielMove` (``id``, OpenSpiel's action number);
  chance outcomes are moves too, with OpenSpiel's probabilities;
* a simultaneous game's seats each submit a :class:`SpielOrder` (``seat``, ``id``), secret
  until every seat has submitted; then the joint action is applied;
* the board: a game whose observation tensor has a board shape (``planes x rows x cols``) is
  drawn on a grid, one piece per non-empty plane, and its cells are clickable (a move is put on
  the cell it fills); every other game gets its text (``str(state)``, or for a game with
  hidden information the seat's own information state) in a panel and its moves as buttons;
* imperfect information: a seat is shown its own information state (or observation) only, the
  table (``seat=None``) nothing hidden; bots are handed a state resampled from the seat's
  information state (OpenSpiel's ``resample_from_infostate`` where a game has it, else
  histories drawn until one matches).

Refused, with the reason: unknown games, bad parameters (named), mean-field games, games whose
chance outcomes are sampled rather than listed, games made from another game (misere, zerosum:
their ``game`` parameter), games whose actions OpenSpiel does not list (crossword), and games with
more than 8 players. Only parameters set to other than OpenSpiel's declared default are handed to
it (some games declare a placeholder there, as dark_chess's empty ``fen``, and fill in their own).

>>> import playtest
>>> game = playtest.load("openspiel:tic_tac_toe")
>>> state = game.apply(game.initial_state(), game.legal_actions(game.initial_state())[4])
>>> game.to_move(state), game.notation(state, game.legal_actions(state)[0])
(1, 'o(0,0)')
>>> playtest.load("openspiel:nosuchgame")
Traceback (most recent call last):
...
ValueError: OpenSpiel has no game 'nosuchgame'; see pyspiel.registered_names()
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, ClassVar, cast

from ..kernel import (CHANCE, SIMULTANEOUS, Action, Game, GameType, Outcome, Params, Refusal, State, field,
                      per_seat)
from ..kernel.outcome import SEAT_COLORS, SEAT_SHAPES, Seat
from ..kernel.values import shown
from ._require import need

__all__ = ["SpielMove", "SpielOrder", "SpielPosition", "spiel_game_class", "PREFIX"]

PREFIX = "openspiel:"
#: the most a game loaded here may have (a session file's parameters are a stranger's input)
MAX_PLAYERS, MAX_ACTIONS, MAX_LENGTH = 8, 10_000, 100_000
_CLASSES: dict[str, type] = {}
#: parameter names of OpenSpiel's that name a file or folder to read (refused when set)
_FILE_PARAMETER = re.compile(r"(file|filename|path|root|dir|directory)$", re.IGNORECASE)


class SpielMove(Action):
    """An OpenSpiel action (or chance outcome) by its number."""
    id: int

    if TYPE_CHECKING:
        def __init__(self, id: int) -> None: ...

    def __str__(self) -> str:
        return f"action {self.id}"


class SpielOrder(Action):
    """A seat's secret order in a simultaneous OpenSpiel game."""
    seat: int
    id: int

    if TYPE_CHECKING:
        def __init__(self, seat: int, id: int) -> None: ...

    def __str__(self) -> str:
        return f"order {self.id}"


class SpielPosition(State):
    """A position: the OpenSpiel history, and the orders submitted at a simultaneous node."""
    history: tuple[int, ...] = field((), min=0)
    orders: tuple[int | None, ...] = field((), visible="owner", min=0)

    if TYPE_CHECKING:
        def __init__(self, history: tuple[int, ...] = (), orders: tuple[int | None, ...] = ()) -> None: ...


def _spiel() -> Any:
    return need("pyspiel")


def spiel_game_class(name: str) -> type:
    """The kit game class of the OpenSpiel game ``openspiel:<short name>`` (made once)."""
    if name in _CLASSES:
        return _CLASSES[name]
    pyspiel = _spiel()
    short = name[len(PREFIX):]
    known = {t.short_name: t for t in pyspiel.registered_games()}
    if short not in known:
        shown = short if len(short) <= 60 else short[:57] + "..."
        raise ValueError(f"OpenSpiel has no game {shown!r}; see pyspiel.registered_names()")
    gtype = known[short]
    GT = pyspiel.GameType
    if gtype.dynamics == GT.Dynamics.MEAN_FIELD:
        raise ValueError(f"openspiel:{short} is a mean-field game (a population, not seats at a table): "
                         f"the kit cannot play it")
    wraps = [key for key, default in gtype.parameter_specification.items() if isinstance(default, dict)]
    if wraps:       # misere, zerosum, start_at, add_noise...: a game made of another (a parameter the kit has no form for)
        raise ValueError(f"openspiel:{short} is made from another game (its parameter {wraps[0]!r}), which the "
                         f"kit's parameters cannot give: load the game itself")
    if gtype.chance_mode == GT.ChanceMode.SAMPLED_STOCHASTIC:
        raise ValueError(f"openspiel:{short} samples its chance outcomes instead of listing them: the kit "
                         f"cannot replay a session of it")
    if gtype.max_num_players > 8 and gtype.min_num_players > 8:
        raise ValueError(f"openspiel:{short} needs more than 8 players")
    try:      # a parameter the default game does not report is a placeholder (hanabi's colors: 0)
        reported: set[str] | None = set(pyspiel.load_game(short).get_parameters())
    except (pyspiel.SpielError, IndexError, KeyError, RuntimeError):
        reported = None
    params_cls = _params_class(short, gtype.parameter_specification, reported)
    simultaneous = gtype.dynamics == GT.Dynamics.SIMULTANEOUS
    imperfect = gtype.information != GT.Information.PERFECT_INFORMATION
    chance = gtype.chance_mode != GT.ChanceMode.DETERMINISTIC
    cls = type(f"OpenSpiel_{short}", (SpielGame,), {
        "name": name, "title": f"{gtype.long_name} (OpenSpiel)", "credit": "OpenSpiel (DeepMind), via playtest.interop",
        "Params": params_cls, "short_name": short, "__module__": __name__,
        "game_type": GameType(dynamics="simultaneous" if simultaneous else "sequential", chance=chance,
                              information="imperfect" if imperfect else "perfect",
                              utility={GT.Utility.ZERO_SUM: "zero_sum", GT.Utility.CONSTANT_SUM: "constant_sum"}.get(
                                  gtype.utility, "general_sum"))})
    from ..kernel.registry import _own_params
    _own_params(cls)
    try:
        cls()                         # the defaults must load (some games need parameters)
    except ValueError:
        pass
    from ..bots import register_bot
    from .spiel_bots import SpielMCTSBot
    register_bot(name, "openspiel_mcts")(SpielMCTSBot)
    _CLASSES[name] = cls
    return cls


def _params_class(short: str, spec: dict[str, Any], reported: set[str] | None = None) -> type:
    """The parameters class of ``openspiel:<short>``; ``reported``: the parameters its default game
    reports (one it leaves out has a placeholder default, which stands for "OpenSpiel's own")."""
    fields_ = []
    for key, default in sorted(spec.items()):
        if not key.isidentifier() or isinstance(default, (dict, list)):
            continue
        kind = type(default)
        placeholder = reported is not None and key not in reported
        said = f"OpenSpiel's {short} parameter {key}" + (
            f" ({'empty' if default == '' else shown(default)}: the game's own default)" if placeholder else "")
        fields_.append((key, kind, dataclasses.field(default=default, metadata={"playtest": {
            "help": said, "source": "public", "live": True, "min": None,
            "max": None, "choices": None, "rule": ""}})))
    made = dataclasses.make_dataclass(f"OpenSpiel_{short}_Params", fields_, bases=(Params,), frozen=True)
    made.__module__ = __name__
    # OpenSpiel declares no ranges: it checks its own parameters' values when the game is made (a
    # bad one is the kit's ValueError naming it), so kernel rule K4 is not asked of these
    setattr(made, "ranges_checked_by", "OpenSpiel")
    return made


class SpielGame(Game):
    """Base of the kit classes of OpenSpiel games (see the module docstring)."""

    short_name: ClassVar[str] = ""
    state_type = SpielPosition
    action_types = (SpielMove, SpielOrder)
    candidates_are_legal = True           # OpenSpiel's own legal actions (not asked again, one by one)

    def __init__(self, params: Any = None, **values: Any):
        super().__init__(params, **values)
        pyspiel = _spiel()
        try:
            given = self._given()
            self._refuse_files(given)
            self.spiel = pyspiel.load_game(self.short_name, given)
            self.n = self.spiel.num_players()
            self._refuse_too_large()                 # before a first state is made: that may allocate
            first = self.spiel.new_initial_state()   # some games check their parameters only here
        except (pyspiel.SpielError, IndexError, KeyError, RuntimeError) as exc:     # (nfg_game: IndexError map::at)
            raise ValueError(f"openspiel:{self.short_name}: OpenSpiel refuses these parameters "
                             f"({self.params.to_json()}): {str(exc).strip()[:300]}") from None
        self._refuse_unlisted(first)
        self._states: OrderedDict[tuple[int, ...], Any] = OrderedDict()
        self._grid = self._board_shape()

    def _refuse_files(self, given: dict[str, Any]) -> None:
        """Refuse a parameter that names a file or folder for OpenSpiel to read (efg_game's ``filename``,
        bargaining's ``instances_file``): parameters may come from a stranger's session file, which
        must not make the kernel read this machine's files."""
        for key, value in given.items():
            if isinstance(value, str) and value and _FILE_PARAMETER.search(key):
                raise ValueError(f"openspiel:{self.short_name} parameter {key}={shown(value)} names a file for "
                                 f"OpenSpiel to read: the kit does not hand OpenSpiel file names (parameters may "
                                 f"come from a session file a stranger sent); load that game with pyspiel itself")

    def _given(self) -> dict[str, Any]:
        """The parameters to hand OpenSpiel: those set to other than its declared default. A game
        fills in the others itself, and some declare a placeholder there that it never takes as
        given (dark_chess's ``fen`` of ``""``, which crashes the process; hanabi's zero colours)."""
        declared = {spec.name: spec.default for spec in self.params.specs()}
        return {k: v for k, v in self.params.to_json(native=True).items() if k not in declared or declared[k] != v}

    def _refuse_unlisted(self, state: Any) -> None:
        """Refuse a game whose seats' actions OpenSpiel cannot list (crossword: "action structs
        only"), found at its first seat's step (past chance steps, the first outcome each)."""
        pyspiel = _spiel()
        try:
            for _ in range(64):
                if state.is_terminal():
                    return
                if not state.is_chance_node():
                    state.legal_actions(state.current_player() if not state.is_simultaneous_node() else 0)
                    return
                state.apply_action(state.chance_outcomes()[0][0])
        except pyspiel.SpielError as exc:
            raise ValueError(f"openspiel:{self.short_name} cannot be played at the table: OpenSpiel does not list "
                             f"its actions ({str(exc).strip()[:200]})") from None

    def _refuse_too_large(self) -> None:
        """Bound what a game's parameters may ask of the table (they may come from a stranger's file)."""
        sizes = (("players", self.n, MAX_PLAYERS),
                 ("distinct actions", self.spiel.num_distinct_actions(), MAX_ACTIONS),
                 ("chance outcomes at one step", self.spiel.max_chance_outcomes(), MAX_ACTIONS),
                 ("actions in its longest game", self.spiel.max_game_length(), MAX_LENGTH))
        for what, size, most in sizes:
            if size > most:
                raise ValueError(f"openspiel:{self.short_name} with these parameters ({self.params.to_json()}) "
                                 f"has {size:,} {what}; the kit plays games of at most {most:,}")

    @property
    def _type(self) -> GameType:
        return cast(GameType, self.game_type)       # every class made here declares one

    # ---------------------------------------------------------------- positions
    def seats(self) -> list[Seat]:
        return [Seat(f"Player {i}", SEAT_COLORS[i % 8], SEAT_SHAPES[i % 8]) for i in range(self.n)]

    def initial_state(self) -> SpielPosition:
        return SpielPosition(history=(), orders=(None,) * self.n if self._type.dynamics == "simultaneous" else ())

    def spiel_state(self, state: SpielPosition) -> Any:
        """The OpenSpiel state of a kit position (replayed from its history, cached)."""
        key = state.history
        got = self._states.get(key)
        if got is not None:
            self._states.move_to_end(key)
            return got
        parent = self._states.get(key[:-1]) if key else None
        if parent is not None:
            got = parent.clone()
            self._apply_id(got, key[-1])
        else:
            got = self.spiel.new_initial_state()
            for code in key:
                self._apply_id(got, code)
        self._states[key] = got
        if len(self._states) > 4096:
            self._states.popitem(last=False)
        return got

    def _apply_id(self, spiel_state: Any, code: int) -> None:
        if spiel_state.is_simultaneous_node():
            raise ValueError("a simultaneous node is stepped by joint orders")
        spiel_state.apply_action(code)

    def check_state(self, state: SpielPosition) -> None:
        try:
            self._replay(state.history)
        except Exception as exc:
            raise ValueError(f"{self.name} position: the history is not a game of it ({str(exc)[:200]})") from None

    def _replay(self, history: tuple[int, ...]) -> Any:
        """Replay a history that may hold joint actions (simultaneous games write each joint
        action as the seats' ids in turn)."""
        s = self.spiel.new_initial_state()
        i = 0
        while i < len(history):
            if s.is_simultaneous_node():
                s.apply_actions(list(history[i:i + self.n]))
                i += self.n
            else:
                if history[i] not in (s.legal_actions() if not s.is_chance_node() else [a for a, _ in s.chance_outcomes()]):
                    raise ValueError(f"action {history[i]} is not legal at step {i}")
                s.apply_action(history[i])
                i += 1
        return s

    def _state(self, state: SpielPosition) -> Any:
        if self._type.dynamics == "simultaneous":
            key = state.history
            got = self._states.get(key)
            if got is None:
                got = self._replay(key)
                self._states[key] = got
            return got
        return self.spiel_state(state)

    # ---------------------------------------------------------------- the rules
    def to_move(self, state: SpielPosition) -> int | None:
        s = self._state(state)
        if s.is_terminal():
            return None
        if s.is_chance_node():
            return CHANCE
        if s.is_simultaneous_node():
            return SIMULTANEOUS
        return int(s.current_player())

    def pending_seats(self, state: SpielPosition) -> tuple[int, ...]:
        if self.to_move(state) != SIMULTANEOUS:
            return ()
        return tuple(i for i, o in enumerate(state.orders) if o is None)

    def chance_outcomes(self, state: SpielPosition) -> list[tuple[Action, float]]:
        s = self._state(state)
        return [(SpielMove(int(a)), float(p)) for a, p in s.chance_outcomes()] if s.is_chance_node() else []

    def candidates(self, state: SpielPosition, seat: int) -> list[Action]:
        s = self._state(state)
        if s.is_simultaneous_node():
            if seat >= len(state.orders) or state.orders[seat] is not None:
                return []
            return [SpielOrder(seat, int(a)) for a in s.legal_actions(seat)]
        return [SpielMove(int(a)) for a in s.legal_actions(seat)]

    def why_not(self, state: SpielPosition, action: Any, seat: int) -> Refusal | None:
        s = self._state(state)
        if isinstance(action, SpielOrder):
            if not s.is_simultaneous_node():
                return Refusal("orders are given at simultaneous steps only")
            if action.seat != seat or not 0 <= seat < self.n:
                return Refusal("a seat gives its own order")
            if state.orders[seat] is not None:
                return Refusal(f"{self.seats()[seat].name} has given an order already")
            return None if action.id in s.legal_actions(seat) else Refusal(f"{action.id} is not legal here")
        if s.is_simultaneous_node():
            return Refusal("this is a simultaneous step: each seat gives an order")
        return None if action.id in s.legal_actions(seat) else Refusal(
            f"{self._string(s, action.id)} is not legal here" if 0 <= action.id < 10 ** 9 else "no such action")

    def effect(self, state: SpielPosition, action: Any) -> SpielPosition:
        if isinstance(action, SpielOrder):
            orders = per_seat(state.orders, action.seat, action.id)
            if None in orders:
                return state.replace(orders=orders)
            return SpielPosition(history=state.history + tuple(int(o) for o in orders), orders=(None,) * self.n)
        return state.replace(history=state.history + (action.id,))

    def outcome(self, state: SpielPosition) -> Outcome | None:
        s = self._state(state)
        if not s.is_terminal():
            return None
        returns = tuple(float(r) for r in s.returns())
        best = max(returns)
        winners = tuple(i for i, r in enumerate(returns) if r == best) if len(set(returns)) > 1 else ()
        reason = "returns " + ", ".join(f"{r:g}" for r in returns)
        return Outcome(winners, reason, scores=returns, payoffs=returns)

    def returns_range(self) -> tuple[float, float]:
        return (float(self.spiel.min_utility()), float(self.spiel.max_utility()))

    def adapt_state(self, state: SpielPosition, old: Game) -> SpielPosition:
        """A live parameter change replays the history when it is still a game of the new
        parameters, else starts again."""
        try:
            self._replay(state.history)
            return state
        except Exception:
            return self.initial_state()

    # ---------------------------------------------------------------- what a seat may know
    def _string(self, s: Any, code: int) -> str:
        player = s.current_player() if not s.is_simultaneous_node() else 0
        try:
            return str(s.action_to_string(player, code))
        except Exception:
            return f"action {code}"

    def notation(self, state: SpielPosition, action: Any, viewer: int | None = None) -> str:
        s = self._state(state)
        if isinstance(action, SpielOrder):
            if viewer != action.seat:
                return f"{self._seat(action.seat)} gives an order"
            try:
                return f"{self._seat(action.seat)}: {s.action_to_string(action.seat, action.id)}"
            except Exception:
                return f"{self._seat(action.seat)}: order {action.id}"
        if s.is_chance_node():
            if self._type.information == "imperfect" and viewer is None:
                return "chance"
            if self._type.information == "imperfect":
                return self._chance_words(s, action, viewer)
            return f"chance: {self._string(s, action.id)}"
        return self._string(s, action.id)

    def _chance_words(self, s: Any, action: SpielMove, viewer: int | None) -> str:
        """A chance result as ``viewer`` may know it: written when it changes what ``viewer``
        sees differently from another outcome, else only that chance moved."""
        views = {}
        for code, _ in s.chance_outcomes():
            after = s.clone()
            after.apply_action(code)
            views[code] = self._seen(after, viewer)
        mine = views.get(action.id)
        if mine is not None and sum(1 for v in views.values() if v == mine) == 1:
            return f"chance: {self._string(s, action.id)}"
        return "chance"

    def _seat(self, seat: int) -> str:
        return self.seats()[seat].name if 0 <= seat < self.n else "?"

    def _seen(self, s: Any, viewer: int | None) -> str:
        """What ``viewer`` may know of an OpenSpiel state, as text."""
        gtype = self.spiel.get_type()
        if self._type.information == "perfect":
            return str(s)
        if viewer is None:
            return ""
        if gtype.provides_information_state_string:
            return str(s.information_state_string(viewer))
        if gtype.provides_observation_string:
            return str(s.observation_string(viewer))
        return ""

    def determinize(self, state: SpielPosition, seat: int | None, rng: random.Random) -> SpielPosition:
        """A history ``seat`` cannot tell from this one (see the module docstring)."""
        if self._type.information == "perfect" and self._type.dynamics == "sequential":
            return state
        if self._type.dynamics == "simultaneous":      # the others' pending orders: any legal ones
            s = self._state(state)
            orders = tuple(o if o is None or i == seat else rng.choice(s.legal_actions(i))
                           for i, o in enumerate(state.orders))
            state = state.replace(orders=orders)
            if self._type.information == "perfect" or seat is None:
                return state
        s = self._state(state)
        if seat is None or s.is_terminal():
            return state
        target = self._seen(s, seat)
        try:
            sampler = _spiel().UniformProbabilitySampler(rng.randrange(2 ** 31), 0.0, 1.0)
            other = s.resample_from_infostate(seat, sampler)
            return state.replace(history=tuple(int(a) for a in other.history()))
        except Exception:
            pass
        for _ in range(5000):
            trial = self.spiel.new_initial_state()
            history = list(state.history)
            ok = True
            for code in history:
                if len(trial.history()) >= len(history):
                    break
                if trial.is_chance_node():
                    outcomes = trial.chance_outcomes()
                    pick = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
                    trial.apply_action(pick)
                elif trial.is_simultaneous_node():
                    trial.apply_actions([rng.choice(trial.legal_actions(i)) for i in range(self.n)])
                else:
                    if int(trial.current_player()) == seat or self._type.information == "perfect":
                        code = history[len(trial.history())]
                        if code not in trial.legal_actions():
                            ok = False
                            break
                        trial.apply_action(code)
                    else:
                        trial.apply_action(rng.choice(trial.legal_actions()))
            if ok and len(trial.history()) == len(history) and self._seen(trial, seat) == target:
                return state.replace(history=tuple(int(a) for a in trial.history()))
        raise RuntimeError(f"{self.name}: no history matching seat {seat}'s information was found "
                           f"in 5000 draws (a bot cannot be handed a fair state here)")

    # ---------------------------------------------------------------- the board
    def _board_shape(self) -> tuple[int, int, int] | None:
        gtype = self.spiel.get_type()
        if not gtype.provides_observation_tensor:
            return None
        try:
            shape = tuple(self.spiel.observation_tensor_shape())
        except Exception:
            return None
        if len(shape) == 3 and shape[1] >= 2 and shape[2] >= 2 and shape[0] <= 16:
            return cast("tuple[int, int, int]", shape)
        return None

    def _planes(self, s: Any, viewer: int) -> Any:
        import numpy as np
        return np.asarray(s.observation_tensor(viewer), dtype=float).reshape(self._grid)

    def view(self, state: SpielPosition, seat: int | None = None) -> dict[str, Any]:
        from ..boards import Grid, board_view
        s = self._state(state)
        imperfect = self._type.information == "imperfect"
        text = self._seen(s, seat) if imperfect else str(s)
        if self._grid is not None and not (imperfect and seat is None):
            viewer = seat if seat is not None else 0
            planes, rows, cols = self._grid
            grid = Grid(cols, rows, labels="numbers")
            start = self._planes(self.spiel.new_initial_state(), viewer)
            empty = int(start.reshape(planes, -1).sum(axis=1).argmax())
            now = self._planes(s, viewer)
            shapes = ("circle", "square", "triangle", "diamond", "hexagon", "ring", "cross")
            for r in range(rows):
                for c in range(cols):
                    for p in range(planes):
                        if p != empty and now[p, r, c] > 0:
                            grid.piece((c, r), shapes[p % len(shapes)], SEAT_COLORS[p % 8], text=str(p))
                            break
            spots = self._spots(s, state, seat, now, empty)
            return board_view(self, state, seat, grid, at=lambda a: spots.get(a),
                              panels=[("Position", [[line] for line in str(text).splitlines()[:40]])])
        return board_view(self, state, seat, panels=[(
            "Your information" if imperfect and seat is not None else "Position",
            [[line] for line in (str(text).splitlines()[:60] or ["(nothing you may see)"])])])

    def _spots(self, s: Any, state: SpielPosition, seat: int | None, now: Any, empty: int) -> dict[Any, Any]:
        """Each legal move's cell: the place it fills (or else changes), read from the planes after it.

        A plane that is one value over the whole board before and after (go's "to play") says
        nothing of where a move went and is left out; the planes after a move are read once."""
        spots: dict[Any, Any] = {}
        if s.is_chance_node() or s.is_terminal() or s.is_simultaneous_node():
            return spots
        viewer = seat if seat is not None else 0
        flat_now = now.reshape(now.shape[0], -1)
        uniform_now = (flat_now == flat_now[:, :1]).all(axis=1)
        for code in s.legal_actions():
            after = s.clone()
            after.apply_action(code)
            planes = self._planes(after, viewer)
            flat = planes.reshape(planes.shape[0], -1)
            board_wide = uniform_now & (flat == flat[:, :1]).all(axis=1)
            changed = [(int(c), int(r)) for r, c in zip(*(planes != now)[~board_wide].any(axis=0).nonzero())]
            if not changed:
                continue
            occupied = ~(planes[empty] > 0)
            filled = [(c, r) for c, r in changed if occupied[r, c]]
            spots[SpielMove(int(code))] = (filled or changed)[-1]
        return spots
