"""The Table: the board plus everything a playtest needs around it.

Board; whose turn it is; undo and redo; the move log, which also jumps to any
position; a branch switcher; a parameter panel generated from the game's
declarations; notes tied to the current position; a bot for any seat.

Around any game, with no game named here:

* **viewers**: a table bound to a seat (``Table(session, seat=2)``) shows that
  seat's view and log and plays only for it. A hot-seat table (``seat=None``)
  of a game with secrets puts a curtain between seats ("Pass to East: click
  when ready") and shows each seat its own view once it clicks;
* **chance**: when chance is to move (after an undo, say), the board offers
  "Roll" and every outcome with its probability, to force one;
* **playback**: when the last move resolves step by step (its game has
  frames), a slider, step buttons and a play button show each step. A
  resolution seen by everyone (at the table's viewer level) plays before the
  next curtain goes up or a seated bot acts: "Continue" lets play go on;
* **bots**: "Bot turn" lets the seat to act (its bot, or a random one) play
  its whole turn; "Bot step" plays one step of it, to watch;
* **the move log** asks the game two optional questions (its words stay in
  its module): ``log_group(state, action, viewer)``, a label shared by
  consecutive steps shown as one row that unfolds into them ("North's
  order"), and ``log_lines(state, action, viewer)``, a step's row as its
  first line and the lines it unfolds into (a resolution board by board).

The table holds no rules: it shows a :class:`playtest.Session` and turns
clicks into session calls. Its parts live beside it, one concern a module:
the move log (:mod:`.move_log`), the parameter panel (:mod:`.param_panel`),
the bots (:mod:`.table_bots`) and the files (:mod:`.table_files`). Everything a person does here can be done from
Python on the same session, and the table follows.

>>> import playtest
>>> session = playtest.Session(playtest.load("eat_thyself"))
>>> table = playtest.Table(session)
>>> table
Table(eat_thyself: move 0, Triangle ▲ to move)
>>> option = next(iter(next(iter(table.board.scene["selects"].values())).values()))[0]
>>> table.board.receive({"type": "action", "action": option["action"]})
>>> session.move_number
1
"""

from __future__ import annotations

import json
from typing import Any

import ipywidgets as w

from ..bots import bots_for
from ..rulebook import explain
from ..rules import CHANCE, SIMULTANEOUS, IllegalAction, MalformedAction, UncountedChance, check_action_types
from ..session import Session
from .board import Board, encode_scene, send_now
from .feedback import FeedbackPanel
from .move_log import _CURRENT_LINE, MoveLog
from .param_panel import ParamPanel, _short_error, _widget_value
from .picker import Picker
from .table_bots import _PERSON, TableBots
from .table_files import TableFiles

__all__ = ["Table"]

_MAX_FORCE_BUTTONS = 24


class Table(MoveLog, ParamPanel, TableBots, TableFiles, w.VBox):
    """The composed playtest widget for ``session``.

    ``bots`` maps seats to bots (``{1: RandomBot()}``): those seats are played
    by the kit; the others by whoever clicks. ``seat`` binds the table to one
    seat: it shows what that seat may know and plays only for it (several
    testers at one game each have a table bound to their seat). By default the
    table is hot-seat: in a game with secrets a curtain goes up whenever the
    seat to act changes, and each seat sees its own view once it clicks.
    """

    def __init__(self, session: Session, bots: dict[int, Any] | None = None, seat: int | None = None,
                 **kwargs: Any):
        if not isinstance(session, Session):
            raise TypeError(f"Table needs a playtest.Session, not {session!r}")
        self.session = session
        seats = session.game.seats()
        if seat is not None and (type(seat) is not int or not 0 <= seat < len(seats)):
            raise ValueError(f"seat must be a seat of {session.game.name} from 0 to {len(seats) - 1}, "
                             f"not {seat!r}")
        #: the seat this table is bound to (None: hot-seat, whoever clicks)
        self.seat = seat
        #: in hot-seat play of a game with secrets: the seat behind the curtain now (None: curtain up)
        self.revealed: int | None = None
        self._last_primary: int | None = None
        self._frames: list[dict] = []
        self._frames_key: tuple | None = None
        # no bots given: the session's seating (saved in its file: a resumed session seats its bots again)
        self.bots: dict[int, Any] = dict(bots) if bots is not None else session.bots()
        # a bot's whole order not played yet, by seat: (the position after its last part, the bot, parts last first)
        self._orders: dict[int, tuple[int, Any, list[Any]]] = {}
        self._syncing = False
        self.board = Board()
        self.board.on_action(self._on_board_action)
        self.board.on_command(self._on_board_command)
        self.board.on_views(self._on_views)
        self.board.on_preview(self._preview)
        self.board.on_refused(self._on_refused_click)
        self._stale = False
        self._draw_problem = ""     # why the game could not draw the position shown ("" when it could)
        self._synced_params: Any = None
        self._shown_nodes: dict[int, int] = {}          # scene version -> the session's node it showed

        button = w.Layout(width="auto", min_width="84px")
        self.undo_button = w.Button(description="Undo", icon="undo", tooltip="Back one move", layout=button)
        self.redo_button = w.Button(description="Redo", icon="repeat", tooltip="Forward along this line",
                                    layout=button)
        self.bot_button = w.Button(description="Bot turn", icon="android", layout=button,
                                   tooltip="Let the seat's bot (or a random one) play the seat to act: its whole turn")
        self.bot_step_button = w.Button(description="Bot step", icon="step-forward", layout=button,
                                        tooltip="Let the seat's bot (or a random one) play one step of its turn, "
                                                "to watch a turn of several steps")
        self.undo_button.on_click(lambda _: self._designer_only("undo") and self._guard(self.session.undo))
        self.redo_button.on_click(lambda _: self._designer_only("redo") and self._guard(self.session.redo))
        self.bot_button.on_click(lambda _: self._designer_only("play") and self._guard(self._bot_move_once))
        self.bot_step_button.on_click(
            lambda _: self._designer_only("play") and self._guard(self._bot_move_once, False))
        self.notice = w.Label(value="")
        self.notice.add_class("pt-wrap")          # long notices wrap (board.css) instead of being cut

        # playback of a move that resolves step by step: play, slider, step back and forth
        self.playback_slider = w.IntSlider(value=0, min=0, max=1, description="Step",
                                           readout=True, continuous_update=True,
                                           style={"description_width": "40px"},
                                           layout=w.Layout(width="260px"))
        self.playback_play = w.Play(value=0, min=0, max=1, interval=700, description="Play",
                                    tooltip="Play the last move step by step")
        w.jslink((self.playback_play, "value"), (self.playback_slider, "value"))
        self.playback_back = w.Button(icon="step-backward", tooltip="One step back", layout=w.Layout(width="36px"))
        self.playback_next = w.Button(icon="step-forward", tooltip="One step on", layout=w.Layout(width="36px"))
        self.playback_back.on_click(lambda _: self._step_playback(-1))
        self.playback_next.on_click(lambda _: self._step_playback(+1))
        self.playback_label = w.Label(value="")
        self.playback_label.add_class("pt-wrap")
        self.playback_slider.observe(self._on_playback, names="value")
        #: a resolution everyone sees plays before the next curtain or bot: this lets play go on
        self.continue_button = w.Button(description="Continue", icon="forward", button_style="primary",
                                        layout=w.Layout(width="auto", display="none"),
                                        tooltip="Done watching: pass the table on")
        self.continue_button.on_click(lambda _: self._continue())
        #: the position whose resolution was watched and continued from (play goes on from it)
        self._continued: int | None = None
        self.playback = w.HBox([self.playback_play, self.playback_back, self.playback_slider,
                                self.playback_next, self.playback_label, self.continue_button],
                               layout=w.Layout(display="none", align_items="center", flex_flow="row wrap"))
        self.playback.add_class("pt-playback")

        self.move_log = Picker(rows=12, layout=w.Layout(width="auto"))
        self.move_log.observe(self._on_log_pick, names="value")
        self.branches = Picker(mode="menu", description="Branch", layout=w.Layout(width="auto"))
        self.branches.observe(self._on_branch_pick, names="value")
        for picker in (self.move_log, self.branches):
            picker.on_refused(lambda message: setattr(self.board, "error", message))

        self.note_box = w.Textarea(placeholder="A note about this position…", layout=w.Layout(width="auto"))
        self.note_button = w.Button(description="Add note", icon="sticky-note")
        self.note_button.on_click(lambda _: self._add_note())
        # the designer's feedback form (the session's), folded until the game ends or a tester opens it
        self.feedback = FeedbackPanel(session)
        self.feedback_panel = w.Accordion(children=[self.feedback], layout=w.Layout(width="auto"))
        self.feedback_panel.set_title(0, "Feedback")
        self.feedback_panel.selected_index = None
        self._asked_at: int | None = None

        self.seat_pickers = self._make_seat_pickers()
        self.seats_box = w.VBox(list(self.seat_pickers.values()))
        self.param_widgets: dict[str, w.Widget] = {}
        #: beside each parameter's control: why the value typed there is refused ("" when it is not)
        self.param_errors: dict[str, w.HTML] = {}
        self._staged: dict[str, Any] = {}
        self._param_problems: dict[str, str] = {}
        self._unread: set[str] = set()       # fields whose text is not a value at all
        #: a live value typed and accepted at its field, waiting for Enter or its "Apply" button
        self._pending_live: dict[str, Any] = {}
        self.param_apply: dict[str, w.Button] = {}
        self.new_game_error = w.HTML("", layout=w.Layout(display="none"))
        self.new_game_button = w.Button(description="New game with these", icon="refresh",
                                        button_style="warning", disabled=True,
                                        layout=w.Layout(width="auto"),
                                        tooltip="Setup parameters start a new game")
        self.new_game_button.on_click(lambda _: self._apply_staged())
        params_box = self._make_param_panel()

        self.save_path = w.Text(value=str(session.path or ""), placeholder="session.playtest.json",
                                description="File", style={"description_width": "36px"},
                                layout=w.Layout(flex="1 1 auto", width="auto"))
        self.save_button = w.Button(description="Save", icon="save", layout=button)
        # a session file out of a remote browser (Binder, Voila, JupyterLite) and back in
        self.download_button = w.Button(description="Download", icon="download", layout=button,
                                        tooltip="Save the session file in your browser (to send it back)")
        self.download_button.on_click(lambda _: self._guard(self.download))
        self.upload = w.FileUpload(accept=".json", multiple=True, description="Merge files",
                                   tooltip="Testers' session files: their lines and notes join this session",
                                   layout=w.Layout(width="auto"))
        self.upload.observe(self._on_upload, names="value")
        self.save_replace = w.Checkbox(value=False, description="replace a file already there (kept as .bak)",
                                       indent=False, layout=w.Layout(width="auto"))
        self.save_button.on_click(lambda _: self._guard(self._save))

        # the rule parameters next to the board, in the side column, folded until opened
        self.param_panel = w.Accordion(children=[params_box], layout=w.Layout(width="auto"))
        self.param_panel.set_title(0, "Rule parameters")
        self.param_panel.selected_index = None
        side = w.VBox([
            w.HBox([self.undo_button, self.redo_button, self.bot_button, self.bot_step_button],
                   layout=w.Layout(flex_flow="row wrap")),
            w.HTML("<b>Moves</b> <small>(pick one to jump there)</small>"),
            self.move_log, self.branches,
            w.HTML("<b>Notes</b>"), self.note_box, self.note_button, self.feedback_panel,
            w.HTML("<b>Seats</b>"), self.seats_box,
            self.param_panel,
            w.HBox([self.save_path, self.save_button]), self.save_replace,
            w.HBox([self.download_button, self.upload], layout=w.Layout(flex_flow="row wrap")),
        ], layout=w.Layout(flex="0 0 360px", width="360px", min_width="360px"))
        side.add_class("pt-side")
        # the board and the side column always side by side: the side column keeps its width, and the
        # board's own box scrolls when the board is wider than what is left (board.css), so nothing
        # jumps below the board as the content changes
        board_column = w.VBox([self.playback, self.board],
                              layout=w.Layout(flex="1 1 auto", min_width="0", width="auto"))
        top = w.HBox([board_column, side],
                     layout=w.Layout(flex_flow="row nowrap", align_items="flex-start", width="100%"))
        super().__init__([top, self.notice], **kwargs)
        self.add_class("pt-table")
        if bots is not None:
            self._keep_seating()
        if seat is not None:
            self._bind_to_seat()
        else:
            self._ask_designer_name()
        self._listener = lambda _session: self.refresh()
        session.on_change(self._listener)
        self.refresh()
        self._run_bots()

    def close(self) -> None:
        """Close the table: it stops following the session (and costs nothing from then on)."""
        session, listener = getattr(self, "session", None), getattr(self, "_listener", None)
        if session is not None and listener is not None:       # (not when __init__ refused its arguments)
            session.off_change(listener)
            if getattr(session, "_table", None) is self:
                session._table = None
            for widget in (self.board, self.move_log, self.branches, self.playback):
                widget.close()
        super().close()

    # ------------------------------------------------------------------ building
    def _make_seat_pickers(self) -> dict[int, w.Dropdown]:
        """One menu per seat: a person, or one of the bots that can play that seat (``Bot.plays``)."""
        game = self.session.game
        makers = bots_for(game.name)
        pickers = {}
        for seat, info in enumerate(game.seats()):
            current = self.bots.get(seat)
            value = _PERSON if current is None else next(
                (n for n, cls in makers.items() if isinstance(cls, type) and isinstance(current, cls)), _PERSON)
            names = [n for n, maker in makers.items() if n == value or _plays(maker, game, seat)]
            picker = w.Dropdown(options=[_PERSON] + names, value=value, description=info.name,
                                tooltip=f"Who plays {info.name}: a person, or a bot that can play this seat",
                                style={"description_width": "120px"}, layout=w.Layout(width="auto"))
            picker.observe(lambda change, seat=seat: self._on_seat_pick(seat, change["new"]), names="value")
            pickers[seat] = picker
        return pickers

    # ------------------------------------------------------------------ redraw
    @property
    def viewer(self) -> int | None:
        """Whose knowledge the table shows now: its seat, the seat behind the curtain, or None."""
        return self.seat if self.seat is not None else self.revealed

    def _acting_seats(self) -> list[int]:
        """The seats a person may act for now, the one whose turn it is first."""
        session = self.session
        game, state, mover = session.game, session.state, session.to_move
        if mover is None or mover == CHANCE:
            return []
        if mover != SIMULTANEOUS:
            return [mover] if mover not in self.bots else []
        seats = [s for s in game.pending_seats(state) if s not in self.bots]
        return seats + [s for s in range(len(game.seats()))
                        if s not in seats and s not in self.bots and game.legal_actions(state, s)]

    def _update_curtain(self) -> None:
        """Hot-seat play of a game with secrets: the curtain goes up when the seat to act changes."""
        if self.seat is not None or not self.session.game.has_secrets:
            self.revealed = None
            if self.board.curtain:
                self.board.curtain = {}
            return
        if self.held:                 # everyone watches the resolution first: no curtain yet
            self.revealed = None
            self._last_primary = None
            if self.board.curtain:
                self.board.curtain = {}
            return
        acting = self._acting_seats()
        primary = acting[0] if acting else None
        if self.revealed is not None and (self.revealed not in acting or (
                self.revealed == self._last_primary and primary != self.revealed)):
            self.revealed = None          # that seat is done: pass the table on
        self._last_primary = primary
        if self.revealed is None and primary is not None:
            names = self.session.game.seats()
            self.board.curtain = {
                "text": f"Pass to {names[primary].name}: click when ready",
                "seats": [[f"I am {names[primary].name}", primary]] +
                         [[names[s].name, s] for s in acting[1:]]}
        else:
            self.board.curtain = {}

    def _chance_buttons(self) -> list[dict]:
        """When chance is to move: roll, or (on a designer's table) force any outcome."""
        session = self.session
        buttons: list[dict[str, Any]] = [
            {"label": "🎲 Roll", "command": "roll", "title": "Draw the outcome with the session's seed"}]
        if self.seat is not None:
            return buttons
        outcomes = session.chance_outcomes()
        if isinstance(outcomes, UncountedChance):
            buttons[0]["title"] = f"Draw: {outcomes.describe}. Force an outcome from Python: session.force(...)"
            return buttons
        possible = [(o, p) for o, p in outcomes if p > 0][:_MAX_FORCE_BUTTONS]
        # the table's words hide a secret draw's value; the designer forcing it must see which is which
        words = [session.game.notation(session.state, o, None) for o, _ in possible]
        if len(set(words)) < len(words):
            words = [str(o) for o, _ in possible]
        for (outcome, probability), text in zip(possible, words):
            buttons.append({"label": f"Force: {text} ({_fraction(probability)})", "action": outcome.to_json()})
        return buttons

    @property
    def resting(self) -> bool:
        """Whether the table skips redrawing: it was on screen, and no view of it is left
        (its cell was run again or its output cleared). It catches up when a view opens."""
        return self.board.had_view and self.board.views == 0

    def _on_views(self, count: int) -> None:
        if count and self._stale:
            self.refresh()

    def refresh(self) -> None:
        """Redraw everything from the session (the board first, it is what the player watches).

        An error in the game's own code while drawing (its ``view``, ``why_not``, ``notation``)
        is shown on the board, naming the game, the error and its line, instead of leaving the
        click's handler with a traceback nobody sees and the board stale: the session keeps
        every position (undo goes back to one the game can draw)."""
        if self.resting:
            self._stale = True
            return
        self._stale = False
        self._draw_problem = ""
        try:
            self._refresh()
        except Exception as err:       # noqa: BLE001 (the game's own code, drawing a position)
            self._draw_problem = _drawing_error(self.session.game, err)
            self.board.error = self._draw_problem

    def _refresh(self) -> None:
        session = self.session
        self._update_curtain()
        viewer = self.viewer
        node = session.node
        # what the board shows depends on the viewer and the kind of table only: tables alike share
        # one scene and one encoding of it per change (session.memo is cleared by every change)
        kind = (node, viewer, self.seat is None, self.revealed is not None)
        scene, encoded = session.memo(("scene", *kind), lambda: self._scene(viewer))
        self._live_scene = scene
        self._update_playback(viewer)
        self.board.show(scene, encoded)
        self._shown_nodes[self.board.version] = node      # what a click on this version was made on
        if len(self._shown_nodes) > 64:
            del self._shown_nodes[next(iter(self._shown_nodes))]
        step = self.playback_slider.value
        if self._frames and step < len(self._frames):      # a step being watched stays on the board
            self.board.show(self._frames[step])
        if self.board.views:
            send_now()          # the board's message leaves now; the page draws while the rest is made
        self._syncing = True
        try:
            self.undo_button.disabled = not session.can_undo
            self.redo_button.disabled = not session.can_redo
            self.bot_button.disabled = session.is_over
            options, encoded, folds = session.memo(("log", node, viewer), lambda: self._log(viewer))
            with self.move_log.hold_sync():         # one message: the rows that changed, the current one
                self.move_log.set_options(options, encoded, folds)
                self.move_log.value = node
            branches, encoded, current = session.memo(("branches", node), self._branch_menu)
            with self.branches.hold_sync():
                self.branches.set_options(branches, encoded)
                self.branches.value = current
                self.branches.disabled = len(branches) < 2
            if len(session.game.seats()) != len(self.seat_pickers):   # a new game with other seats
                self.bots = {seat: bot for seat, bot in self.bots.items() if seat < len(session.game.seats())}
                self.seat_pickers = self._make_seat_pickers()
                self.seats_box.children = list(self.seat_pickers.values())
            params = session.params
            if params is not self._synced_params:     # the panel follows parameter changes only
                self._synced_params = params
                for name, control in self.param_widgets.items():
                    spec = params.spec(name)
                    value = _widget_value(spec, getattr(params, name))
                    if name not in self._staged and (control.value != value or name in self._param_problems
                                                     or name in self._pending_live) \
                            and (spec.live or name not in self._unread):
                        control.value = value
                        self._unread.discard(name)
                        self._show_param_problem(name, "")
                        self._show_pending(name, None)
        finally:
            self._syncing = False
        self._ask_feedback()

    def _ask_feedback(self) -> None:
        """When a game ends, open the feedback form once (for that ending)."""
        session = self.session
        if session.is_over and self._asked_at != session.node:
            self._asked_at = session.node
            self.feedback.build()
            self.feedback_panel.selected_index = 0

    def _keep_seating(self) -> None:
        """Save who plays each seat in the session (a resumed session seats its bots again)."""
        try:
            self.session.set_players(dict(self.bots))
        except (ValueError, TypeError, OSError) as err:
            self.notice.value = f"The seating was not saved: {_short_error(err)}"

    def _play_kept(self, action: dict, seat: int | None) -> None:
        """Play ``action``; a refusal by the rules is kept in the session (a playtest's rule confusions)."""
        try:
            self.session.play(action, seat)
        except IllegalAction as err:
            if not isinstance(err, MalformedAction):      # garbage from a page is no one's confusion
                self._keep_refusal(action, str(err), seat, err.rule)
            raise

    def _keep_refusal(self, tried: dict, reason: str, seat: int | None, rule: str | None = None) -> None:
        try:
            self.session.record_refusal(tried, reason, seat=seat, rule=rule)
        except (ValueError, TypeError, OSError):
            pass            # keeping it is a bonus: the player still sees the refusal

    def _on_refused_click(self, item: str) -> None:
        """A click the scene drawn now says no to: keep the attempt, with the scene's own reason."""
        scene = self.board.scene
        reasons = scene.get("reasons") or {}
        if item not in reasons:
            ids = {entry.get("id") for entry in scene.get("items", ()) if isinstance(entry, dict)}
            if item not in ids:
                return          # not an item of this scene: nothing a player tried
        reason = reasons.get(item) or f"Not a legal choice now. {scene.get('hint', '')}".strip()
        self._keep_refusal({"item": item}, str(reason), self.viewer)

    def _scene(self, viewer: int | None) -> tuple[dict, str]:
        """The board's scene for ``viewer`` on this kind of table, and its JSON text."""
        session = self.session
        scene = dict(session.memo(("view", session.node, viewer), lambda: session.game.view(session.state, viewer)))
        if session.to_move == CHANCE:
            scene["buttons"] = list(scene.get("buttons", [])) + self._chance_buttons()
        elif self.seat is None and self.revealed is not None:
            scene["buttons"] = list(scene.get("buttons", [])) + [
                {"label": "Hide my view", "command": "hide", "title": "Put the curtain up"}]
        notes_here = session.notes_here()
        if notes_here:
            scene["panels"] = [*scene.get("panels", []), {"title": f"Notes at move {session.move_number}",
                                                          "rows": [[n.author, n.text] if n.author else [n.text]
                                                                   for n in notes_here]}]
        return scene, encode_scene(scene)

    def _preview(self, action: dict) -> str | None:
        """The encoded scene this table will show once ``action`` (its JSON form) is played, for
        the page to draw the moment the click commits it; ``None`` when it cannot be known now.

        Only what is certain is shown ahead: no game with secrets (a seat's view could change by
        what it may not know yet), nothing when chance or several seats act, an action refused
        here, or a seat played by a bot or by another table. The scene is what :meth:`refresh`
        will draw after the move (the notes of a position played before come with that redraw),
        made once per position and action and shared by the session's tables. A preview never
        raises: whatever goes wrong making it, the click itself will meet and show.
        """
        session = self.session
        game, mover = session.game, session.to_move
        if (game.has_secrets or self.revealed is not None or self.board.curtain or mover is None
                or mover in (CHANCE, SIMULTANEOUS) or mover in self.bots
                or (self.seat is not None and self.seat != mover)
                or (self._frames and self.playback_slider.value < len(self._frames))):
            return None
        try:
            key = json.dumps(action, sort_keys=True, allow_nan=False)
        except (TypeError, ValueError):
            return None
        # kept only for legal actions: a page asking about anything else costs a refusal each time,
        # never memory
        made = session.memo(("previews", session.node, self.viewer), dict)
        if key not in made:
            scene = self._preview_scene(action)
            if scene is None:
                return None
            made[key] = scene
        return made[key]

    def _preview_scene(self, action: dict) -> str | None:
        session = self.session
        game, state = session.game, session.state
        try:
            parsed = game.action_from_json(action)
            check_action_types(parsed)
            if not isinstance(parsed, game.action_types) or game.seat_of(state, parsed) != session.to_move:
                return None
            after = game.apply(state, parsed)
            if game.to_move(after) == CHANCE:
                return None             # the session rolls on: what comes out is not known yet
            return encode_scene(game.view(after, self.viewer))
        except Exception:               # noqa: BLE001 (a refusal, or a fault the click will show)
            return None

    # ------------------------------------------------------------------ playback
    def _update_playback(self, viewer: int | None) -> None:
        held = self.held
        key = (self.session.node, viewer, self.board.curtain.get("text", ""), held)
        if key == self._frames_key:
            return
        self._frames_key = key
        # behind the curtain nothing plays back: the frames could show a seat's secrets
        had = len(self._frames)
        self._frames = [] if self.board.curtain else (
            self._public_frames() if viewer == self.seat else self.session.playback(viewer))
        self.continue_button.layout.display = "" if held else "none"
        if not had and not self._frames:        # nothing to play back, before or now: nothing to send
            return
        self._syncing_playback = True
        try:
            last = len(self._frames)
            self.playback_slider.max = max(1, last)
            self.playback_play.max = max(1, last)
            # a resolution watched before play goes on starts at its first step and plays
            start = 0 if held and last else last
            self.playback_play.playing = False
            self.playback_slider.value = start
            self.playback_play.value = start
            self.playback_label.value = self._playback_words(start)
            self.playback.layout.display = "flex" if last else "none"
            if held and last:
                self.playback_play.playing = True
        finally:
            self._syncing_playback = False

    def _playback_words(self, step: int) -> str:
        last = len(self._frames)
        if not last:
            return ""
        if self.held:
            after = self._next_words()
            return (f"step {step} of {last}" if step < last else f"the result, after {last} steps") + \
                f": press Continue when everyone has seen it{after}"
        return (f"step {step} of {last}" if step < last
                else f"the last move resolves in {last} steps: press ▶ to watch them")

    def _next_words(self) -> str:
        """What Continue leads to, in the table's words (the next seat's name comes from the game)."""
        session = self.session
        acting = self._acting_seats()
        if self.seat is None and session.game.has_secrets and acting:
            return f" (then the table passes to {session.game.seats()[acting[0]].name})"
        return " (then the bots play on)"

    def _on_playback(self, change: dict) -> None:
        if getattr(self, "_syncing_playback", False) or not self._frames:
            return
        step = change["new"]
        last = len(self._frames)
        self.playback_label.value = self._playback_words(step)
        self.board.show(self._frames[step] if step < last else self._live_scene)

    def _step_playback(self, delta: int) -> None:
        if self._frames:
            self.playback_slider.value = min(len(self._frames), max(0, self.playback_slider.value + delta))

    # ------------------------------------------------------------------ events
    def _guard(self, call: Any, *args: Any) -> bool:
        """Run a session call; show its error on the board instead of raising into the void."""
        try:
            call(*args)
        except (IllegalAction, ValueError, IndexError, TypeError, OSError, RecursionError) as err:
            # a failed save rolled the session back: redraw what it is now, with the reason; a message
            # that cites a rule brings the rule's text along (the board shows it under the message)
            self.board.error = _with_rules(self.session.game, _short_error(err))
            if isinstance(err, OSError):
                self.refresh()
            return False
        except Exception as err:        # noqa: BLE001 (the game's own code raised: say so, naming it)
            # (a message handler's traceback reaches no one in the browser; the session is unchanged)
            self.board.error = _drawing_error(self.session.game, err, "play that")
            return False
        self.board.error = self._draw_problem       # a position the game could not draw says so
        return True

    def _on_board_action(self, action: dict) -> None:
        if not self._designer_only("play"):
            return
        clicked_on = self.board.action_version
        if clicked_on is not None and clicked_on != self.board.version and \
                self._shown_nodes.get(clicked_on) != self.session.node:
            self.board.error = ("That click was made on an earlier board: the position has changed since "
                                "(a double click, or a move in between); nothing was played.")
            return
        if self.session.to_move == CHANCE:
            if self.seat is not None:
                self.board.error = "Only the designer's table forces chance outcomes; press Roll."
                return
            done = self._guard(self.session.force, action)
        elif self.held:
            self.board.error = "The last move's result is being watched: press Continue (above the board) first."
            return
        elif self.seat is None and self.session.game.has_secrets and self.revealed is None:
            self.board.error = "Lift the curtain first: the seat to act clicks its name."
            return
        else:
            done = self._guard(self._play_kept, action, self.viewer)
        if done:
            self._run_bots()

    def _on_board_command(self, name: str, seat: int | None) -> None:
        if name == "roll":
            if self._designer_only("play") and self._guard(self.session.roll):
                self._run_bots()
        elif name == "reveal":
            if self.seat is not None or seat not in self._acting_seats():
                self.board.error = "That seat cannot act now; nothing was shown."
                return
            self.revealed = seat
            self.board.error = ""
            try:
                self.session.record_reveal(seat)      # the seat's think time starts now
            except (ValueError, OSError):
                pass
            self.refresh()
        elif name == "hide":
            self.revealed = None
            self._last_primary = None
            self.refresh()

    def _on_log_pick(self, change: dict) -> None:
        if not self._syncing and change["new"] != self.session.node and not self._designer_only("jump in the log"):
            self._syncing = True
            try:
                self.move_log.value = self.session.node
            finally:
                self._syncing = False
            return
        if not self._syncing and change["new"] is not None and change["new"] != self.session.node:
            self._guard(self.session.goto, change["new"])

    def _on_branch_pick(self, change: dict) -> None:
        if not self._syncing and change["new"] not in (None, _CURRENT_LINE) and \
                not self._designer_only("switch branches"):
            return
        if not self._syncing and change["new"] not in (None, _CURRENT_LINE) and \
                change["new"] not in self.session.line():
            self._guard(self.session.goto, change["new"])

    def _add_note(self) -> None:
        if self._designer_only("write notes") and self._guard(self.session.note, self.note_box.value):
            self.note_box.value = ""

    # ------------------------------------------------------------------ a table bound to a seat
    #: the designer's controls this table refuses (by what they do): a table bound to a seat refuses
    #: them all; a tester's view refuses some (see :class:`playtest.TesterView`)
    refuses: frozenset = frozenset()

    def _designer_only(self, what: str) -> bool:
        """Whether this table may ``what``: on a table bound to a seat, what changes the shared session
        for everyone (undo, jumps, branches, parameters, bots, files) is refused, saying so."""
        if what not in self.refuses:
            return True
        if self.seat is not None:
            self.board.error = (f"This table plays for {self.session.game.seats()[self.seat].name}: to {what} "
                                "is the designer's, at a table not bound to a seat.")
        else:
            self.board.error = f"To {what} is the designer's: this view does not offer it."
        return False

    def _bind_to_seat(self) -> None:
        """A table bound to a seat shows only what that seat needs: the board, the log (to read),
        notes, Download (its own export); the designer's controls are hidden (and refused if used)."""
        self.refuses = DESIGNER_CONTROLS
        hidden = [self.undo_button, self.redo_button, self.branches, self.param_panel, self.save_path,
                  self.save_button, self.save_replace, self.upload, *self.seat_pickers.values()]
        for widget in hidden:
            widget.layout.display = "none"
        for picker in self.seat_pickers.values():
            picker.disabled = True
        self.bot_button.tooltip = "Let a bot play your seat's move, once"
        self.download_button.tooltip = "Save what your seat may know (your export) in your browser"

    def _ask_designer_name(self) -> None:
        """The designer's table asks once, at the top of its side column, for the name the
        designer's notes go under (never the machine's login): kept in the session (its file's
        header), not asked again once given."""
        self.author_box = w.Text(placeholder="your name", layout=w.Layout(flex="1 1 auto", width="auto"))
        self.author_button = w.Button(description="Use this name", icon="user", layout=w.Layout(width="auto"))
        self.author_row = w.VBox([w.HTML("<b>Your name</b> <small>(for your notes; asked once, kept in the "
                                         "session)</small>"),
                                  w.HBox([self.author_box, self.author_button])],
                                 layout=w.Layout(width="auto", margin="0 0 8px 0"))
        self.author_row.add_class("pt-author")
        self.author_button.on_click(lambda _: self._guard(self.set_author, self.author_box.value))
        side = self._side_column()
        if self.session.author in ("", "designer") and side is not None:
            side.children = (self.author_row, *side.children)

    def _side_column(self) -> Any:
        """The side column (the box with the class ``pt-side``), or None."""
        stack = list(self.children)
        while stack:
            widget = stack.pop(0)
            if "pt-side" in getattr(widget, "_dom_classes", ()):
                return widget
            stack.extend(getattr(widget, "children", ()))
        return None

    def set_author(self, name: str) -> None:
        """Write the designer's notes under ``name`` from now on, and keep it in the session file."""
        from ..session.core import _check_author
        from ..session.records import is_visible
        name = _check_author(name)
        if not is_visible(name):          # (nothing, or only zero-width characters: a name no one sees)
            raise ValueError("type a name: your notes are written under it")
        self.session.author = name
        if self.session.path is not None:
            self.session.save()              # the file's header keeps the name
        side = self._side_column()
        if side is not None:
            side.children = tuple(c for c in side.children if c is not self.author_row)
        self.notice.value = f"Your notes are written under {name}."

    def __repr__(self) -> str:
        session = self.session
        return (f"Table({session.game.name}: move {session.move_number}, "
                f"{session.game.describe_state(session.state)})")


#: what only the designer's table does (changes the shared session for everyone, or its files)
DESIGNER_CONTROLS = frozenset({"undo", "redo", "jump in the log", "switch branches", "change parameters",
                               "seat bots", "merge files", "save to a path"})

# ---------------------------------------------------------------------- helpers

def _plays(maker: Any, game: Any, seat: int) -> bool:
    """Whether the bot ``maker`` makes can play ``seat`` of ``game`` (``Bot.plays``; a bot without it can)."""
    if getattr(maker, "plays", None) is None:
        return True
    try:
        return bool(maker().plays(game, seat))
    except Exception:   # a bot that cannot even be asked is not offered
        return False


def _with_rules(game: Any, message: str, limit: int = 1600) -> str:
    """``message`` and, after a blank line, the text of each rule it cites from the game's rules page."""
    text = explain(game, message)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _fraction(probability: float) -> str:
    """A probability for a button: 1/6 when it is a simple fraction, else a percentage."""
    for denominator in range(2, 61):
        if abs(probability * denominator - round(probability * denominator)) < 1e-9:
            return f"{round(probability * denominator)}/{denominator}"
    return f"{probability:.1%}"


def _show(value: Any) -> str:
    if isinstance(value, tuple):
        return " + ".join(_show(v) for v in value)
    return str(value)


def _drawing_error(game: Any, err: BaseException, doing: str = "draw this position") -> str:
    """The board's words for an error the game's own code raised while the table drew a position (or
    played a click, ``doing``): the game, the error, and the file and line it came from (the file's
    name only: no machine path)."""
    import traceback
    frames = traceback.extract_tb(err.__traceback__)
    where = ""
    if frames:
        last = frames[-1]
        where = f" at {last.filename.replace(chr(92), '/').rsplit('/', 1)[-1]}:{last.lineno}"
    return (f"{game.title or game.name} could not {doing}: its code raised {type(err).__name__}: "
            f"{str(err)[:200]}{where}. The session keeps every position: undo goes back, and "
            f"playtest.check_game({game.name!r}) names the rule method at fault.")

