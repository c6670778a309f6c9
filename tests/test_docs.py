"""The README's parameter tables are generated from the declarations and must be current."""

from pathlib import Path

import playtest
from playtest.docs import games_markdown, refresh_readme

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_parameter_tables_are_current():
    text = README.read_text(encoding="utf-8")
    assert refresh_readme(text) == text, "run: python -m playtest.docs --write README.md"


def test_every_game_and_parameter_is_documented():
    text = games_markdown()
    for name in playtest.games():
        game = playtest.load(name)
        assert game.credit and game.title in text
        for spec in game.params.specs():
            assert f"`{spec.name}`" in text and spec.help


def test_readme_starts_with_the_two_commands():
    lines = [line for line in README.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert lines[1] == "```bash"
    assert lines[2].startswith("./dev.sh lab") and lines[3].startswith("./dev.sh test")
    assert lines[4] == "```"


def test_the_adding_a_game_guide_runs():
    """Every example in docs/adding_a_game.md runs and prints what the page says."""
    import doctest
    guide = README.parent / "docs" / "adding_a_game.md"
    result = doctest.testfile(str(guide), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 10 and result.failed == 0
