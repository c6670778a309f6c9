"""The plots a designer asks for, one call each; every title says what it shows and how many sessions.

Each returns a :class:`~playtest.analytics.chart.Chart` (a picture in a notebook; ``.figure`` is
the matplotlib figure). A plot with nothing to show says so in its picture instead of failing.
"""

from __future__ import annotations

import textwrap
from typing import Any

from .chart import Chart, new_figure
from .tables import PHASES

__all__ = ["think_time", "game_length", "rule_confusion", "humans_and_bots", "feedback_by_params"]

_WHO = {"people": "people", "bots": "bots", "all": "people and bots"}
_BY = ("seat", "phase", "kind", "params", "player", "author", "session")


def _sessions(n: int) -> str:
    return f"{n} session" + ("" if n == 1 else "s")


def _empty(ax: Any, text: str) -> None:
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, color="#6b625a", wrap=True)
    ax.set_xticks([])
    ax.set_yticks([])


def _side_by_side(width: float, nothing: str | None) -> tuple[Any, Any, Any]:
    """A figure of two plots side by side (``width`` inches wide) and the two; both say ``nothing``
    when it is given (no rows to draw)."""
    fig = new_figure(width, 3.4)
    left, right = fig.subplots(1, 2)
    if nothing is not None:
        _empty(left, nothing)
        _empty(right, nothing)
    return fig, left, right


def _who(frame: Any, who: str) -> Any:
    if who not in _WHO:
        raise ValueError(f"who is 'people', 'bots' or 'all', not {who!r}")
    human = frame["human"].astype(bool)     # (an empty column is of no type: never a column list)
    if who == "people":
        return frame[human]
    if who == "bots":
        return frame[~human]
    return frame


def _groups(frame: Any, by: str) -> list[tuple[str, Any]]:
    """``(label, rows)`` per value of ``by``, in a sensible order (seats by number, phases in order).

    Seats and parameter sets are a game's own: rows of several games (a folder holding another
    game's file) are grouped per game first, each label naming its game, so that one game's seat 0
    or its "defaults" is never drawn as another's."""
    if by in ("seat", "params") and "game" in frame and frame["game"].nunique() > 1:
        return [(f"{game}: {label}", part) for game, rows in sorted(frame.groupby("game"), key=lambda kv: str(kv[0]))
                for label, part in _groups(rows, by)]
    if by == "seat":
        keys = sorted(k for k in frame["seat"].dropna().unique())
        out = []
        for k in keys:
            rows = frame[frame["seat"] == k]
            out.append((str(rows["seat_name"].iloc[0]) or f"seat {int(k)}", rows))
        return out
    if by == "phase":
        return [(p, frame[frame["phase"] == p]) for p in PHASES if (frame["phase"] == p).any()]
    return [(str(k), rows) for k, rows in sorted(frame.groupby(by, dropna=False), key=lambda kv: _natural(kv[0]))]


def _natural(value: Any) -> list[tuple[int, int, str]]:
    """A sort key putting ``wall_budget=8`` before ``wall_budget=12``."""
    import re
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", str(value))]


def think_time(pt: Any, by: str = "seat", who: str = "people") -> Chart:
    """Box plots of think time (seconds) per seat, game phase, kind of move, parameter set or player."""
    if by not in _BY:
        raise ValueError(f"by is one of {', '.join(_BY)}, not {by!r}")
    moves = _who(pt.moves, who)
    timed = moves[moves["think"].notna()]
    title = (f"Think time per {by} ({_WHO[who]}: {len(timed):,} timed moves, {_sessions(pt.sessions)}; "
             f"pauses over {pt.idle:g} s left out)")
    fig = new_figure(7.5, 3.6)
    ax = fig.add_subplot()
    groups = [(label, rows["think"].to_numpy()) for label, rows in _groups(timed, by)] if len(timed) else []
    if not groups:
        _empty(ax, "no timed moves to show")
    else:
        ax.boxplot([g for _, g in groups], showfliers=True, flierprops={"markersize": 3, "alpha": 0.5})
        ax.set_xticks(range(1, len(groups) + 1),
                      [f"{textwrap.shorten(label, 28)}\n({len(g)})" for label, g in groups])
        ax.set_ylabel("seconds per move")
        ax.grid(axis="y", alpha=0.3)
    ax.set_title(title, fontsize=10, loc="left", wrap=True)
    return Chart(fig, title)


def game_length(pt: Any, by: str = "params") -> Chart:
    """Games' length in minutes of play (pauses left out) and in moves, per parameter set or session."""
    if by not in ("params", "session", "game"):
        raise ValueError(f"by is 'params', 'session' or 'game', not {by!r}")
    games = pt.games
    shown = {"params": "parameter set"}.get(by, by)
    title = f"Game length in minutes of play and in moves per {shown} ({len(games)} games, {_sessions(pt.sessions)})"
    fig, left, right = _side_by_side(8, None if len(games) else "no games")
    if len(games):
        groups = _groups(games, by)
        labels = [f"{textwrap.shorten(label, 24)}\n({len(rows)})" for label, rows in groups]
        for ax, column, unit in ((left, "minutes", "minutes of play"), (right, "moves", "moves")):
            data = [rows[column].dropna().to_numpy() for _, rows in groups]
            if not any(len(d) for d in data):
                _empty(ax, f"no {column} known")
                continue
            ax.boxplot([d if len(d) else [float("nan")] for d in data])
            for k, d in enumerate(data, start=1):
                ax.scatter([k] * len(d), d, s=12, alpha=0.6, color="#8a4f2a", zorder=3)
            ax.set_xticks(range(1, len(labels) + 1), labels, fontsize=8)
            ax.set_ylabel(unit)
            ax.grid(axis="y", alpha=0.3)
    fig.suptitle(title, fontsize=10, x=0.01, ha="left")
    return Chart(fig, title)


def _rule_label(game: str, rule: str, width: int = 60) -> str:
    from ..rulebook import rule_text
    if not rule:
        return "no rule cited"
    try:
        text = rule_text(game, rule)
    except KeyError:
        return f"{rule} (not on {game}'s rules page)"
    head, _, body = text.partition("\n")
    words = " ".join(body.split())
    return textwrap.fill(head, width) + ("\n" + textwrap.shorten(words, width * 2 - 10, placeholder=" …")
                                         if words else "")


def rule_confusion(pt: Any, top: int = 10) -> Chart:
    """The rules players bump into most: refused attempts by the rule cited, each with the rule's text
    (:func:`playtest.rule_text`)."""
    if type(top) is not int or top < 1:
        raise ValueError(f"top is a whole number above 0, not {top!r}")
    refusals = pt.refusals
    counts: Any = (refusals.groupby(["game", "rule"]).size().sort_values(ascending=False).head(top)
                   if len(refusals) else None)
    title = (f"Rule confusion: refused attempts by the rule cited ({len(refusals):,} refusals, "
             f"{_sessions(pt.sessions)})")
    rows = 0 if counts is None else len(counts)
    fig = new_figure(9, 1.2 + 0.62 * max(rows, 2))
    ax = fig.add_subplot()
    if not rows:
        _empty(ax, "no refused attempts kept")
    else:
        several = refusals["game"].nunique() > 1
        labels = [(f"{game}: " if several else "") + _rule_label(game, rule)
                  for game, rule in counts.index]
        positions = list(range(rows))[::-1]
        ax.barh(positions, counts.to_numpy(), color="#b5651d")
        ax.set_yticks(positions, labels, fontsize=7.5)
        for y, n in zip(positions, counts.to_numpy()):
            ax.text(n, y, f" {n}", va="center", fontsize=8)
        ax.set_xlabel("refused attempts")
        ax.grid(axis="x", alpha=0.3)
    ax.set_title(title, fontsize=10, loc="left", wrap=True)
    return Chart(fig, title)


def humans_and_bots(pt: Any) -> Chart:
    """People and bots side by side: the kinds of move each plays (share of moves), and time per move."""
    moves = pt.moves
    human = moves["human"].astype(bool)
    people, bots = moves[human], moves[~human]
    title = (f"People and bots side by side ({len(people):,} moves by people, {len(bots):,} by bots, "
             f"{_sessions(pt.sessions)})")
    fig, left, right = _side_by_side(9, None if len(moves) else "no moves")
    if len(moves):
        kinds = sorted(moves["kind"].unique())
        width = 0.4
        for offset, (name, rows, color) in enumerate((("people", people, "#3a6ea5"), ("bots", bots, "#b5651d"))):
            share = rows["kind"].value_counts(normalize=True) if len(rows) else None
            values = [float(share.get(k, 0.0)) if share is not None else 0.0 for k in kinds]
            left.bar([k + (offset - 0.5) * width for k in range(len(kinds))], values, width, label=name,
                     color=color)
        left.set_xticks(range(len(kinds)), kinds, rotation=30, ha="right", fontsize=8)
        left.set_ylabel("share of moves")
        left.legend(fontsize=8)
        left.set_title("kinds of move", fontsize=9)
        data = [rows["think"].dropna().to_numpy() for rows in (people, bots)]
        if any(len(d) for d in data):
            right.boxplot([d if len(d) else [float("nan")] for d in data])
            right.set_xticks([1, 2], [f"people\n({len(data[0])})", f"bots\n({len(data[1])})"])
            right.set_yscale("symlog", linthresh=0.1)
            right.set_ylim(bottom=0)
            right.set_ylabel("seconds per move")
            right.set_title("time per move", fontsize=9)
        else:
            _empty(right, "no timed moves")
    fig.suptitle(title, fontsize=10, x=0.01, ha="left")
    return Chart(fig, title)


def feedback_by_params(pt: Any) -> Chart:
    """Each scale or choice question of the feedback, its answers per parameter set."""
    answers = pt.feedback
    asked = answers[answers["kind"] != "text"] if len(answers) else answers
    questions = list(dict.fromkeys(asked["question"])) if len(asked) else []
    authors = answers["author"].nunique() if len(answers) else 0
    title = (f"Feedback by parameter set ({len(asked)} answers from {authors} testers, "
             f"{_sessions(pt.sessions)})")
    fig = new_figure(max(4.0, 3.2 * max(len(questions), 1)), 3.6)
    axes = fig.subplots(1, max(len(questions), 1), squeeze=False)[0]
    if not questions:
        _empty(axes[0], "no feedback answers with a scale or choices")
    for ax, question in zip(axes, questions):
        rows = asked[asked["question"] == question]
        kind = rows["kind"].iloc[0]
        groups = _groups(rows, "params")
        labels = [f"{textwrap.shorten(label, 20)}\n({len(g)})" for label, g in groups]
        if kind == "scale":
            data = [g["value"].to_numpy() for _, g in groups]
            ax.boxplot(data)
            for k, d in enumerate(data, start=1):
                ax.scatter([k] * len(d), d, s=14, alpha=0.6, color="#3a6ea5", zorder=3)
                ax.plot([k - 0.25, k + 0.25], [d.mean()] * 2, color="#b5651d", lw=2)
            ax.set_ylabel("answer (orange: mean)")
        else:
            choices = _choices(rows)
            bottom = [0.0] * len(groups)
            for choice in choices:
                shares = [float((g["answer"] == choice).mean()) for _, g in groups]
                ax.bar(range(1, len(groups) + 1), shares, bottom=bottom, label=choice)
                bottom = [b + s for b, s in zip(bottom, shares)]
            ax.set_ylabel("share of answers")
            ax.legend(fontsize=7, loc="upper right")
        ax.set_xticks(range(1, len(groups) + 1), labels, fontsize=8)
        ask = str(rows["ask"].iloc[0])
        ax.set_title(textwrap.fill(textwrap.shorten(ask, 70), 34), fontsize=9)
    fig.suptitle(title, fontsize=10, x=0.01, ha="left")
    return Chart(fig, title)


def _choices(rows: Any) -> list[str]:
    """A choice question's choices in their form's order (the value column is the index)."""
    pairs = sorted({(int(v), a) for v, a in zip(rows["value"], rows["answer"])})
    return [a for _, a in pairs]
