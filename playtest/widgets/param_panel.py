"""The table's rule-parameter panel: live and new-game parameters apart, each value checked as it
is typed and its refusal shown at its field (and, for a new-game value, beside "New game with
these"); a parameter with one possible value shows no control, only a line saying so.

A typed live value (a number or a list written in a field) is checked at every key too, but it
changes the game only when it is entered: Enter in the field, or the "Apply" button that shows
beside it once the value typed there is a good one. (Each live change is a step of the session:
typing "12" must not first play "1".) A live slider, choice or checkbox applies at once.

A part of :class:`playtest.widgets.table.Table` (a mixin: it uses the table's session, board,
notice and its ``_guard``), kept apart so the table's module stays one concern.

>>> import playtest
>>> table = playtest.Table(playtest.Session("eat_thyself"))
>>> table.param_widgets["initial_faces"].value = "[2, 4"
>>> print(table.param_errors["initial_faces"].value.split(">", 1)[1][:40])
write a JSON list, for example [1, 2]</d
>>> table.new_game_button.disabled
True
>>> turns = table.param_widgets["max_turns"]        # live: checked as typed, applied when entered
>>> turns.value = "120"
>>> table.session.params.max_turns, table.param_apply["max_turns"].description
(300, 'Apply max_turns = 120')
>>> table.param_apply["max_turns"].click()
>>> table.session.params.max_turns
120
"""

from __future__ import annotations

import json
import re
from html import escape
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from ..rules import ParamSpec, show_value

__all__ = ["ParamPanel"]


class ParamPanel:
    """The parameter panel's building and events (mixed into the Table)."""

    session: Any
    board: Any
    notice: Any
    _syncing: bool
    param_widgets: dict[str, w.Widget]
    param_errors: dict[str, w.HTML]
    new_game_button: w.Button
    new_game_error: w.HTML
    _staged: dict[str, Any]
    _param_problems: dict[str, str]
    _unread: set[str]
    _pending_live: dict[str, Any]
    param_apply: dict[str, w.Button]

    if TYPE_CHECKING:       # the Table's (table.py), declared for the type checker
        def _guard(self, call: Any, *args: Any) -> bool: ...
        def refresh(self) -> None: ...
        def _designer_only(self, what: str) -> bool: ...

    def _make_param_panel(self) -> w.VBox:
        """The parameters in two parts, live then new-game, one row each (its name, its control, its
        meaning and, when a typed value is refused, why, at the field); a parameter with one possible
        value has no control, only a line saying so."""
        params = self.session.params
        parts: dict[bool, list[w.Widget]] = {True: [], False: []}
        fixed = []
        for spec in params.specs():
            control = _control_for(spec, getattr(params, spec.name))
            control.observe(lambda change, spec=spec: self._on_param(spec, change["new"]), names="value")
            self.param_widgets[spec.name] = control
            rule = f", rule {spec.rule}" if spec.rule else ""
            name = w.HTML(f'<div style="{_WRAP}"><b>{escape(spec.name)}</b></div>')
            help_text = w.HTML(f'<div style="{_WRAP} font-size: 12px; color: #6b625a">{escape(spec.help)} '
                               f"[{escape(spec.source)}{escape(rule)}]</div>")
            error = w.HTML("", layout=w.Layout(display="none"))
            error.add_class("pt-param-error")
            self.param_errors[spec.name] = error
            parts_of_row: list[w.Widget] = [name, control, error]
            if _typed_live(spec):       # entered by Enter, or by the button that shows once the value is good
                control.on_msg(lambda _w, content, _b, spec=spec:
                               self._enter_live(spec) if isinstance(content, dict)
                               and content.get("event") == "submit" else None)
                apply = w.Button(description="Apply", icon="check", layout=w.Layout(width="auto", display="none"),
                                 tooltip="Change this rule at this position (Enter in the field does the same)")
                apply.add_class("pt-param-apply")
                apply.on_click(lambda _b, spec=spec: self._enter_live(spec))
                self.param_apply[spec.name] = apply
                parts_of_row.append(apply)
            row = w.VBox([*parts_of_row, help_text], layout=w.Layout(width="auto", margin="0 0 8px 0"))
            row.add_class("pt-param")
            row.add_class(f"pt-param-{spec.name}")
            if _fixed(spec):       # nothing to choose: the row stays out of sight, a line says the value
                row.layout.display = "none"
                fixed.append(f"<b>{escape(spec.name)}</b> = {escape(show_value(getattr(params, spec.name)))}")
            parts[spec.live].append(row)
        live = w.HTML(f'<div style="{_WRAP}"><b>Live</b>: a change applies from this position when it is '
                      "entered (Enter or Apply; a slider or a choice at once); the board says when the "
                      "rules take it up.</div>")
        setup = w.HTML(f'<div style="{_WRAP} margin-top: 10px; border-top: 1px solid #e2d9ca; padding-top: 6px">'
                       "<b>New game</b>: changes wait for the button below, which starts a new game.</div>")
        self.new_game_error.add_class("pt-param-error")
        self.new_game_error.add_class("pt-new-game-error")
        new_game = w.VBox([self.new_game_button, self.new_game_error], layout=w.Layout(width="auto"))
        rows: list[w.Widget] = [live, *parts[True], setup, *parts[False], new_game]
        if fixed:
            rows.append(w.HTML(f'<div style="{_WRAP} margin-top: 8px; font-size: 12px; color: #6b625a">'
                               "Played one way only (the kit offers no other reading yet): "
                               + "; ".join(fixed) + "</div>"))
        return w.VBox(rows, layout=w.Layout(width="auto"))

    def _on_param(self, spec: ParamSpec, value: Any) -> None:
        """A value typed or chosen in the panel: checked at once (alone and with the other values),
        marked at its field when refused; a live one applies, a new-game one waits for the button.
        A table bound to a seat (a tester's) changes no parameter of the shared session."""
        if self._syncing or not self._designer_only("change parameters"):
            return
        params = self.session.params
        self._unread.discard(spec.name)
        try:
            try:
                value = _param_value(spec, value)
            except ValueError:
                self._unread.add(spec.name)         # the field's text is not a value: the last one stays
                raise
            if spec.live:
                params.replace(**{spec.name: value})
            else:
                self._staged[spec.name] = value      # kept while refused: the next value may mend it
                params.replace(**self._staged)
        except (ValueError, TypeError, RecursionError) as err:
            self._show_param_problem(spec.name, _short_error(err) if not isinstance(err, RecursionError)
                                     else "that value is nested too deeply to read")
            self._show_pending(spec.name, None)
            return
        self._show_param_problem(spec.name, "")
        if spec.live and _typed_live(spec):      # good as typed: it waits for Enter or "Apply"
            self._show_pending(spec.name, None if getattr(params, spec.name) == value else value)
        elif spec.live:
            self._apply_live(spec, value)
        else:
            if getattr(params, spec.name) == value:
                self._staged.pop(spec.name)
            for name in [n for n in self._param_problems
                         if n not in self._unread and not self.session.params.spec(n).live]:
                self._show_param_problem(name, "")      # the combination is fine now
            self.new_game_button.disabled = not self._staged
            self.notice.value = ("Setup parameter changed: " + ", ".join(
                f"{k} = {show_value(v)}" for k, v in self._staged.items())
                + ". Press 'New game with these' to start a new game.") if self._staged else ""

    def _apply_live(self, spec: ParamSpec, value: Any) -> None:
        """Change a live parameter at this position (a step of the session), or say why not at its field."""
        if self._guard(lambda: self.session.set_params(**{spec.name: value})):
            self.notice.value = (f"{spec.name} = {show_value(value)}: changed at this position "
                                 "(the board says when the rules apply it).")
        else:
            self._show_param_problem(spec.name, self.board.error.split("\n\n")[0])

    def _enter_live(self, spec: ParamSpec) -> None:
        """Enter (or "Apply") in a typed live field: the value accepted there becomes the rule; a
        refused one is named again, on the board too, and changes nothing."""
        if not self._designer_only("change parameters"):
            return
        problem = self._param_problems.get(spec.name)
        if problem:
            self.board.error = f"Rule parameters: {spec.name}: {problem}"
            return
        if spec.name in self._pending_live:
            value = self._pending_live[spec.name]
            self._show_pending(spec.name, None)
            self._apply_live(spec, value)

    def _show_pending(self, name: str, value: Any) -> None:
        """Keep ``value`` as the live value typed at ``name``'s field, waiting to be entered (``None``:
        nothing waits), and show or hide the field's "Apply" button accordingly."""
        if value is None:
            self._pending_live.pop(name, None)
        else:
            self._pending_live[name] = value
        apply = self.param_apply.get(name)
        if apply is not None:
            apply.description = "Apply" if value is None else f"Apply {name} = {show_value(value)}"[:60]
            apply.layout.display = "none" if value is None else ""

    def _show_param_problem(self, name: str, problem: str) -> None:
        """Mark (or clear) the field of parameter ``name`` with ``problem``; a refused new-game value
        is also named beside the button, which waits until every field is right."""
        if problem:
            self._param_problems[name] = problem
        else:
            self._param_problems.pop(name, None)
        error = self.param_errors.get(name)
        if error is not None:
            error.value = f'<div style="{_WRAP} {_ERROR}">{escape(problem)}</div>' if problem else ""
            error.layout.display = "" if problem else "none"
        control = self.param_widgets.get(name)
        if control is not None:
            if problem:
                control.add_class("pt-param-refused")
            else:
                control.remove_class("pt-param-refused")
        setup = {n: p for n, p in self._param_problems.items() if not self.session.params.spec(n).live}
        if setup:
            self.new_game_button.disabled = True
            self.new_game_error.value = (f'<div style="{_WRAP} {_ERROR}">Not yet: '
                                         + escape("; ".join(f"{n}: {p}" for n, p in setup.items())) + "</div>")
            self.new_game_error.layout.display = ""
        else:
            self.new_game_error.value = ""
            self.new_game_error.layout.display = "none"
        if problem:     # the board says it too: a person watching the board learns where to look
            self.board.error = f"Rule parameters: {name}: {problem}"
        elif self.board.error.startswith(f"Rule parameters: {name}: "):
            self.board.error = ""

    def _apply_staged(self) -> None:
        if not self._designer_only("change parameters"):
            return
        if any(not self.session.params.spec(n).live for n in self._param_problems):
            self.board.error = "Rule parameters: " + _strip_tags(self.new_game_error.value)
            return
        staged, self._staged = self._staged, {}
        self.new_game_button.disabled = True
        if self._guard(lambda: self.session.set_params(**staged)):
            self.notice.value = "New game: " + ", ".join(f"{k} = {show_value(v)}" for k, v in staged.items())
        else:
            self.refresh()


# ---------------------------------------------------------------------- parameter controls

#: inline style of a text that wraps in a narrow column (a widget's text is one line by default)
_WRAP = "white-space: normal; overflow-wrap: anywhere; line-height: 1.35;"
#: inline style of a refused value's reason, at its field
_ERROR = "color: #8c1d1d; font-size: 12px; background: #fdecec; border-left: 3px solid #d66; padding: 2px 6px;"


def _strip_tags(html: str) -> str:
    """The text of the small HTML this module writes (its own markup, user text escaped)."""
    import re
    from html import unescape
    return unescape(re.sub(r"<[^>]+>", "", html))


def _fixed(spec: ParamSpec) -> bool:
    """Whether the declaration allows one value only (a reading the kit does not offer an alternative to)."""
    return (spec.choices is not None and len(spec.choices) == 1) or (
        spec.min is not None and spec.max is not None and spec.min == spec.max)


def _typed_live(spec: ParamSpec) -> bool:
    """Whether a live parameter is typed in a text field (not a slider, a choice or a checkbox):
    such a value is checked at every key and applied when entered."""
    if not spec.live or spec.choices is not None or isinstance(spec.default, bool) or _fixed(spec):
        return False
    if isinstance(spec.default, int):
        return not (spec.min is not None and spec.max is not None and spec.max - spec.min <= 200)
    return True


def _control_for(spec: ParamSpec, value: Any) -> w.Widget:
    """The control of one parameter; one that cannot change anything is disabled, saying why.

    A typed value reaches the table as it is (never clamped to a range in the page), so a value out
    of range is named at its field: a new-game value at every key, a live one when it is entered
    (each live change is a step of the session)."""
    tooltip = spec.help
    if _fixed(spec):
        tooltip = (f"Only {show_value(value)} is offered: the kit plays no other reading of this rule yet, "
                   "so this control cannot change anything")
    common = {"description": "", "tooltip": tooltip, "disabled": _fixed(spec),
              "layout": w.Layout(width="auto", max_width="100%")}
    if spec.choices is not None:
        return w.Dropdown(options=[(_show(c), c) for c in spec.choices], value=value, **common)
    if isinstance(spec.default, bool):
        return w.Checkbox(value=value, indent=False, **common)
    if isinstance(spec.default, int):
        if spec.min is not None and spec.max is not None and spec.max - spec.min <= 200:
            return w.IntSlider(value=value, min=int(spec.min), max=int(spec.max), continuous_update=False, **common)
    if _typed_live(spec):
        return w.Text(value=_widget_value(spec, value), continuous_update=True, **common)
    if isinstance(spec.default, int):
        return w.IntText(value=value, continuous_update=True, **common)
    if isinstance(spec.default, float):
        return w.FloatText(value=value, continuous_update=True, **common)
    return w.Text(value=_widget_value(spec, value), continuous_update=True, **common)


def _widget_value(spec: ParamSpec, value: Any) -> Any:
    if _typed_live(spec) and isinstance(spec.default, (int, float)) and not isinstance(value, bool):
        return repr(value) if isinstance(value, float) else str(value)
    if spec.choices is None and isinstance(spec.default, tuple):
        return json.dumps(list(value), ensure_ascii=False)
    if spec.choices is None and isinstance(spec.default, dict):
        return json.dumps(value, ensure_ascii=False)
    return value


def _param_value(spec: ParamSpec, value: Any) -> Any:
    if _typed_live(spec) and isinstance(spec.default, (int, float)) and isinstance(value, str):
        text = value.strip().replace("_", "")
        if isinstance(spec.default, int):
            if not re.fullmatch(r"[+-]?\d{1,30}", text):
                raise ValueError(f"write a whole number, for example {spec.default}")
            return int(text)
        try:
            if len(text) > 60:
                raise ValueError
            return float(text)
        except ValueError:
            raise ValueError(f"write a number, for example {spec.default}") from None
    if spec.choices is None and isinstance(spec.default, (tuple, dict)) and isinstance(value, str):
        example = json.dumps(list(spec.default))[:80]
        if len(value) > 20_000:
            raise ValueError(f"that list is too long; write a JSON list, for example {example}")
        try:
            return json.loads(value)
        except (json.JSONDecodeError, RecursionError):
            raise ValueError(f"write a JSON list, for example {example}") from None
    return value


def _short_error(err: BaseException) -> str:
    """An error for the board: its message, never thousands of characters of echoed input."""
    if isinstance(err, RecursionError):
        return "That input is nested too deeply to read; nothing was changed."
    text = str(err)
    return text if len(text) <= 600 else text[:597] + "..."


def _show(value: Any) -> str:
    if isinstance(value, tuple):
        return " + ".join(_show(v) for v in value)
    return str(value)
