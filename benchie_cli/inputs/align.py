"""Sentence alignment: which gold sentence a native extraction's sentence text is.

Native OIE formats carry the sentence text, not BenchIE's sentence ids, and the text a
system echoes is rarely byte-identical to the gold's: PTB escapes (``-LRB-``), LaTeX-style
quotes (````` ``''``), typographic quotes, and a different tokenisation (``do n't`` against
``don't``). Text is therefore compared under one documented key (:func:`sentence_key`),
which erases exactly those differences and nothing else (no case folding, no punctuation
removal): two different sentences must not become one. When two gold sentences share a key
the match is ambiguous and is reported, never guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from benchie_cli.records import Record

#: Penn Treebank bracket escapes and LaTeX-style quotes, as parsers and CaRB-era corpora
#: write them, mapped to the characters they stand for.
_ESCAPES = {
    "-LRB-": "(",
    "-RRB-": ")",
    "-LSB-": "[",
    "-RSB-": "]",
    "-LCB-": "{",
    "-RCB-": "}",
    "``": '"',
    "''": '"',
}
_ESCAPE_RE = re.compile("|".join(re.escape(k) for k in _ESCAPES))

#: Typographic quote styles folded onto ASCII ``'`` and ``"``.
_QUOTES = str.maketrans(
    {
        "\u2018": "'",  # left single quotation mark
        "\u2019": "'",  # right single quotation mark
        "\u201a": "'",  # single low-9 quotation mark
        "\u2032": "'",  # prime
        "`": "'",
        "\u201c": '"',  # left double quotation mark
        "\u201d": '"',  # right double quotation mark
        "\u201e": '"',  # double low-9 quotation mark
        "\u00ab": '"',  # left guillemet
        "\u00bb": '"',  # right guillemet
    }
)
_SPACE_RE = re.compile(r"\s+")


def sentence_key(text: str) -> str:
    """The key two texts of one sentence share: PTB escapes and ``` `` ''`` replaced, quote
    styles folded to ``'`` and ``"``, then all whitespace removed (so tokenisation, which
    only moves spaces, cannot matter). The order matters: ```` `` ```` becomes ``"`` before
    a lone backtick becomes ``'``."""
    return _SPACE_RE.sub("", _ESCAPE_RE.sub(lambda m: _ESCAPES[m.group()], text).translate(_QUOTES))


class InputSentence(Record):
    """A native file's sentence that found no single gold sentence, where it first appears."""

    line: int
    text: str
    candidates: tuple[str, ...] = ()  # gold ids sharing its key (ambiguous), else empty


@dataclass(slots=True)
class AlignmentStats:
    """What aligning one file found, for ``convert``'s statistics and the other commands'
    warnings: every unaligned and ambiguous input sentence, and the gold sentences left
    without any extraction."""

    aligned_sentences: int = 0
    unaligned: list[InputSentence] = field(default_factory=list)
    ambiguous: list[InputSentence] = field(default_factory=list)
    dropped_extractions: int = 0
    gold_without_extraction: list[str] = field(default_factory=list)


class Aligner:
    """Maps sentence texts to gold sentence ids, remembering each distinct text's answer."""

    def __init__(self, gold_sentences: dict[str, str]) -> None:
        """``gold_sentences``: sent_id -> text, in gold order (reports follow it)."""
        self.gold_order = list(gold_sentences)
        self.by_key: dict[str, list[str]] = {}
        for sent_id, text in gold_sentences.items():
            self.by_key.setdefault(sentence_key(text), []).append(sent_id)
        self.memo: dict[str, str | None] = {}
        self.covered: set[str] = set()
        self.stats = AlignmentStats()

    def sent_id(self, text: str, line: int) -> str | None:
        """The gold id of ``text`` (first seen at ``line``), or None when there is no single
        one; each distinct text is counted and reported once."""
        try:
            return self.memo[text]
        except KeyError:
            pass
        ids = self.by_key.get(sentence_key(text), [])
        found = ids[0] if len(ids) == 1 else None
        if found is not None:
            self.stats.aligned_sentences += 1
        elif ids:
            self.stats.ambiguous.append(InputSentence(line, text, tuple(ids)))
        else:
            self.stats.unaligned.append(InputSentence(line, text))
        self.memo[text] = found
        return found

    def finish(self) -> AlignmentStats:
        """The statistics, with the gold sentences no extraction reached, in gold order."""
        self.stats.gold_without_extraction = [i for i in self.gold_order if i not in self.covered]
        return self.stats
