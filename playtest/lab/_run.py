"""Running many games: here, on local processes, or on any ``concurrent.futures`` executor.

Games are handed out in chunks of consecutive indices; every row comes back
with its index, so the table of games is the same whatever ran it.
"""

from __future__ import annotations

import os
import time
import warnings
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from typing import Any

from ._play import Job, play_one, play_shipped, ship

__all__ = ["run_jobs", "workers_of"]

#: A run expected to take less than this (seconds) stays in this process: starting workers costs more.
LOCAL_SECONDS = 1.0


def _bar(total: int, progress: bool, desc: str) -> Any:
    """A tqdm bar (the notebook's in Jupyter, text elsewhere) that shows only after a second."""
    if not progress:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:         # the lab extra is not installed: no bar, the run goes on
        return None
    return tqdm(total=total, desc=desc, delay=LOCAL_SECONDS, leave=False, unit="game")


def _chunks(games: int, size: int) -> list[list[int]]:
    return [list(range(i, min(i + size, games))) for i in range(0, games, size)]


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def workers_of(executor: Any) -> int:
    """How many games ``executor`` plays at once, which sizes the chunks of games it is handed.

    A Dask client's executor (``client.get_executor()``) counts the threads of the
    scheduler's workers (those it is restricted to with ``workers=``), asked when the
    run starts; a process or thread pool its ``max_workers``; any other executor its
    ``max_workers`` attribute if it has one (the Ray recipe in ``docs/lab.md`` does),
    else this machine's cores.

    >>> from concurrent.futures import ThreadPoolExecutor
    >>> with ThreadPoolExecutor(max_workers=3) as pool:
    ...     workers_of(pool)
    3
    """
    client = getattr(executor, "_client", None)
    if client is not None and callable(getattr(client, "nthreads", None)):     # Dask's ClientExecutor
        try:
            threads = dict(client.nthreads())
        except Exception:         # a client that cannot answer (closed, asynchronous): fall through
            threads = {}
        only = (getattr(executor, "_kwargs", None) or {}).get("workers")
        if only:
            only = {only} if isinstance(only, str) else set(only)
            threads = {address: n for address, n in threads.items() if address in only} or threads
        total = sum(n for n in threads.values() if _count(n))
        if total:
            return total
    for name in ("max_workers", "_max_workers"):
        value = _count(getattr(executor, name, None))
        if value:
            return value
    return os.cpu_count() or 1


def run_jobs(jobs: list[Job], games: int, executor: Executor | None = None, progress: bool = True,
             desc: str = "games") -> list[list[dict[str, Any]]]:
    """The rows of games ``0 .. games-1`` of every job, in order.

    ``executor=None``: the first game is played here; if the rest would take
    more than a second and the jobs pickle, they go to a
    :class:`~concurrent.futures.ProcessPoolExecutor` on all cores, else they
    are played here too. Any other executor (threads, processes, a Dask
    client's ``get_executor()``, a Ray recipe) gets every game, in chunks of
    consecutive games: four chunks per worker it has (:func:`workers_of`), so that
    every worker is busy and a slow chunk does not hold the run up.
    """
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise ValueError(f"executor must be a concurrent.futures Executor (a process or thread pool, a Dask "
                         f"client's get_executor()), not {type(executor).__name__}")
    rows: list[list[Any]] = [[None] * games for _ in jobs]
    total = games * len(jobs)
    bar = _bar(total, progress, desc)
    try:
        if executor is None:
            _run_default(jobs, games, rows, bar)
        else:
            size = max(1, -(-games // (workers_of(executor) * 4)))
            tasks = [(j, chunk) for j in range(len(jobs)) for chunk in _chunks(games, size)]
            _run_on(executor, jobs, tasks, rows, bar)
    finally:
        if bar is not None:
            bar.close()
    return rows


def _run_default(jobs: list[Job], games: int, rows: list[list[Any]], bar: Any) -> None:
    started = time.perf_counter()
    rows[0][0] = play_one(jobs[0], 0)
    _tick(bar, 1)
    left = games * len(jobs) - 1
    cores = os.cpu_count() or 1
    if left and cores > 1 and (time.perf_counter() - started) * left > LOCAL_SECONDS:
        try:
            ship(jobs)
        except Exception as err:  # something no pickler can ship (an open file, a lock): play here instead
            warnings.warn(f"playing every game in this process: the game or bots cannot be sent to other "
                          f"processes ({str(err)[:200]})", stacklevel=4)
        else:
            workers = min(cores, left)
            size = max(1, -(-games // (workers * 4)))
            tasks = []
            for j in range(len(jobs)):
                indices = [i for i in range(games) if (j, i) != (0, 0)]
                tasks += [(j, indices[k:k + size]) for k in range(0, len(indices), size)]
            with ProcessPoolExecutor(max_workers=workers) as pool:
                _run_on(pool, jobs, tasks, rows, bar)
            return
    for j in range(len(jobs)):
        for i in range(games):
            if rows[j][i] is None:
                rows[j][i] = play_one(jobs[j], i)
                _tick(bar, 1)


def _run_on(executor: Executor, jobs: list[Job], tasks: list[tuple[int, list[int]]],
            rows: list[list[Any]], bar: Any) -> None:
    payload = ship(jobs)          # games and bots from a notebook cell travel by value: any start method
    futures = {executor.submit(play_shipped, payload, j, chunk): (j, chunk) for j, chunk in tasks}
    try:
        for future in as_completed(futures):
            j, chunk = futures[future]
            for i, row in zip(chunk, future.result()):
                rows[j][i] = row
            _tick(bar, len(chunk))
    except BaseException:
        for future in futures:
            future.cancel()
        raise


def _tick(bar: Any, n: int) -> None:
    if bar is not None:
        bar.update(n)
