"""perf/side_by_side.py's argument handling: a benchmark whose original is not given is
skipped with the reason, and nothing is timed (the script itself is run by hand)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "perf" / "side_by_side.py"


def _module():
    spec = importlib.util.spec_from_file_location("side_by_side", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("side_by_side", module)
    spec.loader.exec_module(module)
    return module


def test_every_benchmark_without_its_original_is_skipped_with_a_reason(tmp_path, capsys):
    out = tmp_path / "figures.json"
    assert _module().main(["--repeat", "1", "--json", str(out)]) == 0
    figures = json.loads(out.read_text())
    assert figures["rows"] == [] and figures["problems"] == []
    assert set(figures["skipped"]) == {
        "carb",
        "carb-ss",
        "oie2016",
        "oie2016-2018",
        "reoie2016",
        "wire57",
        "lsoie",
        "moie",
        "docoie",
        "multi2oie",
    }
    assert figures["skipped"]["carb"] == "give --carb and --carb-python"
    assert "skipped wire57: give --wire57" in capsys.readouterr().out


def test_a_checkout_without_the_scorer_is_skipped(tmp_path):
    out = tmp_path / "figures.json"
    argv = ["--only", "carb", "--carb", str(tmp_path), "--carb-python", sys.executable]
    assert _module().main([*argv, "--json", str(out)]) == 0
    assert json.loads(out.read_text())["skipped"]["carb"].endswith("carb.py is missing")


def test_an_unknown_benchmark_is_refused():
    with pytest.raises(SystemExit) as raised:
        _module().main(["--only", "nonesuch"])
    assert raised.value.code == 2


#: A stand-in for benchie's command: exits 1 on a file holding a line "bad".
_READER = "import sys; sys.exit(b'bad\\n' in open(sys.argv[1], 'rb').readlines())"


def _floor(tmp_path: Path, lines: list[bytes]) -> dict | None:
    module = _module()
    from bench_carb import Spawner  # (importable once the script put perf/ on the path)

    source = tmp_path / "input.txt"
    source.write_bytes(b"".join(lines))
    spawner = Spawner(tmp_path)
    try:
        ours = [sys.executable, "-c", _READER, str(source)]
        return module.floor(spawner, ours, {}, tmp_path / "floor", 2)
    finally:
        spawner.close()


def test_the_floor_takes_every_hundredth_line(tmp_path):
    found = _floor(tmp_path, [b"ok\n"] * 1000)
    assert found is not None
    assert (found["sample"], found["lines"]) == ("every 100th line", 10)
    assert 0 < found["min"] <= found["median"] <= found["max"]


def test_the_floor_falls_back_to_the_first_percent(tmp_path):
    """Every hundredth line is one the command refuses (a format of blocks): the input's
    first 1% (rounded up) is timed instead."""
    lines = [b"bad\n" if i % 100 == 0 and i else b"ok\n" for i in range(1050)]
    found = _floor(tmp_path, lines)
    assert found is not None
    assert (found["sample"], found["lines"]) == ("the first 1%", 11)


def test_no_floor_when_no_sample_is_read(tmp_path):
    found = _floor(tmp_path, [b"bad\n"] * 300)
    assert found is None
    row = {"floor": None, "original": {"median": 1.0}}
    assert "no 1% sample" in _module().floor_note(row)


def _install(tmp_path: Path, package: Path, compiled: int = 0, listed: int = 5) -> str:
    """A console script whose Python says its ``benchie_cli`` is the one in ``package``, of
    whose ``listed`` modules to compile ``compiled`` are compiled."""
    python = tmp_path / "python"
    python.write_text(f"#!/bin/sh\necho '{package / '__init__.py'}'\necho {compiled} {listed}\n")
    python.chmod(0o755)
    script = tmp_path / "benchie"
    script.write_text(f"#!{python}\n")
    return str(script)


def test_an_editable_install_is_named_as_one(tmp_path):
    """Its Python imports the checkout's own sources (an editable install's import hook)."""
    kind = _module().install_kind(_install(tmp_path, SCRIPT.parent.parent / "benchie_cli"))
    assert kind.startswith("an editable install of the checkout")


def test_a_regular_install_is_named_as_one(tmp_path):
    site = tmp_path / "site-packages" / "benchie_cli"
    site.mkdir(parents=True)
    assert _module().install_kind(_install(tmp_path, site)) == "a regular install"


def test_a_compiled_install_is_named_as_one(tmp_path):
    site = tmp_path / "site-packages" / "benchie_cli"
    site.mkdir(parents=True)
    kind = _module().install_kind(_install(tmp_path, site, compiled=5))
    assert kind == "a regular install, compiled"
    kind = _module().install_kind(_install(tmp_path, site, compiled=2))
    assert kind == "a regular install, partly compiled"


def test_a_path_with_spaces_is_one_path(tmp_path):
    site = tmp_path / "my venv" / "site-packages" / "benchie_cli"
    site.mkdir(parents=True)
    assert _module().install_kind(_install(tmp_path, site)) == "a regular install"


def test_a_missing_script_is_said_to_be_missing(tmp_path):
    assert _module().install_kind(str(tmp_path / "nonesuch")).startswith("not found")


def test_the_paired_speedup_is_the_median_of_each_pairs_ratio():
    """A slow spell that takes one command's run but not the other's in the same pair moves
    the ratio of the medians, not the pairs' own ratios: each pair here is 10x (one of them,
    whose original alone ran in a spell, 30x or 3.3x), while the medians say 30x or 3.3x."""
    module = _module()
    from bench_carb import Run

    def runs(*walls: float) -> list[Run]:
        return [Run(w, w, 10.0, "") for w in walls]

    assert module.paired_speedup(runs(1.0, 3.0, 3.0), runs(0.1, 0.1, 0.3)) == pytest.approx(10)
    assert module.paired_speedup(runs(1.0, 1.0, 3.0), runs(0.1, 0.3, 0.3)) == pytest.approx(10)
    assert module.paired_speedup(runs(1.0, 3.0), runs(0.5, 0.1)) == pytest.approx(16)


@pytest.mark.parametrize(
    ("text", "python"),
    [
        (b"#!/opt/venv/bin/python\nimport sys\n", "/opt/venv/bin/python"),
        (b"#!/opt/venv/bin/python -E\n", "/opt/venv/bin/python"),
        # pip's launcher where the venv's path has a space or is too long for a #! line
        (
            b"#!/bin/sh\n'''exec' \"/opt/v env/bin/python\" \"$0\" \"$@\"\n' '''\n",
            "/opt/v env/bin/python",
        ),
    ],
)
def test_the_python_a_console_script_runs(tmp_path, text, python):
    script = tmp_path / "benchie"
    script.write_bytes(text)
    assert _module().python_of(str(script)) == python


def test_an_env_line_names_the_python_on_path(tmp_path, monkeypatch):
    (tmp_path / "bin").mkdir()
    found = tmp_path / "bin" / "python3"
    found.write_text("")
    found.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    script = tmp_path / "benchie"
    script.write_bytes(b"#!/usr/bin/env python3\n")
    assert _module().python_of(str(script)) == str(found)
    script.write_bytes(b"#!/usr/bin/env python9\n")
    with pytest.raises(ValueError, match="python9"):
        _module().python_of(str(script))


def test_what_is_no_console_script_is_said(tmp_path):
    (tmp_path / "README.md").write_text("# hello\n")
    for path in (tmp_path / "README.md", tmp_path / "nonesuch"):
        with pytest.raises(ValueError):
            _module().python_of(str(path))
    kind = _module().install_kind(str(tmp_path / "README.md"))
    assert kind.startswith("an install of unknown kind") and "no #! line" in kind
