"""The picker: a list (or a menu) of labelled choices, for the table's move log and branch menu.

One small anywidget instead of ipywidgets' ``Select`` and ``Dropdown``: those
resend and redraw every option on every change, and validate each one in
Python, for every table of the session. The picker's choices travel as one
JSON text, made once per change and shared by every table, and the page
redraws only the rows that changed. The browser picks by message,
``{"type": "pick", "value": 7}``; anything but one of the choices is refused
and changes nothing.

A list's row may fold more below it (``details``, by the row's value): lines
of text, and ``members``, choices of their own (a move log's row standing for
several steps). The page shows a ▸ beside such a row that unfolds it; a
member is picked like any choice.

>>> from playtest.widgets.picker import Picker
>>> log = Picker()
>>> log.options = [("start", 0), ("1. ▲0↻1→1", 1)]
>>> picked = []
>>> log.observe(lambda change: picked.append(change["new"]), names="value")
>>> log.receive({"type": "pick", "value": 1})
>>> picked
[1]
>>> log.receive({"type": "pick", "value": 99})
>>> log.refused
'The page picked a choice that is not in the list (99); nothing was changed.'
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Iterable

import anywidget
import traitlets

__all__ = ["Picker", "encode_options"]

_STATIC = Path(__file__).parent / "static"


def encode_options(options: Iterable[tuple[str, int]], details: dict[int, dict[str, Any]] | None = None) -> str:
    """Choices as the JSON text the picker sends (tables showing one position share it).

    ``details`` maps a row's value to what it folds: ``{"lines": [text, ...], "members": [(label,
    value), ...]}`` (see :class:`Picker`).

    >>> encode_options([("start", 0), ("1-2. an order (2 steps)", 2)],
    ...                {2: {"members": [("1. wall d5", 1), ("2. submitted", 2)]}})
    '[["start",0],["1-2. an order (2 steps)",2,{"members":[["1. wall d5",1],["2. submitted",2]]}]]'
    """
    details = details or {}
    rows = []
    for label, value in options:
        extra = details.get(value)
        if extra:
            rows.append([label, value, {key: [list(m) for m in extra[key]] if key == "members" else list(extra[key])
                                        for key in ("lines", "members") if extra.get(key)}])
        else:
            rows.append([label, value])
    return json.dumps(rows, ensure_ascii=False, separators=(",", ":"))


class Picker(anywidget.AnyWidget):
    """Choose one of ``options`` (``(label, value)`` pairs, values whole numbers).

    ``mode`` is ``"list"`` (a scrolling list ``rows`` tall, the current choice
    highlighted and kept in view) or ``"menu"`` (a drop-down). ``value`` is
    the current choice (None: none); setting it from Python or picking in the
    page notifies observers, as with ipywidgets' selection widgets.
    """

    _esm = _STATIC / "picker.js"
    _css = _STATIC / "picker.css"

    items = traitlets.Unicode("[]").tag(sync=True)
    value = traitlets.Int(None, allow_none=True).tag(sync=True)
    mode = traitlets.Enum(("list", "menu"), "list").tag(sync=True)
    rows = traitlets.Int(12).tag(sync=True)
    description = traitlets.Unicode("").tag(sync=True)
    disabled = traitlets.Bool(False).tag(sync=True)

    def __init__(self, options: Iterable[tuple[str, int]] = (), **kwargs: Any):
        super().__init__(**kwargs)
        self._options: tuple[tuple[str, int], ...] = ()
        self._details: dict[int, dict[str, Any]] = {}
        self._members: frozenset[int] = frozenset()
        #: why the last message from the page was refused ("" when none was)
        self.refused = ""
        self._refusal_handlers: list[Callable[[str], None]] = []
        self.on_msg(lambda _w, content, _b: self.receive(content))
        self.set_options(options)

    @property
    def options(self) -> tuple[tuple[str, int], ...]:
        """The choices, ``(label, value)`` pairs."""
        return self._options

    @options.setter
    def options(self, options: Iterable[tuple[str, int]]) -> None:
        self.set_options(options)

    @property
    def details(self) -> dict[int, dict[str, Any]]:
        """What rows fold, by the row's value: ``{"lines": [...], "members": ((label, value), ...)}``."""
        return self._details

    def set_options(self, options: Iterable[tuple[str, int]], encoded: str | None = None,
                    details: dict[int, dict[str, Any]] | None = None) -> None:
        """Replace the choices (and what rows fold, ``details``).

        ``encoded`` is :func:`encode_options` of these very options and details, made once by a
        caller that built them (the table, for all the tables of a session): they are taken as
        they are. Without it the options are checked, and a bad one raises ``TypeError``.
        """
        details = details or {}
        if options is self._options and details == self._details:   # tables of a session share one
            return
        options = options if type(options) is tuple else tuple(options)
        if options == self._options and details == self._details:
            return
        if encoded is None:
            pairs = [*options, *(m for d in details.values() for m in d.get("members", ()))]
            if any(type(pair) is not tuple or len(pair) != 2 or type(pair[0]) is not str or
                   type(pair[1]) is not int for pair in pairs):
                raise TypeError("a picker's options are (label, whole number) pairs")
            encoded = encode_options(options, details)
        self._options = options
        self._details = details
        self._members = frozenset(v for d in details.values() for _, v in d.get("members", ()))
        self.items = encoded

    def on_refused(self, handler: Callable[[str], None]) -> None:
        """Call ``handler(message)`` when the page sends something the picker refuses."""
        self._refusal_handlers.append(handler)

    def receive(self, content: Any) -> None:
        """Handle one message from the page (also how tests drive the picker)."""
        value = content.get("value") if isinstance(content, dict) and content.get("type") == "pick" else None
        if type(value) is not int or self.disabled or (
                all(value != v for _, v in self._options) and value not in self._members):
            shown = repr(value) if type(value) is int and abs(value) < 10 ** 12 else "not a choice"
            self.refused = (f"The page picked a choice that is not in the list ({shown}); nothing was changed."
                            if isinstance(content, dict) and content.get("type") == "pick" else
                            "The page sent a message the list does not understand; nothing was changed.")
            for handler in list(self._refusal_handlers):
                handler(self.refused)
            return
        self.refused = ""
        self.value = value

    def __repr__(self) -> str:
        return f"Picker({len(self._options)} choices, value={self.value!r})"
