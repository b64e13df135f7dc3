"""Time and memory of Multi2OIE's scoring of Re-OIE2016 (English, Spanish, Portuguese, n-ary
and binary) against ``benchie score --benchmark reoie2016 --lang L --split S`` on the same
files, and a check that both compute identical numbers (docs/reoie2016.md, "Spanish,
Portuguese and binary (Multi2OIE)").

Multi2OIE (github.com/youngbin-ro/Multi2OIE, MIT) scores a run with ``test.py``: its
``get_performance()`` reads the gold with ``evaluate/evaluate.py``'s ``Benchmark``, reads the
system's ``extraction.txt`` with ``GeneralReader``, calls ``Benchmark.compare`` with
``Matcher.lexicalMatch``, which writes ``pr_curve.txt`` and ``error_idxs.txt``, and
``do_eval`` prints the result as a "TEST RESULT" block. ``test.py`` itself needs torch, a
model and the test pickles, so a small driver (:data:`DRIVER`) does exactly those calls on the
checkout's ``evaluate/`` modules, unchanged (copied to a temporary directory, with the gold
under ``./evaluate/`` as test.py is given it, and the system file as ``out/extraction.txt``).

The check, for every system file, before timing:

- the AUC and Optimal lines Multi2OIE prints, character for character, against the numbers of
  benchie's JSON report (Python's ``repr``, numpy 1.18's form) and against the first two lines
  of ``python -m benchie_cli.benchmarks.reoie2016.metric``;
- its four counts (``non_sent``, ``non_match``, ``correctTotal``, ``unmatchedCount``) against
  the report's ``non_sent``, ``non_match``, ``correct_total`` and ``unmatched``;
- its TEST RESULT block against the report's F1, P, R and AUC formatted with ``{:.5f}``;
- ``pr_curve.txt`` and ``error_idxs.txt``, byte for byte, against the curve and error files
  the metric module writes (``benchie score`` writes a report, not these files);
- the checkout's gold file against the sha256 of the gold the report names.

A mismatch exits with status 1. Then each scorer runs ``--repeat`` times, alternating; every
run is a whole process, measured as in ``bench_carb.py`` (wall and CPU time, peak RSS): the
driver on one side, ``benchie score ... --format json -o FILE`` on the other.

The original needs Python 3.7 with Multi2OIE's pins, numpy 1.18.1, scipy 1.4.1,
scikit-learn 0.22.1 (its code imports ``sklearn.preprocessing.data``, gone from 0.24) and
nltk 3.5; none of torch, transformers or pandas is imported::

    ~/.pyenv/versions/3.7.16/bin/python -m venv /tmp/m2o-venv
    /tmp/m2o-venv/bin/pip install numpy==1.18.1 scipy==1.4.1 scikit-learn==0.22.1 \\
        joblib==0.15.1 nltk==3.5
    git clone https://github.com/youngbin-ro/Multi2OIE /tmp/multi2oie
    benchie benchmark add reoie2016 --gold-dir /tmp/m2o-gold \\
        /tmp/multi2oie/evaluate/Re-OIE2016*.json
    python perf/bench_multi2oie.py --multi2oie /tmp/multi2oie --python /tmp/m2o-venv/bin/python \\
        --gold-dir /tmp/m2o-gold --lang es --split test --system es-sys.txt

A system file is what Multi2OIE's ``extract.py`` writes, ``sentence<TAB>confidence<TAB>
predicate<TAB>arg0...``. Multi2OIE's ``matcher.py``, when imported, loads NLTK's English stop
words and asks NLTK to download WordNet, though the lexical match uses neither: the original
sees ``NLTK_DATA`` pointing at a stand-in stop word list, and a proxy on a closed local port,
so that the download fails at once (a line on its stderr) instead of reaching the network.
It runs under a UTF-8 locale (``C.UTF-8``), which its reader of the system file assumes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import re
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_carb import Run, Spawner

REPO = Path(__file__).resolve().parent.parent

#: What ``test.py``'s ``do_eval`` does with a gold path containing ``evaluate`` (the branch
#: ``get_performance`` takes for Re-OIE2016), then prints as ``utils.print_results``. Run
#: from a directory holding the unchanged ``evaluate/``; arguments: the output directory
#: (with ``extraction.txt``) and the gold path.
DRIVER = """\
import os, sys
from evaluate.evaluate import Benchmark
from evaluate.generalReader import GeneralReader
from evaluate.matcher import Matcher
output_path, gold_path = sys.argv[1:3]
if "evaluate" not in gold_path:
    sys.exit("test.py scores Re-OIE2016 only for a gold path containing 'evaluate'")
evaluator = Benchmark(gold_path)
reader = GeneralReader()
reader.read(os.path.join(output_path, "extraction.txt"))
(precision, recall, f1), auc = evaluator.compare(
    predicted=reader.oie,
    matchingFunc=Matcher.lexicalMatch,
    output_fn=os.path.join(output_path, "pr_curve.txt"),
    error_file=os.path.join(output_path, "error_idxs.txt"),
)
print("\\n===== TEST RESULT =====")
for name, value in zip(["F1  ", "PREC", "REC ", "AUC "], [f1, precision, recall, auc]):
    print("{}: {:.5f}".format(name, value))
print()
"""

#: Multi2OIE's four count lines: ``print(name + ":", n)`` gives two spaces.
_COUNT = re.compile(r"^(non_sent|non_match|correctTotal|unmatchedCount):  (\d+)$", re.M)
#: The report's key of each count Multi2OIE prints.
COUNTS = {
    "non_sent": "non_sent",
    "non_match": "non_match",
    "correctTotal": "correct_total",
    "unmatchedCount": "unmatched",
}
_RESULT = re.compile(r"\n===== TEST RESULT =====\n(?:.*\n){4}\n")


def number(value: object) -> str:
    """A report's number as the original prints it: ``repr`` of the float (numpy 1.18
    prints a float64 the same way), ``nan`` for NaN (a JSON null)."""
    if value is None:
        return "nan"
    assert isinstance(value, (int, float))
    return repr(value)


def rounded(value: object) -> str:
    """A report's number as ``utils.print_results`` prints it (``{:.5f}``)."""
    if value is None:
        return f"{math.nan:.5f}"
    assert isinstance(value, (int, float))
    return f"{value:.5f}"


def expected_output(numbers: dict[str, object]) -> tuple[str, dict[str, int], str]:
    """From the numbers of benchie's report: the AUC and Optimal lines, the four counts and
    the TEST RESULT block that Multi2OIE should print."""
    optimal = ", ".join(number(numbers[k]) for k in ("precision", "recall", "f1", "threshold"))
    lines = (
        f"AUC: {number(numbers['auc'])}\n Optimal (precision, recall, F1, threshold): ({optimal})\n"
    )
    counts = {}
    for name, key in COUNTS.items():
        count = numbers[key]
        assert isinstance(count, int)
        counts[name] = count
    block = "\n===== TEST RESULT =====\n"
    for name, key in (("F1  ", "f1"), ("PREC", "precision"), ("REC ", "recall"), ("AUC ", "auc")):
        block += f"{name}: {rounded(numbers[key])}\n"
    return lines, counts, block + "\n"


def differences(job: str, printed: str, numbers: dict[str, object], module_lines: str) -> list[str]:
    """Where what Multi2OIE prints differs from benchie's report and the metric module's
    two lines. Empty when they are identical."""
    problems = []
    lines, counts, block = expected_output(numbers)
    auc = re.search(r"^AUC: .*\n Optimal .*\n", printed, re.M)
    theirs = auc.group(0) if auc else "(no AUC line)"
    if theirs != lines:
        problems.append(f"{job}: Multi2OIE prints {theirs!r}, the report gives {lines!r}")
    if theirs != module_lines:
        problems.append(f"{job}: Multi2OIE prints {theirs!r}, the metric module {module_lines!r}")
    printed_counts = {name: int(n) for name, n in _COUNT.findall(printed)}
    if printed_counts != counts:
        problems.append(f"{job}: Multi2OIE counts {printed_counts}, the report {counts}")
    result = _RESULT.search(printed)
    if result is None or result.group(0) != block:
        shown = result.group(0) if result else "(no TEST RESULT block)"
        problems.append(f"{job}: Multi2OIE prints {shown!r}, the report rounds to {block!r}")
    return problems


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--multi2oie", type=Path, required=True, help="a Multi2OIE checkout")
    parser.add_argument("--python", required=True, help="a Python that runs Multi2OIE's scorer")
    venv = REPO / ".venv" / "bin" / "python"
    parser.add_argument(
        "--our-python",
        default=str(venv) if venv.is_file() else sys.executable,
        help="the Python with benchie_cli installed (default: the checkout's .venv)",
    )
    parser.add_argument(
        "--gold-dir",
        type=Path,
        required=True,
        help="a gold store to which benchmark add has added Multi2OIE's files",
    )
    parser.add_argument("--lang", choices=("en", "es", "pt"), default="en")
    parser.add_argument("--split", choices=("test", "binary"), default="test")
    parser.add_argument("--system", type=Path, action="append", required=True)
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per job")
    args = parser.parse_args()
    evaluate = args.multi2oie.resolve() / "evaluate"
    if not (evaluate / "evaluate.py").is_file():
        sys.exit(f"{evaluate} has no evaluate.py: give a Multi2OIE checkout with --multi2oie")

    with tempfile.TemporaryDirectory(prefix="bench-multi2oie-") as tmp_name:
        tmp = Path(tmp_name)
        work = tmp / "work"
        (work / "evaluate").mkdir(parents=True)
        for module in evaluate.glob("*.py"):
            shutil.copy(module, work / "evaluate")
        (work / "driver.py").write_text(DRIVER)
        nltk = tmp / "nltk_data" / "corpora" / "stopwords"
        nltk.mkdir(parents=True)
        (nltk / "english").write_text("a\nan\nthe\n")
        closed = "http://127.0.0.1:9"  # the discard port: nothing listens, the download fails
        env = {
            **os.environ,
            "NLTK_DATA": str(tmp / "nltk_data"),
            "PYTHONWARNINGS": "ignore",
            "LC_ALL": "C.UTF-8",
            "http_proxy": closed,
            "https_proxy": closed,
        }
        spawner = Spawner(tmp)
        problems: list[str] = []
        results = []
        for system in args.system:
            job = system.name
            out_orig, out_ours = work / "out", tmp / "ours"
            out_orig.mkdir(exist_ok=True)
            out_ours.mkdir(exist_ok=True)
            shutil.copy(system, out_orig / "extraction.txt")
            report = out_ours / "report.json"
            ours_cmd = [
                args.our_python,
                "-m",
                "benchie_cli",
                "score",
                "--benchmark",
                "reoie2016",
                "--lang",
                args.lang,
                "--split",
                args.split,
                "--gold-dir",
                str(args.gold_dir.resolve()),
                "--format",
                "json",
                "-o",
                str(report),
                str(system.resolve()),
            ]
            spawner.run(ours_cmd, env)
            data = json.loads(report.read_text())
            gold_file = args.gold_dir.resolve() / data["gold"]["files"][0]["path"]
            original_gold = work / "evaluate" / gold_file.name
            shutil.copy(evaluate / gold_file.name, original_gold)
            if sha256(original_gold) != data["gold"]["sha256"]:
                sys.exit(f"{evaluate / gold_file.name} is not the gold benchie scored against")
            # The driver runs from `work` (test.py's gold path is ./evaluate/NAME, its
            # modules import each other as evaluate.*): the spawner has no cwd, so a shell
            # changes into it.
            original_cmd = [
                "/bin/sh",
                "-c",
                'cd "$0" && exec "$1" driver.py ./out "./evaluate/$2"',
                str(work),
                args.python,
                gold_file.name,
            ]
            module_cmd = [
                args.our_python,
                "-m",
                "benchie_cli.benchmarks.reoie2016.metric",
                str(gold_file),
                str(system.resolve()),
                str(out_ours / "pr_curve.txt"),
                str(out_ours / "error_idxs.txt"),
            ]
            printed = spawner.run(original_cmd, env).stdout
            module_lines = "".join(spawner.run(module_cmd, env).stdout.splitlines(True)[:2])
            (numbers,) = (s["reoie2016"] for s in data["systems"])
            found = differences(job, printed, numbers, module_lines)
            for name in ("pr_curve.txt", "error_idxs.txt"):
                if (out_orig / name).read_bytes() != (out_ours / name).read_bytes():
                    found.append(f"{job}: {name} differs")
            problems += found
            runs: dict[str, list[Run]] = {"original": [], "ours": []}
            for _ in range(args.repeat):
                runs["original"].append(spawner.run(original_cmd, env))
                runs["ours"].append(spawner.run(ours_cmd, env))
            results.append((job, runs))
            lines = sum(1 for _ in system.open("rb"))
            verdict = "DIFFERENT" if found else "identical"
            print(
                f"{job} ({args.lang}, {args.split}, {gold_file.name}): {lines:,} lines; "
                f"printed numbers, counts, curve and error file {verdict}"
            )
            print("   " + printed.strip().replace("\n", "\n   "))
        spawner.close()

    own = spawner.peak_mib
    print(
        f"\n{args.repeat} timed runs each; {os.cpu_count()} CPUs; load "
        f"{os.getloadavg()[0]:.2f}; the spawner's peak RSS {own:.1f} MiB\n"
    )
    print(f"{'job':<22} {'scorer':<8} {'median s':>9} {'min s':>7} {'CPU s':>7} {'peak MiB':>9}")
    for job, runs in results:
        for scorer, rs in runs.items():
            rss = max(r.rss_mib for r in rs)
            mark = "*" if rss <= own + 0.5 else " "
            print(
                f"{job:<22} {scorer:<8} {statistics.median(r.wall for r in rs):>9.3f} "
                f"{min(r.wall for r in rs):>7.3f} {statistics.median(r.cpu for r in rs):>7.3f} "
                f"{rss:>9.1f}{mark}"
            )
    for job, runs in results:
        wall = statistics.median(r.wall for r in runs["original"]) / statistics.median(
            r.wall for r in runs["ours"]
        )
        cpu = statistics.median(r.cpu for r in runs["original"]) / statistics.median(
            r.cpu for r in runs["ours"]
        )
        memory = max(r.rss_mib for r in runs["ours"]) / max(r.rss_mib for r in runs["original"])
        print(f"{job:<22} ours {wall:5.1f}x faster (CPU {cpu:.1f}x), {memory:.2f}x the memory")
    if problems:
        print("\n" + "\n".join(problems), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
