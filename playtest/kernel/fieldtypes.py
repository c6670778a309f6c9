"""The types a declared field may have, read once from its annotation: how a value of it is
checked when it comes from JSON (exact types: ``true`` is not the whole number 1), written to
JSON, and named in a message.

Supported: ``int``, ``float``, ``bool``, ``str``, ``X | None``, ``tuple[X, ...]``,
``tuple[X, Y]``, a bare ``tuple`` (any JSON values), ``Literal[...]``, a nested declared
:class:`playtest.State` record, a game's ``Params`` and ``dict[str, X]`` (a JSON object keyed by
data, for a position's JSON form: a state holding one is not hashable).

>>> spec = field_type(tuple[int, ...])
>>> spec.read([1, 2], "cells")
(1, 2)
>>> spec.read([1, True], "cells")
Traceback (most recent call last):
...
ValueError: cells[1] must be a whole number, not True
>>> field_type(int | None).words
'a whole number or null'
"""

from __future__ import annotations

import dataclasses
import math
import sys
import types
import typing
from typing import Any, Callable

from .values import MAX_ITEMS, MAX_TEXT, from_json_value, shown, to_json_value

__all__ = ["FieldType", "field_type", "type_hints", "DeclarationError", "MAX_WHOLE"]


class DeclarationError(TypeError):
    """A game, state or action declaration that cannot work; the message names the class and field."""


DeclarationError.__module__ = "playtest"


class FieldType:
    """How one declared type is read from JSON and written back."""

    __slots__ = ("words", "read", "write", "python", "plain")

    def __init__(self, words: str, read: Callable[[Any, str], Any], write: Callable[[Any], Any],
                 python: Any, plain: bool = True):
        self.words = words
        self.read = read          # (json value, where) -> python value, or ValueError naming where
        self.write = write        # python value -> json value
        self.python = python      # the annotation it came from
        self.plain = plain        # True: a JSON scalar or a tuple of them (written by to_json_value)

    def __repr__(self) -> str:
        return f"FieldType({self.words!r})"


#: the largest whole number read from JSON (a browser's numbers are exact to 2**53), unless a field
#: declares a larger ``max`` (a bit mask of a large board's cells)
MAX_WHOLE = 10 ** 15


def _scalar(kind: type, words: str, limit: int = MAX_WHOLE) -> FieldType:
    def read(value: Any, where: str) -> Any:
        if type(value) is not kind:
            if kind is float and type(value) is int:
                return float(value)
            raise ValueError(f"{where} must be {words}, not {shown(value)}")
        if isinstance(value, str) and len(value) > MAX_TEXT:
            raise ValueError(f"{where}: a text of more than {MAX_TEXT:,} characters is not allowed")
        if isinstance(value, int) and abs(value) > limit:
            raise ValueError(f"{where}: {str(value)[:20]}... is too large a number")
        if isinstance(value, float) and not math.isfinite(value):   # (no JSON number: its session file could not be read)
            raise ValueError(f"{where} must be {words}, not {value}")
        return value
    return FieldType(words, read, _identity, kind)


def _identity(value: Any) -> Any:
    return value


def _not_list(value: Any) -> str:
    """A value that is no JSON list, in words: a Python tuple is said to be one (shown as a list, as
    JSON writes it, "must be a list, not [0, 0]" would contradict itself)."""
    if isinstance(value, tuple):
        return f"a tuple {shown(value)} (the JSON form writes a list: list(...))"
    return shown(value)


_SCALARS = {int: "a whole number", bool: "true or false", str: "text", float: "a number"}


def own_annotations(cls: type) -> dict[str, Any]:
    """The annotations written in ``cls`` itself (not its bases), unevaluated where they are text.

    Python 3.14 evaluates annotations lazily (PEP 649): a class without ``from __future__ import
    annotations`` keeps an ``__annotate__`` function instead of ``__annotations__`` in its namespace
    (Pyodide's Python in the browser is 3.14), so they are asked for through ``annotationlib``.
    """
    own = cls.__dict__.get("__annotations__")
    if own is not None:
        return dict(own)
    if sys.version_info >= (3, 14) and ("__annotate_func__" in cls.__dict__ or "__annotate__" in cls.__dict__):
        import annotationlib
        try:              # the values, as the class body wrote them
            return dict(annotationlib.get_annotations(cls, format=annotationlib.Format.VALUE))
        except Exception:  # noqa: BLE001 (a name not defined yet: the text, read like a future import's)
            return dict(annotationlib.get_annotations(cls, format=annotationlib.Format.STRING))
    return {}


def type_hints(cls: type) -> dict[str, Any]:
    """The resolved annotations of ``cls`` itself (not its bases), ClassVars left out."""
    module = sys.modules.get(cls.__module__)
    globalns = dict(vars(module)) if module is not None else {}
    own = own_annotations(cls)
    out: dict[str, Any] = {}
    for name, annotation in own.items():
        if isinstance(annotation, str):
            if "ClassVar" in annotation:
                continue
            try:
                annotation = eval(annotation, globalns, {**vars(typing), cls.__name__: cls,
                                                         **dict(vars(cls))})  # noqa: S307 (a class's own annotation)
            except Exception as exc:
                raise DeclarationError(f"{cls.__name__}.{name}: its type {annotation!r} cannot be read "
                                       f"({type(exc).__name__}: {exc})") from None
        if typing.get_origin(annotation) is typing.ClassVar or annotation is typing.ClassVar:
            continue
        out[name] = annotation
    return out


def field_type(annotation: Any, where: str = "field", limit: int = MAX_WHOLE) -> FieldType:
    """The :class:`FieldType` of an annotation; :class:`DeclarationError` for one no field may have.

    ``limit``: the largest whole number it reads (:data:`MAX_WHOLE` unless a field declares more)."""
    if annotation in _SCALARS:
        return _scalar(annotation, _SCALARS[annotation], limit)
    if annotation is tuple:
        def read_any(value: Any, at: str) -> Any:
            if not isinstance(value, list):
                raise ValueError(f"{at} must be a list, not {shown(value)}")
            return from_json_value(value, at)
        return FieldType("a list", read_any, to_json_value, tuple)
    if annotation is type(None) or annotation is None:
        def read_none(value: Any, at: str) -> Any:
            if value is not None:
                raise ValueError(f"{at} must be null, not {shown(value)}")
            return None
        return FieldType("null", read_none, _identity, type(None))
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        options = [field_type(a, where, limit) for a in args]
        words = " or ".join(o.words for o in options)
        nullable = [o for o in options if o.python is type(None)]
        others = [o for o in options if o.python is not type(None)]

        def read_union(value: Any, at: str) -> Any:
            if value is None and nullable:
                return None
            if len(others) == 1 and not (others[0].plain and not isinstance(value, (list, dict))):
                return others[0].read(value, at)      # one shape to be: its own message, naming the part
            problems = []
            for option in others:
                try:
                    return option.read(value, at)
                except ValueError as exc:
                    problems.append(exc)
            if len(problems) == 1:
                raise ValueError(f"{at} must be {words}, not {shown(value)}")
            raise ValueError(f"{at} must be {words}, not {shown(value)}")

        def write_union(value: Any) -> Any:
            if value is None:
                return None
            for option in others:
                kind = typing.get_origin(option.python) or option.python
                if option.plain or (isinstance(kind, type) and isinstance(value, kind)):
                    return option.write(value)
            return to_json_value(value)
        return FieldType(words, read_union, write_union, annotation, all(o.plain for o in options))
    if origin is dict:
        if len(args) != 2 or args[0] is not str:
            raise DeclarationError(f"{where}: a mapping field is dict[str, X] (JSON objects have text keys)")
        value_type = field_type(args[1], where, limit)
        mapping_words = f"an object of {_plural(value_type.words)}"

        def read_mapping(value: Any, at: str) -> Any:
            if not isinstance(value, dict):
                raise ValueError(f"{at} must be {mapping_words}, not {shown(value)}")
            if len(value) > MAX_ITEMS:
                raise ValueError(f"{at}: an object of more than {MAX_ITEMS:,} entries is not allowed")
            out = {}
            for key, item in value.items():
                if not isinstance(key, str) or len(key) > MAX_TEXT:
                    raise ValueError(f"{at} has a key that is not a text of at most {MAX_TEXT:,} characters: "
                                     f"{shown(key)}")
                out[key] = value_type.read(item, f"{at}.{key}")
            return out

        def write_mapping(value: Any) -> Any:
            return {key: value_type.write(item) for key, item in value.items()}
        return FieldType(mapping_words, read_mapping, write_mapping, annotation, False)
    if origin is typing.Literal:
        choices = args

        def read_literal(value: Any, at: str) -> Any:
            if not any(type(value) is type(c) and value == c for c in choices):
                raise ValueError(f"{at} must be one of {', '.join(map(repr, choices))}, not {shown(value)}")
            return value
        return FieldType("one of " + ", ".join(map(repr, choices)), read_literal, _identity, annotation)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = field_type(args[0], where, limit)

            def read_many(value: Any, at: str) -> Any:
                if not isinstance(value, list):
                    raise ValueError(f"{at} must be a list of {_plural(item.words)}, not {_not_list(value)}")
                if len(value) > MAX_ITEMS:
                    raise ValueError(f"{at}: a list of more than {MAX_ITEMS:,} values is not allowed")
                return tuple(item.read(v, f"{at}[{i}]") for i, v in enumerate(value))

            if item.plain:
                write_many: Callable[[Any], Any] = to_json_value
            else:
                def write_many(value: Any) -> Any:
                    return [item.write(v) for v in value]
            return FieldType(f"a list of {_plural(item.words)}", read_many, write_many, annotation, item.plain)
        parts = [field_type(a, where, limit) for a in args]

        fixed_words = f"a list of {len(parts)} value{'s' * (len(parts) != 1)}"
        one = (" (tuple[X] holds exactly one value: write tuple[X, ...] for a tuple of any length)"
               if len(parts) == 1 else "")

        def read_fixed(value: Any, at: str) -> Any:
            if not isinstance(value, list) or len(value) != len(parts):
                raise ValueError(f"{at} must be {fixed_words}, not {_not_list(value)}{one}")
            return tuple(p.read(v, f"{at}[{i}]") for i, (p, v) in enumerate(zip(parts, value)))

        def write_fixed(value: Any) -> Any:
            if len(value) != len(parts):       # written whole, so reading it back names the mistake
                return to_json_value(value)
            return [p.write(v) for p, v in zip(parts, value)]
        return FieldType(fixed_words, read_fixed, write_fixed, annotation,
                         all(p.plain for p in parts))
    record = getattr(annotation, "_playtest_record", None)
    if record is not None:
        made: FieldType = record(annotation)
        return made
    raise DeclarationError(f"{where}: {getattr(annotation, '__name__', annotation)!s} is not a type a declared "
                           f"field may have (use int, float, bool, str, X | None, tuple[X, ...], "
                           f"Literal[...] or a declared State)")


def _plural(words: str) -> str:
    for one, many in (("a whole number", "whole numbers"), ("true or false", "true/false values"),
                      ("text", "texts"), ("a number", "numbers")):
        words = words.replace(one, many)
    return words


_SET_ATTRIBUTE = object.__setattr__


def fast_init(cls: type, redo: bool = False) -> None:
    """Give the frozen dataclass ``cls`` (a declared state or action, just made one) an ``__init__``
    that hands the new value its fields' dictionary whole, in the declared order, instead of the
    dataclass's field-by-field ``object.__setattr__``: the same parameters (positional or by
    name, the same defaults), the same ``__post_init__`` call, the same value, at about half the
    cost (positions and actions are made at every step of every game, search and lab run).

    (Called only for a class whose body writes no ``__init__`` of its own; with ``redo``, for a class
    remade with ``__slots__`` by ``@dataclass(slots=True)``, whose copied ``__init__`` is one made
    here: its values have no dictionary, so it sets the fields one by one, as the dataclass's does.)
    Left as the dataclass made it when a field is one this does not copy (keyword-only, not in ``__init__``, a default factory, a name it would shadow).
    """
    if redo and not getattr(cls.__dict__.get("__init__"), "_playtest_fast", False):
        return
    fields = dataclasses.fields(cls)
    names = [f.name for f in fields]
    if any(not f.init or f.kw_only or f.default_factory is not dataclasses.MISSING
           or not f.name.isidentifier() or f.name.startswith("_playtest_") or f.name == "self" for f in fields):
        return
    defaults = {f"_playtest_default_{f.name}": f.default for f in fields if f.default is not dataclasses.MISSING}
    params = ", ".join(n if f"_playtest_default_{n}" not in defaults else f"{n}=_playtest_default_{n}" for n in names)
    if any("__slots__" not in k.__dict__ for k in cls.__mro__ if k is not object):     # its values have a __dict__
        body = "_playtest_set(self, '__dict__', {" + ", ".join(f"{n!r}: {n}" for n in names) + "})"
    else:
        body = "\n    ".join(f"_playtest_set(self, {n!r}, {n})" for n in names) or "pass"
    if hasattr(cls, "__post_init__"):
        body += "\n    self.__post_init__()"
    source = f"def __init__(self{', ' if params else ''}{params}):\n    {body}\n"
    space: dict[str, Any] = {"_playtest_set": _SET_ATTRIBUTE, **defaults}
    exec(source, space)             # noqa: S102 (the class's own field names, checked identifiers above)
    made = space["__init__"]
    made.__qualname__ = f"{cls.__qualname__}.__init__"
    made.__module__ = cls.__module__
    made.__doc__ = getattr(cls.__dict__.get("__init__"), "__doc__", None)
    made._playtest_fast = True  # (marks it: fast_init(cls, redo=True) remakes only its own)
    cls.__init__ = made  # type: ignore[misc]


def make_frozen(cls: type) -> None:
    """Make the declared state or action class ``cls`` a frozen dataclass, with :func:`fast_init`'s
    ``__init__`` unless its body writes one of its own. Its immutability is then its base's
    ``__setattr__`` and ``__delattr__`` (``State``'s or ``Action``'s, with their words): the
    dataclass's own are removed, so a later ``@dataclass(frozen=True)`` on the same class (the
    older way of declaring) does not find a ``__setattr__`` of its own and refuse."""
    own_init = "__init__" in cls.__dict__
    dataclasses.dataclass(frozen=True)(cls)
    if not own_init:
        fast_init(cls)
    del cls.__setattr__, cls.__delattr__
