"""NLTK's WordNet lemmatiser for nouns, from WordNet 3.0 data shipped with the package.

OIE2016's matcher (gabrielStanovsky/oie-benchmark, ``matcher.py``) lemmatises every
predicate word with ``WordNetLemmatizer().lemmatize(word)``, whose part of speech defaults
to noun. Its result depends on two things only: WordNet's noun lemmas (``index.noun``) and
its noun exception list (``noun.exc``). ``benchie_cli/data/wordnet/`` holds exactly these,
derived from Debian's ``wordnet-base`` 3.0 by ``scripts/derive-wordnet``, so no NLTK and no
download is needed. The data is read on the first call, not at import: only the OIE2016
metric needs it, and reading 117,798 lemmas takes a few tens of milliseconds.

The algorithm is WordNet's "morphy" as NLTK 3.2.1 implements it (docs/oie2016.md):

1. A word listed in the exception list yields the word itself and its listed base forms,
   each kept only if it is a noun lemma; nothing else is tried, even if none is kept.
2. Otherwise each suffix rule is applied once; the word itself and these forms, if they are
   noun lemmas, are the candidates.
3. If there are none, the rules are applied again to the forms of the previous round
   (without the word itself) until some form is a noun lemma or no rule applies.

The lemma is the shortest candidate (the first of equal length); a word without candidates
is its own lemma. Matching is exact: WordNet's lemmas are lower case, so ``Books`` stays
``Books``.
"""

from __future__ import annotations

import gzip
from functools import cache, lru_cache
from importlib.resources import files
from pathlib import Path

from benchie_cli.disk_cache import DiskMemo, clear_on_bypass, source_fingerprint

#: NLTK's suffix rules for nouns, in NLTK's order (the order of the candidates).
_RULES = (
    ("s", ""),
    ("ses", "s"),
    ("ves", "f"),
    ("xes", "x"),
    ("zes", "z"),
    ("ches", "ch"),
    ("shes", "sh"),
    ("men", "man"),
    ("ies", "y"),
)


@cache
def _data() -> tuple[frozenset[str], dict[str, list[str]]]:
    """The noun lemmas and the noun exceptions, read once. Exception lines are split at
    whitespace; a word listed twice keeps its last line, as NLTK's dict assignment does."""
    folder = files("benchie_cli") / "data" / "wordnet"
    lemmas = gzip.decompress((folder / "noun.lemmas.gz").read_bytes()).decode("ascii")
    exceptions: dict[str, list[str]] = {}
    for line in (folder / "noun.exc").read_text(encoding="ascii").splitlines():
        terms = line.split()
        if terms:
            exceptions[terms[0]] = terms[1:]
    return frozenset(lemmas.split("\n")[:-1]), exceptions


def _apply_rules(forms: list[str]) -> list[str]:
    return [form[: -len(old)] + new for form in forms for old, new in _RULES if form.endswith(old)]


def _known(forms: list[str], lemmas: frozenset[str]) -> list[str]:
    """The forms that are noun lemmas, without repeats, in order."""
    return list(dict.fromkeys(form for form in forms if form in lemmas))


def morphy(word: str) -> list[str]:
    """The noun base forms of ``word`` WordNet knows, in NLTK's order (NLTK's ``_morphy``
    for part of speech ``n``); empty if none."""
    lemmas, exceptions = _data()
    listed = exceptions.get(word)
    if listed is not None:
        return _known([word, *listed], lemmas)
    forms = _apply_rules([word])
    found = _known([word, *forms], lemmas)
    while not found and forms:
        forms = _apply_rules(forms)
        found = _known(forms, lemmas)
    return found


def _fingerprint() -> str:
    """What a lemma depends on: this code and the WordNet data it reads (computed once,
    by the memo, at its first use)."""
    # The source, also in a compiled build, where __file__ is the stub that loads the
    # compiled code: the source is what the compiled code is made from, and both builds
    # then share their memo.
    here = Path(__file__).with_name("wordnet.py")
    folder = here.parents[2] / "data" / "wordnet"
    return source_fingerprint(here, folder / "noun.lemmas.gz", folder / "noun.exc")


#: Lemmas kept between runs: a run's first look-up would otherwise read WordNet's 117,798
#: lemmas (~40 ms) and morphy each of a corpus's thousands of words (~40 ms more).
_MEMO: DiskMemo[str] = DiskMemo(
    "oie2016-lemmas", _fingerprint, str, max_entries=1 << 17, max_bytes=8 << 20
)


@lru_cache(maxsize=1 << 16)
def lemmatize(word: str) -> str:
    """``WordNetLemmatizer().lemmatize(word)`` of NLTK: the shortest noun base form of
    ``word``, the first of equal length, or ``word`` itself if WordNet knows none. Cached,
    within a bound (a long-lived process meets ever new words): the matcher meets the same
    predicate words over and over; and kept between runs (:data:`_MEMO`)."""
    known = _MEMO.get(word)
    if known is not None:
        return known
    found = morphy(word)
    lemma = min(found, key=len) if found else word
    _MEMO.put(word, lemma)
    return lemma


clear_on_bypass(lemmatize.cache_clear)
