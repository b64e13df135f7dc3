"""Where a ``benchie`` command's time goes, counted in instructions instead of timed.

Wall times on a shared machine vary by tens of percent from one spell to the next; the
instructions a process executes do not: valgrind's callgrind counts them, the same count to
about 0.1% from run to run whatever else the machine does. For the command given after
``--`` (its last argument the input file), five commands are counted, and each row of the
table is one count less the one before it (docs/performance.md, "Where a run's time goes"):

1. the interpreter: ``python -c pass``;
2. the libraries every scoring command loads: ``import click, orjson, hashlib, pathlib``;
3. benchie's own modules that the command loads (``python -X importtime`` names them),
   imported alone;
4. the floor: the command on every hundredth line of its input (for a format of blocks,
   such as ClausIE's, its first 1%): the gold, a few lines, the report;
5. the whole command: the rest of the file, read and scored.

The Python is the one the console script's first line names, so that an install is counted
as users run it; ``--regular-install`` builds a regular install of the checkout into a
temporary venv first (as ``side_by_side.py`` does). Bytecode is cached as in an install
(``PYTHONDONTWRITEBYTECODE`` is removed), and each command runs once, uncounted, before it
is counted (bytecode, benchie's cache). Needs valgrind (Debian: ``apt-get install valgrind``);
a whole CaRB command takes about a minute under it.

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
import subprocess
import sys
import tempfile
from pathlib import Path

from side_by_side import REPO, SAMPLE, install_kind, regular_install

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


def samples(data: bytes) -> list[tuple[str, bytes]]:
    """The floor's inputs to try in turn: every :data:`SAMPLE`-th line, else the first 1%
    (a format of blocks, whose every hundredth line is no file the command reads)."""
    lines = data.splitlines(keepends=True)
    return [
        ("every 100th line", b"".join(lines[::SAMPLE])),
        ("the first 1%", b"".join(lines[: -(-len(lines) // SAMPLE)])),
    ]


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


def floor_command(counter: Counter, whole: list[str], tmp: Path) -> tuple[str, list[str]] | None:
    """The floor: ``whole`` on the first of :func:`samples` it reads, and which one that is."""
    source = Path(whole[-1])
    for how, sample in samples(source.read_bytes()):
        floor_input = tmp / source.name
        floor_input.write_bytes(sample)
        floor = [*whole[:-1], str(floor_input)]
        if counter.attempt(floor):
            return how, floor
    return None


def python_of(script: str) -> str:
    """The Python the console script's first line names."""
    path = shutil.which(script) or script
    with open(path, "rb") as f:
        first = f.readline()
    if not first.startswith(b"#!"):
        raise SystemExit(f"{path}: not a console script (no #! line)")
    return first[2:].decode().strip().split()[0]


class Counter:
    """Runs commands under callgrind in one environment; a failing command stops the script
    with its output (a count of a command that failed would be a count of an error path)."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env

    def attempt(self, argv: list[str]) -> bool:
        """Run ``argv`` once, uncounted: whether it succeeded (the warm-up)."""
        done = subprocess.run(argv, env=self.env, capture_output=True)
        return done.returncode == 0

    def count(self, argv: list[str]) -> int:
        valgrind = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
        done = subprocess.run([*valgrind, *argv], env=self.env, capture_output=True)
        if done.returncode != 0:
            sys.stderr.buffer.write(done.stderr[-4000:])
            raise SystemExit(f"failed under valgrind (status {done.returncode}): {argv}")
        return collected(done.stderr)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    venv = REPO / ".venv" / "bin" / "benchie"
    p.add_argument(
        "--benchie",
        default=str(venv) if venv.is_file() else "benchie",
        help="the installed console script (default: the checkout's .venv/bin/benchie)",
    )
    p.add_argument(
        "--regular-install",
        action="store_true",
        help="count a regular install of the checkout, built into a temporary venv",
    )
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
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory(prefix="instructions-") as tmp_name:
        tmp = Path(tmp_name)
        benchie = regular_install(tmp / "venv", env) if args.regular_install else args.benchie
        python = python_of(benchie)
        script = shutil.which(benchie) or benchie
        print(f"benchie: {benchie} ({install_kind(benchie)})", flush=True)
        counter = Counter(env)
        whole = [python, script, *args.command]
        if not counter.attempt(whole):
            print("the command fails; run it alone to see why", file=sys.stderr)
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
        found_floor = floor_command(counter, [python, script, *args.command], tmp)
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
    print(f"Python {version}; the floor: {how} of {source.name}\n")
    print(table(counts, how))
    if args.json is not None:
        doc = {"python": version, "floor_sample": how, "modules": modules, "counts": counts}
        args.json.write_text(json.dumps(doc, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
