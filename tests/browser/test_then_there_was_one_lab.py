"""Then There Was One in a real JupyterLab: a wall, six steps, undo, a budget (issue 3).

A generated notebook starts a 4-player session (the wall player and three
tokens) from a hand-written position (the position JSON of
``playtest/games/then_there_was_one.py``) and shows ``playtest.Table(session)``.
It is round 2 and the wall player is to move; one wall is left standing from
round 1 (e5|e6) and the 15 obstacles lie where the game's ``DEFAULT_LAYOUT``
puts them (``#`` below; rows 9 to 14 are left out). Red is on e3, Blue on b2,
Green on i2 (row 1 at the bottom, the black line above row 2)::

    row 8   .  .  .  .  .  #  .  .  .  .
    row 7   #  .  .  .  #  .  .  .  .  #
    row 6   .  .  .  .  .  .  .  .  .  .
    row 5   .  .  .  #  ‾  .  #  .  .  .      ‾ the old wall e5|e6 (on e5's top edge)
    row 4   .  .  #  .  .  .  .  #  .  .
    row 3   .  .  .  .  R  .  .  .  .  .
            ============================      the black line
    row 2   .  B  .  .  .  .  .  .  G  .
    row 1   .  .  .  .  .  .  .  .  .  .
            a  b  c  d  e  f  g  h  i  j

In the page the test

0. finds the board's coordinates (a..j under the grid, 1..14 beside it) and
   clicks just inside Red's tile e3, next to its edge e3|e4, where no wall may
   go: the board explains the edge ("a wall may not lie on an edge of a
   token's tile (e3|e4) (rule A.1 §14.3)", and the rule's text below the
   board), not the tile under the click, and nothing is played; an illegal build sent from the kernel's side shows the
   cited rule's text under the board's error;
1. clicks the empty edge slot e4|e5 (``edge:4,3:4,4``, right in front of
   Red): the slot is now drawn as this turn's wall, the budget panel counts
   it, the kernel has it in ``built_this_turn``;
2. presses the board's "End wall turn" button: Red is to move, 6 steps;
3. clicks six lit tiles one after another, each time the lit ``cell:`` tile
   nearest the goal row (highest row, then leftmost; a diagonal one is a
   jump). After every click the red token sits on the clicked tile and shows
   the steps left, the status line and the "This turn" panel count down, and
   the dashed red path grows by one point. After the sixth the kernel has Red
   on the last tile, ``moved == [1]`` and Blue to move, and Red's whole path
   is outlined as the last move;
4. presses the table's Undo button until Red is back on e3 with 6 steps
   left (six presses: one per step), and checks that from the kernel;
5. opens the "Rule parameters" accordion (in the side column, beside the
   board), types 10 into the ``wall_budget`` number box (a ``BoundedIntText``: its range 0..400 is too wide for a
   slider) and presses Enter: the kernel has ``params.wall_budget == 10`` while
   the turn being played keeps 12, and the board says the new budget applies
   from the next turn (the "Changed rules" panel).

Every step waits on a condition in the page (``data-version`` of
``svg.pt-svg`` grows after each redraw) or on a kernel round trip, never on a
sleep. A new cell is also a barrier: the page's comm messages and execute
requests share the kernel's shell channel, so whatever a click sent has been
handled when the cell's output arrives.

Set ``PLAYTEST_TTWO_SCREENSHOT=/some/file.png`` to also save a screenshot of
the table during Red's turn (after two steps: the path drawn, the legal steps
lit, two of them jumps).
"""

from __future__ import annotations

import json
import os
import re

import pytest
from lab import board_version, panel_rows, wait_board_version_above

pytestmark = pytest.mark.browser

START = [4, 2]                       # Red's tile, e3
WALL_EDGE = "edge:4,3:4,4"           # e4|e5, in front of Red
RED = "#d1495b"                      # then_there_was_one.SEAT_COLORS[1]
RED_TOKEN = "Red ●'s token"          # the start of Red's token's tooltip
TIMEOUT_MS = 20_000

POSITION = {
    "board": [10, 14],
    "phase": "wall",
    "to_move": 0,
    "round": 2,
    "first_wall_turn": False,
    "obstacles": [[2, 3], [3, 4], [7, 3], [6, 4], [0, 6], [4, 6], [5, 7], [9, 6],
                  [2, 9], [3, 10], [7, 9], [6, 10], [1, 12], [5, 12], [8, 12]],
    "walls": [[[4, 4], [4, 5]]],
    "tokens": {"1": START, "2": [1, 1], "3": [8, 1]},
}

# What the kernel sees, as one JSON line (see :func:`kernel_view`).
KERNEL_VIEW = ("print(json.dumps({'state': session.state.to_json(), 'move': session.move_number,"
               " 'budget': session.params.wall_budget, 'budget_now': session.state.rules.wall_budget,"
               " 'version': table.board.scene['version'], 'error': table.board.error,"
               " 'notice': table.notice.value, 'can_redo': session.can_redo,"
               " 'log': [e['notation'] for e in session.history()],"
               " 'here': [e['notation'] for e in session.history() if e['current']][0]}))")

CELLS = [
    "import json\n"
    "import playtest\n"
    "POSITION = {\n" + "".join(f"    {k!r}: {v!r},\n" for k, v in POSITION.items()) + "}\n"
    "game = playtest.load('then_there_was_one', num_players=4)\n"
    "session = playtest.Session(game, start=POSITION)\n"
    "table = playtest.Table(session)",
    "table",
    KERNEL_VIEW,
]

TABLE = ".pt-table"
ROOT = f"{TABLE} .pt-root"
SVG = f"{ROOT} svg.pt-svg"


# The piece whose tooltip starts with ``prefix``: its tooltip, its label and
# the id of the grid cell under its centre (where the board drew it).
_JS_PIECE = """
([svgSel, prefix]) => {
  const svg = document.querySelector(svgSel);
  if (!svg) return null;
  const g = [...svg.querySelectorAll('g.pt-piece')].find((g) => {
    const t = g.querySelector(':scope > title');
    return t && t.textContent.startsWith(prefix);
  });
  if (!g) return null;
  const box = g.querySelector('.pt-shape').getBoundingClientRect();
  const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
  const cell = [...svg.querySelectorAll('g.pt-cell[data-id^="cell:"]')].find((c) => {
    const r = c.getBoundingClientRect();
    return r.left <= x && x < r.right && r.top <= y && y < r.bottom;
  });
  const label = g.querySelector('.pt-label');
  return {title: g.querySelector(':scope > title').textContent, text: label ? label.textContent : '',
          cell: cell ? cell.getAttribute('data-id') : null};
}
"""

# The number of points of the dashed path polyline drawn in ``color`` (0: none).
_JS_PATH_POINTS = """
([svgSel, color]) => {
  const svg = document.querySelector(svgSel);
  const line = svg && [...svg.querySelectorAll('g.pt-line polyline.pt-line-path')].find(
    (p) => p.getAttribute('stroke') === color && p.hasAttribute('stroke-dasharray'));
  return line ? line.getAttribute('points').trim().split(/\\s+/).length : 0;
}
"""


# ---------------------------------------------------------------------- helpers

def version(nb) -> int:
    return board_version(nb.page, SVG)


def wait_version_above(nb, v0: int, timeout: float = 20.0) -> int:
    return wait_board_version_above(nb.page, v0, SVG, timeout)


def kernel_view(nb, cell: int | None = None) -> dict:
    """The session as the kernel sees it (``state`` is the position JSON), from
    output ``cell`` or a new cell (a barrier, see the module docstring)."""
    out = nb.cell_output_text(cell) if cell is not None else nb.run_code(KERNEL_VIEW)
    return json.loads(out.strip().splitlines()[-1])


def panel(nb, title: str) -> dict[str, str] | None:
    rows = panel_rows(nb.page, ROOT, title)
    return None if rows is None else {row[0]: " | ".join(row[1:]) for row in rows}


def red_token(nb) -> dict | None:
    """Red's token: ``title`` ("Red ●'s token: 5 steps left" while it moves,
    "Red ●'s token (seat 1)" otherwise), ``text`` (its label) and ``cell``."""
    return nb.page.evaluate(_JS_PIECE, [SVG, RED_TOKEN])


def path_points(nb) -> int:
    return nb.page.evaluate(_JS_PATH_POINTS, [SVG, RED])


def status(nb) -> str:
    return nb.page.locator(f"{ROOT} .pt-status-text").inner_text().strip()


def board_error(nb) -> str:
    return nb.page.locator(f"{ROOT} .pt-error").inner_text().strip()


def items(nb, item_id: str):
    return nb.page.locator(f'{SVG} g[data-id="{item_id}"]')


def click_item(nb, item_id: str) -> None:
    """A real mouse click on the centre of the topmost item drawn with ``item_id``
    (``force``: the board resolves clicks through inert items itself)."""
    items(nb, item_id).last.click(force=True, timeout=TIMEOUT_MS)


def lit_tiles(nb) -> list[str]:
    """Ids of the clickable ``cell:`` tiles now."""
    return nb.page.eval_on_selector_all(
        f'{SVG} g[data-id^="cell:"].pt-movable', "gs => gs.map((g) => g.getAttribute('data-id'))")


def cell_of(cid: str) -> list[int]:
    c, r = cid.split(":", 1)[1].split(",")
    return [int(c), int(r)]


def label(cell: list[int]) -> str:
    """``[2, 7]`` as the move log writes it: ``c8``."""
    return f"{'abcdefghij'[cell[0]]}{cell[1] + 1}"


def nearest_goal(cids: list[str]) -> str:
    """The tile nearest the goal row (the highest row), then the leftmost."""
    return min(cids, key=lambda cid: (-cell_of(cid)[1], cell_of(cid)[0]))


def save_table_screenshot(nb, path: str) -> None:
    """The whole table, in a viewport tall enough for it (an element taller
    than Lab's notebook area comes out clipped, with Lab's bars over it)."""
    page = nb.page
    size = page.viewport_size
    page.set_viewport_size({"width": size["width"], "height": 1800})
    try:
        table = page.locator(TABLE).first
        table.scroll_into_view_if_needed()
        table.screenshot(path=path)
    finally:
        page.set_viewport_size(size)


def last_marked(nb) -> list[str]:
    """Ids of the items outlined as the last move."""
    return nb.page.eval_on_selector_all(f"{SVG} g.pt-last", "gs => gs.map((g) => g.getAttribute('data-id'))")


def message(nb) -> str:
    return nb.page.locator(f"{ROOT} .pt-message").inner_text().strip()


def widget_button(nb, label: str):
    return nb.page.locator(f"{TABLE} button.widget-button", has_text=re.compile(rf"^\s*{re.escape(label)}\s*$"))


# ---------------------------------------------------------------------- the test

def test_wall_six_steps_undo_budget(open_notebook):
    from playwright.sync_api import expect

    nb = open_notebook("ttwo_wall_steps_undo_budget.ipynb", CELLS)
    nb.run_all()
    page = nb.page
    expect(page.locator(TABLE)).to_have_count(1, timeout=TIMEOUT_MS)
    # (an edge's box is a line, zero pixels high or wide: Playwright calls it hidden)
    nb.wait_for(f'{SVG} g[data-id="{WALL_EDGE}"]', state="attached")
    undo = widget_button(nb, "Undo")
    expect(undo).to_be_disabled()              # nothing to undo at the start

    # -- the hand-written position arrived as written
    start = kernel_view(nb, cell=2)
    s = start["state"]
    assert (s["phase"], s["to_move"], s["round"], start["move"]) == ("wall", 0, 2, 0), start
    assert s["tokens"] == POSITION["tokens"] and s["walls"] == POSITION["walls"], s
    assert (start["budget"], start["budget_now"]) == (12, 12)
    assert version(nb) == start["version"]
    assert status(nb) == "Wall ■ to build, round 2: 1 of 12 points used"
    assert panel(nb, "Wall budget")["points used"] == "1 of 12"
    assert red_token(nb)["cell"] == "cell:4,2"
    old_wall = items(nb, "edge:4,4:4,5")
    expect(old_wall).to_have_count(1)
    assert "pt-edge-old" in old_wall.get_attribute("class")

    # -- 0. coordinates, and a click on the edge of Red's tile explains the edge (issue 8)
    coords = page.eval_on_selector_all(f"{SVG} text.pt-coord", "ts => ts.map((t) => t.textContent)")
    assert coords == list("abcdefghij") + [str(r) for r in range(1, 15)], coords
    e3 = items(nb, "cell:4,2").first.locator(".pt-shape")
    v0 = version(nb)
    # (positions relative to the tile, taken at the click: Lab may scroll the notebook in between)
    e3.click(position={"x": 17, "y": 4}, force=True)             # inside e3, 4 px below its top edge e3|e4
    expect(page.locator(f"{ROOT} .pt-message")).to_have_text(
        "a wall may not lie on an edge of a token's tile (e3|e4) (rule A.1 §14.3)")
    expect(page.locator(f"{ROOT} .pt-rule")).to_have_text(re.compile(r"^A\.1 §14\.3 Clearance from tokens"))
    e3.click(force=True)                                         # the tile's centre: the tile's own reason
    expect(page.locator(f"{ROOT} .pt-message")).to_have_text(re.compile(r"a token stands on e3"))
    assert kernel_view(nb)["move"] == 0 and version(nb) == v0    # nothing was played
    nb.run_code("table.board.receive({'type': 'action', 'action': {'kind': 'build', 'a': [4, 2], 'b': [4, 3]}})")
    expect(page.locator(f"{ROOT} .pt-error .pt-error-text")).to_have_text(
        "a wall may not lie on an edge of a token's tile (e3|e4) (rule A.1 §14.3)")
    expect(page.locator(f"{ROOT} .pt-error .pt-error-rule")).to_have_text(
        re.compile(r"^A\.1 §14\.3 Clearance from tokens\s+\"Walls cannot be built"))
    assert last_marked(nb) == []                                 # a hand-written position: no last move

    # -- 1. build a wall: click the empty edge slot in front of Red
    slot = items(nb, WALL_EDGE)
    expect(slot).to_have_count(1)
    classes = slot.get_attribute("class")
    assert "pt-edge-slot" in classes and "pt-movable" in classes, classes
    assert page.locator(f'{SVG} g[data-id^="edge:"].pt-edge-slot.pt-movable').count() > 100
    v0 = version(nb)
    click_item(nb, WALL_EDGE)
    wait_version_above(nb, v0)
    wall = items(nb, WALL_EDGE)
    expect(wall).to_have_count(1)              # the slot is gone, a wall is drawn instead
    classes = wall.get_attribute("class")
    assert "pt-edge-wall" in classes and "pt-edge-slot" not in classes, classes
    assert "pt-movable" in classes             # this turn's wall can be taken back
    assert last_marked(nb) == [WALL_EDGE]      # the last move, outlined
    assert page.locator(f"{ROOT} .pt-error").is_hidden()     # a move clears the old error
    assert wall.locator("title").text_content() == "built this turn"
    assert status(nb) == "Wall ■ to build, round 2: 2 of 12 points used"
    budget = panel(nb, "Wall budget")
    assert budget["points used"] == "2 of 12" and budget["walls standing"] == "1 (+1 built this turn)", budget
    assert board_error(nb) == ""
    seen = kernel_view(nb)
    assert seen["state"]["built_this_turn"] == [[[4, 3], [4, 4]]], seen["state"]
    assert seen["state"]["walls"] == POSITION["walls"]
    assert (seen["move"], seen["version"], seen["error"]) == (1, version(nb), "")
    assert seen["here"] == seen["log"][-1] == "Wall ■ wall e4|e5 (2/12)", seen["log"]

    # -- 2. end the wall turn with the board's button: Red is to move
    v0 = version(nb)
    page.locator(f"{ROOT} .pt-buttons button.pt-button", has_text="End wall turn").click()
    wait_version_above(nb, v0)
    assert status(nb) == "Red ● to move, round 2: 6 of 6 steps left"
    assert page.locator(f"{ROOT} .pt-buttons button.pt-button").count() == 0
    assert page.locator(f'{SVG} g[data-id^="edge:"].pt-movable').count() == 0
    token = red_token(nb)
    assert (token["cell"], token["text"]) == ("cell:4,2", "6"), token
    assert path_points(nb) == 0                # no path before the first step
    seen = kernel_view(nb)
    assert (seen["state"]["phase"], seen["state"]["to_move"], seen["state"]["path"]) == ("token", 1, [START])
    assert seen["state"]["built_this_turn"] == [] and len(seen["state"]["walls"]) == 2, seen["state"]
    assert seen["move"] == 2

    # -- 3. six steps, each a click on the lit tile nearest the goal
    shot = os.environ.get("PLAYTEST_TTWO_SCREENSHOT", "").strip()
    clicked: list[str] = []
    for k in range(1, 7):
        lit = lit_tiles(nb)
        assert lit, f"step {k}: no tile is lit"
        assert red_token(nb)["cell"] not in lit
        pick = nearest_goal(lit)
        v0 = version(nb)
        click_item(nb, pick)
        wait_version_above(nb, v0)
        assert board_error(nb) == "", board_error(nb)
        clicked.append(pick)
        if k < 6:
            left = str(6 - k)
            token = red_token(nb)
            assert (token["cell"], token["text"]) == (pick, left), (k, token)
            assert token["title"] == f"{RED_TOKEN}: {left} step{'s' if left != '1' else ''} left"
            assert status(nb) == f"Red ● to move, round 2: {left} of 6 steps left"
            assert panel(nb, "This turn")["steps"] == f"{k} of 6"
            assert path_points(nb) == k + 1    # the start tile and every step
            assert pick not in lit_tiles(nb)
            if k == 2 and shot:                # lit: a step back and two jumps
                save_table_screenshot(nb, shot)
    # the sixth step ended Red's turn: Blue is to move, Red's token is plain again
    assert status(nb) == "Blue ▲ to move, round 2: 6 of 6 steps left"
    last = cell_of(clicked[-1])
    token = red_token(nb)
    assert token == {"title": f"{RED_TOKEN} (seat 1)", "text": "1", "cell": clicked[-1]}, token
    assert path_points(nb) == 0
    assert sorted(last_marked(nb)) == sorted(["cell:4,2"] + clicked)   # Red's whole path is the last move
    assert page.locator(f"{ROOT} .pt-legend").inner_text().strip() == "outlined: the last move"
    tokens = panel(nb, "Tokens")
    assert tokens["Red ●"] == f"on {label(last)} (moved this round)", tokens
    assert panel(nb, "This turn")["steps"] == "0 of 6"
    seen = kernel_view(nb)
    st = seen["state"]
    assert st["tokens"]["1"] == last and st["tokens"]["1"] != START, st["tokens"]
    assert (st["phase"], st["to_move"], st["moved"]) == ("token", 2, [1]), st
    assert st["eliminated"] == [] and st["arrived"] == []
    assert seen["move"] == 8 and seen["error"] == "" and seen["version"] == version(nb)
    assert seen["here"] == seen["log"][-1]
    red_notations = seen["log"][3:]
    red_moves = [n for n in seen["log"] if n.startswith("Red ● ")]   # "Red ● e3→e4", "Red ● d4⤢c5 jump"
    assert red_moves == red_notations, seen["log"]
    assert [re.split("[→⤢]", n)[1].split()[0] for n in red_moves] == [label(cell_of(c)) for c in clicked], \
        (red_moves, clicked)
    expect(undo).to_be_enabled()

    # -- 4. Undo until Red is back on e3 with all six steps (one press per step)
    presses = 0
    while status(nb) != "Red ● to move, round 2: 6 of 6 steps left":
        assert presses < 10, f"Undo pressed {presses} times, the board says {status(nb)!r}"
        v0 = version(nb)
        undo.click()
        wait_version_above(nb, v0)
        presses += 1
        if presses < 6:
            token = red_token(nb)
            assert (token["cell"], token["text"]) == (clicked[5 - presses], str(presses)), (presses, token)
    assert presses == 6
    assert red_token(nb)["cell"] == "cell:4,2" and path_points(nb) == 0
    assert "pt-edge-old" in items(nb, WALL_EDGE).get_attribute("class")   # the wall stays
    seen = kernel_view(nb)
    st = seen["state"]
    assert st["tokens"]["1"] == START and st["path"] == [START], st
    assert (st["phase"], st["to_move"], st["moved"], st["steps_taken"]) == ("token", 1, [], 0), st
    assert seen["move"] == 2 and seen["can_redo"], seen
    assert seen["here"] == "Wall ■ ends turn (2/12)", seen    # the six steps stay on the redo line
    assert len(seen["log"]) == 9 and seen["log"][3:] == red_notations
    expect(widget_button(nb, "Redo")).to_be_enabled()

    # -- 5. wall_budget = 10 through the parameter panel
    accordion = page.locator(f"{TABLE} .pt-side .jupyter-widget-Collapse", has=page.locator(
        ".jupyter-widget-Collapse-header", has_text="Rule parameters"))
    expect(accordion).to_have_count(1)
    accordion.locator(".jupyter-widget-Collapse-header").click()
    expect(accordion).to_have_class(re.compile(r"\bjupyter-widget-Collapse-open\b"))
    control = accordion.locator(".pt-param-wall_budget")
    expect(control).to_have_count(1)
    expect(control).to_contain_text("wall_budget")
    box = control.locator("input.widget-input")
    expect(box).to_be_visible()
    expect(box).to_have_value("12")
    v0 = version(nb)
    box.click()
    page.keyboard.press("Control+A")
    page.keyboard.type("1000")                 # checked at every key: refused at the field, nothing applied
    error = control.locator(".pt-param-error")
    expect(error).to_contain_text("wall_budget")
    apply = control.locator(".pt-param-apply")
    expect(apply).to_be_hidden()
    page.keyboard.press("Backspace")
    page.keyboard.press("Backspace")           # "10": good as typed, waits for Enter or Apply
    expect(error).to_be_hidden()
    expect(apply).to_be_visible()
    expect(apply).to_contain_text("wall_budget = 10")
    assert version(nb) == v0                   # typing played nothing
    page.keyboard.press("Enter")               # a live change is entered
    wait_version_above(nb, v0)
    expect(apply).to_be_hidden()
    expect(box).to_have_value("10")
    changed = panel(nb, "Changed rules")
    assert changed == {"wall_budget": "10 from the next turn (now 12)"}, changed
    assert panel(nb, "Wall budget")["budget"] == "10 points a wall turn"
    assert status(nb) == "Red ● to move, round 2: 6 of 6 steps left"   # Red's turn goes on
    notice = page.locator(f"{TABLE} .widget-label", has_text="wall_budget = 10")
    expect(notice).to_have_text(re.compile(r"the board says when the rules apply it"))
    seen = kernel_view(nb)
    assert seen["budget"] == 10 and seen["budget_now"] == 12, seen    # from the next turn
    assert seen["here"] == seen["log"][-1] == "set wall_budget=10", seen["log"]
    assert seen["state"]["tokens"]["1"] == START and seen["state"]["to_move"] == 1
    assert (seen["error"], seen["version"]) == ("", version(nb))
    assert nb.run_code("print(session.params.wall_budget == 10)") == "True"
    assert nb.errors() == []
