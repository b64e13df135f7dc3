"""``benchie score --format html``: one self-contained leaderboard page, ranked by F1, with
the signature, the gold's sha256, 95% bootstrap intervals and pairwise significance."""

from __future__ import annotations

import json
import re
import subprocess
from html import unescape
from pathlib import Path
from typing import Any

import pytest

from tests.analysis.test_html_render import CHROMIUM_FLAGS, chromium  # noqa: F401 (a fixture)
from tests.conftest import EXAMPLES, RunCli, example

ENGLISH = EXAMPLES / "en"
#: The eight English examples by F1, best first (docs/reports.md).
BY_F1 = ["clausie", "minie", "openie6", "m2oie_en", "stanford", "roi_t", "roi_n", "naive_oie"]


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, Any]]:
    """The page of the eight English examples and the JSON report of the same run."""
    from click.testing import CliRunner

    from benchie_cli.cli import main

    out = tmp_path_factory.mktemp("leaderboard")
    runner = CliRunner()
    for name in ("board.html", "report.json"):
        res = runner.invoke(main, ["score", "--lang", "en", str(ENGLISH), "-o", str(out / name)])
        assert res.exit_code == 0, res.stderr
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    return (out / "board.html").read_text(encoding="utf-8"), report


def _leaderboard_rows(html: str) -> list[list[str]]:
    table = re.search(r'<table id="leaderboard">.*?<tbody>(.*?)</tbody>', html, re.S)
    assert table
    return [
        [unescape(c) for c in re.findall(r"<td>(.*?)</td>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", table.group(1))
    ]


def test_page_ranks_the_eight_systems_by_f1(page: tuple[str, dict[str, Any]]) -> None:
    html, _ = page
    rows = _leaderboard_rows(html)
    assert [r[1] for r in rows] == BY_F1
    assert [r[0] for r in rows] == [str(n) for n in range(1, 9)]
    clausie = rows[0]
    assert re.fullmatch(r"0\.3389 \[0\.\d{4}, 0\.\d{4}\]", clausie[4]), clausie
    low, high = map(float, re.findall(r"\[(.*), (.*)\]", clausie[4])[0])
    assert low < 0.3389 < high and high - low > 0.01
    assert clausie[5:] == ["345", "341", "1005", "695"]
    # The note and the chart name the resampling that made the intervals.
    assert "1000 bootstrap resamples" in html and "seed 12345" in html
    assert '<svg id="chart-ci"' in html


def test_page_names_the_signature_gold_and_version(page: tuple[str, dict[str, Any]]) -> None:
    html, report = page
    gold = report["gold"]
    sha256 = gold["files"][0]["sha256"]
    assert len(sha256) == 64 and sha256 in html
    assert f'<code id="signature">{report["signature"]}</code>' in html
    assert f"<dd>{gold['version']}</dd>" in html and "<dd>en</dd>" in html
    assert "<dd>default</dd>" in html
    assert f"benchie {report['benchie_version']}" in html
    for system in report["systems"]:
        assert system["sha256"] in html


def test_page_marks_significant_differences(page: tuple[str, dict[str, Any]]) -> None:
    html, _ = page
    matrix = re.search(r'<table id="significance">.*?</table>', html, re.S)
    assert matrix
    # 28 pairs of 8 systems; clausie vs minie (0.3389 vs 0.3372) is not significant,
    # clausie vs naive_oie is.
    cells = re.findall(r'<div class="(significant|pair)" title="([^"]*)">([^<]*)<br>', html)
    assert len(cells) == 28
    by_pair = {title: (kind, delta) for kind, title, delta in cells}
    assert by_pair["clausie - minie"] == ("pair", "+0.0017")
    assert by_pair["clausie - naive_oie"][0] == "significant"
    assert "paired bootstrap" in html and "p &lt; 0.05" in html


def test_page_is_self_contained(page: tuple[str, dict[str, Any]]) -> None:
    html, _ = page
    assert "<script" not in html
    assert not re.search(r"""(src|href)=|url\(|@import|https?://(?!www\.w3\.org/2000/svg)""", html)


def test_same_run_twice_gives_identical_bytes(cli: RunCli, tmp_path: Path) -> None:
    outs = []
    for n in range(2):
        out = tmp_path / f"{n}.html"
        assert cli("score", "--lang", "en", ENGLISH, "--format", "html", "-o", out).exit_code == 0
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    res = cli("score", "--lang", "en", ENGLISH, "--format", "html")  # to stdout
    assert res.exit_code == 0
    assert res.stdout.encode() == outs[0]


def test_format_follows_the_extension(cli: RunCli, tmp_path: Path) -> None:
    """Without --format, -o writes what its extension names (as --suite does): the page for
    *.html, markdown for *.md, the table for *.txt, and JSON for *.json or no extension;
    each the bytes --format gives on stdout. Any other extension is refused before any
    work (a lb.csv of JSON was found wrong only when opened)."""
    system = example("en", "clausie")
    formats = {
        "x.HTML": "html",
        "x.json": "json",
        "x": "json",
        "x.md": "markdown",
        "x.txt": "table",
    }
    for refused in ("x.out", "x.csv"):
        res = cli("score", "--lang", "en", system, "-o", tmp_path / refused)
        assert res.exit_code == 2 and "is none of them" in res.stderr, res.stderr
        assert not (tmp_path / refused).exists()
    for name, fmt in formats.items():
        out = tmp_path / name
        res = cli("score", "--lang", "en", system, "-o", out)
        assert res.exit_code == 0, res.stderr
        assert f"({fmt}: 1 system(s)" in res.stderr, name
        if fmt != "html":
            printed = cli("score", "--lang", "en", system, "--format", fmt).stdout
            assert out.read_text(encoding="utf-8") == printed, name
    assert (tmp_path / "x.HTML").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    data = tmp_path / "x.json"
    assert json.loads(data.read_text(encoding="utf-8"))["systems"][0]["name"] == "clausie"
    # --format wins over the extension.
    forced = tmp_path / "forced.md"
    res = cli("score", "--lang", "en", system, "--format", "json", "-o", forced)
    assert res.exit_code == 0, res.stderr
    assert forced.read_bytes() == data.read_bytes()


def test_other_formats_are_unchanged(cli: RunCli, tmp_path: Path) -> None:
    """Asking for the page changes nothing else: JSON, table and markdown are the bytes of a
    run that never made one."""
    before = {
        fmt: cli("score", "--lang", "en", ENGLISH, "--format", fmt).stdout
        for fmt in ("json", "table", "markdown")
    }
    assert cli("score", "--lang", "en", ENGLISH, "-o", tmp_path / "x.html").exit_code == 0
    after = {
        fmt: cli("score", "--lang", "en", ENGLISH, "--format", fmt).stdout
        for fmt in ("json", "table", "markdown")
    }
    assert before == after
    assert "[95% CI]" not in after["table"] and "ci95" not in after["json"]


def test_names_and_files_are_escaped(cli: RunCli, tmp_path: Path) -> None:
    evil = tmp_path / "<b>x.tsv"
    evil.write_bytes(example("en", "minie").read_bytes())
    out = tmp_path / "x.html"
    res = cli(
        "score", "--lang", "en",
        f"<script>alert(1)</script>={example('en', 'clausie')}", evil, "-o", out,
    )  # fmt: skip
    assert res.exit_code == 0, res.stderr
    html = out.read_text(encoding="utf-8")
    assert "<script" not in html and "<b>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;b&gt;x" in html


def test_failures_are_listed(cli: RunCli, tmp_path: Path) -> None:
    broken = tmp_path / "broken<i>.tsv"
    broken.write_bytes(b"\xff\xfe not utf-8\n")
    out = tmp_path / "x.html"
    res = cli("score", "--lang", "en", example("en", "clausie"), broken, "-o", out)
    assert res.exit_code == 1
    html = out.read_text(encoding="utf-8")
    assert '<table id="failures">' in html and "broken&lt;i&gt;" in html
    assert _leaderboard_rows(html)[0][1] == "clausie"
    assert '<table id="significance">' not in html  # one system: nothing to compare


@pytest.mark.parametrize(
    "options",
    [["--metric", "carb"], ["--metric", "benchie,carb"], ["--benchmark", "carb"]],
)
def test_carb_is_refused(cli: RunCli, tmp_path: Path, options: list[str]) -> None:
    out = tmp_path / "x.html"
    res = cli("score", *options, "--format", "html", example("en", "clausie"), "-o", out)
    assert res.exit_code == 2
    assert "html leaderboard page shows BenchIE's metric only" in res.stderr
    assert not out.exists()


def test_leaderboard_renders_in_chromium(
    chromium: str,  # noqa: F811 (the fixture)
    page: tuple[str, dict[str, Any]],
    tmp_path: Path,
) -> None:
    html, _ = page
    board = tmp_path / "board.html"
    board.write_text(html, encoding="utf-8")
    common = [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile'}"]
    dom = subprocess.run(
        [*common, "--dump-dom", board.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    ).stdout
    # The browser parsed the page into the ranked table, the chart and the matrix.
    assert [r[1] for r in _leaderboard_rows(dom)] == BY_F1
    chart = re.search(r'<svg id="chart-ci".*?</svg>', dom, re.S)
    assert chart and chart.group(0).count("<circle") == 8
    assert dom.count('<div class="significant"') + dom.count('<div class="pair"') == 28
    shot = tmp_path / "shot.png"
    subprocess.run(
        [*common, "--window-size=1000,1600", f"--screenshot={shot}", board.as_uri()],
        capture_output=True,
        timeout=120,
        check=False,
    )
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG") and len(data) > 30_000  # a drawn page, not a blank one


def test_the_api_gives_the_same_page(cli: RunCli) -> None:
    from benchie_cli import api

    gold = api.load_gold(lang="en")
    report = api.score(gold, ENGLISH / "clausie.tsv", ENGLISH / "minie.tsv")
    res = cli(
        "score", "--lang", "en", ENGLISH / "clausie.tsv", ENGLISH / "minie.tsv", "--format", "html"
    )
    assert report.to_html() == res.stdout
