"""WiRe57 as ``score --benchmark wire57`` scores it (docs/wire57.md): its reference, the
published ``WiRe57_343-manual-oie.json`` the user adds (``registry.Published``); its systems'
export (JSON, several systems in one file, a run each), or a tab-keyed file whose lines find
their sentence by text; WiRe57's metric (:mod:`benchie_cli.benchmarks.wire57.metric`). The
registry's entry names this module.
"""

from __future__ import annotations

import json

from benchie_cli.benchmarks import corpus
from benchie_cli.benchmarks.carb.metric import sentence_key
from benchie_cli.benchmarks.corpus import Corpus, CorpusEntry, Run, Scored, TextExtractions
from benchie_cli.benchmarks.corpus import to_markdown as to_markdown
from benchie_cli.benchmarks.corpus import to_table as to_table
from benchie_cli.benchmarks.runner import Runner
from benchie_cli.benchmarks.wire57 import metric
from benchie_cli.errors import BenchieError, printable_path
from benchie_cli.inputs.submission import FileFacts
from benchie_cli.textio import decode_text

#: The published file's reader (``benchie benchmark add`` checks that it reads the file).
read_published = metric.read_reference


def score_export(gold: Corpus, raw: bytes, shown: str, name: str, facts: FileFacts) -> list[Run]:
    """Every system of a WiRe57 export, a run each (``NAME/system`` when several)."""
    text = decode_text(raw, shown)
    if '"words_indexes"' in text[: 1 << 16]:  # the reference's parts, which no export has
        raise BenchieError(
            "this is WiRe57's reference (the gold), not a systems' export: add it with "
            "`benchie benchmark add wire57 FILE`, then score an export",
            path=shown,
        )
    try:
        export = metric.read_export(shown, text)
        repeated = metric.duplicate_keys(shown, text)
    except ValueError as exc:
        raise corpus.located(exc) from None
    try:
        systems = metric.by_system(gold.gold, export)
    except ValueError as exc:  # a reference sentence the export lacks
        raise BenchieError(str(exc), path=shown) from None
    warnings: tuple[str, ...] = ()
    if repeated:
        warnings = (
            f"{len(repeated):,} JSON key(s) given more than once (first: {repeated[0][:80]}): "
            "as WiRe57's scorer, only the last value of each is read",
        )
    if not systems:
        raise BenchieError("no system's tuple in the export", path=shown)
    runs = []
    outside = len(export.keys() - gold.gold.keys())
    for system, predictions in systems.items():
        try:
            numbers = metric.to_json(metric.system_score(gold.gold, predictions, system=system))
        except ValueError as exc:
            raise BenchieError(printable_path(str(exc)), path=shown) from None
        facts_of = FileFacts(facts.path, facts.sha256)
        facts_of.extractions = sum(len(v) for v in predictions.values())
        facts_of.lines = facts.lines
        name_of = printable_path(system if len(systems) == 1 else f"{name}/{system}")
        coverage = (len(predictions.keys() & gold.gold.keys()), len(gold.gold))
        runs.append(Run(name_of, facts_of, numbers, outside, coverage, warnings))
    return runs


def sentence_ids(gold: Corpus) -> dict[str, str]:
    """WiRe57's sentence id of each reference sentence's text (its ``sent``), by the key
    CaRB compares sentence texts under: how a tab-keyed file's lines find their sentence."""
    data = json.loads(decode_text(gold.files[0].data, gold.files[0].display_path))
    return {
        sentence_key(s["sent"]): s["id"]
        for sentences in data.values()
        for s in sentences
        if isinstance(s, dict) and isinstance(s.get("sent"), str)
    }


def score_texts(gold: Corpus, texts: TextExtractions, shown: str) -> Scored:
    """A tab-keyed file read by CaRB's reader: each line finds its reference sentence by
    CaRB's sentence key of its text."""
    if not texts:
        raise corpus.nothing(shown)
    ids = sentence_ids(gold)
    predictions: dict[str, list[metric.Predicted]] = {}
    outside = 0
    known = set()
    for text, extractions in texts.items():
        sid = ids.get(sentence_key(text))
        if sid is None or sid not in gold.gold:  # (not in the reference, or the subset)
            outside += 1
            continue
        known.add(text)
        for pred, args, _ in extractions:
            arg2 = args[1] if len(args) > 1 else ""
            predictions.setdefault(sid, []).append(
                metric.Predicted(args[0] if args else "", pred, arg2, tuple(args[2:]))
            )
    if not predictions:
        raise corpus.none_known(shown, gold, len(texts))
    try:
        numbers = metric.to_json(metric.system_score(gold.gold, predictions))
    except ValueError as exc:
        raise BenchieError(str(exc), path=shown) from None
    coverage = (len(predictions.keys() & gold.gold.keys()), len(gold.gold))
    count = sum(len(v) for v in predictions.values())
    return Scored(count, numbers, outside, coverage, known=frozenset(known))


def sentences(gold: Corpus) -> list[tuple[str, str]]:
    """The reference's sentences, ``(id, text)`` in document order (its ``sent``)."""
    data = json.loads(decode_text(gold.files[0].data, gold.files[0].display_path))
    return [
        (s["id"], s["sent"])
        for doc in data.values()
        for s in doc
        if isinstance(s, dict) and isinstance(s.get("id"), str) and isinstance(s.get("sent"), str)
    ]


def read_gold(shown: str, raw: bytes) -> metric.Reference:
    """A reference given as a file (``--gold-file``): read, and refused when a sentence has
    no tuple, on which WiRe57's scorer crashes whatever the system (said here, naming the
    gold, rather than as a failure of each system scored; the published file, pinned by its
    hash, has none)."""
    reference = metric.read_reference(shown, decode_text(raw, shown))
    empty = [sid for sid, tuples in reference.items() if not tuples]
    if empty:
        raise BenchieError(
            f"{len(empty):,} sentence(s) without a tuple (first: id {empty[0]!r}): WiRe57's "
            "scorer cannot score a reference sentence without tuples (it crashes); leave such "
            "sentences out",
            path=shown,
        )
    return reference


CORPUS = CorpusEntry(
    corpus.single_file_load("wire57", corpus.text_reader(metric.read_reference)),
    read_gold,
    ("wire57",),
    None,
    score_texts,
    score_export,
    sentences,
    keyed_by_id=True,
)

RUNNER: Runner = corpus.CorpusRunner("wire57")
