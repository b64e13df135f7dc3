"""Re-OIE2016's metric (benchie_cli.benchmarks.reoie2016.metric): hand-worked fixtures for each
rule, and the output of the original scorer (zhanjunlang/Span_OIE, evaluate/evaluate.py) on the
same hand-made files, hard-coded. Every input is made here; no published data is read."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import pytest

from benchie_cli.benchmarks.reoie2016 import metric as r
from benchie_cli.benchmarks.reoie2016.metric import Extraction, Point, ReOieError


def _tuple(pred: str, arg0: str = "", arg1: str = "", **more: str) -> dict[str, str]:
    fields = {"arg0": arg0, "pred": pred, "arg1": arg1, "arg2": "", "arg3": ""}
    fields.update({"temp": "", "loc": "", "context": ""}, **more)
    return fields


#: A Re-OIE2016-style gold of three sentences, five tuples.
GOLD = {
    "Ann likes Bob , a teacher .": [
        _tuple("likes", "Ann", "Bob"),
        _tuple("<be>", "Ann", "a teacher"),
    ],
    "Carl sleeps .": [_tuple("sleeps", "Carl")],
    "Dan and Eve met .": [_tuple("met", "Dan", "Eve"), _tuple("<be> friends", "Dan", "with Eve")],
}

#: System files (sentence, confidence, predicate, arguments...).
SYSTEMS = {
    "sys1": (
        "Ann likes Bob, a teacher.\t0.9\tlikes\tAnn\tBob\n"
        "Ann likes Bob, a teacher.\t0.9\tlikes\tAnn\tBob\n"
        "Ann likes Bob, a teacher.\t0.5\tis\tAnn\ta teacher\n"
        "Carl sleeps .\t0.5\tsleeps\tCarl\n"
        "Carl sleeps .\t0.2\tsnores\tCarl\n"
        "Zed is here .\t1.0\tis\tZed\there\n"
    ),
    # nothing matches
    "sys_nan": (
        "Carl sleeps .\t0.3\tsnores\tnobody\nAnn likes Bob , a teacher .\t0.7\thates\tX\tY\n"
    ),
    # every confidence NaN or infinite
    "sys_inf": "Carl sleeps .\tnan\tsleeps\tCarl\nCarl sleeps .\tinf\tsnores\tCarl\n",
    # -0.0 and NaN (-> 0), a double space, a repeated word, a short line
    "sys_zero": (
        "Carl sleeps .\t-0.0\tsnores\tDan\n"
        "Carl sleeps .\tnan\tsleeps\tCarl\n"
        "Dan and Eve met .\t0.0\tmet  met\tmet\n"
        "Dan and Eve met .\t0.1\tshort\n"
        "Ann likes Bob , a teacher .\t0.4\tlikes\tAnn\n"
    ),
    # -0.0 first among the zeros: it names the threshold
    "sys_negzero": "Carl sleeps .\t-0.0\tsleeps\tCarl\nCarl sleeps .\t0.0\tsnores\tCarl\n",
}

#: What the original prints, and its curve file, on these files. Obtained with Span_OIE at
#: 71f82c5 under Python 3.7.16, numpy 1.18.1, scikit-learn 0.22.1 (see
#: /tmp/reoie2016-run.sh), GOLD written as evaluate/Re-OIE2016.json, each system as a file:
#:   cd evaluate && python evaluate.py new ../sys1.txt ../sys1.curve
ORIGINAL = {
    "sys1": (
        "AUC: 0.2857142857142857\n Optimal (precision, recall, F1, threshold): "
        "(0.75, 0.42857142857142855, 0.5454545454545454, 0.5)\n",
        "Precision\tRecall\n1.0\t0.0\n0.5\t0.14285714285714285\n0.75\t0.42857142857142855\n",
        "\n",
    ),
    "sys_nan": (
        "AUC: nan\n Optimal (precision, recall, F1, threshold): (0.0, nan, nan, 0.7)\n",
        "Precision\tRecall\n0.0\tnan\n1.0\t0.0\n",
        "None\nNone\nNone\n",
    ),
    "sys_inf": (
        "AUC: 0.08333333333333333\n Optimal (precision, recall, F1, threshold): "
        "(0.5, 0.1111111111111111, 0.1818181818181818, 0)\n",
        "Precision\tRecall\n1.0\t0.0\n0.5\t0.1111111111111111\n",
        "\n",
    ),
    "sys_zero": (
        "AUC: 0.55\n Optimal (precision, recall, F1, threshold): "
        "(0.75, 0.6, 0.6666666666666665, 0.0)\n",
        "Precision\tRecall\n1.0\t0.0\n1.0\t0.19999999999999998\n0.75\t0.6\n",
        "None\nNone\n",
    ),
    "sys_negzero": (
        "AUC: 0.08333333333333333\n Optimal (precision, recall, F1, threshold): "
        "(0.5, 0.1111111111111111, 0.1818181818181818, -0.0)\n",
        None,
        None,
    ),
}


@pytest.fixture
def gold_path(tmp_path: Path) -> str:
    path = tmp_path / "Re-OIE2016.json"
    path.write_text(json.dumps(GOLD), encoding="utf-8")
    return str(path)


def _system(tmp_path: Path, name: str) -> str:
    path = tmp_path / f"{name}.txt"
    path.write_text(SYSTEMS[name], encoding="utf-8")
    return str(path)


def _score(gold_path: str, tmp_path: Path, name: str) -> r.ReOieScore:
    return r.score(r.read_gold_json(gold_path), r.read_system(_system(tmp_path, name)))


# --------------------------------------------------------------------------- the match


def _ex(pred: str, *args: str) -> Extraction:
    return Extraction(pred, args, 1.0)


def test_lexical_match_counts_word_pairs_over_gold_words() -> None:
    gold = _ex("sat", "The cat", "on the mat")  # 6 words: match needs > 3 pairs
    assert r.lexical_match(gold, _ex("sat", "the cat", "on mat"))  # sat cat on the mat: 5
    # case matters: SAT, CAT, ON, THE meet nothing; the x 2 and mat: 3 pairs, not > 3
    assert not r.lexical_match(gold, _ex("SAT", "THE CAT", "ON the the mat"))
    assert r.lexical_match(gold, _ex("sat", "The", "cat on"))  # sat The cat on: 4
    assert not r.lexical_match(gold, _ex("sat", "cat", "on"))  # 3 pairs: not > 3
    # pairs, not a multiset overlap: gold "the" once x predicted "the" four times = 4 > 3
    assert r.lexical_match(gold, _ex("the", "the", "the the"))
    # a gold word twice x a predicted word twice = 4 pairs against 3 gold words
    assert r.lexical_match(_ex("met", "met", "Eve"), _ex("met", "met"))


def test_double_spaces_make_empty_words() -> None:
    # "a  b" splits at single spaces into a, "", b: the empty word counts and can match
    gold = _ex("a  b", "c")  # a, "", b, c: 4 words, a match needs 3 pairs
    assert not r.lexical_match(gold, _ex("x  y", "a"))  # "" and a: 2 pairs
    assert r.lexical_match(gold, _ex("x  y  z", "a"))  # "" twice and a: 3 pairs
    assert r.lexical_match(gold, _ex("a  b", "x"))  # a, "", b


def test_first_fit_pairing_ignores_confidence() -> None:
    gold = [_ex("likes", "Ann", "Bob")]
    low = Extraction("likes", ("Ann", "Bob"), 0.1)
    high = Extraction("likes", ("Ann", "Bob"), 0.9)
    # the earlier prediction in file order takes the gold tuple, whatever its confidence
    result = r.sentence_result(gold, [low, high])
    assert result.scores == ((0.1, True), (0.9, False))
    assert result.errors == ()


# --------------------------------------------------------------------------- the corpus


def test_hand_worked_corpus(gold_path: str, tmp_path: Path) -> None:
    """sys1, worked out by hand.

    Sentence keys: "Ann likes Bob, a teacher." and the gold's "Ann likes Bob , a teacher ."
    both become "AnnlikesBobateacher". "Zed is here ." is outside the gold: ignored, its
    confidence 1.0 is no threshold.

    Ann (gold "likes Ann Bob", "[is] Ann a teacher"; "<be>" alone became "[is]"):
      gold 1 takes the first free match: line 1 (0.9) -> (0.9, true)
      gold 2 "[is] Ann a teacher" (4 words): line 2 (the duplicate) shares only Ann (1 pair,
        not > 2); line 3 "is Ann a teacher" shares Ann, a, teacher (3) -> (0.5, true)
      the duplicate is left over: (0.9, false)
    Carl: "sleeps Carl" -> (0.5, true); "snores Carl" 1 pair of 2 -> (0.2, false)
    Dan and Eve: no output. The scorer counts its 2 gold tuples 2 * 2 = 4 times.

    correct_total = 2 + 1 + 4 = 7, unmatched = 0 + 0 + 4 = 4: 3 matched; recall is scaled
    by 3 / 7. Thresholds: 0.9 -> 2 predictions, 1 true; 0.5 -> 4, 3; 0.2 -> 5, 3. All 3
    true ones are in at 0.5, so the curve stops there (0.2 is cut):
      0.5: P = 3/4, R = 3/3 * 3/7        0.9: P = 1/2, R = 1/3 * 3/7
    F1 at 0.5 = 6/11 beats F1 at 0.9 = 2/9. AUC over (R, P) = (3/7, .75), (1/7, .5), (0, 1):
    (3/7 - 1/7) * (.75 + .5) / 2 + (1/7 - 0) * (.5 + 1) / 2 = 2/7.
    """
    result = _score(gold_path, tmp_path, "sys1")
    m = 3 / 7
    assert result.curve == [Point(0.75, 3 / 3 * m, 0.5), Point(0.5, 1 / 3 * m, 0.9)]
    assert (result.correct_total, result.unmatched) == (7, 4)
    # non_sent: the 2 gold tuples of the one sentence without output, as Multi2OIE's copy
    # counts it (once per gold tuple), not the 1 sentence
    assert (result.non_sent, result.non_match, result.errors) == (2, 0, [])
    recall = 3 / 3 * m
    assert result.optimal == (0.75, recall, 2.0 * (0.75 * recall) / (0.75 + recall), 0.5)
    # numpy's trapz: sum of dx * (y1 + y0) / 2, negated since recall decreases
    assert result.auc == -(
        (1 / 3 * m - recall) * (0.5 + 0.75) / 2.0 + (0.0 - 1 / 3 * m) * 1.5 / 2.0
    )
    assert math.isclose(result.auc, 2 / 7)
    summary = r.to_json(result)
    assert summary["matched"] == 3 and summary["points"] == 3


def test_no_match_gives_nan_as_the_original(gold_path: str, tmp_path: Path) -> None:
    """Nothing matched: recall is 0/0 (NaN), only the highest threshold is kept, and the
    NaN F1 of the first (only) point stays the optimum."""
    result = _score(gold_path, tmp_path, "sys_nan")
    assert result.curve[0].precision == 0.0 and math.isnan(result.curve[0].recall)
    assert math.isnan(result.auc) and result.optimal[3] == 0.7


def test_nan_and_infinite_confidences_count_as_zero(gold_path: str, tmp_path: Path) -> None:
    result = _score(gold_path, tmp_path, "sys_inf")
    # both scores are 0: one threshold, the integer 0 as in the original
    assert result.curve == [Point(0.5, 1 / 1 * (1 / 9), 0)]
    assert repr(result.optimal[3]) == "0"  # correct_total 1 + 2*2 + 2*2 = 9, 1 matched


@pytest.mark.parametrize("name", sorted(ORIGINAL))
def test_original_scorer_outputs(gold_path: str, tmp_path: Path, name: str) -> None:
    printed, curve, errors = ORIGINAL[name]
    result = _score(gold_path, tmp_path, name)
    assert r.printed(result) == printed
    if curve is not None:
        out = io.StringIO()
        r.write_curve(result, out)
        assert out.getvalue() == curve
        exported = r.curve_of(result)  # what --curves writes and the report holds
        assert exported.dat() == curve
        assert len(exported.threshold) == r.to_json(result)["points"]
        assert exported.threshold[-1] is None and exported.recall[-1] == 0.0
    if errors is not None:
        out = io.StringIO()
        r.write_errors(result, out)
        assert out.getvalue() == errors


def test_errors_are_gold_line_indices_for_a_text_gold(tmp_path: Path) -> None:
    gold = tmp_path / "OIE2016.txt"
    # the second column is the relation, every later one an argument
    gold.write_text("S one .\thead\tfull pred\tA\tB\nS one .\tx\ty\tz\n", encoding="utf-8")
    parsed = r.read_gold_text(str(gold))
    assert parsed == {
        "S one .": [
            Extraction("head", ("full pred", "A", "B"), 1.0, 0),
            Extraction("x", ("y", "z"), 1.0, 1),
        ]
    }
    system = {"S one": [Extraction("head", ("full", "pred", "A", "B"), 0.5)]}
    result = r.score(parsed, system)
    assert result.errors == [1]
    out = io.StringIO()
    r.write_errors(result, out)
    assert out.getvalue() == "1\n"


# --------------------------------------------------------------------------- reading


def test_gold_json_reader(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    data = {
        "S .": [
            _tuple("<be>", "A", "B"),
            _tuple("<be> born", "A", " ", loc="in X", temp="in 1990"),
            _tuple("<be>x", "A"),
        ],
        "Empty .": [],
    }
    path.write_text(json.dumps(data), encoding="utf-8")
    gold = r.read_gold_json(str(path))
    assert gold == {  # a sentence without tuples is no gold sentence
        "S .": [
            Extraction("[is]", ("A", "B"), 1.0),
            # a space is kept; temp comes before loc
            Extraction("born", ("A", " ", "in 1990", "in X"), 1.0),
            Extraction("<be>x", ("A",), 1.0),
        ]
    }


def test_gold_json_errors_name_the_location(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    bad = _tuple("is", "A")
    del bad["loc"]
    path.write_text(json.dumps({"S .": [_tuple("x"), bad]}), encoding="utf-8")
    with pytest.raises(ReOieError, match=r"g\.json: \$\[\"S \.\"\]\[1\]\['loc'\]: missing"):
        r.read_gold_json(str(path))
    path.write_text("{\n  oops", encoding="utf-8")
    with pytest.raises(ReOieError, match=r"g\.json:2: not JSON"):
        r.read_gold_json(str(path))


def test_system_reader(tmp_path: Path) -> None:
    path = tmp_path / "s.txt"
    path.write_text(
        "S\t1_0\tp\ta\n  S\t 2 \tp\ta\tb\t\n\nS\t3\tshort\nS\tx\tp\ta\n", encoding="utf-8"
    )
    with pytest.raises(ReOieError, match=r"s\.txt:5: confidence 'x' is not a number"):
        r.read_system(str(path))
    path.write_text("S\t1_0\tp\ta\n  S\t 2 \tp\ta\tb\t\n\nS\t3\tshort\n", encoding="utf-8")
    # lines stripped; "1_0" is float 10.0; the trailing empty column goes with the strip;
    # lines of fewer than four columns are skipped
    assert r.read_system(str(path)) == {
        "S": [Extraction("p", ("a",), 10.0), Extraction("p", ("a", "b"), 2.0)]
    }


def test_system_reader_counts_skipped_lines() -> None:
    text = "S\t1\tp\ta\n\nS\t3\tshort\n   \nT\n\tS\t2\tp\t\n"
    # the short line, "T", and the last one (three columns once stripped); not the blanks
    system, skipped = r.read_system_counted("s.txt", text)
    assert system == r.read_system("s.txt", text) == {"S": [Extraction("p", ("a",), 1.0)]}
    assert skipped == 3
    assert r.read_system_counted("s.txt", "S\t1\tp\ta\n\n") == (system, 0)


@pytest.mark.parametrize("depth", [5_000, 100_000])
def test_deep_gold_nesting_is_an_error(tmp_path: Path, depth: int) -> None:
    deep = '{"S .": [{"arg1": ' + '{"arg1": ' * depth + "1" + "}" * depth + "}]}"
    path = tmp_path / "deep.json"
    path.write_text(deep, encoding="utf-8")
    # How deep a JSON reader goes depends on the Python (3.13's goes deeper): the reader's
    # own error either way, on nesting or on the structure it finds, never RecursionError.
    with pytest.raises(ReOieError, match=r"^g\.json: "):
        r.read_gold_json("g.json", deep)
    with pytest.raises(ReOieError, match=r"deep\.json: "):
        r.read_gold_json(str(path))
    if depth > 10_000:  # beyond every Python's JSON reader: the nesting is what is said
        with pytest.raises(ReOieError, match=r"nesting too deep for a JSON reader$"):
            r.read_gold_json("g.json", deep)


def test_original_crashes_become_errors() -> None:
    with pytest.raises(ReOieError, match="no tuple"):
        r.score({}, {"S": [_ex("p", "a")]})
    with pytest.raises(ReOieError, match="no prediction"):
        r.score({"S": [_ex("p", "a")]}, {"T": [_ex("p", "a")]})


def test_sentence_keys_merge_last_wins() -> None:
    # two texts of one key: the last one's extractions replace the first's
    grouped = r.group({"A (b) .": [_ex("x")], "A -LRB- b -RRB-": [_ex("y")]})
    assert grouped == {"Ab": [_ex("y")]}


def test_collisions_count_the_texts_group_drops() -> None:
    texts = {
        "A ,": [_ex("x")],
        "B .": [_ex("b")],
        "A,": [_ex("y")],
        "A -COMMA-": [_ex("no escape")],  # not a Penn Treebank escape: its own key
        "(A)": [_ex("z")],
    }
    # "A ,", "A," and "(A)" share the key "A": the first two are dropped, "(A)" is kept
    assert r.group(texts)["A"] == [_ex("z")]
    assert r.dropped_texts(texts) == ["A ,", "A,"]
    assert r.collisions(texts) == 2
    assert r.collisions({"A": [], "B": []}) == 0 and r.dropped_texts({}) == []


def test_command(gold_path: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    curve = tmp_path / "curve.txt"
    assert r.main([gold_path, _system(tmp_path, "sys1"), str(curve)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(ORIGINAL["sys1"][0])
    assert json.loads(out.splitlines()[-1])["points"] == 3
    assert curve.read_text(encoding="utf-8") == ORIGINAL["sys1"][1]
    assert r.main([gold_path]) == 2


def test_the_command_never_writes_over_its_inputs(
    gold_path: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A curve or errors file named like the gold or the system output (a swapped argument)
    is refused, the input untouched; an output in no directory is one line (exit 2)."""
    system = _system(tmp_path, "sys1")
    before = Path(gold_path).read_bytes(), Path(system).read_bytes()
    for outputs in ([gold_path], [str(tmp_path / "c.txt"), system]):
        assert r.main([gold_path, system, *outputs]) == 2
        assert "is also an input" in capsys.readouterr().err
    assert (Path(gold_path).read_bytes(), Path(system).read_bytes()) == before
    curve = tmp_path / "curve.txt"  # (an ERRORS that is an input: the CURVE not written either)
    assert r.main([gold_path, system, str(curve), system]) == 2
    assert "is also an input" in capsys.readouterr().err and not curve.exists()
    assert r.main([gold_path, system, str(tmp_path / "none" / "c.txt")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {tmp_path / 'none' / 'c.txt'}") and len(err.splitlines()) == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"a \\"b\\"": [{"pred": 1}]}', '$["a \\"b\\""][0][\'pred\']: not a string'),
        ('{"s": [{"pred": "p"}]}', "$[\"s\"][0]['arg0']: missing"),
        ('{"s": 3}', '$["s"]: must be a list of tuples'),
        (
            '{"s": [{"pred": "p", "arg0": "", "arg1": "", "arg2": "", "arg3": "", "temp": "", '
            '"loc": ""}, 3]}',
            '$["s"][1]: a tuple must be a JSON object',
        ),
    ],
)
def test_a_bad_gold_tuple_is_named_by_its_json_path(content: str, message: str) -> None:
    """An error names the tuple by its JSON path, the sentence as JSON writes it; the path
    is formed only for the error, never for the valid tuples before it."""
    with pytest.raises(ReOieError) as raised:
        r.read_gold_json("gold.json", content)
    assert message in str(raised.value), str(raised.value)


def test_a_gold_number_too_long_to_convert_is_named_with_its_file() -> None:
    """Python's JSON reader refuses an integer of more than 4,300 digits with a plain
    ValueError, which lost the file's name; it is the gold's error now."""
    content = '{"s": [{"pred": ' + "9" * 5000 + "}]}"
    with pytest.raises(ReOieError) as raised:
        r.read_gold_json("gold.json", content)
    assert str(raised.value).startswith("gold.json: not JSON a reader takes: Exceeds the limit")


def test_a_json_path_escapes_what_a_terminal_does_not_show() -> None:
    """DEL and U+2028 (a line separator) in a sentence key are written as JSON escapes
    them: the one-line error stays one line; other scripts stay readable."""
    with pytest.raises(ReOieError) as raised:
        r.read_gold_json("gold.json", '{"a\\u007fb\\u2028c d\\u00e9": 3}')
    assert str(raised.value) == r'gold.json: $["a\u007fb\u2028c dé"]: must be a list of tuples'
