"""WiRe57's metric, exactly as its scorer computes it (docs/wire57.md).

WiRe57 (Léchelle, Gotti, Langlais, *WiRe57: A Fine-Grained Benchmark for Open Information
Extraction*, LAW XIII 2019; github.com/rali-udem/WiRe57, no licence file) is a manual Open
IE reference of 343 tuples over 57 sentences. Its scorer, ``code/wire_scorer.py``, compares
systems' tuples with the reference part by part (arg1, rel, arg2, then the extra
arguments). This module is our own implementation of what that scorer computes, written
from reading it; no code is copied. Standard library only.

1. :func:`tuple_match`: a predicted tuple matches a reference tuple only if each of arg1,
   rel and arg2 shares a word with the reference part, unless that part is made only of
   inferred words (``"inf"`` in its ``words_indexes``: the ``[bracketed]`` words of its
   text). Precision = matched words / predicted words; recall = matched words / the
   reference's *non-inferred* words. Matched words count predicted words, with
   repetitions, that occur among the reference part's words, inferred ones included, so a
   recall above 1 is possible. Case-sensitive; words are whitespace-separated.
2. :func:`sentence_stats`: greedy one-to-one matching by F1, the first pair (reference
   order, then prediction order) among equals.
3. :func:`system_score`: micro-averages over the reference sentences (precision and recall
   sums over prediction and reference counts), the means over matched pairs, and the
   exact-match counts; :func:`report` prints them as the scorer does.

Where the original crashes (a division by zero, a reference sentence without tuples, a
malformed file), we raise :class:`WireError`.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from benchie_cli.records import Record

__all__ = [
    "GoldPart",
    "GoldTuple",
    "Predicted",
    "SentenceStats",
    "SystemScore",
    "WireError",
    "by_system",
    "duplicate_keys",
    "exact_match",
    "f1",
    "printed",
    "raw_scores",
    "read_export",
    "read_reference",
    "report",
    "score_all",
    "sentence_stats",
    "system_score",
    "to_json",
    "tuple_match",
]


class WireError(ValueError):
    """Input the original scorer could not score (it would crash); the message names the
    file and JSON location, or the sentence."""


# --------------------------------------------------------------------------- data


class GoldPart(Record):
    """A part of a reference tuple: its words, how many of them are in the sentence (not
    ``"inf"`` in ``words_indexes``), and whether it is inferred through and through (every
    index ``"inf"``, which an empty part also is)."""

    words: tuple[str, ...]
    real: int
    inferred: bool


class GoldTuple(Record):
    arg1: GoldPart
    rel: GoldPart
    arg2: GoldPart
    #: ``arg3+``: the extra arguments, in order.
    extra: tuple[GoldPart, ...]


class Predicted(Record):
    """A system's tuple: each part a string, split at whitespace when compared."""

    arg1: str
    rel: str
    arg2: str
    #: ``arg3+`` (empty when absent or empty).
    extra: tuple[str, ...] = ()
    extractor: str = ""


#: Reference tuples by sentence id, in the reference's order.
Reference = dict[str, list[GoldTuple]]
#: One system's tuples by sentence id.
Predictions = dict[str, list[Predicted]]


# --------------------------------------------------------------------------- reading


#: ``json``'s ``object_pairs_hook``: an object's (key, value) pairs to the object.
_Hook = Callable[[list[tuple[str, Any]]], Any]


def _file_text(path: str) -> str:
    """The text of the file at ``path``, read as every reader reads (bounded, strict UTF-8,
    without a BOM: :func:`benchie_cli.textio.decode_text`)."""
    from benchie_cli.textio import read_text_as

    return read_text_as(path, WireError)


def _load(path: str, text: str | None = None, hook: _Hook | None = None) -> object:
    """The JSON of ``path``, or of ``text`` (its content, read by the caller). ``hook``:
    ``json``'s ``object_pairs_hook``. Python's JSON reader gives up on deep nesting with a
    ``RecursionError``: a :class:`WireError` here."""
    try:
        return json.loads(_file_text(path) if text is None else text, object_pairs_hook=hook)
    except json.JSONDecodeError as e:
        raise WireError(f"{path}:{e.lineno}: not JSON: {e.msg}") from None
    except RecursionError:
        raise WireError(f"{path}: nesting too deep for a JSON reader") from None
    except ValueError as e:  # an integer of more digits than Python converts
        raise WireError(f"{path}: not JSON a reader takes: {e}") from None


def duplicate_keys(path: str, text: str | None = None) -> list[str]:
    """The JSON location of every repeated key of the file at ``path`` (or of ``text``, its
    content), an export or a reference: ``$["TO 1"]`` for a sentence id given twice at the
    top level, ``$["TO 1"][0]["arg1"]`` for a key repeated inside a tuple. One entry per
    repetition (a key three times in an object gives two), an object's before those inside
    it, else in document order; repeats inside an overwritten value are not listed. The
    readers (:func:`read_export`, :func:`read_reference`) keep the last value of a repeated
    key silently, at the first one's position, as ``json.load`` does in the original: this
    lists what they overwrote. Empty for a file without repeats. Raises :class:`WireError`
    where the readers do on the JSON itself (not JSON, nesting too deep)."""
    repeats: list[tuple[dict[str, Any], list[str]]] = []

    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(pairs)
        if len(obj) < len(pairs):
            seen: set[str] = set()
            again = []
            for key, _ in pairs:
                if key in seen:
                    again.append(key)
                seen.add(key)
            repeats.append((obj, again))  # the reference keeps ``obj`` alive: ids stay unique
        return obj

    data = _load(path, text, hook)
    if not repeats:
        return []
    where = {id(obj): again for obj, again in repeats}
    found: list[str] = []
    stack: list[tuple[object, str]] = [(data, "$")]
    while stack:  # depth-first, in document order, without recursion
        value, at = stack.pop()
        if isinstance(value, dict):
            found.extend(at + _key(key) for key in where.get(id(value), ()))
            stack.extend((v, at + _key(k)) for k, v in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend((v, f"{at}[{k}]") for k, v in reversed(list(enumerate(value))))
    return found


def _at(path: str, where: str, message: str) -> WireError:
    return WireError(f"{path}: {where}: {message}")


def _key(key: object) -> str:
    """``[key]`` as an error names a place: JSON's form of the key, each character a terminal
    does not show as one (DEL, U+2028) escaped as JSON escapes it (this module uses the
    standard library only: ``benchie_cli.errors.json_key`` does the same)."""
    shown = json.dumps(key, ensure_ascii=False)
    return "[" + "".join(c if c.isprintable() else json.dumps(c)[1:-1] for c in shown) + "]"


def _gold_part(part: object, where: str, path: str) -> GoldPart:
    if not isinstance(part, dict):
        raise _at(path, where, "a part must be an object with words and words_indexes")
    words, indexes = part.get("words"), part.get("words_indexes")
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
        raise _at(path, where + '["words"]', "must be a list of strings")
    if not isinstance(indexes, list):
        raise _at(path, where + '["words_indexes"]', "must be a list")
    real = sum(1 for i in indexes if i != "inf")
    return GoldPart(tuple(words), real, real == 0)


def _gold_tuple(t: object, where: str, path: str) -> GoldTuple:
    if not isinstance(t, dict):
        raise _at(path, where, "a tuple must be an object")
    parts = [_gold_part(t.get(name), where + _key(name), path) for name in ("arg1", "rel", "arg2")]
    extra = t.get("arg3+")
    if not isinstance(extra, list):
        raise _at(path, where + '["arg3+"]', "must be a list")
    extras = []
    for k, a in enumerate(extra):
        part = _gold_part(a, f'{where}["arg3+"][{k}]', path)
        if part.real > len(part.words):  # the scorer asserts this
            raise _at(path, f'{where}["arg3+"][{k}]', "more word indexes than words")
        extras.append(part)
    return GoldTuple(parts[0], parts[1], parts[2], tuple(extras))


def read_reference(path: str, text: str | None = None) -> Reference:
    """WiRe57's reference (``WiRe57_343-manual-oie.json``): ``{document: [sentence, ...]}``,
    each sentence ``{"id": ..., "tuples": [...]}``. Sentences keyed by id in document order;
    a repeated id keeps the last sentence's tuples at the first one's position. Only
    ``words`` and ``words_indexes`` of each part are used (not ``text``, ``dc_text`` or
    the de-coreferenced words, nor ``attrib/spec?``)."""
    data = _load(path, text)
    if not isinstance(data, dict):
        raise _at(path, "$", "must be an object {document: [sentence, ...]}")
    reference: Reference = {}
    for doc, sentences in data.items():
        where = "$" + _key(doc)
        if not isinstance(sentences, list):
            raise _at(path, where, "must be a list of sentences")
        for k, s in enumerate(sentences):
            at = f"{where}[{k}]"
            if not isinstance(s, dict) or not isinstance(s.get("id"), str):
                raise _at(path, at, 'a sentence must be an object with a string "id"')
            tuples = s.get("tuples")
            if not isinstance(tuples, list):
                raise _at(path, at + '["tuples"]', "must be a list")
            reference[s["id"]] = [
                _gold_tuple(t, f'{at}["tuples"][{j}]', path) for j, t in enumerate(tuples)
            ]
    return reference


def _predicted(t: object, where: str, path: str) -> Predicted:
    if not isinstance(t, dict):
        raise _at(path, where, "a tuple must be an object")
    parts = []
    for name in ("arg1", "rel", "arg2", "extractor"):
        value = t.get(name)
        if not isinstance(value, str):
            raise _at(path, where + _key(name), "must be a string")
        parts.append(value)
    extra = t.get("arg3+", [])
    if not isinstance(extra, list) or not all(isinstance(a, str) for a in extra):
        raise _at(path, where + '["arg3+"]', "must be a list of strings")
    return Predicted(parts[0], parts[1], parts[2], tuple(extra), parts[3])


def read_export(path: str, text: str | None = None) -> dict[str, list[Predicted]]:
    """The systems' export (``WiRe57_extractions_by_..._export.json``): ``{sentence id:
    [{"arg1", "rel", "arg2", "extractor", ["arg3+"], ["score"]}, ...]}``, every system's
    tuples mixed, in file order. ``score`` is not used by the scorer, nor here."""
    data = _load(path, text)
    if not isinstance(data, dict):
        raise _at(path, "$", "must be an object {sentence id: [tuple, ...]}")
    export: dict[str, list[Predicted]] = {}
    for sid, tuples in data.items():
        where = "$" + _key(sid)
        if not isinstance(tuples, list):
            raise _at(path, where, "must be a list of tuples")
        export[sid] = [_predicted(t, f"{where}[{k}]", path) for k, t in enumerate(tuples)]
    return export


def by_system(
    reference: Mapping[str, object], export: Mapping[str, list[Predicted]]
) -> dict[str, Predictions]:
    """Each system's tuples of the reference sentences, systems sorted by name. A system is
    every extractor named anywhere in the export, even one with tuples only outside the
    reference. Every reference sentence must be in the export (the scorer crashes
    otherwise)."""
    systems = sorted({t.extractor for tuples in export.values() for t in tuples})
    split: dict[str, Predictions] = {e: {} for e in systems}
    for sid in reference:
        if sid not in export:
            raise WireError(f"reference sentence {sid!r} is not in the export")
        for t in export[sid]:
            split[t.extractor].setdefault(sid, []).append(t)
    return split


# --------------------------------------------------------------------------- matching


def _overlap(words: Sequence[str], gold: GoldPart) -> int:
    """Predicted words, repetitions included, found among the reference part's words."""
    return sum(1 for w in words if w in gold.words)


def tuple_match(predicted: Predicted, gold: GoldTuple) -> tuple[float, float] | None:
    """(precision, recall) of ``predicted`` against ``gold``, None if they do not match.

    arg1, rel, arg2: an empty predicted part is skipped if the reference part is empty or
    inferred only, else there is no match. Otherwise the part must share a word with the
    reference (or the reference part be inferred only); its words count towards precision
    and the reference's real words towards recall. Extra arguments, by position: every
    reference one adds its real words to the recall denominator; a predicted one at the
    same position adds its words and matches; predicted ones beyond the reference's are
    ignored, as are all of them when the reference has none."""
    matched = predicted_words = gold_words = 0
    for text, part in (
        (predicted.arg1, gold.arg1),
        (predicted.rel, gold.rel),
        (predicted.arg2, gold.arg2),
    ):
        words = text.split()
        if not words:
            if part.words and not part.inferred:
                return None
            continue
        n = _overlap(words, part)
        if n == 0 and not part.inferred:
            return None
        matched += n
        predicted_words += len(words)
        gold_words += part.real
    for k, part in enumerate(gold.extra):
        gold_words += part.real
        if k < len(predicted.extra):
            words = predicted.extra[k].split()
            matched += _overlap(words, part)
            predicted_words += len(words)
    if not predicted_words or not gold_words:
        raise WireError(
            f"tuple {predicted[:3]} against a reference tuple with "
            f"{gold_words} real words: the scorer divides by zero"
        )
    return matched / predicted_words, matched / gold_words


def f1(precision: float, recall: float) -> float:
    """The scorer's F1: 2PR / (P + R), and 0 when P + R is 0 (an int 0, printed alike)."""
    if precision + recall == 0:
        return 0
    return 2 * precision * recall / (precision + recall)


def exact_match(predicted: Predicted, gold: GoldTuple) -> bool:
    """Each of arg1, rel, arg2 equal, as a string, to the reference words (inferred ones
    included) joined by single spaces; the same for each reference extra argument, by
    position. Predicted extra arguments beyond the reference's do not matter."""
    for text, part in (
        (predicted.arg1, gold.arg1),
        (predicted.rel, gold.rel),
        (predicted.arg2, gold.arg2),
    ):
        if text != " ".join(part.words):
            return False
    if gold.extra:
        if not predicted.extra:
            return False
        for k, part in enumerate(gold.extra):
            if k >= len(predicted.extra):
                raise WireError(
                    f"tuple {predicted[:3]} has fewer extra arguments than the reference "
                    "tuple it equals so far: the scorer crashes (IndexError)"
                )
            if predicted.extra[k] != " ".join(part.words):
                return False
    return True


class SentenceStats(Record):
    """One reference sentence's contribution."""

    #: Sum of the matched pairs' precisions (in match order), number of predictions.
    precision: tuple[float, int]
    #: Sum of the matched pairs' recalls (in match order), number of reference tuples.
    recall: tuple[float, int]
    #: (precision, recall) of each matched pair, in the order the greedy matching took them.
    matches: tuple[tuple[float, float], ...]
    #: Predictions equal to some reference tuple, number of predictions (0, 0 if none).
    exact_precision: tuple[int, int]
    #: Reference tuples equal to some prediction, number of reference tuples.
    exact_recall: tuple[int, int]


def _greedy(
    scores: list[list[tuple[float, float] | None]],
) -> list[tuple[float, float]]:
    """The scorer's matching: repeatedly take the free pair of highest F1 (above 0), the
    first in (reference, prediction) order among equal F1s. Sorting the pairs once and
    skipping taken rows and columns takes the same pairs in the same order."""
    candidates = []
    for i, row in enumerate(scores):
        for j, pr in enumerate(row):
            if pr is not None:
                value = f1(*pr)
                if value > 0:
                    candidates.append((-value, i, j, pr))
    candidates.sort(key=lambda c: (c[0], c[1], c[2]))
    rows: set[int] = set()
    cols: set[int] = set()
    taken = []
    for _, i, j, pr in candidates:
        if i not in rows and j not in cols:
            rows.add(i)
            cols.add(j)
            taken.append(pr)
    return taken


def _sum(values: Iterable[float]) -> float:
    """Left-to-right float addition from 0, as Python's ``sum`` before 3.12 (3.12's
    compensated ``sum`` can differ in the last bits)."""
    total = 0.0
    for v in values:
        total += v
    return total


def sentence_stats(gold: Sequence[GoldTuple], predicted: Sequence[Predicted]) -> SentenceStats:
    """Match one sentence's tuples. A duplicate prediction is a separate prediction (it
    may match another reference tuple or count as unmatched)."""
    if not gold:
        raise WireError("a reference sentence without tuples: the scorer crashes (IndexError)")
    scores = [[tuple_match(p, g) for p in predicted] for g in gold]
    exact = [[exact_match(p, g) for p in predicted] for g in gold]
    taken = _greedy(scores)
    exact_predictions = sum(1 for j in range(len(predicted)) if any(row[j] for row in exact))
    return SentenceStats(
        (_sum(p for p, _ in taken), len(predicted)),
        (_sum(r for _, r in taken), len(gold)),
        tuple(taken),
        (exact_predictions, len(predicted)),
        (sum(1 for row in exact if any(row)), len(gold)),
    )


# --------------------------------------------------------------------------- corpus


class SystemScore(Record):
    precision: float
    recall: float
    f1: float
    #: Number of matched pairs, and their mean precision and recall.
    matches: int
    precision_of_matches: float
    recall_of_matches: float
    #: (exactly correct predictions, predictions) and (reference tuples found exactly,
    #: reference tuples).
    exact_precision: tuple[int, int]
    exact_recall: tuple[int, int]
    exact_f1: float
    #: The matched pairs' precisions and recalls, sentence after sentence: the scorer's
    #: ``raw_scores`` files.
    precision_scores: list[float]
    recall_scores: list[float]


def system_score(
    reference: Reference, predictions: Predictions, *, system: str | None = None
) -> SystemScore:
    """One system's micro-averaged score over every reference sentence (a sentence without
    predictions adds its reference tuples to the recall denominator only); predictions
    for sentences outside the reference are ignored.

    Raises :class:`WireError` where the scorer crashes on this system's tuples: no match
    at all (it divides by zero), or one tuple it cannot compare (the message names the
    sentence). ``system``: the system's name; the message then starts with
    ``system NAME: ``, so that a caller scoring several systems can report the failure as
    that system's alone (the original stops at the first such system)."""
    named = "" if system is None else f"system {system}: "
    stats = []
    for sid, gold in reference.items():
        try:
            stats.append(sentence_stats(gold, predictions.get(sid, [])))
        except WireError as e:
            raise WireError(f"{named}sentence {sid!r}: {e}") from None
    prec_num = rec_num = 0.0
    prec_den = rec_den = 0
    for s in stats:
        prec_num += s.precision[0]
        prec_den += s.precision[1]
        rec_num += s.recall[0]
        rec_den += s.recall[1]
    matches = sum(len(s.matches) for s in stats)
    exact_p = (sum(s.exact_precision[0] for s in stats), sum(s.exact_precision[1] for s in stats))
    exact_r = (sum(s.exact_recall[0] for s in stats), sum(s.exact_recall[1] for s in stats))
    if not prec_den or not rec_den or not matches:
        raise WireError(
            f"{named}{matches} matches ({prec_den} predictions on the reference sentences, "
            f"{rec_den} reference tuples): WiRe57's scorer divides by zero for it"
        )
    precision, recall = prec_num / prec_den, rec_num / rec_den
    exact_precision, exact_recall = exact_p[0] / exact_p[1], exact_r[0] / exact_r[1]
    return SystemScore(
        precision,
        recall,
        f1(precision, recall),
        matches,
        prec_num / matches,  # the scorer's sum of per-sentence sums: the same additions
        rec_num / matches,
        exact_p,
        exact_r,
        f1(exact_precision, exact_recall),
        [p for s in stats for p, _ in s.matches],
        [r for s in stats for _, r in s.matches],
    )


def score_all(
    reference: Reference, export: Mapping[str, list[Predicted]]
) -> dict[str, SystemScore]:
    """Every system of the export, sorted by name. The first system the scorer cannot
    score stops it, as in the original (:func:`system_score`'s error names it)."""
    return {
        e: system_score(reference, p, system=e) for e, p in by_system(reference, export).items()
    }


# --------------------------------------------------------------------------- output


def report(system: str, s: SystemScore) -> str:
    """The scorer's four lines for one system (no final newline)."""
    exact_precision = s.exact_precision[0] / s.exact_precision[1]
    exact_recall = s.exact_recall[0] / s.exact_recall[1]
    return (
        f"System {system} prec/rec/f1: {s.precision:.1%} {s.recall:.1%} {s.f1:.3f}\n"
        f"System {system} prec/rec of matches only (non-matches): "
        f"{s.precision_of_matches:.0%} {s.recall_of_matches:.0%} ({s.matches})\n"
        f"{s.exact_precision[0]} were exactly correct, out of {s.exact_precision[1]} "
        f"predicted / the reference {s.exact_recall[1]}.\n"
        f"Exact-match prec/rec/f1: {exact_precision:.1%} {exact_recall:.1%} {s.exact_f1:.3f}"
    )


def printed(scores: Mapping[str, SystemScore]) -> str:
    """The scorer's standard output: the reports by descending F1, each preceded by a
    blank line. The scorer keys them by F1, so of systems with equal F1 only the last by
    name is printed."""
    by_f1: dict[float, str] = {}
    for system, s in scores.items():
        by_f1[s.f1] = report(system, s)
    return "\n" + "\n\n".join(text for _, text in sorted(by_f1.items(), reverse=True)) + "\n"


def raw_scores(s: SystemScore) -> tuple[str, str]:
    """The contents of the scorer's ``raw_scores/<system>_prec_scores.dat`` and
    ``_rec_scores.dat``: Python's ``str`` of the lists, no newline."""
    return str(s.precision_scores), str(s.recall_scores)


def to_json(s: SystemScore) -> dict[str, object]:
    """A summary with exact values."""
    return {
        "precision": s.precision,
        "recall": s.recall,
        "f1": s.f1,
        "matches": s.matches,
        "precision_of_matches": s.precision_of_matches,
        "recall_of_matches": s.recall_of_matches,
        "exact_precision": list(s.exact_precision),
        "exact_recall": list(s.exact_recall),
        "exact_f1": s.exact_f1,
    }


USAGE = """usage: python -m benchie_cli.benchmarks.wire57.metric REFERENCE EXPORT [--json]
       [--raw-scores DIR]

WiRe57's score of every system in EXPORT (the systems' export JSON) against REFERENCE
(WiRe57_343-manual-oie.json): the report the original scorer prints, or with --json the
exact values by system. --raw-scores DIR: also write DIR/<system>_prec_scores.dat and
_rec_scores.dat as the original does."""


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see :data:`USAGE`); its exit status."""
    args = sys.argv[1:] if argv is None else list(argv)
    as_json = "--json" in args
    args = [a for a in args if a != "--json"]
    raw_dir = None
    if "--raw-scores" in args:
        k = args.index("--raw-scores")
        if k + 1 >= len(args):
            print(USAGE, file=sys.stderr)
            return 2
        raw_dir = args[k + 1]
        del args[k : k + 2]
    if len(args) != 2:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        scores = score_all(read_reference(args[0]), read_export(args[1]))
    except (OSError, WireError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if raw_dir is not None:
        from benchie_cli.errors import BenchieError, failure_line
        from benchie_cli.textio import writable_name, write_files_of

        files = []
        for system, s in scores.items():
            for kind, text in zip(("prec", "rec"), raw_scores(s), strict=True):
                name = f"{system}_{kind}_scores.dat"
                if not writable_name(name):
                    print(f"error: {args[1]}: system {system!r} names no file", file=sys.stderr)
                    return 2
                files.append((os.path.join(raw_dir, name), text))
        try:  # (every name checked before any file is written; each written atomically)
            write_files_of(files, args)
        except BenchieError as exc:
            print(f"error: {failure_line(exc)}", file=sys.stderr)
            return 2
    if as_json:
        print(json.dumps({system: to_json(s) for system, s in scores.items()}))
    else:
        sys.stdout.write(printed(scores))
    return 0


if __name__ == "__main__":
    from benchie_cli.stops import run_module

    run_module(main)
