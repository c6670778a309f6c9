"""The bare reading of Then There Was One (``benchmarks/bare_then_there_was_one.py``) plays the kit's random games.

``bare_vs_lab.py`` measures the lab's random games against it as a ratio; the ratio means
something only if both play the same rules and the same random policy. Given the same
generators (the scatter's, and each seat's), the bare reading draws its numbers in the kit's
order, so the two play the same games move for move: same result, round, obstacles, walls,
tokens, arrivals and eliminations.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import playtest
from playtest.bots import RandomBot
from playtest.lab import play_game

HERE = Path(__file__).resolve().parent


def _bare():
    spec = importlib.util.spec_from_file_location("bare_then_there_was_one",
                                                  HERE.parent / "benchmarks" / "bare_then_there_was_one.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_bare_reading_plays_the_kits_random_games_move_for_move():
    bare = _bare()
    game = playtest.load("then_there_was_one")
    results = set()
    for i in range(40):
        state, _ = play_game(game, [RandomBot(100 * i + s) for s in range(4)], random.Random(i))
        outcome = game.outcome(state)
        kit = ("draw" if not outcome.winners else "wall" if 0 in outcome.winners else "tokens", state.round,
               state.obstacles, state.walls, state.tokens, len(state.arrived), len(state.eliminated))
        assert bare.play_out(random.Random(i), [random.Random(100 * i + s) for s in range(4)]) == kit, i
        results.add(kit[0])
    assert {"tokens", "draw"} <= results           # both ways a random game ends are met


def test_the_bare_reading_uses_no_kit_code():
    text = (HERE.parent / "benchmarks" / "bare_then_there_was_one.py").read_text()
    head = text.split('if __name__ == "__main__":')[0]
    assert "import playtest" not in head and "from playtest" not in head
    assert "_randbelow" not in text
