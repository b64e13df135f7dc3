"""The Codabench scoring program for a benchmark other than BenchIE's (``"benchmark"`` in
``ref/benchie.json``, docs/platform.md): CaRB, OIE2016, Re-OIE2016 or any other the
registry lets a competition score (``Benchmark.platform``).

A submission is one file per language, as for BenchIE (:func:`score.find_submission`); each
is scored as ``benchie score --benchmark NAME --lang L --split S --metric M`` scores it (the
one path every benchmark takes, :mod:`benchie_cli.benchmarks.runner`), with the reference
file's pin as its ``--expect-gold``. Every pin is checked before any submission is read.
``scores.json`` has ``L_M_precision``, ``L_M_recall``, ``L_M_f1``, ``L_M_auc`` for each
language L and metric M, then ``mean_f1``; a language without a file scores 0, said.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchie_cli import __version__
from benchie_cli.benchmarks import runner
from benchie_cli.errors import BenchieError, ExitCode
from benchie_cli.inputs.batch import Submission
from benchie_cli.platform.score import (
    DETAILS_NAME,
    SCORES_NAME,
    SPEC_NAME,
    STYLE,
    PlatformSpec,
    Say,
    SubmittedFile,
    find_submission,
    finite,
    for_participants,
    ignored_paragraph,
    metric_key,
    score_as_submitted,
    score_keys,
)
from benchie_cli.registry import BENCHMARKS, METRICS
from benchie_cli.textio import atomic_write, temporary_directory

#: The numbers of each metric a leaderboard shows, as a report's metric object names them.
NUMBERS = ("precision", "recall", "f1", "auc")


@dataclass
class Scored:
    """One language: the file scored (None: not submitted), each metric's numbers, the
    report it came from, and the gold's sha256."""

    lang: str
    shown: str | None
    gold_sha256: str
    numbers: dict[str, tuple[float, ...]] = field(default_factory=dict)
    report: dict[str, Any] | None = None


def _request(
    spec: PlatformSpec, lang: str, gold_dir: Path | None, batch: tuple[Submission, ...] = ()
) -> runner.Request:
    return runner.Request(
        batch,
        spec.benchmark,
        ",".join(spec.metrics),
        gold_dir=None if gold_dir is None else str(gold_dir),
        gold_version=spec.gold_version,
        lang=lang,
        split=spec.split,
        expect_gold=spec.gold_sha256[lang],
    )


def check_pin(spec: PlatformSpec, lang: str, gold_dir: Path | None) -> str:
    """The sha256 of ``lang``'s gold, refused (exit 1) unless it is the one the reference
    file pins."""
    request = _request(spec, lang, gold_dir)
    runner.check(request)
    sha256, shown = runner.runner(spec.benchmark).gold(request)
    pinned = spec.gold_sha256[lang]
    if sha256 != pinned:
        raise BenchieError(
            f"gold {shown} has sha256 {sha256}, not the {pinned} that ref/{SPEC_NAME} pins "
            f"for {lang!r}",
            exit_code=ExitCode.FAILED,
        )
    return sha256


def _score(
    spec: PlatformSpec, file: SubmittedFile, gold_dir: Path | None, say: Say
) -> dict[str, Any]:
    """The report of one language's file, its paths as the participant knows them."""
    real = str(file.path)

    def said(line: str) -> None:
        say(for_participants(line, file, spec.languages))

    request = _request(spec, file.lang, gold_dir, (Submission(file.lang, real),))
    report = score_as_submitted(request, file, said, spec.languages).report
    report["systems"][0]["file"] = file.shown
    return report


def score_benchmark(
    spec: PlatformSpec, input_dir: Path, output_dir: Path, gold_dir: Path | None, say: Say
) -> dict[str, float]:
    """Score a submission on ``spec.benchmark``; write the page, then ``scores.json``."""
    label = BENCHMARKS[spec.benchmark].label
    with temporary_directory("benchie-platform-") as tmp:
        golds = {lang: check_pin(spec, lang, gold_dir) for lang in spec.languages}
        submission = find_submission(input_dir / "res", spec, Path(tmp))
        for where in submission.ignored:
            say(f"{where}: note: not scored (this task scores {', '.join(spec.languages)})")
        results = []
        for lang in spec.languages:
            file = submission.files.get(lang)
            result = Scored(lang, file.shown if file else None, golds[lang])
            if file is None:
                say(f"res: note: no file for {lang!r} ({lang}.tsv): its scores are 0")
            else:
                report = _score(spec, file, gold_dir, say)
                system = report["systems"][0]
                for metric in spec.metrics:
                    result.numbers[metric] = tuple(finite(system[metric].get(k)) for k in NUMBERS)
                    p, r, f1, auc = result.numbers[metric]
                    say(
                        f"{file.shown}: {METRICS[metric].label}: P {p:.4f} R {r:.4f} F1 "
                        f"{f1:.4f} AUC {auc:.4f}"
                    )
                result.report = report
            results.append(result)
    scores: dict[str, float] = {}
    for result in results:
        for metric in spec.metrics:
            values = result.numbers.get(metric, (0.0,) * len(NUMBERS))
            key = metric_key(metric)
            scores.update(
                {f"{result.lang}_{key}_{n}": v for n, v in zip(NUMBERS, values, strict=True)}
            )
    first = [r.numbers.get(spec.metrics[0], (0.0,) * len(NUMBERS))[2] for r in results]
    scores["mean_f1"] = finite(sum(first) / len(first))
    assert list(scores) == score_keys(spec)
    page = _page(spec, label, results, submission.ignored, private=gold_dir is not None)
    atomic_write(str(output_dir / DETAILS_NAME), page.encode("utf-8"))
    data = json.dumps(scores, indent=2, allow_nan=False) + "\n"
    atomic_write(str(output_dir / SCORES_NAME), data.encode("utf-8"))  # last: success
    return scores


def _page(
    spec: PlatformSpec, label: str, results: list[Scored], ignored: list[str], *, private: bool
) -> str:
    """One self-contained page: per language the file scored, each metric's numbers and
    the report's signature, the gold's sha256 and the submission's."""
    e = html.escape
    out = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{e(label)} results</title><style>{STYLE}</style></head><body>",
        f"<h1>{e(label)} results</h1>",
        f"<p>{e(label)} gold {e(spec.gold_version)}, split {e(str(spec.split))} "
        f"({'private' if private else 'public'} gold store), scored by benchie "
        f"{e(__version__)}; metrics: {e(', '.join(spec.metrics))}.</p>",
    ]
    out += ignored_paragraph(ignored)
    for r in results:
        out.append(f"<h2>{e(r.lang)}</h2><p>Gold sha256 <code>{e(r.gold_sha256)}</code></p>")
        if r.shown is None or r.report is None:
            out.append(
                f"<p class='missing'>missing: no file for {e(r.lang)} was submitted; every "
                f"score of {e(r.lang)} is 0.</p>"
            )
            continue
        system = r.report["systems"][0]
        out.append(
            f"<p>File <code>{e(r.shown)}</code>, sha256 <code>{e(system['sha256'])}</code>, "
            f"{system['extractions']} extractions</p>"
        )
        out.append(
            "<table><tr><th>metric</th><th>precision</th><th>recall</th><th>F1</th>"
            "<th>AUC</th></tr>"
        )
        for metric, values in r.numbers.items():
            cells = "".join(f"<td class='n'>{v:.4f}</td>" for v in values)
            out.append(f"<tr><td>{e(METRICS[metric].label)}</td>{cells}</tr>")
        out.append(f"</table><p>Signature <code>{e(r.report['signature'])}</code></p>")
    out.append("</body></html>\n")
    return "\n".join(out)
