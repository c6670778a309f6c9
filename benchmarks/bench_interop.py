"""The OpenSpiel adapter must not be the bottleneck: OpenSpiel's random simulation of a kit game
through :func:`playtest.interop.openspiel.register` runs at no less than half the kit's own
random-playout rate (issue 24), both measured in one run, as games per CPU second.

The kit's rate is the lab's random playout (``RandomBot`` for every seat, chance drawn by the
game, ``playtest.lab.play_game``); OpenSpiel's is the loop of its own random simulation
(``legal_actions``, a uniformly random id, ``apply_action``; chance sampled from
``chance_outcomes`` as OpenSpiel's C++ ``SampleAction`` does, one uniform number against the
cumulative probabilities (:func:`sample_action`); at a simultaneous node every seat's ids,
``apply_actions``) on the registered ``pyspiel`` game. OpenSpiel's loop lists every legal
action at every step; a kit game with its own ``random_action`` sampler (Source, Eat Thyself,
Corner Rush, Then There Was One) never lists them in the kit's playout. So a second ratio compares the adapter with the kit
playing a listing loop (uniform over ``legal_actions``): that one is the adapter's own cost
where both play the same games. Where the adapter stages a decision (Then There Was One's wall
turn, Back to the Wall's order parts: the kind of action first, then which one; see
:mod:`playtest.interop.core`), OpenSpiel's uniform pick chooses the kind first, so its games are
not the listing loop's: the listing loop's uniform pick over ~130 wall actions rarely ends Then
There Was One's wall turn (its games run about twice as long), and over ~270 parts it rarely
submits a Back to the Wall order (about five times as long).

The summary gives, beside the ratio and its target, the adapter's own cost (adapter / listing)
and what listing costs the game itself (listing / kit): no adapter can do better than the
second, since OpenSpiel's loop must list. Where it is under 0.5 the game's own
``legal_actions`` (and, for Then There Was One, the longer games of uniform play) is the
bottleneck, not the adapter.

Because the kit's sampler and a uniform pick over the listing play games of different lengths,
a third figure, **per step** (moves per CPU second, adapter / kit random playout), is printed
beside the per-game ratio and labelled as such. It is context, not the target: the target is
the per-game ratio, as issue 24 states it.

The three loops are measured in one run, interleaved batch by batch (kit, listing, adapter,
then again), so a machine whose load changes during the run slows the three alike. Every kit
game and example is measured by default. Needs the ``interop`` extra.

    python benchmarks/bench_interop.py [--quick] [--seconds 5] [--game source]
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from common import parser, random_games, report  # noqa: E402

import playtest  # noqa: E402

GAMES = ["eat_thyself", "then_there_was_one", "source", "corner_rush", "back_to_the_wall",
         "secret_bid", "tic_tac_toe", "connect_four", "kuhn_poker", "goofspiel"]
LONG = {"then_there_was_one", "back_to_the_wall"}


def sample_action(outcomes: list[tuple[int, float]], z: float) -> int:
    """The outcome that ``z`` (uniform in [0, 1)) falls on, as OpenSpiel's own ``SampleAction``
    draws a chance outcome in its C++ simulations: the first whose cumulative probability exceeds
    ``z`` (the last one when rounding leaves ``z`` past them all).

    >>> sample_action([(3, 0.5), (7, 0.25), (9, 0.25)], 0.6)
    7
    """
    total = 0.0
    for action, p in outcomes:
        total += p
        if total > z:
            return action
    return outcomes[-1][0]


def spiel_games(spiel_game, games: int, seed: int) -> tuple[float, int]:
    """(CPU seconds, steps) of ``games`` OpenSpiel-style random games of ``spiel_game``."""
    rng = random.Random(seed)
    steps = 0
    players = range(spiel_game.num_players())
    cpu = time.process_time()
    for _ in range(games):
        state = spiel_game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_action(state.chance_outcomes(), rng.random()))
            elif state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in players])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return time.process_time() - cpu, steps


def listing_play(game, rng):
    """A random game that lists every legal action at each step, as OpenSpiel's loop must."""
    state, steps = game.initial_state(), 0
    to_move, legal, apply = game.to_move, game.legal_actions, game.apply
    while True:
        mover = to_move(state)
        if mover is None:
            return state, steps
        if mover == playtest.CHANCE:
            action = game.chance_outcome(state, rng)
        elif mover == playtest.SIMULTANEOUS:
            seat = game.pending_seats(state)[0]
            action = rng.choice(legal(state, seat))
        else:
            action = rng.choice(legal(state))
        state = apply(state, action, check=False)
        steps += 1


def interleaved(game, spiel, batch: int, seconds: float, rounds_at_least: int = 2) -> dict[str, list[float]]:
    """Batches of the three loops in turn until ``seconds`` of wall clock have passed:
    ``{loop: [games, CPU seconds, steps]}``."""
    totals = {"kit": [0.0, 0.0, 0.0], "listing": [0.0, 0.0, 0.0], "adapter": [0.0, 0.0, 0.0]}
    started, seed = time.perf_counter(), 1
    while seed <= rounds_at_least or time.perf_counter() - started < seconds:
        _, cpu, _, steps = random_games(game, batch, seed=seed)
        totals["kit"] = [a + b for a, b in zip(totals["kit"], (batch, cpu, steps))]
        _, cpu, _, steps = random_games(game, batch, seed=seed, play=listing_play)
        totals["listing"] = [a + b for a, b in zip(totals["listing"], (batch, cpu, steps))]
        cpu, steps = spiel_games(spiel, batch, seed)
        totals["adapter"] = [a + b for a, b in zip(totals["adapter"], (batch, cpu, steps))]
        seed += 1
    return totals


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--game", default=None, help="one kit game to measure (default: every kit game and example)")
    args = ap.parse_args()
    from playtest.interop.openspiel import register

    rows, summary = [], []
    for name in [args.game] if args.game else GAMES:
        game = playtest.load(name)
        batch = 1 if name in LONG else 4 if name == "corner_rush" else 20
        seconds = min(args.seconds, 1.0) if args.quick else args.seconds
        spiel = register(game)                                # exploration and registration: not timed
        totals = interleaved(game, spiel, batch, seconds, rounds_at_least=1 if args.quick else 2)

        def rate(loop: str) -> float:
            games, cpu, _ = totals[loop]
            return games / cpu

        def step_rate(loop: str) -> float:
            _, cpu, steps = totals[loop]
            return steps / cpu

        def words(loop: str) -> str:
            games, _, steps = totals[loop]
            return (f"{rate(loop):.1f} games/s of CPU time ({games:.0f} games, {steps / games:.0f} steps a game; "
                    f"{step_rate(loop):,.0f} steps/s)")

        ratio, own = rate("adapter") / rate("kit"), rate("adapter") / rate("listing")
        per_step = step_rate("adapter") / step_rate("kit")
        kind = "simultaneous" if spiel.get_type().dynamics == spiel.get_type().Dynamics.SIMULTANEOUS else "sequential"
        rows += [(f"{name}: kit random playout (the lab's RandomBot)", words("kit"), "", None),
                 (f"{name}: kit random play listing every move", words("listing"), "", None),
                 (f"{name}: OpenSpiel random simulation through the adapter ({kind})", words("adapter"), "", None),
                 (f"{name}: adapter / kit random playout (one run)", f"{ratio:.2f}", "at least 0.5", ratio >= 0.5),
                 (f"{name}: adapter / kit listing every move (one run)", f"{own:.2f}",
                  "(the adapter's own cost)", None),
                 (f"{name}: adapter / kit random playout per step, moves per CPU second (one run)", f"{per_step:.2f}",
                  "(context, not the target: games differ in length)", None)]
        bound = rate("listing") / rate("kit")
        summary.append((f"{name} ({kind}): adapter / kit random playout",
                        f"{ratio:.2f} (adapter / listing {own:.2f}; listing / kit {bound:.2f}; "
                        f"per step, not the target: {per_step:.2f})",
                        "at least 0.5", ratio >= 0.5))
    report(rows, "OpenSpiel adapter speed")
    print()
    report(summary, "Summary: every game, the ratio beside its target")


if __name__ == "__main__":
    main()
