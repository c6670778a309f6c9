"""The game protocol: parameters, actions, outcomes, the game base class, the registry.

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

import dataclasses
import functools
import random
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Iterable, Sequence

__all__ = [
    "CHANCE", "SIMULTANEOUS", "DRAW", "IllegalAction", "MalformedAction", "Action", "EndTurn", "Outcome", "Seat",
    "Params", "ParamSpec", "param", "Game", "UncountedChance", "register", "games", "load",
    "game_class",
]

#: ``to_move`` value when the next step is chance (dice, a shuffle, a random setup).
CHANCE = -1
#: ``to_move`` value when several seats submit at once (see :meth:`Game.pending_seats`).
SIMULTANEOUS = -2
#: What :attr:`playtest.Session.winner` is when the game ended in a draw.
DRAW = "draw"


class IllegalAction(ValueError):
    """An action the rules do not allow here; the message names the rule it breaks.

    >>> err = IllegalAction("a king moves exactly the value of a card", rule="E.1 §9")
    >>> str(err)
    'a king moves exactly the value of a card (rule E.1 §9)'
    """

    def __init__(self, message: str, rule: str | None = None):
        self.rule = rule
        self.reason = message
        super().__init__(f"{message} (rule {rule})" if rule else message)


class MalformedAction(IllegalAction, TypeError):
    """Input that is not an action of this game at all (garbage JSON, a wrong type, another
    game's action); the message names the field. It is an :class:`IllegalAction`, so one
    ``except playtest.IllegalAction`` catches every refusal of ``play``.

    >>> raise MalformedAction("malformed bid action: seat must be a whole number")
    Traceback (most recent call last):
    ...
    playtest.rules.MalformedAction: malformed bid action: seat must be a whole number
    """


# --------------------------------------------------------------------------- actions

def _to_json_value(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_to_json_value(v) for v in value]
    return value


def _from_json_value(value: Any, where: str, depth: int = 0) -> Any:
    if isinstance(value, list):
        if depth >= 4:
            raise ValueError(f"{where}: lists nested more than 4 deep are not allowed")
        if len(value) > 10_000:
            raise ValueError(f"{where}: a list of more than 10,000 values is not allowed")
        return tuple(_from_json_value(v, where, depth + 1) for v in value)
    if value is None or isinstance(value, (bool, int, str)):
        if isinstance(value, str) and len(value) > 10_000:
            raise ValueError(f"{where}: a text of more than 10,000 characters is not allowed")
        if type(value) is int and abs(value) > 10 ** 15:
            raise ValueError(f"{where}: {str(value)[:20]}... is too large a number")
        return value
    raise ValueError(f"malformed value: {where} must be a number, text or list, not {type(value).__name__}")


class Action:
    """Base of every game's actions: small frozen dataclasses with a ``kind``.

    Subclasses are ``@dataclass(frozen=True)`` with fields that are ints,
    strings, bools or tuples of those; ``str(action)`` is its notation and
    :meth:`to_json` its JSON form (``{"kind": ..., field: value, ...}``).
    """

    __slots__ = ()
    kind: ClassVar[str] = "action"

    def to_json(self) -> dict[str, Any]:
        """The action as JSON-ready data, the form the board sends back."""
        data = {"kind": self.kind}
        for name, _, _ in action_fields(type(self)):
            value = getattr(self, name)
            data[name] = _to_json_value(value) if type(value) is tuple else value
        return data


_EXACT_TYPES = {"int": (int,), "bool": (bool,), "str": (str,), "tuple": (tuple,),
                "int | None": (int, type(None)), "str | None": (str, type(None))}
_WANTED = {"int": "a whole number", "bool": "true or false", "str": "text", "tuple": "a list"}


@functools.lru_cache(maxsize=None)
def action_fields(cls: type) -> tuple[tuple[str, tuple | None, str], ...]:
    """An action class's fields: ``(name, exact types allowed or None, the type in words)``."""
    out = []
    for f in fields(cls):
        declared = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
        out.append((f.name, _EXACT_TYPES.get(declared), _WANTED.get(declared.split(" |")[0], declared)))
    return tuple(out)


def check_action_types(action: Action) -> None:
    """Refuse an action whose fields are not of their declared type, exactly.

    A bool is not a whole number here: ``Place(col=True, row=0)`` would compare
    equal to ``Place(col=1, row=0)`` and then fail to reload from a file.

    >>> check_action_types(EndTurn())
    """
    if not dataclasses.is_dataclass(action):
        return
    for name, allowed, wanted in action_fields(type(action)):
        value = getattr(action, name)
        if allowed is not None and type(value) not in allowed:
            raise MalformedAction(f"malformed {action.kind} action: {name} must be {wanted}, "
                                  f"not {type(value).__name__} {str(value)[:40]}")


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """End the turn of the player to move (the one end-of-turn action every game shares).

    Turns made of several atomic actions (walls, steps, action points) end with it;
    whatever the turn had left is lost.

    >>> EndTurn().to_json(), str(EndTurn())
    ({'kind': 'end_turn'}, 'end turn')
    """

    kind: ClassVar[str] = "end_turn"

    def __str__(self) -> str:
        return "end turn"


# --------------------------------------------------------------------------- outcomes and seats

@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winners`` holds the winning seats (several for a team), empty for a
    draw; ``reason`` says why in words; ``scores`` is per seat when the game
    keeps a score.
    """

    winners: tuple[int, ...]
    reason: str
    scores: tuple[float, ...] | None = None

    @property
    def is_draw(self) -> bool:
        return not self.winners

    @property
    def winner(self) -> int | tuple[int, ...] | str:
        """One seat, a tuple of seats (a team), or :data:`DRAW`."""
        if not self.winners:
            return DRAW
        return self.winners[0] if len(self.winners) == 1 else self.winners

    def to_json(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "reason": self.reason,
                "scores": list(self.scores) if self.scores is not None else None}


@dataclass(frozen=True)
class Seat:
    """A place at the table: its name, colour and the shape of its pieces."""

    name: str
    color: str
    shape: str


# --------------------------------------------------------------------------- parameters

@dataclass(frozen=True)
class ParamSpec:
    """What a game declares about one rule parameter."""

    name: str
    default: Any
    help: str
    source: str            # "seed", "public" or "assumed" (RULES.md's [T], [P], [A])
    live: bool             # True: may change mid-game; False: needs a new game
    min: float | None = None
    max: float | None = None
    choices: tuple | None = None
    rule: str = ""         # the RULES.md entry it comes from, e.g. "E10"

    @property
    def kind(self) -> str:
        """``choice``, ``bool``, ``int``, ``float``, ``str`` or ``tuple``."""
        if self.choices is not None:
            return "choice"
        return type(self.default).__name__

    def allowed(self) -> str:
        """The allowed values in words, for error messages and docs."""
        if self.choices is not None:
            return "one of " + ", ".join(show_value(c) for c in self.choices)
        if isinstance(self.default, bool):
            return "true or false"
        noun = {"int": "whole number", "float": "number", "str": "text",
                "tuple": "list"}.get(self.kind, self.kind)
        lo = "" if self.min is None else show_value(self.min)
        hi = "" if self.max is None else show_value(self.max)
        if lo and hi:
            return f"a {noun} from {lo} to {hi}"
        if lo:
            return f"a {noun} of at least {lo}"
        if hi:
            return f"a {noun} of at most {hi}"
        return f"a {noun}"

    def validate(self, value: Any, game: str) -> Any:
        """``value`` converted to the declared type, or ``ValueError`` naming the rule."""
        shown = show_value(value) if not isinstance(value, (list, tuple, dict)) or len(str(value)) < 80 \
            else type(value).__name__
        shown = shown if len(shown) <= 80 else shown[:77] + "..."
        problem = f"{game} parameter {self.name}={shown} is not allowed: it must be {self.allowed()}"
        if isinstance(value, list):
            value = _from_json_value(value, self.name)
        if self.choices is not None:
            if value not in self.choices:
                raise ValueError(problem)
            return value
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise ValueError(problem)
            return value
        if isinstance(self.default, int):
            if isinstance(value, bool) or not isinstance(value, int):
                if isinstance(value, float) and value.is_integer():
                    value = int(value)
                else:
                    raise ValueError(problem)
        elif isinstance(self.default, float):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(problem)
            value = float(value)
        elif isinstance(self.default, tuple):
            if not isinstance(value, tuple) or any(
                    type(v) is not type(self.default[0]) for v in value if self.default):
                raise ValueError(problem)
            return value
        elif not isinstance(value, type(self.default)):
            raise ValueError(problem)
        if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
            raise ValueError(problem)
        return value


def show_value(value: Any) -> str:
    """A parameter value as the docs and messages write it: ``true``, ``[1, 2]``, ``"must"``.

    >>> show_value(("1&2", "2&4")), show_value(False), show_value(12)
    ('["1&2", "2&4"]', 'false', '12')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "[" + ", ".join(show_value(v) for v in value) + "]"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def param(default: Any, help: str, *, source: str = "assumed", live: bool = True,
          min: float | None = None, max: float | None = None,
          choices: Iterable | None = None, rule: str = "") -> Any:
    """Declare a rule parameter as a field of a game's ``Params`` dataclass.

    >>> @dataclass(frozen=True)
    ... class DemoParams(Params):
    ...     move_length: int = param(6, "exact steps per turn", source="seed", min=1, max=12)
    >>> DemoParams.create(move_length=5).move_length
    5
    """
    if source not in ("seed", "public", "assumed"):
        raise ValueError(f"source must be seed, public or assumed, not {source!r}")
    meta = {"help": help, "source": source, "live": live, "min": min, "max": max,
            "choices": tuple(choices) if choices is not None else None, "rule": rule}
    return field(default=default, metadata={"playtest": meta})


@dataclass(frozen=True)
class Params:
    """Base of every game's parameter dataclass; values are validated on creation."""

    game_name: ClassVar[str] = "game"

    @classmethod
    def specs(cls) -> tuple[ParamSpec, ...]:
        """Every declared parameter, in declaration order."""
        cached = cls.__dict__.get("_specs_cache")
        if cached is None:
            cached = tuple(
                ParamSpec(name=f.name, default=f.default, **f.metadata["playtest"])
                for f in fields(cls) if "playtest" in f.metadata
            )
            cls._specs_cache = cached  # type: ignore[attr-defined]
        return cached

    @classmethod
    def spec(cls, name: str) -> ParamSpec:
        for s in cls.specs():
            if s.name == name:
                return s
        names = ", ".join(s.name for s in cls.specs())
        raise ValueError(f"{cls.game_name} has no parameter {name!r}; its parameters are: {names}")

    @classmethod
    def create(cls, **values: Any) -> "Params":
        """Validated parameters: unknown names and out-of-range values raise ``ValueError``."""
        clean = {name: cls.spec(name).validate(value, cls.game_name) for name, value in values.items()}
        made = cls(**clean)
        made.check()
        return made

    def check(self) -> None:
        """Cross-parameter checks; games override it and raise ``ValueError``."""

    def replace(self, **changes: Any) -> "Params":
        """A validated copy with ``changes`` applied."""
        return type(self).create(**{**self.to_json(native=True), **changes})

    def to_json(self, native: bool = False) -> dict[str, Any]:
        """Values by name (lists for tuples unless ``native``)."""
        return {s.name: (getattr(self, s.name) if native else _to_json_value(getattr(self, s.name)))
                for s in self.specs()}

    def changed(self) -> dict[str, Any]:
        """Only the values that differ from the defaults."""
        return {s.name: getattr(self, s.name) for s in self.specs() if getattr(self, s.name) != s.default}


# --------------------------------------------------------------------------- the game protocol

class Game:
    """Base class of a game's rules. A game object is its rules with fixed parameters.

    Subclasses set ``name``, ``title``, ``credit``, ``Params`` and
    ``action_types`` and implement the rule methods. States are immutable
    values: :meth:`apply` returns a new state.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    credit: ClassVar[str] = ""
    Params: ClassVar[type[Params]] = Params
    action_types: ClassVar[tuple[type[Action], ...]] = ()

    def __init__(self, params: Params | None = None, **values: Any):
        if params is not None and not isinstance(params, self.Params):
            raise ValueError(f"{self.name}: params must be {self.Params.__name__} (from playtest.load), "
                             f"not {type(params).__name__}; give parameter values by name instead")
        if params is None:
            params = self.Params.create(**values)
        elif values:
            params = params.replace(**values)
        self.params = params

    def __repr__(self) -> str:
        changed = ", ".join(f"{k}={v!r}" for k, v in self.params.changed().items())
        return f"playtest.load({self.name!r}{', ' + changed if changed else ''})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.params == self.params  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.name, self.params))

    def with_params(self, **changes: Any) -> "Game":
        """The same game with some parameters changed (validated)."""
        return type(self)(self.params.replace(**changes))

    #: True when some seat may not know everything in a position (face-down blockers, secret
    #: orders): the table then puts a curtain between seats in hot-seat play, and draws no
    #: move ahead of the kernel (no previews: a seat's next view could hold what it may not know).
    has_secrets: ClassVar[bool] = False

    # --- what every game implements
    def seats(self) -> list[Seat]:
        """The seats at the table for these parameters."""
        raise NotImplementedError

    def initial_state(self) -> Any:
        """The position before the first move (possibly a chance step)."""
        raise NotImplementedError

    def to_move(self, state: Any) -> int | None:
        """The seat to act, :data:`CHANCE`, :data:`SIMULTANEOUS`, or ``None`` when over."""
        raise NotImplementedError

    def legal_actions(self, state: Any, seat: int | None = None) -> list[Action]:
        """Every action the player to move may take, in a fixed order.

        With ``seat``: only what that seat may do now (nothing when it is another
        seat's turn). In a :data:`SIMULTANEOUS` step, ``seat=None`` lists every
        pending seat's actions together; a table or bot always names its seat.
        """
        raise NotImplementedError

    def apply(self, state: Any, action: Action, check: bool = True) -> Any:
        """The state after ``action``; raises :class:`IllegalAction` when ``check``."""
        raise NotImplementedError

    def outcome(self, state: Any) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        raise NotImplementedError

    def view(self, state: Any, seat: int | None = None) -> dict:
        """The scene (see :mod:`playtest.scene`) of ``state`` as ``seat`` sees it.

        ``seat=None`` is the table in hot-seat play: it shows no seat's secrets.
        """
        raise NotImplementedError

    def state_from_json(self, data: Any) -> Any:
        """A state from its hand-writable JSON form; refuses impossible positions."""
        raise NotImplementedError

    # --- optional, with defaults
    def pending_seats(self, state: Any) -> tuple[int, ...]:
        """With :data:`SIMULTANEOUS`: the seats that still have to submit."""
        return ()

    def seat_of(self, state: Any, action: Action) -> int | None:
        """The seat that ``action`` would be played by in ``state`` (:data:`CHANCE` for chance).

        In a simultaneous step an action names its seat (a ``seat`` field by
        default); otherwise it is the seat to move.
        """
        mover = self.to_move(state)
        if mover == SIMULTANEOUS:
            seat = getattr(action, "seat", None)
            return seat if isinstance(seat, int) and not isinstance(seat, bool) else None
        return mover

    def chance_outcomes(self, state: Any) -> "list[tuple[Action, float]] | UncountedChance":
        """A chance step's outcomes with their probabilities (they sum to 1).

        Dice, bag draws and deals list every outcome. A step with too many
        outcomes to list (a scatter of 15 obstacles, a shuffled deck) returns an
        :class:`UncountedChance` that samples and checks outcomes instead. The
        default treats every legal action as equally likely.
        """
        actions = self.legal_actions(state)
        return [(a, 1 / len(actions)) for a in actions]

    def chance_outcome(self, state: Any, rng: random.Random) -> Action:
        """Draw the outcome of a chance step from :meth:`chance_outcomes` (the session records it)."""
        return draw_outcome(self.chance_outcomes(state), rng)

    def determinize(self, state: Any, seat: int | None, rng: random.Random) -> Any:
        """A full state that ``seat`` cannot tell from ``state``: every detail hidden from
        ``seat`` is redrawn with ``rng``, consistently with what ``seat`` knows.

        Bots are handed this instead of the true state, so a bot cannot read a
        secret. It must depend only on what ``seat`` knows and on ``rng``: two
        states that ``seat`` cannot tell apart give the same result for the same
        ``rng``. Games without secrets return ``state`` itself.
        """
        return state

    def frames(self, state: Any, action: Action, seat: int | None = None) -> list[dict]:
        """Scenes between ``state`` and the state after ``action``, as ``seat`` sees them.

        An action whose resolution is worth watching (pieces sliding tick by tick,
        orders revealed one by one) returns its intermediate scenes here; the table
        plays them back with a slider. Most actions have none.
        """
        return []

    def random_action(self, state: Any, rng: random.Random) -> Action:
        """A uniformly random legal action (games may sample faster)."""
        return rng.choice(self.legal_actions(state))

    def notation(self, state: Any, action: Action, viewer: int | None = None) -> str:
        """The action written for the move log, in the position it is played from.

        ``viewer`` is who reads it: ``None`` (the table) or a seat. A game with
        secrets writes only what ``viewer`` may know ("North submitted"), and
        reveals secrets in the notation of the action that reveals them.
        """
        return str(action)

    def describe_state(self, state: Any) -> str:
        """One line about the position, for the turn bar and the report."""
        mover = self.to_move(state)
        if mover is None:
            outcome = self.outcome(state)
            return f"Game over: {outcome.reason}" if outcome else "Game over"
        if mover == CHANCE:
            return "Chance to resolve"
        if mover == SIMULTANEOUS:
            return "Waiting for " + ", ".join(self.seats()[s].name for s in self.pending_seats(state))
        return f"{self.seats()[mover].name} to move"

    def action_from_json(self, data: Any) -> Action:
        """An action from its JSON form; ``ValueError`` for malformed data."""
        if not isinstance(data, dict):
            raise ValueError(f"malformed action: expected an object with a 'kind', got {type(data).__name__}")
        kinds = {t.kind: t for t in self.action_types}
        kind = data.get("kind")
        if type(kind) is not str or kind not in kinds:
            shown = repr(kind) if type(kind) is str and len(kind) < 40 else type(kind).__name__
            raise ValueError(f"malformed action: {self.name} has no action kind {shown}; "
                             f"its kinds are {', '.join(sorted(kinds))}")
        cls = kinds[kind]
        schema = action_fields(cls)
        if len(data) != len(schema) + 1 or any(name not in data for name, _, _ in schema):
            names = [name for name, _, _ in schema]
            missing = [n for n in names if n not in data]
            extra = [k if type(k) is str and len(k) < 40 else "..." for k in data
                     if k not in names and k != "kind"][:5]
            raise ValueError(f"malformed {kind} action: missing {missing}, unexpected {extra}")
        values = {}
        for name, allowed, wanted in schema:
            got = data[name]
            if type(got) is list:
                got = _from_json_value(got, f"{kind}.{name}")
            if allowed is not None and type(got) not in allowed:
                raise ValueError(f"malformed {kind} action: {name} must be {wanted}, not {type(got).__name__}")
            if type(got) not in (int, str, bool, tuple, type(None)):
                raise ValueError(f"malformed {kind} action: {name} must be a number, text or list, "
                                 f"not {type(got).__name__}")
            values[name] = got
        return cls(**values)

    def adapt_state(self, state: Any, old: "Game") -> Any:
        """The state to continue from after a live parameter change (default: unchanged)."""
        return state

    def running_scores(self, state: Any) -> "tuple[float, ...] | None":
        """Who is ahead as things stand: one finite number per seat, in seat order, higher is
        closer to winning by the game's own win condition (as these parameters set it), or
        ``None`` when the game has no such measure (the default).

        Teammates (seats that win together) get the same number. At a finished game with
        winners, every winner's number is at least every loser's: a measure that cannot
        promise that for some parameters returns ``None`` for them. It may read the whole
        state, secrets included (the lab calls it on true states, the search bot on the
        worlds it draws), and runs after every step of a lab game, so it should be cheap:
        reuse what the rules keep, and list no legal actions.

        The lab's lead changes and decisiveness come from it
        (:mod:`playtest.lab.metrics`), and the search bot scores a rollout it cuts
        short by it (:func:`playtest.mcts.returns`); with ``None`` there is no leader
        and a cut-short rollout counts as a draw.

        >>> Game().running_scores(None) is None
        True
        """
        return None


# --------------------------------------------------------------------------- chance

class UncountedChance:
    """The outcomes of a chance step too many to list: sampled and checked, not enumerated.

    ``sample(rng)`` draws one outcome; ``check(outcome)`` raises
    :class:`IllegalAction` for an outcome that cannot happen. ``describe`` says
    in words how outcomes are drawn (for the table and the docs).

    >>> import random
    >>> dice = UncountedChance(lambda rng: rng.randint(1, 6), lambda o: None, "a die")
    >>> 1 <= dice.sample(random.Random(1)) <= 6
    True
    """

    __slots__ = ("sample", "check", "describe")

    def __init__(self, sample: Any, check: Any, describe: str):
        self.sample = sample
        self.check = check
        self.describe = describe

    def __repr__(self) -> str:
        return f"UncountedChance({self.describe!r})"


def draw_outcome(outcomes: "list[tuple[Action, float]] | UncountedChance", rng: random.Random) -> Action:
    """One outcome drawn from :meth:`Game.chance_outcomes` with ``rng``.

    >>> import random
    >>> draw_outcome([("heads", 0.5), ("tails", 0.5)], random.Random(3))
    'heads'
    """
    if isinstance(outcomes, UncountedChance):
        return outcomes.sample(rng)
    if not outcomes:
        raise ValueError("a chance step with no outcome")
    x = rng.random()
    total = 0.0
    for outcome, probability in outcomes:
        total += probability
        if x < total:
            return outcome
    return outcomes[-1][0]


# --------------------------------------------------------------------------- the registry

_REGISTRY: dict[str, type[Game]] = {}
_UNLISTED: set[str] = set()


def register(cls: type[Game] | None = None, *, listed: bool = True) -> Any:
    """Class decorator that makes a game available to :func:`load` (and session files).

    ``listed=False`` keeps an example or test game out of :func:`games`.
    """
    def wrap(cls: type[Game]) -> type[Game]:
        if not cls.name:
            raise ValueError("a registered game needs a name")
        cls.Params.game_name = cls.name
        _REGISTRY[cls.name] = cls
        (_UNLISTED.discard if listed else _UNLISTED.add)(cls.name)
        return cls
    return wrap if cls is None else wrap(cls)


def _ensure_loaded() -> None:
    import playtest.games  # noqa: F401  (importing registers every game)
    import playtest.examples  # noqa: F401  (the worked example of the guide, unlisted)


def games() -> list[str]:
    """The names of the available games.

    >>> "eat_thyself" in games()
    True
    """
    _ensure_loaded()
    return sorted(name for name in _REGISTRY if name not in _UNLISTED)


def game_class(name: str) -> type[Game]:
    """The class of the game called ``name``."""
    _ensure_loaded()
    if name not in _REGISTRY:
        raise ValueError(f"unknown game {name!r}; the games are: {', '.join(sorted(_REGISTRY))}")
    return _REGISTRY[name]


def load(name: str, **params: Any) -> Game:
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


def check_sequence(value: Sequence, what: str) -> None:
    """Raise ``ValueError`` unless ``value`` is a list or tuple (for state loaders)."""
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"{what} must be a list, not {value!r}")
