"""The tree of a session: positions (nodes), notes, branches.

A node is one position: its parent, what led there (a move, a chance result
or a parameter change), the state, the game in force, and its children by
what they did (adding one is O(1)). Nodes never change once made, so their
line in the session file is encoded once.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from ..rules import Action, Game


def _now() -> str:
    """The time now, UTC, to the second (what a file says it was saved at): no time zone of the machine."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def utc_text(epoch: float) -> str:
    """``epoch`` (seconds since 1970, UTC) as ISO 8601 text to the millisecond, ending in ``Z``.

    >>> utc_text(0.25)
    '1970-01-01T00:00:00.250Z'
    """
    stamp = datetime.fromtimestamp(epoch, tz=timezone.utc)
    return stamp.strftime("%Y-%m-%dT%H:%M:%S.") + f"{stamp.microsecond // 1000:03d}Z"


def parse_utc(text: str) -> float:
    """Seconds since 1970 of a UTC time written by :func:`utc_text`; ``ValueError`` for anything else.

    >>> parse_utc("1970-01-01T00:00:00.250Z")
    0.25
    """
    if type(text) is not str or len(text) > 40 or not text.endswith("Z"):
        raise ValueError("a UTC time is ISO 8601 text ending in Z")
    stamp = datetime.fromisoformat(text[:-1])
    if stamp.tzinfo is not None:
        raise ValueError("a UTC time ends in Z and has no other offset")
    return stamp.replace(tzinfo=timezone.utc).timestamp()


@dataclass(frozen=True)
class Note:
    """A note written at a position: ``node`` is the position's id, ``move`` its move number,
    ``author`` who wrote it (a tester's name; the designer's by default)."""

    node: int
    move: int
    text: str
    time: str
    author: str = ""
    #: seconds from the session's start (its ``started`` time, UTC); None in files written before
    t: float | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"node": self.node, "text": self.text}
        if self.t is not None:
            data["t"] = self.t
        else:
            data["time"] = self.time
        if self.author:
            data["author"] = self.author
        return data


@dataclass(frozen=True)
class Branch:
    """A line of play: its last position, where it leaves the current line, and its length."""

    leaf: int
    fork: int
    fork_move: int
    moves: int
    first: str
    current: bool

    def __str__(self) -> str:
        if self.current:
            return f"current line ({self.moves} moves)"
        return f"from move {self.fork_move}: {self.first} … ({self.moves} moves)"


class _Node:
    __slots__ = ("id", "parent", "kind", "action", "changes", "state", "game", "children",
                 "redo", "depth", "notation", "forced", "seen", "index", "by", "line", "t", "bot", "player")

    def __init__(self, id: int, parent: "_Node | None", kind: str, action: Action | None,
                 changes: dict[str, Any] | None, state: Any, game: Game[Any, Any, Any], notation: str | None,
                 forced: bool = False) -> None:
        self.id = id
        self.parent = parent
        self.kind = kind            # root | move | chance | params
        self.action = action
        self.changes = changes
        self.state = state
        self.game = game
        self.children: list[_Node] = []
        self.index: dict[tuple[Any, ...], _Node] = {}     # children by what they did: adding one is O(1)
        self.redo: _Node | None = None
        # the move number: chance results and parameter changes are steps, not moves
        self.depth: int = 0 if parent is None else parent.depth + (kind == "move")
        self.notation = notation    # as the table (viewer None) reads it; None: written when first read
        self.forced = forced        # a chance result chosen by the designer, not drawn
        self.seen: dict[int, str] | None = None   # notation per seat, for games with secrets
        self.by: str = parent.by if parent is not None else ""   # who played it (a merged tester's name)
        self.line: str | None = None    # its record in the session file, encoded once (saves reuse it)
        self.t: float | None = None     # when it was made: seconds from the session's start (None: not known)
        self.bot: str | None = None     # the bot that chose this move, by name (None: a person)
        self.player: str | None = None  # the person who played this move, when not ``by`` (a seat's player)

    def notation_for(self, viewer: int | None) -> str:
        """The step in words as ``viewer`` may read them (secrets only for those who may know)."""
        if viewer is None or self.action is None or not self.game.has_secrets:
            if self.notation is None:
                assert self.parent is not None      # a step with an action has a position before it
                self.notation = self.game.notation(self.parent.state, self.action, None)
            text = self.notation
        else:
            if self.seen is None:
                self.seen = {}
            seen = self.seen.get(viewer)
            if seen is None:
                assert self.parent is not None
                seen = self.seen[viewer] = self.game.notation(self.parent.state, self.action, viewer)
            text = seen
        return text + " (forced)" if self.forced else text


def _child_key(kind: str, action: Action | None, changes: dict[str, Any] | None, forced: bool) -> tuple[Any, ...]:
    return (kind, action, json.dumps(changes, sort_keys=True) if changes is not None else None, forced)
