"""The tables of ``playtest.playtests`` stay what they were while their loading gets faster (issue 26).

``tests/golden/playtests_tables.json`` holds, for each table of two folders of session files, its
columns, their types and a digest of every column's values, as the kit said at revision 06d212f
(before the loader was made fast): the sample playtests (times, refused attempts, curtain lifts,
feedback) and the golden session files of tests/test_kernel_compat.py (six games, written before
times were kept, with parameter changes and branches). Write it anew (only when a change to the
tables is meant) with ``PLAYTEST_WRITE_GOLDEN=1 pytest tests/test_playtests_tables.py``.

Files read together share game objects, parsed actions and parameter changes (``ReplayShare``):
the tables they give are checked against the same sessions replayed one by one without it.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import warnings
from pathlib import Path

import pytest

import playtest
from playtest import Session, SessionFileError
from playtest.analytics.playtests import TABLES
from playtest.bots import RandomBot
from playtest.session.files import ReplayShare

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "playtests_tables.json"
FOLDERS = {"sample_playtests": ROOT / "notebooks" / "sample_playtests",
           "golden_sessions": ROOT / "tests" / "golden" / "sessions"}


def digest(report: playtest.analytics.Playtests) -> dict:
    """Every table's rows, columns (in order), their types and a digest of each column's values."""
    out: dict = {}
    for name in TABLES:
        frame = report.table(name)
        out[name] = {"rows": len(frame), "columns": [
            [column, str(frame[column].dtype),
             hashlib.sha256(json.dumps(frame[column].tolist(), default=str).encode()).hexdigest()[:20]]
            for column in frame.columns]}
    out["problems"] = report.problems
    out["skipped"] = [list(s) for s in report.skipped]
    return out


def test_the_tables_are_what_they_were_before_the_loader_was_made_fast():
    got = {}
    for key, folder in FOLDERS.items():
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got[key] = digest(playtest.playtests(folder))
    if os.environ.get("PLAYTEST_WRITE_GOLDEN"):
        GOLDEN.write_text(json.dumps(got, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    for key in FOLDERS:
        for name in TABLES:
            assert got[key][name]["rows"] == want[key][name]["rows"], (key, name)
            for column, expected in zip(got[key][name]["columns"], want[key][name]["columns"]):
                assert column == expected, (key, name, column[0])
            assert len(got[key][name]["columns"]) == len(want[key][name]["columns"]), (key, name)
        assert got[key]["problems"] == want[key]["problems"]
        assert got[key]["skipped"] == want[key]["skipped"]


def make_tester_session(path: Path, seed: int, moves: int = 60) -> None:
    """A tester's session of Eat Thyself, with new games (a set-up parameter changed) and a bot seat."""
    rng = random.Random(seed)
    clock = [1_767_225_600.0 + seed * 3_600]
    game = playtest.load("eat_thyself", own_king_bonus_removals=seed % 2)
    session = Session(game, seed=seed, clock=lambda: clock[0])
    session.author = f"tester {seed}"
    session.set_players({1: RandomBot(seed)})
    bot = RandomBot(seed)
    while session.move_number < moves:
        if session.is_over:
            session.set_params(first_player=1 - session.params.first_player)
            continue
        clock[0] += rng.uniform(0.5, 40.0)
        if session.to_move == 1:
            session.play_bot(bot, 1)
        else:
            if rng.random() < 0.1:
                session.record_refusal({"item": "slot:0"}, "move one of your own kings (rule E.1 §8)",
                                       seat=session.to_move)
            session.play(game.random_action(session.state, rng))
    session.save(path)


def test_files_read_together_give_the_tables_of_files_read_one_by_one(tmp_path):
    for seed in range(1, 7):
        make_tester_session(tmp_path / f"s{seed}.playtest.json", seed)
    for folder in (tmp_path, *FOLDERS.values()):
        files = sorted(folder.glob("*.playtest.json"))
        together = playtest.playtests(folder)
        alone = playtest.playtests([Session.read(f) for f in files])
        assert together.sessions == alone.sessions == len(files)
        for name in TABLES:
            a, b = together.table(name), alone.table(name)
            assert list(a.columns) == list(b.columns) and len(a) == len(b), name
            assert (a.dtypes == b.dtypes).all(), name
            assert a.drop(columns="session").equals(b.drop(columns="session")), (folder.name, name)
        assert together.problems == alone.problems


def test_one_game_object_per_parameter_set_for_files_read_together(tmp_path):
    for seed in range(1, 5):
        make_tester_session(tmp_path / f"s{seed}.playtest.json", seed, moves=40)
    report = playtest.playtests(tmp_path)
    games = {id(node.game) for source in report.sources for node in source.session._nodes}
    params = {node.game.params for source in report.sources for node in source.session._nodes}
    assert len(games) == len(params) >= 2


def test_a_shared_replay_still_refuses_what_the_rules_refuse(tmp_path):
    """The same move read a second time is checked again in its own position: sharing parsed
    actions and game objects never lets an illegal move through, nor hides which record it is."""
    make_tester_session(tmp_path / "good.playtest.json", 1, moves=20)
    text = (tmp_path / "good.playtest.json").read_text(encoding="utf-8").splitlines()
    # the same file with its 4th move replaced by its 2nd (legal there, not here)
    records = [json.loads(line) for line in text]
    moves = [k for k, r in enumerate(records) if "node" in r and "move" in r["node"]]
    records[moves[3]]["node"]["move"] = records[moves[1]]["node"]["move"]
    (tmp_path / "bad.playtest.json").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    with pytest.warns(UserWarning, match="1 session file"):
        report = playtest.playtests(tmp_path)
    assert report.sessions == 1 and report.problems["files refused"] == 1
    (name, why), = report.skipped
    assert name == "bad.playtest.json" and f"node {moves[3]}" in why and "cannot be replayed" in why
    share = ReplayShare()
    from playtest.journal import read_records
    for file in ("good.playtest.json", "bad.playtest.json", "good.playtest.json"):
        header, recs, _, _ = read_records(tmp_path / file)
        if file.startswith("bad"):
            with pytest.raises(SessionFileError, match=f"node {moves[3]} .*cannot be replayed"):
                Session._replay(header, recs, file, share)
        else:
            assert Session._replay(header, recs, file, share).move_number == 20


def test_bad_parameters_are_refused_every_time_they_are_read(tmp_path):
    """A refused parameter set is never remembered as if it were good."""
    make_tester_session(tmp_path / "a.playtest.json", 1, moves=10)
    lines = (tmp_path / "a.playtest.json").read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["params"]["num_players"] = 9
    for k in (1, 2):
        (tmp_path / f"bad{k}.playtest.json").write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n",
                                                      encoding="utf-8")
    with pytest.warns(UserWarning, match="2 session file"):
        report = playtest.playtests(tmp_path)
    assert report.sessions == 1
    assert [name for name, _ in report.skipped] == ["bad1.playtest.json", "bad2.playtest.json"]
    assert all("bad parameters" in why and "num_players" in why for _, why in report.skipped)
