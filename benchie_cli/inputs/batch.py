"""Many submissions in one run: naming them, and scoring them past a broken one.

A shared task scores a directory of submissions; one bad file must not stop the other
participants' scores. So each submission either gives a result or a failure with its error,
and the caller decides the exit status (a batch with failures exits 1).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from benchie_cli.errors import BenchieError, ExitCode, printable_path
from benchie_cli.records import Record
from benchie_cli.textio import EMPTY_NAME, STDIN, display_name

#: What a directory contributes: its submission files, by this pattern, in name order.
SUBMISSION_GLOB = "*.tsv"


class Submission(Record):
    name: str
    path: str


class Failure(Record):
    """A submission that could not be scored, and why (its one-line error)."""

    submission: Submission
    message: str
    exit_code: ExitCode

    def as_json(self) -> dict[str, str | int]:
        return {
            "name": self.submission.name,
            "file": display_name(self.submission.path),
            "error": self.message,
            "exit_code": int(self.exit_code),
        }


def system_name(path: str) -> str:
    """A system output's name when the command line gives none (``score --suite``): its
    file's stem, ``.gz`` off (``openie4_output.txt.gz`` is ``openie4_output``)."""
    if path == STDIN:
        return "stdin"
    name = Path(path).name
    if name.endswith(".gz") and len(name) > len(".gz"):
        name = name[: -len(".gz")]
    return Path(name).stem or name


#: Characters a name given on the command line may not hold: C0 and C1 controls (a tab
#: or a line break would break every table and TSV a name goes into), line and paragraph
#: separators, and the bidirectional controls that make a name display as another. (A
#: file's name is never refused: :func:`printable_path` escapes its controls.)
_BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


def check_name(name: str, arg: str) -> str:
    """``name``, given as ``NAME=PATH``, if it can name a system in a report; else a
    :class:`BenchieError` naming the argument: a blank name, one that starts or ends with
    whitespace (two names differing by a space look alike in every table), or one with a
    control character."""
    import unicodedata

    if not name.strip():
        raise BenchieError(f"{arg!r}: NAME=PATH needs a name before '=', not a blank one")
    if name != name.strip():
        raise BenchieError(f"{arg!r}: a name must not start or end with whitespace")
    for ch in name:
        if unicodedata.category(ch) in ("Cc", "Zl", "Zp") or ch in _BIDI_CONTROLS:
            raise BenchieError(
                f"{arg!r}: a name must not hold a control character (U+{ord(ch):04X})"
            )
    return name


def split_name(arg: str) -> tuple[str | None, str]:
    """``NAME=PATH``'s name and path, or no name and ``arg`` itself: an argument is named
    when it has a name before its first ``=`` and is not an existing file's name (a file may
    be called ``a=b.tsv``). The one rule for ``score`` and ``verify``, which checks a name
    given so against the report's."""
    name, eq, rest = arg.partition("=")
    # (os.path.exists, not Path.exists: an argument too long to be a file name is no file)
    if eq and not os.path.exists(arg):
        if not rest:
            raise BenchieError(f"{arg!r}: NAME=PATH needs a path after '='")
        return printable_path(check_name(name, arg)), rest
    return None, arg


def parse_submission_arg(arg: str, *, every_file: bool = False) -> list[Submission]:
    """``PATH``, ``NAME=PATH``, ``-`` (stdin, named ``stdin``) or a directory (every
    ``*.tsv`` inside, named by file stem). A name that is not UTF-8 is escaped as
    :func:`~benchie_cli.errors.printable_path` does, so it can go into any report.
    ``every_file`` (system outputs of any format): a directory gives every file in it, not
    hidden, and names are :func:`system_name`."""
    stem = system_name if every_file else (lambda p: Path(p).stem)
    if arg == STDIN:
        return [Submission("stdin", STDIN)]
    if not arg:  # Path("") is ".": an unset variable must not score the working directory
        raise BenchieError(EMPTY_NAME)
    name, given = split_name(arg)
    if name is not None:
        return [Submission(name, given)]
    path = Path(arg)
    if path.is_dir():
        files = files_in(arg, every_file=every_file)
        return [Submission(printable_path(stem(str(p))), str(p)) for p in files]
    return [Submission(printable_path(stem(arg)), arg)]


def files_in(directory: str, *, every_file: bool = False, verb: str = "score") -> list[Path]:
    """The submissions a directory argument gives, sorted: its ``*.tsv`` files (``every_file``:
    every file), hidden ones left out (macOS leaves ``._name.tsv`` beside every file). The
    one rule for ``score``, ``analyze`` and ``validate``. None is an error that names what
    the directory holds instead, and how to give it (``verb``: the command's): a
    directory of ``clausie.txt`` must not leave the user guessing why it was passed over."""
    path = Path(directory)
    pattern = "*" if every_file else SUBMISSION_GLOB
    files = sorted(p for p in path.glob(pattern) if p.is_file() and not p.name.startswith("."))
    if files:
        return files
    what = "file" if every_file else f"{SUBMISSION_GLOB} file"
    below = sorted(
        d.name
        for d in path.iterdir()
        if d.is_dir() and not d.name.startswith(".") and any(d.glob(pattern))
    )
    if below:
        listed = ", ".join(below[:5])
        hint = f"; give one of its subdirectories with some: {listed}"
    else:
        others = sorted(
            p.name for p in path.iterdir() if p.is_file() and not p.name.startswith(".")
        )
        hint = ""
        if others:
            shown = ", ".join(printable_path(n) for n in others[:5])
            more = f" and {len(others) - 5} more" if len(others) > 5 else ""
            first = printable_path(str(path / others[0]))
            hint = (
                f"; it holds {shown}{more}, which a directory does not give: name such a "
                f"file itself (benchie {verb} {first}; with --input-format FORMAT for a "
                "system's native output that auto-detection does not read)"
            )
    raise BenchieError(f"directory has no {what} to {verb}{hint}", path=directory)


def expand(args: Iterable[str], *, every_file: bool = False) -> list[Submission]:
    """Every submission the arguments name, in order; names must be unique (they key the
    report) and stdin can be read once (``every_file``: see :func:`parse_submission_arg`)."""
    submissions = [s for arg in args for s in parse_submission_arg(arg, every_file=every_file)]
    if sum(1 for s in submissions if s.path == STDIN) > 1:
        raise BenchieError("standard input ('-') can be read only once per run")
    seen: dict[str, str] = {}
    for s in submissions:
        if s.name in seen:
            raise BenchieError(
                f"two submissions are named {s.name!r} ({seen[s.name]} and {s.path}); "
                "name them with NAME=PATH"
            )
        seen[s.name] = s.path
    return submissions


def check_stdin_once(gold_file: str | None, paths: Sequence[str]) -> None:
    """Standard input holds one file: not both the gold and a submission."""
    if gold_file == STDIN and STDIN in paths:
        raise BenchieError(
            "standard input ('-') can be read only once per run: not both --gold-file and "
            "a submission"
        )
