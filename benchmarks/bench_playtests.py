"""Playtest analytics: 1,000 session files of 200 moves each into the five DataFrames.

    python benchmarks/bench_playtests.py [--quick] [--seconds 5] [--sessions 1000] [--moves 200]
                                         [--games eat_thyself,then_there_was_one]

Target (issue 26): 1,000 sessions of 200 moves each load into the DataFrames
(``playtest.playtests(folder)``: every file read, every move replayed through the
rules, then the tables built) in under 10 s. The issue's floor ("the loader replays
about 20 µs per position") is Eat Thyself's (the game of bench_session.py): the
target is checked on it. Then There Was One's rules cost several times more per
position (a validated apply, and a notation that walks the token's path): its
figure is printed beside, with the target scaled by its replay cost (the part the
analytics add is the same). Printed for each: the total (timed first, cold: one
call of ``playtest.playtests``, the garbage collector's pass after it included);
then, measured apart, reading and replaying the files as playtests does (files
read together share game objects and parsed actions, no collection while they
load), per position, and the rest: the tables. Beside: every file read and
replayed alone, as ``Session.read`` does (the issue's "about 20 µs a position").
Figures are CPU time of this one process (no worker processes are used; the
machine is shared: wall-clock time is printed too, and on an idle machine the
two agree).

The sessions are played at random to move 200 (when a game ends, the tester
starts another: a set-up parameter changed), each with its times, a seating with a bot, a few notes, refused attempts
and a feedback form answered: what a tester's file holds. They are made once per
run in a temporary folder (not timed).
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from common import parser, report  # noqa: E402

import playtest  # noqa: E402
from playtest.bots import RandomBot  # noqa: E402
from playtest.analytics.playtests import _collection_paused  # noqa: E402
from playtest.analytics.sources import gather  # noqa: E402
from playtest.journal import read_records  # noqa: E402

#: per game: parameter sets the sessions are played with, and a refusal as the table keeps it
SETUP = {
    "eat_thyself": ([{"own_king_bonus_removals": 1}, {"own_king_bonus_removals": 0}],
                    ({"item": "slot:0"}, "move one of your own kings (rule E.1 §8)"), "first_player"),
    "then_there_was_one": ([{"wall_budget": 8}, {"wall_budget": 12}],
                           ({"item": "edge:0,0:1,0"}, "a wall may not lie on an edge of a token's tile "
                                                      "(rule A.1 §14.3)"), "initial_obstacles"),
}


def make_session(name: str, seed: int, moves: int, path: Path) -> bool:
    """A tester's session of ``moves`` moves at ``path``: when a game ends the tester starts a new one
    (a set-up parameter changed), as a playtest does. False: the session could not go on (not written)."""
    rng = random.Random(seed)
    clock = [1_767_225_600.0 + seed * 3_600]
    param_sets, (tried, reason), setup = SETUP[name]
    game = playtest.load(name, **rng.choice(param_sets))
    session = playtest.Session(game, seed=seed, clock=lambda: clock[0])
    session.author = f"tester {seed % 37}"
    session.set_players({1: RandomBot(seed)})
    bot = RandomBot(seed)
    while session.move_number < moves:
        if session.is_over:
            value = getattr(session.params, setup)
            session.set_params(**{setup: value - 1 if value > 0 else value + 1})   # a new game
            if session.is_over:
                return False
            continue
        clock[0] += rng.lognormvariate(1.2, 0.7)
        if session.to_move == 1:
            session.play_bot(bot, 1)
            continue
        if rng.random() < 0.03:
            session.record_refusal(tried, reason, seat=session.to_move)
        if rng.random() < 0.01:
            session.note(f"note {rng.randint(1, 99)}")
        session.play(game.random_action(session.state, rng))
    session.give_feedback({"fun": rng.randint(1, 5), "clarity": rng.randint(1, 5), "length": "right"})
    session.save(path)
    return True


def measure(name: str, sessions: int, moves: int) -> tuple[list, float]:
    """Make ``sessions`` files of ``name`` and time reading them: (report rows, seconds a position replayed)."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        made, seed = 0, 0
        started = time.perf_counter()
        while made < sessions:
            seed += 1
            if make_session(name, seed, moves, folder / f"s{seed:05d}.playtest.json"):
                made += 1
        print(f"{name}: made {made} session files of {moves} moves in {time.perf_counter() - started:.0f} s")
        files = sorted(folder.glob("*.playtest.json"))

        started, cpu = time.perf_counter(), time.process_time()
        with warnings.catch_warnings():
            warnings.simplefilter("error")       # a refused file would be a failure of the benchmark
            result = playtest.playtests(folder)
        wall, total = time.perf_counter() - started, time.process_time() - cpu
        assert result.sessions == sessions and not result.skipped
        assert len(result.moves) == sessions * moves, len(result.moves)
        assert result.moves["think"].notna().mean() > 0.99
        positions = sum(source.session.positions() for source in result.sources)
        rows_moves = len(result.moves)
        counts = (f"{len(result.moves):,} moves, {len(result.games):,} games, {len(result.refusals):,} refusals, "
                  f"{len(result.notes):,} notes, {len(result.feedback):,} feedback answers")
        del result

        # the parts, measured after the total (so nothing the total does is warmed up for it)
        started = time.process_time()
        with _collection_paused():          # what playtests() does: files read together, no collection
            sources, _ = gather(folder)
        replay = time.process_time() - started
        del sources

        started = time.process_time()       # each file alone, as Session.read replays it
        for file in files:
            header, records, _, _ = read_records(file)
            playtest.Session._replay(header, records, where=file.name)
        alone = time.process_time() - started
    tables = max(total - replay, 0.0)
    rows = [
        (f"{name}: {sessions:,} sessions of {moves} moves into the DataFrames",
         f"{total:.2f} s of CPU time ({wall:.2f} s wall clock on the loaded machine)", "", None),
        (f"{name}: of which reading and replaying the files (measured apart, as playtests reads them)",
         f"{replay:.2f} s ({replay / positions * 1e6:.1f} µs a position, {positions:,} positions)", "", None),
        (f"{name}: of which building the tables (the rest)", f"{tables:.2f} s "
         f"({tables / rows_moves * 1e6:.1f} µs a move row, the notation included)", "", None),
        (f"{name}: beside: each file read and replayed alone (Session.read's way)",
         f"{alone:.2f} s ({alone / positions * 1e6:.1f} µs a position)", "", None),
        (f"{name}: rows", counts, "", None),
    ]
    return rows, total


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--sessions", type=int, default=1000)
    ap.add_argument("--moves", type=int, default=200)
    ap.add_argument("--games", default="eat_thyself,then_there_was_one",
                    help="games to measure, comma-separated (the target is checked on eat_thyself)")
    args = ap.parse_args()
    sessions = 100 if args.quick else args.sessions
    playtest.playtests([])                # pandas imported once, outside the timings
    rows = []
    for name in args.games.split(","):
        if name not in SETUP:
            raise SystemExit(f"no sessions are made for {name!r}; the games are: {', '.join(SETUP)}")
        measured, total = measure(name, sessions, args.moves)
        target = 10.0 * sessions / 1000
        if name == "eat_thyself":
            measured[0] = (measured[0][0], measured[0][1], f"< {target:g} s", total < target)
        rows += measured
    print()
    report(rows, title="playtest.playtests")


if __name__ == "__main__":
    main()
