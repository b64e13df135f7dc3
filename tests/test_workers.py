"""Per-sentence statistics shared out to forked workers (:mod:`benchie_cli.workers`): the
results are ``[fn(item) for item in items]`` whatever happens to a worker, and no worker
outlives a map. The published curves computed with workers are the tests of CaRB's and
OIE2016's metrics (``jobs`` 2 and 3 there)."""

from __future__ import annotations

import itertools
import os
import signal
import struct
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import TypeVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchie_cli import workers
from benchie_cli.workers import WORK_PER_PROCESS, allowed, ordered_map, processes

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="workers are forked on Linux only"
)

PARENT = os.getpid()


def _no_child_left() -> bool:
    """Whether this process has no child left, reaped or not."""
    try:
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def _square(x: int) -> int:
    return x * x


T = TypeVar("T")


def _plain(x: T) -> T:
    """marshal keeps ints, floats and plain tuples as they are."""
    return x


def _map(fn: Callable[[int], int], items: list[int], jobs: int | None = 2) -> list[int]:
    heavy = [2 * WORK_PER_PROCESS] * len(items)  # enough work for a worker per item
    with allowed(jobs):
        return ordered_map(fn, items, weights=heavy, plain=_plain, rebuilt=_plain)


@pytest.fixture(autouse=True)
def _reaped(forking: None) -> Iterator[None]:
    """Workers forked (beside the test runner's threads), and none left after a test."""
    yield
    assert _no_child_left()


def test_results_in_order_from_workers() -> None:
    """Computed by workers (a worker's results carry its pid), returned in item order."""

    def pid_and_square(x: int) -> tuple[int, int]:
        return os.getpid(), x * x

    items = list(range(12))
    with allowed(3):
        results = ordered_map(
            pid_and_square,
            items,
            weights=[WORK_PER_PROCESS] * 12,
            plain=_plain,
            rebuilt=_plain,
        )
    assert [square for _, square in results] == [x * x for x in items]
    pids = [pid for pid, _ in results]
    assert pids[:4] == [PARENT] * 4  # the first share is the parent's
    assert len(set(pids)) == 3 and PARENT not in pids[4:]


def test_floats_keep_their_bits() -> None:
    """marshal carries a float's every bit, a NaN's payload and -0.0's sign included."""
    bits = [0x3FD3333333333334, 0x8000000000000000, 0x1, 0x7FF0000000000000, 0x7FF8000000000123]
    values = [struct.unpack("<d", struct.pack("<Q", b))[0] for b in bits]

    def value(i: int) -> tuple[int, float]:
        return os.getpid(), values[i - 1] if i else 0.0

    # The first item is the parent's share, the five values the worker's.
    weights = [4 * WORK_PER_PROCESS, 1, 1, 1, 1, 1]
    with allowed(2):
        got = ordered_map(value, list(range(6)), weights=weights, plain=_plain, rebuilt=_plain)
    assert all(pid != PARENT for pid, _ in got[1:])
    assert [struct.unpack("<Q", struct.pack("<d", v))[0] for _, v in got[1:]] == bits


@pytest.mark.parametrize("jobs", [1, None])
def test_the_budget_is_the_runs(jobs: int | None) -> None:
    """Outside a command's scoring (no ``allowed``), one process; ``--jobs 1`` too."""
    assert processes(10**9, 100) == 1
    with allowed(jobs):
        expected = 1 if jobs == 1 else min(len(os.sched_getaffinity(0)), 100)
        assert processes(10**9, 100) == expected
    assert processes(10**9, 100) == 1


def test_too_little_work_is_not_shared() -> None:
    with allowed(8):
        assert processes(2 * WORK_PER_PROCESS - 1, 1000) == 1
        assert processes(3 * WORK_PER_PROCESS, 1000) == 3
        assert processes(100 * WORK_PER_PROCESS, 5) == 5  # no more processes than items


def test_no_fork_beside_another_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fork copies the locks other threads hold, not the threads: none is made beside
    one, also one that :mod:`threading` does not list (native code's)."""
    monkeypatch.undo()  # (the real check, not the fixture's stand-in)
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not workers.single_threaded()
        with allowed(4):
            assert processes(10**9, 100) == 1
    finally:
        stop.set()
        other.join()
    # (this process's threads as Linux lists them: one, unless the test runner has its own)
    assert workers.single_threaded() == (len(os.listdir("/proc/self/task")) == 1)


@given(st.lists(st.integers(0, 50), max_size=60), st.integers(1, 8))
def test_cuts_cover_every_item_once(weights: list[int], parts: int) -> None:
    cuts = workers._cuts(weights, parts)
    assert cuts[0] == 0 and cuts[-1] == len(weights)
    assert all(a < b for a, b in itertools.pairwise(cuts))
    assert len(cuts) - 1 <= max(parts, 1)


def test_cuts_balance_the_weight() -> None:
    assert workers._cuts([1] * 10, 2) == [0, 5, 10]
    assert workers._cuts([9, 1, 1, 1, 1, 1, 1, 1, 1, 1], 2) == [0, 1, 10]


def test_a_failing_worker_leaves_its_share_to_the_parent() -> None:
    """An exception in a worker is no error: its share is computed again here, so the run's
    result, or its error, is the one a single process gives."""

    def square_but_not_in_a_worker(x: int) -> int:
        if os.getpid() != PARENT:
            raise ValueError("only in the worker")
        return x * x

    assert _map(square_but_not_in_a_worker, list(range(10)), jobs=3) == [x * x for x in range(10)]


def test_a_killed_worker_leaves_its_share_to_the_parent() -> None:
    def square_or_die(x: int) -> int:
        if os.getpid() != PARENT:
            os.kill(os.getpid(), signal.SIGKILL)
        return x * x

    assert _map(square_or_die, list(range(6))) == [x * x for x in range(6)]


def test_an_error_of_the_items_is_raised_by_the_parent() -> None:
    def bad(x: int) -> int:
        if x == 7:
            raise ValueError(f"item {x}")
        return x

    with pytest.raises(ValueError, match="item 7"):
        _map(bad, list(range(10)), jobs=3)


def test_no_fork_no_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """No process slot or memory for a fork: the parent computes everything."""

    def refuse() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", refuse)
    assert _map(_square, list(range(8)), jobs=4) == [x * x for x in range(8)]


def test_a_stop_in_the_parent_kills_and_reaps_every_worker() -> None:
    """A signal's ``SystemExit`` (benchie_cli.cli.run) while the parent computes its share:
    the workers, still busy, are killed and reaped (the fixture checks that none is left)."""

    def slow_or_stop(x: int) -> int:
        if os.getpid() != PARENT:
            signal.pause()  # a worker that would never answer
        if x == 0:
            raise SystemExit(130)
        return x

    with pytest.raises(SystemExit):
        _map(slow_or_stop, list(range(6)), jobs=3)


def test_workers_ignore_ctrl_c_and_leave_the_decision_to_the_parent() -> None:
    def handlers(_: int) -> tuple[int, int]:
        return (
            int(signal.getsignal(signal.SIGINT) == signal.SIG_IGN),
            int(signal.getsignal(signal.SIGTERM) == signal.SIG_DFL),
        )

    with allowed(2):
        got = ordered_map(
            handlers,
            [0, 1],
            weights=[WORK_PER_PROCESS * 2] * 2,
            plain=_plain,
            rebuilt=_plain,
        )
    assert got[1] == (1, 1)  # the worker's
    assert signal.getsignal(signal.SIGINT) != signal.SIG_IGN  # the parent's unchanged


def test_workers_reaped_elsewhere_leave_their_shares_to_the_parent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A program that embeds benchie and ignores SIGCHLD has its children reaped by the
    kernel: no exit status to check, so their answers are not taken, and no error. (No
    worker is started then, but one the kernel reaps anyway is still no error.)"""
    monkeypatch.setattr(workers, "processes", lambda work, items: 3)
    before = signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    try:
        assert _map(_square, list(range(6)), jobs=3) == [x * x for x in range(6)]
    finally:
        signal.signal(signal.SIGCHLD, before)


def test_no_worker_where_sigchld_is_ignored() -> None:
    """SIGCHLD ignored (inherited from the program that started benchie): every worker's
    answer would be thrown away and its share computed again, so none is started."""
    before = signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    try:
        with allowed(4):
            assert processes(10**9, 100) == 1
    finally:
        signal.signal(signal.SIGCHLD, before)


def test_a_signal_the_run_ignores_stays_ignored_in_its_workers() -> None:
    """``nohup benchie ...``: SIGHUP is ignored, and a hangup must not kill the workers."""

    def hup_ignored(_: int) -> int:
        return int(signal.getsignal(signal.SIGHUP) == signal.SIG_IGN)

    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        assert _map(hup_ignored, [0, 1]) == [1, 1]  # the parent's, the worker's
    finally:
        signal.signal(signal.SIGHUP, before)


def test_two_stops_at_once_leave_no_worker() -> None:
    """Two stop signals at once (Ctrl-C, then a supervisor's SIGTERM): the first one's
    ``SystemExit`` must not unwind past the cleanup while the second one's handler runs in
    it. Every worker is killed and reaped (the fixture checks that none is left), and the
    run stops with one of the two statuses."""

    armed = [True]  # (the test's own handling: none after the map)

    def stop(signum: int, _: object) -> None:
        if armed[0]:
            raise SystemExit(128 + signum)

    def slow_or_two_stops(x: int) -> int:
        if os.getpid() != PARENT:
            time.sleep(5)  # a worker still busy at the cleanup (bounded, should one leak)
        if x == 0:  # both pending at once, then the mask as it was
            mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
            signal.pthread_kill(threading.get_ident(), signal.SIGINT)  # (see _pids_with)
            signal.pthread_kill(threading.get_ident(), signal.SIGTERM)
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        return x

    before = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        with pytest.raises(SystemExit) as stopped:
            try:
                _map(slow_or_two_stops, list(range(6)), jobs=3)
            finally:
                armed[0] = False  # (no call: no handler can run before it)
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)
    assert stopped.value.code in (128 + signal.SIGINT, 128 + signal.SIGTERM)
    assert not signal.pthread_sigmask(signal.SIG_BLOCK, []) & {signal.SIGINT, signal.SIGTERM}


def _pids_with(signum: int) -> list[int]:
    """The pid that computed each of 6 items, ``signum`` sent to this process by the first."""

    def pid(x: int) -> int:
        if x == 0:
            # To this thread, which holds it back: sent to the process, it could reach
            # another thread that does not (pytest-xdist's), whose default action for
            # SIGTERM ends the test process.
            signal.pthread_kill(threading.get_ident(), signum)
        return os.getpid()

    return _map(pid, list(range(6)), jobs=3)


def test_the_callers_blocked_signals_stay_blocked() -> None:
    """A program that blocks SIGTERM to take it with ``sigwait`` keeps it blocked: the map
    restores the signal mask it found, rather than unblocking the stop signals; nor is
    the signal, pending, a stop of the map, whose workers answer."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    try:
        pids = _pids_with(signal.SIGTERM)
        assert signal.SIGTERM in signal.pthread_sigmask(signal.SIG_BLOCK, [])
        assert signal.sigwait({signal.SIGTERM}) == signal.SIGTERM  # (still the caller's)
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    assert pids[0] == PARENT and PARENT not in pids[-2:]


def test_an_ignored_stop_signal_stops_nothing() -> None:
    """``nohup benchie ...`` and a hangup: SIGHUP, held back while the map has workers, is
    pending though ignored; it stops neither the map nor its workers, who answer."""
    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        pids = _pids_with(signal.SIGHUP)
    finally:
        signal.signal(signal.SIGHUP, before)
    assert pids[0] == PARENT and PARENT not in pids[-2:]


def test_the_api_shares_out_as_the_cli_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """``api.score(..., jobs=N)`` with CaRB's metric: the statistics shared out to N
    processes (a lower bar than a real run's, so that the example's are shared), the report
    the same as with one."""
    from benchie_cli import api
    from tests.conftest import EXAMPLES

    used: list[int] = []
    chosen = workers.processes

    def counted(work: int, items: int) -> int:
        used.append(chosen(work, items))
        return used[-1]

    monkeypatch.setattr(workers, "WORK_PER_PROCESS", 100)
    monkeypatch.setattr(workers, "processes", counted)
    gold = api.load_gold("en")
    path = str(EXAMPLES / "en" / "clausie.tsv")
    alone = api.score(gold, path, metric="carb", jobs=1)
    shared = api.score(gold, path, metric="carb", jobs=2)
    assert used == [1, 2]
    assert shared.data == alone.data
