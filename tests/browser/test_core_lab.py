"""The core in a real JupyterLab, on the worked example game Secret Bid (issue 7).

A generated notebook starts a one-round Secret Bid session, undoes to before the
prize die and shows ``playtest.Table(session)`` (hot-seat). In the page:

* the board offers "🎲 Roll" and every face of the die with its probability; the
  test forces a 6, and the move log marks it as forced;
* the deal follows on its own; a curtain then hides the board ("Pass to North");
* North lifts it, sees its own card (and not South's), bids 2 through the bid
  cell's menu and submits; the curtain comes up for South, and no text on the page
  (board, move log) shows North's bid or card;
* South lifts it, bids 1 and submits: the orders are revealed, the game ends, and a
  playback slider appears; stepping back shows the orders revealed one at a time.

After every step the page and the session in the kernel must agree.
"""

from __future__ import annotations

import json
import re

import pytest
from lab import board_version, log_entries, wait_board_version_above

pytestmark = pytest.mark.browser

ROOT = ".pt-table .pt-root"
SVG = f"{ROOT} svg.pt-svg"

KERNEL_VIEW = ("print(json.dumps({'cards': session.state.cards, 'prize': session.state.prize,"
               " 'round': session.state.round, 'move': session.move_number,"
               " 'version': table.board.scene['version'], 'error': table.board.error,"
               " 'curtain': table.board.curtain, 'viewer': table.viewer,"
               " 'log': [e['notation'] for e in session.history()],"
               " 'forced': [e['forced'] for e in session.history()]}))")

CELLS = [
    "import json\n"
    "import playtest\n"
    "from playtest.examples.secret_bid import SecretBid\n"
    "session = playtest.Session(SecretBid(rounds=1), seed=5)\n"
    "while session.can_undo:\n"
    "    session.undo()          # back to before the prize die\n"
    "table = playtest.Table(session)",
    "table",
    KERNEL_VIEW,
]


def version(nb) -> int:
    return board_version(nb.page, SVG)


def wait_version_above(nb, v0: int, timeout: float = 20.0) -> int:
    return wait_board_version_above(nb.page, v0, SVG, timeout)


def kernel_view(nb) -> dict:
    """The session as the kernel sees it (a new cell is also a barrier for the page's messages)."""
    return json.loads(nb.run_code(KERNEL_VIEW).strip().splitlines()[-1])


def cell_texts(nb, col: int) -> dict[int, str]:
    """What the board shows in column ``col`` of the orders grid, by seat (row)."""
    return nb.page.evaluate(
        """([sel, col]) => {
             const out = {};
             for (const g of document.querySelectorAll(`${sel} g.pt-cell[data-id^="cell:${col},"]`)) {
               const row = g.getAttribute('data-id').split(',')[1];
               const t = g.querySelector('text');
               out[row] = t ? t.textContent : '';
             }
             return out;
           }""", [SVG, col])


def curtain_text(nb) -> str:
    loc = nb.page.locator(f"{ROOT} .pt-curtain")
    return loc.inner_text().strip() if loc.is_visible() else ""


def page_text(nb) -> str:
    """Every text a person at the screen can read in the table, the move log's entries included."""
    log = log_entries(nb.page)
    return "\n".join([nb.page.locator(".pt-table").first.inner_text(), *log]).replace("\xa0", " ")


def click_curtain(nb, label: str) -> None:
    v0 = version(nb)
    nb.page.locator(f"{ROOT} .pt-curtain button", has_text=label).first.click()
    wait_version_above(nb, v0)
    nb.page.locator(f"{ROOT} .pt-curtain").wait_for(state="hidden")


def bid(nb, seat: int, amount: int) -> None:
    page = nb.page
    page.locator(f'{SVG} g[data-id="cell:1,{seat}"]').first.click()
    menu = nb.wait_for(f"{ROOT} .pt-menu")
    v0 = version(nb)
    menu.locator("button.pt-menu-option", has_text=re.compile(rf"^\s*bid {amount}\s*$")).click()
    wait_version_above(nb, v0)
    v0 = version(nb)
    page.locator(f"{ROOT} button.pt-button", has_text="Submit my order").click()
    wait_version_above(nb, v0)


def test_secret_bid_forced_roll_curtain_secrets_and_playback(open_notebook):
    nb = open_notebook("secret_bid_core.ipynb", CELLS)
    nb.run_all()
    page = nb.page
    nb.wait_for(f"{ROOT} button.pt-button")

    # -- chance is to move: Roll and every face of the die with its probability.
    labels = [t.strip() for t in page.locator(f"{ROOT} button.pt-button").all_inner_texts()]
    assert labels[0] == "🎲 Roll", labels
    assert labels[1:] == [f"Force: the die shows {p}: round 1 is for {p} points (1/6)" for p in range(1, 7)]
    assert curtain_text(nb) == ""
    v0 = version(nb)
    page.locator(f"{ROOT} button.pt-button", has_text="the die shows 6").click()
    wait_version_above(nb, v0)
    nb.wait_for(f"{ROOT} .pt-curtain")
    seen = kernel_view(nb)
    assert seen["prize"] == 6 and seen["forced"][:3] == [False, True, False]
    assert seen["log"][1].endswith("(forced)") and "dealt a card" in seen["log"][2]
    log = log_entries(page)
    assert log[1] == "🎲 the die shows 6: round 1 is for 6 points (forced)", log
    north_card, south_card = seen["cards"]

    # -- the curtain: nothing secret behind it.
    assert curtain_text(nb).startswith("Pass to North: click when ready")
    assert seen["curtain"]["text"] == "Pass to North: click when ready" and seen["viewer"] is None
    assert set(cell_texts(nb, 0).values()) == {"?"}
    assert "is dealt a " + str(north_card) not in page_text(nb)

    # -- North lifts it: its own card, not South's.
    click_curtain(nb, "I am North")
    assert cell_texts(nb, 0) == {"0": str(north_card), "1": "?"}
    bid(nb, 0, 2)
    nb.wait_for(f"{ROOT} .pt-curtain")
    assert curtain_text(nb).startswith("Pass to South: click when ready")
    text = page_text(nb)
    assert "North submitted" in text and "bids 2" not in text and "is dealt a " + str(north_card) not in text
    seen = kernel_view(nb)
    assert seen["viewer"] is None and seen["move"] == 2

    # -- South: North's order and card stay hidden; South bids and submits: the reveal.
    click_curtain(nb, "I am South")
    assert cell_texts(nb, 0) == {"0": "?", "1": str(south_card)}
    assert cell_texts(nb, 1)["0"] == ""                          # North's bid: not shown to South
    bid(nb, 1, 1)
    seen = kernel_view(nb)
    assert seen["round"] == 2 and seen["curtain"] == {}             # one round: the game is over
    assert "revealed: North bid 2" in seen["log"][-1]
    assert "revealed: North bid 2" in page_text(nb)

    # -- playback: a slider, and stepping back shows one seat revealed at a time.
    playback = nb.wait_for(".pt-table .pt-playback")
    assert "resolves in 3 steps" in playback.inner_text()
    back = playback.locator('button[title="One step back"]')
    for expected in ("The round is resolved.", "Revealing the orders: 2 of 2", "Revealing the orders: 1 of 2"):
        v0 = version(nb)
        back.click()
        wait_version_above(nb, v0)
        assert page.locator(f"{ROOT} .pt-message").inner_text().strip() == expected
    assert cell_texts(nb, 0) == {"0": str(north_card), "1": "?"}
    assert nb.errors() == []
