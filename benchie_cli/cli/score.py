"""``benchie score``: a leaderboard of submissions against a gold with BenchIE's metric,
CaRB's, or both side by side (``api.score``), and the CaRB benchmark (``--benchmark carb``,
``metrics.carb_benchmark``)."""

from __future__ import annotations

import contextlib
import sys
from typing import TYPE_CHECKING, Any

import click

from benchie_cli.cli.common import (
    JOBS,
    PROGRESS_MIN,
    exit_on_failures,
    gold_options,
    input_format_option,
    retokenize_option,
    say,
    say_once,
    say_written,
    summarise_warnings,
)
from benchie_cli.cli.group import EPILOG_EXIT, set_verdict
from benchie_cli.errors import BenchieError, ExitCode
from benchie_cli.gold.dirs import resolve
from benchie_cli.inputs.batch import expand
from benchie_cli.inputs.mistakes import CODES as MISTAKE_CODES
from benchie_cli.outputs import check_output
from benchie_cli.registry import (
    BENCHMARKS,
    DEFAULT_BENCHMARK,
    METRICS,
    SPLITS,
    benchmark_of,
    metrics_of,
)
from benchie_cli.textio import STDIN, atomic_write, display_name

if TYPE_CHECKING:
    from benchie_cli.benchmarks.benchie.scoring import SystemResult


@click.command(epilog=EPILOG_EXIT, short_help="Score submissions and print a leaderboard.")
@click.argument("submissions", nargs=-1, required=True, metavar="SUBMISSION...")
@gold_options(every_benchmark=True)
@click.option(
    "--strip-implicit/--keep-implicit",
    default=True,
    show_default=True,
    help="Remove extractions with tokens absent from their sentence before scoring.",
)
@click.option(
    "--case-sensitive", is_flag=True, help="Compare tokens case-sensitively in the implicit test."
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "json", "markdown", "html", "latex", "csv"], case_sensitive=False),
    default=None,
    help="Output format [default: table on stdout; with -o by the extension: json for "
    "*.json or no extension, html for *.html, markdown for *.md, table for *.txt, and "
    "with --suite also latex for *.tex and csv for *.csv; any other extension refused]. "
    "html: one self-contained leaderboard page with 95% bootstrap intervals and pairwise "
    "significance (BenchIE's metric only), or with --suite the suite's table. latex and "
    "csv: --suite only.",
)
@click.option(
    "-o",
    "--output",
    type=str,
    default=None,
    metavar="FILE",
    help="Write the report here, atomically ('-' for stdout).",
)
@click.option("--per-sentence", is_flag=True, help="Add per-sentence counts to the JSON report.")
@click.option(
    "--jobs",
    type=JOBS,
    default=None,
    help="Processes to score with [default: one per core]: BenchIE's metric reads a "
    "submission of 16 MB or more in parts; CaRB's and OIE2016's metrics share out their "
    "per-sentence statistics when there are enough. Never changes a number.",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Fail (exit 1) on what is otherwise a warning: unknown sentence ids "
    "(unknown-sentence-id), empty slots (empty-slot), extractions mostly implicit (the wrong "
    "--lang), sentences of a native file that align to no gold sentence or to several, "
    "sentences outside CaRB's split (--benchmark carb), "
    f"the likely mistakes ({', '.join(MISTAKE_CODES)}), and a gold with errors its reader "
    "skips or repairs.",
)
@click.option(
    "--expect-gold",
    metavar="SHA256",
    default=None,
    help="Refuse to score (exit 1) unless the gold's sha256 is this, or starts with this "
    "(12 hex digits at least, as in the signature).",
)
@click.option(
    "--metric",
    default=None,
    metavar="NAME[,NAME...]",
    help="Metrics, joined by commas, all computed in one pass: "
    + "; ".join(f"{m.name}: {m.label} ({m.doc})" for m in METRICS.values())
    + ". benchie,carb puts CaRB's numbers beside BenchIE's (docs/carb-beside-benchie.md). "
    "[default: the benchmark's first; benchie]",
)
@click.option(
    "--benchmark",
    type=click.Choice(tuple(BENCHMARKS)),
    default=None,
    help="Whose gold: "
    + "; ".join(
        f"{b.name}: {b.label} ({', '.join(b.metrics)}"
        + (", added with `benchie benchmark add`" if b.external else "")
        + ")"
        for b in BENCHMARKS.values()
    )
    + ". --gold-version then defaults to the benchmark's latest version [default: benchie, "
    "or the one benchmark whose metric --metric names].",
)
@click.option(
    "--suite",
    is_flag=True,
    help="Score one system output (OpenIE 4, OpenIE 5 or CaRB tab: lines name their "
    "sentence by its text) against every benchmark in the gold store: BenchIE (every facet), "
    "CaRB (s,m) and (s,s), OIE2016 (both scorers), and every published gold once added "
    "(Re-OIE2016, WiRe57, DocOIE, LSOIE, other languages), grouped by language; one table, a "
    "signature per row (docs/suite.md).",
)
@click.option(
    "--with-pr",
    is_flag=True,
    help="--suite: show each benchmark's precision and recall beside F1 and AUC (the JSON "
    "and CSV always hold them).",
)
@click.option(
    "--split",
    type=click.Choice(SPLITS),
    default=None,
    help="The benchmark's split: "
    + "; ".join(f"{b.name}: {', '.join(b.splits)}" for b in BENCHMARKS.values() if b.splits)
    + " [default: the first].",
)
@click.option(
    "--curves",
    metavar="DIR",
    default=None,
    help="Also write each system's precision-recall curve into DIR (which must exist) as "
    "its original scorer writes it, one file per system named after it: "
    + "; ".join(f"{m.name}: {m.curve_file}" for m in METRICS.values() if m.curve_file)
    + " (docs/reports.md#curves).",
)
@click.option(
    "--sentences",
    metavar="FILE",
    default=None,
    help="Score only the gold sentences FILE lists, one a line: its id (as `benchie "
    "sentences` prints it) or its text. Precision and recall are over those sentences "
    "alone; the signature and the report name the subset (subset:N@SHA256). A line that "
    "names no gold sentence is an error (docs/subsets.md).",
)
@input_format_option
@retokenize_option
def score(
    submissions: tuple[str, ...],
    lang: str,
    facet: str,
    gold_version: str,
    gold_file: str | None,
    gold_dir: str | None,
    strip_implicit: bool,
    case_sensitive: bool,
    fmt: str | None,
    output: str | None,
    per_sentence: bool,
    jobs: int | None,
    strict: bool,
    expect_gold: str | None,
    metric: str | None,
    benchmark: str | None,
    suite: bool,
    with_pr: bool,
    split: str | None,
    input_format: str,
    retokenize: bool,
    curves: str | None,
    sentences: str | None,
) -> None:
    """Score SUBMISSIONs (PATH, NAME=PATH, - for stdin, or a directory: every *.tsv in it)
    against BenchIE gold, and print or write a leaderboard sorted by F1.

    A submission has one extraction per line: sent_id, subject, relation, object,
    TAB-separated; further columns are joined into the object (n-ary). A submission that
    cannot be scored is reported with its error and the others are scored; the run then
    exits 1 (2 when none could be scored, and no report is written).

    \b
    Examples:
      benchie score --lang en examples/submissions/en/
      benchie score --facet concat -o report.json mine=out.tsv
      benchie score --lang en examples/submissions/en/ -o leaderboard.html
      cat out.tsv | benchie score --lang de --format markdown -
      benchie score --benchmark carb --metric carb,carb-ss openie4_output.txt
      benchie score --benchmark oie2016 --split test --input-format openie4 out.txt
      benchie score --benchmark carb --split test --sentences my50.txt out.txt
      benchie score --suite openie4_output.txt
      benchie score --suite OpenIE4=oie4.txt OpenIE5=oie5.txt -o suite.tex
    """
    from benchie_cli.benchmarks import runner

    fmt = _format(fmt, output, suite=suite)
    ctx = click.get_current_context()
    given = {
        name
        for name in ctx.params
        if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE
    }
    if suite and curves is not None:
        raise BenchieError("--curves writes the curves of one benchmark's run, not of --suite")
    if suite:
        _score_suite(submissions, given, gold_dir, fmt, output, input_format, with_pr, jobs)
        return
    if fmt in _SUITE_FORMATS or with_pr:
        raise BenchieError(
            f"{'--with-pr' if with_pr else f'--format {fmt}'} is the suite's (--suite): "
            "a leaderboard is written as table, markdown, json or html"
        )
    benchmark = benchmark or (benchmark_of(metric) if metric else DEFAULT_BENCHMARK)
    request = runner.Request(
        (),
        benchmark,
        metric,
        gold_dir=gold_dir,
        gold_version=gold_version if "gold_version" in given else None,
        gold_file=gold_file,
        lang=lang,
        facet=facet,
        split=split,
        strip_implicit=strip_implicit,
        case_sensitive=case_sensitive,
        retokenize=retokenize,
        per_sentence=per_sentence,
        strict=strict,
        expect_gold=expect_gold,
        input_format=input_format,
        jobs=jobs,
        output=output,
        sentences=sentences,
    )
    runner.check_metric(request)
    by_language = BENCHMARKS[benchmark].by_language
    page = by_language and all(m.benchie_options for m in metrics_of(request.metrics))
    if fmt == "html" and not page:  # the leaderboard page is BenchIE's metric's
        option = f"--benchmark {benchmark}" if not by_language else f"--metric {metric}"
        raise BenchieError(
            f"the html leaderboard page shows BenchIE's metric only; {option} does not apply "
            "(use --format json, table or markdown)"
        )
    runner.check(request)  # every option, before any submission is looked at
    if curves is not None:
        _check_curves(curves, request)
    batch = tuple(expand(submissions))
    request = request._replace(batch=batch)
    # (made only when shown: click's bar imports its terminal code, a cost for every run)
    bar = (
        click.progressbar(length=len(batch), label="scoring", file=sys.stderr)
        if len(batch) >= PROGRESS_MIN and sys.stderr is not None and sys.stderr.isatty()
        else None
    )
    with bar if bar is not None else contextlib.nullcontext():

        def on_outcome(outcome: object) -> None:  # (a failure is said by the runner)
            # (a BenchIE result: only a run that imported its scorer can have one)
            scoring = sys.modules.get("benchie_cli.benchmarks.benchie.scoring")
            if scoring is not None and isinstance(outcome, scoring.SystemResult):
                summarise_warnings(outcome, lang)
            if bar is not None:
                bar.update(1)

        hooks = runner.Hooks(say=say, notice=say_once, on_outcome=on_outcome)
        try:
            outcome = runner.score(request, hooks)
        except runner.NothingScored as exc:  # each failure is said: exit with the worst
            sys.exit(int(exc.exit_code))
    if outcome.failures:
        set_verdict(int(ExitCode.FAILED))
    if curves is not None:  # (checked before the report is written: one failure, no report)
        from benchie_cli.outputs import write_curves

        written = write_curves(
            curves,
            outcome.curves,
            request.paths,
            report=output,
            systems=[str(s.get("name")) for s in outcome.report.get("systems", [])],
            metrics=[m.name for m in metrics_of(request.metrics) if m.curve_file],
        )
        for path, whose in written:  # (which file is whose: names are made file-safe)
            say(f"wrote {display_name(path)} ({whose})")
    write_score_report(outcome.report, fmt, output, outcome.label, list(outcome.results))
    exit_on_failures(len(outcome.failures), outcome.total)


def _check_curves(directory: str, request: Any) -> None:
    """Refuse ``--curves DIR`` before any work: a metric whose original scorer writes no
    curve file, or a directory that does not exist or lies in a gold store."""
    from pathlib import Path

    from benchie_cli.outputs import check_curves_directory

    without = [m.label for m in metrics_of(request.metrics) if not m.curve_file]
    if without and len(without) == len(metrics_of(request.metrics)):
        raise BenchieError(
            f"--curves: {', '.join(without)} has no curve file of its original scorer to "
            "write (curves are written for "
            + ", ".join(m.label for m in METRICS.values() if m.curve_file)
            + ")"
        )
    check_curves_directory(
        directory, stores=[Path(request.gold_dir)] if request.gold_dir is not None else []
    )


#: What ``--suite`` chooses itself: each benchmark's default gold, split and metrics.
_SUITE_REFUSES = (
    "metric",
    "benchmark",
    "split",
    "gold_version",
    "gold_file",
    "lang",
    "facet",
    "strip_implicit",
    "case_sensitive",
    "per_sentence",
    "retokenize",
    "expect_gold",
    "strict",
    "sentences",
)


#: The formats only the suite writes.
_SUITE_FORMATS = ("latex", "csv")


def _score_suite(
    submissions: tuple[str, ...],
    given: set[str],
    gold_dir: str | None,
    fmt: str,
    output: str | None,
    input_format: str,
    with_pr: bool,
    jobs: int | None,
) -> None:
    """``score --suite FILE...``: every benchmark of the store on each system output;
    ``jobs``: the processes its per-sentence statistics may be shared out to."""
    from benchie_cli import suite, suite_views
    from benchie_cli.workers import allowed

    refused = [_as_given(n) for n in _SUITE_REFUSES if n in given]
    if refused:
        raise BenchieError(
            f"--suite scores each benchmark with its own gold and metrics; {', '.join(refused)} "
            f"{'does' if len(refused) == 1 else 'do'} not apply (score one benchmark with "
            "--benchmark for that)"
        )
    systems = expand(submissions, every_file=True)
    root = resolve(gold_dir)
    check_output(output, [s.path for s in systems], stores=[root])
    with allowed(jobs):
        report = suite.run_systems(
            [(s.name, s.path) for s in systems], input_format, root, say=say, curves=fmt == "html"
        )
    measures = tuple(suite_views.MEASURES) if with_pr else suite_views.DEFAULT_MEASURES
    data = suite_views.render_as(report, fmt, measures)
    atomic_write(output or STDIN, data)
    say_written(output, fmt, f"suite: {len(systems)} system(s)")


def _as_given(name: str) -> str:
    """The option of parameter ``name`` as the user typed it: of an on/off pair the one
    whose value it has (``--keep-implicit``, not ``--strip-implicit``), else its long form;
    an error must name what the user wrote."""
    ctx = click.get_current_context()
    param = next(p for p in ctx.command.params if p.name == name)
    off = isinstance(param, click.Option) and param.secondary_opts and not ctx.params[name]
    return max(param.secondary_opts if off else param.opts, key=len)


def _format(fmt: str | None, output: str | None, *, suite: bool = False) -> str:
    """The format asked for, or the default: table on stdout, with ``-o`` by the file's
    extension (html for *.html, markdown for *.md, table for *.txt, json for *.json or a
    name without one; ``--suite`` also latex and csv); any other extension is refused
    before any work (:func:`benchie_cli.outputs.format_of_name`)."""
    if fmt is not None:
        return fmt
    if output is None:
        return "table"
    if suite:
        from benchie_cli.suite_views import format_of

        return format_of(output)
    from benchie_cli.outputs import LEADERBOARD_EXTENSIONS, SUITE_ONLY, format_of_name

    return format_of_name(output, LEADERBOARD_EXTENSIONS, command="score", elsewhere=SUITE_ONLY)


def write_score_report(
    report: dict[str, Any],
    fmt: str,
    output: str | None,
    what: str,
    results: list[SystemResult] | None = None,
) -> None:
    """A ``score`` report in its format, written atomically and named on stderr; the html
    page also needs the systems' per-sentence counts (``results``)."""
    from benchie_cli.report import to_json, to_markdown, to_table

    def page() -> bytes:
        from benchie_cli.leaderboard import to_html

        assert results is not None  # html is refused before scoring for CaRB's reports
        return to_html(report, results).encode()

    data = {
        "json": lambda: to_json(report),
        "table": lambda: to_table(report).encode(),
        "markdown": lambda: to_markdown(report).encode(),
        "html": page,
    }[fmt]()
    atomic_write(output or STDIN, data)
    say_written(output, fmt, what)
