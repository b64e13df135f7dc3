"""``-`` read from a terminal: the run says what it waits for, once, and one Ctrl-D at the
start of a line ends the input, as for ``cat``; nothing is said when standard input or
standard error is no terminal."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest

from benchie_cli.textio import TERMINAL_HINT

pty = pytest.importorskip("pty", reason="pseudo-terminals are POSIX only")

LINE = b"1\tThe cat\tsat on\tthe mat\n"
EOF = b"\x04"  # Ctrl-D, the terminal's end of input at the start of a line


class Terminal:
    """A command run with a pseudo-terminal as its standard input and error, whose screen
    is read all the while (a full screen would stop the command's writes)."""

    def __init__(self, argv: list[str]) -> None:
        self.master, slave = pty.openpty()
        self.child = subprocess.Popen(argv, stdin=slave, stderr=slave, stdout=subprocess.PIPE)
        os.close(slave)
        self.shown = b""
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 4096)
            except OSError:  # the child's side is closed
                return
            if not chunk:
                return
            self.shown += chunk

    def wait_for(self, text: bytes, seconds: float = 60.0) -> None:
        end = time.monotonic() + seconds
        while text not in self.shown and time.monotonic() < end:
            time.sleep(0.05)
        assert text in self.shown, self.shown

    def type(self, data: bytes) -> None:
        os.write(self.master, data)

    def finish(self, seconds: float = 60.0) -> bytes:
        """The command's standard output, once it has ended."""
        try:
            out, _ = self.child.communicate(timeout=seconds)
        except subprocess.TimeoutExpired:
            self.child.kill()
            self.child.communicate()
            raise AssertionError(f"still waiting after one Ctrl-D: {self.shown!r}") from None
        finally:
            self._reader.join(timeout=5)
            os.close(self.master)
        return out


@pytest.mark.parametrize(
    ("argv", "read"),
    [
        (["validate", "--format", "json", "-"], b'"kind": "submission"'),
        (["score", "--lang", "en", "--format", "json", "-"], b'"extractions": 1'),
    ],
    ids=["validate", "score"],
)
def test_reading_dash_from_a_terminal_says_what_it_waits_for_and_one_ctrl_d_ends_it(argv, read):
    terminal = Terminal([sys.executable, "-m", "benchie_cli", *argv])
    terminal.wait_for(b"Ctrl-D")
    terminal.type(LINE)
    terminal.wait_for(b"the mat\r\n")  # the terminal's echo: the line is in
    terminal.type(EOF)
    out = terminal.finish()
    assert terminal.child.returncode == 0, terminal.shown
    assert TERMINAL_HINT.strip().encode() in terminal.shown.replace(b"\r\n", b"\n")
    assert terminal.shown.count(b"from the terminal") == 1
    assert read in out, out


def test_a_pipe_on_standard_input_gets_no_hint():
    done = subprocess.run(
        [sys.executable, "-m", "benchie_cli", "validate", "-"],
        input=LINE,
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert b"from the terminal" not in done.stderr
