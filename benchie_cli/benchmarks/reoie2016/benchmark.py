"""Re-OIE2016 as ``score --benchmark reoie2016`` scores it (docs/reoie2016.md): its gold,
the published ``Re-OIE2016.json`` the user adds (``registry.Published``), read by Span_OIE's
reader rules; its own system format, CaRB's tab format; Span_OIE's metric
(:mod:`benchie_cli.benchmarks.reoie2016.metric`). The registry's entry names this module.
"""

from __future__ import annotations

from benchie_cli.benchmarks import corpus
from benchie_cli.benchmarks.corpus import Corpus, CorpusEntry, Scored
from benchie_cli.benchmarks.corpus import to_markdown as to_markdown
from benchie_cli.benchmarks.corpus import to_table as to_table
from benchie_cli.benchmarks.reoie2016 import metric
from benchie_cli.benchmarks.runner import Runner
from benchie_cli.textio import decode_text

#: The published file's reader (``benchie benchmark add`` checks that it reads the file).
read_published = metric.read_gold_json


def score_own(gold: Corpus, data: bytes, shown: str, fmt: str) -> Scored:
    """A file in Re-OIE2016's own system format (CaRB's tab format), read as Span_OIE
    reads it (lines of fewer than four columns skipped: :func:`corpus.score_file` says how
    many lines gave no extraction, as for every one-extraction-a-line format)."""
    try:
        predicted = metric.read_system(shown, decode_text(data, shown))
    except ValueError as exc:
        raise corpus.located(exc) from None
    return corpus.keyed_numbers(metric, gold, predicted, shown)


#: The store's gold (Re-OIE2016's JSON) or a ``--gold-file`` in either of the scorer's formats.
read_gold = corpus.text_reader(metric.read_gold_content)

CORPUS = CorpusEntry(
    corpus.single_file_load("reoie2016", read_gold),
    read_gold,
    ("carb",),
    score_own,
    corpus.keyed_texts(metric),
)

RUNNER: Runner = corpus.CorpusRunner("reoie2016")
