"""Where playtests come from: session files, folders of them, or sessions in memory.

A file the loader refuses (corrupt, foreign, out-of-order times...) is never
averaged in: it is skipped, and named with its reason in the result's
``skipped`` list (and a warning says how many).
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from ..session import Session, SessionFileError
from ..session.files import ReplayShare

__all__ = ["Source", "gather"]

#: how a folder's session files are named
PATTERN = "*.playtest.json"


@dataclass
class Source:
    """One session and the label it has in the tables (its file's name, or ``session N``)."""

    label: str
    session: Session


def _files(item: Path) -> list[Path]:
    if item.is_dir():
        return sorted(item.rglob(PATTERN))
    return [item]


def gather(items: Any) -> tuple[list[Source], list[tuple[str, str]]]:
    """Sessions from ``items`` (a session, a path, a folder, or a list of them): ``(sources, skipped)``.

    Files are read, never written (``Session.load`` of a copy in memory); labels are file names
    (made unique), never machine paths.
    """
    if isinstance(items, (Session, str, os.PathLike)):
        items = [items]
    if not isinstance(items, Iterable):
        raise TypeError("playtests() takes sessions, session files or folders of them (or a list of those)")
    sources: list[Source] = []
    skipped: list[tuple[str, str]] = []
    used: dict[str, int] = {}
    share = ReplayShare()          # one game object per parameter set for all the files, actions parsed once

    def label_for(name: str) -> str:
        used[name] = used.get(name, 0) + 1
        return name if used[name] == 1 else f"{name} ({used[name]})"

    for item in items:
        if isinstance(item, Session):
            name = item.path.name if item.path is not None else f"session {len(sources) + 1}"
            sources.append(Source(label_for(_stem(name)), item))
            continue
        if not isinstance(item, (str, os.PathLike)):
            raise TypeError(f"playtests() takes sessions, session files or folders, not {type(item).__name__}")
        path = Path(item)
        if not path.exists():
            raise FileNotFoundError(f"no session file or folder {path.name!r} here")
        for file in _files(path):
            try:
                session = _read(file, share)
            except SessionFileError as err:
                skipped.append((file.name, str(err).replace(str(file), file.name)[:300]))
                continue
            sources.append(Source(label_for(_stem(file.name)), session))
    if skipped:
        warnings.warn(f"{len(skipped)} session file(s) were refused and left out (see .skipped): "
                      + "; ".join(f"{name}: {why[:120]}" for name, why in skipped[:3]), stacklevel=3)
    return sources, skipped


def _read(path: Path, share: ReplayShare | None = None) -> Session:
    """A session from a file, read only: nothing is written, cut or locked."""
    from ..journal import read_records
    header, records, _torn, _notes = read_records(path)
    return Session._replay(header, records, where=path.name, share=share)


def _stem(name: str) -> str:
    for suffix in (".playtest.json", ".json"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name
