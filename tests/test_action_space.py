"""A game's ``action_space()``: every action of its parameters, so the numbering libraries read
(OpenSpiel, PettingZoo: :mod:`playtest.kernel.encoding`) is the same in every process. Eat Thyself
writes it: an id history recorded in one process read another action in a process that had played
other games first (ids past the explored ones were taken in the order actions were met)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

import playtest
from playtest.kernel.encoding import ActionEncoding

ROOT = Path(__file__).resolve().parent.parent
PARAMS = [{}, {"num_players": 3}, {"opponent_pawn_return": "may"}, {"allow_both_directions": False},
          {"count_empty_tiles": False},
          {"num_players": 3, "opponent_pawn_return": "may", "allow_both_directions": False}]


@pytest.mark.parametrize("params", PARAMS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "default")
def test_eat_thyselfs_action_space_holds_every_action_it_lists(params):
    game = playtest.load("eat_thyself", **params)
    space = set(game.action_space())
    assert len(space) == len(game.action_space())                     # each action once
    encoding = ActionEncoding.for_game(game)
    assert encoding.capacity == encoding.size                          # no spare id to take
    for seed in range(40):
        rng, state = random.Random(seed), game.initial_state()
        while game.to_move(state) is not None:
            listed = game.legal_actions(state)
            assert set(listed) <= space, sorted(map(str, set(listed) - space))
            assert [encoding.decode(encoding.encode(a)) for a in listed] == listed
            state = game.apply(state, rng.choice(listed))


def test_the_numbering_is_the_same_in_a_process_that_met_other_actions_first():
    script = ("import json, random, playtest\n"
              "from playtest.kernel.encoding import ActionEncoding\n"
              "import sys\n"
              "if sys.argv[1] == 'busy':\n"
              "    for name in ('tic_tac_toe', 'connect_four'):\n"
              "        g = playtest.load(name); ActionEncoding.for_game(g)\n"
              "game = playtest.load('eat_thyself')\n"
              "enc = ActionEncoding.for_game(game)\n"
              "print(json.dumps([enc.encode(a) for a in game.action_space()]))\n")
    ids = [json.loads(subprocess.run([sys.executable, "-c", script, how], cwd=ROOT, capture_output=True,
                                     text=True, check=True).stdout) for how in ("fresh", "busy")]
    assert ids[0] == ids[1] and len(set(ids[0])) == len(ids[0])
