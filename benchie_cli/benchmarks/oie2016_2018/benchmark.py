"""OIE2016 as its scorer scored before July 2019, ``score --benchmark oie2016-2018``
(docs/oie2016-2018.md): supervised-oie's test gold (``gold/oie2016-2018/<version>/``, split
test), the formats the readers of the time read, and the metric of
:mod:`benchie_cli.benchmarks.oie2016_2018.metric`. The registry's entry names this module.
"""

from __future__ import annotations

from benchie_cli.benchmarks import corpus
from benchie_cli.benchmarks.corpus import CorpusEntry, Scored
from benchie_cli.benchmarks.corpus import to_markdown as to_markdown
from benchie_cli.benchmarks.corpus import to_table as to_table
from benchie_cli.benchmarks.oie2016.data import Extractions, split_lines
from benchie_cli.benchmarks.oie2016_2018 import metric
from benchie_cli.benchmarks.runner import Runner

#: Input formats (``--input-format``) the scorer's readers read, and the reader of each.
FORMATS = {
    "clausie": "clausie",
    "openie4": "openie4",
    "props": "props",
    "ollie": "ollie",
    "stanford": "stanford",
    "carb": "tabbed",
}


def score_own(gold: corpus.Corpus, raw: bytes, shown: str, fmt: str) -> Scored:
    """A file in one of the formats the scorer reads, by its reader."""
    predicted = metric.READERS[FORMATS[fmt]](split_lines(raw), shown)
    return corpus.keyed_numbers(metric, gold, predicted, shown)


def read_gold(shown: str, raw: bytes) -> Extractions:
    """A gold file in the format of the time, ``sentence, predicate, arguments...``
    (``--gold-file``)."""
    return metric.read_gold(split_lines(raw), shown)


CORPUS = CorpusEntry(
    corpus.single_file_load("oie2016-2018", read_gold),
    read_gold,
    tuple(FORMATS),
    score_own,
    corpus.keyed_texts(metric),
)

RUNNER: Runner = corpus.CorpusRunner("oie2016-2018")
