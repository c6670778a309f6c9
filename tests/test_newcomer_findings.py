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


def test_a_testers_name_is_drawn_as_written_on_a_chart_never_as_matplotlib_maths(tmp_path):
    """A tester's name like ``$\\frac{$`` made ``think_time(by="author")`` fail to draw (matplotlib read it
    as maths: ValueError from its parser), and ``$x^2$`` would have been set as a formula."""
    import pytest
    pytest.importorskip("matplotlib")
    pytest.importorskip("pandas")
    from matplotlib.text import Text
    for k, who in enumerate([r"$\frac{1}{$x", r"Ann $x^2$"]):
        session = playtest.Session(playtest.load("othello_small"), seed=k)
        session.author = who
        for _ in range(3):
            session.play(session.legal_actions()[0])
        session.save(tmp_path / f"{k}.playtest.json")
    report = playtest.playtests(tmp_path)
    for by in ("author", "player"):
        chart = report.think_time(by=by, who="all")
        assert chart.png()[:4] == b"\x89PNG"
        texts = [t.get_text() for t in chart.figure.findobj(Text)]
        assert any(r"$\frac{1}{$x" in t for t in texts) and all(not t._parse_math for t in chart.figure.findobj(Text))


def test_notes_and_names_exported_to_csv_never_open_as_spreadsheet_formulas(tmp_path):
    """A note ``=HYPERLINK("http://…","click")`` in a tester's file became a live link (and any
    formula ran) when the designer opened ``report.to_csv``'s notes.csv in a spreadsheet."""
    import csv

    import pytest
    pytest.importorskip("pandas")
    session = playtest.Session(playtest.load("othello_small"), seed=1)
    session.author = "@SUM(1+1)"
    session.play(session.legal_actions()[0])
    session.note('=HYPERLINK("http://evil.example","click")')
    session.note("-2+3")
    session.note("a plain note, = inside")
    session.save(tmp_path / "s.playtest.json")
    report = playtest.playtests(tmp_path / "s.playtest.json")
    assert report.notes["text"].iloc[0].startswith("=HYPERLINK")      # the table itself keeps the text
    report.to_csv(tmp_path / "out")
    with open(tmp_path / "out" / "notes.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [r["text"] for r in rows] == ["'=HYPERLINK(\"http://evil.example\",\"click\")", "'-2+3",
                                         "a plain note, = inside"]
    assert {r["author"] for r in rows} == {"'@SUM(1+1)"}
    with open(tmp_path / "out" / "moves.csv", newline="", encoding="utf-8") as f:
        assert all(not cell.startswith(("=", "@")) for row in csv.reader(f) for cell in row)
