"""The lab's runner against a bare ``play_game`` loop: random games per CPU second, game by game.

    python benchmarks/bench_runner.py [--quick] [--seconds 5] [--games eat_thyself source ...]

Three loops play the same game with one random bot a seat, in this process, in
alternating batches (so a busy machine slows all three alike), timed in CPU seconds:

* **runner**: ``playtest.lab._play.play_chunk``, what every worker of ``simulate``
  runs: fresh reseeded bots for every game, every bot action checked by the game's
  legality decision (``game.check``), the branching factor, lead changes and
  decisiveness, the row of the table of games;
* **bare**: ``playtest.lab.play_game`` with the same bots: the rules and the bots,
  nothing else (no check, no measure);
* **bare + check**: the bare loop calling ``game.check`` on every bot action too:
  what the lab's one legality decision costs by itself (the runner no longer pays it for
  the kit's random bot: it proves an action legal by identity with the listing it handed
  the bot, or takes the game's own sampler's word, checked by ``check_game``, and checks
  one decision in 32; see ``playtest/lab/_play.py``);
* **bare + scores**: the bare loop reading the game's running scores at every turn end, as
  the runner does for its lead changes and decisiveness: what the game's ``running_scores``
  costs by itself (the game's code, not the runner's).

In Back to the Wall every loop plays the random bot's whole orders (``playtest.bots.order_for``:
the game's ``random_order_parts``), one part a step; the runner checks every part.

* **runner, rules stepped** (games that write ``Game.random_playout``): the runner on the same game
  with its playout left out, stepping the rules as ``simulate`` does for any other bots. With every
  seat the kit's random bot, the runner plays such a game through the game's own playout (random
  play on its compact form, the same games and the same rows: ``tests/test_playout.py``), so its
  ratio says what a designer's random run costs; this row says what the runner's own stepping costs.

Target (issue 27): the runner at least x0.8 of the bare loop for every game. The ratios are
taken per step (CPU seconds per step of each loop): the three loops play random games of the
same kind but not the same games, and a game's length varies a lot (Corner Rush: from a few
dozen steps to the turn cap), which would swamp the comparison of a few hundred games; the
games/s are shown as well. The ratio runner / (bare + scores) is what the runner's own
bookkeeping (fresh bots, the proofs of legality, the branching sample, the row) costs beside the
game's running scores.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import parser, report  # noqa: E402

import playtest  # noqa: E402
from playtest.bots import RandomBot, choose_for, order_for  # noqa: E402
from playtest.lab import Job, play_game  # noqa: E402
from playtest.lab._play import _draws_orders, _hook, _plays_out, play_chunk  # noqa: E402
from playtest.rules import Game  # noqa: E402
from playtest.rules import CHANCE, SIMULTANEOUS  # noqa: E402

TARGET = 0.8
MIN_ROUNDS = 8          # batches of each loop at least, however long they take (Back to the Wall)


def checked_game(game, bots, rng, checked=True, scored=False):
    """``play_game`` (the same calls: a bot in a game without secrets has the state itself) with every
    bot action put to ``game.check`` (the lab's legality decision), and with ``scored`` the game's
    running scores read at every turn end (as the runner reads them)."""
    state, steps = game.initial_state(), 0
    to_move, apply, check, secrets = game.to_move, game.apply, game.check, game.has_secrets
    hook = _hook(Job(game), game) if scored else None
    draws = _draws_orders(game)
    queued = [[] for _ in bots]
    actor = None
    while True:
        mover = to_move(state)
        seat = game.pending_seats(state)[0] if mover == SIMULTANEOUS else mover
        if seat != actor and mover != CHANCE:
            if hook is not None and steps:
                hook(state)
            actor = seat
        if mover is None:
            return state, steps
        if mover == CHANCE:
            action = game.chance_outcome(state, rng)
        else:
            parts = queued[seat]
            if draws and mover == SIMULTANEOUS and not parts:
                parts.extend(reversed(order_for(bots[seat], game, state, seat) or []))
            if parts:
                action = parts.pop()
            elif mover >= 0 and not secrets:      # as play_game: the bot has the state itself
                action = bots[mover].choose(game, state)
            else:
                action = choose_for(bots[seat], game, state, seat, rng)
            if checked and check(state, action, seat) is not None:
                raise AssertionError(f"{game.name}: a random bot chose an illegal action")
        state = apply(state, action, check=False)
        steps += 1


def measure(name: str, seconds: float, batch_seconds: float) -> dict[str, float]:
    """Games per CPU second of the three loops, in alternating batches until ``seconds`` have passed."""
    game = playtest.load(name)
    bots = [RandomBot(s) for s in range(len(game.seats()))]
    job = Job(game, "random", seed=1)
    rng = random.Random(1)
    play_chunk(job, [0])                                   # warm up (imports, caches)
    started = time.process_time()
    play_game(game, bots, rng)
    per_game = max(time.process_time() - started, 1e-4)
    batch = max(1, round(batch_seconds / per_game))
    stepped = None
    if _plays_out(game):      # the same game with its playout left out: the runner steps the rules
        rules_only = type(f"{type(game).__name__}RulesOnly", (type(game),), {"random_playout": Game.random_playout})
        stepped = Job(rules_only(game.params), "random", seed=1)
        play_chunk(stepped, [0])
    loops = {     # each returns the steps it played
        "runner": lambda i: sum(row["length"] for row in play_chunk(job, list(range(i, i + batch)))),
        "bare": lambda i: sum(play_game(game, bots, rng)[1] for _ in range(batch)),
        "bare + check": lambda i: sum(checked_game(game, bots, rng)[1] for _ in range(batch)),
        "bare + scores": lambda i: sum(checked_game(game, bots, rng, False, True)[1] for _ in range(batch)),
    }
    if stepped is not None:
        loops["runner, rules stepped"] = lambda i: sum(row["length"] for row in play_chunk(stepped, list(range(i, i + batch))))
    cpu = dict.fromkeys(loops, 0.0)
    played = dict.fromkeys(loops, 0)
    steps = dict.fromkeys(loops, 0)
    index, wall, rounds = 1, time.perf_counter(), 0
    while rounds < MIN_ROUNDS or time.perf_counter() - wall < seconds:
        rounds += 1
        for what, loop in loops.items():
            before = time.process_time()
            steps[what] += loop(index)
            cpu[what] += time.process_time() - before
            played[what] += batch
        index += batch
    rates = {what: played[what] / cpu[what] for what in loops}
    per_step = {f"{what} steps": steps[what] / cpu[what] for what in loops}
    return rates | per_step | {"games": played["runner"], "length": steps["runner"] / played["runner"]}


def shown(rate: float) -> str:
    return f"{rate:,.0f}" if rate >= 100 else f"{rate:.1f}"


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--games", nargs="*", default=None, help="games to time (default: all five)")
    args = ap.parse_args()
    seconds = 1.0 if args.quick else args.seconds
    rows = []
    for name in args.games or playtest.games():
        rates = measure(name, seconds, batch_seconds=0.1 if args.quick else 0.3)
        ratio = rates["runner steps"] / rates["bare steps"]
        check = rates["bare + check steps"] / rates["bare steps"]
        scores = rates["bare + scores steps"] / rates["bare steps"]
        rows.append((f"{name}: runner / bare `play_game` (per step)",
                     f"x{ratio:.2f} (runner {shown(rates['runner'])} games/s, bare {shown(rates['bare'])}, "
                     f"bare + check {shown(rates['bare + check'])}, bare + scores {shown(rates['bare + scores'])}; "
                     f"per step: the check alone x{check:.2f}, the running scores alone x{scores:.2f}, "
                     f"runner / (bare + scores) x{rates['runner steps'] / rates['bare + scores steps']:.2f}; "
                     f"{rates['games']:.0f} runner games of {rates['length']:.0f} steps"
                     + (f"; the game's own random_playout: without it, stepping the rules, x"
                        f"{rates['runner, rules stepped steps'] / rates['bare steps']:.2f}"
                        if "runner, rules stepped" in rates else "") + ")",
                     f">= x{TARGET}", ratio >= TARGET))
        print(f"{name} done", file=sys.stderr, flush=True)
    report(rows, title="The lab's runner against a bare play_game loop (random bots, CPU time, one run)")


if __name__ == "__main__":
    main()
