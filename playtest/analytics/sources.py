"""Where playtests come from: session files, folders of them, or sessions in memory.

A file the loader refuses (corrupt, foreign, out-of-order times...) is never
averaged in: it is skipped, and named with its reason in the result's
``skipped`` list (and a warning says how many).
"""

from __future__ import annotations

import json
import os
import re
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from ..session import Session, SessionFileError
from ..session.files import ReplayShare

__all__ = ["Source", "gather", "COPY"]

#: how the reason of a file left out as an earlier copy of another begins (see ``_latest_copies``)
COPY = "an earlier copy of "

#: how a folder's session files are named
PATTERN = "*.playtest.json"
#: a session file's name, as written or as a browser renames a second download of the same name
#: (``NAME.playtest (1).json``, ``NAME.playtest(1).json``): a tester who sends back twice
_NAME = re.compile(r"\.playtest(?: ?\(\d{1,4}\))?\.json$")


@dataclass
class Source:
    """One session and the label it has in the tables (its file's name, or ``session N``)."""

    label: str
    session: Session


def _files(item: Path) -> list[Path]:
    if item.is_dir():
        return sorted(p for p in item.rglob("*.json") if _NAME.search(p.name))
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
    sources, copies = _latest_copies(sources)
    if skipped:
        warnings.warn(f"{len(skipped)} session file(s) were refused and left out (see .skipped): "
                      + "; ".join(f"{name}: {why[:120]}" for name, why in skipped[:3]), stacklevel=3)
    if copies:
        warnings.warn(f"{len(copies)} session(s) given twice: the earlier copies were left out (see .skipped): "
                      + "; ".join(f"{name}: {why[:80]}" for name, why in copies[:3]), stacklevel=3)
    return sources, skipped + copies


def _signature(session: Session) -> tuple[list[Any], set[Any], set[str]]:
    """What a session holds, to compare two copies: its positions in order, its notes, its events."""
    nodes = [(n.parent.id if n.parent is not None else -1, n.kind, n.notation, n.by) for n in session._nodes]
    notes = {(n.node, n.text, n.author) for n in session._notes}
    events = {json.dumps(e, sort_keys=True) for e in session._events}
    return nodes, notes, events


#: the sessions of one start a session is compared with, at most: bounded work, whatever a folder holds
_COMPARED = 8


def _latest_copies(sources: list[Source]) -> tuple[list[Source], list[tuple[str, str]]]:
    """``sources`` without the earlier copies of a session given twice (a tester who sent back twice, a
    file saved under two names): one whose positions, notes and events the other session of the same
    start (same game, creation time and seed) holds too, as a file resumed and sent again does.
    Counted twice, its moves, notes and feedback would weigh twice in every table. Returns
    ``(sources, [(label, reason), ...])``."""
    groups: dict[tuple[Any, ...], list[Source]] = {}
    for source in sources:
        session = source.session
        key = (session._nodes[0].game.name, session.created, session.started, session.seed)
        groups.setdefault(key, []).append(source)
    dropped: dict[int, str] = {}
    for group in groups.values():
        if len(group) < 2:
            continue
        signatures = {id(s): _signature(s.session) for s in group}
        ordered = sorted(group, key=lambda s: len(signatures[id(s)][0]) + len(signatures[id(s)][1])
                         + len(signatures[id(s)][2]), reverse=True)
        for k, small in enumerate(ordered):
            nodes, notes, events = signatures[id(small)]
            bigger = [big for big in ordered[:k] if id(big) not in dropped]
            for big in bigger[:_COMPARED]:      # (the largest: a later copy holds the earlier ones)
                big_nodes, big_notes, big_events = signatures[id(big)]
                if big_nodes[:len(nodes)] == nodes and notes <= big_notes and events <= big_events:
                    dropped[id(small)] = (f"{COPY}{big.label} (the same session, which holds all of it): left "
                                          f"out, so that its moves, notes and feedback count once")
                    break
    kept = [s for s in sources if id(s) not in dropped]
    return kept, [(s.label, dropped[id(s)]) for s in sources if id(s) in dropped]


def _read(path: Path, share: ReplayShare | None = None) -> Session:
    """A session from a file, read only: nothing is written, cut or locked."""
    from ..journal import read_records
    header, records, _torn, _notes = read_records(path)
    return Session._replay(header, records, where=path.name, share=share)


def _stem(name: str) -> str:
    found = _NAME.search(name)
    if found is not None and found.group() != ".playtest.json":
        return name[:found.start()] + found.group()[len(".playtest"):-len(".json")]   # NAME (1)
    for suffix in (".playtest.json", ".json"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name
