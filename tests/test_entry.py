"""The console entry point (``benchie_cli/entry.py``): what it leaves the command with, and
how the process ends."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from benchie_cli import stops

# A child process: the entry point freezes the collector's view of every object alive, which
# must not happen to the test process; and it ends the process.
_PROBE = """
import gc, sys
import benchie_cli.cli
from benchie_cli import entry
def run():
    print(gc.isenabled(), gc.get_freeze_count() > 0)
benchie_cli.cli.run = run
{before}
entry.main()
"""


def _probe(before: str, command: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _PROBE.replace("{before}", before).replace("{command}", command)],
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_command_runs_with_the_collector_on_and_the_loaded_modules_frozen() -> None:
    """Paused while the CLI loads (its objects live to the end: nothing to collect), on
    again for the command, which builds what may be garbage."""
    assert _probe("").stdout.strip() == "True True"


def test_a_collector_turned_off_before_stays_off() -> None:
    assert _probe("gc.disable()").stdout.strip() == "False True"


# A command that ends: the process ends at once (``os._exit``, shown by a stand-in), with the
# command's status, its exit functions run and its buffered output written; not where only
# the interpreter's own exit does what is needed.
_ENDING = r"""
import atexit, os, sys, threading, time
import benchie_cli.cli
from benchie_cli.entry import console
hard_exit = os._exit
def shown(status):
    os.write(2, b"os._exit(%d)\n" % status)
    hard_exit(status)
os._exit = shown
def run():
    atexit.register(print, "exit function", file=sys.stderr)
    sys.stdout.write("buffered")  # (no newline: left in the buffer)
    {end}
benchie_cli.cli.run = run
console()
"""


def _ending(end: str, tmp_path: Path, runner: tuple[str, ...] = ()) -> tuple[int, str, list[str]]:
    """The probe run as a script, as the console script is (``runner``: the program that
    runs it instead, ``-m cProfile`` say)."""
    script = tmp_path / "probe.py"
    script.write_text(_ENDING.replace("{end}", end))
    done = subprocess.run(
        [sys.executable, *runner, str(script)], capture_output=True, text=True, check=False
    )
    return done.returncode, done.stdout, done.stderr.splitlines()


def test_an_ended_command_leaves_without_the_teardown(tmp_path: Path) -> None:
    for end, status in (("sys.exit(3)", 3), ("sys.exit(0)", 0), ("sys.exit()", 0), ("", 0)):
        assert _ending(end, tmp_path) == (
            status,
            "buffered",
            ["exit function", f"os._exit({status})"],
        ), end


def test_the_interpreter_ends_what_only_it_can(tmp_path: Path) -> None:
    """A status that is not a number (the interpreter prints it), another thread still
    running (the interpreter waits for it), a profiler or tracer (which reports after the
    program), or an error that is not an exit: the usual exit."""
    assert _ending('sys.exit("a message")', tmp_path) == (
        1,
        "buffered",
        ["a message", "exit function"],
    )
    started = "threading.Thread(target=time.sleep, args=(0.2,)).start(); "
    assert _ending(started + "sys.exit(4)", tmp_path) == (4, "buffered", ["exit function"])
    assert _ending("sys.exit(256)", tmp_path)[2] == ["exit function"]
    for tool in ("sys.setprofile", "sys.settrace"):  # (cProfile reports after the program)
        assert _ending(f"{tool}(lambda *_: None); sys.exit(5)", tmp_path) == (
            5,
            "buffered",
            ["exit function"],
        )
    status, out, err = _ending("raise KeyError('x')", tmp_path)
    assert (status, out, err[-2:]) == (1, "buffered", ["KeyError: 'x'", "exit function"])
    # a program that runs the script (cProfile: it reports after it, and takes its exit)
    status, out, err = _ending("sys.exit(6)", tmp_path, ("-m", "cProfile"))
    assert (status, err) == (0, ["exit function"]) and "function calls" in out


@pytest.mark.parametrize(
    "call",
    [
        "from benchie_cli.entry import main; main()",
        "import runpy; runpy.run_module('benchie_cli', run_name='__main__')",  # (as -m does)
    ],
)
def test_a_program_that_runs_benchie_goes_on(call: str) -> None:
    """A script (or a test) that calls ``main``, or runs the package as ``python -m`` does,
    gets its exit and goes on: only the program's own way in (the console script, ``python
    -m benchie_cli``) ends the process."""
    script = (
        "import sys\n"
        "sys.argv = ['benchie', '--version']\n"
        "try:\n"
        f"    {call}\n"
        "except SystemExit as done:\n"
        "    print('caught', done.code)\n"
        "print('after')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0
    assert done.stdout.splitlines()[-2:] == ["caught 0", "after"]


def test_python_i_reaches_its_session() -> None:
    """``python -i -m benchie_cli``: the interactive session follows the program."""
    done = subprocess.run(
        [sys.executable, "-i", "-m", "benchie_cli", "--version"],
        input="print('session reached')\n",
        capture_output=True,
        text=True,
    )
    assert "session reached" in done.stdout


@pytest.mark.parametrize(
    ("argv", "started"),
    [
        (["python", "-m", "benchie_cli", "score"], ("module", "benchie_cli")),
        (["python", "-X", "importtime", "-W", "error", "-m", "m.metric"], ("module", "m.metric")),
        (["python", "-mbenchie_cli"], ("module", "benchie_cli")),
        (["python", "-Bm", "benchie_cli"], ("module", "benchie_cli")),
        (["python", "-BIm", "x.metric", "-m", "y"], ("module", "x.metric")),
        (["python", "-Bmx.metric"], ("module", "x.metric")),
        (["python", "-Xdev", "-m", "x"], ("module", "x")),
        (["python", "--check-hash-based-pycs", "always", "-m", "x"], ("module", "x")),
        (["python", "-m", "pdb", "-m", "benchie_cli"], ("module", "pdb")),
        (["python", "-c", "import x", "-m", "benchie_cli"], ("other", "")),
        (["python", "-Bc", "pass"], ("other", "")),
        (["python", "script.py", "-m", "benchie_cli"], ("script", "script.py")),
        (["python", "-", "-m", "x"], ("other", "")),
        (["python"], ("other", "")),
    ],
)
def test_what_the_interpreter_was_started_for(
    monkeypatch: pytest.MonkeyPatch, argv: list[str], started: tuple[str, str]
) -> None:
    monkeypatch.setattr(sys, "orig_argv", argv)
    assert stops.started_as() == started


def test_a_program_that_captures_standard_output_as_text_gets_the_report() -> None:
    """A program that calls ``main`` with standard output redirected to an ``io.StringIO``
    (which has no binary buffer) got exit 70, "'_io.StringIO' object has no attribute
    'buffer'": it gets the report's text, the same bytes the command writes."""
    from tests.conftest import example

    script = (
        "import contextlib, io, sys\n"
        "from benchie_cli.entry import main\n"
        f"sys.argv = ['benchie', 'score', '--lang', 'en', {str(example('en', 'clausie'))!r}]\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        "    try:\n"
        "        main()\n"
        "    except SystemExit as done:\n"
        "        code = done.code\n"
        "sys.stdout.buffer.write(repr(code).encode() + b'\\n' + out.getvalue().encode())\n"
    )
    captured = subprocess.run([sys.executable, "-c", script], capture_output=True, check=False)
    direct = subprocess.run(
        [sys.executable, "-m", "benchie_cli", "score", "--lang", "en", example("en", "clausie")],
        capture_output=True,
        check=False,
    )
    status, _, text = captured.stdout.partition(b"\n")
    assert (status, direct.returncode) == (b"0", 0), captured.stderr
    assert text == direct.stdout and text.startswith(b"#  system")
