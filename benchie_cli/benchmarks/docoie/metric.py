"""DocOIE's metric: what sets DocOIE's scorer apart from CaRB's (docs/docoie.md).

DocOIE (Dong et al., Findings of ACL-IJCNLP 2021; github.com/daviddongkc/DocOIE, no licence
file) scores its systems with ``benchmark/carb.py``, IMoJIE's copy of CaRB's scorer. Its
matching, curve, AUC and optimum are CaRB's default, (s,m), which
:mod:`benchie_cli.benchmarks.carb.metric` already computes bit for bit; this module reuses
them and adds only what differs, written from the scorer's documented behaviour, none of
its code copied:

1. The gold reader (:func:`read_gold`): an argument holding ``C: `` is dropped, as in CaRB;
   every other argument loses each ``L:`` and then each ``T:``, wherever they are in it
   (``URL: x`` becomes ``UR x``), before it is stripped.
2. What it prints (:func:`printed`): the AUC, the optimum and a "Zero Conf" point (the
   lowest threshold's), each number rounded to 3 decimals separately and printed as numpy
   1.17 prints its scalars inside a Python tuple (``0.81``, ``1`` for the precision of a
   point without predictions, ``nan``).
3. The published gold (:func:`read_gold_json`): the released ``*_eval_gold.json`` files,
   which no code of DocOIE reads, converted to the CaRB gold lines DocOIE's scorer reads
   (one line ``sentence, rel, sub, obj`` a triple) and read as those lines.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence

from benchie_cli.benchmarks.carb.data import Extraction, Extractions, text_lines
from benchie_cli.benchmarks.carb.metric import (
    CarbScore,
    CurvePoint,
    carb_round,
    curve_of,
    group,
    score,
    sentence_key,
    zero_conf,
)
from benchie_cli.errors import json_key

__all__ = [
    "DocoieError",
    "Extraction",
    "collisions",
    "curve_of",
    "group",
    "json_lines",
    "printed",
    "read_gold",
    "read_gold_json",
    "read_gold_tsv",
    "read_published",
    "score",
    "sentence_key",
    "to_json",
]


class DocoieError(ValueError):
    """Gold DocOIE's scorer could not read (it would crash): ``path:line`` or a JSON location
    in the message."""


def _error(message: str, path: str, line: int | None = None) -> DocoieError:
    return DocoieError(f"{path}: {message}" if line is None else f"{path}:{line}: {message}")


# --------------------------------------------------------------------------- the gold


def _argument(column: str) -> str:
    """An argument as DocOIE's gold reader keeps it: every ``L:``, then every ``T:``,
    deleted wherever they are (markers of a location and a time in the gold of the
    benchmarks IMoJIE's scorer was written for), then stripped."""
    return column.replace("L:", "").replace("T:", "").strip()


def read_gold(lines: Iterable[str], path: str = "<gold>") -> Extractions:
    """CaRB's gold format as DocOIE's reader reads it: each line stripped and split at TABs
    into ``sentence, relation, argument...``; sentence and relation stripped; an argument
    holding ``C: `` (a context) dropped, the others as :func:`_argument` makes them. Since
    the line is stripped first, an empty last argument (DocOIE's triples without an object)
    is no argument at all. A line of fewer than two columns is one the original crashes on:
    an error here."""
    gold: Extractions = {}
    for n, line in enumerate(lines, 1):
        cols = line.strip().split("\t")
        if len(cols) < 2:
            raise _error("need sentence<TAB>relation[<TAB>argument...]", path, n)
        args = tuple(_argument(a) for a in cols[2:] if "C: " not in a)
        gold.setdefault(cols[0].strip(), []).append(Extraction(cols[1].strip(), args, 1.0))
    return gold


def _file_text(path: str) -> str:
    from benchie_cli.textio import read_text_as

    return read_text_as(path, DocoieError)


def read_gold_tsv(path: str, text: str | None = None) -> Extractions:
    """A CaRB gold TSV (DocOIE's ``data/test/<domain>/extractions.tsv``), lines split as
    Python's text mode splits them (universal newlines); ``text``: the file's content, read
    (and hashed) by the caller."""
    content = _file_text(path) if text is None else text
    return read_gold(text_lines(content), path)


#: What a field of the JSON gold cannot hold: one line of CaRB's gold could not.
_LINE_BREAKING = ("\t", "\n", "\r")


def json_lines(path: str, text: str) -> list[str]:
    """The released JSON gold (``DocOIE_<domain>_eval_gold.json``) as the CaRB gold lines
    DocOIE's scorer reads: documents, their sentences, their triples, in the file's order,
    each triple ``sentence<TAB>rel<TAB>sub<TAB>obj``. That is the layout of DocOIE's own
    ``extractions.tsv``, where an empty object leaves a trailing TAB. A field holding a TAB
    or a line break would not stay one column of one line: refused, with its JSON location."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise _error(f"not JSON: {e.msg}", path, e.lineno) from None
    except RecursionError:
        raise _error("nesting too deep for a JSON reader", path) from None
    except ValueError as e:  # an integer of more digits than Python converts
        raise _error(f"not JSON a reader takes: {e}", path) from None
    if not isinstance(doc, dict):
        raise _error("$: must be an object {document: {sentence: {triple_gold: [...]}}}", path)
    lines: list[str] = []
    for name, sentences in doc.items():
        where = f"$[{json_key(name)}]"
        if not isinstance(sentences, dict):
            raise _error(f"{where}: must be an object {{sentence: {{triple_gold: [...]}}}}", path)
        for sentence, annotated in sentences.items():
            at = f"{where}[{json_key(sentence)}]"
            triples = annotated.get("triple_gold") if isinstance(annotated, dict) else None
            if not isinstance(triples, list):
                raise _error(f'{at}: must be an object {{"triple_gold": [triple, ...]}}', path)
            if any(c in sentence for c in _LINE_BREAKING):
                raise _error(f"{at}: the sentence holds a TAB or a line break", path)
            for k, triple in enumerate(triples):
                fields = [sentence, *_triple(triple, f'{at}["triple_gold"][{k}]', path)]
                lines.append("\t".join(fields) + "\n")
    return lines


def _triple(triple: object, where: str, path: str) -> tuple[str, str, str]:
    """A triple's ``rel, sub, obj``, each a string without a TAB or line break."""
    if not isinstance(triple, dict):
        raise _error(f"{where}: a triple must be an object with sub, rel and obj", path)
    values = []
    for name in ("rel", "sub", "obj"):
        value = triple.get(name)
        if not isinstance(value, str):
            problem = "missing" if value is None else "not a string"
            raise _error(f"{where}[{name!r}]: {problem}", path)
        values.append(value)
    for name, value in zip(("rel", "sub", "obj"), values, strict=True):
        if any(c in value for c in _LINE_BREAKING):
            raise _error(f"{where}[{name!r}]: holds a TAB or a line break", path)
    rel, sub, obj = values
    return rel, sub, obj


def read_gold_json(path: str, text: str | None = None) -> Extractions:
    """The released JSON gold read as DocOIE's scorer would read it converted
    (:func:`json_lines`, then :func:`read_gold`): a triple without an object has the subject
    as its only argument, as in the TSV. ``text``: the file's content, read by the caller."""
    content = _file_text(path) if text is None else text
    return read_gold(json_lines(path, content), path)


def read_published(path: str) -> Extractions:
    """A published gold file of DocOIE: the JSON gold if its name ends in ``.json``, else
    the CaRB gold TSV (``benchie benchmark add`` checks that it reads)."""
    return read_gold_json(path) if path.endswith(".json") else read_gold_tsv(path)


def collisions(extractions: Extractions) -> int:
    """How many sentence texts lose their extractions to another text with the same
    :func:`sentence_key` (the scorer keeps the last one's): texts minus keys."""
    return len(extractions) - len({sentence_key(text) for text in extractions})


# --------------------------------------------------------------------------- what it prints


#: A point as the scorer prints it (:func:`_point`).
Printed = tuple[float | None, float, float | None]


def _best(points: Sequence[CurvePoint]) -> int | None:
    """The index of the point numpy's ``nanargmax`` picks from the F1 list: the first of
    highest F1, a point whose precision and recall are both 0 (F1 NaN) skipped; None when
    every F1 is NaN (the scorer then falls back to zeros)."""
    best: int | None = None
    best_f1 = -math.inf
    for k, (_, precision, recall, *_) in enumerate(points):
        if precision + recall == 0.0:
            continue
        f1 = 2 * precision * recall / (precision + recall)
        if f1 > best_f1:
            best, best_f1 = k, f1
    return best


def _point(point: CurvePoint) -> Printed:
    """(precision, recall, F1) of a point, each rounded to 3 decimals as numpy rounds them;
    the precision None where the scorer's is the integer 1 (no prediction at the point),
    the F1 None where it is NaN (precision and recall both 0)."""
    _, precision, recall, _, n_predicted, _, _ = point
    total = precision + recall
    f1 = 2 * precision * recall / total if total else None
    return (
        carb_round(precision) if n_predicted else None,
        carb_round(recall),
        None if f1 is None else carb_round(f1),
    )


def _shown(values: Printed | None) -> str:
    """A Python tuple of numpy 1.17 scalars as ``print`` shows it: a float64 as Python's
    ``repr`` of the same float, the integer fallbacks as ``1`` and ``0``, NaN as ``nan``."""
    if values is None:
        return "(0, 0, 0)"
    precision, recall, f1 = values
    return (
        f"({'1' if precision is None else repr(precision)}, {recall!r}, "
        f"{'nan' if f1 is None else repr(f1)})"
    )


def _printed_points(result: CarbScore) -> tuple[Printed | None, Printed | None]:
    """The optimum and the Zero Conf point as the scorer rounds them (:func:`_point`); both
    None (printed as zeros) when no point is a candidate for the optimum."""
    points = result.curve
    best = _best(points)
    if best is None:
        return None, None
    return _point(points[best]), _point(points[0])


def printed(result: CarbScore) -> str:
    """The line DocOIE's ``carb.py`` prints (without its newline): the AUC, the optimum's and
    the lowest threshold's precision, recall and F1, each rounded to 3 decimals. With no
    candidate for the optimum (every F1 NaN) both points are ``(0, 0, 0)``; with no
    prediction at all, the AUC is ``0`` too."""
    optimal, zero = _printed_points(result)
    auc = repr(carb_round(result.auc)) if result.curve else "0"
    return (
        f"AUC: {auc}\t Optimal (precision, recall, F1): {_shown(optimal)}"
        f"\tZero Conf (precision, recall, F1): {_shown(zero)}"
    )


def _listed(values: Printed | None) -> list[float | None]:
    """A printed point as JSON numbers: the integer fallbacks as 1.0 and 0.0, NaN as null."""
    if values is None:
        return [0.0, 0.0, 0.0]
    precision, recall, f1 = values
    return [1.0 if precision is None else precision, recall, f1]


def to_json(result: CarbScore) -> dict[str, object]:
    """A report's numbers: the exact AUC and optimal precision, recall and F1 (CaRB's), the
    number of curve points, the exact Zero Conf point (F1 null where NaN), and under
    ``"docoie"`` what DocOIE's scorer prints: the 3-decimal values and the line itself."""
    precision, recall, f1 = result.optimal
    optimal, zero = _printed_points(result)
    return {
        "auc": result.auc,
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "points": len(result.curve),
        "zero_conf": [None if math.isnan(v) else v for v in zero_conf(result.curve)],
        "docoie": {
            "auc": carb_round(result.auc),
            "optimal": _listed(optimal),
            "zero_conf": _listed(zero),
            "printed": printed(result),
        },
    }
