"""Reading a hand-written position: one JSON object, its fields checked one by one with messages naming them.

A game's ``state_from_json`` makes a :class:`PositionReader` over the data it
was given, with the fields its positions have. The reader refuses anything but
an object, refuses unknown fields, and its typed getters check exact types (a
``true`` is not the whole number 1) and raise ``ValueError`` naming the field,
so a designer's typo gets a message, never a wrong position.

>>> reader = PositionReader("Source", {"turn": 3, "acted": True}, ("turn", "acted", "over"))
>>> reader.integer("turn", 0), reader.boolean("acted", False), reader.text("over", "")
(3, True, '')
>>> reader.integer("acted", 0)
Traceback (most recent call last):
...
ValueError: acted must be a whole number of at least 0, not True
>>> PositionReader("Source", {"colour": "red"}, ("turn", "acted"))
Traceback (most recent call last):
...
ValueError: unknown fields in a Source position: ['colour']; the fields are acted, turn
"""

from __future__ import annotations

from typing import Any, Iterable

__all__ = ["PositionReader"]

_MISSING = object()


def _shown(value: Any) -> str:
    """A value from a position, for a message: cut short (a stranger's file may hold megabytes)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class PositionReader:
    """The fields of one position's JSON object, read with checks (see the module docstring).

    ``game`` is the game's title for messages, ``fields`` every field its
    positions may have, ``shape`` a few words on what the object holds (for
    the message when ``data`` is not an object at all).
    """

    __slots__ = ("game", "data", "fields")

    def __init__(self, game: str, data: Any, fields: Iterable[str], shape: str = "fields"):
        self.game = game
        self.fields = frozenset(fields)
        if not isinstance(data, dict):
            raise ValueError(f"a {game} position is an object with {shape}")
        unknown = set(data) - self.fields
        if unknown:
            raise ValueError(f"unknown fields in a {game} position: {sorted(unknown)}; the fields are "
                             f"{', '.join(sorted(self.fields))}")
        self.data = data

    def __contains__(self, key: str) -> bool:
        return key in self.data

    def get(self, key: str, default: Any = None) -> Any:
        """The raw value of ``key`` (``default`` when it is left out), unchecked."""
        return self.data.get(key, default)

    def integer(self, key: str, default: Any, low: int = 0, high: int | None = None) -> int:
        """A whole number from ``low`` (to ``high``); ``true``/``false`` are refused.

        >>> PositionReader("Demo", {"round": 0}, ["round"]).integer("round", 1, low=1)
        Traceback (most recent call last):
        ...
        ValueError: round must be a whole number of at least 1, not 0
        """
        value = self.data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None
                                                                                    and value > high):
            span = f"at least {low}" if high is None else f"from {low} to {high}"
            raise ValueError(f"{key} must be a whole number of {span}, not {_shown(value)}")
        return value

    def boolean(self, key: str, default: Any) -> bool:
        """``true`` or ``false`` (not 0 or 1)."""
        value = self.data.get(key, default)
        if not isinstance(value, bool):
            raise ValueError(f"{key} must be true or false, not {_shown(value)}")
        return value

    def text(self, key: str, default: Any, meaning: str = "text") -> str:
        """A string; ``meaning`` says what it is in the message (``over is the reason ..., not 3``)."""
        value = self.data.get(key, default)
        if not isinstance(value, str):
            verb = "must be" if meaning == "text" else "is"
            raise ValueError(f"{key} {verb} {meaning}, not {_shown(value)}")
        return value

    def choice(self, key: str, default: Any, choices: Iterable[Any], what: str = "one of") -> Any:
        """One of ``choices`` (compared by value, and by type: ``1`` is not ``True``).

        >>> PositionReader("Demo", {"to_move": "pink"}, ["to_move"]).choice("to_move", "red", ("red", "blue"),
        ...                                                                  "a colour")
        Traceback (most recent call last):
        ...
        ValueError: to_move must be a colour: red, blue; not 'pink'
        """
        value = self.data.get(key, default)
        choices = tuple(choices)
        if not any(type(value) is type(c) and value == c for c in choices):
            raise ValueError(f"{key} must be {what}: {', '.join(map(str, choices))}; not {_shown(value)}")
        return value

    def items(self, key: str, what: str) -> list[Any]:
        """A list (``[]`` when left out); ``what`` names its items in the message."""
        value = self.data.get(key, [])
        if not isinstance(value, list):
            raise ValueError(f"{key} must be a list of {what}, not {_shown(value)}")
        return value

    def mapping(self, key: str, what: str, keys: Iterable[str] | None = None) -> dict[str, Any]:
        """An object (``{}`` when left out), with keys among ``keys`` if given; ``what`` shows its form."""
        value = self.data.get(key, {})
        if not isinstance(value, dict) or (keys is not None and set(value) - set(keys)):
            raise ValueError(f"{key} must be an object {what}")
        return value
