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
    #: The reference file of a BenchIE store version it scores against
    #: (``<lang>/reference/NAME``), or None: BenchIE's metric scores the facet's gold file,
    #: the other benchmarks' metrics their own gold only.
    reference: str | None
    #: Whether the BenchIE options (facets, implicit stripping, case, --retokenize,
    #: --per-sentence) apply to it.
    benchie_options: bool
    #: The page of docs/ that defines it.
    doc: str
    #: The original scorer it reproduces, as its signature's ``metric:`` names it.
    original: str = ""


METRICS: dict[str, Metric] = {
    m.name: m
    for m in (
        Metric("benchie", "BenchIE", None, None, True, "docs/metric.md"),
        Metric("carb", "CaRB", ("en",), "carb_explicit.txt", False, "docs/carb.md"),
        Metric("carb-ss", "CaRB (s,s)", ("en",), "carb_explicit.txt", False, "docs/carb.md"),
        Metric("oie2016", "OIE2016", ("en",), None, False, "docs/oie2016.md"),
        Metric("reoie2016", "Re-OIE2016", ("en",), None, False, "docs/reoie2016.md"),
        Metric("wire57", "WiRe57", ("en",), None, False, "docs/wire57.md"),
    )
}
#: The metric of a report without a ``metric`` key (every report before ``--metric``).
DEFAULT_METRIC = "benchie"
#: The metrics a Codabench competition scores (``platform``): BenchIE's, and CaRB's beside
#: it. The other metrics score other gold, which a BenchIE competition does not pin.
PLATFORM_METRICS = ("benchie", "carb")
#: The metrics CaRB's scorer computes (the default and OpenIE6's ``--single_match``): one
#: reading of a file gives both.
CARB_FAMILY = ("carb", "carb-ss")


def metrics_of(choice: str) -> tuple[Metric, ...]:
    """The metrics of a ``--metric`` value (names joined by commas), in the order given."""
    return tuple(METRICS[name] for name in choice.split(","))


@dataclass(frozen=True, slots=True)
class Benchmark:
    """One benchmark ``score --benchmark`` scores against: its own gold, in its own part of
    the gold store, with its own versions."""

    name: str
    label: str
    #: Its directory under the gold store's root ("" for BenchIE's, the store itself).
    store_dir: str
    #: The metrics it is scored with; the first is its default.
    metrics: tuple[str, ...]
    #: Its splits, the default first (none: one gold per language).
    splits: tuple[str, ...] = ()
    #: Whether its gold is not shipped (no licence to redistribute it): the user adds the
    #: published file with ``benchie benchmark add`` (docs/gold-store.md).
    external: bool = False


BENCHMARKS: dict[str, Benchmark] = {
    b.name: b
    for b in (
        Benchmark("benchie", "BenchIE", "", ("benchie", *CARB_FAMILY)),
        Benchmark("carb", "CaRB", "carb", CARB_FAMILY, ("test", "dev")),
        Benchmark("oie2016", "OIE2016", "oie2016", ("oie2016",), ("all", "test", "dev", "train")),
        Benchmark("reoie2016", "Re-OIE2016", "reoie2016", ("reoie2016",), ("test",), True),
        Benchmark("wire57", "WiRe57", "wire57", ("wire57",), ("test",), True),
    )
}
#: The benchmark of a report without a ``benchmark`` key.
DEFAULT_BENCHMARK = "benchie"
#: Every split name of every benchmark (``--split``'s choices; each benchmark checks its own).
SPLITS = tuple(dict.fromkeys(s for b in BENCHMARKS.values() for s in b.splits))


def metric_choice(choice: str, benchmark: str) -> str:
    """``choice`` (``--metric``: metric names joined by commas) checked against
    ``benchmark``'s metrics; the message of a bad one names what is available. Returns it
    unchanged; raises ``ValueError`` with the message."""
    names = choice.split(",")
    allowed = BENCHMARKS[benchmark].metrics
    for name in names:
        if name not in METRICS:
            raise ValueError(f"unknown metric {name!r} (available: {', '.join(METRICS)})")
        if name not in allowed:
            home = [b.name for b in BENCHMARKS.values() if name in b.metrics]
            others = {h for n in names for h in BENCHMARKS if n in BENCHMARKS[h].metrics}
            if benchmark == DEFAULT_BENCHMARK and not any(
                set(BENCHMARKS[h].metrics) >= set(names) for h in others
            ):
                raise ValueError(
                    f"{choice}: metrics of different benchmarks; one run scores one "
                    "benchmark's gold (`benchie score --suite FILE` scores every benchmark)"
                )
            if benchmark == DEFAULT_BENCHMARK:
                raise ValueError(
                    f"metric {name!r} scores against {BENCHMARKS[home[0]].label}'s own gold: "
                    f"give --benchmark {home[0]} (BenchIE's gold has: {', '.join(allowed)})"
                )
            raise ValueError(
                f"--benchmark {benchmark} is scored with {BENCHMARKS[benchmark].label}'s "
                f"metric only ({' or '.join(allowed)}); {name} does not apply"
            )
    if len(set(names)) != len(names):
        raise ValueError(f"a metric is named twice in {choice!r}")
    return choice


def benchmark_of(choice: str) -> str:
    """The benchmark a ``--metric`` value implies when ``--benchmark`` is not given:
    BenchIE's, unless every metric named belongs to one other benchmark only
    (``--metric oie2016`` scores against OIE2016's corpus)."""
    homes = [
        {b.name for b in BENCHMARKS.values() if name in b.metrics}
        for name in choice.split(",")
        if name in METRICS
    ]
    if homes and all(DEFAULT_BENCHMARK not in h for h in homes):
        common = set.intersection(*homes)
        if len(common) == 1:
            return common.pop()
    return DEFAULT_BENCHMARK
