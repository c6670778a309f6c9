"""Every game's table fits its column in a real JupyterLab (issue 28, item 1).

A generated notebook shows one table of each of the five games (bound to a
seat, so no curtain hides a board) in one output, with the file browser open.
At 1280x800 and at 1920x1080 the test

1. finds no board wider than its column: the stage has nothing to scroll
   sideways and every drawing ends inside the board column (Back to the
   Wall's three boards stack; a board scales down only when it must);
2. clicks every board's far corner (the bottom-right cell of a grid, the last
   point of a points board, the right side of a ring) with a real mouse click
   at that spot: the spot is on the screen, inside the column, and the click
   lands on that board's drawing;
3. zooms one board in (it then scrolls inside its own box), and back to "Fit".

Screenshots of each size are saved in the test's ``tmp_path``.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

GAMES = ["eat_thyself", "source", "then_there_was_one", "corner_rush", "back_to_the_wall"]

CELLS = [
    "import ipywidgets as w\n"
    "import playtest\n"
    f"games = {GAMES!r}\n"
    "tables = [playtest.Table(playtest.Session(name, seed=1), seat=0) for name in games]\n"
    "for name, table in zip(games, tables):\n"
    "    table.add_class(f'pt-fit-{name}')",
    "w.VBox(tables)",
]

# For each board of a table: its far corner in page pixels, whether that spot is on the screen and
# inside the board column, and what lies there.
_JS_CORNERS = """
(name) => {
  const table = document.querySelector(`.pt-fit-${name}`);
  const svg = table.querySelector('svg.pt-svg');
  const column = table.querySelector('.pt-root').parentElement.getBoundingClientRect();
  const stage = table.querySelector('.pt-stage');
  const out = [];
  for (const g of svg.querySelectorAll('g.pt-board')) {
    let x, y;
    const frame = g.querySelector('.pt-board-frame');
    const lines = g.querySelector('.pt-point-lines');
    const ring = g.querySelector('.pt-ring-line');
    if (frame) { const r = frame.getBoundingClientRect(); x = r.right - 4; y = r.bottom - 4; }
    else if (lines) { const r = lines.getBoundingClientRect(); x = r.right - 1; y = r.bottom - 1; }
    else if (ring) { const r = ring.getBoundingClientRect(); x = r.right - 2; y = r.top + r.height / 2; }
    else continue;
    const top = document.elementFromPoint(x, y);
    out.push({board: g.getAttribute('data-board'), x, y,
              onScreen: x >= 0 && y >= 0 && x <= window.innerWidth && y <= window.innerHeight,
              inColumn: x >= column.left && x <= column.right,
              onBoard: !!top && svg.contains(top)});
  }
  return {boards: out, svgRight: svg.getBoundingClientRect().right, columnRight: column.right,
          overflow: stage.scrollWidth - stage.clientWidth, scale: Number(svg.dataset.scale),
          rows: Number(svg.dataset.rows)};
}
"""

_JS_ARM = """
(name) => {
  const svg = document.querySelector(`.pt-fit-${name} svg.pt-svg`);
  window.__hit = null;
  svg.addEventListener('click', (e) => {
    const g = e.target.closest('[data-id]');
    window.__hit = g ? g.getAttribute('data-id') : (svg.contains(e.target) ? 'svg' : null);
  }, {once: true, capture: true});
}
"""


def _file_browser_open(page) -> None:
    """Open JupyterLab's file browser in the left sidebar (the narrow case the issue met)."""
    tab = page.locator('.jp-SideBar.jp-mod-left .lm-TabBar-tab[data-id="filebrowser"]')
    if tab.count() and "lm-mod-current" not in (tab.first.get_attribute("class") or ""):
        tab.first.click()
    page.locator(".jp-FileBrowser").first.wait_for(state="visible", timeout=10_000)


def _settle(page) -> None:
    """Two frames: the boards' resize observer lays them out again in the next one."""
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.wait_for_timeout(150)


def _scroll_to(page, name: str, board: str) -> None:
    """Bring a board to the middle of the screen, moving only the notebook (never a board's own box)."""
    page.evaluate("""([name, board]) => {
      const g = document.querySelector(`.pt-fit-${name} svg.pt-svg g.pt-board[data-board="${board}"]`);
      const panel = g.closest('.jp-WindowedPanel-outer') || g.closest('.jp-Notebook');
      const r = g.getBoundingClientRect(), p = panel.getBoundingClientRect();
      panel.scrollTop += (r.top + r.height / 2) - (p.top + p.height / 2);
    }""", [name, board])
    _settle(page)


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)], ids=["1280x800", "1920x1080"])
def test_every_board_fits_its_column_and_its_far_corner_can_be_clicked(open_notebook, size, tmp_path):
    nb = open_notebook(f"fit_{size[0]}.ipynb", CELLS)
    page = nb.page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    _file_browser_open(page)
    nb.run_all()
    for name in GAMES:
        nb.wait_for(f".pt-fit-{name} svg.pt-svg g.pt-board")
    _settle(page)
    clicked = {}
    for name in GAMES:
        seen = page.evaluate(_JS_CORNERS, name)
        assert seen["boards"], name
        assert seen["overflow"] <= 1 and seen["svgRight"] <= seen["columnRight"] + 1, (name, seen)
        for board in [b["board"] for b in seen["boards"]]:
            _scroll_to(page, name, board)
            spot = next(b for b in page.evaluate(_JS_CORNERS, name)["boards"] if b["board"] == board)
            assert spot["onScreen"] and spot["inColumn"] and spot["onBoard"], (name, spot)
            page.evaluate(_JS_ARM, name)
            page.mouse.click(spot["x"], spot["y"])
            hit = page.evaluate("() => window.__hit")
            assert hit is not None, (name, board, spot)
            clicked[f"{name}/{board}"] = hit
        if name == "back_to_the_wall":
            assert seen["rows"] >= 2 or size[0] >= 1920, seen      # three boards do not fit in one row at 1280
    # the far corner cells of Back to the Wall's boards are themselves (h8, i9, j10)
    assert clicked["back_to_the_wall/b2"] == "b2:j10" and clicked["back_to_the_wall/b0"] == "b0:h8", clicked
    assert clicked["then_there_was_one/board"].startswith("cell:9,"), clicked
    nb.screenshot(tmp_path / f"tables-{size[0]}.png", full_page=False)
    for name in GAMES:        # each table from its top, as a person scrolls to it
        page.evaluate("""(name) => {
          const t = document.querySelector(`.pt-fit-${name}`);
          const panel = t.closest('.jp-WindowedPanel-outer') || t.closest('.jp-Notebook');
          panel.scrollTop += t.getBoundingClientRect().top - panel.getBoundingClientRect().top - 8;
        }""", name)
        _settle(page)
        nb.screenshot(tmp_path / f"{name}-{size[0]}.png", full_page=False)

    # zoom: larger scrolls inside the board's own box; Fit comes back
    root = f".pt-fit-back_to_the_wall .pt-root"
    before = page.evaluate(_JS_CORNERS, "back_to_the_wall")
    for _ in range(3):
        page.locator(f"{root} .pt-zoom button.pt-zoom-in").click()
    _settle(page)
    zoomed = page.evaluate(_JS_CORNERS, "back_to_the_wall")
    assert zoomed["scale"] > before["scale"] and zoomed["scale"] >= 1.25, (before, zoomed)
    assert page.locator(f"{root} .pt-zoom-text").inner_text() == f"{round(zoomed['scale'] * 100)}%"
    page.locator(f"{root} .pt-zoom button.pt-zoom-fit").click()
    _settle(page)
    again = page.evaluate(_JS_CORNERS, "back_to_the_wall")
    assert again["scale"] == before["scale"] and again["overflow"] <= 1, (before, again)
    assert nb.errors() == []
