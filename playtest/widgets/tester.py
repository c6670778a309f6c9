"""The tester's view: a name, a seat, the table, and a button that sends the session back.

A tester opens ``notebooks/testers/<game>.ipynb`` from the designer's link
(:func:`playtest.tester_link`); served by Voila (or on the serverless site) it shows no
code, only this view. The tester types their name, picks a seat (or hot-seat, every seat
at one screen), and plays; the other seats are played by the designer's chosen bots
(``bots={seat: bot or name}``), by default the game's best available bot, said on
screen. Notes are written under their name, and every change is saved in the tester's
own file in one folder (``directory``; the tester notebooks use
``notebooks/sessions/testers/``), one file per tester whatever the name, resumed when
they come back. "Send back" hands the browser that file and says so beside the button;
the designer merges it (:meth:`playtest.Session.merge`, or the table's "Merge files").
The tester gets only what a tester needs: no parameter panel unless the designer allows
it (``allow_params=True``), no file paths, no merging.
"What is sent" shows the tester that file, line by line, before they send it: the moves, the
times (seconds from the start), their notes, refused attempts and feedback, under the name they
typed; no login name, no path of their machine.

A tester at one seat of a game with secrets (face-down pieces, secret orders) plays against bots
whose secrets the file holds: the designer needs them to replay the game (every move goes
through the rules again), so Send back always sends the whole file. While that game is in
progress the view never shows them: "What is sent" shows what the tester's seat may know (its
export, :meth:`playtest.Session.save` with ``seat``) and says the rest is there; Send back
first says, beside the button, that the file holds the bots' hidden pieces and asks again
("Send anyway"); sent then, a note under the tester's name records the move it was sent at,
so the designer reads any later moves knowing the tester could have looked. Once the game is
over, nothing is hidden any more and Send back sends at once.

"Feedback" opens the designer's form (``feedback=``, a list of questions; fun, clarity, length and
"what confused you?" by default), which also opens by itself when a game ends; the answers are
saved in the tester's session.

>>> import playtest
>>> view = playtest.TesterView("source", directory=__import__("tempfile").mkdtemp())
>>> view.name.value = "Alice"
>>> view.start_button.click()
>>> view.session.author, view.table.seat
('Alice', None)
>>> view.seat.value = 0
>>> view.start_button.click()
>>> view.table.seat, sorted(view.table.bots)
(0, [1])
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ipywidgets as w

from ..rules import load
from ..session import Session
from ..session.feedback import FeedbackForm
from .table import Table
from .tester_view import bots_line, how_to_play, seat_bots, session_file_for

__all__ = ["TesterView"]

_HOT_SEAT = -1


class TesterView(w.VBox):
    """What a remote tester sees: their name, their seat, the table, "Send back"."""

    def __init__(self, game: str, seed: int = 1, directory: str | Path = "sessions/testers",
                 feedback: Any = None, bots: dict[int, Any] | None = None, allow_params: bool = False,
                 **params: Any):
        self.game = load(game, **params)
        #: the designer's feedback form (checked now: a bad form is the designer's error, not the tester's)
        self.feedback_form = FeedbackForm.of(feedback) if feedback is not None else None
        #: the designer's bots for the other seats (a bot or a bot's name per seat)
        self.chosen_bots = dict(bots or {})
        if self.chosen_bots:       # checked now: a wrong seat or bot name is the designer's to hear
            seat_bots(self.game, None, self.chosen_bots)
        #: whether the tester may change the rule parameters (the designer allows it in the notebook)
        self.allow_params = bool(allow_params)
        self.seed = seed
        self.directory = Path(directory)
        self.session: Session | None = None
        self.table: Table | None = None
        self.name = w.Text(placeholder="your name", description="Your name",
                           style={"description_width": "80px"}, layout=w.Layout(width="280px"))
        seats = [("hot-seat (every seat, one screen)", _HOT_SEAT)]
        seats += [(seat.name, i) for i, seat in enumerate(self.game.seats())]
        self.seat = w.Dropdown(options=seats, value=_HOT_SEAT, description="You play",
                               style={"description_width": "80px"}, layout=w.Layout(width="340px"))
        self.start_button = w.Button(description="Start playing", icon="play", button_style="primary")
        self.start_button.on_click(lambda _: self.start())
        self.send_button = w.Button(description="Send back", icon="paper-plane", disabled=True,
                                    tooltip="Download your session file, then send it to the designer")
        self.send_button.on_click(lambda _: self.send_back())
        #: what Send back did, beside the button
        self.sent_note = w.Label(value="")
        #: Send back's second press, for a seat whose game in progress has hidden pieces in the file
        self.send_anyway = w.Button(description="Send anyway", icon="paper-plane", button_style="warning",
                                    layout=w.Layout(display="none"))
        self.send_anyway.on_click(lambda _: self.send_back(confirmed=True))
        self.feedback_button = w.Button(description="Feedback", icon="comment", disabled=True,
                                        tooltip="Tell the designer how it went (saved in your session)")
        self.feedback_button.on_click(lambda _: self.open_feedback())
        self.sent_button = w.ToggleButton(description="What is sent", icon="eye", disabled=True, value=False,
                                          tooltip="Show exactly what Send back sends: your session file")
        self.sent_button.observe(lambda _: self.show_sent(), names="value")
        self.sent = w.Textarea(value="", disabled=True, layout=w.Layout(width="100%", height="220px",
                                                                          display="none"))
        self.how_to_play = w.Accordion(children=[w.HTML(how_to_play(self.game))],
                                       layout=w.Layout(width="auto"))
        self.how_to_play.set_title(0, f"How to play {self.game.title}")
        self.how_to_play.selected_index = None
        self.message = w.Label(value=f"{self.game.title}: type your name, choose a seat, and start.")
        self.area = w.VBox([])
        super().__init__([w.HBox([self.name, self.seat, self.start_button, self.send_button, self.sent_note,
                                  self.send_anyway, self.feedback_button, self.sent_button],
                                 layout=w.Layout(flex_flow="row wrap", align_items="center")),
                          self.message, self.sent, self.how_to_play, self.area])
        self.add_class("pt-tester")

    def start(self) -> None:
        """Open (or resume) this tester's session and show the table."""
        import unicodedata

        from ..session.records import has_control, is_visible
        # one name, however the keyboard composed its accents ("Chloé" as é, or as e and a combining accent)
        name = unicodedata.normalize("NFC", " ".join(self.name.value.split()))
        if not is_visible(name):       # (nothing typed, or only zero-width characters: a name no one sees)
            self.message.value = "Type your name first: your notes are written under it."
            return
        if len(name) > 60:
            self.message.value = "A shorter name, please (60 characters at most)."
            return
        if has_control(name):
            self.message.value = ("A name of letters, please: it holds a control character (or one that turns "
                                  "the text after it around).")
            return
        path = session_file_for(self.directory, self.game.name, name)
        resuming = path.exists()
        import warnings

        from ..session import SessionFileWarning
        try:
            with warnings.catch_warnings():   # (said on screen below, without the file's place on the machine)
                warnings.simplefilter("ignore", SessionFileWarning)
                self.session = Session.open(path, self.game, seed=self.seed)
        except (ValueError, OSError) as err:
            self.message.value = f"Could not open your session: {str(err)[:300]}"
            return
        self.session.author = name
        seat = None if self.seat.value == _HOT_SEAT else self.seat.value
        try:
            if self.feedback_form is not None:
                self.session.feedback_form = self.feedback_form
            if seat is not None and self.session.players[seat] != {"person": name}:
                self.session.set_players({seat: name})
        except (ValueError, OSError) as err:
            self.message.value = f"Could not save your seat or form: {str(err)[:300]}"
            return
        if self.table is not None:
            self.table.close()
        bots = seat_bots(self.session.game, seat, self.chosen_bots)
        self.table = Table(self.session, seat=seat, bots=bots)
        self._tester_controls(self.table)
        self.area.children = [self.table]
        self.send_button.disabled = False
        self.feedback_button.disabled = False
        self.sent_button.disabled = False
        self.sent_note.value = ""
        self.send_anyway.layout.display = "none"
        moves = self.session.move_number
        resumed = f" (resumed at move {moves})" if resuming else ""
        started = self.session._nodes[0].game.params
        if resuming and started != self.game.params and type(started) is type(self.game.params):
            from ..rules import show_value
            was, now = started.to_json(), self.game.params.to_json()
            changed = [k for k, v in now.items() if was.get(k) != v]
            resumed += (" with the rules your game started with (" + ", ".join(
                f"{k}={show_value(was.get(k), 30)}" for k in changed)[:200] + "; this page's are " + ", ".join(
                f"{k}={show_value(now[k], 30)}" for k in changed)[:200] + ")")
        who = bots_line(self.session.game, bots, self.chosen_bots)
        self.message.value = (f"Playing as {name}" + (f", {self.game.seats()[seat].name}" if seat is not None
                                                      else ", every seat") +
                              f"{resumed}. {who + ' ' if who else ''}Notes go under your name; press Send back "
                              "when you are done.")

    def open_feedback(self) -> None:
        """Open the feedback form of the table (the designer's questions)."""
        if self.table is not None:
            self.table.feedback.build()
            self.table.feedback_panel.selected_index = 0

    def hides_secrets(self) -> bool:
        """Whether the file holds what the tester may not see yet: a seat's game with secrets, in progress."""
        return (self.session is not None and self.table is not None and self.table.seat is not None
                and bool(self.session.game.has_secrets) and not self.session.is_over)

    def sent_text(self) -> str:
        """What Send back sends, as the tester may see it now ("" before the tester starts): the
        session file; while a seat's game with secrets is in progress, what that seat may know of
        it, and a line saying the file holds the rest."""
        if self.session is None:
            return ""
        if self.hides_secrets():
            import json
            seat = self.table.seat if self.table is not None else None
            assert seat is not None
            return ("Send back sends your whole session file: it also holds the other seats' hidden pieces and "
                    "orders, so that the designer can replay the game. Until the game is over you see only what "
                    "your seat knows:\n\n" + json.dumps(self.session.export(seat), ensure_ascii=False, indent=1))
        return self.session.to_bytes().decode("utf-8")

    def show_sent(self) -> None:
        """Show (or hide) what Send back sends, as plain text the tester can read and copy."""
        showing = bool(self.sent_button.value) and self.session is not None
        self.sent.value = self.sent_text() if showing else ""
        self.sent.layout.display = "block" if showing else "none"

    def _tester_controls(self, table: Table) -> None:
        """Only what a tester needs at the table: no file paths, no merging, no bots to seat, and no
        parameters unless the designer allows them (hidden, and refused if sent anyway)."""
        refused = {"seat bots", "merge files", "save to a path"}
        if not self.allow_params:
            refused.add("change parameters")
        table.refuses = frozenset(table.refuses | refused)
        hidden = [table.save_path, table.save_button, table.save_replace, table.upload, table.download_button,
                  *table.seat_pickers.values()]
        if not self.allow_params:
            hidden.append(table.param_panel)
        for widget in hidden:
            widget.layout.display = "none"

    def send_back(self, confirmed: bool = False) -> None:
        """Hand the browser the tester's session file (the whole session: the designer merges and
        replays it), and say so beside the button. While a seat's game with secrets is in progress it
        asks again first (``confirmed``): the file holds the bots' hidden pieces."""
        if self.session is None or self.table is None:
            return
        if self.hides_secrets():
            if not confirmed:
                self.sent_note.value = ("Your game is not over: the file also holds the bots' hidden pieces (the "
                                        "designer needs them to replay it). Finish first, or send anyway.")
                self.send_anyway.layout.display = None
                return
            try:
                self.session.note(f"(sent back at move {self.session.move_number}, before the game was over: "
                                  "the file shows the other seats' hidden pieces from here on)")
            except (ValueError, OSError) as err:
                self.sent_note.value = f"Not sent: your session could not be saved ({str(err)[:200]})"
                return
        self.send_anyway.layout.display = "none"
        data = self.session.to_bytes()
        name = self.session.path.name if self.session.path is not None else f"{self.game.name}.playtest.json"
        self.table.board.send({"type": "download", "name": name, "mime": "application/json"}, [data])
        self.sent_note.value = f"✓ Sent: {name} ({len(data):,} bytes) is in your browser's downloads."
