"""BenchIE's scoring run: its gold as a run holds it (``Gold``, resolved and checked
against its manifest, compiled once), native outputs converted before scoring, and a batch of
submissions scored into one report, with CaRB's metrics beside or alone when asked
(docs/scoring.md, docs/carb.md). The public API (``benchie_cli.api``) and BenchIE's runner
(``benchmark.py``) are built on it."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchie_cli import LANGUAGES, default_gold_version
from benchie_cli.benchmarks.benchie.index_cache import load_compiled
from benchie_cli.benchmarks.benchie.matching import CompiledGold
from benchie_cli.benchmarks.benchie.report import build_report
from benchie_cli.benchmarks.benchie.scoring import (
    ScoreOptions,
    Scorer,
    SystemResult,
    score_each,
)
from benchie_cli.benchmarks.runner import NothingScored, Say, recorded_input, refuse_benchie_options
from benchie_cli.errors import BenchieError, ExitCode
from benchie_cli.gc_pause import no_cyclic_gc
from benchie_cli.gold.dirs import GoldDirs, resolve
from benchie_cli.gold.parse import Gold as ParsedGold
from benchie_cli.gold.parse import parse_gold_bytes
from benchie_cli.gold.review import Review, review
from benchie_cli.gold.store import (
    GoldStore,
    ResolvedGold,
    draft_warning,
    resolve_gold_file,
)
from benchie_cli.inputs.batch import Failure, Submission
from benchie_cli.inputs.formats import BENCHIE_TSV
from benchie_cli.inputs.mistakes import LANGUAGE_NAMES, MistakeCheck
from benchie_cli.inputs.subset import Subset, SubsetFile, choose, read_subset
from benchie_cli.records import Record
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
from benchie_cli.textio import (
    display_name,
    in_memory,
    is_regular_file,
    release_spooled,
    spool,
)
from benchie_cli.tokens import language_hint, mostly_implicit

if TYPE_CHECKING:
    from benchie_cli.benchmarks.carb.report import CarbResult
    from benchie_cli.inputs.native import Conversion, Unparsed

#: What a run passes on as it goes: each scored system (BenchIE's result, or CaRB's for
#: ``metric="carb"``) or each failure, in order (the CLI prints failures at once and moves
#: its progress bar).
OnOutcome = Callable[["SystemResult | CarbResult | Failure"], None]

#: What CaRB's scorer does with BenchIE's options, and what to ask instead.
CARB_FIX = "(CaRB scores every line as given); use --metric benchie,carb"


class Scored(Record):
    """A batch scored: the report, BenchIE's results (none for CaRB's metrics alone) and
    CaRB's (none without CaRB's metrics), in the order given, and the failures."""

    data: dict[str, Any]
    results: list[SystemResult]
    carb: list[CarbResult]
    failures: list[Failure]


class Gold:
    """One gold file, resolved and hash-checked as the CLI does, for any number of runs.

    Made by ``load_gold()``. The compiled index is loaded (from the cache, or built) on
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
    def store_root(self) -> GoldDirs | Path | None:
        """The stores the gold came from (no output may go there)."""
        if self.store is None:
            return None
        return self.store.root if self.store.dirs is None else self.store.dirs

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
        ``sha256`` names (``validate`` and ``strip-implicit`` read it)."""
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
    gold_dir: str | Path | GoldDirs | None = None,
    gold_file: str | Path | None = None,
    say: Say,
) -> Gold:
    """The gold of ``lang``, ``version`` and ``facet`` (``benchie_cli.api.load_gold`` says
    how each is chosen), checked against its manifest; a draft version, and a gold with
    errors it was not reviewed with, are said through ``say``."""
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
        store = GoldStore(
            gold_dir
            if isinstance(gold_dir, GoldDirs)
            else resolve(None if gold_dir is None else str(gold_dir))
        )
        version = version or default_gold_version()
        resolved = store.resolve(version, lang, facet)
        released = store.manifest(version).released
        if not released:
            say(draft_warning(version))
        gold = Gold(resolved, store, released=released)
    for line in gold.review.notice():  # a gold with errors it was not reviewed with
        say(line)
    return gold


def recorded_format(input_format: str, paths: Iterable[str]) -> str:
    """The input format a report records: ``auto`` unless the one given reads some file
    otherwise than detection would (``--input-format benchie`` on a native file), so that
    reports of the same reading are the same bytes, and ``verify`` reads as ``score`` did."""
    from benchie_cli.inputs.formats import VERSIONS
    from benchie_cli.inputs.native import detect

    if input_format == "auto":
        return "auto"  # (versioned rules that read a file are added by ``read_as``)
    if input_format in VERSIONS:
        return input_format
    for path in paths:
        if not is_regular_file(path) and not in_memory(path):
            return input_format  # a pipe is not peeked at (nor copied): the choice is kept
        try:
            if detect(path) != input_format:
                return input_format
        except BenchieError:
            return input_format  # unreadable: the read that follows names the problem
    return "auto"


def read_as(recorded: str, formats: Iterable[str]) -> str:
    """``recorded`` (:func:`recorded_format`), or, for ``auto``, the versioned rules that
    read the files (an LLM's answers: the signature names them), from the formats their
    conversions read: every other report of ``auto`` keeps its bytes."""
    return recorded_input(recorded, set(formats)) if recorded == "auto" else recorded


def prepare_native(
    path: str,
    input_format: str,
    sentences: Callable[[], dict[str, str]],
    lang: str,
    *,
    strict: bool = False,
    say: Say,
) -> Conversion | None:
    """Read a native system output (``native.prepare``: converted to BenchIE TSV, read in
    place of ``path`` for the rest of the run) and ``say`` what its conversion did; the
    conversion, or None for a BenchIE TSV file (the native module is imported only when a
    run needs it).

    A native file none of whose sentences is in the gold is an error (``native.convert``
    says so); under ``strict`` so is any sentence that aligns to none, or to several: the
    warnings that ``--strict`` turns into errors elsewhere.
    """
    from benchie_cli.inputs.formats import CARB_READ
    from benchie_cli.inputs.mistakes import declared_native_error
    from benchie_cli.inputs.native import prepare, summary

    try:
        conversion = prepare(path, input_format, sentences, lang)
    except BenchieError as exc:  # (a BenchIE TSV file given a native format: said first)
        raise declared_native_error(exc, path, input_format) from None
    if conversion is None:
        return None
    shown = display_name(path)
    for line in summary(conversion, shown):
        say(line)
    a = conversion.alignment
    if len(a.unaligned) > a.aligned_sentences:  # most of it is another benchmark's output
        say(
            f"{shown}: hint: most of its sentences are not this gold's: output for another "
            "benchmark? "
            + (
                "`benchie score --suite FILE` scores it on every benchmark, "
                if conversion.format in CARB_READ  # (what the suite reads)
                else ""
            )
            + "`--benchmark NAME` on one (docs/every-benchmark.md)"
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
    if strict and conversion.unparsed:
        raise BenchieError(
            f"{len(conversion.unparsed):,} fragment(s) of its answers no rule reads as a triple "
            f"(first: {conversion.unparsed[0].reason}; an error under --strict)",
            path=shown,
            line=conversion.unparsed[0].line,
            exit_code=ExitCode.FAILED,
        )
    return conversion


@dataclass(slots=True)
class NativeFacts:
    """What the conversions of a run's native files say that its report records: each
    native file's own line count (its BenchIE TSV stand-in may have more lines: a JSON
    object of several extractions), and the fragments of an LLM's answers no rule read
    (``native.unparsed_json``: only then, so every other report keeps its bytes)."""

    lines: dict[str, int] = field(default_factory=dict)
    unparsed: dict[str, list[Unparsed]] = field(default_factory=dict)

    def add(self, name: str, conversion: Conversion | None) -> None:
        if conversion is None:
            return
        self.lines[name] = conversion.lines
        if conversion.unparsed:
            self.unparsed[name] = conversion.unparsed

    def apply(self, data: dict[str, Any]) -> dict[str, Any]:
        """The report with these facts in its systems."""
        from benchie_cli.inputs.native import unparsed_json

        for system in data["systems"]:
            found = self.unparsed.get(system["name"])
            if found:
                system["unparsed"] = unparsed_json(found)
            native = self.lines.get(system["name"])
            if native is not None and "lines" in system:
                system["lines"] = native
        return data


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
            CARB_FIX,
            facet=facet,
            strip_implicit=strip_implicit,
            case_sensitive=case_sensitive,
            retokenize=retokenize,
            per_sentence=per_sentence,
        )


#: Why ``--sentences`` is refused beside a metric scored against a version's CaRB
#: reference file (its gold's sentences are CaRB's, not BenchIE's subset).
SUBSET_WITH_CARB = (
    "--sentences scores a subset of BenchIE's gold with BenchIE's metric; for CaRB's metrics "
    "on a subset of CaRB's sentences give --benchmark carb --sentences FILE"
)


def subset_of(sentences: SubsetFile, compiled: CompiledGold, gold: ResolvedGold) -> Subset:
    """The gold's sentences a ``--sentences`` file lists, by BenchIE id or by text
    (docs/subsets.md)."""
    where = f"BenchIE's {gold.language} gold {gold.version}"
    if gold.manifest is None:
        where = f"the gold file {gold.display_path}"
    return choose(sentences, list(zip(compiled.sent_ids, compiled.texts, strict=True)), where)


def score_batch(
    gold: Gold,
    batch: Sequence[Submission],
    *,
    metric: str,
    strip_implicit: bool,
    case_sensitive: bool,
    retokenize: bool,
    per_sentence: bool,
    strict: bool,
    jobs: int | None,
    input_format: str,
    say: Say,
    on_outcome: OnOutcome,
    subset_file: str | None = None,
) -> Scored:
    """Score ``batch`` against ``gold``, the options checked (``check_metric_options()``):
    native outputs converted first, each submission read once per metric family, a
    submission that cannot be scored a failure (said, and passed to ``on_outcome``), the
    others scored; none at all raises ``NothingScored``."""
    chosen = [m.name for m in metrics_of(metric)]
    # Those scored against the version's reference file (CaRB's): one reading gives each.
    carb_metrics = [m.name for m in metrics_of(metric) if m.reference is not None]
    if strict and gold.review.new_count:
        raise BenchieError(gold.review.refusal(), exit_code=ExitCode.FAILED)
    subset = None
    if subset_file is not None:  # (``--sentences``)
        if carb_metrics:
            raise BenchieError(SUBSET_WITH_CARB)
        subset = subset_of(read_subset(subset_file), gold.compiled, gold.resolved)
    options = ScoreOptions(
        gold.language, gold.facet, strip_implicit, case_sensitive, retokenize, subset
    )
    failures: list[Failure] = []

    def failed(failure: Failure) -> None:
        failures.append(failure)
        say(failure.message)
        on_outcome(failure)

    sentences = gold.sentences  # the gold's own errors are the run's, not a submission's
    native = NativeFacts()
    formats: list[str] = []  # what each readable submission was read as
    try:
        recorded = recorded_format(input_format, [s.path for s in batch])
        readable = []  # native outputs are converted first; one that cannot be is a failure
        for submission in batch:
            try:
                conversion = prepare_native(
                    submission.path,
                    input_format,
                    sentences.copy,
                    gold.language,
                    strict=strict,
                    say=say,
                )
                formats.append(BENCHIE_TSV if conversion is None else conversion.format)
                native.add(submission.name, conversion)
                readable.append(submission)
            except BenchieError as exc:
                failed(Failure(submission, str(exc), exc.exit_code))
        recorded = read_as(recorded, formats)
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
            return Scored(native.apply(data), [], carb, failures)
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
    return Scored(native.apply(data), results, carb, failures)


def _carb_scorer(
    gold: Gold, *, say: Say, checked: bool, metrics: Sequence[str] = ("carb",)
) -> Callable[[Submission, bool], CarbResult]:
    """A function scoring one submission with CaRB's metric against ``gold``'s CaRB
    reference (read once), saying its hints and unknown ids; a submission it cannot score
    raises ``BenchieError``. ``checked``: BenchIE's scorer already ran the
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
