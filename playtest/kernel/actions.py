"""Actions: declared in a line or two, with their JSON form, notation and checks derived.

A subclass of :class:`Action` lists its fields with their types; it becomes a frozen dataclass,
its ``kind`` is its name in snake case (unless it sets one), ``str`` writes it
(``place 2 0``), and JSON goes both ways with exact types::

    >>> class Place(Action):
    ...     col: int
    ...     row: int
    >>> Place(2, 0).kind, str(Place(2, 0)), Place(2, 0).to_json()
    ('place', 'place 2 0', {'kind': 'place', 'col': 2, 'row': 0})
    >>> Place.from_json({"kind": "place", "col": 2, "row": True})
    Traceback (most recent call last):
    ...
    playtest.rules.MalformedAction: malformed place action: row must be a whole number, not bool

A ``notation`` template writes it another way, from its fields and class constants; a name the
template uses that is neither is refused when the class is made::

    >>> class Step(Action):
    ...     notation = "→{to}"
    ...     to: str
    >>> str(Step("b5"))
    '→b5'
    >>> class Bad(Action):
    ...     notation = "to {too}"
    ...     to: str
    Traceback (most recent call last):
    ...
    playtest.DeclarationError: action Bad: its notation 'to {too}' names 'too', which is no field or constant of it

``match`` reads naturally, since every action is a dataclass with positional fields::

    >>> match Place(1, 3):
    ...     case Place(col, row):
    ...         print(col, row)
    1 3

Classes written the older way (``@dataclass(frozen=True, slots=True)`` with a ``kind``
ClassVar) keep working unchanged.
"""

from __future__ import annotations

import dataclasses
import re
import string
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:
    def dataclass_transform(**_: Any) -> Any:
        """(type checkers only: subclasses are frozen dataclasses, made so at class creation)"""
        return lambda cls: cls

from .fieldtypes import DeclarationError, FieldType, fast_init, field_type, make_frozen, type_hints
from .refusal import MalformedAction

__all__ = ["Action", "EndTurn", "action_fields", "check_action_types", "snake_case"]


def snake_case(name: str) -> str:
    """``RemoveFortification`` -> ``remove_fortification``.

    >>> snake_case("RemoveFortification"), snake_case("EndTurn"), snake_case("_OnPoint")
    ('remove_fortification', 'end_turn', 'on_point')
    """
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name.strip("_")).lower()


@dataclass_transform(frozen_default=True)
class Action:
    """Base of every game's actions: small frozen dataclasses with a ``kind``.

    Declare the fields with their types (see the module docstring); ``str(action)`` is its
    notation (override ``__str__`` for a game's own words) and :meth:`to_json` its JSON form
    (``{"kind": ..., field: value, ...}``).
    """

    __slots__ = ()
    kind: ClassVar[str] = "action"
    #: how ``str`` writes it: a template of its fields and class constants (``"take {slot}"``);
    #: empty: the kind and the fields' values
    notation: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "kind" not in cls.__dict__:
            cls.kind = snake_case(cls.__name__)
        elif type(cls.__dict__["kind"]) is not str or not cls.__dict__["kind"]:
            raise DeclarationError(f"action {cls.__name__}: kind must be a non-empty text, "
                                   f"not {cls.__dict__['kind']!r}")
        if "__slots__" in cls.__dict__ or "__dataclass_fields__" in cls.__dict__:
            if "__dataclass_fields__" in cls.__dict__:
                fast_init(cls, redo=True)      # (an __init__ made for the class it was remade from)
            return          # made by @dataclass(..., slots=True): the older way, already a dataclass
        hints = type_hints(cls)
        if type(cls.notation) is not str:
            raise DeclarationError(f"action {cls.__name__}: notation must be a text template, not {cls.notation!r}")
        if cls.notation:
            known = set(hints) | {n for k in cls.__mro__ for n in getattr(k, "__annotations__", {})} | set(dir(cls))
            for _, name, spec, _ in string.Formatter().parse(cls.notation):
                if name is not None and name.split(".")[0].split("[")[0] not in known:
                    raise DeclarationError(f"action {cls.__name__}: its notation {cls.notation!r} names {name!r}, "
                                           f"which is no field or constant of it")
                if name and ("._" in name or "[_" in name):
                    raise DeclarationError(f"action {cls.__name__}: its notation {cls.notation!r} reads {name!r}: "
                                           f"a template writes fields, their items and public attributes only")
                if spec and any(int(width) > _WIDEST for width in re.findall(r"\d+", spec)):
                    raise DeclarationError(f"action {cls.__name__}: its notation {cls.notation!r} asks a width or "
                                           f"precision over {_WIDEST} ({spec!r}): a notation is a line of the "
                                           f"move log")
        for name, value in list(cls.__dict__.items()):
            if not name.startswith("_") and name not in hints and isinstance(value, dataclasses.Field):
                raise DeclarationError(f"action {cls.__name__}: field {name!r} has no type "
                                       f"(write `{name}: int = ...`)")
        for name, annotation in hints.items():
            field_type(annotation, f"action {cls.__name__}.{name}")
        if "kind" in hints:
            raise DeclarationError(f"action {cls.__name__}: 'kind' is the action's name, not a field "
                                   f"(write `kind: ClassVar[str] = ...` to choose it)")
        make_frozen(cls)        # (immutable by Action.__setattr__ below)

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}: actions are values")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}: actions are values")

    def __str__(self) -> str:
        if self.notation:
            return self.notation.format_map(_Attributes(self))
        values = [getattr(self, name) for name, _, _ in action_fields(type(self))]
        return " ".join([self.kind.replace("_", " ")] + [_words(v) for v in values])

    def to_json(self) -> dict[str, Any]:
        """The action as JSON-ready data, the form the board sends back."""
        data: dict[str, Any] = {"kind": self.kind}
        for name, spec in _specs(type(self)):
            data[name] = spec.write(getattr(self, name))
        return data

    @classmethod
    def from_json(cls, data: Any) -> "Action":
        """This kind of action from its JSON form; :class:`MalformedAction` names the field."""
        if not isinstance(data, dict):
            raise MalformedAction(f"malformed {cls.kind} action: expected an object, got {type(data).__name__}")
        specs = _specs(cls)
        names = [name for name, _ in specs]
        if data.get("kind") != cls.kind or len(data) != len(specs) + 1 or any(n not in data for n in names):
            missing = [n for n in names if n not in data]
            extra = [k if type(k) is str and len(k) < 40 else "..." for k in data
                     if k not in names and k != "kind"][:5]
            kind = data.get("kind")
            said = [f"its kind is {cls.kind!r}, not {str(kind)[:40]!r}" if kind != cls.kind else "",
                    f"missing {', '.join(missing)}" if missing else "",
                    f"unexpected {', '.join(repr(k) for k in extra)}" if extra else ""]
            fields_are = f"its fields are {', '.join(names)}" if names else "it has no fields"
            raise MalformedAction(f"malformed {cls.kind} action: {'; '.join(w for w in said if w)} ({fields_are})")
        values = {}
        for name, spec in specs:
            got = data[name]
            try:
                values[name] = spec.read(got, name)
            except ValueError as exc:
                text = str(exc)
                if text.startswith(f"{name} must be ") and ", not " in text:
                    text = text.rsplit(", not ", 1)[0] + f", not {type(got).__name__}"
                raise MalformedAction(f"malformed {cls.kind} action: {text}") from None
        return cls(**values)


#: the widest field (or most digits) a notation template may ask for
_WIDEST = 80


class _Attributes:
    """An action's fields and constants by name, for its notation template."""

    __slots__ = ("action",)

    def __init__(self, action: Action):
        self.action = action

    def __getitem__(self, name: str) -> Any:
        return getattr(self.action, name)


def _words(value: Any) -> str:
    if isinstance(value, tuple):
        return ",".join(_words(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "-" if value is None else str(value)


_SPECS: dict[type, tuple[tuple[str, FieldType], ...]] = {}
_FIELDS: dict[type, tuple[tuple[str, tuple[type, ...] | None, str], ...]] = {}


def _specs(cls: type) -> tuple[tuple[str, FieldType], ...]:
    """The action class's fields and how each is read and written (from the annotations)."""
    cached = _SPECS.get(cls)
    if cached is None:
        cached = _SPECS[cls] = _make_specs(cls)
    return cached


def _make_specs(cls: type) -> tuple[tuple[str, FieldType], ...]:
    out = []
    hints: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        if isinstance(klass, type) and issubclass(klass, Action) and klass is not Action:
            try:
                hints.update(type_hints(klass))
            except DeclarationError:
                pass
    for f in dataclasses.fields(cls):
        annotation = hints.get(f.name, f.type)
        try:
            spec = field_type(annotation, f"action {cls.__name__}.{f.name}")
        except DeclarationError:
            spec = field_type(tuple if "tuple" in str(annotation) else int)
        out.append((f.name, spec))
    return tuple(out)


_EXACT_TYPES: dict[str, tuple[type, ...]] = {
    "int": (int,), "bool": (bool,), "str": (str,), "tuple": (tuple,),
    "int | None": (int, type(None)), "str | None": (str, type(None))}
_WANTED = {"int": "a whole number", "bool": "true or false", "str": "text", "tuple": "a list"}


def action_fields(cls: type) -> tuple[tuple[str, tuple[type, ...] | None, str], ...]:
    """An action class's fields: ``(name, exact types allowed or None, the type in words)``."""
    cached = _FIELDS.get(cls)
    if cached is None:
        cached = _FIELDS[cls] = _make_fields(cls)
    return cached


def _make_fields(cls: type) -> tuple[tuple[str, tuple[type, ...] | None, str], ...]:
    out = []
    for f in dataclasses.fields(cls):
        declared = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
        declared = declared.replace("tuple[int, ...]", "tuple").replace("tuple[str, ...]", "tuple")
        out.append((f.name, _EXACT_TYPES.get(declared), _WANTED.get(declared.split(" |")[0], declared)))
    return tuple(out)


def check_action_types(action: Action) -> None:
    """Refuse an action whose fields are not of their declared type, exactly.

    A bool is not a whole number here: ``Place(col=True, row=0)`` would compare
    equal to ``Place(col=1, row=0)`` and then fail to reload from a file.

    >>> check_action_types(EndTurn())
    """
    kind = type(action)
    exact = _EXACT.get(kind)                    # (checked on every checked apply: one compiled test first)
    if exact is None:
        if not dataclasses.is_dataclass(action):
            return
        exact = _EXACT[kind] = _exact_test(kind)
    try:
        if exact(action):
            return
    except AttributeError:
        pass                                    # (the field-by-field reading below says which)
    fields = action_fields(kind)
    for name, allowed, wanted in fields:
        value = getattr(action, name)
        if allowed is not None and type(value) not in allowed:
            raise MalformedAction(f"malformed {action.kind} action: {name} must be {wanted}, "
                                  f"not {type(value).__name__} {str(value)[:40]}")


_EXACT: dict[type, Any] = {}


def _exact_test(cls: type) -> Any:
    """``test(action) -> bool``: whether every field of an action of ``cls`` is of its declared type,
    exactly, compiled once per class from :func:`action_fields` (a bool where a whole number is
    declared is not one); the message for one that is not comes from the field-by-field reading."""
    tests: list[str] = []
    space: dict[str, Any] = {}
    for k, (name, allowed, _) in enumerate(action_fields(cls)):
        if allowed is None or not name.isidentifier():
            continue
        if len(allowed) == 1:
            space[f"t{k}"] = allowed[0]
            tests.append(f"type(a.{name}) is t{k}")
        else:
            space[f"t{k}"] = allowed
            tests.append(f"type(a.{name}) in t{k}")
    exec(f"def test(a):\n    return {' and '.join(tests) or 'True'}\n", space)   # noqa: S102 (field names)
    return space["test"]


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """End the turn of the player to move (the one end-of-turn action every game shares).

    Turns made of several atomic actions (walls, steps, action points) end with it;
    whatever the turn had left is lost.

    >>> EndTurn().to_json(), str(EndTurn())
    ({'kind': 'end_turn'}, 'end turn')
    """

    kind: ClassVar[str] = "end_turn"

    def __str__(self) -> str:
        return "end turn"
