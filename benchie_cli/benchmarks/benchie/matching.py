"""Deciding which fact synsets an extraction covers, per facet, through a per-sentence index.

For each sentence and each slot position (subject, relation, object) the index maps a slot
string to the bit set of the triple lines that accept it; an extraction's triples are the
AND of its three look-ups, and its synsets follow from its triples. A slot with more than
``FORM_LIMIT`` forms is not listed: its triples stay candidates in every look-up and are
confirmed by the dynamic programme of :meth:`SlotPattern.matches`. The index therefore grows
with the gold's size, never with 2**(optional units), and one look-up costs three dict probes.

- ``default`` and ``entity``: slot by slot, every form of a gold triple.
- ``minimal``: slot by slot, only the mandatory tokens (one form a triple).
- ``concat``: the extraction's tokens are cut into three parts in every way that the subject
  and relation maps allow (a prefix must be a known subject form before relations are tried),
  so slot boundaries do not matter; listed-too-large triples use the DP on the three slots
  read as one pattern.

An extraction covers ONE synset: the first, in gold order, that lists its form. The gold
occasionally lists one form under two synsets (sentence 255 of the English gold); crediting
both would make one extraction two facts, and the published numbers (OpenIE6) count
one (docs/metric.md, "One synset per extraction"). Triples are numbered in synset order,
so the synset is that of the lowest matching triple, which also makes the result
independent of the order of the submission's lines.

A map's values are bit sets as wide as the number of the last triple listing the form, so
a sentence's maps cost about (entries x triples) bits. ``SENTENCE_FORM_BUDGET`` bounds the
entries: a triple whose forms would take its sentence past the budget is not listed but left
to the dynamic programme, exactly like a slot with too many forms (the same synsets match,
only more slowly). With at most ``gold.MAX_TRIPLES_PER_SENTENCE`` (10^4) triples, a sentence's
maps then stay below 2**15 x 10^4 bits, about 40 MB, where unbounded they reached gigabytes
(10^4 triples of 3 x 64 forms). The real gold's sentences take at most 3,584 entries (English),
so the budget never applies to them.
"""

from __future__ import annotations

from typing import Any

from benchie_cli.gold.parse import (
    MAX_KEPT_ERRORS,
    MAX_SENTENCES,
    MAX_SYNSETS,
    MAX_SYNSETS_PER_SENTENCE,
    MAX_TRIPLES_PER_SENTENCE,
    MAX_UNITS_PER_SLOT,
    Findings,
    Gold,
    GoldSentence,
)
from benchie_cli.registry import FACETS
from benchie_cli.slots import SlotPattern, Unit, concat_patterns

#: Forms per slot that the hash index lists; a slot with more optional units than
#: log2(FORM_LIMIT) is matched by the DP instead. 64 keeps the English index small (most
#: slots have at most 3 optional units) while the DP handles the long tail.
FORM_LIMIT = 64

#: (form, triple) entries that the maps of one sentence may hold (see the module docstring).
SENTENCE_FORM_BUDGET = 1 << 15

#: The same for a whole gold file (the English gold lists 23,585): with the gold's limits on
#: triples per sentence (``gold.MAX_TRIPLES_PER_SENTENCE``, so bit sets of at most 250 bytes)
#: it bounds an index's maps to about 200 MB whatever the file; beyond it triples are matched
#: by the dynamic programme, as beyond a sentence's budget.
GOLD_FORM_BUDGET = 1 << 19


def bits(mask: int) -> list[int]:
    """Positions of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


#: A slot pattern as plain tuples, for the on-disk index (see ``index_cache``).
PatternData = tuple[tuple[tuple[str, ...], bool], ...]


def _pattern_data(pattern: SlotPattern) -> PatternData:
    return tuple((tuple(u.tokens), bool(u.optional)) for u in pattern.units)


def _pattern(data: PatternData) -> SlotPattern:
    return SlotPattern(tuple(Unit(tuple(tokens), optional) for tokens, optional in data))


def _listed_forms(pattern: SlotPattern) -> int:
    """Map entries a slot takes at most outside ``minimal``: 2**(optional units), or none
    when it has too many forms to be listed."""
    count = 1 << pattern.optional_count
    return count if count <= FORM_LIMIT else 0


def _has_tokens(pattern: SlotPattern, minimal: bool) -> bool:
    """Whether the slot has a token under the facet (else its one form is ``""``)."""
    return bool(pattern.mandatory_tokens() if minimal else pattern.units)


def _unlisted(pattern: SlotPattern, minimal: bool) -> SlotPattern:
    """The pattern the dynamic programme checks for a slot left out of the maps: under
    ``minimal`` only the mandatory tokens, which are never empty there (a slot without
    them has the one form ``""`` and stays listed)."""
    if not minimal:
        return pattern
    return SlotPattern((Unit(pattern.mandatory_tokens(), False),))


def _lengths(slot_map: dict[str, int]) -> list[int]:
    """Sorted distinct token counts of a slot map's forms ("" counts 0)."""
    return sorted({len(form.split()) for form in slot_map})


class SentenceIndex:
    """The matching structures of one gold sentence under one facet."""

    __slots__ = ("cluster_of", "concat_dp", "cuts", "maps", "open_bits", "open_slots")

    #: What the match methods return when no synset accepts the extraction.
    NO_MATCH = -1

    def __init__(
        self,
        cluster_of: list[int],
        maps: tuple[dict[str, int], dict[str, int], dict[str, int]],
        open_bits: list[int],
        open_slots: dict[int, list[tuple[int, SlotPattern]]],
        concat_dp: list[tuple[int, SlotPattern]],
        cuts: tuple[list[int], list[int]],
    ) -> None:
        #: Synset number of each triple line, by triple number (non-decreasing).
        self.cluster_of = cluster_of
        #: Per slot position: slot string -> bit set of the triples that accept it.
        self.maps = maps
        #: Per slot position, the triples whose slot there is not listed (too many forms,
        #: or beyond the sentence's ``SENTENCE_FORM_BUDGET``).
        self.open_bits = open_bits
        #: Triple number -> [(position, pattern)] of its unlisted slots.
        self.open_slots = open_slots
        #: For concat: (triple bit, whole-triple pattern) of triples with an unlisted slot.
        self.concat_dp = concat_dp
        #: For concat: the token lengths of the listed subject and relation forms, the only
        #: places where a cut between slots can fall.
        self.cuts = cuts

    @classmethod
    def build(
        cls,
        sentence: GoldSentence,
        facet: str,
        forms_of: dict[int, set[str] | None] | None = None,
        left: list[int] | None = None,
    ) -> SentenceIndex:
        """Index ``sentence`` for ``facet``.

        ``forms_of`` memoises forms by pattern identity across sentences: the loader shares
        one pattern object between equal slot texts ("He", "served as").

        A triple is listed only if its forms fit in what is left of ``SENTENCE_FORM_BUDGET``,
        counting 2**(optional units) a slot (its forms before duplicates are removed), so
        that no form of a triple beyond the budget is ever computed; while a whole
        ``3 * FORM_LIMIT`` is left, nothing needs counting. ``left``, shared by the sentences
        of one file, holds what is left of ``GOLD_FORM_BUDGET`` and is spent the same way.
        Its slots without tokens stay
        listed even then: their one form, ``""``, is one entry per slot position however
        many triples list it, and the programme has no pattern for them.
        """
        minimal = FACETS[facet].slot_forms == "mandatory"
        if forms_of is None:
            forms_of = {}
        if left is None:
            left = [GOLD_FORM_BUDGET]
        index = cls([], ({}, {}, {}), [0, 0, 0], {}, [], ([], []))
        number = 0
        listed = 0  # (form, triple) entries of this sentence's maps, against the budget
        for c, cluster in enumerate(sentence.clusters):
            for triple in cluster.triples:
                bit = 1 << number
                index.cluster_of.append(c)
                room = min(SENTENCE_FORM_BUDGET - listed, left[0])
                fits = room >= 3 * FORM_LIMIT or (
                    (3 if minimal else sum(map(_listed_forms, triple.slots))) <= room
                )
                for pos, pattern in enumerate(triple.slots):
                    key = id(pattern)
                    forms: set[str] | None
                    if not fits:
                        forms = None if _has_tokens(pattern, minimal) else {""}
                    elif key in forms_of:
                        forms = forms_of[key]
                    else:
                        forms = forms_of[key] = (
                            {" ".join(pattern.mandatory_tokens())}
                            if minimal
                            else pattern.forms(FORM_LIMIT)
                        )
                    if forms is None:
                        index.open_bits[pos] |= bit
                        unlisted = _unlisted(pattern, minimal)
                        index.open_slots.setdefault(number, []).append((pos, unlisted))
                        continue
                    slot_map = index.maps[pos]
                    for form in forms:
                        slot_map[form] = slot_map.get(form, 0) | bit
                    listed += len(forms)
                    left[0] -= len(forms)
                if number in index.open_slots and FACETS[facet].free_boundaries:
                    index.concat_dp.append((bit, concat_patterns(triple.slots)))
                number += 1
        index.cuts = (_lengths(index.maps[0]), _lengths(index.maps[1]))
        return index

    def to_data(self) -> tuple[Any, ...]:
        """Plain builtin values (for marshal): no class instances, no NamedTuples."""
        return (
            self.cluster_of,
            self.maps,
            self.open_bits,
            {t: [(pos, _pattern_data(p)) for pos, p in v] for t, v in self.open_slots.items()},
            [(bit, _pattern_data(p)) for bit, p in self.concat_dp],
            self.cuts,
        )

    @classmethod
    def from_data(cls, data: tuple[Any, ...]) -> SentenceIndex:
        cluster_of, maps, open_bits, open_slots, concat_dp, cuts = data
        return cls(
            cluster_of,
            tuple(maps),
            open_bits,
            {t: [(pos, _pattern(p)) for pos, p in v] for t, v in open_slots.items()},
            [(bit, _pattern(p)) for bit, p in concat_dp],
            tuple(cuts),
        )

    def first_cluster(self, triples: int) -> int:
        """The synset of the lowest triple of a triple bit set (``NO_MATCH`` if empty)."""
        if not triples:
            return self.NO_MATCH
        return self.cluster_of[(triples & -triples).bit_length() - 1]

    def match_slots(self, subject: str, relation: str, obj: str) -> int:
        """The synset whose triples accept the extraction slot by slot (default, minimal)."""
        m0, m1, m2 = self.maps
        o0, o1, o2 = self.open_bits
        cand = (m0.get(subject, 0) | o0) & (m1.get(relation, 0) | o1) & (m2.get(obj, 0) | o2)
        if not cand:
            return self.NO_MATCH
        unsure = cand & (o0 | o1 | o2)
        if unsure:
            slots = (subject, relation, obj)
            for t in bits(unsure):
                if not all(p.matches(slots[pos].split()) for pos, p in self.open_slots[t]):
                    cand ^= 1 << t
        return self.first_cluster(cand)

    def match_concat(self, tokens: list[str]) -> int:
        """The synset with a triple whose slots, concatenated, equal ``tokens`` (the
        extraction's words, slot boundaries ignored)."""
        n = len(tokens)
        m0, m1, m2 = self.maps
        subject_lengths, relation_lengths = self.cuts
        found = 0
        for i in subject_lengths:
            if i > n:
                break
            first = m0.get(" ".join(tokens[:i]), 0)
            if not first:
                continue
            for width in relation_lengths:
                j = i + width
                if j > n:
                    break
                second = first & m1.get(" ".join(tokens[i:j]), 0)
                if second:
                    found |= second & m2.get(" ".join(tokens[j:]), 0)
        for bit, pattern in self.concat_dp:
            if (not found or bit < found & -found) and pattern.matches(tokens):
                found |= bit
        return self.first_cluster(found)


class CompiledGold:
    """Everything scoring needs from a gold file under one facet, indexed.

    It is a pure function of the gold's bytes and the facet, so ``index_cache`` can keep it
    on disk: a warm run skips parsing and indexing altogether. That is why it also keeps what
    the parser found wrong (``findings``): a warm run must say it as a cold one does.
    """

    __slots__ = ("facet", "findings", "indexes", "sent_ids", "synsets", "texts")

    def __init__(
        self,
        facet: str,
        sent_ids: list[str],
        texts: list[str],
        synsets: list[int],
        indexes: list[SentenceIndex],
        findings: Findings,
    ) -> None:
        self.facet = facet
        self.sent_ids = sent_ids  # gold order, which reports follow
        self.texts = texts  # the sentences, for the implicit test
        self.synsets = synsets  # synsets per sentence
        self.indexes = indexes
        self.findings = findings

    @classmethod
    def build(cls, gold: Gold, facet: str) -> CompiledGold:
        forms_of: dict[int, set[str] | None] = {}
        left = [GOLD_FORM_BUDGET]
        sentences = list(gold.sentences.values())
        return cls(
            facet,
            [s.sent_id for s in sentences],
            [s.text for s in sentences],
            [len(s.clusters) for s in sentences],
            [SentenceIndex.build(s, facet, forms_of, left) for s in sentences],
            gold.findings(),
        )

    def to_data(self) -> tuple[Any, ...]:
        return (
            self.facet,
            self.sent_ids,
            self.texts,
            self.synsets,
            [i.to_data() for i in self.indexes],
            tuple(self.findings),
        )

    @classmethod
    def from_data(cls, data: tuple[Any, ...]) -> CompiledGold:
        facet, sent_ids, texts, synsets, indexes, findings = data
        return cls(
            facet,
            sent_ids,
            texts,
            synsets,
            [SentenceIndex.from_data(i) for i in indexes],
            Findings(*findings),
        )


def _check_pattern(data: Any) -> None:
    if type(data) is not tuple or not data or len(data) > MAX_UNITS_PER_SLOT:
        raise ValueError("pattern")
    for unit in data:
        if (
            type(unit) is not tuple
            or len(unit) != 2
            or type(unit[0]) is not tuple
            or not unit[0]
            or type(unit[1]) is not bool
            or not set(map(type, unit[0])) <= {str}
        ):
            raise ValueError("pattern unit")


def _check_bit_map(slot_map: Any, limit: int) -> None:
    """A slot map: str keys, int values that are non-empty bit sets below ``limit``."""
    if type(slot_map) is not dict:
        raise ValueError("slot map")
    if slot_map and (
        not set(map(type, slot_map)) <= {str}
        or not set(map(type, slot_map.values())) <= {int}
        or min(slot_map.values()) <= 0
        or max(slot_map.values()) >= limit
    ):
        raise ValueError("slot map entries")


def _check_findings(data: Any) -> None:
    """A :class:`Findings` as ``to_data`` writes it: counts, and at most the kept errors
    with their line, a code and a message, no more than counted."""
    if type(data) is not tuple or len(data) != 3:
        raise ValueError("findings")
    errors, warnings, first = data
    if type(errors) is not int or type(warnings) is not int or min(errors, warnings) < 0:
        raise ValueError("finding counts")
    if type(first) is not tuple or len(first) > min(errors, MAX_KEPT_ERRORS):
        raise ValueError("kept errors")
    for error in first:
        if (
            type(error) is not tuple
            or len(error) != 3
            or type(error[0]) is not int
            or error[0] < 0
            or type(error[1]) is not str
            or type(error[2]) is not str
        ):
            raise ValueError("kept error")
        error[2].encode()  # said on stderr and written to reports: must be UTF-8


def _check_sentence(data: Any, synsets: int, concat: bool) -> None:
    if type(data) is not tuple or len(data) != 6:
        raise ValueError("sentence index")
    cluster_of, maps, open_bits, open_slots, concat_dp, cuts = data
    if type(cluster_of) is not list or not set(map(type, cluster_of)) <= {int}:
        raise ValueError("cluster_of")
    if cluster_of and (
        cluster_of[0] < 0 or cluster_of[-1] >= synsets or cluster_of != sorted(cluster_of)
    ):
        raise ValueError("cluster_of range")
    if len(cluster_of) > MAX_TRIPLES_PER_SENTENCE:
        raise ValueError("too many triples")
    limit = 1 << len(cluster_of)
    if type(maps) is not tuple or len(maps) != 3:
        raise ValueError("maps")
    for slot_map in maps:
        _check_bit_map(slot_map, limit)
    if type(open_bits) is not list or len(open_bits) != 3:
        raise ValueError("open_bits")
    if not set(map(type, open_bits)) <= {int} or min(open_bits) < 0 or max(open_bits) >= limit:
        raise ValueError("open_bits range")
    if type(open_slots) is not dict:
        raise ValueError("open_slots")
    for triple, slots in open_slots.items():
        if type(triple) is not int or type(slots) is not list:
            raise ValueError("open_slots entry")
        positions = []
        for entry in slots:
            if type(entry) is not tuple or len(entry) != 2 or type(entry[0]) is not int:
                raise ValueError("open slot")
            positions.append(entry[0])
            _check_pattern(entry[1])
        # Exactly the positions whose open bit is set for this triple: the matcher looks
        # the triple up here for every open bit, and checks every position listed.
        if positions != [p for p in range(3) if open_bits[p] >> triple & 1] or not positions:
            raise ValueError("open_slots positions")
    union = open_bits[0] | open_bits[1] | open_bits[2]
    if union != sum(1 << t for t in open_slots if 0 <= t < len(cluster_of)) or any(
        not 0 <= t < len(cluster_of) for t in open_slots
    ):
        raise ValueError("open_slots keys")
    if type(concat_dp) is not list:
        raise ValueError("concat_dp")
    for entry in concat_dp:
        if type(entry) is not tuple or len(entry) != 2 or type(entry[0]) is not int:
            raise ValueError("concat_dp entry")
        bit = entry[0]
        if bit <= 0 or bit >= limit or bit & (bit - 1):
            raise ValueError("concat_dp bit")
        _check_pattern(entry[1])
    if type(cuts) is not tuple or len(cuts) != 2:
        raise ValueError("cuts")
    # Derived from the maps, and read by concat only: cuts that disagree would skip forms.
    if concat and cuts != (_lengths(maps[0]), _lengths(maps[1])):
        raise ValueError("cut lengths")


def check_data(data: Any, facet: str) -> None:
    """Raise ``ValueError`` unless ``data`` has the exact shape :meth:`CompiledGold.to_data`
    writes for ``facet``, with every number in the range the scorer relies on (bit sets
    within their sentence, synset numbers within the sentence's count, open slots where the
    open bits say).

    The cache's digest already rules out damage; this rules out an entry of the right digest
    and the wrong shape (a foreign or hand-made one), which would otherwise raise an
    exception, hang, or count a fact twice, in the middle of scoring: every size is within the
    gold's limits (``benchie_cli.gold.parse``), and what is derived (the cuts) agrees with what it
    is derived from. It costs a few milliseconds on the English index because it checks
    types and ranges with C-level passes. What it cannot rule out is a well-formed index of
    other gold, forged by someone who can write the cache (and so could replace the code).
    """
    if type(data) is not tuple or len(data) != 6:
        raise ValueError("compiled gold")
    got_facet, sent_ids, texts, synsets, indexes, findings = data
    _check_findings(findings)
    if got_facet != facet or facet not in FACETS:
        raise ValueError("facet")
    for column in (sent_ids, texts, synsets, indexes):
        if type(column) is not list or len(column) != len(sent_ids):
            raise ValueError("columns")
    if not set(map(type, sent_ids)) <= {str} or len(set(sent_ids)) != len(sent_ids):
        raise ValueError("sentence ids")
    if not set(map(type, texts)) <= {str}:
        raise ValueError("texts")
    # Reports write both: text that is not UTF-8 (lone surrogates) could not be written.
    "".join(sent_ids).encode()
    "".join(texts).encode()
    if not set(map(type, synsets)) <= {int} or (
        synsets and (min(synsets) < 0 or max(synsets) > MAX_SYNSETS_PER_SENTENCE)
    ):
        raise ValueError("synset counts")
    if len(sent_ids) > MAX_SENTENCES or sum(synsets) > MAX_SYNSETS:
        raise ValueError("too large")
    for index, count in zip(indexes, synsets, strict=True):
        _check_sentence(index, count, FACETS[facet].free_boundaries)
