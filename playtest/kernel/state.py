"""Declared state: a position's fields listed once, with their types, bounds and who may see them.

From the declaration come the JSON form both ways (exact types, messages naming the field),
immutable update, equality and hashing, the JSON a seat may read (everything it may not know
replaced by ``null``) and a default ``determinize`` that redraws exactly what a seat may not see.

>>> class Hand(State):
...     cards: tuple[int | None, ...] = field((None, None), visible="owner", pool="deck", min=0, max=2)
...     deck: tuple[int, ...] = field((0, 1, 2), visible="none", pool="deck")
...     pot: int = field(2, min=0)
>>> dealt = Hand(cards=(2, 0), deck=(1,), pot=2)
>>> dealt.redact(0)                        # seat 0 sees its own card, not seat 1's, nor the deck
{'cards': [2, None], 'deck': [None], 'pot': 2}
>>> dealt.replace(pot=3).pot, dealt.pot
(3, 2)
>>> Hand.from_json({"cards": [2, 7]})
Traceback (most recent call last):
...
ValueError: Hand.cards[1] must be a whole number from 0 to 2, not 7
>>> import random
>>> drawn = dealt.determinize(0, random.Random(1))
>>> drawn.cards[0], sorted([drawn.cards[1], drawn.deck[0]])      # its own card stays; 0 and 1 redrawn
(2, [0, 1])

Visibility (``visible=``): ``"all"`` (the default), ``"owner"`` (a tuple with one entry per seat,
each seen by its seat only), ``"none"`` (seen by nobody). ``revealed="flag"`` names a bool field
(or a tuple of bools, one per entry) that makes the value public once true. Hidden values in the
same ``pool`` are shuffled among themselves by ``determinize`` (cards dealt from one deck); a
hidden value in no pool is redrawn from its ``choices`` or its ``min``..``max``.
"""

from __future__ import annotations

import dataclasses
import math
import random
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterable, Sequence

if TYPE_CHECKING:
    from typing_extensions import Self, dataclass_transform
else:
    def dataclass_transform(**_: Any) -> Any:
        """(type checkers only: subclasses are frozen dataclasses, made so at class creation)"""
        return lambda cls: cls

from .fieldtypes import MAX_WHOLE, DeclarationError, FieldType, fast_init, field_type, make_frozen, type_hints
from .values import show_value, shown, to_json_value

__all__ = ["State", "field", "FieldSpec", "VISIBILITY"]

#: who may see a declared field
VISIBILITY = ("all", "owner", "none")
_MISSING: Any = dataclasses.MISSING


class FieldSpec:
    """One declared field of a :class:`State` (made by :func:`field`, or from a plain default)."""

    __slots__ = ("name", "type", "default", "min", "max", "choices", "visible", "revealed", "pool",
                 "compare", "json", "help", "key", "empty_name", "null", "reader", "writer", "omit_default",
                 "seen_by", "seen_by_seat", "owner", "words_given", "joint", "absent", "length")

    def __init__(self, default: Any = _MISSING, *, min: float | None = None, max: float | None = None,
                 choices: Iterable[Any] | None = None, visible: str = "all", revealed: str | None = None,
                 pool: str | None = None, compare: bool = True, json: bool | str = True, help: str = "",
                 null: Any = _MISSING, read: Callable[[Any, str, Any], Any] | None = None,
                 write: Callable[[Any, Any], Any] | None = None, omit_default: bool = False,
                 seen_by: str | None = None, seen_by_seat: str | None = None, words: str = "",
                 joint: Sequence[str] = (), absent: Any = _MISSING,
                 length: int | str | Callable[[Any], int] | None = None):
        self.name = ""
        self.type: FieldType | None = None
        self.default = default
        self.min, self.max = min, max
        self.choices = tuple(choices) if choices is not None else None
        self.visible, self.revealed, self.pool = visible, revealed, pool
        self.compare, self.help = compare, help
        self.json = json is not False
        self.key = json if isinstance(json, str) else ""          # the JSON name ("" until named: the field's)
        self.empty_name = json == ""
        self.null, self.reader, self.writer, self.omit_default = null, read, write, omit_default
        self.seen_by, self.seen_by_seat = seen_by, seen_by_seat
        self.owner = ""                   # the State class that declares it (for messages)
        self.words_given = words          # what a value must be, in the declaration's words ("" : derived)
        self.joint = tuple(joint)         # json=False fields its converter reads from its key too
        self.absent = absent              # the JSON value a key left out reads as (else: the default)
        self.length = length              # a tuple's entries: a number, "seats", or a function of the game

    @property
    def hidden(self) -> bool:
        """True when some seat may not see this field."""
        return self.visible != "all"

    def write_json(self, value: Any, state: Any) -> Any:
        """The field's value in the JSON form (its ``null`` sentinel as ``null``, its ``write`` converter)."""
        if self.null is not _MISSING and value == self.null and type(value) is type(self.null):
            return None
        if self.writer is not None and value is not None:       # (None is null: no converter needed)
            return self.writer(value, state)
        return self.type.write(value)  # type: ignore[union-attr]

    def read_json(self, raw: Any, where: str, context: Any) -> Any:
        """The field's value from the JSON form: its converter, then the declared type and bounds."""
        if self.null is not _MISSING:
            if raw is None:
                return self.null
            if raw == self.null and type(raw) is type(self.null):
                raise ValueError(f"{where}: none is written null, not {shown(raw)}")
        elif raw is None and self.absent_when_none:
            raise ValueError(f"{where} must be {self.words().removesuffix(' or null')} (or left out), not null")
        if self.reader is not None and (raw is not None or self._by_name()):
            raw = self.reader(raw, where, context)
        return self.typed(raw, where, context)

    def typed(self, raw: Any, where: str, context: Any = None) -> Any:
        """``raw`` (the JSON form, converted) read by the declared type and checked against the bounds."""
        assert self.type is not None
        try:
            value = self.type.read(raw, where)
        except ValueError as exc:
            text = str(exc)
            if self.words_given and text.startswith(f"{where} must be "):
                text = f"{where} must be {self.words_given}, not {shown(raw)}"
            elif " must be " in text and (self.min is not None or self.choices is not None):
                # the whole field's words, or one entry's when an entry is wrong (cells[3] must be a
                # whole number from -2 to 2, not "a list of ...")
                path, rest = text.split(" must be ", 1)
                wanted, got = rest.rsplit(", not ", 1) if ", not " in rest else (rest, shown(raw))
                text = f"{path} must be {self.words() if path == where else self._bounded(wanted)}, not {got}"
            raise ValueError(self._renamed(text, where, context)) from None
        try:
            self.check(value, where)
            self.check_length(value, where, context)
        except ValueError as exc:
            raise ValueError(self._renamed(str(exc), where, context)) from None
        return value

    def check_length(self, value: Any, where: str, context: Any = None) -> None:
        """A declared ``length``: the number of entries a tuple holds (``"seats"``: one per seat of
        the game read for; a function: of that game). Without a game to ask, only a number is checked."""
        if self.length is None or not isinstance(value, tuple):
            return
        if isinstance(self.length, int):
            wanted, why = self.length, ""
        elif context is None or not hasattr(context, "seat_count"):
            return
        elif self.length == "seats":
            wanted, why = context.seat_count(), " (one per seat)"
        else:
            wanted, why = self.length(context), ""     # type: ignore[operator]
        if len(value) != wanted:
            raise ValueError(f"{where} holds {wanted} entr{'y' if wanted == 1 else 'ies'}{why}, not {len(value)}")

    def _by_name(self) -> bool:
        """True when the field's reader is a :class:`~.keyed.ByName`'s (it says what a null should be)."""
        return callable(getattr(getattr(self.reader, "__self__", None), "rename", None))

    def _renamed(self, text: str, where: str, context: Any) -> str:
        rename = getattr(getattr(self.reader, "__self__", None), "rename", None)
        if callable(rename):       # a converter by name (keyed.ByName): entry [1] is named .South
            renamed: str = rename(text, where, context)
            return renamed
        return text

    @property
    def absent_when_none(self) -> bool:
        """True for a field left out of the JSON while it is ``None`` (``omit_default`` with the default
        ``None``): the JSON form never writes ``null`` for it, so a ``null`` read for it is refused."""
        return self.omit_default and self.default is None

    def words(self) -> str:
        """What a value must be, in words (for messages): the declaration's ``words=``, or derived
        from its type, bounds and choices."""
        assert self.type is not None
        if self.words_given:
            return self.words_given
        return self._bounded(self.type.words)

    def _bounded(self, words: str) -> str:
        """``words`` (the declared type's, or one entry's) with the declared choices or bounds."""
        if self.choices is not None:
            return "one of " + ", ".join(show_value(c) for c in self.choices)
        if self.min is not None or self.max is not None:
            span = (f"from {show_value(self.min)} to {show_value(self.max)}" if self.min is not None
                    and self.max is not None else f"of at least {show_value(self.min)}" if self.min is not None
                    else f"of at most {show_value(self.max)}")
            words = words.replace("a whole number", f"a whole number {span}", 1).replace(
                "whole numbers", f"whole numbers {span}", 1)
        return words

    def check(self, value: Any, where: str) -> None:
        """Bounds and choices, on the value and on every number inside it."""
        if self.choices is None and self.min is None and self.max is None:
            return
        for path, item in _leaves(value, where):
            if item is None:
                continue
            if self.choices is not None:
                if not any(type(item) is type(c) and item == c for c in self.choices):
                    raise ValueError(f"{path} must be {self.leaf_words(item)}, not {shown(item)}")
            elif isinstance(item, (int, float)) and not isinstance(item, bool):
                if (self.min is not None and item < self.min) or (self.max is not None and item > self.max):
                    raise ValueError(f"{path} must be {self.leaf_words(item)}, not {shown(item)}")

    def leaf_words(self, item: Any) -> str:
        """What one value inside this field must be, in words."""
        if self.choices is not None:
            return "one of " + ", ".join(show_value(c) for c in self.choices)
        noun = "a whole number" if isinstance(item, int) else "a number"
        if self.min is not None and self.max is not None:
            return f"{noun} from {show_value(self.min)} to {show_value(self.max)}"
        if self.min is not None:
            return f"{noun} of at least {show_value(self.min)}"
        return f"{noun} of at most {show_value(self.max)}"

    def redraw(self, rng: random.Random, like: Any = _MISSING) -> Any:
        """A fresh value for one hidden entry, from the declared choices or bounds, shaped ``like``
        the value it replaces: a tuple entry gets a tuple of the same length (its ``None``s, "not
        drawn yet", kept), a record entry has every field redrawn from its own declaration, a
        ``bool`` stays a ``bool``.
        """
        if isinstance(like, tuple):
            return tuple(v if v is None else self.redraw(rng, v) for v in like)
        if isinstance(like, State):
            return like._redrawn(rng)
        if self.choices is not None:
            return rng.choice(self.choices)
        if isinstance(like, bool):
            return bool(rng.randint(int(self.min), int(self.max))) if self.min is not None and \
                self.max is not None else rng.random() < 0.5
        if self.min is not None and self.max is not None:
            if isinstance(like, float):
                return rng.uniform(float(self.min), float(self.max))
            return rng.randint(int(self.min), int(self.max))
        literal = _literal_choices(self.type)
        if literal:
            return rng.choice(literal)
        raise DeclarationError(f"state {self.owner}.{self.name} is hidden but has no pool, choices or "
                               f"min..max to redraw it from (declare one, or write the game's own determinize)")

    def redraw_problem(self) -> str | None:
        """Why the default ``determinize`` could not redraw this hidden field, or ``None``.

        (Asked by ``register`` of a game that writes no ``determinize`` of its own.)
        """
        if self.pool is not None or self.choices is not None:
            return None
        return _redraw_problem(self.type.python if self.type else None, self, f"{self.owner}.{self.name}", 0)


def field(default: Any = _MISSING, *, min: float | None = None, max: float | None = None,
          choices: Iterable[Any] | None = None, visible: str = "all", revealed: str | None = None,
          pool: str | None = None, compare: bool = True, json: bool | str = True, help: str = "",
          null: Any = _MISSING, read: Callable[[Any, str, Any], Any] | None = None,
          write: Callable[[Any, Any], Any] | None = None, omit_default: bool = False,
          seen_by: str | None = None, seen_by_seat: str | None = None, words: str = "",
          joint: Sequence[str] = (), absent: Any = _MISSING,
          length: int | str | Callable[[Any], int] | None = None) -> Any:
    """Declare a field of a :class:`State` with its bounds and who may see it (module docstring).

    >>> class Dice(State):
    ...     faces: tuple[int, ...] = field((1, 1), min=1, max=6)
    >>> Dice.from_json({"faces": [3, 9]})
    Traceback (most recent call last):
    ...
    ValueError: Dice.faces[1] must be a whole number from 1 to 6, not 9

    The JSON form need not be the fields one by one: ``json="name"`` writes the field under
    another name (``json=False``: not at all), ``null=-1`` writes that sentinel as ``null`` (and
    reads ``null`` back as it), ``write(value, state)`` and ``read(value, where, context)``
    convert a value (tile names, symbols: ``read`` returns the declared form, which is then
    checked; ``context`` is what :meth:`State.from_json` is given, the game when it reads a
    position) and ``omit_default=True`` leaves the field out of the JSON while it has its default:

    >>> class Board(State):
    ...     mover: int = field(-1, min=-1, max=3, json="to_move", null=-1)
    ...     tiles: tuple[int, ...] = field((), min=0, max=8, omit_default=True,
    ...                                    write=lambda v, s: ["abcdefghi"[t] for t in v],
    ...                                    read=lambda v, at, game: ["abcdefghi".index(t) for t in v])
    >>> Board().to_json(), Board(mover=2, tiles=(0, 4)).to_json()
    ({'to_move': None}, {'to_move': 2, 'tiles': ['a', 'e']})
    >>> Board.from_json({"to_move": None, "tiles": ["c"]})
    Board(mover=-1, tiles=(2,))
    >>> Board.from_json({"mover": 1})
    Traceback (most recent call last):
    ...
    ValueError: unknown fields in a Board position: ['mover']; the fields are tiles, to_move

    ``words="..."`` says what a value must be in messages; a ``dict[str, X]`` field is empty by
    default and refuses ``null``, as does a field left out of the JSON while it is ``None``
    (``omit_default=True`` with the default ``None``). ``joint=("b", ...)`` reads fields declared
    ``json=False`` from this field's key too (``read`` returns every value, in that order, each
    checked by its own declaration; ``write`` writes the key from the state), ``absent=`` is the
    JSON value a key left out reads as (through ``read``); objects by seat or board name are
    :class:`~playtest.kernel.keyed.ByName`'s:

    >>> class Marks(State):
    ...     xs: tuple[int, ...] = field((), min=0, max=8, json="grid", joint=("os",), absent=".........",
    ...                                 read=lambda g, at, ctx: [[i for i, c in enumerate(g) if c == m] for m in "xo"],
    ...                                 write=lambda v, s: "".join("x" if i in s.xs else "o" if i in s.os else "."
    ...                                                            for i in range(9)))
    ...     os: tuple[int, ...] = field((), min=0, max=8, json=False)
    ...     winner: str | None = field(default=None, omit_default=True, words="the winner's mark, x or o")
    >>> Marks.from_json({"grid": "x..o....x"}), Marks(xs=(4,)).to_json()
    (Marks(xs=(0, 8), os=(3,), winner=None), {'grid': '....x....'})
    >>> Marks.from_json({"winner": None})
    Traceback (most recent call last):
    ...
    ValueError: Marks.winner must be the winner's mark, x or o (or left out), not null

    ``length=`` says how many entries a tuple holds: a number, ``"seats"`` (one per seat) or a
    function of the game (``lambda game: game.params.size ** 2``), checked when a position is read
    for a game (a session file's, a hand-written one) and, a number, for the default too:

    >>> class Cells(State):
    ...     cells: tuple[int, ...] = field((-1,) * 9, min=-1, max=1, length=9)
    ...     scores: tuple[int, ...] = field((0, 0), min=0, length="seats")
    >>> Cells.from_json({"cells": [-1] * 4})
    Traceback (most recent call last):
    ...
    ValueError: Cells.cells holds 9 entries, not 4

    Who may see it: ``visible`` (module docstring), widened by ``revealed``, ``seen_by`` (an int
    field, or a tuple of them one per entry, whose bit ``s`` lets seat ``s`` see the value) and
    ``seen_by_seat`` (an int field naming the one seat that sees it, the seat to move for one):

    >>> class Hidden(State):
    ...     known: tuple[int, ...] = (0, 0)
    ...     cards: tuple[int, ...] = field((0, 0), visible="none", seen_by="known", min=0, max=9)
    ...     mover: int = 0
    ...     held: int = field(0, visible="none", seen_by_seat="mover", min=0, max=9)
    >>> Hidden(known=(0b01, 0b11), cards=(4, 5), mover=1, held=7).redact(1)
    {'known': [1, 3], 'cards': [None, 5], 'mover': 1, 'held': 7}
    """
    return FieldSpec(default, min=min, max=max, choices=choices, visible=visible, revealed=revealed, pool=pool,
                     compare=compare, json=json, help=help, null=null, read=read, write=write,
                     omit_default=omit_default, seen_by=seen_by, seen_by_seat=seen_by_seat, words=words,
                     joint=joint, absent=absent, length=length)


def _is_mapping(kind: FieldType) -> bool:
    import typing
    return typing.get_origin(kind.python) is dict


def _leaves(value: Any, where: str) -> Iterable[tuple[str, Any]]:
    if isinstance(value, tuple):
        for i, item in enumerate(value):
            yield from _leaves(item, f"{where}[{i}]")
    elif isinstance(value, State):
        return
    else:
        yield where, value


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
class State:
    """Base of a declared position (see the module docstring): an immutable value.

    Subclasses list their fields with types and defaults (plain values or :func:`field`).
    """

    __slots__ = ()
    _fields: ClassVar[tuple[FieldSpec, ...]] = ()
    _names: ClassVar[frozenset[str]] = frozenset()
    _specs: ClassVar[dict[str, FieldSpec]] = {}
    _hidden: ClassVar[tuple[FieldSpec, ...]] = ()
    _plain: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "__slots__" in cls.__dict__ and "__dataclass_fields__" in cls.__dict__:
            fast_init(cls, redo=True)          # remade by @dataclass(slots=True): see fast_init
            return
        hints = type_hints(cls)
        specs: dict[str, FieldSpec] = {s.name: s for s in cls._fields}
        for name, value in list(cls.__dict__.items()):
            if name.startswith("_") or name in hints or callable(value) or isinstance(
                    value, (classmethod, staticmethod, property)):
                continue
            raise DeclarationError(f"state {cls.__name__}: field {name!r} has no type (write `{name}: int = ...`, "
                                   f"or `{name}: ClassVar[...] = ...` for a constant)")
        for name, annotation in hints.items():
            where = f"{cls.__name__}.{name}"
            declared = cls.__dict__.get(name, _MISSING)
            spec = declared if isinstance(declared, FieldSpec) else FieldSpec(declared)
            spec.name = name
            spec.owner = cls.__name__
            big = spec.max is not None and spec.max > MAX_WHOLE        # (a declared bound above the usual limit)
            spec.type = field_type(annotation, f"state {where}", int(spec.max) if big else MAX_WHOLE)  # type: ignore[arg-type]
            mapping = _is_mapping(spec.type)
            if mapping:
                if spec.default is _MISSING:
                    spec.default = {}             # a mapping field is empty by default (made fresh each time)
                elif spec.default != {} or type(spec.default) is not dict:
                    raise DeclarationError(f"state {where}: a mapping field's default is empty ({{}}, the "
                                           f"default), not {show_value(spec.default, 40)}")
            if spec.visible not in VISIBILITY:
                raise DeclarationError(f"state {where}: visible must be one of {', '.join(VISIBILITY)}, "
                                       f"not {spec.visible!r}")
            if spec.empty_name:
                raise DeclarationError(f"state {where}: json='' names nothing (json=False leaves it out)")
            if not spec.key:
                spec.key = name
            for what in ("read", "write"):
                converter = spec.reader if what == "read" else spec.writer
                if converter is not None and not callable(converter):
                    raise DeclarationError(f"state {where}: {what} must be a function, not {converter!r}")
            if (spec.reader is not None or spec.writer is not None or spec.omit_default or spec.key != name) \
                    and not spec.json:
                raise DeclarationError(f"state {where}: json=False, so it has no JSON form to name or convert")
            if spec.omit_default and spec.default is _MISSING:
                raise DeclarationError(f"state {where}: omit_default=True needs a default to leave out")
            if spec.length is not None and not (
                    (isinstance(spec.length, int) and not isinstance(spec.length, bool) and spec.length >= 0)
                    or spec.length == "seats" or callable(spec.length)):
                raise DeclarationError(f"state {where}: length is a number of entries, 'seats' or a function "
                                       f"of the game, not {spec.length!r}")
            if spec.min is not None and spec.max is not None and spec.min > spec.max:
                raise DeclarationError(f"state {where}: min {spec.min} is more than max {spec.max}")
            if any(isinstance(bound, float) and math.isnan(bound) for bound in (spec.min, spec.max)):
                raise DeclarationError(f"state {where}: a bound of nan allows every value: give a number")
            if spec.length is not None and spec.default is not _MISSING and spec.default is not None \
                    and not isinstance(spec.default, tuple):
                raise DeclarationError(f"state {where}: length= counts a tuple's entries, and this field holds "
                                       f"{type(spec.default).__name__} (its default {show_value(spec.default)})")
            if spec.default is not _MISSING:
                if isinstance(spec.default, list):
                    raise DeclarationError(f"state {where}: a default must be immutable: a tuple, not a list")
                try:
                    spec.type.read(spec.type.write(spec.default), where)
                    spec.check(spec.default, where)
                    spec.check_length(spec.default, where)
                except ValueError as exc:
                    raise DeclarationError(f"state {where}: the default {show_value(spec.default)} contradicts "
                                           f"its declaration ({exc})") from None
            if spec.visible == "owner" and not (isinstance(spec.default, tuple) or spec.default is _MISSING):
                raise DeclarationError(f"state {where}: visible='owner' needs a tuple with one entry per seat")
            specs[name] = spec
            if spec.default is _MISSING:
                if declared is not _MISSING:
                    delattr(cls, name)
            elif mapping:
                setattr(cls, name, dataclasses.field(default_factory=dict, compare=spec.compare))
            else:
                setattr(cls, name, dataclasses.field(default=spec.default, compare=spec.compare))
        keys: dict[str, str] = {}
        for spec in specs.values():
            where = f"state {cls.__name__}.{spec.name}"
            for what in ("revealed", "seen_by", "seen_by_seat"):
                named = getattr(spec, what)
                if named is not None and named not in specs:
                    raise DeclarationError(f"{where}: {what}={named!r} names no field")
            if spec.revealed is not None and spec.revealed in specs:
                flag = specs[spec.revealed].type
                python = flag.python if flag is not None else None
                import typing
                flags = typing.get_origin(python) is tuple and all(a is bool or a is Ellipsis
                                                                   for a in typing.get_args(python))
                if python is not bool and not flags:
                    raise DeclarationError(f"{where}: revealed={spec.revealed!r} must name a bool field (or a "
                                           f"tuple[bool, ...] with one flag per entry), not a field of "
                                           f"{flag.words if flag else 'no type'}")
            if (spec.seen_by or spec.seen_by_seat) and spec.visible == "all":
                raise DeclarationError(f"{where}: seen_by and seen_by_seat widen a hidden field's sight; "
                                       f"it is visible='all' (declare visible='none' or 'owner')")
            for other in spec.joint:
                if other not in specs or specs[other].json or other == spec.name:
                    raise DeclarationError(f"{where}: joint={spec.joint!r}: {other!r} must name another field "
                                           f"declared json=False (its value is read from {spec.key!r})")
            if spec.joint and (spec.reader is None or spec.writer is None):
                raise DeclarationError(f"{where}: joint=... needs read= (giving every joint field's value) and "
                                       f"write= (writing them all from the state)")
            if spec.json:
                if spec.key in keys:
                    raise DeclarationError(f"{where}: its JSON name {spec.key!r} is also field {keys[spec.key]}'s")
                keys[spec.key] = spec.name
        cls._fields = tuple(specs.values())
        cls._names = frozenset(specs)
        cls._specs = dict(specs)
        cls._hidden = tuple(s for s in cls._fields if s.hidden)
        cls._plain = all(s.key == s.name and s.null is _MISSING and s.writer is None and not s.omit_default
                         for s in cls._fields)
        make_frozen(cls)        # (immutable by State.__setattr__ below)

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}: states are values; "
                                              f"use state.replace({name}=...)")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}: states are values")

    @classmethod
    def _playtest_record(cls, annotation: Any) -> FieldType:
        record = annotation

        def read(value: Any, where: str) -> Any:
            return record.from_json(value, where=where)
        return FieldType(f"a {record.__name__} object", read, lambda v: v.to_json(), record, plain=False)

    # ------------------------------------------------------------------ values
    def replace(self, **changes: Any) -> Self:
        """A copy with ``changes`` (the old value is untouched).

        >>> class Score(State):
        ...     points: int = 0
        >>> Score().replace(points=3)
        Score(points=3)
        >>> Score().replace(point=3)
        Traceback (most recent call last):
        ...
        TypeError: Score has no field 'point'; its fields are points
        """
        cls = type(self)
        data = self.__dict__.copy()                # one copy of the fields, then the changes on it
        data.update(changes)
        if len(data) != len(cls._fields):          # a name that is no field's (checked by count: fast)
            unknown = sorted(set(changes) - cls._names)[0]
            raise TypeError(f"{cls.__name__} has no field {unknown!r}; its fields are "
                            f"{', '.join(s.name for s in cls._fields)}")
        new = _new(cls)
        _set_dict(new, "__dict__", data)           # handed over whole: no empty dictionary made and filled
        return new

    #: the name ``replace`` had when positions were named tuples (code written then calls it)
    _replace = replace

    def to_json(self) -> dict[str, Any]:
        """Every field by its JSON name (tuples as lists, converters applied): the full position,
        secrets included."""
        if self._plain:
            return {s.name: s.type.write(getattr(self, s.name)) for s in self._fields  # type: ignore[union-attr]
                    if s.json}
        data = {}
        for s in self._fields:
            if s.json:
                value = getattr(self, s.name)
                if not (s.omit_default and value == s.default):
                    data[s.key] = s.write_json(value, self)
        return data

    @classmethod
    def from_json(cls, data: Any, where: str | None = None, context: Any = None) -> Any:
        """A state from its JSON form: exact types, bounds and choices, messages naming the field.

        A field left out takes its default; an unknown field is refused. ``context`` is handed to
        the fields' ``read`` converters (the game, when it reads a position).
        """
        label = where or cls.__name__
        if not isinstance(data, dict):
            raise ValueError(f"a {label} position is an object with fields "
                             f"{', '.join(s.key for s in cls._fields if s.json)}, not {shown(data)}")
        names = {s.key for s in cls._fields if s.json}
        unknown = [k for k in data if k not in names]
        if unknown:
            shown_keys = sorted(str(k)[:40] for k in unknown)[:10]
            raise ValueError(f"unknown fields in a {label} position: {shown_keys}; the fields are "
                             f"{', '.join(sorted(names))}")
        values: dict[str, Any] = {}
        for spec in cls._fields:
            if spec.name in values:                   # read with the field whose key holds it (joint=)
                continue
            if not spec.json or (spec.key not in data and spec.absent is _MISSING):
                if spec.default is _MISSING:
                    raise ValueError(f"{label}.{spec.key} is missing: it must be {spec.words()}")
                values[spec.name] = spec.default if type(spec.default) is not dict else {}
                if spec.json and spec.length is not None:    # a default of another size than this game's
                    try:
                        spec.check_length(spec.default, f"{label}.{spec.key}", context)
                    except ValueError as exc:
                        raise ValueError(f"{label}.{spec.key} is left out, and its default does not fit this "
                                         f"game: {exc}; write it") from None
                continue
            where = f"{label}.{spec.key}"
            raw = data[spec.key] if spec.key in data else spec.absent
            if not spec.joint:
                values[spec.name] = spec.read_json(raw, where, context)
                continue
            assert spec.reader is not None
            parts = spec.reader(raw, where, context)
            for part, joined in zip(parts, (spec.name, *spec.joint)):
                values[joined] = cls._specs[joined].typed(part, where, context)
        return cls(**values)

    # ------------------------------------------------------------------ secrets
    def sees(self, spec: FieldSpec, index: int | None, viewer: int | None) -> bool:
        """Whether ``viewer`` (a seat, or ``None`` for the table) may see entry ``index`` of ``spec``."""
        if spec.visible == "all":
            return True
        if spec.revealed is not None:
            flag = getattr(self, spec.revealed)
            if isinstance(flag, tuple):
                if index is not None and index < len(flag) and flag[index]:
                    return True
            elif flag:
                return True
        if viewer is None:
            return False
        if spec.seen_by is not None:
            mask = getattr(self, spec.seen_by)
            if isinstance(mask, tuple):
                mask = mask[index] if index is not None and index < len(mask) else 0
            if mask >> viewer & 1:
                return True
        if spec.seen_by_seat is not None and getattr(self, spec.seen_by_seat) == viewer:
            return True
        return spec.visible == "owner" and index == viewer

    def redact(self, viewer: int | None) -> dict[str, Any]:
        """The JSON form as ``viewer`` may read it: what it may not know is ``null``."""
        data = self.to_json()
        for spec in self._hidden:
            if not spec.json or spec.key not in data:
                continue
            value, writer = getattr(self, spec.name), spec.writer
            if isinstance(value, tuple) and writer is None:
                data[spec.key] = [_write(v) if self.sees(spec, i, viewer) else None
                                  for i, v in enumerate(value)]
            elif isinstance(value, tuple) and writer is not None:
                data[spec.key] = writer(tuple(v if self.sees(spec, i, viewer) else None
                                              for i, v in enumerate(value)), self)
            elif not self.sees(spec, None, viewer):
                data[spec.key] = None
        return data

    def hidden_slots(self, viewer: int | None) -> list[tuple[FieldSpec, int | None]]:
        """Every (field, entry) ``viewer`` may not see, entries that are ``None`` (empty) left out."""
        slots: list[tuple[FieldSpec, int | None]] = []
        for spec in self._hidden:
            value = getattr(self, spec.name)
            if isinstance(value, tuple):
                slots += [(spec, i) for i, v in enumerate(value) if v is not None and not self.sees(spec, i, viewer)]
            elif value is not None and not self.sees(spec, None, viewer):
                slots.append((spec, None))
        return slots

    def determinize(self, viewer: int | None, rng: random.Random) -> Any:
        """A state ``viewer`` cannot tell from this one, everything it may not see redrawn with ``rng``.

        Values in one ``pool`` are shuffled among the hidden entries of that pool (sorted first,
        so the result depends only on what ``viewer`` may know); others are redrawn from their
        choices or bounds.
        """
        slots = self.hidden_slots(viewer)
        if not slots:
            return self
        values = {spec.name: list(getattr(self, spec.name)) if isinstance(getattr(self, spec.name), tuple)
                  else getattr(self, spec.name) for spec, _ in slots}
        pools: dict[str, list[tuple[FieldSpec, int | None]]] = {}
        for spec, index in slots:
            if spec.pool is not None:
                pools.setdefault(spec.pool, []).append((spec, index))
            else:
                _put(values, spec, index, spec.redraw(rng, _get(self, spec, index)))
        for members in pools.values():
            # a pool is shuffled card by card: an entry that is itself a tuple (a seat's hand of
            # several cards) gives each of its cards, and keeps its length
            cards = [(spec, index, at) for spec, index in members
                     for at in _card_places(spec, index, _get(self, spec, index))]
            drawn = sorted((_card(_get(self, spec, index), at) for spec, index, at in cards), key=_order)
            rng.shuffle(drawn)
            for (spec, index, at), value in zip(cards, drawn):
                _put(values, spec, index, value if at is None else
                     _with_card(_get_put(values, spec, index), at, value))
        return self.replace(**{name: tuple(v) if isinstance(v, list) else v for name, v in values.items()})

    def _redrawn(self, rng: random.Random) -> Any:
        """This record with every field redrawn from its own declaration (a record inside a hidden
        field: all of it is hidden from the seat)."""
        return self.replace(**{spec.name: spec.redraw(rng, getattr(self, spec.name)) for spec in self._fields
                               if getattr(self, spec.name) is not None})


_new = object.__new__
_set_dict = object.__setattr__


def _literal_choices(kind: FieldType | None) -> tuple[Any, ...]:
    import typing
    python = kind.python if kind is not None else None
    return typing.get_args(python) if typing.get_origin(python) is typing.Literal else ()


def _redraw_problem(annotation: Any, spec: FieldSpec, where: str, depth: int) -> str | None:
    """Why a value of ``annotation`` (inside hidden field ``spec``) cannot be redrawn, or ``None``."""
    import types
    import typing
    if depth > 20:
        return None
    if spec.choices is not None:
        return None
    if annotation is bool or annotation is type(None) or annotation is None:
        return None
    if annotation in (int, float):
        return None if spec.min is not None and spec.max is not None else \
            f"{where} is hidden but declares no min..max (nor choices or a pool) to redraw it from"
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Literal:
        return None
    if origin in (typing.Union, types.UnionType) or origin is tuple:
        for arg in args:
            if arg is not Ellipsis:
                problem = _redraw_problem(arg, spec, where, depth + 1)
                if problem:
                    return problem
        return None
    if isinstance(annotation, type) and issubclass(annotation, State):
        for inner in annotation._fields:
            if inner.pool is None:
                problem = _redraw_problem(inner.type.python if inner.type else None, inner,
                                          f"{where} (its record's field {inner.owner}.{inner.name})", depth + 1)
                if problem:
                    return problem
        return None
    return f"{where} is hidden but its type cannot be redrawn (declare choices or a pool, or write determinize)"




def _write(value: Any) -> Any:
    return value.to_json() if isinstance(value, State) else to_json_value(value)


def _get(state: State, spec: FieldSpec, index: int | None) -> Any:
    value = getattr(state, spec.name)
    return value if index is None else value[index]


def _put(values: dict[str, Any], spec: FieldSpec, index: int | None, value: Any) -> None:
    if index is None:
        values[spec.name] = value
    else:
        values[spec.name][index] = value


def _card_places(spec: FieldSpec, index: int | None, entry: Any) -> list[int | None]:
    """The places of a pool's cards in one hidden entry: the entry itself (``None``), or, when
    the field holds hands (``tuple[tuple[int, ...], ...]``: an entry of any length), each card
    of the hand (its ``None`` places, cards not dealt yet, left alone). A card that is itself a
    fixed tuple (``tuple[tuple[int, int], ...]``) stays one card."""
    if index is not None and isinstance(entry, tuple) and _holds_hands(spec):
        return [at for at, card in enumerate(entry) if card is not None]
    return [None]


def _holds_hands(spec: FieldSpec) -> bool:
    import types
    import typing
    outer = typing.get_args(spec.type.python if spec.type is not None else None)
    if len(outer) != 2 or outer[1] is not Ellipsis:
        return False
    entry = outer[0]
    if typing.get_origin(entry) in (typing.Union, types.UnionType):
        entry = next((a for a in typing.get_args(entry) if a is not type(None)), None)
    inner = typing.get_args(entry)
    return typing.get_origin(entry) is tuple and len(inner) == 2 and inner[1] is Ellipsis


def _card(entry: Any, at: int | None) -> Any:
    return entry if at is None else entry[at]


def _get_put(values: dict[str, Any], spec: FieldSpec, index: int | None) -> Any:
    return values[spec.name] if index is None else values[spec.name][index]


def _with_card(entry: tuple[Any, ...], at: int, card: Any) -> tuple[Any, ...]:
    return entry[:at] + (card,) + entry[at + 1:]


def _order(value: Any) -> tuple[str, str]:
    return (type(value).__name__, repr(value))


def per_seat(values: Sequence[Any], seat: int, value: Any) -> tuple[Any, ...]:
    """``values`` with seat ``seat``'s entry replaced: the update most per-seat fields need.

    >>> per_seat((0, 0, 0), 1, 5)
    (0, 5, 0)
    """
    return tuple(values[:seat]) + (value,) + tuple(values[seat + 1:])


__all__ += ["per_seat"]
