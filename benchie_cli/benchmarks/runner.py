"""The one path every benchmark is scored through: a :class:`Request` (what ``benchie score``
was asked, option by option) goes to the :class:`Runner` of the benchmark it names, which
checks the options that concern it, reads its gold and the submissions once, scores them
and builds its report (:class:`Outcome`). ``score``, ``score --suite`` (:meth:`Runner.rows`),
``verify`` (:meth:`Runner.check_shape`, :meth:`Runner.rederive`) and the Codabench program
all go through it, so a benchmark is scored the same way whichever command asks.

Each benchmark's package names its runner ``RUNNER`` in the module its registry entry names
(``benchie_cli/benchmarks/<name>/benchmark.py``); :func:`runner` finds it through the
registry, so no code outside the package compares the benchmark's name.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar, cast

from benchie_cli.curves import Curve
from benchie_cli.errors import BenchieError, ExitCode, printable_path
from benchie_cli.gold.dirs import GoldDirs
from benchie_cli.inputs.batch import Failure, Submission
from benchie_cli.inputs.subset import SubsetFile, read_subset
from benchie_cli.records import Record, Slotted
from benchie_cli.registry import (
    BASE_FACET,
    BENCHMARKS,
    METRICS,
    implementation,
    metric_choice,
)
from benchie_cli.textio import STDIN

T = TypeVar("T")

#: Where a run's messages go: one line each (``warning: ...``, a conversion summary).
Say = Callable[[str], None]


def _ignore(_: object) -> None:
    pass


class Hooks(Record):
    """What a run tells its caller as it goes: ``say`` each message, ``notice`` what
    concerns the gold rather than a submission (a draft version: the CLI says it once per
    run), ``on_outcome`` each scored system or :class:`Failure`, in order (a progress bar)."""

    say: Say = _ignore
    notice: Say | None = None
    on_outcome: Callable[[object], None] = _ignore

    def tell(self, line: str) -> None:
        """A notice about the gold."""
        (self.notice or self.say)(line)


#: A run's hooks when its caller listens to nothing.
SILENT = Hooks()


class Request(Record):
    """One ``benchie score`` run: the submissions and every option, as given. ``None``
    means not given (each benchmark's default applies)."""

    batch: tuple[Submission, ...]
    benchmark: str
    metric: str | None = None
    gold_dir: str | None = None
    gold_version: str | None = None
    gold_file: str | None = None
    lang: str = "en"
    facet: str = BASE_FACET
    split: str | None = None
    strip_implicit: bool = True
    case_sensitive: bool = False
    retokenize: bool = False
    per_sentence: bool = False
    strict: bool = False
    expect_gold: str | None = None
    input_format: str = "auto"
    jobs: int | None = None
    #: The report's file (no input may be written over), or None for standard output.
    output: str | None = None
    #: ``--sentences``: the file of the sentences to score alone (docs/subsets.md).
    sentences: str | None = None

    @property
    def inputs(self) -> list[str]:
        """Every file the run reads besides the gold: the submissions, the subset's file."""
        return [*self.paths, *([self.sentences] if self.sentences is not None else [])]

    @property
    def metrics(self) -> str:
        """The metric(s) asked for, or the benchmark's default (an empty value is asked for:
        it names no metric, and is refused)."""
        return self.metric if self.metric is not None else BENCHMARKS[self.benchmark].metrics[0]

    @property
    def paths(self) -> list[str]:
        return [s.path for s in self.batch]


class Outcome(Record):
    """A scored run: the report, a label for the line that names the written file
    (``2 system(s), gold 1.1.0``), the failures (each already said), the number of
    submissions, and what a page of BenchIE's leaderboard needs (its results)."""

    report: dict[str, Any]
    label: str
    failures: list[Failure]
    total: int
    results: Sequence[Any] = ()
    #: Each system's precision-recall curve, named for its file (``score --curves``).
    curves: Sequence[tuple[str, Curve]] = ()


#: ``PATH:LINE`` as a one-line error starts (the path itself may hold colons).
_LOCATION = re.compile(r"(.*):(\d+)", re.DOTALL)


class NothingScored(BenchieError):
    """No submission of the run could be scored. Its message is the first failure's (so
    ``str()`` gives that failure's line), its exit status the worst failure's; every
    failure is in ``failures``."""

    def __init__(self, failures: Sequence[Failure]) -> None:
        if not failures:
            super().__init__("no submission could be scored")
            self.failures: list[Failure] = []
            return
        first = failures[0]
        where, _, message = first.message.partition("error: ")  # "PATH:LINE: error: MSG"
        located = _LOCATION.fullmatch(where[:-2])
        super().__init__(
            message,
            path=(located.group(1) if located else where[:-2]) or None,
            line=int(located.group(2)) if located else None,
            exit_code=max(f.exit_code for f in failures),
        )
        self.failures = list(failures)


class Row(Slotted):
    """One benchmark's line of the suite's table (docs/suite.md), filled in as the
    benchmark is scored."""

    __slots__ = (
        "benchmark",
        "coverage",
        "curve",
        "facet",
        "findings",
        "gold",
        "known",
        "language",
        "metric",
        "numbers",
        "signature",
        "skipped",
        "split",
        "warnings",
    )

    def __init__(
        self,
        benchmark: str,
        metric: str,
        split: str,
        numbers: dict[str, Any] | None = None,
        signature: str | None = None,
        gold: dict[str, str] | None = None,
        coverage: tuple[int, int] = (0, 0),
        skipped: str | None = None,
        facet: str | None = None,
        warnings: tuple[str, ...] = (),
        known: frozenset[str] = frozenset(),
        findings: dict[str, Any] | None = None,
        language: str = "en",
        curve: Curve | None = None,
    ) -> None:
        self.benchmark = benchmark
        self.metric = metric
        self.split = split
        self.numbers = numbers
        self.signature = signature
        #: The gold scored against: version and sha256 (the signature shows 12 digits).
        self.gold: dict[str, str] = {} if gold is None else gold
        #: (gold sentences with output, gold sentences).
        self.coverage = coverage
        #: Why there are no numbers (absent gold, no sentence of the benchmark).
        self.skipped = skipped
        self.facet = facet
        #: What the benchmark's scorer does silently that a user must know (said on stderr).
        self.warnings = warnings
        #: The file's sentence texts that are the benchmark's (not in the report).
        self.known = known
        #: A gold with errors its reader skipped or repaired: what ``score`` reports of it.
        self.findings = findings
        #: The language of the gold (the suite groups its rows by it).
        self.language = language
        #: The metric's precision-recall curve when it draws one: not in the row's JSON (the
        #: suite's report holds no curves), drawn on the suite's HTML page.
        self.curve = curve

    @property
    def label(self) -> str:
        label = METRICS[self.metric].label
        label = f"{label} ({self.facet})" if self.facet else label
        return label if self.language == "en" else f"{label} [{self.language}]"

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "benchmark": self.benchmark,
            "metric": self.metric,
            **({"facet": self.facet} if self.facet else {}),
            "split": self.split,
            # (only when not English: reports of English rows keep their bytes)
            **({"language": self.language} if self.language != "en" else {}),
        }
        if self.skipped is not None:
            out["skipped"] = self.skipped
            return out
        out["signature"] = self.signature
        out["gold"] = self.gold
        if self.findings is not None:  # (only then: reports without errors keep their bytes)
            out["findings"] = self.findings
        out["sentences"] = {"with_output": self.coverage[0], "gold": self.coverage[1]}
        out[self.metric] = self.numbers
        return out


def none_of_its(benchmark: str) -> str:
    """Why a suite row has no numbers: the file has none of the benchmark's sentences."""
    return f"none of its sentences is {BENCHMARKS[benchmark].label}'s"


class SuiteInput(Slotted):
    """The system output as every benchmark of the suite takes it, read once for all."""

    __slots__ = (
        "_texts",
        "cached",
        "data",
        "fmt",
        "given",
        "path",
        "read_texts",
        "root",
        "say",
        "sha256",
        "shown",
    )

    def __init__(
        self,
        root: GoldDirs,
        path: str,
        data: bytes,
        shown: str,
        fmt: str,
        sha256: str,
        given: str,
        cached: bool = True,
        say: Say = _ignore,
        read_texts: Callable[[], Any] = dict,
    ) -> None:
        self.root = root
        self.path = path
        self.data = data
        self.shown = shown
        self.fmt = fmt
        self.sha256 = sha256
        #: ``--input-format`` as ``score`` records it (BenchIE's signature), found before any
        #: conversion stands in for the file.
        self.given = given
        #: Whether compiled gold may come from the index cache (``verify`` re-derives
        #: without).
        self.cached = cached
        #: Where what a user must know goes (a gold's errors, as every command says them).
        self.say = say
        #: How the file is read as CaRB's reader of its format reads it: extractions by
        #: sentence text (``corpus.carb_texts``), called on first use, once.
        self.read_texts = read_texts
        self._texts: Any = None

    def texts(self) -> Any:
        """Extractions by sentence text, as CaRB's reader of the format reads the file."""
        if self._texts is None:
            self._texts = self.read_texts()
        return self._texts


class Sentences(Record):
    """A benchmark's input sentences as ``benchie sentences`` exports them: ``(id, text)``
    in gold order (the id a BenchIE TSV line names the sentence by), and the files read."""

    items: list[tuple[str, str]]
    inputs: list[Path]
    store: GoldDirs | Path | None


class Runner(Protocol):
    """What a benchmark's package offers the commands (its ``RUNNER``)."""

    #: Whether ``gold stats`` counts its splits (:meth:`gold_stats`).
    counts_splits: bool

    def check(self, request: Request) -> None:
        """Refuse (exit 2) the options that do not apply to the benchmark, before any file
        is read."""
        ...

    def score(self, request: Request, hooks: Hooks) -> Outcome:
        """Score ``request.batch`` with ``request``'s options; a submission that cannot be
        scored is a failure and the others are scored; none at all raises
        :class:`NothingScored`. Options that do not apply are refused (exit 2)."""
        ...

    def check_shape(self, report: dict[str, Any], shown: str) -> None:
        """Refuse (exit 2) a report of this benchmark that lacks a field re-deriving reads."""
        ...

    def rederive(
        self,
        report: dict[str, Any],
        submissions: list[str],
        *,
        gold_dir: str | None,
        gold_file: str | None,
        jobs: int | None,
        sentences: str | None = None,
    ) -> dict[str, Any]:
        """The report rebuilt from its gold and ``submissions`` (one per system), on the
        subset of ``sentences`` when the report was scored on one (:func:`subset_given`)."""
        ...

    def gold(self, request: Request) -> tuple[str, str]:
        """The sha256 of the gold a run of ``request`` scores against, read and checked as
        the run reads it, and how messages name it (a Codabench task checks its pin before
        any submission is read)."""
        ...

    def other_rows(self, given: SuiteInput) -> list[Row]:
        """The suite's rows of its other gold in the store: the published parts of other
        languages and splits a user added (none for a benchmark without them)."""
        ...

    def rows(self, given: SuiteInput) -> list[Row]:
        """The benchmark's rows of the suite's table for one system output."""
        ...

    def absent(self, root: GoldDirs) -> str | None:
        """Why the stores ``root`` cannot score the benchmark at all, or None."""
        ...

    def sentences(self, request: Request, hooks: Hooks) -> Sentences:
        """The input sentences of the gold ``request`` names (its split, version, language):
        the sentences a system must be run on to be scored."""
        ...

    def gold_stats(
        self, root: GoldDirs, version: str
    ) -> tuple[list[dict[str, Any]], list[list[str]]]:
        """``gold stats``: each split's counts of ``version``, as JSON objects and table rows."""
        ...


def runner(benchmark: str) -> Runner:
    """The runner of ``benchmark`` (its package is imported now, not before)."""
    return cast(Runner, implementation(benchmark).RUNNER)


def each_submission(
    batch: Sequence[Submission], hooks: Hooks, score_one: Callable[[Submission], T]
) -> tuple[list[T], list[Failure]]:
    """``score_one`` of each submission, in order; one that raises :class:`BenchieError` is
    a failure (said, and passed on as each result is) and the others are scored. None at
    all raises :class:`NothingScored`."""
    results: list[T] = []
    failures: list[Failure] = []
    for submission in batch:
        try:
            result = score_one(submission)
        except BenchieError as exc:
            hooks.say(str(exc))
            failures.append(Failure(submission, str(exc), exc.exit_code))
            hooks.on_outcome(failures[-1])
            continue
        results.append(result)
        hooks.on_outcome(result)
    if not results:
        raise NothingScored(failures)
    return results, failures


def check_split(request: Request) -> str:
    """The split asked for, checked against the benchmark's, or its default."""
    b = BENCHMARKS[request.benchmark]
    split = request.split
    if split is not None and split not in b.splits:
        having = [o.name for o in BENCHMARKS.values() if split in o.splits]
        if not having:
            every = dict.fromkeys(x for o in BENCHMARKS.values() for x in o.splits)
            raise BenchieError(f"--split {split}: no benchmark has it (splits: {', '.join(every)})")
        if b.by_language:
            raise BenchieError(
                f"BenchIE's gold has no splits: --split {split} chooses a split of "
                f"{' or '.join(having)}, so it needs "
                + " or ".join(f"--benchmark {h}" for h in having)
            )
        raise BenchieError(f"--split {split}: {b.name} has the splits {', '.join(b.splits)}")
    return split or (b.splits[0] if b.splits else "-")


def check_gold_file_alone(request: Request) -> None:
    """A benchmark's own gold given as a file (``--gold-file``) is one split of one version,
    scored whole: ``--gold-version`` or ``--split`` beside it would be ignored, so refused."""
    if request.gold_file is None:
        return
    given = [
        f"--{option}"
        for option, value in (("gold-version", request.gold_version), ("split", request.split))
        if value is not None
    ]
    if given:
        raise BenchieError(
            f"give --gold-file (your own gold, scored whole) or {' and '.join(given)} "
            "(the store's), not both"
        )


def check_metric(request: Request) -> None:
    """The metrics asked for are the benchmark's."""
    try:
        metric_choice(request.metrics, request.benchmark)
    except ValueError as exc:
        raise BenchieError(f"--metric: {exc}") from None


def check_language(request: Request) -> None:
    """The language asked for is one the benchmark has gold in; if not, the message names
    the benchmarks that have."""
    b = BENCHMARKS[request.benchmark]
    if request.lang in b.languages:
        return
    having = [o for o in BENCHMARKS.values() if request.lang in o.languages]
    only = "English only" if b.languages == ("en",) else f"in {', '.join(b.languages)} only"
    raise BenchieError(
        f"--lang {request.lang}: {b.label}'s gold is {only}; "
        + (
            " and ".join(o.label for o in having)
            + f" {'has' if len(having) == 1 else 'have'} {request.lang} gold (give "
            + " or ".join(f"--benchmark {o.name}" for o in having)
            + ")"
            if having
            else f"no benchmark has {request.lang} gold"
        )
    )


def check(request: Request) -> None:
    """Every check of the options made before anything is read, in the order a user meets
    them: the metrics are the benchmark's, the language and the split are among its own,
    and the options its runner refuses (:meth:`Runner.check`)."""
    check_metric(request)
    check_language(request)
    check_split(request)
    if request.sentences == STDIN and (STDIN in request.paths or request.gold_file == STDIN):
        raise BenchieError(
            "--sentences - reads standard input, which another input of this run reads too: "
            "give the subset's file by name"
        )
    runner(request.benchmark).check(request)


def score(request: Request, hooks: Hooks = SILENT) -> Outcome:
    """Score ``request`` through its benchmark's runner, after :func:`check`; its
    per-sentence statistics may be shared out to ``request.jobs`` processes
    (:mod:`benchie_cli.workers`)."""
    from benchie_cli.workers import allowed

    check(request)
    with allowed(request.jobs):
        return runner(request.benchmark).score(request, hooks)


def refuse_benchie_options(
    what: str,
    fix: str,
    *,
    facet: str = BASE_FACET,
    strip_implicit: bool = True,
    case_sensitive: bool = False,
    retokenize: bool = False,
    per_sentence: bool = False,
) -> None:
    """Refuse (exit 2) BenchIE's options where they change nothing (CaRB's metric alone,
    another benchmark): a user who asked for one would believe it applied. ``fix`` says
    what to do instead."""
    given = [
        name
        for name, on in (
            (f"--facet {facet}", facet != BASE_FACET),
            ("--keep-implicit", not strip_implicit),
            ("--case-sensitive", case_sensitive),
            ("--retokenize", retokenize),
            ("--per-sentence", per_sentence),
        )
        if on
    ]
    if given:
        raise BenchieError(
            f"{', '.join(given)}: BenchIE's options, which do not apply to {what} {fix}"
        )


def refuse_benchie_options_of(request: Request, fix: str) -> None:
    """:func:`refuse_benchie_options` for ``--benchmark NAME`` with ``request``'s options
    (``--retokenize`` applies to every benchmark: its runner refuses it for the formats its
    original scorer's own readers read, which read every slot as given)."""
    refuse_benchie_options(
        f"--benchmark {request.benchmark}",
        fix,
        facet=request.facet,
        strip_implicit=request.strip_implicit,
        case_sensitive=request.case_sensitive,
        per_sentence=request.per_sentence,
    )


def retokenize_refused(benchmark: str, fmt: str, shown: str) -> BenchieError:
    """``--retokenize`` on a file its benchmark's original scorer reads with its own reader,
    which takes each slot as given: refused rather than silently ignored."""
    return BenchieError(
        f"--retokenize does not apply to {fmt} here: {BENCHMARKS[benchmark].label}'s original "
        f"reader of {fmt} reads it, and takes every slot as given (--retokenize re-splits the "
        "slots of the formats benchie's readers read for it): score it without --retokenize",
        path=shown,
    )


#: What another benchmark's scorer does with BenchIE's options (:func:`refuse_benchie_options`).
ORIGINAL_FIX = "(its original scorer scores every line as given)"


def expected_prefix(expected: str | None) -> str | None:
    """``--expect-gold``: the full sha256 or a prefix of at least 12 hex digits, lowered;
    checked before anything is read."""
    if expected is None:
        return None
    value = expected.strip().lower()
    if len(value) < EXPECT_GOLD_MIN or len(value) > 64 or any(c not in HEX for c in value):
        raise BenchieError(
            f"--expect-gold {expected!r}: give the gold's sha256, or its first "
            f"{EXPECT_GOLD_MIN} hex digits or more (as in the signature)"
        )
    return value


def check_pinned(sha256: str, prefix: str | None, expected: str | None, what: str) -> None:
    """The gold scored is the one ``--expect-gold`` pins (exit 1 when not)."""
    if prefix is not None and not sha256.startswith(prefix):
        raise BenchieError(
            f"gold {what} has sha256 {sha256}, not the expected {expected}",
            exit_code=ExitCode.FAILED,
        )


#: The signature shows 12 hex digits: the shortest ``--expect-gold`` accepted.
EXPECT_GOLD_MIN = 12
HEX = frozenset("0123456789abcdef")


def show(value: Any) -> str:
    """A value of a report as a difference shows it (a container by its size)."""
    import orjson

    if isinstance(value, (dict, list)):
        kind = "object" if isinstance(value, dict) else "list"
        return f"<{kind} of {len(value)}>"
    return orjson.dumps(value).decode()


def brief(value: Any) -> str:
    """A value of a report as a message names it: short, and never deep (a report may
    nest a value thousands of levels deep): a container as :func:`show` gives it."""
    if isinstance(value, (dict, list)):
        return show(value)
    return printable_path(repr(value))[:80]


def subset_given(report: dict[str, Any], sentences: str | None) -> SubsetFile | None:
    """The ``--sentences`` file a re-derivation of ``report`` reads, read: when the report
    was scored on a subset (its ``subset``), the file given, else the one the report names
    (as each system's); given for a report without a subset, refused. A file whose bytes
    are not those the report names is refused, naming both hashes (exit 2)."""
    subset = report.get("subset")
    if subset is None:
        if sentences is not None:
            raise BenchieError(
                "the report scores every sentence of its gold (it has no subset): "
                "--sentences does not apply"
            )
        return None
    if not isinstance(subset, dict) or not isinstance(subset.get("sha256"), str):
        raise BenchieError("the report's subset has no sha256: it cannot be re-derived")
    named = subset.get("file")
    if sentences is None and isinstance(named, str) and os.path.isfile(named):
        sentences = named  # (as each system's file: the one the report names)
    if sentences is None:
        raise BenchieError(
            f"the report was scored on {subset.get('sentences')} sentences listed in "
            f"{named} (sha256 {subset['sha256']}), which is not a file here: give that file "
            "with --sentences"
        )
    given = read_subset(sentences)
    if given.sha256 != subset["sha256"]:
        raise BenchieError(
            f"not the report's subset file: its sha256 is {given.sha256}, the report's "
            f"{subset['sha256']} ({subset.get('file')})",
            path=given.shown,
        )
    return given


def as_reported(report: dict[str, Any], rebuilt: dict[str, Any]) -> dict[str, Any]:
    """``rebuilt`` with what a re-derivation takes from the report rather than computes:
    each system's ``file`` and the subset's as the report names them, and the
    ``failures``. (Systems that do not pair up, a WiRe57 export read otherwise, are left to
    the comparison to name.)"""
    for given, derived in zip(report["systems"], rebuilt["systems"], strict=False):
        derived["file"] = given["file"]
    if isinstance(report.get("subset"), dict) and "subset" in rebuilt:  # (its sha256 checked)
        rebuilt["subset"]["file"] = report["subset"].get("file")
    if "failures" in report:
        rebuilt["failures"] = report["failures"]
    return rebuilt


def named_systems(systems: Any) -> bool:
    """Whether ``systems`` is a non-empty list of systems with a name, a file and a sha256:
    what every re-derivation takes from the report."""
    return (
        isinstance(systems, list)
        and bool(systems)
        and all(
            isinstance(s["name"], str) and isinstance(s["file"], str) and "sha256" in s
            for s in systems
        )
    )


def check_split_shape(report: dict[str, Any], shown: str) -> None:
    """The fields a ``score --benchmark NAME`` report of a benchmark with splits must have
    to be re-derived (exit 2 when one is missing)."""
    try:
        gold, options = report["gold"], report["options"]
        ok = (
            isinstance(gold["version"], str)
            and isinstance(gold["split"], str)
            and isinstance(gold["files"][0]["sha256"], str)
            and isinstance(options, dict)
            and isinstance(options.get("input_format", "auto"), str)
            and named_systems(report["systems"])
        )
    except (KeyError, IndexError, TypeError):
        ok = False
    if not ok:
        raise BenchieError(
            f"not a complete `benchie score --benchmark {report['benchmark']}` JSON report",
            path=shown,
        )


#: The key a metric's object of a report holds, ``true``, when the system's curve has one
#: threshold: every extraction had the same confidence, or none (an LLM's output).
SINGLE_THRESHOLD = "single_threshold"


def single_threshold_notes(systems: Sequence[dict[str, Any]], keys: Sequence[str]) -> list[str]:
    """Under a table: each system whose curve (under any of the metric objects ``keys``)
    has a single threshold, so that its AUC is not read as a ranking signal."""
    names = [
        s["name"]
        for s in systems
        if any(isinstance(s.get(k), dict) and s[k].get(SINGLE_THRESHOLD) for k in keys)
    ]
    return [
        f"note: {name}: one confidence for every extraction (or none): its curve has a single "
        "threshold, so its AUC is not a ranking signal"
        for name in names
    ]


def recorded_input(input_format: str, read_as: set[str]) -> str:
    """The input format a report records: the one given, unless the files were read by
    versioned rules (an LLM's answers, detected), whose name the signature must carry. A
    run that mixes them with other formats is refused (exit 2): the report's one signature
    would name the rules for every system, and ``verify`` would read the others by them."""
    from benchie_cli.inputs.formats import VERSIONS

    versioned = sorted(f for f in read_as if f in VERSIONS)
    if not versioned:
        return input_format
    if len(read_as) > 1:
        raise BenchieError(
            f"an LLM's answers ({versioned[0]}) are scored in a run of their own: the report's "
            "signature names their rules' version for every system; score the other files "
            "in another run"
        )
    return versioned[0]
