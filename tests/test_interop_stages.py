"""Staged decisions of the OpenSpiel adapter (``stages``, :mod:`playtest.interop.core`): a decision
among several kinds of action in two steps, the kind then which one, for the games whose such
decisions are large (Then There Was One's wall turn, Back to the Wall's order parts). The game
tree stays the kit's: every legal action is reachable through its kind, a kind with one action
is played at once, and the kind chosen is shown to whom may see it. Skipped, with the reason,
where ``open_spiel`` is not installed."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (the interop extra)")

import playtest  # noqa: E402
from playtest.interop.core import KitShape  # noqa: E402
from playtest.interop.openspiel import kit_state, register  # noqa: E402


def _to_kind_stage(game, seed=0, steps=3000):
    """A state of ``game`` (a pyspiel game) whose seat to act first chooses a kind."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        assert not state.is_terminal()
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        legal = state.legal_actions()
        if any(game.shape.kind_of(a) is not None for a in legal):
            return state
        state.apply_action(rng.choice(legal))
    raise AssertionError("no decision among kinds met")


def test_auto_stages_only_the_large_mixed_decisions():
    staged = {name: KitShape.of(playtest.load(name)).staged
              for name in ["then_there_was_one", "back_to_the_wall", "kuhn_poker", "source", "eat_thyself",
                           "corner_rush", "tic_tac_toe", "secret_bid", "goofspiel"]}
    assert staged == {"then_there_was_one": True, "back_to_the_wall": True, "kuhn_poker": False, "source": False,
                      "eat_thyself": False, "corner_rush": False, "tic_tac_toe": False, "secret_bid": False,
                      "goofspiel": False}
    with pytest.raises(ValueError, match="stages"):
        KitShape.of(playtest.load("tic_tac_toe"), stages="sometimes")


@pytest.mark.parametrize("name", ["then_there_was_one", "back_to_the_wall"])
def test_every_legal_action_is_reachable_through_its_kind(name):
    game = register(name)
    kit = game.shape.game
    for seed in range(3):
        state = _to_kind_stage(game, seed)
        who = state.current_player()
        position = kit_state(state)
        listed = kit.legal_actions(position, who) if kit.to_move(position) == playtest.SIMULTANEOUS \
            else kit.legal_actions(position)
        reached = []
        for code in state.legal_actions():
            kind = game.shape.kind_of(code)
            assert kind is not None and state.action_to_string(who, code) == f"kind {kind}"
            child = state.child(code)
            if kit_state(child) is not position:        # a kind with one action: played at once
                reached.append(child.play.history[-1][1])
                continue
            assert child.current_player() == who and f"choosing {kind}" in str(child)
            assert all(game.shape.kind_of(a) is None for a in child.legal_actions())
            reached += [game.shape.encoding.decode(a) for a in child.legal_actions()]
            assert {a.kind for a in reached[-len(child.legal_actions()):]} == {kind}
        assert sorted(map(str, reached)) == sorted(map(str, listed))


def test_the_kind_chosen_is_seen_by_whom_may_see_it():
    # Then There Was One has perfect information: every seat sees the kind chosen
    game = register("then_there_was_one")
    state = _to_kind_stage(game)
    who = state.current_player()
    code = next(a for a in state.legal_actions()
                if len(state.play.kind_groups()[a - game.shape.encoding.capacity]) > 1)
    child = state.child(code)
    for seat in range(game.num_players()):
        assert f"seat {who} chooses a" in child.information_state_string(seat)
    # Back to the Wall's orders are secret: only the seat giving its order sees the kind it chose
    game = register("back_to_the_wall")
    state = _to_kind_stage(game)
    who = state.current_player()
    code = next(a for a in state.legal_actions()
                if len(state.play.kind_groups()[a - game.shape.encoding.capacity]) > 1)
    child = state.child(code)
    for seat in range(game.num_players()):
        seen = f"seat {who} chooses a" in child.information_state_string(seat)
        assert seen == (seat == who)
        assert child.information_state_string(seat) == state.information_state_string(seat) or seat == who


def test_a_kind_not_offered_is_refused_and_stages_none_is_flat():
    game = register("then_there_was_one")
    state = _to_kind_stage(game)
    offered = set(state.legal_actions())
    base = game.shape.encoding.capacity
    absent = next(base + k for k in range(len(game.shape.encoding.types)) if base + k not in offered)
    with pytest.raises(ValueError, match="not legal"):
        state.play.step(state.current_player(), absent)
    child = state.child(next(a for a in offered if len(state.play.kind_groups()[a - base]) > 1))
    with pytest.raises(ValueError, match="not legal"):
        child.play.step(child.current_player(), min(offered))     # a kind again, once one is chosen
    flat = register("then_there_was_one", stages="none")
    assert flat.get_type().short_name == "playtest_then_there_was_one__stages_none"
    assert not flat.shape.staged and flat.num_distinct_actions() == game.shape.encoding.capacity


@pytest.mark.parametrize("name", ["then_there_was_one", "back_to_the_wall"])
def test_staged_games_serialize_and_replay(name):
    game = register(name)
    rng = random.Random(4)
    state = game.new_initial_state()
    for _ in range(400):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state) and again.history() == state.history()
    assert again.legal_actions() == state.legal_actions()


def test_openspiel_mcts_bot_plays_a_staged_game():
    from playtest.interop.spiel_bots import SpielMCTSBot
    kit = playtest.load("then_there_was_one")
    game = register(kit)
    state = _to_kind_stage(game)
    bot = SpielMCTSBot(simulations=4, rollouts=1, seed=2)
    position = kit_state(state)
    seat = state.current_player()
    action = bot.choose(kit, position, seat)
    assert kit.why_not(position, action) is None and action in kit.legal_actions(position)
