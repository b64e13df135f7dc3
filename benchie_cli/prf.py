"""Precision, recall and F1 from counts: the arithmetic BenchIE's metric, its curves, its
buckets and the robustness view share (a module of its own, so that none imports another
for it)."""

from __future__ import annotations


def prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    """P, R and F1 as docs/metric.md, "Precision and recall" defines them (0 where a denominator
    is 0)."""
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1
