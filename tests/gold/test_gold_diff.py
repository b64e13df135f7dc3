"""``benchie gold diff`` and ``benchie gold impact``: differences between gold versions as
synsets, and what they do to systems' scores (``benchie_cli.analysis.gold_diff``)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from benchie_cli.analysis.gold_diff import align_synsets
from tests.conftest import EXAMPLES, GOLD_DIR, RunCli, example

# The synset 1.1.0 restores in Chinese sentence 206: in 1.0.0 its header was the stray line
# `2 0 6 :` (zh file line 2080), so its one triple joined synset 2 (CHANGELOG, gold-1.1.0).
ZH_206_TRIPLE = (
    "斯 卡 佩 塔 --> 说 服 --> "
    "自 己 是 应 她 的 替 代 者 乔 尔 - 马 库 斯 博 士 的 要 求 而 被 解 雇"
)


def test_diff_zh_shows_the_restored_header_of_sentence_206(cli: RunCli) -> None:
    result = cli("gold", "diff", "1.0.0", "1.1.0", "--lang", "zh")
    assert result.exit_code == 0, result.stderr  # differences are a report, not a failure
    lines = result.stdout.splitlines()
    assert lines[0] == ("== zh: gold 1.0.0 -> 1.1.0: sentences +0 -0 ~0 (text); synsets +1 -0 ~1")
    assert lines[2].startswith("@ sent_id:206\t斯 卡 佩 塔 在 《 线 索 》")
    assert lines[3:] == [
        "~ 206--> Cluster 2:",
        f"-   {ZH_206_TRIPLE}",
        "+ 206--> Cluster 3:",
        f"+   {ZH_206_TRIPLE}",
    ]


def test_diff_zh_json(cli: RunCli) -> None:
    result = cli("gold", "diff", "1.0.0", "1.1.0", "--lang", "zh", "--format", "json")
    assert result.exit_code == 0, result.stderr
    doc = orjson.loads(result.stdout)
    assert (doc["a"], doc["b"]) == ("1.0.0", "1.1.0")
    (zh,) = doc["languages"]
    assert zh["language"] == "zh"
    assert zh["summary"] == {
        "sentences_added": 0,
        "sentences_removed": 0,
        "sentences_text_changed": 0,
        "synsets_added": 1,
        "synsets_removed": 0,
        "synsets_changed": 1,
    }
    (sentence,) = zh["sentences"]
    assert sentence["sent_id"] == "206" and sentence["status"] == "changed"
    assert sentence["synsets"] == [
        {"change": "changed", "a": 2, "b": 2, "added": [], "removed": [ZH_206_TRIPLE]},
        {"change": "added", "a": None, "b": 3, "added": [ZH_206_TRIPLE], "removed": []},
    ]


def test_diff_unknown_version_exits_2(cli: RunCli) -> None:
    result = cli("gold", "diff", "1.0.0", "9.9.9")
    assert result.exit_code == 2
    assert "unknown gold version '9.9.9'" in result.stderr


TINY_A = """sent_id:1\ta b c d e f
1--> Cluster 1:
a --> b --> c
1--> Cluster 2:
d --> e --> f
d --> [e] --> f
1--> Cluster 3:
c --> d --> e
sent_id:2\tx y z
2--> Cluster 1:
x --> y --> z
"""

# Synset 2 loses `d --> [e] --> f` and gains `d --> e --> [f]`; synset 3 is replaced by one
# that shares no form with it (one removed, one added); sentence 2 only gains whitespace.
TINY_B = """sent_id:1\ta b c d e f
1--> Cluster 1:
a --> b --> c
1--> Cluster 2:
d --> e --> f
d --> e --> [f]
1--> Cluster 3:
b --> c --> d
sent_id:2\tx y z
2--> Cluster 1:
x  -->  y --> z
"""


def tiny_store(cli: RunCli, tmp_path: Path) -> Path:
    """Two hand-made draft versions (numbered unlike the shipped ones, which are pinned)."""
    root = tmp_path / "gold"
    for version, text in (("3.0.0", TINY_A), ("3.1.0", TINY_B)):
        gold_file = root / version / "en" / "default" / "tiny_en.txt"
        gold_file.parent.mkdir(parents=True)
        gold_file.write_text(text, encoding="utf-8")
        assert cli("gold", "manifest", root / version).exit_code == 0
    return root


def test_diff_of_a_hand_made_store(cli: RunCli, tmp_path: Path) -> None:
    root = tiny_store(cli, tmp_path)
    result = cli("gold", "diff", "3.0.0", "3.1.0", "--gold-dir", root)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "== en: gold 3.0.0 -> 3.1.0: sentences +0 -0 ~0 (text); synsets +1 -1 ~1",
        "",
        "@ sent_id:1\ta b c d e f",
        "~ 1--> Cluster 2:",
        "-   d --> [e] --> f",
        "+   d --> e --> [f]",
        "- 1--> Cluster 3:",
        "-   c --> d --> e",
        "+ 1--> Cluster 3:",
        "+   b --> c --> d",
    ]
    doc = orjson.loads(
        cli("gold", "diff", "3.0.0", "3.1.0", "--gold-dir", root, "--format", "json").stdout
    )
    (en,) = doc["languages"]
    assert en["sentences"] == [
        {
            "sent_id": "1",
            "status": "changed",
            "text_changed": False,
            "text_a": "a b c d e f",
            "text_b": "a b c d e f",
            "synsets": [
                {
                    "change": "changed",
                    "a": 2,
                    "b": 2,
                    "added": ["d --> e --> [f]"],
                    "removed": ["d --> [e] --> f"],
                },
                {"change": "removed", "a": 3, "b": None, "added": [], "removed": ["c --> d --> e"]},
                {"change": "added", "a": None, "b": 3, "added": ["b --> c --> d"], "removed": []},
            ],
        }
    ]
    # A version against itself: no difference.
    same = cli("gold", "diff", "3.1.0", "3.1.0", "--gold-dir", root)
    assert same.stdout.splitlines() == [
        "== en: gold 3.1.0 -> 3.1.0: sentences +0 -0 ~0 (text); synsets +0 -0 ~0"
    ]


def test_alignment_pairs_identical_synsets_across_an_insertion() -> None:
    a, b, c, x = ("a",), ("b",), ("c",), ("x",)
    assert align_synsets([a, (*b, *x), c], [a, b, x, c]) == [(0, 0), (1, 1), (None, 2), (2, 3)]
    assert align_synsets([a], []) == [(0, None)]


def test_impact_reproduces_the_changelog_numbers(cli: RunCli) -> None:
    """CHANGELOG, gold-1.1.0, "Changed numbers": only M²OIE on Chinese moves."""
    assert sorted(p.name for p in (EXAMPLES / "zh").glob("*.tsv")) == ["m2oie_zh.tsv"]
    args = ("gold", "impact", "1.0.0", "1.1.0", "--lang", "zh", EXAMPLES / "zh")
    result = cli(*args, "--format", "json")
    assert result.exit_code == 0, result.stderr
    doc = orjson.loads(result.stdout)
    (system,) = doc["systems"]
    assert system["name"] == "m2oie_zh" and system["moved"]
    assert system["a"]["precision"] == system["b"]["precision"] == 0.17555938037865748
    assert system["a"]["recall"] == 0.10261569416498995
    assert system["b"]["recall"] == 0.10251256281407035
    assert system["a"]["f1"] == 0.12952380952380954
    assert system["b"]["f1"] == 0.12944162436548223
    assert (system["a"]["fn"], system["b"]["fn"]) == (892, 893)
    assert system["delta"]["recall"] == 0.10251256281407035 - 0.10261569416498995
    # The restored synset, which M²OIE does not cover, is the only one that moves.
    assert system["synsets"] == [
        {
            "sent_id": "206",
            "a": None,
            "b": 3,
            "covered_a": None,
            "covered_b": False,
            "matches_a": None,
            "matches_b": 0,
        }
    ]
    text = cli(*args).stdout
    assert "R   1.0.0: 0.10261569416498995  1.1.0: 0.10251256281407035" in text
    assert "F1  1.0.0: 0.12952380952380954  1.1.0: 0.12944162436548223" in text


def test_impact_english_systems_do_not_move(cli: RunCli) -> None:
    result = cli(
        "gold", "impact", "1.0.0", "1.1.0", "--lang", "en", EXAMPLES / "en", "--format", "json"
    )
    assert result.exit_code == 0, result.stderr
    systems = orjson.loads(result.stdout)["systems"]
    assert systems and all(not s["moved"] and not s["synsets"] for s in systems)


def test_match_counts_are_the_same_in_parallel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``gold impact``'s per-synset counts come from the scorer's tally: ranges scored by
    several processes add up to the sequential counts (each line of the example, 30 times)."""
    from benchie_cli.benchmarks.benchie import scoring
    from benchie_cli.benchmarks.benchie.index_cache import load_compiled
    from benchie_cli.gold.store import GoldStore

    monkeypatch.setattr(scoring, "PARALLEL_MIN_BYTES", 4096)
    sub = tmp_path / "s.tsv"
    sub.write_bytes((example("en", "clausie").read_bytes().rstrip(b"\n") + b"\n") * 30)
    gold = GoldStore(GOLD_DIR).resolve("1.1.0", "en", "default")
    scorer = scoring.Scorer(load_compiled(gold), scoring.ScoreOptions("en"), count_matches=True)
    once = scorer.score(str(example("en", "clausie")), "once").matches
    sequential = scorer.score(str(sub), "s", jobs=1).matches
    parallel = scorer.score(str(sub), "s", jobs=3).matches
    assert once is not None and sequential is not None
    assert sequential == parallel == {key: 30 * n for key, n in once.items()}
    assert sum(once.values()) >= 345  # at least one extraction per covered synset (TP 345)


def test_impact_says_why_a_score_is_zero(cli: RunCli) -> None:
    """An English file with --lang de scored 0.0 under both versions with no word; now
    nothing of it can be scored, which is an error naming the language whose gold fits."""
    res = cli("gold", "impact", "1.0.0", "1.1.0", "--lang", "de", example("en", "clausie"))
    assert res.exit_code == 2
    assert "none of its 695 extractions can be scored" in res.stderr
    assert "score it with --lang en [wrong-language]" in res.stderr


def test_a_language_one_version_lacks_is_said_not_listed_as_removed(
    cli: RunCli, tmp_path: Path
) -> None:
    """A version made with English only (docs/gold-versions.md) listed every German sentence
    of the other as removed; the missing language is said, as `score` says it."""
    root = tiny_store(cli, tmp_path)
    german = root / "3.0.0" / "de" / "default" / "tiny_de.txt"
    german.parent.mkdir(parents=True)
    german.write_text(TINY_A, encoding="utf-8")
    assert cli("gold", "manifest", root / "3.0.0").exit_code == 0
    result = cli("gold", "diff", "3.0.0", "3.1.0", "--gold-dir", root)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert (
        "== de: gold 3.1.0 has no language 'de' (available: en): not compared (gold 3.0.0 has it)"
        in lines
    )
    assert not any(line.startswith("- sent_id:") for line in lines)
    doc = orjson.loads(
        cli("gold", "diff", "3.0.0", "3.1.0", "--gold-dir", root, "--format", "json").stdout
    )
    de = next(d for d in doc["languages"] if d["language"] == "de")
    assert de["missing_in"] == "3.1.0" and "sentences" not in de
    only = cli("gold", "diff", "3.0.0", "3.1.0", "--gold-dir", root, "--lang", "de")
    assert only.exit_code == 2 and only.stdout == ""
    assert "gold 3.1.0 has no language 'de' (available: en)" in only.stderr
