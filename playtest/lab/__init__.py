"""The lab: bots play many games; win rates, fairness and pace with 95% intervals.

* :func:`simulate` plays one game many times (on every core, or any executor)
  and returns a :class:`SimulationResult`: a table of games (pandas) and a summary;
* :func:`sweep` does it for every value of one or two parameters, with a plot;
* :func:`compare` tests whether two parameter sets give different win rates;
* :func:`probe` seats a searching bot (:class:`playtest.bots.MCTSBot`) against
  the others over a grid of parameters and reports where one side nearly always
  wins, with a replayable session of a game for each finding.

>>> import playtest
>>> from playtest.bots import RandomBot
>>> result = playtest.simulate(playtest.load("eat_thyself"), RandomBot(1), games=20, seed=1, progress=False)
>>> len(result.games)
20
>>> sum(result.wins.values()) + result.draws
20
"""

from ._play import Job, game_seed, play_game
from .compare import Comparison, compare
from .probe import Finding, ProbeResult, probe
from .result import SimulationResult
from .simulation import simulate
from .sweep import SweepResult, sweep

__all__ = ["simulate", "sweep", "compare", "probe", "play_game", "game_seed", "SimulationResult", "SweepResult",
           "Comparison", "ProbeResult", "Finding", "Job"]
