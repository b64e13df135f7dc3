"""CaRB's metric, exactly as CaRB's scorer computes it by default (docs/carb.md).

CaRB (Bhardwaj, Aggarwal, Mausam, EMNLP-IJCNLP 2019; github.com/dair-iitd/CaRB, MIT)
scores a system by token overlap between its tuples and gold tuples, sentence by sentence,
and sweeps a confidence threshold to draw a precision-recall curve; it reports the area under
that curve and the point of best F1. This module is our own implementation of the scorer's
default (``carb.py`` without a match flag: ``binary_linient_tuple_match``), written from
reading CaRB's code and checked against its published curves bit for bit.

The computation is split so that a sentence can be looked at alone and a corpus is a sum:

1. :func:`group` keys extractions by sentence the way CaRB compares sentence texts.
2. :func:`sentence_stats` matches one sentence's tuples once and condenses the result into
   :class:`SentenceStats`: for every distinct confidence of its predictions, the precision
   and recall numerators and the prediction count at that threshold. :func:`corpus_stats`
   does so for every gold sentence, and collects the confidences of the predictions for
   sentences outside the gold, which CaRB uses as thresholds only.
3. :func:`curve` adds up the sentences' statistics at every threshold. CaRB adds float64
   values sentence after sentence in gold order; :func:`curve` performs the very same
   additions in the same order, so the curve is identical to CaRB's, not merely close.
4. :func:`auc` and :func:`optimum` summarise the curve as CaRB does.

CaRB re-runs its matching for every threshold; here each pair of tuples is compared once,
and the thresholds are visited in order, each adding only the predictions it admits.
Neither numpy nor anything else beyond the standard library is imported, so that scoring
starts fast.

``single=True`` (:func:`score`, :func:`corpus_stats`, :func:`sentence_stats`; the command's
``--single-match``) computes OpenIE6's variant "CaRB (s,s)", ``carb.py --single_match`` in
github.com/dair-iitd/openie6 (Kolluru et al., EMNLP 2020), checked against it bit for bit.
Its only difference is a sentence's recall numerator: instead of each gold tuple's best
recall over all the predictions admitted, the recalls of a second greedy one-to-one
matching, made like the precision one (highest recall first, the first pair in (gold,
prediction) order on ties, at most min(#gold, #predictions) pairs) and independently of
it. Precision numerators, counts, thresholds, curve, AUC and optimum are CaRB's.

``moie=True`` (:func:`score`, :func:`corpus_stats`, :func:`corpus_stats_both`,
:func:`sentence_stats`, :func:`match`) scores as the copy of OpenIE6's scorer in
github.com/dair-iitd/moie (Kolluru et al., ACL 2022) scores multilingual CaRB, in both
variants, checked against it bit for bit on its six languages. Two rules differ from
CaRB's: the words of relations and arguments are compared lowercased (``str.lower``, word
by word, before the *be* rule; the said-type test still reads the gold relation as
written), and a curve of one point (every confidence the same) has an AUC of 0 instead of
its trapezoid. Sentence keys, thresholds, denominators and the optimum are CaRB's.
"""

from __future__ import annotations

import gc
import io
import json
import math
import sys
from collections.abc import Sequence
from functools import reduce
from operator import add, itemgetter, sub
from typing import TextIO

from benchie_cli.benchmarks.carb.data import (
    NUMBERED,
    READERS,
    Extractions,
    open_text,
    read_file,
    read_gold,
    read_sentences,
    read_system,
)
from benchie_cli.benchmarks.carb.data import Extraction as Extraction

# The matching, the statistics and the curve are computed in their own module (its
# docstring says why); they are this metric's, and are imported from here.
from benchie_cli.benchmarks.carb.matching import PTB_ESCAPES as PTB_ESCAPES
from benchie_cli.benchmarks.carb.matching import PUNCTUATION as PUNCTUATION
from benchie_cli.benchmarks.carb.matching import CorpusStats as CorpusStats
from benchie_cli.benchmarks.carb.matching import CurvePoint as CurvePoint
from benchie_cli.benchmarks.carb.matching import Level as Level
from benchie_cli.benchmarks.carb.matching import SentenceStats as SentenceStats
from benchie_cli.benchmarks.carb.matching import corpus_stats as corpus_stats
from benchie_cli.benchmarks.carb.matching import corpus_stats_both as corpus_stats_both
from benchie_cli.benchmarks.carb.matching import curve as curve
from benchie_cli.benchmarks.carb.matching import equal_pairs as equal_pairs
from benchie_cli.benchmarks.carb.matching import group as group
from benchie_cli.benchmarks.carb.matching import match as match
from benchie_cli.benchmarks.carb.matching import outside as outside
from benchie_cli.benchmarks.carb.matching import sentence_key as sentence_key
from benchie_cli.benchmarks.carb.matching import sentence_stats as sentence_stats
from benchie_cli.benchmarks.carb.matching import word_counts as word_counts
from benchie_cli.curves import Curve, of_points
from benchie_cli.records import Record

# --------------------------------------------------------------------------- corpus

#: Fields by position: faster than a NamedTuple's attributes, over 10^5 points.
_PRECISION, _RECALL = itemgetter(1), itemgetter(2)
#: A point as a report holds it: (confidence, precision, recall).
_POINT = itemgetter(0, 1, 2)


def numpy_sum(values: Sequence[float]) -> float:
    """``numpy.sum`` of a float64 array, bit for bit: blocks of 8192 elements (numpy's
    buffer) added in order, each summed pairwise (halves split at multiples of 8, eight
    interleaved partial sums in blocks of at most 128, plain addition below 8)."""

    def pairwise(lo: int, n: int) -> float:
        if n < 8:
            total = 0.0
            for v in values[lo : lo + n]:
                total += v
            return total
        if n <= 128:
            end = lo + n - n % 8
            # partial sum j: every eighth value from lo + j, added in order
            r = [reduce(add, values[lo + 8 + j : end : 8], values[lo + j]) for j in range(8)]
            total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
            for v in values[end : lo + n]:
                total += v
            return total
        half = n // 2
        half -= half % 8
        return pairwise(lo, half) + pairwise(lo + half, n - half)

    total = 0.0
    for lo in range(0, len(values), 8192):
        total += pairwise(lo, min(8192, len(values) - lo))
    return total


def auc(points: Sequence[CurvePoint], *, moie: bool = False) -> float:
    """CaRB's area under the curve: scikit-learn's ``auc`` (the trapezoidal rule of numpy
    1.19's ``trapz``) over the curve's points in ascending order of confidence followed by
    the point recall 0, precision 1; 0 for an empty curve. Recall never grows with the
    threshold, so the area is taken with the sign that makes it positive. ``moie``: 0 for a
    curve of one point too (every confidence the same), as moie's scorer reports it: one
    threshold draws no curve, and its trapezoid to (0, 1) measures the point, not a ranking."""
    if not points or (moie and len(points) == 1):
        return 0.0
    xs = [*map(_RECALL, points), 0.0]
    ys = [*map(_PRECISION, points), 1.0]
    dxs = list(map(sub, xs[1:], xs))
    terms = [dx * (y1 + y0) / 2.0 for dx, y0, y1 in zip(dxs, ys, ys[1:], strict=False)]
    area = numpy_sum(terms)
    return -area if min(dxs) < 0.0 else area


def optimum(points: Sequence[CurvePoint]) -> tuple[float, float, float]:
    """(precision, recall, F1) of the point of highest F1, the lowest threshold among equals;
    (0, 0, 0) if there is none. A point with precision and recall both 0 is no candidate:
    CaRB's F1 is NaN there (0/0 in numpy) and ``nanargmax`` skips it."""
    best: tuple[float, float, float] = (0.0, 0.0, 0.0)
    found = False
    for _, precision, recall, _, _, _, _ in points:
        if precision + recall == 0.0:
            continue
        f1 = 2 * precision * recall / (precision + recall)
        if not found or f1 > best[2]:
            best, found = (precision, recall, f1), True
    return best


def zero_conf(points: Sequence[CurvePoint]) -> tuple[float, float, float]:
    """What OpenIE6's ``carb.py`` prints as "Zero Conf": (precision, recall, F1) at the lowest
    threshold, F1 NaN when precision and recall are both 0; but (0, 0, 0) when
    :func:`optimum` has no candidate, since OpenIE6 then falls back to (0, 0, 0) for both."""
    if not any(precision + recall != 0.0 for _, precision, recall, *_ in points):
        return (0.0, 0.0, 0.0)
    _, precision, recall, *_ = points[0]
    total = precision + recall
    return (precision, recall, 2 * precision * recall / total if total else math.nan)


def carb_round(value: float, decimals: int = 3) -> float:
    """``numpy.round(value, decimals)``: half to even after * 10**decimals. CaRB prints its
    results with 3 decimals, OpenIE6's ``carb.py`` with 4."""
    if decimals == 3:
        return round(value * 1000.0) / 1000.0
    scale = 10.0**decimals
    return round(value * scale) / scale


class CarbScore(Record):
    curve: list[CurvePoint]
    auc: float
    #: (precision, recall, F1) at the best threshold.
    optimal: tuple[float, float, float]


def score(
    gold: Extractions, predicted: Extractions, *, single: bool = False, moie: bool = False
) -> CarbScore:
    """CaRB's score of ``predicted`` against ``gold`` (both as the readers of
    :mod:`benchie_cli.benchmarks.carb.data` return them). ``single``: OpenIE6's single-match
    variant, CaRB (s,s) (``carb.py --single_match``), whose curve, AUC and optimum are
    computed alike from other recall sums (:func:`sentence_stats`). ``moie``: as moie's
    copy of the scorer computes either (the module's docstring)."""
    stats = corpus_stats(gold, predicted, single=single, moie=moie)
    points = curve(stats.sentences.values(), stats.outside)
    return CarbScore(points, auc(points, moie=moie), optimum(points))


def write_curve(points: Sequence[CurvePoint], out: TextIO) -> None:
    """The curve as CaRB's scorer writes it (``--out``): a header, then ``precision, recall,
    confidence`` rows sorted by recall (stably, so ascending confidence among equal recalls),
    numbers as Python prints them; CaRB's integer fallbacks print as ``1`` and ``0``."""
    out.write("Precision\tRecall\tConfidence\n")
    rows = []
    shown = (math.nan, math.nan, -1)  # the (precision, recall, n_predicted) of `pair`
    pair = ""
    for c, precision, recall, _, n_predicted, _, n_gold in sorted(points, key=itemgetter(2)):
        # repr() is most of the cost, and neighbouring rows mostly repeat precision and
        # recall (thresholds of sentences outside the gold change neither)
        if (precision, recall, n_predicted) != shown:
            shown = (precision, recall, n_predicted)
            pair = f"{repr(precision) if n_predicted else '1'}\t{repr(recall) if n_gold else '0'}\t"
        rows.append(f"{pair}{c!r}\n")
    out.write("".join(rows))


def curve_of(result: CarbScore) -> Curve:
    """The curve as a report holds it (ascending confidence, as :func:`curve` returns it)
    and its file as CaRB's scorer writes it (:func:`write_curve`)."""

    def dat() -> str:
        out = io.StringIO()
        write_curve(result.curve, out)
        return out.getvalue()

    return of_points(map(_POINT, result.curve), dat)


def to_json(result: CarbScore, *, openie6: bool = False) -> dict[str, object]:
    """The summary the command prints: exact values, and CaRB's rounded ones. ``openie6``:
    also the "Zero Conf" point (:func:`zero_conf`) and, under ``"openie6"``, the values
    OpenIE6's ``carb.py`` prints (rounded to 4 decimals); a NaN F1 is given as null."""
    precision, recall, f1 = result.optimal
    summary: dict[str, object] = {
        "auc": result.auc,
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "points": len(result.curve),
        "carb": {"auc": carb_round(result.auc), "optimal": [carb_round(v) for v in result.optimal]},
    }
    if openie6:
        zero = [None if math.isnan(v) else v for v in zero_conf(result.curve)]
        summary["zero_conf"] = zero
        summary["openie6"] = {
            "auc": carb_round(result.auc, 4),
            "optimal": [carb_round(v, 4) for v in result.optimal],
            "zero_conf": [None if v is None else carb_round(v, 4) for v in zero],
        }
    return summary


USAGE = f"""usage: python -m benchie_cli.benchmarks.carb.metric [--single-match] [--openie6]
       [--moie] GOLD SYSTEM FORMAT [CURVE] [--sentences RAW]

CaRB's default score of SYSTEM (a CaRB system output in FORMAT: {", ".join(READERS)})
against GOLD (CaRB's gold TSV), as JSON on standard output: the exact AUC and optimal
precision, recall and F1, and CaRB's rounded ones. CURVE: also write the precision-recall
curve there, as CaRB's scorer writes it. RAW: the raw sentences file the reverb format's
lines are numbered by (its raw_sentences/all.txt), for that format only. Files ending in
.gz are decompressed.

--single-match: OpenIE6's single-match variant, CaRB (s,s) (its carb.py --single_match);
the JSON then also has the "zero_conf" point and, under "openie6", the values OpenIE6's
carb.py prints (4 decimals). --openie6: those two without --single-match, as OpenIE6's
carb.py prints CaRB (s,m) (its --allennlp reader is the allennlp FORMAT). --moie: scored
as moie's copy of OpenIE6's carb.py scores multilingual CaRB (words compared lowercased,
the AUC of a one-point curve 0), printed as --openie6 prints, with "gold_sentences", the
count moie prints as "Num Final Sentences"."""


def main(argv: Sequence[str] | None = None, *, own_process: bool = False) -> int:
    """The command line (see :data:`USAGE`); its exit status. ``own_process``: the process
    runs only this command (``python -m``), so it may do without the garbage collector
    (and :func:`benchie_cli.stops.run_module` ends it without taking apart what it built)."""
    args = sys.argv[1:] if argv is None else list(argv)
    single = "--single-match" in args
    if single:
        args.remove("--single-match")
    moie = "--moie" in args
    if moie:
        args.remove("--moie")
    openie6 = single or moie or "--openie6" in args
    if "--openie6" in args:
        args.remove("--openie6")
    raw = None
    if "--sentences" in args:
        at = args.index("--sentences")
        raw = args[at + 1] if at + 1 < len(args) else None
        del args[at : at + 2]
    if len(args) not in (3, 4) or args[2] not in READERS or (args[2] in NUMBERED) != bool(raw):
        print(USAGE, file=sys.stderr)
        return 2
    if own_process:
        # Many small objects and no cycles: the collector would only re-scan them, a tenth
        # of the run time on large outputs.
        gc.disable()
    gold_path, system_path, fmt = args[:3]
    from benchie_cli.errors import BenchieError, failure_line
    from benchie_cli.textio import write_file_of

    try:
        gold = read_file(gold_path, read_gold)
        sentences = None
        if raw:
            with open_text(raw) as fh:
                sentences = read_sentences(fh)
        predicted = read_system(
            system_path, fmt, confidence_only=outside(gold), sentences=sentences
        )
        if not gold:
            raise BenchieError("no gold tuple read: not CaRB's gold format", path=gold_path)
        if not group(predicted).keys() & group(gold).keys():  # a score of nothing: 0.0
            raise BenchieError(
                f"none of its sentences is a sentence of {gold_path}: another gold, FORMAT "
                "or file (or an empty one)",
                path=system_path,
            )
        result = score(gold, predicted, single=single, moie=moie)
        if len(args) == 4:
            curve = io.StringIO()
            write_curve(result.curve, curve)
            write_file_of(args[3], curve.getvalue(), [gold_path, system_path])
    except (BenchieError, OSError) as exc:  # a file that cannot be read or written: one line
        print(f"error: {failure_line(exc)}", file=sys.stderr)
        return 2
    summary = to_json(result, openie6=openie6)
    if moie:
        summary["gold_sentences"] = len(group(gold))
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    from benchie_cli.stops import run_module

    run_module(lambda: main(own_process=True))
