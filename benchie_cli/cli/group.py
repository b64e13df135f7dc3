"""The command groups: every :class:`~benchie_cli.errors.BenchieError` becomes one stderr
line and its exit status, and the top-level group imports a command's module only when that
command runs (``benchie --version`` imports none: start-up is most of a short run)."""

from __future__ import annotations

import importlib
import os
import shlex
import signal
import sys
from typing import Any, NoReturn

import click

from benchie_cli.errors import BenchieError, ExitCode, printable_path
from benchie_cli.stops import TRACEBACK_ENV, abandon_stdout, bug_line
from benchie_cli.textio import release_spooled

EPILOG_EXIT = (
    "Exit status: 0 success, 1 negative verdict, 2 unusable input or usage, "
    "70 internal error (a bug: please report it), "
    "129 hung up, 130 interrupted (Ctrl-C), 143 terminated."
)

#: Where ``Context.meta`` keeps the words the command line gave the top-level group.
_ARGV = "benchie.argv"


#: The exit status a command has decided before it prints its output (its verdict).
_verdict = 0


def set_verdict(status: int) -> None:
    """Record the exit status the command will end with, before it prints: a reader that
    closes standard output early (``benchie validate bad.tsv | head -1``) stops the
    printing, not the verdict, so a failing run must not exit 0."""
    global _verdict
    _verdict = max(_verdict, status)


def verdict() -> int:
    """The exit status of a command whose output's reader went away (0: none decided)."""
    return _verdict


def _command_line(ctx: click.Context) -> str:
    """The command as typed (``benchie verify report.json``), escaped to one line."""
    words = ctx.find_root().meta.get(_ARGV, [])
    return printable_path(shlex.join(["benchie", *words]))


def internal_error(ctx: click.Context, exc: Exception) -> str:
    """The one line for an exception no check foresaw: a bug, said as one, with the
    command and its inputs (its arguments) a report needs."""
    return f"benchie: {bug_line(exc, _command_line(ctx))}"


def environment_error(exc: OSError) -> str:
    """The one line for an operating-system failure no check foresaw (a file that vanished
    mid-run, a full disk): the file and the system's reason."""
    where = f"{printable_path(str(exc.filename))}: " if exc.filename is not None else ""
    return f"benchie: {where}error: {exc.strerror or exc}"


def _stdout_failed(exc: OSError) -> bool:
    """Whether ``exc`` (no file named) was standard output failing: it fails again."""
    if exc.filename is not None or sys.stdout is None:
        return False
    try:
        sys.stdout.flush()
    except OSError:
        return True
    return False


def _stopped(exc: BaseException) -> bool:
    """Whether ``exc`` is a stop signal's (``entry.py`` raises ``SystemExit(128 + signal)``;
    no command exits with a status above 70 of its own), after which nothing more is
    written."""
    if isinstance(exc, KeyboardInterrupt):
        return True
    return isinstance(exc, SystemExit) and isinstance(exc.code, int) and exc.code > 128


def _save_memos(ctx: click.Context) -> None:
    """The memos a command computed, written as it ends (a stop signal is handled there as
    anywhere else in the run)."""
    memos = sys.modules.get("benchie_cli.disk_cache")  # (loaded by runs that use one)
    if memos is not None and ctx.parent is None:
        memos.save_memos()


def _reader_gone(ctx: click.Context) -> NoReturn:
    """End the command whose standard output's reader went away (``| head``): it had what
    it wanted. Quietly, with the verdict the command decided; what is left in the output's
    buffers goes nowhere, so that no later flush fails and says so."""
    abandon_stdout()
    ctx.exit(verdict())


class BenchieGroup(click.Group):
    """Turns every :class:`BenchieError` into one stderr line and its exit status, and any
    other exception into one line too (exit 2 for the system's, 70 for a bug)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if ctx.parent is None:  # the words the command line gave, for internal_error
            ctx.meta[_ARGV] = list(args)
        try:
            return super().parse_args(ctx, args)
        except BrokenPipeError:  # `benchie --version | true` (click writes it while parsing)
            _reader_gone(ctx)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """The command ``args[0]`` names; a misspelt one (``benchie scroe``) is a usage error
        that suggests the closest names, as click does for options. Click's own suggestion
        looks only at the commands already loaded (none, for the lazy top-level group), and
        before click 8.4 there is none at all."""
        name = args[0] if args else ""
        if (
            name
            and not name.startswith("-")
            and not ctx.resilient_parsing
            and self.get_command(ctx, name) is None
        ):
            import difflib

            close = difflib.get_close_matches(name, self.list_commands(ctx))
            if close:
                quoted = ", ".join(repr(c) for c in close)
                hint = (
                    f"Did you mean {quoted}?"
                    if len(close) == 1
                    else f"(Did you mean one of: {quoted}?)"
                )
                raise click.UsageError(f"No such command {name!r}. {hint}", ctx)
        return super().resolve_command(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            result = self._invoke(ctx)
        except BaseException as exc:  # an error, an exit status of the command's own, a stop
            if not _stopped(exc):
                _save_memos(ctx)
            raise
        _save_memos(ctx)
        return result

    def _invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BenchieError as exc:
            click.echo(f"benchie: {exc}", err=True)
            ctx.exit(int(exc.exit_code))
        except BrokenPipeError:  # `benchie ... | head`
            _reader_gone(ctx)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.Abort):
            raise  # click's own: usage errors, --help, exits
        except OSError as exc:
            if os.environ.get(TRACEBACK_ENV) or _stdout_failed(exc):
                raise  # the console entry point says "cannot write standard output"
            click.echo(environment_error(exc), err=True)
            ctx.exit(int(ExitCode.USAGE))
        except Exception as exc:
            if os.environ.get(TRACEBACK_ENV):
                raise
            click.echo(internal_error(ctx, exc), err=True)
            ctx.exit(int(ExitCode.INTERNAL))
        finally:  # a run's copies of pipes and native files end with it (tests run many)
            release_spooled()


class LazyGroup(BenchieGroup):
    """A group whose commands are ``"module:attribute"`` strings, imported on first use."""

    def __init__(self, *args: Any, lazy: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = self.lazy.get(cmd_name)
        if target is None:
            return super().get_command(ctx, cmd_name)
        module, _, attribute = target.partition(":")
        # The stop signals wait while the command's modules load (as entry.main does for
        # the CLI's): a signal handled in the middle of an extension module's
        # initialisation (orjson, numpy) can crash the interpreter.
        stops = [getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n)]
        mask = getattr(signal, "pthread_sigmask", None)  # POSIX only
        previous = mask(signal.SIG_BLOCK, stops) if mask is not None else None
        try:
            loaded = importlib.import_module(module)
        finally:
            if mask is not None and previous is not None:
                mask(signal.SIG_SETMASK, previous)
        command: click.Command = getattr(loaded, attribute)
        return command
