"""The designer's side of remote testing: a recorded session replayed read-only, and a referee's view.

:func:`playtest.replay` opens a session file (a tester's, say) on the table, read-only, with step
controls: first, back, a slider over the line played, on, last ("look at move 23":
``replay(path, move=23)``). Nothing is ever written: the file is only read, every move goes
through the rules (a tampered or foreign file is refused with :class:`playtest.SessionFileError`),
and the table refuses moves, notes, parameters and files.

:class:`RefereeView` shows every seat's view of a session side by side, each with that seat's
secrets: for the designer's notebook only (the tester's view never offers it).

>>> import os, tempfile, playtest
>>> path = os.path.join(tempfile.mkdtemp(), "t.playtest.json")
>>> s = playtest.Session("eat_thyself", seed=1, path=path)
>>> for _ in range(3): s.play(s.legal_actions()[0])
>>> view = playtest.replay(path, move=1)
>>> view.session.move_number, view.session.path is None
(1, True)
>>> view.step(+1); view.session.move_number
2

A link opens the same replay (:func:`playtest.replay_link` writes it, "look at move 23"): the
replay page (``notebooks/testers/replay.ipynb`` under Voila, or the serverless site's console)
runs :func:`replay_page` on the address's query, ``file=`` (a session file's path under the
folder the page may read) and ``move=``. The query is a stranger's input: it is checked before
any file is touched, and whatever is wrong is said on the page, in one line.

>>> folder = os.path.dirname(path)
>>> replay_page(f"file={os.path.basename(path)}&move=2", root=folder).session.move_number
2
>>> replay_page("file=../../etc/passwd&move=2", root=folder).message.split(" must ")[0]
'Cannot show this replay: the file= part of the address (../../etc/passwd)'
"""

from __future__ import annotations

import os
import re
from html import escape
from pathlib import Path
from typing import NamedTuple
from urllib.parse import parse_qsl

import ipywidgets as w

from ..session import Session, SessionFileError
from .board import Board
from .table import DESIGNER_CONTROLS, Table

__all__ = ["replay", "ReplayView", "RefereeView", "replay_page", "read_replay_query", "ReplayQuery",
           "ReplayLinkError", "ReplayRefused"]

#: what a replay refuses: everything that would change the recording
REPLAY_REFUSES = (DESIGNER_CONTROLS - {"jump in the log", "switch branches"}) | {"play", "write notes"}


def replay(source: "str | os.PathLike | bytes", move: int | None = None, seat: int | None = None) -> "ReplayView":
    """A recorded session (a file's path, or its bytes) on the table, read-only, with step controls.

    ``move`` opens it at that move of the line played (the move number the table shows: the
    position where that move was played; a chance result after it is one step on); ``seat``
    shows it as that seat saw it
    (its secrets only). Raises :class:`playtest.SessionFileError` for a file that is not a
    session the rules can replay.
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        session = Session.from_records_bytes(source, where="session file")
    elif isinstance(source, (str, os.PathLike)):
        session = Session.read(source)
    else:
        raise TypeError(f"replay takes a session file's path or its bytes, not {type(source).__name__}")
    return ReplayView(session, move=move, seat=seat)


def moves_of(session: Session) -> list[int]:
    """The move number of each position of the session's line (a chance result or a parameter change
    is no move: it shares the number of the move before it).

    >>> import playtest
    >>> s = playtest.Session("source", seed=1)
    >>> s.play(s.legal_actions()[0]); moves_of(s)
    [0, 1]
    """
    return [entry["move"] for entry in session.history()]


class _ReplayTable(Table):
    """The table of a replay: the session's bots stay seated (their names show) but never play: a
    replay shows the moves recorded, and a bot's turn must not move it on from the move asked for."""

    def _run_bots(self) -> None:
        return None


class ReplayView(w.VBox):
    """A session shown read-only on a :class:`playtest.Table`, with step controls over its line."""

    def __init__(self, session: Session, move: int | None = None, seat: int | None = None):
        if not isinstance(session, Session):
            raise TypeError(f"ReplayView needs a playtest.Session, not {session!r}")
        self.session = session
        self._line = session.line()
        self._moves = moves_of(session)
        if move is not None:
            if type(move) is not int or move not in self._moves:
                raise ValueError(f"move must be from 0 to {self._moves[-1]} (the moves of the line played), "
                                 f"not {move!r}")
            session.goto(self._line[self._moves.index(move)])
        self.table = _ReplayTable(session, seat=seat)
        self.table.refuses = frozenset(self.table.refuses | REPLAY_REFUSES)
        for widget in (self.table.undo_button, self.table.redo_button, self.table.bot_button,
                       self.table.note_box, self.table.note_button, self.table.param_panel,
                       self.table.save_path, self.table.save_button, self.table.save_replace, self.table.upload,
                       *self.table.seat_pickers.values()):
            widget.layout.display = "none"
        narrow = w.Layout(width="40px")
        self.first_button = w.Button(icon="fast-backward", tooltip="The start", layout=narrow)
        self.back_button = w.Button(icon="step-backward", tooltip="One step back", layout=narrow)
        self.next_button = w.Button(icon="step-forward", tooltip="One step on", layout=narrow)
        self.last_button = w.Button(icon="fast-forward", tooltip="The end of the line", layout=narrow)
        self.slider = w.IntSlider(min=0, max=max(0, len(self._line) - 1), description="Move",
                                  continuous_update=False, style={"description_width": "40px"},
                                  layout=w.Layout(width="320px"))
        self.first_button.on_click(lambda _: self.go(0))
        self.back_button.on_click(lambda _: self.step(-1))
        self.next_button.on_click(lambda _: self.step(+1))
        self.last_button.on_click(lambda _: self.go(len(self._line) - 1))
        self.slider.observe(lambda change: self.go(change["new"]), names="value")
        self.label = w.Label(value="")
        for widget, name in ((self.first_button, "first"), (self.back_button, "back"), (self.next_button, "next"),
                             (self.last_button, "last"), (self.slider, "slider"), (self.label, "where")):
            widget.add_class(f"pt-replay-{name}")        # for a page test to find the replay's own controls
        self._syncing = False
        session.on_change(lambda _s: self._follow())
        controls = w.HBox([self.first_button, self.back_button, self.slider, self.next_button, self.last_button,
                           self.label], layout=w.Layout(align_items="center", flex_flow="row wrap"))
        super().__init__([w.HTML("<b>Replay</b> <small>(read-only: nothing is written)</small>"), controls,
                          self.table])
        self.add_class("pt-replay")
        self._follow()

    def go(self, index: int) -> None:
        """Show the ``index``-th position of the line played (0 is the start)."""
        if self._syncing:
            return
        index = min(max(0, int(index)), len(self._line) - 1)
        if self.session.node != self._line[index]:
            self.session.goto(self._line[index])

    def step(self, delta: int) -> None:
        """Step ``delta`` positions along the line played."""
        here = self._line.index(self.session.node) if self.session.node in self._line else 0
        self.go(here + delta)

    def _follow(self) -> None:
        if self.session.node not in self._line:       # a branch picked in the menu: its line now
            self._line = self.session.line()
            self._moves = moves_of(self.session)
        index = self._line.index(self.session.node)
        self._syncing = True
        try:
            self.slider.max = max(0, len(self._line) - 1)
            self.slider.value = index
        finally:
            self._syncing = False
        self.label.value = f"position {index} of {len(self._line) - 1}, move {self._moves[index]}"


class RefereeView(w.VBox):
    """Every seat's view of ``session`` side by side, each with its own secrets: the referee's (the
    designer's) view. It follows the session; it plays nothing."""

    def __init__(self, session: Session):
        if not isinstance(session, Session):
            raise TypeError(f"RefereeView needs a playtest.Session, not {session!r}")
        self.session = session
        self.boards: list[Board] = []
        self._titles: list[w.HTML] = []
        self.row = w.HBox([], layout=w.Layout(flex_flow="row wrap", align_items="flex-start"))
        super().__init__([w.HTML("<b>Referee view</b> <small>(every seat's secrets: the designer's only)</small>"),
                          self.row])
        self.add_class("pt-referee")
        self._listener = lambda _s: self.refresh()
        session.on_change(self._listener)
        self.refresh()

    def refresh(self) -> None:
        game, state = self.session.game, self.session.state
        seats = game.seats()
        while len(self.boards) < len(seats):
            self.boards.append(Board())
            self._titles.append(w.HTML())
        del self.boards[len(seats):], self._titles[len(seats):]
        for seat, (board, title) in enumerate(zip(self.boards, self._titles)):
            title.value = f"<b>{escape(seats[seat].name)}</b> sees"
            board.show(game.view(state, seat))
        self.row.children = [w.VBox([t, b]) for t, b in zip(self._titles, self.boards)]

    def close(self) -> None:
        self.session.off_change(self._listener)
        super().close()


class ReplayLinkError(ValueError):
    """A replay address that cannot be followed: its query is malformed, names a file outside the
    folder the page may read, or a move or seat out of range (the message says which and why)."""


class ReplayQuery(NamedTuple):
    """What a replay address asks for: a session file (a path relative to the page's folder), a move
    (the position of the line played, ``None``: the start) and a seat (``None``: every seat)."""
    file: str
    move: int | None
    seat: int | None


#: how long a replay address's query may be (a path and two numbers need far less)
QUERY_LIMIT = 600
#: a session file's path in a replay address: up to four folders of plain names, then ``NAME.playtest.json``
#: (or ``NAME.playtest``: how the serverless site ships one, since its file layer parses every file
#: whose name ends in .json as one JSON document, which a session's journal is not)
_FILE = re.compile(r"^(?:[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}/){0,4}[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}\.playtest(?:\.json)?$")
#: the parts of a replay address the page reads; any other part (Voila's ``token``, ...) is left alone
_KEYS = ("file", "move", "seat")


def read_replay_query(query: str) -> ReplayQuery:
    """The replay a link's query asks for (``file=sessions/testers/a.playtest.json&move=23``),
    checked as a stranger's input: no file outside the page's folder (no ``..``, no absolute path,
    no link out of it: see :func:`replay_page`), a move and a seat as plain numbers, each part
    once. Raises :class:`ReplayLinkError` naming the part that is wrong.

    >>> read_replay_query("file=sessions/a.playtest.json&move=23")
    ReplayQuery(file='sessions/a.playtest.json', move=23, seat=None)
    >>> read_replay_query("file=a.playtest.json&move=-1")
    Traceback (most recent call last):
    ...
    playtest.widgets.replay.ReplayLinkError: the move= part of the address must be a move number (0, 1, 2, ...), not '-1'
    """
    if not isinstance(query, str):
        raise ReplayLinkError(f"a replay address's query is text, not {type(query).__name__}")
    query = query.lstrip("?")
    if len(query) > QUERY_LIMIT:
        raise ReplayLinkError(f"the address is too long for a replay ({len(query):,} characters of query; "
                              f"at most {QUERY_LIMIT})")
    try:
        pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query), max_num_fields=20,
                          errors="strict")
    except (ValueError, UnicodeDecodeError) as err:
        raise ReplayLinkError(f"the address's query is malformed ({str(err)[:80]}); a replay link reads "
                              "file=PATH.playtest.json&move=N") from None
    seen: dict[str, str] = {}
    for key, value in pairs:
        if key in _KEYS:
            if key in seen:
                raise ReplayLinkError(f"the address gives {key}= twice; a replay link gives it once")
            seen[key] = value
    if "file" not in seen:
        raise ReplayLinkError("the address names no session file (file=PATH.playtest.json): "
                              "playtest.replay_link writes replay links")
    file = seen["file"]
    if not _FILE.match(file) or any(part in (".", "..") for part in file.split("/")):
        raise ReplayLinkError(f"the file= part of the address ({_shown(file)}) must be a session file "
                              "(NAME.playtest.json) under the replay page's folder: plain names and '/', "
                              "no '..', no absolute path")
    return ReplayQuery(file, _number(seen.get("move"), "move", "a move number (0, 1, 2, ...)"),
                       _number(seen.get("seat"), "seat", "a seat number (0, 1, ...)"))


def _number(value: str | None, key: str, what: str) -> int | None:
    if value is None:
        return None
    if not re.fullmatch(r"[0-9]{1,6}", value):
        raise ReplayLinkError(f"the {key}= part of the address must be {what}, not {_shown(value)!r}")
    return int(value)


def _shown(text: str, limit: int = 60) -> str:
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _replay_path(root: Path, file: str) -> Path:
    """``file`` under ``root``, refused if it leads anywhere else (a link out, say) or is not a file."""
    base = root.resolve()
    path = (base / file).resolve()
    if not path.is_relative_to(base):
        raise ReplayLinkError(f"the file= part of the address ({_shown(file)}) leads outside the replay "
                              "page's folder")
    if not path.is_file():
        raise ReplayLinkError(f"there is no session file {_shown(file)} here (the replay page reads files "
                              "under its own folder; on the serverless site, one shipped with the site)")
    return path


class ReplayRefused(w.HTML):
    """What the replay page shows instead of a replay it refuses: one line, why (inert text)."""

    def __init__(self, message: str):
        #: the reason, as plain text
        self.message = message
        super().__init__(value=f'<div class="pt-replay-refused" style="color: #a00">{escape(message)}</div>')


def replay_page(query: str | None = None, root: "str | os.PathLike" = ".") -> "ReplayView | ReplayRefused":
    """The replay a link asks for, read-only at its move, or the reason it is refused (never a traceback).

    ``query`` is the address's query (``file=...&move=23``); by default the page's own, which Voila
    gives the notebook in ``QUERY_STRING``. The file is looked for under ``root`` (the replay
    notebook's folder's parent, ``notebooks/``, under Voila; the site's root on the serverless
    site) and read like any stranger's file (:func:`replay`): bounded, checked through the rules,
    no code run, a tampered or foreign file refused with :class:`playtest.SessionFileError`, whose
    message the page shows.
    """
    if query is None:
        query = os.environ.get("QUERY_STRING", "")
    path = Path(os.devnull)
    try:
        asked = read_replay_query(query)
        path = _replay_path(Path(root), asked.file)
        session = Session.read(path)
        last = moves_of(session)[-1]
        if asked.move is not None and asked.move > last:
            raise ReplayLinkError(f"move {asked.move} is past the end of this session (its line has moves "
                                  f"0 to {last})")
        seats = len(session.game.seats())
        if asked.seat is not None and asked.seat >= seats:
            raise ReplayLinkError(f"seat {asked.seat} is not a seat of {session.game.title} (0 to {seats - 1})")
        return ReplayView(session, move=asked.move, seat=asked.seat)
    except ReplayLinkError as err:
        return ReplayRefused(f"Cannot show this replay: {err}")
    except SessionFileError as err:
        # the message names the file as the address did, never by where it is on the machine
        reason = str(err).replace(str(path), asked.file).replace(str(Path(root).resolve()), "")
        return ReplayRefused(f"Cannot show this replay: the session file was refused: {reason[:400]}")
    except OSError as err:
        return ReplayRefused(f"Cannot show this replay: the session file could not be read "
                             f"({type(err).__name__})")
