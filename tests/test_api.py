"""The Python API (``benchie_cli.api``) gives what the CLI gives: the same report bytes,
the same analysis document, the published numbers from extractions held in memory, and the
README's notebook example runs as written."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from benchie_cli import DEFAULT_GOLD_VERSION, __version__, api
from benchie_cli.errors import BenchieError
from benchie_cli.submission import Extraction
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


def _readme_python_block() -> str:
    text = (REPO / "README.md").read_text("utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```$", text, re.MULTILINE | re.DOTALL)
    assert len(blocks) == 1, "README.md: one ```python block, the notebook example"
    return str(blocks[0])


def test_readme_python_example_runs() -> None:
    env = dict(os.environ, BENCHIE_GOLD_DIR=str(GOLD_DIR))
    proc = subprocess.run(
        [sys.executable, "-c", _readme_python_block()],
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
