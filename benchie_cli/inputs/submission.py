"""Reading a system's extractions (docs/formats.md, "Submission format (BenchIE TSV)"),
streaming, one line at a time.

The reader yields either an :class:`Extraction` or a :class:`~benchie_cli.errors.Diagnostic`
for each line, so that ``validate`` can list every problem of a file while ``score`` stops at
the first error. It never holds the file in memory: a million-line submission costs what one
line costs.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterator

from benchie_cli.errors import Diagnostic
from benchie_cli.records import Record, Slotted
from benchie_cli.textio import display_name, iter_lines, nul_message, reported_sha256


class Extraction(Record):
    """One extraction with its slots whitespace-normalised; ``columns`` counts the slots
    the line had (more than 3 is an n-ary extraction folded into the object)."""

    line: int
    sent_id: str
    subject: str
    relation: str
    object: str
    columns: int
    #: The last column's value in a file with the confidence directive, else None.
    confidence: float | None = None


class FileFacts(Slotted):
    """What the reader learnt about the file as a whole, filled in as it streams."""

    __slots__ = ("extractions", "lines", "path", "sha256")

    def __init__(self, path: str, sha256: str = "", lines: int = 0, extractions: int = 0) -> None:
        self.path = path
        self.sha256 = sha256
        self.lines = lines
        self.extractions = extractions


#: ``split_line``'s result: ``(sent_id, subject words, relation words, object words, slot
#: columns)`` for an extraction, ``(code, message)`` for an unusable line, None for a blank
#: one. A slot's normalised text is its words joined by single spaces.
Words = list[str]
Fields = tuple[str, Words, Words, Words, int] | tuple[str, str] | None


def split_line(raw: bytes) -> Fields:
    """The fields of one line (without its line end): the one definition of the format.

    Plain tuples of word lists rather than :class:`Extraction`, because the scorer calls this
    once per distinct line: a NamedTuple's constructor is a Python-level call, and the
    implicit test and the concat facet want the words, not the joined slots.
    """
    if not raw or raw.isspace():
        return None
    if b"\x00" in raw:  # (the line's number is the caller's: see line_message)
        return ("nul-byte", nul_message(raw, None))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return (
            "encoding",
            f"not valid UTF-8 (byte 0x{raw[exc.start]:02x} at column {exc.start + 1})",
        )
    cols = text.split("\t")
    n = len(cols)
    if n < 4:
        return (
            "columns",
            f"{n} TAB-separated column{'s' if n != 1 else ''}, "
            "need 4: sent_id, subject, relation, object",
        )
    obj = cols[3] if n == 4 else " ".join(cols[3:])
    return (cols[0].strip(), cols[1].split(), cols[2].split(), obj.split(), n - 1)


#: The confidence extension: a file whose first non-blank line is exactly this (after the
#: BOM and the line end) ends every extraction line with one more column, the extraction's
#: confidence. Today's readers reject the line (one column), so no file that was valid
#: before changes meaning.
CONFIDENCE_DIRECTIVE = b"#benchie-tsv confidence"

#: A confidence: a finite decimal number in ASCII (``0.93``, ``-238.27``, ``1e-3``), spaces
#: around it allowed. Stricter than ``float()``, which also takes ``nan``, ``inf``, ``1_0``
#: and non-ASCII digits: a confidence must mean the same to every reader.
_DECIMAL = re.compile(rb"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def is_directive(content: bytes) -> bool:
    """Whether a line (without BOM and line end) is the confidence directive."""
    return content == CONFIDENCE_DIRECTIVE


#: ``split_confidence``'s result: ``(the line without its confidence column, confidence)``,
#: ``(code, message)`` for an unusable line, None for a blank one.
ConfidenceFields = tuple[bytes, float] | tuple[str, str] | None


def split_confidence(raw: bytes) -> ConfidenceFields:
    """Cut the confidence column off one line of a file with the directive.

    The rest of the line is then read by :func:`split_line`, as in any other file, so the
    extension adds one column and changes nothing else.
    """
    if not raw or raw.isspace():
        return None
    tabs = raw.count(b"\t")
    if tabs < 4:
        return (
            "columns",
            f"{tabs + 1} TAB-separated column{'s' if tabs else ''}, need 5 in a file with "
            f"the confidence directive: sent_id, subject, relation, object, confidence",
        )
    rest, _, text = raw.rpartition(b"\t")
    text = text.strip(b" ")
    if _DECIMAL.fullmatch(text):
        confidence = float(text)
        if math.isfinite(confidence):
            return rest, confidence + 0.0  # -0.0 is the threshold 0.0
        problem = "beyond the range of a double"
    else:
        problem = "not a finite decimal number"
    shown = text[:40].decode("utf-8", "backslashreplace")
    return (
        "confidence",
        f"confidence {shown!r} (the last column) is {problem}, e.g. 0.93, -238.27 or 1e-3",
    )


def line_message(fields: tuple[str, str], raw: bytes, lineno: int) -> str:
    """The message of :func:`split_line`'s ``(code, message)`` for line ``lineno``: a NUL
    byte in line 1 may be a file in UTF-16 or UTF-32 (:func:`~benchie_cli.textio.nul_message`),
    which ``split_line``, given no line number, does not say."""
    return nul_message(raw, lineno) if fields[0] == "nul-byte" and lineno == 1 else fields[1]


def parse_line(
    raw: bytes, name: str, lineno: int, *, confident: bool = False
) -> Extraction | Diagnostic | None:
    """One line as an extraction, a diagnostic naming file and line, or None if blank;
    ``confident``: the file has the confidence directive."""
    confidence: float | None = None
    if confident:
        cut = split_confidence(raw)
        if cut is None:
            return None
        if isinstance(cut[1], str):
            return Diagnostic(name, lineno, "error", str(cut[0]), cut[1])
        raw, confidence = cut
    fields = split_line(raw)
    if fields is None:
        return None
    if len(fields) == 2:
        return Diagnostic(name, lineno, "error", fields[0], line_message(fields, raw, lineno))
    sent_id, subject, relation, obj, columns = fields
    return Extraction(
        lineno, sent_id, " ".join(subject), " ".join(relation), " ".join(obj), columns, confidence
    )


def read_submission(path: str, facts: FileFacts) -> Iterator[Extraction | Diagnostic]:
    """Each extraction of ``path`` in order, and a diagnostic for each bad line.

    ``facts`` is completed when the iterator is exhausted (line count, sha256 of the bytes).
    An empty file (no extraction at all) ends with an ``empty-file`` error diagnostic.
    """
    name = display_name(path)
    digest = hashlib.sha256()
    confident = False
    started = False  # a non-blank line was seen: a directive after it is no directive
    for lineno, raw, _ in iter_lines(path, digest):
        facts.lines = lineno
        if not started and raw and not raw.isspace():
            started = True
            if is_directive(raw):
                confident = True
                continue
        item = parse_line(raw, name, lineno, confident=confident)
        if item is None:
            continue
        if isinstance(item, Extraction):
            facts.extractions += 1
        yield item
    facts.sha256 = reported_sha256(path, digest)
    if facts.extractions == 0:
        yield empty_file(name, facts)


def empty_file(name: str, facts: FileFacts) -> Diagnostic:
    what = "no lines" if facts.lines == 0 else "only blank or unreadable lines"
    return Diagnostic(name, None, "error", "empty-file", f"no extraction in the file ({what})")
