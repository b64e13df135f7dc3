"""Shared fixtures: the repository's gold store and example submissions, and CLI runners.

Tests read only what the repository holds: ``gold/`` (restored by ``dvc pull``, which tox
runs first) and ``examples/``. They never read ../shared.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from benchie_cli import published
from benchie_cli.cli import main

#: The test tree (it mirrors the package: tests/benchmarks/<name>/, tests/inputs/, tests/gold/,
#: ...), the repository holding it, and the test data every test module reads.
TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
DATA = TESTS / "data"
GOLD_DIR = REPO / "gold"
EXAMPLES = REPO / "examples" / "submissions"
ENGLISH_SYSTEMS = published.ENGLISH_SYSTEMS


def pytest_sessionstart(session: pytest.Session) -> None:
    if not (GOLD_DIR / "1.0.0" / "manifest.json").is_file():
        pytest.exit(
            f"gold missing: {GOLD_DIR} has no 1.0.0/manifest.json; run `dvc pull` first "
            "(`tox -e gold` does this for you)",
            returncode=3,
        )
    if os.environ.get("BENCHIE_EXPECT_COMPILED") == "1":
        problem = compiled_build_problem()
        if problem:
            pytest.exit(f"BENCHIE_EXPECT_COMPILED=1, but {problem}", returncode=3)


def compiled_build_problem() -> str | None:
    """Why the package under test is not a compiled build (``tox -e compiled``), or None:
    it must be installed, not the checkout's sources, and every module
    ``benchie_cli/compiled.py`` lists must be loaded as an extension module, or the run
    would test the pure modules under the compiled build's name."""
    import importlib
    from importlib.machinery import ExtensionFileLoader

    import benchie_cli
    from benchie_cli.compiled import MODULES

    package = Path(benchie_cli.__file__).resolve().parent
    if package == REPO / "benchie_cli":
        return f"benchie_cli is imported from the checkout ({package}), not an install"
    if not MODULES:
        return "benchie_cli/compiled.py lists no module"
    pure = [
        name
        for name in MODULES
        if not isinstance(importlib.import_module(name).__loader__, ExtensionFileLoader)
    ]
    if pure:
        return f"these modules are not loaded compiled from {package}: {', '.join(pure)}"
    return None


@pytest.fixture(scope="session")
def index_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One compiled-index cache for the session, never the user's own."""
    return tmp_path_factory.mktemp("index-cache")


@pytest.fixture(autouse=True)
def _gold_env(
    monkeypatch: pytest.MonkeyPatch, index_cache_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Point every test at the checkout's gold, also when the package is installed
    non-editable (as tox does), where the checkout cannot be found from the package; and
    give each test a user data directory of its own, never the user's."""
    monkeypatch.setenv("BENCHIE_GOLD_DIR", str(GOLD_DIR))
    monkeypatch.setenv("BENCHIE_CACHE_DIR", str(index_cache_dir))
    monkeypatch.setenv("BENCHIE_DATA_DIR", str(tmp_path_factory.mktemp("user-data")))


@pytest.fixture
def gold_dir() -> Path:
    return GOLD_DIR


def example(lang: str, system: str) -> Path:
    return EXAMPLES / lang / f"{system}.tsv"


RunCli = Callable[..., Result]


@pytest.fixture
def cli() -> Iterator[RunCli]:
    """Run ``benchie ARGS...`` in-process; returns click's Result (stdout, stderr, exit_code)."""
    runner = CliRunner()

    def run(*args: str, input: str | bytes | None = None) -> Result:
        return runner.invoke(main, [str(a) for a in args], input=input, catch_exceptions=False)

    yield run


@pytest.fixture
def cli_process() -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run ``python -m benchie_cli ARGS...`` as a real process, as a user would."""

    def run(
        *args: str, input: str | None = None, cwd: Path | None = None
    ) -> subprocess.CompletedProcess[str]:
        env = dict(os.environ)  # carries the autouse fixture's gold and cache settings
        return subprocess.run(
            [sys.executable, "-m", "benchie_cli", *map(str, args)],
            input=input,
            capture_output=True,
            text=True,
            env=env,
            cwd=cwd,
            check=False,
        )

    return run


@pytest.fixture
def alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the stores a test names (``--gold-dir``) and the user data directory: no
    $BENCHIE_GOLD_DIR, no checkout's gold, no installed package's (commands run in this
    process only: a subprocess finds the checkout)."""
    from benchie_cli.gold import dirs

    monkeypatch.delenv("BENCHIE_GOLD_DIR", raising=False)
    monkeypatch.setattr(dirs, "checkout_gold_dir", lambda: None)
    package = Path("/nonexistent/site-packages/benchie_cli/data/gold")
    monkeypatch.setattr(dirs, "package_gold_dir", lambda: package)


@pytest.fixture
def forking(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forked workers allowed in this test process beside the test runner's own threads
    (pytest-xdist's I/O thread), for which a real run starts none
    (``benchie_cli.workers.single_threaded``): the tests of the statistics shared out must
    share them out. The child runs no thread's code; Python 3.12's warning of a fork
    beside threads is filtered (pyproject.toml)."""
    from benchie_cli import workers

    monkeypatch.setattr(workers, "single_threaded", lambda: True)
