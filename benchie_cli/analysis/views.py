"""Views of an analysis document: a text summary for the terminal and a self-contained HTML
page (inline SVG charts, no script, no network) to share or attach to a paper's review.

Both are made from the JSON document alone, so they show exactly what it records.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from benchie_cli.analysis.buckets import LENGTH_BUCKETING
from benchie_cli.analysis.slot_errors import SLOTS
from benchie_cli.registry import FACETS
from benchie_cli.tables import render

FACET_LABELS = {name: facet.label for name, facet in FACETS.items()}
#: p-values below this are marked "*" (and bold on the page); the footnote names the test.
SIGNIFICANCE_LEVEL = 0.05
PALETTE = ("#4269d0", "#efb118", "#ff725c", "#6cc5b0", "#3ca951", "#ff8ab7", "#a463f2", "#97bbf5")


def _by_f1(report: dict[str, Any]) -> list[dict[str, Any]]:
    return sorted(report["systems"], key=lambda s: (-s["default"]["f1"], s["name"]))


def _f(x: float) -> str:
    return f"{x:.4f}"


def _p_text(p: float) -> str:
    """A p-value to four decimals, or to as many as it takes for the text to stay on its
    side of SIGNIFICANCE_LEVEL (50/1001 is "0.04995", not a marked "0.0500")."""
    text = f"{p:.4f}"
    if (float(text) < SIGNIFICANCE_LEVEL) != (p < SIGNIFICANCE_LEVEL):
        text = f"{p:.6g}"
    return text


def _ci(s: dict[str, Any], key: str) -> str:
    low, high = s["default"]["ci95"][key]
    return f"{s['default'][key]:.4f} [{low:.4f}, {high:.4f}]"


# --------------------------------------------------------------------------- text


def to_text(report: dict[str, Any]) -> str:
    systems = _by_f1(report)
    out = [
        f"Leaderboard, default facet, 95% bootstrap intervals ({report['options']['resamples']} resamples)",
        "",
    ]
    rows = [["system", "P", "R", "F1"]]
    rows += [[s["name"], _ci(s, "precision"), _ci(s, "recall"), _ci(s, "f1")] for s in systems]
    out += render(rows)
    facets = list(systems[0]["facets"]) if systems else []
    out += ["", "F1 per facet (paper Figure 4)", ""]
    rows = (
        [["system", *[FACET_LABELS.get(f, f) for f in facets], *systems[0]["facet_gaps"]]]
        if systems
        else []
    )
    for s in systems:
        rows.append(
            [
                s["name"],
                *[_f(s["facets"][f]["f1"]) for f in facets],
                *[f"{g:+.4f}" for g in s["facet_gaps"].values()],
            ]
        )
    out += render(rows, range(1, len(rows[0]))) if rows else []
    if "carb_signature" in report:
        out += _carb_text(report, systems)
    out += [
        "",
        "Incorrect extractions: share wrong per slot (Figure 1) and error buckets (Figure 2)",
        "",
    ]
    buckets = [b["bucket"] for b in systems[0]["slot_errors"]["buckets"]] if systems else []
    rows = [["system", "incorrect", *SLOTS, *buckets]]
    for s in systems:
        e = s["slot_errors"]
        rows.append(
            [
                s["name"],
                str(e["incorrect"]),
                *[_f(e["slot_error_share"][k]) for k in SLOTS],
                *[str(b["count"]) for b in e["buckets"]],
            ]
        )
    out += render(rows, range(1, len(rows[0])))
    for bucketing in report["bucketings"]:
        names = [*bucketing["buckets"], "all"]
        out += [
            "",
            f"F1 by {bucketing['name']} (Figure 3); sentences: "
            + ", ".join(f"{b} {n}" for b, n in bucketing["sizes"].items())
            + (f", unassigned {bucketing['unassigned']}" if bucketing["unassigned"] else ""),
            "",
        ]
        rows = [["system", *names]]
        rows += [
            [s["name"], *[_f(s["buckets"][bucketing["name"]][b]["f1"]) for b in names]]
            for s in systems
        ]
        out += render(rows, range(1, len(names) + 1))
    if "cliques" in report:
        out += _robustness_text(report["cliques"], systems)
    if report["comparisons"]:
        out += [
            "",
            f"Pairwise F1 differences ({report['options']['test']}; "
            f"p < {SIGNIFICANCE_LEVEL:g} marked *)",
            "",
        ]
        rows = [["a", "b", "F1(a) - F1(b)", "p"]]
        rows += [
            [
                c["a"],
                c["b"],
                f"{c['delta_f1']:+.4f}",
                f"{_p_text(c['p_value'])}{' *' if c['p_value'] < SIGNIFICANCE_LEVEL else ''}",
            ]
            for c in report["comparisons"]
        ]
        out += render(rows, (2, 3))
    if _with_confidences(systems):
        out += ["", "Confidences: area under the precision-recall curve and best F1", ""]
        out += render([_CONFIDENCE_HEADER, *_confidence_rows(systems)], range(1, 6))
    for failure in report.get("failures", []):
        out.append(f"FAILED {failure['name']}: {failure['error']}")
    out += ["", report["signature"]]
    return "\n".join(out) + "\n"


#: The heading of the side-by-side view of both metrics, in the text and on the page.
CARB_TITLE = "BenchIE vs CaRB (BenchIE paper, Table 5)"


def _carb_rows(systems: list[dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    """The columns and rows of ``score --metric benchie,carb``'s table without its rank, from
    the same code (CaRB's module is imported only for a report that has CaRB's numbers)."""
    from benchie_cli.benchmarks.carb.report import SIDE_BY_SIDE_COLUMNS, side_by_side_cells

    rows = [[s["name"], *side_by_side_cells(s["default"], s["carb"])] for s in systems]
    return list(SIDE_BY_SIDE_COLUMNS), rows


def _carb_text(report: dict[str, Any], systems: list[dict[str, Any]]) -> list[str]:
    """BenchIE's default-facet P, R and F1 beside CaRB's at its optimum, what the difference
    is, and CaRB's signature (its numbers depend on its reference file, not on the analysis's
    options)."""
    from benchie_cli.benchmarks.carb.report import SIDE_BY_SIDE_NOTE

    header, rows = _carb_rows(systems)
    return [
        "",
        CARB_TITLE,
        "",
        *render([header, *rows], range(1, len(header))),
        SIDE_BY_SIDE_NOTE,
        report["carb_signature"],
    ]


def _robustness_summary(cliques: dict[str, Any]) -> str:
    """What the clique file holds: cliques, sentences, singletons, sentences in no clique."""
    singletons = len(cliques["singleton_cliques"])
    return (
        f"{cliques['cliques']} clique{'' if cliques['cliques'] == 1 else 's'} of "
        f"{cliques['sentences']} sentence{'' if cliques['sentences'] == 1 else 's'}"
        + (f", {singletons} of a single sentence" if singletons else "")
        + (f"; {cliques['unassigned']} sentences in no clique" if cliques["unassigned"] else "")
    )


_ROBUSTNESS_HEADER = [
    "system",
    "P robust",
    "R robust",
    "F1 robust",
    "P corpus",
    "R corpus",
    "F1 corpus",
    "F1 robust - corpus",
    "F1 var. mean",
    "F1 var. median",
    "F1 var. max",
]


def _robustness_row(s: dict[str, Any]) -> list[str]:
    rob = s["robustness"]
    corpus, var = rob["corpus"], rob["f1_variance"]
    return [
        s["name"],
        _f(rob["precision"]),
        _f(rob["recall"]),
        _f(rob["f1"]),
        _f(corpus["precision"]),
        _f(corpus["recall"]),
        _f(corpus["f1"]),
        f"{rob['f1'] - corpus['f1']:+.4f}",
        _f(var["mean"]),
        _f(var["median"]),
        _f(var["max"]),
    ]


def _robustness_text(cliques: dict[str, Any], systems: list[dict[str, Any]]) -> list[str]:
    out = [
        "",
        f"Clique robustness (ROBUST), cliques from {cliques['file']}: "
        + _robustness_summary(cliques),
        "(robust: each clique's worst-F1 sentence, P and R averaged over cliques, F1 of the "
        "means; variance: population variance of F1 within a clique)",
        "",
    ]
    return out + render(
        [_ROBUSTNESS_HEADER, *[_robustness_row(s) for s in systems]],
        range(1, len(_ROBUSTNESS_HEADER)),
    )


# --------------------------------------------------------------------------- HTML

LABEL_W = 130  # left margin for system names
CHART_W = 760
PLOT_RIGHT = CHART_W - 50  # the plot's right edge: room for a bar's value label after it
EXCERPT = 100  # characters of a sentence shown beside an example (all of it in its tooltip)
NAME_CHARS = 18  # of a system's name fit LABEL_W at 12 px
IDS_SHOWN = 200  # unassigned sentence ids listed on the page (the JSON lists every one)


class Html(str):
    """Markup that is already escaped: :func:`html_table` writes such a cell as it is and
    escapes every other one, so user text can only reach the page through ``escape``."""

    __slots__ = ()


def truncate(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, an ellipsis last when cut (charts' labels)."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _name_label(name: str) -> str:
    """A system's name left of its bars, cut to what fits the margin (whole in a tooltip):
    the chart would otherwise clip a long name at its left edge."""
    if len(name) <= NAME_CHARS:
        return escape(name)
    return f"{escape(truncate(name, NAME_CHARS))}<title>{escape(name)}</title>"


def svg_figure(chart_id: str, title: str, height: int, body: list[str]) -> str:
    """A chart as a captioned figure: an inline SVG of :data:`CHART_W` by ``height`` whose
    ``title`` is its caption, its accessible name and its tooltip (``body``: its marks)."""
    return (
        f"<figure><figcaption>{escape(title)}</figcaption>"
        f'<svg id="{chart_id}" class="chart" role="img" aria-label="{escape(title)}" '
        f'xmlns="http://www.w3.org/2000/svg" width="{CHART_W}" height="{height}" '
        f'viewBox="0 0 {CHART_W} {height}"><title>{escape(title)}</title>'
        + "".join(body)
        + "</svg></figure>"
    )


def _legend(labels: list[str], y: int = 14) -> tuple[list[str], int]:
    """Swatches and labels from the plot's left edge, in rows 16 px apart: a label that would
    pass the chart's right edge starts a new row. Returns the marks and the baseline of the
    last row, so that a chart of many systems starts its plot below its whole legend."""
    parts, x = [], LABEL_W
    for n, label in enumerate(labels):
        width = 24 + 7 * len(label)
        if x > LABEL_W and x + width > CHART_W:
            x, y = LABEL_W, y + 16
        parts.append(
            f'<rect x="{x}" y="{y - 9}" width="10" height="10" fill="{PALETTE[n % len(PALETTE)]}"/>'
        )
        parts.append(f'<text x="{x + 14}" y="{y}" class="small">{escape(label)}</text>')
        x += width
    return parts, y


def _x_title(text: str, y: float) -> str:
    """The x axis's title, centred under the plot."""
    return (
        f'<text class="axis-title" data-axis="x" x="{(LABEL_W + PLOT_RIGHT) / 2:.0f}" y="{y:.0f}" '
        f'text-anchor="middle">{escape(text)}</text>'
    )


def _name_column_title(text: str, y: float) -> str:
    """The y axis's title of a chart with one row per system: the heading of the column of
    names, level with the legend's last row (text written upwards would run into long names)."""
    return (
        f'<text class="axis-title" data-axis="y" x="{LABEL_W - 6}" y="{y:.0f}" '
        f'text-anchor="end">{escape(text)}</text>'
    )


def _y_title(text: str, top: float, bottom: float) -> str:
    """A numeric y axis's title, written upwards left of its tick labels."""
    x, middle = LABEL_W - 40, (top + bottom) / 2
    return (
        f'<text class="axis-title" data-axis="y" x="{x}" y="{middle:.0f}" text-anchor="middle" '
        f'transform="rotate(-90 {x} {middle:.0f})">{escape(text)}</text>'
    )


def _nice_maximum(value: float) -> float:
    """The smallest of 0.05, 0.1, 0.15, ... (five ticks of round values) above ``value``."""
    step = 0.05
    return max(step, -(-value // step) * step + (step if value % step == 0 else 0.0))


def _axis(top: int, bottom: int, scale: float, ticks: int = 5, maximum: float = 1.0) -> list[str]:
    """Vertical grid lines with their values under the plot (a horizontal value axis)."""
    parts = []
    for k in range(ticks + 1):
        value = maximum * k / ticks
        x = LABEL_W + value * scale
        parts.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{bottom}" class="grid"/>')
        parts.append(
            f'<text x="{x:.1f}" y="{bottom + 12}" class="small" text-anchor="middle">{value:.2g}</text>'
        )
    return parts


def _y_axis(bottom: int, plot_h: int, maximum: float = 1.0, ticks: int = 5) -> list[str]:
    """Horizontal grid lines with their values left of the plot (a vertical value axis)."""
    parts = []
    for k in range(ticks + 1):
        y = bottom - plot_h * k / ticks
        parts.append(
            f'<line x1="{LABEL_W}" y1="{y:.1f}" x2="{PLOT_RIGHT}" y2="{y:.1f}" class="grid"/>'
            f'<text x="{LABEL_W - 6}" y="{y + 4:.1f}" class="small" text-anchor="end">{maximum * k / ticks:.2g}</text>'
        )
    return parts


def grouped_bars(
    chart_id: str,
    title: str,
    names: list[str],
    series: list[tuple[str, list[float]]],
    x_title: str,
    maximum: float = 1.0,
) -> str:
    """Horizontal bars: one group per system, one bar per series."""
    bar, gap = 11, 8
    group = bar * len(series) + gap
    body, legend_y = _legend([label for label, _ in series])
    top = legend_y + 10
    bottom = top + group * len(names)
    height = bottom + 34
    scale = (PLOT_RIGHT - LABEL_W) / maximum
    body += _axis(top, bottom, scale, maximum=maximum)
    body += [_name_column_title("system", legend_y), _x_title(x_title, bottom + 28)]
    for n, name in enumerate(names):
        y0 = top + n * group
        body.append(
            f'<text x="{LABEL_W - 6}" y="{y0 + group / 2}" class="name" text-anchor="end">{_name_label(name)}</text>'
        )
        for k, (label, values) in enumerate(series):
            v = values[n]
            y = y0 + k * bar
            body.append(
                f'<rect class="bar" x="{LABEL_W}" y="{y}" width="{max(v, 0) * scale:.1f}" height="{bar - 2}" '
                f'fill="{PALETTE[k % len(PALETTE)]}"><title>{escape(name)}, {escape(label)}: {v:.4f}</title></rect>'
            )
            body.append(
                f'<text x="{LABEL_W + max(v, 0) * scale + 3:.1f}" y="{y + bar - 3}" class="small">{v:.2f}</text>'
            )
    return svg_figure(chart_id, title, height, body)


def stacked_bars(
    chart_id: str,
    title: str,
    names: list[str],
    series: list[tuple[str, list[int]]],
    x_title: str,
) -> str:
    """One 100% bar per system, split by series (shares of its total)."""
    bar = 16
    body, legend_y = _legend([label for label, _ in series])
    top = legend_y + 10
    bottom = top + (bar + 6) * len(names)
    height = bottom + 34
    scale = PLOT_RIGHT - LABEL_W
    body += _axis(top, bottom, scale)
    body += [_name_column_title("system", legend_y), _x_title(x_title, bottom + 28)]
    for n, name in enumerate(names):
        y = top + n * (bar + 6)
        total = sum(values[n] for _, values in series) or 1
        body.append(
            f'<text x="{LABEL_W - 6}" y="{y + bar - 4}" class="name" text-anchor="end">{_name_label(name)}</text>'
        )
        x = float(LABEL_W)
        for k, (label, values) in enumerate(series):
            width = values[n] / total * scale
            body.append(
                f'<rect class="bar" x="{x:.1f}" y="{y}" width="{width:.1f}" height="{bar}" fill="{PALETTE[k % len(PALETTE)]}">'
                f"<title>{escape(name)}, bucket {escape(label)}: {values[n]} ({values[n] / total:.1%})</title></rect>"
            )
            x += width
    return svg_figure(chart_id, title, height, body)


def forest(
    chart_id: str,
    title: str,
    names: list[str],
    series: list[tuple[str, list[tuple[float, float, float]]]],
    x_title: str,
) -> str:
    """Point estimates with their intervals: one group per system, one line per series (each
    row of a series is (estimate, low, high))."""
    step, gap = 12, 8
    group = step * len(series) + gap
    body, legend_y = _legend([label for label, _ in series])
    top = legend_y + 10
    bottom = top + group * len(names)
    height = bottom + 34
    maximum = _nice_maximum(max([0.0, *[high for _, rows in series for *_, high in rows]]))
    scale = (PLOT_RIGHT - LABEL_W) / maximum
    body += _axis(top, bottom, scale, maximum=maximum)
    body += [_name_column_title("system", legend_y), _x_title(x_title, bottom + 28)]
    for n, name in enumerate(names):
        y0 = top + n * group
        body.append(
            f'<text x="{LABEL_W - 6}" y="{y0 + (group - gap) / 2 + 4:.1f}" class="name" text-anchor="end">{_name_label(name)}</text>'
        )
        for k, (label, rows) in enumerate(series):
            point, low, high = rows[n]
            y = y0 + k * step + step / 2
            color = PALETTE[k % len(PALETTE)]
            body.append(
                f'<line class="ci" x1="{LABEL_W + low * scale:.1f}" y1="{y}" x2="{LABEL_W + high * scale:.1f}" y2="{y}" stroke="{color}" stroke-width="2"/>'
                f'<circle class="point" cx="{LABEL_W + point * scale:.1f}" cy="{y}" r="3.5" fill="{color}">'
                f"<title>{escape(name)}: {escape(label)} {point:.4f} [{low:.4f}, {high:.4f}]</title></circle>"
            )
    return svg_figure(chart_id, title, height, body)


def column_groups(
    chart_id: str,
    title: str,
    categories: list[str],
    series: list[tuple[str, list[float]]],
    x_title: str,
    y_title: str,
    maximum: float = 1.0,
) -> str:
    """Vertical bars: one group per category (a bucket of sentences), one bar per series (a
    system), as the paper's Figure 3 draws them. A category name too long for its group is
    cut, whole in its tooltip."""
    plot_h = 180
    body, legend_y = _legend([label for label, _ in series])
    top = legend_y + 14
    bottom = top + plot_h
    height = bottom + 40
    body += _y_axis(bottom, plot_h, maximum)
    group_w = (PLOT_RIGHT - LABEL_W) / max(len(categories), 1)
    bar_w = max(1.5, min(14.0, (group_w - 10) / max(len(series), 1)))
    for c, category in enumerate(categories):
        middle = LABEL_W + (c + 0.5) * group_w
        x0 = middle - bar_w * len(series) / 2
        shown = truncate(category, max(3, int(group_w / 7)))
        body.append(
            f'<text x="{middle:.1f}" y="{bottom + 14}" class="name" text-anchor="middle">'
            f"{escape(shown)}<title>{escape(category)}</title></text>"
        )
        for k, (label, values) in enumerate(series):
            v = values[c]
            h = max(v, 0) / maximum * plot_h
            body.append(
                f'<rect class="bar" x="{x0 + k * bar_w:.1f}" y="{bottom - h:.1f}" width="{max(bar_w - 1, 0.5):.1f}" height="{h:.1f}" '
                f'fill="{PALETTE[k % len(PALETTE)]}"><title>{escape(label)}, {escape(category)}: {v:.4f}</title></rect>'
            )
    body += [_y_title(y_title, top, bottom), _x_title(x_title, bottom + 32)]
    return svg_figure(chart_id, title, height, body)


def pr_curves(chart_id: str, title: str, curves: list[tuple[str, dict[str, Any]]]) -> str:
    """Precision over recall, one step line per system, drawn as its AUC is computed: each
    gain in recall at the precision it was reached with, from recall 0 (docs/scoring.md,
    "Confidences"). A dot marks the best-F1 point; the recall axis ends at a round value
    above the highest recall, since fact-level recall is far below 1 for every system.
    """
    plot_h, left = 240, LABEL_W
    body, legend_y = _legend([f"{name} (AUC {c['auc']:.4f})" for name, c in curves])
    top = legend_y + 10
    bottom = top + plot_h
    height = bottom + 34
    maximum = _nice_maximum(
        max([0.0, *[c["curve"][-1]["recall"] for _, c in curves if c["curve"]]])
    )
    x_scale = (PLOT_RIGHT - left) / maximum

    def y(precision: float) -> float:
        return bottom - precision * plot_h

    body += _axis(top, bottom, x_scale, maximum=maximum)
    body += _y_axis(bottom, plot_h)
    body += [_x_title("recall", bottom + 28), _y_title("precision", top, bottom)]
    for n, (name, curve) in enumerate(curves):
        if not curve["curve"]:
            continue
        color = PALETTE[n % len(PALETTE)]
        steps = [f"M{left:.1f},{y(curve['curve'][0]['precision']):.1f}"]
        for point in curve["curve"]:
            steps.append(f"V{y(point['precision']):.1f}H{left + point['recall'] * x_scale:.1f}")
        best = curve["best_f1"]
        body.append(
            f'<path class="pr" d="{"".join(steps)}" fill="none" stroke="{color}" stroke-width="1.5">'
            f"<title>{escape(name)}: AUC {curve['auc']:.4f}</title></path>"
            f'<circle class="point" cx="{left + best["recall"] * x_scale:.1f}" cy="{y(best["precision"]):.1f}" r="4" fill="{color}">'
            f"<title>{escape(name)}: best F1 {best['f1']:.4f} at confidence &gt;= {best['threshold']:g} "
            f"(P {best['precision']:.4f}, R {best['recall']:.4f})</title></circle>"
        )
    return svg_figure(chart_id, title, height, body)


def _with_confidences(systems: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [s for s in systems if "confidence" in s]


def _confidence_rows(systems: list[dict[str, Any]]) -> list[list[str]]:
    """system, AUC, best F1, its threshold, P and R there ("-" when nothing was scored)."""
    rows = []
    for s in _with_confidences(systems):
        c, best = s["confidence"], s["confidence"]["best_f1"]
        cells = (
            [_f(best["f1"]), f"{best['threshold']:g}", _f(best["precision"]), _f(best["recall"])]
            if best is not None
            else ["-"] * 4
        )
        rows.append([s["name"], _f(c["auc"]), *cells])
    return rows


_CONFIDENCE_HEADER = ["system", "AUC", "best F1", "at confidence >=", "P", "R"]


def html_table(
    table_id: str,
    header: list[str],
    rows: list[list[str]],
    heat: list[list[float | None]] | None = None,
    *,
    css_class: str | None = None,
    row_classes: list[str | None] | None = None,
) -> str:
    """A table whose cells are escaped, except :class:`Html` ones (already markup)."""
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = []
    for r, row in enumerate(rows):
        cells = []
        for c, cell in enumerate(row):
            value = heat[r][c] if heat is not None else None
            style = (
                f' style="background: rgba(66,105,208,{0.1 + 0.6 * value:.2f})"'
                if value is not None
                else ""
            )
            cells.append(f"<td{style}>{cell if isinstance(cell, Html) else escape(cell)}</td>")
        row_class = row_classes[r] if row_classes is not None else None
        body.append(
            (f'<tr class="{row_class}">' if row_class else "<tr>") + "".join(cells) + "</tr>"
        )
    table_class = f' class="{css_class}"' if css_class else ""
    return (
        f'<table id="{escape(table_id)}"{table_class}><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table>"
    )


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def bucket_meaning(pattern: Sequence[int]) -> str:
    """An error-bucket code (s, p, o) in words: which slots match the closest gold triple
    (docs/profiling.md, "Error buckets")."""
    matched = [slot for slot, bit in zip(SLOTS, pattern, strict=True) if bit]
    missed = [slot for slot, bit in zip(SLOTS, pattern, strict=True) if not bit]
    if not matched:
        return (
            "no slot matches any gold triple of the sentence "
            "(also every incorrect extraction of a sentence without gold triples)"
        )
    if not missed:
        return "every slot matches a gold triple: a correct extraction, never an error"
    return (
        f"{_and(matched)} {'matches' if len(matched) == 1 else 'match'} the closest gold triple, "
        f"{_and(missed)} {'does' if len(missed) == 1 else 'do'} not"
    )


BUCKET_CODES_NOTE = (
    "Error-bucket codes (s, p, o): subject, relation (predicate), object; 1 = the slot matches "
    "the closest gold triple, 0 = it does not. The closest gold triples of an incorrect "
    "extraction are the gold triples of its sentence that match it in the most slots; when "
    "they give different codes, the extraction counts in each of those buckets, so the counts "
    "can add up to more than the incorrect extractions. (1, 1, 1) cannot occur: an extraction "
    "that matches every slot of a gold triple is correct."
)


def _bucket_codes(buckets: list[dict[str, Any]]) -> str:
    """The legend of the error-bucket chart: each code with its colour there and its meaning."""
    rows: list[list[str]] = [
        [
            Html(f'<span class="swatch" style="background: {PALETTE[k % len(PALETTE)]}"></span>'),
            b["bucket"],
            bucket_meaning(b["pattern"]),
        ]
        for k, b in enumerate(buckets)
    ]
    return (
        f'<div id="bucket-codes"><p class="note">{escape(BUCKET_CODES_NOTE)}</p>'
        + html_table(
            "bucket-code-table", ["", "bucket (s, p, o)", "meaning"], rows, css_class="codes"
        )
        + "</div>"
    )


def p_cell(p: float) -> str:
    """A p-value cell: below SIGNIFICANCE_LEVEL bold with the "*" the footnote explains."""
    text = _p_text(p)
    return Html(f"<strong>{text} *</strong>") if p < SIGNIFICANCE_LEVEL else text


def significance_note(report: dict[str, Any]) -> str:
    """The footnote of the p-value table: what "*" means, for the test the report ran."""
    options, comparisons = report["options"], report["comparisons"]
    n, seed = options["resamples"], options["seed"]
    how = (
        f"paired bootstrap test (Koehn 2004) over the same {n} resamples as the intervals"
        if options["test"] == "bootstrap"
        else f"approximate randomisation test (Riezler & Maxwell 2005) with {n} trials"
    )
    marked = sum(1 for c in comparisons if c["p_value"] < SIGNIFICANCE_LEVEL)
    return (
        f"* p < {SIGNIFICANCE_LEVEL:g} ({marked} of {len(comparisons)} pairs): the two-sided "
        f"p-value of the difference F1(a) - F1(b) from a {how}, seed {seed}. The smallest p it "
        f"can give is 1/{n + 1} = {1 / (n + 1):.4g}; p-values are not corrected for multiple "
        "comparisons."
    )


def _examples_rows(system: dict[str, Any]) -> list[list[str]]:
    """Per example: its bucket (the code's meaning in a tooltip), sentence id and text (cut
    at EXCERPT characters, whole in a tooltip), the extraction and its closest gold form."""
    rows: list[list[str]] = []
    for b in system["slot_errors"]["buckets"]:
        code = Html(
            f'<span title="{escape(bucket_meaning(b["pattern"]))}">{escape(b["bucket"])}</span>'
        )
        for e in b["examples"]:
            sentence = Html(
                f'<span class="sentence" title="{escape(e["sentence"])}">'
                f"{escape(truncate(e['sentence'], EXCERPT))}</span>"
            )
            rows.append(
                [
                    code,
                    e["sent_id"],
                    sentence,
                    " ; ".join(e["extraction"]),
                    " ; ".join(e["closest_gold"]),
                ]
            )
    return rows


def _bucketing_html(n: int, bucketing: dict[str, Any], systems: list[dict[str, Any]]) -> str:
    """A bucketing's sizes, its F1 chart (paper Figure 3) and table, and the sentences it
    leaves out: their number and ids (they count only in "all")."""
    name, cols = bucketing["name"], [*bucketing["buckets"], "all"]
    f1 = [[s["buckets"][name][b]["f1"] for b in cols] for s in systems]
    unassigned = bucketing["unassigned"]
    sizes = [f"{escape(b)}: {k}" for b, k in bucketing["sizes"].items()]
    if unassigned:
        sizes.append(f"(unassigned): {unassigned}")
    parts = [f"<p>F1 by {escape(name)}; sentences per bucket: {', '.join(sizes)}</p>"]
    if unassigned:
        ids = bucketing["unassigned_sent_ids"]
        total = sum(bucketing["sizes"].values()) + unassigned
        more = (
            f", … and {len(ids) - IDS_SHOWN} more (the JSON lists every one)"
            if len(ids) > IDS_SHOWN
            else ""
        )
        parts.append(
            f'<details class="unassigned" id="unassigned-{n}"><summary>(unassigned): '
            f"{unassigned} of {total} gold sentences are in no bucket of {escape(name)}; "
            'they count only in "all"</summary><p>Their sentence ids: '
            + ", ".join(escape(i) for i in ids[:IDS_SHOWN])
            + f"{more}</p></details>"
        )
    length = name == LENGTH_BUCKETING
    parts.append(
        column_groups(
            f"chart-bucketing-{n}",
            "F1 by sentence length (paper Figure 3)" if length else f"F1 by bucket of {name}",
            cols,
            [(s["name"], row) for s, row in zip(systems, f1, strict=True)],
            "sentence length (gold whitespace tokens)" if length else f"bucket of {name}",
            "F1",
        )
    )
    parts.append(
        html_table(
            f"buckets-{n}",
            ["system", *cols],
            [[s["name"], *[_f(v) for v in row]] for s, row in zip(systems, f1, strict=True)],
            [[None, *row] for row in f1],
        )
    )
    return "".join(parts)


def _robustness_html(cliques: dict[str, Any], systems: list[dict[str, Any]]) -> str:
    """The ROBUST scores beside the corpus scores, and per system the distribution of the
    per-clique F1 variance (paper Figure 5a) and its worst cliques."""
    parts = [
        "<h2>Clique robustness (ROBUST)</h2>",
        f"<p>Cliques from <code>{escape(cliques['file'])}</code>: "
        f"{escape(_robustness_summary(cliques))}.</p>",
    ]
    if cliques["singleton_cliques"]:
        parts.append(
            '<p class="note" id="singleton-cliques">Cliques of a single sentence (their worst '
            "sentence is that sentence, their variance 0): "
            + ", ".join(escape(c) for c in cliques["singleton_cliques"][:IDS_SHOWN])
            + "</p>"
        )
    if cliques["unassigned"]:
        ids = cliques["unassigned_sent_ids"]
        more = f", … and {len(ids) - IDS_SHOWN} more" if len(ids) > IDS_SHOWN else ""
        parts.append(
            '<details class="unassigned" id="unassigned-cliques"><summary>'
            f"{cliques['unassigned']} gold sentences are in no clique; they count only in the "
            "corpus scores</summary><p>Their sentence ids: "
            + ", ".join(escape(i) for i in ids[:IDS_SHOWN])
            + f"{more}</p></details>"
        )
    parts.append(
        html_table("robustness", _ROBUSTNESS_HEADER, [_robustness_row(s) for s in systems])
    )
    parts.append(
        '<p class="note">Robust: in each clique, the P, R and F1 of the sentence with the lowest '
        "F1 (the first in gold order on ties); P and R are averaged over the cliques and F1 is "
        "the F1 of those means (Qiao et al. 2023, Table 2). Corpus: the ordinary scores over "
        "every gold sentence. Variance: the population variance of the F1 of a clique's "
        'sentences (docs/profiling.md, "Clique robustness").</p>'
    )
    for n, s in enumerate(systems):
        rob = s["robustness"]
        bins = rob["f1_variance"]["histogram"]
        worst = sorted(rob["by_clique"], key=lambda c: (c["f1"], -c["f1_variance"]))[:10]
        parts.append(
            f'<details id="robustness-{n}"><summary>{escape(s["name"])}: F1 variance per '
            "clique (paper Figure 5a) and the lowest cliques</summary>"
            + html_table(
                f"robustness-variance-{n}",
                ["F1 variance", "cliques"],
                [
                    [
                        f"[{b['low']:.3f}, {b['high']:.3f}{']' if k == len(bins) - 1 else ')'}",
                        str(b["cliques"]),
                    ]
                    for k, b in enumerate(bins)
                ],
            )
            + html_table(
                f"robustness-cliques-{n}",
                ["clique", "sentences", "worst sentence", "P", "R", "F1", "mean F1", "F1 var."],
                [
                    [
                        c["clique"],
                        str(c["size"]),
                        c["worst"],
                        _f(c["precision"]),
                        _f(c["recall"]),
                        _f(c["f1"]),
                        _f(c["mean_f1"]),
                        _f(c["f1_variance"]),
                    ]
                    for c in worst
                ],
            )
            + "</details>"
        )
    return "".join(parts)


def _carb_html(report: dict[str, Any], systems: list[dict[str, Any]]) -> str:
    """The side-by-side table of the text view, which CaRB gold it used, and both F1s as
    grouped bars: the paper's Table 5 point is how differently the two metrics rank."""
    from benchie_cli.benchmarks.carb.report import SIDE_BY_SIDE_NOTE

    header, rows = _carb_rows(systems)
    reference = report["gold"]["carb_reference"]
    return (
        f"<h2>{escape(CARB_TITLE)}</h2>"
        f"<p>CaRB's gold: <code>{escape(reference['path'])}</code> sha256 "
        f"<code>{escape(reference['sha256'][:12])}</code></p>"
        + html_table("carb", header, rows)
        + f'<p class="note" id="carb-note">{escape(SIDE_BY_SIDE_NOTE)}. BenchIE: the default '
        "facet, as in the leaderboard. CaRB: its metric against its gold for the same "
        "sentences, P, R and F1 at the best-F1 point of its precision-recall curve (one point "
        "for a file without confidences); the JSON also has its AUC.</p>"
        f"<p><code>{escape(report['carb_signature'])}</code></p>"
        + grouped_bars(
            "chart-carb",
            "F1 under BenchIE and under CaRB (BenchIE paper, Table 5)",
            [s["name"] for s in systems],
            [
                ("BenchIE F1", [s["default"]["f1"] for s in systems]),
                ("CaRB F1", [s["carb"]["f1"] for s in systems]),
            ],
            "F1 (BenchIE: default facet; CaRB: best-F1 point)",
        )
    )


STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em auto; max-width: 900px; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 2em; }
code { font-size: 12px; background: #f3f3f3; padding: 2px 4px; }
table { border-collapse: collapse; margin: .5em 0; } th, td { padding: 3px 8px; border-bottom: 1px solid #ddd; }
td { text-align: right; } td:first-child, th:first-child { text-align: left; }
figure { margin: 1em 0; } figcaption { font-weight: 600; margin-bottom: 4px; }
svg .small { font-size: 10px; fill: #555; } svg .name { font-size: 12px; fill: #222; }
svg .axis-title { font-size: 11px; font-weight: 600; fill: #333; }
svg .grid { stroke: #e5e5e5; }
.note { font-size: 12px; color: #555; max-width: 760px; }
tr.significant td { background: #fdf3d8; }
.codes td { text-align: left; font-size: 12px; }
.swatch { display: inline-block; width: 10px; height: 10px; }
.examples td { text-align: left; font-size: 12px; vertical-align: top; }
.examples th, .codes th { text-align: left; } #comparisons td:nth-child(2) { text-align: left; }
.examples .sentence { color: #555; }
details.unassigned { font-size: 12px; margin: .5em 0; }
"""


def to_html(report: dict[str, Any]) -> str:
    """The analysis page: one self-contained HTML document."""
    names = [s["name"] for s in _by_f1(report)]
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>BenchIE analysis: {escape(', '.join(names))}</title><style>{STYLE}</style></head><body>"
        + analysis_body(report)
        + "</body></html>\n"
    )


def analysis_body(report: dict[str, Any]) -> str:
    """The analysis page's content, without the document around it (the page of
    ``platform score`` embeds one per language; its style sheet is :data:`STYLE`)."""
    systems = _by_f1(report)
    names = [s["name"] for s in systems]
    facets = list(systems[0]["facets"]) if systems else []
    resamples, seed = report["options"]["resamples"], report["options"]["seed"]
    parts = [
        "<h1>BenchIE analysis</h1>",
        f"<p><code>{escape(report['signature'])}</code></p>",
        "<p>Gold "
        + escape(report["gold"]["version"])
        + ", language "
        + escape(report["gold"]["language"])
        + ": "
        + ", ".join(
            f"<code>{escape(f['path'])}</code> sha256 <code>{escape(f['sha256'][:12])}</code>"
            for f in report["gold"]["files"]
        )
        + "</p>",
        "<h2>Leaderboard (default facet)</h2>",
        html_table(
            "leaderboard",
            ["system", "P [95% CI]", "R [95% CI]", "F1 [95% CI]", "TP", "FP", "FN"],
            [
                [
                    s["name"],
                    _ci(s, "precision"),
                    _ci(s, "recall"),
                    _ci(s, "f1"),
                    str(s["default"]["tp"]),
                    str(s["default"]["fp"]),
                    str(s["default"]["fn"]),
                ]
                for s in systems
            ],
        ),
        f'<p class="note">[low, high]: the 2.5th and 97.5th percentiles of the score over '
        f"{resamples} bootstrap resamples of the sentences (seed {seed}), the same resamples "
        "for every system.</p>",
        forest(
            "chart-ci",
            f"P, R and F1 with 95% bootstrap intervals ({resamples} resamples, seed {seed})",
            names,
            [
                (
                    label,
                    [(s["default"][key], *s["default"]["ci95"][key]) for s in systems],
                )
                for label, key in (("P", "precision"), ("R", "recall"), ("F1", "f1"))
            ],
            "score on the default facet (P = precision, R = recall)",
        ),
        "<h2>Facet profile</h2>",
        grouped_bars(
            "chart-facets",
            "F1 per facet (paper Figure 4)",
            names,
            [(FACET_LABELS.get(f, f), [s["facets"][f]["f1"] for s in systems]) for f in facets],
            "F1",
        ),
    ]
    if "carb_signature" in report:
        parts.append(_carb_html(report, systems))
    parts += [
        "<h2>Errors</h2>",
        grouped_bars(
            "chart-slots",
            "Share of incorrect extractions wrong in each slot (paper Figure 1)",
            names,
            [
                (slot, [s["slot_errors"]["slot_error_share"][slot] for s in systems])
                for slot in SLOTS
            ],
            "share of the system's incorrect extractions wrong in the slot",
        ),
    ]
    if systems:
        buckets = systems[0]["slot_errors"]["buckets"]
        parts.append(
            stacked_bars(
                "chart-buckets",
                "Incorrect extractions by error bucket (s, p, o) (paper Figure 2)",
                names,
                [
                    (b["bucket"], [s["slot_errors"]["buckets"][k]["count"] for s in systems])
                    for k, b in enumerate(buckets)
                ],
                "share of the system's error-bucket counts (a tied extraction counts in each bucket)",
            )
        )
        parts.append(_bucket_codes(buckets))
    if _with_confidences(systems):
        parts.append("<h2>Confidences</h2>")
        parts.append(
            pr_curves(
                "chart-pr",
                "Fact-level precision-recall curves over confidence thresholds",
                [(s["name"], s["confidence"]) for s in _with_confidences(systems)],
            )
        )
        parts.append(html_table("confidences", _CONFIDENCE_HEADER, _confidence_rows(systems)))
    parts.append("<h2>Scores per bucket of sentences</h2>")
    for n, bucketing in enumerate(report["bucketings"]):
        parts.append(_bucketing_html(n, bucketing, systems))
    if "cliques" in report:
        parts.append(_robustness_html(report["cliques"], systems))
    if report["comparisons"]:
        comparisons = report["comparisons"]
        test = (
            "paired bootstrap"
            if report["options"]["test"] == "bootstrap"
            else "approximate randomisation"
        )
        parts.append(f"<h2>Significance of F1 differences ({test})</h2>")
        parts.append(
            html_table(
                "comparisons",
                ["a", "b", "F1(a) - F1(b)", "p-value"],
                [
                    [c["a"], c["b"], f"{c['delta_f1']:+.4f}", p_cell(c["p_value"])]
                    for c in comparisons
                ],
                row_classes=[
                    "significant" if c["p_value"] < SIGNIFICANCE_LEVEL else None
                    for c in comparisons
                ],
            )
        )
        parts.append(
            f'<p class="note" id="significance-note">{escape(significance_note(report))}</p>'
        )
    parts.append("<h2>Examples of incorrect extractions</h2>")
    for s in systems:
        parts.append(
            f"<details><summary>{escape(s['name'])}</summary>"
            + html_table(
                f"examples-{s['name']}",
                ["bucket", "sent_id", "sentence", "extraction", "closest gold"],
                _examples_rows(s),
                css_class="examples",
            )
            + "</details>"
        )
    for failure in report.get("failures", []):
        parts.append(f"<p>FAILED {escape(failure['name'])}: {escape(failure['error'])}</p>")
    return "".join(parts)
