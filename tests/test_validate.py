"""``benchie validate``: every problem as ``PATH:LINE: severity: message [code]``.

The upstream gold 1.0.0 has real format defects (SPEC §1 leniency rules). These tests show that
each kind present upstream is reported on the right line, checking the line's text in the repo
copy first so that a wrong line number in a test cannot pass by accident. Submission checks use
small hand-made files in tmp_path against the real English gold.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from benchie_cli.cli import main
from benchie_cli.gold.parse import load_gold
from tests.conftest import DATA, GOLD_DIR, RunCli, example

GOLD_FILES = {
    lang: GOLD_DIR / "1.0.0" / lang / "default" / f"benchie_gold_annotations_{lang}.txt"
    for lang in ("en", "de", "zh")
}
DIAGNOSTIC = re.compile(
    r"^(?P<path>.+?):(?P<line>\d+): (?P<severity>error|warning): (?P<message>.+) "
    r"\[(?P<code>[a-z][a-z-]*)\]$"
)
SUMMARY = re.compile(r"^([\d,]+) error\(s\), ([\d,]+) warning\(s\) in ([\d,]+) file\(s\)$")
UPSTREAM_SUBMISSIONS = [
    ("en", s)
    for s in ("clausie", "minie", "stanford", "openie6", "roi_t", "roi_n", "naive_oie", "m2oie_en")
] + [("de", "m2oie_de"), ("zh", "m2oie_zh")]


@dataclass(frozen=True)
class Finding:
    """One parsed output line of ``benchie validate``."""

    path: str
    line: int
    severity: str
    code: str
    message: str


@dataclass(frozen=True)
class Run:
    exit_code: int
    stdout: str
    stderr: str
    findings: tuple[Finding, ...]


def parse_findings(stdout: str) -> tuple[Finding, ...]:
    """Every stdout line must be a diagnostic: anything else would break editors and CI."""
    out = []
    for text in stdout.splitlines():
        m = DIAGNOSTIC.match(text)
        assert m, f"not a PATH:LINE: severity: message [code] line: {text!r}"
        out.append(Finding(m["path"], int(m["line"]), m["severity"], m["code"], m["message"]))
    return tuple(out)


@cache
def validate_upstream_gold(lang: str) -> Run:
    """Validate one upstream gold file once per session (the file never changes)."""
    result = CliRunner().invoke(
        main,
        ["validate", "--kind", "gold", "--lang", lang, str(GOLD_FILES[lang])],
        catch_exceptions=False,
    )
    return Run(result.exit_code, result.stdout, result.stderr, parse_findings(result.stdout))


@cache
def gold_lines(lang: str) -> tuple[str, ...]:
    """The gold file's lines, numbered from 1 as the validator numbers them."""
    return ("", *GOLD_FILES[lang].read_text(encoding="utf-8").split("\n"))


def lines_of(run: Run, code: str) -> set[int]:
    return {f.line for f in run.findings if f.code == code}


def finding(run: Run, line: int, code: str) -> Finding:
    matches = [f for f in run.findings if f.line == line and f.code == code]
    assert matches, f"no [{code}] reported on line {line}"
    return matches[0]


def summary_counts(stderr: str) -> tuple[int, int, int]:
    lines = [s for s in stderr.splitlines() if SUMMARY.match(s)]
    assert len(lines) == 1, f"expected one summary line on stderr, got {stderr!r}"
    m = SUMMARY.match(lines[0])
    assert m is not None
    return int(m[1].replace(",", "")), int(m[2].replace(",", "")), int(m[3].replace(",", ""))


def run_validate(cli: RunCli, *args: str | Path) -> Run:
    result = cli("validate", *map(str, args))
    return Run(result.exit_code, result.stdout, result.stderr, parse_findings(result.stdout))


# --------------------------------------------------------------------------- upstream gold


@pytest.mark.parametrize("lang", ["en", "de", "zh"])
def test_upstream_gold_output_is_diagnostics_then_summary(lang: str) -> None:
    """Each line names the file; the summary counts what was listed; errors give exit 1."""
    run = validate_upstream_gold(lang)
    assert run.findings, "upstream gold has known defects; none was reported"
    assert {f.path for f in run.findings} == {str(GOLD_FILES[lang])}
    errors = sum(f.severity == "error" for f in run.findings)
    warnings = sum(f.severity == "warning" for f in run.findings)
    assert summary_counts(run.stderr) == (errors, warnings, 1)
    assert errors > 0
    assert run.exit_code == 1


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", {"malformed-header": {2812}, "lone-bracket": {9176, 9177}}),
        ("de", {"malformed-header": {246}, "lone-bracket": {245, 1519, 1520, 1521}}),
        ("zh", {"stray-line": {2080}, "lone-bracket": {2851}}),
    ],
)
def test_upstream_gold_errors_are_exactly_the_known_defects(
    lang: str, expected: dict[str, set[int]]
) -> None:
    """No known defect missed, and no sound line flagged as an error."""
    run = validate_upstream_gold(lang)
    got: dict[str, set[int]] = {}
    for f in run.findings:
        if f.severity == "error":
            got.setdefault(f.code, set()).add(f.line)
    assert got == expected


def test_en_malformed_header_2812() -> None:
    """``78-->Cluster 6:`` lacks the space after the arrow; it is still read as a header."""
    assert gold_lines("en")[2812] == "78-->Cluster 6:"
    f = finding(validate_upstream_gold("en"), 2812, "malformed-header")
    assert f.severity == "error"
    assert "78-->Cluster 6:" in f.message


def test_en_malformed_header_still_opens_a_synset() -> None:
    """SPEC §1: a malformed line with ``Cluster`` is a header; its triples form their own synset."""
    gold = load_gold(str(GOLD_FILES["en"]))
    sentence = gold.sentences["78"]
    assert [c.line for c in sentence.clusters] == [2749, 2759, 2762, 2764, 2795, 2812]
    assert [t.line for t in sentence.clusters[-1].triples] == list(range(2813, 2822))


def test_en_lone_closing_brackets_9176_9177() -> None:
    """``for [as little as] $ 89]``: the last ``]`` has no partner, on two lines."""
    run = validate_upstream_gold("en")
    for n in (9176, 9177):
        assert gold_lines("en")[n].endswith("--> for [as little as] $ 89]")
        f = finding(run, n, "lone-bracket")
        assert f.severity == "error"
        assert "for [as little as] $ 89]" in f.message


def test_en_doubled_whitespace_lines() -> None:
    """English has exactly three triple lines with doubled spaces."""
    run = validate_upstream_gold("en")
    assert lines_of(run, "whitespace") == {936, 1010, 1011}
    for n in (936, 1010, 1011):
        assert "  " in gold_lines("en")[n]
        assert finding(run, n, "whitespace").severity == "warning"


def test_en_header_naming_another_sentence() -> None:
    """Line 2331 is ``19--> Cluster 5:`` inside sentence 68 (and 4762: 131 inside 130)."""
    run = validate_upstream_gold("en")
    assert gold_lines("en")[2331] == "19--> Cluster 5:"
    assert lines_of(run, "header-id") == {2331, 4762}
    f = finding(run, 2331, "header-id")
    assert f.severity == "warning"
    assert "'19'" in f.message and "'68'" in f.message


def test_en_bracket_touching_a_token_778() -> None:
    """``[``]A New Oath['']``: brackets glued to tokens are read as boundaries, with a warning."""
    assert "[``]A New Oath['']" in gold_lines("en")[778]
    f = finding(validate_upstream_gold("en"), 778, "bracket-spacing")
    assert f.severity == "warning"


def test_en_sentence_255_form_in_two_synsets() -> None:
    """``patients ; require ; less attention from nurses`` is in synset 1 (line 8658) and,
    via the optional ``[from nurses]``, in synset 7 (line 8680)."""
    lines = gold_lines("en")
    assert lines[8655].startswith("sent_id:255\t")
    assert lines[8658] == "patients --> require --> less attention from nurses"
    assert lines[8680] == "patients --> require --> less attention [from nurses]"
    run = validate_upstream_gold("en")
    f = finding(run, 8680, "duplicate-form")
    assert f.severity == "warning"
    assert "patients ; require ; less attention from nurses" in f.message
    assert "sentence 255" in f.message and "8656" in f.message
    # ... and the sibling ``less attention from [other] staff`` against synset 2.
    assert "less attention from other staff" in finding(run, 8681, "duplicate-form").message


def test_en_absent_token_strategie() -> None:
    """Sentence 57 says "strategies"; the gold on line 2087 has the typo "strategie"."""
    lines = gold_lines("en")
    assert lines[2045].startswith("sent_id:57\t")
    assert "strategie " in lines[2087]
    assert "strategie " not in lines[2045]
    f = finding(validate_upstream_gold("en"), 2087, "absent-token")
    assert f.severity == "warning"
    assert f.message.endswith("sentence 57: strategie")


def test_de_malformed_header_246() -> None:
    """``14-> Cluster 6:`` has a short arrow; still a header (SPEC §1)."""
    assert gold_lines("de")[246] == "14-> Cluster 6:"
    assert finding(validate_upstream_gold("de"), 246, "malformed-header").severity == "error"


def test_de_lone_brackets() -> None:
    """``Morgenshow-Moderator]`` (245) and ``unserem] Ballon`` (1519-1521) lack their ``[``."""
    run = validate_upstream_gold("de")
    assert gold_lines("de")[245].startswith("Morgenshow-Moderator] ")
    assert "Morgenshow-Moderator]" in finding(run, 245, "lone-bracket").message
    for n in (1519, 1520, 1521):
        assert gold_lines("de")[n].startswith("unserem] Ballon --> ")
        assert "unserem] Ballon" in finding(run, n, "lone-bracket").message


def test_de_doubled_whitespace() -> None:
    """German has many doubled spaces, e.g. ``bis 1941  in`` on line 182."""
    run = validate_upstream_gold("de")
    assert "1941  in" in gold_lines("de")[182]
    assert finding(run, 182, "whitespace").severity == "warning"
    flagged = lines_of(run, "whitespace")
    lines = gold_lines("de")
    # Every triple line with a doubled space is flagged (lines of only whitespace are too).
    doubled = {n for n, s in enumerate(lines) if " --> " in s and re.search(r"\s{2}", s)}
    assert doubled <= flagged
    assert len(flagged) > 100


def test_zh_stray_line_2080() -> None:
    """``2 0 6 :`` is a corrupted header: reported and ignored."""
    assert gold_lines("zh")[2080] == "2 0 6 :"
    f = finding(validate_upstream_gold("zh"), 2080, "stray-line")
    assert f.severity == "error"
    assert "2 0 6 :" in f.message


def test_zh_stray_line_keeps_next_triple_in_current_synset() -> None:
    """SPEC §1: the triple after an ignored line stays in the synset opened on line 2078."""
    sentence = load_gold(str(GOLD_FILES["zh"])).sentences["206"]
    assert [c.line for c in sentence.clusters][:3] == [2076, 2078, 2082]
    assert [t.line for t in sentence.clusters[1].triples] == [2079, 2081]


def test_zh_lone_bracket_2851() -> None:
    run = validate_upstream_gold("zh")
    assert gold_lines("zh")[2851].count("]") == gold_lines("zh")[2851].count("[") + 1
    assert finding(run, 2851, "lone-bracket").severity == "error"


def test_gold_kind_is_detected_without_kind_option(cli: RunCli) -> None:
    """A file starting with ``sent_id:`` is validated as gold without ``--kind``."""
    run = run_validate(cli, "--lang", "en", GOLD_FILES["en"])
    assert run.findings == validate_upstream_gold("en").findings


def test_gold_json_has_the_same_findings_as_text(cli: RunCli) -> None:
    """``--format json`` lists the same diagnostics with the same totals."""
    result = cli("validate", "--kind", "gold", "--lang", "en", "--format", "json", GOLD_FILES["en"])
    assert result.exit_code == 1
    doc = orjson.loads(result.stdout)
    text = validate_upstream_gold("en")
    errors = sum(f.severity == "error" for f in text.findings)
    warnings = sum(f.severity == "warning" for f in text.findings)
    assert (doc["errors"], doc["warnings"]) == (errors, warnings)
    [entry] = doc["files"]
    assert (entry["errors"], entry["warnings"], entry["kind"]) == (errors, warnings, "gold")
    got = [(d["line"], d["severity"], d["code"], d["message"]) for d in entry["diagnostics"]]
    assert got == [(f.line, f.severity, f.code, f.message) for f in text.findings]


# --------------------------------------------------------------------------- hand-made gold


def write(path: Path, text: str | bytes) -> Path:
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return path


def test_hand_made_gold_every_parser_check(cli: RunCli, tmp_path: Path) -> None:
    """Each structural defect is reported once, on its own line, with its code."""
    gold = write(
        tmp_path / "gold.txt",
        "sent_id:1\tHe served as the first Prime Minister .\n"  # 1
        "1--> Cluster 1:\n"  # 2 empty synset
        "1--> Cluster 2:\n"  # 3
        "He --> served as --> [the] first Prime Minister\n"  # 4
        "   \n"  # 5 only whitespace
        "sent_id:1\tA second block with the same id .\n"  # 6
        "1--> Cluster 1:\n"  # 7 (ignored with its block)
        "X --> y --> z\n"  # 8
        "\n"  # 9
        "sent_id:2\tShe ran .\n"  # 10
        "She --> ran --> fast\n"  # 11 before any header
        "2--> Cluster 1:\n"  # 12
        "She --> ran --> []\n"  # 13
        "She --> ran [[fast]] --> x\n",  # 14
    )
    run = run_validate(cli, "--kind", "gold", gold)
    got = {(f.line, f.severity, f.code) for f in run.findings}
    assert got == {
        (2, "error", "empty-cluster"),
        (5, "warning", "whitespace"),
        (6, "error", "duplicate-sentence-id"),
        (11, "error", "outside-cluster"),
        (13, "error", "empty-brackets"),
        (13, "error", "empty-slot"),
        (14, "error", "nested-bracket"),
        (14, "warning", "absent-token"),
    }
    assert run.exit_code == 1


def test_gold_with_warnings_only_passes_unless_strict(cli: RunCli, tmp_path: Path) -> None:
    """Warnings alone give exit 0; ``--strict`` makes them fail."""
    gold = write(
        tmp_path / "gold.txt",
        "sent_id:1\tHe served as the first Prime Minister .\n"
        "1--> Cluster 1:\n"
        "He --> served  as --> [the] first Prime Minister\n",
    )
    run = run_validate(cli, "--kind", "gold", gold)
    assert [(f.line, f.severity, f.code) for f in run.findings] == [(3, "warning", "whitespace")]
    assert run.exit_code == 0
    assert run_validate(cli, "--kind", "gold", "--strict", gold).exit_code == 1


def test_clean_gold_has_no_finding(cli: RunCli, tmp_path: Path) -> None:
    """A well-formed gold file gives no line and exit 0 even under --strict."""
    gold = write(
        tmp_path / "gold.txt",
        "sent_id:1\tHe served as the first Prime Minister .\n"
        "1--> Cluster 1:\n"
        "He --> served as --> [the] [first] Prime Minister\n",
    )
    run = run_validate(cli, "--kind", "gold", "--strict", gold)
    assert (run.exit_code, run.findings) == (0, ())
    assert summary_counts(run.stderr) == (0, 0, 1)


# --------------------------------------------------------------------------- submissions

SUBMISSION_LINES: list[tuple[bytes, tuple[str, str] | None]] = [
    (b"1\tHe\tserved as\tthe first Prime Minister", None),  # 1 fine
    (b"1\tHe\tserved", ("error", "columns")),  # 2
    # An empty slot is scored (as an FP), as `score` does: a warning in both commands.
    (b"1\t \tserved\tas", ("warning", "empty-slot")),  # 3
    (b"1\tHe\tserved as\tthe  first Prime Minister", ("warning", "duplicate-line")),  # 4
    (b"99999\tHe\tserved\tas", ("warning", "unknown-sentence-id")),  # 5
    (b"1\tHe\tserved\tas the first Prime Minister of Narnia", ("warning", "implicit")),  # 6
    (b"1\tHe\tserved\t\xff\xfe", ("error", "encoding")),  # 7
    (b"1\tHe\tser\x00ved\tas", ("error", "nul-byte")),  # 8
    (b"", None),  # 9 blank lines are skipped
    (b"1\tHe\tbecame\ta founding\tjustice", None),  # 10 n-ary: fine
]


@pytest.fixture
def bad_submission(tmp_path: Path) -> Path:
    return write(tmp_path / "bad.tsv", b"\n".join(line for line, _ in SUBMISSION_LINES) + b"\n")


def test_submission_each_problem_on_its_line(cli: RunCli, bad_submission: Path) -> None:
    """Columns, empty slots, duplicates, unknown ids, implicit, bytes, NUL: one line each."""
    run = run_validate(cli, "--lang", "en", bad_submission)
    expected = [(n, *want) for n, (_, want) in enumerate(SUBMISSION_LINES, 1) if want]
    assert [(f.line, f.severity, f.code) for f in run.findings] == expected
    assert {f.path for f in run.findings} == {str(bad_submission)}
    assert "narnia" in finding(run, 6, "implicit").message
    assert "line 1" in finding(run, 4, "duplicate-line").message
    assert run.exit_code == 1
    assert summary_counts(run.stderr) == (3, 4, 1)


def test_submission_json_has_the_same_counts(cli: RunCli, bad_submission: Path) -> None:
    text = run_validate(cli, "--lang", "en", bad_submission)
    result = cli("validate", "--lang", "en", "--format", "json", bad_submission)
    assert result.exit_code == text.exit_code == 1
    doc = orjson.loads(result.stdout)
    assert (doc["errors"], doc["warnings"]) == (3, 4)
    [entry] = doc["files"]
    assert (entry["errors"], entry["warnings"], entry["kind"]) == (3, 4, "submission")
    got = [(d["line"], d["severity"], d["code"]) for d in entry["diagnostics"]]
    assert got == [(f.line, f.severity, f.code) for f in text.findings]


def test_submission_warnings_fail_only_under_strict(cli: RunCli, tmp_path: Path) -> None:
    """An unknown id and an implicit extraction are warnings: exit 0, or 1 with --strict."""
    sub = write(
        tmp_path / "warn.tsv",
        "1\tHe\tserved as\tthe first Prime Minister\n"
        "424242\tHe\tserved as\tPrime Minister\n"
        "1\tShe\tserved as\tPrime Minister\n",
    )
    run = run_validate(cli, "--lang", "en", sub)
    assert [(f.line, f.code) for f in run.findings] == [(2, "unknown-sentence-id"), (3, "implicit")]
    assert run.exit_code == 0
    assert run_validate(cli, "--lang", "en", "--strict", sub).exit_code == 1


def test_upstream_minie_duplicates_are_warnings(cli: RunCli) -> None:
    """MinIE repeats two extractions: reported, exit 0, but --strict fails it."""
    run = run_validate(cli, "--lang", "en", example("en", "minie"))
    assert [(f.line, f.code) for f in run.findings] == [
        (322, "duplicate-line"),
        (464, "duplicate-line"),
    ]
    assert run.exit_code == 0
    assert run_validate(cli, "--lang", "en", "--strict", example("en", "minie")).exit_code == 1


@pytest.mark.parametrize(("lang", "system"), UPSTREAM_SUBMISSIONS)
def test_upstream_submissions_have_no_error(cli: RunCli, lang: str, system: str) -> None:
    """The published system outputs are valid input: 0 errors, exit 0."""
    run = run_validate(cli, "--lang", lang, example(lang, system))
    assert run.exit_code == 0, run.stdout
    assert not [f for f in run.findings if f.severity == "error"]
    assert summary_counts(run.stderr)[0] == 0


def test_several_files_are_summed(cli: RunCli, bad_submission: Path) -> None:
    run = run_validate(cli, "--lang", "en", example("en", "clausie"), bad_submission)
    assert summary_counts(run.stderr) == (3, 4, 2)
    assert run.exit_code == 1


@pytest.mark.parametrize("content", [b"", b"\n\n  \n"])
def test_empty_submission_is_an_error(cli: RunCli, tmp_path: Path, content: bytes) -> None:
    """SPEC §2: an empty file is an input error naming the file."""
    sub = write(tmp_path / "empty.tsv", content)
    result = cli("validate", "--lang", "en", sub)
    assert result.exit_code == 1
    assert result.stdout.startswith(f"{sub}: error: ")
    assert result.stdout.rstrip().endswith("[empty-file]")


def test_missing_path_exits_2(cli: RunCli, tmp_path: Path) -> None:
    result = cli("validate", "--lang", "en", tmp_path / "nope.tsv")
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"benchie: {tmp_path / 'nope.tsv'}: error: no such file"
    ]


def test_directory_exits_2(cli: RunCli, tmp_path: Path) -> None:
    result = cli("validate", "--lang", "en", tmp_path)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "directory" in lines[0] and str(tmp_path) in lines[0]


def test_missing_path_among_good_ones_exits_2(cli: RunCli, tmp_path: Path) -> None:
    result = cli("validate", "--lang", "en", example("en", "clausie"), tmp_path / "nope.tsv")
    assert result.exit_code == 2


def test_gold_file_option_replaces_the_store(cli: RunCli, tmp_path: Path) -> None:
    """``--gold-file``: ids are checked against that file, not the store's gold."""
    gold = write(
        tmp_path / "mine.txt",
        "sent_id:1\tHe served as the first Prime Minister .\n"
        "1--> Cluster 1:\n"
        "He --> served as --> [the] first Prime Minister\n",
    )
    sub = write(
        tmp_path / "sub.tsv",
        "1\tHe\tserved as\tthe first Prime Minister\n2\tGraner\thandcuffed\thim\n",
    )
    run = run_validate(cli, "--lang", "en", "--gold-file", gold, sub)
    assert [(f.line, f.code) for f in run.findings] == [(2, "unknown-sentence-id")]
    # The same file against the store's gold: sentence 2 exists there.
    assert run_validate(cli, "--lang", "en", sub).findings == ()


def test_unknown_gold_version_is_one_line(cli: RunCli) -> None:
    result = cli("validate", "--lang", "en", "--gold-version", "9.9.9", example("en", "clausie"))
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "9.9.9" in lines[0]


def test_gold_version_option_is_used(cli: RunCli) -> None:
    """``--gold-version 1.0.0`` (the only version) validates like the default."""
    run = run_validate(cli, "--lang", "en", "--gold-version", "1.0.0", example("en", "clausie"))
    assert (run.exit_code, run.findings) == (0, ())


def test_a_submissions_findings_are_listed_twenty_of_each_kind(cli: RunCli, tmp_path: Path) -> None:
    """CaRB's OpenIE 4 output, read as OpenIE 4, has thousands of sentences outside
    BenchIE's gold: text output lists twenty findings of each kind in file order and counts
    the rest (it listed all 2,877); JSON lists every one, and the summary counts them all."""
    import gzip

    path = tmp_path / "openie4_output.txt"
    path.write_bytes(gzip.decompress((DATA / "carb" / "openie4_output.txt.gz").read_bytes()))
    res = cli("validate", "--lang", "en", str(path))
    assert res.exit_code == 0, res.output
    listed = [line for line in res.stdout.splitlines() if ": warning: " in line]
    codes = [line.rsplit("[", 1)[1].rstrip("]") for line in listed]
    assert {c: codes.count(c) for c in set(codes)} == {
        "unaligned-sentence": 20,
        "empty-slot": 20,
        "implicit": 15,
    }
    notes = [line for line in res.stdout.splitlines() if ": note: " in line and "more" in line]
    assert notes == [
        f"{path}: note: 2,796 more [unaligned-sentence] finding(s) not listed "
        "(--format json lists all)",
        f"{path}: note: 26 more [empty-slot] finding(s) not listed (--format json lists all)",
    ]
    assert summary_counts(res.stderr) == (0, 2877, 1)
    full = orjson.loads(cli("validate", "--lang", "en", "--format", "json", str(path)).stdout)
    assert len(full["files"][0]["diagnostics"]) == 2877


def test_findings_are_counted_once_not_per_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--max-errors`` asks for the error count after every line; it was recounted from
    all findings so far, so N duplicate lines read N²/2 severities (100,000 lines took
    minutes). Each finding's severity is read a bounded number of times now."""
    from benchie_cli.errors import Diagnostic
    from benchie_cli.validate import validate_submission

    reads = 0
    field = Diagnostic.severity

    def counted(self: Diagnostic) -> str:
        nonlocal reads
        reads += 1
        return field.__get__(self)  # type: ignore[no-any-return]

    monkeypatch.setattr(Diagnostic, "severity", property(counted))
    n = 2000
    path = tmp_path / "same.tsv"
    path.write_text("1\tHe\tserved\tas the first Prime Minister of Australia\n" * n)
    report = validate_submission(str(path), None, "en", max_errors=100)
    assert (report.errors, report.warnings) == (0, n - 1)  # every line but the first
    assert reads <= 2 * n
