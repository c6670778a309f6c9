"""What human playtests say: many sessions as tidy tables, plots and tests.

:func:`playtests` reads sessions (files, folders, sessions in memory) into five
pandas tables (moves, games, refused attempts, notes, feedback answers) and
makes the plots a designer asks for, each in one call. One concern per module:

* :mod:`.sources`: where sessions come from (refused files are left out, named);
* :mod:`.tables`: sessions as rows (games, think time, phases);
* :mod:`.playtests`: the :class:`Playtests` result, exports;
* :mod:`.plots`: think time, game length, rule confusion, people and bots, feedback;
* :mod:`.heatmap`: where play happens, on the game's own board;
* :mod:`.stats`: a question answered with a test and its p-value;
* :mod:`.chart`: a plot that displays as a picture.

Imported on first use (``import playtest`` stays light): ``playtest.playtests``.
"""

from .chart import Chart
from .playtests import IDLE, Playtests, playtests

__all__ = ["playtests", "Playtests", "Chart", "IDLE"]
