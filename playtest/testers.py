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

A replay link ("look at move 23") opens a recorded session read-only at a move, the same three
ways (:func:`replay_link`):

>>> import os, tempfile
>>> folder = os.path.join(tempfile.mkdtemp(), "notebooks", "sessions", "testers")
>>> s = playtest.Session("source", seed=1, path=os.path.join(folder, "source-alice.playtest.json"))
>>> for _ in range(3): s.play(s.legal_actions()[0])
>>> playtest.replay_link(s, move=2)
'http://localhost:8888/voila/render/testers/replay.ipynb?file=sessions%2Ftesters%2Fsource-alice.playtest.json&move=2'
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlencode, urlparse

if TYPE_CHECKING:
    from .kernel.game import Game
    from .session import Session

__all__ = ["tester_link", "replay_link", "write_tester_notebook"]

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
            from .kernel.registry import game_class
            try:
                game_class(game)
            except (KeyError, ValueError, TypeError):
                raise ValueError(f"unknown game {str(game)[:40]!r}; the games are: {', '.join(games())}") from None
            if view != "tester" or via == "lite":    # (a tester's page imports it: see below)
                raise ValueError(
                    f"{game!r} is registered with listed=False: "
                    + ("the serverless site carries the listed games only" if via == "lite" else
                       f"there is no notebooks/{game}.ipynb of the kit's for view='lab'")
                    + f". A tester opens notebooks/testers/{game}.ipynb: write it with "
                    f"playtest.write_tester_notebook(YourGame) (a game in a module of your own; setup= for the "
                    f"code that imports it otherwise), then ask for view='tester' (docs/adding_a_game.md, section 13)")
    if view == "tester" and game is not None and via == "lite":
        from .kernel.registry import game_class
        module = str(getattr(game_class(game), "__module__", ""))
        if not module.startswith("playtest."):
            raise ValueError(f"{game!r} is your own game ({module}): the serverless site carries the kit's games "
                             f"only (its browser has the kit's wheel, not your module), so the page would say "
                             f"the game is unknown. Send a via='local' or a Binder link: write the page with "
                             f"playtest.write_tester_notebook(...) (docs/adding_a_game.md, section 13)")
    if view == "tester" and game is not None and via != "lite":
        page = TESTER_NOTEBOOKS / f"{game}.ipynb"
        if TESTER_NOTEBOOKS.is_dir() and not page.exists():
            raise ValueError(f"notebooks/testers/{game}.ipynb does not exist, so the link would open a missing page: "
                             f"write it with playtest.write_tester_notebook({game!r}, setup=...) (the code that "
                             f"defines or imports your game), commit it, then ask for the link")
    if via != "binder":
        base = _base(via, base_url)
        if via == "lite":
            from .lite import tester_view_address
            if view == "tester" and game is not None:
                return tester_view_address(base, game)
            notebook = f"{game or '00_start_here'}.ipynb"
            return f"{base}/lab/index.html?path={quote(notebook, safe='')}"
        if view == "tester" and game is not None:
            return f"{base}/voila/render/testers/{game}.ipynb"
        return f"{base}/lab/tree/{game or '00_start_here'}.ipynb"
    if view == "tester" and game is not None:
        path = f"voila/render/notebooks/testers/{game}.ipynb"
    else:
        path = f"lab/tree/notebooks/{game or '00_start_here'}.ipynb"
    return _binder(repo, ref, path)


#: the tester pages of this checkout (absent where the kit is installed as a package)
TESTER_NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks" / "testers"


def write_tester_notebook(game: "str | Game[Any, Any, Any] | type", setup: str | None = None, *,
                          directory: "str | os.PathLike[str] | None" = None, replace: bool = False) -> Path:
    """Write ``<directory>/<game>.ipynb``, the page a tester's link opens (:func:`tester_link`): the
    game's title, what to do, and a cell that makes the game known (``setup``) and shows its
    :class:`~playtest.TesterView`. Returns the file's path.

    ``game`` is a registered game's name, or the game (or its class). ``setup`` is the code that
    defines or imports it in the tester's fresh kernel: for a class written in a module of your
    own it defaults to ``import <module>``; a game written in a notebook cell needs it said (put
    the class in a module beside the notebooks, and ``setup="import my_game"``). ``directory``
    defaults to this checkout's ``notebooks/testers``; a file already there is kept unless
    ``replace=True``.

    >>> import os, tempfile, json, playtest
    >>> folder = tempfile.mkdtemp()
    >>> path = playtest.write_tester_notebook("source", directory=folder)
    >>> print(os.path.basename(path)); print(json.load(open(path))["cells"][1]["source"])
    source.ipynb
    import playtest
    <BLANKLINE>
    playtest.TesterView("source", directory="../sessions/testers")
    """
    import json

    from .kernel.game import Game as _Game
    from .kernel.registry import game_class
    if isinstance(game, str):
        try:
            cls = game_class(game)
        except (KeyError, ValueError, TypeError):
            from .rules import games
            raise ValueError(f"unknown game {game[:40]!r}: register it first (the games are: "
                             f"{', '.join(games())})") from None
    elif isinstance(game, _Game) or (isinstance(game, type) and issubclass(game, _Game)):
        cls = game if isinstance(game, type) else type(game)
    else:
        raise ValueError(f"game is a registered game's name or the game, not {type(game).__name__}")
    name = str(getattr(cls, "name", ""))
    try:
        registered = game_class(name) is cls
    except (KeyError, ValueError, TypeError):
        registered = False
    if not registered:
        raise ValueError(f"{cls.__name__} is not registered under its name {name!r}: decorate it with @register")
    module = cls.__module__
    if setup is None:
        if module.startswith("playtest.") or module == "playtest":
            setup = ""
        elif module in ("__main__", "builtins") or module.startswith("__"):
            raise ValueError(f"{name} is defined in this notebook, which a tester's kernel does not run: put the "
                             f"class in a module beside the notebooks (my_game.py) and pass setup=\"import my_game\"")
        else:
            setup = f"import {module}"
    if not isinstance(setup, str):
        raise ValueError(f"setup is the code that defines or imports the game, as text, not {type(setup).__name__}")
    if directory is None:
        if not TESTER_NOTEBOOKS.is_dir():
            raise ValueError("directory: where to write the page (the kit is installed as a package here, so "
                             "there is no notebooks/testers of its own)")
        directory = TESTER_NOTEBOOKS
    folder = Path(directory)
    path = folder / f"{name}.ipynb"
    if path.exists() and not replace:
        raise ValueError(f"{path.name} exists already in {folder.name}/ (kept): pass replace=True to write it again")
    title = str(getattr(cls, "title", "") or name)
    text = (f"# {title}: play it and send it back\n\n"
            "Type your name, choose your seat (or hot-seat, every seat at one screen), and press\n"
            "**Start playing**. Click the board to play; write notes beside it (they go under your name).\n"
            "Everything is saved as you go, in this site's `sessions/testers` folder (one file per tester). "
            "When you are done, press **Send back** and send the file your\nbrowser saved to the designer.")
    # the page runs in its own folder (notebooks/testers): a game's module beside the notebooks is found
    # from the folder above it, as the designer's own notebooks find it
    found = "import sys\n\nsys.path.insert(0, \"..\")   # the notebooks folder, where your game's module is\n"
    code = (found + setup.rstrip() + "\n" if setup.strip() else "") + "import playtest\n\n" + \
        f"playtest.TesterView({json.dumps(name)}, directory=\"../sessions/testers\")"
    notebook = {"cells": [{"cell_type": "markdown", "id": "tester-intro", "metadata": {}, "source": text},
                          {"cell_type": "code", "execution_count": None, "id": "tester-view", "metadata": {},
                           "outputs": [], "source": code}],
                "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                             "language_info": {"name": "python"}},
                "nbformat": 4, "nbformat_minor": 5}
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def _base(via: str, base_url: str | None) -> str:
    if base_url is None and via == "local":
        base_url = "http://localhost:8888"
    if not isinstance(base_url, str) or urlparse(base_url).scheme not in ("http", "https") or \
            not urlparse(base_url).netloc or any(c in base_url for c in "?#\"' <>"):
        raise ValueError(f"base_url is the address the {'site is published' if via == 'lite' else 'server runs'}"
                         f" at, like https://you.github.io/kit/, not {str(base_url)[:60]!r}")
    return base_url.rstrip("/")


def _binder(repo: str | None, ref: str, path: str) -> str:
    if not isinstance(repo, str) or not _REPO.match(repo):
        raise ValueError(f"repo must be written OWNER/REPO (a GitHub repository), not {str(repo)[:60]!r}")
    if not isinstance(ref, str) or not re.match(r"^[A-Za-z0-9._/-]{1,100}$", ref):
        raise ValueError("ref is a branch, tag or commit name")
    return f"https://mybinder.org/v2/gh/{repo}/{ref}?urlpath={quote(path, safe='')}"


#: the replay page under Voila, from the notebooks folder (it reads files under that folder)
REPLAY_NOTEBOOK = "testers/replay.ipynb"


def replay_link(source: "str | os.PathLike[str] | Session", move: int | None = None, *, via: str = "local",
                base_url: str | None = None, repo: str | None = None, ref: str = "HEAD",
                seat: int | None = None) -> str:
    """A link that opens the recorded session ``source`` (a session file, or a session with one)
    read-only at ``move`` (the move number the table shows: "look at move 23"), with the replay's
    step controls; ``seat`` shows it as that seat saw it.

    The file is checked now (it must replay through the rules, and ``move`` and ``seat`` be in
    it); the page checks it again, as a stranger's file. Where the page finds it:

    * ``via="local"`` (Voila under ``./dev.sh lab``, ``base_url`` ``http://localhost:8888`` by
      default) and ``via="binder"`` (``repo="OWNER/REPO"``, and the file committed there): the
      file must be under the ``notebooks`` folder the server shows (``notebooks/sessions/...``,
      ``notebooks/sample_playtests/...``); the link names it by its path from there.
    * ``via="lite"`` (``base_url``: the published site): the file is shipped with the site,
      in its ``replays/`` folder, by ``./dev.sh lite --replay FILE`` (or added to a built site
      with ``python -m playtest.lite --no-build --replay FILE --out SITE``, no rebuild); the
      link names ``replays/<its name>`` (``NAME.playtest``: the site's file layer would parse a
      ``.json`` name as one JSON document). It works offline, like the rest of the site.
    """
    from .session import Session, SessionFileError
    from .widgets.replay import _FILE
    if via not in ("binder", "local", "lite"):
        raise ValueError("via is 'local' (Voila under your JupyterLab), 'binder' (mybinder.org builds the "
                         "repository) or 'lite' (the serverless site, ./dev.sh lite)")
    if isinstance(source, Session):
        if source.path is None:
            raise ValueError("this session has no file: save it first (session.save(path)), a replay link "
                             "opens a file")
        path = Path(source.path)
    elif isinstance(source, (str, os.PathLike)):
        path = Path(source)
    else:
        raise TypeError(f"replay_link takes a session file's path or a session, not {type(source).__name__}")
    try:
        session = Session.read(path)
    except SessionFileError:
        raise
    except OSError as err:
        raise ValueError(f"cannot read the session file {path.name!r}: {err.strerror or err}") from None
    from .widgets.replay import moves_of
    last = moves_of(session)[-1]
    if move is not None and (type(move) is not int or not 0 <= move <= last):
        raise ValueError(f"move must be from 0 to {last} (the moves of the line played), not {move!r}")
    seats = len(session.game.seats())
    if seat is not None and (type(seat) is not int or not 0 <= seat < seats):
        raise ValueError(f"seat must be from 0 to {seats - 1}, not {seat!r}")
    if via == "lite":
        from .lite import shipped_name
        file = f"replays/{shipped_name(path.name)}"
    else:
        resolved = path.resolve()
        notebooks = next((p for p in resolved.parents if p.name == "notebooks"), None)
        if notebooks is None:
            raise ValueError(f"the replay page reads files under the notebooks folder the server shows: put "
                             f"{path.name!r} in notebooks/sessions/ (or, for the serverless site, via='lite')")
        file = resolved.relative_to(notebooks).as_posix()
    if not _FILE.match(file):
        raise ValueError(f"a replay link names a file NAME.playtest.json with letters, digits, '_', '-' and '.' "
                         f"only: rename {path.name!r}")
    query = urlencode({"file": file, **({"move": move} if move is not None else {}),
                       **({"seat": seat} if seat is not None else {})})
    if via == "lite":
        from .lite import replay_view_address
        return replay_view_address(_base(via, base_url), query)
    if via == "local":
        return f"{_base(via, base_url)}/voila/render/{REPLAY_NOTEBOOK}?{query}"
    return _binder(repo, ref, f"voila/render/notebooks/{REPLAY_NOTEBOOK}?{query}")
