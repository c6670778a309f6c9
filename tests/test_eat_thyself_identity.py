"""Eat Thyself plays exactly as it did before this round's speed work (issue 27): a digest of
thousands of positions of seeded random games under several parameter sets, each position with

* its JSON form, byte for byte (``json.dumps``, as a session file writes it), read back to an equal state
  (or refused with the same message),
* the board's view of it (the scene JSON), every third position and every final one,
* its legal actions in order with their notation and JSON, and the running scores,
* the random sampler's draw and the generator's state after it (the same numbers drawn),
* the refusals of a few actions that are not legal there (the text and the rule),

compared with digests made by the rules of ``main`` before these changes (run this file's
``digest`` on that revision to make them again).
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

import playtest
from playtest.games.eat_thyself import Discard, KeepPawns, Move, Pass, PlaceInGap, PlaceOnTile, RemovePawn, Take

VARIANTS = [
    {},
    {"num_players": 3},
    {"count_empty_tiles": False, "opponent_pawn_return": "may"},
    {"allow_both_directions": False, "own_king_bonus_removals": 2, "opponent_king_extra_pieces": 3},
    {"num_players": 3, "win_condition": "one_king_left", "simultaneous_win": "shared", "turn_order": "reverse"},
    {"kings_per_player": 1, "pawns_per_player": 1, "setup_sequence_2p": "▲ △ □ ● ○ □",
     "setup_sequence_3p": "▲ △ ● ○ ◆ ◇", "card_types": ("1&2", "1&3", "2&4", "4&8"), "card_pair": ("2&4", "4&8"),
     "initial_faces": (2, 4), "max_turns": 40},
]

#: digest(game) of each variant, made by the rules of main at 1e7499a (before this round's changes)
BEFORE = ["e7c2e1d7d6977eca2cd7", "9677026cf1d2cd7d611b", "ef214a696ca929cc012f", "9c820a645ed339c0d2ac",
          "47f21f50def9d882c451", "76c17d1a428977c6d4ee"]

#: actions put to why_not in every position (most are refused there; the refusals are part of the digest)
PROBES = [Move(0, 0, 1), Move(1, 1, -1), Move(3, 0, -1), Pass(), KeepPawns(), RemovePawn(2), Take(1), Take(5),
          PlaceInGap(1, 0), PlaceInGap(3, 4), PlaceOnTile(3, 0), PlaceOnTile(1, 4), Discard(1), Discard(3)]


def digest(game, games: int = 16) -> tuple[str, int]:
    """(the digest, how many positions) of ``games`` seeded random games of ``game``."""
    h = hashlib.sha256()
    count = 0
    for seed in range(games):
        rng = random.Random(seed)
        state = game.initial_state()
        while True:
            count += 1
            text = json.dumps(state.to_json(), ensure_ascii=False)
            try:          # (a position in the middle of a turn may be one the reader refuses: so be it, the same way)
                again: object = game.state_from_json(json.loads(text)) == state
            except ValueError as exc:
                again = str(exc)
            h.update(text.encode())
            h.update(repr((again, game.running_scores(state), game.describe_state(state))).encode())
            if game.to_move(state) is None:
                h.update(json.dumps(game.view(state), ensure_ascii=False, sort_keys=True).encode())
                h.update(repr(game.outcome(state)).encode())
                break
            if count % 3 == 0:
                h.update(json.dumps(game.view(state), ensure_ascii=False, sort_keys=True).encode())
            legal = game.legal_actions(state)
            h.update(repr([(a, game.notation(state, a), a.to_json()) for a in legal]).encode())
            h.update(repr([game.why_not(state, a, state.to_move) for a in PROBES]).encode())
            action = game.random_action(state, rng)
            h.update(repr((action, rng.random())).encode())
            state = game.apply(state, action)
    return h.hexdigest()[:20], count


@pytest.mark.parametrize("index", range(len(VARIANTS)))
def test_the_same_play_as_before(index):
    game = playtest.load("eat_thyself", **VARIANTS[index])
    made, count = digest(game)
    assert count > 200
    assert made == BEFORE[index]
