"""benchie analyze: error buckets and slot errors by their definitions (SPEC §7), bucketised
scores, confidence intervals and significance, determinism, and the HTML view."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from benchie_cli import __version__, significance
from benchie_cli.gold import load_gold
from benchie_cli.gold_store import GoldStore
from benchie_cli.index_cache import load_compiled
from benchie_cli.scoring import ScoreOptions, Scorer, SystemResult
from benchie_cli.slot_errors import BUCKETS, analyse
from benchie_cli.submission import split_line

from .conftest import ENGLISH_SYSTEMS, GOLD_DIR, RunCli, example

GOLD = (
    "sent_id:1\tAlice gave Bob a red book in Paris .\n"
    "1--> Cluster 1:\n"
    "Alice --> gave --> Bob [a] [red] book\n"
    "1--> Cluster 2:\n"
    "Alice --> gave [Bob] [a] [red] book in --> Paris\n"
    "\n"
    "sent_id:2\tNothing happened .\n"
)
# T0 = (Alice | gave | Bob [a] [red] book), T1 = (Alice | gave [Bob] [a] [red] book in | Paris).
SUBMISSION = (
    "1\tAlice\tgave\tParis\n"  # E1: T0 (1,1,0), T1 (1,0,1): a tie, both buckets
    "1\tBob\tgave\tbook\n"  # E2: T0 (0,1,0) beats T1 (0,0,0)
    "1\tParis\tin\tred\n"  # E3: (0,0,0) with both
    "1\tAlice\tgave red book\tParis\n"  # E4: T1 (1,0,1) beats T0 (1,0,0)
    "2\tNothing\thappened\t.\n"  # E5: a sentence without facts: (0,0,0)
    "1\tAlice\tgave\tBob a book\n"  # correct (T0): not an error
)


@pytest.fixture
def fixture_files(tmp_path: Path) -> tuple[Path, Path]:
    gold, sub = tmp_path / "gold.txt", tmp_path / "sys.tsv"
    gold.write_text(GOLD, encoding="utf-8")
    sub.write_text(SUBMISSION, encoding="utf-8")
    return gold, sub


def test_buckets_and_slot_shares_by_hand(fixture_files: tuple[Path, Path]) -> None:
    gold_path, sub = fixture_files
    gold = load_gold(str(gold_path))
    scorer = Scorer(gold, ScoreOptions("en"), keep_incorrect=True)
    result = scorer.score(str(sub), "sys")
    errors = analyse(gold, scorer.compiled, result.incorrect)
    assert errors.incorrect == 5
    # E1 counts in (1,1,0) and (1,0,1); E4 in (1,0,1); E2 in (0,1,0); E3, E5 in (0,0,0).
    assert errors.buckets == {
        (0, 0, 0): 2,
        (0, 0, 1): 0,
        (0, 1, 0): 1,
        (0, 1, 1): 0,
        (1, 0, 0): 0,
        (1, 0, 1): 2,
        (1, 1, 0): 1,
    }
    # Wrong per slot, E1..E5 (a tie counts 1/2 per pattern that marks the slot wrong):
    # subject 0 + 1 + 1 + 0 + 1 = 3; relation 1/2 + 0 + 1 + 1 + 1 = 3.5; object 1/2 + 1 + 1 + 0 + 1.
    assert errors.shares() == [3 / 5, 3.5 / 5, 3.5 / 5]
    e1 = next(e for e in errors.examples[(1, 0, 1)] if e.line == 1)
    assert e1.closest == ("Alice", "gave [Bob] [a] [red] book in", "Paris")
    assert errors.examples[(1, 1, 0)][0].closest == ("Alice", "gave", "Bob [a] [red] book")


def _brute_force(
    gold_path: Path, result: SystemResult
) -> tuple[dict[tuple[int, ...], int], list[float]]:
    """SPEC §7 read literally, with every slot form listed (fine for the English gold)."""
    gold = load_gold(str(gold_path))
    sentences = list(gold.sentences.values())
    buckets = dict.fromkeys(BUCKETS, 0)
    wrong = [0.0, 0.0, 0.0]
    for _, i, raw in result.incorrect:
        fields = split_line(raw)
        slots = [" ".join(f) for f in fields[1:4]]
        triples = [t for c in sentences[i].clusters for t in c.triples]
        patterns = [
            tuple(int(slots[k] in t.slots[k].forms(1 << 20)) for k in range(3)) for t in triples
        ]
        best = max((sum(p) for p in patterns), default=0)
        closest = {p for p in patterns if sum(p) == best} or {(0, 0, 0)}
        for p in closest:
            buckets[p] += 1
        for k in range(3):
            wrong[k] += sum(1 for p in closest if not p[k]) / len(closest)
    n = len(result.incorrect)
    return buckets, [w / n for w in wrong]


@pytest.mark.parametrize("system", ENGLISH_SYSTEMS)
def test_real_systems_agree_with_brute_force(system: str) -> None:
    resolved = GoldStore(GOLD_DIR).resolve("1.0.0", "en", "default")
    compiled = load_compiled(resolved)
    scorer = Scorer(compiled, ScoreOptions("en"), keep_incorrect=True)
    result = scorer.score(str(example("en", system)), system)
    errors = analyse(load_gold(str(resolved.path)), compiled, result.incorrect)
    assert errors.incorrect == result.totals[1]  # every FP is analysed
    buckets, shares = _brute_force(resolved.path, result)
    assert errors.buckets == buckets
    assert errors.shares() == pytest.approx(shares, abs=1e-12)


def _english_results() -> list[SystemResult]:
    scorer = Scorer(
        load_compiled(GoldStore(GOLD_DIR).resolve("1.0.0", "en", "default")), ScoreOptions("en")
    )
    return [scorer.score(str(example("en", s)), s) for s in ENGLISH_SYSTEMS]


def _subset(result: SystemResult, k: int) -> SystemResult:
    return SystemResult(
        result.name,
        result.facts,
        result.sentence_ids[:k],
        result.kept[:k],
        result.tp[:k],
        result.fp[:k],
        result.fn[:k],
    )


def test_intervals_contain_the_estimate_and_narrow_with_more_sentences() -> None:
    results = _english_results()
    widths = []
    for k in (75, 150, 300):
        subset = [_subset(r, k) for r in results]
        cis = significance.confidence_intervals(subset, significance.weights(k, 1000, 7))
        for r, ci in zip(subset, cis, strict=True):
            for key, value in zip(("precision", "recall", "f1"), r.scores, strict=True):
                assert ci[key].low <= value <= ci[key].high, (r.name, key)
        widths.append([ci["f1"].high - ci["f1"].low for ci in cis])
    for system in range(len(results)):
        assert widths[0][system] > widths[1][system] > widths[2][system]


def test_significance_tells_clear_from_unclear_differences() -> None:
    results = _english_results()
    w = significance.weights(300, 1000, 12345)
    for comparisons in (
        significance.compare_bootstrap(results, w),
        significance.compare_randomisation(results, 1000, 12345),
    ):
        by = {(c.a, c.b): c for c in comparisons}
        assert by["clausie", "naive_oie"].p_value <= 0.002  # F1 0.34 vs 0.03
        assert by["clausie", "minie"].p_value > 0.5  # F1 0.3389 vs 0.3372
        assert by["clausie", "minie"].delta_f1 == pytest.approx(
            0.33889980353634575 - 0.33723021582733814
        )


def test_a_system_against_its_copy_is_not_significant() -> None:
    clausie = _english_results()[0]
    twin = SystemResult(
        "twin",
        clausie.facts,
        clausie.sentence_ids,
        clausie.kept,
        clausie.tp,
        clausie.fp,
        clausie.fn,
    )
    [c] = significance.compare_bootstrap([clausie, twin], significance.weights(300, 500, 1))
    assert c.delta_f1 == 0 and c.p_value == 1.0
    [c] = significance.compare_randomisation([clausie, twin], 500, 1)
    assert c.p_value == 1.0


def test_same_seed_same_bytes_other_seed_other_intervals(cli: RunCli, tmp_path: Path) -> None:
    subs = [example("en", s) for s in ("clausie", "minie", "roi_t")]
    outs = []
    for n, seed in enumerate(("3", "3", "4")):
        out = tmp_path / f"a{n}.json"
        res = cli("analyze", "--lang", "en", "--resamples", "300", "--seed", seed, *subs, "-o", out)
        assert res.exit_code == 0, res.stderr
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    a, c = orjson.loads(outs[0]), orjson.loads(outs[2])
    assert a["systems"][0]["default"]["ci95"] != c["systems"][0]["default"]["ci95"]
    assert (
        a["signature"].endswith(f"|seed:3|v:{__version__}") and "|resamples:300|" in a["signature"]
    )


def test_report_structure_and_facets(cli: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "a.json"
    res = cli(
        "analyze", "--gold-version", "1.0.0", "--lang", "en", example("en", "clausie"), "-o", out
    )
    assert res.exit_code == 0, res.stderr
    report = orjson.loads(out.read_bytes())
    assert list(report) == [
        "schema",
        "benchie_version",
        "signature",
        "gold",
        "options",
        "bucketings",
        "systems",
        "comparisons",
    ]
    [s] = report["systems"]
    assert s["default"]["precision"] == 0.5029154518950437
    assert set(s["facets"]) == {"default", "concat", "minimal"}
    assert (
        s["facet_gaps"]["concat_minus_default"]
        == s["facets"]["concat"]["f1"] - s["facets"]["default"]["f1"]
    )
    assert report["bucketings"][0]["sizes"] == {"<=20": 123, "21-30": 112, ">30": 65}
    length = s["buckets"]["sentence length (tokens)"]
    assert sum(length[b]["tp"] for b in ("<=20", "21-30", ">30")) == length["all"]["tp"] == 345
    assert len(report["gold"]["files"]) == 1  # concat and minimal derive from the same file


def test_user_buckets(cli: RunCli, tmp_path: Path) -> None:
    buckets = tmp_path / "b.tsv"
    buckets.write_text(
        "".join(f"{i}\t{'odd' if i % 2 else 'even'}\n" for i in range(1, 101)), encoding="utf-8"
    )
    out = tmp_path / "a.json"
    res = cli("analyze", "--lang", "en", "--buckets", buckets, example("en", "clausie"), "-o", out)
    assert res.exit_code == 0, res.stderr
    report = orjson.loads(out.read_bytes())
    user = report["bucketings"][1]
    assert user["buckets"] == ["odd", "even"] and user["unassigned"] == 200
    scores = report["systems"][0]["buckets"][user["name"]]
    assert scores["odd"]["sentences"] == scores["even"]["sentences"] == 50
    bad = tmp_path / "bad.tsv"
    bad.write_text("1\tx\nno-such-sentence\ty\n", encoding="utf-8")
    res = cli("analyze", "--lang", "en", "--buckets", bad, example("en", "clausie"))
    assert res.exit_code == 2 and f"{bad}:2:" in res.stderr


def test_stdin_is_refused(cli: RunCli) -> None:
    res = cli("analyze", "--lang", "en", "-", input="1\tHe\tserved\tas\n")
    assert res.exit_code == 2 and "not '-'" in res.stderr


def test_html_is_self_contained(cli: RunCli, tmp_path: Path) -> None:
    out = tmp_path / "a.html"
    res = cli(
        "analyze",
        "--lang",
        "en",
        "--resamples",
        "200",
        *[example("en", s) for s in ("clausie", "stanford")],
        "-o",
        out,
    )
    assert res.exit_code == 0, res.stderr
    html = out.read_text(encoding="utf-8")
    for chart in ("chart-ci", "chart-facets", "chart-slots", "chart-buckets"):
        assert f'id="{chart}"' in html
    assert 'id="leaderboard"' in html and 'id="buckets-0"' in html
    for external in ("<script", "<link", "src=", "url(", "http://", "https://"):
        assert external not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")
