"""A designer's own game, written in a notebook cell (not importable from anywhere), played at the
table in a real JupyterLab by clicking: Hex on a 3 x 3 rhombus of hex cells, a board no game of the
kit draws at a table. Red clicks its way from the top row to the bottom one; a click on a taken
cell shows the game's own refusal; the kernel's session agrees with the page after every click."""

from __future__ import annotations

import json

import pytest
from lab import board_version, log_entries, wait_board_version_above

pytestmark = pytest.mark.browser

ROOT = ".pt-table .pt-root"
SVG = f"{ROOT} svg.pt-svg"

GAME_CELL = '''
import json
import playtest
from playtest import Action, Game, GameType, Outcome, Params, Refusal, State, field, param, per_seat, register
from playtest.boards import Hex, board_view

class Place(Action):
    q: int
    r: int

class HexParams(Params):
    size: int = param(3, "the board is size x size", min=2, max=9, live=False)

class Cells(State):
    cells: tuple[int, ...] = field((-1,) * 9, min=-1, max=1)
    turn: int = field(0, min=0, max=81)

NEIGHBOURS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]

@register(listed=False)
class HexGame(Game):
    name, title, seat_names, Params = "notebook_hex", "Hex", ("Red", "Blue"), HexParams
    state_type, action_types, game_type = Cells, (Place,), GameType(max_length=81)

    def initial_state(self): return Cells(cells=(-1,) * self.params.size ** 2)
    def to_move(self, s): return None if self.outcome(s) else s.turn % 2
    def candidates(self, s, seat):
        return [Place(q, r) for r in range(self.params.size) for q in range(self.params.size)]
    def why_not(self, s, a, seat):
        n = self.params.size
        if not (0 <= a.q < n and 0 <= a.r < n):
            return Refusal("off the board", "H1")
        return Refusal("that cell is taken", "H2") if s.cells[a.r * n + a.q] >= 0 else None
    def effect(self, s, a):
        return s.replace(cells=per_seat(s.cells, a.r * self.params.size + a.q, s.turn % 2), turn=s.turn + 1)

    def joined(self, s, seat):      # Red joins the top row to the bottom one, Blue left to right
        n = self.params.size
        todo = [(q, r) for q in range(n) for r in range(n) if (r if seat == 0 else q) == 0 and s.cells[r * n + q] == seat]
        seen = set(todo)
        while todo:
            q, r = todo.pop()
            if (r if seat == 0 else q) == n - 1:
                return True
            for dq, dr in NEIGHBOURS:
                c = (q + dq, r + dr)
                if 0 <= c[0] < n and 0 <= c[1] < n and c not in seen and s.cells[c[1] * n + c[0]] == seat:
                    seen.add(c)
                    todo.append(c)
        return False

    def outcome(self, s):
        won = [seat for seat in (0, 1) if self.joined(s, seat)]
        return Outcome((won[0],), "joined its sides") if won else None

    def view(self, s, seat=None):
        n = self.params.size
        board = Hex(None, cells=[(q, r) for r in range(n) for q in range(n)])
        for i, v in enumerate(s.cells):
            if v >= 0:
                board.piece((i % n, i // n), "hexagon", seat=v)
        return board_view(self, s, seat, board, at=lambda a: (a.q, a.r))

assert playtest.check_game(HexGame(), examples=5).ok
session = playtest.Session(playtest.load("notebook_hex"), seed=1)
table = playtest.Table(session)
'''

KERNEL_VIEW = ("print(json.dumps({'cells': session.state.cells, 'move': session.move_number, "
               "'winner': session.winner, 'error': table.board.error, "
               "'log': [e['notation'] for e in session.history()]}))")


def kernel_view(nb) -> dict:
    return json.loads(nb.run_code(KERNEL_VIEW).strip().splitlines()[-1])


def click_cell(nb, q: int, r: int) -> None:
    v0 = board_version(nb.page, SVG)
    nb.page.locator(f'{SVG} [data-id="board:{q},{r}"]').first.click()
    wait_board_version_above(nb.page, v0, SVG)


def test_a_hex_game_from_a_notebook_cell_plays_by_clicking_at_the_table(open_notebook, tmp_path):
    nb = open_notebook("own_hex_game.ipynb", [GAME_CELL, "table"])
    nb.run_all()
    page = nb.page
    nb.wait_for(f"{SVG} [data-id='board:0,0']")
    assert page.locator(f"{SVG} [data-id^='board:']").count() == 9           # the 3 x 3 rhombus
    # Red down the middle column, Blue along the top-left: Red joins top to bottom on its third
    for (q, r), seat in [((1, 0), 0), ((0, 0), 1), ((1, 1), 0), ((0, 1), 1)]:
        click_cell(nb, q, r)
        seen = kernel_view(nb)
        assert seen["cells"][r * 3 + q] == seat and seen["error"] == "", seen
    # a taken cell: the page shows the game's own refusal, and nothing is played
    before = kernel_view(nb)["move"]
    page.locator(f'{SVG} [data-id="board:1,1"]').first.click()
    page.wait_for_function("""() => [...document.querySelectorAll('.pt-table *')]
        .some(n => n.children.length === 0 && (n.textContent || '').includes('that cell is taken'))""",
                           timeout=20_000)
    assert kernel_view(nb)["move"] == before
    click_cell(nb, 1, 2)
    seen = kernel_view(nb)
    table = page.locator(".pt-table").first
    table.scroll_into_view_if_needed()
    table.screenshot(path=str(tmp_path / "own_hex_game.png"))
    assert seen["winner"] == 0 and seen["move"] == 5, seen
    assert seen["log"][-1] == "place 1 2" and log_entries(page)[-1] == "5. place 1 2"
    assert page.locator(f"{SVG} [data-id^='board:'] .pt-shape, {SVG} .pt-shape").count() >= 5
