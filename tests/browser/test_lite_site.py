"""The serverless site (issue 25), offline: built from the registries (or reused from a build of the
same sources), served on loopback, every other request blocked.

A tester opens Source's tester view (JupyterLite's console running the view, its code hidden),
types a name, plays two moves by clicking the board, writes a note; the page is reloaded (a new
browser kernel: nothing of the old one is left) and the same tester finds both moves and the note
again; "Send back" downloads the session file, which holds them under the tester's name. No
request leaves loopback, first load included.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from lab import board_version, wait_board_version_above
from lite import RefusingProxy, StaticServer, offline_context, shared_site, split_requests

import playtest
from playtest import lite as kit_lite

pytestmark = pytest.mark.browser

ROOT = ".pt-table .pt-root"
SVG = f"{ROOT} svg.pt-svg"
TIMEOUT_MS = 60_000
LOAD_MS = 240_000          # a cold browser kernel on a loaded machine


@pytest.fixture(scope="module")
def site(tmp_path_factory, chromium_path):
    folder, built = shared_site(tmp_path_factory)
    with StaticServer(folder) as server:
        yield server


@pytest.fixture(scope="module")
def offline_browser(lab_playwright, chromium_path):
    """Chromium whose every request outside loopback goes to a proxy that refuses it and writes it down."""
    from lab import launch_chromium
    proxy = RefusingProxy()
    browser = launch_chromium(lab_playwright, chromium_path, args=proxy.arguments)
    try:
        yield browser, proxy
    finally:
        browser.close()
        proxy.close()


def click_point(page, pid: str) -> None:
    v0 = board_version(page, SVG)
    page.locator(f'{SVG} g[data-id="{pid}"]').first.click()
    wait_board_version_above(page, v0, SVG, TIMEOUT_MS / 1000)


def start(page, name: str) -> None:
    field = page.locator(".pt-tester input[type=text]").first
    field.wait_for(timeout=LOAD_MS)
    field.fill(name)
    page.locator(".pt-tester button", has_text="Start playing").click()
    page.wait_for_function("(sel) => { const s = document.querySelector(sel);"
                           " return !!s && Number(s.getAttribute('data-version')) > 0; }",
                           arg=SVG, timeout=TIMEOUT_MS)


def test_a_tester_plays_offline_reloads_and_sends_the_session_back(offline_browser, site, tmp_path):
    browser, proxy = offline_browser
    outside: list[str] = []
    context = offline_context(browser, outside, accept_downloads=True, viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    try:
        began = time.monotonic()
        page.goto(kit_lite.tester_view_address(site.url, "source"), wait_until="domcontentloaded")
        start(page, "Alice")
        first_board = time.monotonic() - began
        assert "import playtest" not in page.inner_text(".pt-tester")       # the view only, no code
        click_point(page, "pt:1,0")            # red places b1
        click_point(page, "pt:0,1")            # red places a2
        v0 = board_version(page, SVG)
        page.locator(".pt-table textarea").first.fill("b1 then a2 <b>felt</b> forced")
        page.locator(".pt-table button", has_text="Add note").click()
        wait_board_version_above(page, v0, SVG, TIMEOUT_MS / 1000)

        page.reload(wait_until="domcontentloaded")        # a new browser kernel: only storage is left
        start(page, "Alice")
        page.wait_for_function("(t) => document.body.innerText.includes(t)", arg="b1 then a2 <b>felt</b> forced",
                               timeout=TIMEOUT_MS)
        text = page.inner_text(".pt-tester")
        assert "place b1" in text and "place a2" in text, text
        assert page.locator(".pt-tester b", has_text="felt").count() == 0       # a note is inert text
        with page.expect_download(timeout=TIMEOUT_MS) as info:
            page.locator(".pt-tester button", has_text="Send back").click()
        download = info.value
        page.wait_for_function("() => document.querySelector('.pt-tester').innerText.includes('Sent:')",
                               timeout=TIMEOUT_MS)             # the confirmation, beside the button
        assert download.suggested_filename.startswith("source-alice")
        data = Path(download.path()).read_bytes()
    except BaseException:
        page.screenshot(path=str(tmp_path / "lite-failure.png"))
        raise
    finally:
        context.close()
    sent = playtest.Session.from_records_bytes(data)
    assert [e["notation"] for e in sent.history()][1:] == ["red: place b1", "red: place a2"]
    assert [(n.author, n.text) for n in sent.notes] == [("Alice", "b1 then a2 <b>felt</b> forced")]
    browser_own, others = split_requests(proxy.seen)
    assert outside == [] and others == [], f"requests left loopback: {(outside + others)[:5]}"
    assert not [e for e in errors if "playtest" in e.lower()], errors
    print(f"\nfirst board drawn {first_board:.1f} s after opening the tester view (cold); "
          f"{site.sent / 1e6:.1f} MB served; Chromium's own service calls refused: {len(browser_own)}")
