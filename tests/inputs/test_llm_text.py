"""llm-text@1: an LLM's raw answers read into triples by fixed rules (docs/llm-text.md).
Each rule is checked on a fragment worked out by hand, every shape of a triple round-trips
(a property), and what no rule reads is reported with its line, never dropped."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchie_cli.errors import BenchieError
from benchie_cli.inputs import llm_text
from benchie_cli.inputs.llm_text import Triple, Unparsed, parse_fragment
from tests.conftest import REPO

ANSWERS = REPO / "examples" / "llm"


def _lines(text: str) -> list[tuple[int, str]]:
    return list(enumerate(text.splitlines(), 1))


@pytest.mark.parametrize(
    ("fragment", "triple"),
    [
        ("(He; served as; Prime Minister)", ("He", "served as", "Prime Minister")),
        ("1. (He; served as; Prime Minister)", ("He", "served as", "Prime Minister")),
        ("2) (He, served as, Prime Minister)", ("He", "served as", "Prime Minister")),
        ("- He | served as | Prime Minister", ("He", "served as", "Prime Minister")),
        ("**(He; served as; Prime Minister)**", ("He", "served as", "Prime Minister")),
        ("Answer: (He; served as; Prime Minister)", ("He", "served as", "Prime Minister")),
        ("1.(He; served as; Prime Minister)", ("He", "served as", "Prime Minister")),
        ("b) (He; served as; Prime Minister)", ("He", "served as", "Prime Minister")),
        (
            "Subject: He; Relation: served as; Object: Prime Minister",
            ("He", "served as", "Prime Minister"),
        ),
        (
            '{"head": "He", "relation": "served as", "tail": "Prime Minister"}',
            ("He", "served as", "Prime Minister"),
        ),
        ('["He", "served as", "Prime Minister"],', ("He", "served as", "Prime Minister")),
        ("<He, served as, Prime Minister>", ("He", "served as", "Prime Minister")),
        (
            '("He", "served as", "Prime Minister, then judge")',
            ("He", "served as", "Prime Minister, then judge"),
        ),
        ("('He', 'served as', 'Prime Minister')", ("He", "served as", "Prime Minister")),
        ('["He", "served as", "Prime Minister"]', ("He", "served as", "Prime Minister")),
        ("Triple 3: (He; served as; Prime Minister)", ("He", "served as", "Prime Minister")),
        ('(“He”; served as; "Prime Minister")', ("He", "served as", "Prime Minister")),
    ],
)
def test_each_shape_of_a_triple(fragment: str, triple: tuple[str, str, str]) -> None:
    assert parse_fragment(fragment, 7) == [Triple(7, *triple)]


def test_several_bracketed_triples_on_one_line_and_a_json_list_of_lists() -> None:
    assert parse_fragment("(a; b; c), (d; e; f)", 1) == [
        Triple(1, "a", "b", "c"),
        Triple(1, "d", "e", "f"),
    ]
    assert parse_fragment('[["a", "b", "c"], ["d", "e", "f"]]', 2) == [
        Triple(2, "a", "b", "c"),
        Triple(2, "d", "e", "f"),
    ]


@pytest.mark.parametrize(
    ("fragment", "reason"),
    [
        ("(Obama, born in, Honolulu, Hawaii)", "ambiguous: 4 slots, a triple has 3"),
        ("a | b | c | d | e", "ambiguous: 5 slots, a triple has 3"),
        ("(Obama; born in)", "2 slot(s), a triple has 3"),
        ("(Obama; ; Hawaii)", "an empty slot"),
        ("(Dr. Jagan; helped to raise; funds", "a '(' without its ')'"),
        ("Here are the triples:", "no triple: prose, or no separator"),
        ("I'm sorry, I cannot do that.", "no triple: prose, or no separator"),
        ("[1, 2, 3]", "a list of other than strings"),
        ("* He ; served as ; Prime Minister", "no triple: prose, or no separator"),
        ("He left; she stayed; they cried.", "no triple: prose, or no separator"),
        ("✅ (He; served as; PM) 🎉", "text outside the brackets: '✅  🎉'"),
        ("(a; b; c) - note", "text outside the brackets: '- note'"),
        ("((He; served as; PM))", "a bracket open or closed across slots: markup?"),
        ('{"subject": "He", "object": "PM"}', "a JSON object without a string 'relation'"),
        (
            '{"subject": "He", "relation": "served", "object": "X", "object": "as PM"}',
            "a JSON object giving the key 'object' twice",
        ),
    ],
)
def test_what_no_rule_reads_is_reported_with_why(fragment: str, reason: str) -> None:
    (found,) = parse_fragment(fragment, 4)
    assert isinstance(found, Unparsed) and found.line == 4 and found.reason == reason


@pytest.mark.parametrize("fragment", ["", "None", "N/A", "none.", "[]", "No triples found.", "  "])
def test_an_answer_of_nothing_is_neither_a_triple_nor_a_finding(fragment: str) -> None:
    assert parse_fragment(fragment, 1) == []


_SLOT = (
    st.text(
        alphabet=st.characters(whitelist_categories=("L", "N"), whitelist_characters=" .-'%$"),
        min_size=1,
        max_size=20,
    )
    .map(str.strip)
    .filter(lambda s: bool(s) and not s.startswith(("'", "-")) and not s.endswith("'"))
)


@given(
    _SLOT,
    _SLOT,
    _SLOT,
    st.sampled_from(["({}; {}; {})", "{} | {} | {}", '("{}", "{}", "{}")', "<{}; {}; {}>"]),
)
def test_every_shape_round_trips(s: str, r: str, o: str, shape: str) -> None:
    assert parse_fragment(shape.format(s, r, o), 1) == [Triple(1, s, r, o)]


def test_the_shipped_answers_both_layouts_give_the_same_triples_and_findings() -> None:
    """examples/llm/answers.jsonl and answers.txt hold the same seven answers: the same
    sentences, triples and findings (at their own lines)."""

    def read(name: str) -> list[llm_text.Answer]:
        path = ANSWERS / name
        return list(llm_text.read(_lines(path.read_text("utf-8")), name))

    jsonl, txt = read("answers.jsonl"), read("answers.txt")
    assert [a.sentence for a in jsonl] == [a.sentence for a in txt]
    strip = lambda a: [(t.subject, t.relation, t.object) for t in a.triples]  # noqa: E731
    assert [strip(a) for a in jsonl] == [strip(a) for a in txt]
    assert [[u.reason for u in a.unparsed] for a in jsonl] == [
        [u.reason for u in a.unparsed] for a in txt
    ]
    # Worked out by hand: 13 triples; a header, an n-ary answer, a refusal and an unclosed
    # bracket are the 4 findings.
    assert sum(len(a.triples) for a in jsonl) == 13
    assert [(u.line, u.reason) for a in txt for u in a.unparsed] == [
        (2, "no triple: prose, or no separator"),
        (19, "ambiguous: 4 slots, a triple has 3"),
        (22, "no triple: prose, or no separator"),
        (29, "a '(' without its ')'"),
    ]


def test_a_json_line_without_a_sentence_or_an_answer_says_which_keys_it_has() -> None:
    with pytest.raises(
        BenchieError, match=r"no answer: give one of 'output'.*\(found 'sentence', 'triples'\)"
    ):
        list(llm_text.read([(1, '{"sentence": "a b", "triples": []}')], "llm.jsonl"))
    with pytest.raises(BenchieError, match=r"no sentence: give one of 'sentence'"):
        list(llm_text.read([(1, '{"output": "(a; b; c)"}')], "llm.jsonl"))


def test_detection_needs_a_sentence_and_an_answer_on_every_line() -> None:
    assert llm_text.detect(
        ['{"sentence": "x", "output": "(a; b; c)"}', '{"sent_id": "2", "answer": ""}']
    )
    assert not llm_text.detect(['{"sentence": "x", "triples": [["a", "b", "c"]]}'])
    assert not llm_text.detect(["x\t(a; b; c)"])
