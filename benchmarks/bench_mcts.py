"""The search bot, game by game: its speed beside OpenSpiel's MCTS, and its strength against random and greedy bots.

    python benchmarks/bench_mcts.py [--quick] [--seconds 10] [--iterations 200] [--positions 20]
        [--games back_to_the_wall ...] [--no-speed] [--strength] [--matches 40] [--workers N]

**Speed** (always, unless ``--no-speed``). For each game, decision positions are
met along random games (only those where the bot has to search: more than one
action worth trying); ``MCTSBot(iterations)`` searches each and its iterations
are counted per second of this process's CPU time (the one-core figure, fair on
a busy machine). The anchor, measured in the same run before and after the
games (the mean of the two): OpenSpiel's Python MCTS (``open_spiel.python.algorithms.mcts``,
UCT with one random rollout per iteration) on go 9x9 from the opening, the same
number of iterations a move. An iteration is one walk down the tree plus one
random play-out; in Back to the Wall the play-out submits whole orders seat by
seat (``finish_order``) and is cut after ``rollout_limit`` rounds; in a sequential
game that writes ``Game.random_playout`` (Corner Rush, Eat Thyself, Source, Then
There Was One) the game plays the rollout itself on its compact form (the same rollouts: ``tests/test_playout.py``).

Targets (issue 27): Back to the Wall at least 200 iterations/s and x0.25 of
OpenSpiel's go 9x9; Corner Rush x0.5; Then There Was One x0.25 (the others are
reported).

**Strength** (``--strength``). For each game, ``MCTSBot(iterations)`` in one
seat against the random bot in every other seat, then against the game's greedy
bot(s) (in Then There Was One the greedy bot that plays each side), ``--matches``
games each (at least 40; the searching seat goes round the table, as many games
in each seat), played by the lab (``playtest.simulate``, local processes unless
``--workers 1``). Reported: the search bot's wins (games in which its seat is among
the winners: in Then There Was One a side wins together), draws and losses, its win
rate with the 95% Wilson interval, the games that ended at the turn cap, and one
seat's fair share (1 / seats; not a side's share).
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from common import load_note, parser  # noqa: E402

import playtest  # noqa: E402
from playtest import CHANCE, SIMULTANEOUS  # noqa: E402
from playtest.bots import MCTSBot, available, build  # noqa: E402

TARGETS = {  # game: (iterations/s at least, ratio to OpenSpiel's go 9x9 at least)
    "back_to_the_wall": (200.0, 0.25),
    "corner_rush": (None, 0.5),
    "then_there_was_one": (None, 0.25),
}


def positions(game, count: int, seed: int) -> list[tuple[object, int]]:
    """(state as the seat knows it, seat) pairs where a seat decides, met along random games."""
    rng = random.Random(seed)
    found: list[tuple[object, int]] = []
    while len(found) < count:
        state = game.initial_state()
        step = 0
        while game.to_move(state) is not None and len(found) < count:
            mover = game.to_move(state)
            if mover == CHANCE:
                action = game.chance_outcome(state, rng)
            else:
                seat = game.pending_seats(state)[0] if mover == SIMULTANEOUS else mover
                actions = game.legal_actions(state, seat)
                if step % 7 == 3 and len(actions) > 1:
                    found.append((game.determinize(state, seat, rng), seat))
                action = rng.choice(actions)
            state = game.apply(state, action, check=False)
            step += 1
    return found


def measure(name: str, iterations: int, count: int, seconds: float) -> tuple[float, int, int]:
    """Iterations per CPU second, iterations timed, positions searched."""
    game = playtest.load(name)
    spots = positions(game, count, seed=1)
    searched = done = 0
    cpu, wall = time.process_time(), time.perf_counter()
    for k, (state, seat) in enumerate(spots):
        bot = MCTSBot(iterations=iterations, seed=k)
        bot.choose(game, state, seat=seat)
        searched += bot.iterations_run
        done += 1
        if time.perf_counter() - wall > seconds:
            break
    cpu = time.process_time() - cpu
    return searched / cpu, searched, done


def openspiel_rate(iterations: int, seconds: float) -> float | None:
    """OpenSpiel's Python MCTS on go 9x9: iterations per CPU second (``None`` without open_spiel)."""
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import mcts
    except ImportError:
        return None
    game = pyspiel.load_game("go", {"board_size": 9})
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bot = mcts.MCTSBot(game, 2.0, iterations, evaluator, random_state=np.random.RandomState(1))
    state = game.new_initial_state()
    done = 0
    cpu, wall = time.process_time(), time.perf_counter()
    while not state.is_terminal() and (done == 0 or time.perf_counter() - wall < seconds):
        state.apply_action(bot.step(state))
        done += iterations
    return done / (time.process_time() - cpu)


def speed(names: list[str], iterations: int, count: int, seconds: float) -> None:
    before = openspiel_rate(iterations, seconds)
    rows = [(name, *measure(name, iterations, count, seconds)) for name in names]
    after = openspiel_rate(iterations, seconds)
    anchor = (before + after) / 2 if before is not None and after is not None else None
    print(f"### MCTS iterations per second ({iterations} a decision; CPU time of one process)\n")
    if anchor is not None:
        print(f"OpenSpiel's Python MCTS on go 9x9, same run: {before:,.0f} before the games, {after:,.0f} after "
              f"(anchor {anchor:,.0f}/s)\n")
    else:
        print("open_spiel is not installed: no anchor, no ratios\n")
    print("| game | iterations/s | ratio to OpenSpiel go 9x9 | iterations timed (positions) | target | met |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, rate, total, done in rows:
        ratio = rate / anchor if anchor else None
        least, share = TARGETS.get(name, (None, None))
        wants, met = [], []
        if least is not None:
            wants.append(f">= {least:,.0f}/s")
            met.append(rate >= least)
        if share is not None and ratio is not None:
            wants.append(f">= x{share}")
            met.append(ratio >= share)
        mark = "" if not met else ("yes" if all(met) else "**no**")
        shown = f"x{ratio:.2f}" if ratio is not None else "-"
        print(f"| {name} | {rate:,.0f} | {shown} | {total:,} ({done}) | {'; '.join(wants) or '(reported)'} | "
              f"{mark} |", flush=True)
    print(f"\n({load_note()})\n")


# ---------------------------------------------------------------------------- strength

def opponents(game) -> list[tuple[str, object]]:
    """(label, a bot name for every seat but the searching one) to play against: random, then greedy.

    A game with several greedy bots (one per side) gets one entry: each seat the greedy bot that plays it."""
    names = [n for n in available(game) if n not in ("random", "mcts")]
    found: list[tuple[str, object]] = [("random", "random")]
    if names:
        per_seat = []
        for seat in range(len(game.seats())):
            fit = [n for n in names if build(game, n).plays(game, seat)]
            per_seat.append(fit[0] if fit else "random")
        found.append(("/".join(names), per_seat))
    return found


def match(name: str, against: object, iterations: int, games: int, workers: int | None) -> dict:
    """``MCTSBot(iterations)`` in each seat in turn against ``against``: its wins, draws, losses, seconds."""
    from concurrent.futures import ProcessPoolExecutor

    game = playtest.load(name)
    seats = len(game.seats())
    each = -(-games // seats)
    tally = {"win": 0, "draw": 0, "loss": 0, "timeout": 0, "games": 0}
    started = time.perf_counter()
    executor = ProcessPoolExecutor(workers) if workers and workers > 1 else None
    try:
        for seat in range(seats):
            table = [against[s] if isinstance(against, list) else against for s in range(seats)]
            table[seat] = ("mcts", {"iterations": iterations, "seed": seat})
            result = playtest.simulate(game, table, games=each, seed=f"mcts-{seat}", progress=False,
                                       executor=executor)
            frame = result.games
            seat_tally = {"win": 0, "draw": 0, "loss": 0}
            for _, row in frame.iterrows():
                tally[row[f"result_{seat}"]] += 1
                seat_tally[row[f"result_{seat}"]] += 1
                tally["timeout"] += bool(row["timeout"])
                tally["games"] += 1
            # a long match shows what it has so far, seat by seat (stopped early, its games are not lost)
            print(f"  ({name}: MCTS as seat {seat}, {len(frame)} games: {seat_tally['win']} / "
                  f"{seat_tally['draw']} / {seat_tally['loss']}, "
                  f"{(time.perf_counter() - started) / 60:.1f} minutes so far)", file=sys.stderr, flush=True)
    finally:
        if executor is not None:
            executor.shutdown()
    tally["seconds"] = time.perf_counter() - started
    return tally


def strength(names: list[str], iterations: int, games: int, workers: int | None, which: str = "all") -> None:
    from playtest.lab.metrics import wilson

    print(f"### MCTS({iterations}) against the random and the greedy bots ({games}+ games each, "
          f"the searching seat going round the table)\n")
    print("| game | against | games | MCTS wins / draws / losses | MCTS win rate (95% interval) | "
          "one seat's fair share | minutes |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name in names:
        game = playtest.load(name)
        for label, against in opponents(game):
            if which != "all" and (label == "random") != (which == "random"):
                continue
            t = match(name, against, iterations, games, workers)
            low, high = wilson(t["win"], t["games"])
            timeouts = f" ({t['timeout']} at the turn cap)" if t["timeout"] else ""
            print(f"| {name} | {label} | {t['games']} | {t['win']} / {t['draw']}{timeouts} / {t['loss']} | "
                  f"{t['win'] / t['games']:.0%} ({low:.0%} to {high:.0%}) | {1 / len(game.seats()):.0%} | "
                  f"{t['seconds'] / 60:.1f} |", flush=True)
    print(f"\n({load_note()})")


def main() -> None:
    ap = parser(__doc__)
    ap.set_defaults(seconds=10.0)
    ap.add_argument("--iterations", type=int, default=200, help="iterations per decision")
    ap.add_argument("--positions", type=int, default=20, help="decision positions per game (speed)")
    ap.add_argument("--games", nargs="*", default=None, help="games (default: all, and secret_bid for speed)")
    ap.add_argument("--no-speed", action="store_true", help="skip the speed table")
    ap.add_argument("--strength", action="store_true", help="play the strength matches too")
    ap.add_argument("--matches", type=int, default=40, help="games per match (strength; at least 40 for the table)")
    ap.add_argument("--workers", type=int, default=os.cpu_count(), help="processes for the matches")
    ap.add_argument("--against", choices=("all", "random", "greedy"), default="all", help="which matches to play")
    args = ap.parse_args()
    if args.quick:
        args.positions, args.seconds, args.matches = 4, 2.0, min(args.matches, 4)
    names = args.games or playtest.games()
    print(f"load average at the start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores\n")
    if not args.no_speed:
        speed(names + ([] if args.games else ["secret_bid"]), args.iterations, args.positions, args.seconds)
    if args.strength:
        strength(names, args.iterations, args.matches, args.workers, args.against)


if __name__ == "__main__":
    main()
