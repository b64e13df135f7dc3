"""The console entry point, kept apart from the CLI so that signals are handled from the
first moment: importing click, orjson and the CLI takes ~60 ms, and a Ctrl-C in that window
would print a ``KeyboardInterrupt`` traceback. SIGINT (Ctrl-C), SIGTERM and SIGHUP end a
command with exit status 130, 143 or 129 and no traceback (:mod:`benchie_cli.stops`).

A command that has ended leaves the process without the interpreter's teardown
(:func:`console`, the program's own way in): freeing every object one by one costs a
scoring run 8-12 ms, about 4%, and gives nothing back to a process about to end.
"""

from __future__ import annotations

import atexit  # (built in: free)
import gc  # (built in: free)
import os  # (loaded with the interpreter: free)
import signal  # and nothing else before the handlers are in place (typing alone: ~10 ms)
import sys  # (built in: free)

from benchie_cli.stops import install_stop_handlers, settle  # (signal, sys, os, types only)


def _leave(code: object) -> None:
    """End the process now with the status ``code`` (a ``SystemExit``'s), as the
    interpreter would after its teardown, but without it: the exit functions run (a
    library's, and the memos' save, which finds nothing left to write), standard output
    and error are flushed, then ``os._exit``. The teardown's other work, freeing each
    object and module, writes nothing. Returns, leaving the exit to the interpreter, where
    it might do more: a status that is not a number (which it prints), another thread
    still running (which it waits for), a stream that cannot be flushed (which it
    reports), or a profiler or tracer at work (``python -m cProfile``, which reports after
    the program, as a debugger may)."""
    status = 0 if code is None else code
    if not isinstance(status, int) or not 0 <= status <= 255:
        return
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        return
    if sys.getprofile() is not None or sys.gettrace() is not None:
        return  # (a profiler or a debugger that reports when the program ends)
    atexit._run_exitfuncs()  # (they run once: they are removed as they run)
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        return
    os._exit(status)


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
    process ends (:func:`_leave`). Only the program itself calls this: a script or a test
    that calls :func:`main` gets its ``SystemExit`` and goes on."""
    code: str | int | None = None
    try:
        main()
    except SystemExit as done:
        code = done.code
    stopped = settle()  # (a stop in a command's last import decides the status)
    code = code if stopped is None else stopped
    _leave(code)
    sys.exit(code)
