"""A kit game as a numbering library sees it: its shape (dynamics, chance, information, utility,
longest game, numbers of actions) and a *play*, one position with its history, stepped by integer
action ids. OpenSpiel's and PettingZoo's adapters are thin layers over it; it imports neither.

Four forms, chosen once per game and parameters (:class:`KitShape`):

* ``sequential``: the kit's seats act in turn; ids are the game's :class:`ActionEncoding`.
* ``simultaneous``: every order is one action (Goofspiel's bids): a simultaneous node over the
  complete orders, a seat that has nothing to order plays the extra id ``pass_id``.
* ``orders``: orders built part by part whose complete orders can be listed (Secret Bid; see
  :mod:`playtest.interop.orders` for the bound, :data:`~playtest.interop.orders.MAX_JOINT_ORDERS`
  joint orders a step): a simultaneous node over the complete orders, numbered by an
  :class:`~playtest.interop.orders.OrderTable` (a game that lists a seat's complete orders itself,
  :meth:`playtest.Game.all_orders`, is asked instead of searched); a seat not pending plays ``pass_id``. The
  joint action gives the orders one seat after another, part by part, in seat order. In the
  move log a seat reads its own parts, and of another seat's order only the part that completes
  it (the game's notation for that seat: Secret Bid's "South submitted", or the reveal), so the
  number of parts another seat used is not shown (unless the game declares ``public_orders``).
* ``hidden_orders``: orders built part by part that cannot be listed (Back to the Wall) become
  a sequential game with hidden orders: the pending seats give their parts in seat order, the
  lowest pending seat first, each part an action that the other seats' information states
  do not show (the game's own per-viewer notation and redaction hide them). A seat that has
  given ``max_parts`` parts of one order is offered only the actions that complete it (when
  there are any), so random play ends: those of the kinds seen completing an order
  (:func:`~playtest.interop.orders.completing_kinds`, Back to the Wall's ``submit``), so that
  step tries a few actions, not every part.

*Staged decisions* (``stages``, in the ``sequential`` and ``hidden_orders`` forms): where the
seat to act may choose among several kinds of action, it first chooses the kind (one id per
kind, after the encoding's ids: ``kind build``), then which action of that kind; a kind with
one action (``end_turn``, ``submit``) is played at once, and a step that offers one kind only
is one step as before. Every legal action stays reachable, by its kind, and nothing else
changes (chance, returns, what a seat may know: the kind chosen is shown, as ``seat 1 chooses
a build``, to the seat itself and, in a game of perfect information or public orders, to every
seat). A uniformly random player then picks the kind first, as a person does: it ends Then
There Was One's wall turn with probability 1/4 (one kind of four) where a uniform pick over the
turn's ~130 actions rarely does, and it gives Back to the Wall's orders a few parts at a time
instead of wandering among ~270 parts. ``stages="auto"`` (the default) stages a game whose
listings that mix kinds held :data:`STAGE_LISTING` actions or more on average in its
exploration (those two games); ``"kinds"`` and ``"none"`` choose.

*Listing by bit masks* (optional, duck-typed): a game that keeps one prebuilt action object per
edge or cell may write ``legal_runs(state)``, the seat to move's legal actions as runs
``[(table, mask), ...]`` whose ``select(table, mask)`` (:func:`playtest.geometry.select`)
select together exactly the actions its listing (``legal_actions``, or ``candidates``) gives,
each once, the same objects, each table one kind of action and the kinds in the listing's order
(within a kind the table's order may differ from the listing's: ids are sorted, a kind's
actions in :meth:`KitPlay.kind_groups` then come in the table's order); or ``None`` where it
lists them the usual way. The adapter then numbers the actions by the tables' remembered ids
(:meth:`~playtest.kernel.encoding.ActionEncoding.select_ids`) without making or reading an
action, and a staged decision's first step reads only which masks are not empty (Then There Was
One's wall turn: which of its walls to pick up, walls to build, obstacles to buy and the end
of the turn are legal, not the few hundred actions themselves). It is read only where the game's
own class (or a subclass of it) writes both that listing and ``legal_runs``: a subclass that
changes the listing alone is listed the usual way.

Chance steps the game lists are chance nodes with the game's probabilities (ids from a chance
encoding). A chance step too large to list (:class:`playtest.UncountedChance`) is offered as
``draws`` equally likely seeded draws: draw ``i`` samples the game's own distribution with a
generator seeded by the ids played so far and ``i``, so it is a sample of that distribution
(exact in the limit) and replays identically (saving a game saves the draw numbers). Listing
the draws samples none of them: only the draw played, or named (``draw 3 of 32: ...``), is
made; two draws that happen to give the same outcome stay two ids of the same probability.

>>> import playtest
>>> shape = KitShape.of(playtest.load("goofspiel", cards=4))
>>> shape.form, shape.information, shape.num_actions, shape.max_length, shape.staged
('simultaneous', 'imperfect', 25, 39, False)
"""

from __future__ import annotations

import hashlib
import json
import random
from bisect import bisect_left
from dataclasses import dataclass, field
from functools import partial
from itertools import groupby
from operator import itemgetter
from typing import Any, cast

from ..kernel import CHANCE, SIMULTANEOUS, Game, State, UncountedChance
from ..kernel.encoding import ActionEncoding, Exploration, explore
from ..kernel.game import _overrides
# (StateMemo and its bounds live in .memo; imported from here as before)
from .memo import MEMO_SIZE as MEMO_SIZE, MEMO_TRIAL as MEMO_TRIAL, StateMemo
from .orders import Order, OrderTable, complete_orders, completing_kinds, explore_orders, game_orders, order_done
from .runs import _Run, _run_ids, one_live_run

__all__ = ["KitShape", "KitPlay", "resolve_game", "observation_text"]

#: the most positions whose complete orders a shape remembers (then it starts again)
ORDER_MEMO = 4096
#: the decision forms :meth:`KitShape.of` takes (``stages``)
STAGES = ("auto", "kinds", "none")
#: ``stages="auto"`` stages a game whose listings that mix kinds of action hold this many actions on average
STAGE_LISTING = 32

TERMINAL = -4      # OpenSpiel's kTerminalPlayerId
SIM = -2           # OpenSpiel's kSimultaneousPlayerId
CHANCE_ID = -1     # OpenSpiel's kChancePlayerId


def resolve_game(name_or_game: Any, **params: Any) -> Game:
    """A kit game from its name (and parameters) or a game object (``ValueError`` otherwise)."""
    if isinstance(name_or_game, Game):
        return name_or_game.with_params(**params) if params else name_or_game
    if isinstance(name_or_game, type) and issubclass(name_or_game, Game):
        return name_or_game(**params)
    if isinstance(name_or_game, str):
        from ..kernel import load
        return load(name_or_game, **params)
    raise ValueError(f"a kit game is named by text or given as a playtest.Game, not {type(name_or_game).__name__}")


def observation_text(game: Game, state: Any, seat: int | None) -> str:
    """What ``seat`` (``None``: the table, which knows no seat's secrets) may know of ``state``,
    as one JSON line: a declared state's redaction, a secret-free game's whole position, or
    else the seat's own board (its scene, which shows only what it may see)."""
    if isinstance(state, State):
        data: Any = state.redact(seat)
    elif not game.has_secrets and hasattr(state, "to_json"):
        data = state.to_json()
    else:
        data = game.view(state, seat)
    return json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)


@dataclass
class KitShape:
    """What a kit game is, for numbering libraries; made by :meth:`of` (cached per parameters)."""

    game: Game
    form: str                    # "sequential", "simultaneous" or "hidden_orders"
    chance: bool
    information: str             # "perfect" or "imperfect"
    utility: str                 # "zero_sum", "constant_sum" or "general_sum"
    utility_sum: float | None
    min_utility: float
    max_utility: float
    max_length: int
    length_declared: bool
    encoding: ActionEncoding
    chance_encoding: ActionEncoding
    draws: int                   # seeded draws offered for an uncounted chance step (0: none met)
    max_parts: int
    found: Exploration
    orders: OrderTable | None = None     # the complete orders (the ``orders`` form)
    order_memo: dict[tuple[Any, int], list[int]] = field(default_factory=dict, repr=False, compare=False)
    completing: frozenset[str] = frozenset()   # the kinds that complete an order (``hidden_orders``)
    staged: bool = False         # a decision among several kinds of action is made in two steps (see above)
    state_memo: "StateMemo" = field(default_factory=lambda: StateMemo(), repr=False, compare=False)
    outcome_memo: "StateMemo" = field(default_factory=lambda: StateMemo(256), repr=False, compare=False)
    #: the sorted ids of the runs met (see :func:`_run_ids`)
    run_memo: dict[tuple[int, int], tuple[Any, tuple[int, ...]]] = field(default_factory=dict, repr=False,
                                                                         compare=False)
    #: the last dense run numbered of each table, by its identity: (table, mask, sorted ids, the table's
    #: ids in its order) (see :func:`_run_ids`)
    run_near: dict[int, Any] = field(default_factory=dict, repr=False, compare=False)

    _CACHE = {}  # type: dict[tuple[Any, ...], KitShape]

    @classmethod
    def of(cls, game: Game, explore_games: int = 20, seed: int = 0, draws: int = 32,
           max_parts: int = 12, stages: str = "auto") -> "KitShape":
        """The shape of ``game``: declared where it has a ``game_type``, inferred otherwise from
        ``explore_games`` seeded random games (see :func:`playtest.kernel.encoding.explore`).
        ``stages``: ``"kinds"`` (decisions among several kinds of action in two steps),
        ``"none"``, or ``"auto"`` (``"kinds"`` for a game whose listings that mix kinds hold
        :data:`STAGE_LISTING` actions or more on average in the exploration)."""
        if stages not in STAGES:
            raise ValueError(f"stages is one of {', '.join(map(repr, STAGES))}, not {stages!r}")
        # keyed by the class too: a game redefined in a notebook cell under the same name is explored afresh
        key = (game.name, id(type(game)), json.dumps(game.params.to_json(), sort_keys=True), explore_games, seed,
               draws, max_parts, stages)
        cached = cls._CACHE.get(key)
        if cached is not None:
            return cached
        found = explore(game, games=explore_games, seed=seed)
        declared = game.game_type
        simultaneous = found.simultaneous or (declared is not None and declared.dynamics == "simultaneous")
        form = ("sequential" if not simultaneous else "simultaneous" if found.one_part_orders and found.simultaneous
                else "hidden_orders")
        encoding = ActionEncoding.for_game(game, games=explore_games, seed=seed, found=found)
        listed = explore_orders(game, encoding, explore_games, seed, max_parts) if form == "hidden_orders" else None
        if listed is not None:
            form = "orders"
        completing = completing_kinds(game, seed=seed) if form == "hidden_orders" else frozenset()
        secret_orders = simultaneous and not (declared is not None and declared.public_orders)
        imperfect = (game.has_secrets or secret_orders or (declared is not None and declared.information == "imperfect"))
        sums = {round(sum(r), 9) for r in found.returns}
        if declared is not None:
            utility = declared.utility
        else:
            utility = "zero_sum" if sums <= {0.0} else "constant_sum" if len(sums) == 1 else "general_sum"
        utility_sum = 0.0 if utility == "zero_sum" else (next(iter(sums)) if utility == "constant_sum" and sums
                                                            else None)
        lo, hi = game.returns_range()
        if declared is not None and declared.max_length is not None:
            longest, length_declared = declared.max_length, True
        else:
            longest, length_declared = found.longest * 3 + 20, False
        staged = form in ("sequential", "hidden_orders") and (
            stages == "kinds" or (stages == "auto" and found.mixed_listings > 0
                                  and found.mixed_actions >= STAGE_LISTING * found.mixed_listings))
        made = cls(game=game, form=form, staged=staged,
                   chance=found.chance_steps or (declared is not None and declared.chance),
                   information="imperfect" if imperfect else "perfect", utility=utility, utility_sum=utility_sum,
                   min_utility=float(lo), max_utility=float(hi), max_length=longest, length_declared=length_declared,
                   encoding=encoding, orders=listed[0] if listed is not None else None, completing=completing,
                   chance_encoding=ActionEncoding.for_game(game, games=explore_games, seed=seed, chance=True,
                                                           found=found),
                   draws=draws if found.uncounted_chance else 0, max_parts=max_parts, found=found)
        cls._CACHE[key] = made
        return made

    def steppers(self) -> tuple[Any, Any]:
        """``(apply, listing)`` for the adapter's steps, found once: ``apply(state, action)`` is the
        game's ``apply(..., check=False)`` (its ``effect`` when the game keeps the kernel's
        ``apply``), ``listing(state, seat)`` the legal actions of ``seat``, the seat to move
        (its ``candidates`` when the game keeps the kernel's ``legal_actions`` and declares its
        candidates legal, which is what that ``legal_actions`` returns then; the seat's own at a
        simultaneous step)."""
        made = self.__dict__.get("_steppers")
        if made is None:
            game, cls = self.game, type(self.game)
            # bound methods and partials of module functions: a shape pickles (OpenSpiel pickles games)
            apply = game.effect if cls.apply is Game.apply else partial(_apply_unchecked, game)
            plain = cls.legal_actions is Game.legal_actions and game._writes_candidates and game.candidates_are_legal
            listing = game.candidates if plain else partial(_legal_actions, game)
            made = self.__dict__["_steppers"] = (apply, listing)
        return cast("tuple[Any, Any]", made)

    def runner(self) -> Any:
        """The game's ``legal_runs`` (bound), when the adapter may read it (the ``sequential``
        form; the game's class, or a subclass of it, writes both ``legal_runs`` and the listing
        the adapter reads: see the module docstring), else ``None``; found once."""
        made = self.__dict__.get("_runner", False)
        if made is False:
            cls = type(self.game)
            listing = "legal_actions" if cls.legal_actions is not Game.legal_actions else "candidates"
            runs_owner, listing_owner = _owner(cls, "legal_runs"), _owner(cls, listing)
            usable = (self.form == "sequential" and runs_owner is not None and listing_owner is not None
                      and issubclass(runs_owner, listing_owner))
            made = self.__dict__["_runner"] = self.game.legal_runs if usable else None   # type: ignore[attr-defined]
        return made

    def initial_state(self) -> Any:
        """The game's set-up, made once: kit states are immutable values, so every new play (and
        every clone OpenSpiel makes, which starts from a new initial state) shares it."""
        made = self.__dict__.get("_initial")
        if made is None:
            made = self.__dict__["_initial"] = self.game.initial_state()
        return made

    @property
    def lists_orders(self) -> bool:
        """Whether the game lists a seat's complete orders itself (:meth:`playtest.Game.all_orders`;
        the ``orders`` form, where the exploration found its listing the search's)."""
        made = self.__dict__.get("_lists_orders")
        if made is None:
            made = self.__dict__["_lists_orders"] = self.orders is not None and _overrides(type(self.game), "all_orders")
        return cast(bool, made)

    @property
    def public_orders(self) -> bool:
        """Whether the game declares its simultaneous orders public."""
        declared = self.game.game_type
        return bool(declared is not None and declared.public_orders)

    @property
    def num_players(self) -> int:
        made = self.__dict__.get("_players")
        if made is None:
            made = self.__dict__["_players"] = len(self.game.seats())
        return cast(int, made)

    @property
    def pass_id(self) -> int:
        """The id a seat with nothing to order plays at a simultaneous node."""
        return self.orders.capacity if self.orders is not None else self.encoding.capacity

    @property
    def num_actions(self) -> int:
        """How many player action ids there are (``0..num_actions-1``): the encoding's, then
        (staged) one per kind of action."""
        if self.orders is not None:
            return self.orders.capacity + 1
        if self.staged:
            return self.encoding.capacity + len(self.encoding.types)
        return self.encoding.capacity + (1 if self.form == "simultaneous" else 0)

    def kind_of(self, code: int) -> str | None:
        """The kind of action that the staged id ``code`` chooses (``None``: not such an id)."""
        k = code - self.encoding.capacity
        if self.staged and 0 <= k < len(self.encoding.types):
            return cast(str, self.encoding.types[k].kind)
        return None

    @property
    def num_chance_outcomes(self) -> int:
        """How many chance ids there are: the listed outcomes, then the seeded draws."""
        return max(1, self.chance_encoding.capacity + self.draws)


_UNASKED = object()     # (the game's legal_runs not asked yet)
_first, _second = itemgetter(0), itemgetter(1)


def _owner(cls: type, name: str) -> type | None:
    """The class of ``cls``'s method resolution order that writes ``name`` (``None``: none does)."""
    return next((k for k in cls.__mro__ if name in vars(k)), None)


def _action_id(game: Game, code: Any) -> int:
    """``code`` as an action id (a whole number: an ``int``, or an integer type such as numpy's), or
    ``ValueError`` naming what it is instead (a bool, a float, text: malformed, whatever the position)."""
    if isinstance(code, bool) or not hasattr(code, "__index__"):
        raise ValueError(f"{game.name}: an action id is a whole number, not {type(code).__name__}")
    return int(code.__index__())


def _apply_unchecked(game: Game, state: Any, action: Any) -> Any:
    return game.apply(state, action, check=False)


def _legal_actions(game: Game, state: Any, seat: int) -> Any:
    return game.legal_actions(state, seat)


class KitPlay:
    """One position of a kit game and how it was reached, stepped by integer ids.

    :attr:`history` gives ``(state before, kit action, actor, concealed)`` for every part played
    (concealed: a part of a complete order before its last, in the ``orders`` form); information states
    are read from it lazily (notation per viewer), so stepping costs little more than the kit's
    own ``apply``. A step records only the kit action and its actor; the states before them are
    kept once something has asked for them (a log, :attr:`history`), and until then are made
    again, when first asked for, by replaying the actions from the starting position (the kit's
    ``effect`` is a function of the position and the action). A random simulation that reads
    no information state so keeps no position alive but the current one: a game's positions
    held for its whole length would be garbage the collector must walk, again and again (it
    cost Corner Rush and Goofspiel a sixth to a quarter of their steps).
    """

    __slots__ = ("shape", "game", "state", "_start", "_acts", "_seats", "_concealed", "_befores", "ids", "parts", "logs", "_legal", "tensors", "_current",
                 "_chance", "_chance_actions", "_effect", "_list", "stage", "_groups", "_by_id", "_hidden", "_plain",
                 "_encode", "_staged", "_one_part", "_memo", "_kind_base", "_runner", "_select_ids", "_run_memo", "_run_near")

    def __init__(self, shape: KitShape, state: Any = None):
        self.shape = shape
        self.game = shape.game
        self._effect, self._list = shape.steppers()
        self._runner = shape.runner()
        self._select_ids = shape.encoding.select_ids
        self._run_memo = shape.run_memo
        self._run_near = shape.run_near
        self._by_id = shape.encoding._actions.get
        self._hidden = shape.form == "hidden_orders"
        self._plain = shape.form == "sequential" and not shape.staged      # ids of the listing, as they are
        self._encode = shape.encoding.sorted_ids
        self._staged = shape.staged
        # a simultaneous node over one-action orders: (the number of seats, pass_id), else ()
        self._one_part = (shape.num_players, shape.pass_id) if shape.form == "simultaneous" else ()
        self._memo = shape.state_memo
        # the first id that chooses a kind of action (staged), not an action: past every id otherwise
        self._kind_base = shape.encoding.capacity if shape.staged else 1 << 62
        self.state = self._start = shape.initial_state() if state is None else state
        self._acts: list[Any] = []                  # the kit actions played (every part), in turn
        self._seats: list[int] = []                 # who played each (CHANCE_ID for chance)
        self._concealed: set[int] = set()           # the indices of concealed parts (the ``orders`` form)
        self._befores: list[Any] | None = None      # the positions before them, once asked for
        self.ids: list[int] = []
        self.parts = (-1, 0)             # (seat, parts given) of the order being built (hidden_orders)
        self.logs: dict[int | None, list[str | None]] = {}
        self._legal: dict[int, list[int]] = {}
        self.tensors: dict[Any, Any] = {}          # board planes of ``state`` by viewer (the observer's cache)
        self._current: int | None = None
        self._chance: list[tuple[int, float]] | None = None    # this position's chance outcomes, once listed
        self._chance_actions: dict[int, Any] = {}     # their kit actions by id (a listed chance step's)
        self.stage = -1                  # staged: the kind chosen (an index of the encoding's types), -1 none
        self._groups: dict[int, Any] | None = None    # staged: the actor's actions here by kind (see _kinds)

    def copy(self) -> "KitPlay":
        other = KitPlay.__new__(KitPlay)
        other.shape, other.game, other.state = self.shape, self.game, self.state
        other._effect, other._list, other._by_id, other._hidden = self._effect, self._list, self._by_id, self._hidden
        other._plain, other._encode, other._staged = self._plain, self._encode, self._staged
        other._one_part, other._memo, other._kind_base = self._one_part, self._memo, self._kind_base
        other._runner, other._select_ids, other._run_memo = self._runner, self._select_ids, self._run_memo
        other._run_near = self._run_near
        other._start, other._acts, other._seats = self._start, list(self._acts), list(self._seats)
        other._concealed = set(self._concealed)
        other._befores = None if self._befores is None else list(self._befores)
        other.ids, other.parts = list(self.ids), self.parts
        other.logs = {k: list(v) for k, v in self.logs.items()}
        other._legal = dict(self._legal)
        other.tensors = self.tensors
        other._current = self._current
        other._chance = self._chance
        other._chance_actions = self._chance_actions
        other.stage, other._groups = self.stage, self._groups
        return other

    def __deepcopy__(self, memo: Any) -> "KitPlay":
        # OpenSpiel clones a Python state by deep-copying it: kit states are immutable values,
        # the game and its shape are shared, only the lists are copied
        return self.copy()

    # ------------------------------------------------------------------ who acts
    def current(self) -> int:
        """The seat to act, ``CHANCE_ID``, ``SIM`` (a simultaneous node) or ``TERMINAL``."""
        who = self._current
        if who is None:
            mover = self.game.to_move(self.state)
            if type(mover) is int and mover >= 0:       # (a seat: the usual answer)
                self._current = mover
                return mover
            who = self._current = (int(mover) if mover is not None and mover >= 0 else TERMINAL if mover is None
                                   else CHANCE_ID if mover == CHANCE else self._first_pending() if self._hidden
                                   else SIM)
        return who

    def _first_pending(self) -> int:
        pending = self.game.pending_seats(self.state)
        if pending:
            return min(pending)
        for seat in range(self.shape.num_players):     # nobody pending but the step goes on: whoever can act
            if self.game.legal_actions(self.state, seat):
                return seat
        return 0

    def seat_actions(self, seat: int) -> list[Any]:
        """The kit actions ``seat`` may take now (in the adapter's form)."""
        who = self.current()
        game, state = self.game, self.state
        if who >= 0 and self.shape.form != "hidden_orders":
            return game.legal_actions(state) if seat == who else []
        if who == SIM:
            return self._list(state, seat) if seat in game.pending_seats(state) else []
        if who < 0 or seat != who:
            return []
        if game.to_move(state) != SIMULTANEOUS:
            return game.legal_actions(state)
        actions = game.legal_actions(state, seat)
        if self.parts[0] == seat and self.parts[1] >= self.shape.max_parts:
            kinds = self.shape.completing
            completing = [a for a in actions if (not kinds or getattr(a, "kind", None) in kinds)
                          and self._completes(seat, a)]
            return completing or actions
        return actions

    def _completes(self, seat: int, action: Any) -> bool:
        return order_done(self.game, self.state, self.game.apply(self.state, action, check=False), seat)

    def legal_ids(self, seat: int) -> list[int]:
        """The sorted ids ``seat`` may play now (a seat with nothing to order at a simultaneous
        node: ``[pass_id]``)."""
        cached = self._legal.get(seat)
        if cached is not None:
            return cached
        who = self._current
        if who is None:
            who = self.current()
        if who == seat and self._plain and not self._memo.on:    # the usual step: the seat to move
            runs = self._runner(self.state) if self._runner is not None else None
            got = _run_ids(self._run_memo, self._select_ids, runs, self._run_near) if runs is not None else None
            ids = self._encode(self._list(self.state, who)) if got is None else got
            self._legal[seat] = ids
            return ids
        if who == seat and self._staged and self.stage < 0 and self._runner is not None and who >= 0:
            # staged, listed by bit masks: a listing of one kind (the usual one) is numbered at once
            runs = self._runner(self.state)
            live = one_live_run(runs)
            if live is not None:      # (_run_ids of the one run, remembered: inline)
                hit = self._run_memo.get((id(live[0]), live[1]))
                if hit is not None and hit[0] is live[0]:
                    ids = self._legal[seat] = list(hit[1])
                    return ids
            return self._staged_first(who, runs, live)
        if who == SIM and self._one_part and not self._memo.on:    # a seat's one-action orders
            state = self.state
            ids = self._encode(self._list(state, seat)) if seat in self.game.pending_seats(state) else []
            if not ids:
                ids = [self.shape.pass_id]
            self._legal[seat] = ids
            return ids
        shape = self.shape
        if shape.staged and who == seat and who >= 0:
            ids = self._staged_ids(who)
        elif shape.orders is not None and who == SIM:
            ids = self._order_ids(seat)
        else:
            # the usual step (the seat to move), or a seat's one-action orders: a function of the
            # position, remembered per position while that pays (see StateMemo)
            plain = who == seat and who >= 0 and shape.form != "hidden_orders"
            memo = shape.state_memo if plain or who == SIM else None
            key = (self.state, seat)
            got = memo.get(key) if memo is not None and memo.on else None
            if got is not None:
                ids = list(got)
            else:
                ids = shape.encoding.ids(self._list(self.state, who) if plain else self.seat_actions(seat))
                ids.sort()
                if not ids and who == SIM:
                    ids = [shape.pass_id]
                if memo is not None and memo.on:
                    memo.put(key, tuple(ids))
        if not ids and who == SIM:
            ids = [shape.pass_id]
        self._legal[seat] = ids
        return ids

    def _staged_first(self, who: int, runs: Any, live: Any) -> list[int]:
        """:meth:`legal_ids` at a staged decision's first step, listed by bit masks (``runs``, the
        game's ``legal_runs`` here; ``live``: its one run that selects something, or ``None``),
        when the one run's ids are not remembered yet or there are several kinds (or none)."""
        got = _run_ids(self._run_memo, self._select_ids, [live], self._run_near) if live is not None else None
        ids = self._legal[who] = got if got is not None else self._staged_ids(who, runs)
        return ids

    def kind_groups(self) -> dict[int, list[Any]]:
        """Staged: the legal kit actions of the seat to act, by kind (an index of the encoding's
        types), listed once per position."""
        return {k: group.actions() if isinstance(group, _Run) else group for k, group in self._kinds().items()}

    def _kinds(self, listed: bool = False, runs: Any = _UNASKED) -> dict[int, Any]:
        """:meth:`kind_groups` as the play keeps them: a kind's actions, or (a game listed by bit
        masks, unless ``listed``) its :class:`_Run` (``runs``: the game's ``legal_runs`` here,
        when already asked)."""
        groups = self._groups
        if groups is not None and not listed:
            return groups
        who = self.current()
        if listed or who < 0 or self._runner is None:
            runs = None
        elif runs is _UNASKED:
            runs = self._runner(self.state)
        groups = {}
        if runs is not None:
            by_type = self.shape.encoding._by_type
            for table, mask in runs:
                if not mask:
                    continue
                k = by_type.get(type(table[0]))
                if k is None:
                    self.shape.encoding.encode(table[0])      # raises, naming the action
                    continue
                run = groups.get(k)
                if run is None:
                    groups[k] = _Run([(table, mask)], mask.bit_count())
                else:
                    run.parts.append((table, mask))
                    run.count += mask.bit_count()
        elif who >= 0:
            listing = self._list(self.state, who) if self.shape.form != "hidden_orders" else self.seat_actions(who)
            by_type = self.shape.encoding._by_type
            for cls, part in groupby(listing, type):      # games list an action kind after another
                k = by_type.get(cls)
                if k is None:
                    self.shape.encoding.encode(next(part))       # raises, naming the action
                    continue
                got = groups.get(k)
                if got is None:
                    groups[k] = list(part)
                else:
                    got.extend(part)
        self._groups = groups
        return groups

    def _staged_ids(self, who: int, runs: Any = _UNASKED) -> list[int]:
        groups = self._kinds(runs=runs)
        if self.stage >= 0:
            k = self.stage
        elif len(groups) > 1:                       # first the kind of action
            return sorted(map(self._kind_base.__add__, groups))
        elif groups:
            k = next(iter(groups))
        else:
            return []
        group = groups[k]
        if isinstance(group, _Run):
            ids = _run_ids(self._run_memo, self._select_ids, group.parts, self._run_near)
            if ids is not None:
                return ids
            group = self._kinds(listed=True)[k]     # an action that takes a spare id: numbered as listed
        return self._encode(group)

    def _choose_kind(self, seat: int, code: int) -> None:
        """Staged: ``seat`` chooses the kind of its action (a kind with one action plays it)."""
        if self.stage >= 0 or seat != self.current() or code not in self.legal_ids(seat):
            raise ValueError(f"{self.game.name}: action id {code} (choose {self.shape.kind_of(code)}) is not legal "
                             f"for seat {seat} here")
        self._chosen(seat, code)

    def _chosen(self, seat: int, code: int) -> None:
        """:meth:`_choose_kind` once ``code`` is known to be one of the kind ids just listed for
        ``seat``, the seat to act (OpenSpiel's usual step: the id it picked from that listing)."""
        k = code - self._kind_base
        group = self._kinds()[k]
        if isinstance(group, _Run):
            if group.count == 1:
                self._play(seat, code, group.actions()[0])
                return
        elif len(group) == 1:
            self._play(seat, code, group[0])
            return
        self.ids.append(code)
        self.stage = k
        self._legal = {}

    def _order_ids(self, seat: int) -> list[int]:
        """The sorted ids of ``seat``'s complete orders here (the ``orders`` form), remembered
        per position: the rules are a function of the position, and random play meets the same
        ones again."""
        game, state, shape = self.game, self.state, self.shape
        if seat not in game.pending_seats(state):
            return []
        if shape.lists_orders:         # the game's own listing (Game.all_orders), the search's order for order
            listed = game_orders(game, state, seat, shape.max_parts)
            if listed is not None:
                return sorted(map(cast(OrderTable, shape.orders).encode, listed))
        memo: dict[tuple[Any, int], list[int]] | None = shape.order_memo
        try:
            got = shape.order_memo.get((state, seat))
        except TypeError:          # an unhashable position: listed each time
            got, memo = None, None
        if got is None:
            orders = complete_orders(game, state, seat, shape.max_parts)
            if orders is None:
                raise ValueError(f"{game.name}: seat {seat}'s orders here are too many to list (more than "
                                 f"the bound the game was explored with); register it with another max_parts")
            table = cast(OrderTable, shape.orders)
            got = sorted(table.encode(order) for order in orders)
            if memo is not None:
                if len(memo) >= ORDER_MEMO:
                    memo.clear()
                memo[(state, seat)] = got
        return list(got)

    def order_of(self, seat: int, code: int) -> Order:
        """The complete order (its parts) of ``code`` for ``seat`` here, checked legal."""
        if code not in self.legal_ids(seat):
            raise ValueError(f"{self.game.name}: order id {code} is not legal for seat {seat} here")
        return cast(OrderTable, self.shape.orders).decode(code)

    # ------------------------------------------------------------------ chance
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(id, probability)`` of the chance step, sorted by id (listed once per position)."""
        if self._chance is None:
            self._chance = self._chance_outcomes()
        return self._chance

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        memo = self.shape.state_memo
        key = (self.state, CHANCE_ID) if memo.on else None
        got = memo.get(key) if key is not None else None
        if got is not None:
            self._chance_actions = got[1]
            return list(got[0])
        outcomes = self.game.chance_outcomes(self.state)
        if isinstance(outcomes, UncountedChance):
            # the draws are listed, not made: only the one played (or named) is sampled
            base, draws = self.shape.chance_encoding.capacity, self.shape.draws
            self._chance_actions = {}
            return [(base + i, 1 / draws) for i in range(draws)]
        # a game that lists the same outcome objects again (a die) is numbered once per listing
        same = self.shape.outcome_memo
        if same.on:
            seen = tuple(map(id, outcomes))
            got = same.get(seen)
            if got is not None:
                self._chance_actions = got[1]
                return list(got[0])
        actions = list(map(_first, outcomes))
        ids = self.shape.chance_encoding.ids(actions)
        self._chance_actions = dict(zip(ids, actions))
        listed = sorted(zip(ids, map(float, map(_second, outcomes))))
        if memo.on and key is not None:
            memo.put(key, (tuple(listed), self._chance_actions))
        if same.on:
            same.put(seen, (tuple(listed), self._chance_actions, outcomes))   # (kept: their ids name them)
        return listed

    def _draw(self, outcomes: UncountedChance, i: int) -> Any:
        key = json.dumps([self.ids, i], separators=(",", ":")).encode()
        seed = int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big")
        return outcomes.sample(random.Random(seed))

    def chance_action(self, code: int) -> Any:
        """The kit action of chance id ``code`` here."""
        base = self.shape.chance_encoding.capacity
        if code >= base:
            outcomes = self.game.chance_outcomes(self.state)
            if not isinstance(outcomes, UncountedChance) or not 0 <= code - base < self.shape.draws:
                raise ValueError(f"{self.game.name}: {code} is not a chance outcome here")
            return self._draw(outcomes, code - base)
        return self.shape.chance_encoding.decode(code)

    # ------------------------------------------------------------------ stepping
    def action_of(self, seat: int, code: int) -> Any:
        """The kit action of ``code`` for ``seat`` (``CHANCE_ID`` for chance), checked legal."""
        if seat == CHANCE_ID:
            if code not in {c for c, _ in self.chance_outcomes()}:
                raise ValueError(f"{self.game.name}: {code} is not a chance outcome here")
            return self.chance_action(code)
        if self.shape.kind_of(code) is not None:
            raise ValueError(f"{self.game.name}: action id {code} chooses a kind of action, not an action")
        if code not in self.legal_ids(seat):
            raise ValueError(f"{self.game.name}: action id {code} is not legal for seat {seat} here")
        return self.shape.encoding.decode(code)

    def step(self, seat: int, code: int) -> None:
        """Play ``code`` for ``seat`` (``CHANCE_ID`` for chance; not at a simultaneous node)."""
        legal = self._legal.get(seat)
        if legal is not None and type(code) is int and code < self._kind_base:   # the usual path: the ids were listed
            at = bisect_left(legal, code)
            if at < len(legal) and legal[at] == code:
                action = self._by_id(code)
                self._play(seat, code, action if action is not None else self.shape.encoding.decode(code))
                return
        shape = self.shape
        if type(code) is not int:         # a malformed id is named first, before legality or the game's end
            code = _action_id(self.game, code)
        if self.current() == TERMINAL:
            outcome = self.game.outcome(self.state)
            raise ValueError(f"{self.game.name}: the game is over ({outcome.reason if outcome else 'finished'}): "
                             f"no action may be played")
        if shape.staged and seat >= 0 and shape.kind_of(code) is not None:
            self._choose_kind(seat, int(code))
            return
        if legal is not None:
            at = bisect_left(legal, code)
            listed = at < len(legal) and legal[at] == code
        elif seat == CHANCE_ID and self._chance is not None and code in self._chance_actions:
            self._play(seat, code, self._chance_actions[code])     # one of the outcomes listed to draw from
            return
        else:
            listed = False
        if listed:
            action = self.shape.encoding._actions.get(code)
            if action is None:
                action = self.shape.encoding.decode(code)
        else:
            action = self.action_of(seat, code)
        self._play(seat, code, action)

    def step_joint(self, codes: list[int]) -> None:
        """A simultaneous node: every seat's id, in seat order (``pass_id`` for none)."""
        one = self._one_part
        if one and self._current == SIM and len(codes) == one[0]:
            # the usual step: every seat's id one of the ids just listed for it
            legal, by_id, pass_id = self._legal, self._by_id, one[1]
            actions: list[Any] = []
            for seat, code in enumerate(codes):
                ids = legal.get(seat)
                if ids is None or type(code) is not int:
                    break
                at = bisect_left(ids, code)
                if at == len(ids) or ids[at] != code:
                    break
                action = None if code == pass_id else by_id(code)
                if action is None and code != pass_id:
                    break
                actions.append(action)
            else:
                if self._befores is None:      # (KitPlay._play for each seat, inline: no positions kept)
                    state, effect = self.state, self._effect
                    acts, seats, played = self._acts, self._seats, self.ids
                    for seat, action in enumerate(actions):
                        if action is not None:
                            state = effect(state, action)
                            acts.append(action)
                            seats.append(seat)
                            played.append(codes[seat])
                    self.state = state
                    self._legal = {}
                    self._current = self._chance = None
                    return
                for seat, action in enumerate(actions):
                    if action is not None:
                        self._play(seat, codes[seat], action)
                return
        codes = [c if type(c) is int else _action_id(self.game, c) for c in codes]
        if len(codes) != self.shape.num_players:
            raise ValueError(f"{self.game.name}: a joint action has one id per seat ({self.shape.num_players}), "
                             f"not {len(codes)}")
        for seat, code in enumerate(codes):
            if code not in self.legal_ids(seat):
                raise ValueError(f"{self.game.name}: action id {code} is not legal for seat {seat} here")
        if self.shape.orders is not None:
            orders = [None if c == self.shape.pass_id else self.order_of(s, c) for s, c in enumerate(codes)]
            encode = self.shape.encoding.encode
            for seat, order in enumerate(orders):
                for i, action in enumerate(order or ()):
                    refusal = self.game.check(self.state, action, seat)
                    if refusal is not None:
                        raise ValueError(f"{self.game.name}: seat {seat}'s order cannot be given after the "
                                         f"orders of the seats before it: {refusal.text}")
                    self._play(seat, encode(action), action, concealed=i < len(order) - 1)   # type: ignore[arg-type]
            return
        decode = self.shape.encoding.decode
        actions = [None if c == self.shape.pass_id else decode(c) for c in codes]
        for seat, (code, action) in enumerate(zip(codes, actions)):
            if action is not None:
                self._play(seat, code, action)

    def _play(self, seat: int, code: int, action: Any, concealed: bool = False) -> None:
        before = self.state
        self.state = self._effect(before, action)
        if concealed:
            self._concealed.add(len(self._acts))
        self._acts.append(action)
        self._seats.append(seat)
        if self._befores is not None:
            self._befores.append(before)
        self.ids.append(code)
        if self._legal:
            self._legal = {}
        self._current = None
        self._chance = None          # (its actions by id are read only while it is listed)
        if self._groups is not None:
            self.stage, self._groups = -1, None
        if self._hidden:                 # (parts are counted in that form only: elsewhere they stay (-1, 0))
            if seat >= 0 and self.game.to_move(before) == SIMULTANEOUS:
                self.parts = (seat, self.parts[1] + 1) if self.parts[0] == seat else (seat, 1)
            else:
                self.parts = (-1, 0)

    # ------------------------------------------------------------------ what a seat may know
    def befores(self) -> list[Any]:
        """The position before each kit action played, in turn: replayed from the starting
        position the first time they are asked for, then kept as the play goes on."""
        got = self._befores
        if got is None:
            got, state, effect = [], self._start, self._effect
            for action in self._acts:
                got.append(state)
                state = effect(state, action)
            self._befores = got
        return got

    @property
    def history(self) -> list[tuple[Any, Any, int, bool]]:
        """``(state before, kit action, actor, concealed)`` for every part played, in turn."""
        concealed = self._concealed
        return [(before, action, seat, i in concealed)
                for i, (before, action, seat) in enumerate(zip(self.befores(), self._acts, self._seats))]

    def log(self, viewer: int | None) -> list[str]:
        """The move log as ``viewer`` may read it (the game's notation per viewer)."""
        lines = self.logs.setdefault(viewer, [])
        if len(lines) < len(self._acts):
            notation, befores, acts, seats = self.game.notation, self.befores(), self._acts, self._seats
            concealed, public = self._concealed, self.shape.public_orders
            for i in range(len(lines), len(acts)):
                # a part of another seat's order, before the part that completes it: not read (None)
                lines.append(None if i in concealed and viewer != seats[i] and not public
                             else notation(befores[i], acts[i], viewer))
        return [line for line in lines if line is not None]

    def information_state(self, viewer: int | None) -> str:
        """Everything ``viewer`` has seen: its move log, then its observation of the position."""
        return "\n".join([f"seat {viewer}"] + self.log(viewer) + [observation_text(self.game, self.state, viewer)]
                         + self._stage_line(viewer))

    def observation(self, viewer: int | None) -> str:
        """What ``viewer`` may know of the position now."""
        return "\n".join([f"seat {viewer}", observation_text(self.game, self.state, viewer)] + self._stage_line(viewer))

    def _stage_line(self, viewer: int | None) -> list[str]:
        """Staged, a kind chosen: ``seat 1 chooses a build``, for the seat itself and, when the
        game has perfect information or public orders, every viewer."""
        if self.stage < 0:
            return []
        who = self.current()
        if viewer == who or self.shape.information == "perfect" or self.shape.public_orders:
            return [f"seat {who} chooses a {self.shape.encoding.types[self.stage].kind}"]
        return []

    def returns(self) -> list[float]:
        got = self.game.returns(self.state)
        return [0.0] * self.shape.num_players if got is None else [float(r) for r in got]
