"""Games written by newcomers from the guide alone (tests/test_newcomer*_games.py), and what every
one of them is put through alike."""

from __future__ import annotations

from typing import Any


def takes_interop(name: str, params: dict[str, Any] | None = None) -> None:
    """The game ``name`` (with ``params``) as an OpenSpiel game and a PettingZoo environment: the
    seats, OpenSpiel's random simulation test and PettingZoo's API test (skipped without the
    interop extra)."""
    import pytest
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    import playtest
    from playtest.interop.openspiel import register
    from playtest.interop.pettingzoo import env
    params = params or {}
    spiel = register(name, **params)
    assert spiel.num_players() == playtest.load(name, **params).seat_count()
    pyspiel.random_sim_test(spiel, num_sims=2, serialize=False, verbose=False)
    api_test(env(name, **params), num_cycles=20)
