"""OIE2016 as scored before July 2019 (benchie_cli.benchmarks.oie2016_2018): supervised-oie's
published curves and AUCs reproduced through ``benchie score --metric oie2016-2018``, and
each rule of that scorer worked out by hand on small cases."""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import math
from pathlib import Path

import pytest

from benchie_cli.benchmarks.carb.data import Extraction
from benchie_cli.benchmarks.oie2016 import metric as current
from benchie_cli.benchmarks.oie2016_2018 import metric as m
from benchie_cli.benchmarks.oie2016_2018.metric import read_lines
from benchie_cli.errors import BenchieError
from tests.conftest import DATA as TEST_DATA
from tests.conftest import GOLD_DIR, RunCli

DATA = TEST_DATA / "oie2016-2018"
GOLD = GOLD_DIR / "oie2016-2018" / "1.0.0" / "test" / "test.oie.orig"

# --------------------------------------------------------------------------- published

#: (system output, its name in auc.dat and its curve, the AUC benchmark.py logs, its logged
#: optimum (precision, recall, F1, threshold) as numpy 1.11 printed it: %.17g).
PUBLISHED = [
    (
        "clausie_test.txt.gz",
        "ClausIE",
        "0.376335445991",
        "0.48912628767645938 0.73678160919540236 0.58793854620499886 0.218324903933",
    ),
    (
        "openie4_test.txt.gz",
        "OpenIE-4",
        "0.417131259581",
        "0.63979526551503518 0.5580357142857143 0.5961251862891207 0.388089033345",
    ),
    (
        "props_test.txt.gz",
        "PropS",
        "0.337558997238",
        "0.64479025710419491 0.49022633744855965 0.5569842197545295 0.14145579800800001",
    ),
    (
        "joint.txt.gz",
        "RnnOIE",
        "0.456143790189",
        "0.60489705063995547 0.61412429378531075 0.60947574992991305 4.0745411318900002",
    ),
    (
        "clean_3.txt.gz",
        "Clean",
        "0.468292843524",
        "0.58156779661016944 0.62958715596330272 0.60462555066079282 1.00139465019",
    ),
]


def _published_aucs() -> dict[str, str]:
    """``auc.dat`` of the figure ``joint``: system -> AUC as pr_plot.py printed it."""
    rows = (DATA / "auc.dat").read_text("ascii").splitlines()
    assert rows[0] == "system\tauc"
    return dict(row.split("\t") for row in rows[1:])


def test_rnnoie_is_the_published_number() -> None:
    assert _published_aucs()["RnnOIE"] == "0.455991814826"


@pytest.mark.parametrize(("output", "system", "logged", "optimum"), PUBLISHED)
def test_published_auc_to_every_digit(
    cli: RunCli, tmp_path: Path, output: str, system: str, logged: str, optimum: str
) -> None:
    report = tmp_path / "report.json"
    result = cli("score", "--metric", "oie2016-2018", DATA / output, "-o", report)
    assert result.exit_code == 0, result.stderr
    doc = json.loads(report.read_text("utf-8"))
    assert doc["benchmark"] == "oie2016-2018"
    numbers = doc["systems"][0]["oie2016-2018"]
    assert f"{numbers['auc']:.12g}" == _published_aucs()[system]
    assert f"{numbers['auc_logged']:.12g}" == logged
    precision, recall, f1, threshold = map(float, optimum.split())
    assert (numbers["precision"], numbers["recall"], numbers["f1"]) == (precision, recall, f1)
    assert numbers["confidence"] == threshold
    assert numbers["gold"] == 1730
    # and verify re-derives the report from the submission
    verified = cli("verify", report, DATA / output)
    assert verified.exit_code == 0, verified.stdout + verified.stderr


@pytest.mark.parametrize(("output", "system"), [(p[0], p[1]) for p in PUBLISHED])
def test_published_curve_byte_for_byte(tmp_path: Path, output: str, system: str) -> None:
    dat = tmp_path / f"{system}.dat"
    assert m.main([str(GOLD), str(DATA / output), "tabbed", str(dat)]) == 0
    assert dat.read_bytes() == gzip.decompress((DATA / f"{system}.dat.gz").read_bytes())


def test_the_curve_file_is_the_current_scorers() -> None:
    # The rows of a .dat file are written by the current scorer's write_dat, unchanged.
    assert m.write_dat is current.write_dat
    assert m.curve is current.curve


# --------------------------------------------------------------------------- by hand


def ex(pred: str, *args: str, confidence: float = 1.0) -> Extraction:
    return Extraction(pred, args, confidence)


def test_one_to_one_in_gold_order() -> None:
    # P1 ("met John Mary Bob") matches both gold extractions (3 of 3 words each); P2 ("met
    # Mary") matches A only (2 of 3 > 0.5; B: 1 of 3). In the order A, B: A takes P1, and
    # B may not take it again and finds nothing: one positive (0.9), one negative (0.5).
    # In the order B, A: B takes P1, A takes P2: two positives.
    a, b = ex("met", "John", "Mary"), ex("met", "John", "Bob")
    predicted = [ex("met", "John", "Mary Bob", confidence=0.9), ex("met", "Mary", confidence=0.5)]
    assert m.sentence_stats([a, b], predicted) == m.SentenceStats(2, (0.9,), (0.5,))
    assert m.sentence_stats([b, a], predicted) == m.SentenceStats(2, (0.9, 0.5), ())
    # the current scorer lets a prediction serve both
    assert current.sentence_stats([a, b], predicted) == m.SentenceStats(2, (0.9, 0.9), (0.5,))


def test_a_repeated_gold_extraction_needs_two_predictions() -> None:
    gold = [ex("met", "John", "Mary")] * 2
    once = [ex("met", "John", "Mary", confidence=0.7)]
    assert m.sentence_stats(gold, once) == m.SentenceStats(2, (0.7,), ())
    assert m.sentence_stats(gold, once * 2) == m.SentenceStats(2, (0.7, 0.7), ())


@pytest.mark.parametrize(
    ("gold", "predicted", "expected"),
    [
        # exactly a half (2 of 4 gold words) is not enough: > 0.5, strictly
        (ex("met", "John", "Mary Smith"), ex("met", "John", "x"), False),
        # 3 of 4 is
        (ex("met", "John", "Mary Smith"), ex("met", "John", "Mary"), True),
        # no predicate check: "saw" for "met" still gives 2 of 3 words
        (ex("met", "John", "Mary"), ex("saw", "John", "Mary"), True),
        # a quarter and a bit is enough for the current scorer, not for this one
        (ex("met", "John", "Mary Smith"), ex("met", "x", "y"), False),
        # case counts
        (ex("met", "John", "Mary"), ex("Met", "john", "Mary"), False),
    ],
)
def test_lexical_match(gold: Extraction, predicted: Extraction, expected: bool) -> None:
    assert m.lexical_match(gold, predicted) is expected


def test_predicates_are_not_compared_where_the_current_scorer_compares_them() -> None:
    assert not current.lexical_match(ex("met", "John", "Mary"), ex("saw", "John", "Mary"))


def test_a_sentence_without_predictions_counts_n_times_n() -> None:
    # "s1": one gold extraction, found (a positive at 0.8). "s2": three gold extractions
    # and no prediction: 3 * 3 = 9 gold extractions, all unmatched. The recall divides by
    # 1 + 9 = 10, not by the gold's 4.
    gold = {
        "s1": [ex("met", "John", "Mary")],
        "s2": [ex("ran", "a"), ex("ran", "b"), ex("ran", "c")],
    }
    predicted = {"s1": [ex("met", "John", "Mary", confidence=0.8)]}
    stats = m.corpus_stats(gold, predicted)
    assert stats.n_gold == 4
    assert [st.n_gold for st in stats.sentences.values()] == [1, 9]
    result = m.score(gold, predicted)
    assert (result.n_gold, result.n_counted, result.n_matched) == (4, 10, 1)
    assert result.curve == [m.CurvePoint(0.8, 1.0, 0.1, 1, 1), m.END]
    numbers = m.to_json(result)
    assert (numbers["precision"], numbers["recall"], numbers["gold_counted"]) == (1.0, 0.1, 10)
    # rows (1.0, 0.0), (1.0, 0.1): one trapezoid of 0.1 * 2 / 2
    assert numbers["auc"] == numbers["auc_logged"] == 0.1


def test_confidences_that_are_not_finite_score_as_zero() -> None:
    # NaN and infinities are matched as any confidence, then become 0: the positive at NaN
    # and the negative at -inf are one threshold, 0.0.
    gold = {"s": [ex("met", "John", "Mary")]}
    predicted = {
        "s": [
            ex("met", "John", "Mary", confidence=math.nan),
            ex("ran", "x", confidence=-math.inf),
        ]
    }
    stats = m.corpus_stats(gold, predicted).sentences["s"]
    assert stats == m.SentenceStats(1, (0.0,), (0.0,))
    assert m.score(gold, predicted).curve == [m.CurvePoint(0.0, 0.5, 1.0, 1, 2), m.END]


def test_the_readers_take_nan_where_the_current_ones_refuse_it() -> None:
    line = ["John met Mary .\tnan\tmet\tJohn\tMary\n"]
    (only,) = m.READERS["tabbed"](line, "x")["John met Mary ."]
    assert math.isnan(only.confidence)
    with pytest.raises(BenchieError, match="not finite"):
        current.READERS["tabbed"](line, "x")


def test_nan_through_the_command(cli: RunCli, tmp_path: Path) -> None:
    text = GOLD.read_text("utf-8").splitlines()[0].split("\t")
    submission = tmp_path / "nan.txt"
    submission.write_text("\t".join([text[0], "nan", *text[1:]]) + "\n", "utf-8")
    report = tmp_path / "r.json"
    args = ("--input-format", "carb", submission, "-o", report)
    result = cli("score", "--metric", "oie2016-2018", *args)
    assert result.exit_code == 0, result.stderr
    numbers = json.loads(report.read_text("utf-8"))["systems"][0]["oie2016-2018"]
    assert numbers["confidence"] == 0.0 and numbers["matched"] == 1


def test_the_sentence_key_drops_non_ascii() -> None:
    # Python 2 decoded the key's bytes as ASCII, ignoring the others: "Café" meets "Caf".
    assert m.sentence_key("Café opened .") == m.sentence_key("Caf opened.") == "Cafopened"
    assert current.sentence_key("Café opened .") != current.sentence_key("Caf opened.")
    # after the bracket escapes are undone: a dropped character joins no escape
    assert m.sentence_key("a -LRB- b") == "ab"
    assert m.sentence_key("a -LRéB- b") == "aLRBb"
    gold = {"Café opened .": [ex("opened", "Café")]}
    predicted = {"Caf opened.": [ex("opened", "Café", confidence=0.6)]}
    assert m.score(gold, predicted).n_matched == 1


def test_no_match_reports_zeros() -> None:
    gold = {"s": [ex("met", "John", "Mary")]}
    predicted = {"s": [ex("ran", "x", "y", confidence=0.3)]}
    numbers = m.to_json(m.score(gold, predicted))
    assert (numbers["auc"], numbers["auc_logged"], numbers["f1"]) == (0.0, 0.0, 0.0)
    assert numbers["confidence"] is None


# --------------------------------------------------------------------------- the gold


def test_the_gold_format_has_no_base_verb_column() -> None:
    lines = ["John met Mary .\tmet\tJohn\tMary\n", "John ran .\tran\tJohn\n"]
    gold = m.read_gold(lines)
    assert gold == {
        "John met Mary .": [ex("met", "John", "Mary")],
        "John ran .": [ex("ran", "John")],
    }
    with pytest.raises(BenchieError, match="need sentence"):
        m.read_gold(["John met Mary .\n"], "g.orig")
    with pytest.raises(BenchieError, match="need sentence"):
        m.read_gold(["\n"], "g.orig")


def test_the_shipped_gold() -> None:
    gold = m.read_gold(read_lines(str(GOLD)), str(GOLD))
    assert len(gold) == 603
    assert sum(len(v) for v in gold.values()) == 1730


def test_the_other_benchmark_is_named(cli: RunCli, tmp_path: Path) -> None:
    submission = tmp_path / "s.txt"
    submission.write_text("John met Mary .\t1.0\tmet\tJohn\tMary\n", "utf-8")
    result = cli("score", "--benchmark", "oie2016", "--metric", "oie2016-2018", submission)
    assert result.exit_code == 2
    assert "--benchmark oie2016-2018" in result.stderr


def test_the_module_command_writes_the_curve(tmp_path: Path) -> None:
    gold = tmp_path / "g.orig"
    gold.write_text("John met Mary .\tmet\tJohn\tMary\n", "utf-8")
    system = tmp_path / "s.txt"
    system.write_text("John met Mary .\t0.5\tmet\tJohn\tMary\n", "utf-8")
    dat = tmp_path / "out.dat"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert m.main([str(gold), str(system), "tabbed", str(dat)]) == 0
    assert json.loads(out.getvalue())["auc"] == 1.0
    assert dat.read_text("ascii") == "Precision\tRecall\n1.0\t0.0\n1.0\t1.0\n"
