"""The positions a property is checked at: a history replayed, an even spread of its positions,
and what a position lists (the legal actions, chance's outcomes, a seeded sample of them)."""

from __future__ import annotations

import random
from typing import Any

from ..kernel import CHANCE, Game, UncountedChance


def _states(game: Game[Any, Any, Any], actions: list[Any]) -> list[Any]:
    states = [game.initial_state()]
    for action in actions:
        states.append(game.apply(states[-1], action, check=False))
    return states


def _spread(count: int, most: int) -> list[int]:
    """At most ``most`` indices of ``range(count)``: the first ten, then evenly spread, the last included."""
    if count <= most:
        return list(range(count))
    if most <= 10:                  # (fewer than eleven: the first ones and the last)
        return list(range(most - 1)) + [count - 1]
    head = list(range(10))
    rest = most - len(head)
    step = (count - 1 - head[-1]) / rest
    return head + sorted({head[-1] + round(step * (k + 1)) for k in range(rest)})


def _legal(game: Game[Any, Any, Any], state: Any) -> list[Any]:
    mover = game.to_move(state)
    if mover is None or mover == CHANCE:
        return []
    return list(game.legal_actions(state))


def _chance_listed(game: Game[Any, Any, Any], state: Any) -> list[Any]:
    outcomes = game.chance_outcomes(state)
    return [] if isinstance(outcomes, UncountedChance) else [a for a, _ in outcomes]


def _sample(items: list[Any], k: int, rng: random.Random) -> list[Any]:
    return items if len(items) <= k else rng.sample(items, k)
