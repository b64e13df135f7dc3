"""Time and memory of Re-OIE2016's own scorer (Span_OIE's ``evaluate/evaluate.py``) against
``python -m benchie_cli.benchmarks.reoie2016.metric`` on the same files, and a check that both
compute identical numbers.

The check compares, for every system file: the two lines the original prints (its AUC and
optimal precision, recall, F1 and threshold, every digit), its curve file and its error
file, byte for byte. A mismatch exits with status 1. Then each scorer runs ``--repeat``
times, alternating; every run is a whole process (interpreter, imports, reading, scoring,
writing), measured as in ``bench_carb.py``: wall and CPU time, peak RSS of the child.

Span_OIE has no licence file: its gold and any system output stay outside this repository.
The original needs Python 3.7 with numpy 1.18.1, scipy 1.4.1, scikit-learn 0.22.1 (its
code imports ``sklearn.preprocessing.data``, gone from 0.24) and nltk 3.5::

    ~/.pyenv/versions/3.7.16/bin/python -m venv /tmp/reoie-venv
    /tmp/reoie-venv/bin/pip install numpy==1.18.1 scipy==1.4.1 scikit-learn==0.22.1 \\
        joblib==0.15.1 nltk==3.5
    git clone https://github.com/zhanjunlang/Span_OIE /tmp/span_oie
    python perf/bench_reoie2016.py --span-oie /tmp/span_oie \\
        --python /tmp/reoie-venv/bin/python --system sys1.txt --system sys2.txt

A system file is the scorer's format, ``sentence<TAB>confidence<TAB>predicate<TAB>args``.
``--gold old`` scores against OIE2016.txt instead of Re-OIE2016.json. The original runs in a
temporary copy of ``evaluate/`` (it reads its gold from, and writes ``error.txt`` to, the
working directory). Its ``matcher.py`` loads NLTK's English stop words when imported, though
the lexical match never uses them: the children see ``NLTK_DATA`` pointing at a stand-in.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_carb import Run, Spawner

REPO = Path(__file__).resolve().parent.parent
GOLD_FILES = {"new": "Re-OIE2016.json", "old": "OIE2016.txt"}


def compare(job: str, original: Path, ours: Path, printed: tuple[str, str]) -> list[str]:
    """Differences between the original's outputs (files in ``original``) and ours."""
    problems = []
    if printed[0] != printed[1]:
        problems.append(f"{job}: the original prints {printed[0]!r}, we {printed[1]!r}")
    for name in ("curve.txt", "error.txt"):
        if (original / name).read_bytes() != (ours / name).read_bytes():
            problems.append(f"{job}: {name} differs")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--span-oie", type=Path, required=True, help="a Span_OIE checkout")
    parser.add_argument("--python", required=True, help="a Python that runs the original")
    venv = REPO / ".venv" / "bin" / "python"
    parser.add_argument(
        "--our-python",
        default=str(venv) if venv.is_file() else sys.executable,
        help="the Python with benchie_cli installed (default: the checkout's .venv)",
    )
    parser.add_argument("--system", type=Path, action="append", required=True)
    parser.add_argument("--gold", choices=sorted(GOLD_FILES), default="new")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per job")
    args = parser.parse_args()
    evaluate = args.span_oie.resolve() / "evaluate"
    if not (evaluate / "evaluate.py").is_file():
        sys.exit(f"{evaluate} has no evaluate.py: give a Span_OIE checkout with --span-oie")

    with tempfile.TemporaryDirectory(prefix="bench-reoie-") as tmp_name:
        tmp = Path(tmp_name)
        work = tmp / "evaluate"
        shutil.copytree(evaluate, work)
        gold = work / GOLD_FILES[args.gold]
        nltk = tmp / "nltk_data" / "corpora" / "stopwords"
        nltk.mkdir(parents=True)
        (nltk / "english").write_text("a\nan\nthe\n")
        env = {**os.environ, "NLTK_DATA": str(tmp / "nltk_data"), "PYTHONWARNINGS": "ignore"}
        spawner = Spawner(tmp)
        problems: list[str] = []
        results = []
        for system in args.system:
            job = system.name
            out_orig, out_ours = tmp / "orig", tmp / "ours"
            out_orig.mkdir(exist_ok=True)
            out_ours.mkdir(exist_ok=True)
            # The original runs from `work` (argv[0]'s directory is first on sys.path, and
            # its gold and error file are relative paths): the spawner has no cwd, so a
            # shell changes into it.
            original_cmd = [
                "/bin/sh",
                "-c",
                'cd "$0" && exec "$1" evaluate.py "$2" "$3" "$4" && :',
                str(work),
                args.python,
                args.gold,
                str(system.resolve()),
                str(out_orig / "curve.txt"),
            ]
            ours_cmd = [
                args.our_python,
                "-m",
                "benchie_cli.benchmarks.reoie2016.metric",
                str(gold),
                str(system.resolve()),
                str(out_ours / "curve.txt"),
                str(out_ours / "error.txt"),
            ]
            printed_orig = spawner.run(original_cmd, env).stdout
            shutil.copy(work / "error.txt", out_orig / "error.txt")
            printed_ours = "".join(spawner.run(ours_cmd, env).stdout.splitlines(True)[:2])
            found = compare(job, out_orig, out_ours, (printed_orig, printed_ours))
            problems += found
            runs: dict[str, list[Run]] = {"original": [], "ours": []}
            for _ in range(args.repeat):
                runs["original"].append(spawner.run(original_cmd, env))
                runs["ours"].append(spawner.run(ours_cmd, env))
            results.append((job, runs))
            lines = sum(1 for _ in system.open("rb"))
            verdict = "DIFFERENT" if found else "identical"
            print(f"{job}: {lines:,} lines; printed numbers, curve and error file {verdict}")
            print("   " + printed_orig.strip().replace("\n", "\n   "))
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
        memory = max(r.rss_mib for r in runs["ours"]) / max(r.rss_mib for r in runs["original"])
        print(f"{job:<22} ours {wall:5.1f}x faster, {memory:.2f}x the memory")
    if problems:
        print("\n" + "\n".join(problems), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
