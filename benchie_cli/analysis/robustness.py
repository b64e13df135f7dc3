"""Clique robustness (ROBUST, Qiao et al., ACL 2023, §4.1 "The ROBUST Metric").

A **clique** is a group of sentences that state the same knowledge in different words. A
system's robustness score on a clique is the P/R/F1 of the clique's sentence with the
**lowest F1**; over a corpus of cliques, P^robust and R^robust are the means of those
per-clique values, and F1^robust is the F1 of the two means (docs/profiling.md, "Clique
robustness", says why). Beside it, the population variance of the F1 of the sentences of each
clique (the paper's Figure 5a).

Everything here is a pure function of per-sentence scores, whatever metric made them:
:func:`benchie_sentence_scores` makes them from BenchIE's per-sentence counts,
:func:`sentence_scores` from any metric's per-sentence P and R. Cliques come from a
``sent_id<TAB>clique`` file (:func:`read_cliques`) or a mapping (:func:`assign`).
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from benchie_cli.errors import BenchieError
from benchie_cli.prf import prf
from benchie_cli.textio import display_name, read_text_lines

#: The per-clique F1 variance histogram: F1 lies in [0, 1], so its population variance lies
#: in [0, 0.25]; ten bins of width 1/40 = 0.025, [k/40, (k+1)/40), the last one closed.
VARIANCE_BINS = 10
_PER_UNIT = 40


def f1_of(precision: float, recall: float) -> float:
    """The harmonic mean of P and R, 0 when both are 0 (docs/metric.md's zero rule)."""
    total = precision + recall
    return 2 * precision * recall / total if total else 0.0


@dataclass(frozen=True, slots=True)
class SentenceScore:
    """One sentence's P/R/F1 under some metric, with the counts they came from (if any)."""

    sent_id: str
    precision: float
    recall: float
    f1: float
    #: The metric's own per-sentence statistics, shown beside the scores (BenchIE: tp, fp, fn).
    counts: Mapping[str, int] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {
            "sent_id": self.sent_id,
            **self.counts,
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
        }


def benchie_sentence_scores(
    sent_ids: Sequence[str], tp: Sequence[int], fp: Sequence[int], fn: Sequence[int]
) -> list[SentenceScore]:
    """Per-sentence P/R/F1 of BenchIE from the per-sentence counts (docs/metric.md, "Counts per
    sentence"): P = TP/(TP+FP), R = TP/(TP+FN), with the metric's zero rule, so a sentence
    without a scored extraction has P = 0 and one without gold synsets has R = 0."""
    out = []
    for sid, t, f, n in zip(sent_ids, tp, fp, fn, strict=True):
        p, r, f1 = prf(t, f, n)
        out.append(SentenceScore(sid, p, r, f1, {"tp": t, "fp": f, "fn": n}))
    return out


def sentence_scores(
    sent_ids: Sequence[str], precision: Sequence[float], recall: Sequence[float]
) -> list[SentenceScore]:
    """Per-sentence scores of any metric that gives a P and an R per sentence."""
    return [
        SentenceScore(sid, p, r, f1_of(p, r))
        for sid, p, r in zip(sent_ids, precision, recall, strict=True)
    ]


@dataclass(frozen=True, slots=True)
class CliqueAssignment:
    """Sentences (gold order) and the clique of each; cliques in order of first mention."""

    name: str
    sent_ids: tuple[str, ...]
    cliques: tuple[str, ...]
    of: tuple[str | None, ...]  # per sentence position; None: in no clique

    def members(self, clique: str) -> list[int]:
        """The positions of the clique's sentences, in gold order."""
        return [i for i, c in enumerate(self.of) if c == clique]

    @property
    def unassigned_sent_ids(self) -> list[str]:
        return [sid for sid, c in zip(self.sent_ids, self.of, strict=True) if c is None]

    @property
    def singletons(self) -> list[str]:
        return [c for c in self.cliques if len(self.members(c)) == 1]

    def as_json(self) -> dict[str, Any]:
        unassigned = self.unassigned_sent_ids
        return {
            "file": self.name,
            "cliques": len(self.cliques),
            "sentences": len(self.sent_ids) - len(unassigned),
            "singleton_cliques": self.singletons,
            "unassigned": len(unassigned),
            "unassigned_sent_ids": unassigned,
        }


def assign(
    cliques: Mapping[str, str], sent_ids: Sequence[str], name: str = "cliques"
) -> CliqueAssignment:
    """Cliques from a ``sent_id -> clique`` mapping (cliques in order of their first member in
    ``sent_ids``). An id not in ``sent_ids`` is a ``ValueError``."""
    unknown = sorted(set(cliques) - set(sent_ids))
    if unknown:
        raise ValueError(f"sentence ids not in the gold: {unknown}")
    of = tuple(cliques.get(sid) for sid in sent_ids)
    order = tuple(dict.fromkeys(c for c in of if c is not None))
    return CliqueAssignment(name, tuple(sent_ids), order, of)


def read_cliques(path: str, sent_ids: Sequence[str]) -> CliqueAssignment:
    """``sent_id<TAB>clique`` per line (docs/formats.md, "Clique files"); the rules and error
    messages are those of a bucket file (``buckets.from_file``)."""
    name = display_name(path)
    position = {sid: i for i, sid in enumerate(sent_ids)}
    of: list[str | None] = [None] * len(sent_ids)
    order: dict[str, None] = {}
    for n, line in enumerate(read_text_lines(path, what="clique file"), 1):
        if not line.strip():
            continue
        sent_id, tab, clique = line.partition("\t")
        sent_id, clique = sent_id.strip(), clique.strip()
        if not tab or not clique:
            raise BenchieError("expected 'sent_id<TAB>clique'", path=name, line=n)
        i = position.get(sent_id)
        if i is None:
            header = n == 1 and sent_id.lower() in ("sent_id", "sentence_id", "id")
            hint = "; a header row? remove it" if header else ""
            raise BenchieError(
                f"sentence id {sent_id!r} is not in the gold{hint}", path=name, line=n
            )
        if of[i] is not None and of[i] != clique:
            raise BenchieError(
                f"sentence {sent_id!r} is already in clique {of[i]!r}", path=name, line=n
            )
        of[i] = clique
        order[clique] = None
    if not order:
        raise BenchieError("no 'sent_id<TAB>clique' line", path=name)
    return CliqueAssignment(name, tuple(sent_ids), tuple(order), tuple(of))


def population_variance(values: Sequence[float]) -> float:
    """Σ(x - mean)² / n (not n - 1: a clique of one sentence has variance 0)."""
    mean = sum(values) / len(values)
    return sum((x - mean) ** 2 for x in values) / len(values)


@dataclass(frozen=True, slots=True)
class CliqueScore:
    clique: str
    members: tuple[SentenceScore, ...]  # gold order
    worst: SentenceScore  # the lowest F1; on ties the first in gold order
    mean_f1: float
    f1_variance: float  # population variance of the members' F1

    def as_json(self) -> dict[str, Any]:
        return {
            "clique": self.clique,
            "size": len(self.members),
            "singleton": len(self.members) == 1,
            "worst": self.worst.sent_id,
            "precision": self.worst.precision,
            "recall": self.worst.recall,
            "f1": self.worst.f1,
            "mean_f1": self.mean_f1,
            "f1_variance": self.f1_variance,
            "sentences": [m.as_json() for m in self.members],
        }


def score_clique(clique: str, members: Sequence[SentenceScore]) -> CliqueScore:
    if not members:
        raise ValueError(f"clique {clique!r} has no sentence")
    f1 = [m.f1 for m in members]
    worst = min(members, key=lambda m: m.f1)  # min keeps the first of equal keys
    return CliqueScore(clique, tuple(members), worst, sum(f1) / len(f1), population_variance(f1))


def variance_summary(variances: Sequence[float]) -> dict[str, Any]:
    """Mean, median and maximum of the per-clique F1 variances, and their histogram."""
    counts = [0] * VARIANCE_BINS
    for v in variances:
        k = next((k for k in range(VARIANCE_BINS) if v < (k + 1) / _PER_UNIT), -1)
        counts[k] += 1
    return {
        "kind": "population",
        "mean": sum(variances) / len(variances) if variances else 0.0,
        "median": statistics.median(variances) if variances else 0.0,
        "max": max(variances, default=0.0),
        "histogram": [
            {"low": k / _PER_UNIT, "high": (k + 1) / _PER_UNIT, "cliques": counts[k]}
            for k in range(VARIANCE_BINS)
        ],
    }


@dataclass(frozen=True, slots=True)
class Robustness:
    cliques: tuple[CliqueScore, ...]  # in the assignment's order
    unassigned_sent_ids: tuple[str, ...]

    @property
    def precision(self) -> float:
        """P^robust: the mean over cliques of the worst sentence's P."""
        return _mean([c.worst.precision for c in self.cliques])

    @property
    def recall(self) -> float:
        """R^robust: the mean over cliques of the worst sentence's R."""
        return _mean([c.worst.recall for c in self.cliques])

    @property
    def f1(self) -> float:
        """F1^robust: the F1 of P^robust and R^robust (as the paper's Table 2 computes it)."""
        return f1_of(self.precision, self.recall)

    @property
    def mean_worst_f1(self) -> float:
        """The mean over cliques of the worst sentence's F1 (not the paper's F1^robust)."""
        return _mean([c.worst.f1 for c in self.cliques])

    @property
    def sentences(self) -> int:
        return sum(len(c.members) for c in self.cliques)

    def as_json(self) -> dict[str, Any]:
        return {
            "cliques": len(self.cliques),
            "sentences": self.sentences,
            "singleton_cliques": sum(1 for c in self.cliques if len(c.members) == 1),
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "mean_worst_f1": self.mean_worst_f1,
            "f1_variance": variance_summary([c.f1_variance for c in self.cliques]),
            "by_clique": [c.as_json() for c in self.cliques],
        }


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def robustness(scores: Sequence[SentenceScore], assignment: CliqueAssignment) -> Robustness:
    """The ROBUST scores of per-sentence ``scores`` (in the assignment's sentence order)."""
    if [s.sent_id for s in scores] != list(assignment.sent_ids):
        raise ValueError("the scores are not of the assignment's sentences, in its order")
    members: dict[str, list[SentenceScore]] = {c: [] for c in assignment.cliques}
    for score, clique in zip(scores, assignment.of, strict=True):
        if clique is not None:
            members[clique].append(score)
    return Robustness(
        tuple(score_clique(c, members[c]) for c in assignment.cliques),
        tuple(assignment.unassigned_sent_ids),
    )
