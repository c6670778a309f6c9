"""A table's bot seat in a game that draws random whole orders (Back to the Wall): a bot that declares
``random_orders`` gives its seat's whole order at once and the table plays it one part a step, as the lab
does, through the table's own buttons and the session's checks; the log reads as orders (issue 27)."""

from __future__ import annotations

import json

import playtest
from playtest.bots import Bot, RandomBot, order_for
from playtest.games.back_to_the_wall import Clear, Submit, Withdraw


def _game(**params):
    return playtest.load("back_to_the_wall", **params)


def test_seated_random_bots_play_their_whole_orders_part_by_part():
    game = _game(rounds=2)
    session = playtest.Session(game, seed=1)
    start = session.state
    expected = {seat: order_for(RandomBot(seed=seat), game, start, seat) for seat in (1, 2, 3)}
    table = playtest.Table(session, bots={seat: RandomBot(seed=seat) for seat in (1, 2, 3)})
    assert game.pending_seats(session.state) == (0,) and table.board.error == ""
    # each bot's order is the draw order_for gives from the set-up, played one part a step
    assert session.move_number == sum(len(parts) for parts in expected.values())
    labels = [label for label, _ in table.move_log.options]
    assert labels[1:] == ["1–%d. East's order (%d steps)" % (len(expected[1]), len(expected[1])),
                          "%d–%d. South's order (%d steps)" % (len(expected[1]) + 1,
                                                               len(expected[1]) + len(expected[2]), len(expected[2])),
                          "%d–%d. West's order (%d steps)" % (len(expected[1]) + len(expected[2]) + 1,
                                                              session.move_number, len(expected[3]))]
    for seat in (1, 2, 3):
        assert session.state.orders[seat].submitted
        assert isinstance(expected[seat][-1], Submit)
        assert not any(isinstance(part, (Clear, Withdraw)) for part in expected[seat])


def test_the_bot_buttons_play_a_person_seats_order_one_part_a_click():
    game = _game(rounds=1)
    session = playtest.Session(game, seed=2)
    table = playtest.Table(session)
    assert game.pending_seats(session.state) == (0, 1, 2, 3)
    for k in range(1, 4):                  # "Bot step": one part a click, of one order
        table.bot_step_button.click()
        assert table.board.error == "" and session.move_number == k
        assert game.pending_seats(session.state)[0] == 0 and session.state.orders[0] is not None
    table.bot_button.click()               # "Bot turn": the rest of that order, then it submits
    assert table.board.error == "" and session.state.orders[0].submitted
    assert game.pending_seats(session.state) == (1, 2, 3)
    labels = [label for label, _ in table.move_log.options]
    assert labels[-1] == f"1–{session.move_number}. North's order ({session.move_number} steps)"
    assert session.move_number < 40        # an order's parts, not a random walk over every part


def test_an_undo_between_parts_draws_the_order_again_from_what_is_set():
    game = _game(rounds=1)
    session = playtest.Session(game, seed=3)
    table = playtest.Table(session)
    table.bot_step_button.click()
    table.bot_step_button.click()
    table.undo_button.click()
    assert session.move_number == 1
    table.bot_button.click()               # not the stale part planned for the position undone
    assert table.board.error == "" and session.state.orders[0].submitted


def test_a_bot_without_whole_orders_is_asked_part_by_part_as_before():
    class FirstPart(Bot):
        name = "first"
        needs_world = False

        def choose_from(self, actions):
            return next(a for a in actions if isinstance(a, Submit)) if any(
                isinstance(a, Submit) for a in actions) else actions[0]

    game = _game(rounds=1)
    session = playtest.Session(game, seed=4)
    playtest.Table(session, bots={1: FirstPart()})
    assert session.move_number == 1 and session.state.orders[1].submitted      # asked once: it submitted


def test_whole_orders_at_the_table_name_the_bot_in_the_session_file(tmp_path):
    game = _game(rounds=1)
    session = playtest.Session(game, seed=5)
    playtest.Table(session, bots={2: RandomBot(seed=7)})
    path = tmp_path / "s.playtest.json"
    session.save(path)
    again = playtest.Session.load(path)
    assert again.state == session.state and again.move_number == session.move_number
    nodes = [json.loads(line)["node"] for line in path.read_text().splitlines() if line.startswith('{"node"')]
    assert len(nodes) == session.move_number and {node.get("bot") for node in nodes} == {"random"}
