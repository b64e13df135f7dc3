"""Files kept in the user's cache directory between runs, and never trusted blindly.

Two kinds live there: BenchIE's compiled gold indexes
(:mod:`benchie_cli.benchmarks.benchie.index_cache`) and memos, the results of a pure function
of a string that every run would otherwise recompute from scratch (:class:`DiskMemo`: NLTK's
WordNet lemmas for OIE2016, Python 2's string hashes for LSOIE). What a run reads there can
cost time, never a wrong number: an entry is read only if it is a regular file (opened
without following a symbolic link, and without blocking on a FIFO) of bounded size, whose
header names exactly what the run expects and whose payload hashes to the sha256 the header
gives; anything else is ignored, and rebuilt. An entry is written to a fresh temporary file
renamed over it, which replaces a symbolic link instead of writing through it; a directory
the cache creates is private (0700); temporary files a killed run left are removed. The
cache trusts its directory as much as the user who owns it: whoever can write there can
also replace the installed code. ``verify`` reads no cache at all (:func:`bypassed`).

Location: ``$BENCHIE_CACHE_DIR``, else platformdirs' user cache directory
(``$XDG_CACHE_HOME/benchie-cli``, else ``~/.cache/benchie-cli`` on Linux; a relative
``$XDG_CACHE_HOME`` is ignored, as the XDG Base Directory specification requires);
``BENCHIE_CACHE_DIR=off`` disables it. A directory inside a gold store is never used (its
files would be taken for gold), and one that cannot be written (a read-only container) only
costs time.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import os
import re
import stat
import time
from collections.abc import Callable, Collection, Iterator
from functools import cache
from pathlib import Path
from typing import Any, Generic, TypeVar

import orjson

from benchie_cli import __version__
from benchie_cli.errors import printable_path
from benchie_cli.gold.dirs import APP_NAME
from benchie_cli.gold.store import in_gold_store
from benchie_cli.textio import new_temporary

ENV_CACHE_DIR = "BENCHIE_CACHE_DIR"
#: A temporary file older than this is a killed run's leftover, removed at the next write.
STALE_SECONDS = 3600
TMP_SUFFIX = ".tmp"
#: A compiled index's file name ends so (:mod:`benchie_cli.benchmarks.benchie.index_cache`).
INDEX_SUFFIX = ".idx"
#: A memo's file name ends so (one file per memo: a newer code's memo replaces an older's).
MEMO_SUFFIX = ".memo"


def is_temporary(name: str) -> bool:
    """Whether ``name`` is one of the temporary files :func:`write_entry` makes
    (``.ENTRY.XXXXXXXX.tmp``): no other file of the directory is ever removed as one."""
    return (
        name.startswith(".")
        and name.endswith(TMP_SUFFIX)
        and any(f"{suffix}." in name for suffix in (INDEX_SUFFIX, MEMO_SUFFIX))
    )


def cache_dir() -> Path | None:
    """The cache directory in use, or None when the cache is off or has no home
    (:func:`off_reason` says which)."""
    return _located()[0]


def off_reason() -> str:
    """Why :func:`cache_dir` is None, as messages end "the cache is off (...)"."""
    return _located()[1]


def _located() -> tuple[Path | None, str]:
    configured = os.environ.get(ENV_CACHE_DIR)
    if configured is not None:  # (made absolute: a later chdir must not move the cache)
        if configured.strip().lower() in ("", "off", "0", "none"):
            return None, f"${ENV_CACHE_DIR} is {configured!r}"
        return Path(os.path.abspath(configured)), ""
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(xdg):  # unset, empty or relative: the XDG spec says ignore it
        from benchie_cli.user_dirs import home as user_home

        given = user_home()
        if given is None:
            return None, f"no home directory to keep it in: set ${ENV_CACHE_DIR}"
        home = Path(given)
        if not home.is_dir():  # a $HOME that does not exist is not created (HOME=/nonexistent)
            state = "is not a directory" if home.exists() else "does not exist"
            return None, (
                f"the home directory {printable_path(str(home))!r} {state}: set "
                f"${ENV_CACHE_DIR} to keep it elsewhere"
            )
        if xdg:
            return home / ".cache" / APP_NAME, ""
    from benchie_cli.user_dirs import cache_dir as user_cache_dir  # platformdirs' answer

    return Path(user_cache_dir(APP_NAME)), ""


@cache
def _in_a_gold_store(directory: Path) -> bool:
    """Whether the cache directory lies in a gold store (asked once a run: the answer walks
    the directory's parents)."""
    return in_gold_store(directory) is not None


def usable_dir() -> Path | None:
    """:func:`cache_dir`, unless it is off or inside a gold store (where a cache file would
    add files to a gold version)."""
    directory = cache_dir()
    if directory is None or _in_a_gold_store(directory):
        return None
    return directory


def owned(info: os.stat_result) -> bool:
    """Whether a file is this user's or root's (a container image's cache, made at build
    time): another user's, planted in a shared directory, is never read."""
    geteuid = getattr(os, "geteuid", None)  # (POSIX only)
    return geteuid is None or info.st_uid in (geteuid(), 0)


def read_entry(path: Path, limit: int, *, head: bool = False) -> bytes | None:
    """The entry's bytes if it is a regular file of this user's (or root's) of at most
    ``limit`` bytes (``head``: its first ``limit`` bytes, whatever its size), else None;
    never follows a symbolic link and never blocks (a FIFO planted under an entry's
    name)."""
    flags = os.O_RDONLY | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0) | os.O_NONBLOCK
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or (info.st_size > limit and not head):
            return None
        if not owned(info):
            return None
        with os.fdopen(os.dup(fd), "rb") as fh:
            return fh.read(limit if head else limit + 1)
    except OSError:
        return None
    finally:
        os.close(fd)


def _remove_stale(directory: Path) -> None:
    """Remove temporary files a killed run left behind (only regular files, only old ones)."""
    now = time.time()
    try:
        names = [n for n in os.listdir(directory) if is_temporary(n)]
    except OSError:
        return
    for name in names:
        path = directory / name
        try:
            info = path.lstat()
            if stat.S_ISREG(info.st_mode) and now - info.st_mtime > STALE_SECONDS:
                path.unlink()
        except OSError:
            continue


def write_entry(path: Path, data: bytes) -> None:
    """Write an entry through a fresh temporary file renamed over ``path``: a symbolic link
    or anything else at ``path`` is replaced, never written through."""
    directory = path.parent
    os.makedirs(directory, mode=0o700, exist_ok=True)
    _remove_stale(directory)
    fd, tmp = new_temporary(directory, f".{path.name}.", TMP_SUFFIX)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        # The temporary file is 0600; an entry is as readable as its directory lets it be (a
        # container image compiles as root for another user to read).
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o644 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# --------------------------------------------------------------------------- memos

V = TypeVar("V", str, int)

_MEMO_MAGIC = b"benchie-memo"
#: The memo layout (a header line, then the values as one JSON object); a change of layout
#: changes this, so an old file is never read as new. JSON, not marshal: a forged payload
#: cannot make the reader allocate more than the file's bounded size.
MEMO_FORMAT = 2
#: Keys longer than this are not memoised (an absurd sentence costs its computation, not
#: the memo's memory nor its file's size).
MAX_KEY_CHARS = 4096
_BYPASSED = False
#: Every memo of the process (:func:`save_memos`), and what :func:`bypassed` clears.
_MEMOS: list[DiskMemo[Any]] = []
_CLEARS: list[Callable[[], None]] = []


def clear_on_bypass(clear: Callable[[], None]) -> None:
    """Register the ``cache_clear`` of an in-memory cache that holds values derived from a
    memo's (an ``lru_cache`` above or after the memoised function): :func:`bypassed`
    empties it, so that ``verify`` in a process that scored first computes anew."""
    _CLEARS.append(clear)


@contextlib.contextmanager
def bypassed() -> Iterator[None]:
    """No memo file is read or written inside, and no value read from one is used:
    ``verify`` re-derives a report from the inputs alone. The in-memory caches derived from
    memos are emptied on entering (:func:`clear_on_bypass`). Process-wide."""
    global _BYPASSED
    for clear in _CLEARS:
        clear()
    before, _BYPASSED = _BYPASSED, True
    try:
        yield
    finally:
        _BYPASSED = before


def forget_unsaved() -> None:
    """Write nothing more: the CLI calls this as its process ends, after a command saved
    what it computed (:func:`save_memos`), so that a command stopped by a signal writes no
    memo on its way out (a stop must be quick)."""
    for memo in _MEMOS:
        memo._added = 0


def save_memos() -> None:
    """Write every memo that computed new values (the CLI calls this when a command ends;
    at exit it is called again, for library users, and finds nothing left to write)."""
    for memo in _MEMOS:
        memo.save()


def _save_at_exit() -> None:
    # A stop signal during the exit-time save of a library user's process: the values only
    # cost time; a traceback at exit would cost the user's attention.
    with contextlib.suppress(Exception, KeyboardInterrupt, SystemExit):
        save_memos()


atexit.register(_save_at_exit)


class DiskMemo(Generic[V]):
    """The values of a pure function of a string, kept on disk between runs.

    ``fingerprint`` names everything the values depend on (the package's version, the
    code's source, its data); it is computed once, when the memo is first used, before any
    value is, so that values are never filed under the fingerprint of code that changed on
    disk during the run. A file of another fingerprint, whose payload does not hash to its
    header's sha256, is not one JSON object of string keys and ``value_type`` values (all of
    which ``valid`` accepts, when given: a check of the whole collection, for a per-value
    call costs a run milliseconds), or holds more than ``max_entries``, is ignored and
    replaced. The file is read at the first look-up and written once a run
    (:func:`save_memos`) if the run computed new values; a regular file at its name that is
    no memo (a report written there by mistake) is never replaced. Keys that UTF-8 cannot
    hold (lone surrogates) and keys longer than :data:`MAX_KEY_CHARS` are not memoised.
    """

    def __init__(
        self,
        name: str,
        fingerprint: Callable[[], str],
        value_type: type[V],
        *,
        max_entries: int,
        max_bytes: int = 64 << 20,
        valid: Callable[[Collection[V]], bool] | None = None,
    ) -> None:
        self.name = name
        self._fingerprint = fingerprint
        self._value_type: type[V] = value_type
        self._valid: Callable[[Collection[V]], bool] | None = valid
        self._max_entries = max_entries
        self._max_bytes = max_bytes
        self._values: dict[str, V] | None = None
        self._print = ""  # the fingerprint, fixed at the first use
        self._directory: Path | None = None  # where it was read from, and is written to
        self._added = 0
        _MEMOS.append(self)

    def _header(self, payload_sha256: str) -> bytes:
        fields = (str(MEMO_FORMAT), self.name, self._print, payload_sha256)
        return _MEMO_MAGIC + b"".join(b"\t" + f.encode() for f in fields) + b"\n"

    def encode(self, values: dict[str, V]) -> bytes:
        payload = orjson.dumps(values)
        return self._header(hashlib.sha256(payload).hexdigest()) + payload

    def decode(self, data: bytes) -> dict[str, V] | None:
        """The values a file holds if every check passes, else None."""
        end = data.find(b"\n", 0, 512)
        if end < 0:
            return None
        header, payload = data[: end + 1], data[end + 1 :]
        if header != self._header(hashlib.sha256(payload).hexdigest()):
            return None
        try:
            values = orjson.loads(payload)
        except orjson.JSONDecodeError:  # damage the digest let through: rebuild, never fail
            return None
        value_type = self._value_type
        if (
            type(values) is not dict
            or len(values) > self._max_entries
            or not all(type(v) is value_type for v in values.values())
            or max(map(len, values), default=0) > MAX_KEY_CHARS  # (never put: a forged file)
            or (self._valid is not None and not self._valid(values.values()))
        ):
            return None
        return values

    def fingerprint(self) -> str:
        """What this code's values depend on now (the fingerprint a current file names)."""
        return self._fingerprint()

    def path(self, directory: Path) -> Path:
        return directory / f"{self.name}{MEMO_SUFFIX}"

    def _load(self) -> dict[str, V]:
        values: dict[str, V] | None = None
        try:
            self._print = self._fingerprint()
            directory = usable_dir()
        except OSError:  # the code's or data's files unreadable: no memo this run
            directory = None
        self._directory = directory
        if directory is not None:
            data = read_entry(self.path(directory), self._max_bytes)
            values = self.decode(data) if data is not None else None
        return {} if values is None else values

    def get(self, key: str) -> V | None:
        """The memoised value of ``key``, or None."""
        if _BYPASSED:
            return None
        if self._values is None:
            self._values = self._load()
        return self._values.get(key)

    def put(self, key: str, value: V) -> None:
        """Memoise a value the function computed (kept while there is room)."""
        values = self._values
        if _BYPASSED or values is None or len(values) >= self._max_entries:
            return
        if len(key) > MAX_KEY_CHARS or not (key.isascii() or _utf8(key)):
            return
        values[key] = value
        self._added += 1

    def save(self) -> None:
        """Write the file if this process added values, to the directory it was read from.
        A cache that cannot be written only costs time."""
        if not self._added or self._values is None or self._directory is None:
            return
        self._added = 0
        path = self.path(self._directory)
        data = self.encode(self._values)
        if len(data) > self._max_bytes or _foreign(path):
            return
        with contextlib.suppress(OSError):
            write_entry(path, data)


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _foreign(path: Path) -> bool:
    """Whether ``path`` is a regular file that is no memo (never replaced by one; a link or
    anything else is replaced, never written through). Only its start is read."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return False
    except OSError:
        return False
    return not is_memo(path)


def starts_with(path: Path, magic: bytes) -> bool:
    """Whether ``path`` is a cache file (as :func:`read_entry` reads one) that starts with
    ``magic``; only its start is read."""
    return read_entry(path, len(magic), head=True) == magic


def is_memo(path: Path) -> bool:
    """Whether ``path`` is a file that starts as a memo does."""
    return starts_with(path, _MEMO_MAGIC)


#: A memo's name (its file's, without :data:`MEMO_SUFFIX`), and a code fingerprint
#: (:func:`source_fingerprint`), as a header gives them.
MEMO_NAME = re.compile(r"[a-z0-9][a-z0-9-]*")
_FINGERPRINT = re.compile(r"[0-9a-f]{16}")


def memo_fingerprint(path: Path) -> tuple[str, str] | None:
    """The memo name and the code fingerprint a memo file's header gives (only its first
    line is read), or None for a file that is no memo of this format."""
    data = read_entry(path, 512, head=True)
    if data is None or not data.startswith(_MEMO_MAGIC):
        return None
    fields = data.split(b"\n", 1)[0][len(_MEMO_MAGIC) :].split(b"\t")
    if len(fields) != 5 or fields[0] or fields[1] != str(MEMO_FORMAT).encode():
        return None
    name, fingerprint = (f.decode("latin-1") for f in fields[2:4])  # (any byte decodes)
    if not (MEMO_NAME.fullmatch(name) and _FINGERPRINT.fullmatch(fingerprint)):
        return None  # (not what a memo writes: nothing of it is shown)
    return name, fingerprint


def current_memos() -> dict[str, str]:
    """Each memo this process has loaded (its module imported), and the fingerprint a file
    of it must name to be read by this code (one whose code or data cannot be read has
    none: no file of it is current)."""
    found: dict[str, str] = {}
    for memo in _MEMOS:
        with contextlib.suppress(OSError):
            found[memo.name] = memo.fingerprint()
    return found


def source_fingerprint(*files: Path) -> str:
    """A fingerprint of the package's version and ``files``' bytes (the code and data a
    cached value depends on)."""
    digest = hashlib.sha256(__version__.encode())
    for path in files:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
