"""A stable integer encoding of a game's actions, for libraries that number actions (OpenSpiel,
PettingZoo's action masks). It knows no library: :mod:`playtest.interop` reads it.

A kit action is a small frozen dataclass; a numbering library wants ``0..n-1``. The encoding is
derived, in this order, from:

1. the declared ``action_types`` (their order fixes the order of the kinds);
2. a game's own list of every action, when it writes ``action_space()`` (optional, duck-typed:
   ``def action_space(self) -> list[Action]`` for these parameters); otherwise
3. the actions met in the candidates/legal listings of seeded random games (:func:`explore`):
   for each kind, each field's *domain* (whole numbers: every value from the least to the
   greatest met; true/false: both; a fixed-length tuple of whole numbers: each entry's range;
   anything else: the values met, sorted), and the kind's actions numbered in mixed radix over
   those domains, so ``Place(3, 4)`` gets an id even when random play only met ``Place(2, 4)``
   and ``Place(3, 5)``. A kind whose domains would give more than :data:`RADIX_LIMIT` ids is
   numbered by the actions met instead (sorted).

The result depends only on the game's rules, its parameters and the exploration's seed and
size, never on the order things were met: the same parameters give the same numbers in every
run. An action the exploration never met and no domain covers gets the next free id of the
*spare* range (``capacity - size`` ids) when it is first encoded: stable within a process, and
recorded by :meth:`ActionEncoding.to_json` (a table you can save and pass back to pin them).

>>> import playtest
>>> game = playtest.load("tic_tac_toe")
>>> enc = ActionEncoding.for_game(game)
>>> enc.size, enc.encode(game.legal_actions(game.initial_state())[4]), enc.decode(8)
(9, 4, Mark(cell=8))
>>> ActionEncoding.from_json(game, enc.to_json()).encode(game.action_types[0](7))
7
"""

from __future__ import annotations

import dataclasses
import json
import operator
import random
from dataclasses import dataclass, field
from itertools import compress
from typing import Any, Iterable, Sequence, cast

from ..geometry import bits, select
from .outcome import CHANCE, SIMULTANEOUS, UncountedChance, draw_outcome

__all__ = ["ActionEncoding", "Exploration", "explore", "RADIX_LIMIT"]

#: the most ids one kind may take in mixed radix before it is numbered by the actions met
RADIX_LIMIT = 50_000
#: the most action objects :meth:`ActionEncoding.ids` remembers by identity (a game that lists
#: the same objects again, as Source does, is then numbered without reading their fields)
IDENTITY_LIMIT = 1 << 15
#: after how many actions not known by identity (and more of them than known ones) a game is taken
#: to list fresh objects every time and :meth:`ActionEncoding.ids` stops asking by identity. Counted
#: per action, not per listing: a game whose listings are its prebuilt objects (Then There Was One's
#: wall turn, two hundred of them met a few at a time) keeps the identity path
IDENTITY_MISSES = 4096
#: the most action tables :meth:`ActionEncoding.select_ids` remembers the ids of (then it starts again)
RUN_TABLES = 4096
#: :meth:`ActionEncoding.select_ids` reads a mask with at most this many bits bit by bit, a denser one in C
SPARSE_RUN = 6
#: the most masks of one table :meth:`ActionEncoding.select_ids` remembers the sorted ids of
SORTED_MASKS = 64
#: :meth:`ActionEncoding.select_ids` picks the sorted ids of a dense selection of a table of at least this many
#: actions through the table's ids in id order (see ``_id_order``), and sorts a smaller one's as selected
ID_ORDER_FROM = 64
# a mask's binary digits, lowest bit first, as one byte a bit (0 or 1): select_ids's flags
_FLAGS = bytes.maketrans(b"01", b"\x00\x01")


@dataclass
class Exploration:
    """What seeded random games of a game met: its actions, its chance steps and its shape."""

    actions: set[Any] = field(default_factory=set)        # player actions met in legal listings
    chance: set[Any] = field(default_factory=set)         # chance outcomes met in listed chance steps
    uncounted_chance: bool = False                        # a chance step too large to list was met
    chance_steps: bool = False
    simultaneous: bool = False                            # a SIMULTANEOUS step was met
    one_part_orders: bool = True                          # every order there was one action
    most_outcomes: int = 0                                # the longest chance listing met
    longest: int = 0                                      # the longest game, in actions
    games: int = 0
    truncated: int = 0                                    # games cut at ``max_steps``
    returns: set[tuple[float, ...]] = field(default_factory=set)   # the returns of the games that ended
    # the listings of the seat to act (the lowest pending seat at a simultaneous step) that held
    # actions of more than one kind: how many, and how many actions they held (for staged decisions)
    mixed_listings: int = 0
    mixed_actions: int = 0


def explore(game: Any, games: int = 20, seed: int = 0, max_steps: int = 20_000) -> Exploration:
    """Play ``games`` seeded random games of ``game`` and note what they met.

    At simultaneous steps every pending seat's listing is read, and whether each of its
    actions completes its order at once (one-part orders, like Goofspiel's bids) or is one
    part of an order built part by part (Secret Bid's bid, stake, submit).

    >>> import playtest
    >>> found = explore(playtest.load("goofspiel", cards=4), games=3)
    >>> found.simultaneous, found.one_part_orders, len(found.actions), found.longest
    (True, True, 8, 9)
    """
    rng = random.Random(seed)
    found = Exploration()
    for _ in range(games):
        state = game.initial_state()
        steps = 0
        while steps < max_steps:
            mover = game.to_move(state)
            if mover is None:
                break
            if mover == CHANCE:
                found.chance_steps = True
                outcomes = game.chance_outcomes(state)
                if isinstance(outcomes, UncountedChance):
                    found.uncounted_chance = True
                    action = outcomes.sample(rng)
                else:
                    found.chance.update(a for a, _ in outcomes)
                    found.most_outcomes = max(found.most_outcomes, len(outcomes))
                    action = draw_outcome(outcomes, rng)
            elif mover == SIMULTANEOUS:
                found.simultaneous = True
                pending = set(game.pending_seats(state))
                listed = []
                for seat in range(len(game.seats())):
                    mine = game.legal_actions(state, seat)
                    found.actions.update(mine)
                    if pending and seat == min(pending):
                        _note_kinds(found, mine)
                    listed += mine
                    if found.one_part_orders:
                        if seat not in pending and mine:
                            found.one_part_orders = False
                        for action in mine:
                            after = game.apply(state, action)
                            if game.to_move(after) == SIMULTANEOUS and seat in game.pending_seats(after):
                                found.one_part_orders = False
                                break
                action = rng.choice(listed)
            else:
                listed = game.legal_actions(state)
                found.actions.update(listed)
                _note_kinds(found, listed)
                action = rng.choice(listed)
            state = game.apply(state, action)
            steps += 1
        found.truncated += steps >= max_steps
        if steps < max_steps:
            found.returns.add(tuple(game.returns(state)))
        found.longest = max(found.longest, steps)
        found.games += 1
    return found


def _note_kinds(found: Exploration, listed: list[Any]) -> None:
    """Count ``listed`` in ``found.mixed_*`` when it holds actions of more than one kind."""
    if len({type(a) for a in listed}) > 1:
        found.mixed_listings += 1
        found.mixed_actions += len(listed)


# --------------------------------------------------------------------------- domains

def _order(value: Any) -> tuple[str, str]:
    return (type(value).__name__, repr(value))


def _domain(values: list[Any]) -> list[Any]:
    """The values a field may take, from those met (see the module docstring)."""
    present = [v for v in values if v is not None]
    none = [None] if len(present) < len(values) else []
    if present and all(type(v) is bool for v in present):
        return none + [False, True]
    if present and all(type(v) is int for v in present):
        return none + list(range(min(present), max(present) + 1))
    return none + sorted(set(present), key=_order)


class _Kind:
    """How one action kind is numbered: mixed radix over field domains, or a table."""

    def __init__(self, cls: type, met: list[Any]):
        self.cls = cls
        self.names = [f.name for f in dataclasses.fields(cls)] if dataclasses.is_dataclass(cls) else []
        self.table: list[Any] | None = None
        self.domains: list[list[Any]] = []
        self.split: list[int | None] = []         # per field: a tuple's length when numbered entry by entry
        if not self.names:
            self.size = 1                         # a kind without fields is one action
            return
        if not met:
            self.size = 0
            self.table = []
            return
        size = 1
        for name in self.names:
            values = [getattr(a, name) for a in met]
            lengths = {len(v) for v in values if isinstance(v, tuple)}
            if (len(lengths) == 1 and all(isinstance(v, tuple) for v in values) and next(iter(lengths)) <= 4
                    and all(type(x) is int for v in values for x in v)):
                width = next(iter(lengths))
                self.split.append(width)
                for i in range(width):
                    domain = _domain([v[i] for v in values])
                    self.domains.append(domain)
                    size *= len(domain)
            else:
                self.split.append(None)
                domain = _domain(values)
                self.domains.append(domain)
                size *= len(domain)
        if size > RADIX_LIMIT:
            self.table = sorted(set(met), key=lambda a: json.dumps(a.to_json(), sort_keys=True))
            self.size = len(self.table)
            self.index = {a: i for i, a in enumerate(self.table)}
        else:
            self.size = size
            self.lookup = [{_key(v): i for i, v in enumerate(d)} for d in self.domains]

    def encode(self, action: Any) -> int | None:
        if not self.names:
            return 0
        if self.table is not None:
            return self.index.get(action) if self.table else None
        code = 0
        parts: list[Any] = []
        for name, width in zip(self.names, self.split):
            value = getattr(action, name)
            if width is None:
                parts.append(value)
            elif isinstance(value, tuple) and len(value) == width:
                parts.extend(value)
            else:
                return None
        for value, domain, lookup in zip(parts, self.domains, self.lookup):
            index = lookup.get(_key(value))
            if index is None:
                return None
            code = code * len(domain) + index
        return code

    def decode(self, code: int) -> Any:
        if not self.names:
            return self.cls()
        if self.table is not None:
            return self.table[code]
        parts = []
        for domain in reversed(self.domains):
            code, index = divmod(code, len(domain))
            parts.append(domain[index])
        parts.reverse()
        values, at = [], 0
        for width in self.split:
            if width is None:
                values.append(parts[at])
                at += 1
            else:
                values.append(tuple(parts[at:at + width]))
                at += width
        return self.cls(*values)


def _no_fields(action: Any) -> tuple[()]:
    return ()


def _key(value: Any) -> Any:
    return (type(value), value)       # True is not 1 here


class ActionEncoding:
    """Actions of one game (fixed parameters) numbered ``0..capacity-1``; see the module docstring.

    ``encode(action)`` and ``decode(id)`` are inverse; ``size`` ids come from the declaration and
    the exploration, ``capacity - size`` more are spare for actions met later.
    """

    _CACHE: dict[tuple[str, int, str, int, int], "ActionEncoding"] = {}

    def __init__(self, game: Any, actions: Iterable[Any], spare: int | None = None,
                 types: Sequence[type] | None = None):
        self.game_name = game.name
        self.types = tuple(types if types is not None else game.action_types)
        met: dict[str, list[Any]] = {t.kind: [] for t in self.types}
        for action in set(actions):
            kind = getattr(action, "kind", None)
            if kind in met and isinstance(action, self.types):
                met[kind].append(action)
        self.kinds = [_Kind(t, met[t.kind]) for t in self.types]
        self.offsets: list[int] = []
        total = 0
        for kind in self.kinds:
            self.offsets.append(total)
            total += kind.size
        self.size = total
        self.capacity = total + (spare if spare is not None else max(16, total // 4))
        self.extra: list[Any] = []
        self._ids: dict[Any, int] = {}
        self._actions: dict[int, Any] = {}
        self._by_type = {t: i for i, t in enumerate(self.types)}
        # per action class: (its compared fields as one value, {that value: id}) for :meth:`ids`
        self._tables: dict[type, tuple[Any, dict[Any, int]]] = {}
        # id(action) -> its id, for the action objects met (kept alive); None once it rarely helps
        self._identity: dict[int, int] | None = {}
        self._kept: list[Any] = []
        self._listings = [0, 0]                   # actions listed that were known by identity, and not
        # id(table) -> [the table, kept alive; the ids of its actions, None until first selected;
        # {mask: the ids it selects, sorted}, once asked for]: select_ids
        self._runs: dict[int, list[Any]] = {}

    @classmethod
    def for_game(cls, game: Any, games: int = 20, seed: int = 0, chance: bool = False,
                 found: Exploration | None = None) -> "ActionEncoding":
        """The encoding of ``game``'s player actions (or, with ``chance``, its listed chance
        outcomes), cached per game and parameters: ``action_space()`` when the game writes it,
        else :func:`explore` with ``games`` seeded games (or what ``found`` already met)."""
        key = (game.name + (":chance" if chance else ""), id(type(game)),
               json.dumps(game.params.to_json(), sort_keys=True), games, seed)
        cached = cls._CACHE.get(key)
        if cached is not None:
            return cached
        space = getattr(game, "action_space", None)
        if callable(space) and not chance:
            made = cls(game, list(space()), spare=0)
        else:
            found = found if found is not None else explore(game, games=games, seed=seed)
            made = cls(game, found.chance if chance else found.actions)
        cls._CACHE[key] = made
        return made

    def encode(self, action: Any) -> int:
        """The id of ``action``; an action met for the first time takes the next spare id.
        ``ValueError`` when it is not an action of this game or the spare ids are used up."""
        code = self._ids.get(action)
        if code is not None:
            return code
        index = self._by_type.get(type(action))
        if index is None:
            raise ValueError(f"{self.game_name}: {str(action)[:80]!r} is not one of its actions")
        inner = self.kinds[index].encode(action)
        if inner is None:
            if action in self.extra:
                code = self.size + self.extra.index(action)
            elif self.size + len(self.extra) < self.capacity:
                self.extra.append(action)
                code = self.size + len(self.extra) - 1
            else:
                raise ValueError(f"{self.game_name}: the action {str(action)[:80]!r} has no id: the "
                                 f"encoding's {self.capacity - self.size} spare ids are used up (explore more games)")
        else:
            code = self.offsets[index] + inner
        self._ids[action] = code
        self._actions[code] = action
        self._remember(action, code)
        return code

    def _remember(self, action: Any, code: int) -> None:
        cls = type(action)
        entry = self._tables.get(cls)
        if entry is None:
            if not dataclasses.is_dataclass(cls):
                return
            names = [f.name for f in dataclasses.fields(cls) if f.compare]
            entry = self._tables[cls] = (operator.attrgetter(*names) if names else _no_fields, {})
        entry[1].setdefault(entry[0](action), code)

    def ids(self, actions: Iterable[Any]) -> list[int]:
        """``[encode(a) for a in actions]``, fast for actions met before: an action object met
        before by its identity (the first :data:`IDENTITY_LIMIT` objects are remembered, and kept
        alive so that their identities name no other object), else by its class and field values
        (read in C) rather than through the action's own hash and equality, which a dataclass
        computes in Python: what a numbering library pays at every step.

        >>> import playtest
        >>> game = playtest.load("tic_tac_toe")
        >>> enc = ActionEncoding.for_game(game)
        >>> enc.ids(game.legal_actions(game.initial_state()))[:4]
        [0, 1, 2, 3]
        """
        actions = actions if isinstance(actions, list) else list(actions)
        identity = self._identity
        found: list[Any] = []
        if identity is not None:             # games that list the same objects again (Source)
            try:                              # every object known (the usual listing): looked up in C
                found = list(map(identity.__getitem__, map(id, actions)))
            except KeyError:
                found = list(map(identity.get, map(id, actions)))
            else:
                self._listings[0] += len(found)
                return found
            counts = self._listings
            unknown = found.count(None)
            counts[0] += len(found) - unknown
            counts[1] += unknown
            if counts[1] > IDENTITY_MISSES and counts[1] > counts[0]:   # fresh objects every time: stop asking
                identity = self._identity = None
                self._kept = []
        tables = self._tables
        out: list[Any] = []
        append = out.append
        last: Any = None
        getter: Any = _no_fields
        get: Any = {}.get
        for action in actions:
            cls = type(action)
            if cls is not last:
                last = cls
                entry = tables.get(cls)
                getter, get = (entry[0], entry[1].get) if entry is not None else (_no_fields, {}.get)
            append(get(getter(action)))
        if None in out:
            out = [self.encode(a) if c is None else c for a, c in zip(actions, out)]
        if identity is not None and len(identity) < IDENTITY_LIMIT:
            kept = self._kept
            for action, known, code in zip(actions, found, out):
                if known is None:
                    identity[id(action)] = code
                    kept.append(action)         # alive while remembered: its id names no other object
        return out

    def sorted_ids(self, actions: Iterable[Any]) -> list[int]:
        """``sorted(ids(actions))``, in one pass for a listing of objects met before.

        >>> import playtest
        >>> game = playtest.load("tic_tac_toe")
        >>> enc = ActionEncoding.for_game(game)
        >>> enc.sorted_ids(reversed(game.legal_actions(game.initial_state())))[:4]
        [0, 1, 2, 3]
        """
        identity = self._identity
        if identity is not None and isinstance(actions, list):
            try:
                found = sorted(map(identity.__getitem__, map(id, actions)))
            except KeyError:
                pass
            else:
                self._listings[0] += len(found)
                return found
        found = self.ids(actions)
        found.sort()
        return found

    def select_ids(self, table: Sequence[Any], mask: int, ordered: bool = False) -> list[int] | None:
        """``ids(select(table, mask))``: the ids of the actions of ``table`` at the set bits of
        ``mask``, lowest bit first, for a game that keeps one prebuilt action per edge or cell and
        lists its legal ones as bit masks (a game's ``legal_runs``, see
        :mod:`playtest.interop.core`). The ids of a table are remembered (by its identity, the table
        kept alive meanwhile), so a listing makes no action object and reads no field. A table may
        grow (a game's actions by slot, made as longer rings need them), never change what it holds.

        ``ordered``: sorted instead, and (a mask of more than :data:`SPARSE_RUN` bits) remembered
        by the mask, the last :data:`SORTED_MASKS` masks of each table: a game that selects the same actions again (a whole listing it
        keeps, a ring's gaps) has them numbered at once.

        ``None`` when a selected action has no id yet and would take a spare one: spare ids go
        in the order actions are first met, which is the listing's order, not the table's (so
        the caller lists that position the usual way, and the numbers stay the ones it gives).

        >>> import playtest
        >>> game = playtest.load("tic_tac_toe")
        >>> enc = ActionEncoding.for_game(game)
        >>> table = game.legal_actions(game.initial_state())
        >>> enc.select_ids(table, 0b100010010), enc.select_ids(table, 0b100010010) == enc.ids([table[1], table[4], table[8]])
        ([1, 4, 8], True)
        >>> enc.select_ids([game.action_types[0](9)], 1) is None     # no cell 9: it would take a spare id
        True
        """
        entry = self._runs.get(id(table))
        if entry is None or entry[0] is not table:
            if len(self._runs) >= RUN_TABLES:
                self._runs.clear()
            entry = self._runs[id(table)] = [table, [None] * len(table), {}, None]
        codes = entry[1]
        if len(codes) != len(table):         # a table that grew (a game's tables by slot, for longer rings)
            codes += [None] * (len(table) - len(codes))
        sparse = mask.bit_count() <= SPARSE_RUN
        if ordered and not sparse:
            known = entry[2].get(mask)
            if known is not None:
                return list(known)
            in_order = entry[3]
            if in_order is None or in_order[0] != len(table):
                in_order = self._id_order(entry)
            if in_order[1] is not None and 0 <= mask and mask.bit_length() <= len(table) and not mask & in_order[2]:
                # a large table: the mask's selection over the sorted ids, byte by byte, picks them sorted
                per_byte = in_order[3]
                over_sorted = sum(map(operator.getitem, per_byte, mask.to_bytes(len(per_byte), "little")))
                got = list(compress(in_order[1], bin(over_sorted)[:1:-1].encode().translate(_FLAGS)))
                if len(entry[2]) >= SORTED_MASKS:
                    entry[2].clear()
                entry[2][mask] = tuple(got)
                return got
        if sparse:      # a few bits (a token's steps): read one by one (and not remembered: sorted at once)
            got = []
            rest = mask
            while rest:
                low = rest & -rest
                got.append(codes[low.bit_length() - 1])
                rest ^= low
        else:
            got = select(codes, mask)
        if None in got:
            for i in bits(mask):
                if codes[i] is None:
                    action = table[i]
                    code = self._ids.get(action)
                    if code is None:
                        index = self._by_type.get(type(action))
                        if index is None or self.kinds[index].encode(action) is None:
                            return None
                        code = self.encode(action)
                    codes[i] = code
            got = select(codes, mask)
        if ordered:
            got.sort()
            if sparse:
                return got
            if len(entry[2]) >= SORTED_MASKS:
                entry[2].clear()
            entry[2][mask] = tuple(got)
        return got

    def _id_order(self, entry: list[Any]) -> tuple[Any, ...]:
        """A :meth:`select_ids` table's ids in id order, for its ordered selections of a large
        table: ``(length, ids sorted, unknown, per byte)``. ``per byte[c][v]`` is the mask, over the
        sorted ids, of the table's actions that byte value ``v`` at byte ``c`` of a selection's
        mask selects (its bits ``8c`` to ``8c + 7``): adding them up for a mask's bytes gives its
        selection over the sorted ids, whose set bits then pick the ids sorted without sorting them.
        ``unknown`` is the mask of the actions that have no id (they would take spare ones, in
        listing order: a selection of one of them is not read this way, see :meth:`select_ids`).
        ``(length, None)`` for a table of fewer than :data:`ID_ORDER_FROM` actions (sorted as
        selected). Made once per table and length (a table may grow)."""
        table, codes = entry[0], entry[1]
        if len(table) < ID_ORDER_FROM:
            entry[3] = (len(table), None)
            return cast("tuple[Any, ...]", entry[3])
        unknown = 0
        for i, code in enumerate(codes):
            if code is None:
                action = table[i]
                code = self._ids.get(action)
                if code is None:
                    index = self._by_type.get(type(action))
                    if index is None or self.kinds[index].encode(action) is None:
                        unknown |= 1 << i
                        continue
                    code = self.encode(action)
                codes[i] = code
        order = sorted((i for i in range(len(codes)) if not unknown >> i & 1), key=codes.__getitem__)
        rank = {at: r for r, at in enumerate(order)}
        per_byte: list[list[int]] = []
        for c in range(0, len(table), 8):
            one = [1 << rank[at] if at in rank else 0 for at in range(c, c + 8)]
            values = [0] * 256
            for v in range(1, 256):
                low = v & -v
                values[v] = values[v ^ low] | one[low.bit_length() - 1]
            per_byte.append(values)
        entry[3] = (len(table), [codes[i] for i in order], unknown, per_byte)
        return cast("tuple[Any, ...]", entry[3])

    def decode(self, code: int) -> Any:
        """The action numbered ``code``; ``ValueError`` for a number no action has."""
        action = self._actions.get(code)
        if action is not None:
            return action
        if type(code) is not int and not hasattr(code, "__index__"):
            raise ValueError(f"{self.game_name}: an action id is a whole number, not {type(code).__name__}")
        code = int(code)
        if 0 <= code < self.size:
            at = max(i for i, o in enumerate(self.offsets) if o <= code and self.kinds[i].size)
            action = self.kinds[at].decode(code - self.offsets[at])
        elif self.size <= code < self.size + len(self.extra):
            action = self.extra[code - self.size]
        else:
            raise ValueError(f"{self.game_name}: no action has the id {code} (ids run from 0 to "
                             f"{self.size + len(self.extra) - 1})")
        self._actions[code] = action
        if self._ids.setdefault(action, code) == code:
            self._remember(action, code)
        return action

    def to_json(self) -> dict[str, Any]:
        """The encoding's spare ids in use, to pin them: ``{"game", "size", "capacity", "extra"}``."""
        return {"game": self.game_name, "size": self.size, "capacity": self.capacity,
                "extra": [a.to_json() for a in self.extra]}

    @classmethod
    def from_json(cls, game: Any, data: Any, games: int = 20, seed: int = 0) -> "ActionEncoding":
        """The encoding of ``game`` with the spare ids of ``data`` (from :meth:`to_json`) pinned."""
        if not isinstance(data, dict) or data.get("game") != game.name or not isinstance(data.get("extra"), list):
            raise ValueError(f"not an action encoding of {game.name}")
        base = cls.for_game(game, games=games, seed=seed)
        made = cls.__new__(cls)
        made.__dict__.update(base.__dict__)
        made.extra, made._ids, made._actions, made._tables = [], {}, {}, {}
        made._identity, made._kept, made._listings, made._runs = {}, [], [0, 0], {}
        for item in data["extra"][: made.capacity - made.size]:
            made.encode(game.action_from_json(item))
        return made
