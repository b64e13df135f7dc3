"""CaRB's readers of OLLIE's tab output (``--ollie``) and ReVerb's output (``--reverb``), and
OpenIE6's reader of its tagged lines (``--allennlp``), beside ours: the original scorers and
``benchie`` on the same files, and a check that every number and every curve is identical
(docs/carb.md, "OLLIE, ReVerb and OpenIE6's tagged lines").

For every file, each original that has the format's reader scores it: CaRB's ``carb.py``
(CaRB (s,m); its readers of ``--ollie`` and ``--reverb``) and OpenIE6's ``carb.py`` (CaRB
(s,m), and (s,s) with ``--single_match``; all three readers). Ours scores it with ``python
-m benchie_cli.benchmarks.carb.metric`` (``--single-match`` for (s,s); ``--openie6`` for
OpenIE6's (s,m), whose scorer prints four decimals and a "Zero Conf" point). The check
compares, for every pair:

- the curve files (``--out``) byte for byte: the original's unchanged scorer's, ours, and the
  one written by the unrounded run below;
- the AUC, the optimum (and OpenIE6's "Zero Conf" point) exactly: the original's values
  before it rounds them, from its ``Benchmark.compare`` with ``numpy.round`` disabled;
- every number the original's unchanged scorer prints, rounded as it rounds them.

A file whose sentences are numbered (ReVerb) or named as CaRB's test split names them is also
scored by ``benchie score --benchmark carb --metric carb,carb-ss``, once with its
``--input-format`` and once with ``auto``; both reports must give the original's unrounded
precision, recall, F1, AUC and number of curve points.

The files:

- ``tests/data/carb/readers/``: the hand-made fixtures of ``tests/benchmarks/carb/
  test_carb_readers.py`` (a tiny gold with numbers worked out by hand, and the corner cases
  against CaRB's test gold);
- CaRB's ``system_outputs/test/reverb_output.txt`` (``--carb``, also shipped gzipped as
  ``tests/data/carb/reverb_output.txt.gz``): its lines are numbered by another input than
  CaRB's test sentences (2,968 lines: its column 13 holds each line's text), so it is scored
  with a raw sentences file rebuilt from its own lines (line *n* is the text of its lines
  numbered *n*, blank where none is); and its lines of CaRB's test sentences, renumbered by
  CaRB's ``data/test.txt``, which ``benchie score`` reads too;
- OpenIE 4's output on CaRB's test set (``tests/data/carb/openie4_output.txt.gz``, CaRB's)
  rewritten in each layout with its own confidences (2,600-odd thresholds): as tagged lines
  (a second ``arg2`` as ``<arg3>``, an empty part as a missing tag), as OLLIE's tab output
  (its header, ``None`` or ``Some(...)`` enablers), and its lines of CaRB's test sentences as
  ReVerb lines numbered by ``data/test.txt``;
- with ``--detie``, DetIE's outputs on CaRB's test set (github.com/sberbank-ai/DetIE,
  ``modules/model/evaluation/carb-openie6/systems_output/``): six ``*.allennlp`` files of
  tagged lines and six ``*_output.txt`` files of OLLIE's tab layout, with its header.

The ReVerb reader of both originals cannot run unchanged: it builds its ``Extraction``
without ``head_pred_index``, a required argument, so every ReVerb file makes it raise
``TypeError``. Its runs go through a driver that gives that one argument (-1, as CaRB's OLLIE
reader does) before running the scorer as ``__main__``; nothing else is changed. It reads its
raw sentences from ``./raw_sentences/all.txt``, so it runs in a directory holding them.

The originals' Pythons, as for ``perf/bench_carb.py`` (CaRB: Python 3.8 with numpy 1.19.5,
scipy 1.5.4, scikit-learn 0.23.2, docopt, nltk, ipdb; OpenIE6: Python 3.6.15 with its pins)::

    python perf/bench_carb_readers.py --carb /tmp/carb --carb-python /tmp/carb-venv/bin/python \\
        --openie6-carb /tmp/openie6/carb --openie6-python /tmp/openie6-carb-venv/bin/python \\
        --detie /tmp/DetIE

Either original may be given alone. A difference exits with status 1. ``--json FILE`` writes
every original's unrounded numbers, by file, format and metric.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data" / "carb"
FIXTURES = DATA / "readers"
DETIE_OUTPUTS = Path("modules") / "model" / "evaluation" / "carb-openie6" / "systems_output"

#: The reader of each format in the originals' ``oie_readers``: module, class, arguments
#: (those of the scorers' ``__main__``).
READER_CLASSES = {
    "ollie": ("ollieReader", "OllieReader", {}),
    "reverb": ("reVerbReader", "ReVerbReader", {}),
    "allennlp": ("allennlpReader", "AllennlpReader", {"threshold": None}),
}
#: The scorers' option of each format.
FLAGS = {"ollie": "--ollie", "reverb": "--reverb", "allennlp": "--allennlp"}

#: The one argument ReVerb's reader leaves out (``head_pred_index``), given before the
#: scorer runs: ``argv[1]`` is its ``carb.py``, the rest its arguments.
REVERB_DRIVER = """\
import functools, os, runpy, sys
carb_py = sys.argv[1]
sys.argv = [carb_py, *sys.argv[2:]]
sys.path.insert(0, os.path.dirname(carb_py))
import oie_readers.reVerbReader as reverb
reverb.Extraction = functools.partial(reverb.Extraction, head_pred_index=-1)
runpy.run_path(carb_py, run_name="__main__")
"""

#: The original's ``Benchmark.compare`` with ``numpy.round`` disabled: the unrounded AUC,
#: optimum and (OpenIE6) "Zero Conf" point as JSON, a NaN as null; the curve to ``argv[5]``.
EXACT = """\
import functools, importlib, json, math, sys
carb_dir, fmt, gold, system, out, strategy = sys.argv[1:7]
sys.path.insert(0, carb_dir)
import numpy
import carb
from matcher import Matcher
module, name, kwargs = READERS[fmt]
readers = importlib.import_module("oie_readers." + module)
if fmt == "reverb":
    readers.Extraction = functools.partial(readers.Extraction, head_pred_index=-1)
reader = getattr(readers, name)(**kwargs)
reader.read(system)
numpy.round = lambda value, decimals=0: value
extra = {} if strategy == "carb" else {"strategy": strategy}
result = carb.Benchmark(gold).compare(
    predicted=reader.oie, matchingFunc=Matcher.binary_linient_tuple_match, output_fn=out,
    **extra
)
number = lambda v: None if math.isnan(v) else float(v)
found = {"auc": float(result[0]), "optimal": [number(v) for v in result[1][:3]]}
if len(result) == 3:
    found["zero_conf"] = [number(v) for v in result[2][:3]]
print(json.dumps(found))
""".replace("READERS[fmt]", f"{READER_CLASSES!r}[fmt]")

#: What CaRB's scorer prints, e.g. ``AUC: 0.272  Optimal (precision, recall, F1): [0.563
#: 0.347 0.43 ]``.
PRINTED_CARB = re.compile(
    r"AUC: (\S+)\s+Optimal \(precision, recall, F1\): \[\s*(\S+)\s+(\S+)\s+(\S+)\s*\]"
)
#: What OpenIE6's prints, e.g. ``AUC: 0.2716  Optimal (precision, recall, F1): (0.5634,
#: 0.3474, 0.4298)  Zero Conf (precision, recall, F1): (0.5634, 0.3474, 0.4298)``.
PRINTED_OPENIE6 = re.compile(
    r"AUC: (\S+)\s+Optimal \(precision, recall, F1\): \(([^)]*)\)\s+"
    r"Zero Conf \(precision, recall, F1\): \(([^)]*)\)"
)


@dataclass
class File:
    """One system output to score: its format, the gold it is scored against, the raw
    sentences its lines are numbered by (ReVerb), and whether ``benchie score --benchmark
    carb`` scores it too (its sentences are CaRB's test split's, numbered by ``data/test.txt``
    for ReVerb)."""

    name: str
    fmt: str
    path: Path
    gold: Path
    raw: Path | None = None
    cli: bool = False
    #: Whether ``--input-format auto`` detects it (ReVerb's lines are detected by
    #: ``benchie_cli.inputs.native``, which wants 13 columns and numbers of digits only).
    auto: bool = True
    found: dict[str, dict[str, object]] = field(default_factory=dict)
    #: The sha256 of the original's curve file, by metric.
    curves: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Original:
    name: str  # CaRB or OpenIE6
    directory: Path
    python: str

    @property
    def formats(self) -> tuple[str, ...]:
        return ("ollie", "reverb") if self.name == "CaRB" else ("ollie", "reverb", "allennlp")

    @property
    def strategies(self) -> tuple[str, ...]:
        return ("carb",) if self.name == "CaRB" else ("sm", "ss")


def lines_of(path: Path) -> Iterator[str]:
    with (
        gzip.open(path, "rt", encoding="utf-8")
        if path.suffix == ".gz"
        else path.open(encoding="utf-8") as fh
    ):
        yield from fh


def part(text: str) -> str:
    """OpenIE 4's ``Kind(text,List(...))`` -> ``text``, as CaRB's reader slices it."""
    return text[text.index("(") + 1 : text.index(",List(")] if "(" in text else ""


def space_key(text: str) -> str:
    return text.replace(" ", "")


def derive(tmp: Path, test_sentences: list[str], carb: Path | None) -> list[File]:
    """The files rewritten from real outputs (module docstring)."""
    gold = tmp / "gold_test.tsv"
    number = {space_key(s): n for n, s in reversed(list(enumerate(test_sentences, 1)))}
    files = []
    allennlp, ollie, reverb = [], [], []
    ollie.append("confidence\targ1\trel\targ2\tenabler\tattribution\ttext\tpattern\tdependencies\n")
    for line in lines_of(DATA / "openie4_output.txt.gz"):
        conf, context, a1, rel, a2s, text = line.rstrip("\n").split("\t")[:6]
        a1, rel = part(a1), part(rel)
        a2 = [part(a) for a in a2s.split(");")] if a2s else []
        tags = f"<arg1> {a1} </arg1> " if a1 else ""
        tags += f"<rel> {rel} </rel>" if rel else ""
        if a2:
            tags += f" <arg2> {a2[0]} </arg2>"
        tags += "".join(f" <arg{i}> {a} </arg{i}>" for i, a in enumerate(a2[1:], 3))
        allennlp.append(f"{text}\t{tags}\t{conf}\n")
        enabler = f"Some({part(context)})" if context else "None"
        first = a2[0] if a2 else ""
        ollie.append(
            f"{conf}\t{a1}\t{rel}\t{first}\t{enabler}\tNone\t{text}\t{{arg1}} <nsubj< {{rel}} "
            f">dobj> {{arg2}}\t(x_NN_0, nsubj, y_VB_1)\n"
        )
        n = number.get(space_key(text))
        if n is not None:
            words = text.split()
            reverb.append(
                "\t".join(
                    [
                        "test.txt",
                        str(n),
                        a1,
                        rel,
                        first,
                        *"011223",
                        conf,
                        text,
                        " ".join("NN" for _ in words),
                        " ".join("O" for _ in words),
                        a1.lower(),
                        rel.lower(),
                        first.lower(),
                    ]
                )
                + "\n"
            )
    sentences = tmp / "test_sentences.txt"
    sentences.write_text("".join(s + "\n" for s in test_sentences), encoding="utf-8")
    for name, fmt, lines in (
        ("openie4-as-allennlp", "allennlp", allennlp),
        ("openie4-as-ollie", "ollie", ollie),
        ("openie4-as-reverb", "reverb", reverb),
    ):
        path = tmp / f"{name}.txt"
        path.write_text("".join(lines), encoding="utf-8")
        files.append(File(name, fmt, path, gold, sentences if fmt == "reverb" else None, True))
    source = carb / "system_outputs" / "test" / "reverb_output.txt" if carb else None
    if source is None or not source.is_file():
        source = DATA / "reverb_output.txt.gz"
    own: dict[int, str] = {}
    renumbered = []
    for line in lines_of(source):
        cols = line.rstrip("\n").split("\t")
        own.setdefault(int(cols[1]), cols[12].strip())
        n = number.get(space_key(cols[12]))
        if n is not None:
            renumbered.append("\t".join([cols[0], str(n), *cols[2:]]) + "\n")
    rebuilt = tmp / "reverb_output_sentences.txt"
    rebuilt.write_text(
        "".join(own.get(n, "") + "\n" for n in range(1, max(own) + 1)), encoding="utf-8"
    )
    whole = tmp / "reverb_output.txt"
    whole.write_text("".join(lines_of(source)), encoding="utf-8")
    files.append(File("CaRB reverb_output.txt", "reverb", whole, gold, rebuilt, False))
    subset = tmp / "reverb_output_test.txt"
    subset.write_text("".join(renumbered), encoding="utf-8")
    files.append(
        File("CaRB reverb_output.txt, test lines", "reverb", subset, gold, sentences, True)
    )
    return files


def fixtures(tmp: Path, test_sentences: Path) -> list[File]:
    gold = tmp / "gold_test.tsv"
    tiny, tiny_raw = FIXTURES / "tiny_gold.tsv", FIXTURES / "tiny_sentences.txt"
    return [
        File("tiny.allennlp", "allennlp", FIXTURES / "tiny.allennlp", tiny),
        File("tiny_ollie.txt", "ollie", FIXTURES / "tiny_ollie.txt", tiny),
        File("tiny_reverb.txt", "reverb", FIXTURES / "tiny_reverb.txt", tiny, tiny_raw),
        File("corners.allennlp", "allennlp", FIXTURES / "corners.allennlp", gold, None, True),
        File("corners_ollie.txt", "ollie", FIXTURES / "corners_ollie.txt", gold, None, True),
        File(
            "corners_reverb.txt",
            "reverb",
            FIXTURES / "corners_reverb.txt",
            gold,
            test_sentences,
            True,
            auto=False,  # a 12-column line and a number "+2", which CaRB's reader reads
        ),
    ]


def detie(directory: Path, gold: Path) -> list[File]:
    outputs = directory / DETIE_OUTPUTS
    found = sorted(outputs.glob("*.allennlp")) + sorted(outputs.glob("*_output.txt"))
    if not found:
        sys.exit(f"{outputs} has no *.allennlp or *_output.txt: give DetIE's checkout")
    return [
        File(
            f"DetIE {p.name}", "allennlp" if p.suffix == ".allennlp" else "ollie", p, gold, cli=True
        )
        for p in found
    ]


def run(argv: list[str], cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return done.stdout


def reverb_home(tmp: Path, raw: Path) -> Path:
    """A directory whose ``raw_sentences/all.txt`` is ``raw``: the ReVerb reader's path."""
    home = tmp / f"home-{abs(hash(str(raw)))}"
    (home / "raw_sentences").mkdir(parents=True, exist_ok=True)
    (home / "raw_sentences" / "all.txt").write_bytes(raw.read_bytes())
    return home


def rounded(value: float, decimals: int) -> float:
    """``numpy.round`` of a float: half to even after scaling."""
    scale = 10.0**decimals
    return round(value * scale) / scale


def compare_one(
    original: Original, strategy: str, f: File, tmp: Path, ours_python: str, env: dict[str, str]
) -> list[str]:
    """The original and ours on ``f`` with ``strategy``; the differences found."""
    job = f"{f.name} ({f.fmt}) {original.name} {'(s,s)' if strategy == 'ss' else '(s,m)'}"
    home = reverb_home(tmp, f.raw) if f.fmt == "reverb" and f.raw else tmp
    curves = [tmp / f"curve-{n}.dat" for n in ("original", "exact", "ours")]
    carb_py = str(original.directory / "carb.py")
    args = [f"--gold={f.gold}", f"--out={curves[0]}", f"{FLAGS[f.fmt]}={f.path}"]
    if strategy == "ss":
        args.append("--single_match")
    if f.fmt == "reverb":
        printed = run([original.python, "-c", REVERB_DRIVER, carb_py, *args], home, env)
    else:
        printed = run([original.python, carb_py, *args], home, env)
    exact_argv = [original.python, "-c", EXACT, str(original.directory), f.fmt]
    exact_argv += [str(f.gold), str(f.path), str(curves[1]), strategy]
    exact = json.loads(run(exact_argv, home, env).splitlines()[-1])
    ours_argv = [ours_python, "-m", "benchie_cli.benchmarks.carb.metric"]
    if strategy == "ss":
        ours_argv.append("--single-match")
    elif strategy == "sm":
        ours_argv.append("--openie6")
    ours_argv += [str(f.gold), str(f.path), f.fmt, str(curves[2])]
    if f.raw is not None:
        ours_argv += ["--sentences", str(f.raw)]
    ours = json.loads(run(ours_argv, REPO, env))
    problems = []
    mine: dict[str, object] = {
        "auc": ours["auc"],
        "optimal": [ours["precision"], ours["recall"], ours["f1"]],
    }
    if "zero_conf" in exact:
        mine["zero_conf"] = ours["zero_conf"]
    if exact != mine:
        problems.append(f"{job}: the original computes {exact}, we {mine}")
    if original.name == "CaRB":
        m = PRINTED_CARB.search(printed)
        shown = [float(v) for v in m.groups()] if m else None
        expected = [ours["carb"]["auc"], *ours["carb"]["optimal"]]
    else:
        m = PRINTED_OPENIE6.search(printed)
        shown = None
        if m:
            numbers = [m.group(1), *m.group(2).split(","), *m.group(3).split(",")]
            shown = [None if v.strip() == "nan" else float(v) for v in numbers]
        rounding = ours["openie6"]
        expected = [rounding["auc"], *rounding["optimal"], *rounding["zero_conf"]]
    if shown != expected:
        problems.append(f"{job}: the original prints {printed.strip()!r}, we round to {expected}")
    for curve in curves[:2]:
        if curve.read_bytes() != curves[2].read_bytes():
            problems.append(f"{job}: the original's curve file ({curve.name}) differs from ours")
    points = len(curves[2].read_bytes().splitlines()) - 1
    metric = "carb-ss" if strategy == "ss" else "carb"
    found = {"auc": exact["auc"], "optimal": exact["optimal"], "points": points}
    f.curves[metric] = hashlib.sha256(curves[0].read_bytes()).hexdigest()
    f.found.setdefault(metric, found)
    if f.found[metric] != found:  # CaRB's and OpenIE6's (s,m) are the same numbers
        problems.append(f"{job}: {found}, but the other original's (s,m) {f.found[metric]}")
    verdict = "DIFFERENT" if problems else "identical"
    print(
        f"{job}: {points:,} curve points; AUC {exact['auc']!r}, optimum {exact['optimal']}; "
        f"{verdict}"
    )
    return problems


def compare_cli(f: File, tmp: Path, ours_python: str, env: dict[str, str]) -> list[str]:
    """``benchie score --benchmark carb`` on ``f``, with its format and with ``auto``, against
    the originals' unrounded numbers."""
    problems = []
    for fmt in (f.fmt, "auto") if f.auto else (f.fmt,):
        report = tmp / "report.json"
        argv = [ours_python, "-m", "benchie_cli", "score", "--benchmark", "carb", "--metric"]
        argv += ["carb,carb-ss", "--input-format", fmt, "--format", "json", "-o", str(report)]
        argv.append(f"system={f.path}")
        run(argv, REPO, env)
        (system,) = json.loads(report.read_text(encoding="utf-8"))["systems"]
        for metric, exact in f.found.items():
            p, r, f1 = exact["optimal"]  # type: ignore[misc]
            want = {"precision": p, "recall": r, "f1": f1, "auc": exact["auc"]}
            want["points"] = exact["points"]
            if system[metric] != want:
                problems.append(
                    f"{f.name}: benchie score --input-format {fmt} gives {metric} "
                    f"{system[metric]}, the original {want}"
                )
    verdict = "DIFFERENT" if problems else "identical"
    given = f"--input-format {f.fmt}" + (" and auto" if f.auto else "")
    print(f"{f.name}: benchie score --benchmark carb ({given}): {verdict}")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--carb", type=Path, help="a CaRB checkout")
    parser.add_argument("--carb-python", help="a Python that runs CaRB")
    parser.add_argument("--openie6-carb", type=Path, help="OpenIE6's carb/ directory")
    parser.add_argument("--openie6-python", help="a Python that runs OpenIE6's carb.py")
    parser.add_argument("--detie", type=Path, help="a DetIE checkout (adds its outputs)")
    venv = REPO / ".venv" / "bin" / "python"
    parser.add_argument(
        "--python",
        default=str(venv) if venv.is_file() else sys.executable,
        help="the Python with benchie_cli installed (default: the checkout's .venv)",
    )
    parser.add_argument("--json", type=Path, help="write the originals' numbers here")
    args = parser.parse_args()
    originals = []
    for name, directory, python, option in (
        ("CaRB", args.carb, args.carb_python, "--carb"),
        ("OpenIE6", args.openie6_carb, args.openie6_python, "--openie6-carb"),
    ):
        if directory is None and python is None:
            continue
        if directory is None or python is None:
            sys.exit(f"{option} and its Python go together")
        if not (directory / "carb.py").is_file():
            sys.exit(f"{directory} has no carb.py: give {name}'s scorer directory with {option}")
        originals.append(Original(name, directory.resolve(), python))
    if not originals:
        sys.exit("give --carb and --carb-python, or --openie6-carb and --openie6-python")
    sentences_file = REPO / "gold" / "carb" / "1.0.0" / "test" / "sentences.txt"
    if not sentences_file.is_file():
        sys.exit(f"{sentences_file} is missing: run `dvc pull` in the checkout")
    test_sentences = [line.strip() for line in lines_of(sentences_file)]

    with tempfile.TemporaryDirectory(prefix="bench-carb-readers-") as tmp_name:
        tmp = Path(tmp_name)
        gold = tmp / "gold_test.tsv"  # the originals read plain text only
        gold.write_text("".join(lines_of(DATA / "gold_test.tsv.gz")), encoding="utf-8")
        nltk = tmp / "nltk_data" / "corpora" / "stopwords"
        nltk.mkdir(parents=True)
        (nltk / "english").write_text("a\nan\nthe\n")  # loaded by matcher.py, never used
        env = {**os.environ, "NLTK_DATA": str(tmp / "nltk_data"), "PYTHONWARNINGS": "ignore"}
        carb_dir = next((o.directory for o in originals if o.name == "CaRB"), None)
        files = fixtures(tmp, sentences_file) + derive(tmp, test_sentences, carb_dir)
        if args.detie is not None:
            files += detie(args.detie.resolve(), gold)
        problems: list[str] = []
        for f in files:
            for original in originals:
                if f.fmt not in original.formats:
                    continue
                for strategy in original.strategies:
                    problems += compare_one(original, strategy, f, tmp, args.python, env)
            if f.cli and f.found:
                problems += compare_cli(f, tmp, args.python, env)
        if args.json is not None:
            doc = {
                f"{f.name} ({f.fmt})": {
                    m: {**numbers, "curve_sha256": f.curves[m]} for m, numbers in f.found.items()
                }
                for f in files
            }
            args.json.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    if problems:
        print("\n" + "\n".join(problems), file=sys.stderr)
        sys.exit(1)
    print(f"\n{len(files)} files: every number and curve identical")


if __name__ == "__main__":
    main()
