"""A position of Corner Rush: the declared :class:`State`, its JSON form declared with it.

The state is declared field by field (:class:`playtest.State`: types, bounds, and the JSON form of
the package docstring: tiles by name, ``null`` where the state keeps -1, blockers by tile). The
game fills in what a position leaves out (``CornerRush.state_from_json``: the pawns and bags at
the start, ...), and :func:`check_position` refuses what the rules could not reach, with a
message naming the field.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Sequence

from ...geometry import bit_grid
from ...kernel import State as _State
from ...kernel import field
from ...kernel.fieldtypes import field_type
from ...kernel.values import shown
from .params import MAX_VALUE

if TYPE_CHECKING:
    from .rules import CornerRush

__all__ = ["State", "Blocker", "blocker", "PHASES", "check_position", "rolloff_contenders", "first_player",
           "own_blockers"]

#: the phases of a game; ``rolloff``, ``roll``, ``challenge`` and (with random draws) ``draw`` are chance steps
PHASES = ("rolloff", "start", "roll", "challenge", "take", "move", "null", "again", "draw", "place", "over")
_TILE = 80          # the highest tile index of the largest board (9x9)
_SEATS = field_type(tuple[int, ...])

Token = tuple[int, int]     # a blocker off the board: (colour, value)


# --------------------------------------------------------------------------- the JSON form's conversions

def _labels(state: State) -> tuple[str, ...]:
    return bit_grid(state.size, state.size).labels


def _tile(value: Any, where: str, game: CornerRush) -> int:
    i = game.B.index(value)
    if i < 0:
        B = game.B
        raise ValueError(f"{where}: {shown(value)} is not a tile of the {B.size}x{B.size} board (a1 to "
                         f"{B.label(B.tiles - 1)})")
    return i


def _tiles(value: Any, where: str, game: CornerRush) -> list[int]:
    if not isinstance(value, list):
        raise ValueError(f"{where} must be a list of tiles, not {shown(value)}")
    return [_tile(v, f"{where}[{k}]", game) for k, v in enumerate(value)]


def _seat(value: Any, where: str, game: CornerRush) -> int:
    if type(value) is not int or not 0 <= value < game.n:
        raise ValueError(f"{where} must be a seat from 0 to {game.n - 1} or null, not {shown(value)}")
    return value


def _read_last(value: Any, where: str, game: CornerRush) -> list[Any]:
    if not isinstance(value, dict) or set(value) - {"seat", "path", "placed"}:
        raise ValueError('last must be null or {"seat": s, "path": [tiles], "placed": tile or null}')
    placed = value.get("placed")
    return [value.get("seat", 0), _tiles(value.get("path", []), "last.path", game),
            -1 if placed is None else _tile(placed, "last.placed", game)]


def _write_last(last: tuple[int, tuple[int, ...], int], state: State) -> dict[str, Any]:
    label = _labels(state)
    seat, path, placed = last
    return {"seat": seat, "path": [label[i] for i in path], "placed": label[placed] if placed >= 0 else None}


def _read_blockers(raw: Any, where: str, game: CornerRush) -> list[Any]:
    if not isinstance(raw, dict):
        raise ValueError('blockers must be an object {"c4": {"colour": 1, "value": 3, ...}} by tile')
    n = game.n
    blockers: list[Any] = [None] * game.B.tiles
    for key, entry in raw.items():
        at, seats = _tile(key, "blockers", game), None
        if isinstance(entry, dict):                 # the caller's data is left as it was
            entry = dict(entry)
            seats = entry.pop("known", None)
        b = Blocker.from_json(entry, where=f"blockers {key}")
        if b.face_up:
            if seats is not None:
                raise ValueError(f"blockers {key}: a face-up blocker is known to everyone; leave 'known' out")
        else:
            if seats is None:
                seats = [b.colour] if game.params.placer_knows_value else []
            seats = _SEATS.read(seats, f"blockers {key}.known")
            if any(not 0 <= s < n for s in seats):
                raise ValueError(f"blockers {key}.known must list seats from 0 to {n - 1}, not {list(seats)}")
            b = b.replace(known=sum(1 << s for s in set(seats)))
        blockers[at] = b.to_json()
    return blockers


def _write_blockers(blockers: tuple[Blocker | None, ...], state: State) -> dict[str, Any]:
    label, n, out = _labels(state), len(state.pawns), {}
    for i, b in enumerate(blockers):
        if b is not None:
            out[label[i]] = ({"colour": b.colour, "value": b.value, "face_up": True} if b.face_up else
                             {"colour": b.colour, "value": b.value, "known": [s for s in range(n) if b.known >> s & 1]})
    return out


def _tile_json(tile: int, state: State) -> str:
    return _labels(state)[tile]


def _tiles_json(tiles: tuple[int, ...], state: State) -> list[str]:
    label = _labels(state)
    return [label[i] for i in tiles]


class Blocker(_State):
    """A blocker on the board: its back's colour (a seat), its value, face up or not, and who knows it.

    ``known`` is a bit mask of the seats that know a face-down blocker's value (the one that placed
    it; everyone after a challenge that turned it face down again). A face-up blocker is public
    (``known`` is then 0).
    """

    colour: int = field(min=0, max=3)
    value: int = field(min=0, max=MAX_VALUE)
    face_up: bool = False
    known: int = field(default=0, min=0, max=15)


class State(_State):
    """A position of Corner Rush (an immutable value; JSON form in the package docstring).

    Tiles are indices ``row * size + col``; ``-1`` stands for "none" in the
    integer fields. ``blockers`` has one entry per tile (a :class:`Blocker` or
    ``None``) and ``blocked`` is the mask of the tiles that hold one. A bag is a
    sorted tuple of ``(colour, value)`` pairs. Types and bounds are declared; what depends on the
    parameters (seats, tiles, the blockers of each bag) is :func:`check_position`'s.
    """

    size: int = field(default=5, min=3, max=9, json=False)              # tiles on a side (the game's board)
    phase: str = field(default="start", choices=PHASES)
    #: the seat whose turn it is (-1 during the roll-off)
    mover: int = field(default=0, min=-1, max=3, json="to_move", null=-1, read=_seat)
    turn: int = field(default=0, min=0, max=100_000)                     # turns played, all players together
    pawns: tuple[int, ...] = field(default=(), min=0, max=_TILE, read=_tiles, write=_tiles_json)  # per seat: its tile
    #: per tile: a Blocker, or None (JSON: by tile name)
    blockers: tuple[Blocker | None, ...] = field(default=(), read=_read_blockers, write=_write_blockers)
    blocked: int = field(default=0, min=0, json=False)                   # mask of the tiles holding a blocker
    bags: tuple[tuple[Token, ...], ...] = field(default=(), min=0, max=MAX_VALUE)   # per seat, sorted
    held: Token | None = field(default=None, min=0, max=MAX_VALUE)       # the blocker drawn and not yet placed
    die: int = field(default=-1, min=-1, max=MAX_VALUE, null=-1)         # the die's last result (-1: not rolled yet)
    steps: int = field(default=0, min=0, max=MAX_VALUE)                  # move: steps left; null: pushes left
    #: this turn's tiles of the pawn moved, start first
    path: tuple[int, ...] = field(default=(), min=0, max=_TILE, read=_tiles, write=_tiles_json)
    #: the tile challenged this turn (-1: none)
    challenged: int = field(default=-1, min=-1, max=_TILE, null=-1, read=_tile, write=_tile_json)
    challenges: int = field(default=0, min=0, max=4)                     # challenges made this turn
    pushed: int = field(default=-1, min=-1, max=3, null=-1)              # null: the seat whose pawn is moved (-1: none yet)
    #: rounds of (seat, value)s
    rolloff: tuple[tuple[Token, ...], ...] = field(default=((),), min=0, max=MAX_VALUE,
                                                   read=lambda value, where, game: value if value != [] else [[]])
    removed: tuple[Token, ...] = field(default=(), min=0, max=MAX_VALUE)   # blockers out of the game, sorted
    #: the previous turn, for the board's mark: (seat of the pawn moved, its path, the tile placed on or -1)
    last: tuple[int, tuple[int, ...], int] | None = field(default=None, min=-1, max=_TILE, read=_read_last,
                                                          write=_write_last)
    winner: int = field(default=-1, min=-1, max=3, null=-1)
    reason: str = ""

    def blocker_on(self, tile: int) -> Blocker:
        """The blocker on ``tile``, a tile the rules know holds one (the one challenged, ...)."""
        found = self.blockers[tile]
        assert found is not None, f"no blocker on tile {tile}"
        return found


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


def own_blockers(game: CornerRush, blockers: Sequence[Blocker | None], held: Token | None,
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
