"""Hostile input (issue 9): files from strangers, garbage from the browser, nothing the rules forbid.

Every public entry point answers bad input with its one documented error and changes nothing:

* ``Session.play``: :class:`playtest.IllegalAction` (``MalformedAction`` for input that is not an
  action of the game at all), naming the rule or the field;
* ``Session.load``: :class:`playtest.SessionFileError`, with the file untouched;
* the board's messages: a visible, short error on the board;
* parameters: ``ValueError`` naming the parameter.

The fuzzers here run in the test command (well under a minute); ``benchmarks/fuzz.py`` runs
them longer.
"""

from __future__ import annotations

import dataclasses
import errno
import json
import os
import random
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import playtest
from playtest import CHANCE, IllegalAction, MalformedAction, Session, SessionFileError, SessionSaveError
from playtest.bots import RandomBot

GAMES = playtest.games() + ["secret_bid"]
# benchmarks/fuzz.py runs the same fuzzers much longer (PLAYTEST_FUZZ_EXAMPLES)
FAST = settings(max_examples=int(os.environ.get("PLAYTEST_FUZZ_EXAMPLES", "30")), deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                       HealthCheck.function_scoped_fixture])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=True) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=16)


def played(name: str, seed: int, steps: int = 25, path=None) -> Session:
    ticks = iter(range(1_700_000_000, 1_800_000_000))       # a steady clock: the same file every run
    session = Session(playtest.load(name), seed=seed, path=path, clock=lambda: float(next(ticks)))
    rng = random.Random(seed)
    for _ in range(steps):
        if session.is_over:
            break
        session.play(session.game.random_action(session.state, rng))
    return session


def snapshot(session: Session):
    return (session.state, session.node, session.positions(), len(session.notes))


# ------------------------------------------------------------------ actions

@pytest.mark.parametrize("name", GAMES)
@FAST
@given(seed=st.integers(0, 1000), garbage=st.lists(json_values, min_size=1, max_size=6),
       fields=st.lists(st.tuples(st.sampled_from(["kind", "seat", "col", "row", "at", "to", "slot", "card",
                                                  "direction", "amount", "on", "a", "b", "cells", "piece",
                                                  "gap", "value", "x"]), json_values), max_size=5))
def test_garbage_actions_are_refused_and_change_nothing(name, seed, garbage, fields):
    session = played(name, seed)
    if session.is_over:
        return
    legal = {json.dumps(a.to_json(), sort_keys=True) for a in session.legal_actions()}
    kinds = [t.kind for t in session.game.action_types]
    candidates = list(garbage) + [{"kind": kinds[seed % len(kinds)], **dict(fields)}, dict(fields),
                                  json.dumps(garbage)[:50]]
    for candidate in candidates:
        before = snapshot(session)
        try:
            session.play(candidate)
        except IllegalAction as err:
            assert snapshot(session) == before
            assert len(str(err)) < 800, "an error never echoes a huge input back"
        else:
            assert json.dumps(session.game.action_from_json(candidate).to_json(), sort_keys=True) in legal
            return


@pytest.mark.parametrize("name", GAMES)
def test_a_bool_is_never_a_number_in_an_action(name):
    session = played(name, 3, steps=5)
    if session.is_over or session.to_move == CHANCE:
        return
    for action in session.legal_actions()[:20]:
        values = {f.name: getattr(action, f.name) for f in dataclasses.fields(action)}
        for field, value in values.items():
            if type(value) is int and value in (0, 1):
                forged = type(action)(**{**values, field: bool(value)})
                before = snapshot(session)
                with pytest.raises(MalformedAction, match=field):
                    session.play(forged)
                assert snapshot(session) == before


def test_another_games_action_is_refused():
    source = played("source", 1, steps=2)
    eat = playtest.load("eat_thyself")
    move = eat.legal_actions(eat.initial_state())[0]
    with pytest.raises(MalformedAction, match="not an action of source"):
        source.play(move)


# ------------------------------------------------------------------ session files

def valid_file(tmp_path, name="eat_thyself"):
    path = tmp_path / f"{name}.playtest.json"
    session = played(name, 5, steps=12, path=path)
    session.note("a <b>note</b> [x](javascript:alert(1))")
    if session.positions() > 3:
        session.goto(2)
        session.play(session.game.random_action(session.state, random.Random(1)))
    return path


def load_or_refuse(path):
    """Opening a file gives a session or SessionFileError; nothing else escapes, and a refused
    file is left as it was."""
    before = path.read_bytes()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            session = Session.load(path)
    except SessionFileError as err:
        assert path.read_bytes() == before
        assert len(str(err)) < 1000
        return None
    session.report()                   # a loaded session works everywhere
    session.history()
    session.branches()
    return session


@FAST
@given(data=st.data())
def test_mutated_session_files_load_or_are_refused(tmp_path_factory, data):
    path = valid_file(tmp_path_factory.mktemp("f"), data.draw(st.sampled_from(GAMES)))
    raw = bytearray(path.read_bytes())
    how = data.draw(st.sampled_from(["truncate", "flip", "retype", "insert"]))
    if how == "truncate":
        raw = raw[:data.draw(st.integers(0, len(raw)))]
    elif how == "flip":
        for _ in range(data.draw(st.integers(1, 5))):
            i = data.draw(st.integers(0, len(raw) - 1))
            raw[i] = data.draw(st.integers(0, 255))
    else:
        lines = bytes(raw).decode().splitlines()
        i = data.draw(st.integers(0, len(lines) - 1))
        record = json.loads(lines[i])
        value = data.draw(json_values)
        target = record
        while isinstance(target, dict) and target:
            key = data.draw(st.sampled_from(sorted(target)))
            if not isinstance(target[key], dict) or data.draw(st.booleans()):
                target[key] = value
                break
            target = target[key]
        if how == "insert":
            lines.insert(i, json.dumps(value))
        else:
            lines[i] = json.dumps(record)
        raw = bytearray(("\n".join(lines) + "\n").encode())
    path.write_bytes(bytes(raw))
    load_or_refuse(path)


HEADER = ('{"format": "playtest-session", "version": 2, "game": "eat_thyself", "params": {}, "seed": 1, '
          '"start": null, "created": ""}\n')


@pytest.mark.parametrize("content, message", [
    (HEADER.replace('"seed": 1', '"seed": [1]'), "'seed' must be a whole number"),
    (HEADER.replace('"game": "eat_thyself"', '"game": ["x"]'), "'game' must be a game's name"),
    (HEADER + '{"current": true}\n', "'current' must be a position id"),
    (HEADER + '{"current": 7}\n', "'current' must be a position id"),
    (HEADER + "[" * 5000 + "]" * 5000 + "\n", "nested"),
    (HEADER + '{"note": {"node": 0, "text": ' + '"' + "x" * 30_000 + '"}}\n', "note 0"),
    (HEADER.replace('"seed": 1', '"seed": ' + "9" * 5000), "not valid JSON"),
    (HEADER.replace('"params": {}', '"params": {"max_turns": 1e400}'), "not valid JSON|bad parameters"),
    (HEADER.replace('"params": {}', '"params": {"card_pair": ' + "[" * 50 + "]" * 50 + "}"), "nested|bad param"),
    (HEADER.replace('"params": {}', '"params": 5'), "'params' must be an object"),
    (HEADER + '{"node": {"parent": 0, "move": {"kind": "move", "slot": true, "card": 0, "direction": 1}}}\n',
     "slot must be a whole number"),
    (HEADER + '{"node": {"parent": 0, "move": {"kind": "move", "slot": 1, "card": 0, "direction": 1},'
     ' "evil": 1}}\n', "exactly one of"),
    (HEADER + '{"mystery": 1}\n', "unknown record"),
    (HEADER.replace('"version": 2', '"version": 3'), "version 3"),
    (HEADER.replace('"format": "playtest-session"', '"format": "playtest-seat-export"'), "export for one seat"),
    ('{"format": "playtest-session", "version": 1, "game": "eat_thyself", "nodes": [], "current": true}',
     "'current' must be a position id"),
    ("\ufeff\x00\x01", "not|header"),
    ("", "empty"),
])
def test_corrupt_files_are_refused_with_a_clear_message(tmp_path, content, message):
    path = tmp_path / "bad.playtest.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(SessionFileError, match=message):
        Session.load(path)
    assert path.read_text(encoding="utf-8") == content


def test_a_file_saved_with_a_utf8_bom_loads_and_keeps_growing(tmp_path):
    """A tester who opens a session file in an editor that saves UTF-8 with a byte-order mark (Windows
    Notepad did) sends back a file that starts with one: it is read as the session, and appended to."""
    path = tmp_path / "bom.playtest.json"
    session = played("eat_thyself", 2, steps=3, path=path)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    reopened = Session.load(path)
    assert reopened.positions() == session.positions() and reopened.state == session.state
    reopened.play(reopened.legal_actions()[0])
    assert Session.load(path).positions() == session.positions() + 1


def test_a_file_over_the_size_limit_is_refused_before_reading(tmp_path, monkeypatch):
    import playtest.journal as journal
    monkeypatch.setattr(journal, "LIMITS", journal.Limits(max_bytes=1000))
    path = tmp_path / "big.playtest.json"
    path.write_text(HEADER + " " * 2000)
    with pytest.raises(SessionFileError, match="more than a session file may hold"):
        journal.read_records(path, journal.LIMITS)


def test_many_sibling_branches_load(tmp_path):
    """Adding a child is O(1) (the tree keeps an index), so siblings load in linear time."""
    session = Session(playtest.load("source"), path=tmp_path / "wide.playtest.json")
    for turns in range(1, 301):
        session.set_params(pass_limit=turns % 50 + 1) if turns % 50 + 1 != 4 else None
        if session.can_undo:
            session.undo()
    reopened = Session.load(tmp_path / "wide.playtest.json")
    assert reopened.positions() == session.positions() == 50 and len(reopened.branches()) == 49


def test_a_torn_last_line_is_dropped_and_said_so(tmp_path):
    path = tmp_path / "torn.playtest.json"
    session = played("eat_thyself", 2, steps=4, path=path)
    with open(path, "ab") as f:
        f.write(b'{"node": {"parent": 4, "move": {"kind": "mo')      # a kill in the middle of a write
    with pytest.warns(playtest.session.SessionFileWarning, match="cut off by a crash"):
        reopened = Session.load(path)
    assert reopened.positions() == session.positions() and reopened.state == session.state
    reopened.play(reopened.legal_actions()[0])                     # appends after the repaired end
    assert Session.load(path).positions() == session.positions() + 1


def test_a_version_1_file_is_read_and_continues_as_a_journal(tmp_path):
    path = tmp_path / "old.playtest.json"
    session = played("source", 4, steps=6)
    path.write_text(json.dumps(session.to_json()))
    reopened = Session.load(path)
    assert reopened.state == session.state
    reopened.note("after the upgrade")
    assert Session.load(path).notes[-1].text == "after the upgrade"
    assert path.read_text().splitlines()[0].startswith('{"format":"playtest-session","version":2')


def test_stale_temporary_files_are_cleaned_up(tmp_path):
    path = tmp_path / "s.playtest.json"
    played("eat_thyself", 1, steps=2, path=path)
    (tmp_path / ".s.playtest.json.abc123.tmp").write_text("half a save")
    Session.load(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.playtest.json"]


# ------------------------------------------------------------------ a change is on disk, or not made

@pytest.fixture
def full_disk(monkeypatch):
    """os.write fails as on a full disk, for the session file's appends only."""
    import playtest.journal as journal
    real = os.write

    def write(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    class Switch:
        def on(self):
            monkeypatch.setattr(journal.os, "write", write)

        def off(self):
            monkeypatch.setattr(journal.os, "write", real)
    return Switch()


def test_a_failed_save_rolls_the_change_back(tmp_path, full_disk):
    path = tmp_path / "s.playtest.json"
    session = played("eat_thyself", 7, steps=5, path=path)
    session.undo()
    before = snapshot(session)
    full_disk.on()
    for change in (lambda: session.play(session.legal_actions()[-1]), session.undo, session.redo,
                   lambda: session.note("lost?"), lambda: session.set_params(max_turns=50)):
        with pytest.raises(SessionSaveError, match="the change was not made"):
            change()
        assert snapshot(session) == before
    full_disk.off()
    assert snapshot(Session.load(path)) == before                   # memory and file agree
    session.play(session.legal_actions()[-1])                       # and saving works again
    assert Session.load(path).positions() == before[2] + 1


def test_a_write_cut_short_by_a_full_disk_leaves_no_half_line(tmp_path, monkeypatch):
    import playtest.journal as journal
    path = tmp_path / "s.playtest.json"
    session = played("eat_thyself", 7, steps=3, path=path)
    real = os.write
    calls = []

    def half_then_full(fd, data):
        calls.append(len(data))
        if len(calls) == 1:
            return real(fd, data[: len(data) // 2])        # half of it lands...
        raise OSError(errno.ENOSPC, "No space left on device")   # ...then the disk is full

    monkeypatch.setattr(journal.os, "write", half_then_full)
    with pytest.raises(SessionSaveError):
        session.note("this one is lost, and says so")
    monkeypatch.setattr(journal.os, "write", real)
    session.note("this one is kept")
    reopened = Session.load(path)
    assert [n.text for n in reopened.notes] == ["this one is kept"]


def test_the_table_shows_a_failed_save_and_redraws(tmp_path, full_disk):
    session = played("eat_thyself", 7, steps=2, path=tmp_path / "s.playtest.json")
    table = playtest.Table(session)
    version = table.board.scene["version"]
    option = next(iter(next(iter(table.board.scene["selects"].values())).values()))[0]
    full_disk.on()
    table.board.receive({"type": "action", "action": option["action"]})
    assert "No space left" in table.board.error and session.move_number == 2
    assert table.board.scene["version"] > version                   # redrawn as the session is


def test_a_refused_parameter_change_leaves_no_trace(tmp_path):
    path = tmp_path / "t.playtest.json"
    session = Session(playtest.load("then_there_was_one"), seed=1, path=path)
    before = snapshot(session)
    with pytest.raises(ValueError, match="A7"):
        session.set_params(board_width=4, initial_obstacles=40)    # no scatter can be set up
    assert snapshot(session) == before and Session.load(path).positions() == before[2]


# ------------------------------------------------------------------ the browser's messages

@pytest.mark.parametrize("name", GAMES)
@FAST
@given(messages=st.lists(json_values | st.fixed_dictionaries({"type": st.sampled_from(["action", "command", "preview"]),
                                                                "action": json_values, "name": json_values,
                                                                "seat": json_values,
                                                                "n": json_values | st.integers(0, 9),
                                                                "version": json_values,
                                                                "actions": json_values | st.lists(json_values)}),
                         min_size=1, max_size=5))
def test_garbage_from_the_browser_changes_nothing_and_is_shown(name, messages):
    if name not in _TABLES:                          # one table per game: building one takes a while
        _TABLES[name] = playtest.Table(played(name, 1, steps=3))
    table = _TABLES[name]
    session = table.session
    answers: list = []
    table.board.send = lambda content, buffers=None: answers.append(content)
    for message in messages:
        before, answered = snapshot(session), len(answers)
        table.board.receive(message)
        if isinstance(message, dict) and message.get("type") == "preview":
            assert snapshot(session) == before      # asking ahead never plays anything
            if len(answers) > answered:             # a well-formed request: answered, often with null
                assert answers[-1]["n"] == message["n"] and set(answers[-1]) == {"type", "n", "scenes"}
                assert 1 <= len(answers[-1]["scenes"]) <= len(message["actions"])   # (a time budget)
                continue
        if snapshot(session) == before and not (isinstance(message, dict) and message.get("type") == "command"):
            assert table.board.error, f"{message!r} was refused without a word"
        assert len(table.board.error) <= 700


_TABLES: dict[str, "playtest.Table"] = {}


def test_deeply_nested_or_huge_messages_are_refused_at_once():
    session = played("source", 1, steps=1)
    table = playtest.Table(session)
    deep: list = []
    for _ in range(600):
        deep = [deep]
    table.board.receive({"type": "action", "action": {"kind": deep}})
    assert "too large or too deeply nested" in table.board.error
    table.board.receive({"type": "x" * 5_000_000})
    assert len(table.board.error) < 200
    table._on_param(session.params.spec("max_turns") if False else
                    next(s for s in session.params.specs() if isinstance(s.default, tuple)), "[" * 5000)
    assert "JSON list" in table.board.error


def test_going_back_to_an_unresolved_scatter_offers_the_roll():
    session = Session(playtest.load("then_there_was_one"), seed=2)
    table = playtest.Table(session)
    session.goto(0)
    assert session.to_move == CHANCE
    assert table.board.scene["buttons"][0]["label"] == "🎲 Roll"
    table.bot_button.click()                                        # "Bot move" rolls
    assert session.to_move not in (CHANCE, None) and table.board.error == ""


# ------------------------------------------------------------------ parameters

@pytest.mark.parametrize("bad", [dict(params=5), dict(card_pair=[[[[[[1]]]]]]), dict(max_turns=2 ** 70),
                                 dict(max_turns="x" * 100_000), dict(nonsense=1), dict(max_turns=True)])
def test_hostile_parameter_values_are_refused_naming_the_parameter(bad):
    with pytest.raises(ValueError) as err:
        playtest.load("eat_thyself", **bad)
    assert len(str(err.value)) < 400
    assert any(word in str(err.value) for word in (*bad, "params"))


def test_bots_never_need_the_true_state_to_play_legally():
    session = played("secret_bid", 3, steps=3)
    for _ in range(30):
        if session.is_over:
            break
        seat = session.game.pending_seats(session.state)[0]
        session.play_bot(RandomBot(seed=1), seat)


# ------------------------------------------------------------------ issue 28: what is read is never written

def file_state(path):
    return path.read_bytes(), path.stat().st_mtime_ns


@pytest.mark.parametrize("seed", ["x", 1.5, 2 ** 200, -(2 ** 64), True, [1]])
def test_a_seed_the_loader_would_refuse_is_refused_by_the_constructor(tmp_path, seed):
    """The seed is recorded in the file: a seed that could never be loaded back is refused at once, and
    no file is written."""
    path = tmp_path / "s.playtest.json"
    with pytest.raises((TypeError, ValueError), match="'seed' must be a whole number"):
        Session(playtest.load("eat_thyself"), seed=seed, path=path)
    assert not path.exists()


def test_every_seed_the_constructor_takes_loads_back(tmp_path):
    class Index:                      # a numpy integer, say: it is taken as the whole number it is
        def __index__(self):
            return 12

    for k, seed in enumerate([None, 0, -5, 2 ** 63, -(2 ** 63), Index()]):
        path = tmp_path / f"s{k}.playtest.json"
        session = Session(playtest.load("source"), seed=seed, path=path)
        assert type(session.seed) in (int, type(None))
        assert Session.load(path).seed == session.seed


def test_merge_and_read_never_write_the_other_file(tmp_path):
    """merge() reads the tester's file: its bytes and its time stay as they were, even when it has a torn
    last line or is an old one-object file, and nothing is written beside it."""
    designer = played("eat_thyself", 3, steps=3, path=tmp_path / "designer.playtest.json")
    tester_dir = tmp_path / "from_tester"
    tester_dir.mkdir()
    torn = tester_dir / "torn.playtest.json"
    tester = Session.load(designer.path)
    tester.save(torn)
    tester.play(tester.legal_actions()[0])
    with open(torn, "ab") as f:
        f.write(b'{"note": {"node": 1, "text": "half a no')
    old = tester_dir / "old.playtest.json"
    old.write_text(json.dumps(played("eat_thyself", 3, steps=5).to_json()))
    for path in (torn, old):
        before = file_state(path)
        with warnings.catch_warnings():
            warnings.simplefilter("error")          # reading warns of nothing and mends nothing
            added = designer.merge(path)
            Session.read(path)
        assert added["positions"] >= 0 and file_state(path) == before
    assert sorted(p.name for p in tester_dir.iterdir()) == ["old.playtest.json", "torn.playtest.json"]


def test_loading_writes_nothing_to_the_session_file_until_a_change(tmp_path):
    path = tmp_path / "old.playtest.json"
    path.write_text(json.dumps(played("source", 4, steps=6).to_json()))
    before = file_state(path)
    session = Session.load(path)
    session.history(), session.branches()
    assert file_state(path) == before
    session.note("the first change rewrites the old file as a journal")
    assert path.read_text().splitlines()[0].startswith('{"format":"playtest-session","version":2')


@pytest.mark.parametrize("tail", [b'{"node": {"parent": 4, "move": {"kind": "mo',      # a kill mid-write
                                  "Alice: the blue pawn felt stuck here, see move 3 ✓".encode()])  # by hand
def test_an_incomplete_last_line_is_kept_in_a_side_file_named_in_the_warning(tmp_path, tail):
    path = tmp_path / "torn.playtest.json"
    session = played("eat_thyself", 2, steps=4, path=path)
    with open(path, "ab") as f:
        f.write(tail)
    before = file_state(path)
    side = tmp_path / "torn.playtest.json.cut-off.txt"
    with pytest.warns(playtest.session.SessionFileWarning, match="kept in torn.playtest.json.cut-off.txt"):
        reopened = Session.load(path)
    assert side.read_bytes() == tail and file_state(path) == before          # loading wrote no byte of it
    assert any("torn.playtest.json.cut-off.txt" in w for w in reopened.load_warnings)
    assert reopened.positions() == session.positions()
    with pytest.warns(playtest.session.SessionFileWarning):
        Session.load(path)                                 # loading again: the same side file, no second
    assert sorted(p.name for p in tmp_path.iterdir()) == ["torn.playtest.json", "torn.playtest.json.cut-off.txt"]
    reopened.play(reopened.legal_actions()[0])            # the line is cut off now, and the change appended
    assert tail not in path.read_bytes() and side.read_bytes() == tail
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert Session.load(path).positions() == session.positions() + 1
    # another incomplete line later, with other bytes: a second side file, the first one kept
    with open(path, "ab") as f:
        f.write(b"more by hand")
    with pytest.warns(playtest.session.SessionFileWarning, match="cut-off-2.txt"):
        Session.load(path)
    assert (tmp_path / "torn.playtest.json.cut-off-2.txt").read_bytes() == b"more by hand"
    assert side.read_bytes() == tail


def test_a_session_opened_in_a_notebook_keeps_its_lock_when_the_torn_line_is_cut(tmp_path):
    path = tmp_path / "nb.playtest.json"
    played("eat_thyself", 2, steps=2, path=path)
    with open(path, "ab") as f:
        f.write(b'{"node"')
    with pytest.warns(playtest.session.SessionFileWarning):
        session = Session.open(path, "eat_thyself")
    session.play(session.legal_actions()[0])
    assert session._journal.locked
    with warnings.catch_warnings():
        warnings.simplefilter("error")                   # the line is gone: nothing to warn of
        assert Session.read(path).positions() == session.positions()
    with pytest.raises(SessionFileError, match="open in another kernel"):
        playtest.journal.Journal(path).lock()


@pytest.mark.parametrize("content", [10 ** 10, 2 ** 70, -1, "x" * 10, None, 1.5, [1, 2]])
def test_an_upload_whose_content_is_not_bytes_allocates_nothing(content):
    """A browser message may carry anything as a file's content: a number is not a size to allocate."""
    session = Session(playtest.load("source"))
    table = playtest.Table(session)
    table.upload.set_state({"value": [{"name": "evil.json", "type": "", "size": 1, "content": content,
                                       "last_modified": 0}]})
    assert "evil.json was not merged" in table.board.error and "bytes" in table.board.error
    assert session.positions() == 1


def test_an_upload_larger_than_a_session_file_is_refused_before_a_copy():
    big = memoryview(bytearray(playtest.journal.LIMITS.max_bytes + 1))
    with pytest.raises(SessionFileError, match="more than a session file may hold"):
        Session.from_records_bytes(big)


@pytest.mark.parametrize("seat", [True, False, 1.0, 0.0, "1", (1,)])
def test_a_seat_is_a_whole_number(seat):
    session = Session(playtest.load("then_there_was_one"), seed=1)
    action, before = session.legal_actions()[0], session.positions()
    with pytest.raises(MalformedAction, match="a seat is a whole number"):
        session.play(action, seat=seat)
    with pytest.raises(MalformedAction, match="a seat is a whole number"):
        session.play_bot(RandomBot(1), seat=seat)
    with pytest.raises(MalformedAction, match="a seat is a whole number"):
        session.legal_actions(seat)
    assert session.positions() == before
    session.play(action, seat=session.to_move)
