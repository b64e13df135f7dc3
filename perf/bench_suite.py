"""Time and memory of ``benchie score --suite`` on one system output against the original
scorers of every benchmark run one after another, and a check that every number each
original prints is the suite's (docs/suite.md, "Speed").

The input is OpenIE 4's output on OIE2016's 3,200 sentences as CaRB ships it
(``tests/data/carb/openie4_output.txt.gz``: 9,236 lines), decompressed.
``benchie score --suite FILE --format json --gold-dir STORE`` gets that one file, in one
process, and scores BenchIE (three facets), CaRB (s,m) and (s,s), OIE2016, Re-OIE2016 and
WiRe57. STORE is a copy of the checkout's ``gold/`` to which ``benchie benchmark add`` has
added Re-OIE2016 and WiRe57 from their published files (``--reoie2016-json``,
``--wire57-json``; they may not be committed), or ``--gold-dir`` if given (it must hold both).

The originals, each a whole process in its own pinned environment (the recipes are in the
docstrings of ``bench_carb.py``, ``bench_oie2016.py``, ``bench_reoie2016.py`` and
``bench_wire57.py``), each on the benchmark's part of the same output, in the format it reads:

- CaRB (s,m): CaRB's ``carb.py --openiefour`` against CaRB's test gold (the store's
  ``carb/1.0.0/test/carb_test.tsv``), on the whole file: the other sentences' confidences
  are thresholds, as in the suite and ``score --benchmark carb`` (docs/suite.md). (How many
  lines are CaRB's is counted with CaRB's own code: its reader's columns, its
  ``Benchmark.normalizeKey`` of the line's sentence in the keys of its gold's sentences);
- CaRB (s,s): OpenIE6's ``carb.py --openiefour --single_match`` on the same file and gold;
- OIE2016: oie-benchmark's ``benchmark.py --openiefour`` on the whole file (the suite gives
  oie-benchmark's reader the whole file) against ``all.oie``, the store's ``oie2016/2.0.0``
  dev, train and test concatenated, as ``eval.sh`` scores ``oie_corpus/all.oie`` (its
  ``matcher.py`` calls ``nltk.download('wordnet')``, which fails at once without a network
  and only prints an error; the WordNet it uses comes from ``--oie2016-nltk-data``);
- Re-OIE2016: Span_OIE's ``evaluate.py new`` (against the store's copy of
  ``Re-OIE2016.json``) on the file converted to its system format as docs/suite.md says the
  suite reads it: CaRB's OpenIE 4 reader's tuples (read by CaRB's own ``OpenieFourReader``),
  sentence by sentence in the reader's order, written as ``sentence<TAB>confidence<TAB>
  relation<TAB>arg1<TAB>arg2`` (the confidence as ``repr``, which ``float`` reads back
  exactly). The conversion is done once, before and outside any timing, and is not counted;
- WiRe57: none of the file's sentences is WiRe57's (checked with CaRB's sentence key, the
  key the suite matches WiRe57's sentences by), so the suite's WiRe57 row is skipped and no
  WiRe57 run is in the sum. ``wire_scorer.py`` on WiRe57's own export is timed and reported
  on a separate line (``--wire57``), outside the sum. Should an input hold WiRe57 sentences,
  the script stops: it builds no WiRe57 export.

BenchIE's original scorer is not run (its code has a non-commercial licence): the sum of the
originals leaves it out while the suite computes BenchIE's three facets, so the comparison
is conservative.

The check (the first, untimed run of each, which is also the warm-up): every number each
original prints equals the suite's row to every digit printed. CaRB prints ``numpy.round(x,
3)`` of the AUC and of the optimal precision, recall and F1; OpenIE6 ``numpy.round(x, 4)`` of
the same (its "Zero Conf" point has no counterpart in the suite's row and is not compared);
the suite's unrounded values are rounded as ``numpy.round`` rounds (``rint(x * 10**d) /
10**d``) and compared as floats. Span_OIE prints full-precision floats: its two lines must
equal those written from the suite's values with ``repr``, character for character.
oie-benchmark prints no summary, only its curve (``--out``), with 12 significant digits, so:
(1) its ``.dat`` must be, byte for byte, the one ``python -m benchie_cli.benchmarks.oie2016.metric``
writes (the module the suite's OIE2016 row comes from), and that command's unrounded AUC,
precision, recall and F1 must equal the suite's row exactly; (2) the suite's best point,
printed as Python 2 prints a float, must be the row of the original's ``.dat`` whose
printed precision and recall give the highest F1 (the first among equals). (1) is exact;
(2) ties the suite to the digits the original writes. A mismatch exits with status 1.

Timing: ``--repeat`` rounds (5 by default), each running the suite and then every original
once; per scorer the median wall time and CPU (user + system) time, and the highest peak
RSS. The goal compares the suite's median wall time with the sum of the originals' medians
(>= 10x) and the suite's peak RSS with the largest original's (below it). Children are
started by ``bench_carb.py``'s spawner (a small long-lived process), so that their peak RSS
readings are their own; each gets ``PYTHONDONTWRITEBYTECODE`` removed so that every
interpreter reuses compiled bytecode as a normal install does (``PYTHONPYCACHEPREFIX`` in
the temporary directory for the suite; the originals' interpreters write theirs next to
their sources, under /tmp), and the suite a private index cache (``BENCHIE_CACHE_DIR``),
filled by the untimed run.

Example (the defaults are the /tmp paths of the recipes)::

    .venv/bin/python perf/bench_suite.py --repeat 5
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_carb import Run, Spawner

REPO = Path(__file__).resolve().parent.parent
SOURCE = REPO / "tests" / "data" / "carb" / "openie4_output.txt.gz"

#: The goal: the suite at least this many times faster (median wall time) than the sum of
#: the originals' medians, and a peak RSS below the largest original's.
SPEED_GOAL = 10.0

#: Run with CaRB's Python in CaRB's checkout (argv: CaRB's test gold, the system output,
#: CaRB's part out, Re-OIE2016's system file out, WiRe57's reference). Chooses CaRB's lines
#: with CaRB's own reader and sentence key, converts the output to Span_OIE's system format
#: with CaRB's own OpenIE 4 reader, and finds the output's WiRe57 sentences. JSON on stdout.
PREPARE = """\
import json, sys
from carb import Benchmark
from oie_readers.goldReader import GoldReader
from oie_readers.openieFourReader import OpenieFourReader
gold_fn, system, carb_out, reoie_out, wire57_fn = sys.argv[1:6]
key = Benchmark.normalizeKey
gold = GoldReader()
gold.read(gold_fn)
keys = {key(text) for text in gold.oie}
kept, texts = 0, set()
with open(system, encoding="utf-8") as fin, open(carb_out, "w", encoding="utf-8") as fout:
    for line in fin:
        data = line.strip().split("\\t")
        if all(data[2:5]) and key(data[5]) in keys:  # a line CaRB's reader reads
            fout.write(line if line.endswith("\\n") else line + "\\n")
            kept += 1
            texts.add(data[5])
reader = OpenieFourReader()
reader.read(system)
tuples = 0
with open(reoie_out, "w", encoding="utf-8") as fout:
    for text, extractions in reader.oie.items():
        for e in extractions:
            fout.write("\\t".join([text, repr(e.confidence), e.pred] + list(e.args)) + "\\n")
            tuples += 1
with open(wire57_fn, encoding="utf-8") as fh:
    reference = json.load(fh)
wire57 = {key(s["sent"]): s["id"] for doc in reference.values() for s in doc}
found = sorted({wire57[key(t)] for t in reader.oie if key(t) in wire57})
print(json.dumps({"carb_lines": kept, "carb_sentences": len(texts),
                  "carb_gold_sentences": len(keys), "sentences": len(reader.oie),
                  "reoie_tuples": tuples, "wire57_sentences": found}))
"""

#: CaRB prints ``AUC: 0.272  Optimal (precision, recall, F1): [0.553 0.437 0.488]``.
_PRINTED_CARB = re.compile(
    r"AUC: (\S+)\s+Optimal \(precision, recall, F1\): \[\s*(\S+)\s+(\S+)\s+(\S+)\s*\]"
)
#: OpenIE6 prints ``AUC: 0.1967  Optimal (precision, recall, F1): (0.5511, 0.3186, 0.4038)
#: Zero Conf (precision, recall, F1): (...)``.
_PRINTED_OPENIE6 = re.compile(r"AUC: (\S+)\s+Optimal \(precision, recall, F1\): \(([^)]*)\)")


class Original(NamedTuple):
    name: str  # as in the table
    row: tuple[str, str]  # the suite's (benchmark, metric)
    argv: list[str]
    env: dict[str, str]


def np_round(value: float, decimals: int) -> float:
    """``numpy.round(value, decimals)`` for a float64: ``rint(value * 10**d) / 10**d``
    (Python's ``round`` of a float to an integer is round-half-even, as ``rint``)."""
    scale = 10.0**decimals
    return round(value * scale) / scale


def py2_str(value: float) -> str:
    """A float as Python 2's ``str`` writes it (oie-benchmark's ``.dat``)."""
    if not math.isfinite(value):
        return "nan" if value != value else ("inf" if value > 0 else "-inf")
    text = f"{value:.12g}"
    return text if any(c in text for c in ".e") else text + ".0"


def rows_by_name(report: dict) -> dict[tuple[str, str], dict]:
    return {(r["benchmark"], r["metric"]): r for r in report["rows"]}


def check_carb(printed: str, numbers: dict, single: bool) -> list[str]:
    """The numbers CaRB (3 decimals) or OpenIE6 (4 decimals) prints against the suite's."""
    decimals = 4 if single else 3
    ours = [numbers[k] for k in ("auc", "precision", "recall", "f1")]
    expected = [np_round(v, decimals) for v in ours]
    if single:
        m = _PRINTED_OPENIE6.search(printed)
        shown = None if m is None else [m.group(1), *m.group(2).split(",")]
    else:
        m = _PRINTED_CARB.search(printed)
        shown = None if m is None else list(m.groups())
    if shown is None or [float(v) for v in shown] != expected:
        return [f"prints {printed.strip()!r}; the suite rounds to {expected} (from {ours})"]
    return []


def check_reoie(printed: str, numbers: dict) -> list[str]:
    """Span_OIE's two lines, character for character, from the suite's values."""
    optimal = ", ".join(repr(numbers[k]) for k in ("precision", "recall", "f1", "threshold"))
    expected = f"AUC: {numbers['auc']!r}\n Optimal (precision, recall, F1, threshold): ({optimal})"
    if printed.strip() != expected:
        return [f"prints {printed.strip()!r}; the suite {expected!r}"]
    return []


def check_oie2016(original_dat: bytes, module_dat: bytes, module: dict, numbers: dict) -> list[str]:
    """The original's curve against the suite's OIE2016 row (see the module docstring)."""
    problems = []
    if original_dat != module_dat:
        problems.append("the original's .dat differs from benchie_cli.benchmarks.oie2016.metric's")
    for k in ("auc", "precision", "recall", "f1"):
        if module[k] != numbers[k]:
            problems.append(
                f"{k}: benchie_cli.benchmarks.oie2016.metric {module[k]!r}, suite {numbers[k]!r}"
            )
    best, top = None, 0.0
    for line in original_dat.decode().splitlines()[1:]:
        p_text, r_text = line.split("\t")
        p, r = float(p_text), float(r_text)
        f1 = 2 * p * r / (p + r) if p + r > 0 else 0.0
        if f1 > top:
            best, top = (p_text, r_text), f1
    mine = (py2_str(numbers["precision"]), py2_str(numbers["recall"]))
    if best != mine:
        problems.append(f"the original's .dat's best row is {best}, the suite's point {mine}")
    return problems


def summary(runs: list[Run]) -> tuple[float, float, float, float]:
    """Median wall, minimum wall, median CPU, highest peak RSS."""
    return (
        statistics.median(r.wall for r in runs),
        min(r.wall for r in runs),
        statistics.median(r.cpu for r in runs),
        max(r.rss_mib for r in runs),
    )


def _without_benchie(store: Path, target: Path) -> Path:
    """A copy of the gold store without BenchIE's versions: the suite then scores the
    benchmarks whose original scorers run here, and no other (like for like)."""
    shutil.copytree(store, target)
    for version in [p for p in target.iterdir() if p.name[:1].isdigit()]:
        if version.is_dir():
            shutil.rmtree(version)
        else:
            version.unlink()
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    venv = REPO / ".venv" / "bin" / "benchie"
    parser.add_argument(
        "--benchie",
        default=str(venv) if venv.is_file() else "benchie",
        help="the benchie command (default: the checkout's .venv/bin/benchie)",
    )
    venv_python = REPO / ".venv" / "bin" / "python"
    parser.add_argument(
        "--our-python",
        default=str(venv_python) if venv_python.is_file() else sys.executable,
        help="the Python with benchie_cli installed, for the OIE2016 check",
    )
    parser.add_argument("--source", type=Path, default=SOURCE, help="the system output")
    parser.add_argument(
        "--gold-dir", type=Path, help="a gold store with both added (default: built)"
    )
    parser.add_argument("--reoie2016-json", type=Path, default=Path("/tmp/Re-OIE2016.json"))
    parser.add_argument("--wire57-json", type=Path, default=Path("/tmp/WiRe57_343-manual-oie.json"))
    parser.add_argument("--carb", type=Path, default=Path("/tmp/carb"), help="CaRB's checkout")
    parser.add_argument("--carb-python", default="/tmp/carb-venv/bin/python")
    parser.add_argument("--openie6-carb", type=Path, default=Path("/tmp/openie6/carb"))
    parser.add_argument("--openie6-python", default="/tmp/openie6-carb-venv/bin/python")
    parser.add_argument("--oie-benchmark", type=Path, default=Path("/tmp/oie-benchmark"))
    parser.add_argument("--oie2016-python", default="/tmp/oie2016-venv/bin/python")
    parser.add_argument("--oie2016-nltk-data", default="/tmp/oie2016-nltk_data")
    parser.add_argument("--span-oie", type=Path, default=Path("/tmp/span_oie"))
    parser.add_argument("--reoie-python", default="/tmp/reoie-venv/bin/python")
    parser.add_argument(
        "--wire57",
        type=Path,
        default=Path("/tmp/wire57"),
        help="WiRe57's checkout: its scorer on its own export, reported apart ('' to skip)",
    )
    parser.add_argument("--wire57-python", default="/tmp/wire57-venv/bin/python")
    parser.add_argument("--repeat", type=int, default=5, help="timed rounds")
    args = parser.parse_args()
    for path, what in (
        (args.carb / "carb.py", "--carb"),
        (args.openie6_carb / "carb.py", "--openie6-carb"),
        (args.oie_benchmark / "benchmark.py", "--oie-benchmark"),
        (args.span_oie / "evaluate" / "evaluate.py", "--span-oie"),
    ):
        if not path.is_file():
            sys.exit(f"{path} is missing: give the checkout with {what}")
    wire57_scorer = args.wire57 / "code" / "wire_scorer.py" if str(args.wire57) else None
    if wire57_scorer is not None and not wire57_scorer.is_file():
        sys.exit(f"{wire57_scorer} is missing: give WiRe57's checkout with --wire57, or ''")

    with tempfile.TemporaryDirectory(prefix="bench-suite-") as tmp_name:
        tmp = Path(tmp_name)
        system = tmp / "openie4_output.txt"
        system.write_bytes(gzip.decompress(args.source.read_bytes()))
        base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        stand_in = tmp / "nltk_data"  # CaRB's and Span_OIE's matchers load stop words
        (stand_in / "corpora" / "stopwords").mkdir(parents=True)
        (stand_in / "corpora" / "stopwords" / "english").write_text("a\nan\nthe\n")
        carb_env = base | {"NLTK_DATA": str(stand_in), "PYTHONWARNINGS": "ignore"}
        our_env = base | {
            "PYTHONPYCACHEPREFIX": str(tmp / "pycache"),
            "BENCHIE_CACHE_DIR": str(tmp / "cache"),
        }

        # The gold store, both external benchmarks added.
        if args.gold_dir is not None:
            store = args.gold_dir.resolve()
        else:
            store = tmp / "gold"
            shutil.copytree(REPO / "gold", store)
            for name, published in (
                ("reoie2016", args.reoie2016_json),
                ("wire57", args.wire57_json),
            ):
                subprocess.run(
                    [
                        args.benchie,
                        "benchmark",
                        "add",
                        name,
                        str(published),
                        "--gold-dir",
                        str(store),
                    ],
                    check=True,
                    capture_output=True,
                    env=our_env,
                )
        carb_gold = store / "carb" / "1.0.0" / "test" / "carb_test.tsv"
        corpus = store / "oie2016" / "2.0.0"
        reoie_gold = store / "reoie2016" / "1.0.0" / "test" / "Re-OIE2016.json"
        wire57_reference = store / "wire57" / "1.0.0" / "test" / "WiRe57_343-manual-oie.json"
        for path in (carb_gold, reoie_gold, wire57_reference):
            if not path.is_file():
                sys.exit(f"{path} is missing from the gold store")

        # Each original's part of the output, in its format (untimed).
        carb_part, reoie_system = tmp / "carb_part.txt", tmp / "reoie_system.txt"
        prepared = json.loads(
            subprocess.run(
                [
                    args.carb_python,
                    "-c",
                    PREPARE,
                    str(carb_gold),
                    str(system),
                    str(carb_part),
                    str(reoie_system),
                    str(wire57_reference),
                ],
                cwd=args.carb.resolve(),
                env=carb_env,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        )
        if prepared["wire57_sentences"]:
            sys.exit(
                f"the output holds WiRe57 sentences {prepared['wire57_sentences']}: this "
                "script builds no WiRe57 export"
            )
        all_oie = tmp / "all.oie"
        all_oie.write_bytes(
            b"".join((corpus / s / f"{s}.oie").read_bytes() for s in ("dev", "train", "test"))
        )
        work = tmp / "evaluate"  # Span_OIE reads its gold from, writes error.txt to, its cwd
        shutil.copytree(args.span_oie.resolve() / "evaluate", work)
        shutil.copyfile(reoie_gold, work / "Re-OIE2016.json")

        out = tmp / "out"
        out.mkdir()
        suite_argv = [args.benchie, "score", "--suite", str(system), "--format", "json"]
        same_argv = [*suite_argv, "--gold-dir", str(_without_benchie(store, tmp / "same"))]
        suite_argv += ["--gold-dir", str(store)]
        carb_argv = [f"--gold={carb_gold}", f"--openiefour={system}"]
        originals = [
            Original(
                "CaRB (s,m)",
                ("carb", "carb"),
                [
                    args.carb_python,
                    str(args.carb.resolve() / "carb.py"),
                    *carb_argv,
                    f"--out={out / 'carb.dat'}",
                ],
                carb_env,
            ),
            Original(
                "CaRB (s,s)",
                ("carb", "carb-ss"),
                [
                    args.openie6_python,
                    str(args.openie6_carb.resolve() / "carb.py"),
                    *carb_argv,
                    f"--out={out / 'carb-ss.dat'}",
                    "--single_match",
                ],
                carb_env,
            ),
            Original(
                "OIE2016",
                ("oie2016", "oie2016"),
                # benchmark.py imports its readers from its own directory: run it from there
                [
                    "/bin/sh",
                    "-c",
                    'cd "$0" && exec "$@"',
                    str(args.oie_benchmark.resolve()),
                    args.oie2016_python,
                    "benchmark.py",
                    f"--gold={all_oie}",
                    f"--out={out / 'oie2016.dat'}",
                    f"--openiefour={system}",
                ],
                base | {"NLTK_DATA": args.oie2016_nltk_data},
            ),
            Original(
                "Re-OIE2016",
                ("reoie2016", "reoie2016"),
                [
                    "/bin/sh",
                    "-c",
                    'cd "$0" && exec "$@"',
                    str(work),
                    args.reoie_python,
                    "evaluate.py",
                    "new",
                    str(reoie_system),
                    str(out / "reoie2016.curve"),
                ],
                carb_env,
            ),
        ]
        wire57_run = None
        if wire57_scorer is not None:
            wire57_work = tmp / "wire57"
            (wire57_work / "raw_scores").mkdir(parents=True)
            for data in (args.wire57 / "data").glob("*.json"):
                shutil.copyfile(data, wire57_work / data.name)
            wire57_run = Original(
                "WiRe57 (own export)",
                ("wire57", "wire57"),
                [
                    "/bin/sh",
                    "-c",
                    'cd "$0" && exec "$@"',
                    str(wire57_work),
                    args.wire57_python,
                    str(wire57_scorer.resolve()),
                ],
                base,
            )

        spawner = Spawner(tmp)
        # The check, which is also the warm-up (page cache, bytecode, the suite's index cache).
        report = json.loads(spawner.run(suite_argv, our_env).stdout)
        rows = rows_by_name(report)
        problems: list[str] = []
        lines = []
        for original in originals:
            printed = spawner.run(original.argv, original.env).stdout
            row = rows[original.row]
            if "skipped" in row:
                problems.append(f"{original.name}: the suite skipped it: {row['skipped']}")
                continue
            numbers = row[original.row[1]]
            if original.row[0] == "carb":
                found = check_carb(printed, numbers, original.row[1] == "carb-ss")
                what = "printed AUC, P, R, F1 (rounded as printed)"
            elif original.row[0] == "reoie2016":
                found = check_reoie(printed, numbers)
                what = "printed AUC, P, R, F1, threshold (every digit)"
            else:
                module_dat = out / "oie2016.module.dat"
                module = json.loads(
                    subprocess.run(
                        [
                            args.our_python,
                            "-m",
                            "benchie_cli.benchmarks.oie2016.metric",
                            str(all_oie),
                            str(system),
                            "openie4",
                            str(module_dat),
                        ],
                        env=our_env,
                        capture_output=True,
                        text=True,
                        check=True,
                    ).stdout
                )
                dat = (out / "oie2016.dat").read_bytes()
                found = check_oie2016(dat, module_dat.read_bytes(), module, numbers)
                rows_written = dat.count(b"\n") - 1
                what = (
                    f"curve ({rows_written} rows) byte for byte, AUC/P/R/F1 exact, "
                    "best row's digits"
                )
            problems += [f"{original.name}: {p}" for p in found]
            verdict = "DIFFERENT" if found else "identical"
            lines.append(f"  {original.name:<11} {what}: {verdict}")
        if "skipped" not in rows[("wire57", "wire57")]:
            problems.append("WiRe57: the suite scored it, yet none of the sentences is WiRe57's")
        skipped = [r for r in report["rows"] if "skipped" in r]
        if len(skipped) != 1:
            problems.append(f"skipped rows: {skipped}")
        if wire57_run is not None:
            spawner.run(wire57_run.argv, wire57_run.env)

        spawner.run(same_argv, our_env)  # (warm-up, as for the others)
        runs: dict[str, list[Run]] = {
            "suite": [],
            "same": [],
            **{o.name: [] for o in originals},
        }
        wire57_runs: list[Run] = []
        for _ in range(args.repeat):
            runs["suite"].append(spawner.run(suite_argv, our_env))
            runs["same"].append(spawner.run(same_argv, our_env))
            for original in originals:
                runs[original.name].append(spawner.run(original.argv, original.env))
            if wire57_run is not None:
                wire57_runs.append(spawner.run(wire57_run.argv, wire57_run.env))
        spawner.close()

    with gzip.open(args.source, "rb") as fh:
        n_lines = sum(1 for _ in fh)
    print(
        f"input: {args.source.name}, {n_lines:,} lines, {prepared['sentences']:,} sentences "
        f"(CaRB's reader); CaRB's part {prepared['carb_lines']:,} lines, "
        f"{prepared['carb_sentences']} of CaRB's {prepared['carb_gold_sentences']} test "
        f"sentences; Re-OIE2016's system file {prepared['reoie_tuples']:,} tuples (converted "
        "untimed); WiRe57: none of its 57 sentences, the suite skips it\n"
        "the suite's numbers against every number each original prints:"
    )
    print("\n".join(lines))
    own = spawner.peak_mib
    print(
        f"\n{args.repeat} timed rounds; {os.cpu_count()} CPUs; load {os.getloadavg()[0]:.2f}; "
        f"the spawner's peak RSS {own:.1f} MiB\n"
    )
    print(f"{'scorer':<22} {'median s':>9} {'min s':>7} {'CPU s':>7} {'peak MiB':>9}")

    def line(name: str, values: tuple[float, float, float, float]) -> None:
        wall, low, cpu, rss = values
        mark = "*" if rss <= own + 0.5 else " "
        print(f"{name:<22} {wall:>9.3f} {low:>7.3f} {cpu:>7.3f} {rss:>9.1f}{mark}")

    figures = {name: summary(rs) for name, rs in runs.items()}
    line("benchie score --suite", figures["suite"])
    line("  without BenchIE's", figures["same"])
    for original in originals:
        line(f"  {original.name}", figures[original.name])
    theirs = [figures[o.name] for o in originals]
    total_wall = sum(f[0] for f in theirs)
    total_cpu = sum(f[2] for f in theirs)
    largest = max(originals, key=lambda o: figures[o.name][3])
    print(
        f"{'originals, sum':<22} {total_wall:>9.3f} {'':>7} {total_cpu:>7.3f} "
        f"{figures[largest.name][3]:>9.1f}  (largest: {largest.name})"
    )
    if wire57_runs:
        line("WiRe57, own export", summary(wire57_runs))
        print("  (not in the sum: none of the input's sentences is WiRe57's)")
    print("* not above the spawner's own peak RSS: an upper bound only")
    suite_wall, _, suite_cpu, suite_rss = figures["suite"]
    same_wall, _, same_cpu, _ = figures["same"]
    memory = suite_rss / figures[largest.name][3]
    like = total_wall / same_wall
    met = like >= SPEED_GOAL and memory < 1.0
    print(
        f"\nthe suite, on the benchmarks the originals score (BenchIE's versions left out of "
        f"its store): {like:.1f}x faster than the originals one after another (CPU "
        f"{total_cpu / same_cpu:.1f}x)\n"
        f"the whole suite, BenchIE's three facets included: {total_wall / suite_wall:.1f}x "
        f"(CPU {total_cpu / suite_cpu:.1f}x); {memory:.2f}x the largest original's peak RSS "
        f"({largest.name})\n"
        f"goal >= {SPEED_GOAL:.0f}x wall (like for like) and below the largest original's "
        f"memory: {'met' if met else 'MISSED'} (BenchIE's original scorer is not run: its "
        "code has a non-commercial licence)"
    )
    if problems:
        print("\n" + "\n".join(problems), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
