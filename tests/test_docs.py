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


NOTEBOOKS = README.parent / "notebooks"


def test_the_start_page_lists_every_game_from_the_registry():
    """The start page's list of games is generated (``games_list``), and each game's notebook exists."""
    from playtest.docs import games_list
    listed = games_list(link="{name}.ipynb")
    for name in playtest.games():
        assert f"]({name}.ipynb)" in listed and f'playtest.rules_page("{name}")' in listed
        assert (NOTEBOOKS / f"{name}.ipynb").is_file()
    start = (NOTEBOOKS / "00_start_here.ipynb").read_text(encoding="utf-8")
    assert "games_list(link=" in start


def test_notebooks_and_guides_point_to_the_kits_own_rules_pages():
    """``shared/rules/RULES.md`` is not in the repository: users are sent to ``playtest.rules_page``."""
    texts = {path: path.read_text(encoding="utf-8") for path in
             [*(p for p in NOTEBOOKS.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts), README.parent / "docs" / "adding_a_game.md", README]}
    assert not [str(p) for p, text in texts.items() if "RULES.md" in text]
    for name in ("corner_rush", "back_to_the_wall", "then_there_was_one"):
        assert f'playtest.rules_page(\\"{name}\\")' in texts[NOTEBOOKS / f"{name}.ipynb"]
