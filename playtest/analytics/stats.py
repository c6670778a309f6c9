"""A designer's question answered with a test: do players think longer with one parameter value than another?

Think times are skewed (most moves are quick, a few are long) and not normal, so
the test is Mann-Whitney's (one-sided: the first value's think times tend to be
longer). Moves of one player are not independent of each other, so the same test
is also run on each session's median think time: fewer numbers, but honest ones.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

__all__ = ["ThinkTimeTest", "compare_think_time"]


@dataclass(frozen=True)
class ThinkTimeTest:
    """The answer: medians, counts, and p-values per move and per session (smaller: stronger evidence)."""

    param: str
    a: Any
    b: Any
    who: str
    moves_a: int
    moves_b: int
    median_a: float
    median_b: float
    p_moves: float
    sessions_a: int
    sessions_b: int
    p_sessions: float

    @property
    def longer(self) -> bool:
        """Whether the per-move test says players think longer with ``a`` (at the 5% level)."""
        return self.p_moves < 0.05

    def _repr_markdown_(self) -> str:
        def p(value: float) -> str:
            return "n/a (too few)" if math.isnan(value) else f"{value:.3g}"
        return (f"**Do {self.who} think longer with `{self.param}` = {self.a} than with {self.b}?**\n\n"
                f"| | `{self.param}` = {self.a} | `{self.param}` = {self.b} |\n| --- | --- | --- |\n"
                f"| timed moves | {self.moves_a} | {self.moves_b} |\n"
                f"| median think time | {self.median_a:.1f} s | {self.median_b:.1f} s |\n"
                f"| sessions | {self.sessions_a} | {self.sessions_b} |\n\n"
                f"One-sided Mann-Whitney U test: p = {p(self.p_moves)} over moves; "
                f"p = {p(self.p_sessions)} over each session's median (moves of one player are not "
                "independent: the per-session test is the cautious one).")

    def __str__(self) -> str:
        return (f"{self.param}={self.a}: median {self.median_a:.1f} s over {self.moves_a} moves; "
                f"{self.param}={self.b}: median {self.median_b:.1f} s over {self.moves_b} moves; "
                f"p = {self.p_moves:.3g} (moves), {self.p_sessions:.3g} (session medians)")


def compare_think_time(pt: Any, param: str, a: Any, b: Any, who: str = "people") -> ThinkTimeTest:
    """Test whether think times with ``param`` = ``a`` tend to be longer than with ``param`` = ``b``."""
    from scipy.stats import mannwhitneyu
    moves = pt.moves
    column = param if param in moves.columns and param not in ("seat", "move", "kind") else f"param_{param}"
    if column not in moves.columns:
        raise ValueError(f"{param!r} does not vary across these playtests (the parameters that do: "
                         f"{', '.join(_varying(pt)) or 'none'})")
    if who not in ("people", "bots", "all"):
        raise ValueError(f"who is 'people', 'bots' or 'all', not {who!r}")
    rows = moves if who == "all" else moves[moves["human"] == (who == "people")]
    rows = rows[rows["think"].notna()]
    first, second = rows[rows[column] == a], rows[rows[column] == b]
    for value, part in ((a, first), (b, second)):
        if not len(part):
            values = ", ".join(map(str, sorted(moves[column].dropna().unique(), key=str)))
            raise ValueError(f"no timed moves of {who} with {param} = {value!r} (its values here: {values})")
    p_moves = float(mannwhitneyu(first["think"], second["think"], alternative="greater").pvalue)
    med_a = first.groupby("session")["think"].median()
    med_b = second.groupby("session")["think"].median()
    p_sessions = (float(mannwhitneyu(med_a, med_b, alternative="greater").pvalue)
                  if len(med_a) >= 2 and len(med_b) >= 2 else math.nan)
    return ThinkTimeTest(param, a, b, who, len(first), len(second), float(first["think"].median()),
                         float(second["think"].median()), p_moves, len(med_a), len(med_b), p_sessions)


def _varying(pt: Any) -> list[str]:
    fixed = {"session", "game", "game_no", "author", "player", "human", "bot", "seat", "seat_name", "node",
             "move", "kind", "notation", "t", "time", "think", "idle", "phase", "params"}
    return [c for c in pt.moves.columns if c not in fixed]
