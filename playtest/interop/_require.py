"""The interop extra's libraries, imported on use with a message saying how to get them."""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["need", "EXTRA"]

EXTRA = "pip install 'playtest-kit[interop]' (open_spiel, pettingzoo, gymnasium; open_spiel needs CPython 3.11+)"


def need(module: str) -> Any:
    """``module`` imported, or ``ImportError`` naming the extra that provides it.

    >>> need("json").dumps([1])
    '[1]'
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(f"playtest.interop needs {module}: {EXTRA} ({exc})") from exc
