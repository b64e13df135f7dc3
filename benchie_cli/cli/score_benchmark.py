"""``benchie score --benchmark oie2016|reoie2016|wire57``: a leaderboard against another
benchmark's gold (``metrics.benchmarks``), printed or written as ``score``'s reports are."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from benchie_cli.cli.common import (
    check_expect_gold,
    check_stdin_once,
    say,
)
from benchie_cli.cli.group import set_verdict
from benchie_cli.errors import BenchieError, ExitCode
from benchie_cli.gold.store import resolve_gold_dir
from benchie_cli.inputs.batch import Failure, expand
from benchie_cli.outputs import check_output
from benchie_cli.textio import display_name


def score_benchmark(
    benchmark: str,
    submissions: tuple[str, ...],
    gold_version: str | None,
    gold_dir: str | None,
    split: str,
    fmt: str,
    output: str | None,
    strict: bool,
    expect_gold: str | None,
    input_format: str,
    write: Callable[[dict[str, Any], str, str | None, str], None],
) -> None:
    """Score each submission against the benchmark's split; a submission that cannot be
    scored is reported and the others are scored (exit 1), none at all exits 2. ``write``
    prints or writes the report as ``score`` does."""
    from benchie_cli.benchmarks import corpus as bm

    batch = expand(submissions)
    check_stdin_once(None, [s.path for s in batch])
    expected = check_expect_gold(expect_gold) if expect_gold is not None else None
    root, _ = resolve_gold_dir(gold_dir)
    corpus = bm.load(root, benchmark, gold_version, split)
    check_output(output, [*(s.path for s in batch), *corpus.inputs], stores=[root])
    if expected is not None and not corpus.sha256.startswith(expected):
        raise BenchieError(
            f"gold {benchmark} {corpus.version} ({split}) has sha256 {corpus.sha256}, "
            f"not the expected {expect_gold}",
            exit_code=ExitCode.FAILED,
        )
    runs: list[bm.Run] = []
    failures: list[Failure] = []
    for submission in batch:
        try:
            scored = bm.score_file(corpus, submission.path, submission.name, input_format)
            outside = max(r.outside for r in scored)
            said = [
                *(
                    [
                        f"{outside:,} of its sentences are not in {benchmark}'s {split} split: "
                        "the original scorer ignores them"
                    ]
                    if outside
                    else []
                ),
                *dict.fromkeys(w for r in scored for w in r.warnings),
            ]
            if said and strict:
                raise BenchieError(
                    f"{said[0]} (an error under --strict)",
                    path=display_name(submission.path),
                    exit_code=ExitCode.FAILED,
                )
            for what in said:
                say(f"{display_name(submission.path)}: warning: {what}")
            runs.extend(scored)
        except BenchieError as exc:
            say(str(exc))
            failures.append(Failure(submission, str(exc), exc.exit_code))
    if not runs:
        sys.exit(bm.exit_code_of(failures))
    if failures:
        set_verdict(int(ExitCode.FAILED))
    report = bm.build_report(corpus, runs, failures=failures, input_format=input_format)
    label = f"{len(runs)} system(s), {benchmark} gold {corpus.version} ({split})"
    write(report, fmt, output, label)
