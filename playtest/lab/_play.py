"""Playing one game of a run: its seed, its bots, and the row it leaves in the table of games.

A run's game ``index`` depends only on the run's seed and ``index``: its chance
steps are drawn from ``random.Random(game_seed(seed, index))`` by the game's
``chance_outcome`` (which draws as :func:`playtest.rules.draw_outcome` over
``chance_outcomes``, as a :class:`playtest.Session` with that seed draws them, so a
game replays into a session file; a game whose own sampler draws otherwise still
replays, its outcomes forced), and every seat's bot is a fresh one reseeded from
the run's seed, the index and the seat. Which worker plays which game changes nothing.

A fresh bot costs little: a bot named by the run (``"random"``, ``("mcts", {...})``,
a class) is built once per worker and a bot given as an object is taken as it is;
for every game that pattern is copied attribute by attribute when it holds only
plain values (numbers, strings, tuples of them) and random generators, and
reseeded; otherwise a named bot is built anew and a given one deep-copied.

The lab trusts no bot, and checks each action at the lowest cost that still proves it legal:

* an action a bot picked from a listing the runner made itself (a bot that reads only its own
  legal actions, ``needs_world = False``, in a game with secrets: :meth:`playtest.bots.Bot.choose_from`)
  is legal when it *is* one of the listed actions (identity, not equality: an object that says it
  equals everything proves nothing); anything else goes to the game's one legality decision;
* an action of the kit's own :class:`~playtest.bots.RandomBot` (exactly that class, holding
  nothing but its seed and generator) that the game itself drew (``game.random_action`` in a
  game without secrets, a pick from the game's own listing in a simultaneous step without
  secrets, or a part of a whole order from ``game.random_order_parts``) is the rules' word, not
  a stranger's: ``check_game`` verifies those samplers ("random action is legal"), and the runner
  still proves the action at the decisions the branching factor is counted at (about one in
  :data:`BRANCHING_SAMPLE`: identity with the listing, else ``game.check``), so a sampler that
  lies stops a run too;
* every other action (any other bot, a subclass of RandomBot included, and every part of an
  order any other bot gives whole) goes through the game's one legality decision, ``game.check``.

A bot that declares it plays random whole orders (:attr:`playtest.bots.Bot.random_orders`, the kit's
RandomBot) gives, in a simultaneous step of a game that draws them
(:meth:`playtest.Game.random_order_parts`), its seat's whole order at once; the runner plays
its parts one step each (each part a step and a decision of the row, as a person's parts are).

When every seat is the kit's random bot in a sequential game that writes
:meth:`playtest.Game.random_playout` (random play on a compact form of the game's own), the game plays
the whole game itself with the same generators (chance from the game's seed, each seat from its bot's)
and reports what the row needs (each decision's number of legal actions, the running scores at turn
ends, the first decider): the same game and the same row, seed for seed (``tests/test_playout.py``). Its
moves are the rules' word like the samplers', verified by ``check_game``'s "playout" property (a
playout is compared with stepping the rules from many positions) rather than at the sampled decisions.
A run with ``running_scores=`` of its own, or a recorded game, steps the rules. When the seats are copies
of the job's pattern, only their generators are made (seeded as the copies' own would be), not the bots;
the running scores handed over are read in one pass (:mod:`._standings`).

The branching factor is counted on a sample of the decisions (about one in
:data:`BRANCHING_SAMPLE`, spaced by the game's seed): listing every legal action at
every decision only to count them cost more than playing the game, and one in 16 still cost
a tenth of a random game of Back to the Wall or Eat Thyself (a listing costs a few steps);
pooled over a run's games the sample gives the mean, with its interval. The running scores
are read at the end of every turn.
"""

from __future__ import annotations

import functools
import hashlib
import operator
import pickle
import random
from collections.abc import Mapping
from itertools import repeat
from dataclasses import dataclass, field
from typing import Any, Iterator, cast

from ..bots import Bot, RandomBot, bots_for, build, choose_for, order_for, reseeded
from ..kernel.game import PlayoutLog, _overrides
from ..rules import CHANCE, SIMULTANEOUS, Game
from ._rows import _head_column, _row, _seat_columns
from ._standings import STANDINGS as _STANDINGS, read_standings as _read_standings
from ._standings import standings as _standings

__all__ = ["play_game", "game_seed", "Job", "play_one", "seat_bots", "fresh_bot", "BRANCHING_SAMPLE"]

#: One decision in this many (picked by the game's seed) has its legal actions counted for the branching factor.
BRANCHING_SAMPLE = 32

_NOBODY = object()

BotSpec = Any  # a bot, a name, (name, options), a class, a {seat: ...} mapping, a list by seat, or a factory


def game_seed(seed: Any, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed`` (a whole number, for session files).

    >>> game_seed(0, 3) == game_seed(0, 3) != game_seed(0, 4)
    True
    """
    return random.Random(f"{seed}:{index}").getrandbits(48)


def _is_bot(value: Any) -> bool:
    return hasattr(value, "choose") and not isinstance(value, type)


def _table(spec: BotSpec, seats: int) -> list[Any]:
    """The spec for each seat (a factory that makes one bot is called once per seat)."""
    if spec is None:
        return ["random"] * seats
    if callable(spec) and not _is_bot(spec) and not isinstance(spec, type):
        made = spec()
        if _is_bot(made):
            return [made] + [spec() for _ in range(seats - 1)]
        spec = made
    if isinstance(spec, Mapping):
        missing = [s for s in range(seats) if s not in spec]
        if missing:
            raise ValueError(f"no bot for seat(s) {missing}")
        extra = [s for s in spec if s not in range(seats)]
        if extra:
            raise ValueError(f"bots for seat(s) {extra}, but the seats are 0 to {seats - 1}")
        return [spec[s] for s in range(seats)]
    if isinstance(spec, list) or (isinstance(spec, tuple) and not _is_named(spec)):
        if len(spec) != seats:
            raise ValueError(f"{len(spec)} bots for {seats} seats")
        return list(spec)
    return [spec] * seats


def _is_named(spec: Any) -> bool:
    return isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str) and isinstance(spec[1], Mapping)


def _make(game: Game, spec: Any) -> Any:
    if isinstance(spec, str):
        return build(game, spec)
    if _is_named(spec):
        return build(game, spec[0], **spec[1])
    if isinstance(spec, type):
        return spec()
    if _is_bot(spec):
        return spec
    raise ValueError(f"not a bot: {spec!r} (give a bot, a bot's name, (name, options), or a bot class)")


def seat_bots(game: Game, spec: BotSpec, key: Any) -> list[Any]:
    """Fresh bots for every seat of one game, reseeded from ``key`` and the seat; checks that
    each bot plays its seat (``Bot.plays``). A bot built here from a name or a class is reseeded
    in place; a bot given as an object is copied first (:func:`fresh_bot`), the original untouched."""
    return _seated(_recipe(game, spec), key)


def _recipe(game: Game, spec: BotSpec) -> list[tuple[bool | None, Any, dict[str, Any], Any]]:
    """For every seat, how its bot is made: ``(True, bot, {}, its seed)`` for a bot copied attribute by
    attribute for each game (one given as an object, or a pristine one built here, that holds plain
    values only), ``(None, bot, {}, its seed)`` for a bot given as an object that must be deep-copied,
    ``(False, maker, options, None)`` for one built anew for each game; checked once (``Bot.plays``)."""
    seats = game.seats()
    recipe: list[tuple[bool | None, Any, dict[str, Any], Any]] = []
    for seat, one in enumerate(_table(spec, len(seats))):
        bot = _make(game, one)
        plays = getattr(bot, "plays", None)
        if plays is not None and not plays(game, seat):
            raise ValueError(f"{type(bot).__name__} cannot play seat {seat} ({seats[seat].name}) of {game.name}; "
                             f"the bots for it are: {', '.join(_names_for(game, seat))}")
        if _is_bot(one):
            recipe.append((_copyable(one) or None, one, {}, getattr(one, "seed", None)))
        elif _copyable(bot):        # built here, holding plain values: copies of this pristine one are fresh
            recipe.append((True, bot, {}, None))
        elif isinstance(one, type):
            recipe.append((False, one, {}, None))
        else:
            name, options = (one, {}) if isinstance(one, str) else one
            recipe.append((False, bots_for(game)[name], dict(options), None))
    return recipe


def _seated(recipe: list[tuple[bool | None, Any, Any, Any]], key: Any) -> list[Any]:
    players = []
    for seat, (copied, one, options, own) in enumerate(recipe):
        if copied:
            seed = f"{key}:{seat}:{own}"
            players.append(options(seed) if type(options) is _Cloner else _clone(one, seed))
        elif copied is None:      # given, and not plain: a deep copy
            players.append(reseeded(one, f"{key}:{seat}:{own}"))
        else:
            players.append(_reseed(one(**options), f"{key}:{seat}:None"))
    return players


_RECIPES: dict[int, tuple[Any, list[tuple[bool | None, Any, Any, Any]], bool]] = {}


def _players(job: "Job", key: Any) -> tuple[list[Any], bool]:
    """The bots of one game of ``job`` and whether every one is a copy of the job's pattern (then
    they are of the same kinds, game after game): the recipe is worked out once per job (a factory
    of bots is called for every game, as it promises)."""
    spec = job.bots
    if callable(spec) and not _is_bot(spec) and not isinstance(spec, type):
        return seat_bots(job.game, spec, key), False
    known = _RECIPES.get(id(job))
    if known is None or known[0] is not job:
        if len(_RECIPES) > 64:
            _RECIPES.clear()
        recipe: list[tuple[bool | None, Any, Any, Any]] = [
            (True, one, _Cloner(one), own) if copied else (copied, one, options, own)
            for copied, one, options, own in _recipe(job.game, spec)]
        known = _RECIPES[id(job)] = (job, recipe, all(copied for copied, *_ in recipe))
    return _seated(known[1], key), known[2]


def _random_seat_tails(job: "Job") -> list[str] | None:
    """When every seat of ``job`` is a copy of a pattern that is the kit's random bot (:func:`_kit_random`),
    restarted as :meth:`playtest.bots.Bot.reseed` restarts it: for each seat, the end of its generator's
    seed (game ``index``'s seat ``s`` draws from ``random.Random(f"{job.seed}:{index}:{s}:{tail}")``, the
    generator its copy would hold); else ``None``. What a game played out needs of its bots."""
    spec = job.bots
    if callable(spec) and not _is_bot(spec) and not isinstance(spec, type):
        return None
    _players(job, "pattern")                    # (the recipe, worked out once per job)
    tails = []
    for copied, one, options, own in _RECIPES[id(job)][1]:
        if not (copied and type(options) is _Cloner and _kit_random(one) and options.seeds is not None
                and [name for _, name in options.seeds] == ["rng"]):
            return None
        tails.append(f"{own}:rng")
    return tails


def _reseed(bot: Any, seed: Any) -> Any:
    if hasattr(bot, "reseed"):
        bot.reseed(seed)
    else:        # a duck-typed bot: restart the generators it holds all the same
        Bot.reseed(bot, seed)
    return bot


_PLAIN = frozenset({type(None), bool, int, float, complex, str, bytes, range})
_COPY_HOOKS = ("__deepcopy__", "__copy__", "__reduce__", "__reduce_ex__", "__getstate__", "__setstate__",
               "__slots__")


def _plain(value: Any, depth: int = 0) -> bool:
    """A value a deep copy would hand back as it is (immutable all the way down)."""
    kind = type(value)
    if kind in _PLAIN:
        return True
    if (kind is tuple or kind is frozenset) and depth < 4:
        return all(_plain(item, depth + 1) for item in value)
    return False


def _copyable(bot: Any) -> bool:
    """Whether a deep copy of ``bot`` is its attributes as they are, with its generators copied:
    no copy or pickle hooks of its own, and only plain values and ``random.Random`` generators."""
    kind = type(bot)
    attributes = getattr(bot, "__dict__", None)
    if type(attributes) is not dict or any(getattr(kind, name, None) is not getattr(object, name, None)
                                           for name in _COPY_HOOKS):
        return False
    return all(type(value) is random.Random or _plain(value) for value in attributes.values())


def fresh_bot(bot: Any, seed: Any) -> Any:
    """A copy of ``bot`` reseeded from ``seed``, the original untouched: the same as
    :func:`playtest.bots.reseeded` (a deep copy, then ``reseed``), without the deep copy
    when the bot holds only plain values and ``random.Random`` generators.

    >>> a, b = fresh_bot(RandomBot(1), "run:0"), fresh_bot(RandomBot(1), "run:0")
    >>> a.rng.random() == b.rng.random() == reseeded(RandomBot(1), "run:0").rng.random()
    True
    """
    if not _copyable(bot):        # lists, dicts, objects, hooks of its own: only a deep copy copies them faithfully
        return reseeded(bot, seed)
    return _clone(bot, seed)


def _clone(bot: Any, seed: Any) -> Any:
    """:func:`fresh_bot` of a bot known to be :func:`_copyable`."""
    kind: Any = type(bot)
    attributes = bot.__dict__
    copied: dict[str, Any] = {}
    generators: dict[int, random.Random] = {}
    restarts = getattr(kind, "reseed", None) is Bot.reseed or not hasattr(kind, "reseed")  # every generator
    for name, value in attributes.items():
        if type(value) is random.Random:
            twin = generators.get(id(value))
            if twin is None:
                twin = generators[id(value)] = random.Random.__new__(random.Random)
                if not restarts:          # a reseed of its own may leave a generator as it was: copy its state
                    twin.setstate(value.getstate())
            copied[name] = twin
        else:
            copied[name] = value
    copy = kind.__new__(kind)
    copy.__dict__.update(copied)
    return _reseed(copy, seed)


class _Cloner:
    """``cloner(seed)`` is ``_clone(bot, seed)`` (the same attributes, in the same order, the same
    generators restarted the same way), with the pattern read once per run instead of every game:
    the pattern of a run is never played, so it does not change while the run lasts."""

    __slots__ = ("kind", "items", "slots", "seeds", "states")

    def __init__(self, bot: Any):
        self.kind: Any = type(bot)
        restarts = getattr(self.kind, "reseed", None) is Bot.reseed or not hasattr(self.kind, "reseed")
        slots: dict[int, int] = {}
        #: (name, value, slot): a plain value (slot -1) or the generator of that slot, in attribute order
        self.items: list[tuple[str, Any, int]] = []
        #: what Bot.reseed does for a bot that keeps it: every generator attribute seeded "{seed}:{name}"
        self.seeds: list[tuple[int, str]] | None = [] if restarts else None
        self.states: list[Any] = []
        for name, value in bot.__dict__.items():
            if type(value) is random.Random:
                slot = slots.get(id(value))
                if slot is None:
                    slot = slots[id(value)] = len(slots)
                    self.states.append(value.getstate())
                self.items.append((name, None, slot))
                if self.seeds is not None:
                    self.seeds.append((slot, name))
            else:
                self.items.append((name, value, -1))
        self.slots = len(slots)

    def __call__(self, seed: Any) -> Any:
        new = random.Random.__new__
        twins = [new(random.Random) for _ in range(self.slots)]
        copy = self.kind.__new__(self.kind)
        copy.__dict__.update({name: value if slot < 0 else twins[slot] for name, value, slot in self.items})
        if self.seeds is not None:
            for slot, name in self.seeds:
                twins[slot].seed(f"{seed}:{name}")
            return copy
        for twin, state in zip(twins, self.states):     # a reseed of its own may leave a generator as it was
            twin.setstate(state)
        return _reseed(copy, seed)


def _names_for(game: Game, seat: int) -> list[str]:
    from ..bots import available
    return available(game, seat)


@dataclass(frozen=True)
class Job:
    """What every game of one run shares: the game, the bots, the run's seed, the caps."""

    game: Game
    bots: BotSpec = None
    seed: Any = 0
    max_steps: int = 100_000
    running_scores: Any = None
    columns: tuple = ()            # (parameter, value) pairs that head every row
    label: Any = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if type(self.max_steps) is not int or self.max_steps < 1:
            raise ValueError(f"max_steps must be a whole number of at least 1, not {self.max_steps!r}")
        if self.running_scores is not None and not callable(self.running_scores):
            raise ValueError(f"running_scores must be a function (game, state) -> scores, not "
                             f"{type(self.running_scores).__name__}")


class _Plan:
    """What every game of one job shares, worked out once per job: the game's methods the loop
    calls, the running-scores hook, the legality decision, and (for bots copied from one pattern
    each game, whose kind and flags are the pattern's) how each seat's actions are proved."""

    __slots__ = ("job", "hook", "check", "advance", "secrets", "draws", "flags", "playout", "chance", "seats",
                 "head", "seat_columns", "cap_draws", "tails")

    def __init__(self, job: "Job"):
        game = job.game
        self.job = job
        self.hook = _hook(job, game)
        self.check = _legality(game)
        # apply(state, action, check=False) is effect(state, action) unless the game writes its own apply
        self.advance = game.effect if _plain_apply(game) and "apply" not in getattr(game, "__dict__", ()) \
            else functools.partial(game.apply, check=False)
        self.secrets = game.has_secrets
        self.draws = _draws_orders(game)
        self.flags: Any = None
        #: the game plays random games itself (Game.random_playout), read when every seat is the kit's random bot
        self.playout = _plays_out(game) and job.running_scores is None
        #: the game declares chance steps (else its chance generator is seeded only if it is ever used)
        self.chance = game.game_type is None or game.game_type.chance
        #: what every row of the job has: the seats, the parameter columns that head it, each seat's column names
        self.seats = game.seat_count()
        self.head = {_head_column(name): value for name, value in job.columns}
        self.seat_columns = _seat_columns(self.seats)
        self.cap_draws: dict[str, bool] = {}        #: a draw's reason -> whether the game's own cap ended it
        #: each seat's generator's seed ends, when every seat is the kit's random bot (_random_seat_tails;
        #: not yet known)
        self.tails: Any = _NOBODY


_PLANS: dict[int, _Plan] = {}


def _plan(job: "Job") -> _Plan:
    plan = _PLANS.get(id(job))
    if plan is None or plan.job is not job:
        if len(_PLANS) > 64:
            _PLANS.clear()
        plan = _PLANS[id(job)] = _Plan(job)
    return plan


def _seat_flags(players: list[Any], secrets: bool, draws: bool) -> tuple[list[Any], ...]:
    """How each seat's actions are proved legal (the module docstring): ``handed`` (the runner lists
    the seat's legal actions for the bot: identity with the listing), ``kit`` (the kit's random bot),
    ``sampler`` (its action is the game's own sampler's), ``whole`` (it gives whole orders), ``fast``
    (the kit's random bot in a game without secrets: its generator, asked ``game.random_action``),
    ``pick`` (the kit's random bot handed its listing in a game with secrets: its generator, which
    picks from the runner's listing as the bot's ``choose_from`` does, ``rng.choice(listed)``: one of
    the listed actions by construction)."""
    seats = range(len(players))
    handed = [secrets and getattr(bot, "needs_world", True) is False for bot in players]
    kit = [_kit_random(bot) for bot in players]
    sampler = [kit[s] and not handed[s] for s in seats]
    whole = [draws and getattr(bot, "random_orders", False) is True for bot in players]
    fast = [bot.rng if kit[s] and not secrets else None for s, bot in enumerate(players)]
    pick = [bot.rng if kit[s] and handed[s] else None for s, bot in enumerate(players)]
    return handed, kit, sampler, whole, fast, pick


def play_one(job: Job, index: int, record: bool = False) -> dict[str, Any]:
    """Play game ``index`` of ``job``; its row (with ``actions`` and ``final`` when ``record``).

    An error the game's own code raises (its ``effect``, ``to_move``...) comes out as it is, its
    traceback pointing into the game, with a note of which game of the run it was and its seed (a
    worker process's error said nothing of that).
    """
    try:
        return _play_one(job, index, record)
    except BotError:
        raise
    except Exception as exc:
        if hasattr(exc, "add_note"):        # (Python 3.11 and later)
            exc.add_note(f"(in {job.game.name}, game {index} of the lab's run, its seed "
                         f"{game_seed(job.seed, index)}: raised by the game's own code or a bot's)")
        raise


def _play_one(job: Job, index: int, record: bool = False) -> dict[str, Any]:
    """Play game ``index`` of ``job``; its row (with ``actions`` and ``final`` when ``record``).

    Every bot action is proved legal (the module docstring says how: identity with an action
    the runner listed, the game's own sampler for the kit's random bot, else the game's one
    legality decision ``game.check``): an illegal, malformed or missing action stops the run
    with a :class:`BotError`. The running scores are read at the end of every turn (after a
    step that hands the decision to another seat, or ends the game; chance steps belong to the
    turn around them), not in the middle of one seat's turn; the branching factor is counted on one decision in :data:`BRANCHING_SAMPLE`.
    """
    game = job.game
    plan = _plan(job)
    seed = game_seed(job.seed, index)
    chance_rng: random.Random | None = None         # the same draws as Session(game, seed=seed) (made when first needed)
    seen_rng: random.Random | None = None           # the worlds the bots are handed (made when first needed)
    mix = seed                                       # an LCG from the game's seed spaces the decisions counted:
    # gaps of 1 to 2 * BRANCHING_SAMPLE - 1 decisions, on average BRANCHING_SAMPLE; ``at`` is the step the next
    # counted decision falls on if no chance step comes first (each chance step before it moves it one on)
    at = (seed >> 20) % BRANCHING_SAMPLE
    if plan.playout and not record:             # every seat the kit's random bot: only their generators
        tails = plan.tails
        if tails is _NOBODY:
            tails = plan.tails = _random_seat_tails(job)
        if tails is not None:
            key = f"{job.seed}:{index}"
            generators = [random.Random(f"{key}:{s}:{tail}") for s, tail in enumerate(tails)]
            row = _played_out(job, plan, index, seed, generators)
            if row is not None:
                return row
    players, same = _players(job, f"{job.seed}:{index}")
    hook = plan.hook
    secrets = plan.secrets
    to_move, pending = game.to_move, game.pending_seats
    check = plan.check
    flags = plan.flags if same else None
    patterned = flags is not None       # the same kinds of bots as the pattern's, with their own generators
    if flags is None:
        flags = _seat_flags(players, secrets, plan.draws)
        if same:
            plan.flags = flags
    handed, kit, sampler, whole = flags[:4]
    if plan.playout and not record and all(kit) and plan.tails is None:
        row = _played_out(job, plan, index, seed, [bot.rng for bot in players])
        if row is not None:
            return row
    if patterned:
        fast = [bot.rng if rng is not None else None for bot, rng in zip(players, flags[4])]
        picks = [bot.rng if rng is not None else None for bot, rng in zip(players, flags[5])]
    else:
        fast, picks = flags[4], flags[5]
    legal_actions = game.legal_actions
    queued: list[list[Any]] = [[] for _ in players]      # the parts of a whole order still to play, last first
    random_action, chance = game.random_action, game.chance_outcome
    advance = plan.advance
    state = game.initial_state()
    chances = counted = branching = 0
    first: Any = _NOBODY
    tops: list[frozenset[int]] = []
    leaders: list[int | None] = []
    actions: list[tuple[bool, Any]] = []
    actor: Any = _NOBODY             # who acted last
    last: Any = None
    top: frozenset[int] = frozenset()
    ahead: int | None = None

    def decide(state: Any, mover: int, seat: int, listed: list[Any] | None, steps: int) -> Any:
        """The bot's action for ``seat``, proved legal (``listed``: the seat's legal actions, when counted)."""
        nonlocal seen_rng
        bot = players[seat]
        drawn_by_rules = False    # the action is the game's own sampler's (the kit's random bot)
        try:
            if whole[seat] and mover == SIMULTANEOUS:
                parts = queued[seat]
                if not parts:     # the seat's whole order at once; its parts are played one step each
                    drawn = order_for(bot, game, state, seat)
                    if drawn:
                        parts.extend(reversed(list(drawn)))
                action = parts.pop() if parts else _NOBODY
                drawn_by_rules = kit[seat]
            else:
                action = _NOBODY
            if action is not _NOBODY:
                pass
            elif handed[seat]:    # the bot reads its own legal actions only: the runner lists them
                if listed is None:
                    listed = game.legal_actions(state, seat)
                if not listed:    # (as choose_for hands them: the same list, so the same pick)
                    raise ValueError(f"seat {seat} has nothing to do in this position")
                action = bot.choose_from(listed)
            elif secrets or mover == SIMULTANEOUS:
                if seen_rng is None:
                    seen_rng = random.Random(f"{seed}:determinize")
                action = choose_for(bot, game, state, seat, seen_rng)
                drawn_by_rules = sampler[seat]
            else:                 # nothing hidden: the bot has the state itself (as choose_for would)
                rng = fast[seat]
                action = bot.choose(game, state) if rng is None else random_action(state, rng)
                drawn_by_rules = sampler[seat]
        except Exception as exc:
            raise BotError(_where(game, bot, seat, state, steps, index)
                           + f": the bot raised {type(exc).__name__}: {str(exc)[:200]}") from exc
        if listed is None:
            proved = drawn_by_rules    # the sampler's word is taken, but put to the proof at the counted decisions
        else:                     # one of the listed actions itself is legal
            proved = any(map(operator.is_, listed, repeat(action)))
        if not proved:
            prove(state, seat, action, steps)
        return action

    def prove(state: Any, seat: int, action: Any, steps: int) -> None:
        try:                  # the lab trusts no bot: the one legality decision says yes or why not
            refusal = check(state, action, seat)
        except Exception as exc:
            raise BotError(_where(game, players[seat], seat, state, steps, index) + f": it chose "
                           f"{repr(action)[:120]}, which is not an action of this game ({type(exc).__name__})") from exc
        if refusal is not None:
            raise BotError(_where(game, players[seat], seat, state, steps, index) + ": " + _refusal(action, refusal))

    steps = 0
    mover: Any = None
    for steps in range(job.max_steps):
        mover = to_move(state)
        seat: Any = pending(state)[0] if mover == SIMULTANEOUS else mover
        if seat != actor and mover != CHANCE:    # a turn has ended (or the game): who is ahead now?
            # (chance steps belong to the turn around them: a roll hands the move back to the seat
            # that rolled, or on to the next, which is where the turn ends)
            if hook is not None and steps:
                try:
                    scores = hook(state)
                except Exception as exc:
                    raise _hook_error(exc, game, index, steps) from exc
                if scores is not None:
                    if scores != last:        # unchanged scores (most turns): the same top seats and leader
                        last = scores
                        try:
                            found = _STANDINGS.get(scores)
                        except TypeError:       # (unhashable scores)
                            found = None
                        top, ahead = found or _standings(scores)
                    tops.append(top)
                    leaders.append(ahead)
            if mover is None:
                break
            actor = seat
            if first is _NOBODY and mover != CHANCE:     # the first decision starts a turn
                first = None if mover == SIMULTANEOUS else seat
        if mover == CHANCE:
            if chance_rng is None:
                chance_rng = random.Random(seed)
            action = chance(state, chance_rng)
            chances += 1
            at += 1
        elif steps != at:
            rng = fast[seat]
            if rng is not None and mover >= 0:          # the kit's random bot, the state in hand: the game's sampler
                try:
                    action = random_action(state, rng)
                except Exception as exc:
                    raise BotError(_where(game, players[seat], seat, state, steps, index)
                                   + f": the bot raised {type(exc).__name__}: {str(exc)[:200]}") from exc
            elif mover >= 0 and picks[seat] is not None:    # the kit's random bot handed the seat's listing
                # (its choose_from, rng.choice(listed), without the call: one of the listed by construction;
                # an empty listing or an error goes the bot's own way, to be reported as it reports them)
                try:
                    listed = legal_actions(state, seat)
                    action = picks[seat].choice(listed) if listed else _NOBODY
                except Exception:
                    action = _NOBODY
                if action is _NOBODY:
                    action = decide(state, mover, seat, None, steps)
            else:
                parts = queued[seat]
                if parts and whole[seat] and mover == SIMULTANEOUS:     # the next part of a whole order
                    action = parts.pop()
                    if not kit[seat]:
                        prove(state, seat, action, steps)
                else:
                    action = decide(state, mover, seat, None, steps)
        else:                     # a decision the branching factor is counted at
            listed = game.legal_actions(state, seat)
            branching += len(listed)
            counted += 1
            mix = (mix * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
            at += 1 + (mix >> 33) % (2 * BRANCHING_SAMPLE - 1)
            action = decide(state, mover, seat, listed, steps)
        state = advance(state, action)
        if record:
            actions.append((mover == CHANCE, action))
    else:                         # max_steps played: the turn-end reading of the last position, then stop
        steps = job.max_steps
        mover = to_move(state)
        seat = pending(state)[0] if mover == SIMULTANEOUS else mover
        if seat != actor and mover != CHANCE and hook is not None:
            _read_standings((_scores(hook, state, game, index, steps),), tops, leaders)
    return _row(job, plan, index, seed, state, mover is not None, steps, chances, branching, counted,
                None if first is _NOBODY else first, tops, leaders, actions if record else None)


def _played_out(job: Job, plan: "_Plan", index: int, seed: int, generators: list[random.Random]
                ) -> dict[str, Any] | None:
    """The row of game ``index`` played by the game's own :meth:`playtest.Game.random_playout` (every seat
    the kit's random bot, each drawing with its own generator, ``generators``, chance with the game's seed): the same
    game, step for step, as the loop of :func:`play_one` plays it, and the same row. The playout is
    asked the number of legal actions at the decisions :func:`play_one` counts for the branching
    factor only (``PlayoutLog.at``: they are known from the seed; a playout that counts every decision
    is read at the same ones), the running scores at every turn end and the first seat; ``None`` when
    the game leaves these parameters to its rules (nothing drawn yet)."""
    game = job.game
    log = PlayoutLog(scores=plan.hook is not None, at=_counted_decisions(seed))
    try:
        chance = random.Random(seed) if plan.chance else cast(random.Random, _FirstUse(seed))
        played = game.random_playout(game.initial_state(), chance, generators, max_steps=job.max_steps, log=log)
    except Exception as exc:
        raise BotError(f"{game.name}, game {index}: the game's random_playout raised {type(exc).__name__}: "
                       f"{str(exc)[:200]}") from exc
    if played is None:
        return None
    state, steps = played
    # the decisions counted for the branching factor: play_one's spacing, read in decisions (a chance
    # step there moves the next counted step one on, so it falls on the same decision)
    if log.decisions is None:       # (it counted every decision: the counted ones picked out here)
        options = log.options
        decisions = len(options)
        branching, counted = _counted_options(options, seed)
    else:
        options, decisions = log.wanted()
        branching, counted = sum(options), len(options)
    first = log.first if log.first is None or log.first >= 0 else None
    return _row(job, plan, index, seed, state, game.to_move(state) is not None, steps, steps - decisions,
                branching, counted, first, [], [], None, log.scores or [])


def _counted_decisions(seed: int) -> Iterator[int]:
    """The decisions (numbered from 0) at which :func:`play_one` counts the legal actions in the game of
    ``seed``, endlessly: gaps of 1 to ``2 * BRANCHING_SAMPLE - 1`` decisions from an LCG of the seed.

    >>> from itertools import islice
    >>> list(islice(_counted_decisions(12345678), 4))
    [11, 13, 59, 98]
    """
    at, mix = (seed >> 20) % BRANCHING_SAMPLE, seed
    while True:
        yield at
        mix = (mix * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        at += 1 + (mix >> 33) % (2 * BRANCHING_SAMPLE - 1)


def _counted_options(options: list[int], seed: int) -> tuple[int, int]:
    """(the legal actions added up, the decisions counted) at the decisions :func:`_counted_decisions` names
    among ``options``, every decision's count: the same figures as reading it at those decisions, in one loop.

    >>> options = list(range(100))
    >>> _counted_options(options, 12345678) == (sum(options[i] for i in (11, 13, 59, 98)), 4)
    True
    """
    size = len(options)
    at, mix = (seed >> 20) % BRANCHING_SAMPLE, seed
    total = counted = 0
    gap = 2 * BRANCHING_SAMPLE - 1
    while at < size:
        total += options[at]
        counted += 1
        mix = (mix * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        at += 1 + (mix >> 33) % gap
    return total, counted


def _scores(hook: Any, state: Any, game: Game, index: int, steps: int) -> Any:
    """The running scores of ``state`` (a hook that raises stops the run with a :class:`BotError`)."""
    try:
        return hook(state)
    except Exception as exc:
        raise _hook_error(exc, game, index, steps) from exc


def _hook_error(exc: Exception, game: Game, index: int, steps: int) -> "BotError":
    return BotError(f"{game.name}, game {index}, move {steps}: running_scores raised "
                    f"{type(exc).__name__}: {str(exc)[:200]}")


def _kit_random(bot: Any) -> bool:
    """Whether ``bot`` is the kit's own :class:`RandomBot` (exactly that class, holding only its seed and a
    ``random.Random``): its action is then the game's own sampler's (``random_action``, or a pick from
    the game's own listing in a simultaneous step), not a stranger's."""
    return (type(bot) is RandomBot and type(getattr(bot, "rng", None)) is random.Random
            and set(vars(bot)) <= {"seed", "rng"})


class _FirstUse:
    """``random.Random(seed)``, seeded when first used: a game that declares no chance steps does not pay
    for seeding its chance generator in every game (as :func:`play_one` makes it only when needed)."""

    __slots__ = ("_seed", "_rng")

    def __init__(self, seed: int):
        self._seed = seed
        self._rng: random.Random | None = None

    def __getattr__(self, name: str) -> Any:
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(self._seed)
        return getattr(rng, name)


def _plays_out(game: Game) -> bool:
    """Whether ``game`` writes :meth:`playtest.Game.random_playout` and is sequential (a playout plays
    no simultaneous step)."""
    kind = getattr(type(game), "random_playout", None)
    return (kind is not None and kind is not Game.random_playout and game.game_type is not None
            and game.game_type.dynamics == "sequential")


_DRAWS: dict[type, bool] = {}


def _draws_orders(game: Game) -> bool:
    """Whether ``game`` draws random whole orders (it writes :meth:`playtest.Game.random_order_parts`)."""
    kind = type(game)
    draws = _DRAWS.get(kind)
    if draws is None:
        draws = _DRAWS[kind] = _overrides(kind, "random_order_parts")
    return draws


class BotError(RuntimeError):
    """A bot (or a running-scores hook) did something the lab cannot go on from: an illegal or
    malformed action, ``None``, or an error of its own. The message names the game, the game's
    number in the run, the move, the seat, the bot, the position and the rule cited."""


BotError.__module__ = "playtest.lab"


def _where(game: Game, bot: Any, seat: int, state: Any, steps: int, index: int) -> str:
    name = getattr(bot, "name", None) or type(bot).__name__
    try:
        position = game.describe_state(state)
    except Exception:
        position = "?"
    return f"{game.name}, game {index}, move {steps}: {name} (seat {seat}, {position})"


def _refusal(action: Any, refusal: Any) -> str:
    """What the bot did wrong, in words, from the game's refusal."""
    if action is None:
        return "the bot returned None, not an action"
    return f"it chose {repr(action)[:120]}, which the rules refuse: {refusal}"


_OLDER: dict[type, bool] = {}
_PLAIN_APPLY: dict[type, bool] = {}


def _plain_apply(game: Game) -> bool:
    """Whether ``game.apply(state, action, check=False)`` is ``game.effect(state, action)``: the kernel's own
    apply (not overridden) and an effect of the game's own."""
    kind = type(game)
    plain = _PLAIN_APPLY.get(kind)
    if plain is None:
        plain = _PLAIN_APPLY[kind] = not _overrides(kind, "apply") and _overrides(kind, "effect")
    return plain


def _legality(game: Game) -> Any:
    """``decide(state, action, seat)``: ``None`` when ``seat`` may play ``action``, else why not.

    The game's one legality decision, :meth:`playtest.Game.check`; a game written against the
    older protocol (its own ``apply`` and ``legal_actions``, no ``effect``) decides by its own
    list of legal actions, with the reason its ``apply`` gives."""
    kind = type(game)
    older = _OLDER.get(kind)
    if older is None:
        older = _OLDER[kind] = _overrides(kind, "apply") and not _overrides(kind, "effect")
    if not older:
        return game.check

    def decide(state: Any, action: Any, seat: int) -> Any:
        if action in game.legal_actions(state, seat):
            return None
        try:
            game.apply(state, action, check=True)
        except Exception as exc:
            return str(exc)[:300] or type(exc).__name__
        return f"{repr(action)[:120]} is not among seat {seat}'s legal actions"

    return decide


def _hook(job: Job, game: Game) -> Any:
    """The running-scores function called as ``hook(state)``: the one given to the run, else the
    game's own when it writes one (the kernel's default has no scores: not called at all)."""
    if job.running_scores is not None:
        return _Bound(job.running_scores, game)
    own = getattr(type(game), "running_scores", None)
    if own is None or own is getattr(Game, "running_scores", None):
        return None
    return game.running_scores


class _Bound:
    """``running_scores(game, state)`` given to simulate, called as ``hook(state)``."""

    def __init__(self, function: Any, game: Game):
        self.function, self.game = function, game

    def __call__(self, state: Any) -> Any:
        return self.function(self.game, state)


def play_chunk(job: Job, indices: list[int]) -> list[dict[str, Any]]:
    """The rows of some games of ``job`` (what a worker runs)."""
    return [play_one(job, i) for i in indices]


_SHIPPED: dict[bytes, Any] = {}


def ship(jobs: Any) -> bytes:
    """``jobs`` as bytes a worker can read whatever its start method: classes that a worker could
    not import (a game or bot defined in a notebook cell or a script's ``__main__``) travel by
    value with cloudpickle, everything importable by reference. Plain pickle without cloudpickle."""
    try:
        import cloudpickle
    except ImportError:          # pragma: no cover (cloudpickle comes with the lab extra's dask)
        return pickle.dumps(jobs)
    return cloudpickle.dumps(jobs)


def play_shipped(payload: bytes, job: int, indices: list[int]) -> list[dict[str, Any]]:
    """The rows of some games of job ``job`` of ``payload`` (from :func:`ship`), read once per worker."""
    key = hashlib.sha1(payload).digest()
    jobs = _SHIPPED.get(key)
    if jobs is None:
        _SHIPPED.clear()
        jobs = _SHIPPED[key] = pickle.loads(payload)
    return play_chunk(jobs[job], indices)


def play_game(game: Game, bots: BotSpec, rng: random.Random | None = None,
              start: Any = None, max_steps: int = 1_000_000) -> tuple[Any, int]:
    """Play one game with bots from ``start`` (default: the set-up); returns (final state, steps).

    The bots are used as given (not copied); ``rng`` draws the chance steps and
    the worlds the bots are handed. :func:`playtest.simulate` plays its games
    with fresh, reseeded bots instead. Nothing is checked (the lab's runner checks every
    bot action); a bot that plays random whole orders (:func:`playtest.bots.order_for`)
    gives them whole, played one part a step, as in the runner.

    >>> import playtest
    >>> game = playtest.load("eat_thyself")
    >>> state, steps = play_game(game, RandomBot(seed=1), random.Random(1))
    >>> game.outcome(state).winners
    (1,)
    """
    rng = rng or random.Random()
    players = [_make(game, one) for one in _table(bots, game.seat_count())]
    state = game.initial_state() if start is None else start
    steps = 0
    to_move, apply, secrets = game.to_move, game.apply, game.has_secrets
    draws = _draws_orders(game)
    queued: list[list[Any]] = [[] for _ in players]      # the parts of a whole order still to play, last first
    while steps < max_steps:
        mover = to_move(state)
        if mover is None:
            return state, steps
        if mover == CHANCE:
            action = game.chance_outcome(state, rng)
        elif mover == SIMULTANEOUS:   # seats submit one by one; each sees only its own knowledge
            seat = game.pending_seats(state)[0]
            parts = queued[seat]
            if draws and not parts:
                drawn = order_for(players[seat], game, state, seat)
                if drawn:
                    parts.extend(reversed(drawn))
            action = parts.pop() if parts else choose_for(players[seat], game, state, seat, rng)
        elif secrets:
            action = choose_for(players[mover], game, state, mover, rng)
        else:                         # nothing hidden: the bot may have the state itself (fast path)
            action = players[mover].choose(game, state)
        state = apply(state, action, check=False)
        steps += 1
    raise RuntimeError(f"{game.name}: no end after {max_steps} steps (check the turn cap parameter)")
