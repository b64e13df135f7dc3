"""OIE2016's metric, exactly as oie-benchmark's scorer computes it (docs/oie2016.md).

OIE2016 (Stanovsky & Dagan, *Creating a Large Benchmark for Open Information Extraction*,
EMNLP 2016; github.com/gabrielStanovsky/oie-benchmark, MIT) decides per gold extraction
whether a system found it, with a lexical matcher, and draws a precision-recall curve over
the system's confidences. This module is our own implementation of ``benchmark.py`` with
its only matcher (``Matcher.lexicalMatch``), written from reading the original and checked
against its published curves (``eval/*.dat``) byte for byte.

1. :func:`group` keys extractions by sentence the way ``benchmark.py`` compares texts.
2. :func:`lexical_match` is the matcher: the predicates share a word after WordNet noun
   lemmatisation (:mod:`benchie_cli.benchmarks.oie2016.wordnet`), and more than a quarter of
   the gold extraction's words occur in the prediction.
3. :func:`sentence_stats` pairs one sentence's gold and predicted extractions as the
   original does: each gold extraction takes the first prediction (in file order) that
   matches it, whether or not another gold extraction took it already. It yields the
   labelled confidences the original hands to scikit-learn: one positive per matched gold
   extraction, one negative per prediction no gold extraction took.
4. :func:`curve` is scikit-learn 0.18's ``precision_recall_curve`` of those samples, with
   recall scaled by the share of gold extractions matched, as ``benchmark.py`` scales it;
   :func:`write_dat` writes it as the original's Python 2 wrote ``eval/*.dat``.
5. :func:`auc` and :func:`best_f1` summarise the curve. The original computes neither; they
   are the usual summaries of such a curve, defined in their docstrings.

Nothing beyond the standard library is imported, so that scoring starts fast; WordNet's
data is read on the first match.
"""

from __future__ import annotations

import io
import math
import sys
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import chain, pairwise
from typing import Protocol, TextIO

from benchie_cli.benchmarks.carb.matching import collisions, dropped_texts, sentence_key
from benchie_cli.benchmarks.carb.metric import numpy_sum
from benchie_cli.benchmarks.oie2016.data import (
    READERS,
    Extraction,
    Extractions,
    read_file,
    read_gold,
    read_sentences,
    read_system,
)

# The matching and each sentence's statistics are computed in their own module (its
# docstring says why); they are this metric's, and are imported from here.
from benchie_cli.benchmarks.oie2016.matching import (
    LEXICAL_THRESHOLD,
    CorpusStats,
    SentenceStats,
    corpus_stats,
    group,
    lexical_match,
    sentence_stats,
)
from benchie_cli.curves import Curve, of_points
from benchie_cli.records import Record

__all__ = [
    "LEXICAL_THRESHOLD",
    "CorpusStats",
    "CurvePoint",
    "Extraction",
    "Oie2016Score",
    "SentenceStats",
    "auc",
    "best_f1",
    "collisions",
    "corpus_stats",
    "curve",
    "curve_of",
    "dat_rows",
    "dropped_texts",
    "f1",
    "group",
    "lexical_match",
    "main",
    "py2_str",
    "score",
    "sentence_key",
    "sentence_stats",
    "write_dat",
]

# --------------------------------------------------------------------------- the curve


class CurvePoint(Record):
    """The corpus at one threshold: the samples with confidence >= ``confidence``."""

    #: ``math.inf`` for the end point scikit-learn appends (nothing predicted).
    confidence: float
    #: ``true_positives / n_samples``; 1.0 at the end point.
    precision: float
    #: ``(true_positives / all positives) * (matched gold / all gold)``; 0.0 at the end
    #: point, NaN at every other point if no gold extraction is matched.
    recall: float
    true_positives: int
    n_samples: int


#: The point scikit-learn appends after the lowest threshold: precision 1, recall 0.
END = CurvePoint(math.inf, 1.0, 0.0, 0, 0)


def curve(stats: Iterable[SentenceStats]) -> list[CurvePoint]:
    """scikit-learn 0.18's ``precision_recall_curve`` of the samples, with recall multiplied
    by the share of gold extractions matched (``benchmark.py``'s ``recallMultiplier``), in
    scikit-learn's order: ascending confidence, then :data:`END`.

    The thresholds are the distinct confidences of the samples (exact equality). Going down
    from the highest, the curve stops at the first threshold where every positive is
    counted; lower thresholds are dropped. Precision and recall are the float divisions
    numpy performs. Without any sample, where the original fails (scikit-learn refuses an
    empty input), the curve is :data:`END` alone. An empty gold is an error (the original
    divides by zero)."""
    stats = list(stats)
    n_gold = sum(st.n_gold for st in stats)
    if n_gold == 0:
        raise ValueError("the gold has no extraction")
    # Counted in C (a corpus has 10^4-10^5 samples), in the order of the samples, each
    # sentence's positives then its negatives: equal confidences (0.0 and -0.0) keep the
    # first one met as their threshold, as they always did.
    positives = Counter(chain.from_iterable([st.positives for st in stats]))
    samples = Counter(
        chain.from_iterable([part for st in stats for part in (st.positives, st.negatives)])
    )
    n_positive = sum(positives.values())  # also the number of matched gold extractions
    multiplier = n_positive / n_gold
    points: list[CurvePoint] = []
    new = tuple.__new__  # (a NamedTuple's constructor is a Python-level call)
    true_positives = n_samples = 0
    for c in sorted(samples, reverse=True):
        true_positives += positives.get(c, 0)
        n_samples += samples[c]
        raw_recall = true_positives / n_positive if n_positive else math.nan
        point = new(
            CurvePoint,
            (c, true_positives / n_samples, raw_recall * multiplier, true_positives, n_samples),
        )
        points.append(point)
        if true_positives == n_positive:
            break
    points.reverse()
    points.append(END)
    return points


def py2_str(value: float) -> str:
    """A float as Python 2 prints it (``str``): 12 significant digits, ``.0`` added to what
    would look like an integer; ``nan``, ``inf``."""
    if not math.isfinite(value):
        return "nan" if value != value else ("inf" if value > 0 else "-inf")
    text = f"{value:.12g}"
    return text if any(c in text for c in ".e") else text + ".0"


def write_dat(points: Sequence[CurvePoint], out: TextIO) -> None:
    """The curve as ``benchmark.py`` writes it (``--out``): the header ``Precision<TAB>
    Recall``, then one row per point, sorted by recall (stably: points of equal recall keep
    ascending confidence, the end point last), numbers as Python 2 prints them."""
    out.write("Precision\tRecall\n")
    rows = sorted(points, key=lambda p: p.recall)
    out.write("".join(f"{py2_str(p.precision)}\t{py2_str(p.recall)}\n" for p in rows))


class _Curved(Protocol):
    @property
    def curve(self) -> list[CurvePoint]: ...


def curve_of(result: _Curved) -> Curve:
    """The curve as a report holds it (scikit-learn's order: ascending confidence, then
    :data:`END`, whose infinite threshold is null) and its file as ``benchmark.py`` writes
    it (:func:`write_dat`)."""
    points = result.curve

    def dat() -> str:
        out = io.StringIO()
        write_dat(points, out)
        return out.getvalue()

    return of_points(((p.confidence, p.precision, p.recall) for p in points), dat)


def dat_rows(points: Sequence[CurvePoint]) -> list[CurvePoint]:
    """The points in the order of :func:`write_dat`'s rows."""
    return sorted(points, key=lambda p: p.recall)


# --------------------------------------------------------------------------- summaries


def auc(points: Sequence[CurvePoint]) -> float:
    """The area under the curve as ``sklearn.metrics.auc(recall, precision)`` computes it
    over the rows of the ``.dat`` file (recall ascending): the trapezoidal rule, the terms
    added as numpy adds them, so the value is bit-identical. 0.0 if no gold extraction is
    matched (the recalls are NaN there). The original prints no AUC."""
    rows = dat_rows(points)
    if any(p.recall != p.recall for p in rows):
        return 0.0
    terms = [(b.recall - a.recall) * (b.precision + a.precision) / 2.0 for a, b in pairwise(rows)]
    return numpy_sum(terms)


def best_f1(points: Sequence[CurvePoint]) -> CurvePoint | None:
    """The point of highest F1 = 2PR / (P + R), the first among equals in the ``.dat``
    file's order; None if no point has an F1 above 0 (the end point's is 0, and a NaN
    recall is no candidate). The original prints no F1."""
    best: CurvePoint | None = None
    top = 0.0
    for p in dat_rows(points):
        score = f1(p)
        if score > top:
            best, top = p, score
    return best


def f1(point: CurvePoint) -> float:
    """F1 of one point, 0.0 where P + R is 0 or NaN."""
    total = point.precision + point.recall
    return 2 * point.precision * point.recall / total if total > 0.0 else 0.0


class Oie2016Score(Record):
    curve: list[CurvePoint]
    auc: float
    #: The point of best F1 (:func:`best_f1`), None if there is none.
    best: CurvePoint | None
    n_gold: int
    #: Gold extractions matched by some prediction.
    n_matched: int


def score(gold: Extractions, predicted: Extractions) -> Oie2016Score:
    """OIE2016's score of ``predicted`` against ``gold`` (as the readers of
    :mod:`benchie_cli.benchmarks.oie2016.data` return them)."""
    stats = corpus_stats(gold, predicted).sentences.values()
    points = curve(stats)
    n_gold = sum(st.n_gold for st in stats)
    n_matched = sum(len(st.positives) for st in stats)
    return Oie2016Score(points, auc(points), best_f1(points), n_gold, n_matched)


def to_json(result: Oie2016Score) -> dict[str, object]:
    """The summary the command prints (exact values)."""
    best = result.best
    return {
        "auc": result.auc,
        "precision": best.precision if best else 0.0,
        "recall": best.recall if best else 0.0,
        "f1": f1(best) if best else 0.0,
        "confidence": best.confidence if best else None,
        "points": len(result.curve),
        "gold": result.n_gold,
        "matched": result.n_matched,
    }


USAGE = f"""usage: python -m benchie_cli.benchmarks.oie2016.metric GOLD SYSTEM FORMAT [DAT]
       [--sentences RAW]

OIE2016's score of SYSTEM (a system output in FORMAT: {", ".join(READERS)}) against GOLD
(an .oie file), as JSON on standard output: the AUC, the point of best F1, the number of
curve points and of gold extractions matched. DAT: also write the precision-recall curve
there, as oie-benchmark's benchmark.py writes it. RAW: the raw sentences file the reverb
format needs (oie-benchmark's raw_sentences/all.txt). Files ending in .gz are decompressed."""


def finish(
    points: Sequence[CurvePoint], doc: Mapping[str, object], dat: str | None, inputs: list[str]
) -> int:
    """The end of a scorer's command line: the curve written to ``dat`` as the original's
    ``.dat`` (never over an input), then the numbers as one JSON line; its exit status."""
    import io
    import json

    from benchie_cli.errors import BenchieError, failure_line
    from benchie_cli.textio import write_file_of

    if dat is not None:
        out = io.StringIO(newline="\n")
        write_dat(points, out)
        try:
            write_file_of(dat, out.getvalue(), inputs)
        except BenchieError as exc:
            print(f"error: {failure_line(exc)}", file=sys.stderr)
            return 2
    print(json.dumps(doc))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see :data:`USAGE`); its exit status."""

    args = list(sys.argv[1:] if argv is None else argv)
    raw = None
    if "--sentences" in args:
        at = args.index("--sentences")
        raw = args[at + 1] if at + 1 < len(args) else None
        del args[at : at + 2]
    if len(args) not in (3, 4) or args[2] not in READERS or (args[2] == "reverb") != bool(raw):
        print(USAGE, file=sys.stderr)
        return 2
    gold_path, system_path, fmt = args[:3]
    from benchie_cli.errors import BenchieError, failure_line

    try:
        sentences = read_sentences(raw) if raw else None
        gold = read_file(gold_path, read_gold)
        predicted = read_system(system_path, fmt, sentences=sentences)
    except (BenchieError, OSError) as exc:  # a file that cannot be read: one line
        print(f"error: {failure_line(exc)}", file=sys.stderr)
        return 2
    try:
        result = score(gold, predicted)
    except ValueError as exc:  # an empty gold
        print(f"error: {gold_path}: {exc}", file=sys.stderr)
        return 2
    dat = args[3] if len(args) == 4 else None
    return finish(result.curve, to_json(result), dat, [gold_path, system_path])


if __name__ == "__main__":
    from benchie_cli.stops import run_module

    run_module(main)
