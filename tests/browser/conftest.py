"""Fixtures for tests that drive a real JupyterLab in headless Chromium.

Fixtures (see ``tests/browser/lab.py`` for the classes):

* ``chromium_path`` (session) - path of the Chromium binary: env
  ``PLAYTEST_CHROMIUM``, ``chromium`` on PATH, or ``/usr/bin/chromium``.  None
  found: the test is skipped, or fails if env ``PLAYTEST_REQUIRE_BROWSER`` is
  non-empty (CI sets it so a missing browser cannot pass silently).
* ``lab_playwright`` (module) - a started ``sync_playwright()`` instance.
* ``lab_browser`` (module) - a Playwright ``Browser`` (Chromium, headless,
  offline flags).  Use ``lab_browser.new_page()`` for non-Lab pages too.
  Module scope, not session: Playwright's sync API refuses to start while
  another sync instance is running, so a session-long one would break any
  test module that starts its own ``sync_playwright()``.  A launch costs
  well under a second.
* ``lab_server`` (session) - one :class:`lab.LabServer` for the whole run
  (a start costs seconds), serving an empty temp root; the repo root is on
  the kernels' PYTHONPATH so notebooks can ``import playtest``.  Put files in
  with ``lab_server.write_notebook(name, cells)`` / ``lab_server.copy_in(path)``.
* ``open_notebook`` (function) - factory ``open_notebook(name, cells=None,
  files=())`` -> :class:`lab.LabNotebook`, opened and kernel Idle; closed
  (with its kernel) after the test.  On failure a screenshot and the page's
  console are saved in the test's ``tmp_path``.

Tests that use any of these are marked ``browser`` automatically
(``-m "not browser"`` deselects them); mark others by hand.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import lab  # noqa: E402

BROWSER_FIXTURES = {"chromium_path", "lab_playwright", "lab_browser", "lab_server", "open_notebook"}


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "browser: drives a real browser (headless Chromium, maybe JupyterLab); "
        "skipped when no Chromium is found unless PLAYTEST_REQUIRE_BROWSER is set",
    )


def pytest_collection_modifyitems(config, items):
    for item in items:
        if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    setattr(item, f"_pt_rep_{rep.when}", rep)


def require_chromium() -> str:
    """Chromium's path, or skip (fail under PLAYTEST_REQUIRE_BROWSER)."""
    path = lab.find_chromium()
    if path:
        return path
    env = os.environ.get("PLAYTEST_CHROMIUM", "").strip()
    why = (f"PLAYTEST_CHROMIUM={env!r} is not an executable file" if env
           else "no Chromium found (set PLAYTEST_CHROMIUM, or install Debian's chromium)")
    if os.environ.get("PLAYTEST_REQUIRE_BROWSER", "").strip():
        pytest.fail(f"{why}, and PLAYTEST_REQUIRE_BROWSER is set", pytrace=False)
    pytest.skip(why)


@pytest.fixture(scope="session")
def chromium_path() -> str:
    return require_chromium()


@pytest.fixture(scope="module")
def lab_playwright(chromium_path):
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as e:  # pragma: no cover - playwright is a test dependency
        if os.environ.get("PLAYTEST_REQUIRE_BROWSER", "").strip():
            pytest.fail(f"playwright is not importable: {e}", pytrace=False)
        pytest.skip(f"playwright is not importable: {e}")
    pw = sync_playwright().start()
    try:
        yield pw
    finally:
        pw.stop()


@pytest.fixture(scope="module")
def lab_browser(lab_playwright, chromium_path):
    browser = lab.launch_chromium(lab_playwright, chromium_path)
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture(scope="session")
def lab_server(chromium_path):
    # Depends on chromium_path so that a missing browser skips before we pay
    # for a server start.
    server = lab.LabServer(pythonpath=[REPO])
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def open_notebook(lab_browser, lab_server, request, tmp_path):
    opened: list[lab.LabNotebook] = []

    def _open(name: str, cells=None, files=(), *, timeout: float = 90.0) -> lab.LabNotebook:
        for f in files:
            lab_server.copy_in(f)
        if cells is not None:
            lab_server.write_notebook(name, cells)
        nb = lab.LabNotebook.open(lab_server, lab_browser, name, timeout=timeout)
        opened.append(nb)
        return nb

    yield _open

    rep = getattr(request.node, "_pt_rep_call", None)
    failed = rep is not None and rep.failed
    for i, nb in enumerate(opened):
        if failed:
            try:
                shot = nb.screenshot(tmp_path / f"failure-{i}.png", full_page=True)
                (tmp_path / f"console-{i}.txt").write_text("\n".join(nb.console))
                print(f"\n[browser] screenshot: {shot}\n[browser] console: {tmp_path}/console-{i}.txt")
            except Exception as e:  # the page may be gone
                print(f"\n[browser] no screenshot: {e}")
        nb.close()
    if failed:
        print("[browser] server log tail:\n" + lab_server.log_text()[-3000:])
