"""Rule parameters, declared once per game as a frozen dataclass whose fields are made with
:func:`param`: validation, the table's parameter panel and the README's tables all come from
that declaration. A ``Params`` subclass is a frozen dataclass whether or not it is decorated
with ``@dataclass(frozen=True)`` (the kit's games are; a notebook's need not be).

>>> class RaceParams(Params):
...     track: int = param(20, "squares from start to finish", source="seed", min=5, max=60, rule="R1")
>>> RaceParams.create(track=30).track
30
>>> RaceParams.create(track=3)
Traceback (most recent call last):
...
ValueError: game parameter track=3 is not allowed: it must be a whole number from 5 to 60

A whole-number parameter takes whole numbers only, not a float that happens to be whole:

>>> RaceParams.create(track=30.0)
Traceback (most recent call last):
...
ValueError: game parameter track=30.0 is not allowed: it must be a whole number from 5 to 60, not a float
"""

from __future__ import annotations

import dataclasses
import math
import operator
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Iterable

from .fieldtypes import DeclarationError, own_annotations
from .values import from_json_value as _from_json_value
from .values import show_value
from .values import to_json_value as _to_json_value

__all__ = ["ParamSpec", "param", "Params"]


@dataclass(frozen=True)
class ParamSpec:
    """What a game declares about one rule parameter."""

    name: str
    default: Any
    help: str
    source: str            # "seed", "public" or "assumed" (RULES.md's [T], [P], [A])
    live: bool             # True: may change mid-game; False: needs a new game
    min: float | None = None
    max: float | None = None
    choices: tuple[Any, ...] | None = None
    rule: str = ""         # the RULES.md entry it comes from, e.g. "E10"

    @property
    def kind(self) -> str:
        """``choice``, ``bool``, ``int``, ``float``, ``str`` or ``tuple``."""
        if self.choices is not None:
            return "choice"
        return type(self.default).__name__

    def allowed(self) -> str:
        """The allowed values in words, for error messages and docs."""
        if self.choices is not None:
            return "one of " + ", ".join(show_value(c) for c in self.choices)
        if isinstance(self.default, bool):
            return "true or false"
        noun = {"int": "whole number", "float": "number", "str": "text",
                "tuple": "list"}.get(self.kind, self.kind)
        lo = "" if self.min is None else show_value(self.min)
        hi = "" if self.max is None else show_value(self.max)
        if lo and hi:
            return f"a {noun} from {lo} to {hi}"
        if lo:
            return f"a {noun} of at least {lo}"
        if hi:
            return f"a {noun} of at most {hi}"
        return f"a {noun}"

    def validate(self, value: Any, game: str) -> Any:
        """``value`` converted to the declared type, or ``ValueError`` naming the rule."""
        value = _plain_number(value)
        given = value

        def problem() -> str:      # said only when refused (a game is made on every session load)
            # show_value walks at most ~80 characters' worth: a list nested 5,000 deep costs a few steps
            shown = show_value(given, 80) if not isinstance(given, dict) else type(given).__name__
            return f"{game} parameter {self.name}={shown} is not allowed: it must be {self.allowed()}"

        if isinstance(value, list):
            value = _from_json_value(value, f"{game} parameter {self.name}")
        if self.choices is not None:
            # the value as exactly one of the choices: 1 is not true, nor 2.0 the whole number 2
            same = [c for c in self.choices if c == value and _same_kind(c, value)]
            if not same:
                raise ValueError(problem())
            return same[0]
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise ValueError(problem())
            return value
        if isinstance(self.default, int):
            # a whole number exactly: not a bool, and not a float even when it is whole (5.0 is
            # refused, naming the parameter, as a session file or a widget sends ints as ints)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(problem() + (f", not a {type(value).__name__}" if isinstance(value, float) else ""))
        elif isinstance(self.default, float):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(problem())       # (NaN passes every bound, and no JSON holds it)
            value = float(value)
        elif isinstance(self.default, tuple):
            if not isinstance(value, tuple) or any(
                    type(v) is not type(self.default[0]) for v in value if self.default):
                raise ValueError(problem())
            return value
        elif not isinstance(value, type(self.default)):
            raise ValueError(problem())
        if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
            raise ValueError(problem())
        return value


def _same_kind(choice: Any, value: Any) -> bool:
    """Whether ``value`` is of the kind ``choice`` is, as JSON tells them apart: true/false, whole
    numbers, numbers, text... (``1 == True`` and ``2 == 2.0`` in Python; a choice compares by both)."""
    if isinstance(choice, bool) or isinstance(value, bool):
        return isinstance(choice, bool) and isinstance(value, bool)
    if isinstance(choice, int) and isinstance(value, float):
        return False
    return True


_KINDS = {"int": int, "float": float, "bool": bool, "str": str}


def _check_declared_kind(cls: type, name: str, spec: ParamSpec, annotation: Any) -> None:
    """Refuse, naming the parameter, a declaration whose parts contradict each other in type: a
    default of another type than the annotation (``speed: float = param(1, ...)`` would take only
    whole numbers: the default decides), a ``min``/``max`` that is no number, or bounds on a
    parameter that is no number."""
    where = f"{cls.__name__}.{name}"
    for bound in ("min", "max"):
        value = getattr(spec, bound)
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
            raise DeclarationError(f"{where}: {bound} must be a number, not {show_value(value)}")
    default = spec.default
    numeric = isinstance(default, (int, float)) and not isinstance(default, bool)
    if (spec.min is not None or spec.max is not None) and spec.choices is None and not numeric:
        raise DeclarationError(f"{where}: min and max bound a number, but the default {show_value(default)} is "
                               f"{type(default).__name__}: give a number default, or list the values with choices=")
    wanted = _KINDS.get(annotation if isinstance(annotation, str) else getattr(annotation, "__name__", ""))
    if wanted is None or spec.choices is not None or isinstance(default, wanted) and (
            wanted is not int or not isinstance(default, bool)):
        return
    hint = f" (write {float(default)!r})" if wanted is float and numeric else \
        f" (write {int(default)!r})" if wanted is int and isinstance(default, float) and default.is_integer() else ""
    raise DeclarationError(f"{where} is declared {wanted.__name__} but its default {show_value(default)} is "
                           f"{type(default).__name__}{hint}: the default decides what values it takes")


def _plain_number(value: Any) -> Any:
    """A NumPy whole number or truth value (``np.arange`` in a sweep, a cell of a pandas table) as
    Python's ``int`` or ``bool``; anything else as it is.

    >>> _plain_number(2.5), _plain_number(True)         # (tests/test_newcomer2_findings.py: NumPy's)
    (2.5, True)
    """
    if isinstance(value, (bool, int, float, str)) or type(value).__module__ != "numpy":
        return value
    if type(value).__name__ in ("bool_", "bool"):
        return bool(value)
    try:
        return operator.index(value)
    except TypeError:
        return value


def param(default: Any, help: str, *, source: str = "assumed", live: bool = True,
          min: float | None = None, max: float | None = None,
          choices: Iterable[Any] | None = None, rule: str = "") -> Any:
    """Declare a rule parameter as a field of a game's ``Params`` dataclass.

    >>> @dataclass(frozen=True)
    ... class DemoParams(Params):
    ...     move_length: int = param(6, "exact steps per turn", source="seed", min=1, max=12)
    >>> DemoParams.create(move_length=5).move_length
    5
    """
    if source not in ("seed", "public", "assumed"):
        raise ValueError(f"source must be seed, public or assumed, not {source!r}")
    meta = {"help": help, "source": source, "live": live, "min": min, "max": max,
            "choices": tuple(choices) if choices is not None else None, "rule": rule}
    return field(default=default, metadata={"playtest": meta})


class _ParamsType(type):
    """Makes a ``Params`` subclass written without ``@dataclass(frozen=True)`` one when it is
    first used (made, read or registered): decorated or not, it declares the same parameters."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        _declared(cls)
        return super().__call__(*args, **kwargs)


def _declared(cls: type) -> None:
    """Make ``cls`` and every ``Params`` class it derives from a frozen dataclass if it is not one
    yet (a class body's own ``param(...)`` fields are then read as declared)."""
    for klass in reversed(cls.__mro__):
        if isinstance(klass, _ParamsType) and "__dataclass_fields__" not in klass.__dict__:
            frozen: Any = dataclasses.dataclass(frozen=True)
            frozen(klass)


@dataclass(frozen=True)
class Params(metaclass=_ParamsType):
    """Base of every game's parameter dataclass; values are validated on creation.

    >>> class Sizes(Params):               # (no decorator needed)
    ...     cols: int = param(7, "columns", live=False, min=3, max=12)
    >>> Sizes.create(cols=5), Sizes().cols
    (Sizes(cols=5), 7)
    """

    game_name: ClassVar[str] = "game"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Refuse, at class creation, a parameter whose default breaks its own declaration."""
        super().__init_subclass__(**kwargs)
        import dataclasses
        for name, value in list(cls.__dict__.items()):
            if not isinstance(value, dataclasses.Field) or "playtest" not in value.metadata:
                continue
            if name not in own_annotations(cls):
                raise DeclarationError(f"{cls.__name__}.{name}: a parameter needs a type (`{name}: int = param(...)`)")
            spec = ParamSpec(name=name, default=value.default, **value.metadata["playtest"])
            _check_declared_kind(cls, name, spec, own_annotations(cls)[name])
            if spec.choices is not None and spec.default not in spec.choices:
                raise DeclarationError(f"{cls.__name__}.{name}: the default {show_value(spec.default)} is not "
                                       f"one of its choices {show_value(spec.choices)}")
            if spec.min is not None and spec.max is not None and spec.min > spec.max:
                raise DeclarationError(f"{cls.__name__}.{name}: min {spec.min} is more than max {spec.max}")
            for bound in (spec.min, spec.max):
                if isinstance(bound, float) and math.isnan(bound):
                    raise DeclarationError(f"{cls.__name__}.{name}: a bound of nan allows every value: give a number")
            try:
                spec.validate(spec.default, cls.__name__)
            except ValueError:
                raise DeclarationError(f"{cls.__name__}.{name}: the default {show_value(spec.default)} "
                                       f"contradicts its own declaration: it must be {spec.allowed()}") from None

    @classmethod
    def _playtest_record(cls, annotation: Any) -> Any:
        """A game's parameters as a declared field's type: read and checked like ``create``."""
        from .fieldtypes import FieldType

        def read(value: Any, where: str) -> Any:
            if not isinstance(value, dict):
                raise ValueError(f"{where} must be an object of parameters, not {type(value).__name__}")
            return annotation.create(**value)

        return FieldType(f"the parameters of {annotation.game_name}", read, lambda v: v.to_json(), annotation,
                         plain=False)

    @classmethod
    def specs(cls) -> tuple[ParamSpec, ...]:
        """Every declared parameter, in declaration order."""
        cached = cls.__dict__.get("_specs_cache")
        if cached is None:
            _declared(cls)
            cached = tuple(
                ParamSpec(name=f.name, default=f.default, **f.metadata["playtest"])
                for f in fields(cls) if "playtest" in f.metadata
            )
            cls._specs_cache = cached  # type: ignore[attr-defined]
        return cached

    @classmethod
    def spec(cls, name: str) -> ParamSpec:
        """The declaration of the parameter called ``name``; ``ValueError`` listing them all."""
        for s in cls.specs():
            if s.name == name:
                return s
        names = ", ".join(s.name for s in cls.specs())
        raise ValueError(f"{cls.game_name} has no parameter {name!r}; its parameters are: {names}")

    @classmethod
    def create(cls, **values: Any) -> "Params":
        """Validated parameters: unknown names and out-of-range values raise ``ValueError``."""
        clean = {name: cls.spec(name).validate(value, cls.game_name) for name, value in values.items()}
        made = cls(**clean)
        made.check()
        return made

    def check(self) -> None:
        """Cross-parameter checks; games override it and raise ``ValueError``."""

    def replace(self, **changes: Any) -> "Params":
        """A validated copy with ``changes`` applied."""
        return type(self).create(**{**self.to_json(native=True), **changes})

    def to_json(self, native: bool = False) -> dict[str, Any]:
        """Values by name (lists for tuples unless ``native``)."""
        return {s.name: (getattr(self, s.name) if native else _to_json_value(getattr(self, s.name)))
                for s in self.specs()}

    def changed(self) -> dict[str, Any]:
        """Only the values that differ from the defaults."""
        return {s.name: getattr(self, s.name) for s in self.specs() if getattr(self, s.name) != s.default}
