"""Reading line-based UTF-8 inputs defensively, and writing outputs atomically.

Inputs come from many tools and operating systems: a UTF-8 BOM, CRLF line ends and trailing
blank lines must not change a score, while undecodable bytes, NUL bytes and directories must
stop the run with the file and line named. Lines are split on ``\\n`` only (not on the other
Unicode line separators ``str.splitlines`` knows), because that is what the formats define.

Every input is bounded: a line may hold at most ``MAX_LINE_BYTES`` bytes and a file read
whole (gold, bucket files) at most ``MAX_WHOLE_BYTES``, so that a file without line breaks
or an endless stream ends the run with an error naming the line instead of exhausting
memory; character devices (``/dev/zero``, ``/dev/urandom``) are refused before any byte is
read. Pipes and FIFOs are welcome; a command that must read one twice calls :func:`spool`.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import stat
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import BinaryIO, Protocol, TextIO

from benchie_cli.errors import BenchieError, printable_path
from benchie_cli.stops import abandon_stdout as abandon_stdout
from benchie_cli.stops import keep_stderr_past_a_closed_pipe as keep_stderr_past_a_closed_pipe

STDIN = "-"

#: The error for ``""`` as a file name, which ``Path`` would read as the working directory.
EMPTY_NAME = "empty file name (an unset shell variable?)"

#: The longest line any input may have, in bytes without its line end. Real lines are
#: under 2 KB (the longest gold line is a sentence); 1 MiB leaves room for any honest file
#: while bounding what one line costs.
MAX_LINE_BYTES = 1 << 20

#: The largest file read whole (a gold file, a bucket file): 80 times the largest gold
#: (English, 0.8 MB), whose parse and index take ~20 times its size in memory.
MAX_WHOLE_BYTES = 64 << 20


class Hasher(Protocol):
    def update(self, data: bytes, /) -> None: ...


#: The UTF-8 byte order mark some editors (Notepad, Excel's "UTF-8" export) put first.
BOM = b"\xef\xbb\xbf"

#: The most :func:`spool` copies from one pipe (to an anonymous temporary file on disk).
MAX_SPOOL_BYTES = 1 << 30

#: Inputs that are not regular files (pipes, FIFOs, stdin), copied once by :func:`spool`
#: into anonymous temporary files: the path as given -> the copy.
_SPOOLED: dict[str, BinaryIO] = {}


def display_name(path: str) -> str:
    """How diagnostics and reports name a file: ``<stdin>`` for ``-``, else the path as
    given (escaped by :func:`~benchie_cli.errors.printable_path` if it is not UTF-8)."""
    return "<stdin>" if path == STDIN else printable_path(path)


def without_bom(data: bytes) -> bytes:
    """A file's bytes as every reader parses them: without a leading UTF-8 BOM.

    The one place the rule lives (docs/formats.md, "Encoding"): a BOM never changes a score,
    so every reader of every format and every gold takes its bytes through this function,
    :func:`decode_text` or the line readers below (which apply it to the first line). The
    original scorers (CaRB, oie-benchmark, Span_OIE, WiRe57) would keep it as part of the
    first sentence's text, or fail on it. Hashes are of the bytes as read, BOM included:
    they name the file, not its reading."""
    return data[3:] if data.startswith(BOM) else data


def decode_text(data: bytes, shown: str) -> str:
    """A whole file's text: :func:`without_bom`, then UTF-8, strictly; a byte that is not
    UTF-8 is a :class:`BenchieError` naming its line and column (``shown``: the file)."""
    content = without_bom(data)
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError as exc:
        refuse_other_encoding(content, shown)
        start = content.rfind(b"\n", 0, exc.start) + 1
        raise BenchieError(
            f"not UTF-8 (byte 0x{content[exc.start]:02x} at column {exc.start - start + 1})",
            path=shown,
            line=content.count(b"\n", 0, exc.start) + 1,
        ) from None


def _too_long(name: str, lineno: int) -> BenchieError:
    """The error for a line beyond ``MAX_LINE_BYTES`` (``name`` as diagnostics show it)."""
    return BenchieError(
        f"line longer than {MAX_LINE_BYTES:,} bytes, the limit for one line "
        "(a binary file, or a file without line breaks?)",
        path=name,
        line=lineno,
    )


def _lone_cr(name: str, lineno: int) -> BenchieError:
    """The error for a line holding a CR that no LF follows (``name`` as diagnostics show
    it). Lines here end at LF alone (a CRLF's CR is dropped), so such a CR breaks no line:
    a file whose lines end in CR (classic Mac OS) would be one line of every extraction's
    columns, and a stray CR where a line should end would merge two extractions into one,
    each a wrong count with nothing to show it."""
    return BenchieError(
        "a CR (\\r) that no LF follows: lines end at LF (or CRLF) here, so this line runs on "
        "into the next (a file from classic Mac OS, or a stray CR?); end every line with LF, "
        "e.g. `tr '\\r' '\\n' < FILE > FIXED` for a file whose lines all end in CR",
        path=name,
        line=lineno,
    )


def _text(line: bytes) -> bool:
    """Whether ``line`` is UTF-8 text without NUL: a lone CR in a line that is not is left
    to the reader, whose error for bytes that are no text (a binary file?) is the likelier
    cause."""
    if b"\0" in line:
        return False
    try:
        line.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _overlong(line: bytes, name: str, lineno: int) -> BenchieError:
    """The error for a line beyond ``MAX_LINE_BYTES`` as the block reader has it: a CR that
    no LF follows inside it, in a text, is its likelier cause (lines ending in CR alone run
    on up to the limit), said with its fix."""
    content = line[:-1] if line.endswith(b"\r") else line
    if b"\r" in content and _text(content[: MAX_LINE_BYTES + 4]):
        return _lone_cr(name, lineno)
    return _too_long(name, lineno)


def _first_lone_cr(lines: list[bytes]) -> int | None:
    """The index of the first of ``lines`` (each without its LF) holding a CR other than
    one last CR (a CRLF's), or None."""
    for k, line in enumerate(lines):
        if b"\r" in (line[:-1] if line.endswith(b"\r") else line):
            return k
    return None


def _check_kind(fh: BinaryIO, path: str) -> None:
    """Refuse what is no file to read to its end: directories, devices, sockets.

    A terminal on standard input is fine (a person typing), and so is ``/dev/null`` (the
    standard input of cron, ``ssh -n``, ``docker run`` without ``-i``: it ends at once, and
    reading it says it is empty); ``/dev/zero`` is not.
    """
    try:
        info = os.fstat(fh.fileno())
    except (OSError, ValueError):
        return  # no descriptor to inspect (a closed or replaced stdin): reading will tell
    mode = info.st_mode
    if stat.S_ISDIR(mode):
        raise BenchieError("is a directory, not a file", path=display_name(path))
    if stat.S_ISREG(mode) or stat.S_ISFIFO(mode) or fh.isatty() or _is_null(info):
        return
    kind = "a character device" if stat.S_ISCHR(mode) else "a device or socket"
    raise BenchieError(
        f"is {kind}, not a file or a pipe: it may never end", path=display_name(path)
    )


def _is_null(info: os.stat_result) -> bool:
    """Whether ``info`` is that of the null device."""
    if not stat.S_ISCHR(info.st_mode):
        return False
    try:
        null = os.stat(os.devnull)
    except OSError:
        return False
    return stat.S_ISCHR(null.st_mode) and info.st_rdev == null.st_rdev


def _open_binary(path: str) -> BinaryIO:
    if not path:  # open("") fails, but Path("") is the working directory: say which
        raise BenchieError(EMPTY_NAME)
    spooled = _SPOOLED.get(path)
    if isinstance(spooled, io.BytesIO):  # bytes held in memory (the API's predictions)
        return io.BytesIO(spooled.getvalue())
    if spooled is not None:
        fh = os.fdopen(os.dup(spooled.fileno()), "rb")
        fh.seek(0)
        return fh
    if path == STDIN:
        stdin = _stdin()
        if stdin is None:  # `benchie score - <&-`
            raise BenchieError("standard input is closed", path=display_name(path))
        _check_kind(stdin, path)
        _hint_at_terminal(stdin)
        return stdin
    if os.path.isdir(path):
        raise BenchieError("is a directory, not a file", path=display_name(path))
    try:
        fh = open(path, "rb")  # noqa: SIM115 (the caller closes it)
    except FileNotFoundError:
        raise BenchieError("no such file", path=display_name(path)) from None
    except OSError as exc:
        raise BenchieError(f"cannot read: {exc.strerror or exc}", path=display_name(path)) from None
    try:
        _check_kind(fh, path)
    except BaseException:
        fh.close()
        raise
    return fh


#: Said once when ``-`` is read from a terminal, where a run that waits for input without a
#: word looks like one that hangs.
TERMINAL_HINT = (
    "benchie: reading standard input from the terminal: type or paste the input, then "
    "press Ctrl-D at the start of a line (Ctrl-Z and Enter on Windows); or give a file "
    "name instead of -\n"
)


def _is_terminal(stream: BinaryIO | TextIO | None) -> bool:
    """Whether ``stream`` is a terminal (a closed or replaced stream is none)."""
    try:
        return stream is not None and stream.isatty()
    except (OSError, ValueError):
        return False


def _hint_at_terminal(stdin: BinaryIO) -> None:
    """Say what a run reading ``-`` waits for, when a person is at the terminal: standard
    input and standard error both one (never in a pipeline, a script or a test)."""
    if _is_terminal(stdin) and _is_terminal(sys.stderr):
        sys.stderr.write(TERMINAL_HINT)
        sys.stderr.flush()


def _block_reader(fh: BinaryIO) -> Callable[[int], bytes]:
    """How to read ``fh`` a block at a time until its end. At a terminal, where each Ctrl-D
    ends one read, a buffered ``read(n)`` reads on past a line's end to fill its block and
    swallows the Ctrl-D that ends the input: the next block would wait for a second one.
    ``read1`` returns what one read gave, so the Ctrl-D ends the input."""
    read1 = getattr(fh, "read1", None)
    return read1 if read1 is not None and _is_terminal(fh) else fh.read


def _stdin() -> BinaryIO | None:
    """Standard input's byte stream, or None when the process has none (``<&-``)."""
    return getattr(sys.stdin, "buffer", None)


def _close(fh: BinaryIO) -> None:
    if fh is not _stdin():
        fh.close()


def _no_temporary(exc: OSError) -> BenchieError:
    return BenchieError(
        f"no usable temporary directory ({exc.strerror or exc}): set TMPDIR to a writable "
        "directory with free space"
    )


def temporary_file() -> BinaryIO:
    """An anonymous temporary file, gone with the process however it ends; a machine
    without a usable temporary directory is one line naming TMPDIR, not a traceback."""
    import tempfile  # only runs that copy a pipe or a conversion pay for it (~5 ms)

    try:
        return tempfile.TemporaryFile()
    except OSError as exc:
        raise _no_temporary(exc) from None


@contextlib.contextmanager
def temporary_directory(prefix: str) -> Iterator[str]:
    """A temporary directory for the ``with`` block, removed after it (see
    :func:`temporary_file` for a machine without one)."""
    import tempfile

    try:
        holder = tempfile.TemporaryDirectory(prefix=prefix)
    except OSError as exc:
        raise _no_temporary(exc) from None
    with holder as directory:
        yield directory


def is_regular_file(path: str) -> bool:
    """Whether ``path`` names a regular file (which can be read twice and split in ranges)."""
    return path != STDIN and path not in _SPOOLED and os.path.isfile(path)


def rereadable(path: str) -> bool:
    """Whether ``path`` can be read again from its start: a regular file, or a pipe already
    spooled (:func:`spool`). Reading stdin again once read would wait for more input."""
    return path in _SPOOLED or is_regular_file(path)


def spool(path: str) -> None:
    """Let later reads of ``path`` see one copy of it, when it cannot be read twice.

    A pipe, a FIFO or stdin (``validate <(cat f.tsv)``, ``analyze`` on a FIFO) can be read
    only once, while some commands read an input twice (to detect its kind, once per facet).
    Such an input is copied, once, into an anonymous temporary file, which disappears with
    the process however it ends; a regular file is left alone.
    """
    if path in _SPOOLED or is_regular_file(path):
        return
    fh = _open_binary(path)
    try:
        copy = temporary_file()
    except BaseException:
        _close(fh)
        raise
    name = display_name(path)
    try:
        size = 0  # bytes copied so far
        since_newline = 0  # bytes of the current line so far
        read = _block_reader(fh)
        for block in iter(lambda: read(BLOCK_SIZE), b""):
            size += len(block)
            if size > MAX_SPOOL_BYTES:
                raise BenchieError(
                    f"more than {MAX_SPOOL_BYTES >> 30} GiB from a pipe, the most kept for a "
                    "second reading; save it to a file and give the file",
                    path=name,
                )
            copy.write(block)
            # A line over the limit ends the copy (an endless line must not fill the disk);
            # the copy then holds enough of it for every reader to report it, at its line,
            # exactly as for a file. Lines inside one block are within the limit already.
            first = block.find(b"\n")
            if first < 0:
                since_newline += len(block)
            elif since_newline + first > MAX_LINE_BYTES + 1:  # + 1: a CR may end a line
                break
            else:
                since_newline = len(block) - 1 - block.rfind(b"\n")
            if since_newline > MAX_LINE_BYTES + 1:
                break
        copy.flush()
    except OSError as exc:
        copy.close()
        raise BenchieError(f"cannot read: {exc.strerror or exc}", path=name) from None
    except BaseException:
        copy.close()
        raise
    finally:
        _close(fh)
    _SPOOLED[path] = copy


#: Inputs read through a stand-in (:func:`stand_in`): the path as given -> the sha256 of the
#: bytes the path itself holds, which reports name.
_ORIGINAL_SHA256: dict[str, str] = {}


def stand_in(path: str, copy: BinaryIO, original_sha256: str) -> None:
    """Let every later read of ``path`` see ``copy`` (an anonymous temporary file, kept open
    for the run) while reports keep naming ``path`` and ``original_sha256``.

    A native system output is converted once into BenchIE TSV (``benchie_cli.inputs.native``);
    the commands then read the converted lines through the unchanged pipeline, but what a
    report must identify is the file the user gave, byte for byte: see :func:`reported_sha256`.
    """
    previous = _SPOOLED.pop(path, None)
    if previous is not None:
        previous.close()
    _SPOOLED[path] = copy
    _ORIGINAL_SHA256[path] = original_sha256


def hold_in_memory(path: str, data: bytes) -> None:
    """Let every later read of ``path`` (a name, no file) see ``data``, held in memory: how
    the API scores predictions through the very path files take, with no file written;
    reports name ``path`` and the sha256 of ``data``. Gone with :func:`release_spooled`."""
    stand_in(path, io.BytesIO(data), hashlib.sha256(data).hexdigest())


def in_memory(path: str) -> bool:
    """Whether ``path`` names bytes held in memory (:func:`hold_in_memory`)."""
    return isinstance(_SPOOLED.get(path), io.BytesIO)


def release_spooled() -> None:
    """Close every spooled copy and stand-in and forget them, when a command ends: the next
    command in the same process (a test runner, an embedding program) reads the paths anew."""
    for copy in _SPOOLED.values():
        copy.close()
    _SPOOLED.clear()
    _ORIGINAL_SHA256.clear()


def reported_sha256(path: str, digest: hashlib._Hash) -> str:
    """The sha256 a report gives for ``path``: its own bytes', also when the lines read
    (and hashed into ``digest``) were a stand-in's."""
    return _ORIGINAL_SHA256.get(path) or digest.hexdigest()


def peek_lines(path: str, limit: int) -> list[bytes]:
    """The complete lines among the first ``limit`` bytes of ``path`` (without line ends and
    BOM), for format detection; a pipe must be spooled first or its start is lost."""
    fh = _open_binary(path)
    try:
        data = fh.read(limit)
    except OSError as exc:
        raise BenchieError(f"cannot read: {exc.strerror or exc}", path=display_name(path)) from None
    finally:
        _close(fh)
    return head_lines(data, limit)


def starts_with(path: str, magic: bytes) -> bool:
    """Whether the bytes of ``path`` as stored start with ``magic`` (a gzip file's, read
    whole by some readers and raw by others); a pipe must be spooled first."""
    fh = _open_binary(path)
    try:
        return fh.read(len(magic)) == magic
    except OSError as exc:
        raise BenchieError(f"cannot read: {exc.strerror or exc}", path=display_name(path)) from None
    finally:
        _close(fh)


def head_lines(data: bytes, limit: int) -> list[bytes]:
    """The complete lines among the first ``limit`` bytes of ``data``, as :func:`peek_lines`
    gives them (for bytes a caller has already read)."""
    data = data[:limit]
    lines = data.split(b"\n")
    if len(data) == limit and len(lines) > 1:
        lines.pop()  # cut short by the limit
    if lines:
        lines[0] = without_bom(lines[0])
    return [line[:-1] if line.endswith(b"\r") else line for line in lines]


#: The byte-order marks of Unicode's other encodings, UTF-32's first (its little-endian mark
#: begins with UTF-16's).
_OTHER_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe", "UTF-16"),
    (b"\xfe\xff", "UTF-16"),
)


def other_encoding(data: bytes) -> str | None:
    """What to say of a file (or its first line) in another of Unicode's encodings: what
    Windows' editors save as "Unicode" text, known by its byte-order mark, or, without
    one, by the NUL bytes its mostly ASCII text has in every second byte (UTF-16) or in
    three of every four (UTF-32). benchie reads UTF-8, where such a file reads as NUL bytes,
    bytes that are not UTF-8, or lines no reader makes sense of, far from the cause. None
    for any other file (no format benchie reads has a NUL byte)."""
    for mark, name in _OTHER_BOMS:
        if data.startswith(mark):
            return (
                f"{name}, not UTF-8 (it starts with {name}'s byte-order mark): save it as "
                f"UTF-8, e.g. `iconv -f {name} -t UTF-8 FILE > FILE.utf8`"
            )
    unmarked = _unmarked(data[:_SAMPLE])
    if unmarked is None:
        return None
    name, order = unmarked
    nuls = "a NUL byte in every other byte" if name == "UTF-16" else "three NUL bytes in four"
    return (
        f"{name}, not UTF-8 ({order}-endian without a byte-order mark: {nuls}): save it as "
        f"UTF-8, e.g. `iconv -f {name}{order[0].upper()}E -t UTF-8 FILE > FILE.utf8`"
    )


def refuse_other_encoding(data: bytes, shown: str) -> None:
    """A :class:`BenchieError` at line 1 of ``shown`` when ``data`` is in UTF-16 or UTF-32
    (:func:`other_encoding`): every reader of a whole file asks this first."""
    said = other_encoding(data)
    if said is not None:
        raise BenchieError(said, path=shown, line=1)


#: How much of a file :func:`_unmarked` looks at.
_SAMPLE = 256


def _unmarked(head: bytes) -> tuple[str, str] | None:
    """(encoding, byte order) of text in UTF-16 or UTF-32 without a byte-order mark, known by
    where its NUL bytes fall (counted by position modulo 4): at least nine in ten of the
    bytes of the positions where ASCII's high bytes go are NUL, at most one in ten of the
    others. None otherwise (fewer than 8 bytes; no NUL at all)."""
    n = len(head) - len(head) % 4
    if n < 8 or b"\x00" not in head:
        return None
    quarter = n // 4
    nul = [head[i:n:4].count(0) / quarter for i in range(4)]
    layouts = (
        ("UTF-32", "little", (False, True, True, True)),
        ("UTF-32", "big", (True, True, True, False)),
        ("UTF-16", "little", (False, True, False, True)),
        ("UTF-16", "big", (True, False, True, False)),
    )
    for name, order, high in layouts:
        if all(share >= 0.9 if h else share <= 0.1 for share, h in zip(nul, high, strict=True)):
            return name, order
    return None


def nul_message(raw: bytes, lineno: int | None) -> str:
    """What a line with a NUL byte says (``lineno`` None: a line of a file whose number is
    not known here): a gzip-compressed file (its magic, at line 1 or an unknown one) is
    named as such, since ``--benchmark`` and ``--suite`` read one and ``score`` does not,
    and at line 1 a file in UTF-16 or UTF-32 (:func:`other_encoding`)."""
    if lineno in (1, None) and raw.startswith(b"\x1f\x8b"):
        return (
            "a gzip-compressed file: decompress it first (`gunzip -k FILE`); `score "
            "--benchmark NAME` and `--suite` read it as it is"
        )
    return (other_encoding(raw) if lineno == 1 else None) or "NUL byte in line (binary file?)"


def decode_line(raw: bytes, path: str, lineno: int) -> str:
    """One line's text, or a :class:`BenchieError` naming the line and the bad byte."""
    if b"\x00" in raw:
        raise BenchieError(nul_message(raw, lineno), path=path, line=lineno)
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
    named by its sha256. A line longer than ``MAX_LINE_BYTES`` raises, having cost at most
    that much memory.
    """
    name = display_name(path)
    fh = _open_binary(path)
    try:
        lineno = 0
        while raw := fh.readline(MAX_LINE_BYTES + 2):
            lineno += 1
            if digest is not None:
                digest.update(raw)
            content = without_bom(raw) if lineno == 1 else raw
            if content.endswith(b"\n"):
                content = content[:-1]
            if content.endswith(b"\r"):
                content = content[:-1]
            if len(content) > MAX_LINE_BYTES:
                cr = b"\r" in content and _text(content)  # (lines that end in CR alone)
                raise _lone_cr(name, lineno) if cr else _too_long(name, lineno)
            if b"\r" in content and _text(content):
                raise _lone_cr(name, lineno)
            yield lineno, content, raw
    except OSError as exc:
        raise BenchieError(f"cannot read: {exc.strerror or exc}", path=name) from None
    finally:
        _close(fh)


#: Bytes read at a time by :func:`iter_line_blocks`. Not more than ``MAX_LINE_BYTES``: a
#: line lying wholly inside one block is then within the limit, and only the line a block
#: continues needs its length checked.
BLOCK_SIZE = MAX_LINE_BYTES


def iter_line_blocks(
    path: str, digest: Hasher | None = None, start: int = 0, end: int | None = None
) -> Iterator[list[bytes]]:
    """The file's lines in blocks of about ``BLOCK_SIZE`` bytes, for the scorer's hot loop.

    Lines come without ``\\n`` but keep a ``\\r`` (the caller strips it only for lines it
    has not seen before); the first line has no BOM. Reading and hashing a block at a time
    avoids a generator step, a hash update and two ``endswith`` calls per line, which is a
    third of the cost of a line whose outcome is already known. ``start`` and ``end`` (byte
    offsets, ``start`` right after a newline) read one range of a regular file. The part of a
    line carried from one block to the next never exceeds ``MAX_LINE_BYTES``, so the cost is
    linear in the file's size whatever its line lengths; line numbers in errors count from
    the range's start.
    """
    name = display_name(path)
    fh = _open_binary(path)
    try:
        if start:
            fh.seek(start)
        remaining = None if end is None else end - start
        carry = b""
        first = start == 0
        done = 0  # lines yielded so far
        read = _block_reader(fh)
        while remaining is None or remaining > 0:
            chunk = read(BLOCK_SIZE if remaining is None else min(BLOCK_SIZE, remaining))
            if not chunk:
                break
            if remaining is not None:
                remaining -= len(chunk)
            if digest is not None:
                digest.update(chunk)
            data = carry + chunk if carry else chunk
            lines = data.split(b"\n")
            carry = lines.pop()
            if lines and len(lines[0]) > MAX_LINE_BYTES and _line_too_long(lines[0], first):
                raise _overlong(lines[0], name, done + 1)
            if len(carry) > MAX_LINE_BYTES and _line_too_long(carry, first and not lines):
                raise _overlong(carry, name, done + len(lines) + 1)
            if first and lines:
                first = False
                lines[0] = without_bom(lines[0])
            # Counted in C on the block's bytes (a CRLF file has a CR in every block): in its
            # whole lines, every CR is a CRLF's exactly when there are as many CRLFs as CRs.
            whole = len(data) - len(carry)
            if b"\r" in data and data.count(b"\r", 0, whole) != data.count(b"\r\n", 0, whole):
                k = _first_lone_cr(lines)
                if k is not None and _text(lines[k]):
                    if k:  # (the lines before it are read first: their errors come first)
                        yield lines[:k]
                    raise _lone_cr(name, done + k + 1)
            done += len(lines)
            yield lines
        if carry:
            last = without_bom(carry) if first else carry
            if _first_lone_cr([last]) is not None and _text(last):
                raise _lone_cr(name, done + 1)
            yield [last]
    except OSError as exc:
        raise BenchieError(f"cannot read: {exc.strerror or exc}", path=name) from None
    finally:
        _close(fh)


def _line_too_long(line: bytes, first: bool) -> bool:
    """Whether ``line`` (as the block reader has it: a ``\\r`` kept, the first line's BOM not
    yet removed) holds more than ``MAX_LINE_BYTES`` bytes of content."""
    size = len(line) - line.endswith(b"\r") - (3 if first and line.startswith(BOM) else 0)
    return size > MAX_LINE_BYTES


def read_whole(path: str, *, what: str = "file") -> bytes:
    """All bytes of a file that is read whole (gold, bucket files), read once; refused
    beyond ``MAX_WHOLE_BYTES``. Hash and parse these same bytes: reading the file again
    could see other content."""
    fh = _open_binary(path)
    try:
        data = fh.read(MAX_WHOLE_BYTES + 1)
    except OSError as exc:
        raise BenchieError(f"cannot read: {exc.strerror or exc}", path=display_name(path)) from None
    finally:
        _close(fh)
    if len(data) > MAX_WHOLE_BYTES:
        raise BenchieError(
            f"larger than {MAX_WHOLE_BYTES >> 20} MiB, the limit for a {what}",
            path=display_name(path),
        )
    return data


def split_text_lines(data: bytes, path: str) -> list[str]:
    """The lines of a file's bytes, as :func:`iter_lines` delimits them, decoded strictly;
    ``path`` is the name errors give."""
    if not data:
        return []
    raws = data.split(b"\n")
    if raws[-1] == b"":
        raws.pop()
    raws[0] = without_bom(raws[0])
    out = []
    for n, raw in enumerate(raws, 1):
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        if len(raw) > MAX_LINE_BYTES:
            raise _too_long(path, n)
        out.append(decode_line(raw, path, n))
    return out


def gunzip(data: bytes, shown: str) -> bytes:
    """``data`` decompressed, every member of it (``cat a.gz b.gz`` is one valid gzip file,
    as gzip reads it), refused beyond the limit of a whole file (a gzip bomb costs no more
    memory than the limit), when it is not valid gzip, or when other data follows its last
    member (trailing zero bytes, gzip's padding, excepted)."""
    import zlib

    parts: list[bytes] = []
    total = 0
    rest = data
    while True:
        out = zlib.decompressobj(wbits=31)  # gzip framing
        try:
            text = out.decompress(rest, MAX_WHOLE_BYTES + 1 - total)
        except zlib.error as exc:
            raise BenchieError(f"not a valid gzip file ({exc})", path=shown) from None
        total += len(text)
        parts.append(text)
        if total > MAX_WHOLE_BYTES or out.unconsumed_tail:
            raise BenchieError(
                f"decompresses to more than {MAX_WHOLE_BYTES >> 20} MiB, the limit for a whole "
                "file",
                path=shown,
            )
        if not out.eof:
            raise BenchieError("a truncated gzip file", path=shown)
        rest = out.unused_data
        if not rest.strip(b"\0"):
            return b"".join(parts)
        if rest[:2] != b"\x1f\x8b":  # not another member: what gzip calls trailing garbage
            raise BenchieError(
                f"{len(rest):,} byte(s) after the end of the gzip data that are not gzip: a "
                "damaged file, or one with something appended; decompress and check it",
                path=shown,
            )


def check_line_lengths(data: bytes, shown: str) -> None:
    """Refuse a file's bytes, read whole, that hold a line beyond ``MAX_LINE_BYTES`` (its
    content: without BOM and line end), naming the first: the limit every line reader
    keeps, kept by the whole-file readers too (a file without line breaks is named as such,
    not as a format that was not recognised). A JSON document (a WiRe57 export, first
    ``{`` or ``[``) is not made of lines: a minified one is bounded as a whole file."""
    if len(data) <= MAX_LINE_BYTES or without_bom(data).lstrip()[:1] in (b"{", b"["):
        return
    # From a line start, the next ``MAX_LINE_BYTES + 1`` bytes hold a line break unless the
    # line is longer than that: searching each such window backwards for its last line
    # break jumps over every line it holds at once (a few searches for a file of short
    # lines, which scanning every line start took a byte-by-byte pass for). A line with
    # no break in its window may still fit: a CR or the first line's BOM is not content.
    # The readers of these files take lines as text mode does (universal newlines), so a
    # CR ends a line too: a file of classic Mac OS's line ends is no file without breaks.
    start = 0
    while len(data) - start > MAX_LINE_BYTES:
        window = start + MAX_LINE_BYTES + 1
        newline = max(data.rfind(b"\n", start, window), data.rfind(b"\r", start, window))
        if newline >= 0:
            start = newline + 1
            continue
        ends = [e for e in (data.find(b"\n", start), data.find(b"\r", start)) if e >= 0]
        end = min(ends) if ends else -1
        if _line_too_long(data[start : None if end < 0 else end], start == 0):
            raise _too_long(shown, len(data[:start].splitlines()) + 1)
        if end < 0:
            return
        start = end + 1


def read_text(path: str, *, what: str = "file") -> str:
    """A whole (small) file's text, read once: :func:`read_whole`, then :func:`decode_text`."""
    return decode_text(read_whole(path, what=what), display_name(path))


def read_text_as(path: str, error: type[Exception]) -> str:
    """:func:`read_text` for a reader whose errors are ``error("PATH:LINE: message")`` (the
    metric modules that keep their original scorer's error types)."""
    try:
        return read_text(path)
    except BenchieError as exc:
        raise error(exc.located()) from None


def read_text_lines(path: str, *, what: str = "file") -> list[str]:
    """All lines of a (small) file, read once and decoded strictly (bucket files)."""
    return split_text_lines(read_whole(path, what=what), display_name(path))


def sha256_file(path: Path) -> str:
    """Hex sha256 of a file's bytes, read in blocks (gold files are hashed on every run)."""
    import hashlib  # here: `benchie --version` needs nothing that hashes (~2 ms)

    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_file_of(path: str, text: str, inputs: Sequence[str]) -> None:
    """Write ``text`` to ``path`` (atomically), refused when ``path`` is one of ``inputs``:
    the metric modules' command lines write a curve beside the files they read, and a
    swapped argument must not replace a gold file."""
    write_files_of([(path, text)], inputs)


def write_files_of(files: Sequence[tuple[str, str]], inputs: Sequence[str]) -> None:
    """:func:`write_file_of` of several ``(path, text)``, every path checked before any file
    is written (one of ``inputs``, by any name: refused): a refused one leaves none written."""
    for path, _ in files:
        for source in inputs:
            try:
                same = os.path.samefile(source, path)
            except (OSError, ValueError):
                same = os.path.realpath(source) == os.path.realpath(path)
            if same:
                raise BenchieError(
                    f"is also an input ({display_name(source)}); write it elsewhere", path=path
                )
    for path, text in files:
        atomic_write(path, text.encode("utf-8"))


#: The longest file name :func:`atomic_write` can write: 255 bytes, a file name's limit on
#: the common file systems (ext4, XFS, Btrfs, APFS; NTFS counts 255 UTF-16 units, never
#: fewer). A temporary file beside a name this long is named by a shortened prefix of it
#: (:func:`new_temporary`), so a name ``touch`` takes is one a report can be written to.
WRITTEN_NAME_MAX = 255


def name_bytes(name: str) -> int | None:
    """A file name's length as the file system counts it, in bytes of its encoding; None for
    a name it cannot encode."""
    try:
        return len(os.fsencode(name))
    except UnicodeEncodeError:
        return None


def writable_name(name: str) -> bool:
    """Whether ``name`` can be the name of a file :func:`atomic_write` writes in a directory:
    no separator, no NUL, encodable in the file system's encoding, at most
    :data:`WRITTEN_NAME_MAX` bytes (the file system's limit, its temporary file's included)."""
    if any(c in name for c in (os.sep, os.altsep or os.sep, "\x00")):
        return False
    size = name_bytes(name)
    return size is not None and size <= WRITTEN_NAME_MAX


#: The error for an output path that is a loop of symbolic links (``realpath`` leaves it a
#: link): writing there would replace the link with a file.
LINK_LOOP = (
    "is a symbolic link that leads to no file (a loop of links?): remove it or write elsewhere"
)


def new_temporary(directory: Path | str, prefix: str, suffix: str) -> tuple[int, str]:
    """A new file of mode 0600 in ``directory`` named ``PREFIX`` + 8 random hexadecimal
    digits + ``SUFFIX``, open for writing: ``(fd, path)``, as ``tempfile.mkstemp`` makes it
    (created exclusively, a symbolic link at the name never followed, the descriptor not
    inherited). Made here because importing :mod:`tempfile` loads ``shutil``, ``random`` and
    the compression modules, about 5 ms of every command that writes a report.

    ``PREFIX`` (``.NAME.`` for a file ``NAME`` written through it) is cut, at a character's
    start, so that the whole name stays within :data:`WRITTEN_NAME_MAX` bytes: the file
    system refuses a longer one, and a report named 250 bytes (which ``touch`` makes) would
    fail after the work. The name needs only be new in the directory, which the exclusive
    creation ensures, and recognisable: it still starts with ``.`` and the target's name's
    first bytes and ends in ``SUFFIX``; the prefixes of short names are never cut."""
    room = WRITTEN_NAME_MAX - 8 - len(os.fsencode(suffix))
    head = os.fsencode(prefix)
    if len(head) > room:
        while room > 0 and head[room] & 0xC0 == 0x80:  # (inside a UTF-8 character)
            room -= 1
        prefix = os.fsdecode(head[:room])
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL
    flags |= getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    for _ in range(100):  # (a clash of 32 random bits: another name)
        path = os.path.join(directory, f"{prefix}{os.urandom(4).hex()}{suffix}")
        try:
            return os.open(path, flags, 0o600), path
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary file name in {directory}")


def _as_text(data: bytes) -> str:
    """An output's bytes for a standard output that takes text only: every report is
    UTF-8; bytes that are not (a figure) go to a file instead."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise BenchieError(
            "standard output takes text only here (a text stream stands in for it): write "
            "this output with -o FILE"
        ) from None


def atomic_write(path: str, data: bytes, *, durable: bool = True) -> None:
    """Write ``data`` to ``path`` via a temporary file and a rename, or to stdout for ``-``.

    A failure at any point leaves either the old file or none, never half a report.
    ``durable`` also syncs the data to disk before the rename (reports); a cache entry,
    which is rebuilt if lost, skips that cost. A symbolic link is followed (its target is
    replaced, not the link), and a path that is no regular file (``/dev/null``, a FIFO) is
    written to directly: renaming over it would replace a device with a file.
    """
    if path == STDIN:
        if sys.stdout is None:  # `benchie score ... >&-`
            raise BenchieError("standard output is closed; write the report with -o FILE")
        binary = getattr(sys.stdout, "buffer", None)
        try:
            if binary is not None:
                binary.write(data)
                binary.flush()
            else:  # a text stream in its place (a program's io.StringIO): the report's text
                sys.stdout.write(_as_text(data))
                sys.stdout.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            abandon_stdout()
            raise BenchieError(f"cannot write: {exc.strerror or exc}", path="<stdout>") from None
        return
    try:
        # By the path given, links followed: /dev/stdout on a pipe resolves to "pipe:[...]",
        # no path at all.
        existing: int | None = os.stat(path).st_mode
    except OSError:
        existing = None  # (a new file)
    if existing is not None and stat.S_ISDIR(existing):
        raise BenchieError("is a directory; give a file name for the output", path=path)
    if existing is not None and not stat.S_ISREG(existing):
        try:
            with open(path, "wb") as fh:
                fh.write(data)
        except OSError as exc:
            raise BenchieError(f"cannot write: {exc.strerror or exc}", path=path) from None
        return
    target = Path(os.path.realpath(path))
    if target.is_symlink():  # what realpath could not resolve: a loop of links
        raise BenchieError(LINK_LOOP, path=path)
    directory = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = new_temporary(directory, f".{target.name}.", ".tmp")
    except OSError as exc:
        raise BenchieError(f"cannot write: {exc.strerror or exc}", path=path) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        # The temporary file is 0600; a report is an ordinary file the user shares. A file
        # replaced keeps its mode (a store's manifest stays readable by others).
        if existing is not None:
            mode = stat.S_IMODE(existing)
        else:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise BenchieError(f"cannot write: {exc.strerror or exc}", path=path) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
