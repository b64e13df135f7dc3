"""Confidences (issue 9, item 5): the ``#benchie-tsv confidence`` extension, the fact-level
precision-recall curve, its AUC and best-F1 threshold.

The curve is computed in O(n log n) from per-extraction outcomes; every test here checks it
against the definition itself: the real scorer run on the subset of lines with confidence
>= t, for every t.
"""

from __future__ import annotations

import hashlib
import json
import random
import tempfile
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchie_cli.benchmarks.benchie import scoring
from benchie_cli.benchmarks.benchie.confidence import CurvePoint, area
from benchie_cli.benchmarks.benchie.scoring import ScoreOptions, Scorer, SystemResult
from benchie_cli.errors import BenchieError, ExitCode
from benchie_cli.gold.parse import load_gold
from tests.conftest import ENGLISH_SYSTEMS, GOLD_DIR, REPO, example

EN_GOLD = GOLD_DIR / "1.0.0/en/default/benchie_gold_annotations_en.txt"
SYNSETS = 1350  # English synsets, gold 1.0.0
DIRECTIVE = "#benchie-tsv confidence"


@pytest.fixture(scope="module")
def scorer() -> Scorer:
    return Scorer(load_gold(str(EN_GOLD)), ScoreOptions("en"))


# The lines of the hand-built file, with what each one is (gold 1.0.0, English).
COVER_1_1 = "1\tHe\tserved as\tthe first Prime Minister of Australia"  # sentence 1, synset 1
COVER_1_1_AGAIN = "1\tHe\tserved\tas the first Prime Minister of Australia"  # synset 1 again
COVER_1_2 = "1\tHe\tserved as the first Prime Minister of\tAustralia"  # sentence 1, synset 2
COVER_1_3 = "1\tHe\tbecame\ta founding justice"  # sentence 1, synset 3
COVER_2_1 = "2\tGraner\thandcuffed\thim"  # sentence 2, synset 1
WRONG_A = "1\tHe\tserved\tAustralia"  # covers nothing
WRONG_B = "1\tHe\tbecame\tAustralia"  # covers nothing
IMPLICIT = "1\tZorglub\tis\there"  # removed before scoring: not a threshold
UNKNOWN = "no-such-id\tX\tis\tY"  # unknown sentence id: ignored

HAND = [
    (UNKNOWN, "2.0"),
    (IMPLICIT, "1"),
    (COVER_1_1, "0.9"),
    (WRONG_A, "0.90"),  # the same confidence as the line above: one threshold
    (COVER_1_3, "0.7"),
    (COVER_2_1, "7e-1"),
    (COVER_1_1_AGAIN, "0.5"),
    (COVER_1_2, "0.5"),
    (COVER_2_1, "0.4"),  # a covered synset again: F1 ties with t = 0.5
    (WRONG_B, "0.3"),
    (COVER_1_3, "0.3"),
    (COVER_2_1, "-1"),
]


def _write(path: Path, rows: list[tuple[str, str]], *, directive: bool = True) -> Path:
    lines = ([DIRECTIVE] if directive else []) + [f"{line}\t{c}" for line, c in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _brute_force(
    scorer: Scorer, rows: list[tuple[str, float]], directory: Path
) -> list[tuple[float, SystemResult]]:
    """The curve by its definition: for each distinct confidence t, highest first, the real
    scorer on the lines with confidence >= t (written without their confidence column, as a
    file without the directive); a point wherever a scored extraction has confidence t."""
    points: list[tuple[float, SystemResult]] = []
    scored_before = 0
    for t in sorted({c for _, c in rows}, reverse=True):
        kept = [line for line, c in rows if c >= t]
        if set(kept) == {UNKNOWN}:  # nothing scored yet (the scorer refuses such a file)
            continue
        subset = directory / "subset.tsv"
        subset.write_text("".join(f"{line}\n" for line in kept), encoding="utf-8")
        result = scorer.score(str(subset), "subset", jobs=1)
        if sum(result.kept) > scored_before:
            points.append((t, result))
        scored_before = sum(result.kept)
    return points


def _agrees(curve: list[CurvePoint], brute: list[tuple[float, SystemResult]]) -> None:
    assert [p.threshold for p in curve] == [t for t, _ in brute]
    for point, (_, result) in zip(curve, brute, strict=True):
        tp, fp, _ = result.totals
        assert (point.extractions, point.tp, point.fp) == (sum(result.kept), tp, fp)
        assert (point.precision, point.recall, point.f1) == result.scores


def _expected_best(brute: list[tuple[float, SystemResult]]) -> float:
    """The threshold of maximal F1, the highest among equals."""
    top = max(result.scores[2] for _, result in brute)
    return next(t for t, result in brute if result.scores[2] == top)


def _step_area(brute: list[tuple[float, SystemResult]]) -> float:
    total, previous = 0.0, 0.0
    for _, result in brute:
        precision, recall, _ = result.scores
        total += (recall - previous) * precision
        previous = recall
    return total


def test_hand_built_curve_with_ties(scorer: Scorer, tmp_path: Path) -> None:
    result = scorer.score(str(_write(tmp_path / "hand.tsv", HAND)), "hand", jobs=1)
    assert result.curve is not None
    # Worked out by hand: (threshold, extractions kept, TP, FP). The implicit line (1) and
    # the unknown id (2.0) give no threshold; 0.9 and 0.90, 0.7 and 7e-1 are one each.
    expected = [
        (0.9, 2, 1, 1),  # synset 1.1; WRONG_A
        (0.7, 4, 3, 1),  # + 1.3, 2.1
        (0.5, 6, 4, 1),  # + 1.2; 1.1 again adds nothing
        (0.4, 7, 4, 1),  # 2.1 again: the same P and R
        (0.3, 9, 4, 2),  # WRONG_B; 1.3 again
        (-1.0, 10, 4, 2),  # 2.1 once more
    ]
    assert [(p.threshold, p.extractions, p.tp, p.fp) for p in result.curve.points] == expected
    precisions = [0.5, 0.75, 0.8, 0.8, 4 / 6, 4 / 6]
    recalls = [1 / SYNSETS, 3 / SYNSETS, 4 / SYNSETS, 4 / SYNSETS, 4 / SYNSETS, 4 / SYNSETS]
    for point, p, r in zip(result.curve.points, precisions, recalls, strict=True):
        assert point.precision == pytest.approx(p) and point.recall == pytest.approx(r)
    # Step-wise area from recall 0: 1 synset at P 0.5, 2 at 0.75, 1 at 0.8, then no gain.
    assert result.curve.auc == pytest.approx((0.5 + 2 * 0.75 + 0.8) / SYNSETS)
    # F1 is maximal at 0.5 and equal at 0.4: the highest threshold wins.
    assert result.curve.best is not None and result.curve.best.threshold == 0.5
    # The lowest threshold keeps everything: the system's own score.
    assert (result.curve.points[-1].tp, result.curve.points[-1].fp) == result.totals[:2]

    brute = _brute_force(scorer, [(line, float(c)) for line, c in HAND], tmp_path)
    _agrees(result.curve.points, brute)
    assert result.curve.auc == pytest.approx(_step_area(brute), abs=1e-15)
    assert result.curve.best.threshold == _expected_best(brute)


POOL = [COVER_1_1, COVER_1_1_AGAIN, COVER_1_2, COVER_1_3, COVER_2_1, WRONG_A, WRONG_B]
POOL += [IMPLICIT, UNKNOWN, "3\tHe\tserved\tas", "2\tGraner\tleft\thim there"]
CONFIDENCES = ["0", "0.25", "0.5", "1", "-1", "1e-3", ".5", "-0"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(st.sampled_from(POOL), st.sampled_from(CONFIDENCES)), min_size=1, max_size=14
    )
)
def test_curve_equals_brute_force(scorer: Scorer, rows: list[tuple[str, str]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        if {line for line, _ in rows} == {UNKNOWN}:  # no sentence id of the gold: refused
            with pytest.raises(BenchieError, match="no sentence id is the gold's"):
                scorer.score(str(_write(directory / "f.tsv", rows)), "f", jobs=1)
            return
        result = scorer.score(str(_write(directory / "f.tsv", rows)), "f", jobs=1)
        assert result.curve is not None
        brute = _brute_force(scorer, [(line, float(c)) for line, c in rows], directory)
    _agrees(result.curve.points, brute)
    assert result.curve.auc == pytest.approx(_step_area(brute), abs=1e-15)
    if brute:
        assert result.curve.best is not None
        assert result.curve.best.threshold == _expected_best(brute)
    else:
        assert result.curve.best is None and result.curve.auc == 0.0


def test_area_is_stepwise_from_recall_zero() -> None:
    points = [CurvePoint(1.0, 1, 1, 0, 1.0, 0.2, 0.0), CurvePoint(0.0, 3, 2, 1, 0.5, 0.4, 0.0)]
    assert area(points) == pytest.approx(0.2 * 1.0 + 0.2 * 0.5)


def _big_confident_file(tmp_path: Path) -> Path:
    """The eight English systems with random confidences (ties included), implicit and
    unknown lines, blank lines before the directive, CRLF halfway and a BOM."""
    rng = random.Random(9)
    lines: list[str] = []
    for system in ENGLISH_SYSTEMS:
        for line in example("en", system).read_text(encoding="utf-8").splitlines():
            if line.strip():
                lines.append(f"{line}\t{rng.choice(['0.1', '0.5', '0.9'])}{rng.randrange(10)}")
        lines += [f"{IMPLICIT}\t0.5", f"{UNKNOWN}\t0.7", ""]
    half = len(lines) // 2
    text = "\ufeff\n  \n" + DIRECTIVE + "\r\n" + "\r\n".join(lines[:half]) + "\n"
    text += "\n".join(lines[half:]) + "\n"
    path = tmp_path / "confident.tsv"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("jobs", [2, 3, 7])
def test_parallel_equals_sequential(
    scorer: Scorer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int
) -> None:
    monkeypatch.setattr(scoring, "PARALLEL_MIN_BYTES", 4096)
    path = _big_confident_file(tmp_path)
    assert scoring._workers(str(path), jobs) > 1  # the test is not vacuous
    sequential = scorer.score(str(path), "c", jobs=1)
    parallel = scorer.score(str(path), "c", jobs=jobs)
    assert sequential.curve is not None and parallel.curve == sequential.curve
    assert len(sequential.curve.points) > 20
    assert (parallel.kept, parallel.tp, parallel.fp) == (
        sequential.kept,
        sequential.tp,
        sequential.fp,
    )
    assert [x.line for x in parallel.implicit] == [x.line for x in sequential.implicit]
    assert parallel.facts == sequential.facts
    # An error in a later range names its true line in both modes.
    lines = path.read_bytes().split(b"\n")
    lines[-10] = lines[-10].rpartition(b"\t")[0] + b"\tnan"
    path.write_bytes(b"\n".join(lines))
    for n in (1, jobs):
        with pytest.raises(BenchieError) as caught:
            scorer.score(str(path), "c", jobs=n)
        assert caught.value.line == len(lines) - 9
        assert "confidence 'nan'" in caught.value.message


def test_confidences_do_not_change_the_scores(scorer: Scorer, tmp_path: Path) -> None:
    plain = scorer.score(str(example("en", "openie6")), "o", jobs=1)
    rows = [(line, "0.5") for line in example("en", "openie6").read_text().splitlines() if line]
    confident = scorer.score(str(_write(tmp_path / "c.tsv", rows)), "o", jobs=1)
    assert (confident.kept, confident.tp, confident.fp) == (plain.kept, plain.tp, plain.fp)
    assert plain.curve is None and confident.curve is not None
    assert len(confident.curve.points) == 1


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("nan", "not a finite decimal number"),
        ("inf", "not a finite decimal number"),
        ("1_0", "not a finite decimal number"),
        ("0x1", "not a finite decimal number"),
        ("", "not a finite decimal number"),
        ("1e999", "beyond the range of a double"),
    ],
)
def test_malformed_confidence_is_a_line_error(
    cli, tmp_path: Path, value: str, problem: str
) -> None:
    path = _write(tmp_path / "bad.tsv", [(COVER_1_1, "0.5"), (COVER_1_2, value)])
    result = cli("score", "--lang", "en", path)
    assert result.exit_code == ExitCode.USAGE
    assert f"{path}:3: error: confidence {value!r} (the last column) is {problem}" in (
        result.stderr
    )
    assert "Traceback" not in result.output + result.stderr
    found = cli("validate", "--lang", "en", "--format", "json", path)
    assert found.exit_code == ExitCode.FAILED
    assert [(d["line"], d["code"]) for d in _diagnostics(found.stdout)] == [(3, "confidence")]


def _diagnostics(stdout: str) -> list[dict[str, object]]:
    doc = json.loads(stdout)
    return [d for f in doc["files"] for d in f["diagnostics"]]


def test_directive_rules(cli, tmp_path: Path) -> None:
    # Too few columns under the directive: the message says 5 are needed.
    short = tmp_path / "short.tsv"
    short.write_text(f"{DIRECTIVE}\n{COVER_1_1}\n", encoding="utf-8")
    result = cli("score", "--lang", "en", short)
    assert result.exit_code == ExitCode.USAGE
    assert "4 TAB-separated columns, need 5" in result.stderr
    # Only the first non-blank line is a directive: a later one is an unusable line.
    late = tmp_path / "late.tsv"
    late.write_text(f"{COVER_1_1}\n{DIRECTIVE}\n", encoding="utf-8")
    result = cli("score", "--lang", "en", late)
    assert result.exit_code == ExitCode.USAGE and f"{late}:2:" in result.stderr
    # A valid file validates clean, the directive included.
    good = _write(tmp_path / "good.tsv", HAND[2:])
    assert cli("validate", "--lang", "en", good).exit_code == 0


def test_report_views(cli, tmp_path: Path) -> None:
    good = _write(tmp_path / "good.tsv", HAND)
    plain = example("en", "clausie")
    doc = json.loads(cli("score", "--lang", "en", good, plain, "-o", "-").stdout)
    by_name = {s["name"]: s for s in doc["systems"]}
    assert "confidence" not in by_name["clausie"]
    confidence = by_name["good"]["confidence"]
    assert list(confidence) == ["auc", "best_f1", "curve"]
    assert confidence["best_f1"]["threshold"] == 0.5 and len(confidence["curve"]) == 6
    table = cli("score", "--lang", "en", good, plain).stdout
    assert "AUC" in table.splitlines()[0] and "best F1" in table.splitlines()[0]
    markdown = cli("score", "--lang", "en", "--format", "markdown", good).stdout
    assert "| AUC | best F1 | at conf. |" in markdown and "| 0.5 |" in markdown
    assert "AUC" not in cli("score", "--lang", "en", plain).stdout


def test_strip_implicit_keeps_the_directive(cli, tmp_path: Path) -> None:
    source = tmp_path / "in.tsv"
    source.write_bytes(
        b"\xef\xbb\xbf" + DIRECTIVE.encode() + b"\r\n" + f"{COVER_1_1}\t0.5\r\n".encode()
    )
    with source.open("ab") as fh:
        fh.write(f"{IMPLICIT}\t0.9\n{COVER_1_2}\t1e-3".encode())
    kept, removed = tmp_path / "kept.tsv", tmp_path / "removed.tsv"
    result = cli("strip-implicit", "--lang", "en", source, "-o", kept, "--removed", removed)
    assert result.exit_code == 0, result.stderr
    lines = source.read_bytes().split(b"\n")
    assert kept.read_bytes() == b"\n".join([lines[0], lines[1], lines[3]])
    assert removed.read_bytes() == f"3\tzorglub is here\t{IMPLICIT}\t0.9\n".encode()


def test_analyze_draws_the_curves(cli, tmp_path: Path) -> None:
    good = _write(tmp_path / "good.tsv", HAND)
    plain = example("en", "clausie")
    out = tmp_path / "a.json"
    args = ("analyze", "--lang", "en", "--resamples", "10", good, plain)
    assert cli(*args, "-o", out).exit_code == 0
    doc = json.loads(out.read_text())
    by_name = {s["name"]: s for s in doc["systems"]}
    assert "confidence" not in by_name["clausie"]
    assert by_name["good"]["confidence"]["best_f1"]["threshold"] == 0.5
    page = tmp_path / "a.html"
    assert cli(*args, "-o", page).exit_code == 0
    html = page.read_text()
    assert html.count('id="chart-pr"') == 1 and "<script" not in html
    assert html.count('class="pr"') == 1  # one curve: clausie has no confidences
    # A report of systems without confidences has no such section.
    plain_page = tmp_path / "p.html"
    assert (
        cli("analyze", "--lang", "en", "--resamples", "10", plain, "-o", plain_page).exit_code == 0
    )
    assert "chart-pr" not in plain_page.read_text()


#: sha256 of reports written by the code before confidences existed (commit of issue 8),
#: for files without the directive: they must stay the same to the byte, but for the gold
#: file's ``findings``, added to every JSON report later (issue 15) and taken out here.
BEFORE = {
    "json": "2133cf1e3813d3fabf1072ab213a9a84cf9749767153b6b67af24ff0acfd60fe",
    "table": "243183d839320e06c97679a22b8637c6ab5c4c3f2290eb982c67e5d643ab31b9",
    "markdown": "41e03ac71f5aa05c2ee1cecf9983cc4814f27a6b05d9866b1b52589fc801fa8b",
}


@pytest.mark.parametrize("fmt", list(BEFORE))
def test_reports_without_confidences_are_unchanged(
    cli, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    monkeypatch.chdir(REPO)
    result = cli(
        "score",
        "--lang",
        "en",
        "--gold-version",
        "1.0.0",
        "--per-sentence",
        "--format",
        fmt,
        "examples/submissions/en/",
    )
    out = result.stdout_bytes
    if fmt == "json":
        report = orjson.loads(out)
        findings = report["gold"]["files"][0].pop("findings")
        assert findings["errors"] == findings["reviewed_errors"] == 3  # 1.0.0's, reviewed
        out = orjson.dumps(report, option=orjson.OPT_INDENT_2) + b"\n"
    assert hashlib.sha256(out).hexdigest() == BEFORE[fmt]
