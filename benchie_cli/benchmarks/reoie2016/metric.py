"""Re-OIE2016's metric, exactly as its scorer computes it (docs/reoie2016.md).

Re-OIE2016 (Zhan & Zhao, *Span Model for Open Information Extraction on Accurate Corpus*,
AAAI 2020; github.com/zhanjunlang/Span_OIE, no licence file) is a relabelled OIE2016 test
set. Its scorer, ``evaluate/evaluate.py`` (the same code ships in youngbin-ro/Multi2OIE),
is a descendant of OIE2016's benchmark. This module is our own implementation of what that
scorer computes, written from reading it; no code is copied, and neither numpy nor
scikit-learn is imported.

The metric, in short:

1. Gold and system output meet by sentence key (:func:`sentence_key`: spaces, Penn
   Treebank bracket escapes and ASCII punctuation do not matter).
2. A prediction matches a gold tuple lexically (:func:`lexical_match`): the words of
   "predicate arguments" joined by spaces and split at single spaces; more than half the
   gold's words must be met, counting every equal (gold word, predicted word) *pair*.
3. The pairing is first-fit, in file order (:func:`sentence_result`): each gold tuple in
   turn takes the first still-unused prediction that matches it. Confidence plays no part.
   Every prediction becomes one labelled score: matched (true) or not (false).
4. scikit-learn 0.22's ``precision_recall_curve`` over those labelled scores, recall scaled
   by (matched gold / "total gold"), then ``auc`` and the point of best F1
   (:func:`score`). "Total gold" counts a gold sentence without output n * n times, not n
   (a quirk of the original's loop), which lowers recall.

Where the original crashes, we raise :class:`ReOieError`: an empty gold, no prediction on
any gold sentence, a malformed file. Everything else, NaN included, is reproduced.
"""

from __future__ import annotations

import io
import json
import math
import sys
from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import TextIO

from benchie_cli.benchmarks.carb.data import text_lines
from benchie_cli.benchmarks.carb.matching import collisions, dropped_texts
from benchie_cli.benchmarks.carb.metric import numpy_sum, sentence_key
from benchie_cli.curves import Curve, of_points
from benchie_cli.errors import json_key
from benchie_cli.records import Record

__all__ = [
    "Extraction",
    "Point",
    "ReOieError",
    "ReOieScore",
    "SentenceResult",
    "collisions",
    "corpus_results",
    "curve_of",
    "dropped_texts",
    "group",
    "lexical_match",
    "printed",
    "read_gold",
    "read_gold_content",
    "read_gold_json",
    "read_gold_text",
    "read_system",
    "read_system_counted",
    "score",
    "sentence_key",
    "sentence_result",
    "to_json",
    "write_curve",
    "write_errors",
]


class ReOieError(ValueError):
    """Input the original scorer could not score (it would crash): ``path:line`` or a JSON
    location in the message when it comes from a file."""


class Extraction(Record):
    """One tuple as the scorer holds it. ``line_index``: a gold tuple's 0-based line in an
    OIE2016 text gold (what the scorer writes to its error file); None otherwise."""

    pred: str
    args: tuple[str, ...]
    confidence: float
    line_index: int | None = None


#: Extractions by sentence text, in order of first appearance.
Extractions = dict[str, list[Extraction]]


# --------------------------------------------------------------------------- reading


def _error(message: str, path: str, line: int | None = None) -> ReOieError:
    where = path if line is None else f"{path}:{line}"
    return ReOieError(f"{where}: {message}")


def _lines(path: str, text: str | None = None) -> Iterable[tuple[int, str]]:
    """Numbered lines of a UTF-8 text file, universal newlines (Python 3's ``open``), for
    readers that strip each (:func:`benchie_cli.benchmarks.carb.data.text_lines`);
    ``text``: the file's content already read (and hashed) by the caller, ``path`` then
    only names it."""
    yield from enumerate(text_lines(_file_text(path) if text is None else text), 1)


def _file_text(path: str) -> str:
    """The text of the file at ``path``, read as every reader reads (bounded, strict UTF-8,
    without a BOM: :func:`benchie_cli.textio.decode_text`)."""
    from benchie_cli.textio import read_text_as

    return read_text_as(path, ReOieError)


#: The Re-OIE2016 JSON fields that become arguments, in the order the reader adds them
#: (``temp`` before ``loc``). ``context`` is never used.
ARGUMENT_FIELDS = ("arg0", "arg1", "arg2", "arg3", "temp", "loc")


def _json_tuple(t: object, sentence: str, k: int, path: str) -> Extraction:
    """Tuple ``k`` of ``sentence``'s; its JSON path is formed for an error only: the paths
    of 1,508 valid tuples cost a run milliseconds."""
    if not isinstance(t, dict):
        raise _error(f"{_where(sentence, k)}: a tuple must be a JSON object", path)
    fields = {}
    for name in ("pred", *ARGUMENT_FIELDS):
        value = t.get(name)
        if not isinstance(value, str):
            problem = "missing" if value is None else "not a string"
            raise _error(f"{_where(sentence, k)}[{name!r}]: {problem}", path)
        fields[name] = value
    pred = fields["pred"]
    # "<be>" marks an inserted copula: alone it becomes the literal token "[is]"; elsewhere
    # "<be> " is deleted (a "<be>" without a following space stays).
    pred = "[is]" if pred.strip() == "<be>" else pred.replace("<be> ", "")
    args = tuple(fields[n] for n in ARGUMENT_FIELDS if fields[n] != "")
    return Extraction(pred, args, 1.0)


def _where(sentence: str, k: int | None = None) -> str:
    """A gold tuple's (or, ``k`` None, a sentence's) JSON path, as errors name it."""
    key = f"$[{json_key(sentence)}]"
    return key if k is None else f"{key}[{k}]"


def read_gold_json(path: str, text: str | None = None) -> Extractions:
    """Re-OIE2016's gold (``Re-OIE2016.json``): ``{sentence: [tuple, ...]}``, each tuple
    with string fields ``pred``, ``arg0``..``arg3``, ``temp``, ``loc``. An argument is kept
    unless it is exactly ``""`` (a space is kept). A sentence with no tuple is absent from
    the gold, as in the original's ``defaultdict``. A repeated key: the last value, at the
    first position (``json.load``). ``text``: the file's content, read by the caller."""
    try:
        data = json.loads(_file_text(path) if text is None else text)
    except json.JSONDecodeError as e:
        raise _error(f"not JSON: {e.msg}", path, e.lineno) from None
    except RecursionError:  # Python's JSON reader gives up on deep nesting
        raise _error("nesting too deep for a JSON reader", path) from None
    except ValueError as e:  # an integer of more digits than Python converts
        raise _error(f"not JSON a reader takes: {e}", path) from None
    if not isinstance(data, dict):
        raise _error("$: the gold must be a JSON object {sentence: [tuple, ...]}", path)
    gold: Extractions = {}
    for sentence, tuples in data.items():
        if not isinstance(tuples, list):
            raise _error(f"{_where(sentence)}: must be a list of tuples", path)
        extractions = [_json_tuple(t, sentence, k, path) for k, t in enumerate(tuples)]
        if extractions:
            gold[sentence] = extractions
    return gold


def read_gold_text(path: str, text: str | None = None) -> Extractions:
    """OIE2016's text gold (``OIE2016.txt``, the scorer's ``old`` gold; Span_OIE's
    ``GoldReader``): ``sentence<TAB>head<TAB>arg<TAB>arg...`` after stripping the line.
    The second column is the relation and *every* later column is an argument (in
    OIE2016.txt the first of them is the full predicate). Nothing else is stripped.
    ``line_index`` is the 0-based line number. A line with fewer than two columns is an error
    (the original crashes on it, blank lines included)."""
    gold: Extractions = {}
    for n, line in _lines(path, text):
        cols = line.strip().split("\t")
        if len(cols) < 2:
            raise _error("need sentence<TAB>relation[<TAB>argument...]", path, n)
        gold.setdefault(cols[0], []).append(Extraction(cols[1], tuple(cols[2:]), 1.0, n - 1))
    return gold


def read_gold(path: str) -> Extractions:
    """The gold in either format: Re-OIE2016 JSON if ``path`` ends in ``.json``, else
    OIE2016 text (the original picks by its ``new``/``old`` flag)."""
    return read_gold_json(path) if path.endswith(".json") else read_gold_text(path)


def read_gold_content(path: str, text: str) -> Extractions:
    """The gold in either format, told by its content rather than its name: Re-OIE2016 JSON
    when it begins with ``{`` (after blanks) and reads as JSON, else OIE2016 text (the
    scorer's ``old`` gold, whose lines begin with a sentence: one that begins with ``{``, its
    first line holding a TAB, is text too); one that begins with ``[`` is JSON of the wrong
    shape. ``score --gold-file`` reads a file so, as the
    original reads either by its ``new``/``old`` flag; the gold's sha256 in the report
    names which one was used."""
    start = text.lstrip()
    if start[:1] == "[":  # (JSON, but not the object the gold is: its reader says so)
        return read_gold_json(path, text)
    if start[:1] != "{":
        return read_gold_text(path, text)
    try:
        return read_gold_json(path, text)
    except ReOieError:
        if "\t" not in start.split("\n", 1)[0]:
            raise
        return read_gold_text(path, text)  # a text gold whose first sentence begins with {


def read_system(path: str, text: str | None = None) -> Extractions:
    """The scorer's system format (``GeneralReader``):
    ``sentence<TAB>confidence<TAB>predicate<TAB>arg0[<TAB>arg1...]`` after stripping the
    line. Lines with fewer than four columns are skipped silently (:func:`read_system_counted`
    counts them). The confidence is Python's ``float`` (so ``nan``, ``inf``, `` 1e-3`` and
    ``1_0`` are accepted); one it rejects is an error, as the original crashes on it."""
    return read_system_counted(path, text)[0]


def read_system_counted(path: str, text: str | None = None) -> tuple[Extractions, int]:
    """:func:`read_system`'s extractions, and the number of lines it skipped that were not
    blank: lines with text but fewer than four columns, whose content the scorer drops
    without a word (a blank line drops nothing and is not counted)."""
    system: Extractions = {}
    skipped = 0
    for n, line in _lines(path, text):
        cols = line.strip().split("\t")
        if len(cols) < 4:
            if cols != [""]:
                skipped += 1
            continue
        try:
            confidence = float(cols[1])
        except ValueError:
            raise _error(f"confidence {cols[1][:40]!r} is not a number", path, n) from None
        system.setdefault(cols[0], []).append(Extraction(cols[2], tuple(cols[3:]), confidence))
    return system, skipped


def group(extractions: Extractions) -> Extractions:
    """Extractions keyed by :func:`sentence_key` (the original's ``normalizeDict``): when
    texts share a key, the last one's extractions replace the earlier ones' at the first
    one's position; the replaced ones are not scored at all."""
    return {sentence_key(text): exs for text, exs in extractions.items()}


# --------------------------------------------------------------------------- matching


def _bag(extraction: Extraction) -> dict[str, int]:
    """The words of "predicate arg0 arg1 ..." split at single spaces (so a double space
    yields an empty word, which is a word like any other), with their counts."""
    counts: dict[str, int] = {}
    for w in " ".join((extraction.pred, *extraction.args)).split(" "):
        counts[w] = counts.get(w, 0) + 1
    return counts


def _pairs(gold: dict[str, int], predicted: dict[str, int]) -> int:
    """Equal (gold word, predicted word) pairs: a word twice in each counts 4 times."""
    return sum(k * predicted.get(w, 0) for w, k in gold.items())


def lexical_match(gold: Extraction, predicted: Extraction) -> bool:
    """The scorer's ``lexicalMatch``: equal word pairs / gold words > 0.5. Case-sensitive;
    stop words count (the call's ``ignoreStopwords``/``ignoreCase`` are ignored). Word
    pairs, not a multiset overlap: a repeated word can carry a match alone."""
    bag = _bag(gold)
    return 2 * _pairs(bag, _bag(predicted)) > sum(bag.values())


class SentenceResult(Record):
    """One gold sentence, as the scorer sees it."""

    n_gold: int
    #: Whether the system has output for the sentence. Without, the scorer counts its gold
    #: tuples n * n times, both as gold and as unmatched, and lists none as errors.
    predicted: bool
    #: (confidence, matched) of every prediction, in the scorer's order: the matched ones
    #: in gold order, then the unmatched ones in file order.
    scores: tuple[tuple[float, bool], ...]
    #: ``line_index`` of every unmatched gold tuple, in gold order (only with output).
    errors: tuple[int | None, ...]


def sentence_result(gold: Sequence[Extraction], predicted: Sequence[Extraction]) -> SentenceResult:
    """First-fit one-to-one matching: each gold tuple in file order takes the first
    prediction, in file order, that is still free and :func:`lexical_match` es it. A
    duplicate prediction is a separate prediction: it can match a second gold tuple, or
    is a false positive. ``predicted`` empty: the sentence has no output."""
    if not predicted:
        return SentenceResult(len(gold), False, (), ())
    bags = [_bag(p) for p in predicted]
    free = [True] * len(predicted)
    matched: list[tuple[float, bool]] = []
    errors: list[int | None] = []
    for g in gold:
        bag = _bag(g)
        size = sum(bag.values())
        for j, p in enumerate(predicted):
            if free[j] and 2 * _pairs(bag, bags[j]) > size:
                free[j] = False
                matched.append((p.confidence, True))
                break
        else:
            errors.append(g.line_index)
    rest = [(p.confidence, False) for p, f in zip(predicted, free, strict=True) if f]
    return SentenceResult(len(gold), True, (*matched, *rest), tuple(errors))


def corpus_results(gold: Extractions, predicted: Extractions) -> dict[str, SentenceResult]:
    """:func:`sentence_result` of every gold sentence, by sentence key in gold order.
    Predictions for sentences outside the gold are ignored entirely (no thresholds)."""
    system = group(predicted)
    return {key: sentence_result(g, system.get(key, ())) for key, g in group(gold).items()}


# --------------------------------------------------------------------------- the curve


class Point(Record):
    """A point of the curve: the predictions with confidence >= ``threshold``."""

    precision: float
    recall: float
    threshold: float


class ReOieScore(Record):
    #: In ascending order of threshold, from the highest threshold that reaches every
    #: matched gold tuple (scikit-learn's truncation); the final (1, 0) point not included.
    curve: list[Point]
    auc: float
    #: (precision, recall, F1, threshold) of the point of best F1, as the scorer picks it.
    optimal: tuple[float, float, float, float]
    #: The scorer's ``correctTotal`` (n * n for a gold sentence without output) and
    #: ``unmatchedCount``; their difference is the number of matched gold tuples.
    correct_total: int
    unmatched: int
    #: Gold tuples of the sentences without output, and unmatched gold tuples of the
    #: others (what Multi2OIE's copy prints as ``non_sent`` and ``non_match``: its
    #: ``non_sent`` is counted in the loop over a sentence's gold tuples).
    non_sent: int
    non_match: int
    #: The scorer's error file: ``line_index`` of the unmatched gold tuples of sentences with
    #: output.
    errors: list[int | None]


def _f1(precision: float, recall: float) -> float:
    """The scorer's ``f_beta`` for beta 1 in numpy float64: NaN at 0/0."""
    denominator = precision + recall
    if denominator == 0.0:
        return math.nan
    return 2.0 * (precision * recall) / denominator


def _thresholds(scores: Iterable[tuple[float, bool]]) -> list[tuple[float, int, int]]:
    """(threshold, predictions, true ones) for every distinct confidence, descending.
    NaN and infinite confidences count as 0 (the scorer replaces them). Among equal values
    (0.0 and -0.0) the first in the scorer's order names the threshold, as numpy's stable
    sort reversed makes it. If every confidence is NaN or infinite, the scorer's scores are
    all the integer 0, and so is its one threshold (it prints as ``0``)."""
    counts: dict[float, list[int]] = {}
    finite = False
    for confidence, true in scores:
        if math.isfinite(confidence):
            c, finite = confidence, True
        else:
            c = 0.0
        slot = counts.get(c)
        if slot is None:
            slot = counts[c] = [0, 0]
        slot[0] += 1
        slot[1] += true
    rows: list[tuple[float, int, int]] = []
    n = tps = 0
    for c in sorted(counts, reverse=True):
        n += counts[c][0]
        tps += counts[c][1]
        rows.append((c if finite else 0, n, tps))
    return rows


def _curve(rows: list[tuple[float, int, int]], multiplier: float) -> list[Point]:
    """scikit-learn 0.22's ``precision_recall_curve`` with recall times ``multiplier``:
    precision tps / n, recall (tps / all tps) * multiplier (NaN when nothing matched),
    cut below the first threshold that reaches all true scores, ascending."""
    total = rows[-1][2]
    last = next(k for k, row in enumerate(rows) if row[2] == total)
    points = []
    for c, n, tps in rows[last::-1]:
        recall = tps / total * multiplier if total else math.nan
        points.append(Point(tps / n, recall, c))
    return points


def _auc(points: Sequence[Point]) -> float:
    """scikit-learn's ``auc(recall, precision)`` over the curve and the final point
    (recall 0, precision 1): numpy's ``trapz`` summed as numpy sums, negated when recall
    decreases (it never increases)."""
    xs = [p.recall for p in points] + [0.0]
    ys = [p.precision for p in points] + [1.0]
    dxs = [b - a for a, b in pairwise(xs)]
    area = numpy_sum([dx * (y1 + y0) / 2.0 for dx, y0, y1 in zip(dxs, ys, ys[1:], strict=False)])
    if any(dx < 0.0 for dx in dxs):
        if any(dx > 0.0 for dx in dxs):
            raise ReOieError("recall is neither increasing nor decreasing")  # cannot happen
        return -area
    return area


def _optimal(points: Sequence[Point]) -> tuple[float, float, float, float]:
    """Python's ``max`` by F1 over the curve from the lowest threshold: the first of equal
    F1s wins. A NaN F1 never beats anything, and stays if it is the first."""
    best = None
    for p in points:
        candidate = (p.precision, p.recall, _f1(p.precision, p.recall), p.threshold)
        if best is None or candidate[2] > best[2]:
            best = candidate
    assert best is not None
    return best


def score(gold: Extractions, predicted: Extractions) -> ReOieScore:
    """The scorer's result for ``predicted`` against ``gold`` (as the readers return them).

    Raises :class:`ReOieError` where the original crashes: an empty gold (a division by
    zero) or no prediction on any gold sentence (scikit-learn refuses empty input)."""
    results = corpus_results(gold, predicted)
    correct_total = unmatched = non_sent = non_match = 0
    errors: list[int | None] = []
    for r in results.values():
        if r.predicted:
            correct_total += r.n_gold
            unmatched += len(r.errors)
            non_match += len(r.errors)
            errors.extend(r.errors)
        else:
            correct_total += r.n_gold * r.n_gold
            unmatched += r.n_gold * r.n_gold
            non_sent += r.n_gold
    if not correct_total:
        raise ReOieError("the gold has no tuple: the scorer divides by zero")
    rows = _thresholds(s for r in results.values() for s in r.scores)
    if not rows:
        raise ReOieError("no prediction for any gold sentence: the scorer cannot draw a curve")
    points = _curve(rows, (correct_total - unmatched) / correct_total)
    return ReOieScore(
        points,
        _auc(points),
        _optimal(points),
        correct_total,
        unmatched,
        non_sent,
        non_match,
        errors,
    )


# --------------------------------------------------------------------------- output


def _repr(value: float) -> str:
    """How the scorer's numbers print: Python's shortest repr (numpy 1.14+ agrees)."""
    return repr(value)


def printed(result: ReOieScore) -> str:
    """What the scorer prints on standard output, newline included: the AUC and the
    optimal (precision, recall, F1, threshold), every number at full precision."""
    p, r, f, t = result.optimal
    optimal = ", ".join(map(_repr, (p, r, f, t)))
    return f"AUC: {_repr(result.auc)}\n Optimal (precision, recall, F1, threshold): ({optimal})\n"


def write_curve(result: ReOieScore, out: TextIO) -> None:
    """The curve file the scorer writes (its ``output_file``): a ``Precision<TAB>Recall``
    header, then the curve and the final (1.0, 0.0) point sorted by recall (stably: equal
    recalls keep ascending threshold order)."""
    rows = [(p.precision, p.recall) for p in result.curve] + [(1.0, 0.0)]
    out.write("Precision\tRecall\n")
    out.writelines(f"{_repr(p)}\t{_repr(r)}\n" for p, r in sorted(rows, key=lambda row: row[1]))


def curve_of(result: ReOieScore) -> Curve:
    """The curve as a report holds it (ascending threshold, then the final point: precision
    1, recall 0, of no threshold, null) and its file as the scorer writes it
    (:func:`write_curve`)."""

    def dat() -> str:
        out = io.StringIO()
        write_curve(result, out)
        return out.getvalue()

    points = [(p.threshold, p.precision, p.recall) for p in result.curve]
    return of_points([*points, (math.inf, 1.0, 0.0)], dat)


def write_errors(result: ReOieScore, out: TextIO) -> None:
    """The scorer's ``error.txt``: one unmatched gold ``line_index`` a line (``None`` for a JSON
    gold), and a final newline even when there is none."""
    out.write("\n".join(str(e) for e in result.errors) + "\n")


def to_json(result: ReOieScore) -> dict[str, object]:
    """A summary: the exact AUC and optimum (NaN where the scorer has NaN), the counts."""
    p, r, f, t = result.optimal
    return {
        "auc": result.auc,
        "precision": p,
        "recall": r,
        "f1": f,
        "threshold": t,
        "points": len(result.curve) + 1,
        "correct_total": result.correct_total,
        "unmatched": result.unmatched,
        "matched": result.correct_total - result.unmatched,
        "non_sent": result.non_sent,
        "non_match": result.non_match,
    }


USAGE = """usage: python -m benchie_cli.benchmarks.reoie2016.metric GOLD SYSTEM [CURVE [ERRORS]]

Re-OIE2016's score of SYSTEM (sentence<TAB>confidence<TAB>predicate<TAB>args...) against
GOLD (Re-OIE2016.json, or OIE2016.txt for any other name): first the two lines the original
scorer prints, then a JSON summary. CURVE, ERRORS: also write the curve file and the error
file as the original does."""


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see :data:`USAGE`); its exit status."""
    args = sys.argv[1:] if argv is None else list(argv)
    if len(args) not in (2, 3, 4):
        print(USAGE, file=sys.stderr)
        return 2
    try:
        result = score(read_gold(args[0]), read_system(args[1]))
    except (OSError, ReOieError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    from benchie_cli.errors import BenchieError, failure_line
    from benchie_cli.textio import write_files_of

    files = []
    for path, write in zip(args[2:], (write_curve, write_errors), strict=False):
        text = io.StringIO(newline="\n")
        write(result, text)
        files.append((path, text.getvalue()))
    try:  # (atomically, and never over the gold or the system output: checked before any)
        write_files_of(files, args[:2])
    except BenchieError as exc:
        print(f"error: {failure_line(exc)}", file=sys.stderr)
        return 2
    sys.stdout.write(printed(result))
    print(json.dumps(to_json(result)))
    return 0


if __name__ == "__main__":
    from benchie_cli.stops import run_module

    run_module(main)
