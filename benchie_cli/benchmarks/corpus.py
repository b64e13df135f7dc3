"""``score --benchmark oie2016|reoie2016|wire57``: the other benchmarks papers report, each
scored exactly as its original scorer scores it (docs/oie2016.md, docs/reoie2016.md,
docs/wire57.md), against its own gold in the store, with one report shape.

Each benchmark's package (``benchie_cli/benchmarks/<name>/benchmark.py``, the module its
registry entry names) holds its :class:`CorpusEntry` as ``CORPUS``: how its gold is read,
which input formats its submissions come in, how one file is scored. The
gold's bytes are read once, hashed and checked against the version's manifest
(:meth:`GoldStore.listed`), and parsed from those bytes; so is each submission. A
submission none of whose sentences is the split's is refused (exit 2): the original scorer
would print a number for it, of nothing.

Reports name the benchmark, split, metric, version and the gold's sha256 (OIE2016's split
``all`` is dev, train and test concatenated as upstream's ``all.oie``: its sha256 is that of
the concatenation, which equals upstream's file). Each system has an object keyed by the
metric with the original's numbers, unrounded, and is ranked by its F1.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import repeat
from pathlib import Path
from typing import Any

import orjson

from benchie_cli import REPORT_SCHEMA, __version__
from benchie_cli.benchmarks.runner import (
    ORIGINAL_FIX,
    SINGLE_THRESHOLD,
    Hooks,
    Outcome,
    Request,
    Row,
    Sentences,
    SuiteInput,
    as_reported,
    check_gold_file_alone,
    check_language,
    check_pinned,
    check_split,
    check_split_shape,
    each_submission,
    expected_prefix,
    none_of_its,
    recorded_input,
    refuse_benchie_options_of,
    retokenize_refused,
    single_threshold_notes,
    subset_given,
)
from benchie_cli.curves import Curve
from benchie_cli.errors import BenchieError, ExitCode, printable_path
from benchie_cli.gc_pause import no_cyclic_gc
from benchie_cli.gold.dirs import GoldDirs, resolve
from benchie_cli.gold.external import missing_message, part_for
from benchie_cli.gold.store import (
    GoldStore,
    ResolvedGold,
    is_version,
    resolve_gold_file,
    version_key,
)
from benchie_cli.inputs.batch import Failure, Submission, check_stdin_once
from benchie_cli.inputs.findings import curve_named
from benchie_cli.inputs.formats import BENCHIE_TSV, CARB_READ, OPENIE_FORMATS, VERSIONS, signed
from benchie_cli.inputs.native_layouts import read_by_original
from benchie_cli.inputs.submission import FileFacts
from benchie_cli.inputs.subset import Subset, SubsetFile, choose, read_subset
from benchie_cli.outputs import check_output
from benchie_cli.records import Record
from benchie_cli.registry import BENCHMARKS, METRICS, implementation
from benchie_cli.tables import render
from benchie_cli.textio import (
    check_line_lengths,
    decode_text,
    display_name,
    gunzip,
    head_lines,
    read_whole,
    refuse_other_encoding,
    split_text_lines,
    without_bom,
)

#: One extraction as the tab formats hold it, for :func:`score_texts` (the suite).
TextExtractions = Mapping[str, Sequence[tuple[str, tuple[str, ...], float]]]


class Corpus(Record):
    """A benchmark's gold for one version and split, read and checked."""

    benchmark: str
    version: str
    split: str
    #: The gold files, in the order they are read (OIE2016's ``all``: dev, train, test).
    files: tuple[ResolvedGold, ...]
    #: The parsed gold (each benchmark's own model).
    gold: Any
    #: OIE2016's input sentences (ReVerb's output numbers them), else empty.
    sentences: tuple[str, ...] = ()
    #: The language of its sentences.
    language: str = "en"
    #: Its store's directory under the gold directory, as a report names its files (""
    #: the benchmark's ``store_dir``; a part of published files has one of its own).
    where: str = ""
    #: The sentences ``--sentences`` chose (:func:`restricted`): ``gold`` holds those
    #: alone, and the systems' extractions of other sentences are not scored.
    subset: Subset | None = None

    @property
    def metric(self) -> str:
        return BENCHMARKS[self.benchmark].metrics[0]

    @property
    def sha256(self) -> str:
        """The sha256 of the gold's bytes: the file's, or that of the files concatenated."""
        if len(self.files) == 1:
            return self.files[0].sha256
        digest = hashlib.sha256()
        for f in self.files:
            digest.update(f.data)
        return digest.hexdigest()

    @property
    def inputs(self) -> list[Path]:
        return [p for f in self.files for p in f.inputs]


Loader = Callable[[GoldStore, str, str], Corpus]


class Run(Record):
    """One system scored: its file and the metric's numbers (``precision``, ``recall``,
    ``f1``, and ``auc`` for a curve)."""

    name: str
    facts: FileFacts
    numbers: dict[str, Any]
    #: Sentences of the file that are not the split's: the original ignores them.
    outside: int = 0
    #: (gold sentences with output, gold sentences).
    coverage: tuple[int, int] = (0, 0)
    #: What the original does silently that the user must know (said on stderr).
    warnings: tuple[str, ...] = ()
    #: The format the file was read as.
    read_as: str = ""
    #: The metric's precision-recall curve (None: its metric draws none).
    curve: Curve | None = None


#: A run with output for fewer of the split's gold sentences than this share is said on
#: stderr: the file was probably run on another split's or benchmark's sentences.
LOW_COVERAGE = 0.5

# --------------------------------------------------------------------------- the store


def store(
    root: GoldDirs, benchmark: str, language: str = "en", split: str | None = None
) -> GoldStore:
    """The part of the gold stores ``root`` that holds ``benchmark``'s gold of
    ``language`` and ``split``: a part of its published files a user added, or its store."""
    e = part_for(benchmark, language, split or BENCHMARKS[benchmark].splits[0])
    if e is not None:
        return e.store(root)
    return GoldStore(root / BENCHMARKS[benchmark].store_dir, benchmark=benchmark)


def missing(benchmark: str, language: str = "en", split: str | None = None) -> str:
    """Why a benchmark's gold is absent, and how to get it."""
    if BENCHMARKS[benchmark].published and (BENCHMARKS[benchmark].external or language != "en"):
        return missing_message(benchmark, language, split)
    return (
        f"no {BENCHMARKS[benchmark].label} gold in the store: get it with `dvc pull` in a "
        "checkout, or point --gold-dir at a gold directory that has it"
    )


def latest_version(gold: GoldStore) -> str:
    """The newest released version, the default of ``--gold-version``."""
    versions = gold.versions()
    released = [v for v in versions if gold.manifest(v).released]
    return max(released or versions, key=version_key)


def load(
    root: GoldDirs, benchmark: str, version: str | None, split: str, language: str = "en"
) -> Corpus:
    """The benchmark's gold of ``version`` (default: the latest), ``split`` and
    ``language``."""
    gold_store = store(root, benchmark, language, split)
    for layer in gold_store.layers:
        if os.path.lexists(layer) and not layer.is_dir():
            again = (
                "add the published files again" if BENCHMARKS[benchmark].published else "pull it"
            )
            raise BenchieError(
                "not a directory, where the gold store keeps this gold's versions: remove it, "
                f"then {again}",
                path=display_name(str(layer)),
            )
    if not gold_store.versions():
        raise BenchieError(f"{missing(benchmark, language, split)}; looked in {root.where()}")
    version = version or latest_version(gold_store)
    if not is_version(version):
        raise BenchieError(f"--gold-version: {version!r} is not a version (MAJOR.MINOR.PATCH)")
    corpus = entry(benchmark).load(gold_store, version, split)
    return corpus._replace(language=language, where=gold_store.relative)


# --------------------------------------------------------------------------- reading


def present(root: GoldDirs, benchmark: str, language: str = "en", split: str | None = None) -> bool:
    """Whether the stores have some version of the benchmark's gold of ``language`` and
    ``split`` (default: its first; the suite skips one without)."""
    return bool(store(root, benchmark, language, split).versions())


_LOCATED = re.compile(r"(.+?):(\d+): (.*)", re.DOTALL)


def located(exc: Exception) -> BenchieError:
    """A reader's ``PATH:LINE: message`` (or ``PATH: message``) as a :class:`BenchieError`."""
    text = str(exc)
    m = _LOCATED.fullmatch(text)
    if m:
        return BenchieError(m.group(3), path=m.group(1), line=int(m.group(2)))
    path, sep, message = text.partition(": ")
    return BenchieError(message, path=path) if sep else BenchieError(text)


GZIP = b"\x1f\x8b"


def read_submission(path: str) -> tuple[FileFacts, bytes]:
    """A submission's bytes, read once and bounded (``-``: standard input), and their facts;
    a gzip-compressed file is decompressed, within the same bound."""
    shown = display_name(path)
    data = read_whole(path, what="submission")
    # (the name as reports hold it: one that is not UTF-8 escaped, as everywhere else)
    facts = FileFacts(printable_path(path), hashlib.sha256(data).hexdigest())
    if data.startswith(GZIP):
        data = gunzip(data, shown)
    refuse_other_encoding(data, shown)  # (every reader would fail on it, each its own way)
    check_line_lengths(data, shown)
    return facts, without_bom(data)


def none_known(shown: str, corpus: Corpus, count: int) -> BenchieError:
    if corpus.subset is not None:
        return BenchieError(
            f"none of its {count:,} sentence(s) is one of the {corpus.subset.size:,} sentences "
            f"of {corpus.subset.file.shown} (--sentences): nothing to score",
            path=shown,
        )
    b = BENCHMARKS[corpus.benchmark]
    several = len(b.languages) > 1
    of = f"{b.label}'s {corpus.split} split" + (f" ({corpus.language})" if several else "")
    other = "another language (--lang), split (--split)" if several else "another split (--split)"
    return BenchieError(
        f"none of its {count:,} sentence(s) is a sentence of {of}: {other}, format "
        "(--input-format) or file",
        path=shown,
    )


def nothing(shown: str) -> BenchieError:
    return BenchieError(
        "no extraction read: an empty file, or another format (--input-format)", path=shown
    )


def carb_texts(
    data: bytes, shown: str, fmt: str
) -> dict[str, list[tuple[str, tuple[str, ...], float]]]:
    """The file read by CaRB's reader of its format: extractions by sentence text."""
    from benchie_cli.benchmarks.carb.data import READERS, text_lines

    read = READERS[CARB_READ[fmt]](text_lines(decode_text(data, shown)), shown)
    return {t: [(x.pred, x.args, x.confidence) for x in xs] for t, xs in read.items()}


#: The confidence of an extraction whose format has none (an LLM's answer, JSON without
#: one): one value for all, so that the curve has a single threshold, as a scorer's curve of
#: a file whose extractions all have one confidence (docs/llm-text.md).
NO_CONFIDENCE = 1.0


#: The whitespace a slot's runs of which become one space: ASCII's, as the original scorers
#: split slots (a no-break space inside a slot is a character of its word, not a space).
_RUN = re.compile(r"[ \t\r\n\f\v]+")


def _spaced(slot: str) -> str:
    return _RUN.sub(" ", slot).strip(" ")


def native_texts(
    data: bytes, shown: str, fmt: str
) -> tuple[dict[str, list[tuple[str, tuple[str, ...], float]]], tuple[str, ...]]:
    """The file read by benchie's reader of a format its scorer has no reader of
    (``benchie_cli.inputs.native``): extractions by sentence text, as CaRB's readers give
    them (the relation, then the arguments, the subject first; slots with their whitespace
    runs as single spaces), and what the reader skipped, as warnings. A file that names its
    sentences by id cannot meet another benchmark's sentences: it is refused at its line."""
    from benchie_cli.inputs.llm_text import NAME as LLM_RULES
    from benchie_cli.inputs.native import REGISTRY, Skipped, Unparsed, sorted_out

    # Lines as every reader delimits them: at "\n" only (a U+2028 inside a JSON string
    # is text, not a line break).
    lines = enumerate(split_text_lines(data, shown), 1)
    texts: dict[str, list[tuple[str, tuple[str, ...], float]]] = {}
    skipped: list[Skipped] = []
    unparsed: list[Unparsed] = []
    for ex in sorted_out(REGISTRY[fmt].parse(lines, shown), skipped, unparsed):
        if ex.sentence is None:
            raise BenchieError(
                f"names its sentence by id ({ex.sent_id!r}), not by its text: another "
                "benchmark's sentences are met by their text (`benchie sentences --benchmark "
                "NAME` gives them)",
                path=shown,
                line=ex.line,
            )
        args = tuple(_spaced(a) for a in (ex.subject, *ex.args))
        confidence = NO_CONFIDENCE if ex.confidence is None else ex.confidence
        texts.setdefault(ex.sentence, []).append((_spaced(ex.relation), args, confidence))
    reading = REGISTRY[fmt].reading
    notes = (
        *((reading,) if reading else ()),
        *(f"line {k.line}: {k.reason}: {k.text[:80]!r}" for k in skipped[:5]),
    )
    if len(skipped) > 5:
        notes = (*notes, f"{len(skipped) - 5:,} more line(s) the reader skipped")
    if unparsed:  # the count first: under --strict it is the error
        count = (
            f"{len(unparsed):,} fragment(s) of its answers no {LLM_RULES} rule reads as a "
            "triple, left out (docs/llm-text.md)"
        )
        first = (f"line {u.line}: {u.reason}: {u.text[:80]!r}" for u in unparsed[:5])
        notes = (count, *notes, *first)
    return texts, notes


def texts_of(
    data: bytes, shown: str, fmt: str
) -> tuple[dict[str, list[tuple[str, tuple[str, ...], float]]], tuple[str, ...]]:
    """Extractions by sentence text, for a benchmark whose scorer has no reader of ``fmt``:
    CaRB's reader of it where CaRB has one (as the suite reads them), else benchie's."""
    if fmt in CARB_READ:
        return carb_texts(data, shown, fmt), ()
    return native_texts(data, shown, fmt)


#: Formats that hold one extraction a line (OLLIE's after its header line): a line that
#: gives none was skipped by the reader, as the original's reader skips it (a slot empty or
#: missing). docs/oie2016.md and docs/carb.md, "Reading", say which lines.
PER_LINE = {
    "openie4": 0,
    "openie5": 0,
    "carb": 0,
    "reverb": 0,
    "stanford": 0,
    "ollie": 1,
    "allennlp": 0,
}


def skipped_lines(
    data: bytes, fmt: str, extractions: int, lines: Sequence[str] | None = None
) -> str | None:
    """What to say of the lines of a file its reader skipped: a one-extraction-a-line file's
    lines that give none, ClausIE's lines that are neither a sentence nor an extraction, an
    OLLIE file whose first line, which the reader takes for the header, is an extraction.
    ``lines``: the decoded text's lines where they are ``data``'s, decoded (no BOM, which the
    text has lost, and no line break but CR and LF), counted instead of splitting the bytes
    again (3 ms of a 3 MB file)."""
    if fmt == "clausie":
        return _clausie_ignored(data)
    if fmt not in PER_LINE:
        return None
    if fmt == "ollie":
        first = next((line for line in data.splitlines() if line.strip()), b"")
        cols = first.strip().split(b"\t")
        if len(cols) >= 7 and _is_number(cols[0]):
            return (
                "its first line is an extraction, but OLLIE's reader takes the first line for "
                "the header and skips it, as the original scorer's does: that extraction is "
                "not scored (put OLLIE's header line first)"
            )
    if lines is None:
        split = data.splitlines()  # (10^4 lines and more: counted in C, not line by line)
        given = len(split) - list(map(bytes.strip, split)).count(b"")
    else:  # (the same lines: a blank one holds spaces and tabs only, as bytes.strip strips)
        given = len(lines) - list(map(str.strip, lines, repeat(" \t"))).count("")
    given -= PER_LINE[fmt]
    dropped = given - extractions
    if dropped <= 0:
        return None
    why = _SKIPPED_WHY.get(fmt, "a slot empty or missing")
    return (
        f"{dropped:,} of its {given:,} lines give no extraction: the reader skips them, as "
        f"the original scorer's does ({why})"
    )


def reading_notes(
    data: bytes, fmt: str, extractions: int, lines: Sequence[str] | None = None
) -> list[str]:
    """What to say of how the reader of ``fmt`` read a file's bytes that numbers alone do
    not show: the lines it skipped (:func:`skipped_lines`; ``lines`` as it takes them), the
    arguments it dropped (:func:`several_arguments`). Every command that reads a tab format
    by an original scorer's reader says them (a benchmark's run, CaRB's, the suite)."""
    said = (skipped_lines(data, fmt, extractions, lines), several_arguments(data, fmt))
    return [note for note in said if note is not None]


#: How far :func:`several_arguments` looks for OpenIE 5's argument separator.
_SEVERAL_HEAD = 1 << 18
#: Offsets OpenIE 5 could not give. OpenIE 4 gives every part its offsets, so one such part
#: names a file OpenIE 5's (its several arguments in one column do not: OpenIE 4 writes
#: those too, as in the OpenIE 4 outputs supervised-oie keeps of Mesquita et al.'s corpora).
OPENIE5_MARK = b"List(null)"


def several_argument_lines(data: bytes) -> Iterator[int]:
    """The numbers of the lines whose arg2 column holds several arguments
    (``A(...,List(...)); B(...,List(...))``, split at ``);`` as OpenIE 5's readers split it),
    among those a reader scores (arg1, rel and arg2 given). Lines as CaRB's ``open`` counts
    them (universal newlines)."""
    if data.find(b");") < 0:  # (a search in C: a file without the separator has no such line)
        return
    for n, line in enumerate(data.splitlines(), 1):
        cols = line.strip().split(b"\t")
        if len(cols) < 6 or not all(cols[2:5]) or b");" not in cols[4]:
            continue
        if all(b",List(" in part for part in cols[4].split(b");")):
            yield n


def several_arguments(data: bytes, fmt: str) -> str | None:
    """What to say of a file with several arguments in a column read as OpenIE 4's
    (``--input-format openie4``): of those arguments the original scorers' OpenIE 4 readers
    keep the first, where OpenIE 5's keep all. The numbers are the original's for that
    reading, and differ from OpenIE 5's, with nothing else to show it. Looked for in the
    first 256 KiB (about 750 lines; :func:`detect_format` looks at every line of a file it
    detects), then counted in every line."""
    if fmt != "openie4" or data.find(b");", 0, _SEVERAL_HEAD) < 0:
        return None
    several = sum(1 for _ in several_argument_lines(data))
    if not several:
        return None
    return (
        f"{several:,} of its lines {'holds' if several == 1 else 'hold'} several arguments "
        "in the arg2 column (OpenIE 5 writes them so, and OpenIE 4 at times): the original "
        "scorers' OpenIE 4 readers keep the first of each (OpenIE 5's output: "
        "--input-format openie5, where the benchmark reads it)"
    )


def _openie5_marked(data: bytes) -> bool:
    """Whether one of the file's parts (its context, argument or relation columns) has a
    :data:`OPENIE5_MARK` offset: searched in C, then checked in the line of each match (the
    same text in a sentence column is no offset)."""
    pos = data.find(OPENIE5_MARK)
    while pos >= 0:
        start = data.rfind(b"\n", 0, pos) + 1
        end = data.find(b"\n", pos)
        line = data[start : len(data) if end < 0 else end]
        if any(OPENIE5_MARK in part for part in line.split(b"\t")[1:5]):
            return True
        if end < 0:
            return False
        pos = data.find(OPENIE5_MARK, end)
    return False


def _openie_version(data: bytes, shown: str) -> str:
    """Which of OpenIE 4's and OpenIE 5's readers ``auto`` reads a file of their columns by.
    A ``List(null)`` offset anywhere names OpenIE 5. Several arguments in one column name
    neither, and the original scorers' two readers score them differently (OpenIE 4's keep
    the first): such a file is refused rather than guessed at. Otherwise OpenIE 4 (both
    readers read its lines alike)."""
    if _openie5_marked(data):
        return "openie5"
    first = next(several_argument_lines(data), None)
    if first is None:
        return "openie4"
    raise BenchieError(
        "OpenIE 4's output or OpenIE 5's? Its arg2 column holds several arguments, which both "
        "write, and the original scorers read them differently (OpenIE 4's readers keep the "
        "first); no List(null) offset, which only OpenIE 5 writes, tells them apart: give "
        "--input-format openie4 or openie5",
        path=shown,
        line=first,
    )


#: Why a reader skips a line, where that is not "a slot empty or missing".
_SKIPPED_WHY = {"allennlp": "no text in its <arg1>, <rel> and <arg2> tags, or none of them"}


def _is_number(raw: bytes) -> bool:
    try:
        float(raw)
    except ValueError:
        return False
    return True


def _clausie_ignored(data: bytes) -> str | None:
    """ClausIE's readers (CaRB's, oie-benchmark's) take a one-column line for the sentence
    and a five-column line for an extraction, and ignore any other, n-ary ones included."""
    lines = [line for line in map(bytes.strip, data.splitlines()) if line]
    # columns - 1 tabs: counted, not split into columns (a file has 10^4 lines and more)
    ignored = sum(1 for line in lines if line.count(b"\t") not in (0, 4))
    if not ignored:
        return None
    return (
        f"{ignored:,} of its {len(lines):,} lines are neither a sentence (one column) nor an "
        "extraction (five columns): ClausIE's reader ignores them, as the original scorer's "
        "does (n-ary extractions among them)"
    )


class Scored(Record):
    """What scoring one file's extractions gives, before it becomes a :class:`Run`."""

    extractions: int
    numbers: dict[str, Any]
    #: Sentences of the file that are not the split's: the original ignores them.
    outside: int
    #: (gold sentences with output, gold sentences).
    coverage: tuple[int, int]
    #: What the original does silently that a user must know (said on stderr).
    warnings: tuple[str, ...] = ()
    #: The file's sentence texts that are the benchmark's (the suite says the others).
    known: frozenset[str] = frozenset()
    #: The metric's precision-recall curve (None: its metric draws none); the report's,
    #: not the suite's row.
    curve: Curve | None = None


def _collided(count: int) -> tuple[str, ...]:
    if not count:
        return ()
    return (
        f"{count:,} of its sentence texts differ from another only where the scorer's "
        "sentence key ignores (spaces, punctuation, bracket escapes): as by the original, "
        "only one text's extractions are scored for each key, here the last in the file (an "
        "original run by Python 2 keeps the one its dict's hash order puts last)",
    )


def keyed_numbers(metric: Any, corpus: Corpus, predicted: Mapping[str, Any], shown: str) -> Scored:
    """The numbers of ``metric`` (a module with ``group``, ``score``, ``to_json``,
    ``collisions`` and ``sentence_key``: OIE2016's, Re-OIE2016's; and ``curve_of`` for a
    metric with a precision-recall curve), and what both scorers do alike: they key
    sentences by CaRB's sentence key and ignore the predictions of other sentences."""
    if not predicted:
        raise nothing(shown)
    keys = metric.group(dict(predicted)).keys()
    gold_keys = metric.group(corpus.gold).keys()
    outside = len(keys - gold_keys)
    if outside == len(keys):
        raise none_known(shown, corpus, len(predicted))
    count = sum(len(v) for v in predicted.values())  # (read, whether scored or not)
    if corpus.subset is not None:  # as the original run on the subset's sentences alone
        predicted = {t: x for t, x in predicted.items() if metric.sentence_key(t) in gold_keys}
    result = metric.score(corpus.gold, dict(predicted))
    numbers = metric.to_json(result)
    curve_of = getattr(metric, "curve_of", None)
    coverage = (len(keys & gold_keys), len(gold_keys))
    known = {t: x for t, x in predicted.items() if metric.sentence_key(t) in gold_keys}
    if "auc" in numbers and len({x.confidence for xs in known.values() for x in xs}) <= 1:
        numbers[SINGLE_THRESHOLD] = True  # (only then: other reports keep their bytes)
    warnings = _collided(metric.collisions(known))
    curve = curve_of(result) if curve_of is not None else None
    return Scored(count, numbers, outside, coverage, warnings, frozenset(known), curve)


def keyed_texts(metric: Any) -> Callable[[Corpus, TextExtractions, str], Scored]:
    """Scoring of a tab-keyed file read by CaRB's reader, as ``metric``'s extractions."""

    def score_texts(corpus: Corpus, texts: TextExtractions, shown: str) -> Scored:
        predicted = {t: [metric.Extraction(p, a, c) for p, a, c in xs] for t, xs in texts.items()}
        return keyed_numbers(metric, corpus, predicted, shown)

    return score_texts


GoldReader = Callable[[str, bytes], Any]


def text_reader(read: Callable[[str, str], Any]) -> GoldReader:
    """A gold reader of bytes from one of text (``read(path, text)``): the bytes decoded as
    UTF-8, an error naming the file."""

    def read_bytes(shown: str, data: bytes) -> Any:
        return read(shown, decode_text(data, shown))

    return read_bytes


def read_gold_bytes(read: GoldReader, f: ResolvedGold) -> Any:
    """``read`` applied to the checked bytes of ``f`` (never to the file again: what is
    parsed is what was hashed); a reader's ``PATH:LINE: message`` becomes a located error.
    A gold in UTF-16 or UTF-32 (``--gold-file``) is named so (OIE2016's and LSOIE's readers
    would read it as Python 2 does, and fail far from the cause, or not at all)."""
    refuse_other_encoding(f.data, f.display_path)
    try:
        return read(f.display_path, f.data)
    except ValueError as exc:
        raise located(exc) from None


def single_file_load(benchmark: str, read: GoldReader) -> Loader:
    """The loader of a benchmark whose split is one file, read by ``read(path, bytes)``."""

    def load(gold_store: GoldStore, version: str, split: str) -> Corpus:
        f = gold_store.listed(version, "gold", split)
        return Corpus(benchmark, version, split, (f,), read_gold_bytes(read, f))

    return load


#: The version and split a report names for gold given as a file (``--gold-file``).
GOLD_FILE = "file"


def repeated_json_keys(data: bytes) -> list[str]:
    """The keys a JSON document gives more than once in one object (none for a file that is
    not one JSON document): a reader keeps only the last value of each."""
    if without_bom(data).lstrip()[:1] not in (b"{", b"["):
        return []
    repeated: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: set[str] = set()
        for key, _ in items:
            if key in seen:
                repeated.append(key)
            seen.add(key)
        return dict(items)

    try:
        json.loads(without_bom(data).decode("utf-8"), object_pairs_hook=pairs)
    except (ValueError, RecursionError):
        return []  # not JSON: the benchmark's reader says what is wrong, with its line
    return repeated


def load_file(benchmark: str, path: str, language: str = "en") -> Corpus:
    """A user's own gold in the benchmark's own gold format (``--gold-file``), read once,
    hashed and read by the benchmark's reader of its gold, which says file and line of what
    it cannot read. A file without a tuple is refused: it would score every system 0."""
    f = resolve_gold_file(path, language, "gold")
    repeated = repeated_json_keys(f.data)
    if repeated:
        raise BenchieError(
            f"{len(repeated):,} JSON key(s) given more than once (first: {repeated[0][:80]!r}): "
            "the original scorer reads only the last value of each, so the others' tuples "
            "would be dropped without a word; remove the repeats",
            path=f.display_path,
        )
    gold = read_gold_bytes(entry(benchmark).read_gold, f)
    if not gold:
        raise BenchieError(
            f"no gold tuple in it: not {BENCHMARKS[benchmark].label}'s gold format?",
            path=f.display_path,
        )
    return Corpus(benchmark, GOLD_FILE, GOLD_FILE, (f,), gold, language=language)


def sentence_items(corpus: Corpus) -> list[tuple[str, str]]:
    """The gold's sentences as ``(id, text)``, in gold order: those its original scorer
    scores (a sentence without gold tuples counts for nothing)."""
    own = entry(corpus.benchmark).sentences
    if own is not None:
        return own(corpus)
    return [(str(n), text) for n, text in enumerate(corpus.gold, 1)]


def gold_named(corpus: Corpus) -> str:
    """How messages name the gold of ``corpus``: the split, or the user's file."""
    if corpus.version == GOLD_FILE:
        return f"the gold file {corpus.files[0].display_path}"
    language = "" if corpus.language == "en" else f" ({corpus.language})"
    return f"{BENCHMARKS[corpus.benchmark].label}'s {corpus.split} split{language}"


def restricted(corpus: Corpus, sentences: SubsetFile) -> Corpus:
    """``corpus`` with the gold of the sentences the ``--sentences`` file lists alone
    (docs/subsets.md): each line is found among the gold's sentences, by id or text, or
    refused naming its line."""
    subset = choose(sentences, sentence_items(corpus), gold_named(corpus))
    keep = subset.ids if entry(corpus.benchmark).keyed_by_id else subset.texts
    gold = {key: value for key, value in corpus.gold.items() if key in keep}
    return corpus._replace(gold=gold, subset=subset)


# --------------------------------------------------------------------------- the registry


class CorpusEntry(Record):
    """How one benchmark's gold is loaded and a submission scored against it."""

    load: Loader
    #: Its reader of one gold file in its own format, ``(path shown, bytes)``: how a
    #: ``--gold-file`` is read (a ``ValueError`` ``PATH:LINE: message`` for what it cannot).
    read_gold: GoldReader
    #: ``--input-format`` values its original scorer's readers read.
    own: tuple[str, ...]
    #: Scores one file's bytes in one of its own formats (None: its own format holds
    #: several systems, :attr:`score_export`).
    score_own: Callable[[Corpus, bytes, str, str], Scored] | None
    #: Scores extractions keyed by sentence text: the tab-keyed formats its scorer has no
    #: reader of, read by CaRB's reader of them (:data:`CARB_READ`), as the suite does.
    score_texts: Callable[[Corpus, TextExtractions, str], Scored]
    #: Scores a file of its own format that holds several systems (a JSON export, which
    #: ``auto`` detects), a run each: ``(corpus, bytes, shown, name, facts)``.
    score_export: Callable[[Corpus, bytes, str, str, FileFacts], list[Run]] | None = None
    #: Its sentences as ``(id, text)`` in gold order, when its gold is not keyed by text
    #: (None: the gold's keys, numbered from 1).
    sentences: Callable[[Corpus], list[tuple[str, str]]] | None = None
    #: Whether its gold is keyed by sentence id (WiRe57's), not by sentence text.
    keyed_by_id: bool = False


def entry(benchmark: str) -> CorpusEntry:
    """The :class:`CorpusEntry` of ``benchmark``, from the package its registry entry names
    (imported on first use: a run of one benchmark loads no other's code)."""
    found: CorpusEntry = implementation(benchmark).CORPUS
    return found


#: Keys of the objects benchie's JSON readers read as a sentence or an extraction.
_SENTENCE_OBJECT_KEYS = frozenset(
    ("sentence", "text", "passage", "sent_id", "id", "subject", "relation", "extractions")
)

#: What :func:`detect_format` calls one JSON document that no reader of system outputs
#: reads (WiRe57's export of its systems is one).
JSON_DOCUMENT = "json-document"


def detect_format(data: bytes, shown: str) -> str:
    """The format ``--input-format auto`` reads in a file's bytes, as read (decompressed,
    from standard input too): a native format or ``benchie`` as
    :func:`benchie_cli.inputs.native.detect_bytes` finds, or :data:`JSON_DOCUMENT` for a
    JSON object no reader of system outputs reads (WiRe57's export is one). OpenIE 4's and
    OpenIE 5's columns are told apart by the whole file (:func:`_openie_version`), which
    refuses one they cannot be told apart in (``shown`` names it)."""
    from benchie_cli.inputs.native import detect_bytes

    if data.lstrip()[:1] == b"{":
        try:
            doc = orjson.loads(data)
        except orjson.JSONDecodeError:
            doc = None
        # One document keyed by other than a sentence object's keys (WiRe57's export is
        # keyed by sentence id), not one sentence's object on a line of its own.
        if isinstance(doc, dict) and doc and not doc.keys() & _SENTENCE_OBJECT_KEYS:
            return JSON_DOCUMENT
    fmt = detect_bytes(data)
    if fmt == BENCHIE_TSV and data.lstrip()[:1] == b"{":
        return JSON_DOCUMENT
    if fmt in OPENIE_FORMATS:
        return _openie_version(data, shown)
    return fmt


def _detected(corpus: Corpus, path: str, data: bytes) -> str:
    """The format ``auto`` reads: a JSON document is WiRe57's export; the rest as
    ``native`` detects."""
    if not data.strip():
        raise nothing(display_name(path))
    fmt = detect_format(data, display_name(path))
    if fmt == JSON_DOCUMENT:
        if entry(corpus.benchmark).score_export is not None:
            return entry(corpus.benchmark).own[0]
        raise BenchieError(
            "a JSON file: WiRe57's systems' export is scored with --benchmark wire57, and a "
            "benchmark's gold is added with `benchie benchmark add`, not scored",
            path=display_name(path),
        )
    if fmt == BENCHIE_TSV:
        from benchie_cli.inputs.mistakes import curve_error

        raise curve_error(data, display_name(path)) or BenchieError(
            "its format was not recognised as a system output "
            f"({', '.join(BENCHMARKS[corpus.benchmark].formats)}): give --input-format; a "
            "BenchIE TSV file is scored against BenchIE's gold (no --benchmark)",
            path=display_name(path),
        )
    return fmt


def reader_for(corpus: Corpus, path: str, input_format: str, data: bytes) -> str:
    """The input format of a submission: ``--input-format``, or detected for ``auto``."""
    formats = BENCHMARKS[corpus.benchmark].formats
    fmt = _detected(corpus, path, data) if input_format == "auto" else input_format
    if fmt not in formats:
        raise BenchieError(
            f"--benchmark {corpus.benchmark} reads {', '.join(formats)} submissions, not {fmt}",
            path=display_name(path),
        )
    return fmt


def score_bytes(
    corpus: Corpus, data: bytes, shown: str, fmt: str, retokenize: bool = False
) -> Scored:
    """One file's bytes in ``fmt`` scored: its scorer's own reader, or the file's
    extractions by sentence text (:func:`texts_of`)."""
    scorer = entry(corpus.benchmark)
    own = fmt in scorer.own and read_by_original(fmt, data)
    if own and scorer.score_own is not None:
        if retokenize:
            raise retokenize_refused(corpus.benchmark, fmt, shown)
        return scorer.score_own(corpus, data, shown, fmt)
    texts, notes = texts_of(data, shown, fmt)
    if retokenize:
        from benchie_cli.inputs.mistakes import retokenize_texts

        texts = retokenize_texts(texts)[0]
    scored = scorer.score_texts(corpus, texts, shown)
    return scored._replace(warnings=(*scored.warnings, *notes)) if notes else scored


def score_file(
    corpus: Corpus, path: str, name: str, input_format: str, retokenize: bool = False
) -> list[Run]:
    """One submission file scored: a run, or one per system of a WiRe57 export."""
    shown = display_name(path)
    facts, data = read_submission(path)
    fmt = reader_for(corpus, path, input_format, data)
    facts.lines = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
    export = entry(corpus.benchmark).score_export
    if export is not None and fmt in entry(corpus.benchmark).own:
        if retokenize:
            raise retokenize_refused(corpus.benchmark, fmt, shown)
        return export(corpus, data, shown, name, facts)
    with curve_named(head_lines(data, 4096)):  # (a curve read as the format given)
        scored = score_bytes(corpus, data, shown, fmt, retokenize)
        if scored.extractions == 0:
            raise nothing(shown)
    said = reading_notes(data, fmt, scored.extractions)
    if said:
        scored = scored._replace(warnings=(*scored.warnings, *said))
    facts.extractions = scored.extractions
    return [
        Run(
            name,
            facts,
            scored.numbers,
            scored.outside,
            scored.coverage,
            scored.warnings,
            fmt,
            scored.curve,
        )
    ]


# --------------------------------------------------------------------------- reports


def signature(corpus: Corpus, input_format: str = "auto", retokenize: bool = False) -> str:
    """What the numbers depend on: benchmark, split, metric, version and the gold's hash,
    ``--retokenize``, and the rules' version of a file read by versioned rules
    (``input:llm-text@1``)."""
    versioned = f"|input:{signed(input_format)}" if input_format in VERSIONS else ""
    return (
        f"benchie|benchmark:{corpus.benchmark}|split:{corpus.split}"
        f"{'' if corpus.language == 'en' else f'|lang:{corpus.language}'}|metric:{corpus.metric}"
        f"{f'|scorer:{scorer}' if (scorer := METRICS[corpus.metric].scorer) else ''}"
        f"|gold:{corpus.version}@{corpus.sha256[:12]}"
        f"{corpus.subset.signed() if corpus.subset is not None else ''}"
        f"{'|retokenize' if retokenize else ''}{versioned}|v:{__version__}"
    )


def _f1(run: Run) -> float:
    f1 = run.numbers.get("f1")
    return f1 if isinstance(f1, float) and not math.isnan(f1) else -1.0


def gold_json(corpus: Corpus) -> dict[str, Any]:
    """The ``gold`` object of a report: which files, byte for byte."""
    store_dir = corpus.where or BENCHMARKS[corpus.benchmark].store_dir
    return {
        "benchmark": corpus.benchmark,
        "version": corpus.version,
        "split": corpus.split,
        "language": corpus.language,
        "sha256": corpus.sha256,
        "files": [
            {
                "path": f.display_path if f.manifest is None else f"{store_dir}/{f.display_path}",
                "sha256": f.sha256,
            }
            for f in corpus.files
        ],
    }


def build_report(
    corpus: Corpus,
    runs: Sequence[Run],
    *,
    failures: Sequence[Failure] = (),
    input_format: str = "auto",
    retokenize: bool = False,
) -> dict[str, Any]:
    """The report: systems in the order given, ranked by the metric's F1 (``retokenize``
    recorded only when on: every other report keeps its bytes)."""
    metric = corpus.metric
    f1s = [_f1(r) for r in runs]
    report: dict[str, Any] = {
        "schema": REPORT_SCHEMA,
        "benchie_version": __version__,
        "benchmark": corpus.benchmark,
        "metric": metric,
        "signature": signature(corpus, input_format, retokenize),
        "gold": gold_json(corpus),
        # (only when given: reports of whole splits keep their bytes)
        **({"subset": corpus.subset.as_json()} if corpus.subset is not None else {}),
        "options": {
            "benchmark": corpus.benchmark,
            "split": corpus.split,
            "metric": metric,
            **({"input_format": input_format} if input_format != "auto" else {}),
            **({"retokenize": True} if retokenize else {}),
        },
        "systems": [
            {
                "name": r.name,
                "rank": 1 + sum(1 for other in f1s if other > f1),
                "file": r.facts.path,
                "sha256": r.facts.sha256,
                "lines": r.facts.lines,
                "extractions": r.facts.extractions,
                metric: r.numbers if r.curve is None else {**r.numbers, "curve": r.curve.as_json()},
            }
            for r, f1 in zip(runs, f1s, strict=True)
        ],
    }
    if failures:
        report["failures"] = [f.as_json() for f in failures]
    return report


def _cell(value: Any) -> str:
    return (
        "nan"
        if value is None or (isinstance(value, float) and math.isnan(value))
        else (f"{value:.4f}")
    )


def _rows(report: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    metric = report["metric"]
    systems = sorted(report["systems"], key=lambda s: (s["rank"], s["name"]))
    curve = any("auc" in s[metric] for s in systems)
    columns = ["#", "system", "P", "R", "F1", *(["AUC"] if curve else []), "extractions"]
    rows = [
        [
            str(s["rank"]),
            s["name"],
            *(_cell(s[metric].get(k)) for k in ("precision", "recall", "f1")),
            *([_cell(s[metric].get("auc"))] if curve else []),
            str(s["extractions"]),
        ]
        for s in systems
    ]
    return columns, rows


def _failures(report: dict[str, Any]) -> list[str]:
    return [f"FAILED {f['name']}: {f['error']}" for f in report.get("failures", [])]


def to_table(report: dict[str, Any]) -> str:
    """The report as a fixed-width table, the signature below."""
    columns, rows = _rows(report)
    lines = render([columns, *rows], [0, *range(2, len(columns))])
    notes = single_threshold_notes(report["systems"], [report["metric"]])
    return "\n".join([*lines, *_failures(report), *notes, "", report["signature"]]) + "\n"


def to_markdown(report: dict[str, Any]) -> str:
    """The report as a markdown table, the signature below."""
    columns, rows = _rows(report)
    lines = [
        "| " + " | ".join(columns) + " |",
        "|" + "|".join(["---:", "---"] + ["---:"] * (len(columns) - 2)) + "|",
        *("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows),
    ]
    if report.get("failures"):
        lines += ["", *(f"- {line}" for line in _failures(report))]
    notes = single_threshold_notes(report["systems"], [report["metric"]])
    if notes:
        lines += ["", *(f"- {line}" for line in notes)]
    return "\n".join([*lines, "", f"`{report['signature']}`"]) + "\n"


class CorpusRunner:
    """``score --benchmark NAME`` for a benchmark scored as its original scorer scores it
    (OIE2016, Re-OIE2016, WiRe57), and its row of the suite (:class:`Runner`)."""

    counts_splits = False

    def __init__(self, benchmark: str) -> None:
        self.benchmark = benchmark

    def score(self, request: Request, hooks: Hooks) -> Outcome:
        """Each submission against the benchmark's split; one that cannot be scored is a
        failure and the others are scored. Reading and matching build ~10^5 small objects
        and no cycle: the collector's passes over them would find nothing to free."""
        with no_cyclic_gc():
            return self._score(request, hooks)

    def _score(self, request: Request, hooks: Hooks) -> Outcome:
        benchmark = self.benchmark
        self.check(request)
        check_stdin_once(request.gold_file, request.paths)
        expected = expected_prefix(request.expect_gold)
        corpus, root = self._corpus(request)
        split = corpus.split
        check_output(request.output, [*request.inputs, *corpus.inputs], stores=[root])
        check_pinned(
            corpus.sha256,
            expected,
            request.expect_gold,
            f"{benchmark} {corpus.version} ({split})"
            if request.gold_file is None
            else corpus.files[0].display_path,
        )

        read_as: set[str] = set()
        gold_of = (
            "the gold file" if request.gold_file is not None else f"{benchmark}'s {split} split"
        )

        def score_one(submission: Submission) -> list[Run]:
            shown = display_name(submission.path)
            scored = score_file(
                corpus, submission.path, submission.name, request.input_format, request.retokenize
            )
            read_as.update(r.read_as for r in scored)
            if any(r.facts.sha256 == corpus.files[0].sha256 for r in scored):
                raise BenchieError(
                    "it is the gold itself (the same bytes as the gold scored against): give "
                    "the system's output",
                    path=shown,
                )
            for run in scored:
                covered, total = run.coverage
                if total and covered < LOW_COVERAGE * total:
                    hooks.say(
                        f"{shown}: warning: output for {covered:,} of the {total:,} gold "
                        f"sentences of {gold_of}: the others count as missed (a file of "
                        "another split? give --split)"
                    )
            outside = max(r.outside for r in scored)
            subset = corpus.subset
            said = [
                *(
                    [
                        f"{outside:,} of its sentences are not "
                        + (
                            f"in {gold_of}: the original scorer ignores them"
                            if subset is None
                            else f"among the {subset.size:,} sentences of {subset.file.shown} "
                            "(--sentences): not scored"
                        )
                    ]
                    if outside
                    else []
                ),
                *dict.fromkeys(w for r in scored for w in r.warnings),
            ]
            if said and request.strict:
                raise BenchieError(
                    f"{said[0]} (an error under --strict)", path=shown, exit_code=ExitCode.FAILED
                )
            for what in said:
                hooks.say(f"{shown}: warning: {what}")
            return scored

        scored, failures = each_submission(request.batch, hooks, score_one)
        runs = [run for runs_of_one in scored for run in runs_of_one]
        recorded = recorded_input(request.input_format, read_as)
        report = build_report(
            corpus, runs, failures=failures, input_format=recorded, retokenize=request.retokenize
        )
        language = "" if corpus.language == "en" else f", {corpus.language}"
        gold = (
            f"{benchmark} gold {corpus.version} ({split}{language})"
            if request.gold_file is None
            else f"{benchmark} gold file {corpus.files[0].display_path}"
        )
        curves = [(r.name, r.curve) for r in runs if r.curve is not None]
        return Outcome(
            report, f"{len(runs)} system(s), {gold}", failures, len(request.batch), curves=curves
        )

    def check(self, request: Request) -> None:
        self._gold_language(request)
        refuse_benchie_options_of(request, ORIGINAL_FIX)

    def _gold_language(self, request: Request) -> None:
        """Its gold is of one of its languages: the store's split and version, or a file
        of the user's (``--gold-file``), which is one split of one version."""
        check_language(request)
        check_gold_file_alone(request)

    def _corpus(self, request: Request) -> tuple[Corpus, GoldDirs | None]:
        """The gold a run scores against, and the store it came from (None: a file)."""
        if request.gold_file is not None:
            corpus, root = load_file(self.benchmark, request.gold_file, request.lang), None
        else:
            split = check_split(request)
            root = resolve(request.gold_dir)
            corpus = load(root, self.benchmark, request.gold_version, split, request.lang)
        if request.sentences is not None:
            corpus = restricted(corpus, read_subset(request.sentences))
        return corpus, root

    def sentences(self, request: Request, hooks: Hooks) -> Sentences:
        """The gold's sentences of the split, in gold order: those its original scorer
        scores (a sentence without gold tuples counts for nothing)."""
        self._gold_language(request)
        corpus, root = self._corpus(request)
        return Sentences(sentence_items(corpus), corpus.inputs, root)

    def check_shape(self, report: dict[str, Any], shown: str) -> None:
        check_split_shape(report, shown)

    def rederive(
        self,
        report: dict[str, Any],
        submissions: list[str],
        *,
        gold_dir: str | None,
        gold_file: str | None,
        jobs: int | None,
        sentences: str | None = None,
    ) -> dict[str, Any]:
        """The report rebuilt: the gold of the version and split it names, each file
        checked against the manifest, restricted to the report's subset (``sentences``)
        if it has one, and each submission read with the input format the report
        recorded. A WiRe57 export gives a system per extractor: its file is read once,
        for the first of them."""
        benchmark = self.benchmark
        subset = subset_given(report, sentences)
        systems, gold = report["systems"], report["gold"]
        input_format = report["options"].get("input_format", "auto")
        retokenize = report["options"].get("retokenize") is True
        if (gold["version"] == GOLD_FILE) != (gold_file is not None):
            raise BenchieError(
                f"the report was scored with --gold-file {gold['files'][0]['path']}: give "
                "--gold-file with that file"
                if gold_file is None
                else f"the report names the store's {BENCHMARKS[benchmark].label} gold "
                f"{gold['version']} ({gold['split']}); --gold-file does not apply (give "
                "--gold-dir)"
            )
        language = str(gold.get("language", "en"))
        if gold_file is not None:
            corpus = load_file(benchmark, gold_file, language)
        else:
            corpus = load(resolve(gold_dir), benchmark, gold["version"], gold["split"], language)
        if subset is not None:
            corpus = restricted(corpus, subset)
        runs: list[Run] = []
        read: set[str] = set()
        for system, path in zip(systems, submissions, strict=True):
            if path in read:
                continue
            read.add(path)
            name = system["name"]
            if entry(benchmark).score_export is not None and "/" in name:
                name = name.rsplit("/", 1)[0]
            runs.extend(score_file(corpus, path, name, input_format, retokenize))
        rebuilt = build_report(corpus, runs, input_format=input_format, retokenize=retokenize)
        return as_reported(report, rebuilt)

    def rows(self, given: SuiteInput) -> list[Row]:
        """The benchmark's row: its default split, read by its own reader of the format
        when it has one, else by CaRB's."""
        return [self._row(given, "en", BENCHMARKS[self.benchmark].splits[0])]

    def gold(self, request: Request) -> tuple[str, str]:
        corpus, _ = self._corpus(request)
        shown = ", ".join(f.display_path for f in corpus.files)
        return corpus.sha256, f"{corpus.where or BENCHMARKS[self.benchmark].store_dir}/{shown}"

    def other_rows(self, given: SuiteInput) -> list[Row]:
        """A row for each published part of another language or split that the store has
        (``benchmark add``): Spanish Re-OIE2016, LSOIE's science split."""
        b = BENCHMARKS[self.benchmark]
        default = ("en", b.splits[0])
        golds = dict.fromkeys((p.language, p.split) for p in b.published if p.kind == "gold")
        return [
            self._row(given, language, split)
            for language, split in golds
            if (language, split) != default and present(given.root, self.benchmark, language, split)
        ]

    def _row(self, given: SuiteInput, language: str, split: str) -> Row:
        benchmark = self.benchmark
        row = Row(benchmark, BENCHMARKS[benchmark].metrics[0], split, language=language)
        corpus = load(given.root, benchmark, None, split, language)
        own = entry(benchmark)
        try:
            if given.fmt in own.own and own.score_own is not None:
                scored = own.score_own(corpus, given.data, given.shown, given.fmt)
            else:
                scored = own.score_texts(corpus, given.texts(), given.shown)
        except BenchieError as exc:
            if "none of its" not in exc.message:
                raise
            row.skipped = none_of_its(benchmark)
            return row
        row.numbers = scored.numbers
        row.coverage = scored.coverage
        row.warnings = scored.warnings
        row.known = scored.known
        row.curve = scored.curve
        row.signature = signature(corpus)
        row.gold = {"version": corpus.version, "sha256": corpus.sha256}
        return row

    def absent(self, root: GoldDirs) -> str | None:
        return None if present(root, self.benchmark) else missing(self.benchmark)

    def gold_stats(
        self, root: GoldDirs, version: str
    ) -> tuple[list[dict[str, Any]], list[list[str]]]:
        raise NotImplementedError("gold stats counts this benchmark's gold itself")
