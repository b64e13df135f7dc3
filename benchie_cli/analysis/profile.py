"""``benchie analyze``: everything the paper's §5 profiles, for any set of systems, as one
deterministic document (JSON, and the text and HTML views made from it).

Per system: the default-facet score with 95% bootstrap intervals, the score on every facet
the gold offers and the gaps between them (paper Figure 4), per-slot error shares and the
seven error buckets with examples (Figures 1-2), and scores per bucket of sentences
(Figure 3). Across systems: a p-value for every pair's F1 difference. Given CaRB's reference
file, also CaRB's numbers beside BenchIE's (the BenchIE paper's Table 5). numpy is imported
here only, so ``score`` never pays for it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from benchie_cli import __version__
from benchie_cli.analysis.buckets import Bucketing, bucket_scores, by_length, from_file
from benchie_cli.analysis.robustness import (
    CliqueAssignment,
    benchie_sentence_scores,
    read_cliques,
    robustness,
)
from benchie_cli.analysis.slot_errors import analyse
from benchie_cli.benchmarks.benchie.index_cache import load_compiled
from benchie_cli.benchmarks.benchie.report import implicit_tag
from benchie_cli.benchmarks.benchie.scoring import ScoreOptions, Scorer, SystemResult, score_each
from benchie_cli.errors import BenchieError
from benchie_cli.gold.parse import Gold, parse_gold_bytes
from benchie_cli.gold.review import review
from benchie_cli.gold.store import ResolvedGold
from benchie_cli.inputs.batch import Failure, Submission
from benchie_cli.inputs.submission import FileFacts
from benchie_cli.records import Record
from benchie_cli.registry import BASE_FACET, FACETS

if TYPE_CHECKING:
    from benchie_cli.benchmarks.carb.report import CarbResult
    from benchie_cli.inputs.mistakes import MistakeCheck

ANALYSIS_SCHEMA = 1
TESTS = ("bootstrap", "ar")


@dataclass(frozen=True, slots=True)
class AnalyzeOptions:
    """Every setting that can change a number of the analysis (all in its signature)."""

    lang: str
    resamples: int = 1000
    seed: int = 12345
    test: str = "bootstrap"
    examples: int = 3
    strip_implicit: bool = True
    case_sensitive: bool = False
    retokenize: bool = False  # --retokenize (mistakes.Retokenizer)
    #: The input format as a score report records it: named in the signature only when
    #: versioned rules read the files (an LLM's answers), so other signatures are unchanged.
    input_format: str = "auto"


def _versioned(input_format: str) -> str:
    from benchie_cli.inputs.formats import VERSIONS, signed

    return f"|input:{signed(input_format)}" if input_format in VERSIONS else ""


def signature(gold: ResolvedGold, options: AnalyzeOptions) -> str:
    """The analysis's line to cite: gold, implicit handling, test, resamples and seed, and
    the rules' version of files read by versioned rules (``input:llm-text@1``)."""
    implicit = implicit_tag(options.strip_implicit, options.case_sensitive)
    return (
        f"benchie-analyze|lang:{gold.language}|gold:{gold.version}@{gold.sha256[:12]}"
        f"|implicit:{implicit}|test:{options.test}|resamples:{options.resamples}"
        f"|seed:{options.seed}{'|retokenize' if options.retokenize else ''}"
        f"{_versioned(options.input_format)}|v:{__version__}"
    )


def _score_json(result: SystemResult) -> dict[str, float | int]:
    tp, fp, fn = result.totals
    p, r, f = result.scores
    return {"tp": tp, "fp": fp, "fn": fn, "precision": p, "recall": r, "f1": f}


def _same_file(again: FileFacts, first: FileFacts) -> None:
    """A submission is read once per facet (and once more for CaRB): every reading must
    have seen the bytes the report names (a file rewritten between two readings would mix
    two submissions)."""
    if again.sha256 != first.sha256:
        raise BenchieError("changed while it was being analysed; analyse it again", path=first.path)


def _same_bytes(again: SystemResult, first: SystemResult) -> SystemResult:
    """``again``, a facet's reading of ``first``'s file, after :func:`_same_file`."""
    _same_file(again.facts, first.facts)
    return again


def _score_carb(
    reference: ResolvedGold,
    texts: dict[str, str],
    submissions: list[Submission],
    results: list[SystemResult],
    failures: list[Failure],
) -> tuple[list[SystemResult], list[CarbResult]]:
    """CaRB's metric on each submission BenchIE scored (``results``, in order), as ``score
    --metric benchie,carb`` runs it: one CaRB cannot score is appended to ``failures`` and
    left out of the results kept, so that every system of the report has both metrics.
    No format checks (``check=None``): BenchIE's scorer runs none here either."""
    from benchie_cli.benchmarks.carb.report import load_reference, score_carb

    gold = load_reference(reference)
    by_name = {s.name: s for s in submissions}
    kept: list[SystemResult] = []
    carb: list[CarbResult] = []
    for result in results:
        submission = by_name[result.name]
        try:
            scored = score_carb(submission.path, submission.name, gold, texts, check=None)
        except BenchieError as exc:
            failures.append(Failure(submission, str(exc), exc.exit_code))
            continue
        _same_file(scored.facts, result.facts)
        kept.append(result)
        carb.append(scored)
    return kept, carb


class _CarbJson(Record):
    """What CaRB adds to the document: the report's ``carb_signature``, its gold's
    ``carb_reference`` and each system's ``carb`` object, in the systems' order."""

    signature: str
    reference: dict[str, str]
    systems: list[dict[str, Any]]


def _carb_json(
    reference: ResolvedGold,
    results: list[CarbResult],
    benchie: list[dict[str, float | int]],
    input_format: str = "auto",
) -> _CarbJson:
    """The keys and values ``add_carb`` gives a score report, from the same helpers, so that
    ``analyze`` and ``score --metric benchie,carb`` agree to the bit; ``benchie`` is each
    system's default-facet score."""
    from benchie_cli.benchmarks.carb.report import carb_object, carb_signature, reference_json

    return _CarbJson(
        carb_signature(reference, "carb", input_format),
        reference_json(reference),
        [carb_object(c, b) for c, b in zip(results, benchie, strict=True)],
    )


def _robustness_json(result: SystemResult, cliques: CliqueAssignment) -> dict[str, Any]:
    """ROBUST's scores of the default facet from the per-sentence counts, beside the corpus
    score over every gold sentence."""
    scores = benchie_sentence_scores(result.sentence_ids, result.tp, result.fp, result.fn)
    p, r, f = result.scores
    body = robustness(scores, cliques).as_json()
    by_clique = body.pop("by_clique")
    return {
        "metric": "benchie",
        **body,
        "corpus": {"precision": p, "recall": r, "f1": f},
        "by_clique": by_clique,
    }


def analyze(
    facets: dict[str, ResolvedGold],
    submissions: list[Submission],
    options: AnalyzeOptions,
    *,
    bucket_file: str | None = None,
    clique_file: str | None = None,
    jobs: int | None = None,
    carb_reference: ResolvedGold | None = None,
    mistakes: Callable[[Mapping[str, str]], MistakeCheck] | None = None,
) -> tuple[dict[str, Any], list[SystemResult], list[Failure]]:
    """Analyse ``submissions`` against the gold of each facet (``facets["default"]`` is
    required; the others are profiled when given). Returns the document, the default-facet
    results (for their warnings) and the submissions that could not be scored.

    ``carb_reference``: CaRB's gold for the same sentences (``GoldStore.reference``); each
    system also gets CaRB's numbers as ``score --metric benchie,carb`` gives them. It is
    scored right after BenchIE, so a submission CaRB cannot score is a failure before any
    interval or comparison is computed over the systems kept.

    ``mistakes`` makes the likely-mistake checks from the gold's sentence texts: with them,
    the default facet's scoring gives hints and refuses a file none of whose extractions
    can be scored, as ``score`` does."""
    from benchie_cli.analysis import significance  # numpy: only for analyze

    base = facets[BASE_FACET]
    gold: Gold = parse_gold_bytes(base.data, base.display_path)  # the bytes hashed
    compiled = load_compiled(base, gold)
    # What reading each gold file found wrong with it, for the report (by file).
    reviews = {base.sha256: review(base.display_path, base.sha256, compiled.findings)}
    score_options = ScoreOptions(
        options.lang, BASE_FACET, options.strip_implicit, options.case_sensitive, options.retokenize
    )
    check = None
    if mistakes is not None:
        check = mistakes(dict(zip(compiled.sent_ids, compiled.texts, strict=True)))
    scorer = Scorer(compiled, score_options, keep_incorrect=True, mistakes=check)
    results: list[SystemResult] = []
    failures: list[Failure] = []
    for outcome in score_each(scorer, submissions, jobs=jobs):
        if isinstance(outcome, Failure):
            failures.append(outcome)
        else:
            results.append(outcome)
    carb_results: list[CarbResult] = []
    if carb_reference is not None:
        texts = dict(zip(compiled.sent_ids, compiled.texts, strict=True))
        results, carb_results = _score_carb(carb_reference, texts, submissions, results, failures)
    scored_names = {r.name for r in results}
    scored = [s for s in submissions if s.name in scored_names]

    facet_scores: dict[str, list[dict[str, float | int]]] = {
        BASE_FACET: [_score_json(r) for r in results]
    }
    for facet, resolved in facets.items():
        if facet == BASE_FACET:
            continue
        facet_compiled = load_compiled(resolved)
        reviews.setdefault(
            resolved.sha256,
            review(resolved.display_path, resolved.sha256, facet_compiled.findings),
        )
        facet_scorer = Scorer(
            facet_compiled,
            ScoreOptions(
                options.lang,
                facet,
                options.strip_implicit,
                options.case_sensitive,
                options.retokenize,
            ),
        )
        facet_scores[facet] = [
            _score_json(_same_bytes(facet_scorer.score(s.path, s.name, jobs=jobs), first))
            for s, first in zip(scored, results, strict=True)
        ]

    carb = (
        _carb_json(carb_reference, carb_results, facet_scores[BASE_FACET], options.input_format)
        if carb_reference is not None
        else None
    )

    bucketings: list[Bucketing] = [by_length(compiled.texts)]
    if bucket_file is not None:
        bucketings.append(from_file(bucket_file, compiled.sent_ids))
    cliques: CliqueAssignment | None = None
    if clique_file is not None:
        cliques = read_cliques(clique_file, compiled.sent_ids)

    intervals: list[dict[str, significance.Interval]] = []
    comparisons: list[significance.Comparison] = []
    if results:
        w = significance.weights(len(compiled.sent_ids), options.resamples, options.seed)
        intervals = significance.confidence_intervals(results, w)
        comparisons = (
            significance.compare_bootstrap(results, w)
            if options.test == "bootstrap"
            else significance.compare_randomisation(results, options.resamples, options.seed)
        )

    systems = []
    for n, result in enumerate(results):
        profile = {facet: scores[n] for facet, scores in facet_scores.items()}
        f1 = {facet: s["f1"] for facet, s in profile.items()}
        gaps = {key: f1[minuend] - f1[subtrahend] for key, (minuend, subtrahend) in _gaps(f1)}
        system: dict[str, Any] = {
            "name": result.name,
            "file": result.facts.path,
            "sha256": result.facts.sha256,
            "extractions": result.facts.extractions,
            "implicit_removed": result.implicit_count,
            "unknown_sentence_ids": result.unknown_count,
            "default": {
                **facet_scores[BASE_FACET][n],
                "ci95": {k: v.as_json() for k, v in intervals[n].items()},
            },
            "facets": profile,
            "facet_gaps": gaps,
            "slot_errors": analyse(
                gold, compiled, result.incorrect, examples=options.examples
            ).as_json(),
            "buckets": {b.name: bucket_scores(result, b) for b in bucketings},
        }
        if cliques is not None:  # docs/profiling.md, "Clique robustness"
            system["robustness"] = _robustness_json(result, cliques)
        if result.curve is not None:  # a file with confidences (docs/scoring.md, "Confidences")
            system["confidence"] = result.curve.as_json()
        if carb is not None:  # docs/profiling.md, "BenchIE vs CaRB"
            system["carb"] = carb.systems[n]
        systems.append(system)
    report: dict[str, Any] = {
        "schema": ANALYSIS_SCHEMA,
        "benchie_version": __version__,
        "signature": signature(base, options),
        **({"carb_signature": carb.signature} if carb is not None else {}),
        "gold": {
            "version": base.version,
            "language": base.language,
            "files": [
                {"path": path, "sha256": sha, "findings": reviews[sha].as_json()}
                for path, sha in sorted({(g.display_path, g.sha256) for g in facets.values()})
            ],
            "facets": {facet: {"derived_from": g.derived_from} for facet, g in facets.items()},
            **({"carb_reference": carb.reference} if carb is not None else {}),
        },
        "options": {
            "lang": options.lang,
            "resamples": options.resamples,
            "seed": options.seed,
            "test": options.test,
            "examples": options.examples,
            "strip_implicit": options.strip_implicit,
            "case_sensitive": options.case_sensitive,
            **({"retokenize": True} if options.retokenize else {}),
        },
        "bucketings": [
            {
                "name": b.name,
                "buckets": list(b.buckets),
                "sizes": b.sizes(),
                "unassigned": b.unassigned,
                # Which sentences, in gold order: a reader can check a bucket file's coverage.
                "unassigned_sent_ids": [
                    sid
                    for sid, bucket in zip(compiled.sent_ids, b.of, strict=True)
                    if bucket is None
                ],
            }
            for b in bucketings
        ],
        **({"cliques": cliques.as_json()} if cliques is not None else {}),
        "systems": systems,
        "comparisons": [c.as_json() for c in comparisons],
    }
    if failures:
        report["failures"] = [f.as_json() for f in failures]
    return report, results, failures


def _gaps(f1: dict[str, float]) -> list[tuple[str, tuple[str, str]]]:
    """The F1 gaps of the facets scored, in the registry's order: (key, (minuend,
    subtrahend))."""
    return [
        (facet.gap_key, facet.gap)
        for facet in FACETS.values()
        if facet.name in f1 and facet.gap is not None and facet.gap_key is not None
    ]
