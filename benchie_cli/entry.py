"""The console entry point, kept apart from the CLI so that signals are handled from the
first moment: importing click, orjson and the CLI takes ~60 ms, and a Ctrl-C in that window
would print a ``KeyboardInterrupt`` traceback. SIGINT (Ctrl-C), SIGTERM and SIGHUP end a
command with exit status 130, 143 or 129 and no traceback (:mod:`benchie_cli.stops`).

A command that has ended leaves the process without the interpreter's teardown
(:func:`console`, the program's own way in; :func:`benchie_cli.stops.leave`): freeing every
object one by one costs a scoring run 8-12 ms, about 4%, and gives nothing back to a
process about to end.
"""

from __future__ import annotations

import gc  # (built in: free)
import os  # (loaded with the interpreter: free)
import signal  # and nothing else before the handlers are in place (typing alone: ~10 ms)
import sys  # (built in: free)

from benchie_cli.stops import install_stop_handlers, leave, settle, started_as  # (stdlib only)


def main() -> None:
    """``benchie``: handlers first, then the CLI. The stop signals are blocked while the
    modules load: a signal handled in the middle of an import can crash an extension
    module's initialisation or be swallowed by the compiler; blocked, it waits, and is
    handled (exit 130, 143, 129) the moment loading ends."""
    stops = [getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n)]
    mask = getattr(signal, "pthread_sigmask", None)  # POSIX only
    previous = mask(signal.SIG_BLOCK, stops) if mask is not None else None
    # The modules' objects live as long as the process: the cyclic collector's passes over
    # them while they load, and later, collect nothing. Paused while they load, then frozen
    # out of its sight.
    collecting = gc.isenabled()
    gc.disable()
    try:
        install_stop_handlers()
        from benchie_cli.cli import run
    finally:
        if mask is not None and previous is not None:
            mask(signal.SIG_SETMASK, previous)
        gc.freeze()
        if collecting:
            gc.enable()
    try:
        run()
    finally:  # a command that ended saved its memos; one stopped by a signal saves none
        memos = sys.modules.get("benchie_cli.disk_cache")
        if memos is not None:
            memos.forget_unsaved()


def console() -> None:
    """The ``benchie`` console script and ``python -m benchie_cli``: :func:`main`, then the
    process ends without the interpreter's teardown (:func:`benchie_cli.stops.leave`), when
    the interpreter was started for benchie itself (:func:`_is_the_program`): a program that
    runs benchie's code (a test runner, ``runpy``, a profiler, a debugger) gets its
    ``SystemExit`` and goes on, as from :func:`main`. A script of one's own that calls
    ``console()`` by that name is the console script's like: the process is benchie's, and
    ends with the command; a script that goes on after benchie calls :func:`main`."""
    code: str | int | None = None
    try:
        main()
    except SystemExit as done:
        code = done.code
    stopped = settle()  # (a stop in a command's last import decides the status)
    code = code if stopped is None else stopped
    if _is_the_program():
        leave(code)
    sys.exit(code)


def _is_the_program() -> bool:
    """Whether the interpreter was started for benchie: ``python -m benchie_cli``, or the
    console script (a script that is ``__main__`` and calls :func:`console` by that name)."""
    kind, what = started_as()
    if kind == "module":
        return what in ("benchie_cli", "benchie_cli.__main__")
    script = sys.modules.get("__main__")
    if kind != "script" or getattr(script, "console", None) is not console:
        return False
    try:
        return os.path.samefile(what, getattr(script, "__file__", ""))
    except (OSError, ValueError):
        return False
