"""The ``benchie`` command line: a thin package of commands, one module per command (or
family of commands); the work is in the library (``benchie_cli.api`` for scoring and
analysis; the ``gold``, ``metrics`` and ``analysis`` packages for the rest).

Exit statuses (``benchie --help`` repeats them): 0 success; 1 the run worked but its verdict
is negative (validation errors, gold that differs from its manifest or from --expect-gold,
--strict warnings); 2 unusable input or usage (missing or unreadable file, bad bytes, unknown
gold version, a scoring worker that died); 129, 130, 143 stopped by SIGHUP, SIGINT (Ctrl-C),
SIGTERM, with every temporary file removed. Errors are one line on stderr,
``PATH:LINE: error: message``, never a traceback.
"""

from __future__ import annotations

import sys

import click

from benchie_cli import __version__, default_gold_version
from benchie_cli.cli.group import EPILOG_EXIT, LazyGroup, verdict
from benchie_cli.errors import ExitCode
from benchie_cli.textio import abandon_stdout, keep_stderr_past_a_closed_pipe

#: Every command: its module is imported only when it runs (or for ``--help``).
COMMANDS = {
    "analyze": "benchie_cli.cli.analyze:analyze",
    "benchmark": "benchie_cli.cli.benchmark:benchmark",
    "cache": "benchie_cli.cli.cache:cache",
    "convert": "benchie_cli.cli.convert:convert",
    "gold": "benchie_cli.cli.gold:gold",
    "platform": "benchie_cli.cli.platform:platform",
    "plot": "benchie_cli.cli.plot:plot",
    "score": "benchie_cli.cli.score:score",
    "sentences": "benchie_cli.cli.convert:sentences",
    "strip-implicit": "benchie_cli.cli.validate:strip_implicit_cmd",
    "validate": "benchie_cli.cli.validate:validate",
    "verify": "benchie_cli.cli.verify:verify",
}


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(f"benchie {__version__} (default gold {default_gold_version()}{_build()})")
        ctx.exit(0)


def _build() -> str:
    """``; compiled`` for a compiled build (docs/install.md), where every module it compiles
    is an extension module; ``; partly compiled`` if only some are (a broken install);
    nothing for the pure build. Timings and bug reports depend on which one runs."""
    from benchie_cli.compiled import MODULES, compiled_modules

    found = len(compiled_modules())
    return "" if not found else "; compiled" if found == len(MODULES) else "; partly compiled"


@click.group(
    cls=LazyGroup,
    lazy=COMMANDS,
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog=EPILOG_EXIT,
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
        sys.exit(verdict())
    except OSError as exc:
        abandon_stdout()
        click.echo(f"benchie: error: cannot write standard output: {exc.strerror or exc}", err=True)
        sys.exit(int(ExitCode.USAGE))
