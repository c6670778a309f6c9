"""Every game the kit registers has a numbered rules page, and every rule it cites resolves.

The games come from the registry (``playtest.games()`` and the unlisted examples shipped in the
package), never from a list written here, so a new game is held to this the day it is registered.
Citations are collected the ways the games produce them:

* the rule parameters' ``rule`` (``ParamSpec.rule``);
* the game's source: ``(rule X)`` in messages, ``rule=`` keywords and rule-number constants
  (``R_ORDER = "B.1 §8"``), which also covers the parameter checks' ``ValueError`` messages;
* random play: ``IllegalAction.rule`` of actions refused at random positions (actions seen
  elsewhere in the game, tried where they do not fit), and the rules cited by the scenes' hint
  and reasons, for the table and for every seat.
"""

from __future__ import annotations

import ast
import importlib
import random
import re
from pathlib import Path

import pytest

import playtest
from playtest import IllegalAction
from playtest.rulebook import _ID, cited_rules, rule_ids, rule_text, rules_page
from playtest.rules import _REGISTRY, CHANCE, game_class

ROOT = Path(playtest.__file__).parent


def kit_games() -> list[str]:
    """Every game registered by a module of the ``playtest`` package: the listed games and the
    unlisted examples (test files may register toy games of their own; those are not the kit's)."""
    listed = playtest.games()                       # (this also imports the games and the examples)
    names = sorted(name for name, cls in _REGISTRY.items() if cls.__module__.startswith("playtest."))
    assert set(listed) <= set(names) and len(names) > len(listed)      # the examples are in
    return names


GAMES = kit_games()


def source_files(name: str) -> list[Path]:
    """The files of the module or package that defines game ``name`` (``playtest.games.<game>``,
    ``playtest.examples.<game>``)."""
    home = importlib.import_module(".".join(game_class(name).__module__.split(".")[:3]))
    if hasattr(home, "__path__"):
        return sorted(Path(home.__path__[0]).glob("*.py"))
    return [Path(home.__file__)]


def cited_in_source(name: str) -> set[str]:
    found: set[str] = set()
    for path in source_files(name):
        text = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.keyword) and node.arg == "rule" and isinstance(node.value, ast.Constant) \
                    and isinstance(node.value.value, str) and node.value.value:
                found.add(node.value.value)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and re.fullmatch(_ID, node.value):
                found.add(node.value)
        found.update(cited_rules(text))
    return found


def cited_by_params(name: str) -> set[str]:
    return {r.strip() for spec in game_class(name).Params.specs() for r in spec.rule.split(",") if r.strip()}


def cited_in_play(name: str, games: int = 3, steps: int = 150) -> set[str]:
    """Rules cited while playing at random: refusals (``IllegalAction.rule`` and the message) and
    the scenes' hints and reasons, for the table and every seat."""
    game = playtest.load(name)
    seats = [None, *range(len(game.seats()))]
    found: set[str] = set()
    pool: list = []
    for k in range(games):
        rng = random.Random(k)
        session = playtest.Session(game, seed=k)
        state = session.state
        for step in range(steps):
            if game.outcome(state) is not None:
                break
            if step % 3 == 0:
                for seat in seats:
                    scene = game.view(state, seat)
                    for text in [scene.get("hint", ""), *scene.get("reasons", {}).values()]:
                        found.update(cited_rules(text))
            for action in rng.sample(pool, min(len(pool), 12)):
                try:
                    game.apply(state, action)
                except IllegalAction as err:
                    if err.rule:
                        found.add(err.rule)
                    found.update(cited_rules(str(err)))
            action = game.random_action(state, rng)
            if game.to_move(state) != CHANCE:
                pool.append(action)
            state = game.apply(state, action)
        found.update(cited_rules(game.view(state).get("hint", "")))   # the end, or where play stopped
    return found


def test_the_registry_holds_every_game_and_its_examples():
    assert {"corner_rush", "back_to_the_wall", "eat_thyself", "source", "then_there_was_one"} <= set(GAMES)
    assert "secret_bid" in GAMES


@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_a_numbered_rules_page_shipped_with_the_package(name):
    page = rules_page(name)
    assert (ROOT / "rules_pages" / f"{name}.md").is_file()
    assert page.splitlines()[0] == f"# {game_class(name).title}: the rules, numbered"
    numbers = re.findall(rf"^#+ ({_ID})\b", page, flags=re.M)
    assert len(numbers) == len(set(numbers)) == len(rule_ids(name)) >= 4      # each heading once
    assert "rules_pages/*.md" in (ROOT.parent / "pyproject.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", playtest.games())
def test_the_pages_of_the_listed_games_quote_their_seed_text(name):
    assert rules_page(name).count('"') >= 20


@pytest.mark.parametrize("name", GAMES)
def test_every_cited_rule_resolves_to_a_numbered_rule_of_the_page(name):
    by_params, in_source, in_play = cited_by_params(name), cited_in_source(name), cited_in_play(name)
    has_params = any(spec.rule for spec in playtest.load(name).params.specs())
    assert (by_params or not has_params) and (in_play or in_source or name == "kuhn_poker"), (by_params, in_play)
    # (each way found citations: Kuhn poker's refusals are all the kernel's, which cite no rule)
    cited = by_params | in_source | in_play
    missing = sorted(cited - set(rule_ids(name)))
    assert not missing, f"{name} cites rules its page does not number: {missing}"
    for rule_id in cited:
        text = rule_text(name, rule_id)
        assert text.startswith(rule_id) and len(text.splitlines()) >= 2, text


@pytest.mark.parametrize("name", GAMES)
def test_every_parameter_is_named_by_the_rule_it_cites(name):
    """A parameter's ``rule`` says where the page explains it: that rule's text names the parameter."""
    unexplained = []
    for spec in game_class(name).Params.specs():
        rules = [r.strip() for r in spec.rule.split(",") if r.strip()]
        assert rules, f"{name} parameter {spec.name} cites no rule"
        if not any(f"`{spec.name}`" in rule_text(name, r) for r in rules):
            unexplained.append(f"{spec.name} ({spec.rule})")
    assert not unexplained, f"{name}: parameters their rule does not name: {unexplained}"


def test_the_rules_the_issue_named_resolve():
    assert rule_text("corner_rush", "D14").startswith("D14 The move after a won challenge\n")
    assert "walls will not be placed" in rule_text("back_to_the_wall", "B10")
    assert rule_text("corner_rush", "D.1 §8.3").startswith("D.1 §8.3 Moving the pawn")
    assert rule_text("secret_bid", "SB3").startswith("SB3 The orders")
    assert cited_rules("a bid too high (rule SB3)") == ["SB3"]
    with pytest.raises(KeyError, match="Corner Rush's rules page has no rule D99"):
        rule_text("corner_rush", "D99")


def test_a_refusal_shows_the_text_of_the_rule_it_cites():
    from playtest.rulebook import explain
    session = playtest.Session(playtest.load("corner_rush"), seed=1)
    with pytest.raises(IllegalAction) as err:
        session.play({"kind": "place", "at": "c3"})
    shown = explain("corner_rush", str(err.value))
    assert err.value.rule and shown == f"{err.value}\n\n{rule_text('corner_rush', err.value.rule)}"
