"""``benchie plot`` (issue 26): the figure's points are the report's curve points, read
back from the SVG; one style per system; deterministic SVG bytes; clear refusals."""

from __future__ import annotations

import json
import re
from pathlib import Path
from xml.etree import ElementTree

import pytest

from tests.conftest import DATA, RunCli
from tests.test_curves import scored

__all__ = ["scored"]  # (the fixture: OpenIE 4 scored on CaRB and OIE2016)

try:
    import matplotlib  # noqa: F401

    HAVE_MATPLOTLIB = True
except ImportError:  # (the test extra installs it: CI always draws)
    HAVE_MATPLOTLIB = False
needs_matplotlib = pytest.mark.skipif(
    not HAVE_MATPLOTLIB, reason="benchie plot needs matplotlib: pip install 'benchie-cli[plot]'"
)

#: The namespace of the SVG elements, as ElementTree names them.
SVG = "{http://www.w3.org/2000/svg}"
_NUMBER = r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?"


def _path_of(svg: str, gid: str) -> list[tuple[float, float]]:
    """The points of the first path in the SVG group of id ``gid``."""
    group = re.search(rf'<g id="{re.escape(gid)}">\s*<path [^>]*?d="([^"]*)"', svg)
    assert group is not None, gid
    pairs = re.findall(rf"[ML] ({_NUMBER}) ({_NUMBER})", group.group(1))
    return [(float(x), float(y)) for x, y in pairs]


def _data_points(svg: str, index: int) -> list[tuple[float, float]]:
    """The ``index``-th curve's points in data coordinates (recall, precision): the
    plotting area's rectangle spans 0 to 1 on both axes."""
    from benchie_cli.analysis.plot import AREA_ID, curve_id

    corners = _path_of(svg, AREA_ID)
    left, right = min(x for x, _ in corners), max(x for x, _ in corners)
    top, bottom = min(y for _, y in corners), max(y for _, y in corners)
    return [
        ((x - left) / (right - left), (bottom - y) / (bottom - top))
        for x, y in _path_of(svg, curve_id(index))
    ]


@needs_matplotlib
@pytest.mark.parametrize("benchmark", ["carb", "oie2016"])
def test_plot_draws_the_reports_points(
    cli: RunCli, scored: dict[str, Path], benchmark: str, tmp_path: Path
) -> None:
    figure = tmp_path / "figure.svg"
    result = cli("plot", scored[benchmark], "-o", figure)
    assert result.exit_code == 0, result.stderr
    svg = figure.read_text()
    curve = json.loads(scored[benchmark].read_text())["systems"][0][benchmark]["curve"]
    expected = list(zip(curve["recall"], curve["precision"], strict=True))
    drawn = _data_points(svg, 0)
    assert len(drawn) == len(expected)
    # an SVG's coordinates have 6 decimals over a 200-point axis
    assert all(
        abs(a - c) < 1e-5 and abs(b - d) < 1e-5
        for (a, b), (c, d) in zip(drawn, expected, strict=True)
    )
    assert "<text" in svg and "Recall" in svg and "Precision" in svg and "OpenIE-4" in svg
    assert 'width="237.6pt" height="180pt"' in svg  # 3.3 x 2.5 in
    again = tmp_path / "again.svg"
    assert cli("plot", scored[benchmark], "-o", again).exit_code == 0
    assert again.read_bytes() == figure.read_bytes()


@needs_matplotlib
def test_plot_one_style_per_system_and_other_formats(
    cli: RunCli, scored: dict[str, Path], tmp_path: Path
) -> None:
    report = json.loads(scored["carb"].read_text())
    second = dict(report, systems=[dict(report["systems"][0], name="Another")])
    other = tmp_path / "another.json"
    other.write_text(json.dumps(second))
    figure = tmp_path / "two.svg"
    assert cli("plot", scored["carb"], other, "-o", figure).exit_code == 0
    svg = figure.read_text()
    styles = [re.search(rf'<g id="curve-{n}">\s*<path [^>]*style="([^"]*)"', svg) for n in (0, 1)]
    assert all(styles) and styles[0].group(1) != styles[1].group(1)  # type: ignore[union-attr]
    assert _data_points(svg, 0) == _data_points(svg, 1)
    for suffix, magic in (("pdf", b"%PDF"), ("png", b"\x89PNG")):
        out = tmp_path / f"figure.{suffix}"
        assert cli("plot", scored["carb"], "--metric", "carb-ss", "-o", out).exit_code == 0
        assert out.read_bytes().startswith(magic)


@needs_matplotlib
def test_plot_refuses_bad_input(cli: RunCli, scored: dict[str, Path], tmp_path: Path) -> None:
    mixed = cli("plot", scored["carb"], scored["oie2016"], "-o", tmp_path / "f.svg")
    assert mixed.exit_code == 2 and "plot each benchmark's reports" in mixed.stderr
    unknown = cli("plot", scored["carb"], "-o", tmp_path / "f.gif")
    assert unknown.exit_code == 2 and "format" in unknown.stderr
    wrong_metric = cli("plot", scored["carb"], "--metric", "oie2016", "-o", tmp_path / "f.svg")
    assert wrong_metric.exit_code == 2
    assert f"oie2016 is not a metric of every report ({scored['carb']} has carb,carb-ss)" in (
        wrong_metric.stderr
    )
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    assert cli("plot", broken, "-o", tmp_path / "f.svg").exit_code == 2
    plain = DATA / "reports" / "score.json"  # BenchIE's, without confidences: no curve
    none = cli("plot", plain, "-o", tmp_path / "f.svg")
    assert none.exit_code == 2
    assert f"no precision-recall curve to draw in {plain}: no system has one" in none.stderr
    assert not list(tmp_path.glob("f.*"))


def test_plot_without_matplotlib_says_what_to_install(
    cli: RunCli, scored: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import builtins

    real = builtins.__import__

    def without(name: str, *args: object, **kwargs: object) -> object:
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError(name)
        return real(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", without)
    result = cli("plot", scored["carb"], "-o", tmp_path / "f.svg")
    assert result.exit_code == 2
    assert "pip install 'benchie-cli[plot]'" in result.stderr
    assert not (tmp_path / "f.svg").exists()


@needs_matplotlib
def test_plot_draws_benchie_s_own_curve_of_a_file_with_confidences(
    cli: RunCli, tmp_path: Path
) -> None:
    """A BenchIE report keeps its layout (``confidence.curve``, a point an object): drawn
    alike, beside CaRB's of the same run chosen with --metric."""
    lines = (DATA.parent.parent / "examples/submissions/en/clausie.tsv").read_text().splitlines()
    submission = tmp_path / "conf.tsv"
    submission.write_text(
        "#benchie-tsv confidence\n"
        + "".join(f"{line}\t{n % 10 / 10}\n" for n, line in enumerate(lines))
    )
    report = tmp_path / "r.json"
    scored = cli("score", "--metric", "benchie,carb", submission, "-o", report)
    assert scored.exit_code == 0, scored.stderr
    system = json.loads(report.read_text())["systems"][0]
    carb = system["carb"]["curve"]
    for metric, points in (
        ("benchie", [(p["recall"], p["precision"]) for p in system["confidence"]["curve"]]),
        (
            "carb",
            list(zip(carb["recall"], carb["precision"], strict=True)),
        ),
    ):
        figure = tmp_path / f"{metric}.svg"
        assert cli("plot", report, "--metric", metric, "-o", figure).exit_code == 0
        drawn = _data_points(figure.read_text(), 0)
        assert len(drawn) == len(points) > 1
        assert all(
            abs(a - c) < 1e-5 and abs(b - d) < 1e-5
            for (a, b), (c, d) in zip(drawn, points, strict=True)
        )


@needs_matplotlib
def test_names_are_plain_text_and_the_users_matplotlibrc_is_not_read(
    cli: RunCli, scored: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A name with `$` is no formula (it was an internal error, or typeset as maths), one
    starting with `_` is in the legend (matplotlib drops such labels), and a matplotlibrc in
    the working directory changes neither the bytes nor the points."""
    plain = tmp_path / "plain.svg"
    assert cli("plot", scored["carb"], "-o", plain).exit_code == 0
    (tmp_path / "rc").mkdir()
    (tmp_path / "rc" / "matplotlibrc").write_text(
        "axes.facecolor: red\npath.sketch: 1, 100, 1\ntext.usetex: True\nfont.family: serif\n"
    )
    monkeypatch.chdir(tmp_path / "rc")
    styled = tmp_path / "styled.svg"
    result = cli("plot", scored["carb"], "-o", styled)
    assert result.exit_code == 0, result.stderr
    assert styled.read_bytes() == plain.read_bytes()
    report = json.loads(scored["carb"].read_text())
    renamed = [dict(report["systems"][0], name=n) for n in ("$x^$", "_hidden", "cost $5 vs $6")]
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps(dict(report, systems=renamed)))
    figure = tmp_path / "odd.svg"
    result = cli("plot", odd, "-o", figure)
    assert result.exit_code == 0, result.stderr
    svg = figure.read_text()
    for shown in ("$x^$", "_hidden", "cost $5 vs $6"):
        assert shown in svg, shown


def _with_systems(report: Path, target: Path, systems: list[dict[str, object]]) -> Path:
    """``report`` with its systems replaced (each built from its first, by ``systems``'s
    keys), written to ``target``."""
    data = json.loads(report.read_text())
    first = data["systems"][0]
    data["systems"] = [{**first, **changes} for changes in systems]
    target.write_text(json.dumps(data))
    return target


def _without_curve(report: Path, metric: str = "carb") -> dict[str, object]:
    numbers = dict(json.loads(report.read_text())["systems"][0][metric])
    del numbers["curve"]
    return {metric: numbers}


def _empty_curve(report: Path, metric: str = "carb") -> dict[str, object]:
    numbers = json.loads(report.read_text())["systems"][0][metric]
    return {metric: {**numbers, "curve": {"threshold": [], "precision": [], "recall": []}}}


@needs_matplotlib
def test_plot_warns_of_each_system_left_out_and_refuses_when_none_is_drawable(
    cli: RunCli, scored: dict[str, Path], tmp_path: Path
) -> None:
    """A figure for a paper must not lack a system unsaid: each one without a curve to draw
    is named in a warning; reports with nothing to draw at all are an error (exit 2), not
    an empty figure."""
    carb = scored["carb"]
    nulls = json.loads(carb.read_text())["systems"][0]["carb"]
    points = len(nulls["curve"]["recall"])
    nulls = {
        "carb": {**nulls, "curve": {**nulls["curve"], "recall": [None] * points}}
    }  # (a curve of nothing matched)
    some = _with_systems(
        carb,
        tmp_path / "some.json",
        [
            {"name": "Drawn"},
            {"name": "NoCurve", **_without_curve(carb)},
            {"name": "Empty", **_empty_curve(carb)},
            {"name": "Nulls", **nulls},
        ],
    )
    figure = tmp_path / "some.svg"
    result = cli("plot", some, "-o", figure)
    assert result.exit_code == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if "warning:" in line]
    assert warnings == [
        f"benchie: {some}: warning: system 'NoCurve' not drawn: it has no carb curve",
        f"benchie: {some}: warning: system 'Empty' not drawn: its curve has no point",
        f"benchie: {some}: warning: system 'Nulls' not drawn: no point of its curve has both "
        "a precision and a recall",
    ]
    svg = figure.read_text()
    assert 'id="curve-0"' in svg and 'id="curve-1"' not in svg and "NoCurve" not in svg
    assert "1 curve(s)" in result.stderr
    empty = _with_systems(carb, tmp_path / "empty.json", [{"name": "E", **_empty_curve(carb)}])
    bare = _with_systems(carb, tmp_path / "bare.json", [{"name": "B", **_without_curve(carb)}])
    for given in ([empty], [empty, bare]):
        out = tmp_path / "none.svg"
        refused = cli("plot", *given, "-o", out)
        assert refused.exit_code == 2, refused.stderr
        lines = refused.stderr.splitlines()
        assert len(lines) == 1 and "no figure written" in lines[0], lines
        assert all(str(path) in lines[0] for path in given)
        assert not out.exists()


def test_styles_are_distinct_for_many_systems() -> None:
    from benchie_cli.analysis.plot import style

    assert len({style(n) for n in range(56)}) == 56
    assert [style(n) for n in range(30)] == [style(n) for n in range(30)]


def _group_style(svg: ElementTree.Element, index: int) -> tuple[str, str]:
    """The ``index``-th curve's line style and its marker's shape (empty: none)."""
    groups = [g for g in svg.iter(f"{SVG}g") if g.get("id") == f"curve-{index}"]
    assert len(groups) == 1, index
    line = next(groups[0].iter(f"{SVG}path"))
    marker = groups[0].find(f"{SVG}defs/{SVG}path")
    return str(line.get("style")), "" if marker is None else str(marker.get("d"))


@needs_matplotlib
def test_twelve_systems_get_twelve_styles(
    cli: RunCli, scored: dict[str, Path], tmp_path: Path
) -> None:
    """Colour and dash pattern repeated after seven systems: the eighth was the first
    again. Each system of a figure has its own style."""
    many = _with_systems(
        scored["carb"], tmp_path / "many.json", [{"name": f"S{n}"} for n in range(12)]
    )
    figure = tmp_path / "many.svg"
    assert cli("plot", many, "-o", figure).exit_code == 0
    svg = ElementTree.fromstring(figure.read_bytes())
    styles = [_group_style(svg, n) for n in range(12)]
    assert len(set(styles)) == 12, styles
    again = tmp_path / "again.svg"
    assert cli("plot", many, "-o", again).exit_code == 0
    assert again.read_bytes() == figure.read_bytes()


@needs_matplotlib
def test_names_with_control_characters_keep_the_svg_valid_xml(
    cli: RunCli, scored: dict[str, Path], tmp_path: Path
) -> None:
    """A hand-edited name with a control character (or another character XML 1.0 cannot
    hold) was written into the SVG as it was: no XML reader could open the figure."""
    names = ["bell\x07", "tab\tand\nline", "nonchar\ufffe", 'a<b & c>"d"', "esc\x1b[31m"]
    odd = _with_systems(scored["carb"], tmp_path / "odd.json", [{"name": n} for n in names])
    figure = tmp_path / "odd.svg"
    result = cli("plot", odd, "-o", figure)
    assert result.exit_code == 0, result.stderr
    svg = ElementTree.fromstring(figure.read_bytes())  # valid XML, or this raises
    texts = "\n".join("".join(t.itertext()) for t in svg.iter(f"{SVG}text"))
    for shown in (
        "bell\\x07",
        "tab\\x09and\\x0aline",
        "nonchar\ufffd",
        'a<b & c>"d"',
        "esc\\x1b[31m",
    ):
        assert shown in texts, (shown, texts)
    assert len(set(_group_style(svg, n) for n in range(len(names)))) == len(names)
