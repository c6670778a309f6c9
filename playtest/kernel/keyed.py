"""Fields whose JSON form is an object keyed by name: one entry per seat, board or colour.

A position often holds a tuple with one entry per seat (in seat order) that its hand-writable
JSON form writes as an object by seat name, ``{"North": ..., "South": ...}``. :class:`ByName`
is the pair of converters for such a field (``field(read=..., write=...)``): it reads the object
into a list in name order (what the declared tuple type then checks) and writes the tuple back
as the object, with messages naming the path (``hands.North``) and refusing a name that is no
seat's.

>>> from playtest.kernel import State, field
>>> seats = ByName(("North", "South"))
>>> class Table(State):
...     hands: tuple[int, ...] = field((0, 0), min=0, max=13, read=seats.read, write=seats.write)
>>> Table(hands=(3, 5)).to_json()
{'hands': {'North': 3, 'South': 5}}
>>> Table.from_json({"hands": {"South": 2, "North": 1}}).hands
(1, 2)
>>> Table.from_json({"hands": {"North": 1}})
Traceback (most recent call last):
...
ValueError: Table.hands.South is missing (every seat is named: North, South)
>>> Table.from_json({"hands": {"North": 1, "South": 2, "East": 3}})
Traceback (most recent call last):
...
ValueError: Table.hands: 'East' is not a seat; the seats are North, South
>>> Table.from_json({"hands": {"North": 1, "South": 20}})
Traceback (most recent call last):
...
ValueError: Table.hands.South must be a whole number from 0 to 13, not 20

The names may depend on the game (``names`` is then a function, given the reading context
— the game, when a game reads a position — or the state being written); a name left out may
read as a value (``missing=``); entries may be converted one by one (``item_read`` and
``item_write``, another :class:`ByName` for an object by seat of objects by board); and
``omit=`` leaves entries out of the JSON (:func:`blank`: the empty ones):

>>> boards = ByName(("Once", "Twice"), noun="board", missing=0, omit=blank)
>>> by_seat = ByName(lambda source: ("North", "South"), missing={}, omit=blank,
...                  item_read=boards.read, item_write=boards.write)
>>> class Flags(State):
...     flags: tuple[tuple[int, ...], ...] = field(((0, 0), (0, 0)), min=0, read=by_seat.read,
...                                                write=by_seat.write)
>>> Flags(flags=((0, 2), (0, 0))).to_json()
{'flags': {'North': {'Twice': 2}}}
>>> Flags.from_json({"flags": {"South": {"Once": 1}}}).flags
((0, 0), (1, 0))
>>> Flags.from_json({"flags": {"South": {"Thrice": 1}}})
Traceback (most recent call last):
...
ValueError: Flags.flags.South: 'Thrice' is not a board; the boards are Once, Twice
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from .values import MAX_ITEMS, shown

__all__ = ["ByName", "blank", "REQUIRED"]


class _Required:
    """The ``missing`` of a :class:`ByName` that refuses a name left out."""

    def __repr__(self) -> str:
        return "REQUIRED"


#: ``ByName(missing=REQUIRED)`` (the default): every name must be given
REQUIRED: Any = _Required()

Reader = Callable[[Any, str, Any], Any]
Writer = Callable[[Any, Any], Any]


def blank(value: Any) -> bool:
    """True for an entry with nothing in it: ``None``, ``False``, ``0``, ``""``, an empty tuple or
    list, or a tuple or list of blank entries (an entry :class:`ByName` may leave out).

    >>> blank(((), (0, 0))), blank(((), (0, 1))), blank(None)
    (True, False, True)
    """
    if isinstance(value, (tuple, list)):
        return all(blank(v) for v in value)
    return value is None or (isinstance(value, (bool, int, float, str)) and not value)


class ByName:
    """Converters between a tuple with one entry per name and a JSON object by name (module docstring).

    ``names``: the names in order, or a function of the reading context or the written state that
    gives them. ``noun`` names what they are in messages (``seat``, ``board``, ``colour``), ``what``
    what each entry holds (said when the value is not an object). ``missing``: the value (JSON form)
    a name left out reads as, or a function of the context that gives it; :data:`REQUIRED` refuses
    it. ``item_read(value, where, context)`` and ``item_write(value, state)`` convert one entry;
    ``omit(entry)`` true leaves the entry out of the JSON (so ``missing`` should read it back).
    """

    __slots__ = ("names", "noun", "what", "missing", "item_read", "item_write", "omit")

    def __init__(self, names: Sequence[str] | Callable[[Any], Sequence[str]], *, noun: str = "seat",
                 what: str = "", missing: Any = REQUIRED, item_read: Reader | None = None,
                 item_write: Writer | None = None, omit: Callable[[Any], bool] | None = None):
        self.names = names
        self.noun, self.what, self.missing = noun, what, missing
        self.item_read, self.item_write, self.omit = item_read, item_write, omit

    def names_of(self, source: Any) -> Sequence[str]:
        """The names, for ``source`` (the reading context or the state being written)."""
        return self.names(source) if callable(self.names) else self.names

    def index(self, name: Any, where: str, context: Any) -> int:
        """The index of ``name``, refused (naming ``where``) when it is none of the names.

        >>> ByName(("Once", "Twice"), noun="board").index("Thrice", "garnet", None)
        Traceback (most recent call last):
        ...
        ValueError: garnet: 'Thrice' is not a board; the boards are Once, Twice
        """
        names = self.names_of(context)
        if not isinstance(name, str) or name not in names:
            raise ValueError(f"{where}: {shown(name)} is not a {self.noun}; the {self.noun}s are {', '.join(names)}")
        return list(names).index(name)

    def read(self, value: Any, where: str, context: Any) -> list[Any]:
        """The object ``value`` as a list in name order (a ``read`` converter of :func:`field`)."""
        names = self.names_of(context)
        if not isinstance(value, dict):
            what = f": {self.what}" if self.what else ""
            raise ValueError(f"{where} must be an object by {self.noun} name ({', '.join(names)}){what}, "
                             f"not {shown(value)}")
        if len(value) > MAX_ITEMS:
            raise ValueError(f"{where}: an object of more than {MAX_ITEMS:,} entries is not allowed")
        for key in value:
            self.index(key, where, context)
        out = []
        for name in names:
            at = f"{where}.{name}"
            if name in value:
                item = value[name]
            elif self.missing is REQUIRED:
                raise ValueError(f"{at} is missing (every {self.noun} is named: {', '.join(names)})")
            else:
                item = _json(self.missing(context) if callable(self.missing) else self.missing)
            out.append(self.item_read(item, at, context) if self.item_read is not None else item)
        return out

    def rename(self, text: str, where: str, context: Any) -> str:
        """A message about entry ``where[i]`` (the tuple read) as one about ``where.<name i>``.

        >>> ByName(("North", "South")).rename("hands[1][0] must be ...", "hands", None)
        'hands.South[0] must be ...'
        """
        names, start = self.names_of(context), len(where) + 1
        close = text.find("]", start)
        if not text.startswith(where + "[") or close < 0 or not text[start:close].isdigit() \
                or int(text[start:close]) >= len(names):
            return text
        named = f"{where}.{names[int(text[start:close])]}"
        text = named + text[close + 1:]
        inner = getattr(self.item_read, "__self__", None)
        return inner.rename(text, named, context) if isinstance(inner, ByName) else text

    def write(self, value: Sequence[Any], state: Any) -> dict[str, Any]:
        """The tuple ``value`` as an object by name (a ``write`` converter of :func:`field`)."""
        names = self.names_of(state)
        out = {}
        for name, item in zip(names, value):
            if self.omit is not None and self.omit(item):
                continue
            out[name] = self.item_write(item, state) if self.item_write is not None else _json(item)
        return out


def _json(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    to_json = getattr(value, "to_json", None)
    return to_json() if callable(to_json) else value
