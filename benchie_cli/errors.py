"""Exit statuses, the one exception type the CLI turns into a message, and diagnostics.

Every failure a user can cause (a missing file, bad bytes, an unknown gold version) is a
:class:`BenchieError` carrying its exit status, so that the CLI can print one line and never
a traceback. Diagnostics are the validator's findings, formatted the way compilers do
(``PATH:LINE: error: message``) so that editors and CI annotators can jump to the line.
"""

from __future__ import annotations

import re
from enum import IntEnum

from benchie_cli.records import Record


class ExitCode(IntEnum):
    """The documented exit statuses of every ``benchie`` command."""

    OK = 0
    #: The run worked, but its verdict is negative: validation errors, a gold file whose
    #: hash differs from the manifest or from ``--expect-gold``, a submission in a batch failed.
    FAILED = 1
    #: The input could not be used at all: missing or unreadable file, bad bytes, bad usage.
    USAGE = 2
    #: A bug in benchie: an exception no check foresaw (sysexits' EX_SOFTWARE). Said in
    #: one line naming the command and its arguments, with a request to report it.
    INTERNAL = 70


class BenchieError(Exception):
    """A failure to report as one line (``PATH:LINE: error: message``) and an exit status."""

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        exit_code: ExitCode = ExitCode.USAGE,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.exit_code = exit_code

    def __str__(self) -> str:
        return format_location(self.path, self.line) + f"error: {self.message}"

    def located(self) -> str:
        """``PATH:LINE: message``, for readers whose own errors have that form."""
        return format_location(self.path, self.line) + self.message


def failure_line(exc: BenchieError | OSError) -> str:
    """``PATH:LINE: message`` of a failure a command line that is no ``benchie`` command
    prints (``python -m benchie_cli.benchmarks.carb.metric``): its error, or the system's."""
    if isinstance(exc, BenchieError):
        return exc.located()
    if exc.filename is None:  # (a read that failed on an open file: the caller names it)
        return str(exc.strerror or exc)
    return f"{exc.filename}: {exc.strerror or exc}"


def printable_path(path: str) -> str:
    """A file name as every output shows it: unchanged when it is valid UTF-8 without
    control characters, else with each byte that is not UTF-8 and each control character
    as ``\\xNN`` (and each backslash doubled, so the escape is lossless).

    A POSIX file name is bytes; Python carries undecodable ones as lone surrogates, which no
    UTF-8 output (orjson, a terminal, a JSON report) accepts, so one such name in a batch
    directory would otherwise lose the whole batch. A newline or tab in a name would break
    the one-line errors and the tables.
    """
    if path.isprintable():
        return path
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        pass
    else:
        if not _CONTROL.search(path):
            return path  # printable in the sense that matters: other format characters
    raw = path.encode("utf-8", "surrogateescape").replace(b"\\", b"\\\\")
    text = raw.decode("utf-8", "backslashreplace")
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


_CONTROL = re.compile("[\x00-\x1f\x7f]")


def json_key(key: object) -> str:
    """``key`` as JSON writes it, as an error names a place in a JSON file (``$["key"][3]``):
    other scripts readable, but each character a terminal does not show as one (DEL, U+2028,
    which would break the one-line error) escaped as JSON escapes it."""
    import json  # (only for such errors: a reader of JSON has loaded it)

    return "".join(
        ch if ch.isprintable() else json.dumps(ch)[1:-1]
        for ch in json.dumps(key, ensure_ascii=False)
    )


def format_location(path: str | None, line: int | None) -> str:
    """``PATH:LINE: `` / ``PATH: `` / empty, the prefix compilers put before a message."""
    if path is None:
        return ""
    shown = printable_path(path)
    return f"{shown}:{line}: " if line is not None else f"{shown}: "


class Diagnostic(Record):
    """One finding of the validator (or a warning of the scorer) about one line of a file."""

    path: str
    line: int | None
    severity: str  # "error" or "warning"
    code: str  # stable kebab-case name scripts can filter on, e.g. "lone-bracket"
    message: str

    def format(self) -> str:
        """The compiler-style line, with the code in brackets as linters print it."""
        where = format_location(self.path, self.line)
        return f"{where}{self.severity}: {self.message} [{self.code}]"

    def as_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "line": self.line,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
        }
