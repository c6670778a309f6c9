"""Corner Rush in a real JupyterLab: roll, force a roll, move, place a blocker, the curtain, a challenge, undo (issue 10).

A generated notebook starts a 4-player session from a hand-written position
(the position JSON of ``playtest.games.corner_rush``) and shows the hot-seat
``playtest.Table(session)``. Red won the roll-off and is to move on a5; Red's
own blocker (a 5, known to Red only) lies on b1, Yellow's (a 3, known to Yellow
only) on d5, next to Blue's pawn on e5. In the page the test

1. finds the curtain up ("Pass to Red") and no blocker value on the board;
   clicks "I am Red": b1 shows Red's 5, d5 shows ``?``;
2. presses "Roll the die (normal turn)": the die is drawn from the seed;
3. presses the table's Undo (undo stops before the die): the board offers
   "🎲 Roll" and every face with its probability; it forces a 3, and the move
   log marks it as forced;
4. lifts the curtain for Red again and clicks three lit tiles; the bag draw
   follows on its own and the board lights the free tiles; it clicks one and
   the blocker is placed face down;
5. the curtain comes up for Blue; no text on the page (board, move log) shows
   the value Red drew; Blue lifts it: Red's new blocker and b1 read ``?``;
6. Blue challenges d5 (lit): the blocker is flipped (a 3) and the die rolled;
7. Undo until Blue is back at the start of its turn: d5 reads ``?`` again.

After every step the page and the session in the kernel agree.
"""

from __future__ import annotations

import json
import re

import pytest
from lab import board_version, log_entries, wait_board_version_above

pytestmark = pytest.mark.browser

TABLE = ".pt-table"
ROOT = f"{TABLE} .pt-root"
SVG = f"{ROOT} svg.pt-svg"
TIMEOUT_MS = 20_000

POSITION = {
    "phase": "start", "to_move": 0, "turn": 0,
    "rolloff": [[[0, 6], [1, 5], [2, 3], [3, 2]]],
    "blockers": {"b1": {"colour": 0, "value": 5, "known": [0]}, "d5": {"colour": 3, "value": 3, "known": [3]}},
}

KERNEL_VIEW = ("print(json.dumps({'state': session.state.to_json(), 'move': session.move_number,"
               " 'version': table.board.scene['version'], 'error': table.board.error,"
               " 'curtain': table.board.curtain, 'viewer': table.viewer,"
               " 'log': [e['notation'] for e in session.history()],"
               " 'forced': [e['forced'] for e in session.history()]}))")

CELLS = [
    "import json\n"
    "import playtest\n"
    f"POSITION = {POSITION!r}\n"
    "session = playtest.Session(playtest.load('corner_rush'), seed=11, start=POSITION)\n"
    "table = playtest.Table(session)",
    "table",
    KERNEL_VIEW,
]


# ---------------------------------------------------------------------- helpers

def version(nb) -> int:
    return board_version(nb.page, SVG)


def wait_version_above(nb, v0: int, timeout: float = 20.0) -> int:
    return wait_board_version_above(nb.page, v0, SVG, timeout)


def kernel_view(nb) -> dict:
    """The session as the kernel sees it (a new cell is also a barrier for the page's messages)."""
    return json.loads(nb.run_code(KERNEL_VIEW).strip().splitlines()[-1])


def curtain_text(nb) -> str:
    loc = nb.page.locator(f"{ROOT} .pt-curtain")
    return loc.inner_text().strip() if loc.is_visible() else ""


def lift_curtain(nb, name: str) -> None:
    nb.wait_for(f"{ROOT} .pt-curtain")
    v0 = version(nb)
    nb.page.locator(f"{ROOT} .pt-curtain button", has_text=f"I am {name}").first.click()
    wait_version_above(nb, v0)
    nb.page.locator(f"{ROOT} .pt-curtain").wait_for(state="hidden")


def board_button(nb, text: str) -> None:
    """Press a button of the board (its scene's buttons: "Roll the die", "Force: ...")."""
    v0 = version(nb)
    nb.page.locator(f"{ROOT} button.pt-button", has_text=text).first.click()
    wait_version_above(nb, v0)


def widget_button(nb, label: str):
    return nb.page.locator(f"{TABLE} button.widget-button", has_text=re.compile(rf"^\s*{re.escape(label)}\s*$"))


def undo(nb) -> None:
    v0 = version(nb)
    widget_button(nb, "Undo").click()
    wait_version_above(nb, v0)


def blocker_texts(nb) -> dict[str, str]:
    """What each blocker on the board shows, by tile: its value, or ``?``."""
    return nb.page.evaluate(
        """(sel) => {
             const out = {};
             for (const g of document.querySelectorAll(`${sel} g.pt-piece`)) {
               const t = g.querySelector(':scope > title');
               const m = t && t.textContent.match(/blocker on ([a-e][1-5])/);
               if (m) { const label = g.querySelector('.pt-label'); out[m[1]] = label ? label.textContent : ''; }
             }
             return out;
           }""", SVG)


def lit_tiles(nb) -> list[str]:
    return nb.page.eval_on_selector_all(
        f'{SVG} g[data-id^="cell:"].pt-movable', "gs => gs.map((g) => g.getAttribute('data-id'))")


def click_tile(nb, cid: str) -> None:
    v0 = version(nb)
    nb.page.locator(f'{SVG} g[data-id="{cid}"]').last.click(force=True, timeout=TIMEOUT_MS)
    wait_version_above(nb, v0)


def tile_name(cid: str) -> str:
    c, r = cid.split(":", 1)[1].split(",")
    return f"{'abcde'[int(c)]}{int(r) + 1}"


def page_text(nb) -> str:
    """Every text a person at the screen can read in the table, the move log's entries included."""
    log = log_entries(nb.page, TABLE)
    return "\n".join([nb.page.locator(TABLE).first.inner_text(), *log]).replace("\xa0", " ")


def board_error(nb) -> str:
    return nb.page.locator(f"{ROOT} .pt-error").inner_text().strip()


# ---------------------------------------------------------------------- the test

def test_roll_force_move_place_curtain_challenge_undo(open_notebook):
    nb = open_notebook("corner_rush_lab.ipynb", CELLS)
    nb.run_all()
    page = nb.page
    nb.wait_for(f"{ROOT} .pt-curtain")

    # -- 1. the curtain is up for Red, and nothing secret is on the board
    assert curtain_text(nb).startswith("Pass to Red: click when ready")
    assert blocker_texts(nb) == {"b1": "?", "d5": "?"}
    seen = kernel_view(nb)
    assert seen["viewer"] is None and seen["state"]["phase"] == "start" and seen["move"] == 0
    lift_curtain(nb, "Red")
    assert blocker_texts(nb) == {"b1": "5", "d5": "?"}           # Red's own blocker, and Yellow's
    assert lit_tiles(nb) == []                                  # no blocker next to Red's pawn

    # -- 2. a normal turn: the die is drawn from the seed
    board_button(nb, "Roll the die (normal turn)")
    seen = kernel_view(nb)
    assert seen["log"][1] == "Red rolls the die (a normal turn)"
    assert seen["log"][2].startswith("Red rolls ") and not seen["forced"][2]

    # -- 3. undo stops before the die: force a 3
    undo(nb)
    buttons = [t.strip() for t in page.locator(f"{ROOT} button.pt-button").all_inner_texts()]
    assert buttons[0] == "🎲 Roll", buttons
    assert len(buttons) == 7 and all(b.endswith("(1/6)") for b in buttons[1:]), buttons
    board_button(nb, "Force: Red rolls 3: 3 steps to move")
    log = log_entries(page, TABLE)
    assert log[-1] == "🎲 Red rolls 3: 3 steps to move (forced)", log
    seen = kernel_view(nb)
    assert seen["state"]["phase"] == "move" and seen["state"]["steps"] == 3 and seen["forced"][-1]

    # -- 4. three steps on lit tiles, then the blocker
    lift_curtain(nb, "Red")
    walked = []
    for k in range(3):
        lit = lit_tiles(nb)
        assert lit, f"step {k + 1}: nothing lit"
        pick = sorted(lit)[0]
        click_tile(nb, pick)
        assert board_error(nb) == ""
        walked.append(tile_name(pick))
    seen = kernel_view(nb)
    state = seen["state"]
    assert state["phase"] == "place" and state["pawns"][0] == walked[-1] and state["path"] == ["a5"] + walked
    held = state["held"]
    assert seen["log"][-1] == "Red draws a blocker" and curtain_text(nb) == ""     # Red still at the screen
    lit = lit_tiles(nb)
    # not the hole, an Ace, a pawn or a blocker: 25 - 1 - 4 - 1 (Red's pawn, off its corner) - 2
    assert "cell:2,2" not in lit and "cell:4,0" not in lit and len(lit) == 17
    target = next(t for t in sorted(lit) if t != "cell:4,3")     # not next to Blue's pawn (e4)
    click_tile(nb, target)
    nb.wait_for(f"{ROOT} .pt-curtain")
    seen = kernel_view(nb)
    placed = seen["state"]["blockers"][tile_name(target)]
    assert [placed["colour"], placed["value"]] == held and placed["known"] == [0]
    assert seen["log"][-1] == f"Red places a blocker face down on {tile_name(target)}"

    # -- 5. the curtain for Blue: nothing of Red's draw on the page
    assert curtain_text(nb).startswith("Pass to Blue: click when ready")
    text = page_text(nb)
    assert "Red draws a blocker" in text and "face down on" in text
    assert "Red draws a " not in text.replace("Red draws a blocker", "") and "places its" not in text
    lift_curtain(nb, "Blue")
    shown = blocker_texts(nb)
    assert shown["b1"] == "?" and shown[tile_name(target)] == "?" and shown["d5"] == "?"

    # -- 6. Blue challenges Yellow's blocker on d5
    assert lit_tiles(nb) == ["cell:3,4"]
    click_tile(nb, "cell:3,4")
    seen = kernel_view(nb)
    challenge = seen["log"].index("Blue challenges Yellow's blocker on d5: it is a 3")
    assert seen["log"][challenge + 1].startswith("Blue rolls ") and " against 3: " in seen["log"][challenge + 1]
    if seen["state"]["phase"] in ("move", "place"):
        assert curtain_text(nb) == ""
    flipped = seen["state"]["blockers"].get("d5")
    assert flipped is None or flipped.get("face_up") is True
    if flipped is not None:
        assert blocker_texts(nb)["d5"] == "3"

    # -- 7. undo until Blue's turn starts again: the blocker is face down, unknown to Blue
    for _ in range(6):
        if kernel_view(nb)["state"]["phase"] == "start":
            break
        undo(nb)
    seen = kernel_view(nb)
    assert seen["state"]["phase"] == "start" and seen["state"]["to_move"] == 1
    assert seen["state"]["blockers"]["d5"] == {"colour": 3, "value": 3, "known": [3]}
    if curtain_text(nb):
        lift_curtain(nb, "Blue")
    assert blocker_texts(nb)["d5"] == "?"
    assert nb.errors() == []
