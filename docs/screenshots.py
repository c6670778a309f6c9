"""Make the README's screenshots again, from a real JupyterLab in headless Chromium.

    flock /tmp/playtest-browser.lock .venv/bin/python docs/screenshots.py

* ``docs/table.png``: Eat Thyself after a few moves against a bot (Circle is played by the random
  bot; its reply is outlined as the last move), a note, a king selected with its targets lit, the
  ring's slot numbers;
* ``docs/then_there_was_one.png``: Then There Was One at the start of Red's turn, after the greedy
  wall bot's turn (its new walls outlined as the last move), the grid's coordinates and Red's lit steps.

The 📝 mark of the move log needs an emoji font (``apt-get install -y fonts-noto-color-emoji``).
Uses ``tests/browser/lab.py`` (JupyterLab on loopback, a temporary root, no user settings).
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "browser"))

from lab import LabNotebook, LabServer, find_chromium, launch_chromium  # noqa: E402

EAT_THYSELF = [
    "import playtest\n"
    "from playtest.bots import RandomBot\n"
    "session = playtest.Session(playtest.load('eat_thyself'), seed=4)\n"
    "table = playtest.Table(session, bots={1: RandomBot(seed=3)})\n"
    "for turn in range(3):                       # Triangle's turns, from the table: the bot answers each\n"
    "    start = session.state.turn\n"
    "    while session.state.turn == start:\n"
    "        option = session.legal_actions()[-1 if turn == 1 else 0]\n"
    "        table.board.receive({'type': 'action', 'action': option.to_json()})\n"
    "session.note('Circle keeps eating Triangle\\'s pawns: is the 2&4 card too strong this early?\\n'\n"
    "             'Try card_pair = [\"1&2\", \"1&3\"] next.')\n"
    "table.refresh()",
    "table",
]

THEN_THERE_WAS_ONE = [
    "import playtest\n"
    "from playtest.games.then_there_was_one import GreedyWallBot\n"
    "POSITION = {'board': [10, 14], 'phase': 'wall', 'to_move': 0, 'round': 2, 'first_wall_turn': False,\n"
    "            'obstacles': [[2, 3], [3, 4], [7, 3], [6, 4], [0, 6], [4, 6], [5, 7], [9, 6],\n"
    "                          [2, 9], [3, 10], [7, 9], [6, 10], [1, 12], [5, 12], [8, 12]],\n"
    "            'walls': [[[4, 4], [4, 5]]], 'tokens': {'1': [4, 2], '2': [1, 1], '3': [8, 1]}}\n"
    "session = playtest.Session(playtest.load('then_there_was_one', num_players=4), start=POSITION)\n"
    "table = playtest.Table(session, bots={0: GreedyWallBot(seed=1)})   # the wall bot plays its turn at once",
    "table",
]


def shoot(nb: LabNotebook, path: Path) -> None:
    page = nb.page
    page.set_viewport_size({"width": 1400, "height": 1600})
    table = page.locator(".pt-table").first
    table.scroll_into_view_if_needed()
    page.mouse.move(0, 0)
    table.screenshot(path=str(path))
    print(f"{path}: {path.stat().st_size // 1024} KB")


def main() -> None:
    from playwright.sync_api import sync_playwright

    with LabServer(pythonpath=[REPO]) as server, sync_playwright() as pw:
        browser = launch_chromium(pw, find_chromium())
        try:
            server.write_notebook("eat_thyself_shot.ipynb", EAT_THYSELF)
            nb = LabNotebook.open(server, browser, "eat_thyself_shot.ipynb")
            nb.run_all()
            nb.wait_for(".pt-table svg.pt-svg g.pt-last")
            king = nb.page.locator(".pt-table svg.pt-svg g.pt-movable").first
            king.click(force=True)                                  # a king selected: its targets lit
            nb.wait_for(".pt-table svg.pt-svg g.pt-target")
            shoot(nb, REPO / "docs" / "table.png")
            nb.close()

            server.write_notebook("ttwo_shot.ipynb", THEN_THERE_WAS_ONE)
            nb = LabNotebook.open(server, browser, "ttwo_shot.ipynb")
            nb.run_all()
            nb.wait_for(".pt-table svg.pt-svg g.pt-last", state="attached")
            shoot(nb, REPO / "docs" / "then_there_was_one.png")
            nb.close()
        finally:
            browser.close()


if __name__ == "__main__":
    main()
