"""Who stands where at each turn end of a lab game: the running scores read as top seats and a leader, and
the two measures a game's row takes from them (lead changes and decisiveness, :mod:`playtest.lab.metrics`).

Kept apart from the runner (:mod:`playtest.lab._play`) as one concern: the runner reads the running scores
turn end by turn end when it steps the rules, and a game's own random playout hands them over all at once
(:class:`playtest.kernel.game.PlayoutLog`), read here in one pass.
"""

from __future__ import annotations

from typing import Any, Iterable

from .metrics import leader, top_seats

#: running scores -> (the top seats, the leader): the same scores come back turn after turn, game after game
STANDINGS: dict[Any, tuple[frozenset[int], int | None]] = {}

_NOBODY = object()

#: seat -> (the top seats, the leader) when that seat alone is ahead
_ALONE: dict[int, tuple[frozenset[int], int | None]] = {}


def standings(scores: Any) -> tuple[frozenset[int], int | None]:
    """(the top seats, the leader) of ``scores``: the same scores come back turn after turn, game after game.

    >>> standings((-3, -1, -1)), standings((0, -2))
    ((frozenset({1, 2}), None), (frozenset({0}), 0))
    """
    kept = type(scores) is tuple
    if kept:
        try:
            found = STANDINGS.get(scores)
        except TypeError:           # (a tuple holding something unhashable)
            found, kept = None, False
        if found is not None:
            return found
    standing: tuple[frozenset[int], int | None]
    if scores and isinstance(scores, (tuple, list)):    # top_seats and leader in one pass
        top = max(scores)
        if top == top and scores.count(top) == 1:       # (most readings: one seat ahead)
            seat = scores.index(top)
            standing = _ALONE.get(seat) or _ALONE.setdefault(seat, (frozenset((seat,)), seat))
        else:
            at_top = [s for s, v in enumerate(scores) if v == top]
            standing = frozenset(at_top), at_top[0] if len(at_top) == 1 else None
    else:
        standing = top_seats(scores), leader(scores)
    if kept:
        if len(STANDINGS) >= 1 << 15:      # (the same readings come back game after game: kept, most are)
            STANDINGS.clear()
        STANDINGS[scores] = standing
    return standing


def read_standings(readings: Iterable[Any], tops: list[frozenset[int]], leaders: list[int | None]) -> None:
    """Add each turn end's top seats to ``tops`` and its leader to ``leaders`` (a ``None`` reading, no
    scores at that turn end, adds nothing): how a game's row reads its running scores, turn end by turn end.

    >>> tops, leaders = [], []
    >>> read_standings([(0, -1), None, (-1, -1)], tops, leaders)
    >>> tops, leaders
    ([frozenset({0}), frozenset({0, 1})], [0, None])
    """
    last: Any = None
    top: frozenset[int] = frozenset()
    ahead: int | None = None
    for scores in readings:
        if scores is not None:
            if scores is not last and scores != last:   # unchanged scores (most turns): the same top seats and leader
                last = scores
                top, ahead = standings(scores)
            tops.append(top)
            leaders.append(ahead)


def reading_measures(readings: Iterable[Any], winners: Iterable[int], seats: int
                     ) -> tuple[int | None, float | None]:
    """(lead changes, decisiveness) of a game whose turn ends read ``readings`` (running scores, ``None`` for
    a turn end without any), in one pass: the same figures as :func:`~playtest.lab.metrics.lead_changes`
    and :func:`~playtest.lab.metrics.decisiveness` of what :func:`read_standings` reads (both ``None``
    without a reading). A reading repeated as the same object (most turn ends change no score) is
    counted, not read again.

    >>> reading_measures([(0, -1), (0, -1), (-1, 0), (-2, 0)], winners=(1,), seats=2)
    (1, 0.5)
    >>> reading_measures([None], winners=(0,), seats=2)
    (None, None)
    """
    won = set(winners)
    changes = 0
    ahead: int | None = None          # the last leader
    last: Any = _NOBODY
    counted = 0                       # the turn ends with a reading
    lead_from = -1                    # the turn end the winners' current lead began at (-1: they do not lead)
    stored = STANDINGS
    for scores in readings:
        if scores is not last:      # (a reading equal to the last one, read again, changes nothing)
            if scores is None:
                continue
            try:
                found = stored.get(scores)
            except TypeError:       # (unhashable scores)
                found = None
            top, who = found or standings(scores)
            if who is not None:
                if ahead is not None and who != ahead:
                    changes += 1
                ahead = who
            if top <= won and len(top) < seats:
                if lead_from < 0:
                    lead_from = counted
            else:
                lead_from = -1
            last = scores
        counted += 1
    if not counted:
        return None, None
    if not won:
        return changes, None
    first = counted + 1 if lead_from < 0 else lead_from + 1    # (1-based, as metrics.decisiveness counts)
    return changes, 1 - (first - 1) / counted
