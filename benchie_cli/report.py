"""Score reports: one JSON document (and its table and markdown views) per ``score`` run.

The JSON is the record a paper or a leaderboard cites, so it is deterministic: keys in a
fixed order, systems in the order given, sentences in gold order, no timestamps, no paths
that depend on the machine (gold files are named relative to the store). The ``signature``
pins every setting that can change a number, in the spirit of sacreBLEU's.
"""

from __future__ import annotations

from typing import Any

import orjson

from benchie_cli import __version__
from benchie_cli.gold_store import ResolvedGold
from benchie_cli.scoring import ScoreOptions, SystemResult

REPORT_SCHEMA = 1


def signature(gold: ResolvedGold, options: ScoreOptions) -> str:
    """One line that pins the gold and every option, to paste under a results table."""
    implicit = "strip" if options.strip_implicit else "keep"
    if options.strip_implicit and options.case_sensitive:
        implicit += "-cased"
    return (
        f"benchie|lang:{gold.language}|facet:{options.facet}"
        f"|gold:{gold.version}@{gold.sha256[:12]}|implicit:{implicit}|v:{__version__}"
    )


def system_json(result: SystemResult, *, per_sentence: bool) -> dict[str, Any]:
    tp, fp, fn = result.totals
    precision, recall, f1 = result.scores
    out: dict[str, Any] = {
        "name": result.name,
        "file": result.facts.path,
        "sha256": result.facts.sha256,
        "lines": result.facts.lines,
        "extractions": result.facts.extractions,
        "implicit_removed": len(result.implicit),
        "unknown_sentence_ids": result.unknown_count,
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "implicit": [
            {"line": x.line, "sent_id": x.sent_id, "tokens": x.tokens} for x in result.implicit
        ],
        "unknown_ids": [{"sent_id": k, "extractions": v} for k, v in result.unknown_ids.items()],
    }
    if per_sentence:
        out["per_sentence"] = [
            {"sent_id": sid, "extractions": k, "tp": t, "fp": p, "fn": n}
            for sid, k, t, p, n in zip(
                result.sentence_ids, result.kept, result.tp, result.fp, result.fn, strict=True
            )
        ]
    return out


def build_report(
    gold: ResolvedGold,
    options: ScoreOptions,
    results: list[SystemResult],
    *,
    per_sentence: bool,
    failures: list[dict[str, str]] | None = None,
) -> dict[str, Any]:
    report: dict[str, Any] = {
        "schema": REPORT_SCHEMA,
        "benchie_version": __version__,
        "signature": signature(gold, options),
        "gold": {
            "version": gold.version,
            "language": gold.language,
            "facet": options.facet,
            "derived_from": gold.derived_from,
            "files": [{"path": gold.display_path, "sha256": gold.sha256}],
        },
        "options": {
            "lang": options.lang,
            "facet": options.facet,
            "strip_implicit": options.strip_implicit,
            "case_sensitive": options.case_sensitive,
            "per_sentence": per_sentence,
        },
        "systems": [system_json(r, per_sentence=per_sentence) for r in results],
    }
    if failures:
        report["failures"] = failures
    return report


def to_json(report: dict[str, Any]) -> bytes:
    return orjson.dumps(report, option=orjson.OPT_INDENT_2) + b"\n"


_COLUMNS = ("system", "P", "R", "F1", "TP", "FP", "FN", "extractions", "implicit")


def _rows(report: dict[str, Any]) -> list[list[str]]:
    return [
        [
            s["name"],
            f"{s['precision']:.4f}",
            f"{s['recall']:.4f}",
            f"{s['f1']:.4f}",
            str(s["tp"]),
            str(s["fp"]),
            str(s["fn"]),
            str(s["extractions"]),
            str(s["implicit_removed"]),
        ]
        for s in report["systems"]
    ]


def to_table(report: dict[str, Any]) -> str:
    """A fixed-width table for the terminal, with the signature under it."""
    rows = [list(_COLUMNS), *_rows(report)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(_COLUMNS))]
    lines = []
    for n, row in enumerate(rows):
        cells = [row[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)
        ]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines.append("")
    lines.append(report["signature"])
    return "\n".join(lines) + "\n"


def to_markdown(report: dict[str, Any]) -> str:
    """A GitHub-flavoured markdown table, signature below, ready for a README or a paper."""
    lines = [
        "| " + " | ".join(_COLUMNS) + " |",
        "|" + "|".join(["---"] + ["---:"] * (len(_COLUMNS) - 1)) + "|",
    ]
    lines += ["| " + " | ".join(row) + " |" for row in _rows(report)]
    lines += ["", f"`{report['signature']}`"]
    return "\n".join(lines) + "\n"
