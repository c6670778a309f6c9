"""Rules a user can look up: each game's numbered rules page, and the text of any rule a message cites.

A message names the rule it applies to, ``(rule A.1 §14.1)`` or ``(rule E10)``;
the game's rules page (``playtest/rules_pages/<game>.md``, shipped with the
package) has a heading for every such number, written in the kit's own words
and quoting the seed text where it matters. ``A.1 §n`` numbers are the rules
proper, ``An`` the gaps in the seed text and the reading the kit takes (a
parameter each, named in the rule's text). Every registered game has a page,
the unlisted worked example of the guide too (``secret_bid``, rules ``SB1`` ...).

>>> import playtest
>>> print(playtest.rule_text("then_there_was_one", "A.1 §14.3").splitlines()[0])
A.1 §14.3 Clearance from tokens
>>> print(playtest.rule_text("corner_rush", "D14").splitlines()[0])
D14 The move after a won challenge
>>> cited_rules("a wall may not lie on an edge of a token's tile (c4|c5) (rule A.1 §14.3)")
['A.1 §14.3']
>>> playtest.rule_text("eat_thyself", "E99")
Traceback (most recent call last):
...
KeyError: "Eat Thyself's rules page has no rule E99 (it numbers E.0, E.1, E.1 §1, ... E16, E.4)"
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = ["Rule", "rules_page", "rule", "rule_text", "rule_ids", "cited_rules", "explain"]

#: a rule number: ``A.1``, ``A.1 §14``, ``A.1 §14.1`` or ``A7`` (a game may use up to three capitals: ``SB3``)
_ID = r"[A-Z]{1,3}(?:\.\d+(?: §\d+(?:\.\d+)*)?|\d+)"
_HEADING = re.compile(rf"^(#{{2,4}}) ({_ID})(?: (.*))?$")
_CITED = re.compile(rf"\brule ({_ID})")


@dataclass(frozen=True)
class Rule:
    """One numbered rule of a rules page: its number, title and text (with its sub-rules)."""

    id: str
    title: str
    text: str

    def __str__(self) -> str:
        return f"{self.id} {self.title}\n{self.text}".strip()


def _name(game: Any) -> str:
    return game if isinstance(game, str) else game.name


def rules_page(game: Any) -> str:
    """The Markdown rules page of ``game`` (a name or a game), every rule numbered.

    >>> rules_page("source").splitlines()[0]
    '# Source: the rules, numbered'
    """
    return _page(_name(game))


@lru_cache(maxsize=None)
def _page(name: str) -> str:
    if not re.fullmatch(r"[a-z0-9_]+", name):
        raise KeyError(f"{name!r} is not a game name")
    page = resources.files("playtest") / "rules_pages" / f"{name}.md"
    if page.is_file():
        return page.read_text(encoding="utf-8")
    beside = _page_beside_its_module(name)
    if beside is not None:
        return beside.read_text(encoding="utf-8")
    raise KeyError(f"{name} has no rules page yet (rules_pages/{name}.md beside the module that defines the game, "
                   f"or playtest/rules_pages/{name}.md for a game of the kit)")


def _page_beside_its_module(name: str) -> "Path | None":
    """A game of one's own (a module, a package, ``tests/newgames/``) keeps its rules page beside the
    module that defines it: ``rules_pages/<game>.md`` in that module's folder. ``None`` when there is
    none (a game defined in a notebook cell has no folder)."""
    import sys

    from .kernel.registry import _REGISTRY
    cls = _REGISTRY.get(name)
    module = sys.modules.get(getattr(cls, "__module__", "") or "") if cls is not None else None
    where = getattr(module, "__file__", None)
    if not where:
        return None
    page = Path(where).parent / "rules_pages" / f"{name}.md"
    return page if page.is_file() else None


@lru_cache(maxsize=None)
def _rules(name: str) -> dict[str, Rule]:
    """Every numbered heading of the page: its text runs to the next heading of its level or above."""
    lines = _page(name).splitlines()
    heads = [(k, m) for k, line in enumerate(lines) if (m := _HEADING.match(line))]
    rules = {}
    for n, (k, m) in enumerate(heads):
        level = len(m.group(1))
        end = next((j for j, other in heads[n + 1:] if len(other.group(1)) <= level), len(lines))
        body = "\n".join(line.lstrip("#").strip() if line.startswith("#") else line for line in lines[k + 1:end])
        rules[m.group(2)] = Rule(m.group(2), (m.group(3) or "").strip(), re.sub(r"\n{3,}", "\n\n", body).strip())
    return rules


def rule_ids(game: Any) -> list[str]:
    """Every rule number of ``game``'s page, in page order.

    >>> rule_ids("eat_thyself")[:3]
    ['E.0', 'E.1', 'E.1 §1']
    """
    return list(_rules(_name(game)))


def rule(game: Any, rule_id: str) -> Rule:
    """Rule ``rule_id`` of ``game``'s page; ``KeyError`` naming the page's numbers if there is none."""
    rules = _rules(_name(game))
    if rule_id not in rules:
        ids = list(rules)
        shown = ", ".join(ids[:3] + ["..."] + ids[-2:]) if len(ids) > 6 else ", ".join(ids)
        title = _page(_name(game)).splitlines()[0].lstrip("# ").split(":")[0]
        raise KeyError(f"{title}'s rules page has no rule {rule_id} (it numbers {shown})")
    return rules[rule_id]


def rule_text(game: Any, rule_id: str) -> str:
    """The text of rule ``rule_id`` of ``game`` (a name or a game): its number and title, then the rule.

    >>> print(rule_text("source", "C11"))
    C11 A connected fortified token
    The list of actions has no price for capturing a connected fortified token. Default: not allowed,
    remove the fortification first (`capture_connected_fortified_cost` = 0 means not allowed; any other
    value is its price in action points).
    """
    return str(rule(game, rule_id))


def cited_rules(message: str) -> list[str]:
    """The rule numbers a message cites (``... (rule A.1 §14.1)``), in order, each once."""
    found: list[str] = []
    for rule_id in _CITED.findall(message):
        if rule_id not in found:
            found.append(rule_id)
    return found


def explain(game: Any, message: str) -> str:
    """``message`` followed, after a blank line, by the text of each rule it cites that ``game``'s page has.

    The table shows a refusal this way: the board draws what follows the blank line under the
    message, smaller.

    >>> print(explain("eat_thyself", "move one of your own kings (rule E.1 §8)"))
    move one of your own kings (rule E.1 §8)
    <BLANKLINE>
    E.1 §8 Choose a king and a direction
    Move one of your own kings; "The piece can move either direction".
    """
    texts = []
    for rule_id in cited_rules(message):
        try:
            texts.append(rule_text(game, rule_id))
        except KeyError:
            continue
    return "\n\n".join([message, *texts]) if texts else message
