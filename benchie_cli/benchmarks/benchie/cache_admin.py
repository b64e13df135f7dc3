"""What the cache holds, and removing what no run will read again (``benchie cache``).

An entry's name says what it is: ``GOLD_SHA256-FACET-CODE.idx`` (see
:mod:`benchie_cli.benchmarks.benchie.index_cache`); a memo is ``NAME.memo``
(:class:`benchie_cli.disk_cache.DiskMemo`), one file a memo, whose header names the code
fingerprint it was written by. An entry or a memo whose code fingerprint is not the
running code's is never read again (a run looks its entry up by the current fingerprint,
and replaces such a memo), nor is any ``*.marshal`` entry of 0.2.0, nor a temporary file a
killed run left behind: those are what ``prune`` removes. Only regular files with those
names, directly inside the cache directory, are ever removed, and an index or a memo only
when its first bytes are one's: no symbolic link is followed or removed, no directory
entered, no other file touched.
"""

from __future__ import annotations

import os
import re
import stat
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from benchie_cli.benchmarks.benchie.index_cache import code_fingerprint, is_index
from benchie_cli.disk_cache import (
    INDEX_SUFFIX,
    MEMO_NAME,
    MEMO_SUFFIX,
    STALE_SECONDS,
    cache_dir,
    current_memos,
    is_memo,
    is_temporary,
    memo_fingerprint,
    off_reason,
    owned,
)
from benchie_cli.errors import printable_path

#: The entries of 0.2.0, no longer read.
OLD_SUFFIX = ".marshal"
_ENTRY = re.compile(r"^([0-9a-f]{64})-([a-z]+)-([0-9a-f]+)\Z")


@dataclass(frozen=True, slots=True)
class CacheFile:
    """One file of the cache directory that ``prune`` may remove."""

    name: str
    size: int
    kind: str  # "entry", "old-entry" (0.2.0's *.marshal), "memo" or "temporary"
    gold_sha256: str | None
    facet: str | None
    code: str | None
    current: bool  # an entry that runs of this code read
    stale: bool  # a temporary file old enough to be a killed run's
    #: The file listed (device, inode): ``prune`` removes that file, not one put in its place.
    identity: tuple[int, int] = (0, 0)

    @property
    def shown(self) -> str:
        """Its name as outputs show it (a name that is not UTF-8, or holds a control
        character, escaped: any file may sit in a cache directory)."""
        return printable_path(self.name)

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.shown,
            "size": self.size,
            "kind": self.kind,
            "gold_sha256": self.gold_sha256,
            "facet": self.facet,
            "code": self.code,
            "current": self.current,
        }


def _every_memo() -> dict[str, str]:
    """Every memo's name and current fingerprint: the modules that define one register it
    when imported (``tests/test_architecture.py`` checks each such module is here)."""
    from benchie_cli.benchmarks.lsoie import py2dict
    from benchie_cli.benchmarks.oie2016 import wordnet

    del py2dict, wordnet  # (imported for their memos)
    return current_memos()


class _Classifier:
    """Tells what a regular file of the cache directory is, by its name and, for an index
    or a memo, its first bytes; the current memos' fingerprints are computed once, and
    only when a memo is there."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.now = time.time()
        self._memos: dict[str, str] | None = None

    def __call__(self, name: str, info: os.stat_result) -> CacheFile | None:
        found = self._classify(name, info.st_size, info.st_mtime)
        return None if found is None else replace(found, identity=(info.st_dev, info.st_ino))

    def _classify(self, name: str, size: int, mtime: float) -> CacheFile | None:
        if is_temporary(name):
            stale = self.now - mtime > STALE_SECONDS
            return CacheFile(name, size, "temporary", None, None, None, False, stale)
        for suffix, kind in ((INDEX_SUFFIX, "entry"), (OLD_SUFFIX, "old-entry")):
            match = _ENTRY.match(name[: -len(suffix)]) if name.endswith(suffix) else None
            if match is None:
                continue
            if kind == "entry" and not is_index(self.directory / name):
                return None  # named like an index, but none: not benchie's, left alone
            sha, facet, code = match.groups()
            current = kind == "entry" and code == code_fingerprint()
            return CacheFile(name, size, kind, sha, facet, code, current, False)
        if name.endswith(MEMO_SUFFIX) and MEMO_NAME.fullmatch(name[: -len(MEMO_SUFFIX)]):
            path = self.directory / name
            header = memo_fingerprint(path)
            if header is None:
                if not is_memo(path):
                    return None  # named like a memo, but none: not benchie's, left alone
                # A memo of another format, or damaged: no run reads it (one replaces it).
                return CacheFile(name, size, "memo", None, None, None, False, False)
            memo, code = header
            if self._memos is None:
                self._memos = _every_memo()
            current = f"{memo}{MEMO_SUFFIX}" == name and self._memos.get(memo) == code
            return CacheFile(name, size, "memo", None, None, code, current, False)
        return None


@dataclass(slots=True)
class CacheListing:
    directory: Path
    exists: bool
    files: list[CacheFile]
    others: int  # anything else in the directory (links, directories, other names): untouched

    @property
    def total(self) -> int:
        return sum(f.size for f in self.files)


def require_dir() -> Path:
    """The cache directory, or a one-line error (exit 2) when the cache is off."""
    from benchie_cli.errors import BenchieError

    directory = cache_dir()
    if directory is None:
        raise BenchieError(f"the cache is off ({off_reason()}); there is nothing to prune")
    return directory


def list_cache(directory: Path) -> CacheListing:
    """Every regular file of ``directory`` named like an entry or a temporary file, by name."""
    classify = _Classifier(directory)
    files: list[CacheFile] = []
    others = 0
    try:
        scan = list(os.scandir(directory))
    except FileNotFoundError:
        return CacheListing(directory, False, [], 0)
    except OSError as exc:
        from benchie_cli.errors import BenchieError

        raise BenchieError(
            f"cannot list the cache {printable_path(str(directory))}: {exc.strerror or exc}"
        ) from None
    for item in scan:
        try:
            info = item.stat(follow_symlinks=False)
        except OSError:
            continue
        # Another user's file (a cache directory shared by mistake) is never benchie's here.
        regular = stat.S_ISREG(info.st_mode) and owned(info)
        found = classify(item.name, info) if regular else None
        if found is None:
            others += 1
        else:
            files.append(found)
    files.sort(key=lambda f: f.name)
    return CacheListing(directory, True, files, others)


def prune(directory: Path, *, everything: bool = False) -> list[CacheFile]:
    """Remove the entries no run of this code reads (every entry with ``everything``) and
    stale temporary files; the files removed. A file that changed into something else (a
    link, a directory) between listing and removing is left alone."""
    removed = []
    for f in list_cache(directory).files:
        if f.kind == "temporary":
            if not f.stale:
                continue  # maybe a run writing right now
        elif f.current and not everything:
            continue
        path = directory / f.name
        try:
            now = os.lstat(path)
            if not stat.S_ISREG(now.st_mode) or (now.st_dev, now.st_ino) != f.identity:
                continue  # replaced since it was listed: not the file listed
            path.unlink()
        except OSError:
            continue
        removed.append(f)
    return removed


def human_size(size: int) -> str:
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{size} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"  # pragma: no cover


__all__ = ["CacheFile", "CacheListing", "code_fingerprint", "list_cache", "prune", "require_dir"]
