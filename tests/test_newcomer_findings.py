"""Defects a newcomer (a designer bringing a game of their own) and a hostile reviewer found, each
pinned by a test: tests/test_newcomer_games.py holds the games they wrote."""

from __future__ import annotations

import playtest
from tests.newgames import blind_auction, dice_bluff, othello_small  # noqa: F401  (registers them)


def test_a_report_of_a_game_without_credit_has_no_stray_emphasis():
    """A game that says no ``credit`` (every newcomer's first draft) printed a line "**" under the title."""
    report = playtest.Session(playtest.load("othello_small"), seed=1).report()
    assert "\n**\n" not in report and "\n\n\n" not in report
    assert report.splitlines()[:3] == ["# Othello (small): playtest report", "", "## Parameters"]
    source = playtest.load("source")
    assert playtest.Session(source).report().splitlines()[2].startswith("*Source, from")      # a credit stays
