"""Reports written by earlier code of this version re-derive byte for byte: a restructuring
changes no report (tests/data/reports/README.md says how each was written)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import DATA, GOLD_DIR, REPO, RunCli

REPORTS = DATA / "reports"


@pytest.mark.parametrize(
    "name", ["score", "carb_beside", "benchmark_carb", "benchmark_oie2016", "suite"]
)
def test_an_earlier_report_rederives_byte_for_byte(
    cli: RunCli, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)  # the reports name their submissions relative to the root
    report = Path("tests") / "data" / "reports" / f"{name}.json"
    result = cli("verify", "--gold-dir", GOLD_DIR, report)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "re-derived byte for byte" in result.stdout
