"""``benchie cache info|prune``: lists the index cache; prunes only what no run reads."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest

from benchie_cli.benchmarks.benchie.cache_admin import _every_memo
from benchie_cli.benchmarks.benchie.index_cache import code_fingerprint
from benchie_cli.disk_cache import MEMO_FORMAT
from tests.conftest import RunCli, example

Run = Callable[..., subprocess.CompletedProcess[str]]
SHA = "ab" * 32


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv("BENCHIE_CACHE_DIR", str(directory))
    return directory


def fill(directory: Path, cli: RunCli) -> dict[str, Path]:
    """A current entry (from a real run), an old-code entry, a 0.2.0 entry, a stale and a
    fresh temporary file, an unrelated file, a file named like an entry that is none, and a
    link named like an entry."""
    assert cli("score", "--lang", "en", example("en", "clausie")).exit_code == 0
    (current,) = directory.glob("*.idx")
    files = {
        "current": current,
        "old": directory / f"{SHA}-default-0123456789abcdef.idx",
        "marshal": directory / f"{SHA}-default-0123456789abcdef.marshal",
        "stale": directory / ".x.idx.abc.tmp",
        "fresh": directory / ".y.idx.def.tmp",
        "other": directory / "notes.txt",
        "fake": directory / f"{SHA}-minimal-0123456789abcdef.idx",
    }
    for key in ("marshal", "stale", "fresh", "other", "fake"):
        files[key].write_bytes(b"x" * 10)
    files["old"].write_bytes(b"benchie-index\t" + b"x" * 10)  # (an index's start)
    old = time.time() - 2 * 3600
    os.utime(files["stale"], (old, old))
    target = directory.parent / "precious.idx"
    target.write_bytes(b"keep")
    files["link"] = directory / f"{SHA}-concat-0123456789abcdef.idx"
    files["link"].symlink_to(target)
    files["target"] = target
    return files


def test_info_lists_entries_and_totals(cache: Path, cli: RunCli) -> None:
    fill(cache, cli)
    res = cli("cache", "info")
    assert res.exit_code == 0
    assert str(cache) in res.stdout and code_fingerprint() in res.stdout
    assert "0123456789abcdef" in res.stdout and SHA[:12] in res.stdout
    assert "5 file(s)" in res.stdout and "1 current" in res.stdout
    doc = orjson.loads(cli("cache", "info", "--format", "json").stdout)
    current = [e for e in doc["entries"] if e["current"]]
    assert len(current) == 1 and current[0]["facet"] == "default"
    assert doc["other_files"] == 3  # notes.txt, the file that is no index, and the link


def test_prune_removes_only_what_no_run_reads(cache: Path, cli: RunCli) -> None:
    files = fill(cache, cli)
    res = cli("cache", "prune")
    assert res.exit_code == 0
    gone = {"old", "marshal", "stale"}
    for key, path in files.items():
        assert path.is_symlink() or path.exists() == (key not in gone), key
        if key in gone:
            assert f"removed {path.name}" in res.stdout
    assert "removed 3 file(s)" in res.stdout
    assert files["target"].read_bytes() == b"keep"


def test_prune_all_removes_current_entries_too(cache: Path, cli: RunCli) -> None:
    files = fill(cache, cli)
    res = cli("cache", "prune", "--all")
    assert res.exit_code == 0 and "removed 4 file(s)" in res.stdout
    assert not files["current"].exists()
    assert files["fresh"].exists() and files["other"].exists() and files["link"].is_symlink()
    assert files["target"].read_bytes() == b"keep"


def test_missing_directory(cache: Path, cli: RunCli) -> None:
    assert "does not exist" in cli("cache", "info").stdout
    assert "removed 0 file(s)" in cli("cache", "prune").stdout


def test_cache_off(cli_process: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BENCHIE_CACHE_DIR", "off")
    info = cli_process("cache", "info")
    assert info.returncode == 0 and "the cache is off ($BENCHIE_CACHE_DIR is 'off')" in info.stdout
    res = cli_process("cache", "prune")
    assert res.returncode == 2 and "cache is off ($BENCHIE_CACHE_DIR is 'off')" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def _memo_file(path: Path, name: str, fingerprint: str) -> None:
    """A memo's header (its payload is not looked at by ``cache``)."""
    path.write_bytes(
        f"benchie-memo\t{MEMO_FORMAT}\t{name}\t{fingerprint}\t{'0' * 64}\n{{}}".encode()
    )


def test_memos_are_listed_kept_by_prune_and_removed_by_prune_all(cache: Path, cli: RunCli) -> None:
    """A memo this code reads is current; one another code wrote (its header names another
    fingerprint), or one filed under another memo's name, is not, and plain ``prune``
    removes it, as it removes an index of another code."""
    cache.mkdir()
    current = _every_memo()
    lemmas, hashes = cache / "oie2016-lemmas.memo", cache / "lsoie-py2-hashes.memo"
    _memo_file(lemmas, "oie2016-lemmas", current["oie2016-lemmas"])
    _memo_file(hashes, "lsoie-py2-hashes", "0123456789abcdef")
    misfiled = cache / "copy.memo"
    _memo_file(misfiled, "oie2016-lemmas", current["oie2016-lemmas"])
    doc = orjson.loads(cli("cache", "info", "--format", "json").stdout)
    assert [(e["name"], e["kind"], e["code"], e["current"]) for e in doc["entries"]] == [
        ("copy.memo", "memo", current["oie2016-lemmas"], False),
        ("lsoie-py2-hashes.memo", "memo", "0123456789abcdef", False),
        ("oie2016-lemmas.memo", "memo", current["oie2016-lemmas"], True),
    ]
    assert doc["other_files"] == 0
    assert "1 current" in cli("cache", "info").stdout
    res = cli("cache", "prune")
    assert res.exit_code == 0 and "removed 2 file(s)" in res.stdout
    assert lemmas.is_file() and not hashes.exists() and not misfiled.exists()
    assert cli("cache", "prune", "--all").exit_code == 0
    assert not lemmas.exists()


def test_real_runs_memos_are_current(cache: Path, cli_process: Run) -> None:
    """The memos a run writes are listed as current, each under the code it names (a
    process of its own: a memo is read once a process, from the directory of that time)."""
    from tests.conftest import DATA

    clausie = DATA / "oie2016" / "clausie_output.txt.gz"
    assert cli_process("score", "--benchmark", "oie2016", clausie).returncode == 0
    doc = orjson.loads(cli_process("cache", "info", "--format", "json").stdout)
    memos = [e for e in doc["entries"] if e["kind"] == "memo"]
    assert [(e["name"], e["current"]) for e in memos] == [("oie2016-lemmas.memo", True)]


def test_a_memo_no_run_reads_is_pruned_and_its_header_never_shown(cache: Path, cli: RunCli) -> None:
    """A memo of another format, a damaged header, or one whose fields are not what a memo
    writes (control bytes a terminal would obey) is benchie's, read by no run (the next save
    replaces it): listed as not current, with no code shown, and removed by plain prune."""
    cache.mkdir()
    headers = {
        "damaged.memo": b"benchie-memo\t" + b"x" * 10,
        "older.memo": b"benchie-memo\t1\tolder\t0123456789abcdef\t" + b"0" * 64 + b"\n{}",
        "evil.memo": b"benchie-memo\t2\tevil\t\x1b]0;pwned\x07\r\x08X\tdead\n{}",
    }
    for name, data in headers.items():
        (cache / name).write_bytes(data)
    doc = orjson.loads(cli("cache", "info", "--format", "json").stdout)
    assert [(e["name"], e["code"], e["current"]) for e in doc["entries"]] == [
        (name, None, False) for name in sorted(headers)
    ]
    shown = cli("cache", "info").stdout
    assert "\x1b" not in shown and "\x07" not in shown and "pwned" not in shown
    res = cli("cache", "prune")
    assert res.exit_code == 0 and "removed 3 file(s)" in res.stdout
    assert list(cache.iterdir()) == []


def test_prune_removes_the_file_it_listed_not_one_put_in_its_place(
    cache: Path, cli: RunCli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file renamed over an entry between listing and removal is someone's: left alone."""
    from benchie_cli.benchmarks.benchie import cache_admin

    cache.mkdir()
    old = cache / f"{SHA}-default-0123456789abcdef.idx"
    old.write_bytes(b"benchie-index\t" + b"x" * 10)
    listed = cache_admin.list_cache

    def swapped(directory: Path) -> cache_admin.CacheListing:
        listing = listed(directory)
        notes = cache / "notes.txt"
        notes.write_bytes(b"my notes")
        os.replace(notes, old)
        return listing

    monkeypatch.setattr(cache_admin, "list_cache", swapped)
    assert "removed 0 file(s)" in cli("cache", "prune").stdout
    assert old.read_bytes() == b"my notes"


def test_a_file_named_as_a_memo_that_is_none_is_left_alone(cache: Path, cli: RunCli) -> None:
    """Not benchie's (the run that would save that memo keeps it too): ``prune --all``
    leaves it."""
    cache.mkdir()
    notes = cache / "oie2016-lemmas.memo"
    notes.write_bytes(b"my notes\n")
    doc = orjson.loads(cli("cache", "info", "--format", "json").stdout)
    assert doc["entries"] == [] and doc["other_files"] == 1
    assert cli("cache", "prune", "--all").exit_code == 0
    assert notes.read_bytes() == b"my notes\n"


def test_names_of_any_kind_are_listed_escaped_and_other_memos_left_alone(
    cache: Path, cli: RunCli
) -> None:
    cache.mkdir()
    temporary = os.fsdecode(b".x\xfe.idx.a.tmp")
    names = [os.fsdecode(b"\xff-bad.memo"), "Notes.memo", "tab\t.memo", temporary]
    for name in names:
        (cache / name).write_bytes(b"x")
    doc = orjson.loads(cli("cache", "info", "--format", "json").stdout)
    assert [(e["name"], e["kind"]) for e in doc["entries"]] == [(".x\\xfe.idx.a.tmp", "temporary")]
    assert doc["other_files"] == 3
    res = cli("cache", "info")
    assert res.exit_code == 0 and "\\xfe" in res.stdout
    assert cli("cache", "prune", "--all").exit_code == 0
    # (nothing removed: no memo of benchie's, and a fresh temporary file may be a run's)
    assert sorted(p.name for p in cache.iterdir()) == sorted(names)


def test_a_name_that_only_ends_like_an_entry_is_left_alone(cache: Path, cli: RunCli) -> None:
    """``$`` would match before a trailing newline: an entry's name is matched to its end."""
    cache.mkdir()
    odd = cache / f"{SHA}-default-0123456789abcdef\n.marshal"
    odd.write_bytes(b"mine")
    assert "removed 0 file(s)" in cli("cache", "prune", "--all").stdout
    assert odd.read_bytes() == b"mine"
