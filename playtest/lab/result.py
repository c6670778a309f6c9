"""The result of a simulation: the table of games, and its summary with 95% intervals."""

from __future__ import annotations

import math
from typing import Any, Iterable

from .._optional import need
from ..rules import Game
from . import metrics
from .tables import notes_for

__all__ = ["SimulationResult"]


def _dataframe(rows: list[dict[str, Any]], seats: int) -> Any:
    pd = need("pandas", "a lab table")
    columns = ["game", "seed"]
    frame = pd.DataFrame(rows)
    if frame.empty:
        base = ["first_seat", "winners", "draw", "timeout", "reason", "length", "decisions", "branching",
                "lead_changes", "decisiveness"]
        frame = pd.DataFrame(columns=columns + base + [f"{k}_{s}" for s in range(seats)
                                                        for k in ("result", "score")])
    for name in ("first_seat", "lead_changes"):
        if name in frame:
            frame[name] = frame[name].astype("Int64")
    for name in ("branching", "decisiveness") + tuple(f"score_{s}" for s in range(seats)):
        if name in frame:
            frame[name] = frame[name].astype("float64")
    return frame


class SimulationResult:
    """Many bot games of one game: ``games``, a pandas DataFrame with one row per game, and
    :meth:`summary`, every measure with its 95% interval (see :mod:`playtest.lab.metrics`).

    The columns of ``games``: ``game`` (its number in the run), ``seed`` (its chance
    steps replay with ``playtest.Session(game, seed=...)``), the parameters that differ
    from the defaults (one named like a measure below as ``"<name> (parameter)"``), ``first_seat`` (the seat that took the first decision; missing
    when it was a simultaneous step), ``winners``, ``draw`` (no winner, timeouts
    included), ``timeout`` (stopped by the lab's ``max_steps`` or a draw by one of the
    game's ``max_...`` caps), ``reason``, ``length`` (steps, chance included),
    ``decisions``, ``branching`` (legal actions at a decision, counted at a sample of the
    decisions: ``branching_counted`` of them), ``lead_changes``, ``decisiveness``,
    ``stalled`` (stopped by ``max_steps``: the game did not end), and per seat
    ``result_<seat>`` (win, loss or draw), ``score_<seat>`` (the game's final score) and
    ``return_<seat>`` (its payoff: chips or points for a game that pays out, else +1, -1 or 0),
    with ``paid`` telling which. A game that pays out gets a ``mean return`` per seat in :meth:`summary`.

    ``wins`` (games won by each seat, a team win counting for each member), ``draws``,
    ``steps`` and ``reasons`` are kept as counts; :meth:`win_rate` and :meth:`rows`
    as before. A bare count (``SimulationResult(game=..., games=10, wins={}, draws=0)``,
    filled in by hand) still works for code that tallies its own games; it has no table.
    """

    def __init__(self, game: Game, games: Any = 0, wins: dict[int, int] | None = None, draws: int = 0,
                 steps: list[int] | None = None, reasons: dict[str, int] | None = None, seconds: float = 0.0,
                 scores: list[tuple] | None = None, seed: Any = None):
        self.game = game
        self.games = games
        self.seconds = seconds
        self.seed = seed
        if isinstance(games, int):       # a tally kept by hand
            self.wins = dict(wins or {})
            self.draws = draws
            self.steps = list(steps or [])
            self.reasons = dict(reasons or {})
            self.scores = list(scores or [])
            return
        winner_sets = games["winners"].tolist() if len(games) else []
        self.wins = {}
        for ws in winner_sets:
            for s in ws:
                self.wins[s] = self.wins.get(s, 0) + 1
        self.draws = sum(1 for ws in winner_sets if not ws)
        self.steps = [int(x) for x in games["length"].tolist()] if len(games) else []
        self.reasons = {}
        for reason in (games["reason"].tolist() if len(games) else []):
            self.reasons[reason] = self.reasons.get(reason, 0) + 1
        seats = len(game.seats())
        columns = [games[f"score_{s}"].tolist() for s in range(seats)] if len(games) else []
        self.scores = [values for values in zip(*columns) if not any(math.isnan(v) for v in values)]

    @classmethod
    def from_rows(cls, game: Game, rows: Iterable[dict[str, Any]], seconds: float = 0.0,
                  seed: Any = None) -> "SimulationResult":
        """A result from rows of games (as :func:`playtest.simulate` makes them, or by hand).

        >>> import playtest
        >>> game = playtest.load("source")
        >>> rows = [{"game": 0, "seed": 1, "first_seat": 0, "winners": (0,), "reason": "A wins", "length": 10},
        ...         {"game": 1, "seed": 2, "first_seat": 0, "winners": (1,), "reason": "B wins", "length": 20}]
        >>> result = SimulationResult.from_rows(game, rows)
        >>> result.win_rate(0), result.mean_steps, len(result.games)
        (0.5, 15.0, 2)
        """
        seats = len(game.seats())
        full = []
        for row in rows:
            row = dict(row)
            winners = tuple(row.get("winners", ()))
            row["winners"] = winners
            row.setdefault("draw", not winners)
            row.setdefault("timeout", False)
            row.setdefault("reason", "")
            row.setdefault("length", 0)
            row.setdefault("decisions", row["length"])
            for key in ("first_seat", "branching", "lead_changes", "decisiveness"):
                row.setdefault(key, None)
            for s in range(seats):
                row.setdefault(f"result_{s}", "win" if s in winners else ("draw" if not winners else "loss"))
                row.setdefault(f"score_{s}", None)
                row.setdefault(f"return_{s}", None)
            full.append(row)
        return cls(game, _dataframe(full, seats), seconds=seconds, seed=seed)

    # ------------------------------------------------------------------ counts, as before
    @property
    def n(self) -> int:
        """The number of games."""
        return self.games if isinstance(self.games, int) else len(self.games)

    def win_rate(self, seat: int) -> float:
        """Share of games won by ``seat`` (a team win counts for each member)."""
        return self.wins.get(seat, 0) / self.n if self.n else 0.0

    @property
    def draw_rate(self) -> float:
        """Share of games without a winner (timeouts included)."""
        return self.draws / self.n if self.n else 0.0

    @property
    def mean_steps(self) -> float:
        return sum(self.steps) / len(self.steps) if self.steps else 0.0

    def rows(self) -> list[dict[str, Any]]:
        """One row per seat: name, wins, win rate, and its 95% Wilson interval."""
        out = []
        for seat, info in enumerate(self.game.seats()):
            wins = self.wins.get(seat, 0)
            low, high = metrics.wilson(wins, self.n)
            out.append({"seat": seat, "name": info.name, "wins": wins, "win_rate": self.win_rate(seat),
                        "low": low, "high": high})
        return out

    # ------------------------------------------------------------------ the measures
    def _table(self) -> Any:
        if isinstance(self.games, int):
            raise ValueError("this result is a bare count of wins (no table of games): "
                             "use playtest.simulate for the full measures")
        return self.games

    def _winner_sets(self) -> list[tuple[int, ...]]:
        return [tuple(w) for w in self._table()["winners"]]

    def teams(self) -> list[tuple[int, ...]]:
        """The sides: seats that won exactly the same games form a team (see :func:`metrics.teams`)."""
        return metrics.teams(self._winner_sets(), len(self.game.seats()))

    def side_name(self, side: Iterable[int]) -> str:
        names = [self.game.seats()[s].name for s in side]
        return " + ".join(names)

    def first_player_advantage(self) -> dict[str, float]:
        """The first mover's win rate against its fair share (see :func:`metrics.first_player_advantage`)."""
        table = self._table()
        firsts = [None if v is None else int(v) for v in _values(table["first_seat"])]
        return metrics.first_player_advantage(firsts, self._winner_sets(), len(self.game.seats()))

    def summary(self) -> Any:
        """Every measure with its 95% interval, one row each: ``metric``, ``who``, ``value``,
        ``low``, ``high`` and ``games`` (how many games the value is over).

        Win rates per seat and per team (Wilson), the first-player advantage,
        the draw rate (no winner, timeouts included) and the timeout rate
        (Wilson), the mean game length in steps, decisiveness and lead changes
        (Student t, over the games where they are defined), and the branching
        factor (pooled over every decision step, ratio-estimator interval).

        >>> import playtest
        >>> table = playtest.simulate("source", games=10, seed=1, progress=False).summary()
        >>> list(table["metric"])[:3]
        ['win rate', 'win rate', 'first-player advantage']
        """
        pd = need("pandas", "a lab table")
        table = self._table()
        n = len(table)
        out = []

        def share(metric: str, who: str, count: int, of: int) -> None:
            low, high = metrics.wilson(count, of)
            out.append({"metric": metric, "who": who, "value": count / of if of else math.nan,
                        "low": low, "high": high, "games": of})

        winner_sets = self._winner_sets()
        for seat, info in enumerate(self.game.seats()):
            share("win rate", info.name, sum(1 for w in winner_sets if seat in w), n)
        if "paid" in table and any(bool(v) for v in table["paid"]):       # a game that pays out: how much, too
            try:
                least, most = (float(x) for x in self.game.returns_range())
            except Exception:        # noqa: BLE001 (a game's own hook: then no clipping)
                least, most = -math.inf, math.inf
            for seat, info in enumerate(self.game.seats()):
                value, low, high, count = metrics.mean_interval(
                    v for v in _values(table.get(f"return_{seat}", [])) if v is not None)
                # (a t-interval over few games reaches payoffs no game gives: kept within returns_range)
                low, high = max(low, least) if low == low else low, min(high, most) if high == high else high
                out.append({"metric": "mean return", "who": info.name, "value": value, "low": low, "high": high,
                            "games": count})
        for side in self.teams():
            if len(side) > 1:
                share("team win rate", self.side_name(side), sum(1 for w in winner_sets if set(side) <= set(w)), n)
        fpa = self.first_player_advantage()
        out.append({"metric": "first-player advantage", "who": "first mover", "value": fpa["advantage"],
                    "low": fpa["low"], "high": fpa["high"], "games": fpa["games"]})
        share("draw rate", "", sum(1 for w in winner_sets if not w), n)
        share("timeout rate", "", int(sum(bool(x) for x in table["timeout"])), n)
        for metric, column in (("game length", "length"), ("decisiveness", "decisiveness"),
                               ("lead changes", "lead_changes")):
            value, low, high, count = metrics.mean_interval(_values(table[column]))
            out.append({"metric": metric, "who": "", "value": value, "low": low, "high": high, "games": count})
        # the decisions whose legal actions were counted (a sample, see playtest.lab._play; every decision
        # in a table made by hand)
        weights = _values(table["branching_counted"]) if "branching_counted" in table else _values(table["decisions"])
        totals = [b * d for b, d in zip(_values(table["branching"]), weights) if b is not None and d]
        counts = [d for b, d in zip(_values(table["branching"]), weights) if b is not None and d]
        value, low, high, count = metrics.ratio_interval(totals, counts)
        out.append({"metric": "branching factor", "who": "", "value": value, "low": low, "high": high,
                    "games": count})
        return pd.DataFrame(out, columns=["metric", "who", "value", "low", "high", "games"])

    # ------------------------------------------------------------------ display
    def _heading(self) -> str:
        changed = ", ".join(f"{k}={v!r}" for k, v in self.game.params.changed().items())
        return (f"{self.game.title}{' (' + changed + ')' if changed else ''}: {self.n} games"
                + (f", seed {self.seed!r}" if self.seed is not None else "")
                + (f", {self.seconds:.1f} s" if self.seconds else ""))

    def _lines(self) -> list[tuple[str, str, str, str]]:
        """(metric, who, value, interval) in words, for the displays."""
        if isinstance(self.games, int):
            return [("win rate", r["name"], f"{r['win_rate']:.0%}", f"{r['low']:.0%}–{r['high']:.0%}")
                    for r in self.rows()] + [("draw rate", "", f"{self.draw_rate:.0%}", "")]
        lines = []
        for row in self.summary().itertuples():
            metric = str(row.metric)
            interval = "" if math.isnan(row.low) else f"{shown(metric, row.low)} to {shown(metric, row.high)}"
            lines.append((metric, str(row.who), shown(metric, row.value), interval))
        return lines

    def _notes(self, lines: list[tuple[str, str, str, str]]) -> list[tuple[str, str]]:
        """The meaning of every measure shown (and of the fair share and the interval)."""
        measures = list(dict.fromkeys(m for m, *_ in lines))
        if "first-player advantage" in measures:
            measures.insert(measures.index("first-player advantage") + 1, "fair share")
        return notes_for(measures + ["95% interval"])

    def _repr_markdown_(self) -> str:
        lines = self._lines()
        out = [f"**{self._heading()}**", "", "| measure | who | value | 95% interval |", "| --- | --- | --- | --- |"]
        out += [f"| {m} | {w} | {v} | {i} |" for m, w, v, i in lines]
        out += [""] + [f"* *{m}*: {text}" for m, text in self._notes(lines)]
        return "\n".join(out)

    def _repr_html_(self) -> str:
        from html import escape
        lines = self._lines()
        cells = "".join(f"<tr><td>{escape(m)}</td><td>{escape(w)}</td><td>{escape(v)}</td><td>{escape(i)}</td></tr>"
                        for m, w, v, i in lines)
        notes = "".join(f"<li><i>{escape(m)}</i>: {escape(text)}</li>" for m, text in self._notes(lines))
        return (f"<p><b>{escape(self._heading())}</b></p><table><thead><tr><th>measure</th><th>who</th>"
                f"<th>value</th><th>95% interval</th></tr></thead><tbody>{cells}</tbody></table>"
                f"<ul style=\"font-size: smaller\">{notes}</ul>")

    def __repr__(self) -> str:
        rates = ", ".join(f"{r['name']}: {r['win_rate']:.0%}" for r in self.rows())
        return f"<SimulationResult {self.game.name}, {self.n} games: {rates}, draws {self.draw_rate:.0%}>"


def _values(column: Any) -> list[Any]:
    """A column's values with pandas' missing markers as ``None``."""
    pd = need("pandas", "a lab table")
    return [None if v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v)) else v
            for v in column.tolist()]


def shown(metric: str, value: float) -> str:
    """A value of ``metric`` as the lab writes it: shares as percentages (the first-player advantage
    signed), decisiveness (a score from 0 to 1) with two decimals, counts and means with one.

    >>> shown("win rate", 0.25), shown("first-player advantage", 0.05), shown("decisiveness", 0.5)
    ('25%', '+5%', '0.50')
    """
    if value is None or math.isnan(value):
        return "–"
    if metric in ("game length", "lead changes", "branching factor"):
        return f"{value:.1f}"
    if metric == "decisiveness":
        return f"{value:.2f}"
    if metric == "mean return":
        return f"{value:+.3f}"
    return f"{value:+.0%}" if metric == "first-player advantage" else f"{value:.0%}"
