"""Tokens for the implicit-extraction test (docs/implicit.md, "Tokens"), not for matching.

Matching compares whitespace-normalised slot strings. Deciding whether an extraction is
*implicit* needs a tokenisation that is robust to how systems re-tokenise: after Unicode case
folding, a token is a maximal run of letters, a maximal run of digits, or any other single
non-space character, so "M8.7sp" is M|8|.|7|sp and "M8 .7 sp" holds the same tokens. Chinese
compares characters.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

_TOKEN = re.compile(r"[^\W\d_]+|\d+|\S")


def normalise(text: str) -> str:
    """Collapse every run of whitespace to one space and trim: how slots are compared."""
    return " ".join(text.split())


def implicit_tokens(text: str, lang: str, *, case_sensitive: bool = False) -> list[str]:
    """The tokens of ``text`` as the implicit test sees them."""
    if not case_sensitive:
        text = text.casefold()
    if lang == "zh":
        return [ch for ch in text if not ch.isspace()]
    return _TOKEN.findall(text)


class ImplicitTest:
    """docs/implicit.md, "The test", for many extractions of one gold: tokens a text lacks.

    ``sentences`` maps a key (a sentence id, or a position in gold order) to the sentence's
    text; each sentence is tokenised once, on first use.
    """

    def __init__(
        self, sentences: Mapping[Any, str] | Sequence[str], lang: str, *, case_sensitive: bool
    ) -> None:
        self.sentences = sentences
        self.lang = lang
        self.case_sensitive = case_sensitive
        self._tokens: dict[Any, tuple[frozenset[str], frozenset[str]]] = {}

    def _sentence(self, key: Any) -> tuple[frozenset[str], frozenset[str]]:
        """(whitespace words, tokens) of a sentence.

        The words are the sentence's own and, unless case-sensitive, their case-folded
        forms too: a word found there is explicit without folding the extraction (casefold
        is idempotent, so a word equal to a folded sentence word folds to it). The tokens
        are case-folded unless case-sensitive.
        """
        found = self._tokens.get(key)
        if found is None:
            text = self.sentences[key]
            words = set(text.split())
            if not self.case_sensitive:
                text = text.casefold()
                words.update(text.split())
            found = self._tokens[key] = (
                frozenset(words),
                frozenset(implicit_tokens(text, self.lang, case_sensitive=True)),
            )
        return found

    def missing(self, key: Any, words: Sequence[str]) -> list[str]:
        """Tokens of the whitespace-separated ``words`` absent from sentence ``key``, in
        order, each once (empty: explicit).

        Tokens never span whitespace, so words that are all words of the sentence are
        explicit: that set test settles almost every line without the regex.
        """
        sentence_words, known = self._sentence(key)
        if sentence_words.issuperset(words):
            return []
        text = " ".join(words)
        if not self.case_sensitive:
            text = text.casefold()
        tokens = implicit_tokens(text, self.lang, case_sensitive=True)
        if known.issuperset(tokens):
            return []
        return list(dict.fromkeys(t for t in tokens if t not in known))


#: When more than this share of a file's extractions is implicit, the file is most likely
#: scored in the wrong language or against the wrong gold.
SUSPICIOUS_IMPLICIT_SHARE = 0.5


def mostly_implicit(implicit: int, extractions: int) -> bool:
    return extractions > 0 and implicit > SUSPICIOUS_IMPLICIT_SHARE * extractions


def language_hint(implicit: int, extractions: int, lang: str) -> str:
    return (
        f"{implicit} of {extractions} extractions have words their sentence lacks: "
        f"is the file really --lang {lang}, and this the right gold?"
    )
