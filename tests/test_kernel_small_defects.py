"""Small kernel defects, each pinned: the seats are not rebuilt in hot paths, a malformed action
is named as malformed before anything else (the game being over included), whole-number
parameters refuse floats, and check_game's random player draws whole orders as the lab's does."""

from __future__ import annotations

import random

import pytest

import playtest
from playtest import (SIMULTANEOUS, Action, Game, GameType, MalformedAction, Outcome, Refusal, State, field,
                      per_seat)
from playtest.bots import RandomBot
from playtest.lab import play_game

GAMES = ["eat_thyself", "source", "corner_rush", "then_there_was_one", "back_to_the_wall", "secret_bid",
         "tic_tac_toe", "goofspiel"]


# ------------------------------------------------------------------ seats
@pytest.mark.parametrize("name", GAMES)
def test_seat_count_is_the_number_of_seats_and_built_once(name, monkeypatch):
    game = playtest.load(name)
    calls = []
    original = type(game).seats
    monkeypatch.setattr(type(game), "seats", lambda self: calls.append(1) or original(self))
    assert game.seat_count() == len(original(game)) == game.seat_count() == game.seat_count()
    assert calls == [1]                                  # asked once, then remembered


def test_hot_paths_count_the_seats_without_building_them(monkeypatch):
    game = playtest.load("goofspiel", cards=4)
    state = game.initial_state()
    state = game.apply(state, game.chance_outcome(state, random.Random(1)))     # the prize card turned up
    assert game.to_move(state) == SIMULTANEOUS
    game.seat_count()                                   # worked out once
    calls = []
    original = type(game).seats
    monkeypatch.setattr(type(game), "seats", lambda self: calls.append(1) or original(self))
    legal = game.legal_actions(state)                   # every seat's actions at a simultaneous step
    assert legal and game.check(state, legal[0]) is None
    end, _ = play_game(game, RandomBot(seed=1), random.Random(1))
    assert game.returns(end) is not None
    assert calls == []


def test_the_default_seats_are_a_fresh_list_each_call():
    game = playtest.load("secret_bid")
    first = game.seats()
    first.append("not a seat")
    assert len(game.seats()) == 2 and game.seats() == game.seats() and game.seats() is not game.seats()


# ------------------------------------------------------------------ malformed before over
def _finished(name):
    game = playtest.load(name)
    state, _ = play_game(game, RandomBot(seed=1), random.Random(1))
    assert game.to_move(state) is None
    return game, state


@pytest.mark.parametrize("name", ["eat_thyself", "tic_tac_toe", "source"])
def test_a_malformed_action_after_the_game_is_over_is_named_as_malformed(name):
    game, state = _finished(name)
    fresh, rng = game.initial_state(), random.Random(0)
    while game.to_move(fresh) == playtest.CHANCE:
        fresh = game.apply(fresh, game.chance_outcome(fresh, rng))
    action = next(a for a in game.legal_actions(fresh) if len(a.to_json()) > 1)
    field_name = next(iter(action.to_json().keys() - {"kind"}))
    broken = object.__new__(type(action))
    object.__setattr__(broken, "__dict__", {**action.__dict__, field_name: "x"})
    refusal = game.check(state, broken)
    assert refusal is not None and refusal.text.startswith(f"malformed {action.kind} action: {field_name} ")
    with pytest.raises(MalformedAction, match=f"{field_name} must be"):
        game.apply(state, broken)
    assert game.check(state, action).text.startswith("the game is over")     # a well-formed one: over


def test_the_adapter_names_a_malformed_action_id_before_legality_or_the_end():
    from playtest.interop.core import KitPlay, KitShape
    game = playtest.load("tic_tac_toe")
    play = KitPlay(KitShape.of(game))
    for code in ("4", 4.0, None, True):
        with pytest.raises(ValueError, match=r"an action id is a whole number, not (str|float|NoneType|bool)"):
            play.step(0, code)
    for code in (0, 3, 1, 4, 2):                   # x wins on the top row
        play.step(play.current(), code)
    assert play.current() < 0 and play.game.to_move(play.state) is None
    with pytest.raises(ValueError, match="an action id is a whole number, not float"):
        play.step(1, 5.0)
    with pytest.raises(ValueError, match="the game is over"):
        play.step(1, 5)


# ------------------------------------------------------------------ whole-number parameters
@pytest.mark.parametrize("value", [5.0, 5.5, float("nan"), float("inf")])
def test_a_whole_number_parameter_refuses_a_float_naming_it(value):
    with pytest.raises(ValueError, match=r"connect_four parameter cols=.* it must be a whole number from 3 to "
                                         r"12, not a float"):
        playtest.load("connect_four", cols=value)


def test_a_whole_number_parameter_takes_whole_numbers_and_a_float_parameter_takes_both():
    from playtest.kernel.params import ParamSpec
    assert playtest.load("connect_four", cols=5).params.cols == 5
    with pytest.raises(ValueError, match="cols=true"):
        playtest.load("connect_four", cols=True)
    share = ParamSpec("share", 0.5, "a share", "assumed", True, min=0, max=2)
    assert share.validate(1, "g") == 1.0 and type(share.validate(1, "g")) is float
    assert share.validate(1.5, "g") == 1.5


# ------------------------------------------------------------------ check_game's random player
class Flip(Action):
    seat: int
    switch: int


class Done(Action):
    seat: int


class Switches(State):
    lights: tuple[int, ...] = field((0, 0), visible="owner", min=0, max=1023)
    done: tuple[bool, ...] = (False, False)
    round: int = field(0, min=0, max=2)


@playtest.register(listed=False)
class ManySwitches(Game):
    """Each round every seat flips any of ten switches, as often as it likes, then says it is done: a
    player picking uniformly among the eleven parts says so one time in eleven, so its games run far
    past ``max_length``; one that gives whole orders (``random_order_parts``) ends in a few steps."""
    name, seat_names = "many_switches_probe", ("A", "B")
    state_type, action_types = Switches, (Flip, Done)
    game_type = GameType(dynamics="simultaneous", max_length=12)
    orders_drawn = 0

    def to_move(self, s): return None if s.round == 2 else SIMULTANEOUS
    def pending_seats(self, s): return tuple(i for i in (0, 1) if not s.done[i])

    def candidates(self, s, seat):
        return [] if s.done[seat] else [Flip(seat, k) for k in range(10)] + [Done(seat)]

    def why_not(self, s, a, seat):
        if isinstance(a, Flip) and not 0 <= a.switch < 10:
            return Refusal("no such switch")
        return Refusal("already done") if s.done[a.seat] else None

    def effect(self, s, a):
        if isinstance(a, Flip):
            return s.replace(lights=per_seat(s.lights, a.seat, s.lights[a.seat] ^ (1 << a.switch)))
        s = s.replace(done=per_seat(s.done, a.seat, True))
        return s.replace(done=(False, False), round=s.round + 1) if all(s.done) else s

    def random_order_parts(self, s, seat, rng):
        type(self).orders_drawn += 1
        return [Flip(seat, rng.randrange(10)), Done(seat)]

    def outcome(self, s): return Outcome((), "two rounds") if s.round == 2 else None


@playtest.register(listed=False)
class UniformSwitches(ManySwitches):
    name = "uniform_switches_probe"

    def random_order_parts(self, s, seat, rng):
        return None                                # draws none: a random player adds parts one by one


def test_check_game_plays_whole_orders_where_the_game_draws_them():
    ManySwitches.orders_drawn = 0
    report = playtest.check_game(ManySwitches(), examples=4, positions=5)
    assert report.ok, report
    assert report.checked["ends"] == 4
    assert ManySwitches.orders_drawn >= 4 * 4           # every seat's order of every round of every game
    uniform = playtest.check_game(UniformSwitches(), examples=4, positions=5)
    assert [f.property for f in uniform.failures] == ["ends"]
    assert "did not end within 12 steps" in uniform.failures[0].message


def test_check_game_reports_a_drawn_part_that_apply_refuses_as_its_sampler():
    @playtest.register(listed=False)
    class Liar(ManySwitches):
        name = "liar_switches_probe"

        def random_order_parts(self, s, seat, rng):
            return [Done(1 - seat)] if s.done[1 - seat] else [Done(seat)]

    report = playtest.check_game(Liar(), examples=2, positions=3)
    failed = {f.property: f for f in report.failures}
    assert "random action is legal" in failed
    assert "random_order_parts gives" in failed["random action is legal"].message


def test_seats_follow_a_parameter_change_though_a_game_object_keeps_its_own():
    """Game.seats() and seat_count() are worked out once per game object: a parameter change (a
    session's set_params, with_params) makes a new game object, whose seats follow its parameters,
    and undo goes back to the old object's seats."""
    import playtest
    from playtest import Session

    two = playtest.load("eat_thyself")
    assert (two.seat_count(), len(two.seats())) == (2, 2)
    three = two.with_params(num_players=3)
    assert three is not two and (three.seat_count(), len(three.seats())) == (3, 3)
    assert (two.seat_count(), len(two.seats())) == (2, 2)
    session = Session(two, seed=1)
    session.set_params(num_players=3)
    assert session.game.seat_count() == 3 and len(session.game.seats()) == 3
    session.undo()
    assert session.game.seat_count() == 2 and [s.name for s in session.game.seats()] == [s.name for s in two.seats()]
