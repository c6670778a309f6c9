"""Remote testers: the link a designer sends, and the view a tester gets.

A designer sends testers a link; each tester plays in their browser without installing
anything, writes notes under their own name, and sends the session file back with "Send back";
the designer merges every file into their own session (:meth:`playtest.Session.merge`) and
reads all the notes, by author, in its report. Three ways to serve the tester view:

* ``via="binder"``: Binder builds the repository (public, minutes of waiting) and Voila shows
  the view;
* ``via="local"``: Voila under the designer's own JupyterLab (``./dev.sh lab``), for testers
  who can reach that machine;
* ``via="lite"``: the serverless site (``./dev.sh lite``) published on any static host: the
  kit runs in the tester's browser, with no server at all.

>>> import playtest
>>> playtest.tester_link("owner/repo", game="source")
'https://mybinder.org/v2/gh/owner/repo/HEAD?urlpath=voila%2Frender%2Fnotebooks%2Ftesters%2Fsource.ipynb'
>>> playtest.tester_link(game="source", via="local")
'http://localhost:8888/voila/render/testers/source.ipynb'
>>> playtest.tester_link(game="source", via="lite", base_url="https://me.github.io/kit").split("&code=")[0]
'https://me.github.io/kit/repl/index.html?kernel=python&showBanner=0&hideCodeInput=1'
"""

from __future__ import annotations

import re
from urllib.parse import quote, urlparse

__all__ = ["tester_link"]

_REPO = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9._-]{1,100}$")


def tester_link(repo: str | None = None, game: str | None = None, view: str = "tester", ref: str = "HEAD", *,
                via: str = "binder", base_url: str | None = None) -> str:
    """The link to send testers: the Binder link for a fork ``"OWNER/REPO"`` of this kit, or
    (``via``) the address on the designer's own server or on the published serverless site.

    ``view="tester"`` opens a game's tester view (the table alone: Voila shows
    ``notebooks/testers/<game>.ipynb``; on the serverless site a console runs the same view,
    its code hidden); ``view="lab"`` opens JupyterLab on the game's notebook, or on the start
    page without a game. ``base_url`` is where the site or server is: required for
    ``via="lite"`` (the published site's address), ``http://localhost:8888`` by default for
    ``via="local"``.
    """
    if via not in ("binder", "local", "lite"):
        raise ValueError("via is 'binder' (mybinder.org builds the repository), 'local' (Voila under your "
                         "JupyterLab) or 'lite' (the serverless site, ./dev.sh lite)")
    if view not in ("tester", "lab"):
        raise ValueError("view is 'tester' (the table alone) or 'lab' (JupyterLab)")
    if game is not None:
        from .rules import games
        if game not in games():
            raise ValueError(f"unknown game {str(game)[:40]!r}; the games are: {', '.join(games())}")
    if via != "binder":
        if base_url is None and via == "local":
            base_url = "http://localhost:8888"
        if not isinstance(base_url, str) or urlparse(base_url).scheme not in ("http", "https") or \
                not urlparse(base_url).netloc or any(c in base_url for c in "?#\"' <>"):
            raise ValueError(f"base_url is the address the {'site is published' if via == 'lite' else 'server runs'}"
                             f" at, like https://you.github.io/kit/, not {str(base_url)[:60]!r}")
        base = base_url.rstrip("/")
        if via == "lite":
            from .lite import tester_view_address
            if view == "tester" and game is not None:
                return tester_view_address(base, game)
            notebook = f"{game or '00_start_here'}.ipynb"
            return f"{base}/lab/index.html?path={quote(notebook, safe='')}"
        if view == "tester" and game is not None:
            return f"{base}/voila/render/testers/{game}.ipynb"
        return f"{base}/lab/tree/{game or '00_start_here'}.ipynb"
    if not isinstance(repo, str) or not _REPO.match(repo):
        raise ValueError(f"repo must be written OWNER/REPO (a GitHub repository), not {str(repo)[:60]!r}")
    if view == "tester" and game is not None:
        path = f"voila/render/notebooks/testers/{game}.ipynb"
    else:
        path = f"lab/tree/notebooks/{game or '00_start_here'}.ipynb"
    if not re.match(r"^[A-Za-z0-9._/-]{1,100}$", ref):
        raise ValueError("ref is a branch, tag or commit name")
    return f"https://mybinder.org/v2/gh/{repo}/{ref}?urlpath={quote(path, safe='')}"
