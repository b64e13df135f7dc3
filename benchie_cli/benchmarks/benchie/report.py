"""BenchIE's score reports: the JSON document of a ``score`` run on BenchIE's gold (one
system per submission, the signature pinning gold and options) and its table and markdown
views (docs/reports.md).

A report stays small whatever the submission: ``unknown_ids`` lists the first
``UNKNOWN_IDS_KEPT`` distinct unknown sentence ids in order of first appearance, and when
there are more, ``unknown_ids_omitted`` (right after it) counts the ids left out. The key is
absent when nothing was left out, so every report that fits is unchanged; a submission of
millions of made-up ids would otherwise write them all. ``unknown_sentence_ids`` still counts
every extraction with an unknown id.
"""

from __future__ import annotations

from itertools import islice
from typing import Any

from benchie_cli import REPORT_SCHEMA, __version__
from benchie_cli.benchmarks.benchie.scoring import ScoreOptions, SystemResult
from benchie_cli.benchmarks.runner import single_threshold_notes
from benchie_cli.gold.review import Review
from benchie_cli.gold.store import ResolvedGold
from benchie_cli.inputs.batch import Failure
from benchie_cli.inputs.formats import signed
from benchie_cli.tables import render

#: Distinct unknown sentence ids a system's ``unknown_ids`` lists (see the module docstring).
UNKNOWN_IDS_KEPT = 1000


def implicit_tag(strip_implicit: bool, case_sensitive: bool) -> str:
    """How implicit extractions were treated, as signatures write it."""
    if not strip_implicit:
        return "keep"
    return "strip-cased" if case_sensitive else "strip"


def signature(gold: ResolvedGold, options: ScoreOptions, input_format: str = "auto") -> str:
    """One line that pins the gold and every option, to paste under a results table (an
    input format other than the default ``auto`` too: it decides how a file is read)."""
    implicit = implicit_tag(options.strip_implicit, options.case_sensitive)
    return (
        f"benchie|lang:{gold.language}|facet:{options.facet}"
        f"|gold:{gold.version}@{gold.sha256[:12]}"
        f"{options.subset.signed() if options.subset is not None else ''}|implicit:{implicit}"
        f"{'|retokenize' if options.retokenize else ''}"
        f"{f'|input:{signed(input_format)}' if input_format != 'auto' else ''}|v:{__version__}"
    )


def ranks(results: list[SystemResult]) -> list[int]:
    """Leaderboard rank of each result by F1 (1 is best; equal F1, equal rank: 1, 2, 2, 4)."""
    f1s = [r.scores[2] for r in results]
    return [1 + sum(1 for other in f1s if other > f1) for f1 in f1s]


def system_json(result: SystemResult, rank: int, *, per_sentence: bool) -> dict[str, Any]:
    tp, fp, fn = result.totals
    precision, recall, f1 = result.scores
    out: dict[str, Any] = {
        "name": result.name,
        "rank": rank,
        "file": result.facts.path,
        "sha256": result.facts.sha256,
        "lines": result.facts.lines,
        "extractions": result.facts.extractions,
        "implicit_removed": result.implicit_count,
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
    }
    if result.implicit_count > len(result.implicit):  # scoring keeps the first IMPLICIT_KEPT
        out["implicit_omitted"] = result.implicit_count - len(result.implicit)
    out |= {
        "unknown_ids": [
            {"sent_id": k, "extractions": v}
            for k, v in islice(result.unknown_ids.items(), UNKNOWN_IDS_KEPT)
        ],
    }
    omitted = len(result.unknown_ids) - UNKNOWN_IDS_KEPT
    if omitted > 0:
        out["unknown_ids_omitted"] = omitted
    if per_sentence:
        out["per_sentence"] = [
            {"sent_id": sid, "extractions": k, "tp": t, "fp": p, "fn": n}
            for sid, k, t, p, n in zip(
                result.sentence_ids, result.kept, result.tp, result.fp, result.fn, strict=True
            )
        ]
    if result.retokenized is not None:  # only with --retokenize: other reports are unchanged
        out["retokenized"] = {"mapped": result.retokenized[0], "left": result.retokenized[1]}
    if result.curve is not None:  # only files with confidences: other reports are unchanged
        out["confidence"] = result.curve.as_json()
    return out


def build_report(
    gold: ResolvedGold,
    options: ScoreOptions,
    results: list[SystemResult],
    *,
    per_sentence: bool,
    failures: list[Failure] | None = None,
    input_format: str = "auto",
    review: Review,
) -> dict[str, Any]:
    """The report: systems in the order given (each with its leaderboard rank), then the
    submissions that could not be scored, if any. An ``input_format`` other than ``auto``
    is recorded (the same bytes read another way give other numbers); reports of the
    default are unchanged. ``review``: what reading the gold file found wrong with it,
    recorded as the file's ``findings`` (docs/gold-store.md, "Gold with errors")."""
    file = {"path": gold.display_path, "sha256": gold.sha256, "findings": review.as_json()}
    report: dict[str, Any] = {
        "schema": REPORT_SCHEMA,
        "benchie_version": __version__,
        "signature": signature(gold, options, input_format),
        "gold": {
            "version": gold.version,
            "language": gold.language,
            "facet": options.facet,
            "derived_from": gold.derived_from,
            "files": [file],
        },
        # (only when given: reports of every sentence keep their bytes)
        **({"subset": options.subset.as_json()} if options.subset is not None else {}),
        "options": {
            "lang": options.lang,
            "facet": options.facet,
            "strip_implicit": options.strip_implicit,
            "case_sensitive": options.case_sensitive,
            "per_sentence": per_sentence,
            **({"retokenize": True} if options.retokenize else {}),
            **({"input_format": input_format} if input_format != "auto" else {}),
        },
        "systems": [
            {
                **system_json(r, rank, per_sentence=per_sentence),
                # the extractions of gold sentences the subset leaves out: not scored
                **({"outside_subset": r.outside_subset} if options.subset is not None else {}),
            }
            for r, rank in zip(results, ranks(results), strict=True)
        ],
    }
    if failures:
        report["failures"] = [f.as_json() for f in failures]
    return report


_COLUMNS = ("#", "system", "P", "R", "F1", "TP", "FP", "FN", "extractions", "implicit")


def _leaderboard(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Systems best first (rank, then name for a stable order among equals)."""
    return sorted(report["systems"], key=lambda s: (s["rank"], s["name"]))


#: The columns added when some system has confidences: its curve's AUC, its best F1 and the
#: threshold that gives it ("-" for a system without confidences).
_CONFIDENCE_COLUMNS = ("AUC", "best F1", "at conf.")


def _has_confidences(report: dict[str, Any]) -> bool:
    return any("confidence" in s for s in report["systems"])


def _confidence_cells(system: dict[str, Any]) -> list[str]:
    curve = system.get("confidence")
    if curve is None:
        return ["-"] * len(_CONFIDENCE_COLUMNS)
    best = curve["best_f1"]
    if best is None:  # nothing scored (every extraction implicit or of an unknown sentence)
        return [f"{curve['auc']:.4f}", "-", "-"]
    return [f"{curve['auc']:.4f}", f"{best['f1']:.4f}", f"{best['threshold']:g}"]


def _columns(report: dict[str, Any]) -> list[str]:
    return [*_COLUMNS, *(_CONFIDENCE_COLUMNS if _has_confidences(report) else ())]


def _rows(report: dict[str, Any]) -> list[list[str]]:
    extra = _has_confidences(report)
    return [
        [
            str(s["rank"]),
            s["name"],
            f"{s['precision']:.4f}",
            f"{s['recall']:.4f}",
            f"{s['f1']:.4f}",
            str(s["tp"]),
            str(s["fp"]),
            str(s["fn"]),
            str(s["extractions"]),
            str(s["implicit_removed"]),
            *(_confidence_cells(s) if extra else ()),
        ]
        for s in _leaderboard(report)
    ]


def _failure_lines(report: dict[str, Any]) -> list[str]:
    return [f"FAILED {f['name']}: {f['error']}" for f in report.get("failures", [])]


def gold_lines(report: dict[str, Any]) -> list[str]:
    """Under a table: each gold file with errors no review covers, so that a pasted table
    never hides that the gold was scored as its reader repaired it."""
    lines = []
    for f in report["gold"].get("files", []):
        findings = f.get("findings")
        new = findings["errors"] - findings["reviewed_errors"] if findings else 0
        if new:
            lines.append(
                f"gold {f['path']}: {new:,} error(s) its reader skipped or repaired "
                "(docs/gold-store.md, 'Gold with errors')"
            )
    return lines


def to_table(report: dict[str, Any]) -> str:
    """The leaderboard as a fixed-width table for the terminal, failures and signature
    below it (CaRB's metric on BenchIE's gold: CaRB's views)."""
    if "metric" in report:  # only reports of CaRB's metrics name one
        from benchie_cli.benchmarks.carb import report as carb_report

        return carb_report.to_table(report)
    columns = _columns(report)
    right = [0, *range(2, len(columns))]
    lines = render([columns, *_rows(report)], right)
    lines.extend(_failure_lines(report))
    lines.extend(gold_lines(report))
    lines.extend(single_threshold_notes(report["systems"], ["confidence"]))
    lines.append("")
    lines.append(report["signature"])
    return "\n".join(lines) + "\n"


def to_markdown(report: dict[str, Any]) -> str:
    """The leaderboard as a GitHub-flavoured markdown table, failures and signature below,
    ready for a README or a paper."""
    if "metric" in report:
        from benchie_cli.benchmarks.carb import report as carb_report

        return carb_report.to_markdown(report)
    columns = _columns(report)
    lines = [
        "| " + " | ".join(columns) + " |",
        "|" + "|".join(["---:", "---"] + ["---:"] * (len(columns) - 2)) + "|",
    ]
    # A cell may hold a submission's name: its '|' must not open a column of its own.
    lines += [
        "| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in _rows(report)
    ]
    if report.get("failures"):
        lines += ["", *(f"- {line}" for line in _failure_lines(report))]
    if gold_lines(report):
        lines += ["", *(f"- {line}" for line in gold_lines(report))]
    notes = single_threshold_notes(report["systems"], ["confidence"])
    if notes:
        lines += ["", *(f"- {line}" for line in notes)]
    lines += ["", f"`{report['signature']}`"]
    return "\n".join(lines) + "\n"
