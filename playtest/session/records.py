"""What happens at a table besides the moves: refused attempts, curtain lifts, who plays each seat,
the feedback form and its answers. Each is a record of the session file, checked when read.

Records (one JSON object per line of the file, after the nodes they refer to)::

    {"refusal": {"node": 4, "t": 31.2, "seat": 1, "rule": "A.1 §14.3", "reason": "a wall may not ...",
                 "item": "edge:0,0:1,0", "author": "Alice"}}        # or "action": {...} instead of "item"
    {"reveal": {"node": 4, "t": 12.0, "seat": 1}}                   # the curtain lifted for seat 1
    {"players": {"t": 0.5, "seats": [{"person": "Alice"}, {"bot": "greedy_wall", "settings": {}}]}}
    {"form": {"t": 0.0, "questions": [...]}}                        # the designer's feedback form
    {"feedback": {"node": 80, "t": 612.4, "author": "Alice", "form": [...], "answers": {"fun": 4}}}

A refusal is a child record of its position: it is never part of the line of play.
``t`` is seconds from the session's ``started`` time (UTC), as for nodes and notes.
"""

from __future__ import annotations

import inspect
import math
import re
from dataclasses import dataclass
from typing import Any

from ..rules import check_action_types
from .feedback import Feedback, FeedbackForm

__all__ = ["Refusal", "Reveal", "bot_record", "build_bot", "rule_of", "check_event", "has_control", "is_visible",
           "BadStart"]

#: a rule number as messages cite it (``A.1 §14.3``, ``E10``), or a short word (``notation``)
_RULE = re.compile(r"^(?:[A-Z](?:\.\d+(?: §\d+(?:\.\d+)*)?|\d+)|[a-z_]{1,40})$")
_CITED = re.compile(r"\brule ([A-Z](?:\.\d+(?: §\d+(?:\.\d+)*)?|\d+))")
#: characters of a refusal's reason at most (a longer one is cut)
MAX_REASON = 2_000
#: how far into the future a time may lie (a clock a little fast is not an error)
FUTURE_SLACK = 86_400.0


@dataclass(frozen=True)
class Refusal:
    """An attempt the table refused: at position ``node``, by ``seat``, citing ``rule`` ("" if none).

    ``action`` is the action tried (its JSON form) when the kernel refused it, ``item`` the
    board item clicked when the board itself said why not (its reason, from the scene).
    """

    node: int
    move: int
    seat: int | None
    rule: str
    reason: str
    action: dict[str, Any] | None = None
    item: str | None = None
    author: str = ""
    t: float | None = None


@dataclass(frozen=True)
class Reveal:
    """The curtain lifted for ``seat`` at position ``node`` (think time starts there, not before)."""

    node: int
    seat: int
    t: float | None = None


def rule_of(message: str, rule: str | None = None) -> str:
    """The rule a refusal cites: ``rule`` when given, else the last one its message cites, else "".

    >>> rule_of("a wall may not lie on an edge of a token's tile (rule A.1 §14.3)")
    'A.1 §14.3'
    >>> rule_of("no")
    ''
    """
    if rule:
        return str(rule)
    found = _CITED.findall(message or "")
    return found[-1] if found else ""


# ---------------------------------------------------------------------------- bots as plain data

_PLAIN = (bool, int, float, str, type(None))


def _plain(value: Any) -> bool:
    if isinstance(value, float) and not math.isfinite(value):
        return False
    if isinstance(value, str):
        return len(value) <= 200
    if isinstance(value, _PLAIN):
        return True
    if isinstance(value, (list, tuple)):
        return len(value) <= 20 and all(isinstance(v, _PLAIN) and not isinstance(v, (list, tuple)) and _plain(v)
                                        for v in value)
    return False


def bot_record(game: Any, bot: Any) -> dict[str, Any]:
    """A bot as plain data: ``{"bot": name, "settings": {...}}``, the name it is registered under for
    ``game`` (see :func:`playtest.bots.bots_for`) and the values of its constructor's arguments that
    it keeps under the same names (plain values only).

    >>> import playtest
    >>> from playtest.bots import build
    >>> bot_record("then_there_was_one", build("then_there_was_one", "mcts", iterations=50, seed=1))["settings"]
    {'iterations': 50, 'seed': 1, 'exploration': 1.0, 'rollout_limit': 100, 'width': 14}
    """
    from ..bots import bots_for
    makers = bots_for(game)
    name = next((n for n, maker in makers.items() if type(bot) is maker), None)
    if name is None:
        name = next((n for n, maker in makers.items() if isinstance(maker, type) and isinstance(bot, maker)), None)
    if name is None:
        name = str(getattr(bot, "name", "") or type(bot).__name__)[:60]
    settings: dict[str, Any] = {}
    try:
        parameters = list(inspect.signature(type(bot).__init__).parameters.values())
    except (TypeError, ValueError):
        parameters = []
    for p in parameters:
        if p.name == "self" or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if p.name in getattr(bot, "__dict__", {}) and _plain(bot.__dict__[p.name]):
            value = bot.__dict__[p.name]
            settings[p.name] = list(value) if isinstance(value, tuple) else value
    return {"bot": name, "settings": settings}


def build_bot(game: Any, record: dict[str, Any]) -> Any:
    """The bot a :func:`bot_record` describes, made anew; ``ValueError`` when this kit has no such bot
    or its settings no longer fit."""
    from ..bots import build
    try:
        return build(game, record["bot"], **record.get("settings", {}))
    except TypeError as err:
        raise ValueError(f"the bot {record['bot']!r} cannot be made with its saved settings ({err})") from None


# ---------------------------------------------------------------------------- reading records

def check_time(value: Any, what: str, floor: float | None, horizon: float | None) -> float | None:
    """A record's ``t``: None (absent), or seconds from the start, not before ``floor`` (what it
    follows) and not after ``horizon`` (now, plus a day)."""
    if value is None:
        return None
    if type(value) not in (int, float) or abs(value) > 1e12 or not math.isfinite(value):
        raise ValueError(f"{what}: 't' must be a number of seconds from the session's start, not {value!r}"[:200])
    if value < 0:
        raise ValueError(f"{what}: 't' = {value} is before the session started")
    if horizon is not None and value > horizon:
        raise ValueError(f"{what}: 't' = {value:,.0f} s lies in the future (the session started less "
                         f"than {max(horizon, 0):,.0f} s ago)")
    if floor is not None and value < floor:
        raise ValueError(f"{what}: its time ({value} s) is before the time of the position it follows "
                         f"({floor} s): times out of order")
    return float(value)


def check_event(session: Any, kind: str, value: Any, index: int, horizon: float | None) -> dict[str, Any]:
    """One event record of a file, checked against the session read so far; ``ValueError`` naming the
    field. Returns the record's payload as it is kept (and written back)."""
    what = f"{kind} record {index}"
    if not isinstance(value, dict):
        raise ValueError(f"{what} must be an object")
    allowed = {"refusal": {"node", "t", "seat", "rule", "reason", "action", "item", "author"},
               "reveal": {"node", "t", "seat"},
               "players": {"t", "seats"},
               "form": {"t", "questions"},
               "feedback": {"node", "t", "author", "form", "answers"}}[kind]
    unknown = set(value) - allowed
    if unknown:
        raise ValueError(f"{what} has no field {sorted(unknown)[0]!r} (its fields are {', '.join(sorted(allowed))})")
    node: Any = None
    if "node" in allowed:
        number = value.get("node")
        if type(number) is not int or not 0 <= number < len(session._nodes):
            raise ValueError(f"{what}: 'node' must be a position id of this session (0 to "
                             f"{len(session._nodes) - 1}), not {str(number)[:40]}")
        node = session._nodes[number]
    if "t" in value and session.started is None:
        raise ValueError(f"{what}: a time 't' in a file whose header has no 'started' time")
    check_time(value.get("t"), what, node.t if node is not None else None, horizon)
    if kind in ("refusal", "reveal"):
        seat = value.get("seat")
        seats = len(node.game.seats())
        if (seat is not None or kind == "reveal") and (type(seat) is not int or not 0 <= seat < seats):
            raise ValueError(f"{what}: 'seat' must be a seat of {node.game.name} (0 to {seats - 1}), "
                             f"not {str(seat)[:40]}")
    if kind == "refusal":
        rule, reason = value.get("rule", ""), value.get("reason", "")
        if type(rule) is not str or (rule and not _RULE.match(rule)):
            raise ValueError(f"{what}: 'rule' must be a rule number such as 'A.1 §14.3' or ''")
        if type(reason) is not str or len(reason) > MAX_REASON:
            raise ValueError(f"{what}: 'reason' must be a text of at most {MAX_REASON:,} characters")
        author = value.get("author", "")
        if type(author) is not str or len(author) > 100 or has_control(author):
            raise ValueError(f"{what}: 'author' must be a short name")
        if ("action" in value) == ("item" in value):
            raise ValueError(f"{what} names exactly one of 'action' (the action tried) or 'item' (the board "
                             "item clicked)")
        if "item" in value and (type(value["item"]) is not str or not 0 < len(value["item"]) <= 200):
            raise ValueError(f"{what}: 'item' must be a board item's id (a short text)")
        if "action" in value:
            try:
                action = node.game.action_from_json(value["action"])
                check_action_types(action)
                if not isinstance(action, node.game.action_types):
                    raise ValueError("another game's action")
            except (ValueError, TypeError, RecursionError) as err:
                raise ValueError(f"{what}: its 'action' is not an action of {node.game.name} "
                                 f"({str(err)[:120]})") from None
    elif kind == "players":
        seating = value.get("seats")
        if not isinstance(seating, list) or not 1 <= len(seating) <= 64:
            raise ValueError(f"{what}: 'seats' must be a list with one entry per seat")
        for k, entry in enumerate(seating):
            check_player(entry, f"{what}, seat {k}")
    elif kind == "form":
        FeedbackForm.of(_list(value.get("questions"), what))
    elif kind == "feedback":
        author = value.get("author", "")
        if type(author) is not str or len(author) > 100 or has_control(author):
            raise ValueError(f"{what}: 'author' must be a short name")
        form = FeedbackForm.of(_list(value.get("form"), what))
        answers = value.get("answers")
        clean = form.check(answers)
        if clean != answers:
            raise ValueError(f"{what}: an answer is empty (leave a skipped question out)")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{what}: the feedback form must be a list of questions")
    return value


def check_player(entry: Any, what: str) -> dict[str, Any]:
    """One seat's player: ``{"person": name}`` or ``{"bot": name, "settings": {...}}``."""
    if not isinstance(entry, dict):
        raise ValueError(f"{what}: a player is {{\"person\": name}} or {{\"bot\": name, \"settings\": {{...}}}}")
    if set(entry) == {"person"}:
        if type(entry["person"]) is not str or len(entry["person"]) > 100 or has_control(entry["person"]):
            raise ValueError(f"{what}: a person's name is a short text (no control characters)")
        return entry
    if "bot" not in entry or not set(entry) <= {"bot", "settings"}:
        raise ValueError(f"{what}: a player is {{\"person\": name}} or {{\"bot\": name, \"settings\": {{...}}}}")
    name, settings = entry["bot"], entry.get("settings", {})
    if type(name) is not str or not 0 < len(name) <= 60 or has_control(name):
        raise ValueError(f"{what}: a bot's name is a short text (no control characters)")
    if not isinstance(settings, dict) or len(settings) > 20 or not all(
            type(k) is str and len(k) <= 60 and _plain(v) for k, v in settings.items()):
        raise ValueError(f"{what}: a bot's settings are at most 20 plain values (numbers, texts, true/false)")
    return entry


def feedback_of(session: Any, value: dict[str, Any]) -> Feedback:
    node = session._nodes[value["node"]]
    return Feedback(node.id, node.depth, value.get("author", ""), dict(value["answers"]),
                    FeedbackForm.of(value["form"]), value.get("t"))


def refusal_of(session: Any, value: dict[str, Any]) -> Refusal:
    node = session._nodes[value["node"]]
    return Refusal(node.id, node.depth, value.get("seat"), value.get("rule", ""), value.get("reason", ""),
                   value.get("action"), value.get("item"), value.get("author", ""), value.get("t"))


#: the bidirectional embeddings, overrides and isolates (U+202A to U+202E, U+2066 to U+2069): a name holding
#: one turns the text shown after it around ("Playing as \u202eecila" reads "alice" backwards, and so
#: does the rest of the line); the marks U+200E and U+200F, which right-to-left names use, are not among them
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def has_control(text: str) -> bool:
    """True when ``text`` holds a control character (NUL, ESC, DEL...: what no name is made of, and what
    a terminal or a spreadsheet would act on) or a bidirectional override (:data:`_BIDI_CONTROLS`: what
    turns the text shown after it around); spaces, tabs and line ends are not counted.

    >>> has_control("Ana María"), has_control("\u05d3\u05e0\u05d4"), has_control("a\x1b[31m"), has_control("\u202eecila")
    (False, False, True, True)
    """
    return any(ord(c) < 32 and c not in "\t\n\r" or 127 <= ord(c) < 160 or c in _BIDI_CONTROLS for c in text)


def is_visible(text: str) -> bool:
    """True when ``text`` shows something: a character other than spaces and invisible formatting
    (zero-width spaces and joiners, a soft hyphen, a byte order mark: Unicode's categories Z and C).

    >>> is_visible("Ann"), is_visible("\u200b\u2060"), is_visible(" \u00ad ")
    (True, False, False)
    """
    import unicodedata
    return any(unicodedata.category(c)[0] not in "ZC" for c in text)


class BadStart(ValueError):
    """A start position the game's own rules cannot read (its message says so whole)."""
