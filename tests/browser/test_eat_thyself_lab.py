"""Eat Thyself end to end in a real JupyterLab (issue 2 §8).

``notebooks/eat_thyself.ipynb`` is put in the Lab root and run from the Run
menu; then a person's playtest is played with real mouse clicks on the
*first* table (the recorded ``session``, opened with ``Session.open``; later
cells show tables of a scratch ``demo`` session): a king's move, undo, the same
move again, the answer, a note with HTML in it; then a kernel restart and
Run All, after which every move and the note are back (issue 8).  A second, small test clicks an opponent's piece
and checks that the board explains why and sends nothing, then opens the
popup menu of a target that two actions share and commits its second option.

Every locator is scoped to one table (``.pt-table``) and its board
(``.pt-root``); every wait is on a condition in the page (``data-version``
of ``svg.pt-svg`` grows after each redraw), never a sleep.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lab import log_state

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK = REPO / "notebooks" / "eat_thyself.ipynb"
SESSION_FILE = "sessions/eat_thyself.playtest.json"  # relative to the notebook (the Lab root)
XSS_NOTE = '<img src=x onerror="window.__xss=1"> tried a risky move'
TIMEOUT_MS = 20_000


# ---------------------------------------------------------------------- helpers

def _svg(board):
    return board.locator("svg.pt-svg")


def version(board) -> int:
    """The board's redraw counter (``data-version``, set after each drawing)."""
    return int(_svg(board).get_attribute("data-version") or 0)


def wait_drawn(board) -> int:
    """Wait until the board has drawn a scene at least once; its version."""
    board.page.wait_for_function(
        "svg => Number(svg.getAttribute('data-version')) > 0",
        arg=_svg(board).element_handle(timeout=TIMEOUT_MS), timeout=TIMEOUT_MS)
    return version(board)


def wait_version_above(board, v: int) -> int:
    board.page.wait_for_function(
        "([svg, v]) => Number(svg.getAttribute('data-version')) > v",
        arg=[_svg(board).element_handle(), v], timeout=TIMEOUT_MS)
    return version(board)


def click_item(board, item_id: str) -> None:
    """A real mouse click on the centre of the topmost item drawn with ``item_id``.

    ``force``: an item may lie under an inert one (a hand piece on its cell);
    the board resolves such clicks itself, Playwright's hit check would refuse.
    """
    board.locator(f'svg.pt-svg g[data-id="{item_id}"]').last.click(force=True, timeout=TIMEOUT_MS)


def select_and_commit(board, piece_selector: str) -> dict:
    """Select the first item matching ``piece_selector``, click its first
    highlighted target, pick the first menu option if a menu opens; wait for
    the redraw.  Returns what was clicked."""
    v0 = version(board)
    piece = board.locator(piece_selector).first
    piece_id = piece.get_attribute("data-id", timeout=TIMEOUT_MS)
    click_item(board, piece_id)
    # Targets are highlighted synchronously in the click handler: no wait.
    assert board.locator(f'g[data-id="{piece_id}"].pt-selected').count() >= 1
    targets = board.locator("svg.pt-svg g[data-id].pt-target")
    assert targets.count() >= 1, f"selecting {piece_id} highlighted no target"
    target_id = targets.first.get_attribute("data-id")
    assert version(board) == v0, "a select click must not send anything"
    click_item(board, target_id)
    svg = _svg(board).element_handle()
    root = board.element_handle()
    board.page.wait_for_function(
        "([svg, root, v]) => Number(svg.getAttribute('data-version')) > v"
        " || !!root.querySelector('.pt-menu .pt-menu-option')",
        arg=[svg, root, v0], timeout=TIMEOUT_MS)
    menu = None
    if version(board) == v0:  # several actions share the target: a menu
        option = board.locator(".pt-menu .pt-menu-option").first
        menu = option.inner_text()
        option.click(timeout=TIMEOUT_MS)
    return {"piece": piece_id, "target": target_id, "menu": menu,
            "version": wait_version_above(board, v0)}


def status(board) -> str:
    return board.locator(".pt-status-text").inner_text().strip()


def widget_button(table, label: str):
    return table.locator("button.widget-button", has_text=re.compile(rf"^\s*{re.escape(label)}\s*$"))


def notes_panel(board):
    return board.locator(".pt-panels table.pt-panel", has=board.page.locator("caption", has_text="Notes at move"))


# ---------------------------------------------------------------------- tests

def test_play_undo_note_restart_run_all_finds_everything_back(open_notebook, lab_server):
    """Issue 8: a recorded playtest survives a kernel restart and Run All, move for move."""
    from playwright.sync_api import expect

    # -- 1. The notebook in the Lab root (it makes sessions/ itself); Run All.
    (lab_server.root / SESSION_FILE).unlink(missing_ok=True)
    nb = open_notebook("eat_thyself.ipynb", files=[NOTEBOOK])
    nb.run_all()  # raises CellError on any error output
    assert nb.errors() == []
    page = nb.page
    assert (lab_server.root / SESSION_FILE).is_file(), "the notebook did not open its session file"

    tables = page.locator(".pt-table")
    expect(tables).to_have_count(3, timeout=TIMEOUT_MS)  # your session, the demo, the demo with a bot
    table = tables.first
    board = table.locator(".pt-root").first
    # the first table is the recorded session (the cell that opens it)
    assert "Session.open(" in table.locator(
        "xpath=ancestor::div[contains(@class, 'jp-CodeCell')]").locator(".jp-InputArea").inner_text()
    v_start = wait_drawn(board)
    log0 = log_state(table)
    status0 = status(board)
    assert status0 == "Triangle ▲ to move" and log0["options"] == ["start"], (status0, log0)

    # -- 2. A king's move by clicking: select a king, then a highlighted slot.
    first = select_and_commit(board, 'g[data-id^="slot:"].pt-movable')
    assert first["version"] > v_start
    log1 = log_state(table)
    new_entry = log1["selected"]
    assert log1["index"] == 1 and re.match(r"^1\. ▲", new_entry), log1
    expect(widget_button(table, "Undo")).to_be_enabled()

    # -- 3. Undo: back at the start (the move stays on the redo line only).
    v = version(board)
    widget_button(table, "Undo").click()
    wait_version_above(board, v)
    log2 = log_state(table)
    assert log2["selected"] == "start" and log2["index"] == 0, log2
    assert status(board) == status0
    expect(widget_button(table, "Redo")).to_be_enabled()

    # -- 4. The same move again (the same node, not a new branch), then Circle's answer.
    again = select_and_commit(board, 'g[data-id^="slot:"].pt-movable')
    assert (again["piece"], again["target"]) == (first["piece"], first["target"])
    assert log_state(table)["selected"] == new_entry
    while status(board).startswith("Triangle"):      # an eaten piece goes back first
        select_and_commit(board, 'g[data-id^="hand:"].pt-movable')
    select_and_commit(board, 'g[data-id^="slot:"].pt-movable')
    log3 = log_state(table)
    last_entry = log3["selected"]
    move_number = int(last_entry.split(".")[0])
    assert move_number >= 2, log3

    # -- 5. A note with HTML in it, through the Textarea and "Add note".
    v = version(board)
    table.locator(".widget-textarea textarea").first.fill(XSS_NOTE)
    widget_button(table, "Add note").click()
    wait_version_above(board, v)
    panel = notes_panel(board)
    expect(panel).to_have_count(1, timeout=TIMEOUT_MS)
    expect(panel.locator("td").last).to_have_text(XSS_NOTE)  # literal text, beside its author
    assert page.evaluate("() => window.__xss") is None
    log4 = log_state(table)
    assert "📝" in log4["selected"], log4
    on_file = (lab_server.root / SESSION_FILE).read_text(encoding="utf-8")
    assert "tried a risky move" in on_file  # autosaved before the call returned

    # -- 6. Restart the kernel and Run All: the recorded session comes back, not a fresh one.
    nb.restart_kernel()
    nb.run_all()
    assert nb.errors() == []
    tables = page.locator(".pt-table")
    expect(tables).to_have_count(3, timeout=TIMEOUT_MS)
    table = tables.first
    board = table.locator(".pt-root").first
    wait_drawn(board)
    expect(notes_panel(board)).to_have_count(1, timeout=TIMEOUT_MS)
    expect(notes_panel(board).locator("td").last).to_have_text(XSS_NOTE)
    log5 = log_state(table)
    assert log5 == log4, (log4, log5)             # every move, the note mark, the same position
    expect(widget_button(table, "Redo")).to_be_disabled()
    assert page.evaluate("() => window.__xss") is None
    printed = nb.run_code("print(session.move_number, [n.text for n in session.notes])")
    assert printed.startswith(f"{move_number} [") and repr(XSS_NOTE) in printed, printed


def test_illegal_click_shows_reason_sends_nothing_and_menu(open_notebook):
    nb = open_notebook("eat_thyself_small.ipynb", [
        "import playtest\n"
        "table = playtest.Table(playtest.Session(playtest.load('eat_thyself')))\n"
        "table",
        # a 4-slot ring: both of the king's 2-steps land on slot 2 -> a menu
        "scenario = playtest.Session('eat_thyself', start={'ring': ['▲', '○', '●', '△'],\n"
        "                            'cards': [[1, 2], [1, 2]], 'to_move': 0})\n"
        "playtest.Table(scenario)",
    ])
    nb.run_all()
    page = nb.page
    tables = page.locator(".pt-table")
    from playwright.sync_api import expect
    expect(tables).to_have_count(2, timeout=TIMEOUT_MS)

    # -- 1. An opponent's piece: the reason, no selection, nothing sent.
    board = tables.first.locator(".pt-root").first
    v = wait_drawn(board)
    assert status(board) == "Triangle ▲ to move"
    # a Circle king or pawn (an item's <title> is its symbol)
    opponent_id = board.evaluate("""root => {
      const g = Array.from(root.querySelectorAll('svg.pt-svg g.pt-piece[data-id^="slot:"]')).find(
        (g) => ['●', '○'].includes(g.querySelector(':scope > title')?.textContent));
      return g ? g.getAttribute('data-id') : null;
    }""")
    assert opponent_id, "no Circle piece on the board"
    opponent = board.locator(f'svg.pt-svg g.pt-piece[data-id="{opponent_id}"]')
    assert "pt-movable" not in (opponent.get_attribute("class") or "")
    click_item(board, opponent_id)
    message = board.locator(".pt-message")
    assert "pt-why" in (message.get_attribute("class") or "")  # set in the click handler
    assert "only Triangle ▲'s kings move now" in message.inner_text()
    assert board.locator(".pt-selected, .pt-target, .pt-menu").count() == 0
    # Nothing was sent: a kernel round trip after the click (the same
    # channel, in order) finds the session untouched, and no redraw happened.
    assert nb.run_code("print(table.session.move_number, repr(table.board.error))") == "0 ''"
    assert version(board) == v

    # -- 2. Two actions share a target: a menu; its second option commits.
    board = tables.nth(1).locator(".pt-root").first
    v = wait_drawn(board)
    click_item(board, "slot:0")
    expect(board.locator('g[data-id="slot:2"].pt-target')).not_to_have_count(0)
    click_item(board, "slot:2")
    options = board.locator(".pt-menu .pt-menu-option")
    expect(options).to_have_count(2)
    expect(options).to_have_text([re.compile("clockwise ↻"), re.compile("counter-clockwise ↺")])
    assert version(board) == v  # opening the menu sends nothing
    options.nth(1).click()
    wait_version_above(board, v)
    expect(board.locator(".pt-menu")).to_have_count(0)
    assert "↺2→2" in nb.run_code("print(scenario.history()[-1]['notation'])")


def test_the_move_log_and_the_branch_menu_jump_by_clicking(open_notebook):
    """The log is a list: a click on a row, or the arrow keys, jumps there; the branch menu lists
    the other lines ("current line" for this one) and picking one jumps to its end. The page
    shows the current row, and the kernel's session is where the page says."""
    from playwright.sync_api import expect

    nb = open_notebook("eat_thyself_log.ipynb", [
        "import playtest\n"
        "session = playtest.Session(playtest.load('eat_thyself'), seed=2)\n"
        "for _ in range(3):\n"
        "    session.play(session.legal_actions()[0])\n"
        "first_end = session.node\n"
        "session.goto(session.line()[1])\n"
        "session.play(session.legal_actions()[-1])        # a second line from move 1\n"
        "table = playtest.Table(session)\n"
        "table",
    ])
    nb.run_all()
    page = nb.page
    table = page.locator(".pt-table").first
    board = table.locator(".pt-root").first
    wait_drawn(board)
    log = log_state(table)
    assert log["options"][0] == "start" and log["index"] == len(log["options"]) - 1 == 2, log

    # -- a click on the row of move 1
    v = version(board)
    table.locator(".pt-picker-rows .pt-picker-row").nth(1).click()
    wait_version_above(board, v)
    assert log_state(table)["index"] == 1
    assert nb.run_code("print(session.move_number)") == "1"

    # -- the arrow keys walk the list (when it has the focus; the notebook's cells stay put)
    table.locator(".pt-picker-rows").focus()
    v = version(board)
    page.keyboard.press("ArrowUp")
    wait_version_above(board, v)
    assert log_state(table)["selected"] == "start"
    assert nb.run_code("print(session.move_number)") == "0"

    # -- the branch menu: this line is "current line"; the other one jumps to its end
    menu = table.locator(".pt-picker-menu select")
    expect(menu).to_be_enabled()
    labels = menu.locator("option").all_inner_texts()
    assert "current line" in labels and len(labels) == 2, labels
    other = next(label for label in labels if label != "current line")
    v = version(board)
    menu.select_option(label=other)
    wait_version_above(board, v)
    assert nb.run_code("print(session.node == first_end, session.move_number)") == "True 3"
    expect(menu).to_have_value("-1")     # the line just picked is the current one now
    assert log_state(table)["index"] == 3


def test_a_click_on_a_selected_pieces_target_draws_its_move_before_the_kernel_answers(open_notebook):
    """Previews in a real Lab: selecting a king asks the kernel, in one message, what each of its
    moves leads to; the click on a target draws that at once (``data-preview``), and the
    kernel's redraw that follows shows the same board (``data-version``)."""
    nb = open_notebook("eat_thyself_preview.ipynb", [
        "import playtest\n"
        "session = playtest.Session(playtest.load('eat_thyself'))\n"
        "table = playtest.Table(session)\n"
        "table",
    ])
    nb.run_all()
    page = nb.page
    board = page.locator(".pt-table .pt-root").first
    v = wait_drawn(board)
    piece = board.locator('svg.pt-svg g[data-id^="slot:"].pt-movable').first.get_attribute("data-id")
    click_item(board, piece)                 # the select asks; a kernel round trip later the answer is in
    target = board.locator("svg.pt-svg g[data-id].pt-target").first.get_attribute("data-id")
    assert nb.run_code("print(session.move_number)") == "0"      # asking played nothing
    click_item(board, piece)               # (typing that cell's code pressed Escape: select again)
    board.evaluate("""root => {
      const svg = root.querySelector('svg.pt-svg');
      const look = () => Array.from(svg.querySelectorAll('g[data-id]'),
        (g) => [g.getAttribute('data-id'), g.getAttribute('transform'), g.classList.contains('pt-movable')]);
      window.__seen = [];
      new MutationObserver(() => {
        const entry = [svg.getAttribute('data-version'), svg.getAttribute('data-preview')];
        const last = window.__seen[window.__seen.length - 1];
        if (!last || last[0] !== entry[0] || last[1] !== entry[1]) window.__seen.push([...entry, look()]);
      }).observe(svg, {attributes: true, attributeFilter: ['data-version', 'data-preview']});
    }""")
    click_item(board, target)
    wait_version_above(board, v)
    seen = page.evaluate("() => window.__seen")
    assert seen[0][0] == str(v) and seen[0][1] is not None, seen   # drawn before the answer
    assert seen[-1][0] == str(v + 1) and seen[-1][1] is None
    assert seen[0][2] == seen[-1][2]                               # and the answer drew the same
    assert nb.run_code("print(session.move_number)") == "1"
