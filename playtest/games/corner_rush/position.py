"""A position of Corner Rush: the :class:`State` value, and its JSON form both ways.

``State.to_json`` writes the hand-writable form shown in the package
docstring; :func:`read_position` reads it back (``game.state_from_json``),
checking every field with a :class:`playtest.position.PositionReader` and
refusing positions the rules could not reach, with a message naming the field.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, NamedTuple

from ...geometry import bit_grid
from ...position import PositionReader
from .params import MAX_VALUE

if TYPE_CHECKING:
    from .rules import CornerRush

__all__ = ["State", "Blocker", "PHASES", "read_position", "rolloff_contenders", "first_player"]

#: the phases of a game; ``rolloff``, ``roll``, ``challenge`` and (with random draws) ``draw`` are chance steps
PHASES = ("rolloff", "start", "roll", "challenge", "take", "move", "null", "again", "draw", "place", "over")
FIELDS = ("phase", "to_move", "turn", "pawns", "blockers", "bags", "held", "die", "steps", "path", "challenged",
          "challenges", "pushed", "rolloff", "removed", "last", "winner", "reason")


class Blocker(NamedTuple):
    """A blocker on the board: its back's colour (a seat), its value, face up or not, and who knows it.

    ``known`` is a bit mask of the seats that know a face-down blocker's value (the one that placed
    it; everyone after a challenge that turned it face down again). A face-up blocker is public
    (``known`` is then 0).
    """

    colour: int
    value: int
    face_up: bool = False
    known: int = 0


class State(NamedTuple):
    """A position of Corner Rush (an immutable value; JSON form in the package docstring).

    Tiles are indices ``row * size + col``; ``-1`` stands for "none" in the
    integer fields. ``blockers`` has one entry per tile (a :class:`Blocker` or
    ``None``) and ``blocked`` is the mask of the tiles that hold one. A bag is a
    sorted tuple of ``(colour, value)`` pairs.
    """

    size: int               # tiles on a side (the board's names: a1 ...)
    phase: str
    mover: int              # the seat whose turn it is (-1 during the roll-off)
    turn: int               # turns played, all players together
    pawns: tuple            # per seat: its pawn's tile
    blockers: tuple         # per tile: a Blocker, or None
    blocked: int            # mask of the tiles holding a blocker
    bags: tuple             # per seat: sorted ((colour, value), ...)
    held: tuple | None      # the blocker drawn and not yet placed: (colour, value)
    die: int                # the die's last result (-1: not rolled yet)
    steps: int              # move: steps left; null: pushes left
    path: tuple             # tiles of the pawn moved this turn, its start first
    challenged: int         # the tile challenged this turn (-1: none)
    challenges: int         # challenges made this turn
    pushed: int             # null: the seat whose pawn is being moved (-1: not chosen yet)
    rolloff: tuple          # rounds of the roll-off: ((seat, value), ...) each
    removed: tuple          # blockers out of the game: sorted ((colour, value), ...)
    last: tuple | None      # the previous turn, for the board's mark: (seat of the pawn moved, path, placed tile)
    winner: int = -1
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        """The hand-writable JSON form (see the package docstring), tiles by name."""
        return position_json(self)


_FIELD_INDEX = {name: k for k, name in enumerate(State._fields)}


def _replace(self: State, **changes: Any) -> State:
    """A copy with some fields changed: the rules make one per action, so a faster one than NamedTuple's."""
    values = list(self)
    for name, value in changes.items():
        values[_FIELD_INDEX[name]] = value
    return tuple.__new__(State, values)


State._replace = _replace   # type: ignore[method-assign]   (a NamedTuple body may not define it)


def rolloff_contenders(rounds: tuple, players: int) -> tuple[int, ...]:
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


def rolloff_winner(rnd: tuple, contenders: tuple) -> int:
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

class _Reader(PositionReader):
    """The shared field reader, plus tiles, seats and blockers of this game's board."""

    __slots__ = ("game",)

    def __init__(self, game: CornerRush, data: Any):
        super().__init__("Corner Rush", data, FIELDS, "'pawns', 'blockers', 'bags', ... (see the package docstring)")
        self.game = game

    def tile(self, value: Any, where: str) -> int:
        i = self.game.B.index(value)
        if i < 0:
            size = self.game.B.size
            raise ValueError(f"{where}: {value!r} is not a tile of the {size}x{size} board (a1 to "
                             f"{self.game.B.label(size * size - 1)})")
        return i

    def optional_tile(self, key: str) -> int:
        value = self.get(key)
        return -1 if value is None else self.tile(value, key)

    def seat(self, value: Any, where: str) -> int:
        n = self.game.n
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
            raise ValueError(f"{where} must be a seat from 0 to {n - 1}, not {value!r}")
        return value

    def value(self, value: Any, where: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_VALUE:
            raise ValueError(f"{where} must be a value from 0 to {MAX_VALUE}, not {value!r}")
        return value

    def token(self, value: Any, where: str) -> tuple[int, int]:
        """A blocker in a bag: ``[colour, value]``."""
        if not isinstance(value, (list, tuple)) or len(value) != 2:
            raise ValueError(f"{where}: a blocker in a bag is [colour, value], not {value!r}")
        return (self.seat(value[0], f"{where} colour"), self.value(value[1], f"{where} value"))

    def tiles(self, value: Any, where: str) -> tuple[int, ...]:
        if not isinstance(value, list):
            raise ValueError(f"{where} must be a list of tiles, not {value!r}")
        return tuple(self.tile(v, where) for v in value)


def read_position(game: CornerRush, data: Any) -> State:
    """``game.state_from_json``: a position from its hand-written JSON, validated with clear messages."""
    r = _Reader(game, data)
    p, B, n = game.params, game.B, game.n
    names = [s.name for s in game.seats()]
    phase = r.choice("phase", "start", PHASES, "a phase")
    to_move = r.get("to_move", 0 if phase != "rolloff" else None)
    mover = -1 if to_move is None and phase in ("rolloff", "over") else r.seat(to_move, "to_move")
    turn = r.integer("turn", 0, 0, p.max_turns)
    # pawns
    raw = r.get("pawns", [B.label(i) for i in B.starts])
    if not isinstance(raw, list) or len(raw) != n:
        raise ValueError(f"pawns must list {n} tiles, one per seat")
    pawns = tuple(r.tile(v, f"pawns[{k}]") for k, v in enumerate(raw))
    winner_raw = r.get("winner")
    # a moving pawn may pass a pawn, and a winner may have entered its Ace where a pawn stands (win_on_occupied_ace)
    resting = [t for k, t in enumerate(pawns) if not (phase == "move" and k == mover)
               and not (phase == "over" and k == winner_raw and t == B.aces[k])]
    if not p.pawn_stacking and len(set(resting)) != len(resting):
        raise ValueError("pawns: two pawns on one tile (pawn_stacking is false)")
    for k, t in enumerate(pawns):
        if t == B.hole and not p.hole_passable:
            raise ValueError(f"pawns: {names[k]}'s pawn is in the hole {B.label(t)}")
    # blockers on the board
    blockers: list = [None] * B.tiles
    pawn_mask = 0
    for t in pawns:
        pawn_mask |= 1 << t
    for key, entry in r.mapping("blockers", '{"c4": {"colour": 1, "value": 3, ...}} by tile').items():
        i = r.tile(key, "blockers")
        if not isinstance(entry, dict) or set(entry) - {"colour", "value", "face_up", "known"}:
            raise ValueError(f"blockers {key}: a blocker is {{\"colour\": seat, \"value\": v, \"face_up\": false, "
                             f"\"known\": [seats]}}, not {entry!r}")
        colour = r.seat(entry.get("colour"), f"blockers {key} colour")
        value = r.value(entry.get("value"), f"blockers {key} value")
        face_up = entry.get("face_up", False)
        if not isinstance(face_up, bool):
            raise ValueError(f"blockers {key} face_up must be true or false")
        known = 0
        if not face_up:
            seats = entry.get("known", [colour] if p.placer_knows_value else [])
            if not isinstance(seats, list):
                raise ValueError(f"blockers {key} known must be a list of seats")
            for s in seats:
                known |= 1 << r.seat(s, f"blockers {key} known")
        elif "known" in entry:
            raise ValueError(f"blockers {key}: a face-up blocker is known to everyone; leave 'known' out")
        if i == B.hole:
            raise ValueError(f"blockers: no blocker goes in the hole {key} (rule D1)")
        if B.ace_mask >> i & 1:
            raise ValueError(f"blockers: {key} holds an Ace token; no blocker goes there (rule D10)")
        if pawn_mask >> i & 1:
            raise ValueError(f"blockers: a pawn stands on {key}")
        blockers[i] = Blocker(colour, value, face_up, known)
    blocked = sum(1 << i for i, b in enumerate(blockers) if b is not None)
    held_raw = r.get("held")
    held = None if held_raw is None else r.token(held_raw, "held")
    removed = tuple(sorted(r.token(v, "removed") for v in r.items("removed", "[colour, value] blockers")))
    # bags: by default each seat's own blockers that are nowhere else
    full = {c: Counter(p.blocker_set()) for c in range(n)}
    elsewhere = Counter((b.colour, b.value) for b in blockers if b is not None) + Counter(removed)
    if held is not None:
        elsewhere[held] += 1
    if "bags" in r:
        raw_bags = r.items("bags", "bags, one per seat")
        if len(raw_bags) != n or any(not isinstance(bag, list) for bag in raw_bags):
            raise ValueError(f"bags must list {n} bags (lists of [colour, value]), one per seat")
        bags = tuple(tuple(sorted(r.token(t, f"bags[{k}]") for t in bag)) for k, bag in enumerate(raw_bags))
    else:
        bags = tuple(tuple(sorted((c, v) for v, count in (full[c] - Counter(
            {v: k for (cc, v), k in elsewhere.items() if cc == c})).items() for _ in range(count)))
            for c in range(n))
    total = Counter(elsewhere)
    for bag in bags:
        total.update(bag)
    expected = Counter({(c, v): k for c in range(n) for v, k in full[c].items()})
    if total != expected:
        missing = sorted((expected - total).elements())
        extra = sorted((total - expected).elements())
        raise ValueError(f"blockers: every blocker must be once on the board, in a bag, held or removed "
                         f"(each seat has {list(p.blocker_set())}); missing {missing}, extra {extra}")
    # the turn in progress
    die = r.get("die")
    die = -1 if die is None else r.value(die, "die")
    steps = r.integer("steps", 0, 0, MAX_VALUE)
    path = r.tiles(r.get("path", []), "path")
    for a, b in zip(path, path[1:]):
        if not B.adj4[a] >> b & 1:
            raise ValueError(f"path: {B.label(a)} and {B.label(b)} are not orthogonal neighbours")
    challenged = r.optional_tile("challenged")
    challenges = r.integer("challenges", 1 if challenged >= 0 else 0, 0, p.max_challenges_per_turn)
    pushed = r.get("pushed")
    pushed = -1 if pushed is None else r.seat(pushed, "pushed")
    rounds = _read_rolloff(r, n)
    last = _read_last(r)
    winner = r.get("winner")
    winner = -1 if winner is None else r.seat(winner, "winner")
    reason = r.text("reason", "")
    # the phase's own requirements
    if (held is not None) != (phase == "place"):
        raise ValueError("held: a drawn blocker is held exactly in the place phase")
    if phase == "rolloff":
        if turn or blocked or path or any(t != s for t, s in zip(pawns, B.starts)):
            raise ValueError("phase rolloff: nothing has moved before the first player is known")
        contenders = rolloff_contenders(rounds, n)
        if len(rounds[-1]) >= len(contenders):
            raise ValueError("rolloff: in phase rolloff the last round still has a seat to roll")
    elif rounds != ((),):
        contenders = rolloff_contenders(rounds, n)
        if rolloff_winner(rounds[-1], contenders) < 0:
            raise ValueError("rolloff: the last round must name one highest roller once the game is on")
    if phase in ("move", "null") and steps < 1:
        raise ValueError(f"steps: phase {phase} needs at least 1 step left")
    if phase == "move" and (not path or path[-1] != pawns[mover]):
        raise ValueError("path: in phase move the path ends on the moving pawn's tile")
    if phase in ("challenge", "take"):
        if challenged < 0 or blockers[challenged] is None or not blockers[challenged].face_up:
            raise ValueError(f"challenged: phase {phase} needs the challenged blocker, face up, on the board")
    if phase == "take" and die < 0:
        raise ValueError("die: phase take follows a challenge roll")
    if phase == "null" and pushed >= 0 and pushed == mover:
        raise ValueError("pushed: a Null moves another player's pawn")
    if phase == "over":
        if winner < 0 and not reason:
            raise ValueError("reason: a finished game says why (a draw at max_turns, ...)")
    elif winner >= 0:
        raise ValueError("winner: only a finished game (phase over) has a winner")
    return State(B.size, phase, mover, turn, pawns, tuple(blockers), blocked, bags, held, die, steps, path, challenged,
                 challenges, pushed, rounds, removed, last, winner, reason)


def _read_rolloff(r: _Reader, n: int) -> tuple:
    raw = r.items("rolloff", "rounds of [seat, value] rolls")
    if not raw:
        return ((),)
    rounds = []
    for k, rnd in enumerate(raw):
        if not isinstance(rnd, list):
            raise ValueError(f"rolloff[{k}] must be a list of [seat, value] rolls")
        rolls = []
        for roll in rnd:
            if not isinstance(roll, list) or len(roll) != 2:
                raise ValueError(f"rolloff[{k}]: a roll is [seat, value], not {roll!r}")
            rolls.append((r.seat(roll[0], f"rolloff[{k}] seat"), r.value(roll[1], f"rolloff[{k}] value")))
        rounds.append(tuple(rolls))
    rounds_t = tuple(rounds)
    for k in range(len(rounds_t)):
        contenders = rolloff_contenders(rounds_t[:k + 1], n)
        seats = tuple(s for s, _ in rounds_t[k])
        if seats != contenders[:len(seats)]:
            raise ValueError(f"rolloff[{k}]: the seats {list(contenders)} roll in seat order in this round")
        if k < len(rounds_t) - 1 and (len(seats) < len(contenders)
                                      or rolloff_winner(rounds_t[k], contenders) >= 0):
            raise ValueError(f"rolloff[{k}]: only a complete round with a tie for the highest is rolled again")
    return rounds_t


def _read_last(r: _Reader) -> tuple | None:
    raw = r.get("last")
    if raw is None:
        return None
    if not isinstance(raw, dict) or set(raw) - {"seat", "path", "placed"}:
        raise ValueError('last must be null or {"seat": s, "path": [tiles], "placed": tile or null}')
    seat = r.seat(raw.get("seat", 0), "last.seat")
    path = r.tiles(raw.get("path", []), "last.path")
    placed = raw.get("placed")
    return (seat, path, -1 if placed is None else r.tile(placed, "last.placed"))
