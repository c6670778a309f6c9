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
"""

from __future__ import annotations

import os
from typing import Any

import ipywidgets as w

from ..session import Session
from .board import Board
from .table import DESIGNER_CONTROLS, Table

__all__ = ["replay", "ReplayView", "RefereeView"]

#: what a replay refuses: everything that would change the recording
REPLAY_REFUSES = (DESIGNER_CONTROLS - {"jump in the log", "switch branches"}) | {"play", "write notes"}


def replay(source: "str | os.PathLike | bytes", move: int | None = None, seat: int | None = None) -> "ReplayView":
    """A recorded session (a file's path, or its bytes) on the table, read-only, with step controls.

    ``move`` opens it at that move of the line played; ``seat`` shows it as that seat saw it
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


class ReplayView(w.VBox):
    """A session shown read-only on a :class:`playtest.Table`, with step controls over its line."""

    def __init__(self, session: Session, move: int | None = None, seat: int | None = None):
        if not isinstance(session, Session):
            raise TypeError(f"ReplayView needs a playtest.Session, not {session!r}")
        self.session = session
        self._line = session.line()
        if move is not None:
            if type(move) is not int or not 0 <= move < len(self._line):
                raise ValueError(f"move must be from 0 to {len(self._line) - 1} (the moves of the line played), "
                                 f"not {move!r}")
            session.goto(self._line[move])
        self.table = Table(session, seat=seat)
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
        index = self._line.index(self.session.node)
        self._syncing = True
        try:
            self.slider.max = max(0, len(self._line) - 1)
            self.slider.value = index
        finally:
            self._syncing = False
        self.label.value = f"position {index} of {len(self._line) - 1}"


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
            from html import escape
            title.value = f"<b>{escape(seats[seat].name)}</b> sees"
            board.show(game.view(state, seat))
        self.row.children = [w.VBox([t, b]) for t, b in zip(self._titles, self.boards)]

    def close(self) -> None:
        self.session.off_change(self._listener)
        super().close()
