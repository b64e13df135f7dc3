"""LSOIE's metric (docs/lsoie.md): every rule on hand-worked examples, and the curve of a
small gold and system, whose ``.dat`` the original scorer (in the mode that re-derives the
published curves) writes byte for byte as below. The published curves themselves are
compared by ``perf/bench_lsoie.py``."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from benchie_cli.benchmarks.lsoie import metric
from benchie_cli.benchmarks.lsoie.metric import Extraction, GoldExtraction
from benchie_cli.errors import BenchieError


def _gold(pred: str, args: tuple[str, ...], heads: tuple[str, ...]) -> GoldExtraction:
    return GoldExtraction(pred, args, heads)


def _ex(pred: str, *args: str, confidence: float = 0.5) -> Extraction:
    return Extraction(pred, args, confidence)


ICE = _gold("is made", ("Ice", "of water"), ("made", "Ice", "water"))


@pytest.mark.parametrize(
    ("pred", "matched"),
    [("made", True), ("is", True), ("is made", False), ("Made", False), ("mad", False)],
)
def test_the_predicate_is_one_word_of_the_gold_s(pred: str, matched: bool) -> None:
    assert metric.head_match(ICE, _ex(pred, "Ice", "of water")) is matched


def test_the_arities_must_be_equal() -> None:
    assert not metric.head_match(ICE, _ex("made", "Ice"))
    assert not metric.head_match(ICE, _ex("made", "Ice", "of water", "today"))


@pytest.mark.parametrize(
    ("arg", "matched"),
    [
        ("the water", True),
        ("waterfall", True),  # a substring, not a word
        ("Water", False),  # case counts
        ("wat er", False),
    ],
)
def test_each_head_is_a_substring_of_its_argument(arg: str, matched: bool) -> None:
    assert metric.head_match(ICE, _ex("made", "Ice", arg)) is matched


def test_a_full_stop_head_is_skipped_and_an_empty_one_passes() -> None:
    gold = _gold("bark", ("Dogs", "at night"), ("bark", ".", ""))
    assert metric.head_match(gold, _ex("bark", "cats", "anything"))


def test_a_multi_word_head_must_be_contiguous() -> None:
    gold = _gold("lives", ("Ann", "in New York"), ("lives", "Ann", "New York"))
    assert metric.head_match(gold, _ex("lives", "Ann", "New York City"))
    assert not metric.head_match(gold, _ex("lives", "Ann", "New big York"))


def test_shifted_heads_check_what_sits_in_each_slot() -> None:
    # the head finder missed the predicate's head: "of" sits in its slot, arg 1 has none
    shifted = _gold("can changed", ("the number of things",), ("of",))
    assert metric.head_match(shifted, _ex("changed", "anything"))
    # one head missing further on: arg 1 is checked against arg 2's head, arg 2 not at all
    gold = _gold("gave", ("Ann", "Bob", "a book"), ("gave", "book"))
    assert metric.head_match(gold, _ex("gave", "the book", "x", "y"))
    assert not metric.head_match(gold, _ex("gave", "Ann", "Bob", "a book"))


def test_a_positioned_element_is_a_pair_compared_whole() -> None:
    lines = ["Birds sing .\t0.5\tsing##1\tBirds##0\n", "Birds sing .\t0.5\tsing\tBirds##0\n"]
    first, second = metric.read_system(lines)["Birds sing ."]
    gold = _gold("sing", ("Birds",), ("sing", "Bird"))
    assert not metric.head_match(gold._replace(heads=("sing", "Birds")), first)
    assert metric.head_match(gold._replace(heads=("sing", "Birds")), second)
    assert not metric.head_match(gold, second)  # "Bird" is not the whole "Birds"
    assert second.args == ("Birds",) and second.positioned == (False, True)


def test_more_than_one_separator_keeps_the_text_before_the_first() -> None:
    (ex,) = metric.read_system(["S .\t1\tsing##1##2\ta##b##c\n"])["S ."]
    assert ex.pred == "sing" and ex.args == ("a",) and ex.positioned == (False, False)


def test_without_heads_only_the_predicate_and_the_arity_count() -> None:
    gold = metric.read_gold(["Ice is made . \tis made\tIce\tof water\n"])
    (g,) = gold["Ice is made . "]
    assert g.heads == () and metric.head_match(g, _ex("made", "x", "y"))


def test_matching_is_one_to_one_in_file_order() -> None:
    birds = _gold("sing", ("Birds",), ("sing", "Birds"))
    one = _ex("sing", "Birds", confidence=0.9)
    other = _ex("sing", "the Birds", confidence=0.4)
    # a repeated gold line needs a second prediction
    assert metric.sentence_stats([birds, birds], [one]) == (2, (0.9,), ())
    assert metric.sentence_stats([birds, birds], [one, other]) == (2, (0.9, 0.4), ())
    # the first matching prediction is taken, the rest are negatives
    assert metric.sentence_stats([birds], [other, one]) == (1, (0.4,), (0.9,))


def test_a_sentence_without_prediction_counts_n_times_n() -> None:
    fish = _gold("swim", ("Fish",), ("swim", "Fish"))
    assert metric.sentence_stats([fish, fish, fish], []) == (9, (), ())
    assert metric.sentence_stats([fish], []) == (1, (), ())


GOLD = (
    "Birds sing . \tsing\tBirds\t<SYN_HEAD>\tsing\tBirds\n"
    "Birds sing . \tsing\tBirds\t<SYN_HEAD>\tsing\tBirds\n"
    "Ice is made of water . \tis made\tIce\tof water\t<SYN_HEAD>\tmade\tIce\twater\n"
    "Fish swim fast . \tswim\tFish\t<SYN_HEAD>\tswim\tFish\n"
    "Fish swim fast . \tswim fast\tFish\t<SYN_HEAD>\tswim\tFish\n"
    "Dogs bark loudly . \tbark\tDogs\t<SYN_HEAD>\tbark\t.\n"
)
SYSTEM = (
    "Birds sing .\t0.9\tsing\tthe Birds\n"
    "Ice is made of water .\t0.8\tmade\tIce\tof water\n"
    "Ice is made of water .\t0.7\tis made\tIce\tof water\n"
    "Dogs bark loudly .\t0.5\tbark\tanything\n"
    "Caf\u00e9 opens .\t0.4\topens\tCaf\u00e9\n"
)
#: What the original (the published curves' mode) writes for GOLD and SYSTEM: positives
#: 0.9 (Birds, once: one to one), 0.8 (Ice), 0.5 (Dogs, head "."), the negative 0.7 (a
#: two-word predicate); recall's denominator 2 + 1 + 2 * 2 (Fish, missed) + 1 = 8; no end
#: point. The sentence outside the gold (non-ASCII: LSOIE's gold has none) is ignored.
DAT = "Precision\tRecall\n1.0\t0.125\n0.666666666667\t0.25\n1.0\t0.25\n0.75\t0.375\n"


def test_a_small_corpus_gives_the_original_s_curve() -> None:
    result = metric.score(
        metric.read_gold(GOLD.splitlines(True)), metric.read_system(SYSTEM.splitlines(True))
    )
    out = io.StringIO()
    metric.write_dat(result.curve, out)
    assert out.getvalue() == DAT
    curve = metric.curve_of(result)  # what --curves writes and the report holds
    assert curve.dat() == DAT
    assert curve.as_json()["threshold"] == [0.5, 0.7, 0.8, 0.9]
    assert (result.n_gold, result.denominator, result.n_matched) == (6, 8, 3)
    # pr_plot.py: max F1 over the rows; the trapezoids of the rows of positive recall
    assert result.summary == (0.2135416666666875, 0.75, 0.375, 0.5, 0.5)


def test_the_command_line_writes_the_dat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold, system, dat = tmp_path / "g.head", tmp_path / "s.txt", tmp_path / "o.dat"
    gold.write_text(GOLD, encoding="utf-8")
    system.write_text(SYSTEM, encoding="utf-8")
    assert metric.main([str(gold), str(system), str(dat)]) == 0
    assert dat.read_text() == DAT
    assert '"matched": 3' in capsys.readouterr().out
    system.write_text("Birds sing .\tnot a number\tsing\tBirds\n")
    assert metric.main([str(gold), str(system)]) == 2
    assert (
        f"error: {system}:1: confidence 'not a number' is not a number" in capsys.readouterr().err
    )


def test_colliding_texts_keep_the_one_python_2_iterates_last() -> None:
    # CPython 2.7 iterates {'Birds sing .', 'Birds sing'} (inserted in that order) as
    # ['Birds sing', 'Birds sing .']: the first text in the file wins
    lines = ["Birds sing .\t0.9\tsing\tBirds\n", "Birds sing\t0.1\tsing\tBirds\n"]
    predicted = metric.read_system(lines)
    assert metric.group(predicted) == {"Birdssing": predicted["Birds sing ."]}
    assert metric.dropped_texts(predicted) == ["Birds sing"]
    # ... and as ['Fire burns .', 'Fire burns']: the second wins
    lines = ["Fire burns .\t0.9\tburns\tFire\n", "Fire burns\t0.1\tburns\tFire\n"]
    predicted = metric.read_system(lines)
    assert metric.group(predicted) == {"Fireburns": predicted["Fire burns"]}
    assert metric.collisions(predicted) == 1


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("S .\n", "need sentence, confidence, predicate"),
        ("S .\t1_0\tp\ta\n", "confidence '1_0' is not a number"),
        ("S .\tinf\tp\ta\n", "confidence 'inf' is not finite"),
        ("S .\t-Infinity\tp\ta\n", "confidence '-Infinity' is not finite"),
        ("S .\t1e999\tp\ta\n", r"confidence '1e999' is too large for a float \(it reads as"),
        ("S .\t" + "9" * 400 + "\tp\ta\n", "confidence '9{40}' is too large for a float"),
        ("S .\t1\tp##x\ta\n", "position 'x' after ## is not an integer"),
    ],
)
def test_what_the_original_cannot_read_is_an_error(line: str, message: str) -> None:
    with pytest.raises(BenchieError, match=message) as caught:
        metric.read_system(["\n", line], "sys.txt")
    assert caught.value.located().startswith("sys.txt:2: ")


def test_a_gold_line_the_matcher_cannot_use_is_an_error() -> None:
    with pytest.raises(BenchieError, match="need sentence<TAB>predicate"):
        metric.read_gold(["S .\n"], "g")
    with pytest.raises(BenchieError, match=r"is a \(text, \[positions\]\) pair"):
        metric.read_gold(["S .\t('sing', [1])\ta\n"], "g")


def test_lines_are_stripped_of_ascii_whitespace_only() -> None:
    (ex,) = metric.read_system([" S .\t0.5\tp\ta\u00a0\r\n"])["S ."]
    assert ex.args == ("a\u00a0",)
