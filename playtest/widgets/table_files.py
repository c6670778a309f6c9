"""The table's files: the session handed to the browser as a download (a seat's table hands its
export: what the seat may know), session files chosen in the browser checked as a stranger's and
merged, and saving to a path.

A part of :class:`playtest.widgets.table.Table` (a mixin: it reads the table's session), kept
apart so the table's module stays one concern.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from ..session import Session
from .param_panel import _short_error

__all__ = ["TableFiles"]


class TableFiles:
    """Downloads, uploads and saving (mixed into the Table)."""

    session: Session
    seat: int | None
    board: Any
    notice: w.Label
    upload: Any
    save_path: w.Text
    save_replace: w.Checkbox

    if TYPE_CHECKING:       # the Table's own
        def _designer_only(self, what: str) -> bool: ...

    def download(self) -> None:
        """Hand the browser the session file (it saves it as a download, wherever the kernel runs).

        A table bound to a seat hands it that seat's export instead (``session.save(path, seat=k)``):
        what the seat may know, never the other seats' secrets."""
        if self.seat is not None:
            self._download_export()
            return
        data = self.session.to_bytes()
        name = self.session.path.name if self.session.path is not None else \
            f"{self.session.game.name}.playtest.json"
        self.board.send({"type": "download", "name": name, "mime": "application/json"}, [data])
        self.notice.value = f"Sent {name} ({len(data):,} bytes) to your browser's downloads."

    def _on_upload(self, change: dict) -> None:
        """Session files chosen in the browser: each is checked like a file from a stranger, then merged."""
        files = change.get("new") or ()
        if files and not self._designer_only("merge files"):
            self.upload.value = ()
            return
        merged = []
        for item in files:
            name = str(item.get("name", "file"))[:80] if isinstance(item, dict) else "file"
            try:
                # (the content as it came: a size is checked before any copy is made)
                other = Session.from_records_bytes(item["content"], where=name)
                added = self.session.merge(other)
            except (ValueError, TypeError, KeyError, OSError, RecursionError) as err:
                self.board.error = f"{name} was not merged: {_short_error(err)}"
                continue
            authors = sorted({n.author for n in other.notes if n.author}) or ["no author"]
            merged.append(f"{name} ({', '.join(authors)}: {_count(added['positions'], 'position')}, "
                          f"{_count(added['notes'], 'note')})")
        if merged:
            self.notice.value = "Merged " + "; ".join(merged)
        if files:
            self.upload.value = ()

    def _save(self) -> None:
        if not self._designer_only("save to a path"):
            return
        path = self.save_path.value.strip()
        if not path:
            raise ValueError("type a file name to save the session to")
        saved = self.session.save(path, replace=self.save_replace.value)
        self.save_replace.value = False
        self.notice.value = f"Saved to {saved}; every change is now saved there."

    def _download_export(self) -> None:
        seat = self.seat
        assert seat is not None
        data = json.dumps(self.session.export(seat), ensure_ascii=False, indent=1).encode("utf-8")
        stem = self.session.path.name.split(".")[0] if self.session.path is not None else self.session.game.name
        name = f"{stem}-{_slug(self.session.game.seats()[seat].name)}-view.json"
        self.board.send({"type": "download", "name": name, "mime": "application/json"}, [data])
        self.notice.value = (f"Sent {name} ({len(data):,} bytes), what {self.session.game.seats()[seat].name} "
                             "may know, to your browser's downloads.")


def _count(n: int, word: str) -> str:
    """``1 note``, ``3 notes``."""
    return f"{n} {word}{'s' if n != 1 else ''}"


def _slug(text: str) -> str:
    """A name as part of a file name: letters, digits and dashes."""
    return "".join(c if c.isalnum() else "-" for c in text).strip("-").lower() or "seat"
