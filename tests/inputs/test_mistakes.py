"""The mistakes people make with a submission (benchie_cli.inputs.mistakes), each built by
transforming a real example submission: caught by ``validate`` (a warning naming cause and
fix, an error under --strict) and by ``score`` (a hint on stderr, an error under --strict),
and ``--retokenize`` recovering the score of a file tokenised unlike the gold."""

from __future__ import annotations

import gzip
import re
import subprocess
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import pytest

from benchie_cli.inputs.mistakes import MistakeCheck, read_head
from tests.conftest import DATA, ENGLISH_SYSTEMS, GOLD_DIR, RunCli, example

RunProcess = Callable[..., subprocess.CompletedProcess[str]]


def _lines(lang: str, system: str) -> list[str]:
    return example(lang, system).read_text(encoding="utf-8").splitlines()


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _shift(lines: list[str], by: int) -> list[str]:
    return [f"{int(sid) + by}\t{rest}" for sid, rest in (line.split("\t", 1) for line in lines)]


def _detokenise(line: str) -> str:
    """Glue ``n't`` and ``'s`` to the word before, as untokenised text has them."""
    return re.sub(r"(\S) (n't|'s)\b", r"\1\2", line)


def _without_spaces(line: str) -> str:
    sid, *slots = line.split("\t")
    return "\t".join([sid, *(slot.replace(" ", "") for slot in slots)])


def _openie4(line: str) -> str:
    _, subject, relation, obj = line.split("\t")[:4]
    return (
        f"0.93\t\tSimpleArgument({subject},List([0, 4)))\tRelation({relation},List([5, 9)))"
        f"\tSimpleArgument({obj},List([10, 14)))\tThe sentence ."
    )


@dataclass(frozen=True)
class Mistake:
    name: str
    make: Callable[[], list[str]]
    code: str
    message: str  # a fragment of the finding's message: the cause and the fix
    lang: str = "en"
    extra: tuple[str, ...] = ()
    #: validate's and score's exit status without --strict (a CSV file does not parse, so
    #: validate has column errors and score cannot score it: its error names the cause; a
    #: mistake that leaves no extraction scorable is an error too, not a silent 0.0, and
    #: validate says so with a `nothing-scorable` error).
    validate_exit: int = 0
    score_exit: int = 0
    #: score's exit status under --strict: 1 (a warning made an error) unless nothing parses.
    strict_exit: int = 1


CLAUSIE = ("en", "clausie")
#: The start of the curve `score --benchmark carb --curves DIR` writes (CaRB's .dat).
CURVE = ["Precision\tRecall\tConfidence", "1\t0.0\t0.9532179910831676", "0.5\t0.01\t0.5"]
MISTAKES = [
    Mistake(
        "curve",
        lambda: CURVE,
        "curve-file",
        "this is a precision-recall curve (a .dat file that `score --curves` or an original "
        "scorer writes), not a system's output: give the output the curve was drawn from",
        validate_exit=1,
        score_exit=2,
        strict_exit=2,
    ),
    Mistake(
        "header",
        lambda: ["sent_id\tsubject\trelation\tobject", *_lines(*CLAUSIE)],
        "header-row",
        "line 1 is a header row ('sent_id\\tsubject\\trelation\\tobject'), not an extraction: "
        "score skips it; remove it",
    ),
    Mistake(
        "comma",
        lambda: [line.replace("\t", ",") for line in _lines(*CLAUSIE)],
        "wrong-separator",
        "lines are comma-separated, not TAB-separated (20 of 20 sampled lines; a CSV file "
        "saved as .tsv?): write sent_id, subject, relation and object separated by TABs",
        validate_exit=1,
        score_exit=2,
        strict_exit=2,
    ),
    Mistake(
        "semicolon",
        lambda: [line.replace("\t", ";") for line in _lines(*CLAUSIE)],
        "wrong-separator",
        "lines are semicolon-separated, not TAB-separated",
        validate_exit=1,
        score_exit=2,
        strict_exit=2,
    ),
    Mistake(
        "zero_based",
        lambda: _shift(_lines(*CLAUSIE), -1),
        "shifted-ids",
        "ids look 0-based: 100% of sampled extractions fit sentence id+1 better than "
        "sentence id; add 1 to every id",
        validate_exit=1,
        score_exit=2,
    ),
    Mistake(
        "shifted_up",
        lambda: _shift(_lines(*CLAUSIE), 1),
        "shifted-ids",
        "ids look shifted by +1: 100% of sampled extractions fit sentence id-1 better than "
        "sentence id; subtract 1 from every id",
        validate_exit=1,
        score_exit=2,
    ),
    Mistake(
        "detokenised",
        lambda: [_detokenise(line) for line in _lines(*CLAUSIE)],
        "tokenisation",
        "72 of 695 sampled extractions are tokenised unlike the gold ('s attached (60), "
        'n\'t attached (12); e.g. "foundation\'s" where sentence 15 has "foundation \'s"): '
        "split words as the gold's sentences do, or score with --retokenize",
    ),
    Mistake(
        "chinese_without_spaces",
        lambda: [_without_spaces(line) for line in _lines("zh", "m2oie_zh")],
        "tokenisation",
        "564 of 581 sampled extractions are tokenised unlike the gold (Chinese without spaces "
        "(564); e.g. '担任' where sentence 1 has '担 任')",
        lang="zh",
    ),
    Mistake(
        "german_nfd",
        lambda: [unicodedata.normalize("NFD", line) for line in _lines("de", "m2oie_de")],
        "unicode-normalisation",
        "line 2 is Unicode NFD (decomposed: 'u' + U+0308 for 'ü'), the gold is NFC: its words "
        "do not match the sentence's (152 of 313 sampled lines are not NFC); normalise the "
        "file to NFC: python3 -c",
        lang="de",
    ),
    Mistake(
        "german_as_english",
        lambda: _lines("de", "m2oie_de"),
        "wrong-language",
        "the file looks German, not English: 100% of sampled extractions are explicit in "
        "the de gold, 0% in the en gold; score it with --lang de",
        validate_exit=1,
        score_exit=2,
    ),
    Mistake(
        "openie4_as_tsv",
        lambda: [_openie4(line) for line in _lines(*CLAUSIE)],
        "native-format",
        "this looks like OpenIE 4 output, not BenchIE TSV: read it with --input-format "
        "openie4 (or auto), or convert it with `benchie convert --from openie4`",
        extra=("--input-format", "benchie"),
        validate_exit=1,
        score_exit=2,
    ),
]


@pytest.fixture
def made(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Mistake, Path]:
    mistake: Mistake = request.param
    return mistake, _write(tmp_path / f"{mistake.name}.tsv", mistake.make())


@pytest.mark.parametrize("made", MISTAKES, ids=[m.name for m in MISTAKES], indirect=True)
def test_validate_warns_naming_cause_and_fix(
    made: tuple[Mistake, Path], cli_process: RunProcess
) -> None:
    mistake, path = made
    args = ("validate", "--lang", mistake.lang, *mistake.extra)
    res = cli_process(*args, "--format", "json", path)
    assert res.returncode == mistake.validate_exit, res.stderr
    found = [
        d for d in orjson.loads(res.stdout)["files"][0]["diagnostics"] if d["code"] == mistake.code
    ]
    assert len(found) == 1
    assert found[0]["severity"] == "warning" and mistake.message in found[0]["message"]
    strict = cli_process(*args, "--strict", path)
    assert strict.returncode == 1
    assert f"[{mistake.code}]" in strict.stdout


@pytest.mark.parametrize("made", MISTAKES, ids=[m.name for m in MISTAKES], indirect=True)
def test_score_hints_naming_cause_and_fix(
    made: tuple[Mistake, Path], cli_process: RunProcess
) -> None:
    mistake, path = made
    args = ("score", "--lang", mistake.lang, *mistake.extra)
    res = cli_process(*args, path)
    assert res.returncode == mistake.score_exit, res.stderr
    assert mistake.message in res.stderr and f"[{mistake.code}]" in res.stderr
    strict = cli_process(*args, "--strict", path)
    assert strict.returncode == mistake.strict_exit
    assert f"[{mistake.code}]" in strict.stderr and strict.stdout == ""


@pytest.mark.parametrize(
    "lang, system",
    [("en", s) for s in ENGLISH_SYSTEMS] + [("de", "m2oie_de"), ("zh", "m2oie_zh")],
)
def test_real_submissions_show_no_mistake(lang: str, system: str) -> None:
    """No false alarm on the upstream systems' files, with every check run."""
    texts = {}
    sentence = re.compile(r"^sent_id:(\S+)\t(.*)$")
    gold = next((GOLD_DIR / "1.1.0" / lang / "default").glob("*.txt"))
    for line in gold.read_text(encoding="utf-8").splitlines():
        m = sentence.match(line)
        if m:
            texts[m.group(1)] = m.group(2)
    assert MistakeCheck(lang, texts).check(read_head(str(example(lang, system)))) == []


def test_hint_from_stdin_reads_it_once(cli_process: RunProcess) -> None:
    """The sample comes from the scan's own first block: stdin needs no second read. (A
    real process: an in-process run would leave its spooled stdin to the next test.)"""
    data = "\n".join(_shift(_lines(*CLAUSIE), -1)) + "\n"
    res = cli_process("score", "-", input=data)
    assert res.returncode == 2 and "ids look 0-based" in res.stderr
    assert "none of its 695 extractions can be scored" in res.stderr  # every line scanned


def _score_json(cli: RunCli, out: Path, *args: str | Path) -> dict[str, object]:
    res = cli("score", "-o", out, *args)
    assert res.exit_code == 0, res.stderr
    doc: dict[str, object] = orjson.loads(out.read_bytes())
    return doc


def test_retokenize_recovers_the_detokenised_score(cli: RunCli, tmp_path: Path) -> None:
    """Gluing n't and 's costs ClausIE 36 TP; mapping each glued word back onto its
    sentence's tokens is unambiguous here, so the original score comes back exactly."""
    path = _write(tmp_path / "detok.tsv", [_detokenise(x) for x in _lines(*CLAUSIE)])
    original = _score_json(cli, tmp_path / "o.json", example(*CLAUSIE))["systems"][0]
    broken = _score_json(cli, tmp_path / "b.json", path)["systems"][0]
    fixed_doc = _score_json(cli, tmp_path / "f.json", "--retokenize", path)
    fixed = fixed_doc["systems"][0]
    assert (original["tp"], round(original["f1"], 4)) == (345, 0.3389)
    assert (broken["tp"], round(broken["f1"], 4)) == (309, 0.3055)
    assert (fixed["tp"], fixed["fp"], fixed["f1"]) == (345, 341, original["f1"])
    assert fixed["retokenized"] == {"mapped": 77, "left": 0}
    assert "|retokenize|" in fixed_doc["signature"] and fixed_doc["options"]["retokenize"]
    # Off by default: the report of a file scored without it has no trace of it.
    assert "retokenize" not in original["name"] and "retokenized" not in original
    assert "retokenize" not in orjson.loads((tmp_path / "o.json").read_bytes())["options"]


def test_retokenize_recovers_most_of_chinese_without_spaces(cli: RunCli, tmp_path: Path) -> None:
    path = _write(tmp_path / "zh.tsv", [_without_spaces(x) for x in _lines("zh", "m2oie_zh")])
    broken = _score_json(cli, tmp_path / "b.json", "--lang", "zh", path)["systems"][0]
    fixed = _score_json(cli, tmp_path / "f.json", "--lang", "zh", "--retokenize", path)
    system = fixed["systems"][0]
    assert broken["tp"] == 0
    # 102 TP with the spaces; one slot's run is ambiguous and stays unmapped.
    assert (system["tp"], round(system["f1"], 4)) == (101, 0.1282)
    assert system["retokenized"] == {"mapped": 1243, "left": 195}


def test_retokenize_in_validate_strip_implicit_and_analyze(cli: RunCli, tmp_path: Path) -> None:
    path = _write(tmp_path / "detok.tsv", [_detokenise(x) for x in _lines(*CLAUSIE)])
    res = cli("validate", "--retokenize", path)
    assert res.exit_code == 0 and "[tokenisation]" not in res.stdout
    assert "--retokenize mapped 77 slot(s)" in res.stdout and "[implicit]" not in res.stdout
    kept = tmp_path / "kept.tsv"
    assert cli("strip-implicit", "--retokenize", path, "-o", kept).exit_code == 0
    assert _score_json(cli, tmp_path / "k.json", kept)["systems"][0]["tp"] == 345
    res = cli("analyze", "--retokenize", "--resamples", "10", "--format", "json", path)
    assert res.exit_code == 0 and "|retokenize|" in orjson.loads(res.stdout)["signature"]


def test_undeclared_confidence_column_is_named(cli_process: Any, tmp_path: Path) -> None:
    """A last column of confidences without the directive joins the object: every
    extraction is lost (F1 0.0, exit 0), and the hint blamed the language."""
    path = tmp_path / "five.tsv"
    lines = example("en", "clausie").read_text(encoding="utf-8").splitlines()
    path.write_text("".join(f"{line}\t0.{n % 10}5\n" for n, line in enumerate(lines)), "utf-8")
    checked = cli_process("validate", "--lang", "en", path)
    assert checked.returncode == 0
    assert "[undeclared-confidence]" in checked.stdout
    assert "#benchie-tsv confidence" in checked.stdout
    scored = cli_process("score", "--lang", "en", path)
    assert scored.returncode == 0 and "hint:" in scored.stderr
    assert "undeclared-confidence" in scored.stderr
    assert cli_process("score", "--strict", "--lang", "en", path).returncode == 1
    fixed = tmp_path / "fixed.tsv"
    fixed.write_text("#benchie-tsv confidence\n" + path.read_text("utf-8"), "utf-8")
    assert "0.3389" in cli_process("score", "--lang", "en", fixed).stdout


def test_json_lines_with_a_broken_object_are_named(cli_process: Any, tmp_path: Path) -> None:
    """One truncated object made auto-detection read the file as TSV, and the error only
    counted columns. Auto-detection now takes the format every other line fits, whose reader
    names the line; two broken objects among the lines it samples get the hint."""
    path = tmp_path / "bad.jsonl"
    good = '{"sent_id": "1", "subject": "He", "relation": "became", "object": "a justice"}\n'
    path.write_text(good + '{"sent_id": "1", "subject":\n' + good, encoding="utf-8")
    res = cli_process("score", "--lang", "en", path)
    assert res.returncode == 2 and f"{path}:2: error: not a JSON object" in res.stderr
    two = tmp_path / "two.jsonl"
    broken = '{"sent_id": "1", "subject":\n'
    two.write_text(good * 3 + broken + good + broken + good, encoding="utf-8")
    res = cli_process("score", "--lang", "en", two)
    assert res.returncode == 2 and "looks like JSON Lines" in res.stderr
    assert "--input-format jsonl" in res.stderr
    exact = cli_process("score", "--lang", "en", "--input-format", "jsonl", path)
    assert exact.returncode == 2 and f"{path}:2: error: not a JSON object" in exact.stderr


def test_score_help_lists_every_strict_warning(cli: RunCli) -> None:
    """Each warning --strict turns into an error is named in ``score --help``, and the
    registry the help is built from is exactly the set of mistakes this file provokes."""
    from benchie_cli.inputs.mistakes import CODES

    provoked = {m.code for m in MISTAKES} | {"undeclared-confidence"}  # its own test above
    assert set(CODES) == provoked
    shown = "".join(cli("score", "--help").stdout.split())  # click wraps at hyphens too
    for code in (*CODES, "unknown-sentence-id", "empty-slot", "mostlyimplicit"):
        assert code in shown, code


@pytest.mark.parametrize(
    ("args", "compressed"),
    [
        (("score", "--benchmark", "carb", "--input-format", "benchie"), False),
        (("score", "--benchmark", "carb"), False),
        (("score", "--benchmark", "carb"), True),
        (("score", "--benchmark", "oie2016"), False),
        (("score", "--suite"), False),
        (("convert", "--lang", "en", "-o", "-"), False),
        (("strip-implicit", "--lang", "en", "-o", "-"), False),
    ],
    ids=["carb-tsv", "carb-auto", "carb-gzip", "oie2016-auto", "suite", "convert", "strip"],
)
def test_a_curve_given_to_another_command_is_named(
    cli_process: RunProcess, tmp_path: Path, args: tuple[str, ...], compressed: bool
) -> None:
    """Every benchmark's reader, the suite, ``convert`` and ``strip-implicit`` name a curve
    file as one (``--curves`` writes it beside the reports), not only by what its columns
    lack; where no reader recognised the file, that is said first (any other advice would
    mislead). A trailing TAB on its first line changes nothing."""
    text = "\n".join([CURVE[0] + "\t", *CURVE[1:]]) + "\n"
    path = tmp_path / "openie4_output.dat"
    if compressed:
        path = path.with_suffix(".dat.gz")
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text, encoding="utf-8")
    res = cli_process(*args, path)
    assert res.returncode == 2, res.stderr
    assert "this is a precision-recall curve" in res.stderr and "[curve-file]" in res.stderr
    assert res.stderr.count("\n") == 1 and res.stdout == ""


@pytest.mark.parametrize(
    ("lines", "code"),
    [
        ([CURVE[0]] + [f"{1 / k}\t{k / 100}\t{1 - k / 100}" for k in range(1, 40)], "curve-file"),
        (["a,b,c,d"] + [f"{k},x,y,z" for k in range(1, 40)], "wrong-separator"),
    ],
    ids=["curve", "csv"],
)
def test_validate_lists_one_line_finding_after_a_whole_file_mistake(
    cli_process: RunProcess, tmp_path: Path, lines: list[str], code: str
) -> None:
    """A curve or CSV file makes every line unreadable alike: after the cause, ``validate``
    lists the first column error and counts the others (it listed twenty copies); JSON
    still lists every one."""
    path = tmp_path / "out.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    res = cli_process("validate", path)
    assert res.returncode == 1
    out = res.stdout.splitlines()
    assert out[0].endswith(f"[{code}]")
    assert sum(line.endswith("[columns]") for line in out) == 1
    assert (
        out[-1]
        == f"{path}: note: 39 more [columns] finding(s) not listed (--format json lists all)"
    )
    listed = orjson.loads(cli_process("validate", "--format", "json", path).stdout)
    codes = [d["code"] for f in listed["files"] for d in f["diagnostics"]]
    assert codes.count("columns") == 40


def test_a_whole_file_mistake_shortens_only_the_findings_it_explains(
    cli_process: RunProcess, tmp_path: Path
) -> None:
    """A CSV head explains its lines' column errors, not the findings of the valid TSV lines
    after it: those are still listed twenty of each kind, and the counts of those not
    listed follow the order in which the codes first appear."""
    csv = [f"{k},x,y,z" for k in range(1, 26)]
    tsv = [f"{9000 + k}\tx\ty\tz" for k in range(1, 26)]
    path = tmp_path / "mixed.tsv"
    path.write_text("\n".join(csv + tsv) + "\n", encoding="utf-8")
    res = cli_process("validate", path)
    out = res.stdout.splitlines()
    assert out[0].endswith("[wrong-separator]")
    assert sum(line.endswith("[columns]") for line in out) == 1
    assert sum(line.endswith("[unknown-sentence-id]") for line in out) == 20
    notes = [line.split(": note: ")[1] for line in out if ": note: " in line]
    assert notes == [
        "24 more [columns] finding(s) not listed (--format json lists all)",
        "5 more [unknown-sentence-id] finding(s) not listed (--format json lists all)",
    ]


@pytest.mark.parametrize(
    "args",
    [
        ("--benchmark", "carb", "--input-format", "openie4"),
        ("--benchmark", "carb", "--input-format", "openie5"),
        ("--benchmark", "oie2016", "--input-format", "openie4"),
        ("--benchmark", "oie2016", "--input-format", "clausie"),
        ("--input-format", "openie4"),
        ("--metric", "benchie,carb", "--input-format", "carb"),
        ("--suite", "--input-format", "openie4"),
    ],
    ids=[
        "carb-openie4",
        "carb-openie5",
        "oie2016-openie4",
        "oie2016-clausie",
        "benchie-openie4",
        "benchie-carb",
        "suite",
    ],
)
def test_a_curve_read_as_the_format_given_is_named_as_the_cause(
    cli_process: RunProcess, tmp_path: Path, args: tuple[str, ...]
) -> None:
    """With ``--input-format`` given, the reader of that format fails on a curve file in
    its own words (columns, a confidence that is no number, no extraction), whether a
    benchmark's original reader or benchie's own conversion: the curve is named after
    them as the likely cause."""
    path = tmp_path / "openie4_output.dat"
    path.write_text("\n".join(CURVE) + "\n", encoding="utf-8")
    res = cli_process("score", *args, path)
    assert res.returncode == 2, res.stderr
    assert "; likely cause: this is a precision-recall curve" in res.stderr
    assert res.stderr.rstrip().endswith("[curve-file]") and res.stderr.count("\n") == 1


# --------------------------------------------------------------------------- a native format given


@pytest.mark.parametrize(
    "fmt", ["openie4", "openie5", "clausie", "stanford", "ollie", "openie6", "carb", "props"]
)
def test_a_native_format_given_to_benchie_tsv_says_so_first(cli: RunCli, fmt: str) -> None:
    """A BenchIE TSV file read with a native --input-format got the reader's words alone;
    props even blamed --lang. The likely cause is said first, by score and validate."""
    clausie = example("en", "clausie")
    res = cli("score", "--lang", "en", "--input-format", fmt, clausie)
    assert res.exit_code == 2, res.stderr
    assert len(res.stderr.splitlines()) == 1, res.stderr
    assert res.stderr.startswith(
        f"benchie: {clausie}"
    ) and "error: this looks like BenchIE TSV: --input-format benchie (or auto) reads it; " in (
        res.stderr
    )
    checked = cli("validate", "--lang", "en", "--input-format", fmt, clausie)
    assert checked.exit_code in (1, 2)
    assert "this looks like BenchIE TSV: --input-format benchie (or auto)" in (
        checked.stdout + checked.stderr
    )


def test_a_native_file_read_as_another_native_format_is_not_called_benchie_tsv(
    cli: RunCli, tmp_path: Path
) -> None:
    path = tmp_path / "oie4.txt"
    path.write_bytes(gzip.decompress((DATA / "carb/openie4_output.txt.gz").read_bytes()))
    res = cli("score", "--lang", "en", "--input-format", "clausie", path)
    assert res.exit_code == 2 and "looks like BenchIE TSV" not in res.stderr


def test_a_header_row_is_skipped_and_its_hint_is_at_path_line(cli: RunCli, tmp_path: Path) -> None:
    """A header row was counted as an extraction (696 for ClausIE's 695) and an unknown id,
    and its hint named the system, not PATH:LINE. It is skipped: the numbers are the file's
    without it, and verify re-derives them."""
    path = _write(tmp_path / "mysys.tsv", ["sent_id\tsubject\trelation\tobject", *_lines(*CLAUSIE)])
    res = cli("score", "--lang", "en", path, "-o", tmp_path / "m.json")
    assert res.exit_code == 0, res.stderr
    assert f"benchie: {path}:1: hint: line 1 is a header row" in res.stderr
    assert "unknown-sentence-id" not in res.stderr
    with_header = orjson.loads((tmp_path / "m.json").read_bytes())["systems"][0]
    plain = _score_json(cli, tmp_path / "c.json", example(*CLAUSIE))["systems"][0]
    for key in ("extractions", "tp", "fp", "fn", "precision", "recall", "f1"):
        assert with_header[key] == plain[key], key
    assert with_header["lines"] == plain["lines"] + 1
    assert with_header["unknown_sentence_ids"] == 0
    assert cli("verify", tmp_path / "m.json").exit_code == 0
