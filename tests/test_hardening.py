"""Inputs a careless user or an attacker gives (issue 8, items 4, 5, 6, 8 and 9): outputs
that would overwrite an input, endless and line-less inputs, file names that are not UTF-8,
out-of-range options, pipes and FIFOs. Each runs as a real process where exit statuses and
files are the point."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest

from benchie_cli.errors import printable_path
from benchie_cli.textio import BLOCK_SIZE, MAX_LINE_BYTES

from .conftest import GOLD_DIR, example

EN_GOLD = next((GOLD_DIR / "1.1.0" / "en" / "default").glob("*.txt"))
Run = Callable[..., subprocess.CompletedProcess[str]]


def _bash(command: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", command],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=timeout,
        check=False,
    )


BENCHIE = f"{sys.executable} -m benchie_cli"


def _refused(res: subprocess.CompletedProcess[str], *words: str) -> None:
    """Exit 2 with one error line that says why, and no traceback."""
    assert res.returncode == 2, res.stderr
    assert "Traceback" not in res.stderr
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, res.stderr
    for word in words:
        assert word in lines[0], res.stderr


# --- 4. no output overwrites an input


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    gold = tmp_path / "gold.txt"
    shutil.copyfile(EN_GOLD, gold)
    sub = tmp_path / "sub.tsv"
    shutil.copyfile(example("en", "clausie"), sub)
    buckets = tmp_path / "buckets.tsv"
    buckets.write_text("1\tfirst\n2\tsecond\n", encoding="utf-8")
    return {"gold": gold, "sub": sub, "buckets": buckets}


def _link(kind: str, target: Path) -> Path:
    link = target.with_name(f"{kind}-to-{target.name}")
    if kind == "hard":
        os.link(target, link)
    else:
        link.symlink_to(target)
    return link


@pytest.mark.parametrize("kind", ["hard", "sym"])
@pytest.mark.parametrize(
    ("command", "victim"),
    [
        *((c, v) for c in ("score", "analyze", "strip-implicit") for v in ("gold", "sub")),
        ("analyze", "buckets"),
    ],
)
def test_no_output_overwrites_an_input(
    cli_process: Run, files: dict[str, Path], kind: str, victim: str, command: str
) -> None:
    before = {name: path.read_bytes() for name, path in files.items()}
    out = _link(kind, files[victim])
    args = ["--lang", "en", "--gold-file", files["gold"]]
    if command == "analyze":
        args += ["--buckets", files["buckets"], "--resamples", "10"]
    res = cli_process(command, *args, files["sub"], "-o", out)
    _refused(res, "is also an input")
    assert {name: path.read_bytes() for name, path in files.items()} == before


def test_no_output_overwrites_the_store_gold(cli_process: Run, tmp_path: Path) -> None:
    store = tmp_path / "store"
    shutil.copytree(GOLD_DIR / "1.1.0", store / "1.1.0")
    gold = store / "1.1.0" / EN_GOLD.relative_to(GOLD_DIR / "1.1.0")
    before = gold.read_bytes()
    link = _link("hard", gold)
    res = cli_process(
        "score", "--gold-dir", store, "--lang", "en", example("en", "clausie"), "-o", link
    )
    _refused(res, "is also an input")
    assert gold.read_bytes() == before


@pytest.mark.parametrize("kind", ["hard", "sym", "dangling"])
def test_strip_implicit_outputs_must_differ(
    cli_process: Run, files: dict[str, Path], tmp_path: Path, kind: str
) -> None:
    kept = tmp_path / "kept.tsv"
    if kind == "dangling":  # neither exists yet: a link to the other output's name
        removed = tmp_path / "removed.tsv"
        removed.symlink_to(kept)
    else:
        kept.write_bytes(b"keep me\n")
        removed = _link(kind, kept)
    res = cli_process(
        "strip-implicit", "--lang", "en", files["sub"], "-o", kept, "--removed", removed
    )
    _refused(res, "other output")
    assert (kind == "dangling" and not kept.exists()) or kept.read_bytes() == b"keep me\n"


# --- 5. bounded inputs


@pytest.mark.parametrize("command", ["score", "validate", "strip-implicit", "analyze"])
def test_character_devices_are_refused_at_once(cli_process: Run, command: str) -> None:
    res = cli_process(command, "--lang", "en", "/dev/zero")
    _refused(res, "/dev/zero", "character device")


def test_device_on_stdin_is_refused(tmp_path: Path) -> None:
    res = _bash(f"{BENCHIE} score --lang en - < /dev/zero")
    _refused(res, "<stdin>", "character device")


def _long_line_file(path: Path, before: int, length: int) -> Path:
    lines = example("en", "clausie").read_bytes().splitlines(keepends=True)[:before]
    path.write_bytes(b"".join(lines) + b"1\t" + b"a" * length + b"\tb\tc\n" + lines[0])
    return path


@pytest.mark.parametrize("command", ["score", "strip-implicit"])
@pytest.mark.parametrize("length", [MAX_LINE_BYTES + 1, 3 * BLOCK_SIZE + 17])
def test_overlong_line_is_one_error_naming_it(
    cli_process: Run, tmp_path: Path, command: str, length: int
) -> None:
    path = _long_line_file(tmp_path / "long.tsv", 5, length)
    _refused(cli_process(command, "--lang", "en", path), f"{path}:6:", "limit for one line")


def test_validate_reports_an_overlong_line_as_a_finding(cli_process: Run, tmp_path: Path) -> None:
    """For validate, unreadable content is a finding (exit 1) like bad bytes, with its line."""
    path = _long_line_file(tmp_path / "long.tsv", 5, 2 * MAX_LINE_BYTES)
    res = cli_process("validate", "--lang", "en", path)
    assert res.returncode == 1 and "Traceback" not in res.stderr
    assert f"{path}:6: error: line longer than" in res.stdout
    assert "[unreadable]" in res.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["score", ""],
        ["validate", ""],
        ["strip-implicit", ""],
        ["analyze", ""],
        ["score", "--gold-file", "", "x.tsv"],
        ["score", "--gold-dir", "", "x.tsv"],
        ["analyze", "--buckets", "", "x.tsv"],
    ],
)
def test_empty_file_name_is_not_the_working_directory(
    cli_process: Run, tmp_path: Path, args: list[str]
) -> None:
    """``score "$UNSET"`` scored every *.tsv of the working directory, with exit 0."""
    shutil.copyfile(example("en", "clausie"), tmp_path / "x.tsv")
    res = cli_process(*args, "--lang", "en", cwd=tmp_path)
    _refused(res, "empty", "name")


def test_longest_allowed_line_is_read(cli_process: Run, tmp_path: Path) -> None:
    """The limit is on the line's content: exactly MAX_LINE_BYTES, with CRLF, is accepted."""
    lines = example("en", "clausie").read_bytes().splitlines(keepends=True)[:3]
    body = b"1\tx\ty\t" + b"z" * (MAX_LINE_BYTES - len(b"1\tx\ty\t"))
    path = tmp_path / "edge.tsv"
    path.write_bytes(b"".join(lines) + body + b"\r\n")
    res = cli_process("score", "--lang", "en", "--format", "json", path)
    assert res.returncode == 0, res.stderr
    assert orjson.loads(res.stdout)["systems"][0]["extractions"] == 4


def test_overlong_line_in_gold_names_the_line(cli_process: Run, tmp_path: Path) -> None:
    gold = tmp_path / "gold.txt"
    gold.write_bytes(
        b"sent_id:1\tA b .\n1--> Cluster 1:\nA --> b --> " + b"c" * MAX_LINE_BYTES + b"\n"
    )
    _refused(
        cli_process("score", "--lang", "en", "--gold-file", gold, example("en", "clausie")),
        f"{gold}:3:",
        "limit for one line",
    )


def test_endless_line_from_a_pipe_stops_at_the_limit() -> None:
    """150 MB without a newline took 20 s and its size in memory; it now stops after 1 MiB."""
    res = _bash(f"head -c 150000000 /dev/zero | tr '\\0' a | {BENCHIE} score --lang en -")
    _refused(res, "<stdin>:1:", "limit for one line")


# --- 6. any file name


BAD_NAME = os.fsdecode(b"caf\xe9 \\ sys")  # Latin-1 bytes and a backslash


def test_printable_path_is_lossless() -> None:
    for raw in (b"caf\xe9.tsv", b"a\\xe9.tsv", b"\xff\\\xfe", "naïve.tsv".encode()):
        shown = printable_path(os.fsdecode(raw))
        shown.encode("utf-8")  # always writable
        if raw.decode("utf-8", "replace").encode() == raw:
            assert shown == raw.decode()  # valid names are left alone
        else:
            back = shown.encode().decode("unicode_escape").encode("latin-1")
            assert back == raw


def test_batch_with_a_non_utf8_name_loses_nothing(tmp_path: Path) -> None:
    directory = tmp_path / "subs"
    directory.mkdir()
    shutil.copyfile(example("en", "clausie"), directory / "clausie.tsv")
    bad = os.path.join(os.fsencode(directory), os.fsencode(BAD_NAME) + b".tsv")
    shutil.copyfile(example("en", "minie"), bad)
    broken = os.path.join(os.fsencode(directory), b"\xffbroken.tsv")
    with open(broken, "wb") as fh:
        fh.write(b"not a submission\n")
    report = tmp_path / "report.json"
    res = subprocess.run(
        [sys.executable, "-m", "benchie_cli", "score", "--lang", "en", directory, "-o", report],
        capture_output=True,
        env=dict(os.environ),
        check=False,
    )
    assert res.returncode == 1 and b"Traceback" not in res.stderr  # one broken submission
    assert b"\\xffbroken.tsv:1: error:" in res.stderr
    doc = orjson.loads(report.read_bytes())
    assert sorted(s["name"] for s in doc["systems"]) == ["caf\\xe9 \\\\ sys", "clausie"]
    assert doc["failures"][0]["name"] == "\\xffbroken"
    table = subprocess.run(
        [sys.executable, "-m", "benchie_cli", "score", "--lang", "en", directory],
        capture_output=True,
        env=dict(os.environ),
        check=False,
    )
    assert b"caf\\xe9 \\\\ sys" in table.stdout and b"Traceback" not in table.stderr


def test_validate_and_analyze_name_non_utf8_files(tmp_path: Path) -> None:
    bad = os.path.join(os.fsencode(tmp_path), b"x\xe9.tsv")
    shutil.copyfile(example("en", "clausie"), bad)
    for args in (
        ["validate", "--format", "json"],
        ["analyze", "--format", "json", "--resamples", "10"],
    ):
        res = subprocess.run(
            [sys.executable, "-m", "benchie_cli", *args, "--lang", "en", bad],
            capture_output=True,
            env=dict(os.environ),
            check=False,
        )
        assert res.returncode == 0, res.stderr
        assert b"x\\\\xe9.tsv" in res.stdout  # JSON-escaped backslash of the \xe9 escape


# --- 8. options checked by click


@pytest.mark.parametrize(
    "args",
    [
        ["analyze", "--seed", "-1"],
        ["analyze", "--seed", str(2**64)],
        ["analyze", "--resamples", "0"],
        ["analyze", "--resamples", "100001"],
        ["analyze", "--examples", "-1"],
        ["analyze", "--examples", "1001"],
        ["analyze", "--jobs", "0"],
        ["score", "--jobs", "0"],
        ["score", "--jobs", "100000"],
        ["validate", "--max-errors", "-1"],
    ],
)
def test_out_of_range_options_are_usage_errors(cli_process: Run, args: list[str]) -> None:
    res = cli_process(*args, "--lang", "en", example("en", "clausie"))
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert "Invalid value for" in res.stderr and "range" in res.stderr


def test_range_ends_are_accepted(cli_process: Run) -> None:
    res = cli_process(
        "analyze",
        "--lang",
        "en",
        "--seed",
        str(2**64 - 1),
        "--resamples",
        "1",
        "--examples",
        "0",
        "--format",
        "json",
        example("en", "clausie"),
    )
    assert res.returncode == 0, res.stderr
    assert orjson.loads(res.stdout)["options"]["seed"] == 2**64 - 1


# --- 9. pipes and FIFOs


@pytest.mark.parametrize("what", ["submission", "gold"])
def test_validate_of_a_pipe_equals_validate_of_the_file(what: str) -> None:
    path = example("en", "clausie") if what == "submission" else EN_GOLD
    piped = _bash(f"{BENCHIE} validate --lang en --format json <(cat {path})")
    direct = _bash(f"{BENCHIE} validate --lang en --format json {path}")
    assert piped.returncode == direct.returncode == 0, piped.stderr
    a, b = orjson.loads(piped.stdout), orjson.loads(direct.stdout)
    for doc in (a, b):
        for file in doc["files"]:
            file["path"] = "X"
            for d in file["diagnostics"]:
                d["path"] = "X"
    assert a == b
    assert a["files"][0]["kind"] == what


def test_validate_reads_stdin_once_and_detects_gold() -> None:
    res = _bash(f"{BENCHIE} validate --lang en --format json - < {EN_GOLD}")
    assert res.returncode == 0, res.stderr
    assert orjson.loads(res.stdout)["files"][0]["kind"] == "gold"


def test_analyze_reads_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "clausie.tsv"
    os.mkfifo(fifo)
    writer = threading.Thread(
        target=lambda: fifo.write_bytes(example("en", "clausie").read_bytes())
    )
    writer.start()
    args = ["analyze", "--lang", "en", "--format", "json", "--resamples", "50"]
    res = subprocess.run(
        [sys.executable, "-m", "benchie_cli", *args, str(fifo), str(example("en", "minie"))],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=60,
        check=False,
    )
    writer.join(timeout=5)
    assert res.returncode == 0, res.stderr
    direct = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchie_cli",
            *args,
            str(example("en", "clausie")),
            str(example("en", "minie")),
        ],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=60,
        check=False,
    )
    got, want = orjson.loads(res.stdout), orjson.loads(direct.stdout)
    for doc in (got, want):
        for system in doc["systems"]:
            system["file"] = "X"
    assert got["systems"] == want["systems"]
    assert got["comparisons"] == want["comparisons"]
