"""DocOIE as ``score --benchmark docoie`` scores it (docs/docoie.md): its gold, the files
DocOIE publishes that the user adds (``registry.Published``), one split a domain
(``healthcare``, ``transportation``: the ``extractions.tsv`` its scorer reads) and the
released JSON gold of each (``healthcare-json``, ``transportation-json``); DocOIE's
``carb.py`` as the metric (:mod:`benchie_cli.benchmarks.docoie.metric`: CaRB's (s,m) with
its gold reader and its printout); CaRB's readers of system outputs, the tagged lines
DocOIE's model writes among them. The registry's entry names this module.
"""

from __future__ import annotations

from benchie_cli.benchmarks import corpus
from benchie_cli.benchmarks.carb.data import READERS, Extractions, text_lines
from benchie_cli.benchmarks.carb.metric import outside
from benchie_cli.benchmarks.corpus import Corpus, CorpusEntry, Scored
from benchie_cli.benchmarks.corpus import to_markdown as to_markdown
from benchie_cli.benchmarks.corpus import to_table as to_table
from benchie_cli.benchmarks.docoie import metric
from benchie_cli.benchmarks.runner import Runner
from benchie_cli.textio import decode_text

#: ``--input-format`` values read by the readers of DocOIE's ``carb.py`` (CaRB's, and
#: ``allennlp``: the tagged lines of its ``--allennlp``, which DocOIE's pipeline scores), and
#: the reader of each. ReVerb's lines number the sentences of an input file that is no part
#: of DocOIE's gold, and CaRB's Stanford format is read by benchie's reader for CaRB too:
#: both are read by benchie's readers and met by sentence text.
OWN_READERS = {
    "carb": "tabbed",
    "allennlp": "allennlp",
    "openie4": "openie4",
    "openie5": "openie5",
    "clausie": "clausie",
    "props": "props",
    "ollie": "ollie",
}

#: The published files' reader (``benchie benchmark add`` checks that it reads each file).
read_published = metric.read_published


def score_own(gold: Corpus, data: bytes, shown: str, fmt: str) -> Scored:
    """A file in a format DocOIE's scorer reads, read by that reader (the extractions of
    sentences outside the gold read for their confidences only, which are thresholds)."""
    read = READERS[OWN_READERS[fmt]]
    lines = text_lines(decode_text(data, shown))  # text mode's lines
    predicted = read(lines, shown, confidence_only=outside(gold.gold))
    return corpus.keyed_numbers(metric, gold, predicted, shown)


def _read_gold(shown: str, text: str) -> Extractions:
    """A gold file of DocOIE: the released JSON if its name ends in ``.json`` (a
    ``--gold-file`` too), else CaRB's gold TSV."""
    if shown.endswith(".json"):
        return metric.read_gold_json(shown, text)
    return metric.read_gold_tsv(shown, text)


read_gold = corpus.text_reader(_read_gold)

CORPUS = CorpusEntry(
    corpus.single_file_load("docoie", read_gold),
    read_gold,
    tuple(OWN_READERS),
    score_own,
    corpus.keyed_texts(metric),
)

RUNNER: Runner = corpus.CorpusRunner("docoie")
