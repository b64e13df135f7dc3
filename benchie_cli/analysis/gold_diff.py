"""Differences between two gold versions, and what they do to systems' scores, as data.

``benchie gold diff`` and ``benchie gold impact`` only format what this module computes.

A synset is named by its position in its sentence (1-based, the ``N`` of ``ID--> Cluster N:``
in a well-formed file) and compared by its *forms*: ``slot.text()`` of its three slots joined
by ``' --> '``, so whitespace repairs change nothing. The synsets of a sentence in the two
versions are aligned in gold order: identical synsets first (longest common subsequence),
then, between two identical ones, a synset of one version is paired in order with the first
of the other that shares a form with it (``changed``: forms added and removed); the rest are
``added`` or ``removed``. A synset restored from a corrupted header (Chinese sentence 206 in
gold 1.1.0) so shows as one synset added and the one that had absorbed its triple changed,
not as every later synset changed.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from benchie_cli.benchmarks.benchie.index_cache import load_compiled
from benchie_cli.benchmarks.benchie.scoring import ScoreOptions, Scorer, SystemResult
from benchie_cli.errors import BenchieError
from benchie_cli.gold.parse import ARROW, Cluster, Gold, GoldSentence, parse_gold_bytes
from benchie_cli.gold.review import Review, review
from benchie_cli.gold.store import GoldStore, ResolvedGold
from benchie_cli.inputs.batch import Submission
from benchie_cli.inputs.mistakes import MistakeCheck
from benchie_cli.registry import BASE_FACET
from benchie_cli.textio import STDIN, display_name

# --------------------------------------------------------------------------- synsets


def synset_forms(cluster: Cluster) -> tuple[str, ...]:
    """The distinct triple forms of a synset, in gold order."""
    forms = (ARROW.join(slot.text() for slot in triple.slots) for triple in cluster.triples)
    return tuple(dict.fromkeys(forms))


def _shares(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    return not set(a).isdisjoint(b)


def align_synsets(
    old: Sequence[tuple[str, ...]], new: Sequence[tuple[str, ...]]
) -> list[tuple[int | None, int | None]]:
    """``(old index, new index)`` pairs (0-based, ``None`` for a synset of one side only) in
    gold order: see the module docstring. Pairs of identical synsets are included."""
    keys_old = [frozenset(forms) for forms in old]
    keys_new = [frozenset(forms) for forms in new]
    matcher = difflib.SequenceMatcher(None, keys_old, keys_new, autojunk=False)
    pairs: list[tuple[int | None, int | None]] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            pairs.extend(zip(range(i1, i2), range(j1, j2), strict=True))
            continue
        partner: dict[int, int] = {}
        start = j1
        for i in range(i1, i2):
            for j in range(start, j2):
                if _shares(old[i], new[j]):
                    partner[i], start = j, j + 1
                    break
        i, j = i1, j1
        while i < i2 or j < j2:
            if i < i2 and i not in partner:
                pairs.append((i, None))
                i += 1
            elif i < i2 and partner[i] == j:
                pairs.append((i, j))
                i, j = i + 1, j + 1
            else:  # a new synset before the next pair (or after the last)
                pairs.append((None, j))
                j += 1
    return pairs


@dataclass(frozen=True, slots=True)
class SynsetChange:
    """One synset added, removed or changed; positions are 1-based."""

    change: str  # "added" | "removed" | "changed"
    a: int | None  # position in version A
    b: int | None  # position in version B
    added: tuple[str, ...]  # forms only B has
    removed: tuple[str, ...]  # forms only A has

    def as_json(self) -> dict[str, Any]:
        return {
            "change": self.change,
            "a": self.a,
            "b": self.b,
            "added": list(self.added),
            "removed": list(self.removed),
        }


@dataclass(frozen=True, slots=True)
class SentenceDiff:
    """A sentence that differs: added, removed, or ``changed`` (text and/or synsets)."""

    sent_id: str
    status: str  # "added" | "removed" | "changed"
    text_a: str | None
    text_b: str | None
    synsets: tuple[SynsetChange, ...]

    @property
    def text_changed(self) -> bool:
        return self.status == "changed" and self.text_a != self.text_b

    def as_json(self) -> dict[str, Any]:
        return {
            "sent_id": self.sent_id,
            "status": self.status,
            "text_changed": self.text_changed,
            "text_a": self.text_a,
            "text_b": self.text_b,
            "synsets": [s.as_json() for s in self.synsets],
        }


def _synset_changes(
    a: GoldSentence | None, b: GoldSentence | None
) -> Iterator[tuple[int | None, int | None, SynsetChange | None]]:
    """Every aligned pair of synsets, with its change (``None`` when identical)."""
    old = [synset_forms(c) for c in a.clusters] if a is not None else []
    new = [synset_forms(c) for c in b.clusters] if b is not None else []
    for i, j in align_synsets(old, new):
        pos_a = None if i is None else i + 1
        pos_b = None if j is None else j + 1
        if i is None:
            assert j is not None
            yield i, j, SynsetChange("added", None, pos_b, new[j], ())
        elif j is None:
            yield i, j, SynsetChange("removed", pos_a, None, (), old[i])
        elif frozenset(old[i]) == frozenset(new[j]):
            yield i, j, None
        else:
            added = tuple(f for f in new[j] if f not in set(old[i]))
            removed = tuple(f for f in old[i] if f not in set(new[j]))
            yield i, j, SynsetChange("changed", pos_a, pos_b, added, removed)


def _sentence_order(a: Gold, b: Gold) -> list[tuple[str | None, str | None]]:
    """Sentence ids of A and B paired in gold order (``None``: absent from that side)."""
    ids_a = list(a.sentences)
    ids_b = list(b.sentences)
    in_b = set(ids_b)
    in_a = set(ids_a)
    out: list[tuple[str | None, str | None]] = []
    matcher = difflib.SequenceMatcher(None, ids_a, ids_b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out.extend((s, s) for s in ids_a[i1:i2])
            continue
        # A sentence moved within the file is still the same sentence: keep it where B has it.
        out.extend((s, None) for s in ids_a[i1:i2] if s not in in_b)
        out.extend((s if s in in_a else None, s) for s in ids_b[j1:j2])
    return out


def diff_golds(a: Gold, b: Gold) -> list[SentenceDiff]:
    """Every sentence that differs between two parsed gold files, in gold order (a language
    one version lacks is no diff: :class:`LanguageDiff`'s ``missing_in``)."""
    diffs: list[SentenceDiff] = []
    for id_a, id_b in _sentence_order(a, b):
        sa = a.sentences[id_a] if id_a is not None else None
        sb = b.sentences[id_b] if id_b is not None else None
        changes = tuple(c for _, _, c in _synset_changes(sa, sb) if c is not None)
        if sa is None:
            assert sb is not None
            diffs.append(SentenceDiff(sb.sent_id, "added", None, sb.text, changes))
        elif sb is None:
            diffs.append(SentenceDiff(sa.sent_id, "removed", sa.text, None, changes))
        elif changes or sa.text != sb.text:
            diffs.append(SentenceDiff(sa.sent_id, "changed", sa.text, sb.text, changes))
    return diffs


@dataclass(frozen=True, slots=True)
class LanguageDiff:
    language: str
    path_a: str | None  # store-relative, None when the version lacks the language
    path_b: str | None
    sha256_a: str | None
    sha256_b: str | None
    sentences: tuple[SentenceDiff, ...]
    #: What reading each side found wrong (a block its reader skipped is no difference
    #: the diff can show, so it must be said): None for a side without the language.
    review_a: Review | None = None
    review_b: Review | None = None
    #: The version without the language (then nothing is compared), and its languages.
    missing_in: str | None = None
    available: tuple[str, ...] = ()

    def notices(self) -> list[str]:
        """What a run says on stderr of each side's gold with new errors."""
        outcome = "the differences are those of the gold as read, not as written"
        return [line for r in (self.review_a, self.review_b) if r for line in r.notice(outcome)]

    def summary(self) -> dict[str, int]:
        changes = [c for s in self.sentences for c in s.synsets]
        return {
            "sentences_added": sum(s.status == "added" for s in self.sentences),
            "sentences_removed": sum(s.status == "removed" for s in self.sentences),
            "sentences_text_changed": sum(s.text_changed for s in self.sentences),
            "synsets_added": sum(c.change == "added" for c in changes),
            "synsets_removed": sum(c.change == "removed" for c in changes),
            "synsets_changed": sum(c.change == "changed" for c in changes),
        }

    def as_json(self) -> dict[str, Any]:
        sides = {
            "language": self.language,
            "a": _side(self.path_a, self.sha256_a, self.review_a),
            "b": _side(self.path_b, self.sha256_b, self.review_b),
        }
        if self.missing_in is not None:  # (no summary: nothing was compared)
            return {**sides, "missing_in": self.missing_in}
        return {
            **sides,
            "summary": self.summary(),
            "sentences": [s.as_json() for s in self.sentences],
        }


def _side(path: str | None, sha256: str | None, review: Review | None) -> dict[str, Any]:
    side: dict[str, Any] = {"path": path, "sha256": sha256}
    if review is not None:
        side["findings"] = review.as_json()
    return side


def _parse(resolved: ResolvedGold) -> Gold:
    return parse_gold_bytes(resolved.data, resolved.display_path)


def _review(resolved: ResolvedGold, gold: Gold) -> Review:
    return review(resolved.display_path, resolved.sha256, gold.findings())


def _languages(store: GoldStore, a: str, b: str, lang: str | None) -> list[str]:
    """The languages to diff: ``lang``, which both versions must have (as ``score
    --gold-version`` refuses a language its version lacks), else every language of either."""
    langs_a, langs_b = store.manifest(a).languages(), store.manifest(b).languages()
    if lang is not None:
        if lang not in langs_a and lang not in langs_b:
            raise BenchieError(f"neither gold {a} nor gold {b} has language {lang!r}")
        for version, langs in ((a, langs_a), (b, langs_b)):
            if lang not in langs:
                raise BenchieError(
                    f"gold {version} has no language {lang!r} (available: {', '.join(langs)}): "
                    "there is nothing to compare"
                )
        return [lang]
    return [*langs_a, *(x for x in langs_b if x not in langs_a)]


def diff_versions(store: GoldStore, a: str, b: str, lang: str | None = None) -> list[LanguageDiff]:
    """Default-facet differences between store versions ``a`` and ``b``, per language. A
    language one version lacks is not compared: its diff has no sentences and names the
    version without it (:attr:`LanguageDiff.missing_in`); every sentence shown as removed
    would read as a gold that deleted them, when the version was made without them (a
    private test gold of one language). An unknown version raises :class:`BenchieError`."""
    out = []
    for language in _languages(store, a, b, lang):
        sides: list[ResolvedGold | None] = []
        for version in (a, b):
            has = language in store.manifest(version).languages()
            sides.append(store.resolve(version, language, BASE_FACET) if has else None)
        ra, rb = sides
        files = (
            ra.display_path if ra else None,
            rb.display_path if rb else None,
            ra.sha256 if ra else None,
            rb.sha256 if rb else None,
        )
        if ra is None or rb is None:
            missing = a if ra is None else b
            out.append(
                LanguageDiff(
                    language,
                    *files,
                    (),
                    missing_in=missing,
                    available=tuple(store.manifest(missing).languages()),
                )
            )
            continue
        gold_a, gold_b = _parse(ra), _parse(rb)
        out.append(
            LanguageDiff(
                language,
                *files,
                tuple(diff_golds(gold_a, gold_b)),
                _review(ra, gold_a),
                _review(rb, gold_b),
            )
        )
    return out


def diff_as_json(a: str, b: str, diffs: Iterable[LanguageDiff]) -> dict[str, Any]:
    return {"a": a, "b": b, "languages": [d.as_json() for d in diffs]}


def diff_lines(a: str, b: str, diffs: Iterable[LanguageDiff]) -> Iterator[str]:
    """The text form: per language a summary line, then one block per sentence that differs,
    written like the gold (``sent_id:ID<TAB>text``, ``ID--> Cluster N:``, triple forms) with
    ``+``/``-`` for what B adds or removes and ``~`` for a changed synset's header."""
    for d in diffs:
        if d.missing_in is not None:
            other = b if d.missing_in == a else a
            yield (
                f"== {d.language}: gold {d.missing_in} has no language {d.language!r} "
                f"(available: {', '.join(d.available)}): not compared (gold {other} has it)"
            )
            continue
        s = d.summary()
        yield (
            f"== {d.language}: gold {a} -> {b}: sentences +{s['sentences_added']} "
            f"-{s['sentences_removed']} ~{s['sentences_text_changed']} (text); synsets "
            f"+{s['synsets_added']} -{s['synsets_removed']} ~{s['synsets_changed']}"
        )
        for sent in d.sentences:
            yield ""
            if sent.status == "added":
                yield f"+ sent_id:{sent.sent_id}\t{sent.text_b}"
            elif sent.status == "removed":
                yield f"- sent_id:{sent.sent_id}\t{sent.text_a}"
            elif sent.text_changed:
                yield f"- sent_id:{sent.sent_id}\t{sent.text_a}"
                yield f"+ sent_id:{sent.sent_id}\t{sent.text_b}"
            else:
                yield f"@ sent_id:{sent.sent_id}\t{sent.text_b}"
            for c in sent.synsets:
                if c.change == "added":
                    yield f"+ {sent.sent_id}--> Cluster {c.b}:"
                elif c.change == "removed":
                    yield f"- {sent.sent_id}--> Cluster {c.a}:"
                else:
                    moved = f" (was {c.a})" if c.a != c.b else ""
                    yield f"~ {sent.sent_id}--> Cluster {c.b}:{moved}"
                yield from (f"-   {form}" for form in c.removed)
                yield from (f"+   {form}" for form in c.added)


# --------------------------------------------------------------------------- impact


@dataclass(frozen=True, slots=True)
class SynsetImpact:
    """A synset whose matches by the system differ between the versions (``None``: the
    synset is not in that version)."""

    sent_id: str
    a: int | None  # position in A (1-based)
    b: int | None
    matches_a: int | None  # extractions of the system that matched it
    matches_b: int | None

    def as_json(self) -> dict[str, Any]:
        def covered(n: int | None) -> bool | None:
            return None if n is None else n > 0

        return {
            "sent_id": self.sent_id,
            "a": self.a,
            "b": self.b,
            "covered_a": covered(self.matches_a),
            "covered_b": covered(self.matches_b),
            "matches_a": self.matches_a,
            "matches_b": self.matches_b,
        }


@dataclass(frozen=True, slots=True)
class SystemImpact:
    name: str
    file: str
    totals_a: tuple[int, int, int]  # TP, FP, FN
    totals_b: tuple[int, int, int]
    scores_a: tuple[float, float, float]  # P, R, F1
    scores_b: tuple[float, float, float]
    synsets: tuple[SynsetImpact, ...]
    #: The submission scored under B, whose warnings and hints the caller reports.
    result: SystemResult = field(repr=False, compare=False)

    @property
    def delta(self) -> tuple[float, float, float]:
        pa, ra, fa = self.scores_a
        pb, rb, fb = self.scores_b
        return pb - pa, rb - ra, fb - fa

    @property
    def moved(self) -> bool:
        return self.scores_a != self.scores_b or self.totals_a != self.totals_b

    def as_json(self) -> dict[str, Any]:
        def named(values: Sequence[float | int], keys: Sequence[str]) -> dict[str, Any]:
            return dict(zip(keys, values, strict=True))

        prf = ("precision", "recall", "f1")
        return {
            "name": self.name,
            "file": self.file,
            "moved": self.moved,
            "a": {**named(self.scores_a, prf), **named(self.totals_a, ("tp", "fp", "fn"))},
            "b": {**named(self.scores_b, prf), **named(self.totals_b, ("tp", "fp", "fn"))},
            "delta": named(self.delta, prf),
            "synsets": [s.as_json() for s in self.synsets],
        }


def _synset_impacts(
    gold_a: Gold,
    gold_b: Gold,
    matches_a: Counter[tuple[int, int]],
    matches_b: Counter[tuple[int, int]],
) -> list[SynsetImpact]:
    position_a = {sid: i for i, sid in enumerate(gold_a.sentences)}
    position_b = {sid: i for i, sid in enumerate(gold_b.sentences)}
    out = []
    for id_a, id_b in _sentence_order(gold_a, gold_b):
        sa = gold_a.sentences[id_a] if id_a is not None else None
        sb = gold_b.sentences[id_b] if id_b is not None else None
        sent_id = (sb or sa).sent_id  # type: ignore[union-attr]
        for i, j, _ in _synset_changes(sa, sb):
            ma = None if i is None or id_a is None else matches_a[position_a[id_a], i]
            mb = None if j is None or id_b is None else matches_b[position_b[id_b], j]
            if ma != mb:
                out.append(
                    SynsetImpact(
                        sent_id,
                        None if i is None else i + 1,
                        None if j is None else j + 1,
                        ma,
                        mb,
                    )
                )
    return out


def gold_impact(
    resolve: Callable[[str], ResolvedGold],
    a: str,
    b: str,
    options: ScoreOptions,
    submissions: Sequence[Submission],
    mistakes: MistakeCheck | None = None,
) -> list[SystemImpact]:
    """Each submission scored under gold versions ``a`` and ``b`` (``resolve(version)`` gives
    the gold of the run's language and facet), with the synsets whose matches differ.

    A submission is read once per version, so standard input cannot be one. ``mistakes``
    looks for the likely mistakes behind a poor score under B, as ``score`` does: a silent
    0.0 would hide a wrong ``--lang`` or format just as well here.
    """
    if any(s.path == STDIN for s in submissions):
        raise BenchieError("gold impact reads each submission twice: not from standard input")
    sides = []
    for version in (a, b):
        resolved = resolve(version)
        gold = _parse(resolved)  # synsets are those of the file, also for derived facets
        scorer = Scorer(
            load_compiled(resolved, gold),
            options,
            count_matches=True,
            mistakes=mistakes if version == b else None,
        )
        sides.append((gold, scorer))
    (gold_a, scorer_a), (gold_b, scorer_b) = sides
    out = []
    for submission in submissions:
        result_a = scorer_a.score(submission.path, submission.name)
        result_b = scorer_b.score(submission.path, submission.name)
        assert result_a.matches is not None and result_b.matches is not None
        out.append(
            SystemImpact(
                submission.name,
                display_name(submission.path),
                result_a.totals,
                result_b.totals,
                result_a.scores,
                result_b.scores,
                tuple(_synset_impacts(gold_a, gold_b, result_a.matches, result_b.matches)),
                result_b,
            )
        )
    return out


def impact_as_json(
    a: str, b: str, lang: str, facet: str, systems: Iterable[SystemImpact]
) -> dict[str, Any]:
    return {
        "a": a,
        "b": b,
        "language": lang,
        "facet": facet,
        "systems": [s.as_json() for s in systems],
    }


def impact_lines(a: str, b: str, systems: Iterable[SystemImpact]) -> Iterator[str]:
    """The text form: per system its P/R/F1 under A and B (full precision) and the difference,
    then each synset whose matches differ."""
    for s in systems:
        yield f"{s.name} ({s.file}): {'moved' if s.moved else 'unchanged'}"
        for k, metric in enumerate(("P", "R", "F1")):
            va, vb, d = s.scores_a[k], s.scores_b[k], s.delta[k]
            yield f"  {metric:<2}  {a}: {va!r}  {b}: {vb!r}  delta: {d:+.6g}"
        ta, tb = s.totals_a, s.totals_b
        yield f"  TP/FP/FN  {a}: {ta[0]}/{ta[1]}/{ta[2]}  {b}: {tb[0]}/{tb[1]}/{tb[2]}"
        for syn in s.synsets:
            where_a = "absent" if syn.a is None else f"synset {syn.a}: {syn.matches_a} match(es)"
            where_b = "absent" if syn.b is None else f"synset {syn.b}: {syn.matches_b} match(es)"
            yield f"  sentence {syn.sent_id}: {a} {where_a}; {b} {where_b}"
