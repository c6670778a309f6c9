"""The examples against an outside truth: tic-tac-toe, Kuhn poker and Goofspiel played in lockstep
with OpenSpiel's ``tic_tac_toe``, ``kuhn_poker`` and ``goofspiel`` (same actions, the same chance
outcomes forced), over thousands of random games: legal moves, terminal status and returns never
diverge (issue 23, point 6). Needs the ``interop`` extra (``open_spiel``); skipped without it.
"""

from __future__ import annotations

import random

import pytest

import playtest
from playtest import CHANCE, SIMULTANEOUS

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is in the interop extra (CPython 3.11+)")

from playtest.examples.goofspiel import Bid, Reveal  # noqa: E402
from playtest.examples.kuhn_poker import Bet, Deal, Pass  # noqa: E402
from playtest.examples.tic_tac_toe import Mark  # noqa: E402


def lockstep(kit, spiel, games: int, seed: int, to_kit, legal_kit) -> int:
    """Play ``games`` random games of both; return the steps compared."""
    rng = random.Random(seed)
    compared = 0
    for _ in range(games):
        state, other = kit.initial_state(), spiel.new_initial_state()
        while True:
            compared += 1
            over = kit.to_move(state) is None
            assert over == other.is_terminal(), (state, str(other))
            if over:
                assert list(kit.returns(state)) == pytest.approx(other.returns()), (state, str(other))
                break
            if other.is_chance_node():
                assert kit.to_move(state) == CHANCE
                outcomes = other.chance_outcomes()
                kit_outcomes = kit.chance_outcomes(state)
                assert sorted(p for _, p in outcomes) == \
                    pytest.approx(sorted(p for _, p in kit_outcomes))
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
                state = kit.apply(state, to_kit(state, action, None))
                other.apply_action(action)
            elif other.is_simultaneous_node():
                assert kit.to_move(state) == SIMULTANEOUS
                chosen = []
                for seat in range(2):
                    assert sorted(legal_kit(state, seat)) == sorted(other.legal_actions(seat))
                    chosen.append(rng.choice(other.legal_actions(seat)))
                for seat, action in enumerate(chosen):
                    state = kit.apply(state, to_kit(state, action, seat))
                other.apply_actions(chosen)
            else:
                seat = other.current_player()
                assert kit.to_move(state) == seat
                assert sorted(legal_kit(state, seat)) == sorted(other.legal_actions())
                action = rng.choice(other.legal_actions())
                state = kit.apply(state, to_kit(state, action, seat))
                other.apply_action(action)
    return compared


def test_tic_tac_toe_in_lockstep_with_openspiel():
    kit = playtest.load("tic_tac_toe")
    steps = lockstep(kit, pyspiel.load_game("tic_tac_toe"), 2000, 1,
                     lambda s, a, seat: Mark(a), lambda s, seat: [m.cell for m in kit.legal_actions(s, seat)])
    assert steps > 10_000


def test_kuhn_poker_in_lockstep_with_openspiel():
    kit = playtest.load("kuhn_poker")

    def to_kit(state, action, seat):
        if kit.to_move(state) == CHANCE:
            return Deal(state.cards.index(None), action)
        return Bet() if action == 1 else Pass()

    steps = lockstep(kit, pyspiel.load_game("kuhn_poker"), 3000, 2, to_kit,
                     lambda s, seat: [1 if isinstance(a, Bet) else 0 for a in kit.legal_actions(s, seat)])
    assert steps > 10_000


@pytest.mark.parametrize("cards", [4, 6])
def test_goofspiel_in_lockstep_with_openspiel(cards):
    kit = playtest.load("goofspiel", cards=cards)

    def to_kit(state, action, seat):
        return Reveal(action + 1) if seat is None else Bid(seat, action + 1)

    steps = lockstep(kit, pyspiel.load_game("goofspiel", {"num_cards": cards}), 600, 3, to_kit,
                     lambda s, seat: [a.card - 1 for a in kit.legal_actions(s, seat)])
    assert steps > 3_000
