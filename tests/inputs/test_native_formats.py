"""OLLIE's two layouts, OpenIE6's predictions and tagged (allennlp) lines, and JSON
documents: hand-made files with the BenchIE TSV they must give worked out by hand, every
line a reader cannot use named with its file and line, the detection that tells the
formats apart, and (when the originals' directories are given) the real files."""

from __future__ import annotations

import io
import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchie_cli.errors import BenchieError
from benchie_cli.inputs import json_lines
from benchie_cli.inputs.native import (
    PEEK_BYTES,
    REGISTRY,
    Conversion,
    Skipped,
    convert,
    detect,
)
from tests.inputs.test_native import GOLD, GOLD_S1, S1, S2

Run = Callable[..., subprocess.CompletedProcess[str]]


def _convert(path: Path, fmt: str | None = None) -> tuple[str, Conversion]:
    """``path`` converted (as ``fmt``, else as detected) against the two-sentence gold."""
    out = io.BytesIO()
    result = convert(str(path), fmt or detect(str(path)), GOLD, out, confidence=True, pad=False)
    return out.getvalue().decode(), result


def _write(tmp_path: Path, text: str, name: str = "out.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _error(path: Path, fmt: str) -> BenchieError:
    with pytest.raises(BenchieError) as info:
        _convert(path, fmt)
    assert str(info.value).startswith(f"{path}:{info.value.line}: error: ")
    return info.value


# --------------------------------------------------------------------------- OLLIE

HEADER = "confidence\targ1\trel\targ2\tenabler\tattribution\ttext\tpattern\tdependencies"
#: OLLIE's ``--output-format tabbed`` rows: nine columns; enabler and attribution as OLLIE
#: prints them (Scala's ``None`` / ``Some(...)``), both dropped.
ROWS = (
    f"0.886\tObama\twas born in\tHawaii\tNone\tNone\t{S1}\t{{arg1}} <nsubjpass< {{rel}}\t"
    "nsubjpass(born_VBN_2_10, Obama_NNP_0_0)\n"
    f"0.5\tHe\tsaid\tdo n't\tSome(if so)\tNone\t{S2}\t\t\n"
)
ROWS_TSV = (
    "#benchie-tsv confidence\n1\tObama\twas born in\tHawaii\t0.886\n2\tHe\tsaid\tdo n't\t0.5\n"
)


def test_ollie_interactive_output_says_no_extractions(tmp_path: Path) -> None:
    """OLLIE prints each sentence, its extractions (or "No extractions found.") and a blank
    line."""
    path = _write(
        tmp_path,
        f"{S2}\nNo extractions found.\n\n{S1}\n0.886: (Obama; was born in; Hawaii)\n\n",
    )
    assert detect(str(path)) == "ollie"
    text, result = _convert(path)
    assert text == "#benchie-tsv confidence\n1\tObama\twas born in\tHawaii\t0.886\n"
    assert (result.extractions, result.alignment.unaligned) == (1, [])


def test_ollie_tab_layout_skips_and_names_its_header_row(tmp_path: Path) -> None:
    path = _write(tmp_path, f"{HEADER}\n{ROWS}")
    assert detect(str(path)) == "ollie"
    text, result = _convert(path)
    assert text == ROWS_TSV
    assert result.skipped == [Skipped(1, HEADER, "OLLIE's header row, skipped")]
    assert result.extractions == 2


def test_ollie_tab_layout_without_header_and_trimmed_columns(tmp_path: Path) -> None:
    """CaRB's reader strips each line, so its files may lack the empty last columns."""
    rows = "".join("\t".join(row.split("\t")[:7]) + "\n" for row in ROWS.splitlines())
    path = _write(tmp_path, rows)
    assert detect(str(path)) == "ollie"
    text, result = _convert(path)
    assert text == ROWS_TSV
    assert result.skipped == []


def test_ollie_header_of_concatenated_outputs_is_skipped_where_it_is(tmp_path: Path) -> None:
    first, second = ROWS.splitlines(keepends=True)
    path = _write(tmp_path, f"{HEADER}\n{first}\n{HEADER}\n{second}")
    text, result = _convert(path)
    assert text == ROWS_TSV
    assert [s.line for s in result.skipped] == [1, 4]


def test_ollie_header_alone_is_an_error_never_a_zero(tmp_path: Path) -> None:
    path = _write(tmp_path, f"{HEADER}\n")
    assert detect(str(path)) == "ollie"
    with pytest.raises(BenchieError, match="no line reads as Ollie output"):
        _convert(path, "ollie")


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (f"{HEADER}\n0.5\tHe\tsaid\n", 2, "3 TAB-separated columns, need OLLIE's 7 to 9"),
        (f"{HEADER}\n0,5\tHe\tsaid\tx\t\t\t{S2}\n", 2, "confidence '0,5' is not a finite"),
    ],
)
def test_ollie_tab_bad_rows_are_named(tmp_path: Path, text: str, line: int, message: str) -> None:
    error = _error(_write(tmp_path, text), "ollie")
    assert (error.line, message in error.message) == (line, True)


def test_ollie_header_is_said_by_every_command(cli_process: Run, tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        f"{HEADER}\n0.9\tHe\tserved as\tthe first Prime Minister of Australia\t\t\t{GOLD_S1}\t\t\n",
    )
    note = f"{path}:1: note: OLLIE's header row, skipped: 'confidence\\targ1\\trel"
    out, report = tmp_path / "out.tsv", tmp_path / "report.json"
    done = cli_process("convert", "--lang", "en", path, "-o", out, "--report", report)
    assert done.returncode == 0, done.stderr
    assert note in done.stderr
    assert out.read_text() == (
        "#benchie-tsv confidence\n1\tHe\tserved as\tthe first Prime Minister of Australia\t0.9\n"
    )
    assert json.loads(report.read_text())["skipped"] == [
        {"line": 1, "text": HEADER, "reason": "OLLIE's header row, skipped"}
    ]
    scored = cli_process("score", "--lang", "en", "--format", "json", path)
    assert scored.returncode == 0 and note in scored.stderr
    assert json.loads(scored.stdout)["systems"][0]["tp"] == 1
    checked = cli_process("validate", "--lang", "en", path)
    assert checked.returncode == 0 and note in checked.stdout


# --------------------------------------------------------------------------- OpenIE6

#: OpenIE6's predictions as its writer makes them: the sentence, ``f"{conf:.02f}: (arg1;
#: rel; arg2...)"`` lines, a blank line between sentences. A ``;`` token of the tokenised
#: text stays in its slot.
OPENIE6 = (
    f"{S1}\n0.95: (Obama; was born; in Hawaii; in 1961)\n0.40: (Obama; [is]; a person)\n\n"
    f"{S2}\n0.12: (He; said; do n't ; twice)\n"
)
OPENIE6_TSV = (
    "#benchie-tsv confidence\n1\tObama\twas born\tin Hawaii in 1961\t0.95\n"
    "1\tObama\t[is]\ta person\t0.4\n2\tHe\tsaid\tdo n't ; twice\t0.12\n"
)


def test_openie6_predictions_as_openie6_writes_them(tmp_path: Path) -> None:
    path = _write(tmp_path, OPENIE6)
    assert detect(str(path)) == "openie6"
    assert _convert(path, "openie6")[0] == OPENIE6_TSV
    # OLLIE's reader splits at every ';', the token too.
    assert _convert(path, "ollie")[0].splitlines()[-1] == "2\tHe\tsaid\tdo n't twice\t0.12"


def test_convert_from_openie6_reads_its_predictions(cli_process: Run, tmp_path: Path) -> None:
    """It refused them: "need (subject ; relation ; object)"."""
    path = _write(tmp_path, f"{GOLD_S1}\n0.86: (He; served as; the first Prime Minister)\n\n")
    out = tmp_path / "out.tsv"
    done = cli_process("convert", "--from", "openie6", "--lang", "en", path, "-o", out)
    assert done.returncode == 0, done.stderr
    assert out.read_text().splitlines()[1] == "1\tHe\tserved as\tthe first Prime Minister\t0.86"
    assert "read as OpenIE6 / IMoJIE (openie6)" in done.stderr


@pytest.mark.parametrize(
    ("text", "fmt"),
    [
        # OLLIE's interactive output: confidences as '#.###' writes them.
        (f"{S1}\n0.886: (Obama; was born in; Hawaii)\n1: (Obama; was; born)\n", "ollie"),
        # Two decimals by chance, but an enabler only OLLIE writes.
        (f"{S1}\n0.88: (Obama; was born in; Hawaii)\n0.5: (a; b; c)[enabler=if x]\n", "ollie"),
        (f"{S1}\n0.88: (Obama; was born in; Hawaii)[attrib=He said]\n", "ollie"),
        # Stanford OpenIE's -format ollie: three decimals.
        (f"{S1}\n1.000: (Obama; was born in; Hawaii)\n", "ollie"),
        (OPENIE6, "openie6"),
        (f"{S1}\n-0.35: (Obama; was born; in Hawaii)\n", "openie6"),
        # IMoJIE: ' ; ' separators.
        (f"{S1}\n0.95: (Obama ; was born ; in Hawaii)\n", "openie6"),
    ],
)
def test_ollie_and_openie6_are_told_apart(tmp_path: Path, text: str, fmt: str) -> None:
    assert detect(str(_write(tmp_path, text))) == fmt


def test_openie6_broken_line_is_named(tmp_path: Path) -> None:
    error = _error(_write(tmp_path, f"{S1}\n0.95: (Obama was born)\n"), "openie6")
    assert error.line == 2 and error.message.startswith("need (subject; relation; object)")


# --------------------------------------------------------------------------- allennlp


def test_allennlp_missing_tags_are_empty_slots(tmp_path: Path) -> None:
    """As OpenIE6's reader takes them; the n-ary tags follow <arg2> in their order."""
    path = _write(
        tmp_path,
        f"{S1}\t<arg1> Obama </arg1> <arg2> Hawaii </arg2>\t1.0\n"
        f"{S1}\t<arg4> d </arg4> <rel> r </rel> <arg3> c </arg3> <arg1> a </arg1>\t1\n",
    )
    assert detect(str(path)) == "allennlp"
    assert _convert(path)[0] == (
        "#benchie-tsv confidence\n1\tObama\t\tHawaii\t1.0\n1\ta\tr\tc d\t1.0\n"
    )


@pytest.mark.parametrize(
    ("tagged", "message"),
    [
        ("<arg1> a </arg1> and <rel> r </rel>", "text outside the <arg1>, <rel>, <argN> tags"),
        ("<arg1> a </arg1> <rel> r </rel> <loc> x </loc>", "'<loc> x </loc>'"),
        ("<arg1> a <rel> r </rel>", "<arg1> without </arg1>"),
        ("a </arg1> <rel> r </rel>", "</arg1> without <arg1>"),
        ("</arg1> a <arg1> <rel> r </rel>", "</arg1> before <arg1>"),
        ("<arg1> a <rel> r </rel> </arg1>", "a tag inside <arg1> ... </arg1>"),
        ("<arg1> a </arg1> <arg1> b </arg1> <rel> r </rel>", "text outside"),
        ("<arg3> a </arg3>", "no <arg1>, <rel> or <arg2> tag (OpenIE6's reader skips"),
    ],
)
def test_allennlp_what_openie6_would_drop_is_an_error(
    tmp_path: Path, tagged: str, message: str
) -> None:
    path = _write(tmp_path, f"{S1}\t<arg1> a </arg1> <rel> r </rel>\t1.0\n{S1}\t{tagged}\t1.0\n")
    error = _error(path, "allennlp")
    assert error.line == 2 and message in error.message


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (f"{S1}\t<arg1> a </arg1> <rel> r </rel>", "2 TAB-separated column(s), need 3"),
        (f"{S1}\t<arg1> a </arg1>\t1.0\textra", "4 TAB-separated column(s), need 3"),
        (f"{S1}\t<arg1> a </arg1>\tnan", "confidence 'nan' is not a finite decimal number"),
    ],
)
def test_allennlp_columns(tmp_path: Path, line: str, message: str) -> None:
    error = _error(_write(tmp_path, line + "\n"), "allennlp")
    assert error.line == 1 and message in error.message


# --------------------------------------------------------------------------- JSON


def _lines(*objects: object) -> str:
    return "".join(json.dumps(o) + "\n" for o in objects)


def test_json_lines_of_sentences_with_list_triples(tmp_path: Path) -> None:
    """What JSONL refuses ("an extraction must be a JSON object"): lists, other key names;
    without confidences, no directive."""
    path = _write(
        tmp_path,
        _lines(
            {"sentence": S1, "extractions": [["Obama", "was born in", "Hawaii", "in 1961"]]},
            {"text": S2, "facts": [["He", "said"], {"sub": "He", "rel": "said", "obj": "x"}]},
            {"passage": S1, "tuples": []},
        ),
        "llm.jsonl",
    )
    assert detect(str(path)) == "json"
    text, result = _convert(path)
    assert text == "1\tObama\twas born in\tHawaii in 1961\n2\tHe\tsaid\t\n2\tHe\tsaid\tx\n"
    assert result.skipped == []
    forced = _error(path, "jsonl")
    assert forced.message == (
        "an extraction must be a JSON object (the object is of the json format's shape: "
        "--input-format json reads it)"
    )


def test_json_sentence_ids_and_keys_not_read(tmp_path: Path) -> None:
    """``sent_id`` is used as is; ``id`` only when there is no text (another dataset's
    ids are not BenchIE's); a key read nowhere is named once, where first seen."""
    path = _write(
        tmp_path,
        _lines(
            {"id": 7, "sentence": S1, "model": "m", "triples": [["Obama", "born in", "Hawaii"]]},
            {"id": "2", "model": "m", "triples": [{"s": "He", "p": "said", "o": "x", "why": ""}]},
            {"sent_id": 1, "subject": "Obama", "predicate": "was", "args": ["born", "then"]},
        ),
    )
    text, result = _convert(path, "json")
    assert text == "1\tObama\tborn in\tHawaii\n2\tHe\tsaid\tx\n1\tObama\twas\tborn then\n"
    assert [(s.line, s.text) for s in result.skipped] == [(1, "id"), (1, "model"), (2, "why")]
    assert {s.reason for s in result.skipped} == {"a key the json reader does not read, first here"}


def test_json_array_over_many_lines_names_each_object_by_its_first_line(tmp_path: Path) -> None:
    doc = [
        {"sentence": S1, "triples": [["Obama", "born in", "Hawaii"], ["Obama", "was", "born"]]},
        {"sentence": S2, "triples": [["He", "said", "twice"]]},
    ]
    text = json.dumps(doc, indent=2) + "\n"
    path = _write(tmp_path, text)
    assert detect(str(path)) == "json"
    starts = [n for n, line in enumerate(text.splitlines(), 1) if line == "  {"]
    lines = enumerate(text.splitlines(), 1)
    found = [x for x in REGISTRY["json"].parse(lines, "f") if not isinstance(x, Skipped)]
    assert [x.line for x in found] == [starts[0], starts[0], starts[1]]
    assert (
        _convert(path)[0] == "1\tObama\tborn in\tHawaii\n1\tObama\twas\tborn\n2\tHe\tsaid\ttwice\n"
    )
    one_line = _write(tmp_path, json.dumps(doc), "one.json")
    assert detect(str(one_line)) == "json"
    assert _convert(one_line)[0] == _convert(path)[0]


@pytest.mark.parametrize("pad", range(3))
def test_json_array_on_one_line_longer_than_the_peek(tmp_path: Path, pad: int) -> None:
    """Detection reads the first 64 KiB: a one-line document is cut there, inside a
    two-byte character one time in two; it was then taken for BenchIE TSV."""
    triple = ["Obama", "\u00e9" * 200 + "x" * pad, "Hawaii"]
    path = _write(
        tmp_path, json.dumps([{"sentence": S1, "triples": [triple]}] * 400, ensure_ascii=False)
    )
    assert path.stat().st_size > PEEK_BYTES
    assert detect(str(path)) == "json"


TRIPLE = {"subject": "a", "relation": "r", "object": "b"}


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (
            _lines({"sentence": S1, "output": "(a; r; b)"}),
            1,
            'no triples key: found "sentence", "output" ("output" holds text: parse the '
            'model\'s answer into JSON triples first); a triple list is one of "triples",',
        ),
        (
            _lines({"sentence": S1, "output": [["a", "r", "b"]]}),
            1,
            'no triples key: found "sentence", "output" (is "output" the triple list? name it '
            '"triples")',
        ),
        (
            _lines({"sentence": S1, "triples": []}, {"sentence": S1, "triples": [{"s": "a"}]}),
            2,
            'triple 1 of "triples": "relation" must be a string: no "relation", "rel", '
            '"predicate", "pred", "r", "p" among its keys "s"',
        ),
        (
            _lines({"sentence": S1, "triples": [{**TRIPLE, "relation": 3}]}),
            1,
            'triple 1 of "triples": "relation" must be a string, found a number',
        ),
        (
            _lines({"sentence": S1, "triples": [{**TRIPLE, "rel": "r"}]}),
            1,
            'triple 1 of "triples": "relation", "rel" name the same thing: keep one',
        ),
        (
            _lines({"sentence": S1, "triples": [{**TRIPLE, "args": ["c"]}]}),
            1,
            'both an object and "args"',
        ),
        (
            _lines({"sentence": S1, "triples": [TRIPLE, ["a"]]}),
            1,
            'triple 2 of "triples": a triple list needs a subject and a relation, found 1',
        ),
        (
            _lines({"sentence": S1, "triples": [["a", "r", 5]]}),
            1,
            "item 3 must be a string, found a number",
        ),
        (
            _lines({"sentence": S1, "triples": "(a; r; b)"}),
            1,
            '"triples" must be a list of triples, found a string (the model\'s raw answer?',
        ),
        (
            _lines({"sentence": S1, "triples": [{**TRIPLE, "score": "high"}]}),
            1,
            '"score" must be a finite number, found a string',
        ),
        (
            _lines({"triples": [TRIPLE]}),
            1,
            'no sentence: found "triples"; a sentence object names its text "sentence", '
            '"text", "passage" or its gold id "sent_id" (or "id")',
        ),
        (_lines({"sentence": S1, "text": S2, "triples": []}), 1, '"sentence", "text" name'),
        ('{"sentence": "x",\n', 1, "(an object over several lines? write one object a line"),
        ("a\tb\tc\td\n", 1, "(is it another format? --input-format auto detects it)"),
        (f'[\n{{"sentence": "{S1}", "triples": []}},\n{{"sentence": NaN}}\n]\n', 3, "NaN"),
        (f'[\n{{"sentence": "{S1}", "triples": []}}\n{{}}\n]\n', 3, "expected ',' or ']'"),
        (f'[\n{{"sentence": "{S1}", "triples": []}}\n', 2, "the array is not closed"),
        ('[\n{"sentence": "x", "triples": []}\n]\n]\n', 4, "text after the array's closing"),
        ('[\n["a", "r", "b"]\n]\n', 2, "a sentence must be a JSON object, found a list"),
    ],
)
def test_json_errors_say_the_likely_cause(
    tmp_path: Path, text: str, line: int, message: str
) -> None:
    error = _error(_write(tmp_path, text, "llm.jsonl"), "json")
    assert error.line == line
    assert message in error.message, error.message


@pytest.mark.parametrize(
    ("fmt", "text", "line", "key"),
    [
        ("json", '{"sentence": "%s", "triples": [["a", "r", "b"]], "triples": []}\n', 1, "triples"),
        (
            "json",
            '[\n{"sentence": "x", "triples": []},\n{"sentence": "%s",\n"sentence": "y"}\n]\n',
            3,
            "sentence",
        ),
        (
            "jsonl",
            '{"sentence": "%s", "subject": "a", "relation": "r", "object": "b", "object": "c"}\n',
            1,
            "object",
        ),
        (
            "jsonl",
            '{"sentence": "%s", "extractions": [{"subject": "a", "subject": "b", "relation": "r"}]}'
            "\n",
            1,
            "subject",
        ),
        ("llm-text", '{"sentence": "%s", "output": "(a; r; b)", "output": "None"}\n', 1, "output"),
    ],
)
def test_a_key_given_twice_in_an_object_is_refused_at_its_line(
    tmp_path: Path, fmt: str, text: str, line: int, key: str
) -> None:
    """Every JSON reader keeps only the last value of a repeated key: a second "triples"
    list replaced the first, and 264 of ClausIE's 695 extractions split so vanished without
    a word, scored exit 0. Now the object is refused at its (first) line, in every reader
    of JSON, nested objects too."""
    error = _error(_write(tmp_path, text % S1, f"dup.{fmt}"), fmt)
    assert error.line == line
    assert error.message.startswith(f"the key {key!r} is given twice in one object"), error.message


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.lists(st.tuples(st.sampled_from(["a", "b", '":', 'a"', " :"]), inner), max_size=3)
        ),
        max_leaves=12,
    )
)
def test_repeated_key_finds_exactly_the_repeats(value: object) -> None:
    """:func:`repeated_key` counts key ends before it decodes again: whatever the document
    holds (strings with ``":`` in them, keys that look like key ends), it names a repeated
    key exactly when the text repeats one, as the standard library's decoder sees it."""

    def dump(v: object) -> str:  # (objects as lists of pairs: a key may repeat)
        if isinstance(v, list) and v and all(isinstance(x, tuple) for x in v):
            return "{" + ", ".join(f"{json.dumps(k)} : {dump(x)}" for k, x in v) + "}"
        if isinstance(v, list):
            return "[" + ",".join(dump(x) for x in v) + "]"
        return json.dumps(v)

    def repeats(v: object) -> bool:
        if isinstance(v, list) and v and all(isinstance(x, tuple) for x in v):
            keys = [k for k, _ in v]
            return len(set(keys)) < len(keys) or any(repeats(x) for _, x in v)
        return isinstance(v, list) and any(repeats(x) for x in v)

    text = dump(value)
    found = json_lines.repeated_key(text, orjson.loads(text))
    assert (found is not None) == repeats(value)
    # the scan without recursion, for what the decoder cannot go deep enough into
    assert (json_lines._repeated_key_scanned(text) is not None) == repeats(value)


@pytest.mark.parametrize("fmt", ["json", "jsonl", "llm-text"])
def test_a_repeated_key_beside_deep_nesting_is_found(tmp_path: Path, fmt: str) -> None:
    """orjson reads 1,024 levels, the standard library's decoder about a thousand: a line
    nested 1,000 deep made the second decoding give up (Python 3.11's decoder), and its
    repeated key was taken for none (exit 0, the first value dropped). A JSON array nested
    deeper than the decoder goes is an error at its object (it was a traceback, exit 70)."""
    deep = "[" * 1000 + "]" * 1000
    slots = {
        "json": '"triples": [["a", "r", "b"]], "triples": [["c", "r", "d"]]',
        "jsonl": '"subject": "a", "relation": "r", "object": "b", "object": "c"',
        "llm-text": '"output": "(a; r; b)", "output": "(c; r; d)"',
    }[fmt]
    line = f'{{"sentence": "{S1}", {slots}, "x": {deep}}}\n'
    error = _error(_write(tmp_path, line, f"deep.{fmt}"), fmt)
    assert error.line == 1 and "is given twice in one object" in error.message, error.message
    deeper = "[" * 100_000 + "]" * 100_000  # (beyond any Python's decoder: 3.12's goes further)
    array = f'[\n{{"sentence": "{S1}", "triples": [], "x": {deeper}}}\n]\n'
    error = _error(_write(tmp_path, array, "deep_array.json"), "json")
    assert error.line == 2 and "nested deeper than the JSON decoder goes" in error.message


def test_json_error_is_one_line_exit_2(cli_process: Run, tmp_path: Path) -> None:
    # A sentence and a model's answer are an LLM's answers (llm-text): an answer that no
    # rule reads says so, with the fragment, at its line.
    path = _write(tmp_path, _lines({"sentence": GOLD_S1, "output": "He served as PM"}), "llm.jsonl")
    done = cli_process("score", "--lang", "en", path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(
        f"benchie: {path}:1: error: no triple read: 1 fragment(s) of its answers no llm-text@1 "
        "rule reads as a triple (first: no triple: prose, or no separator: 'He served as PM'"
    )
    # A JSON document of an unknown shape names the keys it has.
    odd = _write(tmp_path, _lines({"sentence": GOLD_S1, "facts_found": "x"}), "odd.jsonl")
    done = cli_process("score", "--lang", "en", "--input-format", "json", odd)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f'{odd}:1: error: no triples key: found "sentence", "facts_found"' in done.stderr
    slot = _write(
        tmp_path, _lines({"sentence": GOLD_S1, "triples": [{"subject": "He", "object": "x"}]})
    )
    done = cli_process("convert", "--lang", "en", slot, "-o", tmp_path / "o.tsv")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f'{slot}:1: error: triple 1 of "triples": "relation" must be a string' in done.stderr


# --------------------------------------------------------------------------- real files

#: The originals are not copied into tests/data: DetIE's repository carries no licence and
#: OpenIE6's is GPL-3. Point these at a checkout's directories to test on them.
DETIE = os.environ.get("BENCHIE_DETIE_OUTPUTS", "")
OPENIE6_CARB = os.environ.get("BENCHIE_OPENIE6_CARB_DATA", "")
needs_detie = pytest.mark.skipif(
    not DETIE,
    reason="BENCHIE_DETIE_OUTPUTS unset: DetIE's modules/model/evaluation/carb-openie6/"
    "systems_output (github.com/sberbank-ai/DetIE, no licence, so not copied here)",
)
needs_openie6 = pytest.mark.skipif(
    not OPENIE6_CARB,
    reason="BENCHIE_OPENIE6_CARB_DATA unset: OpenIE6's carb/data (github.com/dair-iitd/"
    "openie6, GPL-3, so not copied here)",
)

#: DetIE's six systems: (extractions, kept, aligned sentences, unaligned sentences) against
#: BenchIE's English gold; CaRB's test set holds 143 of BenchIE's 300 sentences.
DETIE_COUNTS = {
    "detie243": (1021, 219, 133, 470),
    "detie243conj": (2024, 433, 137, 476),
    "detie263": (1274, 263, 140, 494),
    "detie263conj": (2288, 477, 140, 494),
    "detie276": (1328, 280, 141, 495),
    "detie276conj": (2370, 503, 141, 495),
}


def _english_gold(cli_process: Run) -> dict[str, str]:
    done = cli_process("sentences", "--lang", "en", "--format", "tsv")
    return dict(line.split("\t", 1) for line in done.stdout.splitlines())


@needs_detie
@pytest.mark.parametrize("system", sorted(DETIE_COUNTS))
def test_detie_outputs_both_layouts(system: str, cli_process: Run) -> None:
    """``*_output.txt`` is OLLIE's tab layout (DetIE writes OLLIE's header and columns),
    ``*_output.allennlp`` its conversion to tagged lines: both give the same BenchIE TSV."""
    gold = _english_gold(cli_process)
    tab = Path(DETIE) / f"{system}_output.txt"
    tagged = Path(DETIE) / f"{system}_output.allennlp"
    assert (detect(str(tab)), detect(str(tagged))) == ("ollie", "allennlp")
    outputs = []
    for path in (tab, tagged):
        out = io.BytesIO()
        result = convert(str(path), detect(str(path)), gold, out, confidence=True, pad=False)
        a = result.alignment
        assert (result.extractions, result.written, a.aligned_sentences, len(a.unaligned)) == (
            DETIE_COUNTS[system]
        )
        outputs.append(out.getvalue())
        assert [s.line for s in result.skipped] == ([1] if path == tab else [])
    assert outputs[0] == outputs[1]


@needs_detie
def test_detie_allennlp_scores_against_benchie(cli_process: Run) -> None:
    path = Path(DETIE) / "detie243_output.allennlp"
    done = cli_process("score", "--lang", "en", "--format", "json", path)
    assert done.returncode == 0, done.stderr
    assert "read as OpenIE6 tagged (allennlp) (allennlp): 1021 extraction(s), 219 kept" in (
        done.stderr
    )
    assert "470 sentence(s) align to no gold sentence" in done.stderr
    assert "hint: most of its sentences are not this gold's" in done.stderr
    assert json.loads(done.stdout)["systems"][0]["extractions"] == 219


@needs_openie6
def test_openie6_carb_gold_in_allennlp_format(cli_process: Run) -> None:
    path = Path(OPENIE6_CARB) / "test_gold_allennlp_format.txt"
    assert detect(str(path)) == "allennlp"
    out = io.BytesIO()
    result = convert(
        str(path), "allennlp", _english_gold(cli_process), out, confidence=True, pad=False
    )
    assert (result.extractions, result.alignment.aligned_sentences) == (2715, 143)
