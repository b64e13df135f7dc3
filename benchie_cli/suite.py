"""``benchie score --suite``: one system output, every benchmark present in the gold store,
one table (docs/suite.md).

The output is one file of a format that names each extraction's sentence by its text
(OpenIE 4, OpenIE 5, or the CaRB tab format), run over the sentences of every benchmark.
Each benchmark takes the lines of its own sentences and scores them as its own command
(``score --benchmark NAME --input-format FMT``) scores a file of just those lines:

- BenchIE, every facet of the default gold version (English): the lines are aligned to the
  gold by sentence text (docs/native-formats.md);
- CaRB (s,m) and (s,s), CaRB's test split: read by CaRB's reader of the format; lines of
  other sentences add their confidences as thresholds only, as CaRB's scorer does;
- OIE2016 (split ``all``), read by oie-benchmark's reader of the format when it has one;
- Re-OIE2016 and WiRe57 when added (``benchie benchmark add``).

The file is read once; CaRB's reader reads it once for every benchmark that reads it so.
Only a benchmark absent from the store, or none of whose sentences is in the file, is a row
without numbers; anything else (a gold that differs from its manifest, an unreadable line)
fails the run, as it fails the benchmark's own command. Formats whose readers rescale
confidences over the whole file (ClausIE, PropS) are refused: a benchmark's numbers would
then depend on the other benchmarks' lines.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchie_cli import __version__
from benchie_cli.benchmarks import corpus as bm
from benchie_cli.errors import BenchieError
from benchie_cli.registry import BENCHMARKS, METRICS
from benchie_cli.tables import render
from benchie_cli.textio import display_name

#: The formats the suite reads (each benchmark's reader of it is named above).
FORMATS = tuple(bm.CARB_READ)
#: A row whose benchmark has output for fewer of its gold sentences than this share is
#: said on stderr: the file was probably run on another benchmark's sentences.
LOW_COVERAGE = 0.5


@dataclass(slots=True)
class Row:
    """One benchmark's line of the suite's table."""

    benchmark: str
    metric: str
    split: str
    numbers: dict[str, Any] | None = None
    signature: str | None = None
    #: The gold scored against: version and sha256 (the signature shows 12 digits).
    gold: dict[str, str] = field(default_factory=dict)
    #: (gold sentences with output, gold sentences).
    coverage: tuple[int, int] = (0, 0)
    #: Why there are no numbers (absent gold, no sentence of the benchmark).
    skipped: str | None = None
    facet: str | None = None
    #: What the benchmark's scorer does silently that a user must know (said on stderr).
    warnings: tuple[str, ...] = ()
    #: The file's sentence texts that are the benchmark's (not in the report).
    known: frozenset[str] = frozenset()
    #: A gold with errors its reader skipped or repaired: what ``score`` reports of it.
    findings: dict[str, Any] | None = None

    @property
    def label(self) -> str:
        label = METRICS[self.metric].label
        return f"{label} ({self.facet})" if self.facet else label

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "benchmark": self.benchmark,
            "metric": self.metric,
            **({"facet": self.facet} if self.facet else {}),
            "split": self.split,
        }
        if self.skipped is not None:
            out["skipped"] = self.skipped
            return out
        out["signature"] = self.signature
        out["gold"] = self.gold
        if self.findings is not None:  # (only then: reports without errors keep their bytes)
            out["findings"] = self.findings
        out["sentences"] = {"with_output": self.coverage[0], "gold": self.coverage[1]}
        out[self.metric] = self.numbers
        return out


@dataclass(slots=True)
class _Input:
    """The system output as every benchmark takes it, with what is read once for all."""

    root: Path
    path: str
    data: bytes
    shown: str
    fmt: str
    sha256: str
    #: ``--input-format`` as ``score`` records it (BenchIE's signature), found before any
    #: conversion stands in for the file.
    given: str
    #: Whether compiled gold may come from the index cache (``verify`` re-derives without).
    cached: bool = True
    #: Where what a user must know goes (a gold's errors, as every command says them).
    say: Callable[[str], None] = lambda _: None
    #: The file read by CaRB's reader of its format (read on first use, once).
    _texts: bm.TextExtractions | None = None

    def texts(self) -> bm.TextExtractions:
        if self._texts is None:
            self._texts = bm.carb_texts(self.data, self.shown, self.fmt)
        return self._texts


def _detect(path: str, data: bytes, input_format: str) -> str:
    if not data.strip():
        raise BenchieError("an empty file: no extraction to score", path=display_name(path))
    fmt = bm.detect_format(data) if input_format == "auto" else input_format
    if fmt == "json":
        raise BenchieError(
            "a JSON file: --suite reads a system output of OpenIE 4, OpenIE 5 or CaRB "
            "tab lines (a WiRe57 export is scored with --benchmark wire57)",
            path=display_name(path),
        )
    if fmt not in FORMATS:
        why = {
            "clausie": "its reader rescales confidences over the whole file, so a benchmark's "
            "numbers would depend on the other benchmarks' lines",
            "props": "its reader rescales confidences over the whole file, so a benchmark's "
            "numbers would depend on the other benchmarks' lines",
            "benchie": "a BenchIE TSV file names BenchIE's sentences only: score it with "
            "`benchie score` (or its format was not recognised: give --input-format)",
        }.get(fmt, "its lines do not name their sentence by its text, or not for every benchmark")
        raise BenchieError(
            f"--suite reads {', '.join(FORMATS)} files, not {fmt}: {why}",
            path=display_name(path),
        )
    return fmt


def absent(root: Path, benchmark: str) -> str | None:
    """Why a benchmark cannot be scored at all (not in the store), or None."""
    if BENCHMARKS[benchmark].by_language:
        from benchie_cli import default_gold_version
        from benchie_cli.gold.store import GoldStore, not_pulled_hint, tracked_versions

        store = GoldStore(root)
        version = default_gold_version()
        if version in store.versions():
            return None
        if version in tracked_versions(root):
            return not_pulled_hint(root, version)
        return f"no BenchIE gold {version} in {display_name(str(root))}"
    return None if bm.present(root, benchmark) else bm.missing(benchmark)


def none_of_its(benchmark: str) -> str:
    return f"none of its sentences is {BENCHMARKS[benchmark].label}'s"


def _benchie_rows(given: _Input) -> list[Row]:
    """BenchIE's every facet: the file converted once (aligned to the gold's sentences by
    text), then scored per facet with the default options, as ``score --facet F`` would."""
    from benchie_cli import api
    from benchie_cli.benchmarks.benchie.index_cache import load_compiled
    from benchie_cli.benchmarks.benchie.scoring import ScoreOptions, Scorer
    from benchie_cli.inputs.native import convert_in_place
    from benchie_cli.report import signature

    base = api.load_gold("en", gold_dir=given.root, say=given.say)
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
            Row("benchie", "benchie", "-", facet=f, skipped=none_of_its("benchie")) for f in facets
        ]
    rows = []
    coverage = (conversion.alignment.aligned_sentences, len(texts))
    alignment = conversion.alignment
    unaligned = {s.text for s in (*alignment.unaligned, *alignment.ambiguous)}
    known = frozenset(t for t in given.texts() if t not in unaligned)
    for facet, resolved in facets.items():
        gold = api.Gold(resolved, base.store, released=base.released)
        options = ScoreOptions("en", facet)
        mistakes = gold.mistake_check(texts=texts)
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
        row = Row("benchie", "benchie", "-", numbers, facet=facet, coverage=coverage, known=known)
        row.signature = signature(resolved, options, given.given)
        row.gold = {"version": resolved.version, "sha256": resolved.sha256}
        if gold.review.new_count:
            row.findings = gold.review.as_json()
        rows.append(row)
    return rows


def _carb_rows(given: _Input) -> list[Row]:
    from benchie_cli.benchmarks.carb import benchmark as cb
    from benchie_cli.benchmarks.carb.data import Extraction
    from benchie_cli.benchmarks.carb.metric import group, sentence_key
    from benchie_cli.benchmarks.carb.report import carb_scores

    metrics = BENCHMARKS["carb"].metrics
    split = BENCHMARKS["carb"].splits[0]
    gold_store = cb.carb_store(given.root)
    resolved, _ = cb.resolve_split(gold_store, cb.latest_version(gold_store), split)
    gold = cb.load_gold(resolved)
    gold_keys = group(gold).keys()
    # Every line, as CaRB's scorer and `score --benchmark carb` read the file: those of other
    # sentences add their confidences as thresholds only.
    predicted = {t: [Extraction(p, a, c) for p, a, c in xs] for t, xs in given.texts().items()}
    covered = len(group(predicted).keys() & gold_keys)
    known = frozenset(t for t in predicted if sentence_key(t) in gold_keys)
    if not covered:
        return [Row("carb", m, split, skipped=none_of_its("carb")) for m in metrics]
    coverage = (covered, len(gold_keys))
    scores = carb_scores(gold, predicted, metrics)
    rows = []
    for m in metrics:
        p, r, f1 = scores[m].optimal
        numbers = {"precision": p, "recall": r, "f1": f1, "auc": scores[m].auc}
        row = Row(
            "carb",
            m,
            split,
            numbers,
            cb.signature(resolved, split, m),
            coverage=coverage,
            known=known,
        )
        row.gold = {"version": resolved.version, "sha256": resolved.sha256}
        rows.append(row)
    return rows


def _corpus_row(benchmark: str, given: _Input) -> Row:
    split = BENCHMARKS[benchmark].splits[0]
    row = Row(benchmark, BENCHMARKS[benchmark].metrics[0], split)
    corpus = bm.load(given.root, benchmark, None, split)
    entry = bm.entry(benchmark)
    try:
        if given.fmt in entry.own and entry.score_own is not None:
            scored = entry.score_own(corpus, given.data, given.shown, given.fmt)
        else:
            scored = entry.score_texts(corpus, given.texts(), given.shown)
    except BenchieError as exc:
        if "none of its" not in exc.message:
            raise
        row.skipped = none_of_its(benchmark)
        return row
    row.numbers = scored.numbers
    row.coverage = scored.coverage
    row.warnings = scored.warnings
    row.known = scored.known
    row.signature = bm.signature(corpus)
    row.gold = {"version": corpus.version, "sha256": corpus.sha256}
    return row


def _rows_of(benchmark: str, given: _Input) -> list[Row]:
    """The benchmark's rows of the table."""
    if BENCHMARKS[benchmark].by_language:
        return _benchie_rows(given)
    if benchmark == "carb":
        return _carb_rows(given)
    return [_corpus_row(benchmark, given)]


def _skipped(benchmark: str, reason: str) -> list[Row]:
    b = BENCHMARKS[benchmark]
    if b.by_language:
        from benchie_cli.registry import FILE_FACETS

        return [Row(benchmark, "benchie", "-", facet=f, skipped=reason) for f in FILE_FACETS[:1]]
    return [Row(benchmark, m, b.splits[0], skipped=reason) for m in b.metrics]


def run(
    path: str,
    input_format: str,
    root: Path,
    say: Callable[[str], None] = lambda _: None,
    *,
    cached: bool = True,
) -> dict[str, Any]:
    """The suite's report for the system output at ``path`` (read once, hashed; each
    benchmark scores those bytes). ``say`` gets what a user must know (low coverage);
    ``cached=False`` never reads the index cache (``verify``)."""
    from benchie_cli.textio import release_spooled, stand_in, temporary_file

    facts, data = bm.read_submission(path)  # read once (decompressed if gzip)
    shown = display_name(path)
    copy = temporary_file()  # kept open for the run by stand_in
    copy.write(data)
    copy.flush()
    stand_in(path, copy, facts.sha256)  # every later read sees these bytes, stdin too
    rows: list[Row] = []
    notes: list[str] = []  # what is said of the file as a whole, whichever row reads it
    try:
        fmt = _detect(path, data, input_format)
        from benchie_cli.api import recorded_format

        recorded = recorded_format(input_format, [path])
        given = _Input(root, path, data, shown, fmt, facts.sha256, recorded, cached, say=say)
        for name in BENCHMARKS:
            reason = absent(root, name)
            rows.extend(_skipped(name, reason) if reason else _rows_of(name, given))
        # Lines the readers skip (a slot empty or missing), as each benchmark's own command
        # says them: every reader of these formats skips the same lines.
        extractions = sum(len(xs) for xs in given.texts().values())
        skipped = bm.skipped_lines(data, fmt, extractions)
        if skipped is not None:
            notes.append(skipped)
        nowhere = len(given.texts().keys() - set().union(*(r.known for r in rows)))
        if nowhere:
            notes.append(
                f"{nowhere:,} of its {len(given.texts()):,} sentences are in no benchmark's "
                "gold: no row scores their extractions (CaRB's rows take their confidences "
                "as thresholds only, as CaRB's scorer does)"
            )
    finally:
        release_spooled()
    if all(r.skipped is not None for r in rows):
        reasons = "; ".join(
            dict.fromkeys(f"{BENCHMARKS[r.benchmark].label}: {r.skipped}" for r in rows)
        )
        raise BenchieError(f"no benchmark could score it ({reasons})", path=shown)
    for note in notes:
        say(f"{shown}: warning: {note}")
    for r in rows:
        for warning in r.warnings:
            say(f"{shown}: warning: {r.label}: {warning}")
        covered, total = r.coverage
        if r.skipped is None and total and covered < LOW_COVERAGE * total:
            say(
                f"{shown}: warning: {r.label}: output for {covered:,} of its {total:,} gold "
                "sentences: the others count as missed (a file run on another benchmark's "
                "sentences?)"
            )
    return {
        "schema": 1,
        "benchie_version": __version__,
        "suite": True,
        "file": {"path": path, "sha256": facts.sha256},
        # --input-format as score records it (auto when detection reads the file alike),
        # and the format it was read as.
        "input_format": recorded,
        "read_as": fmt,
        # (only when there is something to say: reports without it keep their bytes)
        **({"warnings": notes} if notes else {}),
        "rows": [r.as_json() for r in rows],
    }


def _cell(numbers: dict[str, Any] | None, key: str) -> str:
    value = (numbers or {}).get(key)
    return "-" if not isinstance(value, float) or value != value else f"{value:.4f}"


def _table_rows(report: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    columns = ["benchmark", "metric", "split", "P", "R", "F1", "AUC", "sentences"]
    rows = []
    for r in report["rows"]:
        label = METRICS[r["metric"]].label + (f" ({r['facet']})" if "facet" in r else "")
        numbers = r.get(r["metric"])
        cells = [_cell(numbers, k) for k in ("precision", "recall", "f1", "auc")]
        sentences = r.get("sentences")
        cover = f"{sentences['with_output']}/{sentences['gold']}" if sentences else "-"
        if "skipped" in r:
            cells = ["-", "-", "-", "-"]
        rows.append([BENCHMARKS[r["benchmark"]].label, label, r["split"], *cells, cover])
    return columns, rows


def _notes(report: dict[str, Any]) -> list[str]:
    notes = [
        f"{BENCHMARKS[r['benchmark']].label}: {r['skipped']}"
        for r in report["rows"]
        if "skipped" in r
    ]
    return list(dict.fromkeys(notes))


_SENTENCES_NOTE = "sentences: gold sentences with output / gold sentences"


def to_table(report: dict[str, Any]) -> str:
    """The suite as a table, what was skipped, then each row's signature."""
    columns, rows = _table_rows(report)
    lines = render([columns, *rows], [3, 4, 5, 6, 7])
    lines += [_SENTENCES_NOTE, "", *(f"skipped: {n}" for n in _notes(report))]
    lines += [r["signature"] for r in report["rows"] if "signature" in r]
    return "\n".join(lines) + "\n"


def to_markdown(report: dict[str, Any]) -> str:
    """The suite as a markdown table, what was skipped, and the signatures."""
    columns, rows = _table_rows(report)
    lines = [
        "| " + " | ".join(columns) + " |",
        "|" + "|".join(["---"] * 3 + ["---:"] * 5) + "|",
        *("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows),
    ]
    lines += ["", _SENTENCES_NOTE, "", *(f"- skipped: {n}" for n in _notes(report))]
    lines += ["", *(f"`{r['signature']}`  " for r in report["rows"] if "signature" in r)]
    return "\n".join(lines) + "\n"
