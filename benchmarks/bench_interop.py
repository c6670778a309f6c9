"""The OpenSpiel adapter must not be the bottleneck: OpenSpiel's random simulation of a kit game
through :func:`playtest.interop.openspiel.register` runs at no less than half the kit's own
random-playout rate (issue 24), both measured in one run, as games per CPU second.

The kit's rate is the lab's random playout (``RandomBot`` for every seat, chance drawn by the
game, ``benchmarks.common.random_game_rate``); OpenSpiel's is the loop of its own random
simulation (``legal_actions``, a uniformly random id, ``apply_action``; chance sampled from
``chance_outcomes``) on the registered ``pyspiel`` game. OpenSpiel's loop lists every legal
action at every step; a kit game with its own ``random_action`` sampler (Source, Eat Thyself)
never lists them in the kit's playout, so a second ratio compares the adapter with the kit
playing the same listing loop: that one is the adapter's own cost. Needs the ``interop`` extra.

    python benchmarks/bench_interop.py [--quick] [--seconds 5] [--game source]
"""

from __future__ import annotations

import random
import time

from common import parser, random_game_rate, report

import playtest


def spiel_rate(spiel_game, seconds: float, games: int) -> tuple[float, int, int]:
    """(games per CPU second, games, steps) of OpenSpiel-style random play of ``spiel_game``."""
    rng = random.Random(1)
    played = steps = 0
    started, cpu = time.perf_counter(), time.process_time()
    while played < games and (played == 0 or time.perf_counter() - started < seconds):
        state = spiel_game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            elif state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(spiel_game.num_players())])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        played += 1
    return played / (time.process_time() - cpu), played, steps


def listing_play(game, rng):
    """A random game that lists every legal action at each step, as OpenSpiel's loop must."""
    state, steps = game.initial_state(), 0
    while game.to_move(state) is not None:
        if game.to_move(state) == playtest.CHANCE:
            action = game.chance_outcome(state, rng)
        elif game.to_move(state) == playtest.SIMULTANEOUS:
            action = rng.choice(game.legal_actions(state))
        else:
            action = rng.choice(game.legal_actions(state))
        state = game.apply(state, action, check=False)
        steps += 1
    return state, steps


GAMES = ["eat_thyself", "then_there_was_one", "source", "corner_rush", "back_to_the_wall"]


def main() -> None:
    ap = parser(__doc__)
    ap.add_argument("--game", default=None, help="one kit game to measure (default: the five games)")
    args = ap.parse_args()
    from playtest.interop.openspiel import register

    rows = []
    for name in [args.game] if args.game else GAMES:
        game = playtest.load(name)
        long = name in ("then_there_was_one", "back_to_the_wall")
        games = 4 if args.quick else (8 if long else 200)
        seconds = min(args.seconds, 1.0) if args.quick else args.seconds
        spiel = register(game)                                # exploration and registration: not timed
        kit, kit_words = random_game_rate(game, games, batches=4, seconds=seconds, tally=lambda o: "played")
        listing, _ = random_game_rate(game, games, batches=4, seconds=seconds, tally=lambda o: "played",
                                      play=listing_play)
        ours, played, steps = spiel_rate(spiel, seconds, games)
        rows += [(f"{name}: kit random playout (the lab's RandomBot)", kit_words, "", None),
                 (f"{name}: OpenSpiel random simulation through the adapter",
                  f"{ours:.2f} games/s of CPU time ({played} games, {steps / played:.0f} steps a game)", "", None),
                 (f"{name}: adapter / kit random playout (one run)", f"{ours / kit:.2f}", "at least 0.5",
                  ours / kit >= 0.5),
                 (f"{name}: adapter / kit playout listing every move (one run)", f"{ours / listing:.2f}",
                  "(the adapter's own cost)", None)]
    report(rows, "OpenSpiel adapter speed")


if __name__ == "__main__":
    main()
