"""The Python API: load a gold, score files or in-memory extractions, analyse systems.

A notebook or a script should not rebuild the CLI's resolve-load-score path by hand: that
path checks the gold against its manifest, converts native outputs, and pins every option
in the report's signature, and a hand-made copy silently skips some of it. These functions
take the same steps as ``benchie score`` and ``benchie analyze``, in the same order, so a
report written from Python is byte for byte the one the CLI writes:

    from benchie_cli import api

    gold = api.load_gold("en", version="1.0.0")
    report = api.score(gold, "examples/submissions/en/clausie.tsv")
    s = report["clausie"]
    print(s.precision, s.recall, s.f1, report.signature)

    mine = api.score_extractions(gold, [("1", "He", "was", "born")], name="mine")
    print(mine.tp, mine.fp, mine.fn)

Every failure a user can cause raises ``BenchieError``, as in the
CLI (where it becomes one line on stderr); warnings the CLI prints (a draft gold, a native
file's conversion) are Python warnings here.
"""

from __future__ import annotations

import functools
import json
import math
import sys
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from benchie_cli import limits
from benchie_cli.benchmarks.benchie.run import (
    Gold,
    OnOutcome,
    check_metric_options,
    prepare_native,
    read_as,
    recorded_format,
    score_batch,
)
from benchie_cli.benchmarks.benchie.run import load_gold as _load_gold
from benchie_cli.benchmarks.benchie.scoring import (
    ScoreOptions,
    Scorer,
    SystemResult,
)
from benchie_cli.benchmarks.runner import NothingScored
from benchie_cli.errors import BenchieError
from benchie_cli.gc_pause import no_cyclic_gc
from benchie_cli.inputs.batch import Submission, expand
from benchie_cli.inputs.formats import BENCHIE_TSV, INPUT_FORMATS
from benchie_cli.inputs.submission import Extraction, FileFacts
from benchie_cli.registry import BASE_FACET, DEFAULT_BENCHMARK, metrics_of
from benchie_cli.registry import DEFAULT_METRIC as BASE_METRIC
from benchie_cli.report import to_json, to_markdown, to_table
from benchie_cli.textio import (
    STDIN,
    hold_in_memory,
    release_spooled,
    spool,
    temporary_directory,
)
from benchie_cli.workers import allowed

if TYPE_CHECKING:
    from benchie_cli.benchmarks.carb.report import CarbResult

__all__ = [
    "BenchieError",
    "BenchieWarning",
    "BenchmarkReport",
    "CarbScores",
    "Extraction",
    "ExtractionLike",
    "Gold",
    "NothingScored",
    "Report",
    "Scores",
    "TripleLike",
    "analyze",
    "load_gold",
    "score",
    "score_answers",
    "score_extractions",
    "score_predictions",
    "to_json",
]

#: The ``file`` an in-memory system's scores name: there is no file.
IN_MEMORY = "<memory>"

#: Where a run's messages go: one line each, as the CLI prints them after ``benchie: ``
#: (``warning: gold 2.0.0 is a draft ...``, a native file's conversion summary, hints).
Say = Callable[[str], None]


class BenchieWarning(UserWarning):
    """A message the CLI prints on stderr (a draft gold, a native file's conversion, a
    likely mistake), issued as a Python warning by default."""


def _warn(line: str) -> None:
    """``line`` as a ``BenchieWarning`` pointing at the first frame outside this
    package (the user's call), however deep in it the message arose."""
    frame, level = sys._getframe(1), 2
    while frame.f_back is not None and frame.f_globals.get("__name__", "").startswith(
        "benchie_cli"
    ):
        frame, level = frame.f_back, level + 1
    warnings.warn(line, BenchieWarning, stacklevel=level)


def load_gold(
    lang: str = "en",
    version: str | None = None,
    facet: str = BASE_FACET,
    *,
    gold_dir: str | Path | None = None,
    gold_file: str | Path | None = None,
    say: Say = _warn,
) -> Gold:
    """The gold ``benchie score --lang LANG --gold-version V --facet F`` would score against.

    ``version`` defaults as the CLI's does (``$BENCHIE_GOLD_VERSION``, else the package's
    default); the version is read from the first store of the order holding it
    (``gold_dir``, else ``$BENCHIE_GOLD_DIR``; the checkout's ``gold/``; the user data
    directory; the installed package's gold: docs/install.md). ``gold_file`` replaces the
    stores (an organiser's own annotation file, ``-`` for standard input) and excludes
    ``version``. Store files are
    hashed and checked against their manifest: a gold that differs raises
    ``BenchieError``. A draft version is said through ``say`` (by default a
    ``BenchieWarning``), and so is a gold file with errors it was not reviewed with
    (``Gold.review``; ``score(strict=True)`` refuses it).

    :param lang: the language (``en``, ``de``, ``zh``).
    :param version: the store version (None: ``$BENCHIE_GOLD_VERSION``, else the default).
    :param facet: ``default``, ``concat``, ``minimal`` or ``entity``.
    :param gold_dir: the gold store directory (None: as the CLI finds it).
    :param gold_file: an annotation file instead of the store (excludes ``version``).
    :param say: where a draft version and the gold's errors are said.
    :returns: the gold, hash-checked; its index is compiled on first use.
    """
    return _load_gold(lang, version, facet, gold_dir=gold_dir, gold_file=gold_file, say=say)


@dataclass(frozen=True, slots=True)
class Scores:
    """One system's BenchIE scores (the numbers of its entry in the JSON report)."""

    name: str
    precision: float
    recall: float
    f1: float
    tp: int
    fp: int
    fn: int
    extractions: int
    implicit_removed: int
    unknown_sentence_ids: int
    #: Everything the scorer counted (per sentence, warnings, implicit extractions).
    result: SystemResult = field(repr=False, compare=False)

    @classmethod
    def of(cls, result: SystemResult) -> Scores:
        tp, fp, fn = result.totals
        p, r, f1 = result.scores
        return cls(
            result.name,
            p,
            r,
            f1,
            tp,
            fp,
            fn,
            result.facts.extractions,
            result.implicit_count,
            result.unknown_count,
            result,
        )


@dataclass(frozen=True, slots=True)
class CarbScores:
    """One system's CaRB scores (``score(..., metric="carb")``): P, R and F1 at the
    curve's point of best F1, the area under the curve, and its number of points."""

    name: str
    precision: float
    recall: float
    f1: float
    auc: float
    points: int
    extractions: int
    #: Extractions of sentence ids the gold lacks (left out).
    unknown_sentence_ids: int
    #: The curve and per-sentence statistics.
    result: CarbResult = field(repr=False, compare=False)

    @classmethod
    def of(cls, result: CarbResult, metric: str | None = None) -> CarbScores:
        """The scores under ``metric`` (``carb``, ``carb-ss``; default: the first run)."""
        scored = result.result if metric is None else result.scores[metric]
        p, r, f1 = scored.optimal
        return cls(
            result.name,
            p,
            r,
            f1,
            scored.auc,
            len(scored.curve),
            result.facts.extractions,
            result.unknown,
            result,
        )


@dataclass(frozen=True)
class Report:
    """What ``benchie score`` reports: ``data`` is the JSON document, ``systems`` the
    scores in the order given (BenchIE's, or CaRB's for ``metric="carb"``), ``carb``
    CaRB's scores of the same systems whenever CaRB's metric ran; ``failures`` the
    submissions that could not be scored."""

    data: dict[str, Any]
    systems: tuple[Scores, ...] | tuple[CarbScores, ...]
    carb: tuple[CarbScores, ...] = ()

    @property
    def signature(self) -> str:
        """The line that pins gold and options, to paste under a results table."""
        return str(self.data["signature"])

    @property
    def failures(self) -> list[dict[str, Any]]:
        return list(self.data.get("failures", []))

    def __getitem__(self, name: str) -> Scores | CarbScores:
        for system in self.systems:
            if system.name == name:
                return system
        raise KeyError(name)

    def to_json(self) -> bytes:
        """The bytes ``benchie score --format json -o FILE`` writes."""
        return to_json(self.data)

    def to_table(self) -> str:
        """The table ``benchie score`` prints."""
        return to_table(self.data)

    def to_markdown(self) -> str:
        return to_markdown(self.data)

    def to_html(self) -> str:
        """The page ``benchie score --format html`` writes: the leaderboard with 95%
        bootstrap intervals and pairwise significance (BenchIE's metric only)."""
        from benchie_cli.leaderboard import to_html

        results = [s.result for s in self.systems if isinstance(s, Scores)]
        if "metric" in self.data or len(results) != len(self.systems):
            raise ValueError("the html leaderboard page shows BenchIE's metric only")
        return to_html(self.data, results)


def _check_gold(gold: object) -> None:
    if not isinstance(gold, Gold):
        raise BenchieError(f"gold: a Gold from load_gold(), not {type(gold).__name__}")


def _check_int(name: str, value: object, bounds: tuple[int, int]) -> None:
    """``value`` is an int within ``bounds`` (``benchie_cli.limits``), as the CLI's option."""
    if type(value) is not int or not bounds[0] <= value <= bounds[1]:
        raise BenchieError(
            f"{name}: an integer from {bounds[0]:,} to {bounds[1]:,}, not {value!r:.40}"
        )


def _check_common(input_format: str, jobs: int | None) -> None:
    """The settings ``score()`` and ``analyze()`` share, checked as the CLI checks them."""
    if input_format not in INPUT_FORMATS:
        raise BenchieError(
            f"input_format: one of {', '.join(INPUT_FORMATS)}, not {input_format!r:.40}"
        )
    if jobs is not None:
        _check_int("jobs", jobs, limits.JOBS)


def _submissions(
    paths: Sequence[str | Path], names: Sequence[str] | None, *, stdin: bool = False
) -> list[Submission]:
    """As the CLI names them (``NAME=PATH``, a directory's ``*.tsv`` by stem, else the
    stem), or by ``names``, one per path. ``-`` (standard input) only where ``stdin``."""
    if not paths:
        raise BenchieError("no submission to score")
    for path in paths:
        if not isinstance(path, (str, Path)):
            raise BenchieError(f"a submission is a path (str or Path), not {type(path).__name__}")
    if names is not None and (
        isinstance(names, str)
        or not isinstance(names, Sequence)
        or not all(isinstance(n, str) and n for n in names)
    ):
        raise BenchieError("names: a sequence of non-empty str, one per submission")
    if names is None:
        batch = expand(str(p) for p in paths)
    else:
        if len(names) != len(paths):
            raise BenchieError(f"{len(names)} name(s) for {len(paths)} submission(s)")
        if len(set(names)) != len(names):
            raise BenchieError("two submissions have the same name")
        batch = [Submission(n, str(p)) for n, p in zip(names, paths, strict=True)]
    if not stdin and any(s.path == STDIN for s in batch):
        raise BenchieError("the API reads files: give a path, not '-'")
    return batch


def _ignore(_: object) -> None:
    pass


def score(
    gold: Gold,
    *submissions: str | Path,
    names: Sequence[str] | None = None,
    metric: str = "benchie",
    strip_implicit: bool = True,
    case_sensitive: bool = False,
    retokenize: bool = False,
    per_sentence: bool = False,
    strict: bool = False,
    jobs: int | None = None,
    input_format: str = "auto",
    say: Say = _warn,
    on_outcome: OnOutcome = _ignore,
    stdin: bool = False,
) -> Report:
    """Score submission files as ``benchie score`` does, with the same options: the CLI's
    ``score`` is this function and a printer.

    Submissions are named as on the command line (``NAME=PATH``, a directory's ``*.tsv``,
    a file's stem) unless ``names`` gives one per path. ``metric`` is ``benchie``,
    ``carb`` (CaRB's metric, English, against the version's CaRB reference file) or
    ``benchie,carb`` (both: BenchIE's report with CaRB's numbers beside, the BenchIE
    paper's Table 5). A submission that cannot be scored is listed in ``Report.failures``
    and the others are scored; when none can be, ``NothingScored`` is raised.
    Messages (conversion summaries, CaRB's unknown ids) go to ``say``; each outcome to
    ``on_outcome`` as it comes. ``stdin`` lets ``-`` name standard input (the CLI).

    :param gold: the gold to score against, from ``load_gold()``.
    :param submissions: paths (``NAME=PATH``, a directory of ``*.tsv``), one system each.
    :param names: one name per path, instead of the command line's naming.
    :param metric: ``benchie``, ``carb``, ``carb-ss`` or one of them joined by commas.
    :param strip_implicit: remove implicit extractions first (``--keep-implicit``: False).
    :param case_sensitive: compare tokens case-sensitively in the implicit test.
    :param retokenize: re-split slots onto their sentence's tokens where unambiguous.
    :param per_sentence: add per-sentence counts to the report.
    :param strict: make warnings errors (unknown ids, empty slots, likely mistakes).
    :param jobs: worker processes: for a large file, and for CaRB's statistics (None: the
        machine's cores; 1: this process alone).
    :param input_format: ``auto``, ``benchie`` or a native format (docs/native-formats.md).
    :param say: where messages go (default: a ``BenchieWarning`` each).
    :param on_outcome: called with each result or failure, in order.
    :param stdin: whether ``-`` may name standard input.
    :returns: the report (``Report.data`` is the JSON document).
    """
    _check_gold(gold)
    _check_common(input_format, jobs)
    check_metric_options(
        metric,
        gold,
        facet=gold.facet,
        strip_implicit=strip_implicit,
        case_sensitive=case_sensitive,
        retokenize=retokenize,
        per_sentence=per_sentence,
    )
    batch = _submissions(submissions, names, stdin=stdin)
    with allowed(jobs):  # (CaRB's metrics' statistics, as the CLI shares them out)
        scored = score_batch(
            gold,
            batch,
            metric=metric,
            strip_implicit=strip_implicit,
            case_sensitive=case_sensitive,
            retokenize=retokenize,
            per_sentence=per_sentence,
            strict=strict,
            jobs=jobs,
            input_format=input_format,
            say=say,
            on_outcome=on_outcome,
        )
    carb = tuple(CarbScores.of(r) for r in scored.carb)
    if not scored.results:  # CaRB's metrics alone
        return Report(scored.data, carb, carb)
    return Report(scored.data, tuple(Scores.of(r) for r in scored.results), carb)


#: One in-memory extraction: an ``Extraction`` or ``(sent_id, subject, relation,
#: object)``.
ExtractionLike = Extraction | tuple[str, str, str, str]


def _tsv_line(item: ExtractionLike, index: int) -> str:
    """One extraction as a BenchIE TSV line; slots are whitespace-normalised as the reader
    does, so no tab or line break inside a slot can change the columns."""
    if isinstance(item, Extraction):
        sent_id, subject, relation, obj = item.sent_id, item.subject, item.relation, item.object
    else:
        if not isinstance(item, (tuple, list)) or len(item) != 4:
            raise BenchieError(
                f"extraction {index}: {item!r:.80} is not (sent_id, subject, relation, object)"
            )
        if not all(isinstance(x, str) for x in item):  # str(None), str(b"1") would score
            raise BenchieError(
                f"extraction {index}: every field must be a str, not "
                f"{', '.join(sorted({type(x).__name__ for x in item if not isinstance(x, str)}))}"
            )
        sent_id, subject, relation, obj = item
    sent_id = sent_id.strip()
    if not sent_id or any(c in sent_id for c in "\t\r\n"):
        raise BenchieError(f"extraction {index}: sentence id {sent_id!r} is empty or split")
    slots = (" ".join(s.split()) for s in (subject, relation, obj))
    line = "\t".join((sent_id, *slots)) + "\n"
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (text decoded with surrogateescape)
        raise BenchieError(f"extraction {index}: text that is not valid Unicode") from None
    return line


def score_extractions(
    gold: Gold,
    extractions: Iterable[ExtractionLike],
    name: str = "system",
    *,
    strip_implicit: bool = True,
    case_sensitive: bool = False,
    retokenize: bool = False,
    strict: bool = False,
    say: Say = _warn,
) -> Scores:
    """Score extractions held in memory, exactly as a file of the same lines would be.

    Each extraction is an ``Extraction`` or a ``(sent_id, subject, relation,
    object)`` tuple; extraction ``k`` (1-based) is line ``k`` in the result's warnings.
    The scores' ``file`` is ``IN_MEMORY``, and so is an error's. Likely mistakes (ids
    shifted by one, another language) are said through ``say``, and refused as in
    ``score()`` when nothing can be scored.

    :param gold: the gold, from ``load_gold()``.
    :param extractions: ``Extraction`` objects or ``(sent_id, subject, relation, object)``.
    :param name: the system's name in the scores.
    :param strip_implicit: remove implicit extractions first.
    :param case_sensitive: compare tokens case-sensitively in the implicit test.
    :param retokenize: re-split slots onto their sentence's tokens where unambiguous.
    :param strict: make warnings errors.
    :param say: where messages go.
    :returns: the system's BenchIE scores.
    """
    _check_gold(gold)
    if not isinstance(name, str) or not name:
        raise BenchieError(f"name: a non-empty str, not {name!r:.40}")
    if isinstance(extractions, (str, bytes)) or not isinstance(extractions, Iterable):
        raise BenchieError(
            f"extractions: an iterable of extractions, not {type(extractions).__name__}"
        )
    lines = [_tsv_line(item, k) for k, item in enumerate(extractions, 1)]
    if not lines:
        raise BenchieError("no extraction to score", path=name)
    options = ScoreOptions(gold.language, gold.facet, strip_implicit, case_sensitive, retokenize)
    with temporary_directory("benchie-") as tmp:
        path = Path(tmp) / "extractions.tsv"
        path.write_text("".join(lines), "utf-8")
        scorer = Scorer(gold.compiled, options, mistakes=gold.mistake_check(retokenize))
        try:
            with no_cyclic_gc():
                result = scorer.score(str(path), name, strict=strict)
        except BenchieError as exc:  # named as the extractions are: no file is left
            raise BenchieError(
                exc.message, path=IN_MEMORY, line=exc.line, exit_code=exc.exit_code
            ) from None
    for finding in result.findings:
        say(f"{name}: hint: {finding.message} [{finding.code}]")
    facts = FileFacts(IN_MEMORY, result.facts.sha256, result.facts.lines, result.facts.extractions)
    return Scores.of(replace(result, facts=facts))


#: One prediction held in memory: ``(subject, relation, object, *more arguments)``, or an
#: object with the usual key names (``subject``/``relation``/``object``, ``head``/``tail``,
#: ``sub``/``rel``/``obj``, ``arg1``/``rel``/``arg2``, ``s``/``p``/``o``; ``args`` for
#: n-ary; an optional ``confidence``), as the ``json`` format reads them.
TripleLike = Sequence[str] | Mapping[str, object]


@dataclass(frozen=True)
class BenchmarkReport:
    """What scoring predictions held in memory gives: ``data`` is the JSON report ``benchie
    score`` writes for the same predictions in a file (its ``file`` is ``"<memory>"``)."""

    data: dict[str, Any]

    @property
    def signature(self) -> str:
        """The line that pins gold, metric and options, to paste under a results table."""
        return str(self.data["signature"])

    @property
    def numbers(self) -> dict[str, Any]:
        """The system's numbers: BenchIE's (``precision``, ``recall``, ``f1``, ``tp``...)
        at the top of its entry, another benchmark's under its metric's name."""
        system: dict[str, Any] = self.data["systems"][0]
        key = self.data.get("metric", "").split(",")[0]
        return dict(system[key]) if key in system else system

    def to_json(self) -> bytes:
        """The bytes ``benchie score --format json -o FILE`` writes."""
        return to_json(self.data)

    def to_table(self) -> str:
        return to_table(self.data)

    def to_markdown(self) -> str:
        return to_markdown(self.data)


def _keyed(key: object, by: str) -> dict[str, str]:
    if not isinstance(key, str) or not key.strip():
        raise BenchieError(f"a sentence's {by} must be a non-empty str, not {key!r:.40}")
    return {"sentence" if by == "text" else "sent_id": key}


def _triple_json(item: object, key: str, k: int) -> object:
    """One prediction as the ``json`` reader reads it (its errors name the sentence)."""
    if isinstance(item, Mapping):
        conf = item.get("confidence")
        finite = (
            isinstance(conf, (int, float)) and not isinstance(conf, bool) and math.isfinite(conf)
        )
        if conf is not None and not finite:
            raise BenchieError(
                f"prediction {k} of {key[:60]!r}: a confidence must be a finite number, not "
                f"{conf!r:.40}"
            )
        return dict(item)
    if isinstance(item, (tuple, list)) and len(item) >= 3 and all(isinstance(x, str) for x in item):
        subject, relation, *args = item
        return {"subject": subject, "relation": relation, "args": args}
    raise BenchieError(
        f"prediction {k} of {key[:60]!r}: a (subject, relation, object, ...) tuple of str "
        f"or an object with the usual keys, not {item!r:.60}"
    )


def score_predictions(
    predictions: Mapping[str, Iterable[TripleLike]],
    *,
    benchmark: str = DEFAULT_BENCHMARK,
    metric: str | None = None,
    lang: str = "en",
    split: str | None = None,
    gold_version: str | None = None,
    gold_dir: str | Path | None = None,
    name: str = "system",
    by: str = "text",
    strict: bool = False,
    retokenize: bool = False,
    say: Say = _warn,
) -> BenchmarkReport:
    """Score predictions held in memory against any benchmark and metric, with the CLI's
    numbers, report and signature, and no file written (a notebook, an evaluation loop).

    ``predictions`` maps each sentence, by its text (``by="text"``, aligned to the gold as a
    file's sentences are) or by its gold id (``by="id"``: BenchIE's ids), to its triples
    (``TripleLike``). They are scored exactly as a ``json`` file of the same
    predictions: ``benchie score --benchmark BENCHMARK --input-format json FILE``.

    :param predictions: sentence -> its triples.
    :param benchmark: the benchmark's name (``benchie``, ``carb``, ``oie2016``, ...).
    :param metric: its metric(s), joined by commas (None: its first).
    :param lang: BenchIE's language (the other benchmarks are English).
    :param split: the benchmark's split (None: its first).
    :param gold_version: the gold version (None: the default, as the CLI's).
    :param gold_dir: the gold store (None: as the CLI finds it).
    :param name: the system's name in the report.
    :param by: ``text`` (keys are sentence texts, aligned to the gold) or ``id`` (gold ids).
    :param strict: make warnings errors (for answers: any fragment no rule reads).
    :param retokenize: BenchIE's ``--retokenize``.
    :param say: where messages go.
    :returns: the report ``benchie score`` writes for the same file.
    """
    if by not in ("text", "id"):
        raise BenchieError(f"by: 'text' or 'id', not {by!r:.40}")
    if not isinstance(predictions, Mapping):
        raise BenchieError(
            f"predictions: a mapping of sentence to triples, not {type(predictions).__name__}"
        )
    lines = []
    for key, triples in predictions.items():
        if isinstance(triples, (str, bytes)) or not isinstance(triples, Iterable):
            raise BenchieError(f"the triples of {str(key)[:60]!r}: an iterable of triples")
        doc: dict[str, object] = {**_keyed(key, by)}
        doc["triples"] = [_triple_json(t, key, k) for k, t in enumerate(triples, 1)]
        try:
            lines.append(orjson.dumps(doc) + b"\n")
        except TypeError as exc:  # bytes, a set, a lone surrogate, an int beyond 64 bits
            raise BenchieError(
                f"the triples of {key[:60]!r}: only str (and a number for a confidence) can "
                f"be scored ({exc})"
            ) from None
    return _score_in_memory(
        b"".join(lines),
        "json",
        benchmark,
        metric,
        lang,
        split,
        gold_version,
        gold_dir,
        name,
        strict,
        retokenize,
        say,
    )


def score_answers(
    answers: Mapping[str, str | Sequence[str]],
    *,
    benchmark: str = DEFAULT_BENCHMARK,
    metric: str | None = None,
    lang: str = "en",
    split: str | None = None,
    gold_version: str | None = None,
    gold_dir: str | Path | None = None,
    name: str = "system",
    by: str = "text",
    strict: bool = False,
    retokenize: bool = False,
    say: Say = _warn,
) -> BenchmarkReport:
    """Score an LLM's raw answers held in memory, parsed by ``llm-text@1``
    (docs/llm-text.md), as a file of the same answers is: ``answers`` maps each sentence (by
    its text, or its gold id with ``by="id"``) to the model's text. The report is the one
    ``benchie score`` writes for the JSON-lines file ``{"sentence": ..., "output": ...}`` of
    these answers, in this order, fragments no rule reads included.

    :param answers: sentence -> the model's text (a str, or a list of lines).
    :param benchmark: the benchmark's name (``benchie``, ``carb``, ``oie2016``, ...).
    :param metric: its metric(s), joined by commas (None: its first).
    :param lang: BenchIE's language (the other benchmarks are English).
    :param split: the benchmark's split (None: its first).
    :param gold_version: the gold version (None: the default, as the CLI's).
    :param gold_dir: the gold store (None: as the CLI finds it).
    :param name: the system's name in the report.
    :param by: ``text`` (keys are sentence texts, aligned to the gold) or ``id`` (gold ids).
    :param strict: make warnings errors (for answers: any fragment no rule reads).
    :param retokenize: BenchIE's ``--retokenize``.
    :param say: where messages go.
    :returns: the report ``benchie score`` writes for the same file.
    """
    if by not in ("text", "id"):
        raise BenchieError(f"by: 'text' or 'id', not {by!r:.40}")
    if not isinstance(answers, Mapping):
        raise BenchieError(
            f"answers: a mapping of sentence to answer, not {type(answers).__name__}"
        )
    lines = []
    for key, answer in answers.items():
        if not isinstance(answer, str) and not (
            isinstance(answer, Sequence) and all(isinstance(a, str) for a in answer)
        ):
            raise BenchieError(f"the answer of {str(key)[:60]!r}: a str or a list of str")
        doc: dict[str, object] = {**_keyed(key, by), "output": answer}
        try:
            lines.append(json.dumps(doc, ensure_ascii=False).encode() + b"\n")
        except UnicodeEncodeError:  # a lone surrogate (text decoded with surrogateescape)
            raise BenchieError(
                f"the answer of {key[:60]!r}: text that is not valid Unicode"
            ) from None
    return _score_in_memory(
        b"".join(lines),
        "llm-text",
        benchmark,
        metric,
        lang,
        split,
        gold_version,
        gold_dir,
        name,
        strict,
        retokenize,
        say,
    )


def _score_in_memory(
    data: bytes,
    fmt: str,
    benchmark: str,
    metric: str | None,
    lang: str,
    split: str | None,
    gold_version: str | None,
    gold_dir: str | Path | None,
    name: str,
    strict: bool,
    retokenize: bool,
    say: Say,
) -> BenchmarkReport:
    """``data`` (a file's bytes in ``fmt``, held in memory) scored by the one path every
    benchmark takes, as ``benchie score`` scores a file."""
    from benchie_cli.benchmarks import runner
    from benchie_cli.registry import BENCHMARKS

    if not isinstance(benchmark, str) or benchmark not in BENCHMARKS:
        raise BenchieError(
            f"unknown benchmark {benchmark!r:.40} (available: {', '.join(BENCHMARKS)})"
        )
    if not isinstance(name, str) or not name:
        raise BenchieError(f"name: a non-empty str, not {name!r:.40}")
    if metric is not None and not isinstance(metric, str):
        raise BenchieError(f"metric: names such as 'carb,carb-ss', not {metric!r:.40}")
    for label, value in (("lang", lang), ("split", split), ("gold_version", gold_version)):
        if value is not None and not isinstance(value, str):
            raise BenchieError(f"{label}: a str, not {value!r:.40}")
    if not callable(say):
        raise BenchieError(f"say: a function of one str, not {say!r:.40}")
    if not data:
        raise BenchieError("nothing to score: no sentence given")
    request = runner.Request(
        (Submission(name, IN_MEMORY),),
        benchmark,
        metric,
        gold_dir=None if gold_dir is None else str(gold_dir),
        gold_version=gold_version,
        lang=lang,
        split=split,
        retokenize=retokenize,
        strict=strict,
        input_format=fmt,
    )
    hold_in_memory(IN_MEMORY, data)
    try:
        outcome = runner.score(request, runner.Hooks(say=say))
    finally:
        release_spooled()
    return BenchmarkReport(outcome.report)


#: ``metric`` values of ``analyze()``: BenchIE's profile, with CaRB's numbers beside.
ANALYZE_METRICS = (BASE_METRIC, f"{BASE_METRIC},carb")


def analyze(
    gold: Gold,
    *submissions: str | Path,
    names: Sequence[str] | None = None,
    buckets: str | Path | None = None,
    cliques: str | Path | None = None,
    resamples: int = 1000,
    seed: int = 12345,
    test: str = "bootstrap",
    examples: int = 3,
    strip_implicit: bool = True,
    case_sensitive: bool = False,
    retokenize: bool = False,
    jobs: int | None = None,
    input_format: str = "auto",
    metric: str = "benchie",
    say: Say = _warn,
    on_outcome: OnOutcome = _ignore,
) -> dict[str, Any]:
    """Profile systems as ``benchie analyze`` does: the document its ``--format json``
    writes (``to_json(doc)`` gives the same bytes). Every facet the gold offers is
    profiled, whatever ``gold.facet`` is; ``metric="benchie,carb"`` adds CaRB's numbers
    beside BenchIE's (the BenchIE paper's Table 5; English). Submissions that cannot be
    scored are in the document's failures (and passed to ``on_outcome`` with each result);
    when none can be, ``NothingScored`` is raised. A pipe or FIFO is read once,
    whatever reads it later (each facet reads each submission).

    :param gold: the gold, from ``load_gold()``: every facet of its version is profiled.
    :param submissions: paths, one system each (not ``-``).
    :param names: one name per path.
    :param buckets: a file of sentence groups (``sent_id<TAB>group``) to score apart.
    :param cliques: a file of sentence cliques for the robustness scores (docs/analyze.md).
    :param resamples: bootstrap resamples of the confidence intervals.
    :param seed: the resampling seed (the same seed, the same intervals).
    :param test: the significance test (``bootstrap`` or ``permutation``).
    :param examples: error examples shown per bucket (0: none).
    :param strip_implicit: remove implicit extractions first.
    :param case_sensitive: compare tokens case-sensitively in the implicit test.
    :param retokenize: re-split slots onto their sentence's tokens where unambiguous.
    :param jobs: worker processes (None: the machine's cores).
    :param input_format: ``auto``, ``benchie`` or a native format.
    :param metric: ``benchie`` or ``benchie,carb``.
    :param say: where messages go.
    :param on_outcome: called with each result or failure.
    :returns: the document ``benchie analyze --format json`` writes.
    """
    from benchie_cli.analysis.profile import TESTS, AnalyzeOptions
    from benchie_cli.analysis.profile import analyze as run_analysis

    _check_gold(gold)
    _check_common(input_format, jobs)
    if test not in TESTS:
        raise BenchieError(f"unknown test {test!r} (available: {', '.join(TESTS)})")
    _check_int("resamples", resamples, limits.RESAMPLES)
    _check_int("seed", seed, limits.SEED)
    _check_int("examples", examples, limits.EXAMPLES)
    if metric not in ANALYZE_METRICS:
        raise BenchieError(
            f"unknown metric {metric!r} for analyze (available: {', '.join(ANALYZE_METRICS)})"
        )
    check_metric_options(metric, gold)
    batch = _submissions(submissions, names)
    facets = gold.facets()
    reference = gold.carb_reference if any(m.reference for m in metrics_of(metric)) else None
    # (as a score report records it: found before any conversion stands in for a file)
    recorded = recorded_format(input_format, [s.path for s in batch])
    try:
        formats = []
        for submission in batch:
            spool(submission.path)
            # (the index only for a native file: analyze loads each facet's index itself)
            conversion = prepare_native(
                submission.path, input_format, lambda: dict(gold.sentences), gold.language, say=say
            )
            formats.append(BENCHIE_TSV if conversion is None else conversion.format)
        options = AnalyzeOptions(
            gold.language,
            resamples,
            seed,
            test,
            examples,
            strip_implicit,
            case_sensitive,
            retokenize,
            read_as(recorded, formats),
        )
        with no_cyclic_gc(), allowed(jobs):
            report, results, failures = run_analysis(
                facets,
                batch,
                options,
                bucket_file=None if buckets is None else str(buckets),
                clique_file=None if cliques is None else str(cliques),
                jobs=jobs,
                carb_reference=reference,
                mistakes=functools.partial(gold.mistake_check, retokenize),
            )
    finally:
        release_spooled()
    for result in results:
        on_outcome(result)
    for failure in failures:
        say(failure.message)
        on_outcome(failure)
    if not report["systems"]:
        raise NothingScored(failures)
    return report
