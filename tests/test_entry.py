"""The console entry point (``benchie_cli/entry.py``): what it leaves the command with."""

from __future__ import annotations

import subprocess
import sys

# A child process: the entry point freezes the collector's view of every object alive, which
# must not happen to the test process.
_PROBE = """
import gc, sys
import benchie_cli.cli
from benchie_cli import entry
seen = {}
def run():
    seen["enabled"] = gc.isenabled()
    seen["frozen"] = gc.get_freeze_count()
benchie_cli.cli.run = run
{before}
entry.main()
print(seen["enabled"], seen["frozen"] > 0)
"""


def _probe(before: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE.replace("{before}", before)],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def test_the_command_runs_with_the_collector_on_and_the_loaded_modules_frozen() -> None:
    """Paused while the CLI loads (its objects live to the end: nothing to collect), on
    again for the command, which builds what may be garbage."""
    assert _probe("") == "True True"


def test_a_collector_turned_off_before_stays_off() -> None:
    assert _probe("gc.disable()") == "False True"
