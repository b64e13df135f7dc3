"""OIE2016 as its scorer scored before July 2019 (docs/oie2016-2018.md).

The systems of supervised-oie (Stanovsky, Michael, Zettlemoyer and Dagan, *Supervised Open
Information Extraction*, NAACL 2018; github.com/gabrielStanovsky/supervised-oie, MIT),
RnnOIE among them, were scored by the copy of oie-benchmark's ``benchmark.py`` that
repository ships, as oie-benchmark's scorer stood before its July 2019 change. This module
is our own implementation of that scorer, written from the rules docs/oie2016-2018.md
states. It differs from the current one (:mod:`benchie_cli.benchmarks.oie2016.metric`) in
five rules, and shares the rest with it:

1. :func:`sentence_key` drops every non-ASCII character (Python 2's ASCII decoding with
   ``errors='ignore'``), after undoing the bracket escapes and before removing punctuation.
2. :func:`lexical_match` has no predicate-lemma condition, and its threshold is
   :data:`LEXICAL_THRESHOLD`, 0.5 (more than half of the gold's words), not a quarter.
3. :func:`sentence_stats` pairs one-to-one: a prediction one gold extraction took cannot
   be taken by another (greedy, in gold order, then prediction order).
4. A gold sentence without predictions counts ``n * n`` gold extractions, not ``n``
   (:func:`corpus_stats`): the recall denominator is inflated.
5. Confidences that are not finite (NaN, infinities) become 0 after matching.

The curve, its order and the ``.dat`` file are the current scorer's
(:func:`~benchie_cli.benchmarks.oie2016.metric.curve`,
:func:`~benchie_cli.benchmarks.oie2016.metric.write_dat`). The numbers are those the
NAACL 2018 work published and logged: :func:`published_auc` (``pr_plot.py``'s trapezoid
over the ``.dat`` file's rounded rows, the published figures' ``auc.dat``),
:func:`logged_auc` and :func:`optimum` (what ``benchmark.py`` logs).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache, partial
from itertools import pairwise

from benchie_cli.benchmarks.carb.metric import (
    PTB_ESCAPES,
    PUNCTUATION,
    equal_pairs,
    numpy_sum,
    word_counts,
)
from benchie_cli.benchmarks.oie2016 import data as oie2016_data
from benchie_cli.benchmarks.oie2016.data import Extraction, Extractions, read_lines
from benchie_cli.benchmarks.oie2016.metric import (
    END,
    CurvePoint,
    SentenceStats,
    curve,
    curve_of,
    dat_rows,
    finish,
    py2_str,
    write_dat,
)
from benchie_cli.records import Record

__all__ = [
    "END",
    "READERS",
    "CorpusStats",
    "CurvePoint",
    "Extraction",
    "Extractions",
    "Oie2016Score",
    "SentenceStats",
    "collisions",
    "corpus_stats",
    "curve",
    "curve_of",
    "dat_rows",
    "dropped_texts",
    "f1",
    "group",
    "lexical_match",
    "logged_auc",
    "main",
    "optimum",
    "published_auc",
    "py2_str",
    "read_gold",
    "score",
    "sentence_key",
    "sentence_stats",
    "write_dat",
]

# --------------------------------------------------------------------------- reading

#: The system-output readers of the scorer of the time: oie-benchmark's (the current ones,
#: :mod:`benchie_cli.benchmarks.oie2016.data`), taking confidences that are not finite as
#: the original's ``float()`` does. ClausIE's and PropS's readers still refuse them: their
#: rescaling takes the minimum and maximum over a Python 2 dict's hash order, in which a
#: NaN's place, and so the result, is arbitrary. ReVerb's is left out: its sentence
#: numbers refer to a sentences file this gold version does not have.
READERS: dict[str, Callable[[Iterable[str], str], Extractions]] = {
    "clausie": oie2016_data.read_clausie,
    "openie4": partial(oie2016_data.read_openie4, finite=False),
    "props": oie2016_data.read_props,
    "ollie": partial(oie2016_data.read_ollie, finite=False),
    "stanford": partial(oie2016_data.read_stanford, finite=False),
    "tabbed": partial(oie2016_data.read_tabbed, finite=False),
}


def read_gold(lines: Iterable[str], path: str = "<gold>") -> Extractions:
    """The gold format of the time (supervised-oie's ``test.oie.orig``): ``sentence,
    predicate, arg1, arg2, ...``, no base-verb column. Every line counts, a blank one too:
    the original fails on a line of fewer than two columns (``goldReader.py``)."""
    d: Extractions = {}
    for n, line in enumerate(lines, 1):
        cols = line.strip(oie2016_data.WHITESPACE).split("\t")
        if len(cols) < 2:
            from benchie_cli.errors import BenchieError

            raise BenchieError("need sentence<TAB>predicate[<TAB>argument...]", path=path, line=n)
        d.setdefault(cols[0], []).append(Extraction(cols[1], tuple(cols[2:]), 1.0))
    return d


# --------------------------------------------------------------------------- sentences

_DROP = str.maketrans("", "", PUNCTUATION)


@lru_cache(maxsize=1 << 16)
def sentence_key(text: str) -> str:
    """``normalizeKey``: spaces removed, bracket escapes undone, every non-ASCII character
    dropped (Python 2's ``unicode(s, errors='ignore')`` of a byte string), then ASCII
    punctuation removed. A non-ASCII character is dropped after the escapes are undone, so
    it never joins the letters around it into an escape."""
    key = text.replace(" ", "")
    for char, escape in PTB_ESCAPES:
        key = key.replace(escape, char)
    return key.encode("ascii", "ignore").decode("ascii").translate(_DROP)


def group(extractions: Mapping[str, list[Extraction]]) -> Extractions:
    """Extractions keyed by :func:`sentence_key`; of texts sharing a key, the last one's
    extractions replace the others' (which one the original keeps is Python 2's hash
    order)."""
    return {sentence_key(text): exs for text, exs in extractions.items()}


def dropped_texts(extractions: Extractions) -> list[str]:
    """The texts whose extractions :func:`group` drops, in order."""
    last = {sentence_key(text): text for text in extractions}
    return [text for text in extractions if last[sentence_key(text)] != text]


def collisions(extractions: Extractions) -> int:
    """How many texts lose their extractions to another with the same key."""
    return len(extractions) - len({sentence_key(text) for text in extractions})


# --------------------------------------------------------------------------- matching

#: A gold extraction is matched if more than this share of its words occur in the
#: prediction (``Matcher.LEXICAL_THRESHOLD`` of the time).
LEXICAL_THRESHOLD = 0.5


def _bag(e: Extraction) -> list[str]:
    """``Extraction.bow().split(' ')``: relation and arguments joined by single spaces and
    split at single spaces (an empty argument gives an empty word, which counts)."""
    return " ".join((e.pred, *e.args)).split(" ")


def _matches(gold_words: Sequence[str], predicted: dict[str, int]) -> bool:
    return equal_pairs(gold_words, predicted) / len(gold_words) > LEXICAL_THRESHOLD


def lexical_match(gold: Extraction, predicted: Extraction) -> bool:
    """``Matcher.lexicalMatch`` of the time: the pairs (gold word, predicted word) of equal
    words, over the number of gold words, exceed one half. Case-sensitive, stopwords and
    punctuation count; the predicates are not compared."""
    return _matches(_bag(gold), word_counts(_bag(predicted)))


# --------------------------------------------------------------------------- pairing


def _finite(confidence: float) -> float:
    """``prCurve``'s filter: NaN and infinities score as 0."""
    return confidence if math.isfinite(confidence) else 0.0


def sentence_stats(gold: Sequence[Extraction], predicted: Sequence[Extraction]) -> SentenceStats:
    """One sentence with predictions: each gold extraction, in gold order, takes the first
    prediction in file order that matches it and that no earlier gold extraction took (a
    positive at its confidence); a gold extraction finding none is unmatched. The
    predictions left are the negatives. The result depends on gold order."""
    bags = [word_counts(_bag(e)) for e in predicted]
    taken = [False] * len(predicted)
    positives = []
    for g in gold:
        words = _bag(g)
        for j, bag in enumerate(bags):
            if not taken[j] and _matches(words, bag):
                taken[j] = True
                positives.append(_finite(predicted[j].confidence))
                break
    negatives = tuple(_finite(e.confidence) for e, t in zip(predicted, taken, strict=True) if not t)
    return SentenceStats(len(gold), tuple(positives), negatives)


class CorpusStats(Record):
    #: Every gold sentence by :func:`sentence_key`, in gold order. A sentence without
    #: predictions has no samples and counts ``n * n`` gold extractions (``n_gold``).
    sentences: dict[str, SentenceStats]
    #: The gold's own number of extractions (without the ``n * n`` inflation).
    n_gold: int


def corpus_stats(gold: Extractions, predicted: Extractions) -> CorpusStats:
    """Every gold sentence's statistics; predictions of sentences outside the gold are
    ignored. ``compare`` adds a missed sentence's ``n`` to the gold total once per gold
    extraction, ``n * n`` in all, all of them unmatched (the rule upstream removed in July
    2019)."""
    gold_groups, predicted_groups = group(gold), group(predicted)
    sentences: dict[str, SentenceStats] = {}
    for key, exs in gold_groups.items():
        mine = predicted_groups.get(key)
        if mine is None:
            sentences[key] = SentenceStats(len(exs) * len(exs), (), ())
        else:
            sentences[key] = sentence_stats(exs, mine)
    return CorpusStats(sentences, sum(len(exs) for exs in gold_groups.values()))


# --------------------------------------------------------------------------- summaries


def published_auc(points: Sequence[CurvePoint]) -> float:
    """The AUC supervised-oie published: ``pr_plot.py`` reads the ``.dat`` file back (its
    rows, numbers rounded to 12 significant digits as written) and takes
    ``numpy.trapz(precision, x=recall)`` in the file's order, bit for bit. ``'%.12g' %``
    of it prints the published digits. 0.0 if nothing is matched (the recalls are NaN; the
    original gives NaN)."""
    rows = [(float(py2_str(p.precision)), float(py2_str(p.recall))) for p in dat_rows(points)]
    if any(r != r for _, r in rows):
        return 0.0
    return numpy_sum([(r1 - r0) * (p1 + p0) / 2.0 for (p0, r0), (p1, r1) in pairwise(rows)])


def logged_auc(points: Sequence[CurvePoint]) -> float:
    """The ``AUC:`` that ``benchmark.py`` logs: scikit-learn 0.18's ``auc(recall,
    precision)`` over the unrounded curve in scikit-learn's order (ascending threshold, the
    end point last), where recall never increases, so it is minus numpy's trapezoid. It
    differs from :func:`published_auc` in the order of points of equal recall and in the
    rounding. 0.0 if nothing is matched (the original logs NaN)."""
    if any(p.recall != p.recall for p in points):
        return 0.0
    terms = [(b.recall - a.recall) * (b.precision + a.precision) / 2.0 for a, b in pairwise(points)]
    return -numpy_sum(terms)


def f1(precision: float, recall: float) -> float:
    """``f_beta(precision, recall, beta=1)`` as numpy computes it: ``2 * (P * R) / (P +
    R)``, NaN where both are 0."""
    total = precision + recall
    return 2.0 * (precision * recall) / total if total != 0.0 else math.nan


def optimum(points: Sequence[CurvePoint]) -> CurvePoint | None:
    """``prCurve``'s optimum: the point of highest :func:`f1` among the curve's points
    without the end point, in scikit-learn's order (ascending threshold), the first of
    equal ones; a NaN F1 wins only where it comes first, as Python's ``max`` does. None if
    nothing is matched (the original logs its precision, NaN recall and F1)."""
    best: CurvePoint | None = None
    top = math.nan
    for p in points[:-1]:
        score = f1(p.precision, p.recall)
        if best is None or score > top:
            best, top = p, score
    return None if best is None or top != top else best


class Oie2016Score(Record):
    curve: list[CurvePoint]
    #: :func:`published_auc`.
    auc: float
    auc_logged: float
    best: CurvePoint | None
    #: The gold's extractions, and the count the recall divides by (``n * n`` rule).
    n_gold: int
    n_counted: int
    n_matched: int


def score(gold: Extractions, predicted: Extractions) -> Oie2016Score:
    """The score of ``predicted`` against ``gold`` (:func:`read_gold`'s model)."""
    stats = corpus_stats(gold, predicted)
    points = curve(stats.sentences.values())
    counted = sum(st.n_gold for st in stats.sentences.values())
    matched = sum(len(st.positives) for st in stats.sentences.values())
    return Oie2016Score(
        points,
        published_auc(points),
        logged_auc(points),
        optimum(points),
        stats.n_gold,
        counted,
        matched,
    )


def to_json(result: Oie2016Score) -> dict[str, object]:
    """The summary the command prints (exact values): the published AUC, the logged one,
    the logged optimum (precision, recall, F1 and its confidence threshold), the number of
    curve points, the gold's extractions, the gold count the recall divides by, and the gold
    extractions matched."""
    best = result.best
    return {
        "auc": result.auc,
        "auc_logged": result.auc_logged,
        "precision": best.precision if best else 0.0,
        "recall": best.recall if best else 0.0,
        "f1": f1(best.precision, best.recall) if best else 0.0,
        "confidence": best.confidence if best else None,
        "points": len(result.curve),
        "gold": result.n_gold,
        "gold_counted": result.n_counted,
        "matched": result.n_matched,
    }


USAGE = f"""usage: python -m benchie_cli.benchmarks.oie2016_2018.metric GOLD SYSTEM FORMAT [DAT]

OIE2016's score of SYSTEM (a system output in FORMAT: {", ".join(READERS)}) against GOLD
(a sentence<TAB>predicate<TAB>arguments file such as supervised-oie's test.oie.orig) as the
scorer of before July 2019 computes it, as JSON on standard output. DAT: also write the
precision-recall curve there, as benchmark.py writes it. Files ending in .gz are
decompressed."""


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see :data:`USAGE`); its exit status."""

    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) not in (3, 4) or args[2] not in READERS:
        print(USAGE, file=sys.stderr)
        return 2
    gold_path, system_path, fmt = args[:3]
    from benchie_cli.errors import BenchieError, failure_line

    try:
        gold = read_gold(read_lines(gold_path), gold_path)
        predicted = READERS[fmt](read_lines(system_path), system_path)
    except (BenchieError, OSError) as exc:
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
