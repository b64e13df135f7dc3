"""The Codabench scoring program (``benchie platform score INPUT OUTPUT``, docs/platform.md):
the checks every task makes, then the task's benchmark: BenchIE's gold by language and
facet (:func:`score.score_benchie`), or another benchmark (:mod:`.benchmarks`)."""

from __future__ import annotations

from pathlib import Path

from benchie_cli.platform.benchmarks import score_benchmark
from benchie_cli.platform.score import Say, prepare, score_benchie


def _quiet(_: str) -> None:
    pass


def score_platform(input_dir: Path, output_dir: Path, *, say: Say = _quiet) -> dict[str, float]:
    """Score a Codabench submission: read ``input_dir/ref`` and ``input_dir/res``, write
    ``output_dir/detailed_results.html`` then ``output_dir/scores.json`` (never
    ``metadata``), and return the scores. Any failure raises
    :class:`~benchie_cli.errors.BenchieError` (a participant's file that cannot be scored:
    :class:`~benchie_cli.platform.score.SubmissionFailed`, said already) and leaves no
    ``scores.json``."""
    input_dir, output_dir = Path(input_dir), Path(output_dir)
    spec, gold_dir = prepare(input_dir, output_dir)
    if spec.by_facets:
        return score_benchie(spec, input_dir, output_dir, gold_dir, say)
    return score_benchmark(spec, input_dir, output_dir, gold_dir, say)
