"""The registry of facets, metrics and benchmarks: the one place that names them and says
what sets each apart.

A facet of BenchIE's metric (docs/facets.md), a metric or a benchmark is one entry here.
Every module that treats one differently asks its entry (``FACETS[name].free_boundaries``,
``BENCHMARKS[name].published``), never compares names, so adding a facet, a metric or a
benchmark touches this module and the package that computes the new thing (a benchmark's
``benchie_cli/benchmarks/<name>/``), nothing else. It imports nothing of the package at
import time, so that anything may import it (the gold store, the matcher, the CLI's option
lists); :func:`implementation` imports a benchmark's package when a run needs it.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import MappingProxyType, ModuleType
from typing import Any, Literal

from benchie_cli.records import Record

#: The facet every other is compared with, and the one a store version must have.
BASE_FACET = "default"


class Facet(Record):
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


class Metric(Record):
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
    #: The version of the original scorer it reproduces, for a metric whose original
    #: changed its numbers over time: its signature names it (``|scorer:2019-07|``), so
    #: that numbers of another version are not read as comparable ("": one version).
    scorer: str = ""
    #: The file its original scorer writes of a system's precision-recall curve, which
    #: ``score --curves DIR`` writes too ("": it draws no curve, or benchie does not write
    #: its file).
    curve_file: str = ""


#: The curve file of CaRB's scorer (``carb.py --out``, its published ``dump/*.dat``).
_CARB_DAT = "CaRB's dump/*.dat (carb.py --out)"
#: The curve file of oie-benchmark's scorer (``benchmark.py --out``, ``eval/*.dat``).
_OIE_DAT = "oie-benchmark's eval/*.dat (benchmark.py --out)"

METRICS: dict[str, Metric] = {
    m.name: m
    for m in (
        Metric("benchie", "BenchIE", None, None, True, "docs/metric.md"),
        Metric(
            "carb",
            "CaRB",
            ("en",),
            "carb_explicit.txt",
            False,
            "docs/carb.md",
            curve_file=_CARB_DAT,
        ),
        Metric(
            "carb-ss",
            "CaRB (s,s)",
            ("en",),
            "carb_explicit.txt",
            False,
            "docs/carb.md",
            curve_file=_CARB_DAT,
        ),
        Metric(
            "oie2016",
            "OIE2016",
            ("en",),
            None,
            False,
            "docs/oie2016.md",
            scorer="2019-07",
            curve_file=_OIE_DAT,
        ),
        Metric(
            "oie2016-2018",
            "OIE2016 (2018 scorer)",
            ("en",),
            None,
            False,
            "docs/oie2016-2018.md",
            curve_file=_OIE_DAT,
        ),
        Metric(
            "reoie2016",
            "Re-OIE2016",
            ("en",),
            None,
            False,
            "docs/reoie2016.md",
            curve_file="Span_OIE's evaluate.py output file",
        ),
        Metric("wire57", "WiRe57", ("en",), None, False, "docs/wire57.md"),
        Metric(
            "docoie",
            "DocOIE",
            ("en",),
            None,
            False,
            "docs/docoie.md",
            curve_file="DocOIE's carb.py --out (CaRB's layout)",
        ),
        Metric(
            "lsoie",
            "LSOIE",
            ("en",),
            None,
            False,
            "docs/lsoie.md",
            curve_file="large-scale-oie's science_new_eval/*.dat",
        ),
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


class Published(Record):
    """A file a benchmark's authors publish without a licence, which benchie therefore
    does not ship: ``benchie benchmark add`` checks a user's download of it by sha256 and
    imports it into their gold store (docs/gold-store.md, "External benchmarks"). The files
    of one ``part`` (a language's or a split's gold, with the files it needs beside it) are
    added together, as one version of their own."""

    #: The published file's name (kept under this name in the store).
    file: str
    #: Its sha256: a file with another is not the published one, and is refused.
    sha256: str
    #: The repository that publishes it, the file's path there, and where to download it.
    url: str
    upstream_path: str
    download_url: str
    citation: str
    #: The published file's counts, as the benchmark's reader reads them (messages, the
    #: manifest), and its size in bytes.
    sentences: int
    tuples: int
    size: int
    #: What the counts are over, for messages: "595 sentences" or "5 documents, 57 ...".
    extent: str
    #: Files people take for the published one, by sha256, and what each is: said instead
    #: of "download it again" (``{file}``: the file as given).
    lookalikes: Mapping[str, str] = MappingProxyType({})
    version: str = "1.0.0"
    split: str = "test"
    #: The language of its sentences.
    language: str = "en"
    #: "gold", or what else a gold needs beside it, read with it ("sentences": the input
    #: sentences, in order; "heads": LSOIE's syntactic heads of the gold's lines).
    kind: str = "gold"
    #: The directory, under the benchmark's store, that its part's version goes in (""
    #: the store itself: the benchmark's first published gold, added as it always was).
    part: str = ""


class Benchmark(Record):
    """One benchmark ``score --benchmark`` scores against: its own gold, in its own part of
    the gold store, with its own versions."""

    name: str
    label: str
    #: Its directory under the gold store's root ("" for BenchIE's, the store itself).
    store_dir: str
    #: The metrics it is scored with; the first is its default.
    metrics: tuple[str, ...]
    #: The module of its package (``benchie_cli/benchmarks/<name>/``) that implements it,
    #: imported by :func:`implementation` when a run needs it: its ``benchmark.py``, which
    #: names its runner ``RUNNER`` (``benchie_cli/benchmarks/runner.py``) and its report views.
    module: str
    #: Its splits, the default first (none: one gold per language).
    splits: tuple[str, ...] = ()
    #: The ``--input-format`` values its submissions may come in (besides ``auto``, which
    #: detects one of them), its own scorer's first.
    formats: tuple[str, ...] = ()
    #: The sha256 of the manifest of each version benchie ships (or, for a published file,
    #: of the manifest ``benchmark add`` writes for it): a store's manifest of that version
    #: with other bytes is refused (docs/gold-store.md).
    shipped: Mapping[str, str] = MappingProxyType({})
    #: The published files benchie may not ship, which the user adds: all its gold, for an
    #: :attr:`external` benchmark, else the languages it does not ship (CaRB's but English).
    published: tuple[Published, ...] = ()
    #: Whether its own gold is not shipped: the user adds the published files.
    external: bool = False
    #: The languages ``--lang`` may name for it, English first.
    languages: tuple[str, ...] = ("en",)
    #: Whether ``--gold-version`` defaults to the package's default gold version (or
    #: ``$BENCHIE_GOLD_VERSION``), not to the latest released version of its store.
    default_from_env: bool = False
    #: Whether a Codabench competition may score it (``benchmark`` in the reference file,
    #: docs/platform.md): one system a submission, numbers with a curve's AUC.
    platform: bool = False

    @property
    def by_language(self) -> bool:
        """Whether its gold is one file per language and facet (BenchIE's), not splits."""
        return not self.splits

    def part(self, language: str, split: str) -> str | None:
        """The part of its published files that holds the gold of ``language`` and
        ``split`` (None: none does; its shipped store may)."""
        return next(
            (
                p.part
                for p in self.published
                if p.kind == "gold" and p.language == language and p.split == split
            ),
            None,
        )

    def part_files(self, part: str) -> tuple[Published, ...]:
        """The published files of ``part``, its gold first."""
        files = [p for p in self.published if p.part == part]
        return tuple(sorted(files, key=lambda p: p.kind != "gold"))


class _Source(Record):
    """A repository that publishes gold files: its address, where its raw files are
    downloaded from (a branch or a commit), and whom to cite."""

    url: str
    raw: str
    citation: str

    def file(self, path: str, sha256: str, counts: tuple[int, int, int], **more: Any) -> Published:
        """Its file at ``path``; ``counts``: sentences, tuples, bytes; ``more``: the other
        fields of :class:`Published` (its ``extent`` by default "N sentences")."""
        sentences, tuples, size = counts
        more.setdefault("extent", f"{sentences} sentences")
        return Published(
            file=path.rsplit("/", 1)[-1],
            sha256=sha256,
            url=self.url,
            upstream_path=path,
            download_url=f"{self.raw}/{path}",
            citation=self.citation,
            sentences=sentences,
            tuples=tuples,
            size=size,
            **more,
        )


_MULTI2OIE = _Source(
    "https://github.com/youngbin-ro/Multi2OIE",
    "https://raw.githubusercontent.com/youngbin-ro/Multi2OIE/master",
    "Youngbin Ro, Yukyung Lee and Pilsung Kang. 2020. Multi^2OIE: Multilingual Open "
    "Information Extraction Based on Multi-Head Attention with BERT. In Findings of the "
    "Association for Computational Linguistics: EMNLP 2020, pages 1107-1117.",
)


def _multi2oie(
    file: str, sha256: str, language: str, split: str, counts: tuple[int, int, int]
) -> Published:
    """One of Multi2OIE's Re-OIE2016 files (``evaluate/``): Spanish, Portuguese, or a
    binary variant (arg2, arg3, temp, loc and context emptied); ``counts``: sentences,
    tuples, bytes."""
    return _MULTI2OIE.file(
        f"evaluate/{file}",
        sha256,
        counts,
        split=split,
        language=language,
        part=language if split == "test" else f"{language}-{split}",
    )


_MOIE = _Source(
    "https://github.com/dair-iitd/moie",
    "https://raw.githubusercontent.com/dair-iitd/moie/main",
    "Keshav Kolluru, Mohammed Muqeeth, Shubham Mittal, Soumen Chakrabarti and Mausam. 2022. "
    "Alignment-Augmented Consistent Translation for Multilingual Open Information Extraction. "
    "In Proceedings of the 60th Annual Meeting of the Association for Computational "
    "Linguistics (ACL 2022).",
)


#: moie's English files, which people take for a part to add: CaRB's own English test gold
#: (and its sentences), which benchie ships.
_MOIE_ENGLISH = {
    sha: (
        "this is moie's English copy of CaRB's test gold, which benchie ships (gold/carb/): "
        "score English with `benchie score --benchmark carb` (--lang en), nothing to add"
    )
    for sha in (
        "dfb850d32001ad4c3b1ec998d171888a4dc57354cadf4fe338d887fba39c9130",
        "81fbd0dc2c16ba584db035b6fe6de92f6ab14ee99364c58c9b18ee56b0dfcbbe",
    )
}


def _moie(
    language: str, gold: tuple[str, int, int, int], sentences: tuple[str, int]
) -> tuple[Published, Published]:
    """The files of one language of multilingual CaRB, as dair-iitd/moie publishes them: its
    gold (``code/carb/data/gold/<lang>_test.tsv``, CaRB's gold format; ``gold``: sha256,
    sentences, tuples, bytes) and the sentences its system was run on
    (``code/carb/data/<lang>_test.input``, one a line: the ids of a BenchIE TSV submission;
    ``sentences``: sha256, bytes; as many lines as the gold has sentence texts, in every
    language). Both are one part, the language's."""
    sha, count, tuples, size = gold
    input_sha, input_size = sentences
    common: dict[str, Any] = {"language": language, "lookalikes": _MOIE_ENGLISH, "part": language}
    return (
        _MOIE.file(
            f"code/carb/data/gold/{language}_test.tsv", sha, (count, tuples, size), **common
        ),
        _MOIE.file(
            f"code/carb/data/{language}_test.input",
            input_sha,
            (count, 0, input_size),
            kind="sentences",
            **common,
        ),
    )


_DOCOIE = _Source(
    "https://github.com/daviddongkc/DocOIE",
    "https://raw.githubusercontent.com/daviddongkc/DocOIE/main",
    "Kuicai Dong, Zhao Yilin, Aixin Sun, Jung-Jae Kim and Xiaoli Li. 2021. DocOIE: A "
    "Document-level Context-Aware Dataset for OpenIE. In Findings of the Association for "
    "Computational Linguistics: ACL-IJCNLP 2021, pages 2377-2389.",
)


def _docoie(
    upstream_path: str, sha256: str, split: str, counts: tuple[int, int, int], documents: int = 0
) -> Published:
    """One of DocOIE's gold files: a domain's ``data/test/<domain>/extractions.tsv`` (what
    its scorer reads; the two share a name, and the split tells them apart) or its released
    ``DocOIE/data_evaluation/*_eval_gold.json``; each is a part of its own, named by its
    split. ``counts``: sentences, tuples, bytes; ``documents``: the JSON's documents."""
    extent = f"{counts[0]} sentences"
    return _DOCOIE.file(
        upstream_path,
        sha256,
        counts,
        extent=f"{documents} documents, {extent}" if documents else extent,
        split=split,
        part=split,
    )


#: LSOIE's published files are read from the repository's last commit.
_LSOIE = _Source(
    "https://github.com/Jacobsolawetz/large-scale-oie",
    "https://raw.githubusercontent.com/Jacobsolawetz/large-scale-oie/"
    "9c135f423072b947ec6a030f7b01e4b2f3d69b7d",
    "Jacob Solawetz and Stefan Larson. 2021. LSOIE: A Large-Scale Dataset for Supervised "
    "Open Information Extraction. In Proceedings of the 16th Conference of the European "
    "Chapter of the Association for Computational Linguistics (EACL 2021).",
)


def _lsoie(
    file: str, sha256: str, split: str, counts: tuple[int, int, int], plain: tuple[str, str]
) -> Published:
    """One of LSOIE's gold files with syntactic heads (``oie-evaluation/oie_corpus/``),
    the only file its scorer reads of a split; ``counts``: sentences, tuples, bytes;
    ``plain``: the sha256 and name of the same gold without heads, which people take for
    it."""
    return _LSOIE.file(
        f"oie-evaluation/oie_corpus/{file}",
        sha256,
        counts,
        extent=f"{counts[0]:,} sentences",
        lookalikes={
            plain[0]: (
                f"this is {plain[1]}, LSOIE-{split}'s gold without the syntactic heads its "
                f"scorer matches on: add {file}, the file its scorer reads"
            ),
        },
        split=split,
        part=split,
    )


def implementation(name: str) -> ModuleType:
    """The package implementing benchmark ``name``, imported on first use (a run of one
    benchmark loads no other's code)."""
    return importlib.import_module(BENCHMARKS[name].module)


BENCHMARKS: dict[str, Benchmark] = {
    b.name: b
    for b in (
        Benchmark(
            "benchie",
            "BenchIE",
            "",
            ("benchie", *CARB_FAMILY),
            "benchie_cli.benchmarks.benchie.benchmark",
            formats=(
                "benchie",
                "llm-text",
                "jsonl",
                "json",
                "allennlp",
                "openie5",
                "openie4",
                "reverb",
                "clausie",
                "props",
                "ollie",
                "openie6",
                "stanford",
                "carb",
            ),
            shipped={
                "1.0.0": "c012adf96b72cc3fb67ec49b2ce2376d8ec1fcde60abcf297e26042c85d06908",
                "1.1.0": "4f72e2d7865592b1ed411648f0f39654b8058bc26ec9f388f556bb2a5791ed98",
            },
            languages=("en", "de", "zh"),
            default_from_env=True,
        ),
        Benchmark(
            "carb",
            "CaRB",
            "carb",
            CARB_FAMILY,
            "benchie_cli.benchmarks.carb.benchmark",
            ("test", "dev"),
            formats=(
                "benchie",
                "openie4",
                "openie5",
                "clausie",
                "props",
                "carb",
                "ollie",
                "reverb",
                "allennlp",
                "llm-text",
                "jsonl",
                "json",
                "openie6",
                "stanford",
            ),
            platform=True,
            shipped={
                "1.0.0": "77602de653b6d60a4631d1da501239374f4157625f1ad3a3cf8b6b4b7c2bc909",
            },
            # Multilingual CaRB (moie): scored by moie's copy of CaRB's scorer
            # (benchie_cli/benchmarks/carb/metric.py, ``moie=True``); English stays CaRB's.
            published=(
                *_moie(
                    "es",
                    (
                        "c01b255a2f7083e4618688fad047695ac5d7aa63f4b22b031a9630f600a67d7f",
                        595,
                        1496,
                        396730,
                    ),
                    ("1c9dcc7cbd5b0a80cfd55c93f3e3e07dd07f9de2f82fa293683236072db93cdb", 95280),
                ),
                *_moie(
                    "pt",
                    (
                        "34c9ddfbe6a93aec285089d37d54b9ac54902da2391760547a3501902652f96e",
                        594,
                        1496,
                        380203,
                    ),
                    ("2056251b5b346b4ff392934df11ae3fe69ac119a1c8da2a281afae8605988749", 89623),
                ),
                *_moie(
                    "hi",
                    (
                        "0ba8b47cbc1a3c95ab8014a2c7b8ff63295932cc8b3ceb5785b7ddb1a6a971fa",
                        298,
                        931,
                        480992,
                    ),
                    ("2a99da6ab052869ad8840e4020aed78e86421b4a6b970e8c105a186971467248", 93767),
                ),
                *_moie(
                    "te",
                    (
                        "dc337d26b3f873168cfd519faf79a63a3c64ae22913b4e83f139b3cc2a97967f",
                        302,
                        877,
                        476429,
                    ),
                    ("8dd9bbda7ce202b53bb4ca16471418d0f99fc77d146ad0d9cc3b4417d7eba650", 101099),
                ),
                *_moie(
                    "zh",
                    (
                        "3c3dddff222c37c5fdda6525aadd6aac16ab3a6bd71af2cb7f130682535e90c8",
                        4721,
                        12629,
                        3014543,
                    ),
                    ("e193caa4b397116b650d6e812d10976e3ba6ed30ae7acfd537b287dec1eb598f", 621955),
                ),
            ),
            languages=("en", "es", "pt", "hi", "te", "zh"),
        ),
        Benchmark(
            "oie2016",
            "OIE2016",
            "oie2016",
            ("oie2016",),
            "benchie_cli.benchmarks.oie2016.benchmark",
            ("all", "test", "dev", "train"),
            formats=(
                "clausie",
                "openie4",
                "props",
                "reverb",
                "ollie",
                "stanford",
                "carb",
                "openie5",
                "llm-text",
                "jsonl",
                "json",
                "allennlp",
                "openie6",
            ),
            platform=True,
            shipped={
                "1.0.0": "9116aa51e46d3507aa43b150bbd19ca38064264a1475ef052859e0cb5686d5f1",
                "2.0.0": "83d51a5bf4f26afdbd3d3d294ef6459aa23855bcde963155bb4b3214e100baee",
            },
        ),
        Benchmark(
            "oie2016-2018",
            "OIE2016 (2018 scorer)",
            "oie2016-2018",
            ("oie2016-2018",),
            "benchie_cli.benchmarks.oie2016_2018.benchmark",
            ("test",),
            platform=True,
            formats=(
                "clausie",
                "openie4",
                "props",
                "ollie",
                "stanford",
                "carb",
                "openie5",
                "llm-text",
                "jsonl",
                "json",
                "allennlp",
                "reverb",
                "openie6",
            ),
            shipped={
                "1.0.0": "68ff680e7877c11f812560974945f23d7fa2da11f20ddbf0d4b5a30b1701d627",
            },
        ),
        Benchmark(
            "reoie2016",
            "Re-OIE2016",
            "reoie2016",
            ("reoie2016",),
            "benchie_cli.benchmarks.reoie2016.benchmark",
            ("test", "binary"),
            formats=(
                "carb",
                "openie4",
                "openie5",
                "llm-text",
                "jsonl",
                "json",
                "allennlp",
                "reverb",
                "clausie",
                "props",
                "ollie",
                "openie6",
                "stanford",
            ),
            platform=True,
            shipped={
                "1.0.0": "57268d3f1f49609a305856b4dc216a1dd8df3bde546a5f3d9810f82388149842",
            },
            external=True,
            published=(
                Published(
                    file="Re-OIE2016.json",
                    sha256="8dd72eea20e56cb98d239673ccad84f2784569a445e8bc461be01a54815e3d46",
                    url="https://github.com/zhanjunlang/Span_OIE",
                    upstream_path="evaluate/Re-OIE2016.json",
                    download_url=(
                        "https://raw.githubusercontent.com/zhanjunlang/Span_OIE/master/"
                        "evaluate/Re-OIE2016.json"
                    ),
                    citation=(
                        "Junlang Zhan and Hai Zhao. 2020. Span Model for Open Information "
                        "Extraction on Accurate Corpus. In Proceedings of the AAAI Conference on "
                        "Artificial Intelligence (AAAI 2020)."
                    ),
                    sentences=595,
                    tuples=1508,
                    size=931454,
                    extent="595 sentences",
                    lookalikes={
                        "7b2137fd993c8e241ecd1c7c724d12cb90e0e38152c40afb4b933c158ccb6aa3": (
                            "this is OIE2016's test split (Span_OIE's evaluate/OIE2016.txt), "
                            "shipped with benchie as gold/oie2016/2.0.0/test/test.oie: score "
                            "against it with `benchie score --benchmark oie2016 --split test "
                            "SUBMISSION`"
                        ),
                    },
                ),
                _multi2oie(
                    "Re-OIE2016-Binary.json",
                    "41ee5b9efc56d75ca1a32e5e81a5bf63a051b300ad95c4ae24b91ff4382a5846",
                    "en",
                    "binary",
                    (595, 1508, 562489),
                ),
                _multi2oie(
                    "Re-OIE2016-Spanish.json",
                    "c830e8a837c9a2874f505e65fa5c9a411ec939cfa2406988d6137565b0d29374",
                    "es",
                    "test",
                    (595, 1496, 631153),
                ),
                _multi2oie(
                    "Re-OIE2016-Spanish-Binary.json",
                    "64a8d0fc1e584531d763d27f402c70fcf1137ee80d8ceeea6a604f379e47fa88",
                    "es",
                    "binary",
                    (595, 1496, 593874),
                ),
                _multi2oie(
                    "Re-OIE2016-Portuguese.json",
                    "0694e5b4eee1b9ade309ce85a7c4e19721c26dcb784aadec6d5ee5866523b957",
                    "pt",
                    "test",
                    (594, 1503, 628260),
                ),
                _multi2oie(
                    "Re-OIE2016-Portuguese-Binary.json",
                    "1818307ced00312e213bf35706f8dfa090c25d4ad38b9e07d351850e4cbeb8ce",
                    "pt",
                    "binary",
                    (594, 1503, 591073),
                ),
            ),
            languages=("en", "es", "pt"),
        ),
        Benchmark(
            "wire57",
            "WiRe57",
            "wire57",
            ("wire57",),
            "benchie_cli.benchmarks.wire57.benchmark",
            ("test",),
            formats=(
                "wire57",
                "openie4",
                "openie5",
                "carb",
                "llm-text",
                "jsonl",
                "json",
                "allennlp",
                "reverb",
                "clausie",
                "props",
                "ollie",
                "openie6",
                "stanford",
            ),
            shipped={
                "1.0.0": "49085cb885be63b80eb6e6ffc5eb57d724dac1156435ba2c37d2808115d0ea0e",
            },
            external=True,
            published=(
                Published(
                    file="WiRe57_343-manual-oie.json",
                    sha256="e482065c91d9da6c6cf28d2dae42cce4138600eeab07cd66e17f9c711da2eb8e",
                    url="https://github.com/rali-udem/WiRe57",
                    upstream_path="data/WiRe57_343-manual-oie.json",
                    download_url=(
                        "https://raw.githubusercontent.com/rali-udem/WiRe57/master/"
                        "data/WiRe57_343-manual-oie.json"
                    ),
                    citation=(
                        "William Léchelle, Fabrizio Gotti and Philippe Langlais. 2019. WiRe57: A "
                        "Fine-Grained Benchmark for Open Information Extraction. In Proceedings "
                        "of the 13th Linguistic Annotation Workshop (LAW XIII), pages 6-15."
                    ),
                    sentences=57,
                    tuples=343,
                    size=645529,
                    extent="5 documents, 57 sentences",
                    lookalikes={
                        "5e01d4551ea089af0dae38d9e9551e1160f5c5d9574ee162bc754eb88814f4aa": (
                            "this is WiRe57's systems' export, a submission: score it with "
                            "`benchie score --benchmark wire57 {file}`"
                        ),
                    },
                ),
            ),
        ),
        Benchmark(
            "docoie",
            "DocOIE",
            "docoie",
            ("docoie",),
            "benchie_cli.benchmarks.docoie.benchmark",
            ("healthcare", "transportation", "healthcare-json", "transportation-json"),
            platform=True,
            formats=(
                "carb",
                "allennlp",
                "openie4",
                "openie5",
                "clausie",
                "props",
                "ollie",
                "llm-text",
                "jsonl",
                "json",
                "reverb",
                "openie6",
                "stanford",
            ),
            external=True,
            published=(
                _docoie(
                    "data/test/healthcare/extractions.tsv",
                    "dbe247753aa218184975802f1ad44f4d1f47199fbddc21bebd1b85afe8ec4881",
                    "healthcare",
                    (400, 921, 198295),
                ),
                _docoie(
                    "data/test/transport/extractions.tsv",
                    "0cd6d7e8ac250930fc0a3629e16e2a458e6a0cd0337a70460ac8317f362b8ff3",
                    "transportation",
                    (400, 1201, 277650),
                ),
                _docoie(
                    "DocOIE/data_evaluation/DocOIE_healthcare_eval_gold.json",
                    "82768a0bfd51648c1d9011ec32bfbb75832531a643655b8bc9db6cea7042395d",
                    "healthcare-json",
                    (400, 921, 161183),
                    40,
                ),
                _docoie(
                    "DocOIE/data_evaluation/DocOIE_transportation_eval_gold.json",
                    "9efe4c773ddc3a126206d5a81d36f3e82f35a3990564349b988c6c8bf9ec13c3",
                    "transportation-json",
                    (400, 1202, 195405),
                    40,
                ),
            ),
        ),
        Benchmark(
            "lsoie",
            "LSOIE",
            "lsoie",
            ("lsoie",),
            "benchie_cli.benchmarks.lsoie.benchmark",
            ("wiki", "sci"),
            platform=True,
            formats=(
                "carb",
                "openie4",
                "openie5",
                "llm-text",
                "jsonl",
                "json",
                "allennlp",
                "reverb",
                "clausie",
                "props",
                "ollie",
                "openie6",
                "stanford",
            ),
            external=True,
            published=(
                _lsoie(
                    "eval.oie.correct.head",
                    "5571bd12493b6776f0377247badf939cbc83be902c18c3c249293d417d032491",
                    "wiki",
                    (2327, 5209, 1406050),
                    (
                        "9ec05e8acff6f98abf798ed7578e7f5f857f0490e77e5de296532866d50d7915",
                        "eval.oie",
                    ),
                ),
                _lsoie(
                    "science_eval.oie.correct.head",
                    "e18eb8da24163dbc6a861446e3745ee607b1e2b1c5173eb6260a556b907164e9",
                    "sci",
                    (6655, 11604, 2101059),
                    (
                        "54af731de3b0ef0fa37a31da7f3f69ab9732cff3410f4250c352844278dabb06",
                        "science_eval.oie",
                    ),
                ),
            ),
        ),
    )
}
#: The benchmarks with published files benchie may not ship, which the user adds (all
#: their gold, or some languages of it).
EXTERNAL = tuple(b.name for b in BENCHMARKS.values() if b.published)
#: Every language ``--lang`` may name, of any benchmark (each checks its own).
SCORE_LANGUAGES = tuple(dict.fromkeys(lang for b in BENCHMARKS.values() for lang in b.languages))
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
                + (
                    f": it is the metric of --benchmark {home[0]}, give that instead"
                    if len(home) == 1
                    else ""
                )
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
