"""A gold with errors never scores silently (issue 15, item 1; docs/gold-store.md, "Gold with
errors").

The parser recovers from a defective gold line (it skips or repairs it). ``score`` and
``analyze`` then name the count and the first errors on stderr, the report records the gold
file's error and warning counts, and ``--strict`` refuses the gold. The errors of the gold
files this package ships were reviewed once: they are listed by sha256 and not reported.

BenchIE^FL (rali-udem/benchie_fl, data CC BY 4.0) is a real gold written outside this
project with such errors; tests/data/benchie_fl/ holds excerpts of it (its README).
"""

from __future__ import annotations

import warnings
from pathlib import Path

import orjson
import pytest

from benchie_cli import api
from benchie_cli.errors import BenchieError, ExitCode
from benchie_cli.gold.parse import load_gold
from benchie_cli.gold.review import REVIEWED
from benchie_cli.gold.store import GoldStore
from tests.conftest import DATA, GOLD_DIR, RunCli, example

FL = DATA / "benchie_fl"
FL_SYSTEMS = ("reverb", "clausie", "minie", "imojie", "openie6", "m2oie", "compactie")

#: A gold with two errors and one warning, worked out by hand:
#: line 2, a triple before sentence 1's first header: skipped (outside-cluster);
#: line 7, a line of four slots: skipped (stray-line);
#: line 10, a doubled space after an arrow: read as one space (whitespace, a warning).
#: What is read: sentence 1 with synsets {line 4} and {line 6}; sentence 2 with {line 10}.
TINY_GOLD = (
    "sent_id:1\tHe served as the first Prime Minister of Australia .\n"
    "He --> served as --> Prime Minister\n"
    "1--> Cluster 1:\n"
    "He --> served as --> [the] first Prime Minister of Australia\n"
    "1--> Cluster 2:\n"
    "He --> served as [the] first Prime Minister of --> Australia\n"
    "Australia --> had --> a --> Prime Minister\n"
    "sent_id:2\tThe city has a trendy restaurant .\n"
    "2--> Cluster 1:\n"
    "[the] city --> has -->  [a] trendy restaurant\n"
)
#: The first line matched only the skipped triple of line 2: a false positive. The others
#: match synset 1 of sentence 1 and synset 1 of sentence 2: TP 2, FP 1, FN 1 (synset 2 of
#: sentence 1), so P = R = 2/3.
TINY_SUBMISSION = (
    "1\tHe\tserved as\tPrime Minister\n"
    "1\tHe\tserved as\tthe first Prime Minister of Australia\n"
    "2\tthe city\thas\ta trendy restaurant\n"
)


@pytest.fixture
def tiny(tmp_path: Path) -> tuple[Path, Path]:
    gold, submission = tmp_path / "tiny.txt", tmp_path / "sys.tsv"
    gold.write_text(TINY_GOLD, "utf-8")
    submission.write_text(TINY_SUBMISSION, "utf-8")
    return gold, submission


def _findings(report: dict[str, object]) -> dict[str, object]:
    gold = report["gold"]
    assert isinstance(gold, dict)
    return gold["files"][0]["findings"]  # type: ignore[no-any-return]


def test_score_names_the_errors_and_the_report_records_them(
    cli: RunCli, tiny: tuple[Path, Path], tmp_path: Path
) -> None:
    gold, submission = tiny
    out = tmp_path / "r.json"
    result = cli("score", "--gold-file", gold, submission, "-o", out)
    assert result.exit_code == 0, result.stderr
    err = result.stderr
    assert f"warning: gold {gold} has 2 error(s) its reader skipped or repaired" in err
    assert f"{gold}:2: error: triple before any cluster header of sentence '1'" in err
    assert "(a missing '1--> Cluster 1:' line?) [outside-cluster]" in err
    assert f"{gold}:7: error: a triple has 3 slots separated by ' --> ', this line 4" in err
    assert err.index(f"{gold}:2:") < err.index(f"{gold}:7:")
    report = orjson.loads(out.read_bytes())
    findings = _findings(report)
    assert findings["errors"] == 2
    assert findings["warnings"] == 1
    assert findings["reviewed_errors"] == 0
    assert [(e["line"], e["code"]) for e in findings["new_errors"]] == [
        (2, "outside-cluster"),
        (7, "stray-line"),
    ]
    (system,) = report["systems"]
    assert (system["tp"], system["fp"], system["fn"]) == (2, 1, 1)
    assert system["precision"] == system["recall"] == pytest.approx(2 / 3)


def test_strict_refuses_a_gold_with_errors_and_writes_nothing(
    cli: RunCli, tiny: tuple[Path, Path], tmp_path: Path
) -> None:
    gold, submission = tiny
    out = tmp_path / "r.json"
    result = cli("score", "--strict", "--gold-file", gold, submission, "-o", out)
    assert result.exit_code == ExitCode.FAILED
    assert f"error: --strict refuses gold {gold}: 2 error(s)" in result.stderr
    assert "the first on line 2 [outside-cluster]" in result.stderr
    assert not out.exists()
    checked = cli("validate", "--strict", "--gold-file", gold, submission)
    assert checked.exit_code == ExitCode.FAILED
    assert "--strict refuses gold" in checked.stderr


def test_a_warm_cache_says_what_a_cold_run_says(
    cli: RunCli, tiny: tuple[Path, Path], tmp_path: Path, index_cache_dir: Path
) -> None:
    """The findings live in the cached index: the second run parses nothing, yet says and
    records the same."""
    gold, submission = tiny
    runs = []
    for n in (1, 2):
        out = tmp_path / f"r{n}.json"
        result = cli("score", "--gold-file", gold, submission, "-o", out)
        assert result.exit_code == 0
        runs.append((result.stderr.replace(str(out), "OUT"), out.read_bytes()))
    assert any(index_cache_dir.iterdir())
    assert runs[0] == runs[1]


def test_reviewed_errors_of_shipped_gold_are_recorded_not_said(cli: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    args = ("score", "--strict", "--gold-version", "1.0.0", example("en", "clausie"))
    result = cli(*args, "-o", out)
    assert result.exit_code == 0, result.stderr
    assert "error(s) its reader" not in result.stderr
    findings = _findings(orjson.loads(out.read_bytes()))
    assert (findings["errors"], findings["reviewed_errors"], findings["new_errors"]) == (3, 3, [])
    assert findings["warnings"] == 41  # bracket spacing 36, whitespace 3, header ids 2


def test_the_reviewed_list_is_exactly_the_shipped_files_errors() -> None:
    """Each listed sha256 is a shipped file whose errors are exactly those listed: a list
    that drifted from the files would hide a new error, or name one that is not there."""
    store = GoldStore(GOLD_DIR)
    found = {}
    for lang in ("en", "de", "zh"):
        resolved = store.resolve("1.0.0", lang, "default")
        parsed = load_gold(str(resolved.path))
        found[resolved.sha256] = frozenset(
            (d.line, d.code) for d in parsed.diagnostics if d.severity == "error"
        )
    assert found == REVIEWED
    assert sum(map(len, REVIEWED.values())) == 10  # en 3, de 5, zh 2


def test_analyze_records_the_findings_of_each_gold_file(
    cli: RunCli, tiny: tuple[Path, Path], tmp_path: Path
) -> None:
    gold, submission = tiny
    out = tmp_path / "a.json"
    result = cli("analyze", "--gold-file", gold, submission, "-o", out)
    assert result.exit_code == 0, result.stderr
    assert "has 2 error(s) its reader skipped or repaired" in result.stderr
    (file,) = orjson.loads(out.read_bytes())["gold"]["files"]
    assert (file["findings"]["errors"], file["findings"]["warnings"]) == (2, 1)


def test_the_api_warns_and_refuses_under_strict(tiny: tuple[Path, Path]) -> None:
    gold_path, submission = tiny
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gold = api.load_gold(gold_file=gold_path)
    said = [str(w.message) for w in caught if issubclass(w.category, api.BenchieWarning)]
    assert said[0].startswith(f"warning: gold {gold_path} has 2 error(s)")
    assert gold.review.new_count == 2
    with pytest.raises(BenchieError) as refused:
        api.score(gold, submission, strict=True)
    assert refused.value.exit_code == ExitCode.FAILED


def test_benchie_fl_gold_errors_are_named_with_their_lines(cli: RunCli) -> None:
    """BenchIE^FL's sentence 96 holds a line of four slots; sentence 113 lost its first
    cluster header, so its first four triples belong to no synset (lines as in the excerpt,
    3189-3192 in the whole file)."""
    result = cli("validate", "--kind", "gold", FL / "gold_excerpt.txt")
    assert result.exit_code == ExitCode.FAILED
    lines = [line for line in result.stdout.splitlines() if ": error: " in line]
    assert [line.split(":")[1] for line in lines] == ["24", "30", "31", "32", "33"]
    assert "this line 4; ignored: 'QVC Network Inc. --> said -->" in lines[0]
    assert all("a missing '113--> Cluster 1:' line?" in line for line in lines[1:])


@pytest.mark.parametrize("system", FL_SYSTEMS)
def test_benchie_fl_systems_score_against_its_gold(
    cli: RunCli, system: str, tmp_path: Path
) -> None:
    out = tmp_path / "r.json"
    gold = FL / "gold_excerpt.txt"
    result = cli("score", "--gold-file", gold, FL / f"{system}.tsv", "-o", out)
    assert result.exit_code == 0, result.stderr
    assert "has 5 error(s) its reader skipped or repaired" in result.stderr
    report = orjson.loads(out.read_bytes())
    assert _findings(report)["errors"] == 5
    (scored,) = report["systems"]
    assert scored["tp"] > 0  # every system finds some of these four sentences' facts
    assert scored["unknown_sentence_ids"] == 0
    strict = cli("score", "--strict", "--gold-file", gold, FL / f"{system}.tsv")
    assert strict.exit_code == ExitCode.FAILED


def test_verify_never_trusts_a_cache_that_hides_the_errors(
    cli: RunCli, tiny: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Someone who can write the cache can forge a consistent entry (the trust model:
    docs/trust.md); ``verify`` parses the gold's bytes instead, so a report
    scored through a forged entry does not verify."""
    import marshal

    from benchie_cli.benchmarks.benchie import index_cache
    from benchie_cli.benchmarks.benchie.matching import CompiledGold
    from benchie_cli.gold.store import resolve_gold_file

    cache = tmp_path / "cache"  # this test's own: the forged entry must not outlive it
    monkeypatch.setenv("BENCHIE_CACHE_DIR", str(cache))
    gold, submission = tiny
    out = tmp_path / "r.json"
    assert cli("score", "--gold-file", gold, submission, "-o", out).exit_code == 0
    resolved = resolve_gold_file(str(gold), "en", "default")
    entry = index_cache.entry_path(cache, resolved)
    content = list(marshal.loads(entry.read_bytes().split(b"\n", 1)[1]))
    content[-1] = (0, 0, ())  # no findings
    content[3] = [2 * n for n in content[3]]  # twice the synsets: a lower recall
    entry.write_bytes(index_cache.encode_entry(resolved, CompiledGold.from_data(tuple(content))))
    forged = tmp_path / "forged.json"
    quiet = cli("score", "--strict", "--gold-file", gold, submission, "-o", forged)
    assert quiet.exit_code == 0 and "error(s) its reader" not in quiet.stderr  # the forgery
    verified = cli("verify", "--gold-file", gold, forged)
    assert verified.exit_code == 1
    assert "systems[0].fn" in verified.stdout + verified.stderr
    assert "gold.files[0].findings" in verified.stdout + verified.stderr


def test_errors_are_kept_past_any_number_of_warnings(cli: RunCli, tmp_path: Path) -> None:
    """10,000 diagnostics are kept; errors beyond them too (up to 1,000), so that 12,000
    whitespace warnings before two stray lines hide neither."""
    gold = tmp_path / "g.txt"
    gold.write_text(
        "sent_id:1\tA b c .\n1--> Cluster 1:\nA --> b --> c\n"
        + " \n" * 12_000
        + "stray one\nstray two\n",
        "utf-8",
    )
    result = cli("score", "--gold-file", gold, tmp_path / "missing.tsv")
    assert f"gold {gold} has 2 error(s)" in result.stderr
    assert f"{gold}:12004: error:" in result.stderr and f"{gold}:12005: error:" in result.stderr
    assert "more:" not in result.stderr  # both shown, nothing left to count


def test_the_table_says_the_gold_had_errors(cli: RunCli, tiny: tuple[Path, Path]) -> None:
    gold, submission = tiny
    for fmt in ("table", "markdown"):
        result = cli("score", "--format", fmt, "--gold-file", gold, submission)
        assert f"gold {gold}: 2 error(s) its reader skipped or repaired" in result.stdout
    shipped = cli("score", "--gold-version", "1.0.0", example("en", "clausie"))
    assert "its reader skipped" not in shipped.stdout  # reviewed errors are not new
