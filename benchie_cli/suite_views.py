"""The suite of several systems as one table (docs/suite.md): systems as rows, a column per
benchmark row of the suite (BenchIE's facets, CaRB's metrics, each added benchmark, each
language) and measure, in table, markdown, LaTeX, CSV and HTML.

The columns are the rows of the reports themselves, in their order: a benchmark the
registry adds is a column with no code here. A column no system has numbers for (the
benchmark is not in the store) is left out and said under the table. The best value of a
column, as shown (four decimals), is marked when two systems or more have a value.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass
from html import escape
from typing import Any

from benchie_cli.inputs.batch import system_name
from benchie_cli.registry import BENCHMARKS, METRICS
from benchie_cli.tables import render

#: The measures a column may show, in their order, and their headers.
MEASURES = {"precision": "P", "recall": "R", "f1": "F1", "auc": "AUC"}
#: Shown by default: F1, and AUC where the benchmark's numbers have one.
DEFAULT_MEASURES = ("f1", "auc")
#: What a cell without a number shows.
MISSING = "-"
#: The decimals every value is shown with (and the best of a column judged on).
DECIMALS = 4


@dataclass(frozen=True, slots=True)
class Column:
    """One benchmark row of the suite: the systems' numbers under it, by measure."""

    key: tuple[str, str, str, str, str]  # benchmark, metric, facet, split, language
    label: str
    measures: tuple[str, ...]
    signatures: tuple[str, ...]


def systems_of(report: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Each system of a suite report and its part (``file``, ``rows``...): a report of
    one system is its own part, named by ``name`` or its file's stem."""
    if "systems" in report:
        return [(s["name"], s) for s in report["systems"]]
    return [(report.get("name") or system_name(report["file"]["path"]), report)]


def _key(row: dict[str, Any]) -> tuple[str, str, str, str, str]:
    return (
        row["benchmark"],
        row["metric"],
        row.get("facet", ""),
        row["split"],
        row.get("language", "en"),
    )


def _numbers(row: dict[str, Any]) -> dict[str, Any] | None:
    numbers = row.get(row["metric"])
    return numbers if "skipped" not in row and isinstance(numbers, dict) else None


def _merged_keys(systems: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, ...]]:
    """Every row key of every system, each system's in its order: a key one system lacks
    goes after the key that precedes it in the system that has it."""
    keys: list[tuple[str, ...]] = []
    for _, part in systems:
        after = -1
        for row in part["rows"]:
            key = _key(row)
            if key in keys:
                after = keys.index(key)
            else:
                keys.insert(after + 1, key)
                after += 1
    return keys


def columns(report: dict[str, Any], measures: tuple[str, ...] = DEFAULT_MEASURES) -> list[Column]:
    """The table's columns: each row key some system has numbers for, with the measures
    asked for that its numbers have."""
    systems = systems_of(report)
    by_key: dict[tuple[str, ...], list[dict[str, Any]]] = {}
    for _, part in systems:
        for row in part["rows"]:
            by_key.setdefault(_key(row), []).append(row)
    keys = _merged_keys(systems)
    # A split is named only where one benchmark row is there with several splits.
    splits: dict[tuple[str, ...], set[str]] = {}
    for k in keys:
        splits.setdefault((k[0], k[1], k[2], k[4]), set()).add(k[3])
    out = []
    for k in keys:
        rows = by_key[k]
        scored = [n for n in (_numbers(r) for r in rows) if n is not None]
        if not scored:
            continue
        benchmark, metric, facet, split, language = k
        label = METRICS[metric].label + (f" ({facet})" if facet else "")
        if len(splits[(benchmark, metric, facet, language)]) > 1:
            label += f" {split}"
        label += "" if language == "en" else f" [{language}]"
        has = tuple(m for m in measures if any(m in n for n in scored))
        signatures = tuple(dict.fromkeys(r["signature"] for r in rows if "signature" in r))
        out.append(Column((benchmark, metric, facet, split, language), label, has, signatures))
    return out


def value(part: dict[str, Any], column: Column, measure: str) -> float | None:
    """A system's number of a column (None: no row, skipped, or not a number)."""
    for row in part["rows"]:
        if _key(row) == column.key:
            numbers = _numbers(row)
            v = (numbers or {}).get(measure)
            if isinstance(v, float | int) and not isinstance(v, bool) and not math.isnan(v):
                return float(v)
            return None
    return None


def _rounded(v: float | None) -> float | None:
    return None if v is None else round(v, DECIMALS)


def _shown(v: float | None) -> str:
    return MISSING if v is None else f"{v:.{DECIMALS}f}"


@dataclass(frozen=True, slots=True)
class Grid:
    """The table's content: names, columns, each system's shown values, and which cells
    are their column's best."""

    names: list[str]
    columns: list[Column]
    cells: list[list[str]]  # a row per system, a cell per (column, measure)
    best: list[list[bool]]
    notes: list[str]
    signatures: list[str]

    @property
    def headers(self) -> list[tuple[Column, str]]:
        return [(c, m) for c in self.columns for m in c.measures]


def grid(report: dict[str, Any], measures: tuple[str, ...] = DEFAULT_MEASURES) -> Grid:
    """The table of a suite report, with the notes and signatures said under it."""
    systems = systems_of(report)
    cols = columns(report, measures)
    pairs = [(c, m) for c in cols for m in c.measures]
    values = [[value(part, c, m) for c, m in pairs] for _, part in systems]
    cells = [[_shown(v) for v in row] for row in values]
    best = [[False] * len(pairs) for _ in systems]
    for j in range(len(pairs)):
        shown = [_rounded(row[j]) for row in values]
        present = [v for v in shown if v is not None]
        if len(present) < 2:
            continue
        top = max(present)
        for i, v in enumerate(shown):
            best[i][j] = v == top
    return Grid(
        [n for n, _ in systems],
        cols,
        cells,
        best,
        _notes(systems, cols),
        [s for c in cols for s in c.signatures],
    )


def _notes(systems: list[tuple[str, dict[str, Any]]], cols: list[Column]) -> list[str]:
    """What was skipped (a benchmark for every system, or one system's row) and where AUC
    is not a ranking signal, each said once."""
    from benchie_cli.benchmarks.runner import SINGLE_THRESHOLD

    shown = {c.key for c in cols}
    several = len(systems) > 1
    notes: list[str] = []
    for name, part in systems:
        for row in part["rows"]:
            where = BENCHMARKS[row["benchmark"]].label + (
                f" [{row['language']}]" if "language" in row else ""
            )
            if "skipped" in row:
                who = f"{name}: " if several and _key(row) in shown else ""
                notes.append(f"skipped: {who}{where}: {row['skipped']}")
            numbers = _numbers(row)
            if numbers is not None and numbers.get(SINGLE_THRESHOLD):
                notes.append(
                    f"AUC of {name}: one confidence for every extraction (or none): each curve "
                    "has a single threshold, so AUC is not a ranking signal"
                )
    return list(dict.fromkeys(notes))


def _header(column: Column, measure: str) -> str:
    return f"{column.label} {MEASURES[measure]}"


BEST_NOTE = "*: the best of its column (as shown)"


def to_table(report: dict[str, Any], measures: tuple[str, ...] = DEFAULT_MEASURES) -> str:
    """Fixed-width text: a system per row, the best of each column marked ``*``."""
    g = grid(report, measures)
    header = ["system", *(_header(c, m) for c, m in g.headers)]
    rows = [
        [name, *(cell + ("*" if b else " ") for cell, b in zip(cells, best, strict=True))]
        for name, cells, best in zip(g.names, g.cells, g.best, strict=True)
    ]
    lines = render([header, *rows], range(1, len(header)))
    lines += ["", BEST_NOTE, *g.notes, *g.signatures]
    return "\n".join(lines) + "\n"


#: What markdown reads as markup inside a table's cell, and how each is written so that a
#: name shows as typed: after a backslash (``a|b`` does not split its cell, a backtick opens
#: no code span, ``[x](y)`` is no link), or as an HTML entity where a renderer may not take
#: the backslash (``<script>`` is no tag, ``&lt;`` no entity, ``~~`` no strikethrough).
#: What is markup at a line's start only (``#``, ``-``) cannot be: a cell follows ``| ``.
_MARKDOWN_ESCAPES = {
    **{ch: "\\" + ch for ch in "\\`*_|[]"},
    "<": "&lt;",
    ">": "&gt;",
    "&": "&amp;",
    "~": "&#126;",
}


def _md(text: str) -> str:
    """Text as a markdown table's cell shows it: every markup character escaped, line
    breaks (which would end the row) as spaces."""
    return "".join(_MARKDOWN_ESCAPES.get(ch, ch) for ch in " ".join(text.splitlines()))


def to_markdown(report: dict[str, Any], measures: tuple[str, ...] = DEFAULT_MEASURES) -> str:
    """A markdown table, the best of each column in bold, then notes and signatures."""
    g = grid(report, measures)
    header = ["system", *(_header(c, m) for c, m in g.headers)]
    lines = [
        "| " + " | ".join(_md(h) for h in header) + " |",
        "|---|" + "---:|" * (len(header) - 1),
    ]
    for name, cells, best in zip(g.names, g.cells, g.best, strict=True):
        shown = [f"**{c}**" if b else c for c, b in zip(cells, best, strict=True)]
        lines.append("| " + " | ".join([_md(name), *shown]) + " |")
    lines += ["", "Bold: the best of its column (as shown).", ""]
    lines += [f"- {_md(n)}" for n in g.notes]
    lines += ["", *(f"`{s}`  " for s in g.signatures)]
    return "\n".join(lines) + "\n"


_LATEX_SPECIAL = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "\\": r"\textbackslash{}",
    # (in OT1, the default font encoding, these print as ¡, ¿ and an em dash)
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
}


def latex_escape(text: str) -> str:
    """Text as LaTeX typesets it: every special character escaped, and ``< > |``, which the
    default font encoding (OT1) prints as other glyphs; a cell that starts with ``[`` is
    guarded (after ``\\\\`` it would be read as a length)."""
    out = "".join(_LATEX_SPECIAL.get(ch, ch) for ch in text)
    return "{}" + out if out.startswith("[") else out


def _comment(text: str) -> str:
    return "% " + " ".join(text.split())


def to_latex(report: dict[str, Any], measures: tuple[str, ...] = DEFAULT_MEASURES) -> str:
    """A booktabs ``tabular`` to ``\\input`` (needs ``\\usepackage{booktabs}``): a header
    row of benchmarks over one of measures, a system per row, the best of each column in
    ``\\textbf``, plain numbers; notes and signatures as comments under it."""
    g = grid(report, measures)
    spec = "l" + "".join("r" * len(c.measures) for c in g.columns)
    top = ["System" if not g.columns else ""]
    rules = []
    start = 2
    for c in g.columns:
        n = len(c.measures)
        top.append(rf"\multicolumn{{{n}}}{{c}}{{{latex_escape(c.label)}}}")
        rules.append(rf"\cmidrule(lr){{{start}-{start + n - 1}}}")
        start += n
    second = ["System", *(MEASURES[m] for _, m in g.headers)]
    lines = [
        "% benchie score --suite: needs \\usepackage{booktabs}",
        rf"\begin{{tabular}}{{{spec}}}",
        r"\toprule",
    ]
    if g.columns:
        lines += [" & ".join(top) + r" \\", " ".join(rules), " & ".join(second) + r" \\"]
    else:
        lines.append(r"System \\")
    lines.append(r"\midrule")
    for name, cells, best in zip(g.names, g.cells, g.best, strict=True):
        shown = [
            (rf"\textbf{{{c}}}" if b else c) if c != MISSING else "--"
            for c, b in zip(cells, best, strict=True)
        ]
        lines.append(" & ".join([latex_escape(name), *shown]) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    if len(g.names) > 1:
        lines.append(_comment("bold: the best of its column (as shown)"))
    lines += [_comment(n) for n in g.notes]
    lines += [_comment(s) for s in g.signatures]
    return "\n".join(lines) + "\n"


def csv_header(report: dict[str, Any]) -> list[str]:
    return ["system", *(_header(c, m) for c, m in grid(report, tuple(MEASURES)).headers)]


#: What a spreadsheet reads as a formula at the start of a cell (OWASP's CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_text(text: str) -> str:
    """A name as a CSV cell: one a spreadsheet would run as a formula is written after
    ``'`` (OWASP's rule), so opening the file runs nothing."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def to_csv(report: dict[str, Any]) -> str:
    """A row per system, a column per benchmark row and measure (P, R, F1, AUC where it
    has one), numbers in full precision (``repr``: they read back as the JSON's); an empty
    cell where there is no number; a system's name guarded by :func:`csv_text`."""
    systems = systems_of(report)
    cols = columns(report, tuple(MEASURES))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["system", *(_header(c, m) for c in cols for m in c.measures)])
    for name, part in systems:
        values = [value(part, c, m) for c in cols for m in c.measures]
        writer.writerow([csv_text(name), *("" if v is None else repr(v) for v in values)])
    return out.getvalue()


#: Dash patterns (in pixels), cycled beside the palette's colours: their counts (5 and 8)
#: are coprime, so the first 40 systems each have a style of their own and two systems next
#: to each other differ in both colour and dash (a page printed in grey stays readable).
DASHES = ("", "7 3", "2 2", "9 3 2 3", "4 2 1 2")
#: A curve figure's square plot: its side and its top-left corner, in pixels; precision
#: and recall both run from 0 to 1 on it.
PLOT_SIDE = 320
PLOT_LEFT = 64
PLOT_TOP = 16
#: The legend, right of the plot: where it starts, one system per row, and the characters
#: of a label that fit before the figure's edge (the whole name in its tooltip).
LEGEND_LEFT = PLOT_LEFT + PLOT_SIDE + 28
LEGEND_ROW = 18
LEGEND_CHARS = 50


def style_of(n: int) -> tuple[str, str]:
    """The colour and the dash pattern of the ``n``-th system's curve."""
    from benchie_cli.analysis.views import PALETTE

    return PALETTE[n % len(PALETTE)], DASHES[n % len(DASHES)]


def curve_points(curve: object) -> list[tuple[float, float]]:
    """A report's ``curve`` object as the page draws it: (recall, precision) in the
    scorer's order, a point without a number (a NaN recall) left out, and a point equal to
    the one before it once (the line through both is the same)."""
    from benchie_cli.curves import read_json

    _, precision, recall = read_json(curve)
    points: list[tuple[float, float]] = []
    for r, p in zip(recall, precision, strict=True):
        if r is not None and p is not None and (not points or points[-1] != (r, p)):
            points.append((r, p))
    return points


def _number(value: float) -> str:
    """A coordinate as the page writes it: ``repr``, so it reads back as the same float."""
    return repr(value)


def _dash(pattern: str, scale: float) -> str:
    """A dash pattern in pixels as the plot's data units draw it (``stroke-dasharray``)."""
    if not pattern:
        return ""
    units = " ".join(f"{float(d) / scale:.6g}" for d in pattern.split())
    return f' stroke-dasharray="{units}"'


def curves_figure(
    chart_id: str, title: str, curves: list[tuple[str, float | None, list[tuple[float, float]]]]
) -> str:
    """Precision over recall, one line per system through its curve's points (``(name, AUC,
    points)``; a system of no point is in the legend only), in its own colour and dash.

    The lines are drawn in the data's own units (a group scaled to the plot, y flipped), so
    each point is written as the report's numbers (``repr``) and reads back exactly; a curve
    of one point is drawn as a dot."""
    from benchie_cli.analysis.views import svg_figure, truncate

    side, left, top = PLOT_SIDE, PLOT_LEFT, PLOT_TOP
    bottom = top + side
    height = max(bottom + 44, top + LEGEND_ROW * len(curves) + 8)
    body: list[str] = []
    for k in range(6):  # grid lines and ticks every 0.2 of both axes
        v = k / 5
        x, y = left + v * side, bottom - v * side
        body.append(
            f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{bottom}" class="grid"/>'
            f'<text x="{x:.1f}" y="{bottom + 14}" class="small" text-anchor="middle">{v:.1f}</text>'
            f'<line x1="{left}" y1="{y:.1f}" x2="{left + side}" y2="{y:.1f}" class="grid"/>'
            f'<text x="{left - 6}" y="{y + 4:.1f}" class="small" text-anchor="end">{v:.1f}</text>'
        )
    middle_x, middle_y = left + side / 2, top + side / 2
    body.append(
        f'<text class="axis-title" data-axis="x" x="{middle_x:.0f}" y="{bottom + 32}" '
        'text-anchor="middle">recall</text>'
        f'<text class="axis-title" data-axis="y" x="{left - 36}" y="{middle_y:.0f}" '
        f'text-anchor="middle" transform="rotate(-90 {left - 36} {middle_y:.0f})">precision</text>'
    )
    width = f"{1.75 / side:.6g}"
    lines = [f'<g class="curves" transform="matrix({side} 0 0 -{side} {left} {bottom})">']
    legend = []
    for n, (name, auc, points) in enumerate(curves):
        colour, pattern = style_of(n)
        label = name + ("" if auc is None else f" (AUC {auc:.4f})")
        tip = f"<title>{escape(label)}</title>"
        if len(points) == 1:
            r, p = points[0]
            lines.append(
                f'<circle class="pr" data-system="{escape(name)}" cx="{_number(r)}" '
                f'cy="{_number(p)}" r="{3.5 / side:.6g}" fill="{colour}">{tip}</circle>'
            )
        elif points:
            coordinates = " ".join(f"{_number(r)},{_number(p)}" for r, p in points)
            lines.append(
                f'<polyline class="pr" data-system="{escape(name)}" points="{coordinates}" '
                f'fill="none" stroke="{colour}" stroke-width="{width}"'
                f"{_dash(pattern, side)}>{tip}</polyline>"
            )
        y = top + 10 + n * LEGEND_ROW
        dash = f' stroke-dasharray="{pattern}"' if pattern else ""
        shown = truncate(label, LEGEND_CHARS)
        legend.append(
            f'<line x1="{LEGEND_LEFT}" y1="{y - 4}" x2="{LEGEND_LEFT + 28}" y2="{y - 4}" '
            f'stroke="{colour}" stroke-width="1.75"{dash}/>'
            f'<text x="{LEGEND_LEFT + 34}" y="{y}" class="name">{escape(shown)}'
            + (f"<title>{escape(label)}</title>" if shown != label else "")
            + "</text>"
        )
    return svg_figure(chart_id, title, height, [*body, *lines, "</g>", *legend])


def curves_html(report: dict[str, Any]) -> str:
    """A figure per column whose rows hold a precision-recall curve (``suite.run(...,
    curves=True)``), every system's curve on it; nothing when no row holds one."""
    systems = systems_of(report)
    figures = []
    for j, column in enumerate(columns(report, tuple(MEASURES))):
        curves = []
        for name, part in systems:
            row = next((r for r in part["rows"] if _key(r) == column.key), None)
            numbers = _numbers(row) if row is not None else None
            if numbers is None or "curve" not in numbers:
                continue
            curves.append((name, value(part, column, "auc"), curve_points(numbers["curve"])))
        if any(points for _, _, points in curves):
            title = f"{column.label}: precision-recall curve" + ("s" if len(curves) > 1 else "")
            figures.append(curves_figure(f"curves-{j}", title, curves))
    if not figures:
        return ""
    return (
        "<h2>Precision-recall curves</h2><p class='note'>Each system's curve as its "
        "benchmark's scorer computes it, its points joined by straight lines; the legend "
        "gives its AUC.</p>" + "".join(figures)
    )


def to_html(report: dict[str, Any], measures: tuple[str, ...] = DEFAULT_MEASURES) -> str:
    """One self-contained page: the table, the best of each column in bold, the notes, a
    figure of every system's precision-recall curve per benchmark row that has one (when
    the report holds curves) and each benchmark's signature (the style sheet is the
    analysis page's)."""
    from benchie_cli.analysis.views import STYLE, Html, html_table

    g = grid(report, measures)
    header = ["system", *(_header(c, m) for c, m in g.headers)]
    rows = [
        [
            name,
            *(
                Html(f"<strong>{escape(c)}</strong>") if b else c
                for c, b in zip(cells, best, strict=True)
            ),
        ]
        for name, cells, best in zip(g.names, g.cells, g.best, strict=True)
    ]
    notes = "".join(f"<p class='note'>{escape(n)}</p>" for n in g.notes)
    signatures = "".join(f"<li><code>{escape(s)}</code></li>" for s in g.signatures)
    best = "<p class='note'>Bold: the best of its column (as shown).</p>" if len(rows) > 1 else ""
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>BenchIE suite: {escape(', '.join(g.names))}</title>"
        f"<style>{STYLE}</style></head><body>"
        "<h1>Every benchmark, every system</h1>"
        + html_table("suite", header, rows)
        + best
        + notes
        + curves_html(report)
        + f"<h2>Signatures</h2><ul>{signatures}</ul>"
        + "</body></html>\n"
    )


#: The formats of ``score --suite``, and what ``-o`` picks by its extension (compared
#: case-insensitively; ``.json``, no extension and ``-``: json; any other is refused).
FORMATS = ("table", "markdown", "latex", "csv", "html", "json")


def format_of(output: str) -> str:
    """The format ``-o FILE`` writes when ``--format`` is not given: by its extension. An
    extension of no suite format (``.svg``, ``.latex``, ``.pdf``) is refused rather than
    written as JSON under that name: the user meant another format, or another file."""
    from benchie_cli.outputs import EXTENSIONS, format_of_name

    return format_of_name(output, EXTENSIONS, command="--suite")


def render_as(
    report: dict[str, Any], fmt: str, measures: tuple[str, ...] = DEFAULT_MEASURES
) -> bytes:
    """A suite report in one of :data:`FORMATS`: one system's table and markdown are a row
    per benchmark (``suite.to_table``), every other table a row per system."""
    from benchie_cli import suite
    from benchie_cli.report import to_json

    several = "systems" in report
    return {
        "json": lambda: to_json(report),
        "table": lambda: (
            to_table(report, measures) if several else suite.to_table(report)
        ).encode(),
        "markdown": lambda: (
            to_markdown(report, measures) if several else suite.to_markdown(report)
        ).encode(),
        "latex": lambda: to_latex(report, measures).encode(),
        "csv": lambda: to_csv(report).encode(),
        "html": lambda: to_html(report, measures).encode(),
    }[fmt]()
