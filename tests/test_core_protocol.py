"""The core serves more than the shipped games: chance steps, hidden information per seat and
simultaneous submissions, shown on a tiny game defined here (Back to the Wall and Corner Rush
need all three)."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

import pytest

import playtest
from playtest import CHANCE, SIMULTANEOUS, IllegalAction, Outcome, Session
from playtest.bots import RandomBot
from playtest.rules import _REGISTRY, Action, Game, Params, Seat, param, register
from playtest.scene import Scene


@dataclass(frozen=True)
class BidParams(Params):
    max_bid: int = param(3, "highest secret bid", min=1, max=9)


@dataclass(frozen=True, slots=True)
class Roll(Action):
    kind: ClassVar[str] = "roll"
    prize: int


@dataclass(frozen=True, slots=True)
class Bid(Action):
    kind: ClassVar[str] = "bid"
    seat: int
    amount: int


class BidState(NamedTuple):
    prize: int | None = None
    bids: tuple = (None, None)

    def to_json(self):
        return {"prize": self.prize, "bids": list(self.bids)}


class SecretBid(Game):
    """A die sets a prize; both seats bid for it at once, in secret; the higher bid wins."""

    name = "secret_bid_test"
    title = "Secret bid"
    credit = "a test game"
    Params = BidParams
    action_types = (Roll, Bid)

    def seats(self):
        return [Seat("North", "#c33", "circle"), Seat("South", "#33c", "square")]

    def initial_state(self):
        return BidState()

    def to_move(self, state):
        if state.prize is None:
            return CHANCE
        if None in state.bids:
            return SIMULTANEOUS
        return None

    def pending_seats(self, state):
        return tuple(s for s in (0, 1) if state.bids[s] is None)

    def legal_actions(self, state):
        if state.prize is None:
            return [Roll(p) for p in (1, 2, 3)]
        return [Bid(s, a) for s in self.pending_seats(state) for a in range(self.params.max_bid + 1)]

    def apply(self, state, action, check=True):
        if check and action not in self.legal_actions(state):
            if isinstance(action, Bid) and action.seat in (0, 1) and state.bids[action.seat] is not None:
                raise IllegalAction(f"{self.seats()[action.seat].name} has already bid", rule="T1")
            raise IllegalAction(f"{action} is not allowed now", rule="T2")
        if isinstance(action, Roll):
            return state._replace(prize=action.prize)
        bids = list(state.bids)
        bids[action.seat] = action.amount
        return state._replace(bids=tuple(bids))

    def outcome(self, state):
        if self.to_move(state) is not None:
            return None
        north, south = state.bids
        if north == south:
            return Outcome((), "equal bids")
        return Outcome((0,) if north > south else (1,), "the higher bid")

    def view(self, state, seat=None):
        s = Scene()
        s.board("bids", "grid", cols=2, rows=1)
        for who in (0, 1):
            bid = state.bids[who]
            shown = "?" if bid is not None and seat != who and self.to_move(state) is not None else bid
            s.cell("bids", (who, 0), text="" if shown is None else str(shown))
        if self.to_move(state) == SIMULTANEOUS:
            for action in self.legal_actions(state):
                if seat is None or action.seat == seat:
                    s.move(f"cell:{action.seat},0", f"bid {action.amount}", action.to_json())
        return s.to_json()

    def state_from_json(self, data):
        return BidState(data["prize"], tuple(data["bids"]))


@pytest.fixture
def game():
    """The test game, registered for the test only (session files name their game)."""
    register(SecretBid)
    yield SecretBid()
    _REGISTRY.pop(SecretBid.name)


def test_a_chance_step_is_drawn_recorded_and_replayed(game, tmp_path):
    session = Session(game, seed=5, path=tmp_path / "bid.json")
    assert session.to_move == SIMULTANEOUS and session.state.prize in (1, 2, 3)
    saved = json.loads((tmp_path / "bid.json").read_text())
    assert saved["nodes"][0]["chance"]["kind"] == "roll"          # the outcome is in the file
    assert Session.load(tmp_path / "bid.json").state == session.state
    assert not session.can_undo                                   # nothing before the set-up roll


def test_a_designer_forces_a_chance_outcome(game):
    session = Session(game, auto_chance=False)
    assert session.to_move == CHANCE
    session.resolve_chance(Roll(3))
    assert session.state.prize == 3
    with pytest.raises(IllegalAction, match="no chance step"):
        session.resolve_chance()


def test_simultaneous_submissions_stay_secret_until_all_are_in(game):
    session = Session(game, seed=1)
    session.play(Bid(0, 2))
    assert session.to_move == SIMULTANEOUS and game.pending_seats(session.state) == (1,)
    with pytest.raises(IllegalAction, match="already bid"):
        session.play(Bid(0, 3))
    south_view = json.dumps(game.view(session.state, seat=1))
    table_view = json.dumps(game.view(session.state))
    assert '"text": "?"' in south_view and '"text": "2"' not in south_view
    assert '"text": "2"' not in table_view
    assert '"text": "2"' in json.dumps(game.view(session.state, seat=0))
    session.play(Bid(1, 1))
    assert session.winner == 0


def test_the_table_shows_one_seat_and_bots_submit_for_theirs(game):
    session = Session(game, seed=2)
    table = playtest.Table(session, bots={1: RandomBot(seed=4)}, seat=0)
    assert all(k.endswith(",0") and k.startswith("cell:0") for k in table.board.scene["moves"])
    option = table.board.scene["moves"]["cell:0,0"][0]["action"]
    table.board.receive({"type": "action", "action": option})
    assert session.is_over                                        # the bot submitted for South


def test_the_lab_plays_simultaneous_games(game):
    result = playtest.simulate(game, games=40, seed=3)
    assert sum(result.wins.values()) + result.draws == 40


def test_random_play_through_the_session(game):
    session = Session(game, seed=9)
    rng = random.Random(0)
    while not session.is_over:
        seat = game.pending_seats(session.state)[0]
        session.play(RandomBot(rng.randint(0, 99)).choose(game, session.state, seat=seat))
    assert session.winner in (0, 1, playtest.DRAW)
