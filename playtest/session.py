"""The Session: one playtest of one game, as a tree of positions with notes, saved as it goes.

A session holds the game, a tree of positions (every move, chance result and
parameter change is an edge), the notes written at positions, and the file it
autosaves to. Undo moves up the tree, redo back down; a move played after an
undo starts a new branch and the old line stays reachable.

>>> import playtest
>>> session = playtest.Session(playtest.load("eat_thyself"))
>>> first = session.legal_actions()[0]
>>> session.play(first)
>>> note = session.note("the first move eats a pawn of the other player")
>>> session.undo()
>>> session.play(session.legal_actions()[1])     # a new branch; the first line is kept
>>> len(session.branches())
2
"""

from __future__ import annotations

import html
import json
import os
import random
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .rules import CHANCE, Action, Game, IllegalAction, Outcome, game_class, load, show_value

__all__ = ["Session", "SessionFileError", "Note", "Branch", "Report"]

FORMAT = "playtest-session"
VERSION = 1


class SessionFileError(ValueError):
    """A session file that cannot be read: corrupt, foreign, or not replayable by the rules."""


@dataclass(frozen=True)
class Note:
    """A note written at a position: ``node`` is the position's id, ``move`` its move number."""

    node: int
    move: int
    text: str
    time: str

    def to_json(self) -> dict[str, Any]:
        return {"node": self.node, "text": self.text, "time": self.time}


@dataclass(frozen=True)
class Branch:
    """A line of play: its last position, where it leaves the current line, and its length."""

    leaf: int
    fork: int
    fork_move: int
    moves: int
    first: str
    current: bool

    def __str__(self) -> str:
        if self.current:
            return f"current line ({self.moves} moves)"
        return f"from move {self.fork_move}: {self.first} … ({self.moves} moves)"


class _Node:
    __slots__ = ("id", "parent", "kind", "action", "changes", "state", "game", "children",
                 "redo", "depth", "notation")

    def __init__(self, id: int, parent: "_Node | None", kind: str, action: Action | None,
                 changes: dict | None, state: Any, game: Game, notation: str):
        self.id = id
        self.parent = parent
        self.kind = kind            # root | move | chance | params
        self.action = action
        self.changes = changes
        self.state = state
        self.game = game
        self.children: list[_Node] = []
        self.redo: _Node | None = None
        # the move number: chance results and parameter changes are steps, not moves
        self.depth = 0 if parent is None else parent.depth + (kind == "move")
        self.notation = notation


class Report(str):
    """A Markdown text that notebooks display as Markdown."""

    def _repr_markdown_(self) -> str:
        return str(self)


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")


class Session:
    """A playtest of ``game``: play, undo, redo, branch, note, tweak parameters, save.

    ``game`` is a game object or a game name. ``seed`` seeds chance steps
    (recorded, so replays never depend on it). With ``path`` every change is
    written to that file before the call returns. ``start`` is a position (a
    state or its JSON form) to start from instead of the usual set-up.
    """

    def __init__(self, game: Game | str, seed: int | None = None, path: str | os.PathLike | None = None,
                 start: Any = None, *, auto_chance: bool = True):
        if isinstance(game, str):
            game = load(game)
        if not isinstance(game, Game):
            raise TypeError(f"Session needs a game from playtest.load(...), not {game!r}")
        if start is not None and not hasattr(start, "to_json"):
            start = game.state_from_json(start)
        self.seed = seed
        self._rng = random.Random(seed)
        self.auto_chance = auto_chance
        self._initial_params = game.params
        self._start = start
        state = start if start is not None else game.initial_state()
        root = _Node(0, None, "root", None, None, state, game, "start")
        self._nodes: list[_Node] = [root]
        self._cur = root
        self._notes: list[Note] = []
        self._listeners: list[Callable[["Session"], None]] = []
        self.created = _now()
        self.path: Path | None = None
        self._resolve_chance_steps()
        if path is not None:
            path = Path(path)
            if path.exists():
                raise FileExistsError(f"{path} already exists; open it with playtest.Session.load({str(path)!r}) "
                                      "or choose another path")
            self.path = path
            self._save_now()

    # ------------------------------------------------------------------ the position
    @property
    def game(self) -> Game:
        """The game (rules with parameters) in force at the current position."""
        return self._cur.game

    @property
    def params(self) -> Any:
        """The parameter values in force at the current position."""
        return self._cur.game.params

    @property
    def state(self) -> Any:
        """The current position (an immutable value)."""
        return self._cur.state

    @property
    def node(self) -> int:
        """The id of the current position in the tree."""
        return self._cur.id

    @property
    def move_number(self) -> int:
        """Moves played from the start to the current position."""
        return self._cur.depth

    @property
    def to_move(self) -> int | None:
        """The seat to act now, ``playtest.CHANCE``, or ``None`` when the game is over."""
        return self.game.to_move(self.state)

    def legal_actions(self) -> list[Action]:
        """The actions the player to move may take now."""
        if self.to_move is None:
            return []
        return self.game.legal_actions(self.state)

    @property
    def is_over(self) -> bool:
        return self.game.to_move(self.state) is None

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (winners, reason), or ``None`` while it goes on."""
        return self.game.outcome(self.state)

    @property
    def winner(self) -> int | tuple[int, ...] | str | None:
        """``None`` until decided; then the winning seat, a tuple of seats (a team), or ``playtest.DRAW``."""
        outcome = self.outcome
        return None if outcome is None else outcome.winner

    # ------------------------------------------------------------------ playing
    def play(self, action: Action | dict | str) -> None:
        """Play ``action`` (an action, its JSON form, or its notation) at the current position.

        Raises :class:`playtest.IllegalAction` naming the rule it breaks (or
        ``ValueError`` for malformed JSON); the session is then unchanged.
        """
        game, state = self.game, self.state
        action = self._parse_action(action)
        mover = game.to_move(state)
        if mover is None:
            outcome = game.outcome(state)
            raise IllegalAction(f"the game is over ({outcome.reason if outcome else 'finished'})")
        new_state = game.apply(state, action)
        self._advance("chance" if mover == CHANCE else "move", action, None, new_state, game,
                      game.notation(state, action))
        self._resolve_chance_steps()
        self._changed()

    def _parse_action(self, action: Action | dict | str) -> Action:
        game = self.game
        if isinstance(action, dict):
            return game.action_from_json(action)
        if isinstance(action, str):
            for candidate in self.legal_actions():
                if action in (str(candidate), game.notation(self.state, candidate)):
                    return candidate
            raise IllegalAction(f"{action!r} is not the notation of a legal action here")
        if isinstance(action, Action):
            return action
        raise TypeError(f"play() takes an action, its JSON form or its notation, not {action!r}")

    def play_bot(self, bot: Any) -> Action:
        """Let ``bot`` choose and play the action for the seat to move; returns it."""
        action = bot.choose(self.game, self.state)
        self.play(action)
        return action

    def resolve_chance(self, outcome: Action | dict | None = None) -> None:
        """Resolve a pending chance step: with ``outcome`` forced, else drawn from the seed."""
        if self.to_move != CHANCE:
            raise IllegalAction("there is no chance step to resolve here")
        if outcome is None:
            outcome = self.game.chance_outcome(self.state, self._rng)
        self.play(outcome)

    def _resolve_chance_steps(self) -> None:
        if not self.auto_chance:
            return
        for _ in range(1000):
            game, state = self.game, self.state
            if game.to_move(state) != CHANCE:
                return
            outcome = game.chance_outcome(state, self._rng)
            self._advance("chance", outcome, None, game.apply(state, outcome, check=False), game,
                          game.notation(state, outcome))

    def _advance(self, kind: str, action: Action | None, changes: dict | None, state: Any, game: Game,
                 notation: str) -> None:
        parent = self._cur
        for child in parent.children:
            if child.kind == kind and child.action == action and child.changes == changes \
                    and child.game == game:
                parent.redo = child
                self._cur = child
                return
        child = _Node(len(self._nodes), parent, kind, action, changes, state, game, notation)
        self._nodes.append(child)
        parent.children.append(child)
        parent.redo = child
        self._cur = child

    # ------------------------------------------------------------------ moving in the tree
    @property
    def can_undo(self) -> bool:
        return self._undo_target() is not None

    @property
    def can_redo(self) -> bool:
        return bool(self._cur.children)

    def _undo_target(self) -> _Node | None:
        node = self._cur.parent
        # a pending chance step is resolved again at once, so undo steps over it
        while node is not None and node.game.to_move(node.state) == CHANCE and self.auto_chance:
            node = node.parent
        return node

    def undo(self) -> None:
        """Go back one move (a parameter change counts as a move). The line stays for redo."""
        target = self._undo_target()
        if target is None:
            raise IndexError("nothing to undo: this is the start of the game")
        self._cur = target
        self._changed()

    def redo(self) -> None:
        """Go forward again along the line last played from here."""
        node = self._cur
        if not node.children:
            raise IndexError("nothing to redo: no move was played from this position")
        node = node.redo or node.children[-1]
        while node.game.to_move(node.state) == CHANCE and node.children and self.auto_chance:
            node = node.redo or node.children[-1]
        self._cur = node
        self._changed()

    def goto(self, node: int) -> None:
        """Jump to any position of the tree by its id (see :meth:`history`, :meth:`branches`)."""
        if not isinstance(node, int) or isinstance(node, bool) or not 0 <= node < len(self._nodes):
            raise IndexError(f"no position {node!r} in this session (ids go from 0 to {len(self._nodes) - 1})")
        target = self._nodes[node]
        # remember the way down, so redo from an ancestor follows this line
        walk = target
        while walk.parent is not None:
            walk.parent.redo = walk
            walk = walk.parent
        self._cur = target
        self._changed()

    def line(self) -> list[int]:
        """Ids of the positions from the start to the current one, then on along the redo line."""
        back = []
        node: _Node | None = self._cur
        while node is not None:
            back.append(node.id)
            node = node.parent
        ids = back[::-1]
        node = self._cur
        while node.children:
            node = node.redo or node.children[-1]
            ids.append(node.id)
        return ids

    def history(self) -> list[dict[str, Any]]:
        """The positions of :meth:`line`, each ``{"node", "move", "kind", "notation", "notes", "current"}``."""
        notes_by_node: dict[int, int] = {}
        for n in self._notes:
            notes_by_node[n.node] = notes_by_node.get(n.node, 0) + 1
        return [{"node": i, "move": self._nodes[i].depth, "kind": self._nodes[i].kind,
                 "notation": self._nodes[i].notation, "notes": notes_by_node.get(i, 0),
                 "current": i == self._cur.id} for i in self.line()]

    def branches(self) -> list[Branch]:
        """Every line of play in the tree (one per leaf), the current one marked."""
        current = set(self.line())
        result = []
        for node in self._nodes:
            if node.children:
                continue
            fork = node
            while fork.parent is not None and fork.id not in current:
                fork = fork.parent
            first = node
            while first.parent is not None and first.parent is not fork:
                first = first.parent
            result.append(Branch(leaf=node.id, fork=fork.id, fork_move=fork.depth, moves=node.depth,
                                 first=first.notation, current=node.id in current))
        return result

    def position(self, node: int) -> Any:
        """The state at position ``node``."""
        return self._nodes[node].state

    def positions(self) -> int:
        """How many positions the tree holds."""
        return len(self._nodes)

    # ------------------------------------------------------------------ notes and parameters
    def note(self, text: str) -> Note:
        """Write a note at the current position; it is saved with the session."""
        if not isinstance(text, str):
            raise TypeError(f"a note is text, not {type(text).__name__}")
        text = text.strip()
        if not text:
            raise ValueError("a note needs some text")
        note = Note(self._cur.id, self._cur.depth, text, _now())
        self._notes.append(note)
        self._changed()
        return note

    @property
    def notes(self) -> list[Note]:
        """Every note of the session, in the order written."""
        return list(self._notes)

    def notes_here(self) -> list[Note]:
        """The notes written at the current position."""
        return [n for n in self._notes if n.node == self._cur.id]

    def set_params(self, **changes: Any) -> None:
        """Change rule parameters at the current position.

        ``live`` parameters apply from here on; changing a ``setup`` parameter
        starts a new game with the new values. Either way the change is a step
        in the tree, so undo reverts it. Bad names or values raise ``ValueError``.
        """
        game = self.game
        new_params = game.params.replace(**changes)
        changed = {k: getattr(new_params, k) for k in changes if getattr(new_params, k) != getattr(game.params, k)}
        if not changed:
            return
        new_game = type(game)(new_params)
        setup = [k for k in changed if not new_params.spec(k).live]
        if setup:
            state = new_game.initial_state()
            notation = "new game: " + ", ".join(f"{k}={show_value(v)}" for k, v in changed.items())
        else:
            state = new_game.adapt_state(self.state, game)
            notation = "set " + ", ".join(f"{k}={show_value(v)}" for k, v in changed.items())
        self._advance("params", None, _jsonable(changed), state, new_game, notation)
        self._resolve_chance_steps()
        self._changed()

    def is_new_game(self, node: int | None = None) -> bool:
        """Whether the position ``node`` (default: current) began a new game by a setup change."""
        n = self._nodes[self._cur.id if node is None else node]
        return n.kind == "params" and n.notation.startswith("new game")

    # ------------------------------------------------------------------ observers
    def on_change(self, callback: Callable[["Session"], None]) -> None:
        """Call ``callback(session)`` after every change (the table redraws with it)."""
        self._listeners.append(callback)

    def _changed(self) -> None:
        if self.path is not None:
            self._save_now()
        for callback in list(self._listeners):
            callback(self)

    # ------------------------------------------------------------------ files
    def to_json(self) -> dict[str, Any]:
        """The session file's content: game, parameters, seed, the action tree, notes."""
        nodes = []
        for node in self._nodes[1:]:
            entry: dict[str, Any] = {"parent": node.parent.id}  # type: ignore[union-attr]
            if node.kind == "params":
                entry["params"] = node.changes
            else:
                entry[node.kind] = node.action.to_json()  # type: ignore[union-attr]
            nodes.append(entry)
        return {
            "format": FORMAT, "version": VERSION, "game": self._nodes[0].game.name,
            "params": self._initial_params.to_json(), "seed": self.seed,
            "start": self._start.to_json() if self._start is not None else None,
            "created": self.created, "saved": _now(),
            "nodes": nodes, "current": self._cur.id,
            "notes": [n.to_json() for n in self._notes],
        }

    def save(self, path: str | os.PathLike | None = None) -> Path:
        """Write the session (atomically) to ``path``, or to its own path; returns the path.

        A path given here becomes the session's autosave file.
        """
        if path is not None:
            self.path = Path(path)
        if self.path is None:
            raise ValueError("no path: call save(path) once, or create the Session with path=...")
        self._save_now()
        return self.path

    def _save_now(self) -> None:
        assert self.path is not None
        data = json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))
        directory = self.path.parent if str(self.path.parent) else Path(".")
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=directory)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise

    @classmethod
    def load(cls, path: str | os.PathLike) -> "Session":
        """Open a saved session; every action is replayed through the rules.

        A corrupt, foreign or hand-edited file that the rules refuse raises
        :class:`SessionFileError` naming the problem; the file is not touched.
        The loaded session keeps autosaving to ``path``.
        """
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise SessionFileError(f"{path} is not a playtest session file (not UTF-8 text)") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise SessionFileError(f"{path} is not a playtest session file (not valid JSON: {err})") from None
        session = cls.from_json(data, where=str(path))
        session.path = path
        return session

    @classmethod
    def from_json(cls, data: Any, where: str = "session") -> "Session":
        """A session from :meth:`to_json` data, replayed and checked through the rules."""
        def bad(message: str) -> SessionFileError:
            return SessionFileError(f"{where}: {message}")

        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise bad(f"not a playtest session (a session file has \"format\": \"{FORMAT}\")")
        version = data.get("version")
        if not isinstance(version, int) or version > VERSION or version < 1:
            raise bad(f"session format version {version!r} is not one this playtest reads (1 to {VERSION})")
        try:
            game_cls = game_class(data.get("game"))
        except ValueError as err:
            raise bad(str(err)) from None
        try:
            params = data.get("params") or {}
            if not isinstance(params, dict):
                raise ValueError("params must be an object")
            game = game_cls(**params)
        except ValueError as err:
            raise bad(f"bad parameters: {err}") from None
        start = data.get("start")
        seed = data.get("seed")
        try:
            session = cls(game, seed=seed, start=start, auto_chance=False)
        except ValueError as err:
            raise bad(f"bad start position: {err}") from None
        nodes = data.get("nodes")
        if not isinstance(nodes, list):
            raise bad("'nodes' must be a list")
        for index, entry in enumerate(nodes, start=1):
            if not isinstance(entry, dict) or not isinstance(entry.get("parent"), int) \
                    or not 0 <= entry["parent"] < index:
                raise bad(f"node {index} has no valid parent (each node names an earlier node)")
            session._cur = session._nodes[entry["parent"]]
            kinds = [k for k in ("move", "chance", "params") if k in entry]
            if len(kinds) != 1:
                raise bad(f"node {index} must have exactly one of 'move', 'chance' or 'params'")
            kind = kinds[0]
            try:
                if kind == "params":
                    if not isinstance(entry["params"], dict):
                        raise ValueError("params must be an object")
                    session.set_params(**entry["params"])
                    if len(session._nodes) != index + 1:
                        raise ValueError("this parameter change changes nothing or repeats node "
                                         f"{session._cur.id}")
                else:
                    before = session.game.to_move(session.state)
                    if (before == CHANCE) != (kind == "chance"):
                        raise IllegalAction("a chance result where a player moves, or the reverse")
                    session.play(entry[kind])
                    if len(session._nodes) != index + 1:
                        raise ValueError(f"this move repeats node {session._cur.id}")
            except (IllegalAction, ValueError, TypeError) as err:
                shown = json.dumps(entry.get(kind), ensure_ascii=False)
                raise bad(f"node {index} ({kind} {shown} after node {entry['parent']}) cannot be replayed: "
                          f"{err}") from None
        current = data.get("current", len(session._nodes) - 1)
        if not isinstance(current, int) or not 0 <= current < len(session._nodes):
            raise bad(f"'current' must be a node id from 0 to {len(session._nodes) - 1}")
        notes = data.get("notes", [])
        if not isinstance(notes, list):
            raise bad("'notes' must be a list")
        for i, note in enumerate(notes):
            if not isinstance(note, dict) or not isinstance(note.get("text"), str) or \
                    not isinstance(note.get("node"), int) or not 0 <= note["node"] < len(session._nodes):
                raise bad(f"note {i} must have 'text' and a 'node' id of this session")
            node = session._nodes[note["node"]]
            session._notes.append(Note(node.id, node.depth, note["text"], str(note.get("time", ""))))
        session._initial_params = game.params
        session.created = str(data.get("created", session.created))
        session.auto_chance = True
        session.goto(current)
        return session

    # ------------------------------------------------------------------ reporting and display
    def report(self) -> Report:
        """A Markdown summary: parameters, moves in notation, notes at their moves, the result."""
        game = self.game
        esc = _md_escape
        lines = [f"# {game.title}: playtest report", ""]
        lines.append(f"*{esc(game.credit)}*")
        lines += ["", "## Parameters", "", "| parameter | value | default |", "| --- | --- | --- |"]
        for spec in game.params.specs():
            value = getattr(game.params, spec.name)
            mark = " **(changed)**" if value != spec.default else ""
            lines.append(f"| `{spec.name}` | {esc(show_value(value))}{mark} | {esc(show_value(spec.default))} |")
        seats = ", ".join(f"{i}: {esc(s.name)}" for i, s in enumerate(game.seats()))
        lines += ["", f"Seats: {seats}", "", "## Moves", ""]
        notes_by_node: dict[int, list[Note]] = {}
        for note in self._notes:
            notes_by_node.setdefault(note.node, []).append(note)
        back: list[_Node] = []
        node: _Node | None = self._cur
        while node is not None:
            back.append(node)
            node = node.parent
        for node in reversed(back):
            if node.kind == "root":
                text = "start"
            elif node.kind == "params":
                text = f"⚙ {esc(node.notation)}"
            elif node.kind == "chance":
                text = f"🎲 {esc(node.notation)}"
            else:
                text = f"{node.depth}. {esc(node.notation)}"
            lines.append(f"- {text}")
            for note in notes_by_node.get(node.id, []):
                lines.append(f"  - 📝 {esc(note.text)}")
        other = [n for n in self._notes if n.node not in {b.id for b in back}]
        if other:
            lines += ["", "## Notes on other branches", ""]
            for note in other:
                lines.append(f"- move {note.move} (position {note.node}): {esc(note.text)}")
        outcome = self.outcome
        lines += ["", "## Result", ""]
        if outcome is None:
            lines.append(f"Not finished: {esc(game.describe_state(self.state))}, move {self._cur.depth}.")
        elif outcome.is_draw:
            lines.append(f"Draw: {esc(outcome.reason)}.")
        else:
            names = ", ".join(esc(game.seats()[w].name) for w in outcome.winners)
            lines.append(f"Won by {names}: {esc(outcome.reason)}.")
        lines.append("")
        return Report("\n".join(lines))

    def table(self, bots: dict | None = None) -> Any:
        """The interactive table widget for this session (one per session)."""
        from .widgets.table import Table
        existing = getattr(self, "_table", None)
        if existing is None or bots is not None:
            existing = Table(self, bots=bots)
            self._table = existing
        return existing

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> Any:
        return self.table()._repr_mimebundle_(include=include, exclude=exclude)

    def __repr__(self) -> str:
        where = "over" if self.is_over else self.game.describe_state(self.state)
        return (f"<Session {self.game.name}: move {self.move_number}, {where}, "
                f"{len(self._nodes)} positions, {len(self._notes)} notes>")


def _jsonable(values: dict[str, Any]) -> dict[str, Any]:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in values.items()}


def _md_escape(text: str) -> str:
    """User text for Markdown: HTML is escaped so it shows as text and never runs."""
    return html.escape(text, quote=False).replace("|", "\\|").replace("\n", " ")

