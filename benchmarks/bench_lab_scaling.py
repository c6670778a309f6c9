"""Lab scaling: games per second with 1, 2 and all local worker processes, game by game, and the efficiency.

    python benchmarks/bench_lab_scaling.py [--seconds 3] [--games eat_thyself source ...]

Each game's random-bot games are played by ``playtest.simulate`` on a
``ProcessPoolExecutor`` of 1, 2 and ``os.cpu_count()`` workers (started and
warmed before the clock starts); the number of games is chosen so that one
worker takes about ``--seconds``. Speed-up is against one worker; efficiency is
speed-up divided by the workers. The run checks that every executor gives the
same table of games. As a control, it first times pure-Python busy loops on 2
processes against one: on a shared machine that is the ceiling.

Target (issue 12): 2 local workers at least 1.7x one worker on a 2-core machine.
The machine may be shared: the load average is printed before and after.

``--dask N`` adds a column: the same games on a Dask ``LocalCluster`` of N worker
processes (one thread each, started before the clock), with the workers that got
games (issue 27: every worker of a cluster gets work) and the same table of games.
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor

import playtest
from playtest.lab import Job
from playtest.lab._play import play_one


def _ready(_: int) -> int:
    return os.getpid()


def _burn(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def machine_speedup(workers: int, seconds: float = 1.0) -> float:
    """What the machine gives right now: pure-Python busy loops on ``workers`` processes against one
    (a shared machine gives less than ``workers``)."""
    n = 2_000_000
    timed = {}
    for w in (1, workers):
        with ProcessPoolExecutor(max_workers=w) as pool:
            list(pool.map(_ready, range(w * 2)))
            started = time.perf_counter()
            list(pool.map(_burn, [n] * (2 * workers)))
            timed[w] = time.perf_counter() - started
    return timed[1] / timed[workers]


def per_game_seconds(name: str) -> float:
    """One game's time in this process (games played until half a second has passed)."""
    job = Job(playtest.load(name), "random", seed=0)
    play_one(job, 0)                                       # warm up
    started, played = time.perf_counter(), 0
    while time.perf_counter() - started < 0.5:
        play_one(job, played + 1)
        played += 1
    return (time.perf_counter() - started) / played


def rate(name: str, games: int, workers: int) -> tuple[float, object]:
    with ProcessPoolExecutor(max_workers=workers) as pool:
        list(pool.map(_ready, range(workers * 4)))          # the workers are up before the clock starts
        started = time.perf_counter()
        result = playtest.simulate(name, "random", games=games, seed=1, executor=pool, progress=False)
        return games / (time.perf_counter() - started), result.games


def dask_rate(name: str, games: int, workers: int) -> tuple[float, object, int]:
    """Games per second on a Dask LocalCluster of ``workers`` processes; the table; the workers that got games."""
    from dask.distributed import Client, LocalCluster, get_task_stream
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        client.run(_ready, 0)                                # the workers are up before the clock starts
        with get_task_stream(client) as stream:
            started = time.perf_counter()
            result = playtest.simulate(name, "random", games=games, seed=1, executor=client.get_executor(),
                                       progress=False)
            elapsed = time.perf_counter() - started
        return games / elapsed, result.games, len({task["worker"] for task in stream.data})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="about how long one worker plays each game")
    parser.add_argument("--games", nargs="*", default=None, help="games to time (default: all)")
    parser.add_argument("--dask", type=int, default=0, metavar="N", help="also on a Dask LocalCluster of N workers")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    counts = sorted({1, min(2, cores), cores})
    print(f"load average at the start: {os.getloadavg()[0]:.2f} on {cores} cores")
    print(f"the machine now: busy loops on 2 processes run {machine_speedup(min(2, cores)):.2f}x one process "
          "(the most any program can get here)")
    head = " | ".join(f"{w} worker{'s' if w > 1 else ''} games/s" for w in counts)
    extra = f" Dask, {args.dask} workers: games/s (workers busy) |" if args.dask else ""
    print(f"| game | games | {head} | 2 workers vs 1 | efficiency ({cores} workers) |{extra} target |")
    print("|" + " --- |" * (len(counts) + 5 + bool(args.dask)))
    for name in args.games or playtest.games():
        games = max(8, round(args.seconds / per_game_seconds(name)))
        rates, tables = {}, []
        for workers in counts:
            rates[workers], table = rate(name, games, workers)
            tables.append(table)
        assert all(t.equals(tables[0]) for t in tables), f"{name}: the executors gave different games"
        two = rates[min(2, cores)] / rates[1]
        efficiency = rates[cores] / rates[1] / cores
        cells = " | ".join(f"{rates[w]:,.1f}" for w in counts)
        dask = ""
        if args.dask:
            on_dask, table, busy = dask_rate(name, games, args.dask)
            assert table.equals(tables[0]), f"{name}: Dask gave different games"
            dask = f" {on_dask:,.1f} ({busy} of {args.dask}) |"
        print(f"| {name} | {games} | {cells} | {two:.2f}x | {efficiency:.0%} |{dask} 2 workers >= 1.7x |", flush=True)
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
