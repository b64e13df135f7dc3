#!/usr/bin/env python3
"""Performance benchmark of ``benchie score``: wall time and peak memory of real processes.

Every job runs the installed ``benchie`` command as a child process, exactly as a user
would, so interpreter start-up, imports, gold hashing and loading, and the atomic report
write are all included. Each job runs once untimed (warm-up: page cache, ``.pyc`` files,
benchie's index cache), then ``--repeat`` times timed; the table shows the median and the
minimum wall time and the highest peak RSS of the timed runs. Every run's report is checked
against numbers that are known (the BenchIE paper's published scores) or derivable (see the
README), so a fast but wrong run cannot pass.

Wall time is ``time.perf_counter()`` around spawning and reaping the child. Peak RSS is the
child's own ``ru_maxrss`` from ``os.wait4`` (or ``/usr/bin/time -f %M`` with ``--rss time``).
Linux caveat: a child started by ``vfork``/``posix_spawn`` (as ``subprocess`` does) inherits
its parent's high-water RSS at ``exec``, so a child's ``ru_maxrss`` is never below its
parent's peak. The children are therefore started by a tiny spawner process (``python -I -S``,
about 10 MiB, nothing else in it) rather than by this script, whose memory grows while it
builds a million-line input; readings not above the spawner's own peak are flagged.

Standard library only. Run ``python perf/bench_score.py --help``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import random
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples" / "submissions" / "en"
sys.path.insert(0, str(REPO))  # the shared constants, also when run from elsewhere
from benchie_cli.published import ENGLISH_SYSTEMS  # noqa: E402 (pure data, stdlib only)
from benchie_cli.published import PUBLISHED as _PUBLISHED  # noqa: E402

#: (precision, recall, F1) the BenchIE paper publishes for the English examples.
PUBLISHED: dict[str, tuple[float, float, float]] = {
    system: (p, r, f1) for lang, system, p, r, f1 in _PUBLISHED if lang == "en"
}

DEFAULT_LINES = 1_000_000
OPTIONAL_UNITS = 40
ADVERSARIAL_SEED = 20220522

Check = Callable[["RunOutput"], list[str]]


# --------------------------------------------------------------------------- data


@dataclass(frozen=True)
class Goal:
    """The issue's target for a job: wall seconds and/or peak RSS MiB (``None``: none)."""

    wall_s: float | None = None
    rss_mib: float | None = None
    upstream: str = ""

    def describe(self) -> str:
        parts = []
        if self.wall_s is not None:
            parts.append(f"<= {self.wall_s:g} s")
        if self.rss_mib is not None:
            parts.append(f"<= {self.rss_mib:g} MiB")
        return ", ".join(parts) or "-"

    def met(self, wall_s: float, rss_mib: float | None) -> bool | None:
        """Whether the measured median wall time and peak RSS meet the goal."""
        if self.wall_s is None and self.rss_mib is None:
            return None
        ok = self.wall_s is None or wall_s <= self.wall_s
        if self.rss_mib is not None:
            ok = ok and rss_mib is not None and rss_mib <= self.rss_mib
        return ok


@dataclass
class Job:
    """One command line to time, with what it must produce."""

    name: str
    description: str
    args: list[str]
    goal: Goal
    output: Path | None  # the JSON report the command writes, if any
    check: Check
    env: dict[str, str] = field(default_factory=dict)  # added to the environment
    fresh_dir: Path | None = None  # removed before every run (a cold cache)


@dataclass
class RunOutput:
    """What one run left behind, for the checks."""

    returncode: int
    stdout: str
    stderr: str
    report: dict[str, Any] | None


@dataclass
class Measurement:
    """One timed run."""

    wall_s: float
    cpu_s: float | None  # user + system time of the child
    rss_kib: int | None
    rss_floor_kib: int  # the spawner's own peak RSS, which the child inherits (0: n/a)


@dataclass
class JobResult:
    """All timed runs of a job, summarised."""

    name: str
    description: str
    command: list[str]
    goal: str
    upstream: str
    runs: list[Measurement] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    median_wall_s: float = 0.0
    min_wall_s: float = 0.0
    median_cpu_s: float | None = None
    peak_rss_mib: float | None = None
    rss_exact: bool = True
    met: bool | None = None


# --------------------------------------------------------------------------- measuring


SPAWNER = r"""
import json, os, sys, time
def peak():
    try:
        with open("/proc/self/status") as fh:
            return next(int(l.split()[1]) for l in fh if l.startswith("VmHWM:"))
    except (OSError, StopIteration):
        import resource
        r = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return r // 1024 if sys.platform == "darwin" else r
for line in sys.stdin:
    req = json.loads(line)
    fds = [os.open(os.devnull, os.O_RDONLY)] + [
        os.open(req[k], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644) for k in ("out", "err")]
    actions = [(os.POSIX_SPAWN_DUP2, fd, n) for n, fd in enumerate(fds)]
    try:
        start = time.perf_counter()
        pid = os.posix_spawnp(req["argv"][0], req["argv"], req["env"], file_actions=actions)
        _, status, usage = os.wait4(pid, 0)
        wall = time.perf_counter() - start
        rss = usage.ru_maxrss // 1024 if sys.platform == "darwin" else usage.ru_maxrss
        reply = {"wall": wall, "rss": rss, "cpu": usage.ru_utime + usage.ru_stime,
                 "status": os.waitstatus_to_exitcode(status), "floor": peak()}
    except OSError as exc:
        reply = {"error": str(exc)}
    for fd in fds:
        os.close(fd)
    print(json.dumps(reply), flush=True)
"""


class Spawner:
    """A small long-lived process that starts each measured child and reaps it with
    ``os.wait4``, so that the child's ``ru_maxrss`` is its own and not this script's."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", SPAWNER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def run(
        self, argv: list[str], env: dict[str, str], out: Path, err: Path
    ) -> tuple[float, float, int, int, int]:
        """(wall s, child CPU s, child peak RSS KiB, exit status, spawner's own peak KiB)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        request = {"argv": argv, "env": env, "out": str(out), "err": str(err)}
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        reply = json.loads(self.proc.stdout.readline() or '{"error": "spawner died"}')
        if "error" in reply:
            raise SystemExit(f"bench_score: cannot run {shlex.join(argv)}: {reply['error']}")
        return reply["wall"], reply["cpu"], reply["rss"], reply["status"], reply["floor"]

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


def run_once(
    cmd: list[str], env: dict[str, str], workdir: Path, rss_method: str, spawner: Spawner | None
) -> tuple[Measurement, RunOutput]:
    """Run ``cmd`` once; stdout and stderr go to files so that no pipe can stall it."""
    out_path, err_path, rss_path = workdir / "stdout", workdir / "stderr", workdir / "rss"
    rss: int | None = None
    cpu: float | None = None
    floor = 0
    if spawner is not None:
        wall, cpu, rss, returncode, floor = spawner.run(cmd, env, out_path, err_path)
    else:
        wrapped = (
            ["/usr/bin/time", "-f", "%M %U %S", "-o", str(rss_path), *cmd]
            if rss_method == "time"
            else cmd
        )
        with out_path.open("wb") as out, err_path.open("wb") as err:
            start = time.perf_counter()
            proc = subprocess.Popen(
                wrapped, stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env
            )
            returncode = proc.wait()
            wall = time.perf_counter() - start
        if rss_method == "time":  # the last line; earlier ones may be time's own notes
            fields = (rss_path.read_text().strip().splitlines() or [""])[-1].split()
            if len(fields) == 3 and fields[0].isdigit():
                rss, cpu = int(fields[0]), float(fields[1]) + float(fields[2])
    output = RunOutput(
        returncode,
        out_path.read_text(errors="replace"),
        err_path.read_text(errors="replace"),
        None,
    )
    return Measurement(wall, cpu, rss, floor), output


def read_report(path: Path | None) -> dict[str, Any] | None:
    if path is None or not path.is_file():
        return None
    data: dict[str, Any] = json.loads(path.read_bytes())
    return data


def checked(job: Job, output: RunOutput) -> list[str]:
    """The problems of one run: a failed exit, an unreadable report, or the job's check."""
    if output.returncode != 0:
        return [f"exit status {output.returncode}: {output.stderr.strip()[-500:]}"]
    try:
        output.report = read_report(job.output)
        return job.check(output)
    except (ValueError, KeyError, TypeError, StopIteration) as exc:
        return [f"unusable report: {exc!r}"]


def child_environment(tmp: Path, inherit: bool) -> dict[str, str]:
    """The children's environment: ours, but with bytecode caching as in a normal install
    (``.pyc`` files written to and read from ``tmp``, never into the checkout or the venv),
    unless ``inherit``. Without it, ``PYTHONDONTWRITEBYTECODE`` would make every run
    recompile the editable package's sources."""
    env = dict(os.environ)
    if not inherit:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    return env


def run_job(
    job: Job,
    command: list[str],
    base_env: dict[str, str],
    repeat: int,
    workdir: Path,
    rss_method: str,
    spawner: Spawner | None,
    warmup: bool,
) -> JobResult:
    """Warm up, then time ``repeat`` runs; check every run's report."""
    cmd = [*command, *job.args]
    env = {**base_env, **job.env}
    result = JobResult(job.name, job.description, cmd, job.goal.describe(), job.goal.upstream)
    for n in range(repeat + (1 if warmup else 0)):
        if job.output is not None:
            job.output.unlink(missing_ok=True)
        if job.fresh_dir is not None:
            shutil.rmtree(job.fresh_dir, ignore_errors=True)
        measurement, output = run_once(cmd, env, workdir, rss_method, spawner)
        result.problems.extend(f"run {n}: {p}" for p in checked(job, output))
        if warmup and n == 0:
            continue
        result.runs.append(measurement)
        print(
            f"  {job.name}: run {len(result.runs)}/{repeat}: {measurement.wall_s:.3f} s wall"
            + (f", {measurement.cpu_s:.3f} s CPU" if measurement.cpu_s is not None else "")
            + (f", {measurement.rss_kib / 1024:.1f} MiB" if measurement.rss_kib else ""),
            file=sys.stderr,
            flush=True,
        )
    walls = [m.wall_s for m in result.runs]
    result.median_wall_s = statistics.median(walls)
    result.min_wall_s = min(walls)
    cpus = [m.cpu_s for m in result.runs if m.cpu_s is not None]
    result.median_cpu_s = statistics.median(cpus) if cpus else None
    rss_values = [m.rss_kib for m in result.runs if m.rss_kib is not None]
    if rss_values:
        result.peak_rss_mib = max(rss_values) / 1024
        result.rss_exact = all(
            m.rss_kib is not None and m.rss_kib > m.rss_floor_kib for m in result.runs
        )
    result.met = job.goal.met(result.median_wall_s, result.peak_rss_mib)
    return result


# --------------------------------------------------------------------------- checks


def systems(report: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    if report is None:
        raise ValueError("no JSON report written")
    return {s["name"]: s for s in report["systems"]}


def common_problems(system: dict[str, Any], synsets: int) -> list[str]:
    """What holds for every run here: explicit lines, known ids, TP + FN = all synsets."""
    name = system["name"]
    problems = []
    if system["implicit_removed"]:
        problems.append(f"{name}: {system['implicit_removed']} implicit extraction(s) removed")
    if system["unknown_sentence_ids"]:
        problems.append(f"{name}: {system['unknown_sentence_ids']} unknown sentence id(s)")
    if system["tp"] + system["fn"] != synsets:
        problems.append(f"{name}: TP + FN = {system['tp'] + system['fn']}, not {synsets}")
    return problems


def published_counts(synsets: int) -> dict[str, tuple[int, int]]:
    """(TP, FP) of each English example under the default facet, from P and R published."""
    counts = {}
    for name, (precision, recall, _) in PUBLISHED.items():
        tp = round(recall * synsets)
        counts[name] = (tp, round(tp / precision) - tp)
    return counts


def check_default(synsets: int) -> Check:
    def check(output: RunOutput) -> list[str]:
        got = systems(output.report)
        problems = []
        if list(got) != list(ENGLISH_SYSTEMS):
            problems.append(f"systems {list(got)}, expected {list(ENGLISH_SYSTEMS)}")
        for name, expected in PUBLISHED.items():
            s = got.get(name)
            if s is None:
                continue
            actual = (s["precision"], s["recall"], s["f1"])
            if actual != expected:
                problems.append(f"{name}: P/R/F1 {actual}, published {expected}")
            problems += common_problems(s, synsets)
        return problems

    return check


def check_concat(synsets: int, extractions: dict[str, int]) -> Check:
    """Concat reads the slots as one sequence: every slot-by-slot match is also a concat
    match, so no system can have more false positives than under the default facet."""
    default_fp = {name: fp for name, (_, fp) in published_counts(synsets).items()}

    def check(output: RunOutput) -> list[str]:
        got = systems(output.report)
        problems = []
        if list(got) != list(ENGLISH_SYSTEMS):
            problems.append(f"systems {list(got)}, expected {list(ENGLISH_SYSTEMS)}")
        for name, s in got.items():
            problems += common_problems(s, synsets)
            if s["extractions"] != extractions.get(name):
                problems.append(
                    f"{name}: {s['extractions']} extractions, file has {extractions.get(name)}"
                )
            if s["fp"] > default_fp.get(name, -1):
                problems.append(f"{name}: concat FP {s['fp']} > default FP {default_fp[name]}")
        return problems

    return check


def check_stream_realistic(synsets: int, lines: int, expected: dict[str, int]) -> Check:
    def check(output: RunOutput) -> list[str]:
        s = next(iter(systems(output.report).values()))
        problems = common_problems(s, synsets)
        for key, value in expected.items():
            if s[key] != value:
                problems.append(f"{key} = {s[key]}, expected {value}")
        if s["lines"] != lines:
            problems.append(f"lines = {s['lines']}, expected {lines}")
        return problems

    return check


def check_stream_distinct(synsets: int, lines: int) -> Check:
    def check(output: RunOutput) -> list[str]:
        s = next(iter(systems(output.report).values()))
        problems = common_problems(s, synsets)
        if s["lines"] != lines or s["extractions"] != lines:
            problems.append(
                f"{s['lines']} lines, {s['extractions']} extractions; expected {lines} of each"
            )
        if s["tp"] + s["fp"] > lines:
            problems.append(f"TP + FP = {s['tp'] + s['fp']} > {lines} extractions")
        return problems

    return check


def check_exact(expected: dict[str, int]) -> Check:
    def check(output: RunOutput) -> list[str]:
        s = next(iter(systems(output.report).values()))
        return [
            f"{key} = {s[key]}, expected {value}"
            for key, value in expected.items()
            if s[key] != value
        ]

    return check


def check_analyze(output: RunOutput) -> list[str]:
    """All eight systems profiled, their default scores the published ones, every interval
    around its estimate."""
    got = systems(output.report)
    problems = []
    if sorted(got) != sorted(ENGLISH_SYSTEMS):
        problems.append(f"systems {sorted(got)}")
    for name, expected in PUBLISHED.items():
        s = got.get(name, {}).get("default", {})
        if (s.get("precision"), s.get("recall"), s.get("f1")) != expected:
            problems.append(f"{name}: default scores differ from the published ones")
        for key in ("precision", "recall", "f1"):
            low, high = s.get("ci95", {}).get(key, (1.0, 0.0))
            if not low <= s.get(key, -1.0) <= high:
                problems.append(f"{name}: {key} outside its interval")
    return problems


def check_version(output: RunOutput) -> list[str]:
    return [] if output.stdout.startswith("benchie ") else [f"stdout {output.stdout!r}"]


# --------------------------------------------------------------------------- inputs


def example_lines() -> list[str]:
    """Every line of the eight English example files, in file order."""
    lines: list[str] = []
    for name in ENGLISH_SYSTEMS:
        text = (EXAMPLES / f"{name}.tsv").read_text(encoding="utf-8")
        lines += [line for line in text.splitlines() if line.strip()]
    return lines


def write_cycled(path: Path, lines: int) -> None:
    """``lines`` lines cycled from the eight English examples (streamed, little memory)."""
    cycled = itertools.islice(itertools.cycle(example_lines()), lines)
    with path.open("w", encoding="utf-8", newline="\n") as fh:
        while chunk := list(itertools.islice(cycled, 10_000)):
            fh.write("\n".join(chunk) + "\n")


def gold_sentences(gold_file: Path) -> list[tuple[str, list[str]]]:
    """(sentence id, whitespace tokens) of every ``sent_id:`` line of a gold file."""
    out = []
    with gold_file.open(encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("sent_id:"):
                sent_id, _, text = line[len("sent_id:") :].rstrip("\n").partition("\t")
                out.append((sent_id.strip(), text.split()))
    return out


def write_distinct(path: Path, gold_file: Path, lines: int, seed: int) -> None:
    """``lines`` DISTINCT extractions over the gold's sentences, round robin: each slot is a
    random span of the sentence's own tokens, so every line is explicit (nothing is removed
    as implicit) but almost never a gold fact."""
    sentences = gold_sentences(gold_file)
    rng = random.Random(seed)
    seen: set[int] = set()
    buffer: list[str] = []

    def span(tokens: list[str], longest: int) -> str:
        width = rng.randint(1, min(longest, len(tokens)))
        start = rng.randint(0, len(tokens) - width)
        return " ".join(tokens[start : start + width])

    with path.open("w", encoding="utf-8", newline="\n") as fh:
        for k in itertools.count():
            if len(seen) >= lines:
                break
            sent_id, tokens = sentences[k % len(sentences)]
            line = f"{sent_id}\t{span(tokens, 4)}\t{span(tokens, 3)}\t{span(tokens, 8)}"
            key = hash(line)
            if key in seen:
                continue
            seen.add(key)
            buffer.append(line)
            if len(buffer) == 10_000:
                fh.write("\n".join(buffer) + "\n")
                buffer.clear()
        if buffer:
            fh.write("\n".join(buffer) + "\n")


def write_optional_gold(directory: Path) -> tuple[Path, Path, dict[str, int], dict[str, int]]:
    """A one-sentence gold whose object slot has 40 optional units, and a submission.

    Returns (gold, submission, expected counts under default, expected under concat).
    """
    units = [f"t{i}" for i in range(1, OPTIONAL_UNITS + 1)]
    gold = directory / "optional40_gold.txt"
    gold.write_text(
        f"sent_id:1\tAlice gave {' '.join(units)} gift .\n"
        "1--> Cluster 1:\n"
        f"Alice --> gave --> {' '.join(f'[{u}]' for u in units)} gift\n",
        encoding="utf-8",
    )
    matching = [
        "gift",
        "t1 gift",
        f"{' '.join(units)} gift",
        f"{' '.join(units[1::2])} gift",
        "t40 gift",
    ]
    wrong = [
        "t2 t1 gift",  # order
        "t1 t2 t3",  # mandatory token missing
        "gift t1",  # optional unit after the mandatory one
        "t1 t1 gift",  # a unit twice
        " ".join(units),  # every optional unit, no mandatory
    ]
    lines = [f"1\tAlice\tgave\t{obj}" for obj in matching + wrong]
    lines.append("1\tgift\tgave\tAlice")  # slots swapped
    lines.append("1\tAlice\tgave t1\tgift")  # slot boundary moved: a match only under concat
    submission = directory / "optional40.tsv"
    submission.write_text("\n".join(lines) + "\n", encoding="utf-8")
    total = len(lines)
    default = {"extractions": total, "tp": 1, "fn": 0, "fp": total - len(matching)}
    concat = {"extractions": total, "tp": 1, "fn": 0, "fp": total - len(matching) - 1}
    return gold, submission, default, concat


# --------------------------------------------------------------------------- jobs


#: benchie keeps its compiled gold index in this directory (an optimisation, keyed by the
#: gold's sha256, the facet and the code); jobs point it into the temporary directory.
ENV_CACHE_DIR = "BENCHIE_CACHE_DIR"


def benchie_command(override: str | None) -> list[str]:
    """The command under test: ``--command``, the checkout's venv, PATH, or ``-m``."""
    if override:
        return shlex.split(override)
    venv = REPO / ".venv" / ("Scripts/benchie.exe" if os.name == "nt" else "bin/benchie")
    if venv.is_file():
        return [str(venv)]
    found = shutil.which("benchie")
    return [found] if found else [sys.executable, "-m", "benchie_cli"]


@dataclass(frozen=True)
class GoldInfo:
    """The English default-facet gold as the command under test resolves it."""

    store: Path
    version: str
    path: Path
    synsets: int


def resolve_gold(command: list[str]) -> GoldInfo:
    """Ask the command itself (``gold path``, ``gold info``): the normal resolution."""
    where = subprocess.run(
        [*command, "gold", "path"], capture_output=True, text=True, check=True
    ).stdout.strip()
    info = json.loads(
        subprocess.run(
            [*command, "gold", "info", "--format", "json"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    for entry in info["files"]:
        if entry["language"] == "en" and entry["facet"] == "default" and entry["kind"] == "gold":
            return GoldInfo(
                Path(where),
                info["version"],
                Path(where) / info["version"] / entry["path"],
                int(entry["synsets"]),
            )
    raise SystemExit("bench_score: the gold store has no English default-facet file")


@dataclass
class Context:
    """What every job builder may use: the command, the gold, a scratch directory."""

    command: list[str]
    gold: GoldInfo
    tmp: Path
    lines: int
    examples: list[str]
    extractions: dict[str, int]

    def out(self, name: str) -> Path:
        return self.tmp / f"{name}.json"


def job_startup(ctx: Context, name: str) -> Job:
    return Job(
        name,
        "`benchie --version`: interpreter start-up + CLI imports (the floor under every other job)",
        ["--version"],
        Goal(),
        None,
        check_version,
    )


def _cache(name: str) -> str:
    return "empty index cache" if name.endswith("_cold") else "warm index cache"


def job_default_8sys(ctx: Context, name: str) -> Job:
    out = ctx.out(name)
    return Job(
        name,
        f"default facet, 8 English systems, one process, gold load included ({_cache(name)})",
        ["score", "--lang", "en", *ctx.examples, "--format", "json", "-o", str(out)],
        Goal(0.11, 33.9, "2.2 s, 113 MiB"),  # 20x upstream, 0.3x its memory
        out,
        check_default(ctx.gold.synsets),
    )


def job_concat_8sys(ctx: Context, name: str) -> Job:
    out = ctx.out(name)
    args = ["score", "--lang", "en", "--facet", "concat", *ctx.examples]
    return Job(
        name,
        f"concat facet (BenchIE-C), same 8 systems ({_cache(name)})",
        [*args, "--format", "json", "-o", str(out)],
        Goal(0.13, None, "~8 s"),  # 60x upstream
        out,
        check_concat(ctx.gold.synsets, ctx.extractions),
    )


def job_analyze_8sys(ctx: Context, name: str) -> Job:
    out = ctx.out(name)
    args = ["analyze", "--gold-version", "1.0.0", "--lang", "en", *ctx.examples]
    return Job(
        name,
        "`benchie analyze` of the 8 English systems: every facet, error buckets, "
        "length buckets, 1,000 bootstrap resamples, 28 paired tests (warm index cache)",
        [*args, "--resamples", "1000", "--format", "json", "-o", str(out)],
        Goal(3.0, None, ""),
        out,
        check_analyze,
    )


def job_stream_realistic(ctx: Context, name: str) -> Job:
    return stream_realistic_job(
        ctx.command, ctx.tmp, ctx.lines, ctx.gold, ctx.out(name), {ENV_CACHE_DIR: warm_dir(ctx)}
    )


def job_stream_distinct(ctx: Context, name: str) -> Job:
    out, path = ctx.out(name), ctx.tmp / "distinct.tsv"
    write_distinct(path, ctx.gold.path, ctx.lines, ADVERSARIAL_SEED)
    return Job(
        name,
        f"{ctx.lines:,} DISTINCT explicit lines (random spans of each sentence's "
        "tokens), default facet",
        ["score", "--lang", "en", f"distinct={path}", "--format", "json", "-o", str(out)],
        Goal(5.0, 150),
        out,
        check_stream_distinct(ctx.gold.synsets, ctx.lines),
    )


def job_optional40(ctx: Context, name: str) -> Job:
    out = ctx.out(name)
    gold_file, submission, default, concat = write_optional_gold(ctx.tmp)
    facet = name.rpartition("_")[2]
    args = ["score", "--gold-file", str(gold_file), "--facet", facet, str(submission)]
    return Job(
        name,
        f"--gold-file with one slot of {OPTIONAL_UNITS} optional units ({facet} facet)",
        [*args, "--format", "json", "-o", str(out)],
        Goal(1.0),
        out,
        check_exact(default if facet == "default" else concat),
    )


#: Every job by name, in the order they run: a new job is one entry here. A name ending in
#: ``_cold`` runs with its index cache emptied before every run.
JOBS: dict[str, Callable[[Context, str], Job]] = {
    "startup": job_startup,
    "default_8sys_cold": job_default_8sys,
    "default_8sys": job_default_8sys,
    "concat_8sys_cold": job_concat_8sys,
    "concat_8sys": job_concat_8sys,
    "stream_realistic": job_stream_realistic,
    "stream_distinct": job_stream_distinct,
    "optional40_default": job_optional40,
    "optional40_concat": job_optional40,
    "analyze_8sys": job_analyze_8sys,
}
JOB_NAMES = tuple(JOBS)


def warm_dir(ctx: Context) -> str:
    return str(ctx.tmp / "cache")


def build_jobs(
    names: Sequence[str], command: list[str], gold: GoldInfo, tmp: Path, lines: int
) -> list[Job]:
    """The selected jobs, generating only the inputs they need.

    Every job uses a private index cache in ``tmp``: warm after the warm-up run, except for
    the ``*_cold`` jobs, whose cache directory is emptied before every run.
    """
    ctx = Context(
        command,
        gold,
        tmp,
        lines,
        [str(EXAMPLES / f"{name}.tsv") for name in ENGLISH_SYSTEMS],
        {
            name: sum(
                1
                for line in (EXAMPLES / f"{name}.tsv").read_text(encoding="utf-8").splitlines()
                if line.strip()
            )
            for name in ENGLISH_SYSTEMS
        },
    )
    jobs = []
    for name in names:
        job = JOBS[name](ctx, name)
        if name.endswith("_cold"):
            cold_dir = tmp / "cache-cold"
            job.env, job.fresh_dir = {ENV_CACHE_DIR: str(cold_dir)}, cold_dir
        else:
            job.env = {ENV_CACHE_DIR: warm_dir(ctx)}
        jobs.append(job)
    return jobs


def stream_realistic_job(
    command: list[str], tmp: Path, lines: int, gold: GoldInfo, out: Path, env: dict[str, str]
) -> Job:
    """The cycled file, and its exact expected counts from one untimed reference run:
    FP adds up line by line, and TP is that of one full cycle (the tail is a prefix)."""
    path = tmp / "cycled.tsv"
    write_cycled(path, lines)
    source = example_lines()
    cycles, rest = divmod(lines, len(source))
    cycle_file, rest_file = tmp / "cycle.tsv", tmp / "rest.tsv"
    cycle_file.write_text("\n".join(source) + "\n", encoding="utf-8")
    rest_file.write_text("".join(line + "\n" for line in source[:rest]), encoding="utf-8")
    ref = tmp / "reference.json"
    inputs = [str(cycle_file)] + ([str(rest_file)] if rest else [])
    subprocess.run(
        [*command, "score", "--lang", "en", *inputs, "--format", "json", "-o", str(ref)],
        check=True,
        capture_output=True,
        env={**os.environ, **env},
    )
    got = systems(read_report(ref))
    cycle = got["cycle"]
    fp_rest = got["rest"]["fp"] if rest else 0
    summed = sum(fp for _, fp in published_counts(gold.synsets).values())
    if cycle["fp"] != summed:
        raise SystemExit(
            f"bench_score: one cycle has FP {cycle['fp']}, but the published numbers give {summed}"
        )
    # Fewer lines than one cycle (`--lines` small): the file is the tail alone.
    covered = cycle if cycles else got["rest"]
    expected = {
        "extractions": lines,
        "tp": covered["tp"],
        "fn": covered["fn"],
        "fp": cycles * cycle["fp"] + fp_rest,
    }
    return Job(
        "stream_realistic",
        f"{lines:,} lines cycled from the 8 English examples, default facet",
        ["score", "--lang", "en", f"cycled={path}", "--format", "json", "-o", str(out)],
        Goal(5.0, 150),
        out,
        check_stream_realistic(gold.synsets, lines, expected),
    )


# --------------------------------------------------------------------------- output


NUMERIC = (1, 2, 3, 6)  # right-aligned columns of the table


def markdown_table(results: list[JobResult]) -> str:
    rows = [
        [
            "job",
            "median wall s",
            "min wall s",
            "peak RSS MiB",
            "goal",
            "met",
            "median CPU s",
            "check",
        ]
    ]
    for r in results:
        rss = (
            "-"
            if r.peak_rss_mib is None
            else f"{r.peak_rss_mib:.1f}" + ("" if r.rss_exact else "*")
        )
        met = {True: "yes", False: "no", None: "-"}[r.met]
        cpu = "-" if r.median_cpu_s is None else f"{r.median_cpu_s:.3f}"
        rows.append(
            [
                r.name,
                f"{r.median_wall_s:.3f}",
                f"{r.min_wall_s:.3f}",
                rss,
                r.goal,
                met,
                cpu,
                "ok" if not r.problems else "FAILED",
            ]
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [
        "| " + " | ".join(c.ljust(w) for c, w in zip(rows[0], widths, strict=True)) + " |",
        "|"
        + "|".join(
            ("-" * (w + 1) + ":") if i in NUMERIC else "-" * (w + 2) for i, w in enumerate(widths)
        )
        + "|",
    ]
    for row in rows[1:]:
        cells = [
            c.rjust(w) if i in NUMERIC else c.ljust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def revision() -> str | None:
    """The checkout's commit, ``+dirty`` when the package's sources differ from it."""
    try:
        head = subprocess.run(
            ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            [
                "git",
                "-C",
                str(REPO),
                "status",
                "--porcelain",
                "--",
                "benchie_cli",
                "pyproject.toml",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return head + ("+dirty" if dirty else "")


def environment(command: list[str], repeat: int, rss_method: str) -> dict[str, Any]:
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return {
        "command": command,
        "revision": revision(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "loadavg_before": load,
        "repeat": repeat,
        "rss_method": rss_method,
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Time `benchie score` (wall and peak RSS of real processes) against the "
        "issue's goals; prints a markdown table."
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=5,
        metavar="N",
        help="timed runs per job, after one untimed warm-up (default: 5)",
    )
    parser.add_argument(
        "--only",
        action="append",
        choices=JOB_NAMES,
        metavar="JOB",
        help=f"run only this job (repeatable): {', '.join(JOB_NAMES)}",
    )
    parser.add_argument(
        "--json",
        type=Path,
        default=None,
        metavar="FILE",
        help="also write every measurement here as JSON",
    )
    parser.add_argument(
        "--lines",
        type=int,
        default=DEFAULT_LINES,
        metavar="N",
        help=f"lines of the streaming submissions (default: {DEFAULT_LINES:,})",
    )
    parser.add_argument(
        "--command",
        default=None,
        metavar="CMD",
        help="the benchie command to time, e.g. 'python -m benchie_cli' "
        "(default: the checkout's .venv/bin/benchie, else PATH)",
    )
    default_rss = (
        "wait4"
        if hasattr(os, "wait4") and hasattr(os, "posix_spawnp")
        else ("time" if Path("/usr/bin/time").is_file() else "none")
    )
    parser.add_argument(
        "--rss",
        choices=("wait4", "time", "none"),
        default=default_rss,
        help=f"how to read the child's peak RSS (default here: {default_rss})",
    )
    parser.add_argument("--no-warmup", action="store_true", help="time the first run too")
    parser.add_argument(
        "--inherit-env",
        action="store_true",
        help="run the children in this environment as it is (by default "
        "PYTHONDONTWRITEBYTECODE is dropped and .pyc files are cached in "
        "the temporary directory, as in a normal install)",
    )
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if args.lines < 1:
        parser.error("--lines must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    command = benchie_command(args.command)
    names = [n for n in JOB_NAMES if args.only is None or n in args.only]
    gold = resolve_gold(command)
    env = environment(command, args.repeat, args.rss)
    env["gold"] = {
        "store": str(gold.store),
        "version": gold.version,
        "file": str(gold.path),
        "synsets": gold.synsets,
    }
    results: list[JobResult] = []
    with tempfile.TemporaryDirectory(prefix="benchie-bench-") as tmp_name:
        tmp = Path(tmp_name)
        print(f"bench_score: building inputs in {tmp} ...", file=sys.stderr, flush=True)
        jobs = build_jobs(names, command, gold, tmp, args.lines)
        workdir = tmp / "run"
        workdir.mkdir()
        base_env = child_environment(tmp, args.inherit_env)
        env["bytecode"] = "inherited environment" if args.inherit_env else "cached in tmp"
        spawner = Spawner() if args.rss == "wait4" else None
        try:
            for job in jobs:
                results.append(
                    run_job(
                        job,
                        command,
                        base_env,
                        args.repeat,
                        workdir,
                        args.rss,
                        spawner,
                        not args.no_warmup,
                    )
                )
        finally:
            if spawner is not None:
                spawner.close()
    print(
        f"\nbenchie: `{shlex.join(command)}` at {env['revision'] or 'unknown revision'}; "
        f"Python {env['python']}; {env['cpus']} CPU(s); "
        f"{args.repeat} timed run(s) per job after "
        f"{'no warm-up' if args.no_warmup else 'one warm-up'}; RSS via {args.rss}; "
        f"gold {gold.version} from {gold.store}; .pyc {env['bytecode']}; load average before: "
        f"{' '.join(f'{x:.2f}' for x in env['loadavg_before'] or ())}.\n"
    )
    print(markdown_table(results))
    if any(not r.rss_exact for r in results):
        floor = max(m.rss_floor_kib for r in results for m in r.runs) / 1024
        print(
            f"\n\\* not above the spawner's own peak RSS ({floor:.1f} MiB), which a child "
            "inherits: an upper bound only (try --rss time)."
        )
    failed = [r for r in results if r.problems]
    for r in failed:
        print(f"\n{r.name}: CHECK FAILED", file=sys.stderr)
        for problem in r.problems[:10]:
            print(f"  {problem}", file=sys.stderr)
    if args.json is not None:
        doc = {"environment": env, "jobs": [asdict(r) for r in results]}
        args.json.write_text(json.dumps(doc, indent=2, default=str) + "\n", encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
