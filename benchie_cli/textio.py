"""Reading line-based UTF-8 inputs defensively, and writing outputs atomically.

Inputs come from many tools and operating systems: a UTF-8 BOM, CRLF line ends and trailing
blank lines must not change a score, while undecodable bytes, NUL bytes and directories must
stop the run with the file and line named. Lines are split on ``\\n`` only (not on the other
Unicode line separators ``str.splitlines`` knows), because that is what the formats define.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, Protocol

from benchie_cli.errors import BenchieError

STDIN = "-"


class Hasher(Protocol):
    def update(self, data: bytes, /) -> None: ...


_BOM = b"\xef\xbb\xbf"


def display_name(path: str) -> str:
    """How diagnostics name a file: ``<stdin>`` for ``-``, else the path as given."""
    return "<stdin>" if path == STDIN else path


def _open_binary(path: str) -> BinaryIO:
    if path == STDIN:
        return sys.stdin.buffer
    p = Path(path)
    if p.is_dir():
        raise BenchieError("is a directory, not a file", path=path)
    try:
        return p.open("rb")
    except FileNotFoundError:
        raise BenchieError("no such file", path=path) from None
    except OSError as exc:
        raise BenchieError(f"cannot read: {exc.strerror or exc}", path=path) from None


def decode_line(raw: bytes, path: str, lineno: int) -> str:
    """One line's text, or a :class:`BenchieError` naming the line and the bad byte."""
    if b"\x00" in raw:
        raise BenchieError("NUL byte in line (binary file?)", path=path, line=lineno)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BenchieError(
            f"not valid UTF-8 (byte 0x{raw[exc.start]:02x} at column {exc.start + 1})",
            path=path,
            line=lineno,
        ) from None


def iter_lines(path: str, digest: Hasher | None = None) -> Iterator[tuple[int, bytes, bytes]]:
    """``(line number, content, bytes as read)`` for every line, streaming.

    The content has no BOM (first line) and no ``\\r\\n`` or ``\\n``, so every reader sees the
    same bytes for the same text; the bytes as read let a filter write a line back exactly.
    ``digest``, when given, is fed every byte, so that a file read from stdin can still be
    named by its sha256.
    """
    name = display_name(path)
    fh = _open_binary(path)
    try:
        for lineno, raw in enumerate(fh, 1):
            if digest is not None:
                digest.update(raw)
            content = raw[3:] if lineno == 1 and raw.startswith(_BOM) else raw
            if content.endswith(b"\n"):
                content = content[:-1]
            if content.endswith(b"\r"):
                content = content[:-1]
            yield lineno, content, raw
    except OSError as exc:
        raise BenchieError(f"cannot read: {exc.strerror or exc}", path=name) from None
    finally:
        if fh is not sys.stdin.buffer:
            fh.close()


#: Bytes read at a time by :func:`iter_line_blocks`.
BLOCK_SIZE = 1 << 20


def iter_line_blocks(
    path: str, digest: Hasher | None = None, start: int = 0, end: int | None = None
) -> Iterator[list[bytes]]:
    """The file's lines in blocks of about ``BLOCK_SIZE`` bytes, for the scorer's hot loop.

    Lines come without ``\\n`` but keep a ``\\r`` (the caller strips it only for lines it
    has not seen before); the first line has no BOM. Reading and hashing a block at a time
    avoids a generator step, a hash update and two ``endswith`` calls per line, which is a
    third of the cost of a line whose outcome is already known. ``start`` and ``end`` (byte
    offsets, ``start`` right after a newline) read one range of a regular file.
    """
    name = display_name(path)
    fh = _open_binary(path)
    try:
        if start:
            fh.seek(start)
        remaining = None if end is None else end - start
        carry = b""
        first = start == 0
        while remaining is None or remaining > 0:
            chunk = fh.read(BLOCK_SIZE if remaining is None else min(BLOCK_SIZE, remaining))
            if not chunk:
                break
            if remaining is not None:
                remaining -= len(chunk)
            if digest is not None:
                digest.update(chunk)
            lines = (carry + chunk).split(b"\n")
            carry = lines.pop()
            if first and lines:
                first = False
                if lines[0].startswith(_BOM):
                    lines[0] = lines[0][3:]
            yield lines
        if carry:
            yield [carry[3:] if first and carry.startswith(_BOM) else carry]
    except OSError as exc:
        raise BenchieError(f"cannot read: {exc.strerror or exc}", path=name) from None
    finally:
        if fh is not sys.stdin.buffer:
            fh.close()


def read_text_lines(path: str) -> list[str]:
    """All lines of a (small) file, decoded strictly; for gold files and bucket files."""
    name = display_name(path)
    return [decode_line(raw, name, n) for n, raw, _ in iter_lines(path)]


def sha256_file(path: Path) -> str:
    """Hex sha256 of a file's bytes, read in blocks (gold files are hashed on every run)."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def abandon_stdout() -> None:
    """Point standard output at /dev/null after a write to it failed, so that what is left in
    its buffers cannot fail (and be reported) again when the interpreter flushes them."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def atomic_write(path: str, data: bytes, *, durable: bool = True) -> None:
    """Write ``data`` to ``path`` via a temporary file and a rename, or to stdout for ``-``.

    A failure at any point leaves either the old file or none, never half a report.
    ``durable`` also syncs the data to disk before the rename (reports); a cache entry,
    which is rebuilt if lost, skips that cost. A symbolic link is followed (its target is
    replaced, not the link), and a path that is no regular file (``/dev/null``, a FIFO) is
    written to directly: renaming over it would replace a device with a file.
    """
    import tempfile  # only commands that write files pay for it

    if path == STDIN:
        try:
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            abandon_stdout()
            raise BenchieError(f"cannot write: {exc.strerror or exc}", path="<stdout>") from None
        return
    target = Path(os.path.realpath(path))
    if target.is_dir():
        raise BenchieError("is a directory; give a file name for the output", path=path)
    if target.exists() and not target.is_file():
        try:
            with target.open("wb") as fh:
                fh.write(data)
        except OSError as exc:
            raise BenchieError(f"cannot write: {exc.strerror or exc}", path=path) from None
        return
    directory = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise BenchieError(f"cannot write: {exc.strerror or exc}", path=path) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        # mkstemp creates 0600 files; a report is an ordinary file the user shares.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise BenchieError(f"cannot write: {exc.strerror or exc}", path=path) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
