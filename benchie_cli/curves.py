"""A system's precision-recall curve as a report holds it and as its original scorer writes
it (docs/reports.md, "Curves").

Each benchmark's metric computes its own curve (CaRB's, oie-benchmark's); this module is
the one shape they all take on their way out: the points in the scorer's own order, the
JSON object of a report's system (``{"threshold": [...], "precision": [...], "recall":
[...]}``, three lists of equal length), and the bytes of the file the original scorer
writes for it (its ``.dat``), which ``score --curves DIR`` writes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from benchie_cli.records import Record

#: The suffix of a curve file, as the original scorers name theirs (``dump/OpenIE-4.dat``).
SUFFIX = ".dat"


class Curve(Record):
    """One curve: parallel lists in the scorer's own order, and its ``.dat`` file."""

    #: Each point's confidence threshold; None for a point of no threshold (the end point
    #: scikit-learn appends, nothing predicted: its threshold is infinite).
    threshold: tuple[float | None, ...]
    precision: tuple[float, ...]
    recall: tuple[float, ...]
    #: The file the original scorer writes of it, built on demand.
    dat: Callable[[], str]

    def as_json(self) -> dict[str, list[Any]]:
        """The ``curve`` object of a report's system: a NaN (a recall of a curve with no
        gold matched) as null, the JSON for no number (``v == v`` is false for NaN only)."""
        return {
            "threshold": list(self.threshold),
            "precision": [v if v == v else None for v in self.precision],
            "recall": [v if v == v else None for v in self.recall],
        }


def of_points(points: Iterable[tuple[float, float, float]], dat: Callable[[], str]) -> Curve:
    """A curve of ``(threshold, precision, recall)`` points, in the scorer's order; an
    infinite threshold is recorded as None. (A curve has a point per distinct confidence,
    10^3 to 10^4 of them: the lists are taken apart by ``zip`` in C, and only a curve with
    an infinite threshold, at most its end point, is looked at point by point.)"""
    listed = list(points)
    if not listed:
        return Curve((), (), (), dat)
    thresholds, precision, recall = zip(*listed, strict=True)
    if math.inf in thresholds or -math.inf in thresholds:
        thresholds = tuple(None if math.isinf(t) else t for t in thresholds)
    return Curve(thresholds, precision, recall, dat)


def read_json(curve: object) -> tuple[list[float | None], list[float | None], list[float | None]]:
    """The three lists of a report's ``curve`` object, checked to be lists of numbers (or
    null) of one length; ValueError otherwise."""
    if not isinstance(curve, Mapping):
        raise ValueError("its curve is not an object")
    lists = []
    for key in ("threshold", "precision", "recall"):
        values = curve.get(key)
        if not isinstance(values, list) or not all(
            v is None or (isinstance(v, int | float) and not isinstance(v, bool)) for v in values
        ):
            raise ValueError(f"its curve's {key!r} is not a list of numbers")
        lists.append([None if v is None else float(v) for v in values])
    if len({len(v) for v in lists}) != 1:
        raise ValueError("its curve's lists differ in length")
    return lists[0], lists[1], lists[2]


_UNSAFE = re.compile(r"[^A-Za-z0-9._+-]+")


def file_names(stems: Sequence[str]) -> list[str]:
    """A file name for each curve, from its system's name (and metric): characters other
    than letters, digits, ``.``, ``_``, ``+`` and ``-`` become ``_``, and a name is never
    hidden or empty. Two curves may get one name (``a b`` and ``a_b``; ``a`` under
    ``carb-ss`` and a system named ``a.carb-ss``; ``A`` and ``a`` on a file system that
    ignores case): :func:`clashes` finds them, and ``score --curves`` refuses them rather
    than number one of them, which would leave the reader to guess which file is whose."""
    return [(_UNSAFE.sub("_", stem).lstrip(".") or "system") + SUFFIX for stem in stems]


def clashes(names: Sequence[str]) -> list[list[int]]:
    """The groups of indexes of ``names`` (file names) that name one file, compared
    ignoring case as macOS's and Windows's file systems do: each group of two or more, in
    the order of its first member."""
    groups: dict[str, list[int]] = {}
    for n, name in enumerate(names):
        groups.setdefault(name.casefold(), []).append(n)
    return [group for group in groups.values() if len(group) > 1]


def owners(stem: str, systems: Sequence[str], metrics: Sequence[str]) -> list[tuple[str, str]]:
    """Whose curve ``stem`` names, as (system, metric): ``NAME`` is a system's curve under
    the first metric with a curve file, ``NAME.METRIC`` its curve under another (the file
    names of docs/reports.md, "Curves"); several when the names are ambiguous, none for a
    stem of no system given. For messages: the user named the systems, not the files."""
    found = [(name, metrics[0]) for name in systems if metrics and name == stem]
    found += [(name, m) for name in systems for m in metrics[1:] if stem == f"{name}.{m}"]
    return found
