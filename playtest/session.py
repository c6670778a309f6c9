"""The Session: one playtest of one game, as a tree of positions with notes, saved as it goes.

A session holds the game, a tree of positions (every move, chance result and
parameter change is an edge), the notes written at positions, and the file it
autosaves to. Undo moves up the tree, redo back down; a move played after an
undo starts a new branch and the old line stays reachable.

Chance steps (dice, draws, a scatter) are drawn with the session's seed and
recorded; undo stops before each, so a designer can force the outcome instead
(:meth:`Session.force`), and a forced outcome is marked as forced everywhere.

Whoever reads a session is a *viewer*: ``None`` (the table in hot-seat play,
no seat's secrets) or a seat. :meth:`Session.history`, :meth:`Session.report`
and the table show a viewer only what it may know; bots get a state redrawn
from their seat's knowledge. The session *file* holds the whole truth, since it
must replay through the rules: send a tester ``save(path, seat=k)`` instead.

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

import functools
import gc
import html
import json
import os
import random
import time
import warnings
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .journal import (EXPORT_FORMAT, FORMAT, LIMITS, VERSION, Journal, SessionFileError, SessionSaveError,
                      encode_journal, encode_record, read_bytes, read_records, remove_stale_temporaries,
                      write_atomically)
from .rules import (CHANCE, SIMULTANEOUS, Action, Game, IllegalAction, MalformedAction, Outcome, UncountedChance,
                    check_action_types, draw_outcome, game_class, load, show_value)

__all__ = ["Session", "SessionFileError", "SessionSaveError", "SessionFileWarning", "Note", "Branch",
           "Report"]


class SessionFileWarning(UserWarning):
    """Something in a session file was repaired on opening (a change cut off by a crash)."""


@dataclass(frozen=True)
class Note:
    """A note written at a position: ``node`` is the position's id, ``move`` its move number,
    ``author`` who wrote it (a tester's name; the designer's by default)."""

    node: int
    move: int
    text: str
    time: str
    author: str = ""

    def to_json(self) -> dict[str, Any]:
        data = {"node": self.node, "text": self.text, "time": self.time}
        if self.author:
            data["author"] = self.author
        return data


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


class _ActionCache:
    """Actions read from a file, parsed once per distinct JSON form (a long session repeats them).

    Actions are immutable values, so one object can stand for every repeat.
    The key keeps each value's type, so ``true`` is never taken for ``1``.
    """

    __slots__ = ("_seen",)

    def __init__(self) -> None:
        self._seen: dict[tuple, Action] = {}

    def __call__(self, game: Game, data: Any) -> Action:
        try:
            key = (id(game), *[(k, type(v), v) for k, v in data.items()])
            hash(key)
        except (AttributeError, TypeError):    # not an object, or a list inside: parse it as it is
            return game.action_from_json(data)
        action = self._seen.get(key)
        if action is None:
            action = self._seen[key] = game.action_from_json(data)
        return action


class _Node:
    __slots__ = ("id", "parent", "kind", "action", "changes", "state", "game", "children",
                 "redo", "depth", "notation", "forced", "seen", "index", "by", "line")

    def __init__(self, id: int, parent: "_Node | None", kind: str, action: Action | None,
                 changes: dict | None, state: Any, game: Game, notation: str | None, forced: bool = False):
        self.id = id
        self.parent = parent
        self.kind = kind            # root | move | chance | params
        self.action = action
        self.changes = changes
        self.state = state
        self.game = game
        self.children: list[_Node] = []
        self.index: dict[tuple, _Node] = {}     # children by what they did: adding one is O(1)
        self.redo: _Node | None = None
        # the move number: chance results and parameter changes are steps, not moves
        self.depth = 0 if parent is None else parent.depth + (kind == "move")
        self.notation = notation    # as the table (viewer None) reads it; None: written when first read
        self.forced = forced        # a chance result chosen by the designer, not drawn
        self.seen: dict[int, str] | None = None   # notation per seat, for games with secrets
        self.by = parent.by if parent is not None else ""   # who played it (a merged tester's name)
        self.line: str | None = None    # its record in the session file, encoded once (saves reuse it)

    def notation_for(self, viewer: int | None) -> str:
        """The step in words as ``viewer`` may read them (secrets only for those who may know)."""
        if viewer is None or self.action is None or not self.game.has_secrets:
            if self.notation is None:
                self.notation = self.game.notation(self.parent.state, self.action)  # type: ignore[union-attr]
            text = self.notation
        else:
            if self.seen is None:
                self.seen = {}
            text = self.seen.get(viewer)
            if text is None:
                text = self.seen[viewer] = self.game.notation(self.parent.state, self.action, viewer)  # type: ignore
        return text + " (forced)" if self.forced else text


def _child_key(kind: str, action: Action | None, changes: dict | None, forced: bool) -> tuple:
    return (kind, action, json.dumps(changes, sort_keys=True) if changes is not None else None, forced)


def _transaction(method: Callable) -> Callable:
    """A change to the session: on disk before the call returns, or not made at all.

    The method changes the tree in memory; then the change is appended to the
    session file. If the method raises (a refused move, a parameter change
    the rules cannot set up) or the write fails (disk full), the session is
    put back exactly as it was, and the error is raised.
    """
    @functools.wraps(method)
    def change(self: "Session", *args: Any, **kwargs: Any) -> Any:
        if self._undo_log is not None:            # inside another change (force calls play)
            return method(self, *args, **kwargs)
        snapshot = (self._cur, len(self._nodes), len(self._notes))
        self._undo_log = []
        try:
            result = method(self, *args, **kwargs)
            self._persist()
        except BaseException:
            self._rollback(snapshot)
            raise
        finally:
            self._undo_log = None
        self._notify()
        return result
    return change


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
        self._games: dict[Any, Game] = {game.params: game}   # one game object per parameter set
        self._table: Any = None
        self._memo: dict[Any, Any] = {}
        self._undo_log: list[tuple[_Node, _Node | None]] | None = None
        self.created = _now()
        self.path: Path | None = None
        self._journal: Journal | None = None
        self._written = (0, 0, 0)     # nodes, notes, current: what the file holds
        #: what opening the file repaired (a change cut off by a crash), in words
        self.load_warnings: list[str] = []
        #: who writes the notes from now on (a tester's name); the designer's by default
        self.author = _default_author()
        self._resolve_chance_steps()
        if path is not None:
            path = Path(path)
            if path.exists():
                raise FileExistsError(f"{path} already exists: resume it with playtest.Session.open("
                                      f"{str(path)!r}, ...) or playtest.Session.load, or choose another path")
            self._attach(path)

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

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """The actions the player to move may take now; with ``seat``, only that seat's.

        In a simultaneous step every pending seat has its own list: name the seat.
        When chance is to move these are the outcomes a designer may force.
        """
        if self.to_move is None:
            return []
        return self.game.legal_actions(self.state, seat)

    def chance_outcomes(self) -> list[tuple[Action, float]] | UncountedChance:
        """When chance is to move: its outcomes with their probabilities (see :meth:`force`)."""
        if self.to_move != CHANCE:
            raise IllegalAction("chance is not to move here: there is nothing to roll or force "
                                "(undo to before a roll to force it)")
        return self.game.chance_outcomes(self.state)

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
    @_transaction
    def play(self, action: Action | dict | str, seat: int | None = None) -> None:
        """Play ``action`` (an action, its JSON form, or its notation) at the current position.

        ``seat`` says who plays it (a table bound to a seat always passes it):
        an action of another seat is refused. When chance is to move, ``action``
        is an outcome the designer forces; it is marked as forced everywhere.

        Raises :class:`playtest.IllegalAction` naming the rule it breaks (or
        ``ValueError`` for malformed JSON); the session is then unchanged.
        """
        game, state = self.game, self.state
        mover = game.to_move(state)
        if mover is None:
            outcome = game.outcome(state)
            raise IllegalAction(f"the game is over ({outcome.reason if outcome else 'finished'}); "
                                "undo or jump back in the history to play on")
        try:
            action = self._parse_action(action, seat)
        except IllegalAction:
            raise
        except (ValueError, TypeError, RecursionError) as err:   # not an action of this game at all
            raise MalformedAction(str(err)[:300] if not isinstance(err, RecursionError)
                                  else "malformed action: nested too deeply") from None
        check_action_types(action)
        if not isinstance(action, game.action_types):
            raise MalformedAction(f"{type(action).__name__} is not an action of {game.name}")
        if mover == CHANCE:
            if seat is not None:
                raise IllegalAction(f"chance is to move, not {self._seat_name(seat)}: roll or force the outcome")
            self._play_chance(action, forced=True)
        else:
            actor = game.seat_of(state, action)
            if seat is not None and actor != seat:
                if mover == SIMULTANEOUS:
                    raise IllegalAction(f"this is {self._seat_name(actor)}'s order; this table plays for "
                                        f"{self._seat_name(seat)}")
                raise IllegalAction(f"it is {self._seat_name(mover)}'s turn, not {self._seat_name(seat)}'s")
            if mover == SIMULTANEOUS and actor is None:
                raise IllegalAction("in a simultaneous step an action names the seat that submits it")
            new_state = game.apply(state, action)
            self._advance("move", action, None, new_state, game, None)
        self._resolve_chance_steps()

    def _seat_name(self, seat: int | None) -> str:
        seats = self.game.seats()
        return seats[seat].name if isinstance(seat, int) and 0 <= seat < len(seats) else f"seat {seat!r}"

    def _parse_action(self, action: Action | dict | str, seat: int | None = None) -> Action:
        game = self.game
        if isinstance(action, dict):
            return game.action_from_json(action)
        if isinstance(action, str):
            text = action.strip()
            matches = [c for c in self.legal_actions(seat)
                       if text in (str(c), game.notation(self.state, c, seat))]
            if len(matches) == 1:
                return matches[0]
            if matches:       # never pick one silently
                raise IllegalAction(f"{text[:200]!r} could be any of {len(matches)} actions here; "
                                    "play the action or its JSON form instead", rule="notation")
            raise IllegalAction(f"{text[:200]!r} is not the notation of a legal action here: "
                                f"{self._notation_hint(seat)}", rule="notation")
        if isinstance(action, Action):
            return action
        raise MalformedAction(f"play() takes an action, its JSON form or its notation, not {type(action).__name__}")

    def _notation_hint(self, seat: int | None) -> str:
        """What may be played here, in words, for a notation that matched nothing."""
        mover = self.to_move
        if mover == CHANCE:
            return "chance is to move: roll, or force one of its outcomes"
        legal = self.legal_actions(seat)
        if not legal:
            return f"{self._seat_name(seat)} has nothing to do now" if seat is not None else "nothing can be played"
        shown = ", ".join(repr(self.game.notation(self.state, a, seat)) for a in legal[:6])
        more = f" and {len(legal) - 6} more" if len(legal) > 6 else ""
        return f"the legal actions are {shown}{more}"

    def play_bot(self, bot: Any, seat: int | None = None) -> Action:
        """Let ``bot`` choose and play for the seat to move (or ``seat``, in a simultaneous step).

        The bot sees only what that seat may know (see :func:`playtest.bots.choose_for`).
        """
        from .bots import choose_for
        mover = self.to_move
        if mover is None or mover == CHANCE:
            raise IllegalAction("no seat is to move here" if mover is None else
                                "chance is to move: roll or force the outcome")
        if seat is None:
            seat = mover if mover != SIMULTANEOUS else self.game.pending_seats(self.state)[0]
        rng = random.Random(f"{self.seed}:{self._cur.id}:{seat}")   # repeatable, and secret-free
        action = choose_for(bot, self.game, self.state, seat, rng)
        self.play(action, seat=seat)
        return action

    @_transaction
    def roll(self) -> Action:
        """Resolve the chance step to move now by drawing from its distribution (the session's seed)."""
        if self.to_move != CHANCE:
            raise IllegalAction("chance is not to move here: there is nothing to roll")
        outcome = draw_outcome(self.game.chance_outcomes(self.state), self._rng)
        self._play_chance(outcome, forced=False)
        self._resolve_chance_steps()
        return outcome

    def force(self, outcome: Action | dict | str) -> None:
        """Resolve the chance step to move now with ``outcome`` ("the next roll is a 6").

        The outcome is checked against :meth:`chance_outcomes` (an impossible one
        raises :class:`IllegalAction`) and marked as forced in the history, the
        report and the file. To force a roll that was already drawn, undo first:
        undo stops before every chance step.
        """
        if self.to_move != CHANCE:
            raise IllegalAction("chance is not to move here: undo to before the roll to force it")
        self.play(outcome)

    def resolve_chance(self, outcome: Action | dict | None = None) -> None:
        """Resolve a pending chance step: with ``outcome`` forced, else drawn from the seed."""
        if outcome is None:
            self.roll()
        else:
            self.force(outcome)

    def _play_chance(self, outcome: Action, forced: bool, check: bool | None = None) -> None:
        """Record a chance result; ``check`` (default: when forced) refuses an impossible one."""
        game, state = self.game, self.state
        if forced if check is None else check:
            outcomes = game.chance_outcomes(state)
            if isinstance(outcomes, UncountedChance):
                outcomes.check(outcome)
            elif not any(o == outcome and p > 0 for o, p in outcomes):
                shown = ", ".join(game.notation(state, o) for o, p in outcomes if p > 0)
                raise IllegalAction(f"{game.notation(state, outcome)!r} cannot happen here; "
                                    f"the possible outcomes are: {shown[:500]}")
        new_state = game.apply(state, outcome, check=forced if check is None else check)
        self._advance("chance", outcome, None, new_state, game, None, forced)

    def _resolve_chance_steps(self) -> None:
        if not self.auto_chance:
            return
        for _ in range(10_000):
            game, state = self.game, self.state
            if game.to_move(state) != CHANCE:
                return
            self._play_chance(draw_outcome(game.chance_outcomes(state), self._rng), forced=False)

    def _advance(self, kind: str, action: Action | None, changes: dict | None, state: Any, game: Game,
                 notation: str | None, forced: bool = False) -> None:
        parent = self._cur
        child = self._child(parent, kind, action, changes, state, game, notation, forced, self.author)
        self._set_redo(parent, child)
        self._cur = child

    def _child(self, parent: _Node, kind: str, action: Action | None, changes: dict | None, state: Any,
               game: Game, notation: str | None, forced: bool, by: str) -> _Node:
        """The child of ``parent`` that this step leads to: the one already there, or a new one."""
        key = _child_key(kind, action, changes, forced)
        child = parent.index.get(key)
        if child is None:
            child = _Node(len(self._nodes), parent, kind, action, changes, state, game, notation, forced)
            child.by = by
            self._nodes.append(child)
            parent.children.append(child)
            parent.index[key] = child
        return child

    def _set_redo(self, node: _Node, child: _Node | None) -> None:
        if self._undo_log is not None and node.redo is not child:
            self._undo_log.append((node, node.redo))
        node.redo = child

    def _rollback(self, snapshot: tuple) -> None:
        """Put the tree back as it was before a change that failed (see :func:`_transaction`)."""
        cur, nodes, notes = snapshot
        for node, redo in reversed(self._undo_log or []):
            node.redo = redo
        for node in reversed(self._nodes[nodes:]):
            parent = node.parent
            parent.children.remove(node)   # type: ignore[union-attr]
            parent.index.pop(_child_key(node.kind, node.action, node.changes, node.forced), None)  # type: ignore
        del self._nodes[nodes:]
        del self._notes[notes:]
        self._cur = cur
        self._memo.clear()

    # ------------------------------------------------------------------ moving in the tree
    @property
    def can_undo(self) -> bool:
        return self._undo_target() is not None

    @property
    def can_redo(self) -> bool:
        return bool(self._cur.children)

    def _undo_target(self) -> _Node | None:
        return self._cur.parent

    @_transaction
    def undo(self) -> None:
        """Go back one step (a move, a chance result or a parameter change). The line stays for redo.

        Undo stops before every chance step, so "undo, then force a 6" works:
        the table then offers the roll and every outcome with its probability.
        """
        target = self._undo_target()
        if target is None:
            raise IndexError("nothing to undo: this is the start of the game")
        self._cur = target

    @_transaction
    def redo(self) -> None:
        """Go forward again along the line last played from here."""
        node = self._cur
        if not node.children:
            raise IndexError("nothing to redo: no move was played from this position")
        self._cur = node.redo or node.children[-1]

    @_transaction
    def goto(self, node: int) -> None:
        """Jump to any position of the tree by its id (see :meth:`history`, :meth:`branches`)."""
        if not isinstance(node, int) or isinstance(node, bool) or not 0 <= node < len(self._nodes):
            raise IndexError(f"no position {node!r} in this session (ids go from 0 to {len(self._nodes) - 1})")
        self._go(node)

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

    def history(self, viewer: int | None = None) -> list[dict[str, Any]]:
        """The positions of :meth:`line` as ``viewer`` may read them (``None``: no seat's secrets).

        Each is ``{"node", "move", "kind", "notation", "forced", "notes", "current"}``;
        a forced chance result says so in its notation too.
        """
        notes_by_node: dict[int, int] = {}
        for n in self._notes:
            notes_by_node[n.node] = notes_by_node.get(n.node, 0) + 1
        entries = []
        for i in self.line():
            node = self._nodes[i]
            entries.append({"node": i, "move": node.depth, "kind": node.kind,
                            "notation": node.notation_for(viewer), "forced": node.forced,
                            "notes": notes_by_node.get(i, 0), "current": i == self._cur.id})
        return entries

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
                                 first=first.notation_for(None), current=node.id in current))
        return result

    def playback(self, viewer: int | None = None) -> list[dict]:
        """The last move's resolution step by step, as scenes ``viewer`` may see (often none).

        The last move is the newest step on the line up to the current
        position that is not a chance result (those follow on their own). The
        table plays these scenes back with a slider; the current position's own
        scene comes after them.
        """
        node: _Node | None = self._cur
        while node is not None and node.kind == "chance":
            node = node.parent
        if node is None or node.kind != "move" or node.parent is None:
            return []
        return node.game.frames(node.parent.state, node.action, viewer)

    def position(self, node: int) -> Any:
        """The state at position ``node``."""
        return self._nodes[node].state

    def positions(self) -> int:
        """How many positions the tree holds."""
        return len(self._nodes)

    # ------------------------------------------------------------------ notes and parameters
    @_transaction
    def note(self, text: str, author: str | None = None) -> Note:
        """Write a note at the current position; it is saved with the session.

        ``author`` defaults to :attr:`author` (a tester's name, or the designer's).
        """
        if not isinstance(text, str):
            raise TypeError(f"a note is text, not {type(text).__name__}")
        text = text.strip()
        if not text:
            raise ValueError("a note needs some text")
        if len(text) > LIMITS.max_text:
            raise ValueError(f"a note holds at most {LIMITS.max_text:,} characters, not {len(text):,}")
        author = _check_author(self.author if author is None else author)
        note = Note(self._cur.id, self._cur.depth, text, _now(), author)
        self._notes.append(note)
        return note

    @property
    def notes(self) -> list[Note]:
        """Every note of the session, in the order written."""
        return list(self._notes)

    def notes_here(self) -> list[Note]:
        """The notes written at the current position."""
        return [n for n in self._notes if n.node == self._cur.id]

    @_transaction
    def merge(self, other: "Session | str | os.PathLike") -> dict[str, int]:
        """Join another session of the same game and start into this one (a tester's, say).

        Every line of play of ``other`` joins this tree: lines both sessions
        played are shared, not duplicated, and a line that differs (other moves,
        other chance results, another parameter history) becomes a branch of
        its own. Every note of ``other`` comes along at its position, with its
        author; a note already here is not added twice. ``other`` (a session or
        a session file's path) is never changed. Returns what was added:
        ``{"positions": ..., "notes": ...}``.

        Refuses, with ``ValueError`` naming the difference, a session of another
        game, or one that starts from another position or other parameters.
        """
        if not isinstance(other, Session):
            other = Session.load(other) if not _same_file(Path(other), self.path or Path("")) else self
        if other is self:
            return {"positions": 0, "notes": 0}
        mine, theirs = self._nodes[0], other._nodes[0]
        if theirs.game.name != mine.game.name:
            raise ValueError(f"cannot merge a {theirs.game.name} session into a {mine.game.name} session")
        if other._initial_params != self._initial_params:
            differ = sorted(k for k, v in other._initial_params.to_json().items()
                            if self._initial_params.to_json().get(k) != v)
            raise ValueError(f"cannot merge: the other session starts with other parameters ({', '.join(differ)})")
        if theirs.state != mine.state:
            raise ValueError("cannot merge: the other session starts from another position")
        before_nodes, before_notes = len(self._nodes), len(self._notes)
        where = {0: 0}
        for node in other._nodes[1:]:
            known = self._child(self._nodes[where[node.parent.id]], node.kind, node.action,  # type: ignore
                                node.changes, node.state, self._games.setdefault(node.game.params, node.game),
                                node.notation, node.forced, node.by or other.author)
            where[node.id] = known.id
        present = {(n.node, n.text, n.author) for n in self._notes}
        for note in other._notes:
            node = self._nodes[where[note.node]]
            if (node.id, note.text, note.author) not in present:
                self._notes.append(Note(node.id, node.depth, note.text, note.time, note.author))
                present.add((node.id, note.text, note.author))
        return {"positions": len(self._nodes) - before_nodes, "notes": len(self._notes) - before_notes}

    @_transaction
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
        new_game = self._games.get(new_params)
        if new_game is None:
            new_game = self._games[new_params] = type(game)(new_params)
        setup = [k for k in changed if not new_params.spec(k).live]
        if setup:
            state = new_game.initial_state()
            notation = "new game: " + ", ".join(f"{k}={show_value(v)}" for k, v in changed.items())
        else:
            state = new_game.adapt_state(self.state, game)
            notation = "set " + ", ".join(f"{k}={show_value(v)}" for k, v in changed.items())
        self._advance("params", None, _jsonable(changed), state, new_game, notation)
        self._resolve_chance_steps()

    def is_new_game(self, node: int | None = None) -> bool:
        """Whether the position ``node`` (default: current) began a new game by a setup change."""
        n = self._nodes[self._cur.id if node is None else node]
        return n.kind == "params" and n.notation.startswith("new game")

    # ------------------------------------------------------------------ observers
    def on_change(self, callback: Callable[["Session"], None]) -> None:
        """Call ``callback(session)`` after every change (the table redraws with it)."""
        self._listeners.append(callback)

    def off_change(self, callback: Callable[["Session"], None]) -> None:
        """Stop calling ``callback`` (a closed table unsubscribes)."""
        self._listeners = [c for c in self._listeners if c is not callback]

    def _notify(self) -> None:
        self._memo.clear()
        for callback in list(self._listeners):
            callback(self)

    def memo(self, key: Any, compute: Callable[[], Any]) -> Any:
        """``compute()``, remembered until the session next changes: every table of a session
        shares one scene, one history and one branch list per change instead of making its own."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    # ------------------------------------------------------------------ files
    def to_json(self) -> dict[str, Any]:
        """The whole session as one JSON object (the one-object form, version 1, that
        :meth:`from_json` reads): game, parameters, seed, the action tree, notes, current."""
        return {**self._header(), "version": 1, "saved": _now(),
                "nodes": [self._node_record(n)["node"] for n in self._nodes[1:]],
                "current": self._cur.id, "notes": [n.to_json() for n in self._notes]}

    def save(self, path: str | os.PathLike | None = None, seat: int | None = None, *,
             replace: bool = False) -> Path:
        """Write the session to ``path`` (or compact its own file); returns the path.

        The session file holds the whole truth, every seat's secrets included:
        it must replay through the rules. A path given here becomes the
        session's autosave file. A file that is already there (another session,
        say) is never overwritten unasked: ``replace=True`` replaces it and keeps
        the old one beside it as ``<name>.bak``.

        With ``seat``, write instead an export for that seat that leaves out
        everything the seat may not know (other seats' secret orders, face-down
        values): the line of play in its words, its view of the position, and
        the notes. An export is for reading; it cannot be replayed or loaded
        as a session, and it never becomes the autosave file.
        """
        target = Path(path) if path is not None else self.path
        if target is None:
            raise ValueError("no path: call save(path) once, or create the Session with path=...")
        own = self.path is not None and _same_file(target, self.path)
        if target.exists() and not own:
            if not replace:
                raise FileExistsError(f"{target} already exists and is not this session's file: nothing was "
                                      "written. Choose another name, or save(..., replace=True) to replace it "
                                      "(the old file is kept as a .bak beside it)")
            os.replace(target, target.with_name(target.name + ".bak"))
        if seat is not None:
            seats = self.game.seats()
            if type(seat) is not int or not 0 <= seat < len(seats):
                raise ValueError(f"seat must be a seat from 0 to {len(seats) - 1}, not {seat!r}")
            if own:
                raise ValueError("an export for one seat cannot replace the session's own file")
            write_atomically(target, json.dumps(self.export(seat), ensure_ascii=False, indent=1))
            return target
        if own and self._journal is not None:
            self._journal.rewrite(*self._records())
            self._written = (len(self._nodes), len(self._notes), self._cur.id)
        else:
            self._attach(target)
        return target

    def export(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know of this session, as JSON data (see :meth:`save` with ``seat``)."""
        history = self.history(viewer=seat)
        return {
            "format": EXPORT_FORMAT, "version": VERSION, "game": self.game.name, "seat": seat,
            "seat_name": self.game.seats()[seat].name, "params": self.params.to_json(),
            "line": [{k: e[k] for k in ("move", "kind", "notation", "forced")} for e in history
                     if e["node"] <= self._cur.id or e["current"]],
            "view": self.game.view(self.state, seat),
            "notes": [{"move": n.move, "text": n.text, "time": n.time} for n in self._notes],
            "saved": _now(),
        }

    # the journal: a compact copy, then one appended line or a few per change
    def _header(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "game": self._nodes[0].game.name,
                "params": self._initial_params.to_json(), "seed": self.seed,
                "start": self._start.to_json() if self._start is not None else None,
                "created": self.created}

    def _node_record(self, node: _Node) -> dict[str, Any]:
        entry: dict[str, Any] = {"parent": node.parent.id}  # type: ignore[union-attr]
        if node.kind == "params":
            entry["params"] = node.changes
        else:
            entry[node.kind] = node.action.to_json()  # type: ignore[union-attr]
        if node.forced:
            entry["forced"] = True
        if node.by != node.parent.by:  # type: ignore[union-attr]   # who played it, once per line
            entry["by"] = node.by
        return {"node": entry}

    def _node_line(self, node: _Node) -> str:
        """The node's record as its line of the file: encoded once (a node never changes once made)."""
        line = node.line
        if line is None:
            line = node.line = encode_record(self._node_record(node))
        return line

    def _records(self) -> tuple[dict, list[Any]]:
        records: list[Any] = [self._node_line(n) for n in self._nodes[1:]]
        records += [{"note": n.to_json()} for n in self._notes]
        records.append({"current": self._cur.id})
        return self._header(), records

    def _attach(self, path: Path) -> None:
        """Make ``path`` this session's file: write a compact copy there, append from now on."""
        journal = Journal(path)
        journal.rewrite(*self._records())
        if self._journal is not None:
            self._journal.close()
        self._journal, self.path = journal, path
        self._written = (len(self._nodes), len(self._notes), self._cur.id)

    def _persist(self) -> None:
        """Append what changed since the last write (raises SessionSaveError; the caller rolls back)."""
        if self._journal is None:
            return
        nodes, notes, current = self._written
        if nodes > len(self._nodes) or notes > len(self._notes):      # never after a rollback; be safe
            self._journal.rewrite(*self._records())
        else:
            records: list[Any] = [self._node_line(n) for n in self._nodes[nodes:]]
            records += [{"note": n.to_json()} for n in self._notes[notes:]]
            last = self._nodes[-1].id if len(self._nodes) > nodes else current
            if self._cur.id != last:
                records.append({"current": self._cur.id})
            self._journal.append(records)
        self._written = (len(self._nodes), len(self._notes), self._cur.id)

    @classmethod
    def open(cls, path: str | os.PathLike, game: Game | str, seed: int | None = None,
             start: Any = None) -> "Session":
        """The session recorded in ``path``, resumed; or a new one saved there when none exists.

        What notebooks use: "Run All" after a kernel restart brings the same
        session back instead of replacing it, and "Run All" in the same kernel
        returns the very session already open (its table keeps working). A file
        of another game is refused, and so is a file another kernel has open.

        >>> import tempfile, os, playtest
        >>> path = os.path.join(tempfile.mkdtemp(), "demo.playtest.json")
        >>> first = playtest.Session.open(path, "eat_thyself", seed=1)
        >>> first.play(first.legal_actions()[0])
        >>> again = playtest.Session.open(path, "eat_thyself", seed=1)    # resumed, not replaced
        >>> again.move_number
        1
        """
        path = Path(path)
        name = game if isinstance(game, str) else getattr(game, "name", None)
        live = _OPEN.get(_key(path))
        if live is not None and live.path is not None and _same_file(live.path, path):
            session = live                       # Run All in the same kernel: the very same session
        elif path.exists():
            session = cls.load(path)
        else:
            session = cls(game, seed=seed, path=path, start=start)
        if name is not None and session._nodes[0].game.name != name:
            raise SessionFileError(f"{path} holds a {session._nodes[0].game.name} session, not {name}: "
                                   "choose another path")
        if session._journal is not None and not session._journal.locked:
            session._journal.lock()              # another kernel playing the same file is refused
        _OPEN[_key(path)] = session
        return session

    @classmethod
    def load(cls, path: str | os.PathLike) -> "Session":
        """Open a saved session; every action is replayed through the rules.

        A corrupt, foreign, oversized or hand-edited file that the rules refuse
        raises :class:`SessionFileError` naming the problem, and the file is not
        touched. A last change cut off by a crash is dropped (and said so in
        :attr:`load_warnings` and a :class:`SessionFileWarning`); every change
        whose call returned is there. The loaded session keeps autosaving to
        ``path``.
        """
        path = Path(path)
        remove_stale_temporaries(path)
        header, records, torn_at, notes = read_records(path)
        session = cls._replay(header, records, where=str(path))
        session.load_warnings = notes
        for note in notes:
            warnings.warn(f"{path}: {note}", SessionFileWarning, stacklevel=2)
        journal = Journal(path)
        if torn_at is not None:
            journal.truncate(torn_at)
        if header.get("version") == 1 if isinstance(header, dict) else False:
            journal.rewrite(*session._records())     # an old file: the same content, as a journal
        session._journal, session.path = journal, path
        session._written = (len(session._nodes), len(session._notes), session._cur.id)
        return session

    def to_bytes(self) -> bytes:
        """The session file's content, compact (what a download hands the browser)."""
        return encode_journal(*self._records()).encode("utf-8")

    @classmethod
    def from_records_bytes(cls, data: bytes, where: str = "uploaded file") -> "Session":
        """A session from a session file's content (an upload), checked like :meth:`load`; it has
        no file of its own until saved."""
        header, records, _torn, _notes = read_bytes(bytes(data), where)
        return cls._replay(header, records, where)

    @classmethod
    def from_json(cls, data: Any, where: str = "session") -> "Session":
        """A session from :meth:`to_json` data, replayed and checked through the rules."""
        return cls._replay(data, [], where)

    @classmethod
    def _replay(cls, header: Any, records: list[Any], where: str) -> "Session":
        """Rebuild a session from a file's header and records, checking every field and move."""
        def bad(message: str) -> SessionFileError:
            return SessionFileError(f"{where}: {message}")

        if isinstance(header, dict) and header.get("format") == EXPORT_FORMAT:
            raise bad("this is an export for one seat (it leaves out the other seats' secrets), "
                      "not a session: it cannot be replayed; open the session file it came from")
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise bad(f"not a playtest session (a session file starts with \"format\": \"{FORMAT}\")")
        version = header.get("version")
        if type(version) is not int or not 1 <= version <= VERSION:
            raise bad(f"session format version {_shown(version)} is not one this playtest reads (1 to {VERSION})")
        if version == 1:                  # one object: nodes, notes and current inside it
            if records:
                raise bad("a version 1 session is one JSON object, with nothing after it")
            records = _records_of_version_1(header, bad)
        name = header.get("game")
        if type(name) is not str:
            raise bad(f"'game' must be a game's name, not {_shown(name)}")
        try:
            game_cls = game_class(name)
        except ValueError as err:
            raise bad(str(err)[:300]) from None
        params = header.get("params", {})
        if params is None:
            params = {}
        if not isinstance(params, dict):
            raise bad(f"'params' must be an object of parameter values, not {_shown(params)}")
        try:
            game = game_cls(**params)
        except (ValueError, TypeError) as err:
            raise bad(f"bad parameters: {str(err)[:300]}") from None
        seed = header.get("seed")
        if seed is not None and (type(seed) is not int or abs(seed) > 2 ** 63):
            raise bad(f"'seed' must be a whole number or null, not {_shown(seed)}")
        created = header.get("created", "")
        if type(created) is not str or len(created) > 100:
            raise bad("'created' must be a short text (a date)")
        try:
            session = cls(game, seed=seed, start=header.get("start"), auto_chance=False)
        except (ValueError, TypeError, IllegalAction) as err:
            raise bad(f"bad start position: {str(err)[:300]}") from None
        session.created = created or session.created
        current = None
        parse = _ActionCache()
        collecting = gc.isenabled()
        if collecting:       # 10,000 new nodes would set off many full collections, each slower
            gc.disable()
        try:
            for number, record in enumerate(records, start=2):
                if not isinstance(record, dict) or len(record) != 1:
                    raise bad(f"record {number} must be an object with one of 'node', 'note' or 'current'")
                (kind, value), = record.items()
                if kind == "node":
                    current = session._replay_node(value, bad, parse)
                elif kind == "note":
                    session._replay_note(value, bad)
                elif kind == "current":
                    if type(value) is not int or not 0 <= value < len(session._nodes):
                        raise bad(f"'current' must be a position id from 0 to {len(session._nodes) - 1}, "
                                  f"not {_shown(value)}")
                    current = value
                else:
                    raise bad(f"record {number}: unknown record {_shown(kind)} (records are node, note, current)")
        finally:
            if collecting:
                gc.enable()
        session._initial_params = game.params
        session.auto_chance = True
        session._go(current if current is not None else len(session._nodes) - 1)
        return session

    _NODE_KINDS = frozenset({"move", "chance", "params"})
    _NODE_FIELDS = _NODE_KINDS | {"parent", "forced", "by"}

    def _replay_node(self, entry: Any, bad: Callable[[str], SessionFileError],
                     parse: "_ActionCache | None" = None) -> int:
        index = len(self._nodes)
        if index >= LIMITS.max_positions:
            raise bad(f"more than {LIMITS.max_positions:,} positions: more than a session file may hold")
        parent = entry.get("parent") if type(entry) is dict else None
        if type(parent) is not int or not 0 <= parent < index:
            raise bad(f"node {index} has no valid parent (each node names an earlier node)")
        kinds = self._NODE_KINDS.intersection(entry)
        by = entry.get("by")
        if by is not None and (type(by) is not str or len(by) > 100):
            raise bad(f"node {index}: 'by' must be a short name")
        if len(kinds) != 1 or not self._NODE_FIELDS.issuperset(entry):
            raise bad(f"node {index} must have exactly one of 'move', 'chance' or 'params' "
                      f"(and 'parent', 'forced')")
        kind, = kinds
        self._cur = node = self._nodes[parent]
        try:
            if kind == "params":
                if not isinstance(entry["params"], dict):
                    raise ValueError("params must be an object")
                Session.set_params.__wrapped__(self, **entry["params"])   # type: ignore[attr-defined]
            else:
                game, state = node.game, node.state
                if (game.to_move(state) == CHANCE) != (kind == "chance"):
                    raise IllegalAction("a chance result where a player moves, or the reverse")
                forced = entry.get("forced", False)
                if type(forced) is not bool or (forced and kind != "chance"):
                    raise ValueError("'forced' is true or false, and only on a chance result")
                action = parse(game, entry[kind]) if parse is not None else game.action_from_json(entry[kind])
                if kind == "chance":
                    self._play_chance(action, forced=forced, check=True)
                else:     # the rules check every move (apply); the file names no seat to check
                    self._advance("move", action, None, game.apply(state, action), game, None)
            if len(self._nodes) != index + 1:
                raise ValueError(f"it repeats position {self._cur.id}, or changes nothing")
            self._cur.by = " ".join(by.split()) if by is not None else node.by
        except (IllegalAction, ValueError, TypeError) as err:
            shown = _shown(entry.get(kind), 200)
            raise bad(f"node {index} ({kind} {shown} after node {parent}) cannot be replayed: "
                      f"{str(err)[:300]}") from None
        return index

    def _replay_note(self, value: Any, bad: Callable[[str], SessionFileError]) -> None:
        if len(self._notes) >= LIMITS.max_notes:
            raise bad(f"more than {LIMITS.max_notes:,} notes: more than a session file may hold")
        if not isinstance(value, dict) or set(value) - {"node", "text", "time", "author"} or \
                type(value.get("text")) is not str or type(value.get("node")) is not int or \
                not 0 <= value["node"] < len(self._nodes) or len(value["text"]) > LIMITS.max_text or \
                type(value.get("time", "")) is not str or len(value.get("time", "")) > 100 or \
                type(value.get("author", "")) is not str or len(value.get("author", "")) > 100:
            raise bad(f"note {len(self._notes)} must have a 'text' (at most {LIMITS.max_text:,} characters), "
                      "a 'node' id of this session, a short 'time' and a short 'author'")
        node = self._nodes[value["node"]]
        self._notes.append(Note(node.id, node.depth, value["text"], value.get("time", ""),
                                " ".join(value.get("author", "").split())))

    def _go(self, node: int) -> None:
        """Make ``node`` current, remembering the way down so redo from an ancestor follows this line."""
        target = self._nodes[node]
        walk = target
        while walk.parent is not None:
            self._set_redo(walk.parent, walk)
            walk = walk.parent
        self._cur = target

    # ------------------------------------------------------------------ reporting and display
    def report(self, viewer: int | None = None) -> Report:
        """A Markdown summary: parameters, moves in notation, notes at their moves, the result.

        ``viewer`` is who reads it: ``None`` (the table: no seat's secrets) or a
        seat (its own secrets too). Every text from users or files is inert
        Markdown: no links, images or HTML.
        """
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
                text = f"🎲 {esc(node.notation_for(viewer))}"
            else:
                text = f"{node.depth}. {esc(node.notation_for(viewer))}"
            lines.append(f"- {text}")
            for note in notes_by_node.get(node.id, []):
                lines.append(f"  - 📝 {_by(note.author, esc)}{esc(note.text)}")
        other = [n for n in self._notes if n.node not in {b.id for b in back}]
        if other:
            lines += ["", "## Notes on other branches", ""]
            for note in other:
                lines.append(f"- move {note.move} (position {note.node}): {_by(note.author, esc)}{esc(note.text)}")
        lines += self._report_by_author(viewer)
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

    def _report_by_author(self, viewer: int | None) -> list[str]:
        """Each author's lines of play and notes, when several people played (a merged session)."""
        authors = sorted({n.by for n in self._nodes[1:] if n.by} | {n.author for n in self._notes if n.author})
        if len(authors) < 2:
            return []
        esc = _md_escape
        out = ["", "## By author", ""]
        leaves = [b for b in self.branches()]
        for author in authors:
            out.append(f"### {esc(author)}")
            out.append("")
            mine = [b for b in leaves if self._nodes[b.leaf].by == author]
            for branch in mine:
                leaf = self._nodes[branch.leaf]
                last = leaf.notation_for(viewer) if leaf.action is not None else "start"
                out.append(f"- line to move {branch.moves} (position {branch.leaf}), "
                           f"last: {esc(last)}")
            for note in (n for n in self._notes if n.author == author):
                out.append(f"- 📝 move {note.move} (position {note.node}): {esc(note.text)}")
            if not mine and not any(n.author == author for n in self._notes):
                out.append("- nothing of their own")
            out.append("")
        return out

    def table(self, bots: dict | None = None) -> Any:
        """The interactive table widget for this session: one, cached; ``bots`` seats bots at it.

        Build more with ``playtest.Table(session, ...)`` (a table per seat, say);
        ``table.close()`` stops one from following the session.
        """
        from .widgets.table import Table
        existing = getattr(self, "_table", None)
        if existing is None:
            existing = self._table = Table(self, bots=bots)
        elif bots is not None:
            existing.set_bots(bots)
        return existing

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> Any:
        return self.table()._repr_mimebundle_(include=include, exclude=exclude)

    def __repr__(self) -> str:
        where = "over" if self.is_over else self.game.describe_state(self.state)
        return (f"<Session {self.game.name}: move {self.move_number}, {where}, "
                f"{len(self._nodes)} positions, {len(self._notes)} notes>")


#: sessions opened with Session.open in this kernel, by file: Run All returns the same one
_OPEN: "weakref.WeakValueDictionary[str, Session]" = weakref.WeakValueDictionary()


def _key(path: Path) -> str:
    try:
        return str(path.resolve())
    except OSError:
        return str(path)


def _by(author: str, esc: Callable[[str], str]) -> str:
    return f"**{esc(author)}**: " if author else ""


def _default_author() -> str:
    """The designer's name for notes: $PLAYTEST_AUTHOR, else the login name, else "designer"."""
    name = os.environ.get("PLAYTEST_AUTHOR", "").strip()
    if not name:
        try:
            import getpass
            name = getpass.getuser()
        except Exception:   # no login name in some containers
            name = ""
    return _check_author(name or "designer")


def _check_author(name: Any) -> str:
    if not isinstance(name, str):
        raise TypeError(f"an author is a name (text), not {type(name).__name__}")
    name = " ".join(name.split())
    if len(name) > 100:
        raise ValueError("an author's name holds at most 100 characters")
    return name


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def _shown(value: Any, limit: int = 60) -> str:
    """A value read from a file, for an error message, cut short (never echo a huge input)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _records_of_version_1(data: dict, bad: Callable[[str], SessionFileError]) -> list[Any]:
    nodes, notes = data.get("nodes", []), data.get("notes", [])
    if not isinstance(nodes, list):
        raise bad("'nodes' must be a list")
    if not isinstance(notes, list):
        raise bad("'notes' must be a list")
    records: list[Any] = [{"node": entry} for entry in nodes]
    records += [{"note": note} for note in notes]
    if "current" in data:
        records.append({"current": data["current"]})
    return records


def _jsonable(values: dict[str, Any]) -> dict[str, Any]:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in values.items()}


# Markdown syntax that could make text live: emphasis, code, links and images ([ ] !), tables (|),
# headings (#), autolinks (the : of a scheme, the . of www.), maths ($); HTML is escaped first.
_MD_SPECIAL = {c: "\\" + c for c in "\\`*_[]!#|~:.$"}


def _md_escape(text: str) -> str:
    """User or file text for Markdown, inert: HTML shows as text, and no link, image,
    autolink, emphasis or table syntax survives; line breaks become spaces.

    >>> print(_md_escape("[x](javascript:alert(1)) ![](http://a.b/c) <b>hi</b>"))
    \\[x\\](javascript\\:alert(1)) \\!\\[\\](http\\://a\\.b/c) &lt;b&gt;hi&lt;/b&gt;
    """
    return "".join(_MD_SPECIAL.get(c, c) for c in html.escape(" ".join(text.split()), quote=False))

