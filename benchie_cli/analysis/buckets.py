"""Bucketised evaluation (paper §5.2): scores restricted to groups of sentences.

Built in: sentence length in whitespace tokens of the gold sentence (the gold is tokenised, so
these are words for English and German and characters for Chinese), in the paper's three
buckets (<= 20, 21-30, > 30). Any other grouping comes from a file of ``sent_id<TAB>bucket``
lines; sentences it does not list are left out of every bucket (and counted as such).
Scores per bucket come from the per-sentence counts, summed over the bucket's sentences.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchie_cli.benchmarks.benchie.scoring import SystemResult
from benchie_cli.errors import BenchieError
from benchie_cli.prf import prf
from benchie_cli.textio import display_name, read_text_lines

LENGTH_BUCKETS = ("<=20", "21-30", ">30")
LENGTH_BUCKETING = "sentence length (tokens)"  # the built-in bucketing's name in a report


def length_bucket(sentence: str) -> str:
    n = len(sentence.split())
    return LENGTH_BUCKETS[0] if n <= 20 else LENGTH_BUCKETS[1] if n <= 30 else LENGTH_BUCKETS[2]


@dataclass(frozen=True, slots=True)
class Bucketing:
    """A named assignment of sentence positions (gold order) to buckets."""

    name: str
    buckets: tuple[str, ...]  # in display order
    of: tuple[str | None, ...]  # per sentence position; None: in no bucket

    @property
    def unassigned(self) -> int:
        return sum(1 for b in self.of if b is None)

    def sizes(self) -> dict[str, int]:
        return {b: sum(1 for x in self.of if x == b) for b in self.buckets}


def by_length(texts: list[str]) -> Bucketing:
    return Bucketing(LENGTH_BUCKETING, LENGTH_BUCKETS, tuple(length_bucket(t) for t in texts))


def from_file(path: str, sent_ids: list[str]) -> Bucketing:
    """``sent_id<TAB>bucket`` per line; buckets appear in order of first mention."""
    name = display_name(path)
    position = {sid: i for i, sid in enumerate(sent_ids)}
    of: list[str | None] = [None] * len(sent_ids)
    order: dict[str, None] = {}
    for n, line in enumerate(read_text_lines(path, what="bucket file"), 1):
        if not line.strip():
            continue
        sent_id, tab, bucket = line.partition("\t")
        sent_id, bucket = sent_id.strip(), bucket.strip()
        if not tab or not bucket:
            raise BenchieError("expected 'sent_id<TAB>bucket'", path=name, line=n)
        if bucket == "all":  # the name of the row over every sentence
            raise BenchieError(
                "bucket name 'all' is reserved for the scores over every sentence; rename it",
                path=name,
                line=n,
            )
        i = position.get(sent_id)
        if i is None:
            raise BenchieError(f"sentence id {sent_id!r} is not in the gold", path=name, line=n)
        if of[i] is not None and of[i] != bucket:
            raise BenchieError(
                f"sentence {sent_id!r} is already in bucket {of[i]!r}", path=name, line=n
            )
        of[i] = bucket
        order[bucket] = None
    if not order:
        raise BenchieError("no 'sent_id<TAB>bucket' line", path=name)
    return Bucketing(name, tuple(order), tuple(of))


def bucket_scores(result: SystemResult, bucketing: Bucketing) -> dict[str, dict[str, float | int]]:
    """P/R/F1 and counts of ``result`` per bucket (and over all sentences, as "all")."""
    out: dict[str, dict[str, float | int]] = {}
    for bucket in (*bucketing.buckets, "all"):
        members = [i for i, b in enumerate(bucketing.of) if bucket == "all" or b == bucket]
        tp = sum(result.tp[i] for i in members)
        fp = sum(result.fp[i] for i in members)
        fn = sum(result.fn[i] for i in members)
        p, r, f = prf(tp, fp, fn)
        out[bucket] = {
            "sentences": len(members),
            "tp": tp,
            "fp": fp,
            "fn": fn,
            "precision": p,
            "recall": r,
            "f1": f,
        }
    return out
