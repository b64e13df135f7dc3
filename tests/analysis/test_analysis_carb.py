"""``analyze(..., carb_reference=...)``: the BenchIE paper's Table 5 (BenchIE vs CaRB) in the
analysis document and its views. CaRB's numbers are those of ``score --metric benchie,carb``,
a submission CaRB cannot score is a failure left out of everything else, and without the
reference the document and both views are what they were."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from benchie_cli.analysis import views
from benchie_cli.analysis.profile import AnalyzeOptions, analyze
from benchie_cli.benchmarks.carb import report as carb_report
from benchie_cli.errors import BenchieError
from benchie_cli.gold.store import GoldStore, ResolvedGold
from benchie_cli.inputs.batch import Submission
from benchie_cli.report import to_json
from tests.benchmarks.carb.test_carb_metric import TABLE_5
from tests.conftest import ENGLISH_SYSTEMS, GOLD_DIR, REPO, RunCli, example

VERSION = "1.1.0"
#: Few resamples: the intervals are not what these tests check, only that CaRB leaves them be.
OPTIONS = AnalyzeOptions("en", resamples=50)
Analysis = tuple[dict[str, Any], list[Any], list[Any]]


def _facets() -> dict[str, ResolvedGold]:
    """Every facet of the English gold, as ``benchie analyze`` resolves them."""
    store = GoldStore(GOLD_DIR)
    return {
        facet: store.resolve(VERSION, "en", facet)
        for facet, _ in store.manifest(VERSION).facets("en")
    }


def _reference() -> ResolvedGold:
    return GoldStore(GOLD_DIR).reference(VERSION, "en", carb_report.CARB_REFERENCE)


def _submissions(systems: list[str] | tuple[str, ...] = ENGLISH_SYSTEMS) -> list[Submission]:
    return [Submission(system, str(example("en", system))) for system in systems]


@pytest.fixture(scope="module")
def both(index_cache_dir: Path) -> Iterator[tuple[Analysis, Analysis]]:
    """The English examples analysed with CaRB's reference and without it (the gold and
    index-cache settings of conftest's autouse fixture, which a module fixture precedes)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BENCHIE_GOLD_DIR", str(GOLD_DIR))
        mp.setenv("BENCHIE_CACHE_DIR", str(index_cache_dir))
        facets = _facets()
        with_carb = analyze(facets, _submissions(), OPTIONS, carb_reference=_reference())
        without = analyze(facets, _submissions(), OPTIONS)
        yield with_carb, without


@pytest.fixture(scope="module")
def report(both: tuple[Analysis, Analysis]) -> dict[str, Any]:
    return both[0][0]


def test_every_system_has_both_metrics(both: tuple[Analysis, Analysis]) -> None:
    (report, results, failures), _ = both
    assert failures == [] and "failures" not in report
    assert [s["name"] for s in report["systems"]] == list(ENGLISH_SYSTEMS)
    assert [r.name for r in results] == list(ENGLISH_SYSTEMS)
    for system in report["systems"]:
        carb = system["carb"]
        # BenchIE TSV has no confidences: CaRB's curve has one threshold, which the report says.
        assert list(carb) == [
            "precision",
            "recall",
            "f1",
            "auc",
            "points",
            "single_threshold",
            "curve",
            "difference",
        ]
        for k in ("precision", "recall", "f1"):
            assert carb["difference"][k] == carb[k] - system["default"][k]


def test_carb_numbers_are_those_of_score(
    report: dict[str, Any], cli_process: Callable[..., subprocess.CompletedProcess[str]]
) -> None:
    """The same ``carb`` objects, signature and reference as ``score --metric benchie,carb``
    gives for the same files, compared exactly."""
    res = cli_process(
        "score", "--lang", "en", "--gold-version", VERSION, "--metric", "benchie,carb",
        "--format", "json", *(example("en", s) for s in ENGLISH_SYSTEMS),
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    scored = orjson.loads(res.stdout)
    assert report["carb_signature"] == scored["carb_signature"]
    assert report["gold"]["carb_reference"] == scored["gold"]["carb_reference"]
    assert report["gold"]["carb_reference"]["path"] == f"{VERSION}/en/reference/carb_explicit.txt"
    by_name = {s["name"]: s for s in scored["systems"]}
    assert sorted(by_name) == sorted(ENGLISH_SYSTEMS)
    for system in report["systems"]:
        assert system["carb"] == by_name[system["name"]]["carb"], system["name"]


@pytest.mark.parametrize(("system", "paper", "ours"), TABLE_5)
def test_table_5_carb_rows(
    report: dict[str, Any],
    system: str,
    paper: tuple[float, float, float],
    ours: tuple[float, float, float],
) -> None:
    """published.CARB_TABLE_5 at two decimals, but for roi_n (docs/carb.md), as
    tests/benchmarks/carb/test_carb_metric.py::test_benchie_table_5 expects of the library."""
    carb = next(s["carb"] for s in report["systems"] if s["name"] == system)
    assert carb["points"] == 1  # the examples have no confidences
    rounded = tuple(round(carb[k], 2) for k in ("precision", "recall", "f1"))
    assert rounded == ours
    if system == "roi_n":
        assert rounded != paper
    else:
        assert rounded == paper


def test_text_view(report: dict[str, Any]) -> None:
    text = views.to_text(report)
    lines = text.splitlines()
    start = lines.index("BenchIE vs CaRB (BenchIE paper, Table 5)")
    assert lines[start + 2].split() == [
        "system", "BenchIE", "P", "BenchIE", "R", "BenchIE", "F1",
        "CaRB", "P", "CaRB", "R", "CaRB", "F1", "diff", "P", "diff", "R", "diff", "F1",
    ]  # fmt: skip
    rows = lines[start + 4 : start + 4 + len(ENGLISH_SYSTEMS)]
    by_f1 = sorted(report["systems"], key=lambda s: (-s["default"]["f1"], s["name"]))
    for line, system in zip(rows, by_f1, strict=True):
        benchie, carb = system["default"], system["carb"]
        keys = ("precision", "recall", "f1")
        assert line.split() == [
            system["name"],
            *(f"{benchie[k]:.4f}" for k in keys),
            *(f"{carb[k]:.4f}" for k in keys),
            *(f"{carb['difference'][k]:+.4f}" for k in keys),
        ]
    after = lines[start + 4 + len(ENGLISH_SYSTEMS) :]
    assert after[:2] == ["diff = CaRB - BenchIE", report["carb_signature"]]
    assert lines[-1] == report["signature"]


def test_html_view(report: dict[str, Any]) -> None:
    page = views.to_html(report)
    assert "<h2>BenchIE vs CaRB (BenchIE paper, Table 5)</h2>" in page
    section = page[page.index("BenchIE vs CaRB (BenchIE paper") : page.index("<h2>Errors</h2>")]
    assert '<table id="carb">' in section
    assert section.count("<tr>") == 1 + len(ENGLISH_SYSTEMS)  # the header and a row each
    for system in report["systems"]:
        assert f"<td>{system['name']}</td>" in section
        assert f"<td>{system['carb']['difference']['f1']:+.4f}</td>" in section
    assert "diff = CaRB - BenchIE" in section
    assert f"<code>{report['carb_signature']}</code>" in section
    assert '<svg id="chart-carb"' in section
    assert 'data-axis="x"' in section and 'data-axis="y"' in section  # both axes titled
    assert "http" not in section.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_a_system_name_is_escaped() -> None:
    odd = [Submission("<b>&x</b>", str(example("en", "clausie")))]
    report, _, _ = analyze(_facets(), odd, OPTIONS, carb_reference=_reference())
    page, text = views.to_html(report), views.to_text(report)
    assert "<b>&x</b>" not in page and "&lt;b&gt;&amp;x&lt;/b&gt;" in page
    assert any(line.startswith("<b>&x</b> ") for line in text.splitlines())


def test_without_the_reference_nothing_changes(both: tuple[Analysis, Analysis]) -> None:
    """Without ``carb_reference`` the document has no CaRB key, and with it the document and
    the views are the same once CaRB's additions are taken out: CaRB adds, never changes."""
    (with_carb, _, _), (without, _, _) = both
    # the files' paths name the checkout, whose directory may hold "carb" in its name
    assert b"carb" not in to_json(without).replace(str(REPO).encode(), b"").lower()
    assert "CaRB" not in views.to_text(without) and "CaRB" not in views.to_html(without)
    stripped = orjson.loads(to_json(with_carb))
    del stripped["carb_signature"]
    del stripped["gold"]["carb_reference"]
    for system in stripped["systems"]:
        del system["carb"]
    assert orjson.dumps(stripped) == orjson.dumps(orjson.loads(to_json(without)))
    text = views.to_text(with_carb)
    start = text.index("\nBenchIE vs CaRB")
    end = text.index(with_carb["carb_signature"]) + len(with_carb["carb_signature"]) + 1
    assert text[:start] + text[end:] == views.to_text(without)
    page = views.to_html(with_carb)
    start, end = page.index("<h2>BenchIE vs CaRB"), page.index("<h2>Errors</h2>")
    assert page[:start] + page[end:] == views.to_html(without)


def test_same_document_twice(both: tuple[Analysis, Analysis]) -> None:
    (report, _, _), _ = both
    again, _, _ = analyze(_facets(), _submissions(), OPTIONS, carb_reference=_reference())
    assert to_json(again) == to_json(report)


def test_a_submission_carb_cannot_score_is_a_failure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As with ``score --metric benchie,carb``: the failure is returned and reported, and the
    system is in nothing else, so the intervals and comparisons are those of the others."""
    real = carb_report.score_carb

    def refuse_minie(path: str, name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "minie":
            raise BenchieError("CaRB cannot read it", path=path)
        return real(path, name, *args, **kwargs)

    monkeypatch.setattr(carb_report, "score_carb", refuse_minie)
    facets = _facets()
    three = _submissions(["clausie", "minie", "openie6"])
    report, results, failures = analyze(facets, three, OPTIONS, carb_reference=_reference())
    assert [f.submission.name for f in failures] == ["minie"]
    assert "CaRB cannot read it" in failures[0].message
    assert [r.name for r in results] == ["clausie", "openie6"]
    assert [s["name"] for s in report["systems"]] == ["clausie", "openie6"]
    assert [(f["name"], f["error"]) for f in report["failures"]] == [("minie", failures[0].message)]
    assert [(c["a"], c["b"]) for c in report["comparisons"]] == [("clausie", "openie6")]
    two, _, _ = analyze(facets, _submissions(["clausie", "openie6"]), OPTIONS)
    for mine, plain in zip(report["systems"], two["systems"], strict=True):
        assert {k: v for k, v in mine.items() if k != "carb"} == plain
    assert report["comparisons"] == two["comparisons"]
    assert "FAILED minie: " in views.to_text(report)


def test_analyze_command_with_carb(cli: RunCli, tmp_path: Path) -> None:
    """``benchie analyze --metric benchie,carb``: the Table-5 section in the text and the
    HTML page; CaRB's gold is English only, and CaRB alone is not a profile."""
    files = [example("en", s) for s in ("clausie", "minie")]
    args = ["analyze", "--lang", "en", "--gold-version", VERSION, "--resamples", "50"]
    text = cli(*args, "--metric", "benchie,carb", *files)
    assert text.exit_code == 0, text.stderr
    lines = text.stdout.splitlines()
    start = lines.index("BenchIE vs CaRB (BenchIE paper, Table 5)")
    rows = {line.split()[0] for line in lines[start + 4 : start + 6]}
    assert rows == {"clausie", "minie"}
    assert "diff = CaRB - BenchIE" in lines[start:]
    plain = cli(*args, *files)
    assert plain.exit_code == 0 and "CaRB" not in plain.stdout
    page = tmp_path / "x.html"
    html = cli(*args, "--metric", "benchie,carb", *files, "-o", page)
    assert html.exit_code == 0, html.stderr
    assert "<h2>BenchIE vs CaRB (BenchIE paper, Table 5)</h2>" in page.read_text("utf-8")
    german = cli(
        "analyze", "--lang", "de", "--gold-version", VERSION, "--resamples", "50",
        "--metric", "benchie,carb", example("de", "m2oie_de"),
    )  # fmt: skip
    assert german.exit_code == 2
    assert "English only" in german.stderr
    carb_alone = cli(*args, "--metric", "carb", *files)
    assert carb_alone.exit_code == 2
    assert "--metric" in carb_alone.stderr
