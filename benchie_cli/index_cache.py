"""The compiled gold index, kept on disk between runs.

Parsing and indexing the English gold costs ~0.13 s; loading the same index with marshal
costs ~6 ms. The index is a pure function of three things, and its file is named by all
three, so a cached index can never be stale: the gold file's sha256, the facet, and a
fingerprint of the code that builds it (the source of the parsing and matching modules).

The cache is an optimisation only: a missing, unreadable or corrupt entry is rebuilt, and a
cache directory that cannot be written (a read-only container) is silently skipped.
Location: ``$BENCHIE_CACHE_DIR``, else ``$XDG_CACHE_HOME/benchie-cli``, else
``~/.cache/benchie-cli``; ``BENCHIE_CACHE_DIR=off`` disables it.
"""

from __future__ import annotations

import hashlib
import marshal
import os
from functools import cache
from pathlib import Path

from benchie_cli import __version__
from benchie_cli.errors import BenchieError
from benchie_cli.gold import Gold, load_gold
from benchie_cli.gold_store import GoldStore, ResolvedGold
from benchie_cli.matching import CompiledGold
from benchie_cli.textio import atomic_write

ENV_CACHE_DIR = "BENCHIE_CACHE_DIR"
_SOURCES = ("gold.py", "slots.py", "matching.py")


@cache
def code_fingerprint() -> str:
    """Hash of the modules whose code decides what the index holds."""
    digest = hashlib.sha256(__version__.encode())
    here = Path(__file__).resolve().parent
    for name in _SOURCES:
        digest.update((here / name).read_bytes())
    return digest.hexdigest()[:16]


def cache_dir() -> Path | None:
    configured = os.environ.get(ENV_CACHE_DIR)
    if configured is not None:
        return None if configured.strip().lower() in ("", "off", "0", "none") else Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "benchie-cli"


def entry_path(directory: Path, gold: ResolvedGold) -> Path:
    return directory / f"{gold.sha256}-{gold.facet}-{code_fingerprint()}.marshal"


def load_compiled(gold: ResolvedGold, parsed: Gold | None = None) -> CompiledGold:
    """The compiled index of ``gold`` from the cache, or built (and cached) from the file;
    a caller that has parsed the file already passes it as ``parsed``."""
    directory = cache_dir()
    path = entry_path(directory, gold) if directory is not None else None
    if path is not None:
        try:
            return CompiledGold.from_data(marshal.loads(path.read_bytes()))
        except (OSError, EOFError, ValueError, TypeError):
            pass  # absent or unusable: rebuild below
    if parsed is None:
        parsed = load_gold(str(gold.path))
    compiled = CompiledGold.build(parsed, gold.facet)
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(str(path), marshal.dumps(compiled.to_data()), durable=False)
        except (OSError, BenchieError):
            pass  # a cache we cannot write only costs time
    return compiled


def compile_store(store: GoldStore, versions: list[str]) -> list[Path]:
    """Compile every language and facet of ``versions`` into the cache: run once where
    runs are many and first runs matter (a container image at build time)."""
    directory = cache_dir()
    if directory is None:
        raise BenchieError(f"the index cache is off (${ENV_CACHE_DIR}); nothing to compile into")
    written = []
    for version in versions:
        manifest = store.manifest(version)
        for language in manifest.languages():
            for facet, _ in manifest.facets(language):
                gold = store.resolve(version, language, facet)
                load_compiled(gold)
                path = entry_path(directory, gold)
                if not path.is_file():
                    raise BenchieError(f"could not write the index cache in {directory}")
                written.append(path)
    return written
