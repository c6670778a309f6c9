"""The feedback form at the table: the designer's questions, answered and saved in the session.

The form is the session's (:attr:`playtest.Session.feedback_form`: the designer sets it in the
notebook; fun, clarity, length and "what confused you?" by default). A scale or a choice is a row
of buttons, free text a text box; every question may be skipped. "Send feedback" saves the answers
in the session file, under the session's author, at the current position.

>>> import playtest
>>> from playtest.widgets.feedback import FeedbackPanel
>>> session = playtest.Session("source")
>>> panel = FeedbackPanel(session)
>>> panel.controls["fun"].value = "4"
>>> panel.controls["confused"].value = "when may I pass?"
>>> panel.send_button.click()
>>> session.feedback[-1].answers
{'fun': 4, 'confused': 'when may I pass?'}
"""

from __future__ import annotations

from html import escape
from typing import Any

import ipywidgets as w

from ..session import Session
from ..session.feedback import FeedbackForm

__all__ = ["FeedbackPanel"]


class FeedbackPanel(w.VBox):
    """The session's feedback form as widgets, with a "Send feedback" button."""

    def __init__(self, session: Session, **kwargs: Any):
        self.session = session
        self.controls: dict[str, w.Widget] = {}
        self.form: FeedbackForm | None = None
        self.send_button = w.Button(description="Send feedback", icon="comment", button_style="info",
                                    tooltip="Saved in the session file with your name, at this position")
        self.send_button.on_click(lambda _: self.send())
        self.message = w.Label(value="")
        self.message.add_class("pt-wrap")
        super().__init__([], layout=w.Layout(width="auto"), **kwargs)
        self.add_class("pt-feedback")
        self.build()

    def build(self) -> None:
        """(Re)make the controls from the session's form (after the designer changed it)."""
        form = self.session.feedback_form
        if form == self.form and self.controls:
            return
        self.form = form
        self.controls = {}
        rows: list[w.Widget] = []
        for q in form.questions:
            label = w.HTML(f'<div style="white-space: normal; overflow-wrap: anywhere">{escape(q.ask)}</div>')
            if q.kind == "text":
                control: w.Widget = w.Textarea(placeholder="(optional)", layout=w.Layout(width="auto"))
            else:
                options = ([str(v) for v in range(q.scale[0], q.scale[1] + 1)] if q.scale is not None
                           else list(q.choices or ()))
                control = w.ToggleButtons(options=options, value=None, style={"button_width": "auto"},
                                          layout=w.Layout(width="auto", flex_flow="row wrap"))
            control.add_class(f"pt-feedback-{q.name}")
            self.controls[q.name] = control
            rows.append(w.VBox([label, control], layout=w.Layout(margin="0 0 6px 0")))
        self.children = [*rows, self.send_button, self.message]

    def answers(self) -> dict[str, Any]:
        """What the controls hold now, as answers (a skipped question is left out)."""
        out: dict[str, Any] = {}
        for q in self.form.questions if self.form is not None else ():
            value = self.controls[q.name].value
            if value is None or (isinstance(value, str) and not value.strip()):
                continue
            out[q.name] = int(value) if q.scale is not None else value
        return out

    def send(self) -> bool:
        """Save the answers in the session; say so (or what is wrong) under the button."""
        try:
            feedback = self.session.give_feedback(self.answers())
        except (ValueError, TypeError, OSError) as err:
            text = str(err)
            self.message.value = text if len(text) <= 300 else text[:297] + "..."
            return False
        for control in self.controls.values():
            control.value = "" if isinstance(control, w.Textarea) else None
        who = f" as {feedback.author}" if feedback.author else ""
        count = len(feedback.answers)
        self.message.value = (f"Thank you: {count} answer{'' if count == 1 else 's'} saved in the session{who} "
                              f"(at move {feedback.move}).")
        return True
