"""The fourth newcomer's small Draughts (tests/newgames/draughts.py, a module of the designer's own next to
the notebook, its rules page beside it in rules_pages/) at the table in a real JupyterLab: a piece
selected and its lit target clicked (two clicks, one move), the other side's reply the same way, then a
step the forced capture refuses, with the reason and the rule's text from the designer's own rules page;
each step read back from the page and from the kernel."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lab import board_version, log_entries, wait_board_version_above

pytestmark = pytest.mark.browser

ROOT = ".pt-table .pt-root"
SVG = f"{ROOT} svg.pt-svg"
HERE = Path(__file__).resolve().parents[1] / "newgames"

CELLS = ["import json\nimport playtest\nimport draughts\n"
         "session = playtest.Session(playtest.load('small_draughts'), seed=1)\ntable = playtest.Table(session)",
         "table"]
KERNEL_VIEW = ("print(json.dumps({'cells': session.state.cells, 'mover': session.state.mover, "
               "'move': session.move_number, 'error': table.board.error, "
               "'reasons': table.board.scene['reasons'], 'log': [e['notation'] for e in session.history()]}))")


def kernel_view(nb) -> dict:
    return json.loads(nb.run_code(KERNEL_VIEW).strip().splitlines()[-1])


def click(page, place: str) -> None:
    """A real click on the centre of the square ``place`` (a piece drawn on it takes the click: the board
    resolves it to the square)."""
    page.locator(f'{SVG} g[data-id="{place}"]').last.click(force=True, timeout=20_000)


def wait_text(page, text: str) -> None:
    page.wait_for_function("""(t) => [...document.querySelectorAll('.pt-table *')]
        .some(n => n.children.length === 0 && (n.textContent || '').includes(t))""", arg=text, timeout=20_000)


def test_a_piece_selected_then_its_target_clicked_moves_it_and_a_forced_capture_refuses_a_step(open_notebook):
    nb = open_notebook("newcomer_draughts.ipynb", CELLS, files=[HERE / "draughts.py", HERE / "rules_pages"])
    nb.run_all()
    page = nb.page
    nb.wait_for(f"{SVG} [data-id='board:2,1']")
    wait_text(page, "Dark: click a lit place.")
    v0 = board_version(page, SVG)
    click(page, "board:2,1")                                       # Dark's man on c5: selected, nothing sent
    page.wait_for_selector(f'{SVG} g[data-id="board:3,2"].pt-target', timeout=20_000)
    assert board_version(page, SVG) == v0
    click(page, "board:3,2")                                       # its lit target, d4
    wait_board_version_above(page, v0, SVG)
    seen = kernel_view(nb)
    assert seen["cells"][8] == 0 and seen["cells"][15] == 1 and seen["move"] == 1 and seen["error"] == "", seen
    assert log_entries(page)[-1] == "1. c5-d4"
    wait_text(page, "Light: click a lit place.")
    v1 = board_version(page, SVG)
    click(page, "board:1,4")                                       # Light's man on b2 ...
    page.wait_for_selector(f'{SVG} g[data-id="board:2,3"].pt-target', timeout=20_000)
    click(page, "board:2,3")                                       # ... to c3, next to Dark's d4
    wait_board_version_above(page, v1, SVG)
    seen = kernel_view(nb)
    assert seen["mover"] == 0 and seen["log"][-1] == "b2-c3", seen
    assert log_entries(page)[-1] == "2. b2-c3"
    # Dark must now take c3 (rule D4): a step's target is not lit, and a click on it says why
    reason = seen["reasons"]["board:1,2"]
    text, rule = reason[:-1].rsplit(" (rule ", 1)
    click(page, "board:1,2")
    wait_text(page, text)
    wait_text(page, {"D2": "Steps", "D3": "Captures", "D4": "Jumping on"}[rule])    # from rules_pages/
    assert kernel_view(nb)["move"] == 2
    v2 = board_version(page, SVG)
    click(page, "board:3,2")                                       # the capture: d4 jumps c3 to b2
    page.wait_for_selector(f'{SVG} g[data-id="board:1,4"].pt-target', timeout=20_000)
    click(page, "board:1,4")
    wait_board_version_above(page, v2, SVG)
    seen = kernel_view(nb)
    assert seen["cells"][20] == 0 and seen["cells"][25] == 1 and seen["log"][-1] == "d4xb2", seen
    assert log_entries(page)[-1] == "3. d4xb2"
