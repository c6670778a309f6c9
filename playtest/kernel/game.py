"""The game protocol: :class:`Game`, generic over its parameters, state and action types.

A game is declarations plus two rule methods. It declares its ``Params``, its ``state_type``
(a :class:`playtest.State`), its ``action_types`` and its :class:`GameType`, and writes:

* ``candidates(state, seat)``: the actions worth considering for ``seat`` (a superset of the
  legal ones, in a fixed order);
* ``why_not(state, action, seat) -> Refusal | None``: the one legality decision;
* ``effect(state, action) -> state``: what a legal action does;
* ``to_move``, ``outcome`` and ``view``.

The kernel writes the rest from them: :meth:`Game.check` (the kernel's own checks, then
``why_not``), ``apply`` (check, then effect), ``legal_actions`` (the candidates ``why_not``
lets through), ``state_from_json``, ``determinize`` and per-viewer notation from the declared
state, and the table's reasons. A game may still write any of them itself, and games written
against the older protocol (their own ``apply``, ``legal_actions``, ``state_from_json``) work
unchanged::

    state = game.initial_state()
    while game.to_move(state) is not None:        # None: the game is over
        action = random.choice(game.legal_actions(state))
        state = game.apply(state, action)          # a new state; the old one is untouched
    game.outcome(state)
"""

from __future__ import annotations

import inspect
import json
import random
import re
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Generic, Iterable, Sequence, TypeVar, cast

from .actions import Action, EndTurn, check_action_types
from .fieldtypes import DeclarationError
from .gametype import GameType
from .outcome import (CHANCE, SEAT_COLORS, SEAT_SHAPES, SIMULTANEOUS, Outcome, Seat, UncountedChance,
                      draw_outcome)
from .params import Params
from .refusal import IllegalAction, MalformedAction, Refusal
from .state import State

__all__ = ["Game", "PlayoutLog", "randbelow", "P", "S", "A"]

P = TypeVar("P", bound=Params)
S = TypeVar("S")
A = TypeVar("A", bound=Action)

if TYPE_CHECKING:
    ChanceOutcomes = "list[tuple[A, float]] | UncountedChance"


def _check_seat_names_by_count(cls: type, where: str, seat_names: dict[Any, Any]) -> None:
    """Refuse, when the class is made, seat names by number of players that no parameter picks
    (the first ``seats()`` raised ``AttributeError: ... no attribute 'num_players'``) or that
    leave out a number the ``num_players`` parameter allows (a ``KeyError`` at the table)."""
    specs = cls.Params.specs()  # type: ignore[attr-defined]
    spec = next((p for p in specs if p.name == "num_players"), None)
    if spec is None:
        ints = [p.name for p in specs if p.kind in ("int", "choice")]
        hint = f" (yours are called {', '.join(ints)})" if ints else ""
        raise DeclarationError(f"{where}: seat_names is a dict by number of players, but its Params declare no "
                               f"num_players parameter to pick one{hint}: call the parameter num_players, or write "
                               f"seats() returning a playtest.Seat(name, colour, shape) per seat for the parameters")
    if spec.choices is not None:
        allowed = list(spec.choices)
    elif spec.min is not None and spec.max is not None and spec.max - spec.min <= 64:
        allowed = list(range(int(spec.min), int(spec.max) + 1))
    else:
        return
    missing = [n for n in allowed if n not in seat_names]
    if missing:
        raise DeclarationError(f"{where}: seat_names has no names for num_players={missing[0]}, which its "
                               f"num_players parameter allows ({spec.allowed()})")
    short = [n for n in allowed if not isinstance(n, int) or isinstance(n, bool) or len(seat_names[n]) != n]
    if short:
        raise DeclarationError(f"{where}: seat_names[{short[0]!r}] names {len(seat_names[short[0]])} seats, "
                               f"not {short[0]}")


def _without_seat(why_not: Any) -> bool:
    """Whether a game's ``why_not`` is written the older way, ``why_not(state, action)``: two
    arguments after ``self``, no seat (the kernel then asks it so, :func:`_older_refusal`)."""
    try:
        params = list(inspect.signature(why_not).parameters.values())[1:]
    except (TypeError, ValueError):
        return False
    if any(p.kind == p.VAR_POSITIONAL for p in params):
        return False
    return len([p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                and p.default is p.empty]) == 2 and not any(p.name == "seat" for p in params)


_RULE_AT_END = re.compile(r"^(.*?)\s*\(rule ([^()]+)\)$", re.DOTALL)


def _older_refusal(said: Any) -> Any:
    """An older ``why_not``'s answer as the kernel's: ``None`` or ``""`` allow, a text refuses (its
    closing "(rule X)" read as the rule it cites), a ``(text, rule)`` pair refuses citing the rule;
    a :class:`Refusal` is taken as it is (anything else is left for :meth:`Game.check` to name).

    >>> _older_refusal("that cell is taken (rule T2)"), _older_refusal(""), _older_refusal(("no", "T1"))
    (Refusal(text='that cell is taken', rule='T2'), None, Refusal(text='no', rule='T1'))
    """
    if said is None or said == "":
        return None
    if isinstance(said, str):
        cited = _RULE_AT_END.match(said)
        return Refusal(cited.group(1), cited.group(2)) if cited else Refusal(said)
    if isinstance(said, tuple) and len(said) == 2 and all(isinstance(x, str) for x in said):
        return Refusal(said[0], said[1])
    return said


def _overrides(cls: type, name: str) -> bool:
    """Whether ``cls`` (or a base below :class:`Game`) defines ``name`` itself."""
    for klass in cls.__mro__:
        if klass is Game:
            return False
        if name in klass.__dict__:
            return True
    return False


def said(action: Any, limit: int = 120) -> str:
    """``str(action)``, or its JSON when the game's own words cannot write it (a stranger's value,
    say a card past the deck's end, that its ``__str__`` indexes with)."""
    try:
        return str(action)[:limit]
    except Exception:                # noqa: BLE001 (the game's code, on a stranger's value)
        try:
            return json.dumps(action.to_json(), ensure_ascii=False)[:limit]
        except Exception:            # noqa: BLE001
            return type(action).__name__


#: what a game's why_not raises for an action whose values it cannot read (an index past the
#: board, a key it does not know): ``check`` turns it into a refusal of that input
_UNREADABLE = (IndexError, KeyError, TypeError, ValueError, AttributeError)


class Game(Generic[P, S, A]):
    """Base class of a game's rules. A game object is its rules with fixed parameters.

    Subclasses set ``name``, ``title``, ``credit``, ``Params``, ``action_types`` and
    (declared games) ``state_type`` and ``game_type``, and write the rule methods (see the
    module docstring). States are immutable values: :meth:`apply` returns a new state.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    credit: ClassVar[str] = ""
    Params: ClassVar[type[Params]] = Params
    action_types: ClassVar[tuple[type[Action], ...]] = ()
    #: the declared state (a :class:`playtest.State` subclass), or None for a game that reads
    #: and writes its positions itself
    state_type: ClassVar[type[State] | None] = None
    #: the declared game type; None for a game written against the older protocol
    game_type: ClassVar[GameType | None] = None
    #: seat names, for a game that does not write :meth:`seats` itself: a tuple, or a dict of
    #: tuples by the ``num_players`` parameter (``{2: ("North", "South"), 3: (...)}``)
    seat_names: ClassVar[tuple[str, ...] | dict[int, tuple[str, ...]]] = ()
    #: the rule a refusal cites when the game is over
    end_rule: ClassVar[str] = ""
    #: True when :meth:`candidates` lists exactly the legal actions (read off the same tables
    #: ``why_not`` decides with): ``legal_actions`` then lists them without asking ``why_not`` of
    #: each, the speed a search bot needs (tests/test_kernel.py holds the kit's games to it).
    candidates_are_legal: ClassVar[bool] = False

    #: True when some seat may not know everything in a position (face-down blockers, secret
    #: orders): the table then puts a curtain between seats in hot-seat play, and draws no
    #: move ahead of the kernel (no previews: a seat's next view could hold what it may not know).
    #: Derived from ``game_type`` for declared games: an author cannot forget it.
    has_secrets: ClassVar[bool] = False

    params: P

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        where = f"game {cls.__name__}"
        kinds: dict[str, type[Action]] = {}
        if not isinstance(cls.action_types, tuple):
            one = isinstance(cls.action_types, type)
            raise DeclarationError(f"{where}: action_types must be a tuple of Action classes, not "
                                   f"{cls.action_types!r}" + (f" (write ({cls.action_types.__name__},) for one)"
                                                               if one else ""))
        for action_type in cls.action_types:
            if not (isinstance(action_type, type) and issubclass(action_type, Action)):
                raise DeclarationError(f"{where}: action_types holds {action_type!r}, which is not an Action class")
            if action_type.kind in kinds and kinds[action_type.kind] is not action_type:
                raise DeclarationError(f"{where}: the action kind {action_type.kind!r} is declared twice "
                                       f"({kinds[action_type.kind].__name__} and {action_type.__name__})")
            kinds[action_type.kind] = action_type
        cls._kinds = kinds
        cls._types = frozenset(cls.action_types)
        cls._own_seat_of = _overrides(cls, "seat_of")
        cls._writes_candidates = _overrides(cls, "candidates")
        cls._writes_why_not = _overrides(cls, "why_not")
        cls._older_why_not = cls._writes_why_not and _without_seat(cls.why_not)
        state_type = cls.__dict__.get("state_type")
        if state_type is not None and not (isinstance(state_type, type) and issubclass(state_type, State)):
            raise DeclarationError(f"{where}: state_type must be a playtest.State subclass, not {state_type!r}")
        game_type = cls.__dict__.get("game_type")
        if game_type is not None:
            if not isinstance(game_type, GameType):
                raise DeclarationError(f"{where}: game_type must be a playtest.GameType, not {game_type!r}")
            explicit = cls.__dict__.get("has_secrets")
            if explicit is False and game_type.secret:
                raise DeclarationError(
                    f"{where}: has_secrets = False, but its game type has "
                    f"{'hidden information' if game_type.information == 'imperfect' else 'secret orders'} "
                    f"(kernel rule K1: simultaneous orders are secret until revealed unless declared public)")
            if explicit is None:
                cls.has_secrets = game_type.secret
        seat_names = cls.__dict__.get("seat_names")
        for names in (seat_names.values() if isinstance(seat_names, dict) else [seat_names]):
            if names is not None and (not isinstance(names, tuple) or not all(isinstance(n, str) and n for n in names)):
                raise DeclarationError(f"{where}: seat_names must be a tuple of names (or a dict of them by "
                                       f"num_players), not {seat_names!r}")
        if isinstance(seat_names, dict):
            _check_seat_names_by_count(cls, where, seat_names)

    _kinds: ClassVar[dict[str, type[Action]]] = {}
    _types: ClassVar[frozenset[type[Action]]] = frozenset()
    _own_seat_of: ClassVar[bool] = False
    _writes_candidates: ClassVar[bool] = False
    _writes_why_not: ClassVar[bool] = False
    #: a why_not written the older way, ``why_not(state, action)`` answering text (or ``None``)
    _older_why_not: ClassVar[bool] = False

    def __init__(self, params: P | None = None, **values: Any):
        if params is not None and not isinstance(params, self.Params):
            raise ValueError(f"{self.name}: params must be {self.Params.__name__} (from playtest.load), "
                             f"not {type(params).__name__}; give parameter values by name instead")
        if params is None:
            params = self.Params.create(**values)  # type: ignore[assignment]
        elif values:
            params = params.replace(**values)  # type: ignore[assignment]
        self.params = params  # type: ignore[assignment]

    def __repr__(self) -> str:
        changed = ", ".join(f"{k}={v!r}" for k, v in self.params.changed().items())
        return f"playtest.load({self.name!r}{', ' + changed if changed else ''})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Game) and other.params == self.params

    def __hash__(self) -> int:
        return hash((self.name, self.params))

    def with_params(self, **changes: Any) -> "Game[P, S, A]":
        """The same game with some parameters changed (validated)."""
        return type(self)(**self.params.replace(**changes).to_json(native=True))

    # ------------------------------------------------------------------ what every game writes
    def seats(self) -> list[Seat]:
        """The seats at the table for these parameters (default: from ``seat_names``); a new list
        each call (the caller may keep or change it). Code that only needs how many there are
        asks :meth:`seat_count`, which builds nothing."""
        made = self.__dict__.get("_default_seats")
        if made is None:
            names = self.seat_names
            if isinstance(names, dict):
                names = names[getattr(self.params, "num_players")]
            if not names:
                raise NotImplementedError(f"{type(self).__name__} declares no seat_names and writes no seats()")
            made = self.__dict__["_default_seats"] = tuple(
                Seat(n, SEAT_COLORS[i % len(SEAT_COLORS)], SEAT_SHAPES[i % len(SEAT_SHAPES)])
                for i, n in enumerate(names))
        return list(made)

    def seat_count(self) -> int:
        """How many seats there are: ``len(self.seats())``, worked out once per game object (a
        game's seats follow from its parameters, which never change), so the kernel, the lab
        and the search bot ask it at every step without building the seats again.

        >>> import playtest
        >>> game = playtest.load("secret_bid")
        >>> game.seat_count(), len(game.seats())
        (2, 2)
        """
        count = self.__dict__.get("_seat_count")
        if count is None:
            count = self.__dict__["_seat_count"] = len(self.seats())
        return count

    def initial_state(self) -> S:
        """The position before the first move (possibly a chance step); default: the declared
        state's defaults."""
        if self.state_type is None:
            raise NotImplementedError(f"{type(self).__name__} writes no initial_state() and declares no state_type")
        return self.state_type()  # type: ignore[return-value]

    def to_move(self, state: S) -> int | None:
        """The seat to act, :data:`CHANCE`, :data:`SIMULTANEOUS`, or ``None`` when over."""
        raise NotImplementedError

    def outcome(self, state: S) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        raise NotImplementedError

    def view(self, state: S, seat: int | None = None) -> dict[str, Any]:
        """The scene (see :mod:`playtest.scene`) of ``state`` as ``seat`` sees it.

        ``seat=None`` is the table in hot-seat play: it shows no seat's secrets.

        By default, before a board is drawn: the position as text, each declared field as
        ``seat`` may read it (``state.redact(seat)``: a hidden value shows as ``null``), and the
        legal actions as buttons. Enough to play, check and test a game at the table; a game
        draws its board with :mod:`playtest.boards` when it is ready.
        """
        import json

        from ..boards import board_view
        if isinstance(state, State):
            shown = state.redact(seat)
            rows = [[name, _short_text(json.dumps(value, ensure_ascii=False))] for name, value in shown.items()]
        else:
            rows = [["position", _short_text(self.describe_state(state))]]
        return board_view(self, state, seat, panels=[("Position", rows)])

    # ------------------------------------------------------------------ the legality template
    def candidates(self, state: S, seat: int) -> Iterable[A]:
        """The actions worth considering for ``seat`` (a superset of the legal ones, in a fixed
        order); :meth:`legal_actions` keeps those :meth:`why_not` lets through."""
        raise NotImplementedError

    def why_not(self, state: S, action: A, seat: int) -> Refusal | None:
        """Why ``seat`` may not play ``action`` in ``state`` (a :class:`Refusal` citing its rule),
        or ``None`` when the rules allow it. The kernel has already checked that the action is
        one of the game's, well-formed, and that ``seat`` is to act (see :meth:`check`).

        The default, for a game that writes only :meth:`candidates`: an action is allowed when
        it is one of ``seat``'s candidates here, so ``play`` accepts exactly what is listed (a
        die roll or a deal tried at a seat's turn is refused, as is anything else not offered).
        """
        if self._writes_candidates and action not in self.candidates(state, seat):
            return Refusal(f"{str(action)[:120]} is not one of {self._seat_name(seat)}'s actions now")
        return None

    def effect(self, state: S, action: A) -> S:
        """The state after a legal ``action`` (no checks: :meth:`apply` checks first)."""
        raise NotImplementedError(f"{type(self).__name__} writes neither apply() nor effect()")

    def chance_refusal(self, state: S, action: A) -> Refusal:
        """Why ``action`` is not an outcome chance may bring now (:meth:`check` asks it for one that
        is not among :meth:`chance_outcomes`); a game may say it in its own words, citing its rule."""
        return Refusal(f"{said(action, 200)} cannot happen here")

    def check(self, state: S, action: Any, seat: int | None = None) -> Refusal | None:
        """The one legality decision: ``None`` when ``action`` may be played in ``state``, or the
        :class:`Refusal` saying why not. ``seat``, when given, is who tries it.

        The kernel's checks come first (an action of this game, with fields of their declared
        types; the game not over; chance outcomes that can happen; the seat to act), then the
        game's :meth:`why_not`.
        """
        mover = self.to_move(state)
        if (mover is not None and mover >= 0 and seat in (None, mover) and type(action) in self._types
                and not self._own_seat_of):         # the common case, a seat's turn, at once (the same checks)
            try:
                check_action_types(action)
            except MalformedAction as exc:
                return Refusal(exc.reason)
            try:
                refusal = (self.why_not(state, action, mover) if not self._older_why_not
                           else _older_refusal(self.why_not(state, action)))  # type: ignore[call-arg]
            except _UNREADABLE as exc:
                return self._unreadable(action, exc)
            if refusal is None or isinstance(refusal, Refusal):
                return refusal
            raise TypeError(self._why_not_returned(action, refusal))
        if not isinstance(action, self.action_types):
            kinds = ", ".join(t.__name__ for t in self.action_types)[:200]
            hint = (f"; a kind its rules list must be declared there too: add {type(action).__name__}"
                    if isinstance(action, Action) else "")
            return Refusal(f"{repr(action)[:120]} is not a {self.title or self.name} action (its action_types: "
                           f"{kinds}{hint})")
        try:
            check_action_types(action)
        except MalformedAction as exc:
            return Refusal(exc.reason)
        if mover is None:
            outcome = self.outcome(state)
            return Refusal(f"the game is over ({outcome.reason if outcome else 'finished'})", self.end_rule)
        # the seat that plays it: named by the action in a simultaneous step, else the seat to move
        actor = (self.seat_of(state, action) if mover == SIMULTANEOUS or self._own_seat_of  # type: ignore[arg-type]
                 else mover)
        if mover == CHANCE:
            if seat not in (None, CHANCE):
                return Refusal(f"chance is to move, not {self._seat_name(seat)}")
            outcomes = self.chance_outcomes(state)
            if isinstance(outcomes, UncountedChance):
                try:
                    outcomes.check(action)
                except IllegalAction as exc:
                    return exc.refusal
                return None
            if all(action != a for a, _ in outcomes):
                return self.chance_refusal(state, cast(A, action))
            return None
        if actor is None or actor < 0:
            return Refusal(self._unseated(action))
        if mover == SIMULTANEOUS:
            if actor >= self.seat_count():
                return Refusal(f"there is no seat {actor}")
            if seat is not None and seat != actor:
                return Refusal(f"this is {self._seat_name(actor)}'s order, not {self._seat_name(seat)}'s")
        elif seat is not None and seat != mover:
            return Refusal(f"it is {self._seat_name(mover)}'s turn, not {self._seat_name(seat)}'s")
        try:
            refusal = (self.why_not(state, action, actor) if not self._older_why_not  # type: ignore[arg-type]
                       else _older_refusal(self.why_not(state, action)))  # type: ignore[call-arg, arg-type]
        except _UNREADABLE as exc:
            return self._unreadable(action, exc)
        if refusal is not None and not isinstance(refusal, Refusal):
            raise TypeError(self._why_not_returned(action, refusal))
        return refusal

    def _why_not_returned(self, action: Any, refusal: Any) -> str:
        """What is wrong with a ``why_not`` that returned neither a Refusal nor None, in words."""
        text = repr(refusal)
        return (f"{self.name}'s why_not returned {text[:80]} for {said(action)}: it returns "
                f"Refusal(text, rule) or None (legal)" + (" (False is not None: it refuses)"
                                                          if refusal is False else ""))

    def _unreadable(self, action: Any, exc: Exception) -> Refusal:
        """The refusal of an action whose values the game's ``why_not`` cannot even read (a cell
        past the board's end, say): the input is refused, never an error from inside the rules."""
        return Refusal(f"{said(action)} is not an action of {self.title or self.name} here: its rules "
                       f"cannot read it ({type(exc).__name__}: {str(exc)[:120]})")

    def _unseated(self, action: Any) -> str:
        """Why an action given in a simultaneous step names no seat, in words."""
        if hasattr(action, "seat") or _overrides(type(self), "seat_of"):
            return "in a simultaneous step an action names the seat that submits it"
        return (f"in a simultaneous step an action names the seat that submits it, in a field called seat "
                f"({said(action)} has none: call its seat field seat, or write seat_of())")

    def _seat_name(self, seat: int | None) -> str:
        if seat == CHANCE:
            return "chance"
        try:
            return self.seats()[seat].name  # type: ignore[index]
        except (IndexError, TypeError):
            return f"seat {seat}"

    def legal_actions(self, state: S, seat: int | None = None) -> list[A]:
        """Every action the player to move may take, in a fixed order.

        With ``seat``: only what that seat may do now (nothing when it is another
        seat's turn). In a :data:`SIMULTANEOUS` step, ``seat=None`` lists every
        pending seat's actions together; a table or bot always names its seat.
        """
        if not self._writes_candidates:
            raise NotImplementedError(f"{type(self).__name__} writes neither legal_actions() nor candidates()")
        mover = self.to_move(state)
        if mover is None:
            return []
        if mover >= 0:                 # a seat's turn (the common case, first)
            if seat is not None and seat != mover:
                return []
            listed = self.candidates(state, mover)
            if self.candidates_are_legal or not self._writes_why_not:
                return listed if type(listed) is list else list(listed)
            why_not = self.why_not
            return [a for a in listed if why_not(state, a, mover) is None]
        if mover == CHANCE:
            if seat not in (None, CHANCE):
                return []
            outcomes = self.chance_outcomes(state)
            if isinstance(outcomes, UncountedChance):
                return []
            return [a for a, _ in outcomes]
        if mover == SIMULTANEOUS:      # a seat that has submitted may still act (withdraw): every seat is asked
            count = self.seat_count()
            seats: Sequence[int] = range(count) if seat is None else ([seat] if 0 <= seat < count else [])
        else:
            return []
        if self.candidates_are_legal or not self._writes_why_not:
            return [a for s in seats for a in self.candidates(state, s)]
        why_not = self.why_not
        return [a for s in seats for a in self.candidates(state, s) if why_not(state, a, s) is None]

    def apply(self, state: S, action: A, check: bool = True) -> S:
        """The state after ``action``; raises :class:`IllegalAction` (naming the rule) when
        ``check`` and the action is not allowed. The old state is untouched."""
        if check:
            refusal = self.check(state, action)
            if refusal is not None:
                if not isinstance(action, self.action_types) or _malformed(action):
                    raise MalformedAction(refusal.text)
                raise IllegalAction.of(refusal)
        return self.effect(state, action)

    # ------------------------------------------------------------------ positions
    def state_from_json(self, data: Any) -> S:
        """A state from its hand-writable JSON form; refuses impossible positions.

        Declared games read it from the declaration, then :meth:`check_state` refuses what the
        types alone cannot (a card dealt twice, a round past the last)."""
        if self.state_type is None:
            raise NotImplementedError(f"{type(self).__name__} writes no state_from_json() and declares no state_type")
        state: S = self.state_type.from_json(data, where=self.name, context=self)
        seats = self.seat_count()
        for spec in self.state_type._hidden:     # visible="owner": one entry per seat (or none yet), by declaration
            value = getattr(state, spec.name)
            if spec.visible == "owner" and isinstance(value, tuple) and value and len(value) != seats:
                raise ValueError(f"{self.name}.{spec.key} has {len(value)} entries; it holds one per seat "
                                 f"({seats})")
        said: object = self.check_state(state)
        if said is not None:       # a refusal returned, as why_not returns one: taken as one
            if isinstance(said, Refusal):
                raise ValueError(f"{self.name}: {said.text}" + (f" (rule {said.rule})" if said.rule else ""))
            if isinstance(said, str) and said:
                raise ValueError(f"{self.name}: {said}")
            raise TypeError(f"{type(self).__name__}.check_state returned {str(said)[:60]!r}: it raises ValueError "
                            f"(naming the field) for a position the rules cannot reach, and returns None for "
                            f"one they can")
        return state

    def check_state(self, state: S) -> Refusal | str | None:
        """Raise ``ValueError`` (naming the field) for a position these rules cannot reach.

        A :class:`Refusal` or a text returned instead is taken as the same refusal; anything else
        but ``None`` is an error in the game (``True`` for "fine" would refuse nothing)."""
        return None

    # ------------------------------------------------------------------ optional, with defaults
    def pending_seats(self, state: S) -> tuple[int, ...]:
        """With :data:`SIMULTANEOUS`: the seats that still have to submit."""
        return ()

    def seat_of(self, state: S, action: A) -> int | None:
        """The seat that ``action`` would be played by in ``state`` (:data:`CHANCE` for chance).

        In a simultaneous step an action names its seat (a ``seat`` field by
        default); otherwise it is the seat to move.
        """
        mover = self.to_move(state)
        if mover == SIMULTANEOUS:
            seat = getattr(action, "seat", None)
            return seat if isinstance(seat, int) and not isinstance(seat, bool) else None
        return mover

    def chance_outcomes(self, state: S) -> "list[tuple[A, float]] | UncountedChance":
        """A chance step's outcomes with their probabilities (they sum to 1).

        Dice, bag draws and deals list every outcome. A step with too many
        outcomes to list (a scatter of 15 obstacles, a shuffled deck) returns an
        :class:`UncountedChance` that samples and checks outcomes instead. The
        default treats every legal action as equally likely.
        """
        actions = self.legal_actions(state)
        return [(a, 1 / len(actions)) for a in actions]

    def chance_outcome(self, state: S, rng: random.Random) -> A:
        """Draw the outcome of a chance step from :meth:`chance_outcomes` (the session records it)."""
        return cast(A, draw_outcome(self.chance_outcomes(state), rng))

    def determinize(self, state: S, seat: int | None, rng: random.Random) -> S:
        """A full state that ``seat`` cannot tell from ``state``: every detail hidden from
        ``seat`` is redrawn with ``rng``, consistently with what ``seat`` knows.

        Bots are handed this instead of the true state, so a bot cannot read a
        secret. It must depend only on what ``seat`` knows and on ``rng``: two
        states that ``seat`` cannot tell apart give the same result for the same
        ``rng``. Declared games redraw their hidden fields (:meth:`playtest.State.determinize`);
        games without secrets return ``state`` itself.
        """
        if isinstance(state, State) and state._hidden:
            return cast(S, state.determinize(seat, rng))
        return state

    def frames(self, state: S, action: A, seat: int | None = None) -> list[dict[str, Any]]:
        """Scenes between ``state`` and the state after ``action``, as ``seat`` sees them.

        An action whose resolution is worth watching (pieces sliding tick by tick,
        orders revealed one by one) returns its intermediate scenes here; the table
        plays them back with a slider. Most actions have none.
        """
        return []

    def random_action(self, state: S, rng: random.Random) -> A:
        """A uniformly random legal action (games may sample faster)."""
        return rng.choice(self.legal_actions(state))

    def random_playout(self, state: S, rng: random.Random, seat_rngs: "Sequence[random.Random] | None" = None,
                       max_steps: int = 1_000_000, max_turns: int | None = None,
                       log: "PlayoutLog | None" = None) -> "tuple[S, int] | None":
        """Random play from ``state``, written by the game on a compact form of its own: ``(the state
        reached, the steps played)``, or ``None`` (the default: not written) when the game leaves it to
        the rules. Optional; the search bot's rollouts and the lab's runner (every seat the kit's random
        bot, a sequential game) call it instead of stepping ``to_move`` / ``random_action`` /
        ``chance_outcome`` / ``apply`` one step at a time, and it must play **the very same game**:
        the same state reached, the same steps, the same draws from the same generators, and the
        same report in ``log``. :func:`playtest.check.playout_by_rules` is the reference it must equal
        (``check_game``'s "playout" property compares them from many positions); its loop is::

            steps, turns, last, decisions = 0, 0, NOBODY, 0
            wanted = iter(log.at) if log and log.at is not None else None    # None: count every decision
            want = next(wanted, -1) if wanted is not None else 0
            while True:
                mover = to_move(state)                    # None: over; CHANCE; a seat
                if mover != CHANCE and mover != last:     # a turn ends: the game, or another seat decides
                    if log and log.scores is not None and steps:
                        log.scores.append(running_scores(state))
                    if mover is None: break
                    if log and log.first is None: log.first = mover
                    turns += 1
                    if max_turns is not None and turns > max_turns: break
                    last = mover
                if steps == max_steps: break
                if mover == CHANCE:
                    action = chance_outcome(state, rng)
                else:
                    if log and (wanted is None or decisions == want):
                        log.options.append(len(legal_actions(state, mover)))
                        if wanted is not None: want = next(wanted, -1)
                    decisions += 1
                    action = random_action(state, seat_rngs[mover] if seat_rngs else rng)
                state, steps = effect(state, action), steps + 1
            if log and wanted is not None: log.decisions = decisions

        * ``rng`` draws chance (as ``chance_outcome``), and every seat's decisions when ``seat_rngs``
          is ``None`` (the search bot's rollouts); ``seat_rngs[s]``, when given, draws seat ``s``'s
          (the lab's random bots, one generator each). A decision is drawn as ``random_action``
          draws it (in a game with secrets the lab's random bot picks ``rng.choice`` of its legal
          actions, so there ``random_action`` must draw alike; ``check_game`` checks it);
        * ``max_steps`` caps the steps (chance steps count); ``max_turns`` stops before the decision
          that would begin turn ``max_turns + 1`` (a turn: decisions in a row by one seat, the first
          one counted even when the playout starts inside it);
        * ``log`` (a :class:`PlayoutLog`), when given: the number of legal actions at each decision,
          the running scores at each turn end (when ``log.scores`` is a list), the first decider.
          When ``log.at`` is given (increasing decision numbers, 0 the playout's first decision) the
          numbers of legal actions are wanted at those decisions only: a playout may count them
          there alone (a listing can cost more than the move, and the lab's runner reads one
          decision in ``playtest.lab.BRANCHING_SAMPLE``) and then sets ``log.decisions`` to the
          decisions it played. One that counts every decision anyway (written before ``at``) leaves
          ``log.decisions`` ``None``, and readers pick the wanted entries out themselves.

        Return ``None`` at once, before drawing anything, for parameters or positions the compact
        form does not cover; callers then step the rules. Written only for sequential games (the
        callers use the rules in a simultaneous step).

        >>> import random, playtest
        >>> from playtest.check import playout_by_rules
        >>> game = playtest.load("corner_rush")
        >>> fast = game.random_playout(game.initial_state(), random.Random(3))
        >>> fast == playout_by_rules(game, game.initial_state(), random.Random(3))
        True
        >>> Game().random_playout(None, random.Random(1)) is None
        True
        """
        return None

    def random_order_parts(self, state: S, seat: int, rng: random.Random) -> "list[A] | None":
        """In a simultaneous step, a random whole order for pending ``seat``: its parts in the order
        they are played, each legal after the ones before it, the last one submitting it; or
        ``None`` (the default) when the game draws no whole orders, and a random player adds its
        parts one by one.

        A game whose orders are built from many parts writes it so that the lab's random player
        (:attr:`playtest.bots.Bot.random_orders`) writes an order as a person does, in a few dozen
        parts, instead of wandering over every part for a thousand steps. It draws with ``rng`` from
        what ``seat`` may know only (its own order, the public position), keeps the parts the seat
        has set already, and is part of the rules: ``check_game`` plays its parts ("random action
        is legal"). The lab takes the kit's own random bot's parts on this method's word and
        proves them at the decisions it samples (see :mod:`playtest.lab`); every part of any
        other bot's order goes through :meth:`check`.

        >>> Game().random_order_parts(None, 0, random.Random(1)) is None
        True
        """
        return None

    def all_orders(self, state: S, seat: int) -> "list[tuple[A, ...]] | None":
        """In a simultaneous step, every *complete order* pending ``seat`` may give from ``state``,
        listed by the game itself; or ``None`` (the default, and for any position the game does not
        list) to leave them to the kit's search. Optional, for speed only: the OpenSpiel and
        PettingZoo adapters offer a game whose orders are built part by part as one choice among
        the seat's complete orders (:mod:`playtest.interop.orders`), found by a breadth-first
        search over its parts at every simultaneous step; a game that knows them lists them here.
        (Not the search bots' ``complete_order``, which draws one order at random.)

        The listing must be exactly the search's (:func:`playtest.interop.orders.complete_orders`),
        the same orders in the same order: an order is one seat's parts, each legal after the ones
        before it, the last one (only) completing the seat's order (it is no longer pending, or
        the step ends); of the sequences that leave the same position the first met is listed:
        fewest parts first, then in the order the seat's ``legal_actions`` offers each part,
        position after position. ``check_game`` compares the two at the simultaneous steps of its
        random games (the "orders" property), and the adapters at every step they explore
        (refusing the game, naming the position, when they differ).

        >>> Game().all_orders(None, 0) is None
        True
        """
        return None

    def notation(self, state: S, action: A, viewer: int | None = None) -> str:
        """The action written for the move log, in the position it is played from.

        ``viewer`` is who reads it: ``None`` (the table) or a seat. A game with
        secrets writes only what ``viewer`` may know ("North submitted"), and
        reveals secrets in the notation of the action that reveals them.

        The default writes ``str(action)`` where ``viewer`` may know it. In a declared game with
        secrets it hides another seat's secret order ("North gives an order") and a chance
        result that ``viewer`` cannot see ("a hidden draw").
        """
        if self.has_secrets and self.game_type is not None:
            mover = self.to_move(state)
            if mover == SIMULTANEOUS and not self.game_type.public_orders:
                actor = self.seat_of(state, action)
                if viewer != actor:
                    return f"{self._seat_name(actor)} gives an order"
            elif mover == CHANCE and not self._chance_is_seen(state, action, viewer):
                return "a hidden draw"
        return str(action)

    def _chance_is_seen(self, state: S, action: A, viewer: int | None) -> bool:
        """Whether ``viewer`` can tell this chance result from the others (declared state only)."""
        outcomes = self.chance_outcomes(state)
        if isinstance(outcomes, UncountedChance) or len(outcomes) > 64:
            return False
        try:
            after = self.apply(state, action, check=False)
        except Exception:
            return False
        if not isinstance(after, State):
            return False
        seen = after.redact(viewer)
        for other, _ in outcomes:
            if other == action:
                continue
            other_after = self.apply(state, other, check=False)
            if other_after != after and isinstance(other_after, State) and other_after.redact(viewer) == seen:
                return False
        return True

    # ------------------------------------------------------------------ the move log (optional)
    def log_group(self, state: S, action: A, viewer: int | None = None) -> str | None:
        """A label shared by consecutive steps the table's move log shows as one row that unfolds
        (a seat's order given part by part: ``"North's order"``); ``None``: a row of its own."""
        return None

    def log_lines(self, state: S, action: A, viewer: int | None = None) -> Sequence[str] | None:
        """A step's row in the move log as several lines: the first is the row, the rest unfold
        under it (a resolution, board by board); ``None``: the notation alone."""
        return None

    def describe_state(self, state: S) -> str:
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

    def action_from_json(self, data: Any) -> A:
        """An action from its JSON form; ``ValueError`` (a :class:`MalformedAction`) for malformed data."""
        if not isinstance(data, dict):
            raise MalformedAction(f"malformed action: expected an object with a 'kind', got {type(data).__name__}")
        kinds = self._kinds if type(self)._kinds else {t.kind: t for t in self.action_types}
        kind = data.get("kind")
        if type(kind) is not str or kind not in kinds:
            shown = repr(kind) if type(kind) is str and len(kind) < 40 else type(kind).__name__
            raise MalformedAction(f"malformed action: {self.name} has no action kind {shown}; "
                                  f"its kinds are {', '.join(sorted(kinds))}")
        return cast(A, kinds[kind].from_json(data))

    def action_from_text(self, state: S, text: str, seat: int | None = None) -> A:
        """The legal action written ``text`` in ``state`` (its notation or ``str``), for ``seat``.

        Raises :class:`IllegalAction` when no legal action, or more than one, is written so.
        """
        wanted = " ".join(str(text).split()).lower()
        matches = [a for a in self.legal_actions(state, seat)
                   if wanted in (" ".join(str(a).split()).lower(),
                                 " ".join(self.notation(state, a, seat).split()).lower())]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise IllegalAction(f"{text[:200]!r} could be any of {len(matches)} actions here")
        raise IllegalAction(f"{text[:200]!r} is not the notation of a legal action here")

    def adapt_state(self, state: S, old: "Game[Any, Any, Any]") -> S:
        """The state to continue from after a live parameter change (default: unchanged)."""
        return state

    def returns(self, state: S) -> tuple[float, ...] | None:
        """What each seat gains at the end of the game (:meth:`Outcome.returns`), or ``None``
        while it goes on. Bots and the lab read these, not only who won."""
        outcome = self.outcome(state)
        if outcome is None:
            return None
        return outcome.returns(self.seat_count())

    def returns_range(self) -> tuple[float, float]:
        """The lowest and highest payoff a seat can get (``Outcome.payoffs``), for these parameters;
        the search bot scales payoffs by it. Default ``(-1, 1)``: games that only name winners."""
        return (-1.0, 1.0)

    def running_scores(self, state: S) -> "tuple[float, ...] | None":
        """Who is ahead as things stand: one finite number per seat, in seat order, higher is
        closer to winning by the game's own win condition (as these parameters set it), or
        ``None`` when the game has no such measure (the default).

        Teammates (seats that win together) get the same number. At a finished game with
        winners, every winner's number is at least every loser's: a measure that cannot
        promise that for some parameters returns ``None`` for them. It may read the whole
        state, secrets included (the lab calls it on true states, the search bot on the
        worlds it draws), and runs at every turn end of a lab game, so it should be cheap:
        reuse what the rules keep, and list no legal actions.

        The lab's lead changes and decisiveness come from it
        (:mod:`playtest.lab.metrics`), and the search bot scores a rollout it cuts
        short by it (:func:`playtest.mcts.returns`); with ``None`` there is no leader
        and a cut-short rollout counts as a draw.

        >>> Game().running_scores(None) is None
        True
        """
        return None


class PlayoutLog:
    """What :meth:`Game.random_playout` reports as it plays, for the lab's runner: ``options``, the
    number of legal actions at every decision, in order; ``scores``, the running scores at every
    turn end (read only when it is a list: ``PlayoutLog(scores=True)``); ``first``, ``to_move`` at
    the first decision (``None`` when there was none).

    ``at`` (optional) names the decisions whose options are wanted: an iterable of increasing
    decision numbers (0 is the playout's first decision; it is read lazily, so it may be endless).
    A playout that honours it appends to ``options`` at those decisions only and sets
    ``decisions`` to the number of decisions it played; one written without it counts every
    decision and leaves ``decisions`` ``None`` (:meth:`wanted` then picks the wanted entries out).

    >>> log = PlayoutLog(scores=True)
    >>> log.options, log.scores, log.first, log.at, log.decisions
    ([], [], None, None, None)
    >>> counted = PlayoutLog(at=[0, 3])
    >>> counted.options, counted.decisions = [2, 5], 4           # a playout that honours ``at``
    >>> counted.wanted()
    ([2, 5], 4)
    >>> old = PlayoutLog(at=[0, 3])
    >>> old.options = [2, 9, 9, 5]                               # one that counts every decision
    >>> old.wanted([0, 3])
    ([2, 5], 4)
    """

    __slots__ = ("options", "scores", "first", "at", "decisions")

    def __init__(self, scores: bool = False, at: "Iterable[int] | None" = None):
        self.options: list[int] = []
        self.scores: list[Any] | None = [] if scores else None
        self.first: int | None = None
        self.at = at
        self.decisions: int | None = None

    def wanted(self, at: "Iterable[int] | None" = None) -> tuple[list[int], int]:
        """(the options at the wanted decisions, the decisions played), whichever way the playout
        counted: as reported when it set :attr:`decisions`, else picked out of every decision's
        count at the decisions ``at`` names (the same numbers as :attr:`at`, given again: ``at``
        may be an iterator the playout has read). With no ``at`` at all, every decision's."""
        if self.decisions is not None:
            return self.options, self.decisions
        options = self.options
        decisions = len(options)
        if at is None:
            return options, decisions
        picked = []
        for index in at:
            if index >= decisions:
                break
            picked.append(options[index])
        return picked, decisions

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, PlayoutLog) and self.options == other.options and self.scores == other.scores
                and self.first == other.first and self.decisions == other.decisions)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        counted = "" if self.decisions is None else f", decisions={self.decisions!r}"
        return f"PlayoutLog(options={self.options!r}, scores={self.scores!r}, first={self.first!r}{counted})"


def randbelow(rng: random.Random) -> Callable[[int], int]:
    """``rng.randrange(n)`` for a positive ``n``, for a playout's inner loop: a plain
    ``random.Random``'s own ``_randbelow`` (``randrange(n)`` calls just that for ``n > 0``, so the
    same numbers come out and the generator ends in the same state), and ``rng.randrange`` itself for
    any other generator.

    >>> a, b = random.Random(5), random.Random(5)
    >>> draw = randbelow(a)
    >>> [draw(6) for _ in range(4)] == [b.randrange(6) for _ in range(4)], a.getstate() == b.getstate()
    (True, True)
    """
    return cast("Callable[[int], int]", getattr(rng, "_randbelow")) if type(rng) is random.Random else rng.randrange


def _malformed(action: Action) -> bool:
    try:
        check_action_types(action)
    except MalformedAction:
        return True
    return False


# ``EndTurn`` is every game's: a declared game lists it among its action_types like any other
_ = EndTurn


def _short_text(text: str, limit: int = 300) -> str:
    """A value for the default view's text board, never thousands of characters."""
    return text if len(text) <= limit else text[:limit - 1] + "…"
