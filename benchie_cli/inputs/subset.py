"""A declared subset of a benchmark's sentences (``score --sentences FILE``, docs/subsets.md).

LLM studies score 50 or 300 sentences of a benchmark, since every call costs money. A run on
some sentences must say which, so that a reader can check it: the file lists them, one a
line (the sentence's id, as ``benchie sentences`` prints it, or its text), and the scores
are over those sentences alone, with the file's sha256 and the number of sentences in the
signature (``|subset:50@3fa2c1d4e5f6``) and in the report.

This module reads the file (:func:`read_subset`) and finds its lines among a benchmark's
sentences (:func:`choose`); each benchmark's package restricts its gold and the systems'
extractions to the sentences chosen, since only it knows how its gold is keyed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from benchie_cli.errors import BenchieError
from benchie_cli.records import Record
from benchie_cli.textio import display_name, read_whole, split_text_lines


class SubsetFile(Record):
    """A ``--sentences`` file as read: its name, the sha256 of its bytes (as read, so that
    ``sha256sum FILE`` gives it) and its lines that are not blank, with their numbers."""

    shown: str
    sha256: str
    lines: tuple[tuple[int, str], ...]


class Subset(Record):
    """The sentences a ``--sentences`` file chose, in the gold's order: ``(id, text)``."""

    file: SubsetFile
    chosen: tuple[tuple[str, str], ...]

    @property
    def size(self) -> int:
        return len(self.chosen)

    @property
    def ids(self) -> frozenset[str]:
        return frozenset(i for i, _ in self.chosen)

    @property
    def texts(self) -> frozenset[str]:
        return frozenset(t for _, t in self.chosen)

    def signed(self) -> str:
        """The signature's field: the number of sentences and the file's hash (12 digits,
        as the gold's)."""
        return f"|subset:{self.size}@{self.file.sha256[:12]}"

    def as_json(self) -> dict[str, Any]:
        """The report's ``subset``: the file as given, its sha256 and its sentences' number."""
        return {"file": self.file.shown, "sha256": self.file.sha256, "sentences": self.size}


def read_subset(path: str) -> SubsetFile:
    """The file of ``--sentences``, read once (``-``: standard input): UTF-8, one sentence
    a line; blank lines are skipped, and each line is taken without the spaces around it.
    A file with no sentence, or a line given twice, is refused naming its line: a subset
    whose size is not its number of lines would sign a number a reader cannot recount."""
    shown = display_name(path)
    data = read_whole(path, what="--sentences file")
    seen: dict[str, int] = {}
    lines: list[tuple[int, str]] = []
    for number, line in enumerate(split_text_lines(data, shown), 1):
        text = line.strip()
        if not text:
            continue
        if text in seen:
            raise BenchieError(
                f"repeats line {seen[text]}: list each sentence once", path=shown, line=number
            )
        seen[text] = number
        lines.append((number, text))
    if not lines:
        raise BenchieError(
            "no sentence in it: give one sentence a line (its id, as `benchie sentences` "
            "prints it, or its text)",
            path=shown,
        )
    return SubsetFile(shown, hashlib.sha256(data).hexdigest(), tuple(lines))


def _spaced(text: str) -> str:
    """A text as lines are compared with the gold's: runs of white space as one space."""
    return " ".join(text.split())


def _listed_whole(line: str, by_id: dict[str, int], by_text: dict[str, int]) -> str:
    """What a line names when it is a whole line of ``benchie sentences --format tsv`` or
    ``jsonl`` (id and text together), said so, or nothing: each line holds one of them."""
    sid, tab, text = line.partition("\t")
    if not tab and line.startswith("{"):
        try:
            row = json.loads(line)
        except ValueError:
            row = None
        if isinstance(row, dict):
            sid, text = str(row.get("sent_id")), str(row.get("sentence"))
    if sid in by_id or _spaced(text) in by_text:
        return (
            ": a line of `benchie sentences --format tsv` or `jsonl`? give the id alone "
            "or the text alone (`--format txt` prints the texts)"
        )
    return ""


def choose(subset: SubsetFile, sentences: Sequence[tuple[str, str]], where: str) -> Subset:
    """The sentences of ``sentences`` (``(id, text)`` in gold order, as ``benchie
    sentences`` lists them) that the file's lines name: by id first, else by text (white
    space runs compared as one space). A line that names none of them is refused, naming
    its line and ``where`` (the gold); two lines naming one sentence (its id and its
    text) are refused too."""
    by_id = {sid: n for n, (sid, _) in enumerate(sentences)}
    by_text: dict[str, int] = {}
    for n, (_, text) in enumerate(sentences):
        by_text.setdefault(_spaced(text), n)
    named: dict[int, int] = {}
    for number, line in subset.lines:
        found = by_id.get(line)
        if found is None:
            found = by_text.get(_spaced(line))
        if found is None:
            raise BenchieError(
                f"not a sentence of {where}: neither the id nor the text of one of its "
                f"{len(sentences):,} sentences"
                + (
                    _listed_whole(line, by_id, by_text)
                    or " (`benchie sentences` with this run's --benchmark, --split and --lang "
                    "lists them)"
                ),
                path=subset.shown,
                line=number,
            )
        if found in named:
            raise BenchieError(
                f"names the sentence line {named[found]} names (id {sentences[found][0]})",
                path=subset.shown,
                line=number,
            )
        named[found] = number
    return Subset(subset, tuple(sentences[n] for n in sorted(named)))
