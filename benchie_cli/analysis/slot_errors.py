"""Error analysis of incorrect extractions (paper §5.1; docs/profiling.md, "Error buckets and
slot errors"): error buckets and slot errors.

An incorrect extraction is compared with every gold triple of its sentence, slot by slot:
a slot matches when the extraction's slot is one of the triple's forms for it. The closest
triples are those matching in the most slots; each gives a pattern (s, p, o) with 1 for a
matching slot, and the extraction's *error bucket* is that pattern. When closest triples
give different patterns, every such bucket is counted (paper footnote 11).

Per-slot error shares: the fraction of incorrect extractions wrong in each slot. With
several closest patterns an extraction counts 1/n towards each slot that n patterns mark
wrong, so shares are exact fractions of extractions and tied cases are not counted twice.

Slot membership comes from the scorer's index (a dict look-up per slot, the dynamic programme
only for unlisted slots): no form is ever listed here either.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from benchie_cli.benchmarks.benchie.matching import CompiledGold, bits
from benchie_cli.gold.parse import Gold, GoldSentence
from benchie_cli.inputs.submission import split_line

Pattern = tuple[int, int, int]

#: The seven buckets of incorrect extractions, in the paper's order of Figure 2.
BUCKETS: tuple[Pattern, ...] = (
    (0, 0, 0),
    (0, 0, 1),
    (0, 1, 0),
    (0, 1, 1),
    (1, 0, 0),
    (1, 0, 1),
    (1, 1, 0),
)
SLOTS = ("subject", "relation", "object")


def bucket_name(pattern: Pattern) -> str:
    return "(" + ", ".join(map(str, pattern)) + ")"


@dataclass(frozen=True, slots=True)
class Example:
    """An incorrect extraction of a bucket, with a closest gold form to compare it with."""

    line: int
    sent_id: str
    sentence: str
    extraction: tuple[str, str, str]
    closest: tuple[str, str, str]  # matching slots as extracted, the others as the gold writes them

    def as_json(self) -> dict[str, object]:
        return {
            "line": self.line,
            "sent_id": self.sent_id,
            "sentence": self.sentence,
            "extraction": list(self.extraction),
            "closest_gold": list(self.closest),
        }


@dataclass(slots=True)
class SlotErrors:
    """One system's error profile."""

    incorrect: int = 0
    buckets: dict[Pattern, int] = field(default_factory=lambda: dict.fromkeys(BUCKETS, 0))
    wrong: list[Fraction] = field(default_factory=lambda: [Fraction(0)] * 3)
    examples: dict[Pattern, list[Example]] = field(default_factory=dict)

    def shares(self) -> list[float]:
        """Per slot, the fraction of incorrect extractions wrong in it."""
        return [float(w / self.incorrect) if self.incorrect else 0.0 for w in self.wrong]

    def as_json(self) -> dict[str, object]:
        return {
            "incorrect": self.incorrect,
            "slot_error_share": dict(zip(SLOTS, self.shares(), strict=True)),
            "buckets": [
                {
                    "bucket": bucket_name(b),
                    "pattern": list(b),
                    "count": self.buckets[b],
                    "examples": [e.as_json() for e in self.examples.get(b, [])],
                }
                for b in BUCKETS
            ],
        }


def closest(compiled: CompiledGold, i: int, slots: tuple[str, str, str]) -> dict[Pattern, int]:
    """The patterns of the closest triples of sentence ``i``, each with the number of the
    first triple that gives it. A sentence without triples gives ``{(0, 0, 0): -1}``."""
    index = compiled.indexes[i]
    masks = []
    for pos, text in enumerate(slots):
        mask = index.maps[pos].get(text, 0)
        for t in bits(index.open_bits[pos]):
            slot = next(p for q, p in index.open_slots[t] if q == pos)
            if slot.matches(text.split()):
                mask |= 1 << t
        masks.append(mask)
    best = -1
    found: dict[Pattern, int] = {(0, 0, 0): -1}
    for t in range(len(index.cluster_of)):
        bit = 1 << t
        pattern = (int(bool(masks[0] & bit)), int(bool(masks[1] & bit)), int(bool(masks[2] & bit)))
        score = sum(pattern)
        if score > best:
            best, found = score, {pattern: t}
        elif score == best:
            found.setdefault(pattern, t)
    return found


def analyse(
    gold: Gold,
    compiled: CompiledGold,
    incorrect: list[tuple[int, int, bytes]],
    *,
    examples: int = 3,
) -> SlotErrors:
    """The error profile of one system from its incorrect lines (``SystemResult.incorrect``),
    with the first ``examples`` extractions of each bucket, in file order."""
    sentences = list(gold.sentences.values())
    result = SlotErrors()
    for line, i, raw in incorrect:
        fields = split_line(raw[:-1] if raw.endswith(b"\r") else raw)
        assert fields is not None and len(fields) == 5  # scored lines parse
        slots = (" ".join(fields[1]), " ".join(fields[2]), " ".join(fields[3]))
        found = closest(compiled, i, slots)
        result.incorrect += 1
        for pos in range(3):
            wrong = sum(1 for p in found if not p[pos])
            result.wrong[pos] += Fraction(wrong, len(found))
        sentence = sentences[i]
        for pattern, number in sorted(found.items()):
            result.buckets[pattern] += 1
            shown = result.examples.setdefault(pattern, [])
            if len(shown) < examples:
                shown.append(
                    Example(
                        line,
                        sentence.sent_id,
                        sentence.text,
                        slots,
                        _closest_form(sentence, number, pattern, slots),
                    )
                )
    return result


def _closest_form(
    sentence: GoldSentence, number: int, pattern: Pattern, slots: tuple[str, str, str]
) -> tuple[str, str, str]:
    """The closest gold triple as a reader compares it: slots that match as extracted, the
    others as the gold writes them (optional units in brackets)."""
    if number < 0:
        return ("", "", "")
    triple = [t for c in sentence.clusters for t in c.triples][number]
    a, b, c = (slots[pos] if pattern[pos] else triple.slots[pos].text() for pos in range(3))
    return a, b, c
