"""Memos kept in the cache directory: read only when every check passes, written once at the
end of a run that computed something new, never read by ``verify`` (docs/trust.md)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import orjson
import pytest

from benchie_cli import disk_cache
from benchie_cli.disk_cache import MEMO_SUFFIX, DiskMemo, bypassed
from tests.conftest import DATA, RunCli


def _memo(fingerprint: str = "f1", max_entries: int = 8) -> DiskMemo[str]:
    memo = DiskMemo("test-words", lambda: fingerprint, str, max_entries=max_entries)
    disk_cache._MEMOS.remove(memo)  # (a test's memo is no memo of the process)
    return memo


@pytest.fixture
def cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv("BENCHIE_CACHE_DIR", str(directory))
    return directory


def _filled(values: dict[str, str], fingerprint: str = "f1") -> DiskMemo[str]:
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
        orjson.dumps({"books": 1}),  # a value of another type
        orjson.dumps({"books": ["book"]}),  # nested
        orjson.dumps(["books", "book"]),  # no object
        orjson.dumps({str(n): "x" for n in range(9)}),  # more values than the bound
        b"\xff\x00garbage",  # not JSON at all
        b"(" + (2**31 - 1).to_bytes(4, "little"),  # marshal's huge tuple: no allocation
        b"[" * 100_000,  # deeper than any reader's limit
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
    lemmas = orjson.loads(payload)
    assert lemmas["companies"] == "company"  # (a real lemma, read back)
    forged = orjson.dumps(dict.fromkeys(lemmas, "same"))  # every predicate shares a lemma
    fields = header.split(b"\t")
    fields[-1] = hashlib.sha256(forged).hexdigest().encode()
    memo.write_bytes(b"\t".join(fields) + b"\n" + forged)
    score(tmp_path / "forged.json")
    assert (tmp_path / "forged.json").read_bytes() != (tmp_path / "first.json").read_bytes()
    result = cli("verify", str(tmp_path / "forged.json"))
    assert result.exit_code != 0
    assert "does not re-derive" in result.output + result.stderr


def test_values_are_filed_under_the_fingerprint_of_the_code_that_computed_them(
    cache: Path,
) -> None:
    """Code changed on disk during a run (an edit, an upgrade) must not receive the old
    code's values: the fingerprint is taken once, at the first use."""
    prints = iter(["old", "new", "new"])
    memo: DiskMemo[str] = DiskMemo("test-words", lambda: next(prints), str, max_entries=8)
    disk_cache._MEMOS.remove(memo)
    assert memo.get("books") is None
    memo.put("books", "book")
    memo.save()
    assert _memo("old").get("books") == "book"
    assert _memo("new").get("books") is None


def test_code_files_that_vanish_leave_the_run_without_a_memo(cache: Path) -> None:
    def gone() -> str:
        raise FileNotFoundError("wordnet.py")

    memo: DiskMemo[str] = DiskMemo("test-words", gone, str, max_entries=8)
    disk_cache._MEMOS.remove(memo)
    assert memo.get("books") is None
    memo.put("books", "book")
    memo.save()
    assert not cache.exists()


def test_a_relative_cache_directory_stays_where_it_was_when_the_run_moves(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "here").mkdir()
    (tmp_path / "there").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    monkeypatch.setenv("BENCHIE_CACHE_DIR", "relative")
    memo = _memo()
    assert memo.get("books") is None
    memo.put("books", "book")
    monkeypatch.chdir(tmp_path / "there")
    memo.save()
    assert (tmp_path / "here" / "relative" / f"test-words{MEMO_SUFFIX}").is_file()
    assert not (tmp_path / "there" / "relative").exists()


def test_a_file_that_is_no_memo_is_never_replaced(cache: Path) -> None:
    """``-o`` pointed at a memo's name by mistake: the report stays."""
    cache.mkdir()
    report = cache / f"test-words{MEMO_SUFFIX}"
    report.write_bytes(b'{"systems": []}\n')
    memo = _memo()
    assert memo.get("books") is None
    memo.put("books", "book")
    memo.save()
    assert report.read_bytes() == b'{"systems": []}\n'


def test_keys_utf8_cannot_hold_or_too_long_are_not_memoised(cache: Path) -> None:
    long = "x" * (disk_cache.MAX_KEY_CHARS + 1)
    _filled({"caf\udcc3": "a", long: "b", "books": "book"})
    later = _memo()
    assert (later.get("caf\udcc3"), later.get(long), later.get("books")) == (None, None, "book")


def test_only_the_cache_s_own_temporary_files_are_removed(cache: Path) -> None:
    cache.mkdir()
    old = 0.0
    names = [".notes.tmp", ".a.idx.x1.tmp", f".test-words{MEMO_SUFFIX}.x2.tmp"]
    for name in names:
        (cache / name).write_bytes(b"x")
        os.utime(cache / name, (old, old))
    _filled({"books": "book"})
    assert sorted(p.name for p in cache.iterdir() if p.name.startswith(".")) == [".notes.tmp"]


def test_an_in_process_verify_ignores_lemmas_a_forged_memo_gave_an_earlier_score(
    cli: RunCli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The in-memory caches above the memo hold what it gave: ``verify`` empties them."""
    from benchie_cli.benchmarks.oie2016 import matching, wordnet

    def clear() -> None:
        wordnet.lemmatize.cache_clear()
        matching._predicate_lemmas.cache_clear()

    system = DATA / "oie2016" / "openie4_output.txt.gz"
    args = ["score", "--benchmark", "oie2016", "--input-format", "openie4", str(system)]
    monkeypatch.setenv("BENCHIE_CACHE_DIR", "off")
    clear()
    assert cli(*args, "-o", tmp_path / "clean.json").exit_code == 0
    forged = _ForgedLemmas()
    monkeypatch.setattr(wordnet._MEMO, "_values", forged)
    clear()
    try:
        assert cli(*args, "-o", tmp_path / "forged.json").exit_code == 0
        assert forged.asked  # (the run used the memo)
        assert (tmp_path / "forged.json").read_bytes() != (tmp_path / "clean.json").read_bytes()
        result = cli("verify", str(tmp_path / "forged.json"))
        assert result.exit_code != 0, result.output
        assert cli("verify", str(tmp_path / "clean.json")).exit_code == 0
    finally:
        clear()  # (no forged lemma may stay for the tests that follow)


class _ForgedLemmas(dict[str, str]):
    """A memo's values as forged: every word's lemma is the same."""

    asked = False

    def get(self, key: str, default: object = None) -> str:  # type: ignore[override]
        type(self).asked = True
        return "same"


def test_a_stop_signal_during_the_save_at_exit_is_no_traceback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A library user's process saves at exit; Ctrl-C there only loses the values. (The
    CLI saves when a command ends, where a signal stops the run as anywhere else.)"""

    class Interrupted:
        def save(self) -> None:
            raise KeyboardInterrupt

    monkeypatch.setattr(disk_cache, "_MEMOS", [Interrupted()])
    disk_cache._save_at_exit()


def test_a_key_longer_than_any_memoised_is_a_forged_file(cache: Path) -> None:
    _forge(cache, orjson.dumps({"books": "book", "x" * (disk_cache.MAX_KEY_CHARS + 1): "x"}))
    assert _memo().get("books") is None


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root, to give a file away"
)
def test_another_user_s_file_is_never_read(cache: Path) -> None:
    """A memo planted in a shared directory (``BENCHIE_CACHE_DIR=/tmp``) by another user is
    ignored; this user's and root's (a container image's) are read."""
    _filled({"books": "book"})
    path = cache / f"test-words{MEMO_SUFFIX}"
    os.chown(path, 65534, 65534)
    assert _memo().get("books") is None
    os.chown(path, 0, 0)
    assert _memo().get("books") == "book"


def test_values_forgotten_before_the_save_are_not_written(cache: Path) -> None:
    """The CLI forgets what a command stopped by a signal computed: nothing is written on
    the way out (the command's own end saved what it finished)."""
    memo = _memo()
    disk_cache._MEMOS.append(memo)
    try:
        assert memo.get("books") is None
        memo.put("books", "book")
        disk_cache.forget_unsaved()
        disk_cache.save_memos()
    finally:
        disk_cache._MEMOS.remove(memo)
    assert not (cache / f"test-words{MEMO_SUFFIX}").exists()


def test_a_command_that_ends_in_failure_still_saves_its_memos(cache: Path, tmp_path: Path) -> None:
    """Exit 1 (one submission of two cannot be read) is the command's own end: what it
    computed for the other is kept, as at exit 0."""
    import subprocess
    import sys

    system = DATA / "oie2016" / "openie4_output.txt.gz"
    args = ["score", "--benchmark", "oie2016", "--input-format", "openie4"]
    done = subprocess.run(
        [sys.executable, "-m", "benchie_cli", *args, str(system), str(tmp_path / "none.txt")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert (cache / f"oie2016-lemmas{MEMO_SUFFIX}").is_file()


def test_a_value_the_memo_would_never_hold_is_a_forged_file(cache: Path) -> None:
    """LSOIE's hashes are signed 64-bit integers: a file holding one beyond that range (which
    a JSON number can be) is forged, and ignored whole."""
    from benchie_cli.benchmarks.lsoie import py2dict

    cache.mkdir()
    for value, kept in ((-(2**63), True), (2**63 - 1, True), (2**63, False), (-(2**63) - 1, False)):
        memo = DiskMemo("test-hashes", lambda: "f1", int, max_entries=8, valid=py2dict._MEMO._valid)
        disk_cache._MEMOS.remove(memo)
        payload = f'{{"a":{value},"b":1}}'.encode()
        sha = hashlib.sha256(payload).hexdigest()
        header = f"benchie-memo\t{disk_cache.MEMO_FORMAT}\ttest-hashes\tf1\t{sha}\n"
        (cache / f"test-hashes{MEMO_SUFFIX}").write_bytes(header.encode() + payload)
        assert memo.get("b") == (1 if kept else None), value
