"""Native output formats of OIE systems, read into BenchIE submissions.

Systems write their own formats (OpenIE 4/5, ClausIE, PropS, ReVerb, Ollie, Stanford,
CaRB's tab format, OpenIE6/IMoJIE, JSONL). Rather than teach every command each of them,
a native file is converted once into BenchIE TSV bytes, aligned to the gold's sentence ids
by text (:mod:`benchie_cli.inputs.align`), and those bytes go through the unchanged pipeline: one
definition of the submission format, one scorer. :data:`REGISTRY` is the one place a format
is declared: a detection predicate over the file's first lines and a parser.

Detection looks at the first lines only (:data:`PEEK_BYTES`), so ``--input-format auto``
costs a BenchIE TSV file one small read. A format is detected only when every peeked
non-blank line fits it; anything else is BenchIE TSV, which the submission reader then
judges as it always did.

docs/native-formats.md documents what each reader keeps and drops.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

import orjson

from benchie_cli.errors import BenchieError, Diagnostic
from benchie_cli.inputs import json_lines
from benchie_cli.inputs.align import Aligner, AlignmentStats
from benchie_cli.inputs.findings import curve_named
from benchie_cli.inputs.formats import BENCHIE_TSV, CARB_READ, NATIVE_FORMATS
from benchie_cli.records import Record
from benchie_cli.slots import quote
from benchie_cli.textio import (
    MAX_WHOLE_BYTES,
    decode_line,
    display_name,
    head_lines,
    iter_lines,
    peek_lines,
)

#: The BenchIE TSV extension declaring a last confidence column (the scorer's PR curves).
CONFIDENCE_DIRECTIVE = "#benchie-tsv confidence"

#: Bytes of a file's start that detection reads; 20 non-blank lines of it are enough.
PEEK_BYTES = 64 << 10
PEEK_LINES = 20


class NativeExtraction(Record):
    """One extraction as its system wrote it. ``sentence`` or ``sent_id`` names its sentence
    (``sentence_line`` is where that sentence's text is, for alignment reports); ``args`` are
    the arguments after the relation, joined into the BenchIE object (paper §4.1, n-ary)."""

    line: int
    sentence: str | None
    sent_id: str | None
    sentence_line: int
    subject: str
    relation: str
    args: tuple[str, ...]
    confidence: float | None


class Skipped(Record):
    """A line a reader recognised and skipped on purpose (OLLIE's header row): never an
    extraction, and never dropped unsaid: every command that converts names it."""

    line: int
    text: str
    reason: str


class Unparsed(Record):
    """A fragment of an LLM's answer no rule of its reader reads as an extraction (prose, a
    refusal, an ambiguous split): a finding, said with its line, recorded in the report and
    an error under ``--strict`` (docs/llm-text.md)."""

    line: int
    text: str
    reason: str


Lines = Iterable[tuple[int, str]]
Parser = Callable[[Lines, str], Iterator[NativeExtraction | Skipped | Unparsed]]


def sorted_out(
    items: Iterable[NativeExtraction | Skipped | Unparsed],
    skipped: list[Skipped],
    unparsed: list[Unparsed],
) -> Iterator[NativeExtraction]:
    """The extractions among a reader's items, as they come (a conversion streams them);
    the lines it skipped and the fragments it could not read go into ``skipped`` and
    ``unparsed``, which every caller says."""
    for item in items:
        if isinstance(item, Skipped):
            skipped.append(item)
        elif isinstance(item, Unparsed):
            unparsed.append(item)
        else:
            yield item


class NativeFormat(Record):
    name: str
    title: str
    #: Whether its extractions carry a confidence: always, or None when optional (JSONL,
    #: where the first extraction decides for the file).
    confidence: bool | None
    detect: Callable[[list[str]], bool]
    parse: Parser
    #: How its lines are met with a benchmark's sentences when they could be met otherwise,
    #: said as a warning by a benchmark whose scorer has no reader of the format ("": no
    #: other way).
    reading: str = ""


# --------------------------------------------------------------------------- helpers


_FLOAT = re.compile(r"^[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$")
_DECIMAL = re.compile(r"^[-+]?(\d+\.\d*|\.\d+)([eE][-+]?\d+)?$")


def _confidence(text: str, name: str, line: int) -> float:
    """A confidence column as a finite float, else the line's error."""
    value = text.strip()
    number = float(value) if _FLOAT.match(value) else math.nan
    if not math.isfinite(number):  # `nan`, or `1e999`, which float() makes infinite
        raise BenchieError(
            f"confidence {value[:40]!r} is not a finite decimal number", path=name, line=line
        )
    return number


def _all(lines: list[str], predicate: Callable[[str], bool]) -> bool:
    return bool(lines) and all(predicate(line) for line in lines)


def _blocks(
    lines: Lines,
    name: str,
    extraction: Callable[[str], bool],
    parse_one: Callable[[str, int], tuple[str, str, tuple[str, ...], float | None]],
) -> Iterator[NativeExtraction]:
    """Formats with a sentence line followed by its extraction lines (ClausIE, Ollie,
    Stanford, OpenIE6): a line that is no extraction line is the next sentence.

    A sentence line never holds a TAB, nor starts like an extraction (a number, then a
    parenthesis); such a line is a broken extraction, an error at its line, never a
    "sentence" that would swallow it and misplace the extractions after it.
    """
    sentence: str | None = None
    where = 0
    for n, text in lines:
        if not text.strip():
            continue
        if extraction(text):
            if sentence is None:
                raise BenchieError(
                    "extraction before any sentence line (the sentence must come first)",
                    path=name,
                    line=n,
                )
            subject, relation, args, conf = parse_one(text, n)
            yield NativeExtraction(n, sentence, None, where, subject, relation, args, conf)
        elif "\t" in text or _BROKEN_PAREN.match(text):
            raise BenchieError(
                f"neither a sentence nor an extraction line of this format: {text[:80]!r}",
                path=name,
                line=n,
            )
        else:
            sentence, where = text.strip(), n


def _first_line(lines: Lines) -> tuple[str, Lines]:
    """The first non-blank line's text ("" for none), and all the lines, that one too:
    for the readers of two layouts, which the first line tells apart."""
    it = iter(lines)
    head: list[tuple[int, str]] = []
    for n, text in it:
        head.append((n, text))
        if text.strip():
            return text, itertools.chain(head, it)
    return "", head


#: The start of an Ollie or OpenIE6 extraction line whose colon or closing part is broken.
_BROKEN_PAREN = re.compile(r"^\s*[-+]?(\d+\.\d*|\.\d+)([eE][-+]?\d+)?\s*:?\s*\(")


# --------------------------------------------------------------------------- OpenIE 4 / 5

#: ``SimpleArgument(text,List([0, 12)))``, also Spatial/Temporal arguments, ``Relation``,
#: ``Context``; offsets may be ``List(null)`` (OpenIE 5) or odd (``List({3})``), and are
#: dropped. The text is everything up to the part's last ``,List(``.
_PART = re.compile(r"^\s*(\w+)\((.*),List\(.*\)\)\s*$")
_ARG_SPLIT = re.compile(r"(?<=\)\)); ?(?=\w+Argument\()")


def _part(text: str, name: str, line: int, kinds: tuple[str, ...]) -> str:
    m = _PART.match(text)
    if m is None or not m.group(1).endswith(kinds):
        raise BenchieError(
            f"expected {'/'.join(kinds)}(text,List(...)), found {text[:60]!r}", path=name, line=line
        )
    return m.group(2)


def _openie_line(text: str) -> bool:
    cols = text.split("\t")
    return (
        len(cols) == 6
        and bool(_FLOAT.match(cols[0]))
        and cols[2].startswith(("SimpleArgument(", "SpatialArgument(", "TemporalArgument("))
        and cols[3].startswith("Relation(")
    )


def _detect_openie4(lines: list[str]) -> bool:
    return _all(lines, _openie_line) and not _detect_openie5(lines)


def _detect_openie5(lines: list[str]) -> bool:
    """OpenIE 5 writes ``List(null)`` offsets and several arguments in one column."""
    return _all(lines, _openie_line) and any(
        "List(null)" in line or _ARG_SPLIT.search(line.split("\t")[4]) for line in lines
    )


def _parse_openie(lines: Lines, name: str) -> Iterator[NativeExtraction]:
    """``conf, context, arg1, relation, args, sentence``; the context is dropped."""
    for n, text in lines:
        if not text.strip():
            continue
        cols = text.split("\t")
        if len(cols) != 6:
            raise BenchieError(
                f"{len(cols)} TAB-separated columns, need 6: confidence, context, argument, "
                "relation, arguments, sentence",
                path=name,
                line=n,
            )
        conf = _confidence(cols[0], name, n)
        subject = _part(cols[2], name, n, ("Argument",))
        relation = _part(cols[3], name, n, ("Relation",))
        args = tuple(
            _part(a, name, n, ("Argument",)) for a in _ARG_SPLIT.split(cols[4]) if a.strip()
        )
        yield NativeExtraction(n, cols[5], None, n, subject, relation, args, conf)


# --------------------------------------------------------------------------- ClausIE

_CLAUSIE = re.compile(r'^\d+\t"')


def _clausie_line(text: str) -> bool:
    return bool(_CLAUSIE.match(text))


def _detect_clausie(lines: list[str]) -> bool:
    return (
        len(lines) >= 2
        and "\t" not in lines[0]
        and _all(lines[1:], lambda t: "\t" not in t or _clausie_line(t))
        and any(_clausie_line(t) for t in lines[1:])
    )


def _clausie_one(name: str) -> Callable[[str, int], tuple[str, str, tuple[str, ...], float | None]]:
    def parse(text: str, n: int) -> tuple[str, str, tuple[str, ...], float | None]:
        cols = text.split("\t")
        if len(cols) < 4:
            raise BenchieError(
                'need id, "subject", "relation", ["argument"...], confidence',
                path=name,
                line=n,
            )
        slots = [c[1:-1] if len(c) >= 2 and c[0] == c[-1] == '"' else c for c in cols[1:-1]]
        return slots[0], slots[1], tuple(slots[2:]), _confidence(cols[-1], name, n)

    return parse


def _parse_clausie(lines: Lines, name: str) -> Iterator[NativeExtraction]:
    """A sentence line, then ``id "subj" "rel" ["arg"...] conf`` lines; quotes removed."""
    return _blocks(lines, name, _clausie_line, _clausie_one(name))


# --------------------------------------------------------------------------- PropS

_ROLE = re.compile(r"^[a-z][A-Za-z_]*$")


def _props_line(text: str) -> bool:
    cols = text.split("\t")
    return (
        len(cols) >= 4
        and bool(_DECIMAL.match(cols[0]))
        and " " in cols[1]
        and all(not r or _ROLE.match(r) for r in cols[3::2])
    )


def _detect_props(lines: list[str]) -> bool:
    return _all(lines, _props_line) and any(len(t.split("\t")) >= 5 for t in lines)


def _parse_props(lines: Lines, name: str) -> Iterator[NativeExtraction]:
    """``conf, sentence, relation, role, arg, role, arg...``: the first argument is the
    subject, the others join the object in order; role labels are dropped."""
    for n, text in lines:
        if not text.strip():
            continue
        cols = text.split("\t")
        if len(cols) < 3:
            raise BenchieError(
                "need confidence, sentence, relation, then role/argument pairs", path=name, line=n
            )
        args = cols[4::2]
        subject = args[0] if args else ""
        yield NativeExtraction(
            n, cols[1], None, n, subject, cols[2], tuple(args[1:]), _confidence(cols[0], name, n)
        )


# --------------------------------------------------------------------------- ReVerb

_INT = re.compile(r"^\d+$")


def _reverb_line(text: str) -> bool:
    cols = text.split("\t")
    return (
        len(cols) >= 13
        and bool(_INT.match(cols[1]))
        and all(_INT.match(c) for c in cols[5:11])
        and bool(_FLOAT.match(cols[11]))
    )


def _parse_reverb(lines: Lines, name: str) -> Iterator[NativeExtraction]:
    """ReVerb's documented columns: file, sentence number, arg1, rel, arg2, six offsets,
    confidence, the sentence's tokens, then tags and normalised forms (dropped)."""
    for n, text in lines:
        if not text.strip():
            continue
        cols = text.split("\t")
        if len(cols) < 13:
            raise BenchieError(
                f"{len(cols)} TAB-separated columns, need ReVerb's 13 or more (file, sentence "
                "number, arg1, rel, arg2, six offsets, confidence, sentence tokens, ...)",
                path=name,
                line=n,
            )
        yield NativeExtraction(
            n, cols[12], None, n, cols[2], cols[3], (cols[4],), _confidence(cols[11], name, n)
        )


# --------------------------------------------------------------------------- OLLIE, OpenIE6

#: ``0.886: (arg1; rel; arg2)``, optionally followed by Ollie's ``[enabler=...]`` or
#: ``[attrib=...]``, which are dropped.
_PAREN = re.compile(
    r"^\s*([-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?):\s*\((.*)\)\s*(\[.*\])?\s*$"
)


def _paren_line(text: str) -> bool:
    return bool(_PAREN.match(text))


def _paren_file(lines: list[str]) -> bool:
    """A sentence line first, then ``conf: (...)`` lines among sentence lines, no TAB."""
    return (
        any(map(_paren_line, lines))
        and not _paren_line(lines[0])
        and _all(lines, lambda t: "\t" not in t)
    )


#: OpenIE6 writes a slot, then ``; ``: the separator follows a slot's last character. A
#: ``;`` token inside a slot of its tokenised text has a space before it (``before ; he``).
_OPENIE6_SEP = re.compile(r"(?<! ); ")
#: OpenIE6 writes its confidences with two decimals (``f"{confidence:.02f}"``); OLLIE with
#: up to three (``#.###``), Stanford OpenIE's ``-format ollie`` with three.
_TWO_DECIMALS = re.compile(r"^[-+]?\d+\.\d\d$")


def _imojie_body(body: str) -> bool:
    """IMoJIE's ``( a ; r ; b )``: every separator has a space on both sides."""
    return " ; " in body and not _OPENIE6_SEP.search(body)


def _openie6_signature(lines: list[str]) -> bool:
    """What sets OpenIE6's and IMoJIE's lines apart from OLLIE's (whose syntax is the same):
    IMoJIE's `` ; `` separators, or OpenIE6's two-decimal confidences and no OLLIE
    ``[enabler=...]``/``[attrib=...]``, on every peeked extraction line."""
    matches = [m for m in map(_PAREN.match, lines) if m]
    return bool(matches) and (
        all(_imojie_body(m.group(2)) for m in matches)
        or all(_TWO_DECIMALS.match(m.group(1)) and m.group(3) is None for m in matches)
    )


def _detect_openie6(lines: list[str]) -> bool:
    return _paren_file(lines) and _openie6_signature(lines)


def _ollie_one(name: str) -> Callable[[str, int], tuple[str, str, tuple[str, ...], float | None]]:
    def parse(text: str, n: int) -> tuple[str, str, tuple[str, ...], float | None]:
        m = _PAREN.match(text)
        assert m is not None  # _blocks only hands over lines that match
        parts = m.group(2).split(";")
        if len(parts) < 2:
            raise BenchieError(
                f"need (subject; relation; object), found {m.group(2)[:60]!r}",
                path=name,
                line=n,
            )
        return parts[0], parts[1], tuple(parts[2:]), _confidence(m.group(1), name, n)

    return parse


def _openie6_one(
    name: str,
) -> Callable[[str, int], tuple[str, str, tuple[str, ...], float | None]]:
    def parse(text: str, n: int) -> tuple[str, str, tuple[str, ...], float | None]:
        m = _PAREN.match(text)
        assert m is not None  # _blocks only hands over lines that match
        body = m.group(2)
        parts = _OPENIE6_SEP.split(body) if _OPENIE6_SEP.search(body) else body.split(" ; ")
        if len(parts) < 2:
            raise BenchieError(
                "need (subject; relation; object) as OpenIE6 writes it, or "
                f"(subject ; relation ; object) as IMoJIE does, found {body[:60]!r}",
                path=name,
                line=n,
            )
        return parts[0], parts[1], tuple(parts[2:]), _confidence(m.group(1), name, n)

    return parse


#: OLLIE's tab layout (``--output-format tabbed``): its header row names these columns
#: first, then ``pattern`` and ``dependencies``.
_OLLIE_COLUMNS = ("confidence", "arg1", "rel", "arg2", "enabler", "attribution", "text")


def _ollie_header(text: str) -> bool:
    cols = [c.strip().lower() for c in text.strip().split("\t")]
    return tuple(cols[: len(_OLLIE_COLUMNS)]) == _OLLIE_COLUMNS


def _ollie_tab_line(text: str) -> bool:
    """A row of OLLIE's tab layout: 9 columns as OLLIE writes them (7 when the empty
    ``pattern`` and ``dependencies`` were trimmed), a number, then the sentence's text."""
    cols = text.split("\t")
    return 7 <= len(cols) <= 9 and bool(_FLOAT.match(cols[0].strip())) and " " in cols[6].strip()


def _detect_ollie_tab(lines: list[str]) -> bool:
    rows = lines[1:] if _ollie_header(lines[0]) else lines
    return all(map(_ollie_tab_line, rows)) and (bool(rows) or len(lines) == 1)


def _detect_ollie(lines: list[str]) -> bool:
    """Either of OLLIE's layouts; the paren one unless the lines are OpenIE6's."""
    return _detect_ollie_tab(lines) or (_paren_file(lines) and not _openie6_signature(lines))


def _parse_ollie_tab(lines: Lines, name: str) -> Iterator[NativeExtraction | Skipped]:
    """``confidence, arg1, rel, arg2, enabler, attribution, text[, pattern, dependencies]``;
    a header row (wherever it is: concatenated outputs repeat it) is skipped and said."""
    for n, text in lines:
        if not text.strip():
            continue
        if _ollie_header(text):
            yield Skipped(n, text, "OLLIE's header row, skipped")
            continue
        cols = text.split("\t")
        if not 7 <= len(cols) <= 9:
            raise BenchieError(
                f"{len(cols)} TAB-separated columns, need OLLIE's 7 to 9: confidence, arg1, "
                "rel, arg2, enabler, attribution, text[, pattern, dependencies]",
                path=name,
                line=n,
            )
        conf = _confidence(cols[0], name, n)
        yield NativeExtraction(n, cols[6], None, n, cols[1], cols[2], (cols[3],), conf)


def _parse_ollie(lines: Lines, name: str) -> Iterator[NativeExtraction | Skipped]:
    """OLLIE's layouts, told apart by the first non-blank line: its header row or a tab
    row is the tab layout, anything else the interactive one (a sentence line, then
    ``conf: (arg1; rel; arg2)`` lines)."""
    first, rest = _first_line(lines)
    if _ollie_header(first) or _ollie_tab_line(first):
        return _parse_ollie_tab(rest, name)
    return _blocks(rest, name, _paren_line, _ollie_one(name))


def _parse_openie6(lines: Lines, name: str) -> Iterator[NativeExtraction | Skipped]:
    return _blocks(lines, name, _paren_line, _openie6_one(name))


# --------------------------------------------------------------------------- Stanford


def _stanford_line(text: str) -> bool:
    cols = text.split("\t")
    return len(cols) == 4 and bool(_DECIMAL.match(cols[0]))


def _detect_stanford(lines: list[str]) -> bool:
    return (
        len(lines) >= 2
        and "\t" not in lines[0]
        and _all(lines, lambda t: "\t" not in t or _stanford_line(t))
        and any(_stanford_line(t) for t in lines)
    )


def _stanford_one(
    name: str,
) -> Callable[[str, int], tuple[str, str, tuple[str, ...], float | None]]:
    def parse(text: str, n: int) -> tuple[str, str, tuple[str, ...], float | None]:
        conf, subject, relation, obj = text.split("\t")
        return subject, relation, (obj,), _confidence(conf, name, n)

    return parse


def _parse_stanford(lines: Lines, name: str) -> Iterator[NativeExtraction]:
    """``-format default`` (``conf<TAB>subj<TAB>rel<TAB>obj``), each sentence's text on
    the line before its triples."""
    return _blocks(lines, name, _stanford_line, _stanford_one(name))


# --------------------------------------------------------------------------- CaRB tab


def _carb_line(text: str) -> bool:
    cols = text.split("\t")
    return len(cols) >= 4 and cols[0].count(" ") >= 2 and bool(_FLOAT.match(cols[1]))


def _parse_carb(lines: Lines, name: str) -> Iterator[NativeExtraction]:
    """``sentence, confidence, relation, arg1, arg2...``: the relation comes first."""
    for n, text in lines:
        if not text.strip():
            continue
        cols = text.split("\t")
        if len(cols) < 4:
            raise BenchieError(
                "need sentence, confidence, relation, arg1[, arg2...]", path=name, line=n
            )
        yield NativeExtraction(
            n, cols[0], None, n, cols[3], cols[2], tuple(cols[4:]), _confidence(cols[1], name, n)
        )


# --------------------------------------------------------------------------- allennlp

#: The tags of OpenIE6's tagged extractions: ``<arg1>``, ``<rel>``, ``<arg2>``, and
#: ``<arg3>``... of n-ary ones.
_TAG = re.compile(r"</?(arg[1-9][0-9]*|rel)>")


def _allennlp_line(text: str) -> bool:
    cols = text.strip().split("\t")
    return len(cols) == 3 and bool(_FLOAT.match(cols[2].strip())) and bool(_TAG.search(cols[1]))


def _tagged(tagged: str, name: str, n: int) -> tuple[str, str, tuple[str, ...]]:
    """Subject, relation and arguments of ``<arg1> ... </arg1> <rel> ... </rel> <arg2> ...
    </arg2>``: each the text between the first opening and the first closing tag, as
    OpenIE6's reader takes it (a missing tag: an empty slot); ``<arg3>``... follow
    ``<arg2>`` in their number's order. What that reader would drop unsaid is an error
    here: a tag without its partner, text outside the tags, no tag at all."""
    names = {m.group(1) for m in _TAG.finditer(tagged)}
    if not names & {"arg1", "rel", "arg2"}:
        raise BenchieError(
            "no <arg1>, <rel> or <arg2> tag (OpenIE6's reader skips such a line)",
            path=name,
            line=n,
        )
    slots: dict[str, str] = {}
    outside = tagged
    for tag in sorted(names, key=lambda t: (t == "rel", int(t[3:]) if t != "rel" else 0)):
        start, end = tagged.find(f"<{tag}>"), tagged.find(f"</{tag}>")
        if start < 0 or end < 0:
            raise BenchieError(
                f"<{tag}> without </{tag}>" if end < 0 else f"</{tag}> without <{tag}>",
                path=name,
                line=n,
            )
        if end < start:
            raise BenchieError(f"</{tag}> before <{tag}>", path=name, line=n)
        text = tagged[start + len(tag) + 2 : end]
        if _TAG.search(text):
            raise BenchieError(f"a tag inside <{tag}> ... </{tag}>", path=name, line=n)
        slots[tag] = text
        outside = outside.replace(tagged[start : end + len(tag) + 3], " ", 1)
    if outside.strip():
        raise BenchieError(
            f"text outside the <arg1>, <rel>, <argN> tags (OpenIE6's reader drops it): "
            f"{outside.strip()[:60]!r}",
            path=name,
            line=n,
        )
    more = sorted((t for t in slots if t not in ("arg1", "rel", "arg2")), key=lambda t: int(t[3:]))
    args = (slots.get("arg2", ""), *(slots[t] for t in more))
    return slots.get("arg1", ""), slots.get("rel", ""), args


def _parse_allennlp(lines: Lines, name: str) -> Iterator[NativeExtraction]:
    """``sentence<TAB><arg1> a </arg1> <rel> r </rel> <arg2> b </arg2><TAB>confidence``,
    the lines OpenIE6 writes (``--write_allennlp``) and CaRB's copy in OpenIE6 reads
    (``carb.py --allennlp``)."""
    for n, text in lines:
        if not text.strip():
            continue
        cols = text.strip().split("\t")
        if len(cols) != 3:
            raise BenchieError(
                f"{len(cols)} TAB-separated column(s), need 3: sentence, tagged extraction "
                "(<arg1> ... </arg1> <rel> ... </rel> <arg2> ... </arg2>), confidence",
                path=name,
                line=n,
            )
        subject, relation, args = _tagged(cols[1], name, n)
        conf = _confidence(cols[2], name, n)
        yield NativeExtraction(n, cols[0], None, n, subject, relation, args, conf)


# --------------------------------------------------------------------------- JSONL

_JSON_KEYS = ("subject", "relation", "object", "args", "extractions")


def _json_object(text: str) -> dict[str, object] | None:
    """A line's JSON object, or None (not an object, or not JSON)."""
    if not text.lstrip().startswith("{"):
        return None
    try:
        doc = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    return doc if isinstance(doc, dict) else None


def _reads(parse: Callable[[dict[str, object]], Iterable[object]], doc: dict[str, object]) -> bool:
    """Whether a reader reads ``doc`` without an error (for detection)."""
    try:
        for _ in parse(doc):
            pass
    except BenchieError:
        return False
    return True


def _jsonl_line(text: str) -> bool:
    """An object with one of JSONL's keys, unless only the ``json`` reader reads it (a
    sentence whose ``"extractions"`` are lists, say): that file is ``json``'s."""
    doc = _json_object(text)
    return (
        doc is not None
        and any(k in doc for k in _JSON_KEYS)
        and (_reads(_jsonl_reader, doc) or not _reads(_json_reader, doc))
    )


def _string(doc: dict[str, object], key: str, name: str, n: int) -> str:
    value = doc.get(key)
    if not isinstance(value, str):
        raise BenchieError(f'"{key}" must be a string', path=name, line=n)
    return value


def _json_extraction(
    doc: object, sentence: str | None, sent_id: str | None, name: str, n: int
) -> NativeExtraction:
    if not isinstance(doc, dict):
        raise BenchieError("an extraction must be a JSON object", path=name, line=n)
    relation = _string(doc, "relation", name, n)
    if "args" in doc:
        raw = doc["args"]
        if not isinstance(raw, list) or not all(isinstance(a, str) for a in raw):
            raise BenchieError('"args" must be a list of strings', path=name, line=n)
        args = tuple(raw)
        if "subject" in doc:
            subject = _string(doc, "subject", name, n)
        elif args:
            subject, args = args[0], args[1:]
        else:
            raise BenchieError('"args" is empty and there is no "subject"', path=name, line=n)
    else:
        subject = _string(doc, "subject", name, n)
        args = (_string(doc, "object", name, n),)
    conf = doc.get("confidence")
    if conf is not None:
        if isinstance(conf, bool) or not isinstance(conf, int | float) or not math.isfinite(conf):
            raise BenchieError('"confidence" must be a finite number', path=name, line=n)
        conf = float(conf)
    return NativeExtraction(n, sentence, sent_id, n, subject, relation, args, conf)


def _jsonl_doc(doc: dict[str, object], name: str, n: int) -> Iterator[NativeExtraction]:
    """One JSONL object's extractions: itself, or its ``"extractions"``."""
    sent_id = doc.get("sent_id")
    if isinstance(sent_id, int) and not isinstance(sent_id, bool):
        sent_id = str(sent_id)
    sentence = doc.get("sentence")
    if not isinstance(sent_id, str | None) or not isinstance(sentence, str | None):
        raise BenchieError('"sent_id" and "sentence" must be strings', path=name, line=n)
    if sent_id is None and sentence is None:
        raise BenchieError('needs "sent_id" or "sentence"', path=name, line=n)
    if "extractions" in doc:
        items = doc["extractions"]
        if not isinstance(items, list):
            raise BenchieError('"extractions" must be a list', path=name, line=n)
        for item in items:
            yield _json_extraction(item, sentence, sent_id, name, n)
    else:
        yield _json_extraction(doc, sentence, sent_id, name, n)


def _jsonl_reader(doc: dict[str, object]) -> Iterator[NativeExtraction]:
    return _jsonl_doc(doc, "", 0)


def _parse_jsonl(lines: Lines, name: str) -> Iterator[NativeExtraction]:
    """One object a line: an extraction, or a sentence with ``"extractions"``; each names
    its sentence by ``"sent_id"`` (used as is) or ``"sentence"`` (aligned by text)."""
    for n, doc in json_lines.objects(lines, name):
        try:
            yield from list(_jsonl_doc(doc, name, n))
        except BenchieError as exc:
            if not _reads(_json_reader, doc):
                raise
            raise BenchieError(
                f"{exc.message} (the object is of the json format's shape: --input-format "
                "json reads it)",
                path=name,
                line=n,
            ) from None


# --------------------------------------------------------------------------- JSON

#: A sentence object's text (aligned), in the order the keys are looked for.
_JSON_TEXT = ("sentence", "text", "passage")
#: Its triples: a list of lists ``["s", "r", "o", ...]`` or of objects.
_JSON_LISTS = ("triples", "triplets", "extractions", "relations", "facts", "tuples")
#: Each slot of a triple object by the names datasets and prompts give it.
_JSON_SUBJECT = ("subject", "subj", "sub", "head", "arg1", "s")
_JSON_RELATION = ("relation", "rel", "predicate", "pred", "r", "p")
_JSON_OBJECT = ("object", "obj", "tail", "arg2", "o")
_JSON_CONFIDENCE = ("confidence", "score", "conf")
_JSON_ID_OR_TEXT = ("sent_id", "id", *_JSON_TEXT)
#: ``arg3``, ``arg4``...: further arguments of a triple object that names ``arg1``.
_JSON_ARG_N = re.compile(r"^arg([3-9]|[1-9][0-9]+)$")


def _names(keys: Iterable[str]) -> str:
    return ", ".join(f'"{k}"' for k in keys)


def _kind(value: object) -> str:
    """A JSON value's kind, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "a list" if isinstance(value, list) else "an object"


def _one_of(
    doc: dict[str, object], keys: tuple[str, ...], where: str, name: str, n: int
) -> str | None:
    """The one key of ``keys`` ``doc`` has (None: none); two of them is an error."""
    found = [k for k in keys if k in doc]
    if len(found) > 1:
        raise BenchieError(
            f"{where}{_names(found)} name the same thing: keep one", path=name, line=n
        )
    return found[0] if found else None


def _json_slot(
    doc: dict[str, object], keys: tuple[str, ...], where: str, name: str, n: int
) -> str | None:
    key = _one_of(doc, keys, where, name, n)
    if key is None:
        return None
    value = doc[key]
    if not isinstance(value, str):
        raise BenchieError(
            f'{where}"{key}" must be a string, found {_kind(value)}', path=name, line=n
        )
    return value


def _json_missing(
    doc: dict[str, object], keys: tuple[str, ...], where: str, name: str, n: int
) -> BenchieError:
    return BenchieError(
        f'{where}"{keys[0]}" must be a string: no {_names(keys)} among its keys '
        f"{_names(doc) or '(none)'}",
        path=name,
        line=n,
    )


def _json_confidence(doc: dict[str, object], where: str, name: str, n: int) -> float | None:
    key = _one_of(doc, _JSON_CONFIDENCE, where, name, n)
    if key is None or doc[key] is None:
        return None
    value = doc[key]
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise BenchieError(
            f'{where}"{key}" must be a finite number, found {_kind(value)}', path=name, line=n
        )
    return float(value)


def _json_triple(
    item: object, where: str, name: str, n: int
) -> tuple[str, str, tuple[str, ...], float | None, list[str]]:
    """A triple (list or object): subject, relation, arguments after the relation,
    confidence, and the object's keys it did not read."""
    if isinstance(item, list):
        if len(item) < 2:
            raise BenchieError(
                f"{where}a triple list needs a subject and a relation, found {len(item)} item(s)",
                path=name,
                line=n,
            )
        for i, value in enumerate(item, 1):
            if not isinstance(value, str):
                raise BenchieError(
                    f"{where}item {i} must be a string, found {_kind(value)}", path=name, line=n
                )
        return item[0], item[1], tuple(item[2:]), None, []
    if not isinstance(item, dict):
        raise BenchieError(
            f"{where}a triple is a list [subject, relation, object, ...] or an object, "
            f"found {_kind(item)}",
            path=name,
            line=n,
        )
    relation = _json_slot(item, _JSON_RELATION, where, name, n)
    if relation is None:
        raise _json_missing(item, _JSON_RELATION, where, name, n)
    subject = _json_slot(item, _JSON_SUBJECT, where, name, n)
    obj = _json_slot(item, _JSON_OBJECT, where, name, n)
    read = {*_JSON_SUBJECT, *_JSON_RELATION, *_JSON_OBJECT, *_JSON_CONFIDENCE}
    if "args" in item:
        raw = item["args"]
        if not isinstance(raw, list) or not all(isinstance(a, str) for a in raw):
            raise BenchieError(f'{where}"args" must be a list of strings', path=name, line=n)
        if obj is not None:
            raise BenchieError(
                f'{where}both an object and "args" (the arguments after the relation): '
                'give the object as the first of "args"',
                path=name,
                line=n,
            )
        args = tuple(raw)
        if subject is None:
            if not args:
                raise _json_missing(item, _JSON_SUBJECT, where, name, n)
            subject, args = args[0], args[1:]
        read.add("args")
    else:
        if subject is None:
            raise _json_missing(item, _JSON_SUBJECT, where, name, n)
        if obj is None:
            raise _json_missing(item, _JSON_OBJECT, where, name, n)
        more = sorted((k for k in item if _JSON_ARG_N.match(k)), key=lambda k: int(k[3:]))
        for key in more:
            value = item[key]
            if not isinstance(value, str):
                raise BenchieError(
                    f'{where}"{key}" must be a string, found {_kind(value)}', path=name, line=n
                )
        args = (obj, *(str(item[k]) for k in more))  # each checked a string above
        read.update(more)
    conf = _json_confidence(item, where, name, n)
    return subject, relation, args, conf, [k for k in item if k not in read]


def _json_no_triples(doc: dict[str, object], name: str, n: int) -> BenchieError:
    """The likely cause first: the keys found, and what a key holding something list-like
    or the model's raw text is; then the shapes read."""
    cause = ""
    for key, value in doc.items():
        if key in _JSON_ID_OR_TEXT:
            continue
        if isinstance(value, list) and value and all(isinstance(v, list | dict) for v in value):
            cause = f' (is "{key}" the triple list? name it "triples")'
            break
        if isinstance(value, str) and any(c in value for c in "([;"):
            cause = f' ("{key}" holds text: parse the model\'s answer into JSON triples first)'
            break
    return BenchieError(
        f"no triples key: found {_names(doc) or '(none)'}{cause}; a triple list is one of "
        f'{_names(_JSON_LISTS)}, or the object is one triple ("subject", "relation", '
        '"object", ...: docs/native-formats.md, json)',
        path=name,
        line=n,
    )


def _json_doc(
    doc: object, name: str, n: int, seen: set[str]
) -> Iterator[NativeExtraction | Skipped]:
    """One sentence object's extractions (or the one triple it is); a key read nowhere is
    named once a file (``seen``), never dropped unsaid."""
    if not isinstance(doc, dict):
        raise BenchieError(
            f"a sentence must be a JSON object, found {_kind(doc)}", path=name, line=n
        )
    sent_id = doc.get("sent_id")
    if isinstance(sent_id, int) and not isinstance(sent_id, bool):
        sent_id = str(sent_id)
    if not isinstance(sent_id, str | None):
        raise BenchieError(f'"sent_id" must be a string, found {_kind(sent_id)}', path=name, line=n)
    text_key = _one_of(doc, _JSON_TEXT, "", name, n)
    sentence = doc[text_key] if text_key is not None else None
    if not isinstance(sentence, str | None):
        raise BenchieError(
            f'"{text_key}" must be a string, found {_kind(sentence)}', path=name, line=n
        )
    read = {"sent_id", *([text_key] if text_key else [])}
    if sent_id is None and sentence is None and "id" in doc:  # another id scheme otherwise
        given = doc["id"]
        if isinstance(given, int) and not isinstance(given, bool):
            given = str(given)
        if not isinstance(given, str):
            raise BenchieError(f'"id" must be a string, found {_kind(given)}', path=name, line=n)
        sent_id = given
        read.add("id")
    if sent_id is None and sentence is None:
        raise BenchieError(
            f"no sentence: found {_names(doc) or '(none)'}; a sentence object names its text "
            f'{_names(_JSON_TEXT)} or its gold id "sent_id" (or "id")',
            path=name,
            line=n,
        )
    list_key = _one_of(doc, _JSON_LISTS, "", name, n)
    unread: list[str] = []
    if list_key is not None:
        items = doc[list_key]
        if not isinstance(items, list):
            hint = (
                " (the model's raw answer? parse it into triples first)"
                if isinstance(items, str)
                else ""
            )
            raise BenchieError(
                f'"{list_key}" must be a list of triples, found {_kind(items)}{hint}',
                path=name,
                line=n,
            )
        read.add(list_key)
        unread.extend(k for k in doc if k not in read)
        for i, item in enumerate(items, 1):
            where = f'triple {i} of "{list_key}": '
            subject, relation, args, conf, rest = _json_triple(item, where, name, n)
            unread.extend(rest)
            yield NativeExtraction(n, sentence, sent_id, n, subject, relation, args, conf)
    elif any(k in doc for k in _JSON_RELATION):  # the object is one triple
        subject, relation, args, conf, rest = _json_triple(doc, "", name, n)
        unread.extend(k for k in rest if k not in read)
        yield NativeExtraction(n, sentence, sent_id, n, subject, relation, args, conf)
    else:
        raise _json_no_triples(doc, name, n)
    for key in dict.fromkeys(unread):
        if key not in seen:
            seen.add(key)
            yield Skipped(n, key, "a key the json reader does not read, first here")


def _json_reader(doc: dict[str, object]) -> Iterator[NativeExtraction | Skipped]:
    return _json_doc(doc, "", 0, set())


def _no_constant(text: str) -> object:
    raise ValueError(f"{text} is not JSON")


def _json_array(lines: Lines, name: str) -> Iterator[NativeExtraction | Skipped]:
    """One JSON array of sentence objects, over any number of lines: read whole (within
    :data:`~benchie_cli.textio.MAX_WHOLE_BYTES`), each object named by the line it starts
    on."""
    import bisect
    import json

    texts: list[str] = []
    first = 0
    size = 0
    for n, text in lines:
        if not texts:
            first = n
        texts.append(text)
        size += len(text.encode()) + 1
        if size > MAX_WHOLE_BYTES:
            raise BenchieError(
                f"a JSON array larger than {MAX_WHOLE_BYTES >> 20} MiB: write one sentence "
                "object a line (JSON Lines), which is read as it streams",
                path=name,
                line=n,
            )
    doc = "\n".join(texts)
    starts = list(itertools.accumulate((len(t) + 1 for t in texts[:-1]), initial=0))

    def line(pos: int) -> int:
        return first + bisect.bisect_right(starts, pos) - 1

    decoder = json.JSONDecoder(
        parse_constant=_no_constant, object_pairs_hook=json_lines.unique_pairs
    )
    space = re.compile(r"[ \t\r\n]*")

    def skip(pos: int) -> int:
        m = space.match(doc, pos)
        return m.end() if m else pos

    pos = skip(0)
    if doc[pos : pos + 1] != "[":
        raise BenchieError("not a JSON array", path=name, line=line(pos))
    pos = skip(pos + 1)
    seen: set[str] = set()
    index = 0
    while doc[pos : pos + 1] != "]":
        if index:
            if doc[pos : pos + 1] != ",":
                raise BenchieError(
                    "not valid JSON: expected ',' or ']' after an array element",
                    path=name,
                    line=line(pos),
                )
            pos = skip(pos + 1)
        index += 1
        try:
            item, end = decoder.raw_decode(doc, pos)
        except json.JSONDecodeError as exc:
            raise BenchieError(
                f"not valid JSON: {exc.msg}", path=name, line=line(exc.pos)
            ) from None
        except json_lines.RepeatedKey as exc:  # (at the object's first line)
            raise json_lines.repeated_key_error(exc.key, name, line(pos)) from None
        except RecursionError:
            raise BenchieError(
                "not valid JSON here: nested deeper than the JSON decoder goes (a thousand "
                "levels or more); a sentence object holds a list of triples, not nested lists",
                path=name,
                line=line(pos),
            ) from None
        except ValueError as exc:  # NaN, Infinity
            raise BenchieError(f"not valid JSON: {exc}", path=name, line=line(pos)) from None
        yield from _json_doc(item, name, line(pos), seen)
        pos = skip(end)
        if pos >= len(doc):
            raise BenchieError(
                "not valid JSON: the array is not closed ']'", path=name, line=line(pos)
            )
    end = skip(pos + 1)
    if end < len(doc):
        raise BenchieError(
            "not valid JSON: text after the array's closing ']'", path=name, line=line(end)
        )


def _parse_json(lines: Lines, name: str) -> Iterator[NativeExtraction | Skipped]:
    """A JSON array of sentence objects (a document over any number of lines), or one
    sentence object a line; told apart by the first non-blank character, ``[`` or ``{``."""
    first, rest = _first_line(lines)
    if first.lstrip().startswith("["):
        return _json_array(rest, name)
    return _json_lines(rest, name)


def _json_lines(lines: Lines, name: str) -> Iterator[NativeExtraction | Skipped]:
    seen: set[str] = set()
    for n, text in lines:
        if not text.strip():
            continue
        try:
            doc = orjson.loads(text)
        except orjson.JSONDecodeError as exc:
            stripped = text.strip()
            hint = ""
            if not stripped.startswith(("{", "[")):
                hint = " (is it another format? --input-format auto detects it)"
            elif not stripped.endswith(("}", "]")):
                hint = (
                    " (an object over several lines? write one object a line, or one array "
                    "[...] of them)"
                )
            raise BenchieError(f"not valid JSON: {exc}{hint}", path=name, line=n) from None
        key = json_lines.repeated_key(text, doc)
        if key is not None:
            raise json_lines.repeated_key_error(key, name, n)
        yield from _json_doc(doc, name, n, seen)


def _detect_json(lines: list[str]) -> bool:
    """A JSON array's first line (``[`` then an object or nothing), or JSON objects a line
    (JSONL's own, which it detects first, aside)."""
    first = lines[0].lstrip()
    if first.startswith("["):
        return first[1:].lstrip()[:1] in ("", "{", "]")
    return _all(lines, lambda t: _json_object(t) is not None)


# --------------------------------------------------------------------------- registry


def _parse_llm_text(lines: Lines, name: str) -> Iterator[NativeExtraction | Unparsed]:
    """An LLM's answers by the rules of ``llm-text@1`` (:mod:`benchie_cli.inputs.llm_text`):
    each triple an extraction without a confidence, each fragment no rule reads a finding."""
    from benchie_cli.inputs import llm_text

    for answer in llm_text.read(lines, name):
        for t in answer.triples:
            yield NativeExtraction(  # the text, when given, names the sentence (as in json)
                t.line,
                answer.sentence,
                answer.sent_id if answer.sentence is None else None,
                answer.line,
                t.subject,
                t.relation,
                (t.object,),
                None,
            )
        for u in answer.unparsed:
            yield Unparsed(u.line, u.fragment, u.reason)


def _detect_llm_text(lines: list[str]) -> bool:
    # llm_text.detect refuses lines whose first is no JSON object: a TSV file, the usual
    # case, is told so without loading the rules (their module and patterns: ~3 ms a run).
    if not lines or not lines[0].lstrip().startswith("{"):
        return False
    from benchie_cli.inputs import llm_text

    return llm_text.detect(lines)


#: Every native format, in detection order (the most specific predicates first).
REGISTRY: dict[str, NativeFormat] = {
    f.name: f
    for f in (
        NativeFormat(
            "llm-text",
            "LLM answers by the llm-text@1 rules",
            False,
            _detect_llm_text,
            _parse_llm_text,
        ),
        NativeFormat("jsonl", "JSON Lines", None, lambda ls: _all(ls, _jsonl_line), _parse_jsonl),
        NativeFormat("json", "JSON", None, _detect_json, _parse_json),
        NativeFormat(
            "allennlp",
            "OpenIE6 tagged (allennlp)",
            True,
            lambda ls: _all(ls, _allennlp_line),
            _parse_allennlp,
        ),
        NativeFormat("openie5", "OpenIE 5", True, _detect_openie5, _parse_openie),
        NativeFormat("openie4", "OpenIE 4", True, _detect_openie4, _parse_openie),
        NativeFormat(
            "reverb",
            "ReVerb",
            True,
            lambda ls: _all(ls, _reverb_line),
            _parse_reverb,
            "its lines are read by their own sentence text (ReVerb's 13th column), not by "
            "their sentence number, which names a line of the input ReVerb ran on: this "
            "scorer has no ReVerb reader (oie2016's and CaRB's do, and read the number)",
        ),
        NativeFormat("clausie", "ClausIE", True, _detect_clausie, _parse_clausie),
        NativeFormat("props", "PropS", True, _detect_props, _parse_props),
        NativeFormat("ollie", "Ollie", True, _detect_ollie, _parse_ollie),
        NativeFormat("openie6", "OpenIE6 / IMoJIE", True, _detect_openie6, _parse_openie6),
        NativeFormat("stanford", "Stanford OpenIE", True, _detect_stanford, _parse_stanford),
        NativeFormat("carb", "CaRB tab", True, lambda ls: _all(ls, _carb_line), _parse_carb),
    )
}

if tuple(REGISTRY) != NATIVE_FORMATS:  # the option's choices must name exactly these readers
    raise AssertionError(f"formats.NATIVE_FORMATS is not {tuple(REGISTRY)}")


def detect(path: str) -> str:
    """The format of ``path`` by its first lines: a name in :data:`REGISTRY`, else
    ``benchie``. A pipe must be spooled first (this reads its start)."""
    return detect_head(peek_lines(path, PEEK_BYTES))


def detect_bytes(data: bytes) -> str:
    """:func:`detect` of a file's bytes already read (decompressed, from standard input)."""
    return detect_head(head_lines(data, PEEK_BYTES))


def detect_head(head: list[bytes]) -> str:
    """The format of a file by its first lines (:func:`benchie_cli.textio.peek_lines`)."""
    lines: list[str] = []
    for i, raw in enumerate(head):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            # A line longer than the peek (a JSON array on one line) is cut, maybe inside a
            # character: its start is still its start. Any other bad byte: the submission
            # reader names it.
            if i < len(head) - 1 or exc.reason != "unexpected end of data":
                return BENCHIE_TSV
            text = raw[: exc.start].decode("utf-8")
        if text.strip():
            lines.append(text)
            if len(lines) == PEEK_LINES:
                break
    if not lines or lines[0].startswith("#benchie-tsv"):
        return BENCHIE_TSV
    for fmt in REGISTRY.values():
        if fmt.detect(lines):
            return fmt.name
    # One line that fits no format (a typo: '0,9' for a confidence) must not make a native
    # file read as BenchIE TSV, whose reader would blame its sentence ids: the format is
    # the one every other line fits, whose reader then names the line.
    if len(lines) >= 3:
        half = len(lines) // 2
        for fmt in REGISTRY.values():
            # A format neither half fits has an odd line in each: no one line is the typo
            # (and a BenchIE TSV file, the usual case, costs two calls a format, not 20).
            if not (fmt.detect(lines[:half]) or fmt.detect(lines[half:])):
                continue
            if any(fmt.detect(lines[:i] + lines[i + 1 :]) for i in range(len(lines))):
                return fmt.name
    return BENCHIE_TSV


# --------------------------------------------------------------------------- conversion


@dataclass(slots=True)
class Conversion:
    """What converting one native file did; ``sha256`` is that of the native file's bytes."""

    format: str
    sha256: str
    lines: int
    extractions: int
    written: int
    confidence: bool
    alignment: AlignmentStats
    #: Lines the reader skipped on purpose (OLLIE's header row), each said by
    #: :func:`summary` and listed by ``convert --report``.
    skipped: list[Skipped] = field(default_factory=list)
    #: Fragments of an LLM's answers no rule read (``llm-text``): findings.
    unparsed: list[Unparsed] = field(default_factory=list)


def _slot(text: str) -> str:
    """A slot as BenchIE TSV holds it: whitespace runs (TABs, newlines) as single spaces."""
    return " ".join(text.split())


def convert(
    path: str,
    fmt: str,
    gold_sentences: dict[str, str],
    out: BinaryIO,
    *,
    confidence: bool,
    pad: bool,
    lang: str | None = None,
) -> Conversion:
    """Write ``path`` (native format ``fmt``) to ``out`` as BenchIE TSV, streaming.

    Extractions whose sentence aligns to no single gold sentence are left out and reported
    in the result's alignment statistics. ``confidence`` writes the
    :data:`CONFIDENCE_DIRECTIVE` and a last confidence column, when the format has them.
    ``pad`` writes a blank line for every native line that holds no extraction, so that an
    extraction keeps its native line number in every later diagnostic and report (blank
    lines never change a score). Two things shift the lines after them, up to the next
    line without a kept extraction: the directive, when the native file's first line is a
    kept extraction, and a JSONL sentence object with several extractions.
    """
    head: list[bytes] = []  # (the first lines read: a curve file is named as the cause)
    with curve_named(head):
        name = display_name(path)
        native = REGISTRY[fmt]
        digest = hashlib.sha256()
        facts = [0, 0]  # lines, non-blank lines

        def decoded() -> Iterator[tuple[int, str]]:
            for n, raw, _ in iter_lines(path, digest):
                if n <= 2:
                    head.append(raw)
                facts[0] = n
                facts[1] += bool(raw.strip())
                yield n, decode_line(raw, name, n)

        aligner = Aligner(gold_sentences)
        buffer: list[bytes] = []
        written_lines = 0
        extractions = written = 0
        # None: the first extraction decides (JSONL, whose confidences are optional).
        with_conf = (
            None
            if confidence and native.confidence is None
            else bool(confidence and native.confidence)
        )
        if with_conf:
            buffer.append(CONFIDENCE_DIRECTIVE.encode() + b"\n")
            written_lines += 1
        optional = with_conf is None  # the file's first extraction decides, the others follow
        skipped: list[Skipped] = []
        unparsed: list[Unparsed] = []
        for ex in sorted_out(native.parse(decoded(), name), skipped, unparsed):
            extractions += 1
            if with_conf is None:
                with_conf = ex.confidence is not None
                if with_conf:
                    buffer.append(CONFIDENCE_DIRECTIVE.encode() + b"\n")
                    written_lines += 1
            if with_conf and ex.confidence is None:
                raise BenchieError(
                    "no confidence, while the first extraction had one: give every extraction "
                    "one, or none",
                    path=name,
                    line=ex.line,
                )
            if optional and not with_conf and ex.confidence is not None:  # never dropped silently
                raise BenchieError(
                    "a confidence, while the first extraction had none: give every extraction "
                    "one, or none",
                    path=name,
                    line=ex.line,
                )
            if ex.sent_id is not None:
                # The id as written, and so as scored (" 1 " is sentence 1): the summary's
                # counts must be of the sentences the scores are of. An id names its gold
                # sentence, aligned as surely as by text: counted once, if the gold has it.
                sent_id: str | None = _slot(ex.sent_id)
                if sent_id in gold_sentences and sent_id not in aligner.covered:
                    aligner.stats.aligned_sentences += 1
            else:
                assert ex.sentence is not None  # every parser names the sentence one way
                sent_id = aligner.sent_id(ex.sentence, ex.sentence_line)
            if sent_id is None:
                aligner.stats.dropped_extractions += 1
                continue
            aligner.covered.add(sent_id)
            fields = [
                _slot(sent_id),
                _slot(ex.subject),
                _slot(ex.relation),
                _slot(" ".join(ex.args)),
            ]
            if any("\x00" in f for f in fields):  # JSON can carry one; BenchIE TSV refuses it
                raise BenchieError("NUL character in an extraction", path=name, line=ex.line)
            if with_conf:
                fields.append(repr(ex.confidence))
            if pad and written_lines < ex.line - 1:
                buffer.append(b"\n" * (ex.line - 1 - written_lines))
                written_lines = ex.line - 1
            buffer.append("\t".join(fields).encode() + b"\n")
            written_lines += 1
            written += 1
            if len(buffer) >= 4096:
                out.write(b"".join(buffer))
                buffer.clear()
        if pad and written_lines < facts[0]:  # so that a report's line count is the file's
            buffer.append(b"\n" * (facts[0] - written_lines))
        stats = aligner.finish()
        # What would otherwise be a silent 0.0 for every command that converts: a file that
        # does not read as the format at all, or whose sentences are none of the gold's.
        if facts[1] and not extractions and unparsed:  # the answers' own words say why
            from benchie_cli.inputs.llm_text import NAME

            first = unparsed[0]
            raise BenchieError(
                f"no triple read: {len(unparsed):,} fragment(s) of its answers no {NAME} rule "
                f"reads as a triple (first: {first.reason}: {first.text[:60]!r}; "
                "docs/llm-text.md says what each rule reads)",
                path=name,
                line=first.line,
            )
        if facts[1] and not extractions and native.confidence is False:  # answers, all empty
            raise BenchieError(
                f"no triple read: every answer is empty or says there is nothing to extract "
                f"(read as {native.title})",
                path=name,
            )
        if facts[1] and not extractions:
            raise BenchieError(
                f"no line reads as {native.title} output: is it another format? "
                "(--input-format auto detects it)",
                path=name,
            )
        if extractions and not written and (stats.unaligned or stats.ambiguous):
            raise BenchieError(
                f"none of its sentences is a gold sentence{f' of --lang {lang}' if lang else ''}: "
                "the wrong --lang, or output for another benchmark? (`benchie sentences` lists "
                "the gold's; "
                + (
                    "`benchie score --suite FILE` scores it on every benchmark, `--benchmark NAME` "
                    "on one)"
                    if fmt in CARB_READ  # (what the suite reads)
                    else "`--benchmark NAME` scores it on another benchmark)"
                ),
                path=name,
            )
        out.write(b"".join(buffer))
        return Conversion(
            fmt,
            digest.hexdigest(),
            facts[0],
            extractions,
            written,
            bool(with_conf),
            stats,
            skipped,
            unparsed,
        )


def convert_in_place(
    path: str, fmt: str, gold_sentences: dict[str, str], lang: str | None = None
) -> Conversion:
    """Convert ``path`` and let every later read of it see the BenchIE TSV (line numbers
    kept, see :func:`convert`), with its confidences when the format has them, while
    reports name the path and the native bytes' sha256."""
    import io

    from benchie_cli.textio import in_memory, stand_in, temporary_file

    # kept open for the run by stand_in; in memory when the input is (the API's predictions)
    copy: BinaryIO = io.BytesIO() if in_memory(path) else temporary_file()
    try:
        result = convert(path, fmt, gold_sentences, copy, confidence=True, pad=True, lang=lang)
        copy.flush()
    except BaseException:
        copy.close()
        raise
    stand_in(path, copy, result.sha256)
    return result


def skipped_notes(result: Conversion, name: str) -> list[str]:
    """Every line the reader skipped on purpose, as a ``PATH:LINE: note:`` line."""
    return [f"{name}:{k.line}: note: {k.reason}: {k.text[:80]!r}" for k in result.skipped]


def unparsed_warnings(unparsed: list[Unparsed], name: str, *, shown: int = 5) -> list[str]:
    """The fragments of an LLM's answers no rule read: their count with the rules' version,
    then the first ``shown`` as ``PATH:LINE: warning:`` lines."""
    if not unparsed:
        return []
    from benchie_cli.inputs.llm_text import NAME

    lines = [
        f"{name}: warning: {len(unparsed):,} fragment(s) of its answers no {NAME} rule reads "
        "as a triple, left out (an error under --strict; docs/llm-text.md)"
    ]
    lines += [f"{name}:{u.line}: warning: {u.reason}: {u.text[:80]!r}" for u in unparsed[:shown]]
    if len(unparsed) > shown:
        lines.append(f"{name}: note: {len(unparsed) - shown:,} more such fragment(s)")
    return lines


def unparsed_json(unparsed: list[Unparsed], *, kept: int = 5) -> dict[str, object]:
    """What a report records of them: the rules' version, the count, the first ``kept``."""
    from benchie_cli.inputs.llm_text import NAME

    return {
        "rules": NAME,
        "fragments": len(unparsed),
        "first": [
            {"line": u.line, "fragment": u.text, "reason": u.reason} for u in unparsed[:kept]
        ],
    }


def summary(result: Conversion, name: str, *, shown: int = 5) -> list[str]:
    """The statistics as stderr lines: counts, every line the reader skipped on purpose
    (``PATH:LINE: note:``), then the first ``shown`` unaligned and every ambiguous sentence
    as ``PATH:LINE: warning:`` lines (``convert --report`` lists all)."""
    a = result.alignment
    total = len(a.gold_without_extraction)
    lines = [
        f"{name}: read as {REGISTRY[result.format].title} ({result.format}): "
        f"{result.extractions} extraction(s), {result.written} kept on "
        f"{a.aligned_sentences} aligned sentence(s); {len(a.unaligned)} sentence(s) align "
        f"to no gold sentence and {len(a.ambiguous)} ambiguously (their "
        f"{a.dropped_extractions} extraction(s) left out); {total} gold sentence(s) "
        "without extraction"
    ]
    lines += skipped_notes(result, name)
    lines += unparsed_warnings(result.unparsed, name, shown=shown)
    for s in a.unaligned[:shown]:
        lines.append(f"{name}:{s.line}: warning: no gold sentence: {s.text[:80]!r}")
    if len(a.unaligned) > shown:
        lines.append(f"{name}: note: {len(a.unaligned) - shown} more unaligned sentence(s)")
    for s in a.ambiguous:
        lines.append(
            f"{name}:{s.line}: warning: ambiguous: gold sentences {', '.join(s.candidates)} "
            f"have the same text; left out: {s.text[:80]!r}"
        )
    return lines


def prepare(
    path: str,
    input_format: str,
    gold_sentences: Callable[[], dict[str, str]],
    lang: str | None = None,
) -> Conversion | None:
    """Make ``path`` readable as BenchIE TSV for the commands that take ``--input-format``:
    None for a BenchIE TSV file (read as it always was), else the conversion now standing
    in for it. ``auto`` peeks at the first lines (a pipe is spooled first, so that the
    peek does not consume it); ``gold_sentences`` is called only for a native file."""
    from benchie_cli.textio import spool

    if input_format == BENCHIE_TSV:
        return None
    if input_format == "auto":
        spool(path)
        input_format = detect(path)
        if input_format == BENCHIE_TSV:
            return None
    return convert_in_place(path, input_format, gold_sentences(), lang)


def unparsed_diagnostics(conversion: Conversion, name: str) -> list[Diagnostic]:
    """``validate``'s findings about an LLM's answers: every fragment no rule reads."""
    from benchie_cli.inputs.llm_text import NAME

    return [
        Diagnostic(
            name,
            u.line,
            "warning",
            "unparsed-fragment",
            f"no {NAME} rule reads it as a triple ({u.reason}); score leaves it out: "
            f"{quote(u.text)}",
        )
        for u in conversion.unparsed
    ]


def alignment_diagnostics(conversion: Conversion, name: str) -> list[Diagnostic]:
    """``validate``'s findings about alignment: every input sentence that aligns to no gold
    sentence, or to several, at the line where its text is."""
    a = conversion.alignment
    found = [
        Diagnostic(
            name,
            s.line,
            "warning",
            "unaligned-sentence",
            f"sentence matches no gold sentence; its extractions are left out: {quote(s.text)}",
        )
        for s in a.unaligned
    ]
    found += [
        Diagnostic(
            name,
            s.line,
            "warning",
            "ambiguous-sentence",
            f"sentence matches gold sentences {', '.join(s.candidates)} alike; its "
            f"extractions are left out: {quote(s.text)}",
        )
        for s in a.ambiguous
    ]
    return found
