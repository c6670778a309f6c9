"""Source, for 2 players: the rules are in :mod:`.rules` (this package is being split by concern)."""

from .rules import (COLORS, ColorScore, Capture, EndTurn, Fortify, GreedyBot, Place, RemoveFortification, Score, Source,
                    SourceParams, State, point_name)
from .rules import __all__  # noqa: F401
