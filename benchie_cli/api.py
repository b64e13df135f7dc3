"""The Python API: load a gold, score files or in-memory extractions, analyse systems.

A notebook or a script should not rebuild the CLI's resolve-load-score path by hand: that
path checks the gold against its manifest, converts native outputs, and pins every option
in the report's signature, and a hand-made copy silently skips some of it. These functions
take the same steps as ``benchie score`` and ``benchie analyze``, in the same order, so a
report written from Python is byte for byte the one the CLI writes::

    from benchie_cli import api

    gold = api.load_gold("en", version="1.0.0")
    report = api.score(gold, "examples/submissions/en/clausie.tsv")
    s = report["clausie"]
    print(s.precision, s.recall, s.f1, report.signature)

    mine = api.score_extractions(gold, [("1", "He", "was", "born")], name="mine")
    print(mine.tp, mine.fp, mine.fn)

Every failure a user can cause raises :class:`~benchie_cli.errors.BenchieError`, as in the
CLI (where it becomes one line on stderr); warnings the CLI prints (a draft gold, a native
file's conversion) are Python warnings here.
"""

from __future__ import annotations

import functools
import re
import sys
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchie_cli import LANGUAGES, default_gold_version, limits
from benchie_cli.benchmarks.benchie.index_cache import load_compiled
from benchie_cli.benchmarks.benchie.matching import CompiledGold
from benchie_cli.benchmarks.benchie.scoring import (
    ScoreOptions,
    Scorer,
    SystemResult,
    no_cyclic_gc,
    score_each,
)
from benchie_cli.errors import BenchieError, ExitCode
from benchie_cli.gold.parse import Gold as ParsedGold
from benchie_cli.gold.parse import parse_gold_bytes
from benchie_cli.gold.review import Review, review
from benchie_cli.gold.store import (
    GoldStore,
    ResolvedGold,
    resolve_gold_dir,
    resolve_gold_file,
)
from benchie_cli.inputs.batch import Failure, Submission, expand
from benchie_cli.inputs.formats import INPUT_FORMATS
from benchie_cli.inputs.mistakes import LANGUAGE_NAMES, MistakeCheck
from benchie_cli.inputs.submission import Extraction, FileFacts
from benchie_cli.registry import (
    BASE_FACET,
    DEFAULT_BENCHMARK,
    FACET_NAMES,
    METRICS,
    facets_of_file,
    metric_choice,
    metrics_of,
)
from benchie_cli.registry import (
    DEFAULT_METRIC as BASE_METRIC,
)
from benchie_cli.report import build_report, to_json, to_markdown, to_table
from benchie_cli.textio import (
    STDIN,
    display_name,
    is_regular_file,
    release_spooled,
    spool,
    temporary_directory,
)
from benchie_cli.tokens import language_hint, mostly_implicit

if TYPE_CHECKING:
    from benchie_cli.benchmarks.carb.report import CarbResult

__all__ = [
    "BenchieError",
    "BenchieWarning",
    "CarbScores",
    "Extraction",
    "ExtractionLike",
    "Gold",
    "NothingScored",
    "Report",
    "Scores",
    "analyze",
    "load_gold",
    "score",
    "score_extractions",
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
    """``line`` as a :class:`BenchieWarning` pointing at the first frame outside this
    package (the user's call), however deep in it the message arose."""
    frame, level = sys._getframe(1), 2
    while frame.f_back is not None and frame.f_globals.get("__name__", "").startswith(
        "benchie_cli"
    ):
        frame, level = frame.f_back, level + 1
    warnings.warn(line, BenchieWarning, stacklevel=level)


class NothingScored(BenchieError):
    """No submission of the run could be scored. Its message is the first failure's (so
    ``str()`` gives that failure's line), its exit status the worst failure's; every
    failure is in ``failures``."""

    def __init__(self, failures: Sequence[Failure]) -> None:
        first = failures[0]
        where, _, message = first.message.partition("error: ")  # "PATH:LINE: error: MSG"
        located = _LOCATION.fullmatch(where[:-2])
        super().__init__(
            message,
            path=(located.group(1) if located else where[:-2]) or None,
            line=int(located.group(2)) if located else None,
            exit_code=max(f.exit_code for f in failures),
        )
        self.failures = list(failures)


#: ``PATH:LINE`` as a one-line error starts (the path itself may hold colons).
_LOCATION = re.compile(r"(.*):(\d+)", re.DOTALL)


class Gold:
    """One gold file, resolved and hash-checked as the CLI does, for any number of runs.

    Made by :func:`load_gold`. The compiled index is loaded (from the cache, or built) on
    first use and kept, so scoring many systems against one ``Gold`` costs one load.
    """

    def __init__(
        self, resolved: ResolvedGold, store: GoldStore | None, *, released: bool = True
    ) -> None:
        self.resolved = resolved
        #: The store the gold came from; None for a gold file (``gold_file=``).
        self.store = store
        #: False for a draft version: its files may still change under the same number.
        self.released = released

    @property
    def store_root(self) -> Path | None:
        """The directory of the store the gold came from (no output may go there)."""
        return None if self.store is None else self.store.root

    @property
    def version(self) -> str:
        """The store version, or ``"file"`` for a gold file."""
        return self.resolved.version

    @property
    def sha256(self) -> str:
        """The sha256 of the bytes scored (the signature shows its first 12 digits)."""
        return self.resolved.sha256

    @property
    def language(self) -> str:
        return self.resolved.language

    @property
    def facet(self) -> str:
        return self.resolved.facet

    @functools.cached_property
    def compiled(self) -> CompiledGold:
        """The compiled index of this gold and facet."""
        with no_cyclic_gc():
            return load_compiled(self.resolved)

    @functools.cached_property
    def review(self) -> Review:
        """What reading this gold file found wrong with it, split into the errors reviewed
        for its bytes and new ones (docs/gold-store.md, "Gold with errors")."""
        return review(self.resolved.display_path, self.sha256, self.compiled.findings)

    @functools.cached_property
    def sentences(self) -> dict[str, str]:
        """Sentence id -> tokenised text, in gold order."""
        return dict(zip(self.compiled.sent_ids, self.compiled.texts, strict=True))

    @functools.cached_property
    def parsed(self) -> ParsedGold:
        """The gold file parsed (sentences, clusters, triples), from the bytes whose sha256
        :attr:`sha256` names (``validate`` and ``strip-implicit`` read it)."""
        with no_cyclic_gc():
            return parse_gold_bytes(self.resolved.data, self.resolved.display_path)

    @functools.cached_property
    def carb_reference(self) -> ResolvedGold:
        """CaRB's gold for this version's sentences (``<lang>/reference/carb_explicit.txt``),
        hashed and checked against the manifest: what ``--metric carb`` scores against.
        English store versions only."""
        metric = METRICS["carb"]
        check_metric_options(metric.name, self)  # a language or a gold file without it
        assert metric.reference is not None and self.store is not None
        try:
            return self.store.reference(self.version, self.language, metric.reference)
        except BenchieError as exc:
            if "has no reference file" not in exc.message:
                raise
            raise BenchieError(
                f"{exc.message}: --metric carb needs CaRB's gold of that version"
            ) from None

    def facets(self) -> dict[str, ResolvedGold]:
        """Every facet this gold offers (what ``analyze`` profiles): the store version's
        files for the language, or the facets derived from a gold file."""
        if self.store is None:
            base = self.resolved.with_facet(BASE_FACET)
            return {f: base.with_facet(f) for f in facets_of_file(BASE_FACET)}
        version, lang = self.version, self.language
        available = [facet for facet, _ in self.store.manifest(version).facets(lang)]
        if BASE_FACET not in available:
            raise BenchieError(f"gold {version} has no {BASE_FACET}-facet file for {lang!r}")
        return {facet: self.store.resolve(version, lang, facet) for facet in available}

    def mistake_check(
        self, retokenize: bool = False, texts: Mapping[str, str] | None = None
    ) -> MistakeCheck:
        """The detectors of likely mistakes for this gold (``texts``: its sentence texts,
        if the caller holds them); the language check compares with the other languages
        of the same store version (loaded only if a file looks suspicious, once per gold),
        which a gold file does not have."""
        store = self.store
        texts = self.sentences if texts is None else texts
        if store is None:
            return MistakeCheck(self.language, texts, None, retokenize)

        @functools.cache
        def sentences_of(other: str) -> dict[str, str] | None:
            try:
                compiled = load_compiled(store.resolve(self.version, other, BASE_FACET))
            except BenchieError:
                return None
            return dict(zip(compiled.sent_ids, compiled.texts, strict=True))

        return MistakeCheck(self.language, texts, sentences_of, retokenize)

    def __repr__(self) -> str:
        return (
            f"Gold(version={self.version!r}, language={self.language!r}, "
            f"facet={self.facet!r}, sha256={self.sha256[:12]!r})"
        )


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
    default); the store is ``gold_dir``, else ``$BENCHIE_GOLD_DIR``, the checkout's
    ``gold/``, the installed copy. ``gold_file`` replaces the store (an organiser's own
    annotation file, ``-`` for standard input) and excludes ``version``. Store files are
    hashed and checked against their manifest: a gold that differs raises
    :class:`BenchieError`. A draft version is said through ``say`` (by default a
    :class:`BenchieWarning`), and so is a gold file with errors it was not reviewed with
    (:attr:`Gold.review`; ``score(strict=True)`` refuses it).
    """
    if lang not in LANGUAGES:
        raise BenchieError(f"unknown language {lang!r} (available: {', '.join(LANGUAGES)})")
    if version is not None and (not isinstance(version, str) or not version):
        raise BenchieError(f"version: a version number such as '1.1.0', not {version!r:.40}")
    if facet not in FACET_NAMES:
        raise BenchieError(f"unknown facet {facet!r} (available: {', '.join(FACET_NAMES)})")
    if gold_file is not None:
        if version is not None:
            raise BenchieError("give version (a store version) or gold_file, not both")
        gold = Gold(resolve_gold_file(str(gold_file), lang, facet), None)
    else:
        root, _ = resolve_gold_dir(None if gold_dir is None else str(gold_dir))
        store = GoldStore(root)
        version = version or default_gold_version()
        resolved = store.resolve(version, lang, facet)
        released = store.manifest(version).released
        if not released:
            say(draft_warning(version))
        gold = Gold(resolved, store, released=released)
    for line in gold.review.notice():  # a gold with errors it was not reviewed with
        say(line)
    return gold


def draft_warning(version: str) -> str:
    """What a run against draft ``version`` says (once): its files may still change under
    the same version number, and only the report's sha256 then tells two runs apart."""
    return (
        f"warning: gold {version} is a draft (`benchie gold release {version}` freezes it); "
        "the report's gold sha256 pins the files scored"
    )


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
    """The settings :func:`score` and :func:`analyze` share, checked as the CLI checks them."""
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


def recorded_format(input_format: str, paths: Iterable[str]) -> str:
    """The input format a report records: ``auto`` unless the one given reads some file
    otherwise than detection would (``--input-format benchie`` on a native file), so that
    reports of the same reading are the same bytes, and ``verify`` reads as ``score`` did."""
    if input_format == "auto":
        return "auto"
    from benchie_cli.inputs.native import detect

    for path in paths:
        if not is_regular_file(path):
            return input_format  # a pipe is not peeked at (nor copied): the choice is kept
        try:
            if detect(path) != input_format:
                return input_format
        except BenchieError:
            return input_format  # unreadable: the read that follows names the problem
    return "auto"


def prepare_native(
    path: str,
    input_format: str,
    sentences: Callable[[], dict[str, str]],
    lang: str,
    *,
    strict: bool = False,
    say: Say = _warn,
) -> bool:
    """Read a native system output (``native.prepare``: converted to BenchIE TSV, read in
    place of ``path`` for the rest of the run) and ``say`` what its conversion did; whether
    it was a native file (the native module is imported only when a run needs it).

    A native file none of whose sentences is in the gold is an error (``native.convert``
    says so); under ``strict`` so is any sentence that aligns to none, or to several: the
    warnings that ``--strict`` turns into errors elsewhere.
    """
    from benchie_cli.inputs.native import prepare, summary

    conversion = prepare(path, input_format, sentences, lang)
    if conversion is None:
        return False
    shown = display_name(path)
    for line in summary(conversion, shown):
        say(line)
    a = conversion.alignment
    if len(a.unaligned) > a.aligned_sentences:  # most of it is another benchmark's output
        say(
            f"{shown}: hint: most of its sentences are not this gold's: output for another "
            "benchmark? `benchie score --suite FILE` scores it on every benchmark, "
            "`--benchmark NAME` on one (docs/every-benchmark.md)"
        )
    if strict and (a.unaligned or a.ambiguous):
        first = min((*a.unaligned, *a.ambiguous), key=lambda s: s.line)
        raise BenchieError(
            f"{len(a.unaligned)} sentence(s) align to no gold sentence and {len(a.ambiguous)} "
            "to several (an error under --strict)",
            path=shown,
            line=first.line,
            exit_code=ExitCode.FAILED,
        )
    return True


#: What a run passes on as it goes: each scored system (BenchIE's result, or CaRB's for
#: ``metric="carb"``) or each failure, in order (the CLI prints failures at once and moves
#: its progress bar).
OnOutcome = Callable[["SystemResult | CarbResult | Failure"], None]


def _ignore(_: object) -> None:
    pass


def check_metric_options(
    metric: str,
    gold: Gold,
    *,
    facet: str = BASE_FACET,
    strip_implicit: bool = True,
    case_sensitive: bool = False,
    retokenize: bool = False,
    per_sentence: bool = False,
) -> None:
    """Refuse (exit 2) a ``metric`` unknown, or combined with options it has no use for
    (BenchIE's facets and implicit handling do not apply to CaRB's metric alone)."""
    if not isinstance(metric, str):
        raise BenchieError(f"metric: names such as 'benchie,carb', not {metric!r:.40}")
    try:
        metric_choice(metric, DEFAULT_BENCHMARK)
    except ValueError as exc:
        raise BenchieError(str(exc)) from None
    chosen = metrics_of(metric)
    for m in chosen:
        if m.languages is not None and gold.language not in m.languages:
            names = ", ".join(LANGUAGE_NAMES[lang] for lang in m.languages)
            raise BenchieError(
                f"--metric {metric} scores {names} only ({m.label}'s gold covers BenchIE's "
                f"{names} sentences, reference/{m.reference}); --lang {gold.language} has no "
                f"{m.label} gold"
            )
        if m.reference is not None and gold.store is None:
            raise BenchieError(
                f"--metric {metric} scores against a store version's {m.label} reference "
                "file; --gold-file does not apply (give --gold-version)"
            )
    if not any(m.benchie_options for m in chosen):
        refuse_benchie_options(
            f"--metric {metric}",
            facet=facet,
            strip_implicit=strip_implicit,
            case_sensitive=case_sensitive,
            retokenize=retokenize,
            per_sentence=per_sentence,
        )


def refuse_benchie_options(
    what: str,
    *,
    facet: str = BASE_FACET,
    strip_implicit: bool = True,
    case_sensitive: bool = False,
    retokenize: bool = False,
    per_sentence: bool = False,
) -> None:
    """Refuse (exit 2) BenchIE's options where they change nothing (CaRB's metric alone,
    the CaRB benchmark): a user who asked for one would believe it applied."""
    given = [
        name
        for name, on in (
            (f"--facet {facet}", facet != BASE_FACET),
            ("--keep-implicit", not strip_implicit),
            ("--case-sensitive", case_sensitive),
            ("--retokenize", retokenize),
            ("--per-sentence", per_sentence),
        )
        if on
    ]
    if given:
        fix = (
            "(CaRB scores every line as given); use --metric benchie,carb"
            if "carb" in what
            else "(its original scorer scores every line as given)"
        )
        raise BenchieError(
            f"{', '.join(given)}: BenchIE's options, which do not apply to {what} {fix}"
        )


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
    and the others are scored; when none can be, :class:`NothingScored` is raised.
    Messages (conversion summaries, CaRB's unknown ids) go to ``say``; each outcome to
    ``on_outcome`` as it comes. ``stdin`` lets ``-`` name standard input (the CLI).
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
    if strict and gold.review.new_count:
        raise BenchieError(gold.review.refusal(), exit_code=ExitCode.FAILED)
    chosen = [m.name for m in metrics_of(metric)]
    # Those scored against the version's reference file (CaRB's): one reading gives each.
    carb_metrics = [m.name for m in metrics_of(metric) if m.reference is not None]
    batch = _submissions(submissions, names, stdin=stdin)
    options = ScoreOptions(gold.language, gold.facet, strip_implicit, case_sensitive, retokenize)
    failures: list[Failure] = []

    def failed(failure: Failure) -> None:
        failures.append(failure)
        say(failure.message)
        on_outcome(failure)

    sentences = gold.sentences  # the gold's own errors are the run's, not a submission's
    try:
        recorded = recorded_format(input_format, [s.path for s in batch])
        readable = []  # native outputs are converted first; one that cannot be is a failure
        for submission in batch:
            try:
                prepare_native(
                    submission.path,
                    input_format,
                    sentences.copy,
                    gold.language,
                    strict=strict,
                    say=say,
                )
                readable.append(submission)
            except BenchieError as exc:
                failed(Failure(submission, str(exc), exc.exit_code))
        carb: list[CarbResult] = []
        if BASE_METRIC not in chosen:
            carb_one = _carb_scorer(gold, say=say, checked=False, metrics=carb_metrics)
            for submission in readable:
                try:
                    carb.append(carb_one(submission, strict))
                except BenchieError as exc:
                    failed(Failure(submission, str(exc), exc.exit_code))
                    continue
                on_outcome(carb[-1])
            if not carb:
                raise NothingScored(failures)
            from benchie_cli.benchmarks.carb.report import build_carb_report

            data = build_carb_report(
                gold.carb_reference,
                gold.resolved,
                carb,
                failures=failures,
                input_format=recorded,
                metrics=carb_metrics,
            )
            carb_scores = tuple(CarbScores.of(r) for r in carb)
            return Report(data, carb_scores, carb_scores)
        both = bool(carb_metrics)  # CaRB's numbers beside BenchIE's, each file read twice
        carb_beside = (
            _carb_scorer(gold, say=say, checked=True, metrics=carb_metrics) if both else None
        )
        by_name = {s.name: s for s in readable}
        results: list[SystemResult] = []
        if both:
            for submission in readable:
                spool(submission.path)
        with no_cyclic_gc():
            scorer = Scorer(gold.compiled, options, mistakes=gold.mistake_check(retokenize))
            for outcome in score_each(scorer, readable, strict=strict, jobs=jobs):
                if isinstance(outcome, Failure):
                    failed(outcome)
                    continue
                if carb_beside is not None:  # a file CaRB cannot score is a failure
                    submission = by_name[outcome.name]
                    try:
                        carb.append(carb_beside(submission, strict))
                    except BenchieError as exc:
                        failed(Failure(submission, str(exc), exc.exit_code))
                        continue
                results.append(outcome)
                on_outcome(outcome)
    finally:
        release_spooled()  # a native file's stand-in lasts one run
    if not results:
        raise NothingScored(failures)
    data = build_report(
        gold.resolved,
        options,
        results,
        per_sentence=per_sentence,
        failures=failures,
        input_format=recorded,
        review=gold.review,
    )
    if carb_metrics:
        from benchie_cli.benchmarks.carb.report import add_carb

        data = add_carb(data, gold.carb_reference, carb, carb_metrics)
    return Report(data, tuple(Scores.of(r) for r in results), tuple(CarbScores.of(r) for r in carb))


def _carb_scorer(
    gold: Gold, *, say: Say, checked: bool, metrics: Sequence[str] = ("carb",)
) -> Callable[[Submission, bool], CarbResult]:
    """A function scoring one submission with CaRB's metric against ``gold``'s CaRB
    reference (read once), saying its hints and unknown ids; a submission it cannot score
    raises :class:`BenchieError`. ``checked``: BenchIE's scorer already ran the
    likely-mistake checks (and said them)."""
    from benchie_cli.benchmarks.carb.report import load_reference, score_carb

    reference = load_reference(gold.carb_reference)
    check = None if checked else gold.mistake_check()

    def carb_one(submission: Submission, strict: bool) -> CarbResult:
        spool(submission.path)  # read twice: its head for the checks, then all of it
        scored = score_carb(
            submission.path,
            submission.name,
            reference,
            gold.sentences,
            strict=strict,
            check=check,
            metrics=metrics,
        )
        for finding in scored.findings:
            say(f"{submission.name}: hint: {finding.message} [{finding.code}]")
        total = scored.facts.extractions
        if not checked and mostly_implicit(scored.implicit, total):
            say(f"{submission.name}: {language_hint(scored.implicit, total, gold.language)}")
        if scored.unknown:  # as `score` says for BenchIE (its JSON counts them too)
            say(
                f"{display_name(submission.path)}: warning: {scored.unknown:,} "
                "extraction(s) of sentence ids not in the gold, left out "
                "[unknown-sentence-id] (an error under --strict)"
            )
        return scored

    return carb_one


#: One in-memory extraction: an :class:`Extraction` or ``(sent_id, subject, relation,
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

    Each extraction is an :class:`Extraction` or a ``(sent_id, subject, relation,
    object)`` tuple; extraction ``k`` (1-based) is line ``k`` in the result's warnings.
    The scores' ``file`` is :data:`IN_MEMORY`, and so is an error's. Likely mistakes (ids
    shifted by one, another language) are said through ``say``, and refused as in
    :func:`score` when nothing can be scored.
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


#: ``metric`` values of :func:`analyze`: BenchIE's profile, with CaRB's numbers beside.
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
    when none can be, :class:`NothingScored` is raised. A pipe or FIFO is read once,
    whatever reads it later (each facet reads each submission).
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
    options = AnalyzeOptions(
        gold.language, resamples, seed, test, examples, strip_implicit, case_sensitive, retokenize
    )
    try:
        for submission in batch:
            spool(submission.path)
            # (the index only for a native file: analyze loads each facet's index itself)
            prepare_native(
                submission.path, input_format, lambda: dict(gold.sentences), gold.language, say=say
            )
        with no_cyclic_gc():
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
