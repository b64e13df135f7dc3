"""``benchie plot``: the precision-recall curves of the systems of one benchmark, read from
its JSON reports (docs/reports.md, "Curves"), drawn in one figure with matplotlib (the
``plot`` extra) as SVG, PDF or PNG.

The figure is sized for a paper's column (3.3 x 2.5 in), axes from 0 to 1, one colour and
one dash pattern per system, a legend, and axis titles. Its data are the report's points,
unchanged: no smoothing, no simplification of the path. An SVG is the same bytes for the
same reports (no date, fixed ids, text as text); each system's line has the id
``curve-N`` (N from 0, in legend order) and the plotting area's rectangle the id
``plot-area``, so that a reader can take the points back from the file.
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from benchie_cli.curves import read_json
from benchie_cli.errors import BenchieError, ExitCode
from benchie_cli.registry import BENCHMARKS, DEFAULT_BENCHMARK, DEFAULT_METRIC, METRICS
from benchie_cli.textio import display_name

#: The formats ``plot`` writes, by file suffix.
FORMATS = ("svg", "pdf", "png")
#: The figure's size in inches: one column of a two-column paper.
SIZE = (3.3, 2.5)
#: What to install when matplotlib is missing.
INSTALL = "pip install 'benchie-cli[plot]'"
#: The id of the SVG group of the plotting area's rectangle (the axes' background).
AREA_ID = "plot-area"
#: One style per system: colours of the Okabe-Ito palette (told apart with colour-blindness)
#: with a dash pattern each (told apart in black and white).
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
DASHES = ("-", "--", "-.", ":")


def curve_id(index: int) -> str:
    """The SVG id of the ``index``-th system's line."""
    return f"curve-{index}"


@dataclass(frozen=True, slots=True)
class Series:
    """One system's curve: its points in the report's order, those with a precision or a
    recall of null (a curve of nothing matched) left out."""

    name: str
    recall: tuple[float, ...]
    precision: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class Plot:
    """What one figure draws: the curves of one benchmark's systems under one metric."""

    benchmark: str
    metric: str
    series: tuple[Series, ...]


def read(path: str) -> dict[str, Any]:
    """A ``benchie score`` JSON report, refused (exit 2) if it is none."""
    from benchie_cli.report import load_json

    shown = display_name(path)
    report = load_json(path)[0]
    if (
        not isinstance(report, dict)
        or not isinstance(report.get("systems"), list)
        or not all(isinstance(s, dict) for s in report["systems"])
    ):
        raise BenchieError(
            "a report of score --suite, whose rows hold no curves: plot the reports of "
            "`benchie score --benchmark NAME`"
            if isinstance(report, dict) and "rows" in report
            else "not a `benchie score` JSON report",
            path=shown,
        )
    return report


def _identity(report: dict[str, Any]) -> tuple[str, str, str, tuple[str, ...]]:
    """What makes two reports' curves comparable: benchmark, split, language and the
    gold's files (by sha256)."""
    gold = report.get("gold") if isinstance(report.get("gold"), dict) else {}
    assert isinstance(gold, dict)
    files = gold.get("files") if isinstance(gold.get("files"), list) else []
    assert isinstance(files, list)
    return (
        str(report.get("benchmark", DEFAULT_BENCHMARK)),
        str(gold.get("split", "")),
        str(gold.get("language", "")),
        tuple(str(f.get("sha256")) for f in files if isinstance(f, dict)),
    )


def _described(identity: tuple[str, str, str, tuple[str, ...]]) -> str:
    benchmark, split, language, files = identity
    label = BENCHMARKS[benchmark].label if benchmark in BENCHMARKS else benchmark
    parts = [p for p in (split, language) if p]
    shas = ", ".join(s[:12] for s in files)
    return f"{label}" + (f" ({', '.join(parts)})" if parts else "") + f", gold {shas}"


def metrics_with_curves(report: dict[str, Any]) -> list[str]:
    """The metrics of ``report`` some system has a curve of, in the report's order."""
    chosen = str(report.get("metric", DEFAULT_METRIC)).split(",")
    return [
        m for m in chosen if any(_raw_curve(s, m, chosen) is not None for s in report["systems"])
    ]


def _raw_curve(system: dict[str, Any], metric: str, chosen: Sequence[str]) -> Any:
    """A system's curve under ``metric``: its metric object's ``curve``; or, for the first
    metric whose numbers are the system's own (BenchIE's, of a file with confidences), its
    ``confidence.curve`` points."""
    numbers = system.get(metric)
    if isinstance(numbers, dict):
        return numbers.get("curve")
    confidence = system.get("confidence")
    if numbers is None and metric == chosen[0] and isinstance(confidence, dict):
        points = confidence.get("curve")
        if isinstance(points, list) and all(isinstance(p, dict) for p in points):
            return {k: [p.get(k) for p in points] for k in ("threshold", "precision", "recall")}
    return None


def collect(reports: Sequence[tuple[str, dict[str, Any]]], metric: str | None = None) -> Plot:
    """The curves of the reports' systems (``reports``: each path and its report), refused
    (exit 2) when the reports are of different benchmarks or golds, when ``metric`` is not
    one they have curves of (default: the first report's first), or when no system has a
    curve."""
    first_path, first = reports[0]
    identity = _identity(first)
    for path, report in reports[1:]:
        other = _identity(report)
        if other != identity:
            raise BenchieError(
                f"is a report of {_described(other)}, {display_name(first_path)} of "
                f"{_described(identity)}: plot the reports of one benchmark and gold together",
                path=display_name(path),
            )
    available = metrics_with_curves(first)
    if metric is None:
        if not available:
            raise BenchieError(
                "no system has a precision-recall curve: only reports of a metric with a "
                "curve (" + ", ".join(m.label for m in METRICS.values() if m.curve_file) + ", or "
                "BenchIE's of a file with confidences) have one",
                path=display_name(first_path),
            )
        metric = available[0]
    series: list[Series] = []
    for path, report in reports:
        chosen = str(report.get("metric", DEFAULT_METRIC)).split(",")
        if metric not in chosen:
            raise BenchieError(
                f"has no {metric} numbers (its metric: {','.join(chosen)})",
                path=display_name(path),
            )
        for system in report["systems"]:
            raw = _raw_curve(system, metric, chosen)
            if raw is None:
                continue
            try:
                _, precision, recall = read_json(raw)
            except ValueError as exc:
                raise BenchieError(
                    f"system {str(system.get('name'))!r}: {exc}", path=display_name(path)
                ) from None
            kept = [
                (r, p)
                for r, p in zip(recall, precision, strict=True)
                if r is not None and p is not None and math.isfinite(r) and math.isfinite(p)
            ]
            series.append(
                Series(
                    str(system.get("name")),
                    tuple(r for r, _ in kept),
                    tuple(p for _, p in kept),
                )
            )
    if not series:
        raise BenchieError(
            f"no system of the reports has a {metric} curve", path=display_name(first_path)
        )
    return Plot(identity[0], metric, tuple(series))


def format_of(output: str, fmt: str | None) -> str:
    """The format asked for, or the one the output's suffix names."""
    if fmt is not None:
        return fmt
    suffix = os.path.splitext(output)[1].lower().lstrip(".")
    if suffix not in FORMATS:
        raise BenchieError(
            f"cannot tell the figure's format from its name: give a file ending in "
            f"{', '.join('.' + f for f in FORMATS)}, or --format",
            path=output,
        )
    return suffix


def check_matplotlib() -> None:
    """Refuse (exit 2) to plot without matplotlib, before any report is read."""
    _matplotlib()


def _matplotlib() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise BenchieError(
            f"benchie plot draws with matplotlib, which is not installed: {INSTALL}",
            exit_code=ExitCode.USAGE,
        ) from None
    return matplotlib


def render(plot: Plot, fmt: str) -> bytes:
    """The figure's bytes in ``fmt`` (svg, pdf, png)."""
    matplotlib = _matplotlib()
    from matplotlib.figure import Figure

    settings = {
        "svg.hashsalt": "benchie",  # the ids of clip paths: fixed, not random
        "svg.fonttype": "none",  # text as text: no glyphs, whose ids vary
        "path.simplify": False,  # every point of the report is drawn
        "font.size": 7,
        "axes.linewidth": 0.6,
        "lines.linewidth": 1.0,
    }
    metadata: dict[str, Any] = {
        "svg": {"Date": None, "Creator": None},
        "pdf": {"CreationDate": None, "ModDate": None, "Creator": None, "Producer": None},
        "png": {"Software": None},
    }[fmt]
    # matplotlib's defaults, then ours: never the user's matplotlibrc (a style, a sketch
    # filter or usetex there would change the figure, its bytes or even its points)
    defaults = {k: v for k, v in matplotlib.rcParamsDefault.items() if k != "backend"}
    with matplotlib.rc_context({**defaults, **settings}):
        figure = Figure(figsize=SIZE, layout="constrained")
        axes = figure.add_subplot()
        axes.patch.set_gid(AREA_ID)
        lines = []
        for n, series in enumerate(plot.series):
            (line,) = axes.plot(
                series.recall,
                series.precision,
                color=COLOURS[n % len(COLOURS)],
                linestyle=DASHES[(n // len(COLOURS) + n) % len(DASHES)],
            )
            line.set_gid(curve_id(n))
            lines.append(line)
        axes.set_xlim(0.0, 1.0)
        axes.set_ylim(0.0, 1.0)
        axes.set_xlabel("Recall")
        axes.set_ylabel("Precision")
        label = METRICS[plot.metric].label if plot.metric in METRICS else plot.metric
        # Names as plain text: a `$` is escaped (matplotlib would typeset it as maths),
        # and labels given with their lines (one starting with `_` would be dropped).
        names = [s.name.replace("$", r"\$") for s in plot.series]
        axes.legend(
            lines, names, title=label, loc="upper right", fontsize=6, title_fontsize=6,
            frameon=False,
        )  # fmt: skip
        out = io.BytesIO()
        figure.savefig(out, format=fmt, metadata=metadata, dpi=300)
    return out.getvalue()
