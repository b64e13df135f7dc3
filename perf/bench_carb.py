"""Time and memory of CaRB's own scorer against ``python -m benchie_cli.benchmarks.carb.metric``
on the same files, and a check that both compute identical numbers (docs/carb.md).

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
    python perf/bench_carb.py --carb /tmp/carb --carb-python /tmp/carb-venv/bin/python

CaRB's ``matcher.py`` loads NLTK's English stop word list when it is imported, though its
default match never uses it. So that no NLTK download is needed, the children see
``NLTK_DATA`` pointing at a temporary directory with a stand-in list.

``--openie6-carb`` (OpenIE6's ``carb/`` directory) and ``--openie6-python`` add the same
check and timing for the single-match variant, CaRB (s,s): OpenIE6's ``carb.py
--single_match`` against ``python -m benchie_cli.benchmarks.carb.metric --single-match``. The
check compares the curve files byte for byte; the AUC, the optimum and the "Zero Conf" point
exactly (OpenIE6's ``Benchmark.compare(..., strategy='ss')`` with ``numpy.round`` disabled);
and every number OpenIE6's unchanged scorer prints (4 decimals). Its imports are those of
CaRB's scorer, so a venv like CaRB's runs it; OpenIE6 pins Python 3.6 with numpy 1.19.0,
scipy 1.5.0, scikit-learn 0.23.1, nltk 3.5, docopt 0.6.2 and ipdb 0.13.3::

    ~/.pyenv/versions/3.6.15/bin/python -m venv /tmp/openie6-carb-venv
    /tmp/openie6-carb-venv/bin/pip install numpy==1.19.0 scipy==1.5.0 scikit-learn==0.23.1 \\
        nltk==3.5 docopt==0.6.2 ipdb==0.13.3 ipython==7.16.1
    git clone https://github.com/dair-iitd/openie6 /tmp/openie6
    python perf/bench_carb.py --openie6-carb /tmp/openie6/carb \\
        --openie6-python /tmp/openie6-carb-venv/bin/python

Either pair of options may be given alone, or both.
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

#: OpenIE6's ``Benchmark.compare`` with ``--single_match``'s strategy and ``numpy.round``
#: disabled, run in its ``carb/`` directory: the unrounded AUC, optimum and "Zero Conf" point
#: as JSON on stdout (a NaN as null), the curve written to ``argv[3]``.
OPENIE6_EXACT = """\
import json, math, sys
import numpy
import carb
from matcher import Matcher
from oie_readers.openieFourReader import OpenieFourReader
gold, system, out = sys.argv[1:4]
reader = OpenieFourReader()
reader.read(system)
numpy.round = lambda value, decimals=0: value
auc, optimal, zero = carb.Benchmark(gold).compare(
    predicted=reader.oie, matchingFunc=Matcher.binary_linient_tuple_match, output_fn=out,
    strategy="ss",
)
number = lambda v: None if math.isnan(v) else float(v)
print(json.dumps({"auc": float(auc), "optimal": [number(v) for v in optimal[:3]],
                  "zero_conf": [number(v) for v in zero[:3]]}))
"""

#: What OpenIE6's scorer prints, e.g. ``AUC: 0.1967  Optimal (precision, recall, F1):
#: (0.5511, 0.3186, 0.4038)  Zero Conf (precision, recall, F1): (0.5511, 0.3186, 0.4038)``.
_PRINTED_OPENIE6 = re.compile(
    r"AUC: (\S+)\s+Optimal \(precision, recall, F1\): \(([^)]*)\)\s+"
    r"Zero Conf \(precision, recall, F1\): \(([^)]*)\)"
)

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
        #: The exit status of the last child.
        self.code = 0

    def run(self, argv: list[str], env: dict[str, str]) -> Run:
        """One child, which must exit 0."""
        done = self.attempt(argv, env)
        if done is None:
            err = (self.tmp / "stderr").read_text()[-2000:]
            sys.exit(f"{' '.join(argv)} failed ({self.code}):\n{err}")
        return done

    def attempt(self, argv: list[str], env: dict[str, str]) -> Run | None:
        """One child; None if it exits with another status than 0 (kept in ``code``)."""
        out, err = self.tmp / "stdout", self.tmp / "stderr"
        job = {"argv": argv, "env": env, "stdout": str(out), "stderr": str(err)}
        self.stdin.write(json.dumps(job) + "\n")
        self.stdin.flush()
        wall, cpu, rss_kib, self.code = json.loads(self.stdout.readline())
        if self.code != 0:
            return None
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


def differences_openie6(
    job: str, exact: dict[str, object], printed: str, ours: dict[str, object]
) -> list[str]:
    """Where OpenIE6's (s,s) numbers and ours differ: unrounded AUC, optimum and "Zero Conf"
    point, and the numbers its scorer prints. Empty when they are identical."""
    problems = []
    mine = {
        "auc": ours["auc"],
        "optimal": [ours["precision"], ours["recall"], ours["f1"]],
        "zero_conf": ours["zero_conf"],
    }
    if exact != mine:
        problems.append(f"{job}: OpenIE6 computes {exact}, we {mine}")
    rounded = ours["openie6"]
    assert isinstance(rounded, dict)
    expected = [rounded["auc"], *rounded["optimal"], *rounded["zero_conf"]]
    m = _PRINTED_OPENIE6.search(printed)
    if m is None:
        problems.append(f"{job}: OpenIE6 prints {printed.strip()!r}, we round to {rounded}")
    else:
        numbers = [m.group(1), *m.group(2).split(","), *m.group(3).split(",")]
        # OpenIE6 prints a NaN F1 as nan; we give it as null
        shown = [None if v.strip() == "nan" else float(v) for v in numbers]
        if shown != expected:
            problems.append(f"{job}: OpenIE6 prints {printed.strip()!r}, we round to {rounded}")
    return problems


def speedup(runs: dict[str, list[Run]], key: str) -> float:
    """The original's median ``key`` (``wall`` or ``cpu``) over ours."""
    (original,) = (rs for scorer, rs in runs.items() if scorer != "ours")
    theirs = statistics.median(getattr(r, key) for r in original)
    return float(theirs / statistics.median(getattr(r, key) for r in runs["ours"]))


class Job(NamedTuple):
    """One input scored by an original scorer and by ours."""

    name: str
    original: str  # the original scorer's name
    system: Path
    goal: float | None  # the speed-up to reach, if there is a goal
    original_cmd: list[str]
    our_cmd: list[str]
    exact_cmd: list[str]  # the original, unrounded: JSON on stdout
    cwd: Path  # where exact_cmd imports the original's modules from
    curves: tuple[Path, Path, Path]  # written by original_cmd, our_cmd, exact_cmd
    single: bool


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--carb", type=Path, help="a CaRB checkout")
    parser.add_argument("--carb-python", help="a Python that runs CaRB")
    parser.add_argument("--openie6-carb", type=Path, help="OpenIE6's carb/ directory")
    parser.add_argument("--openie6-python", help="a Python that runs OpenIE6's carb.py")
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
    originals: list[tuple[str, Path, str]] = []  # (name, directory with carb.py, Python)
    for name, directory, python, option, python_option in (
        ("CaRB", args.carb, args.carb_python, "--carb", "--carb-python"),
        ("OpenIE6", args.openie6_carb, args.openie6_python, "--openie6-carb", "--openie6-python"),
    ):
        if directory is None and python is None:
            continue
        if directory is None or python is None:
            sys.exit(f"{option} and {python_option} go together")
        directory = directory.resolve()
        if not (directory / "carb.py").is_file():
            sys.exit(f"{directory} has no carb.py: give {name}'s scorer directory with {option}")
        originals.append((name, directory, python))
    if not originals:
        sys.exit("give --carb and --carb-python, or --openie6-carb and --openie6-python")

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

        jobs = []
        for name, directory, python in originals:
            single = name == "OpenIE6"
            for job, system, goal in (
                ("openie4", small, SPEED_GOALS[0]),
                (f"openie4 x{args.copies}", large, SPEED_GOALS[1]),
            ):
                curves = tuple(tmp / f"{name}-{n}.dat" for n in ("original", "ours", "exact"))
                original_cmd = [
                    python,
                    str(directory / "carb.py"),  # its directory, first on sys.path, has its modules
                    f"--gold={gold}",
                    f"--out={curves[0]}",
                    f"--openiefour={system}",
                ]
                our_cmd = [args.python, "-m", "benchie_cli.benchmarks.carb.metric"]
                if single:
                    original_cmd.append("--single_match")
                    our_cmd.append("--single-match")
                our_cmd += [str(gold), str(system), "openie4", str(curves[1])]
                exact = OPENIE6_EXACT if single else CARB_EXACT
                exact_cmd = [python, "-c", exact, str(gold), str(system), str(curves[2])]
                jobs.append(
                    Job(
                        f"{job} (s,s)" if single else job,
                        name,
                        system,
                        None if single else goal,
                        original_cmd,
                        our_cmd,
                        exact_cmd,
                        directory,
                        (curves[0], curves[1], curves[2]),
                        single,
                    )
                )

        problems: list[str] = []
        results = []
        for jb in jobs:
            # The check, which is also the warm-up (page cache, compiled bytecode). The
            # driver imports the original's modules from its working directory.
            exact = subprocess.run(
                jb.exact_cmd, cwd=jb.cwd, env=env, capture_output=True, text=True, check=True
            ).stdout.splitlines()[-1]
            printed = spawner.run(jb.original_cmd, env).stdout
            ours = spawner.run(jb.our_cmd, env).stdout
            compare = differences_openie6 if jb.single else differences
            found = compare(jb.name, json.loads(exact), printed, json.loads(ours))
            original_curve, our_curve, exact_curve = jb.curves
            for path in (original_curve, exact_curve):
                if path.read_bytes() != our_curve.read_bytes():
                    found.append(f"{jb.name}: {jb.original}'s curve file {path.name} differs")
            problems += found
            runs: dict[str, list[Run]] = {jb.original: [], "ours": []}
            for _ in range(args.repeat):  # alternating, so that load spikes hit both
                runs[jb.original].append(spawner.run(jb.original_cmd, env))
                runs["ours"].append(spawner.run(jb.our_cmd, env))
            results.append((jb, runs))
            lines = sum(1 for _ in jb.system.open("rb"))
            points = sum(1 for _ in our_curve.open("rb")) - 1
            verdict = "DIFFERENT" if found else "identical"
            print(
                f"{jb.name}: {lines:,} lines, {points:,} curve points; numbers {verdict} "
                f"(curve byte for byte, unrounded numbers exact, {jb.original}'s printed "
                "rounding)"
            )

        spawner.close()
    own = spawner.peak_mib
    print(
        f"\n{args.repeat} timed runs each; {os.cpu_count()} CPUs; load {os.getloadavg()[0]:.2f}; "
        f"the spawner's peak RSS {own:.1f} MiB\n"
    )
    width = max(len(jb.name) for jb in jobs)
    print(
        f"{'job':<{width}} {'scorer':<7} {'median s':>9} {'min s':>7} {'CPU s':>7} {'peak MiB':>9}"
    )
    bounded = False
    for jb, runs in results:
        for scorer, rs in runs.items():
            rss = max(r.rss_mib for r in rs)
            # A child may inherit its spawner's peak: a reading no higher is only a bound.
            mark = "*" if rss <= own + 0.5 else " "
            bounded = bounded or mark == "*"
            print(
                f"{jb.name:<{width}} {scorer:<7} {statistics.median(r.wall for r in rs):>9.3f} "
                f"{min(r.wall for r in rs):>7.3f} {statistics.median(r.cpu for r in rs):>7.3f} "
                f"{rss:>9.1f}{mark}"
            )
    if bounded:
        print("* not above the spawner's own peak RSS: an upper bound only")
    print()
    for jb, runs in results:
        wall, cpu = speedup(runs, "wall"), speedup(runs, "cpu")
        memory = max(r.rss_mib for r in runs["ours"]) / max(r.rss_mib for r in runs[jb.original])
        line = (
            f"{jb.name:<{width}} {wall:5.1f}x faster than {jb.original} (CPU {cpu:5.1f}x), "
            f"{memory:.2f}x the memory"
        )
        if jb.goal is not None:
            met = wall >= jb.goal and memory <= MEMORY_GOAL
            line += f"; goal >= {jb.goal:.0f}x and <= {MEMORY_GOAL}x: {'met' if met else 'MISSED'}"
        print(line)
    if problems:
        print("\n" + "\n".join(problems), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
