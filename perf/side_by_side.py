"""Speed as users see it: the ``benchie score --benchmark X ...`` command a user types, beside
the original scorer's own command, on the original's own whole system output files.

For every benchmark whose original is given (its checkout and the Python of its pinned
environment), and for every system output that original ships, two commands run as whole
processes, ``--repeat`` pairs interleaved (original, benchie, original, benchie, ...):

- the original scorer exactly as its README or shell scripts run it (``carb.py
  --openiefour=FILE``, ``benchmark.py --gold=... --clausie=FILE``, ``evaluate.py new FILE``,
  ``wire_scorer.py``, ...), unchanged, in its pinned environment;
- the installed console script, ``benchie score --benchmark X [--lang L] [--split S]
  [--metric M] [--input-format F] FILE``, as a user types it (table on stdout).

Both read the same bytes. Before timing, each command runs once untimed (the warm-up: page
cache, bytecode, benchie's index cache and memos) and benchie once more with ``--format json -o
REPORT --curves DIR`` (untimed), and the check compares the original's output with benchie's:
every number the original prints (rounded as it rounds), and the curve file it writes
(``--out``) byte for byte against the one ``--curves`` writes. A difference is reported and
makes the exit status 1.

``--floor`` also times benchie's command on 1% of the input (every hundredth line, or, where
the command refuses that sample, its first 1%): what a run costs
before the file's size counts (the interpreter, the imports, the gold's loading), beside a
tenth of the original's time, which a 10x row must reach.

Bytecode is cached as in a user's install: ``PYTHONDONTWRITEBYTECODE`` is removed from every
child's environment; benchie's ``.pyc`` files go to ``PYTHONPYCACHEPREFIX`` in the temporary
directory, the originals' next to their sources (a temporary copy where one is made). benchie
gets a private cache directory (``BENCHIE_CACHE_DIR``: the index cache and the memos),
filled by the warm-up, and a private ``BENCHIE_DATA_DIR``. Children are started by
``bench_carb.py``'s spawner, so that the peak RSS is each child's own.

What a user runs is a regular install (``pip install benchie-cli``), not a checkout's
editable one, whose import hook costs every process a few milliseconds: ``--regular-install``
builds one from the checkout into a venv in the temporary directory (``pip install``, which
fetches click, orjson and platformdirs from the package index) and times its console script.
The output's first line says which kind of install was timed.

Data without a licence (Re-OIE2016, WiRe57, LSOIE, moie's languages, DocOIE) is never
copied into this repository: it is read from the original's checkout and added with
``benchie benchmark add`` to a temporary gold store (a copy of the checkout's ``gold/``),
which every benchie command gets with ``--gold-dir``.

Benchmarks and what they need (each is skipped, with the reason, when its option is not
given; the pinned environments are in the docstrings of the ``bench_*.py`` scripts named)::

    carb           --carb CHECKOUT --carb-python PY           (bench_carb.py; Python 3.8)
    carb-ss        --openie6 CHECKOUT --openie6-python PY     (bench_carb.py; Python 3.6)
    oie2016        --oie-benchmark CHECKOUT --oie2016-python PY --nltk-data DIR
                                                              (bench_oie2016.py; Python 2.7)
    oie2016-2018   --supervised-oie CHECKOUT --soie-python PY (bench_oie2016_2018.py; 2.7)
    reoie2016      --span-oie CHECKOUT --reoie-python PY, and --carb/--carb-python
                                                              (bench_reoie2016.py; 3.7)
    wire57         --wire57 CHECKOUT [--wire57-python PY]     (bench_wire57.py; any 3)
    lsoie          --large-scale-oie CHECKOUT --lsoie-python PY --nltk-data DIR
                                                              (bench_lsoie.py; 2.7)
    moie           --moie CHECKOUT --moie-python PY           (bench_moie.py; 3.6)
    docoie         --docoie CHECKOUT --docoie-python PY --docoie-system FILE...
    multi2oie      --multi2oie CHECKOUT --multi2oie-python PY --multi2oie-system L:S:FILE...

Span_OIE ships no system output: Re-OIE2016's input is CaRB's OpenIE 4 output read by
CaRB's own ``OpenieFourReader`` and written in Span_OIE's system format (untimed, once), as
the suite reads it (docs/suite.md). DocOIE and Multi2OIE ship no system output either:
their rows need files given on the command line.

Example::

    python perf/side_by_side.py --carb ~/src/CaRB --carb-python ~/venvs/carb/bin/python \\
        --wire57 ~/src/WiRe57 --repeat 5 --json side_by_side.json
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_carb import Run, Spawner

REPO = Path(__file__).resolve().parent.parent

#: The goal of the performance issue: benchie's command at least this many times faster.
GOAL = 10.0

#: CaRB prints ``AUC: 0.272  Optimal (precision, recall, F1): [0.553 0.437 0.488]``.
_CARB = re.compile(
    r"AUC: (\S+)\s+Optimal \(precision, recall, F1\): \[\s*(\S+)\s+(\S+)\s+(\S+)\s*\]"
)
#: OpenIE6 and moie print ``AUC: 0.1967  Optimal (precision, recall, F1): (0.5511, ...)``.
_OPENIE6 = re.compile(r"AUC: (\S+)\s+Optimal \(precision, recall, F1\): \(([^)]*)\)")

#: Run with CaRB's Python in CaRB's checkout (argv: system output, file to write): CaRB's
#: own OpenIE 4 reader's tuples, in Span_OIE's system format (sentence, confidence as repr,
#: predicate, arguments), as the suite reads an OpenIE 4 file for Re-OIE2016.
TO_SPAN_OIE = """\
import sys
from oie_readers.openieFourReader import OpenieFourReader
reader = OpenieFourReader()
reader.read(sys.argv[1])
with open(sys.argv[2], "w", encoding="utf-8") as out:
    for text, extractions in reader.oie.items():
        for e in extractions:
            out.write("\\t".join([text, repr(e.confidence), e.pred] + list(e.args)) + "\\n")
"""


class Pair(NamedTuple):
    """One input scored by the original's command and by benchie's."""

    benchmark: str  # the group in the table
    name: str  # the row: system (and language, split, metric)
    system: Path  # the input file the row names
    original: list[str]
    original_env: dict[str, str]
    ours: list[str]  # the command a user types (without --gold-dir's value hidden)
    curve: Path | None  # the curve the original writes, compared with benchie's --curves
    check: Callable[[str, dict], list[str]]  # (original's stdout, benchie's system) -> problems


class Context(NamedTuple):
    args: argparse.Namespace
    tmp: Path
    store: Path
    benchie: str
    base: dict[str, str]
    stand_in: Path  # NLTK_DATA with a three-word English stop word list


def np_round(value: float, decimals: int) -> float:
    """``numpy.round(value, decimals)`` of a float64: ``rint(value * 10**d) / 10**d``."""
    scale = 10.0**decimals
    return round(value * scale) / scale


def lines_of(path: Path) -> int:
    with path.open("rb") as fh:
        return sum(1 for _ in fh)


def sh_in(directory: Path, argv: list[str]) -> list[str]:
    """``argv`` run from ``directory`` (the originals import their modules from there)."""
    return ["/bin/sh", "-c", 'cd "$0" && exec "$@"', str(directory), *argv]


def check_carb(decimals: int) -> Callable[[str, dict], list[str]]:
    """CaRB's (3 decimals, ``[...]``) or OpenIE6's and moie's (4, ``(...)``) printed line."""

    def check(printed: str, system: dict) -> list[str]:
        (numbers,) = (system[k] for k in ("carb", "carb-ss") if k in system)
        ours = [numbers[k] for k in ("auc", "precision", "recall", "f1")]
        expected = [np_round(v, decimals) for v in ours]
        if decimals == 3:
            m = _CARB.search(printed)
            shown = None if m is None else list(m.groups())
        else:
            m = _OPENIE6.search(printed)
            shown = None if m is None else [m.group(1), *m.group(2).split(",")]
        if numbers.get("points") == 1 and shown is not None and shown[0] == "0":
            shown[0] = str(expected[0])  # moie's AUC of a one-point curve is the integer 0
        try:
            same = shown is not None and [float(v) for v in shown] == expected
        except ValueError:
            same = False
        return [] if same else [f"prints {printed.strip()[-300:]!r}; benchie rounds to {expected}"]

    return check


def check_nothing_printed(printed: str, system: dict) -> list[str]:
    """The original prints no number (OIE2016, LSOIE): its curve is the check."""
    return []


def check_reoie(printed: str, system: dict) -> list[str]:
    """Span_OIE's two lines, every digit (``repr``), from benchie's unrounded values."""
    n = system["reoie2016"]
    optimal = ", ".join(repr(n[k]) for k in ("precision", "recall", "f1", "threshold"))
    expected = f"AUC: {n['auc']!r}\n Optimal (precision, recall, F1, threshold): ({optimal})"
    return [] if expected in printed else [f"prints {printed.strip()!r}; benchie {expected!r}"]


def check_oie2016_2018(printed: str, system: dict) -> list[str]:
    """supervised-oie's logged ``AUC:`` line (its stdout or stderr), every digit."""
    return []  # the curve, byte for byte, is the check; the log goes to stderr


# --- the benchmarks ------------------------------------------------------------------------


def carb_pairs(ctx: Context, single: bool) -> list[Pair] | str:
    a = ctx.args
    checkout, python = (a.openie6, a.openie6_python) if single else (a.carb, a.carb_python)
    option = "--openie6" if single else "--carb"
    if checkout is None or python is None:
        return f"give {option} and {option}-python"
    scorer = checkout / "carb" / "carb.py" if single else checkout / "carb.py"
    if not scorer.is_file():
        return f"{scorer} is missing"
    outputs = (a.carb or checkout) / "system_outputs" / "test"
    if not outputs.is_dir():
        return f"{outputs} is missing (CaRB's shipped outputs: give --carb)"
    gold = ctx.store / "carb" / "1.0.0" / "test" / "carb_test.tsv"
    pairs = []
    # (file, CaRB's option, benchie's --input-format); ReVerb's reader cannot run unchanged
    # (docs/carb.md), OLLIE's and Stanford's files are not in every copy (Git LFS)
    for stem, flag, fmt in (
        ("openie4", "--openiefour", "openie4"),
        ("openie5", "--openiefive", "openie5"),
        ("clausie", "--clausie", "clausie"),
        ("props", "--props", "props"),
    ):
        system = outputs / f"{stem}_output.txt"
        if not system.is_file():
            continue
        metric = "carb-ss" if single else "carb"
        curve = ctx.tmp / "curves" / f"{metric}-{stem}.original.dat"
        original = [python, str(scorer), f"--gold={gold}", f"--out={curve}", f"{flag}={system}"]
        if single:
            original.append("--single_match")
        ours = [ctx.benchie, "score", "--benchmark", "carb", "--split", "test"]
        ours += ["--metric", metric] if single else []
        ours += ["--input-format", fmt, str(system)]
        env = ctx.base | {"NLTK_DATA": str(ctx.stand_in), "PYTHONWARNINGS": "ignore"}
        name = "CaRB (s,s)" if single else "CaRB (s,m)"
        pairs.append(
            Pair(name, stem, system, original, env, ours, curve, check_carb(4 if single else 3))
        )
    return pairs


def oie2016_pairs(ctx: Context) -> list[Pair] | str:
    a = ctx.args
    if a.oie_benchmark is None or a.oie2016_python is None or a.nltk_data is None:
        return "give --oie-benchmark, --oie2016-python and --nltk-data (WordNet, stopwords)"
    tree = a.oie_benchmark.resolve()
    if not (tree / "benchmark.py").is_file():
        return f"{tree}/benchmark.py is missing"
    corpus = ctx.store / "oie2016" / "2.0.0"
    gold = ctx.tmp / "all.oie"  # eval.sh's oie_corpus/all.oie: dev, train, test
    gold.write_bytes(
        b"".join((corpus / s / f"{s}.oie").read_bytes() for s in ("dev", "train", "test"))
    )
    pairs = []
    for stem, flag, fmt in (
        ("clausie", "--clausie", "clausie"),
        ("openie4", "--openiefour", "openie4"),
        ("props", "--props", "props"),
        ("reverb", "--reverb", "reverb"),
    ):
        system = tree / "systems_output" / f"{stem}_output.txt"
        if not system.is_file():
            continue
        curve = ctx.tmp / "curves" / f"oie2016-{stem}.original.dat"
        original = sh_in(
            tree,
            [
                a.oie2016_python,
                "benchmark.py",
                f"--gold={gold}",
                f"--out={curve}",
                f"{flag}={system}",
            ],
        )
        ours = [ctx.benchie, "score", "--benchmark", "oie2016", "--input-format", fmt, str(system)]
        env = ctx.base | {"NLTK_DATA": str(a.nltk_data)}
        pairs.append(
            Pair("OIE2016", stem, system, original, env, ours, curve, check_nothing_printed)
        )
    return pairs


def oie2016_2018_pairs(ctx: Context) -> list[Pair] | str:
    a = ctx.args
    if a.supervised_oie is None or a.soie_python is None:
        return "give --supervised-oie and --soie-python"
    tree = a.supervised_oie.resolve() / "supervised-oie-benchmark"
    if not (tree / "benchmark.py").is_file():
        return f"{tree}/benchmark.py is missing"
    gold = ctx.store / "oie2016-2018" / "1.0.0" / "test" / "test.oie.orig"
    # the outputs of its figure `joint` (generate_figures.sh), as the repository's tests keep them
    import gzip

    pairs = []
    for stem in ("clausie_test", "openie4_test", "props_test", "joint", "clean_3"):
        packed = REPO / "tests" / "data" / "oie2016-2018" / f"{stem}.txt.gz"
        system = ctx.tmp / "inputs" / f"{stem}.txt"
        system.write_bytes(gzip.decompress(packed.read_bytes()))
        curve = ctx.tmp / "curves" / f"oie2016-2018-{stem}.original.dat"
        original = sh_in(
            tree,
            [
                a.soie_python,
                "benchmark.py",
                f"--gold={gold}",
                f"--out={curve}",
                f"--tabbed={system}",
            ],
        )
        ours = [ctx.benchie, "score", "--benchmark", "oie2016-2018", str(system)]
        env = ctx.base | {"NLTK_DATA": str(ctx.stand_in)}
        pairs.append(
            Pair("OIE2016 (2018)", stem, system, original, env, ours, curve, check_nothing_printed)
        )
    return pairs


def reoie2016_pairs(ctx: Context) -> list[Pair] | str:
    a = ctx.args
    if a.span_oie is None or a.reoie_python is None:
        return "give --span-oie and --reoie-python"
    if a.carb is None or a.carb_python is None:
        return "Span_OIE ships no system output: give --carb and --carb-python to convert CaRB's"
    evaluate = a.span_oie.resolve() / "evaluate"
    if not (evaluate / "evaluate.py").is_file():
        return f"{evaluate}/evaluate.py is missing"
    add(ctx, "reoie2016", [evaluate / "Re-OIE2016.json"])
    work = ctx.tmp / "span_oie"  # it reads its gold from, and writes error.txt to, its cwd
    shutil.copytree(evaluate, work)
    pairs = []
    for stem in ("openie4",):
        source = a.carb.resolve() / "system_outputs" / "test" / f"{stem}_output.txt"
        system = ctx.tmp / "inputs" / f"{stem}_span_oie.txt"
        subprocess.run(
            [a.carb_python, "-c", TO_SPAN_OIE, str(source), str(system)],
            cwd=a.carb.resolve(),
            check=True,
            env=ctx.base | {"NLTK_DATA": str(ctx.stand_in)},
        )
        curve = ctx.tmp / "curves" / f"reoie2016-{stem}.original.dat"
        original = sh_in(work, [a.reoie_python, "evaluate.py", "new", str(system), str(curve)])
        ours = [
            ctx.benchie,
            "score",
            "--benchmark",
            "reoie2016",
            "--gold-dir",
            str(ctx.store),
            str(system),
        ]
        env = ctx.base | {"NLTK_DATA": str(ctx.stand_in), "PYTHONWARNINGS": "ignore"}
        pairs.append(
            Pair(
                "Re-OIE2016",
                f"{stem} (Span_OIE's format)",
                system,
                original,
                env,
                ours,
                curve,
                check_reoie,
            )
        )
    return pairs


def wire57_pairs(ctx: Context) -> list[Pair] | str:
    from bench_wire57 import EXPORT, ORIGINAL_EXACT, REFERENCE

    a = ctx.args
    if a.wire57 is None:
        return "give --wire57"
    root = a.wire57.resolve()
    scorer = root / "code" / "wire_scorer.py"
    if not scorer.is_file():
        return f"{scorer} is missing"
    python = a.wire57_python or sys.executable
    add(ctx, "wire57", [root / "data" / REFERENCE])
    work = ctx.tmp / "wire57"  # it reads both files by name from its cwd, writes raw_scores/
    (work / "raw_scores").mkdir(parents=True)
    for name in (REFERENCE, EXPORT):
        shutil.copyfile(root / "data" / name, work / name)
    system = work / EXPORT
    exact = json.loads(
        subprocess.run(
            [python, "-c", ORIGINAL_EXACT, str(root / "code"), str(work / REFERENCE), str(system)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )

    def check(printed: str, report: dict) -> list[str]:
        mine = {s["name"].rsplit("/", 1)[1]: s["wire57"] for s in report["systems"]}
        return [] if mine == exact else [f"unrounded values differ: {exact} vs {mine}"]

    original = sh_in(work, [python, str(scorer)])
    ours = [
        ctx.benchie,
        "score",
        "--benchmark",
        "wire57",
        "--gold-dir",
        str(ctx.store),
        str(system),
    ]
    return [Pair("WiRe57", "its export (7 systems)", system, original, ctx.base, ours, None, check)]


def lsoie_pairs(ctx: Context) -> list[Pair] | str:
    from bench_lsoie import GOLD, JOBS, prepare

    a = ctx.args
    if a.large_scale_oie is None or a.lsoie_python is None or a.nltk_data is None:
        return "give --large-scale-oie, --lsoie-python and --nltk-data (stopwords)"
    evaluation = a.large_scale_oie.resolve() / "oie-evaluation"
    if not (evaluation / "benchmark.py").is_file():
        return f"{evaluation}/benchmark.py is missing"
    add(ctx, "lsoie", [evaluation / "oie_corpus" / g for g in GOLD.values()])
    script = prepare(evaluation, ctx.tmp / "lsoie")  # repaired as docs/lsoie.md says
    env = ctx.base | {"NLTK_DATA": str(a.nltk_data), "PYTHONHASHSEED": "0"}
    pairs = []
    for job in JOBS:
        system = evaluation / "systems_output" / job.system
        gold = evaluation / "oie_corpus" / GOLD[job.split]
        curve = ctx.tmp / "curves" / f"lsoie-{job.curve}.original.dat"
        original = sh_in(
            script.parent,
            [
                a.lsoie_python,
                "benchmark.py",
                f"--gold={gold}",
                f"--out={curve}",
                f"--tabbed={system}",
            ],
        )
        ours = [ctx.benchie, "score", "--benchmark", "lsoie", "--split", job.split]
        ours += ["--gold-dir", str(ctx.store), str(system)]
        pairs.append(
            Pair(
                "LSOIE",
                f"{job.split} {job.curve}",
                system,
                original,
                env,
                ours,
                curve,
                check_nothing_printed,
            )
        )
    return pairs


def moie_pairs(ctx: Context) -> list[Pair] | str:
    a = ctx.args
    if a.moie is None or a.moie_python is None:
        return "give --moie and --moie-python"
    code = a.moie.resolve() / "code"
    if not (code / "carb" / "carb.py").is_file():
        return f"{code}/carb/carb.py is missing"
    data = code / "carb" / "data"
    env = ctx.base | {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PYTHONWARNINGS": "ignore"}
    pairs = []
    for lang in ("es", "pt", "hi", "te", "zh"):
        system = a.moie.resolve() / "outputs" / f"{lang}_test.output.carb"
        if not system.is_file():
            continue
        add(ctx, "carb", [data / "gold" / f"{lang}_test.tsv", data / f"{lang}_test.input"])
        for metric, flags in (("carb", []), ("carb-ss", ["--single_match"])):
            curve = ctx.tmp / "curves" / f"moie-{lang}-{metric}.original.dat"
            original = sh_in(
                code,
                [
                    a.moie_python,
                    "carb/carb.py",
                    "--gold",
                    f"carb/data/gold/{lang}_test.tsv",
                    "--out",
                    str(curve),
                    "--allennlp",
                    f"../outputs/{lang}_test.output.carb",
                    *flags,
                ],
            )
            ours = [ctx.benchie, "score", "--benchmark", "carb", "--lang", lang, "--metric", metric]
            ours += ["--input-format", "allennlp", "--gold-dir", str(ctx.store), str(system)]
            pairs.append(
                Pair(
                    "CaRB, moie",
                    f"{lang} {metric}",
                    system,
                    original,
                    env,
                    ours,
                    curve,
                    check_carb(4),
                )
            )
    return pairs


def docoie_pairs(ctx: Context) -> list[Pair] | str:
    a = ctx.args
    if a.docoie is None or a.docoie_python is None:
        return "give --docoie and --docoie-python"
    if not a.docoie_system:
        return "DocOIE ships no system output: give --docoie-system SPLIT:FILE"
    return "DocOIE's rows are not built yet: perf/bench_docoie.py times given files"


def multi2oie_pairs(ctx: Context) -> list[Pair] | str:
    a = ctx.args
    if a.multi2oie is None:
        return "give --multi2oie, --multi2oie-python and --multi2oie-system"
    return "Multi2OIE ships no system output: perf/bench_multi2oie.py times given files"


BENCHMARKS: dict[str, Callable[[Context], list[Pair] | str]] = {
    "carb": lambda ctx: carb_pairs(ctx, single=False),
    "carb-ss": lambda ctx: carb_pairs(ctx, single=True),
    "oie2016": oie2016_pairs,
    "oie2016-2018": oie2016_2018_pairs,
    "reoie2016": reoie2016_pairs,
    "wire57": wire57_pairs,
    "lsoie": lsoie_pairs,
    "moie": moie_pairs,
    "docoie": docoie_pairs,
    "multi2oie": multi2oie_pairs,
}


def add(ctx: Context, benchmark: str, files: list[Path]) -> None:
    """``benchie benchmark add`` the original's published files to the temporary store."""
    done = subprocess.run(
        [
            ctx.benchie,
            "benchmark",
            "add",
            benchmark,
            *map(str, files),
            "--gold-dir",
            str(ctx.store),
        ],
        env=ctx.base | {"BENCHIE_DATA_DIR": str(ctx.tmp / "data")},
        capture_output=True,
        text=True,
    )
    if done.returncode != 0 and "already" not in done.stderr:
        sys.exit(f"benchie benchmark add {benchmark} failed:\n{done.stderr}")


def with_gold_dir(argv: list[str], store: Path) -> list[str]:
    return argv if "--gold-dir" in argv else [*argv[:-1], "--gold-dir", str(store), argv[-1]]


def curve_of(directory: Path) -> Path | None:
    found = sorted(directory.glob("*.dat"))
    return found[0] if len(found) == 1 else None


def add_install_options(p: argparse.ArgumentParser, verb: str) -> None:
    """``--benchie`` and ``--regular-install``: which install's console script to ``verb``
    (this script's and ``instructions.py``'s)."""
    venv = REPO / ".venv" / "bin" / "benchie"
    p.add_argument(
        "--benchie",
        default=str(venv) if venv.is_file() else "benchie",
        help="the installed console script (default: the checkout's .venv/bin/benchie)",
    )
    p.add_argument(
        "--regular-install",
        action="store_true",
        help=f"{verb} a regular install of the checkout, built into a temporary venv (as users "
        "install it), instead of --benchie; with BENCHIE_MYPYC=1 in the environment, a "
        "compiled build",
    )


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add_install_options(p, "time")
    p.add_argument("--repeat", type=int, default=5, help="timed pairs per input (default 5)")
    p.add_argument(
        "--only",
        action="append",
        choices=sorted(BENCHMARKS),
        help="these benchmarks only (repeatable)",
    )
    p.add_argument("--json", type=Path, help="write every run's figures here")
    p.add_argument(
        "--floor",
        action="store_true",
        help="also time benchie on 1%% of each input (its floor: the run before the file counts)",
    )
    p.add_argument(
        "--max-inputs",
        type=int,
        help="time only the first N inputs of each benchmark (a quick look)",
    )
    p.add_argument(
        "--nltk-data", type=Path, help="NLTK_DATA with WordNet and stopwords (OIE2016, LSOIE)"
    )
    for name, what in (
        ("carb", "CaRB's checkout"),
        ("openie6", "OpenIE6's checkout (its carb/ scorer: CaRB (s,s))"),
        ("oie-benchmark", "oie-benchmark's checkout"),
        ("supervised-oie", "supervised-oie's checkout"),
        ("span-oie", "Span_OIE's checkout"),
        ("wire57", "WiRe57's checkout"),
        ("large-scale-oie", "large-scale-oie's checkout"),
        ("moie", "moie's checkout"),
        ("docoie", "DocOIE's checkout"),
        ("multi2oie", "Multi2OIE's checkout"),
    ):
        p.add_argument(f"--{name}", type=Path, help=what)
    for name in (
        "carb",
        "openie6",
        "oie2016",
        "soie",
        "reoie",
        "wire57",
        "lsoie",
        "moie",
        "docoie",
        "multi2oie",
    ):
        p.add_argument(f"--{name}-python", help="the Python of its pinned environment")
    p.add_argument("--docoie-system", action="append", default=[], help="SPLIT:FILE")
    p.add_argument("--multi2oie-system", action="append", default=[], help="LANG:SPLIT:FILE")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    wanted = args.only or list(BENCHMARKS)
    with tempfile.TemporaryDirectory(prefix="side-by-side-") as tmp_name:
        tmp = Path(tmp_name)
        for sub in ("curves", "inputs", "data", "ours_curves"):
            (tmp / sub).mkdir()
        store = tmp / "gold"
        shutil.copytree(REPO / "gold", store, ignore=shutil.ignore_patterns(".dvc*", ".git*"))
        stand_in = tmp / "nltk_data"
        (stand_in / "corpora" / "stopwords").mkdir(parents=True)
        (stand_in / "corpora" / "stopwords" / "english").write_text("a\nan\nthe\n")
        base = {
            k: v
            for k, v in os.environ.items()
            if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX", "NLTK_DATA")
        }
        benchie = regular_install(tmp / "venv", base) if args.regular_install else args.benchie
        kind = install_kind(benchie)
        print(f"benchie: {benchie} ({kind})", flush=True)
        ctx = Context(args, tmp, store, benchie, base, stand_in)
        our_env = base | {
            "PYTHONPYCACHEPREFIX": str(tmp / "pycache"),
            "BENCHIE_CACHE_DIR": str(tmp / "cache"),
            "BENCHIE_DATA_DIR": str(tmp / "data"),
        }
        pairs: list[Pair] = []
        skipped: dict[str, str] = {}
        for name in wanted:
            built = BENCHMARKS[name](ctx)
            if isinstance(built, str):
                skipped[name] = built
                print(f"skipped {name}: {built}", file=sys.stderr)
            else:
                pairs += built[: args.max_inputs]
        spawner = Spawner(tmp)
        problems: list[str] = []
        results = []
        try:
            for pair in pairs:
                label = f"{pair.benchmark} {pair.name}"
                ours = with_gold_dir(pair.ours, store)
                printed = spawner.run(pair.original, pair.original_env).stdout  # warm-up, check
                spawner.run(ours, our_env)  # warm-up: bytecode, index cache, memos
                curves = tmp / "ours_curves" / re.sub(r"\W+", "_", label)
                curves.mkdir()
                report_file = tmp / "report.json"
                extra = ["--format", "json", "-o", str(report_file)]
                if pair.curve is not None:
                    extra += ["--curves", str(curves)]
                spawner.run([*ours[:-1], *extra, ours[-1]], our_env)
                report = json.loads(report_file.read_text())
                found = pair.check(
                    printed, report if pair.benchmark == "WiRe57" else report["systems"][0]
                )
                if pair.curve is not None:
                    mine = curve_of(curves)
                    if mine is None or mine.read_bytes() != pair.curve.read_bytes():
                        found.append(f"the curve differs from the original's ({mine})")
                problems += [f"{label}: {p}" for p in found]
                runs: dict[str, list[Run]] = {"original": [], "benchie": []}
                loads = []
                for _ in range(args.repeat):
                    loads.append(os.getloadavg()[0])
                    runs["original"].append(spawner.run(pair.original, pair.original_env))
                    runs["benchie"].append(spawner.run(ours, our_env))
                row = {
                    "benchmark": pair.benchmark,
                    "input": pair.name,
                    "file": pair.system.name,
                    "lines": lines_of(pair.system),
                    "identical": not found,
                    "load": [min(loads), max(loads)],
                    "original_argv": pair.original,
                    "benchie_argv": ours,
                }
                for who, rs in runs.items():
                    row[who] = {
                        "median": statistics.median(r.wall for r in rs),
                        "min": min(r.wall for r in rs),
                        "max": max(r.wall for r in rs),
                        "cpu": statistics.median(r.cpu for r in rs),
                        "rss_mib": max(r.rss_mib for r in rs),
                        "walls": [r.wall for r in rs],
                    }
                row["speedup"] = row["original"]["median"] / row["benchie"]["median"]
                row["speedup_cpu"] = row["original"]["cpu"] / row["benchie"]["cpu"]
                row["speedup_paired"] = paired_speedup(runs["original"], runs["benchie"])
                if args.floor:
                    row["floor"] = floor(spawner, ours, our_env, tmp / "floor", args.repeat)
                results.append(row)
                print(line(row), flush=True)
        finally:
            spawner.close()
    print(f"\n{len(results)} inputs, {args.repeat} pairs each, {os.cpu_count()} CPUs")
    for name, reason in skipped.items():
        print(f"skipped {name}: {reason}")
    if args.json is not None:
        args.json.write_text(
            json.dumps(
                {"install": kind, "rows": results, "skipped": skipped, "problems": problems},
                indent=1,
            )
        )
    if problems:
        print("\n" + "\n".join(problems), file=sys.stderr)
        return 1
    return 0


def regular_install(venv: Path, env: dict[str, str]) -> str:
    """A regular (not editable) install of the checkout in a new ``venv``: its console
    script. pip builds the wheel and fetches the dependencies from the package index."""
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(REPO)],
        check=True,
        env=env,
    )
    return str(venv / "bin" / "benchie")


#: The second line of the launcher pip writes where a venv's path has a space or is too long
#: for a ``#!`` line: ``'''exec' "/path/to/python" "$0" "$@"``.
_SH_LAUNCHER = b"'''exec' "


def python_of(script: str) -> str:
    """The Python a console script runs: the interpreter its ``#!`` line names, the one
    ``#!/usr/bin/env NAME`` finds on PATH, or the one the ``/bin/sh`` launcher pip writes
    names on its second line. ValueError says why there is none."""
    path = shutil.which(script) or script
    try:
        with open(path, "rb") as f:
            lines = f.read(4096).splitlines()
    except OSError as exc:
        raise ValueError(f"{path}: {exc.strerror}") from None
    words = lines[0][2:].decode(errors="replace").split() if lines else []
    if not lines or not lines[0].startswith(b"#!") or not words:
        raise ValueError(f"{path}: not a console script (no #! line)")
    if words[0] == "/bin/sh" and len(lines) > 1 and lines[1].startswith(_SH_LAUNCHER):
        named = shlex.split(lines[1][len(_SH_LAUNCHER) :].decode(errors="replace"))
        if named:
            return named[0]
    if Path(words[0]).name == "env" and len(words) > 1:
        found = shutil.which(words[1])
        if found is None:
            raise ValueError(f"{path}: {words[1]} (its #! line) is not on PATH")
        return found
    return words[0]


def install_kind(benchie: str) -> str:
    """Whether the console script runs the checkout's sources through an editable install's
    import hook, or a regular install's copy: asked of the Python its first line names."""
    try:
        python = python_of(benchie)
    except ValueError as exc:
        missing = not os.path.exists(shutil.which(benchie) or benchie)
        return f"{'not found' if missing else 'an install of unknown kind'}: {exc}"
    asked = (
        "import benchie_cli; print(benchie_cli.__file__)\n"
        "try:\n"
        "    from benchie_cli.compiled import MODULES, compiled_modules\n"
        "except ImportError:\n"
        "    MODULES, compiled_modules = (), list\n"
        "print(len(compiled_modules()), len(MODULES))\n"
    )
    origin, counts = subprocess.run(
        [python, "-I", "-c", asked], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    if Path(origin).resolve().parent == (REPO / "benchie_cli").resolve():
        return "an editable install of the checkout; --regular-install times what users install"
    found, listed = map(int, counts.split())
    build = "" if not found else ", compiled" if found == listed else ", partly compiled"
    return f"a regular install{build}"


def paired_speedup(original: list[Run], ours: list[Run]) -> float:
    """The median over the pairs of the original's time over benchie's run just after it.
    A shared machine has slow spells of seconds that can take most of one command's five
    runs and few of the other's; a pair's two runs are seconds apart, in the same spell."""
    return statistics.median(o.wall / b.wall for o, b in zip(original, ours, strict=True))


#: The floor's sample: one line in this many, else the input's first this-many-th.
SAMPLE = 100


def samples(data: bytes) -> list[tuple[str, bytes]]:
    """A floor's inputs to try in turn: every :data:`SAMPLE`-th line, else the first 1%
    (for a file whose every hundredth line the command refuses)."""
    lines = data.splitlines(keepends=True)
    return [
        ("every 100th line", b"".join(lines[::SAMPLE])),
        ("the first 1%", b"".join(lines[: -(-len(lines) // SAMPLE)])),
    ]


def floor(
    spawner: Spawner, ours: list[str], env: dict[str, str], directory: Path, repeat: int
) -> dict | None:
    """benchie's command on 1% of its input (the last argument): the first of
    :func:`samples` it reads, else None (no sample it reads)."""
    directory.mkdir(exist_ok=True)
    for how, sample in samples(Path(ours[-1]).read_bytes()):
        path = directory / Path(ours[-1]).name
        path.write_bytes(sample)
        argv = [*ours[:-1], str(path)]
        if spawner.attempt(argv, env) is None:  # (the warm-up, and the sample's test)
            continue
        walls = [spawner.run(argv, env).wall for _ in range(repeat)]
        return {
            "sample": how,
            "lines": len(sample.splitlines()),
            "median": statistics.median(walls),
            "min": min(walls),
            "max": max(walls),
        }
    return None


def line(row: dict) -> str:
    o, b = row["original"], row["benchie"]
    goal = "" if row["speedup"] >= GOAL else "  < 10x"
    return (
        f"{row['benchmark']:<15} {row['input']:<34} {row['lines']:>7,} lines  "
        f"original {o['median']:.3f} s ({o['min']:.3f}-{o['max']:.3f})  "
        f"benchie {b['median']:.3f} s ({b['min']:.3f}-{b['max']:.3f})  "
        f"{row['speedup']:5.1f}x (paired {row['speedup_paired']:.1f}x, "
        f"CPU {row['speedup_cpu']:.1f}x)  "
        f"load {row['load'][0]:.1f}-{row['load'][1]:.1f}  "
        f"{'identical' if row['identical'] else 'DIFFERENT'}{goal}" + floor_note(row)
    )


def floor_note(row: dict) -> str:
    """The floor beside a tenth of the original's time ("" without ``--floor``)."""
    if "floor" not in row:
        return ""
    f = row["floor"]
    if f is None:
        return "\n    floor: no 1% sample of this input is a file benchie reads"
    tenth = row["original"]["median"] / GOAL
    return (
        f"\n    floor ({f['sample']}, {f['lines']:,} lines): {f['median']:.3f} s "
        f"({f['min']:.3f}-{f['max']:.3f}); a tenth of the original: {tenth:.3f} s"
    )


if __name__ == "__main__":
    sys.exit(main())
