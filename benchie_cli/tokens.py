"""Tokens for the implicit-extraction test (SPEC §5), not for matching.

Matching compares whitespace-normalised slot strings. Deciding whether an extraction is
*implicit* needs a tokenisation that is robust to how systems re-tokenise: after Unicode case
folding, a token is a maximal run of letters, a maximal run of digits, or any other single
non-space character, so "M8.7sp" is M|8|.|7|sp and "M8 .7 sp" holds the same tokens. Chinese
compares characters.
"""

from __future__ import annotations

import re

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


def missing_tokens(
    text: str, sentence_tokens: frozenset[str], lang: str, *, case_sensitive: bool = False
) -> list[str]:
    """Tokens of ``text`` absent from the sentence, in order, each once."""
    missing: dict[str, None] = {}
    for token in implicit_tokens(text, lang, case_sensitive=case_sensitive):
        if token not in sentence_tokens:
            missing[token] = None
    return list(missing)
