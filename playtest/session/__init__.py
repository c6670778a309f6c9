"""The Session: one playtest of one game, as a tree of positions with notes, saved as it goes.

A session holds the game, a tree of positions (every move, chance result and
parameter change is an edge), the notes written at positions, and the file it
autosaves to. Undo moves up the tree, redo back down; a move played after an
undo starts a new branch and the old line stays reachable.

Chance steps (dice, draws, a scatter) are drawn with the session's seed and
recorded; undo stops before each, so a designer can force the outcome instead
(:meth:`Session.force`), and a forced outcome is marked as forced everywhere.

Whoever reads a session is a *viewer*: ``None`` (the table in hot-seat play,
no seat's secrets) or a seat. :meth:`Session.history`, :meth:`Session.report`
and the table show a viewer only what it may know; bots get a state redrawn
from their seat's knowledge. The session *file* holds the whole truth, since it
must replay through the rules: send a tester ``save(path, seat=k)`` instead.

>>> import playtest
>>> session = playtest.Session(playtest.load("eat_thyself"))
>>> first = session.legal_actions()[0]
>>> session.play(first)
>>> note = session.note("the first move eats a pawn of the other player")
>>> session.undo()
>>> session.play(session.legal_actions()[1])     # a new branch; the first line is kept
>>> len(session.branches())
2
"""

from __future__ import annotations

from ..journal import SessionFileError, SessionSaveError
from .core import Session
from .files import SessionFileWarning, _ActionCache  # noqa: F401  (_ActionCache: tests)
from .report import Report, _md_escape  # noqa: F401  (_md_escape: tests)
from .tree import Branch, Note

__all__ = ["Session", "SessionFileError", "SessionSaveError", "SessionFileWarning", "Note", "Branch",
           "Report"]
