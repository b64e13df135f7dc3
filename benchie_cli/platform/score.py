"""The Codabench scoring program (``benchie platform score INPUT OUTPUT``): a participant's
files from ``INPUT/res/``, the organiser's pinned reference from ``INPUT/ref/``, and the two
files the platform reads back, ``OUTPUT/detailed_results.html`` then ``OUTPUT/scores.json``.

The contract is docs/platform.md. In short: ``ref/benchie.json`` pins the gold version and
the sha256 of each language's default-facet gold file, and chooses languages, facets and
metrics; ``ref/gold/`` may hold a gold store (private test gold). A submission is one file
per language, ``<lang>.<ext>`` (``en.tsv``, ``de.tsv``, ``zh.tsv``, or a system's native
output), directly in ``res/``, inside its one subdirectory, or inside its one ``.zip``
(extracted with bounds: no absolute paths, no ``..``, no links, at most
:data:`MAX_ZIP_MEMBERS` members and :data:`MAX_ZIP_BYTES` bytes). ``scores.json`` is one flat
object of finite numbers whose keys :func:`score_keys` lists (the leaderboard's columns); it
is written last, so that a run that fails leaves none and the platform marks it failed.
"""

from __future__ import annotations

import functools
import html
import json
import math
import os
import re
import stat
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchie_cli import LANGUAGES, __version__
from benchie_cli.errors import BenchieError, ExitCode, printable_path
from benchie_cli.outputs import check_output
from benchie_cli.registry import (
    BASE_FACET,
    BENCHMARKS,
    DEFAULT_BENCHMARK,
    DEFAULT_METRIC,
    FACET_NAMES,
    METRICS,
    PLATFORM_METRICS,
    SCORE_LANGUAGES,
)
from benchie_cli.textio import atomic_write, temporary_directory, without_bom

if TYPE_CHECKING:
    from benchie_cli.api import Gold
    from benchie_cli.benchmarks.runner import Outcome, Request

#: The reference file in ``INPUT/ref/`` and the optional gold store beside it.
SPEC_NAME = "benchie.json"
GOLD_STORE_NAME = "gold"
#: What the platform reads back from ``OUTPUT/``.
SCORES_NAME = "scores.json"
DETAILS_NAME = "detailed_results.html"
#: The file the worker adds to ``res/`` (and writes to ``OUTPUT/`` itself afterwards).
WORKER_METADATA = "metadata"
#: Codabench's limit on a leaderboard column key.
MAX_KEY_LENGTH = 36
#: The scoring program's command as a Codabench bundle's ``metadata.yaml`` gives it: the
#: compute worker splits it like a shell line (no shell runs it) and runs it after the
#: image's ENTRYPOINT, which the ``codabench`` image leaves empty (Dockerfile).
SCORING_COMMAND = "benchie platform score /app/input /app/output"
#: Bootstrap resamples of the detailed results' analysis (as ``analyze --resamples``):
#: enough for the intervals of one system, quick on the worker.
ANALYSIS_RESAMPLES = 200
#: Bounds of a zipped submission.
MAX_ZIP_MEMBERS = 1000
MAX_ZIP_BYTES = 100 * 1024 * 1024
#: Path parts of a member: a file, in a folder, in a few more (a submission is found in
#: its one folder, which a zip tool may put in another).
MAX_ZIP_DEPTH = 8
#: A reference file is a few lines: anything larger is not one.
MAX_SPEC_BYTES = 64 * 1024

SPEC_KEYS = ("gold_version", "gold_sha256", "languages", "facets", "metrics", "benchmark", "split")
_SHA256 = re.compile(r"[0-9a-f]{64}")
_CHUNK = 1 << 16

Say = Callable[[str], None]


def _quiet(_: str) -> None:
    pass


class SubmissionFailed(BenchieError):
    """A participant's file could not be scored; its one-line error was already said."""


@dataclass(frozen=True)
class PlatformSpec:
    """The organiser's ``ref/benchie.json``: what a run scores, against which gold."""

    gold_version: str
    gold_sha256: dict[str, str]
    languages: tuple[str, ...]
    facets: tuple[str, ...] = (BASE_FACET,)
    metrics: tuple[str, ...] = ("benchie",)
    #: The benchmark scored: BenchIE's (facets, CaRB beside it), or another the registry
    #: lets a competition score (``Benchmark.platform``), against its ``split``.
    benchmark: str = DEFAULT_BENCHMARK
    split: str | None = None

    @property
    def by_facets(self) -> bool:
        """Whether it scores BenchIE's gold (by language and facet, the analysis page)."""
        return BENCHMARKS[self.benchmark].by_language

    @property
    def carb(self) -> bool:
        """Whether a metric scored against the version's reference file (CaRB's) is chosen."""
        return self.carb_metric is not None

    @property
    def carb_metric(self) -> str | None:
        """The metric chosen that scores against the version's reference file, if any."""
        return next((m for m in self.metrics if METRICS[m].reference), None)

    @property
    def main_facet(self) -> str:
        """The facet whose F1 ``mean_f1`` averages: the default facet when chosen, else the
        first one."""
        return BASE_FACET if BASE_FACET in self.facets else self.facets[0]


def metric_key(metric: str) -> str:
    """A metric's part of a score key (``carb-ss`` -> ``carb_ss``)."""
    return metric.replace("-", "_")


def score_keys(spec: PlatformSpec) -> list[str]:
    """The keys of ``scores.json`` for ``spec``, in order (the leaderboard's columns):
    ``L_F_precision``, ``L_F_recall``, ``L_F_f1`` for each language L and facet F, then
    ``en_carb_*`` when CaRB's metric is chosen, then ``mean_f1``; for another benchmark,
    ``L_M_precision``, ``L_M_recall``, ``L_M_f1``, ``L_M_auc`` for each language L and
    metric M, then ``mean_f1`` (of the first metric)."""
    keys: list[str] = []
    if not spec.by_facets:
        for lang in spec.languages:
            for metric in spec.metrics:
                keys += [
                    f"{lang}_{metric_key(metric)}_{m}" for m in ("precision", "recall", "f1", "auc")
                ]
        keys.append("mean_f1")
        return keys
    for lang in spec.languages:
        for facet in spec.facets:
            keys += [f"{lang}_{facet}_{m}" for m in ("precision", "recall", "f1")]
        if spec.carb and lang in _carb_languages():
            keys += [f"{lang}_carb_{m}" for m in ("precision", "recall", "f1")]
    keys.append("mean_f1")
    too_long = [k for k in keys if len(k) > MAX_KEY_LENGTH]
    if too_long:  # cannot happen with the registry's names; a new facet must keep it so
        raise BenchieError(f"score keys longer than {MAX_KEY_LENGTH} characters: {too_long}")
    return keys


def _carb_languages() -> tuple[str, ...]:
    return METRICS["carb"].languages or LANGUAGES


# --- the reference file ------------------------------------------------------------------


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    dup = sorted({k for k in keys if keys.count(k) > 1})
    if dup:
        raise ValueError(f"duplicate key(s) {', '.join(map(repr, dup))}")
    return dict(pairs)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _names(
    doc: dict[str, Any], key: str, known: tuple[str, ...], default: tuple[str, ...]
) -> tuple[str, ...]:
    if key not in doc:
        return default
    value = doc[key]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{key!r}: a non-empty list of strings, not {json.dumps(value)[:60]}")
    unknown = [v for v in value if v not in known]
    if unknown:
        raise ValueError(f"{key!r}: unknown {unknown[0]!r} (available: {', '.join(known)})")
    if len(set(value)) != len(value):
        raise ValueError(f"{key!r}: a name is given twice")
    return tuple(value)


def parse_spec(data: bytes) -> PlatformSpec:
    """The reference file's content, checked strictly (ValueError says what is wrong)."""
    try:
        doc = json.loads(
            without_bom(data).decode("utf-8"),
            object_pairs_hook=_no_duplicates,
            parse_constant=_no_constant,
        )
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON: {exc}") from None
    except RecursionError:  # Python's JSON reader gives up on deep nesting
        raise ValueError("not a reference file: JSON nested too deeply") from None
    if not isinstance(doc, dict):
        raise ValueError("a JSON object is expected")
    unknown = [k for k in doc if k not in SPEC_KEYS]
    if unknown:
        raise ValueError(f"unknown key {unknown[0]!r} (keys: {', '.join(SPEC_KEYS)})")
    for key in ("gold_version", "gold_sha256", "languages"):
        if key not in doc:
            raise ValueError(f"missing key {key!r}")
    version = doc["gold_version"]
    if not isinstance(version, str) or not re.fullmatch(r"[0-9A-Za-z][0-9A-Za-z.+_-]*", version):
        raise ValueError(
            f"'gold_version': a version such as '1.1.0', not {json.dumps(version)[:60]}"
        )
    benchmark = doc.get("benchmark", DEFAULT_BENCHMARK)
    known = isinstance(benchmark, str) and benchmark in BENCHMARKS
    if not (known and BENCHMARKS[benchmark].by_language) or "split" in doc:
        return _other_spec(doc, version, benchmark)
    languages = _names(doc, "languages", LANGUAGES, ())
    facets = _names(doc, "facets", FACET_NAMES, (BASE_FACET,))
    metrics = _names(doc, "metrics", PLATFORM_METRICS, ("benchie",))
    if not any(METRICS[m].benchie_options for m in metrics):
        raise ValueError("'metrics': must include 'benchie' (CaRB's numbers come beside BenchIE's)")
    for m in metrics:
        if METRICS[m].reference and not set(languages) & set(_carb_languages()):
            raise ValueError(
                f"'metrics': {m!r} scores {', '.join(_carb_languages())} only, not chosen"
            )
    return PlatformSpec(version, _pins(doc, languages), languages, facets, metrics)


def _other_spec(doc: dict[str, Any], version: str, benchmark: Any) -> PlatformSpec:
    """The reference file of a competition on another benchmark than BenchIE's: its
    languages, split and metrics among the benchmark's; no facets."""
    allowed = tuple(b.name for b in BENCHMARKS.values() if b.platform)
    if benchmark not in allowed:
        raise ValueError(
            f"'benchmark': {json.dumps(benchmark)[:40]} is not one a competition scores "
            f"(available: {', '.join((DEFAULT_BENCHMARK, *allowed))})"
        )
    b = BENCHMARKS[benchmark]
    if "facets" in doc:
        raise ValueError(f"'facets': BenchIE's; {b.label}'s gold has none")
    languages = _names(doc, "languages", b.languages, ())
    metrics = _names(doc, "metrics", b.metrics, (b.metrics[0],))
    split = doc.get("split", b.splits[0])
    if split not in b.splits:
        raise ValueError(
            f"'split': {json.dumps(split)[:40]} is not one of {b.label}'s ({', '.join(b.splits)})"
        )
    pins = _pins(doc, languages)
    return PlatformSpec(version, pins, languages, (), metrics, benchmark, split)


def _pins(doc: dict[str, Any], languages: tuple[str, ...]) -> dict[str, str]:
    """``gold_sha256``: a sha256 for each language chosen, and no other."""
    pins = doc["gold_sha256"]
    if not isinstance(pins, dict):
        raise ValueError("'gold_sha256': an object of language -> sha256")
    for lang, digest in pins.items():
        if lang not in languages:
            raise ValueError(f"'gold_sha256': {lang!r} is not one of 'languages'")
        if not isinstance(digest, str) or not _SHA256.fullmatch(digest):
            raise ValueError(
                f"'gold_sha256': {lang!r}: 64 lowercase hex digits, not {json.dumps(digest)[:80]}"
            )
    missing = [lang for lang in languages if lang not in pins]
    if missing:
        raise ValueError(f"'gold_sha256': no sha256 for {missing[0]!r}")
    return dict(pins)


def read_spec(ref_dir: Path) -> PlatformSpec:
    """``ref/benchie.json``, or a one-line error (exit 2) naming it."""
    path = ref_dir / SPEC_NAME
    shown = f"ref/{SPEC_NAME}"
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            raise BenchieError("not a regular file", path=shown)
        if info.st_size > MAX_SPEC_BYTES:
            raise BenchieError(
                f"larger than {MAX_SPEC_BYTES:,} bytes: not a reference file", path=shown
            )
        data = path.read_bytes()
    except FileNotFoundError:
        raise BenchieError(
            "missing: the task's reference data must hold benchie.json (docs/platform.md)",
            path=shown,
        ) from None
    except OSError as exc:
        raise BenchieError(f"cannot read: {exc.strerror or exc}", path=shown) from None
    try:
        return parse_spec(data)
    except ValueError as exc:
        raise BenchieError(str(exc), path=shown) from None


# --- the submission ----------------------------------------------------------------------


@dataclass(frozen=True)
class SubmittedFile:
    lang: str
    path: Path  # where it is read (perhaps a temporary copy)
    shown: str  # how messages name it: res/en.tsv, res/sub/en.tsv, res/s.zip/en.tsv


@dataclass
class Submission:
    files: dict[str, SubmittedFile]
    #: Files for languages this task does not score, left alone (said, and on the page).
    ignored: list[str] = field(default_factory=list)


def _ignorable(name: str) -> bool:
    """What an archiver or an OS adds: hidden files, macOS resource forks."""
    return name.startswith(".") or name == "__MACOSX"


def _expected(spec: PlatformSpec) -> str:
    return ", ".join(f"{lang}.tsv" for lang in spec.languages)


def _entries(directory: Path, shown: str, *, top: bool) -> list[Path]:
    try:
        names = sorted(os.listdir(directory))
    except OSError as exc:
        raise BenchieError(f"cannot read: {exc.strerror or exc}", path=shown) from None
    return [
        directory / n for n in names if not _ignorable(n) and not (top and n == WORKER_METADATA)
    ]


def _language_files(
    directory: Path, shown: str, spec: PlatformSpec, entries: list[Path]
) -> Submission:
    files: dict[str, SubmittedFile] = {}
    ignored: list[str] = []
    for entry in entries:
        where = f"{shown}/{printable_path(entry.name)}"
        lang, dot, ext = entry.name.partition(".")
        info = entry.lstat()
        if not stat.S_ISREG(info.st_mode) or lang not in SCORE_LANGUAGES or not dot or not ext:
            what = "a directory" if stat.S_ISDIR(info.st_mode) else "a file"
            if stat.S_ISLNK(info.st_mode):
                what = "a symbolic link"
            raise BenchieError(
                f"{what} this task does not read: a submission is one file per language "
                f"named {_expected(spec)} (another extension for a system's own output "
                "format), directly in the submission, in its one folder, or in its one "
                ".zip file",
                path=where,
            )
        if lang not in spec.languages:
            ignored.append(where)
            continue
        if lang in files:
            raise BenchieError(
                f"two files for language {lang!r} ({files[lang].shown} and {where}): submit one",
                path=where,
            )
        files[lang] = SubmittedFile(lang, entry, where)
    return Submission(files, ignored)


def _find(directory: Path, shown: str, spec: PlatformSpec, tmp: Path, *, depth: int) -> Submission:
    entries = _entries(directory, shown, top=depth == 0)
    if len(entries) == 1 and depth < 2:
        (only,) = entries
        info = only.lstat()
        if stat.S_ISDIR(info.st_mode):
            return _find(only, f"{shown}/{printable_path(only.name)}", spec, tmp, depth=depth + 1)
        if stat.S_ISREG(info.st_mode) and only.name.lower().endswith(".zip") and depth == 0:
            target = tmp / "unzipped"
            target.mkdir()
            extract_zip(only, target, f"{shown}/{printable_path(only.name)}")
            return _find(target, f"{shown}/{printable_path(only.name)}", spec, tmp, depth=1)
    return _language_files(directory, shown, spec, entries)


def find_submission(res_dir: Path, spec: PlatformSpec, tmp: Path) -> Submission:
    """The participant's file for each chosen language found in ``res/`` (its temporary
    extraction in ``tmp`` for a zip); a file that is none of them is refused, and so is a
    submission with no file for any chosen language."""
    if not res_dir.is_dir():
        raise BenchieError("missing: the submission directory", path="res")
    found = _find(res_dir, "res", spec, tmp, depth=0)
    if not found.files:
        raise BenchieError(
            f"no file for any language this task scores: expected {_expected(spec)} "
            "(directly in the submission, in its one folder, or in its one .zip file)",
            path="res",
        )
    return found


def extract_zip(archive: Path, target: Path, shown: str) -> None:
    """Extract ``archive`` into ``target``, refusing anything that could write elsewhere or
    without bound: absolute names, ``..``, links, more than :data:`MAX_ZIP_MEMBERS` members
    or :data:`MAX_ZIP_BYTES` bytes (counted as they are written, whatever the headers say)."""
    try:
        with zipfile.ZipFile(archive) as zf:
            members = zf.infolist()
            if len(members) > MAX_ZIP_MEMBERS:
                raise BenchieError(f"more than {MAX_ZIP_MEMBERS:,} members", path=shown)
            if sum(m.file_size for m in members) > MAX_ZIP_BYTES:
                raise BenchieError(f"more than {MAX_ZIP_BYTES >> 20} MB uncompressed", path=shown)
            written = 0
            for member in members:
                name = member.filename
                parts = name.replace("\\", "/").split("/")
                if (
                    name.startswith(("/", "\\"))
                    or re.match(r"[A-Za-z]:", name)
                    or ".." in parts
                    or "\x00" in name
                ):
                    raise BenchieError(f"member {name!r}: a path outside the archive", path=shown)
                mode = member.external_attr >> 16
                if stat.S_ISLNK(mode):
                    raise BenchieError(f"member {name!r}: a symbolic link", path=shown)
                clean = [p for p in parts if p not in ("", ".")]
                if not clean:
                    continue
                if len(clean) > MAX_ZIP_DEPTH:
                    raise BenchieError(
                        f"member {name[:60]!r}...: {len(clean) - 1:,} directories deep, more "
                        f"than a submission holds (at most {MAX_ZIP_DEPTH - 1})",
                        path=shown,
                    )
                destination = target.joinpath(*clean)
                if member.is_dir():
                    destination.mkdir(parents=True, exist_ok=True)
                    continue
                destination.parent.mkdir(parents=True, exist_ok=True)
                with zf.open(member) as src, open(destination, "xb") as out:
                    while chunk := src.read(_CHUNK):
                        written += len(chunk)
                        if written > MAX_ZIP_BYTES:
                            raise BenchieError(
                                f"more than {MAX_ZIP_BYTES >> 20} MB uncompressed", path=shown
                            )
                        out.write(chunk)
    except BenchieError:
        raise
    except FileExistsError as exc:  # named as in the archive, not by the temporary copy
        inside = Path(exc.filename).relative_to(target) if exc.filename else "a member"
        raise BenchieError(f"member {str(inside)!r} given twice", path=shown) from None
    except UnicodeDecodeError:  # a name flagged UTF-8 whose bytes are not (zipfile decodes)
        raise BenchieError(
            "not a readable zip file: a member's name is marked UTF-8 but is not; zip the "
            "files again",
            path=shown,
        ) from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, RuntimeError, NotImplementedError) as exc:
        raise BenchieError(f"not a readable zip file: {exc}", path=shown) from None
    except (OSError, EOFError) as exc:
        raise BenchieError(
            f"cannot extract: {getattr(exc, 'strerror', None) or exc}", path=shown
        ) from None


# --- scoring -----------------------------------------------------------------------------


@dataclass
class LanguageResult:
    lang: str
    shown: str | None  # None: not submitted
    #: facet -> (precision, recall, f1, report data)
    facets: dict[str, tuple[float, float, float, dict[str, Any]]] = field(default_factory=dict)
    carb: tuple[float, float, float] | None = None
    carb_signature: str | None = None
    gold_sha256: str = ""
    #: The analysis document of the submission (every facet the gold has, intervals), as
    #: ``benchie analyze --format json`` writes it; None when not submitted.
    analysis: dict[str, Any] | None = None


def finite(x: Any) -> float:
    """A score as ``scores.json`` may hold it: a finite number, else 0 (the platform
    rejects NaN and infinities)."""
    return float(x) if isinstance(x, (int, float)) and math.isfinite(x) else 0.0


#: The advice of ``benchie score`` that names ``--lang`` (the wrong-language mistake, the
#: hints of a file mostly implicit or of no gold id): a participant has no ``--lang``.
_LANG_ADVICE = (
    (re.compile(r"score it with --lang ([a-z]{2,3})\b"), "fix"),
    (re.compile(r"is the file really --lang ([a-z]{2,3}),"), "really"),
    (re.compile(r"is --lang ([a-z]{2,3}) right\?"), "right"),
)


def for_participants(text: str, file: SubmittedFile, languages: tuple[str, ...]) -> str:
    """``text`` with the read path named as the participant knows the file, and advice
    about ``--lang`` said as a Codabench submission chooses a language: by the file's name
    (``zh.tsv``, docs/platform.md). "score it with --lang zh" would send a participant
    after an option the platform does not give them."""
    text = text.replace(str(file.path), file.shown)
    ext = file.path.name.partition(".")[2] or "tsv"
    task = ", ".join(f"{lang}.{ext}" for lang in languages)

    def advice(kind: str, lang: str) -> str:
        named = f"{lang}.{ext}"
        if kind == "fix":
            if lang not in languages:
                return f"this task scores {', '.join(languages)} ({task}), not {lang}"
            return f"submit it named {named} (a file's name says its language)"
        if kind == "really":
            return f"is the file really {lang}, as its name {named} says,"
        return f"is the file really {lang}, as its name {named} says?"

    for pattern, kind in _LANG_ADVICE:
        text = pattern.sub(functools.partial(_advised, advice, kind), text)
    return text


def _advised(advice: Callable[[str, str], str], kind: str, match: re.Match[str]) -> str:
    """One ``--lang`` advice of :func:`for_participants` replaced (a ``re.sub`` callback)."""
    return advice(kind, match.group(1))


def _renamed(file: SubmittedFile, say: Say, languages: tuple[str, ...]) -> Say:
    """A ``say`` that names the participant's file as they know it, not its read path, and
    gives advice in the platform's terms (:func:`for_participants`)."""

    def said(line: str) -> None:
        say(for_participants(line, file, languages))

    return said


def score_as_submitted(
    request: Request, file: SubmittedFile, said: Say, languages: tuple[str, ...] = ()
) -> Outcome:
    """``request`` scored (its one submission, ``file``, read at its temporary path), every
    error naming the file as the participant knows it and advising in the platform's terms
    (:func:`for_participants`; ``languages``: the task's); a file that cannot be scored is
    a :class:`SubmissionFailed`."""
    from benchie_cli.benchmarks import runner

    real = str(file.path)
    languages = languages or (file.lang,)
    try:
        return runner.score(request, runner.Hooks(say=said, notice=_quiet))
    except runner.NothingScored as exc:
        path = exc.path.replace(real, file.shown) if exc.path else file.shown
        raise SubmissionFailed(
            for_participants(exc.message, file, languages),
            path=path,
            line=exc.line,
            exit_code=exc.exit_code,
        ) from None
    except BenchieError as exc:
        if exc.path is not None:
            exc.path = exc.path.replace(real, file.shown)
        exc.message = for_participants(exc.message, file, languages)
        raise


def check_gold(spec: PlatformSpec, lang: str, gold_dir: Path | None, say: Say) -> Gold:
    """``lang``'s default-facet gold, refused (exit 1) unless its sha256 is the one the
    reference file pins."""
    from benchie_cli import api

    base = api.load_gold(lang, spec.gold_version, BASE_FACET, gold_dir=gold_dir, say=say)
    pinned = spec.gold_sha256[lang]
    if base.sha256 != pinned:
        raise BenchieError(
            f"gold {base.resolved.display_path} has sha256 {base.sha256}, not the "
            f"{pinned} that ref/{SPEC_NAME} pins for {lang!r}",
            exit_code=ExitCode.FAILED,
        )
    return base


def _score_language(
    spec: PlatformSpec,
    lang: str,
    file: SubmittedFile | None,
    base: Gold,
    gold_dir: Path | None,
    say: Say,
) -> LanguageResult:
    """``lang``'s scores; ``base`` is its default-facet gold, already checked against the
    reference file's pin (:func:`check_gold`). Each facet is scored as ``benchie score``
    scores it (the one path every benchmark takes, :mod:`benchie_cli.benchmarks.runner`),
    with the pin as its ``--expect-gold``: the bytes scored are the bytes pinned."""
    from benchie_cli import api
    from benchie_cli.benchmarks import runner
    from benchie_cli.benchmarks.benchie.scoring import SystemResult
    from benchie_cli.inputs.batch import Submission

    result = LanguageResult(lang, file.shown if file else None)
    result.gold_sha256 = base.sha256
    golds = {
        facet: base
        if facet == BASE_FACET
        else api.load_gold(lang, spec.gold_version, facet, gold_dir=gold_dir, say=say)
        for facet in spec.facets
    }
    if file is None:
        return result
    real = str(file.path)
    said = _renamed(file, say, spec.languages)
    for index, facet in enumerate(spec.facets):
        carb = spec.carb and index == 0 and lang in _carb_languages()
        request = runner.Request(
            (Submission(lang, real),),
            DEFAULT_BENCHMARK,
            f"{DEFAULT_METRIC},{spec.carb_metric}" if carb else DEFAULT_METRIC,
            gold_dir=None if gold_dir is None else str(gold_dir),
            gold_version=spec.gold_version,
            lang=lang,
            facet=facet,
            expect_gold=golds[facet].sha256,
        )
        outcome = score_as_submitted(request, file, said, spec.languages)
        data = outcome.report
        system = data["systems"][0]
        system["file"] = file.shown
        p, r, f1 = system["precision"], system["recall"], system["f1"]
        result.facets[facet] = (finite(p), finite(r), finite(f1), data)
        scored = outcome.results[0]
        if isinstance(scored, SystemResult) and scored.warning_count:
            said(
                f"{file.shown}: {facet}: {scored.warning_count} warning(s); first: "
                f"{scored.warnings[0].format()}"
            )
        said(f"{file.shown}: {facet}: P {p:.4f} R {r:.4f} F1 {f1:.4f} ({data['signature']})")
        if carb:
            c = system[str(spec.carb_metric)]
            result.carb = (finite(c["precision"]), finite(c["recall"]), finite(c["f1"]))
            result.carb_signature = str(data.get("carb_signature", ""))
            said(f"{file.shown}: CaRB: P {c['precision']:.4f} R {c['recall']:.4f} F1 {c['f1']:.4f}")
    # The participant's profile for the detailed results: every facet, intervals, errors.
    analysis = api.analyze(
        base,
        real,
        names=[lang],
        resamples=ANALYSIS_RESAMPLES,
        # A private gold's triples must not reach the participant: its error examples
        # would print the closest gold form of each wrong extraction.
        examples=0 if gold_dir is not None else 3,
        input_format="auto",
        say=_quiet,
    )
    for system in analysis["systems"]:
        system["file"] = file.shown
    result.analysis = analysis
    return result


def _scores(spec: PlatformSpec, results: list[LanguageResult]) -> dict[str, float]:
    scores: dict[str, float] = {}
    for r in results:
        for facet in spec.facets:
            p, rec, f1 = r.facets[facet][:3] if facet in r.facets else (0.0, 0.0, 0.0)
            scores.update(
                {
                    f"{r.lang}_{facet}_precision": p,
                    f"{r.lang}_{facet}_recall": rec,
                    f"{r.lang}_{facet}_f1": f1,
                }
            )
        if spec.carb and r.lang in _carb_languages():
            p, rec, f1 = r.carb or (0.0, 0.0, 0.0)
            scores.update(
                {
                    f"{r.lang}_carb_precision": p,
                    f"{r.lang}_carb_recall": rec,
                    f"{r.lang}_carb_f1": f1,
                }
            )
    main = [r.facets[spec.main_facet][2] if spec.main_facet in r.facets else 0.0 for r in results]
    scores["mean_f1"] = finite(sum(main) / len(main))
    assert list(scores) == score_keys(spec)
    return scores


def prepare(input_dir: Path, output_dir: Path) -> tuple[PlatformSpec, Path | None]:
    """What every task checks before scoring: the output directory (writable, outside the
    input, never a gold store, an earlier run's files removed), the reference file, and
    the gold store it brings (``ref/gold/``, or None for the usual one)."""
    input_dir, output_dir = Path(input_dir), Path(output_dir)
    if not output_dir.is_dir():
        raise BenchieError("the output directory does not exist", path=str(output_dir))
    if output_dir.resolve().is_relative_to(input_dir.resolve()):
        raise BenchieError(
            "the output directory is inside the input directory, which is only read",
            path=str(output_dir),
        )
    check_output(str(output_dir), directory=True)  # never into a gold store
    scores_path = output_dir / SCORES_NAME
    for stale in (scores_path, output_dir / DETAILS_NAME):  # an earlier run's would pass
        try:  # for this run's (the page of a failed run would show the earlier numbers)
            stale.unlink(missing_ok=True)
        except OSError as exc:
            raise BenchieError(f"cannot remove: {exc.strerror or exc}", path=str(stale)) from None
    if not os.access(output_dir, os.W_OK | os.X_OK):
        raise BenchieError(
            "cannot write here (the program's user needs write access to the output directory)",
            path=str(output_dir),
        )
    ref_dir = input_dir / "ref"
    spec = read_spec(ref_dir)
    store = ref_dir / GOLD_STORE_NAME
    if store.is_symlink() and not store.exists():  # else it would fall back to public gold
        raise BenchieError(
            "a symbolic link to nothing: the private gold store it names is not there (the "
            "bundle's reference data is incomplete)",
            path=f"ref/{GOLD_STORE_NAME}",
        )
    gold_dir = store if store.exists() else None
    if gold_dir is not None and not gold_dir.is_dir():
        raise BenchieError(
            "not a directory: a gold store is a directory", path=f"ref/{GOLD_STORE_NAME}"
        )
    return spec, gold_dir


def score_benchie(
    spec: PlatformSpec, input_dir: Path, output_dir: Path, gold_dir: Path | None, say: Say
) -> dict[str, float]:
    """A task on BenchIE's gold (languages, facets, CaRB beside it): every pin checked,
    each language's file scored and profiled; the page, then ``scores.json``."""
    with temporary_directory("benchie-platform-") as tmp:
        # Every pin checked before any work (each gold file read and hashed once).
        bases = {lang: check_gold(spec, lang, gold_dir, say) for lang in spec.languages}
        submission = find_submission(input_dir / "res", spec, Path(tmp))
        for where in submission.ignored:
            say(f"{where}: note: not scored (this task scores {', '.join(spec.languages)})")
        results = []
        for lang in spec.languages:
            file = submission.files.get(lang)
            if file is None:
                say(f"res: note: no file for {lang!r} ({lang}.tsv): its scores are 0")
            results.append(_score_language(spec, lang, file, bases[lang], gold_dir, say))
    scores = _scores(spec, results)
    page = render_html(spec, results, submission.ignored, private=gold_dir is not None)
    atomic_write(str(output_dir / DETAILS_NAME), page.encode("utf-8"))
    data = json.dumps(scores, indent=2, allow_nan=False) + "\n"
    atomic_write(str(output_dir / SCORES_NAME), data.encode("utf-8"))  # last: success
    return scores


# --- the detailed results page -----------------------------------------------------------

STYLE = (
    "body{font-family:system-ui,sans-serif;margin:2em;max-width:70em;color:#222}"
    "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.3em .6em;"
    "text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}"
    "code{background:#f4f4f4;padding:0 .2em}.missing{color:#a00}"
)


def _row(cells: list[str], cls: list[str] | None = None) -> str:
    tds = "".join(
        f"<td class='{c}'>{x}</td>" if c else f"<td>{x}</td>"
        for x, c in zip(cells, cls or [""] * len(cells), strict=True)
    )
    return f"<tr>{tds}</tr>"


def ignored_paragraph(ignored: list[str]) -> list[str]:
    """The page's line on the submitted files of languages the task does not score."""
    if not ignored:
        return []
    files = ", ".join(f"<code>{html.escape(i)}</code>" for i in ignored)
    return [f"<p>Not scored (languages this task does not score): {files}</p>"]


def render_html(
    spec: PlatformSpec, results: list[LanguageResult], ignored: list[str], *, private: bool
) -> str:
    """One self-contained page: per language the file scored, each facet's numbers and
    report signature, the gold version and sha256; the languages not submitted; then each
    submitted language's analysis (the page ``benchie analyze`` makes)."""
    from benchie_cli.analysis.views import STYLE as ANALYSIS_STYLE
    from benchie_cli.analysis.views import analysis_body

    e = html.escape
    out = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>BenchIE results</title><style>{STYLE}{ANALYSIS_STYLE}</style></head><body>",
        "<h1>BenchIE results</h1>",
        f"<p>Gold {e(spec.gold_version)} ({'private' if private else 'public'} gold store),"
        f" scored by benchie {e(__version__)}. Facets: {e(', '.join(spec.facets))}; metrics: "
        f"{e(', '.join(spec.metrics))}.</p>",
    ]
    missing = [r.lang for r in results if r.shown is None]
    if missing:
        out.append(
            "<p class='missing'>Missing languages (scored 0): "
            + ", ".join(f"<b>{e(m)}</b> (no {e(m)}.tsv)" for m in missing)
            + "</p>"
        )
    out += ignored_paragraph(ignored)
    for r in results:
        out.append(f"<h2>{e(r.lang)}</h2>")
        out.append(f"<p>Gold sha256 <code>{e(r.gold_sha256)}</code></p>")
        if r.shown is None:
            out.append(
                f"<p class='missing'>missing: no file for {e(r.lang)} was submitted; "
                f"every score of {e(r.lang)} is 0.</p>"
            )
            continue
        out.append(f"<p>File <code>{e(r.shown)}</code></p>")
        out.append(
            "<table><tr><th>facet</th><th>precision</th><th>recall</th><th>F1</th>"
            "<th>TP</th><th>FP</th><th>FN</th><th>extractions</th><th>implicit removed</th>"
            "<th>unknown ids</th><th>signature</th></tr>"
        )
        for facet, (p, rec, f1, data) in r.facets.items():
            s = data["systems"][0]
            n = "n"
            out.append(
                _row(
                    [
                        e(facet),
                        f"{p:.4f}",
                        f"{rec:.4f}",
                        f"{f1:.4f}",
                        str(s["tp"]),
                        str(s["fp"]),
                        str(s["fn"]),
                        str(s["extractions"]),
                        str(s["implicit_removed"]),
                        str(s["unknown_sentence_ids"]),
                        f"<code>{e(data['signature'])}</code>",
                    ],
                    ["", n, n, n, n, n, n, n, n, n, ""],
                )
            )
        if r.carb is not None:
            p, rec, f1 = r.carb
            out.append(
                _row(
                    [
                        "CaRB",
                        f"{p:.4f}",
                        f"{rec:.4f}",
                        f"{f1:.4f}",
                        "",
                        "",
                        "",
                        "",
                        "",
                        "",
                        f"<code>{e(r.carb_signature or '')}</code>",
                    ]
                )
            )
        out.append("</table>")
        first = next(iter(r.facets.values()))[3]["systems"][0]
        out.append(f"<p>Submission sha256 <code>{e(first['sha256'])}</code></p>")
    for r in results:
        if r.analysis is not None:
            out.append(f"<section class='analysis'><h2>{e(r.lang)}: analysis</h2>")
            out.append(analysis_body(r.analysis))
            out.append("</section>")
    out.append("</body></html>\n")
    return "\n".join(out)


def scoring_metadata() -> str:
    """The scoring program folder's ``metadata.yaml``: without it Codabench runs nothing."""
    return f"command: {SCORING_COMMAND}\n"
