"""The properties of what a seat may know: **secrecy** (positions a seat cannot tell apart give it
the same board, choices, ``determinize`` and bots' moves; a log never tells it more than its
board) and **perfect information** (a game declaring it shows idle seats the same board)."""

from __future__ import annotations

import functools
import json
import random
from typing import Any, Callable

from ..kernel import CHANCE, SIMULTANEOUS, Game, State, UncountedChance
from ..kernel.game import _overrides
from .messages import _first_difference, _one_line
from .positions import _legal, _sample
from .report import CheckFailure, CheckReport, _count, _Stop


def _secrecy(game: Game[Any, Any, Any], state: Any, report: CheckReport, rng: random.Random,
             seen: list[Any]) -> None:
    from ..bots import RandomBot, choose_for
    for seat in range(len(game.seats())):
        other = game.determinize(state, seat, random.Random(rng.random()))
        _count(report, "secrecy: determinize")
        refused = _refused_world(game, other)
        if refused is not None:
            fix = ("its determinize must redraw only worlds the rules can reach" if _overrides(type(game), "determinize")
                   else "declare the hidden fields' pool (field(..., pool=...)) or write determinize")
            raise _Stop(CheckFailure("secrecy: determinize", f"determinize drew a world the game refuses: {refused}; "
                                                             f"{fix}", seat))
        _count(report, "secrecy: board")
        board, redrawn = game.view(state, seat), game.view(other, seat)
        if board != redrawn:
            where, one, two = _first_difference(board, redrawn)
            hint = ""
            if game.to_move(state) != game.to_move(other):
                hint = (f"; redrawing what it may not see changed whose turn it is ({_who(game, state)} / "
                        f"{_who(game, other)}): a hidden value that means 'not drawn yet' should be None, "
                        f"which determinize leaves alone")
            raise _Stop(CheckFailure("secrecy: board", "two positions this seat cannot tell apart look different "
                                                       f"on its board: it shows something the seat may not know "
                                                       f"({where}: {one} / {two}){hint}", seat))
        _count(report, "secrecy: choices")
        if game.legal_actions(state, seat) != game.legal_actions(other, seat):
            raise _Stop(CheckFailure("secrecy: choices", "two positions this seat cannot tell apart offer it "
                                                         "different actions", seat))
        _count(report, "secrecy: determinize")
        if game.determinize(state, seat, random.Random(1)) != game.determinize(other, seat, random.Random(1)):
            raise _Stop(CheckFailure("secrecy: determinize", "determinize depends on what the seat may not see",
                                     seat))
        _met_before(game, state, seat, report, board)
        mover = game.to_move(state)
        if mover == seat or (mover == SIMULTANEOUS and game.legal_actions(state, seat)):
            # the random bot at every position; every other bot registered for the game (greedy
            # bots, the search bot with a few iterations, a designer's own) at one in BOT_SAMPLE
            makers: list[Callable[[], Any]] = [lambda: RandomBot(seed=2)]
            if rng.random() < 1 / BOT_SAMPLE:
                makers += _registered_bots(game, seat)
            for make in makers:
                _count(report, "secrecy: bots")
                bots = [make(), make()]      # two fresh bots: the same seed, the same generator state
                try:
                    choices = [choose_for(bot, game, s, seat, random.Random(3)) for bot, s in zip(bots, (state, other))]
                except Exception as exc:     # a bot stopped by the game (a world the rules cannot reach...)
                    name = getattr(bots[0], "name", None) or type(bots[0]).__name__
                    raise _Stop(CheckFailure("secrecy: bots", f"the bot {name!r} raised, choosing for this seat: "
                                                              f"{_one_line(exc)}", seat)) from None
                if choices[0] != choices[1]:
                    name = getattr(bots[0], "name", None) or type(bots[0]).__name__
                    raise _Stop(CheckFailure("secrecy: bots", f"the bot {name!r} chose {choices[0]} and "
                                                              f"{choices[1]} in two positions its seat cannot "
                                                              "tell apart: it reads what the seat may not know",
                                             seat))


_secrecy.property = "secrecy: board"  # type: ignore[attr-defined]


def _met_before(game: Game[Any, Any, Any], state: Any, seat: int, report: CheckReport, board: Any) -> None:
    """Hold ``state`` and a position met earlier in the run (in another random game, say) that
    ``seat`` cannot tell from it (the same values it may read, the same values drawn, the same board
    and choices) to the same worlds. The other checks compare a position with one ``determinize``
    drew from it, so a determinize that hands back the true position (``return state``: the bots
    read every secret) passed them all."""
    redact = getattr(state, "redact", None)
    if not callable(redact) or not isinstance(state, State):
        return
    try:       # what the seat reads, which values are drawn at all (None: not yet), what it is shown and offered
        key = (seat, json.dumps([redact(seat), _drawn(state.to_json()), board,
                                 [a.to_json() for a in game.legal_actions(state, seat)]], sort_keys=True, default=str))
    except Exception:       # noqa: BLE001 (a position without a JSON form: "json" says so)
        return
    twin = report.met.setdefault(key, state)
    if twin == state:
        return
    _count(report, "secrecy: determinize")
    if game.determinize(state, seat, random.Random(1)) != game.determinize(twin, seat, random.Random(1)):
        own = _overrides(type(game), "determinize")
        raise _Stop(CheckFailure("secrecy: determinize", (
            "two positions met in the random games, which this seat cannot tell apart (the same board, choices "
            "and readable values), give different worlds for the same generator: determinize depends on what the "
            "seat may not see, so its bots read it"
            + ("; redraw every value the seat may not see (a determinize that gives back the state it was "
               "handed hands the bots the truth)" if own else "")), seat))


def _drawn(data: Any) -> Any:
    """The shape of a JSON form with every value but ``None`` written 1: which values are drawn (a
    value not drawn yet is ``None``, public by the kernel's rule, and left alone by determinize)."""
    if isinstance(data, dict):
        return {k: _drawn(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_drawn(v) for v in data]
    return None if data is None else 1


def _refused_world(game: Game[Any, Any, Any], world: Any) -> str | None:
    """Why the game refuses ``world`` (a redrawn position) as a position, read back from its JSON
    form as a file's is (declarations, lengths, ``check_state``); ``None`` when it accepts it or
    has no JSON form to read."""
    try:
        data = json.loads(json.dumps(world.to_json()))
    except Exception:       # noqa: BLE001 (no JSON form: "json" says so)
        return None
    try:
        game.state_from_json(data)
    except NotImplementedError:     # a game that reads no positions (the older protocol may not): no reader to ask
        return None
    except ValueError as exc:
        return str(exc)[:300]
    except Exception as exc:       # noqa: BLE001 (the game's reader raised on it: said as it raised)
        return _one_line(exc)
    return None


def _who(game: Game[Any, Any, Any], state: Any) -> str:
    mover = game.to_move(state)
    return {None: "over", CHANCE: "chance", SIMULTANEOUS: "orders"}.get(mover, f"seat {mover}")


#: the bots registered for a game besides the random bot are checked at one secrecy position in this many
#: (on average)
BOT_SAMPLE = 8


def _registered_bots(game: Game[Any, Any, Any], seat: int) -> list[Callable[[], Any]]:
    """Makers of every bot registered for ``game`` that plays ``seat``, but the random bot, each
    made cheaply and seeded (the search bot with 4 iterations)."""
    from ..bots import RandomBot, bots_for
    makers: list[Callable[[], Any]] = []
    for name, maker in bots_for(game).items():
        if maker is RandomBot:
            continue
        for options in ({"iterations": 4, "seed": 2}, {"seed": 2}, {}):
            try:
                maker(**options)
            except (TypeError, ValueError):
                continue
            if maker(**options).plays(game, seat):
                makers.append(functools.partial(maker, **options))
            break
    return makers


def _log(game: Game[Any, Any, Any], state: Any, report: CheckReport, rng: random.Random, seen: list[Any]) -> None:
    """A log never tells a seat more than its board: two actions (of one actor, or two chance
    results) whose results look the same to a seat read the same to it."""
    mover = game.to_move(state)
    if mover is None:
        return
    if mover == CHANCE:
        outcomes = game.chance_outcomes(state)
        if isinstance(outcomes, UncountedChance):
            return
        actions = [a for a, _ in outcomes][:16]
    else:
        actions = _sample(_legal(game, state), 10, rng)
    afters = {}
    for action in actions:
        afters[action] = game.apply(state, action, check=False)
    for seat in range(len(game.seats())):
        groups: dict[str, list[Any]] = {}
        for action in actions:
            if mover != CHANCE and game.seat_of(state, action) == seat:
                continue
            after = afters[action]
            key = json.dumps([game.view(after, seat),
                              [a.to_json() for a in game.legal_actions(after, seat)]
                              if game.to_move(after) not in (None, CHANCE) else []], sort_keys=True)
            groups.setdefault(key + f"|{game.seat_of(state, action)}", []).append(action)
        for group in groups.values():
            _count(report, "secrecy: log")
            written = {game.notation(state, action, seat) for action in group}
            if len(written) > 1:
                shown = sorted(written)[:2]
                # (a declared state: the value is to be declared hidden, the notation written per viewer)
                hint = (" (a value the board hides from this seat must be declared hidden: field(..., "
                        "visible='owner'), and the notation written per viewer)") if isinstance(state, State) else ""
                raise _Stop(CheckFailure("secrecy: log", f"the move log tells this seat more than its board: "
                                                         f"{shown[0]!r} and {shown[1]!r} look the same on its board"
                                                         f"{hint}", seat))


_log.property = "secrecy: log"  # type: ignore[attr-defined]


def _perfect(game: Game[Any, Any, Any], state: Any, report: CheckReport, rng: random.Random,
             seen: list[Any]) -> None:
    """A game that declares perfect information shows every seat that cannot act now the same
    board (the seat that acts may also see its targets): no seat sees a secret of its own."""
    if game.to_move(state) is None:
        return
    idle = [seat for seat in range(len(game.seats())) if not game.legal_actions(state, seat)]
    if len(idle) < 2:
        return
    _count(report, "perfect information")
    first = _shown_items(game.view(state, idle[0]))
    for seat in idle[1:]:
        if _shown_items(game.view(state, seat)) != first:
            raise _Stop(CheckFailure("perfect information", f"the game declares perfect information, but seats "
                                                            f"{idle[0]} and {seat} see different boards: declare "
                                                            f"GameType(information='imperfect')", seat))


_perfect.property = "perfect information"  # type: ignore[attr-defined]


def _shown_items(scene: dict[str, Any]) -> list[Any]:
    keep = ("kind", "board", "at", "text", "fill", "shape", "color", "label", "title")
    return [{k: item.get(k) for k in keep} for item in scene.get("items", [])]
