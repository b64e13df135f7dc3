"""Time and memory of DocOIE's own scorer (its ``benchmark/carb.py``, run unchanged) against
``benchie score --benchmark docoie`` on the same files, and a check that both print identical
numbers.

The check compares, for every system file, the line the original prints (its AUC, optimal
precision, recall and F1, and Zero Conf point, every digit) with the line the report records
(``systems[0].docoie.docoie.printed``). A mismatch exits with status 1. Then each scorer runs
``--repeat`` times, alternating; every run is a whole process (interpreter, imports, reading,
scoring, writing), measured as in ``bench_carb.py``: wall and CPU time, peak RSS of the child.

DocOIE has no licence file: its gold and any system output stay outside this repository. The
gold is read from a gold directory DocOIE's files were added to (``benchie benchmark add
docoie ...``), so both scorers read the same bytes: a TSV split's ``extractions.tsv`` as it
is; a JSON split's file converted to the CaRB gold lines DocOIE's scorer reads, by
``benchie_cli.benchmarks.docoie.metric.json_lines`` (docs/docoie.md), once, untimed. The
original needs Python 3.7 with its ``requirements.txt`` pins (numpy 1.17.4, scipy 1.4.1,
scikit-learn 0.22, nltk 3.4.5, docopt 0.6.2, ipdb 0.12.3, ipython 7.10.2)::

    ~/.pyenv/versions/3.7.16/bin/python -m venv /tmp/docoie-venv
    /tmp/docoie-venv/bin/pip install numpy==1.17.4 scipy==1.4.1 scikit-learn==0.22 \\
        nltk==3.4.5 docopt==0.6.2 ipdb==0.12.3 ipython==7.10.2
    git clone https://github.com/daviddongkc/DocOIE /tmp/docoie
    python perf/bench_docoie.py --docoie /tmp/docoie --python /tmp/docoie-venv/bin/python \\
        --gold-dir ~/benchie-gold --split healthcare --system out1.txt --system out2.txt

A system file is DocOIE's model output, the tagged lines of ``carb.py --allennlp``. The
original imports ``benchmark.*``, so it runs from the checkout's root, as DocOIE's shell
scripts run it. Its ``matcher.py`` loads NLTK's English stop words when imported, though the
default match never uses them: the children see ``NLTK_DATA`` pointing at a stand-in.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_carb import Run, Spawner

REPO = Path(__file__).resolve().parent.parent
SPLITS = ("healthcare", "transportation", "healthcare-json", "transportation-json")


def gold_file(gold_dir: Path, split: str) -> Path:
    """The split's gold file in a gold directory DocOIE's files were added to."""
    found = sorted((gold_dir / "docoie" / split).glob(f"*/{split}/*"))
    if not found:
        sys.exit(f"{gold_dir} has no docoie {split} gold: add it with `benchie benchmark add`")
    return found[-1]


def original_gold(gold: Path, tmp: Path) -> Path:
    """The gold as DocOIE's scorer reads it: the TSV, or the JSON's CaRB gold lines."""
    if gold.suffix != ".json":
        return gold
    from benchie_cli.benchmarks.docoie.metric import json_lines

    converted = tmp / "gold.tsv"
    converted.write_text("".join(json_lines(str(gold), gold.read_text("utf-8"))), "utf-8")
    return converted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docoie", type=Path, required=True, help="a DocOIE checkout")
    parser.add_argument("--python", required=True, help="a Python that runs the original")
    venv = REPO / ".venv" / "bin"
    parser.add_argument(
        "--benchie",
        default=str(venv / "benchie") if (venv / "benchie").is_file() else "benchie",
        help="the benchie command (default: the checkout's .venv)",
    )
    parser.add_argument("--gold-dir", type=Path, required=True)
    parser.add_argument("--split", choices=SPLITS, required=True)
    parser.add_argument("--system", type=Path, action="append", required=True)
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per job")
    args = parser.parse_args()
    checkout = args.docoie.resolve()
    if not (checkout / "benchmark" / "carb.py").is_file():
        sys.exit(f"{checkout} has no benchmark/carb.py: give a DocOIE checkout with --docoie")

    with tempfile.TemporaryDirectory(prefix="bench-docoie-") as tmp_name:
        tmp = Path(tmp_name)
        gold = original_gold(gold_file(args.gold_dir.resolve(), args.split), tmp)
        nltk = tmp / "nltk_data" / "corpora" / "stopwords"
        nltk.mkdir(parents=True)
        (nltk / "english").write_text("a\nan\nthe\n")
        env = {**os.environ, "NLTK_DATA": str(tmp / "nltk_data"), "PYTHONWARNINGS": "ignore"}
        spawner = Spawner(tmp)
        problems: list[str] = []
        results = []
        for system in args.system:
            job = f"{args.split}/{system.name}"
            # The original runs from the checkout's root (it imports `benchmark.*`): the
            # spawner has no cwd, so a shell changes into it.
            original_cmd = [
                "/bin/sh",
                "-c",
                'cd "$0" && exec "$1" benchmark/carb.py --gold="$2" --allennlp="$3" --out "$4"',
                str(checkout),
                args.python,
                str(gold),
                str(system.resolve()),
                str(tmp / "curve.dat"),
            ]
            report = tmp / "report.json"
            ours_cmd = [
                args.benchie,
                "score",
                "--benchmark",
                "docoie",
                "--split",
                args.split,
                "--gold-dir",
                str(args.gold_dir.resolve()),
                "--input-format",
                "allennlp",
                "-o",
                str(report),
                str(system.resolve()),
            ]
            printed_orig = spawner.run(original_cmd, env).stdout.strip()
            spawner.run(ours_cmd, env)
            doc = json.loads(report.read_text("utf-8"))
            printed_ours = doc["systems"][0]["docoie"]["docoie"]["printed"]
            if printed_orig != printed_ours:
                problems.append(f"{job}: the original prints {printed_orig!r}, we {printed_ours!r}")
            runs: dict[str, list[Run]] = {"original": [], "ours": []}
            for _ in range(args.repeat):
                runs["original"].append(spawner.run(original_cmd, env))
                runs["ours"].append(spawner.run(ours_cmd, env))
            results.append((job, runs))
            lines = sum(1 for _ in system.open("rb"))
            verdict = "identical" if printed_orig == printed_ours else "DIFFERENT"
            print(f"{job}: {lines:,} lines; printed numbers {verdict}")
            print("   " + printed_orig)
        spawner.close()

    own = spawner.peak_mib
    print(
        f"\n{args.repeat} timed runs each; {os.cpu_count()} CPUs; load "
        f"{os.getloadavg()[0]:.2f}; the spawner's peak RSS {own:.1f} MiB\n"
    )
    print(f"{'job':<48} {'scorer':<8} {'median s':>9} {'min s':>7} {'CPU s':>7} {'peak MiB':>9}")
    for job, runs in results:
        for scorer, rs in runs.items():
            rss = max(r.rss_mib for r in rs)
            mark = "*" if rss <= own + 0.5 else " "
            print(
                f"{job:<48} {scorer:<8} {statistics.median(r.wall for r in rs):>9.3f} "
                f"{min(r.wall for r in rs):>7.3f} {statistics.median(r.cpu for r in rs):>7.3f} "
                f"{rss:>9.1f}{mark}"
            )
    for job, runs in results:
        wall = statistics.median(r.wall for r in runs["original"]) / statistics.median(
            r.wall for r in runs["ours"]
        )
        memory = max(r.rss_mib for r in runs["ours"]) / max(r.rss_mib for r in runs["original"])
        print(f"{job:<48} ours {wall:5.1f}x faster, {memory:.2f}x the memory")
    if problems:
        print("\n" + "\n".join(problems), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
