"""The ``benchie`` command line: argument parsing only; the work is in the library modules.

Exit statuses (``benchie --help`` repeats them): 0 success; 1 the run worked but its verdict
is negative (validation errors, gold that differs from its manifest or from --expect-gold,
--strict warnings); 2 unusable input or usage (missing or unreadable file, bad bytes, unknown
gold version, a scoring worker that died); 129, 130, 143 stopped by SIGHUP, SIGINT (Ctrl-C),
SIGTERM, with every temporary file removed. Errors are one line on stderr,
``PATH:LINE: error: message``, never a traceback.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click
import orjson

from benchie_cli import DEFAULT_GOLD_VERSION, LANGUAGES, __version__
from benchie_cli.analysis.profile import TESTS
from benchie_cli.batch import Failure, expand, score_each
from benchie_cli.errors import BenchieError, ExitCode
from benchie_cli.formats import INPUT_FORMATS, NATIVE_FORMATS
from benchie_cli.gold.parse import Gold, parse_gold_bytes
from benchie_cli.gold.store import (
    ALL_FACETS,
    MANIFEST,
    SHIPPED_MANIFESTS,
    GoldStore,
    ResolvedGold,
    build_manifest,
    default_gold_version,
    dvc_remote_of,
    resolve_gold_dir,
    resolve_gold_file,
    tracked_versions,
    version_key,
    write_manifest,
)
from benchie_cli.metrics.index_cache import load_compiled

if TYPE_CHECKING:
    from benchie_cli.batch import Submission
    from benchie_cli.gold.lifecycle import Added
    from benchie_cli.metrics.carb_report import CarbResult
from benchie_cli.metrics.scoring import ScoreOptions, Scorer, SystemResult, no_cyclic_gc
from benchie_cli.mistakes import CODES as MISTAKE_CODES
from benchie_cli.mistakes import MistakeCheck
from benchie_cli.tables import render
from benchie_cli.textio import (
    EMPTY_NAME,
    STDIN,
    abandon_stdout,
    atomic_write,
    display_name,
    is_regular_file,
    keep_stderr_past_a_closed_pipe,
    release_spooled,
    spool,
)
from benchie_cli.tokens import language_hint, mostly_implicit

F = TypeVar("F", bound=Callable[..., Any])

GOLD_VERSION_SHOWN = f"{DEFAULT_GOLD_VERSION}, or $BENCHIE_GOLD_VERSION"
EPILOG_EXIT = (
    "Exit status: 0 success, 1 negative verdict, 2 unusable input or usage, "
    "129 hung up, 130 interrupted (Ctrl-C), 143 terminated."
)


class BenchieGroup(click.Group):
    """Turns every :class:`BenchieError` into one stderr line and its exit status."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BenchieError as exc:
            click.echo(f"benchie: {exc}", err=True)
            ctx.exit(int(exc.exit_code))
        except BrokenPipeError:  # `benchie ... | head`: not an error of ours
            sys.stderr.close()
            ctx.exit(0)
        finally:  # a run's copies of pipes and native files end with it (tests run many)
            release_spooled()


def gold_options(*, facet: bool = True) -> Callable[[F], F]:
    """The options every gold-reading command shares."""

    def decorate(f: F) -> F:
        options = [
            click.option(
                "--lang",
                type=click.Choice(LANGUAGES),
                default="en",
                show_default=True,
                help="Language of the gold and the submissions.",
            ),
            click.option(
                "--gold-version",
                default=default_gold_version,
                show_default=GOLD_VERSION_SHOWN,
                metavar="V",
                help="Gold version from the store.",
            ),
            click.option(
                "--gold-file",
                type=str,
                default=None,
                metavar="FILE",
                help="Use this annotation file instead of the store (e.g. an organiser's own "
                "gold); excludes --gold-version.",
            ),
            click.option(
                "--gold-dir",
                type=str,
                default=None,
                metavar="DIR",
                help="Gold store directory (default: $BENCHIE_GOLD_DIR, the checkout's "
                "gold/, the installed copy).",
            ),
        ]
        if facet:
            options.insert(
                1,
                click.option(
                    "--facet",
                    type=click.Choice(ALL_FACETS),
                    default="default",
                    show_default=True,
                    help="default (BenchIE), concat (BenchIE-C), minimal (BenchIE-M), "
                    "entity (BenchIE-E).",
                ),
            )
        for option in reversed(options):
            f = option(f)
        return f

    return decorate


def check_gold_choice(gold_file: str | None) -> None:
    """``--gold-file`` replaces the store: a version asked for as well would be ignored."""
    if gold_file is None:
        return
    source = click.get_current_context().get_parameter_source("gold_version")
    if source is click.core.ParameterSource.COMMANDLINE:
        raise BenchieError("give --gold-version (a store version) or --gold-file, not both")


def check_stdin_once(gold_file: str | None, paths: Iterable[str]) -> None:
    """Standard input holds one file: not both the gold and a submission."""
    if gold_file == STDIN and STDIN in paths:
        raise BenchieError(
            "standard input ('-') can be read only once per run: not both --gold-file and "
            "a submission"
        )


def resolve(
    gold_dir: str | None, version: str, gold_file: str | None, lang: str, facet: str
) -> ResolvedGold:
    check_gold_choice(gold_file)
    if gold_file is not None:
        return resolve_gold_file(gold_file, lang, facet)
    root, _ = resolve_gold_dir(gold_dir)
    store = GoldStore(root)
    resolved = store.resolve(version, lang, facet)
    _warn_if_draft(store, version)
    return resolved


def _warn_if_draft(store: GoldStore, version: str) -> None:
    """Scoring against a draft is allowed (organisers check their gold with it) but said,
    once per run: a draft's files may still change under the same version number, and only
    the report's sha256 then tells two such runs apart."""
    ctx = click.get_current_context(silent=True)
    warned: set[tuple[str, str]] = (
        ctx.find_root().meta.setdefault("benchie.drafts_warned", set()) if ctx else set()
    )
    key = (str(store.root.resolve()), version)
    if key not in warned and not store.manifest(version).released:
        warned.add(key)
        click.echo(
            f"benchie: warning: gold {version} is a draft (`benchie gold release {version}` "
            "freezes it); the report's gold sha256 pins the files scored",
            err=True,
        )


def load(resolved: ResolvedGold) -> Gold:
    """Parse the gold bytes ``resolved`` holds: the ones whose sha256 it names."""
    with no_cyclic_gc():
        return parse_gold_bytes(resolved.data, resolved.display_path)


input_format_option = click.option(
    "--input-format",
    type=click.Choice(INPUT_FORMATS),
    default="auto",
    show_default=True,
    help="Format of the submissions: auto detects it from the first lines; benchie is BenchIE "
    "TSV; the others are systems' own outputs, aligned to the gold by sentence text "
    "(README, 'Native formats').",
)


def recorded_format(input_format: str, paths: Iterable[str]) -> str:
    """The input format a report records: ``auto`` unless the one given reads some file
    otherwise than detection would (``--input-format benchie`` on a native file), so that
    reports of the same reading are the same bytes, and ``verify`` reads as ``score`` did."""
    if input_format == "auto":
        return "auto"
    from benchie_cli.native import detect

    for path in paths:
        if not is_regular_file(path):
            return input_format  # a pipe is not peeked at (nor copied): the choice is kept
        try:
            if detect(path) != input_format:
                return input_format
        except BenchieError:
            return input_format  # unreadable: the read that follows names the problem
    return "auto"


def read_native(
    path: str,
    input_format: str,
    sentences: Callable[[], dict[str, str]],
    *,
    strict: bool = False,
    lang: str | None = None,
) -> bool:
    """``prepare`` a submission and say on stderr what its conversion did; whether it was
    a native file (the native module is imported only here, when a run needs it).

    A native file none of whose sentences is in the gold is an error (``native.convert``
    says so); under ``strict`` so is any sentence that aligns to none, or to several: the
    warnings that ``--strict`` turns into errors elsewhere.
    """
    from benchie_cli.native import prepare, summary

    conversion = prepare(path, input_format, sentences, lang)
    if conversion is None:
        return False
    shown = display_name(path)
    for line in summary(conversion, shown):
        click.echo(f"benchie: {line}", err=True)
    a = conversion.alignment
    if strict and (a.unaligned or a.ambiguous):
        first = min((*a.unaligned, *a.ambiguous), key=lambda s: s.line)
        raise BenchieError(
            f"{len(a.unaligned)} sentence(s) align to no gold sentence and {len(a.ambiguous)} "
            "to several (an error under --strict)",
            path=shown,
            line=first.line,
            exit_code=ExitCode.FAILED,
        )
    return True


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(f"benchie {__version__} (default gold {default_gold_version()})")
        ctx.exit(0)


@click.group(
    cls=BenchieGroup, context_settings={"help_option_names": ["-h", "--help"]}, epilog=EPILOG_EXIT
)
@click.option(
    "-V",
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Show the version and the default gold version, then exit.",
)
def main() -> None:
    """Fact-level evaluation of Open Information Extraction with BenchIE.

    \b
    Example:
      benchie score --lang en examples/submissions/en/clausie.tsv -o clausie.json
    """


# --------------------------------------------------------------------------- score


#: A batch at least this long shows a progress bar (on an interactive terminal only).
PROGRESS_MIN = 5

#: Documented ranges of numeric options, checked by click (exit 2 with its message): more
#: worker processes than this only cost memory; 10^5 resamples of 300 sentences already
#: take ~240 MB of weights; a seed is any unsigned 64-bit integer (numpy's generator takes
#: it as is); more examples than this per error bucket make a report nobody reads.
JOBS = click.IntRange(1, 256)
RESAMPLES = click.IntRange(1, 100_000)
SEED = click.IntRange(0, 2**64 - 1)
EXAMPLES = click.IntRange(0, 1000)


#: ``--retokenize``, shared by every command that reads submissions against the gold.
retokenize_option = click.option(
    "--retokenize",
    is_flag=True,
    help="Re-split slots onto their sentence's own tokens where that is unambiguous "
    "(don't -> do n't, Chinese without spaces); off by default.",
)


def mistake_check(
    lang: str,
    texts: Mapping[str, str],
    gold_dir: str | None,
    gold_version: str,
    gold_file: str | None,
    retokenize: bool = False,
) -> MistakeCheck:
    """The detectors of likely mistakes for one gold; the language check compares with the
    other languages of the same store version (loaded only if a file looks suspicious, once
    per run), which a ``--gold-file`` does not have."""
    if gold_file is not None:
        return MistakeCheck(lang, texts, None, retokenize)

    @functools.cache
    def sentences_of(other: str) -> Mapping[str, str] | None:
        try:
            compiled = load_compiled(resolve(gold_dir, gold_version, None, other, "default"))
        except BenchieError:
            return None
        return dict(zip(compiled.sent_ids, compiled.texts, strict=True))

    return MistakeCheck(lang, texts, sentences_of, retokenize)


EXPECT_GOLD_MIN = 12  # the signature shows 12 hex digits: the shortest pin accepted


def check_expect_gold(expected: str) -> str:
    """``--expect-gold`` takes the full sha256 or a prefix of at least 12 hex digits."""
    value = expected.strip().lower()
    if (
        len(value) < EXPECT_GOLD_MIN
        or len(value) > 64
        or any(c not in "0123456789abcdef" for c in value)
    ):
        raise BenchieError(
            f"--expect-gold {expected!r}: give the gold's sha256, or its first "
            f"{EXPECT_GOLD_MIN} hex digits or more (as in the signature)"
        )
    return value


def _same_file(a: str, b: str) -> bool:
    """Whether two names reach one file: the same path once symbolic links are resolved
    (a file not yet created), or the same device and inode (hard links, bind mounts)."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def _is_stdin(path: str) -> bool:
    """Whether ``path`` is the file standard input reads (``score - -o s.tsv < s.tsv``)."""
    try:
        stdin, target = os.fstat(0), os.stat(path)
    except OSError:
        return False
    return (stdin.st_dev, stdin.st_ino) == (target.st_dev, target.st_ino)


def check_output(
    output: str | None, inputs: Iterable[str | Path] = (), others: Iterable[str | None] = ()
) -> None:
    """Fail before the work, not after it, when the output could not be written, or would
    overwrite one of the ``inputs`` (gold, submissions, bucket files) or another output of
    the same run: a typo that swaps arguments must not eat a file. Symbolic and hard links
    are seen through."""
    if output is None or output == STDIN:
        return
    if not output:
        raise BenchieError("empty output file name")
    target = Path(os.path.realpath(output))
    if target.is_dir():
        raise BenchieError("is a directory; give a file name for the output", path=output)
    if not target.parent.is_dir():
        raise BenchieError("the output's directory does not exist", path=output)
    for source in inputs:
        if str(source) == STDIN and _is_stdin(output):
            raise BenchieError(
                "is also standard input, an input of this run; write the output elsewhere",
                path=output,
            )
        if str(source) != STDIN and _same_file(str(source), output):
            raise BenchieError(
                f"is also an input ({display_name(str(source))}); write the output elsewhere",
                path=output,
            )
    for other in others:
        if other is not None and other != STDIN and _same_file(other, output):
            raise BenchieError(
                f"names the same file as the other output ({display_name(other)}); give two files",
                path=output,
            )


@main.command(epilog=EPILOG_EXIT)
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
    type=click.Choice(["table", "json", "markdown"]),
    default=None,
    help="Output format [default: table on stdout, json with -o].",
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
    "--lang), sentences of a native file that align to no gold sentence or to several, and "
    f"the likely mistakes ({', '.join(MISTAKE_CODES)}).",
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
    type=click.Choice(["benchie", "carb", "benchie,carb"]),
    default="benchie",
    show_default=True,
    help="benchie: BenchIE's metric; carb: CaRB's (English only, against the gold version's "
    "CaRB reference file; no implicit stripping); benchie,carb: both side by side, ranked "
    "by BenchIE F1 (README, 'CaRB beside BenchIE').",
)
@click.option(
    "--benchmark",
    type=click.Choice(["benchie", "carb"]),
    default="benchie",
    show_default=True,
    help="benchie: BenchIE's gold; carb: CaRB's own gold (gold/carb/), scored with CaRB's "
    "metric only; --gold-version then defaults to its latest version (README, 'Gold data "
    "and versions').",
)
@click.option(
    "--split",
    type=click.Choice(["test", "dev"]),
    default=None,
    help="CaRB's split, with --benchmark carb [default: test].",
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
    metric: str,
    benchmark: str,
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
      cat out.tsv | benchie score --lang de --format markdown -
    """
    from benchie_cli.report import build_report

    if benchmark == "carb":
        ctx = click.get_current_context()
        given = {
            name
            for name in ("gold_version", "metric", "lang")
            if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE
        }
        if "metric" in given and metric != "carb":
            raise BenchieError(
                f"--benchmark carb is scored with CaRB's metric only; --metric {metric} "
                "does not apply (use --metric carb, or leave it out)"
            )
        _check_carb_options(
            "carb", lang, gold_file, facet, strip_implicit, case_sensitive, retokenize, per_sentence
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
        )
        return
    if split is not None:
        raise BenchieError("--split chooses CaRB's split: it needs --benchmark carb")
    if metric != "benchie":
        _check_carb_options(
            metric, lang, gold_file, facet, strip_implicit, case_sensitive, retokenize, per_sentence
        )
    batch = expand(submissions)
    check_stdin_once(gold_file, [s.path for s in batch])
    expected = check_expect_gold(expect_gold) if expect_gold is not None else None
    resolved = resolve(gold_dir, gold_version, gold_file, lang, facet)
    reference = None if metric == "benchie" else _carb_reference(gold_dir, gold_version, lang)
    inputs = [*resolved.inputs, *(reference.inputs if reference is not None else [])]
    check_output(output, [*(s.path for s in batch), *inputs])
    pinned = reference if reference is not None and metric == "carb" else resolved
    if expected is not None and not pinned.sha256.startswith(expected):
        raise BenchieError(
            f"gold {pinned.display_path} has sha256 {pinned.sha256}, "
            f"not the expected {expect_gold}",
            exit_code=ExitCode.FAILED,
        )
    options = ScoreOptions(lang, facet, strip_implicit, case_sensitive, retokenize)
    results: list[SystemResult] = []
    failures: list[Failure] = []
    with no_cyclic_gc():  # a short run building acyclic structures: see no_cyclic_gc
        compiled = load_compiled(resolved)
    texts = dict(zip(compiled.sent_ids, compiled.texts, strict=True))
    recorded = recorded_format(input_format, [s.path for s in batch])
    readable = []  # native outputs are converted first; one that cannot be is a failure
    for submission in batch:
        try:
            read_native(submission.path, input_format, texts.copy, strict=strict, lang=lang)
            readable.append(submission)
        except BenchieError as exc:
            click.echo(f"benchie: {exc}", err=True)
            failures.append(Failure(submission, str(exc), exc.exit_code))
    if reference is not None and metric == "carb":  # CaRB's metric alone (lazily imported)
        from benchie_cli.metrics.carb_report import build_carb_report

        carb_results = _carb_each(readable, reference, texts, strict, failures)
        if not carb_results:
            sys.exit(max(int(f.exit_code) for f in failures))
        report = build_carb_report(
            reference, resolved, carb_results, failures=failures, input_format=recorded
        )
        results_count = len(carb_results)
    else:
        progress = len(batch) >= PROGRESS_MIN and sys.stderr.isatty()
        if reference is not None:  # benchie,carb reads each submission twice
            for submission in readable:
                spool(submission.path)
        with no_cyclic_gc():
            check = mistake_check(lang, texts, gold_dir, gold_version, gold_file, retokenize)
            scorer = Scorer(compiled, options, mistakes=check)
            outcomes = score_each(scorer, readable, strict=strict, jobs=jobs)
            with click.progressbar(
                outcomes,
                length=len(readable),
                label="scoring",
                file=sys.stderr,
                hidden=not progress,
            ) as bar:
                for outcome in bar:
                    if isinstance(outcome, Failure):
                        click.echo(f"benchie: {outcome.message}", err=True)
                        failures.append(outcome)
                    else:
                        _summarise_warnings(outcome, lang)
                        results.append(outcome)
        carb_results = None
        if reference is not None and results:  # benchie,carb: CaRB's numbers beside
            scored = {r.name for r in results}
            carb_results = _carb_each(
                [s for s in readable if s.name in scored],
                reference,
                texts,
                strict,
                failures,
                checked=True,
            )
            kept = {r.name for r in carb_results}
            results = [r for r in results if r.name in kept]
        if not results:  # nothing to report: the exit status of the worst failure
            sys.exit(max(int(f.exit_code) for f in failures))
        report = build_report(
            resolved,
            options,
            results,
            per_sentence=per_sentence,
            failures=failures,
            input_format=recorded,
        )
        if reference is not None and carb_results is not None:
            from benchie_cli.metrics.carb_report import add_carb

            report = add_carb(report, reference, carb_results)
        results_count = len(results)
    _write_score_report(report, fmt, output, f"{results_count} system(s), gold {resolved.version}")
    _exit_on_failures(failures, len(batch))


def _write_score_report(
    report: dict[str, Any], fmt: str | None, output: str | None, what: str
) -> None:
    """A ``score`` report in its format (JSON by default for a file), written atomically
    and named on stderr."""
    from benchie_cli.report import to_json, to_markdown, to_table

    fmt = fmt or ("json" if output is not None else "table")
    data = {
        "json": lambda: to_json(report),
        "table": lambda: to_table(report).encode(),
        "markdown": lambda: to_markdown(report).encode(),
    }[fmt]()
    atomic_write(output or STDIN, data)
    _say_written(output, fmt, what)


def _exit_on_failures(failures: list[Failure], submissions: int) -> None:
    """A batch of which some submissions could not be scored: said, and exit 1."""
    if failures:
        click.echo(
            f"benchie: {len(failures)} of {submissions} submission(s) could not be scored",
            err=True,
        )
        sys.exit(int(ExitCode.FAILED))


def _score_carb_benchmark(
    submissions: tuple[str, ...],
    gold_version: str | None,
    gold_dir: str | None,
    split: str,
    fmt: str | None,
    output: str | None,
    strict: bool,
    expect_gold: str | None,
    input_format: str,
) -> None:
    """``score --benchmark carb``: CaRB's metric against a split of CaRB's own gold."""
    from benchie_cli.metrics import carb_benchmark as cb

    batch = expand(submissions)
    check_stdin_once(None, [s.path for s in batch])
    expected = check_expect_gold(expect_gold) if expect_gold is not None else None
    root, _ = resolve_gold_dir(gold_dir)
    store = cb.carb_store(root)
    version = gold_version or cb.latest_version(store)
    gold, sentences = cb.resolve_split(store, version, split)
    _warn_if_draft(store, version)
    check_output(output, [*(s.path for s in batch), *gold.inputs, *sentences.inputs])
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
                submission.path, submission.name, reader, extractions, ids, strict=strict
            )
            if scored.outside_sentences:
                click.echo(
                    f"benchie: {display_name(submission.path)}: warning: "
                    f"{scored.outside_sentences:,} of its sentences are not in CaRB's {split} "
                    "split: their extractions set thresholds only, as in CaRB's scorer "
                    "(an error under --strict)",
                    err=True,
                )
            results.append(scored)
        except BenchieError as exc:
            click.echo(f"benchie: {exc}", err=True)
            failures.append(Failure(submission, str(exc), exc.exit_code))
    if not results:
        sys.exit(max(int(f.exit_code) for f in failures))
    report = cb.build_report(
        gold, sentences, split, results, failures=failures, input_format=input_format
    )
    _write_score_report(
        report, fmt, output, f"{len(results)} system(s), CaRB gold {version} ({split})"
    )
    _exit_on_failures(failures, len(batch))


def _check_carb_options(
    metric: str,
    lang: str,
    gold_file: str | None,
    facet: str,
    strip_implicit: bool,
    case_sensitive: bool,
    retokenize: bool,
    per_sentence: bool,
) -> None:
    """Refuse (exit 2) what ``--metric carb`` cannot do: a language without CaRB gold, a
    gold outside the store (CaRB's gold is the store's reference file), and, for CaRB's
    metric alone, the options of BenchIE's metric (they would change nothing)."""
    from benchie_cli.metrics.carb_report import check_language

    check_language(lang)
    if gold_file is not None:
        raise BenchieError(
            f"--metric {metric} scores against a store version's CaRB reference file; "
            "--gold-file does not apply (give --gold-version)"
        )
    if metric != "carb":
        return
    given = [
        name
        for name, on in (
            (f"--facet {facet}", facet != "default"),
            ("--keep-implicit", not strip_implicit),
            ("--case-sensitive", case_sensitive),
            ("--retokenize", retokenize),
            ("--per-sentence", per_sentence),
        )
        if on
    ]
    if given:
        raise BenchieError(
            f"{', '.join(given)}: BenchIE's options, which do not apply to --metric carb "
            "(CaRB scores every line as given); use --metric benchie,carb"
        )


def _carb_reference(gold_dir: str | None, version: str, lang: str) -> ResolvedGold:
    """The CaRB reference file of store ``version``, checked against its manifest."""
    from benchie_cli.metrics.carb_report import CARB_REFERENCE

    root, _ = resolve_gold_dir(gold_dir)
    try:
        return GoldStore(root).reference(version, lang, CARB_REFERENCE)
    except BenchieError as exc:
        if "has no reference file" not in exc.message:
            raise
        raise BenchieError(
            f"{exc.message}: --metric carb needs CaRB's gold of that version"
        ) from None


def _carb_each(
    submissions: list[Submission],
    reference: ResolvedGold,
    texts: dict[str, str],
    strict: bool,
    failures: list[Failure],
    *,
    checked: bool = False,
) -> list[CarbResult]:
    """Each submission scored with CaRB's metric; one that cannot be is a failure.
    ``checked``: BenchIE's scorer already ran the likely-mistake checks (and said them)."""
    from benchie_cli.metrics.carb_report import load_reference, score_carb

    gold = load_reference(reference)
    check = None if checked else MistakeCheck("en", texts)
    out = []
    for submission in submissions:
        try:
            spool(submission.path)  # read twice: its head for the checks, then all of it
            scored = score_carb(
                submission.path, submission.name, gold, texts, strict=strict, check=check
            )
            for finding in scored.findings:
                click.echo(
                    f"benchie: {submission.name}: hint: {finding.message} [{finding.code}]",
                    err=True,
                )
            if scored.unknown:  # as `score` says for BenchIE (its JSON counts them too)
                click.echo(
                    f"benchie: {display_name(submission.path)}: warning: {scored.unknown:,} "
                    "extraction(s) of sentence ids not in the gold, left out "
                    "[unknown-sentence-id] (an error under --strict)",
                    err=True,
                )
            out.append(scored)
        except BenchieError as exc:
            click.echo(f"benchie: {exc}", err=True)
            failures.append(Failure(submission, str(exc), exc.exit_code))
    return out


def _summarise_warnings(result: SystemResult, lang: str) -> None:
    """What a user at 2 a.m. must know about a submission, in a few stderr lines."""
    if result.implicit_count:
        click.echo(
            f"benchie: {result.name}: {result.implicit_count} implicit extraction(s) removed "
            "before scoring (the JSON report and `benchie strip-implicit --removed` list them)",
            err=True,
        )
        if mostly_implicit(result.implicit_count, result.facts.extractions):
            hint = language_hint(result.implicit_count, result.facts.extractions, lang)
            click.echo(f"benchie: {result.name}: {hint}", err=True)
    for finding in result.findings:
        click.echo(f"benchie: {result.name}: hint: {finding.message} [{finding.code}]", err=True)
    if result.retokenized is not None:
        mapped, left = result.retokenized
        click.echo(
            f"benchie: {result.name}: --retokenize mapped {mapped} slot(s) onto their "
            f"sentence's tokens, left {left} unmapped (ambiguous or not a run of tokens)",
            err=True,
        )
    if result.warning_count:
        first = result.warnings[0]
        click.echo(
            f"benchie: {result.name}: {result.warning_count} warning(s); first: {first.format()}",
            err=True,
        )


# --------------------------------------------------------------------------- analyze


def resolve_facets(
    gold_dir: str | None, version: str, gold_file: str | None, lang: str
) -> dict[str, ResolvedGold]:
    """Every facet the gold offers for ``lang``: the store's, or a file's derived ones."""
    check_gold_choice(gold_file)
    if gold_file is not None:
        default = resolve_gold_file(gold_file, lang, "default")
        return {f: default.with_facet(f) for f in ("default", "concat", "minimal")}
    root, _ = resolve_gold_dir(gold_dir)
    store = GoldStore(root)
    available = [facet for facet, _ in store.manifest(version).facets(lang)]
    if "default" not in available:
        raise BenchieError(f"gold {version} has no default-facet file for {lang!r}")
    facets = {facet: store.resolve(version, lang, facet) for facet in available}
    _warn_if_draft(store, version)
    return facets


@main.command(epilog=EPILOG_EXIT)
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
    help="[default: text on stdout; with -o, html for *.html, else json]",
)
@click.option("-o", "--output", default=None, metavar="FILE", help="Write here, atomically.")
@click.option("--jobs", type=JOBS, default=None, help="Processes for large submission files.")
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
    """
    from benchie_cli.analysis.profile import AnalyzeOptions
    from benchie_cli.analysis.profile import analyze as run_analysis
    from benchie_cli.analysis.views import to_html, to_text
    from benchie_cli.report import to_json

    batch = expand(submissions)
    if any(s.path == STDIN for s in batch):
        raise BenchieError("analyze reads each submission once per facet: give a file, not '-'")
    facets = resolve_facets(gold_dir, gold_version, gold_file, lang)
    check_output(
        output,
        [
            *(s.path for s in batch),
            *facets["default"].inputs,
            *filter(None, [bucket_file, clique_file]),
        ],
    )

    @functools.cache
    def sentences() -> dict[str, str]:  # for a native file only, from the cached index
        compiled = load_compiled(facets["default"])
        return dict(zip(compiled.sent_ids, compiled.texts, strict=True))

    for submission in batch:  # a pipe or FIFO is read once, whatever reads it later
        spool(submission.path)
        read_native(submission.path, input_format, sentences, lang=lang)
    options = AnalyzeOptions(
        lang, resamples, seed, test, examples, strip_implicit, case_sensitive, retokenize
    )
    with no_cyclic_gc():
        report, results, failures = run_analysis(
            facets, batch, options, bucket_file=bucket_file, clique_file=clique_file, jobs=jobs
        )
    for result in results:
        _summarise_warnings(result, lang)
    for failure in failures:
        click.echo(f"benchie: {failure.message}", err=True)
    if not report["systems"]:
        sys.exit(max(int(f.exit_code) for f in failures))
    if fmt is None:
        fmt = (
            "text"
            if output in (None, STDIN)
            else "html"
            if output.endswith((".html", ".htm"))
            else "json"
        )
    data = {
        "json": lambda: to_json(report),
        "text": lambda: to_text(report).encode(),
        "html": lambda: to_html(report).encode(),
    }[fmt]()
    atomic_write(output or STDIN, data)
    gold_version_used = facets["default"].version
    _say_written(output, fmt, f"{len(results)} system(s), gold {gold_version_used}")
    if failures:
        sys.exit(int(ExitCode.FAILED))


# --------------------------------------------------------------------------- validate


@main.command(epilog=EPILOG_EXIT)
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option(
    "--kind",
    type=click.Choice(["auto", "gold", "submission"]),
    default="auto",
    show_default=True,
    help="What the files are; auto looks for 'sent_id:' lines.",
)
@gold_options(facet=False)
@click.option("--case-sensitive", is_flag=True, help="Case-sensitive token tests.")
@click.option("--strict", is_flag=True, help="Fail (exit 1) on warnings too.")
@click.option(
    "--max-errors",
    type=click.IntRange(min=0),
    default=100,
    show_default=True,
    help="Stop reading a file after this many errors (0: never).",
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@input_format_option
@retokenize_option
def validate(
    files: tuple[str, ...],
    kind: str,
    lang: str,
    gold_version: str,
    gold_file: str | None,
    gold_dir: str | None,
    case_sensitive: bool,
    strict: bool,
    max_errors: int,
    fmt: str,
    input_format: str,
    retokenize: bool,
) -> None:
    """Check gold or submission FILEs; print every problem as PATH:LINE: severity: message.

    Submissions are checked against the gold (unknown sentence ids, implicit extractions).

    \b
    Examples:
      benchie validate --lang en my_system.tsv
      benchie validate --kind gold --lang de my_gold.txt
    """
    from benchie_cli.errors import Diagnostic
    from benchie_cli.native import REGISTRY, alignment_diagnostics, prepare
    from benchie_cli.validate import FileReport, detect_kind, validate_gold, validate_submission

    if sum(1 for path in files if path == STDIN) > 1:
        raise BenchieError("standard input ('-') can be read only once per run")
    check_stdin_once(gold_file, files)
    for path in files:
        if not path:
            raise BenchieError(EMPTY_NAME)
        if path != STDIN and not Path(path).exists():
            raise BenchieError("no such file", path=path)
        if Path(path).is_dir():
            raise BenchieError("is a directory, not a file", path=path)
    gold: Gold | None = None
    reports = []
    formats: list[str | None] = []  # each file's format: None for gold, else benchie or native
    for path in files:
        if kind == "auto":
            spool(path)  # detecting the kind reads the start: a pipe must not lose it
        file_kind = kind if kind != "auto" else detect_kind(path)
        if file_kind == "gold":
            reports.append(validate_gold(path, lang, case_sensitive=case_sensitive))
            formats.append(None)
            continue
        if gold is None:
            gold = load(resolve(gold_dir, gold_version, gold_file, lang, "default"))
        texts = {i: s.text for i, s in gold.sentences.items()}
        try:
            conversion = prepare(path, input_format, texts.copy, lang)
        except BenchieError as exc:
            if exc.line is None:
                raise
            # A native line its reader cannot use is a finding, as bad bytes are.
            name = display_name(path)
            finding = Diagnostic(name, exc.line, "error", "unreadable", exc.message)
            reports.append(FileReport(name, "submission", [finding]))
            formats.append(input_format)
            continue
        report = validate_submission(
            path,
            gold,
            lang,
            case_sensitive=case_sensitive,
            max_errors=max_errors,
            mistakes=mistake_check(lang, texts, gold_dir, gold_version, gold_file, retokenize),
            retokenize=retokenize,
        )
        if conversion is not None:
            report.diagnostics = sorted(
                report.diagnostics + alignment_diagnostics(conversion, report.path),
                key=lambda d: (d.line is None, d.line or 0),
            )
        reports.append(report)
        formats.append("benchie" if conversion is None else conversion.format)
    errors = sum(r.errors for r in reports)
    warnings = sum(r.warnings for r in reports)
    if fmt == "json":
        doc = {
            "errors": errors,
            "warnings": warnings,
            "files": [
                {
                    "path": r.path,
                    "kind": r.kind,
                    "format": f,
                    "errors": r.errors,
                    "warnings": r.warnings,
                    "truncated": r.truncated,
                    "diagnostics": [d.as_dict() for d in r.diagnostics],
                }
                for r, f in zip(reports, formats, strict=True)
            ],
        }
        click.echo(orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode())
    else:
        for r, f in zip(reports, formats, strict=True):
            if f in REGISTRY:
                click.echo(f"{r.path}: note: read as {REGISTRY[f].title} ({f})")
            for d in r.diagnostics:
                click.echo(d.format())
            if r.truncated:
                click.echo(f"{r.path}: note: stopped after {max_errors} errors (--max-errors)")
            if r.retokenized is not None:
                click.echo(
                    f"{r.path}: note: --retokenize mapped {r.retokenized[0]} slot(s) onto "
                    f"their sentence's tokens, left {r.retokenized[1]} unmapped"
                )
        click.echo(f"{errors} error(s), {warnings} warning(s) in {len(reports)} file(s)", err=True)
    if errors or (strict and warnings):
        sys.exit(int(ExitCode.FAILED))


# --------------------------------------------------------------------------- strip-implicit


@main.command("strip-implicit", epilog=EPILOG_EXIT)
@click.argument("submission", metavar="SUBMISSION")
@gold_options(facet=False)
@click.option("--case-sensitive", is_flag=True, help="Compare tokens case-sensitively.")
@click.option(
    "-o",
    "--output",
    default=STDIN,
    metavar="KEPT",
    help="Explicit lines, unchanged and in order [default: stdout].",
)
@click.option(
    "--removed",
    default=None,
    metavar="REMOVED",
    help="Implicit lines as LINE<TAB>TOKENS<TAB>original line.",
)
@input_format_option
@retokenize_option
def strip_implicit_cmd(
    submission: str,
    lang: str,
    gold_version: str,
    gold_file: str | None,
    gold_dir: str | None,
    case_sensitive: bool,
    output: str,
    removed: str | None,
    input_format: str,
    retokenize: bool,
) -> None:
    """Remove implicit extractions (tokens absent from the sentence) from SUBMISSION.

    \b
    Example:
      benchie strip-implicit --lang en out.tsv -o explicit.tsv --removed implicit.tsv
    """
    from benchie_cli.implicit import strip_implicit

    check_stdin_once(gold_file, [submission])
    resolved = resolve(gold_dir, gold_version, gold_file, lang, "default")
    check_output(output, [submission, *resolved.inputs], [removed])
    check_output(removed, [submission, *resolved.inputs], [output])
    gold = load(resolved)
    texts = {i: s.text for i, s in gold.sentences.items()}
    native = read_native(submission, input_format, texts.copy, lang=lang)
    result = strip_implicit(
        submission, gold, lang, case_sensitive=case_sensitive, retokenize=retokenize
    )
    if result.retokenized is not None:
        click.echo(
            f"benchie: --retokenize mapped {result.retokenized[0]} slot(s) onto their "
            f"sentence's tokens, left {result.retokenized[1]} unmapped",
            err=True,
        )
    if native:  # a native file's kept lines are BenchIE TSV: no padding lines
        result.kept = b"".join(line for line in result.kept.splitlines(True) if line.strip())
    atomic_write(output, result.kept)
    if removed is not None:
        atomic_write(removed, result.removed)
    if mostly_implicit(result.removed_count, result.kept_count + result.removed_count):
        hint = language_hint(result.removed_count, result.kept_count + result.removed_count, lang)
        click.echo(f"benchie: {submission}: {hint}", err=True)
    click.echo(
        f"benchie: kept {result.kept_count}, removed {result.removed_count} implicit"
        + (
            f", {result.unknown_ids} with unknown sentence ids kept untested"
            if result.unknown_ids
            else ""
        ),
        err=True,
    )


# --------------------------------------------------------------------------- sentences


@main.command(epilog=EPILOG_EXIT)
@gold_options(facet=False)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["txt", "tsv", "jsonl"]),
    default="txt",
    show_default=True,
    help="txt: one sentence a line; tsv: sent_id<TAB>sentence; jsonl: "
    '{"sent_id": ..., "sentence": ...} a line.',
)
@click.option(
    "-o",
    "--output",
    default=STDIN,
    metavar="FILE",
    help="Write here, atomically [default: stdout].",
)
def sentences(
    lang: str,
    gold_version: str,
    gold_file: str | None,
    gold_dir: str | None,
    fmt: str,
    output: str,
) -> None:
    """Print the gold's input sentences, exactly as the gold has them, in gold order: the
    text to run a system on.

    \b
    Examples:
      benchie sentences --lang en -o sentences.txt
      benchie sentences --lang de --format jsonl
    """
    resolved = resolve(gold_dir, gold_version, gold_file, lang, "default")
    check_output(output, resolved.inputs)
    items = load(resolved).sentences.values()
    if fmt == "txt":
        data = "".join(f"{s.text}\n" for s in items).encode()
    elif fmt == "tsv":
        data = "".join(f"{s.sent_id}\t{s.text}\n" for s in items).encode()
    else:
        data = b"".join(
            orjson.dumps({"sent_id": s.sent_id, "sentence": s.text}) + b"\n" for s in items
        )
    atomic_write(output, data)


# --------------------------------------------------------------------------- convert


@main.command(epilog=EPILOG_EXIT)
@click.argument("source", metavar="INPUT")
@click.option(
    "--from",
    "from_",
    type=click.Choice(["auto", *NATIVE_FORMATS]),
    default="auto",
    show_default=True,
    help="The system's output format (README, 'Native formats'); auto detects it.",
)
@gold_options(facet=False)
@click.option(
    "-o",
    "--output",
    required=True,
    metavar="OUT.tsv",
    help="The BenchIE TSV to write ('-': stdout).",
)
@click.option(
    "--no-confidence",
    is_flag=True,
    help="Leave out the confidence column and its '#benchie-tsv confidence' directive.",
)
@click.option(
    "--report",
    "report_file",
    default=None,
    metavar="FILE",
    help="Write the alignment as JSON: every unaligned and ambiguous input sentence with its "
    "line, and the gold sentences without extraction.",
)
def convert(
    source: str,
    from_: str,
    lang: str,
    gold_version: str,
    gold_file: str | None,
    gold_dir: str | None,
    output: str,
    no_confidence: bool,
    report_file: str | None,
) -> None:
    """Convert a system's native output INPUT into a BenchIE TSV submission, its sentences
    aligned to the gold's ids by text; alignment statistics go to stderr.

    \b
    Examples:
      benchie convert --from openie4 --lang en openie4_output.txt -o openie4.tsv
      benchie convert --lang en llm.jsonl -o llm.tsv --report alignment.json
    """
    import io

    from benchie_cli.native import convert as convert_native
    from benchie_cli.native import detect, summary

    check_stdin_once(gold_file, [source])
    resolved = resolve(gold_dir, gold_version, gold_file, lang, "default")
    check_output(output, [source, *resolved.inputs], [report_file])
    check_output(report_file, [source, *resolved.inputs], [output])
    if from_ == "auto":
        spool(source)
        from_ = detect(source)
        if from_ == "benchie":
            raise BenchieError(
                "no native format recognised (BenchIE TSV needs no conversion); name it "
                "with --from",
                path=display_name(source),
            )
    texts = {i: s.text for i, s in load(resolved).sentences.items()}
    buffer = io.BytesIO()
    result = convert_native(
        source, from_, texts, buffer, confidence=not no_confidence, pad=False, lang=lang
    )
    atomic_write(output, buffer.getvalue())
    for line in summary(result, display_name(source)):
        click.echo(f"benchie: {line}", err=True)
    if report_file is not None:
        a = result.alignment
        doc = {
            "file": display_name(source),
            "sha256": result.sha256,
            "format": result.format,
            "extractions": result.extractions,
            "written": result.written,
            "confidence": result.confidence,
            "aligned_sentences": a.aligned_sentences,
            "dropped_extractions": a.dropped_extractions,
            "unaligned": [{"line": s.line, "sentence": s.text} for s in a.unaligned],
            "ambiguous": [
                {"line": s.line, "sentence": s.text, "gold_ids": list(s.candidates)}
                for s in a.ambiguous
            ],
            "gold_without_extraction": a.gold_without_extraction,
        }
        atomic_write(report_file, orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n")


def _say_written(output: str | None, fmt: str, what: str) -> None:
    """A report written to a file is named on stderr, so that a run with ``-o`` never ends
    in silence (and a mistyped path is seen at once)."""
    if output is not None and output != STDIN:
        click.echo(f"benchie: wrote {display_name(output)} ({fmt}: {what})", err=True)


# --------------------------------------------------------------------------- gold


@main.group(cls=BenchieGroup)
def gold() -> None:
    """Inspect and check the versioned gold store.

    \b
    Example:
      benchie gold stats --gold-version 1.0.0
    """


def _store(gold_dir: str | None) -> GoldStore:
    root, _ = resolve_gold_dir(gold_dir)
    return GoldStore(root)


gold_dir_option = click.option(
    "--gold-dir", default=None, metavar="DIR", help="Gold store directory."
)
format_option = click.option(
    "--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True
)


def _emit(fmt: str, doc: Any, rows: list[list[str]]) -> None:
    if fmt == "json":
        click.echo(orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode())
        return
    for line in render(rows):
        click.echo(line)


@gold.command("path", epilog=EPILOG_EXIT)
@gold_dir_option
def gold_path(gold_dir: str | None) -> None:
    """Print the gold directory in use (and how it was chosen, on stderr).

    \b
    Example:
      benchie gold path
    """
    root, source = resolve_gold_dir(gold_dir)
    click.echo(str(root.resolve()))
    click.echo(f"benchie: from {source}", err=True)


@gold.command("list", epilog=EPILOG_EXIT)
@gold_dir_option
@format_option
def gold_list(gold_dir: str | None, fmt: str) -> None:
    """List versions, languages and facets (derived facets marked).

    \b
    Example:
      benchie gold list --format json
    """
    store = _store(gold_dir)
    default_version = default_gold_version()
    doc: list[dict[str, Any]] = []
    rows = [["version", "language", "facets"]]
    pulled = store.require_versions()
    for version in sorted(set(pulled) | set(tracked_versions(store.root)), key=version_key):
        if version not in pulled:  # DVC tracks it; its remote may be one this clone cannot read
            remote = dvc_remote_of(store.root, version)
            doc.append(
                {
                    "version": version,
                    "default": version == default_version,
                    "pulled": False,
                    "dvc_remote": remote,
                }
            )
            kept = f" (remote {remote})" if remote else ""
            pull = f"`dvc pull {_relative(store.root / version)}.dvc`{kept}"
            rows.append([f"{version} (not pulled)", "-", pull])
            continue
        manifest = store.manifest(version)
        for lang in manifest.languages():
            facets = manifest.facets(lang)
            doc.append(
                {
                    "version": version,
                    "default": version == default_version,
                    "released": manifest.released,
                    "language": lang,
                    "facets": [{"facet": f, "derived_from": d} for f, d in facets],
                }
            )
            rows.append(
                [
                    version
                    + (" (default)" if version == default_version else "")
                    + ("" if manifest.released else " (draft)"),
                    lang,
                    ", ".join(f if d is None else f"{f} (from {d})" for f, d in facets),
                ]
            )
    _list_carb(store.root, doc, rows)
    _emit(fmt, doc, rows)


def _list_carb(root: Path, doc: list[dict[str, Any]], rows: list[list[str]]) -> None:
    """``gold list``'s rows of the CaRB benchmark (``<root>/carb/``), after BenchIE's."""
    from benchie_cli.metrics.carb_benchmark import carb_store

    carb = carb_store(root)
    pulled = carb.versions()
    for version in sorted(set(pulled) | set(tracked_versions(carb.root)), key=version_key):
        if version not in pulled:
            remote = dvc_remote_of(carb.root, version)
            doc.append(
                {"benchmark": "carb", "version": version, "pulled": False, "dvc_remote": remote}
            )
            kept = f" (remote {remote})" if remote else ""
            pull = f"`dvc pull {_relative(carb.root / version)}.dvc`{kept}"
            rows.append([f"carb {version} (not pulled)", "-", pull])
            continue
        manifest = carb.manifest(version)
        splits = [str(e.facet) for e in manifest.files if e.kind == "gold"]
        doc.append(
            {
                "benchmark": "carb",
                "version": version,
                "released": manifest.released,
                "language": "en",
                "splits": splits,
            }
        )
        draft = "" if manifest.released else " (draft)"
        rows.append([f"carb {version}{draft}", "en", "splits: " + ", ".join(splits)])


@gold.command("info", epilog=EPILOG_EXIT)
@click.option(
    "--gold-version", default=default_gold_version, show_default=GOLD_VERSION_SHOWN, metavar="V"
)
@gold_dir_option
@format_option
def gold_info(gold_version: str, gold_dir: str | None, fmt: str) -> None:
    """Show a version's manifest: files, hashes, counts, licence.

    \b
    Example:
      benchie gold info --gold-version 1.0.0
    """
    manifest = _store(gold_dir).manifest(gold_version)
    rows = [["file", "language", "facet", "sha256", "sentences", "synsets"]]
    for e in manifest.files:
        rows.append(
            [
                e.path,
                e.language,
                e.facet or e.kind,
                e.sha256,
                str(e.sentences if e.sentences is not None else "-"),
                str(e.synsets if e.synsets is not None else "-"),
            ]
        )
    if fmt == "table":
        status = "released" if manifest.released else "draft"
        click.echo(
            f"gold {manifest.version} ({status}): {manifest.description} ({manifest.license})"
        )
    _emit(fmt, manifest.as_json(), rows)


@gold.command("stats", epilog=EPILOG_EXIT)
@click.option(
    "--gold-version", default=default_gold_version, show_default=GOLD_VERSION_SHOWN, metavar="V"
)
@click.option(
    "--lang", type=click.Choice(LANGUAGES), default=None, help="Only this language [default: all]."
)
@gold_dir_option
@format_option
def gold_stats(gold_version: str, lang: str | None, gold_dir: str | None, fmt: str) -> None:
    """Sentences, synsets and expanded extractions per language and facet.

    \b
    Example:
      benchie gold stats --lang en --format json
    """
    from benchie_cli.gold.stats import count_gold

    store = _store(gold_dir)
    manifest = store.manifest(gold_version)
    if lang is not None and lang not in manifest.languages():
        raise BenchieError(
            f"gold {gold_version} has no language {lang!r} "
            f"(available: {', '.join(manifest.languages())})"
        )
    doc = []
    rows = [["language", "facet", "sentences", "synsets", "triple lines", "extractions"]]
    for language in manifest.languages():
        if lang is not None and language != lang:
            continue
        for facet, derived in manifest.facets(language):
            gold_data = load(store.resolve(gold_version, language, facet))
            counts = count_gold(gold_data, facet)
            doc.append(
                {
                    "version": gold_version,
                    "language": language,
                    "facet": facet,
                    "derived_from": derived,
                    **counts.as_json(),
                }
            )
            rows.append(
                [
                    language,
                    facet if derived is None else f"{facet} (from {derived})",
                    str(counts.sentences),
                    str(counts.synsets),
                    str(counts.triple_lines),
                    f"{counts.extractions}"
                    + (
                        " (saturated)" if counts.saturated else "" if counts.exact else " (approx.)"
                    ),
                ]
            )
    _emit(fmt, doc, rows)


@gold.command("verify", epilog=EPILOG_EXIT)
@click.option("--gold-version", default=None, metavar="V", help="Only this version [default: all].")
@gold_dir_option
def gold_verify(gold_version: str | None, gold_dir: str | None) -> None:
    """Recompute every sha256 against the manifests; say which versions are released; exit 1
    naming each file that differs, and each shipped version whose manifest is not the one
    benchie-cli released.

    \b
    Example:
      benchie gold verify
    """
    store = _store(gold_dir)
    versions = [gold_version] if gold_version else store.require_versions()
    problems = store.verify(versions)
    for leftover in sorted(store.root.glob(".new-*")):  # a `gold new` killed before cleanup
        problems.append((leftover.name, "left by an interrupted `gold new`: remove it"))
    not_shipped = []
    for version in versions:
        mismatch = store.shipped_mismatch(version)
        if mismatch is not None:
            problems.append((f"{version}/{MANIFEST}", mismatch))
            not_shipped.append(version)
    for name, problem in problems:
        click.echo(f"{display_name(str(store.root / name))}: error: {problem}", err=True)
    for version in versions:
        manifest = store.manifest(version)
        status = "released" if manifest.released else "draft (may still change)"
        if version in SHIPPED_MANIFESTS:
            status += ", shipped with benchie-cli"
        click.echo(f"{version}: {status}, {len(manifest.files)} file(s)")
    for version in sorted(set(tracked_versions(store.root)) - set(store.versions())):
        if gold_version is None:
            click.echo(f"{version}: tracked by DVC, not pulled (not verified)")
    files = sum(len(store.manifest(v).files) for v in versions)
    carb_failed = gold_version is None and not _verify_carb(store.root)
    if problems:
        differ = len(problems) - len(not_shipped)
        if differ:
            click.echo(
                f"benchie: {differ} of {files} gold file(s) differ from the manifest", err=True
            )
        if not_shipped:
            click.echo(
                f"benchie: the manifest of {', '.join(not_shipped)} is not the released one",
                err=True,
            )
        sys.exit(int(ExitCode.FAILED))
    if carb_failed:
        sys.exit(int(ExitCode.FAILED))
    click.echo(f"ok: {files} file(s) in {len(versions)} version(s) match their manifests")


def _verify_carb(root: Path) -> bool:
    """``gold verify`` of the CaRB benchmark's versions (``<root>/carb/``), if any: one line
    per version on stdout, an error per problem on stderr; whether all is well."""
    from benchie_cli.metrics.carb_benchmark import carb_store

    carb = carb_store(root)
    versions = carb.versions()
    problems = carb.verify(versions)
    for version in versions:
        mismatch = carb.shipped_mismatch(version)
        if mismatch is not None:
            problems.append((f"{version}/{MANIFEST}", mismatch))
    for name, problem in problems:
        click.echo(f"{display_name(str(carb.root / name))}: error: {problem}", err=True)
    for version in versions:
        manifest = carb.manifest(version)
        status = "released" if manifest.released else "draft (may still change)"
        if version in carb.shipped:
            status += ", shipped with benchie-cli"
        click.echo(f"carb {version}: {status}, {len(manifest.files)} file(s)")
    for version in sorted(set(tracked_versions(carb.root)) - set(versions)):
        click.echo(f"carb {version}: tracked by DVC, not pulled (not verified)")
    if problems:
        click.echo(f"benchie: {len(problems)} problem(s) in the CaRB benchmark's gold", err=True)
    return not problems


@gold.command("compile", epilog=EPILOG_EXIT)
@click.option("--gold-version", default=None, metavar="V", help="Only this version [default: all].")
@gold_dir_option
def gold_compile(gold_version: str | None, gold_dir: str | None) -> None:
    """Fill the index cache with every version, language and facet, so that no later run
    pays for parsing the gold (container images run this at build time).

    \b
    Example:
      BENCHIE_CACHE_DIR=/opt/benchie/cache benchie gold compile
    """
    from benchie_cli.metrics.index_cache import compile_store

    store = _store(gold_dir)
    versions = [gold_version] if gold_version else store.versions()
    written = compile_store(store, versions)
    click.echo(f"compiled {len(written)} index(es) into {written[0].parent}")


force_option = click.option(
    "--force",
    is_flag=True,
    help="Rewrite a released version's manifest (only for one never published: reports "
    "name its files' sha256).",
)


@gold.command("manifest", epilog=EPILOG_EXIT)
@click.argument("version_dir", type=click.Path(file_okay=False, exists=True))
@click.option("--description", default=None, help="Description of the version.")
@click.option("--license", "license_", default=None, help="Licence of the data.")
@force_option
def gold_manifest(
    version_dir: str, description: str | None, license_: str | None, force: bool
) -> None:
    """Write a draft version's manifest.json from its <lang>/<facet>/<file> layout.

    A version added with `gold new --draft` (or a directory laid out by hand, which becomes
    a draft) may be corrected until `gold release`; this rewrites its hashes and counts
    after an edit (then `dvc add` it again). A released version is refused (exit 2) without
    --force.

    \b
    Example:
      benchie gold manifest gold/2.1.0 --description "ACME test gold, draft 2"
    """
    path = Path(version_dir)
    manifest = build_manifest(path, description=description, license=license_)
    write_manifest(path, manifest, force=force)
    status = "released" if manifest.released else "draft"
    click.echo(
        f"benchie: wrote {display_name(str(path / MANIFEST))} ({len(manifest.files)} file(s), "
        f"{status}); if DVC tracks the version, `dvc add` it again",
        err=True,
    )


@gold.command("new", epilog=EPILOG_EXIT)
@click.argument("version")
@click.option(
    "--from",
    "source",
    required=True,
    type=click.Path(file_okay=False, exists=True),
    metavar="DIR",
    help="The version's files: <lang>/<facet>/FILE (facet default or entity; "
    "<lang>/reference/ for files kept but not scored) and top-level notes such as "
    "ATTRIBUTION.md.",
)
@click.option("--description", required=True, help="What the version is (in its manifest).")
@click.option("--license", "license_", required=True, help="Licence of the data.")
@click.option(
    "--draft", is_flag=True, help="Keep the version editable until `benchie gold release`."
)
@click.option(
    "--remote",
    default=None,
    metavar="NAME",
    help="DVC remote of this version only (e.g. a private one) [default: the repository's].",
)
@click.option("--no-dvc", is_flag=True, help="Do not track the version with DVC.")
@gold_dir_option
def gold_new(
    version: str,
    source: str,
    description: str,
    license_: str,
    draft: bool,
    remote: str | None,
    no_dvc: bool,
    gold_dir: str | None,
) -> None:
    """Add the gold files in DIR to the store as VERSION.

    Validates every file (errors: exit 1, nothing written), copies them into gold/VERSION
    with a manifest, tracks the version with DVC on its own (gold/VERSION.dvc; with
    --remote, on that remote only), and prints the next steps and the CHANGELOG entry.
    An existing version is never replaced.

    \b
    Example:
      benchie gold new 2.0.0 --from test-gold/ --description "ACME task test gold" \\
          --license "private" --remote private
    """
    from benchie_cli.gold.lifecycle import ValidationFailed, new_version

    root, _ = resolve_gold_dir(gold_dir)
    try:
        added = new_version(
            root,
            version,
            Path(source),
            description=description,
            license=license_,
            draft=draft,
            remote=remote,
            use_dvc=not no_dvc,
        )
    except ValidationFailed as exc:
        for diagnostic in exc.errors:
            click.echo(diagnostic.format(), err=True)
        raise
    _report_added(added, root, released=not draft)


@gold.command("release", epilog=EPILOG_EXIT)
@click.argument("version")
@click.option("--description", default=None, help="What the version is [default: the draft's].")
@click.option("--license", "license_", default=None, help="Licence [default: the draft's].")
@click.option(
    "--remote",
    default=None,
    metavar="NAME",
    help="DVC remote of this version only (e.g. a private one) [default: the one its .dvc "
    "file names, else the repository's].",
)
@click.option("--no-dvc", is_flag=True, help="Do not track the version with DVC.")
@gold_dir_option
def gold_release(
    version: str,
    description: str | None,
    license_: str | None,
    remote: str | None,
    no_dvc: bool,
    gold_dir: str | None,
) -> None:
    """Freeze a draft VERSION: validate it again, write its manifest as released (it must
    have a description and a licence), track it with DVC and print the CHANGELOG entry.
    From then on it never changes.

    \b
    Example:
      benchie gold release 2.0.0
    """
    from benchie_cli.gold.lifecycle import ValidationFailed, release_version

    root, _ = resolve_gold_dir(gold_dir)
    try:
        added = release_version(
            root,
            version,
            description=description,
            license=license_,
            remote=remote,
            use_dvc=not no_dvc,
        )
    except ValidationFailed as exc:
        for diagnostic in exc.errors:
            click.echo(diagnostic.format(), err=True)
        raise
    _report_added(added, root, released=True)


#: Validation warnings ``gold new`` and ``gold release`` print before a count of the rest.
WARNINGS_SHOWN = 10


def _relative(path: Path) -> str:
    """``path`` relative to the working directory when it lies below it: commands to paste."""
    try:
        return display_name(str(path.resolve().relative_to(Path.cwd().resolve())))
    except ValueError:
        return display_name(str(path))


def _report_added(added: Added, root: Path, *, released: bool) -> None:
    """Say what ``gold new`` / ``gold release`` wrote (stderr) and print the next steps and
    the CHANGELOG entry (stdout, to paste)."""
    from benchie_cli.gold.lifecycle import changelog_stub

    for diagnostic in added.warnings[:WARNINGS_SHOWN]:
        click.echo(diagnostic.format(), err=True)
    if len(added.warnings) > WARNINGS_SHOWN:
        click.echo(
            f"benchie: {len(added.warnings):,} warning(s) in all (`benchie validate --kind gold "
            "FILE` lists them); warnings do not stop a version, errors do",
            err=True,
        )
    status = "released" if released else "draft"
    gold_files = [e for e in added.manifest.files if e.kind == "gold"]
    click.echo(
        f"benchie: gold {added.version} ({status}): {len(gold_files)} gold file(s) in "
        f"{display_name(str(added.path))}, manifest sha256 {added.manifest_sha256}; "
        f"{added.dvc_note}",
        err=True,
    )
    if added.dvc_file is not None:
        dvc_rel = _relative(added.dvc_file)
        staged = [dvc_rel, _relative(root / ".gitignore")]
        if added.remote:  # the remote's name and URL are committed; credentials are not
            staged.append(_relative(root.parent / ".dvc" / "config"))
        click.echo("Next steps:")
        click.echo(f"  dvc push {dvc_rel}")
        click.echo(f"  git add {' '.join(staged)} && git commit -m 'gold {added.version}'")
    if not released:
        click.echo(f"When it is final: benchie gold release {added.version}")
        return
    click.echo("CHANGELOG.md entry:")
    click.echo("")
    click.echo(changelog_stub(added), nl=False)


@gold.command("diff", epilog=EPILOG_EXIT)
@click.argument("version_a", metavar="A")
@click.argument("version_b", metavar="B")
@click.option(
    "--lang", type=click.Choice(LANGUAGES), default=None, help="Only this language [default: all]."
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@gold_dir_option
def gold_diff(
    version_a: str, version_b: str, lang: str | None, fmt: str, gold_dir: str | None
) -> None:
    """Synset-level differences between gold versions A and B (default facet), per language
    and sentence: sentences added, removed or with a new text; synsets added, removed or
    changed (triple forms added and removed), in gold order. Exits 0 even when the versions
    differ: it is a report.

    \b
    Example:
      benchie gold diff 1.0.0 1.1.0 --lang zh
    """
    from benchie_cli.gold.diff import diff_as_json, diff_lines, diff_versions

    diffs = diff_versions(_store(gold_dir), version_a, version_b, lang)
    if fmt == "json":
        doc = diff_as_json(version_a, version_b, diffs)
        click.echo(orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode())
        return
    for line in diff_lines(version_a, version_b, diffs):
        click.echo(line)


@gold.command("impact", epilog=EPILOG_EXIT)
@click.argument("version_a", metavar="A")
@click.argument("version_b", metavar="B")
@click.argument("submissions", nargs=-1, required=True, metavar="SUBMISSION...")
@click.option("--lang", type=click.Choice(LANGUAGES), default="en", show_default=True)
@click.option("--facet", type=click.Choice(ALL_FACETS), default="default", show_default=True)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@gold_dir_option
def gold_impact(
    version_a: str,
    version_b: str,
    submissions: tuple[str, ...],
    lang: str,
    facet: str,
    fmt: str,
    gold_dir: str | None,
) -> None:
    """Score each SUBMISSION (BenchIE TSV: PATH, NAME=PATH or a directory) under gold
    versions A and B: P/R/F1 under each and the difference, and the synsets (sentence id,
    synset number) whose matches by the system differ between the versions.

    \b
    Example:
      benchie gold impact 1.0.0 1.1.0 --lang zh examples/submissions/zh/
    """
    from benchie_cli.gold.diff import gold_impact as impact
    from benchie_cli.gold.diff import impact_as_json, impact_lines

    store = _store(gold_dir)
    batch = expand(submissions)
    with no_cyclic_gc():
        compiled = load_compiled(store.resolve(version_b, lang, facet))
        texts = dict(zip(compiled.sent_ids, compiled.texts, strict=True))
        systems = impact(
            lambda version: store.resolve(version, lang, facet),
            version_a,
            version_b,
            ScoreOptions(lang, facet),
            batch,
            mistake_check(lang, texts, gold_dir, version_b, None, False),
        )
    for system in systems:  # a wrong --lang or format is a hint here as in `score`
        _summarise_warnings(system.result, lang)
    if fmt == "json":
        doc = impact_as_json(version_a, version_b, lang, facet, systems)
        click.echo(orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode())
        return
    for line in impact_lines(version_a, version_b, systems):
        click.echo(line)


# --------------------------------------------------------------------------- verify


@main.command(epilog=EPILOG_EXIT)
@click.argument("report_file", metavar="REPORT.json")
@click.argument("submissions", nargs=-1, metavar="[SUBMISSION...]")
@click.option(
    "--gold-dir",
    default=None,
    metavar="DIR",
    help="Gold store directory (default: $BENCHIE_GOLD_DIR, the checkout's gold/, the "
    "installed copy).",
)
@click.option(
    "--gold-file",
    default=None,
    metavar="FILE",
    help="The gold file of a report scored with --gold-file.",
)
@click.option("--jobs", type=JOBS, default=None, help="Processes for large submission files.")
def verify(
    report_file: str,
    submissions: tuple[str, ...],
    gold_dir: str | None,
    gold_file: str | None,
    jobs: int | None,
) -> None:
    """Re-derive a `score` JSON report: resolve the gold it names (by sha256), check each
    submission's sha256, score again with the report's options and compare byte for byte.

    SUBMISSIONs are the report's systems in order (default: each system's `file`). Exit 1
    names every field that differs (`systems[0].f1: report ... != re-derived ...`); exit 2
    for a report of another schema or version, or one that is not JSON.

    \b
    Examples:
      benchie verify report.json examples/submissions/en/clausie.tsv
      benchie verify report.json
    """
    from benchie_cli.verify import MISMATCHES_SHOWN
    from benchie_cli.verify import verify as run_verify

    verdict = run_verify(
        report_file, list(submissions), gold_dir=gold_dir, gold_file=gold_file, jobs=jobs
    )
    for note in verdict.notes:
        click.echo(f"benchie: note: {note}", err=True)
    if verdict.identical:
        click.echo(f"ok: {verdict.report} re-derived byte for byte ({verdict.systems} system(s))")
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


# --------------------------------------------------------------------------- cache


@main.group(cls=BenchieGroup, epilog=EPILOG_EXIT)
def cache() -> None:
    """Inspect and prune the compiled-index cache.

    \b
    Example:
      benchie cache info
    """


@cache.command("info", epilog=EPILOG_EXIT)
@format_option
def cache_info(fmt: str) -> None:
    """List the cache directory, its entries (size, gold sha256, facet, code fingerprint,
    whether this code reads it) and totals.

    \b
    Example:
      benchie cache info --format json
    """
    from benchie_cli.metrics.cache_admin import code_fingerprint, human_size, list_cache
    from benchie_cli.metrics.index_cache import ENV_CACHE_DIR, cache_dir

    directory = cache_dir()
    if directory is None:
        if fmt == "json":
            _emit(fmt, {"directory": None, "enabled": False}, [])
        else:
            click.echo(f"the index cache is off (${ENV_CACHE_DIR})")
        return
    listing = list_cache(directory)
    if fmt == "json":
        doc = {
            "directory": str(directory),
            "enabled": True,
            "exists": listing.exists,
            "code": code_fingerprint(),
            "entries": [f.as_json() for f in listing.files],
            "files": len(listing.files),
            "bytes": listing.total,
            "other_files": listing.others,
        }
        _emit(fmt, doc, [])
        return
    click.echo(f"cache: {directory}{'' if listing.exists else ' (does not exist yet)'}")
    click.echo(f"code fingerprint: {code_fingerprint()}")
    if listing.files:
        rows = [["name", "size", "gold", "facet", "code", "current"]]
        for f in listing.files:
            current = "yes" if f.current else "no"
            if f.kind == "temporary":
                current = "stale tmp" if f.stale else "tmp"
            rows.append(
                [
                    f.name,
                    human_size(f.size),
                    (f.gold_sha256 or "-")[:12],
                    f.facet or "-",
                    f.code or "-",
                    current if f.kind != "old-entry" else "no (0.2.0)",
                ]
            )
        for line in render(rows, [1]):
            click.echo(line)
    reads = sum(1 for f in listing.files if f.current)
    click.echo(
        f"{len(listing.files)} file(s), {human_size(listing.total)}; {reads} current, "
        f"{len(listing.files) - reads} prunable or temporary"
        + (f"; {listing.others} other file(s) left alone" if listing.others else "")
    )


@cache.command("prune", epilog=EPILOG_EXIT)
@click.option("--all", "everything", is_flag=True, help="Remove every entry, current ones too.")
def cache_prune(everything: bool) -> None:
    """Remove entries this code never reads (another code fingerprint, 0.2.0's *.marshal)
    and stale temporary files; only regular files named like entries, no link followed.

    \b
    Examples:
      benchie cache prune
      benchie cache prune --all
    """
    from benchie_cli.metrics.cache_admin import human_size, prune, require_dir

    directory = require_dir()
    removed = prune(directory, everything=everything)
    for f in removed:
        click.echo(f"removed {f.name} ({human_size(f.size)})")
    total = sum(f.size for f in removed)
    click.echo(f"removed {len(removed)} file(s), {human_size(total)} from {directory}")


def run() -> None:
    """Console entry point: ``main`` with failures to write standard output (a full disk,
    a closed pipe) reported as one line instead of a traceback.

    Standard output is then abandoned (see ``abandon_stdout``), so that the interpreter's
    final flush cannot fail a second time. A process without standard output (``>&-``)
    runs as usual; only writing a report to it fails (one line, exit 2).

    The stop signals are handled by ``benchie_cli.entry``, the one way in (the console
    script and ``python -m benchie_cli``), before this module is imported.
    """
    keep_stderr_past_a_closed_pipe()
    try:
        try:
            main()
        finally:
            if sys.stdout is not None:
                sys.stdout.flush()
    except BrokenPipeError:  # `benchie ... | head`: the reader has what it wanted
        abandon_stdout()
        sys.exit(0)
    except OSError as exc:
        abandon_stdout()
        click.echo(f"benchie: error: cannot write standard output: {exc.strerror or exc}", err=True)
        sys.exit(int(ExitCode.USAGE))
