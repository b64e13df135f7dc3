"""Re-derive a published ``score`` JSON report and say where it differs (``benchie verify``).

A report pins its gold (version and sha256) and every option that can change a number, and
names each submission's sha256: that is enough to score the same files again and rebuild the
report. The verdict is byte for byte: the rebuilt JSON must equal the given file. Every
difference is named by the JSON path of its field (``systems[0].f1``), so an edited number, a
gold that is not the one named, or a submission that is not the one scored are told apart.

What the rebuilt report takes from the given one rather than re-deriving: each system's
``name`` and ``file`` (a submission is identified by its bytes, whose sha256 is checked, not
by where it lies on this machine) and the ``failures`` list (submissions that could not be
scored have no numbers to re-derive). A name is not in a submission's bytes: a name given
as ``NAME=PATH`` is checked against the report's (names swapped between systems are found
so), and a report naming two systems alike is one ``score`` never writes.

Reports of ``score --metric carb`` and ``--metric benchie,carb`` are re-derived too: CaRB's
gold is the store's reference file of the report's gold version (``--gold-file`` does not
apply), and the sentence texts come from that version's BenchIE gold. So are reports of
``score --benchmark carb``: against the split of the CaRB version the report names
(``gold/carb/<version>/``, no ``--gold-file`` either), each submission read with the input
format the report recorded.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchie_cli import REPORT_SCHEMA, __version__
from benchie_cli.benchmarks.runner import brief, runner, show
from benchie_cli.disk_cache import bypassed
from benchie_cli.errors import BenchieError, printable_path
from benchie_cli.gold.dirs import GoldDirs, resolve
from benchie_cli.registry import BENCHMARKS, DEFAULT_BENCHMARK, metric_choice
from benchie_cli.textio import STDIN, display_name, read_whole

#: Differences listed in full; the rest are counted.
MISMATCHES_SHOWN = 50


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One field whose value in the report is not the re-derived one."""

    path: str
    expected: str  # as the report has it
    found: str  # as re-derived

    def __str__(self) -> str:
        return f"{self.path}: report {self.expected} != re-derived {self.found}"


@dataclass(slots=True)
class Verdict:
    """The outcome of a verification: equal bytes, or the fields that differ."""

    report: str
    systems: int
    identical: bool
    mismatches: list[Mismatch] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: What ``systems`` counts (a suite report's rows).
    unit: str = "system(s)"


def read_report(path: str) -> tuple[dict[str, Any], bytes]:
    """The report at ``path`` and its bytes (read once, bounded, no device), refused
    (exit 2) unless it is JSON of this schema and version."""

    from benchie_cli.report import load_json

    shown = display_name(path)
    report, data = load_json(path)
    if isinstance(report, dict) and report.get("suite") is True and "systems" not in report:
        _check_suite_shape(report, shown)
    elif isinstance(report, dict) and report.get("suite") is True:
        systems = report["systems"]
        if not isinstance(systems, list) or len(systems) < 2:
            raise BenchieError(
                "not a complete `benchie score --suite` JSON report ('systems': a list of two "
                "systems or more)",
                path=shown,
            )
        for system in systems:
            if not isinstance(system, dict) or not isinstance(system.get("name"), str):
                raise BenchieError(
                    "not a complete `benchie score --suite` JSON report (a system without "
                    "its name)",
                    path=shown,
                )
            _check_suite_shape(system, shown)
    elif not isinstance(report, dict) or "schema" not in report or "systems" not in report:
        raise BenchieError("not a `benchie score` JSON report", path=shown)
    if report.get("schema") != REPORT_SCHEMA:
        raise BenchieError(
            f"report schema {brief(report.get('schema'))}, this benchie reads schema "
            f"{REPORT_SCHEMA}",
            path=shown,
        )
    if report.get("benchie_version") != __version__:
        raise BenchieError(
            f"report written by benchie {brief(report.get('benchie_version'))}; this is "
            f"{__version__}: verify it with that version",
            path=shown,
        )
    if report.get("suite") is not True:
        _check_shape(report, shown)
    if "failures" in report and not _failures(report["failures"]):
        raise BenchieError(
            "'failures': a list of the submissions that could not be scored (name, file, "
            "error, exit_code), not what `benchie score` writes",
            path=shown,
        )
    return report, data


def _failures(value: Any) -> bool:
    """Whether a report's ``failures`` has the shape ``score`` writes (copied, not
    re-derived: it must be what a report can hold)."""
    return isinstance(value, list) and all(
        isinstance(f, dict)
        and set(f) == {"name", "file", "error", "exit_code"}
        and all(isinstance(f[k], str) for k in ("name", "file", "error"))
        and isinstance(f["exit_code"], int)
        for f in value
    )


def _check_suite_shape(report: dict[str, Any], shown: str) -> None:
    """The fields a ``score --suite`` report (or one system's part of it) must have to be
    re-derived (exit 2 when not)."""
    try:
        ok = (
            isinstance(report.get("name", ""), str)
            and isinstance(report["file"]["path"], str)
            and isinstance(report["file"]["sha256"], str)
            and isinstance(report["input_format"], str)
            and isinstance(report["rows"], list)
            and all(_suite_row(row) for row in report["rows"])
        )
    except (KeyError, TypeError):
        ok = False
    if not ok:
        raise BenchieError("not a complete `benchie score --suite` JSON report", path=shown)


def _suite_row(row: Any) -> bool:
    """Whether a suite report's row has the fields verification reads, of their types."""
    if not isinstance(row, dict):
        return False
    if not all(isinstance(row.get(k), str) for k in ("benchmark", "metric", "split")):
        return False
    if "skipped" in row:
        return isinstance(row["skipped"], str)
    gold = row.get("gold")
    return isinstance(gold, dict) and isinstance(gold.get("version"), str)


def _check_shape(report: dict[str, Any], shown: str) -> None:
    """The fields verification reads, with their types (exit 2 when one is missing): the
    benchmark the report names checks its own. The default benchmark's reports have no
    ``benchmark`` key, so a report naming BenchIE's, or none of the registry's, was not
    written by ``score``."""
    if "benchmark" not in report:
        runner(DEFAULT_BENCHMARK).check_shape(report, shown)
        return
    benchmark = report["benchmark"]
    if (
        not isinstance(benchmark, str)
        or benchmark not in BENCHMARKS
        or BENCHMARKS[benchmark].by_language
    ):
        raise BenchieError(
            f"the report names the benchmark {brief(benchmark)}, which no `benchie score` report "
            f"names (its benchmark key is one of "
            f"{', '.join(b for b, e in BENCHMARKS.items() if not e.by_language)}, or absent)",
            path=shown,
        )
    try:
        metric_choice(str(report.get("metric")), benchmark)
    except ValueError:
        raise BenchieError(
            f"the report names the metric {brief(report.get('metric'))}, which no `benchie score "
            f"--benchmark {benchmark}` report names",
            path=shown,
        ) from None
    runner(benchmark).check_shape(report, shown)


def rederive(
    report: dict[str, Any],
    submissions: list[str],
    *,
    gold_dir: str | None = None,
    gold_file: str | None = None,
    jobs: int | None = None,
    sentences: str | None = None,
) -> dict[str, Any]:
    """The report rebuilt from the gold and ``submissions`` (one per system, in order), by
    the runner of the benchmark it names; ``sentences``: the file of its subset (default:
    the one it names)."""
    systems = report["systems"]
    if len(submissions) != len(systems):
        raise BenchieError(
            f"the report has {len(systems)} system(s); give as many submissions "
            f"({len(submissions)} given), in its order, or none to read each system's file"
        )
    return runner(report.get("benchmark", DEFAULT_BENCHMARK)).rederive(
        report, submissions, gold_dir=gold_dir, gold_file=gold_file, jobs=jobs, sentences=sentences
    )


def diff(expected: Any, found: Any, path: str = "") -> list[Mismatch]:
    """Every field where ``expected`` (the report) and ``found`` (re-derived) differ, by
    JSON path; keys in another order count as a difference (the bytes would differ)."""
    if isinstance(expected, dict) and isinstance(found, dict):
        out: list[Mismatch] = []
        for key in expected:
            sub = f"{path}.{printable_path(key)}" if path else printable_path(key)
            if key not in found:
                out.append(Mismatch(sub, show(expected[key]), "(absent)"))
            else:
                out.extend(diff(expected[key], found[key], sub))
        for key in found:
            if key not in expected:
                sub = f"{path}.{printable_path(key)}" if path else printable_path(key)
                out.append(Mismatch(sub, "(absent)", show(found[key])))
        if not out and list(expected) != list(found):
            out.append(Mismatch(path or "(top)", "keys " + ",".join(expected), ",".join(found)))
        return out
    if isinstance(expected, list) and isinstance(found, list):
        out = [
            m
            for i, (a, b) in enumerate(zip(expected, found, strict=False))
            for m in diff(a, b, f"{path}[{i}]")
        ]
        if len(expected) != len(found):
            out.append(
                Mismatch(path + ".length", str(len(expected)), str(len(found)))
            )  # the extra items themselves are summarised by the count
        return out
    if type(expected) is not type(found) or expected != found:
        return [Mismatch(path or "(top)", show(expected), show(found))]
    return []


def _not_a_file(path: str, give: str) -> str:
    """Why a file a report names cannot be re-read: absent (a report names a file as
    ``score`` was given it, relative to the directory it ran in), or not a regular file."""
    if path != "-" and not os.path.lexists(path):
        where = "" if os.path.isabs(path) else ", relative to the directory `score` ran in"
        return f"no such file (named by the report{where}): run verify there, or give {give}"
    return f"is not a regular file (named by the report); give {give}"


def verify(
    report_path: str,
    submissions: list[str],
    *,
    gold_dir: str | None = None,
    gold_file: str | None = None,
    jobs: int | None = None,
    sentences: str | None = None,
) -> Verdict:
    """Re-derive the report at ``report_path`` from ``submissions`` (or, when empty, each
    system's ``file``) and compare it byte for byte; a name given as ``NAME=PATH`` must be
    the report's name of that system."""
    names, submissions = _named(submissions)
    readers = [
        what
        for what, reads in (
            ("the report", report_path == STDIN),
            ("a submission", STDIN in submissions),
            ("the --sentences file", sentences == STDIN),
        )
        if reads
    ]
    if len(readers) > 1:
        raise BenchieError(
            "standard input ('-') can be read only once per run: not both " + " and ".join(readers)
        )
    report, given = read_report(report_path)
    with bypassed():  # re-derived from the inputs alone: no memo file is read
        if report.get("suite") is True:
            return _verify_suite(report_path, report, given, submissions, gold_dir, names)
        verdict = _verify_one(
            report_path, report, given, submissions, gold_dir, gold_file, jobs, sentences
        )
    renamed = _name_mismatches(
        names,
        [s["name"] for s in report["systems"]],
        [f"systems[{n}].name" for n in range(len(report["systems"]))],
    )
    if renamed:
        verdict.identical = False
        verdict.mismatches = renamed + verdict.mismatches
    return verdict


def _verify_one(
    report_path: str,
    report: dict[str, Any],
    given: bytes,
    submissions: list[str],
    gold_dir: str | None,
    gold_file: str | None,
    jobs: int | None,
    sentences: str | None = None,
) -> Verdict:
    """A report of one benchmark re-derived (:func:`verify`); ``sentences``: its subset's
    file, if it has one."""
    from benchie_cli.report import to_json

    paths = submissions or [s["file"] for s in report["systems"]]
    for path in [] if submissions else paths:  # names a report gives: files, nothing else
        if not os.path.isfile(path):
            raise BenchieError(
                _not_a_file(path, "the submissions as arguments"), path=display_name(path)
            )
    changed: list[Mismatch] = []
    if len(paths) == len(report["systems"]):  # (else rederive says how many to give)
        changed = _changed_submissions(report["systems"], paths)
    try:
        rebuilt = rederive(
            report, paths, gold_dir=gold_dir, gold_file=gold_file, jobs=jobs, sentences=sentences
        )
    except BenchieError as exc:
        if not changed:
            raise
        # Another file, which does not even read as the report's did: its bytes are the
        # difference (exit 1), and why it cannot be re-derived is a note.
        verdict = Verdict(display_name(report_path), len(report["systems"]), False, changed)
        verdict.notes.append(f"not re-derived from the given file(s): {exc}")
        return verdict
    data = to_json(rebuilt)
    verdict = Verdict(display_name(report_path), len(report["systems"]), data == given)
    if not verdict.identical:
        verdict.mismatches = diff(report, rebuilt) or [_formatting(given, data)]
    if "failures" in report:
        verdict.notes.append(
            f"{len(report['failures'])} failure entr(ies) copied from the report, not re-derived"
        )
    return verdict


def _formatting(given: bytes, data: bytes) -> Mismatch:
    """The one difference of a report whose content is the re-derived one but not its
    bytes (reformatted, keys reordered by hand...): named by both files' sha256, which
    reads as one sentence (``(bytes): report sha256 ... != re-derived sha256 ... (same
    content, other formatting)``) whatever the kind of report."""
    return Mismatch(
        "(bytes)",
        f"sha256 {hashlib.sha256(given).hexdigest()[:12]}",
        f"sha256 {hashlib.sha256(data).hexdigest()[:12]} (same content, other formatting)",
    )


def _named(submissions: list[str]) -> tuple[list[str | None], list[str]]:
    """The names given as ``NAME=PATH`` (None for a bare path) and the paths, as ``score``
    reads its arguments (:func:`~benchie_cli.inputs.batch.split_name`)."""
    from benchie_cli.inputs.batch import split_name

    pairs = [split_name(arg) for arg in submissions]
    return [name for name, _ in pairs], [path for _, path in pairs]


def _name_mismatches(
    names: list[str | None], reported: list[Any], where: list[str]
) -> list[Mismatch]:
    """Each system whose name in the report is not the one given with ``NAME=PATH`` (a
    name is not in a submission's bytes, so only a name given can be checked: the names of
    a report whose names were swapped between its systems), and each name the report gives
    two systems (``score`` refuses that: it is no report ``score`` wrote). ``where``: the
    JSON path of each system's name."""
    out = [
        Mismatch(path, show(name_in_report), show(name))
        for path, name_in_report, name in zip(where, reported, names, strict=False)
        if name is not None and name != name_in_report
    ]
    first: dict[str, str] = {}
    for path, name in zip(where, map(show, reported), strict=True):  # (show: hashable)
        if name in first:
            out.append(
                Mismatch(
                    path,
                    name,
                    f"a name of its own (`benchie score` names each system once; {first[name]} "
                    "has that name)",
                )
            )
        first.setdefault(name, path)
    return out


def _check_suite_store(report: dict[str, Any], root: GoldDirs) -> None:
    """Refuse (exit 2) a store that has not the benchmarks the suite report was scored
    with: one it scored is absent, or one it found absent is there. Re-deriving against it
    would name every row of that benchmark as different, though none is."""
    from benchie_cli import suite

    for row in report["rows"]:
        name = row.get("benchmark")
        if name not in BENCHMARKS:
            continue  # the comparison names it
        absent = suite.absent(root, name)
        label = BENCHMARKS[name].label
        if "skipped" not in row and absent is not None:
            raise BenchieError(
                f"the report scored {label} (gold {row.get('gold', {}).get('version')}), "
                f"which none of the gold stores has ({root.where()}): {absent}"
            )
        skipped_absent = "skipped" in row and row["skipped"] != suite.none_of_its(name)
        if skipped_absent and absent is None:
            raise BenchieError(
                f"the report was scored without {label}, which the gold stores have "
                f"({root.where()}): verify against the store it was scored with (--gold-dir)"
            )


def _file_sha256(path: str) -> str:
    """The sha256 of a submission's bytes, streamed (a submission may be large)."""
    from benchie_cli.textio import sha256_file

    if path == "-" or not os.path.isfile(path):
        return hashlib.sha256(read_whole(path, what="submission")).hexdigest()
    try:
        return sha256_file(Path(path))
    except OSError as exc:
        raise BenchieError(f"cannot read: {exc.strerror or exc}", path=display_name(path)) from None


def _changed_submissions(systems: list[dict[str, Any]], paths: list[str]) -> list[Mismatch]:
    """Each system whose submission is not the file the report scored (by sha256): checked
    before anything is re-derived, since another file may not even read as the first did."""
    seen: dict[str, str] = {}
    out = []
    for n, (system, path) in enumerate(zip(systems, paths, strict=True)):
        if path == "-":
            continue  # read once, by the re-derivation itself
        sha = seen.get(path) or seen.setdefault(path, _file_sha256(path))
        if sha != system["sha256"]:
            out.append(Mismatch(f"systems[{n}].sha256", show(system["sha256"]), show(sha)))
    return out


def _verify_suite(
    report_path: str,
    report: dict[str, Any],
    given: bytes,
    submissions: list[str],
    gold_dir: str | None,
    names: list[str | None],
) -> Verdict:
    """A ``score --suite`` report re-derived: each file it names (or the ones given, in its
    order) checked by sha256 first, then the suite run again with the format each was read
    with, against the store; the paths are the report's, and so are the names but those
    given (``NAME=PATH``), which must be the report's."""
    from benchie_cli import suite
    from benchie_cli.benchmarks import corpus as bm
    from benchie_cli.report import to_json
    from benchie_cli.suite_views import systems_of

    systems = systems_of(report)
    if submissions and len(submissions) != len(systems):
        raise BenchieError(
            f"the suite report scores {len(systems)} file(s); {len(submissions)} given (give "
            "them in its order, or none to read the files it names)"
        )
    paths = submissions or [part["file"]["path"] for _, part in systems]
    if not submissions:
        for path in paths:
            if not os.path.isfile(path):
                raise BenchieError(
                    _not_a_file(path, "the system outputs as arguments"), path=display_name(path)
                )
    rows = sum(len(part["rows"]) for _, part in systems)
    verdict = Verdict(display_name(report_path), rows, False, unit="row(s)")
    several = "systems" in report
    renamed = _name_mismatches(
        names,
        [name for name, _ in systems],
        [f"systems[{n}].name" for n in range(len(systems))] if several else ["name"],
    )
    for n, ((_, part), path) in enumerate(zip(systems, paths, strict=True)):
        facts, _ = bm.read_submission(path)
        if facts.sha256 != part["file"]["sha256"]:
            where = f"systems[{n}].file.sha256" if several else "file.sha256"
            verdict.mismatches.append(
                Mismatch(where, show(part["file"]["sha256"]), show(facts.sha256))
            )
    if verdict.mismatches:
        verdict.mismatches = renamed + verdict.mismatches
        return verdict
    root = resolve(gold_dir)
    for _, part in systems:
        _check_suite_store(part, root)
    parts = []
    for (name, part), path in zip(systems, paths, strict=True):
        one = suite.run(path, part["input_format"], root, cached=False)
        one["file"]["path"] = part["file"]["path"]
        parts.append((name, one))
    if several:
        rebuilt: dict[str, Any] = {
            **{k: parts[0][1][k] for k in ("schema", "benchie_version", "suite")},
            "systems": [{"name": name, **suite.part(one)} for name, one in parts],
        }
    elif "name" in report:
        rebuilt = suite.named(parts[0][1], parts[0][0])
    else:
        rebuilt = parts[0][1]
    data = to_json(rebuilt)
    verdict.identical = data == given and not renamed
    if data != given:
        verdict.mismatches = diff(report, rebuilt) or [_formatting(given, data)]
    verdict.mismatches = renamed + verdict.mismatches
    return verdict
