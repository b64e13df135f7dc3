"""Inputs a careless user or an attacker gives (issue 8, items 4, 5, 6, 8 and 9): outputs
that would overwrite an input, endless and line-less inputs, file names that are not UTF-8,
out-of-range options, pipes and FIFOs. Each runs as a real process where exit statuses and
files are the point."""

from __future__ import annotations

import gzip
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
from tests.conftest import GOLD_DIR, REPO, example

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
    if command != "strip-implicit":  # (a format given: the name's extension is not one)
        args += ["--format", "json"]
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


@pytest.mark.parametrize("given", ["- < /dev/null", "/dev/null"])
def test_the_null_device_is_an_empty_file(given: str) -> None:
    """Standard input under cron, ``ssh -n`` or ``docker run`` without ``-i``: it ends at
    once, and is said to be empty, not a device that may never end."""
    res = _bash(f"{BENCHIE} score --lang en {given}")
    assert res.returncode == 2, res.stderr
    assert "no extraction" in res.stderr and "character device" not in res.stderr
    assert "Traceback" not in res.stderr


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


@pytest.mark.parametrize(
    ("where", "line"),
    [
        ("every", 1),  # a file of classic Mac OS's line ends: all of it was one line
        ("one", 6),  # one LF become CR: two extractions were one, scored exit 0
        ("inside", 6),  # a CR inside a CRLF file's line
        ("doubled", 6),  # CR CR LF
        ("last", 8),  # in the last line, which has no line end
        ("block", 0),  # at a block's end, the line going on into the next block
    ],
)
@pytest.mark.parametrize("command", ["score", "validate", "strip-implicit", "analyze"])
def test_a_cr_without_lf_is_refused_at_its_line(
    cli_process: Run, tmp_path: Path, command: str, where: str, line: int
) -> None:
    """Lines end at LF (a CRLF's CR dropped): a CR that no LF follows broke no line, so a
    file with CR line ends scored as one extraction (F1 0.0 with --keep-implicit, exit 0)
    and a stray CR merged two extractions. Each is refused at its line, whatever the
    reader (the scorer's blocks, the line by line readers), also where the CR ends one
    block; a CRLF file is read as ever."""
    lines = example("en", "clausie").read_bytes().splitlines(keepends=True)[:8]
    if where == "every":
        data = b"".join(lines).replace(b"\n", b"\r")
    elif where == "one":
        data = b"".join(lines[:5]) + lines[5].replace(b"\n", b"\r") + b"".join(lines[6:])
    elif where in ("inside", "doubled"):
        crlf = [x.replace(b"\n", b"\r\n") for x in lines]
        crlf[5] = (
            crlf[5].replace(b"\t", b"\r\t", 1) if where == "inside" else crlf[5][:-1] + b"\r\n"
        )
        data = b"".join(crlf)
    elif where == "last":
        data = b"".join(lines)[:-1] + b"\rx"
    else:  # the block's last byte a CR, the line's rest in the next block
        head = b"".join(lines[:5])
        pad = b"1\t" + b"a" * (BLOCK_SIZE - len(head) - 3)
        data = head + pad + b"\r" + b"b\tc\td\n" + b"".join(lines[5:])
        assert len(head + pad + b"\r") == BLOCK_SIZE
        line = 6
    path = tmp_path / "cr.tsv"
    path.write_bytes(data)
    res = cli_process(
        command,
        "--lang",
        "en",
        path,
        *(["-o", tmp_path / "o.tsv"] if command == "strip-implicit" else []),
    )
    assert res.returncode in (1, 2) and "Traceback" not in res.stderr, res.stderr
    said = res.stdout if command == "validate" else res.stderr
    assert f"{path}:{line}: error: a CR (\\r) that no LF follows" in said, said
    assert not (tmp_path / "o.tsv").exists()
    crlf = tmp_path / "crlf.tsv"
    crlf.write_bytes(b"".join(lines).replace(b"\n", b"\r\n"))
    assert cli_process(
        command,
        "--lang",
        "en",
        crlf,
        *(["-o", tmp_path / "o.tsv"] if command == "strip-implicit" else []),
    ).returncode in (0, 1)


@pytest.mark.parametrize("command", ["score", "validate", "analyze"])
def test_cr_line_ends_past_the_line_limit_are_said_as_such(
    cli_process: Run, tmp_path: Path, command: str
) -> None:
    """A file of CR line ends over 1 MiB runs on past the line limit before any CR is
    seen as a line's end: the CR is the cause said, not "a file without line breaks"."""
    text = example("en", "clausie").read_bytes().replace(b"\n", b"\r")
    path = tmp_path / "cr.tsv"
    path.write_bytes(text * (MAX_LINE_BYTES // len(text) + 2))
    res = cli_process(command, "--lang", "en", path)
    said = res.stdout if command == "validate" else res.stderr
    assert f"{path}:1: error: a CR (\\r) that no LF follows" in said, said


def test_cr_line_ends_are_line_ends_to_the_original_scorers_readers(
    cli_process: Run, tmp_path: Path
) -> None:
    """CaRB's readers take lines as text mode does, CR included: a file of CR line ends over
    1 MiB scores as its LF twin (it was refused as a line over the limit)."""
    lf = tmp_path / "lf.txt"
    lf.write_bytes(gzip.decompress((REPO / "tests/data/carb/openie4_output.txt.gz").read_bytes()))
    cr = tmp_path / "cr.txt"
    cr.write_bytes(lf.read_bytes().replace(b"\n", b"\r"))
    assert cr.stat().st_size > MAX_LINE_BYTES
    score = ["score", "--benchmark", "carb", "--input-format", "openie4", "--format", "json"]
    runs = [cli_process(*score, f"x={f}") for f in (lf, cr)]
    assert all(r.returncode == 0 for r in runs), runs[1].stderr
    first, second = (orjson.loads(r.stdout)["systems"][0] for r in runs)
    assert {k: v for k, v in first.items() if k not in ("file", "sha256")} == {
        k: v for k, v in second.items() if k not in ("file", "sha256")
    }


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


# --- found by review: closed streams, stdin as an input, races, names that forge rows


def test_closed_stdin_and_stdout_are_one_line_each(tmp_path: Path) -> None:
    sub = example("en", "clausie")
    closed_in = _bash(f"{BENCHIE} score --lang en - <&-")
    _refused(closed_in, "<stdin>", "standard input is closed")
    fine = _bash(f"{BENCHIE} validate --lang en {sub} <&-")
    assert fine.returncode == 0 and "Traceback" not in fine.stderr
    closed_out = _bash(f"{BENCHIE} score --lang en {sub} >&-")
    _refused(closed_out, "standard output is closed")
    written = _bash(f"{BENCHIE} score --lang en {sub} -o {tmp_path / 'r.json'} >&-")
    assert written.returncode == 0 and (tmp_path / "r.json").is_file(), written.stderr


def test_endless_pipe_is_not_copied_to_disk_without_end() -> None:
    """validate and analyze keep a copy of a pipe; /dev/zero through a pipe filled the disk
    at 350 MB/s. The copy stops at the first line over the limit, reported at its line."""
    for command in ("validate", "analyze"):
        res = _bash(f"{BENCHIE} {command} --lang en <(cat /dev/zero)", timeout=60)
        assert res.returncode in (1, 2) and "Traceback" not in res.stderr, res.stderr
        assert "limit for one line" in res.stdout + res.stderr


def test_stdin_is_an_input_no_output_may_overwrite(tmp_path: Path) -> None:
    sub = tmp_path / "s.tsv"
    shutil.copyfile(example("en", "clausie"), sub)
    gold = tmp_path / "g.txt"
    shutil.copyfile(EN_GOLD, gold)
    before = sub.read_bytes(), gold.read_bytes()
    _refused(_bash(f"{BENCHIE} score --lang en - --format json -o {sub} < {sub}"), "standard input")
    _refused(
        _bash(f"{BENCHIE} score --lang en {sub} --gold-file - --format json -o {gold} < {gold}"),
        "standard input",
    )
    _refused(_bash(f"{BENCHIE} strip-implicit --lang en - -o {sub} < {sub}"), "standard input")
    _refused(_bash(f"{BENCHIE} score --lang en - --gold-file - < {sub}"), "only once")
    assert (sub.read_bytes(), gold.read_bytes()) == before


def test_no_output_overwrites_the_manifest_that_vouched_for_the_gold(
    cli_process: Run, tmp_path: Path
) -> None:
    store = tmp_path / "store"
    shutil.copytree(GOLD_DIR / "1.1.0", store / "1.1.0")
    manifest = store / "1.1.0" / "manifest.json"
    before = manifest.read_bytes()
    res = cli_process(
        "score", "--gold-dir", store, "--lang", "en", example("en", "clausie"), "-o", manifest
    )
    _refused(res, "is also an input")
    assert manifest.read_bytes() == before


def test_manifest_refuses_a_file_name_that_is_not_utf8(tmp_path: Path) -> None:
    version = tmp_path / "store" / "9.0.0"
    (version / "en" / "default").mkdir(parents=True)
    bad = os.path.join(os.fsencode(version / "en" / "default"), b"g\xff.txt")
    shutil.copyfile(EN_GOLD, bad)
    res = subprocess.run(
        [sys.executable, "-m", "benchie_cli", "gold", "manifest", str(version)],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        check=False,
    )
    _refused(res, "g\\xff.txt", "not UTF-8")


def test_names_cannot_forge_rows_or_lines(tmp_path: Path) -> None:
    directory = tmp_path / "subs"
    directory.mkdir()
    shutil.copyfile(example("en", "clausie"), directory / "clausie.tsv")
    shutil.copyfile(example("en", "minie"), directory / "zz | 0.9999 |\n| 0 | evil.tsv")
    for fmt in ("markdown", "table"):
        res = subprocess.run(
            [
                sys.executable,
                "-m",
                "benchie_cli",
                "score",
                "--lang",
                "en",
                "--format",
                fmt,
                str(directory),
            ],
            capture_output=True,
            text=True,
            env=dict(os.environ),
            check=False,
        )
        assert res.returncode == 0, res.stderr
        rows = [line for line in res.stdout.splitlines() if "clausie" in line or "zz" in line]
        assert len(rows) == 2, res.stdout
        assert "evil" in next(r for r in rows if "zz" in r)
    markdown = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchie_cli",
            "score",
            "--lang",
            "en",
            "--format",
            "markdown",
            str(directory),
        ],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        check=False,
    ).stdout
    row = next(line for line in markdown.splitlines() if "zz" in line)
    assert row.count(" | ") == markdown.splitlines()[0].count(" | ")  # the name's are escaped
    assert "zz \\| 0.9999 \\|\\x0a\\| 0 \\| evil" in row


def test_a_file_rewritten_during_parallel_scoring_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The parent hashes while workers read: a file rewritten meanwhile had its old sha256
    reported beside the new content's numbers."""
    from benchie_cli.benchmarks.benchie import scoring
    from benchie_cli.benchmarks.benchie.index_cache import load_compiled
    from benchie_cli.errors import BenchieError
    from benchie_cli.gold.store import GoldStore

    sub = tmp_path / "s.tsv"
    sub.write_bytes(example("en", "clausie").read_bytes() * 40)
    monkeypatch.setattr(scoring, "PARALLEL_MIN_BYTES", 4096)
    scan = scoring.Scorer._scan_parallel

    def rewriting(self: scoring.Scorer, *args: object) -> object:
        result = scan(self, *args)  # type: ignore[arg-type]
        with open(sub, "ab") as fh:  # a concurrent writer, made deterministic
            fh.write(b"1\ta\tb\tc\n")
        return result

    monkeypatch.setattr(scoring.Scorer, "_scan_parallel", rewriting)
    gold = GoldStore(GOLD_DIR).resolve("1.1.0", "en", "default")
    scorer = scoring.Scorer(load_compiled(gold), scoring.ScoreOptions("en"))
    with pytest.raises(BenchieError, match="changed while it was being scored"):
        scorer.score(str(sub), "s", jobs=2)


def test_a_file_rewritten_between_facets_of_analyze_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from benchie_cli.analysis import profile as analysis
    from benchie_cli.benchmarks.benchie import scoring
    from benchie_cli.errors import BenchieError
    from benchie_cli.gold.store import GoldStore
    from benchie_cli.inputs.batch import Submission

    sub = tmp_path / "s.tsv"
    shutil.copyfile(example("en", "clausie"), sub)
    score = scoring.Scorer.score
    calls = []

    def rewriting(self: scoring.Scorer, path: str, *args: object, **kwargs: object) -> object:
        result = score(self, path, *args, **kwargs)  # type: ignore[arg-type]
        calls.append(path)
        if len(calls) == 1:
            with open(sub, "ab") as fh:
                fh.write(b"1\ta\tb\tc\n")
        return result

    monkeypatch.setattr(scoring.Scorer, "score", rewriting)
    store = GoldStore(GOLD_DIR)
    facets = {f: store.resolve("1.1.0", "en", f) for f in ("default", "concat")}
    with pytest.raises(BenchieError, match="changed while it was being analysed"):
        analysis.analyze(facets, [Submission("s", str(sub))], analysis.AnalyzeOptions("en", 10))


def _implicit_heavy(path: Path, copies: int) -> Path:
    """The clausie example plus ``copies`` implicit lines (a token no sentence has)."""
    extra = b"".join(b"%d\tzorglub\tis\there %d\n" % (1 + i % 300, i) for i in range(copies))
    base = example("en", "clausie").read_bytes().rstrip(b"\n") + b"\n"
    path.write_bytes(base + extra)
    return path


@pytest.mark.parametrize("jobs", [1, 3])
def test_implicit_list_is_capped_and_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int
) -> None:
    """3M implicit lines took 2.2 GB and wrote a 439 MB report: a result keeps the first
    IMPLICIT_KEPT (here 7) in file order, counts them all, and parallel equals sequential."""
    from benchie_cli.benchmarks.benchie import report, scoring
    from benchie_cli.benchmarks.benchie.index_cache import load_compiled
    from benchie_cli.gold.store import GoldStore

    monkeypatch.setattr(scoring, "IMPLICIT_KEPT", 7)
    monkeypatch.setattr(scoring, "PARALLEL_MIN_BYTES", 4096)
    sub = _implicit_heavy(tmp_path / "s.tsv", 50)
    gold = GoldStore(GOLD_DIR).resolve("1.1.0", "en", "default")
    result = scoring.Scorer(load_compiled(gold), scoring.ScoreOptions("en")).score(
        str(sub), "s", jobs=jobs
    )
    assert result.implicit_count == 50
    clausie_lines = len(example("en", "clausie").read_bytes().splitlines())
    assert [x.line for x in result.implicit] == [clausie_lines + 1 + i for i in range(7)]
    doc = report.system_json(result, 1, per_sentence=False)
    assert doc["implicit_removed"] == 50 and len(doc["implicit"]) == 7
    keys = list(doc)
    assert keys[keys.index("implicit") + 1] == "implicit_omitted" and doc["implicit_omitted"] == 43


def test_too_many_distinct_unknown_ids_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from benchie_cli.benchmarks.benchie import scoring
    from benchie_cli.benchmarks.benchie.index_cache import load_compiled
    from benchie_cli.errors import BenchieError
    from benchie_cli.gold.store import GoldStore

    monkeypatch.setattr(scoring, "UNKNOWN_IDS_TRACKED", 5)
    sub = tmp_path / "s.tsv"
    sub.write_bytes(b"".join(b"x%d\ta\tb\tc\n" % i for i in range(10)))
    gold = GoldStore(GOLD_DIR).resolve("1.1.0", "en", "default")
    scorer = scoring.Scorer(load_compiled(gold), scoring.ScoreOptions("en"))
    with pytest.raises(BenchieError, match="more than 5 distinct sentence ids") as caught:
        scorer.score(str(sub), "s")
    assert (caught.value.path, caught.value.line) == (str(sub), 6)


@pytest.mark.skipif(not Path("/dev/stdout").exists(), reason="no /dev/stdout on this system")
def test_dev_stdout_on_a_pipe_is_written_to() -> None:
    """``-o /dev/stdout`` in a pipeline: the path resolves to no file (``pipe:[...]``), and
    the output is written to the stream, not refused for want of a directory to rename in."""
    args = ["score", "--lang", "en", "--format", "json", "-o", "/dev/stdout"]
    run = subprocess.run(
        [sys.executable, "-m", "benchie_cli", *args, str(example("en", "clausie"))],
        capture_output=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert orjson.loads(run.stdout)["systems"][0]["name"] == "clausie"
    said = "benchie: wrote /dev/stdout (json: 1 system(s), gold 1.1.0)\n"
    assert run.stderr.decode().endswith(said)
