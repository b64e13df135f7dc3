"""Submission input (SPEC §2): what must not change a score, and what must stop the run.

Systems write their extractions from many tools and platforms. Line ends, a BOM, blank lines,
stray whitespace and n-ary columns must score exactly like the clean file; unusable input must
stop with one stderr line naming the file (and line), exit status 2, no traceback, and no
report written over an existing one.
"""

from __future__ import annotations

import random
import subprocess
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest

from tests.conftest import RunCli, example

RunProcess = Callable[..., subprocess.CompletedProcess[str]]

CLEAN = example("en", "clausie").read_bytes()
CLEAN_LINES = CLEAN.decode("utf-8").splitlines()


def as_file(lines: list[str], end: str = "\n") -> bytes:
    return (end.join(lines) + end).encode("utf-8")


def padded(line: str) -> str:
    """Edge whitespace around every column and doubled spaces inside slots."""
    cols = line.split("\t")
    return "\t".join(f"  {c.replace(' ', '   ')} " for c in cols)


def n_ary(line: str) -> str:
    """The object split over columns 4..n, one token a column (SPEC §2, paper §4.1)."""
    sent_id, subject, relation, obj = line.split("\t")
    return "\t".join([sent_id, subject, relation, *obj.split(" ")])


def n_ary_ragged(line: str) -> str:
    """The object split over columns in uneven chunks, with spaces around the columns."""
    sent_id, subject, relation, obj = line.split("\t")
    tokens = obj.split(" ")
    chunks = [" ".join(tokens[:2]), *tokens[2:]]
    return "\t".join([sent_id, subject, relation, *(f" {c}  " for c in chunks)])


TRANSFORMS: dict[str, Callable[[], bytes]] = {
    "lf": lambda: as_file(CLEAN_LINES),
    "crlf": lambda: as_file(CLEAN_LINES, "\r\n"),
    "bom": lambda: b"\xef\xbb\xbf" + as_file(CLEAN_LINES),
    "trailing-blank-lines": lambda: as_file(CLEAN_LINES) + b"\n\n\n",
    "interleaved-blank-lines": lambda: as_file([x for line in CLEAN_LINES for x in (line, "")]),
    "whitespace": lambda: as_file([padded(line) for line in CLEAN_LINES]),
    "n-ary": lambda: as_file([n_ary(line) for line in CLEAN_LINES]),
    "n-ary-ragged": lambda: as_file([n_ary_ragged(line) for line in CLEAN_LINES]),
    "no-final-newline": lambda: as_file(CLEAN_LINES).rstrip(b"\n"),
    "everything": lambda: (
        b"\xef\xbb\xbf"
        + as_file([n_ary_ragged(padded(line).strip(" ")) for line in CLEAN_LINES], "\r\n")
        + b"\r\n\r\n"
    ),
}


COUNT_KEYS = (
    "tp",
    "fp",
    "fn",
    "precision",
    "recall",
    "f1",
    "extractions",
    "implicit_removed",
    "unknown_sentence_ids",
)


def counts(cli: RunCli, sub: Path | str, tmp_path: Path, *, stdin: bytes | None = None) -> dict:
    out = tmp_path / "report.json"
    res = cli("score", "--lang", "en", "-o", out, sub, input=stdin)
    assert res.exit_code == 0, res.stderr
    system = orjson.loads(out.read_bytes())["systems"][0]
    return {k: system[k] for k in COUNT_KEYS}


@pytest.fixture(scope="module")
def clean_counts(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """Scores of the untouched upstream file, through the same CLI path."""
    from click.testing import CliRunner

    from benchie_cli.cli import main

    out = tmp_path_factory.mktemp("clean") / "clean.json"
    res = CliRunner().invoke(
        main, ["score", "--lang", "en", "-o", str(out), str(example("en", "clausie"))]
    )
    assert res.exit_code == 0, res.stderr
    system = orjson.loads(out.read_bytes())["systems"][0]
    return {k: system[k] for k in COUNT_KEYS}


def test_clean_file_has_the_published_counts(clean_counts: dict) -> None:
    """Anchor: the transformations below are compared with a correct baseline (SPEC §6)."""
    assert clean_counts["precision"] == 0.5029154518950437
    assert clean_counts["recall"] == 0.25555555555555554


def test_transforms_really_change_the_bytes() -> None:
    """Guard against a transformation that silently does nothing (the tests would pass)."""
    clean = TRANSFORMS["lf"]()
    for name, make in TRANSFORMS.items():
        if name != "lf":
            assert make() != clean, name
    # n-ary really has more than four columns.
    assert max(len(x.split("\t")) for x in CLEAN_LINES) == 4
    assert max(len(x.split(b"\t")) for x in TRANSFORMS["n-ary"]().splitlines()) > 5


@pytest.mark.parametrize("transform", sorted(TRANSFORMS))
def test_harmless_variants_score_like_the_clean_file(
    transform: str, cli: RunCli, tmp_path: Path, clean_counts: dict
) -> None:
    """Each variant gives exactly the clean file's counts and scores."""
    sub = tmp_path / f"{transform}.tsv"
    sub.write_bytes(TRANSFORMS[transform]())
    assert counts(cli, sub, tmp_path) == clean_counts


def test_stdin_scores_like_the_file(cli: RunCli, tmp_path: Path, clean_counts: dict) -> None:
    """`-` reads the submission from stdin, and names the system `stdin`."""
    assert counts(cli, "-", tmp_path, stdin=TRANSFORMS["crlf"]()) == clean_counts
    out = tmp_path / "report.json"
    assert orjson.loads(out.read_bytes())["systems"][0]["name"] == "stdin"


def test_name_equals_path_names_the_system(cli: RunCli, tmp_path: Path) -> None:
    """`NAME=PATH` names the system NAME; a bare PATH is named after the file's stem."""
    out = tmp_path / "report.json"
    res = cli(
        "score",
        "--lang",
        "en",
        "-o",
        out,
        f"mine={example('en', 'clausie')}",
        example("en", "minie"),
    )
    assert res.exit_code == 0, res.stderr
    systems = orjson.loads(out.read_bytes())["systems"]
    assert [s["name"] for s in systems] == ["mine", "minie"]
    assert systems[0]["precision"] == 0.5029154518950437


def test_name_equals_dash_reads_stdin(cli: RunCli, tmp_path: Path) -> None:
    """`NAME=-` names a submission read from stdin."""
    out = tmp_path / "report.json"
    res = cli("score", "--lang", "en", "-o", out, "piped=-", input=CLEAN)
    assert res.exit_code == 0, res.stderr
    (system,) = orjson.loads(out.read_bytes())["systems"]
    assert system["name"] == "piped"
    assert system["precision"] == 0.5029154518950437


def test_nary_line_object_joined_by_single_spaces(tmp_path: Path, cli: RunCli) -> None:
    """A five-column line is matched with columns 4 and 5 joined by one space."""
    gold = tmp_path / "gold.txt"
    gold.write_text(
        "sent_id:1\tHe served as Prime Minister .\n1--> Cluster 1:\n"
        "He --> served --> as Prime Minister\n",
        encoding="utf-8",
    )
    sub = tmp_path / "sub.tsv"
    sub.write_text("1\tHe\tserved\tas\tPrime Minister\n", encoding="utf-8")
    out = tmp_path / "out.json"
    res = cli("score", "--gold-file", gold, "-o", out, sub)
    assert res.exit_code == 0, res.stderr
    system = orjson.loads(out.read_bytes())["systems"][0]
    assert (system["tp"], system["fp"], system["fn"]) == (1, 0, 0)


# --------------------------------------------------------------------------- bad input

PNG_HEADER = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
GOOD = "1\tHe\tserved as\tthe first Prime Minister of Australia\n"

#: name -> (bytes of the file, or "missing" / "directory"; line the error must name or None)
BAD_INPUTS: dict[str, tuple[bytes | str, int | None]] = {
    "empty": (b"", None),
    "only-blank-lines": (b"\n\n\n", None),
    "only-bom-and-crlf": (b"\xef\xbb\xbf\r\n\r\n", None),
    "binary": (PNG_HEADER + random.Random(7).randbytes(2000) + b"\x00\xff\xfe", 1),
    "latin-1": ((GOOD + "1\tJosé\tlived in\tMünchen\n").encode("latin-1"), 2),
    "nul-byte": (GOOD.encode() + b"1\tHe\tser\x00ved\tx\n", 2),
    "too-few-columns": ((GOOD * 2 + "1\tHe\tserved\n").encode(), 3),
    "one-column": ((GOOD + "garbage\n").encode(), 2),
    "missing": ("missing", None),
    "directory": ("directory", None),
}


def make_bad(tmp_path: Path, kind: str) -> Path:
    content, _ = BAD_INPUTS[kind]
    path = tmp_path / f"{kind}.tsv"
    if content == "directory":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    return path


@pytest.mark.parametrize("existing_report", [False, True], ids=["no-report", "old-report"])
@pytest.mark.parametrize("kind", list(BAD_INPUTS))
def test_bad_input_is_one_clear_line(
    kind: str, existing_report: bool, cli_process: RunProcess, tmp_path: Path
) -> None:
    """Exit 2, ONE stderr line with the path (and `:LINE:`), no traceback, no report; an
    existing report is left byte for byte as it was."""
    path = make_bad(tmp_path, kind)
    out = tmp_path / "out.json"
    old = b'{"previous": "report"}\n'
    if existing_report:
        out.write_bytes(old)
    proc = cli_process("score", "--lang", "en", "-o", out, path)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert str(path) in lines[0]
    line = BAD_INPUTS[kind][1]
    if line is not None:
        assert f"{path}:{line}:" in lines[0]
    if existing_report:
        assert out.read_bytes() == old
    else:
        assert not out.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out.json")]  # no temp left
    assert proc.stdout == ""


def test_bad_second_submission_is_reported_and_the_first_scored(
    cli_process: RunProcess, tmp_path: Path
) -> None:
    """A good file then a bad one (a batch): the good one is scored and reported, the bad
    one is named with its error in stderr and in the report, and the run exits 1."""
    bad = make_bad(tmp_path, "latin-1")
    out = tmp_path / "out.json"
    proc = cli_process("score", "--lang", "en", "-o", out, example("en", "clausie"), bad)
    assert proc.returncode == 1
    assert f"{bad}:2:" in proc.stderr
    assert "Traceback" not in proc.stderr
    report = orjson.loads(out.read_bytes())
    assert [s["name"] for s in report["systems"]] == ["clausie"]
    [failure] = report["failures"]
    assert failure["name"] == bad.stem and f"{bad}:2:" in failure["error"]
    assert failure["exit_code"] == 2


def test_bad_stdin_is_named(cli_process: RunProcess, tmp_path: Path) -> None:
    """Errors in stdin input name it (`<stdin>:LINE:`), with the same exit status."""
    proc = cli_process("score", "--lang", "en", "-", input=GOOD + "1\tonly\tthree\n")
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "stdin>:2:" in lines[0]
    assert "Traceback" not in proc.stderr


def test_empty_stdin_is_an_error(cli_process: RunProcess) -> None:
    """An empty submission on stdin is an input error too, not a zero score."""
    proc = cli_process("score", "--lang", "en", "-", input="")
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "stdin" in proc.stderr
    assert "Traceback" not in proc.stderr
