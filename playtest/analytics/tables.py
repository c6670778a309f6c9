"""Sessions as tidy tables: one row per move, game, refused attempt, note and feedback answer.

**Games.** A session's tree holds games: each starts at the root or at a
"new game" parameter change, and ends where its line stops (the game is over,
or play stopped, or a new game was started from there). Every branch end is a
game of its own; a move belongs to the game its line goes on to (along the
line last played from it, as redo follows).

**Think time** of a move: from the position it was played at (the previous
move, a chance result, a parameter change) or, later, from the curtain lifting
for its seat there, until the move. A gap longer than ``idle`` seconds is not
thinking (a break, a phone call): the move's think time is left empty and
``idle`` is true. A file written before times were kept has no times: its
moves' think times are empty, and the count is in ``Playtests.problems``.

**Feedback** answers are one row each: ``answer`` as text, ``value`` as a number
(a scale's answer, or a choice's position in its list; empty for free text).

**Phase** of a move or a refusal: the third of its game it falls in
(opening, middle, end), by move number against the game's length.
"""

from __future__ import annotations

import math
from typing import Any

from ..rules import show_value
from .sources import Source

__all__ = ["build_tables", "PHASES"]

PHASES = ("opening", "middle", "end")
_NO_KIND = object()


def _phase(k: int, length: int) -> str:
    if length <= 0:
        return PHASES[0]
    third = k / length
    return PHASES[0] if third <= 1 / 3 else PHASES[1] if third <= 2 / 3 else PHASES[2]


def _utc(started: float | None, t: float | None) -> float:
    return math.nan if started is None or t is None else started + t


def _games_of(nodes: list[Any]) -> tuple[dict[int, int], dict[int, int], list[int]]:
    """``(start_of, end_of, ends)``: each node's game start and the end its line goes on to, and the ends.

    Linear: children have larger ids than their parents.
    """
    start_of: dict[int, int] = {}
    for node in nodes:
        new_game = node.parent is None or (node.kind == "params" and (node.notation or "").startswith("new game"))
        start_of[node.id] = node.id if new_game else start_of[node.parent.id]
    end_of: dict[int, int] = {}
    ends: list[int] = []
    for node in reversed(nodes):
        going_on = [c for c in node.children if start_of[c.id] == start_of[node.id]]
        if not going_on:
            end_of[node.id] = node.id
            ends.append(node.id)
        else:
            follow = node.redo if node.redo in going_on else going_on[-1]
            end_of[node.id] = end_of[follow.id]
    ends.reverse()
    return start_of, end_of, ends


def build_tables(sources: list[Source], idle: float) -> tuple[dict[str, dict[str, list[Any]]], dict[str, int]]:
    """The five tables as columns (lists), and the counts of what was left out (``problems``)."""
    moves: dict[str, list[Any]] = {k: [] for k in (
        "session", "game", "game_no", "author", "player", "human", "bot", "seat", "seat_name", "node", "move",
        "kind", "notation", "t", "time", "think", "idle", "phase", "params")}
    games: dict[str, list[Any]] = {k: [] for k in (
        "session", "game", "game_no", "start_node", "end_node", "moves", "minutes", "wall_minutes", "finished",
        "winner", "reason", "params", "authors", "players", "bots")}
    refusals: dict[str, list[Any]] = {k: [] for k in (
        "session", "game", "game_no", "author", "seat", "seat_name", "node", "move", "rule", "reason", "tried",
        "t", "time", "phase", "params")}
    notes: dict[str, list[Any]] = {k: [] for k in (
        "session", "game", "game_no", "author", "node", "move", "text", "t", "time", "params")}
    feedback: dict[str, list[Any]] = {k: [] for k in (
        "session", "game", "game_no", "author", "node", "move", "question", "ask", "kind", "answer", "value",
        "t", "time", "params")}
    problems = {"files refused": 0, "earlier copies left out": 0, "moves without a time": 0,
                "moves past the idle limit": 0, "refusals without a time": 0}
    move_rows: list[tuple[Any, ...]] = []
    add_move = move_rows.append

    for source in sources:
        session = source.session
        nodes = session._nodes
        started = session.started
        start_of, end_of, ends = _games_of(nodes)
        game_no = {end: k for k, end in enumerate(ends)}
        lengths = {end: nodes[end].depth - nodes[start_of[end]].depth for end in ends}
        reveals: dict[tuple[int, int], list[float]] = {}
        for record in session._events:
            value = record.get("reveal")
            if value is not None and value.get("t") is not None:
                reveals.setdefault((value["node"], value["seat"]), []).append(value["t"])
        name = nodes[0].game.name
        label = source.label
        seats_cache: dict[int, list[Any]] = {}
        author_default = session.author
        nan = math.nan
        for node in nodes:            # one row (a tuple) per move; the columns are made at the end
            if node.kind != "move":
                continue
            parent: Any = node.parent
            game, state = parent.game, parent.state
            seat = game.to_move(state)
            if type(seat) is not int or seat < 0:
                try:
                    seat = game.seat_of(state, node.action)
                except Exception:      # noqa: BLE001  (a label only)
                    seat = None
            seats = seats_cache.get(id(game))
            if seats is None:
                seats = seats_cache[id(game)] = [s.name for s in game.seats()]
            nid, depth = node.id, node.depth
            end = end_of[nid]
            t, t0 = node.t, parent.t
            think, is_idle = nan, False
            if t is None or t0 is None:
                problems["moves without a time"] += 1
            else:
                since = t0
                if seat is not None and reveals:
                    for lifted in reveals.get((parent.id, seat), ()):
                        if since < lifted <= t:
                            since = lifted
                gap = t - since
                if gap > idle:
                    is_idle = True
                    problems["moves past the idle limit"] += 1
                else:
                    think = gap
            by = node.by or author_default
            bot = node.bot
            action = node.action
            kind = getattr(action, "kind", _NO_KIND)
            add_move((label, name, game_no[end], by, bot or node.player or by, bot is None, bot, seat,
                      seats[seat] if seat is not None and 0 <= seat < len(seats) else "", nid, depth,
                      type(action).__name__ if kind is _NO_KIND else kind, node.notation_for(None),
                      nan if t is None else t, nan if started is None or t is None else started + t,
                      think, is_idle, _phase(depth - nodes[start_of[nid]].depth, lengths[end]), game.params))
        for end in ends:
            begin = start_of[end]
            last, first = nodes[end], nodes[begin]
            if last.depth == first.depth:
                continue                    # a new game started and left at once: no game played
            outcome = last.game.outcome(last.state)
            seats = [s.name for s in last.game.seats()]
            path = []
            walk: Any = last
            while walk is not None and walk.id != begin:
                path.append(walk)
                walk = walk.parent
            active, wall = 0.0, math.nan
            if last.t is not None and first.t is not None:
                wall = (last.t - first.t) / 60
                for step in path:
                    if step.t is not None and step.parent.t is not None:
                        gap = step.t - step.parent.t
                        active += gap if gap <= idle else 0.0
                active /= 60
            else:
                active = math.nan
            authors = sorted({step.by or author_default for step in path if step.kind == "move"})
            bots = sorted({step.bot for step in path if step.kind == "move" and step.bot})
            players = sorted({step.bot or step.player or step.by or author_default
                              for step in path if step.kind == "move"})
            if outcome is None:
                winner = None
            elif outcome.is_draw:
                winner = "draw"
            else:
                winner = ", ".join(seats[w] for w in outcome.winners if 0 <= w < len(seats))
            games["session"].append(label)
            games["game"].append(name)
            games["game_no"].append(game_no[end])
            games["start_node"].append(begin)
            games["end_node"].append(end)
            games["moves"].append(last.depth - first.depth)
            games["minutes"].append(active)
            games["wall_minutes"].append(wall)
            games["finished"].append(outcome is not None)
            games["winner"].append(winner)
            games["reason"].append(outcome.reason if outcome is not None else "")
            games["params"].append(last.game.params)
            games["authors"].append(", ".join(authors))
            games["players"].append(", ".join(players))
            games["bots"].append(", ".join(bots))
        for record in session._events:
            (kind, value), = record.items()
            if kind not in ("refusal", "feedback"):
                continue
            node = nodes[value["node"]]
            end = end_of[node.id]
            begin = start_of[node.id]
            phase = _phase(node.depth - nodes[begin].depth, lengths[end])
            t = value.get("t")
            if kind == "refusal":
                if t is None:
                    problems["refusals without a time"] += 1
                seat = value.get("seat")
                seats = [s.name for s in node.game.seats()]
                tried = value.get("item") or (value.get("action") or {}).get("kind", "")
                refusals["session"].append(label)
                refusals["game"].append(name)
                refusals["game_no"].append(game_no[end])
                refusals["author"].append(value.get("author") or author_default)
                refusals["seat"].append(seat)
                refusals["seat_name"].append(seats[seat] if seat is not None and 0 <= seat < len(seats) else "")
                refusals["node"].append(node.id)
                refusals["move"].append(node.depth)
                refusals["rule"].append(value.get("rule", ""))
                refusals["reason"].append(value.get("reason", ""))
                refusals["tried"].append(tried)
                refusals["t"].append(math.nan if t is None else t)
                refusals["time"].append(_utc(started, t))
                refusals["phase"].append(phase)
                refusals["params"].append(node.game.params)
            else:
                questions = {q["name"]: q for q in value["form"]}
                for question, answer in value["answers"].items():
                    q = questions[question]
                    if "scale" in q:
                        kind_q, number = "scale", float(answer)
                    elif "choices" in q:
                        kind_q, number = "choice", float(q["choices"].index(answer))
                    else:
                        kind_q, number = "text", math.nan
                    feedback["session"].append(label)
                    feedback["game"].append(name)
                    feedback["game_no"].append(game_no[end])
                    feedback["author"].append(value.get("author") or author_default)
                    feedback["node"].append(node.id)
                    feedback["move"].append(node.depth)
                    feedback["question"].append(question)
                    feedback["ask"].append(q.get("ask", question))
                    feedback["kind"].append(kind_q)
                    feedback["answer"].append(str(answer))      # one type per column (parquet)
                    feedback["value"].append(number)
                    feedback["t"].append(math.nan if t is None else t)
                    feedback["time"].append(_utc(started, t))
                    feedback["params"].append(node.game.params)
        for note in session._notes:
            node = nodes[note.node]
            notes["session"].append(label)
            notes["game"].append(name)
            notes["game_no"].append(game_no[end_of[node.id]])
            notes["author"].append(note.author)
            notes["node"].append(node.id)
            notes["move"].append(node.depth)
            notes["text"].append(note.text)
            notes["t"].append(math.nan if note.t is None else note.t)
            notes["time"].append(_utc(started, note.t))
            notes["params"].append(node.game.params)
    for column, values in zip(list(moves), zip(*move_rows)):     # rows into columns, in C
        moves[column] = list(values)
    return {"moves": moves, "games": games, "refusals": refusals, "notes": notes, "feedback": feedback}, problems


def params_columns(tables: dict[str, dict[str, list[Any]]]) -> dict[str, Any]:
    """Replace each table's ``params`` objects by a label naming the parameters that vary across the
    tables (``"wall_budget=8"``; ``"defaults"`` when none does), and add one column per such parameter.
    Returns ``{table: {column: values}}`` to add.

    Parameter objects are few (one per parameter set a session used) and shared by many rows: they
    are compared once each, and rows are matched by identity (hashing a dataclass per row is slow).
    """
    distinct: dict[int, Any] = {}
    for table in tables.values():
        for p in table["params"]:
            if id(p) not in distinct:
                distinct[id(p)] = p
    names: set[str] = set()
    by_game: dict[str, list[Any]] = {}
    for p in distinct.values():
        by_game.setdefault(type(p).__name__, []).append(p.to_json(native=True))
    for same in by_game.values():
        for other in same[1:]:
            names.update(k for k, v in other.items() if same[0].get(k) != v)
    names_sorted = sorted(names)
    label_of: dict[int, str] = {}
    value_of: dict[int, dict[str, Any]] = {}
    for key, p in distinct.items():
        values = p.to_json(native=True)
        shown = [f"{k}={show_value(values[k])}" for k in names_sorted if k in values]
        label_of[key] = ", ".join(shown) if shown else "defaults"
        value_of[key] = {k: _plain(values.get(k)) for k in names_sorted}
    extra: dict[str, Any] = {}
    for table_name, table in tables.items():
        keys = [id(p) for p in table["params"]]
        table["params"] = [label_of[k] for k in keys]
        columns = {}
        for name in names_sorted:
            column = name if name not in table else f"param_{name}"
            columns[column] = [value_of[k][name] for k in keys]
        extra[table_name] = columns
    return extra


def _plain(value: Any) -> Any:
    return show_value(value) if isinstance(value, (tuple, list, dict)) else value
