"""Clique robustness (ROBUST, docs/profiling.md "Clique robustness"): a fixture computed by
hand through the library and through ``benchie analyze --cliques``, the clique file's errors,
determinism, invariants on the real English systems, and a property of every clique."""

from __future__ import annotations

import re
import statistics
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchie_cli.analysis.robustness import (
    SentenceScore,
    assign,
    benchie_sentence_scores,
    f1_of,
    population_variance,
    read_cliques,
    robustness,
    score_clique,
    sentence_scores,
    variance_summary,
)
from benchie_cli.benchmarks.benchie.scoring import ScoreOptions, Scorer
from benchie_cli.errors import BenchieError
from benchie_cli.gold.parse import load_gold
from tests.conftest import EXAMPLES, RunCli

GOLD = (
    "sent_id:s1\tAlice met Bob in Paris .\n"
    "s1--> Cluster 1:\n"
    "Alice --> met --> Bob\n"
    "s1--> Cluster 2:\n"
    "Alice --> met Bob in --> Paris\n"
    "\n"
    "sent_id:s2\tBob was met by Alice in Paris .\n"
    "s2--> Cluster 1:\n"
    "Bob --> was met by --> Alice\n"
    "s2--> Cluster 2:\n"
    "Bob --> was met in --> Paris\n"
    "\n"
    "sent_id:s3\tIn Paris , Alice met Bob .\n"
    "s3--> Cluster 1:\n"
    "Alice --> met --> Bob\n"
    "s3--> Cluster 2:\n"
    "Alice --> met Bob in --> Paris\n"
    "\n"
    "sent_id:s4\tCarol sings songs .\n"
    "s4--> Cluster 1:\n"
    "Carol --> sings --> songs\n"
    "\n"
    "sent_id:s5\tSongs are sung by Carol .\n"
    "s5--> Cluster 1:\n"
    "Songs --> are sung by --> Carol\n"
    "\n"
    "sent_id:s6\tDave sleeps in Rome at night .\n"
    "s6--> Cluster 1:\n"
    "Dave --> sleeps in --> Rome\n"
    "s6--> Cluster 2:\n"
    "Dave --> sleeps at --> night\n"
    "\n"
    "sent_id:s7\tEve runs fast .\n"
    "s7--> Cluster 1:\n"
    "Eve --> runs --> fast\n"
)
SUBMISSION = (
    "s1\tAlice\tmet\tBob\n"  # correct
    "s1\tAlice\tmet Bob in\tParis\n"  # correct: s1 TP 2 FP 0 FN 0
    "s2\tBob\twas met by\tAlice\n"  # correct
    "s2\tParis\twas\tBob\n"  # incorrect: s2 TP 1 FP 1 FN 1
    "s3\tAlice\tmet\tBob\n"  # correct
    "s3\tAlice\tmet\tParis\n"  # incorrect
    "s3\tBob\tmet\tAlice\n"  # incorrect: s3 TP 1 FP 2 FN 1
    "s4\tCarol\tsings\tsongs\n"  # correct
    "s4\tsongs\tsings\tCarol\n"  # incorrect: s4 TP 1 FP 1 FN 0
    # s5: no extraction: TP 0 FP 0 FN 1
    "s6\tDave\tsleeps in\tRome\n"  # correct: s6 TP 1 FP 0 FN 1
    "s7\tEve\truns\tfast\n"  # correct: s7 TP 1 FP 0 FN 0 (in no clique)
)
# Clique A = {s1, s2, s3}, B = {s4, s5}, C = {s6} (a single sentence); s7 in no clique.
# The file lists them out of gold order, with a blank line and a repeated line.
CLIQUES = "s3\tA\ns1\tA\n\ns4\tB\ns2\tA\ns5\tB\ns6\tC\ns4\tB\n"

# Per sentence, by hand (P = TP/(TP+FP), R = TP/(TP+FN), 0 where a denominator is 0):
#   s1: P 1,   R 1,   F1 1
#   s2: P 1/2, R 1/2, F1 1/2
#   s3: P 1/3, R 1/2, F1 2·(1/6)/(5/6) = 2/5
#   s4: P 1/2, R 1,   F1 2·(1/2)/(3/2) = 2/3
#   s5: P 0 (no extraction: the zero rule), R 0, F1 0
#   s6: P 1,   R 1/2, F1 2/3
#   s7: P 1,   R 1,   F1 1 (in no clique: only in the corpus score)
F = Fraction
PER_SENTENCE = {
    "s1": (F(1), F(1), F(1)),
    "s2": (F(1, 2), F(1, 2), F(1, 2)),
    "s3": (F(1, 3), F(1, 2), F(2, 5)),
    "s4": (F(1, 2), F(1), F(2, 3)),
    "s5": (F(0), F(0), F(0)),
    "s6": (F(1), F(1, 2), F(2, 3)),
    "s7": (F(1), F(1), F(1)),
}
# Worst per clique (lowest F1): A s3 (1/3, 1/2, 2/5); B s5 (0, 0, 0); C s6 (1, 1/2, 2/3).
WORST = {"A": "s3", "B": "s5", "C": "s6"}
# Mean F1 per clique: A (1 + 1/2 + 2/5)/3 = 19/30; B (2/3 + 0)/2 = 1/3; C 2/3.
MEAN_F1 = {"A": F(19, 30), "B": F(1, 3), "C": F(2, 3)}
# Population variance of F1: A deviations 11/30, -4/30, -7/30: (121 + 16 + 49)/900/3 = 31/450;
# B deviations ±1/3: 1/9; C one sentence: 0.
VARIANCE = {"A": F(31, 450), "B": F(1, 9), "C": F(0)}
# P^robust = (1/3 + 0 + 1)/3 = 4/9; R^robust = (1/2 + 0 + 1/2)/3 = 1/3;
# F1^robust = 2·(4/9)(1/3)/(4/9 + 1/3) = (8/27)/(7/9) = 8/21.
# The mean of the worst F1s (not the paper's F1^robust) = (2/5 + 0 + 2/3)/3 = 16/45.
ROBUST = (F(4, 9), F(1, 3), F(8, 21))
MEAN_WORST_F1 = F(16, 45)
# Corpus: TP 2+1+1+1+0+1+1 = 7, FP 0+1+2+1 = 4, FN 0+1+1+0+1+1+0 = 4: P = R = F1 = 7/11.
CORPUS = F(7, 11)
# Variances 0 (C), 31/450 = 0.0689 (A), 1/9 = 0.1111 (B): bins [0, .025), [.05, .075), [.1, .125).
# Mean (31/450 + 50/450 + 0)/3 = 81/1350 = 0.06; median 31/450; maximum 1/9.
HISTOGRAM = [1, 0, 1, 0, 1, 0, 0, 0, 0, 0]


def _close(x: float, fraction: Fraction) -> bool:
    return x == pytest.approx(float(fraction), abs=1e-12)


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path, Path]:
    gold, sub, cliques = tmp_path / "gold.txt", tmp_path / "sys.tsv", tmp_path / "cliques.tsv"
    gold.write_text(GOLD, encoding="utf-8")
    sub.write_text(SUBMISSION, encoding="utf-8")
    cliques.write_text(CLIQUES, encoding="utf-8")
    return gold, sub, cliques


def _check_by_hand(rob: dict[str, Any]) -> None:
    """The ``robustness`` JSON of the fixture against the numbers above."""
    assert (rob["cliques"], rob["sentences"], rob["singleton_cliques"]) == (3, 6, 1)
    assert _close(rob["precision"], ROBUST[0]) and _close(rob["recall"], ROBUST[1])
    assert _close(rob["f1"], ROBUST[2]) and _close(rob["mean_worst_f1"], MEAN_WORST_F1)
    assert [c["clique"] for c in rob["by_clique"]] == ["A", "B", "C"]  # order of first mention
    for c in rob["by_clique"]:
        name = c["clique"]
        assert c["worst"] == WORST[name]
        assert c["singleton"] == (name == "C")
        p, r, f = PER_SENTENCE[WORST[name]]
        assert _close(c["precision"], p) and _close(c["recall"], r) and _close(c["f1"], f)
        assert _close(c["mean_f1"], MEAN_F1[name]) and _close(c["f1_variance"], VARIANCE[name])
        ids = [s["sent_id"] for s in c["sentences"]]
        assert ids == sorted(ids)  # gold order, whatever the file's order
        for s in c["sentences"]:
            p, r, f = PER_SENTENCE[s["sent_id"]]
            assert _close(s["precision"], p) and _close(s["recall"], r) and _close(s["f1"], f)
    var = rob["f1_variance"]
    assert var["kind"] == "population"
    assert _close(var["mean"], F(81, 1350)) and _close(var["median"], F(31, 450))
    assert _close(var["max"], F(1, 9))
    assert [b["cliques"] for b in var["histogram"]] == HISTOGRAM
    assert [(b["low"], b["high"]) for b in var["histogram"]][:2] == [(0, 0.025), (0.025, 0.05)]


def test_by_hand_through_the_library(files: tuple[Path, Path, Path]) -> None:
    gold_path, sub, cliques_path = files
    scorer = Scorer(load_gold(str(gold_path)), ScoreOptions("en"))
    result = scorer.score(str(sub), "sys")
    assert (result.tp, result.fp, result.fn) == (
        [2, 1, 1, 1, 0, 1, 1],
        [0, 1, 2, 1, 0, 0, 0],
        [0, 1, 1, 0, 1, 1, 0],
    )
    assert all(_close(x, CORPUS) for x in result.scores)
    scores = benchie_sentence_scores(result.sentence_ids, result.tp, result.fp, result.fn)
    cliques = read_cliques(str(cliques_path), result.sentence_ids)
    assert cliques.cliques == ("A", "B", "C") and cliques.singletons == ["C"]
    assert cliques.unassigned_sent_ids == ["s7"]
    rob = robustness(scores, cliques)
    assert rob.unassigned_sent_ids == ("s7",) and rob.sentences == 6
    _check_by_hand(rob.as_json())
    # The same cliques from a mapping, and the same scores from P and R alone.
    mapping = {"s1": "A", "s2": "A", "s3": "A", "s4": "B", "s5": "B", "s6": "C"}
    from_pr = sentence_scores(
        result.sentence_ids, [s.precision for s in scores], [s.recall for s in scores]
    )
    again = robustness(from_pr, assign(mapping, result.sentence_ids))
    assert (again.precision, again.recall, again.f1) == (rob.precision, rob.recall, rob.f1)
    with pytest.raises(ValueError, match="not in the gold"):
        assign({"s9": "A"}, result.sentence_ids)
    with pytest.raises(ValueError, match="order"):
        robustness(list(reversed(scores)), cliques)


def test_by_hand_through_the_cli(cli: RunCli, files: tuple[Path, Path, Path]) -> None:
    gold, sub, cliques = files
    out = gold.parent / "a.json"
    res = cli(
        "analyze", "--lang", "en", "--gold-file", gold, "--resamples", "20",
        "--cliques", cliques, f"sys={sub}", "-o", out,
    )  # fmt: skip
    assert res.exit_code == 0, res.stderr
    report = orjson.loads(out.read_bytes())
    assert report["cliques"] == {
        "file": str(cliques),
        "cliques": 3,
        "sentences": 6,
        "singleton_cliques": ["C"],
        "unassigned": 1,
        "unassigned_sent_ids": ["s7"],
    }
    rob = report["systems"][0]["robustness"]
    assert list(rob) == [
        "metric", "cliques", "sentences", "singleton_cliques", "precision", "recall", "f1",
        "mean_worst_f1", "f1_variance", "corpus", "by_clique",
    ]  # fmt: skip
    assert rob["metric"] == "benchie"
    assert all(_close(rob["corpus"][k], CORPUS) for k in ("precision", "recall", "f1"))
    _check_by_hand(rob)
    text = cli(
        "analyze", "--lang", "en", "--gold-file", gold, "--resamples", "20",
        "--cliques", cliques, f"sys={sub}",
    ).stdout  # fmt: skip
    assert "3 cliques of 6 sentences, 1 of a single sentence; 1 sentences in no clique" in text
    row = next(line for line in text.splitlines() if line.startswith("sys ") and "0.3810" in line)
    # P, R, F1 robust; P, R, F1 corpus; the F1 gap; variance mean, median, max.
    assert row.split()[1:] == [
        "0.4444", "0.3333", "0.3810", "0.6364", "0.6364", "0.6364", "-0.2554",
        "0.0600", "0.0689", "0.1111",
    ]  # fmt: skip


def test_without_cliques_nothing_changes(cli: RunCli, files: tuple[Path, Path, Path]) -> None:
    gold, sub, _ = files
    out = gold.parent / "a.json"
    res = cli("analyze", "--lang", "en", "--gold-file", gold, "--resamples", "20", sub, "-o", out)
    assert res.exit_code == 0, res.stderr
    report = orjson.loads(out.read_bytes())
    assert "cliques" not in report and "robustness" not in report["systems"][0]


@pytest.mark.parametrize(
    ("content", "line", "message"),
    [
        ("s1\tA\ns9\tB\n", 2, "sentence id 's9' is not in the gold"),
        ("s1\tA\ns2\tA\n\ns1\tB\n", 4, "sentence 's1' is already in clique 'A'"),
        ("s1\tA\ns2\n", 2, "expected 'sent_id<TAB>clique'"),
        ("s1\t  \n", 1, "expected 'sent_id<TAB>clique'"),
        ("\n\n", None, "no 'sent_id<TAB>clique' line"),
        (
            "sent_id\tclique\ns1\tA\n",
            1,
            "sentence id 'sent_id' is not in the gold; a header row? remove it",
        ),
    ],
)
def test_clique_file_errors(
    cli: RunCli,
    files: tuple[Path, Path, Path],
    content: str,
    line: int | None,
    message: str,
) -> None:
    gold, sub, cliques = files
    cliques.write_text(content, encoding="utf-8")
    res = cli("analyze", "--lang", "en", "--gold-file", gold, "--cliques", cliques, sub)
    where = f"{cliques}:{line}:" if line is not None else f"{cliques}:"
    assert res.exit_code == 2
    assert f"{where} error: {message}" in res.stderr, res.stderr
    with pytest.raises(BenchieError, match=re.escape(message)):
        read_cliques(str(cliques), ["s1", "s2", "s3"])


def test_missing_clique_file(cli: RunCli, files: tuple[Path, Path, Path]) -> None:
    gold, sub, cliques = files
    res = cli(
        "analyze", "--lang", "en", "--gold-file", gold, "--cliques", cliques.parent / "no", sub
    )
    assert res.exit_code == 2 and f"{cliques.parent / 'no'}: error: no such file" in res.stderr


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)


def test_same_bytes_and_escaped_html(cli: RunCli, files: tuple[Path, Path, Path]) -> None:
    gold, sub, cliques = files
    cliques.write_text('s1\t<b>A</b>\ns2\t<b>A</b>\ns6\ta&b"c\n', encoding="utf-8")
    runs = []
    for n in range(2):
        for suffix in ("html", "json", "txt"):
            out = gold.parent / f"a{n}.{suffix}"
            fmt = {"txt": "text"}.get(suffix, suffix)
            res = cli(
                "analyze", "--lang", "en", "--gold-file", gold, "--resamples", "20",
                "--cliques", cliques, f"<i>x</i>={sub}", "--format", fmt, "-o", out,
            )  # fmt: skip
            assert res.exit_code == 0, res.stderr
        runs.append([(gold.parent / f"a{n}.{s}").read_bytes() for s in ("html", "json", "txt")])
    assert runs[0] == runs[1]
    html = runs[0][0].decode()
    assert 'id="robustness"' in html and 'id="robustness-cliques-0"' in html
    assert "<b>" not in html and "<i>" not in html
    assert "&lt;b&gt;A&lt;/b&gt;" in html and "a&amp;b&quot;c" in html
    assert 'id="singleton-cliques"' in html and 'id="unassigned-cliques"' in html
    parser = _Tags()
    parser.feed(html)
    assert parser.tags <= {
        *("html", "head", "meta", "title", "style", "body", "h1", "h2", "p", "code", "div"),
        *("span", "strong", "details", "summary", "table", "thead", "tbody", "tr", "th", "td"),
        *("figure", "figcaption", "svg", "rect", "text", "line", "circle", "path"),
    }


def test_real_systems_invariants(cli: RunCli, tmp_path: Path) -> None:
    """The eight English systems, gold 1.0.0, cliques of ten consecutive ids (the last one a
    single sentence, sentence 300 in none)."""
    cliques = tmp_path / "cliques.tsv"
    cliques.write_text(
        "".join(f"{i}\tc{(i - 1) // 10 if i < 291 else 'last'}\n" for i in range(1, 292)),
        encoding="utf-8",
    )
    out = tmp_path / "a.json"
    res = cli(
        "analyze", "--gold-version", "1.0.0", "--lang", "en", "--resamples", "20",
        "--cliques", cliques, EXAMPLES / "en", "-o", out,
    )  # fmt: skip
    assert res.exit_code == 0, res.stderr
    report = orjson.loads(out.read_bytes())
    assert report["cliques"]["cliques"] == 30 and report["cliques"]["singleton_cliques"] == [
        "clast"
    ]
    assert report["cliques"]["unassigned_sent_ids"] == [str(i) for i in range(292, 301)]
    assert len(report["systems"]) == 8
    for system in report["systems"]:
        rob = system["robustness"]
        by_clique = rob["by_clique"]
        assert len(by_clique) == 30 and rob["sentences"] == 291
        for c in by_clique:
            f1 = [s["f1"] for s in c["sentences"]]
            assert c["f1"] == min(f1) <= c["mean_f1"] + 1e-12
            worst = next(s for s in c["sentences"] if s["sent_id"] == c["worst"])
            assert (worst["precision"], worst["recall"]) == (c["precision"], c["recall"])
            assert c["f1_variance"] == pytest.approx(statistics.pvariance(f1), abs=1e-12)
            for s in c["sentences"]:  # per-sentence scores from the per-sentence counts
                tp, fp, fn = s["tp"], s["fp"], s["fn"]
                assert s["precision"] == (tp / (tp + fp) if tp + fp else 0.0)
                assert s["recall"] == (tp / (tp + fn) if tp + fn else 0.0)
        p = sum(c["precision"] for c in by_clique) / len(by_clique)
        r = sum(c["recall"] for c in by_clique) / len(by_clique)
        assert (rob["precision"], rob["recall"]) == (p, r)
        assert rob["f1"] == f1_of(p, r)
        assert rob["mean_worst_f1"] <= statistics.fmean(c["mean_f1"] for c in by_clique) + 1e-12
        assert sum(b["cliques"] for b in rob["f1_variance"]["histogram"]) == 30
        # The sentences' counts add up to the corpus counts minus those of the unassigned.
        assert sum(s["tp"] for c in by_clique for s in c["sentences"]) <= system["default"]["tp"]
        assert rob["corpus"]["f1"] == system["default"]["f1"]


scores_strategy = st.lists(
    st.tuples(st.integers(0, 6), st.integers(0, 6), st.integers(0, 6)), min_size=1, max_size=12
)


@settings(max_examples=200, deadline=None)
@given(scores_strategy, st.data())
def test_worst_is_the_minimum_and_aggregates_agree(
    counts: list[tuple[int, int, int]], data: st.DataObject
) -> None:
    ids = [f"s{i}" for i in range(len(counts))]
    labels = data.draw(st.lists(st.sampled_from(["a", "b", "c", None]), min_size=len(ids),
                                max_size=len(ids)))  # fmt: skip
    mapping = {sid: c for sid, c in zip(ids, labels, strict=True) if c is not None}
    tp, fp, fn = (list(x) for x in zip(*counts, strict=True))
    scores = benchie_sentence_scores(ids, tp, fp, fn)
    rob = robustness(scores, assign(mapping, ids))
    for clique in rob.cliques:
        f1 = [m.f1 for m in clique.members]
        assert clique.worst.f1 == min(f1) <= clique.mean_f1 + 1e-12
        assert clique.worst is next(m for m in clique.members if m.f1 == min(f1))  # first tie
        assert 0.0 <= clique.f1_variance <= 0.25 + 1e-12
        assert clique.f1_variance == pytest.approx(statistics.pvariance(f1), abs=1e-12)
        assert all(0.0 <= x <= 1.0 for m in clique.members for x in (m.precision, m.recall, m.f1))
    assert rob.sentences + len(rob.unassigned_sent_ids) == len(ids)
    assert sum(b["cliques"] for b in variance_summary([c.f1_variance for c in rob.cliques])[
        "histogram"]) == len(rob.cliques)  # fmt: skip
    if rob.cliques:  # a mean lies between min and max (up to the rounding of its sum)
        assert min(c.worst.precision for c in rob.cliques) <= rob.precision + 1e-12
        assert rob.precision <= max(c.worst.precision for c in rob.cliques) + 1e-12


def test_helpers() -> None:
    assert f1_of(0.0, 0.0) == 0.0 and f1_of(1.0, 0.5) == pytest.approx(2 / 3)
    assert population_variance([1.0]) == 0.0 and population_variance([0.0, 1.0]) == 0.25
    one = SentenceScore("x", 0.5, 0.5, 0.5)
    assert score_clique("k", [one]).as_json()["singleton"] is True
    with pytest.raises(ValueError):
        score_clique("k", [])
    empty = variance_summary([])
    assert (empty["mean"], empty["median"], empty["max"]) == (0.0, 0.0, 0.0)
    assert [b["cliques"] for b in variance_summary([0.25, 0.0249, 0.025])["histogram"]] == [
        1, 1, 0, 0, 0, 0, 0, 0, 0, 1,
    ]  # fmt: skip
