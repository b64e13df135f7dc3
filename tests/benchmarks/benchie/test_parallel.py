"""Scoring a large file in several processes must change nothing: counts, per-sentence
arrays, implicit and unknown lines with their line numbers, warnings, hash, and errors
(the first in file order, at its true line)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from benchie_cli.benchmarks.benchie import scoring
from benchie_cli.benchmarks.benchie.scoring import ScoreOptions, Scorer, SystemResult
from benchie_cli.errors import BenchieError, ExitCode
from benchie_cli.gold.parse import load_gold
from tests.conftest import ENGLISH_SYSTEMS, GOLD_DIR, example

EN_GOLD = GOLD_DIR / "1.0.0/en/default/benchie_gold_annotations_en.txt"


@pytest.fixture(scope="module")
def scorer_factory():
    gold = load_gold(str(EN_GOLD))
    return lambda facet="default": Scorer(gold, ScoreOptions("en", facet))


@pytest.fixture(autouse=True)
def _small_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    """Split files of a few kilobytes, so that tests run in milliseconds."""
    monkeypatch.setattr(scoring, "PARALLEL_MIN_BYTES", 4096)


def _submission(tmp_path: Path) -> Path:
    """All eight English systems, with implicit lines, unknown ids, an empty slot, blank
    and CRLF lines mixed in, and a BOM in front."""
    lines: list[str] = []
    for n, system in enumerate(ENGLISH_SYSTEMS):
        lines += example("en", system).read_text(encoding="utf-8").splitlines()
        lines += [
            f"1\tHe\tserved\tas Zorglub {n}",  # implicit: zorglub
            f"no-such-id-{n % 3}\tX\tis\tY",  # unknown id
            "2\tGraner\thandcuffed\t",  # empty object
            "",
        ]
    text = (
        "\ufeff"
        + "\r\n".join(lines[: len(lines) // 2])
        + "\n"
        + "\n".join(lines[len(lines) // 2 :])
    )
    path = tmp_path / "all.tsv"
    path.write_text(text, encoding="utf-8")
    return path


def _same(a: SystemResult, b: SystemResult) -> None:
    assert (a.facts.sha256, a.facts.lines, a.facts.extractions) == (
        b.facts.sha256,
        b.facts.lines,
        b.facts.extractions,
    )
    assert (a.kept, a.tp, a.fp, a.fn) == (b.kept, b.tp, b.fp, b.fn)
    assert [(x.line, x.sent_id, x.tokens) for x in a.implicit] == [
        (x.line, x.sent_id, x.tokens) for x in b.implicit
    ]
    assert list(a.unknown_ids.items()) == list(b.unknown_ids.items())
    assert (a.unknown_count, a.warning_count) == (b.unknown_count, b.warning_count)
    assert a.warnings == b.warnings


@pytest.mark.parametrize("jobs", [2, 3, 7])
@pytest.mark.parametrize("facet", ["default", "concat"])
def test_parallel_equals_sequential(scorer_factory, tmp_path: Path, jobs: int, facet: str) -> None:
    path = _submission(tmp_path)
    sequential = scorer_factory(facet).score(str(path), "all", jobs=1)
    parallel = scorer_factory(facet).score(str(path), "all", jobs=jobs)
    _same(parallel, sequential)
    assert parallel.facts.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert len(parallel.implicit) == len(ENGLISH_SYSTEMS)  # the test is not vacuous
    assert parallel.implicit[-1].line > parallel.facts.lines // 2


def test_error_in_a_later_range_names_its_true_line(scorer_factory, tmp_path: Path) -> None:
    path = _submission(tmp_path)
    lines = path.read_bytes().split(b"\n")
    bad = len(lines) - 5
    lines[bad - 1] = b"only\ttwo"
    path.write_bytes(b"\n".join(lines))
    for jobs in (1, 3):
        with pytest.raises(BenchieError) as caught:
            scorer_factory().score(str(path), "all", jobs=jobs)
        assert (caught.value.line, caught.value.exit_code) == (bad, ExitCode.USAGE)


def test_strict_reports_the_first_warning_in_file_order(scorer_factory, tmp_path: Path) -> None:
    path = _submission(tmp_path)
    first = next(
        n
        for n, line in enumerate(path.read_text(encoding="utf-8-sig").splitlines(), 1)
        if line.startswith("no-such-id") or line.endswith("\t")
    )
    for jobs in (1, 3):
        with pytest.raises(BenchieError) as caught:
            scorer_factory().score(str(path), "all", strict=True, jobs=jobs)
        assert (caught.value.line, caught.value.exit_code) == (first, ExitCode.FAILED)


def test_small_and_stdin_inputs_stay_sequential(tmp_path: Path) -> None:
    small = tmp_path / "small.tsv"
    small.write_text("1\tHe\tserved\tas\n", encoding="utf-8")
    assert scoring._workers(str(small), 4) == 1
    assert scoring._workers("-", 4) == 1
