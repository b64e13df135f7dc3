"""Reading a system's extractions (SPEC §2), streaming, one line at a time.

The reader yields either an :class:`Extraction` or a :class:`~benchie_cli.errors.Diagnostic`
for each line, so that ``validate`` can list every problem of a file while ``score`` stops at
the first error. It never holds the file in memory: a million-line submission costs what one
line costs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from benchie_cli.errors import Diagnostic
from benchie_cli.textio import display_name, iter_lines


class Extraction(NamedTuple):
    """One extraction with its slots whitespace-normalised; ``columns`` counts the slots
    the line had (more than 3 is an n-ary extraction folded into the object)."""

    line: int
    sent_id: str
    subject: str
    relation: str
    object: str
    columns: int


@dataclass(slots=True)
class FileFacts:
    """What the reader learnt about the file as a whole, filled in as it streams."""

    path: str
    sha256: str = ""
    lines: int = 0
    extractions: int = 0


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
    if b"\x00" in raw:
        return ("nul-byte", "NUL byte in line (binary file?)")
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


def parse_line(raw: bytes, name: str, lineno: int) -> Extraction | Diagnostic | None:
    """One line as an extraction, a diagnostic naming file and line, or None if blank."""
    fields = split_line(raw)
    if fields is None:
        return None
    if len(fields) == 2:
        return Diagnostic(name, lineno, "error", fields[0], fields[1])
    sent_id, subject, relation, obj, columns = fields
    return Extraction(
        lineno, sent_id, " ".join(subject), " ".join(relation), " ".join(obj), columns
    )


def read_submission(path: str, facts: FileFacts) -> Iterator[Extraction | Diagnostic]:
    """Each extraction of ``path`` in order, and a diagnostic for each bad line.

    ``facts`` is completed when the iterator is exhausted (line count, sha256 of the bytes).
    An empty file (no extraction at all) ends with an ``empty-file`` error diagnostic.
    """
    name = display_name(path)
    digest = hashlib.sha256()
    for lineno, raw, _ in iter_lines(path, digest):
        facts.lines = lineno
        item = parse_line(raw, name, lineno)
        if item is None:
            continue
        if isinstance(item, Extraction):
            facts.extractions += 1
        yield item
    facts.sha256 = digest.hexdigest()
    if facts.extractions == 0:
        yield empty_file(name, facts)


def empty_file(name: str, facts: FileFacts) -> Diagnostic:
    what = "no lines" if facts.lines == 0 else "only blank or unreadable lines"
    return Diagnostic(name, None, "error", "empty-file", f"no extraction in the file ({what})")
