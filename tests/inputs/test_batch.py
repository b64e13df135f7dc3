"""Batch scoring as a shared task runs it: a directory of submissions, one of them broken."""

from __future__ import annotations

import os
import pty
import shutil
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from benchie_cli.errors import BenchieError
from benchie_cli.inputs.batch import expand
from tests.conftest import ENGLISH_SYSTEMS, RunCli, example

SMALL = "1\tHe\tserved as\tthe first Prime Minister of Australia\n"


@pytest.fixture
def task_dir(tmp_path: Path) -> Path:
    """Ten submissions: the eight English systems, a one-line one, and binary garbage."""
    directory = tmp_path / "submissions"
    directory.mkdir()
    for system in ENGLISH_SYSTEMS:
        shutil.copyfile(example("en", system), directory / f"{system}.tsv")
    (directory / "tiny.tsv").write_text(SMALL, encoding="utf-8")
    (directory / "garbage.tsv").write_bytes(bytes(range(256)) * 4)
    (directory / "notes.txt").write_text("not a submission: ignored\n", encoding="utf-8")
    return directory


def test_directory_with_one_garbage_submission(cli: RunCli, task_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    res = cli("score", "--lang", "en", "-o", out, task_dir)
    assert res.exit_code == 1
    report = orjson.loads(out.read_bytes())
    names = [s["name"] for s in report["systems"]]
    assert sorted(names) == sorted([*ENGLISH_SYSTEMS, "tiny"])  # nine scored, in name order
    assert names == sorted(names)
    [failure] = report["failures"]
    assert failure["name"] == "garbage"
    assert failure["file"].endswith("garbage.tsv") and ":1: error:" in failure["error"]
    assert "garbage.tsv:1: error:" in res.stderr
    assert "1 of 10 submission(s) could not be scored" in res.stderr


def test_leaderboard_is_sorted_by_f1(cli: RunCli, task_dir: Path) -> None:
    res = cli("score", "--lang", "en", "--format", "markdown", task_dir)
    assert res.exit_code == 1
    rows = [
        line.split(" | ")
        for line in res.stdout.splitlines()
        if line.startswith("| ") and "---" not in line
    ][1:]
    f1 = [float(r[4]) for r in rows]
    assert f1 == sorted(f1, reverse=True)
    assert [r[0].strip("| ") for r in rows][:2] == ["1", "2"]
    assert rows[0][1] == "clausie"  # the best published F1 (0.3389)
    assert "- FAILED garbage:" in res.stdout


def test_ranks_share_places_on_equal_f1(cli: RunCli, tmp_path: Path) -> None:
    for name in ("a", "b"):
        (tmp_path / f"{name}.tsv").write_text(SMALL, encoding="utf-8")
    shutil.copyfile(example("en", "clausie"), tmp_path / "c.tsv")
    out = tmp_path / "r.json"
    assert cli("score", "--lang", "en", "-o", out, tmp_path).exit_code == 0
    ranks = {s["name"]: s["rank"] for s in orjson.loads(out.read_bytes())["systems"]}
    assert ranks == {"c": 1, "a": 2, "b": 2}


def test_all_broken_writes_nothing(cli: RunCli, tmp_path: Path) -> None:
    (tmp_path / "x.tsv").write_bytes(b"\x00\x01")
    (tmp_path / "y.tsv").write_text("1\tonly\tthree\n", encoding="utf-8")
    out = tmp_path / "r.json"
    res = cli("score", "--lang", "en", "-o", out, tmp_path)
    assert res.exit_code == 2
    assert not out.exists()
    assert "x.tsv:1:" in res.stderr and "y.tsv:1:" in res.stderr


def test_directory_without_submissions(cli: RunCli, tmp_path: Path) -> None:
    res = cli("score", "--lang", "en", tmp_path)
    assert res.exit_code == 2
    assert res.stderr == f"benchie: {tmp_path}: error: directory has no *.tsv file to score\n"


def test_a_directory_of_other_files_names_them_and_how_to_score_one(
    cli: RunCli, tmp_path: Path
) -> None:
    """A directory holding clausie.txt only said "no *.tsv file", not what it passed over."""
    (tmp_path / "clausie.txt").write_text("1\ta\tb\tc\n")
    (tmp_path / ".hidden.txt").write_text("x\n")
    res = cli("score", "--lang", "en", tmp_path)
    assert res.exit_code == 2
    assert res.stderr == (
        f"benchie: {tmp_path}: error: directory has no *.tsv file to score; it holds "
        "clausie.txt, which a directory does not give: name such a file itself (benchie score "
        f"{tmp_path / 'clausie.txt'}; with --input-format FORMAT for a system's native output "
        "that auto-detection does not read)\n"
    )


def test_validate_reads_a_directory_as_score_does(cli: RunCli, tmp_path: Path) -> None:
    """validate DIR said "is a directory, not a file" while score DIR reads its *.tsv."""
    for name in ("b.tsv", "a.tsv", "notes.txt"):
        (tmp_path / name).write_text("1\tHe\tserved\tas the first Prime Minister of Australia\n")
    res = cli("validate", "--lang", "en", tmp_path)
    assert res.exit_code == 0, res.stdout + res.stderr
    assert "in 2 file(s)" in res.stderr and "notes.txt" not in res.stdout + res.stderr
    (tmp_path / "a.tsv").unlink()
    (tmp_path / "b.tsv").unlink()
    empty = cli("validate", "--lang", "en", tmp_path)
    assert empty.exit_code == 2
    assert "directory has no *.tsv file to validate; it holds notes.txt" in empty.stderr


def test_a_directory_whose_subdirectories_hold_submissions_names_them(
    cli: RunCli, tmp_path: Path
) -> None:
    """``score examples/submissions/`` (the languages' directories below it): say which."""
    for lang in ("zh", "en", ".hidden"):
        (tmp_path / lang).mkdir()
        (tmp_path / lang / "sys.tsv").write_text("1\ta\tb\tc\n")
    (tmp_path / "empty").mkdir()
    res = cli("score", "--lang", "en", tmp_path)
    assert res.exit_code == 2
    assert res.stderr.endswith(
        "directory has no *.tsv file to score; give one of its subdirectories with some: en, zh\n"
    )


def test_duplicate_names_are_refused(tmp_path: Path) -> None:
    (tmp_path / "d1").mkdir()
    (tmp_path / "d2").mkdir()
    for d in ("d1", "d2"):
        (tmp_path / d / "sys.tsv").write_text(SMALL, encoding="utf-8")
    with pytest.raises(BenchieError, match="two submissions are named 'sys'"):
        expand([str(tmp_path / "d1"), str(tmp_path / "d2")])
    assert [
        s.name for s in expand([str(tmp_path / "d1"), f"other={tmp_path / 'd2' / 'sys.tsv'}"])
    ] == [
        "sys",
        "other",
    ]


def test_progress_bar_only_on_a_terminal(task_dir: Path, tmp_path: Path) -> None:
    """Interactive stderr: a progress bar; redirected stderr (CI logs): none."""
    args = [
        sys.executable,
        "-m",
        "benchie_cli",
        "score",
        "--lang",
        "en",
        "-o",
        str(tmp_path / "r.json"),
        str(task_dir),
    ]
    piped = subprocess.run(args, capture_output=True, text=True, check=False)
    assert "scoring" not in piped.stderr
    master, slave = pty.openpty()
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    proc.wait()
    os.close(master)
    assert proc.returncode == 1
    assert b"scoring" in seen


def test_a_long_name_is_a_name_not_a_too_long_file_name(tmp_path: Path) -> None:
    """``NAME=PATH`` whose whole argument is longer than a file name may be (255 bytes) is
    still a name and a path, not the operating system's "File name too long"."""
    name = "L" * 300
    path = str(tmp_path / "a.tsv")
    (submission,) = expand([f"{name}={path}"])
    assert (submission.name, submission.path) == (name, path)
