"""WiRe57's metric (benchie_cli.benchmarks.wire57.metric): hand-worked fixtures for each rule,
and the output of the original scorer (rali-udem/WiRe57, code/wire_scorer.py) on the same
hand-made reference and export, hard-coded. Every input is made here; no published data is
read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchie_cli.benchmarks.wire57 import metric as w
from benchie_cli.benchmarks.wire57.metric import GoldPart, GoldTuple, Predicted, WireError


def _part(words: list[str], indexes: list[object]) -> dict[str, object]:
    return {"text": " ".join(words), "words": words, "words_indexes": indexes}


Part = tuple[list[str], list[object]]


def _gold(arg1: Part, rel: Part, arg2: Part, extra: tuple[Part, ...] = ()) -> dict[str, object]:
    return {
        "attrib/spec?": "",
        "arg1": _part(*arg1),
        "rel": _part(*rel),
        "arg2": _part(*arg2),
        "arg3+": [_part(*a) for a in extra],
    }


#: A WiRe57-style reference: one document, three sentences, four tuples. "inf" marks an
#: inferred word (the reference's text shows it in brackets: "[is]", "[was born in]").
REFERENCE = {
    "D": [
        {
            "id": "D 1",
            "sent": "Ann , a teacher , teaches math in Paris .",
            "tuples": [
                _gold((["Ann"], [0]), (["is"], ["inf"]), (["a", "teacher"], [2, 3])),
                _gold(
                    (["Ann"], [0]),
                    (["teaches"], [5]),
                    (["math"], [6]),
                    ((["in", "Paris"], [7, 8]),),
                ),
            ],
        },
        {
            "id": "D 2",
            "sent": "Bob sleeps .",
            "tuples": [_gold((["Bob"], [0]), (["sleeps"], [1]), ([], []))],
        },
        {
            "id": "D 3",
            "sent": "Carl , born in Lyon .",
            "tuples": [
                _gold(
                    (["Carl"], [0]),
                    (["was", "born", "in"], ["inf", "inf", "inf"]),
                    (["Lyon"], [4]),
                )
            ],
        },
    ]
}


def _pred(
    arg1: str, rel: str, arg2: str, system: str, extra: list[str] | None = None
) -> dict[str, object]:
    t: dict[str, object] = {"arg1": arg1, "rel": rel, "arg2": arg2, "extractor": system}
    t["score"] = 1.0
    if extra is not None:
        t["arg3+"] = extra
    return t


#: The systems' export: two systems mixed, and a sentence outside the reference.
EXPORT = {
    "D 1": [
        _pred("Ann", "is", "a teacher", "sysA"),
        _pred("Ann", "teaches", "math in Paris", "sysA"),
        _pred("Ann", "teaches", "math", "sysA", ["in Paris", "on Mondays"]),
        _pred("Ann", "teaches", "math", "sysA", ["in Paris", "on Mondays"]),  # duplicate
    ],
    "D 2": [_pred("Bob", "sleeps", "", "sysA"), _pred("Bob", "Sleeps", "", "sysB")],
    "D 3": [_pred("Carl", "born", "Lyon , France", "sysB")],
    "D 9": [_pred("Zed", "is", "here", "sysA")],
}

#: The original's output on REFERENCE and EXPORT, obtained with WiRe57 at 9273758 under
#: Python 3.6.15 (see /tmp/wire57-run.sh): both written as the file names it expects, then
#:   mkdir raw_scores && python code/wire_scorer.py
#: raw_scores/sysA_prec_scores.dat: [1.0, 1.0, 1.0], _rec_scores.dat: [1.3333333333333333,
#: 1.0, 1.0]; sysB: [0.6] and [1.5].
ORIGINAL = """
System sysA prec/rec/f1: 60.0% 83.3% 0.698
System sysA prec/rec of matches only (non-matches): 100% 111% (3)
4 were exactly correct, out of 5 predicted / the reference 4.
Exact-match prec/rec/f1: 80.0% 75.0% 0.774

System sysB prec/rec/f1: 30.0% 37.5% 0.333
System sysB prec/rec of matches only (non-matches): 60% 150% (1)
0 were exactly correct, out of 2 predicted / the reference 4.
Exact-match prec/rec/f1: 0.0% 0.0% 0.000
"""


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str]:
    ref, exp = tmp_path / "reference.json", tmp_path / "export.json"
    ref.write_text(json.dumps(REFERENCE), encoding="utf-8")
    exp.write_text(json.dumps(EXPORT), encoding="utf-8")
    return str(ref), str(exp)


@pytest.fixture
def scores(files: tuple[str, str]) -> dict[str, w.SystemScore]:
    return w.score_all(w.read_reference(files[0]), w.read_export(files[1]))


def _gp(words: str, indexes: list[object]) -> GoldPart:
    real = sum(1 for i in indexes if i != "inf")
    return GoldPart(tuple(words.split()), real, real == 0)


G1 = GoldTuple(_gp("Ann", [0]), _gp("is", ["inf"]), _gp("a teacher", [2, 3]), ())
G2 = GoldTuple(_gp("Ann", [0]), _gp("teaches", [5]), _gp("math", [6]), (_gp("in Paris", [7, 8]),))


# --------------------------------------------------------------------------- the match


def test_inferred_words() -> None:
    # G1's rel "[is]" is inferred: "is" matches it (numerator) but adds nothing to the
    # recall denominator, which counts Ann + a teacher = 3 real words: recall 4/3 > 1
    assert w.tuple_match(Predicted("Ann", "is", "a teacher"), G1) == (4 / 4, 4 / 3)
    # an inferred-only part need not match: "teaches" meets nothing, yet no veto
    assert w.tuple_match(Predicted("Ann", "teaches", "a teacher"), G1) == (3 / 4, 3 / 3)
    # an empty predicted part against an inferred-only one is skipped
    assert w.tuple_match(Predicted("Ann", "", "a teacher"), G1) == (3 / 3, 3 / 3)
    # but a non-inferred part that shares no word vetoes the match
    assert w.tuple_match(Predicted("Bob", "is", "a teacher"), G1) is None


def test_case_punctuation_and_repetitions() -> None:
    gold = GoldTuple(_gp("Bob", [0]), _gp("sleeps", [1]), _gp("", []), ())
    assert w.tuple_match(Predicted("Bob", "Sleeps", ""), gold) is None  # case-sensitive
    assert w.tuple_match(Predicted("Bob,", "sleeps", ""), gold) is None  # "Bob," != "Bob"
    # predicted words count with repetitions: 3 of 3 against 2 real gold words
    assert w.tuple_match(Predicted("Bob Bob", "sleeps", ""), gold) == (3 / 3, 3 / 2)
    # an empty reference part is "inferred only": a predicted arg2 adds to precision only
    assert w.tuple_match(Predicted("Bob", "sleeps", "well"), gold) == (2 / 3, 2 / 2)


def test_n_ary_tuples() -> None:
    # G2 has one extra argument "in Paris" (2 real words): recall denominator 1+1+1+2 = 5
    # whether or not the prediction has it
    assert w.tuple_match(Predicted("Ann", "teaches", "math in Paris"), G2) == (3 / 5, 3 / 5)
    # a predicted extra argument is compared by position; the second one is ignored
    both = Predicted("Ann", "teaches", "math", ("in Paris", "on Mondays"))
    assert w.tuple_match(both, G2) == (5 / 5, 5 / 5)
    # extra arguments of a prediction against a binary reference tuple are ignored
    assert w.tuple_match(Predicted("Ann", "is", "a teacher", ("x y",)), G1) == (1.0, 4 / 3)
    # exact match: strings equal to the joined words, the reference's extra ones included
    assert w.exact_match(both, G2)
    assert not w.exact_match(Predicted("Ann", "teaches", "math"), G2)
    assert w.exact_match(Predicted("Ann", "is", "a teacher"), G1)  # inferred words typed


def test_greedy_by_f1_with_a_duplicate() -> None:
    """D 1 for sysA. Pairs (precision, recall, F1): G1-P1 (1, 4/3, 8/7); G2-P2 (.6, .6,
    .6); G2-P3 and G2-P4 (1, 1, 1). Others are no match. Greedy by F1: G1-P1, then G2-P3
    (P3 before its duplicate P4 among equal F1s); P2 and P4 stay unmatched."""
    preds = [
        Predicted("Ann", "is", "a teacher"),
        Predicted("Ann", "teaches", "math in Paris"),
        Predicted("Ann", "teaches", "math", ("in Paris", "on Mondays")),
        Predicted("Ann", "teaches", "math", ("in Paris", "on Mondays")),
    ]
    s = w.sentence_stats([G1, G2], preds)
    assert s.matches == ((1.0, 4 / 3), (1.0, 1.0))
    assert s.precision == (1.0 + 1.0, 4) and s.recall == (4 / 3 + 1.0, 2)
    # exact: P1 equals G1, P3 and P4 equal G2 (not one-to-one): 3 of 4; both gold found
    assert s.exact_precision == (3, 4) and s.exact_recall == (2, 2)
    # no prediction: the sentence adds its reference tuples to recall's denominator only
    assert w.sentence_stats([G1], []) == w.SentenceStats((0.0, 0), (0.0, 1), (), (0, 0), (0, 1))


# --------------------------------------------------------------------------- the corpus


def test_hand_worked_scores(scores: dict[str, w.SystemScore]) -> None:
    """sysA: D 1 as above (precision sum 2 of 4, recall sum 4/3 + 1 of 2); D 2 "Bob sleeps
    ''" = (1, 1), exact; D 3 no prediction (recall denominator + 1); D 9 is outside.
    P = (2 + 1 + 0) / (4 + 1 + 0) = .6; R = (4/3 + 1 + 1 + 0) / (2 + 1 + 1) = 5/6.
    sysB: D 2 "Sleeps" no match; D 3 "Carl born Lyon , France": Carl 1, born 1 (an
    inferred word, real 0), Lyon 1 of 3 words: (3/5, 3/2). P = .6 / 2, R = 1.5 / 4; its
    exact F1 is 0 / 0, which the scorer makes 0."""
    a, b = scores["sysA"], scores["sysB"]
    assert (a.precision, a.recall) == (3.0 / 5, ((4 / 3 + 1.0) + 1.0) / 4)
    assert a.f1 == 2 * a.precision * a.recall / (a.precision + a.recall)
    assert (a.matches, a.precision_of_matches, a.recall_of_matches) == (3, 1.0, a.recall * 4 / 3)
    assert (a.exact_precision, a.exact_recall) == ((4, 5), (3, 4))
    assert a.exact_f1 == 2 * 0.8 * 0.75 / (0.8 + 0.75)
    assert (a.precision_scores, a.recall_scores) == ([1.0, 1.0, 1.0], [4 / 3, 1.0, 1.0])
    assert (b.precision, b.recall, b.matches) == (0.6 / 2, 1.5 / 4, 1)
    assert (b.precision_of_matches, b.recall_of_matches) == (0.6, 1.5)
    assert b.exact_f1 == 0 and (b.exact_precision, b.exact_recall) == ((0, 2), (0, 4))


def test_original_output(scores: dict[str, w.SystemScore]) -> None:
    assert w.printed(scores) == ORIGINAL
    assert w.raw_scores(scores["sysA"]) == ("[1.0, 1.0, 1.0]", "[1.3333333333333333, 1.0, 1.0]")
    assert w.raw_scores(scores["sysB"]) == ("[0.6]", "[1.5]")


def test_systems_of_equal_f1_print_once(scores: dict[str, w.SystemScore]) -> None:
    # the scorer keys its reports by F1: of two equal ones, the last by name survives
    same = {"x": scores["sysA"], "y": scores["sysA"]}
    assert w.printed(same).count("System y prec/rec/f1") == 1
    assert "System x" not in w.printed(same)


def test_command(
    files: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    raw = tmp_path / "raw"
    raw.mkdir()
    assert w.main([*files, "--raw-scores", str(raw)]) == 0
    assert capsys.readouterr().out == ORIGINAL
    assert (raw / "sysB_rec_scores.dat").read_text(encoding="utf-8") == "[1.5]"
    assert w.main([*files, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["sysA"]["matches"] == 3
    assert w.main([files[0]]) == 2


# ("y" * 240: its file name, "<name>_prec_scores.dat", is 256 bytes, one over the limit)
@pytest.mark.parametrize("hostile", ["../up", "a\x00b", "\ud800", "x" * 300, "y" * 240])
def test_raw_scores_of_a_system_named_as_no_file_writes_none(
    tmp_path: Path, hostile: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A system whose name cannot be a file's name in DIR: one line, and no file written,
    not even the other systems' (every name is checked before any file is written)."""
    ref, exp = tmp_path / "reference.json", tmp_path / "export.json"
    ref.write_text(json.dumps(REFERENCE), encoding="utf-8")
    export = json.loads(json.dumps(EXPORT))
    for tuples in export.values():  # (sysB: sysA's files would otherwise be written first)
        for t in tuples:
            t["extractor"] = hostile if t["extractor"] == "sysB" else t["extractor"]
    exp.write_text(json.dumps(export), encoding="utf-8")
    raw = tmp_path / "raw"
    raw.mkdir()
    assert w.main([str(ref), str(exp), "--raw-scores", str(raw)]) == 2
    assert capsys.readouterr().err.startswith(f"error: {exp}: system ")
    assert list(raw.iterdir()) == [] and not (tmp_path / "up_prec_scores.dat").exists()


def test_raw_scores_go_only_where_they_can(
    files: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A directory that does not exist is one line (exit 2), not a traceback."""
    assert w.main([*files, "--raw-scores", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and len(err.splitlines()) == 1


# --------------------------------------------------------------------------- errors


def test_reader_errors_name_the_json_location(tmp_path: Path) -> None:
    ref = tmp_path / "ref.json"
    bad = json.loads(json.dumps(REFERENCE))
    del bad["D"][1]["tuples"][0]["rel"]["words_indexes"]
    ref.write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(WireError, match=r'ref\.json: \$\["D"\]\[1\]\["tuples"\]\[0\]\["rel"\]'):
        w.read_reference(str(ref))
    exp = tmp_path / "exp.json"
    exp.write_text(json.dumps({"D 1": [{"arg1": "a", "rel": 3}]}), encoding="utf-8")
    with pytest.raises(WireError, match=r'exp\.json: \$\["D 1"\]\[0\]\["rel"\]: must be'):
        w.read_export(str(exp))


def test_original_crashes_become_errors(files: tuple[str, str]) -> None:
    reference = w.read_reference(files[0])
    export = w.read_export(files[1])
    del export["D 2"]
    with pytest.raises(WireError, match="'D 2' is not in the export"):
        w.by_system(reference, export)
    with pytest.raises(WireError, match="divides by zero"):  # no prediction at all
        w.system_score(reference, {})
    with pytest.raises(WireError, match="'D 1': a reference sentence without tuples"):
        w.system_score({"D 1": []}, {"D 1": [Predicted("a", "b", "c")]})


@pytest.mark.parametrize("depth", [5_000, 100_000])
def test_deep_nesting_is_an_error_not_a_recursion_error(tmp_path: Path, depth: int) -> None:
    deep = '{"D 1": [{"arg1": ' + '{"arg1": ' * depth + "1" + "}" * depth + "}]}"
    path = tmp_path / "deep.json"
    path.write_text(deep, encoding="utf-8")
    # How deep a JSON reader goes depends on the Python (3.13's goes deeper): the reader's
    # own error either way, on nesting or on the structure it finds, never RecursionError.
    for read in (w.read_export, w.read_reference):
        with pytest.raises(WireError, match=r"^x\.json: "):
            read("x.json", deep)  # json.loads on the text
        with pytest.raises(WireError, match=r"deep\.json: "):
            read(str(path))  # json.load on the file
    if depth > 10_000:  # beyond every Python's JSON reader: the nesting is what is said
        with pytest.raises(WireError, match=r"nesting too deep for a JSON reader$"):
            w.read_export("x.json", deep)
    for text in (deep, None):
        try:
            assert w.duplicate_keys("x.json" if text else str(path), text) == []
        except WireError as exc:
            assert str(exc).endswith("nesting too deep for a JSON reader")


def test_duplicate_keys(tmp_path: Path) -> None:
    tuple_ = '{"arg1": "Bob", "rel": "sleeps", "arg2": "", "extractor": "s"}'
    twice = '{"arg1": "Ann", "rel": "x", "rel": "sleeps", "arg2": "", "extractor": "s"}'
    text = f'{{"D 1": [{tuple_}], "D 2": [{twice}], "D 1": [{tuple_}], "D 1": []}}'
    # the reader keeps the last value at the first position, as json.load does
    export = w.read_export("x.json", text)
    assert list(export) == ["D 1", "D 2"] and export["D 1"] == []
    assert export["D 2"][0].rel == "sleeps"
    # "D 1" three times: two repetitions; then the one inside D 2's tuple
    assert w.duplicate_keys("x.json", text) == ['$["D 1"]', '$["D 1"]', '$["D 2"][0]["rel"]']
    path = tmp_path / "ref.json"
    path.write_text(json.dumps(REFERENCE), encoding="utf-8")
    assert w.duplicate_keys(str(path)) == []
    text = '{"D": [{"id": "D 1", "tuples": []}], "E": [], "D": []}'
    assert w.duplicate_keys("ref.json", text) == ['$["D"]']
    assert w.read_reference("ref.json", text) == {}
    with pytest.raises(WireError, match=r"^x\.json:1: not JSON"):
        w.duplicate_keys("x.json", "{")


def test_a_system_without_match_is_named(files: tuple[str, str]) -> None:
    reference = w.read_reference(files[0])
    nothing = {"D 2": [Predicted("Zed", "naps", "", extractor="sysC")]}
    with pytest.raises(
        WireError,
        match=r"^system sysC: 0 matches \(1 predictions on the reference sentences, "
        r"4 reference tuples\): WiRe57's scorer divides by zero for it$",
    ):
        w.system_score(reference, nothing, system="sysC")
    with pytest.raises(WireError, match=r"^0 matches \(0 predictions"):
        w.system_score(reference, {})
    # a tuple the scorer cannot compare: the system first, then the sentence
    with pytest.raises(WireError, match=r"^system s: sentence 'D 1': a reference sentence"):
        w.system_score({"D 1": []}, {"D 1": [Predicted("a", "b", "c")]}, system="s")
    # score_all names the system it stops at
    export = w.read_export(files[1])
    export["D 2"].append(Predicted("Zed", "naps", "", extractor="sysC"))
    with pytest.raises(WireError, match=r"^system sysC: 0 matches"):
        w.score_all(reference, export)


def test_a_number_too_long_to_convert_is_named_with_its_file() -> None:
    """An integer of more than 4,300 digits makes Python's JSON reader raise a plain
    ValueError, which lost the file's name; it is WiRe57's reader's error now."""
    with pytest.raises(WireError, match=r"^ref.json: not JSON a reader takes: Exceeds the limit"):
        w.read_reference("ref.json", '{"1": ' + "9" * 5000 + "}")
