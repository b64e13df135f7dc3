"""Memos kept in the cache directory: read only when every check passes, written once at the
end of a run that computed something new, never read by ``verify`` (docs/trust.md)."""

from __future__ import annotations

import hashlib
import marshal
import os
from pathlib import Path

import pytest

from benchie_cli import disk_cache
from benchie_cli.disk_cache import MEMO_SUFFIX, DiskMemo, bypassed
from tests.conftest import DATA, RunCli


def _memo(fingerprint: str = "f1", max_entries: int = 8) -> DiskMemo[str, str]:
    return DiskMemo("test-words", lambda: fingerprint, (str, str), max_entries=max_entries)


@pytest.fixture
def cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv("BENCHIE_CACHE_DIR", str(directory))
    return directory


def _filled(values: dict[str, str], fingerprint: str = "f1") -> DiskMemo[str, str]:
    memo = _memo(fingerprint)
    assert memo.get("absent") is None  # (the first look-up reads the file)
    for k, v in values.items():
        memo.put(k, v)
    memo.save()
    return memo


def test_values_are_kept_between_runs(cache: Path) -> None:
    _filled({"books": "book", "men": "man"})
    assert (cache / f"test-words{MEMO_SUFFIX}").is_file()
    later = _memo()
    assert (later.get("books"), later.get("men"), later.get("women")) == ("book", "man", None)


def test_nothing_new_writes_nothing(cache: Path) -> None:
    _filled({"books": "book"})
    path = cache / f"test-words{MEMO_SUFFIX}"
    before = path.stat().st_mtime_ns
    os.utime(path, ns=(0, 0))
    memo = _memo()
    assert memo.get("books") == "book"
    memo.save()
    assert path.stat().st_mtime_ns == 0 != before


def test_another_code_s_memo_is_ignored_and_replaced(cache: Path) -> None:
    _filled({"books": "WRONG"}, fingerprint="old")
    memo = _filled({"books": "book"}, fingerprint="new")
    assert memo.get("books") == "book"
    assert _memo("old").get("books") is None  # the file is the new code's now
    assert _memo("new").get("books") == "book"


def _forge(cache: Path, payload: bytes, *, fingerprint: str = "f1") -> None:
    """A file whose header is right for ``payload`` (what damage cannot produce, but a
    writer of the directory can)."""
    sha = hashlib.sha256(payload).hexdigest()
    header = f"benchie-memo\t{disk_cache.MEMO_FORMAT}\ttest-words\t{fingerprint}\t{sha}\n"
    cache.mkdir(exist_ok=True)
    (cache / f"test-words{MEMO_SUFFIX}").write_bytes(header.encode() + payload)


@pytest.mark.parametrize(
    "payload",
    [
        marshal.dumps({"books": 1}),  # a value of another type
        marshal.dumps({b"books": "book"}),  # a key of another type
        marshal.dumps(["books", "book"]),  # no dict
        marshal.dumps({str(n): "x" for n in range(9)}),  # more values than the bound
        b"\xff\x00garbage",  # not marshal at all
    ],
)
def test_a_file_of_the_wrong_shape_is_ignored(cache: Path, payload: bytes) -> None:
    _forge(cache, payload)
    assert _memo().get("books") is None


def test_a_damaged_file_is_ignored(cache: Path) -> None:
    _filled({"books": "book"})
    path = cache / f"test-words{MEMO_SUFFIX}"
    data = bytearray(path.read_bytes())
    data[-3] ^= 0x01
    path.write_bytes(bytes(data))
    assert _memo().get("books") is None
    path.write_bytes(bytes(data[: len(data) // 2]))
    assert _memo().get("books") is None


def test_a_link_is_not_followed_and_is_replaced_not_written_through(
    cache: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere.memo"
    _filled({"books": "book"})
    (cache / f"test-words{MEMO_SUFFIX}").rename(elsewhere)
    (cache / f"test-words{MEMO_SUFFIX}").symlink_to(elsewhere)
    memo = _memo()
    assert memo.get("books") is None  # (a link: not read)
    memo.put("men", "man")
    memo.save()
    assert not (cache / f"test-words{MEMO_SUFFIX}").is_symlink()
    assert _memo().get("men") == "man"
    assert b"men" not in elsewhere.read_bytes()


def test_at_most_the_bound_is_kept(cache: Path) -> None:
    memo = _memo(max_entries=2)
    assert memo.get("a") is None
    for word in "abc":
        memo.put(word, word.upper())
    memo.save()
    later = _memo(max_entries=2)
    assert [later.get(w) for w in "abc"] == ["A", "B", None]


def test_off_and_bypassed_read_and_write_nothing(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _filled({"books": "book"})
    with bypassed():
        memo = _memo()
        assert memo.get("books") is None
        memo.put("men", "man")
        memo.save()
    assert _memo().get("men") is None
    monkeypatch.setenv("BENCHIE_CACHE_DIR", "off")
    memo = _memo()
    assert memo.get("books") is None
    memo.put("men", "man")
    memo.save()
    monkeypatch.setenv("BENCHIE_CACHE_DIR", str(cache))
    assert _memo().get("men") is None


def test_a_memo_is_written_where_it_was_read(
    cache: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """At exit the environment may have changed (a test's, a library user's): the values go
    to the directory they were read from, never to another."""
    memo = _memo()
    assert memo.get("books") is None
    memo.put("books", "book")
    monkeypatch.setenv("BENCHIE_CACHE_DIR", str(tmp_path / "other"))
    memo.save()
    assert not (tmp_path / "other").exists()
    assert (cache / f"test-words{MEMO_SUFFIX}").is_file()


def test_oie2016_runs_read_the_lemmas_of_earlier_runs_and_verify_reads_none(
    cli: RunCli, cache: Path, tmp_path: Path
) -> None:
    """Two runs, the second reading the first's memo, write the same bytes; a memo forged
    with a well-formed header changes what a run matches (the trust model: the directory
    is trusted as its owner), and the report it gives does not verify, since ``verify``
    lemmatises anew."""
    import subprocess
    import sys

    system = DATA / "oie2016" / "openie4_output.txt.gz"

    def score(report: Path) -> None:
        args = ["score", "--benchmark", "oie2016", "--input-format", "openie4", str(system)]
        done = subprocess.run(
            [sys.executable, "-m", "benchie_cli", *args, "-o", str(report)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr

    score(tmp_path / "first.json")
    memo = cache / f"oie2016-lemmas{MEMO_SUFFIX}"
    assert memo.is_file()
    score(tmp_path / "second.json")
    assert (tmp_path / "second.json").read_bytes() == (tmp_path / "first.json").read_bytes()
    assert cli("verify", str(tmp_path / "second.json")).exit_code == 0

    data = memo.read_bytes()
    header, payload = data.split(b"\n", 1)
    lemmas = marshal.loads(payload)
    assert lemmas["companies"] == "company"  # (a real lemma, read back)
    forged = marshal.dumps(dict.fromkeys(lemmas, "same"))  # every predicate shares a lemma
    fields = header.split(b"\t")
    fields[-1] = hashlib.sha256(forged).hexdigest().encode()
    memo.write_bytes(b"\t".join(fields) + b"\n" + forged)
    score(tmp_path / "forged.json")
    assert (tmp_path / "forged.json").read_bytes() != (tmp_path / "first.json").read_bytes()
    result = cli("verify", str(tmp_path / "forged.json"))
    assert result.exit_code != 0
    assert "does not re-derive" in result.output + result.stderr
