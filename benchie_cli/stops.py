"""The stop signals, taken as every command of benchie takes them: ``benchie`` (from its
first moment, :mod:`benchie_cli.entry`) and the metric modules' command lines
(:func:`run_module`).

SIGINT (Ctrl-C), SIGTERM and SIGHUP raise ``SystemExit(128 + signal)`` (130, 143, 129, the
statuses shells report for a death by that signal) without a message or traceback: as an
exception, not a death, so that every ``finally`` runs first: a half-written report or cache
entry is removed, and scoring workers are killed. Not ``KeyboardInterrupt``, which click
would turn into "Aborted!" and exit status 1. A signal the caller ignores (``nohup``,
``cmd &`` in a script) stays ignored.

This module imports nothing but what the interpreter has loaded at start (it is imported
before the handlers are in place: typing alone would take ~10 ms).
"""

from __future__ import annotations

import atexit
import os
import signal
import sys
from types import FrameType

TYPE_CHECKING = False  # (typing's own, without importing typing)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, NoReturn, TextIO

#: Set (to anything) to get the traceback of an internal error instead of its one line
#: (docs/exit-status.md): ``benchie``'s commands and the metric modules' command lines.
TRACEBACK_ENV = "BENCHIE_TRACEBACK"

#: How long a stop that arrives in the middle of an import waits before it is tried again.
_RETRY_SECONDS = 0.005


def _importing(frame: FrameType | None) -> bool:
    """Whether ``frame`` runs inside the import machinery (a module's loading)."""
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


#: The stop signals received in an import and not yet taken (:func:`_stop`, :func:`settle`).
_deferred: list[int] = []


def _stop(signum: int, frame: FrameType | None) -> None:
    """Raise ``SystemExit(128 + signum)``, unless a module is being imported: an exception
    raised there is turned by the import machinery into a traceback, or swallowed. The stop
    then waits until the import is done: it is tried again a few milliseconds later, by a
    timer (commands import their modules lazily, so this can happen at any moment)."""
    if _importing(frame) and hasattr(signal, "setitimer"):
        _deferred.append(signum)
        signal.signal(signal.SIGALRM, lambda _, again: _stop(signum, again))
        signal.setitimer(signal.ITIMER_REAL, _RETRY_SECONDS)
        return
    _deferred.clear()
    raise SystemExit(128 + signum)


def settle() -> int | None:
    """The exit status of a stop received in an import and not taken yet (None: there is
    none), its timer cancelled. Where a program ends: a command that ended within the few
    milliseconds of the wait would otherwise exit with its own status, or die by the
    timer's SIGALRM in the interpreter's exit (status 142)."""
    if not _deferred:
        return None
    signal.setitimer(signal.ITIMER_REAL, 0)
    return 128 + _deferred[-1]


def install_stop_handlers() -> None:
    """Turn the stop signals into ``SystemExit`` (see the module docstring); idempotent."""
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):  # Windows has no SIGHUP
        signum = getattr(signal, name, None)
        if signum is not None and signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, _stop)


def _to_devnull(fd: int) -> None:
    """Point the descriptor ``fd`` at /dev/null: what is written to it is lost, never failed."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), fd)


def abandon_stdout() -> None:
    """Point standard output at /dev/null after a write to it failed, so that what is left in
    its buffers cannot fail (and be reported) again when the interpreter flushes them."""
    if sys.stdout is not None:
        _to_devnull(sys.stdout.fileno())


class _PipeSafeStderr:
    """Standard error whose writes never fail: on a closed pipe, or a full device
    (``2>/dev/full``), the messages are lost, never the run.

    ``benchie ... 2>&1 | head -1`` closes the pipe after the first line: a second message
    would raise ``BrokenPipeError`` wherever it is written, and the command would end there,
    with the exit status of a closed *standard output* (0) instead of its own: a refusal
    would look like success, and a run would stop before writing its report. The reader has
    what it wanted, so later messages go to /dev/null and the command runs to its own end."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)

    def _closed_pipe(self) -> None:
        _to_devnull(self._stream.fileno())

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError:  # a closed pipe, a full disk: say nothing more, but run to the end
            self._closed_pipe()
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError:
            self._closed_pipe()
            try:  # noqa: SIM105 (contextlib would be an import before the handlers)
                self._stream.flush()
            except OSError:
                pass


def keep_stderr_past_a_closed_pipe() -> None:
    """Make ``sys.stderr`` a :class:`_PipeSafeStderr` (once; a stream without a descriptor,
    as under test runners, is left alone)."""
    stream = sys.stderr
    if stream is None or isinstance(stream, _PipeSafeStderr):
        return
    try:
        stream.fileno()
    except (OSError, ValueError, AttributeError):
        return
    sys.stderr = _PipeSafeStderr(stream)


def started_as() -> tuple[str, str]:
    """What the interpreter was started to run, from its own command line
    (``sys.orig_argv``): ``("module", NAME)`` for ``-m NAME``, ``("script", PATH)``, or
    ``("other", "")`` (``-c``, standard input, an interactive session). Options before it
    are skipped as the interpreter reads them: flags alone or combined (``-B -m``, ``-Bm``),
    and the values of ``-X``, ``-W`` and ``--check-hash-based-pycs``."""
    args = iter(sys.orig_argv[1:])
    for arg in args:
        if arg == "--check-hash-based-pycs":
            next(args, None)
        elif arg.startswith("--"):
            continue
        elif arg.startswith("-") and arg != "-":
            for at, flag in enumerate(arg[1:], 2):
                if flag in "cmWX":
                    value = arg[at:] or next(args, "")
                    if flag == "m":
                        return "module", value
                    if flag == "c":
                        return "other", ""
                    break  # (-W and -X: their value read)
        else:
            return ("script", arg) if arg != "-" else ("other", "")
    return "other", ""


def _tools_at_work() -> bool:
    """Whether a profiler, a tracer or a monitoring tool (a debugger, coverage) is set: they
    report after the program ends, through the interpreter's own exit."""
    monitoring = getattr(sys, "monitoring", None)  # (Python 3.12+: cProfile, coverage's)
    tools = monitoring is not None and any(monitoring.get_tool(i) for i in range(6))
    return tools or sys.getprofile() is not None or sys.gettrace() is not None


def leave(code: str | int | None) -> None:
    """End the process now with the status ``code`` (a ``SystemExit``'s), as the interpreter
    would after its teardown, but without it: the exit functions run (a library's, and the
    memos' save, which finds nothing left to write), standard output and error are flushed,
    then ``os._exit``. The teardown's other work, freeing each object and module, writes
    nothing, and costs a scoring run 8-12 ms. Only for a program that is benchie's own
    (the caller knows): returns, leaving the exit to the interpreter, where it might do
    more: a status that is not a number (which it prints), another thread still running
    (which it waits for), a profiler, tracer or debugger at work (which report after the
    program), ``python -i`` (whose session follows), or a stream that cannot be flushed
    (which it reports)."""
    status = 0 if code is None else code
    if not isinstance(status, int) or not 0 <= status <= 255 or _tools_at_work():
        return
    if sys.flags.inspect or os.environ.get("PYTHONINSPECT"):
        return  # (``python -i``: the interactive session comes after the program)
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        return
    atexit._run_exitfuncs()  # (they run once: they are removed as they run)
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        return
    os._exit(status)


def run_module(main: Callable[[], int]) -> NoReturn:
    """A metric module's command line (``python -m benchie_cli.benchmarks.X.metric``): the
    stop signals as ``benchie`` takes them (exit 130, 143, 129, no traceback), then
    ``main``'s exit status. Its result goes to standard output, so a standard output that
    is closed (``>&-``) is refused before the work, and one that cannot take the result (a
    full device) is one line on standard error, exit 2; a reader that stops early (``|
    head -1``) ends the command quietly. A stop that waited for an import is the status,
    whatever the command did. Where the interpreter was started for this very module
    (``-m``, not a program that runs it), the process ends without its teardown
    (:func:`leave`)."""
    install_stop_handlers()
    keep_stderr_past_a_closed_pipe()  # (a closed standard error is no standard output's)
    module = getattr(getattr(sys.modules.get("__main__"), "__spec__", None), "name", "")
    status: str | int | None = 2
    try:
        if sys.stdout is None:
            print(
                "error: standard output is closed (>&-): the result would be lost", file=sys.stderr
            )
        else:
            status = main()
            sys.stdout.flush()
    except BrokenPipeError:
        abandon_stdout()
        status = 0
    except OSError as exc:
        status = 2
        if exc.filename is not None:  # (a file's, not standard output's)
            print(f"error: {exc.filename}: {exc.strerror or exc}", file=sys.stderr)
        else:
            abandon_stdout()
            print(f"error: cannot write standard output: {exc.strerror or exc}", file=sys.stderr)
    except SystemExit as done:
        status = done.code
    except Exception as exc:  # a bug: one line, as benchie says one (docs/exit-status.md)
        if os.environ.get(TRACEBACK_ENV):
            raise
        from benchie_cli.errors import ExitCode

        status = int(ExitCode.INTERNAL)
        print(f"error: {bug_line(exc, f'python -m {module}' if module else '')}", file=sys.stderr)
    finally:
        stopped = settle()
        if stopped is not None:
            sys.exit(stopped)  # (in place of whatever was on its way out)
    if module and started_as() == ("module", module):
        leave(status)
    sys.exit(status)


def bug_line(exc: BaseException, command: str) -> str:
    """What to say of an exception no check foresaw, a bug, in ``command`` (as typed; none
    for a program in a string): ``benchie``'s commands and the metric modules' say it so."""
    from benchie_cli import __version__

    where = f" in `{command}`" if command else ""
    what = " ".join(f"{type(exc).__name__}: {exc}".split())[:300]
    return (
        f"internal error{where}: {what}. This is a bug in benchie {__version__}, not a fault "
        "of yours: please report it with this line and the input files (run again with "
        f"{TRACEBACK_ENV}=1 for the traceback)"
    )
