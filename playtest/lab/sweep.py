"""``sweep``: simulate a game for every value of one or two parameters; a table and a plot."""

from __future__ import annotations

import base64
import itertools
import math
from html import escape
import time
from concurrent.futures import Executor
from typing import Any, Iterable, Mapping

from .._optional import need
from ..rules import Game
from ._play import BotSpec, Job, seat_bots
from ._run import run_jobs
from .result import SimulationResult, shown
from .simulation import check_count, resolve_game, run_seed
from .tables import MEANINGS, notes_for

__all__ = ["sweep", "SweepResult", "grid_games"]


def _grid(grid: Mapping[str, Iterable[Any]] | str, values: Iterable[Any] | None) -> dict[str, list[Any]]:
    if isinstance(grid, str):
        if values is None:
            raise ValueError(f"sweep over {grid!r} needs its values: sweep(game, {{{grid!r}: [...]}})")
        grid = {grid: values}
    elif values is not None:
        raise ValueError("give the values inside the grid: sweep(game, {name: values, ...})")
    if not isinstance(grid, Mapping) or not 1 <= len(grid) <= 2:
        raise ValueError("sweep takes one or two parameters: {name: values} or {name: values, other: values}")
    out = {name: list(vals) for name, vals in grid.items()}
    for name, vals in out.items():
        if not vals:
            raise ValueError(f"sweep: no values for {name}")
    return out


def grid_games(game: Game | str, grid: dict[str, list[Any]], params: dict[str, Any]) -> list[tuple[tuple, Game]]:
    """Every combination of the grid's values, with the game for it (each value validated)."""
    names = list(grid)
    games = [resolve_game(game, {**params, **dict(zip(names, combo))})
             for combo in itertools.product(*(grid[n] for n in names))]
    # each value as the game holds it (a NumPy number from np.arange a plain int, a list a tuple)
    return [(tuple(getattr(made.params, n) for n in names), made) for made in games]


def grid_jobs(combos: list[tuple[tuple, Game]], names: list[str], bots: BotSpec, seed: Any, max_steps: int,
              running_scores: Any) -> list[Job]:
    jobs = []
    for combo, game in combos:
        seat_bots(game, bots, "check")
        columns = {**game.params.changed(), **dict(zip(names, combo))}
        jobs.append(Job(game, bots, seed, max_steps, running_scores, tuple(columns.items()), label=combo))
    return jobs


def sweep(game: Game | str, grid: Mapping[str, Iterable[Any]] | str, values: Iterable[Any] | None = None,
          bots: BotSpec = None, games: int = 100, seed: Any = 0, executor: Executor | None = None,
          progress: bool = True, *, max_steps: int = 100_000, running_scores: Any = None,
          **params: Any) -> "SweepResult":
    """Simulate ``game`` for every value (or pair of values) of the grid: "is it fairer with a budget of 10?"

    ``grid`` is ``{parameter: values}`` with one or two parameters (the older
    ``sweep(game, "wall_budget", [8, 12])`` works too). Every parameter set plays
    the same game seeds (``seed``), so the values are compared on the same dice.
    ``bots``, ``executor``, ``progress`` and the rest are as for
    :func:`playtest.simulate`; all the games of the sweep share one executor and one
    progress bar. The result displays as a table and a plot (:meth:`SweepResult.plot`).

    >>> import playtest
    >>> result = playtest.sweep("eat_thyself", {"count_empty_tiles": [True, False]}, games=10, progress=False)
    >>> result.values
    [True, False]
    >>> list(result.table().columns)
    ['Triangle ▲', 'Circle ●']
    """
    grid = _grid(grid, values)
    games = check_count(games)
    seed = run_seed(seed)
    names = list(grid)
    combos = grid_games(game, grid, params)
    jobs = grid_jobs(combos, names, bots, seed, max_steps, running_scores)
    started = time.perf_counter()
    name = combos[0][1].name
    rows = run_jobs(jobs, games, executor, progress, desc=f"{name} sweep")
    seconds = (time.perf_counter() - started) / len(jobs)
    results = [SimulationResult.from_rows(g, r, seconds=seconds, seed=seed) for (_, g), r in zip(combos, rows)]
    return SweepResult(names, [c for c, _ in combos], results)


class SweepResult:
    """Simulation results for every parameter set of a sweep.

    ``params`` are the swept parameters; ``values`` their values (a list of
    values for one parameter, of pairs for two); ``results`` a
    :class:`SimulationResult` for each; ``frame`` every measure of every set
    (a long pandas DataFrame); :meth:`table` one measure as a table;
    :meth:`plot` one measure as a line with its interval band (one parameter)
    or a heat map (two).
    """

    def __init__(self, params: list[str], combos: list[tuple], results: list[SimulationResult]):
        self.params = list(params)
        self.combos = list(combos)
        self.values = [c[0] for c in combos] if len(params) == 1 else [tuple(c) for c in combos]
        self.results = results

    @property
    def name(self) -> str:
        """The swept parameter (the first one for two)."""
        return self.params[0]

    @property
    def frame(self) -> Any:
        """Every measure of every parameter set: the parameters' columns, then :meth:`SimulationResult.summary`'s."""
        pd = need("pandas", "a lab table")
        parts = []
        for combo, result in zip(self.combos, self.results):
            part = result.summary()
            for k, (name, value) in enumerate(zip(self.params, combo)):
                part.insert(k, name, [value] * len(part))
            parts.append(part)
        return pd.concat(parts, ignore_index=True)

    def table(self, metric: str = "win rate", column: str = "value") -> Any:
        """One measure (``column``: value, low or high) per parameter set and per seat or side."""
        frame = self.frame
        chosen = frame[frame["metric"] == metric]
        if chosen.empty:
            known = ", ".join(dict.fromkeys(frame["metric"]))
            raise ValueError(f"no measure {metric!r}; the measures are: {known}")
        index = self.params if len(self.params) > 1 else self.params[0]
        table = chosen.pivot_table(index=index, columns="who", values=column, sort=False, dropna=False)
        order = list(dict.fromkeys(chosen["who"]))
        table = table[order]
        table.columns.name = None
        return table

    def rows(self) -> list[dict[str, Any]]:
        """One row per parameter set: its values, the draw rate, the mean length and each seat's win rate."""
        out = []
        for combo, res in zip(self.combos, self.results):
            row = dict(zip(self.params, combo))
            row.update({"draws": res.draw_rate, "mean_steps": res.mean_steps})
            for seat in res.rows():
                row[seat["name"]] = seat["win_rate"]
            out.append(row)
        return out

    def measures(self, *metrics: str) -> Any:
        """Measures per parameter set with their 95% intervals, ``value (low–high)``, each column
        explained below the table (:class:`~playtest.lab.tables.ExplainedTable`; by default the win
        rates, decisiveness and lead changes).

        >>> import playtest
        >>> result = playtest.sweep("source", {"first_turn_ap": [1, 2]}, games=6, progress=False)
        >>> table = result.measures("decisiveness")
        >>> list(table.frame.columns), [c for c, _ in table.notes][:2]
        ([('decisiveness', '')], ['decisiveness', '95% interval'])
        """
        pd = need("pandas", "a lab table")
        from .tables import ExplainedTable
        metrics = metrics or ("win rate", "decisiveness", "lead changes")
        columns = {}
        for metric in metrics:
            value, low, high = (self.table(metric, c) for c in ("value", "low", "high"))
            for who in value.columns:
                columns[(metric, who)] = [_with_interval(metric, v, lo, hi)
                                          for v, lo, hi in zip(value[who], low[who], high[who])]
        frame = pd.DataFrame(columns, index=value.index)
        return ExplainedTable(frame, title=f"{self.results[0].game.title}: {self.results[0].n} games per parameter set, "
                                           "value (95% interval)", intervals=True)

    def plot(self, metric: str = "win rate", who: str | Iterable[str] | None = None, ax: Any = None) -> Any:
        """A matplotlib figure of ``metric``: against the value with its 95% band for one parameter,
        a heat map for two (``who``: the seat or side, by default the first). It displays as a
        picture in a notebook, pyplot or not (:class:`playtest.lab.plots.Figure`); whole-number
        values get whole-number ticks.

        >>> import playtest
        >>> result = playtest.sweep("source", {"first_turn_ap": [1, 2, 3]}, games=4, progress=False)
        >>> figure = result.plot()
        >>> [tick.get_text() for tick in figure.axes[0].get_xticklabels()], figure._repr_png_()[:4]
        (['1', '2', '3'], b'\x89PNG')
        """
        need("matplotlib", "a lab figure")
        from .plots import Figure, integer_ticks, percent_axis
        value, low, high = (self.table(metric, c) for c in ("value", "low", "high"))
        if ax is None:
            fig = Figure(figsize=(6.4, 4.0), layout="constrained")
            ax = fig.subplots()
        else:
            fig = ax.figure
        whos = list(value.columns) if who is None else ([who] if isinstance(who, str) else list(who))
        title = self.results[0].game.title
        if len(self.params) == 1:
            labels = list(value.index)
            numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in labels)
            x = labels if numeric else list(range(len(labels)))
            for name in whos:
                line = ax.plot(x, value[name].to_numpy(), marker="o", label=name or metric)[0]
                ax.fill_between(x, low[name].to_numpy(dtype=float), high[name].to_numpy(dtype=float),
                                color=line.get_color(), alpha=0.2)
            if not numeric:
                ax.set_xticks(x, [str(v) for v in labels])
            elif all(isinstance(v, int) for v in labels):
                integer_ticks(ax.xaxis, labels)
            if "rate" in metric or metric == "first-player advantage":
                percent_axis(ax.yaxis)
            ax.set_xlabel(self.params[0])
            ax.set_ylabel(f"{metric} (95% band)")
            if len(whos) > 1 or whos[0]:
                ax.legend()
            ax.set_title(title)
            return fig
        name = whos[0]
        first, second = self.params
        xs = list(dict.fromkeys(c[0] for c in self.combos))
        ys = list(dict.fromkeys(c[1] for c in self.combos))
        grid = [[float(value[name].loc[(x, y)]) for x in xs] for y in ys]
        image = ax.imshow(grid, origin="lower", aspect="auto", cmap="viridis")
        for j, y in enumerate(ys):
            for i, x in enumerate(xs):
                v, lo, hi = (float(t[name].loc[(x, y)]) for t in (value, low, high))
                text = "–" if math.isnan(v) else (f"{v:.0%}\n{lo:.0%}–{hi:.0%}" if "rate" in metric
                                                 else f"{v:.1f}\n{lo:.1f}–{hi:.1f}")
                ax.text(i, j, text, ha="center", va="center", fontsize=8, color="white")
        ax.set_xticks(range(len(xs)), [str(x) for x in xs])
        ax.set_yticks(range(len(ys)), [str(y) for y in ys])
        ax.set_xlabel(first)
        ax.set_ylabel(second)
        ax.set_title(f"{title}: {metric}{' of ' + name if name else ''}")
        fig.colorbar(image, ax=ax)
        return fig

    def _png(self) -> str:
        return base64.b64encode(self.plot()._repr_png_()).decode("ascii")

    def _repr_html_(self) -> str:
        table = self.table()
        shown = table.copy()
        low, high = self.table(column="low"), self.table(column="high")
        for name in shown.columns:
            shown[name] = [f"{v:.0%} ({lo:.0%}–{hi:.0%})" for v, lo, hi in zip(table[name], low[name], high[name])]
        games = self.results[0].n
        notes = "".join(f"<li><i>{escape(c)}</i>: {escape(m)}</li>" for c, m in notes_for(["win rate", "95% interval"]))
        return (f"<p><b>{escape(self.results[0].game.title)}</b>: win rates (95% interval), {games} games per set, "
                f"the same game seeds for every set</p>" + shown.to_html() + f'<ul style="font-size: smaller">{notes}'
                f'</ul><img alt="win rate by {escape(", ".join(self.params))}" '
                f'src="data:image/png;base64,{self._png()}"/>')

    def _repr_markdown_(self) -> str:
        seats = self.results[0].game.seats()
        head = "| " + " | ".join(self.params) + " | " + " | ".join(s.name for s in seats) + " | draws | mean steps |"
        lines = [head, "|" + " --- |" * (len(self.params) + len(seats) + 2)]
        for combo, res in zip(self.combos, self.results):
            rates = " | ".join(f"{res.win_rate(i):.0%}" for i in range(len(seats)))
            lines.append(f"| {' | '.join(str(v) for v in combo)} | {rates} | {res.draw_rate:.0%} | "
                         f"{res.mean_steps:.0f} |")
        notes = notes_for(["win rate", "draw rate"]) + [("mean steps", MEANINGS["game length"])]
        return "\n".join(lines + [""] + [f"* *{c}*: {m}" for c, m in notes])

    def __repr__(self) -> str:
        return f"<SweepResult {self.results[0].game.name} over {', '.join(self.params)}: {len(self.results)} sets>"


def _with_interval(metric: str, value: float, low: float, high: float) -> str:
    """``value (low–high)`` as the lab writes ``metric``: shares as percentages, counts with a decimal."""
    if low is None or value is None or math.isnan(low) or math.isnan(value):
        return shown(metric, value)
    return f"{shown(metric, value)} ({shown(metric, low)}–{shown(metric, high)})"
