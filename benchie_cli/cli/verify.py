"""``benchie verify``: re-deriving a score report byte for byte."""

from __future__ import annotations

import sys

import click

from benchie_cli.cli.common import GOLD_DIR_HELP, JOBS
from benchie_cli.cli.group import EPILOG_EXIT
from benchie_cli.errors import ExitCode


@click.command(epilog=EPILOG_EXIT, short_help="Re-derive a score report and compare it.")
@click.argument("report_file", metavar="REPORT.json")
@click.argument("submissions", nargs=-1, metavar="[SUBMISSION...]")
@click.option(
    "--gold-dir",
    default=None,
    metavar="DIR",
    help=GOLD_DIR_HELP,
)
@click.option(
    "--gold-file",
    default=None,
    metavar="FILE",
    help="The gold file of a report scored with --gold-file (not for a report of "
    "--metric carb or --benchmark carb, whose gold is the store's).",
)
@click.option("--jobs", type=JOBS, default=None, help="Processes for large submission files.")
@click.option(
    "--sentences",
    default=None,
    metavar="FILE",
    help="The subset's file of a report scored with --sentences [default: the file the "
    "report names]; its sha256 must be the report's.",
)
def verify(
    report_file: str,
    submissions: tuple[str, ...],
    gold_dir: str | None,
    gold_file: str | None,
    jobs: int | None,
    sentences: str | None,
) -> None:
    """Re-derive a `score` JSON report: resolve the gold it names (by sha256), check each
    submission's sha256, score again with the report's options and compare byte for byte.

    REPORT is a file, or - for standard input. SUBMISSIONs (PATH or NAME=PATH, as `score`
    reads them) are the report's systems in order (default: each system's `file`); a NAME
    given must be the report's name of that system. Exit 1 names every field that differs
    (`systems[0].f1: report ... != re-derived ...`); exit 2 for a report of another schema
    or version, or one that is not JSON. A report of `score
    --benchmark NAME` (any benchmark `benchie benchmark list` names) is re-derived against
    the version and split it names, reading each submission with the input format it
    records; a report of `score --suite` against every benchmark of the store again. The
    index cache is never read: the gold is parsed from its bytes.

    \b
    Examples:
      benchie verify report.json examples/submissions/en/clausie.tsv
      benchie verify report.json
      benchie verify carb-report.json openie4_output.txt
      benchie verify suite.json OpenIE4=oie4.txt OpenIE5=oie5.txt
      benchie verify - < suite.json
    """
    from benchie_cli.verify import MISMATCHES_SHOWN
    from benchie_cli.verify import verify as run_verify

    verdict = run_verify(
        report_file,
        list(submissions),
        gold_dir=gold_dir,
        gold_file=gold_file,
        jobs=jobs,
        sentences=sentences,
    )
    for note in verdict.notes:
        click.echo(f"benchie: note: {note}", err=True)
    if verdict.identical:
        click.echo(
            f"ok: {verdict.report} re-derived byte for byte ({verdict.systems} {verdict.unit})"
        )
        return
    for mismatch in verdict.mismatches[:MISMATCHES_SHOWN]:
        click.echo(f"{verdict.report}: mismatch: {mismatch}", err=True)
    hidden = len(verdict.mismatches) - MISMATCHES_SHOWN
    if hidden > 0:
        click.echo(f"{verdict.report}: ... and {hidden} more mismatch(es)", err=True)
    click.echo(
        f"benchie: {verdict.report} does not re-derive: {len(verdict.mismatches)} field(s) differ",
        err=True,
    )
    sys.exit(int(ExitCode.FAILED))
