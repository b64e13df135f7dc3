"""The console entry point, kept apart from the CLI so that signals are handled from the
first moment: importing click, orjson and the CLI takes ~60 ms, and a Ctrl-C in that window
would print a ``KeyboardInterrupt`` traceback.

SIGINT (Ctrl-C), SIGTERM and SIGHUP raise ``SystemExit(128 + signal)`` (130, 143, 129, the
statuses shells report for a death by that signal) without a message or traceback: as an
exception, not a death, so that every ``finally`` runs first: a half-written report or cache
entry is removed, and scoring workers are killed. Not ``KeyboardInterrupt``, which click
would turn into "Aborted!" and exit status 1. A signal the caller ignores (``nohup``,
``cmd &`` in a script) stays ignored.

A command that has ended leaves the process without the interpreter's teardown (see
:func:`_leave`): freeing every object one by one costs a scoring run 8-12 ms, about 4%, and
gives nothing back to a process that is about to end.
"""

from __future__ import annotations

import atexit  # (built in: free)
import gc  # (built in: free)
import os  # (loaded with the interpreter: free)
import signal  # and nothing else before the handlers are in place (typing alone: ~10 ms)
import sys  # (built in: free)
from types import FrameType  # (types is loaded with the interpreter: free)

#: How long a stop that arrives in the middle of an import waits before it is tried again.
_RETRY_SECONDS = 0.005


def _importing(frame: FrameType | None) -> bool:
    """Whether ``frame`` runs inside the import machinery (a module's loading)."""
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


def _stop(signum: int, frame: FrameType | None) -> None:
    """Raise ``SystemExit(128 + signum)``, unless a module is being imported: an exception
    raised there is turned by the import machinery into a traceback, or swallowed. The stop
    then waits until the import is done: it is tried again a few milliseconds later, by a
    timer (commands import their modules lazily, so this can happen at any moment)."""
    if _importing(frame) and hasattr(signal, "setitimer"):
        signal.signal(signal.SIGALRM, lambda _, again: _stop(signum, again))
        signal.setitimer(signal.ITIMER_REAL, _RETRY_SECONDS)
        return
    raise SystemExit(128 + signum)


def install_stop_handlers() -> None:
    """Turn the stop signals into ``SystemExit`` (see the module docstring); idempotent."""
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):  # Windows has no SIGHUP
        signum = getattr(signal, name, None)
        if signum is not None and signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, _stop)


def _leave(code: object) -> None:
    """End the process now with the status ``code`` (a ``SystemExit``'s), as the
    interpreter would after its teardown, but without it: the exit functions run (a
    library's, and the memos' save, which finds nothing left to write), standard output
    and error are flushed, then ``os._exit``. The teardown's other work, freeing each
    object and module, writes nothing. Returns, leaving the exit to the interpreter, where
    it might do more: a status that is not a number (which it prints), another thread
    still running (which it waits for), or a stream that cannot be flushed (which it
    reports)."""
    status = 0 if code is None else code
    if not isinstance(status, int) or not 0 <= status <= 255:
        return
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
        try:
            run()
        finally:  # a command that ended saved its memos; one stopped by a signal saves none
            memos = sys.modules.get("benchie_cli.disk_cache")
            if memos is not None:
                memos.forget_unsaved()
    except SystemExit as done:
        _leave(done.code)
        raise
    _leave(None)
