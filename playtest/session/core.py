"""The Session class: the position, playing, the tree, notes, parameters and observers.

Files are in :mod:`.files` and reports in :mod:`.report`; the class joins them.
"""

from __future__ import annotations

import functools
import json
import math
import os
import random
import time
from pathlib import Path
from typing import Any, Callable

from ..journal import LIMITS, Journal
from ..rules import (CHANCE, SIMULTANEOUS, Action, Game, IllegalAction, MalformedAction, Outcome, UncountedChance,
                     check_action_types, draw_outcome, load, show_value)
from ..kernel.game import said
from .events import SessionEvents
from .files import SessionFiles, _same_file, seed_problem
from .report import SessionReports
from .feedback import FeedbackForm
from .records import BadStart, bot_record, has_control
from .tree import Branch, Note, _child_key, _Node, _now, utc_text

AnyGame = Game[Any, Any, Any]

#: ``_child``'s default for ``t``: stamp the node with the time now
_NOW = object()

def _transaction(method: Callable[..., Any]) -> Callable[..., Any]:
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
        snapshot = (self._cur, len(self._nodes), len(self._notes), len(self._events))
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


class Session(SessionFiles, SessionReports, SessionEvents):
    """A playtest of ``game``: play, undo, redo, branch, note, tweak parameters, save.

    ``game`` is a game object or a game name. ``seed`` seeds chance steps
    (recorded, so replays never depend on it). With ``path`` every change is
    written to that file before the call returns. ``start`` is a position (a
    state or its JSON form) to start from instead of the usual set-up.

    Every move, note, refused attempt and feedback is stamped with the time it
    was made, in seconds from the session's start (:attr:`started`, UTC):
    ``clock`` is where the time comes from (seconds since 1970, UTC;
    ``time.time`` by default; a recording script or a test may pass its own).
    """

    def __init__(self, game: AnyGame | str, seed: int | None = None, path: str | os.PathLike[str] | None = None,
                 start: Any = None, *, auto_chance: bool = True, clock: Callable[[], float] | None = None):
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
        elif start is not None and game.state_type is not None and isinstance(start, game.state_type):
            # a position made in Python is held to what a file's would be: its fields' declarations
            # (lengths included, read for this game) and the game's check_state
            game.state_from_json(json.loads(json.dumps(start.to_json())))
        if start is not None:
            _readable_start(game, start)
        if clock is not None and not callable(clock):
            raise TypeError("clock is a function returning the time in seconds since 1970 (like time.time)")
        #: where times come from: seconds since 1970, UTC
        self.clock: Callable[[], float] = clock if clock is not None else time.time
        #: when the session started (seconds since 1970, UTC; None for a file written before times were kept)
        self.started: float | None = round(float(self.clock()), 3)
        self.seed = seed
        self._rng = random.Random(seed)
        self.auto_chance = auto_chance
        self._initial_params = game.params
        self._start = start
        state = start if start is not None else game.initial_state()
        root = _Node(0, None, "root", None, None, state, game, "start")
        root.t = 0.0                # the start: every time is seconds from it
        self._nodes: list[_Node] = [root]
        self._cur = root
        self._notes: list[Note] = []
        #: refusals, curtain lifts, seatings, feedback forms and answers: the file's records, in order
        self._events: list[dict[str, Any]] = []
        self._players: list[dict[str, Any]] | None = None    # who plays each seat (the last seating)
        self._form: FeedbackForm | None = None
        self._acting_bot: str | None = None      # the bot choosing the move being played now
        self._stamping = True                    # False while a file is replayed: its times are read
        self._rewrite = False                    # the next save rewrites the whole file (times changed)
        self._horizon: float | None = None       # while a file is read: the latest time it may hold
        self._listeners: list[Callable[["Session"], None]] = []
        self._games: dict[Any, AnyGame] = {game.params: game}   # one game object per parameter set
        self._table: Any = None
        self._memo: dict[Any, Any] = {}
        #: what a change did, to undo it if it fails: (node, its redo before) or a function putting a value back
        self._undo_log: list[Any] | None = None
        self.created = utc_text(self.started)
        self.path: Path | None = None
        self._journal: Journal | None = None
        self._written = (0, 0, 0, 0)     # nodes, notes, events, current: what the file holds
        #: what opening the file repaired (a change cut off by a crash), in words
        self.load_warnings: list[str] = []
        self._file_repair: Any = None     # what loading found to mend in the file, done at the first write
        self._author = _default_author()
        self._resolve_chance_steps()
        if path is not None:
            path = Path(path)
            if path.exists():
                raise FileExistsError(f"{path} already exists: resume it with playtest.Session.open("
                                      f"{str(path)!r}, ...) or playtest.Session.load, or choose another path")
            self._attach(path)

    # ------------------------------------------------------------------ the position
    @property
    def author(self) -> str:
        """Who plays and writes the notes from now on (a tester's name); the designer's by default
        ($PLAYTEST_AUTHOR, else "designer": never the machine's login name). Set it to a name of at
        most 100 characters without control characters (``ValueError`` otherwise: the file could not
        be read back)."""
        return self._author

    @author.setter
    def author(self, name: str) -> None:
        self._author = _check_author(name)

    @property
    def game(self) -> AnyGame:
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
    def _game_over(self) -> IllegalAction:
        outcome = self.game.outcome(self.state)
        return IllegalAction(f"the game is over ({outcome.reason if outcome else 'finished'}); "
                             "undo or jump back in the history to play on")

    @_transaction
    def play(self, action: Action | dict[str, Any] | str, seat: int | None = None) -> None:
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
        # a malformed message is named as such first, even after the game is over
        try:
            action = self._parse_action(action, seat)
        except MalformedAction:
            raise
        except IllegalAction:
            if mover is None:
                raise self._game_over() from None
            raise
        except (ValueError, TypeError, RecursionError) as err:   # not an action of this game at all
            raise MalformedAction(str(err)[:300] if not isinstance(err, RecursionError)
                                  else "malformed action: nested too deeply") from None
        check_action_types(action)
        if not isinstance(action, game.action_types):
            kinds = ", ".join(t.__name__ for t in game.action_types)[:200]
            raise MalformedAction(f"{type(action).__name__} is not an action of {game.name} (its action_types: "
                                  f"{kinds})")
        if mover is None:
            raise self._game_over()
        if mover == CHANCE:
            if seat is not None:
                raise IllegalAction(f"chance is to move, not {self._seat_name(seat)}: roll or force the outcome")
            self._play_chance(action, forced=True)
        else:
            actor = game.seat_of(state, action)
            if mover == SIMULTANEOUS and actor is None:
                raise IllegalAction(game._unseated(action))
            if seat is not None and actor != seat:
                if mover == SIMULTANEOUS:
                    raise IllegalAction(f"this is {self._seat_name(actor)}'s order; this table plays for "
                                        f"{self._seat_name(seat)}")
                raise IllegalAction(f"it is {self._seat_name(mover)}'s turn, not {self._seat_name(seat)}'s")
            new_state = game.apply(state, action)
            self._advance("move", action, None, new_state, game, None)
        self._resolve_chance_steps()

    def _seat_name(self, seat: int | None) -> str:
        seats = self.game.seats()
        return seats[seat].name if isinstance(seat, int) and 0 <= seat < len(seats) else f"seat {seat!r}"

    def _parse_action(self, action: Action | dict[str, Any] | str, seat: int | None = None) -> Action:
        game = self.game
        if isinstance(action, dict):
            parsed: Action = game.action_from_json(action)
            return parsed
        if isinstance(action, str):
            text = action.strip()
            try:
                matches = [c for c in self.legal_actions(seat)
                           if text in (str(c), game.notation(self.state, c, seat))]
            except Exception as exc:     # the game's own code, not the text: never "malformed action: ..."
                raise RuntimeError(f"{game.name}'s own code raised {type(exc).__name__}: {str(exc)[:200]} while "
                                   f"listing the legal actions (candidates, why_not) and their notation, to read "
                                   f"{text[:80]!r}: the rules have a bug here; the session is unchanged") from exc
            if len(matches) == 1:
                return matches[0]
            if matches:       # never pick one silently
                raise IllegalAction(f"{text[:200]!r} could be any of {len(matches)} actions here; "
                                    "play the action or its JSON form instead")
            refused = self._refused_candidate(text, seat)
            if refused is not None:
                raise IllegalAction(f"{text[:200]!r}: {refused.text}", rule=refused.rule)
            raise IllegalAction(f"{text[:200]!r} is not the notation of a legal action here: "
                                f"{self._notation_hint(seat)}")
        if isinstance(action, Action):
            return action
        raise MalformedAction(f"play() takes an action, its JSON form or its notation, not {type(action).__name__}")

    def _refused_candidate(self, text: str, seat: int | None) -> Any:
        """The game's refusal of the one candidate (not legal now) written ``text``, else ``None``.

        So ``play("hold")`` with nothing to hold answers with the rule that refuses it, not only with
        the list of what is legal. Only the seat's own candidates are read (nothing it may not know),
        and a game whose notation or check fails on a candidate simply gets the generic answer.
        """
        mover = self.to_move
        who = seat if seat is not None else mover
        if not isinstance(who, int) or isinstance(who, bool) or who < 0:
            return None
        game, state = self.game, self.state
        try:
            found = [c for c in game.candidates(state, who)
                     if text in (str(c), game.notation(state, c, who))]
            if len(found) != 1:
                return None
            return game.check(state, found[0], who)
        except Exception:       # a rule written for legal actions only: keep the generic answer
            return None

    def _notation_hint(self, seat: int | None) -> str:
        """What may be played here, in words, for a notation that matched nothing."""
        mover = self.to_move
        if mover == CHANCE:
            return "chance is to move: roll, or force one of its outcomes"
        legal = self.legal_actions(seat)
        if not legal:
            return f"{self._seat_name(seat)} has nothing to do now" if seat is not None else "nothing can be played"
        if seat is None and mover == SIMULTANEOUS:
            # the table's words hide every order ("North gives an order"): from Python, without a
            # seat, name each order as it is typed (session.legal_actions() lists them so too)
            words = [f"{a} ({self._seat_name(self.game.seat_of(self.state, a))})" for a in legal]
        else:
            words = [self.game.notation(self.state, a, seat) for a in legal]
        shown = ", ".join(repr(w) for w in words[:6])
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
        self._acting_bot = bot_record(self.game, bot)["bot"]
        try:
            self.play(action, seat=seat)
        finally:
            self._acting_bot = None
        chosen: Action = action
        return chosen

    @_transaction
    def roll(self) -> Action:
        """Resolve the chance step to move now by drawing from its distribution (the session's seed)."""
        if self.to_move != CHANCE:
            raise IllegalAction("chance is not to move here: there is nothing to roll")
        outcome = draw_outcome(self.game.chance_outcomes(self.state), self._rng)
        self._play_chance(outcome, forced=False)
        self._resolve_chance_steps()
        drawn: Action = outcome
        return drawn

    def force(self, outcome: Action | dict[str, Any] | str) -> None:
        """Resolve the chance step to move now with ``outcome`` ("the next roll is a 6").

        The outcome is checked against :meth:`chance_outcomes` (an impossible one
        raises :class:`IllegalAction`) and marked as forced in the history, the
        report and the file. To force a roll that was already drawn, undo first:
        undo stops before every chance step.
        """
        if self.to_move != CHANCE:
            raise IllegalAction("chance is not to move here: undo to before the roll to force it")
        self.play(outcome)

    def resolve_chance(self, outcome: Action | dict[str, Any] | None = None) -> None:
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
        try:            # the one decision (older games: their own why_not(state, action))
            why = game.check(state, outcome) if hasattr(game, "check") else \
                game.why_not(state, outcome)  # type: ignore[call-arg]
        except Exception:
            why = None
        if why is not None and str(why).endswith("cannot happen here"):
            why = None                                      # the kernel's words: no more than below
        reason = f"this cannot happen here: {why}" if why else \
            f"{said(outcome, 200)!r} cannot happen here"     # (its own words: who forced it wrote it)
        possible = [o for o, p in outcomes if p > 0]
        shown = list(dict.fromkeys(game.notation(state, o, None) for o in possible))
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

    def _advance(self, kind: str, action: Action | None, changes: dict[str, Any] | None, state: Any, game: AnyGame,
                 notation: str | None, forced: bool = False) -> None:
        parent = self._cur
        child = self._child(parent, kind, action, changes, state, game, notation, forced, self.author)
        self._set_redo(parent, child)
        self._cur = child

    def _child(self, parent: _Node, kind: str, action: Action | None, changes: dict[str, Any] | None, state: Any,
               game: AnyGame, notation: str | None, forced: bool, by: str, t: Any = _NOW) -> _Node:
        """The child of ``parent`` that this step leads to: the one already there, or a new one.

        A new one is stamped with the time now (or ``t``), and with the bot or person playing it."""
        key = _child_key(kind, action, changes, forced)
        child = parent.index.get(key)
        if child is None:
            child = _Node(len(self._nodes), parent, kind, action, changes, state, game, notation, forced)
            child.by = by
            child.t = (self._stamp(parent.t) if self._stamping else None) if t is _NOW else t
            if t is _NOW and kind == "move" and self._stamping:
                child.bot = self._acting_bot
                if child.bot is None:
                    child.player = self._person_playing(game, parent.state, action)
            self._nodes.append(child)
            parent.children.append(child)
            parent.index[key] = child
        return child

    # ------------------------------------------------------------------ times
    def _stamp(self, floor: float | None = None) -> float | None:
        """The time now in seconds from :attr:`started` (never before ``floor``, the time of what it
        follows: a clock set back does not put a move before its position); None while replaying."""
        if not self._stamping:
            return None
        now = self.clock()
        if type(now) not in (int, float) or not math.isfinite(now):
            raise TypeError(f"the session's clock returned {now!r}, not seconds since 1970")
        if self.started is None:          # a file written before times were kept: they start now
            self.started = round(float(now), 3)
            self._rewrite = True
        t = max(0.0, round(float(now) - self.started, 3))
        return t if floor is None or t >= floor else floor

    def time_of(self, node: int) -> str | None:
        """When position ``node`` was made, as UTC text (None when the file did not keep it).

        >>> import playtest
        >>> session = playtest.Session("eat_thyself", clock=lambda: 0.0)
        >>> session.play(session.legal_actions()[0])
        >>> session.time_of(1)
        '1970-01-01T00:00:00.000Z'
        """
        t = self._nodes[node].t
        return None if t is None or self.started is None else utc_text(self.started + t)

    def _person_playing(self, game: AnyGame, state: Any, action: Action | None) -> str | None:
        """The person seated at the seat playing ``action`` when the seating names one other than
        :attr:`author` (None: the author)."""
        if not self._players or action is None:
            return None
        try:
            seat = game.seat_of(state, action)
        except Exception:     # noqa: BLE001  (only a label: never let it stop a move)
            return None
        if seat is None or not 0 <= seat < len(self._players):
            return None
        name = self._players[seat].get("person")
        return name if name and name != self.author else None

    def _set_redo(self, node: _Node, child: _Node | None) -> None:
        if self._undo_log is not None and node.redo is not child:
            self._undo_log.append((node, node.redo))
        node.redo = child

    def _rollback(self, snapshot: tuple[Any, ...]) -> None:
        """Put the tree back as it was before a change that failed (see :func:`_transaction`)."""
        cur, nodes, notes, events = snapshot
        for entry in reversed(self._undo_log or []):
            if callable(entry):          # a time or a seating put back (a merge that failed)
                entry()
            else:
                node, redo = entry
                node.redo = redo
        for node in reversed(self._nodes[nodes:]):
            parent = node.parent
            parent.children.remove(node)   # type: ignore[union-attr]
            parent.index.pop(_child_key(node.kind, node.action, node.changes, node.forced), None)  # type: ignore
        del self._nodes[nodes:]
        del self._notes[notes:]
        del self._events[events:]
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

    def playback(self, viewer: int | None = None) -> list[dict[str, Any]]:
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
        t = self._stamp(self._cur.t)
        stamp = utc_text(self.started + t) if t is not None and self.started is not None else _now()
        note = Note(self._cur.id, self._cur.depth, text, stamp, author, t)
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
    def merge(self, other: "Session | str | os.PathLike[str]") -> dict[str, int]:
        """Join another session of the same game and start into this one (a tester's, say).

        Every line of play of ``other`` joins this tree: lines both sessions
        played are shared, not duplicated, and a line that differs (other moves,
        other chance results, another parameter history) becomes a branch of
        its own. Every note of ``other`` comes along at its position, with its
        author; a note already here is not added twice; so do its refused
        attempts, curtain lifts and feedback. ``other`` (a session or a session
        file's path) is never changed. Returns what was added:
        ``{"positions": ..., "notes": ...}``.

        Times stay true: the merged session starts at the earlier of the two
        starts, and a position both played keeps the earlier of its two times
        (so a position is never made after the positions that follow it).

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
        offset = self._merge_clock(other)
        where = {0: 0}
        for node in other._nodes[1:]:
            t = None if node.t is None or offset is None else round(node.t + offset, 3)
            count = len(self._nodes)
            known = self._child(self._nodes[where[node.parent.id]], node.kind, node.action,  # type: ignore
                                node.changes, node.state, self._games.setdefault(node.game.params, node.game),
                                node.notation, node.forced, node.by or other.author, t=t)
            if len(self._nodes) > count:
                known.bot, known.player = node.bot, node.player
            elif t is not None and (known.t is None or t < known.t):
                self._retime(known, t)           # played in both: the earlier time
            where[node.id] = known.id
        present = {(n.node, n.text, n.author) for n in self._notes}
        for note in other._notes:
            node = self._nodes[where[note.node]]
            if (node.id, note.text, note.author) not in present:
                t = None if note.t is None or offset is None else max(round(note.t + offset, 3), node.t or 0.0)
                self._notes.append(Note(node.id, node.depth, note.text, note.time, note.author, t))
                present.add((node.id, note.text, note.author))
        self._merge_events(other, where, offset)
        return {"positions": len(self._nodes) - before_nodes, "notes": len(self._notes) - before_notes}

    def _merge_clock(self, other: "Session") -> float | None:
        """Put this session's clock at the earlier of the two starts; returns what to add to ``other``'s
        times (None when either does not know its times)."""
        if other.started is None:
            return None
        if self.started is None or other.started < self.started:
            shift = 0.0 if self.started is None else round(self.started - other.started, 3)
            before = self.started
            self._undo_log.append(lambda: setattr(self, "started", before))   # type: ignore[union-attr]
            self.started = other.started
            self._nodes[0].t = 0.0
            if shift:
                for node in self._nodes[1:]:
                    if node.t is not None:
                        self._retime(node, round(node.t + shift, 3))
                old_notes = list(self._notes)
                self._notes[:] = [n if n.t is None else Note(n.node, n.move, n.text, n.time, n.author,
                                                             round(n.t + shift, 3)) for n in self._notes]
                self._undo_log.append(lambda: self._notes.__setitem__(slice(None), old_notes))  # type: ignore
                old_events = [dict(next(iter(e.values()))) for e in self._events]
                for record in self._events:
                    payload = next(iter(record.values()))
                    if "t" in payload:
                        payload["t"] = round(payload["t"] + shift, 3)

                def put_back() -> None:
                    for record, old in zip(self._events, old_events):
                        payload = next(iter(record.values()))
                        payload.clear()
                        payload.update(old)
                self._undo_log.append(put_back)     # type: ignore[union-attr]
            self._rewrite = True
        return round(other.started - self.started, 3)

    def _retime(self, node: _Node, t: float) -> None:
        """Give ``node`` the time ``t`` (its line in the file is written anew; undone if the change fails)."""
        old, line = node.t, node.line

        def put_back() -> None:
            node.t, node.line = old, line
        self._undo_log.append(put_back)     # type: ignore[union-attr]
        node.t, node.line = t, None
        self._rewrite = True

    def _merge_events(self, other: "Session", where: dict[int, int], offset: float | None) -> None:
        """``other``'s refusals, curtain lifts and feedback, at their positions here (each once)."""
        import json
        present = {json.dumps(record, sort_keys=True) for record in self._events}
        for record in other._events:
            (kind, payload), = record.items()
            if kind not in ("refusal", "reveal", "feedback"):
                continue                 # a seating and a form belong to the other session's table
            moved = dict(payload)
            moved["node"] = where[payload["node"]]
            node = self._nodes[moved["node"]]
            if "t" in moved:
                if offset is None:
                    del moved["t"]
                else:
                    moved["t"] = max(round(moved["t"] + offset, 3), node.t or 0.0)
            if kind == "refusal" and "author" not in moved and other.author:
                moved["author"] = other.author
            key = json.dumps({kind: moved}, sort_keys=True)
            if key not in present:
                self._events.append({kind: moved})
                present.add(key)

    @_transaction
    def set_params(self, **changes: Any) -> None:
        """Change rule parameters at the current position.

        ``live`` parameters apply from here on; changing a ``setup`` parameter
        starts a new game with the new values. Either way the change is a step
        in the tree, so undo reverts it. Bad names or values raise ``ValueError``.
        """
        self._set_params(changes, self.game.params.replace(**changes))

    def _set_params(self, changes: dict[str, Any], new_params: Any, share: Any = None, replay: bool = False) -> None:
        """:meth:`set_params` once ``changes`` are validated into ``new_params`` (a file's replay
        passes the :class:`~playtest.session.files.ReplayShare` of its batch, if any, and ``replay``:
        it keeps what was played, so a file written before a check loads as it was written)."""
        game = self.game
        changed = {k: getattr(new_params, k) for k in changes if getattr(new_params, k) != getattr(game.params, k)}
        if not changed:
            return
        new_game = self._games.get(new_params)
        if new_game is None:
            new_game = self._games[new_params] = type(game)(new_params) if share is None \
                else share.game_for(game, new_params)
        setup = [k for k in changed if not new_params.spec(k).live]
        if setup:
            state = new_game.initial_state() if share is None else share.initial_state(new_game)
            notation = "new game: " + ", ".join(f"{k}={show_value(v)}" for k, v in changed.items())
        else:
            state = new_game.adapt_state(self.state, game)
            notation = "set " + ", ".join(f"{k}={show_value(v)}" for k, v in changed.items())
            if not replay:
                _fits_new_params(new_game, state, notation)
        self._advance("params", None, _jsonable(changed), state, new_game, notation)
        self._resolve_chance_steps()

    def is_new_game(self, node: int | None = None) -> bool:
        """Whether the position ``node`` (default: current) began a new game by a setup change."""
        n = self._nodes[self._cur.id if node is None else node]
        return n.kind == "params" and (n.notation or "").startswith("new game")

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

    def table(self, bots: dict[int, Any] | None = None) -> Any:
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
        positions, notes = len(self._nodes), len(self._notes)
        return (f"<Session {self.game.name}: move {self.move_number}, {where}, "
                f"{positions} position{'s' * (positions != 1)}, {notes} note{'s' * (notes != 1)}>")


def _fits_new_params(game: Game[Any, Any, Any], state: Any, change: str) -> None:
    """Refuse a live parameter change that leaves a position the game's own declarations or
    ``check_state`` refuse under the new values (a turn that has taken more than the new limit, a
    board of the old size): play would go on from a position the rules cannot reach. Only a
    declared game's position is read back (one written the older way reads its own JSON)."""
    if game.state_type is None or not isinstance(state, game.state_type):
        return
    try:
        game.state_from_json(json.loads(json.dumps(state.to_json())))
    except ValueError as err:
        raise ValueError(f"{change} is refused at this position: under the new parameters the position is one "
                         f"the game refuses ({str(err)[:300]}). Change it at another position, or write the game's "
                         f"adapt_state(state, old_game) to carry a position over a live change "
                         f"(docs/adding_a_game.md, section 11)") from None


def _readable_start(game: Game[Any, Any, Any], start: Any) -> None:
    """Refuse a start position the game's rules raise on (a list shorter than the board, say),
    naming the error, before a session is built on it: not an ``IndexError`` at the first call."""
    try:
        mover = game.to_move(start)
        if mover is not None and mover != CHANCE:
            game.legal_actions(start)
    except (ValueError, TypeError, IllegalAction):
        raise
    except Exception as err:       # noqa: BLE001 (the game's own code, on a hand-written position)
        raise BadStart(f"bad start position: the game raised {type(err).__name__}: {str(err)[:200]} (a "
                       f"position its rules cannot read; the game's check_state may refuse it by name)") from err


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
    text: str = " ".join(name.split())
    if len(text) > 100:
        raise ValueError("an author's name holds at most 100 characters")
    if has_control(text):
        raise ValueError("an author's name holds no control characters (a NUL, a terminal escape, a right-to-left "
                         "override...)")
    return text


def _jsonable(values: dict[str, Any]) -> dict[str, Any]:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in values.items()}
