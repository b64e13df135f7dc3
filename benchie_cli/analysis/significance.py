"""Confidence intervals and significance from per-sentence counts, vectorised with numpy.

As in sacreBLEU, statistics resample the sufficient statistics instead of re-scoring:
every resample is a vector of sentence weights, and a system's TP/FP/FN under it are dot
products with its per-sentence counts. All systems share the same resamples (the test is
paired), and a seed makes every number reproducible.

- Paired bootstrap (Koehn 2004): ``resamples`` draws of the sentences with replacement
  (multinomial weights); a 95% interval is the 2.5th-97.5th percentile of each score. The
  p-value of an F1 difference is the share of resamples in which the difference, centred
  on the observed one, is at least as large in magnitude as the observed difference.
- Approximate randomisation (Riezler & Maxwell 2005): in each trial every sentence's counts
  are swapped between the two systems with probability 1/2; the p-value is the share of
  trials whose |F1 difference| is at least the observed one. Both add one to numerator and
  denominator, so a p-value is never 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np
from numpy.typing import NDArray

from benchie_cli.benchmarks.benchie.scoring import SystemResult

Array = NDArray[np.float64]


def _prf(tp: Array, fp: Array, fn: Array) -> tuple[Array, Array, Array]:
    """Element-wise P, R, F1 with the zero rule of docs/metric.md, "Precision and recall"."""
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(tp + fp > 0, tp / (tp + fp), 0.0)
        r = np.where(tp + fn > 0, tp / (tp + fn), 0.0)
        f = np.where(p + r > 0, 2 * p * r / (p + r), 0.0)
    return p, r, f


def _counts(results: list[SystemResult]) -> tuple[Array, Array, Array]:
    """(sentences x systems) matrices of TP, FP, FN."""

    def stack(attr: str) -> Array:
        return np.array([getattr(r, attr) for r in results], dtype=np.float64).T

    return stack("tp"), stack("fp"), stack("fn")


@dataclass(frozen=True, slots=True)
class Interval:
    low: float
    high: float

    def as_json(self) -> list[float]:
        return [self.low, self.high]


@dataclass(frozen=True, slots=True)
class Comparison:
    a: str
    b: str
    delta_f1: float  # F1(a) - F1(b)
    p_value: float

    def as_json(self) -> dict[str, object]:
        return {"a": self.a, "b": self.b, "delta_f1": self.delta_f1, "p_value": self.p_value}


def weights(n_sentences: int, resamples: int, seed: int) -> Array:
    """(resamples x sentences) bootstrap weights: how often each sentence is drawn."""
    rng = np.random.default_rng(seed)
    return rng.multinomial(
        n_sentences, np.full(n_sentences, 1.0 / n_sentences), size=resamples
    ).astype(np.float64)


def confidence_intervals(
    results: list[SystemResult], w: Array, level: float = 0.95
) -> list[dict[str, Interval]]:
    """Per system, percentile intervals of P, R and F1 over the resamples ``w``."""
    tp, fp, fn = _counts(results)
    p, r, f = _prf(w @ tp, w @ fp, w @ fn)  # (resamples x systems)
    lo, hi = 100 * (1 - level) / 2, 100 * (1 + level) / 2
    out = []
    for s in range(len(results)):
        out.append(
            {
                name: Interval(float(np.percentile(m[:, s], lo)), float(np.percentile(m[:, s], hi)))
                for name, m in (("precision", p), ("recall", r), ("f1", f))
            }
        )
    return out


def compare_bootstrap(results: list[SystemResult], w: Array) -> list[Comparison]:
    tp, fp, fn = _counts(results)
    observed = _prf(tp.sum(0), fp.sum(0), fn.sum(0))[2]
    sampled = _prf(w @ tp, w @ fp, w @ fn)[2]
    out = []
    for a, b in combinations(range(len(results)), 2):
        delta = observed[a] - observed[b]
        deltas = sampled[:, a] - sampled[:, b]
        extreme = int(np.count_nonzero(np.abs(deltas - delta) >= abs(delta)))
        out.append(
            Comparison(results[a].name, results[b].name, float(delta), (extreme + 1) / (len(w) + 1))
        )
    return out


def compare_randomisation(results: list[SystemResult], trials: int, seed: int) -> list[Comparison]:
    tp, fp, fn = _counts(results)
    n = tp.shape[0]
    swap = np.random.default_rng(seed).integers(0, 2, size=(trials, n)).astype(np.float64)
    observed = _prf(tp.sum(0), fp.sum(0), fn.sum(0))[2]
    out = []
    for a, b in combinations(range(len(results)), 2):
        delta = observed[a] - observed[b]
        # Swapped totals: a's sums plus, where swapped, (b - a) per sentence.
        sa = [m[:, a].sum() + swap @ (m[:, b] - m[:, a]) for m in (tp, fp, fn)]
        sb = [m[:, b].sum() - swap @ (m[:, b] - m[:, a]) for m in (tp, fp, fn)]
        deltas = _prf(*sa)[2] - _prf(*sb)[2]
        extreme = int(np.count_nonzero(np.abs(deltas) >= abs(delta) - 1e-12))
        out.append(
            Comparison(results[a].name, results[b].name, float(delta), (extreme + 1) / (trials + 1))
        )
    return out
