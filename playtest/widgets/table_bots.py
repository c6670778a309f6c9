"""The table's bots: seating them, a bot's turn or step ("Bot turn", "Bot step"), whole orders
played one part a step as a person would click them, and the wait while the last move's resolution
is watched before bots play on.

A part of :class:`playtest.widgets.table.Table` (a mixin: it plays on the table's session), kept
apart so the table's module stays one concern.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as w

from ..bots import bots_for, order_for
from ..rules import CHANCE, SIMULTANEOUS, IllegalAction
from ..session import Session
from ..session.records import bot_record

__all__ = ["TableBots"]

_PERSON = "person"
_MAX_BOT_STEPS = 5000


class TableBots:
    """The bots at the table (mixed into the Table)."""

    session: Session
    seat: int | None
    bots: dict[int, Any]
    seat_pickers: dict[int, w.Dropdown]
    seats_box: w.Box
    revealed: int | None
    _orders: dict[int, tuple[Any, Any, list[Any]]]
    _continued: Any

    if TYPE_CHECKING:       # the Table's own
        def _make_seat_pickers(self) -> dict[int, w.Dropdown]: ...
        def _keep_seating(self) -> None: ...
        def refresh(self) -> None: ...
        def _guard(self, call: Any, *args: Any) -> bool: ...
        def _designer_only(self, what: str) -> bool: ...
        def _acting_seats(self) -> list[int]: ...

    def set_bots(self, bots: dict[int, Any]) -> None:
        """Seat these bots (``{seat: bot}``); the other seats are played by whoever clicks."""
        self.bots = dict(bots)
        self.seat_pickers = self._make_seat_pickers()
        self.seats_box.children = list(self.seat_pickers.values())
        self._keep_seating()
        self._run_bots()
        self.refresh()

    def _on_seat_pick(self, seat: int, name: str) -> None:
        if not self._designer_only("seat bots"):
            return
        if name == _PERSON:
            self.bots.pop(seat, None)
            self._keep_seating()
        else:
            self.bots[seat] = bots_for(self.session.game.name)[name]()
            self._keep_seating()
            self._run_bots()

    def _bot_move_once(self, whole: bool = True) -> None:
        """The seat to act plays by its bot (or a random one): its whole turn, or one step
        (``whole=False``). A turn ends when another seat (or chance) is to act, or the game ends."""
        from ..bots import RandomBot
        seat = self.session.to_move
        if seat is None:
            raise self.session._game_over()
        if self.seat is not None and seat != self.seat:
            raise IllegalAction(f"this table plays for {self.session.game.seats()[self.seat].name} only: a bot "
                                "move for another seat is the designer's (a table not bound to a seat)")
        if seat == CHANCE:
            self.session.roll()
        else:
            if seat == SIMULTANEOUS:
                seat = self.session.game.pending_seats(self.session.state)[0]
            bot = self.bots.get(seat) or RandomBot()
            for _ in range(_MAX_BOT_STEPS if whole else 1):
                before = self._pending()
                self._play_bot(bot, seat)
                if not self._still_acting(seat, before):
                    break
        self._run_bots()

    def _play_bot(self, bot: Any, seat: int) -> None:
        """One step of ``bot`` for ``seat``. A bot that plays random whole orders, in a game that draws
        them (:func:`playtest.bots.order_for`), gives its seat's whole order at once and the table plays
        it one part a step, as the lab does (the parts a person would click, not a random walk over
        them); its next part is played while the position is the one its last part left (an undo, a
        pick in the log or another bot's move draws the order again, from what the seat has set)."""
        session = self.session
        kept = self._orders.pop(seat, None)
        unseated = seat not in self.bots          # "Bot turn" for a person's seat: a random bot, any click
        parts = kept[2] if kept is not None and kept[0] == session.node and \
            (kept[1] is bot or (unseated and kept[1] is None)) else None
        if not parts:
            drawn = order_for(bot, session.game, session.state, seat)
            parts = list(reversed(drawn)) if drawn else None
        if not parts:
            session.play_bot(bot, seat)
            return
        session.play_bot(_Part(parts.pop(), bot_record(session.game, bot)["bot"]), seat)
        if parts:
            self._orders[seat] = (session.node, None if unseated else bot, parts)

    def _pending(self) -> frozenset[int]:
        session = self.session
        return frozenset(session.game.pending_seats(session.state)) if session.to_move == SIMULTANEOUS \
            else frozenset()

    def _still_acting(self, seat: int, before: frozenset[int]) -> bool:
        """Whether ``seat``'s turn goes on after a step: it is to act again (in a round of orders:
        it has not submitted yet, and no new round began)."""
        session = self.session
        mover = session.to_move
        if mover == SIMULTANEOUS:
            now = self._pending()
            return seat in now and now <= before
        return mover == seat

    def _run_bots(self) -> None:
        """Let bots play while a bot's seat is to act (a person's seat stops them, and so does a
        resolution being watched: see :meth:`held`)."""
        for _ in range(_MAX_BOT_STEPS):
            if self.held:
                return
            mover = self.session.to_move
            if mover == SIMULTANEOUS:   # bots submit for their seats; people click for theirs
                pending = [s for s in self.session.game.pending_seats(self.session.state) if s in self.bots]
                if not pending:
                    return
                seat = pending[0]
            elif mover is None or mover == CHANCE or mover not in self.bots:
                return
            else:
                seat = mover
            if not self._guard(self._bot_plays, seat):
                return

    # ------------------------------------------------------------------ a resolution watched
    def _public_frames(self) -> list[dict]:
        """The last move's resolution at the table's viewer level (its seat, or no seat's secrets)."""
        session = self.session
        return session.memo(("playback", session.node, self.seat), lambda: session.playback(self.seat))

    @property
    def held(self) -> bool:
        """Whether play waits while the last move's resolution is watched: it has steps to play
        back at the table's viewer level, and next a curtain would go up (hot-seat play of a game
        with secrets) or a bot would act. "Continue" (:meth:`_continue`) lets play go on."""
        session = self.session
        if session.node == self._continued or session.is_over or not self._public_frames():
            return False
        mover = session.to_move
        if mover == SIMULTANEOUS:
            bot_next = any(s in self.bots for s in session.game.pending_seats(session.state))
        else:
            bot_next = mover in self.bots
        curtain_next = self.seat is None and session.game.has_secrets and bool(self._acting_seats())
        return bot_next or curtain_next

    def _continue(self) -> None:
        """Done watching the resolution: the curtain goes up for the next seat, bots play on."""
        self._continued = self.session.node
        self.revealed = None
        self.refresh()
        self._run_bots()

    def _bot_plays(self, seat: int) -> None:
        """One bot move; a bot that fails (a bug in a bot is not a rule) is named on the board."""
        bot = self.bots[seat]
        try:
            self._play_bot(bot, seat)
        except (IllegalAction, ValueError, IndexError, TypeError, OSError, RecursionError):
            raise
        except Exception as err:     # noqa: BLE001  (user code: show it, stop the bots, keep the table)
            raise ValueError(f"the bot for {self.session.game.seats()[seat].name} ({type(bot).__name__}) "
                             f"failed: {type(err).__name__}: {str(err)[:200]}") from None


class _Part:
    """The next part of a whole order a bot gave at once, played through ``Session.play_bot`` (the seat
    sees what it may know, the session checks the part and logs it) under the bot's own name."""

    needs_world = False          # handed the seat's legal actions only, never a world

    def __init__(self, part: Any, name: str):
        self.part, self.name = part, name

    def choose_from(self, actions: list[Any]) -> Any:
        return self.part

    def choose(self, game: Any, state: Any, seat: int | None = None) -> Any:
        return self.part
