"""Payoffs, not only winners (issue 23, point 5): a game that pays out chips gives the lab each
seat's mean return with its 95% interval, ``compare`` tests a difference in mean return, and the
search bot backs up payoffs scaled to the game's range."""

from __future__ import annotations

import random

import playtest
from playtest.bots import choose_for
from playtest.examples.kuhn_poker import Bet, Deal, Pass
from playtest.mcts import MCTSBot, returns


def test_the_summary_reports_mean_return_per_seat_beside_the_win_rates():
    result = playtest.simulate("kuhn_poker", games=300, seed=2, progress=False)
    table = result.summary()
    rows = table[table["metric"] == "mean return"]
    assert list(rows["who"]) == ["First", "Second"]
    first, second = rows.itertuples()
    assert abs(first.value + second.value) < 1e-9              # zero-sum: chips move from one to the other
    assert first.low < first.value < first.high and first.games == 300
    assert set(result.games["return_0"]) <= {-2.0, -1.0, 1.0, 2.0}
    assert "mean return" in result._repr_markdown_()


def test_a_win_loss_game_has_no_mean_return_rows():
    table = playtest.simulate("tic_tac_toe", games=20, seed=1, progress=False).summary()
    assert "mean return" not in set(table["metric"])


def test_compare_tests_a_difference_in_mean_return():
    comparison = playtest.compare("goofspiel", {"cards": 3}, {"cards": 5}, games=80, seed=1, progress=False)
    table = comparison.returns()
    assert list(table["who"]) == ["Left", "Right"] and set(table["test"]) == {"Welch's t-test"}
    assert all(0 <= p <= 1 for p in table["p_value"])
    kuhn = playtest.compare("kuhn_poker", {}, {}, games=60, seed=1, progress=False)
    assert kuhn.paid() and "mean return A" in kuhn._repr_markdown_()


def test_the_search_bot_scores_payoffs_by_the_games_range():
    game = playtest.load("kuhn_poker")
    state = game.apply(game.apply(game.initial_state(), Deal(0, 2)), Deal(1, 0))
    called = game.apply(game.apply(state, Bet()), Bet())              # K calls J: First wins 2 chips
    folded = game.apply(game.apply(state, Bet()), Pass())             # Second folds: First wins 1
    assert returns(game, called) == [1.0, 0.0]
    assert returns(game, folded) == [0.75, 0.25]
    # holding the king, the search bot bets: the chips, not only the win, are what it backs up
    bets = [choose_for(MCTSBot(iterations=150, seed=k), game, state, 0, random.Random(k)) for k in range(6)]
    assert sum(isinstance(b, Bet) for b in bets) >= 5
