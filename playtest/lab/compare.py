"""``compare``: are two parameter sets' win rates different? The test, its p-value, and the games a
smaller difference would need.

The test, per seat (and per team), on the 2×2 table of wins and other results
(draws count as not winning) of A's games and B's: Fisher's exact test when an
expected count of the table is below 5, else the two-proportion z-test with the
pooled rate, both two-sided.

Games needed (power): to tell apart a rate ``p1`` and ``p2 = p1 + d`` with a
two-sided test at level ``alpha`` and the chance ``power`` to find it, each side
needs about ``n = (z(1-alpha/2) * sqrt(2 * q * (1-q)) + z(power) * sqrt(p1*(1-p1) + p2*(1-p2)))**2 / d**2``
games, with ``q = (p1 + p2) / 2`` (the usual normal approximation; Fleiss,
*Statistical Methods for Rates and Proportions*). ``p1`` is A's observed rate.

>>> games_needed(0.5, 0.1)
388
"""

from __future__ import annotations

import math
from concurrent.futures import Executor
from statistics import NormalDist
from typing import Any, Mapping

from .._optional import need
from ..rules import Game
from ._play import BotSpec
from ._run import run_jobs
from .metrics import teams
from .result import SimulationResult
from .simulation import check_count, resolve_game, run_seed
from .sweep import grid_jobs

__all__ = ["compare", "Comparison", "two_proportion_test", "games_needed"]


def two_proportion_test(wins_a: int, n_a: int, wins_b: int, n_b: int) -> tuple[str, float]:
    """The test used and its two-sided p-value for ``wins_a / n_a`` against ``wins_b / n_b``.

    >>> test, p = two_proportion_test(30, 100, 45, 100)
    >>> test, round(p, 4)
    ('two-proportion z-test', 0.0285)
    >>> two_proportion_test(1, 10, 6, 10)[0]
    "Fisher's exact test"
    """
    table = [[wins_a, n_a - wins_a], [wins_b, n_b - wins_b]]
    total = n_a + n_b
    cols = [wins_a + wins_b, total - wins_a - wins_b]
    expected = [r * c / total for r in (n_a, n_b) for c in cols] if total else [0]
    if min(expected) < 5:
        fisher_exact = need("scipy.stats", "a lab statistic").fisher_exact
        return "Fisher's exact test", float(fisher_exact(table, alternative="two-sided")[1])
    pooled = cols[0] / total
    se = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    if se == 0:
        return "two-proportion z-test", 1.0
    z = (wins_a / n_a - wins_b / n_b) / se
    return "two-proportion z-test", math.erfc(abs(z) / math.sqrt(2))


def games_needed(rate: float, difference: float, alpha: float = 0.05, power: float = 0.8) -> int | None:
    """Games per side to find a ``difference`` from ``rate`` (see the module docstring); None for 0."""
    d = abs(difference)
    if d == 0:
        return None
    p1 = min(max(rate, 0.0), 1.0)
    p2 = p1 + d if p1 + d <= 1 else p1 - d
    q = (p1 + p2) / 2
    za, zb = NormalDist().inv_cdf(1 - alpha / 2), NormalDist().inv_cdf(power)
    n = (za * math.sqrt(2 * q * (1 - q)) + zb * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))) ** 2 / d ** 2
    return max(1, math.ceil(n))


def compare(game: Game | str, params_a: Mapping[str, Any], params_b: Mapping[str, Any], bots: BotSpec = None,
            games: int = 200, seed: Any = 0, executor: Executor | None = None, progress: bool = True, *,
            alpha: float = 0.05, power: float = 0.8, smaller: float | None = None, max_steps: int = 100_000,
            **params: Any) -> "Comparison":
    """A/B test: play ``games`` games with ``params_a`` and as many with ``params_b``; for every
    seat and team, the two win rates, the test and its p-value, and the games per side
    that a smaller difference would need (``smaller``; by default half the observed
    difference) at level ``alpha`` with ``power`` (see :mod:`playtest.lab.compare`).

    A and B are played on independent seeds (``seed`` with ``/a`` and ``/b``), as
    the test assumes. ``bots``, ``executor`` and ``progress`` as for :func:`playtest.simulate`.

    >>> import playtest
    >>> ab = playtest.compare("source", {"first_turn_ap": 1}, {"first_turn_ap": 3}, games=20, progress=False)
    >>> list(ab.table.columns)[:4]
    ['who', 'A', 'B', 'difference']
    """
    games = check_count(games)
    seed = run_seed(seed)
    game_a = resolve_game(game, {**params, **params_a})
    game_b = resolve_game(game, {**params, **params_b})
    jobs_a = grid_jobs([((), game_a)], [], bots, f"{seed}/a", max_steps, None)
    jobs_b = grid_jobs([((), game_b)], [], bots, f"{seed}/b", max_steps, None)
    rows = run_jobs(jobs_a + jobs_b, games, executor, progress, desc=f"{game_a.name} A/B")
    result_a = SimulationResult.from_rows(game_a, rows[0], seed=f"{seed}/a")
    result_b = SimulationResult.from_rows(game_b, rows[1], seed=f"{seed}/b")
    return Comparison(dict(params_a), dict(params_b), result_a, result_b, alpha, power, smaller)


class Comparison:
    """An A/B comparison: ``a`` and ``b`` (:class:`SimulationResult`) and ``table``, one row per seat
    and team: who, A and B (win rates), difference (B - A), test, p_value, significant,
    smaller (the smaller difference asked about), games_needed (per side, for it)."""

    def __init__(self, params_a: dict, params_b: dict, a: SimulationResult, b: SimulationResult,
                 alpha: float = 0.05, power: float = 0.8, smaller: float | None = None):
        self.params_a, self.params_b, self.a, self.b = params_a, params_b, a, b
        self.alpha, self.power, self._smaller = alpha, power, smaller
        self.table = self._make_table()

    def _sides(self) -> list[tuple[int, ...]]:
        winners = [tuple(w) for w in list(self.a.games["winners"]) + list(self.b.games["winners"])]
        seats = len(self.a.game.seats())
        sides = [(s,) for s in range(seats)]
        return sides + [t for t in teams(winners, seats) if len(t) > 1]

    def _make_table(self) -> Any:
        pd = need("pandas", "a lab table")
        rows = []
        for side in self._sides():
            wa = sum(1 for w in self.a.games["winners"] if set(side) <= set(w))
            wb = sum(1 for w in self.b.games["winners"] if set(side) <= set(w))
            na, nb = self.a.n, self.b.n
            test, p = two_proportion_test(wa, na, wb, nb)
            diff = wb / nb - wa / na
            smaller = self._smaller if self._smaller is not None else (abs(diff) / 2 or 0.05)
            rows.append({"who": self.a.side_name(side), "A": wa / na, "B": wb / nb, "difference": diff,
                         "test": test, "p_value": p, "significant": p < self.alpha, "smaller": smaller,
                         "games_needed": games_needed(wa / na, smaller, self.alpha, self.power)})
        return pd.DataFrame(rows)

    def paid(self) -> bool:
        """Whether the game pays out more than win or lose (chips, points): then :meth:`returns` compares it."""
        return any(bool(v) for r in (self.a, self.b) if "paid" in r.games for v in r.games["paid"])

    def returns(self) -> Any:
        """Mean return per seat with each parameter set, and Welch's t-test of the difference:
        one row per seat (who, A, B, difference, p_value, significant). The game's own payoff,
        or +1/-1/0 for a game that only names winners."""
        pd = need("pandas", "a lab table")
        ttest_ind = need("scipy.stats", "a lab statistic").ttest_ind
        rows = []
        for seat, info in enumerate(self.a.game.seats()):
            a = [v for v in self.a.games.get(f"return_{seat}", []) if v is not None and not math.isnan(v)]
            b = [v for v in self.b.games.get(f"return_{seat}", []) if v is not None and not math.isnan(v)]
            if len(a) < 2 or len(b) < 2:
                continue
            mean_a, mean_b = sum(a) / len(a), sum(b) / len(b)
            same = len(set(a) | set(b)) == 1
            p = 1.0 if same else float(ttest_ind(a, b, equal_var=False).pvalue)
            p = 1.0 if math.isnan(p) else p
            rows.append({"who": info.name, "A": mean_a, "B": mean_b, "difference": mean_b - mean_a,
                         "test": "Welch's t-test", "p_value": p, "significant": p < self.alpha})
        return pd.DataFrame(rows, columns=["who", "A", "B", "difference", "test", "p_value", "significant"])

    def _lines(self) -> list[str]:
        a = ", ".join(f"{k}={v!r}" for k, v in self.params_a.items()) or "defaults"
        b = ", ".join(f"{k}={v!r}" for k, v in self.params_b.items()) or "defaults"
        out = [f"**{self.a.game.title}**: A ({a}) against B ({b}), {self.a.n} games each", "",
               "| who | A | B | B − A | test | p-value | verdict | a difference of | needs games per side |",
               "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
        for r in self.table.itertuples():
            verdict = f"different (p < {self.alpha:g})" if r.significant else "no clear difference"
            needed = "–" if r.games_needed is None else f"{r.games_needed:,}"
            out.append(f"| {r.who} | {r.A:.0%} | {r.B:.0%} | {r.difference:+.0%} | {r.test} | {r.p_value:.3g} | "
                       f"{verdict} | {r.smaller:.0%} | {needed} |")
        out += ["", "* *A*, *B*: the share of games the seat (or side) won with each parameter set.",
                "* *p-value*: how often a difference at least this large would appear if the two sets played "
                "alike (the two-proportion z-test, or Fisher's exact test when a count is small); below "
                f"{self.alpha:g} the verdict is *different*.",
                f"* *needs games per side*: to find that difference with a two-sided test at {self.alpha:g} and "
                f"{self.power:.0%} power (normal approximation around A's rate)."]
        if self.paid():
            out += ["", "| who | mean return A | mean return B | B − A | p-value (Welch's t-test) | verdict |",
                    "| --- | --- | --- | --- | --- | --- |"]
            for r in self.returns().itertuples():
                verdict = f"different (p < {self.alpha:g})" if r.significant else "no clear difference"
                out.append(f"| {r.who} | {r.A:+.3f} | {r.B:+.3f} | {r.difference:+.3f} | {r.p_value:.3g} | {verdict} |")
            out += ["", "* *mean return*: what the seat gains a game on average, in the game's own payoff."]
        return out

    def _repr_markdown_(self) -> str:
        return "\n".join(self._lines())

    def __repr__(self) -> str:
        parts = [f"{r.who}: {r.A:.0%} -> {r.B:.0%} (p={r.p_value:.3g})" for r in self.table.itertuples()]
        return f"<Comparison {self.a.game.name}: " + "; ".join(parts) + ">"
