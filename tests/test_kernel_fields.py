"""Kernel: fields keyed by name (``ByName``), mapping fields, ``words=`` and fields absent while ``None``."""

from __future__ import annotations

import pytest

from playtest.kernel import ByName, DeclarationError, State, blank, field
from playtest.kernel.values import MAX_TEXT

SEATS = ("North", "East", "South")
BOARDS = ("Once", "Twice", "Thrice")
boards = ByName(BOARDS, noun="board", missing=(), omit=blank)
by_seat = ByName(lambda source: SEATS, missing={}, omit=blank, item_read=boards.read, item_write=boards.write,
                 what="{board: [rounds]}")
plain = ByName(SEATS)


class Table(State):
    hands: tuple[int, ...] = field((0, 0, 0), min=0, max=13, read=plain.read, write=plain.write)
    flags: tuple[tuple[tuple[int, ...], ...], ...] = field(((), (), ()), min=1, max=9, read=by_seat.read,
                                                           write=by_seat.write)


def test_a_tuple_per_seat_is_written_and_read_by_seat_name():
    table = Table(hands=(1, 2, 3), flags=(((), (2,), ()), ((), (), ()), ((1, 3), (), ())))
    data = table.to_json()
    assert data == {"hands": {"North": 1, "East": 2, "South": 3},
                    "flags": {"North": {"Twice": [2]}, "South": {"Once": [1, 3]}}}
    assert Table.from_json(data) == table
    assert list(data["hands"]) == list(SEATS)                 # seat order, whatever order it was read in
    assert Table.from_json({"hands": {"South": 3, "North": 1, "East": 2}}).hands == (1, 2, 3)


@pytest.mark.parametrize("data, message", [
    ({"hands": {"North": 1, "East": 2}}, "Table.hands.South is missing (every seat is named: North, East, South)"),
    ({"hands": {"North": 1, "East": 2, "South": 3, "West": 4}},
     "Table.hands: 'West' is not a seat; the seats are North, East, South"),
    ({"hands": [1, 2, 3]}, "Table.hands must be an object by seat name (North, East, South), not [1, 2, 3]"),
    ({"hands": None}, "Table.hands must be an object by seat name"),
    ({"hands": {"North": 1, "East": True, "South": 3}}, "Table.hands.East must be"),
    ({"hands": {"North": 1, "East": 2, "South": 30}}, "Table.hands.South must be a whole number from 0 to 13, not 30"),
    ({"flags": {"East": {"Twice": [0]}}}, "Table.flags.East.Twice[0] must be a whole number from 1 to 9, not 0"),
    ({"flags": {"East": {"Twice": "x"}}}, "Table.flags.East.Twice must be"),
    ({"flags": {"East": {"Fourth": [1]}}}, "Table.flags.East: 'Fourth' is not a board; the boards are Once, Twice"),
    ({"flags": {"East": 3}}, "Table.flags.East must be an object by board name (Once, Twice, Thrice), not 3"),
    ({"flags": 3}, "Table.flags must be an object by seat name (North, East, South): {board: [rounds]}, not 3"),
    ({"hands": {"x" * 5000: 1}}, "Table.hands: 'xxxxxxxx"),
])
def test_malformed_objects_by_name_are_refused_naming_the_path(data, message):
    with pytest.raises(ValueError) as caught:
        Table.from_json(data)
    assert str(caught.value).startswith(message)
    assert len(str(caught.value)) < 300                       # a stranger's huge key is cut short


def test_a_long_object_by_name_costs_little():
    with pytest.raises(ValueError, match="more than 10,000 entries"):
        Table.from_json({"hands": {str(k): 1 for k in range(20_000)}})


def test_names_by_context_and_index():
    per_game = ByName(lambda game: game["seats"], noun="seat")
    assert per_game.read({"A": 1, "B": 2}, "x", {"seats": ("A", "B")}) == [1, 2]
    assert per_game.index("B", "by", {"seats": ("A", "B")}) == 1
    with pytest.raises(ValueError, match="by: 3 is not a seat; the seats are A, B"):
        per_game.index(3, "by", {"seats": ("A", "B")})
    assert blank(((), (0, 0), None, "")) and not blank((False, 1))


class Position(State):
    tokens: dict[str, tuple[int, int]] = field(words='an object {"seat": [col, row]} for the tokens on the board')
    rules: dict[str, int | bool]
    winners: tuple[int, ...] | None = field(default=None, min=0, max=4, omit_default=True, words="a list of seats")
    reason: str | None = field(default=None, omit_default=True)


def test_a_mapping_field_is_empty_by_default_fresh_each_time_and_refuses_null():
    a, b = Position(), Position.from_json({})
    assert a.tokens == {} and b.tokens == {} and a.tokens is not b.tokens
    assert a.tokens is not Position().tokens
    assert Position.from_json({}).to_json() == {"tokens": {}, "rules": {}}
    with pytest.raises(ValueError) as caught:
        Position.from_json({"tokens": None})
    assert str(caught.value) == ('Position.tokens must be an object {"seat": [col, row]} for the tokens on the '
                                 'board, not null')
    with pytest.raises(ValueError, match=r"^Position.rules must be an object of whole numbers or true/false values, "
                                         r"not null$"):
        Position.from_json({"rules": None})


def test_a_field_absent_while_none_refuses_null_naming_it():
    assert Position(winners=(1,)).to_json()["winners"] == [1]
    assert "winners" not in Position().to_json()
    with pytest.raises(ValueError, match=r"^Position.winners must be a list of seats \(or left out\), not null$"):
        Position.from_json({"winners": None})
    with pytest.raises(ValueError, match=r"^Position.reason must be text \(or left out\), not null$"):
        Position.from_json({"reason": None})
    with pytest.raises(ValueError, match=r"^Position.winners\[0\] must be a whole number from 0 to 4, not 7$"):
        Position.from_json({"winners": [7]})
    with pytest.raises(ValueError, match=r"^Position.winners must be a list of seats, not 'all'$"):
        Position.from_json({"winners": "all"})


def test_mapping_keys_may_be_as_long_as_any_text():
    key = "k" * 1000
    assert Position.from_json({"tokens": {key: [0, 1]}}).tokens == {key: (0, 1)}
    with pytest.raises(ValueError, match="a text of at most 10,000 characters"):
        Position.from_json({"tokens": {"k" * (MAX_TEXT + 1): [0, 1]}})


def test_a_mapping_default_other_than_empty_is_refused_at_declaration():
    with pytest.raises(DeclarationError, match=r"state Bad.tokens: a mapping field's default is empty"):
        class Bad(State):
            tokens: dict[str, int] = field({"a": 1})


def _read_grid(value, where, context):
    if not isinstance(value, list) or any(not isinstance(row, str) or set(row) - set(".#X") for row in value):
        raise ValueError(f"{where} must be text rows of '.', '#' and 'X', not {value!r}")
    text = "".join(value)
    return [sum(1 << i for i, ch in enumerate(text) if ch == "#"), sum(1 << i for i, ch in enumerate(text) if ch == "X")]


def _write_grid(value, state):
    return ["".join("#" if state.walls >> (r * 3 + c) & 1 else "X" if state.stones >> (r * 3 + c) & 1 else "."
                    for c in range(3)) for r in range(2)]


class Grid(State):
    walls: int = field(0, min=0, max=(1 << 700) - 1, json="rows", joint=("stones",), absent=["...", "..."],
                       read=_read_grid, write=_write_grid)
    stones: int = field(0, min=0, max=63, json=False)


def test_one_key_reads_into_several_fields_and_a_left_out_key_reads_as_absent():
    grid = Grid.from_json({"rows": ["#.X", "..#"]})
    assert (grid.walls, grid.stones) == (0b100001, 0b100)
    assert grid.to_json() == {"rows": ["#.X", "..#"]}
    assert Grid.from_json({}) == Grid()                      # absent=["...", "..."]: read through the converter
    with pytest.raises(ValueError, match=r"^Grid.rows must be text rows"):
        Grid.from_json({"rows": "#.X"})
    with pytest.raises(ValueError, match=r"^unknown fields in a Grid position: \['stones'\]"):
        Grid.from_json({"stones": 3})


def test_a_joint_field_is_checked_by_its_own_declaration():
    class Wide(State):
        walls: int = field(0, min=0, json="rows", joint=("stones",), read=lambda v, at, c: v, write=lambda v, s: [])
        stones: int = field(0, min=0, max=3, json=False)
    with pytest.raises(ValueError, match=r"^Wide.rows must be a whole number from 0 to 3, not 9$"):
        Wide.from_json({"rows": [1, 9]})


def test_a_field_declaring_a_larger_max_reads_larger_whole_numbers():
    assert Grid.from_json({"rows": ["...", "..."]}).walls == 0
    assert Grid._specs["walls"].typed(1 << 600, "walls") == 1 << 600
    with pytest.raises(ValueError, match="too large a number"):
        Grid._specs["stones"].typed(1 << 60, "stones")


@pytest.mark.parametrize("body, message", [
    ("walls: int = field(0, json='rows', joint=('stones',), read=lambda v, a, c: v, write=lambda v, s: v)\n"
     "    stones: int = 0", "joint=('stones',): 'stones' must name another field declared json=False"),
    ("walls: int = field(0, json='rows', joint=('nothing',), read=lambda v, a, c: v, write=lambda v, s: v)",
     "'nothing' must name another field"),
    ("walls: int = field(0, json='rows', joint=('stones',))\n    stones: int = field(0, json=False)",
     "joint=... needs read="),
])
def test_joint_declaration_errors_name_the_class_and_field(body, message):
    with pytest.raises(DeclarationError, match=r"state Bad\.walls: .*" + message.replace("(", r"\(").replace(")", r"\)")):
        exec(f"class Bad(State):\n    {body}\n", {"State": State, "field": field})


def test_a_huge_value_given_for_a_name_is_shown_cut_short():
    huge = {str(k): list(range(50)) for k in range(200_000)}
    with pytest.raises(ValueError) as caught:
        plain.index(huge, "by", None)
    assert str(caught.value).startswith('by: {"0": [0, 1, 2') and len(str(caught.value)) < 150
