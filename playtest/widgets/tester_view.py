"""Pieces of the tester's view: a file per tester, the bots at the other seats, how to play.

>>> session_file_for("sessions/testers", "source", "Alice").name == session_file_for(".", "source", "Alice").name
True
>>> session_file_for(".", "source", "ALICE") != session_file_for(".", "source", "alice")     # two testers
True
>>> session_file_for(".", "source", "Ana María").name
'source-ana-mar-a-8358ed27.playtest.json'
"""

from __future__ import annotations

import hashlib
import re
from html import escape
from pathlib import Path
from typing import Any

from ..bots import Bot, bots_for, build

__all__ = ["session_file_for", "best_bot", "seat_bots", "how_to_play", "bots_line"]


def session_file_for(directory: str | Path, game: str, name: str) -> Path:
    """The session file of tester ``name`` for ``game`` in ``directory``: one per tester, whatever the name.

    The readable part keeps ASCII letters and digits; a short hash of the name as typed
    (spaces folded) makes it the tester's own: "ALICE" and "alice", or two names in scripts that
    leave nothing readable, get files of their own.
    """
    name = " ".join(name.split())
    slug = re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-").lower()[:40].strip("-") or "tester"
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:8]
    return Path(directory) / f"{game}-{slug}-{digest}.playtest.json"


def best_bot(game: Any, seat: int) -> str:
    """The game's best available bot for ``seat``: the game's own (made for it), else the searching
    bot (``mcts``), else ``random``: the first of those that can play the seat.

    >>> import playtest
    >>> best_bot(playtest.load("source"), 1), best_bot(playtest.load("eat_thyself"), 1)
    ('greedy', 'mcts')
    """
    makers = bots_for(game)
    own = [n for n in makers if n not in ("random", "mcts")]
    for name in [*own, "mcts", "random"]:
        try:
            if build(game, name).plays(game, seat):
                return name
        except Exception:      # noqa: BLE001 (a bot that cannot be asked is not offered)
            continue
    return "random"


def seat_bots(game: Any, seat: int | None, chosen: dict[int, Any] | None) -> dict[int, Bot]:
    """The bots at every seat but the tester's: the designer's ``chosen`` (a bot or a bot's name per
    seat), else the game's :func:`best_bot`. Hot-seat (``seat`` None) has no bots unless chosen."""
    seats = range(len(game.seats()))
    chosen = dict(chosen or {})
    for key in chosen:
        if type(key) is not int or key not in seats:
            raise ValueError(f"bots are given by seat, from 0 to {len(game.seats()) - 1}, not {key!r}")
    out: dict[int, Bot] = {}
    for other in seats:
        if other == seat:
            continue
        if other in chosen:
            bot = chosen[other]
            out[other] = build(game, bot) if isinstance(bot, str) else bot
        elif seat is not None:
            out[other] = build(game, best_bot(game, other))
    return out


def bots_line(game: Any, bots: dict[int, Bot], chosen: dict[int, Any] | None) -> str:
    """Who plays the other seats, in words (the designer's choice, or the game's best bot)."""
    if not bots:
        return ""
    names = {cls: n for n, cls in bots_for(game).items()}
    parts = []
    for seat, bot in sorted(bots.items()):
        label = names.get(type(bot), type(bot).__name__)
        why = "the designer's choice" if seat in (chosen or {}) else "the game's best available bot"
        parts.append(f"{game.seats()[seat].name}: the {label} bot ({why})")
    return "Played by bots: " + "; ".join(parts) + "."


def how_to_play(game: Any, limit: int = 6000) -> str:
    """The game's rules (its rules page's rules section), as escaped HTML text for a folded panel."""
    from ..rulebook import _ID, rules_page
    try:
        page = rules_page(game)
    except (KeyError, OSError, ValueError):
        return "<i>This game has no rules page.</i>"
    sections = re.split(r"^## ", page, flags=re.M)
    rules = next((s for s in sections[1:] if re.match(r"[A-Z]{1,3}\.1 ", s)), None)
    if rules is None:           # a page that numbers its rules flatly (X1, X2, ...): every numbered rule
        numbered = [s for s in sections[1:] if re.match(rf"{_ID} ", s)]
        rules = "## ".join(numbered) if numbered else sections[-1]
    text = "## " + rules if not rules.startswith("#") else rules
    if len(text) > limit:
        text = text[:limit].rsplit("\n", 1)[0] + "\n…"
    return (f'<div style="white-space: pre-wrap; max-height: 320px; overflow: auto; font-size: 13px">'
            f"{escape(text)}</div>")
