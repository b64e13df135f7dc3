"""Where a ``benchie`` command's time goes, counted in instructions instead of timed.

Wall times on a shared machine vary by tens of percent from one spell to the next; the
instructions a process executes do not: valgrind's callgrind counts them, the same count to
0.1-0.2% from run to run whatever else the machine does. For the command given after
``--`` (its last argument the input file), five commands are counted, and each row of the
table is one count less the one before it (docs/performance.md, "Where a run's time goes"):

1. the interpreter: ``python -c pass``;
2. the libraries every scoring command loads: ``import click, orjson, hashlib, pathlib``;
3. benchie's own modules that the command loads (``python -X importtime`` names them),
   imported alone;
4. the floor: the command on every hundredth line of its input (where the command refuses
   that sample, its first 1%): the gold, a few lines, the report;
5. the whole command: the rest of the file, read and scored.

The Python is the one the console script names, so that an install is counted as users run
it; ``--regular-install`` builds a regular install of the checkout into a temporary venv
first (as ``side_by_side.py`` does). Bytecode is cached as in an install
(``PYTHONDONTWRITEBYTECODE`` is removed), benchie gets a private cache and data directory,
the hash seed is fixed, and each command runs once, uncounted, before it is counted
(bytecode, benchie's cache). A table whose floor is not below the whole command (the input
too small, or not the command's last argument) is refused. Needs valgrind (Debian:
``apt-get install valgrind``); a whole CaRB command takes about a minute under it.

    python perf/instructions.py -- score --benchmark carb --split test \\
        --input-format openie4 openie4_output.txt
    python perf/instructions.py --regular-install --json counts.json -- score ...
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from types import FrameType

from side_by_side import (
    add_install_options,
    install_kind,
    python_of,
    regular_install,
    samples,
)

#: The libraries every scoring command loads before its first line (row 2).
LIBRARIES = ("click", "orjson", "hashlib", "pathlib")

#: What callgrind prints of the count: ``==PID== Collected : N``.
_COLLECTED = re.compile(rb"^==\d+== Collected : (\d+)$", re.MULTILINE)

ROWS = (
    ("the interpreter (`python -c pass`)", "interpreter"),
    (f"{', '.join(LIBRARIES)} (imported, less the interpreter)", "libraries"),
    ("benchie's modules that the command loads (imported alone, less the above)", "modules"),
    ("the gold, the sample's lines and the report (the floor command, less the above)", "floor"),
    ("the rest of the file, read and scored (the whole command, less the floor)", "whole"),
)


def collected(stderr: bytes) -> int:
    """The instruction count callgrind printed on ``stderr``."""
    found = _COLLECTED.findall(stderr)
    if len(found) != 1:
        raise ValueError("callgrind printed no single 'Collected' line")
    return int(found[0])


def imported_modules(importtime: str) -> list[str]:
    """benchie's modules that ``python -X importtime`` reports, in its order (a module's
    imports before it), without ``__main__`` modules, which run a command when imported."""
    names = []
    for line in importtime.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        name = line.rsplit("|", 1)[1].strip()
        if name.split(".")[0] == "benchie_cli" and not name.endswith("__main__"):
            names.append(name)
    return names


def shares(counts: dict[str, int]) -> list[tuple[str, int]]:
    """Each row's instructions: its count less the previous row's count."""
    keys = [key for _, key in ROWS]
    return [(key, counts[key] - (counts[keys[i - 1]] if i else 0)) for i, key in enumerate(keys)]


def table(counts: dict[str, int], floor_sample: str) -> str:
    """The markdown table of :func:`shares`, in millions of instructions."""
    total = counts["whole"]
    out = ["| part of the run | instructions | share |", "|---|---:|---:|"]
    for (label, _), (_, n) in zip(ROWS, shares(counts), strict=True):
        label = label.replace("the sample's lines", f"the sample's lines ({floor_sample})")
        out.append(f"| {label} | {n / 1e6:,.0f} M | {n / total:.0%} |")
    out.append(f"| the whole command | {total / 1e6:,.0f} M | 100% |")
    return "\n".join(out)


class Counter:
    """Runs commands under callgrind in one environment; a command that fails stops the
    script with its output (a count of a failing command counts an error path)."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env

    def attempt(self, argv: list[str]) -> subprocess.CompletedProcess[bytes]:
        """Run ``argv`` once, uncounted (the warm-up, and whether it succeeds)."""
        return subprocess.run(argv, env=self.env, capture_output=True)

    def count(self, argv: list[str]) -> int:
        valgrind = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
        done = subprocess.run([*valgrind, *argv], env=self.env, capture_output=True)
        if done.returncode != 0:
            sys.stderr.buffer.write(done.stderr[-4000:])
            raise SystemExit(f"failed under valgrind (status {done.returncode}): {argv}")
        return collected(done.stderr)


def floor_command(counter: Counter, whole: list[str], tmp: Path) -> tuple[str, list[str]] | None:
    """The floor: ``whole`` on the first of :func:`samples` it reads, and which one that is."""
    source = Path(whole[-1])
    for how, sample in samples(source.read_bytes()):
        floor_input = tmp / source.name
        floor_input.write_bytes(sample)
        floor = [*whole[:-1], str(floor_input)]
        if counter.attempt(floor).returncode == 0:
            return how, floor
    return None


def child_env(base: dict[str, str], tmp: Path) -> dict[str, str]:
    """The counted commands' environment: bytecode cached as in an install, benchie's cache
    and data directories private (the user's are neither read nor changed), and one hash
    seed, so that a count repeats."""
    env = {k: v for k, v in base.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return env | {
        "BENCHIE_CACHE_DIR": str(tmp / "cache"),
        "BENCHIE_DATA_DIR": str(tmp / "data"),
        "PYTHONHASHSEED": "0",
    }


def problem(counts: dict[str, int]) -> str | None:
    """Why the counts make no table: a floor that is not below the whole command."""
    if counts["floor"] >= counts["whole"]:
        return (
            f"the floor ({counts['floor']:,} instructions) is not below the whole command "
            f"({counts['whole']:,}): the input is too small for its 1% to differ, or it is "
            "not the command's last argument"
        )
    return None


def _terminated(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)  # (so that the temporary directory is removed)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_install_options(p, "count")
    p.add_argument("--json", type=Path, help="write the counts here")
    p.add_argument("command", nargs="+", help="benchie's arguments, after --; the last a file")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    source = Path(args.command[-1])
    if not source.is_file():
        print(f"{source}: no such file (the command's last argument)", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, _terminated)
    try:
        return counted(args, source)
    except KeyboardInterrupt:  # (the temporary directory is gone by now)
        return 130


def counted(args: argparse.Namespace, source: Path) -> int:
    """Count the five commands (the module's docstring) and print the table."""
    with tempfile.TemporaryDirectory(prefix="instructions-") as tmp_name:
        tmp = Path(tmp_name)
        env = child_env(dict(os.environ), tmp)
        benchie = regular_install(tmp / "venv", env) if args.regular_install else args.benchie
        try:
            python = python_of(benchie)
        except ValueError as exc:
            print(f"--benchie: {exc}", file=sys.stderr)
            return 2
        script = shutil.which(benchie) or benchie
        print(f"benchie: {benchie} ({install_kind(benchie)})", flush=True)
        counter = Counter(env)
        whole = [python, script, *args.command]
        tried = counter.attempt(whole)
        if tried.returncode != 0:
            sys.stderr.buffer.write(tried.stderr[-4000:])
            print(
                f"the command failed (status {tried.returncode}): nothing counted", file=sys.stderr
            )
            return 1
        found = subprocess.run(
            [python, "-X", "importtime", script, *args.command],
            env=env,
            capture_output=True,
            text=True,
            errors="replace",
        )
        modules = imported_modules(found.stderr)
        if not modules:
            print("python -X importtime named none of benchie's modules", file=sys.stderr)
            return 1
        libraries = f"import {', '.join(LIBRARIES)}"
        found_floor = floor_command(counter, whole, tmp)
        if found_floor is None:
            print("no 1% sample of the input is a file the command reads", file=sys.stderr)
            return 1
        how, floor = found_floor
        commands = {
            "interpreter": [python, "-c", "pass"],
            "libraries": [python, "-c", libraries],
            "modules": [python, "-c", f"{libraries}; import {', '.join(modules)}"],
            "floor": floor,
            "whole": whole,
        }
        counts = {}
        for key, command in commands.items():
            counter.attempt(command)
            counts[key] = counter.count(command)
            print(f"  {key}: {counts[key]:,} instructions", file=sys.stderr, flush=True)
        version = subprocess.run(  # (before a --regular-install's venv is removed)
            [python, "-c", "import sys; print(sys.version.split()[0])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    wrong = problem(counts)
    if wrong is not None:
        print(wrong, file=sys.stderr)
        return 1
    print(f"Python {version}; the floor: {how} of {source.name}\n")
    print(table(counts, how))
    if args.json is not None:
        doc = {"python": version, "floor_sample": how, "modules": modules, "counts": counts}
        args.json.write_text(json.dumps(doc, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
