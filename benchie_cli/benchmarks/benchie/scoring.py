"""From a submission to per-sentence sufficient statistics, and from their sums to P/R/F1.

As in sacreBLEU, everything a corpus score needs is reduced to per-sentence counts first
(extractions kept, TP, FP, FN); corpus scores are computed from their sums, and the
profiling statistics (bootstrap, per-bucket scores) resample those counts without scoring
again. Scoring streams the submission, so memory does not grow with its length.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import signal
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import suppress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from benchie_cli.benchmarks.benchie.matching import CompiledGold
from benchie_cli.errors import BenchieError, Diagnostic, ExitCode
from benchie_cli.gold.parse import Gold
from benchie_cli.inputs.batch import Failure, Submission
from benchie_cli.inputs.mistakes import (
    Finding,
    MistakeCheck,
    Retokenizer,
    detect_header,
    explained,
    keep_head,
    nothing_scorable,
    nothing_scored,
    read_head,
    strict_error,
)
from benchie_cli.inputs.submission import (
    FileFacts,
    empty_file,
    is_directive,
    line_message,
    split_confidence,
    split_line,
)
from benchie_cli.inputs.subset import Subset
from benchie_cli.prf import prf
from benchie_cli.records import Record
from benchie_cli.registry import BASE_FACET, FACETS
from benchie_cli.textio import (
    BLOCK_SIZE,
    STDIN,
    display_name,
    is_regular_file,
    iter_line_blocks,
    iter_lines,
    reported_sha256,
)
from benchie_cli.tokens import ImplicitTest, language_hint, mostly_implicit
from benchie_cli.workers import become_worker, stop_signals_blocked

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

    from benchie_cli.benchmarks.benchie.confidence import ConfidenceTally, PRCurve

#: How many examples of a repeated warning (unknown ids, empty slots) a result keeps.
EXAMPLES_KEPT = 20

#: Implicit extractions a result lists (the first, in file order; all are counted): a file
#: of millions of implicit lines cost 700 bytes of memory each, and a report as large.
IMPLICIT_KEPT = 10_000

#: Distinct unknown sentence ids a result counts one by one. A file beyond it is no
#: submission for this gold (300 sentences); counting would cost memory with every new id.
UNKNOWN_IDS_TRACKED = 100_000


class ScoreOptions(Record):
    """Every setting that can change a number; the report's signature is made from these."""

    lang: str
    facet: str = BASE_FACET
    strip_implicit: bool = True
    case_sensitive: bool = False
    #: ``--retokenize``: slots re-split onto their sentence's tokens (``mistakes.Retokenizer``).
    retokenize: bool = False
    #: ``--sentences``: the gold's sentences scored alone (docs/subsets.md); the
    #: extractions of the others are counted, not scored.
    subset: Subset | None = None


@dataclass(slots=True)
class ImplicitExtraction:
    line: int
    sent_id: str
    tokens: list[str]


@dataclass(slots=True)
class SystemResult:
    """One submission scored against one gold: totals, per-sentence counts and findings."""

    name: str
    facts: FileFacts
    sentence_ids: list[str]
    kept: list[int]
    tp: list[int]
    fp: list[int]
    fn: list[int]
    #: The first ``IMPLICIT_KEPT`` implicit extractions removed; ``implicit_count`` counts all.
    implicit: list[ImplicitExtraction] = field(default_factory=list)
    unknown_ids: dict[str, int] = field(default_factory=dict)
    unknown_count: int = 0
    warnings: list[Diagnostic] = field(default_factory=list)
    warning_count: int = 0
    #: With ``Scorer(keep_incorrect=True)``: (line, sentence position, line bytes) of every
    #: incorrect extraction, for error analysis (the bytes without a confidence column).
    incorrect: list[tuple[int, int, bytes]] = field(default_factory=list)
    #: The precision-recall curve over confidences, for a file with the confidence directive.
    curve: PRCurve | None = None
    #: Likely mistakes in the file (``mistakes.MistakeCheck``), for hints on stderr.
    findings: list[Finding] = field(default_factory=list)
    #: With ``--retokenize``: (slots mapped onto the sentence's tokens, slots left as they were).
    retokenized: tuple[int, int] | None = None
    #: Implicit extractions removed (``implicit`` lists the first ``IMPLICIT_KEPT``).
    implicit_count: int = 0
    #: With ``Scorer(count_matches=True)``: extractions per (sentence position, synset).
    matches: Counter[tuple[int, int]] | None = None
    #: Extractions of gold sentences outside ``--sentences``' subset: not scored.
    outside_subset: int = 0

    @property
    def totals(self) -> tuple[int, int, int]:
        return sum(self.tp), sum(self.fp), sum(self.fn)

    @property
    def scores(self) -> tuple[float, float, float]:
        return prf(*self.totals)


@dataclass(slots=True)
class _Tally:
    """What scanning a stretch of consecutive lines found; stretches merge in file order."""

    covered: list[int]  # per sentence: bit set of the synsets covered
    kept: list[int]
    fp: list[int]
    implicit: list[ImplicitExtraction] = field(default_factory=list)
    unknown_ids: dict[str, int] = field(default_factory=dict)
    unknown_count: int = 0
    warnings: list[Diagnostic] = field(default_factory=list)
    warning_count: int = 0
    implicit_count: int = 0
    lines: int = 0
    extractions: int = 0
    incorrect: list[tuple[int, int, bytes]] = field(default_factory=list)
    confidences: ConfidenceTally | None = None  # a file with the confidence directive
    matches: Counter[tuple[int, int]] | None = None  # Scorer(count_matches=True)
    retokenized: tuple[int, int] = (0, 0)  # --retokenize: slots mapped, slots left
    outside_subset: int = 0  # extractions of gold sentences outside --sentences' subset

    def shift(self, offset: int) -> None:
        """Renumber lines counted from a stretch's start to count from the file's."""
        if offset:
            for x in self.implicit:
                x.line += offset
            self.warnings = [
                d._replace(line=None if d.line is None else d.line + offset) for d in self.warnings
            ]
            self.incorrect = [(line + offset, i, raw) for line, i, raw in self.incorrect]

    def merge(self, later: _Tally) -> _Tally:
        """This stretch followed by ``later`` (which must come right after it)."""
        self.covered = [a | b for a, b in zip(self.covered, later.covered, strict=True)]
        self.kept = [a + b for a, b in zip(self.kept, later.kept, strict=True)]
        self.fp = [a + b for a, b in zip(self.fp, later.fp, strict=True)]
        self.implicit = (self.implicit + later.implicit)[:IMPLICIT_KEPT]
        self.implicit_count += later.implicit_count
        for sent_id, count in later.unknown_ids.items():
            self.unknown_ids[sent_id] = self.unknown_ids.get(sent_id, 0) + count
        if len(self.unknown_ids) > UNKNOWN_IDS_TRACKED:
            raise _too_many_unknown(None)
        self.unknown_count += later.unknown_count
        self.outside_subset += later.outside_subset
        self.warnings = (self.warnings + later.warnings)[:EXAMPLES_KEPT]
        self.warning_count += later.warning_count
        self.lines += later.lines
        self.extractions += later.extractions
        self.incorrect.extend(later.incorrect)
        if self.matches is not None and later.matches is not None:
            self.matches.update(later.matches)
        self.retokenized = (
            self.retokenized[0] + later.retokenized[0],
            self.retokenized[1] + later.retokenized[1],
        )
        if self.confidences is not None and later.confidences is not None:
            self.confidences.merge(later.confidences)
        return self


def _split_directive(blocks: Iterator[list[bytes]]) -> tuple[bool, Iterator[list[bytes]]]:
    """Whether the first non-blank line is the confidence directive, and the blocks with
    that line made blank (it is no extraction, and its number must stay counted).

    Only the blocks up to that line are read ahead; leading blank lines are kept as counts,
    not as the lines read, so that a file of blank lines costs no more memory than before.
    """
    blank_blocks: list[int] = []
    for block in blocks:
        for k, line in enumerate(block):
            if line and not line.isspace():
                found = is_directive(line[:-1] if line.endswith(b"\r") else line)
                if found:
                    block[k] = b""
                ahead = itertools.chain(([b""] * n for n in blank_blocks), [block], blocks)
                return found, ahead
        blank_blocks.append(len(block))
    return False, ([b""] * n for n in blank_blocks)


def _directive_offset(path: str) -> int | None:
    """The byte offset of a regular file's confidence directive line, if it has one; the
    parent of the ``--jobs`` workers reads it once, as the sequential scan would."""
    offset = 0
    for _, content, raw in iter_lines(path):
        if content and not content.isspace():
            return offset if is_directive(content) else None
        offset += len(raw)
    return None


#: A regular file at least this large is scored by several processes: below it, starting
#: them costs more than they save (1,000,000 extraction lines are about 60 MB).
PARALLEL_MIN_BYTES = 16 << 20

#: The scorer a forked worker uses: set by the parent just before it forks, so the workers
#: share its compiled index copy-on-write instead of receiving it pickled.
_FORKED: Scorer | None = None

#: A worker's answer: its tally, or an error as (message, line, exit status).
_RangeResult = tuple["_Tally | None", "tuple[str, int | None, int] | None"]


def _workers(path: str, jobs: int | None) -> int:
    """How many processes should score ``path``: 1 for stdin, small files, or no fork."""
    if path == STDIN or not sys.platform.startswith("linux"):
        return 1
    try:
        size = os.stat(path).st_size
    except OSError:
        return 1  # let the sequential reader report the problem
    if size < PARALLEL_MIN_BYTES or not is_regular_file(path):  # not a spooled stand-in
        return 1
    wanted = jobs or len(os.sched_getaffinity(0))
    return max(1, min(wanted, size // (PARALLEL_MIN_BYTES // 2)))


def _identity(path: str) -> tuple[int, ...]:
    """What changes when a file is replaced or written: device, inode, size, and the change
    time, which no user can set back (unlike the modification time)."""
    info = os.stat(path)
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def _too_many_unknown(line: int | None) -> BenchieError:
    """The error for a file of more than ``UNKNOWN_IDS_TRACKED`` distinct unknown ids (the
    caller names the file)."""
    return BenchieError(
        f"more than {UNKNOWN_IDS_TRACKED:,} distinct sentence ids that the gold does not have: "
        "not a submission for this gold (another benchmark, or ids in another column?)",
        line=line,
    )


def _line_bounds(path: str, parts: int) -> list[int]:
    """Byte offsets ``[0, ..., size]`` cutting the file into ``parts`` ranges, each cut
    right after a newline."""
    size = os.path.getsize(path)
    bounds = [0]
    with open(path, "rb") as fh:
        for k in range(1, parts):
            fh.seek(max(size * k // parts - 1, bounds[-1]))
            fh.readline()
            cut = fh.tell()
            if bounds[-1] < cut < size:
                bounds.append(cut)
    bounds.append(size)
    return bounds


def _hash_and_count(path: str, cuts: list[int]) -> tuple[str, list[int]]:
    """The file's sha256 and the number of lines before each cut, in one read."""
    digest = hashlib.sha256()
    counts: list[int] = []
    offset = newlines = 0
    with open(path, "rb") as fh:
        while chunk := fh.read(BLOCK_SIZE):
            end = offset + len(chunk)
            while len(counts) < len(cuts) and cuts[len(counts)] <= end:
                counts.append(newlines + chunk.count(b"\n", 0, cuts[len(counts)] - offset))
            newlines += chunk.count(b"\n")
            digest.update(chunk)
            offset = end
    return digest.hexdigest(), counts


def _scan_range(
    send: Connection,
    path: str,
    start: int,
    end: int,
    shown: str,
    strict: bool,
    directive: int | None,
) -> None:
    """In a forked worker: tally one byte range of a submission and send it to the parent.

    ``directive`` is the byte offset of the file's confidence directive, if it has one: every
    range is then read with confidences, and the range holding the directive skips it.

    Its signal handling is a worker's (:func:`benchie_cli.workers.become_worker`).
    """
    become_worker()
    assert _FORKED is not None
    result: _RangeResult
    try:
        blocks = iter_line_blocks(path, None, start, end)
        if directive is not None and start <= directive < end:
            blocks = _split_directive(blocks)[1]
        result = _FORKED._scan_mapped(blocks, shown, strict, directive is not None), None
    except BenchieError as exc:
        result = None, (exc.message, exc.line, int(exc.exit_code))
    with suppress(BrokenPipeError):  # the parent was killed outright: nobody waits for it
        send.send(result)


def _death(exitcode: int | None) -> str:
    """How a worker ended, as the error message shows it: ``killed by SIGKILL``."""
    if exitcode is not None and exitcode < 0:
        try:
            return f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exit status {exitcode}"


#: Distinct lines whose outcome a scorer remembers. Real submissions repeat lines (and
#: systems repeat each other); the bound keeps memory flat on a file of distinct lines:
#: at most ~25 MiB.
MEMO_LIMIT = 1 << 17

# What one line amounts to, memoised by its bytes: (kind, ...).
_BLANK, _UNKNOWN, _IMPLICIT, _SCORED, _OUTSIDE = range(5)
Outcome = tuple[Any, ...]


class Scorer:
    """Scores submissions against one gold under one set of options.

    ``gold`` is a parsed gold file (indexed here) or an already compiled one (from
    ``index_cache``). The outcome of every distinct line is remembered for the run.
    """

    def __init__(
        self,
        gold: Gold | CompiledGold,
        options: ScoreOptions,
        *,
        keep_incorrect: bool = False,
        mistakes: MistakeCheck | None = None,
        count_matches: bool = False,
    ) -> None:
        self.compiled = (
            gold if isinstance(gold, CompiledGold) else CompiledGold.build(gold, options.facet)
        )
        if self.compiled.facet != options.facet:
            raise ValueError(f"gold compiled for {self.compiled.facet!r}, not {options.facet!r}")
        self.options = options
        self.position = {sid: i for i, sid in enumerate(self.compiled.sent_ids)}
        #: The positions of the sentences scored (None: every one); ``--sentences``.
        self.only: frozenset[int] | None = (
            None
            if options.subset is None
            else frozenset(self.position[sid] for sid in options.subset.ids)
        )
        self.implicit = ImplicitTest(
            self.compiled.texts, options.lang, case_sensitive=options.case_sensitive
        )
        self._memo: dict[bytes, Outcome] = {}
        # Apart: the same bytes mean another extraction in a file with confidences.
        self._confident_memo: dict[bytes, Outcome] = {}
        self.concat = FACETS[options.facet].free_boundaries
        self.keep_incorrect = keep_incorrect
        #: Count, per (sentence position, synset), the extractions that cover it (gold impact).
        self.count_matches = count_matches
        #: Detectors of likely mistakes, run on the file's first lines after each scan.
        self.mistakes = mistakes

    def _outcome(self, raw: bytes, name: str, lineno: int) -> Outcome:
        """What one distinct line amounts to; the scorer's hot path on distinct lines."""
        fields = split_line(raw)
        if fields is None:
            return (_BLANK,)
        if len(fields) == 2:
            raise BenchieError(line_message(fields, raw, lineno), path=name, line=lineno)
        sent_id, subject, relation, obj, _ = fields
        empty = not (subject and relation and obj)
        i = self.position.get(sent_id)
        if i is None:
            return (_UNKNOWN, sent_id, empty)
        if self.only is not None and i not in self.only:
            return (_OUTSIDE, empty)
        if self.options.strip_implicit:
            missing = self.implicit.missing(i, subject + relation + obj)
            if missing:
                return (_IMPLICIT, i, sent_id, missing, empty)
        if self.concat:
            synset = self.compiled.indexes[i].match_concat(subject + relation + obj)
        else:
            synset = self.compiled.indexes[i].match_slots(
                " ".join(subject), " ".join(relation), " ".join(obj)
            )
        return (_SCORED, i, synset, empty)

    def _confident_outcome(self, raw: bytes, name: str, lineno: int) -> Outcome:
        """What one distinct line of a file with confidences amounts to: the line without
        its confidence read as in any file, a scored one with its confidence added."""
        cut = split_confidence(raw)
        if cut is None:
            return (_BLANK,)
        rest, confidence = cut
        if isinstance(confidence, str):
            raise BenchieError(confidence, path=name, line=lineno)
        assert isinstance(rest, bytes)
        out = self._outcome(rest, name, lineno)
        if out[0] == _SCORED:
            return (_SCORED, out[1], out[2], confidence, out[3])
        return out

    def score(
        self, path: str, name: str, *, strict: bool = False, jobs: int | None = None
    ) -> SystemResult:
        """Score one submission file (``-`` for stdin), streaming it line by line.

        A regular file of at least ``PARALLEL_MIN_BYTES`` is split at line boundaries and
        scored by ``jobs`` processes (default: one per available core); the counts add up
        and the coverage bit sets combine, so the result is the same to the byte.
        An unusable line raises :class:`BenchieError` (exit 2); under ``strict`` a warning
        (unknown sentence id, empty slot) raises one with exit status 1. A file whose first
        non-blank line is the confidence directive also gets its precision-recall curve.
        """
        try:
            return self._score(path, name, strict=strict, jobs=jobs)
        except BenchieError as exc:
            if exc.path is None:  # raised where the file's name is not known
                exc.path = display_name(path)
            raise

    def _score(self, path: str, name: str, *, strict: bool, jobs: int | None) -> SystemResult:
        """:meth:`score`'s work."""
        shown = display_name(path)
        workers = _workers(path, jobs)
        head: list[bytes] = []  # the file's first lines, for ``mistakes`` (sequential scan)
        if workers > 1:
            # The workers read ranges while this process hashes the file: only a file that
            # did not change meanwhile has a sha256 that names what was scored.
            before = _identity(path)
            tally, sha256 = self._scan_parallel(path, shown, strict, workers)
            if _identity(path) != before:
                raise BenchieError("changed while it was being scored; score it again", path=shown)
        else:
            digest = hashlib.sha256()
            blocks = keep_head(iter_line_blocks(path, digest), head)  # (the header row too)
            try:
                confident, blocks = _split_directive(blocks)
                tally = self._scan_mapped(blocks, shown, strict, confident)
            except BenchieError as exc:
                raise self._explained(exc, head) from None
            sha256 = reported_sha256(path, digest)
        if workers > 1:
            head = read_head(path)
        self._skip_header(tally, head)
        facts = FileFacts(shown, sha256, tally.lines, tally.extractions)
        if tally.extractions == 0:
            raise BenchieError(empty_file(shown, facts).message, path=shown)
        findings: list[Finding] = []
        if self.mistakes is not None:
            suspicious = (
                mostly_implicit(tally.implicit_count, tally.extractions)
                or 2 * tally.unknown_count > tally.extractions
                or not any(tally.covered)
            )
            findings = self.mistakes.check(head, suspicious=suspicious)
        if strict and findings:
            raise strict_error(findings[0], shown)
        if nothing_scorable(tally.extractions, tally.unknown_count, tally.implicit_count, findings):
            raise nothing_scored(
                shown, tally.extractions, findings, list(tally.unknown_ids), self.options.lang
            )
        subset = self.options.subset
        if subset is not None and tally.outside_subset + tally.unknown_count >= tally.extractions:
            raise BenchieError(
                f"none of its {tally.extractions:,} extractions is of the {subset.size:,} "
                f"sentences of {subset.file.shown} (--sentences): nothing to score",
                path=shown,
            )
        if strict and subset is not None and tally.outside_subset:
            raise BenchieError(
                f"{tally.outside_subset:,} of its extractions are of gold sentences "
                "--sentences leaves out: not scored (an error under --strict)",
                path=shown,
                exit_code=ExitCode.FAILED,
            )
        if strict and mostly_implicit(tally.implicit_count, tally.extractions):
            hint = language_hint(tally.implicit_count, tally.extractions, self.options.lang)
            raise BenchieError(
                f"{hint} (an error under --strict)", path=shown, exit_code=ExitCode.FAILED
            )
        # (the subset's sentences alone, in gold order: the others' counts are all 0)
        scored = range(len(self.position)) if self.only is None else sorted(self.only)
        tp = [tally.covered[i].bit_count() for i in scored]
        synsets = [self.compiled.synsets[i] for i in scored]
        curve = None
        if tally.confidences is not None:
            from benchie_cli.benchmarks.benchie.confidence import pr_curve

            curve = pr_curve(tally.confidences, sum(synsets))
        return SystemResult(
            name,
            facts,
            [self.compiled.sent_ids[i] for i in scored],
            [tally.kept[i] for i in scored],
            tp,
            [tally.fp[i] for i in scored],
            [total - t for total, t in zip(synsets, tp, strict=True)],
            tally.implicit,
            tally.unknown_ids,
            tally.unknown_count,
            tally.warnings,
            tally.warning_count,
            tally.incorrect,
            curve,
            findings,
            tally.retokenized if self.options.retokenize else None,
            tally.implicit_count,
            tally.matches,
            tally.outside_subset,
        )

    def _skip_header(self, tally: _Tally, head: list[bytes]) -> None:
        """Take a header row (``sent_id<TAB>subject<TAB>...`` first: the ``header-row``
        mistake) out of ``tally``: the scan counted it as an extraction of an unknown
        sentence id, which the scores leave out but the ``extractions`` column and the
        unknown-id warning showed, as if the system had made one more extraction. The
        mistake check's hint says it is skipped; every scorer skips it, with or without
        that check, so that ``verify`` re-derives the same counts."""
        found = detect_header(head, self.position)
        if found is None or found.line is None:
            return
        raw = head[found.line - 1]
        fields = split_line(raw[:-1] if raw.endswith(b"\r") else raw)
        if fields is None or len(fields) == 2:
            return
        sent_id = fields[0]
        count = tally.unknown_ids.get(sent_id, 0)
        if not count:  # (not tallied as an unknown id: no header row to take out)
            return
        tally.extractions -= 1
        tally.unknown_count -= 1
        if count == 1:
            del tally.unknown_ids[sent_id]
        else:
            tally.unknown_ids[sent_id] = count - 1
        said = {"unknown-sentence-id"} | (set() if all(fields[1:4]) else {"empty-slot"})
        tally.warning_count -= len(said)
        tally.warnings = [
            w for w in tally.warnings if not (w.line == found.line and w.code in said)
        ]

    def _scan_mapped(
        self, blocks: Iterable[list[bytes]], shown: str, strict: bool, confident: bool
    ) -> _Tally:
        """``_scan``, with every line mapped first under ``--retokenize`` (only then: the
        plain scan reads the blocks as they come)."""
        if not self.options.retokenize:
            return self._scan(blocks, shown, strict, confident)
        retokenizer = Retokenizer(
            dict(zip(self.compiled.sent_ids, self.compiled.texts, strict=True))
        )
        tally = self._scan(retokenizer.blocks(blocks), shown, strict, confident)
        tally.retokenized = (retokenizer.mapped, retokenizer.left)
        return tally

    def _explained(self, exc: BenchieError, head: list[bytes]) -> BenchieError:
        """``exc`` with the likely mistake behind it (a CSV file, a header row, a native
        format, shifted ids), when the sample shows one: "3 columns, need 4" alone does
        not say that the file is a CSV."""
        if self.mistakes is None or not head:
            return exc
        return explained(exc, self.mistakes.check(head, reading_error=True))

    @staticmethod
    def _warner(tally: _Tally, shown: str, strict: bool) -> Callable[[int, str, str, str], None]:
        """The scan's ``warn(lineno, code, problem, consequence)``: an example kept in
        ``tally``, or under ``strict`` an error."""

        def warn(lineno: int, code: str, problem: str, consequence: str) -> None:
            if strict:
                raise BenchieError(
                    f"{problem} (an error under --strict)",
                    path=shown,
                    line=lineno,
                    exit_code=ExitCode.FAILED,
                )
            tally.warning_count += 1
            if len(tally.warnings) < EXAMPLES_KEPT:
                tally.warnings.append(
                    Diagnostic(shown, lineno, "warning", code, f"{problem}; {consequence}")
                )

        return warn

    @staticmethod
    def _unscored(
        tally: _Tally, out: Outcome, lineno: int, warn: Callable[[int, str, str, str], None]
    ) -> None:
        """Tally an extraction that is not scored: an unknown sentence id or an implicit one
        (rare lines, so a call costs nothing that shows)."""
        if out[0] == _OUTSIDE:
            tally.outside_subset += 1
        elif out[0] == _UNKNOWN:
            tally.unknown_count += 1
            ids = tally.unknown_ids
            if out[1] not in ids and len(ids) >= UNKNOWN_IDS_TRACKED:
                raise _too_many_unknown(lineno)
            ids[out[1]] = ids.get(out[1], 0) + 1
            warn(
                lineno,
                "unknown-sentence-id",
                f"sentence id {out[1]!r} is not in the gold",
                "left out of the scores",
            )
        else:
            tally.implicit_count += 1
            if len(tally.implicit) < IMPLICIT_KEPT:
                tally.implicit.append(ImplicitExtraction(lineno, out[2], out[3]))

    def _scan(
        self, blocks: Iterable[list[bytes]], shown: str, strict: bool, confident: bool = False
    ) -> _Tally:
        """Tally consecutive lines, numbered from 1 (a worker's caller renumbers them);
        ``confident``: the lines end with a confidence (the directive is already made blank).
        """
        if confident:
            return self._scan_confident(blocks, shown, strict)
        n = len(self.position)
        tally = _Tally([0] * n, [0] * n, [0] * n)
        covered, kept, fp = tally.covered, tally.kept, tally.fp
        memo = self._memo
        incorrect = tally.incorrect if self.keep_incorrect else None
        matches = tally.matches = Counter() if self.count_matches else None
        warn = self._warner(tally, shown, strict)
        lineno = extractions = 0
        for block in blocks:
            for raw in block:
                lineno += 1
                out = memo.get(raw)
                if out is None:
                    out = self._outcome(raw[:-1] if raw.endswith(b"\r") else raw, shown, lineno)
                    if len(memo) < MEMO_LIMIT:
                        memo[raw] = out
                kind = out[0]
                if kind == _SCORED:
                    i, synset = out[1], out[2]
                    kept[i] += 1
                    if synset >= 0:
                        covered[i] |= 1 << synset
                        if matches is not None:
                            matches[i, synset] += 1
                    else:
                        fp[i] += 1
                        if incorrect is not None:
                            incorrect.append((lineno, i, raw))
                elif kind == _BLANK:
                    continue
                else:
                    self._unscored(tally, out, lineno, warn)
                extractions += 1
                if out[-1]:
                    warn(lineno, "empty-slot", "an empty slot", "scored as it is")
        tally.lines, tally.extractions = lineno, extractions
        return tally

    def _scan_confident(self, blocks: Iterable[list[bytes]], shown: str, strict: bool) -> _Tally:
        """``_scan`` for a file with confidences: the same counts, and per scored extraction
        its confidence into the tally's
        :class:`~benchie_cli.benchmarks.benchie.confidence.ConfidenceTally`.

        A loop of its own, so that files without confidences pay nothing for them.
        """
        from benchie_cli.benchmarks.benchie.confidence import ConfidenceTally

        n = len(self.position)
        tally = _Tally([0] * n, [0] * n, [0] * n, confidences=ConfidenceTally())
        covered, kept, fp = tally.covered, tally.kept, tally.fp
        assert tally.confidences is not None
        at_kept, at_fp, best = (
            tally.confidences.kept,
            tally.confidences.incorrect,
            tally.confidences.best,
        )
        memo = self._confident_memo
        incorrect = tally.incorrect if self.keep_incorrect else None
        matches = tally.matches = Counter() if self.count_matches else None
        warn = self._warner(tally, shown, strict)
        lineno = extractions = 0
        for block in blocks:
            for raw in block:
                lineno += 1
                out = memo.get(raw)
                if out is None:
                    out = self._confident_outcome(
                        raw[:-1] if raw.endswith(b"\r") else raw, shown, lineno
                    )
                    if len(memo) < MEMO_LIMIT:
                        memo[raw] = out
                kind = out[0]
                if kind == _SCORED:
                    i, synset, confidence = out[1], out[2], out[3]
                    kept[i] += 1
                    at_kept[confidence] = at_kept.get(confidence, 0) + 1
                    if synset >= 0:
                        covered[i] |= 1 << synset
                        if matches is not None:
                            matches[i, synset] += 1
                        earlier = best.get((i, synset))
                        if earlier is None or confidence > earlier:
                            best[i, synset] = confidence
                    else:
                        fp[i] += 1
                        at_fp[confidence] = at_fp.get(confidence, 0) + 1
                        if incorrect is not None:  # read again as a line without confidence
                            incorrect.append((lineno, i, raw.rpartition(b"\t")[0]))
                elif kind == _BLANK:
                    continue
                else:
                    self._unscored(tally, out, lineno, warn)
                extractions += 1
                if out[-1]:
                    warn(lineno, "empty-slot", "an empty slot", "scored as it is")
        tally.lines, tally.extractions = lineno, extractions
        return tally

    def _scan_parallel(
        self, path: str, shown: str, strict: bool, workers: int
    ) -> tuple[_Tally, str]:
        """Scan ``workers`` line-aligned byte ranges in forked processes.

        Meanwhile this process hashes the file and counts the lines before each range, to
        renumber what the workers report. The first error in file order is raised.

        A worker that dies (the OOM killer, a signal, a crash) leaves its pipe at end of file,
        so waiting for the answers notices it at once, and the submission fails with exit
        status 2 (``ExitCode.USAGE``): not 1, which asserts a verdict on the submission
        where a crash gives none; like an unreadable file, it could not be scored. However
        this method ends (an answer, an error, a signal's ``SystemExit``), every worker has
        been killed and reaped: none outlives the run.
        """
        import multiprocessing
        import multiprocessing.connection

        context = multiprocessing.get_context("fork")
        bounds = _line_bounds(path, workers)
        directive = _directive_offset(path)
        global _FORKED
        _FORKED = self
        started: dict[Connection, BaseProcess] = {}  # in file order
        try:
            with stop_signals_blocked():
                for start, end in itertools.pairwise(bounds):
                    receive, send = context.Pipe(duplex=False)
                    worker = context.Process(
                        target=_scan_range,
                        args=(send, path, start, end, shown, strict, directive),
                        daemon=True,
                    )
                    try:
                        worker.start()
                    except OSError as exc:  # no memory or process slot left for a fork
                        receive.close()
                        raise BenchieError(
                            f"cannot start a scoring worker: {exc.strerror or exc} "
                            "(--jobs 1 scores without them)",
                            path=shown,
                        ) from None
                    finally:
                        send.close()  # the worker holds the only copy: its exit means EOF
                    started[receive] = worker
            sha256, lines_before = _hash_and_count(path, bounds[1:-1])
            answers: dict[Connection, _RangeResult] = {}
            while len(answers) < len(started):
                waiting = [r for r in started if r not in answers]
                ready = multiprocessing.connection.wait(waiting)
                for receive in [r for r in waiting if r in ready]:
                    try:
                        answers[receive] = receive.recv()
                    except EOFError:
                        dead = started[receive]
                        dead.join()
                        raise BenchieError(
                            f"a scoring worker died ({_death(dead.exitcode)})", path=shown
                        ) from None
        finally:
            _FORKED = None
            with stop_signals_blocked():
                for receive, process in started.items():
                    process.kill()  # harmless for one that has answered; stops the others
                    process.join()
                    receive.close()
        total: _Tally | None = None
        for (tally, error), offset in zip(
            [answers[r] for r in started], [0, *lines_before], strict=True
        ):
            if error is not None:
                message, line, code = error
                raise BenchieError(
                    message,
                    path=shown,
                    line=None if line is None else line + offset,
                    exit_code=ExitCode(code),
                )
            assert tally is not None
            tally.shift(offset)
            total = tally if total is None else total.merge(tally)
        assert total is not None
        return total, sha256


def score_each(
    scorer: Scorer,
    submissions: Iterable[Submission],
    *,
    strict: bool = False,
    jobs: int | None = None,
) -> Iterator[SystemResult | Failure]:
    """Score each submission in turn; an unusable one yields a :class:`Failure`."""
    for submission in submissions:
        try:
            yield scorer.score(submission.path, submission.name, strict=strict, jobs=jobs)
        except BenchieError as exc:
            yield Failure(submission, str(exc), exc.exit_code)
