"""Properties every game must keep over random legal play (hypothesis), for every registered game.

* undo then redo gives the same state;
* a saved and reloaded session replays to the same states at every position;
* an illegal action changes nothing;
* random play ends within the game's turn cap;
* the scene offers each seat exactly its legal actions (in a simultaneous step, or in a game
  with secrets, every seat its own);
* in a game with secrets, no seat sees what it may not know: two positions a seat cannot tell
  apart (``determinize``) look the same to it, offer it the same actions and make its bot
  choose the same.

The worked example game of the guide (Secret Bid: chance, secrets, simultaneous orders) runs
with the shipped games, so the core is held to the same properties.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import playtest
from playtest import CHANCE, SIMULTANEOUS, IllegalAction
from playtest.bots import RandomBot, choose_for
from playtest.lab import play_game

GAMES = playtest.games() + ["secret_bid"]
SECRET_GAMES = [name for name in GAMES if playtest.load(name).has_secrets]
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


def viewers(game, state):
    """Who looks at the board, with what each may do: the table alone for an open turn game;
    every seat, with its own actions, in a simultaneous step or a game with secrets."""
    mover = game.to_move(state)
    if mover in (None, CHANCE) or (mover != SIMULTANEOUS and not game.has_secrets):
        return [(None, game.legal_actions(state) if mover not in (None, CHANCE) else [])]
    seats = range(len(game.seats()))
    return [(seat, game.legal_actions(state, seat)) for seat in seats] + [(None, [])]


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 80))
def test_the_scene_offers_exactly_the_legal_actions(name, seed, steps):
    session = random_session(name, seed, steps)
    game, state = session.game, session.state
    for viewer, actions in viewers(game, state):
        scene = game.view(state, viewer)
        json.dumps(scene)                                   # a scene is plain JSON
        offered = set(scene_options(scene))
        legal = set()
        for action in actions:
            data = action.to_json()
            legal.add(json.dumps(data, sort_keys=True))
            # the board sends back exactly the JSON it was given; it must mean the same action
            assert game.action_from_json(json.loads(json.dumps(data))) == action
        assert offered == legal, f"viewer {viewer}"
        ids = [item["id"] for item in scene["items"] if "id" in item]
        assert len(ids) == len(set(ids)), "item ids are unique"
        clickable = set(scene["moves"]) | set(scene["selects"])
        clickable |= {t for targets in scene["selects"].values() for t in targets}
        assert clickable <= set(ids), "every clickable id is drawn"


@pytest.mark.parametrize("name", SECRET_GAMES)
@SETTINGS
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 80), k=st.integers(0, 10_000))
def test_no_seat_sees_what_it_may_not_know(name, seed, steps, k):
    session = random_session(name, seed, steps)
    game, state = session.game, session.state
    for seat in range(len(game.seats())):
        other = game.determinize(state, seat, random.Random(k))   # the same to this seat; secrets redrawn
        assert game.view(state, seat) == game.view(other, seat)
        assert game.legal_actions(state, seat) == game.legal_actions(other, seat)
        assert game.determinize(state, seat, random.Random(1)) == game.determinize(other, seat, random.Random(1))
        acting = game.to_move(state) == seat or (game.to_move(state) == SIMULTANEOUS
                                                 and game.legal_actions(state, seat))
        if acting:
            choices = [choose_for(RandomBot(seed=2), game, s, seat, random.Random(3)) for s in (state, other)]
            assert choices[0] == choices[1]
            assert choices[0] in game.legal_actions(state, seat)   # and legal in the true position


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 120))
def test_every_action_has_one_notation_that_plays_it(name, seed, steps):
    session = random_session(name, seed, steps)
    game, state = session.game, session.state
    for viewer, actions in viewers(game, state):
        notations = [game.notation(state, action, viewer) for action in actions]
        assert len(set(notations)) == len(notations), "two actions share a notation"
    if actions and viewer is None:
        before = session.positions()
        session.play(notations[-1])
        assert session.positions() == before + 1 or session.history()[-1]["notation"] == notations[-1]


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 120))
def test_every_position_reads_back_from_its_own_json(name, seed, steps):
    session = random_session(name, seed, steps)
    for node in session.line():
        state, game = session.position(node), session._nodes[node].game
        assert game.state_from_json(json.loads(json.dumps(state.to_json()))) == state


def random_params(name: str, data) -> dict:
    """A few parameters changed at random: choices and flags anywhere, numbers next to their default."""
    changes = {}
    for spec in data.draw(st.lists(st.sampled_from(playtest.load(name).params.specs()), max_size=3)):
        if spec.choices is not None:
            changes[spec.name] = data.draw(st.sampled_from(spec.choices))
        elif isinstance(spec.default, bool):
            changes[spec.name] = data.draw(st.booleans())
        elif isinstance(spec.default, int):
            low = spec.default - 1 if spec.min is None else max(spec.min, spec.default - 1)
            high = spec.default + 1 if spec.max is None else min(spec.max, spec.default + 1)
            changes[spec.name] = data.draw(st.integers(int(low), int(high)))
    return changes


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 60), data=st.data())
def test_play_accepts_exactly_what_legal_actions_lists_under_random_parameters(name, seed, steps, data):
    """One legality decision: every listed action is accepted, every other action seen in the game
    is refused with IllegalAction and changes nothing, whatever the parameters."""
    from hypothesis import assume
    try:
        game = playtest.load(name, **random_params(name, data))
        session = playtest.Session(game, seed=seed)
    except ValueError:
        assume(False)
        return
    rng = random.Random(seed)
    seen = set()
    for _ in range(steps):
        if session.is_over:
            break
        seen.update(session.legal_actions())
        session.play(session.game.random_action(session.state, rng))
    if session.is_over or session.to_move == CHANCE:
        return
    state, game = session.state, session.game
    legal = set(game.legal_actions(state))
    for action in legal:
        game.apply(state, action)
    for action in list(seen - legal)[:40]:
        with pytest.raises(IllegalAction):
            game.apply(state, action)
        assert session.state == state
