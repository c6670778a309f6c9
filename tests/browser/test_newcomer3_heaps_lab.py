"""The third newcomer's Heaps (tests/newgames/heaps.py: Nim taken one stone at a time, a module of the
designer's own next to the notebook, its rules page beside it in rules_pages/) at the table in a real
JupyterLab: a stone clicked, a stone of another heap refused with the rule's text from the designer's own
rules page, the turn ended with the "end turn" button; each step read back from the page and the kernel."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lab import board_version, log_entries, wait_board_version_above

pytestmark = pytest.mark.browser

ROOT = ".pt-table .pt-root"
SVG = f"{ROOT} svg.pt-svg"
HERE = Path(__file__).resolve().parents[1] / "newgames"

CELLS = ["import json\nimport playtest\nimport heaps\n"
         "session = playtest.Session(playtest.load('heaps'), seed=1)\ntable = playtest.Table(session)",
         "table"]
KERNEL_VIEW = ("print(json.dumps({'heaps': session.state.heaps, 'mover': session.state.mover, "
               "'move': session.move_number, 'error': table.board.error, "
               "'log': [e['notation'] for e in session.history()]}))")


def kernel_view(nb) -> dict:
    return json.loads(nb.run_code(KERNEL_VIEW).strip().splitlines()[-1])


def wait_text(page, text: str) -> None:
    page.wait_for_function("""(t) => [...document.querySelectorAll('.pt-table *')]
        .some(n => n.children.length === 0 && (n.textContent || '').includes(t))""", arg=text, timeout=20_000)


def test_a_stone_taken_another_heap_refused_with_its_rule_and_the_turn_ended_by_its_button(open_notebook):
    nb = open_notebook("newcomer_heaps.ipynb", CELLS, files=[HERE / "heaps.py", HERE / "rules_pages"])
    nb.run_all()
    page = nb.page
    nb.wait_for(f"{SVG} [data-id='board:2,4']")
    wait_text(page, "First: click a lit place.")
    assert page.locator(f"{ROOT} button.pt-button", has_text="end turn").count() == 0   # not before a stone
    v0 = board_version(page, SVG)
    page.locator(f'{SVG} [data-id="board:2,4"]').first.click()                 # the top stone of heap 2
    wait_board_version_above(page, v0, SVG)
    seen = kernel_view(nb)
    assert seen["heaps"] == [3, 4, 4] and seen["move"] == 1 and seen["error"] == "", seen
    assert log_entries(page)[-1] == "1. take 2"
    wait_text(page, "First: click a lit place or a button.")
    page.locator(f'{SVG} [data-id="board:0,2"]').first.click()                 # heap 0: this turn takes from 2
    wait_text(page, "this turn takes from another heap")
    wait_text(page, "A turn takes from one heap")                             # N2, from rules_pages/heaps.md
    assert kernel_view(nb)["move"] == 1
    v1 = board_version(page, SVG)
    page.locator(f"{ROOT} button.pt-button", has_text="end turn").first.click()
    wait_board_version_above(page, v1, SVG)
    seen = kernel_view(nb)
    assert seen["mover"] == 1 and seen["log"][-1] == "end turn", seen
    assert log_entries(page)[-1] == "2. end turn"
    wait_text(page, "Second: click a lit place.")
