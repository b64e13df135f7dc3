"""Counting a gold file: sentences, synsets, triple lines and distinct expanded extractions.

The expanded counts are what the paper's Table 3 reports (136,357 / 82,260 / 5,318 for
en / de / zh): distinct acceptable forms per synset, summed (a form two synsets list counts
twice, as in the paper; per sentence it would count once). Ours are a little lower
(135,947 / 81,744 / 5,317 for 1.0.0) because slots are whitespace-normalised, so forms that
differ only by doubled spaces are one form; docs/gold-versions.md, "Gold statistics",
explains the gap.

This is the one place where forms are listed, so it is capped twice: a triple with more than
``EXPAND_LIMIT`` forms, and every triple once ``EXPAND_BUDGET`` forms have been listed for
the file (which bounds time and memory whatever the gold), is counted by multiplication,
2**(optional units), without removing duplicates. The count is then an upper bound, flagged
``exact: false``. The real gold lists at most 167,814 forms (English), far below the budget.

An upper bound can exceed every integer a JSON reader holds: 64 optional units make 2**64
forms, which orjson refuses and a JavaScript reader would round. A count above
``EXTRACTIONS_MAX`` (2**53 - 1, the largest integer exact in every JSON reader) is therefore
reported as ``EXTRACTIONS_MAX`` with ``"saturated": true`` (and ``"exact": false``): "too
many forms to count", not a number to compare. The key is written only when true, so the
JSON of every count that fits, the real gold's included, is unchanged; read it as
``doc.get("saturated", False)``. The count is never a float.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from benchie_cli.gold.parse import Gold, GoldTriple
from benchie_cli.registry import BASE_FACET, FACETS
from benchie_cli.slots import product_forms

#: Forms of one triple that are listed; a triple with more is counted by multiplication.
EXPAND_LIMIT = 1 << 16

#: Forms listed for one file and facet; once past it, every triple is counted by
#: multiplication. Three times the English gold's 167,814; bounds a count's memory to ~100 MB.
EXPAND_BUDGET = 1 << 19

#: The largest count reported (JavaScript's ``Number.MAX_SAFE_INTEGER``); see the docstring.
EXTRACTIONS_MAX = (1 << 53) - 1


@dataclass(frozen=True, slots=True)
class GoldCounts:
    sentences: int
    synsets: int
    triple_lines: int
    extractions: int  # distinct acceptable forms per synset, summed; at most EXTRACTIONS_MAX
    exact: bool
    saturated: bool = False  # the upper bound exceeded EXTRACTIONS_MAX (then exact is False)

    def as_json(self) -> dict[str, int | bool]:
        out: dict[str, int | bool] = {
            "sentences": self.sentences,
            "synsets": self.synsets,
            "triple_lines": self.triple_lines,
            "extractions": self.extractions,
            "exact": self.exact,
        }
        if self.saturated:
            out["saturated"] = True
        return out


def _upper_bound(triple: GoldTriple) -> int:
    """Forms of a triple counted without listing them: every keep/drop choice, duplicates
    included."""
    return prod(1 << s.optional_count for s in triple.slots)


def _triple_forms(triple: GoldTriple, facet: str, limit: int) -> set[object] | None:
    """The distinct forms of one triple under ``facet``, or None when there are more than
    ``limit`` (0 lists none). Under ``minimal`` a triple has one form, always listed."""
    if FACETS[facet].slot_forms == "mandatory":
        return {tuple(" ".join(s.mandatory_tokens()) for s in triple.slots)}
    combos = product_forms(triple.slots, limit)
    if combos is None:
        return None
    if FACETS[facet].free_boundaries:
        return {" ".join(part for part in combo if part) for combo in combos}
    return set(combos)


def count_gold(gold: Gold, facet: str = BASE_FACET) -> GoldCounts:
    """Counts of ``gold`` as scored under ``facet`` (``entity`` counts like ``default``)."""
    extractions = 0
    exact = True
    listed = 0  # forms listed so far, against EXPAND_BUDGET
    for sentence in gold.sentences.values():
        for cluster in sentence.clusters:
            seen: set[object] = set()
            for triple in cluster.triples:
                limit = EXPAND_LIMIT if listed < EXPAND_BUDGET else 0
                forms = _triple_forms(triple, facet, limit)
                if forms is None:
                    extractions += _upper_bound(triple)
                    exact = False
                else:
                    listed += len(forms)
                    seen |= forms
            extractions += len(seen)
    saturated = extractions > EXTRACTIONS_MAX
    return GoldCounts(
        len(gold.sentences),
        gold.synset_count,
        gold.triple_count,
        min(extractions, EXTRACTIONS_MAX),
        exact,
        saturated,
    )
