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
from typing import Any

from benchie_cli import REPORT_SCHEMA, __version__
from benchie_cli.benchmarks import corpus as bm
from benchie_cli.benchmarks.runner import SINGLE_THRESHOLD, Row, SuiteInput, runner
from benchie_cli.benchmarks.runner import none_of_its as none_of_its
from benchie_cli.errors import BenchieError
from benchie_cli.gold.dirs import GoldDirs
from benchie_cli.inputs.formats import CARB_READ
from benchie_cli.registry import BENCHMARKS, METRICS, SCORE_LANGUAGES
from benchie_cli.tables import render
from benchie_cli.textio import display_name

#: The formats the suite reads (each benchmark's reader of it is named above).
FORMATS = tuple(CARB_READ)
#: The order of the suite's languages: English, then as the registry names them.
_LANGUAGE_ORDER = ("en", *(lang for lang in SCORE_LANGUAGES if lang != "en"))
#: A row whose benchmark has output for fewer of its gold sentences than this share is
#: said on stderr: the file was probably run on another benchmark's sentences.
LOW_COVERAGE = bm.LOW_COVERAGE


def _detect(path: str, data: bytes, input_format: str) -> str:
    if not data.strip():
        raise BenchieError("an empty file: no extraction to score", path=display_name(path))
    fmt = bm.detect_format(data, display_name(path)) if input_format == "auto" else input_format
    if fmt == bm.JSON_DOCUMENT:
        raise BenchieError(
            "a JSON file: --suite reads a system output of OpenIE 4, OpenIE 5 or CaRB "
            "tab lines (a WiRe57 export is scored with --benchmark wire57)",
            path=display_name(path),
        )
    if fmt not in FORMATS:
        _check_text(data, display_name(path))  # bytes no reader reads: said as such
        from benchie_cli.inputs.mistakes import curve_error

        curve = curve_error(data, display_name(path))  # (no reader recognises a curve)
        if curve is not None:
            raise curve
        why = {
            "clausie": "its reader rescales confidences over the whole file, so a benchmark's "
            "numbers would depend on the other benchmarks' lines",
            "props": "its reader rescales confidences over the whole file, so a benchmark's "
            "numbers would depend on the other benchmarks' lines",
            "benchie": "a BenchIE TSV file names BenchIE's sentences only: score it with "
            "`benchie score` (or its format was not recognised: give --input-format)",
        }.get(
            fmt,
            "the suite reads one file for every benchmark by the tab formats every original "
            "scorer reads; score it on each benchmark with --benchmark NAME",
        )
        raise BenchieError(
            f"--suite reads {', '.join(FORMATS)} files, not {fmt}: {why}",
            path=display_name(path),
        )
    return fmt


def _check_text(data: bytes, shown: str) -> None:
    """The error ``score`` gives for the first line that is not UTF-8 or holds a NUL byte,
    if one does: such a file is detected as no format, and saying that it is not a format
    the suite reads would hide what is wrong with it."""
    from benchie_cli.textio import decode_line, without_bom

    for n, line in enumerate(without_bom(data).split(b"\n"), 1):
        decode_line(line, shown, n)


def absent(root: GoldDirs, benchmark: str) -> str | None:
    """Why a benchmark cannot be scored at all (not in the store), or None."""
    return runner(benchmark).absent(root)


def _skipped(benchmark: str, reason: str) -> list[Row]:
    b = BENCHMARKS[benchmark]
    if b.by_language:
        from benchie_cli.registry import FILE_FACETS

        return [Row(benchmark, b.metrics[0], "-", facet=f, skipped=reason) for f in FILE_FACETS[:1]]
    return [Row(benchmark, m, b.splits[0], skipped=reason) for m in b.metrics]


def run(
    path: str,
    input_format: str,
    root: GoldDirs,
    say: Callable[[str], None] = lambda _: None,
    *,
    cached: bool = True,
    curves: bool = False,
) -> dict[str, Any]:
    """The suite's report for the system output at ``path`` (read once, hashed; each
    benchmark scores those bytes). ``say`` gets what a user must know (low coverage);
    ``cached=False`` never reads the index cache (``verify``); ``curves``: each row of a
    metric with a precision-recall curve also holds it (``curve``, as that benchmark's own
    report does), for the HTML page to draw; the JSON report holds none, so it keeps its
    size and bytes."""
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
        from benchie_cli.benchmarks.benchie.run import recorded_format

        recorded = recorded_format(input_format, [path])
        given = SuiteInput(
            root,
            path,
            data,
            shown,
            fmt,
            facts.sha256,
            recorded,
            cached,
            say=say,
            read_texts=lambda: bm.carb_texts(data, shown, fmt),
        )
        for name in BENCHMARKS:
            reason = absent(root, name)
            rows.extend(_skipped(name, reason) if reason else runner(name).rows(given))
            rows.extend(runner(name).other_rows(given))
        # Grouped by language, English first, each benchmark's rows in order within.
        rows.sort(key=lambda r: _LANGUAGE_ORDER.index(r.language))
        # Lines the readers skip (a slot empty or missing), as each benchmark's own command
        # says them: every reader of these formats skips the same lines.
        extractions = sum(len(xs) for xs in given.texts().values())
        notes.extend(bm.reading_notes(data, fmt, extractions))
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
        "schema": REPORT_SCHEMA,
        "benchie_version": __version__,
        "suite": True,
        "file": {"path": facts.path, "sha256": facts.sha256},
        # --input-format as score records it (auto when detection reads the file alike),
        # and the format it was read as.
        "input_format": recorded,
        "read_as": fmt,
        # (only when there is something to say: reports without it keep their bytes)
        **({"warnings": notes} if notes else {}),
        "rows": [_row_json(r, curves=curves) for r in rows],
    }


def _row_json(row: Row, *, curves: bool) -> dict[str, Any]:
    """A row of the report; with ``curves``, its metric's numbers also hold its curve."""
    out = row.as_json()
    if curves and row.curve is not None and isinstance(out.get(row.metric), dict):
        out[row.metric] = {**out[row.metric], "curve": row.curve.as_json()}
    return out


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
        language = r.get("language", "en")
        name = BENCHMARKS[r["benchmark"]].label + ("" if language == "en" else f" [{language}]")
        rows.append([name, label, r["split"], *cells, cover])
    return columns, rows


def _notes(report: dict[str, Any]) -> list[str]:
    notes = [
        f"{BENCHMARKS[r['benchmark']].label}"
        + (f" [{r['language']}]" if "language" in r else "")
        + f": {r['skipped']}"
        for r in report["rows"]
        if "skipped" in r
    ]
    return list(dict.fromkeys(notes))


_SENTENCES_NOTE = "sentences: gold sentences with output / gold sentences"


def _threshold_note(report: dict[str, Any]) -> list[str]:
    """A line when some row's curve has a single threshold (the file's extractions all have
    one confidence, or none): its AUC is not a ranking signal."""
    flagged = [
        r
        for r in report["rows"]
        if isinstance(r.get(r["metric"]), dict) and r[r["metric"]].get(SINGLE_THRESHOLD)
    ]
    if not flagged:
        return []
    return [
        "AUC: one confidence for every extraction (or none): each curve has a single "
        "threshold, so AUC is not a ranking signal"
    ]


def to_table(report: dict[str, Any]) -> str:
    """The suite as a table, what was skipped, then each row's signature."""
    columns, rows = _table_rows(report)
    lines = render([columns, *rows], [3, 4, 5, 6, 7])
    lines += [_SENTENCES_NOTE, *_threshold_note(report), ""]
    lines += [f"skipped: {n}" for n in _notes(report)]
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
    lines += ["", _SENTENCES_NOTE, *_threshold_note(report), ""]
    lines += [f"- skipped: {n}" for n in _notes(report)]
    lines += ["", *(f"`{r['signature']}`  " for r in report["rows"] if "signature" in r)]
    return "\n".join(lines) + "\n"


#: The keys of a one-system report that a report of several systems has once, at its top.
_TOP = ("schema", "benchie_version", "suite")


def with_name(report: dict[str, Any], name: str) -> dict[str, Any]:
    """A one-system report named ``name``: the ``name`` key only when it is not the file's
    stem (a report of ``score --suite FILE`` keeps its bytes)."""
    from benchie_cli.inputs.batch import system_name

    return report if name == system_name(report["file"]["path"]) else named(report, name)


def named(report: dict[str, Any], name: str) -> dict[str, Any]:
    """A one-system report with its ``name`` (after ``suite``)."""
    return {**{k: report[k] for k in _TOP}, "name": name, **part(report)}


def part(report: dict[str, Any]) -> dict[str, Any]:
    """What a one-system report says of its system (all but the keys of the top)."""
    return {k: v for k, v in report.items() if k not in (*_TOP, "name")}


def run_systems(
    systems: list[tuple[str, str]],
    input_format: str,
    root: GoldDirs,
    say: Callable[[str], None] = lambda _: None,
    *,
    cached: bool = True,
    curves: bool = False,
) -> dict[str, Any]:
    """The suite's report of several system outputs (``(name, path)``, each read once, in
    order): one system's is :func:`run`'s (named when its name is not its file's stem);
    several are ``systems``, each ``name`` then what :func:`run` reports of it. ``curves``:
    as :func:`run`."""
    reports = [
        (name, run(path, input_format, root, say, cached=cached, curves=curves))
        for name, path in systems
    ]
    if len(reports) == 1:
        return with_name(reports[0][1], reports[0][0])
    return {
        "schema": REPORT_SCHEMA,
        "benchie_version": __version__,
        "suite": True,
        "systems": [{"name": name, **part(report)} for name, report in reports],
    }
