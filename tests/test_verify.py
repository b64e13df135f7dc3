"""``benchie verify``: a fresh report re-derives byte for byte; any edit is named by its field."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.conftest import REPO, RunCli, example

Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def report(cli_process: Run, tmp_path: Path) -> Path:
    out = tmp_path / "r.json"
    res = cli_process("score", "--lang", "en", example("en", "clausie"), "-o", out)
    assert res.returncode == 0, res.stderr
    return out


def edit(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    doc = orjson.loads(path.read_bytes())
    change(doc)
    path.write_bytes(orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n")


def test_fresh_report_verifies(cli_process: Run, report: Path) -> None:
    res = cli_process("verify", report, example("en", "clausie"))
    assert res.returncode == 0, res.stderr
    assert "byte for byte" in res.stdout


def test_fresh_report_verifies_from_its_own_file_paths(cli_process: Run, report: Path) -> None:
    assert cli_process("verify", report).returncode == 0


def test_changed_number_is_named(cli_process: Run, report: Path) -> None:
    edit(report, lambda d: d["systems"][0].update(f1=round(d["systems"][0]["f1"] + 0.0001, 4)))
    res = cli_process("verify", report, example("en", "clausie"))
    assert res.returncode == 1
    assert "systems[0].f1: report 0.339 != re-derived 0.3388998" in res.stderr


def test_changed_gold_hash_is_named(cli_process: Run, report: Path) -> None:
    edit(report, lambda d: d["gold"]["files"][0].update(sha256="0" * 64))
    res = cli_process("verify", report, example("en", "clausie"))
    assert res.returncode == 1
    assert f'gold.files[0].sha256: report "{"0" * 64}" != re-derived' in res.stderr


def test_gold_the_store_lacks_is_named(cli_process: Run, report: Path) -> None:
    def change(d: dict[str, Any]) -> None:
        d["gold"]["version"] = "9.9.9"
        d["gold"]["files"][0]["sha256"] = "ab" * 32

    edit(report, change)
    res = cli_process("verify", report, example("en", "clausie"))
    assert res.returncode == 2
    assert "ab" * 32 in res.stderr and len(res.stderr.strip().splitlines()) == 1


def test_changed_submission_hash_is_named(cli_process: Run, report: Path) -> None:
    edit(report, lambda d: d["systems"][0].update(sha256="f" * 64))
    res = cli_process("verify", report, example("en", "clausie"))
    assert res.returncode == 1
    assert "systems[0].sha256: report" in res.stderr


def test_changed_submission_file_is_named(cli_process: Run, report: Path, tmp_path: Path) -> None:
    changed = tmp_path / "clausie.tsv"
    lines = example("en", "clausie").read_bytes().splitlines(keepends=True)
    changed.write_bytes(b"".join(lines[:-5]))
    res = cli_process("verify", report, changed)
    assert res.returncode == 1
    assert "systems[0].sha256: report" in res.stderr
    assert "systems[0].extractions: report" in res.stderr


@pytest.mark.parametrize(
    "content", [b"not json\n", b'{"schema": 99, "systems": []}\n', b"[1, 2]\n"]
)
def test_unreadable_or_foreign_report_exits_2(
    cli_process: Run, tmp_path: Path, content: bytes
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    res = cli_process("verify", bad)
    assert res.returncode == 2
    assert len(res.stderr.strip().splitlines()) == 1 and "Traceback" not in res.stderr


def test_other_benchie_version_exits_2(cli_process: Run, report: Path) -> None:
    edit(report, lambda d: d.update(benchie_version="0.0.1"))
    res = cli_process("verify", report, example("en", "clausie"))
    assert res.returncode == 2 and "0.0.1" in res.stderr


def test_reformatted_report_is_not_byte_equal(cli_process: Run, report: Path) -> None:
    report.write_bytes(orjson.dumps(orjson.loads(report.read_bytes())) + b"\n")
    res = cli_process("verify", report, example("en", "clausie"))
    assert res.returncode == 1 and "other formatting" in res.stderr


def test_submission_count_must_match(cli_process: Run, report: Path) -> None:
    res = cli_process("verify", report, example("en", "clausie"), example("en", "minie"))
    assert res.returncode == 2 and "1 system(s)" in res.stderr


def test_a_device_is_no_report() -> None:
    """The report is read once, bounded: /dev/zero was read until the process was killed."""
    res = subprocess.run(
        [sys.executable, "-m", "benchie_cli", "verify", "/dev/zero"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert res.returncode == 2 and "character device" in res.stderr
    assert "Traceback" not in res.stderr


def test_versions_that_share_a_file_verify_under_the_reports_own(tmp_path: Path) -> None:
    """A version may keep a file of another unchanged: the report's own version is used."""
    import shutil

    from tests.conftest import GOLD_DIR

    store = tmp_path / "store"
    shutil.copytree(GOLD_DIR / "1.1.0", store / "1.1.0")
    shutil.copytree(GOLD_DIR / "1.1.0", store / "2.0.0")
    manifest = store / "2.0.0" / "manifest.json"
    manifest.write_text(
        manifest.read_text(encoding="utf-8").replace('"1.1.0"', '"2.0.0"'), encoding="utf-8"
    )
    report = tmp_path / "r.json"
    sub = str(example("en", "clausie"))
    base = [sys.executable, "-m", "benchie_cli"]
    scored = subprocess.run(
        [
            *base,
            "score",
            "--gold-dir",
            str(store),
            "--gold-version",
            "2.0.0",
            "--lang",
            "en",
            sub,
            "-o",
            str(report),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert scored.returncode == 0, scored.stderr
    verified = subprocess.run(
        [*base, "verify", "--gold-dir", str(store), str(report), sub],
        capture_output=True,
        text=True,
        check=False,
    )
    assert verified.returncode == 0, verified.stderr


def test_report_records_an_input_format_other_than_auto(tmp_path: Path) -> None:
    """A file read as BenchIE TSV (`--input-format benchie`) that auto-detection reads
    otherwise: a report of it failed to verify (verify read it with auto). Here: 50 lines
    of OpenIE 4 output (auto reads OpenIE 4, then fails on line 51), then ClausIE's TSV."""
    import gzip

    from tests.conftest import DATA

    native = tmp_path / "openie4.txt"
    openie4 = gzip.decompress((DATA / "carb" / "openie4_output.txt.gz").read_bytes())
    native.write_bytes(
        b"".join(openie4.splitlines(keepends=True)[:50]) + example("en", "clausie").read_bytes()
    )
    auto = subprocess.run(
        [sys.executable, "-m", "benchie_cli", "score", "--lang", "en", str(native)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert auto.returncode == 2 and ":51: error:" in auto.stderr
    report = tmp_path / "r.json"
    base = [sys.executable, "-m", "benchie_cli"]
    scored = subprocess.run(
        [
            *base,
            "score",
            "--lang",
            "en",
            "--input-format",
            "benchie",
            str(native),
            "-o",
            str(report),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert scored.returncode == 0, scored.stderr
    doc = orjson.loads(report.read_bytes())
    assert doc["options"]["input_format"] == "benchie" and "|input:benchie|" in doc["signature"]
    verified = subprocess.run(
        [*base, "verify", str(report), str(native)], capture_output=True, text=True, check=False
    )
    assert verified.returncode == 0, verified.stderr


def test_a_fifo_named_by_a_report_is_refused(tmp_path: Path) -> None:
    import os

    report = tmp_path / "r.json"
    sub = str(example("en", "clausie"))
    base = [sys.executable, "-m", "benchie_cli"]
    subprocess.run([*base, "score", "--lang", "en", sub, "-o", str(report)], check=True)
    fifo = tmp_path / "fifo.tsv"
    os.mkfifo(fifo)
    doc = orjson.loads(report.read_bytes())
    doc["systems"][0]["file"] = str(fifo)
    report.write_bytes(orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n")
    res = subprocess.run(
        [*base, "verify", str(report)], capture_output=True, text=True, timeout=60, check=False
    )
    assert res.returncode == 2 and "is not a regular file" in res.stderr


def test_a_file_the_report_names_that_is_absent_is_said_so(
    cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A report names a submission as `score` was given it: relative to where it ran. Run
    elsewhere, verify says the file is absent and why (it said "not a regular file")."""
    report = REPO / "tests" / "data" / "reports" / "score.json"
    monkeypatch.chdir(tmp_path)
    res = cli("verify", str(report))
    assert res.exit_code == 2
    assert res.stderr.strip().endswith(
        "error: no such file (named by the report, relative to the directory `score` ran "
        "in): run verify there, or give the submissions as arguments"
    )


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (bytes(range(128, 256)) * 4, "not UTF-8 text (a binary file?): "),
        (b"PK\x03\x04\x14\x00\x08\x00\xff\xfe", "not UTF-8 text (a zip archive): "),
    ],
)
def test_a_binary_file_is_named_in_plain_words(
    cli: RunCli, tmp_path: Path, data: bytes, says: str
) -> None:
    """`verify bundle.zip` said "str is not valid UTF-8: surrogates not allowed: line 1
    column 1 (char 0)", the JSON decoder's internals."""
    path = tmp_path / "bundle.zip"
    path.write_bytes(data)
    res = cli("verify", path)
    assert res.exit_code == 2
    assert says + "verify reads a JSON report written by benchie score" in res.stderr
    assert "surrogates" not in res.stderr and len(res.stderr.splitlines()) == 1
