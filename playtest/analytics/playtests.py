"""``playtest.playtests(...)``: many sessions as tidy tables, exports and one-call plots.

>>> import playtest, tempfile
>>> session = playtest.Session("eat_thyself", seed=1, clock=iter(range(0, 10_000, 7)).__next__)
>>> for _ in range(6):
...     session.play(session.legal_actions()[0])
>>> report = playtest.playtests([session])
>>> len(report.moves), report.moves.think.tolist()
(6, [7.0, 7.0, 7.0, 7.0, 7.0, 7.0])
>>> report.games[["moves", "finished"]].values.tolist()
[[6, False]]
"""

from __future__ import annotations

import gc
import math
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from .sources import COPY, Source, gather
from .tables import build_tables, params_columns

__all__ = ["playtests", "Playtests", "IDLE"]

#: think time past this many seconds is a pause, not thinking (the default of ``idle=``)
IDLE = 300.0
TABLES = ("moves", "games", "refusals", "notes", "feedback")


def playtests(paths_or_sessions: Any, idle: float = IDLE) -> "Playtests":
    """Every session given, as tidy tables: ``.moves``, ``.games``, ``.refusals``, ``.notes``, ``.feedback``.

    ``paths_or_sessions`` is a :class:`playtest.Session`, a session file, a folder of them
    (``*.playtest.json``, read recursively), or a list of those: a designer's session, each
    tester's, merged or not. Files are only read. A file the loader refuses is left out and
    named in ``.skipped`` (a warning says how many); so is an earlier copy of a session given
    twice (a tester who sent back twice: a browser saves the second as ``NAME.playtest (1).json``,
    which a folder's reading takes too), whose moves would otherwise count twice.
    ``.problems`` counts those, and what the tables leave empty (moves without a time, think
    times past ``idle`` seconds).

    Each table is a pandas DataFrame (``.to_csv()``, ``.to_parquet()``); :meth:`Playtests.to_csv`
    and :meth:`Playtests.to_parquet` write all five. The plots are methods: :meth:`think_time`,
    :meth:`game_length`, :meth:`rule_confusion`, :meth:`heatmap`, :meth:`humans_and_bots`,
    :meth:`feedback_by_params`; :meth:`compare_think_time` is a test with its p-value.
    """
    if isinstance(idle, bool) or not isinstance(idle, (int, float)) or not idle > 0 or not math.isfinite(idle):
        raise ValueError(f"idle is a number of seconds above 0, not {idle!r}")
    with _collection_paused():
        sources, skipped = gather(paths_or_sessions)
        return Playtests(sources, skipped, float(idle))


@contextmanager
def _collection_paused() -> Iterator[None]:
    """No garbage collection while the files are read and the tables built.

    Reading a folder makes millions of objects that all stay (every session's positions): a
    full collection every few files would walk all of them again, so the time would grow with
    the square of the number of files. What little becomes garbage here (a refused file's
    positions) is collected afterwards, when the collector runs as usual again (it is left
    off if it was off).
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _typed(values: list[Any]) -> Any:
    """A column of only whole numbers, only numbers with a point, or only true/false as the numpy
    array pandas would make of it (made at once, without pandas looking at every value); any
    other column as it is, for pandas to type (text, empty values, an empty table).

    >>> _typed([1, 2]).dtype, _typed([0.5, float("nan")]).dtype, _typed([True]).dtype, _typed([1, None])
    (dtype('int64'), dtype('float64'), dtype('bool'), [1, None])
    >>> _typed([2 ** 64])
    [18446744073709551616]
    """
    import numpy as np
    if values:
        kinds = set(map(type, values))
        if len(kinds) == 1:
            kind = kinds.pop()
            if kind is float:
                return np.array(values, dtype=np.float64)
            if kind is bool:
                return np.array(values, dtype=np.bool_)
            if kind is int:
                try:
                    return np.array(values, dtype=np.int64)
                except OverflowError:           # past 64 bits: pandas decides
                    return values
    return values


class Playtests:
    """The tables of many playtest sessions, and the plots made from them (see :func:`playtests`)."""

    def __init__(self, sources: list[Source], skipped: list[tuple[str, str]], idle: float = IDLE):
        import pandas as pd
        self.sources = sources
        #: files left out, with the reason: ``[(file name, reason), ...]``
        self.skipped = skipped
        self.idle = idle
        columns, problems = build_tables(sources, idle)
        copies = sum(1 for _, why in skipped if why.startswith(COPY))
        problems["files refused"] = len(skipped) - copies
        problems["earlier copies left out"] = copies
        #: what was left out or left empty, counted
        self.problems = problems
        extra = params_columns(columns)
        frames = {}
        for name in TABLES:
            # the parameters' columns come last (params_columns names them apart from the others)
            frame = pd.DataFrame({column: _typed(values)
                                  for column, values in (*columns[name].items(), *extra[name].items())})
            if "time" in frame:
                frame["time"] = pd.to_datetime(frame["time"], unit="s", utc=True)
            frames[name] = frame
        self.moves = frames["moves"]
        self.games = frames["games"]
        self.refusals = frames["refusals"]
        self.notes = frames["notes"]
        self.feedback = frames["feedback"]

    @property
    def sessions(self) -> int:
        """How many sessions the tables hold."""
        return len(self.sources)

    def table(self, name: str) -> Any:
        if name not in TABLES:
            raise ValueError(f"the tables are {', '.join(TABLES)}, not {name!r}")
        return getattr(self, name)

    def to_csv(self, directory: str | Path) -> list[Path]:
        """Write the five tables as ``<directory>/<table>.csv``; returns the paths.

        Text that a spreadsheet would run as a formula (a note or a name beginning with ``=``,
        ``+``, ``-``, ``@``, a tab or a carriage return: ``=HYPERLINK(...)`` is a live link) is
        written with a ``'`` before it, so it opens as the text it is.
        """
        return self._write(directory, "csv")

    def to_parquet(self, directory: str | Path) -> list[Path]:
        """Write the five tables as ``<directory>/<table>.parquet`` (needs pyarrow: the lab extra)."""
        return self._write(directory, "parquet")

    def _write(self, directory: str | Path, kind: str) -> list[Path]:
        folder = Path(directory)
        folder.mkdir(parents=True, exist_ok=True)
        written = []
        for name in TABLES:
            path = folder / f"{name}.{kind}"
            frame = self.table(name)
            if kind == "csv":
                _inert_cells(frame).to_csv(path, index=False)
            else:
                frame.to_parquet(path, index=False)
            written.append(path)
        return written

    # plots and tests (each in a module of its own)
    def think_time(self, by: str = "seat", who: str = "people") -> Any:
        """Box plots of think time per ``by`` (``seat``, ``phase``, ``kind``, ``params``, ``player``)."""
        from .plots import think_time
        return think_time(self, by, who)

    def game_length(self, by: str = "params") -> Any:
        """Game length in minutes and in moves, per ``by`` (``params``, ``session``)."""
        from .plots import game_length
        return game_length(self, by)

    def rule_confusion(self, top: int = 10) -> Any:
        """The rules players bump into most: refused attempts by the rule cited, with the rule's text."""
        from .plots import rule_confusion
        return rule_confusion(self, top)

    def humans_and_bots(self) -> Any:
        """People and bots side by side: what kinds of move each plays, and how long a move takes."""
        from .plots import humans_and_bots
        return humans_and_bots(self)

    def feedback_by_params(self) -> Any:
        """Every feedback question with a scale or choices, answers per parameter set."""
        from .plots import feedback_by_params
        return feedback_by_params(self)

    def heatmap(self, game: str | None = None, split: str = "human") -> Any:
        """Where play happens, drawn on the game's own board: people's moves and bots' side by side."""
        from .heatmap import heatmap
        return heatmap(self, game, split)

    def compare_think_time(self, param: str, a: Any, b: Any, who: str = "people") -> Any:
        """Do players think longer with ``param`` = ``a`` than with ``b``? A test, with its p-value."""
        from .stats import compare_think_time
        return compare_think_time(self, param, a, b, who)

    def __repr__(self) -> str:
        copies = self.problems["earlier copies left out"]
        return (f"<Playtests: {self.sessions} sessions, {len(self.games)} games, {len(self.moves)} moves, "
                f"{len(self.refusals)} refusals, {len(self.notes)} notes, {len(self.feedback)} feedback answers"
                + (f"; {self.problems['files refused']} files refused" if self.problems["files refused"] else "")
                + (f"; {copies} earlier cop{'y' if copies == 1 else 'ies'} left out" if copies else "") + ">")


#: what a spreadsheet takes for the start of a formula in a cell of a CSV file
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _inert_cells(frame: Any) -> Any:
    """``frame`` with every text cell a spreadsheet would run as a formula quoted with a ``'``."""
    from pandas.api.types import is_bool_dtype, is_datetime64_any_dtype, is_numeric_dtype
    texts = [c for c in frame.columns if not (is_numeric_dtype(frame[c]) or is_bool_dtype(frame[c])
                                              or is_datetime64_any_dtype(frame[c]))]
    if not texts:
        return frame
    frame = frame.copy()
    for column in texts:
        frame[column] = frame[column].map(
            lambda v: "'" + v if isinstance(v, str) and v.startswith(_FORMULA_START) else v)
    return frame
