"""Multilingual CaRB as dair-iitd/moie scores it (``code/carb/carb.py``, run unchanged) against
``benchie score --benchmark carb --lang L`` on moie's own system outputs, every printed
digit compared, and the time of each.

For each language moie ships an output of its model for (``outputs/<lang>_test.output.carb``:
OpenIE6's tagged lines, log-probability confidences) and each mode it reports, CaRB (s,m)
(``--metric carb``) and CaRB (s,s) (``carb.py --single_match``, ``--metric carb-ss``), the
check compares what the original prints, ``Num Final Sentences =  N`` and the line of its
AUC, optimal and Zero Conf points (4 decimals), with the same lines made from benchie's
report (its unrounded numbers rounded as numpy rounds them; ``gold.gold_sentences``). The
curve the original writes (``--out``) is compared byte for byte with the one
``python -m benchie_cli.benchmarks.carb.metric --moie`` writes, which also prints the numbers
of English: ``benchie score --lang en`` scores English by CaRB's own rules, not moie's, so
English is checked through the metric's module (the same code, ``moie=True``) only.
Then the original and ``benchie score`` each run ``--repeat`` times, alternating; every run
is a whole process, measured as in ``bench_carb.py``: wall and CPU time, peak RSS.

moie has no licence: its checkout, and the gold store its gold was added to, stay outside
this repository. The original needs Python 3.6 with the pins of ``code/carb/requirements.txt``
(numpy 1.16.0, scikit-learn 0.23.0 with scipy 0.19.1, docopt 0.6.2, and ipdb, which it
imports)::

    ~/.pyenv/versions/3.6.15/bin/python -m venv /tmp/moie-venv
    /tmp/moie-venv/bin/pip install numpy==1.16.0 scipy==0.19.1 scikit-learn==0.23.0 \\
        docopt==0.6.2 ipdb
    git clone https://github.com/dair-iitd/moie /tmp/moie
    cd /tmp/moie/code/carb/data && benchie benchmark add carb gold/es_test.tsv \\
        es_test.input ... --gold-dir /tmp/moie-gold      # every language, as in docs/carb.md
    python perf/bench_moie.py --moie /tmp/moie --python /tmp/moie-venv/bin/python \\
        --gold-dir /tmp/moie-gold

The gold directory must hold CaRB's shipped English gold too (``gold/carb/1.0.0``, for
nothing but the ``score`` of the timing). The original runs from ``code/`` with the
relative paths moie's ``genoie_evaluate.sh`` gives, under a UTF-8 locale (Python 3.6 reads
its files in the locale's encoding).
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
LANGUAGES = ("en", "es", "pt", "hi", "te", "zh")
#: (benchie's metric, the original's extra arguments) of each mode.
MODES = {"sm": ("carb", []), "ss": ("carb-ss", ["--single_match"])}
LINE = "AUC: {}\t Optimal (precision, recall, F1): {}\tZero Conf (precision, recall, F1): {}"


def rounded(value: float | None) -> str:
    """A number as the original prints it: ``numpy.round(value, 4)``'s repr (the shortest
    that reads back), ``nan`` for an F1 of 0/0."""
    if value is None:
        return "nan"
    return repr(round(value * 10000.0) / 10000.0)


def printed(numbers: dict[str, object], gold_sentences: int) -> str:
    """The two lines the original prints, from benchie's unrounded numbers: the AUC of a
    one-point curve is moie's integer 0."""
    keys = ("precision", "recall", "f1")
    auc = "0" if numbers["points"] == 1 else rounded(numbers["auc"])  # type: ignore[arg-type]
    optimal = "(" + ", ".join(rounded(numbers[k]) for k in keys) + ")"  # type: ignore[arg-type]
    zero = "(" + ", ".join(rounded(v) for v in numbers["zero_conf"]) + ")"  # type: ignore[attr-defined]
    return f"Num Final Sentences =  {gold_sentences}\n" + LINE.format(auc, optimal, zero) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moie", type=Path, required=True, help="a dair-iitd/moie checkout")
    parser.add_argument("--python", required=True, help="a Python that runs moie's carb.py")
    parser.add_argument(
        "--gold-dir", type=Path, required=True, help="a gold store with moie's parts added"
    )
    venv = REPO / ".venv" / "bin" / "python"
    parser.add_argument(
        "--our-python",
        default=str(venv) if venv.is_file() else sys.executable,
        help="the Python with benchie_cli installed (default: the checkout's .venv)",
    )
    parser.add_argument("--lang", action="append", choices=LANGUAGES, help="default: all six")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per job")
    args = parser.parse_args()
    code = args.moie.resolve() / "code"
    if not (code / "carb" / "carb.py").is_file():
        sys.exit(f"{code} has no carb/carb.py: give a moie checkout with --moie")
    env = {**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PYTHONWARNINGS": "ignore"}
    problems: list[str] = []
    timed: list[tuple[str, dict[str, list[Run]]]] = []
    with tempfile.TemporaryDirectory(prefix="bench-moie-") as tmp_name:
        tmp = Path(tmp_name)
        spawner = Spawner(tmp)
        for lang in args.lang or LANGUAGES:
            system = args.moie.resolve() / "outputs" / f"{lang}_test.output.carb"
            gold = code / "carb" / "data" / "gold" / f"{lang}_test.tsv"
            for mode, (metric, flags) in MODES.items():
                job = f"{lang} {metric}"
                curves = {who: tmp / f"{lang}-{mode}-{who}.curve" for who in ("original", "ours")}
                original_cmd = [
                    "/bin/sh",
                    "-c",
                    'cd "$0" && exec "$@"',
                    str(code),
                    args.python,
                    "carb/carb.py",
                    "--gold",
                    f"carb/data/gold/{lang}_test.tsv",
                    "--out",
                    str(curves["original"]),
                    "--allennlp",
                    f"../outputs/{lang}_test.output.carb",
                    *flags,
                ]
                module_cmd = [
                    args.our_python,
                    "-m",
                    "benchie_cli.benchmarks.carb.metric",
                    "--moie",
                    *(["--single-match"] if flags else []),
                    str(gold),
                    str(system),
                    "allennlp",
                    str(curves["ours"]),
                ]
                report = tmp / f"{lang}-{mode}.json"
                score_cmd = [
                    args.our_python,
                    "-m",
                    "benchie_cli",
                    "score",
                    "--benchmark",
                    "carb",
                    "--lang",
                    lang,
                    "--metric",
                    metric,
                    "--input-format",
                    "allennlp",
                    "--gold-dir",
                    str(args.gold_dir),
                    str(system),
                    "-o",
                    str(report),
                ]
                theirs = spawner.run(original_cmd, env).stdout
                module = json.loads(spawner.run(module_cmd, env).stdout)
                ours = printed(module, module["gold_sentences"])
                how = "benchie_cli.benchmarks.carb.metric --moie"
                if lang != "en":
                    spawner.run(score_cmd, env)
                    doc = json.loads(report.read_text())
                    ours_score = printed(doc["systems"][0][metric], doc["gold"]["gold_sentences"])
                    if ours_score != ours:
                        problems.append(
                            f"{job}: benchie score prints {ours_score!r}, {how} {ours!r}"
                        )
                    how = "benchie score"
                found = []
                if theirs != ours:
                    found.append(f"{job}: the original prints {theirs!r}, {how} {ours!r}")
                if curves["original"].read_bytes() != curves["ours"].read_bytes():
                    found.append(f"{job}: the curve files differ")
                problems += found
                verdict = "DIFFERENT" if found else "identical"
                print(f"{job}: printed numbers ({how}) and curve {verdict}")
                print("   " + theirs.strip().replace("\n", "\n   "))
                if lang != "en":
                    runs: dict[str, list[Run]] = {"original": [], "benchie": []}
                    for _ in range(args.repeat):
                        runs["original"].append(spawner.run(original_cmd, env))
                        runs["benchie"].append(spawner.run(score_cmd, env))
                    timed.append((job, runs))
        spawner.close()

    own = spawner.peak_mib
    print(
        f"\n{args.repeat} timed runs each; {os.cpu_count()} CPUs; load "
        f"{os.getloadavg()[0]:.2f}; the spawner's peak RSS {own:.1f} MiB\n"
    )
    print(f"{'job':<12} {'scorer':<9} {'median s':>9} {'min s':>7} {'CPU s':>7} {'peak MiB':>9}")
    for job, runs in timed:
        for scorer, rs in runs.items():
            print(
                f"{job:<12} {scorer:<9} {statistics.median(r.wall for r in rs):>9.3f} "
                f"{min(r.wall for r in rs):>7.3f} {statistics.median(r.cpu for r in rs):>7.3f} "
                f"{max(r.rss_mib for r in rs):>9.1f}"
            )
    for job, runs in timed:
        wall = statistics.median(r.wall for r in runs["original"]) / statistics.median(
            r.wall for r in runs["benchie"]
        )
        print(f"{job:<12} benchie score {wall:5.1f}x faster")
    if problems:
        print("\n" + "\n".join(problems), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
