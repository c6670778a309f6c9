"""What playtests record, in a real browser (issue 26): the tester view through Voila.

A tester starts, clicks a place the board says no to (the page shows the reason; the kernel keeps
the attempt with the scene's own reason and rule), plays a move, answers the feedback form,
looks at "What is sent", and sends the session back: the downloaded file holds the move with its
time, the refused attempt and the answers under the tester's name.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lab import board_version, wait_board_version_above

import playtest

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
ROOT = ".pt-table .pt-root"
TIMEOUT_MS = 30_000


def test_a_testers_refusal_feedback_and_times_travel_in_the_file(lab_browser, lab_server):
    lab_server.copy_in(REPO / "notebooks" / "testers" / "source.ipynb", "testers/source.ipynb")
    context = lab_browser.new_context(accept_downloads=True, viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    svg = f"{ROOT} svg.pt-svg"
    try:
        page.goto(lab_server.url("/voila/render/testers/source.ipynb"), wait_until="domcontentloaded",
                  timeout=120_000)
        name = page.locator(".pt-tester input[type=text]").first
        name.wait_for(timeout=120_000)
        name.fill("Bea")
        name.press("Enter")
        page.locator(".pt-tester button", has_text="Start playing").click()
        page.locator(svg).wait_for(timeout=TIMEOUT_MS)
        page.wait_for_function("(sel) => Number(document.querySelector(sel).getAttribute('data-version')) > 0",
                               arg=svg, timeout=TIMEOUT_MS)
        page.locator(f'{svg} g[data-id="pt:2,0"]').first.click()          # not next to a red token
        page.wait_for_function("() => document.querySelector('.pt-message').textContent.includes('C.1 §8')",
                               timeout=TIMEOUT_MS)
        v0 = board_version(page, svg)
        page.locator(f'{svg} g[data-id="pt:1,0"]').first.click()          # red places b1
        wait_board_version_above(page, v0, svg, TIMEOUT_MS / 1000)
        page.locator('.pt-tester button[title^="Tell the designer"]').click()
        form = page.locator(".pt-feedback")
        form.wait_for(timeout=TIMEOUT_MS)
        form.locator(".pt-feedback-fun button", has_text="4").click()
        form.locator(".pt-feedback-length button", has_text="too long").click()
        form.locator("button", has_text="Send feedback").click()
        page.wait_for_function("() => document.querySelector('.pt-feedback').textContent.includes('Thank you')",
                               timeout=TIMEOUT_MS)
        page.locator(".pt-tester button", has_text="What is sent").click()
        shown = page.locator(".pt-tester textarea").first
        page.wait_for_function("() => [...document.querySelectorAll('.pt-tester textarea')]"
                               ".some(t => t.value.includes('\"feedback\"'))", timeout=TIMEOUT_MS)
        assert '"refusal"' in shown.input_value() or any(
            '"refusal"' in t.input_value() for t in page.locator(".pt-tester textarea").all())
        with page.expect_download(timeout=TIMEOUT_MS) as info:
            page.locator(".pt-tester button", has_text="Send back").click()
        data = Path(info.value.path()).read_bytes()
    finally:
        context.close()
        lab_server.shutdown_sessions()
    sent = playtest.Session.from_records_bytes(data)
    assert [e["notation"] for e in sent.history()][1:] == ["red: place b1"]
    assert sent._nodes[1].t is not None and sent.started is not None
    [refusal] = sent.refusals
    assert (refusal.item, refusal.rule, refusal.author, refusal.seat) == ("pt:2,0", "C.1 §8", "Bea", 0)
    assert [(f.author, f.answers) for f in sent.feedback] == [("Bea", {"fun": 4, "length": "too long"})]
    assert b"/work" not in data and b"/tmp" not in data
