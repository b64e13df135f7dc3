"""``benchie plot``: the precision-recall curves of one benchmark's reports in one figure
(``benchie_cli.analysis.plot``)."""

from __future__ import annotations

import click

from benchie_cli.cli.common import say_written
from benchie_cli.cli.group import EPILOG_EXIT
from benchie_cli.errors import BenchieError


@click.command(epilog=EPILOG_EXIT, short_help="Draw the precision-recall curves of reports.")
@click.argument("reports", nargs=-1, required=True, metavar="REPORT.json...")
@click.option(
    "-o",
    "--output",
    required=True,
    metavar="FILE",
    help="Write the figure here, atomically: FILE.svg, FILE.pdf or FILE.png.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["svg", "pdf", "png"]),
    default=None,
    help="The figure's format [default: the output's suffix].",
)
@click.option(
    "--metric",
    default=None,
    metavar="NAME",
    help="Whose curves, for reports of several metrics (--metric carb,carb-ss) [default: "
    "the first metric with a curve].",
)
def plot(reports: tuple[str, ...], output: str, fmt: str | None, metric: str | None) -> None:
    """Draw the precision-recall curves of the systems of REPORTs (JSON reports of `benchie
    score` against one benchmark and gold) in one figure sized for a paper's column: one
    line per system, its points those of the report's `curve` (docs/reports.md#curves).
    A system without a curve to draw is left out with a warning; no curve at all is an
    error (exit 2). Only the reports are read, never a gold or a submission: no --gold-dir.
    Needs matplotlib: pip install 'benchie-cli[plot]'.

    \b
    Examples:
      benchie plot carb.json -o carb.svg
      benchie plot openie4.json clausie.json -o oie2016.pdf
    """
    from benchie_cli.analysis import plot as figure
    from benchie_cli.outputs import check_output
    from benchie_cli.textio import STDIN, atomic_write

    if output == STDIN:
        raise BenchieError("-o -: the figure is written to a file, not to standard output")
    kind = figure.format_of(output, fmt)
    check_output(output, reports)
    figure.check_matplotlib()
    read = [(path, figure.read(path)) for path in reports]
    drawn = figure.collect(read, metric)
    for omitted in drawn.omitted:
        click.echo(f"benchie: {omitted}", err=True)
    atomic_write(output, figure.render(drawn, kind))
    say_written(output, kind, f"{len(drawn.series)} curve(s), {drawn.metric}")
