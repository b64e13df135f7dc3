"""CaRB (s,s), OpenIE6's single-match variant of CaRB's metric (``carb.py --single_match`` in
github.com/dair-iitd/openie6): hand-worked fixtures for its rule, a plain re-implementation of
its threshold loop to compare against, and the curve, AUC and optimum its scorer computes for
OpenIE 4's output on CaRB's test gold, bit for bit."""

from __future__ import annotations

import gzip
import io
import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings

from benchie_cli.benchmarks.carb import data as carb_data
from benchie_cli.benchmarks.carb import metric as carb_metric
from benchie_cli.benchmarks.carb.data import Extraction, Extractions
from benchie_cli.benchmarks.carb.metric import CurvePoint, Level, SentenceStats
from benchie_cli.workers import allowed
from tests.benchmarks.carb.test_carb_metric import _CORPUS, _carb_match
from tests.conftest import DATA

CARB = DATA / "carb"
GOLD = str(CARB / "gold_test.tsv.gz")

#: format -> OpenIE6's ``carb.py --single_match`` against CaRB's test gold, computed by it
#: with ``numpy.round`` disabled: AUC, optimal (P, R, F1), the "Zero Conf" (P, R, F1); then
#: what it prints (4 decimals), and the number of curve points (README-carb-ss.md).
REFERENCE_SS = {
    "openie4": (
        0.19671456920408514,
        (0.5510983464459892, 0.31860316525528554, 0.4037745713496125),
        (0.5510983464459892, 0.31860316525528554, 0.4037745713496125),
        (0.1967, (0.5511, 0.3186, 0.4038), (0.5511, 0.3186, 0.4038)),
        2603,
    ),
    "openie5": (
        0.19624283885501131,
        (0.5207091435867698, 0.34061573226711295, 0.41183467751389297),
        (0.5207091435867698, 0.34061573226711295, 0.41183467751389297),
        (0.1962, (0.5207, 0.3406, 0.4118), (0.5207, 0.3406, 0.4118)),
        849,
    ),
    "clausie": (
        0.17674600953008393,
        (0.4112086418454666, 0.3903753789524924, 0.4005212809236491),
        (0.4112086418454666, 0.3903753789524924, 0.4005212809236491),
        (0.1767, (0.4112, 0.3904, 0.4005), (0.4112, 0.3904, 0.4005)),
        3175,
    ),
    "props": (
        0.08799063298001131,
        (0.33642311238093475, 0.20828621200937447, 0.25728326126475115),
        (0.33642311238093475, 0.20828621200937447, 0.25728326126475115),
        (0.088, (0.3364, 0.2083, 0.2573), (0.3364, 0.2083, 0.2573)),
        3151,
    ),
}

#: OpenIE6's (s,m), its scorer without ``--single_match``: the same AUC and optimum as
#: CaRB's (tests/benchmarks/carb/test_carb_metric.py), and its "Zero Conf" point, for
#: OpenIE 4's output.
ZERO_CONF_SM_OPENIE4 = (0.5510983464459892, 0.43748303028440716, 0.4877619187715461)


@pytest.fixture(scope="module")
def carb_gold() -> Extractions:
    return carb_data.read_file(GOLD, carb_data.read_gold)


# --------------------------------------------------------------------------- OpenIE6's numbers


@pytest.mark.parametrize("jobs", [1, 2])
def test_openie4_curve_byte_for_byte(carb_gold: Extractions, jobs: int, forking: None) -> None:
    """The curve file OpenIE6's scorer writes (``--out``), byte for byte; also with the
    statistics shared out to a worker process."""
    system = carb_data.read_system(str(CARB / "openie4_output.txt.gz"), "openie4")
    with allowed(jobs):
        result = carb_metric.score(carb_gold, system, single=True)
    out = io.StringIO()
    carb_metric.write_curve(result.curve, out)
    expected = gzip.decompress((CARB / "OpenIE-4.carb-ss.dat.gz").read_bytes()).decode()
    assert out.getvalue() == expected
    assert len(result.curve) == REFERENCE_SS["openie4"][4]


@pytest.mark.parametrize("fmt", sorted(REFERENCE_SS))
def test_reference_scores(fmt: str, carb_gold: Extractions) -> None:
    auc, optimal, zero, (auc4, optimal4, zero4), n_points = REFERENCE_SS[fmt]
    outside = carb_metric.outside(carb_gold)
    path = str(CARB / f"{fmt}_output.txt.gz")
    system = carb_data.read_system(path, fmt, confidence_only=outside)
    result = carb_metric.score(carb_gold, system, single=True)
    assert len(result.curve) == n_points
    assert result.auc == auc
    assert result.optimal == optimal
    assert carb_metric.zero_conf(result.curve) == zero
    summary = carb_metric.to_json(result, openie6=True)
    assert summary["openie6"] == {"auc": auc4, "optimal": list(optimal4), "zero_conf": list(zero4)}
    # (s,s) never exceeds (s,m): its recall numerators are sums over fewer pairs.
    default = carb_metric.score(carb_gold, system)
    assert [p.precision for p in result.curve] == [p.precision for p in default.curve]
    assert all(a.recall <= b.recall for a, b in zip(result.curve, default.curve, strict=True))


def test_openie6_default_is_carbs(carb_gold: Extractions) -> None:
    """OpenIE6's copy of the scorer without ``--single_match`` computes CaRB's numbers; it
    prints them with 4 decimals and adds the lowest threshold's point."""
    system = carb_data.read_system(str(CARB / "openie4_output.txt.gz"), "openie4")
    result = carb_metric.score(carb_gold, system)
    assert carb_metric.zero_conf(result.curve) == ZERO_CONF_SM_OPENIE4
    assert carb_metric.to_json(result, openie6=True)["openie6"] == {
        "auc": 0.2721,
        "optimal": [0.5526, 0.4372, 0.4882],
        "zero_conf": [0.5511, 0.4375, 0.4878],
    }


# --------------------------------------------------------------------------- hand-worked

FIXTURE_GOLD = """\
Alpha .\ta x
Alpha .\tb z
Beta .\ta b
Beta .\ta c
Gamma .\td e
Delta .\ta b
"""

FIXTURE_PREDICTED = """\
Alpha .\t0.9\ta b
Alpha .\t0.9\ta
Beta .\t0.8\ta b c
Delta .\t0.5\ta b
Delta .\t0.5\ta b
Epsilon .\t0.2\tq
"""


def _fixture() -> tuple[Extractions, Extractions]:
    gold = carb_data.read_gold(FIXTURE_GOLD.splitlines())
    return gold, carb_data.read_tabbed(FIXTURE_PREDICTED.splitlines())


def test_hand_worked_fixture() -> None:
    """Every number below is worked out by hand; OpenIE6's scorer (``--tabbed``, with and
    without ``--single_match``) gives the same curve files, AUC and optimum.

    Relation-only tuples, so a pair's precision is shared relation words over predicted
    words, and its recall shared words over gold words. 6 gold tuples:
      Alpha: g0 (a x), g1 (b z).   Beta: g2 (a b), g3 (a c).   Gamma: g4 (d e), no output.
      Delta: g5 (a b).             Epsilon: not in the gold.

    Predictions and their pairs (precision, recall):
      Alpha 0.9 c0 (a b): g0 (1/2, 1/2), g1 (1/2, 1/2).  Alpha 0.9 c1 (a): g0 (1, 1/2), g1 0.
      Beta 0.8 c2 (a b c): g2 (2/3, 1), g3 (2/3, 1).
      Delta 0.5 c3 (a b) and its duplicate c4: g5 (1, 1) each.
      Epsilon 0.2 (q): only its confidence counts.

    Alpha (2 predictions, limit min(2, 2) = 2). Precision matching: g0-c1 (1) first, then
    g1-c0 (1/2): 3/2. (s,m) recall: g0's best 1/2 + g1's best 1/2 = 1. (s,s) recall: three
    pairs tie at 1/2; the first in (gold, prediction) order is g0-c0, which uses c0, and g1
    has nothing else: 1/2. The two matchings pair differently (g0-c1 vs g0-c0).
    Beta (1 prediction, limit 1): precision 2/3; (s,m) recall 1 + 1 = 2, as c2 serves both
    gold tuples; (s,s) recall 1, as c2 serves one (g2, the first).
    Delta (2 predictions, limit min(1, 2) = 1): precision 1 (the duplicate is left over and
    only counts in the denominator); recall 1 either way: g5 is matched once.

    Thresholds 0.9, 0.8, 0.5, 0.2 (precision sums added in gold order: Alpha, Beta, Delta):
                 P sum              n   (s,s) R sum       (s,m) R sum
      0.9:       3/2                2   1/2  R = 1/12     1  R = 1/6
      0.8:       3/2 + 2/3          3   3/2  R = 1/4      3  R = 1/2
      0.5, 0.2:  3/2 + 2/3 + 1      5   5/2  R = 5/12     4  R = 2/3
    P: 3/4, 13/18, 19/30, 19/30.
    (s,s) F1: 0.9 -> 0.15, 0.8 -> 13/35, 0.5 and 0.2 -> 2 (19/30)(5/12) / (19/30 + 5/12) =
      95/189 (best; 0.2 is the lowest of the two equal thresholds).
    (s,s) AUC over (R, P), ascending confidence, then (0, 1): 0 + (1/6)(19/30 + 13/18)/2 +
      (1/6)(13/18 + 3/4)/2 + (1/12)(3/4 + 1)/2 = 61/540 + 53/432 + 7/96 = 1333/4320.
    (s,m) F1 at 0.2: 2 (19/30)(2/3) / (19/30 + 2/3) = 76/117 (best); AUC 61/540 + 53/216 +
      7/48 = 1089/2160.
    """
    gold, predicted = _fixture()
    alpha, beta, gamma, delta = (carb_metric.sentence_key(t) for t in gold)
    p1, p2, p3 = 1.5, 1.5 + 2 / 3, 1.5 + 2 / 3 + 1.0  # precision sums, added as CaRB does
    single = carb_metric.corpus_stats(gold, predicted, single=True)
    assert single.sentences == {
        alpha: SentenceStats(2, (Level(0.9, 1.5, 2, 0.5),)),
        beta: SentenceStats(2, (Level(0.8, 2 / 3, 1, 1.0),)),
        gamma: SentenceStats(1, ()),
        delta: SentenceStats(1, (Level(0.5, 1.0, 2, 1.0),)),
    }
    assert single.outside == {0.2}
    multiple = carb_metric.corpus_stats(gold, predicted)
    assert multiple.sentences[alpha] == SentenceStats(2, (Level(0.9, 1.5, 2, 1.0),))
    assert multiple.sentences[beta] == SentenceStats(2, (Level(0.8, 2 / 3, 1, 2.0),))
    assert multiple.sentences[delta] == single.sentences[delta]

    result = carb_metric.score(gold, predicted, single=True)
    assert result.curve == [
        CurvePoint(0.2, p3 / 5, 2.5 / 6, p3, 5, 2.5, 6),
        CurvePoint(0.5, p3 / 5, 2.5 / 6, p3, 5, 2.5, 6),
        CurvePoint(0.8, p2 / 3, 1.5 / 6, p2, 3, 1.5, 6),
        CurvePoint(0.9, p1 / 2, 0.5 / 6, p1, 2, 0.5, 6),
    ]
    assert result.auc == pytest.approx(1333 / 4320, abs=1e-15)
    assert result.optimal[:2] == (p3 / 5, 2.5 / 6)
    assert result.optimal[2] == pytest.approx(95 / 189, abs=1e-15)
    assert carb_metric.zero_conf(result.curve) == result.optimal
    default = carb_metric.score(gold, predicted)
    assert [(p.precision, p.recall) for p in default.curve] == [
        (p3 / 5, 4.0 / 6),
        (p3 / 5, 4.0 / 6),
        (p2 / 3, 3.0 / 6),
        (p1 / 2, 1.0 / 6),
    ]
    assert default.auc == pytest.approx(1089 / 2160, abs=1e-15)
    assert default.optimal[:2] == (p3 / 5, 4.0 / 6)
    assert default.optimal[2] == pytest.approx(76 / 117, abs=1e-15)
    # What OpenIE6's scorer computes for these files, to the bit (numpy.round disabled) ...
    assert result.auc == 0.30856481481481485
    assert result.optimal[2] == 0.5026455026455027
    assert default.auc == 0.5041666666666667
    # ... and prints: "AUC: 0.3086  Optimal (precision, recall, F1): (0.6333, 0.4167,
    # 0.5026)  Zero Conf (precision, recall, F1): (0.6333, 0.4167, 0.5026)".
    assert carb_metric.to_json(result, openie6=True)["openie6"] == {
        "auc": 0.3086,
        "optimal": [0.6333, 0.4167, 0.5026],
        "zero_conf": [0.6333, 0.4167, 0.5026],
    }
    out = io.StringIO()
    carb_metric.write_curve(result.curve, out)
    assert out.getvalue() == (
        "Precision\tRecall\tConfidence\n"
        "0.75\t0.08333333333333333\t0.9\n"
        "0.7222222222222222\t0.25\t0.8\n"
        "0.6333333333333333\t0.4166666666666667\t0.2\n"
        "0.6333333333333333\t0.4166666666666667\t0.5\n"
    )


def test_recall_ties_follow_prediction_order() -> None:
    """The Alpha sentence with its two predictions in the other order: c1 (a) is now
    prediction 0, so the first of the tied recall pairs is g0-c1, which leaves c0 for g1:
    recall 1/2 + 1/2 = 1 instead of 1/2. The precision matching is the same (3/2)."""
    gold = carb_data.read_gold(["Alpha .\ta x", "Alpha .\tb z"])[("Alpha .")]
    first, second = Extraction("a b", (), 0.9), Extraction("a", (), 0.9)
    assert carb_metric.sentence_stats(gold, [first, second], single=True) == SentenceStats(
        2, (Level(0.9, 1.5, 2, 0.5),)
    )
    assert carb_metric.sentence_stats(gold, [second, first], single=True) == SentenceStats(
        2, (Level(0.9, 1.5, 2, 1.0),)
    )
    # Gold order decides too: with g1 (b z) first, the first tied pair is g1-c0.
    assert carb_metric.sentence_stats(gold[::-1], [first, second], single=True) == SentenceStats(
        2, (Level(0.9, 1.5, 2, 1.0),)
    )


def test_recall_matching_is_greedy_by_recall_not_precision() -> None:
    """g0 (a b c d), g1 (a). c0 (a b) at 0.9 pairs with g0 at (1, 2/4) and g1 at (1/2, 1); c1
    (a) at 0.5 with g0 at (1, 1/4) and g1 at (1, 1).

    At 0.9 (c0 alone, limit 1): precision takes g0-c0, 1; recall takes g1-c0, 1: the two
    matchings choose different gold tuples. (s,m) recall: g0's best 1/2 + g1's best 1.
    At 0.5 (limit 2): the precision pairs at 1 are g0-c0, g0-c1 and g1-c1; it takes g0-c0
    (first), then g1-c1: 2. The recall pairs at 1 are g1-c0 and g1-c1; it takes g1-c0
    (first), which leaves g0-c1: 1 + 1/4. (s,m) recall is still 1/2 + 1."""
    gold = [Extraction("a b c d", (), 1.0), Extraction("a", (), 1.0)]
    predicted = [Extraction("a b", (), 0.9), Extraction("a", (), 0.5)]
    assert carb_metric.sentence_stats(gold, predicted, single=True) == SentenceStats(
        2, (Level(0.9, 1.0, 1, 1.0), Level(0.5, 2.0, 2, 1.25))
    )
    assert carb_metric.sentence_stats(gold, predicted) == SentenceStats(
        2, (Level(0.9, 1.0, 1, 1.5), Level(0.5, 2.0, 2, 1.5))
    )


def test_duplicates_and_sentences_without_output() -> None:
    """One gold tuple (a b) predicted three times at 1.0: (s,s) matches it once, recall 1
    (not 3), precision 1 of 3; (s,m) has the same recall. A second gold sentence without
    output adds its gold tuple to the recall denominator only: R = 1/2, P = 1/3,
    F1 = 2 (1/3)(1/2) / (5/6) = 2/5; AUC (1/2)(1/3 + 1)/2 = 1/3."""
    gold = carb_data.read_gold(["S .\ta b", "T .\tc"])
    predicted = {"S .": [Extraction("a b", (), 1.0)] * 3}
    for single in (True, False):
        result = carb_metric.score(gold, predicted, single=single)
        assert result.curve == [CurvePoint(1.0, 1 / 3, 0.5, 1.0, 3, 1.0, 2)]
        assert result.optimal == (1 / 3, 0.5, 0.4)  # 2/5 exactly in floats too
        assert result.auc == pytest.approx(1 / 3, abs=1e-15)


def test_zero_divisions_and_zero_conf() -> None:
    """Nothing predicted: no curve, AUC 0, optimum and "Zero Conf" (0, 0, 0), as OpenIE6
    returns. Only a prediction outside the gold (confidence 0.7) and one matching nothing
    (0.4): at 0.7 nothing is predicted in the gold, P = 1 (0 predictions), R = 0, F1 0, a
    candidate; at 0.4, P = R = 0 (F1 NaN, skipped). So the optimum is (1, 0, 0), and the
    "Zero Conf" point, the lowest threshold's, is (0, 0, NaN), printed as null. With the
    0.7 prediction gone no point is a candidate: OpenIE6 falls back to (0, 0, 0) for both."""
    gold = carb_data.read_gold(["S .\ta b"])
    assert carb_metric.score(gold, {}, single=True) == carb_metric.CarbScore([], 0.0, (0, 0, 0))
    assert carb_metric.zero_conf([]) == (0.0, 0.0, 0.0)
    predicted = {"S .": [Extraction("z", (), 0.4)], "U .": [Extraction("a b", (), 0.7)]}
    result = carb_metric.score(gold, predicted, single=True)
    assert result.curve == [
        CurvePoint(0.4, 0.0, 0.0, 0.0, 1, 0.0, 1),
        CurvePoint(0.7, 1.0, 0.0, 0.0, 0, 0.0, 1),
    ]
    assert result.optimal == (1.0, 0.0, 0.0)
    precision, recall, f1 = carb_metric.zero_conf(result.curve)
    assert (precision, recall) == (0.0, 0.0) and math.isnan(f1)
    summary = carb_metric.to_json(result, openie6=True)
    assert summary["zero_conf"] == [0.0, 0.0, None]
    assert summary["openie6"] == {
        "auc": 0.0,
        "optimal": [1.0, 0.0, 0.0],
        "zero_conf": [0.0, 0.0, None],
    }
    alone = carb_metric.score(gold, {"S .": [Extraction("z", (), 0.4)]}, single=True)
    assert alone.optimal == carb_metric.zero_conf(alone.curve) == (0.0, 0.0, 0.0)


def test_carb_round_four_decimals() -> None:
    """``numpy.round(x, 4)``: half to even after * 10000, as OpenIE6 prints."""
    assert carb_metric.carb_round(0.12345, 4) == 0.1234  # 1234.5 after * 10**4: half to even
    assert carb_metric.carb_round(0.00125, 4) == 0.0012  # 12.5: half to even
    assert carb_metric.carb_round(0.00135, 4) == 0.0014  # 13.5
    assert carb_metric.carb_round(0.2721036165900457) == 0.272  # the default stays 3


# --------------------------------------------------------------------------- the loop


def _openie6_ss_curve(
    gold: Extractions, predicted: Extractions
) -> list[tuple[float, float, float]]:
    """OpenIE6's threshold loop with ``--single_match``, plainly: at every threshold, every
    sentence from scratch, both sums by a greedy one-to-one matching (precision, recall)."""
    golds, preds = carb_metric.group(gold), carb_metric.group(predicted)
    thresholds = sorted({e.confidence for exs in preds.values() for e in exs})
    p_sum, p_n, r_sum = [0.0] * len(thresholds), [0] * len(thresholds), [0.0] * len(thresholds)
    n_gold = 0

    def greedy(scores: list[list[float]], chosen: list[int], limit: int) -> float:
        total, rows, cols = 0.0, set(), set()
        for _ in range(limit):
            best = (-1.0, -1, -1)
            for i in range(len(scores)):
                for j in chosen:
                    if i not in rows and j not in cols and scores[i][j] > best[0]:
                        best = (scores[i][j], i, j)
            rows.add(best[1])
            cols.add(best[2])
            total += best[0]
        return total

    for key, gs in golds.items():
        n_gold += len(gs)
        ps = preds.get(key, [])
        pairs = [[_carb_match(g, e) for e in ps] for g in gs]
        precisions = [[s[0] for s in row] for row in pairs]
        recalls = [[s[1] for s in row] for row in pairs]
        for k, t in enumerate(thresholds):
            chosen = [j for j, e in enumerate(ps) if e.confidence >= t]
            if not chosen:
                continue
            limit = min(len(gs), len(chosen))
            p_sum[k] += greedy(precisions, chosen, limit)
            p_n[k] += len(chosen)
            r_sum[k] += greedy(recalls, chosen, limit)
    return [
        (p_sum[k] / p_n[k] if p_n[k] else 1.0, r_sum[k] / n_gold if n_gold else 0.0, t)
        for k, t in enumerate(thresholds)
    ]


@settings(max_examples=200, deadline=None)
@given(_CORPUS, _CORPUS)
def test_curve_equals_openie6_threshold_loop(gold: Extractions, predicted: Extractions) -> None:
    result = carb_metric.score(gold, predicted, single=True)
    ours = [(p.precision, p.recall, p.confidence) for p in result.curve]
    assert ours == _openie6_ss_curve(gold, predicted)  # exactly, not approximately
    # The default is untouched by the flag.
    assert carb_metric.score(gold, predicted, single=False) == carb_metric.score(gold, predicted)


# --------------------------------------------------------------------------- command


def test_command_single_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "curve.dat"
    system = str(CARB / "openie4_output.txt.gz")
    assert carb_metric.main(["--single-match", GOLD, system, "openie4", str(out)]) == 0
    summary = json.loads(capsys.readouterr().out)
    auc, (p, r, f1), zero, (auc4, optimal4, zero4), points = REFERENCE_SS["openie4"]
    assert summary == {
        "auc": auc,
        "precision": p,
        "recall": r,
        "f1": f1,
        "points": points,
        "carb": {"auc": 0.197, "optimal": [0.551, 0.319, 0.404]},
        "zero_conf": list(zero),
        "openie6": {"auc": auc4, "optimal": list(optimal4), "zero_conf": list(zero4)},
    }
    assert out.read_bytes() == gzip.decompress((CARB / "OpenIE-4.carb-ss.dat.gz").read_bytes())
    # The flag may come anywhere, and the default's output has none of the new keys.
    assert carb_metric.main([GOLD, system, "--single-match", "openie4"]) == 0
    assert json.loads(capsys.readouterr().out) == {**summary}
    assert carb_metric.main([GOLD, system, "openie4"]) == 0
    assert set(json.loads(capsys.readouterr().out)) == {
        "auc",
        "precision",
        "recall",
        "f1",
        "points",
        "carb",
    }
