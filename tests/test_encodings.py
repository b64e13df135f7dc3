"""A file in another of Unicode's encodings than UTF-8 (docs/formats.md, "Encoding"): every
command that reads a system output names the encoding at line 1, and writes nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from benchie_cli.textio import other_encoding
from tests.conftest import GOLD_DIR, RunCli

CLAUSIE = Path(__file__).resolve().parents[1] / "examples" / "submissions" / "en" / "clausie.tsv"
OPENIE4 = "1.0\ta b c\tArg(a,List())\tRel(b,List())\tArg(c,List())\ta b c\n"


def test_the_byte_order_marks_by_hand() -> None:
    marked = {
        b"\xff\xfea\x00": "UTF-16",
        b"\xfe\xff\x00a": "UTF-16",
        b"\xff\xfe\x00\x00a\x00\x00\x00": "UTF-32",
        b"\x00\x00\xfe\xffa": "UTF-32",
    }
    for data, name in marked.items():
        assert (other_encoding(data) or "").startswith(f"{name}, not UTF-8"), data
    for plain in (b"", b"\xef\xbb\xbfa", b"a\xff\xfe", b"\xff", b"\xfe"):
        assert other_encoding(plain) is None, plain


def test_no_byte_order_mark_by_hand() -> None:
    """Known by where the NUL bytes of mostly ASCII text fall; anything else with NUL bytes
    (too short, a binary file) is not named."""
    text = "1\ta\tb\tc\n"
    for encoding, said in (
        ("utf-16-le", "UTF-16, not UTF-8 (little-endian without a byte-order mark"),
        ("utf-16-be", "UTF-16, not UTF-8 (big-endian without a byte-order mark"),
        ("utf-32-le", "UTF-32, not UTF-8 (little-endian without a byte-order mark"),
        ("utf-32-be", "UTF-32, not UTF-8 (big-endian without a byte-order mark"),
    ):
        assert (other_encoding(text.encode(encoding)) or "").startswith(said), encoding
    assert other_encoding("1\ta".encode("utf-16-le")) is None  # (under 8 bytes)
    assert other_encoding(bytes(range(256))) is None
    assert other_encoding(b"\x00" * 64) is None  # (no lane of text bytes)
    # a byte in ten of a position may break the pattern: a character whose low byte is NUL
    assert other_encoding(("\u0100" + "a" * 19).encode("utf-16-le")) is not None
    assert other_encoding(("\u0100a\u0100" + "a" * 17).encode("utf-16-le")) is None  # (two)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32", "utf-16-le"])
@pytest.mark.parametrize(
    "command",
    [
        ["score", "--lang", "en"],
        ["strip-implicit", "--lang", "en"],
        ["score", "--benchmark", "carb", "--split", "test", "--input-format", "openie4"],
        ["score", "--benchmark", "oie2016", "--input-format", "openie4"],
        ["score", "--suite"],
        ["convert"],
    ],
)
def test_every_command_names_the_encoding(
    cli: RunCli, tmp_path: Path, encoding: str, command: list[str]
) -> None:
    text = CLAUSIE.read_text("utf-8") if command[-1] == "en" else OPENIE4
    data = text.encode(encoding)
    if encoding == "utf-16-be":  # (Python writes no byte-order mark for an explicit order)
        data = b"\xfe\xff" + data
    name = "UTF-32" if encoding == "utf-32" else "UTF-16"
    path = tmp_path / "system.txt"
    path.write_bytes(data)
    out = tmp_path / "report.json"
    result = cli(*command, "--gold-dir", GOLD_DIR, path, "-o", out)
    assert result.exit_code == 2, result.stderr
    if encoding == "utf-16-le":  # (no byte-order mark)
        said = (
            "UTF-16, not UTF-8 (little-endian without a byte-order mark: a NUL byte in every "
            "other byte): save it as UTF-8, e.g. `iconv -f UTF-16LE -t UTF-8 FILE > FILE.utf8`"
        )
    else:
        said = (
            f"{name}, not UTF-8 (it starts with {name}'s byte-order mark): save it as UTF-8, "
            f"e.g. `iconv -f {name} -t UTF-8 FILE > FILE.utf8`"
        )
    assert result.stderr == f"benchie: {path}:1: error: {said}\n"
    assert not out.exists()


def test_validate_says_it_first(cli: RunCli, tmp_path: Path) -> None:
    path = tmp_path / "system.tsv"
    path.write_bytes(CLAUSIE.read_text("utf-8").encode("utf-16"))
    result = cli("validate", path)
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0].startswith(f"{path}:1: error: UTF-16, not UTF-8")


def test_a_metric_command_names_it(tmp_path: Path) -> None:
    path = tmp_path / "system.txt"
    path.write_bytes(OPENIE4.encode("utf-16"))
    gold = GOLD_DIR / "oie2016" / "2.0.0" / "test" / "test.oie"
    module = "benchie_cli.benchmarks.oie2016.metric"
    done = subprocess.run(
        [sys.executable, "-m", module, str(gold), str(path), "openie4"],
        capture_output=True,
        text=True,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(f"error: {path}:1: UTF-16, not UTF-8")


@pytest.mark.parametrize("benchmark", ["oie2016", "oie2016-2018", "lsoie"])
def test_a_gold_file_in_utf16_is_named(cli: RunCli, tmp_path: Path, benchmark: str) -> None:
    """``--gold-file``: the gold is named, not the system output it then matched nothing of."""
    gold = tmp_path / "gold.oie"
    gold.write_bytes("S .\tp\ta\tb\n".encode("utf-16"))
    system = tmp_path / "system.txt"
    system.write_text("S .\t1.0\tp\ta\tb\n")
    result = cli("score", "--benchmark", benchmark, "--gold-file", gold, system, "-o", "-")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"benchie: {gold}:1: error: UTF-16, not UTF-8")


def test_a_nul_byte_past_line_1_is_no_encoding(cli: RunCli, tmp_path: Path) -> None:
    """Bytes like a byte-order mark at the start of a later line name no encoding."""
    path = tmp_path / "mid.tsv"
    path.write_bytes(b"1\ta\tb\tc\n\xff\xfe\x00x\ta\tb\n")
    result = cli("validate", path)
    assert f"{path}:2: error: NUL byte in line (binary file?) [nul-byte]" in result.stdout
