"""BenchIE as the commands take it (:class:`~benchie_cli.benchmarks.runner.Runner`):
``score`` on BenchIE's gold (its metric, CaRB's beside it or alone, every facet and
language), the re-derivation of its reports, its rows of the suite (every facet of the
default gold, English), and its report views."""

from __future__ import annotations

from typing import Any

from benchie_cli import default_gold_version
from benchie_cli.benchmarks.benchie import rederive as rederiving
from benchie_cli.benchmarks.benchie.report import signature
from benchie_cli.benchmarks.benchie.report import to_markdown as to_markdown
from benchie_cli.benchmarks.benchie.report import to_table as to_table
from benchie_cli.benchmarks.benchie.run import (
    Gold,
    check_metric_options,
    load_gold,
    score_batch,
)
from benchie_cli.benchmarks.runner import (
    SINGLE_THRESHOLD,
    Hooks,
    Outcome,
    Request,
    Row,
    Runner,
    Sentences,
    SuiteInput,
    check_pinned,
    expected_prefix,
    none_of_its,
)
from benchie_cli.errors import BenchieError
from benchie_cli.gold.dirs import GoldDirs
from benchie_cli.inputs.batch import check_stdin_once
from benchie_cli.outputs import check_output
from benchie_cli.registry import BASE_FACET, metrics_of


def _gold(request: Request, hooks: Hooks, facet: str = BASE_FACET) -> Gold:
    """The gold of ``--lang``, ``facet`` and ``--gold-version`` (its default when not given)
    or ``--gold-file``, which exclude each other; a draft or a gold with errors is told."""
    if request.gold_file is not None and request.gold_version is not None:
        raise BenchieError("give --gold-version (a store version) or --gold-file, not both")
    return load_gold(
        request.lang,
        None if request.gold_file is not None else request.gold_version or default_gold_version(),
        facet,
        gold_dir=request.gold_dir,
        gold_file=request.gold_file,
        say=hooks.tell,
    )


class BenchieRunner:
    """BenchIE's gold, one file per language and facet."""

    counts_splits = False

    def check(self, request: Request) -> None:
        """Nothing before the gold is read: BenchIE's options are checked against the gold
        (its language has CaRB's reference or not) when it is loaded."""

    def score(self, request: Request, hooks: Hooks) -> Outcome:
        """The batch against the gold of ``--lang``, ``--facet`` and ``--gold-version`` (or
        ``--gold-file``), with BenchIE's metric, CaRB's, or both."""
        check_stdin_once(request.gold_file, request.paths)
        expected = expected_prefix(request.expect_gold)
        gold = _gold(request, hooks, request.facet)
        metric = request.metrics
        check_metric_options(
            metric,
            gold,
            facet=request.facet,
            strip_implicit=request.strip_implicit,
            case_sensitive=request.case_sensitive,
            retokenize=request.retokenize,
            per_sentence=request.per_sentence,
        )
        chosen = metrics_of(metric)
        reference = gold.carb_reference if any(m.reference for m in chosen) else None
        inputs = [*gold.resolved.inputs, *(reference.inputs if reference is not None else [])]
        check_output(request.output, [*request.inputs, *inputs], stores=[gold.store_root])
        # The gold --expect-gold pins: CaRB's reference when CaRB's metrics alone are scored.
        pinned = (
            reference
            if reference is not None and all(m.reference for m in chosen)
            else gold.resolved
        )
        check_pinned(pinned.sha256, expected, request.expect_gold, pinned.display_path)
        scored = score_batch(
            gold,
            request.batch,
            metric=metric,
            strip_implicit=request.strip_implicit,
            case_sensitive=request.case_sensitive,
            retokenize=request.retokenize,
            per_sentence=request.per_sentence,
            strict=request.strict,
            jobs=request.jobs,
            input_format=request.input_format,
            say=hooks.say,
            on_outcome=hooks.on_outcome,
            subset_file=request.sentences,
        )
        if request.sentences is not None:
            for result in scored.results:
                if result.outside_subset:
                    hooks.say(
                        f"{result.facts.path}: warning: {result.outside_subset:,} of its "
                        "extractions are of gold sentences --sentences leaves out: not scored "
                        "(an error under --strict)"
                    )
        systems = len(scored.results or scored.carb)
        return Outcome(
            scored.data,
            f"{systems} system(s), gold {gold.version}",
            scored.failures,
            len(request.batch),
            list(scored.results),
            [c for r in scored.carb for c in r.curves([m.name for m in chosen if m.reference])],
        )

    def check_shape(self, report: dict[str, Any], shown: str) -> None:
        rederiving.check_shape(report, shown)

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
        return rederiving.rederive(
            report,
            submissions,
            gold_dir=gold_dir,
            gold_file=gold_file,
            jobs=jobs,
            sentences=sentences,
        )

    def gold(self, request: Request) -> tuple[str, str]:
        gold = _gold(request, Hooks(), request.facet)
        return gold.sha256, gold.resolved.display_path

    def other_rows(self, given: SuiteInput) -> list[Row]:
        """None: the suite scores its English gold only (:meth:`rows`)."""
        return []

    def rows(self, given: SuiteInput) -> list[Row]:
        """Every facet of the default gold: the file converted once (aligned to the gold's
        sentences by text), then scored per facet with the default options, as
        ``score --facet F`` would."""
        from benchie_cli.benchmarks.benchie.index_cache import load_compiled
        from benchie_cli.benchmarks.benchie.scoring import ScoreOptions, Scorer
        from benchie_cli.gold.review import review
        from benchie_cli.inputs.native import convert_in_place

        base = load_gold("en", default_gold_version(), gold_dir=given.root, say=given.say)
        facets = base.facets()
        compiled = {f: load_compiled(g, cached=given.cached) for f, g in facets.items()}
        base_compiled = compiled[next(iter(facets))]
        texts = dict(zip(base_compiled.sent_ids, base_compiled.texts, strict=True))
        try:
            conversion = convert_in_place(given.path, given.fmt, texts, "en")
        except BenchieError as exc:
            if "none of its sentences is a gold sentence" not in exc.message:
                raise
            return [
                Row("benchie", "benchie", "-", facet=f, skipped=none_of_its("benchie"))
                for f in facets
            ]
        rows = []
        coverage = (conversion.alignment.aligned_sentences, len(texts))
        alignment = conversion.alignment
        unaligned = {s.text for s in (*alignment.unaligned, *alignment.ambiguous)}
        known = frozenset(t for t in given.texts() if t not in unaligned)
        # (one check for every facet: they share the sentences and the other languages)
        mistakes = base.mistake_check(texts=texts)
        for facet, resolved in facets.items():
            options = ScoreOptions("en", facet)
            result = Scorer(compiled[facet], options, mistakes=mistakes).score(given.path, "system")
            (p, r, f1), (tp, fp, fn) = result.scores, result.totals
            numbers: dict[str, Any] = {
                "precision": p,
                "recall": r,
                "f1": f1,
                "tp": tp,
                "fp": fp,
                "fn": fn,
            }
            if result.curve is not None:  # confidences: BenchIE's curve (docs/scoring.md)
                numbers["auc"] = result.curve.auc
                if len(result.curve.points) == 1:
                    numbers[SINGLE_THRESHOLD] = True
            row = Row(
                "benchie", "benchie", "-", numbers, facet=facet, coverage=coverage, known=known
            )
            row.signature = signature(resolved, options, given.given)
            row.gold = {"version": resolved.version, "sha256": resolved.sha256}
            found = review(resolved.display_path, resolved.sha256, compiled[facet].findings)
            if found.new_count:
                row.findings = found.as_json()
            rows.append(row)
        return rows

    def absent(self, root: GoldDirs) -> str | None:
        """Why the stores have not the default gold version (not pulled, or not there)."""
        from benchie_cli.gold.store import GoldStore, not_pulled_hint

        store = GoldStore(root)
        version = default_gold_version()
        if version in store.versions():
            return None
        if version in store.tracked():
            return not_pulled_hint(store.tracked_root(version), version)
        return f"no BenchIE gold {version} in {root.where()}"

    def sentences(self, request: Request, hooks: Hooks) -> Sentences:
        """The gold's sentences of ``--lang``, by their BenchIE ids."""
        gold = _gold(request, hooks)
        items = [(s.sent_id, s.text) for s in gold.parsed.sentences.values()]
        return Sentences(items, gold.resolved.inputs, gold.store_root)

    def gold_stats(
        self, root: GoldDirs, version: str
    ) -> tuple[list[dict[str, Any]], list[list[str]]]:
        raise NotImplementedError("gold stats counts this benchmark's gold itself")


RUNNER: Runner = BenchieRunner()
