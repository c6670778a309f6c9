"""The session: the position tree, notes, parameter changes, files (one model for every game)."""

from __future__ import annotations

import json
import os
import random

import pytest

import playtest
from playtest import IllegalAction, Session, SessionFileError


@pytest.fixture
def session():
    return Session(playtest.load("eat_thyself"), seed=1)


def play_n(session, n):
    for _ in range(n):
        session.play(session.legal_actions()[0])


def test_undo_redo_and_branches(session):
    play_n(session, 3)
    third = session.state
    session.undo()
    session.undo()
    assert session.move_number == 1
    session.redo()
    session.redo()
    assert session.state == third
    session.undo()
    other = session.legal_actions()[-1]
    session.play(other)                           # a new branch; the old line stays
    branches = session.branches()
    assert len(branches) == 2
    assert sum(b.current for b in branches) == 1
    old = next(b for b in branches if not b.current)
    session.goto(old.leaf)
    assert session.state == third
    with pytest.raises(IndexError):
        session.goto(999)


def test_replaying_the_same_move_reuses_the_branch(session):
    first = session.legal_actions()[0]
    session.play(first)
    session.undo()
    session.play(first)
    assert session.positions() == 2 and len(session.branches()) == 1


def test_undo_at_the_start_says_so(session):
    with pytest.raises(IndexError, match="start of the game"):
        session.undo()
    with pytest.raises(IndexError, match="nothing to redo"):
        session.redo()


def test_notes_are_tied_to_their_position(session):
    play_n(session, 2)
    note = session.note("  the second move looks forced  ")
    assert note.text == "the second move looks forced" and note.move == 2
    session.undo()
    assert session.notes_here() == []
    session.redo()
    assert [n.text for n in session.notes_here()] == ["the second move looks forced"]
    with pytest.raises(ValueError):
        session.note("   ")
    with pytest.raises(TypeError):
        session.note(3)


def test_live_and_setup_parameter_changes(session):
    play_n(session, 2)
    before = session.state
    session.set_params(max_turns=50)              # live: the position goes on
    assert session.state == before and session.params.max_turns == 50
    assert not session.is_new_game()
    session.set_params(num_players=3)              # setup: a new game
    assert session.is_new_game() and len(session.state.ring) == 24
    assert session.move_number == 2
    session.undo()
    assert session.params.num_players == 2 and session.state == before
    with pytest.raises(ValueError, match="num_players=7"):
        session.set_params(num_players=7)
    with pytest.raises(ValueError, match="no parameter 'budget'"):
        session.set_params(budget=3)
    assert session.params.num_players == 2


def test_illegal_actions_and_malformed_json_change_nothing(session):
    before = (session.state, session.positions())
    for bad in ({"kind": "fly"}, {"kind": "move", "slot": "x", "card": 0, "direction": 1},
                {"kind": "move", "slot": 1}, {"kind": "move", "slot": 1, "card": 0, "direction": 1,
                                              "value": 0, "extra": 1}, "K99+1"):
        with pytest.raises((IllegalAction, ValueError)):
            session.play(bad)
    assert (session.state, session.positions()) == before
    for wrong_type in (42, ["move"], None):
        with pytest.raises(TypeError):
            session.play(wrong_type)
    assert (session.state, session.positions()) == before


def test_notation_strings_play(session):
    action = session.legal_actions()[0]
    session.play(session.game.notation(session.state, action))
    assert session.move_number == 1


def test_notation_of_a_refused_candidate_is_answered_with_its_rule():
    """A move written in notation that the rules refuse here is answered with the rule, not a list."""
    game = playtest.load("tic_tac_toe")
    session = Session(game, seed=1)
    session.play("mark 4")
    before = (session.state, session.positions())
    with pytest.raises(IllegalAction) as refused:
        session.play("mark 4")
    assert "that cell is taken" in str(refused.value) and refused.value.rule == "T2"
    with pytest.raises(IllegalAction) as unknown:
        session.play("castle kingside")
    # (the text is no rule of the game: no rule is cited)
    assert "not the notation of a legal action" in str(unknown.value) and unknown.value.rule is None
    assert "(rule" not in str(unknown.value)
    assert (session.state, session.positions()) == before


def records(path):
    """The session file's lines: a header, then one record per change (an append-only journal)."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_autosave_writes_every_change_before_returning(tmp_path):
    path = tmp_path / "game.playtest.json"
    session = Session(playtest.load("eat_thyself"), path=path)
    header, *rest = records(path)
    assert header["format"] == "playtest-session" and header["version"] == 2 and rest == [{"current": 0}]
    first = session.legal_actions()[0]
    session.play(first)
    last = records(path)[-1]
    assert last == {"node": {"parent": 0, "move": first.to_json(), "by": session.author, "t": last["node"]["t"]}}
    assert isinstance(last["node"]["t"], float) and last["node"]["t"] >= 0
    session.note("saved at once")
    assert records(path)[-1]["note"]["text"] == "saved at once"
    session.undo()
    assert records(path)[-1] == {"current": 0}
    assert len(records(path)) == 5                      # one line per change: nothing rewritten
    assert [p.name for p in tmp_path.iterdir()] == ["game.playtest.json"]   # no temporary files left
    with pytest.raises(FileExistsError, match="Session.load"):
        Session(playtest.load("eat_thyself"), path=path)


def test_a_killed_kernel_loses_nothing(tmp_path):
    """Every change is on disk before the call returns: a new process reads it all back."""
    path = tmp_path / "kill.playtest.json"
    session = Session(playtest.load("eat_thyself"), path=path)
    play_n(session, 3)
    session.note("before the crash")
    session.undo()
    # no save() call: a fresh load must see everything
    reopened = Session.load(path)
    assert reopened.positions() == session.positions() and reopened.node == session.node
    assert reopened.notes[0].text == "before the crash"
    reopened.redo()
    assert reopened.move_number == 3


@pytest.mark.parametrize("content, message", [
    ("not json at all", "not valid JSON"),
    ("[1, 2, 3]", "not a playtest session"),
    ('{"format": "something-else"}', "not a playtest session"),
    ('{"format": "playtest-session", "version": 99, "game": "eat_thyself"}', "version 99"),
    ('{"format": "playtest-session", "version": 1, "game": "go"}', "unknown game 'go'"),
    ('{"format": "playtest-session", "version": 1, "game": "eat_thyself", "params": {"num_players": 9},'
     ' "nodes": []}', "bad parameters"),
    ('{"format": "playtest-session", "version": 1, "game": "eat_thyself", "params": {},'
     ' "nodes": [{"parent": 0, "move": {"kind": "move", "slot": 5, "card": 0, "direction": 1}}]}',
     "node 1 .* cannot be replayed: move one of your own kings"),
    ('{"format": "playtest-session", "version": 1, "game": "eat_thyself", "params": {},'
     ' "nodes": [{"parent": 4, "move": {}}]}', "node 1 has no valid parent"),
    ('{"format": "playtest-session", "version": 1, "game": "eat_thyself", "params": {},'
     ' "nodes": [], "notes": [{"node": 3, "text": "x"}]}', "note 0"),
])
def test_corrupt_or_foreign_files_are_refused_and_left_alone(tmp_path, content, message):
    path = tmp_path / "bad.playtest.json"
    path.write_text(content)
    stamp = os.stat(path).st_mtime_ns
    with pytest.raises(SessionFileError, match=message):
        Session.load(path)
    assert path.read_text() == content and os.stat(path).st_mtime_ns == stamp


def test_a_hand_edited_file_with_an_impossible_start_is_refused(tmp_path):
    path = tmp_path / "edited.playtest.json"
    good = Session(playtest.load("eat_thyself"))
    data = good.to_json()
    data["start"] = {"ring": ["△", "●", "○"]}
    path.write_text(json.dumps(data))
    with pytest.raises(SessionFileError, match="no king"):
        Session.load(path)


def test_start_from_a_hand_written_position():
    game = playtest.load("eat_thyself")
    session = Session(game, start={"ring": ["▲", "△", "●", "○", "○"], "to_move": 0})
    assert session.state.ring[0] == (False, 0)
    with pytest.raises(ValueError):
        Session(game, start={"ring": ["▲", "Z"]})


def test_report_is_markdown_with_notes_escaped(session):
    play_n(session, 2)
    session.note("<img src=x onerror=alert(1)> is not HTML here")
    session.set_params(max_turns=40)
    report = session.report()
    assert report._repr_markdown_() == str(report)
    assert "&lt;img src=x onerror=alert(1)&gt;" in report and "<img" not in report
    assert "max_turns" in report and "**(changed)**" in report
    assert "Not finished" in report
    assert "1. ▲" in report


def test_winner_none_then_decided():
    game = playtest.load("eat_thyself")
    session = Session(game, start={"ring": ["▲", "△", "●", "○", "□"]})
    assert session.winner is None and not session.is_over
    session.play(session.legal_actions()[0])
    assert session.winner == 0
    assert "Won by Triangle" in session.report()
    with pytest.raises(IllegalAction, match="over"):
        session.play(session.legal_actions()[0] if session.legal_actions() else {"kind": "pass"})


def test_repr_is_stable(session):
    assert repr(session) == "<Session eat_thyself: move 0, Triangle ▲ to move, 1 position, 0 notes>"


def test_open_resumes_a_recorded_session_and_never_replaces_it(tmp_path):
    path = tmp_path / "notebook.playtest.json"
    first = Session.open(path, "eat_thyself", seed=1)
    play_n(first, 3)
    first.note("recorded")
    assert Session.open(path, "eat_thyself", seed=1) is first         # Run All in the same kernel
    del first
    import gc
    gc.collect()
    again = Session.open(path, "eat_thyself", seed=1)                 # after a restart: from the file
    assert again.move_number == 3 and again.notes[0].text == "recorded"
    with pytest.raises(SessionFileError, match="holds a eat_thyself session, not source"):
        Session.open(path, "source")


def test_open_refuses_a_file_another_kernel_plays(tmp_path):
    import subprocess
    import sys
    path = tmp_path / "shared.playtest.json"
    session = Session.open(path, "eat_thyself")
    code = (f"import playtest\ntry:\n    playtest.Session.open({str(path)!r}, 'eat_thyself')\n"
            "except playtest.SessionFileError as err:\n    print(err)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120).stdout
    assert "open in another kernel" in out
    assert session.positions() == 1


def test_save_never_overwrites_another_file_unasked(tmp_path):
    other = tmp_path / "other.playtest.json"
    Session(playtest.load("source"), path=other)
    content = other.read_bytes()
    session = Session(playtest.load("eat_thyself"))
    with pytest.raises(FileExistsError, match="replace=True"):
        session.save(other)
    assert other.read_bytes() == content and session.path is None
    session.save(other, replace=True)
    assert (tmp_path / "other.playtest.json.bak").read_bytes() == content
    assert Session.load(other).game.name == "eat_thyself"


def test_a_loaded_file_parses_each_distinct_action_once_and_never_mixes_types(tmp_path):
    """Loading reuses the action of an identical JSON form, keyed with each value's type:
    ``"card": false`` after ``"card": 0`` is still refused by name (a bool is not a number)."""
    from playtest.session import _ActionCache

    game = playtest.load("eat_thyself")
    data = game.legal_actions(game.initial_state())[0].to_json()
    parse = _ActionCache()
    assert parse(game, data) is parse(game, dict(data))
    with pytest.raises(ValueError, match="card must be a whole number, not bool"):
        parse(game, {**data, "card": bool(data["card"])})
    # and in a file: the second, bool-typed copy of the first move is refused by its node
    session = playtest.Session(game, seed=1, path=tmp_path / "a.playtest.json")
    session.play(game.legal_actions(session.state)[0])
    session.undo()
    text = (tmp_path / "a.playtest.json").read_text()
    line = json.dumps({"node": {"parent": 0, "move": {**data, "card": bool(data["card"])}}})
    (tmp_path / "b.playtest.json").write_text(text + line + "\n")
    with pytest.raises(playtest.SessionFileError, match="node 2 .*card must be a whole number, not bool"):
        playtest.Session.load(tmp_path / "b.playtest.json")


def test_a_save_writes_what_a_fresh_encoding_would(tmp_path):
    """Node lines are encoded once and reused by every save: the compact copy equals a fresh one."""
    from playtest.journal import encode_journal, encode_record

    session = playtest.Session(playtest.load("eat_thyself"), seed=3, path=tmp_path / "s.playtest.json")
    rng = random.Random(3)
    for _ in range(30):
        session.play(session.game.random_action(session.state, rng))
        if rng.random() < 0.2:
            session.undo()
    session.note("a note")
    session.save()
    header, records = session._records()
    fresh = [encode_record(session._node_record(n)) for n in session._nodes[1:]]
    assert records[:len(fresh)] == fresh
    assert (tmp_path / "s.playtest.json").read_text(encoding="utf-8") == encode_journal(header, records)
    assert playtest.Session.load(tmp_path / "s.playtest.json").history() == session.history()


def test_branches_match_a_walk_from_every_leaf():
    """``branches()`` places each node once (linear in the tree); it says what walking up from
    every leaf to the current line says, on random trees with undos and jumps."""
    from playtest.session import Branch

    def walked(session):
        current, result = set(session.line()), []
        for node in session._nodes:
            if node.children:
                continue
            fork = node
            while fork.parent is not None and fork.id not in current:
                fork = fork.parent
            first = node
            while first.parent is not None and first.parent is not fork:
                first = first.parent
            result.append(Branch(leaf=node.id, fork=fork.id, fork_move=fork.depth, moves=node.depth,
                                 first=first.notation_for(None), current=node.id in current))
        return result

    for seed in range(8):
        rng = random.Random(seed)
        session = Session(playtest.load("eat_thyself"), seed=seed)
        for _ in range(120):
            roll = rng.random()
            if roll < 0.15 and session.can_undo:
                session.undo()
            elif roll < 0.2:
                session.goto(rng.randrange(session.positions()))
            elif not session.is_over:
                session.play(session.game.random_action(session.state, rng))
            assert session.branches() == walked(session)


def test_after_the_game_a_malformed_message_is_named_malformed_and_a_move_is_told_the_game_is_over():
    """A malformed message is named as such whatever the position; a well-formed action after the
    end is told the game is over; neither changes the session."""
    from playtest import MalformedAction

    session = Session(playtest.load("eat_thyself"), seed=2)
    rng = random.Random(2)
    moves = []
    while session.to_move is not None:
        if session.to_move == playtest.CHANCE:
            session.roll()
        else:
            action = rng.choice(session.legal_actions())
            moves.append(action)
            session.play(action)
    before = session.to_json()
    with pytest.raises(MalformedAction, match="kind"):
        session.play({"kind": "no such action"})
    with pytest.raises(MalformedAction):
        session.play(42)
    with pytest.raises(IllegalAction, match="the game is over"):
        session.play(moves[-1])
    with pytest.raises(IllegalAction, match="the game is over"):
        session.play("some notation")
    assert session.to_json() == before
