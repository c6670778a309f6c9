"""Numbering runs of legal actions: a staged kind's legal actions listed by bit masks over a table
(``(table, mask)`` runs, a game's ``legal_runs``), turned into the sorted ids a numbering library
offers, remembered by table and mask, and numbered from the last dense run of a table where only a
few bits changed (see :func:`_run_ids`). Used by :class:`playtest.interop.core.KitPlay`.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from typing import Any

from ..geometry import select

__all__: list[str] = []


def one_live_run(runs: Any) -> tuple[Any, int] | None:
    """The one run of ``runs`` whose mask selects something; ``None`` when none does or several do.

    >>> one_live_run([("a", 0), ("b", 6), ("c", 0)]), one_live_run([("a", 1), ("b", 6)])
    (('b', 6), None)
    """
    live = None
    for run in runs or ():
        if run[1]:
            if live is not None:
                return None
            live = run
    return live

#: the most runs (a table and a mask) whose sorted ids a shape remembers (then it starts again; see :func:`_run_ids`)
RUN_MEMO = 1 << 13
#: a dense run (more bits than this) whose mask differs in at most this many bits from the last dense
#: run of its table is numbered from that run's ids (see :func:`_run_ids`)
NEAR_BITS = 24


class _Run:
    """Staged, listed by bit masks: the legal actions of one kind as ``(table, mask)`` runs."""

    __slots__ = ("parts", "count")

    def __init__(self, parts: list[tuple[Any, int]], count: int) -> None:
        self.parts = parts
        self.count = count

    def actions(self) -> list[Any]:
        if self.count == 1:                 # (one action: its table's entry at the one bit)
            table, mask = self.parts[0]
            if 0 < mask.bit_length() <= len(table):
                return [table[mask.bit_length() - 1]]
        out: list[Any] = []
        for table, mask in self.parts:
            out += select(table, mask)
        return out


def _run_ids(memo: dict[tuple[int, int], tuple[Any, tuple[int, ...]]], select_ids: Any,
             runs: list[tuple[Any, int]], near: dict[int, Any] | None = None) -> list[int] | None:
    """The sorted ids of the actions that ``runs`` select (``None``: one would take a spare id).

    Each run's sorted ids are remembered in ``memo`` (a shape's :attr:`KitShape.run_memo`) by its
    table's identity and its mask, the table kept alive meanwhile (so its identity names no other
    object): a table never changes what it holds (it may grow) and an action's id never changes,
    so a run met again (a listing the game keeps, a ring's gaps, a token's few steps) is numbered
    by one look-up. The runs' ids are joined as they come, and sorted only when a run's first id
    is below the one before it (runs of kinds in the encoding's order are not).

    ``near`` (a shape's :attr:`KitShape.run_near`) keeps the last dense run numbered of each
    table: a dense run not met before whose mask differs from that one's in at most
    :data:`NEAR_BITS` bits (a wall turn's walls to build, one fewer after each wall) is numbered
    from its ids (:func:`_near_ids`) instead of selecting a few hundred anew."""
    got: list[int] | None = None
    ordered = True
    for table, mask in runs:
        if mask:
            key = (id(table), mask)
            hit = memo.get(key)
            if hit is None or hit[0] is not table:
                part = None
                dense = near is not None and mask.bit_count() > NEAR_BITS
                if dense:
                    last = near.get(id(table))        # type: ignore[union-attr]
                    if (last is not None and last[0] is table and len(last[3]) == len(table)
                            and (last[1] ^ mask).bit_count() <= NEAR_BITS):
                        part = _near_ids(select_ids, table, last[3], last[1], last[2], mask)
                if part is None:
                    part = select_ids(table, mask, True)
                    if part is None:
                        return None
                if len(memo) >= RUN_MEMO:
                    memo.clear()
                    if near is not None:
                        near.clear()
                hit = memo[key] = (table, tuple(part))
                if dense:
                    _keep_near(near, select_ids, table, mask, hit[1])       # type: ignore[arg-type]
            if got is None:
                got = list(hit[1])
            else:
                if hit[1][0] < got[-1]:
                    ordered = False
                got += hit[1]
    if got is None:
        return []
    if not ordered:
        got.sort()
    return got


def _keep_near(near: dict[int, Any], select_ids: Any, table: Any, mask: int, ids: tuple[int, ...]) -> None:
    """Remember ``(table, mask, ids, codes)`` as the last dense run of ``table``: ``codes`` the ids
    of the table's actions by their place in it, ``None`` where not asked yet."""
    last = near.get(id(table))
    if last is not None and last[0] is table and len(last[3]) == len(table):
        codes = last[3]
    else:
        codes = [None] * len(table)
    near[id(table)] = (table, mask, ids, codes)


def _near_ids(select_ids: Any, table: Any, codes: list[int | None], before: int, ids: tuple[int, ...],
              mask: int) -> list[int] | None:
    """The sorted ids of ``table``'s actions at ``mask``'s bits from ``ids``, those at ``before``'s:
    the ids of the bits ``mask`` lacks taken out, those of the bits it adds put in, in order
    (``codes``: the ids of the table's actions by their place in it, filled in as they are asked
    for; ``None``: an added action would take a spare id).

    >>> from playtest.kernel.encoding import ActionEncoding
    >>> import playtest
    >>> game = playtest.load("tic_tac_toe")
    >>> enc = ActionEncoding.for_game(game)
    >>> table = game.legal_actions(game.initial_state())
    >>> _near_ids(enc.select_ids, table, [None] * 9, 0b000010011, (0, 1, 4), 0b100010010)
    [1, 4, 8]
    """
    got = list(ids)
    for rest, put in ((before & ~mask, False), (mask & ~before, True)):
        while rest:
            low = rest & -rest
            at = low.bit_length() - 1
            code = codes[at]
            if code is None:
                one = select_ids(table, low)
                if one is None:
                    return None
                code = codes[at] = one[0]
            if put:
                insort(got, code)
            else:
                del got[bisect_left(got, code)]
            rest ^= low
    return got
