"""Replay links in a real browser (issue 25, point 5): "look at move 23".

1. Under Voila (the designer's JupyterLab, ``via="local"``): the link opens
   ``testers/replay.ipynb``, which shows the session file it names read-only at move 23; the
   page is read back (the replay's label and the table's move); a hostile address shows its
   refusal in one line, as text.
2. On the serverless site, offline (``via="lite"``): the same file shipped with the site
   (``add_replays``, what ``./dev.sh lite --replay FILE`` does) opens at move 23; no request
   leaves loopback.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from lab import log_state

import playtest

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "notebooks" / "sample_playtests" / "then_there_was_one-ana-wall_budget_12.playtest.json"
LABEL = ".pt-replay .pt-replay-where"
TIMEOUT_MS = 60_000
LOAD_MS = 240_000


def wait_label(page, text: str, timeout: int) -> str:
    page.wait_for_function("(t) => [...document.querySelectorAll('.pt-replay .pt-replay-where')]"
                           ".some(e => e.textContent.includes(t))", arg=text, timeout=timeout)
    return " ".join(page.locator(LABEL).all_inner_texts())


def test_a_replay_link_opens_move_23_under_voila(lab_browser, lab_server, tmp_path):
    lab_server.copy_in(REPO / "notebooks" / "testers" / "replay.ipynb", "testers/replay.ipynb")
    lab_server.copy_in(SAMPLE, f"sessions/shared/{SAMPLE.name}")
    mine = tmp_path / "notebooks" / "sessions" / "shared" / SAMPLE.name       # the designer's own copy
    mine.parent.mkdir(parents=True)
    shutil.copy(SAMPLE, mine)
    address = playtest.replay_link(mine, move=23, base_url=lab_server.base_url)
    assert address.startswith(f"{lab_server.base_url}/voila/render/testers/replay.ipynb?file=sessions%2Fshared%2F")
    context = lab_browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    try:
        page.goto(f"{address}&token={lab_server.token}", wait_until="domcontentloaded", timeout=120_000)
        label = wait_label(page, "move 23", 120_000)
        assert "position 24 of 91, move 23" in label
        assert "import playtest" not in page.inner_text("body")           # the view only, no code
        assert log_state(page, ".pt-replay .pt-table")["selected"].startswith("23. ")   # the table's log: move 23
        page.locator(".pt-replay .pt-replay-next").click()
        wait_label(page, "position 25 of 91", TIMEOUT_MS)
        # a hostile address: refused in one line, as text, and no file read
        page.goto(lab_server.url("/voila/render/testers/replay.ipynb", file="../../../etc/passwd", move="23"),
                  wait_until="domcontentloaded", timeout=120_000)
        page.locator(".pt-replay-refused").wait_for(timeout=120_000)
        refused = page.inner_text(".pt-replay-refused")
        assert refused.startswith("Cannot show this replay: the file= part of the address") and "root:" not in refused
        page.goto(lab_server.url("/voila/render/testers/replay.ipynb", file=f"sessions/shared/{SAMPLE.name}",
                                 move="<b>9</b>"), wait_until="domcontentloaded", timeout=120_000)
        page.locator(".pt-replay-refused").wait_for(timeout=120_000)
        assert "<b>9</b>" in page.inner_text(".pt-replay-refused")            # shown as text, not bold
        assert page.locator(".pt-replay-refused b").count() == 0
    except BaseException:
        page.screenshot(path=str(tmp_path / "replay-voila-failure.png"))
        raise
    finally:
        context.close()
        lab_server.shutdown_sessions()


def test_a_replay_link_opens_move_23_on_the_serverless_site_offline(lab_playwright, chromium_path, tmp_path,
                                                                    tmp_path_factory):
    from lab import launch_chromium
    from lite import RefusingProxy, StaticServer, offline_context, shared_site, split_requests

    from playtest.lite import build as lite_build
    built, _new = shared_site(tmp_path_factory)
    site = tmp_path / "site"                        # a copy (hard links): the cached site stays as built
    shutil.copytree(built, site, copy_function=os.link)
    assert lite_build.add_replays(site, [SAMPLE]) == [f"replays/{SAMPLE.name[:-len('.json')]}"]
    proxy = RefusingProxy()
    browser = launch_chromium(lab_playwright, chromium_path, args=proxy.arguments)
    outside: list[str] = []
    try:
        with StaticServer(site) as server:
            context = offline_context(browser, outside, viewport={"width": 1400, "height": 1000})
            page = context.new_page()
            try:
                page.goto(playtest.replay_link(SAMPLE, move=23, via="lite", base_url=server.url),
                          wait_until="domcontentloaded")
                label = wait_label(page, "move 23", LOAD_MS)
                assert "position 24 of 91, move 23" in label
                assert log_state(page, ".pt-replay .pt-table")["selected"].startswith("23. ")
                assert "import playtest" not in page.inner_text(".pt-replay")
                page.locator(".pt-replay .pt-replay-back").click()
                wait_label(page, "move 22", TIMEOUT_MS)
            except BaseException:
                page.screenshot(path=str(tmp_path / "replay-lite-failure.png"))
                raise
            finally:
                context.close()
    finally:
        browser.close()
        proxy.close()
    assert (built / "api" / "contents" / "all.json").read_text() != (site / "api" / "contents" / "all.json").read_text()
    assert not (built / "files" / "replays").exists()                     # the cache was not touched
    _own, others = split_requests(proxy.seen)
    assert outside == [] and others == [], f"requests left loopback: {(outside + others)[:5]}"
