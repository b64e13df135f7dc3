"""Faults during a run, seen from outside as a user or a scheduler sees them: a scoring
worker that dies, Ctrl-C, SIGTERM. Each must end the run promptly with its documented exit
status, without a traceback, a leftover temporary file or a worker left running.

Every test runs ``python -m benchie_cli`` as a real process in a session of its own, so that
signals can be sent to its whole process group as a terminal does, and the group can be
searched for leftovers afterwards. Workers are found as the children of the benchie process
in ``/proc`` (Linux, where parallel scoring exists).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from benchie_cli.benchmarks.benchie import scoring
from benchie_cli.benchmarks.benchie.scoring import ScoreOptions, Scorer
from benchie_cli.errors import BenchieError, ExitCode
from benchie_cli.gold.parse import load_gold
from tests.conftest import ENGLISH_SYSTEMS, example

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="parallel scoring and /proc are Linux-only"
)

#: Generous: a run that has not ended by then hangs, and the test must fail, not wait.
TIMEOUT = 30.0

Spawn = Callable[..., subprocess.Popen[bytes]]


@pytest.fixture(scope="module")
def big_submission(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real file just over ``PARALLEL_MIN_BYTES``, so that ``--jobs 2`` forks two workers.

    Each English example line gets a number appended, so every line is new to the scorer's
    memo and each worker is busy for a second or more: long enough to be found and signalled
    while it works. The lines are well-formed; what they score does not matter here.
    """
    lines = [
        line
        for system in ENGLISH_SYSTEMS
        for line in example("en", system).read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    chunks: list[str] = []
    size = n = 0
    while size <= scoring.PARALLEL_MIN_BYTES:
        chunk = "".join(f"{line} {n}\n" for line in lines)
        chunks.append(chunk)
        size += len(chunk.encode())
        n += 1
    path = tmp_path_factory.mktemp("big") / "big.tsv"
    path.write_text("".join(chunks), encoding="utf-8")
    return path


@pytest.fixture
def spawn() -> Iterator[Spawn]:
    """Start ``python -m benchie_cli ARGS...`` as the leader of a new session; whatever of
    it is still running when the test ends (a failed test) is killed, group and all."""
    started: list[subprocess.Popen[bytes]] = []

    def start(*args: str, stdin: int | None = subprocess.DEVNULL) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(
            [sys.executable, "-m", "benchie_cli", *args],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=dict(os.environ),  # the autouse fixture's gold and cache settings
            start_new_session=True,
        )
        started.append(proc)
        return proc

    yield start
    for proc in started:
        if proc.poll() is None or _group(proc.pid):  # the group's id is the leader's pid
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()


def _children(pid: int) -> list[int]:
    """The processes ``pid`` has forked and not yet reaped."""
    children: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            children += map(int, (task / "children").read_text().split())
    except FileNotFoundError:  # the process has ended
        pass
    return children


def _group(pgid: int) -> list[int]:
    """Every process (zombies too) whose process group is ``pgid``."""
    members: list[int] = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # ended meanwhile
            continue
        _state, _ppid, pgrp = stat[stat.rindex(")") + 2 :].split()[:3]
        if int(pgrp) == pgid:
            members.append(int(entry.name))
    return members


def _workers_of(proc: subprocess.Popen[bytes], count: int = 2) -> list[int]:
    """Wait until ``proc`` has forked ``count`` workers, and return their ids."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        workers = _children(proc.pid)
        if len(workers) >= count:
            return workers
        if proc.poll() is not None:
            break
        time.sleep(0.01)
    pytest.fail(f"benchie never had {count} workers (children seen: {_children(proc.pid)})")


def _finish(proc: subprocess.Popen[bytes]) -> tuple[int, str]:
    """The exit status and stderr of ``proc``, failing the test if it does not end."""
    try:
        _stdout, stderr = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"benchie still running {TIMEOUT:.0f} s after the fault")
    return proc.returncode, stderr.decode("utf-8", "replace")


def _score_in_parallel(spawn: Spawn, submission: Path, out: Path) -> subprocess.Popen[bytes]:
    return spawn(
        "score", "--lang", "en", "--jobs", "2", "-o", str(out / "report.json"), str(submission)
    )


def test_a_killed_worker_fails_the_run_at_once(
    spawn: Spawn, big_submission: Path, tmp_path: Path
) -> None:
    """SIGKILL (as the OOM killer sends) to one worker: exit 2 and one line naming it."""
    proc = _score_in_parallel(spawn, big_submission, tmp_path)
    os.kill(_workers_of(proc)[0], signal.SIGKILL)
    status, stderr = _finish(proc)
    assert status == 2, stderr
    assert stderr.splitlines() == [
        f"benchie: {big_submission}: error: a scoring worker died (killed by SIGKILL)"
    ]
    assert list(tmp_path.iterdir()) == []  # no report, no temporary file
    assert _group(proc.pid) == []  # the other worker was stopped too


def test_ctrl_c_stops_parent_and_workers_quietly(
    spawn: Spawn, big_submission: Path, tmp_path: Path
) -> None:
    """SIGINT to the whole process group, as a terminal sends it: exit 130, and no process
    (parent or worker) prints a traceback or is left behind."""
    proc = _score_in_parallel(spawn, big_submission, tmp_path)
    _workers_of(proc)
    os.killpg(proc.pid, signal.SIGINT)
    status, stderr = _finish(proc)
    assert status == 130, stderr
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    assert list(tmp_path.iterdir()) == []
    assert _group(proc.pid) == []


def test_ctrl_c_in_a_sequential_run(spawn: Spawn, tmp_path: Path) -> None:
    """Ctrl-C while benchie reads a submission from a pipe: exit 130, at most one line."""
    proc = spawn(
        "score", "--lang", "en", "-o", str(tmp_path / "report.json"), "-", stdin=subprocess.PIPE
    )
    assert proc.stdin is not None
    lines = example("en", "clausie").read_bytes()
    # A pipe holds 64 KiB: once this write returns, benchie is reading, handlers installed.
    proc.stdin.write(lines * (1 + (1 << 20) // len(lines)))
    proc.stdin.flush()
    os.killpg(proc.pid, signal.SIGINT)
    status, stderr = _finish(proc)
    assert status == 130, stderr
    assert "Traceback" not in stderr and len(stderr.splitlines()) <= 1, stderr
    assert list(tmp_path.iterdir()) == []


def test_sigterm_leaves_no_temporary_file_and_no_worker(
    spawn: Spawn, big_submission: Path, tmp_path: Path
) -> None:
    """SIGTERM to the benchie process alone (as ``kill`` or a scheduler sends it) while it
    scores into ``-o``: exit 143, the output directory stays empty, the workers are gone."""
    proc = _score_in_parallel(spawn, big_submission, tmp_path)
    workers = _workers_of(proc)
    os.kill(proc.pid, signal.SIGTERM)
    status, stderr = _finish(proc)
    assert status == 143, stderr
    assert "Traceback" not in stderr, stderr
    assert list(tmp_path.iterdir()) == []
    assert _group(proc.pid) == []
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers)


def test_a_worker_that_exits_names_its_exit_status(
    monkeypatch: pytest.MonkeyPatch, gold_dir: Path
) -> None:
    """A worker ending without an answer (``os._exit``, as a crashing extension might) is
    reported with its exit status, as the input error it is to callers (exit status 2)."""
    monkeypatch.setattr(scoring, "PARALLEL_MIN_BYTES", 4096)
    monkeypatch.setattr(scoring.Scorer, "_scan", lambda *_: os._exit(3))  # in workers only
    gold = load_gold(str(gold_dir / "1.0.0/en/default/benchie_gold_annotations_en.txt"))
    submission = example("en", "clausie")

    def hung(_signum: int, _frame: object) -> None:
        raise TimeoutError(f"the worker's death went unnoticed for {TIMEOUT:.0f} s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(int(TIMEOUT))
    try:
        with pytest.raises(BenchieError) as caught:
            Scorer(gold, ScoreOptions("en")).score(str(submission), "clausie", jobs=2)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert caught.value.exit_code == ExitCode.USAGE
    assert str(caught.value) == f"{submission}: error: a scoring worker died (exit status 3)"


def _with_closed_pipe(*args: str | Path, both: bool = True) -> subprocess.CompletedProcess[str]:
    """Run benchie with standard error (and output, as ``2>&1 | head -0`` does) on a pipe
    whose reader has gone: every write to it fails at once with EPIPE."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(
            [sys.executable, "-m", "benchie_cli", *map(str, args)],
            stdout=write_end if both else subprocess.DEVNULL,
            stderr=write_end,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)


def test_a_refusal_keeps_its_status_when_stderr_is_a_closed_pipe(tmp_path: Path) -> None:
    """`benchie gold new ... 2>&1 | head -1` exited 0 after a refusal: the second message
    raised BrokenPipeError, taken for a reader of standard output that had had enough."""
    source = tmp_path / "src"
    (source / "en" / "default").mkdir(parents=True)
    res = _with_closed_pipe(
        "gold", "new", "1.0.0", "--from", source, "--description", "d", "--license", "l"
    )
    assert res.returncode == int(ExitCode.USAGE)
    assert _with_closed_pipe("score", tmp_path / "missing.tsv").returncode == ExitCode.USAGE


def test_a_run_with_stderr_on_a_closed_pipe_still_writes_its_report(tmp_path: Path) -> None:
    """Warnings on a closed stderr neither stop the run nor change its status."""
    sub = tmp_path / "s.tsv"  # ClausIE plus one unknown id: a warning on stderr
    sub.write_bytes(example("en", "clausie").read_bytes().rstrip(b"\n") + b"\nzz\ta\tb\tc\n")
    report = tmp_path / "r.json"
    res = _with_closed_pipe("score", sub, "-o", report, both=False)
    assert res.returncode == 0 and report.exists()
    assert b'"f1": 0.33889980353634575' in report.read_bytes()


def test_a_closed_output_pipe_keeps_a_negative_verdict(tmp_path: Path) -> None:
    """`benchie validate bad.tsv | head -1` exited 0: the broken pipe, taken for a reader
    that had had enough, replaced the verdict already decided (exit 1)."""
    bad = tmp_path / "bad.tsv"
    bad.write_text("".join(f"bad line {i}\n" for i in range(3000)), encoding="utf-8")
    assert _with_closed_pipe("validate", bad).returncode == ExitCode.FAILED
    assert _with_closed_pipe("score", bad, example("en", "clausie")).returncode == 1
    assert _with_closed_pipe("score", example("en", "clausie")).returncode == 0


def test_what_is_left_in_the_buffer_for_a_gone_reader_ends_quietly() -> None:
    """`benchie --version | true` exited 1: the version line waits in standard output's
    buffer until the process ends, and the flush there found the reader gone. Quiet, and
    the status is the command's, as when a command's own write finds the reader gone."""
    assert _with_closed_pipe("--version").returncode == 0
    assert _with_closed_pipe("--help").returncode == 0
    assert _with_closed_pipe("score", "--help").returncode == 0
    assert _with_closed_pipe("score", "--no-such-option").returncode == 2  # (its own status)


@contextlib.contextmanager
def _a_stop_in_an_import() -> Iterator[None]:
    """SIGTERM handled as if a module were being imported (the handler sees the import
    machinery's frame), on entry; the retry timer, the waiting stop and SIGALRM's handler
    restored on exit."""
    import signal

    from benchie_cli import stops

    previous = signal.getsignal(signal.SIGALRM)
    namespace: dict[str, object] = {"stops": stops, "signal": signal, "sys": sys}
    code = compile(
        "def in_import():\n    stops._stop(signal.SIGTERM, sys._getframe())\n",
        "<frozen importlib._bootstrap>",
        "exec",
    )
    exec(code, namespace)
    try:
        namespace["in_import"]()  # type: ignore[operator]  # no exit inside the import
        yield
    finally:
        stops._deferred.clear()
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_a_stop_during_an_import_waits_for_the_import() -> None:
    """A stop signal handled while a module is imported (commands import lazily) would be
    turned into a traceback or lost by the import machinery: it is retried a few
    milliseconds later, outside the import, and only then exits."""
    import signal
    import time

    with _a_stop_in_an_import(), pytest.raises(SystemExit) as stopped:
        time.sleep(1)  # the retry fires here, outside any import
    assert stopped.value.code == 128 + signal.SIGTERM


def test_a_stop_waiting_for_an_import_is_the_exit_status() -> None:
    """A stop received in an import and not taken before the command ends decides the
    exit status, its timer cancelled (it would end the process by SIGALRM, status 142)."""
    import signal

    from benchie_cli import stops

    assert stops.settle() is None
    with _a_stop_in_an_import():
        assert stops.settle() == 128 + signal.SIGTERM
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
