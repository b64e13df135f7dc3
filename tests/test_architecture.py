"""The package's shape, checked from its sources: imports go one way (down the floors, no
cycles, the CLI imported by nothing of the library, no module loaded by name but through the
registry), and the index cache's fingerprint covers every module the index depends on (a
stale index is never read as a fresh one)."""

from __future__ import annotations

import ast
from pathlib import Path

from benchie_cli.benchmarks.benchie import index_cache
from tests.conftest import REPO

PACKAGE = REPO / "benchie_cli"


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


#: The package's floors, the ground first: a module imports modules of its own floor and of
#: the floors below, never above, at top level or inside a function. A module belongs to the
#: floor of the longest prefix that names it.
FLOORS: tuple[tuple[str, ...], ...] = (
    (
        "benchie_cli",
        "benchie_cli.registry",
        "benchie_cli.errors",
        "benchie_cli.limits",
        "benchie_cli.published",
        "benchie_cli.tables",
        "benchie_cli.tokens",
        "benchie_cli.prf",
        "benchie_cli.slots",
        "benchie_cli.gc_pause",
        "benchie_cli.workers",
        "benchie_cli.stops",
        "benchie_cli.records",
    ),
    ("benchie_cli.textio",),
    ("benchie_cli.gold",),
    ("benchie_cli.inputs", "benchie_cli.outputs", "benchie_cli.disk_cache"),
    ("benchie_cli.benchmarks",),
    ("benchie_cli.report", "benchie_cli.leaderboard", "benchie_cli.analysis"),
    ("benchie_cli.validate", "benchie_cli.api"),
    ("benchie_cli.suite", "benchie_cli.suite_views", "benchie_cli.platform"),
    ("benchie_cli.verify",),
    ("benchie_cli.cli", "benchie_cli.entry", "benchie_cli.__main__"),
)


def _floor(module: str) -> int:
    best: tuple[int, int] | None = None
    for level, prefixes in enumerate(FLOORS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (
                best is None or len(prefix) > best[1]
            ):
                best = (level, len(prefix))
    assert best is not None, f"{module} is on no floor: add it to FLOORS"
    return best[0]


def test_imports_run_down_the_floors() -> None:
    up = [
        f"{module} (floor {_floor(module)}) imports {dep} (floor {_floor(dep)})"
        for module, deps in sorted(GRAPH.items())
        for dep in sorted(deps)
        if _floor(dep) > _floor(module)
    ]
    assert not up, "\n".join(up)


def test_only_the_registry_and_the_command_group_load_modules_by_name() -> None:
    """A module loaded by a string is an import the graph cannot see: the registry loads a
    benchmark's package (``registry.implementation``), the top-level group a command's
    module; nothing else does."""
    allowed = {"benchie_cli.registry", "benchie_cli.cli.group"}
    found = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in ("import_module", "__import__"):
                found.add(_module_name(path))
            if isinstance(node, ast.Name) and node.id == "__import__":
                found.add(_module_name(path))
    assert found <= allowed, sorted(found - allowed)


def test_every_benchmark_names_a_module_that_implements_it() -> None:
    from benchie_cli.registry import BENCHMARKS, implementation

    for name, benchmark in BENCHMARKS.items():
        module = implementation(name)
        assert module.__name__ == benchmark.module
        assert module.__name__ == f"benchie_cli.benchmarks.{name.replace('-', '_')}.benchmark", name
        for method in ("score", "check_shape", "rederive", "rows", "absent", "gold_stats"):
            assert callable(getattr(module.RUNNER, method)), (name, method)
        assert callable(module.to_table) and callable(module.to_markdown), name
        if benchmark.external:
            assert callable(module.read_published), name


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
        "benchie_cli.compiled",  # (a list of names: which build runs, looked up on disk)
        "benchie_cli.errors",
        "benchie_cli.records",  # (the base of the records errors defines)
        "benchie_cli.stops",  # (the end of standard output, which textio's writes share)
        "benchie_cli.textio",
    }, loaded


def _modules_loaded_by(args: list[str], prefixes: tuple[str, ...] = ("benchie_cli",)) -> list[str]:
    """The modules (those of the packages ``prefixes`` name) a ``benchie ARGS`` run has
    loaded when it ends (it must succeed), in a process of its own."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from benchie_cli.cli import main\n"
        "try:\n"
        f"    main({args!r})\n"
        "except SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n"
        f"print(' '.join(sorted(m for m in sys.modules if m.startswith({prefixes!r}))))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return run.stdout.split()


def test_score_without_carb_imports_no_carb_module(tmp_path: Path) -> None:
    """CaRB's modules are loaded by the runs that use CaRB's metric only."""
    from tests.conftest import example

    args = ["score", str(example("en", "clausie")), "-o", str(tmp_path / "r.json")]
    loaded = _modules_loaded_by(args)
    assert "benchie_cli.benchmarks.benchie.scoring" in loaded  # (the check sees imports)
    assert [m for m in loaded if "carb" in m] == []
    # A TSV file is no LLM's answers: their rules are not loaded to say so.
    assert "benchie_cli.inputs.native" in loaded and "benchie_cli.inputs.llm_text" not in loaded


def test_score_of_carb_imports_no_benchie_scorer(tmp_path: Path) -> None:
    """A benchmark's run loads its own package's code, not BenchIE's scorer and index (25 ms
    of imports CaRB's users would pay on every run), nor click's terminal code for a
    progress bar it does not show (a run of one file, its standard error no terminal)."""
    from tests.conftest import DATA

    system = DATA / "carb" / "openie4_output.txt.gz"
    args = ["score", "--benchmark", "carb", str(system), "-o", str(tmp_path / "r.json")]
    loaded = _modules_loaded_by(args, ("benchie_cli", "click"))
    assert "benchie_cli.benchmarks.carb.metric" in loaded
    assert [m for m in loaded if m.startswith("benchie_cli.benchmarks.benchie")] == []
    assert "click.termui" in loaded  # (the check sees click's modules)
    assert "click._termui_impl" not in loaded


def _name_comparisons(path: Path) -> list[int]:
    """Lines of ``path`` that compare with a benchmark's or metric's name: a literal, or
    the registry's constants for the default benchmark and metric and CaRB's family."""
    from benchie_cli.registry import BENCHMARKS, METRICS

    names = set(BENCHMARKS) | set(METRICS)
    constants = {"DEFAULT_BENCHMARK", "DEFAULT_METRIC", "CARB_FAMILY"}

    def named(node: ast.expr) -> bool:
        if isinstance(node, ast.Constant):
            return node.value in names
        if isinstance(node, ast.Name):
            return node.id in constants
        if isinstance(node, ast.Starred):
            return named(node.value)
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return any(named(e) for e in node.elts)
        return False

    return [
        node.lineno
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Compare) and any(named(o) for o in (node.left, *node.comparators))
    ]


def test_no_comparison_with_a_benchmark_or_metric_name_outside_its_package() -> None:
    over = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        own = module.startswith("benchie_cli.benchmarks.") and module.count(".") >= 3
        if own or module == "benchie_cli.registry":
            continue
        lines = _name_comparisons(path)
        if lines:
            over.append(f"{path}: lines {lines}")
    assert not over, "compare with a name only in a benchmark's package or the registry:\n" + (
        "\n".join(over)
    )


def test_the_name_check_finds_comparisons(tmp_path: Path) -> None:
    """The check above sees a literal, a registry constant, and a name in a tuple; not a
    name that is only passed along."""
    source = tmp_path / "m.py"
    source.write_text(
        "if b == 'carb':\n    pass\n"
        "x = b in ('oie2016', 'x')\n"
        "y = m != DEFAULT_METRIC\n"
        "f('wire57')\n",
        encoding="utf-8",
    )
    assert _name_comparisons(source) == [1, 3, 4]


def test_cache_info_knows_every_memo() -> None:
    """``cache info`` tells a current memo from another code's by the memos its admin module
    loads: every module that makes a :class:`~benchie_cli.disk_cache.DiskMemo` is among them."""
    makers = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "DiskMemo":
                makers.add(_module_name(path))
    assert makers, "no DiskMemo found: the check is out of date"
    assert makers <= GRAPH["benchie_cli.benchmarks.benchie.cache_admin"], sorted(makers)
