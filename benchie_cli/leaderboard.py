"""A leaderboard page for organisers without a platform: ``benchie score --format html``.

One self-contained HTML page (inline CSS and SVG, no script, no network) made from a
``score`` report and the per-sentence counts behind it: the systems ranked by F1 with 95%
bootstrap intervals, the signature, the gold file's full sha256, and a matrix of pairwise F1
differences marking the significant ones (paired bootstrap, Koehn 2004). The intervals and
p-values come from :mod:`benchie_cli.analysis.significance` with a fixed seed, so the same
inputs give the same bytes. The report itself (JSON, table, markdown) is left as it is: the
statistics are on the page only.
"""

from __future__ import annotations

from html import escape
from itertools import combinations
from typing import Any

from benchie_cli.analysis import significance
from benchie_cli.analysis.views import (
    SIGNIFICANCE_LEVEL,
    STYLE,
    Html,
    forest,
    html_table,
    p_cell,
)
from benchie_cli.benchmarks.benchie.scoring import SystemResult

RESAMPLES = 1000
SEED = 12345

_COLUMNS = [
    "#",
    "system",
    "P [95% CI]",
    "R [95% CI]",
    "F1 [95% CI]",
    "TP",
    "FP",
    "FN",
    "extractions",
]

_EXTRA_STYLE = """
#leaderboard td:nth-child(2), #leaderboard th:nth-child(2) { text-align: left; }
#leaderboard td { white-space: nowrap; }
#submissions td, #failures td { text-align: left; }
#submissions td + td { word-break: break-all; font-size: 12px; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: 2px 12px; }
dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; }
#significance td { text-align: center; font-size: 12px; }
#significance th { font-size: 12px; word-break: break-word; }
#significance .significant { background: #fdf3d8; }
#significance td:first-child { text-align: left; }
footer { margin-top: 2em; font-size: 12px; color: #555; }
"""


def _interval(value: float, interval: significance.Interval) -> str:
    return f"{value:.4f} [{interval.low:.4f}, {interval.high:.4f}]"


def _check(report: dict[str, Any], results: list[SystemResult]) -> None:
    names = [s["name"] for s in report["systems"]]
    if "metric" in report or names != [r.name for r in results]:
        raise ValueError("a leaderboard page needs a BenchIE score report and its results")


def to_html(
    report: dict[str, Any],
    results: list[SystemResult],
    *,
    resamples: int = RESAMPLES,
    seed: int = SEED,
) -> str:
    """The page of ``report`` (``build_report``'s document) whose systems are ``results``,
    in the same order."""
    _check(report, results)
    w = significance.weights(len(results[0].tp), resamples, seed)
    intervals = significance.confidence_intervals(results, w)
    pairs = dict(
        zip(
            combinations(range(len(results)), 2),
            significance.compare_bootstrap(results, w),
            strict=True,
        )
    )
    order = sorted(
        range(len(results)), key=lambda i: (report["systems"][i]["rank"], results[i].name)
    )
    systems = [report["systems"][i] for i in order]
    gold = report["gold"]
    names = [s["name"] for s in systems]
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>BenchIE leaderboard: gold {escape(gold['version'])}, "
        f"{escape(gold['language'])}</title><style>{STYLE}{_EXTRA_STYLE}</style></head><body>",
        "<h1>BenchIE leaderboard</h1>",
        f'<p><code id="signature">{escape(report["signature"])}</code></p>',
        _facts(report),
        "<h2>Ranking by F1</h2>",
        html_table(
            "leaderboard",
            _COLUMNS,
            [
                [
                    str(s["rank"]),
                    s["name"],
                    _interval(s["precision"], intervals[i]["precision"]),
                    _interval(s["recall"], intervals[i]["recall"]),
                    _interval(s["f1"], intervals[i]["f1"]),
                    str(s["tp"]),
                    str(s["fp"]),
                    str(s["fn"]),
                    str(s["extractions"]),
                ]
                for i, s in zip(order, systems, strict=True)
            ],
        ),
        f'<p class="note">[low, high]: the 2.5th and 97.5th percentiles of the score over '
        f"{resamples} bootstrap resamples of the gold's sentences (seed {seed}), the same "
        "resamples for every system. Equal F1, equal rank.</p>",
        forest(
            "chart-ci",
            f"F1 with 95% bootstrap intervals ({resamples} resamples, seed {seed})",
            names,
            [
                (
                    "F1",
                    [
                        (s["f1"], intervals[i]["f1"].low, intervals[i]["f1"].high)
                        for i, s in zip(order, systems, strict=True)
                    ],
                )
            ],
            f"F1 on the {report['options']['facet']} facet",
        ),
    ]
    if len(results) > 1:
        parts += _significance(order, names, pairs, resamples, seed)
    if report.get("failures"):
        parts.append("<h2>Submissions that could not be scored</h2>")
        parts.append(
            html_table(
                "failures",
                ["system", "file", "error"],
                [[f["name"], f["file"], f["error"]] for f in report["failures"]],
            )
        )
    parts.append("<h2>Submissions</h2>")
    parts.append(
        html_table(
            "submissions",
            ["system", "file", "sha256"],
            [[s["name"], s["file"], s["sha256"]] for s in systems],
        )
    )
    parts.append(
        f"<footer>Made by benchie {escape(report['benchie_version'])} "
        "(<code>benchie score --format html</code>).</footer></body></html>\n"
    )
    return "".join(parts)


def _facts(report: dict[str, Any]) -> str:
    """Gold version, language, facet and each gold file with its full sha256."""
    gold = report["gold"]
    rows = [
        ("gold version", escape(gold["version"])),
        ("language", escape(gold["language"])),
        ("facet", escape(gold["facet"])),
    ]
    for f in gold["files"]:
        rows.append(("gold file", f"<code>{escape(f['path'])}</code>"))
        rows.append(("sha256", f'<code class="sha256">{escape(f["sha256"])}</code>'))
    rows.append(("benchie", escape(report["benchie_version"])))
    return '<dl class="facts">' + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in rows) + "</dl>"


def _significance(
    order: list[int],
    names: list[str],
    pairs: dict[tuple[int, int], significance.Comparison],
    resamples: int,
    seed: int,
) -> list[str]:
    """The matrix of F1(row) - F1(column) over the ranked systems (upper triangle: the row
    ranks above), each with its p-value; p < SIGNIFICANCE_LEVEL is marked."""
    rows: list[list[str]] = []
    marked = 0
    for r, i in enumerate(order[:-1]):  # the last system ranks above none: no row
        cells: list[str] = [f"{r + 1}. {names[r]}"]
        for c, j in enumerate(order[1:], start=1):  # the first ranks below none: no column
            if c <= r:
                cells.append("")
                continue
            comparison = pairs[(i, j)] if i < j else pairs[(j, i)]
            delta = comparison.delta_f1 if i < j else -comparison.delta_f1
            significant = comparison.p_value < SIGNIFICANCE_LEVEL
            marked += significant
            cells.append(
                Html(
                    f'<div class="{"significant" if significant else "pair"}" '
                    f'title="{escape(names[r])} - {escape(names[c])}">{delta:+.4f}'
                    f"<br>p = {p_cell(comparison.p_value)}</div>"
                )
            )
        rows.append(cells)
    html = html_table(
        "significance",
        ["F1(row) - F1(column)", *(f"{c + 1}. {name}" for c, name in enumerate(names) if c)],
        rows,
    )
    pairs_count = len(names) * (len(names) - 1) // 2
    return [
        "<h2>Significance of F1 differences (paired bootstrap)</h2>",
        html,
        f'<p class="note" id="significance-note">* p &lt; {SIGNIFICANCE_LEVEL:g} ({marked} of '
        f"{pairs_count} pairs, highlighted): the two-sided p-value of the difference "
        "F1(row) - F1(column) from a paired bootstrap test (Koehn 2004) over the same "
        f"{resamples} resamples as the intervals, seed {seed}. The smallest p it can give is "
        f"1/{resamples + 1} = {1 / (resamples + 1):.4g}; p-values are not corrected for "
        "multiple comparisons.</p>",
    ]
