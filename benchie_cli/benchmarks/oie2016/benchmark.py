"""OIE2016 as ``score --benchmark oie2016`` scores it (docs/oie2016.md): its corpus in the
store (``gold/oie2016/<version>/``, splits dev, train and test, and ``all``), the formats
oie-benchmark's readers read (:mod:`benchie_cli.benchmarks.oie2016.data`), and its lexical
metric (:mod:`benchie_cli.benchmarks.oie2016.metric`). The registry's entry names this
module.
"""

from __future__ import annotations

from benchie_cli.benchmarks import corpus
from benchie_cli.benchmarks.corpus import Corpus, CorpusEntry, Scored
from benchie_cli.benchmarks.corpus import to_markdown as to_markdown
from benchie_cli.benchmarks.corpus import to_table as to_table
from benchie_cli.benchmarks.oie2016 import data, metric
from benchie_cli.benchmarks.runner import Runner
from benchie_cli.errors import BenchieError
from benchie_cli.gold.store import GoldStore


def load(gold_store: GoldStore, version: str, split: str) -> Corpus:
    """The split's gold (``all``: dev, train and test, as upstream's ``all.oie``) and the
    corpus's input sentences (ReVerb's output numbers them)."""
    splits = ("dev", "train", "test") if split == "all" else (split,)
    files = tuple(gold_store.listed(version, "gold", s) for s in splits)
    gold: data.Extractions = {}
    for f in files:
        part = data.read_gold(data.split_lines(f.data), f.display_path)
        for text, extractions in part.items():
            gold.setdefault(text, []).extend(extractions)
    raw = gold_store.listed(version, "sentences", "all")
    sentences = tuple(line.strip(data.WHITESPACE) for line in data.split_lines(raw.data))
    return Corpus("oie2016", version, split, files, gold, sentences)


#: Input formats (``--input-format``) oie-benchmark's readers read, and the reader of each.
FORMATS = {
    "clausie": "clausie",
    "openie4": "openie4",
    "props": "props",
    "reverb": "reverb",
    "ollie": "ollie",
    "stanford": "stanford",
    "carb": "tabbed",
}


def score_own(gold: Corpus, raw: bytes, shown: str, fmt: str) -> Scored:
    """A file in one of the formats oie-benchmark reads, by its reader. ReVerb's lines
    name their sentence by number: one that names another sentence than its own is said."""
    reader = FORMATS[fmt]
    lines = data.split_lines(raw)
    if reader != "reverb":
        return corpus.keyed_numbers(metric, gold, data.READERS[reader](lines, shown), shown)
    if not gold.sentences:
        raise BenchieError(
            "ReVerb's output names each sentence by its line in OIE2016's sentences.txt, "
            "which a --gold-file does not have: give each line its sentence's text (another "
            "format) or score against the store's gold",
            path=shown,
        )
    predicted = data.read_reverb(lines, shown, sentences=gold.sentences)
    scored = corpus.keyed_numbers(metric, gold, predicted, shown)
    wrong, checked = data.reverb_mismatches(data.split_lines(raw), gold.sentences)
    if wrong:
        return scored._replace(
            warnings=(
                *scored.warnings,
                f"{wrong:,} of its {checked:,} lines name by number (column 2) a sentence of "
                "sentences.txt other than their own (column 13): oie-benchmark's reader takes "
                "the number, as here, so they are scored against other sentences (its "
                "published ReVerb curve has the same fault); were its numbers for another "
                "input file?",
            )
        )
    return scored


def read_gold(shown: str, raw: bytes) -> data.Extractions:
    """A gold file in OIE2016's ``.oie`` format (``--gold-file``)."""
    return data.read_gold(data.split_lines(raw), shown)


CORPUS = CorpusEntry(load, read_gold, tuple(FORMATS), score_own, corpus.keyed_texts(metric))

RUNNER: Runner = corpus.CorpusRunner("oie2016")
