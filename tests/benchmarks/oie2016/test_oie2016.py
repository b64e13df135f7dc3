"""OIE2016's metric (benchie_cli.benchmarks.oie2016.metric): the published curves of oie-benchmark
reproduced byte for byte, small cases worked out by hand, and the WordNet lemmatiser
against NLTK's answers."""

from __future__ import annotations

import gzip
import io
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchie_cli.benchmarks.carb.data import Extraction
from benchie_cli.benchmarks.oie2016 import data, matching
from benchie_cli.benchmarks.oie2016 import metric as m
from benchie_cli.benchmarks.oie2016.wordnet import lemmatize
from benchie_cli.errors import BenchieError
from benchie_cli.workers import allowed
from tests.conftest import DATA as TEST_DATA
from tests.conftest import REPO

#: The gold store's OIE2016 corpus without pronoun arguments, against which oie-benchmark's
#: published curves were made (re-point it to test another copy).
CORPUS = REPO / "gold" / "oie2016" / "2.0.0"
DATA = TEST_DATA / "oie2016"

# --------------------------------------------------------------------------- published curves

PUBLISHED = [
    # (system output, format, published curve, number of rows, matched gold extractions)
    ("clausie_output.txt.gz", "clausie", "ClausIE.dat.gz", 2921, 5755),
    ("openie4_output.txt.gz", "openie4", "OpenIE-4.dat.gz", 2536, 5815),
    ("props_output.txt.gz", "props", "PropS.dat.gz", 2896, 4084),
]


@pytest.fixture(scope="module")
def gold() -> data.Extractions:
    """The three splits, as eval.sh scored them (all.oie is dev, train and test
    concatenated; the order does not change the score, docs/oie2016.md)."""
    merged: data.Extractions = {}
    for split in ("dev", "train", "test"):
        for text, exs in data.read_file(
            str(CORPUS / split / f"{split}.oie"), data.read_gold
        ).items():
            merged.setdefault(text, []).extend(exs)
    return merged


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize(("output", "fmt", "dat", "rows", "matched"), PUBLISHED)
def test_published_curves(
    gold: data.Extractions,
    output: str,
    fmt: str,
    dat: str,
    rows: int,
    matched: int,
    jobs: int,
    forking: None,
) -> None:
    """The published curves, also with the statistics shared out to a worker process."""
    with allowed(jobs):
        result = m.score(gold, data.read_system(str(DATA / output), fmt))
    assert result.n_gold == 8481
    assert result.n_matched == matched
    published = gzip.decompress((DATA / dat).read_bytes()).decode("ascii")
    # point for point, to 1e-12 (the file has 12 significant digits)
    lines = published.splitlines()
    assert lines[0] == "Precision\tRecall"
    expected = [tuple(map(float, line.split("\t"))) for line in lines[1:]]
    ours = m.dat_rows(result.curve)
    assert len(ours) == len(expected) == rows
    for point, (precision, recall) in zip(ours, expected, strict=True):
        assert abs(point.precision - precision) <= 1e-12
        assert abs(point.recall - recall) <= 1e-12
    # and byte for byte
    out = io.StringIO()
    m.write_dat(result.curve, out)
    assert out.getvalue() == published


# --------------------------------------------------------------------------- by hand


def ex(pred: str, *args: str, confidence: float = 1.0) -> Extraction:
    return Extraction(pred, args, confidence)


GOLD_A = {
    "John met Mary .": [ex("met", "John", "Mary"), ex("saw", "John", "Mary")],
    "The dogs bark at cats .": [ex("bark at", "The dogs", "cats")],
    "Nobody came home .": [ex("came", "Nobody", "home")],
}
SYSTEM_A = {
    "John met Mary .": [
        ex("met", "John", "Mary", confidence=0.9),
        ex("met", "John", "Mary", confidence=0.9),  # a duplicate
        ex("saw", "John", "Mary", confidence=0.5),
    ],
    # different tokenisation, same sentence key
    "The dogs bark at cats.": [ex("barks", "dogs", "cats", confidence=0.5)],
    # outside the gold: ignored, its confidence is no threshold
    "Something else happened .": [ex("happened", "it", "here", confidence=0.99)],
}


def test_hand_computed_curve() -> None:
    # "John met Mary": gold "met" takes the first "met" prediction (3 of 3 words): a
    # positive at 0.9. Gold "saw" shares no predicate lemma with "met"; it takes "saw": a
    # positive at 0.5. The duplicate "met" is never taken (its first copy comes first): a
    # negative at 0.9.
    # "The dogs bark at cats": "barks" lemmatises to "bark", which the gold predicate
    # "bark at" has; "dogs" and "cats" are 2 of the gold's 5 words, 0.4 > 0.25: a positive
    # at 0.5. "Nobody came home" has no prediction: its gold extraction is not found.
    # Samples: 0.9 (+), 0.9 (-), 0.5 (+), 0.5 (+); 3 of 4 gold extractions matched.
    stats = m.corpus_stats(GOLD_A, SYSTEM_A).sentences
    assert [tuple(s) for s in stats.values()] == [
        (2, (0.9, 0.5), (0.9,)),
        (1, (0.5,), ()),
        (1, (), ()),
    ]
    points = m.curve(stats.values())
    # Thresholds 0.9 and 0.5 (ties are one threshold). At 0.9: 1 positive of 2 samples,
    # precision 0.5, recall (1/3) * (3/4). At 0.5: 3 of 4, precision 0.75, recall
    # (3/3) * (3/4); every positive is counted, so no lower threshold would follow.
    # In scikit-learn's order: ascending confidence, then precision 1, recall 0.
    assert points == [
        m.CurvePoint(0.5, 0.75, (3 / 3) * (3 / 4), 3, 4),
        m.CurvePoint(0.9, 0.5, (1 / 3) * (3 / 4), 1, 2),
        m.CurvePoint(math.inf, 1.0, 0.0, 0, 0),
    ]
    out = io.StringIO()
    m.write_dat(points, out)
    # rows by recall: 0, 0.25 ((1/3) * 0.75 is 0.25 in floats too), 0.75
    assert out.getvalue() == "Precision\tRecall\n1.0\t0.0\n0.5\t0.25\n0.75\t0.75\n"
    # trapezoids over the rows: 0.25 * (1 + 0.5) / 2 + 0.5 * (0.5 + 0.75) / 2 = 0.1875 + 0.3125
    assert m.auc(points) == 0.5
    # F1: 0 at the end point, 2 * 0.5 * 0.25 / 0.75 = 1/3 at 0.9, 0.75 at 0.5
    best = m.best_f1(points)
    assert best is not None
    assert best.confidence == 0.5
    assert m.f1(best) == 0.75


def test_no_match_gives_nan_recall() -> None:
    # One gold extraction, one prediction with another predicate: one negative sample, no
    # positive. scikit-learn's recall is 0/0 = NaN and stays NaN after scaling by 0/1;
    # precision is 0/1. Only the highest threshold is kept (tps reaches its total, 0, at
    # once). The rows keep their order: NaN compares false with 0.0.
    gold = {"John met Mary .": [ex("met", "John", "Mary")]}
    system = {"John met Mary .": [ex("ran", "Mary", "away", confidence=0.3)]}
    points = m.curve(m.corpus_stats(gold, system).sentences.values())
    assert len(points) == 2
    assert (points[0].confidence, points[0].precision) == (0.3, 0.0)
    assert math.isnan(points[0].recall)
    out = io.StringIO()
    m.write_dat(points, out)
    assert out.getvalue() == "Precision\tRecall\n0.0\tnan\n1.0\t0.0\n"
    assert m.auc(points) == 0.0
    assert m.best_f1(points) is None


def test_no_sample_and_empty_gold() -> None:
    # No prediction for any gold sentence: the original fails in scikit-learn; we give the
    # end point alone.
    gold = {"John met Mary .": [ex("met", "John", "Mary")]}
    assert m.curve(m.corpus_stats(gold, {}).sentences.values()) == [m.END]
    with pytest.raises(ValueError, match="no extraction"):
        m.curve([])


def test_a_sentence_without_predictions_is_its_gold_count_alone() -> None:
    """The short cut (no gold tuple prepared) gives what the matching loop gives."""
    gold = [ex("met", "John", "Mary"), ex("met", "John", "Mary"), ex("is", "Mary", "tall")]
    assert m.sentence_stats(gold, []) == matching._stats([matching._gold(g) for g in gold], [])
    assert m.sentence_stats(gold, []) == m.SentenceStats(3, (), ())


def test_prediction_serving_two_gold_extractions() -> None:
    # Both gold extractions match the one prediction: two positives at 0.7, no negative.
    gold = {"s": [ex("met", "John", "Mary"), ex("met", "John", "Mary Smith")]}
    system = {"s": [ex("met", "John", "Mary", confidence=0.7)]}
    stats = m.corpus_stats(gold, system).sentences["s"]
    assert stats == m.SentenceStats(2, (0.7, 0.7), ())


@pytest.mark.parametrize(
    ("gold", "predicted", "expected"),
    [
        # noun.exc: "mice" -> "mouse"; 2 of 3 gold words in the prediction
        (ex("mice", "cats", "chase"), ex("mouse", "cats", "chase"), True),
        # a word WordNet does not know stays itself: "xyzzies" != "xyzzy"
        (ex("xyzzies", "a", "b"), ex("xyzzy", "a", "b"), False),
        # "was" is lemmatised as a noun, to "wa"; "is" stays: no common predicate lemma
        (ex("was", "John", "Mary"), ex("is", "John", "Mary"), False),
        # case counts: "Books" is no WordNet lemma and stays, "book" does not match it
        (ex("Books", "a", "b"), ex("book", "a", "b"), False),
        # exactly a quarter (1 of 4 gold words: "met") is not enough
        (ex("met", "John", "Mary Smith"), ex("met", "x", "y"), False),
        # a word twice in each bag counts four times: 4 "of" 9 gold words, 0.44 (counted
        # once per occurrence it would be 2 of 9, 0.22)
        (ex("the", "the", "a b c d e f g"), ex("the the", "x", "y"), True),
    ],
)
def test_lexical_match(gold: Extraction, predicted: Extraction, expected: bool) -> None:
    assert m.lexical_match(gold, predicted) is expected


# --------------------------------------------------------------------------- lemmatiser

#: NLTK 3.2.1's WordNetLemmatizer().lemmatize(word) with WordNet 3.0 (Debian wordnet-base
#: 1:3.0-37), obtained in the pinned Python 2.7 environment of the original scorer.
NLTK = [
    ("geese", "goose"),
    ("mice", "mouse"),
    ("oxen", "ox"),
    ("men", "men"),
    ("women", "woman"),
    ("children", "child"),
    ("feet", "foot"),
    ("teeth", "teeth"),
    ("buses", "bus"),
    ("gases", "gas"),
    ("wolves", "wolf"),
    ("knives", "knife"),
    ("boxes", "box"),
    ("churches", "church"),
    ("dishes", "dish"),
    ("ladies", "lady"),
    ("cities", "city"),
    ("Books", "Books"),
    ("books", "book"),
    ("Geese", "Geese"),
    ("is", "is"),
    ("was", "wa"),
    ("has", "ha"),
    ("does", "doe"),
    ("said", "said"),
    ("says", "say"),
    ("told", "told"),
    ("added", "added"),
    ("adds", "add"),
    ("went", "went"),
    ("goes", "go"),
    ("running", "running"),
    ("being", "being"),
    ("corpora", "corpus"),
    ("data", "data"),
    ("criteria", "criterion"),
    ("phenomena", "phenomenon"),
    ("aurar", "eyrir"),
    ("diastemata", "diastema"),
    ("xyzzies", "xyzzies"),
    ("sss", "ss"),
    ("ss", "s"),
    ("s", "s"),
    ("", ""),
    ("boss", "bos"),
    ("glasses", "glass"),
    ("analyses", "analysis"),
    ("axes", "ax"),
    ("dies", "dy"),
    ("cookies", "cooky"),
    ("hoses", "hose"),
    ("series", "series"),
    ("species", "specie"),
    ("news", "news"),
    ("scissors", "scissors"),
    ("people", "people"),
    ("U.S.", "U.S."),
    ("Obama", "Obama"),
    ("headquarters", "headquarters"),
    ("bureaus", "bureau"),
    ("pence", "penny"),
    ("dice", "dice"),
    ("media", "medium"),
    ("taxes", "tax"),
    ("fishes", "fish"),
    ("lives", "life"),
    ("leaves", "leaf"),
    ("thieves", "thief"),
]


@pytest.mark.parametrize(("word", "lemma"), NLTK)
def test_lemmatize_as_nltk(word: str, lemma: str) -> None:
    assert lemmatize(word) == lemma


# --------------------------------------------------------------------------- readers


def test_python2_lines_and_strip() -> None:
    # A line ends at \n only; strip() removes ASCII whitespace only (not a no-break space).
    lines = ["s\xa0\tmet\tmet\tJohn\tMary\r\n", "t\x0cu\tb\tp\ta\n"]
    gold = data.read_gold(lines, "g.oie")
    assert list(gold) == ["s\xa0", "t\x0cu"]
    assert gold["s\xa0"] == [ex("met", "John", "Mary")]


def test_rescaled_confidences() -> None:
    # ClausIE: ((c - min) + 0.001) / ((max - min) + 0.002), over every extraction
    lines = ["A b c .\n", '1\t"A"\t"b"\t"c"\t-2\n', '1\t"A"\t"b"\t"c d"\t2\n', "\n"]
    got = data.read_clausie(lines, "c.txt")
    low, high = -2.0, 2.0
    denominator = high - low + 2 * 0.001
    assert [e.confidence for e in got["A b c ."]] == [
        ((low - low) + 0.001) / denominator,
        ((high - low) + 0.001) / denominator,
    ]
    assert got["A b c ."][1].args == ("A", "c d")
    assert "" not in got  # the blank line is a sentence without extractions


@pytest.mark.parametrize(
    ("reader", "lines", "line"),
    [
        (data.read_gold, ["s\tv\n"], 1),
        (data.read_clausie, ['1\t"a"\t"b"\t"c"\t0.5\n'], 1),
        (data.read_openie4, ["x\t\tA(a,List())\tB(b,List())\tC(c,List())\ts\n"], 1),
        (data.read_openie4, ["0.5\t\tA(a,List())\tB(b)\tC(c,List())\ts\n"], 1),
        (data.read_props, ["\n", "nan\ts\tr\tsubj\ta\n"], 2),
        (data.read_tabbed, ["s\t1_0\tr\ta\n"], 1),
    ],
)
def test_reader_errors_name_the_line(reader: data.Reader, lines: list[str], line: int) -> None:
    with pytest.raises(BenchieError) as caught:
        reader(lines, "f.txt")
    assert (caught.value.path, caught.value.line) == ("f.txt", line)


def test_collisions_count_the_texts_group_drops() -> None:
    texts = {
        " ,": [ex("a", "b")],
        "John met Mary .": [ex("met", "John", "Mary")],
        ",": [ex("c", "d")],
        "John met Mary": [ex("saw", "John", "Mary")],
    }
    # " ," and "," share the key "", "John met Mary ." and "John met Mary" "JohnmetMary":
    # group keeps the last text of each
    assert m.group(texts) == {"": [ex("c", "d")], "JohnmetMary": [ex("saw", "John", "Mary")]}
    assert m.dropped_texts(texts) == [" ,", "John met Mary ."]
    assert m.collisions(texts) == 2
    assert m.collisions({"a": [], "b": []}) == 0 and m.dropped_texts({}) == []


def _reverb(number: str, text: str | None, arg1: str = "A") -> str:
    cols = ["f.txt", number, arg1, "met", "B", "0", "1", "1", "2", "2", "3", "0.5"]
    return "\t".join(cols if text is None else [*cols, text, "NNP VBD NNP"]) + "\n"


def test_reverb_mismatches() -> None:
    sentences = ["Ann met Bob .", "Carl -LRB- a cook -RRB- met Dan ."]
    lines = [
        _reverb("1", "Ann met Bob."),  # the same sentence under the key: no mismatch
        _reverb("2", "Carl ( a cook ) met Dan ."),  # bracket escapes undone: the same
        _reverb("1", "Carl ( a cook ) met Dan ."),  # number 1, text of sentence 2
        _reverb("0", "Ann met Bob ."),  # 0 counts from the end, as the reader does
        _reverb("2", None),  # no text column: not checked
        _reverb("2", " "),  # an empty one neither
        _reverb("9", "Ann met Bob ."),  # a number read_reverb refuses: not checked
        "f.txt\t1\tshort\n",  # too few columns: not checked
    ]
    assert data.reverb_mismatches(lines, sentences) == (2, 4)
    # the reader itself still follows the number
    got = data.read_reverb(lines[:6], "r.txt", sentences=sentences)
    assert [len(got[s]) for s in sentences] == [2, 4]
    assert data.reverb_mismatches([], sentences) == (0, 0)


def _curve_counted_one_by_one(stats: list[m.SentenceStats]) -> list[tuple[str, ...]]:
    """The curve as it was computed before its counts moved to C: sample by sample, each
    sentence's positives then its negatives (the reference the faster count must equal,
    thresholds' signs included)."""
    positives: dict[float, int] = {}
    samples: dict[float, int] = {}
    for sentence in stats:
        for c in sentence.positives:
            positives[c] = positives.get(c, 0) + 1
            samples[c] = samples.get(c, 0) + 1
        for c in sentence.negatives:
            samples[c] = samples.get(c, 0) + 1
    n_gold = sum(sentence.n_gold for sentence in stats)
    n_positive = sum(positives.values())
    rows, tp, n = [], 0, 0
    for c in sorted(samples, reverse=True):
        tp += positives.get(c, 0)
        n += samples[c]
        recall = tp / n_positive if n_positive else math.nan
        rows.append((repr(c), repr(tp / n), repr(recall * (n_positive / n_gold)), repr(tp)))
        if tp == n_positive:
            break
    return rows[::-1]


_CONFIDENCES = st.sampled_from([0.0, -0.0, 0.5, -0.5, 1.0, 0.25, 1e-9])
_SENTENCE = st.builds(
    m.SentenceStats,
    st.integers(1, 4),
    st.lists(_CONFIDENCES, max_size=3).map(tuple),
    st.lists(_CONFIDENCES, max_size=4).map(tuple),
)


@given(st.lists(_SENTENCE, min_size=1, max_size=8))
def test_the_curve_counts_as_sample_by_sample_thresholds_signs_included(
    stats: list[m.SentenceStats],
) -> None:
    mine = [
        (repr(p.confidence), repr(p.precision), repr(p.recall), repr(p.true_positives))
        for p in m.curve(stats)[:-1]
    ]
    assert mine == _curve_counted_one_by_one(stats)


def test_equal_thresholds_keep_the_first_met() -> None:
    """-0.0 met first (a negative of the first sentence) stays the threshold, though the
    positive 0.0 of the second sentence is counted with it."""
    stats = [m.SentenceStats(1, (), (-0.0,)), m.SentenceStats(1, (0.0,), ())]
    assert repr(m.curve(stats)[0].confidence) == "-0.0"
