"""A Codabench task on another benchmark than BenchIE's (``"benchmark"`` in
``ref/benchie.json``): CaRB, OIE2016, Re-OIE2016; scored as ``benchie score --benchmark``
scores the file, every pin checked first (docs/platform.md)."""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import orjson
import pytest

from benchie_cli.platform.score import parse_spec, score_keys
from benchie_cli.registry import BENCHMARKS
from tests.conftest import DATA, GOLD_DIR, RunCli
from tests.platform.test_platform import _input, _run, _scores

OIE2016_TEST = GOLD_DIR / "oie2016" / "2.0.0" / "test" / "test.oie"
CARB_TEST = GOLD_DIR / "carb" / "1.0.0" / "test" / "carb_test.tsv"


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_an_oie2016_task_scores_as_the_benchmark_command(cli: RunCli, tmp_path: Path) -> None:
    spec = {
        "benchmark": "oie2016",
        "split": "test",
        "gold_version": "2.0.0",
        "gold_sha256": {"en": _sha(OIE2016_TEST)},
        "languages": ["en"],
    }
    root = _input(tmp_path, spec)
    system = gzip.decompress((DATA / "oie2016" / "openie4_output.txt.gz").read_bytes())
    (root / "res" / "en.txt").write_bytes(system)
    done = _run(root, tmp_path / "out")
    assert done.returncode == 0, done.stderr
    scores = _scores(tmp_path / "out")
    assert list(scores) == score_keys(parse_spec(json.dumps(spec).encode()))
    out = tmp_path / "r.json"
    assert (
        cli(
            "score", "--benchmark", "oie2016", "--split", "test", root / "res" / "en.txt", "-o", out
        ).exit_code
        == 0
    )
    numbers = orjson.loads(out.read_bytes())["systems"][0]["oie2016"]
    assert scores == {
        "en_oie2016_precision": numbers["precision"],
        "en_oie2016_recall": numbers["recall"],
        "en_oie2016_f1": numbers["f1"],
        "en_oie2016_auc": numbers["auc"],
        "mean_f1": numbers["f1"],
    }
    page = (tmp_path / "out" / "detailed_results.html").read_text()
    assert "OIE2016 results" in page and "res/en.txt" in page
    assert "metric:oie2016|scorer:2019-07|gold:2.0.0@" in page


def test_a_carb_task_with_both_metrics(tmp_path: Path) -> None:
    spec = {
        "benchmark": "carb",
        "gold_version": "1.0.0",
        "gold_sha256": {"en": _sha(CARB_TEST)},
        "languages": ["en"],
        "metrics": ["carb", "carb-ss"],
    }
    root = _input(tmp_path, spec)
    system = gzip.decompress((DATA / "carb" / "openie4_output.txt.gz").read_bytes())
    (root / "res" / "en.txt").write_bytes(system)
    done = _run(root, tmp_path / "out")
    assert done.returncode == 0, done.stderr
    scores = _scores(tmp_path / "out")
    assert [k for k in scores if k.startswith("en_carb_ss_")] == [
        "en_carb_ss_precision",
        "en_carb_ss_recall",
        "en_carb_ss_f1",
        "en_carb_ss_auc",
    ]
    assert scores["mean_f1"] == scores["en_carb_f1"] > 0


def test_a_pin_that_is_not_the_gold_s_fails_before_any_submission_is_read(
    tmp_path: Path,
) -> None:
    spec = {
        "benchmark": "oie2016",
        "split": "test",
        "gold_version": "2.0.0",
        "gold_sha256": {"en": "0" * 64},
        "languages": ["en"],
    }
    root = _input(tmp_path, spec)
    (root / "res" / "en.txt").write_bytes(b"\xff not even text")
    done = _run(root, tmp_path / "out")
    assert done.returncode == 1
    assert f"has sha256 {_sha(OIE2016_TEST)}, not the {'0' * 64} that ref/benchie.json" in (
        done.stderr
    )
    assert not (tmp_path / "out" / "scores.json").exists()


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"benchmark": "wire57"}, "'benchmark': \"wire57\" is not one a competition scores"),
        (
            {"benchmark": "nope"},
            "(available: benchie, "
            + ", ".join(b.name for b in BENCHMARKS.values() if b.platform)
            + ")",
        ),
        ({"benchmark": "oie2016", "facets": ["default"]}, "'facets': BenchIE's"),
        ({"benchmark": "oie2016", "split": "wiki"}, "'split': \"wiki\" is not one of OIE2016's"),
        ({"benchmark": "oie2016", "metrics": ["carb"]}, "'metrics': unknown 'carb'"),
        ({"benchmark": "oie2016", "languages": ["de"]}, "'languages': unknown 'de'"),
    ],
)
def test_reference_files_it_refuses(spec: dict[str, object], message: str) -> None:
    doc = {"gold_version": "1.0.0", "gold_sha256": {"en": "0" * 64}, "languages": ["en"]}
    doc.update(spec)
    with pytest.raises(ValueError) as caught:
        parse_spec(json.dumps(doc).encode())
    assert message in str(caught.value)


def test_a_missing_language_scores_zero_and_says_so(tmp_path: Path) -> None:
    spec = {
        "benchmark": "oie2016",
        "split": "test",
        "gold_version": "2.0.0",
        "gold_sha256": {"en": _sha(OIE2016_TEST)},
        "languages": ["en"],
    }
    root = _input(tmp_path, spec)
    (root / "res" / "de.tsv").write_text("x\n")  # a language it does not score: left alone
    done = _run(root, tmp_path / "out")
    assert done.returncode == 2  # no file for any language this task scores
    assert "no file for any language this task scores" in done.stderr
