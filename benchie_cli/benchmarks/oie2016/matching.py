"""OIE2016's matching: sentence keys, the lexical matcher, and each sentence's labelled
confidences (docs/oie2016.md). The curve and its summaries are
:mod:`benchie_cli.benchmarks.oie2016.metric`, which presents these names as its own.

This module is apart because it is where a run's time goes: a compiled build (mypyc,
docs/performance.md) compiles it, while ``metric`` stays Python so that ``python -m
benchie_cli.benchmarks.oie2016.metric`` runs in either build.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from benchie_cli.benchmarks.carb.matching import equal_pairs, sentence_key, word_counts, work
from benchie_cli.benchmarks.oie2016.data import WHITESPACE, Extraction, Extractions
from benchie_cli.benchmarks.oie2016.wordnet import lemmatize
from benchie_cli.disk_cache import clear_on_bypass
from benchie_cli.workers import ordered_map

# --------------------------------------------------------------------------- sentences


def group(extractions: Extractions) -> Extractions:
    """Extractions keyed by :func:`sentence_key` (the normalisation CaRB later took over
    from ``benchmark.py``: spaces removed, Penn Treebank bracket escapes undone, ASCII
    punctuation removed). When several texts share a key, the last one's extractions
    replace the earlier ones'. The original builds this mapping with ``dict()`` from a dict
    whose order under Python 2 is that of the hashes, so which text wins there is arbitrary
    but fixed; no published input has two such texts."""
    return {sentence_key(text): exs for text, exs in extractions.items()}


# --------------------------------------------------------------------------- matching

#: A gold extraction is matched if more than this share of its words occur in the
#: prediction (``Matcher.LEXICAL_THRESHOLD``).
LEXICAL_THRESHOLD = 0.25


class _Gold(NamedTuple):
    words: list[str]  # the bag of words, in order, with repeats
    predicate: frozenset[str]  # the lemmas of the predicate's words


class _Predicted(NamedTuple):
    counts: dict[str, int]  # how often each word occurs in the bag of words
    predicate: frozenset[str]


def _bag(e: Extraction) -> list[str]:
    """``Extraction.bow().split(' ')``: the relation and the arguments joined by spaces,
    split at single spaces, so an empty argument or a double space gives an empty word."""
    return " ".join((e.pred, *e.args)).split(" ")


@lru_cache(maxsize=1 << 16)
def _predicate_lemmas(pred: str) -> frozenset[str]:
    """The noun lemmas of the predicate's words (split at single spaces after stripping);
    memoised, since a corpus repeats its predicates."""
    return frozenset(map(lemmatize, pred.strip(WHITESPACE).split(" ")))


clear_on_bypass(_predicate_lemmas.cache_clear)  # (lemmas a memo may have given)


def _gold(e: Extraction) -> _Gold:
    return _Gold(_bag(e), _predicate_lemmas(e.pred))


def _predicted(e: Extraction) -> _Predicted:
    return _Predicted(word_counts(_bag(e)), _predicate_lemmas(e.pred))


def _matches(gold: _Gold, predicted: _Predicted) -> bool:
    if gold.predicate.isdisjoint(predicted.predicate):
        return False
    # The original counts the pairs (gold word, predicted word) of equal words. Case and
    # stopwords count as they are.
    return equal_pairs(gold.words, predicted.counts) / len(gold.words) > LEXICAL_THRESHOLD


def lexical_match(gold: Extraction, predicted: Extraction) -> bool:
    """``Matcher.lexicalMatch(gold, predicted)``: the predicates share a lemma (each word
    lemmatised as a noun) and the pairs of equal words of the two bags of words, over the
    gold's number of words, exceed :data:`LEXICAL_THRESHOLD`. Case-sensitive; stopwords
    count, although the call passes ``ignoreStopwords=True, ignoreCase=True``."""
    return _matches(_gold(gold), _predicted(predicted))


# --------------------------------------------------------------------------- one sentence


class SentenceStats(NamedTuple):
    """What one gold sentence adds to the corpus."""

    n_gold: int
    #: One confidence per matched gold extraction: that of the prediction it took.
    positives: tuple[float, ...]
    #: The confidences of the predictions no gold extraction took.
    negatives: tuple[float, ...]


def _stats(golds: Sequence[_Gold], predicted: Sequence[Extraction]) -> SentenceStats:
    prepared = [_predicted(e) for e in predicted]
    taken = [False] * len(predicted)
    positives = []
    for gold in golds:
        for j, candidate in enumerate(prepared):
            if _matches(gold, candidate):
                positives.append(predicted[j].confidence)
                taken[j] = True
                break
    negatives = tuple(e.confidence for e, t in zip(predicted, taken, strict=True) if not t)
    return SentenceStats(len(golds), tuple(positives), negatives)


def sentence_stats(gold: Sequence[Extraction], predicted: Sequence[Extraction]) -> SentenceStats:
    """One sentence's samples. Each gold extraction, in gold order, takes the first
    prediction in file order that matches it, even one another gold extraction took: a
    prediction may count as several positives, and a repeated prediction is never taken
    (its first copy always comes first), so it is a negative. Predictions no gold
    extraction took are the negatives."""
    if not predicted:  # (nothing to match: the gold's words need no preparing)
        return SentenceStats(len(gold), (), ())
    return _stats([_gold(g) for g in gold], predicted)


class CorpusStats(NamedTuple):
    #: Every gold sentence's statistics by :func:`sentence_key`, in gold order. A sentence
    #: without predictions has no samples; its gold extractions count as not found.
    sentences: dict[str, SentenceStats]


def _plain(stats: SentenceStats) -> tuple[int, tuple[float, ...], tuple[float, ...]]:
    """A sentence's statistics as a plain tuple, which :mod:`marshal` keeps."""
    return stats.n_gold, stats.positives, stats.negatives


def _rebuilt(plain: tuple[int, tuple[float, ...], tuple[float, ...]]) -> SentenceStats:
    """:func:`_plain` undone."""
    return SentenceStats(*plain)


def corpus_stats(gold: Extractions, predicted: Extractions) -> CorpusStats:
    """The statistics of every gold sentence. Predictions for sentences outside the gold
    are ignored entirely (unlike CaRB, their confidences add no threshold). Shared out to
    worker processes when the run allows them (:mod:`benchie_cli.workers`; the same
    statistics)."""
    gold_groups, predicted_groups = group(gold), group(predicted)
    keys = list(gold_groups)

    def one(key: str) -> SentenceStats:
        return sentence_stats(gold_groups[key], predicted_groups.get(key, ()))

    # The predicates' lemmas are looked up here, before any worker starts: a lemma a worker
    # looked up would not reach the memo this process keeps between runs.
    for key in keys:
        mine = predicted_groups.get(key)
        if mine:  # (sentence_stats prepares no gold tuple of a sentence without any)
            for e in (*gold_groups[key], *mine):
                _predicate_lemmas(e.pred)
    weights = work(gold_groups, predicted_groups, keys)
    stats = ordered_map(one, keys, weights=weights, plain=_plain, rebuilt=_rebuilt)
    return CorpusStats(dict(zip(keys, stats, strict=True)))
