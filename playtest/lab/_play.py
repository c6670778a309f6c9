"""Playing one game of a run: its seed, its bots, and the row it leaves in the table of games.

A run's game ``index`` depends only on the run's seed and ``index``: its chance
steps are drawn from ``random.Random(game_seed(seed, index))`` exactly as a
:class:`playtest.Session` with that seed draws them (so a game replays into a
session file), and every seat's bot is a fresh copy reseeded from the run's
seed, the index and the seat. Which worker plays which game changes nothing.
"""

from __future__ import annotations

import hashlib
import pickle

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..bots import RandomBot, build, choose_for, reseeded
from ..rules import CHANCE, SIMULTANEOUS, Game, IllegalAction, draw_outcome
from .metrics import decisiveness, lead_changes, leader, top_seats

__all__ = ["play_game", "game_seed", "Job", "play_one", "seat_bots"]

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
    each bot plays its seat (``Bot.plays``)."""
    seats = game.seats()
    players = []
    for seat, one in enumerate(_table(spec, len(seats))):
        bot = _make(game, one)
        plays = getattr(bot, "plays", None)
        if plays is not None and not plays(game, seat):
            raise ValueError(f"{type(bot).__name__} cannot play seat {seat} ({seats[seat].name}) of {game.name}; "
                             f"the bots for it are: {', '.join(_names_for(game, seat))}")
        own = getattr(one, "seed", None) if _is_bot(one) else None
        players.append(reseeded(bot, f"{key}:{seat}:{own}"))
    return players


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


def _cap_draw(game: Game, reason: str) -> bool:
    """A draw by the game's own turn cap: its reason names a ``max_...`` parameter."""
    return any(spec.name.startswith("max_") and spec.name in reason for spec in game.Params.specs())


def play_one(job: Job, index: int, record: bool = False) -> dict[str, Any]:
    """Play game ``index`` of ``job``; its row (with ``actions`` and ``final`` when ``record``)."""
    game = job.game
    seed = game_seed(job.seed, index)
    chance_rng = random.Random(seed)                 # the same draws as Session(game, seed=seed)
    seen_rng = random.Random(f"{seed}:determinize")  # the worlds the bots are handed
    players = seat_bots(game, job.bots, f"{job.seed}:{index}")
    seats = len(players)
    hook = (_Bound(job.running_scores, game) if job.running_scores is not None
            else getattr(game, "running_scores", None))
    to_move, apply, legal = game.to_move, game.apply, game.legal_actions
    state = game.initial_state()
    steps = decisions = branching = 0
    first: int | None = None
    started = False
    tops: list[frozenset[int]] = []
    leaders: list[int | None] = []
    actions: list[tuple[bool, Any]] = []
    timeout = False
    while True:
        mover = to_move(state)
        if mover is None:
            break
        if steps >= job.max_steps:
            timeout = True
            break
        if mover == CHANCE:
            action = draw_outcome(game.chance_outcomes(state), chance_rng)
        else:
            seat = game.pending_seats(state)[0] if mover == SIMULTANEOUS else mover
            if not started:
                first, started = (None if mover == SIMULTANEOUS else seat), True
            listed = legal(state, seat)
            branching += len(listed)
            decisions += 1
            try:
                action = choose_for(players[seat], game, state, seat, seen_rng)
            except Exception as exc:
                raise BotError(_where(game, players[seat], seat, state, steps, index)
                               + f": the bot raised {type(exc).__name__}: {str(exc)[:200]}") from exc
            if action not in listed:          # the lab trusts no bot: the one legality decision says why
                raise BotError(_where(game, players[seat], seat, state, steps, index) + ": " + _refusal(game, state, action, seat))
        state = apply(state, action, check=False)
        steps += 1
        if record:
            actions.append((mover == CHANCE, action))
        if hook is not None:
            try:
                scores = hook(state)
            except Exception as exc:
                raise BotError(f"{game.name}, game {index}, move {steps}: running_scores raised "
                               f"{type(exc).__name__}: {str(exc)[:200]}") from exc
            if scores is not None:
                tops.append(top_seats(scores))
                leaders.append(leader(scores))
    outcome = None if timeout else game.outcome(state)
    winners = tuple(outcome.winners) if outcome is not None else ()
    reason = outcome.reason if outcome is not None else f"stopped after {job.max_steps} steps (max_steps)"
    row: dict[str, Any] = {"game": index, "seed": seed}
    row.update(dict(job.columns))
    row.update({
        "first_seat": first,
        "winners": winners,
        "draw": not winners,
        "timeout": timeout or (not winners and _cap_draw(game, reason)),
        "reason": reason,
        "length": steps,
        "decisions": decisions,
        "branching": branching / decisions if decisions else None,
        "lead_changes": lead_changes(leaders) if tops else None,
        "decisiveness": decisiveness(tops, winners, seats) if tops else None,
    })
    scores = outcome.scores if outcome is not None else None
    paid = outcome.returns(seats) if outcome is not None else None     # payoffs (chips), or +1/-1/0
    row["paid"] = outcome is not None and outcome.payoffs is not None
    for s in range(seats):
        row[f"result_{s}"] = "win" if s in winners else ("draw" if not winners else "loss")
        row[f"score_{s}"] = float(scores[s]) if scores is not None else None
        row[f"return_{s}"] = paid[s] if paid is not None else None
    if record:
        row["actions"] = actions
        row["final"] = state
    return row


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


def _refusal(game: Game, state: Any, action: Any, seat: int) -> str:
    """Why ``action`` is not one of ``seat``'s legal actions, from the game's own decision."""
    if action is None:
        return "the bot returned None, not an action"
    shown = repr(action)[:120]
    check = getattr(game, "check", None)
    if check is not None:
        try:
            refusal = check(state, action, seat)
        except Exception:
            refusal = None
        if refusal is not None:
            return f"it chose {shown}, which the rules refuse: {refusal}"
    try:
        game.apply(state, action, check=True)
    except IllegalAction as exc:
        return f"it chose {shown}, which the rules refuse: {exc}"
    except Exception as exc:
        return f"it chose {shown}, which is not an action of this game ({type(exc).__name__})"
    return f"it chose {shown}, which is not among seat {seat}'s legal actions"


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
    return cloudpickle.dumps(jobs)  # type: ignore[no-any-return]


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
    with fresh, reseeded bots instead.

    >>> import playtest
    >>> game = playtest.load("eat_thyself")
    >>> state, steps = play_game(game, RandomBot(seed=1), random.Random(1))
    >>> game.outcome(state).winners
    (1,)
    """
    rng = rng or random.Random()
    players = [_make(game, one) for one in _table(bots, len(game.seats()))]
    state = game.initial_state() if start is None else start
    steps = 0
    to_move, apply, secrets = game.to_move, game.apply, game.has_secrets
    while steps < max_steps:
        mover = to_move(state)
        if mover is None:
            return state, steps
        if mover == CHANCE:
            action = game.chance_outcome(state, rng)
        elif mover == SIMULTANEOUS:   # seats submit one by one; each sees only its own knowledge
            seat = game.pending_seats(state)[0]
            action = choose_for(players[seat], game, state, seat, rng)
        elif secrets:
            action = choose_for(players[mover], game, state, mover, rng)
        else:                         # nothing hidden: the bot may have the state itself (fast path)
            action = players[mover].choose(game, state)
        state = apply(state, action, check=False)
        steps += 1
    raise RuntimeError(f"{game.name}: no end after {max_steps} steps (check the turn cap parameter)")
