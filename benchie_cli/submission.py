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

from benchie_cli.errors import BenchieError, Diagnostic
from benchie_cli.textio import decode_line, display_name, iter_raw_lines


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


def parse_line(raw: bytes, name: str, lineno: int) -> Extraction | Diagnostic | None:
    """One line (without its line end) as an extraction, a diagnostic, or None if blank."""
    if not raw.strip():
        return None
    try:
        text = decode_line(raw, name, lineno)
    except BenchieError as exc:
        code = "nul-byte" if b"\x00" in raw else "encoding"
        return Diagnostic(name, lineno, "error", code, exc.message)
    cols = text.split("\t")
    if len(cols) < 4:
        return Diagnostic(
            name,
            lineno,
            "error",
            "columns",
            f"{len(cols)} TAB-separated column{'s' if len(cols) != 1 else ''}, "
            "need 4: sent_id, subject, relation, object",
        )
    obj = cols[3] if len(cols) == 4 else " ".join(cols[3:])
    return Extraction(
        lineno,
        cols[0].strip(),
        " ".join(cols[1].split()),
        " ".join(cols[2].split()),
        " ".join(obj.split()),
        len(cols) - 1,
    )


def read_submission(path: str, facts: FileFacts) -> Iterator[Extraction | Diagnostic]:
    """Each extraction of ``path`` in order, and a diagnostic for each bad line.

    ``facts`` is completed when the iterator is exhausted (line count, sha256 of the bytes).
    An empty file (no extraction at all) ends with an ``empty-file`` error diagnostic.
    """
    name = display_name(path)
    digest = hashlib.sha256()
    for lineno, raw in iter_raw_lines(path, digest):
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
