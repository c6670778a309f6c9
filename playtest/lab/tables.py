"""Tables that say what their columns mean: the lab's measures in words, under every table it shows.

>>> print(meaning("fair share"))
the share of games a seat wins on average in the same games (a draw gives no one a share; a team win counts for each member): 1/2 in a two-player game without draws
>>> table = explained([{"game": "source", "fair share": 0.5}], formats={"fair share": "{:.0%}"})
>>> print(table._repr_markdown_().splitlines()[2])
| source | 50% |
"""

from __future__ import annotations

import math
from html import escape
from typing import Any, Iterable, Mapping

from .._optional import need

__all__ = ["MEANINGS", "meaning", "notes_for", "ExplainedTable", "explained"]

#: what each measure (or column) of the lab means; intervals are 95% intervals
MEANINGS: dict[str, str] = {
    "win rate": "the share of games the seat won (a team's win counts for each of its members)",
    "team win rate": "the share of games the seats of one side won together",
    "first mover": "the seat that took the game's first decision (chance steps do not count); a game that "
                   "opens with a simultaneous step has none",
    "first mover wins": "the share of its games the first mover won",
    "mean return": "what a seat gains a game on average, in the game's own payoff (chips, points), for games "
                   "that pay out more than win or lose; 0 for every seat is an even game",
    "fair share": "the share of games a seat wins on average in the same games (a draw gives no one a share; "
                  "a team win counts for each member): 1/2 in a two-player game without draws",
    "first-player advantage": "the first mover's win rate minus its fair share: above 0 moving first helps, "
                              "below 0 it hurts",
    "advantage": "the first mover's win rate minus its fair share: above 0 moving first helps, below 0 it hurts",
    "draw rate": "the share of games without a winner, timeouts included",
    "timeout rate": "the share of games stopped by a cap (the lab's max_steps, or a game's own turn limit)",
    "game length": "steps a game takes, chance steps included (the mean)",
    "decisiveness": "how early the eventual winner took the lead for good, from the running scores at the end "
                    "of every turn: 1 when it led from the first turn to the end, 0.5 when it took the lead for "
                    "good halfway through, 0 when it was not ahead even after the last turn (the mean over games "
                    "with a winner)",
    "lead changes": "how many times the seat strictly ahead on the running scores at the end of a turn changed "
                    "in a game (the mean)",
    "branching factor": "legal actions at a decision, counted at about one decision in 32 of every game, picked by "
                        "the game's seed (chance steps are not decisions)",
    "low": "the low end of the 95% interval",
    "high": "the high end of the 95% interval",
    "95% interval": "a range built so that in 95 of 100 runs like this one it holds the true value: Wilson's "
                    "interval for a share of games, Student's t for a mean (a ratio interval for the branching "
                    "factor); more games make it narrower",
    "games": "the games the value is measured over",
    "first-mover games": "the games that had a first mover",
}


def meaning(column: str) -> str:
    """What a column or measure of the lab's tables means (``KeyError`` for one the lab does not know)."""
    return MEANINGS[column]


def notes_for(columns: Iterable[str], extra: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
    """(column, meaning) for every column the lab can explain, each once, in order."""
    known = {**MEANINGS, **(extra or {})}
    out: list[tuple[str, str]] = []
    for column in columns:
        if column in known and column not in [c for c, _ in out]:
            out.append((column, known[column]))
    return out


def _cell(value: Any, fmt: str | None) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    try:
        pd = need("pandas", "a lab table")
        if value is pd.NA:
            return "–"
    except ImportError:         # pragma: no cover - pandas is in the lab extra
        pass
    return fmt.format(value) if fmt else str(value)


class ExplainedTable:
    """A table (``frame``, a pandas DataFrame) shown with its columns explained below it.

    Displays as HTML and Markdown; ``frame`` holds the numbers, unformatted.
    """

    def __init__(self, frame: Any, formats: Mapping[str, str] | None = None, notes: Mapping[str, str] | None = None,
                 title: str = "", intervals: bool = False):
        self.frame = frame
        self.formats = dict(formats or {})
        self.title = title
        # a column (measure, who) is explained by its measure
        columns = [*self._index_names(), *(str(c[0]) if isinstance(c, tuple) else str(c) for c in frame.columns)]
        if intervals or any(c in ("low", "high") or "interval" in c for c in columns):
            columns.append("95% interval")
        self.notes = notes_for(columns, notes)

    def _index_names(self) -> list[str]:
        return [str(n) for n in self.frame.index.names if n is not None]

    def _rows(self) -> tuple[list[str], list[list[str]]]:
        names = self._index_names()
        head = names + [" · ".join(str(p) for p in c if str(p)) if isinstance(c, tuple) else str(c)
                        for c in self.frame.columns]
        rows = []
        for key, row in zip(self.frame.index, self.frame.itertuples(index=False)):
            keys = list(key) if isinstance(key, tuple) else [key]
            cells = [str(k) for k in keys] if names else []
            cells += [_cell(v, self.formats.get(c if isinstance(c, str) else str(c))) for c, v in
                      zip(self.frame.columns, row)]
            rows.append(cells)
        return head, rows

    def _repr_markdown_(self) -> str:
        head, rows = self._rows()
        out = [f"**{self.title}**", ""] if self.title else []
        out += ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
        out += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
        out += [""] + [f"* *{c}*: {m}" for c, m in self.notes]
        return "\n".join(out)

    def _repr_html_(self) -> str:
        head, rows = self._rows()
        title = f"<p><b>{escape(self.title)}</b></p>" if self.title else ""
        body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows)
        notes = "".join(f"<li><i>{escape(c)}</i>: {escape(m)}</li>" for c, m in self.notes)
        return (f"{title}<table><thead><tr>{''.join(f'<th>{escape(h)}</th>' for h in head)}</tr></thead>"
                f"<tbody>{body}</tbody></table><ul style=\"font-size: smaller\">{notes}</ul>")

    def __repr__(self) -> str:
        head, rows = self._rows()
        lines = ["  ".join(head)] + ["  ".join(row) for row in rows]
        return "\n".join(lines + [""] + [f"{c}: {m}" for c, m in self.notes])


def explained(frame: Any, formats: Mapping[str, str] | None = None, notes: Mapping[str, str] | None = None,
              title: str = "") -> ExplainedTable:
    """``frame`` (a DataFrame, or rows as dicts) with its columns explained: every column the lab
    knows (:data:`MEANINGS`) and every one in ``notes``; ``formats`` maps a column to a format string."""
    if not hasattr(frame, "columns"):
        pd = need("pandas", "a lab table")
        frame = pd.DataFrame(list(frame))
    return ExplainedTable(frame, formats, notes, title)
