"""Defects a new designer met writing games of their own from the guide (Liar's dice, Blotto, Hex)."""

from __future__ import annotations

import random

import pytest

import playtest
from playtest import CHANCE, SIMULTANEOUS, Action, Game, GameType, Outcome, Refusal, State, field, per_seat
from playtest.kernel.registry import RegistrationError, _check


class Cup(State):
    rolled: tuple[tuple[int, ...] | None, ...] = field((None, None), min=1, max=6, visible="owner")
    sealed: tuple[bool, ...] = field((False, False), visible="owner")


def test_determinize_redraws_a_hidden_tuple_entry_as_a_tuple_of_the_same_length():
    cup = Cup(rolled=((1, 2), (3, 4, 5)), sealed=(True, False))
    for k in range(30):
        drawn = cup.determinize(0, random.Random(k))
        assert drawn.rolled[0] == (1, 2) and drawn.sealed[0] is True           # its own stay
        assert type(drawn.rolled[1]) is tuple and len(drawn.rolled[1]) == 3    # was an int before
        assert all(1 <= d <= 6 for d in drawn.rolled[1])
        assert type(drawn.sealed[1]) is bool
        assert Cup.from_json(drawn.to_json()) == drawn                          # a position of its own type


class Order(State):
    sent: tuple[int, ...] = field((0, 0, 0), min=0, max=9)
    ready: bool = False


class Noted(State):
    sent: int = field(0, min=0, max=9)
    note: str = "x"


def test_determinize_redraws_a_hidden_record_field_by_field_and_names_what_it_cannot():
    class Orders(State):
        orders: tuple[Order, ...] = field((Order(), Order()), visible="owner")

    drawn = Orders(orders=(Order((1, 2, 3)), Order((4, 5, 6)))).determinize(1, random.Random(2))
    assert drawn.orders[1] == Order((4, 5, 6)) and isinstance(drawn.orders[0], Order)
    assert len(drawn.orders[0].sent) == 3

    class Loose(State):
        count: tuple[int, ...] = field((0, 0), visible="owner")           # no bounds to redraw from

    with pytest.raises(playtest.DeclarationError, match=r"state Loose\.count is hidden but has no pool"):
        Loose(count=(1, 2)).determinize(0, random.Random(1))


class Mark(Action):
    seat: int
    at: int


def _game(state_type):
    class Sealed(Game):
        name, seat_names = "sealed_probe", ("A", "B")
        action_types, game_type = (Mark,), GameType(dynamics="simultaneous", max_length=4)

        def to_move(self, s): return SIMULTANEOUS
        def pending_seats(self, s): return (0, 1)
        def candidates(self, s, seat): return [Mark(seat, 0)]
        def effect(self, s, a): return s
        def outcome(self, s): return None
    Sealed.state_type = state_type
    return Sealed


def test_register_refuses_a_hidden_field_the_default_determinize_cannot_redraw_naming_it():
    class Unbounded(State):
        orders: tuple[int, ...] = field((0, 0), visible="owner")

    with pytest.raises(RegistrationError, match=r"Unbounded\.orders is hidden but declares no min\.\.max.*K2"):
        _check(_game(Unbounded))

    class Text(State):
        order: tuple[Noted, ...] = field((Noted(), Noted()), visible="owner")

    with pytest.raises(RegistrationError, match=r"Text\.order \(its record's field Noted\.note\) is hidden"):
        _check(_game(Text))

    class Bounded(State):
        orders: tuple[int, ...] = field((0, 0), visible="owner", min=0, max=3)
    _check(_game(Bounded))                                  # redrawable: registers

    class Own(_game(Unbounded)):                            # or the game writes its own determinize
        def determinize(self, s, seat, rng): return s
    _check(Own)


def test_check_game_names_the_game_line_not_the_standard_library_line():
    from playtest.check import _one_line

    def game_code():
        return random.Random(1).randint(3, 1)               # raises inside random.py
    try:
        game_code()
    except ValueError as exc:
        line = _one_line(exc)
    assert "test_newcomer_kernel.py:" in line and "(raised in random.py:" in line


class Pick(Action):
    seat: int
    value: int


class Go(Action):
    seat: int


class Rounds(State):
    picks: tuple[int, ...] = field((0, 0), visible="owner", min=0, max=2)
    done: tuple[bool, ...] = (False, False)
    round: int = field(0, min=0, max=3)


@playtest.register(listed=False)
class TwoRounds(Game):
    """Secret picks over three rounds: the last Go of a round resolves it, and a new round starts
    with every seat pending again."""
    name, seat_names = "two_rounds_probe", ("A", "B")
    state_type, action_types = Rounds, (Pick, Go)
    game_type = GameType(dynamics="simultaneous", max_length=300)

    def to_move(self, s): return None if s.round == 3 else SIMULTANEOUS
    def pending_seats(self, s): return tuple(i for i in (0, 1) if not s.done[i])
    def candidates(self, s, seat): return [Pick(seat, v) for v in range(3)] + [Go(seat)]

    def why_not(self, s, a, seat):
        if s.done[a.seat]:
            return Refusal("already given")
        if isinstance(a, Pick) and not 0 <= a.value <= 2:
            return Refusal("no such value")
        if isinstance(a, Pick) and s.picks[a.seat] == a.value:
            return Refusal("already that value")
        return None

    def effect(self, s, a):
        if isinstance(a, Pick):
            return s.replace(picks=per_seat(s.picks, a.seat, a.value))
        s = s.replace(done=per_seat(s.done, a.seat, True))
        return s.replace(picks=(0, 0), done=(False, False), round=s.round + 1) if all(s.done) else s

    def random_order_parts(self, s, seat, rng):
        value = rng.randrange(3)
        return ([Pick(seat, value)] if value != s.picks[seat] else []) + [Go(seat)]

    def outcome(self, s): return Outcome((), "three rounds") if s.round == 3 else None


def test_check_game_accepts_random_order_parts_whose_last_submission_resolves_the_round():
    report = playtest.check_game(TwoRounds(), examples=6)
    assert report.ok, report                  # before: "the parts random_order_parts gives leave seat
    assert report.checked["random action is legal"] > 0   # 0's order unsubmitted" (a new round had begun)

    @playtest.register(listed=False)
    class Forgetful(TwoRounds):               # parts that never submit are still caught
        name = "forgetful_probe"

        def random_order_parts(self, s, seat, rng):
            return [Pick(seat, 1 if s.picks[seat] != 1 else 2)]
    failures = {f.property: f.message for f in playtest.check_game(Forgetful(), examples=3).failures}
    assert "leave seat" in failures["random action is legal"]


def test_check_game_of_an_unregistered_game_says_to_register_it():
    class Unlisted(TwoRounds):
        name = "unlisted_probe"
    failures = {f.property: f.message for f in playtest.check_game(Unlisted(), examples=1).failures}
    assert "Unlisted is not registered" in failures["save/load"] and "@register" in failures["save/load"]


class Dealt(State):
    hands: tuple[int | None, ...] = field((None, None), min=0, max=2, visible="owner")
    turn: int = field(0, min=0, max=2)


class Take(Action):
    card: int


class Deal(Action):
    seat: int
    card: int


def _cards(**declared):
    class Cards(Game):
        name, seat_names = "cards_probe", ("A", "B")
        state_type, action_types = Dealt, (Take, Deal)
        game_type = GameType(**declared)

        def to_move(self, s): return None if s.turn == 2 else CHANCE if None in s.hands else s.turn
        def chance_outcomes(self, s): return [(Deal(s.hands.index(None), c), 1 / 3) for c in range(3)]
        def candidates(self, s, seat): return [Take(0)]
        def why_not(self, s, a, seat): return Refusal("dealt by chance") if isinstance(a, Deal) and self.to_move(s) != CHANCE else None
        def effect(self, s, a): return s.replace(hands=per_seat(s.hands, a.seat, a.card)) if isinstance(a, Deal) else s.replace(turn=s.turn + 1)
        def outcome(self, s): return Outcome((), "done") if s.turn == 2 else None
    return Cards


def test_register_refuses_hidden_fields_in_a_game_type_without_secrets():
    with pytest.raises(RegistrationError, match=r"hidden state \(Dealt\.hands\) but its game type has no secrets.*K2"):
        _check(_cards(chance=True, max_length=4))              # forgot information="imperfect"
    _check(_cards(chance=True, information="imperfect", max_length=4))


def test_check_game_refuses_a_chance_step_the_game_type_does_not_declare():
    forgot = playtest.register(listed=False)(type("ForgotChance", (_cards(information="imperfect", max_length=4),),
                                                  {"name": "forgot_chance_probe"}))
    failures = {f.property: f.message for f in playtest.check_game(forgot(), examples=2).failures}
    assert "to_move gives chance, which its game type does not declare (declare GameType(chance=True)" \
        in failures["plays"]


def test_declaration_mistakes_are_refused_naming_the_class_and_field():
    with pytest.raises(playtest.DeclarationError, match=r"Peeked\.hand: revealed='turn' must name a bool field"):
        class Peeked(State):
            turn: int = 0
            hand: tuple[int, ...] = field((0, 0), visible="owner", min=0, max=3, revealed="turn")

    class Shown(State):                                     # a flag per entry is fine
        shown: tuple[bool, bool] = (False, False)
        hand: tuple[int, ...] = field((0, 0), visible="owner", min=0, max=3, revealed="shown")
    assert Shown(shown=(True, False), hand=(2, 3)).redact(1)["hand"] == [2, 3]

    with pytest.raises(playtest.DeclarationError, match=r"game One: action_types must be a tuple .* \(write \(Take,\)"):
        class One(Game):
            action_types = Take


def test_register_refuses_a_name_another_game_has_but_takes_the_same_class_again():
    import playtest.examples.tic_tac_toe  # noqa: F401

    class Mine(_cards(chance=True, information="imperfect", max_length=4)):
        name = "tic_tac_toe"
    with pytest.raises(RegistrationError, match=r"'tic_tac_toe' is already playtest\.examples\.tic_tac_toe\.TicTacToe's"):
        playtest.register(listed=False)(Mine)
    assert playtest.load("tic_tac_toe").title == "Tic-tac-toe"

    def cell():                                             # a notebook cell run twice: the same class again
        class Again(_cards(chance=True, information="imperfect", max_length=4)):
            name = "again_probe"
        return playtest.register(listed=False)(Again)
    first, second = cell(), cell()
    assert type(playtest.load("again_probe")) is second and first is not second
