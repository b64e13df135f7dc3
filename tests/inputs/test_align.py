"""Sentence alignment: the documented normalisation, and nothing guessed silently."""

from __future__ import annotations

import pytest

from benchie_cli.inputs.align import Aligner, sentence_key


@pytest.mark.parametrize(
    ("system", "gold"),
    [
        ("He said -LRB- twice -RRB- .", "He said ( twice ) ."),
        ("-LSB- a -RSB- -LCB- b -RCB-", "[ a ] { b }"),
        ("`` Yes , '' he said .", '" Yes , " he said .'),
        ("\u201cYes,\u201d he said.", '" Yes , " he said .'),
        ("\u00abOui\u00bb", '"Oui"'),
        ("It \u2019s John\u2018s", "It 's John's"),
        ("I do n't know", "I don't know"),
        ("M8 .7 sp", "M8.7sp"),
        ("  spaced\tout \n", "spaced out"),
    ],
)
def test_same_key(system: str, gold: str) -> None:
    assert sentence_key(system) == sentence_key(gold)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("He left .", "he left ."),  # no case folding
        ("He left .", "He left !"),  # punctuation counts
        ("(a)", "[a]"),  # brackets stay distinct
        ("a ' b", 'a " b'),  # single and double quotes stay distinct
    ],
)
def test_different_key(a: str, b: str) -> None:
    assert sentence_key(a) != sentence_key(b)


def test_aligner_reports_unaligned_ambiguous_and_uncovered() -> None:
    aligner = Aligner({"1": "A b .", "2": "C d .", "3": "C  d .", "4": "E f ."})
    assert aligner.sent_id("A  b .", 10) == "1"
    assert aligner.sent_id("A  b .", 11) == "1"  # seen: not counted twice
    assert aligner.sent_id("Cd.", 20) is None  # sentences 2 and 3 share the key
    assert aligner.sent_id("Nowhere .", 30) is None
    assert aligner.sent_id("Nowhere .", 31) is None
    aligner.covered.add("1")
    stats = aligner.finish()
    assert stats.aligned_sentences == 1
    assert [(s.line, s.text) for s in stats.unaligned] == [(30, "Nowhere .")]
    assert [(s.line, s.candidates) for s in stats.ambiguous] == [(20, ("2", "3"))]
    assert stats.gold_without_extraction == ["2", "3", "4"]
