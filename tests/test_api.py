"""The Python API (``benchie_cli.api``) gives what the CLI gives: the same report bytes,
the same analysis document, the published numbers from extractions held in memory, and the
notebook example of docs/api.md runs as written."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import orjson
import pytest

from benchie_cli import DEFAULT_GOLD_VERSION, __version__, api
from benchie_cli.errors import BenchieError
from benchie_cli.inputs.batch import Failure
from benchie_cli.inputs.submission import Extraction
from benchie_cli.registry import METRICS
from tests.conftest import ENGLISH_SYSTEMS, EXAMPLES, GOLD_DIR, REPO, RunCli, example

TINY_GOLD = (
    "sent_id:a\tAlice met Bob in Paris .\n"
    "a--> Cluster 1:\n"
    "Alice --> met --> Bob\n"
    "a--> Cluster 2:\n"
    "Alice --> met Bob in --> Paris\n"
    "\n"
    "sent_id:b\tCarol sings songs .\n"
    "b--> Cluster 1:\n"
    "Carol --> sings --> songs\n"
)

#: By hand: a has 2 synsets, b has 1 (3 in all).
TINY_EXTRACTIONS: list[api.ExtractionLike] = [
    ("a", "Alice\n", "met", " Bob\t"),  # TP: a's synset 1 (whitespace normalised as a file's)
    Extraction(2, "a", "Alice", "met Bob in", "Paris", 3),  # TP: a's synset 2
    ("b", "Carol", "sings", "loudly"),  # implicit ("loudly" is not in b): removed
    ("b", "songs", "sings", "Carol"),  # FP: every token in b, no synset
    ("zz", "x", "y", "z"),  # unknown sentence id: left out
]


@pytest.fixture
def tiny_gold(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.txt"
    path.write_text(TINY_GOLD, "utf-8")
    return path


@pytest.mark.parametrize("version", ["1.0.0", None])
def test_score_report_is_the_cli_report(cli: RunCli, tmp_path: Path, version: str | None) -> None:
    files = [str(example("en", s)) for s in ENGLISH_SYSTEMS]
    out = tmp_path / "cli.json"
    pin = ["--gold-version", version] if version else []
    assert cli("score", "--lang", "en", *pin, *files, "-o", out).exit_code == 0
    gold = api.load_gold("en", version=version)
    assert gold.version == (version or DEFAULT_GOLD_VERSION)
    report = api.score(gold, *files)
    assert report.to_json() == out.read_bytes()
    assert [s.name for s in report.systems] == list(ENGLISH_SYSTEMS)
    assert report.signature == orjson.loads(out.read_bytes())["signature"]


def test_score_options_and_directory_match_the_cli(cli: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "cli.json"
    directory = str(EXAMPLES / "en")
    args = ["--facet", "concat", "--keep-implicit", "--per-sentence"]
    assert cli("score", "--gold-version", "1.0.0", *args, directory, "-o", out).exit_code == 0
    gold = api.load_gold("en", "1.0.0", facet="concat")
    report = api.score(gold, directory, strip_implicit=False, per_sentence=True)
    assert report.to_json() == out.read_bytes()


def test_score_names_and_failures() -> None:
    gold = api.load_gold("en", "1.0.0")
    report = api.score(gold, example("en", "clausie"), "missing.tsv", names=["a", "b"])
    assert [s.name for s in report.systems] == ["a"]
    assert [f["name"] for f in report.failures] == ["b"]
    with pytest.raises(BenchieError, match=r"missing\.tsv: error: no such file"):
        api.score(gold, "missing.tsv")
    with pytest.raises(BenchieError, match="1 name"):
        api.score(gold, example("en", "clausie"), example("en", "minie"), names=["a"])


def test_in_memory_extractions_give_the_published_numbers() -> None:
    rows = []
    for line in example("en", "clausie").read_text("utf-8").splitlines():
        if line.strip():
            cols = line.split("\t")
            rows.append((cols[0], cols[1], cols[2], " ".join(cols[3:])))
    gold = api.load_gold("en", version="1.0.0")
    scores = api.score_extractions(gold, rows, name="clausie")
    assert (scores.precision, scores.recall, scores.f1) == (
        0.5029154518950437,
        0.25555555555555554,
        0.33889980353634575,
    )
    assert scores.result.facts.path == api.IN_MEMORY
    assert scores.tp == api.score(gold, example("en", "clausie"))["clausie"].tp


def test_tiny_case_by_hand(tiny_gold: Path) -> None:
    gold = api.load_gold("en", gold_file=tiny_gold)
    assert (gold.version, gold.sentences) == (
        "file",
        {"a": "Alice met Bob in Paris .", "b": "Carol sings songs ."},
    )
    s = api.score_extractions(gold, TINY_EXTRACTIONS, name="tiny")
    assert (s.tp, s.fp, s.fn) == (2, 1, 1)
    assert (s.precision, s.recall) == (2 / 3, 2 / 3)
    assert s.f1 == pytest.approx(2 / 3)
    assert (s.extractions, s.implicit_removed, s.unknown_sentence_ids) == (5, 1, 1)
    kept = api.score_extractions(gold, TINY_EXTRACTIONS, strip_implicit=False)
    assert (kept.tp, kept.fp, kept.fn) == (2, 2, 1)
    assert kept.f1 == pytest.approx(4 / 7)


def test_bad_input_raises_benchie_error(tiny_gold: Path) -> None:
    with pytest.raises(BenchieError, match=r"9\.9\.9"):
        api.load_gold("en", version="9.9.9")
    with pytest.raises(BenchieError, match="unknown language"):
        api.load_gold("xx")
    with pytest.raises(BenchieError, match="unknown facet"):
        api.load_gold("en", facet="nope")
    with pytest.raises(BenchieError, match="not both"):
        api.load_gold("en", version="1.0.0", gold_file=tiny_gold)
    with pytest.raises(BenchieError, match="does not exist"):
        api.load_gold("en", gold_dir=tiny_gold.parent / "nowhere")
    gold = api.load_gold("en", gold_file=tiny_gold)
    with pytest.raises(BenchieError, match="no extraction"):
        api.score_extractions(gold, [])
    with pytest.raises(BenchieError, match=r"is not \(sent_id, subject, relation, object\)"):
        api.score_extractions(gold, [("a", "Alice", "met")])  # type: ignore[list-item]
    with pytest.raises(BenchieError, match="sentence id"):
        api.score_extractions(gold, [("a\tb", "Alice", "met", "Bob")])
    with pytest.raises(BenchieError, match="not in the gold"):
        api.score_extractions(gold, [("zz", "x", "y", "z")], strict=True)


def test_analyze_is_the_cli_document(cli: RunCli, tmp_path: Path) -> None:
    files = [str(example("en", "clausie")), str(example("en", "minie"))]
    out = tmp_path / "cli.json"
    args = ["--gold-version", "1.0.0", "--resamples", "200", "--format", "json"]
    assert cli("analyze", "--lang", "en", *args, *files, "-o", out).exit_code == 0
    doc = api.analyze(api.load_gold("en", "1.0.0"), *files, resamples=200)
    assert api.to_json(doc) == out.read_bytes()


def _notebook_block() -> str:
    text = (REPO / "docs" / "api.md").read_text("utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)
    assert len(blocks) == 1, "docs/api.md: one ```python block, the notebook example"
    return str(blocks[0])


def test_notebook_example_runs() -> None:
    env = dict(os.environ, BENCHIE_GOLD_DIR=str(GOLD_DIR))
    proc = subprocess.run(
        [sys.executable, "-c", _notebook_block()],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "1.0.0 a5107265bd81 300 sentences",
        "clausie: P=0.5029 R=0.2556 F1=0.3389",
        "minie: P=0.4291 R=0.2778 F1=0.3372",
        f"benchie|lang:en|facet:default|gold:1.0.0@a5107265bd81|implicit:strip|v:{__version__}",
        "in memory: TP=1 FP=1 FN=1349 F1=0.0015",
    ]


@pytest.mark.parametrize(
    ("extractions", "message"),
    [
        (None, "an iterable of extractions, not NoneType"),
        ("1\ta\tb\tc", "an iterable of extractions, not str"),
        ([("1", None, "b", "c")], "every field must be a str, not NoneType"),
        ([(b"1", b"a", b"b", b"c")], "every field must be a str, not bytes"),
        ([("1", 1, 2, 3)], "every field must be a str, not int"),
        ([42], "42 is not (sent_id, subject, relation, object)"),
    ],
)
def test_extractions_of_the_wrong_type_are_refused(
    tiny_gold: Path, extractions: object, message: str
) -> None:
    """``str(None)`` or ``str(b"1")`` would otherwise be scored as the words "None" or
    "b'1'": a silent wrong count, not an error."""
    gold = api.load_gold("en", gold_file=str(tiny_gold))
    with pytest.raises(BenchieError, match=re.escape(message)):
        api.score_extractions(gold, extractions)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- CaRB's metric

#: Not in sorted order, so that "in the order given" cannot pass by a sort.
CARB_SYSTEMS = ("minie", "clausie", "openie6")
CARB_KEYS = ("precision", "recall", "f1", "auc", "points")


@pytest.mark.parametrize("version", ["1.0.0", None])
def test_carb_report_is_the_cli_report(cli: RunCli, tmp_path: Path, version: str | None) -> None:
    files = [str(example("en", s)) for s in CARB_SYSTEMS]
    out = tmp_path / "cli.json"
    pin = ["--gold-version", version] if version else []
    res = cli("score", "--lang", "en", *pin, "--metric", "carb", *files, "-o", out)
    assert res.exit_code == 0, res.stderr
    report = api.score(api.load_gold("en", version), *files, metric="carb")
    assert report.to_json() == out.read_bytes()
    doc = orjson.loads(out.read_bytes())
    assert doc["metric"] == "carb"
    assert doc["gold"]["version"] == (version or DEFAULT_GOLD_VERSION)
    assert [s["name"] for s in doc["systems"]] == list(CARB_SYSTEMS)
    assert [s.name for s in report.systems] == list(CARB_SYSTEMS)
    assert report.carb == report.systems
    for scores, entry in zip(report.systems, doc["systems"], strict=True):
        assert isinstance(scores, api.CarbScores)
        carb = entry["carb"]
        assert tuple(getattr(scores, k) for k in CARB_KEYS) == tuple(carb[k] for k in CARB_KEYS)
        assert (scores.extractions, scores.unknown_sentence_ids) == (
            entry["extractions"],
            entry["unknown_sentence_ids"],
        )
        assert scores.points == 1  # the examples have no confidences: one point
        assert 0 < scores.f1 < 1
    assert report["clausie"] is report.systems[1]


@pytest.mark.parametrize("version", ["1.1.0", None])
def test_benchie_and_carb_report_is_the_cli_report(
    cli: RunCli, tmp_path: Path, version: str | None
) -> None:
    files = [str(example("en", s)) for s in CARB_SYSTEMS]
    out = tmp_path / "cli.json"
    pin = ["--gold-version", version] if version else []
    res = cli("score", "--lang", "en", *pin, "--metric", "benchie,carb", *files, "-o", out)
    assert res.exit_code == 0, res.stderr
    report = api.score(api.load_gold("en", version), *files, metric="benchie,carb")
    assert report.to_json() == out.read_bytes()
    doc = orjson.loads(out.read_bytes())
    assert doc["metric"] == "benchie,carb" and "carb_signature" in doc
    assert [s.name for s in report.systems] == [s.name for s in report.carb] == list(CARB_SYSTEMS)
    for benchie, carb, entry in zip(report.systems, report.carb, doc["systems"], strict=True):
        assert isinstance(benchie, api.Scores) and isinstance(carb, api.CarbScores)
        assert (benchie.name, carb.name) == (entry["name"], entry["name"])
        assert (benchie.precision, benchie.recall, benchie.f1) == (
            entry["precision"],
            entry["recall"],
            entry["f1"],
        )
        assert (benchie.tp, benchie.fp, benchie.fn) == (entry["tp"], entry["fp"], entry["fn"])
        assert tuple(getattr(carb, k) for k in CARB_KEYS) == tuple(
            entry["carb"][k] for k in CARB_KEYS
        )
        assert carb.f1 != benchie.f1  # two metrics, two numbers
    # BenchIE's side is what metric="benchie" gives
    plain = api.score(api.load_gold("en", version), *files)
    assert [(s.name, s.precision, s.recall, s.f1) for s in plain.systems] == [
        (s.name, s.precision, s.recall, s.f1) for s in report.systems
    ]
    assert plain.carb == ()


def test_carb_metric_refusals(tiny_gold: Path) -> None:
    """Checked before any submission is read (``missing.tsv`` is never opened)."""
    de = api.load_gold("de", "1.1.0")
    for metric in ("carb", "benchie,carb"):
        with pytest.raises(BenchieError, match="English only") as info:
            api.score(de, example("de", "m2oie_de"), metric=metric)
        assert info.value.exit_code == 2
    own = api.load_gold("en", gold_file=tiny_gold)
    with pytest.raises(BenchieError, match="--gold-file does not apply"):
        api.score(own, "missing.tsv", metric="carb")
    en = api.load_gold("en", "1.1.0")
    with pytest.raises(BenchieError, match="--keep-implicit") as info:
        api.score(en, "missing.tsv", metric="carb", strip_implicit=False)
    assert "use --metric benchie,carb" in info.value.message
    with pytest.raises(
        BenchieError,
        match=re.escape(f"unknown metric 'nope' (available: {', '.join(METRICS)})"),
    ):
        api.score(en, "missing.tsv", metric="nope")
    # BenchIE's options are fine where BenchIE's metric runs beside CaRB's
    kept = api.score(en, example("en", "clausie"), metric="benchie,carb", strip_implicit=False)
    assert [s.name for s in kept.carb] == ["clausie"]


# --------------------------------------------------------------------------- NothingScored


def _strict_failure(tmp_path: Path) -> Path:
    """ClausIE's file with one line of an unknown sentence id first: scored (the line left
    out) unless ``strict``, where it is a failure of exit status 1."""
    path = tmp_path / "unknown_id.tsv"
    path.write_bytes(b"zz\tx\ty\tz\n" + example("en", "clausie").read_bytes())
    return path


def test_nothing_scored_is_the_failure(tmp_path: Path) -> None:
    gold = api.load_gold("en", "1.1.0")
    missing = tmp_path / "missing.tsv"
    with pytest.raises(api.NothingScored) as info:
        api.score(gold, missing)
    exc = info.value
    assert isinstance(exc, BenchieError)
    assert str(exc) == f"{missing}: error: no such file"
    assert [f.message for f in exc.failures] == [str(exc)]
    assert exc.exit_code == 2
    # the file that fails under strict only: scored without it
    unknown = _strict_failure(tmp_path)
    assert api.score(gold, unknown)["unknown_id"].unknown_sentence_ids == 1
    with pytest.raises(api.NothingScored) as info:
        api.score(gold, unknown, strict=True)
    assert info.value.exit_code == 1
    assert (
        str(info.value)
        == f"{unknown}:1: error: sentence id 'zz' is not in the gold (an error under --strict)"
    )


@pytest.mark.parametrize("metric", ["benchie", "carb", "benchie,carb"])
def test_nothing_scored_exits_with_the_worst_failure(tmp_path: Path, metric: str) -> None:
    gold = api.load_gold("en", "1.1.0")
    unknown, missing = _strict_failure(tmp_path), tmp_path / "missing.tsv"
    with pytest.raises(api.NothingScored) as info:
        api.score(gold, unknown, missing, strict=True, metric=metric)
    assert sorted((f.submission.name, int(f.exit_code)) for f in info.value.failures) == [
        ("missing", 2),
        ("unknown_id", 1),
    ]
    assert info.value.exit_code == 2
    # the first failure has the lower status: the exit status is still the highest
    bad = tmp_path / "bad.tsv"
    bad.write_text("1\tonly\n", "utf-8")  # an unusable line: exit 2, read after unknown_id
    with pytest.raises(api.NothingScored) as info:
        api.score(gold, unknown, bad, strict=True, metric=metric)
    exc = info.value
    assert [(f.submission.name, int(f.exit_code)) for f in exc.failures] == [
        ("unknown_id", 1),
        ("bad", 2),
    ]
    assert str(exc) == exc.failures[0].message and str(exc).startswith(f"{unknown}:1: error: ")
    assert exc.exit_code == 2


# --------------------------------------------------------------------------- say, on_outcome


@pytest.fixture
def draft_store(cli: RunCli, tmp_path: Path) -> Path:
    """A store holding 1.1.0 and a draft 2.0.0 (two English sentences)."""
    from tests.gold.test_gold_lifecycle import copy_store, make_source, new_args

    store, src = copy_store(tmp_path, versions=("1.1.0",)), make_source(tmp_path)
    res = cli(*new_args("2.0.0", src, store, "--no-dvc", "--draft"))
    assert res.exit_code == 0, res.stderr
    return store


def test_say_gets_the_draft_warning(draft_store: Path) -> None:
    lines: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gold = api.load_gold("en", gold_dir=draft_store, version="2.0.0", say=lines.append)
        released = api.load_gold("en", gold_dir=draft_store, version="1.1.0", say=lines.append)
    assert [w for w in caught if issubclass(w.category, api.BenchieWarning)] == []
    assert len(lines) == 1
    assert lines[0].startswith("warning: gold 2.0.0 is a draft")
    assert (gold.released, released.released) == (False, True)
    assert len(gold.sentences) == 2  # the draft's own tiny gold
    with pytest.warns(api.BenchieWarning, match=r"^warning: gold 2\.0\.0 is a draft") as record:
        api.load_gold("en", gold_dir=draft_store, version="2.0.0")
    assert [str(w.message) for w in record if w.category is api.BenchieWarning] == lines


def test_draft_warning_points_at_the_caller(draft_store: Path) -> None:
    with pytest.warns(api.BenchieWarning) as record:
        api.load_gold("en", gold_dir=draft_store, version="2.0.0")
    assert record[0].filename == __file__


def _outcome(outcome: object) -> tuple[str, str]:
    if isinstance(outcome, Failure):
        return ("failed", outcome.submission.name)
    return ("scored", outcome.name)  # type: ignore[attr-defined]


@pytest.mark.parametrize("metric", ["benchie", "benchie,carb"])
def test_on_outcome_once_per_submission_in_order(tmp_path: Path, metric: str) -> None:
    gold = api.load_gold("en", "1.1.0")
    files = [example("en", "clausie"), _strict_failure(tmp_path), example("en", "minie")]
    seen: list[tuple[str, str]] = []
    report = api.score(
        gold, *files, strict=True, metric=metric, on_outcome=lambda o: seen.append(_outcome(o))
    )
    assert seen == [("scored", "clausie"), ("failed", "unknown_id"), ("scored", "minie")]
    assert [s.name for s in report.systems] == ["clausie", "minie"]
    assert [f["name"] for f in report.failures] == ["unknown_id"]
    # a file that cannot be read at all fails before any is scored (as the CLI says it)
    seen.clear()
    files.insert(0, tmp_path / "missing.tsv")
    api.score(
        gold, *files, strict=True, metric=metric, on_outcome=lambda o: seen.append(_outcome(o))
    )
    assert seen == [
        ("failed", "missing"),
        ("scored", "clausie"),
        ("failed", "unknown_id"),
        ("scored", "minie"),
    ]


def test_on_outcome_carb_in_order(tmp_path: Path) -> None:
    gold = api.load_gold("en", "1.1.0")
    files = [example("en", "clausie"), _strict_failure(tmp_path), example("en", "minie")]
    seen: list[tuple[str, str]] = []
    api.score(
        gold, *files, strict=True, metric="carb", on_outcome=lambda o: seen.append(_outcome(o))
    )
    assert seen == [("scored", "clausie"), ("failed", "unknown_id"), ("scored", "minie")]


def test_on_outcome_once_when_carb_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    from benchie_cli.benchmarks.carb import report as carb_report

    real = carb_report.score_carb

    def refuse_minie(path: str, name: str, *args: object, **kwargs: object) -> object:
        if name == "minie":
            raise BenchieError("CaRB cannot read it", path=path)
        return real(path, name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(carb_report, "score_carb", refuse_minie)
    seen: list[tuple[str, str]] = []
    files = [example("en", s) for s in ("clausie", "minie", "openie6")]
    report = api.score(
        api.load_gold("en", "1.1.0"),
        *files,
        metric="benchie,carb",
        on_outcome=lambda o: seen.append(_outcome(o)),
    )
    assert [s.name for s in report.systems] == ["clausie", "openie6"]
    assert [f["name"] for f in report.failures] == ["minie"]
    assert len(seen) == len(files)


# --------------------------------------------------------------------------- analyze + CaRB


def test_analyze_with_carb_is_the_cli_document(cli: RunCli, tmp_path: Path) -> None:
    files = [str(example("en", s)) for s in ("clausie", "minie", "openie6")]
    out = tmp_path / "cli.json"
    args = ["--gold-version", "1.1.0", "--resamples", "200", "--format", "json"]
    res = cli("analyze", "--lang", "en", "--metric", "benchie,carb", *args, *files, "-o", out)
    assert res.exit_code == 0, res.stderr
    gold = api.load_gold("en", "1.1.0")
    doc = api.analyze(gold, *files, metric="benchie,carb", resamples=200)
    assert api.to_json(doc) == out.read_bytes()
    assert doc["carb_signature"].startswith("benchie|lang:en|metric:carb|gold:1.1.0@")
    scored = api.score(gold, *files, metric="carb")
    assert [s["name"] for s in doc["systems"]] == [s.name for s in scored.systems]
    for system, carb in zip(doc["systems"], scored.systems, strict=True):
        assert tuple(system["carb"][k] for k in CARB_KEYS) == tuple(
            getattr(carb, k) for k in CARB_KEYS
        )
    with pytest.raises(BenchieError, match="unknown metric 'carb' for analyze"):
        api.analyze(gold, *files, metric="carb")


def test_a_failed_submission_is_a_warning_not_silence(tmp_path: Path) -> None:
    """A notebook user with a typo in one path sees it at once, not only in the report."""
    gold = api.load_gold("en", "1.1.0")
    with pytest.warns(api.BenchieWarning, match=r"missing\.tsv: error: no such file"):
        report = api.score(gold, example("en", "clausie"), tmp_path / "missing.tsv")
    assert [s.name for s in report.systems] == ["clausie"]
    lines: list[str] = []
    api.score(gold, example("en", "clausie"), tmp_path / "missing.tsv", say=lines.append)
    assert len(lines) == 1 and lines[0].endswith("missing.tsv: error: no such file")


def test_in_memory_extractions_of_another_language_are_refused() -> None:
    """English extractions against the German gold: nothing can be scored, and the error
    names the in-memory extractions, not a temporary file."""
    gold = api.load_gold("de", "1.1.0")
    lines = example("en", "clausie").read_text(encoding="utf-8").splitlines()
    extractions = [tuple(line.split("\t")[:4]) for line in lines if line.strip()]
    with pytest.raises(BenchieError) as info:
        api.score_extractions(gold, extractions)  # type: ignore[arg-type]
    assert str(info.value).startswith(f"{api.IN_MEMORY}:")
    assert "[wrong-language]" in str(info.value)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda g, f: api.load_gold("en", version=1), "version: a version number"),  # type: ignore[arg-type]
        (lambda g, f: api.score("en", f), "gold: a Gold from load_gold()"),  # type: ignore[arg-type]
        (lambda g, f: api.score(g, f, input_format="bogus"), "input_format: one of"),
        (lambda g, f: api.score(g, f, jobs=0), "jobs: an integer from 1 to 256"),
        (lambda g, f: api.score(g, f, jobs="2"), "jobs: an integer"),  # type: ignore[arg-type]
        (lambda g, f: api.score(g, f, names="a"), "names: a sequence of non-empty str"),
        (lambda g, f: api.score(g, f, names=[1]), "names: a sequence of non-empty str"),  # type: ignore[list-item]
        (lambda g, f: api.score(g, [f]), "a submission is a path"),  # type: ignore[arg-type]
        (lambda g, f: api.analyze(g, f, resamples=0), "resamples: an integer from 1 to"),
        (lambda g, f: api.analyze(g, f, seed=-1), "seed: an integer from 0 to"),
        (lambda g, f: api.analyze(g, f, seed="x"), "seed: an integer"),  # type: ignore[arg-type]
        (lambda g, f: api.analyze(g, f, examples=10**6), "examples: an integer"),
        (
            lambda g, f: api.score_extractions(g, [("1", "He", "x")], name=None),
            "name: a non-empty str",
        ),  # type: ignore[arg-type]
        (
            lambda g, f: api.score_extractions(g, [("1", "He\udcff", "served", "as")]),
            "extraction 1: text that is not valid Unicode",
        ),
    ],
)
def test_bad_arguments_raise_benchie_error(call: Any, message: str) -> None:
    """Every failure a caller can cause is a BenchieError (the module's promise), never a
    TypeError, KeyError or numpy error from deep inside."""
    gold = api.load_gold("en", "1.1.0")
    with pytest.raises(BenchieError, match=re.escape(message)):
        call(gold, str(example("en", "clausie")))
