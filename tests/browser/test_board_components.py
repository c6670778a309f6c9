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


def test_a_game_without_a_board_yet_shows_its_position_as_text_and_its_moves_as_buttons(page, tmp_path):  # noqa: F811
    """A designer's draft writes no view(): the kernel's text board, in the browser; a name typed
    into the position (user text) shows as text, never as markup."""
    from playtest import Action, Game, GameType, State, register

    class Named(State):
        name: str = "<img src=x onerror=window.__owned=1>"
        step: int = 0

    class Go(Action):
        pass

    @register(listed=False)
    class Draft(Game):
        name, seat_names, state_type, action_types = "draft_text_board_browser", ("A", "B"), Named, (Go,)
        game_type = GameType(max_length=5)

        def to_move(self, s): return None if s.step >= 5 else s.step % 2
        def candidates(self, s, seat): return [Go()]
        def effect(self, s, a): return s.replace(step=s.step + 1)
        def outcome(self, s): return None

    game = playtest.load("draft_text_board_browser")
    mount(page, game.view(game.initial_state(), None))
    page.screenshot(path=str(tmp_path / "text_board.png"))
    body = page.locator(".pt-root, body").first.inner_text()
    assert "<img src=x onerror=window.__owned=1>" in body and "step" in body
    assert page.evaluate("() => window.__owned") is None and page.locator("img[src=x]").count() == 0
    page.get_by_role("button", name="go").click()
    assert sent(page)[-1]["action"] == {"kind": "go"}
