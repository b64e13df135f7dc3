"""``benchie score``: a leaderboard of submissions against a gold with BenchIE's metric,
CaRB's, or both side by side (``api.score``), and the CaRB benchmark (``--benchmark carb``,
``metrics.carb_benchmark``)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click

from benchie_cli.cli.common import (
    JOBS,
    PROGRESS_MIN,
    check_expect_gold,
    check_stdin_once,
    exit_on_failures,
    gold_options,
    input_format_option,
    load_gold,
    retokenize_option,
    say,
    say_once,
    say_written,
    summarise_warnings,
)
from benchie_cli.cli.group import EPILOG_EXIT, set_verdict
from benchie_cli.errors import BenchieError, ExitCode
from benchie_cli.gold.store import resolve_gold_dir
from benchie_cli.inputs.batch import Failure, expand
from benchie_cli.inputs.mistakes import CODES as MISTAKE_CODES
from benchie_cli.outputs import check_output
from benchie_cli.registry import (
    BENCHMARKS,
    DEFAULT_BENCHMARK,
    METRICS,
    SPLITS,
    benchmark_of,
    metric_choice,
    metrics_of,
)
from benchie_cli.textio import STDIN, atomic_write, display_name

if TYPE_CHECKING:
    from benchie_cli.benchmarks.benchie.scoring import SystemResult
    from benchie_cli.benchmarks.carb.report import CarbResult


@click.command(epilog=EPILOG_EXIT, short_help="Score submissions and print a leaderboard.")
@click.argument("submissions", nargs=-1, required=True, metavar="SUBMISSION...")
@gold_options()
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
    type=click.Choice(["table", "json", "markdown", "html"]),
    default=None,
    help="Output format [default: table on stdout; with -o, html for *.html, else json]. "
    "html: one self-contained leaderboard page with 95% bootstrap intervals and pairwise "
    "significance (BenchIE's metric only).",
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
    help="Processes for a large submission file (16 MB or more) [default: one per core]. "
    "Never changes a number.",
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
    "CaRB (s,m) and (s,s), OIE2016, and Re-OIE2016 and WiRe57 once added; one table, a "
    "signature per row (docs/suite.md).",
)
@click.option(
    "--split",
    type=click.Choice(SPLITS),
    default=None,
    help="The benchmark's split: "
    + "; ".join(f"{b.name}: {', '.join(b.splits)}" for b in BENCHMARKS.values() if b.splits)
    + " [default: the first].",
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
    split: str | None,
    input_format: str,
    retokenize: bool,
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
      benchie score --suite openie4_output.txt
    """
    from benchie_cli import api
    from benchie_cli.benchmarks.benchie.scoring import SystemResult

    fmt = _format(fmt, output)
    ctx = click.get_current_context()
    given = {
        name
        for name in ctx.params
        if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE
    }
    if suite:
        _score_suite(submissions, given, gold_dir, fmt, output, input_format)
        return
    benchmark = benchmark or (benchmark_of(metric) if metric else DEFAULT_BENCHMARK)
    if metric is None:
        metric = BENCHMARKS[benchmark].metrics[0]
    try:
        metric_choice(metric, benchmark)
    except ValueError as exc:
        raise BenchieError(f"--metric: {exc}") from None
    by_language = BENCHMARKS[benchmark].by_language
    page = by_language and all(m.benchie_options for m in metrics_of(metric))
    if fmt == "html" and not page:  # the leaderboard page is BenchIE's metric's
        option = f"--benchmark {benchmark}" if not by_language else f"--metric {metric}"
        raise BenchieError(
            f"the html leaderboard page shows BenchIE's metric only; {option} does not apply "
            "(use --format json, table or markdown)"
        )
    if split is not None and split not in BENCHMARKS[benchmark].splits:
        if by_language:
            having = [b.name for b in BENCHMARKS.values() if split in b.splits]
            raise BenchieError(
                f"BenchIE's gold has no splits: --split {split} chooses a split of "
                f"{' or '.join(having)}, so it needs "
                + " or ".join(f"--benchmark {h}" for h in having)
            )
        raise BenchieError(
            f"--split {split}: {benchmark} has the splits {', '.join(BENCHMARKS[benchmark].splits)}"
        )
    if benchmark not in (DEFAULT_BENCHMARK, "carb"):
        from benchie_cli.cli.score_benchmark import score_benchmark

        if lang != "en":
            raise BenchieError(
                f"--benchmark {benchmark} scores English only; --lang {lang} does not apply"
            )
        if gold_file is not None:
            raise BenchieError(
                f"--benchmark {benchmark} scores its own gold from the store; --gold-file "
                "does not apply (give --gold-version)"
            )
        api.refuse_benchie_options(
            f"--benchmark {benchmark}",
            facet=facet,
            strip_implicit=strip_implicit,
            case_sensitive=case_sensitive,
            retokenize=retokenize,
            per_sentence=per_sentence,
        )
        score_benchmark(
            benchmark,
            submissions,
            gold_version if "gold_version" in given else None,
            gold_dir,
            split or BENCHMARKS[benchmark].splits[0],
            fmt,
            output,
            strict,
            expect_gold,
            input_format,
            write_score_report,
        )
        return
    if benchmark == "carb":
        if lang != "en":
            raise BenchieError(
                f"--benchmark carb scores English only (CaRB's gold); --lang {lang} does not apply"
            )
        if gold_file is not None:
            raise BenchieError(
                "--benchmark carb scores CaRB's own gold; --gold-file does not apply "
                "(give --gold-version)"
            )
        api.refuse_benchie_options(
            "--benchmark carb",
            facet=facet,
            strip_implicit=strip_implicit,
            case_sensitive=case_sensitive,
            retokenize=retokenize,
            per_sentence=per_sentence,
        )
        _score_carb_benchmark(
            submissions,
            gold_version if "gold_version" in given else None,
            gold_dir,
            split or "test",
            fmt,
            output,
            strict,
            expect_gold,
            input_format,
            metric.split(","),
        )
        return
    batch = expand(submissions)
    paths = [s.path for s in batch]
    check_stdin_once(gold_file, paths)
    expected = check_expect_gold(expect_gold) if expect_gold is not None else None
    gold = load_gold(gold_dir, gold_version, gold_file, lang, facet)
    api.check_metric_options(
        metric,
        gold,
        facet=facet,
        strip_implicit=strip_implicit,
        case_sensitive=case_sensitive,
        retokenize=retokenize,
        per_sentence=per_sentence,
    )
    chosen = metrics_of(metric)
    reference = gold.carb_reference if any(m.reference for m in chosen) else None
    inputs = [*gold.resolved.inputs, *(reference.inputs if reference is not None else [])]
    check_output(output, [*paths, *inputs], stores=[gold.store_root])
    # The gold --expect-gold pins: CaRB's reference when CaRB's metrics alone are scored.
    pinned = (
        reference if reference is not None and all(m.reference for m in chosen) else gold.resolved
    )
    if expected is not None and not pinned.sha256.startswith(expected):
        raise BenchieError(
            f"gold {pinned.display_path} has sha256 {pinned.sha256}, "
            f"not the expected {expect_gold}",
            exit_code=ExitCode.FAILED,
        )
    progress = len(batch) >= PROGRESS_MIN and sys.stderr.isatty()
    with click.progressbar(
        length=len(batch), label="scoring", file=sys.stderr, hidden=not progress
    ) as bar:

        def on_outcome(outcome: object) -> None:  # (a failure is said by the API)
            if isinstance(outcome, SystemResult):
                summarise_warnings(outcome, lang)
            bar.update(1)

        try:
            report = api.score(
                gold,
                *paths,
                names=[s.name for s in batch],
                metric=metric,
                strip_implicit=strip_implicit,
                case_sensitive=case_sensitive,
                retokenize=retokenize,
                per_sentence=per_sentence,
                strict=strict,
                jobs=jobs,
                input_format=input_format,
                say=say,
                on_outcome=on_outcome,
                stdin=True,
            )
        except api.NothingScored as exc:  # each failure is said: exit with the worst
            sys.exit(int(exc.exit_code))
    if report.failures:
        set_verdict(int(ExitCode.FAILED))
    write_score_report(
        report.data,
        fmt,
        output,
        f"{len(report.systems)} system(s), gold {gold.version}",
        [s.result for s in report.systems if isinstance(s, api.Scores)],
    )
    exit_on_failures(len(report.failures), len(batch))


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
    "jobs",
    "strict",
)


def _score_suite(
    submissions: tuple[str, ...],
    given: set[str],
    gold_dir: str | None,
    fmt: str,
    output: str | None,
    input_format: str,
) -> None:
    """``score --suite FILE``: every benchmark of the store on one system output."""
    from benchie_cli import suite

    refused = [f"--{n.replace('_', '-')}" for n in _SUITE_REFUSES if n in given]
    if refused:
        raise BenchieError(
            f"--suite scores each benchmark with its own gold and metrics; {', '.join(refused)} "
            "does not apply (score one benchmark with --benchmark for that)"
        )
    if len(submissions) != 1:
        raise BenchieError(
            f"--suite scores one system output ({len(submissions)} given): run it once per system"
        )
    if fmt == "html":
        raise BenchieError("--suite writes table, markdown or json (not html)")
    root, _ = resolve_gold_dir(gold_dir)
    check_output(output, [submissions[0]], stores=[root])
    report = suite.run(submissions[0], input_format, root, say=say)
    from benchie_cli.report import to_json

    data = {
        "json": lambda: to_json(report),
        "table": lambda: suite.to_table(report).encode(),
        "markdown": lambda: suite.to_markdown(report).encode(),
    }[fmt]()
    atomic_write(output or STDIN, data)
    say_written(output, fmt, f"suite: {len(report['rows'])} row(s)")


def _format(fmt: str | None, output: str | None) -> str:
    """The format asked for, or the default: table on stdout, with ``-o`` html for a file
    named *.html or *.htm and json for any other."""
    if fmt is not None:
        return fmt
    if output is None:
        return "table"
    return "html" if output.lower().endswith((".html", ".htm")) else "json"


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


def _score_carb_benchmark(
    submissions: tuple[str, ...],
    gold_version: str | None,
    gold_dir: str | None,
    split: str,
    fmt: str,
    output: str | None,
    strict: bool,
    expect_gold: str | None,
    input_format: str,
    metrics: list[str],
) -> None:
    """``score --benchmark carb``: CaRB's metrics against a split of CaRB's own gold."""
    from benchie_cli import api
    from benchie_cli.benchmarks.carb import benchmark as cb

    batch = expand(submissions)
    check_stdin_once(None, [s.path for s in batch])
    expected = check_expect_gold(expect_gold) if expect_gold is not None else None
    root, _ = resolve_gold_dir(gold_dir)
    store = cb.carb_store(root)
    version = gold_version or cb.latest_version(store)
    gold, sentences = cb.resolve_split(store, version, split)
    if not store.manifest(version).released:
        say_once(api.draft_warning(version))
    check_output(output, [*(s.path for s in batch), *gold.inputs, *sentences.inputs], stores=[root])
    if expected is not None and not gold.sha256.startswith(expected):
        raise BenchieError(
            f"gold carb/{gold.display_path} has sha256 {gold.sha256}, "
            f"not the expected {expect_gold}",
            exit_code=ExitCode.FAILED,
        )
    extractions = cb.load_gold(gold)
    ids = cb.sentence_ids(sentences)
    results: list[CarbResult] = []
    failures: list[Failure] = []
    for submission in batch:
        try:
            reader = cb.reader_for(submission.path, input_format)
            scored = cb.score_submission(
                submission.path,
                submission.name,
                reader,
                extractions,
                ids,
                strict=strict,
                metrics=metrics,
            )
            if scored.outside_sentences:
                say(
                    f"{display_name(submission.path)}: warning: "
                    f"{scored.outside_sentences:,} of its sentences are not in CaRB's {split} "
                    "split: their extractions set thresholds only, as in CaRB's scorer "
                    "(an error under --strict)"
                )
            for note in scored.notes:
                say(f"{display_name(submission.path)}: warning: {note} (an error under --strict)")
            results.append(scored)
        except BenchieError as exc:
            say(str(exc))
            failures.append(Failure(submission, str(exc), exc.exit_code))
    if not results:
        sys.exit(max(int(f.exit_code) for f in failures))
    if failures:
        set_verdict(int(ExitCode.FAILED))
    report = cb.build_report(
        gold,
        sentences,
        split,
        results,
        failures=failures,
        input_format=input_format,
        metrics=metrics,
    )
    write_score_report(
        report, fmt, output, f"{len(results)} system(s), CaRB gold {version} ({split})"
    )
    exit_on_failures(len(failures), len(batch))
