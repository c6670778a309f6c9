"""Boards that explain themselves (issue 8): coordinates in the notation's words, the last move marked
(a bot's too), notes that wrap whole, seat menus with only the bots that can play the seat, unique
branch labels, and rules a user can look up: every rule the games cite resolves to a numbered rule of
the game's own rules page, and the table shows the rule's text with the message."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import playtest
from playtest import Session, Table
from playtest.bots import BOTS, RandomBot
from playtest.rulebook import cited_rules, rule_ids, rule_text, rules_page
from playtest.scene import cell_id, edge_id, point_id, slot_id

GAMES = ["eat_thyself", "source", "then_there_was_one"]
ROOT = Path(playtest.__file__).parent
SOURCES = {"eat_thyself": sorted((ROOT / "games" / "eat_thyself").glob("*.py")),
           "source": sorted((ROOT / "games" / "source").glob("*.py")),
           "then_there_was_one": sorted((ROOT / "games" / "then_there_was_one").glob("*.py"))}
RULE_ID = r"[A-Z](?:\.\d+(?: §\d+(?:\.\d+)*)?|\d+)"


def play(session: Session, n: int) -> None:
    for _ in range(n):
        session.play(session.legal_actions()[0])


def item_ids(scene: dict) -> set[str]:
    return {item["id"] for item in scene["items"] if "id" in item}


# --------------------------------------------------------------------------- coordinates

def test_then_there_was_one_grid_is_labelled_as_the_log_writes_tiles():
    session = Session(playtest.load("then_there_was_one"), seed=7)
    play(session, 3)                                   # the three tokens take their start circles
    board = session.game.view(session.state)["boards"][0]
    labels = board["labels"]
    assert labels["cols"] == list("abcdefghij") and labels["rows"] == [str(r) for r in range(1, 15)]
    # "Green ◆ starts on c1": the tile the log names is the tile its column and row labels name
    last = session.history()[-1]["notation"]
    tile = re.search(r"on ([a-j])(\d+)$", last)
    c, r = session.state.tokens[2] % 10, session.state.tokens[2] // 10
    assert (labels["cols"][c], labels["rows"][r]) == tile.groups(), last


def test_eat_thyself_ring_numbers_its_slots_as_the_log_does():
    session = Session(playtest.load("eat_thyself"), seed=1)
    ring = session.game.view(session.state)["boards"][0]
    assert ring["labels"]["slots"] == [str(i) for i in range(16)]
    move = session.legal_actions()[0]
    notation = session.game.notation(session.state, move)          # ▲1↻1→2 eats ○
    start = re.match(r"▲(\d+)", notation).group(1)
    assert ring["labels"]["slots"][move.slot] == start


def test_source_points_are_labelled_as_the_log_writes_points():
    session = Session(playtest.load("source"), seed=1)
    play(session, 1)                                                # red: place b1
    board = session.game.view(session.state)["boards"][0]
    labels = board["labels"]
    where = session.history()[-1]["notation"].split()[-1]
    (i,) = session.state.last
    n = session.game.board.cols
    assert labels["cols"][i % n] + labels["rows"][i // n] == where == session.game.board.labels[i]
    # the old text items are gone: the labels are the board's, drawn by the renderer
    assert not [it for it in session.game.view(session.state)["items"] if it["kind"] == "text"]


# --------------------------------------------------------------------------- the last move

@pytest.mark.parametrize("name", GAMES)
def test_the_last_move_is_marked_on_items_of_the_scene(name):
    session = Session(playtest.load(name), seed=5)
    assert session.game.view(session.state)["last"] == []           # nothing has moved yet
    for _ in range(12):
        play(session, 1)
        scene = session.game.view(session.state)
        assert set(scene["last"]) <= item_ids(scene), scene["last"]
    assert scene["last"]


@pytest.mark.parametrize("name", GAMES)
def test_a_bots_reply_is_marked(name):
    """After a bot's reply the board shows what the bot did, not what the person did before it."""
    session = Session(playtest.load(name), seed=11)
    game = session.game
    person = session.to_move
    assert person not in (None, playtest.CHANCE)
    bot_seat = (person + 1) % len(game.seats())
    table = Table(session, bots={bot_seat: RandomBot(seed=2)})
    for _ in range(40):           # play the person's seat until the bot has replied
        if session.is_over:
            pytest.skip("the game ended before the bot moved")
        before = session.positions()
        table.board.receive({"type": "action", "action": session.legal_actions()[0].to_json()})
        assert table.board.error == ""
        bot_moves = [e for e in session.history()[before:] if e["kind"] == "move"][1:]
        if bot_moves:
            break
    scene = table.board.scene
    assert scene["last"] and set(scene["last"]) <= item_ids(scene)
    # the mark is the bot's: it is what the state after the bot's last action says it touched
    assert scene["last"] == game.view(session.state)["last"]


def test_eat_thyself_marks_the_slot_the_king_landed_on():
    game = playtest.load("eat_thyself")
    state = game.initial_state()
    move = game.legal_actions(state)[0]                             # ▲1↻1→2 eats ○ (a bare slot goes)
    after = game.apply(state, move)
    (slot,) = after.last
    assert after.ring[slot][1] == 0                                 # ▲ sits there
    assert game.view(after)["last"] == [slot_id(slot)]
    assert game.state_from_json(after.to_json()).last == after.last
    assert after == after.replace(last=())                         # no part of the position


def test_then_there_was_one_marks_a_token_path_and_a_wall_turn():
    game = playtest.load("then_there_was_one")
    state = game.state_from_json({"tokens": {"1": [4, 0], "2": [6, 0], "3": [8, 0]}, "round": 2,
                                  "first_wall_turn": False})
    wall = game.legal_actions(state)[0]                             # a wall somewhere
    built = game.apply(state, wall)
    a, b = wall.a, wall.b
    assert game.view(built)["last"] == [edge_id(a, b)]
    ended = game.apply(built, playtest.EndTurn())                   # the turn's walls stay marked
    assert game.view(ended)["last"] == [edge_id(a, b)]
    step = game.legal_actions(ended)[0]
    stepped = game.apply(ended, step)
    assert game.view(stepped)["last"] == [cell_id((4, 0)), cell_id(step.to)]   # the path so far
    assert game.state_from_json(stepped.to_json()).last_tiles == stepped.last_tiles


def test_source_marks_the_points_of_the_colours_turn():
    session = Session(playtest.load("source"), seed=1)
    play(session, 2)                                                # red's two placements end its turn
    scene = session.game.view(session.state)
    assert len(scene["last"]) == 2 and all(i.startswith("pt:") for i in scene["last"])
    play(session, 1)                                                # blue's first action starts afresh
    assert len(session.game.view(session.state)["last"]) == 1


# --------------------------------------------------------------------------- notes, layout, seats, branches

def test_a_long_note_is_kept_whole_with_its_line_breaks():
    session = Session(playtest.load("eat_thyself"))
    table = Table(session)
    text = ("The king on slot 4 keeps eating its own pawns while Circle waits; " * 4)[:240] + "\nsecond line"
    assert len(text) > 250 - 12
    table.note_box.value = text
    table.note_button.click()
    panel = table.board.scene["panels"][-1]
    assert panel["title"].startswith("Notes at move")
    assert text in panel["rows"][0]                                # whole, the line break kept


def test_the_side_column_never_moves_below_the_board():
    table = Table(Session(playtest.load("then_there_was_one"), seed=1))
    top = table.children[0]
    board_column, side = top.children
    assert top.layout.flex_flow == "row nowrap"
    assert side.layout.width == side.layout.min_width == "360px"
    assert board_column.layout.min_width == "0"
    assert table.board in board_column.children
    assert table.param_panel in side.children                       # the parameters beside the board
    assert table.param_panel.get_title(0) == "Rule parameters" and table.param_panel.selected_index is None


def test_controls_that_cannot_change_anything_are_disabled_with_the_reason():
    table = Table(Session(playtest.load("eat_thyself")))
    fixed = table.param_widgets["own_pawn_effect"]                  # one choice: "remove"
    assert fixed.disabled and "Only \"remove\" is offered" in fixed.tooltip
    live = table.param_widgets["max_turns"]
    assert not live.disabled and live.tooltip == "turns before the game is a draw"
    # a long name is a line of its own, never cut by a fixed label width
    row = next(c for c in table.param_panel.children[0].children
               if "pt-param-opponent_king_extra_pieces" in c._dom_classes)
    assert "opponent_king_extra_pieces" in row.children[0].value and row.children[1] is table.param_widgets[
        "opponent_king_extra_pieces"]


class _WallOnly(RandomBot):
    def plays(self, game, seat):
        return seat == 0


class _TokensOnly(RandomBot):
    def plays(self, game, seat):
        return seat >= 1


class _Broken(RandomBot):
    def plays(self, game, seat):
        raise RuntimeError("cannot tell")


@pytest.fixture
def seat_bots():
    own = BOTS.setdefault("then_there_was_one", {})
    added = {"test_wall_only": _WallOnly, "test_tokens_only": _TokensOnly, "test_broken": _Broken}
    own.update(added)
    yield added
    for name in added:
        own.pop(name, None)


def test_each_seat_menu_offers_only_bots_that_can_play_it(seat_bots):
    table = Table(Session(playtest.load("then_there_was_one"), seed=2))
    options = {seat: list(picker.options) for seat, picker in table.seat_pickers.items()}
    assert "test_wall_only" in options[0] and "test_tokens_only" not in options[0]
    for seat in (1, 2, 3):
        assert "test_tokens_only" in options[seat] and "test_wall_only" not in options[seat]
    assert all("test_broken" not in names for names in options.values())
    assert all(names[0] == "person" and "random" in names for names in options.values())


@pytest.mark.parametrize("name", GAMES)
def test_choosing_any_offered_bot_never_stops_play_with_a_python_message(name):
    session = Session(playtest.load(name), seed=4)
    table = Table(session)
    for seat, picker in table.seat_pickers.items():
        for option in picker.options:
            if option == "person":
                continue
            picker.value = option
            error = table.board.error
            assert not re.search(r"Traceback|object at 0x|<class |Error\(", error), (seat, option, error)
            picker.value = "person"


def test_branch_labels_are_unique():
    session = Session(playtest.load("eat_thyself"), seed=3)
    play(session, 4)                                     # the first line: 4 moves
    main_leaf = session.node
    session.goto(session.line()[1])                      # back to move 1
    alternatives = session.legal_actions()
    session.play(alternatives[-1])                       # a second line from move 1 ...
    play(session, 2)
    session.undo()
    other = [a for a in session.legal_actions() if a != session.game.legal_actions(session.state)[0]]
    session.play(other[-1])                              # ... and a third, same fork, same first move, same length
    session.goto(main_leaf)
    table = Table(session)
    labels = [label for label, _ in table.branches.options]
    assert len(labels) == 3 == len(set(labels)), labels
    plain = [str(b) for b in session.branches()]
    assert len(set(plain)) == 2                          # without the fix, two would read the same


# --------------------------------------------------------------------------- rules a user can look up

def cited_in_code(name: str) -> set[str]:
    """Every rule number the game's code cites: ``rule="..."`` arguments, ``(rule X)`` in messages,
    rule-number constants, and the parameters' ``rule`` references."""
    found: set[str] = set()
    for path in SOURCES[name]:
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        for node in ast.walk(tree):
            if isinstance(node, ast.keyword) and node.arg == "rule" and isinstance(node.value, ast.Constant) \
                    and isinstance(node.value.value, str) and node.value.value:
                found.add(node.value.value)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                    re.fullmatch(RULE_ID, node.value):
                found.add(node.value)                             # R_PLACE = "C.1 §8", ...
        found.update(re.findall(rf"\brule ({RULE_ID})", text))
    game = playtest.load(name)
    for spec in game.params.specs():
        found.update(r.strip() for r in spec.rule.split(",") if r.strip())
    return found


@pytest.mark.parametrize("name", GAMES)
def test_every_cited_rule_resolves_to_a_numbered_rule_of_the_page(name):
    cited = cited_in_code(name)
    assert len(cited) >= 15, cited                                   # the scan found them
    ids = set(rule_ids(name))
    missing = sorted(cited - ids)
    assert not missing, f"{name} cites rules its page does not number: {missing}"
    for rule_id in cited:
        text = playtest.rule_text(name, rule_id)
        assert text.startswith(rule_id) and len(text.splitlines()) >= 2, text


@pytest.mark.parametrize("name", GAMES)
def test_rules_pages_quote_the_seed_and_ship_with_the_package(name):
    page = playtest.rules_page(name)
    assert page.count('"') >= 20                                 # the seed text, quoted
    assert (ROOT / "rules_pages" / f"{name}.md").is_file()
    pyproject = (ROOT.parent / "pyproject.toml").read_text()
    assert "rules_pages/*.md" in pyproject
    # every numbered heading is unique
    numbers = re.findall(rf"^#+ ({RULE_ID})\b", page, flags=re.M)
    assert len(numbers) == len(set(numbers))


def test_rule_lookup_by_game_object_and_an_unknown_number():
    game = playtest.load("source")
    assert rule_text(game, "C.1 §8").startswith("C.1 §8 Placing a token")
    assert "§14.1" in rules_page("then_there_was_one")
    with pytest.raises(KeyError, match="no rule C99"):
        rule_text("source", "C99")
    assert cited_rules("x (rule A.1 §14.1) and (2 AP, rule C.1 §13)") == ["A.1 §14.1", "C.1 §13"]


def test_the_table_shows_the_cited_rules_text_with_the_message():
    game = playtest.load("then_there_was_one")
    session = Session(game, start={"tokens": {"1": [2, 3], "2": [5, 0], "3": [8, 0]}, "round": 2,
                                   "first_wall_turn": False})
    table = Table(session)
    # the edge of Red's tile: the board says why (the edge's own reason), and the rules refuse it
    edge = edge_id((2, 3), (2, 4))
    scene = table.board.scene
    assert edge in item_ids(scene) and "rule A.1 §14.3" in scene["reasons"][edge]
    table.board.receive({"type": "action", "action": {"kind": "build", "a": [2, 3], "b": [2, 4]}})
    message, _, explanation = table.board.error.partition("\n\n")
    assert message == "a wall may not lie on an edge of a token's tile (c4|c5) (rule A.1 §14.3)"
    assert explanation.startswith("A.1 §14.3 Clearance from tokens\n")
    assert '"Walls cannot be built in any way that directly connects to a space occupied by a token' \
        in explanation
    assert session.positions() == 1                                 # nothing was played


def test_a_message_citing_no_rule_is_shown_alone():
    table = Table(Session(playtest.load("eat_thyself")))
    table.note_box.value = "   "
    table.note_button.click()
    assert "\n\n" not in table.board.error and "needs some text" in table.board.error


def test_point_ids_of_marks_exist_for_an_empty_point_after_a_capture():
    """A captured token's point is empty afterwards: the mark still finds the point's own item."""
    game = playtest.load("source")
    state = game.state_from_json({"board": ["rb......b", "r........", ".........", ".........",
                                            ".........", ".........", ".........", ".........",
                                            "g.......y"], "to_move": "red"})
    capture = next(a for a in game.legal_actions(state) if a.kind == "capture")
    after = game.apply(state, capture)
    scene = game.view(after)
    assert scene["last"] == [point_id((capture.col, capture.row))]
    assert set(scene["last"]) <= item_ids(scene)


@pytest.mark.parametrize("name", GAMES)
def test_every_rule_a_board_reason_cites_comes_with_its_text(name):
    """A click on something that cannot be used shows its reason; the scene carries the text of the
    rules those reasons cite, so the board can show it too (below itself)."""
    session = Session(playtest.load(name), seed=6)
    seen = 0
    for _ in range(15):
        scene = session.game.view(session.state)
        for reason in [scene["hint"], *scene["reasons"].values()]:
            for rule_id in cited_rules(reason):
                assert scene["rules"][rule_id] == rule_text(name, rule_id)
                seen += 1
        if session.is_over:
            break
        play(session, 1)
    assert seen > 0
