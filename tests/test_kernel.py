"""The kernel on its own: declarations, the legality template, and the registry's refusals.

A game here is written the new way in a few lines (declared state and actions, ``candidates``,
``why_not``, ``effect``); the kernel must write ``apply``, ``legal_actions``, the JSON both
ways, redaction and ``determinize`` from them, refuse broken declarations at class creation
naming the class and field, and refuse at ``register`` a game whose secrets would leak.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import dataclass
from typing import ClassVar

import pytest

import playtest
from playtest import (CHANCE, SIMULTANEOUS, Action, DeclarationError, Game, GameType, IllegalAction,
                      MalformedAction, Outcome, Params, Refusal, RegistrationError, State, field, param, per_seat,
                      register)
from playtest.kernel.registry import _REGISTRY, _UNLISTED


@pytest.fixture(autouse=True)
def forget_test_games():
    playtest.games()                      # every game of the kit imported first: only the tests' own go
    before = dict(_REGISTRY)
    yield
    for name in set(_REGISTRY) - set(before):
        _REGISTRY.pop(name)
        _UNLISTED.discard(name)


# ------------------------------------------------------------------ a game in a few declarations

class Mark(Action):
    cell: int


class Board(State):
    cells: tuple[int, ...] = field((-1,) * 9, min=-1, max=1)
    turn: int = field(0, min=0, max=9)


LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


class TicTacToe(Game[Params, Board, Mark]):
    name = "kernel_tic_tac_toe"
    seat_names = ("X", "O")
    state_type = Board
    action_types = (Mark,)
    game_type = GameType(max_length=9)

    def to_move(self, s: Board) -> int | None:
        return None if self.outcome(s) else s.turn % 2

    def candidates(self, s: Board, seat: int) -> list[Mark]:
        return [Mark(i) for i in range(9)]

    def why_not(self, s: Board, a: Mark, seat: int) -> Refusal | None:
        if not 0 <= a.cell < 9:
            return Refusal(f"there is no cell {a.cell}", "T1")
        return Refusal("that cell is taken", "T2") if s.cells[a.cell] >= 0 else None

    def effect(self, s: Board, a: Mark) -> Board:
        return s.replace(cells=per_seat(s.cells, a.cell, s.turn % 2), turn=s.turn + 1)

    def outcome(self, s: Board) -> Outcome | None:
        for line in LINES:
            if s.cells[line[0]] >= 0 and len({s.cells[i] for i in line}) == 1:
                return Outcome((s.cells[line[0]],), "three in a row")
        return Outcome((), "a full board") if s.turn == 9 else None


def test_the_kernel_writes_legal_actions_and_apply_from_one_decision():
    game = TicTacToe()
    state = game.initial_state()
    assert game.legal_actions(state) == [Mark(i) for i in range(9)]
    state = game.apply(state, Mark(4))
    assert Mark(4) not in game.legal_actions(state) and len(game.legal_actions(state)) == 8
    with pytest.raises(IllegalAction) as err:
        game.apply(state, Mark(4))
    assert err.value.rule == "T2" and str(err.value) == "that cell is taken (rule T2)"
    assert err.value.refusal == Refusal("that cell is taken", "T2") == game.check(state, Mark(4))
    assert game.check(state, Mark(0)) is None
    with pytest.raises(MalformedAction):
        game.apply(state, Mark(True))                      # a bool is not a whole number
    with pytest.raises(MalformedAction):
        game.apply(state, "mark 3")                        # not an action at all


def test_the_game_over_and_the_wrong_seat_are_the_kernels_to_refuse():
    game = TicTacToe()
    state = game.initial_state()
    assert "X's turn, not O's" in game.check(state, Mark(0), seat=1).text
    for cell in (0, 3, 1, 4, 2):
        state = game.apply(state, Mark(cell))
    assert game.to_move(state) is None and game.returns(state) == (1.0, -1.0)
    assert game.check(state, Mark(8)).text.startswith("the game is over (three in a row)")
    assert game.legal_actions(state) == []


def test_declared_state_json_both_ways_with_messages_naming_the_field():
    game = TicTacToe()
    state = game.apply(game.initial_state(), Mark(4))
    assert state.to_json() == {"cells": [-1, -1, -1, -1, 0, -1, -1, -1, -1], "turn": 1}
    assert game.state_from_json(json.loads(json.dumps(state.to_json()))) == state
    assert hash(game.state_from_json(state.to_json())) == hash(state)
    for bad, words in [({"cells": [0] * 8 + [2]}, "kernel_tic_tac_toe.cells[8] must be a whole number from -1 to 1"),
                       ({"turn": True}, "kernel_tic_tac_toe.turn must be a whole number"),
                       ({"cells": "x"}, "kernel_tic_tac_toe.cells must be a list of whole numbers"),
                       ({"colour": 1}, "unknown fields in a kernel_tic_tac_toe position: ['colour']"),
                       ([1, 2], "kernel_tic_tac_toe position is an object")]:
        with pytest.raises(ValueError) as err:
            game.state_from_json(bad)
        assert words in str(err.value)


def test_states_and_actions_are_immutable_values():
    state = Board()
    with pytest.raises(AttributeError):
        state.turn = 3
    with pytest.raises(AttributeError):
        Mark(1).cell = 2
    assert state.replace(turn=2).turn == 2 and state.turn == 0
    with pytest.raises(TypeError, match="Board has no field 'turns'"):
        state.replace(turns=2)


def test_a_declared_action_has_its_kind_str_json_and_match():
    class RemoveWall(Action):
        edge: tuple[int, int]
    action = RemoveWall((3, 4))
    assert action.kind == "remove_wall" and str(action) == "remove wall 3,4"
    assert action.to_json() == {"kind": "remove_wall", "edge": [3, 4]}
    assert RemoveWall.from_json({"kind": "remove_wall", "edge": [3, 4]}) == action
    with pytest.raises(MalformedAction, match="edge"):
        RemoveWall.from_json({"kind": "remove_wall", "edge": [3]})
    match action:
        case RemoveWall((a, b)):
            assert (a, b) == (3, 4)


def test_older_style_actions_still_declare_themselves():
    @dataclass(frozen=True, slots=True)
    class Old(Action):
        kind: ClassVar[str] = "old_kind"
        col: int
        row: int = 0
    assert Old(1).to_json() == {"kind": "old_kind", "col": 1, "row": 0}
    assert Old.from_json({"kind": "old_kind", "col": 2, "row": 5}) == Old(2, 5)


# ------------------------------------------------------------------ declaration errors, at class creation

def test_a_state_field_without_a_type_is_refused_naming_class_and_field():
    with pytest.raises(DeclarationError, match="state Bad: field 'score' has no type"):
        class Bad(State):
            turn: int = 0
            score = 0


def test_a_bound_that_contradicts_its_default_is_refused():
    with pytest.raises(DeclarationError, match=r"Bad\.budget: the default 20 contradicts"):
        class Bad(State):
            budget: int = field(20, min=0, max=10)
    with pytest.raises(DeclarationError, match=r"BadParams\.budget: the default 20 contradicts"):
        @dataclass(frozen=True)
        class BadParams(Params):
            budget: int = param(20, "walls", min=0, max=10)
    with pytest.raises(DeclarationError, match="is not one of its choices"):
        @dataclass(frozen=True)
        class BadChoice(Params):
            mode: str = param("c", "mode", choices=("a", "b"))


def test_an_unsupported_field_type_is_refused():
    with pytest.raises(DeclarationError, match=r"Bad\.cells.*not a type a declared field may have"):
        class Bad(State):
            cells: list[int] = ()


def test_an_action_kind_declared_twice_is_refused():
    class Place(Action):
        cell: int

    class Put(Action):
        kind: ClassVar[str] = "place"
        cell: int

    with pytest.raises(DeclarationError, match="game Twice: the action kind 'place' is declared twice"):
        class Twice(TicTacToe):
            action_types = (Place, Put)


def test_a_bad_game_type_is_refused():
    with pytest.raises(DeclarationError, match="GameType.dynamics"):
        GameType(dynamics="realtime")
    with pytest.raises(DeclarationError, match="has_secrets = False"):
        class Leaky(TicTacToe):
            game_type = GameType(information="imperfect")
            has_secrets = False


# ------------------------------------------------------------------ the registry keeps secrets safe

class Throw(Action):
    seat: int
    hand: str


class Throws(State):
    hands: tuple[str | None, ...] = field((None, None), visible="owner", choices=("rock", "paper", "scissors"))


BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}


class RockPaperScissors(Game[Params, Throws, Throw]):
    name = "kernel_rps"
    seat_names = ("Left", "Right")
    state_type = Throws
    action_types = (Throw,)
    game_type = GameType(dynamics="simultaneous", max_length=2)

    def to_move(self, s: Throws) -> int | None:
        return SIMULTANEOUS if None in s.hands else None

    def pending_seats(self, s: Throws) -> tuple[int, ...]:
        return tuple(i for i, h in enumerate(s.hands) if h is None)

    def candidates(self, s: Throws, seat: int) -> list[Throw]:
        return [Throw(seat, h) for h in BEATS]

    def why_not(self, s: Throws, a: Throw, seat: int) -> Refusal | None:
        if a.hand not in BEATS:
            return Refusal(f"{a.hand!r} is not a hand", "RPS1")
        return Refusal("that seat has thrown", "RPS2") if s.hands[seat] is not None else None

    def effect(self, s: Throws, a: Throw) -> Throws:
        return s.replace(hands=per_seat(s.hands, a.seat, a.hand))

    def outcome(self, s: Throws) -> Outcome | None:
        if None in s.hands:
            return None
        left, right = s.hands
        if left == right:
            return Outcome((), "the same hand")
        return Outcome((0,) if BEATS[left] == right else (1,), "a hand beats the other")


def test_a_declared_simultaneous_game_keeps_orders_secret_by_default():
    game = register(RockPaperScissors, listed=False)()
    assert game.has_secrets                          # derived: nobody had to remember a flag
    state = game.apply(game.initial_state(), Throw(0, "rock"))
    assert state.redact(1) == {"hands": [None, None]} and state.redact(0) == {"hands": ["rock", None]}
    assert game.notation(game.initial_state(), Throw(0, "rock"), viewer=1) == "Left gives an order"
    assert game.notation(game.initial_state(), Throw(0, "rock"), viewer=0) == "throw 0 rock"
    seen = {game.determinize(state, 1, random.Random(k)).hands[0] for k in range(30)}
    assert seen == {"rock", "paper", "scissors"}       # the bot of Right cannot read Left's throw
    other = game.apply(game.initial_state(), Throw(0, "paper"))
    assert game.determinize(state, 1, random.Random(4)) == game.determinize(other, 1, random.Random(4))
    assert game.determinize(state, 0, random.Random(4)).hands[0] == "rock"


def test_a_simultaneous_game_written_the_old_way_without_secrets_is_refused():
    class OldThrows(RockPaperScissors):
        name = "kernel_old_rps"
        game_type = None
        has_secrets = False
        state_type = None

        def initial_state(self):
            return (None, None)

        def to_move(self, s):
            return SIMULTANEOUS if None in s else None

        def pending_seats(self, s):
            return tuple(i for i, h in enumerate(s) if h is None)

        def legal_actions(self, s, seat=None):
            seats = self.pending_seats(s) if seat is None else [seat]
            return [Throw(p, h) for p in seats if s[p] is None for h in BEATS]

        def apply(self, s, a, check=True):
            return per_seat(s, a.seat, a.hand)

        def outcome(self, s):
            return None if None in s else Outcome((), "thrown")

    with pytest.raises(RegistrationError, match="kernel rule K1: simultaneous orders are secret"):
        register(OldThrows)


def test_imperfect_information_without_hidden_fields_or_determinize_is_refused():
    class Blind(TicTacToe):
        name = "kernel_blind"
        game_type = GameType(information="imperfect")
    with pytest.raises(RegistrationError, match="kernel rule K2"):
        register(Blind)

    class OldBlind(TicTacToe):
        name = "kernel_old_blind"
        game_type = None
        has_secrets = True
    with pytest.raises(RegistrationError, match="kernel rule K2"):
        register(OldBlind)


def test_a_game_without_rules_or_seats_is_refused_at_register():
    class Empty(Game):
        name = "kernel_empty"
    with pytest.raises(RegistrationError, match="seat_names or write seats"):
        register(Empty)

    class NoName(TicTacToe):
        name = ""
    with pytest.raises(RegistrationError, match="needs a name"):
        register(NoName)


def test_registering_does_not_write_onto_a_shared_params_class():
    class A(TicTacToe):
        name = "kernel_a"

    class B(TicTacToe):
        name = "kernel_b"
    register(A, listed=False)
    register(B, listed=False)
    with pytest.raises(ValueError, match="^kernel_a has no parameter 'size'"):
        playtest.load("kernel_a", size=3)
    with pytest.raises(ValueError, match="^kernel_b has no parameter 'size'"):
        playtest.load("kernel_b", size=3)
    assert Params.game_name == "game"


# ------------------------------------------------------------------ hidden cards drawn from one deck

class Hand(State):
    cards: tuple[int | None, ...] = field((None, None), visible="owner", pool="deck", min=0, max=2)
    deck: tuple[int, ...] = field((0, 1, 2), visible="none", pool="deck", min=0, max=2)


def test_determinize_redraws_exactly_what_a_seat_may_not_see():
    state = Hand(cards=(2, 0), deck=(1,))
    twin = Hand(cards=(2, 1), deck=(0,))            # the same to seat 0
    for k in range(20):
        drawn = state.determinize(0, random.Random(k))
        assert drawn.cards[0] == 2 and sorted((drawn.cards[1], drawn.deck[0])) == [0, 1]
        assert drawn == twin.determinize(0, random.Random(k))
    assert {state.determinize(0, random.Random(k)).cards[1] for k in range(30)} == {0, 1}
    assert state.redact(None) == {"cards": [None, None], "deck": [None]}


# ------------------------------------------------------------------ the registry and imports

def test_import_playtest_stays_light():
    code = ("import sys, playtest; playtest.load('corner_rush'); "
            "print(sorted(m for m in sys.modules if m.startswith('playtest.lab') or m in ('pandas', 'ipywidgets')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_broken_game_module_is_reported_and_the_others_load(tmp_path):
    package = tmp_path / "brokengames"
    package.mkdir()
    (package / "__init__.py").write_text("raise RuntimeError('a typo in the rules')\n")
    code = f"""
import sys, warnings, importlib.metadata as md
sys.path.insert(0, {str(tmp_path)!r})
class Entry:
    name, value = 'broken_game', 'brokengames:Game'
    def load(self):
        import brokengames
md.entry_points = lambda group=None: [Entry()] if group == 'playtest.games' else []
warnings.simplefilter('ignore')
import playtest
print(len(playtest.games()), list(playtest.broken_games().values()))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "5 ['RuntimeError: a typo in the rules']"


def test_every_registered_game_declares_its_type_and_state():
    """The kit's own games are written the new way: each declares its game type (so secrets are
    derived, never remembered), and no shared Params class carries another game's name."""
    for name in playtest.games() + ["secret_bid"]:
        cls = playtest.kernel.game_class(name)
        assert cls.Params.game_name == name
        if cls.game_type is not None:
            assert cls.has_secrets == cls.game_type.secret or cls.has_secrets


def test_chance_outcomes_are_checked_by_the_kernel():
    class Roll(Action):
        face: int

    class Die(State):
        face: int | None = field(None, min=1, max=6)

    class OneRoll(Game[Params, Die, Roll]):
        name = "kernel_roll"
        seat_names = ("Solo",)
        state_type = Die
        action_types = (Roll,)
        game_type = GameType(chance=True, max_length=1)

        def to_move(self, s):
            return CHANCE if s.face is None else None

        def chance_outcomes(self, s):
            return [(Roll(f), 1 / 6) for f in range(1, 7)]

        def candidates(self, s, seat):
            return []

        def effect(self, s, a):
            return s.replace(face=a.face)

        def outcome(self, s):
            return None if s.face is None else Outcome((0,), f"rolled {s.face}")

    game = register(OneRoll, listed=False)()
    assert game.legal_actions(game.initial_state()) == [Roll(f) for f in range(1, 7)]
    assert game.check(game.initial_state(), Roll(7)).text == "roll 7 cannot happen here"
    session = playtest.Session(game, seed=3)
    assert session.to_move is None and 1 <= session.state.face <= 6


# ------------------------------------------------------------------ games written the older way keep working

def test_a_game_written_against_the_older_protocol_registers_and_plays(tmp_path):
    import old_style_game  # noqa: F401  (registers old_style_secret_bid, unlisted)
    game = playtest.load("old_style_secret_bid", num_players=3)
    assert game.has_secrets and game.game_type is None
    session = playtest.Session.open(tmp_path / "old.playtest.json", game, seed=4)
    rng = random.Random(2)
    while session.to_move is not None and session.move_number < 40:
        seat = rng.choice(game.pending_seats(session.state))
        session.play(rng.choice(session.legal_actions(seat)), seat=seat)
    with pytest.raises(IllegalAction):
        session.play({"kind": "bid", "seat": 0, "amount": 99}, seat=0)
    again = playtest.Session.load(tmp_path / "old.playtest.json")
    assert again.state == session.state and again.history(0) == session.history(0)
    from playtest.bots import RandomBot
    from playtest.lab import simulate
    assert len(simulate(game, [RandomBot(1), RandomBot(2), RandomBot(3)], games=4, seed=1).games) == 4


def test_an_older_why_not_without_a_seat_answers_the_kernels_legality_decision():
    """An older game's ``why_not(state, action)`` answers text: the kernel's one legality decision
    (the table's reasons, the lab's check of a bot's action, ``check_game``) asked it with a seat and
    refused every action, a legal one too, as "its rules cannot read it (TypeError ...)"."""
    import old_style_game
    game = old_style_game.SecretBid()
    session = playtest.Session(game, seed=1)
    legal = session.legal_actions(0)[0]
    assert game.check(session.state, legal, 0) is None
    refusal = game.check(session.state, type(legal)(0, 99), 0)
    assert (refusal.text, refusal.rule) == ("North may bid from 0 to 3 (max_bid 3, 5 coins)", "SB3")
    report = playtest.check_game(game, examples=3)
    assert [f.property for f in report.failures if f.property == "random action is legal"] == []


def test_a_parameter_nested_thousands_deep_is_refused_naming_it():
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    for name, parameter in [("corner_rush", "die_faces"), ("then_there_was_one", "start_cells"),
                            ("eat_thyself", "card_pair")]:
        with pytest.raises(ValueError, match=f"^{name} parameter {parameter}: lists nested more than 4 deep"):
            playtest.load(name, **{parameter: deep})
    session = playtest.Session(playtest.load("corner_rush"), seed=1)
    with pytest.raises(ValueError, match="die_faces: lists nested"):
        session.set_params(die_faces=deep)
    assert session.move_number == 0


def test_an_installed_package_adds_its_game_through_the_entry_point(tmp_path):
    """``pip install my-game`` with a ``playtest.games`` entry point makes ``playtest.load("my_game")`` work."""
    package = tmp_path / "my_game"
    package.mkdir()
    (package / "__init__.py").write_text(
        "from playtest.examples.tic_tac_toe import TicTacToe\n"
        "class MyGame(TicTacToe):\n    name = 'my_game'\n    title = 'My game'\n")
    code = f"""
import sys, importlib.metadata as md
sys.path.insert(0, {str(tmp_path)!r})
class Entry:
    name, value = 'my_game', 'my_game:MyGame'
    def load(self):
        import my_game
        return my_game.MyGame
md.entry_points = lambda group=None: [Entry()] if group == 'playtest.games' else []
import playtest
game = playtest.load('my_game')
print(game.title, playtest.check_game(game, examples=2).ok, playtest.broken_games())
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "My game True {}"


# ------------------------------------------------------------------ the JSON form, sight and speed (round 2)

def _tile_names(value, state):
    return ["abcdefghi"[t] for t in value]


def _tile_indices(value, at, game):
    if not isinstance(value, list) or any(not isinstance(t, str) or t not in game for t in value):
        raise ValueError(f"{at} must be a list of tiles of {game!r}, not {value!r}")
    return [game.index(t) for t in value]


class Diagram(State):
    mover: int = field(-1, min=-1, max=3, json="to_move", null=-1)
    tiles: tuple[int, ...] = field((), min=0, max=8, omit_default=True, write=_tile_names, read=_tile_indices)
    turn: int = 0


def test_a_field_has_its_own_json_name_null_sentinel_and_converters():
    state = Diagram(mover=2, tiles=(0, 4), turn=3)
    data = state.to_json()
    assert data == {"to_move": 2, "tiles": ["a", "e"], "turn": 3}
    assert Diagram.from_json(json.loads(json.dumps(data)), context="abcdefghi") == state
    assert Diagram().to_json() == {"to_move": None, "turn": 0}               # -1 written as null, () left out
    assert Diagram.from_json({"to_move": None}) == Diagram()
    with pytest.raises(ValueError, match=r"Diagram.tiles must be a list of tiles of 'abc', not \['z'\]"):
        Diagram.from_json({"tiles": ["z"]}, context="abc")
    with pytest.raises(ValueError, match=r"Diagram.tiles\[0\] must be a whole number from 0 to 8, not 9"):
        Diagram.from_json({"tiles": ["j"]}, context="abcdefghij")        # the converter's result is checked
    with pytest.raises(ValueError, match=r"Diagram.to_move must be a whole number from -1 to 3, not 7"):
        Diagram.from_json({"to_move": 7})
    with pytest.raises(ValueError, match=r"unknown fields in a Diagram position: \['mover'\]"):
        Diagram.from_json({"mover": 1})


def test_json_declaration_errors_are_refused_naming_class_and_field():
    with pytest.raises(DeclarationError, match=r"state Clash.b: its JSON name 'a' is also field a's"):
        class Clash(State):
            a: int = 0
            b: int = field(0, json="a")
    with pytest.raises(DeclarationError, match=r"state NoJson.a: json=False, so it has no JSON form"):
        class NoJson(State):
            a: int = field(0, json=False, null=-1, write=lambda v, s: v)
    with pytest.raises(DeclarationError, match=r"state BadReader.a: read must be a function, not 3"):
        class BadReader(State):
            a: int = field(0, read=3)
    with pytest.raises(DeclarationError, match=r"state NoDefault.a: omit_default=True needs a default"):
        class NoDefault(State):
            a: int = field(omit_default=True)
    with pytest.raises(DeclarationError, match=r"state Unnamed.a: json='' names nothing"):
        class Unnamed(State):
            a: int = field(0, json="")
    with pytest.raises(DeclarationError, match=r"state BadNull.a: the default -1 contradicts its declaration"):
        class BadNull(State):
            a: int = field(-1, min=0, null=-1)


def test_sight_by_mask_and_by_seat_is_declared_and_checked():
    class Table(State):
        known: tuple[int, ...] = (0, 0, 0)
        cards: tuple[int | None, ...] = field((None, None, None), visible="none", seen_by="known", pool="deck",
                                              min=0, max=9)
        mover: int = 0
        held: int | None = field(None, visible="none", seen_by_seat="mover", pool="deck", min=0, max=9)

    state = Table(known=(0b001, 0b110, 0b000), cards=(1, 2, 3), mover=2, held=4)
    assert state.redact(0)["cards"] == [1, None, None] and state.redact(0)["held"] is None
    assert state.redact(1)["cards"] == [None, 2, None]
    assert state.redact(2) == {"known": [1, 6, 0], "cards": [None, 2, None], "mover": 2, "held": 4}
    assert state.redact(None)["cards"] == [None, None, None]            # the table sees no seat's secrets
    for seed in range(20):                       # seat 2 keeps what it sees; the rest is one pool reshuffled
        drawn = state.determinize(2, random.Random(seed))
        assert drawn.cards[1] == 2 and drawn.held == 4
        assert sorted([drawn.cards[0], drawn.cards[2]]) == [1, 3]
        assert drawn.redact(2) == state.redact(2)
    with pytest.raises(DeclarationError, match=r"state Loose.cards: seen_by='nobody' names no field"):
        class Loose(State):
            cards: tuple[int, ...] = field((), visible="none", seen_by="nobody")
    with pytest.raises(DeclarationError, match=r"state Open.cards: seen_by and seen_by_seat widen a hidden"):
        class Open(State):
            mover: int = 0
            cards: tuple[int, ...] = field((), seen_by_seat="mover")


def test_replace_is_one_dict_copy_and_still_names_an_unknown_field():
    state = Diagram(mover=1)
    after = state.replace(turn=4)
    assert (after.turn, state.turn, after.mover) == (4, 0, 1) and after == Diagram(mover=1, turn=4)
    assert state._replace(turn=4) == after and hash(after) == hash(Diagram(mover=1, turn=4))
    with pytest.raises(TypeError, match="Diagram has no field 'turns'; its fields are mover, tiles, turn"):
        state.replace(turns=4)


def test_an_action_notation_template_is_checked_at_class_creation():
    class Push(Action):
        notation = "push seat {pawn} →{to}"
        pawn: int
        to: str

    assert str(Push(2, "d1")) == "push seat 2 →d1" and Push(2, "d1").to_json() == {"kind": "push", "pawn": 2,
                                                                                 "to": "d1"}

    class Verb(Action):
        verb: ClassVar[str] = "challenge"
        notation = "{verb} {at}"
        at: str

    assert str(Verb("c4")) == "challenge c4"
    with pytest.raises(DeclarationError, match=r"action Typo: its notation 'x{slott}' names 'slott'"):
        class Typo(Action):
            notation = "x{slott}"
            slot: int
    with pytest.raises(DeclarationError, match="action NotText: notation must be a text template"):
        class NotText(Action):
            notation = 3


@pytest.mark.parametrize("name", sorted(playtest.games()))
def test_a_game_whose_candidates_are_the_legal_actions_says_so_truly(name):
    """``candidates_are_legal`` lets ``legal_actions`` skip ``why_not``: it must list the same actions."""
    game = playtest.load(name)
    if not getattr(game, "candidates_are_legal", False):
        pytest.skip("asks why_not of every candidate")
    rng = random.Random(7)
    for _ in range(4):
        state = game.initial_state()
        for _ in range(120):
            mover = game.to_move(state)
            if mover is None:
                break
            if mover >= 0:
                listed = game.candidates(state, mover)
                assert listed == [a for a in listed if game.why_not(state, a, mover) is None]
            state = game.apply(state, game.random_action(state, rng))


def test_the_common_check_path_and_a_chance_refusal_in_the_games_words():
    game = playtest.load("corner_rush")
    state = game.initial_state()                              # the roll-off: chance is to move
    refusal = game.check(state, playtest.load("corner_rush").action_types[0]())
    assert refusal is not None and refusal.rule and "roll-off" in refusal.text
    assert game.chance_refusal(state, game.action_from_json({"kind": "die", "value": 9})).rule == "D4"


def test_seat_names_by_player_count_and_their_declaration_errors():
    game = playtest.load("secret_bid", num_players=3)
    assert [s.name for s in game.seats()] == ["North", "East", "South"]
    assert [s.color for s in game.seats()] == ["#c0392b", "#2471a3", "#1e8449"]
    with pytest.raises(DeclarationError, match=r"game Bad: seat_names must be a tuple of names \(or a dict"):
        class Bad(Game):
            seat_names = {2: ("North", 3)}


def test_a_game_without_why_not_accepts_exactly_its_candidates():
    """A game that writes only ``candidates`` (Kuhn poker) refuses anything else: a deal tried at a
    seat's turn is not one of that seat's actions (before, the default allowed everything)."""
    from playtest.examples.kuhn_poker import Bet, Deal
    game = playtest.load("kuhn_poker")
    state = game.apply(game.apply(game.initial_state(), Deal(0, 2)), Deal(1, 0))
    refusal = game.check(state, Deal(0, 1))
    assert refusal is not None and "not one of" in refusal.text and game.seats()[0].name in refusal.text
    with pytest.raises(playtest.IllegalAction):
        game.apply(state, Deal(0, 1))
    assert game.check(state, Bet()) is None and game.legal_actions(state) == game.candidates(state, 0)
