"""The board components in the renderer (issue 23, point 1): tic-tac-toe's crosses and rings on a
grid, a hex board in both orientations with its coordinates, a hand, a deck and dice; lit targets
take a click and send the game's action; a taken cell says why not."""

from __future__ import annotations

import pytest

import playtest
from playtest.boards import Deck, Dice, Grid, Hand, Hex, board_view
from playtest.examples.tic_tac_toe import Mark
from test_board_js import browser, mount, page, sent  # noqa: F401  (fixtures of the harness)

pytestmark = pytest.mark.browser


def test_tic_tac_toe_draws_crosses_and_rings_and_plays_by_click(page, tmp_path):  # noqa: F811
    game = playtest.load("tic_tac_toe")
    state = game.apply(game.apply(game.initial_state(), Mark(4)), Mark(0))
    mount(page, game.view(state, None))
    page.screenshot(path=str(tmp_path / "tic_tac_toe.png"))
    shapes = page.evaluate("() => [...document.querySelectorAll('.pt-body .pt-shape')].map(n => n.tagName)")
    assert sorted(shapes) == ["path", "polygon"]                   # a ring (two circles cut out) and a cross
    page.locator('[data-id="board:2,2"]').click()
    assert sent(page)[-1]["action"] == {"kind": "mark", "cell": 8}
    page.locator('[data-id="board:1,1"]').click()                    # taken: the game's own refusal
    assert "that cell is taken" in page.locator(".pt-message, .pt-error, .pt-hint").all_inner_texts().__str__()


@pytest.mark.parametrize("orientation", ["pointy", "flat"])
def test_a_hex_board_draws_every_cell_and_takes_clicks(page, orientation, tmp_path):  # noqa: F811
    game = playtest.load("tic_tac_toe")
    hexes = Hex(2, orientation=orientation)
    hexes.piece((0, 0), "hexagon", seat=0).piece((1, -1), "ring", seat=1).cell((-2, 2), "#f5d6a0", "★")
    scene = board_view(game, game.initial_state(), None, hexes,
                       at=lambda a: [(0, 0), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1), (2, -2), (-2, 2)][a.cell])
    mount(page, scene)
    page.screenshot(path=str(tmp_path / f"hex_{orientation}.png"))
    assert page.locator("[data-id^='board:']").count() == 19          # a hexagon of radius 2
    assert page.evaluate("() => document.querySelectorAll('.pt-hex-coord').length") == 19
    box = page.locator('[data-id="board:2,-2"]').bounding_box()
    assert box and box["width"] > 20 and box["height"] > 20
    page.locator('[data-id="board:2,-2"]').click()
    assert sent(page)[-1]["action"] == {"kind": "mark", "cell": 7}


def test_a_hand_a_deck_and_dice(page, tmp_path):  # noqa: F811
    game = playtest.load("tic_tac_toe")
    scene = board_view(game, game.initial_state(), None, Hand(["K", "7"], owner=0, viewer=1, name="hand"),
                       Deck(12), Dice([3, None]), at=lambda a: None)
    mount(page, scene)
    page.screenshot(path=str(tmp_path / "parts.png"))
    texts = page.evaluate("() => [...document.querySelectorAll('.pt-label')].map(n => n.textContent)")
    assert texts.count("?") == 2 and "K" not in texts and "12" in texts and "3" in texts
