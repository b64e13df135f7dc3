"""The compiled build's rules (benchie_cli/compiled.py, build_backend.py, setup.py): what it
compiles, how it is asked for, and how a run says which build it is. ``tox -e compiled``
runs every other test against such a build."""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

import pytest

from benchie_cli import DEFAULT_GOLD_VERSION, __version__, compiled
from tests.conftest import REPO, RunCli


def _source(module: str) -> Path:
    return REPO / Path(*module.split(".")).with_suffix(".py")


@pytest.mark.parametrize("module", compiled.MODULES)
def test_a_compiled_module_is_never_run_as_a_command(module: str) -> None:
    """An extension module cannot run as ``__main__``: a listed module has no such block,
    and no document tells anyone to run it with ``python -m``."""
    tree = ast.parse(_source(module).read_text("utf-8"))
    mains = [
        node
        for node in tree.body
        if isinstance(node, ast.If) and "__main__" in ast.unparse(node.test)
    ]
    assert mains == []
    documents = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
    runs = re.compile(rf"python3? -m {re.escape(module)}\b")
    assert [d.name for d in documents if runs.search(d.read_text("utf-8"))] == []


def test_the_modules_a_metric_command_runs_stay_python() -> None:
    """``python -m benchie_cli.benchmarks.X.metric`` is documented for every benchmark: the
    metric modules are never compiled; their matching modules are."""
    assert not [m for m in compiled.MODULES if m.endswith(".metric")]
    for metric in ("benchie_cli.benchmarks.carb.metric", "benchie_cli.benchmarks.oie2016.metric"):
        assert "__main__" in _source(metric).read_text("utf-8")
        spec = importlib.util.find_spec(metric)
        assert spec is not None and spec.origin is not None and spec.origin.endswith(".py")


def test_compiled_modules_names_only_extension_modules(monkeypatch: pytest.MonkeyPatch) -> None:
    """In a checkout nothing is compiled (a compiled build is installed, never editable);
    under ``tox -e compiled`` everything is (conftest.py stops the run otherwise)."""
    expected = list(compiled.MODULES) if compiled.compiled_modules() else []
    assert compiled.compiled_modules() == expected
    monkeypatch.setattr(compiled, "MODULES", ("benchie_cli.no_such_module",))
    assert compiled.compiled_modules() == []


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
def backend(monkeypatch: pytest.MonkeyPatch) -> object:
    """build_backend.py, with setuptools' own hooks (setuptools is not in every test
    environment: a Python 3.12 venv has none)."""
    pytest.importorskip("setuptools.build_meta", reason="setuptools is not installed here")
    monkeypatch.syspath_prepend(str(REPO))
    import build_backend

    monkeypatch.chdir(REPO)  # (setuptools' hooks read setup.py from the working directory)
    return build_backend


@pytest.mark.parametrize(("value", "compiles"), [(None, False), ("0", False), ("1", True)])
def test_the_backend_compiles_only_when_asked(
    backend: object, monkeypatch: pytest.MonkeyPatch, value: str | None, compiles: bool
) -> None:
    if value is None:
        monkeypatch.delenv("BENCHIE_MYPYC", raising=False)
    else:
        monkeypatch.setenv("BENCHIE_MYPYC", value)
    assert backend.compiling() is compiles  # type: ignore[attr-defined]


@pytest.mark.parametrize("value", ["yes", "true", "", " 1"])
def test_the_backend_refuses_a_value_it_does_not_know(
    backend: object, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    """A typo must not give a pure build that its user takes for a compiled one."""
    monkeypatch.setenv("BENCHIE_MYPYC", value)
    with pytest.raises(SystemExit, match=r"BENCHIE_MYPYC=.*use 1 \(compile\) or 0"):
        backend.compiling()  # type: ignore[attr-defined]


def test_an_editable_install_is_never_compiled(
    backend: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BENCHIE_MYPYC", "1")
    with pytest.raises(SystemExit, match="compiles a regular install only"):
        backend.get_requires_for_build_editable()  # type: ignore[attr-defined]
