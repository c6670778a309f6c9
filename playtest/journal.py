"""Session files: an append-only journal, read back with bounded cost.

A session file is UTF-8 text, one JSON value per line::

    {"format": "playtest-session", "version": 2, "game": "source", "params": {...}, "seed": 1,
     "start": null, "created": "..."}                         # the header
    {"node": {"parent": 0, "move": {"kind": "place", "col": 0, "row": 1}}}
    {"node": {"parent": 1, "chance": {"kind": "roll", "prize": 6}, "forced": true}}
    {"node": {"parent": 2, "params": {"wall_budget": 10}}}
    {"note": {"node": 2, "text": "...", "time": "...", "author": "..."}}
    {"current": 1}

Node ids are implicit: the root is 0 and every ``node`` record is the next id.
A node record also makes that node the current position; a ``current`` record
moves it (undo, redo, goto). Every change appends its records in one write
before the call returns, so autosave costs the same at move 10 and at move
10,000, and a process killed at any byte leaves a file whose complete lines
load: a torn last line is left out (and said so) when the file is opened.
Saving to a path writes a compact copy (header, nodes, notes, current).

In a browser kernel (Pyodide, in JupyterLite) the file system keeps a file in
the page's storage and writes it there when the file is closed, and there is
no ``flock``: there the journal closes the file after every change (so a
reload or a kernel restart loses nothing), and the lock that keeps a second
kernel from playing the same file degrades to a guard within this kernel
(see :data:`PLATFORM`).

Version 1 files (one JSON object, written by earlier playtest versions) are
read too, and rewritten as a journal on the first change.

A session file can come from a stranger (a tester sends it back), so reading
is bounded: size, line count, nesting depth, number sizes and text lengths
are checked before any replay, every field's type is checked exactly, and no
code is ever run (never pickle, never eval). The limits are in :data:`LIMITS`.
"""

from __future__ import annotations

import errno
import json
import os
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["FORMAT", "EXPORT_FORMAT", "VERSION", "LIMITS", "Limits", "SessionFileError", "SessionSaveError",
           "Journal", "read_records", "read_file", "read_bytes", "TORN_NOTE", "encode_journal", "encode_record",
           "write_atomically", "PLATFORM", "Platform"]

FORMAT = "playtest-session"
#: how a warning about an incomplete last line begins
TORN_NOTE = "the last line of the file is incomplete"
EXPORT_FORMAT = "playtest-seat-export"
VERSION = 2


class SessionFileError(ValueError):
    """A session file that cannot be read: corrupt, foreign, too large, or not replayable by the rules."""


class SessionSaveError(OSError):
    """A change could not be written to the session file (disk full, no permission...).

    The change was not made: the session in memory is as it was before the call.
    """


@dataclass(frozen=True)
class Limits:
    """What a session file may hold; a larger file is refused before any replay."""

    max_bytes: int = 64 * 1024 * 1024        #: the whole file
    max_line_bytes: int = 1024 * 1024        #: one record
    max_positions: int = 200_000             #: nodes of the tree
    max_notes: int = 50_000
    max_text: int = 20_000                   #: characters of one note or author
    max_depth: int = 24                      #: nesting of any JSON value
    max_records: int = 2_000_000             #: lines, current records included


LIMITS = Limits()


@dataclass
class Platform:
    """What the file system under the session files can do (found once, on import).

    ``file_locks``: ``fcntl.flock`` exists (a second kernel opening a session file
    is refused); without it the lock degrades to a guard within this process.
    ``close_after_write``: the platform saves a file only when it is closed (the
    browser's storage under Pyodide), so the journal closes it after every change.

    >>> PLATFORM.file_locks, PLATFORM.close_after_write    # a Linux or macOS kernel
    (True, False)
    """

    file_locks: bool
    close_after_write: bool
    name: str

    @classmethod
    def detect(cls) -> "Platform":
        try:
            import fcntl
            locks = callable(getattr(fcntl, "flock", None))
        except ImportError:
            locks = False
        browser = sys.platform == "emscripten"
        return cls(file_locks=locks and not browser, close_after_write=browser,
                   name="browser (Pyodide)" if browser else sys.platform)


#: the platform this kernel runs on (tests may change its fields to play another)
PLATFORM = Platform.detect()

#: session files held by a journal of this process where there is no file lock: path -> holder's id
_HELD: dict[str, int] = {}
_HELD_LOCK = threading.Lock()


def _fsync(fd: int) -> None:
    """fsync, where the platform has it (a browser's file system may not: the close saves the file)."""
    try:
        os.fsync(fd)
    except OSError as err:
        if err.errno not in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EROFS):
            raise


def write_atomically(path: Path, data: str) -> None:
    """Write ``data`` to ``path`` through a temporary file, fsync, rename, fsync the directory."""
    directory = path.parent if str(path.parent) else Path(".")
    directory.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(data)
            f.flush()
            _fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    _sync_directory(directory)


def _sync_directory(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def remove_stale_temporaries(path: Path) -> list[Path]:
    """Remove temporary files a killed save left beside ``path``; returns what was removed."""
    removed: list[Path] = []
    directory = path.parent if str(path.parent) else Path(".")
    try:
        candidates = list(directory.glob(f".{path.name}.*.tmp"))
    except OSError:
        return removed
    for tmp in candidates:
        try:
            tmp.unlink()
            removed.append(tmp)
        except OSError:
            pass
    return removed


def _make_encoder() -> Any:
    """One compact JSON encoder, made once (json.dumps makes one per call: slow for 10,000 lines)."""
    from json import encoder
    c_make_encoder = getattr(encoder, "c_make_encoder", None)      # (the C accelerator: absent on some Pythons)
    if c_make_encoder is not None:
        make = c_make_encoder(None, encoder.JSONEncoder().default, encoder.encode_basestring,
                                      None, ":", ",", False, False, False)
        return lambda value: "".join(make(value, 0))
    return json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode


_encode = _make_encoder()


def encode_record(record: Any) -> str:
    """One record as its line of the file (without the newline); a ``str`` is taken as already encoded."""
    return record if type(record) is str else _encode(record)


def _line(record: Any) -> bytes:
    return (encode_record(record) + "\n").encode("utf-8")


def encode_journal(header: dict[str, Any], records: list[Any]) -> str:
    """A whole session file's text: the header line, then one line per record (see :func:`encode_record`)."""
    return "\n".join([_encode(header), *map(encode_record, records)]) + "\n"


class _ChangedElsewhere(Exception):
    """The journal's file is not at the size this journal left it (see :attr:`Journal.size`)."""


class Journal:
    """The open session file: a compact rewrite, then one appended line (or a few) per change.

    Where the platform saves a file only when it is closed (a browser kernel), the
    file is closed after every append: each change is in the browser's storage
    before the call returns (see :class:`Platform`).
    """

    def __init__(self, path: Path, durable: bool = False, size: int | None = None):
        self.path = path
        #: fsync after every append (survives a power cut, not only a killed kernel)
        self.durable = durable
        self._fd: int | None = None
        #: the file's size as this journal last read or wrote it (``None``: not known yet). A file
        #: found at another size was written by someone else (another session of this kernel on
        #: the same file): a change is then refused rather than interleaved with theirs or written
        #: over them
        self.size = size
        self.locked = False
        #: how the lock is held: "flock" (no other process), "process" (no other journal of this
        #: process: the platform has no file locks), or "" (not held)
        self.lock_kind = ""

    def rewrite(self, header: dict[str, Any], records: list[Any]) -> None:
        """Replace the file with ``header`` and ``records`` (atomically), then append from there."""
        if self.size is not None:
            try:
                now = os.stat(self.path).st_size
            except OSError:
                now = None
            if now is not None and now != self.size:
                raise self._changed_elsewhere()
        locked = self.locked
        self._close_file() if self.lock_kind == "process" else self.close()
        data = encode_journal(header, records)
        try:
            write_atomically(self.path, data)
        except OSError as err:
            raise SessionSaveError(f"could not write the session file {self.path}: {err.strerror or err}; "
                                   "nothing was changed") from None
        self.size = len(data.encode("utf-8"))
        if locked:
            self.lock()             # the new file is a new inode: hold it again

    def _changed_elsewhere(self) -> SessionSaveError:
        return SessionSaveError(
            f"{self.path} was changed by someone else since this session last wrote it (two sessions writing "
            f"one file: Session.load or save(path) of a file another session of this kernel keeps, or another "
            f"program); the change was not made, and the file keeps what the other wrote. Open it again with "
            f"Session.open(path), or save this session under another name")

    def append(self, records: list[Any]) -> None:
        """Append ``records`` in one write; :class:`SessionSaveError` when the disk refuses."""
        if not records:
            return
        data = b"".join(_line(r) for r in records)
        size = None
        try:
            if self._fd is None:
                self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
            size = os.fstat(self._fd).st_size
            if self.size is not None and size != self.size:
                size = None                  # (nothing of ours to take back)
                raise _ChangedElsewhere()
            written = 0
            while written < len(data):
                written += os.write(self._fd, data[written:])
            if self.durable:
                _fsync(self._fd)
            self.size = size + len(data)
            if PLATFORM.close_after_write and self.lock_kind != "flock":
                self._close_file(check=True)    # the browser stores the file when it is closed
        except _ChangedElsewhere:
            raise self._changed_elsewhere() from None
        except OSError as err:
            if size is not None and self._fd is not None:     # half a line would hide every later one
                try:
                    os.ftruncate(self._fd, size)
                except OSError:
                    pass
            locked = self.locked
            if self.lock_kind == "process":
                self._close_file()
            else:
                self.close()
            if locked and not self.locked:
                try:
                    self.lock()
                except SessionFileError:
                    pass
            raise SessionSaveError(f"could not save the change to {self.path}: {err.strerror or err}; "
                                   "the change was not made") from None

    def lock(self) -> None:
        """Hold the file for this process alone (another kernel's ``Session.open`` is refused).

        The lock lives as long as the open file; a rewrite (compaction) takes it again.
        Where the platform has no file locks (a browser kernel: one kernel per page),
        it degrades to a guard within this process: another journal of this kernel
        opening the same file is refused, as ``flock`` would refuse it.
        """
        if not PLATFORM.file_locks:
            key = _held_key(self.path)
            with _HELD_LOCK:
                holder = _HELD.get(key)
                if holder is not None and holder != id(self):
                    raise SessionFileError(f"{self.path} is open in another session of this kernel: close "
                                           "that one first, or open a copy")
                _HELD[key] = id(self)
            self.locked, self.lock_kind = True, "process"
            return
        import fcntl
        try:
            if self._fd is None:
                self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self.close()
            raise SessionFileError(f"{self.path} is open in another kernel (a notebook playing it): close "
                                   "that notebook's kernel first, or open a copy") from None
        self.locked, self.lock_kind = True, "flock"

    def truncate(self, size: int) -> None:
        """Cut a torn last line off the file (before appending after it); a lock held stays held."""
        try:
            if self._fd is not None:
                os.ftruncate(self._fd, size)      # (appends go to the new end: the file is O_APPEND)
            else:
                os.truncate(self.path, size)
            self.size = size
        except OSError as err:
            raise SessionSaveError(f"could not repair {self.path}: {err.strerror or err}") from None

    def close(self) -> None:
        """Close the file and let go of the lock."""
        if self.lock_kind == "process":
            with _HELD_LOCK:
                if _HELD.get(_held_key(self.path)) == id(self):
                    del _HELD[_held_key(self.path)]
        self.locked, self.lock_kind = False, ""
        self._close_file()

    def _close_file(self, check: bool = False) -> None:
        """Close the file (a lock held within the process stays held); ``check``: a failed close
        (the browser's storage refusing the file) raises ``OSError``."""
        fd, self._fd = self._fd, None
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                if check:
                    raise

    def __del__(self) -> None:
        self.close()


def _held_key(path: Path) -> str:
    try:
        return str(Path(path).resolve())
    except OSError:
        return os.path.abspath(path)


def check_depth(value: Any, limit: int, where: str) -> None:
    """Refuse JSON nested deeper than ``limit`` (iteratively: no recursion on hostile input)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > limit:
                raise SessionFileError(f"{where}: nested more than {limit} levels deep")
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)


def _parse(text: str, where: str, limits: Limits) -> Any:
    try:
        value = json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=_unique_keys)
    except RecursionError:      # json's C parser stops deep nesting itself, without crashing
        raise SessionFileError(f"{where}: nested more than {limits.max_depth} levels deep") from None
    except ValueError as err:   # JSONDecodeError, and integers past Python's digit limit
        if not isinstance(err, json.JSONDecodeError) and "integer string conversion" in str(err):
            # (Python's own words end "use sys.set_int_max_str_digits()": advice for code, not for a file)
            raise SessionFileError(f"{where}: not valid JSON for a session file (a number in it has thousands "
                                   f"of digits; none in a session file is that long)") from None
        raise SessionFileError(f"{where}: not valid JSON ({str(err)[:120]})") from None
    check_depth(value, limits.max_depth, where)
    return value


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object of a session file, refused when it writes one key twice: JSON readers differ on
    which value counts (Python's keeps the last, some keep the first), so a stranger's file could
    show one move to one reader and replay another."""
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        twice = next(key for key, _ in pairs if key in seen or seen.add(key))  # type: ignore[func-returns-value]
        raise ValueError(f"the key {twice[:40]!r} is written twice in one object")
    return value


def read_records(path: Path, limits: Limits = LIMITS) -> tuple[Any, list[Any], int | None, list[str]]:
    """Read a session file: ``(header, records, torn_at, warnings)``.

    ``header`` is the first JSON value (the whole object for a version 1 file,
    with no records). ``torn_at`` is the byte offset of an incomplete last
    line that was left out (a kill mid-write, or text added by hand), or None.
    Refuses, with :class:`SessionFileError`, a file over the limits or one that
    is not UTF-8 JSON lines. The file is only read.
    """
    return read_bytes(read_file(path, limits), str(path), limits)


def read_file(path: Path, limits: Limits = LIMITS) -> bytes:
    """A session file's bytes, refused (:class:`SessionFileError`) past ``limits.max_bytes`` before reading."""
    where = str(path)
    try:
        size = path.stat().st_size
    except OSError as err:
        raise SessionFileError(f"{where}: cannot be read ({err.strerror or err})") from None
    if size > limits.max_bytes:
        raise SessionFileError(f"{where}: {size:,} bytes is more than a session file may hold "
                               f"({limits.max_bytes:,} bytes)")
    try:
        return path.read_bytes()
    except OSError as err:
        raise SessionFileError(f"{where}: cannot be read ({err.strerror or err})") from None


def read_bytes(raw: bytes, where: str, limits: Limits = LIMITS) -> tuple[Any, list[Any], int | None, list[str]]:
    """:func:`read_records` for a file's content (an upload from a browser, say)."""
    if len(raw) > limits.max_bytes:
        raise SessionFileError(f"{where}: {len(raw):,} bytes is more than a session file may hold "
                               f"({limits.max_bytes:,} bytes)")
    try:                  # (a BOM, as some editors save UTF-8, is not part of the JSON: it is left out)
        text = raw[3:].decode("utf-8") if raw.startswith(b"\xef\xbb\xbf") else raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SessionFileError(f"{where} is not a playtest session file (not UTF-8 text)") from None
    stripped = text.lstrip()
    if not stripped:
        raise SessionFileError(f"{where} is empty: not a playtest session file")
    warnings: list[str] = []
    # version 1: one JSON object (written by earlier playtest versions, or pretty-printed by hand)
    first_line = text.partition("\n")[0]
    first = _parse(first_line, where, limits) if _is_complete_json(first_line) else None
    if first is None or (isinstance(first, dict) and first.get("version") == 1):
        return (first if first is not None and not text[len(first_line):].strip()
                else _parse(text, where, limits)), [], None, warnings
    lines = text.split("\n")
    torn_at = None
    if not text.endswith("\n"):       # the last line was being written when the process died
        last = lines.pop()
        offset = len(raw) - len(last.encode("utf-8"))
        if _is_complete_json(last):
            lines.append(last)        # complete, only its newline is missing
        else:
            torn_at = offset
            warnings.append(f"{TORN_NOTE} (a change cut off by a crash, or text added by hand) and was left "
                            f"out ({len(last.encode('utf-8'))} bytes at byte {offset:,})")
    else:
        lines.pop()                   # after the final newline
    if len(lines) > limits.max_records + 1:
        raise SessionFileError(f"{where}: {len(lines):,} records is more than a session file may hold "
                               f"({limits.max_records:,})")
    lines = [line for line in lines if line.strip()]
    if not lines:
        raise SessionFileError(f"{where} holds no header: not a playtest session file")
    if max(map(len, lines)) > limits.max_line_bytes:
        number = next(i for i, line in enumerate(lines, start=1) if len(line) > limits.max_line_bytes)
        raise SessionFileError(f"{where}: line {number} is longer than {limits.max_line_bytes:,} characters")
    header = _parse(lines[0], f"{where}, line 1", limits)
    try:                # every record in one pass of json's C parser (deep nesting: RecursionError)
        records = json.loads("[" + ",".join(lines[1:]) + "]", parse_constant=_refuse_constant,
                             object_pairs_hook=_unique_keys)
    except (ValueError, RecursionError):
        # find the line that is wrong, to say which
        for number, line in enumerate(lines[1:], start=2):
            _parse(line, f"{where}, line {number}", limits)
        raise SessionFileError(f"{where}: not a session journal (one JSON value per line)") from None
    return header, records, torn_at, warnings


def _is_complete_json(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True
