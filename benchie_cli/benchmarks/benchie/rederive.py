"""A report of BenchIE's gold re-derived (``benchie verify``): its shape checked, its gold
found in the store by sha256, each submission read and scored as ``score`` did, CaRB's
metrics beside or alone as the report names them (docs/verify.md)."""

from __future__ import annotations

from typing import Any

from benchie_cli import LANGUAGES
from benchie_cli.benchmarks.benchie.run import SUBSET_WITH_CARB, NativeFacts, subset_of
from benchie_cli.benchmarks.runner import as_reported, brief, named_systems, subset_given
from benchie_cli.errors import BenchieError
from benchie_cli.gold.dirs import resolve
from benchie_cli.gold.store import GoldStore, ResolvedGold, resolve_gold_file
from benchie_cli.inputs.formats import INPUT_FORMATS
from benchie_cli.registry import BASE_FACET, BENCHMARKS, FACET_NAMES, metric_choice, metrics_of


def _carb_metrics(metric: str) -> list[str] | None:
    """The CaRB metrics of a report's ``metric`` key (``carb``, ``benchie,carb-ss``...),
    or None when the key is not one ``score`` writes on BenchIE's gold."""
    default = next(b.name for b in BENCHMARKS.values() if b.by_language)
    try:
        metric_choice(metric, default)
    except ValueError:
        return None
    # (BenchIE's gold scores its own metric and those against a version's reference file)
    carb = [m.name for m in metrics_of(metric) if m.reference is not None]
    return carb or None


def check_shape(report: dict[str, Any], shown: str) -> None:
    """The fields verification reads, with their types (exit 2 when one is missing)."""
    metric = report.get("metric", "benchie")
    if "metric" in report and (not isinstance(metric, str) or _carb_metrics(metric) is None):
        raise BenchieError(
            f"the report names the metric {brief(metric)}, which no `benchie score` report on "
            "BenchIE's gold names (its metric key names CaRB's metrics, or is absent)",
            path=shown,
        )
    try:
        gold, options, systems = report["gold"], report["options"], report["systems"]
        if not metric.startswith("benchie"):
            ok = (
                isinstance(gold["version"], str)
                and isinstance(gold["language"], str)
                and isinstance(gold["files"][0]["sha256"], str)
                and isinstance(options["lang"], str)
                and named_systems(systems)
            )
            if not ok:
                raise KeyError("shape")
            return
        ok = (
            isinstance(gold["version"], str)
            and isinstance(gold["language"], str)
            and isinstance(gold["facet"], str)
            and isinstance(gold["files"][0]["sha256"], str)
            and isinstance(options["lang"], str)
            and options["facet"] in FACET_NAMES
            and options["lang"] in LANGUAGES
            and isinstance(options["strip_implicit"], bool)
            and isinstance(options["case_sensitive"], bool)
            and isinstance(options["per_sentence"], bool)
            and isinstance(options.get("retokenize", False), bool)
            and named_systems(systems)
        )
    except (KeyError, IndexError, TypeError):
        ok = False
    if not ok:
        raise BenchieError("not a complete `benchie score` JSON report", path=shown)


def resolve_report_gold(
    report: dict[str, Any], gold_dir: str | None, gold_file: str | None
) -> ResolvedGold:
    """The gold the report names: ``gold_file`` if given; else the store's file with the
    report's sha256 (any version); else the report's version, language and facet, whose
    differing hash verification then names. A report whose gold the store does not have
    (by hash, nor by version) is refused, naming the hash."""
    gold, options = report["gold"], report["options"]
    lang, facet, sha = options["lang"], options["facet"], gold["files"][0]["sha256"]
    if gold_file is not None:
        return resolve_gold_file(gold_file, lang, facet)
    root = resolve(gold_dir)
    store = GoldStore(root)
    versions = store.versions()
    # The exact bytes, wherever the store keeps them; the report's own version first, as
    # versions may share a file (a version derived without change to one language).
    for version in sorted(versions, key=lambda v: v != gold["version"]):
        try:
            manifest = store.manifest(version)
        except BenchieError:
            continue
        if any(e.sha256 == sha and e.language == lang for e in manifest.files):
            try:
                resolved = store.resolve(version, lang, facet)
            except BenchieError:
                continue
            if resolved.sha256 == sha:
                return resolved
    if gold["version"] in versions:  # the file named, whose other hash is then reported
        return store.resolve(gold["version"], lang, facet)
    raise BenchieError(
        f"the gold stores ({root.where()}) have no {lang} gold with sha256 {sha} "
        f"(gold version {gold['version']!r}); give --gold-dir or --gold-file"
    )


def rederive(
    report: dict[str, Any],
    submissions: list[str],
    *,
    gold_dir: str | None = None,
    gold_file: str | None = None,
    jobs: int | None = None,
    sentences: str | None = None,
) -> dict[str, Any]:
    """The report rebuilt from the gold and ``submissions`` (one per system, in order), on
    the report's subset of the gold's sentences if it has one (``sentences``: its file)."""
    from benchie_cli.benchmarks.benchie.index_cache import load_compiled
    from benchie_cli.benchmarks.benchie.report import build_report
    from benchie_cli.benchmarks.benchie.scoring import (
        ScoreOptions,
        Scorer,
        SystemResult,
    )
    from benchie_cli.gc_pause import no_cyclic_gc
    from benchie_cli.gold.review import review
    from benchie_cli.inputs.native import prepare

    systems = report["systems"]
    metric = report.get("metric", "benchie")
    carb_metrics = _carb_metrics(metric) if "metric" in report else None
    listed = subset_given(report, sentences)
    if listed is not None and carb_metrics is not None:
        raise BenchieError(SUBSET_WITH_CARB)
    if carb_metrics is not None:
        if gold_file is not None:
            raise BenchieError(
                f"a --metric {metric} report is re-derived from the store's CaRB reference "
                "file; --gold-file does not apply (give --gold-dir)"
            )
        if not metric.startswith("benchie"):
            return _rederive_carb(report, submissions, gold_dir, carb_metrics)
    opts = report["options"]
    options = ScoreOptions(
        opts["lang"],
        opts["facet"],
        opts["strip_implicit"],
        opts["case_sensitive"],
        opts.get("retokenize", False),
    )
    input_format = opts.get("input_format", "auto")
    if input_format not in INPUT_FORMATS:
        raise BenchieError(f"the report names an unknown input format {brief(input_format)}")
    resolved = resolve_report_gold(report, gold_dir, gold_file)
    results: list[SystemResult] = []
    native = NativeFacts()
    with no_cyclic_gc():
        compiled = load_compiled(resolved, cached=False)  # never trust the cache here
        texts = dict(zip(compiled.sent_ids, compiled.texts, strict=True))
        if listed is not None:
            options = options._replace(subset=subset_of(listed, compiled, resolved))
        scorer = Scorer(compiled, options)
        for system, path in zip(systems, submissions, strict=True):
            # A native file is converted as `score` did: with the input format it recorded.
            native.add(system["name"], prepare(path, input_format, lambda: texts))
            results.append(scorer.score(path, system["name"], jobs=jobs))
    rebuilt = build_report(
        resolved,
        options,
        results,
        per_sentence=opts["per_sentence"],
        input_format=input_format,
        review=review(resolved.display_path, resolved.sha256, compiled.findings),
    )
    if carb_metrics is not None:
        from benchie_cli.benchmarks.carb.report import add_carb

        reference = _carb_reference(report, gold_dir)
        carb_results = _score_carb(systems, submissions, reference, texts, carb_metrics)
        rebuilt = add_carb(rebuilt, reference, carb_results, carb_metrics)
    return as_reported(report, native.apply(rebuilt))


def _carb_reference(report: dict[str, Any], gold_dir: str | None) -> ResolvedGold:
    """The CaRB reference file of the report's gold version, checked against the store's
    manifest (a report naming another hash then differs in ``gold``)."""
    from benchie_cli.benchmarks.carb.report import CARB_REFERENCE

    gold = report["gold"]
    return GoldStore(resolve(gold_dir)).reference(gold["version"], gold["language"], CARB_REFERENCE)


def _score_carb(
    systems: list[dict[str, Any]],
    submissions: list[str],
    reference: ResolvedGold,
    texts: dict[str, str],
    metrics: list[str],
) -> list[Any]:
    from benchie_cli.benchmarks.carb.report import load_reference, score_carb

    gold = load_reference(reference)
    return [
        score_carb(path, system["name"], gold, texts, metrics=metrics)
        for system, path in zip(systems, submissions, strict=True)
    ]


def _rederive_carb(
    report: dict[str, Any], submissions: list[str], gold_dir: str | None, metrics: list[str]
) -> dict[str, Any]:
    """A ``--metric carb`` report rebuilt: CaRB's gold from the report's gold version, the
    sentence texts from that version's BenchIE gold, each submission read as ``score``
    read it (native files converted with the input format recorded)."""
    from benchie_cli.benchmarks.benchie.index_cache import load_compiled
    from benchie_cli.benchmarks.carb.report import build_carb_report, check_language
    from benchie_cli.gc_pause import no_cyclic_gc
    from benchie_cli.inputs.native import prepare

    systems, opts, gold = report["systems"], report["options"], report["gold"]
    check_language(opts["lang"])
    input_format = opts.get("input_format", "auto")
    if input_format not in INPUT_FORMATS:
        raise BenchieError(f"the report names an unknown input format {brief(input_format)}")
    reference = _carb_reference(report, gold_dir)
    resolved = GoldStore(resolve(gold_dir)).resolve(gold["version"], opts["lang"], BASE_FACET)
    with no_cyclic_gc():
        compiled = load_compiled(resolved, cached=False)  # never trust the cache here
    texts = dict(zip(compiled.sent_ids, compiled.texts, strict=True))
    native = NativeFacts()
    for system, path in zip(systems, submissions, strict=True):
        native.add(system["name"], prepare(path, input_format, lambda: texts))
    rebuilt = build_carb_report(
        reference,
        resolved,
        _score_carb(systems, submissions, reference, texts, metrics),
        input_format=input_format,
        metrics=metrics,
    )
    return as_reported(report, native.apply(rebuilt))
