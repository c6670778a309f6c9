"""Hostile input against games a designer wrote (not the kit's five): the rules a stranger's values
reach are the designer's code, which need not check every range; the kit refuses the input by name."""

from __future__ import annotations

import json

import pytest

import playtest
from playtest import Action, Game, GameType, Outcome, Refusal, SessionFileError, State, field, per_seat, register
from playtest.examples.tic_tac_toe import Mark


class Cell(Action):
    at: int


class Row(State):
    cells: tuple[int, ...] = field((-1,) * 4, min=-1, max=1)
    turn: int = field(0, min=0, max=4)


@register(listed=False)
class Careless(Game):
    """Four cells in a row, first to two of its own wins; no range checks, no check_state (a draft)."""
    name, seat_names = "careless_probe", ("A", "B")
    state_type, action_types, game_type = Row, (Cell,), GameType(max_length=4)

    def to_move(self, s): return None if self.outcome(s) else s.turn % 2
    def candidates(self, s, seat): return [Cell(i) for i in range(4)]
    def why_not(self, s, a, seat): return Refusal("taken", "R1") if s.cells[a.at] >= 0 else None
    def effect(self, s, a): return s.replace(cells=per_seat(s.cells, a.at, s.turn % 2), turn=s.turn + 1)

    def outcome(self, s):
        a, b, c, d = s.cells[0], s.cells[1], s.cells[2], s.cells[3]     # (a short row: IndexError)
        wins = [seat for seat in (0, 1) if (a, b, c, d).count(seat) >= 2]
        return Outcome((wins[0],), "two") if wins else Outcome((), "full") if s.turn == 4 else None


HEADER = {"format": "playtest-session", "version": 2, "game": "careless_probe", "params": {}, "seed": 1,
          "start": None, "created": ""}


@pytest.mark.parametrize("start, moves, message", [
    ({"cells": [-1, -1]}, [], "bad start position: the game raised IndexError"),        # outcome reads cells[3]
    (None, [{"kind": "cell", "at": 40}], r"cannot be replayed: cell 40 is not an action of .* cannot read it"),
    (None, [{"kind": "cell", "at": 10 ** 12}], "cannot be replayed"),
])
def test_a_file_the_games_own_code_cannot_read_is_refused_as_a_session_file_error(tmp_path, start, moves, message):
    path = tmp_path / "s.playtest.json"
    lines = [json.dumps({**HEADER, "start": start})] + [
        json.dumps({"node": {"parent": i, "move": m}}) for i, m in enumerate(moves)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    before = path.read_bytes()
    with pytest.raises(SessionFileError, match=message):        # before: IndexError out of Session.load
        playtest.Session.load(path)
    assert path.read_bytes() == before


@pytest.mark.parametrize("bad", [Mark(100), Mark(10 ** 9), {"kind": "mark", "cell": 12}])
def test_an_action_off_the_board_is_refused_by_the_rules_not_an_index_error(bad):
    session = playtest.Session("tic_tac_toe", seed=1)
    with pytest.raises(playtest.IllegalAction, match="no such cell|not an action of Tic-tac-toe"):
        session.play(bad)
    assert session.move_number == 0


def test_a_negative_cell_no_longer_marks_the_last_one_and_check_game_catches_it_in_a_draft():
    session = playtest.Session("tic_tac_toe", seed=1)
    with pytest.raises(playtest.IllegalAction, match="no such cell"):
        session.play(Mark(-1))            # before: accepted, and the board grew to 18 cells
    assert len(session.state.cells) == 9
    failures = {f.property: f.message for f in playtest.check_game(Careless(), examples=2).failures}
    assert failures["illegal actions are refused"].startswith("cell -1 is not listed by legal_actions, but apply accepts it: why_not must refuse it")


def test_the_browser_sending_an_action_off_the_board_gets_the_rules_refusal():
    session = playtest.Session(Careless(), seed=1)
    table = playtest.Table(session)
    table.board.send = lambda content, buffers=None: None
    table.board.receive({"type": "action", "action": {"kind": "cell", "at": 99}})
    assert "cell 99 is not an action of careless_probe here" in table.board.error
    assert session.move_number == 0
    table.board.receive({"type": "preview", "n": 1, "version": 1, "actions": [{"kind": "cell", "at": 99}]})
    assert session.move_number == 0


@pytest.mark.parametrize("seat", ["0", 99, -1, 1.0, True])
def test_a_known_command_for_a_seat_that_is_none_is_not_called_unknown(seat):
    session = playtest.Session("kuhn_poker", seed=1)
    table = playtest.Table(session)
    before = (session.state, session.node, table.revealed)
    table.board.receive({"type": "command", "name": "reveal", "seat": seat})
    assert "unknown command" not in table.board.error          # before: "unknown command ('reveal')"
    assert "reveal" in table.board.error or "That seat cannot act now" in table.board.error
    assert (session.state, session.node, table.revealed) == before


def test_a_forged_hidden_chance_result_is_named_by_itself_not_as_a_hidden_draw():
    session = playtest.Session("kuhn_poker", seed=1, auto_chance=False)
    from playtest.examples.kuhn_poker import Deal
    with pytest.raises(playtest.IllegalAction) as refused:
        session.force(Deal(0, 7))
    text = str(refused.value)              # before: "'a hidden draw' cannot happen here; ... a hidden draw"
    # (Kuhn poker's own words index the deck with the card: its JSON is said instead, not an IndexError)
    assert text.startswith("""'{"kind": "deal", "seat": 0, "card": 7}' cannot happen here"""), text
    from playtest.examples.kuhn_poker import Deal as D
    session.force(D(0, 2))
    with pytest.raises(playtest.IllegalAction, match="^'K is dealt to seat 1' cannot happen here|cannot happen"):
        session.force(D(1, 2))                                # the K is dealt already
    assert session.move_number == 0


@pytest.mark.parametrize("cards", [[None], [None, None, None]])
def test_a_written_position_with_an_owner_field_of_another_length_than_the_seats_is_refused(tmp_path, cards):
    kuhn = playtest.load("kuhn_poker")
    with pytest.raises(ValueError, match=r"kuhn_poker\.cards has \d entries; it holds one per seat \(2\)"):
        kuhn.state_from_json({"cards": cards})
    path = tmp_path / "k.playtest.json"
    path.write_text(json.dumps({**HEADER, "game": "kuhn_poker", "start": {"cards": cards}}) + "\n", encoding="utf-8")
    with pytest.raises(SessionFileError, match="one per seat"):           # before: loaded
        playtest.Session.load(path)
