"""The registry of metrics and facets: the one place that names them and says what sets
each apart.

A facet of BenchIE's metric (docs/facets.md) or another metric is one entry here. Every
module that treats one differently asks its entry (``FACETS[name].free_boundaries``), never
compares names, so adding BenchIE-E's gold, a facet or a metric touches this module and the
code that computes the new thing, nothing else. It imports nothing of the package, so that
anything may import it (the gold store, the matcher, the CLI's option lists).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: The facet every other is compared with, and the one a store version must have.
BASE_FACET = "default"


@dataclass(frozen=True, slots=True)
class Facet:
    """One facet of BenchIE's metric (docs/facets.md)."""

    name: str
    #: Its name in the paper's tables and on the analysis page.
    label: str
    #: The facet directory whose gold file it scores: its own, or the one it is derived
    #: from (concat and minimal read the default gold and change how it matches).
    source: str
    #: Which tokens of a gold slot a form keeps: every keep/drop choice of the optional
    #: tokens, or the mandatory tokens only (minimal).
    slot_forms: Literal["all", "mandatory"] = "all"
    #: Whether slot boundaries may move: subject, relation and object compared joined.
    free_boundaries: bool = False
    #: The analysis report's F1 gap of this facet: (minuend, subtrahend), so that a gap
    #: is positive when the facet behaves as expected (concat is more lenient, minimal
    #: and entity are stricter).
    gap: tuple[str, str] | None = None
    #: Why a gold store may lack the facet's file, said when it does.
    missing_hint: str | None = None

    @property
    def derived(self) -> bool:
        """Whether it is scored on another facet's gold file."""
        return self.source != self.name

    @property
    def gap_key(self) -> str | None:
        """The key of its F1 gap in the analysis report (``concat_minus_default``)."""
        return f"{self.gap[0]}_minus_{self.gap[1]}" if self.gap is not None else None


FACETS: dict[str, Facet] = {
    f.name: f
    for f in (
        Facet("default", "BenchIE", "default"),
        Facet(
            "concat",
            "BenchIE-C",
            "default",
            free_boundaries=True,
            gap=("concat", "default"),
        ),
        Facet(
            "minimal",
            "BenchIE-M",
            "default",
            slot_forms="mandatory",
            gap=("default", "minimal"),
        ),
        Facet(
            "entity",
            "BenchIE-E",
            "entity",
            gap=("default", "entity"),
            missing_hint="upstream has not published BenchIE-E; score it with --gold-file FILE "
            "if you have one",
        ),
    )
}
#: Every facet name, in the order reports list them.
FACET_NAMES = tuple(FACETS)
#: The facets with a gold file of their own (the store's ``<lang>/<facet>/`` directories).
FILE_FACETS = tuple(f.name for f in FACETS.values() if not f.derived)
#: Derived facet -> the facet whose file it scores.
DERIVED_FACETS = {f.name: f.source for f in FACETS.values() if f.derived}


def facets_of_file(facet: str) -> tuple[str, ...]:
    """The facets scored on ``facet``'s gold file: itself and those derived from it (a
    ``--gold-file`` of the default gold is scored under default, concat and minimal)."""
    return tuple(f.name for f in FACETS.values() if f.source == facet)


@dataclass(frozen=True, slots=True)
class Metric:
    """One metric ``score --metric`` computes."""

    name: str
    #: Its name in tables ("BenchIE", "CaRB").
    label: str
    #: The languages it has gold for (None: every language of the gold store).
    languages: tuple[str, ...] | None
    #: The reference file of a store version it scores against (``<lang>/reference/NAME``),
    #: or None for BenchIE's metric, which scores against the facet's gold file.
    reference: str | None
    #: Whether the BenchIE options (facets, implicit stripping, case, --retokenize,
    #: --per-sentence) apply to it.
    benchie_options: bool
    #: The page of docs/ that defines it.
    doc: str


METRICS: dict[str, Metric] = {
    m.name: m
    for m in (
        Metric("benchie", "BenchIE", None, None, True, "docs/metric.md"),
        Metric("carb", "CaRB", ("en",), "carb_explicit.txt", False, "docs/carb.md"),
    )
}
#: The metric of a report without a ``metric`` key (every report before ``--metric``).
DEFAULT_METRIC = "benchie"
#: ``--metric`` values: each metric alone, and BenchIE's beside each other one (the BenchIE
#: paper's Table 5 view: the report is BenchIE's, with the other metric's numbers added).
METRIC_CHOICES = (
    *METRICS,
    *(f"{DEFAULT_METRIC},{m}" for m in METRICS if m != DEFAULT_METRIC),
)


def metrics_of(choice: str) -> tuple[Metric, ...]:
    """The metrics of a ``--metric`` value, BenchIE's first when it is there."""
    return tuple(METRICS[name] for name in choice.split(","))


@dataclass(frozen=True, slots=True)
class Benchmark:
    """One benchmark ``score --benchmark`` scores against: its own gold, in its own part of
    the gold store, with its own versions."""

    name: str
    label: str
    #: Its directory under the gold store's root ("" for BenchIE's, the store itself).
    store_dir: str
    #: The ``--metric`` values it is scored with; the first is its default.
    metrics: tuple[str, ...]
    #: Its splits, the default first (none: one gold per language).
    splits: tuple[str, ...] = ()


BENCHMARKS: dict[str, Benchmark] = {
    b.name: b
    for b in (
        Benchmark("benchie", "BenchIE", "", METRIC_CHOICES),
        Benchmark("carb", "CaRB", "carb", ("carb",), ("test", "dev")),
    )
}
#: The benchmark of a report without a ``benchmark`` key.
DEFAULT_BENCHMARK = "benchie"
