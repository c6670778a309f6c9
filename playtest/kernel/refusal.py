"""Why an action is refused: one small value, :class:`Refusal`, and the errors that carry it.

A game's ``why_not`` returns a :class:`Refusal` (the text and the rule it cites) or ``None``;
``apply`` raises :class:`IllegalAction` made from that same value, so the board's reasons, the
move a bot may not make and the error ``play`` raises all come from one decision, and nothing
ever parses a rule back out of a message.

>>> no = Refusal("a king moves exactly the value of a card", "E.1 §9")
>>> str(no)
'a king moves exactly the value of a card (rule E.1 §9)'
>>> err = IllegalAction.of(no)
>>> err.rule, err.reason
('E.1 §9', 'a king moves exactly the value of a card')
>>> err.refusal == no
True
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Refusal", "IllegalAction", "MalformedAction", "refuse"]


@dataclass(frozen=True, slots=True)
class Refusal:
    """The reason an action is not allowed: ``text`` in the game's words and the ``rule`` it
    cites (a rules-page number such as ``"A.1 §14"``, or ``""`` when no rule is numbered)."""

    text: str
    rule: str = ""

    def __str__(self) -> str:
        return f"{self.text} (rule {self.rule})" if self.rule else self.text

    def error(self) -> "IllegalAction":
        """This refusal as the exception ``apply`` and ``play`` raise."""
        return IllegalAction(self.text, rule=self.rule or None)


def refuse(text: str, rule: str = "") -> Refusal:
    """Shorthand for :class:`Refusal` in a ``why_not``: ``return refuse("that cell is taken", "T2")``.

    >>> refuse("that cell is taken", "T2")
    Refusal(text='that cell is taken', rule='T2')
    """
    return Refusal(text, rule)


class IllegalAction(ValueError):
    """An action the rules do not allow here; the message names the rule it breaks.

    >>> err = IllegalAction("a king moves exactly the value of a card", rule="E.1 §9")
    >>> str(err)
    'a king moves exactly the value of a card (rule E.1 §9)'
    """

    def __init__(self, message: str, rule: str | None = None):
        self.rule = rule
        self.reason = message
        super().__init__(f"{message} (rule {rule})" if rule else message)

    @property
    def refusal(self) -> Refusal:
        """The refusal this error carries."""
        return Refusal(self.reason, self.rule or "")

    @classmethod
    def of(cls, refusal: Refusal) -> "IllegalAction":
        """The error for ``refusal``."""
        return cls(refusal.text, rule=refusal.rule or None)


class MalformedAction(IllegalAction, TypeError):
    """Input that is not an action of this game at all (garbage JSON, a wrong type, another
    game's action); the message names the field. It is an :class:`IllegalAction`, so one
    ``except playtest.IllegalAction`` catches every refusal of ``play``.

    >>> raise MalformedAction("malformed bid action: seat must be a whole number")
    Traceback (most recent call last):
    ...
    playtest.rules.MalformedAction: malformed bid action: seat must be a whole number
    """


# where the errors have always been importable from (``playtest.rules``; ``playtest`` exports them too)
IllegalAction.__module__ = MalformedAction.__module__ = "playtest.rules"
Refusal.__module__ = "playtest"
