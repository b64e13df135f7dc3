"""``benchie platform score``: the scoring program of a Codabench competition
(``benchie_cli.platform``; the contract is docs/platform.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from benchie_cli.cli.common import say
from benchie_cli.cli.group import EPILOG_EXIT, BenchieGroup


@click.group(cls=BenchieGroup, epilog=EPILOG_EXIT)
def platform() -> None:
    """Programs for benchmark platforms (Codabench).

    \b
    Example:
      benchie platform score /app/input /app/output
    """


@platform.command("score", epilog=EPILOG_EXIT)
@click.argument("input_dir", metavar="INPUT", type=click.Path(file_okay=False, path_type=Path))
@click.argument("output_dir", metavar="OUTPUT", type=click.Path(file_okay=False, path_type=Path))
def platform_score(input_dir: Path, output_dir: Path) -> None:
    """Codabench's scoring program: score the participant's files in INPUT/res/ (en.tsv,
    de.tsv, zh.tsv; or in one folder or one .zip) against the gold that INPUT/ref/benchie.json
    pins (INPUT/ref/gold/ may hold a private gold store), and write
    OUTPUT/detailed_results.html, then OUTPUT/scores.json.

    A language the reference chooses but the submission lacks scores 0. Any error (a file
    that cannot be scored, a gold whose sha256 is not the pinned one: exit 1) is one line
    on stderr, naming the participant's file, and no scores.json is written, so the
    platform marks the submission failed. See docs/platform.md.

    \b
    Example:
      benchie platform score /app/input /app/output
    """
    from benchie_cli.platform import SCORES_NAME, SubmissionFailed, score_platform

    try:
        scores = score_platform(input_dir, output_dir, say=say)
    except SubmissionFailed as exc:  # its line was said as it failed
        sys.exit(int(exc.exit_code))
    say(f"wrote {output_dir / SCORES_NAME} (mean_f1 {scores['mean_f1']:.4f})")
