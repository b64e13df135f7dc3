"""perf/instructions.py's parts that decide its table: the count callgrind prints, the modules
``python -X importtime`` names, the floor's samples and each row's share (the script itself
runs under valgrind, by hand: a minute a command)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

PERF = Path(__file__).resolve().parent.parent / "perf"


def _module():
    sys.path.insert(0, str(PERF))  # (it imports side_by_side, its neighbour)
    try:
        spec = importlib.util.spec_from_file_location("instructions", PERF / "instructions.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(PERF))
    return module


CALLGRIND = b"""==4242== Callgrind, a call-graph generating cache profiler
==4242== Command: python -c pass
==4242==
==4242== Events    : Ir
==4242== Collected : 37909810
==4242==
==4242== I   refs:      37,909,810
"""


def test_the_count_is_the_collected_line():
    assert _module().collected(CALLGRIND) == 37_909_810


def test_no_collected_line_is_an_error_not_a_zero():
    with pytest.raises(ValueError):
        _module().collected(b"==1== Callgrind\n==1== I   refs: 5\n")


IMPORTTIME = """\
import time: self [us] | cumulative | imported package
import time:       120 |        120 |   _io
import time:       300 |       1200 |     benchie_cli.errors
import time:       210 |        900 |       click.types
import time:        90 |       1500 |   benchie_cli.cli.group
import time:        15 |         15 | benchie_cli.__main__
benchie: warning: a line of the command's own | with a bar
import time:        40 |       1600 | benchie_cli
"""


def test_benchies_modules_in_importtimes_order_without_main():
    assert _module().imported_modules(IMPORTTIME) == [
        "benchie_cli.errors",
        "benchie_cli.cli.group",
        "benchie_cli",
    ]


def test_the_floor_samples_every_hundredth_line_then_the_first_percent():
    data = b"".join(b"line %d\n" % i for i in range(250))
    (how_every, every), (how_first, first) = _module().samples(data)
    assert how_every == "every 100th line" and every == b"line 0\nline 100\nline 200\n"
    assert how_first == "the first 1%" and first == b"line 0\nline 1\nline 2\n"  # ceil(2.5)


def test_each_row_is_its_count_less_the_one_before_and_shares_of_the_whole():
    module = _module()
    counts = {
        "interpreter": 40_000_000,
        "libraries": 200_000_000,
        "modules": 300_000_000,
        "floor": 400_000_000,
        "whole": 1_000_000_000,
    }
    assert module.shares(counts) == [
        ("interpreter", 40_000_000),
        ("libraries", 160_000_000),
        ("modules", 100_000_000),
        ("floor", 100_000_000),
        ("whole", 600_000_000),
    ]
    rows = module.table(counts, "every 100th line").splitlines()
    assert rows[2] == "| the interpreter (`python -c pass`) | 40 M | 4% |"
    assert rows[3].endswith("| 160 M | 16% |")
    assert "(every 100th line)" in rows[5]
    assert rows[6].endswith("| 600 M | 60% |")
    assert rows[-1] == "| the whole command | 1,000 M | 100% |"


def test_without_valgrind_it_says_so_and_counts_nothing(monkeypatch, capsys, tmp_path):
    module = _module()
    monkeypatch.setattr(module.shutil, "which", lambda name: None)
    (tmp_path / "out.txt").write_text("x\n")
    assert module.main(["--", "score", str(tmp_path / "out.txt")]) == 2
    assert "valgrind is not installed" in capsys.readouterr().err


def test_a_missing_input_is_named(monkeypatch, capsys, tmp_path):
    module = _module()
    monkeypatch.setattr(module.shutil, "which", lambda name: "/usr/bin/" + name)
    assert module.main(["--", "score", str(tmp_path / "missing.txt")]) == 2
    assert "missing.txt: no such file" in capsys.readouterr().err


def test_two_collected_lines_are_an_error_too():
    with pytest.raises(ValueError):
        _module().collected(CALLGRIND + CALLGRIND)


class _Refusing:
    """A counter whose command accepts only the sample whose text is ``accepted``."""

    def __init__(self, accepted: bytes) -> None:
        self.accepted = accepted

    def attempt(self, argv):
        import subprocess

        ok = Path(argv[-1]).read_bytes() == self.accepted
        return subprocess.CompletedProcess(argv, 0 if ok else 2, b"", b"")


def test_the_floor_falls_back_to_the_first_percent_where_the_command_refuses_the_other(
    tmp_path,
):
    module = _module()
    source = tmp_path / "blocks.txt"
    source.write_bytes(b"".join(b"line %d\n" % i for i in range(250)))
    work = tmp_path / "work"
    work.mkdir()
    first = b"line 0\nline 1\nline 2\n"
    how, argv = module.floor_command(
        _Refusing(first), ["py", "benchie", "score", str(source)], work
    )
    assert how == "the first 1%" and argv[:3] == ["py", "benchie", "score"]
    assert Path(argv[-1]).read_bytes() == first and Path(argv[-1]).parent == work
    assert module.floor_command(_Refusing(b"never"), ["py", str(source)], work) is None


def test_a_floor_not_below_the_whole_command_makes_no_table():
    module = _module()
    counts = {"interpreter": 1, "libraries": 2, "modules": 3, "floor": 796, "whole": 796}
    assert "not the command's last argument" in module.problem(counts)
    assert module.problem(counts | {"whole": 797}) is None


def test_the_counted_commands_cache_bytecode_and_keep_benchies_directories_private(tmp_path):
    env = _module().child_env({"PYTHONDONTWRITEBYTECODE": "1", "HOME": "/home/u"}, tmp_path)
    assert "PYTHONDONTWRITEBYTECODE" not in env and env["HOME"] == "/home/u"
    assert env["BENCHIE_CACHE_DIR"] == str(tmp_path / "cache")
    assert env["BENCHIE_DATA_DIR"] == str(tmp_path / "data")
    assert env["PYTHONHASHSEED"] == "0"


def test_a_command_that_fails_under_valgrind_stops_the_count(monkeypatch):
    import subprocess

    module = _module()
    failed = subprocess.CompletedProcess([], 1, b"", b"==1== Collected : 5\n")
    monkeypatch.setattr(module.subprocess, "run", lambda *a, **k: failed)
    with pytest.raises(SystemExit, match="status 1"):
        module.Counter({}).count(["python", "-c", "raise SystemExit(1)"])
