"""The serverless site: the kit in JupyterLite, a folder any static host can serve.

``./dev.sh lite`` (``python -m playtest.lite``) builds it from the package registries alone:
JupyterLite and its Pyodide kernel from PyPI, the Pyodide runtime from npm, every package the
browser kernel imports re-resolved from PyPI into local wheels, and the kit's own wheel. The site
holds the widgets' front ends, the start page, every game's notebook and tester view; opened from
any static host (GitHub Pages, or ``python -m http.server`` on a folder), it needs no server and
no network beyond that host. See :mod:`playtest.lite.build`.

>>> from playtest.lite import tester_view_address
>>> tester_view_address("https://me.github.io/kit/", "source").split("&code=")[0]
'https://me.github.io/kit/repl/index.html?kernel=python&showBanner=0&hideCodeInput=1'
"""

from __future__ import annotations

from urllib.parse import quote

__all__ = ["tester_view_address", "tester_code", "TESTER_FOLDER", "REPLAY_FOLDER", "replay_code",
           "replay_view_address", "shipped_name"]

#: where testers' session files are kept on the site (the browser's storage), from the site's root
TESTER_FOLDER = "sessions/testers"
#: where session files shipped with the site for replay links are (``--replay FILE``), from the site's root
REPLAY_FOLDER = "replays"


def tester_code(game: str) -> str:
    """The Python the tester view runs on the site: the game's :class:`playtest.TesterView`."""
    return f"import playtest\nplaytest.TesterView({game!r}, directory={TESTER_FOLDER!r})"


def tester_view_address(base_url: str, game: str) -> str:
    """The address of ``game``'s tester view on a site published at ``base_url``.

    A console (JupyterLite's REPL) that runs :func:`tester_code` by itself, its code hidden:
    the tester sees the view only.
    """
    base = base_url.rstrip("/")
    return (f"{base}/repl/index.html?kernel=python&showBanner=0&hideCodeInput=1"
            f"&code={quote(tester_code(game), safe='')}")


def shipped_name(name: str) -> str:
    """The name a session file is shipped under in the site's ``replays/`` folder: ``NAME.playtest``.
    JupyterLite's file layer parses every served file whose name ends in ``.json`` as one JSON
    document, which a session's journal (one record a line) is not; this name it serves as text.

    >>> shipped_name("source-alice-1a2b3c4d.playtest.json")
    'source-alice-1a2b3c4d.playtest'
    """
    return name[:-len(".json")] if name.endswith(".playtest.json") else name


def replay_code(query: str) -> str:
    """The Python a replay link runs on the site: :func:`playtest.replay_page` on the link's query
    (``file=replays/NAME.playtest.json&move=23``), which checks it before touching any file."""
    return f"import playtest\nplaytest.replay_page({query!r}, root='.')"


def replay_view_address(base_url: str, query: str) -> str:
    """The address of a replay on a site published at ``base_url`` (a console running
    :func:`replay_code`, its code hidden).

    >>> replay_view_address("https://me.github.io/kit", "file=replays/a.playtest.json&move=3").split("&code=")[1]
    'import%20playtest%0Aplaytest.replay_page%28%27file%3Dreplays%2Fa.playtest.json%26move%3D3%27%2C%20root%3D%27.%27%29'
    """
    base = base_url.rstrip("/")
    return (f"{base}/repl/index.html?kernel=python&showBanner=0&hideCodeInput=1"
            f"&code={quote(replay_code(query), safe='')}")
