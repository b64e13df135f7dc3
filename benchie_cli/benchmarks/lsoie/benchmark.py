"""LSOIE as ``score --benchmark lsoie`` scores it (docs/lsoie.md): its two test splits,
``wiki`` and ``sci``, each the published gold with syntactic heads
(``*.oie.correct.head``) that the user adds (``registry.Published``); its systems' tab
format (CaRB's); the metric that made LSOIE's published curves
(:mod:`benchie_cli.benchmarks.lsoie.metric`). The registry's entry names this module.
"""

from __future__ import annotations

from benchie_cli.benchmarks import corpus
from benchie_cli.benchmarks.corpus import Corpus, CorpusEntry, Scored
from benchie_cli.benchmarks.corpus import to_markdown as to_markdown
from benchie_cli.benchmarks.corpus import to_table as to_table
from benchie_cli.benchmarks.lsoie import metric
from benchie_cli.benchmarks.oie2016.data import split_lines
from benchie_cli.benchmarks.runner import Runner

#: The published file's reader (``benchie benchmark add`` checks that it reads the file).
read_published = metric.read_gold_file


def read_gold(shown: str, data: bytes) -> metric.Gold:
    """A gold file with heads (or a plain ``.oie`` file, matched on predicate and arity
    only), from the bytes that were hashed."""
    return metric.read_gold(split_lines(data), shown)


def score_own(gold: Corpus, data: bytes, shown: str, fmt: str) -> Scored:
    """A file in LSOIE's own system format (the tab format: sentence, confidence,
    predicate, arguments), read as its scorer's ``TabReader`` reads it."""
    predicted = metric.read_system(split_lines(data), shown)
    return corpus.keyed_numbers(metric, gold, predicted, shown)


CORPUS = CorpusEntry(
    corpus.single_file_load("lsoie", read_gold),
    read_gold,
    ("carb",),
    score_own,
    corpus.keyed_texts(metric),
)

RUNNER: Runner = corpus.CorpusRunner("lsoie")
