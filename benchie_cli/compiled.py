"""The modules a compiled build compiles, and whether this install's are compiled.

A compiled build (``BENCHIE_MYPYC=1 pip install .``; docs/install.md, docs/performance.md)
compiles these modules into C extensions with mypyc, from this very source: the numbers
are the same bytes either way, and a run takes fewer instructions. Only modules where a
run's time goes are listed, and only modules that no ``python -m`` command runs (an
extension module cannot be run as ``__main__``).
"""

from __future__ import annotations

from pathlib import Path

#: The modules the build compiles (setup.py reads this list; so do the tests of a compiled
#: build, which check that each is loaded compiled).
MODULES = (
    "benchie_cli.benchmarks.carb.data",
    "benchie_cli.benchmarks.carb.matching",
    "benchie_cli.benchmarks.lsoie.matching",
    "benchie_cli.benchmarks.oie2016.data",
    "benchie_cli.benchmarks.oie2016.matching",
    "benchie_cli.benchmarks.oie2016.wordnet",
)


def compiled_modules(top: Path | None = None) -> list[str]:
    """Those of :data:`MODULES` installed compiled below ``top`` (by default, the directory
    holding this ``benchie_cli``): a file of the module's name with an extension suffix of
    this interpreter (``data.cpython-311-x86_64-linux-gnu.so``) beside its source, which
    the import system tries before the source. Looked up on disk, not imported:
    ``benchie --version`` asks, and imports no command's modules. (The tests of a compiled
    build import each module and check its loader too.)"""
    from importlib.machinery import EXTENSION_SUFFIXES

    top = Path(__file__).parent.parent if top is None else top
    found = []
    for name in MODULES:
        stem = top.joinpath(*name.split("."))
        if any(stem.with_name(stem.name + suffix).is_file() for suffix in EXTENSION_SUFFIXES):
            found.append(name)
    return found
