"""LSOIE's metric, as the curves its authors published were computed (docs/lsoie.md).

LSOIE (Solawetz & Larson, *LSOIE: A Large-Scale Dataset for Supervised Open Information
Extraction*, EACL 2021; github.com/Jacobsolawetz/large-scale-oie, no licence) scores a
system with oie-benchmark's precision-recall curve and a matcher of its own, on syntactic
heads. This module is our own implementation of what made the published LSOIE-sci curves
(``oie-evaluation/science_new_eval/*.dat``), written from a description of the scorer and
checked against those curves byte for byte:

1. :func:`read_gold` reads the gold with its heads (``*.oie.correct.head``: each ``.oie``
   line, then ``<SYN_HEAD>`` and the syntactic head of the predicate and of each argument);
   :func:`read_system` reads the tab format the systems wrote.
2. :func:`group` keys sentences as oie-benchmark does. Where two texts share a key, the
   text that survives is the one CPython 2.7's ``dict`` iterates last
   (:mod:`benchie_cli.benchmarks.lsoie.py2dict`): the published curves depend on it.
3. :func:`head_match` is the matcher: the predicted predicate is one of the gold
   predicate's words, the arities are equal, and each gold argument's head (but ``.``)
   occurs in the predicted argument as a substring.
4. :func:`sentence_stats` pairs one sentence's extractions as the scorer that made the
   curves did: one to one, each gold extraction taking the first prediction no other took;
   a gold sentence without any prediction counts its ``n`` extractions ``n * n`` times.
5. :func:`curve` is OIE2016's curve (scikit-learn 0.18's, recall scaled by the share of
   gold matched) without the end point (precision 1, recall 0), which the published curves
   lack; :func:`write_dat` writes it as they are written.
6. :func:`summary` is what the repository's ``pr_plot.py`` prints of a curve: the best F1
   of its rows and the area under it, both from the ``.dat``'s rounded numbers.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import pairwise
from typing import TextIO, TypeVar

from benchie_cli.benchmarks.carb.metric import numpy_sum, sentence_key

# The readers and the matcher are their own module (its docstring says why); they are this
# metric's, and are imported from here.
from benchie_cli.benchmarks.lsoie.matching import SKIPPED_HEAD as SKIPPED_HEAD
from benchie_cli.benchmarks.lsoie.matching import SYN_HEAD as SYN_HEAD
from benchie_cli.benchmarks.lsoie.matching import Extraction as Extraction
from benchie_cli.benchmarks.lsoie.matching import Gold as Gold
from benchie_cli.benchmarks.lsoie.matching import GoldExtraction as GoldExtraction
from benchie_cli.benchmarks.lsoie.matching import Predicted as Predicted
from benchie_cli.benchmarks.lsoie.matching import head_match as head_match
from benchie_cli.benchmarks.lsoie.matching import read_gold as read_gold
from benchie_cli.benchmarks.lsoie.matching import read_gold_file as read_gold_file
from benchie_cli.benchmarks.lsoie.matching import read_system as read_system
from benchie_cli.benchmarks.lsoie.matching import sentence_stats as sentence_stats
from benchie_cli.benchmarks.lsoie.py2dict import slot_order
from benchie_cli.benchmarks.oie2016 import metric as oie2016
from benchie_cli.benchmarks.oie2016.data import read_lines
from benchie_cli.benchmarks.oie2016.metric import CurvePoint, SentenceStats
from benchie_cli.disk_cache import clear_on_bypass
from benchie_cli.records import Record

__all__ = [
    "CurvePoint",
    "Extraction",
    "GoldExtraction",
    "LsoieScore",
    "SentenceStats",
    "Summary",
    "collisions",
    "curve",
    "curve_of",
    "dropped_texts",
    "group",
    "head_match",
    "main",
    "read_gold",
    "read_gold_file",
    "read_system",
    "score",
    "sentence_key",
    "sentence_stats",
    "summary",
    "write_dat",
]

_E = TypeVar("_E")


# --------------------------------------------------------------------------- sentences


@lru_cache(maxsize=4)
def _winners(texts: tuple[str, ...]) -> dict[str, str]:
    """For each :func:`sentence_key` of ``texts`` (in their order of first appearance),
    the text whose extractions the scorer keeps: the last of them in the iteration order
    of a CPython 2.7 ``dict`` of the texts (as UTF-8 bytes) inserted in this order. Only
    computed where two texts share a key. Memoised (a few entries): a run groups the
    gold's texts and a file's twice each (to count and to score); callers only read the
    dict returned."""
    keys = {t: sentence_key(t) for t in texts}
    winner: dict[str, str] = {}
    if len(set(keys.values())) == len(keys):
        return {k: t for t, k in keys.items()}
    order = slot_order(t.encode("utf-8", "surrogateescape") for t in texts)
    for raw in order:
        text = raw.decode("utf-8", "surrogateescape")
        winner[keys[text]] = text
    return {keys[t]: winner[keys[t]] for t in texts}


clear_on_bypass(_winners.cache_clear)  # (orders of hashes a memo may have given)


def group(extractions: dict[str, list[_E]]) -> dict[str, list[_E]]:
    """Extractions keyed by :func:`sentence_key` (spaces removed, Penn Treebank bracket
    escapes undone, ASCII punctuation removed), in order of first appearance. Where texts
    share a key, one text's extractions are kept, the others' dropped: the one a CPython
    2.7 ``dict`` iterates last, as ``normalizeDict`` keeps it (see :func:`_winners`)."""
    return {key: extractions[text] for key, text in _winners(tuple(extractions)).items()}


def dropped_texts(extractions: dict[str, list[_E]]) -> list[str]:
    """The texts whose extractions :func:`group` drops, in order of first appearance."""
    kept = set(_winners(tuple(extractions)).values())
    return [t for t in extractions if t not in kept]


def collisions(extractions: dict[str, list[_E]]) -> int:
    """How many texts lose their extractions to another text of the same key."""
    return len(extractions) - len({sentence_key(t) for t in extractions})


def curve(stats: Iterable[SentenceStats]) -> list[CurvePoint]:
    """OIE2016's curve of the samples (:func:`benchie_cli.benchmarks.oie2016.metric.curve`,
    scikit-learn 0.18's, ascending confidence) without its end point: the published curves
    have no row (1.0, 0.0). No sample gives no point."""
    stats = list(stats)
    if not any(st.positives or st.negatives for st in stats):
        if not any(st.n_gold for st in stats):
            raise ValueError("the gold has no extraction")
        return []
    return oie2016.curve(stats)[:-1]


#: The curve as a report holds it (ascending confidence) and its ``.dat`` (:func:`write_dat`).
curve_of = oie2016.curve_of


def write_dat(points: Sequence[CurvePoint], out: TextIO) -> None:
    """The curve as the published ``.dat`` files are written: ``Precision<TAB>Recall``,
    then the points sorted by recall (stably), numbers as Python 2 prints them."""
    oie2016.write_dat(points, out)


# --------------------------------------------------------------------------- summaries


class Summary(Record):
    """What ``pr_plot.py`` prints of a ``.dat`` (computed on its rounded numbers)."""

    #: The trapezoidal area under the rows of positive recall, in file order; 0.0 with
    #: fewer than two such rows (where ``sklearn.metrics.auc`` refuses).
    auc: float
    #: The row of highest F1 = 2 * (R * P) / (R + P), the first among equals (None: no
    #: row has a defined F1), as the ``.dat`` has it.
    precision: float
    recall: float
    f1: float
    #: That row's threshold (None: no such row).
    confidence: float | None


def _rounded(value: float) -> float:
    """``float(py2_str(value))``: the ``.0`` that :func:`py2_str` may add changes no value
    read back, and ``nan`` and ``inf`` are ``.12g``'s spellings too."""
    return float(f"{value:.12g}")


def summary(points: Sequence[CurvePoint]) -> Summary:
    """``pr_plot.py``'s two numbers of a curve, bit for bit: the ``.dat``'s rows read
    back as floats; F1 per row (NaN where P + R is 0, which pandas' ``max`` skips) and its
    maximum; the rows with a recall above 0 kept, and ``np.trapz(P, R)`` over them (the
    terms added as numpy adds them). The best row's precision and recall are given as
    the ``.dat`` has them."""
    rows = [
        (_rounded(p.precision), _rounded(p.recall), p.confidence) for p in oie2016.dat_rows(points)
    ]
    best: tuple[float, float, float, float] | None = None
    for precision, recall, confidence in rows:
        total = recall + precision
        if total != total or total == 0.0:
            continue
        f1 = 2 * (recall * precision) / total
        if best is None or f1 > best[2]:
            best = (precision, recall, f1, confidence)
    kept = [(precision, recall) for precision, recall, _ in rows if recall > 0]
    terms = [(b[1] - a[1]) * (b[0] + a[0]) / 2.0 for a, b in pairwise(kept)]
    auc = numpy_sum(terms) if len(kept) >= 2 else 0.0
    if best is None:
        return Summary(auc, 0.0, 0.0, 0.0, None)
    return Summary(auc, *best)


class LsoieScore(Record):
    curve: list[CurvePoint]
    summary: Summary
    #: Gold extractions scored (after sentences sharing a key are merged).
    n_gold: int
    #: The recall's denominator: the gold extractions, a sentence without prediction
    #: counting ``n * n``.
    denominator: int
    #: Gold extractions matched.
    n_matched: int


def score(gold: Gold, predicted: Predicted) -> LsoieScore:
    """LSOIE's score of ``predicted`` against ``gold`` (as :func:`read_gold` and
    :func:`read_system` return them). Predictions of sentences outside the gold are
    ignored."""
    gold_groups, predicted_groups = group(gold), group(predicted)
    stats = [sentence_stats(exs, predicted_groups.get(key, ())) for key, exs in gold_groups.items()]
    points = curve(stats)
    return LsoieScore(
        points,
        summary(points),
        sum(len(exs) for exs in gold_groups.values()),
        sum(st.n_gold for st in stats),
        sum(len(st.positives) for st in stats),
    )


def to_json(result: LsoieScore) -> dict[str, object]:
    """The numbers a report holds (exact values)."""
    s = result.summary
    return {
        "auc": s.auc,
        "precision": s.precision,
        "recall": s.recall,
        "f1": s.f1,
        "confidence": s.confidence,
        "points": len(result.curve),
        "gold": result.n_gold,
        "denominator": result.denominator,
        "matched": result.n_matched,
    }


USAGE = """usage: python -m benchie_cli.benchmarks.lsoie.metric GOLD SYSTEM [DAT]

LSOIE's score of SYSTEM (the tab format: sentence, confidence, predicate, arguments)
against GOLD (an .oie.correct.head file), as JSON on standard output: pr_plot.py's AUC and
best F1 and the counts. DAT: also write the precision-recall curve there, as the published
.dat files are written."""


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see :data:`USAGE`); its exit status."""
    import json

    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) not in (2, 3):
        print(USAGE, file=sys.stderr)
        return 2
    from benchie_cli.errors import BenchieError, failure_line

    try:
        gold = read_gold_file(args[0])
        predicted = read_system(read_lines(args[1]), args[1])
    except (BenchieError, OSError) as exc:  # a file that cannot be read: one line
        print(f"error: {failure_line(exc)}", file=sys.stderr)
        return 2
    try:
        result = score(gold, predicted)
    except ValueError as exc:  # an empty gold
        print(f"error: {args[0]}: {exc}", file=sys.stderr)
        return 2
    if len(args) == 3:
        import io

        from benchie_cli.textio import write_file_of

        dat = io.StringIO(newline="\n")
        write_dat(result.curve, dat)
        try:
            write_file_of(args[2], dat.getvalue(), [args[0], args[1]])
        except BenchieError as exc:
            print(f"error: {failure_line(exc)}", file=sys.stderr)
            return 2
    print(json.dumps(to_json(result)))
    return 0


if __name__ == "__main__":
    from benchie_cli.stops import run_module

    run_module(main)
