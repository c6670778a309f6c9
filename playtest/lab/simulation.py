"""``simulate``: let bots play many games of one game, on every core."""

from __future__ import annotations

import random
import time
from concurrent.futures import Executor
from typing import Any

from ..rules import Game, load
from ._play import BotSpec, Job, seat_bots
from ._run import run_jobs
from .result import SimulationResult

__all__ = ["simulate", "resolve_game"]


def resolve_game(game: Game | str, params: dict[str, Any]) -> Game:
    """``game`` (a name or a game) with ``params`` applied (validated)."""
    if isinstance(game, str):
        return load(game, **params)
    if not isinstance(game, Game):
        raise TypeError(f"a game is a name or playtest.load(...), not {game!r}")
    return game.with_params(**params) if params else game


#: the most games one run (a simulate, or each parameter set of a sweep) plays: each keeps a row
MAX_GAMES = 10_000_000


def check_count(games: Any) -> int:
    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise ValueError(f"games must be a whole number of at least 1, not {games!r}")
    if games > MAX_GAMES:
        raise ValueError(f"games must be at most {MAX_GAMES:,} in one run (each game keeps a row of its "
                         f"measures), not {games:,}: run it in parts")
    return games


def run_seed(seed: Any) -> Any:
    """The run's seed: ``None`` draws a fresh one (recorded on the result, so the run can be repeated)."""
    return random.SystemRandom().getrandbits(32) if seed is None else seed


def simulate(game: Game | str, bots: BotSpec = None, games: int = 100, seed: Any = 0,
             executor: Executor | None = None, progress: bool = True, *, max_steps: int = 100_000,
             running_scores: Any = None, **params: Any) -> SimulationResult:
    """Let ``bots`` play ``games`` games of ``game`` and measure them (see :class:`SimulationResult`).

    ``bots``: one bot (or a bot's name, ``"mcts"``, or ``(name, options)``) for
    every seat, a list by seat or a ``{seat: bot}`` mapping, or a factory (called
    for every game: it returns the table, or one bot and is called once per seat);
    by default random bots. Every game gets fresh copies reseeded from ``seed``,
    the game's number and the seat, so a run is the same whatever plays it.

    ``executor``: any :class:`concurrent.futures.Executor` (a thread or process
    pool, a Dask client's ``client.get_executor()``); by default local processes
    on every core once the run is worth it (more than a second), else this
    process. ``progress=False`` hides the progress bar (shown only after a
    second). ``max_steps`` stops a game that runs away (a timeout, no winner).
    ``running_scores(game, state)`` gives each seat's score as things stand, for
    lead changes and decisiveness (by default the game's own ``running_scores``,
    if it has one). Extra keywords are parameter values.

    >>> import playtest
    >>> result = playtest.simulate("eat_thyself", "random", games=20, seed=1, progress=False)
    >>> len(result.games), sum(result.wins.values()) + result.draws
    (20, 20)
    >>> row = result.games.iloc[0]
    >>> int(row["game"]), int(row["first_seat"]), row["result_0"], row["result_1"]
    (0, 0, 'win', 'loss')
    """
    game = resolve_game(game, params)
    games = check_count(games)
    seed = run_seed(seed)
    seat_bots(game, bots, "check")          # a wrong name or a seat a bot cannot play fails here, at once
    job = Job(game, bots, seed, max_steps, running_scores, tuple(game.params.changed().items()))
    started = time.perf_counter()
    rows = run_jobs([job], games, executor, progress, desc=game.name)[0]
    return SimulationResult.from_rows(game, rows, seconds=time.perf_counter() - started, seed=seed)
