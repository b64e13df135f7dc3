"""Facets (SPEC §3-4) on tiny hand-made gold, with every count worked out by hand.

Each expectation is derived in the comments from the definitions, not from running the code:
TP = synsets covered by a correct extraction, FP = every incorrect extraction (duplicates
too), FN = synsets not covered; P = TP / (TP + FP), R = TP / (TP + FN).
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest

from benchie_cli import DEFAULT_GOLD_VERSION
from benchie_cli.benchmarks.benchie.scoring import ScoreOptions, Scorer, SystemResult
from benchie_cli.gold.parse import load_gold
from tests.conftest import RunCli, example

# Two sentences, four fact synsets. Every token of every line below occurs in its sentence,
# so the implicit filter (SPEC §5) removes nothing.
GOLD = (
    "sent_id:1\tHe served as the Prime Minister of Australia and was a lawyer .\n"
    "1--> Cluster 1:\n"
    "He --> served as --> [the] Prime Minister [of Australia]\n"
    "He --> served --> as [the] Prime Minister [of Australia]\n"
    "1--> Cluster 2:\n"
    "He --> was --> [a] lawyer\n"
    "\n"
    "sent_id:2\tGraner handcuffed him in the prison .\n"
    "2--> Cluster 1:\n"
    "Graner --> handcuffed --> him\n"
    "2--> Cluster 2:\n"
    "Graner --> handcuffed him --> in [the] prison\n"
)
SYNSETS = 4

# L1: default ✓ S1C1 (object "the Prime Minister" is a form of triple 1).
#     concat ✓ S1C1.  minimal ✗: the minimal forms are "He|served as|Prime Minister" and
#     "He|served|as Prime Minister", "the" is optional.
# L2: slot boundaries moved. default ✗ ("He served" is no gold subject).
#     concat ✓ S1C1: "He served as the Prime Minister" = "He" + "served as" +
#     "the Prime Minister", a form of triple 1.  minimal ✗ ("the").
# L3: ✓ S2C1 under every facet (no optional unit involved).
# L4: object "in prison": default ✓ S2C2, concat ✓ S2C2, minimal ✓ S2C2 (the mandatory form).
# L5: "the prison" is no object of sentence 2; as one string "Graner handcuffed the prison"
#     is no concatenated form either: ✗ under every facet.
SUBMISSION = (
    "1\tHe\tserved as\tthe Prime Minister\n"
    "1\tHe served\tas the\tPrime Minister\n"
    "2\tGraner\thandcuffed\thim\n"
    "2\tGraner\thandcuffed him\tin prison\n"
    "2\tGraner\thandcuffed\tthe prison\n"
)

# facet: (TP, FP, FN, P, R, F1)
#  default: correct L1 L3 L4 -> S1C1 S2C1 S2C2 = 3 TP; L2 L5 = 2 FP; S1C2 uncovered = 1 FN.
#           P = 3/5 = 0.6, R = 3/4 = 0.75, F1 = 2*0.6*0.75/1.35 = 2/3.
#  concat:  correct L1 L2 (same synset) L3 L4 -> 3 TP; L5 = 1 FP; 1 FN.
#           P = 3/4, R = 3/4, F1 = 3/4.
#  minimal: correct L3 L4 -> 2 TP; L1 L2 L5 = 3 FP; S1C1 S1C2 = 2 FN.
#           P = 2/5 = 0.4, R = 2/4 = 0.5, F1 = 2*0.4*0.5/0.9 = 4/9.
EXPECTED = {
    "default": (3, 2, 1, 3 / 5, 3 / 4, 2 / 3),
    "concat": (3, 1, 1, 3 / 4, 3 / 4, 3 / 4),
    "minimal": (2, 3, 2, 2 / 5, 2 / 4, 4 / 9),
}


@pytest.fixture
def gold_file(tmp_path: Path) -> Path:
    path = tmp_path / "gold.txt"
    path.write_text(GOLD, encoding="utf-8")
    return path


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def score_lib(gold_file: Path, sub: Path, facet: str = "default") -> SystemResult:
    return Scorer(load_gold(str(gold_file)), ScoreOptions("en", facet)).score(str(sub), "sys")


def score_cli(cli: RunCli, gold_file: Path, sub: Path, facet: str, tmp_path: Path) -> dict:
    """Run `benchie score --format json -o out.json` and return the one system's entry."""
    out = tmp_path / f"{facet}.json"
    res = cli(
        "score", "--gold-file", gold_file, "--facet", facet, "--format", "json", "-o", out, sub
    )
    assert res.exit_code == 0, res.stderr
    report = orjson.loads(out.read_bytes())
    assert report["gold"]["facet"] == facet
    assert report["options"]["facet"] == facet
    assert f"|facet:{facet}|" in report["signature"]
    (system,) = report["systems"]
    return system


@pytest.mark.parametrize("facet", sorted(EXPECTED))
def test_facet_counts_library(facet: str, gold_file: Path, tmp_path: Path) -> None:
    """The Scorer gives the hand-computed counts and scores for each facet."""
    sub = write(tmp_path, "sub.tsv", SUBMISSION)
    tp, fp, fn, p, r, f1 = EXPECTED[facet]
    result = score_lib(gold_file, sub, facet)
    assert result.totals == (tp, fp, fn)
    assert result.scores == pytest.approx((p, r, f1))
    assert result.implicit == []
    assert result.unknown_count == 0


@pytest.mark.parametrize("facet", sorted(EXPECTED))
def test_facet_counts_cli(facet: str, cli: RunCli, gold_file: Path, tmp_path: Path) -> None:
    """The CLI's JSON report carries the same hand-computed numbers."""
    sub = write(tmp_path, "sub.tsv", SUBMISSION)
    tp, fp, fn, p, r, f1 = EXPECTED[facet]
    system = score_cli(cli, gold_file, sub, facet, tmp_path)
    assert (system["tp"], system["fp"], system["fn"]) == (tp, fp, fn)
    assert (system["precision"], system["recall"], system["f1"]) == pytest.approx((p, r, f1))
    assert system["extractions"] == 5


def test_facet_per_sentence_counts(cli: RunCli, gold_file: Path, tmp_path: Path) -> None:
    """Per sentence under default: s1 has L1 ✓ L2 ✗ (1 TP, 1 FP, 1 FN: the lawyer fact);
    s2 has L3 ✓ L4 ✓ L5 ✗ (2 TP, 1 FP, 0 FN)."""
    sub = write(tmp_path, "sub.tsv", SUBMISSION)
    out = tmp_path / "out.json"
    res = cli("score", "--gold-file", gold_file, "--per-sentence", "-o", out, sub)
    assert res.exit_code == 0, res.stderr
    rows = orjson.loads(out.read_bytes())["systems"][0]["per_sentence"]
    assert [(r["sent_id"], r["extractions"], r["tp"], r["fp"], r["fn"]) for r in rows] == [
        ("1", 2, 1, 1, 1),
        ("2", 3, 2, 1, 0),
    ]


def test_moved_boundary_only_under_concat(gold_file: Path, tmp_path: Path) -> None:
    """SPEC §4's example: "He served | as the | Prime Minister" is one fact under concat
    (1 TP, 0 FP) and an error under default (0 TP, 1 FP)."""
    sub = write(tmp_path, "sub.tsv", "1\tHe served\tas the\tPrime Minister\n")
    assert score_lib(gold_file, sub, "default").totals == (0, 1, SYNSETS)
    assert score_lib(gold_file, sub, "concat").totals == (1, 0, SYNSETS - 1)


def test_concat_needs_every_token(gold_file: Path, tmp_path: Path) -> None:
    """Concat ignores boundaries, not tokens: a dropped mandatory token, a half optional unit
    ("of" without "Australia") or swapped slots are still wrong."""
    sub = write(
        tmp_path,
        "sub.tsv",
        (
            "1\tHe served\tas the\tMinister\n"  # "Prime" missing
            "1\tHe\tserved as\tPrime Minister of\n"  # half of [of Australia]
            "1\tserved as\tHe\tPrime Minister\n"  # order of the tokens changed
        ),
    )
    assert score_lib(gold_file, sub, "concat").totals == (0, 3, SYNSETS)


def test_minimal_only_the_mandatory_form(gold_file: Path, tmp_path: Path) -> None:
    """ "the Prime Minister" is a form under default but not under minimal, where each gold
    triple has one form: "He | served as | Prime Minister" (1 TP there)."""
    with_the = write(tmp_path, "the.tsv", "1\tHe\tserved as\tthe Prime Minister\n")
    bare = write(tmp_path, "bare.tsv", "1\tHe\tserved as\tPrime Minister\n")
    assert score_lib(gold_file, with_the, "default").totals == (1, 0, SYNSETS - 1)
    assert score_lib(gold_file, with_the, "minimal").totals == (0, 1, SYNSETS)
    assert score_lib(gold_file, bare, "minimal").totals == (1, 0, SYNSETS - 1)
    # The full form (every unit kept) is not minimal either.
    full = write(tmp_path, "full.tsv", "1\tHe\tserved as\tthe Prime Minister of Australia\n")
    assert score_lib(gold_file, full, "minimal").totals == (0, 1, SYNSETS)


# A slot with 7 optional units has 128 forms, more than the index lists (64): it is matched by
# the dynamic programme instead, in every facet. Same definitions, other code path.
GOLD_DP = (
    "sent_id:1\tHe served as a b c d e f g PM .\n"
    "1--> Cluster 1:\n"
    "He --> served as --> [a] [b] [c] [d] [e] [f] [g] PM\n"
    "1--> Cluster 2:\n"
    "He --> served --> as PM\n"
)
# L1 He | served as | a c PM    default ✓C1, concat ✓C1, minimal ✗ (a, c optional)
# L2 He served | as a | c PM    default ✗,   concat ✓C1, minimal ✗
# L3 He | served | as PM        default ✓C2, minimal ✓C2; concat: "He served as PM" is ALSO
#                               C1's all-dropped form, and an extraction covers only the first
#                               synset that accepts it (docs/scoring.md), so concat credits C1.
# L4 He | served as | PM        ✓C1 under every facet (C1's mandatory form)
# L5 He | served as | c a PM    ✗ everywhere (units out of order)
SUBMISSION_DP = (
    "1\tHe\tserved as\ta c PM\n"
    "1\tHe served\tas a\tc PM\n"
    "1\tHe\tserved\tas PM\n"
    "1\tHe\tserved as\tPM\n"
    "1\tHe\tserved as\tc a PM\n"
)
# default: C1, C2 covered -> TP 2; FP L2 L5 = 2; FN 0.
# concat:  only C1 covered -> TP 1; FP L5 = 1; FN 1 (C2).
# minimal: L4 -> C1, L3 -> C2: TP 2; FP L1 L2 L5 = 3; FN 0.
EXPECTED_DP = {"default": (2, 2, 0), "concat": (1, 1, 1), "minimal": (2, 3, 0)}


@pytest.mark.parametrize("facet", sorted(EXPECTED_DP))
def test_facets_on_a_slot_too_large_to_list(facet: str, tmp_path: Path) -> None:
    """The DP fallback gives the hand-computed counts in every facet."""
    gold = write(tmp_path, "gold.txt", GOLD_DP)
    sub = write(tmp_path, "sub.tsv", SUBMISSION_DP)
    assert score_lib(gold, sub, facet).totals == EXPECTED_DP[facet]


def test_five_forms_of_one_fact_are_one_tp(cli: RunCli, gold_file: Path, tmp_path: Path) -> None:
    """SPEC §3 note: five correct forms of S1C1 (from both of its triples) = 1 TP, 0 FP;
    the other three synsets are FN. P = 1/1, R = 1/4."""
    sub = write(
        tmp_path,
        "sub.tsv",
        (
            "1\tHe\tserved as\tthe Prime Minister\n"
            "1\tHe\tserved as\tPrime Minister\n"
            "1\tHe\tserved as\tPrime Minister of Australia\n"
            "1\tHe\tserved\tas the Prime Minister of Australia\n"
            "1\tHe\tserved\tas Prime Minister\n"
        ),
    )
    result = score_lib(gold_file, sub)
    assert result.totals == (1, 0, 3)
    assert result.scores == pytest.approx((1.0, 0.25, 0.4))
    system = score_cli(cli, gold_file, sub, "default", tmp_path)
    assert (system["tp"], system["fp"], system["fn"]) == (1, 0, 3)
    assert system["precision"] == 1.0


def test_duplicate_wrong_lines_each_count(gold_file: Path, tmp_path: Path) -> None:
    """FP counts every incorrect extraction, duplicates included: three identical wrong lines
    plus one correct line give 1 TP, 3 FP (P = 1/4)."""
    sub = write(
        tmp_path,
        "sub.tsv",
        (
            "1\tHe\tserved\tAustralia\n"
            "1\tHe\tserved\tAustralia\n"
            "1\tHe\tserved\tAustralia\n"
            "2\tGraner\thandcuffed\thim\n"
        ),
    )
    result = score_lib(gold_file, sub)
    assert result.totals == (1, 3, 3)
    assert result.scores[0] == pytest.approx(1 / 4)


def test_duplicate_correct_lines_are_not_fp(gold_file: Path, tmp_path: Path) -> None:
    """The same correct line twice still covers one synset and costs nothing."""
    sub = write(tmp_path, "sub.tsv", "2\tGraner\thandcuffed\thim\n" * 2)
    assert score_lib(gold_file, sub).totals == (1, 0, 3)


def test_matching_is_case_sensitive(gold_file: Path, tmp_path: Path) -> None:
    """Slots must equal a gold form exactly (SPEC §3); case folding is only for the implicit
    test, so "he" is explicit (kept) but wrong."""
    sub = write(tmp_path, "sub.tsv", "1\the\tserved as\tprime minister\n")
    result = score_lib(gold_file, sub)
    assert result.implicit == []
    assert result.totals == (0, 1, SYNSETS)


def test_extraction_in_the_wrong_sentence_is_fp(gold_file: Path, tmp_path: Path) -> None:
    """Correct only in its own sentence: a sentence-1 fact filed under sentence 2 is FP once
    the implicit filter is off (with it on, "He", "served" ... are absent from sentence 2, so
    the line is removed as implicit instead)."""
    sub = write(tmp_path, "sub.tsv", "2\tHe\tserved as\tPrime Minister\n")
    gold = load_gold(str(gold_file))
    kept = Scorer(gold, ScoreOptions("en", "default", strip_implicit=False)).score(str(sub), "s")
    assert kept.totals == (0, 1, SYNSETS)
    stripped = Scorer(gold, ScoreOptions("en", "default")).score(str(sub), "s")
    assert stripped.totals == (0, 0, SYNSETS)
    assert [x.tokens for x in stripped.implicit] == [["he", "served", "as", "prime", "minister"]]


def test_unknown_sentence_id_left_out(cli: RunCli, gold_file: Path, tmp_path: Path) -> None:
    """An extraction for a sentence the gold lacks is neither FP nor TP; the report counts
    it in unknown_sentence_ids and lists the id with its number of extractions."""
    sub = write(
        tmp_path,
        "sub.tsv",
        ("2\tGraner\thandcuffed\thim\n7\tHe\tserved as\tPrime Minister\n7\tX\tY\tZ\n"),
    )
    result = score_lib(gold_file, sub)
    assert result.totals == (1, 0, 3)
    assert result.unknown_count == 2
    assert result.unknown_ids == {"7": 2}
    system = score_cli(cli, gold_file, sub, "default", tmp_path)
    assert (system["tp"], system["fp"], system["fn"]) == (1, 0, 3)
    assert system["precision"] == 1.0
    assert system["unknown_sentence_ids"] == 2
    assert system["unknown_ids"] == [{"sent_id": "7", "extractions": 2}]


def test_one_form_in_two_synsets_counts_once(tmp_path: Path) -> None:
    """One extraction covers one synset, the first in gold order (docs/scoring.md; published
    OpenIE6 numbers). Gold lists "A | b | c" in both synsets: the line is 1 TP, the other
    synset FN."""
    gold = write(
        tmp_path,
        "g.txt",
        (
            "sent_id:1\tA b c d .\n"
            "1--> Cluster 1:\n"
            "A --> b --> c [d]\n"
            "1--> Cluster 2:\n"
            "A --> b --> c\n"
        ),
    )
    sub = write(tmp_path, "s.tsv", "1\tA\tb\tc\n")
    assert score_lib(gold, sub).totals == (1, 0, 1)


def test_entity_facet_against_store_is_a_clear_error(
    cli_process: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    """Gold 1.0.0 has no BenchIE-E file: exit 2, one stderr line naming the entity facet,
    no traceback, no report."""
    out = tmp_path / "out.json"
    proc = cli_process(
        "score", "--lang", "en", "--facet", "entity", example("en", "clausie"), "-o", out
    )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert "entity" in lines[0]
    assert "Traceback" not in proc.stderr
    assert not out.exists()


def test_entity_facet_with_own_gold_file_scores_like_default(
    cli: RunCli, gold_file: Path, tmp_path: Path
) -> None:
    """SPEC §4: entity is scored like default against its own gold file (here, --gold-file)."""
    sub = write(tmp_path, "sub.tsv", SUBMISSION)
    system = score_cli(cli, gold_file, sub, "entity", tmp_path)
    assert (system["tp"], system["fp"], system["fn"]) == EXPECTED["default"][:3]


@pytest.mark.parametrize("facet", ["concat", "minimal"])
def test_derived_facets_on_real_gold(cli: RunCli, facet: str, tmp_path: Path) -> None:
    """concat and minimal have no file of their own: the report says they are derived from
    the default gold, and names that file."""
    out = tmp_path / "out.json"
    res = cli("score", "--lang", "en", "--facet", facet, example("en", "clausie"), "-o", out)
    assert res.exit_code == 0, res.stderr
    report = orjson.loads(out.read_bytes())
    assert report["gold"]["derived_from"] == "default"
    assert report["gold"]["facet"] == facet
    path = f"{DEFAULT_GOLD_VERSION}/en/default/benchie_gold_annotations_en.txt"
    assert report["gold"]["files"][0]["path"] == path


def test_real_gold_facet_ordering(cli: RunCli, tmp_path: Path) -> None:
    """On the real English gold, concat accepts a superset of default's extractions, so its
    FP cannot be higher; minimal accepts a subset of default's, so its FP cannot be lower.
    (TP is not monotone: an extraction covers only the first synset that accepts it.)"""
    systems = {}
    for facet in ("default", "concat", "minimal"):
        out = tmp_path / f"{facet}.json"
        res = cli("score", "--lang", "en", "--facet", facet, example("en", "minie"), "-o", out)
        assert res.exit_code == 0, res.stderr
        systems[facet] = orjson.loads(out.read_bytes())["systems"][0]
    d, c, m = systems["default"], systems["concat"], systems["minimal"]
    assert c["fp"] <= d["fp"] <= m["fp"]
    assert m["fp"] > d["fp"]  # minie writes optional tokens, so some forms are lost
    assert d["fp"] + d["tp"] > 0
