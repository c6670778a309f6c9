"""The table's move log and branch menu: rows as each viewer may read them (made once per position
and viewer, kept for the session), a game's own grouping of steps and lines (``log_group``,
``log_lines``), and branch labels that are unique.

A part of :class:`playtest.widgets.table.Table` (a mixin: it reads the table's session), kept
apart so the table's module stays one concern.
"""

from __future__ import annotations

import weakref
from collections import Counter
from typing import Any

from ..session import Session
from .picker import encode_options

__all__ = ["MoveLog"]

_CURRENT_LINE = -1          # the branch menu's value for the line being played
_LOG_PREFIX = {"root": "", "params": "⚙ ", "chance": "🎲 "}     # a move's is its number
#: the move log's labels, per session, by (position, viewer): made once each
_LABELS: "weakref.WeakKeyDictionary[Session, dict[Any, Any]]" = weakref.WeakKeyDictionary()


class MoveLog:
    """The move log's rows and the branch menu's choices (mixed into the Table)."""

    session: Session

    def _log(self, viewer: int | None) -> tuple[tuple[tuple[str, int], ...], str, dict[int, dict[str, Any]]]:
        """The move log's rows as ``viewer`` may read them, their JSON text, and what rows fold.

        What :meth:`Session.history` says, as labels: a position's label is made once per viewer
        and kept for the session (a move adds a row; it does not rewrite the others). Where the
        game asks (``log_lines``), a step's row is the first of its lines and unfolds into the
        rest; consecutive steps the game groups (``log_group``) are one row that unfolds into
        them, standing for the last of them."""
        session = self.session
        labels = _LABELS.setdefault(session, {})
        notes = Counter(note.node for note in session.notes)
        nodes = session._nodes
        game = session.game
        grouping = _writes_log_hooks(game)
        rows: list[tuple[str, int]] = []
        details: dict[int, dict[str, Any]] = {}
        group: tuple[str, list[tuple[str, int]]] | None = None      # (its label, its steps)

        def close_group() -> None:
            nonlocal group
            if group is None:
                return
            name, steps = group
            group = None
            if len(steps) == 1:
                rows.append(steps[0])
                return
            first, last = nodes[steps[0][1]].depth, nodes[steps[-1][1]].depth
            numbers = f"{first}." if first == last else f"{first}–{last}."
            rows.append((f"{numbers} {name} ({len(steps)} steps)", steps[-1][1]))
            details[steps[-1][1]] = {"members": tuple(steps)}

        for i in session.line():
            node = nodes[i]
            known = labels.get((i, viewer))
            if known is None or known[0] is not node:      # (a position undone by a failed save is gone)
                prefix = _LOG_PREFIX.get(node.kind, f"{node.depth}. ")
                text = node.notation_for(viewer)
                lines: tuple[str, ...] = ()
                key: str | None = None
                if grouping and node.kind == "move" and node.parent is not None:
                    lines, key = _log_hooks(game, node.parent.state, node.action, viewer)
                    if lines:
                        text = lines[0] + (" (forced)" if node.forced else "")
                known = labels[(i, viewer)] = (node, prefix + text, tuple(lines[1:]), key)
            label = known[1] + " 📝" if i in notes else known[1]
            if known[2]:
                details[i] = {"lines": known[2]}
            if known[3] is not None:
                if group is None or group[0] != known[3]:
                    close_group()
                    group = (known[3], [])
                group[1].append((label, i))
                continue
            close_group()
            rows.append((label, i))
        close_group()
        options = tuple(rows)
        return options, encode_options(options, details), details

    def _branch_menu(self) -> tuple[tuple[tuple[str, int], ...], str, int | None]:
        """The branch menu's choices (unique labels), their JSON text, and the current one.

        The line being played is "current line", value ``_CURRENT_LINE``: the menu stays the same
        while it grows, so a move sends the page nothing for it (the log shows the moves)."""
        session = self.session
        branches = session.branches()
        options = tuple(("current line", _CURRENT_LINE) if b.current else (label, b.leaf)
                        for label, b in zip(_branch_labels(session, branches), branches))
        return options, encode_options(options), _CURRENT_LINE


def _writes_log_hooks(game: Any) -> bool:
    """Whether the game writes its own ``log_group`` or ``log_lines`` (the kernel's answer none)."""
    from ..kernel.game import Game
    return any(callable(getattr(game, name, None)) and getattr(type(game), name, None) is not getattr(Game, name)
               for name in ("log_group", "log_lines"))


def _log_hooks(game: Any, state: Any, action: Any, viewer: int | None) -> tuple[tuple[str, ...], str | None]:
    """The game's optional log hooks for one step: its lines (``log_lines``) and its group
    (``log_group``). A hook that fails or answers nonsense is ignored: the notation stands."""
    lines: tuple[str, ...] = ()
    key = None
    try:
        hook = getattr(game, "log_lines", None)
        answer = hook(state, action, viewer) if callable(hook) else None
        if answer and isinstance(answer, (list, tuple)) and all(isinstance(x, str) for x in answer):
            lines = tuple(answer)
        hook = getattr(game, "log_group", None)
        answer = hook(state, action, viewer) if callable(hook) else None
        key = answer if isinstance(answer, str) and answer else None
    except Exception:        # noqa: BLE001 (a designer's hook: the log goes on with the notation)
        return lines, None
    return lines, key


def _branch_labels(session: Session, branches: list[Any]) -> list[str]:
    """Each branch's label, unique: where labels agree, the last move of each line, then its position."""
    labels = [str(b) for b in branches]
    for _ in range(2):           # the last move of each line, then (if still alike) its position's number
        seen = Counter(labels)
        for k, b in enumerate(branches):
            if seen[labels[k]] > 1:
                last = _notation_of(session, b.leaf) if _ == 0 else ""
                labels[k] = f"{labels[k]}, ends {last}" if last else f"{labels[k]} (position {b.leaf})"
    return labels


def _notation_of(session: Session, node: int) -> str:
    """The notation of the move that led to position ``node`` ("" when it cannot be read)."""
    try:
        return session._nodes[node].notation_for(None)
    except (AttributeError, IndexError, TypeError):
        return ""
