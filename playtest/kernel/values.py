"""JSON values shared by actions, states and parameters: tuples out as lists, lists in as tuples,
every incoming value bounded (a stranger's file may hold anything), and values shown in messages
cut short.

>>> to_json_value((1, (2, 3)))
[1, [2, 3]]
>>> from_json_value([1, [2, 3]], "cells")
(1, (2, 3))
>>> show_value(("1&2", "2&4")), show_value(False), show_value(12), show_value({"a": [1, None]})
('["1&2", "2&4"]', 'false', '12', '{"a": [1, null]}')
"""

from __future__ import annotations

from typing import Any

__all__ = ["to_json_value", "from_json_value", "show_value", "shown", "MAX_DEPTH", "MAX_ITEMS", "MAX_TEXT"]

#: the deepest list a value read from JSON may hold (actions and parameters)
MAX_DEPTH = 4
#: the most items a list read from JSON may hold
MAX_ITEMS = 10_000
#: the longest text read from JSON
MAX_TEXT = 10_000


def to_json_value(value: Any) -> Any:
    """``value`` with every tuple (at any depth) as a list, for ``json.dumps``."""
    if isinstance(value, tuple):
        return [to_json_value(v) for v in value]
    return value


def from_json_value(value: Any, where: str, depth: int = 0) -> Any:
    """A JSON value with lists turned into tuples, refusing what no action or parameter holds.

    The depth is checked before anything is walked, so a list nested 5,000 deep costs a few
    steps and a ``ValueError`` naming ``where``, never a ``RecursionError``.

    >>> deep: list = []
    >>> for _ in range(5000):
    ...     deep = [deep]
    >>> from_json_value(deep, "die_faces")
    Traceback (most recent call last):
    ...
    ValueError: die_faces: lists nested more than 4 deep are not allowed
    """
    if isinstance(value, list):
        if depth >= MAX_DEPTH:
            raise ValueError(f"{where}: lists nested more than {MAX_DEPTH} deep are not allowed")
        if len(value) > MAX_ITEMS:
            raise ValueError(f"{where}: a list of more than {MAX_ITEMS:,} values is not allowed")
        return tuple(from_json_value(v, where, depth + 1) for v in value)
    if value is None or isinstance(value, (bool, int, str)):
        if isinstance(value, str) and len(value) > MAX_TEXT:
            raise ValueError(f"{where}: a text of more than {MAX_TEXT:,} characters is not allowed")
        if type(value) is int and abs(value) > 10 ** 15:
            raise ValueError(f"{where}: {str(value)[:20]}... is too large a number")
        return value
    raise ValueError(f"malformed value: {where} must be a number, text or list, not {type(value).__name__}")


def show_value(value: Any, limit: int | None = None) -> str:
    """A value as the docs and messages write it (``true``, ``[1, 2]``, ``"must"``); with
    ``limit``, at most about that many characters, whatever the value's size or depth."""
    out: list[str] = []
    budget = [limit if limit is not None else 10 ** 9]

    def walk(v: Any, depth: int) -> None:
        if budget[0] <= 0:
            return
        if isinstance(v, bool):
            piece = "true" if v else "false"
        elif v is None:
            piece = "null"
        elif isinstance(v, (tuple, list, dict)):
            keyed = isinstance(v, dict)
            opening, closing = "{}" if keyed else "[]"
            if depth > 6:
                piece = opening + "..." + closing
            else:
                out.append(opening)
                budget[0] -= 1
                for i, item in enumerate(v.items() if isinstance(v, dict) else v):
                    if budget[0] <= 0:
                        break
                    if i:
                        out.append(", ")
                        budget[0] -= 2
                    if keyed:             # a dict's entry: its key, then its value
                        walk(item[0], depth + 1)
                        out.append(": ")
                        budget[0] -= 2
                        item = item[1]
                    walk(item, depth + 1)
                out.append(closing)
                budget[0] -= 1
                return
        elif isinstance(v, str):
            piece = f'"{v[:budget[0]]}"'
        elif isinstance(v, (int, float)):
            piece = str(v) if abs(v) < 10 ** 30 else f"{str(v)[:20]}..."
        else:
            piece = type(v).__name__
        out.append(piece)
        budget[0] -= len(piece)

    walk(value, 0)
    text = "".join(out)
    return text if budget[0] > 0 or limit is None else text[:limit - 3] + "..."


def shown(value: Any) -> str:
    """A value from a position or a file, for a message: its ``repr`` cut short (``None``, as the JSON
    it was read from says it: ``null``).

    >>> shown(None), shown("e5"), shown([1, None])
    ('null', "'e5'", '[1, null]')
    """
    if value is None:
        return "null"
    text = repr(value) if not isinstance(value, (list, tuple, dict)) else show_value(value, 60)
    return text if len(text) <= 60 else text[:57] + "..."
