"""A position of Corner Rush: the declared :class:`State`, and its hand-writable JSON both ways.

The state is declared field by field (:class:`playtest.State`: types and bounds). Its JSON form
(the package docstring) writes tiles by name, blockers by tile and ``null`` where the state keeps
-1, so two small conversions stay here: :func:`position_json` writes it, and :func:`read_position`
turns it into the declared fields (tile names into tiles, ``null`` into -1, left-out fields into
their values at the start of the game) for the kernel to check type and bound, then
:func:`check_position` refuses what the rules could not reach, with a message naming the field.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Callable

from ...geometry import bit_grid
from ...kernel import State as _State
from ...kernel import field
from ...kernel.fieldtypes import field_type
from ...kernel.values import shown
from .params import MAX_VALUE

if TYPE_CHECKING:
    from typing import dataclass_transform

    from .rules import CornerRush

    @dataclass_transform(frozen_default=True, field_specifiers=(field,))
    class _Declared(_State):      # the kernel makes every State subclass a frozen dataclass: tell the type checker
        pass
else:
    _Declared = _State

__all__ = ["State", "Blocker", "blocker", "PHASES", "read_position", "check_position", "rolloff_contenders",
           "first_player"]

#: the phases of a game; ``rolloff``, ``roll``, ``challenge`` and (with random draws) ``draw`` are chance steps
PHASES = ("rolloff", "start", "roll", "challenge", "take", "move", "null", "again", "draw", "place", "over")
#: the fields of the JSON form
FIELDS = ("phase", "to_move", "turn", "pawns", "blockers", "bags", "held", "die", "steps", "path", "challenged",
          "challenges", "pushed", "rolloff", "removed", "last", "winner", "reason")
_TILE = 80          # the highest tile index of the largest board (9x9)
_SEATS = field_type(tuple[int, ...])

Token = tuple[int, int]     # a blocker off the board: (colour, value)


class Blocker(_Declared):
    """A blocker on the board: its back's colour (a seat), its value, face up or not, and who knows it.

    ``known`` is a bit mask of the seats that know a face-down blocker's value (the one that placed
    it; everyone after a challenge that turned it face down again). A face-up blocker is public
    (``known`` is then 0).
    """

    colour: int = field(min=0, max=3)
    value: int = field(min=0, max=MAX_VALUE)
    face_up: bool = False
    known: int = field(default=0, min=0, max=15)


class State(_Declared):
    """A position of Corner Rush (an immutable value; JSON form in the package docstring).

    Tiles are indices ``row * size + col``; ``-1`` stands for "none" in the
    integer fields. ``blockers`` has one entry per tile (a :class:`Blocker` or
    ``None``) and ``blocked`` is the mask of the tiles that hold one. A bag is a
    sorted tuple of ``(colour, value)`` pairs. Types and bounds are declared; what depends on the
    parameters (seats, tiles, the blockers of each bag) is :func:`check_position`'s.
    """

    size: int = field(default=5, min=3, max=9)                  # tiles on a side (the board's names: a1 ...)
    phase: str = field(default="start", choices=PHASES)
    mover: int = field(default=0, min=-1, max=3)                 # the seat whose turn it is (-1 during the roll-off)
    turn: int = field(default=0, min=0, max=100_000)             # turns played, all players together
    pawns: tuple[int, ...] = field(default=(), min=0, max=_TILE)  # per seat: its pawn's tile
    blockers: tuple[Blocker | None, ...] = ()                    # per tile: a Blocker, or None
    blocked: int = field(default=0, min=0)                       # mask of the tiles holding a blocker
    bags: tuple[tuple[Token, ...], ...] = field(default=(), min=0, max=MAX_VALUE)   # per seat, sorted
    held: Token | None = field(default=None, min=0, max=MAX_VALUE)   # the blocker drawn and not yet placed
    die: int = field(default=-1, min=-1, max=MAX_VALUE)          # the die's last result (-1: not rolled yet)
    steps: int = field(default=0, min=0, max=MAX_VALUE)          # move: steps left; null: pushes left
    path: tuple[int, ...] = field(default=(), min=0, max=_TILE)  # this turn's tiles of the pawn moved, start first
    challenged: int = field(default=-1, min=-1, max=_TILE)       # the tile challenged this turn (-1: none)
    challenges: int = field(default=0, min=0, max=4)             # challenges made this turn
    pushed: int = field(default=-1, min=-1, max=3)               # null: the seat whose pawn is moved (-1: none yet)
    rolloff: tuple[tuple[Token, ...], ...] = field(default=((),), min=0, max=MAX_VALUE)  # rounds of (seat, value)s
    removed: tuple[Token, ...] = field(default=(), min=0, max=MAX_VALUE)   # blockers out of the game, sorted
    #: the previous turn, for the board's mark: (seat of the pawn moved, its path, the tile placed on or -1)
    last: tuple[int, tuple[int, ...], int] | None = field(default=None, min=-1, max=_TILE)
    winner: int = field(default=-1, min=-1, max=3)
    reason: str = ""

    def replace(self, **changes: Any) -> State:
        """A copy with ``changes`` (the rules make one per action: the kernel's, with less work).

        >>> State().replace(turn=3).turn
        3
        """
        values = self.__dict__.copy()
        values.update(changes)
        if len(values) != _FIELDS:                          # a name that is no field's
            return _State.replace(self, **changes)        # (its error names it)
        new = _new(State)
        _set(new, "__dict__", values)
        return new

    #: the name the NamedTuple of before gave ``replace`` (bots and tests written against it use it)
    _replace = replace

    def to_json(self) -> dict[str, Any]:
        """The hand-writable JSON form (see the package docstring), tiles by name."""
        return position_json(self)

    def blocker_on(self, tile: int) -> Blocker:
        """The blocker on ``tile``, a tile the rules know holds one (the one challenged, ...)."""
        found = self.blockers[tile]
        assert found is not None, f"no blocker on tile {tile}"
        return found


_FIELDS = len(State._names)
_new, _set = object.__new__, object.__setattr__


def blocker(colour: int, value: int, face_up: bool = False, known: int = 0) -> Blocker:
    """The :class:`Blocker` with these fields, made once (a value: determinize asks for many).

    >>> blocker(1, 3) is blocker(1, 3), blocker(1, 3)
    (True, Blocker(colour=1, value=3, face_up=False, known=0))
    """
    key = (colour, value, face_up, known)
    found = _BLOCKERS.get(key)
    if found is None:
        found = _BLOCKERS[key] = Blocker(colour, value, face_up, known)
    return found


_BLOCKERS: dict[tuple[int, int, bool, int], Blocker] = {}     # at most 4 x 13 x 2 x 16 values


def rolloff_contenders(rounds: tuple[tuple[Token, ...], ...], players: int) -> tuple[int, ...]:
    """The seats that roll in the last round of the roll-off: everyone first, then those tied highest.

    >>> rolloff_contenders(((),), 4)
    (0, 1, 2, 3)
    >>> rolloff_contenders((((0, 5), (1, 5), (2, 3), (3, 0)), ()), 4)
    (0, 1)
    """
    contenders = tuple(range(players))
    for rnd in rounds[:-1]:
        best = max(v for _, v in rnd)
        contenders = tuple(s for s, v in rnd if v == best)
    return contenders


def rolloff_winner(rnd: tuple[Token, ...], contenders: tuple[int, ...]) -> int:
    """The seat that won a complete round of the roll-off, or -1 when the highest is tied (or it is not complete)."""
    if len(rnd) < len(contenders):
        return -1
    best = max(v for _, v in rnd)
    top = [s for s, v in rnd if v == best]
    return top[0] if len(top) == 1 else -1


def first_player(state: State) -> int:
    """The seat that won the roll-off (-1 while it is still on, or when a position leaves it out)."""
    if state.phase == "rolloff" or not state.rolloff[-1]:
        return -1
    rnd = state.rolloff[-1]
    best = max(v for _, v in rnd)
    return next(seat for seat, v in rnd if v == best)


# --------------------------------------------------------------------------- to JSON

def position_json(state: State) -> dict[str, Any]:
    """``state`` as the JSON of the package docstring (tiles by name)."""
    label = bit_grid(state.size, state.size).labels
    n = len(state.pawns)
    blockers = {}
    for i, b in enumerate(state.blockers):
        if b is None:
            continue
        entry: dict[str, Any] = {"colour": b.colour, "value": b.value}
        if b.face_up:
            entry["face_up"] = True
        else:
            entry["known"] = [s for s in range(n) if b.known >> s & 1]
        blockers[label[i]] = entry
    last = None
    if state.last is not None:
        seat, path, placed = state.last
        last = {"seat": seat, "path": [label[i] for i in path], "placed": label[placed] if placed >= 0 else None}
    return {
        "phase": state.phase,
        "to_move": state.mover if state.mover >= 0 else None,
        "turn": state.turn,
        "pawns": [label[p] for p in state.pawns],
        "blockers": blockers,
        "bags": [[list(b) for b in bag] for bag in state.bags],
        "held": list(state.held) if state.held is not None else None,
        "die": state.die if state.die >= 0 else None,
        "steps": state.steps,
        "path": [label[i] for i in state.path],
        "challenged": label[state.challenged] if state.challenged >= 0 else None,
        "challenges": state.challenges,
        "pushed": state.pushed if state.pushed >= 0 else None,
        "rolloff": [[list(r) for r in rnd] for rnd in state.rolloff],
        "removed": [list(b) for b in state.removed],
        "last": last,
        "winner": state.winner if state.winner >= 0 else None,
        "reason": state.reason,
    }


# --------------------------------------------------------------------------- from JSON

def read_position(game: CornerRush, data: Any) -> State:
    """``game.state_from_json``: a position from its hand-written JSON, validated with clear messages."""
    if not isinstance(data, dict):
        raise ValueError("a Corner Rush position is an object with 'pawns', 'blockers', 'bags', ... "
                         "(see the package docstring)")
    unknown = sorted(str(k)[:40] for k in data if k not in FIELDS)
    if unknown:
        raise ValueError(f"unknown fields in a Corner Rush position: {unknown[:10]}; the fields are "
                         f"{', '.join(sorted(FIELDS))}")
    B, n, p = game.B, game.n, game.params

    def tile(value: Any, where: str) -> int:
        i = B.index(value)
        if i < 0:
            raise ValueError(f"{where}: {shown(value)} is not a tile of the {B.size}x{B.size} board (a1 to "
                             f"{B.label(B.tiles - 1)})")
        return i

    def tiles(value: Any, where: str) -> list[int]:
        if not isinstance(value, list):
            raise ValueError(f"{where} must be a list of tiles, not {shown(value)}")
        return [tile(v, f"{where}[{k}]") for k, v in enumerate(value)]

    def seat(value: Any, where: str) -> int:      # (checked here: the state calls it mover)
        if type(value) is not int or not 0 <= value < n:
            raise ValueError(f"{where} must be a seat from 0 to {n - 1} or null, not {shown(value)}")
        return value

    def none_is_minus_one(key: str, value: Any, convert: Callable[[Any, str], Any] = lambda v, _: v) -> Any:
        if value is None:
            return -1
        if type(value) is int and value < 0:
            raise ValueError(f"{key} must be null or at least 0, not {value}")
        return convert(value, key)

    phase = data.get("phase", "start")
    last = data.get("last")
    if last is not None:
        if not isinstance(last, dict) or set(last) - {"seat", "path", "placed"}:
            raise ValueError('last must be null or {"seat": s, "path": [tiles], "placed": tile or null}')
        last = [last.get("seat", 0), tiles(last.get("path", []), "last.path"),
                none_is_minus_one("last.placed", last.get("placed"), tile)]
    fields = {
        "size": B.size, "phase": phase,
        "mover": none_is_minus_one("to_move", data.get("to_move", None if phase == "rolloff" else 0), seat),
        "pawns": tiles(data.get("pawns", [B.label(i) for i in B.starts]), "pawns"),
        "path": tiles(data.get("path", []), "path"), "last": last,
        "challenged": none_is_minus_one("challenged", data.get("challenged"), tile),
        "die": none_is_minus_one("die", data.get("die")), "pushed": none_is_minus_one("pushed", data.get("pushed")),
        "winner": none_is_minus_one("winner", data.get("winner")),
    }
    rolloff = data.get("rolloff", [])
    fields["rolloff"] = rolloff if rolloff != [] else [[]]
    fields["challenges"] = data.get("challenges", 1 if fields["challenged"] >= 0 else 0)
    for key in ("turn", "bags", "held", "steps", "removed", "reason"):
        if key in data:
            fields[key] = data[key]
    state: State = State.from_json(fields, where="corner_rush")         # the declared types and bounds
    raw = data.get("blockers", {})
    if not isinstance(raw, dict):
        raise ValueError('blockers must be an object {"c4": {"colour": 1, "value": 3, ...}} by tile')
    blockers: list[Blocker | None] = [None] * B.tiles
    for key, entry in raw.items():
        at = tile(key, "blockers")
        seats = None
        if isinstance(entry, dict):                 # the caller's data is left as it was
            entry = dict(entry)
            seats = entry.pop("known", None)
        b = Blocker.from_json(entry, where=f"blockers {key}")
        if b.face_up:
            if seats is not None:
                raise ValueError(f"blockers {key}: a face-up blocker is known to everyone; leave 'known' out")
        else:
            if seats is None:
                seats = [b.colour] if p.placer_knows_value else []
            seats = _SEATS.read(seats, f"blockers {key}.known")
            if any(not 0 <= s < n for s in seats):
                raise ValueError(f"blockers {key}.known must list seats from 0 to {n - 1}, not {list(seats)}")
            b = b.replace(known=sum(1 << s for s in set(seats)))
        blockers[at] = b
    bags = (tuple(tuple(sorted(bag)) for bag in state.bags) if "bags" in data
            else _own_blockers(game, blockers, state.held, state.removed))
    return state.replace(blockers=tuple(blockers), blocked=sum(1 << i for i, b in enumerate(blockers) if b is not None),
                         bags=bags, removed=tuple(sorted(state.removed)))


def _own_blockers(game: CornerRush, blockers: list[Blocker | None], held: Token | None,
                  removed: tuple[Token, ...]) -> tuple[tuple[Token, ...], ...]:
    """The bags a position leaves out: each seat's own blockers that are nowhere else."""
    elsewhere = Counter((b.colour, b.value) for b in blockers if b is not None) + Counter(removed)
    if held is not None:
        elsewhere[held] += 1
    own = Counter(game.params.blocker_set())
    return tuple(tuple(sorted((c, v) for v, count in (own - Counter(
        {v: k for (cc, v), k in elsewhere.items() if cc == c})).items() for _ in range(count)))
        for c in range(game.n))


def check_position(game: CornerRush, state: State) -> None:
    """Refuse, with a ``ValueError`` naming the field, a position these rules could not reach."""
    p, B, n = game.params, game.B, game.n
    names = [s.name for s in game.seats()]
    phase, pawns, mover, blockers = state.phase, state.pawns, state.mover, state.blockers

    def seat(value: int, where: str) -> None:
        if not 0 <= value < n:
            raise ValueError(f"{where} must be a seat from 0 to {n - 1}, not {value}")

    if mover < 0 and phase not in ("rolloff", "over"):
        raise ValueError(f"to_move must be a seat from 0 to {n - 1} in phase {phase}, not null")
    for key, value in (("to_move", mover), ("pushed", state.pushed), ("winner", state.winner)):
        if value >= 0:
            seat(value, key)
    if state.last is not None:
        seat(state.last[0], "last.seat")
    if state.turn > p.max_turns:
        raise ValueError(f"turn must be a whole number from 0 to {p.max_turns} (max_turns), not {state.turn}")
    if state.challenges > p.max_challenges_per_turn:
        raise ValueError(f"challenges must be at most {p.max_challenges_per_turn} (max_challenges_per_turn), "
                         f"not {state.challenges}")
    if len(state.bags) != n:
        raise ValueError(f"bags must list {n} bags (lists of [colour, value]), one per seat")
    # pawns: a moving pawn may pass a pawn, and a winner may have entered its Ace where a pawn stands
    if len(pawns) != n:
        raise ValueError(f"pawns must list {n} tiles, one per seat")
    resting = [t for k, t in enumerate(pawns) if not (phase == "move" and k == mover)
               and not (phase == "over" and k == state.winner and t == B.aces[k])]
    if not p.pawn_stacking and len(set(resting)) != len(resting):
        raise ValueError("pawns: two pawns on one tile (pawn_stacking is false)")
    for k, t in enumerate(pawns):
        if t == B.hole and not p.hole_passable:
            raise ValueError(f"pawns: {names[k]}'s pawn is in the hole {B.label(t)}")
    # blockers: each somewhere exactly once, on the board on a free tile
    pawn_mask = 0
    for t in pawns:
        pawn_mask |= 1 << t
    for i, b in enumerate(blockers):
        if b is None:
            continue
        key = B.label(i)
        if i == B.hole:
            raise ValueError(f"blockers: no blocker goes in the hole {key} (rule D1)")
        if B.ace_mask >> i & 1:
            raise ValueError(f"blockers: {key} holds an Ace token; no blocker goes there (rule D10)")
        if pawn_mask >> i & 1:
            raise ValueError(f"blockers: a pawn stands on {key}")
    total = Counter((b.colour, b.value) for b in blockers if b is not None) + Counter(state.removed)
    if state.held is not None:
        total[state.held] += 1
    for bag in state.bags:
        total.update(bag)
    own = Counter(p.blocker_set())
    expected = Counter({(c, v): k for c in range(n) for v, k in own.items()})
    if total != expected:
        missing, extra = sorted((expected - total).elements()), sorted((total - expected).elements())
        raise ValueError(f"blockers: every blocker must be once on the board, in a bag, held or removed "
                         f"(each seat has {list(p.blocker_set())}); missing {missing}, extra {extra}")
    # the turn in progress
    for here, there in zip(state.path, state.path[1:]):
        if not B.adj4[here] >> there & 1:
            raise ValueError(f"path: {B.label(here)} and {B.label(there)} are not orthogonal neighbours")
    _check_rolloff(state.rolloff, n)
    if (state.held is not None) != (phase == "place"):
        raise ValueError("held: a drawn blocker is held exactly in the place phase")
    rounds = state.rolloff
    if phase == "rolloff":
        if state.turn or state.blocked or state.path or any(t != s for t, s in zip(pawns, B.starts)):
            raise ValueError("phase rolloff: nothing has moved before the first player is known")
        if len(rounds[-1]) >= len(rolloff_contenders(rounds, n)):
            raise ValueError("rolloff: in phase rolloff the last round still has a seat to roll")
    elif rounds != ((),) and rolloff_winner(rounds[-1], rolloff_contenders(rounds, n)) < 0:
        raise ValueError("rolloff: the last round must name one highest roller once the game is on")
    if phase in ("move", "null") and state.steps < 1:
        raise ValueError(f"steps: phase {phase} needs at least 1 step left")
    if phase == "move" and (not state.path or state.path[-1] != pawns[mover]):
        raise ValueError("path: in phase move the path ends on the moving pawn's tile")
    if phase in ("challenge", "take"):
        b = blockers[state.challenged] if state.challenged >= 0 else None
        if b is None or not b.face_up:
            raise ValueError(f"challenged: phase {phase} needs the challenged blocker, face up, on the board")
    if phase == "take" and state.die < 0:
        raise ValueError("die: phase take follows a challenge roll")
    if phase == "null" and state.pushed >= 0 and state.pushed == mover:
        raise ValueError("pushed: a Null moves another player's pawn")
    if phase == "over":
        if state.winner < 0 and not state.reason:
            raise ValueError("reason: a finished game says why (a draw at max_turns, ...)")
    elif state.winner >= 0:
        raise ValueError("winner: only a finished game (phase over) has a winner")


def _check_rolloff(rounds: tuple[tuple[Token, ...], ...], n: int) -> None:
    for k in range(len(rounds)):
        contenders = rolloff_contenders(rounds[:k + 1], n)
        seats = tuple(s for s, _ in rounds[k])
        if seats != contenders[:len(seats)]:
            raise ValueError(f"rolloff[{k}]: the seats {list(contenders)} roll in seat order in this round")
        if k < len(rounds) - 1 and (len(seats) < len(contenders) or rolloff_winner(rounds[k], contenders) >= 0):
            raise ValueError(f"rolloff[{k}]: only a complete round with a tie for the highest is rolled again")
