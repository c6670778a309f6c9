"""The Session class: the position, playing, the tree, notes, parameters and observers.

Files are in :mod:`.files` and reports in :mod:`.report`; the class joins them.
"""

from __future__ import annotations

import functools
import os
import random
from pathlib import Path
from typing import Any, Callable

from ..journal import LIMITS, Journal
from ..rules import (CHANCE, SIMULTANEOUS, Action, Game, IllegalAction, MalformedAction, Outcome, UncountedChance,
                     check_action_types, draw_outcome, load, show_value)
from .files import SessionFiles, _same_file, seed_problem
from .report import SessionReports
from .tree import Branch, Note, _child_key, _Node, _now

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


class Session(SessionFiles, SessionReports):
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
        if seed is not None and type(seed) is not bool and type(seed) is not int and hasattr(seed, "__index__"):
            seed = int(seed.__index__())         # a numpy integer, say
        problem = seed_problem(seed)
        if problem is not None:        # what the loader would refuse is never written to a file
            raise (TypeError if type(seed) is not int else ValueError)(problem)
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
        self._file_repair: Any = None     # what loading found to mend in the file, done at the first write
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
        _check_seat_type(seat)
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
        _check_seat_type(seat)
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
        from ..bots import choose_for
        _check_seat_type(seat)
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
                raise IllegalAction(self._impossible_outcome(state, outcome, outcomes))
        new_state = game.apply(state, outcome, check=forced if check is None else check)
        self._advance("chance", outcome, None, new_state, game, None, forced)

    def _impossible_outcome(self, state: Any, outcome: Action, outcomes: list[tuple[Action, float]]) -> str:
        """Why a forced chance result cannot happen here, in the game's words: its own reason (what is
        pending), then the possible outcomes, each written once (hidden ones read alike: say how many)."""
        game = self.game
        why = game.why_not(state, outcome)
        reason = f"this cannot happen here: {why}" if why else \
            f"{game.notation(state, outcome)[:200]!r} cannot happen here"
        possible = [o for o, p in outcomes if p > 0]
        shown = list(dict.fromkeys(game.notation(state, o) for o in possible))
        text = f"{reason}; the possible outcomes are: {', '.join(shown)[:500]}"
        if len(shown) < len(possible):
            text += f" ({len(possible)} outcomes in all, some alike in words: session.chance_outcomes() lists each)"
        return text

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
        # where each node's line leaves the current line: (the fork, the first step after it),
        # found once per node (each walk stops at a node already placed): linear in the tree
        placed: dict[int, tuple[_Node, _Node]] = {}
        result = []
        for leaf in self._nodes:
            if leaf.children:
                continue
            path = []
            node = leaf
            while node.id not in current and node.id not in placed and node.parent is not None:
                path.append(node)
                node = node.parent
            if node.id in current or node.parent is None:
                fork, first = node, (path[-1] if path else self._nodes[0])
            else:
                fork, first = placed[node.id]
            for step in path:
                placed[step.id] = (fork, first)
            result.append(Branch(leaf=leaf.id, fork=fork.id, fork_move=fork.depth, moves=leaf.depth,
                                 first=first.notation_for(None), current=leaf.id in current))
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
        if not isinstance(other, Session):        # read only: the other file is never written
            other = Session.read(other) if not _same_file(Path(other), self.path or Path("")) else self
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

    def _go(self, node: int) -> None:
        """Make ``node`` current, remembering the way down so redo from an ancestor follows this line."""
        target = self._nodes[node]
        walk = target
        while walk.parent is not None:
            self._set_redo(walk.parent, walk)
            walk = walk.parent
        self._cur = target

    def table(self, bots: dict | None = None) -> Any:
        """The interactive table widget for this session: one, cached; ``bots`` seats bots at it.

        Build more with ``playtest.Table(session, ...)`` (a table per seat, say);
        ``table.close()`` stops one from following the session.
        """
        from ..widgets.table import Table
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


def _default_author() -> str:
    """The designer's name for notes: $PLAYTEST_AUTHOR, else "designer".

    Never the machine's login name: a session file travels (to testers, to a
    repository), and it carries no OS login and no machine path.
    """
    name = os.environ.get("PLAYTEST_AUTHOR", "").strip()
    return _check_author(name or "designer")


def _check_seat_type(seat: Any) -> None:
    """A seat is a whole number (or ``None``): ``True`` or ``1.0`` is refused, not taken for seat 1."""
    if seat is not None and type(seat) is not int:
        raise MalformedAction(f"a seat is a whole number (0 for the first seat), not {type(seat).__name__} "
                              f"{str(seat)[:40]}")


def _check_author(name: Any) -> str:
    if not isinstance(name, str):
        raise TypeError(f"an author is a name (text), not {type(name).__name__}")
    name = " ".join(name.split())
    if len(name) > 100:
        raise ValueError("an author's name holds at most 100 characters")
    return name


def _jsonable(values: dict[str, Any]) -> dict[str, Any]:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in values.items()}
