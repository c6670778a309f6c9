"""Defects a second newcomer found writing three games from the guide alone (tests/newgames/pig.py,
expeditions.py, hex_pie.py), each pinned by a test that failed before its fix."""

from __future__ import annotations

import random

import pytest

import playtest
from playtest import Action, Game, GameType, Outcome, State, field, per_seat


class Card(Action):
    seat: int
    card: int


class Hands(State):
    hands: tuple[tuple[int, ...], ...] = field(((), ()), visible="owner", pool="deck", min=0, max=9)
    deck: tuple[int, ...] = field(tuple(range(10)), visible="none", pool="deck", min=0, max=9)


def test_a_pool_shared_by_hands_of_several_cards_is_shuffled_card_by_card():
    """``hands: tuple[tuple[int, ...], ...]`` in one pool with the deck: determinize shuffled a whole
    hand (a tuple) in with the deck's cards, drawing ``hands=((), 3)`` and a deck holding ``()``, a
    world the declaration forbids (the game's view then raised TypeError)."""
    dealt = Hands(hands=((0, 1, 2), (3, 4, 5)), deck=(6, 7, 8, 9))
    for k in range(30):
        world = dealt.determinize(0, random.Random(k))
        assert world.hands[0] == (0, 1, 2)                           # its own hand stays
        assert len(world.hands[1]) == 3 and len(world.deck) == 4     # the shapes stay
        assert sorted(world.hands[1] + world.deck) == [3, 4, 5, 6, 7, 8, 9]
        Hands.from_json(world.to_json())                             # a world the declaration allows
    assert {world.hands[1] for world in (dealt.determinize(0, random.Random(k)) for k in range(30))} != {(3, 4, 5)}
    empty = Hands().determinize(1, random.Random(2))                 # hands not dealt yet stay empty
    assert empty.hands == ((), ()) and sorted(empty.deck) == list(range(10))


class Pairs(State):
    cards: tuple[tuple[int, int] | None, ...] = field((None, None), visible="owner", pool="deck", min=0, max=5)
    deck: tuple[tuple[int, int], ...] = field(((0, 1), (2, 3)), visible="none", pool="deck", min=0, max=5)


def test_a_card_that_is_a_fixed_tuple_stays_one_card_in_its_pool():
    dealt = Pairs(cards=((4, 5), (0, 1)), deck=((2, 3), (1, 1)))
    worlds = [dealt.determinize(0, random.Random(k)) for k in range(20)]
    assert all(w.cards[0] == (4, 5) for w in worlds)
    assert {w.cards[1] for w in worlds} == {(0, 1), (2, 3), (1, 1)}


def test_seat_names_by_player_count_need_a_num_players_parameter_that_they_cover():
    """A newcomer with a ``seats`` parameter wrote ``seat_names = {3: ..., 4: ...}`` (the guide's "a dict
    of them by num_players"): the first ``seats()`` raised ``AttributeError: 'P' object has no
    attribute 'num_players'``; a dict leaving out a count the parameter allows raised ``KeyError: 4``."""
    from playtest import DeclarationError, Params, param

    class SeatsParams(Params):
        seats: int = param(3, "seats", min=3, max=4, live=False)

    with pytest.raises(DeclarationError, match=r"game Pig3: seat_names is a dict by number of players, but its "
                                               r"Params declare no num_players parameter .*yours are called seats"):
        class Pig3(Game):
            Params = SeatsParams
            seat_names = {3: ("a", "b", "c"), 4: ("a", "b", "c", "d")}

    class CountParams(Params):
        num_players: int = param(2, "seats", min=2, max=4, live=False)

    with pytest.raises(DeclarationError, match=r"seat_names has no names for num_players=4, which its "
                                               r"num_players parameter allows \(a whole number from 2 to 4\)"):
        class Short(Game):
            Params = CountParams
            seat_names = {2: ("a", "b"), 3: ("a", "b", "c")}
    with pytest.raises(DeclarationError, match=r"seat_names\[3\] names 2 seats, not 3"):
        class Wrong(Game):
            Params = CountParams
            seat_names = {2: ("a", "b"), 3: ("a", "b"), 4: ("a", "b", "c", "d")}


class Tally(State):
    scores: tuple[int, ...] = field((0, 0, 0), min=0, max=99)


class Tick(Action):
    pass


class TallyGame(Game):
    name, seat_names, state_type, action_types = "tally_check_state", ("a", "b", "c"), Tally, (Tick,)
    game_type = GameType()

    def to_move(self, s): return None if sum(s.scores) >= 3 else 0
    def candidates(self, s, seat): return [Tick()]
    def effect(self, s, a): return s.replace(scores=per_seat(s.scores, 0, s.scores[0] + 1))
    def outcome(self, s): return Outcome((0,), "three ticks") if sum(s.scores) >= 3 else None

    def check_state(self, s):           # returns its refusal, as why_not does, instead of raising
        if len(s.scores) != 3:
            return f"scores holds one score per seat (3), not {len(s.scores)}"
        return None


def test_a_refusal_check_state_returns_is_not_dropped():
    """``check_state`` returning its refusal (as ``why_not`` returns one) was ignored: a two-score
    position of a three-seat game loaded, and the rules then read past its end."""
    game = TallyGame()
    with pytest.raises(ValueError, match=r"tally_check_state: scores holds one score per seat \(3\), not 2"):
        game.state_from_json({"scores": [1, 2]})
    with pytest.raises(ValueError, match="scores holds one score per seat"):
        playtest.Session(game, start={"scores": [1, 2]})
    assert game.state_from_json({"scores": [1, 0, 0]}).scores == (1, 0, 0)

    class Truthy(TallyGame):
        def check_state(self, s): return len(s.scores) == 3      # True for "fine"

    with pytest.raises(TypeError, match=r"Truthy.check_state returned 'True': it raises ValueError"):
        Truthy().state_from_json({"scores": [1, 0, 0]})

    class ByRefusal(TallyGame):
        def check_state(self, s): return playtest.Refusal("too few scores", "T9") if len(s.scores) < 3 else None

    with pytest.raises(ValueError, match=r"too few scores \(rule T9\)"):
        ByRefusal().state_from_json({"scores": [1]})


def test_numpy_numbers_are_parameter_values():
    """``sweep("pig", {"target": np.arange(20, 40, 10)})`` failed: "pig parameter target=int64 is not
    allowed: it must be a whole number from 10 to 200" (a whole number from 10 to 200, said to be none)."""
    np = pytest.importorskip("numpy")
    from playtest.examples.connect_four import ConnectFour

    game = playtest.load("connect_four", cols=np.int64(5), connect=np.int32(3))
    assert (game.params.cols, type(game.params.cols)) == (5, int)
    assert game.params.to_json() == {**game.params.to_json(), "cols": 5}
    assert playtest.load("hex", size=np.int64(3)).params.size == 3
    assert type(ConnectFour(cols=np.int64(6)).params.cols) is int
    with pytest.raises(ValueError, match="connect_four parameter cols=2 is not allowed"):
        playtest.load("connect_four", cols=np.int64(2))
    with pytest.raises(ValueError, match="not a float"):
        playtest.load("connect_four", cols=np.float64(5.0))
    pytest.importorskip("pandas")
    result = playtest.sweep("connect_four", {"connect": np.arange(3, 5)}, games=2, progress=False, executor=None)
    assert result.values == [3, 4] and all(type(v) is int for v in result.values)


def test_a_sweep_over_a_list_parameter_given_as_lists_draws_its_table():
    """Sweeping a list-valued parameter the way it is written (``[[1, 2], [2, 4]]``) failed in pandas
    with "TypeError: unhashable type: 'list'": the values are now kept as the game holds them."""
    pytest.importorskip("pandas")
    result = playtest.sweep("eat_thyself", {"initial_faces": [[1, 2], [2, 4]]}, games=2, progress=False,
                            executor=None)
    assert result.values == [(1, 2), (2, 4)]
    assert list(result.table().index) == [(1, 2), (2, 4)]


@pytest.mark.parametrize("version", [-5, "7", 2 ** 60])
def test_a_bad_scene_version_is_named_with_its_value(version):
    from playtest.widgets.board import Board
    board, seen = Board(), []
    board.on_action(seen.append)
    board.receive({"type": "action", "action": {"kind": "place", "q": 1, "r": 1}, "version": version})
    assert seen == [] and f"scene version ({version!r}) that is not a whole number from 0" in board.error


def test_a_fixed_tuple_of_one_declared_for_several_is_refused_by_name():
    """``scores: tuple[int] = (0, 0, 0)`` (meant: one score a seat) was taken: ``to_json`` then wrote
    ``[0]``, silently dropping two scores, and a file's ``[1, 2, 3]`` was refused as 'a list of 1 values'."""
    from playtest import DeclarationError

    with pytest.raises(DeclarationError, match=r"state Scores.scores: the default \[0, 0, 0\] contradicts its "
                                               r"declaration .*must be a list of 1 value, not \[0, 0, 0\] "
                                               r"\(tuple\[X\] holds exactly one value: write tuple\[X, \.\.\.\]"):
        class Scores(State):
            scores: tuple[int] = (0, 0, 0)

    class Spot(Action):
        at: tuple[int, int]

    assert Spot((1, 2, 3)).to_json()["at"] == [1, 2, 3]       # written whole, never cut to two
    with pytest.raises(playtest.MalformedAction, match="at must be a list of 2 values"):
        Spot.from_json(Spot((1, 2, 3)).to_json())


def test_the_table_says_when_the_game_cannot_draw_a_position_and_undo_mends_it():
    """A game whose ``view`` (or ``why_not``, asked by the board) raised on a position reached by a
    click left the click's handler with a traceback (in a browser: nothing happened, the board stale)."""
    from newgames.hex_pie import HexPie, Swap

    class Fragile(HexPie):
        name = "hex_fragile_view"

        def why_not(self, s, a, seat):        # a KeyError on a taken cell (a newcomer's dict lookup)
            if isinstance(a, Swap):
                return super().why_not(s, a, seat)
            return {-1: None}[s.cells[a.r * self.params.size + a.q]]

    session = playtest.Session(Fragile(size=3))
    table = playtest.Table(session)
    table.board.receive({"type": "action", "action": {"kind": "place", "q": 0, "r": 0}})
    assert session.move_number == 1                                  # the move stands, nothing lost
    assert table.board.error.startswith("Hex with the pie rule could not draw this position: its code raised "
                                        "KeyError: 0 at test_newcomer2_findings.py:")
    assert "/" not in table.board.error.split(" at ")[1].split(".")[0]  # a file name, no machine path
    table.undo_button.click()
    assert session.move_number == 0 and table.board.error == ""


@pytest.mark.parametrize("name, params, start, message", [
    ("tic_tac_toe", {}, {"cells": [-1] * 18}, r"tic_tac_toe.cells holds 9 entries, not 18"),
    ("tic_tac_toe", {}, {"cells": [-1] * 4}, r"tic_tac_toe.cells holds 9 entries, not 4"),
    ("hex", {"size": 3}, {"cells": [-1] * 25}, r"hex.cells holds 9 entries, not 25"),
    ("connect_four", {"cols": 5}, {"columns": [[], []]}, r"connect_four.columns holds 5 entries, not 2"),
    ("goofspiel", {}, {"prizes": [1, 2], "hands": [[1], [2], [3]]}, r"goofspiel.hands holds 2 entries \(one per seat\), not 3"),
])
def test_the_guides_games_refuse_a_position_of_the_wrong_size_by_name(tmp_path, name, params, start, message):
    """The guide's own games (the ones a newcomer copies) took a tic-tac-toe board of 18 cells or a
    size-3 Hex board of 25 from a file without a word, and a short one as 'the game raised IndexError'."""
    game = playtest.load(name, **params)
    with pytest.raises(ValueError, match=message):
        playtest.Session(game, start=start)
    session = playtest.Session(game, seed=1)
    path = tmp_path / "s.playtest.json"
    session.save(path)
    path.write_text(path.read_text(encoding="utf-8").replace('"start":null', '"start":' + __import__("json").dumps(start)),
                    encoding="utf-8")
    with pytest.raises(playtest.SessionFileError, match=message):
        playtest.Session.load(path)


def test_a_declared_length_is_checked_where_it_can_be():
    from playtest import DeclarationError

    with pytest.raises(DeclarationError, match=r"state Short.cells: the default .* contradicts its declaration "
                                               r"\(Short.cells holds 9 entries, not 4\)"):
        class Short(State):
            cells: tuple[int, ...] = field((-1,) * 4, min=-1, max=1, length=9)
    with pytest.raises(DeclarationError, match="length is a number of entries, 'seats' or a function of the game"):
        class Odd(State):
            cells: tuple[int, ...] = field((), length="cells")

    class PerSeat(State):
        scores: tuple[int, ...] = field((0, 0), min=0, length="seats")
    assert PerSeat.from_json({"scores": [1, 2, 3]}).scores == (1, 2, 3)       # no game to ask: not checked


def test_a_start_made_in_python_is_held_to_what_a_files_would_be():
    """``Session(game, start=Pot(scores=(1, 2)))`` for a three-seat Pig was taken (a start given as
    JSON was refused): the rules then dealt with two scores for three seats."""
    from newgames.pig import Pot
    from newgames import pig  # noqa: F401  (registers it)

    game = playtest.load("pig")
    with pytest.raises(ValueError, match=r"scores must hold one score per seat \(3\), not 2"):
        playtest.Session(game, start=Pot(scores=(1, 2)))
    from playtest.examples.tic_tac_toe import Board
    with pytest.raises(ValueError, match="tic_tac_toe.cells holds 9 entries, not 4"):
        playtest.Session(playtest.load("tic_tac_toe"), start=Board(cells=(-1,) * 4))
    session = playtest.Session(game, start=Pot(scores=(3, 0, 1), mover=1))
    assert session.state.scores == (3, 0, 1) and session.to_move == 1
