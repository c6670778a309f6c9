"""What :func:`playtest.check_game` reports: the properties in their order, a failure (the
property, the seat, a minimal history), the report that gathers them, and the internal signal a
property raises when it fails."""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any

__all__ = ["CheckReport", "CheckFailure", "GameCheckFailed", "PROPERTIES"]

PROPERTIES = ("declarations", "plays", "json", "listed actions are accepted", "illegal actions are refused", "random action is legal",
              "playout", "runs", "orders", "seats' lists", "scene",
              "notation", "secrecy: board", "secrecy: choices", "secrecy: determinize", "secrecy: bots",
              "secrecy: log", "perfect information", "undo/redo", "save/load", "ends")


class GameCheckFailed(AssertionError):
    """A game failed :func:`check_game`; the message names the property, the seat and the history."""


GameCheckFailed.__module__ = "playtest"


@dataclass
class CheckFailure:
    """One property that failed: where (a minimal history from the start, as notation and as
    JSON actions you can replay), for which seat, and what was seen."""

    property: str
    message: str
    seat: int | None = None
    history: list[str] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)

    def __str__(self) -> str:
        who = "" if self.seat is None else f" (seat {self.seat})"
        moves = " / ".join(self.history) if self.history else "the start"
        return f"{self.property}{who}: {self.message}\n    after {len(self.history)} steps: {moves}"


@dataclass
class CheckReport:
    """What :func:`check_game` found: ``ok``, the ``failures`` (one per property at most, each at
    its shortest history), and how many positions and games each property was checked on."""

    game: str
    params: dict[str, Any]
    examples: int
    checked: dict[str, int] = field(default_factory=dict)
    failures: list[CheckFailure] = field(default_factory=list)
    #: the positions met so far, by what a seat sees of them (``secrecy``: two positions of the run
    #: that a seat cannot tell apart are held to the secrecy properties, whatever determinize draws)
    met: dict[tuple[int, str], Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        """True when every property held."""
        return not self.failures

    def assert_ok(self) -> None:
        """Raise :class:`GameCheckFailed` naming every failed property (for pytest)."""
        if self.failures:
            raise GameCheckFailed(str(self))

    def __str__(self) -> str:
        head = (f"check_game({self.game!r}): {'every property holds' if self.ok else f'{len(self.failures)} failed'}"
                f" over {self.examples} random games")
        lines = [head]
        for name in PROPERTIES:
            if name in self.checked:
                failed = [f for f in self.failures if f.property == name]
                lines.append(f"  {'FAIL' if failed else 'ok  '} {name} ({self.checked[name]} checks)")
        lines += [str(f) for f in self.failures]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        # every text here comes from the game (names, notation, messages): escaped, never live HTML
        rows = []
        for name in PROPERTIES:
            if name not in self.checked:
                continue
            failed = [f for f in self.failures if f.property == name]
            mark = "&#x2717;" if failed else "&#x2713;"
            colour = "#b03a2e" if failed else "#1e8449"
            detail = "<br>".join(html.escape(str(f)).replace("\n", "<br>") for f in failed)
            rows.append(f"<tr><td style='color:{colour}'>{mark}</td><td>{html.escape(name)}</td>"
                        f"<td>{self.checked[name]}</td><td style='text-align:left'>{detail}</td></tr>")
        title = html.escape(f"check_game({self.game!r}) over {self.examples} random games: "
                            + ("every property holds" if self.ok else f"{len(self.failures)} failed"))
        return (f"<div><b>{title}</b><table><tr><th></th><th>property</th><th>checks</th><th></th></tr>"
                + "".join(rows) + "</table></div>")


class _Stop(Exception):
    """A property failed; carries the failure (internal)."""

    def __init__(self, failure: CheckFailure):
        super().__init__(failure.message)
        self.failure = failure


def _keep(failed: dict[str, CheckFailure], failure: CheckFailure) -> None:
    """One failure per property: the one with the shortest history."""
    known = failed.get(failure.property)
    if known is None or len(failure.history) < len(known.history):
        failed[failure.property] = failure


def _count(report: CheckReport, name: str, n: int = 1) -> None:
    report.checked[name] = report.checked.get(name, 0) + n
