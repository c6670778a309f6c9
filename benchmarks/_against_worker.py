"""One side of ``bench_against.py``: measures the ``playtest`` found on ``PYTHONPATH`` on request.

Run by ``bench_against.py`` as a child process, one per revision. It reads one request a line on
standard input (JSON: ``{"measure": ..., "game": ..., "count": n, "start": k}``) and answers one
line (JSON: the CPU seconds spent and a policy figure). It uses only the API both revisions share
(``load``, ``initial_state``, ``random_action``, ``apply``, ``outcome``, ``pending_seats``,
``Session``, ``MCTSBot.choose``, ``lab.play_game``), so the same code times both.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from pathlib import Path

import playtest
from playtest.bots import RandomBot
from playtest.lab import play_game
from playtest.mcts import MCTSBot

CHANCE = -1     # the chance mover, in both revisions
GAMES: dict[str, object] = {}
SESSIONS: dict[str, object] = {}
TMP = Path(tempfile.mkdtemp(prefix="bench-against-"))


def game_of(name: str):
    if name not in GAMES:
        GAMES[name] = playtest.load(name)
    return GAMES[name]


def random_step(game, state, rng: random.Random):
    """One random step: a chance outcome at a chance node, else a random legal action."""
    if game.to_move(state) == CHANCE:
        return game.apply(state, game.chance_outcome(state, rng), check=False)
    return game.apply(state, game.random_action(state, rng), check=False)


def rules_games(game, count: int, start: int) -> tuple[float, float]:
    """Random games through the rules alone: ``random_action`` (``chance_outcome`` at chance) then
    ``apply`` unchecked, until the end."""
    steps = 0
    cpu = time.process_time()
    for index in range(start, start + count):
        rng = random.Random(index)
        state = game.initial_state()
        while game.outcome(state) is None and steps < 10_000_000:
            state = random_step(game, state, rng)
            steps += 1
    return time.process_time() - cpu, steps / count


def lab_games(game, count: int, start: int) -> tuple[float, float]:
    """Random games as the lab plays them (``play_game``, a ``RandomBot`` a seat)."""
    steps = 0
    cpu = time.process_time()
    for index in range(start, start + count):
        bots = [RandomBot(index * 10 + s) for s in range(len(game.seats()))]
        _, n = play_game(game, bots, random.Random(index))
        steps += n
    return time.process_time() - cpu, steps / count


def session_of(name: str, game, moves: int):
    """A session of ``moves`` random moves (made once, outside the timing)."""
    key = f"{name}:{moves}"
    if key not in SESSIONS:
        session = playtest.Session(game, seed=1)
        rng = random.Random(1)
        for _ in range(100 * moves):
            if session.positions() >= moves:
                break
            if session.is_over:            # a branch: back a few moves, and on from there
                for _ in range(rng.randint(1, min(20, session.move_number))):
                    session.undo()
                continue
            session.play(game.random_action(session.state, rng))
        SESSIONS[key] = session
    return SESSIONS[key]


def save_load(game, name: str, count: int, moves: int) -> tuple[float, float]:
    """Save then load a session of ``moves`` positions (load replays every action)."""
    session = session_of(name, game, moves)
    path = TMP / f"{name}.json"
    cpu = time.process_time()
    for _ in range(count):
        session.save(path)
        loaded = playtest.Session.load(path)
    spent = time.process_time() - cpu
    assert loaded.positions() == session.positions()
    return spent, float(session.positions())


def load_file(path: str, count: int) -> tuple[float, float]:
    """Load the session file at ``path`` (both sides load the same file)."""
    cpu = time.process_time()
    for _ in range(count):
        loaded = playtest.Session.load(path)
    return time.process_time() - cpu, float(loaded.positions())


def mcts_position(game, seed: int):
    """A position a few random moves in where some seat has a decision."""
    rng = random.Random(seed)
    state = game.initial_state()
    for _ in range(rng.randint(0, 6)):
        if game.outcome(state) is not None:
            break
        state = random_step(game, state, rng)
    for _ in range(10_000):
        mover = game.to_move(state)
        if isinstance(mover, int) and mover >= 0:
            return state, mover
        seats = game.pending_seats(state) if mover is not None else ()
        if seats:
            return state, seats[0]
        state = random_step(game, state, rng)
        if game.outcome(state) is not None:
            state = game.initial_state()
    raise RuntimeError("no decision reached")


def mcts(game, count: int, start: int, iterations: int) -> tuple[float, float]:
    """MCTS decisions of ``iterations`` iterations each from positions met in random play."""
    cpu = time.process_time()
    for index in range(start, start + count):
        state, seat = mcts_position(game, index)
        MCTSBot(iterations=iterations, seed=index).choose(game, state, seat)
    return time.process_time() - cpu, float(iterations)


def main() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        game = game_of(request["game"])
        measure, count, start = request["measure"], request["count"], request["start"]
        if measure == "rules":
            spent, figure = rules_games(game, count, start)
        elif measure == "lab":
            spent, figure = lab_games(game, count, start)
        elif measure == "session":
            spent, figure = save_load(game, request["game"], count, request["moves"])
        elif measure == "write":
            session = session_of(request["game"], game, request["moves"])
            Path(request["path"]).unlink(missing_ok=True)
            session.save(request["path"])
            spent, figure = 0.0, float(session.positions())
        elif measure == "load":
            spent, figure = load_file(request["path"], count)
        elif measure == "mcts":
            spent, figure = mcts(game, count, start, request["iterations"])
        else:
            raise SystemExit(f"unknown measure {measure!r}")
        print(json.dumps({"cpu": spent, "figure": figure}), flush=True)


if __name__ == "__main__":
    main()
