"""``benchie score --suite``: one system output, every benchmark present in the gold store,
one table (docs/suite.md).

The output is one file of a format that names each extraction's sentence by its text
(OpenIE 4, OpenIE 5, or the CaRB tab format), run over the sentences of every benchmark.
Each benchmark takes the lines of its own sentences and scores them as its original scorer
scores a file of just those lines:

- BenchIE, every facet of the default gold version (English): the lines are aligned to the
  gold by sentence text (README, "Native formats");
- CaRB (s,m) and (s,s), CaRB's test split: read by CaRB's reader of the format; lines of
  other sentences are left out (CaRB would use their confidences as thresholds);
- OIE2016 (split ``all``), read by oie-benchmark's reader of the format;
- Re-OIE2016 and WiRe57 when added (``benchie benchmark add``): the CaRB tab format is
  Re-OIE2016's own; other formats, and WiRe57 always, are read by CaRB's reader of the
  format and passed on as the tuples it reads (WiRe57's sentences matched by text).

A benchmark absent from the store, or none of whose sentences is in the file, is a row that
says so (with the command that adds an external one). Formats whose readers rescale
confidences over the whole file (ClausIE, PropS) are refused: a benchmark's numbers would
then depend on the other benchmarks' lines.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchie_cli import __version__
from benchie_cli.errors import BenchieError
from benchie_cli.metrics.registry import BENCHMARKS, METRICS
from benchie_cli.tables import render
from benchie_cli.textio import display_name, read_whole

#: The formats the suite reads (each benchmark's reader of it is named above).
FORMATS = ("openie4", "openie5", "carb")
#: CaRB's reader of each format.
_CARB_READER = {"openie4": "openie4", "openie5": "openie5", "carb": "tabbed"}


@dataclass(slots=True)
class Row:
    """One benchmark's line of the suite's table."""

    benchmark: str
    metric: str
    split: str
    numbers: dict[str, Any] | None = None
    signature: str | None = None
    #: Why there are no numbers (absent gold, no sentence of the benchmark).
    skipped: str | None = None
    facet: str | None = None

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "benchmark": self.benchmark,
            "metric": self.metric,
            **({"facet": self.facet} if self.facet else {}),
            "split": self.split,
        }
        if self.skipped is not None:
            out["skipped"] = self.skipped
        else:
            out["signature"] = self.signature
            out[self.metric] = self.numbers
        return out


def _detect(path: str, input_format: str) -> str:
    fmt = input_format
    if fmt == "auto":
        from benchie_cli.native import detect

        fmt = detect(path)
    if fmt not in FORMATS:
        raise BenchieError(
            f"--suite reads {', '.join(FORMATS)} files (each line names its sentence by its "
            f"text), not {fmt}: ClausIE's and PropS's readers rescale confidences over the "
            "whole file, BenchIE TSV names BenchIE's sentences only (score each benchmark "
            "with --benchmark)",
            path=display_name(path),
        )
    return fmt


def _benchie_rows(root: Path, path: str, fmt: str, sha256: str, given: str) -> list[Row]:
    """BenchIE's every facet: the file converted once (aligned to the gold's sentences by
    text), then scored per facet with the default options, as ``score --facet F`` would."""
    from benchie_cli import api
    from benchie_cli.metrics.scoring import ScoreOptions, Scorer
    from benchie_cli.native import convert_in_place
    from benchie_cli.report import signature
    from benchie_cli.textio import release_spooled

    try:
        base = api.load_gold("en", gold_dir=root, say=lambda _: None)
    except BenchieError as exc:
        return [Row("benchie", "benchie", "-", skipped=exc.message)]
    facets = base.facets()
    try:
        conversion = convert_in_place(path, fmt, base.sentences, "en")
    except BenchieError as exc:
        return [Row("benchie", "benchie", "-", facet=f, skipped=exc.message) for f in facets]
    rows = []
    try:
        if conversion.sha256 != sha256:
            raise BenchieError("changed while the suite read it", path=display_name(path))
        for facet, resolved in facets.items():
            gold = api.Gold(resolved, base.store, released=base.released)
            options = ScoreOptions("en", facet)
            row = Row("benchie", "benchie", "-", facet=facet)
            try:
                result = Scorer(gold.compiled, options, mistakes=gold.mistake_check()).score(
                    path, "system"
                )
            except BenchieError as exc:
                row.skipped = exc.message
                rows.append(row)
                continue
            (p, r, f1), (tp, fp, fn) = result.scores, result.totals
            row.numbers = {"precision": p, "recall": r, "f1": f1, "tp": tp, "fp": fp, "fn": fn}
            if result.curve is not None:  # confidences: BenchIE's curve (README, "Confidences")
                row.numbers["auc"] = result.curve.auc
            row.signature = signature(resolved, options, api.recorded_format(given, [path]))
            rows.append(row)
    finally:
        release_spooled()
    return rows


def _carb_rows(root: Path, data: bytes, shown: str, fmt: str) -> list[Row]:
    from benchie_cli.metrics import carb_benchmark as cb
    from benchie_cli.metrics.carb_data import READERS
    from benchie_cli.metrics.carb_metric import outside
    from benchie_cli.metrics.carb_report import carb_scores

    metrics = BENCHMARKS["carb"].metrics
    split = BENCHMARKS["carb"].splits[0]
    try:
        gold_store = cb.carb_store(root)
        version = cb.latest_version(gold_store)
        resolved, _ = cb.resolve_split(gold_store, version, split)
    except BenchieError as exc:
        return [Row("carb", m, split, skipped=exc.message) for m in metrics]
    gold = cb.load_gold(resolved)
    is_outside = outside(gold)
    lines = io.StringIO(data.decode("utf-8"), newline=None)
    predicted = READERS[_CARB_READER[fmt]](lines, shown, confidence_only=is_outside)
    predicted = {t: x for t, x in predicted.items() if not is_outside(t)}
    if not predicted:
        return [Row("carb", m, split, skipped="none of its sentences is CaRB's") for m in metrics]
    scores = carb_scores(gold, predicted, metrics)
    rows = []
    for m in metrics:
        p, r, f1 = scores[m].optimal
        numbers = {"precision": p, "recall": r, "f1": f1, "auc": scores[m].auc}
        rows.append(Row("carb", m, split, numbers, cb.signature(resolved, split, m)))
    return rows


def _texts(
    data: bytes, shown: str, fmt: str
) -> dict[str, list[tuple[str, tuple[str, ...], float]]]:
    """The file read by CaRB's reader of its format: extractions by sentence text."""
    from benchie_cli.metrics.carb_data import READERS

    lines = io.StringIO(data.decode("utf-8"), newline=None)
    read = READERS[_CARB_READER[fmt]](lines, shown)
    return {t: [(x.pred, x.args, x.confidence) for x in xs] for t, xs in read.items()}


def _corpus_row(root: Path, benchmark: str, data: bytes, shown: str, fmt: str) -> Row:
    from benchie_cli.metrics import benchmarks as bm

    split = BENCHMARKS[benchmark].splits[0]
    row = Row(benchmark, BENCHMARKS[benchmark].metrics[0], split)
    try:
        corpus = bm.load(root, benchmark, None, split)
    except BenchieError as exc:
        row.skipped = exc.message
        return row
    entry = bm.CORPORA[benchmark]
    try:
        if entry.score is not None and fmt in entry.formats:
            row.numbers = entry.score(corpus, data, shown, fmt).numbers
        else:
            row.numbers = bm.score_texts(corpus, _texts(data, shown, fmt), shown)
    except BenchieError as exc:
        if "none of its" not in exc.message:
            raise
        row.skipped = f"none of its sentences is {BENCHMARKS[benchmark].label}'s"
        return row
    row.signature = bm.signature(corpus)
    return row


@dataclass(frozen=True, slots=True)
class _Input:
    """The system output as every benchmark's runner takes it."""

    root: Path
    path: str
    data: bytes
    shown: str
    fmt: str
    sha256: str
    #: ``--input-format`` as given (what BenchIE's signature records).
    given: str


def _rows_of(benchmark: str, given: _Input) -> list[Row]:
    """The benchmark's rows of the table."""
    if benchmark == "benchie":
        return _benchie_rows(given.root, given.path, given.fmt, given.sha256, given.given)
    if benchmark == "carb":
        return _carb_rows(given.root, given.data, given.shown, given.fmt)
    return [_corpus_row(given.root, benchmark, given.data, given.shown, given.fmt)]


def run(path: str, input_format: str, root: Path) -> dict[str, Any]:
    """The suite's report for the system output at ``path`` (read once, hashed; each
    benchmark scores those bytes)."""
    fmt = _detect(path, input_format)
    shown = display_name(path)
    data = read_whole(path, what="submission")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BenchieError(f"not UTF-8 ({exc})", path=shown) from None
    sha256 = hashlib.sha256(data).hexdigest()
    rows = [
        row
        for name in BENCHMARKS
        for row in _rows_of(name, _Input(root, path, data, shown, fmt, sha256, input_format))
    ]
    if all(r.skipped is not None for r in rows):
        reasons = "; ".join(f"{r.benchmark}: {r.skipped}" for r in rows)
        raise BenchieError(f"no benchmark could score it ({reasons})", path=shown)
    return {
        "schema": 1,
        "benchie_version": __version__,
        "suite": True,
        "file": {"path": path, "sha256": sha256},
        "input_format": fmt,
        "rows": [r.as_json() for r in rows],
    }


def _cell(numbers: dict[str, Any] | None, key: str) -> str:
    value = (numbers or {}).get(key)
    return "-" if not isinstance(value, float) or value != value else f"{value:.4f}"


def _table_rows(report: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    columns = ["benchmark", "metric", "split", "P", "R", "F1", "AUC"]
    rows = []
    for r in report["rows"]:
        label = METRICS[r["metric"]].label + (f" ({r['facet']})" if "facet" in r else "")
        numbers = r.get(r["metric"])
        cells = [_cell(numbers, k) for k in ("precision", "recall", "f1", "auc")]
        if "skipped" in r:
            cells = ["-", "-", "-", "-"]
        rows.append([BENCHMARKS[r["benchmark"]].label, label, r["split"], *cells])
    return columns, rows


def _notes(report: dict[str, Any]) -> list[str]:
    return [
        f"{BENCHMARKS[r['benchmark']].label}: {r['skipped']}"
        for r in report["rows"]
        if "skipped" in r
    ]


def to_table(report: dict[str, Any]) -> str:
    """The suite as a table, what was skipped, then each row's signature."""
    columns, rows = _table_rows(report)
    lines = render([columns, *rows], [3, 4, 5, 6])
    lines += ["", *(f"skipped: {n}" for n in _notes(report))]
    lines += [r["signature"] for r in report["rows"] if "signature" in r]
    return "\n".join(lines) + "\n"


def to_markdown(report: dict[str, Any]) -> str:
    """The suite as a markdown table, what was skipped, and the signatures."""
    columns, rows = _table_rows(report)
    lines = [
        "| " + " | ".join(columns) + " |",
        "|" + "|".join(["---"] * 3 + ["---:"] * 4) + "|",
        *("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows),
    ]
    lines += ["", *(f"- skipped: {n}" for n in _notes(report))]
    lines += ["", *(f"`{r['signature']}`  " for r in report["rows"] if "signature" in r)]
    return "\n".join(lines) + "\n"
