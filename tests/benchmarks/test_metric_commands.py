"""Every benchmark's metric module as a command (``python -m
benchie_cli.benchmarks.X.metric``): bad input and stop signals give one line or none, never
a traceback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchie_cli" / "benchmarks"
COMMANDS = sorted(p for p in BENCHMARKS.glob("*/metric.py") if "__main__" in p.read_text())


def test_every_metric_command_takes_the_stop_signals_as_benchie_does() -> None:
    assert len(COMMANDS) >= 6
    for path in COMMANDS:
        block = path.read_text().split('if __name__ == "__main__":', 1)[1]
        assert "run_module(" in block, path


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_stop_is_its_exit_status_without_a_traceback(stop: signal.Signals) -> None:
    command = (
        "import os, signal\n"
        "from benchie_cli.stops import run_module\n"
        f"run_module(lambda: (os.kill(os.getpid(), {int(stop)}), 0)[1])\n"
    )
    done = subprocess.run([sys.executable, "-c", command], capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (128 + stop, "")


@pytest.mark.parametrize("traced", [False, True])
def test_a_bug_is_one_line_unless_its_traceback_is_asked_for(traced: bool) -> None:
    """An exception no check foresaw was Python's traceback, exit 1: it is one line, exit 70,
    as ``benchie`` says a bug, and the traceback with BENCHIE_TRACEBACK set."""
    command = (
        "from benchie_cli.stops import run_module\n"
        "def main():\n"
        "    raise KeyError('no such column')\n"
        "run_module(main)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "BENCHIE_TRACEBACK"}
    if traced:
        env["BENCHIE_TRACEBACK"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", command], capture_output=True, text=True, env=env, check=False
    )
    if traced:
        assert done.returncode == 1 and "Traceback" in done.stderr, done.stderr
        return
    assert done.returncode == 70
    assert done.stderr.startswith("error: internal error: KeyError")  # (-c names no module)
    assert "KeyError: 'no such column'. This is a bug in benchie " in done.stderr
    assert done.stderr.endswith("(run again with BENCHIE_TRACEBACK=1 for the traceback)\n")
    assert done.stderr.count("\n") == 1


@pytest.mark.parametrize("benchmark", ["oie2016", "oie2016_2018"])
def test_an_empty_gold_is_one_line(benchmark: str, tmp_path: Path) -> None:
    gold = tmp_path / "empty.oie"
    gold.write_bytes(b"")
    system = tmp_path / "system.txt"
    system.write_text("1.0\ta b c\tArg(a,List())\tRel(b,List())\tArg(c,List())\ta b c\n")
    module = f"benchie_cli.benchmarks.{benchmark}.metric"
    done = subprocess.run(
        [sys.executable, "-m", module, str(gold), str(system), "openie4"],
        capture_output=True,
        text=True,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"error: {gold}: the gold has no extraction\n"


def _metric(*args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    gold = Path(__file__).resolve().parents[2] / "gold" / "oie2016" / "2.0.0" / "test" / "test.oie"
    command = [sys.executable, "-m", "benchie_cli.benchmarks.oie2016.metric", str(gold), *args]
    return subprocess.run(command, capture_output=False, text=True, check=False, **kwargs)  # type: ignore[call-overload, no-any-return]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_a_result_standard_output_cannot_take_is_one_line(tmp_path: Path) -> None:
    system = tmp_path / "system.txt"
    system.write_text("1.0\ta b c\tArg(a,List())\tRel(b,List())\tArg(c,List())\ta b c\n")
    with open("/dev/full", "w") as full:
        done = _metric(str(system), "openie4", stdout=full, stderr=subprocess.PIPE)
    assert (done.returncode, done.stderr) == (
        2,
        "error: cannot write standard output: No space left on device\n",
    )


def test_a_closed_standard_output_is_refused(tmp_path: Path) -> None:
    system = tmp_path / "system.txt"
    system.write_text("1.0\ta b c\tArg(a,List())\tRel(b,List())\tArg(c,List())\ta b c\n")
    command = [sys.executable, "-m", "benchie_cli.benchmarks.oie2016.metric", "/nonexistent"]
    closed = subprocess.run(
        ["sh", "-c", 'exec "$@" >&-', "sh", *command, str(system), "openie4"],
        capture_output=False,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    assert (closed.returncode, closed.stderr) == (
        2,
        "error: standard output is closed (>&-): the result would be lost\n",
    )


def test_a_usage_error_read_by_a_reader_that_stops_is_still_an_error() -> None:
    """``2>&1 | head -1``: standard error's closed pipe is not standard output's (whose
    reader stopping early ends a command quietly, exit 0): the usage error is exit 2."""
    module = "benchie_cli.benchmarks.oie2016.metric"
    script = f'"{sys.executable}" -m {module} 2>&1 | head -c 1 >/dev/null; echo ${{PIPESTATUS[0]}}'
    for _ in range(3):  # (the reader may stop before or after the message's end)
        done = subprocess.run(["bash", "-c", script], capture_output=True, text=True)
        assert done.stdout.strip() == "2"


def test_a_failed_read_without_a_file_name_names_none() -> None:
    from benchie_cli.errors import failure_line

    assert failure_line(OSError(5, "Input/output error")) == "Input/output error"
    assert failure_line(OSError(2, "No such file", "g.oie")) == "g.oie: No such file"
