"""What the commands share: the gold options and their resolution (through the API),
checks of arguments made before any work, and the messages every command prints the same
way. It imports only what every command needs: the API, scoring and native readers are
imported by the functions that use them."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click
import orjson

from benchie_cli import DEFAULT_GOLD_VERSION, LANGUAGES, default_gold_version, limits
from benchie_cli.errors import BenchieError, ExitCode, format_location
from benchie_cli.inputs.findings import EXPLAIN_IMPLICIT
from benchie_cli.inputs.formats import INPUT_FORMATS
from benchie_cli.registry import BASE_FACET, BENCHMARKS, FACET_NAMES, FACETS, SCORE_LANGUAGES
from benchie_cli.tables import render
from benchie_cli.textio import STDIN, display_name
from benchie_cli.tokens import language_hint, mostly_implicit

if TYPE_CHECKING:
    from benchie_cli.api import Gold
    from benchie_cli.benchmarks.benchie.scoring import SystemResult

F = TypeVar("F", bound=Callable[..., Any])

GOLD_VERSION_SHOWN = f"{DEFAULT_GOLD_VERSION}, or $BENCHIE_GOLD_VERSION"

#: ``--gold-dir`` of every command that reads gold (docs/install.md, the order of stores).
GOLD_DIR_HELP = (
    "The first gold store looked in (replaces $BENCHIE_GOLD_DIR); then the checkout's gold/, "
    "the user data directory, the installed package's gold: `benchie gold path --all`."
)


def gold_options(*, facet: bool = True, every_benchmark: bool = False) -> Callable[[F], F]:
    """The options every gold-reading command shares; ``every_benchmark``: ``--lang`` takes
    the languages of every benchmark (``score --benchmark``), not BenchIE's only."""

    def decorate(f: F) -> F:
        options = [
            click.option(
                "--lang",
                type=click.Choice(SCORE_LANGUAGES if every_benchmark else LANGUAGES),
                default="en",
                show_default=True,
                help="Language of the gold and the submissions"
                + (
                    " ("
                    + "; ".join(
                        f"{b.name}: {', '.join(b.languages)}"
                        for b in BENCHMARKS.values()
                        if len(b.languages) > 1
                    )
                    + "; the others: en)."
                    if every_benchmark
                    else "."
                ),
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
                help=GOLD_DIR_HELP,
            ),
        ]
        if facet:
            options.insert(
                1,
                click.option(
                    "--facet",
                    type=click.Choice(FACET_NAMES),
                    default=BASE_FACET,
                    show_default=True,
                    help=", ".join(f"{f.name} ({f.label})" for f in FACETS.values()) + ".",
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


def say(line: str) -> None:
    """One message on stderr, as every command prints them: ``benchie: LINE``."""
    click.echo(f"benchie: {line}", err=True)


def say_once(line: str) -> None:
    """:func:`say`, once per run for the same line: a draft gold is said once however many
    of its files a command reads."""
    ctx = click.get_current_context(silent=True)
    said: set[str] = ctx.find_root().meta.setdefault("benchie.said", set()) if ctx else set()
    if line not in said:
        said.add(line)
        say(line)


def load_gold(
    gold_dir: str | None,
    version: str,
    gold_file: str | None,
    lang: str,
    facet: str = BASE_FACET,
) -> Gold:
    """The gold of the gold options: ``api.load_gold``, after refusing a ``--gold-file``
    given with a ``--gold-version``; a draft version is said once per run. Scoring against
    a draft is allowed (organisers check their gold with it), but its files may still
    change under the same version number, and only the report's sha256 then tells two such
    runs apart."""
    from benchie_cli import api

    check_gold_choice(gold_file)
    return api.load_gold(
        lang,
        None if gold_file is not None else version,
        facet,
        gold_dir=gold_dir,
        gold_file=gold_file,
        say=say_once,
    )


input_format_option = click.option(
    "--input-format",
    type=click.Choice(INPUT_FORMATS),
    default="auto",
    show_default=True,
    help="Format of the submissions: auto detects it from the first lines; benchie is BenchIE "
    "TSV; the others are systems' own outputs, aligned to the gold by sentence text "
    "(docs/native-formats.md).",
)

#: A batch at least this long shows a progress bar (on an interactive terminal only).
PROGRESS_MIN = 5

#: The documented ranges of numeric options (``benchie_cli.limits``), checked by click
#: (exit 2 with its message).
JOBS = click.IntRange(*limits.JOBS)
RESAMPLES = click.IntRange(*limits.RESAMPLES)
SEED = click.IntRange(*limits.SEED)
EXAMPLES = click.IntRange(*limits.EXAMPLES)


#: ``--retokenize``, shared by every command that reads submissions against the gold.
retokenize_option = click.option(
    "--retokenize",
    is_flag=True,
    help="Re-split slots onto their sentence's own tokens where that is unambiguous "
    "(don't -> do n't, Chinese without spaces); off by default.",
)


def exit_on_failures(failed: int, submissions: int) -> None:
    """A batch of which ``failed`` submissions could not be scored: said, and exit 1."""
    if failed:
        click.echo(
            f"benchie: {failed} of {submissions} submission(s) could not be scored", err=True
        )
        sys.exit(int(ExitCode.FAILED))


def summarise_warnings(result: SystemResult, lang: str) -> None:
    """What a user at 2 a.m. must know about a submission, in a few stderr lines."""
    if result.implicit_count:
        click.echo(
            f"benchie: {result.name}: {result.implicit_count} implicit extraction(s) removed "
            "before scoring (the JSON report and `benchie strip-implicit --removed` list them)",
            err=True,
        )
        if mostly_implicit(result.implicit_count, result.facts.extractions) and not any(
            f.code in EXPLAIN_IMPLICIT for f in result.findings
        ):
            hint = language_hint(result.implicit_count, result.facts.extractions, lang)
            click.echo(f"benchie: {result.name}: {hint}", err=True)
    for finding in result.findings:  # (at PATH:LINE, as every error and warning is)
        where = format_location(result.facts.path, finding.line)
        click.echo(f"benchie: {where}hint: {finding.message} [{finding.code}]", err=True)
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


def say_written(output: str | None, fmt: str, what: str) -> None:
    """A report written to a file is named on stderr, so that a run with ``-o`` never ends
    in silence (and a mistyped path is seen at once)."""
    if output is not None and output != STDIN:
        click.echo(f"benchie: wrote {display_name(output)} ({fmt}: {what})", err=True)


format_option = click.option(
    "--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True
)


def emit(fmt: str, doc: Any, rows: list[list[str]]) -> None:
    """A listing as indented JSON, or as a table."""
    if fmt == "json":
        click.echo(orjson.dumps(doc, option=orjson.OPT_INDENT_2).decode())
        return
    for line in render(rows):
        click.echo(line)
