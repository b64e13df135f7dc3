"""A report never names a gold it did not use: the gold is read once, and the index cache is
never trusted, never followed, never a way in (issue 8, items 1-3).

Each test injects the fault it is about: a gold file replaced while a run reads it, cache
entries edited, flipped, truncated, of the wrong shape, replaced by FIFOs, devices and links.
"""

from __future__ import annotations

import builtins
import hashlib
import io
import marshal
import os
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchie_cli import disk_cache
from benchie_cli.benchmarks.benchie import index_cache
from benchie_cli.benchmarks.benchie.matching import CompiledGold
from benchie_cli.benchmarks.benchie.scoring import ScoreOptions, Scorer
from benchie_cli.gold.parse import MAX_TRIPLES_PER_SENTENCE, parse_gold_bytes
from benchie_cli.gold.store import GoldStore, ResolvedGold
from tests.conftest import GOLD_DIR, RunCli, example

EN_GOLD = next((GOLD_DIR / "1.1.0" / "en" / "default").glob("*.txt"))


def _resolved(lang: str = "en", facet: str = "default") -> ResolvedGold:
    return GoldStore(GOLD_DIR).resolve("1.1.0", lang, facet)


def _fresh(resolved: ResolvedGold) -> CompiledGold:
    return CompiledGold.build(parse_gold_bytes(resolved.data, "gold"), resolved.facet)


def _same_index(a: CompiledGold | None, b: CompiledGold) -> bool:
    """Equal content (marshal's bytes are not comparable: they depend on reference counts)."""
    return a is not None and a.to_data() == b.to_data()


def _half(gold: bytes) -> bytes:
    """The gold's first 150 sentences: still valid gold, with other numbers."""
    lines = gold.split(b"\n")
    starts = [i for i, line in enumerate(lines) if line.startswith(b"sent_id:")]
    return b"\n".join(lines[: starts[150]]) + b"\n"


def _run(
    args: list[str], env: dict[str, str], timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "benchie_cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )


# --- 1. read the gold once


@pytest.fixture
def swap_after_first_open(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Replace a file (by rename, as a deploy does) right after its first open for reading,
    and count the opens: a run that reads the gold twice sees two different golds."""

    class Swap:
        opens = 0
        path: Path | None = None
        new: bytes = b""

    real_open = builtins.open

    def spying_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        handle = real_open(file, mode, *args, **kwargs)
        if (
            Swap.path is not None
            and isinstance(file, (str, Path))
            and "r" in mode
            and os.path.realpath(file) == str(Swap.path)
        ):
            Swap.opens += 1
            if Swap.opens == 1:
                tmp = Swap.path.with_suffix(".new")
                tmp.write_bytes(Swap.new)
                os.replace(tmp, Swap.path)
        return handle

    monkeypatch.setattr(builtins, "open", spying_open)
    monkeypatch.setattr(io, "open", spying_open)  # pathlib's way in
    return Swap


def test_gold_file_replaced_mid_run_scores_the_bytes_it_names(
    cli: RunCli, tmp_path: Path, swap_after_first_open: Any
) -> None:
    original = EN_GOLD.read_bytes()
    gold = tmp_path / "gold.txt"
    gold.write_bytes(original)
    swap_after_first_open.path = gold.resolve()
    swap_after_first_open.new = _half(original)
    report = tmp_path / "r.json"
    res = cli("score", "--lang", "en", "--gold-file", gold, example("en", "clausie"), "-o", report)
    assert res.exit_code == 0, res.stderr
    assert swap_after_first_open.opens == 1  # read once
    doc = orjson.loads(report.read_bytes())
    assert doc["gold"]["files"][0]["sha256"] == hashlib.sha256(original).hexdigest()
    expected = Scorer(parse_gold_bytes(original, "g"), ScoreOptions("en")).score(
        str(example("en", "clausie")), "clausie"
    )
    assert doc["systems"][0]["f1"] == expected.scores[2]
    # ... and the cache entry under that hash holds the index of those bytes.
    resolved = ResolvedGold(
        "file", "en", "default", None, gold, "g", doc["gold"]["files"][0]["sha256"], original
    )
    cached = index_cache.decode_entry(
        resolved, index_cache.entry_path(index_cache.cache_dir(), resolved).read_bytes()
    )
    assert cached is not None and _same_index(cached, _fresh(resolved))


def test_store_gold_replaced_mid_run_scores_the_bytes_it_names(
    cli: RunCli, tmp_path: Path, swap_after_first_open: Any
) -> None:
    store = tmp_path / "store"
    shutil.copytree(GOLD_DIR / "1.1.0", store / "1.1.0")
    target = store / "1.1.0" / EN_GOLD.relative_to(GOLD_DIR / "1.1.0")
    swap_after_first_open.path = target.resolve()
    swap_after_first_open.new = _half(EN_GOLD.read_bytes())
    report = tmp_path / "r.json"
    res = cli(
        "score",
        "--gold-dir",
        store,
        "--gold-version",
        "1.1.0",
        "--lang",
        "en",
        example("en", "clausie"),
        "-o",
        report,
    )
    assert res.exit_code == 0, res.stderr
    assert swap_after_first_open.opens == 1
    doc = orjson.loads(report.read_bytes())
    direct = orjson.loads(
        cli(
            "score",
            "--lang",
            "en",
            "--gold-version",
            "1.1.0",
            "--format",
            "json",
            example("en", "clausie"),
        ).stdout
    )
    assert doc["gold"]["files"][0]["sha256"] == direct["gold"]["files"][0]["sha256"]
    assert doc["systems"] == direct["systems"]


def test_store_gold_changed_before_the_run_is_refused(cli: RunCli, tmp_path: Path) -> None:
    store = tmp_path / "store"
    shutil.copytree(GOLD_DIR / "1.1.0", store / "1.1.0")
    target = store / "1.1.0" / EN_GOLD.relative_to(GOLD_DIR / "1.1.0")
    target.write_bytes(_half(EN_GOLD.read_bytes()))
    res = cli(
        "score",
        "--gold-dir",
        store,
        "--gold-version",
        "1.1.0",
        "--lang",
        "en",
        example("en", "clausie"),
    )
    assert res.exit_code == 1 and "differs from its manifest" in res.stderr


def test_gold_file_from_a_pipe_is_read_once(tmp_path: Path) -> None:
    """Reading once also makes ``--gold-file <(...)`` work: 0.2.0 refused a pipe."""
    env = dict(os.environ)
    cmd = (
        f"{sys.executable} -m benchie_cli score --lang en --format json "
        f"--gold-file <(cat {EN_GOLD}) {example('en', 'clausie')}"
    )
    piped = subprocess.run(
        ["bash", "-c", cmd], capture_output=True, text=True, env=env, timeout=60, check=False
    )
    assert piped.returncode == 0, piped.stderr
    direct = _run(
        [
            "score",
            "--lang",
            "en",
            "--format",
            "json",
            "--gold-file",
            str(EN_GOLD),
            str(example("en", "clausie")),
        ],
        env,
    )
    assert orjson.loads(piped.stdout)["systems"] == orjson.loads(direct.stdout)["systems"]
    assert (
        orjson.loads(piped.stdout)["gold"]["files"][0]["sha256"]
        == hashlib.sha256(EN_GOLD.read_bytes()).hexdigest()
    )


# --- 2. never trust an entry


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv("BENCHIE_CACHE_DIR", str(directory))
    return directory


def _entry(resolved: ResolvedGold, cache: Path) -> Path:
    index_cache.load_compiled(resolved)
    path = index_cache.entry_path(cache, resolved)
    assert path.is_file()
    return path


def _score_f1(compiled: CompiledGold, lang: str = "en") -> float:
    return (
        Scorer(compiled, ScoreOptions(lang, compiled.facet))
        .score(str(example(lang, "clausie")), "clausie")
        .scores[2]
    )


def _forge(resolved: ResolvedGold, data: Any) -> bytes:
    """An entry whose header and digest are right for ``data``: only its shape can be wrong."""
    payload = marshal.dumps(data)
    return index_cache._header(resolved, hashlib.sha256(payload).hexdigest()) + payload


def test_edited_entry_is_rebuilt_not_believed(cache: Path) -> None:
    """0.2.0 scored F1 0.2038 instead of 0.3389 from an entry whose slot maps were edited."""
    resolved = _resolved()
    path = _entry(resolved, cache)
    header, _, payload = path.read_bytes().partition(b"\n")
    data = marshal.loads(payload)
    for sentence in data[4][::2]:  # forget the subject forms of every other sentence
        sentence[1][0].clear()
    path.write_bytes(header + b"\n" + marshal.dumps(data))
    fresh = _fresh(resolved)
    assert _score_f1(index_cache.load_compiled(resolved)) == _score_f1(fresh)
    assert _same_index(index_cache.decode_entry(resolved, path.read_bytes()), fresh)


def _mutations() -> dict[str, Any]:
    """Entries of the right digest and the wrong shape, each of which 0.2.0 either scored
    wrongly or crashed on (a traceback on every later run)."""
    good = _fresh(_resolved()).to_data()

    def edit(change: Any) -> Any:
        data = marshal.loads(marshal.dumps(good))
        change(data)
        return data

    def set_open_bit(d: Any) -> None:
        d[4][0][2][0] |= 1  # an open slot the matcher would look up in vain: KeyError

    def inflate_cluster(d: Any) -> None:
        d[4][0][0][-1] = d[3][0] + 5  # a synset beyond the sentence's count: TP > gold

    def zero_bits(d: Any) -> None:
        m = d[4][0][1][0]
        m[next(iter(m))] = 0

    def str_value(d: Any) -> None:
        m = d[4][0][1][1]
        m[next(iter(m))] = "1"

    return {
        "not a tuple": ["default"],
        "short tuple": good[:3],
        "other facet": ("concat", *good[1:]),
        "ragged columns": edit(lambda d: d[2].pop()),
        "open bit without slot": edit(set_open_bit),
        "synset out of range": edit(inflate_cluster),
        "empty bit set": edit(zero_bits),
        "string bit set": edit(str_value),
        "sentence index of wrong arity": edit(lambda d: d[4].__setitem__(0, d[4][0][:4])),
        "duplicate sentence id": edit(lambda d: d[1].__setitem__(1, d[1][0])),
        # Found by a review: each passed the first shape check.
        "synset count beyond the limit": edit(lambda d: d[3].__setitem__(0, 2**70)),
        "sentence id not UTF-8": edit(lambda d: d[1].__setitem__(5, "6\udcff")),
        "too many triples": edit(
            lambda d: d[4][0][0].extend([d[4][0][0][-1]] * MAX_TRIPLES_PER_SENTENCE)
        ),
    }


@pytest.mark.parametrize("name", list(_mutations()))
def test_entry_of_wrong_shape_is_rebuilt(cache: Path, name: str) -> None:
    resolved = _resolved()
    path = _entry(resolved, cache)
    path.write_bytes(_forge(resolved, _mutations()[name]))
    assert _same_index(index_cache.load_compiled(resolved), _fresh(resolved))
    assert index_cache.decode_entry(resolved, path.read_bytes()) is not None  # replaced


def test_concat_entry_with_cuts_that_disagree_is_rebuilt(cache: Path) -> None:
    """Empty cuts with the real maps took concat clausie from F1 0.3792 to 0.0039."""
    resolved = _resolved("en", "concat")
    path = _entry(resolved, cache)
    data = marshal.loads(path.read_bytes().partition(b"\n")[2])
    for sentence in data[4]:
        sentence[5][0].clear()
    path.write_bytes(_forge(resolved, data))
    fresh = _fresh(resolved)
    assert _same_index(index_cache.load_compiled(resolved), fresh)
    assert _score_f1(fresh) == pytest.approx(0.3792, abs=5e-5)


def test_entry_of_other_gold_is_not_paired_with_the_parsed_gold(cache: Path) -> None:
    """``analyze`` uses the parsed gold beside the index: a well-formed entry of other gold
    (one more triple, as a forger could write) must not be paired with it (IndexError)."""
    resolved = _resolved()
    path = _entry(resolved, cache)
    data = marshal.loads(path.read_bytes().partition(b"\n")[2])
    first = data[4][0]
    first[0].append(first[0][-1])  # a triple in the last synset, listed under a new form
    first[1][0]["Zed"] = 1 << (len(first[0]) - 1)
    first[1][1]["Zed"] = 1 << (len(first[0]) - 1)
    first[1][2]["Zed"] = 1 << (len(first[0]) - 1)
    path.write_bytes(_forge(resolved, data))
    parsed = parse_gold_bytes(resolved.data, "gold")
    assert index_cache.decode_entry(resolved, path.read_bytes()) is not None  # well-formed
    assert _same_index(index_cache.load_compiled(resolved, parsed), _fresh(resolved))


def test_entry_of_wrong_shape_never_gives_a_traceback(cache: Path, tmp_path: Path) -> None:
    resolved = _resolved()
    path = _entry(resolved, cache)
    env = dict(os.environ)
    args = ["score", "--lang", "en", "--format", "json", str(example("en", "clausie"))]
    expected = _run(args, env).stdout
    for name, data in _mutations().items():
        path.write_bytes(_forge(resolved, data))
        res = _run(args, env)
        assert res.returncode == 0 and "Traceback" not in res.stderr, name
        assert res.stdout == expected, name


@pytest.mark.parametrize(
    "damage",
    [
        "other format",
        "other gold",
        "other facet",
        "other code",
        "truncated",
        "empty",
        "header only",
        "no header",
    ],
)
def test_entry_for_something_else_is_rebuilt(cache: Path, damage: str) -> None:
    resolved = _resolved()
    path = _entry(resolved, cache)
    entry = path.read_bytes()
    header, _, payload = entry.partition(b"\n")
    fields = header.split(b"\t")
    index = {"other format": 1, "other gold": 2, "other facet": 3, "other code": 4}
    if damage in index:
        fields[index[damage]] = b"1" if damage == "other format" else b"x" + fields[index[damage]]
        entry = b"\t".join(fields) + b"\n" + payload
    else:
        entry = {
            "truncated": entry[: len(entry) // 2],
            "empty": b"",
            "header only": header + b"\n",
            "no header": payload,
        }[damage]
    path.write_bytes(entry)
    assert _same_index(index_cache.load_compiled(resolved), _fresh(resolved))


@pytest.fixture(scope="module")
def zh_entry() -> tuple[ResolvedGold, bytes, CompiledGold]:
    """A real entry (the Chinese index: small, so that a rebuild is quick) and its index."""
    resolved = _resolved("zh")
    fresh = _fresh(resolved)
    return resolved, index_cache.encode_entry(resolved, fresh), fresh


FLIPS = st.lists(st.tuples(st.integers(min_value=0), st.integers(1, 255)), min_size=1, max_size=8)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
    print_blob=False,
)
@given(flips=FLIPS)
def test_random_byte_flips_never_change_a_score(
    zh_entry: tuple[ResolvedGold, bytes, CompiledGold],
    flips: list[tuple[int, int]],
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Flip random bytes of a real entry: the index loaded is the true one (rebuilt), and
    the entry on disk is repaired; never a different index, never an exception."""
    resolved, entry, expected = zh_entry
    directory = tmp_path_factory.mktemp("flips")
    monkeypatch.setenv("BENCHIE_CACHE_DIR", str(directory))
    damaged = bytearray(entry)
    for position, xor in flips:
        damaged[position % len(damaged)] ^= xor
    path = index_cache.entry_path(directory, resolved)
    path.write_bytes(bytes(damaged))
    assert _same_index(index_cache.load_compiled(resolved), expected)
    assert _same_index(index_cache.decode_entry(resolved, path.read_bytes()), expected)


def test_flipped_english_entry_scores_like_a_fresh_build(cache: Path) -> None:
    resolved = _resolved()
    path = _entry(resolved, cache)
    entry = bytearray(path.read_bytes())
    for position in range(1000, len(entry), len(entry) // 7):
        entry[position] ^= 0x5A
    path.write_bytes(bytes(entry))
    assert _score_f1(index_cache.load_compiled(resolved)) == _score_f1(_fresh(resolved))


# --- 3. no attack surface


def test_fifo_planted_as_entry_does_not_hang(cache: Path) -> None:
    resolved = _resolved()
    cache.mkdir()
    path = index_cache.entry_path(cache, resolved)
    os.mkfifo(path)
    res = _run(["score", "--lang", "en", str(example("en", "clausie"))], dict(os.environ), 60)
    assert res.returncode == 0, res.stderr
    assert stat.S_ISREG(path.lstat().st_mode)  # replaced by a real entry


def test_entry_linked_to_a_device_is_not_read(cache: Path) -> None:
    resolved = _resolved()
    cache.mkdir()
    path = index_cache.entry_path(cache, resolved)
    path.symlink_to("/dev/zero")
    res = _run(["score", "--lang", "en", str(example("en", "clausie"))], dict(os.environ), 60)
    assert res.returncode == 0, res.stderr
    assert not path.is_symlink() and stat.S_ISREG(path.lstat().st_mode)


def test_entry_linked_elsewhere_is_replaced_not_written_through(
    cache: Path, tmp_path: Path
) -> None:
    resolved = _resolved()
    cache.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious")
    path = index_cache.entry_path(cache, resolved)
    path.symlink_to(victim)
    assert _same_index(index_cache.load_compiled(resolved), _fresh(resolved))
    assert victim.read_bytes() == b"precious"
    assert not path.is_symlink()


def test_entry_linked_to_a_valid_entry_is_not_followed(cache: Path, tmp_path: Path) -> None:
    """A link is never read: not even one to a genuine entry (it could change under us)."""
    resolved = _resolved()
    elsewhere = tmp_path / "elsewhere.idx"
    elsewhere.write_bytes(index_cache.encode_entry(resolved, _fresh(resolved)))
    cache.mkdir()
    path = index_cache.entry_path(cache, resolved)
    path.symlink_to(elsewhere)
    index_cache.load_compiled(resolved)
    assert not path.is_symlink()


def test_cache_directory_is_created_private(cache: Path) -> None:
    index_cache.load_compiled(_resolved("zh"))
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    entry = index_cache.entry_path(cache, _resolved("zh"))
    assert not stat.S_IMODE(entry.stat().st_mode) & 0o022  # nobody else can write it


def test_relative_xdg_cache_home_is_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BENCHIE_CACHE_DIR")
    (tmp_path / "home").mkdir()  # (a home that does not exist gets no cache)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    assert disk_cache.cache_dir() == tmp_path / "home" / ".cache" / "benchie-cli"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert disk_cache.cache_dir() == tmp_path / "xdg" / "benchie-cli"


def test_stale_temporary_files_are_removed(cache: Path) -> None:
    cache.mkdir()
    stale = cache / ".abc.idx.k2j3h4.tmp"
    fresh = cache / ".abc.idx.zzzzzz.tmp"
    other = cache / "notes.tmp"
    for path in (stale, fresh, other):
        path.write_bytes(b"x")
    old = time.time() - 2 * disk_cache.STALE_SECONDS
    os.utime(stale, (old, old))
    os.utime(other, (old, old))
    index_cache.load_compiled(_resolved("zh"))
    assert not stale.exists()
    assert fresh.exists()  # maybe another run's, still being written
    assert other.exists()  # not ours


# --------------------------------------------------------------------------- no silent 0.0


@pytest.mark.parametrize("metric", ["benchie", "carb", "benchie,carb"])
def test_native_output_forced_as_tsv_is_refused_not_scored_zero(
    cli: RunCli, tmp_path: Path, metric: str
) -> None:
    """OpenIE 4's output read with `--input-format benchie`: its confidences become sentence
    ids, none of them the gold's. It scored 0.0 with exit 0 under every metric."""
    native = tmp_path / "o4.txt"
    native.write_text(
        "0.93\t\tSimpleArgument(He,List([0, 2)))\tRelation(served,List([3, 9)))\t"
        "SimpleArgument(as Prime Minister,List([10, 28)))\tHe served as Prime Minister .\n"
        "0.5\t\tSimpleArgument(He,List([0, 2)))\tRelation(became,List([3, 9)))\t"
        "SimpleArgument(a justice,List([10, 20)))\tHe became a justice .\n",
        encoding="utf-8",
    )
    res = cli("score", "--lang", "en", "--metric", metric, "--input-format", "benchie", native)
    assert res.exit_code == 2 and res.stdout == ""
    assert "none of its 2 extractions" in res.stderr


def test_file_of_unknown_ids_only_is_refused(cli: RunCli, tmp_path: Path) -> None:
    """No line of the gold's sentences: an error naming the first ids and the likely cause."""
    sub = tmp_path / "s.tsv"
    sub.write_text("s1\tHe\tserved\tas\ns2\tHe\tbecame\ta justice\n", encoding="utf-8")
    res = cli("score", "--lang", "en", sub)
    assert res.exit_code == 2
    assert f"{sub}: error: none of its 2 extractions can be scored: no sentence id is the " in (
        res.stderr
    )
    assert "(first: 's1', 's2'); is --lang en right?" in res.stderr


def test_a_few_implicit_extractions_alone_still_score_zero(cli: RunCli, tmp_path: Path) -> None:
    """With no likely mistake found, nothing but implicit extractions is a true 0.0: scored,
    with stderr saying they were removed."""
    sub = tmp_path / "s.tsv"
    sub.write_text("1\tHe\tserved as\tZorglub\n", encoding="utf-8")
    res = cli("score", "--lang", "en", "--format", "json", sub)
    assert res.exit_code == 0, res.stderr
    (system,) = orjson.loads(res.stdout)["systems"]
    assert (system["tp"], system["fp"], system["f1"]) == (0, 0, 0.0)
    assert "1 implicit extraction(s) removed before scoring" in res.stderr


def test_carb_metric_says_an_undeclared_confidence_column(cli: RunCli, tmp_path: Path) -> None:
    """A fifth column of numbers without the directive is read as an argument by CaRB's
    metric too (a lower score): every extraction then has a word its sentence lacks, and
    `--metric carb` refuses the file naming the cause, as BenchIE's metric does."""
    sub = tmp_path / "c.tsv"
    lines = example("en", "clausie").read_text(encoding="utf-8").splitlines()
    sub.write_text("".join(f"{line}\t0.5\n" for line in lines if line), encoding="utf-8")
    res = cli("score", "--lang", "en", "--metric", "carb", sub)
    assert res.exit_code == 2 and res.stdout == ""
    assert "none of its 695 extractions can be scored" in res.stderr
    assert res.stderr.count("[undeclared-confidence]") == 1
    strict = cli("score", "--lang", "en", "--metric", "carb", "--strict", sub)
    assert strict.exit_code == 1 and "(an error under --strict) [undeclared-confidence]" in (
        strict.stderr
    )


@pytest.mark.parametrize("metric", ["carb", "benchie,carb"])
def test_another_languages_file_is_refused_under_carb(cli: RunCli, metric: str) -> None:
    """A German file scored as English with CaRB's metric scored 0.0, exit 0, even under
    --strict: CaRB scores words its sentence lacks, and nothing said the file was German."""
    res = cli("score", "--lang", "en", "--metric", metric, example("de", "m2oie_de"))
    assert res.exit_code == 2 and res.stdout == ""
    assert "none of its 313 extractions can be scored" in res.stderr
    assert "score it with --lang de [wrong-language]" in res.stderr


def test_shifted_ids_are_refused_under_carb(cli: RunCli, tmp_path: Path) -> None:
    lines = example("en", "clausie").read_text(encoding="utf-8").splitlines()
    sub = tmp_path / "zero.tsv"  # every id one less: 0-based
    sub.write_text(
        "".join(f"{int(x.split(chr(9))[0]) - 1}\t{x.split(chr(9), 1)[1]}\n" for x in lines if x),
        encoding="utf-8",
    )
    res = cli("score", "--lang", "en", "--metric", "carb", sub)
    assert res.exit_code == 2 and "[shifted-ids]" in res.stderr


def test_analyze_refuses_what_score_refuses(cli: RunCli) -> None:
    """analyze wrote a 0.0 profile of an English file scored as German."""
    res = cli("analyze", "--lang", "de", example("en", "clausie"))
    assert res.exit_code == 2 and res.stdout == ""
    assert "score it with --lang en [wrong-language]" in res.stderr
    both = cli("analyze", "--lang", "de", example("en", "clausie"), example("de", "m2oie_de"))
    assert both.exit_code == 1 and "m2oie_de" in both.stdout  # the other system is profiled


def test_benchie_ids_under_the_carb_benchmark_are_refused(cli: RunCli) -> None:
    """BenchIE's examples scored against CaRB's own gold: their ids name BenchIE sentences,
    read as line numbers of CaRB's sentences.txt; F1 0.0108 with exit 0 before."""
    res = cli("score", "--benchmark", "carb", example("en", "clausie"))
    assert res.exit_code == 2 and res.stdout == ""
    assert "695 of 695 extractions have words their sentence lacks" in res.stderr
    assert "line number (from 1) of CaRB's sentences.txt" in res.stderr


def test_ids_written_as_gold_headers_get_their_own_hint(cli: RunCli, tmp_path: Path) -> None:
    sub = tmp_path / "s.tsv"
    sub.write_text("sent_id:1\tHe\tserved as\tPrime Minister\n", encoding="utf-8")
    res = cli("score", "--lang", "en", sub)
    assert res.exit_code == 2
    assert "written as the gold's sentence headers ('sent_id:1'); write the bare id ('1')" in (
        res.stderr
    )
