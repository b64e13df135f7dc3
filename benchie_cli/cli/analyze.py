"""``benchie analyze``: the profile of systems (intervals, significance, every facet,
error buckets, cliques), by ``api.analyze``."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from benchie_cli.analysis.profile import TESTS
from benchie_cli.api import ANALYZE_METRICS
from benchie_cli.cli.common import (
    EXAMPLES,
    JOBS,
    RESAMPLES,
    SEED,
    gold_options,
    input_format_option,
    load_gold,
    retokenize_option,
    say,
    say_written,
    summarise_warnings,
)
from benchie_cli.cli.group import EPILOG_EXIT, set_verdict
from benchie_cli.errors import BenchieError, ExitCode
from benchie_cli.inputs.batch import expand
from benchie_cli.outputs import ANALYSIS_EXTENSIONS, check_output, format_of_name
from benchie_cli.registry import metrics_of
from benchie_cli.textio import STDIN, atomic_write


@click.command(epilog=EPILOG_EXIT, short_help="Profile systems: intervals, significance, errors.")
@click.argument("submissions", nargs=-1, required=True, metavar="SUBMISSION...")
@gold_options(facet=False)
@click.option(
    "--buckets",
    "bucket_file",
    default=None,
    metavar="FILE",
    help="Score per bucket of sentences given as sent_id<TAB>bucket lines "
    "(sentence length buckets are always shown).",
)
@click.option(
    "--cliques",
    "clique_file",
    default=None,
    metavar="FILE",
    help="Clique robustness (ROBUST): per clique of paraphrases given as sent_id<TAB>clique "
    "lines, the scores of its worst sentence, and the F1 variance per clique.",
)
@click.option(
    "--resamples",
    type=RESAMPLES,
    default=1000,
    show_default=True,
    help="Bootstrap resamples (or randomisation trials).",
)
@click.option(
    "--seed",
    type=SEED,
    default=12345,
    show_default=True,
    help="Seed of the resampling: same seed, same numbers.",
)
@click.option(
    "--test",
    type=click.Choice(TESTS),
    default="bootstrap",
    show_default=True,
    help="Significance test of F1 differences: paired bootstrap or approximate randomisation.",
)
@click.option(
    "--examples",
    type=EXAMPLES,
    default=3,
    show_default=True,
    help="Example extractions kept per error bucket.",
)
@click.option("--strip-implicit/--keep-implicit", default=True, show_default=True)
@click.option("--case-sensitive", is_flag=True, help="Case-sensitive implicit test.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "html"]),
    default=None,
    help="[default: text on stdout; with -o by the extension: json for *.json or no "
    "extension, html for *.html, text for *.txt; any other extension refused]",
)
@click.option("-o", "--output", default=None, metavar="FILE", help="Write here, atomically.")
@click.option(
    "--jobs",
    type=JOBS,
    default=None,
    help="Processes for large submission files and CaRB's per-sentence statistics "
    "[default: one per core]. Never changes a number.",
)
@click.option(
    "--metric",
    type=click.Choice(ANALYZE_METRICS),
    default="benchie",
    show_default=True,
    help="benchie,carb adds CaRB's numbers beside BenchIE's (the BenchIE paper's Table 5; "
    "English, against the gold version's CaRB reference file).",
)
@input_format_option
@retokenize_option
def analyze(
    submissions: tuple[str, ...],
    lang: str,
    gold_version: str,
    gold_file: str | None,
    gold_dir: str | None,
    bucket_file: str | None,
    clique_file: str | None,
    resamples: int,
    seed: int,
    test: str,
    examples: int,
    strip_implicit: bool,
    case_sensitive: bool,
    fmt: str | None,
    output: str | None,
    jobs: int | None,
    metric: str,
    input_format: str,
    retokenize: bool,
) -> None:
    """Profile systems (paper §5): confidence intervals and significance, every facet, slot
    errors and error buckets with examples, scores per bucket of sentences, and with
    --cliques, robustness over cliques of paraphrases (ROBUST).

    SUBMISSIONs as for `score` (files, NAME=PATH, directories); each is read once per facet,
    so standard input is not accepted.

    \b
    Examples:
      benchie analyze --lang en examples/submissions/en/
      benchie analyze --lang en examples/submissions/en/ -o analysis.html
      benchie analyze --buckets conjuncts.tsv --test ar --seed 7 a.tsv b.tsv -o a_vs_b.json
      benchie analyze --metric benchie,carb examples/submissions/en/ -o table5.html
    """
    from benchie_cli import api
    from benchie_cli.analysis.views import to_html, to_text
    from benchie_cli.benchmarks.benchie.run import check_metric_options
    from benchie_cli.benchmarks.benchie.scoring import SystemResult
    from benchie_cli.report import to_json

    if fmt is None:  # (before any work: a refused name costs nothing)
        fmt = (
            "text"
            if output in (None, STDIN)
            else format_of_name(output, ANALYSIS_EXTENSIONS, command="analyze")
        )
    batch = expand(submissions)
    if any(s.path == STDIN for s in batch):
        raise BenchieError("analyze reads each submission once per facet: give a file, not '-'")
    gold = load_gold(gold_dir, gold_version, gold_file, lang)
    check_metric_options(metric, gold)
    inputs: list[str | Path] = [*(s.path for s in batch), *gold.resolved.inputs]
    if any(m.reference for m in metrics_of(metric)):
        inputs.extend(gold.carb_reference.inputs)
    check_output(
        output,
        [*inputs, *(f for f in (bucket_file, clique_file) if f is not None)],
        stores=[gold.store_root],
    )

    def on_outcome(outcome: object) -> None:  # (a failure is said by the API)
        if isinstance(outcome, SystemResult):
            summarise_warnings(outcome, lang)

    try:
        report = api.analyze(
            gold,
            *(s.path for s in batch),
            names=[s.name for s in batch],
            buckets=bucket_file,
            cliques=clique_file,
            resamples=resamples,
            seed=seed,
            test=test,
            examples=examples,
            strip_implicit=strip_implicit,
            case_sensitive=case_sensitive,
            retokenize=retokenize,
            jobs=jobs,
            input_format=input_format,
            metric=metric,
            say=say,
            on_outcome=on_outcome,
        )
    except api.NothingScored as exc:  # each failure is said: exit with the worst
        sys.exit(int(exc.exit_code))
    if report.get("failures"):
        set_verdict(int(ExitCode.FAILED))
    data = {
        "json": lambda: to_json(report),
        "text": lambda: to_text(report).encode(),
        "html": lambda: to_html(report).encode(),
    }[fmt]()
    atomic_write(output or STDIN, data)
    say_written(output, fmt, f"{len(report['systems'])} system(s), gold {gold.version}")
    if report.get("failures"):
        sys.exit(int(ExitCode.FAILED))
