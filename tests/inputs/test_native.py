"""Native OIE formats: detection, the extraction mapping of every reader, conversion of
CaRB's real system outputs, and the native path through score, validate, analyze and
strip-implicit (reports name the native file and its own sha256)."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from benchie_cli.errors import BenchieError
from benchie_cli.inputs.align import sentence_key
from benchie_cli.inputs.native import REGISTRY, convert, detect
from tests.conftest import DATA, EXAMPLES, GOLD_DIR, RunCli, example

CARB = DATA / "carb"
GOLD_EN = GOLD_DIR / "1.1.0" / "en" / "default" / "benchie_gold_annotations_en.txt"
Run = Callable[..., subprocess.CompletedProcess[str]]

S1 = "Obama was born in Hawaii ."
S2 = "He said `` do n't '' -LRB- twice -RRB- ."
GOLD = {"1": S1, "2": 'He said " don\'t " ( twice ) .'}

#: One hand-written file per format, and the BenchIE TSV (with confidences) it must give.
FIXTURES: dict[str, tuple[str, str]] = {
    "openie4": (
        f"0.93\tContext(he said,List([0, 7)))\tSimpleArgument(Obama,List([0, 5)))\t"
        f"Relation(was born in,List([6, 9), [10, 17)))\tSpatialArgument(Hawaii,List([18, 24)))"
        f"\t{S1}\n"
        f"0.5\t\tSimpleArgument(He,List([0, 2)))\tRelation(said,List([3, 7)))\t"
        f"SimpleArgument(do n't,List([11, 17)))\t{S2}\n",
        "1\tObama\twas born in\tHawaii\t0.93\n2\tHe\tsaid\tdo n't\t0.5\n",
    ),
    "openie5": (
        f"0.9\t\tSimpleArgument(Obama,List([0, 5)))\tRelation(was born,List(null))\t"
        f"SimpleArgument(in Hawaii,List(null)); TemporalArgument(in 1961,List([25, 32)))\t{S1}\n",
        "1\tObama\twas born\tin Hawaii in 1961\t0.9\n",
    ),
    "clausie": (
        f'{S1}\n1\t"Obama"\t"was born"\t"in Hawaii"\t-12.5\n1\t"Obama"\t"was born"\t-12.5\n'
        f'{S2}\n2\t"He"\t"said"\t"do n\'t"\t"twice"\t-3\n',
        "1\tObama\twas born\tin Hawaii\t-12.5\n1\tObama\twas born\t\t-12.5\n"
        "2\tHe\tsaid\tdo n't twice\t-3.0\n",
    ),
    "props": (
        f"-227.5\t{S1}\tborn\tsubj\tObama \tprep_in\tHawaii \tmod\tthen \n-1.25\t{S1}\tborn\t\n",
        "1\tObama\tborn\tHawaii then\t-227.5\n1\t\tborn\t\t-1.25\n",
    ),
    "reverb": (
        f"f.txt\t1\tObama\twas born in\tHawaii\t0\t1\t1\t4\t4\t5\t0.87\t{S1}\t"
        "NNP VBD VBN IN NNP .\tB-NP B-VP I-VP B-PP B-NP O\tobama\tbe bear in\thawaii\n",
        "1\tObama\twas born in\tHawaii\t0.87\n",
    ),
    "ollie": (
        f"{S1}\n0.886: (Obama; was born in; Hawaii)\n0.5: (Obama; was; born)[enabler=if x]\n\n"
        f"{S2}\n0.2: (He; said; do n't)[attrib=He said]\n",
        "1\tObama\twas born in\tHawaii\t0.886\n1\tObama\twas\tborn\t0.5\n"
        "2\tHe\tsaid\tdo n't\t0.2\n",
    ),
    "openie6": (
        f"{S1}\n0.95: (Obama ; was born ; in Hawaii ; in 1961)\n\n{S2}\n0.4: (He ; said ; twice)\n",
        "1\tObama\twas born\tin Hawaii in 1961\t0.95\n2\tHe\tsaid\ttwice\t0.4\n",
    ),
    "stanford": (
        f"{S1}\n1.000\tObama\twas born in\tHawaii\n0.333\tObama\twas\tborn\n\n"
        f"{S2}\n1.000\tHe\tsaid\ttwice\n",
        "1\tObama\twas born in\tHawaii\t1.0\n1\tObama\twas\tborn\t0.333\n2\tHe\tsaid\ttwice\t1.0\n",
    ),
    "carb": (
        f"{S1}\t0.9\twas born in\tObama\tHawaii\tin 1961\n{S2}\t0.1\tsaid\tHe\n",
        "1\tObama\twas born in\tHawaii in 1961\t0.9\n2\tHe\tsaid\t\t0.1\n",
    ),
    "allennlp": (
        f"{S1}\t<arg1> Obama </arg1> <rel> [was] born </rel> <arg2> in Hawaii </arg2> "
        "<arg3> in 1961 </arg3>\t0.95\n"
        f"{S2}\t<rel> said </rel> <arg1> He </arg1>\t-0.25\n",
        "1\tObama\t[was] born\tin Hawaii in 1961\t0.95\n2\tHe\tsaid\t\t-0.25\n",
    ),
    "json": (
        json.dumps(
            [
                {
                    "sentence": S1,
                    "triples": [
                        {
                            "arg1": "Obama",
                            "rel": "was born in",
                            "arg2": "Hawaii",
                            "arg3": "in 1961",
                            "confidence": 0.75,
                        }
                    ],
                },
                {
                    "id": 2,
                    "relations": [
                        {"head": "He", "relation": "said", "tail": "twice", "score": 0.5},
                        {"s": "He", "p": "said", "o": "do n't", "conf": 1},
                    ],
                },
            ],
            indent=1,
        )
        + "\n",
        "1\tObama\twas born in\tHawaii in 1961\t0.75\n2\tHe\tsaid\ttwice\t0.5\n"
        "2\tHe\tsaid\tdo n't\t1.0\n",
    ),
    "jsonl": (
        json.dumps(
            {
                "sentence": S1,
                "subject": "Obama",
                "relation": "was born in",
                "object": "Hawaii",
                "confidence": 0.75,
            }
        )
        + "\n"
        + json.dumps(
            {
                "sent_id": "2",
                "extractions": [
                    {"relation": "said", "args": ["He", "do n't", "twice"], "confidence": 1},
                    {"subject": "He", "relation": "said", "args": ["twice"], "confidence": 0.5},
                ],
            }
        )
        + "\n",
        "1\tObama\twas born in\tHawaii\t0.75\n2\tHe\tsaid\tdo n't twice\t1.0\n"
        "2\tHe\tsaid\ttwice\t0.5\n",
    ),
    "llm-text": (
        json.dumps({"sentence": S1, "output": "Here you go:\n1. (Obama; was born in; Hawaii)"})
        + "\n"
        + json.dumps({"sent_id": "2", "output": ['("He", "said", "do n\'t")', "None"]})
        + "\n",
        "1\tObama\twas born in\tHawaii\n2\tHe\tsaid\tdo n't\n",
    ),
}


def _convert(path: Path, fmt: str, *, confidence: bool = True) -> str:
    """``path`` converted (against the two-sentence :data:`GOLD`) to BenchIE TSV text."""
    out = io.BytesIO()
    convert(str(path), fmt, GOLD, out, confidence=confidence, pad=False)
    return out.getvalue().decode()


@pytest.mark.parametrize("fmt", sorted(FIXTURES))
def test_reader_mapping(fmt: str, tmp_path: Path) -> None:
    text, expected = FIXTURES[fmt]
    path = tmp_path / f"{fmt}.txt"
    path.write_text(text, encoding="utf-8")
    assert detect(str(path)) == fmt
    converted = _convert(path, fmt)
    if REGISTRY[fmt].confidence is False:  # an LLM's answers: no confidence to write
        assert converted == expected == _convert(path, fmt, confidence=False)
        return
    assert converted == "#benchie-tsv confidence\n" + expected
    plain = _convert(path, fmt, confidence=False)
    assert plain == "".join(line.rsplit("\t", 1)[0] + "\n" for line in expected.splitlines())


def test_registry_covers_every_fixture() -> None:
    assert set(REGISTRY) == set(FIXTURES)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*/*.tsv")), ids=lambda p: p.stem)
def test_benchie_tsv_is_never_taken_for_a_native_format(path: Path) -> None:
    assert detect(str(path)) == "benchie"


def test_jsonl_without_confidence_writes_no_directive(tmp_path: Path) -> None:
    path = tmp_path / "llm.jsonl"
    path.write_text(json.dumps({"sent_id": "1", "args": ["Obama", "Hawaii"], "relation": "r"}))
    converted = _convert(path, "jsonl")
    assert converted == "1\tObama\tr\tHawaii\n"


def test_jsonl_sentence_ids_are_counted_as_the_sentences_they_name(tmp_path: Path) -> None:
    """An id-keyed file's summary said "N kept on 0 aligned sentence(s)", and one with
    ``" 1 "`` for ``1`` (scored as 1) called every gold sentence "without extraction". Each
    gold sentence an id names counts once, by the id as written; an id the gold lacks is
    written but aligns nothing."""
    from benchie_cli.inputs.native import summary

    path = tmp_path / "llm.jsonl"
    rows = [(" 1 ", "a"), ("1", "b"), ("2", "c"), ("9", "d")]
    path.write_text(
        "".join(
            json.dumps({"sent_id": i, "subject": s, "relation": "r", "object": "o"}) + "\n"
            for i, s in rows
        )
    )
    out = io.BytesIO()
    result = convert(str(path), "jsonl", GOLD, out, confidence=True, pad=False)
    assert out.getvalue().decode().splitlines() == [
        "1\ta\tr\to", "1\tb\tr\to", "2\tc\tr\to", "9\td\tr\to",
    ]  # fmt: skip
    assert result.alignment.aligned_sentences == 2
    assert result.alignment.gold_without_extraction == []
    assert "4 kept on 2 aligned sentence(s)" in summary(result, "llm.jsonl")[0]
    assert summary(result, "llm.jsonl")[0].endswith("0 gold sentence(s) without extraction")


@pytest.mark.parametrize(
    ("fmt", "text", "line", "message"),
    [
        ("openie4", "0.9\t\tSimpleArgument(a)\tRelation(b,List())\tx\ts\n", 1, "expected Argument"),
        ("clausie", '1\t"a"\t"b"\t0.5\n', 1, "extraction before any sentence line"),
        ("carb", f"{S1}\tnan\tr\ta\n", 1, "confidence 'nan' is not a finite decimal number"),
        ("stanford", f"{S1}\n1.0e999\ta\tb\tc\n", 2, "'1.0e999' is not a finite decimal"),
        ("jsonl", '{"sentence": "x", "subject": "a"}\n', 1, '"relation" must be a string'),
        (
            "jsonl",
            '{"sent_id": "1", "subject": "a", "relation": "b", "object": "c", "confidence": 1}\n'
            '{"sent_id": "1", "subject": "a", "relation": "b", "object": "c"}\n',
            2,
            "no confidence",
        ),
    ],
)
def test_bad_lines_name_file_and_line(
    fmt: str, text: str, line: int, message: str, tmp_path: Path
) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(BenchieError) as info:
        _convert(path, fmt)
    assert info.value.line == line
    assert message in info.value.message
    assert str(info.value).startswith(f"{path}:{line}: error: ")


# --------------------------------------------------------------------------- CaRB outputs


def _carb(name: str, tmp_path: Path) -> Path:
    """CaRB's raw output ``name`` (ClausIE, OpenIE 4/5, PropS on its test set), unpacked."""
    path = tmp_path / f"{name}_output.txt"
    path.write_bytes(gzip.decompress((CARB / f"{name}_output.txt.gz").read_bytes()))
    return path


#: Gold sentences each CaRB output covers (by text). The outputs hold the whole OIE2016
#: corpus (CaRB's dev and test sentences and more: 3,182 sentences in ClausIE's); OpenIE 5's
#: holds CaRB's test split only (624 sentences), which has 143 of BenchIE's 300 sentences.
#: PropS covers 296: two of them (36 and 103) only once whitespace is ignored, since PropS
#: re-tokenised them (``Ph. d`` for ``Ph.d``, ``M8 .7 sp`` for ``M8.7sp``); a comparison of
#: whitespace-separated tokens finds 294 (see the next test).
CARB_COUNTS = {"clausie": 300, "openie4": 293, "openie5": 138, "props": 296}
CARB_EXTRACTIONS = {
    "clausie": (13951, 1231, 2882),
    "openie4": (9236, 858, 2816),
    "openie5": (2027, 419, 486),
    "props": (7842, 680, 2856),
}


@pytest.mark.parametrize("name", sorted(CARB_COUNTS))
def test_carb_outputs_convert_and_score(name: str, tmp_path: Path, cli_process: Run) -> None:
    source = _carb(name, tmp_path)
    out, report = tmp_path / f"{name}.tsv", tmp_path / f"{name}.json"
    done = cli_process(
        "convert", "--lang", "en", source, "-o", out, "--report", report, "--no-confidence"
    )
    assert done.returncode == 0, done.stderr
    assert f"read as {REGISTRY[name].title} ({name})" in done.stderr
    doc = json.loads(report.read_text())
    assert doc["format"] == name
    assert doc["aligned_sentences"] == CARB_COUNTS[name]
    assert 300 - len(doc["gold_without_extraction"]) == CARB_COUNTS[name]
    assert doc["ambiguous"] == []
    extractions, written, unaligned = CARB_EXTRACTIONS[name]
    assert (doc["extractions"], doc["written"], len(doc["unaligned"])) == (
        extractions,
        written,
        unaligned,
    )
    first = doc["unaligned"][0]
    assert source.read_text().splitlines()[first["line"] - 1].find(first["sentence"]) >= 0
    assert len({line.split("\t")[0] for line in out.read_text().splitlines()}) == CARB_COUNTS[name]

    # The converted file scores as a submission; the native file scores the same, directly.
    scored = cli_process("score", "--lang", "en", "--format", "json", out)
    native = cli_process("score", "--lang", "en", "--format", "json", source)
    assert scored.returncode == 0 and native.returncode == 0, native.stderr
    a, b = json.loads(scored.stdout)["systems"][0], json.loads(native.stdout)["systems"][0]
    assert (a["tp"], a["fp"], a["fn"]) == (b["tp"], b["fp"], b["fn"])
    assert b["sha256"] == hashlib.sha256(source.read_bytes()).hexdigest()
    assert b["file"] == str(source)
    assert b["lines"] == len(source.read_bytes().splitlines())


def test_props_two_sentences_differ_only_in_tokenisation(tmp_path: Path) -> None:
    """Why PropS covers 296 sentences, not the 294 a token comparison finds."""
    gold = {
        line.split("\t", 1)[0][len("sent_id:") :]: line.split("\t", 1)[1].rstrip("\n")
        for line in GOLD_EN.read_text(encoding="utf-8").splitlines()
        if line.startswith("sent_id:")
    }
    out = io.BytesIO()
    convert(str(_carb("props", tmp_path)), "props", gold, out, confidence=False, pad=False)
    covered = {line.split(b"\t")[0].decode() for line in out.getvalue().splitlines()}
    assert len(covered) == 296

    def tokens(text: str) -> str:  # the key token by token: spaces kept
        return " ".join(sentence_key(token) for token in text.split())

    gold_tokens = {tokens(t): i for i, t in gold.items()}
    assert len(gold_tokens) == 300
    source = _carb("props", tmp_path).read_text(encoding="utf-8").splitlines()
    texts = {line.split("\t")[1] for line in source if line.count("\t") >= 2}
    token_hits = {gold_tokens[k] for k in map(tokens, texts) if k in gold_tokens}
    assert len(token_hits) == 294
    assert covered - token_hits == {"36", "103"}


# --------------------------------------------------------------------------- the commands


def test_auto_leaves_benchie_tsv_reports_byte_identical(cli: RunCli, tmp_path: Path) -> None:
    reports = []
    for fmt in ("auto", "benchie"):
        out = tmp_path / f"{fmt}.json"
        submission = example("en", "clausie")
        result = cli("score", "--lang", "en", "--input-format", fmt, submission, "-o", out)
        assert result.exit_code == 0
        reports.append(out.read_bytes())
    assert reports[0] == reports[1]


def test_score_native_from_stdin(cli_process: Run, tmp_path: Path) -> None:
    text = f"{GOLD_S1}\t0.9\tserved as\tHe\tthe first Prime Minister of Australia\n"
    done = cli_process("score", "--lang", "en", "--format", "json", "-", input=text)
    assert done.returncode == 0, done.stderr
    system = json.loads(done.stdout)["systems"][0]
    assert system["tp"] == 1
    assert system["sha256"] == hashlib.sha256(text.encode()).hexdigest()
    assert "read as CaRB tab (carb)" in done.stderr


GOLD_S1 = (
    "He served as the first Prime Minister of Australia and became a founding justice of "
    "the High Court of Australia ."
)


def test_validate_names_the_format_and_unaligned_lines(cli_process: Run, tmp_path: Path) -> None:
    path = tmp_path / "ollie.txt"
    path.write_text(
        f"{GOLD_S1}\n0.9: (He; served as; the first Prime Minister)\n\n"
        "Not a BenchIE sentence .\n0.5: (x; y; z)\n"
    )
    text = cli_process("validate", "--lang", "en", path)
    assert text.returncode == 0, text.stderr
    assert f"{path}: note: read as Ollie (ollie)" in text.stdout
    assert f"{path}:4: warning: sentence matches no gold sentence" in text.stdout
    as_json = cli_process("validate", "--lang", "en", "--format", "json", path)
    entry = json.loads(as_json.stdout)["files"][0]
    assert entry["format"] == "ollie"
    assert [d["code"] for d in entry["diagnostics"]] == ["unaligned-sentence"]
    strict = cli_process("validate", "--lang", "en", "--strict", path)
    assert strict.returncode == 1


def test_validate_json_names_benchie_format(cli_process: Run) -> None:
    done = cli_process("validate", "--lang", "en", "--format", "json", example("en", "clausie"))
    assert json.loads(done.stdout)["files"][0]["format"] == "benchie"


def test_bad_native_line_is_one_error_line(cli_process: Run, tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(f"{GOLD_S1}\n0.9: (He served as)\n")
    done = cli_process("score", "--lang", "en", "--input-format", "ollie", path)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1].startswith(f"benchie: {path}:2: error: need (")
    assert "Traceback" not in done.stderr
    checked = cli_process("validate", "--lang", "en", "--input-format", "ollie", path)
    assert checked.returncode == 1
    assert f"{path}:2: error: need (" in checked.stdout


def test_strip_implicit_and_analyze_take_native_files(cli_process: Run, tmp_path: Path) -> None:
    path = tmp_path / "carb.tsv"
    path.write_text(
        "Not a BenchIE sentence .\t0.1\tis\tx\ty\n"
        f"{GOLD_S1}\t0.9\tserved as\tHe\tthe first Prime Minister of Australia\n"
        f"{GOLD_S1}\t0.4\twas\tHe\tPresident of Mars\n"
    )
    kept, removed = tmp_path / "kept.tsv", tmp_path / "removed.tsv"
    done = cli_process("strip-implicit", "--lang", "en", path, "-o", kept, "--removed", removed)
    assert done.returncode == 0, done.stderr
    assert kept.read_text() == (
        "#benchie-tsv confidence\n1\tHe\tserved as\tthe first Prime Minister of Australia\t0.9\n"
    )
    # The native line numbers (the first line aligns to no gold sentence and is left out).
    assert removed.read_text().startswith("3\t")
    assert removed.read_text().endswith("\t1\tHe\twas\tPresident of Mars\t0.4\n")
    analysed = cli_process("analyze", "--lang", "en", "--resamples", "10", "--format", "json", path)
    assert analysed.returncode == 0, analysed.stderr


def test_convert_writes_confidences_and_refuses_benchie_tsv(
    cli_process: Run, tmp_path: Path
) -> None:
    out = tmp_path / "out.tsv"
    source = tmp_path / "in.jsonl"
    source.write_text(
        json.dumps(
            {
                "sentence": GOLD_S1,
                "subject": "He",
                "relation": "served as",
                "object": "the first Prime Minister of Australia",
                "confidence": 0.25,
            }
        )
    )
    done = cli_process("convert", "--lang", "en", source, "-o", out)
    assert done.returncode == 0, done.stderr
    assert out.read_text() == (
        "#benchie-tsv confidence\n1\tHe\tserved as\tthe first Prime Minister of Australia\t0.25\n"
    )
    assert "299 gold sentence(s) without extraction" in done.stderr
    # Named on stderr as every command that writes names its output, last.
    assert done.stderr.splitlines()[-1] == (
        f"benchie: wrote {out} (benchie tsv: 1 extraction(s) from {source}, read as jsonl)"
    )
    stdout = cli_process("convert", "--lang", "en", source, "-o", "-")
    assert stdout.returncode == 0 and "wrote" not in stdout.stderr
    refused = cli_process("convert", "--lang", "en", example("en", "clausie"), "-o", out)
    assert refused.returncode == 2
    assert "no native format recognised" in refused.stderr
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n")
    nothing = cli_process("convert", "--lang", "en", empty, "-o", out)
    assert nothing.returncode == 2
    assert nothing.stderr == f"benchie: {empty}: error: an empty file: nothing to convert\n"


@pytest.mark.parametrize("blank_lines", [0, 2])
def test_convert_names_a_line_too_long_as_score_does(
    cli: RunCli, tmp_path: Path, blank_lines: int
) -> None:
    """A file of one 2 MB line was called "an empty file" by ``convert``: the sample it
    detects formats on stops at a line the reader cannot read. It gets the reader's own
    error now, at the line, the one ``score`` gives for the same file."""
    from benchie_cli.textio import MAX_LINE_BYTES

    source = tmp_path / "longline.tsv"
    source.write_bytes(b"\n" * blank_lines + b"1\tHe\tserved\t" + b"a" * 2 * MAX_LINE_BYTES + b"\n")
    out = tmp_path / "out.tsv"
    converted = cli("convert", "--lang", "en", "-o", str(out), str(source))
    scored = cli("score", "--lang", "en", str(source))
    assert (converted.exit_code, scored.exit_code) == (2, 2)
    assert converted.stderr == (
        f"benchie: {source}:{blank_lines + 1}: error: line longer than {MAX_LINE_BYTES:,} "
        "bytes, the limit for one line (a binary file, or a file without line breaks?)\n"
    )
    assert converted.stderr in scored.stderr
    assert not out.exists()


@pytest.mark.parametrize(
    ("fmt", "first"),
    [
        ("txt", f"{GOLD_S1}\n"),
        ("tsv", f"1\t{GOLD_S1}\n"),
        ("jsonl", json.dumps({"sent_id": "1", "sentence": GOLD_S1}, separators=(",", ":")) + "\n"),
    ],
)
def test_sentences(fmt: str, first: str, cli: RunCli) -> None:
    result = cli("sentences", "--lang", "en", "--format", fmt)
    assert result.exit_code == 0
    lines = result.stdout.splitlines(keepends=True)
    assert len(lines) == 300
    assert lines[0] == first


@pytest.mark.parametrize("lang", ["en", "de", "zh"])
def test_sentences_are_the_gold_lines_byte_for_byte(lang: str, cli: RunCli) -> None:
    (gold,) = (GOLD_DIR / "1.1.0" / lang / "default").glob("*.txt")
    expected = "".join(
        line[len("sent_id:") :] + "\n"
        for line in gold.read_text(encoding="utf-8").splitlines()
        if line.startswith("sent_id:")
    )
    result = cli("sentences", "--lang", lang, "--format", "tsv")
    assert result.exit_code == 0
    assert result.stdout == expected


def test_native_file_of_another_language_is_an_error_not_a_zero(
    cli_process: Any, tmp_path: Path
) -> None:
    """An English OpenIE 4 file scored with --lang de aligned nothing and scored 0.0."""
    path = tmp_path / "o4.txt"
    path.write_text(
        "0.9\t\tSimpleArgument(He,List([0, 2)))\tRelation(became,List([3, 9)))\t"
        "SimpleArgument(a founding justice,List([10, 28)))\tHe became a founding justice .\n",
        encoding="utf-8",
    )
    res = cli_process("score", "--lang", "de", path)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert "none of its sentences is a gold sentence of --lang de" in res.stderr


def test_strict_fails_on_an_unaligned_sentence(cli_process: Any, tmp_path: Path) -> None:
    """``--strict`` turns score's warnings into errors: unaligned sentences too."""
    sentence = cli_process("sentences", "--lang", "en").stdout.splitlines()[0]
    path = tmp_path / "un.jsonl"
    path.write_text(
        '{"sentence": "Nothing like the gold.", "subject": "a", "relation": "b", "object": "c"}\n'
        + orjson.dumps(
            {"sentence": sentence, "subject": "x", "relation": "y", "object": "z"}
        ).decode()
        + "\n",
        encoding="utf-8",
    )
    assert cli_process("score", "--lang", "en", path).returncode == 0
    res = cli_process("score", "--strict", "--lang", "en", path, "-o", tmp_path / "r.json")
    assert res.returncode == 1 and f"{path}:1: error:" in res.stderr
    assert not (tmp_path / "r.json").exists()


@pytest.mark.parametrize("first_has", [True, False])
def test_jsonl_confidences_all_or_none(cli_process: Any, tmp_path: Path, first_has: bool) -> None:
    """A confidence on some extractions only is an error at the first odd one out: later
    confidences were dropped silently when the first extraction had none."""
    one = {"sent_id": "1", "subject": "He", "relation": "became", "object": "a founding justice"}
    two = {**one, "relation": "served as", "object": "the first Prime Minister of Australia"}
    (one if first_has else two)["confidence"] = 0.8
    path = tmp_path / "mix.jsonl"
    path.write_bytes(orjson.dumps(one) + b"\n" + orjson.dumps(two) + b"\n")
    res = cli_process("score", "--lang", "en", path)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert f"{path}:2: error:" in res.stderr and "give every extraction one, or none" in res.stderr
    converted = cli_process(
        "convert", "--lang", "en", "--no-confidence", path, "-o", tmp_path / "out.tsv"
    )
    assert converted.returncode == 0, converted.stderr


def test_convert_of_nothing_aligned_or_nothing_read_is_an_error(
    cli_process: Any, tmp_path: Path
) -> None:
    """convert exited 0 writing only the directive, for another language's file or a
    format forced on a file of another format; every converting command now stops."""
    path = tmp_path / "o4.txt"
    path.write_text(
        "0.9\t\tSimpleArgument(He,List([0, 2)))\tRelation(became,List([3, 9)))\t"
        "SimpleArgument(a founding justice,List([10, 28)))\tHe became a founding justice .\n",
        encoding="utf-8",
    )
    wrong_lang = cli_process("convert", "--lang", "de", path, "-o", tmp_path / "de.tsv")
    assert wrong_lang.returncode == 2 and "of --lang de" in wrong_lang.stderr
    assert not (tmp_path / "de.tsv").exists()
    plain = tmp_path / "sentences.txt"  # sentence lines only: nothing reads as an extraction
    plain.write_text("He became a founding justice .\nHe left .\n", encoding="utf-8")
    forced = cli_process("score", "--lang", "en", "--input-format", "clausie", plain)
    assert forced.returncode == 2 and "no line reads as ClausIE output" in forced.stderr
    # A line of another format is named where it is, not read as a sentence.
    other = cli_process("score", "--lang", "en", "--input-format", "clausie", path)
    assert other.returncode == 2 and f"{path}:1: error: neither a sentence" in other.stderr


@pytest.mark.parametrize(
    ("fmt", "broken"),
    [("stanford", "0.9\tHe\tbecame"), ("ollie", "0.8 (He; became; a justice)")],
)
def test_broken_extraction_line_is_named_not_read_as_a_sentence(
    cli_process: Any, tmp_path: Path, fmt: str, broken: str
) -> None:
    """A Stanford line of 3 columns, an Ollie line without its colon: each was taken as
    the next sentence and vanished, exit 0."""
    sentence = cli_process("sentences", "--lang", "en").stdout.splitlines()[0]
    path = tmp_path / "bad.txt"
    path.write_text(f"{sentence}\n{broken}\n", encoding="utf-8")
    res = cli_process("score", "--lang", "en", "--input-format", fmt, path)
    assert res.returncode == 2 and f"{path}:2: error: neither a sentence" in res.stderr
