"""The precision-recall curves of ``score --suite ... -o suite.html`` (docs/suite.md): a
figure per benchmark row with a curve, every system's line on it, whose points read back
as the curve the benchmark's own report holds (OpenIE 4's and OpenIE 5's outputs as CaRB
ships them, tests/data/carb); and on reports worked by hand, what a line of one point, a
point without a number and many systems look like.
"""

from __future__ import annotations

import html
import itertools
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import orjson

from benchie_cli import suite, suite_views
from benchie_cli.gold.dirs import resolve
from tests.conftest import DATA, RunCli

CARB = DATA / "carb"
OIE4 = CARB / "openie4_output.txt.gz"
OIE5 = CARB / "openie5_output.txt.gz"
SVG = "{http://www.w3.org/2000/svg}"

Points = list[tuple[float, float]]


def _drawn(page: str) -> dict[str, dict[str, Points]]:
    """Each curve figure's caption, and each system's points as its SVG draws them (read
    back from the marks' coordinates, in the plot's data units)."""
    figures: dict[str, dict[str, Points]] = {}
    for caption, svg in re.findall(
        r"<figure><figcaption>([^<]*)</figcaption>(<svg .*?</svg>)</figure>", page
    ):
        root = ET.fromstring(svg)  # well-formed XML, or this fails
        group = root.find(f"{SVG}g[@class='curves']")
        if group is None:
            continue
        side, left, top = suite_views.PLOT_SIDE, suite_views.PLOT_LEFT, suite_views.PLOT_TOP
        assert group.get("transform") == f"matrix({side} 0 0 -{side} {left} {top + side})"
        lines: dict[str, Points] = {}
        for mark in group:
            name = mark.get("data-system")
            assert name is not None
            if mark.tag == f"{SVG}polyline":
                pairs = (mark.get("points") or "").split()
                lines[name] = [(float(x), float(y)) for x, y in (p.split(",") for p in pairs)]
            else:
                assert mark.tag == f"{SVG}circle"
                lines[name] = [(float(mark.get("cx") or "nan"), float(mark.get("cy") or "nan"))]
        figures[html.unescape(caption)] = lines
    return figures


def _expected(curve: dict[str, list[float | None]]) -> Points:
    """A report's curve as a line through its points: (recall, precision) in its order,
    those without a number left out, a point repeating the one before it once."""
    points: Points = []
    for r, p in zip(curve["recall"], curve["precision"], strict=True):
        if r is not None and p is not None and (not points or points[-1] != (r, p)):
            points.append((r, p))
    return points


def _curves_of(report: dict[str, Any]) -> dict[str, dict[str, Points]]:
    """The figures a report's curves make: caption, each system's expected points."""
    out: dict[str, dict[str, Points]] = {}
    for name, part in suite_views.systems_of(report):
        for row in part["rows"]:
            numbers = row.get(row["metric"])
            if "skipped" in row or "curve" not in numbers:
                continue
            label = suite_views.METRICS[row["metric"]].label
            out.setdefault(label, {})[name] = _expected(numbers["curve"])
    return {
        f"{label}: precision-recall curve" + ("s" if len(lines) > 1 else ""): lines
        for label, lines in out.items()
    }


def test_the_pages_curves_are_the_reports_points(cli: RunCli, tmp_path: Path) -> None:
    page_path = tmp_path / "suite.html"
    result = cli("score", "--suite", f"OpenIE 4={OIE4}", OIE5, "-o", page_path)
    assert result.exit_code == 0, result.stderr
    page = page_path.read_text(encoding="utf-8")
    assert "<script" not in page and " href=" not in page and " src=" not in page
    report = suite.run_systems(
        [("OpenIE 4", str(OIE4)), ("openie5_output", str(OIE5))], "auto", resolve(None), curves=True
    )
    # The page is the report with its curves, drawn: the same bytes each time.
    assert suite_views.to_html(report).encode() == page_path.read_bytes()
    drawn = _drawn(page)
    assert list(drawn) == [
        "CaRB: precision-recall curves",
        "CaRB (s,s): precision-recall curves",
        "OIE2016: precision-recall curves",
        "OIE2016 (2018 scorer): precision-recall curves",
    ]
    assert drawn == _curves_of(report)
    assert all(len(points) > 100 for lines in drawn.values() for points in lines.values())
    # Each curve is the one the benchmark's own command reports for the file.
    for benchmark, metrics in (("carb", ["carb", "carb-ss"]), ("oie2016", ["oie2016"])):
        out = tmp_path / f"{benchmark}.json"
        args = ["--benchmark", benchmark, "--metric", ",".join(metrics), f"OpenIE 4={OIE4}"]
        assert cli("score", *args, "-o", out).exit_code == 0
        own = orjson.loads(out.read_bytes())
        for metric in metrics:
            label = suite_views.METRICS[metric].label
            theirs = _expected(own["systems"][0][metric]["curve"])
            assert drawn[f"{label}: precision-recall curves"]["OpenIE 4"] == theirs, metric
    # The JSON report holds no curve: its bytes do not change.
    json_path = tmp_path / "suite.json"
    assert cli("score", "--suite", f"OpenIE 4={OIE4}", OIE5, "-o", json_path).exit_code == 0
    assert b'"curve"' not in json_path.read_bytes()


def test_one_systems_page_has_its_curves(cli: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "one.html"
    assert cli("score", "--suite", OIE5, "-o", out).exit_code == 0
    drawn = _drawn(out.read_text(encoding="utf-8"))
    assert list(drawn) == [
        "CaRB: precision-recall curve",
        "CaRB (s,s): precision-recall curve",
        "OIE2016: precision-recall curve",
        "OIE2016 (2018 scorer): precision-recall curve",
    ]
    assert all(list(lines) == ["openie5_output"] for lines in drawn.values())


def _system(name: str, curve: dict[str, list[Any]] | None) -> dict[str, Any]:
    numbers: dict[str, Any] = {"precision": 0.5, "recall": 0.5, "f1": 0.5, "auc": 0.25}
    if curve is not None:
        numbers["curve"] = curve
    row = {"benchmark": "carb", "metric": "carb", "split": "test", "signature": "s"}
    return {
        "name": name,
        "file": {"path": "x", "sha256": "0" * 64},
        "rows": [{**row, "carb": numbers}],
    }


def _report(systems: list[dict[str, Any]]) -> dict[str, Any]:
    return {"schema": 1, "benchie_version": "0", "suite": True, "systems": systems}


def test_curves_worked_by_hand() -> None:
    nan_first = {
        "threshold": [None, 0.5, 0.7],
        "precision": [1.0, 0.5, 0.5],
        "recall": [None, 0.25, 0.25],
    }
    one = {"threshold": [0.9], "precision": [0.75], "recall": [0.125]}
    report = _report(
        [
            _system('<b>a|b</b> & "q"', nan_first),
            _system("one point", one),
            _system("no curve", None),
        ]
    )
    page = suite_views.to_html(report)
    assert _drawn(page) == {
        "CaRB: precision-recall curves": {
            '<b>a|b</b> & "q"': [(0.25, 0.5)],  # NaN left out, the repeated point once
            "one point": [(0.125, 0.75)],  # a dot
        }
    }
    assert "<b>a|b" not in page  # every name escaped
    assert 'aria-label="CaRB: precision-recall curves"' in page
    assert ">recall</text>" in page and ">precision</text>" in page  # the axes' titles
    assert "one point (AUC 0.2500)" in page  # the legend
    # A report without curves (its JSON) draws no figure.
    assert "Precision-recall curves" not in suite_views.to_html(_report([_system("x", None)]))


def test_many_systems_each_have_a_style_of_their_own() -> None:
    styles = [suite_views.style_of(n) for n in range(40)]
    assert len(set(styles)) == 40
    assert all(
        a[0] != b[0] and a[1] != b[1] for a, b in itertools.pairwise(styles)
    )  # neighbours differ in colour and dash
    line = {"threshold": [0.1, 0.9], "precision": [0.5, 1.0], "recall": [0.5, 0.1]}
    page = suite_views.to_html(_report([_system(f"s{n}", line) for n in range(9)]))
    marks = re.findall(
        r'<polyline class="pr" data-system="(s\d)"[^>]*stroke="([^"]+)"([^>]*)>', page
    )
    assert [m[0] for m in marks] == [f"s{n}" for n in range(9)]
    assert len({(colour, dash) for _, colour, dash in marks}) == 9
    assert marks[0][1] == marks[8][1] and marks[0][2] != marks[8][2]  # colour again, not dash
