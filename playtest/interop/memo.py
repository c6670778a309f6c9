"""What a play lists at a position, remembered by the position (:class:`StateMemo`), for
:class:`playtest.interop.core.KitShape` and :class:`~playtest.interop.core.KitPlay` (re-exported
by :mod:`playtest.interop.core`, where it lived before)."""

from __future__ import annotations

import dataclasses
from typing import Any

__all__ = ["StateMemo", "MEMO_SIZE", "MEMO_TRIAL"]

#: the most positions a :class:`StateMemo` holds (then it starts again)
MEMO_SIZE = 1 << 15
#: the misses after which a :class:`StateMemo` that has missed more than it has hit turns itself off
MEMO_TRIAL = 1024


class StateMemo:
    """What a play lists at a position (its legal ids, its chance outcomes), remembered by the
    position for the next play that meets it: OpenSpiel's searches and a small game's random
    games (Kuhn poker has a dozen positions) meet the same positions again and again.

    The kit's rules are a function of the position, so this is exact; it is on only for
    positions that hash, and whose type compares every field (a declared field with
    ``compare=False``, a cache of the position, could hold what a listing reads). It turns itself
    off after :data:`MEMO_TRIAL` misses when it has missed more than it has hit (a large game's
    random games rarely meet a position twice, and hashing it would be a cost for nothing), and
    it forgets everything when it holds ``size`` positions (:data:`MEMO_SIZE`). A shape keeps a
    second one for chance listings by the identities of the listed outcomes (a game that lists
    the same outcome objects again, Corner Rush's die, has them numbered once).
    """

    __slots__ = ("on", "table", "hits", "misses", "checked", "size")

    def __init__(self, size: int = 0) -> None:
        self.size = size or MEMO_SIZE
        self.on = True
        self.table: dict[Any, Any] = {}
        self.hits = self.misses = 0
        self.checked: set[type] = set()

    def get(self, key: tuple[Any, ...]) -> Any:
        try:
            got = self.table.get(key)
        except TypeError:               # a position that does not hash
            self.on = False
            return None
        if got is None:
            self.misses += 1
            if self.misses > MEMO_TRIAL and self.misses > self.hits:
                self.on, self.table = False, {}
        else:
            self.hits += 1
        return got

    def put(self, key: tuple[Any, ...], value: Any) -> None:
        cls = type(key[0])
        if cls not in self.checked:
            if dataclasses.is_dataclass(cls) and not all(f.compare for f in dataclasses.fields(cls)):
                self.on, self.table = False, {}
                return
            self.checked.add(cls)
        if len(self.table) >= self.size:
            self.table.clear()
        self.table[key] = value
