"""Properties every game must keep over random legal play (hypothesis), for every registered game.

* undo then redo gives the same state;
* a saved and reloaded session replays to the same states at every position;
* an illegal action changes nothing;
* random play ends within the game's turn cap;
* the scene offers exactly the legal actions of the player to move.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import playtest
from playtest import CHANCE, IllegalAction
from playtest.lab import play_game

GAMES = playtest.games()
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_session(name: str, seed: int, steps: int) -> playtest.Session:
    session = playtest.Session(playtest.load(name), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if session.is_over:
            break
        session.play(session.game.random_action(session.state, rng))
    return session


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(seed=st.integers(0, 10_000), steps=st.integers(1, 60))
def test_undo_then_redo_restores_the_state(name, seed, steps):
    session = random_session(name, seed, steps)
    rng = random.Random(seed)
    for _ in range(rng.randint(1, 5)):
        if not session.can_undo:
            break
        before = (session.state, session.node)
        session.undo()
        session.redo()
        assert (session.state, session.node) == before


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(seed=st.integers(0, 10_000), steps=st.integers(1, 60), branch_at=st.integers(0, 30))
def test_save_and_reload_replays_identical_states(name, seed, steps, branch_at, tmp_path_factory):
    session = random_session(name, seed, steps)
    rng = random.Random(seed + 1)
    for _ in range(min(branch_at, session.move_number)):   # undo and play another line: a branch
        session.undo()
    if not session.is_over and session.to_move != CHANCE:
        session.play(session.game.random_action(session.state, rng))
    session.note("a note <b>with</b> markup")
    path = tmp_path_factory.mktemp("s") / "game.playtest.json"
    session.save(path)
    loaded = playtest.Session.load(path)
    assert loaded.positions() == session.positions()
    for node in range(session.positions()):
        assert loaded.position(node) == session.position(node)
    assert loaded.node == session.node and loaded.state == session.state
    assert [n.text for n in loaded.notes] == [n.text for n in session.notes]
    assert loaded.to_json()["nodes"] == session.to_json()["nodes"]


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 60))
def test_an_illegal_action_changes_nothing(name, seed, steps):
    session = random_session(name, seed, steps)
    if session.is_over or session.to_move == CHANCE:
        return
    legal = {json.dumps(a.to_json(), sort_keys=True) for a in session.legal_actions()}
    # actions that were legal at other positions of a random game, but are not here
    other = random_session(name, seed + 7, 40)
    candidates = []
    for node in range(other.positions()):
        state = other.position(node)
        game = other.game
        if game.to_move(state) not in (None, CHANCE):
            candidates += [a for a in game.legal_actions(state)
                           if json.dumps(a.to_json(), sort_keys=True) not in legal]
    before = (session.state, session.node, session.positions(), session.to_json()["nodes"])
    for action in candidates[:25]:
        with pytest.raises((IllegalAction, ValueError)):
            session.play(action)
        assert (session.state, session.node, session.positions(), session.to_json()["nodes"]) == before


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(seed=st.integers(0, 10_000))
def test_random_play_ends_within_the_cap(name, seed):
    game = playtest.load(name)
    state, steps = play_game(game, playtest.bots.RandomBot(seed), random.Random(seed), max_steps=200_000)
    assert game.to_move(state) is None
    assert game.outcome(state) is not None


def scene_options(scene: dict) -> list[str]:
    options = [o for opts in scene["moves"].values() for o in opts]
    options += [o for targets in scene["selects"].values() for opts in targets.values() for o in opts]
    options += scene["buttons"]
    return [json.dumps(o["action"], sort_keys=True) for o in options]


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 80))
def test_the_scene_offers_exactly_the_legal_actions(name, seed, steps):
    session = random_session(name, seed, steps)
    game, state = session.game, session.state
    scene = game.view(state)
    json.dumps(scene)                                   # a scene is plain JSON
    offered = set(scene_options(scene))
    if session.is_over or session.to_move == CHANCE:
        assert not offered
        return
    legal = set()
    for action in game.legal_actions(state):
        data = action.to_json()
        legal.add(json.dumps(data, sort_keys=True))
        # the board sends back exactly the JSON it was given; it must mean the same action
        assert game.action_from_json(json.loads(json.dumps(data))) == action
    assert offered == legal
    ids = [item["id"] for item in scene["items"] if "id" in item]
    assert len(ids) == len(set(ids)), "item ids are unique"
    clickable = set(scene["moves"]) | set(scene["selects"])
    clickable |= {t for targets in scene["selects"].values() for t in targets}
    assert clickable <= set(ids), "every clickable id is drawn"
