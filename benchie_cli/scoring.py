"""From a submission to per-sentence sufficient statistics, and from their sums to P/R/F1.

As in sacreBLEU, everything a corpus score needs is reduced to per-sentence counts first
(extractions kept, TP, FP, FN); corpus scores are computed from their sums, and the
profiling statistics (bootstrap, per-bucket scores) resample those counts without scoring
again. Scoring streams the submission, so memory does not grow with its length.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from benchie_cli.errors import BenchieError, Diagnostic, ExitCode
from benchie_cli.gold import Gold
from benchie_cli.matching import SentenceIndex
from benchie_cli.submission import Extraction, FileFacts, read_submission
from benchie_cli.tokens import implicit_tokens

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


class Scorer:
    """Scores submissions against one gold under one set of options.

    The per-sentence index is built lazily, on the first extraction of a sentence, and kept
    for every further submission of the run.
    """

    def __init__(self, gold: Gold, options: ScoreOptions) -> None:
        self.gold = gold
        self.options = options
        self.sentences = list(gold.sentences.values())
        self.position = {s.sent_id: i for i, s in enumerate(self.sentences)}
        self.synsets = [len(s.clusters) for s in self.sentences]
        self._index: list[SentenceIndex | None] = [None] * len(self.sentences)
        self._tokens: list[frozenset[str] | None] = [None] * len(self.sentences)

    def index(self, i: int) -> SentenceIndex:
        found = self._index[i]
        if found is None:
            with no_cyclic_gc():
                found = self._index[i] = SentenceIndex(self.sentences[i], self.options.facet)
        return found

    def sentence_tokens(self, i: int) -> frozenset[str]:
        found = self._tokens[i]
        if found is None:
            found = self._tokens[i] = frozenset(
                implicit_tokens(
                    self.sentences[i].text,
                    self.options.lang,
                    case_sensitive=self.options.case_sensitive,
                )
            )
        return found

    def implicit_of(self, i: int, ex: Extraction) -> list[str]:
        """Tokens of the extraction absent from its sentence (empty: explicit)."""
        known = self.sentence_tokens(i)
        text = f"{ex.subject} {ex.relation} {ex.object}"
        tokens = implicit_tokens(
            text, self.options.lang, case_sensitive=self.options.case_sensitive
        )
        return list(dict.fromkeys(t for t in tokens if t not in known))

    def score(self, path: str, name: str, *, strict: bool = False) -> SystemResult:
        """Score one submission file (``-`` for stdin).

        An unusable line raises :class:`BenchieError` (exit 2); under ``strict`` a warning
        (unknown sentence id, empty slot) raises one with exit status 1.
        """
        n = len(self.sentences)
        facts = FileFacts(path)
        result = SystemResult(
            name, facts, [s.sent_id for s in self.sentences], [0] * n, [0] * n, [0] * n, [0] * n
        )
        covered = [0] * n
        kept, fp = result.kept, result.fp
        concat = self.options.facet == "concat"
        strip = self.options.strip_implicit

        def warn(diag: Diagnostic) -> None:
            if strict:
                raise BenchieError(
                    f"{diag.message} (--strict)",
                    path=diag.path,
                    line=diag.line,
                    exit_code=ExitCode.FAILED,
                )
            result.warning_count += 1
            if len(result.warnings) < EXAMPLES_KEPT:
                result.warnings.append(diag)

        for item in read_submission(path, facts):
            if isinstance(item, Diagnostic):
                raise BenchieError(item.message, path=item.path, line=item.line)
            i = self.position.get(item.sent_id)
            if i is None:
                result.unknown_count += 1
                result.unknown_ids[item.sent_id] = result.unknown_ids.get(item.sent_id, 0) + 1
                warn(
                    Diagnostic(
                        facts.path if path != "-" else "<stdin>",
                        item.line,
                        "warning",
                        "unknown-sentence-id",
                        f"sentence id {item.sent_id!r} is not in the gold; left out",
                    )
                )
                continue
            if not (item.subject and item.relation and item.object):
                warn(
                    Diagnostic(
                        facts.path if path != "-" else "<stdin>",
                        item.line,
                        "warning",
                        "empty-slot",
                        "an empty slot; scored as it is",
                    )
                )
            if strip:
                missing = self.implicit_of(i, item)
                if missing:
                    result.implicit.append(ImplicitExtraction(item.line, item.sent_id, missing))
                    continue
            index = self.index(i)
            if concat:
                synset = index.match_concat(item.subject, item.relation, item.object)
            else:
                synset = index.match_slots(item.subject, item.relation, item.object)
            kept[i] += 1
            if synset >= 0:
                covered[i] |= 1 << synset
            else:
                fp[i] += 1
        for i in range(n):
            result.tp[i] = covered[i].bit_count()
            result.fn[i] = self.synsets[i] - result.tp[i]
        return result
