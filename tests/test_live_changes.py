"""A live parameter change never strands a game (issue 28), for every game of the registry.

A live parameter may change at any position (the table's parameter panel, ``Session.set_params``).
Whatever the change, play must be able to go on: someone has a legal action, or chance is to move,
or the game is over. Each game settles a change its rules cannot continue from in its own
``adapt_state`` (Corner Rush: a move under way with no legal step left ends as ``stuck_policy`` says).

The walk is seeded: random games, and at random positions along them every live parameter is set to
each of a few other values (a value the parameter's checks refuse is skipped: refusing is allowed).
``PLAYTEST_FUZZ_EXAMPLES`` (as in ``tests/test_hostile_input.py``) makes it longer.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

import playtest
from playtest import CHANCE, Session
from playtest.rules import ParamSpec, draw_outcome

GAMES = playtest.games()
ROUNDS = max(1, int(os.environ.get("PLAYTEST_FUZZ_EXAMPLES", "30")) // 10)     # random games per game


def other_values(spec: ParamSpec, current: Any, rng: random.Random) -> list[Any]:
    """A few values of ``spec`` other than ``current``: every other choice, the ends of a range, a random
    one, and for lists a few changes of the list (some of which the game's checks may refuse)."""
    if spec.choices is not None:
        values = list(spec.choices)
    elif isinstance(spec.default, bool):
        values = [not current]
    elif isinstance(spec.default, (int, float)):
        lo = spec.min if spec.min is not None else min(0, current)
        hi = spec.max if spec.max is not None else max(current, lo) + 10
        kind = type(spec.default)
        values = [kind(lo), kind(hi), kind(min(hi, current + 1)), kind(max(lo, current - 1)),
                  kind(rng.uniform(lo, hi)) if kind is float else rng.randint(int(lo), int(hi))]
    elif isinstance(spec.default, tuple):
        values = [spec.default, current[::-1], current[:-1], current + current[-1:] if current else current]
        if current and all(type(v) is int for v in current):
            values.append(tuple(rng.randint(0, max(current) + 1) for _ in current))
        elif current:
            values.append(tuple(rng.sample(list(current), len(current))))
    elif isinstance(spec.default, str):
        values = [spec.default, current + "x"]
    else:
        values = []
    return [v for k, v in enumerate(values) if v != current and v not in values[:k]]


def can_go_on(game: playtest.Game, state: Any) -> bool:
    mover = game.to_move(state)
    return mover is None or mover == CHANCE or bool(game.legal_actions(state))


def changed(game: playtest.Game, name: str, value: Any, cache: dict) -> playtest.Game | None:
    """The game with ``name`` set to ``value`` (made once per parameter set), or None when refused."""
    try:
        params = game.params.replace(**{name: value})
    except ValueError:
        return None
    new = cache.get(params)
    if new is None:
        new = cache[params] = type(game)(params)
    return new


@pytest.mark.parametrize("name", GAMES)
def test_no_live_change_strands_a_game(name):
    base = playtest.load(name)
    live = [s for s in base.Params.specs() if s.live]
    assert live, f"{name} declares no live parameter"
    rng = random.Random(f"live changes {name}")
    cache: dict = {base.params: base}
    stranded = []
    checked = 0
    for _round in range(ROUNDS):
        game, state = base, base.initial_state()
        for _step in range(300):
            if game.to_move(state) is None:
                break
            if rng.random() < 0.12:                  # here, try every live parameter
                for spec in live:
                    for value in other_values(spec, getattr(game.params, spec.name), rng):
                        new = changed(game, spec.name, value, cache)
                        if new is None:
                            continue
                        checked += 1
                        after = new.adapt_state(state, game)
                        if not can_go_on(new, after):
                            stranded.append(f"{spec.name}={value!r} at {state!r}"[:600])
            if rng.random() < 0.05:                  # and play on under one of them
                spec = rng.choice(live)
                values = other_values(spec, getattr(game.params, spec.name), rng)
                new = changed(game, spec.name, rng.choice(values), cache) if values else None
                if new is not None:
                    game, state = new, new.adapt_state(state, game)
                    continue
            mover = game.to_move(state)
            if mover == CHANCE:
                state = game.apply(state, draw_outcome(game.chance_outcomes(state), rng))
            else:
                actions = game.legal_actions(state)
                assert actions, f"{name}: nothing to play at {state!r}"[:600]
                state = game.apply(state, rng.choice(actions))
    assert checked > 50, f"{name}: only {checked} changes tried"
    assert not stranded, f"{name}: {len(stranded)} live changes leave nothing to play, e.g. {stranded[0]}"


def test_a_stranding_change_through_the_session_plays_on():
    """The case that was found (issue 28): Corner Rush, ``pawn_pass_through = false`` set in the middle
    of a move whose only way on was over another pawn. The table's "Bot move" then had nothing to
    choose from; now the move ends as ``stuck_policy`` says and the game goes on."""
    game = playtest.load("corner_rush", num_players=2)
    start = game.state_from_json({"phase": "move", "to_move": 0, "steps": 2, "path": ["a5"],
                                  "pawns": ["a5", "b5"], "blockers": {"a4": {"colour": 1, "value": 3}}})
    session = Session(game, seed=1, start=start)
    session.set_params(pawn_pass_through=False)
    assert session.state.phase == "place" and session.to_move == 0     # Red stays on a5; its blocker drawn
    assert game.B.label(session.state.pawns[0]) == "a5"
    session.play_bot(playtest.bots.RandomBot(1))                          # (it was "empty sequence")
    assert session.state.phase == "start" and session.to_move == 1
