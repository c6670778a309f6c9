"""A round with bots at a hot-seat table, its log and its parameter panel, in a real JupyterLab (issue 28).

A generated notebook starts a two-round Back to the Wall with East, South and
West played by bots (they submit at once) and shows the hot-seat table. In the
page the test

1. lifts the curtain as North, clicks a wall and submits: the round resolves,
   and instead of the next curtain the playback bar plays the resolution from
   its first step (the message reads "Round 1: the orders are revealed"), with
   a Continue button; the bots have not entered round 2;
2. reads the move log: each bot's order is one row ("East's order (N steps)")
   that unfolds with its ▸ into its steps, and the resolution's row is short
   and unfolds into one line per order and per board;
3. presses Continue: the curtain goes up ("Pass to North") and the bots have
   entered round 2;
4. opens the rule parameters: live and new-game parameters are apart; types a
   half list into ``board_sizes`` (a new-game parameter): the refusal shows at
   the field and beside "New game with these", which is disabled; finishing
   the list clears both.
"""

from __future__ import annotations

import json
import re

import pytest
from lab import log_entries
from test_core_lab import click_curtain, curtain_text, version, wait_version_above

pytestmark = pytest.mark.browser

ROOT = ".pt-table .pt-root"
SVG = f"{ROOT} svg.pt-svg"
TIMEOUT_MS = 20_000

KERNEL_VIEW = ("print(json.dumps({'round': session.state.round, 'pending': session.game.pending_seats("
               "session.state), 'held': table.held, 'curtain': table.board.curtain,"
               " 'step': table.playback_slider.value, 'steps': len(table._frames)}))")

CELLS = [
    "import json\n"
    "import playtest\n"
    "from playtest.bots import RandomBot\n"
    "session = playtest.Session(playtest.load('back_to_the_wall', rounds=2), seed=3)\n"
    "table = playtest.Table(session, bots={s: RandomBot(seed=s) for s in (1, 2, 3)})",
    "table",
    KERNEL_VIEW,
]


def kernel_view(nb) -> dict:
    return json.loads(nb.run_code(KERNEL_VIEW).strip().splitlines()[-1])


def test_a_round_with_bots_is_watched_before_the_curtain_and_its_log_unfolds(open_notebook, tmp_path):
    nb = open_notebook("back_to_the_wall_bots.ipynb", CELLS)
    nb.run_all()
    page = nb.page
    nb.wait_for(f"{ROOT} .pt-curtain")
    assert curtain_text(nb).startswith("Pass to North")

    # -- 1. North submits last: the resolution plays before any curtain, the bots wait
    click_curtain(nb, "I am North")
    v0 = version(nb)
    page.locator(f'{SVG} g[data-id="b1:d5"]').last.click(force=True, timeout=TIMEOUT_MS)
    wait_version_above(nb, v0)
    v0 = version(nb)
    page.locator(f"{ROOT} button.pt-button", has_text="Submit my order").first.click()
    wait_version_above(nb, v0)
    playback = nb.wait_for(".pt-table .pt-playback")
    continue_button = playback.locator("button", has_text="Continue")
    continue_button.wait_for(state="visible", timeout=TIMEOUT_MS)
    assert page.locator(f"{ROOT} .pt-curtain").is_hidden()
    seen = kernel_view(nb)
    assert seen["held"] and seen["round"] == 2 and seen["pending"] == [0, 1, 2, 3] and seen["curtain"] == {}, seen
    assert "press Continue when everyone has seen it (then the table passes to North)" in playback.inner_text()
    # it plays on its own (the Play button runs in the page): the step grows
    page.wait_for_function("() => /step [1-9]\\d* of/.test(document.querySelector('.pt-playback').innerText)",
                           timeout=TIMEOUT_MS)

    # -- 2. the log: one row per order, unfolding into its steps; the resolution board by board
    entries = log_entries(page)
    orders = [e for e in entries if re.search(r"^\d+(–\d+)?\. (East|South|West)'s order \(\d+ steps\)$", e)]
    assert len(orders) == 3, entries
    resolution = entries[-1]
    assert resolution.endswith("North submitted: round 1 resolves"), entries
    log = page.locator(".pt-table .pt-picker-list")
    east = log.locator(".pt-picker-item", has=page.locator(".pt-picker-row", has_text="East's order"))
    east.locator(".pt-picker-toggle").click()
    steps = east.locator(".pt-picker-member")
    steps.first.wait_for(state="visible", timeout=TIMEOUT_MS)
    assert steps.count() >= 2 and all("East changes their order" in t or "East submitted" in t
                                      for t in steps.all_inner_texts())
    last = log.locator(".pt-picker-item", has=page.locator(".pt-picker-row", has_text="round 1 resolves"))
    last.locator(".pt-picker-toggle").click()
    lines = last.locator(".pt-picker-line")
    lines.first.wait_for(state="visible", timeout=TIMEOUT_MS)
    texts = lines.all_inner_texts()
    assert texts[0].startswith("North's order: walls Twice d5"), texts
    assert [t.split(":")[0] for t in texts[4:7]] == ["Once", "Twice", "Thrice"], texts
    assert max(len(t) for t in texts) < 300
    nb.screenshot(tmp_path / "held-and-log.png")

    # -- 3. Continue: the curtain goes up for North, the bots have entered round 2
    continue_button.click()
    nb.wait_for(f"{ROOT} .pt-curtain")
    assert curtain_text(nb).startswith("Pass to North")
    seen = kernel_view(nb)
    assert not seen["held"] and seen["pending"] == [0], seen

    # -- 4. the parameter panel: live and new game apart; a half-typed list is refused at its field
    accordion = page.locator(".pt-table .pt-side .jupyter-widget-Collapse", has=page.locator(
        ".jupyter-widget-Collapse-header", has_text="Rule parameters"))
    accordion.locator(".jupyter-widget-Collapse-header").click()
    panel = accordion.locator(".jupyter-widget-Collapse-contents")
    text = panel.inner_text()
    assert text.index("Live:") < text.index("walls_per_round") < text.index("New game:") < text.index("board_sizes")
    assert "Played one way only" in text and "wall_on_piece" in text.split("Played one way only")[1]
    row = panel.locator(".pt-param-board_sizes")
    box = row.locator("input[type=text]")
    box.click()
    page.keyboard.press("Control+A")
    page.keyboard.type("[[8, 8], [9, 9], [10, 10")
    error = row.locator(".pt-param-error")
    error.wait_for(state="visible", timeout=TIMEOUT_MS)
    assert "JSON list" in error.inner_text()
    button = panel.locator("button", has_text="New game with these")
    assert button.is_disabled()
    beside = panel.locator(".pt-new-game-error")
    assert "board_sizes" in beside.inner_text()
    # the field sits near its error: the error is right under it, not above the board
    field, said = box.bounding_box(), error.bounding_box()
    assert 0 <= said["y"] - (field["y"] + field["height"]) < 40
    row.scroll_into_view_if_needed()
    nb.screenshot(tmp_path / "parameter-refused.png")
    page.keyboard.type("]]")
    error.wait_for(state="hidden", timeout=TIMEOUT_MS)
    assert beside.is_hidden()
    assert nb.errors() == []
