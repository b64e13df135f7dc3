"""The package's shape, checked from its sources: imports go one way (no cycles, the CLI
imported by nothing of the library), and the index cache's fingerprint covers every module
the index depends on (a stale index is never read as a fresh one)."""

from __future__ import annotations

import ast
from pathlib import Path

from benchie_cli.benchmarks.benchie import index_cache

PACKAGE = Path(__file__).resolve().parents[1] / "benchie_cli"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """The package's modules ``path`` imports, at top level or inside functions (a lazy
    import is an edge too: it runs, just later)."""
    names: set[str] = set()
    modules = {_module_name(p) for p in PACKAGE.rglob("*.py")}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.startswith("benchie_cli"):
                for alias in node.names:  # `from benchie_cli.x import y`: y may be a module
                    sub = f"{node.module}.{alias.name}"
                    names.add(sub if sub in modules else node.module)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names if a.name.startswith("benchie_cli"))
    return {n for n in names if n in modules and n != "benchie_cli"}


GRAPH = {_module_name(p): _imports(p) for p in PACKAGE.rglob("*.py")}


def test_the_import_graph_has_no_cycle() -> None:
    seen: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(module: str, path: list[str]) -> None:
        if seen.get(module) == 2:
            return
        assert seen.get(module) != 1, " -> ".join([*path, module])
        seen[module] = 1
        for dep in sorted(GRAPH[module]):
            visit(dep, [*path, module])
        seen[module] = 2

    for module in sorted(GRAPH):
        visit(module, [])


def test_only_the_entry_point_imports_the_cli() -> None:
    for module, deps in GRAPH.items():
        if not module.startswith("benchie_cli.cli") and module not in (
            "benchie_cli.entry",
            "benchie_cli.__main__",
        ):
            assert not any(d.startswith("benchie_cli.cli") for d in deps), module


def test_index_fingerprint_covers_every_module_the_index_depends_on() -> None:
    """The matcher compiles the index from the parsed gold: its import closure is what
    decides the index's contents, and exactly what the fingerprint hashes."""
    closure: set[str] = set()
    todo = ["benchie_cli.benchmarks.benchie.matching"]
    while todo:
        module = todo.pop()
        if module not in closure:
            closure.add(module)
            todo.extend(GRAPH[module])
    sources = {_module_name(PACKAGE / name) for name in index_cache.SOURCES}
    assert sources == closure


def test_version_imports_no_command() -> None:
    """`benchie --version` is the start-up floor: it loads no command module, no scorer, no
    gold store (perf/bench_startup.py measures the time; this pins the design)."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from benchie_cli.cli import main\n"
        "try:\n"
        "    main(['--version'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('benchie_cli'))))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    assert out[0].startswith("benchie ")
    loaded = set(out[1].split())
    assert loaded <= {
        "benchie_cli",
        "benchie_cli.cli",
        "benchie_cli.cli.group",
        "benchie_cli.errors",
        "benchie_cli.textio",
    }, loaded


def test_score_without_carb_imports_no_carb_module(tmp_path: Path) -> None:
    """CaRB's modules are loaded by the runs that use CaRB's metric only."""
    import subprocess
    import sys

    from .conftest import example

    args = ["score", str(example("en", "clausie")), "-o", str(tmp_path / "r.json")]
    code = (
        "import sys\n"
        "from benchie_cli.cli import main\n"
        "try:\n"
        f"    main({args!r})\n"
        "except SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n"
        "print(' '.join(sorted(m for m in sys.modules if 'carb' in m)))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "", run.stdout
