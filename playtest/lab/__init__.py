"""The lab: bots play many games; win rates, fairness and pace with 95% intervals.

* :func:`simulate` plays one game many times (on every core, or any executor)
  and returns a :class:`SimulationResult`: a table of games (pandas) and a summary;
* :func:`sweep` does it for every value of one or two parameters, with a plot;
* :func:`compare` tests whether two parameter sets give different win rates;
* :func:`probe` seats a searching bot (:class:`playtest.bots.MCTSBot`) against
  the others over a grid of parameters and reports where one side nearly always
  wins, and where play degenerates (draws, games that only end at the turn cap,
  games that never end), with a replayable session of a game for each finding;
* :func:`explained` shows a table with its columns explained, :func:`interval_plot`
  values with their intervals. Every table the lab shows says what its columns
  mean, and every figure displays as a picture (:mod:`playtest.lab.plots`).

>>> import playtest
>>> from playtest.bots import RandomBot
>>> result = playtest.simulate(playtest.load("eat_thyself"), RandomBot(1), games=20, seed=1, progress=False)
>>> len(result.games)
20
>>> sum(result.wins.values()) + result.draws
20
"""

from typing import Any

from .._optional import need
from ._play import BotError, Job, game_seed, play_game
from ._run import workers_of
from .compare import Comparison, compare
from .probe import Finding, ProbeResult, probe
from .result import SimulationResult
from .simulation import simulate
from .sweep import SweepResult, sweep
from .tables import ExplainedTable, explained

__all__ = ["BotError", "simulate", "sweep", "compare", "probe", "play_game", "game_seed", "SimulationResult", "SweepResult",
           "Comparison", "ProbeResult", "Finding", "Job", "explained", "ExplainedTable", "interval_plot", "workers_of"]


def interval_plot(values: Any, low: Any, high: Any, **options: Any) -> Any:
    """A value and its interval per label, as a picture (see :func:`playtest.lab.plots.interval_plot`;
    imported on first use: it needs matplotlib, from the ``lab`` extra)."""
    need("matplotlib", "a lab figure")
    from .plots import interval_plot as plot
    return plot(values, low, high, **options)
