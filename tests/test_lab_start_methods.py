"""A game and a bot defined in a notebook cell or a script's ``__main__`` run in the lab's worker
processes under every start method (fork, spawn, forkserver), by default and on a given executor,
and on a Dask cluster, and give the same results as in this process (issue 23, point 4)."""

from __future__ import annotations

import multiprocessing
import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent('''
    import multiprocessing, random, sys
    from concurrent.futures import ProcessPoolExecutor
    import playtest
    from playtest import Action, Game, GameType, Outcome, Params, Refusal, State, field, per_seat, register
    from playtest.bots import Bot

    class Take(Action):
        count: int

    class Pile(State):
        left: int = field(15, min=0)
        turn: int = 0

    @register(listed=False)
    class Nim(Game[Params, Pile, Take]):
        name = "main_nim"
        seat_names = ("First", "Second")
        state_type = Pile
        action_types = (Take,)
        game_type = GameType(max_length=15)

        def to_move(self, s):
            return None if s.left == 0 else s.turn % 2

        def candidates(self, s, seat):
            return [Take(k) for k in (1, 2, 3)]

        def why_not(self, s, a, seat):
            return Refusal("not that many left", "N1") if a.count > s.left else None

        def effect(self, s, a):
            return s.replace(left=s.left - a.count, turn=s.turn + 1)

        def outcome(self, s):
            return Outcome(((s.turn - 1) % 2,), "took the last") if s.left == 0 else None

    class Greedy(Bot):
        def choose(self, game, state, seat=None):
            return max(game.legal_actions(state), key=lambda a: a.count)

    if __name__ == "__main__" and sys.argv[1] == "dask":
        from dask.distributed import Client, LocalCluster
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            there = playtest.simulate(Nim(), [Greedy(), "random"], games=12, seed=3, progress=False,
                                      executor=client.get_executor())
        here = playtest.simulate(Nim(), [Greedy(), "random"], games=12, seed=3, progress=False)
        assert here.wins == there.wins and list(here.games["length"]) == list(there.games["length"])
        print("dask", there.wins)
    elif __name__ == "__main__":
        method = sys.argv[1]
        multiprocessing.set_start_method(method)
        import playtest.lab._run as run
        run.LOCAL_SECONDS = 0.0          # always use the worker processes
        here = playtest.simulate(Nim(), [Greedy(), "random"], games=12, seed=3, progress=False)
        with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context(method)) as pool:
            there = playtest.simulate(Nim(), [Greedy(), "random"], games=12, seed=3, progress=False,
                                      executor=pool)
        assert here.wins == there.wins and list(here.games["length"]) == list(there.games["length"])
        print(method, here.wins)
''')


@pytest.mark.parametrize("method", [m for m in ("fork", "spawn", "forkserver")
                                    if m in multiprocessing.get_all_start_methods()])
def test_a_main_module_game_runs_in_the_lab_under(method, tmp_path):
    script = tmp_path / "my_game.py"
    script.write_text(SCRIPT)
    run = subprocess.run([sys.executable, str(script), method], capture_output=True, text=True, timeout=300,
                         cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.startswith(method)


@pytest.mark.dask
def test_a_main_module_game_runs_on_a_dask_cluster(tmp_path):
    pytest.importorskip("dask.distributed")
    script = tmp_path / "my_game.py"
    script.write_text(SCRIPT)
    run = subprocess.run([sys.executable, str(script), "dask"], capture_output=True, text=True, timeout=300,
                         cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.startswith("dask")
