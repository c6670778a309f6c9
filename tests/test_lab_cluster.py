"""The lab on a cluster (issue 27): chunks of games are sized from the executor's real workers (a
Dask scheduler's workers and threads, a pool's ``max_workers``, the Ray recipe's ``max_workers``),
so every worker of a cluster gets work, and the games are the same whatever ran them."""

from __future__ import annotations

import re
import sys
import types
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import playtest
import playtest.lab._run as lab_run
from playtest.lab._run import workers_of

DOCS = Path(__file__).resolve().parents[1] / "docs" / "lab.md"


def test_a_pool_is_sized_by_its_workers_and_an_unknown_executor_by_the_cores():
    with ThreadPoolExecutor(max_workers=5) as pool:
        assert workers_of(pool) == 5

    class Plain:
        def submit(self, fn, *args, **kwargs):
            raise AssertionError("not called")

    assert workers_of(Plain()) == (lab_run.os.cpu_count() or 1)
    sized = Plain()
    sized.max_workers = 40
    assert workers_of(sized) == 40


def test_chunks_are_four_per_worker(monkeypatch):
    """960 games on an executor of 40 workers: 160 tasks of 6 games (a 2-core client's guess gave 8)."""
    seen = []
    monkeypatch.setattr(lab_run, "_run_on", lambda executor, jobs, tasks, rows, bar: seen.extend(tasks))

    with ThreadPoolExecutor(max_workers=40) as pool:
        lab_run.run_jobs([object()], 960, executor=pool, progress=False)  # type: ignore[list-item]
    assert len(seen) == 160
    assert sorted(i for _, chunk in seen for i in chunk) == list(range(960))


@pytest.mark.dask
def test_a_dask_local_cluster_of_4_workers_receives_work_on_all_4():
    distributed = pytest.importorskip("distributed", reason="dask[distributed] is not installed "
                                                            "(pip install -e '.[lab]')")
    here = playtest.simulate("eat_thyself", "random", games=96, seed=7, progress=False)
    with distributed.LocalCluster(n_workers=4, threads_per_worker=2, processes=True, dashboard_address=None) \
            as cluster, distributed.Client(cluster) as client:
        executor = client.get_executor()
        assert workers_of(executor) == 8                          # the scheduler's 4 workers x 2 threads
        one = sorted(client.nthreads())[0]
        assert workers_of(client.get_executor(workers=[one])) == 2
        with distributed.get_task_stream(client) as stream:
            there = playtest.simulate("eat_thyself", "random", games=96, seed=7, progress=False, executor=executor)
        busy = {task["worker"] for task in stream.data}
        assert busy == set(client.nthreads()), f"only {len(busy)} of 4 workers got games"
        assert len(stream.data) == 32                             # 4 chunks per thread: 8 x 4
    assert there.games.equals(here.games)


def _ray_recipe() -> str:
    """The Ray recipe's code blocks in docs/lab.md, as written there."""
    section = DOCS.read_text(encoding="utf-8").split("### Ray", 1)[1].split("\n## ", 1)[0]
    return "\n".join(re.findall(r"```python\n(.*?)```", section, flags=re.S))


class _StandInRay(types.ModuleType):
    """Just what the recipe uses of ``ray``, on a thread pool: ``remote`` functions whose results
    are ``ObjectRef``-like handles with ``.future()``, ``cluster_resources`` and ``init``."""

    def __init__(self, cpus: int):
        super().__init__("ray")
        self.pool = ThreadPoolExecutor(max_workers=cpus)
        self.cpus = cpus
        self.tasks = 0

    def init(self, *args, **kwargs):
        return None

    def cluster_resources(self):
        return {"CPU": float(self.cpus), "memory": 1e9}

    def remote(self, fn):
        ray = self

        class Ref:
            def __init__(self, future):
                self._future = future

            def future(self):
                return self._future

        class RemoteFunction:
            def remote(self, *args, **kwargs):
                ray.tasks += 1
                return Ref(ray.pool.submit(fn, *args, **kwargs))

        return RemoteFunction()


def test_the_ray_recipe_in_the_docs_plays_the_same_games(monkeypatch):
    code = _ray_recipe()
    assert "class RayExecutor" in code and code.count("\n") < 30
    ray = _StandInRay(cpus=3)
    monkeypatch.setitem(sys.modules, "ray", ray)
    namespace = {"playtest": playtest}
    try:
        exec(compile(code, str(DOCS), "exec"), namespace)
        executor = namespace["RayExecutor"]()
        assert workers_of(executor) == 3
        there = playtest.simulate("source", "random", games=24, seed=1, executor=executor, progress=False)
    finally:
        ray.pool.shutdown()
    here = playtest.simulate("source", "random", games=24, seed=1, progress=False)
    assert there.games.equals(here.games)
    assert namespace["result"].games.head(24).equals(here.games)  # the docs' own run: 400 games, the same first 24
    assert ray.tasks == 2 * 12                                   # 4 chunks per CPU, twice (the docs' run too)
