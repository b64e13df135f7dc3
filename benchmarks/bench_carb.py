"""Time and memory of CaRB's own scorer against ``python -m benchie_cli.metrics.carb_metric`` on the
same files, and a check that both compute identical numbers (docs/carb.md).

Two inputs, both scored against CaRB's test gold: OpenIE 4's output on CaRB's test sentences
(9,236 lines), and a file holding those lines ``--copies`` times (4 by default), every
confidence moved by a small seeded random amount so that no two are equal (a curve point for
each line; the same file for the same seed).

Every run is a whole process: interpreter start-up, imports, reading, scoring, writing the
curve. Peak RSS is the child's own ``ru_maxrss`` (``os.wait4``). On Linux a child inherits
the high-water RSS of the process that spawns it, so the children are spawned by a small
long-lived spawner (``python -I -S``, about 10 MiB) rather than by this script; a reading
not above the spawner's own peak is marked as an upper bound. CPU is the child's user +
system time, steadier than wall time on a busy machine.

Before timing, each implementation runs once per input untimed, and the check compares:
the curve files, byte for byte; the AUC and the optimal precision, recall and F1 exactly
(CaRB's values taken before it rounds them, by calling its ``Benchmark.compare`` with
``numpy.round`` disabled); and the rounded values CaRB's unchanged scorer prints. A
mismatch exits with status 1.

CaRB needs Python 3.8 with numpy 1.19.5, scipy 1.5.4, scikit-learn 0.23.2, docopt, nltk and
ipdb (its code imports ``sklearn.preprocessing.data``, gone from scikit-learn 0.24)::

    pyenv install 3.8.18   # or any Python 3.8
    ~/.pyenv/versions/3.8.18/bin/python -m venv /tmp/carb-venv
    /tmp/carb-venv/bin/pip install numpy==1.19.5 scipy==1.5.4 scikit-learn==0.23.2 \\
        docopt nltk ipdb
    git clone https://github.com/dair-iitd/CaRB /tmp/carb
    python benchmarks/bench_carb.py --carb /tmp/carb --carb-python /tmp/carb-venv/bin/python

CaRB's ``matcher.py`` loads NLTK's English stop word list when it is imported, though its
default match never uses it. So that no NLTK download is needed, the children see
``NLTK_DATA`` pointing at a temporary directory with a stand-in list.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data" / "carb"

#: Goals: ours at least this many times faster than CaRB (median wall time) on OpenIE 4's
#: output and on the large file, with at most this fraction of CaRB's peak RSS.
SPEED_GOALS = (8.0, 15.0)
MEMORY_GOAL = 0.5

#: CaRB's ``Benchmark.compare`` with ``numpy.round`` disabled, run in the checkout: the
#: unrounded AUC and optimum as JSON on stdout, the curve written to ``argv[3]``.
CARB_EXACT = """\
import json, sys
import numpy
import carb
from matcher import Matcher
from oie_readers.openieFourReader import OpenieFourReader
gold, system, out = sys.argv[1:4]
reader = OpenieFourReader()
reader.read(system)
numpy.round = lambda value, decimals=0: value
auc, optimal = carb.Benchmark(gold).compare(
    predicted=reader.oie, matchingFunc=Matcher.binary_linient_tuple_match, output_fn=out
)
print(json.dumps({"auc": float(auc), "optimal": [float(v) for v in optimal]}))
"""

#: What CaRB's scorer prints, e.g. ``AUC: 0.224  Optimal (precision, recall, F1): [0.411
#: 0.496 0.45 ]``.
_PRINTED = re.compile(
    r"AUC: (\S+)\s+Optimal \(precision, recall, F1\): \[\s*(\S+)\s+(\S+)\s+(\S+)\s*\]"
)


class Run(NamedTuple):
    wall: float
    cpu: float
    rss_mib: float
    stdout: str


#: The spawner: reads one JSON job a line (argv, environment, output files), runs it with
#: ``posix_spawn`` and ``wait4``, answers one JSON line (wall s, CPU s, peak KiB, status).
#: Its first line is its own peak RSS.
SPAWNER = """\
import json, os, sys, time
def peak():
    with open("/proc/self/status") as fh:
        return next(int(l.split()[1]) for l in fh if l.startswith("VmHWM:"))
print(json.dumps(peak()), flush=True)
for line in sys.stdin:
    job = json.loads(line)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    actions = [(os.POSIX_SPAWN_OPEN, 1, job["stdout"], flags, 0o600),
               (os.POSIX_SPAWN_OPEN, 2, job["stderr"], flags, 0o600)]
    start = time.perf_counter()
    pid = os.posix_spawnp(job["argv"][0], job["argv"], job["env"], file_actions=actions)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    print(json.dumps([wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, code]), flush=True)
"""


class Spawner:
    """The long-lived spawner process (see :data:`SPAWNER`)."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.process = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", SPAWNER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.stdin, self.stdout = self.process.stdin, self.process.stdout
        self.peak_mib = json.loads(self.stdout.readline()) / 1024

    def run(self, argv: list[str], env: dict[str, str]) -> Run:
        """One child, which must exit 0."""
        out, err = self.tmp / "stdout", self.tmp / "stderr"
        job = {"argv": argv, "env": env, "stdout": str(out), "stderr": str(err)}
        self.stdin.write(json.dumps(job) + "\n")
        self.stdin.flush()
        wall, cpu, rss_kib, code = json.loads(self.stdout.readline())
        if code != 0:
            sys.exit(f"{' '.join(argv)} failed ({code}):\n{err.read_text()[-2000:]}")
        return Run(wall, cpu, rss_kib / 1024, out.read_text())

    def close(self) -> None:
        self.stdin.close()
        self.process.wait()


def source_lines(path: Path) -> Iterator[bytes]:
    with gzip.open(path, "rb") if path.suffix == ".gz" else path.open("rb") as fh:
        yield from fh


def write_copies(source: Path, out: Path, copies: int, seed: int) -> None:
    """``source``'s lines ``copies`` times, each confidence plus a uniform draw in
    [-1e-6, 1e-6] from a generator seeded with ``seed``, nudged up to the next double while
    it equals one already written: the same file for the same seed, no two confidences equal.
    Streamed, so that this script stays smaller than the children it measures."""
    rng = random.Random(seed)
    seen: set[float] = set()
    with out.open("wb") as fh:
        for _ in range(copies):
            for line in source_lines(source):
                conf, tab, rest = line.partition(b"\t")
                value = float(conf) + rng.uniform(-1e-6, 1e-6)
                while value in seen:
                    value = math.nextafter(value, math.inf)
                seen.add(value)
                fh.write(repr(value).encode() + tab + rest)


def differences(
    job: str, exact: dict[str, object], printed: str, ours: dict[str, object]
) -> list[str]:
    """Where CaRB's numbers and ours differ: unrounded AUC and optimum, and the rounded
    values CaRB prints. Empty when they are identical."""
    problems = []
    optimal = [ours["precision"], ours["recall"], ours["f1"]]
    if exact != {"auc": ours["auc"], "optimal": optimal}:
        problems.append(f"{job}: CaRB computes {exact}, we auc {ours['auc']} optimal {optimal}")
    rounded = ours["carb"]
    assert isinstance(rounded, dict)
    m = _PRINTED.search(printed)
    if m is None or [float(v) for v in m.groups()] != [rounded["auc"], *rounded["optimal"]]:
        problems.append(f"{job}: CaRB prints {printed.strip()!r}, we round to {rounded}")
    return problems


def speedup(runs: dict[str, list[Run]], key: str) -> float:
    """CaRB's median ``key`` (``wall`` or ``cpu``) over ours."""
    carb = statistics.median(getattr(r, key) for r in runs["CaRB"])
    return float(carb / statistics.median(getattr(r, key) for r in runs["ours"]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--carb", type=Path, required=True, help="a CaRB checkout")
    parser.add_argument("--carb-python", required=True, help="a Python that runs CaRB")
    venv = REPO / ".venv" / "bin" / "python"
    parser.add_argument(
        "--python",
        default=str(venv) if venv.is_file() else sys.executable,
        help="the Python with benchie_cli installed (default: the checkout's .venv)",
    )
    parser.add_argument("--source", type=Path, default=DATA / "openie4_output.txt.gz")
    parser.add_argument("--gold", type=Path, default=DATA / "gold_test.tsv.gz")
    parser.add_argument("--copies", type=int, default=4, help="copies in the large file")
    parser.add_argument("--seed", type=int, default=2019, help="seed of the jitter")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per job")
    args = parser.parse_args()
    carb = args.carb.resolve()
    if not (carb / "carb.py").is_file():
        sys.exit(f"{carb} has no carb.py: give a CaRB checkout with --carb")

    with tempfile.TemporaryDirectory(prefix="bench-carb-") as tmp_name:
        tmp = Path(tmp_name)
        gold = tmp / "gold.tsv"  # CaRB reads plain text only
        small = tmp / "openie4.txt"
        for source, target in ((args.gold, gold), (args.source, small)):
            with target.open("wb") as fh:
                fh.writelines(source_lines(source))
        large = tmp / f"openie4_x{args.copies}.txt"
        write_copies(args.source, large, args.copies, args.seed)
        nltk = tmp / "nltk_data"
        (nltk / "corpora" / "stopwords").mkdir(parents=True)
        (nltk / "corpora" / "stopwords" / "english").write_text("a\nan\nthe\n")
        env = {**os.environ, "NLTK_DATA": str(nltk), "PYTHONWARNINGS": "ignore"}
        spawner = Spawner(tmp)

        problems: list[str] = []
        results = []
        for job, system, goal in (
            ("openie4", small, SPEED_GOALS[0]),
            (f"openie4 x{args.copies}", large, SPEED_GOALS[1]),
        ):
            carb_curve, our_curve, exact_curve = (tmp / f"{n}.dat" for n in ("carb", "ours", "x"))
            carb_cmd = [
                args.carb_python,
                str(carb / "carb.py"),  # its directory, first on sys.path, has its modules
                f"--gold={gold}",
                f"--out={carb_curve}",
                f"--openiefour={system}",
            ]
            our_cmd = [
                args.python,
                "-m",
                "benchie_cli.metrics.carb_metric",
                str(gold),
                str(system),
                "openie4",
                str(our_curve),
            ]
            exact_cmd = [
                args.carb_python,
                "-c",
                CARB_EXACT,
                str(gold),
                str(system),
                str(exact_curve),
            ]
            # The check, which is also the warm-up (page cache, compiled bytecode). The
            # driver imports CaRB's modules from its working directory.
            exact = subprocess.run(
                exact_cmd, cwd=carb, env=env, capture_output=True, text=True, check=True
            ).stdout.splitlines()[-1]
            printed = spawner.run(carb_cmd, env).stdout
            ours = spawner.run(our_cmd, env).stdout
            found = differences(job, json.loads(exact), printed, json.loads(ours))
            for path in (carb_curve, exact_curve):
                if path.read_bytes() != our_curve.read_bytes():
                    found.append(f"{job}: CaRB's curve file {path.name} differs from ours")
            problems += found
            runs: dict[str, list[Run]] = {"CaRB": [], "ours": []}
            for _ in range(args.repeat):  # alternating, so that load spikes hit both
                runs["CaRB"].append(spawner.run(carb_cmd, env))
                runs["ours"].append(spawner.run(our_cmd, env))
            results.append((job, goal, runs))
            lines = sum(1 for _ in system.open("rb"))
            points = sum(1 for _ in our_curve.open("rb")) - 1
            verdict = "DIFFERENT" if found else "identical"
            print(
                f"{job}: {lines:,} lines, {points:,} curve points; numbers {verdict} (curve "
                "byte for byte, AUC and optimum exact, CaRB's printed rounding)"
            )

        spawner.close()
    own = spawner.peak_mib
    print(
        f"\n{args.repeat} timed runs each; {os.cpu_count()} CPUs; load {os.getloadavg()[0]:.2f}; "
        f"the spawner's peak RSS {own:.1f} MiB\n"
    )
    print(f"{'job':<12} {'scorer':<6} {'median s':>9} {'min s':>7} {'CPU s':>7} {'peak MiB':>9}")
    bounded = False
    for job, _, runs in results:
        for scorer, rs in runs.items():
            rss = max(r.rss_mib for r in rs)
            # A child may inherit its spawner's peak: a reading no higher is only a bound.
            mark = "*" if rss <= own + 0.5 else " "
            bounded = bounded or mark == "*"
            print(
                f"{job:<12} {scorer:<6} {statistics.median(r.wall for r in rs):>9.3f} "
                f"{min(r.wall for r in rs):>7.3f} {statistics.median(r.cpu for r in rs):>7.3f} "
                f"{rss:>9.1f}{mark}"
            )
    if bounded:
        print("* not above the spawner's own peak RSS: an upper bound only")
    print()
    for job, goal, runs in results:
        wall, cpu = speedup(runs, "wall"), speedup(runs, "cpu")
        memory = max(r.rss_mib for r in runs["ours"]) / max(r.rss_mib for r in runs["CaRB"])
        met = wall >= goal and memory <= MEMORY_GOAL
        print(
            f"{job:<12} {wall:5.1f}x faster (CPU {cpu:5.1f}x), "
            f"{memory:.2f}x the memory; goal >= {goal:.0f}x and <= {MEMORY_GOAL}x: "
            f"{'met' if met else 'MISSED'}"
        )
    if problems:
        print("\n" + "\n".join(problems), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
