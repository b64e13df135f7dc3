"""Curves exported (issue 26): each report holds its systems' precision-recall curves, and
``score --curves DIR`` writes them as the original scorers do, byte for byte their published
files (``benchie plot`` draws them: tests/test_plot.py)."""

from __future__ import annotations

import gzip
import json
import math
import shutil
from pathlib import Path

import pytest

from benchie_cli.curves import clashes, file_names, of_points, owners
from tests.conftest import DATA, GOLD_DIR, RunCli

CARB = DATA / "carb"
OIE2016 = DATA / "oie2016"


def _unzipped(source: Path, target: Path) -> Path:
    target.write_bytes(gzip.decompress(source.read_bytes()))
    return target


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """OpenIE 4 scored on CaRB (both metrics) and on OIE2016, with its curves written."""
    from click.testing import CliRunner

    from benchie_cli.cli import main

    tmp = tmp_path_factory.mktemp("curves")
    runner = CliRunner()
    out: dict[str, Path] = {}
    for benchmark, source, extra in (
        ("carb", CARB / "openie4_output.txt.gz", ["--metric", "carb,carb-ss"]),
        ("oie2016", OIE2016 / "openie4_output.txt.gz", []),
    ):
        system = _unzipped(source, tmp / f"{benchmark}-openie4.txt")
        curves = tmp / f"{benchmark}-curves"
        curves.mkdir()
        report = tmp / f"{benchmark}.json"
        args = ["score", "--gold-dir", str(GOLD_DIR), "--benchmark", benchmark, *extra]
        args += [f"OpenIE-4={system}", "--curves", str(curves), "-o", str(report)]
        result = runner.invoke(main, args, catch_exceptions=False)
        assert result.exit_code == 0, result.output
        out[benchmark] = report
        out[f"{benchmark}-curves"] = curves
    return out


def test_the_carb_curve_is_cabs_published_dump_byte_for_byte(scored: dict[str, Path]) -> None:
    curves = scored["carb-curves"]
    assert sorted(p.name for p in curves.iterdir()) == ["OpenIE-4.carb-ss.dat", "OpenIE-4.dat"]
    published = gzip.decompress((CARB / "OpenIE-4.dat.gz").read_bytes())
    assert (curves / "OpenIE-4.dat").read_bytes() == published
    single = gzip.decompress((CARB / "OpenIE-4.carb-ss.dat.gz").read_bytes())
    assert (curves / "OpenIE-4.carb-ss.dat").read_bytes() == single


def test_the_oie2016_curve_is_oie_benchmarks_published_eval_file(scored: dict[str, Path]) -> None:
    published = gzip.decompress((OIE2016 / "OpenIE-4.dat.gz").read_bytes())
    assert (scored["oie2016-curves"] / "OpenIE-4.dat").read_bytes() == published


def _dat_points(text: str) -> list[tuple[float, float]]:
    """(precision, recall) of a .dat file's rows, whatever its columns after those two."""
    rows = [line.split("\t") for line in text.splitlines()[1:]]
    return [(float(r[0]), float(r[1])) for r in rows]


@pytest.mark.parametrize("benchmark", ["carb", "oie2016"])
def test_the_report_holds_the_curve_of_the_file(scored: dict[str, Path], benchmark: str) -> None:
    """The report's points are the curve file's, in the scorer's order (the file sorts
    them by recall), and as many as the report says."""
    report = json.loads(scored[benchmark].read_text())
    numbers = report["systems"][0][benchmark]
    curve = numbers["curve"]
    assert sorted(curve) == ["precision", "recall", "threshold"]
    assert len(curve["threshold"]) == len(curve["precision"]) == len(curve["recall"])
    assert len(curve["threshold"]) == numbers["points"]
    dat = (scored[f"{benchmark}-curves"] / "OpenIE-4.dat").read_text()
    points = list(zip(curve["precision"], curve["recall"], strict=True))
    rows = _dat_points(dat)  # (OIE2016's file prints 12 significant digits)
    ordered = sorted(points, key=lambda p: p[1])
    assert len(ordered) == len(rows)
    assert all(
        math.isclose(a, c, rel_tol=1e-11) and math.isclose(b, d, rel_tol=1e-11)
        for (a, b), (c, d) in zip(ordered, rows, strict=True)
    )
    thresholds = curve["threshold"]
    finite = [t for t in thresholds if t is not None]
    assert finite == sorted(finite)  # ascending confidence; OIE2016 ends with the end point
    if benchmark == "oie2016":
        assert thresholds[-1] is None and (curve["precision"][-1], curve["recall"][-1]) == (1, 0)


def test_file_names_are_safe_and_their_clashes_found() -> None:
    names = file_names(["a/b", "A/B", ".hidden", "", "x y", "ok.carb-ss", "x_y"])
    assert names == [
        "a_b.dat",
        "A_B.dat",
        "hidden.dat",
        "system.dat",
        "x_y.dat",
        "ok.carb-ss.dat",
        "x_y.dat",
    ]
    assert clashes(names) == [[0, 1], [4, 6]]
    assert owners("a.carb-ss", ["a", "a.carb-ss"], ["carb", "carb-ss"]) == [
        ("a.carb-ss", "carb"),
        ("a", "carb-ss"),
    ]


def test_curves_refuses_what_cannot_be_written(cli: RunCli, tmp_path: Path) -> None:
    system = _unzipped(CARB / "openie4_output.txt.gz", tmp_path / "openie4.txt")
    base = ["score", "--gold-dir", GOLD_DIR, "--benchmark", "carb", system]
    missing = cli(*base, "--curves", tmp_path / "nowhere")
    assert missing.exit_code == 2
    assert "--curves: the directory does not exist" in missing.stderr
    into_gold = cli(*base, "--curves", GOLD_DIR)
    assert into_gold.exit_code == 2 and "inside the gold store" in into_gold.stderr
    no_curve = cli(
        "score", "--gold-dir", GOLD_DIR, DATA.parent.parent / "examples/submissions/en/clausie.tsv",
        "--curves", tmp_path,
    )  # fmt: skip
    assert no_curve.exit_code == 2 and "no curve file" in no_curve.stderr
    # a curve that would replace an input: nothing written, no report
    clash = tmp_path / "clash"
    clash.mkdir()
    victim = clash / "openie4.txt.dat"
    shutil.copy(system, victim)
    report = tmp_path / "r.json"
    refused = cli(*base[:-1], f"openie4.txt={victim}", "--curves", clash, "-o", report)
    assert refused.exit_code == 2
    assert (
        f"{victim}: error: --curves: the file of the carb curve of system 'openie4.txt' is "
        f"also an input of the run ({victim})"
    ) in refused.stderr
    assert not report.exists() and victim.read_bytes() == system.read_bytes()
    suite = cli("score", "--suite", system, "--curves", tmp_path)
    assert suite.exit_code == 2 and "--suite" in suite.stderr
    assert not list(tmp_path.glob("*.dat"))


def test_curves_of_one_file_name_are_refused_and_each_file_written_is_named(
    cli: RunCli, tmp_path: Path
) -> None:
    """Two systems whose curves have one file name (``a`` under carb-ss and a system named
    ``a.carb-ss``; names differing in case only, one file on macOS and Windows) were
    numbered ``-2`` silently, leaving the reader to guess which file was whose: refused,
    before anything is written. A curve file that is the report (-o) is named as such, not
    as an input. Each file written is named with whose curve it holds."""
    system = _unzipped(CARB / "openie4_output.txt.gz", tmp_path / "openie4.txt")
    base = ["score", "--gold-dir", GOLD_DIR, "--benchmark", "carb", "--metric", "carb,carb-ss"]
    out = tmp_path / "curves"
    out.mkdir()
    report = tmp_path / "r.json"
    for pair, said in (
        (
            ("a", "a.carb-ss"),
            "the carb curve of system 'a.carb-ss' and the carb-ss curve of system 'a' would "
            "be written to one file, a.carb-ss.dat: rename a system (NAME=PATH); nothing written",
        ),
        (
            ("Sys", "sys"),
            "the carb curve of system 'Sys' and the carb curve of system 'sys' would be written "
            "to one file, Sys.dat = sys.dat (file names that differ in case only are one file "
            "on macOS and Windows)",
        ),
    ):
        result = cli(*base, *(f"{name}={system}" for name in pair), "--curves", out, "-o", report)
        assert result.exit_code == 2, result.stderr
        assert f"{out}: error: --curves: {said}" in result.stderr
        assert not list(out.iterdir()) and not report.exists()
    into_report = out / "a.carb-ss.dat"
    result = cli(*base, f"a={system}", "--curves", out, "--format", "json", "-o", into_report)
    assert result.exit_code == 2
    assert (
        f"{into_report}: error: --curves: the file of the carb-ss curve of system 'a' is also "
        f"the report (-o {into_report})"
    ) in result.stderr
    assert "input" not in result.stderr
    assert not list(out.iterdir())
    result = cli(*base, f"x y={system}", f"B={system}", "--curves", out, "-o", report)
    assert result.exit_code == 0, result.stderr
    written = [line for line in result.stderr.splitlines() if f"wrote {out}" in line]
    assert sorted(written) == sorted(
        [
            f"benchie: wrote {out / 'x_y.dat'} (the carb curve of system 'x y')",
            f"benchie: wrote {out / 'x_y.carb-ss.dat'} (the carb-ss curve of system 'x y')",
            f"benchie: wrote {out / 'B.dat'} (the carb curve of system 'B')",
            f"benchie: wrote {out / 'B.carb-ss.dat'} (the carb-ss curve of system 'B')",
        ]
    )
    assert sorted(p.name for p in out.iterdir()) == [
        "B.carb-ss.dat", "B.dat", "x_y.carb-ss.dat", "x_y.dat",
    ]  # fmt: skip


def test_a_curve_file_name_too_long_for_a_file_system_is_refused_with_what_to_do(
    cli: RunCli, tmp_path: Path
) -> None:
    """A system name longer than a file name may be gave the operating system's "File name
    too long": refused before anything is written, saying to name the system shorter. (A
    curve file of 255 bytes, ``NAME`` of 251 and ``.dat``, is written: the next test.)"""
    system = _unzipped(CARB / "openie4_output.txt.gz", tmp_path / "openie4.txt")
    out = tmp_path / "curves"
    out.mkdir()
    report = tmp_path / "r.json"
    long = "L" * 252  # (a file name of 256 bytes)
    result = cli(
        "score", "--gold-dir", GOLD_DIR, "--benchmark", "carb", f"a={system}",
        f"{long}={system}", "--curves", out, "-o", report,
    )  # fmt: skip
    assert result.exit_code == 2, result.output
    assert "give the system a shorter name (NAME=PATH); nothing written" in result.stderr
    assert not list(out.iterdir()) and not report.exists()


def test_a_curve_file_name_of_255_bytes_is_written(cli: RunCli, tmp_path: Path) -> None:
    """The longest name a file system takes is written: 240 was the limit while the
    temporary file's name could not be cut (it refused a 250-byte name ``touch`` makes)."""
    system = _unzipped(CARB / "openie4_output.txt.gz", tmp_path / "openie4.txt")
    out = tmp_path / "curves"
    out.mkdir()
    long = "L" * 251
    result = cli(
        "score", "--gold-dir", GOLD_DIR, "--benchmark", "carb", f"{long}={system}",
        "--curves", out, "-o", tmp_path / "r.json",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert [p.name for p in out.iterdir()] == [f"{long}.dat"]


def test_a_curve_as_a_report_holds_it_worked_by_hand() -> None:
    """An infinite threshold (the end point, nothing predicted) as null, a NaN recall as
    null, every other number as given; no point, no lists."""
    nan, inf = math.nan, math.inf
    curve = of_points(iter([(0.9, 1.0, nan), (0.5, 0.5, 0.25), (inf, 1.0, 0.0)]), str)
    assert curve.as_json() == {
        "threshold": [0.9, 0.5, None],
        "precision": [1.0, 0.5, 1.0],
        "recall": [None, 0.25, 0.0],
    }
    assert of_points([(-inf, 0.0, 0.0)], str).threshold == (None,)
    assert math.isnan(of_points([(nan, 0.5, 0.5)], str).as_json()["threshold"][0])
    assert of_points([], str).as_json() == {"threshold": [], "precision": [], "recall": []}
