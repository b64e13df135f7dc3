"""Time and memory of WiRe57's own scorer (``code/wire_scorer.py``) against
``python -m benchie_cli.benchmarks.wire57.metric`` on the same files, and a check that both compute
identical numbers.

Two inputs, both scored against WiRe57's reference: the systems' export as published (7
systems), and the same export with every sentence's tuples ``--copies`` times (5 by
default), which multiplies the pairs to match by 25.

The check compares what the original prints (every system's report) and its
``raw_scores/*.dat`` files byte for byte, and the unrounded precision, recall, F1, means
over matches and exact-match counts that its own functions compute (a driver imports
``wire_scorer`` and prints them as JSON) with ours. A mismatch exits with status 1. Timing
as in ``bench_carb.py``: whole processes, alternating, wall and CPU time, peak RSS.

WiRe57 has no licence file: its data stays outside this repository. The original needs
Python 3 with insertion-ordered dicts (3.6+) and nothing else; under 3.12+ its ``sum`` is
compensated, which moves some unrounded values by an ulp (not the printed ones)::

    ~/.pyenv/versions/3.6.15/bin/python -m venv /tmp/wire57-venv
    git clone https://github.com/rali-udem/WiRe57 /tmp/wire57
    python perf/bench_wire57.py --wire57 /tmp/wire57 --python /tmp/wire57-venv/bin/python
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_carb import Run, Spawner

REPO = Path(__file__).resolve().parent.parent
REFERENCE = "WiRe57_343-manual-oie.json"
EXPORT = "WiRe57_extractions_by_ollie_clausie_openie_stanford_minie_reverb_props-export.json"

#: Runs WiRe57's own functions (argv: its code directory, reference, export) and prints
#: their unrounded results by system, as ``wire_scorer.main`` computes them.
ORIGINAL_EXACT = """\
import json, sys
sys.path.insert(0, sys.argv[1])
import wire_scorer as w
reference = json.load(open(sys.argv[2]))
gold = {s['id']: s['tuples'] for doc in reference.values() for s in doc}
out = {}
for e, preds in w.split_tuples_by_extractor(gold.keys(), json.load(open(sys.argv[3]))).items():
    m, _ = w.eval_system(gold, preds)
    ep = m['exactmatches_precision'][0] / m['exactmatches_precision'][1]
    er = m['exactmatches_recall'][0] / m['exactmatches_recall'][1]
    out[e] = {'precision': m['precision'], 'recall': m['recall'],
              'f1': w.f1(m['precision'], m['recall']), 'matches': m['matches'],
              'precision_of_matches': m['precision_of_matches'],
              'recall_of_matches': m['recall_of_matches'],
              'exact_precision': m['exactmatches_precision'],
              'exact_recall': m['exactmatches_recall'], 'exact_f1': w.f1(ep, er)}
print(json.dumps(out))
"""


def enlarge(export: Path, out: Path, copies: int) -> None:
    """``export`` with each sentence's tuple list repeated ``copies`` times."""
    data = json.loads(export.read_text(encoding="utf-8"))
    out.write_text(json.dumps({s: ts * copies for s, ts in data.items()}), encoding="utf-8")


def compare(job: str, original: Path, ours: Path, exact: dict, mine: dict) -> list[str]:
    """Differences between the original's outputs and ours."""
    problems = []
    if (original / "stdout").read_bytes() != (ours / "stdout").read_bytes():
        problems.append(f"{job}: the printed reports differ")
    names = sorted(p.name for p in (original / "raw_scores").iterdir())
    if names != sorted(p.name for p in (ours / "raw_scores").iterdir()):
        problems.append(f"{job}: different raw_scores files")
    for name in names:
        if (original / "raw_scores" / name).read_bytes() != (
            ours / "raw_scores" / name
        ).read_bytes():
            problems.append(f"{job}: raw_scores/{name} differs")
    if exact != mine:
        problems.append(f"{job}: unrounded values differ: {exact} vs {mine}")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wire57", type=Path, required=True, help="a WiRe57 checkout")
    parser.add_argument("--python", required=True, help="a Python 3 that runs the original")
    venv = REPO / ".venv" / "bin" / "python"
    parser.add_argument(
        "--our-python",
        default=str(venv) if venv.is_file() else sys.executable,
        help="the Python with benchie_cli installed (default: the checkout's .venv)",
    )
    parser.add_argument("--copies", type=int, default=5, help="copies in the large export")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per job")
    args = parser.parse_args()
    root = args.wire57.resolve()
    scorer = root / "code" / "wire_scorer.py"
    if not scorer.is_file():
        sys.exit(f"{root} has no code/wire_scorer.py: give a WiRe57 checkout with --wire57")

    with tempfile.TemporaryDirectory(prefix="bench-wire57-") as tmp_name:
        tmp = Path(tmp_name)
        spawner = Spawner(tmp)
        problems: list[str] = []
        results = []
        for job, copies in (("export", 1), (f"export x{args.copies}", args.copies)):
            # The original reads both files by fixed names from its working directory and
            # writes raw_scores/ there.
            work = tmp / job.replace(" ", "_")
            (work / "orig" / "raw_scores").mkdir(parents=True)
            (work / "ours" / "raw_scores").mkdir(parents=True)
            reference, export = work / "orig" / REFERENCE, work / "orig" / EXPORT
            reference.write_bytes((root / "data" / REFERENCE).read_bytes())
            enlarge(root / "data" / EXPORT, export, copies)
            original_cmd = [
                "/bin/sh",
                "-c",
                'cd "$0" && exec "$1" "$2"',
                str(work / "orig"),
                args.python,
                str(scorer),
            ]
            ours_cmd = [
                args.our_python,
                "-m",
                "benchie_cli.benchmarks.wire57.metric",
                str(reference),
                str(export),
                "--raw-scores",
                str(work / "ours" / "raw_scores"),
            ]
            (work / "orig" / "stdout").write_text(
                spawner.run(original_cmd, dict(os.environ)).stdout
            )
            (work / "ours" / "stdout").write_text(spawner.run(ours_cmd, dict(os.environ)).stdout)
            exact = json.loads(
                subprocess.run(
                    [
                        args.python,
                        "-c",
                        ORIGINAL_EXACT,
                        str(root / "code"),
                        str(reference),
                        str(export),
                    ],
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
            )
            mine = json.loads(
                subprocess.run(
                    [*ours_cmd[:5], "--json"], capture_output=True, text=True, check=True
                ).stdout
            )
            found = compare(job, work / "orig", work / "ours", exact, mine)
            problems += found
            runs: dict[str, list[Run]] = {"original": [], "ours": []}
            for _ in range(args.repeat):
                runs["original"].append(spawner.run(original_cmd, dict(os.environ)))
                runs["ours"].append(spawner.run(ours_cmd, dict(os.environ)))
            results.append((job, runs))
            tuples = sum(len(v) for v in json.loads(export.read_text(encoding="utf-8")).values())
            verdict = "DIFFERENT" if found else "identical"
            print(
                f"{job}: {tuples:,} tuples, {len(exact)} systems; report, raw scores and "
                f"unrounded values {verdict}"
            )
            for system, values in exact.items():
                print(
                    f"   {system:<9} P {values['precision']!r} R {values['recall']!r} "
                    f"F1 {values['f1']!r}"
                )
        spawner.close()

    own = spawner.peak_mib
    print(
        f"\n{args.repeat} timed runs each; {os.cpu_count()} CPUs; load "
        f"{os.getloadavg()[0]:.2f}; the spawner's peak RSS {own:.1f} MiB\n"
    )
    print(f"{'job':<12} {'scorer':<8} {'median s':>9} {'min s':>7} {'CPU s':>7} {'peak MiB':>9}")
    for job, runs in results:
        for name, rs in runs.items():
            rss = max(r.rss_mib for r in rs)
            mark = "*" if rss <= own + 0.5 else " "
            print(
                f"{job:<12} {name:<8} {statistics.median(r.wall for r in rs):>9.3f} "
                f"{min(r.wall for r in rs):>7.3f} {statistics.median(r.cpu for r in rs):>7.3f} "
                f"{rss:>9.1f}{mark}"
            )
    print("* not above the spawner's own peak RSS: an upper bound only")
    for job, runs in results:
        wall = statistics.median(r.wall for r in runs["original"]) / statistics.median(
            r.wall for r in runs["ours"]
        )
        memory = max(r.rss_mib for r in runs["ours"]) / max(r.rss_mib for r in runs["original"])
        print(f"{job:<12} ours {wall:5.2f}x the original's speed, {memory:.2f}x its memory")
    if problems:
        print("\n" + "\n".join(problems), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
