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


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
@pytest.mark.parametrize(
    "command",
    [
        ["score", "--lang", "en"],
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
    assert result.stderr == (
        f"benchie: {path}:1: error: {name}, not UTF-8 (it starts with {name}'s byte-order "
        f"mark): save it as UTF-8, e.g. `iconv -f {name} -t UTF-8 FILE > FILE.utf8`\n"
    )
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
