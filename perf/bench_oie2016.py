"""Time and memory of oie-benchmark's own scorer (OIE2016) against ``python -m
benchie_cli.benchmarks.oie2016.metric`` on the same files, and a check that both write identical
curves.

The inputs are the published system outputs of ClausIE, OpenIE 4 and PropS
(``tests/data/oie2016/``), scored against the OIE2016 corpus without pronoun arguments, all
three splits concatenated as ``eval.sh`` scores ``oie_corpus/all.oie`` (dev, train, test;
``gold/oie2016/2.0.0/``). The original prints nothing but its curve (``--out``), so the
check compares the two ``.dat`` files byte for byte: every digit the original writes. It
also compares ours with the published ``eval/*.dat``. A mismatch exits with status 1.

Every run is a whole process: interpreter start-up, imports, reading, scoring, writing the
curve. Wall time, CPU (user + system) and peak RSS (``ru_maxrss``) come from the spawner of
``bench_carb.py``, a small long-lived process that starts each child, so that the children do
not inherit this script's high-water RSS. Each scorer runs once per input untimed first.

The original needs Python 2.7 with its pinned packages and NLTK's WordNet
(docs/oie2016.md)::

    $(pyenv root)/versions/2.7.18/bin/python -m virtualenv /tmp/oie2016-venv
    /tmp/oie2016-venv/bin/pip install numpy==1.11.2 scipy==0.18.1 scikit-learn==0.18 \\
        nltk==3.2.1 docopt==0.6.2
    git clone https://github.com/gabrielStanovsky/oie-benchmark /tmp/oie-benchmark
    python perf/bench_oie2016.py --oie-benchmark /tmp/oie-benchmark \\
        --python /tmp/oie2016-venv/bin/python --nltk-data /tmp/oie2016-nltk_data

``--nltk-data`` (default: ``$NLTK_DATA``) must hold ``corpora/wordnet`` (WordNet 3.0) and
``corpora/stopwords/english``, which ``matcher.py`` loads at import though its matcher never
uses it. ``matcher.py`` also calls ``nltk.download('wordnet')``; without a network that only
prints an error.
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_carb import Run, Spawner

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data" / "oie2016"
CORPUS = REPO / "gold" / "oie2016" / "2.0.0"


class Job(NamedTuple):
    name: str
    output: str  # file in DATA
    flag: str  # benchmark.py's option
    fmt: str  # our format name
    published: str  # file in DATA


JOBS = (
    Job("ClausIE", "clausie_output.txt.gz", "--clausie", "clausie", "ClausIE.dat.gz"),
    Job("OpenIE-4", "openie4_output.txt.gz", "--openiefour", "openie4", "OpenIE-4.dat.gz"),
    Job("PropS", "props_output.txt.gz", "--props", "props", "PropS.dat.gz"),
)


def unpack(source: Path, target: Path) -> Path:
    """``source`` decompressed to ``target``: the original reads plain text only."""
    target.write_bytes(gzip.decompress(source.read_bytes()))
    return target


def summary(runs: list[Run]) -> str:
    wall = statistics.median(r.wall for r in runs)
    cpu = statistics.median(r.cpu for r in runs)
    rss = max(r.rss_mib for r in runs)
    return f"wall {wall:6.3f} s  CPU {cpu:6.3f} s  peak RSS {rss:6.1f} MiB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--oie-benchmark", type=Path, required=True, help="an oie-benchmark tree")
    parser.add_argument("--python", required=True, help="the Python 2.7 that runs it")
    parser.add_argument("--nltk-data", default=os.environ.get("NLTK_DATA"), help="NLTK_DATA")
    venv = REPO / ".venv" / "bin" / "python"
    parser.add_argument(
        "--our-python",
        default=str(venv) if venv.is_file() else sys.executable,
        help="the Python with benchie_cli installed (default: the checkout's .venv)",
    )
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="dev/ test/ train/ folders")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per job")
    args = parser.parse_args()
    tree = args.oie_benchmark.resolve()
    if not (tree / "benchmark.py").is_file():
        sys.exit(f"{tree} has no benchmark.py: give oie-benchmark's tree with --oie-benchmark")
    if not args.nltk_data:
        sys.exit("give --nltk-data (or set NLTK_DATA): the original needs WordNet")

    with tempfile.TemporaryDirectory(prefix="bench-oie2016-") as tmp_name:
        tmp = Path(tmp_name)
        gold = tmp / "all.oie"
        gold.write_bytes(
            b"".join((args.corpus / s / f"{s}.oie").read_bytes() for s in ("dev", "train", "test"))
        )
        env = {"PATH": os.environ.get("PATH", ""), "NLTK_DATA": str(args.nltk_data)}
        spawner = Spawner(tmp)
        failures = []
        try:
            for job in JOBS:
                system = unpack(DATA / job.output, tmp / job.output.removesuffix(".gz"))
                theirs, ours = tmp / f"{job.name}.original.dat", tmp / f"{job.name}.ours.dat"
                original = [args.python, str(tree / "benchmark.py"), f"--gold={gold}"]
                original += [f"--out={theirs}", f"{job.flag}={system}"]
                # benchmark.py imports its readers from its own directory: run it from there
                original = ["/bin/sh", "-c", f'cd "{tree}" && exec "$@"', "sh", *original]
                mine = [args.our_python, "-m", "benchie_cli.benchmarks.oie2016.metric"]
                mine += [str(gold), str(system), job.fmt, str(ours)]
                runs: dict[str, list[Run]] = {"original": [], "ours": []}
                for repeat in range(args.repeat + 1):
                    for name, argv in (("original", original), ("ours", mine)):
                        run = spawner.run(argv, env | {"PYTHONPATH": str(REPO)})
                        if repeat:  # the first run of each is untimed
                            runs[name].append(run)
                published = gzip.decompress((DATA / job.published).read_bytes())
                same = theirs.read_bytes() == ours.read_bytes()
                as_published = ours.read_bytes() == published
                if not (same and as_published):
                    failures.append(job.name)
                rows = ours.read_bytes().count(b"\n") - 1
                print(
                    f"{job.name}: {rows} rows; identical to the original's: {same}; "
                    f"to the published eval/{job.published.removesuffix('.gz')}: {as_published}"
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
