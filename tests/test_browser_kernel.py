"""The kit in a browser kernel (Pyodide under JupyterLite), played here by pretending to be one.

Pyodide's ``fcntl`` has no ``flock``, and its file system stores a file in the browser's storage
when the file is closed: the journal must close the file after every change (a reload or a kernel
restart then loses nothing), and the lock degrades to a guard within the kernel. What needs the
lab extra (pandas, matplotlib, scipy) says so in one line. The real thing runs in
tests/browser/test_lite_site.py.
"""

from __future__ import annotations

import errno
import importlib
import os
import sys
import types

import pytest

import playtest
from playtest import Session, SessionFileError, journal
from playtest._optional import MissingDependency, need
from playtest.session import files as session_files


@pytest.fixture
def browser(monkeypatch):
    """This kernel plays a browser kernel: no file locks, files saved when closed."""
    monkeypatch.setattr(journal.PLATFORM, "file_locks", False)
    monkeypatch.setattr(journal.PLATFORM, "close_after_write", True)
    closes = []
    real_close = os.close
    monkeypatch.setattr(journal.os, "close", lambda fd: (closes.append(fd), real_close(fd))[1])
    yield closes
    journal._HELD.clear()


def test_pyodide_is_seen_as_a_platform_without_locks(monkeypatch):
    fake_fcntl = types.ModuleType("fcntl")          # Pyodide's: the module is there, flock is not
    monkeypatch.setitem(sys.modules, "fcntl", fake_fcntl)
    monkeypatch.setattr(sys, "platform", "emscripten")
    found = journal.Platform.detect()
    assert (found.file_locks, found.close_after_write) == (False, True) and "Pyodide" in found.name
    monkeypatch.setitem(sys.modules, "fcntl", None)       # no fcntl at all (Windows): no lock either
    monkeypatch.setattr(sys, "platform", "win32")
    assert journal.Platform.detect().file_locks is False


def test_every_change_is_closed_into_storage_and_a_restart_loses_nothing(browser, tmp_path):
    closes = browser
    path = tmp_path / "tester.playtest.json"
    session = Session.open(path, "eat_thyself", seed=1)
    assert session._journal.lock_kind == "process"
    for _ in range(3):
        before = len(closes)
        session.play(session.legal_actions()[0])
        assert session._journal._fd is None and len(closes) > before     # closed: stored by the browser
    session.note("stored at once")
    session.undo()
    assert session._journal._fd is None
    expected = (session.positions(), session.node, [n.text for n in session.notes])
    # a kernel restart: nothing of this kernel is left, the file is read back
    del session
    import gc
    gc.collect()
    session_files._OPEN.clear()
    journal._HELD.clear()
    again = Session.open(path, "eat_thyself", seed=1)
    assert (again.positions(), again.node, [n.text for n in again.notes]) == expected
    again.play(again.legal_actions()[0])            # and it goes on appending
    assert Session.read(path).positions() >= expected[0]


def test_without_flock_a_second_session_of_the_same_file_is_refused_in_this_kernel(browser, tmp_path):
    path = tmp_path / "one.playtest.json"
    first = Session.open(path, "eat_thyself", seed=1)
    first.play(first.legal_actions()[0])
    second = Session.load(path)
    with pytest.raises(SessionFileError, match="open in another session of this kernel"):
        second._journal.lock()
    assert Session.open(path, "eat_thyself") is first       # Run All: the very same session
    first._journal.close()
    second._journal.lock()                                   # let go: the other may hold it
    assert second._journal.locked and second._journal.lock_kind == "process"


def test_a_platform_without_fsync_still_saves(monkeypatch, tmp_path):
    def no_fsync(fd):
        raise OSError(errno.EINVAL, "Invalid argument")
    monkeypatch.setattr(journal.os, "fsync", no_fsync)
    path = tmp_path / "s.playtest.json"
    session = Session("eat_thyself", seed=1, path=path)
    session._journal.durable = True
    session.play(session.legal_actions()[0])
    assert Session.read(path).move_number == 1

    def broken(fd):
        raise OSError(errno.EIO, "I/O error")          # a real failure is still one
    monkeypatch.setattr(journal.os, "fsync", broken)
    with pytest.raises(playtest.SessionSaveError):
        session.play(session.legal_actions()[0])
    assert session.move_number == 1


def test_what_needs_the_lab_extra_says_so_in_one_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)       # as in a browser kernel: no pandas
    monkeypatch.setattr(sys, "platform", "emscripten")
    with pytest.raises(MissingDependency) as caught:
        playtest.simulate("eat_thyself", games=4, seed=1, progress=False)
    message = str(caught.value)
    assert "\n" not in message and "needs pandas" in message and "browser kernel" in message
    assert isinstance(caught.value, ImportError) and caught.value.__cause__ is None
    # what is pure Python goes on: a game played by bots, the win-rate interval
    from playtest.lab import play_game
    from playtest.lab.metrics import wilson
    assert wilson(3, 4)[0] > 0.3
    assert play_game is not None
    with pytest.raises(MissingDependency, match="needs matplotlib"):
        monkeypatch.setitem(sys.modules, "matplotlib", None)
        playtest.lab.interval_plot([1], [0], [2])


def test_need_lets_a_broken_library_say_its_own_error(monkeypatch):
    broken = types.ModuleType("brokenlib_xyz")

    def finder(name, *args, **kwargs):
        raise ImportError("No module named 'some_dependency'", name="some_dependency")
    monkeypatch.setattr(importlib, "import_module", finder)
    with pytest.raises(ImportError) as caught:
        need("brokenlib_xyz", "this")
    assert not isinstance(caught.value, MissingDependency)
    assert broken
