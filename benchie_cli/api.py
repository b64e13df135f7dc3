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
import tempfile
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from benchie_cli import LANGUAGES
from benchie_cli.batch import Failure, Submission, expand, score_each
from benchie_cli.errors import BenchieError, ExitCode
from benchie_cli.gold.store import (
    ALL_FACETS,
    GoldStore,
    ResolvedGold,
    default_gold_version,
    resolve_gold_dir,
    resolve_gold_file,
)
from benchie_cli.metrics.index_cache import load_compiled
from benchie_cli.metrics.matching import CompiledGold
from benchie_cli.metrics.scoring import ScoreOptions, Scorer, SystemResult, no_cyclic_gc
from benchie_cli.mistakes import MistakeCheck
from benchie_cli.report import build_report, to_json, to_markdown, to_table
from benchie_cli.submission import Extraction, FileFacts
from benchie_cli.textio import STDIN, is_regular_file, release_spooled

__all__ = [
    "BenchieError",
    "Extraction",
    "ExtractionLike",
    "Gold",
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
    def sentences(self) -> dict[str, str]:
        """Sentence id -> tokenised text, in gold order."""
        return dict(zip(self.compiled.sent_ids, self.compiled.texts, strict=True))

    def facets(self) -> dict[str, ResolvedGold]:
        """Every facet this gold offers (what ``analyze`` profiles): the store version's
        files for the language, or the facets derived from a gold file."""
        if self.store is None:
            default = self.resolved.with_facet("default")
            return {f: default.with_facet(f) for f in ("default", "concat", "minimal")}
        version, lang = self.version, self.language
        available = [facet for facet, _ in self.store.manifest(version).facets(lang)]
        if "default" not in available:
            raise BenchieError(f"gold {version} has no default-facet file for {lang!r}")
        return {facet: self.store.resolve(version, lang, facet) for facet in available}

    def __repr__(self) -> str:
        return (
            f"Gold(version={self.version!r}, language={self.language!r}, "
            f"facet={self.facet!r}, sha256={self.sha256[:12]!r})"
        )


def load_gold(
    lang: str = "en",
    version: str | None = None,
    facet: str = "default",
    *,
    gold_dir: str | Path | None = None,
    gold_file: str | Path | None = None,
) -> Gold:
    """The gold ``benchie score --lang LANG --gold-version V --facet F`` would score against.

    ``version`` defaults as the CLI's does (``$BENCHIE_GOLD_VERSION``, else the package's
    default); the store is ``gold_dir``, else ``$BENCHIE_GOLD_DIR``, the checkout's
    ``gold/``, the installed copy. ``gold_file`` replaces the store (an organiser's own
    annotation file) and excludes ``version``. Store files are hashed and checked against
    their manifest: a gold that differs raises :class:`BenchieError`.
    """
    if lang not in LANGUAGES:
        raise BenchieError(f"unknown language {lang!r} (available: {', '.join(LANGUAGES)})")
    if facet not in ALL_FACETS:
        raise BenchieError(f"unknown facet {facet!r} (available: {', '.join(ALL_FACETS)})")
    if gold_file is not None:
        if version is not None:
            raise BenchieError("give version (a store version) or gold_file, not both")
        return Gold(resolve_gold_file(str(gold_file), lang, facet), None)
    root, _ = resolve_gold_dir(None if gold_dir is None else str(gold_dir))
    store = GoldStore(root)
    version = version or default_gold_version()
    resolved = store.resolve(version, lang, facet)
    released = store.manifest(version).released
    if not released:
        warnings.warn(
            f"gold {version} is a draft (`benchie gold release {version}` freezes it); "
            "the report's gold sha256 pins the files scored",
            stacklevel=2,
        )
    return Gold(resolved, store, released=released)


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


@dataclass(frozen=True)
class Report:
    """What ``benchie score`` reports: ``data`` is the JSON document, ``systems`` the
    scores in the order given; ``failures`` the submissions that could not be scored."""

    data: dict[str, Any]
    systems: tuple[Scores, ...]

    @property
    def signature(self) -> str:
        """The line that pins gold and options, to paste under a results table."""
        return str(self.data["signature"])

    @property
    def failures(self) -> list[dict[str, Any]]:
        return list(self.data.get("failures", []))

    def __getitem__(self, name: str) -> Scores:
        for system in self.systems:
            if system.name == name:
                return system
        raise KeyError(name)

    def to_json(self) -> bytes:
        """The bytes ``benchie score --format json -o FILE`` writes."""
        return to_json(self.data)

    def to_table(self) -> str:
        return to_table(self.data)

    def to_markdown(self) -> str:
        return to_markdown(self.data)


def _submissions(paths: Sequence[str | Path], names: Sequence[str] | None) -> list[Submission]:
    """As the CLI names them (``NAME=PATH``, a directory's ``*.tsv`` by stem, else the
    stem), or by ``names``, one per path."""
    if not paths:
        raise BenchieError("no submission to score")
    if names is None:
        batch = expand(str(p) for p in paths)
    else:
        if len(names) != len(paths):
            raise BenchieError(f"{len(names)} name(s) for {len(paths)} submission(s)")
        if len(set(names)) != len(names):
            raise BenchieError("two submissions have the same name")
        batch = [Submission(n, str(p)) for n, p in zip(names, paths, strict=True)]
    if any(s.path == STDIN for s in batch):
        raise BenchieError("the API reads files: give a path, not '-'")
    return batch


def _recorded_format(input_format: str, paths: Iterable[str]) -> str:
    """The input format a report records (as ``cli.recorded_format``): ``auto`` unless the
    one given reads some file otherwise than detection would."""
    if input_format == "auto":
        return "auto"
    from benchie_cli.native import detect

    for path in paths:
        if not is_regular_file(path):
            return input_format
        try:
            if detect(path) != input_format:
                return input_format
        except BenchieError:
            return input_format
    return "auto"


def _prepare(
    submission: Submission, input_format: str, gold: Gold, *, strict: bool = False
) -> None:
    """Convert a native file in place of the path (as the CLI's ``read_native``); what the
    conversion did is a warning."""
    from benchie_cli.native import prepare, summary

    conversion = prepare(submission.path, input_format, gold.sentences.copy, gold.language)
    if conversion is None:
        return
    for line in summary(conversion, submission.path):
        warnings.warn(line, stacklevel=3)
    a = conversion.alignment
    if strict and (a.unaligned or a.ambiguous):
        raise BenchieError(
            f"{len(a.unaligned)} sentence(s) align to no gold sentence and {len(a.ambiguous)} "
            "to several (an error under strict)",
            path=submission.path,
            exit_code=ExitCode.FAILED,
        )


def _mistake_check(gold: Gold, retokenize: bool) -> MistakeCheck:
    """The detectors of likely mistakes, with the other languages of the same store
    version for the language check (as ``cli.mistake_check``)."""
    store = gold.store
    if store is None:
        return MistakeCheck(gold.language, gold.sentences, None, retokenize)

    @functools.cache
    def sentences_of(other: str) -> dict[str, str] | None:
        try:
            compiled = load_compiled(store.resolve(gold.version, other, "default"))
        except BenchieError:
            return None
        return dict(zip(compiled.sent_ids, compiled.texts, strict=True))

    return MistakeCheck(gold.language, gold.sentences, sentences_of, retokenize)


def score(
    gold: Gold,
    *submissions: str | Path,
    names: Sequence[str] | None = None,
    strip_implicit: bool = True,
    case_sensitive: bool = False,
    retokenize: bool = False,
    per_sentence: bool = False,
    strict: bool = False,
    jobs: int | None = None,
    input_format: str = "auto",
) -> Report:
    """Score submission files as ``benchie score`` does, with the same options.

    Submissions are named as on the command line (``NAME=PATH``, a directory's ``*.tsv``,
    a file's stem) unless ``names`` gives one per path. A submission that cannot be scored
    is listed in ``Report.failures`` and the others are scored; when none can be, the
    first failure is raised.
    """
    batch = _submissions(submissions, names)
    options = ScoreOptions(gold.language, gold.facet, strip_implicit, case_sensitive, retokenize)
    failures: list[Failure] = []
    results: list[SystemResult] = []
    try:
        recorded = _recorded_format(input_format, [s.path for s in batch])
        readable = []
        for submission in batch:
            try:
                _prepare(submission, input_format, gold, strict=strict)
                readable.append(submission)
            except BenchieError as exc:
                failures.append(Failure(submission, str(exc), exc.exit_code))
        with no_cyclic_gc():
            scorer = Scorer(gold.compiled, options, mistakes=_mistake_check(gold, retokenize))
            for outcome in score_each(scorer, readable, strict=strict, jobs=jobs):
                if isinstance(outcome, Failure):
                    failures.append(outcome)
                else:
                    results.append(outcome)
    finally:
        release_spooled()  # a native file's stand-in lasts one run, as in the CLI
    if not results:
        raise _failure_error(failures[0])
    data = build_report(
        gold.resolved,
        options,
        results,
        per_sentence=per_sentence,
        failures=failures,
        input_format=recorded,
    )
    return Report(data, tuple(Scores.of(r) for r in results))


def _failure_error(failure: Failure) -> BenchieError:
    """The error a failure recorded, raised again: ``str()`` gives the same line."""
    where, _, message = failure.message.partition("error: ")  # "PATH:LINE: error: MESSAGE"
    return BenchieError(message, path=where[:-2] or None, exit_code=failure.exit_code)


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
    return "\t".join((sent_id, *slots)) + "\n"


def score_extractions(
    gold: Gold,
    extractions: Iterable[ExtractionLike],
    name: str = "system",
    *,
    strip_implicit: bool = True,
    case_sensitive: bool = False,
    retokenize: bool = False,
    strict: bool = False,
) -> Scores:
    """Score extractions held in memory, exactly as a file of the same lines would be.

    Each extraction is an :class:`Extraction` or a ``(sent_id, subject, relation,
    object)`` tuple; extraction ``k`` (1-based) is line ``k`` in the result's warnings.
    The scores' ``file`` is :data:`IN_MEMORY`.
    """
    if isinstance(extractions, (str, bytes)) or not isinstance(extractions, Iterable):
        raise BenchieError(
            f"extractions: an iterable of extractions, not {type(extractions).__name__}"
        )
    lines = [_tsv_line(item, k) for k, item in enumerate(extractions, 1)]
    if not lines:
        raise BenchieError("no extraction to score", path=name)
    options = ScoreOptions(gold.language, gold.facet, strip_implicit, case_sensitive, retokenize)
    with tempfile.TemporaryDirectory(prefix="benchie-") as tmp:
        path = Path(tmp) / "extractions.tsv"
        path.write_text("".join(lines), "utf-8")
        with no_cyclic_gc():
            result = Scorer(gold.compiled, options).score(str(path), name, strict=strict)
    facts = FileFacts(IN_MEMORY, result.facts.sha256, result.facts.lines, result.facts.extractions)
    return Scores.of(replace(result, facts=facts))


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
) -> dict[str, Any]:
    """Profile systems as ``benchie analyze`` does: the document its ``--format json``
    writes (``to_json(doc)`` gives the same bytes). Every facet the gold offers is
    profiled, whatever ``gold.facet`` is. Submissions that cannot be scored are in the
    document's failures; when none can be, the first failure is raised.
    """
    from benchie_cli.analysis.profile import TESTS, AnalyzeOptions
    from benchie_cli.analysis.profile import analyze as run_analysis

    if test not in TESTS:
        raise BenchieError(f"unknown test {test!r} (available: {', '.join(TESTS)})")
    batch = _submissions(submissions, names)
    facets = gold.facets()
    options = AnalyzeOptions(
        gold.language, resamples, seed, test, examples, strip_implicit, case_sensitive, retokenize
    )
    try:
        for submission in batch:
            _prepare(submission, input_format, gold)
        with no_cyclic_gc():
            report, _, failures = run_analysis(
                facets,
                batch,
                options,
                bucket_file=None if buckets is None else str(buckets),
                clique_file=None if cliques is None else str(cliques),
                jobs=jobs,
            )
    finally:
        release_spooled()
    if not report["systems"]:
        raise _failure_error(failures[0])
    return report
