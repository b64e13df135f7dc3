"""Time and memory of reading native OIE outputs: ``benchie convert`` and ``benchie score``
on OpenIE 4's raw CaRB output (9,236 lines; goal < 1 s) and on a 10^6-line native file made
by cycling those lines (goal < 10 s, < 200 MiB).

Standalone (standard library only); runs the real ``benchie`` command as child processes,
so every figure includes interpreter start-up, imports and gold loading. Peak RSS is the
child's own (``os.wait4``). Generated files go to a temporary directory.

    python perf/bench_native.py                        # the repository's test copy
    python perf/bench_native.py path/to/openie4_output.txt --lines 1000000 --repeat 5
"""

from __future__ import annotations

import argparse
import gzip
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_SOURCE = REPO / "tests" / "data" / "carb" / "openie4_output.txt.gz"


def benchie_command() -> list[str]:
    """The checkout's venv ``benchie``, else ``benchie`` on PATH, else ``python -m``."""
    venv = REPO / ".venv" / "bin" / "benchie"
    if venv.is_file():
        return [str(venv)]
    found = shutil.which("benchie")
    return [found] if found else [sys.executable, "-m", "benchie_cli"]


def run(command: list[str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of one child process; it must exit 0."""
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert child.stderr is not None
    err = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({child.returncode}): {err.decode()[-500:]}")
    return elapsed, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", nargs="?", default=str(DEFAULT_SOURCE), help="OpenIE 4 output")
    parser.add_argument("--lines", type=int, default=1_000_000, help="lines of the big file")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per job")
    args = parser.parse_args()
    benchie = benchie_command()
    with tempfile.TemporaryDirectory() as tmp:
        small = Path(tmp) / "openie4_output.txt"
        raw = Path(args.source).read_bytes()
        small.write_bytes(gzip.decompress(raw) if args.source.endswith(".gz") else raw)
        lines = small.read_bytes().splitlines(keepends=True)
        big = Path(tmp) / "openie4_big.txt"
        with big.open("wb") as fh:
            for i in range(args.lines):
                fh.write(lines[i % len(lines)])
        out = Path(tmp) / "out.tsv"
        jobs = {
            f"convert, {len(lines):,} lines": [*benchie, "convert", "--lang", "en", str(small),
                                               "-o", str(out)],
            f"score, {len(lines):,} lines": [*benchie, "score", "--lang", "en", str(small)],
            f"convert, {args.lines:,} lines": [*benchie, "convert", "--lang", "en", str(big),
                                               "-o", str(out)],
            f"score, {args.lines:,} lines": [*benchie, "score", "--lang", "en", str(big)],
        }  # fmt: skip
        print(f"{'job':<28} {'median s':>9} {'min s':>7} {'peak RSS MiB':>13}")
        for name, command in jobs.items():
            run(command)  # warm-up: the index cache and the page cache
            runs = [run(command) for _ in range(args.repeat)]
            times = [t for t, _ in runs]
            rss = max(r for _, r in runs)
            print(f"{name:<28} {statistics.median(times):>9.3f} {min(times):>7.3f} {rss:>13.1f}")


if __name__ == "__main__":
    main()
