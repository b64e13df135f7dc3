"""``benchie plot``: the precision-recall curves of the systems of one benchmark, read from
its JSON reports (docs/reports.md, "Curves"), drawn in one figure with matplotlib (the
``plot`` extra) as SVG, PDF or PNG.

The figure is sized for a paper's column (3.3 x 2.5 in), axes from 0 to 1, one style
(colour, dash pattern, marker) per system, a legend, and axis titles. Its data are the
report's points, unchanged: no smoothing, no simplification of the path. An SVG is the
same bytes for the same reports (no date, fixed ids, text as text); each system's line has
the id ``curve-N`` (N from 0, in legend order) and the plotting area's rectangle the id
``plot-area``, so that a reader can take the points back from the file.
"""

from __future__ import annotations

import io
import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from benchie_cli.curves import read_json
from benchie_cli.errors import BenchieError, ExitCode, printable_path
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
#: with a dash pattern each (told apart in black and white), and from the eighth system on a
#: marker too (:func:`style`).
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
DASHES = ("-", "--", "-.", ":")
#: The marker of each block of ``len(COLOURS)`` systems: none for the first seven (their
#: colour and dash already differ), then one shape per block.
MARKERS = ("", "o", "s", "^", "v", "D", "x", "+")
#: Where markers go along a line: every tenth of its length on the figure (a curve has up
#: to thousands of points, a marker on each would hide the line).
MARK_EVERY = 0.1
#: A character no XML 1.0 document may hold (an SVG is one), or one that draws nothing:
#: what is left after :func:`~benchie_cli.errors.printable_path` (C1 controls, U+FFFE,
#: U+FFFF).
_NOT_DRAWABLE = re.compile("[^\t\n\r\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def curve_id(index: int) -> str:
    """The SVG id of the ``index``-th system's line."""
    return f"curve-{index}"


def style(index: int) -> tuple[str, str, str]:
    """The ``index``-th system's (colour, dash pattern, marker): distinct for the first
    ``len(COLOURS) * len(MARKERS)`` (56) systems, so that a figure of many systems never
    draws two alike; the first seven keep the styles of figures drawn before markers were
    added. Deterministic: a figure's bytes depend on its reports only."""
    block, colour = divmod(index, len(COLOURS))
    return (
        COLOURS[colour],
        DASHES[(block + index) % len(DASHES)],
        MARKERS[block % len(MARKERS)],
    )


def drawn_name(name: str) -> str:
    """A system's name as the legend draws it: control characters escaped visibly as
    ``printable_path`` does everywhere else (``\\x01``), and any character an XML 1.0
    document cannot hold as U+FFFD. A hand-edited report may hold anything JSON can, and
    matplotlib writes a name into the SVG as it is: one control character made the whole
    figure unreadable XML. A ``$`` is escaped: matplotlib would typeset it as maths."""
    return _NOT_DRAWABLE.sub("\ufffd", printable_path(name)).replace("$", r"\$")


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
    #: The systems left out, each said as a warning.
    omitted: tuple[Omitted, ...] = ()


def read(path: str) -> dict[str, Any]:
    """A ``benchie score`` JSON report, refused (exit 2) if it is none."""
    from benchie_cli.report import load_json

    shown = display_name(path)
    report = load_json(path, "plot")[0]
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


@dataclass(frozen=True, slots=True)
class Omitted:
    """A system of a report that the figure does not draw, and why: said as a warning, so
    that a figure for a paper never lacks a system without its author being told."""

    report: str
    name: str
    why: str

    def __str__(self) -> str:
        return f"{self.report}: warning: system {brief_name(self.name)} not drawn: {self.why}"


def brief_name(name: str) -> str:
    """A system's name quoted for a message on one line (control characters escaped)."""
    return repr(printable_path(name))


def _check_one_benchmark(reports: Sequence[tuple[str, dict[str, Any]]]) -> None:
    """Refuse (exit 2) reports of different benchmarks, splits, languages or golds, naming
    which report is of which: one figure draws one benchmark's metric, whose curves are
    comparable only on one gold."""
    groups: dict[tuple[str, str, str, tuple[str, ...]], list[str]] = {}
    for path, report in reports:
        groups.setdefault(_identity(report), []).append(display_name(path))
    if len(groups) == 1:
        return
    said = "; ".join(
        f"{', '.join(paths)} {'is' if len(paths) == 1 else 'are'} of {_described(identity)}"
        for identity, paths in groups.items()
    )
    raise BenchieError(
        f"the reports are of different benchmarks or golds: {said}. One figure draws one "
        "benchmark's metric on one gold: plot each benchmark's reports in a figure of its own"
    )


def collect(reports: Sequence[tuple[str, dict[str, Any]]], metric: str | None = None) -> Plot:
    """The curves of the reports' systems (``reports``: each path and its report), refused
    (exit 2) when the reports are of different benchmarks or golds, when ``metric`` is not
    one they all have (default: the first report's first with a curve), or when no system
    has a curve with a point to draw. A system without one is left out and named in
    ``Plot.omitted``."""
    _check_one_benchmark(reports)
    shown = [display_name(path) for path, _ in reports]
    if metric is None:
        metric = next((m for _, r in reports for m in metrics_with_curves(r)), None)
        if metric is None:
            raise BenchieError(
                f"no precision-recall curve to draw in {', '.join(shown)}: no system has "
                "one. Only reports of a metric with a curve ("
                + ", ".join(m.label for m in METRICS.values() if m.curve_file)
                + ", or BenchIE's of a file with confidences) have one; no figure written"
            )
    lacking = [
        (path, chosen)
        for path, chosen in (
            (display_name(p), str(r.get("metric", DEFAULT_METRIC)).split(",")) for p, r in reports
        )
        if metric not in chosen
    ]
    if lacking:
        said = "; ".join(f"{path} has {','.join(chosen)}" for path, chosen in lacking)
        raise BenchieError(
            f"{metric} is not a metric of every report ({said}). One figure draws one "
            "metric: plot the reports that have it, or choose another with --metric"
        )
    series: list[Series] = []
    omitted: list[Omitted] = []
    for path, report in reports:
        chosen = str(report.get("metric", DEFAULT_METRIC)).split(",")
        for system in report["systems"]:
            name = str(system.get("name"))
            raw = _raw_curve(system, metric, chosen)
            if raw is None:
                omitted.append(Omitted(display_name(path), name, f"it has no {metric} curve"))
                continue
            try:
                _, precision, recall = read_json(raw)
            except ValueError as exc:
                raise BenchieError(
                    f"system {brief_name(name)}: {exc}", path=display_name(path)
                ) from None
            kept = [
                (r, p)
                for r, p in zip(recall, precision, strict=True)
                if r is not None and p is not None and math.isfinite(r) and math.isfinite(p)
            ]
            if not kept:
                why = (
                    "its curve has no point"
                    if not recall
                    else "no point of its curve has both a precision and a recall"
                )
                omitted.append(Omitted(display_name(path), name, why))
                continue
            series.append(Series(name, tuple(r for r, _ in kept), tuple(p for _, p in kept)))
    if not series:
        raise BenchieError(
            f"no {metric} curve with a point to draw in {', '.join(shown)}: none of its "
            f"{len(omitted)} system(s) has one (a curve absent, empty, or without a point of "
            "both a precision and a recall); no figure written"
        )
    return Plot(_identity(reports[0][1])[0], metric, tuple(series), tuple(omitted))


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
            colour, dashes, marker = style(n)
            (line,) = axes.plot(
                series.recall,
                series.precision,
                color=colour,
                linestyle=dashes,
            )
            if marker:
                line.set_marker(marker)
                line.set_markevery(MARK_EVERY)
                line.set_markersize(3)
            line.set_gid(curve_id(n))
            lines.append(line)
        axes.set_xlim(0.0, 1.0)
        axes.set_ylim(0.0, 1.0)
        axes.set_xlabel("Recall")
        axes.set_ylabel("Precision")
        label = drawn_name(METRICS[plot.metric].label if plot.metric in METRICS else plot.metric)
        # Names as plain text (drawn_name), and labels given with their lines (one starting
        # with `_` would be dropped).
        names = [drawn_name(s.name) for s in plot.series]
        axes.legend(
            lines, names, title=label, loc="upper right", fontsize=6, title_fontsize=6,
            frameon=False,
        )  # fmt: skip
        out = io.BytesIO()
        figure.savefig(out, format=fmt, metadata=metadata, dpi=300)
    return out.getvalue()
