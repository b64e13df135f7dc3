"""``benchie verify`` and the names of a report's systems, of every kind of report: a name
is not in a submission's bytes, so it is checked when given (``NAME=PATH``, as ``score``
reads it), and a report naming two systems alike is none ``score`` wrote; a report reads
from standard input (``-``) as from a file; a reformatted report is said in one sentence."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.conftest import DATA, RunCli, example

CARB = DATA / "carb"
OIE4 = CARB / "openie4_output.txt.gz"
OIE5 = CARB / "openie5_output.txt.gz"


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """OpenIE 4 and OpenIE 5 scored with ``score --suite``, named on the command line."""
    from click.testing import CliRunner

    from benchie_cli.cli import main

    out = tmp_path_factory.mktemp("verify-names") / "suite.json"
    args = ["score", "--suite", f"OIE4={OIE4}", f"OIE5={OIE5}", "-o", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.stderr
    return out


@pytest.fixture
def leaderboard(cli: RunCli, tmp_path: Path) -> Path:
    """Two BenchIE submissions scored under names of their own."""
    out = tmp_path / "board.json"
    given = [f"C={example('en', 'clausie')}", f"M={example('en', 'minie')}"]
    result = cli("score", "--lang", "en", *given, "-o", out)
    assert result.exit_code == 0, result.stderr
    return out


def _edited(path: Path, target: Path, change: Any) -> Path:
    doc = orjson.loads(path.read_bytes())
    change(doc)
    target.write_bytes(orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n")
    return target


def _swap_names(doc: dict[str, Any]) -> None:
    first, second = doc["systems"][0], doc["systems"][1]
    first["name"], second["name"] = second["name"], first["name"]


def _same_name(doc: dict[str, Any]) -> None:
    doc["systems"][1]["name"] = doc["systems"][0]["name"]


def test_a_suite_report_reads_from_standard_input_once(cli: RunCli, suite: Path) -> None:
    result = cli("verify", "-", input=suite.read_bytes())
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("ok: <stdin> re-derived byte for byte")
    twice = cli("verify", "-", "-", OIE5, input=suite.read_bytes())
    assert twice.exit_code == 2
    assert "standard input ('-') can be read only once per run" in twice.stderr


def test_a_leaderboard_reads_from_standard_input(cli: RunCli, leaderboard: Path) -> None:
    result = cli("verify", "-", input=leaderboard.read_bytes())
    assert result.exit_code == 0, result.stderr
    assert "ok: <stdin> re-derived byte for byte" in result.stdout


def test_a_suite_reports_names_are_checked_when_given(
    cli: RunCli, suite: Path, tmp_path: Path
) -> None:
    """Names swapped between the systems: the report is one ``score`` would write had the
    names been given so, which only the names given can tell."""
    assert cli("verify", suite, f"OIE4={OIE4}", f"OIE5={OIE5}").exit_code == 0
    swapped = _edited(suite, tmp_path / "swapped.json", _swap_names)
    result = cli("verify", swapped, f"OIE4={OIE4}", f"OIE5={OIE5}")
    assert result.exit_code == 1, result.stderr
    assert f'{swapped}: mismatch: systems[0].name: report "OIE5" != re-derived "OIE4"' in (
        result.stderr
    )
    assert 'systems[1].name: report "OIE4" != re-derived "OIE5"' in result.stderr
    # in the other order, each file is not the one the report scored there, and each name
    result = cli("verify", suite, f"OIE5={OIE5}", f"OIE4={OIE4}")
    assert result.exit_code == 1
    assert "systems[0].name" in result.stderr and "systems[0].file.sha256" in result.stderr


def test_a_suite_report_naming_two_systems_alike_does_not_verify(
    cli: RunCli, suite: Path, tmp_path: Path
) -> None:
    same = _edited(suite, tmp_path / "same.json", _same_name)
    result = cli("verify", same)
    assert result.exit_code == 1, result.stderr
    assert (
        'systems[1].name: report "OIE4" != re-derived a name of its own (`benchie score` '
        "names each system once; systems[0].name has that name)"
    ) in result.stderr


def test_a_leaderboards_names_are_checked_when_given(
    cli: RunCli, leaderboard: Path, tmp_path: Path
) -> None:
    systems = orjson.loads(leaderboard.read_bytes())["systems"]
    given = [f"{s['name']}={s['file']}" for s in systems]
    assert cli("verify", leaderboard, *given).exit_code == 0
    swapped = _edited(leaderboard, tmp_path / "swapped.json", _swap_names)
    result = cli("verify", swapped, *given)
    assert result.exit_code == 1
    assert re.search(r'systems\[0\]\.name: report "\w" != re-derived "\w"', result.stderr)
    same = _edited(leaderboard, tmp_path / "same.json", _same_name)
    result = cli("verify", same)
    assert result.exit_code == 1 and "a name of its own" in result.stderr


def test_a_reformatted_suite_report_is_said_in_one_sentence(
    cli: RunCli, suite: Path, tmp_path: Path
) -> None:
    compact = tmp_path / "compact.json"
    compact.write_bytes(orjson.dumps(orjson.loads(suite.read_bytes())))
    result = cli("verify", compact)
    assert result.exit_code == 1
    assert re.search(
        r"mismatch: \(bytes\): report sha256 [0-9a-f]{12} != re-derived sha256 [0-9a-f]{12} "
        r"\(same content, other formatting\)\n",
        result.stderr,
    ), result.stderr
