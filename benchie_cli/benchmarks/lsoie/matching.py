"""LSOIE's readers and matcher: the gold with its heads and the systems' tab format read as
the scorer that made the published curves read them, and one sentence's extractions paired
(docs/lsoie.md). The rest of the metric (the sentences' keys, the curve and its summary,
the command line) is :mod:`benchie_cli.benchmarks.lsoie.metric`, which presents these
names as its own.

This module is apart because it is where a run's time goes, line by line and pair by pair:
a compiled build (mypyc, docs/performance.md) compiles it into C from this very source,
while ``metric`` stays Python so that ``python -m benchie_cli.benchmarks.lsoie.metric``
runs in either build.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from benchie_cli.benchmarks.oie2016.data import WHITESPACE, py2_confidence, read_lines
from benchie_cli.benchmarks.oie2016.matching import SentenceStats

#: The column of a gold line after which the heads follow (``GoldReader.SYN_HEAD``).
SYN_HEAD = "<SYN_HEAD>"
#: A head the matcher skips: the head finder sometimes picks the full stop.
SKIPPED_HEAD = "."


class GoldExtraction(NamedTuple):
    """A gold line: the predicate, the arguments (the columns before ``<SYN_HEAD>``) and
    the heads (those after it: the predicate's first, then the arguments', as the head
    finder wrote them; fewer when it found none for some element)."""

    pred: str
    args: tuple[str, ...]
    heads: tuple[str, ...]


class Extraction(NamedTuple):
    """A predicted extraction."""

    pred: str
    args: tuple[str, ...]
    confidence: float
    #: Which elements were written ``TEXT##POSITION`` (index 0 the predicate, ``i + 1``
    #: argument ``i``): the reader makes a pair of them, which the matcher compares whole.
    positioned: tuple[bool, ...] = ()


Gold = dict[str, list[GoldExtraction]]
Predicted = dict[str, list[Extraction]]


def _error(message: str, path: str, line: int | None) -> Exception:
    from benchie_cli.errors import BenchieError

    return BenchieError(message, path=path, line=line)


# --------------------------------------------------------------------------- reading


def read_gold(lines: Iterable[str], path: str = "<gold>") -> Gold:
    """The gold as ``GoldReader`` reads it: each line stripped of ASCII whitespace and
    split at tabs; the sentence, the predicate, then the arguments up to the first column
    ``<SYN_HEAD>``, and the heads after it (none without it: a plain ``.oie`` file is
    matched on predicate and arity only). Extractions are kept by the raw sentence text, in
    file order; a repeated line is kept twice. A predicate written as a Python pair
    (``(...])``), which the matcher cannot compare, is refused."""
    d: Gold = {}
    for n, line in enumerate(lines, 1):
        cols = line.strip(WHITESPACE).split("\t")
        if len(cols) < 2:
            raise _error(
                "need sentence<TAB>predicate[<TAB>argument...][<TAB><SYN_HEAD>...]", path, n
            )
        text, pred, rest = cols[0], cols[1], cols[2:]
        if pred.startswith("(") and pred.endswith("])"):
            raise _error(
                f"predicate {pred[:40]!r} is a (text, [positions]) pair, which the scorer's "
                "head matcher cannot compare",
                path,
                n,
            )
        if SYN_HEAD in rest:
            at = rest.index(SYN_HEAD)
            args, heads = tuple(rest[:at]), tuple(rest[at + 1 :])
        else:
            args, heads = tuple(rest), ()
        d.setdefault(text, []).append(GoldExtraction(pred, args, heads))
    return d


def _element(field: str, path: str, line: int) -> tuple[str, bool]:
    """A field as ``TabReader`` makes it: split at every ``##``; two parts are the text
    and its position (an integer, else the original fails), a pair compared whole; more
    parts keep the text before the first ``##``; one part is the text."""
    parts = field.split("##")
    if len(parts) != 2:
        return parts[0], False
    position = parts[1].strip(WHITESPACE)
    digits = position[1:] if position[:1] in ("+", "-") else position
    if not (digits.isascii() and digits.isdigit()):
        raise _error(f"position {parts[1][:20]!r} after ## is not an integer", path, line)
    return parts[0], True


def read_system(lines: Iterable[str], path: str = "<tabbed>") -> Predicted:
    """The tab format as ``TabReader`` reads it: ``sentence, confidence, predicate,
    argument...``; lines of ASCII whitespace only are skipped; each line is stripped and
    split at tabs, no field stripped. The confidence is used as written (higher is more
    confident; LSOIE's systems write mean log-probabilities). Extractions are kept by the
    raw sentence text, in file order."""
    d: Predicted = {}
    new = tuple.__new__  # (a NamedTuple's constructor is a Python-level call: 10^4 lines)
    for n, line in enumerate(lines, 1):
        stripped = line.strip(WHITESPACE)
        if not stripped:
            continue
        cols = stripped.split("\t")
        if len(cols) < 3:
            raise _error("need sentence, confidence, predicate[, argument...]", path, n)
        # (most lines: no element has a position, each is its text)
        elements = [_element(c, path, n) for c in cols[2:]] if "##" in stripped else None
        confidence = py2_confidence(cols[1], path, n)
        if elements is None:
            fields = (cols[2], tuple(cols[3:]), confidence, (False,) * (len(cols) - 2))
        else:
            texts, wholes = zip(*elements, strict=True)
            fields = (texts[0], texts[1:], confidence, wholes)
        extraction = new(Extraction, fields)
        bucket = d.get(cols[0])
        if bucket is None:
            d[cols[0]] = [extraction]
        else:
            bucket.append(extraction)
    return d


def read_gold_file(path: str) -> Gold:
    """:func:`read_gold` of a file (UTF-8; bytes that are not survive as escapes)."""
    return read_gold(read_lines(path), path)


# --------------------------------------------------------------------------- matching


def head_match(gold: GoldExtraction, predicted: Extraction) -> bool:
    """``Matcher.syntacticHeadMatch``: the predicted predicate equals one of the gold
    predicate's words (split at single spaces; case-sensitive; a ``TEXT##POSITION``
    predicate never does); both have as many arguments; and for each head after the
    predicate's, in order, argument ``i``'s head (the ``i + 1``-th) occurs in predicted
    argument ``i`` as a substring (compared whole with a ``TEXT##POSITION`` argument),
    unless it is ``.``. Arguments beyond the heads written are not checked; no threshold,
    no lemmas, no stopwords."""
    positioned = predicted.positioned
    if (positioned and positioned[0]) or predicted.pred not in gold.pred.split(" "):
        return False
    if len(gold.args) != len(predicted.args):
        return False
    for i, head in enumerate(gold.heads[1:]):
        if head == SKIPPED_HEAD:
            continue
        arg = predicted.args[i]
        whole = len(positioned) > i + 1 and positioned[i + 1]
        if not (head == arg if whole else head in arg):
            return False
    return True


# --------------------------------------------------------------------------- pairing


def sentence_stats(
    gold: Sequence[GoldExtraction], predicted: Sequence[Extraction]
) -> SentenceStats:
    """One gold sentence's samples. Without any prediction, its ``n`` gold extractions
    count as ``n * n`` unmatched ones: the scorer adds ``n`` once per gold extraction.
    Otherwise each gold extraction, in gold order, takes the first prediction in file
    order that matches it and that no earlier gold extraction took (one to one: a repeated
    gold line needs a second matching prediction); the predictions nobody took are the
    negatives."""
    if not predicted:
        return SentenceStats(len(gold) * len(gold), (), ())
    taken = [False] * len(predicted)
    positives = []
    for g in gold:
        for j, candidate in enumerate(predicted):
            if not taken[j] and head_match(g, candidate):
                positives.append(candidate.confidence)
                taken[j] = True
                break
    negatives = tuple(e.confidence for e, t in zip(predicted, taken, strict=True) if not t)
    return SentenceStats(len(gold), tuple(positives), negatives)
