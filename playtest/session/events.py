"""The table's events part of :class:`playtest.Session`: refused attempts, curtain lifts, who plays
each seat, the feedback form and the answers to it (the records are described in :mod:`.records`).

>>> import playtest
>>> session = playtest.Session("eat_thyself", clock=lambda: 0.0)
>>> session.author = "Alice"
>>> tried = {"kind": "move", "slot": 0, "card": 1, "direction": 1}
>>> refusal = session.record_refusal(tried, "move one of your own kings (rule E.1 §8)", seat=0)
>>> refusal.rule, refusal.author
('E.1 §8', 'Alice')
>>> session.set_players({1: playtest.bots.RandomBot(seed=3)})
>>> session.players[1]
{'bot': 'random', 'settings': {'seed': 3}}
>>> session.give_feedback({"fun": 4, "confused": "the card pile"}).answers
{'fun': 4, 'confused': 'the card pile'}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..journal import LIMITS, SessionSaveError
from .feedback import Feedback, FeedbackForm
from .records import (MAX_REASON, Refusal, Reveal, bot_record, build_bot, check_player, feedback_of, refusal_of,
                      rule_of)

if TYPE_CHECKING:
    from .core import Session
    from .tree import _Node

__all__ = ["SessionEvents"]

#: refused attempts kept per position at most (a person clicking a wall forty times is one confusion)
MAX_REFUSALS_HERE = 100


class SessionEvents:
    """Refusals, curtain lifts, seating and feedback: the events part of :class:`playtest.Session`."""

    # what the session provides (core.py): declared for the type checker
    _events: list[dict[str, Any]]
    _players: list[dict[str, Any]] | None
    _form: FeedbackForm | None
    _cur: _Node
    _nodes: list[_Node]
    author: str
    load_warnings: list[str]

    if TYPE_CHECKING:
        @property
        def game(self) -> Any: ...

        @property
        def to_move(self) -> int | None: ...

        def _stamp(self, floor: float | None = None) -> float | None: ...

        def _persist(self) -> None: ...

    # ------------------------------------------------------------------ writing one event
    def _event(self, kind: str, payload: dict[str, Any]) -> None:
        """Append one event record and save it (:class:`SessionSaveError`: not recorded)."""
        if len(self._events) >= LIMITS.max_notes * 4:
            raise ValueError(f"this session holds {len(self._events):,} table events: no more are recorded")
        self._events.append({kind: payload})
        try:
            self._persist()
        except SessionSaveError:
            self._events.pop()
            raise

    def _stamped(self, payload: dict[str, Any]) -> dict[str, Any]:
        """``payload`` with the time of now (``t``, seconds from the session's start), when it is known."""
        t = self._stamp(self._cur.t)
        if t is not None:
            payload["t"] = t
        return payload

    def _set_recorded(self, attribute: str, value: Any, kind: str, payload: dict[str, Any]) -> None:
        """Set a recorded setting (the seating, the feedback form) and append its event; a failed save
        puts the old value back (:class:`SessionSaveError`: nothing changed)."""
        before = getattr(self, attribute)
        setattr(self, attribute, value)
        try:
            self._event(kind, self._stamped(payload))
        except SessionSaveError:
            setattr(self, attribute, before)
            raise

    def _events_of(self, kind: str) -> list[dict[str, Any]]:
        return [record[kind] for record in self._events if kind in record]

    # ------------------------------------------------------------------ refusals
    def record_refusal(self, tried: dict[str, Any], reason: str, seat: int | None = None,
                       rule: str | None = None) -> Refusal | None:
        """Keep an attempt the table refused at the current position (never part of the line of play).

        ``tried`` is the action's JSON form, or ``{"item": id}`` for a board item clicked that the
        scene said no to; ``reason`` the refusal's message; ``rule`` the rule it cites (read from the
        message when not given). Returns what was kept, or None past
        :data:`MAX_REFUSALS_HERE` refusals at this position.
        """
        if not isinstance(tried, dict):
            raise TypeError("tried is an action's JSON form or {'item': id}")
        if not isinstance(reason, str):
            raise TypeError("reason is the refusal's message (text)")
        mover = self.to_move
        seat = seat if type(seat) is int and 0 <= seat < len(self.game.seats()) else (
            mover if type(mover) is int and mover >= 0 else None)
        here = self._cur.id
        if sum(1 for r in self._events_of("refusal") if r["node"] == here) >= MAX_REFUSALS_HERE:
            return None
        payload = self._stamped({"node": here})
        if seat is not None:
            payload["seat"] = seat
        payload["rule"] = rule_of(reason, rule)
        payload["reason"] = reason[:MAX_REASON]
        if set(tried) == {"item"}:
            item = tried["item"]
            if type(item) is not str or not 0 < len(item) <= 200:
                raise ValueError("a refused board item is named by its id (a short text)")
            payload["item"] = item
        else:
            action = self.game.action_from_json(tried)     # an attempt of this game, or not kept at all
            payload["action"] = action.to_json()
        if self.author:
            payload["author"] = self.author
        from .records import check_event
        check_event(self, "refusal", payload, len(self._events), None)
        self._event("refusal", payload)
        return refusal_of(self, payload)

    @property
    def refusals(self) -> list[Refusal]:
        """Every refused attempt kept, in the order made."""
        return [refusal_of(self, r) for r in self._events_of("refusal")]

    # ------------------------------------------------------------------ the curtain
    def record_reveal(self, seat: int) -> Reveal:
        """Keep that the curtain lifted for ``seat`` here (a seat's think time starts there)."""
        if type(seat) is not int or not 0 <= seat < len(self.game.seats()):
            raise ValueError(f"seat must be a seat from 0 to {len(self.game.seats()) - 1}, not {seat!r}")
        payload = self._stamped({"node": self._cur.id, "seat": seat})
        self._event("reveal", payload)
        return Reveal(payload["node"], seat, payload.get("t"))

    @property
    def reveals(self) -> list[Reveal]:
        """Every curtain lift kept, in order."""
        return [Reveal(r["node"], r["seat"], r.get("t")) for r in self._events_of("reveal")]

    # ------------------------------------------------------------------ who plays each seat
    @property
    def players(self) -> list[dict[str, Any]]:
        """Who plays each seat, as plain data: ``{"person": name}`` or ``{"bot": name, "settings": {...}}``
        (the session's author at every seat until :meth:`set_players` says otherwise)."""
        seats = len(self.game.seats())
        known = list(self._players or [])[:seats]
        return [dict(p) for p in known] + [{"person": self.author} for _ in range(seats - len(known))]

    def set_players(self, players: dict[int, Any]) -> None:
        """Seat players: ``{seat: bot}``, ``{seat: "Alice"}`` (a person), ``{seat: None}`` (the author).

        Seats left out are people (the author, or the person named before). Saved in the
        session file, so a resumed session (a kernel restart) seats its bots again
        (:meth:`bots`). Moves keep who played them, whatever the seating later.
        """
        if not isinstance(players, dict):
            raise TypeError("players is {seat: bot, or a person's name, or None}")
        seats = len(self.game.seats())
        current = self.players
        made = []
        for seat in range(seats):
            who = players.get(seat, None)
            if seat not in players:
                entry = current[seat] if "person" in current[seat] else {"person": self.author}
            elif who is None:
                entry = {"person": self.author}
            elif isinstance(who, str):
                entry = check_player({"person": " ".join(who.split())}, f"seat {seat}")
            elif isinstance(who, dict):
                entry = check_player(dict(who), f"seat {seat}")
            else:
                entry = bot_record(self.game, who)
            made.append(entry)
        bad = [s for s in players if type(s) is not int or not 0 <= s < seats]
        if bad:
            raise ValueError(f"no seat {bad[0]!r}: the seats are 0 to {seats - 1}")
        if made == (self._players or [{"person": self.author} for _ in range(seats)]):
            return
        self._set_recorded("_players", made, "players", {"seats": made})

    def bots(self) -> dict[int, Any]:
        """The bots the seating names, made anew from their saved settings (``{seat: bot}``).

        A bot this kit cannot make any more (a bot of a notebook's own) is left out, and said so
        in :attr:`load_warnings`.
        """
        made = {}
        for seat, entry in enumerate(self.players):
            if "bot" not in entry:
                continue
            try:
                made[seat] = build_bot(self.game, entry)
            except ValueError as err:
                message = f"seat {seat} is played by a person: {err}"
                if message not in self.load_warnings:
                    self.load_warnings.append(message)
        return made

    # ------------------------------------------------------------------ feedback
    @property
    def feedback_form(self) -> FeedbackForm:
        """The form testers answer (the designer's; :meth:`FeedbackForm.default` until set).

        Set it to a :class:`~playtest.session.feedback.FeedbackForm` or a list of questions; it
        is saved in the session file, so a tester's file carries the form it was answered with.
        """
        return self._form if self._form is not None else FeedbackForm.default()

    @feedback_form.setter
    def feedback_form(self, form: Any) -> None:
        made = FeedbackForm.of(form)
        if made == self.feedback_form and (self._form is not None or form is None):
            return
        self._set_recorded("_form", made, "form", {"questions": made.to_json()})

    def give_feedback(self, answers: dict[str, Any], author: str | None = None) -> Feedback:
        """Save a tester's answers to :attr:`feedback_form` at the current position (``author``:
        :attr:`author` by default). ``ValueError`` names an answer that does not fit its question."""
        from .core import _check_author
        form = self.feedback_form
        clean = form.check(answers)
        if not clean:
            raise ValueError("no answer given: answer at least one question")
        payload: dict[str, Any] = {"node": self._cur.id, "author": _check_author(self.author if author is None
                                                                               else author),
                                   "form": form.to_json(), "answers": clean}
        self._event("feedback", self._stamped(payload))
        return feedback_of(self, payload)

    @property
    def feedback(self) -> list[Feedback]:
        """Every feedback given, in order."""
        return [feedback_of(self, f) for f in self._events_of("feedback")]
