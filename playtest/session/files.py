"""Session files: saving, compacting, autosaving (the journal), and loading with every move replayed.

The :class:`SessionFiles` part of :class:`playtest.Session`. A file from a
stranger (a tester) is input from a stranger: loading is bounded (the
journal's limits), every field is checked exactly, and every move goes through
the rules, so a refused file names the record and the reason. Files this kit
wrote load fast all the same: each distinct action is parsed once, no garbage
collection runs mid-load, and a save reuses each node's encoded line.
"""

from __future__ import annotations

import gc
import json
import os
import time
import warnings
import weakref
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, cast

from ..journal import (EXPORT_FORMAT, FORMAT, LIMITS, TORN_NOTE, VERSION, Journal, SessionFileError,
                       SessionSaveError, encode_journal, encode_record, read_bytes, read_file,
                       remove_stale_temporaries, write_atomically)
from ..kernel.values import show_value
from ..rules import CHANCE, Action, Game, IllegalAction, game_class
from .records import BadStart, check_event, check_time, has_control
from .tree import Note, _Node, _now, parse_utc, utc_text

if TYPE_CHECKING:
    from .core import Session

AnyGame = Game[Any, Any, Any]


#: the records of what happens at a table besides moves (see :mod:`.records`)
_EVENT_KINDS = ("refusal", "reveal", "players", "form", "feedback")
#: a session's time cannot lie before this (seconds since 1970: the year 2000), nor more than a day ahead
_EARLIEST = 946_684_800.0
FUTURE_SLACK = 86_400.0


class SessionFileWarning(UserWarning):
    """Something in a session file is mended on opening (a change cut off by a crash)."""


def seed_problem(seed: Any) -> str | None:
    """Why ``seed`` cannot be a session's seed (the file records it, and the loader checks it), or ``None``.

    >>> seed_problem(7) is None, seed_problem(None) is None
    (True, True)
    >>> print(seed_problem(1.5))
    'seed' must be a whole number (at most 2**63 either way) or null, not 1.5
    """
    if seed is not None and (type(seed) is not int or abs(seed) > 2 ** 63):
        return f"'seed' must be a whole number (at most 2**63 either way) or null, not {_shown(seed)}"
    return None


class _ActionCache:
    """Actions read from a file, parsed once per distinct JSON form (a long session repeats them).

    Actions are immutable values, so one object can stand for every repeat.
    The key keeps each value's type, so ``true`` is never taken for ``1``: it is the game's id,
    then the names, the values and their types, in one flat tuple (its length says how many
    fields there are).

    >>> import playtest
    >>> game, parse = playtest.load("eat_thyself"), _ActionCache()
    >>> parse(game, {"kind": "take", "slot": 1}) is parse(game, {"kind": "take", "slot": 1})
    True
    >>> parse(game, {"kind": "take", "slot": True})
    Traceback (most recent call last):
    ...
    playtest.rules.MalformedAction: malformed take action: slot must be a whole number, not bool
    """

    __slots__ = ("_seen", "_games")

    def __init__(self) -> None:
        self._seen: dict[tuple[Any, ...], Action] = {}
        self._games: dict[int, AnyGame] = {}        # the games keyed by id: kept, so no id is reused

    def __call__(self, game: AnyGame, data: Any) -> Action:
        if type(data) is not dict:
            parsed: Action = game.action_from_json(data)
            return parsed
        key = (id(game), *data, *data.values(), *map(type, data.values()))
        try:
            action = self._seen.get(key)
        except TypeError:                      # a list inside: parse it as it is
            listed: Action = game.action_from_json(data)
            return listed
        if action is None:
            action = self._seen[key] = game.action_from_json(data)
            self._games[id(game)] = game
        return action


class ReplayShare:
    """What replaying many session files at once shares (``playtest.playtests`` reading a folder).

    Game objects are values (rules with their parameters; nothing in one belongs to a session),
    so files with the same game and parameters replay with one game object: its set-up is
    checked and built once. Parameter changes are validated once per distinct change from
    one parameter set, and actions parsed once per distinct JSON form. Every move of every
    file still goes through the rules; only pure, repeated work is done once. A share is
    for one batch of reading: it keeps what it made until it is dropped.

    >>> import playtest
    >>> share = ReplayShare()
    >>> a = playtest.Session._replay(playtest.Session("eat_thyself").to_json(), [], "a", share)
    >>> b = playtest.Session._replay(playtest.Session("eat_thyself").to_json(), [], "b", share)
    >>> a.game is b.game
    True
    """

    __slots__ = ("_games", "_by_params", "_replaced", "_starts", "actions")

    def __init__(self) -> None:
        self._games: dict[tuple[str, str], AnyGame] = {}     # (game name, its parameters as JSON text)
        self._by_params: dict[Any, AnyGame] = {}             # the same games, by their parameter values
        self._replaced: dict[tuple[Any, str], Any] = {}   # (parameters, a change as JSON text): the result
        self._starts: dict[int, tuple[AnyGame, Any]] = {}    # id of a game: (the game, its initial state)
        self.actions = _ActionCache()

    def game(self, game_cls: type, name: str, params: dict[str, Any]) -> AnyGame:
        """``game_cls(**params)``, made once per name and parameters (errors are raised every time)."""
        key = (name, json.dumps(params, sort_keys=True))
        game = self._games.get(key)
        if game is None:
            game = game_cls(**params)
            game = self._games[key] = self._by_params.setdefault(game.params, game)
        return game

    def replaced(self, params: Any, changes: dict[str, Any]) -> Any:
        """``params.replace(**changes)``, validated once per distinct ``params`` and ``changes``."""
        key = (params, json.dumps(changes, sort_keys=True))
        new = self._replaced.get(key)
        if new is None:
            new = self._replaced[key] = params.replace(**changes)
        return new

    def initial_state(self, game: AnyGame) -> Any:
        """``game.initial_state()``, made once per game object (a state is an immutable value)."""
        known = self._starts.get(id(game))
        if known is None or known[0] is not game:
            known = self._starts[id(game)] = (game, game.initial_state())
        return known[1]

    def game_for(self, game: AnyGame, params: Any) -> AnyGame:
        """The game of ``game``'s kind with ``params`` (made once)."""
        made = self._by_params.get(params)
        if made is None or type(made) is not type(game):
            made = self._by_params[params] = type(game)(params)
        return made


class SessionFiles:
    """Saving and loading: the file half of :class:`playtest.Session` (see the module docstring)."""

    _players: "list[dict[str, Any]] | None"
    _form: Any
    path: Path | None
    _journal: Journal | None
    _cur: _Node
    _nodes: list[_Node]
    _notes: list[Note]
    _events: list[dict[str, Any]]
    _horizon: float | None

    if TYPE_CHECKING:       # the Session's (core.py), declared for the type checker
        created: str
        started: float | None
        author: str
        seed: int | None
        auto_chance: bool
        _start: Any
        _initial_params: Any
        _stamping: bool

        def __init__(self, game: AnyGame | str, seed: int | None = None, path: str | os.PathLike[str] | None = None,
                     start: Any = None, *, auto_chance: bool = True,
                     clock: Callable[[], float] | None = None) -> None: ...
        @property
        def game(self) -> AnyGame: ...
        @property
        def params(self) -> Any: ...
        @property
        def state(self) -> Any: ...
        def history(self, viewer: int | None = None) -> list[dict[str, Any]]: ...
        def _go(self, node: int) -> None: ...
        def _play_chance(self, outcome: Action, forced: bool, check: bool | None = None) -> None: ...
        def _advance(self, kind: str, action: Action | None, changes: dict[str, Any] | None, state: Any,
                     game: AnyGame, notation: str | None, forced: bool = False) -> None: ...

    def to_json(self) -> dict[str, Any]:
        """The whole session as one JSON object (the one-object form, version 1, that
        :meth:`from_json` reads): game, parameters, seed, the action tree, notes, current."""
        return {**self._header(), "version": 1, "saved": _now(),
                "nodes": [self._node_record(n)["node"] for n in self._nodes[1:]],
                "current": self._cur.id, "notes": [n.to_json() for n in self._notes],
                **({"events": list(self._events)} if self._events else {})}

    def save(self, path: str | os.PathLike[str] | None = None, seat: int | None = None, *,
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
            self._written = (len(self._nodes), len(self._notes), len(self._events), self._cur.id)
            self._file_repair = None
            self._rewrite = False
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
        header = {"format": FORMAT, "version": VERSION, "game": self._nodes[0].game.name,
                  "params": self._initial_params.to_json(), "seed": self.seed,
                  "start": self._start.to_json() if self._start is not None else None,
                  "created": self.created}
        if self.started is not None:     # every time in the file is seconds from this one (UTC)
            header["started"] = utc_text(self.started)
        if self.author and self.author != "designer":      # the name its notes go under, once given
            header["author"] = self.author
        return header

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
        if node.t is not None:
            entry["t"] = node.t
        if node.bot is not None:
            entry["bot"] = node.bot
        if node.player is not None:
            entry["player"] = node.player
        return {"node": entry}

    def _node_line(self, node: _Node) -> str:
        """The node's record as its line of the file: encoded once (a node never changes once made)."""
        line = node.line
        if line is None:
            line = node.line = encode_record(self._node_record(node))
        return line

    def _records(self) -> tuple[dict[str, Any], list[Any]]:
        records: list[Any] = [self._node_line(n) for n in self._nodes[1:]]
        records += [{"note": n.to_json()} for n in self._notes]
        records += self._events
        records.append({"current": self._cur.id})
        return self._header(), records

    def _attach(self, path: Path) -> None:
        """Make ``path`` this session's file: write a compact copy there, append from now on."""
        game = self._nodes[0].game
        try:                       # what loading the file will ask (OpenSpiel's games are known by name)
            known = game_class(game.name) is not None
        except ValueError:
            known = False
        if not known:
            warnings.warn(f"{path}: the game {type(game).__name__} ({game.name!r}) is not registered, so this file "
                          "cannot be loaded (Session.load, or Session.open after a restart) until it is: decorate "
                          "the class with @register (or @register(listed=False))", SessionFileWarning, stacklevel=3)
        journal = Journal(path)
        journal.rewrite(*self._records())
        if self._journal is not None:
            self._journal.close()
        self._journal, self.path = journal, path
        self._file_repair = None
        self._written = (len(self._nodes), len(self._notes), len(self._events), self._cur.id)
        self._rewrite = False

    def _persist(self) -> None:
        """Append what changed since the last write (raises SessionSaveError; the caller rolls back)."""
        if self._journal is None:
            return
        nodes, notes, events, current = self._written
        repair, self._file_repair = self._file_repair, None
        if repair is not None and repair != "upgrade":      # a torn last line (kept aside on loading)
            try:
                self._journal.truncate(repair)
            except SessionSaveError:
                self._file_repair = repair
                raise
        if (repair == "upgrade" or nodes > len(self._nodes) or notes > len(self._notes)
                or events > len(self._events) or self._rewrite):
            # an old one-object file becomes a journal; a merge that moved times, or the first time in an
            # old file; (never after a rollback: be safe)
            try:
                self._journal.rewrite(*self._records())
            except SessionSaveError:
                self._file_repair = repair
                raise
            self._rewrite = False
        else:
            records: list[Any] = [self._node_line(n) for n in self._nodes[nodes:]]
            records += [{"note": n.to_json()} for n in self._notes[notes:]]
            records += self._events[events:]
            last = self._nodes[-1].id if len(self._nodes) > nodes else current
            if self._cur.id != last:
                records.append({"current": self._cur.id})
            self._journal.append(records)
        self._written = (len(self._nodes), len(self._notes), len(self._events), self._cur.id)

    @classmethod
    def open(cls, path: str | os.PathLike[str], game: AnyGame | str, seed: int | None = None,
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
            if isinstance(game, Game) and _rules_of(type(game)) != _rules_of(type(live.game)):
                warnings.warn(f"{path} is open in this kernel with the {live.game.name} rules as they were when it "
                              f"was opened, and this game's rules differ (a method or a constant of its class "
                              f"changed): Session.open returns that session, which plays the rules it has. To "
                              f"replay the file under the new rules, restart the kernel and run the notebook again "
                              f"(a move the new rules refuse is then named); to keep both, open another path",
                              SessionFileWarning, stacklevel=2)
        elif path.exists():
            session = cls.load(path)
        else:
            session = cast("Session", cls(game, seed=seed, path=path, start=start))
        if name is not None and session._nodes[0].game.name != name:
            raise SessionFileError(f"{path} holds a {session._nodes[0].game.name} session, not {name}: "
                                   "choose another path")
        started = session._nodes[0].game.params     # (live changes since, set_params' in a later cell, are the file's)
        if isinstance(game, Game) and game.params != started and type(game.params) is type(started):
            asked = {k: v for k, v in game.params.to_json().items() if started.to_json().get(k) != v}
            words = ", ".join(f"{k}={show_value(v, 40)}" for k, v in asked.items())[:300]
            was = ", ".join(f"{k}={show_value(started.to_json().get(k), 40)}" for k in asked)[:300]
            warnings.warn(f"{path} holds a session started with {was}; the game given has {words}: Session.open "
                          f"resumes the file as it is (session.set_params applies new values; for a new game "
                          f"with them, open another path)", SessionFileWarning, stacklevel=2)
        if session._journal is not None and not session._journal.locked:
            session._journal.lock()              # another kernel playing the same file is refused
        _OPEN[_key(path)] = session
        return session

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> "Session":
        """Open a saved session; every action is replayed through the rules.

        A corrupt, foreign, oversized or hand-edited file that the rules refuse
        raises :class:`SessionFileError` naming the problem, and the file is not
        touched. Loading never writes the file: an incomplete last line (a
        change cut off by a crash, or a line added by hand) is left out, its
        bytes are copied to a side file next to the session (named in
        :attr:`load_warnings` and a :class:`SessionFileWarning`), and it is cut
        off the file only when the session next saves a change; an old
        one-object file becomes a journal then too. Every change whose call
        returned is there. The loaded session keeps autosaving to ``path``.
        """
        path = Path(path)
        remove_stale_temporaries(path)
        session, torn_at, old_format, raw = cls._read_file(path)
        if torn_at is not None:
            kept = _keep_aside(path, raw[torn_at:])
            session.load_warnings = [note + f"; its bytes are kept in {kept.name}, next to the session"
                                     if note.startswith(TORN_NOTE) else note for note in session.load_warnings]
        for note in session.load_warnings:
            warnings.warn(f"{path}: {note}", SessionFileWarning, stacklevel=2)
        session._file_repair = "upgrade" if old_format else torn_at    # done before the next change is saved
        session._journal, session.path = Journal(path, size=len(raw)), path
        session._written = (len(session._nodes), len(session._notes), len(session._events), session._cur.id)
        return session

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> "Session":
        """A saved session, replayed through the rules, to look at or merge: the file is only read
        (nothing next to it is written either), and the session has no file of its own until saved.

        >>> import tempfile, os, playtest
        >>> path = os.path.join(tempfile.mkdtemp(), "tester.playtest.json")
        >>> tester = playtest.Session("eat_thyself", seed=1, path=path)
        >>> tester.play(tester.legal_actions()[0])
        >>> copy = playtest.Session.read(path)
        >>> copy.move_number, copy.path is None
        (1, True)
        """
        session, _torn_at, _old, _raw = cls._read_file(Path(path))
        return session

    @classmethod
    def _read_file(cls, path: Path) -> "tuple[Session, int | None, bool, bytes]":
        """Read and replay ``path`` without writing anything: (session, torn_at, old format, bytes)."""
        raw = read_file(path)
        header, records, torn_at, notes = read_bytes(raw, str(path))
        session = cls._replay(header, records, where=str(path))
        session.load_warnings = notes
        return session, torn_at, isinstance(header, dict) and header.get("version") == 1, raw

    def to_bytes(self) -> bytes:
        """The session file's content, compact (what a download hands the browser)."""
        return encode_journal(*self._records()).encode("utf-8")

    @classmethod
    def from_records_bytes(cls, data: bytes, where: str = "uploaded file") -> "Session":
        """A session from a session file's content (an upload), checked like :meth:`load`; it has
        no file of its own until saved. ``data`` must be bytes (``bytes``, ``bytearray`` or a
        ``memoryview``), no larger than a session file may be: checked before any copy is made.

        >>> import playtest
        >>> playtest.Session.from_records_bytes(10 ** 10)
        Traceback (most recent call last):
        ...
        playtest.journal.SessionFileError: uploaded file: the content must be the file's bytes, not int
        """
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise SessionFileError(f"{where}: the content must be the file's bytes, not {type(data).__name__}")
        size = memoryview(data).nbytes
        if size > LIMITS.max_bytes:
            raise SessionFileError(f"{where}: {size:,} bytes is more than a session file may hold "
                                   f"({LIMITS.max_bytes:,} bytes)")
        header, records, _torn, _notes = read_bytes(bytes(data), where)
        return cls._replay(header, records, where)

    @classmethod
    def from_json(cls, data: Any, where: str = "session") -> "Session":
        """A session from :meth:`to_json` data, replayed and checked through the rules."""
        return cls._replay(data, [], where)

    @classmethod
    def _replay(cls, header: Any, records: list[Any], where: str, share: ReplayShare | None = None) -> "Session":
        """Rebuild a session from a file's header and records, checking every field and move.

        ``share``: what a batch of files replayed together shares (see :class:`ReplayShare`)."""
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
            game = game_cls(**params) if share is None else share.game(game_cls, name, params)
        except (ValueError, TypeError) as err:
            raise bad(f"bad parameters: {str(err)[:300]}") from None
        except Exception as err:       # noqa: BLE001 (the game's own code, on a stranger's values)
            raise bad(f"bad parameters: the game raised {_raised(err)}") from None
        seed = header.get("seed")
        problem = seed_problem(seed)
        if problem is not None:
            raise bad(problem)
        created = header.get("created", "")
        if type(created) is not str or len(created) > 100:
            raise bad("'created' must be a short text (a date)")
        started, horizon = header.get("started"), None
        if started is not None:
            try:
                started = parse_utc(started)
            except (ValueError, TypeError):
                raise bad(f"'started' must be a UTC time such as \"2025-05-01T10:00:00.000Z\", not {_shown(started)}") from None
            now = time.time()
            if started > now + FUTURE_SLACK or started < _EARLIEST:
                raise bad(f"'started' = {header['started']} is not a time a session was played (it lies "
                          f"{'in the future' if started > now else 'before 2000'})")
            horizon = now + FUTURE_SLACK - started      # no time in the file may lie past now (plus a day)
        try:
            # (a written start position the game's rules cannot read is refused by Session itself: BadStart)
            session = cast("Session", cls(game, seed=seed, start=header.get("start"), auto_chance=False))
        except (ValueError, TypeError, IllegalAction) as err:
            raise bad(str(err)[:400] if isinstance(err, BadStart) else f"bad start position: {str(err)[:300]}") from None
        except Exception as err:       # noqa: BLE001 (the game's own code, on a stranger's position)
            raise bad(f"bad start position: the game raised {_raised(err)}") from None
        session.created = created or session.created
        session.started = started
        session._nodes[0].t = 0.0 if started is not None else None
        session._stamping = False          # the file's times are read, not made
        session._horizon = horizon
        author = header.get("author")
        if author is not None:
            if type(author) is not str or len(author) > 100 or has_control(author):
                raise bad("'author' must be a short name (no control characters)")
            if author.strip():
                session.author = " ".join(author.split())
        current = None
        parse = _ActionCache() if share is None else share.actions
        collecting = gc.isenabled()
        if collecting:       # 10,000 new nodes would set off many full collections, each slower
            gc.disable()
        try:
            for number, record in enumerate(records, start=2):
                if not isinstance(record, dict) or len(record) != 1:
                    raise bad(f"record {number} must be an object with one of 'node', 'note' or 'current'")
                (kind, value), = record.items()
                if kind == "node":
                    current = session._replay_node(value, bad, parse, share)
                elif kind == "note":
                    session._replay_note(value, bad)
                elif kind == "current":
                    if type(value) is not int or not 0 <= value < len(session._nodes):
                        raise bad(f"'current' must be a position id from 0 to {len(session._nodes) - 1}, "
                                  f"not {_shown(value)}")
                    current = value
                elif kind in _EVENT_KINDS:
                    session._replay_event(kind, value, number, bad)
                else:
                    raise bad(f"record {number}: unknown record {_shown(kind)} (records are node, note, current, "
                              f"{', '.join(_EVENT_KINDS)})")
        finally:
            if collecting:
                gc.enable()
            session._stamping = True
        session._initial_params = game.params
        session.auto_chance = True
        session._go(current if current is not None else len(session._nodes) - 1)
        return session

    _NODE_KINDS = frozenset({"move", "chance", "params"})
    _NODE_FIELDS = _NODE_KINDS | {"parent", "forced", "by", "t", "bot", "player"}

    def _replay_event(self, kind: str, value: Any, number: int, bad: Callable[[str], SessionFileError]) -> None:
        """A refusal, curtain lift, seating, form or feedback record, checked against the session so far."""
        if len(self._events) >= LIMITS.max_notes * 4:
            raise bad(f"more than {LIMITS.max_notes * 4:,} table events: more than a session file may hold")
        try:
            check_event(self, kind, value, number, self._horizon)
        except ValueError as err:
            raise bad(str(err)[:400]) from None
        self._events.append({kind: value})
        if kind == "players":
            self._players = [dict(p) for p in value["seats"]]
        elif kind == "form":
            from .feedback import FeedbackForm
            self._form = FeedbackForm.of(value["questions"])

    def _replay_node(self, entry: Any, bad: Callable[[str], SessionFileError],
                     parse: "_ActionCache | None" = None, share: ReplayShare | None = None) -> int:
        index = len(self._nodes)
        if index >= LIMITS.max_positions:
            raise bad(f"more than {LIMITS.max_positions:,} positions: more than a session file may hold")
        parent = entry.get("parent") if type(entry) is dict else None
        if type(parent) is not int or not 0 <= parent < index:
            raise bad(f"node {index} has no valid parent (each node names an earlier node)")
        size = len(entry)
        if "move" in entry and (size == 2 or (size == 3 and "t" in entry) or (
                size == 4 and "t" in entry and "bot" in entry)):     # {"parent", "move"[, "t"[, "bot"]]}
            kind, by = "move", None
        else:
            kinds = self._NODE_KINDS.intersection(entry)
            by = entry.get("by")
            if by is not None and (type(by) is not str or len(by) > 100 or has_control(by)):
                raise bad(f"node {index}: 'by' must be a short name (no control characters)")
            if len(kinds) != 1 or not self._NODE_FIELDS.issuperset(entry):
                raise bad(f"node {index} must have exactly one of 'move', 'chance' or 'params' "
                          f"(and 'parent', 'forced')")
            kind, = kinds
        self._cur = node = self._nodes[parent]
        try:
            if kind == "params":
                if not isinstance(entry["params"], dict):
                    raise ValueError("params must be an object")
                changes = entry["params"]          # set_params, without its transaction (the load is one)
                new_params = node.game.params.replace(**changes) if share is None \
                    else share.replaced(node.game.params, changes)
                self._set_params(changes, new_params, share, replay=True)   # type: ignore[attr-defined]
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
            made = self._cur
            made.by = " ".join(by.split()) if by is not None else node.by
            t = entry.get("t")
            if t is not None:
                if self.started is None:
                    raise ValueError("it has a time 't' but the header has no 'started' time")
                floor, horizon = node.t, self._horizon
                if type(t) is float and t >= 0.0 and (floor is None or t >= floor) and (
                        horizon is None or t <= horizon) and t == t:
                    made.t = t                  # the common case, checked inline (a load replays many)
                else:
                    made.t = check_time(t, "its time", floor, horizon)
            if size > 2:
                for name in ("bot", "player"):
                    who = entry.get(name)
                    if who is not None:
                        if type(who) is not str or not 0 < len(who) <= 100 or has_control(who) or kind != "move":
                            raise ValueError(f"'{name}' is a short name (no control characters), on a move only")
                        setattr(made, name, who)
        except (IllegalAction, ValueError, TypeError) as err:
            shown = _shown(entry.get(kind), 200)
            raise bad(f"node {index} ({kind} {shown} after node {parent}) cannot be replayed: "
                      f"{str(err)[:300]}") from None
        except SessionFileError:
            raise
        except Exception as err:       # noqa: BLE001 (the game's own code, on a stranger's move)
            shown = _shown(entry.get(kind), 200)
            raise bad(f"node {index} ({kind} {shown} after node {parent}) cannot be replayed: the game "
                      f"raised {_raised(err)}") from None
        return index

    def _replay_note(self, value: Any, bad: Callable[[str], SessionFileError]) -> None:
        if len(self._notes) >= LIMITS.max_notes:
            raise bad(f"more than {LIMITS.max_notes:,} notes: more than a session file may hold")
        if not isinstance(value, dict) or set(value) - {"node", "text", "time", "author", "t"} or \
                type(value.get("text")) is not str or type(value.get("node")) is not int or \
                not 0 <= value["node"] < len(self._nodes) or len(value["text"]) > LIMITS.max_text or \
                type(value.get("time", "")) is not str or len(value.get("time", "")) > 100 or \
                type(value.get("author", "")) is not str or len(value.get("author", "")) > 100 or \
                has_control(value.get("author", "")):
            raise bad(f"note {len(self._notes)} must have a 'text' (at most {LIMITS.max_text:,} characters), "
                      "a 'node' id of this session, a short 'time' and a short 'author'")
        node = self._nodes[value["node"]]
        t, stamp = value.get("t"), value.get("time", "")
        if t is not None:
            if self.started is None:
                raise bad(f"note {len(self._notes)} has a time 't' but the header has no 'started' time")
            try:
                t = check_time(t, f"note {len(self._notes)}", node.t, self._horizon)
            except ValueError as err:
                raise bad(str(err)) from None
            stamp = utc_text(self.started + t)      # type: ignore[operator]
        self._notes.append(Note(node.id, node.depth, value["text"], stamp,
                                " ".join(value.get("author", "").split()), t))


#: sessions opened with Session.open in this kernel, by file: Run All returns the same one
_OPEN: "weakref.WeakValueDictionary[str, Session]" = weakref.WeakValueDictionary()


def _rules_of(cls: type) -> tuple[Any, ...]:
    """What a game class's own code says, to tell a class redefined with other rules (a notebook cell
    changed and run again) from the same cell run again: each method's byte code and constants and
    each plain value, for the classes of its line that are not the kit's."""
    said: list[Any] = []
    for klass in cls.__mro__:
        if klass.__module__ == "builtins" or klass.__module__.startswith("playtest."):
            continue
        for key, value in sorted(vars(klass).items()):
            if key.startswith("__") and key != "__init__":
                continue
            code = getattr(getattr(value, "__func__", value), "__code__", None)
            said.append((klass.__qualname__, key, _code_of(code) if code is not None
                         else value.__qualname__ if isinstance(value, type) else repr(value)[:300]))
    return tuple(said)


def _code_of(code: Any) -> tuple[Any, ...]:
    """A code object's byte code and constants, the code objects among them (a comprehension, a
    lambda) read the same way: the same source compiled twice reads the same."""
    return (code.co_code, tuple(_code_of(c) if hasattr(c, "co_code") else repr(c) for c in code.co_consts))


def _raised(err: BaseException) -> str:
    """An error the game's own code raised on a file's values, in one line (no machine path)."""
    return f"{type(err).__name__}: {str(err)[:200]}" + (" (a position or move its rules cannot read; the "
                                                        "game's check_state may refuse it by name)")


def _key(path: Path) -> str:
    try:
        return str(path.resolve())
    except OSError:
        return str(path)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def _keep_aside(path: Path, data: bytes) -> Path:
    """Copy the bytes of a session file's incomplete last line to a side file next to it, so that cutting
    the line off later loses nothing a person wrote; returns its path (the same file when the same bytes
    were kept before)."""
    stem = f"{path.name}.cut-off"
    for k in range(1, 1000):
        side = path.with_name(f"{stem}.txt" if k == 1 else f"{stem}-{k}.txt")
        try:
            if side.read_bytes() == data:
                return side
            continue
        except FileNotFoundError:
            pass
        except OSError:
            continue
        try:
            with open(side, "xb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
        except FileExistsError:
            continue
        except OSError as err:
            raise SessionFileError(f"{path}: its incomplete last line could not be kept aside in {side.name} "
                                   f"({err.strerror or err}); the file was not changed") from None
        return side
    raise SessionFileError(f"{path}: too many side files for its incomplete last line; the file was not changed")


def _shown(value: Any, limit: int = 60) -> str:
    """A value read from a file, for an error message, cut short (never echo a huge input)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _records_of_version_1(data: dict[str, Any], bad: Callable[[str], SessionFileError]) -> list[Any]:
    nodes, notes = data.get("nodes", []), data.get("notes", [])
    if not isinstance(nodes, list):
        raise bad("'nodes' must be a list")
    if not isinstance(notes, list):
        raise bad("'notes' must be a list")
    records: list[Any] = [{"node": entry} for entry in nodes]
    records += [{"note": note} for note in notes]
    events = data.get("events", [])
    if not isinstance(events, list):
        raise bad("'events' must be a list")
    records += events
    if "current" in data:
        records.append({"current": data["current"]})
    return records
