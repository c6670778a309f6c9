"""Resolving one board's round: the walls (B.1 §9), then the three movement phases tick by tick (B.1 §10).

Pure functions on one board's bits: no state objects, no widgets. The game
(``rules.py``) calls them for each board when the last order is submitted;
the view replays their logs as the playback's frames, the bots call them to
try orders out. Nothing here depends on the order in which seats submitted:
submissions are read per seat and every result is sorted by cell.

>>> from .boards import board_tables
>>> from .params import BackToTheWallParams
>>> p = BackToTheWallParams()
>>> twice = board_tables(p, 1)
>>> d5, e5 = twice.index((3, 4)), twice.index((4, 4))
>>> placed, verdicts = resolve_walls(twice, twice.preplaced, 0, {0: (d5,), 1: (e5,)}, p, 1,
...                                  ("North", "East", "South", "West"))
>>> placed, [v.text for v in verdicts]
(0, ["rejected: orthogonally adjacent to East's wall e5 on Twice", "rejected: orthogonally adjacent to North's wall d5 on Twice"])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Iterable, NamedTuple, Sequence

from ...geometry import bits
from .boards import BoardTables
from .params import TOWARD_CORNER, BackToTheWallParams

__all__ = ["Verdict", "Move", "Tick", "Phase", "resolve_walls", "move_pieces", "corner_text"]


class Verdict(NamedTuple):
    """What became of one submitted wall cell: who submitted it, whether it was placed, and why not."""

    cell: int
    seats: tuple[int, ...]  # every seat that submitted it, lowest first
    placed: bool
    text: str             # "placed", or "void: ..." / "rejected: ..." in words


class Move(NamedTuple):
    """One piece in one phase: where it starts, the direction it was given (-1: none), the one it took
    (-1: it stays) and the cells it slides through."""

    seat: int
    piece: int
    start: int
    intended: int
    taken: int
    path: tuple[int, ...]


class Tick(NamedTuple):
    """One tick of a phase: every piece's cell after it, the cells captured ((cell, seat)), the cells
    entered but not captured (pieces of several players on them), and each seat's cells after it."""

    positions: tuple[tuple[int, ...], ...]   # per seat: the cells of its pieces
    captured: tuple[tuple[int, int], ...]
    contested: tuple[int, ...]
    owned: tuple[int, ...]


@dataclass
class Phase:
    """One movement phase on one board."""

    moves: list[Move] = field(default_factory=list)
    ticks: list[Tick] = field(default_factory=list)


def names_text(names: Sequence[str], seats: Iterable[int]) -> str:
    """``North``, ``North and East``, ``North, East and South``."""
    words = [names[s] for s in seats]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def corner_text(t: BoardTables, corner: int, names: Sequence[str]) -> str:
    """A corner in words: ``a1, North's corner``."""
    position = t.corners.index(corner)
    seat = t.seat_at_corner[position]
    return f"{t.label(corner)}, {names[seat]}'s corner" if seat >= 0 else f"{t.label(corner)}, an empty corner"


# --------------------------------------------------------------------------- walls

def resolve_walls(t: BoardTables, walls: int, pieces: int, submissions: dict[int, Iterable[int]],
                  p: BackToTheWallParams, board: int, names: Sequence[str],
                  piece_owners: dict[int, list[int]] | None = None) -> tuple[int, list[Verdict]]:
    """The walls of one board's round: the new wall cells (a mask) and a :class:`Verdict` per submitted cell.

    ``walls`` are the standing walls, ``pieces`` the cells pieces stand on (a
    mask), ``submissions`` each seat's wall cells. The rules (B.1 §9): void
    submissions are dropped first; a cell submitted by several seats is one wall
    credited to all (``duplicate_wall``); the adjacency rule voids every
    submission that touches another (``adjacency_rules``, ``adjacency_scope``);
    the corner rule removes the new walls that would cut a corner off
    (``corner_rule``, ``corner_violation_resolution``, ``wall_rule_order``);
    with ``forbid_piece_enclosure`` no piece may be walled in on every side.
    """
    board_name = p.board_names[board]
    by_cell: dict[int, list[int]] = {}
    for seat in sorted(submissions):
        for cell in submissions[seat]:
            seats = by_cell.setdefault(cell, [])
            if seat not in seats:
                seats.append(seat)
    if not by_cell:
        return 0, []
    reasons: dict[int, list[str]] = {cell: [] for cell in by_cell}
    candidates = []
    for cell in sorted(by_cell):
        if walls >> cell & 1:
            reasons[cell].append("void: already a wall")
        elif t.corner_mask >> cell & 1:
            reasons[cell].append("void: walls never go on a corner")
        elif pieces >> cell & 1:
            reasons[cell].append("void: a piece stands there")
        elif p.duplicate_wall == "void" and len(by_cell[cell]) > 1:
            reasons[cell].append(f"void: submitted by {names_text(names, by_cell[cell])} (duplicate_wall)")
        else:
            candidates.append(cell)
    pool_mask = sum(1 << c for c in candidates)

    # the adjacency rule, on the raw (non-void) submissions (B.1 §9.2)
    rule = p.adjacency_rules[board]
    adjacent_void = 0
    if rule != "none":
        table = t.adj8 if rule == "king" else t.adj4
        for cell in candidates:
            parts = []
            for other in bits(table[cell] & pool_mask):
                how = "orthogonally" if t.adj4[cell] >> other & 1 else "diagonally"
                owners = names_text(names, by_cell[other])
                parts.append(f"{how} adjacent to {owners}'s wall {t.label(other)}")
            if p.adjacency_scope == "submissions_and_walls":
                for other in bits(table[cell] & walls):
                    how = "orthogonally" if t.adj4[cell] >> other & 1 else "diagonally"
                    parts.append(f"{how} adjacent to the standing wall {t.label(other)}")
            if parts:
                adjacent_void |= 1 << cell
                reasons[cell].append("rejected: " + "; ".join(parts) + f" on {board_name}")

    # the corner rule (B.1 §9.3)
    pool = candidates if p.wall_rule_order == "independent_on_submissions" else \
        [c for c in candidates if not adjacent_void >> c & 1]
    removed = _corner_removals(t, walls, pool, p, by_cell)
    if removed:
        cut = t.cut_off(walls | sum(1 << c for c in pool), p.corner_rule)
        where = "; ".join(corner_text(t, c, names) for c in cut)
        for cell in removed:
            reasons[cell].append(f"rejected: it would cut off a corner ({where})")
    placed = pool_mask & ~adjacent_void & ~sum(1 << c for c in removed)

    # the Death Match's anti-boxing rule (B28)
    if p.forbid_piece_enclosure and placed:
        closed = walls | placed
        for cell in bits(pieces):
            around = t.adj4[cell]
            if around & ~closed == 0 and around & placed:
                who = ""
                if piece_owners and cell in piece_owners:
                    who = names_text(names, sorted(set(piece_owners[cell]))) + "'s "
                for new in bits(around & placed):
                    reasons[new].append(f"rejected: it would wall in {who}piece on {t.label(cell)} (forbid_piece_enclosure)")
                placed &= ~around
    verdicts = []
    for cell in sorted(by_cell):
        ok = bool(placed >> cell & 1)
        credited = tuple(by_cell[cell])
        if ok:
            text = "placed" if len(credited) == 1 else f"placed, credited to {names_text(names, credited)}"
        else:
            text = "; ".join(reasons[cell])
        verdicts.append(Verdict(cell, credited, ok, text))
    return placed, verdicts


def _corner_removals(t: BoardTables, walls: int, pool: list[int], p: BackToTheWallParams,
                     by_cell: dict[int, list[int]]) -> list[int]:
    """The new walls the corner rule removes (sorted), by ``corner_violation_resolution``."""
    rule = p.corner_rule
    pool_mask = sum(1 << c for c in pool)
    if not pool or t.corners_connected(walls | pool_mask, rule):
        return []
    how = p.corner_violation_resolution
    if how == "reject_all_new":
        return sorted(pool)
    if how == "reject_by_seat_priority":
        kept, removed = walls, []
        for cell in sorted(pool, key=lambda c: (min(by_cell[c]), c)):
            if t.corners_connected(kept | 1 << cell, rule):
                kept |= 1 << cell
            else:
                removed.append(cell)
        return sorted(removed)
    # the Death Match: the union of every smallest set of new walls whose removal restores the rule
    for k in range(1, len(pool) + 1):
        union = 0
        for subset in combinations(pool, k):
            mask = sum(1 << c for c in subset)
            if t.corners_connected(walls | (pool_mask & ~mask), rule):
                union |= mask
        if union:
            return list(bits(union))
    return sorted(pool)          # only possible when the standing walls already break the rule


# --------------------------------------------------------------------------- movement

def redirect(t: BoardTables, start: int, intended: int, walls: int, owned: Sequence[int], seat: int,
             p: BackToTheWallParams,
             slides: dict[int, tuple[tuple[int, ...], int]] | None = None) -> tuple[int, tuple[int, ...]]:
    """The direction a piece takes when ``intended`` has zero travel, and its slide (B.1 §10.1).

    The direction with travel that maximises ``redirect_metric`` on the
    phase-start snapshot; ties go to a perpendicular over the opposite, then to
    the perpendicular toward (``corner_tiebreak``) the seat's corner on this
    board. ``(-1, ())`` when no direction moves.
    """
    slides = slides if slides is not None else t.slides(walls)
    taken = 0
    for mask in owned:
        taken |= mask
    toward = TOWARD_CORNER[t.corner_of[seat]]
    metric = p.redirect_metric
    away = p.corner_tiebreak == "away_from_own_corner"
    best_key: tuple[int, int, bool] | None = None
    best = -1
    best_path: tuple[int, ...] = ()
    for d in range(4):
        if d == intended:
            continue
        path, mask = slides[start * 4 + d]
        if not path:
            continue
        if metric == "unowned_cells":
            value = (mask & ~taken).bit_count()
        elif metric == "not_own_cells":
            value = (mask & ~owned[seat]).bit_count()
        else:
            value = len(path)
        key = (value, (d - intended) % 2, (d in toward) != away)
        if best_key is None or key > best_key:
            best_key, best, best_path = key, d, path
    return best, best_path


def move_pieces(t: BoardTables, walls: int, owned: Sequence[int], pieces: Sequence[Sequence[int]],
                directions: Sequence[Sequence[Sequence[int]]], p: BackToTheWallParams,
                record: bool = False) -> tuple[list[int], list[list[int]], list[Phase]]:
    """Every phase of one board's movement (B.1 §10): the owners after it, the pieces' cells, and a log.

    ``owned[seat]`` is a cell mask; ``pieces[seat][k]`` a cell;
    ``directions[seat][k][i]`` the direction of piece ``k`` in phase ``i + 1``
    (-1: none, it stays). With ``record``, the log holds every phase's moves
    and every tick (what the playback shows); otherwise it is empty.
    """
    owned = list(owned)
    cells_now = [list(cells) for cells in pieces]
    seats = len(cells_now)
    phases = max((len(plan) for per in directions for plan in per), default=0)
    log: list[Phase] = []
    stopped_contest = p.stopped_pieces_contest
    same_owner = p.same_owner_contest
    neutralise = p.contested_capture == "neutralise"
    slides = t.slides(walls)
    for i in range(phases):
        # every piece's direction and slide, from the phase-start snapshot (B.1 §10.1)
        movers: list[tuple[int, int, tuple[int, ...]]] = []       # (seat, start, path) of every piece, in seat order
        phase = Phase() if record else None
        for seat in range(seats):
            for k, start in enumerate(cells_now[seat]):
                plan = directions[seat][k] if k < len(directions[seat]) else ()
                intended = plan[i] if i < len(plan) else -1
                path: tuple[int, ...]
                if intended < 0:
                    taken, path = -1, ()
                else:
                    path = slides[start * 4 + intended][0]
                    taken = intended
                    if not path:
                        taken, path = redirect(t, start, intended, walls, owned, seat, p, slides)
                movers.append((seat, start, path))
                if phase is not None:
                    phase.moves.append(Move(seat, k, start, intended, taken, tuple(path)))
        # ticks: every moving piece steps one cell; entered cells are captured unless contested (B.1 §10.2-3).
        # Per tick and seat, as cell masks: the cells its pieces enter (twice: two of its pieces at once)
        # and, from the tick after a piece stops, the cells its pieces stand on.
        length = 0
        for _, _, path in movers:
            if len(path) > length:
                length = len(path)
        enter = [[0] * seats for _ in range(length + 1)]
        twice = [[0] * seats for _ in range(length + 1)] if same_owner else None
        stops = [[0] * seats for _ in range(length + 2)]
        for seat, start, path in movers:
            if path:
                for tick, cell in enumerate(path, 1):
                    bit = 1 << cell
                    row = enter[tick]
                    if twice is not None and row[seat] & bit:
                        twice[tick][seat] |= bit
                    row[seat] |= bit
                stops[len(path) + 1][seat] |= 1 << path[-1]
            else:
                stops[0][seat] |= 1 << start
        standing = [0] * seats
        for tick in range(1, length + 1):
            entered = enter[tick]
            if stopped_contest:
                stopping = stops[tick]
                if tick == 1:
                    standing = [a | b | c for a, b, c in zip(standing, stopping, stops[0])]
                else:
                    standing = [a | b for a, b in zip(standing, stopping)]
            # a cell is contested when two seats are present on it (entering or standing)
            seen = twice_seen = 0
            for seat in range(seats):
                present = entered[seat] | standing[seat]
                twice_seen |= seen & present
                seen |= present
            captured_by = [e & ~twice_seen for e in entered]
            if twice is not None:                # two of its own pieces there also block
                doubled = twice[tick]
                captured_by = [c & ~doubled[s] & ~standing[s] for s, c in enumerate(captured_by)]
            all_captured = 0
            for mine in captured_by:
                all_captured |= mine
            if all_captured:
                owned = [(mask & ~all_captured) | mine for mask, mine in zip(owned, captured_by)]
            contested = 0
            for e in entered:
                contested |= e
            contested &= ~all_captured
            if neutralise and contested:
                owned = [mask & ~contested for mask in owned]
            if phase is not None:
                positions = _positions(movers, seats, tick)
                phase.ticks.append(Tick(positions, tuple(sorted((c, s) for s, m in enumerate(captured_by)
                                                                for c in bits(m))),
                                        tuple(bits(contested)), tuple(owned)))
        # the phase ends when every piece has stopped
        n = 0
        for seat in range(seats):
            for k in range(len(cells_now[seat])):
                path = movers[n][2]
                if path:
                    cells_now[seat][k] = path[-1]
                n += 1
        if phase is not None:
            log.append(phase)
    return owned, cells_now, log


def _positions(movers: list[tuple[int, int, tuple[int, ...]]], seats: int, tick: int) -> tuple[tuple[int, ...], ...]:
    out: list[list[int]] = [[] for _ in range(seats)]
    for seat, start, path in movers:
        out[seat].append(path[min(tick, len(path)) - 1] if path else start)
    return tuple(tuple(cells) for cells in out)
