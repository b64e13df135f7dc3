"""Time and memory of LSOIE's own scorer against ``python -m
benchie_cli.benchmarks.lsoie.metric`` on the same files, and a check that both write
identical curves, identical to the published ones where those exist.

The inputs are the system outputs large-scale-oie ships (``oie-evaluation/systems_output/``),
scored against the gold with syntactic heads (``oie_corpus/*.oie.correct.head``), each pair
as the repository's scripts pair them (``science_new_eval.sh`` for ``sci``,
``paper_eval.sh`` for ``wiki``). The original prints nothing but its curve, so the check
compares the ``.dat`` files byte for byte: ours against the original's, and, for ``sci``,
against the published ``oie-evaluation/science_new_eval/*.dat`` (no ``wiki`` curve is
published). A mismatch exits with status 1.

The shipped ``oie-evaluation/benchmark.py`` cannot run as it is, and it is not the scorer
that made the published curves (docs/lsoie.md). This script applies, to a temporary copy of
``oie-evaluation/``, the six repairs that make it run (R1-R6) and the three changes that
make it the scorer of the published curves (C1-C3), each checked to apply exactly once:

* R1, R2: the usage pattern offers ``--tabbed=TABBED_OIE`` and is followed by a blank line
  (docopt reads the usage up to one);
* R3, R4: the tab reader is imported and ``--tabbed`` reads the file with it;
* R5: the matcher is called with the sentence first, as its signature wants;
* R6: the conjunction-splitting attribute, which this ``Extraction`` lacks, defaults to
  false;
* C1: a gold sentence without prediction adds its ``n`` extractions once per extraction;
* C2: a prediction a gold extraction took is not offered to the next one;
* C3: the curve is written without its last point (precision 1, recall 0).

The original needs Python 2.7 with scikit-learn 0.18 and its dependencies, docopt 0.6.2,
pandas 0.19.0 (``oie_readers/extraction.py`` imports it; ``requirements.txt`` pins it; its
dates and time zones pinned to releases of its time, not the newest pip picks) and
NLTK 3.2.5 (``matcher.py`` imports ``nltk.parse.CoreNLPParser``, which the 3.2.1 of
``requirements.txt`` lacks), and NLTK's English stopwords list, which ``matcher.py`` loads at
import though the head matcher never uses it::

    $(pyenv root)/versions/2.7.18/bin/python -m virtualenv /tmp/lsoie-venv
    /tmp/lsoie-venv/bin/pip install numpy==1.11.2 scipy==0.18.1 scikit-learn==0.18 \\
        nltk==3.2.5 docopt==0.6.2 pandas==0.19.0 python-dateutil==2.8.2 pytz==2016.7
    git clone https://github.com/Jacobsolawetz/large-scale-oie /tmp/large-scale-oie
    python perf/bench_lsoie.py --large-scale-oie /tmp/large-scale-oie \\
        --python /tmp/lsoie-venv/bin/python --nltk-data /tmp/nltk_data

The original runs with ``PYTHONHASHSEED=0`` (Python 2's default: its curves depend on the
order of its dicts). Every run is a whole process, timed by ``bench_carb.py``'s spawner.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_carb import Run, Spawner

REPO = Path(__file__).resolve().parent.parent


class Job(NamedTuple):
    split: str
    curve: str  # the .dat the repository's script writes
    system: str  # file in systems_output/


GOLD = {"sci": "science_eval.oie.correct.head", "wiki": "eval.oie.correct.head"}
JOBS = (
    Job("sci", "crf_noscience", "ls_long_sort_orig_qdist_old_model_crf_on_science.txt"),
    Job("sci", "crf_science", "ls_long_sort_orig_qdist_old_model_crf_science_on_science.txt"),
    Job("sci", "qdist_noscience", "ls_long_sort_orig_qdist_old_model_on_science.txt"),
    Job("sci", "qdist_science", "ls_long_sort_orig_qdist_old_model_science_on_science.txt"),
    Job("sci", "srl_bert_noscience", "srl_bert_no_science_on_science.txt"),
    Job("sci", "srl_bert_oie2016", "srl_bert_oie2016_on_science.txt"),
    Job("sci", "srl_bert_science", "srl_bert_science_on_science.txt"),
    Job("sci", "rnnoie", "classic_full_run_on_science.txt"),
    Job("wiki", "crf_model_conf", "crf_model_conf.txt"),
    Job("wiki", "srl_bert_oie2016_new_conf", "srl_bert_oie2015_new_conf.txt"),
    Job("wiki", "srl_bert_no_science_new_conf", "srl_bert_noscience_new_conf.txt"),
    Job("wiki", "rnnoie_new_conf", "rnnoie_new_conf.txt"),
    Job("wiki", "qdist_new_conf", "qdist_new_conf.txt"),
)

#: (what it does, the text to find, its replacement): each must occur exactly once.
EDITS = (
    ("R1, R2", "--props=PROPS_OIE)\n", "--props=PROPS_OIE | --tabbed=TABBED_OIE)\n\n"),
    (
        "R3",
        "from oie_readers.propsReader import PropSReader\n",
        "from oie_readers.propsReader import PropSReader\n"
        "from oie_readers.tabReader import TabReader\n",
    ),
    (
        "R4",
        "    b = Benchmark(args['--gold'])\n",
        "    if args['--tabbed']:\n"
        "        predicted = TabReader()\n"
        "        predicted.read(args['--tabbed'])\n\n"
        "    b = Benchmark(args['--gold'])\n",
    ),
    ("R5", "matchingFunc(goldEx,", "matchingFunc(sent, goldEx,"),
    (
        "R6",
        "if predictedEx.splits_conjunctions:",
        "if getattr(predictedEx, 'splits_conjunctions', False):",
    ),
    (
        "C1",
        "                unmatchedCount += len(goldExtractions)\n"
        "                correctTotal += len(goldExtractions)\n",
        "                for goldEx in goldExtractions:\n"
        "                    unmatchedCount += len(goldExtractions)\n"
        "                    correctTotal += len(goldExtractions)\n",
    ),
    (
        "C2",
        "                for predictedEx in predictedExtractions:\n",
        "                for predictedEx in predictedExtractions:\n"
        "                    if output_fn in predictedEx.matched:\n"
        "                        continue\n",
    ),
    ("C3", "sorted(zip(p, r),", "sorted(zip(p[:-1], r[:-1]),"),
)


def prepare(evaluation: Path, target: Path) -> Path:
    """A copy of the scorer's files (``benchmark.py``, ``matcher.py``, ``oie_readers/``)
    with :data:`EDITS` applied; its ``benchmark.py``."""
    target.mkdir()
    shutil.copy(evaluation / "matcher.py", target)
    shutil.copytree(evaluation / "oie_readers", target / "oie_readers")
    text = (evaluation / "benchmark.py").read_text("utf-8")
    for what, old, new in EDITS:
        if text.count(old) != 1:
            sys.exit(f"{what}: {old.strip()!r} is not once in benchmark.py: another version?")
        text = text.replace(old, new)
    (target / "benchmark.py").write_text(text, "utf-8")
    return target / "benchmark.py"


def summary(runs: list[Run]) -> str:
    wall = statistics.median(r.wall for r in runs)
    cpu = statistics.median(r.cpu for r in runs)
    rss = max(r.rss_mib for r in runs)
    return f"wall {wall:6.3f} s  CPU {cpu:6.3f} s  peak RSS {rss:6.1f} MiB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--large-scale-oie", type=Path, required=True, help="its checkout")
    parser.add_argument("--python", required=True, help="the Python 2.7 that runs it")
    parser.add_argument("--nltk-data", default=os.environ.get("NLTK_DATA"), help="NLTK_DATA")
    parser.add_argument(
        "--gold-dir", type=Path, help="the *.oie.correct.head files (default: the checkout's)"
    )
    parser.add_argument("--split", choices=("sci", "wiki"), help="one split only")
    parser.add_argument("systems", nargs="*", help="curve names (default: all)")
    venv = REPO / ".venv" / "bin" / "python"
    parser.add_argument(
        "--our-python",
        default=str(venv) if venv.is_file() else sys.executable,
        help="the Python with benchie_cli installed (default: the checkout's .venv)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per job")
    args = parser.parse_args()
    evaluation = args.large_scale_oie.resolve() / "oie-evaluation"
    if not (evaluation / "benchmark.py").is_file():
        sys.exit(f"{evaluation} has no benchmark.py: give the large-scale-oie checkout")
    if not args.nltk_data:
        sys.exit("give --nltk-data (or set NLTK_DATA): matcher.py loads the stopwords list")
    gold_dir = (args.gold_dir or evaluation / "oie_corpus").resolve()
    jobs = [
        j
        for j in JOBS
        if (args.split in (None, j.split)) and (not args.systems or j.curve in args.systems)
    ]
    unknown = set(args.systems) - {j.curve for j in JOBS}
    if unknown:
        sys.exit(f"unknown curve(s): {', '.join(sorted(unknown))}")

    with tempfile.TemporaryDirectory(prefix="bench-lsoie-") as tmp_name:
        tmp = Path(tmp_name)
        script = prepare(evaluation, tmp / "scorer")
        env = {
            "PATH": os.environ.get("PATH", ""),
            "NLTK_DATA": str(args.nltk_data),
            "PYTHONHASHSEED": "0",
            **{k: os.environ[k] for k in ("PYTHONUSERBASE",) if k in os.environ},
        }
        spawner = Spawner(tmp)
        failures = []
        try:
            for job in jobs:
                gold = gold_dir / GOLD[job.split]
                system = evaluation / "systems_output" / job.system
                theirs, ours = tmp / f"{job.curve}.original.dat", tmp / f"{job.curve}.ours.dat"
                original = [args.python, str(script), f"--gold={gold}", f"--out={theirs}"]
                original = [*original, f"--tabbed={system}"]
                # benchmark.py imports its readers from its own directory: run it from there
                original = ["/bin/sh", "-c", f'cd "{script.parent}" && exec "$@"', "sh", *original]
                mine = [args.our_python, "-m", "benchie_cli.benchmarks.lsoie.metric"]
                mine += [str(gold), str(system), str(ours)]
                runs: dict[str, list[Run]] = {"original": [], "ours": []}
                for repeat in range(args.repeat + 1):
                    for name, argv in (("original", original), ("ours", mine)):
                        run = spawner.run(argv, env | {"PYTHONPATH": str(REPO)})
                        if repeat:  # the first run of each is untimed
                            runs[name].append(run)
                same = theirs.read_bytes() == ours.read_bytes()
                published = evaluation / "science_new_eval" / f"{job.curve}.dat"
                as_published: bool | None = None
                if job.split == "sci":
                    as_published = ours.read_bytes() == published.read_bytes()
                if not same or as_published is False:
                    failures.append(job.curve)
                rows = ours.read_bytes().count(b"\n") - 1
                said = (
                    ""
                    if as_published is None
                    else f"; to the published science_new_eval/{job.curve}.dat: {as_published}"
                )
                print(
                    f"{job.split} {job.curve}: {rows} rows; identical to the original's: "
                    f"{same}{said}"
                )
                for name, rs in runs.items():
                    print(f"  {name:8} {summary(rs)}")
                speed = statistics.median(r.wall for r in runs["original"]) / statistics.median(
                    r.wall for r in runs["ours"]
                )
                print(f"  speed-up (median wall): {speed:.1f}x")
        finally:
            spawner.close()
    if failures:
        sys.exit(f"curves differ: {', '.join(failures)}")


if __name__ == "__main__":
    main()
