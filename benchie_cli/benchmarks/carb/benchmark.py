"""``benchie score --benchmark carb``: the CaRB benchmark, CaRB's own gold, as a second
benchmark of the gold store.

Its versions live in ``gold/carb/<version>/`` (docs/gold-store.md, "The CaRB benchmark"),
each with a manifest of the same schema as BenchIE's: per split (``test``, ``dev``) a
``gold`` file (CaRB's gold TSV) and a ``sentences`` file (the input sentences, one a line),
listed with language ``en`` and the split as their ``facet``. Their manifests' sha256 are
pinned like BenchIE's (its registry entry's ``shipped``).

The metric is CaRB's (:mod:`benchie_cli.benchmarks.carb.metric`, docs/carb.md), the only one
of this benchmark. Submissions are read by CaRB's own readers
(:data:`benchie_cli.benchmarks.carb.data.READERS`:
``--input-format openie4|openie5|clausie|props|carb|ollie|reverb``, OpenIE6's ``allennlp``,
or ``auto``, which detects the format; ReVerb's lines number the split's sentences file)
and meet the gold by sentence text, as in CaRB. A BenchIE TSV submission
(``--input-format benchie``) names sentences by id: the id of a sentence is its line number
(from 1) in the split's sentences file, and its extractions are placed as
:func:`benchie_cli.benchmarks.carb.data.from_submission` places them.

CaRB in Spanish, Portuguese, Hindi, Telugu and Chinese (``--lang es|pt|hi|te|zh``) is
multilingual CaRB as github.com/dair-iitd/moie publishes it: its gold and input sentences
of each language, published without a licence, are a part of the benchmark's published
files (``registry.Published``) that the user adds (``benchie benchmark add carb
es_test.tsv es_test.input``), kept at ``carb/<lang>/<version>/``. They are scored as moie's
copy of the scorer scores them (``moie=True`` of :mod:`benchie_cli.benchmarks.carb.metric`,
docs/carb.md, "Other languages (moie)"); a report says so in its signature
(``lang:es``, ``scorer:moie``), its ``scorer`` and ``gold.language``, and gives what moie
prints besides: the Zero Conf point of each metric and the number of gold sentences
scored. English stays CaRB's own gold and scorer, its reports unchanged.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchie_cli import REPORT_SCHEMA, __version__
from benchie_cli.benchmarks.carb.data import (
    NUMBERED,
    READERS,
    Extraction,
    Extractions,
    detect,
    read_file,
    read_gold,
    read_reverb,
    read_sentences,
    split_lines,
    universal_lines,
)
from benchie_cli.benchmarks.carb.metric import curve_of, group, outside, sentence_key
from benchie_cli.benchmarks.carb.report import (
    CarbResult,
    carb_scores,
    load_reference,
    score_carb,
    signature_key,
)
from benchie_cli.benchmarks.carb.report import to_markdown as to_markdown
from benchie_cli.benchmarks.carb.report import to_table as to_table
from benchie_cli.benchmarks.runner import (
    SINGLE_THRESHOLD,
    Hooks,
    Outcome,
    Request,
    Row,
    Runner,
    Sentences,
    SuiteInput,
    as_reported,
    brief,
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
    subset_given,
)
from benchie_cli.errors import BenchieError, ExitCode
from benchie_cli.gold.dirs import GoldDirs, resolve
from benchie_cli.gold.external import missing_message, part_for
from benchie_cli.gold.store import (
    GoldStore,
    ResolvedGold,
    draft_warning,
    is_version,
    resolve_gold_file,
    version_key,
)
from benchie_cli.inputs.batch import Failure, Submission, check_stdin_once
from benchie_cli.inputs.findings import curve_named
from benchie_cli.inputs.formats import BENCHIE_TSV, VERSIONS, signed
from benchie_cli.inputs.mistakes import MistakeCheck
from benchie_cli.inputs.native_layouts import read_by_original
from benchie_cli.inputs.subset import Subset, SubsetFile, choose, read_subset
from benchie_cli.outputs import check_output
from benchie_cli.records import Record
from benchie_cli.registry import BENCHMARKS
from benchie_cli.textio import BOM, decode_text, display_name, head_lines

#: The CaRB benchmark's directory in the gold store, and its splits (the default first).
CARB_DIR = BENCHMARKS["carb"].store_dir
SPLITS = BENCHMARKS["carb"].splits
#: Why a BenchIE TSV file most of whose extractions have words their sentence lacks cannot
#: be a CaRB submission.
MISREAD_IDS = (
    "with --benchmark carb, a BenchIE TSV line's sentence id is the line number (from 1) of "
    "CaRB's sentences.txt, not a BenchIE sentence id (score BenchIE's sentences with "
    "--metric carb instead)"
)
#: ``--input-format`` names read by CaRB's readers, and the reader of each (``ollie`` is
#: OLLIE's tab output, as CaRB's reader reads it; ``allennlp`` OpenIE6's tagged lines, read
#: by the reader of OpenIE6's copy of CaRB's scorer).
CARB_READERS = {
    "openie4": "openie4",
    "openie5": "openie5",
    "clausie": "clausie",
    "props": "props",
    "carb": "tabbed",
    "ollie": "ollie",
    "reverb": "reverb",
    "allennlp": "allennlp",
}
#: Why OLLIE's tab output without its header line is refused by ``auto`` (its plain
#: ``conf: (a; r; b)`` lines, which no CaRB reader reads, are read by benchie's reader).
OLLIE_PLAIN = (
    "OLLIE's tab output, but without the header line first, which CaRB's OLLIE "
    "reader reads (ollie --output-format tabbed; the reader skips the first line as the "
    "header, and would drop this file's first extraction): add the header, or convert it "
    "to CaRB's tab format"
)


def carb_store(root: Path | GoldDirs) -> GoldStore:
    """The CaRB benchmark's store inside the gold directory ``root`` (or the stores)."""
    return GoldStore(root / CARB_DIR, benchmark="carb")


#: The language of CaRB's own gold and scorer; every other language's gold is moie's.
ENGLISH = "en"
#: The scorer a signature names for the gold of another language.
MOIE = "moie"


def by_moie(language: str) -> bool:
    """Whether gold of ``language`` is scored by moie's rules: every language but CaRB's
    own English, whose gold benchie ships and whose numbers are CaRB's."""
    return language != ENGLISH


def where_in_store(language: str) -> str:
    """The directory of the gold of ``language`` in the gold store, as a report's paths
    name it: ``carb``, or the part of moie's files the user added (``carb/es``)."""
    e = part_for("carb", language, SPLITS[0]) if by_moie(language) else None
    return CARB_DIR if e is None else e.directory(Path()).as_posix()


def language_store(root: Path | GoldDirs, language: str, split: str) -> GoldStore:
    """The store of CaRB's gold of ``language`` and ``split`` in the gold directory
    ``root``: the shipped one for English, else the part of moie's published files the
    user added, its manifests checked against their pins. Not added (or no such part, as
    ``--split dev`` in Hindi): the message that says where to get it (exit 2)."""
    if not by_moie(language):
        return carb_store(root)
    e = part_for("carb", language, split)
    gold_store = None if e is None else e.store(root)
    if gold_store is None or not gold_store.versions():
        raise BenchieError(missing_message("carb", language, split))
    return gold_store


def carb_versions(root: Path | GoldDirs) -> list[str]:
    """The CaRB versions present under ``root`` (none when it has no ``carb/``)."""
    return carb_store(root).versions()


def latest_version(store: GoldStore) -> str:
    """The newest released CaRB version, the default of ``--gold-version``."""
    versions = store.require_versions()
    released = [v for v in versions if store.manifest(v).released]
    return max(released or versions, key=version_key)


def resolve_split(store: GoldStore, version: str, split: str) -> tuple[ResolvedGold, ResolvedGold]:
    """The split's gold and sentences files, each checked against the manifest."""
    if not is_version(version):
        raise BenchieError(f"--gold-version: {version!r} is not a version (MAJOR.MINOR.PATCH)")
    return store.listed(version, "gold", split), store.listed(version, "sentences", split)


#: The version and split a report names for gold given as a file (``--gold-file``).
GOLD_FILE = "file"


def resolve_gold_tsv(
    path: str, language: str = ENGLISH
) -> tuple[ResolvedGold, ResolvedGold, Extractions]:
    """A user's own gold in CaRB's gold format (``--gold-file``), of sentences in
    ``language`` (scored as that language's gold is), read once and hashed, and its
    sentences: those of its lines in order of first appearance, numbered from 1 (the ids a
    BenchIE TSV line names), as a sentences file of its own would list them. A file
    without a tuple is refused: it would score every system 0."""
    gold = resolve_gold_file(path, language, "gold")
    if b"<arg1>" in gold.data and b"</rel>" in gold.data:
        raise BenchieError(
            "its lines are tagged extractions (<arg1> ... </rel>): a system's output in "
            "OpenIE6's format, not CaRB's gold (sentence, relation, arguments, tab-separated)",
            path=gold.display_path,
        )
    extractions = load_gold(gold)
    if not extractions:
        raise BenchieError(
            "no gold tuple in it: not CaRB's gold format (sentence, relation, arguments, "
            "tab-separated)?",
            path=gold.display_path,
        )
    listed = "".join(f"{text}\n" for text in extractions).encode()
    sentences = gold._replace(
        data=listed, sha256=hashlib.sha256(listed).hexdigest(), facet="sentences"
    )
    return gold, sentences, extractions


def sentence_ids(sentences: ResolvedGold) -> dict[str, str]:
    """``{id: text}``: a sentence's id is its line number (from 1) in the sentences file."""
    text = decode_text(sentences.data, sentences.display_path)
    return {str(n): line for n, line in enumerate(text.splitlines(), 1)}


def reader_for(path: str, input_format: str) -> str:
    """The CLI's format of a submission: ``benchie`` or a key of :data:`CARB_READERS`."""
    fmt = input_format
    if fmt == "auto":  # from the bytes as read: a pipe (spooled first) or gzip too
        from benchie_cli.benchmarks.corpus import GZIP, detect_format, read_submission
        from benchie_cli.textio import spool, starts_with

        spool(path)  # read again to be scored: a pipe or FIFO must not be drained by this
        data = read_submission(path)[1]
        # The formats only CaRB's scorers read first (OLLIE's tab output, OpenIE6's tagged
        # lines), then those every command reads.
        own = detect(data)
        if own is not None:
            fmt = next(name for name, reader in CARB_READERS.items() if reader == own)
        else:
            fmt = detect_format(data, display_name(path))
            # OLLIE's tab output without the header CaRB's reader skips: refused, since that
            # reader would drop its first extraction (its plain lines: benchie's reader).
            if fmt == "ollie" and read_by_original(fmt, data):
                raise BenchieError(OLLIE_PLAIN, path=display_name(path))
            if fmt == BENCHIE_TSV and starts_with(path, GZIP):  # (read raw: see below)
                from benchie_cli.inputs.mistakes import curve_error

                raise curve_error(data, display_name(path)) or BenchieError(
                    "a gzip-compressed file of BenchIE TSV, or of no format benchie "
                    "recognises: --benchmark carb reads a system's own output compressed or "
                    "not, BenchIE TSV only uncompressed (`gunzip -k FILE`)",
                    path=display_name(path),
                )
    if fmt not in BENCHMARKS["carb"].formats:
        raise BenchieError(
            f"--benchmark carb reads {', '.join(BENCHMARKS['carb'].formats)} submissions "
            f"(CaRB's readers), not {fmt}",
            path=display_name(path),
        )
    return fmt


def raw_sentences(sentences: ResolvedGold) -> list[str]:
    """The split's sentences as CaRB's ReVerb reader reads its raw sentences file (lines
    split as ``open`` splits them, each stripped): what a ReVerb line's number names."""
    text = decode_text(sentences.data, sentences.display_path)
    return read_sentences(io.StringIO(text, newline=None))


def reverb_mismatches(text: str, raw: Sequence[str]) -> tuple[int, int]:
    """(mismatched, checked): of a ReVerb file's lines that carry their own sentence text
    (column 13, not blank), how many name by their number (column 2) a sentence of ``raw``
    whose sentence key differs from that text's. CaRB's reader takes the number, so such a
    line is scored against another sentence. Lines the reader refuses are not counted."""

    mismatched = checked = 0
    keys: dict[int, str] = {}
    for line in io.StringIO(text, newline=None):
        cols = line.strip().split("\t")
        if len(cols) < 13 or not cols[12].strip():
            continue
        try:
            number = int(cols[1])
            key = keys.get(number)
            if key is None:
                key = keys[number] = sentence_key(raw[number - 1])
        except (ValueError, IndexError):
            continue
        checked += 1
        mismatched += sentence_key(cols[12]) != key
    return mismatched, checked


def score_native(
    path: str,
    name: str,
    fmt: str,
    gold: Extractions,
    *,
    strict: bool = False,
    metrics: Sequence[str] = ("carb",),
    raw: Sequence[str] | None = None,
    retokenize: bool = False,
    moie: bool = False,
    restrict: bool = False,
) -> CarbResult:
    """A system's own output read by CaRB's reader of ``fmt`` (a key of
    :data:`CARB_READERS`), else by benchie's and met by sentence text, and scored with each
    CaRB metric of ``metrics`` (``moie``: by moie's rules); its bytes are read once and
    hashed. ``raw``: the split's sentences (:func:`raw_sentences`), which ReVerb's lines
    number."""
    from benchie_cli.benchmarks.corpus import native_texts, read_submission, reading_notes

    shown = display_name(path)
    facts, data = read_submission(path)  # bounded, stdin too; gzip within the same bound
    text = decode_text(data, shown)
    split = split_lines(text)
    lines = split if universal_lines(text) else io.StringIO(text, newline=None)
    is_outside = outside(gold)
    reader = CARB_READERS.get(fmt)
    if not read_by_original(fmt, data):  # (OLLIE's plain lines: CaRB reads its tab layout)
        reader = None
    with curve_named(head_lines(data, 4096)):  # (a curve read as the format given)
        read_notes: tuple[str, ...] = ()
        if reader is None:  # no reader of CaRB's: benchie's, met by sentence text
            texts, read_notes = native_texts(data, shown, fmt)
            predicted = {t: [Extraction(p, a, c) for p, a, c in xs] for t, xs in texts.items()}
        elif reader in NUMBERED:
            predicted = read_reverb(lines, shown, confidence_only=is_outside, sentences=raw)
        else:
            predicted = READERS[reader](lines, shown, confidence_only=is_outside)
        if retokenize:  # each slot onto its sentence's tokens, as the file gives the sentence
            from benchie_cli.inputs.mistakes import retokenize_texts

            as_texts = {
                t: [(x.pred, x.args, x.confidence) for x in xs] for t, xs in predicted.items()
            }
            predicted = {
                t: [Extraction(p, a, c) for p, a, c in xs]
                for t, xs in retokenize_texts(as_texts)[0].items()
            }
        facts.lines = len(split)
        facts.extractions = sum(map(len, predicted.values()))
        # A wrong format or split reads as nothing, or as no sentence of the split: CaRB would
        # print 0.0 (or a precision of 1 over nothing); that is an unusable input, not a score.
        if facts.extractions == 0:
            raise BenchieError(
                f"no extraction read as {fmt}: an empty file, or another format (--input-format)",
                path=shown,
            )
    unaligned = sum(map(is_outside, predicted))  # (in C: 10^3 sentences and more)
    if unaligned == len(predicted):
        raise BenchieError(
            f"none of its {unaligned:,} sentence(s) is "
            + (
                "one of the sentences --sentences lists (a line that gives no extraction "
                "names no sentence): nothing to score"
                if restrict
                else "a sentence of this CaRB split: another language (--lang), split "
                "(--split), or another file"
            ),
            path=shown,
        )
    if unaligned and strict:
        raise BenchieError(
            f"{unaligned:,} of its {len(predicted):,} sentences are not in this CaRB split"
            f"{' or not among the sentences --sentences lists' if restrict else ''} "
            "(an error under --strict)",
            path=shown,
            exit_code=ExitCode.FAILED,
        )
    # (benchie's readers say what they skip themselves, in read_notes)
    # (the text's lines are the bytes' where the text holds no other break and the bytes no
    # BOM: counted, not split again)
    same = split if lines is split and not data.startswith(BOM) else None
    said = reading_notes(data, fmt, facts.extractions, same) if reader is not None else []
    if said and strict:
        raise BenchieError(
            f"{said[0]} (an error under --strict)", path=shown, exit_code=ExitCode.FAILED
        )
    notes = [*read_notes, *said]

    collided = len(predicted) - len(set(map(sentence_key, predicted)))
    if collided:  # CaRB keys sentences by a normalised text: one of each such pair counts
        collision = (
            f"{collided:,} of its sentence texts differ from another only where CaRB's "
            "sentence key ignores (spaces, punctuation, bracket escapes): as by CaRB's scorer, "
            "only one text's extractions are scored for each key: the last in the file"
        )
        if strict:
            raise BenchieError(
                f"{collision} (an error under --strict)", path=shown, exit_code=ExitCode.FAILED
            )
        notes.append(collision)
    if reader in NUMBERED and raw is not None:
        wrong, checked = reverb_mismatches(text, raw)
        if wrong:
            mismatch = (
                f"{wrong:,} of its {checked:,} lines name by number (column 2) a sentence of "
                "the split's sentences.txt other than their own (column 13): CaRB's reader "
                "takes the number, as here, so they are scored against other sentences; "
                "were its numbers for another input file?"
            )
            if strict:
                raise BenchieError(
                    f"{mismatch} (an error under --strict)",
                    path=shown,
                    exit_code=ExitCode.FAILED,
                )
            notes.append(mismatch)
    scores = carb_scores(gold, predicted, metrics, moie=moie, restrict=restrict)
    return CarbResult(name, facts, 0, scores, unaligned, notes=tuple(notes), moie=moie)


def score_submission(
    path: str,
    name: str,
    fmt: str,
    gold: Extractions,
    ids: dict[str, str],
    *,
    strict: bool = False,
    metrics: Sequence[str] = ("carb",),
    raw: Sequence[str] | None = None,
    retokenize: bool = False,
    lang: str = ENGLISH,
    restrict: bool = False,
) -> CarbResult:
    """One submission in the CLI's format ``fmt`` (see :func:`reader_for`), of sentences in
    ``lang`` (by moie's rules unless English: :func:`by_moie`). A BenchIE TSV
    file gets the likely-mistake checks of ``--metric carb`` (a native output read as TSV,
    ids shifted by one), and one most of whose extractions have words their sentence lacks
    is refused: its ids cannot be line numbers of CaRB's sentences. ``raw``: the split's
    sentences as ReVerb's lines number them (:func:`raw_sentences`)."""
    # Reading and matching build ~10^5 small objects and no cycle: the collector's passes
    # over them (a tenth of the time) would find nothing to free.
    from benchie_cli.gc_pause import no_cyclic_gc

    with no_cyclic_gc():
        if fmt == "benchie":
            if retokenize:  # BenchIE's TSV reader of CaRB's metric takes every slot as given
                raise retokenize_refused("carb", fmt, display_name(path))
            return score_carb(
                path,
                name,
                gold,
                ids,
                strict=strict,
                check=MistakeCheck(lang, ids),
                misread=MISREAD_IDS,
                metrics=metrics,
                lang=lang,
                moie=by_moie(lang),
                restrict=restrict,
            )
        return score_native(
            path,
            name,
            fmt,
            gold,
            strict=strict,
            metrics=metrics,
            raw=raw,
            retokenize=retokenize,
            moie=by_moie(lang),
            restrict=restrict,
        )


def signature(
    gold: ResolvedGold,
    split: str,
    metric: str = "carb",
    input_format: str = "auto",
    retokenize: bool = False,
    subset: Subset | None = None,
) -> str:
    """What the numbers depend on: benchmark, split, language (another than English) and
    the scorer of its gold (``scorer:moie``), metric, version and the gold's hash, the
    subset of its sentences scored (``subset:50@...``), ``--retokenize``, and the rules'
    version of a file read by versioned rules (``input:llm-text@1``)."""
    versioned = f"|input:{signed(input_format)}" if input_format in VERSIONS else ""
    language = f"|lang:{gold.language}" if by_moie(gold.language) else ""
    scorer = f"|scorer:{MOIE}" if by_moie(gold.language) else ""
    return (
        f"benchie|benchmark:carb|split:{split}{language}|metric:{metric}{scorer}"
        f"|gold:{gold.version}@{gold.sha256[:12]}"
        f"{subset.signed() if subset is not None else ''}{'|retokenize' if retokenize else ''}"
        f"{versioned}|v:{__version__}"
    )


def build_report(
    gold: ResolvedGold,
    sentences: ResolvedGold,
    split: str,
    results: list[CarbResult],
    *,
    failures: list[Failure] | None = None,
    input_format: str = "auto",
    metrics: Sequence[str] = ("carb",),
    retokenize: bool = False,
    gold_sentences: int = 0,
    subset: Subset | None = None,
) -> dict[str, Any]:
    """The report: as ``--metric carb``'s (``carb_report.build_carb_report``, so its
    table and markdown views apply), naming the benchmark and the split; one object and
    one signature per metric of ``metrics`` (``carb``, ``carb-ss``), ranked by the first.
    Gold scored by moie's rules: the report names the scorer, and its ``gold`` the number
    of gold sentences scored (``gold_sentences``, moie's "Num Final Sentences")."""
    f1s = [r.result.optimal[2] for r in results]
    choice = ",".join(metrics)
    moie = by_moie(gold.language)
    report: dict[str, Any] = {
        "schema": REPORT_SCHEMA,
        "benchie_version": __version__,
        "benchmark": "carb",
        "metric": choice,
        **({"scorer": MOIE} if moie else {}),
        "signature": signature(gold, split, metrics[0], input_format, retokenize, subset),
        **{
            signature_key(m): signature(gold, split, m, input_format, retokenize, subset)
            for m in metrics[1:]
        },
        "gold": {
            "benchmark": "carb",
            "version": gold.version,
            "split": split,
            "language": gold.language,
            "files": [{"path": stored(gold), "sha256": gold.sha256}],
            "sentences": {"path": stored(sentences), "sha256": sentences.sha256},
            **({"gold_sentences": gold_sentences} if moie else {}),
        },
        # (only when given: reports of whole splits keep their bytes)
        **({"subset": subset.as_json()} if subset is not None else {}),
        "options": {
            "benchmark": "carb",
            "split": split,
            "metric": choice,
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
                "unknown_sentence_ids": r.unknown,
                **{m: r.as_json(m) for m in metrics},
            }
            for r, f1 in zip(results, f1s, strict=True)
        ],
    }
    if failures:
        report["failures"] = [f.as_json() for f in failures]
    return report


def stored(f: ResolvedGold) -> str:
    """A gold file's path as a report names it: in the store (``carb/1.0.0/...``,
    ``carb/es/1.0.0/...``), or as given (``--gold-file``; its sentences are its own, listed
    from it)."""
    if f.manifest is None:
        return f.display_path
    return f"{where_in_store(f.language)}/{f.display_path}"


def load_gold(gold: ResolvedGold) -> Extractions:
    """CaRB's gold from the checked bytes."""
    return load_reference(gold)


def read_published(path: str) -> Extractions:
    """A published CaRB gold file (moie's ``<lang>_test.tsv``) read as scoring reads it, for
    ``benchie benchmark add carb`` to check that it reads: its tuples by sentence text. A
    line the reader refuses, bytes that are not UTF-8, or a file without a tuple are a
    ``ValueError`` naming ``path`` (and the line), as the other benchmarks' readers raise."""
    try:
        extractions = read_file(path, read_gold)
    except BenchieError as exc:
        where = f"{exc.path}:{exc.line}" if exc.line is not None else str(exc.path or path)
        raise ValueError(f"{where}: {exc.message}") from None
    if not extractions:
        raise ValueError(f"{path}: no gold tuple in it (sentence, relation, arguments, tabs)")
    return extractions


class SplitStats(Record):
    """What ``gold stats --benchmark carb`` counts in one split, read as scoring reads it."""

    split: str
    #: Input sentences: the lines of the split's sentences file (the ids of BenchIE TSVs).
    sentences: int
    #: Distinct sentences with at least one gold tuple: the sentences scores are over.
    gold_sentences: int
    #: Gold tuples (CaRB's extractions): one per gold line, nothing de-duplicated, as CaRB's
    #: gold reader reads them; recall is a share of these.
    tuples: int

    def as_json(self) -> dict[str, Any]:
        return {
            "split": self.split,
            "sentences": self.sentences,
            "gold_sentences": self.gold_sentences,
            "tuples": self.tuples,
        }


def split_stats(store: GoldStore, version: str, split: str) -> SplitStats:
    """The counts of a split, from the bytes checked against the manifest (the manifest's own
    ``sentences`` counts are what its writer saw; these are what a run reads)."""
    gold, sentences = resolve_split(store, version, split)
    extractions = load_gold(gold)
    return SplitStats(
        split,
        len(sentence_ids(sentences)),
        len(extractions),
        sum(len(tuples) for tuples in extractions.values()),
    )


def gold_stats(root: GoldDirs, version: str) -> tuple[list[dict[str, Any]], list[list[str]]]:
    """``gold stats --benchmark carb``: each split's counts, from the files checked against
    the manifest, in the manifest's split order; as JSON objects and as table rows."""
    store = carb_store(root)
    splits = [str(e.facet) for e in store.manifest(version).files if e.kind == "gold"]
    doc = []
    rows = [["split", "sentences", "gold sentences", "tuples"]]
    for split in splits:
        stats = split_stats(store, version, split)
        doc.append({"benchmark": "carb", "version": version, **stats.as_json()})
        rows.append([split, str(stats.sentences), str(stats.gold_sentences), str(stats.tuples)])
    return doc, rows


def _gold_language(request: Request) -> None:
    """CaRB's gold is of one of its languages: the store's split and version, or a file of
    the user's (``--gold-file``), which is one split of one version."""
    check_language(request)
    check_gold_file_alone(request)


def _store_gold(
    root: GoldDirs, language: str, version: str | None, split: str
) -> tuple[GoldStore, str, ResolvedGold, ResolvedGold]:
    """The store of ``language``'s gold, the version (default: its latest), and the split's
    gold and sentences files, checked against the version's manifest."""
    gold_store = language_store(root, language, split)
    version = version or latest_version(gold_store)
    gold, sentences = resolve_split(gold_store, version, split)
    return gold_store, version, gold, sentences


def restricted(
    sentences: SubsetFile, extractions: Extractions, ids: dict[str, str], where: str
) -> tuple[Subset, Extractions]:
    """The gold's sentences a ``--sentences`` file lists (by id: a line number of the
    split's sentences file, or by text) and the gold of those alone (docs/subsets.md). Only
    sentences with gold tuples can be listed: CaRB scores no other."""
    keys = set(group(extractions))
    subset = choose(sentences, [(i, t) for i, t in ids.items() if sentence_key(t) in keys], where)
    chosen = {sentence_key(t) for t in subset.texts}
    return subset, {t: xs for t, xs in extractions.items() if sentence_key(t) in chosen}


def _shared_keys(extractions: Extractions) -> int:
    """How many of the gold's sentence texts share CaRB's sentence key with an earlier one:
    the scorer keeps the last text's tuples of each key, so the others' are never scored
    (moie's Telugu gold has one such pair)."""
    return len(extractions) - len(group(extractions))


class CarbRunner:
    """``score --benchmark carb`` and CaRB's rows of the suite (:class:`Runner`)."""

    counts_splits = True

    def score(self, request: Request, hooks: Hooks) -> Outcome:
        """CaRB's metrics against a split of CaRB's own gold."""
        self.check(request)
        metrics = request.metrics.split(",")
        check_stdin_once(request.gold_file, request.paths)
        expected = expected_prefix(request.expect_gold)
        stores: list[GoldDirs] = []
        lang = request.lang
        if request.gold_file is not None:
            gold, sentences, extractions = resolve_gold_tsv(request.gold_file, lang)
            version = split = GOLD_FILE
            shown_gold = gold.display_path
        else:
            split = check_split(request)
            root = resolve(request.gold_dir)
            stores.append(root)
            store, version, gold, sentences = _store_gold(root, lang, request.gold_version, split)
            if not store.manifest(version).released:
                hooks.tell(draft_warning(version))
            extractions = load_gold(gold)
            shown_gold = stored(gold)
        check_output(
            request.output, [*request.inputs, *gold.inputs, *sentences.inputs], stores=stores
        )
        check_pinned(gold.sha256, expected, request.expect_gold, shown_gold)
        ids = sentence_ids(sentences)
        raw = raw_sentences(sentences)
        where = "the gold file" if request.gold_file is not None else f"CaRB's {split} split"
        subset = None
        if request.sentences is not None:
            subset, extractions = restricted(
                read_subset(request.sentences), extractions, ids, where
            )
        shared = _shared_keys(extractions)
        if shared:
            hooks.say(
                f"{shown_gold}: warning: {shared:,} of its sentence texts differ from another "
                "only where CaRB's sentence key ignores (spaces, punctuation, bracket escapes): "
                "as by the scorer, only the last one's tuples are scored"
            )

        read_as: set[str] = set()

        def score_one(submission: Submission) -> CarbResult:
            shown = display_name(submission.path)
            fmt = reader_for(submission.path, request.input_format)
            read_as.add(fmt)
            scored = score_submission(
                submission.path,
                submission.name,
                fmt,
                extractions,
                ids,
                strict=request.strict,
                metrics=metrics,
                raw=raw,
                retokenize=request.retokenize,
                lang=lang,
                restrict=subset is not None,
            )
            if scored.facts.sha256 == gold.sha256:
                raise BenchieError(
                    "it is the gold itself (the same bytes as the gold scored against): give "
                    "the system's output",
                    path=shown,
                )
            if scored.outside_sentences and subset is not None:
                hooks.say(
                    f"{shown}: warning: {scored.outside_sentences:,} of its sentences are "
                    f"not among the {subset.size:,} sentences of {subset.file.shown} "
                    "(--sentences): not scored (an error under --strict)"
                )
            elif scored.outside_sentences:
                hooks.say(
                    f"{shown}: warning: {scored.outside_sentences:,} of its sentences are "
                    f"not in {where}: their extractions set thresholds only, "
                    "as in CaRB's scorer (an error under --strict)"
                )
            for note in scored.notes:
                hooks.say(f"{shown}: warning: {note} (an error under --strict)")
            return scored

        results, failures = each_submission(request.batch, hooks, score_one)
        report = build_report(
            gold,
            sentences,
            split,
            results,
            failures=failures,
            input_format=recorded_input(request.input_format, read_as),
            metrics=metrics,
            retokenize=request.retokenize,
            gold_sentences=len(extractions) - shared,
            subset=subset,
        )
        language = f", {lang}" if by_moie(lang) else ""
        label = f"{len(results)} system(s), CaRB gold " + (
            f"file {gold.display_path}"
            if version == GOLD_FILE
            else f"{version} ({split}{language})"
        )
        curves = [c for r in results for c in r.curves(metrics)]
        return Outcome(report, label, failures, len(request.batch), curves=curves)

    def check(self, request: Request) -> None:
        _gold_language(request)
        refuse_benchie_options_of(
            request, "(CaRB scores every line as given); use --metric benchie,carb"
        )

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
        """A ``score --benchmark carb`` report rebuilt: the gold and sentences of the split
        and language of the CaRB version the report names (a language other than English:
        the part of moie's files the user added, scored by moie's rules), each checked
        against that version's manifest (a report naming other bytes then differs in
        ``gold``), and each submission read as ``score`` read it, with the input format the
        report recorded.

        The version is resolved by name, not searched for by hash as a BenchIE report's
        gold is: CaRB's gold has no ``--gold-file``, so a report's gold is always a store
        version's. A version the store lacks is refused (exit 2) naming the hash the report
        gives."""
        from benchie_cli.inputs.formats import INPUT_FORMATS

        systems, gold = report["systems"], report["gold"]
        input_format = report["options"].get("input_format", "auto")
        if input_format not in INPUT_FORMATS:
            raise BenchieError(f"the report names an unknown input format {brief(input_format)}")
        listed = subset_given(report, sentences)
        version, split = gold["version"], gold["split"]
        lang = str(gold.get("language", ENGLISH))
        if (version == GOLD_FILE) != (gold_file is not None):
            raise BenchieError(
                f"the report was scored with --gold-file {gold['files'][0]['path']}: give "
                "--gold-file with that file"
                if gold_file is None
                else f"the report names the store's CaRB gold {version} ({split}); --gold-file "
                "does not apply (give --gold-dir)"
            )
        if gold_file is not None:
            resolved, sentences_file, extractions = resolve_gold_tsv(gold_file, lang)
        else:
            root = resolve(gold_dir)
            store = language_store(root, lang, split)
            if version not in store.versions() and version not in store.tracked():
                raise BenchieError(
                    f"the gold stores ({root.where()}) have no CaRB gold version "
                    f"{version!r} (the report's {split} gold has sha256 "
                    f"{gold['files'][0]['sha256']}); give --gold-dir"
                )
            resolved, sentences_file = resolve_split(store, version, split)
            extractions = load_gold(resolved)
        ids = sentence_ids(sentences_file)
        raw = raw_sentences(sentences_file)
        subset = None
        if listed is not None:
            where = "the gold file" if gold_file is not None else f"CaRB's {split} split"
            subset, extractions = restricted(listed, extractions, ids, where)
        metrics = report["metric"].split(",")
        retokenize = report["options"].get("retokenize") is True
        results = [
            score_submission(
                path,
                system["name"],
                reader_for(path, input_format),
                extractions,
                ids,
                metrics=metrics,
                raw=raw,
                retokenize=retokenize,
                lang=lang,
                restrict=subset is not None,
            )
            for system, path in zip(systems, submissions, strict=True)
        ]
        rebuilt = build_report(
            resolved,
            sentences_file,
            split,
            results,
            input_format=input_format,
            metrics=metrics,
            retokenize=retokenize,
            gold_sentences=len(extractions) - _shared_keys(extractions),
            subset=subset,
        )
        return as_reported(report, rebuilt)

    def gold(self, request: Request) -> tuple[str, str]:
        if request.gold_file is not None:
            gold = resolve_gold_tsv(request.gold_file, request.lang)[0]
        else:
            root = resolve(request.gold_dir)
            split = check_split(request)
            gold = _store_gold(root, request.lang, request.gold_version, split)[2]
        return gold.sha256, stored(gold)

    def other_rows(self, given: SuiteInput) -> list[Row]:
        """The rows of each other language's test gold the user added (moie's), scored by
        moie's rules as ``score --benchmark carb --lang L`` scores them."""
        split = BENCHMARKS["carb"].splits[0]
        rows: list[Row] = []
        for language in BENCHMARKS["carb"].languages:
            e = part_for("carb", language, split) if by_moie(language) else None
            if e is not None and e.store(given.root).versions():
                rows += self._rows(given, language)
        return rows

    def rows(self, given: SuiteInput) -> list[Row]:
        """CaRB (s,m) and (s,s) on the test split: every line read as CaRB's scorer and
        ``score --benchmark carb`` read the file (those of other sentences add their
        confidences as thresholds only)."""
        return self._rows(given, ENGLISH)

    def _rows(self, given: SuiteInput, language: str) -> list[Row]:
        metrics = BENCHMARKS["carb"].metrics
        split = BENCHMARKS["carb"].splits[0]
        resolved = _store_gold(given.root, language, None, split)[2]
        gold = load_gold(resolved)
        gold_keys = group(gold).keys()
        predicted = {t: [Extraction(p, a, c) for p, a, c in xs] for t, xs in given.texts().items()}
        covered = len(group(predicted).keys() & gold_keys)
        known = frozenset(t for t in predicted if sentence_key(t) in gold_keys)
        if not covered:
            return [
                Row("carb", m, split, skipped=none_of_its("carb"), language=language)
                for m in metrics
            ]
        coverage = (covered, len(gold_keys))
        scores = carb_scores(gold, predicted, metrics, moie=by_moie(language))
        rows = []
        for m in metrics:
            p, r, f1 = scores[m].optimal
            numbers: dict[str, Any] = {"precision": p, "recall": r, "f1": f1, "auc": scores[m].auc}
            if len(scores[m].curve) == 1:
                numbers[SINGLE_THRESHOLD] = True
            row = Row(
                "carb",
                m,
                split,
                numbers,
                signature(resolved, split, m),
                coverage=coverage,
                known=known,
                language=language,
            )
            row.gold = {"version": resolved.version, "sha256": resolved.sha256}
            row.curve = curve_of(scores[m])
            rows.append(row)
        return rows

    def absent(self, root: GoldDirs) -> str | None:
        from benchie_cli.benchmarks.corpus import missing, present

        return None if present(root, "carb") else missing("carb")

    def sentences(self, request: Request, hooks: Hooks) -> Sentences:
        """The split's input sentences, by their line number in its sentences file (the id
        a BenchIE TSV line names it by under ``--benchmark carb``)."""
        _gold_language(request)
        split = check_split(request)
        root = resolve(request.gold_dir)
        store, version, gold, sentences = _store_gold(
            root, request.lang, request.gold_version, split
        )
        if not store.manifest(version).released:
            hooks.tell(draft_warning(version))
        items = list(sentence_ids(sentences).items())
        return Sentences(items, [*gold.inputs, *sentences.inputs], root)

    def gold_stats(
        self, root: GoldDirs, version: str
    ) -> tuple[list[dict[str, Any]], list[list[str]]]:
        return gold_stats(root, version)


RUNNER: Runner = CarbRunner()
