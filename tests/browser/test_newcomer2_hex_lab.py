"""The second newcomer's Hex with the pie rule (tests/newgames/hex_pie.py, a module of the designer's own
next to the notebook) at the table in a real JupyterLab: a cell clicked on the hex board and the swap
button pressed, each move read back from the page (the move log, the pieces drawn) and from the kernel."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lab import board_version, log_entries, wait_board_version_above

pytestmark = pytest.mark.browser

ROOT = ".pt-table .pt-root"
SVG = f"{ROOT} svg.pt-svg"
GAME = Path(__file__).resolve().parents[1] / "newgames" / "hex_pie.py"

CELLS = ["import json\nimport playtest\nimport hex_pie\n"
         "session = playtest.Session(playtest.load('hex_pie', size=4), seed=1)\ntable = playtest.Table(session)",
         "table"]
KERNEL_VIEW = ("print(json.dumps({'cells': session.state.cells, 'move': session.move_number, "
               "'error': table.board.error, 'log': [e['notation'] for e in session.history()]}))")


def kernel_view(nb) -> dict:
    return json.loads(nb.run_code(KERNEL_VIEW).strip().splitlines()[-1])


def test_a_hex_cell_clicked_and_the_swap_pressed_read_back_from_the_page(open_notebook):
    nb = open_notebook("newcomer_hex_pie.ipynb", CELLS, files=[GAME])
    nb.run_all()
    page = nb.page
    nb.wait_for(f"{SVG} [data-id='board:0,0']")
    assert page.locator(f"{SVG} [data-id^='board:']").count() == 16            # the 4 x 4 rhombus
    assert page.locator(f"{ROOT} button.pt-button", has_text="swap").count() == 0
    v0 = board_version(page, SVG)
    page.locator(f'{SVG} [data-id="board:2,1"]').first.click()
    wait_board_version_above(page, v0, SVG)
    seen = kernel_view(nb)
    assert seen["cells"][1 * 4 + 2] == 0 and seen["move"] == 1 and seen["error"] == "", seen
    assert log_entries(page)[-1] == "1. place 2,1"                            # the move, read from the page
    v1 = board_version(page, SVG)
    page.locator(f"{ROOT} button.pt-button", has_text="swap").first.click()  # the pie rule: Blue takes it over
    wait_board_version_above(page, v1, SVG)
    seen = kernel_view(nb)
    assert seen["cells"][2 * 4 + 1] == 1 and seen["cells"].count(-1) == 15 and seen["log"][-1] == "swap", seen
    assert log_entries(page)[-1] == "2. swap"
    assert page.locator(f"{SVG} .pt-item.pt-piece").count() == 1              # one stone on the board, Blue's
    assert "2471a3" in page.locator(f"{SVG} .pt-item.pt-piece").first.inner_html().lower()
    # the cell Red took is free again; the mirrored one is Blue's: a click there shows the game's refusal
    page.locator(f'{SVG} [data-id="board:1,2"]').first.click()
    page.wait_for_function("""() => [...document.querySelectorAll('.pt-table *')]
        .some(n => n.children.length === 0 && (n.textContent || '').includes('that cell is taken'))""",
                           timeout=20_000)
    assert kernel_view(nb)["move"] == 2
