"""``benchie score --metric carb`` and ``--metric benchie,carb``: CaRB's metric on BenchIE
submissions, and the BenchIE paper's Table 5 view of both metrics side by side.

CaRB's gold for BenchIE's English sentences is the gold store's reference file
``<version>/en/reference/carb_explicit.txt`` (:meth:`GoldStore.reference`: read once, hashed,
checked against the manifest). A submission's lines become CaRB tuples as
:func:`benchie_cli.benchmarks.carb.data.from_submission` makes them: the sentence is the
BenchIE gold's text of the line's sentence id, so the BenchIE gold of the same version is
read too, for its sentence texts only. Implicit extractions are *not* stripped (CaRB's scorer
scores what it
is given); a confidence column is used when the file declares one, else every line has 1.0
and the curve has one point. docs/carb.md describes the metric.

Reports: a CaRB-only report ranks by CaRB's F1 and its signature names the metric and the
reference file's sha256; the side-by-side report is the BenchIE report of the same run with
a ``carb`` object per system (CaRB's numbers and their difference from BenchIE's) and a
second signature, ranked by BenchIE's F1 as always. The default report (``--metric
benchie``) has no ``metric`` key and is unchanged. ``benchie analyze`` puts the same ``carb``
object and keys in its document (:func:`carb_object`, :func:`reference_json`) and the same
table on its views (:data:`SIDE_BY_SIDE_COLUMNS`, :func:`side_by_side_cells`). Only this
module and the two CaRB modules know CaRB's metric: ``score`` without ``--metric`` never
imports them, nor ``analyze`` without a CaRB reference.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from benchie_cli import REPORT_SCHEMA, __version__
from benchie_cli.benchmarks.carb.data import Extractions, from_submission, read_gold, text_lines
from benchie_cli.benchmarks.carb.metric import (
    CarbScore,
    auc,
    corpus_stats_both,
    curve,
    curve_of,
    optimum,
    outside,
    score,
    zero_conf,
)
from benchie_cli.benchmarks.runner import SINGLE_THRESHOLD, single_threshold_notes
from benchie_cli.curves import Curve
from benchie_cli.errors import BenchieError, Diagnostic, ExitCode, printable_path
from benchie_cli.gold.store import ResolvedGold
from benchie_cli.inputs.batch import Failure
from benchie_cli.inputs.formats import VERSIONS, signed
from benchie_cli.inputs.mistakes import (
    Finding,
    MistakeCheck,
    explained,
    nothing_scorable,
    nothing_scored,
    read_head,
    strict_error,
)
from benchie_cli.inputs.submission import Extraction, FileFacts, read_submission
from benchie_cli.records import Record
from benchie_cli.registry import METRICS
from benchie_cli.tables import render
from benchie_cli.textio import decode_text, display_name
from benchie_cli.tokens import ImplicitTest, language_hint, mostly_implicit

#: The reference file holding CaRB's gold for BenchIE's sentences, per language directory.
CARB_REFERENCE = "carb_explicit.txt"
#: The languages with CaRB gold: CaRB annotated English sentences only.
CARB_LANGUAGES = ("en",)


def carb_scores(
    gold: Extractions,
    predicted: Extractions,
    metrics: Sequence[str],
    *,
    moie: bool = False,
    restrict: bool = False,
) -> dict[str, CarbScore]:
    """Each CaRB metric of ``metrics`` (``carb``, ``carb-ss``) of one reading of a file
    (both at once compare each pair of tuples once); ``moie``: by moie's rules
    (:mod:`benchie_cli.benchmarks.carb.metric`). ``restrict``: the gold is a subset's
    (``--sentences``), and the extractions of other sentences are dropped, as from the
    input of the original run on the subset alone (else they set thresholds, as CaRB's
    scorer lets them)."""
    if restrict:
        beyond = outside(gold)
        predicted = {text: xs for text, xs in predicted.items() if not beyond(text)}
    if sorted(metrics) != ["carb", "carb-ss"]:
        return {m: score(gold, predicted, single=m == "carb-ss", moie=moie) for m in metrics}
    both = corpus_stats_both(gold, predicted, moie=moie)
    by_metric = dict(zip(("carb", "carb-ss"), both, strict=True))
    out = {}
    for m in metrics:
        points = curve(by_metric[m].sentences.values(), by_metric[m].outside)
        out[m] = CarbScore(points, auc(points, moie=moie), optimum(points))
    return out


def check_language(lang: str) -> None:
    """Refuse (exit 2) a language CaRB has no gold for."""
    if lang not in CARB_LANGUAGES:
        raise BenchieError(
            f"--metric carb scores English only (CaRB's gold covers BenchIE's English "
            f"sentences, reference/{CARB_REFERENCE}); --lang {lang} has no CaRB gold"
        )


def load_reference(reference: ResolvedGold) -> Extractions:
    """CaRB's gold from the reference file's bytes (the ones whose sha256 was checked),
    split into lines with universal newlines as CaRB's ``open`` does."""
    text = decode_text(reference.data, reference.display_path)
    return read_gold(text_lines(text), reference.display_path)


class CarbResult(Record):
    """One submission scored with CaRB's metric."""

    name: str
    facts: FileFacts
    #: Extractions whose sentence id is not in the gold: left out, as CaRB leaves out
    #: sentences it cannot place.
    unknown: int
    #: The score under each CaRB metric asked for (``carb``, ``carb-ss``), in that order.
    scores: Mapping[str, CarbScore]
    #: Sentences of a native file that are not the benchmark's (CaRB uses only their
    #: confidences, as thresholds): said on stderr, an error under --strict.
    outside_sentences: int = 0
    #: Likely mistakes the checks found (said on stderr as hints).
    findings: tuple[Finding, ...] = ()
    #: Extractions with words their sentence lacks (CaRB scores them all the same).
    implicit: int = 0
    #: What CaRB's reader did silently that the user must know (said on stderr).
    notes: tuple[str, ...] = ()
    #: Scored by moie's rules, whose printed result has the "Zero Conf" point too.
    moie: bool = False

    @property
    def result(self) -> CarbScore:
        """The score under the first metric asked for (what ranks the systems)."""
        return next(iter(self.scores.values()))

    def as_json(self, metric: str = "carb") -> dict[str, Any]:
        """The ``carb`` (or ``carb-ss``) object of a report's system: P, R, F1 at CaRB's
        optimum, the AUC and the number of points of the curve, unrounded; scored by
        moie's rules, also ``zero_conf``, the P, R and F1 at the lowest threshold that
        moie's scorer prints beside the optimum (an F1 of 0/0 as null)."""
        result = self.scores[metric]
        p, r, f1 = result.optimal
        out: dict[str, Any] = {
            "precision": p,
            "recall": r,
            "f1": f1,
            "auc": result.auc,
            "points": len(result.curve),
        }
        if self.moie:
            out["zero_conf"] = [None if math.isnan(v) else v for v in zero_conf(result.curve)]
        if len(result.curve) == 1:  # (only then: other reports keep their bytes)
            out[SINGLE_THRESHOLD] = True
        out["curve"] = curve_of(result).as_json()
        return out

    def curves(self, metrics: Sequence[str]) -> list[tuple[str, Curve]]:
        """Each metric's curve, named for its file (``score --curves``): the system's name
        for the first metric, ``NAME.METRIC`` for another (``OpenIE-4.carb-ss``)."""
        return [
            (self.name if i == 0 else f"{self.name}.{m}", curve_of(self.scores[m]))
            for i, m in enumerate(metrics)
        ]


def score_carb(
    path: str,
    name: str,
    gold: Extractions,
    texts: Mapping[str, str],
    *,
    strict: bool = False,
    check: MistakeCheck | None = None,
    misread: str | None = None,
    metrics: Sequence[str] = ("carb",),
    lang: str = "en",
    moie: bool = False,
    restrict: bool = False,
) -> CarbResult:
    """Score the BenchIE TSV submission at ``path`` with CaRB's metric against ``gold``
    (each of ``metrics``: ``carb``, ``carb-ss``; the file is read once), of sentences in
    ``lang`` (``moie``: by moie's rules, without the test of words the sentence lacks,
    which its gold's own tuples fail: Chinese relations hold a placeholder ``X``).

    An unusable line is an error (exit 2), as for BenchIE's metric; under ``strict`` so is
    a warning, a likely mistake, an extraction of an unknown sentence id, or a file most of
    whose extractions have words their sentence lacks (exit 1).

    A file none of whose extractions can be scored is an error (exit 2), as under BenchIE's
    metric (docs/formats.md): every extraction of a sentence id the gold lacks, or every
    one of an unknown id or with words its sentence lacks while a likely mistake explains
    it. CaRB scores such extractions (it removes nothing), but their few token overlaps
    would only hide a misread file behind a small number. ``check`` runs the likely-mistake
    checks on the file's first lines (a pipe must have been spooled): the format checks
    always, the id-shift and language checks when the file looks wrong. ``misread``: why a
    file most of whose extractions have words their sentence lacks cannot be right (the
    CaRB benchmark names sentences by line number); such a file is then an error."""
    shown = display_name(path)
    head = read_head(path) if check is not None else []
    findings = tuple(check.format(head)) if check is not None else ()
    if strict and findings:
        raise strict_error(findings[0], shown)
    facts = FileFacts(printable_path(path))
    known: list[Extraction] = []
    unknown = 0
    unknown_ids: list[str] = []  # the first few, for the error of a file of none known
    for item in read_submission(path, facts):
        if isinstance(item, Diagnostic):
            if item.severity == "error":
                raise explained(BenchieError(item.message, path=shown, line=item.line), findings)
            if strict:
                raise BenchieError(
                    f"{item.message} (an error under --strict)",
                    path=shown,
                    line=item.line,
                    exit_code=ExitCode.FAILED,
                )
        elif item.sent_id in texts:
            known.append(item)
        else:
            if strict:
                raise BenchieError(
                    f"unknown sentence id {item.sent_id!r} (an error under --strict)",
                    path=shown,
                    line=item.line,
                    exit_code=ExitCode.FAILED,
                )
            unknown += 1
            if len(unknown_ids) < 3:
                unknown_ids.append(item.sent_id)
    test = ImplicitTest(texts, lang, case_sensitive=False)
    implicit = (
        0
        if moie  # (moie's gold has words its sentences lack: zh relations' placeholder X)
        else sum(
            1
            for x in known
            if test.missing(x.sent_id, f"{x.subject} {x.relation} {x.object}".split())
        )
    )
    total = len(known) + unknown
    if check is not None and (mostly_implicit(implicit, total) or 2 * unknown > total):
        findings = tuple(check.check(head, suspicious=True))
        if strict and findings:
            raise strict_error(findings[0], shown)
    if nothing_scorable(total, unknown, implicit, findings):
        raise nothing_scored(shown, total, findings, unknown_ids, lang)
    if mostly_implicit(implicit, total):
        hint = language_hint(implicit, total, lang)
        if misread is not None:
            raise BenchieError(f"{hint.partition(':')[0]}: {misread}", path=shown)
        if strict:
            raise BenchieError(
                f"{hint} (an error under --strict)", path=shown, exit_code=ExitCode.FAILED
            )
    scored = carb_scores(gold, from_submission(known, texts), metrics, moie=moie, restrict=restrict)
    return CarbResult(name, facts, unknown, scored, findings=findings, implicit=implicit, moie=moie)


def carb_signature(
    reference: ResolvedGold, metric: str = "carb", input_format: str = "auto"
) -> str:
    """The signature of CaRB's numbers: the metric, the gold version and the reference
    file's sha256 (12 hex digits), and the rules' version of a file read by versioned rules
    (``input:llm-text@1``). No option applies."""
    versioned = f"|input:{signed(input_format)}" if input_format in VERSIONS else ""
    return (
        f"benchie|lang:{reference.language}|metric:{metric}"
        f"|gold:{reference.version}@{reference.sha256[:12]}{versioned}|v:{__version__}"
    )


def signature_key(metric: str) -> str:
    """The report key of the signature of a metric after the first (``carb_signature``)."""
    return f"{metric}_signature"


def _ranks(f1s: list[float]) -> list[int]:
    return [1 + sum(1 for other in f1s if other > f1) for f1 in f1s]


def build_carb_report(
    reference: ResolvedGold,
    gold: ResolvedGold,
    results: list[CarbResult],
    *,
    failures: list[Failure] | None = None,
    input_format: str = "auto",
    metrics: Sequence[str] = ("carb",),
) -> dict[str, Any]:
    """The CaRB-only report: systems in the order given, ranked by the first metric's F1
    (``metrics``: ``carb``, ``carb-ss`` or both), each metric's signature. ``gold`` is
    the BenchIE gold whose sentence texts placed the submissions' lines."""
    choice = ",".join(metrics)
    report: dict[str, Any] = {
        "schema": REPORT_SCHEMA,
        "benchie_version": __version__,
        "metric": choice,
        "signature": carb_signature(reference, metrics[0], input_format),
        **{signature_key(m): carb_signature(reference, m, input_format) for m in metrics[1:]},
        "gold": {
            "version": reference.version,
            "language": reference.language,
            "files": [{"path": reference.display_path, "sha256": reference.sha256}],
            "sentence_texts": {"path": gold.display_path, "sha256": gold.sha256},
        },
        "options": {
            "lang": reference.language,
            "metric": choice,
            **({"input_format": input_format} if input_format != "auto" else {}),
        },
        "systems": [
            {
                "name": r.name,
                "rank": rank,
                "file": r.facts.path,
                "sha256": r.facts.sha256,
                "lines": r.facts.lines,
                "extractions": r.facts.extractions,
                "unknown_sentence_ids": r.unknown,
                **{m: r.as_json(m) for m in metrics},
            }
            for r, rank in zip(results, _ranks([r.result.optimal[2] for r in results]), strict=True)
        ],
    }
    if failures:
        report["failures"] = [f.as_json() for f in failures]
    return report


def carb_object(
    result: CarbResult, benchie: Mapping[str, Any], metric: str = "carb"
) -> dict[str, Any]:
    """A system's ``carb`` (or ``carb-ss``) object beside BenchIE's numbers:
    :meth:`CarbResult.as_json` and its ``difference`` CaRB - BenchIE for P, R and F1
    (``benchie`` holds BenchIE's ``precision``, ``recall`` and ``f1``), so that every
    report shows the same numbers."""
    numbers = result.as_json(metric)
    numbers["difference"] = {k: numbers[k] - benchie[k] for k in ("precision", "recall", "f1")}
    return numbers


def reference_json(reference: ResolvedGold) -> dict[str, str]:
    """The reference file in a report's ``gold`` (its ``carb_reference``): which CaRB gold,
    byte for byte, the ``carb`` numbers were computed against."""
    return {"path": reference.display_path, "sha256": reference.sha256}


def add_carb(
    report: dict[str, Any],
    reference: ResolvedGold,
    results: list[CarbResult],
    metrics: Sequence[str] = ("carb",),
) -> dict[str, Any]:
    """The side-by-side report: BenchIE's ``report`` (of the same systems, in the same
    order) with the metric named, each CaRB metric's signature after BenchIE's, the
    reference file in ``gold``, and per system an object per CaRB metric (``carb``,
    ``carb-ss``) whose ``difference`` is CaRB - BenchIE."""
    choice = ",".join(["benchie", *metrics])
    out: dict[str, Any] = {}
    for key, value in report.items():
        if key == "signature":
            out["metric"] = choice
            out["signature"] = value
            for m in metrics:
                out[signature_key(m)] = carb_signature(
                    reference, m, report["options"].get("input_format", "auto")
                )
        elif key == "gold":
            out["gold"] = {**value, "carb_reference": reference_json(reference)}
        elif key == "options":
            out["options"] = {**value, "metric": choice}
        elif key == "systems":
            out["systems"] = [
                {**system, **{m: carb_object(carb, system, m) for m in metrics}}
                for system, carb in zip(value, results, strict=True)
            ]
        else:
            out[key] = value
    return out


# --------------------------------------------------------------------------- views


def _leaderboard(report: dict[str, Any]) -> list[dict[str, Any]]:
    return sorted(report["systems"], key=lambda s: (s["rank"], s["name"]))


_CARB_COLUMNS = ("#", "system", "P", "R", "F1", "AUC", "points", "extractions")
#: The side-by-side table's columns after the rank (the analysis views have no rank).
SIDE_BY_SIDE_COLUMNS = (
    "system",
    "BenchIE P",
    "BenchIE R",
    "BenchIE F1",
    "CaRB P",
    "CaRB R",
    "CaRB F1",
    "diff P",
    "diff R",
    "diff F1",
)
_BOTH_COLUMNS = ("#", *SIDE_BY_SIDE_COLUMNS)
#: Below the side-by-side table: what its last three columns are.
SIDE_BY_SIDE_NOTE = "diff = CaRB - BenchIE"


def side_by_side_cells(
    benchie: Mapping[str, Any], carb: Mapping[str, Any] | Sequence[Mapping[str, Any]]
) -> list[str]:
    """The side-by-side row after the system's name: BenchIE's P, R and F1 (``benchie``),
    then for each CaRB object (``carb``, ``carb-ss``) its P, R, F1 and the signed
    differences from BenchIE's, to four decimals."""
    keys = ("precision", "recall", "f1")
    objects = [carb] if isinstance(carb, Mapping) else list(carb)
    return [
        *(f"{benchie[k]:.4f}" for k in keys),
        *(
            cell
            for o in objects
            for cell in (
                *(f"{o[k]:.4f}" for k in keys),
                *(f"{o['difference'][k]:+.4f}" for k in keys),
            )
        ),
    ]


def _carb_metrics(report: dict[str, Any]) -> list[str]:
    """The CaRB metrics of a report, in its order (``benchie`` left out)."""
    return [m for m in str(report["metric"]).split(",") if m != "benchie"]


def _labelled(columns: Sequence[str], metric: str) -> list[str]:
    label = METRICS[metric].label
    return [f"{label} {c}" for c in columns]


def _rows(report: dict[str, Any]) -> tuple[tuple[str, ...], list[list[str]]]:
    metrics = _carb_metrics(report)
    columns: tuple[str, ...]
    if not report["metric"].startswith("benchie"):
        if len(metrics) == 1:  # the columns of CaRB alone, whichever variant
            columns = _CARB_COLUMNS
        else:
            per = ("P", "R", "F1", "AUC", "points")
            columns = ("#", "system", *(c for m in metrics for c in _labelled(per, m)))
            columns = (*columns, "extractions")
        return columns, [
            [
                str(s["rank"]),
                s["name"],
                *(
                    cell
                    for m in metrics
                    for cell in (
                        f"{s[m]['precision']:.4f}",
                        f"{s[m]['recall']:.4f}",
                        f"{s[m]['f1']:.4f}",
                        f"{s[m]['auc']:.4f}",
                        str(s[m]["points"]),
                    )
                ),
                str(s["extractions"]),
            ]
            for s in _leaderboard(report)
        ]
    if metrics == ["carb"]:
        columns = _BOTH_COLUMNS
    else:
        per3 = ("P", "R", "F1")
        columns = (
            "#",
            "system",
            *SIDE_BY_SIDE_COLUMNS[1:4],
            *(c for m in metrics for c in (*_labelled(per3, m), "diff P", "diff R", "diff F1")),
        )
    return columns, [
        [str(s["rank"]), s["name"], *side_by_side_cells(s, [s[m] for m in metrics])]
        for s in _leaderboard(report)
    ]


def _note(report: dict[str, Any]) -> str:
    """What the side-by-side table's difference columns are."""
    metrics = _carb_metrics(report)
    if metrics == ["carb"]:
        return SIDE_BY_SIDE_NOTE
    return "diff = " + " / ".join(METRICS[m].label for m in metrics) + " - BenchIE"


def _signatures(report: dict[str, Any]) -> list[str]:
    """The report's signatures: BenchIE's (or the first CaRB metric's), then each other
    metric's."""
    metrics = _carb_metrics(report)
    others = metrics if report["metric"].startswith("benchie") else metrics[1:]
    return [report["signature"], *(report[signature_key(m)] for m in others)]


def _failure_lines(report: dict[str, Any]) -> list[str]:
    return [f"FAILED {f['name']}: {f['error']}" for f in report.get("failures", [])]


def to_table(report: dict[str, Any]) -> str:
    """A CaRB or side-by-side report as a fixed-width table, signature(s) below."""
    columns, rows = _rows(report)
    lines = render([list(columns), *rows], [0, *range(2, len(columns))])
    lines.extend(_failure_lines(report))
    if report["metric"].startswith("benchie"):
        lines.append(_note(report))
    lines.extend(single_threshold_notes(report["systems"], _carb_metrics(report)))
    lines.append("")
    lines.extend(_signatures(report))
    return "\n".join(lines) + "\n"


def to_markdown(report: dict[str, Any]) -> str:
    """A CaRB or side-by-side report as a markdown table, signature(s) below."""
    columns, rows = _rows(report)
    lines = [
        "| " + " | ".join(columns) + " |",
        "|" + "|".join(["---:", "---"] + ["---:"] * (len(columns) - 2)) + "|",
    ]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    if report.get("failures"):
        lines += ["", *(f"- {line}" for line in _failure_lines(report))]
    if report["metric"].startswith("benchie"):
        lines += ["", _note(report)]
    notes = single_threshold_notes(report["systems"], _carb_metrics(report))
    if notes:
        lines += ["", *(f"- {line}" for line in notes)]
    for signature in _signatures(report):
        lines += ["", f"`{signature}`"]
    return "\n".join(lines) + "\n"
