"""Time and memory of supervised-oie's copy of the OIE2016 scorer (as it stood before July
2019) against benchie's ``oie2016-2018`` benchmark on the same files, and a check that both
give the same curves and numbers.

The inputs are the system outputs of supervised-oie's figure ``joint`` (ClausIE, OpenIE 4,
PropS, RnnOIE, Clean: ``tests/data/oie2016-2018/``), scored against its
``oie_corpus/test.oie.orig`` (``gold/oie2016-2018/1.0.0/``) with ``--tabbed``, as
``generate_figures.sh`` scores them. For each, the original ``benchmark.py`` runs unchanged;
benchie runs twice, as ``python -m benchie_cli.benchmarks.oie2016_2018.metric`` (which
writes the curve as the original does) and as ``benchie score --metric oie2016-2018`` (the
report). The check: the two ``.dat`` files are identical byte for byte (and equal to the
published one), the original's logged ``AUC:`` and optimum are benchie's ``auc_logged`` and
optimum to every printed digit, and benchie's ``auc`` prints (``%.12g``) the published
``auc.dat`` value. A mismatch exits with status 1.

Every run is a whole process (start-up, imports, reading, scoring, writing), timed by the
spawner of ``bench_carb.py``; each command runs once untimed first.

The original needs Python 2.7 with the pins of ``supervised-oie-benchmark/requirements.txt``
(docs/oie2016-2018.md)::

    $(pyenv root)/versions/2.7.18/bin/python -m virtualenv /tmp/soie-venv
    /tmp/soie-venv/bin/pip install numpy==1.11.2 scipy==0.18.1 scikit-learn==0.18 \\
        nltk==3.2.1 docopt==0.6.2
    git clone https://github.com/gabrielStanovsky/supervised-oie /tmp/supervised-oie
    python perf/bench_oie2016_2018.py /tmp/supervised-oie /tmp/soie-venv/bin/python

``matcher.py`` reads NLTK's English stopwords at import, though its lexical matcher never
uses them: ``--nltk-data`` (default: ``$NLTK_DATA``, else an empty placeholder made in a
temporary directory) must hold ``corpora/stopwords/english``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import statistics
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_carb import Run, Spawner

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data" / "oie2016-2018"
GOLD = REPO / "gold" / "oie2016-2018" / "1.0.0" / "test" / "test.oie.orig"


class Job(NamedTuple):
    name: str  # the figure's name (auc.dat, <name>.dat)
    output: str  # file in DATA


JOBS = (
    Job("ClausIE", "clausie_test.txt.gz"),
    Job("OpenIE-4", "openie4_test.txt.gz"),
    Job("PropS", "props_test.txt.gz"),
    Job("RnnOIE", "joint.txt.gz"),
    Job("Clean", "clean_3.txt.gz"),
)

#: benchmark.py's log: ``AUC: <str>`` and the optimum tuple of numpy float reprs.
_LOGGED = re.compile(r"AUC: (\S+)\n Optimal \(precision, recall, F1, threshold\): \((.*)\)")


def summary(runs: list[Run]) -> str:
    wall = statistics.median(r.wall for r in runs)
    cpu = statistics.median(r.cpu for r in runs)
    rss = max(r.rss_mib for r in runs)
    return f"wall {wall:6.3f} s  CPU {cpu:6.3f} s  peak RSS {rss:6.1f} MiB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path, help="a supervised-oie checkout")
    parser.add_argument("python2", help="the Python 2.7 that runs its scorer")
    parser.add_argument("--nltk-data", default=os.environ.get("NLTK_DATA"), help="NLTK_DATA")
    venv = REPO / ".venv" / "bin"
    parser.add_argument(
        "--our-python",
        default=str(venv / "python") if (venv / "python").is_file() else sys.executable,
        help="the Python with benchie_cli installed (default: the checkout's .venv)",
    )
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per command")
    args = parser.parse_args()
    tree = args.checkout.resolve() / "supervised-oie-benchmark"
    if not (tree / "benchmark.py").is_file():
        sys.exit(f"{tree} has no benchmark.py: give a supervised-oie checkout")
    published = dict(
        row.split("\t") for row in (DATA / "auc.dat").read_text("ascii").splitlines()[1:]
    )

    with tempfile.TemporaryDirectory(prefix="bench-oie2016-2018-") as tmp_name:
        tmp = Path(tmp_name)
        nltk_data = args.nltk_data
        if not nltk_data:
            nltk_data = str(tmp / "nltk_data")
            (tmp / "nltk_data" / "corpora" / "stopwords").mkdir(parents=True)
            (tmp / "nltk_data" / "corpora" / "stopwords" / "english").write_bytes(b"")
        env = {"PATH": os.environ.get("PATH", ""), "NLTK_DATA": nltk_data}
        ours_env = env | {"PYTHONPATH": str(REPO)}
        spawner = Spawner(tmp)
        failures = []
        totals: dict[str, list[float]] = {"original": [], "curve": [], "score": []}
        try:
            for job in JOBS:
                system = tmp / job.output.removesuffix(".gz")
                system.write_bytes(gzip.decompress((DATA / job.output).read_bytes()))
                theirs, ours = tmp / f"{job.name}.original.dat", tmp / f"{job.name}.ours.dat"
                report = tmp / f"{job.name}.json"
                original = [args.python2, "benchmark.py", f"--gold={GOLD}", f"--out={theirs}"]
                original += [f"--tabbed={system}"]
                # benchmark.py imports its readers from its own directory: run it from there
                original = ["/bin/sh", "-c", f'cd "{tree}" && exec "$@"', "sh", *original]
                curve = [args.our_python, "-m", "benchie_cli.benchmarks.oie2016_2018.metric"]
                curve += [str(GOLD), str(system), "tabbed", str(ours)]
                score = [args.our_python, "-m", "benchie_cli", "score", "--metric"]
                score += ["oie2016-2018", str(system), "--format", "json", "-o", str(report)]
                runs: dict[str, list[Run]] = {"original": [], "curve": [], "score": []}
                log = ""
                for repeat in range(args.repeat + 1):
                    for name, argv in (("original", original), ("curve", curve), ("score", score)):
                        run = spawner.run(argv, env if name == "original" else ours_env)
                        if name == "original":
                            log = (tmp / "stderr").read_text()
                        if repeat:  # the first run of each is untimed
                            runs[name].append(run)
                numbers = json.loads(report.read_text())["systems"][0]["oie2016-2018"]
                found = _LOGGED.search(log)
                if found is None:
                    sys.exit(f"{job.name}: no AUC line in the original's log:\n{log[-2000:]}")
                optimum = tuple(float(x) for x in found.group(2).split(", "))
                mine = (numbers["precision"], numbers["recall"], numbers["f1"])
                mine += (numbers["confidence"],)
                checks = {
                    "curve identical to the original's": theirs.read_bytes() == ours.read_bytes(),
                    "curve as published": ours.read_bytes()
                    == gzip.decompress((DATA / f"{job.name}.dat.gz").read_bytes()),
                    "logged AUC": f"{numbers['auc_logged']:.12g}" == found.group(1),
                    "logged optimum": mine == optimum,
                    "published AUC": f"{numbers['auc']:.12g}" == published[job.name],
                }
                if not all(checks.values()):
                    failures.append(job.name)
                print(
                    f"{job.name}: AUC {numbers['auc']:.12g} (published {published[job.name]}), "
                    f"logged {found.group(1)}; "
                    + ", ".join(f"{k}: {'yes' if v else 'NO'}" for k, v in checks.items())
                )
                for name, rs in runs.items():
                    print(f"  {name:8} {summary(rs)}")
                    totals[name].append(statistics.median(r.wall for r in rs))
                speed = statistics.median(r.wall for r in runs["original"]) / statistics.median(
                    r.wall for r in runs["curve"]
                )
                print(f"  speed-up of the curve command (median wall): {speed:.1f}x")
        finally:
            spawner.close()
    print(
        "all five, sum of medians: "
        + ", ".join(f"{name} {sum(walls):.3f} s" for name, walls in totals.items())
    )
    if failures:
        sys.exit(f"differences: {', '.join(failures)}")


if __name__ == "__main__":
    main()
