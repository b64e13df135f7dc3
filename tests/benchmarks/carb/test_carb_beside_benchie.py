"""``benchie score --metric carb`` and ``--metric benchie,carb``: the BenchIE paper's Table 5
CaRB rows through the command, the side-by-side view, the default unchanged, the errors,
determinism and ``verify`` of both kinds of report."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

from benchie_cli.benchmarks.carb import data as carb_data
from benchie_cli.benchmarks.carb import metric as carb_metric
from benchie_cli.gold.parse import load_gold
from benchie_cli.inputs.submission import Extraction as SubmissionExtraction
from benchie_cli.inputs.submission import FileFacts, read_submission
from tests.benchmarks.carb.test_carb_metric import TABLE_5
from tests.conftest import ENGLISH_SYSTEMS, EXAMPLES, GOLD_DIR, RunCli, example

EN = EXAMPLES / "en"


def _json(cli: RunCli, *args: str | Path) -> dict[str, Any]:
    res = cli("score", *args, "--format", "json")
    assert res.exit_code == 0, res.stderr
    doc: dict[str, Any] = orjson.loads(res.stdout_bytes)
    return doc


def _library(system: str, version: str = "1.0.0") -> carb_metric.CarbScore:
    """The library's score, as
    tests/benchmarks/carb/test_carb_metric.py::test_benchie_table_5 computes it."""
    gold = carb_data.read_file(
        str(GOLD_DIR / version / "en/reference/carb_explicit.txt"), carb_data.read_gold
    )
    annotations = next(iter((GOLD_DIR / version / "en/default").glob("*.txt")))
    texts = {i: s.text for i, s in load_gold(str(annotations)).sentences.items()}
    lines = read_submission(str(EN / f"{system}.tsv"), FileFacts(system))
    extractions = [e for e in lines if isinstance(e, SubmissionExtraction)]
    return carb_metric.score(gold, carb_data.from_submission(extractions, texts))


@pytest.fixture(scope="module")
def carb_report() -> dict[str, Any]:
    """``score --metric carb --gold-version 1.0.0 --lang en examples/submissions/en/``."""
    from click.testing import CliRunner

    from benchie_cli.cli import main

    args = ["score", "--metric", "carb", "--gold-version", "1.0.0", "--lang", "en"]
    res = CliRunner().invoke(
        main,
        [*args, f"{EN}/", "--format", "json"],
        env={"BENCHIE_GOLD_DIR": str(GOLD_DIR)},
        catch_exceptions=False,
    )
    assert res.exit_code == 0, res.stderr
    doc: dict[str, Any] = orjson.loads(res.stdout_bytes)
    return doc


@pytest.mark.parametrize(("system", "paper", "ours"), TABLE_5)
def test_table_5_carb_rows_through_the_command(
    carb_report: dict[str, Any],
    system: str,
    paper: tuple[float, float, float],
    ours: tuple[float, float, float],
) -> None:
    by_name = {s["name"]: s for s in carb_report["systems"]}
    carb = by_name[system]["carb"]
    expected = _library(system)
    assert (carb["precision"], carb["recall"], carb["f1"]) == expected.optimal
    assert carb["auc"] == expected.auc
    assert carb["points"] == len(expected.curve) == 1  # confidence 1.0 throughout
    rounded = tuple(round(carb[k], 2) for k in ("precision", "recall", "f1"))
    assert rounded == ours
    if system == "roi_n":  # the one row that does not match the paper (docs/carb.md)
        assert rounded != paper
    else:
        assert rounded == paper


def test_carb_report_shape(carb_report: dict[str, Any]) -> None:
    sha = (GOLD_DIR / "1.0.0/manifest.json").read_bytes()
    entry = next(
        f for f in orjson.loads(sha)["files"] if f["path"] == "en/reference/carb_explicit.txt"
    )
    assert carb_report["metric"] == "carb"
    assert carb_report["signature"] == (
        f"benchie|lang:en|metric:carb|gold:1.0.0@{entry['sha256'][:12]}|v:0.2.0"
    )
    assert carb_report["gold"]["files"] == [
        {"path": "1.0.0/en/reference/carb_explicit.txt", "sha256": entry["sha256"]}
    ]
    assert carb_report["options"] == {"lang": "en", "metric": "carb"}
    assert [s["name"] for s in carb_report["systems"]] == sorted(ENGLISH_SYSTEMS)
    # ranked by CaRB's F1
    best = max(carb_report["systems"], key=lambda s: s["carb"]["f1"])
    assert best["rank"] == 1 and best["name"] == "m2oie_en"


def _both(cli: RunCli, fmt: str) -> str:
    res = cli("score", "--metric", "benchie,carb", "--gold-version", "1.0.0", EN, "--format", fmt)
    assert res.exit_code == 0, res.stderr
    return res.stdout


def test_side_by_side(cli: RunCli) -> None:
    doc = orjson.loads(_both(cli, "json"))
    benchie = _json(cli, "--gold-version", "1.0.0", EN)
    assert doc["metric"] == "benchie,carb"
    assert doc["signature"] == benchie["signature"]
    assert doc["carb_signature"].startswith("benchie|lang:en|metric:carb|gold:1.0.0@357e09eab551")
    assert len(doc["systems"]) == 8
    for mine, plain in zip(doc["systems"], benchie["systems"], strict=True):
        carb = mine.pop("carb")
        assert mine == plain  # BenchIE's numbers and ranks as without --metric
        for k in ("precision", "recall", "f1"):
            assert carb["difference"][k] == carb[k] - plain[k]
    table = _both(cli, "table")
    lines = table.splitlines()
    assert lines[0].split() == [
        "#", "system", "BenchIE", "P", "BenchIE", "R", "BenchIE", "F1",
        "CaRB", "P", "CaRB", "R", "CaRB", "F1", "diff", "P", "diff", "R", "diff", "F1",
    ]  # fmt: skip
    clausie = next(s for s in orjson.loads(_both(cli, "json"))["systems"] if s["name"] == "clausie")
    cells = [
        str(clausie["rank"]),
        "clausie",
        *(f"{clausie[k]:.4f}" for k in ("precision", "recall", "f1")),
        *(f"{clausie['carb'][k]:.4f}" for k in ("precision", "recall", "f1")),
        *(f"{clausie['carb']['difference'][k]:+.4f}" for k in ("precision", "recall", "f1")),
    ]
    assert cells == [
        "1", "clausie", "0.5029", "0.2556", "0.3389", "0.5800", "0.5343", "0.5562",
        "+0.0771", "+0.2787", "+0.2173",
    ]  # fmt: skip
    widths = [len(dashes) for dashes in lines[1].split()]
    row = "  ".join(
        cell.ljust(w) if i == 1 else cell.rjust(w)
        for i, (cell, w) in enumerate(zip(cells, widths, strict=True))
    )
    assert lines[2] == row  # clausie, first by BenchIE's F1
    assert row == (
        "1  clausie       0.5029     0.2556      0.3389  0.5800  0.5343   0.5562  +0.0771  "
        "+0.2787  +0.2173"
    )
    assert [line.split() for line in lines if line.split()[1:2] == ["clausie"]] == [cells]
    assert [line.split()[1] for line in lines[2:10]] == [
        s["name"] for s in sorted(doc["systems"], key=lambda s: (s["rank"], s["name"]))
    ]  # ranked by BenchIE's F1
    assert lines[-2:] == [doc["signature"], doc["carb_signature"]]
    markdown = _both(cli, "markdown")
    assert "| " + " | ".join(cells) + " |" in markdown.splitlines()
    assert f"`{doc['signature']}`" in markdown and f"`{doc['carb_signature']}`" in markdown


def test_default_output_unchanged(cli: RunCli) -> None:
    for fmt in ("json", "table", "markdown"):
        plain = cli("score", EN, "--format", fmt)
        explicit = cli("score", EN, "--format", fmt, "--metric", "benchie")
        assert plain.exit_code == explicit.exit_code == 0
        assert plain.stdout_bytes == explicit.stdout_bytes
        assert b"metric" not in plain.stdout_bytes


def test_default_score_does_not_import_carb() -> None:
    code = (
        "import sys\n"
        "from benchie_cli.cli import main\n"
        "try:\n"
        f"    main(['score', {str(example('en', 'clausie'))!r}], standalone_mode=False)\n"
        "finally:\n"
        "    assert not [m for m in sys.modules if 'carb' in m], sorted(sys.modules)\n"
    )
    res = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={"BENCHIE_GOLD_DIR": str(GOLD_DIR), "PATH": ""},
        check=False,
    )
    assert res.returncode == 0, res.stderr


@pytest.mark.parametrize("lang", ["de", "zh"])
@pytest.mark.parametrize("metric", ["carb", "benchie,carb"])
def test_english_only(cli: RunCli, lang: str, metric: str) -> None:
    res = cli("score", "--metric", metric, "--lang", lang, EXAMPLES / lang)
    assert res.exit_code == 2
    assert "English only" in res.stderr and f"--lang {lang}" in res.stderr
    assert res.stdout == ""


def test_version_without_the_reference_file(cli: RunCli, tmp_path: Path) -> None:
    version = tmp_path / "9.0.0"
    shutil.copytree(GOLD_DIR / "1.1.0/en/default", version / "en/default")
    assert cli("gold", "manifest", version).exit_code == 0
    res = cli("score", "--metric", "carb", "--gold-dir", tmp_path, "--gold-version", "9.0.0",
              example("en", "clausie"))  # fmt: skip
    assert res.exit_code == 2
    assert "gold 9.0.0 has no reference file en/reference/carb_explicit.txt" in res.stderr


def test_options_that_do_not_apply(cli: RunCli) -> None:
    clausie = example("en", "clausie")
    res = cli("score", "--metric", "carb", "--keep-implicit", "--facet", "concat", clausie)
    assert res.exit_code == 2
    assert "--facet concat, --keep-implicit" in res.stderr
    gold = GOLD_DIR / "1.0.0/en/default/benchie_gold_annotations_en.txt"
    res = cli("score", "--metric", "benchie,carb", "--gold-file", gold, clausie)
    assert res.exit_code == 2 and "--gold-file does not apply" in res.stderr


def test_deterministic(cli: RunCli) -> None:
    for metric in ("carb", "benchie,carb"):
        first = cli("score", "--metric", metric, EN, "--format", "json")
        second = cli("score", "--metric", metric, EN, "--format", "json")
        assert first.exit_code == second.exit_code == 0
        assert first.stdout_bytes == second.stdout_bytes


def test_expect_gold_pins_the_reference(cli: RunCli) -> None:
    clausie = example("en", "clausie")
    assert cli("score", "--metric", "carb", "--expect-gold", "357e09eab551", clausie).exit_code == 0
    res = cli("score", "--metric", "carb", "--expect-gold", "b10e0a527811", clausie)
    assert res.exit_code == 1 and "carb_explicit.txt" in res.stderr


def test_confidences_give_a_curve(cli: RunCli, tmp_path: Path) -> None:
    lines = (EN / "clausie.tsv").read_text(encoding="utf-8").splitlines()
    confident = tmp_path / "conf.tsv"
    confident.write_text(
        "#benchie-tsv confidence\n"
        + "".join(f"{line}\t{(i % 4 + 1) / 4}\n" for i, line in enumerate(lines)),
        encoding="utf-8",
    )
    doc = _json(cli, "--metric", "carb", confident)
    assert doc["systems"][0]["carb"]["points"] == 4


@pytest.mark.parametrize("metric", ["carb", "benchie,carb"])
def test_verify(cli: RunCli, tmp_path: Path, metric: str) -> None:
    out = tmp_path / "r.json"
    paths = [example("en", "clausie"), example("en", "minie")]
    assert cli("score", "--metric", metric, *paths, "-o", out).exit_code == 0
    res = cli("verify", out)
    assert res.exit_code == 0, res.stderr
    assert "byte for byte" in res.stdout
    doc = orjson.loads(out.read_bytes())
    doc["systems"][1]["carb"]["f1"] += 0.01
    out.write_bytes(orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n")
    res = cli("verify", out)
    assert res.exit_code == 1
    assert "systems[1].carb.f1" in res.stdout + res.stderr


def test_unknown_sentence_ids_are_said(cli: RunCli, tmp_path: Path) -> None:
    """As for BenchIE's metric: counted in the JSON, said on stderr, an error under --strict."""
    path = tmp_path / "unk.tsv"
    path.write_text("9999\ta\tb\tc\n1\tHe\tserved\tas\n", encoding="utf-8")
    said = cli("score", "--metric", "carb", "--lang", "en", path)
    assert said.exit_code == 0
    assert "warning: 1 extraction(s) of sentence ids not in the gold" in said.stderr
    assert cli("score", "--metric", "carb", "--lang", "en", "--strict", path).exit_code == 1
