"""CaRB's matching and what it yields: sentence keys, the per-sentence statistics of every
threshold and the corpus curve they add up to (docs/carb.md). The rest of the metric (the
area, the best point, the report's values and the command line) is
:mod:`benchie_cli.benchmarks.carb.metric`, which presents these names as its own.

This module is apart because it is where a run's time goes: a compiled build (mypyc,
docs/performance.md) compiles it and the readers of :mod:`benchie_cli.benchmarks.carb.data`
into C from this very source, while ``metric`` stays Python so that ``python -m
benchie_cli.benchmarks.carb.metric`` runs in either build. Its code is therefore plain
typed Python that gives the same floats compiled and not: sums of floats are formed by
explicit additions in a fixed order, never by ``sum()``, which Python 3.12 compensates
and a compiled loop would not.
"""

from __future__ import annotations

import re
from bisect import bisect_left, insort
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache, reduce
from itertools import accumulate, repeat
from operator import add, itemgetter
from typing import NamedTuple

from benchie_cli.benchmarks.carb.data import ConfidenceOnly, Extraction, Extractions
from benchie_cli.workers import ordered_map

# --------------------------------------------------------------------------- sentences

#: Penn Treebank bracket escapes, in the order CaRB (and oie-benchmark before it) undoes them.
PTB_ESCAPES = (
    ("(", "-LRB-"),
    (")", "-RRB-"),
    ("[", "-LSB-"),
    ("]", "-RSB-"),
    ("{", "-LCB-"),
    ("}", "-RCB-"),
)
#: ``string.punctuation``, written out: importing :mod:`string` compiles ``string.Template``'s
#: pattern, half a millisecond of every run (a test checks that both are the same).
PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
_PUNCTUATION = PUNCTUATION.encode()


@lru_cache(maxsize=1 << 16)
def sentence_key(text: str) -> str:
    """The form under which CaRB compares sentence texts: spaces removed, Penn Treebank
    bracket escapes undone, then ASCII punctuation removed. Tokenisation and bracket
    escaping thus do not matter; case and other whitespace (tabs) do.

    The punctuation is deleted from the UTF-8 bytes, which is exact (no byte of a multi-byte
    character is ASCII) and several times faster than ``str.translate``. Memoised: the
    benchmarks that share this key (OIE2016, Re-OIE2016, the suite) key the same texts
    several times."""
    key = text.replace(" ", "")
    if "-" in key:  # every escape has one; most sentences have none
        for char, escape in PTB_ESCAPES:
            key = key.replace(escape, char)
    return (
        key.encode("utf-8", "surrogatepass")
        .translate(None, _PUNCTUATION)
        .decode("utf-8", "surrogatepass")
    )


def group(extractions: Extractions) -> Extractions:
    """Extractions keyed by :func:`sentence_key`. When several texts share a key, the last
    one's extractions replace the earlier ones' (at the first one's position), as in CaRB,
    which builds this mapping with ``dict()``: such extractions are not scored at all."""
    return {sentence_key(text): exs for text, exs in extractions.items()}


def outside(gold: Extractions) -> ConfidenceOnly:
    """Whether a sentence text is outside ``gold``: a system reader's ``confidence_only``
    (:mod:`benchie_cli.benchmarks.carb.data`), since CaRB uses such sentences' confidences only."""
    keys = set(group(gold))
    return lambda text: sentence_key(text) not in keys


def dropped_texts(extractions: Mapping[str, object]) -> list[str]:
    """The sentence texts whose extractions a grouping by :func:`sentence_key` drops, in
    order: every text but the last of those sharing a key (``"a ,"`` and ``"a,"``, say), as
    the originals' ``dict()`` keeps the last. The benchmarks keyed so (OIE2016, Re-OIE2016)
    drop them too; this only makes the drop visible."""
    last = {sentence_key(text): text for text in extractions}
    return [text for text in extractions if last[sentence_key(text)] != text]


def collisions(extractions: Mapping[str, object]) -> int:
    """How many sentence texts lose their extractions to another text with the same
    :func:`sentence_key` (:func:`dropped_texts`): the number of texts minus the number of
    keys. 0 when no two texts collide."""
    return len(extractions) - len({sentence_key(text) for text in extractions})


# --------------------------------------------------------------------------- matching

Counts = dict[str, int]

#: The predicate words a spare predicted "be" may stand for.
_BE_FORMS = frozenset(("be", "is", "am", "are", "was", "were", "been", "being"))
#: Substrings of a gold relation that make it "said-type": its arguments may come reversed.
_SAID = re.compile("said|told|added|adds|says")
_NO_MATCH = (0.0, 0.0)
_CONFIDENCE = itemgetter(2)  # of an Extraction, by position: faster than the attribute


def word_counts(words: list[str]) -> Counts:
    """How often each word occurs; built in C (``dict.fromkeys``) when no word repeats, as
    in most slots: every tuple of a corpus is prepared once, and this is most of it (the
    OIE2016 family's matchers count a bag of words so too)."""
    counts = dict.fromkeys(words, 1)
    if len(counts) < len(words):
        counts = {}
        for w in words:
            counts[w] = counts.get(w, 0) + 1
    return counts


#: The default of every count look-up in :func:`equal_pairs` (endless zeros: never used up).
_ZEROS = repeat(0)


def equal_pairs(words: Sequence[str], counts: Counts) -> int:
    """The pairs (word of ``words``, word counted in ``counts``) of equal words: a word twice
    in each makes four. The OIE2016 family's lexical match; looked up by ``map`` in C, as it
    runs for every pair of extractions compared."""
    return sum(map(counts.get, words, _ZEROS))


def _overlap(a: Counts, b: Counts) -> int:
    """Words in common, with multiplicity: what CaRB's loop "for each gold word found among
    the predicted words, count it and remove it there" counts."""
    if len(a) > len(b):
        a, b = b, a
    n = 0
    for word, k in a.items():
        other = b.get(word)
        if other:
            n += k if k < other else other
    return n


def _binarized(args: Sequence[str]) -> list[list[str]]:
    """The words of CaRB's binary form of an argument list: the first argument, and all the
    others joined into one (argument lists of length 0 or 1 stay as they are)."""
    if len(args) >= 2:
        return [args[0].split(), " ".join(args[1:]).split()]
    return [a.split() for a in args]


def _lowered(words: list[str]) -> list[str]:
    """The words lowercased one by one, as moie's matcher compares them."""
    # str.lower by reference, not ``w.lower()``: a compiled build (mypyc 2.4 on Python 3.11
    # and 3.12) would lower such a call character by character, without Python's rule for a
    # word-final capital sigma ("ΟΔΟΣ" gave "οδοσ", not "οδος"), and match otherwise.
    return list(map(str.lower, words))


class _Gold:
    """A gold tuple's words, prepared once for matching against every prediction;
    ``lower``: compared lowercased (moie's rule), the said-type test on the relation as
    written."""

    __slots__ = ("args", "be", "be_form", "pred", "said", "size")

    def __init__(self, extraction: Extraction, lower: bool = False) -> None:
        words = extraction.pred.split()
        args = _binarized(extraction.args)
        if lower:
            words = _lowered(words)
            args = [_lowered(a) for a in args]
        self.pred = word_counts(words)
        self.be = self.pred.get("be", 0)
        self.be_form = not _BE_FORMS.isdisjoint(words)
        self.args = [word_counts(a) for a in args]
        #: The recall denominator: all words of the relation and the binary arguments.
        self.size = len(words) + sum(map(len, args))
        self.said = _SAID.search(extraction.pred) is not None


Arguments = list[tuple[Counts, int]]


class _Predicted:
    """A predicted tuple's words; ``reverse`` is its arguments swapped (the joined rest
    first), used against said-type gold tuples, None when it has fewer than two;
    ``lower``: compared lowercased (moie's rule)."""

    __slots__ = ("args", "be", "pred", "reverse", "size")

    def __init__(self, extraction: Extraction, lower: bool = False) -> None:
        words = extraction.pred.split()
        args = _binarized(extraction.args)
        if lower:
            words = _lowered(words)
            args = [_lowered(a) for a in args]
        self.pred = word_counts(words)
        self.size = len(words)
        self.be = self.pred.get("be", 0)
        self.args: Arguments = [(word_counts(a), len(a)) for a in args]
        self.reverse = self.args[::-1] if len(self.args) == 2 else None


def _lenient(gold: _Gold, pred: _Predicted, args: Arguments) -> tuple[float, float]:
    """CaRB's ``linient_tuple_match`` of the binary forms: (precision, recall).

    No match (0, 0) unless the relations share a word (a predicted "be" left over also
    matches any form of "be" in the gold relation) and the prediction has as many binary
    arguments as the gold tuple. Otherwise the words matched in the relation and in each
    argument, position by position, over the prediction's words (precision) and the gold
    tuple's (recall). Neither denominator can be zero once a word matched. Case matters,
    unless the words were lowercased when prepared (moie's rule).
    """
    matched = _overlap(gold.pred, pred.pred)
    if pred.be > gold.be and gold.be_form:
        matched += 1
    if not matched or len(args) < len(gold.args):
        return _NO_MATCH
    size = pred.size
    for gold_counts, (counts, n) in zip(gold.args, args, strict=False):
        matched += _overlap(gold_counts, counts)
        size += n
    return (matched / size, matched / gold.size)


def _score(gold: _Gold, pred: _Predicted) -> tuple[float, float]:
    """CaRB's ``binary_linient_tuple_match``: against a said-type gold tuple the better of
    the straight and the reversed argument order, better meaning higher precision, then
    higher recall (Python's ``max`` of two lists)."""
    straight = _lenient(gold, pred, pred.args)
    if gold.said and pred.reverse is not None:
        return max(straight, _lenient(gold, pred, pred.reverse))
    return straight


def match(gold: Extraction, predicted: Extraction, *, moie: bool = False) -> tuple[float, float]:
    """The (precision, recall) of ``predicted`` against ``gold`` under CaRB's default match
    (``moie``: with moie's lowercasing)."""
    return _score(_Gold(gold, moie), _Predicted(predicted, moie))


# --------------------------------------------------------------------------- per sentence


class Level(NamedTuple):
    """A sentence's statistics at one threshold, for its predictions whose confidence is at
    least ``confidence``."""

    confidence: float
    #: Sum of the precisions of CaRB's greedy one-to-one matching of gold and predictions.
    precision_sum: float
    n_predicted: int
    #: Sum over the gold tuples of the best recall any of these predictions reaches; in the
    #: single-match variant, the sum of the recalls of a second greedy one-to-one matching,
    #: by recall.
    recall_sum: float


class SentenceStats(NamedTuple):
    """Everything CaRB's curve needs of one sentence. Between two of its levels a sentence
    keeps the values of the higher (the next confidence up); above the highest it adds
    nothing but ``n_gold``."""

    n_gold: int
    #: In descending order of confidence, one per distinct confidence of the predictions.
    levels: tuple[Level, ...]


def _greedy(pairs: list[tuple[float, int, int]], limit: int) -> float:
    """The score sum of CaRB's matching: repeatedly take the pair of highest score (precision,
    or recall in the single-match variant's second matching) whose gold tuple and prediction
    are both still free, the first in (gold, prediction) order on ties, ``limit`` times.
    Taking pairs in sorted order and skipping used ones picks the same pairs; pairs of score 0
    add nothing, so only positive ones are listed. The sum is formed in the order CaRB forms
    it."""
    rows: set[int] = set()
    cols: set[int] = set()
    total = 0.0
    for negative, i, j in pairs:
        if i in rows or j in cols:
            continue
        rows.add(i)
        cols.add(j)
        total += -negative
        if len(rows) == limit:
            break
    return total


Column = list[tuple[int, float, float]]


def _columns(
    golds: Sequence[_Gold], predicted: Sequence[Extraction], lower: bool = False
) -> list[Column]:
    """Column j: the gold tuples prediction j matches, (i, precision, recall); only pairs of
    positive precision, which are those of positive recall. Predictions with the same
    relation and arguments are compared once. ``lower``: as the gold tuples were prepared."""
    cache: dict[tuple[str, tuple[str, ...]], Column] = {}
    columns = []
    for e in predicted:
        key = (e.pred, e.args)
        column = cache.get(key)
        if column is None:
            prepared = _Predicted(e, lower)
            words, be, arity = prepared.pred.keys(), prepared.be, len(prepared.args)
            # Most pairs share no relation word: they are passed over here, on the same
            # conditions as _lenient's for no match (no word in common and no spare "be",
            # or too few arguments), without its calls; any other pair matches.
            column = cache[key] = [
                (i, *_score(gold, prepared))
                for i, gold in enumerate(golds)
                if (not words.isdisjoint(gold.pred) or (be > gold.be and gold.be_form))
                and arity >= len(gold.args)
            ]
        columns.append(column)
    return columns


def _stats(
    golds: Sequence[_Gold],
    predicted: Sequence[Extraction],
    columns: list[Column] | None = None,
    lower: bool = False,
) -> SentenceStats:
    """One sentence's statistics under CaRB (s,m); ``columns``: :func:`_columns` of the same
    tuples, when the caller computed them (both variants share them); ``lower``: as the gold
    tuples were prepared."""
    confidences = sorted({e.confidence for e in predicted}, reverse=True)
    columns = _columns(golds, predicted, lower) if columns is None else columns
    by_confidence: dict[float, list[int]] = {}
    for j, e in enumerate(predicted):
        by_confidence.setdefault(e.confidence, []).append(j)
    best = [0.0] * len(golds)  # best recall of each gold tuple so far
    pairs: list[tuple[float, int, int]] = []  # (-precision, i, j): greedy order
    precision_sum = recall_sum = 0.0
    n_predicted = 0
    levels = []
    new = tuple.__new__  # a NamedTuple's constructor is a Python-level call
    for c in confidences:
        admitted = by_confidence[c]
        n_predicted += len(admitted)
        # A prediction matching nothing changes neither sum: its pairs are all (0, 0), and
        # the positive pairs never outnumber the predictions admitted before it.
        if any(columns[j] for j in admitted):
            for j in admitted:
                for i, precision, recall in columns[j]:
                    insort(pairs, (-precision, i, j))
                    if recall > best[i]:
                        best[i] = recall
            precision_sum = _greedy(pairs, min(len(golds), n_predicted))
            recall_sum = reduce(add, best, 0.0)  # not sum(): Python 3.12 compensates floats
        levels.append(new(Level, (c, precision_sum, n_predicted, recall_sum)))
    return SentenceStats(len(golds), tuple(levels))


def _stats_single(
    golds: Sequence[_Gold],
    predicted: Sequence[Extraction],
    columns: list[Column] | None = None,
    lower: bool = False,
) -> SentenceStats:
    """:func:`_stats` of the single-match variant: the recall sum too comes from a greedy
    one-to-one matching, by recall, made independently of the one by precision."""
    confidences = sorted({e.confidence for e in predicted}, reverse=True)
    columns = _columns(golds, predicted, lower) if columns is None else columns
    by_confidence: dict[float, list[int]] = {}
    for j, e in enumerate(predicted):
        by_confidence.setdefault(e.confidence, []).append(j)
    by_precision: list[tuple[float, int, int]] = []  # (-precision, i, j): greedy order
    by_recall: list[tuple[float, int, int]] = []  # (-recall, i, j)
    precision_sum = recall_sum = 0.0
    n_predicted = 0
    levels = []
    new = tuple.__new__
    for c in confidences:
        admitted = by_confidence[c]
        n_predicted += len(admitted)
        if any(columns[j] for j in admitted):  # (as in _stats, for both matchings)
            for j in admitted:
                for i, precision, recall in columns[j]:
                    insort(by_precision, (-precision, i, j))
                    insort(by_recall, (-recall, i, j))
            limit = min(len(golds), n_predicted)
            precision_sum = _greedy(by_precision, limit)
            recall_sum = _greedy(by_recall, limit)
        levels.append(new(Level, (c, precision_sum, n_predicted, recall_sum)))
    return SentenceStats(len(golds), tuple(levels))


def sentence_stats(
    gold: Sequence[Extraction],
    predicted: Sequence[Extraction],
    *,
    single: bool = False,
    moie: bool = False,
) -> SentenceStats:
    """One gold sentence's statistics: its gold tuples in gold order, its predictions in file
    order (both orders decide ties of CaRB's greedy matchings). ``single``: OpenIE6's
    single-match variant, CaRB (s,s) (``carb.py --single_match``; see the module's
    docstring), whose recall sum is that of a greedy one-to-one matching by recall.
    ``moie``: words compared lowercased, as moie's scorer compares them."""
    if not predicted:  # (no level: the gold's words need no preparing)
        return SentenceStats(len(gold), ())
    stats = _stats_single if single else _stats
    return stats([_Gold(g, moie) for g in gold], predicted, None, moie)


class CorpusStats(NamedTuple):
    #: Every gold sentence's statistics by :func:`sentence_key`, in gold order (the order in
    #: which CaRB adds them up).
    sentences: dict[str, SentenceStats]
    #: The confidences of the predictions for sentences absent from the gold. CaRB ignores
    #: these predictions, except that their confidences are thresholds of the curve too.
    outside: set[float]


def work(gold: Extractions, predicted: Extractions, keys: Iterable[str]) -> list[int]:
    """Each gold sentence's statistics' cost (``keys``, as :func:`group` keys them), in
    pairs of tuples compared, for sharing them out (:func:`benchie_cli.workers.ordered_map`;
    OIE2016's matcher compares as many)."""
    return [len(predicted.get(key, ())) * (len(gold[key]) + 1) for key in keys]


def _outside(gold: Extractions, predicted: Extractions) -> set[float]:
    """The confidences of the predictions for sentences absent from the gold (both grouped
    by :func:`group`): thresholds of the curve too (:class:`CorpusStats`)."""
    outside: set[float] = set()
    for key, exs in predicted.items():
        if key not in gold:
            outside.update(map(_CONFIDENCE, exs))
    return outside


#: :class:`SentenceStats` made of plain tuples, which :mod:`marshal` keeps.
PlainStats = tuple[int, tuple[tuple[float, float, int, float], ...]]


def _plain(stats: SentenceStats) -> PlainStats:
    """A sentence's statistics as plain tuples (:data:`PlainStats`)."""
    return stats.n_gold, tuple([(c, p, n, r) for c, p, n, r in stats.levels])


def _rebuilt(plain: PlainStats) -> SentenceStats:
    """:func:`_plain` undone."""
    n_gold, levels = plain
    new = tuple.__new__
    return SentenceStats(n_gold, tuple([new(Level, level) for level in levels]))


def corpus_stats(
    gold: Extractions, predicted: Extractions, *, single: bool = False, moie: bool = False
) -> CorpusStats:
    """The statistics :func:`curve` adds up, with predictions grouped as :func:`group` does;
    ``single`` and ``moie`` as for :func:`sentence_stats`. Shared out to worker processes
    when the run allows them (:mod:`benchie_cli.workers`; the same statistics)."""
    gold_groups, predicted_groups = group(gold), group(predicted)
    keys = list(gold_groups)

    def one(key: str) -> SentenceStats:
        return sentence_stats(
            gold_groups[key], predicted_groups.get(key, ()), single=single, moie=moie
        )

    weights = work(gold_groups, predicted_groups, keys)
    stats = ordered_map(one, keys, weights=weights, plain=_plain, rebuilt=_rebuilt)
    outside = _outside(gold_groups, predicted_groups)
    return CorpusStats(dict(zip(keys, stats, strict=True)), outside)


def corpus_stats_both(
    gold: Extractions, predicted: Extractions, *, moie: bool = False
) -> tuple[CorpusStats, CorpusStats]:
    """:func:`corpus_stats` of (s,m) and of (s,s) at once: each pair of tuples is compared
    once for both (the statistics are those each computes alone); ``moie`` as for
    :func:`sentence_stats`."""
    gold_groups, predicted_groups = group(gold), group(predicted)
    keys = list(gold_groups)

    def both(key: str) -> tuple[SentenceStats, SentenceStats]:
        exs, mine = gold_groups[key], predicted_groups.get(key, ())
        if not mine:  # (as in sentence_stats)
            empty = SentenceStats(len(exs), ())
            return empty, empty
        golds = [_Gold(g, moie) for g in exs]
        columns = _columns(golds, mine, moie)
        return _stats(golds, mine, columns), _stats_single(golds, mine, columns)

    def plain(pair: tuple[SentenceStats, SentenceStats]) -> tuple[PlainStats, PlainStats]:
        return _plain(pair[0]), _plain(pair[1])

    def rebuilt(plain: tuple[PlainStats, PlainStats]) -> tuple[SentenceStats, SentenceStats]:
        return _rebuilt(plain[0]), _rebuilt(plain[1])

    weights = work(gold_groups, predicted_groups, keys)
    pairs = ordered_map(both, keys, weights=weights, plain=plain, rebuilt=rebuilt)
    outside = _outside(gold_groups, predicted_groups)
    default = {key: pair[0] for key, pair in zip(keys, pairs, strict=True)}
    single = {key: pair[1] for key, pair in zip(keys, pairs, strict=True)}
    return CorpusStats(default, outside), CorpusStats(single, outside)


# --------------------------------------------------------------------------- corpus


class CurvePoint(NamedTuple):
    """The corpus at one threshold: the predictions with confidence >= ``confidence``."""

    confidence: float
    #: ``precision_sum / n_predicted``, 1 when nothing is predicted at this threshold.
    precision: float
    #: ``recall_sum / n_gold``, 0 when the gold is empty.
    recall: float
    precision_sum: float
    n_predicted: int
    recall_sum: float
    n_gold: int


def curve(stats: Iterable[SentenceStats], outside: Iterable[float] = ()) -> list[CurvePoint]:
    """The precision-recall curve, one point per distinct confidence of the sentences'
    levels and of ``outside`` (see :class:`CorpusStats`), in ascending order.

    The sums at a threshold add the sentences' values in the order given, as CaRB adds them
    (pass the sentences in gold order to reproduce CaRB bit for bit). Adding 0.0 changes no
    sum, so only the sentences with a non-zero numerator so far take part. The thresholds are
    visited from the highest down; at each, only the sentences with a level there change,
    and the running sums are recomputed from the first changed sentence on. A pair of
    numerators travels as one complex number, whose parts add exactly like two floats.
    """
    # At each confidence: how many predictions it admits, and which sentences' numerators
    # change to what (a sentence by its position in the order given).
    admitted: dict[float, int] = {}
    changes: dict[float, list[tuple[int, complex]]] = {}
    n_gold = 0
    for position, st in enumerate(stats):
        n_gold += st.n_gold
        previous, before = 0j, 0
        for c, precision_sum, n_predicted, recall_sum in st.levels:
            admitted[c] = admitted.get(c, 0) + n_predicted - before
            before = n_predicted
            value = complex(precision_sum, recall_sum)
            if value != previous:
                changes.setdefault(c, []).append((position, value))
                previous = value
    thresholds = set(outside)
    thresholds.update(admitted)
    taking_part: list[int] = []  # positions of the sentences in the sums, in order
    values: list[complex] = []  # their numerators
    running: list[complex] = []  # running[k]: the sum of values[0..k], added left to right
    n_predicted = 0
    # A point's fields after its confidence; they change only where some gold sentence has
    # a level, while most thresholds may come from sentences outside the gold.
    rest = (1.0, 0.0, 0.0, 0, 0.0, n_gold)
    points: list[CurvePoint] = []
    append = points.append
    new = tuple.__new__  # a NamedTuple's constructor is a Python-level call; there may be 10^5
    admitted_at, changes_at = admitted.get, changes.get  # (bound once: 10^5 look-ups)
    precision_sum, recall, recall_sum = 0.0, 0.0, 0.0
    for c in sorted(thresholds, reverse=True):
        admits = admitted_at(c)
        if admits is not None:
            n_predicted += admits
            changed = changes_at(c)
            if changed is not None:  # (most thresholds change only n_predicted)
                for position, value in changed:
                    k = bisect_left(taking_part, position)
                    if k == len(taking_part) or taking_part[k] != position:
                        taking_part.insert(k, position)
                        values.insert(k, value)
                        running.insert(k, 0j)
                    else:
                        values[k] = value
                first = bisect_left(taking_part, min(position for position, _ in changed))
                sums = accumulate(values[first:], initial=running[first - 1] if first else 0j)
                next(sums)
                running[first:] = sums
                total = running[-1]
                precision_sum, recall_sum = total.real, total.imag
                recall = recall_sum / n_gold if n_gold else 0.0
            precision = precision_sum / n_predicted if n_predicted else 1.0
            rest = (precision, recall, precision_sum, n_predicted, recall_sum, n_gold)
        append(new(CurvePoint, (c, *rest)))
    points.reverse()
    return points
