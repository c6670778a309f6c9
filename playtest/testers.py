"""Remote testers: the link a designer sends, and the view a tester gets.

A designer sends testers a Binder link; each tester plays in their browser without installing
anything, writes notes under their own name, and sends the session file back with the table's
download button; the designer merges every file into their own session
(:meth:`playtest.Session.merge`) and reads all the notes, by author, in its report.

>>> import playtest
>>> playtest.tester_link("owner/repo", game="source")
'https://mybinder.org/v2/gh/owner/repo/HEAD?urlpath=voila%2Frender%2Fnotebooks%2Ftesters%2Fsource.ipynb'
"""

from __future__ import annotations

import re
from urllib.parse import quote

__all__ = ["tester_link"]

_REPO = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9._-]{1,100}$")


def tester_link(repo: str, game: str | None = None, view: str = "tester", ref: str = "HEAD") -> str:
    """The Binder link for a fork ``"OWNER/REPO"`` of this kit.

    ``view="tester"`` opens a game's tester view (the table alone, served by Voila,
    ``notebooks/testers/<game>.ipynb``); ``view="lab"`` opens JupyterLab on the game's
    notebook, or on the start page without a game.
    """
    if not isinstance(repo, str) or not _REPO.match(repo):
        raise ValueError(f"repo must be written OWNER/REPO (a GitHub repository), not {str(repo)[:60]!r}")
    if view not in ("tester", "lab"):
        raise ValueError("view is 'tester' (the table alone, through Voila) or 'lab' (JupyterLab)")
    if game is not None:
        from .rules import games
        if game not in games():
            raise ValueError(f"unknown game {str(game)[:40]!r}; the games are: {', '.join(games())}")
    if view == "tester" and game is not None:
        path = f"voila/render/notebooks/testers/{game}.ipynb"
    else:
        path = f"lab/tree/notebooks/{game or '00_start_here'}.ipynb"
    if not re.match(r"^[A-Za-z0-9._/-]{1,100}$", ref):
        raise ValueError("ref is a branch, tag or commit name")
    return f"https://mybinder.org/v2/gh/{repo}/{ref}?urlpath={quote(path, safe='')}"
