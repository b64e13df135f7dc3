"""The command groups: every :class:`~benchie_cli.errors.BenchieError` becomes one stderr
line and its exit status, and the top-level group imports a command's module only when that
command runs (``benchie --version`` imports none: start-up is most of a short run)."""

from __future__ import annotations

import importlib
import signal
import sys
from typing import Any

import click

from benchie_cli.errors import BenchieError
from benchie_cli.textio import release_spooled

EPILOG_EXIT = (
    "Exit status: 0 success, 1 negative verdict, 2 unusable input or usage, "
    "129 hung up, 130 interrupted (Ctrl-C), 143 terminated."
)


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


class BenchieGroup(click.Group):
    """Turns every :class:`BenchieError` into one stderr line and its exit status."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BenchieError as exc:
            click.echo(f"benchie: {exc}", err=True)
            ctx.exit(int(exc.exit_code))
        except BrokenPipeError:  # `benchie ... | head`: the reader has what it wanted
            sys.stderr.close()
            ctx.exit(verdict())
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
