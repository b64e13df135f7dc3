"""Fact-level precision-recall curves over extraction confidences (docs/scoring.md, "Confidences").

A submission with the confidence directive gives every extraction a confidence. Keeping
only the extractions with confidence >= t gives, for each distinct t, BenchIE's own
precision and recall on that subset; the curve is those points, highest t first.

Rescoring once per threshold would cost O(n) per threshold, O(n^2) in all. It is not
needed: an extraction's outcome (the synset it covers, or none) does not depend on which
other extractions are kept. So the scan records, per distinct confidence, how many
extractions have it and how many of them cover no synset, and per covered (sentence,
synset) pair the highest confidence among the extractions covering it: that pair is
covered at t exactly when that confidence is >= t. One sort of the distinct confidences
then gives every point by running sums, O(n log n) in all.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from benchie_cli.prf import prf


@dataclass(slots=True)
class ConfidenceTally:
    """What the scan of a file with confidences records beside the usual counts.

    Counts per distinct confidence rather than one entry per extraction: systems repeat
    confidences (and lines), and the dictionaries merge across ``--jobs`` ranges by adding
    counts and taking maxima, in any order.
    """

    #: confidence -> scored extractions (explicit, known sentence id) with it
    kept: dict[float, int] = field(default_factory=dict)
    #: confidence -> those of them that cover no synset (false positives)
    incorrect: dict[float, int] = field(default_factory=dict)
    #: (sentence position, synset) -> highest confidence of an extraction covering it
    best: dict[tuple[int, int], float] = field(default_factory=dict)

    def merge(self, later: ConfidenceTally) -> ConfidenceTally:
        for counts, more in ((self.kept, later.kept), (self.incorrect, later.incorrect)):
            for confidence, n in more.items():
                counts[confidence] = counts.get(confidence, 0) + n
        best = self.best
        for pair, confidence in later.best.items():
            earlier = best.get(pair)
            if earlier is None or confidence > earlier:
                best[pair] = confidence
        return self


@dataclass(frozen=True, slots=True)
class CurvePoint:
    """The scores of the extractions with confidence >= ``threshold``."""

    threshold: float
    extractions: int
    tp: int
    fp: int
    precision: float
    recall: float
    f1: float

    def as_json(self) -> dict[str, float | int]:
        return {
            "threshold": self.threshold,
            "extractions": self.extractions,
            "tp": self.tp,
            "fp": self.fp,
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
        }


@dataclass(frozen=True, slots=True)
class PRCurve:
    """Points highest threshold first; ``best`` is the point of maximal F1 (the highest
    threshold among equals), None when no extraction was scored."""

    points: list[CurvePoint]
    auc: float
    best: CurvePoint | None

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "auc": self.auc,
            "best_f1": None if self.best is None else self.best.as_json(),
            "curve": [p.as_json() for p in self.points],
        }
        if len(self.points) == 1:  # one confidence for all (only then: bytes unchanged)
            out["single_threshold"] = True
        return out


def area(points: list[CurvePoint]) -> float:
    """Step-wise area under the curve: the sum of (R_k - R_{k-1}) * P_k, with R_0 = 0.

    Each gain in recall is credited with the precision at which it was reached, as average
    precision is; no straight line is drawn between points, which in PR space would credit
    precision no threshold achieves (Davis and Goadrich, 2006).
    """
    total, previous = 0.0, 0.0
    for point in points:
        total += (point.recall - previous) * point.precision
        previous = point.recall
    return total


def pr_curve(tally: ConfidenceTally, synsets: int) -> PRCurve:
    """The curve from a scan's tally; ``synsets``: the gold's synset count (TP + FN)."""
    covered_at: dict[float, int] = {}
    for confidence in tally.best.values():
        covered_at[confidence] = covered_at.get(confidence, 0) + 1
    points: list[CurvePoint] = []
    kept = tp = fp = 0
    best: CurvePoint | None = None
    for threshold in sorted(tally.kept, reverse=True):
        kept += tally.kept[threshold]
        fp += tally.incorrect.get(threshold, 0)
        tp += covered_at.get(threshold, 0)
        point = CurvePoint(threshold, kept, tp, fp, *prf(tp, fp, synsets - tp))
        points.append(point)
        if best is None or point.f1 > best.f1:
            best = point
    return PRCurve(points, area(points), best)
