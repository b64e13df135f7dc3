"""Re-derive a published ``score`` JSON report and say where it differs (``benchie verify``).

A report pins its gold (version and sha256) and every option that can change a number, and
names each submission's sha256: that is enough to score the same files again and rebuild the
report. The verdict is byte for byte: the rebuilt JSON must equal the given file. Every
difference is named by the JSON path of its field (``systems[0].f1``), so an edited number, a
gold that is not the one named, or a submission that is not the one scored are told apart.

What the rebuilt report takes from the given one rather than re-deriving: each system's
``name`` and ``file`` (a submission is identified by its bytes, whose sha256 is checked, not
by where it lies on this machine) and the ``failures`` list (submissions that could not be
scored have no numbers to re-derive).

Reports of ``score --metric carb`` and ``--metric benchie,carb`` are re-derived too: CaRB's
gold is the store's reference file of the report's gold version (``--gold-file`` does not
apply), and the sentence texts come from that version's BenchIE gold. So are reports of
``score --benchmark carb``: against the split of the CaRB version the report names
(``gold/carb/<version>/``, no ``--gold-file`` either), each submission read with the input
format the report recorded.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from benchie_cli import LANGUAGES, __version__
from benchie_cli.errors import BenchieError, printable_path
from benchie_cli.gold.store import GoldStore, ResolvedGold, resolve_gold_dir, resolve_gold_file
from benchie_cli.inputs.formats import INPUT_FORMATS
from benchie_cli.registry import BASE_FACET, FACET_NAMES
from benchie_cli.textio import display_name, read_whole, without_bom

#: Differences listed in full; the rest are counted.
MISMATCHES_SHOWN = 50


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One field whose value in the report is not the re-derived one."""

    path: str
    expected: str  # as the report has it
    found: str  # as re-derived

    def __str__(self) -> str:
        return f"{self.path}: report {self.expected} != re-derived {self.found}"


@dataclass(slots=True)
class Verdict:
    """The outcome of a verification: equal bytes, or the fields that differ."""

    report: str
    systems: int
    identical: bool
    mismatches: list[Mismatch] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: What ``systems`` counts (a suite report's rows).
    unit: str = "system(s)"


def read_report(path: str) -> tuple[dict[str, Any], bytes]:
    """The report at ``path`` and its bytes (read once, bounded, no device), refused
    (exit 2) unless it is JSON of this schema and version."""
    from benchie_cli.report import REPORT_SCHEMA

    shown = display_name(path)
    data = read_whole(path, what="report")
    try:
        report = orjson.loads(without_bom(data))
    except orjson.JSONDecodeError as exc:
        raise BenchieError(f"not a JSON report ({exc})", path=shown) from None
    if isinstance(report, dict) and report.get("suite") is True and "systems" not in report:
        _check_suite_shape(report, shown)
    elif not isinstance(report, dict) or "schema" not in report or "systems" not in report:
        raise BenchieError("not a `benchie score` JSON report", path=shown)
    if report.get("schema") != REPORT_SCHEMA:
        raise BenchieError(
            f"report schema {_brief(report.get('schema'))}, this benchie reads schema "
            f"{REPORT_SCHEMA}",
            path=shown,
        )
    if report.get("benchie_version") != __version__:
        raise BenchieError(
            f"report written by benchie {_brief(report.get('benchie_version'))}; this is "
            f"{__version__}: verify it with that version",
            path=shown,
        )
    if report.get("suite") is not True:
        _check_shape(report, shown)
    if "failures" in report and not _failures(report["failures"]):
        raise BenchieError(
            "'failures': a list of the submissions that could not be scored (name, file, "
            "error, exit_code), not what `benchie score` writes",
            path=shown,
        )
    return report, data


def _failures(value: Any) -> bool:
    """Whether a report's ``failures`` has the shape ``score`` writes (copied, not
    re-derived: it must be what a report can hold)."""
    return isinstance(value, list) and all(
        isinstance(f, dict)
        and set(f) == {"name", "file", "error", "exit_code"}
        and all(isinstance(f[k], str) for k in ("name", "file", "error"))
        and isinstance(f["exit_code"], int)
        for f in value
    )


def _brief(value: Any) -> str:
    """A value of a report as a message names it: short, and never deep (a report may
    nest a value thousands of levels deep): a container as :func:`_show` gives it."""
    if isinstance(value, (dict, list)):
        return _show(value)
    return printable_path(repr(value))[:80]


def _check_suite_shape(report: dict[str, Any], shown: str) -> None:
    """The fields a ``score --suite`` report must have to be re-derived (exit 2 when not)."""
    try:
        ok = (
            isinstance(report["file"]["path"], str)
            and isinstance(report["file"]["sha256"], str)
            and isinstance(report["input_format"], str)
            and isinstance(report["rows"], list)
            and all(_suite_row(row) for row in report["rows"])
        )
    except (KeyError, TypeError):
        ok = False
    if not ok:
        raise BenchieError("not a complete `benchie score --suite` JSON report", path=shown)


def _suite_row(row: Any) -> bool:
    """Whether a suite report's row has the fields verification reads, of their types."""
    if not isinstance(row, dict):
        return False
    if not all(isinstance(row.get(k), str) for k in ("benchmark", "metric", "split")):
        return False
    if "skipped" in row:
        return isinstance(row["skipped"], str)
    gold = row.get("gold")
    return isinstance(gold, dict) and isinstance(gold.get("version"), str)


def _carb_metrics(metric: str) -> list[str] | None:
    """The CaRB metrics of a report's ``metric`` key (``carb``, ``benchie,carb-ss``...),
    or None when the key is not one ``score`` writes on BenchIE's gold."""
    from benchie_cli.registry import BENCHMARKS, metric_choice, metrics_of

    default = next(b.name for b in BENCHMARKS.values() if b.by_language)
    try:
        metric_choice(metric, default)
    except ValueError:
        return None
    # (BenchIE's gold scores its own metric and those against a version's reference file)
    carb = [m.name for m in metrics_of(metric) if m.reference is not None]
    return carb or None


def _named_systems(systems: Any) -> bool:
    """Whether ``systems`` is a non-empty list of systems with a name, a file and a sha256:
    what every re-derivation takes from the report."""
    return (
        isinstance(systems, list)
        and bool(systems)
        and all(
            isinstance(s["name"], str) and isinstance(s["file"], str) and "sha256" in s
            for s in systems
        )
    )


def _check_shape(report: dict[str, Any], shown: str) -> None:
    """The fields verification reads, with their types (exit 2 when one is missing)."""
    if "benchmark" in report:
        _check_benchmark_shape(report, shown)
        return
    metric = report.get("metric", "benchie")
    if "metric" in report and (not isinstance(metric, str) or _carb_metrics(metric) is None):
        raise BenchieError(
            f"the report names the metric {_brief(metric)}, which no `benchie score` report on "
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
                and _named_systems(systems)
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
            and _named_systems(systems)
        )
    except (KeyError, IndexError, TypeError):
        ok = False
    if not ok:
        raise BenchieError("not a complete `benchie score` JSON report", path=shown)


def _check_benchmark_shape(report: dict[str, Any], shown: str) -> None:
    """The fields a ``score --benchmark carb`` report must have to be re-derived (exit 2
    when one is missing). The default benchmark's reports have no ``benchmark`` key, so a
    report naming BenchIE's, or none of the registry's, was not written by ``score``."""
    from benchie_cli.registry import BENCHMARKS, metric_choice

    benchmark = report["benchmark"]
    if (
        not isinstance(benchmark, str)
        or benchmark not in BENCHMARKS
        or BENCHMARKS[benchmark].by_language
    ):
        raise BenchieError(
            f"the report names the benchmark {_brief(benchmark)}, which no `benchie score` report "
            f"names (its benchmark key is one of "
            f"{', '.join(b for b, e in BENCHMARKS.items() if not e.by_language)}, or absent)",
            path=shown,
        )
    try:
        metric_choice(str(report.get("metric")), benchmark)
    except ValueError:
        raise BenchieError(
            f"the report names the metric {_brief(report.get('metric'))}, which no `benchie score "
            f"--benchmark {benchmark}` report names",
            path=shown,
        ) from None
    try:
        gold, options = report["gold"], report["options"]
        ok = (
            isinstance(gold["version"], str)
            and isinstance(gold["split"], str)
            and isinstance(gold["files"][0]["sha256"], str)
            and isinstance(options, dict)
            and isinstance(options.get("input_format", "auto"), str)
            and _named_systems(report["systems"])
        )
    except (KeyError, IndexError, TypeError):
        ok = False
    if not ok:
        raise BenchieError(
            f"not a complete `benchie score --benchmark {benchmark}` JSON report", path=shown
        )


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
    root, _ = resolve_gold_dir(gold_dir)
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
        f"the gold store {display_name(str(root))} has no {lang} gold with sha256 {sha} "
        f"(gold version {gold['version']!r}); give --gold-dir or --gold-file"
    )


def rederive(
    report: dict[str, Any],
    submissions: list[str],
    *,
    gold_dir: str | None = None,
    gold_file: str | None = None,
    jobs: int | None = None,
) -> dict[str, Any]:
    """The report rebuilt from the gold and ``submissions`` (one per system, in order)."""
    from benchie_cli.benchmarks.benchie.index_cache import load_compiled
    from benchie_cli.benchmarks.benchie.scoring import (
        ScoreOptions,
        Scorer,
        SystemResult,
        no_cyclic_gc,
    )
    from benchie_cli.gold.review import review
    from benchie_cli.inputs.native import prepare
    from benchie_cli.report import build_report

    systems = report["systems"]
    if len(submissions) != len(systems):
        raise BenchieError(
            f"the report has {len(systems)} system(s); give as many submissions "
            f"({len(submissions)} given), in its order, or none to read each system's file"
        )
    if "benchmark" in report:
        if gold_file is not None:
            raise BenchieError(
                "a --benchmark carb report is re-derived from the store's CaRB gold "
                "(gold/carb/); --gold-file does not apply (give --gold-dir)"
            )
        if report["benchmark"] != "carb":
            return _rederive_benchmark(report, submissions, gold_dir)
        return _rederive_carb_benchmark(report, submissions, gold_dir)
    metric = report.get("metric", "benchie")
    carb_metrics = _carb_metrics(metric) if "metric" in report else None
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
        raise BenchieError(f"the report names an unknown input format {_brief(input_format)}")
    resolved = resolve_report_gold(report, gold_dir, gold_file)
    results: list[SystemResult] = []
    with no_cyclic_gc():
        compiled = load_compiled(resolved, cached=False)  # never trust the cache here
        texts = dict(zip(compiled.sent_ids, compiled.texts, strict=True))
        scorer = Scorer(compiled, options)
        for system, path in zip(systems, submissions, strict=True):
            # A native file is converted as `score` did: with the input format it recorded.
            prepare(path, input_format, lambda: texts)
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
    return _as_reported(report, rebuilt)


def _carb_reference(report: dict[str, Any], gold_dir: str | None) -> ResolvedGold:
    """The CaRB reference file of the report's gold version, checked against the store's
    manifest (a report naming another hash then differs in ``gold``)."""
    from benchie_cli.benchmarks.carb.report import CARB_REFERENCE

    root, _ = resolve_gold_dir(gold_dir)
    gold = report["gold"]
    return GoldStore(root).reference(gold["version"], gold["language"], CARB_REFERENCE)


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
    from benchie_cli.benchmarks.benchie.scoring import no_cyclic_gc
    from benchie_cli.benchmarks.carb.report import build_carb_report, check_language
    from benchie_cli.inputs.native import prepare

    systems, opts, gold = report["systems"], report["options"], report["gold"]
    check_language(opts["lang"])
    input_format = opts.get("input_format", "auto")
    if input_format not in INPUT_FORMATS:
        raise BenchieError(f"the report names an unknown input format {_brief(input_format)}")
    reference = _carb_reference(report, gold_dir)
    root, _ = resolve_gold_dir(gold_dir)
    resolved = GoldStore(root).resolve(gold["version"], opts["lang"], BASE_FACET)
    with no_cyclic_gc():
        compiled = load_compiled(resolved, cached=False)  # never trust the cache here
    texts = dict(zip(compiled.sent_ids, compiled.texts, strict=True))
    for path in submissions:
        prepare(path, input_format, lambda: texts)
    rebuilt = build_carb_report(
        reference,
        resolved,
        _score_carb(systems, submissions, reference, texts, metrics),
        input_format=input_format,
        metrics=metrics,
    )
    return _as_reported(report, rebuilt)


def _rederive_carb_benchmark(
    report: dict[str, Any], submissions: list[str], gold_dir: str | None
) -> dict[str, Any]:
    """A ``score --benchmark carb`` report rebuilt: the gold and sentences of the split of
    the CaRB version the report names, each checked against that version's manifest (a
    report naming other bytes then differs in ``gold``), and each submission read as
    ``score`` read it, with the input format the report recorded.

    The version is resolved by name, not searched for by hash as a BenchIE report's gold
    is: CaRB's gold has no ``--gold-file``, so a report's gold is always a store version's.
    A version the store lacks is refused (exit 2) naming the hash the report gives."""
    from benchie_cli.benchmarks.carb import benchmark as cb
    from benchie_cli.gold.store import tracked_versions

    systems, gold = report["systems"], report["gold"]
    input_format = report["options"].get("input_format", "auto")
    if input_format not in INPUT_FORMATS:
        raise BenchieError(f"the report names an unknown input format {_brief(input_format)}")
    version, split = gold["version"], gold["split"]
    root, _ = resolve_gold_dir(gold_dir)
    store = cb.carb_store(root)
    if version not in store.versions() and version not in tracked_versions(store.root):
        raise BenchieError(
            f"the gold store {display_name(str(root))} has no CaRB gold version {version!r} "
            f"(the report's {split} gold has sha256 {gold['files'][0]['sha256']}); "
            "give --gold-dir"
        )
    resolved, sentences = cb.resolve_split(store, version, split)
    extractions = cb.load_gold(resolved)
    ids = cb.sentence_ids(sentences)
    metrics = report["metric"].split(",")
    results = [
        cb.score_submission(
            path,
            system["name"],
            cb.reader_for(path, input_format),
            extractions,
            ids,
            metrics=metrics,
        )
        for system, path in zip(systems, submissions, strict=True)
    ]
    rebuilt = cb.build_report(
        resolved, sentences, split, results, input_format=input_format, metrics=metrics
    )
    return _as_reported(report, rebuilt)


def _rederive_benchmark(
    report: dict[str, Any], submissions: list[str], gold_dir: str | None
) -> dict[str, Any]:
    """A ``score --benchmark oie2016|reoie2016|wire57`` report rebuilt: the gold of the
    version and split it names, each file checked against the manifest, and each
    submission read with the input format the report recorded. A WiRe57 export gives a
    system per extractor: its file is read once, for the first of them."""
    from benchie_cli.benchmarks import corpus as bm

    systems, gold = report["systems"], report["gold"]
    input_format = report["options"].get("input_format", "auto")
    root, _ = resolve_gold_dir(gold_dir)
    corpus = bm.load(root, report["benchmark"], gold["version"], gold["split"])
    runs: list[bm.Run] = []
    read: set[str] = set()
    for system, path in zip(systems, submissions, strict=True):
        if path in read:
            continue
        read.add(path)
        name = system["name"]
        if bm.entry(report["benchmark"]).score_export is not None and "/" in name:
            name = name.rsplit("/", 1)[0]
        runs.extend(bm.score_file(corpus, path, name, input_format))
    rebuilt = bm.build_report(corpus, runs, input_format=input_format)
    return _as_reported(report, rebuilt)


def _as_reported(report: dict[str, Any], rebuilt: dict[str, Any]) -> dict[str, Any]:
    """``rebuilt`` with what a re-derivation takes from the report rather than computes:
    each system's ``file`` as the report names it, and the ``failures``. (Systems that do
    not pair up, a WiRe57 export read otherwise, are left to the comparison to name.)"""
    for given, derived in zip(report["systems"], rebuilt["systems"], strict=False):
        derived["file"] = given["file"]
    if "failures" in report:
        rebuilt["failures"] = report["failures"]
    return rebuilt


def _show(value: Any) -> str:
    if isinstance(value, (dict, list)):
        kind = "object" if isinstance(value, dict) else "list"
        return f"<{kind} of {len(value)}>"
    return orjson.dumps(value).decode()


def diff(expected: Any, found: Any, path: str = "") -> list[Mismatch]:
    """Every field where ``expected`` (the report) and ``found`` (re-derived) differ, by
    JSON path; keys in another order count as a difference (the bytes would differ)."""
    if isinstance(expected, dict) and isinstance(found, dict):
        out: list[Mismatch] = []
        for key in expected:
            sub = f"{path}.{printable_path(key)}" if path else printable_path(key)
            if key not in found:
                out.append(Mismatch(sub, _show(expected[key]), "(absent)"))
            else:
                out.extend(diff(expected[key], found[key], sub))
        for key in found:
            if key not in expected:
                sub = f"{path}.{printable_path(key)}" if path else printable_path(key)
                out.append(Mismatch(sub, "(absent)", _show(found[key])))
        if not out and list(expected) != list(found):
            out.append(Mismatch(path or "(top)", "keys " + ",".join(expected), ",".join(found)))
        return out
    if isinstance(expected, list) and isinstance(found, list):
        out = [
            m
            for i, (a, b) in enumerate(zip(expected, found, strict=False))
            for m in diff(a, b, f"{path}[{i}]")
        ]
        if len(expected) != len(found):
            out.append(
                Mismatch(path + ".length", str(len(expected)), str(len(found)))
            )  # the extra items themselves are summarised by the count
        return out
    if type(expected) is not type(found) or expected != found:
        return [Mismatch(path or "(top)", _show(expected), _show(found))]
    return []


def verify(
    report_path: str,
    submissions: list[str],
    *,
    gold_dir: str | None = None,
    gold_file: str | None = None,
    jobs: int | None = None,
) -> Verdict:
    """Re-derive the report at ``report_path`` from ``submissions`` (or, when empty, each
    system's ``file``) and compare it byte for byte."""
    from benchie_cli.report import to_json

    report, given = read_report(report_path)
    if report.get("suite") is True:
        return _verify_suite(report_path, report, given, submissions, gold_dir)
    paths = submissions or [s["file"] for s in report["systems"]]
    for path in [] if submissions else paths:  # names a report gives: files, nothing else
        if not os.path.isfile(path):
            raise BenchieError(
                "is not a regular file (named by the report); give the submissions as arguments",
                path=display_name(path),
            )
    changed: list[Mismatch] = []
    if len(paths) == len(report["systems"]):  # (else rederive says how many to give)
        changed = _changed_submissions(report["systems"], paths)
    try:
        rebuilt = rederive(report, paths, gold_dir=gold_dir, gold_file=gold_file, jobs=jobs)
    except BenchieError as exc:
        if not changed:
            raise
        # Another file, which does not even read as the report's did: its bytes are the
        # difference (exit 1), and why it cannot be re-derived is a note.
        verdict = Verdict(display_name(report_path), len(report["systems"]), False, changed)
        verdict.notes.append(f"not re-derived from the given file(s): {exc}")
        return verdict
    data = to_json(rebuilt)
    verdict = Verdict(display_name(report_path), len(report["systems"]), data == given)
    if not verdict.identical:
        verdict.mismatches = diff(report, rebuilt)
        if not verdict.mismatches:
            verdict.mismatches.append(
                Mismatch(
                    "(bytes)",
                    f"sha256 {hashlib.sha256(given).hexdigest()[:12]}",
                    f"sha256 {hashlib.sha256(data).hexdigest()[:12]} "
                    "(same content, other formatting)",
                )
            )
    if "failures" in report:
        verdict.notes.append(
            f"{len(report['failures'])} failure entr(ies) copied from the report, not re-derived"
        )
    return verdict


def _check_suite_store(report: dict[str, Any], root: Path) -> None:
    """Refuse (exit 2) a store that has not the benchmarks the suite report was scored
    with: one it scored is absent, or one it found absent is there. Re-deriving against it
    would name every row of that benchmark as different, though none is."""
    from benchie_cli import suite
    from benchie_cli.registry import BENCHMARKS

    for row in report["rows"]:
        name = row.get("benchmark")
        if name not in BENCHMARKS:
            continue  # the comparison names it
        absent = suite.absent(root, name)
        label = BENCHMARKS[name].label
        if "skipped" not in row and absent is not None:
            raise BenchieError(
                f"the report scored {label} (gold {row.get('gold', {}).get('version')}), "
                f"which the store {display_name(str(root))} has not: {absent}"
            )
        skipped_absent = "skipped" in row and row["skipped"] != suite.none_of_its(name)
        if skipped_absent and absent is None:
            raise BenchieError(
                f"the report was scored without {label}, which the store "
                f"{display_name(str(root))} has: verify against the store it was scored "
                "with (--gold-dir)"
            )


def _file_sha256(path: str) -> str:
    """The sha256 of a submission's bytes, streamed (a submission may be large)."""
    from benchie_cli.textio import read_whole, sha256_file

    if path == "-" or not os.path.isfile(path):
        return hashlib.sha256(read_whole(path, what="submission")).hexdigest()
    try:
        return sha256_file(Path(path))
    except OSError as exc:
        raise BenchieError(f"cannot read: {exc.strerror or exc}", path=display_name(path)) from None


def _changed_submissions(systems: list[dict[str, Any]], paths: list[str]) -> list[Mismatch]:
    """Each system whose submission is not the file the report scored (by sha256): checked
    before anything is re-derived, since another file may not even read as the first did."""
    seen: dict[str, str] = {}
    out = []
    for n, (system, path) in enumerate(zip(systems, paths, strict=True)):
        if path == "-":
            continue  # read once, by the re-derivation itself
        sha = seen.get(path) or seen.setdefault(path, _file_sha256(path))
        if sha != system["sha256"]:
            out.append(Mismatch(f"systems[{n}].sha256", _show(system["sha256"]), _show(sha)))
    return out


def _verify_suite(
    report_path: str,
    report: dict[str, Any],
    given: bytes,
    submissions: list[str],
    gold_dir: str | None,
) -> Verdict:
    """A ``score --suite`` report re-derived: the file it names (or the one given) checked
    by sha256 first, then the suite run again with the format it read, against the store."""
    from benchie_cli import suite
    from benchie_cli.benchmarks import corpus as bm
    from benchie_cli.report import to_json

    if len(submissions) > 1:
        raise BenchieError(f"a suite report scores one file; {len(submissions)} given")
    path = submissions[0] if submissions else report["file"]["path"]
    if not submissions and not os.path.isfile(path):
        raise BenchieError(
            "is not a regular file (named by the report); give the system output as argument",
            path=display_name(path),
        )
    facts, _ = bm.read_submission(path)
    verdict = Verdict(display_name(report_path), len(report["rows"]), False, unit="row(s)")
    if facts.sha256 != report["file"]["sha256"]:
        verdict.mismatches.append(
            Mismatch("file.sha256", _show(report["file"]["sha256"]), _show(facts.sha256))
        )
        return verdict
    root, _ = resolve_gold_dir(gold_dir)
    _check_suite_store(report, root)
    rebuilt = suite.run(path, report["input_format"], root, cached=False)
    rebuilt["file"]["path"] = report["file"]["path"]
    data = to_json(rebuilt)
    verdict.identical = data == given
    if not verdict.identical:
        verdict.mismatches = diff(report, rebuilt) or [
            Mismatch("(bytes)", "the report's", "re-derived: same content, other formatting")
        ]
    return verdict
