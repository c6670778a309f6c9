"""Back to the Wall in a real JupyterLab: two seats enter secret orders behind the curtain, the round plays back.

A generated notebook starts a one-round game, has South and West submit
empty orders from Python, and shows ``playtest.Table(session)`` (hot-seat).
In the page the test

1. finds the curtain up ("Pass to North") and no order on the board;
2. lifts it as North, clicks the cell d5 of Twice (one option: it commits at
   once, the cell is drawn as North's pending wall ▦), clicks North's piece on
   Once and picks "phase 1: → right" in the menu that opens (the piece now
   shows its directions), and presses "Submit my order";
3. finds the curtain up for East, and nothing of North's order in the page:
   not the pending wall, not the arrows, not the move log (one row, "North's order (3 steps)");
4. lifts it as East, finds d5 of Twice free, clicks e5 of Twice (right next to
   North's d5) and submits: the round resolves, the game is over;
5. finds the playback bar, steps back through the ticks (the message tells
   each tick's captures, "Phase 1, tick 1: captured Once b1 North") to the
   walls scene, whose message explains both rejections ("rejected:
   orthogonally adjacent to East's wall e5 on Twice"); the "Walls of round 1"
   panel of the live board says the same.

Every step waits on a condition in the page (``data-version`` of
``svg.pt-svg`` grows after each redraw) or on a kernel round trip.
"""

from __future__ import annotations

import json
import re

import pytest
from lab import log_entries, panel_rows
from test_core_lab import click_curtain, curtain_text, version, wait_version_above

pytestmark = pytest.mark.browser

ROOT = ".pt-table .pt-root"
SVG = f"{ROOT} svg.pt-svg"
TIMEOUT_MS = 20_000

KERNEL_VIEW = ("print(json.dumps({'move': session.move_number, 'over': session.is_over,"
               " 'orders': [o is not None and o.submitted for o in session.state.orders],"
               " 'walls': session.state.to_json()['boards']['Twice']['rows'][4],"
               " 'log': [e['notation'] for e in session.history()],"
               " 'curtain': table.board.curtain, 'viewer': table.viewer, 'error': table.board.error}))")

CELLS = [
    "import json\n"
    "import playtest\n"
    "from playtest.games.back_to_the_wall import Submit\n"
    "session = playtest.Session(playtest.load('back_to_the_wall', rounds=1), seed=3)\n"
    "for seat in (2, 3):              # South and West submit empty orders from Python\n"
    "    session.play(Submit(seat), seat=seat)\n"
    "table = playtest.Table(session)",
    "table",
    KERNEL_VIEW,
]


def kernel_view(nb) -> dict:
    """The session as the kernel sees it (a new cell is also a barrier for the page's messages)."""
    return json.loads(nb.run_code(KERNEL_VIEW).strip().splitlines()[-1])


def click_item(nb, item_id: str) -> None:
    """A real mouse click on the topmost item drawn with ``item_id``."""
    nb.page.locator(f'{SVG} g[data-id="{item_id}"]').last.click(force=True, timeout=TIMEOUT_MS)


def cell_text(nb, item_id: str) -> str:
    t = nb.page.locator(f'{SVG} g[data-id="{item_id}"] text')
    return t.first.text_content().strip() if t.count() else ""


def board_button(nb, label: str) -> None:
    v0 = version(nb)
    nb.page.locator(f"{ROOT} button.pt-button", has_text=label).first.click()
    wait_version_above(nb, v0)


def message(nb) -> str:
    return nb.page.locator(f"{ROOT} .pt-message").inner_text().strip()


def page_text(nb) -> str:
    """Every text a person at the screen can read in the table, the move log's entries included."""
    log = log_entries(nb.page)
    svg = nb.page.locator(SVG).first.text_content()
    return "\n".join([nb.page.locator(".pt-table").first.inner_text(), svg, *log]).replace("\xa0", " ")


def test_two_seats_enter_secret_orders_and_the_round_plays_back(open_notebook):
    nb = open_notebook("back_to_the_wall_orders.ipynb", CELLS)
    nb.run_all()
    page = nb.page
    nb.wait_for(f"{ROOT} .pt-curtain")

    # -- 1. the curtain: North is to enter its order; nothing secret behind it
    assert curtain_text(nb).startswith("Pass to North: click when ready")
    seen = kernel_view(nb)
    assert seen["orders"] == [False, False, True, True] and seen["viewer"] is None

    # -- 2. North: a wall on Twice d5 (one option: it commits), a direction from the piece's menu, submit
    click_curtain(nb, "I am North")
    v0 = version(nb)
    click_item(nb, "b1:d5")
    wait_version_above(nb, v0)
    assert cell_text(nb, "b1:d5") == "▦"
    click_item(nb, "b0:p0.0")
    menu = nb.wait_for(f"{ROOT} .pt-menu")
    options = [t.strip() for t in menu.locator("button.pt-menu-option").all_inner_texts()]
    assert len(options) == 12 and options[1] == "phase 1: → right", options
    v0 = version(nb)
    menu.locator("button.pt-menu-option", has_text=re.compile(r"^\s*phase 1: → right\s*$")).click()
    wait_version_above(nb, v0)
    assert cell_text(nb, "b0:p0.0") == "→··"
    board_button(nb, "Submit my order")
    nb.wait_for(f"{ROOT} .pt-curtain")

    # -- 3. the curtain is up for East, and nothing of North's order shows
    assert curtain_text(nb).startswith("Pass to East: click when ready")
    text = page_text(nb)
    assert "3–5. North's order (3 steps)" in text          # the order is one row of the log (issue 28)
    assert "wall Twice d5" not in text and "▦" not in text and "→··" not in text
    seen = kernel_view(nb)
    assert seen["orders"] == [True, False, True, True] and seen["walls"] == "..#...#.."

    # -- 4. East: Twice d5 looks free, e5 right next to it; submit: the round resolves
    click_curtain(nb, "I am East")
    assert cell_text(nb, "b1:d5") == ""
    v0 = version(nb)
    click_item(nb, "b1:e5")
    wait_version_above(nb, v0)
    board_button(nb, "Submit my order")
    seen = kernel_view(nb)
    assert seen["over"] and seen["curtain"] == {}, seen
    assert "rejected: orthogonally adjacent to East's wall e5 on Twice" in seen["log"][-1]
    assert seen["walls"] == "..#...#.."                    # neither wall stands

    # -- 5. the playback: step back through the ticks to the walls, each rejection explained
    playback = nb.wait_for(".pt-table .pt-playback")
    steps = int(re.search(r"resolves in (\d+) steps", playback.inner_text()).group(1))
    back = playback.locator('button[title="One step back"]')
    messages = []
    for _ in range(steps - 1):
        v0 = version(nb)
        back.click()
        wait_version_above(nb, v0)
        messages.append(message(nb))
    assert "Phase 1, tick 1: captured Once b1 North." in messages
    assert messages[-1].startswith("0 walls placed. Not placed: Twice d5 (North): rejected: orthogonally "
                                   "adjacent to East's wall e5 on Twice; Twice e5 (East): rejected:"), messages[-1]
    assert cell_text(nb, "b1:d5") == "✕" and cell_text(nb, "b1:e5") == "✕"
    v0 = version(nb)
    back.click()
    wait_version_above(nb, v0)
    assert message(nb).startswith("Round 1: the orders are revealed")
    assert cell_text(nb, "b1:d5") == "N" and cell_text(nb, "b1:e5") == "E"
    # the live board after the round keeps the reasons in a panel
    v0 = version(nb)
    nb.run_code("table.playback_slider.value = table.playback_slider.max")
    wait_version_above(nb, v0)
    rows = panel_rows(page, ROOT, "Walls of round 1")
    assert ["Twice d5", "North", "rejected: orthogonally adjacent to East's wall e5 on Twice"] in rows, rows
    assert nb.errors() == []
