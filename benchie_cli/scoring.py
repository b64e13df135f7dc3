"""From a submission to per-sentence sufficient statistics, and from their sums to P/R/F1.

As in sacreBLEU, everything a corpus score needs is reduced to per-sentence counts first
(extractions kept, TP, FP, FN); corpus scores are computed from their sums, and the
profiling statistics (bootstrap, per-bucket scores) resample those counts without scoring
again. Scoring streams the submission, so memory does not grow with its length.
"""

from __future__ import annotations

import gc
import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from benchie_cli.errors import BenchieError, Diagnostic, ExitCode
from benchie_cli.gold import Gold
from benchie_cli.matching import CompiledGold
from benchie_cli.submission import FileFacts, empty_file, split_line
from benchie_cli.textio import display_name, iter_line_blocks
from benchie_cli.tokens import ImplicitTest

#: How many examples of a repeated warning (unknown ids, empty slots) a result keeps.
EXAMPLES_KEPT = 20


@contextmanager
def no_cyclic_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while building large acyclic structures.

    Loading the English gold allocates ~10^5 small tuples; the collector's repeated passes
    over them cost a third of the load time and collect nothing.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    """Precision, recall and F1 as SPEC §3 defines them (0 where a denominator is 0)."""
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


@dataclass(frozen=True, slots=True)
class ScoreOptions:
    """Every setting that can change a number; the report's signature is made from these."""

    lang: str
    facet: str = "default"
    strip_implicit: bool = True
    case_sensitive: bool = False


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
    implicit: list[ImplicitExtraction] = field(default_factory=list)
    unknown_ids: dict[str, int] = field(default_factory=dict)
    unknown_count: int = 0
    warnings: list[Diagnostic] = field(default_factory=list)
    warning_count: int = 0

    @property
    def totals(self) -> tuple[int, int, int]:
        return sum(self.tp), sum(self.fp), sum(self.fn)

    @property
    def scores(self) -> tuple[float, float, float]:
        return prf(*self.totals)


#: Distinct lines whose outcome a scorer remembers. Real submissions repeat lines (and
#: systems repeat each other); the bound keeps memory flat on a file of distinct lines:
#: at most ~25 MiB.
MEMO_LIMIT = 1 << 17

# What one line amounts to, memoised by its bytes: (kind, ...).
_BLANK, _UNKNOWN, _IMPLICIT, _SCORED = range(4)
Outcome = tuple[Any, ...]


class Scorer:
    """Scores submissions against one gold under one set of options.

    ``gold`` is a parsed gold file (indexed here) or an already compiled one (from
    ``index_cache``). The outcome of every distinct line is remembered for the run.
    """

    def __init__(self, gold: Gold | CompiledGold, options: ScoreOptions) -> None:
        self.compiled = (
            gold if isinstance(gold, CompiledGold) else CompiledGold.build(gold, options.facet)
        )
        if self.compiled.facet != options.facet:
            raise ValueError(f"gold compiled for {self.compiled.facet!r}, not {options.facet!r}")
        self.options = options
        self.position = {sid: i for i, sid in enumerate(self.compiled.sent_ids)}
        self.implicit = ImplicitTest(
            self.compiled.texts, options.lang, case_sensitive=options.case_sensitive
        )
        self._memo: dict[bytes, Outcome] = {}
        self.concat = options.facet == "concat"

    def _outcome(self, raw: bytes, name: str, lineno: int) -> Outcome:
        """What one distinct line amounts to; the scorer's hot path on distinct lines."""
        fields = split_line(raw)
        if fields is None:
            return (_BLANK,)
        if len(fields) == 2:
            raise BenchieError(fields[1], path=name, line=lineno)
        sent_id, subject, relation, obj, _ = fields
        empty = not (subject and relation and obj)
        i = self.position.get(sent_id)
        if i is None:
            return (_UNKNOWN, sent_id, empty)
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

    def score(self, path: str, name: str, *, strict: bool = False) -> SystemResult:
        """Score one submission file (``-`` for stdin), streaming it line by line.

        An unusable line raises :class:`BenchieError` (exit 2); under ``strict`` a warning
        (unknown sentence id, empty slot) raises one with exit status 1.
        """
        n = len(self.position)
        shown = display_name(path)
        facts = FileFacts(shown)
        result = SystemResult(
            name, facts, list(self.compiled.sent_ids), [0] * n, [0] * n, [0] * n, [0] * n
        )
        covered = [0] * n
        kept, fp = result.kept, result.fp
        memo = self._memo
        digest = hashlib.sha256()

        def warn(lineno: int, code: str, problem: str, consequence: str) -> None:
            if strict:
                raise BenchieError(
                    f"{problem} (an error under --strict)",
                    path=shown,
                    line=lineno,
                    exit_code=ExitCode.FAILED,
                )
            result.warning_count += 1
            if len(result.warnings) < EXAMPLES_KEPT:
                result.warnings.append(
                    Diagnostic(shown, lineno, "warning", code, f"{problem}; {consequence}")
                )

        lineno = 0
        for block in iter_line_blocks(path, digest):
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
                    else:
                        fp[i] += 1
                elif kind == _BLANK:
                    continue
                elif kind == _UNKNOWN:
                    result.unknown_count += 1
                    result.unknown_ids[out[1]] = result.unknown_ids.get(out[1], 0) + 1
                    warn(
                        lineno,
                        "unknown-sentence-id",
                        f"sentence id {out[1]!r} is not in the gold",
                        "left out of the scores",
                    )
                else:
                    result.implicit.append(ImplicitExtraction(lineno, out[2], out[3]))
                facts.extractions += 1
                if out[-1]:
                    warn(lineno, "empty-slot", "an empty slot", "scored as it is")
        facts.lines = lineno
        facts.sha256 = digest.hexdigest()
        if facts.extractions == 0:
            raise BenchieError(empty_file(shown, facts).message, path=shown)
        for i in range(n):
            result.tp[i] = covered[i].bit_count()
            result.fn[i] = self.compiled.synsets[i] - result.tp[i]
        return result
