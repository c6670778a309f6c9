"""The game's doings in a failure's words: an error in one line at the game's own line, a value
as Python writes it, a history as notation and as JSON actions to replay."""

from __future__ import annotations

import functools
import traceback
from pathlib import Path
from typing import Any

from ..kernel import Game


def _one_line(exc: BaseException) -> str:
    """The error in one line, at the innermost line of the game's own code (not the standard
    library's, an installed package's nor the kit's), with the line that raised when that is
    elsewhere; an error with no line of the game's own names the kit's line it came through."""
    frames = traceback.extract_tb(exc.__traceback__) if exc.__traceback__ else []
    if not frames:
        return f"{type(exc).__name__}: {str(exc)[:200]}"
    where = frames[-1]
    own = next((f for f in reversed(frames) if _origin(f.filename) == "game"), None)
    kit = next((f for f in reversed(frames) if _origin(f.filename) == "kit"), None)
    chosen = own or kit or where
    at = f" at {Path(chosen.filename).name}:{chosen.lineno}"
    if chosen is not where:
        at += f" (raised in {Path(where.filename).name}:{where.lineno})"
    if own is None and kit is not None:
        at += " in the kit's code, not the game's"
    return f"{type(exc).__name__}: {str(exc)[:400]}{at}"


@functools.lru_cache(maxsize=256)
def _origin(filename: str) -> str:
    """Whose code ``filename`` is: ``"kit"`` (playtest's), ``"library"`` (the standard library's or
    an installed package's) or ``"game"`` (anything else: a notebook cell, the designer's module)."""
    import sysconfig
    if filename.startswith("<frozen"):
        return "library"
    path = Path(filename).resolve() if not filename.startswith("<") else Path(filename)
    if Path(__file__).resolve().parents[1] in path.parents:       # (playtest/, this file is in playtest/check/)
        return "kit"
    roots = {Path(p).resolve() for k, p in sysconfig.get_paths().items()
             if k in ("stdlib", "platstdlib", "purelib", "platlib") and p}
    return "library" if any(r in path.parents for r in roots) else "game"


def _repr(value: Any) -> str:
    """A value the game's Python code returned, as Python writes it (cut short)."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _written(game: Game[Any, Any, Any], states: list[Any], actions: list[Any]) -> tuple[list[str], list[dict[str, Any]]]:
    """A failure's history: each action as the game writes it (else as Python does), and as JSON."""
    words = []
    for state, action in zip(states, actions):
        try:
            words.append(game.notation(state, action, None))
        except Exception:
            words.append(str(action))
    return words, [a.to_json() for a in actions]


def _first_difference(a: Any, b: Any, path: str = "view") -> tuple[str, str, str]:
    """Where two JSON-like values first differ: the path and both values, shortened."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if a.get(key) != b.get(key):
                return _first_difference(a.get(key), b.get(key), f"{path}[{key!r}]")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return path, repr(a)[:80], repr(b)[:80]


#: a field one state has and the other lacks (where two states are told apart in words)
_NOBODY = object()
