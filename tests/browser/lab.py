"""Drive a real JupyterLab in a real (headless) Chromium.

This module has no pytest dependency so scripts (``benchmarks/latency.py``)
can use it too.  The pytest fixtures live in ``tests/browser/conftest.py``.

Pieces:

* :func:`find_chromium` / :func:`launch_chromium` - locate and start Chromium
  with Playwright's sync API (no ``playwright install``; the system browser).
* :class:`LabServer` - ``python -m jupyter lab`` on 127.0.0.1, a free port, a
  random token, a temp copy of a directory as ``root_dir`` and an isolated
  Jupyter config/data/runtime/settings/workspaces tree (so no first-run
  dialogs, news or update checks, and no user state leaks in).
* :func:`write_notebook` - write a notebook *with kernelspec metadata* (without
  it Lab asks for a kernel in a modal dialog that blocks every click).
* :class:`LabNotebook` - one notebook open in its own browser context, with
  ``run_all()``, ``restart_kernel()``, ``cell_output_text(i)``, ``wait_for()``,
  ``run_code()`` and friends.  Menus are used by their labels, as a person
  would.

Example::

    with LabServer(serve_dir) as server, sync_playwright() as pw:
        browser = launch_chromium(pw, find_chromium())
        server.write_notebook("demo.ipynb", ["print(1 + 1)"])
        nb = LabNotebook.open(server, browser, "demo.ipynb")
        nb.run_all()
        assert nb.cell_output_text(0) == "2"
        nb.close()
        browser.close()
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path
from typing import Any, Iterable, Sequence

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}

# Skipped when copying the directory to serve.
_COPY_IGNORE = shutil.ignore_patterns(
    ".git", ".venv", "venv", "__pycache__", ".ipynb_checkpoints", ".pytest_cache",
    "node_modules", "*.pyc",
)

# Lab user settings written into a temp JUPYTERLAB_SETTINGS_DIR.
_USER_SETTINGS = {
    # No news question, no update check, no toasts covering the page.
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false",
        "checkForUpdates": False,
        "doNotDisturbMode": True,
    },
    # Every cell stays in the DOM (no virtualised notebook), so selectors on
    # far-away cells work and widgets render even when off screen.
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {
        "windowingMode": "none",
    },
}

# <JUPYTER_CONFIG_DIR>/labconfig/page_config.json: plugins disabled the way
# `jupyter labextension disable` does it, and no "build needed?" check (a
# multi-second server call on every page load that a test never needs).
_PAGE_CONFIG = {
    "disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True},
    "buildCheck": False,
    "buildAvailable": False,
}


# LabServer(ws_nodelay=True) starts the server with the kit's own setting,
# playtest.server.NoDelayKernelWebsocketConnection: TCP_NODELAY on kernel
# websockets. jupyter_server leaves Nagle's algorithm on there, so a kernel
# message written right after another one waits for the browser's delayed
# ACK: ~40 ms on every kernel round trip. Off by default, to measure what users
# of a stock server get.
_WS_NODELAY_CONFIG = (
    'c.ServerApp.kernel_websocket_connection_class = "playtest.server.NoDelayKernelWebsocketConnection"\n'
)


class LabError(RuntimeError):
    """The server or the page did not do what was expected."""


class CellError(LabError):
    """A cell produced an error output."""


# --------------------------------------------------------------------------
# Chromium


def find_chromium() -> str | None:
    """Path of a Chromium binary, or None.

    Order: env ``PLAYTEST_CHROMIUM``, ``chromium`` on PATH, ``/usr/bin/chromium``.
    A ``PLAYTEST_CHROMIUM`` that is set but not an executable file gives None
    (the caller's message should say so), it does not fall back silently.
    """
    env = os.environ.get("PLAYTEST_CHROMIUM", "").strip()
    if env:
        return env if _is_executable(env) else None
    for cand in (shutil.which("chromium"), "/usr/bin/chromium"):
        if cand and _is_executable(cand):
            return cand
    return None


def _is_executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def launch_chromium(playwright, executable_path: str, *, headless: bool = True, **kwargs):
    """Launch Chromium with the flags this machine needs (no network, no GPU)."""
    args = list(CHROMIUM_ARGS) + list(kwargs.pop("args", []))
    return playwright.chromium.launch(
        executable_path=executable_path, headless=headless, args=args, **kwargs
    )


# --------------------------------------------------------------------------
# Notebooks on disk


def notebook_json(cells: Iterable[str | dict]) -> dict:
    """An nbformat 4.5 notebook dict; a ``str`` cell is a code cell."""
    out = []
    for c in cells:
        if isinstance(c, str):
            c = {"cell_type": "code", "source": c}
        c = dict(c)
        kind = c.setdefault("cell_type", "code")
        c.setdefault("id", uuid.uuid4().hex[:8])
        c.setdefault("metadata", {})
        if kind == "code":
            c.setdefault("execution_count", None)
            c.setdefault("outputs", [])
        out.append(c)
    return {
        "cells": out,
        "metadata": {
            "kernelspec": dict(KERNELSPEC),
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def write_notebook(path: str | os.PathLike, cells: Iterable[str | dict]) -> Path:
    """Write a notebook whose metadata names the ``python3`` kernel."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(notebook_json(cells), indent=1), encoding="utf-8")
    return path


# --------------------------------------------------------------------------
# The server


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _children_map() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read().decode(errors="replace")
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        kids.setdefault(ppid, []).append(int(entry))
    return kids


def _descendants(pid: int) -> list[int]:
    """All descendant pids (Linux /proc); kernels run in their own sessions,
    so killing the server's process group alone would leave them behind."""
    kids = _children_map()
    out, todo = [], [pid]
    while todo:
        for k in kids.get(todo.pop(), []):
            out.append(k)
            todo.append(k)
    return out


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie is dead for our purposes
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return True


class LabServer:
    """A JupyterLab server for tests.

    ``serve_dir`` (optional) is copied into a fresh temp ``root`` which is the
    server's ``root_dir``; tests may write more files into ``root`` at any
    time (``write_notebook``, ``copy_in``).  ``pythonpath`` entries are put on
    the kernels' ``PYTHONPATH`` (e.g. the repo root, so ``import playtest``
    works without installing it).  ``ws_nodelay=True`` turns Nagle's
    algorithm off on kernel websockets (see ``_WS_NODELAY_CONFIG``).
    """

    def __init__(
        self,
        serve_dir: str | os.PathLike | None = None,
        *,
        python: str = sys.executable,
        pythonpath: Sequence[str | os.PathLike] = (),
        env: dict[str, str] | None = None,
        extra_args: Sequence[str] = (),
        startup_timeout: float = 90.0,
        ws_nodelay: bool = False,
    ) -> None:
        self.serve_dir = Path(serve_dir) if serve_dir else None
        self.python = python
        self.pythonpath = [str(Path(p).resolve()) for p in pythonpath]
        self.extra_env = dict(env or {})
        self.extra_args = list(extra_args)
        self.startup_timeout = startup_timeout
        self.ws_nodelay = ws_nodelay
        self.token = secrets.token_hex(24)
        self.port: int | None = None
        self.proc: subprocess.Popen | None = None
        self.tmp: Path | None = None
        self.root: Path | None = None
        self.log_path: Path | None = None
        self.startup_seconds: float | None = None
        self._log_file = None

    # -- lifecycle ---------------------------------------------------------

    def __enter__(self) -> "LabServer":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def start(self) -> "LabServer":
        if self.proc is not None:
            return self
        t0 = time.monotonic()
        self.tmp = Path(tempfile.mkdtemp(prefix="playtest-lab-"))
        self.root = self.tmp / "root"
        if self.serve_dir is not None:
            shutil.copytree(self.serve_dir, self.root, ignore=_COPY_IGNORE, symlinks=True)
        else:
            self.root.mkdir()
        env = self._prepare_env()
        self.log_path = self.tmp / "server.log"
        last_error = None
        for _attempt in range(3):  # the free port can be taken between probe and bind
            self.port = _free_port()
            self._log_file = open(self.log_path, "ab")
            self.proc = subprocess.Popen(
                self._command(),
                cwd=self.root,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=self._log_file,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # own process group: killpg on stop
            )
            try:
                self._wait_ready(t0 + self.startup_timeout)
                self.startup_seconds = time.monotonic() - t0
                return self
            except LabError as e:
                last_error = e
                self._kill()
                if "already in use" not in self.log_text():
                    break  # only a lost race for the port is worth a retry
        log = self.log_text()[-4000:]
        self._cleanup_dirs()
        raise LabError(f"{last_error}\n--- server log (tail) ---\n{log}")

    def stop(self) -> None:
        """Shut kernels and server down; kill what is left; delete temp dirs."""
        proc = self.proc
        if proc is not None and proc.poll() is None:
            # Kernels run in sessions of their own: note them now, while they
            # are still the server's children, to kill any that outlive it.
            pids = _descendants(proc.pid)
            try:  # graceful: the server shuts its kernels down itself
                self.api("POST", "/api/shutdown", timeout=5)
                proc.wait(timeout=10)
            except Exception:
                pass
            self._kill(pids)
        else:
            self._kill()
        self._cleanup_dirs()

    def _kill(self, pids: Sequence[int] = ()) -> None:
        """SIGTERM, then SIGKILL, the server's process group and ``pids``."""
        proc, self.proc = self.proc, None
        if proc is not None:
            pids = list(pids) + (_descendants(proc.pid) if proc.poll() is None else [])
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:  # start_new_session: the group id is the server's pid
                    os.killpg(proc.pid, sig)
                except (ProcessLookupError, PermissionError):
                    pass
                for pid in pids:
                    if _alive(pid):
                        try:
                            os.kill(pid, sig)
                        except (ProcessLookupError, PermissionError):
                            pass
                deadline = time.monotonic() + 5
                while time.monotonic() < deadline:
                    if proc.poll() is not None and not any(_alive(p) for p in pids):
                        break
                    time.sleep(0.05)
                else:
                    continue  # still alive: escalate
                break
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None

    def _cleanup_dirs(self) -> None:
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None
        if self.tmp is not None and os.environ.get("PLAYTEST_KEEP_LAB_TMP") is None:
            shutil.rmtree(self.tmp, ignore_errors=True)
        self.tmp = None

    def _prepare_env(self) -> dict[str, str]:
        assert self.tmp is not None
        jdir = self.tmp / "jupyter"
        dirs = {
            "JUPYTER_CONFIG_DIR": jdir / "config",
            "JUPYTER_DATA_DIR": jdir / "data",
            "JUPYTER_RUNTIME_DIR": jdir / "runtime",
            "JUPYTERLAB_SETTINGS_DIR": jdir / "lab-settings",
            "JUPYTERLAB_WORKSPACES_DIR": jdir / "lab-workspaces",
            "IPYTHONDIR": jdir / "ipython",
        }
        for d in dirs.values():
            d.mkdir(parents=True, exist_ok=True)
        for rel, data in _USER_SETTINGS.items():
            p = dirs["JUPYTERLAB_SETTINGS_DIR"] / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(json.dumps(data, indent=1))
        if self.ws_nodelay:
            (dirs["JUPYTER_CONFIG_DIR"] / "jupyter_server_config.py").write_text(_WS_NODELAY_CONFIG)
        labconfig = dirs["JUPYTER_CONFIG_DIR"] / "labconfig"
        labconfig.mkdir()
        (labconfig / "page_config.json").write_text(
            json.dumps(_PAGE_CONFIG, indent=1)
        )
        env = dict(os.environ)
        for name in ("JUPYTER_TOKEN", "JUPYTER_PATH", "JUPYTER_PREFER_ENV_PATH", "JPY_SESSION_NAME"):
            env.pop(name, None)
        env.update({k: str(v) for k, v in dirs.items()})
        # Kernels: the kernelspec's "python" is replaced by the server's own
        # interpreter (jupyter_client), and the venv's share/jupyter comes
        # before system dirs, so python3 resolves to this venv.
        env["JUPYTER_PREFER_ENV_PATH"] = "1"
        bindir = str(Path(self.python).parent)
        env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
        if self.pythonpath:
            old = env.get("PYTHONPATH")
            env["PYTHONPATH"] = os.pathsep.join(self.pythonpath + ([old] if old else []))
        env.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
        env.update(self.extra_env)
        return env

    def _command(self) -> list[str]:
        assert self.root is not None and self.port is not None
        return [
            self.python, "-m", "jupyter", "lab",
            "--no-browser",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={self.port}",
            "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={self.root}",
            "--ServerApp.allow_remote_access=False",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.expose_app_in_browser=True",
            "--ServerApp.terminals_enabled=False",
            "--LabApp.extension_manager=readonly",  # never asks PyPI
            *(["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []),
            *self.extra_args,
        ]

    def _wait_ready(self, deadline: float) -> None:
        assert self.proc is not None
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise LabError(f"jupyter lab exited with code {self.proc.returncode}")
            try:
                status = self.api("GET", "/api/status", timeout=2)
                if isinstance(status, dict):
                    # The lab page itself must answer too (extension loaded).
                    with self._open("GET", "/lab", timeout=5) as r:
                        if r.status == 200:
                            return
            except (OSError, urllib.error.URLError, LabError):
                pass
            time.sleep(0.1)
        raise LabError(f"jupyter lab did not answer within {self.startup_timeout:.0f}s")

    # -- HTTP --------------------------------------------------------------

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, path: str = "/lab", **query: str) -> str:
        """Absolute URL with the token, e.g. ``url("/lab/tree/x.ipynb")``."""
        q = {"token": self.token, **query}
        sep = "&" if "?" in path else "?"
        return f"{self.base_url}{path}{sep}{urllib.parse.urlencode(q)}"

    def notebook_url(self, name: str) -> str:
        return self.url("/lab/tree/" + urllib.parse.quote(name), reset="")

    def _open(self, method: str, path: str, body: Any = None, timeout: float = 10):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base_url + path, data=data, method=method)
        req.add_header("Authorization", f"token {self.token}")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        return urllib.request.urlopen(req, timeout=timeout)

    def api(self, method: str, path: str, body: Any = None, timeout: float = 10) -> Any:
        """Call the server's REST API (token in a header); JSON or None."""
        if self.port is None:
            raise LabError("server not started")
        with self._open(method, path, body, timeout) as r:
            raw = r.read()
        if not raw:
            return None
        try:
            return json.loads(raw)
        except ValueError:
            return raw.decode(errors="replace")

    def sessions(self) -> list[dict]:
        return self.api("GET", "/api/sessions") or []

    def shutdown_sessions(self, path: str | None = None) -> None:
        """Delete sessions (and their kernels): all, or those of one notebook."""
        for s in self.sessions():
            if path is None or s.get("path") == path:
                try:
                    self.api("DELETE", f"/api/sessions/{s['id']}")
                except urllib.error.HTTPError:
                    pass

    # -- files ---------------------------------------------------------------

    def write_notebook(self, name: str, cells: Iterable[str | dict]) -> Path:
        """Write ``root/name`` as a python3 notebook; returns its path."""
        assert self.root is not None, "server not started"
        return write_notebook(self.root / name, cells)

    def copy_in(self, src: str | os.PathLike, name: str | None = None) -> Path:
        """Copy a file or directory into the served root."""
        assert self.root is not None, "server not started"
        src = Path(src)
        dst = self.root / (name or src.name)
        if src.is_dir():
            shutil.copytree(src, dst, ignore=_COPY_IGNORE, dirs_exist_ok=True)
        else:
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
        return dst

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace") if self.log_path else ""
        except OSError:
            return ""


# --------------------------------------------------------------------------
# A notebook in the browser

# JS: the active notebook's DOM node.
_NB = "document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook')"

# Installs a MutationObserver that records every code cell whose input prompt
# changed (each executed cell goes through "[*]" to "[n]", so its prompt
# mutates at least once, even if the final number equals the old one).
_JS_ARM = """
(key) => {
  const nb = %s;
  if (!nb) throw new Error('no notebook in the page');
  const st = { seen: new Set(), last: performance.now(), obs: null };
  st.obs = new MutationObserver((records) => {
    for (const r of records) {
      const t = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      if (t && t.closest('.jp-InputPrompt')) {
        const cell = t.closest('.jp-Cell');
        if (cell) { st.seen.add(cell); st.last = performance.now(); }
      }
    }
  });
  st.obs.observe(nb, { subtree: true, childList: true, characterData: true });
  window.__ptRuns = window.__ptRuns || {};
  window.__ptRuns[key] = st;
}
""" % _NB

# True once: kernel idle, no "[*]" prompt, and every non-empty code cell in
# ``which`` (indexes, or all when null) has had its prompt rewritten.
_JS_DONE = """
([key, which]) => {
  const st = (window.__ptRuns || {})[key];
  const nb = %s;
  if (!st || !nb) return false;
  const panel = nb.closest('.jp-NotebookPanel');
  const ind = panel && panel.querySelector('.jp-Notebook-ExecutionIndicator');
  if (ind && ind.getAttribute('data-status') !== 'idle') return false;
  const cells = Array.from(nb.querySelectorAll('.jp-Cell'));
  const picked = which ? which.map(i => cells[i]).filter(Boolean) : cells;
  for (const c of cells) {
    const p = c.querySelector('.jp-InputPrompt');
    if (p && p.textContent.includes('*')) return false;
  }
  for (const c of picked) {
    if (!c.classList.contains('jp-CodeCell')) continue;
    const src = c.querySelector('.cm-content');
    if (src && src.textContent.trim() === '') continue;
    if (!st.seen.has(c)) return false;
  }
  return performance.now() - st.last > 50;
}
""" % _NB

_JS_DISARM = """
(key) => {
  const st = (window.__ptRuns || {})[key];
  if (st) { st.obs.disconnect(); delete window.__ptRuns[key]; }
}
"""

# Error outputs of the active notebook, read from the model (needs
# --LabApp.expose_app_in_browser, which LabServer sets).
_JS_ERRORS = """
() => {
  const app = window.jupyterapp;
  const w = app && app.shell && app.shell.currentWidget;
  const model = w && w.content && w.content.model;
  if (!model) return null;
  const out = [];
  for (let i = 0; i < model.cells.length; i++) {
    const cell = model.cells.get(i);
    if (cell.type !== 'code') continue;
    const outputs = cell.outputs;
    for (let j = 0; j < outputs.length; j++) {
      const o = outputs.get(j).toJSON();
      if (o.output_type === 'error') out.push([i, o.ename, o.evalue, (o.traceback || []).join('\\n')]);
    }
  }
  return out;
}
"""

# The kernel's status: the status bar item reads "<kernel name> | Idle" and
# the notebook toolbar's execution indicator has data-status="idle".
_JS_STATUS_ITEMS = "Array.from(document.querySelectorAll('.jp-StatusBar-Widget .jp-StatusBar-TextItem'))"
_JS_INDICATOR = (
    "document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook-ExecutionIndicator')"
)
_JS_IS_IDLE_TEXT = "(t) => /\\|\\s*Idle\\s*$/.test(t)"

_JS_KERNEL_IDLE = """
() => {
  const isIdle = %s;
  const bar = %s.some((e) => isIdle(e.textContent));
  const ind = %s;
  return bar && (!ind || ind.getAttribute('data-status') === 'idle');
}
""" % (_JS_IS_IDLE_TEXT, _JS_STATUS_ITEMS, _JS_INDICATOR)

# While opening: 'idle', or the text of a dialog in the way, or false (wait).
_JS_OPEN_STATE = """
() => {
  const d = document.querySelector('.jp-Dialog');
  if (d) return 'dialog: ' + d.innerText;
  const isIdle = %s;
  return %s.some((e) => isIdle(e.textContent)) ? 'idle' : false;
}
""" % (_JS_IS_IDLE_TEXT, _JS_STATUS_ITEMS)

# Before a restart: watch the status bar and the indicator, and note any
# state that is not idle, so a quick restart is not mistaken for none.
_JS_RESTART_ARM = """
() => {
  const isIdle = %s;
  const st = window.__ptRestart = { sawBusy: false, obs: null };
  const check = () => {
    const ind = %s;
    if (%s.some((e) => e.textContent.includes('|') && !isIdle(e.textContent))
        || (ind && ind.getAttribute('data-status') !== 'idle')) st.sawBusy = true;
  };
  st.obs = new MutationObserver(check);
  const bar = document.querySelector('.jp-StatusBar-Widget') || document.body;
  st.obs.observe(bar, { subtree: true, childList: true, characterData: true });
  const ind = %s;
  if (ind) st.obs.observe(ind, { attributes: true });
}
""" % (_JS_IS_IDLE_TEXT, _JS_INDICATOR, _JS_STATUS_ITEMS, _JS_INDICATOR)

_JS_RESTART_SEEN = "() => !!(window.__ptRestart && window.__ptRestart.sawBusy)"
_JS_RESTART_DISARM = "() => { const st = window.__ptRestart; if (st) st.obs.disconnect(); }"

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


class LabNotebook:
    """One notebook open in Lab, in its own browser context.

    Timeouts are in seconds.  Cell indexes count all cells (code, markdown,
    raw) in notebook order, like the ``.ipynb`` file.
    """

    def __init__(self, server: LabServer, context, page, name: str) -> None:
        self.server = server
        self.context = context
        self.page = page
        self.name = name
        self.console: list[str] = []
        page.on("console", lambda m: self.console.append(f"{m.type}: {m.text}"))
        page.on("pageerror", lambda e: self.console.append(f"pageerror: {e}"))

    # -- opening / closing ---------------------------------------------------

    @classmethod
    def open(
        cls,
        server: LabServer,
        browser,
        name: str,
        *,
        timeout: float = 90.0,
        viewport: dict | None = None,
    ) -> "LabNotebook":
        """Open ``/lab/tree/<name>?token=…`` and wait for the kernel to be Idle."""
        context = browser.new_context(viewport=viewport or {"width": 1400, "height": 1000})
        page = context.new_page()
        nb = cls(server, context, page, name)
        try:
            page.goto(server.notebook_url(name), wait_until="domcontentloaded",
                      timeout=timeout * 1000)
            page.wait_for_selector(".jp-NotebookPanel .jp-Notebook .jp-Cell",
                                   timeout=timeout * 1000)
            # A modal dialog now (typically "Select Kernel" for a notebook
            # without kernelspec metadata) would block every click: say so.
            state = page.wait_for_function(
                _JS_OPEN_STATE, timeout=timeout * 1000, polling=100,
            ).json_value()
            if state != "idle":
                raise LabError(
                    f"a dialog blocks {name!r} (notebook without kernelspec "
                    f"metadata? use write_notebook): {state!r}"
                )
            nb.wait_kernel_idle(timeout=timeout)
        except Exception:
            nb.close()
            raise
        return nb

    def close(self, *, shutdown_kernel: bool = True) -> None:
        """Close the browser context and (by default) the notebook's kernel."""
        try:
            self.context.close()
        except Exception:
            pass
        if shutdown_kernel and self.server.proc is not None:
            try:
                self.server.shutdown_sessions(self.name)
            except Exception:
                pass

    def __enter__(self) -> "LabNotebook":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- status --------------------------------------------------------------

    def kernel_status(self) -> str:
        """The status bar's kernel text, e.g. ``"Python 3 (ipykernel) | Idle"``."""
        loc = self.page.locator(".jp-StatusBar-Widget .jp-StatusBar-TextItem",
                                has_text="|")
        return loc.first.inner_text(timeout=2000) if loc.count() else ""

    def wait_kernel_idle(self, timeout: float = 60.0) -> None:
        """Wait for "Idle" in the status bar and the toolbar's indicator."""
        self.page.wait_for_function(_JS_KERNEL_IDLE, timeout=timeout * 1000, polling=100)

    # -- menus ---------------------------------------------------------------

    def menu(self, *labels: str) -> None:
        """Click a main-menu path by labels, e.g. ``menu("Run", "Run All Cells")``."""
        page = self.page
        self.close_menus()
        top, *rest = labels
        page.locator("li.lm-MenuBar-item", has=page.locator(
            f'.lm-MenuBar-itemLabel:text-is("{top}")')).click()
        for i, label in enumerate(rest):
            menu = page.locator(".lm-Menu").last
            item = menu.locator("li.lm-Menu-item:not(.lm-mod-disabled)", has=page.locator(
                f'.lm-Menu-itemLabel:text-is("{label}")'))
            item.wait_for(state="visible", timeout=10_000)
            if i == len(rest) - 1:
                item.click()
            else:
                item.hover()
                page.wait_for_function(
                    "n => document.querySelectorAll('.lm-Menu').length >= n", arg=i + 2)

    def close_menus(self) -> None:
        for _ in range(5):
            if not self.page.locator(".lm-Menu").count():
                return
            self.page.keyboard.press("Escape")
            self.page.wait_for_timeout(50)

    def accept_dialog(self, timeout: float = 10.0) -> str:
        """Click the accept button of the open dialog; returns the dialog's text."""
        dialog = self.page.locator(".jp-Dialog").last
        dialog.wait_for(state="visible", timeout=timeout * 1000)
        text = dialog.inner_text()
        dialog.locator(".jp-Dialog-button.jp-mod-accept").click()
        dialog.wait_for(state="detached", timeout=timeout * 1000)
        return text

    # -- running -------------------------------------------------------------

    def _arm(self) -> str:
        key = uuid.uuid4().hex
        self.page.evaluate(_JS_ARM, key)
        return key

    def _wait_done(self, key: str, which: list[int] | None, timeout: float) -> None:
        try:
            self.page.wait_for_function(_JS_DONE, arg=[key, which],
                                        timeout=timeout * 1000, polling=50)
        finally:
            try:
                self.page.evaluate(_JS_DISARM, key)
            except Exception:
                pass

    def run_all(self, *, timeout: float = 120.0, check: bool = True) -> float:
        """Run menu > "Run All Cells", wait until every cell ran; seconds taken.

        With ``check`` a cell's error output raises :class:`CellError`.
        """
        t0 = time.monotonic()
        key = self._arm()
        self.menu("Run", "Run All Cells")
        self._wait_done(key, None, timeout)
        if check:
            self.raise_for_errors()
        return time.monotonic() - t0

    def restart_kernel(self, *, clear_outputs: bool = False, timeout: float = 60.0) -> None:
        """Kernel menu > "Restart Kernel…" (or "… and Clear Outputs of All
        Cells…"), confirm the dialog, wait for the kernel to be idle again."""
        label = ("Restart Kernel and Clear Outputs of All Cells…" if clear_outputs
                 else "Restart Kernel…")
        page = self.page
        page.evaluate(_JS_RESTART_ARM)
        try:
            self.menu("Kernel", label)
            self.accept_dialog()
            try:
                page.wait_for_function(_JS_RESTART_SEEN, timeout=10_000, polling=20)
            except Exception:
                pass  # restarted faster than we could see; the idle wait still holds
        finally:
            page.evaluate(_JS_RESTART_DISARM)
        self.wait_kernel_idle(timeout=timeout)

    def add_cell(self, code: str) -> int:
        """Append a code cell with ``code`` at the end; returns its index."""
        page = self.page
        n = self.cell_count()
        last = self.cells().nth(n - 1)
        last.locator(".jp-InputPrompt").first.click()  # select it, command mode
        page.keyboard.press("Escape")
        page.keyboard.press("b")  # insert below
        page.wait_for_function("n => %s.querySelectorAll('.jp-Cell').length > n" % _NB, arg=n)
        cell = self.cells().nth(n)
        cell.locator(".cm-content").click()
        page.keyboard.insert_text(code)  # insert_text: no auto-closed brackets
        return n

    def run_cell(self, i: int, *, timeout: float = 60.0, check: bool = True) -> str:
        """Run cell ``i`` (Ctrl+Enter, stays put); returns its output text."""
        cell = self.cells().nth(i)
        cell.locator(".cm-content").click()
        key = self._arm()
        self.page.keyboard.press("Control+Enter")
        self._wait_done(key, [i], timeout)
        if check:
            self.raise_for_errors()
        return self.cell_output_text(i)

    def run_code(self, code: str, *, timeout: float = 60.0, check: bool = True) -> str:
        """Type ``code`` into a new cell at the end, run it, return its output text."""
        return self.run_cell(self.add_cell(code), timeout=timeout, check=check)

    # -- reading ---------------------------------------------------------------

    def cells(self):
        """Locator of all cells of the open notebook, in order."""
        return self.page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell")

    def cell_count(self) -> int:
        return self.cells().count()

    def cell(self, i: int):
        return self.cells().nth(i)

    def cell_output(self, i: int):
        """Locator of cell ``i``'s output area."""
        return self.cell(i).locator(".jp-OutputArea")

    def cell_output_text(self, i: int) -> str:
        """Visible text of cell ``i``'s outputs, without the ``[n]:`` prompts:
        each output's text stripped, joined by newlines ("" if none)."""
        texts = self.cell(i).locator(".jp-OutputArea-output").all_inner_texts()
        return "\n".join(t.strip() for t in texts).strip()

    def errors(self) -> list[tuple[int, str, str, str]]:
        """``(cell index, ename, evalue, traceback)`` of every error output."""
        errs = self.page.evaluate(_JS_ERRORS)
        if errs is None:  # no app object: fall back to the DOM
            errs = []
            texts = self.page.locator(
                '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'
            ).all_inner_texts()
            errs = [(-1, "Error", t, t) for t in texts if "Traceback" in t or "Error" in t]
        return [(i, e, v, _ANSI.sub("", tb)) for i, e, v, tb in errs]

    def raise_for_errors(self) -> None:
        errs = self.errors()
        if errs:
            i, ename, evalue, tb = errs[0]
            raise CellError(f"cell {i} raised {ename}: {evalue}\n{tb}")

    def wait_for(self, selector: str, *, timeout: float = 30.0, state: str = "visible"):
        """Wait for ``selector`` in the page; returns a Locator of its first match."""
        loc = self.page.locator(selector).first
        loc.wait_for(state=state, timeout=timeout * 1000)
        return loc

    def screenshot(self, path: str | os.PathLike, **kw) -> Path:
        self.page.screenshot(path=str(path), **kw)
        return Path(path)


__all__ = [
    "CHROMIUM_ARGS", "KERNELSPEC", "CellError", "LabError", "LabNotebook",
    "LabServer", "find_chromium", "launch_chromium", "notebook_json", "panel_rows", "write_notebook",
]


_JS_PANEL = """
([rootSel, title]) => {
  const root = document.querySelector(rootSel);
  if (!root) return null;
  for (const t of root.querySelectorAll('table.pt-panel')) {
    const cap = t.querySelector('caption');
    if (cap && cap.textContent === title) {
      return [...t.querySelectorAll('tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));
    }
  }
  return null;
}
"""


def panel_rows(page, root_selector: str, title: str) -> list[list[str]] | None:
    """The rows (cell texts) of the board panel captioned ``title`` under ``root_selector``; None if absent."""
    return page.evaluate(_JS_PANEL, [root_selector, title])


_JS_LOG = """
async (scope) => {
  // the log redraws in the frame after the board's: wait until two looks, a frame apart, agree
  const root = typeof scope === 'string' ? document.querySelector(scope) : scope;
  const settle = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const look = () => {
    const list = root ? root.querySelector('.pt-picker-list .pt-picker-rows') : null;
    const rows = list ? Array.from(list.querySelectorAll('.pt-picker-row')) : [];
    const current = rows.findIndex((e) => e.classList.contains('pt-current'));
    return {options: rows.map((e) => e.textContent), index: current,
            selected: current >= 0 ? rows[current].textContent : null};
  };
  let last = null;
  for (let i = 0; i < 60; i++) {
    await settle();
    await new Promise((r) => setTimeout(r, 25));
    const now = look();
    if (last !== null && JSON.stringify(now) === JSON.stringify(last)) return now;
    last = now;
  }
  return last;
}
"""


def log_state(where, scope: str = ".pt-table") -> dict:
    """The move log of the first table matching ``scope`` in the page ``where`` (or of the table
    ``where`` itself, a locator), once it has settled:
    ``{"options": [entry texts], "selected": the current entry's text, "index": its place}``."""
    if hasattr(where, "goto"):         # a page
        return where.evaluate(_JS_LOG, scope)
    return where.evaluate(_JS_LOG)


def log_entries(page, scope: str = ".pt-table") -> list[str]:
    """The move log's entries (see :func:`log_state`)."""
    return log_state(page, scope)["options"]


def board_version(page, svg: str = "svg.pt-svg") -> int:
    """The redraw counter of the first board matching ``svg`` (its ``data-version``, written after
    each drawing); 0 before the first."""
    v = page.locator(svg).first.get_attribute("data-version")
    return int(v) if v else 0


def wait_board_version_above(page, v0: int, svg: str = "svg.pt-svg", timeout: float = 20.0) -> int:
    """Wait until the first board matching ``svg`` has drawn a scene newer than ``v0``; its version."""
    page.wait_for_function(
        "([sel, v]) => { const s = document.querySelector(sel);"
        " return !!s && Number(s.getAttribute('data-version') || 0) > v; }",
        arg=[svg, v0], timeout=timeout * 1000, polling=50)
    return board_version(page, svg)
