"""The compiled-index cache must be invisible: same numbers with or without it, rebuilt when
damaged, skipped when it cannot be written, and named by everything the index depends on."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchie_cli import disk_cache
from benchie_cli.benchmarks.benchie import index_cache
from benchie_cli.benchmarks.benchie.matching import CompiledGold
from benchie_cli.benchmarks.benchie.scoring import ScoreOptions, Scorer
from benchie_cli.gold.parse import load_gold
from benchie_cli.gold.store import GoldStore
from tests.conftest import GOLD_DIR, example


def _resolved(facet: str = "default"):
    return GoldStore(GOLD_DIR).resolve("1.0.0", "en", facet)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv("BENCHIE_CACHE_DIR", str(directory))
    return directory


@pytest.mark.parametrize("facet", ["default", "concat", "minimal"])
def test_cached_index_equals_fresh_build(cache: Path, facet: str) -> None:
    resolved = _resolved(facet)
    first = index_cache.load_compiled(resolved)  # builds and writes
    entry = index_cache.entry_path(cache, resolved)
    assert entry.is_file()
    second = index_cache.load_compiled(resolved)  # reads
    fresh = CompiledGold.build(load_gold(str(resolved.path)), facet)
    assert index_cache.decode_entry(resolved, entry.read_bytes()) is not None
    # Equal data (marshal's bytes also depend on which strings are interned or shared).
    assert second.to_data() == fresh.to_data()
    assert first.to_data() == fresh.to_data()
    assert second.findings.errors == 3  # 1.0.0's three errors, from the cache as when built
    for system in ("clausie", "stanford"):
        path = str(example("en", system))
        opts = ScoreOptions("en", facet)
        assert Scorer(second, opts).score(path, system).totals == (
            Scorer(fresh, opts).score(path, system).totals
        )


def test_entry_name_pins_gold_hash_facet_and_code(cache: Path) -> None:
    resolved = _resolved("concat")
    name = index_cache.entry_path(cache, resolved).name
    assert name.startswith(resolved.sha256 + "-concat-")
    assert index_cache.code_fingerprint() in name


def test_corrupt_entry_is_rebuilt(cache: Path) -> None:
    resolved = _resolved()
    entry = index_cache.entry_path(cache, resolved)
    entry.parent.mkdir(parents=True)
    entry.write_bytes(b"\x00garbage, not marshal")
    compiled = index_cache.load_compiled(resolved)
    assert sum(compiled.synsets) == 1350
    assert index_cache.decode_entry(resolved, entry.read_bytes()) is not None  # repaired


def test_cache_off_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BENCHIE_CACHE_DIR", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert disk_cache.cache_dir() is None
    assert sum(index_cache.load_compiled(_resolved()).synsets) == 1350
    assert list(tmp_path.iterdir()) == []


def test_a_home_that_does_not_exist_is_not_created(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``HOME=/nonexistent`` (a service account, a sandbox): no cache, and no home made."""
    home = tmp_path / "nonexistent"
    monkeypatch.delenv("BENCHIE_CACHE_DIR")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(home))
    assert disk_cache.cache_dir() is None
    assert sum(index_cache.load_compiled(_resolved()).synsets) == 1350
    assert not home.exists()
    home.mkdir()
    assert disk_cache.cache_dir() == home / ".cache" / "benchie-cli"


def test_unwritable_cache_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache directory should be")
    monkeypatch.setenv("BENCHIE_CACHE_DIR", str(blocker / "cache"))
    assert sum(index_cache.load_compiled(_resolved()).synsets) == 1350
