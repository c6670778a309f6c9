"""Speed of the Corner Rush rules, on one core.

    python benchmarks/bench_corner_rush.py [--quick] [--seconds 5] [--games 300] [--positions 3000] [--greedy 50]

Prints:

* random 4-player games per second (random bots for every seat, the default
  ``max_turns`` of 200), played the way the lab plays them
  (``playtest.lab.play_game``, unchecked applies; every bot decision is handed a
  state redrawn from its seat's knowledge by ``determinize``), per second of
  this process's CPU time (the one-core figure, fair on a busy machine) and per
  second of wall-clock time;
* the same games with the rules alone: random players on the true state (a
  random player reads nothing hidden), to show what determinization costs;
* the time to list the legal actions of the player to move, and to determinize
  a position for the seat to move: medians over positions met in random games;
* the greedy bots, for reference.

The game loops stop after their games or after ``--seconds`` of wall-clock time
each, whichever comes first (at least one batch, one greedy game).

No target in the issues: the figures are reported. 200 random 4-player games/s,
as the lab plays them, was our own aim, not an issue's (and not met: a random
game is about 600 steps, half of them to ``max_turns``; see the README).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from common import (counts, games_within, parser, positions_met, random_game_rate, random_games,  # noqa: E402
                    report, spread, time_each)

import playtest  # noqa: E402
from playtest.games.corner_rush import GreedyBot  # noqa: E402
from playtest.lab import play_game  # noqa: E402


def rules_only_game(game, rng: random.Random) -> tuple:
    """A random game on the true state: what the rules cost without determinization."""
    state, steps = game.initial_state(), 0
    to_move, apply, chance, pick = game.to_move, game.apply, game.chance_outcome, game.random_action
    while (mover := to_move(state)) is not None:
        action = chance(state, rng) if mover == playtest.CHANCE else pick(state, rng)
        state = apply(state, action, check=False)
        steps += 1
    return state, steps


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--games", type=int, default=300, help="random games to time")
    ap.add_argument("--batches", type=int, default=5, help="batches the games are timed in")
    ap.add_argument("--positions", type=int, default=3000, help="positions to time")
    ap.add_argument("--greedy", type=int, default=50, help="greedy-bot games to time (0: skip)")
    args = ap.parse_args()
    if args.quick:
        args.games, args.batches, args.positions, args.greedy, args.seconds = 10, 2, 200, 2, 1.0

    game = playtest.load("corner_rush", num_players=4)
    random_games(game, 2 if args.quick else 5, seed=99)  # warm up the tables
    rows = []
    for label, play in (("random 4-player games, as the lab plays them", None),
                        ("random 4-player games, rules alone (true state)", rules_only_game)):
        _rate, figure = random_game_rate(game, args.games, args.batches, args.seconds,
                                         lambda o: "draw" if o.is_draw else "won", play=play)
        rows.append((label, figure, "", None))

    states = positions_met(game, args.positions, seed=2)
    rows.append(("legal actions of the player to move", spread(time_each(states, game.legal_actions), "µs",
                                                                  "positions"), "", None))
    rng = random.Random(5)
    rows.append(("determinize for the mover",
                 spread(time_each(states, lambda s: game.determinize(s, s.mover, rng)), "µs", "positions"), "", None))

    if args.greedy:
        rng = random.Random(3)
        played, cpu, results = games_within(
            lambda: game.outcome(play_game(game, lambda: GreedyBot(seed=1), rng)[0]), args.greedy, args.seconds,
            lambda o: "draw" if o.is_draw else game.seats()[o.winners[0]].name)
        rows.append(("greedy bots (reference)", f"{played / cpu:.1f} games/s of CPU time ({played} games; "
                     f"{counts(results)})", "", None))
    report(rows, "Corner Rush, random games" + (" (--quick: a smoke run, not a measurement)" if args.quick else ""))


if __name__ == "__main__":
    main()
