"""A likely mistake found in a file, and how an error names it as its cause.

The ground the likely-mistake checks (:mod:`benchie_cli.inputs.mistakes`) stand on, with the
one check that the native formats' conversion (:mod:`benchie_cli.inputs.native`) needs too:
a precision-recall curve given as a system output, which the reader of any format given
fails on in its own words. Kept apart from both because the checks use the native formats'
detection: a module both import breaks no cycle.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from benchie_cli.errors import BenchieError
from benchie_cli.records import Record
from benchie_cli.textio import head_lines


class Finding(Record):
    """One likely mistake: a stable kebab-case ``code``, a message that names the cause and
    the fix, and the first line that shows it (None: the file as a whole)."""

    code: str
    message: str
    line: int | None = None


def sample_texts(head: Sequence[bytes], limit: int) -> list[tuple[int, str]]:
    """(line number, text) of the sample's first ``limit`` non-blank lines that decode."""
    out: list[tuple[int, str]] = []
    for n, raw in enumerate(head, 1):
        if len(out) >= limit:
            break
        if raw.strip():
            try:
                out.append((n, raw.decode("utf-8").rstrip("\r")))
            except UnicodeDecodeError:
                continue
    return out


#: The first line of a precision-recall curve file: CaRB's ``.dat`` (with its confidence
#: column), oie-benchmark's and Span_OIE's, as ``score --curves`` and their scorers write it.
_CURVE_HEADERS = (("precision", "recall"), ("precision", "recall", "confidence"))


def detect_curve(head: Sequence[bytes]) -> Finding | None:
    """A curve file given as a submission: ``--curves`` writes it beside the reports, under
    the system's name, where a glob of outputs picks it up."""
    lines = sample_texts(head, 1)
    if not lines:
        return None
    n, text = lines[0]
    cells = [c.strip().casefold() for c in text.split("\t")]
    while cells and not cells[-1]:  # (a trailing TAB)
        cells.pop()
    if tuple(cells) not in _CURVE_HEADERS:
        return None
    return Finding(
        "curve-file",
        "this is a precision-recall curve (a .dat file that `score --curves` or an original "
        "scorer writes), not a system's output: give the output the curve was drawn from",
        n,
    )


def curve_error(data: bytes, shown: str) -> BenchieError | None:
    """The error for bytes no reader recognised that are a curve file's
    (:func:`detect_curve`): said first, since every other advice would mislead."""
    found = detect_curve(head_lines(data, 4096))
    if found is None:
        return None
    return BenchieError(f"{found.message} [{found.code}]", path=shown, line=found.line)


@contextmanager
def curve_named(head: Sequence[bytes]) -> Iterator[None]:
    """Names a curve file as the likely cause of an error raised inside, a reader's of the
    format given (``--input-format openie4`` given a ``.dat`` that ``--curves`` wrote), from
    ``head``: the file's first lines (:func:`~benchie_cli.textio.head_lines`), or a list a
    streaming reader appends them to as it reads (a stream is read once)."""
    try:
        yield
    except BenchieError as exc:
        found = detect_curve(head)
        raise (exc if found is None else explained(exc, [found])) from None


def explained(exc: BenchieError, findings: Sequence[Finding]) -> BenchieError:
    """``exc`` with the first likely mistake behind it appended: "3 columns, need 4" alone
    does not say that the file is a CSV, a curve, or a native output."""
    if not findings:
        return exc
    first = findings[0]
    return BenchieError(
        f"{exc.message}; likely cause: {first.message} [{first.code}]",
        path=exc.path,
        line=exc.line,
        exit_code=exc.exit_code,
    )


#: The findings that already say why most extractions hold words their sentence lacks:
#: where one is found, the generic hint (another language, another gold?) is not given.
EXPLAIN_IMPLICIT = frozenset(("wrong-language", "shifted-ids", "unicode-normalisation"))
