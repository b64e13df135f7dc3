"""Views of an analysis document: a text summary for the terminal and a self-contained HTML
page (inline SVG charts, no script, no network) to share or attach to a paper's review.

Both are made from the JSON document alone, so they show exactly what it records.
"""

from __future__ import annotations

from html import escape
from typing import Any

from benchie_cli.slot_errors import SLOTS
from benchie_cli.tables import render

FACET_LABELS = {
    "default": "BenchIE",
    "concat": "BenchIE-C",
    "minimal": "BenchIE-M",
    "entity": "BenchIE-E",
}
PALETTE = ("#4269d0", "#efb118", "#ff725c", "#6cc5b0", "#3ca951", "#ff8ab7", "#a463f2", "#97bbf5")


def _by_f1(report: dict[str, Any]) -> list[dict[str, Any]]:
    return sorted(report["systems"], key=lambda s: (-s["default"]["f1"], s["name"]))


def _f(x: float) -> str:
    return f"{x:.4f}"


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
    if report["comparisons"]:
        out += ["", f"Pairwise F1 differences ({report['options']['test']}; p < 0.05 marked *)", ""]
        rows = [["a", "b", "F1(a) - F1(b)", "p"]]
        rows += [
            [
                c["a"],
                c["b"],
                f"{c['delta_f1']:+.4f}",
                f"{c['p_value']:.4f}{' *' if c['p_value'] < 0.05 else ''}",
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


# --------------------------------------------------------------------------- HTML

LABEL_W = 130  # left margin for system names
CHART_W = 760


def _svg(chart_id: str, title: str, height: int, body: list[str]) -> str:
    return (
        f"<figure><figcaption>{escape(title)}</figcaption>"
        f'<svg id="{chart_id}" class="chart" role="img" aria-label="{escape(title)}" '
        f'xmlns="http://www.w3.org/2000/svg" width="{CHART_W}" height="{height}" '
        f'viewBox="0 0 {CHART_W} {height}"><title>{escape(title)}</title>'
        + "".join(body)
        + "</svg></figure>"
    )


def _legend(labels: list[str], y: int) -> list[str]:
    parts, x = [], LABEL_W
    for n, label in enumerate(labels):
        parts.append(
            f'<rect x="{x}" y="{y - 9}" width="10" height="10" fill="{PALETTE[n % len(PALETTE)]}"/>'
        )
        parts.append(f'<text x="{x + 14}" y="{y}" class="small">{escape(label)}</text>')
        x += 24 + 7 * len(label)
    return parts


def _nice_maximum(value: float) -> float:
    """The smallest of 0.05, 0.1, 0.15, ... (five ticks of round values) above ``value``."""
    step = 0.05
    return max(step, -(-value // step) * step + (step if value % step == 0 else 0.0))


def _axis(top: int, bottom: int, scale: float, ticks: int = 5, maximum: float = 1.0) -> list[str]:
    parts = []
    for k in range(ticks + 1):
        value = maximum * k / ticks
        x = LABEL_W + value * scale
        parts.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{bottom}" class="grid"/>')
        parts.append(
            f'<text x="{x:.1f}" y="{bottom + 12}" class="small" text-anchor="middle">{value:.2g}</text>'
        )
    return parts


def grouped_bars(
    chart_id: str,
    title: str,
    names: list[str],
    series: list[tuple[str, list[float]]],
    maximum: float = 1.0,
) -> str:
    """Horizontal bars: one group per system, one bar per series."""
    bar, gap = 11, 8
    group = bar * len(series) + gap
    top = 24
    height = top + group * len(names) + 20
    scale = (CHART_W - LABEL_W - 50) / maximum
    body = _legend([label for label, _ in series], 14)
    body += _axis(top, height - 18, scale, maximum=maximum)
    for n, name in enumerate(names):
        y0 = top + n * group
        body.append(
            f'<text x="{LABEL_W - 6}" y="{y0 + group / 2}" class="name" text-anchor="end">{escape(name)}</text>'
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
    return _svg(chart_id, title, height, body)


def stacked_bars(
    chart_id: str, title: str, names: list[str], series: list[tuple[str, list[int]]]
) -> str:
    """One 100% bar per system, split by series (shares of its total)."""
    bar = 16
    top = 24
    height = top + (bar + 6) * len(names) + 20
    scale = CHART_W - LABEL_W - 50
    body = _legend([label for label, _ in series], 14)
    body += _axis(top, height - 18, scale)
    for n, name in enumerate(names):
        y = top + n * (bar + 6)
        total = sum(values[n] for _, values in series) or 1
        body.append(
            f'<text x="{LABEL_W - 6}" y="{y + bar - 4}" class="name" text-anchor="end">{escape(name)}</text>'
        )
        x = float(LABEL_W)
        for k, (label, values) in enumerate(series):
            width = values[n] / total * scale
            body.append(
                f'<rect class="bar" x="{x:.1f}" y="{y}" width="{width:.1f}" height="{bar}" fill="{PALETTE[k % len(PALETTE)]}">'
                f"<title>{escape(name)}, bucket {escape(label)}: {values[n]} ({values[n] / total:.1%})</title></rect>"
            )
            x += width
    return _svg(chart_id, title, height, body)


def forest(chart_id: str, title: str, rows: list[tuple[str, float, float, float]]) -> str:
    """Point estimates with their intervals, one line per system."""
    step, top = 20, 10
    height = top + step * len(rows) + 22
    maximum = _nice_maximum(max([0.0, *[high for *_, high in rows]]))
    scale = (CHART_W - LABEL_W - 50) / maximum
    body = _axis(top, height - 18, scale, maximum=maximum)
    for n, (name, point, low, high) in enumerate(rows):
        y = top + n * step + step / 2
        body.append(
            f'<text x="{LABEL_W - 6}" y="{y + 4}" class="name" text-anchor="end">{escape(name)}</text>'
        )
        body.append(
            f'<line class="ci" x1="{LABEL_W + low * scale:.1f}" y1="{y}" x2="{LABEL_W + high * scale:.1f}" y2="{y}" stroke="{PALETTE[0]}" stroke-width="2"/>'
        )
        body.append(
            f'<circle class="point" cx="{LABEL_W + point * scale:.1f}" cy="{y}" r="4" fill="{PALETTE[0]}">'
            f"<title>{escape(name)}: F1 {point:.4f} [{low:.4f}, {high:.4f}]</title></circle>"
        )
    return _svg(chart_id, title, height, body)


def pr_curves(chart_id: str, title: str, curves: list[tuple[str, dict[str, Any]]]) -> str:
    """Precision over recall, one step line per system, drawn as its AUC is computed: each
    gain in recall at the precision it was reached with, from recall 0 (README,
    "Confidences"). A dot marks the best-F1 point; the recall axis ends at a round value
    above the highest recall, since fact-level recall is far below 1 for every system.
    """
    top, plot_h, left = 24, 240, LABEL_W
    height = top + plot_h + 34
    maximum = _nice_maximum(
        max([0.0, *[c["curve"][-1]["recall"] for _, c in curves if c["curve"]]])
    )
    x_scale = (CHART_W - left - 50) / maximum
    bottom = top + plot_h

    def y(precision: float) -> float:
        return bottom - precision * plot_h

    body = _legend([f"{name} (AUC {c['auc']:.4f})" for name, c in curves], 14)
    body += _axis(top, bottom, x_scale, maximum=maximum)
    for k in range(6):
        body.append(
            f'<line x1="{left}" y1="{y(k / 5):.1f}" x2="{CHART_W - 50}" y2="{y(k / 5):.1f}" class="grid"/>'
            f'<text x="{left - 6}" y="{y(k / 5) + 4:.1f}" class="small" text-anchor="end">{k / 5:.1f}</text>'
        )
    body.append(
        f'<text x="{left + (CHART_W - left - 50) / 2:.0f}" y="{height - 4}" class="small" text-anchor="middle">recall</text>'
        f'<text x="{left - 62}" y="{top + plot_h / 2:.0f}" class="small" text-anchor="middle">precision</text>'
    )
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
    return _svg(chart_id, title, height, body)


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


def _table(
    table_id: str,
    header: list[str],
    rows: list[list[str]],
    heat: list[list[float | None]] | None = None,
) -> str:
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
            cells.append(f"<td{style}>{escape(cell)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f'<table id="{table_id}"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em auto; max-width: 900px; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 2em; }
code { font-size: 12px; background: #f3f3f3; padding: 2px 4px; }
table { border-collapse: collapse; margin: .5em 0; } th, td { padding: 3px 8px; border-bottom: 1px solid #ddd; }
td { text-align: right; } td:first-child, th:first-child { text-align: left; }
figure { margin: 1em 0; } figcaption { font-weight: 600; margin-bottom: 4px; }
svg .small { font-size: 10px; fill: #555; } svg .name { font-size: 12px; fill: #222; }
svg .grid { stroke: #e5e5e5; }
.examples td { text-align: left; font-size: 12px; }
"""


def to_html(report: dict[str, Any]) -> str:
    systems = _by_f1(report)
    names = [s["name"] for s in systems]
    facets = list(systems[0]["facets"]) if systems else []
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>BenchIE analysis: {escape(', '.join(names))}</title><style>{STYLE}</style></head><body>",
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
        _table(
            "leaderboard",
            ["system", "P", "R", "F1 [95% CI]", "TP", "FP", "FN"],
            [
                [
                    s["name"],
                    _f(s["default"]["precision"]),
                    _f(s["default"]["recall"]),
                    _ci(s, "f1"),
                    str(s["default"]["tp"]),
                    str(s["default"]["fp"]),
                    str(s["default"]["fn"]),
                ]
                for s in systems
            ],
        ),
        forest(
            "chart-ci",
            f"F1 with 95% bootstrap intervals ({report['options']['resamples']} resamples, seed {report['options']['seed']})",
            [(s["name"], s["default"]["f1"], *s["default"]["ci95"]["f1"]) for s in systems],
        ),
        "<h2>Facet profile</h2>",
        grouped_bars(
            "chart-facets",
            "F1 per facet (paper Figure 4)",
            names,
            [(FACET_LABELS.get(f, f), [s["facets"][f]["f1"] for s in systems]) for f in facets],
        ),
        "<h2>Errors</h2>",
        grouped_bars(
            "chart-slots",
            "Share of incorrect extractions wrong in each slot (paper Figure 1)",
            names,
            [
                (slot, [s["slot_errors"]["slot_error_share"][slot] for s in systems])
                for slot in SLOTS
            ],
        ),
    ]
    if systems:
        buckets = [b["bucket"] for b in systems[0]["slot_errors"]["buckets"]]
        parts.append(
            stacked_bars(
                "chart-buckets",
                "Incorrect extractions by error bucket (s, p, o) (paper Figure 2)",
                names,
                [
                    (b, [s["slot_errors"]["buckets"][k]["count"] for s in systems])
                    for k, b in enumerate(buckets)
                ],
            )
        )
    if _with_confidences(systems):
        parts.append("<h2>Confidences</h2>")
        parts.append(
            pr_curves(
                "chart-pr",
                "Fact-level precision-recall curves over confidence thresholds",
                [(s["name"], s["confidence"]) for s in _with_confidences(systems)],
            )
        )
        parts.append(_table("confidences", _CONFIDENCE_HEADER, _confidence_rows(systems)))
    parts.append("<h2>Scores per bucket of sentences</h2>")
    for n, bucketing in enumerate(report["bucketings"]):
        cols = [*bucketing["buckets"], "all"]
        f1 = [[s["buckets"][bucketing["name"]][b]["f1"] for b in cols] for s in systems]
        parts.append(
            f"<p>F1 by {escape(bucketing['name'])}; sentences per bucket: "
            + ", ".join(f"{escape(b)}: {k}" for b, k in bucketing["sizes"].items())
            + "</p>"
        )
        parts.append(
            _table(
                f"buckets-{n}",
                ["system", *cols],
                [[s["name"], *[_f(v) for v in row]] for s, row in zip(systems, f1, strict=True)],
                [[None, *row] for row in f1],
            )
        )
    if report["comparisons"]:
        parts.append(f"<h2>Significance ({escape(report['options']['test'])})</h2>")
        parts.append(
            _table(
                "comparisons",
                ["a", "b", "F1(a) - F1(b)", "p-value"],
                [
                    [c["a"], c["b"], f"{c['delta_f1']:+.4f}", f"{c['p_value']:.4f}"]
                    for c in report["comparisons"]
                ],
            )
        )
    parts.append("<h2>Examples of incorrect extractions</h2>")
    for s in systems:
        rows = []
        for b in s["slot_errors"]["buckets"]:
            for e in b["examples"]:
                rows.append(
                    [
                        b["bucket"],
                        e["sent_id"],
                        " ; ".join(e["extraction"]),
                        " ; ".join(e["closest_gold"]),
                    ]
                )
        parts.append(
            f"<details><summary>{escape(s['name'])}</summary>"
            + _table(
                f"examples-{escape(s['name'])}",
                ["bucket", "sentence", "extraction", "closest gold"],
                rows,
            ).replace("<table", "<table class='examples'", 1)
            + "</details>"
        )
    for failure in report.get("failures", []):
        parts.append(f"<p>FAILED {escape(failure['name'])}: {escape(failure['error'])}</p>")
    parts.append("</body></html>\n")
    return "".join(parts)
