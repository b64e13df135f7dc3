"""The per-sentence index agrees with brute force on random small gold, for every facet.

Brute force lists every form of every triple and credits an extraction to the first synset
(in gold order) with a matching form: slot by slot (default), joined (concat), or mandatory
tokens only (minimal). The index must give the same synset without listing large slots,
so the same checks run with the form limit forced down, which sends slots to the DP, and
with the sentence's form budget forced down, which sends whole triples to the DP once their
sentence has listed enough forms (all but their slots without tokens, which stay listed).
"""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchie_cli.benchmarks.benchie import matching
from benchie_cli.gold.parse import Cluster, GoldSentence, GoldTriple
from benchie_cli.slots import SlotPattern, Unit

TOKENS = ("a", "b", "c")

# Zero units too: an empty slot (its one form is "") stays listed on every path.
units = st.lists(
    st.tuples(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=2), st.booleans()),
    min_size=0,
    max_size=4,
).map(lambda us: SlotPattern(tuple(Unit(tuple(t), o) for t, o in us)))

sentences = st.lists(
    st.lists(st.tuples(units, units, units), min_size=1, max_size=3), min_size=1, max_size=3
).map(
    lambda clusters: GoldSentence(
        "1",
        "a b c",
        1,
        [Cluster(c, [GoldTriple(0, t) for t in triples]) for c, triples in enumerate(clusters)],
    )
)

extraction_parts = st.lists(st.sampled_from(TOKENS), max_size=6)


def _forms(pattern: SlotPattern) -> set[str]:
    optional = [u for u in pattern.units if u.optional]
    out = set()
    for keep in product((False, True), repeat=len(optional)):
        chosen = dict(zip(map(id, optional), keep, strict=True))
        out.add(
            " ".join(t for u in pattern.units if not u.optional or chosen[id(u)] for t in u.tokens)
        )
    return out


def _brute(sentence: GoldSentence, facet: str, extraction: tuple[str, str, str]) -> int:
    for c, cluster in enumerate(sentence.clusters):
        for triple in cluster.triples:
            if facet == "minimal":
                slot_forms = [{" ".join(s.mandatory_tokens())} for s in triple.slots]
            else:
                slot_forms = [_forms(s) for s in triple.slots]
            for form in product(*slot_forms):
                if facet == "concat":
                    if " ".join(p for p in form if p) == " ".join(p for p in extraction if p):
                        return c
                elif form == extraction:
                    return c
    return -1


def _candidates(sentence: GoldSentence, data: st.DataObject) -> list[tuple[str, str, str]]:
    """Random extractions, half of them built from real forms (re-split for concat)."""
    out = []
    for _ in range(6):
        if data.draw(st.booleans()):
            cluster = data.draw(st.sampled_from(sentence.clusters))
            triple = data.draw(st.sampled_from(cluster.triples))
            words = " ".join(data.draw(st.sampled_from(sorted(_forms(s)))) for s in triple.slots)
            tokens = words.split()
        else:
            tokens = data.draw(extraction_parts)
        i = data.draw(st.integers(0, len(tokens)))
        j = data.draw(st.integers(i, len(tokens)))
        out.append((" ".join(tokens[:i]), " ".join(tokens[i:j]), " ".join(tokens[j:])))
    return out


@pytest.mark.parametrize(
    ("limit", "budget"),
    [(1 << 10, matching.SENTENCE_FORM_BUDGET), (2, matching.SENTENCE_FORM_BUDGET), (1 << 10, 8)],
    ids=["listed", "dp", "budget"],
)
@pytest.mark.parametrize("facet", ["default", "concat", "minimal"])
@settings(max_examples=150, deadline=None)
@given(sentence=sentences, data=st.data())
def test_index_agrees_with_brute_force(
    limit: int, budget: int, facet: str, sentence: GoldSentence, data: st.DataObject
) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(matching, "FORM_LIMIT", limit)
        mp.setattr(matching, "SENTENCE_FORM_BUDGET", budget)
        index = matching.SentenceIndex.build(sentence, facet)
    restored = matching.SentenceIndex.from_data(index.to_data())
    for extraction in _candidates(sentence, data):
        expected = _brute(sentence, facet, extraction)
        for idx in (index, restored):
            if facet == "concat":
                got = idx.match_concat(" ".join(extraction).split())
            else:
                got = idx.match_slots(*extraction)
            assert got == expected, (extraction, facet)
