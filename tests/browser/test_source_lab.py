"""Source in a real JupyterLab: place a token, capture one, undo (issue 4).

A generated notebook starts a Source session from a hand-written position
(the position JSON of ``playtest/games/source.py``) and shows
``playtest.Table(session)``. Red is to move with 2 AP and has the connected
chain a1-b1; an unconnected green token sits on b2, next to it; blue's
connected chain runs from its source i1 to a fortified stack on c1::

    r r B b b b b b b      row 1
    . g . . . . . . .      row 2
    . . . . . . . . .
    ...
    g . . . . . . . y      row 9

The game is loaded with ``capture_connected_fortified_cost=1`` (rule C11), so
that a click on c1 offers two options and opens the option menu: with the
default rules every Source point offers at most one option.

In the page the test clicks e5 (illegal: a reason, nothing sent) and c1 (a
menu with both labels; Cancel sends nothing), places on a2, captures b2 (1
AP: unconnected; the 2 AP are then spent and blue is to move), then presses
the table's Undo button. After every step the SVG, the score panel and the
session in the kernel (``session.state.to_json()``) must agree.

Points have the ids ``pt:c,r`` (column, row from the top; a1 is ``pt:0,0``).
A click on a point with one option commits at once; with several it opens a
menu, and :func:`click_option` picks by label.

Set ``PLAYTEST_SOURCE_SCREENSHOT=/some/file.png`` to also save a screenshot
of the table mid-game (after the place, before the capture).
"""

from __future__ import annotations

import json
import os
import pprint
import re

import pytest
from lab import board_version, log_entries, panel_rows, wait_board_version_above

pytestmark = pytest.mark.browser

RED, GREEN = "#d1495b", "#2f9e44"   # source.CSS

POSITION = {
    "board": [
        "rrBbbbbbb",
        ".g.......",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        ".........",
        "g.......y",
    ],
    "to_move": "red",
    "turn": 4,
}

# What the kernel sees, as one JSON line (see :func:`kernel_view`).
KERNEL_VIEW = ("print(json.dumps({'state': session.state.to_json(), 'move': session.move_number,"
               " 'version': table.board.scene['version'], 'error': table.board.error,"
               " 'c1': game.options(session.state, 'c1'),"
               " 'log': [e['notation'] for e in session.history()]}))")

CELLS = [
    "import json\n"
    "import playtest\n"
    f"POSITION = {pprint.pformat(POSITION, width=60, sort_dicts=False)}\n"
    "game = playtest.load('source', capture_connected_fortified_cost=1)\n"
    "session = playtest.Session(game, start=POSITION)\n"
    "table = playtest.Table(session)",
    "table",
    KERNEL_VIEW,
]

A2, B2, C1, E5 = "pt:0,1", "pt:1,1", "pt:2,0", "pt:4,4"
ROOT = ".pt-table .pt-root"
SVG = f"{ROOT} svg.pt-svg"

# What the board shows at a point: the item with that id (a piece on an
# occupied point, a cell on an empty one), its tooltip and its fill.
_JS_POINT = """
([svgSel, id]) => {
  const svg = document.querySelector(svgSel);
  if (!svg) return null;
  const gs = [...svg.querySelectorAll(`g[data-id="${id}"]`)];
  return gs.map((g) => {
    const t = g.querySelector('title');
    const shape = g.querySelector('.pt-shape');
    return {
      kind: g.classList.contains('pt-piece') ? 'piece' : g.classList.contains('pt-cell') ? 'cell' : 'other',
      title: t ? t.textContent : '',
      fill: shape ? shape.getAttribute('fill') : null,
      movable: g.classList.contains('pt-movable'),
    };
  });
}
"""



def version(nb) -> int:
    return board_version(nb.page, SVG)


def point(nb, pid: str) -> list[dict]:
    return nb.page.evaluate(_JS_POINT, [SVG, pid])


def piece_at(nb, pid: str) -> dict | None:
    found = [p for p in point(nb, pid) if p["kind"] == "piece"]
    return found[0] if found else None


def score(nb) -> dict[str, list[str]]:
    rows = panel_rows(nb.page, ROOT, "Score")
    assert rows, "no Score panel on the board"
    return {row[0]: row[1:] for row in rows}


def message(nb) -> str:
    return nb.page.locator(f"{ROOT} .pt-message").inner_text().strip()


def board_error(nb) -> str:
    return nb.page.locator(f"{ROOT} .pt-error").inner_text().strip()


def wait_version_above(nb, v0: int, timeout: float = 20.0) -> int:
    return wait_board_version_above(nb.page, v0, SVG, timeout)


def wait_until(nb, js: str, arg, timeout: float = 20.0) -> None:
    nb.page.wait_for_function(js, arg=arg, timeout=timeout * 1000, polling=50)


def kernel_view(nb, cell: int | None = None) -> dict:
    """The session as the kernel sees it: ``state`` (the position JSON),
    ``move`` (the move number), the board's scene ``version`` and ``error``,
    ``c1`` (the options of c1) and ``log`` (the moves' notations, the start
    first). From output ``cell``, or a new cell.

    A new cell is also a barrier: comm messages from the page and execute
    requests share the kernel's shell channel, so anything the page sent
    before it has been handled when its output arrives.
    """
    out = nb.cell_output_text(cell) if cell is not None else nb.run_code(KERNEL_VIEW)
    return json.loads(out.strip().splitlines()[-1])


def click_option(nb, pid: str, label_prefix: str) -> str | None:
    """Click point ``pid`` and commit its option whose label starts with
    ``label_prefix``: through the menu when the point offers several; with
    one, the click commits it (check what was played from the kernel).
    Waits for the redraw. Returns the label picked in the menu, or None."""
    page = nb.page
    v0 = version(nb)
    page.locator(f'{SVG} g[data-id="{pid}"]').first.click()
    # Either the one option was sent (a redraw comes) or the menu opened.
    page.wait_for_function(
        "([root, svg, v]) => { const s = document.querySelector(svg);"
        " return (!!s && Number(s.getAttribute('data-version') || 0) > v)"
        " || !!document.querySelector(root + ' .pt-menu'); }",
        arg=[ROOT, SVG, v0], timeout=20_000, polling=50,
    )
    label = None
    menu = page.locator(f"{ROOT} .pt-menu")
    if version(nb) <= v0 and menu.count():
        options = menu.locator("button.pt-menu-option")
        labels = [t.strip() for t in options.all_inner_texts()]
        matches = [i for i, t in enumerate(labels) if t.startswith(label_prefix)]
        assert matches, f"{pid}: no option starting with {label_prefix!r} in the menu {labels}"
        label = labels[matches[0]]
        options.nth(matches[0]).click()
        wait_version_above(nb, v0)
    assert board_error(nb) == "", f"the board shows an error after clicking {pid}: {board_error(nb)!r}"
    return label


def test_source_place_capture_undo(open_notebook):
    nb = open_notebook("source_place_capture_undo.ipynb", CELLS)
    nb.run_all()
    page = nb.page
    nb.wait_for(f'{SVG} g[data-id="{B2}"]')
    undo = page.locator(".pt-table button.widget-button", has_text=re.compile(r"^\s*Undo\s*$"))
    assert undo.count() == 1
    assert undo.is_disabled()          # nothing to undo at the start

    # The hand-written position arrived as written.
    start = kernel_view(nb, cell=2)
    assert start["state"]["board"] == POSITION["board"]
    assert (start["state"]["to_move"], start["state"]["ap_left"], start["move"]) == ("red", 2, 0)
    assert piece_at(nb, B2)["fill"] == GREEN
    assert piece_at(nb, A2) is None
    assert version(nb) == start["version"]
    green_before = score(nb)["green (B)"]
    assert green_before[:2] == ["2", "1"]    # connected, unconnected

    # -- an illegal point: a reason on the board, no menu.
    v0 = version(nb)
    page.locator(f'{SVG} g[data-id="{E5}"]').first.click()
    wait_until(nb, "(sel) => { const m = document.querySelector(sel);"
               " return !!m && m.classList.contains('pt-why') && m.textContent.length > 0; }",
               f"{ROOT} .pt-message")
    why = message(nb)
    assert "e5 is not next to a connected red token" in why, why
    assert page.locator(f"{ROOT} .pt-menu").count() == 0

    # -- a point with two options: the menu lists the game's labels; Cancel.
    # (No cell may run while the menu is open: typing in a cell presses
    # Escape, which closes it.)
    page.locator(f'{SVG} g[data-id="{C1}"]').first.click()
    menu = nb.wait_for(f"{ROOT} .pt-menu")
    labels = [t.strip() for t in menu.locator("button.pt-menu-option").all_inner_texts()]
    assert labels == start["c1"], labels
    assert labels[0].startswith("Remove fortification") and labels[1].startswith("Capture"), labels
    menu.locator("button.pt-menu-cancel").click()
    menu.wait_for(state="detached")

    # Neither click sent anything: once the kernel has handled all the page
    # sent (the barrier), nothing has changed on either side.
    assert kernel_view(nb) == start
    assert version(nb) == v0
    assert board_error(nb) == ""

    # -- place on a2 (1 AP): a red, connected token appears there.
    v0 = version(nb)
    assert click_option(nb, A2, "Place") is None      # one option: no menu
    wait_version_above(nb, v0)
    wait_until(nb, "([sel, id]) => !!document.querySelector(`${sel} g.pt-piece[data-id=\"${id}\"]`)", [SVG, A2])
    placed = piece_at(nb, A2)
    assert placed["fill"] == RED, placed
    assert "red token" in placed["title"] and "not connected" not in placed["title"], placed
    assert "1 AP left" in page.locator(f"{ROOT} .pt-status").inner_text()
    seen = kernel_view(nb)
    assert seen["state"]["board"][:2] == ["rrBbbbbbb", "rg......."]
    assert (seen["state"]["to_move"], seen["state"]["ap_left"], seen["move"]) == ("red", 1, 1)
    assert (seen["version"], seen["error"]) == (version(nb), "")
    assert seen["log"][-1] == "red: place a2", seen["log"]
    log = log_entries(page)
    assert log[-1] == "1. red: place a2", log

    shot = os.environ.get("PLAYTEST_SOURCE_SCREENSHOT", "").strip()
    if shot:
        page.locator(".pt-table").first.screenshot(path=shot)

    # -- capture b2 (unconnected: 1 AP): the green token goes, the score changes.
    v0 = version(nb)
    score_before = score(nb)
    assert click_option(nb, B2, "Capture") is None
    wait_version_above(nb, v0)
    wait_until(nb, "([sel, id]) => !document.querySelector(`${sel} g.pt-piece[data-id=\"${id}\"]`)", [SVG, B2])
    assert piece_at(nb, B2) is None
    assert [p["kind"] for p in point(nb, B2)] == ["cell"]   # an empty point again
    score_after = score(nb)
    assert score_after != score_before
    assert score_after["green (B)"][:2] == ["2", "0"]
    assert int(score_after["green (B)"][-1]) == int(score_before["green (B)"][-1]) - 1
    assert undo.is_enabled()
    seen = kernel_view(nb)
    assert seen["state"]["board"][:2] == ["rrBbbbbbb", "r........"]
    assert (seen["state"]["to_move"], seen["move"]) == ("blue", 2)   # the 2 AP are spent: blue's turn
    assert (seen["version"], seen["error"]) == (version(nb), "")
    assert seen["log"][-1] == "red: capture green b2 (1 AP)", seen["log"]

    # -- Undo on the table: the captured token is back, board and kernel agree.
    v0 = version(nb)
    undo.click()
    wait_version_above(nb, v0)
    wait_until(nb, "([sel, id]) => !!document.querySelector(`${sel} g.pt-piece[data-id=\"${id}\"]`)", [SVG, B2])
    back = piece_at(nb, B2)
    assert back["fill"] == GREEN, back
    assert "green token not connected" in back["title"], back
    assert piece_at(nb, A2)["fill"] == RED      # the place stays: one step back
    assert score(nb)["green (B)"] == green_before
    seen = kernel_view(nb)
    assert seen["state"]["board"][:2] == ["rrBbbbbbb", "rg......."]
    assert (seen["state"]["to_move"], seen["state"]["ap_left"], seen["move"]) == ("red", 1, 1)
    assert (seen["version"], seen["error"]) == (version(nb), "")
    assert board_error(nb) == ""
    assert nb.errors() == []
