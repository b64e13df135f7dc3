"""Forked worker processes: the signals that stop a run, held back while workers are
started and reaped, and :func:`ordered_map`, which shares a corpus benchmark's
per-sentence statistics out to workers (docs/performance.md).

A sentence's statistics depend on its own gold and predictions alone, and the corpus
scores add them up in gold order afterwards, so which process computed a sentence's
statistics changes no number: the same code computes them from the same objects (a forked
worker has the parent's memory), and they come back through :mod:`marshal`, which keeps
every float's bits. A worker that cannot be started, fails or dies is not an error: the
parent computes that share itself, and the run's result (or error) is the one a single
process gives.

How many processes a map may use is a setting of the run (``--jobs``), not of the
metric: :func:`allowed` sets it around a run's scoring (``runner.score``, which the CLI,
Codabench's program and the API's in-memory scoring go through; ``score --suite``;
``api.score`` and ``api.analyze``, from their ``jobs``), and a call of a metric's own
functions outside one computes in its own process.
"""

from __future__ import annotations

import marshal
import os
import select
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from itertools import pairwise
from typing import TypeVar

#: The signals that stop a run (``benchie_cli.cli.run`` turns them into ``SystemExit``).
#: They are blocked while workers are forked and reaped, so that no worker can escape the
#: parent's bookkeeping; a forked worker unblocks them once its own handlers are set.
STOP_SIGNALS: frozenset[int] = frozenset(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)  # Windows has no SIGHUP (nor forked workers); the CLI must still import there


@contextmanager
def stop_signals_blocked() -> Iterator[None]:
    """Hold back the stop signals (they are delivered on exit from the block, where the
    signal mask is restored as it was: a signal the caller had blocked stays blocked).

    A ``SystemExit`` raised by a signal between ``fork()`` and the parent's recording of the
    child would leave a worker nobody stops; one raised while the workers are being killed
    and reaped (a second Ctrl-C) would leave some of them running.
    """
    before = signal.pthread_sigmask(signal.SIG_BLOCK, ())  # (the mask, unchanged)
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def become_worker() -> None:
    """In a freshly forked worker: its own signal handling, then the stop signals unblocked.

    Ctrl-C reaches the whole foreground process group, so a worker ignores SIGINT and
    leaves the decision to the parent, which kills its workers when it stops; SIGTERM and
    SIGHUP regain their default action (the parent's handlers raise ``SystemExit``, which a
    worker must not run). Only then are the signals the parent blocked for the fork
    unblocked, so none reaches an inherited handler.
    """
    for signum in STOP_SIGNALS:
        if signal.getsignal(signum) == signal.SIG_IGN:
            continue  # one the run ignores (nohup's SIGHUP) is the worker's to ignore too
        signal.signal(signum, signal.SIG_IGN if signum == signal.SIGINT else signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


# --------------------------------------------------------------------------- the budget

#: The processes a map may use: 1 outside a command's scoring, else its ``--jobs`` (None:
#: one per available core).
_allowed: int | None = 1


@contextmanager
def allowed(jobs: int | None) -> Iterator[None]:
    """Let the maps of the block use up to ``jobs`` processes (None: one per core)."""
    global _allowed
    before, _allowed = _allowed, jobs
    try:
        yield
    finally:
        _allowed = before


#: The work, in pairs of tuples compared (roughly 5 µs each in pure Python), that makes a
#: worker worth starting: forking, the copies its writes make of the parent's memory and
#: the answer's transfer cost a few milliseconds, and each worker should save at least
#: twice that.
WORK_PER_PROCESS = 2_000


def processes(work: int, items: int) -> int:
    """How many processes should share ``work`` over ``items`` items: 1 where there is no
    fork (only Linux's is used, as for BenchIE's ``--jobs``), where another thread runs
    (a fork copies a process's threads' locks, not the threads: :func:`single_threaded`),
    where SIGCHLD is ignored
    (inherited from the program that started this one: no worker's answer could be
    taken), where ``--jobs 1`` was given, or where the work is too little to pay for a
    worker."""
    wanted = _allowed
    if wanted == 1 or not sys.platform.startswith("linux") or work < 2 * WORK_PER_PROCESS:
        return 1
    if signal.getsignal(signal.SIGCHLD) == signal.SIG_IGN:
        return 1  # the kernel reaps the workers: no exit status, every share done twice
    if not single_threaded():
        return 1
    if wanted is None:
        wanted = len(os.sched_getaffinity(0))
    return max(1, min(wanted, work // WORK_PER_PROCESS, items))


def single_threaded() -> bool:
    """Whether this process runs one thread. Linux lists every thread in /proc/self/task,
    also those native code started (a BLAS pool, a test runner's I/O thread), which
    :mod:`threading` does not know of; Python 3.12 warns of a fork beside any of them."""
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:  # (no /proc: the threads Python started, at least)
        threading = sys.modules.get("threading")
        return threading is None or threading.active_count() == 1


def _cuts(weights: Sequence[int], parts: int) -> list[int]:
    """Indices ``[0, ..., len(weights)]`` cutting the items into ``parts`` runs of about
    equal total weight (fewer where single items outweigh a share)."""
    total = sum(weights)
    cuts = [0]
    running = 0
    for index, weight in enumerate(weights):
        running += weight
        if running * parts >= total * len(cuts) and len(cuts) < parts:
            cuts.append(index + 1)
    if cuts[-1] != len(weights):
        cuts.append(len(weights))
    return cuts


# --------------------------------------------------------------------------- the map

T = TypeVar("T")
R = TypeVar("R")
P = TypeVar("P")


def _worker(fn: Callable[[T], R], share: Sequence[T], plain: Callable[[R], P], fd: int) -> None:
    """In a forked worker: the share's results, made plain for :mod:`marshal`, written to
    ``fd``. Never returns: the worker leaves by ``os._exit``, so that nothing of the parent
    (``finally`` blocks, ``atexit``, buffered output) runs twice; status 0 only once the
    whole answer is written."""
    status = 1
    try:
        become_worker()
        data = memoryview(marshal.dumps([plain(fn(item)) for item in share]))
        while data:
            data = data[os.write(fd, data) :]
        status = 0
    finally:
        os._exit(status)


def _start(
    fn: Callable[[T], R], share: Sequence[T], plain: Callable[[R], P]
) -> tuple[int, int] | None:
    """A worker forked for ``share``: its pid and the read end of its answer's pipe; None
    when none can be started (no memory or process slot: the parent does the share)."""
    try:
        read, write = os.pipe()
    except OSError:
        return None
    try:
        pid = os.fork()
    except OSError:
        os.close(read)
        os.close(write)
        return None
    if pid == 0:  # (the worker)
        os.close(read)
        _worker(fn, share, plain, write)
    os.close(write)  # the worker holds the only copy: its exit means end of file
    return pid, read


#: How often, in milliseconds, a parent waiting for an answer looks for a stop signal held
#: back.
_POLL_MS = 20

#: :func:`_answer`'s answer when a stop signal came first.
_STOPPED = object()


def watched_stops() -> frozenset[int]:
    """The stop signals that would stop this process now: neither ignored (``nohup``'s
    SIGHUP; held back, an ignored signal is still pending) nor blocked by the caller (a
    program that takes SIGTERM with ``sigwait``)."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, ())  # (the mask, unchanged)
    return frozenset(
        s for s in STOP_SIGNALS if s not in blocked and signal.getsignal(s) != signal.SIG_IGN
    )


def stop_pending(watched: frozenset[int]) -> bool:
    """Whether one of the stop signals ``watched`` is pending, held back by
    :func:`stop_signals_blocked`."""
    return not watched.isdisjoint(signal.sigpending())


def _answer(read: int, watched: frozenset[int]) -> object | None:
    """A worker's answer, decoded, None if it has none (it failed or was killed): its pipe
    read to the end, which comes when the worker exits; :data:`_STOPPED` as soon as a stop
    signal of ``watched`` is pending."""
    chunks = []
    waiting = select.poll()  # (not select.select: a descriptor may be past FD_SETSIZE)
    waiting.register(read, select.POLLIN)
    with suppress(OSError):
        while True:
            if not waiting.poll(_POLL_MS):
                if stop_pending(watched):
                    return _STOPPED
                continue
            chunk = os.read(read, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    try:
        answer: object = marshal.loads(b"".join(chunks))
    except (EOFError, ValueError, TypeError):
        return None
    return answer


def _reap(pid: int, read: int, *, kill: bool = False) -> bool:
    """Wait for a worker (killed first if ``kill``) and close its pipe: whether it exited
    with status 0, which it does only once its whole answer is written. A worker reaped by
    someone else (a program that embeds benchie and ignores SIGCHLD) has no status: its
    answer is not taken."""
    try:
        if kill:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        try:
            _, status = os.waitpid(pid, 0)
        except ChildProcessError:
            return False
        return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    finally:
        os.close(read)


def ordered_map(
    fn: Callable[[T], R],
    items: Sequence[T],
    *,
    weights: Sequence[int],
    plain: Callable[[R], P],
    rebuilt: Callable[[P], R],
) -> list[R]:
    """``[fn(item) for item in items]``, its later shares computed by forked workers when
    the run allows several processes and ``weights`` (each item's work, in pairs of tuples
    compared) say there is enough to share. ``plain`` turns a result into values
    :mod:`marshal` keeps (tuples, not named tuples), ``rebuilt`` turns one back: a worker's
    results are ``rebuilt(plain(fn(item)))``, which must equal ``fn(item)``.

    ``fn`` must be pure: it runs in whichever process, and a share whose worker fails is
    computed again here. However this ends (results, an error, a signal's ``SystemExit``),
    every worker has been killed and reaped: the stop signals are held back while there are
    workers, and one that comes is taken once they are gone (a second one cannot interrupt
    the cleanup of the first, and a signal the caller blocked stays blocked).
    """
    parts = processes(sum(weights), len(items))
    if parts == 1:
        return [fn(item) for item in items]
    cuts = _cuts(weights, parts)
    started: dict[int, tuple[int, int]] = {}  # share's first index -> (pid, read end)
    results: list[R] = []  # those of items[: len(results)]
    watched = watched_stops()

    def computed(share: Sequence[T]) -> bool:  # (False: a stop came first)
        for item in share:
            if stop_pending(watched):
                return False
            results.append(fn(item))
        return True

    # The stop signals are held back for the whole map, so that no handler's SystemExit
    # can come between a fork and its recording, or in the middle of the cleanup: a stop
    # is looked for between items and while waiting, every worker is then killed and
    # reaped, and the stop is taken on leaving the block (its handler raises there).
    with stop_signals_blocked():
        try:
            for start, end in pairwise(cuts[1:]):
                worker = _start(fn, items[start:end], plain)
                if worker is None:
                    break
                started[start] = worker
            if computed(items[: cuts[1]]):
                for start, end in pairwise(cuts[1:]):
                    answer = None
                    if start in started:
                        answer = _answer(started[start][1], watched)
                        if answer is _STOPPED:
                            break
                        if not _reap(*started.pop(start)):
                            answer = None
                    if isinstance(answer, list) and len(answer) == end - start:
                        results.extend(map(rebuilt, answer))
                    elif not computed(items[start:end]):  # (no worker, or a failed one)
                        break
        finally:
            for pid, read in started.values():
                _reap(pid, read, kill=True)
    # A stop whose handler did not raise (a program's own): the rest computed here.
    results.extend(fn(item) for item in items[len(results) :])
    return results
