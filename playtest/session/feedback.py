"""Feedback: the short form a tester fills in after a game, as the designer defined it.

A form is a list of questions, each plain data so it travels in the session file
with every answer (the analytics need no notebook to know what was asked). A
question has a ``name`` (a column of the feedback table), the words it ``ask``s,
and one kind of answer:

* a scale: ``{"name": "fun", "ask": "How much fun was it?", "scale": [1, 5]}``
  (a whole number from the first to the second);
* a choice: ``{"name": "length", "ask": "The game was", "choices": ["too short", "right", "too long"]}``
  (one of the texts, listed in their order);
* free text: ``{"name": "confused", "ask": "What confused you?", "text": true}``.

Every answer may be left out (the tester skips a question).

>>> form = FeedbackForm.default()
>>> [q.name for q in form.questions]
['fun', 'clarity', 'length', 'confused']
>>> form.check({"fun": 4, "length": "right"})
{'fun': 4, 'length': 'right'}
>>> form.check({"fun": 9})
Traceback (most recent call last):
...
ValueError: feedback 'fun' is a whole number from 1 to 5, not 9
>>> custom = FeedbackForm([{"name": "again", "ask": "Would you play again?", "choices": ["no", "maybe", "yes"]}])
>>> custom.to_json()[0]["choices"]
['no', 'maybe', 'yes']
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable

__all__ = ["Question", "FeedbackForm", "Feedback", "MAX_ANSWER"]

#: characters of one free-text answer at most
MAX_ANSWER = 4_000
_NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")


@dataclass(frozen=True)
class Question:
    """One question of a feedback form (see the module docstring for the three kinds)."""

    name: str
    ask: str
    scale: tuple[int, int] | None = None
    choices: tuple[str, ...] | None = None
    text: bool = False

    @property
    def kind(self) -> str:
        """``"scale"``, ``"choice"`` or ``"text"``."""
        return "scale" if self.scale is not None else "choice" if self.choices is not None else "text"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "ask": self.ask}
        if self.scale is not None:
            data["scale"] = list(self.scale)
        elif self.choices is not None:
            data["choices"] = list(self.choices)
        else:
            data["text"] = True
        return data

    @classmethod
    def from_json(cls, data: Any) -> "Question":
        """A question from its plain form; ``ValueError`` naming what is wrong."""
        if not isinstance(data, dict):
            raise ValueError(f"a feedback question is an object, not {type(data).__name__}")
        unknown = set(data) - {"name", "ask", "scale", "choices", "text"}
        if unknown:
            raise ValueError(f"a feedback question has no field {sorted(unknown)[0]!r} "
                             "(its fields are name, ask, and one of scale, choices, text)")
        name, ask = data.get("name"), data.get("ask", "")
        if type(name) is not str or not _NAME.match(name):
            raise ValueError(f"a feedback question's name is a short lower-case word (fun, clarity...), "
                             f"not {str(name)[:40]!r}")
        if type(ask) is not str or len(ask) > 300:
            raise ValueError(f"feedback question {name!r}: 'ask' is a text of at most 300 characters")
        kinds = [k for k in ("scale", "choices", "text") if k in data]
        if len(kinds) != 1:
            raise ValueError(f"feedback question {name!r} has exactly one of 'scale', 'choices' or 'text'")
        if "scale" in data:
            scale = data["scale"]
            if (not isinstance(scale, (list, tuple)) or len(scale) != 2
                    or not all(type(v) is int and -100 <= v <= 100 for v in scale) or scale[0] >= scale[1]):
                raise ValueError(f"feedback question {name!r}: 'scale' is [lowest, highest], two whole numbers "
                                 "from -100 to 100, lowest first")
            return cls(name, ask or name, scale=(scale[0], scale[1]))
        if "choices" in data:
            choices = data["choices"]
            if (not isinstance(choices, (list, tuple)) or not 2 <= len(choices) <= 12
                    or not all(type(c) is str and 0 < len(c) <= 60 for c in choices)
                    or len(set(choices)) != len(choices)):
                raise ValueError(f"feedback question {name!r}: 'choices' is a list of 2 to 12 different short texts")
            return cls(name, ask or name, choices=tuple(choices))
        if data["text"] is not True:
            raise ValueError(f"feedback question {name!r}: 'text' is true (a free-text answer)")
        return cls(name, ask or name, text=True)

    def check(self, value: Any) -> Any:
        """``value`` if it answers this question; ``ValueError`` saying what an answer is otherwise."""
        if self.scale is not None:
            lo, hi = self.scale
            if type(value) is not int or not lo <= value <= hi:
                raise ValueError(f"feedback {self.name!r} is a whole number from {lo} to {hi}, not {_shown(value)}")
            return value
        if self.choices is not None:
            if type(value) is not str or value not in self.choices:
                raise ValueError(f"feedback {self.name!r} is one of {', '.join(map(repr, self.choices))}, "
                                 f"not {_shown(value)}")
            return value
        if type(value) is not str:
            raise ValueError(f"feedback {self.name!r} is a text, not {_shown(value)}")
        value = value.strip()
        if len(value) > MAX_ANSWER:
            raise ValueError(f"feedback {self.name!r} holds at most {MAX_ANSWER:,} characters, not {len(value):,}")
        return value


class FeedbackForm:
    """The questions a tester is asked (``FeedbackForm.default()``: fun, clarity, length, what confused)."""

    def __init__(self, questions: Iterable[Question | dict[str, Any]]):
        made = []
        for q in questions:
            made.append(q if isinstance(q, Question) else Question.from_json(q))
        if not 1 <= len(made) <= 20:
            raise ValueError(f"a feedback form has 1 to 20 questions, not {len(made)}")
        names = [q.name for q in made]
        if len(set(names)) != len(names):
            raise ValueError("each question of a feedback form has a name of its own")
        self.questions: tuple[Question, ...] = tuple(made)

    @classmethod
    def default(cls) -> "FeedbackForm":
        """Fun 1-5, clarity 1-5, length (too short, right, too long), and "what confused you?"."""
        return cls([
            {"name": "fun", "ask": "How much fun was it? (1: none, 5: a lot)", "scale": [1, 5]},
            {"name": "clarity", "ask": "How clear were the rules? (1: lost, 5: clear)", "scale": [1, 5]},
            {"name": "length", "ask": "The game's length was", "choices": ["too short", "right", "too long"]},
            {"name": "confused", "ask": "What confused you?", "text": True},
        ])

    @classmethod
    def of(cls, form: "FeedbackForm | Iterable[dict[str, Any]] | None") -> "FeedbackForm":
        """``form`` as a form: a form, a list of plain questions, or None (the default form)."""
        if form is None:
            return cls.default()
        if isinstance(form, cls):
            return form
        if isinstance(form, (str, bytes, dict)) or not isinstance(form, Iterable):
            raise ValueError("a feedback form is a list of questions (see playtest.session.feedback)")
        return cls(form)

    def to_json(self) -> list[dict[str, Any]]:
        return [q.to_json() for q in self.questions]

    def question(self, name: str) -> Question:
        for q in self.questions:
            if q.name == name:
                return q
        raise ValueError(f"the feedback form has no question {name!r}; its questions are: "
                         f"{', '.join(q.name for q in self.questions)}")

    def check(self, answers: Any) -> dict[str, Any]:
        """The answers, checked (a skipped question is left out; an empty text counts as skipped)."""
        if not isinstance(answers, dict):
            raise ValueError(f"feedback answers are an object of answers by question, not {type(answers).__name__}")
        clean: dict[str, Any] = {}
        for name, value in answers.items():
            if type(name) is not str:
                raise ValueError("feedback answers are named by their question")
            if value is None:
                continue
            value = self.question(name).check(value)
            if value != "":
                clean[name] = value
        return clean

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FeedbackForm) and other.questions == self.questions

    def __hash__(self) -> int:
        return hash(self.questions)

    def __repr__(self) -> str:
        return f"FeedbackForm({', '.join(q.name for q in self.questions)})"


@dataclass(frozen=True)
class Feedback:
    """A tester's answers, at a position (``node``), with its author and time (seconds from the start)."""

    node: int
    move: int
    author: str
    answers: dict[str, Any]
    form: FeedbackForm
    t: float | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"node": self.node, "author": self.author, "form": self.form.to_json(),
                                "answers": dict(self.answers)}
        if self.t is not None:
            data["t"] = self.t
        return data


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
