"""Remote testers in a real browser (issue 13).

1. The tester view through Voila (``/voila/render/testers/source.ipynb`` on the Lab server, as
   the Binder link opens it): no code on the page; a tester types a name, starts, plays two
   moves, writes a note, and "Send back" downloads the session file, which holds both moves and
   the note under the tester's name.
2. Several testers at one table: two browser contexts open the same notebook on one JupyterLab
   server (one kernel); each shows a table bound to its seat; one plays, the other sees it and
   answers, and each may act only for its own seat.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lab import board_version, wait_board_version_above

import playtest

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
ROOT = ".pt-table .pt-root"
TIMEOUT_MS = 30_000


def version(page, scope: str = "") -> int:
    return board_version(page, f"{scope} {ROOT} svg.pt-svg".strip())


def wait_version_above(page, v0: int, scope: str = "") -> None:
    wait_board_version_above(page, v0, f"{scope} {ROOT} svg.pt-svg".strip(), TIMEOUT_MS / 1000)


def click_point(page, pid: str, scope: str = "") -> None:
    v0 = version(page, scope)
    page.locator(f'{scope} {ROOT} svg.pt-svg g[data-id="{pid}"]'.strip()).first.click()
    wait_version_above(page, v0, scope)


def test_a_tester_plays_in_voila_and_sends_the_session_back(lab_browser, lab_server, tmp_path):
    lab_server.copy_in(REPO / "notebooks" / "testers" / "source.ipynb", "testers/source.ipynb")
    context = lab_browser.new_context(accept_downloads=True, viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    try:
        page.goto(lab_server.url("/voila/render/testers/source.ipynb"), wait_until="domcontentloaded",
                  timeout=120_000)
        name = page.locator(".pt-tester input[type=text]").first
        name.wait_for(timeout=120_000)
        assert "import playtest" not in page.inner_text("body")          # no code on the page
        name.fill("Alice")
        name.press("Enter")
        page.locator(".pt-tester button", has_text="Start playing").click()
        page.locator(f"{ROOT} svg.pt-svg").wait_for(timeout=TIMEOUT_MS)
        page.wait_for_function("(sel) => Number(document.querySelector(sel).getAttribute('data-version')) > 0",
                               arg=f"{ROOT} svg.pt-svg", timeout=TIMEOUT_MS)
        click_point(page, "pt:1,0")            # red places b1
        click_point(page, "pt:0,1")            # red places a2: its two points are spent
        v0 = version(page)
        page.locator(".pt-table textarea").first.fill("b1 then a2 felt forced")
        page.locator(".pt-table button", has_text="Add note").click()
        wait_version_above(page, v0)
        with page.expect_download(timeout=TIMEOUT_MS) as info:
            page.locator(".pt-tester button", has_text="Send back").click()
        download = info.value
        page.wait_for_function("() => document.querySelector('.pt-tester').innerText.includes('Sent:')",
                               timeout=TIMEOUT_MS)             # the confirmation, beside the button
        # one file per tester: the readable name, then a hash of the name as typed ("Alice" is not "ALICE")
        from playtest.widgets.tester_view import session_file_for
        assert download.suggested_filename == session_file_for(".", "source", "Alice").name
        data = Path(download.path()).read_bytes()
    finally:
        context.close()
        lab_server.shutdown_sessions()
    sent = playtest.Session.from_records_bytes(data)
    log = [e["notation"] for e in sent.history()]
    assert log[1:] == ["red: place b1", "red: place a2"], log
    assert [(n.author, n.text) for n in sent.notes] == [("Alice", "b1 then a2 felt forced")]


def test_two_testers_at_one_table_each_in_their_own_browser(open_notebook):
    cells = ["import json, playtest\n"
             "session = playtest.Session('source', seed=1)"]
    a = open_notebook("one_table.ipynb", cells)
    a.run_all()
    b = open_notebook("one_table.ipynb")                 # a second browser, the same kernel
    a.run_code("table_a = playtest.Table(session, seat=0); display(table_a)")
    b.run_code("table_b = playtest.Table(session, seat=1); display(table_b)")
    for page in (a.page, b.page):
        page.locator(f"{ROOT} svg.pt-svg").first.wait_for(timeout=TIMEOUT_MS)
    # A (red and yellow) places twice; B (blue and green) sees it on its own board
    v_b = version(b.page)
    click_point(a.page, "pt:1,0")
    click_point(a.page, "pt:0,1")
    wait_version_above(b.page, v_b)
    b.page.wait_for_function(
        "(sel) => !!document.querySelector(sel)", arg=f'{ROOT} svg.pt-svg g.pt-piece[data-id="pt:1,0"]',
        timeout=TIMEOUT_MS)
    # B answers: blue places h1 (blue's source is i1)
    v_a = version(a.page)
    click_point(b.page, "pt:7,0")
    wait_version_above(a.page, v_a)
    a.page.wait_for_function(
        "(sel) => !!document.querySelector(sel)", arg=f'{ROOT} svg.pt-svg g.pt-piece[data-id="pt:7,0"]',
        timeout=TIMEOUT_MS)
    seen = json.loads(a.run_code("print(json.dumps([e['notation'] for e in session.history()]))").strip())
    assert seen[1:] == ["red: place b1", "red: place a2", "blue: place h1"], seen
    # each may act only for its own seat: A's table refuses blue's action
    out = a.run_code("table_a.board.receive({'type': 'action', 'action': {'kind': 'place', 'col': 6, 'row': 0}});"
                     " print(table_a.board.error)")
    assert "plays for" in out or "turn" in out, out
