"""Binder, checked (issue 13): the environment built the way mybinder.org builds it, from ``binder/``
alone, serves the kit.

A fresh virtual environment gets ``binder/requirements.txt``; then ``binder/postBuild`` runs from
a clean copy of the repository (as repo2docker runs it, with a home of its own); JupyterLab is
started from that environment alone (no path to this checkout), ``notebooks/00_start_here.ipynb``
runs top to bottom, and a move is played on its table by clicking. The kit's server setting comes
with the install (the wheel's ``etc/jupyter/jupyter_server_config.d/playtest.json``, which enables
``playtest.server``): it is checked to be in the environment and to name a module it can import.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import lab

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
ROOT = ".pt-table .pt-root"


def run(cmd, **kw) -> None:
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=1200, **kw)
    assert done.returncode == 0, f"{cmd} failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"


@pytest.fixture(scope="module")
def binder_env(tmp_path_factory, chromium_path):
    """(python of the built environment, the repository copy it was built from)."""
    base = tmp_path_factory.mktemp("binder")
    repo = base / "repo"
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO, capture_output=True, check=True).stdout
    for name in filter(None, files.decode().split("\0")):
        source = REPO / name
        if source.is_file():
            target = repo / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read_bytes())
            target.chmod(source.stat().st_mode)
    venv = base / "venv"
    run([sys.executable, "-m", "venv", str(venv)])
    python = str(venv / "bin" / "python")
    home = base / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}",
           "VIRTUAL_ENV": str(venv)}
    env.pop("PYTHONPATH", None)
    run([python, "-m", "pip", "install", "--quiet", "-r", "binder/requirements.txt"], cwd=repo, env=env)
    run(["bash", "binder/postBuild"], cwd=repo, env=env)
    config = json.loads((venv / "etc" / "jupyter" / "jupyter_server_config.d" / "playtest.json").read_text())
    assert config["ServerApp"]["jpserver_extensions"] == {"playtest.server": True}
    assert not (home / ".jupyter" / "jupyter_server_config.py").exists()    # nothing written beside it
    run([python, "-c", "import playtest.server, playtest; print(playtest.games())"], cwd=home, env=env)
    return python, repo


def test_binder_environment_serves_the_start_page(binder_env, lab_browser):
    python, repo = binder_env
    assert not (repo / "notebooks" / "sessions").exists() or (repo / "notebooks" / "sessions").is_dir()
    server = lab.LabServer(serve_dir=repo / "notebooks", python=python,
                           env={"PYTHONPATH": ""}, startup_timeout=180)
    server.start()
    try:
        nb = lab.LabNotebook.open(server, lab_browser, "00_start_here.ipynb", timeout=180)
        try:
            nb.run_all(timeout=240)
            assert nb.errors() == []
            assert "site-packages" in nb.run_code("import playtest; print(playtest.__file__)")
            page = nb.page
            board = page.locator(ROOT).first
            board.locator("svg.pt-svg").wait_for()
            v0 = int(board.locator("svg.pt-svg").get_attribute("data-version") or 0)
            king = board.locator('svg.pt-svg g[data-id^="slot:"].pt-movable').first
            king.click(force=True)
            board.locator("svg.pt-svg g[data-id].pt-target").first.click(force=True)
            menu = board.locator(".pt-menu .pt-menu-option")
            page.wait_for_function(
                "([root, v]) => { const r = document.querySelector(root); const s = r.querySelector('svg.pt-svg');"
                " return Number(s.getAttribute('data-version')) > v || !!r.querySelector('.pt-menu'); }",
                arg=[ROOT, v0], timeout=30_000)
            if menu.count():
                menu.first.click()
            out = nb.run_code("print(session.move_number)")
            assert out.strip().splitlines()[-1] in ("1", "2"), out
        finally:
            nb.close()
    finally:
        server.stop()
