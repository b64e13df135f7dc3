"""The compiled build's rules (benchie_cli/compiled.py, build_backend.py, setup.py): what it
compiles, how it is asked for, and how a run says which build it is. ``tox -e compiled``
runs every other test against such a build."""

from __future__ import annotations

import ast
import importlib.util
import os
import re
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

import pytest

from benchie_cli import DEFAULT_GOLD_VERSION, __version__, compiled
from tests.conftest import REPO, RunCli


def _source(module: str) -> Path:
    return REPO / Path(*module.split(".")).with_suffix(".py")


@pytest.mark.parametrize("module", compiled.MODULES)
def test_a_compiled_module_is_never_run_as_a_command(module: str) -> None:
    """An extension module cannot run as ``__main__``: a listed module has no such block,
    and no document, script or test runs it with ``python -m``."""
    tree = ast.parse(_source(module).read_text("utf-8"))
    mains = [
        node
        for node in tree.body
        if isinstance(node, ast.If) and "__main__" in ast.unparse(node.test)
    ]
    assert mains == []
    texts = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
    for folder in ("perf", "scripts", "tests"):
        texts += [p for p in sorted((REPO / folder).rglob("*")) if p.suffix in ("", ".py", ".md")]
    runs = re.compile(rf"""-m["',\s]+{re.escape(module)}\b""")
    found = [
        str(t.relative_to(REPO))
        for t in texts
        if t.is_file() and runs.search(t.read_text("utf-8", errors="replace"))
    ]
    assert found == []


def test_the_modules_a_metric_command_runs_stay_python() -> None:
    """``python -m benchie_cli.benchmarks.X.metric`` is documented for every benchmark: the
    metric modules are never compiled; their matching modules are."""
    assert not [m for m in compiled.MODULES if m.endswith(".metric")]
    for metric in ("benchie_cli.benchmarks.carb.metric", "benchie_cli.benchmarks.oie2016.metric"):
        assert "__main__" in _source(metric).read_text("utf-8")
        spec = importlib.util.find_spec(metric)
        assert spec is not None and spec.origin is not None and spec.origin.endswith(".py")


def _installed(top: Path, suffixes: dict[str, str]) -> Path:
    """A package tree below ``top`` with each listed module's source and, for those in
    ``suffixes``, a file of its name with that suffix."""
    for name in compiled.MODULES:
        source = top.joinpath(*name.split(".")).with_suffix(".py")
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text("")
        if name in suffixes:
            source.with_name(source.stem + suffixes[name]).write_bytes(b"")
    return top


def test_compiled_modules_names_the_modules_with_an_extension_file(tmp_path: Path) -> None:
    """Of this interpreter's suffixes only: another Python's extension file is not loaded,
    so it does not count."""
    own = EXTENSION_SUFFIXES[0]
    every = dict.fromkeys(compiled.MODULES, own)
    assert compiled.compiled_modules(_installed(tmp_path / "a", every)) == list(compiled.MODULES)
    assert compiled.compiled_modules(_installed(tmp_path / "b", {})) == []
    first, *_ = compiled.MODULES
    other = {first: ".cpython-20-x86_64-linux-gnu.so", compiled.MODULES[-1]: own}
    assert compiled.compiled_modules(_installed(tmp_path / "c", other)) == [compiled.MODULES[-1]]


def test_only_a_compiled_build_is_compiled() -> None:
    """A checkout's editable install and the pure wheel compile nothing; under ``tox -e
    compiled`` (BENCHIE_EXPECT_COMPILED=1) every listed module is compiled (conftest.py
    stops the run otherwise)."""
    expected = list(compiled.MODULES) if os.environ.get("BENCHIE_EXPECT_COMPILED") == "1" else []
    assert compiled.compiled_modules() == expected


@pytest.mark.parametrize(
    ("found", "said"),
    [(0, ""), (1, "; partly compiled"), (len(compiled.MODULES), "; compiled")],
)
def test_the_version_says_which_build_runs(
    cli: RunCli, monkeypatch: pytest.MonkeyPatch, found: int, said: str
) -> None:
    monkeypatch.setattr(compiled, "compiled_modules", lambda: list(compiled.MODULES[:found]))
    result = cli("--version")
    assert result.exit_code == 0
    assert result.stdout == f"benchie {__version__} (default gold {DEFAULT_GOLD_VERSION}{said})\n"


# --------------------------------------------------------------------------- the backend


@pytest.fixture
def backend(monkeypatch: pytest.MonkeyPatch) -> Any:
    """build_backend.py, with setuptools' own hooks (setuptools is not in every test
    environment: a Python 3.12 venv has none)."""
    pytest.importorskip("setuptools.build_meta", reason="setuptools is not installed here")
    monkeypatch.syspath_prepend(str(REPO))
    import build_backend

    monkeypatch.chdir(REPO)  # (setuptools' hooks read setup.py from the working directory)
    return build_backend


@pytest.mark.parametrize(("value", "compiles"), [(None, False), ("0", False), ("1", True)])
def test_the_backend_compiles_only_when_asked(
    backend: Any, monkeypatch: pytest.MonkeyPatch, value: str | None, compiles: bool
) -> None:
    if value is None:
        monkeypatch.delenv("BENCHIE_MYPYC", raising=False)
    else:
        monkeypatch.setenv("BENCHIE_MYPYC", value)
    assert backend.compiling() is compiles


@pytest.mark.parametrize("value", ["yes", "true", "", " 1"])
def test_the_backend_refuses_a_value_it_does_not_know(
    backend: Any, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    """A typo must not give a pure build that its user takes for a compiled one."""
    monkeypatch.setenv("BENCHIE_MYPYC", value)
    with pytest.raises(SystemExit, match=r"BENCHIE_MYPYC=.*use 1 \(compile\) or 0"):
        backend.compiling()


def test_an_editable_install_is_never_compiled(
    backend: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Refused by every hook an editable install runs: a frontend without build isolation
    skips the requirements hook."""
    monkeypatch.setenv("BENCHIE_MYPYC", "1")
    for hook in (
        lambda: backend.get_requires_for_build_editable(),
        lambda: backend.prepare_metadata_for_build_editable("unused"),
        lambda: backend.build_editable("unused"),
    ):
        with pytest.raises(SystemExit, match="compiles a regular install only"):
            hook()


@pytest.mark.parametrize(("value", "extra"), [("0", []), ("1", ["mypy==2.4.1"])])
def test_the_wheels_requirements_add_the_pinned_mypy_to_compile(
    backend: Any, monkeypatch: pytest.MonkeyPatch, value: str, extra: list[str]
) -> None:
    monkeypatch.setenv("BENCHIE_MYPYC", value)
    monkeypatch.setattr(backend._setuptools, "get_requires_for_build_wheel", lambda c: ["x"])
    assert backend.get_requires_for_build_wheel() == ["x", *extra]


def test_setup_compiles_only_inside_build_wheel(
    backend: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """setuptools runs setup.py for the requirements, the metadata and the sdist too: only
    the wheel's build compiles, and the flag is down again after it, also after a failure."""
    seen: list[bool] = []

    def building(*_args: object) -> str:
        seen.append(backend.building_wheel)
        if len(seen) == 2:
            raise RuntimeError("the build failed")
        return "benchie_cli-0-cp311-cp311-linux_x86_64.whl"

    monkeypatch.setattr(backend._setuptools, "build_wheel", building)
    assert not backend.building_wheel
    assert backend.build_wheel("unused").endswith(".whl")
    with pytest.raises(RuntimeError):
        backend.build_wheel("unused")
    assert seen == [True, True] and not backend.building_wheel
